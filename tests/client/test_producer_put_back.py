"""Batches the sender drained but found no free in-flight slot for go back to their
queues (Sender._requests cuts Produce requests at max.request.size within the free
slots).  Such a batch was numbered when it was built: dropped there (purge, an aborted
transaction) it must not leave a gap in its partition's sequence, which the broker
would refuse the next batch for; and a partition whose batch is put back must not wait
behind busier ones until delivery.timeout.ms."""
import threading
import time
import uuid

import pytest

import _peers
from kafkacodec.client import Producer

pytestmark = pytest.mark.broker


def _spy_put_back(producer):
    put_back = []
    plain = producer._sender._put_back

    def spy(batches):
        put_back.extend(batches)
        plain(batches)

    producer._sender._put_back = spy
    return put_back


def _wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.002)
    return condition()


def test_batches_put_back_then_purged_leave_no_sequence_gap(tansu_bootstrap):
    bs = tansu_bootstrap
    topic = f"pb-purge-{uuid.uuid4().hex[:8]}"
    partitions = 30
    _peers.create_topic(bs, topic, partitions)
    # one 16 KB batch per request and one request in flight: most drained batches go back
    conf = {"bootstrap.servers": bs, "linger.ms": 0, "max.in.flight.requests.per.connection": 1,
            "max.request.size": 20000, "batch.size": 16384, "request.timeout.ms": 5000,
            "delivery.timeout.ms": 10000}
    with Producer(conf) as p:
        put_back = _spy_put_back(p)
        for k in range(partitions):
            p.send(topic, b"s", partition=k)
        p.flush(10)
        for k in range(partitions):
            p.send(topic, b"x" * 15000, partition=k)
        assert _wait_for(lambda: put_back, 5), "no batch was put back: the test did not reach its case"
        p.purge(in_queue=True)
        after = [p.send(topic, b"after", partition=k) for k in range(partitions)]
        p.flush(20)
        assert [h.exception(0) for h in after] == [None] * partitions


def test_batches_put_back_then_aborted_leave_no_sequence_gap(mock1):
    bs = mock1
    topic = f"pb-abort-{uuid.uuid4().hex[:8]}"
    partitions = 4
    _peers.create_topic(bs, topic, partitions)
    conf = {"bootstrap.servers": bs, "transactional.id": "tx-" + topic, "linger.ms": 0,
            "max.in.flight.requests.per.connection": 1, "max.request.size": 20000, "batch.size": 16384,
            "request.timeout.ms": 5000, "delivery.timeout.ms": 10000}
    with Producer(conf) as p:
        put_back = _spy_put_back(p)
        p.init_transactions(10)
        p.begin_transaction()
        for k in range(partitions):
            p.send(topic, b"small", partition=k)
        p.flush(10)
        _peers.mock_fault(bs, "rtt", 1, 800)  # the next Produce stays in flight while the rest wait
        for k in range(partitions):
            p.send(topic, b"x" * 15000, partition=k)
        assert _wait_for(lambda: put_back, 5), "no batch was put back: the test did not reach its case"
        p.abort_transaction(20)
        _peers.mock_fault(bs, "rtt", 1, 0)
        p.begin_transaction()
        after = [p.send(topic, b"after", partition=k) for k in range(partitions)]
        p.flush(20)
        assert [h.exception(0) for h in after] == [None] * partitions
        p.commit_transaction(20)


def test_a_partition_put_back_does_not_wait_behind_busier_ones(mock1):
    bs = mock1
    topic = f"pb-fair-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bs, topic, 3)
    # two full batches per request, one request in flight: partitions 0 and 1 always have
    # a full batch ready and come first in the queues' order
    conf = {"bootstrap.servers": bs, "linger.ms": 0, "batch.size": 16384, "max.request.size": 33000,
            "max.in.flight.requests.per.connection": 1, "buffer.memory": 4 << 20,
            "request.timeout.ms": 2000, "delivery.timeout.ms": 4000}
    with Producer(conf) as p:
        for k in range(3):
            p.send(topic, b"warm", partition=k).get(10)
        stop = threading.Event()

        def busy():
            v = b"x" * 1000
            while not stop.is_set():
                for _ in range(200):
                    p.send(topic, v, partition=0)
                    p.send(topic, v, partition=1)

        t = threading.Thread(target=busy)
        t.start()
        try:
            time.sleep(0.5)
            quiet = [p.send(topic, b"q%d" % i + b"q" * 2000, partition=2) for i in range(3)]
            _wait_for(lambda: all(h.done() for h in quiet), 6)
        finally:
            stop.set()
            t.join()
        assert [h.exception(0) if h.done() else "pending" for h in quiet] == [None] * 3
        p.purge(in_queue=True)
