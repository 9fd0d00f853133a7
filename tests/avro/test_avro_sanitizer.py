"""kafkacodec.avro's compiled module under AddressSanitizer and UBSan (slow).

Copies the checkout into a temporary directory, builds kafkacodec.avro._avro
there with -fsanitize=address,undefined (the other compiled modules are copied
as built), and runs the Avro tests, the long property runs and a minute of
mutated fuzz seeds in that copy with the ASan runtime preloaded.  Any report
aborts the run.  Needs gcc and a Python with Cython (this one, or
KAFKACODEC_CYTHON_PYTHON).
"""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FLAGS = "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
MUTATE = """
import random, sys, time
sys.path.insert(0, "tests/fuzz")
import _avro_target as t
seeds, rnd, t0, n = t.avro_seeds(), random.Random(1), time.time(), 0
while time.time() - t0 < 60:
    d = bytearray(rnd.choice(seeds))
    for _ in range(rnd.randrange(1, 6)):
        i = rnd.randrange(len(d) + 1)
        [lambda: d.insert(i, rnd.randrange(256)), lambda: d[i:i + rnd.randrange(1, 8)].clear() if d else None,
         lambda: d.__setitem__(slice(i, i + 4), rnd.randbytes(4))][rnd.randrange(3)]()
    t.avro_diff(bytes(d))
    n += 1
print("runs", n)
"""


def _cython_python():
    for py in (os.environ.get("KAFKACODEC_CYTHON_PYTHON"), sys.executable, sys._base_executable):
        if py and subprocess.run([py, "-c", "import Cython"], capture_output=True).returncode == 0:
            return py
    return None


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_avro_under_sanitizers(tmp_path):
    pytest.importorskip("fastavro")
    builder = _cython_python()
    gcc = shutil.which("gcc")
    if builder is None or gcc is None:
        pytest.skip("needs gcc and a Python with Cython")
    libasan = subprocess.run([gcc, "-print-file-name=libasan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(libasan):
        pytest.skip("gcc has no AddressSanitizer runtime")
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv*", "build", "wheels", "bench",
                                                              "*.c", "__pycache__", ".hypothesis"),
                    symlinks=True)
    shutil.copytree(ROOT / "csrc", copy / "csrc", dirs_exist_ok=True)
    for so in (copy / "kafkacodec" / "avro").glob("*.so"):
        so.unlink()
    env = {**os.environ, "CFLAGS": FLAGS, "LDFLAGS": "-fsanitize=address,undefined",
           "KAFKACODEC_BUILD_ONLY": "kafkacodec.avro._avro"}
    built = subprocess.run([builder, "setup.py", "build_ext", "--inplace"], cwd=copy, env=env,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    run_env = {**os.environ, "LD_PRELOAD": libasan, "ASAN_OPTIONS": "detect_leaks=0:verify_asan_link_order=0",
               "UBSAN_OPTIONS": "print_stacktrace=1", "PYTHONPATH": str(copy)}
    where = subprocess.run([sys.executable, "-c", "import kafkacodec.avro._avro as m; print(m.__file__)"],
                           cwd=copy, env=run_env, capture_output=True, text=True)
    assert where.stdout.startswith(str(copy)), where.stdout + where.stderr[-2000:]
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "slow or not slow",
                            "tests/avro", "--ignore", "tests/avro/test_avro_sanitizer.py",
                            "--ignore", "tests/avro/test_avro_bench.py"],
                           cwd=copy, env=run_env, capture_output=True, text=True)
    assert tests.returncode == 0, (tests.stdout + tests.stderr)[-6000:]
    fuzz = subprocess.run([sys.executable, "-c", MUTATE], cwd=copy, env=run_env, capture_output=True, text=True)
    assert fuzz.returncode == 0 and "runs" in fuzz.stdout, (fuzz.stdout + fuzz.stderr)[-6000:]
