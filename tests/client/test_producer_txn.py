"""Transactions and send_arrow against the mock cluster and Tansu: committed records are
visible to read_committed readers (librdkafka's and kafkacodec's), aborted ones never
(kafkacodec's, from the markers: neither peer gives librdkafka the aborted list);
a second producer with the same transactional.id fences the first; the
consume-transform-produce example writes each input once even after an aborted round.
send_arrow's rows come back identically, keyed rows in murmur2's partition."""
import os
import sys
import uuid

import pytest

from kafkacodec.client import Producer, ProducerFencedError
from kafkacodec.client import errors as E
from kafkacodec.client.partitioner import murmur2_partition

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker]

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))




def _read_committed_kafkacodec(bootstrap, topic, partitions, n, timeout=15):
    records = _peers.read_committed_with_kafkacodec(bootstrap, topic, partitions, timeout, until=n)
    return sorted(r.value for r in records)


@pytest.mark.timeout(120)
def test_committed_visible_aborted_never(broker):
    kind, bootstrap = broker
    topic = broker.topic(2, "tx")
    with Producer({"bootstrap.servers": bootstrap, "transactional.id": f"t-{uuid.uuid4().hex[:6]}"}) as p:
        p.init_transactions(30)
        with pytest.raises(E.IllegalStateError, match="begin_transaction"):
            p.send(topic, b"outside")
        p.begin_transaction()
        for i in range(100):
            p.send(topic, b"c1-%03d" % i, key=b"%d" % i)
        p.commit_transaction(30)
        p.begin_transaction()
        aborted = [p.send(topic, b"ab-%03d" % i, key=b"%d" % i) for i in range(50)]
        p.flush(30)  # in the log, then aborted
        assert all(h.get(0).offset >= 0 for h in aborted)
        p.abort_transaction(30)
        p.begin_transaction()
        for i in range(30):
            p.send(topic, b"c2-%03d" % i, key=b"%d" % i)
        p.commit_transaction(30)
    expected = sorted([b"c1-%03d" % i for i in range(100)] + [b"c2-%03d" % i for i in range(30)])
    # neither peer fills Fetch's aborted_transactions, so librdkafka cannot hide the aborted
    # records; kafkacodec's consumer finds them from the ABORT markers EndTxn wrote
    theirs = _peers.consume_with_confluent(bootstrap, topic, len(expected) + 50, timeout=8,
                                           isolation_level="read_committed")
    assert set(expected) <= {r[1] for r in theirs}
    assert _read_committed_kafkacodec(bootstrap, topic, 2, len(expected) + 1, timeout=6) == expected
    everything = _peers.consume_with_confluent(bootstrap, topic, 180, timeout=15)
    assert sum(1 for r in everything if r[1].startswith(b"ab-")) == 50  # aborted records are in the log


@pytest.mark.timeout(120)
def test_a_second_producer_fences_the_first(broker):
    kind, bootstrap = broker
    if kind == "mock":
        pytest.skip("the mock cluster does not fence: after a second InitProducerId, Produce and EndTxn "
                    "with the old epoch still succeed (measured)")
    topic = broker.topic(1, "tx")
    txn_id = f"fence-{uuid.uuid4().hex[:6]}"
    old = Producer({"bootstrap.servers": bootstrap, "transactional.id": txn_id})
    new = Producer({"bootstrap.servers": bootstrap, "transactional.id": txn_id})
    try:
        old.init_transactions(30)
        old.begin_transaction()
        old.send(topic, b"old-1")
        old.flush(30)
        new.init_transactions(30)   # bumps the epoch: the old producer is fenced
        with pytest.raises(ProducerFencedError):
            old.send(topic, b"old-2")
            old.commit_transaction(30)
        with pytest.raises(ProducerFencedError):
            old.send(topic, b"old-3")
        with pytest.raises(ProducerFencedError):
            old.begin_transaction()
        new.begin_transaction()
        new.send(topic, b"new-1")
        new.commit_transaction(30)
    finally:
        old.close(5)
        new.close(5)
    assert _read_committed_kafkacodec(bootstrap, topic, 1, 3, timeout=6) == [b"new-1"]


@pytest.mark.timeout(180)
def test_consume_transform_produce_example_is_exactly_once(broker):
    import transactional_copy
    kind, bootstrap = broker
    if kind == "mock":
        pytest.skip("the mock cluster's OffsetFetch does not return offsets committed by TxnOffsetCommit "
                    "(measured: None after two committed transactions), so a restart cannot resume")
    source, target = broker.topic(2, "tx"), broker.topic(3, "tx")
    _peers.produce_with_confluent(bootstrap, source, [(b"k%d" % i, b"value-%d" % i) for i in range(400)])
    group, txn_id = f"g-{uuid.uuid4().hex[:6]}", f"copy-{uuid.uuid4().hex[:6]}"
    # first run "crashes": its last transaction (output and offsets) is aborted
    first = transactional_copy.run(bootstrap, source, target, group=group, transactional_id=txn_id, idle=2.0,
                                   max_batch=50, stop_after=120)
    assert 0 < first <= 120
    second = transactional_copy.run(bootstrap, source, target, group=group, transactional_id=txn_id, idle=2.0,
                                    max_batch=50)
    assert first + second == 400
    got = _read_committed_kafkacodec(bootstrap, target, 3, 401, timeout=8)
    assert got == sorted(b"VALUE-%d" % i for i in range(400))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("codec", ["none", "lz4", "zstd"])
def test_send_arrow_round_trip(broker, codec):
    pa = pytest.importorskip("pyarrow")
    kind, bootstrap = broker
    topic = broker.topic(5, "tx")
    n = 3000
    keys = [None if i % 13 == 0 else b"key-%d" % (i * 7) for i in range(n)]
    values = [b"value-%d" % i * (1 + i % 4) for i in range(n)]
    headers = [[{"key": "h", "value": b"%d" % i}] if i % 5 == 0 else [] for i in range(n)]
    table = pa.table({"key": pa.array(keys, pa.binary()), "value": pa.array(values, pa.binary()),
                      "timestamp": pa.array([1_700_000_000_000 + i for i in range(n)], pa.int64()),
                      "headers": pa.array(headers, pa.list_(pa.struct([("key", pa.string()),
                                                                        ("value", pa.binary())])))})
    with Producer({"bootstrap.servers": bootstrap, "compression.type": codec}) as p:
        result = p.send_arrow(topic, table)
        offsets = result.offsets(30)
        parts = result.partitions()
    for i, k in enumerate(keys):
        if k is not None:
            assert parts[i] == murmur2_partition(k, 5)
    got = _peers.consume_with_confluent(bootstrap, topic, n, timeout=30)
    assert len(got) == n
    by_place = {(r[5], r[4]): r for r in got}
    for i in range(n):
        key, value, hdrs, ts, offset, partition = by_place[(int(parts[i]), int(offsets[i]))]
        assert (key, value, ts) == (keys[i], values[i], 1_700_000_000_000 + i)
        assert hdrs == [(h["key"], h["value"]) for h in headers[i]]
    # per partition, rows keep their input order
    for p_ in set(parts.tolist()):
        rows = [i for i in range(n) if parts[i] == p_]
        assert [int(offsets[i]) for i in rows] == sorted(int(offsets[i]) for i in rows)
