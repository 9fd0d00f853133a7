"""bench.cores: the broker pinned to cores of its own, the bench to the others."""
import os
import subprocess
import sys

import pytest

from bench.cores import split_cores


def test_broker_and_bench_get_disjoint_cores():
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        pytest.skip("one core: nothing to split")
    broker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    before = {tid: os.sched_getaffinity(int(tid)) for tid in os.listdir("/proc/self/task")}
    try:
        assert split_cores(broker.pid, 1) == len(cores) - 1
        assert os.sched_getaffinity(broker.pid) == {cores[-1]}
        assert os.sched_getaffinity(0) == set(cores[:-1])
    finally:
        for tid, mask in before.items():
            try:
                os.sched_setaffinity(int(tid), mask)
            except OSError:
                pass  # a thread that has ended since
        broker.kill()
        broker.wait()


def test_no_split_and_a_split_leaving_nothing():
    cores = os.sched_getaffinity(0)
    assert split_cores(os.getpid(), 0) == len(cores)
    assert os.sched_getaffinity(0) == cores
    with pytest.raises(SystemExit, match="this machine has"):
        split_cores(os.getpid(), len(cores))
