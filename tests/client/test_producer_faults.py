"""The idempotent producer under faults injected into librdkafka's mock cluster:
Produce errors, a broker going down, leaders moving, sequence errors that need an
epoch bump.  Every record must be in the log exactly once, in send order per partition.

The mock cluster does not check sequence numbers of non-transactional producers
(measured: it appends base sequence 5 of a new producer id, and the same sequence twice),
so it would append batches pipelined behind a failed one; the producer keeps one request
per partition in flight, and test_producer_order.py checks order with
max.in.flight.requests.per.connection 5.  The tests here keep one request in flight per
connection, so that a broker going down seldom loses an answer: the request would be
resent, and the mock, unlike Kafka, keeps the duplicate.
Also: buffer.memory bounds what is queued, and a send() that finds no memory fails
after max.block.ms with an error naming both settings."""
import threading
import time
import uuid

import pytest

from kafkacodec.client import Producer
from kafkacodec.client import errors as E

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker]

PRODUCE = 0



def _topic(bootstrap, partitions):
    name = f"pf-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, name, partitions)
    return name


def _check_exactly_once_in_order(bootstrap, topic, n, partitions):
    got = _peers.consume_with_confluent(bootstrap, topic, n + 1, timeout=6)  # n + 1: a duplicate would show
    values = {}
    for key, value, _, _, offset, partition in got:
        values.setdefault(partition, []).append(int(value))
    assert sum(len(v) for v in values.values()) == n, "records lost or duplicated"
    for p in range(partitions):
        assert values.get(p, []) == list(range(p, n, partitions)), f"partition {p} out of order or incomplete"


def _produce(bootstrap, topic, n, partitions, during=None, **conf):
    base = {"bootstrap.servers": bootstrap, "linger.ms": 1, "batch.size": 1024, "retry.backoff.ms": 20,
            "request.timeout.ms": 5000, "delivery.timeout.ms": 60000,
            "max.in.flight.requests.per.connection": 1}
    base.update(conf)
    with Producer(base) as p:
        handles = []
        for i in range(n):
            handles.append(p.send(topic, b"%d" % i, partition=i % partitions))
            if during is not None and i == n // 3:
                during()
        p.flush(60)
        for h in handles:
            h.get(0)
        return p.stats


@pytest.mark.timeout(90)
@pytest.mark.parametrize("codes", [[6, 6, 6], [7, 7], [19, 20, 19], [6, 7, 19, 5, 56]])
def test_retriable_produce_errors_write_each_record_once(mock3, codes):
    topic = _topic(mock3, 2)
    _peers.mock_fault(mock3, "errors", PRODUCE, *codes)
    stats = _produce(mock3, topic, 3000, 2)
    assert stats["retries"] >= len(codes)
    _check_exactly_once_in_order(mock3, topic, 3000, 2)


@pytest.mark.timeout(90)
def test_errors_mid_stream_with_many_batches_in_flight(mock3):
    topic = _topic(mock3, 3)

    def inject():
        _peers.mock_fault(mock3, "errors", PRODUCE, 6, 7, 19, 7, 6)

    stats = _produce(mock3, topic, 6000, 3, during=inject)
    assert stats["retries"] >= 5
    _check_exactly_once_in_order(mock3, topic, 6000, 3)


@pytest.mark.timeout(90)
def test_leader_moves_and_broker_down(mock3):
    topic = _topic(mock3, 3)
    steps = iter([
        lambda: _peers.mock_fault(mock3, "leader", topic, 0, 2),
        lambda: _peers.mock_fault(mock3, "leader", topic, 1, 3),
    ])

    def move():
        for step in steps:
            step()

    stats = _produce(mock3, topic, 6000, 3, during=move, **{"metadata.max.age.ms": 1000})
    _check_exactly_once_in_order(mock3, topic, 6000, 3)

    topic2 = _topic(mock3, 2)
    downed = []

    def down():
        _peers.mock_fault(mock3, "down", 1)
        downed.append(time.monotonic())
        threading.Timer(0.5, lambda: _peers.mock_fault(mock3, "up", 1)).start()

    _produce(mock3, topic2, 4000, 2, during=down)
    assert downed
    _check_exactly_once_in_order(mock3, topic2, 4000, 2)


@pytest.mark.timeout(90)
def test_out_of_order_sequence_bumps_the_epoch(mock3):
    topic = _topic(mock3, 2)
    with Producer({"bootstrap.servers": mock3, "linger.ms": 1, "batch.size": 1024,
                   "max.in.flight.requests.per.connection": 1}) as p:
        p.send(topic, b"0", partition=0).get(20)
        pid_before = p.producer_id
        _peers.mock_fault(mock3, "errors", PRODUCE, 45)
        handles = [p.send(topic, b"%d" % i, partition=i % 2) for i in range(1, 2000)]
        p.flush(60)
        for h in handles:
            h.get(0)
        # the mock refuses KIP-360 bumps without a transactional id
        # (INVALID_PRODUCER_ID_MAPPING): the producer then starts over with a new id
        assert p.stats.get("epoch_bumps", 0) + p.stats.get("producer_id_resets", 0) >= 1
        assert p.producer_id != pid_before
    _check_exactly_once_in_order(mock3, topic, 2000, 2)


@pytest.mark.timeout(90)
def test_buffer_memory_bounds_queued_batches_and_send_times_out(mock3):
    topic = _topic(mock3, 2)
    batch, memory = 2048, 4 * 2048
    conf = {"bootstrap.servers": mock3, "batch.size": batch, "buffer.memory": memory, "linger.ms": 0,
            "max.block.ms": 800, "acks": 1}
    with Producer(conf) as p:
        p.send(topic, b"warm", partition=0).get(20)
        _peers.mock_fault(mock3, "rtt", 1, 150)
        _peers.mock_fault(mock3, "rtt", 2, 150)
        _peers.mock_fault(mock3, "rtt", 3, 150)
        peak = [0]
        stop = threading.Event()

        def watch():
            while not stop.is_set():
                used = memory - p._pool.available_memory
                peak[0] = max(peak[0], used, len(p._acc.incomplete) * batch)
                time.sleep(0.0005)

        watcher = threading.Thread(target=watch)
        watcher.start()
        t0 = time.monotonic()
        try:
            handles = [p.send(topic, b"x" * 200, partition=i % 2) for i in range(300)]
            p.flush(60)
        finally:
            stop.set()
            watcher.join()
        elapsed = time.monotonic() - t0
        assert all(h.get(0).offset >= 0 for h in handles)
        assert peak[0] <= memory
        assert peak[0] >= memory // 2  # the bound was actually reached
        # 300 records of ~210 bytes are ~35 batches of 2 KiB; 4 fit: senders had to wait for answers
        assert elapsed > 0.3

        # nothing is acknowledged while every broker is down: memory runs out, send() gives up
        for b in (1, 2, 3):
            _peers.mock_fault(mock3, "down", b)
        t0 = time.monotonic()
        with pytest.raises(E.KafkaTimeoutError, match=r"buffer\.memory.*|max\.block\.ms") as info:
            for i in range(100):
                p.send(topic, b"y" * 500, partition=i % 2)
        waited = time.monotonic() - t0
        assert "max.block.ms" in str(info.value) and "buffer.memory" in str(info.value)
        assert 0.7 <= waited < 5
        for b in (1, 2, 3):
            _peers.mock_fault(mock3, "up", b)
            _peers.mock_fault(mock3, "rtt", b, 0)
        p.flush(60)
