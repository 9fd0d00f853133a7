"""batch.max.records caps the records of each batch send() makes, read back from the
broker's log batch by batch."""
import uuid

import pytest

from kafkacodec.client import Producer
from kafkacodec.client.config import ADMIN, resolve
from kafkacodec.client.network import NetworkClient
from kafkacodec.protocol import messages as m
from kafkacodec.records import RecordBatchBuilder, iter_batches

_peers = pytest.importorskip("_peers")


def batch_record_counts(bootstrap, topic, partition=0):
    """The record count of each batch in the partition's log, in order."""
    client = NetworkClient(resolve({"bootstrap.servers": bootstrap}, {}, ADMIN, "admin"))
    try:
        md = client.metadata
        md.add_topics({topic})
        md.wait_for(lambda x: x.leader_for(topic, partition) is not None, 10)
        F = m.FetchRequest
        body = F(replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=64 << 20, isolation_level=0, session_id=0,
                 session_epoch=-1, rack_id="", forgotten_topics_data=[],
                 topics=[F.FetchTopic(topic=topic, partitions=[F.FetchPartition(
                     partition=partition, current_leader_epoch=-1, fetch_offset=0, log_start_offset=-1,
                     partition_max_bytes=64 << 20)])])
        resp = client.request(md.leader_for(topic, partition), "Fetch", body, max_version=11)
        data = resp.responses[0].partitions[0].records
        return [b.record_count for b in iter_batches(bytes(data))]
    finally:
        client.close()


@pytest.mark.parametrize("impl", ["compiled", "pure"])
def test_builder_max_records(impl, monkeypatch):
    if impl == "pure":
        from kafkacodec._pure.records import RecordBatchBuilder as Builder
    else:
        Builder = RecordBatchBuilder
    b = Builder(2, batch_size=1 << 20, max_records=3)
    assert [b.append(0, None, b"v") for _ in range(4)] == [0, 1, 2, None]
    assert b.append_many([(0, None, b"w")]) == 0
    with pytest.raises(ValueError, match="max_records"):
        Builder(2, max_records=0)


def test_batch_max_records_caps_each_batch(tansu_bootstrap):
    topic = f"capped-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    # linger long and batches large: only the record cap closes a batch
    p = Producer({"bootstrap.servers": tansu_bootstrap, "batch.max.records": 7, "linger.ms": 2000,
                  "batch.size": 1 << 20})
    try:
        handles = [p.send(topic, b"v%d" % i, partition=0) for i in range(50)]
        p.flush(10)
        assert [h.get(1).offset for h in handles] == list(range(50))
    finally:
        p.close()
    assert batch_record_counts(tansu_bootstrap, topic) == [7] * 7 + [1]
