"""Chooses the compiled extension or the pure-Python twin, once.

KAFKACODEC_PURE=1 forces the twin.  If the extension is missing or broken,
kafkacodec keeps working on the twin but says so loudly (a RuntimeWarning and
a line on stderr), because a silent fallback costs users an order of magnitude
without telling them.
"""
import os
import sys
import warnings

FORCED_PURE = os.environ.get("KAFKACODEC_PURE", "").strip().lower() not in ("", "0", "false", "no")
load_error = None

if FORCED_PURE:
    accelerated = False
else:
    try:
        from kafkacodec import _buffer as buffer  # noqa: F401
        from kafkacodec import _crc as crc  # noqa: F401
        accelerated = True
    except ImportError as exc:  # pragma: no cover - exercised in a subprocess test
        accelerated = False
        load_error = exc
        from importlib.machinery import EXTENSION_SUFFIXES
        _here = os.path.dirname(os.path.abspath(__file__))
        if not any(os.path.exists(os.path.join(_here, "_buffer" + suffix)) for suffix in EXTENSION_SUFFIXES):
            # A source checkout nobody built: say that, not what the failed import guessed.
            problem = (f"kafkacodec is not built (no compiled modules in {_here}); build it with "
                       "`pip install -e .` (needs a C compiler and Cython)")
        else:
            problem = f"the compiled extension could not be imported ({exc})"
        message = (
            f"kafkacodec: {problem}; falling back to the pure-Python implementation, which is "
            "10-100x slower. Set KAFKACODEC_PURE=1 to choose it deliberately and silence this warning."
        )
        warnings.warn(message, RuntimeWarning, stacklevel=2)
        print(message, file=sys.stderr)

if not accelerated:
    from kafkacodec._pure import buffer  # noqa: F811
    from kafkacodec._pure import crc  # noqa: F811
