"""Produce requests are cut at max.request.size (a batch at least) and kept within
max.in.flight.requests.per.connection; batches left over wait at the front of their
partitions and go in the next requests, in order."""
import time
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


@pytest.mark.parametrize("twin", ["compiled", "python"])
def test_a_lingering_batch_of_one_record_goes_with_its_leaders_request(tansu_bootstrap, twin, monkeypatch):
    """A request leaving for a leader takes that leader's lingering batches of one record along; a
    batch of more records keeps its linger (and its own request)."""
    from kafkacodec.client import sender as sender_module
    if twin == "python":
        monkeypatch.setattr(sender_module, "drain", None)
    elif sender_module.drain is None:
        pytest.skip("the compiled sender steps are not built")
    topic = f"piggyback-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 3)
    with Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 3000, "batch.size": 300}) as p:
        p.partitions_for(topic)
        sparse = p.send(topic, b"alone", partition=0)
        busy = [p.send(topic, b"one of three", partition=1) for _ in range(3)]
        # the second fills partition 2's batch: that one goes at once, a request to the leader
        full = p.send(topic, b"x" * 200, partition=2)
        p.send(topic, b"y" * 200, partition=2)
        assert full.get(10).partition == 2
        assert sparse.get(1).offset == 0        # went with the full batch's request
        time.sleep(0.3)
        assert not any(h.done() for h in busy)  # still within its 3 s linger
        p.flush(10)
        assert [h.get(0).offset for h in busy] == [0, 1, 2]
