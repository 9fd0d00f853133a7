"""Codec packages are imported on first use; threads that compress at once (send_arrow's
encoders, Spark tasks) must each get the whole module, not one another thread is still
importing."""
import subprocess
import sys

import pytest

_CHILD = r'''
import sys, threading
from kafkacodec.records import compression
codec, module = sys.argv[1], sys.argv[2]
assert module not in sys.modules
errors = []
start = threading.Barrier(8)
def work():
    start.wait()
    try:
        compression.compress(codec, b"x" * 1000)
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(errors)
sys.exit(1 if errors else 0)
'''


@pytest.mark.parametrize("codec, module", [("lz4", "lz4.frame"), ("zstd", "zstandard"), ("snappy", "cramjam")])
def test_first_use_from_many_threads(codec, module):
    # a fresh interpreter each time: the first import is the one that races
    for _ in range(5):
        proc = subprocess.run([sys.executable, "-c", _CHILD, codec, module], capture_output=True, text=True,
                              timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr[-2000:]
