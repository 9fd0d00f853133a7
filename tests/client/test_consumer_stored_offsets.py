"""What librdkafka's consumers rely on, owned by the client: stored offsets
(enable.auto.offset.store, store_offsets, automatic commits of what was stored), end-of-partition
notes (enable.partition.eof), commit reports (offset_commit_cb), statistics served while not
polling, the cluster's metadata as one answer, and a classic member's decoded assignment."""
import json
import time
import uuid

import pytest

from kafkacodec.client import Admin, Consumer, TopicPartition
from kafkacodec.client import errors as E
from kafkacodec.client.consumer import PartitionEOF

_peers = pytest.importorskip("_peers")
pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]


def _topic(bootstrap, partitions=1, n=10):
    topic = f"stored-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, topic, partitions)
    _peers.produce_with_confluent(bootstrap, topic, [(None, b"v%d" % i, [], None, i % partitions) for i in range(n)])
    return topic


def _consumer(bootstrap, **conf):
    return Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest", "group.id":
                     f"g-{uuid.uuid4().hex[:6]}", "request.timeout.ms": 10000, **conf})


def _take(consumer, n, timeout=20.0):
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        out.extend(consumer.poll(0.5, max_records=n - len(out)))
    return out


def test_stored_offsets_are_what_is_committed_without_auto_store(tansu_bootstrap):
    topic = _topic(tansu_bootstrap)
    tp = TopicPartition(topic, 0)
    reports = []
    c = _consumer(tansu_bootstrap, **{"enable.auto.offset.store": False, "auto.commit.interval.ms": 200,
                                      "offset_commit_cb": lambda offsets, error: reports.append((offsets, error))})
    try:
        c.assign([tp])
        assert len(_take(c, 10)) == 10
        assert c.stored_offsets() == {}            # consumed, but nothing stored
        with pytest.raises(E.IllegalStateError, match="not assigned"):
            c.store_offsets({(topic, 1): 3})
        c.store_offsets({tp: 4})
        assert c.stored_offsets() == {tp: 4}
        deadline = time.monotonic() + 20
        while not reports and time.monotonic() < deadline:
            c.poll(0.2)                              # the automatic commit, reported from poll()
        assert reports == [({tp: 4}, None)]
        c.poll(0.5)
        assert len(reports) == 1                    # nothing moved: no second commit
        assert c.committed([tp]) == {tp: 4}
        c.store_offsets({tp: 7})
    finally:
        c.close()                                    # commits what moved, and reports it
    assert reports[-1] == ({tp: 7}, None)
    other = _consumer(tansu_bootstrap, **{"group.id": c.conf["group.id"]})
    try:
        assert other.committed([tp]) == {tp: 7}
    finally:
        other.close()


def test_store_offsets_needs_auto_store_off(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, n=1)
    c = _consumer(tansu_bootstrap)
    try:
        c.assign([(topic, 0)])
        with pytest.raises(E.InvalidArgumentError, match="enable.auto.offset.store=false"):
            c.store_offsets({(topic, 0): 1})
        assert len(_take(c, 1)) == 1
        assert c.stored_offsets() == {TopicPartition(topic, 0): 1}   # auto store: the consumed position
    finally:
        c.close(autocommit=False)


def test_partition_eof_noted_once_per_end(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, partitions=2, n=6)
    c = _consumer(tansu_bootstrap, **{"enable.partition.eof": True})
    try:
        c.assign([(topic, 0), (topic, 1)])
        got, eofs = [], []
        deadline = time.monotonic() + 20
        while len(eofs) < 2 and time.monotonic() < deadline:
            got.extend(c.poll(0.5))
            eofs.extend(c.take_partition_eofs())
        assert len(got) == 6
        assert sorted(eofs) == [PartitionEOF(topic, 0, 3, 3), PartitionEOF(topic, 1, 3, 3)]
        c.poll(1.0)
        assert c.take_partition_eofs() == []         # once per offset
        _peers.produce_with_confluent(tansu_bootstrap, topic, [(None, b"late", [], None, 0)])
        deadline = time.monotonic() + 20
        while not eofs[2:] and time.monotonic() < deadline:
            got.extend(c.poll(0.5))
            eofs.extend(c.take_partition_eofs())
        assert eofs[2:] == [PartitionEOF(topic, 0, 4, 4)] and len(got) == 7
        c.seek((topic, 1), 0)                          # a seek reads to the end again: noted again
        deadline = time.monotonic() + 20
        while not eofs[3:] and time.monotonic() < deadline:
            c.poll(0.5)
            eofs.extend(c.take_partition_eofs())
        assert eofs[3:] == [PartitionEOF(topic, 1, 3, 3)]
    finally:
        c.close(autocommit=False)


def test_statistics_served_without_polling_and_cluster_metadata(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, partitions=3, n=1)
    docs = []
    c = _consumer(tansu_bootstrap, **{"statistics.interval.ms": 100, "stats_cb": docs.append})
    try:
        deadline = time.monotonic() + 10
        while not docs and time.monotonic() < deadline:
            time.sleep(0.1)
            c.serve_stats()                               # nothing assigned: poll() would refuse
        assert json.loads(docs[0])["type"] == "consumer"
    finally:
        c.close()
    with Admin({"bootstrap.servers": tansu_bootstrap}) as admin:
        md = admin.cluster_metadata(timeout=10)
        assert [p.partition for p in md.topics[topic].partitions] == [0, 1, 2] and md.brokers
        assert md.topic_errors == {}
        one = admin.cluster_metadata(topic, timeout=10)
        assert list(one.topics) == [topic] and one.topic_errors == {}
        missing = admin.cluster_metadata(f"no-such-{uuid.uuid4().hex[:6]}", timeout=10)
        assert missing.topics == {} and list(missing.topic_errors.values()) == [3]


def test_async_consumer_stores_and_hands_over_notes(tansu_bootstrap):
    import asyncio
    from kafkacodec.client import AsyncConsumer
    topic = _topic(tansu_bootstrap, n=3)
    tp = TopicPartition(topic, 0)

    async def run():
        async with AsyncConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                                  "auto.offset.reset": "earliest", "enable.auto.offset.store": False,
                                  "enable.partition.eof": True}) as c:
            c.assign([tp])
            got, eofs = [], []
            deadline = time.monotonic() + 20
            while not eofs and time.monotonic() < deadline:
                got.extend(await c.poll(0.5))
                eofs.extend(c.take_partition_eofs())
            c.store_offsets({tp: len(got)})
            return len(got), eofs, c.stored_offsets()
    assert asyncio.run(run()) == (3, [PartitionEOF(topic, 0, 3, 3)], {tp: 3})
