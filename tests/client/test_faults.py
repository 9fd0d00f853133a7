"""Faults injected into librdkafka's mock cluster while the consumer reads: leader moves,
a broker down and back, Fetch errors, slow responses beyond request.timeout.ms.
The consumer must continue with every record exactly once, in order per partition."""
import threading
import time
import uuid

import pytest

from kafkacodec.client import Consumer

_peers = pytest.importorskip("_peers")
pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

PARTITIONS = 3
PER_PARTITION = 2000



def _fill(bootstrap):
    topic = f"flt-{uuid.uuid4().hex[:6]}"
    _peers.create_topic(bootstrap, topic, PARTITIONS)
    records = [(b"k", b"v-%d" % i, None, None, i % PARTITIONS) for i in range(PARTITIONS * PER_PARTITION)]
    _peers.produce_with_confluent(bootstrap, topic, records, linger_ms=0, batch_num_messages=50)
    return topic


def _consume_through(bootstrap, topic, faults, **conf):
    """Consume everything while `faults(consumer)` runs in another thread; returns (partition, offset)s."""
    settings = {"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest", "max.poll.records": 100,
                "max.partition.fetch.bytes": 4096, "fetch.max.wait.ms": 100, "retry.backoff.ms": 50,
                "reconnect.backoff.ms": 20, "reconnect.backoff.max.ms": 200, "metadata.max.age.ms": 2000}
    settings.update(conf)
    seen = []
    with Consumer(settings) as c:
        c.assign([(topic, p) for p in range(PARTITIONS)])
        worker = threading.Thread(target=faults, args=(c,), daemon=True)
        started = False
        deadline = time.monotonic() + 90
        while len(seen) < PARTITIONS * PER_PARTITION and time.monotonic() < deadline:
            batch = c.poll(0.2)
            seen += [(r.partition, r.offset) for r in batch]
            if not started and len(seen) > 500:
                worker.start()
                started = True
            if started:
                time.sleep(0.002)  # slow the reader so the faults land mid-stream
        worker.join(30)
        seen += [(r.partition, r.offset) for r in c.poll(0.5)]
    return seen


def _check(seen):
    assert len(seen) == len(set(seen)), "duplicates"
    for p in range(PARTITIONS):
        offsets = [o for q, o in seen if q == p]
        assert offsets == list(range(PER_PARTITION)), f"partition {p}: lost or reordered"


def test_leader_moves_and_fetch_errors(mock3):
    topic = _fill(mock3)

    def faults(_consumer):
        for step, broker in enumerate([2, 3, 1, 2]):
            _peers.mock_fault(mock3, "leader", topic, step % PARTITIONS, broker)
            time.sleep(0.2)
        # NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION and NOT_LEADER again on the next Fetches
        _peers.mock_fault(mock3, "errors", 1, 6, 3, 6, 7)

    _check(_consume_through(mock3, topic, faults))


def test_broker_down_and_back(mock3):
    topic = _fill(mock3)

    def faults(_consumer):
        for broker in (1, 2, 3):
            _peers.mock_fault(mock3, "down", broker)
            time.sleep(0.7)
            _peers.mock_fault(mock3, "up", broker)
            time.sleep(0.3)

    _check(_consume_through(mock3, topic, faults))


def test_responses_slower_than_the_request_timeout(mock3):
    topic = _fill(mock3)

    def faults(_consumer):
        for broker in (1, 2, 3):
            _peers.mock_fault(mock3, "rtt", broker, 1500)
        time.sleep(2.0)
        for broker in (1, 2, 3):
            _peers.mock_fault(mock3, "rtt", broker, 0)

    _check(_consume_through(mock3, topic, faults, request_timeout_ms=1000, fetch_max_wait_ms=50))
