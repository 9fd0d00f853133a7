"""Produce requests are cut at max.request.size (a batch at least) and kept within
max.in.flight.requests.per.connection; batches left over wait at the front of their
partitions and go in the next requests, in order."""
import uuid

import pyarrow as pa
import pytest

from kafkacodec.client import Producer

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

PARTITIONS = 4
ROWS = 8000


def _produce_recording(bootstrap, topic, conf):
    sent = []   # (total bytes, batch count) of every Produce request
    with Producer(dict(conf, **{"bootstrap.servers": bootstrap})) as p:
        sender = p._sender
        plain = sender._send_produce

        def recording(node, batches, now):
            sent.append((sum(len(b.data) for b in batches), len(batches), sender.node_in_flight[node]))
            return plain(node, batches, now)

        sender._send_produce = recording
        p.partitions_for(topic)
        # rows of each partition in turn, 100 bytes of value each: every partition has many batches
        table = pa.table({"key": pa.array([None] * ROWS, pa.binary()),
                          "value": pa.array([b"%06d" % i + b"v" * 94 for i in range(ROWS)]),
                          "partition": pa.array([i % PARTITIONS for i in range(ROWS)], pa.int32())})
        results = [p.send_arrow(topic, table.filter(pa.compute.equal(table["partition"], k)).drop(["partition"]),
                                partition=k) for k in range(PARTITIONS)]
        p.flush(60)
        for r in results:
            r.wait(0)
    return sent


@pytest.mark.parametrize("max_in_flight", [5, 2])
def test_requests_are_cut_at_max_request_size(tansu_bootstrap, max_in_flight):
    topic = f"rq-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, PARTITIONS)
    limit = 100_000
    conf = {"batch.size": 60_000, "max.request.size": limit, "linger.ms": 100,
            "max.in.flight.requests.per.connection": max_in_flight}
    sent = _produce_recording(tansu_bootstrap, topic, conf)
    assert sum(n for _, n, _ in sent) >= ROWS * 100 // 60_000
    for size, count, in_flight in sent:
        assert size <= limit or count == 1, sent
        assert in_flight < max_in_flight, sent    # a free slot for every request
    assert max(in_flight for _, _, in_flight in sent) >= 1   # requests pipelined on the connection
    got = _peers.read_committed_with_kafkacodec(tansu_bootstrap, topic, PARTITIONS, timeout=30, until=ROWS)
    assert len(got) == ROWS
    for k in range(PARTITIONS):
        values = [r.value for r in got if r.partition == k]
        assert values == sorted(values) and len(values) == ROWS // PARTITIONS  # in order, once each
