"""librdkafka's rebalance_cb in the face: called with _ASSIGN_PARTITIONS and _REVOKE_PARTITIONS
events for subscriptions without on_assign/on_revoke, and, as librdkafka requires, only the
partitions it assign()s are consumed."""
import time
import uuid

import pytest

import kafkacodec.compat.confluent_kafka as ck

_peers = pytest.importorskip("_peers")


def _topic_with_records(bootstrap, count):
    topic = f"rebalance-cb-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, topic, 2)
    _peers.produce_with_confluent(bootstrap, topic, [(f"k{i}".encode(), b"v") for i in range(count)])
    return topic


def _consumer(bootstrap, rebalance_cb):
    return ck.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                        "auto.offset.reset": "earliest", "rebalance_cb": rebalance_cb})


def _poll_until(consumer, done, seconds=60):
    seen = []
    deadline = time.monotonic() + seconds
    while not done(seen) and time.monotonic() < deadline:
        m = consumer.poll(0.5)
        if m is not None and m.error() is None:
            seen.append((m.partition(), m.offset()))
    return seen


def test_rebalance_cb_gets_assign_and_revoke_events_and_assigns(mock_bootstrap):
    topic = _topic_with_records(mock_bootstrap, 10)
    events, texts = [], set()

    def rebalance_cb(consumer, error, partitions):
        events.append((error.code(), sorted(tp.partition for tp in partitions)))
        texts.add(error.str())
        if error.code() == ck.KafkaError._ASSIGN_PARTITIONS:
            consumer.assign(partitions)
        else:
            consumer.unassign()

    c = _consumer(mock_bootstrap, rebalance_cb)
    c.subscribe([topic])
    seen = _poll_until(c, lambda seen: len(seen) >= 10)
    c.close()
    assert len(seen) == 10
    assert events[0] == (ck.KafkaError._ASSIGN_PARTITIONS, [0, 1])
    assert events[-1] == (ck.KafkaError._REVOKE_PARTITIONS, [0, 1])
    assert texts == {"Local: Assign partitions", "Local: Revoke partitions"}  # librdkafka's


def test_partitions_rebalance_cb_does_not_assign_wait_for_assign(mock_bootstrap):
    topic = _topic_with_records(mock_bootstrap, 10)
    given = []

    def rebalance_cb(consumer, error, partitions):
        if error.code() == ck.KafkaError._ASSIGN_PARTITIONS:
            given.extend(partitions)
            consumer.assign([tp for tp in partitions if tp.partition == 0])  # partition 1 left out

    c = _consumer(mock_bootstrap, rebalance_cb)
    c.subscribe([topic])
    try:
        on_zero = _poll_until(c, lambda seen: given and len(seen) >= sum(1 for p, _ in seen if p == 0) > 0)
        on_zero += _poll_until(c, lambda seen: False, seconds=2)  # partition 1 stays unread meanwhile
        assert on_zero and all(p == 0 for p, _ in on_zero)
        c.assign([tp for tp in given if tp.partition == 1])
        rest = _poll_until(c, lambda seen: len(on_zero) + len(seen) >= 10)
        assert rest and all(p == 1 for p, _ in rest) and len(on_zero) + len(rest) == 10
    finally:
        c.close()
