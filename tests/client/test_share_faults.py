"""Share groups under the mock cluster's faults (3 brokers), kafkacodec's ShareConsumers beside
librdkafka's: the coordinator moving, ShareFetch / ShareAcknowledge / ShareGroupHeartbeat
answered with errors, a partition leader going down and up.  Whatever happens, no record is
ACCEPTed by two members (by the acknowledgement callbacks' successes) and every record ends
accepted; records whose session was lost come back with a higher delivery count."""
import collections
import threading
import time

import pytest

import _peers
from kafkacodec.client import Producer
from kafkacodec.client.share import ShareConsumer

pytestmark = pytest.mark.timeout(90)

SHARE_FETCH, SHARE_ACKNOWLEDGE, SHARE_HEARTBEAT = 78, 79, 76
NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE = 16, 15
NOT_LEADER, SESSION_NOT_FOUND, INVALID_SESSION_EPOCH = 6, 122, 123


class Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.accepted = collections.defaultdict(list)   # (partition, offset) -> members
        self.failed = 0

    def callback(self, member):
        def cb(offsets, error):
            with self.lock:
                for tp, done in offsets.items():
                    for o in done:
                        if error is None:
                            self.accepted[(tp.partition, o)].append(member)
                        else:
                            self.failed += 1
        return cb


def _fetching(c):
    md = c._client.metadata
    leaders = {md.leader_for(tp.topic, tp.partition) for tp in c.assignment()}
    return bool(leaders) and all(n in c._fetcher.sessions and c._fetcher.sessions[n].epoch >= 2 for n in leaders)


@pytest.mark.parametrize("fault", ["coordinator", "request_errors", "leader_down"])
def test_share_group_under_faults(mock3, fault):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    topic = "share-faults"
    _peers.create_topic(mock3, topic, 3)
    _peers.mock_fault(mock3, "share", "heartbeat_interval", 500)
    ledger = Ledger()
    ours = []
    for i in range(2):
        c = ShareConsumer({"bootstrap.servers": mock3, "group.id": "g-faults", "fetch.max.wait.ms": 100,
                           "retry.backoff.ms": 50, "max.poll.records": 100})
        c.set_acknowledgement_commit_callback(ledger.callback(f"kc{i}"))
        c.subscribe([topic])
        ours.append(c)
    theirs = confluent_kafka.ShareConsumer({"bootstrap.servers": mock3, "group.id": "g-faults",
                                            "max.poll.records": 100})
    theirs.set_acknowledgement_commit_callback(ledger.callback("rdk"))
    theirs.subscribe([topic])
    producer = Producer({"bootstrap.servers": mock3, "linger.ms": 5})
    n = 1500
    deliveries = collections.Counter()
    try:
        deadline = time.monotonic() + 15
        while not all(c.assignment() and _fetching(c) for c in ours) or len(ours[0].assignment() |
                                                                             ours[1].assignment()) < 2:
            assert time.monotonic() < deadline, "members not fetching"
            for c in ours:
                c.poll(0.02)
            theirs.poll(0.02)
        for _ in range(10):
            theirs.poll(0.05)  # librdkafka's member fetching too before the records exist
        def produce(first, last):
            for i in range(first, last):
                producer.send(topic, value=b"%d" % i, partition=i % 3)
            producer.flush(10)

        def consume_until(count, deadline):
            while len(ledger.accepted) < count and time.monotonic() < deadline:
                for c in ours:
                    for r in c.poll(0.02):
                        deliveries[(r.partition, r.offset)] += 1
                        counts[(r.partition, r.offset)] = max(counts[(r.partition, r.offset)], r.delivery_count)
                    c.commit_async()
                for msg in theirs.poll(0.02) or ():
                    if msg.error() is None:
                        deliveries[(msg.partition(), msg.offset())] += 1
                theirs.commit_async()

        counts = collections.Counter()
        produce(0, 600)
        consume_until(600, time.monotonic() + 20)
        assert len(ledger.accepted) == 600
        produce(600, n)
        held = []
        deadline = time.monotonic() + 5
        while not held and time.monotonic() < deadline:
            held = ours[0].poll(0.05)  # records in hand, not acknowledged, when the fault strikes
        assert held
        for r in held:
            deliveries[(r.partition, r.offset)] += 1
        if fault == "coordinator":
            coordinator = ours[0]._fetcher.coordinator.broker_id
            _peers.mock_fault(mock3, "coordinator", "group", "g-faults", coordinator % 3 + 1)
            _peers.mock_fault(mock3, "errors", SHARE_HEARTBEAT, NOT_COORDINATOR, NOT_COORDINATOR)
        elif fault == "request_errors":
            _peers.mock_fault(mock3, "errors", SHARE_FETCH, SESSION_NOT_FOUND, INVALID_SESSION_EPOCH, NOT_LEADER)
            _peers.mock_fault(mock3, "errors", SHARE_ACKNOWLEDGE, SESSION_NOT_FOUND)
            _peers.mock_fault(mock3, "errors", SHARE_HEARTBEAT, COORDINATOR_NOT_AVAILABLE)
        else:
            held_tp = held[0].topic, held[0].partition
            leader = ours[0]._client.metadata.leader_for(*held_tp)
            _peers.mock_fault(mock3, "down", leader)
            time.sleep(0.5)
            _peers.mock_fault(mock3, "up", leader)
        consume_until(n, time.monotonic() + 40)
        for c in ours:
            c.commit_sync(5)
            c.poll(0)
        theirs.commit_sync(5)
    finally:
        for c in ours:
            c.close()
        theirs.close()
        producer.close()
    twice = {k: v for k, v in ledger.accepted.items() if len(v) > 1}
    assert not twice, f"accepted by two members: {list(twice.items())[:5]}"
    missing = {(i % 3, i // 3) for i in range(n)} - set(ledger.accepted)
    assert not missing, f"{len(missing)} records never accepted, e.g. {sorted(missing)[:5]}"
    if fault == "leader_down":
        # what the member held went back to the group with its sessions, and came again
        assert all(counts[(r.partition, r.offset)] >= 2 for r in held), [counts[(r.partition, r.offset)] for r in held]
        assert ledger.failed  # the first deliveries' acknowledgements: reported as failed, never sent
        assert all(ledger.accepted[(r.partition, r.offset)] == ["kc0"] for r in held)
