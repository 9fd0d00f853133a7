"""A client no longer referred to goes, as Python objects do, and takes its I/O thread with it:
a producer dropped without close() still delivers what it had queued and then stops; a
consumer (classic, KIP-848 or share) stops at once, neither committing nor leaving its group,
as librdkafka's handle destroyed without a consumer close.  The I/O thread refers to a
client only weakly, and nothing waits in the collection (it may run on that thread)."""
import gc
import os
import subprocess
import sys
import textwrap
import threading
import time
import uuid
import weakref

import pytest

import _peers
from kafkacodec.client import Consumer, Producer, TopicPartition
from kafkacodec.client.share import ShareConsumer

pytestmark = pytest.mark.timeout(120)


def _topic(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _new_threads(before):
    return [t for t in threading.enumerate() if t.ident not in before]


def _ended(threads, within=10.0):
    for t in threads:
        t.join(within)
    return not any(t.is_alive() for t in threads)


def _read_all(bootstrap, topic, partitions, expected, within=30.0):
    with Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest"}) as c:
        c.assign([TopicPartition(topic, p) for p in range(partitions)])
        got, deadline = [], time.monotonic() + within
        while len(got) < expected and time.monotonic() < deadline:
            got.extend(r.value for r in c.poll(0.2))
        return got


def test_a_producer_dropped_unclosed_delivers_what_it_queued_then_stops(tansu_bootstrap):
    topic = _topic("pdrop")
    _peers.create_topic(tansu_bootstrap, topic, 2)
    before = {t.ident for t in threading.enumerate()}
    # records linger a minute: only the drop sends them within the test
    p = Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 60_000})
    p.partitions_for(topic)
    for i in range(50):
        p.send(topic, b"v%d" % i, partition=i % 2)
    ref, started = weakref.ref(p), _new_threads(before)
    assert started, "the producer's I/O thread"
    del p
    gc.collect()
    assert ref() is None, "the I/O thread keeps the producer"
    assert _ended(started), "the I/O thread of the dropped producer still runs"
    assert sorted(_read_all(tansu_bootstrap, topic, 2, 50)) == sorted(b"v%d" % i for i in range(50))


def test_a_producer_with_nothing_queued_goes_at_once(tansu_bootstrap):
    topic = _topic("pidle")
    _peers.create_topic(tansu_bootstrap, topic, 1)
    before = {t.ident for t in threading.enumerate()}
    p = Producer({"bootstrap.servers": tansu_bootstrap})
    p.send(topic, b"v").result(10)  # connected, nothing left queued
    ref, started = weakref.ref(p), _new_threads(before)
    del p
    gc.collect()
    assert ref() is None
    t0 = time.monotonic()
    assert _ended(started)
    assert time.monotonic() - t0 < 2.0  # no wait for a deadline (the I/O loop ends in the pass that stops it)


def test_the_pure_producer_dropped_unclosed_delivers_and_stops(tansu_bootstrap):
    """The same with the pure-Python twins (KAFKACODEC_PURE), in a process of its own."""
    topic = _topic("pdrop-pure")
    _peers.create_topic(tansu_bootstrap, topic, 1)
    program = textwrap.dedent(f"""
        import gc, threading, weakref
        from kafkacodec import _impl
        from kafkacodec.client import Producer
        assert not _impl.accelerated
        before = {{t.ident for t in threading.enumerate()}}
        p = Producer({{"bootstrap.servers": {tansu_bootstrap!r}, "linger.ms": 60_000}})
        p.partitions_for({topic!r})
        for i in range(20):
            p.send({topic!r}, b"v%d" % i)
        ref = weakref.ref(p)
        started = [t for t in threading.enumerate() if t.ident not in before]
        del p
        gc.collect()
        assert ref() is None
        for t in started:
            t.join(10)
        assert not any(t.is_alive() for t in started)
    """)
    env = dict(os.environ, KAFKACODEC_PURE="1")
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert len(_read_all(tansu_bootstrap, topic, 1, 20)) == 20


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
def test_a_consumer_dropped_unclosed_stops_without_committing(tansu_bootstrap, mock1, protocol):
    bootstrap = tansu_bootstrap if protocol == "classic" else mock1  # KIP-848 groups: the mock cluster
    topic = _topic("cdrop")
    _peers.create_topic(bootstrap, topic, 1)
    with Producer({"bootstrap.servers": bootstrap}) as p:
        for i in range(3):
            p.send(topic, b"v%d" % i)
    group = _topic("g")
    before = {t.ident for t in threading.enumerate()}
    # auto-commit on, its periodic commit far off: only a close would commit (a short session
    # timeout: Tansu holds a new classic group back for half of it)
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": protocol,
                  "auto.offset.reset": "earliest", "auto.commit.interval.ms": 600_000,
                  **({"session.timeout.ms": 6000} if protocol == "classic" else {})})
    c.subscribe([topic])
    got, deadline = 0, time.monotonic() + 30
    while got < 3 and time.monotonic() < deadline:
        got += len(c.poll(0.2))
    assert got == 3
    ref, started = weakref.ref(c), _new_threads(before)
    del c
    gc.collect()
    assert ref() is None, "the I/O thread keeps the consumer"
    assert _ended(started), "the I/O thread of the dropped consumer still runs"
    with Consumer({"bootstrap.servers": bootstrap, "group.id": group}) as other:
        assert other.committed([TopicPartition(topic, 0)], timeout=10)[TopicPartition(topic, 0)] is None


def test_a_share_consumer_dropped_unclosed_stops(mock1):
    topic = _topic("sdrop")
    _peers.create_topic(mock1, topic, 1)
    before = {t.ident for t in threading.enumerate()}
    c = ShareConsumer({"bootstrap.servers": mock1, "group.id": _topic("sg"), "fetch.max.wait.ms": 100})
    c.subscribe([topic])
    deadline = time.monotonic() + 20
    while not c.assignment():
        assert time.monotonic() < deadline, "share consumer not assigned"
        c.poll(0.05)
    ref, started = weakref.ref(c), _new_threads(before)
    del c
    gc.collect()
    assert ref() is None, "the I/O thread keeps the share consumer"
    assert _ended(started)
