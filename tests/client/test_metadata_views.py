"""Calls that ask for every topic (Admin.topic_metadata(), Admin.list_topics(),
Consumer.topics()) answer from a request for every topic sent after the call: on a new
client the first Metadata request, in flight before the call and naming no topic, is not
taken for the cluster's topics (the first topic_metadata() answered {} on the mock)."""
import threading
import time

import pytest

import _peers
from kafkacodec.client import Admin, Consumer, Producer
from kafkacodec.client.errors import ClientClosedError, InvalidArgumentError

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]


def test_a_new_admins_first_look_sees_every_topic():
    with _peers.mock_cluster(num_brokers=3, topics={"a": 2, "b": 1}) as bootstrap:
        for _ in range(3):
            with Admin({"bootstrap.servers": bootstrap}) as admin:
                assert sorted(admin.topic_metadata(timeout=10)) == ["a", "b"]
            with Admin({"bootstrap.servers": bootstrap}) as admin:
                assert admin.list_topics(10) == {"a": 2, "b": 1}
            c = Consumer({"bootstrap.servers": bootstrap})
            try:
                assert c.topics(10) == {"a": 2, "b": 1}
            finally:
                c.close()


def _poll_until(consumer, topic, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(r.topic == topic for r in consumer.poll(0.5)):
            return True
    return False


def test_topics_leaves_a_pattern_subscription_seeing_new_topics(mock1):
    _peers.create_topic(mock1, "pat-a", 1)
    with Producer({"bootstrap.servers": mock1}) as p:
        p.send("pat-a", b"x").get(10)
    c = Consumer({"bootstrap.servers": mock1, "group.id": "g-pattern", "auto.offset.reset": "earliest",
                  "metadata.max.age.ms": 500, "session.timeout.ms": 6000})
    try:
        t0 = time.monotonic()
        c.subscribe("^pat-.*")
        assert "pat-a" in c.topics(10)  # a one-off look at every topic ...
        assert _poll_until(c, "pat-a", 30)
        # the first join waited for the pattern's topics: one rebalance (3 s on the mock), not two
        assert time.monotonic() - t0 < 6.0
        _peers.create_topic(mock1, "pat-b", 1)
        with Producer({"bootstrap.servers": mock1}) as p:
            p.send("pat-b", b"y").get(10)
        # ... leaves the subscription's standing interest in every topic as it was
        assert _poll_until(c, "pat-b", 30)
    finally:
        c.close()


def test_a_look_the_caller_waits_for_goes_at_once_after_a_success():
    """cluster_metadata() and list_topics() called again right after an answer: the request
    goes at once (as librdkafka's list_topics), not after retry.backoff.ms, which holds back
    only refreshes after failures."""
    with _peers.mock_cluster(num_brokers=1, topics={"a": 2}) as bootstrap:
        with Admin({"bootstrap.servers": bootstrap, "retry.backoff.ms": 2000,
                    "retry.backoff.max.ms": 2000}) as admin:
            assert admin.cluster_metadata("a", timeout=10).topics["a"].partitions
            for _ in range(3):
                started = time.monotonic()
                assert len(admin.cluster_metadata("a", timeout=10).topics["a"].partitions) == 2
                assert admin.list_topics(10) == {"a": 2}
                assert time.monotonic() - started < 1.0


def test_a_producer_and_a_consumer_answer_cluster_metadata_over_their_own_connections():
    """librdkafka answers list_topics() on the handle's own connections: so do the client's
    producer and consumer, with no I/O thread of another client started for it."""
    with _peers.mock_cluster(num_brokers=2, topics={"a": 2, "b": 3}) as bootstrap:
        # a producer's default (allow.auto.create.topics=true) would create the missing topic
        p = Producer({"bootstrap.servers": bootstrap, "allow.auto.create.topics": False})
        c = Consumer({"bootstrap.servers": bootstrap})
        try:
            p.partitions_for("a", 10)
            c.topics(10)
            threads = threading.active_count()
            for client in (p, c):
                every = client.cluster_metadata(timeout=10)
                assert {n: len(t.partitions) for n, t in every.topics.items()} == {"a": 2, "b": 3}
                assert sorted(b.node_id for b in every.brokers) == [1, 2]
                assert every.topic_errors == {}
                assert every.answered_by in every.brokers  # a known broker answered, named by its id
                one = client.cluster_metadata("b", timeout=10)
                assert list(one.topics) == ["b"] and [q.partition for q in one.topics["b"].partitions] == [0, 1, 2]
                missing = client.cluster_metadata("no-such-topic", timeout=10)
                assert missing.topics == {} and missing.topic_errors == {"no-such-topic": 3}
            assert threading.active_count() == threads
            with pytest.raises(InvalidArgumentError):
                c.cluster_metadata("a", timeout=-1)
        finally:
            p.close()
            c.close()
        with pytest.raises(ClientClosedError):
            c.cluster_metadata(timeout=1)
        with pytest.raises(ClientClosedError):
            p.cluster_metadata(timeout=1)


def test_the_async_clients_await_cluster_metadata():
    import asyncio

    from kafkacodec.client import AsyncConsumer, AsyncProducer

    async def main(bootstrap):
        async with AsyncProducer({"bootstrap.servers": bootstrap}) as p:
            md = await p.cluster_metadata("a", timeout=10)
            assert [q.partition for q in md.topics["a"].partitions] == [0, 1]
        async with AsyncConsumer({"bootstrap.servers": bootstrap}) as c:
            md = await c.cluster_metadata(timeout=10)
            assert {n: len(t.partitions) for n, t in md.topics.items()} == {"a": 2}

    with _peers.mock_cluster(num_brokers=1, topics={"a": 2}) as bootstrap:
        asyncio.run(main(bootstrap))
