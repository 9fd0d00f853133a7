"""Fetching from the replica the leader names (KIP-392): client.rack goes out with each Fetch,
the consumer fetches from the named replica, and goes back to the leader when it fails."""
import time
import uuid

import pytest

from kafkacodec.client import Consumer, Producer

_peers = pytest.importorskip("_peers")

FETCH = 1


def _fetches_by_node(consumer):
    return {node: conn.counters.req[FETCH] for node, conn in consumer._client.connections.items()}


def _consume(consumer, n, timeout=20):
    got = []
    deadline = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < deadline:
        got += consumer.poll(0.2)
    return got


def test_fetches_go_to_the_replica_the_leader_names(mock3):
    topic = f"follow-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(mock3, topic, 1)
    p = Producer({"bootstrap.servers": mock3})
    try:
        for i in range(30):
            p.send(topic, b"v%d" % i, partition=0)
        p.flush(10)
        leader = p._client.metadata.leader_for(topic, 0)
    finally:
        p.close()
    follower = next(b for b in (1, 2, 3) if b != leader)
    _peers.mock_fault(mock3, "follower", topic, 0, follower)
    with Consumer({"bootstrap.servers": mock3, "auto.offset.reset": "earliest", "client.rack": "rack-b",
                   "check.crcs": False}) as c:
        c.assign([(topic, 0)])
        got = _consume(c, 30)
        assert [r.value for r in got] == [b"v%d" % i for i in range(30)]
        fetches = _fetches_by_node(c)
        state = c._fetcher.partitions[next(iter(c._fetcher.partitions))]
        assert state.replica == follower
        assert fetches.get(follower, 0) >= 1  # the records came from the follower
        # the leader answered the first Fetch with the replica's id only
        assert fetches.get(leader, 0) >= 1
        # the follower goes away (and the leader names none): back to the leader, nothing lost
        _peers.mock_fault(mock3, "follower", topic, 0, -1)
        _peers.mock_fault(mock3, "down", follower)
        p = Producer({"bootstrap.servers": mock3})
        try:
            for i in range(30, 40):
                p.send(topic, b"v%d" % i, partition=0)
            p.flush(10)
        finally:
            p.close()
        more = _consume(c, 10)
        assert [r.value for r in more] == [b"v%d" % i for i in range(30, 40)]
        assert state.replica == -1
        _peers.mock_fault(mock3, "up", follower)


def test_client_rack_is_sent_with_each_fetch(tansu_bootstrap, monkeypatch):
    topic = f"rack-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    with Consumer({"bootstrap.servers": tansu_bootstrap, "auto.offset.reset": "earliest",
                   "client.rack": "zone-7", "fetch.max.wait.ms": 50}) as c:
        racks = []
        send = c._client.send

        def recording(node, api, body, **kw):
            if api == "Fetch":
                racks.append(body.rack_id)
            return send(node, api, body, **kw)

        monkeypatch.setattr(c._client, "send", recording)
        c.assign([(topic, 0)])
        c.poll(0.5)
    assert racks and set(racks) == {"zone-7"}
