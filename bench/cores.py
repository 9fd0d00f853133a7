"""Splitting this machine's cores between a broker and the bench, as if the broker had a
machine of its own: on a shared 2-core machine the broker's answers wait for a core
whenever the client under test is busy, which charges the client for the machine."""
from __future__ import annotations

import os


def split_cores(broker_pid: int, broker_cores: int) -> int:
    """Pin every thread of the broker to the last `broker_cores` cores and this process (and
    the threads and processes it starts later) to the others; the number of cores left here.
    0: nothing is pinned."""
    cores = sorted(os.sched_getaffinity(0))
    if broker_cores <= 0:
        return len(cores)
    if broker_cores >= len(cores):
        raise SystemExit(f"--broker-cores {broker_cores}: this machine has {len(cores)} cores")
    for tid in os.listdir(f"/proc/{broker_pid}/task"):
        os.sched_setaffinity(int(tid), cores[-broker_cores:])
    for tid in os.listdir("/proc/self/task"):
        os.sched_setaffinity(int(tid), cores[:-broker_cores])
    return len(cores) - broker_cores
