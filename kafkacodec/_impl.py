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
        message = (
            f"kafkacodec: the compiled extension could not be imported ({exc}); "
            "falling back to the pure-Python implementation, which is 10-100x slower. "
            "Reinstall kafkacodec with a C compiler available, or set KAFKACODEC_PURE=1 "
            "to silence this warning."
        )
        warnings.warn(message, RuntimeWarning, stacklevel=2)
        print(message, file=sys.stderr)

if not accelerated:
    from kafkacodec._pure import buffer  # noqa: F811
    from kafkacodec._pure import crc  # noqa: F811
