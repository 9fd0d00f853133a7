"""Build script: the explicit list of compiled extensions.

Metadata lives in pyproject.toml; this file only declares the Cython/C
extensions so every module and its C sources are visible in one place.
"""
import os
import sys

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:  # pragma: no cover - build requirement declared in pyproject
    sys.exit("building kafkacodec needs Cython >= 3.0 (pip install cython)")

CSRC = "csrc"
EXTRA_COMPILE_ARGS = ["-O3", "-fno-strict-aliasing"] if os.name != "nt" else ["/O2"]


def ext(name, *c_sources):
    pyx = name.replace(".", "/") + ".pyx"
    return Extension(
        name,
        [pyx, *(os.path.join(CSRC, s) for s in c_sources)],
        include_dirs=[CSRC],
        extra_compile_args=EXTRA_COMPILE_ARGS,
    )


EXTENSIONS = [
    ext("kafkacodec._crc", "crc32c.c"),
    ext("kafkacodec._buffer"),
    ext("kafkacodec.records._records"),
    ext("kafkacodec.arrow._columnar"),
    ext("kafkacodec.arrow._encode"),
    ext("kafkacodec.avro._avro"),
    ext("kafkacodec.protocol._codec"),
    ext("kafkacodec.integrations._decode"),
    ext("kafkacodec.integrations._build"),
    ext("kafkacodec.client._sender_state"),
    ext("kafkacodec.client._send_path"),
    ext("kafkacodec.client._sender_steps"),
]

# Development convenience: build a subset, e.g.
# KAFKACODEC_BUILD_ONLY=kafkacodec._crc,kafkacodec._buffer python setup.py build_ext --inplace
_only = {n.strip() for n in os.environ.get("KAFKACODEC_BUILD_ONLY", "").split(",") if n.strip()}
if _only:
    EXTENSIONS = [e for e in EXTENSIONS if e.name in _only]

setup(
    ext_modules=cythonize(
        EXTENSIONS,
        compiler_directives={"language_level": "3", "embedsignature": True},
        include_path=["."],
    ),
)
