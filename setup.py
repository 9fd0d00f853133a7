"""Build script: the explicit list of compiled extensions.

Metadata lives in pyproject.toml; this file only declares the Cython/C
extensions so every module and its C sources are visible in one place.
"""
import glob
import os
import shutil
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

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
    ext("kafkacodec.compat._face_records"),
    ext("kafkacodec.client._sender_state"),
    ext("kafkacodec.client.send_path"),
    ext("kafkacodec.client._sender_steps"),
    ext("kafkacodec.compat.confluent_kafka._produce"),
    ext("kafkacodec.compat.confluent_kafka._message"),
]

# What changes how a module compiles; with any of these set, nothing built before is reused.
_BUILD_ENVIRONMENT = ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS", "LDSHARED", "ARCHFLAGS")


class ReuseUpToDateBuild(build_ext):
    """An editable install (``pip install -e '.[extra]'``) compiles in a new
    temporary directory each time, so adding an extra rebuilt every module
    (about two minutes).  A module already compiled into the source tree,
    newer than its C sources, the headers in csrc/ and this file, is copied
    instead; any change to them, or a compiler setting in the environment,
    builds it again.  (A module compiled in place by hand with other flags,
    e.g. a sanitizer build, is reused too: delete its .so to rebuild.)"""

    def build_extension(self, ext):
        built = os.path.join(*ext.name.split(".")) + sysconfig.get_config_var("EXT_SUFFIX")
        if getattr(self, "editable_mode", False) and _up_to_date(built, ext):
            target = self.get_ext_fullpath(ext.name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(built, target)
            return
        super().build_extension(ext)


def _up_to_date(built, ext):
    if any(os.environ.get(name) for name in _BUILD_ENVIRONMENT) or not os.path.exists(built):
        return False
    inputs = [*ext.sources, *ext.depends, __file__, *glob.glob(os.path.join(CSRC, "*.h"))]
    try:
        return all(os.path.getmtime(path) <= os.path.getmtime(built) for path in inputs)
    except OSError:  # an input that cannot be read is rebuilt from, never assumed old
        return False


# Development convenience: build a subset, e.g.
# KAFKACODEC_BUILD_ONLY=kafkacodec._crc,kafkacodec._buffer python setup.py build_ext --inplace
_only = {n.strip() for n in os.environ.get("KAFKACODEC_BUILD_ONLY", "").split(",") if n.strip()}
if _only:
    EXTENSIONS = [e for e in EXTENSIONS if e.name in _only]

setup(
    cmdclass={"build_ext": ReuseUpToDateBuild},
    ext_modules=cythonize(
        EXTENSIONS,
        compiler_directives={"language_level": "3", "embedsignature": True},
        include_path=["."],
    ),
)
