"""The metadata settings, observed on the requests a client sends and the view it keeps:
how often a refresh is repeated while a partition has no leader (metadata.retry.backoff.ms),
topics left out (metadata.topics.exclude), and asking the bootstrap servers again when every
known broker is gone (metadata.recovery.strategy)."""
import concurrent.futures
import time
import uuid

import pytest

from kafkacodec.client import errors as E
from kafkacodec.client.admin import Admin
from kafkacodec.client.config import ADMIN, resolve
from kafkacodec.client.network import NetworkClient

_peers = pytest.importorskip("_peers")

METADATA = 3


def _client(bootstrap, **settings):
    return NetworkClient(resolve({"bootstrap.servers": bootstrap, **settings}, {}, ADMIN, "admin"))


def _metadata_requests(client):
    return sum(c.req[METADATA] for c in client.broker_counters)


@pytest.mark.parametrize("backoff_ms, low, high", [(40, 8, 40), (400, 1, 4)])
def test_refresh_while_a_partition_has_no_leader(mock1, backoff_ms, low, high):
    topic = f"leaderless-{uuid.uuid4().hex[:6]}"
    _peers.create_topic(mock1, topic, 1)
    client = _client(mock1, **{"metadata.retry.backoff.ms": backoff_ms, "retry.backoff.max.ms": backoff_ms})
    try:
        md = client.metadata
        md.add_topics({topic})
        md.wait_for(lambda m: topic in m.topics, 10)
        _peers.mock_fault(mock1, "leader", topic, 0, -1)
        md.request_update()
        md.wait_for(lambda m: m.leader_for(topic, 0) is None, 10)
        before = _metadata_requests(client)
        time.sleep(1.0)
        asked = _metadata_requests(client) - before
        assert low <= asked <= high, asked
    finally:
        client.close()


def test_new_topics_are_asked_for_at_once_a_retry_after_the_backoff(mock1):
    # a subscribe() just after the client's first refresh: no reason to wait out the backoff
    known, other = f"known-{uuid.uuid4().hex[:6]}", f"other-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock1, {known: 1, other: 1})
    client = _client(mock1, **{"metadata.retry.backoff.ms": 3000, "retry.backoff.max.ms": 3000})
    try:
        md = client.metadata
        md.wait_for(lambda m: m.brokers, 10)
        md.add_topics({known})
        start = time.monotonic()
        md.wait_for(lambda m: known in m.topics, 10)
        assert time.monotonic() - start < 2.0
        before = _metadata_requests(client)
        md.request_update()  # nothing new asked: a refresh waits for the backoff
        time.sleep(0.5)
        assert _metadata_requests(client) == before
        md.add_topics({other})
        md.wait_for(lambda m: other in m.topics, 2.0)
    finally:
        client.close()


def test_excluded_topics_are_absent(tansu_bootstrap):
    tag = uuid.uuid4().hex[:6]
    hidden, shown = f"hidden-{tag}", f"shown-{tag}"
    _peers.create_topics(tansu_bootstrap, {hidden: 1, shown: 1})
    admin = Admin({"bootstrap.servers": tansu_bootstrap, "metadata.topics.exclude": "^hidden-, ^nothing$"})
    try:
        topics = admin.list_topics(timeout=10)
        assert shown in topics and hidden not in topics
    finally:
        admin.close()
    from kafkacodec.client import Producer
    p = Producer({"bootstrap.servers": tansu_bootstrap, "metadata.topics.exclude": ["hidden-"],
                  "max.block.ms": 500})
    try:
        with pytest.raises(E.KafkaTimeoutError, match=hidden):
            p.send(hidden, b"v")  # as for a topic that does not exist
        p.send(shown, b"v").get(10)
    finally:
        p.close()


@pytest.mark.parametrize("strategy", ["rebootstrap", "none"])
def test_rebootstrap_when_every_known_broker_is_gone(strategy):
    """The bootstrap address leads to cluster A, whose broker the client then talks to
    directly; A's broker goes down and the bootstrap address now leads to cluster B."""
    try:
        first, second = _peers.mock_cluster(num_brokers=1), _peers.mock_cluster(num_brokers=1)
        a = first.__enter__()
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))
    b = second.__enter__()
    proxy = _peers.CaptureProxy(a)
    client = _client(proxy.bootstrap, **{"metadata.recovery.strategy": strategy, "reconnect.backoff.ms": 50,
                                        "reconnect.backoff.max.ms": 200})
    try:
        md = client.metadata
        md.all_topics(10)
        assert [(x.host, x.port) for x in md.brokers.values()] == [("127.0.0.1", int(a.rsplit(":", 1)[1]))]
        _peers.mock_fault(a, "down", 1)
        host, port = b.rsplit(":", 1)
        proxy.upstream = (host, int(port))
        if strategy == "rebootstrap":
            md.all_topics(10)
            assert [(x.host, x.port) for x in md.brokers.values()] == [("127.0.0.1", int(port))]
        else:
            with pytest.raises(E.KafkaTimeoutError):
                md.all_topics(2)
    finally:
        client.close()
        proxy.close()
        second.__exit__(None, None, None)
        first.__exit__(None, None, None)


def test_rebootstrap_after_the_trigger_time(tansu_bootstrap, monkeypatch):
    """Known brokers that stop answering metadata (here: every Metadata request to a broker
    fails) are forgotten after metadata.recovery.rebootstrap.trigger.ms."""
    client = _client(tansu_bootstrap, **{"metadata.recovery.rebootstrap.trigger.ms": 300,
                                        "metadata.max.age.ms": 100})
    try:
        md = client.metadata
        md.all_topics(10)
        assert md.brokers
        sent = []
        real = client.send_now

        def failing(node_id, api, body, **kw):
            sent.append(node_id)
            if node_id is not None and node_id >= 0:
                future = concurrent.futures.Future()
                future.set_exception(E.KafkaConnectionError("no answer"))
                return future
            return real(node_id, api, body, **kw)

        monkeypatch.setattr(client, "send_now", failing)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not any(n is not None and n < 0 for n in sent):
            time.sleep(0.05)
        assert any(n < 0 for n in sent), sent  # a bootstrap server was asked
    finally:
        client.close()
