"""The I/O thread's selector keeps waits to the microsecond: the whole milliseconds of a wait
go to epoll, the rest to select(2); readiness is reported as the platform selector reports
it, also past select's descriptor limit."""
import math
import os
import resource
import select
import selectors
import socket
import time

import pytest

from kafkacodec.client import _selector
from kafkacodec.client._selector import FineTimeoutSelector

pytestmark = pytest.mark.skipif(not _selector._MS_RESOLUTION, reason="the platform selector keeps sub-ms waits")


@pytest.fixture
def pair():
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    yield a, b
    a.close()
    b.close()


def test_a_wait_is_split_into_whole_milliseconds_and_the_rest(monkeypatch):
    base_waits, fine_waits = [], []
    real_select = select.select

    def base_select(self, timeout=None):
        base_waits.append(timeout)
        time.sleep(timeout or 0)  # as epoll does with nothing ready
        return []

    def fine_select(r, w, x, timeout):
        fine_waits.append(timeout)
        return real_select(r, w, x, 0)

    monkeypatch.setattr(_selector._BASE, "select", base_select)
    monkeypatch.setattr(select, "select", fine_select)
    with FineTimeoutSelector() as sel:
        sel.select(0.0053)
        sel.select(0.0004)
        sel.select(0)
        sel.select(None)
    # epoll's rounding up of 0.005 - 1 ns stays 5 ms; the 0.3 ms rest goes to select(2)
    assert math.ceil(base_waits[0] * 1000) == 5 and base_waits[1:] == [0, None]
    assert len(fine_waits) == 2 and 0 < fine_waits[0] <= 0.0003 and 0.0003 < fine_waits[1] <= 0.0004


def test_never_returns_before_the_timeout(pair):
    with FineTimeoutSelector() as sel:
        sel.register(pair[0], selectors.EVENT_READ)
        for timeout in (0.0003, 0.0023):
            start = time.monotonic()
            assert sel.select(timeout) == []
            assert time.monotonic() - start >= timeout


def test_readiness_from_the_fine_part(pair):
    a, b = pair
    with FineTimeoutSelector() as sel:
        key_a = sel.register(a, selectors.EVENT_READ, "reader")
        key_b = sel.register(b, selectors.EVENT_READ | selectors.EVENT_WRITE, "both")
        b.send(b"x")
        got = dict((key.data, events) for key, events in sel._select_fine(0.0005))
        assert got == {"reader": selectors.EVENT_READ, "both": selectors.EVENT_WRITE}
        assert [k for k, _ in sel._select_fine(0.0005) if k.data == "reader"] == [key_a]
        a.send(b"y")
        assert dict((key.data, events) for key, events in sel.select(0.0005))["both"] == (
            selectors.EVENT_READ | selectors.EVENT_WRITE)
        assert key_b.data == "both"


def test_a_descriptor_past_fd_setsize_waits_whole_milliseconds(pair):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    high = 1500
    if hard != resource.RLIM_INFINITY and hard <= high:
        pytest.skip(f"RLIMIT_NOFILE hard limit {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, high + 1), hard))
    try:
        fd = os.dup2(pair[0].fileno(), high)
        try:
            with pytest.raises(ValueError):
                select.select([fd], [], [], 0)
            with FineTimeoutSelector() as sel:
                sel.register(fd, selectors.EVENT_READ, "high")
                start = time.monotonic()
                assert sel.select(0.0004) == []
                assert time.monotonic() - start >= 0.0004
                pair[1].send(b"x")
                assert [(k.data, e) for k, e in sel.select(0.0004)] == [("high", selectors.EVENT_READ)]
        finally:
            os.close(fd)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
