"""kafkacodec.compat.kafka_python against Tansu, written as kafka-python programs are: futures
with callbacks, iteration that ends after consumer_timeout_ms, poll's {TopicPartition: [records]},
a consumer without a group following every partition, a group member, offsets compared with
kafka-python's own answers, the admin client and the settings it refuses."""
import json
import threading
import time
import uuid

import pytest

import _peers
from kafkacodec.client.errors import ConfigError
from kafkacodec.compat import kafka_python as face
from kafkacodec.compat.kafka_python import (ConsumerRebalanceListener, JsonSerializer, KafkaConsumer, KafkaProducer,
                                            OffsetAndMetadata, TopicPartition, errors)
from kafkacodec.compat.kafka_python.admin import KafkaAdminClient, NewTopic

kafka = pytest.importorskip("kafka")
pytestmark = pytest.mark.timeout(120)


def _topic(prefix="kp"):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _read_all(Consumer, bootstrap, topic, n, **extra):
    consumer = Consumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest", consumer_timeout_ms=3000,
                        **extra)
    got = []
    for msg in consumer:
        got.append((msg.topic, msg.partition, msg.offset, msg.key, msg.value, list(msg.headers), msg.timestamp_type,
                    msg.serialized_key_size, msg.serialized_value_size))
        if len(got) == n:
            break
    consumer.close()
    return sorted(got)


def test_futures_callbacks_and_records_as_kafka_python_reads_them(tansu_bootstrap):
    topic = _topic()
    _peers.create_topic(tansu_bootstrap, topic, partitions=3)
    oks, errs = [], []
    done = threading.Event()

    producer = KafkaProducer(bootstrap_servers=tansu_bootstrap, value_serializer=JsonSerializer(),
                             key_serializer=str.encode)
    futures = []
    for i in range(60):
        f = producer.send(topic, {"n": i}, key=f"k{i % 7}", headers=[("i", b"%d" % i)] if i % 2 else None)
        f.add_callback(oks.append).add_errback(errs.append)
        futures.append(f)
    first = futures[0].get(timeout=30)
    producer.flush()
    late = []
    futures[-1].add_callback(lambda md, tag: late.append((md.offset, tag)), "tag")  # already done: at once
    producer.close()
    done.set()
    assert first.topic == topic and first.topic_partition == TopicPartition(topic, first.partition)
    assert all(f.succeeded() and f.is_done for f in futures) and not errs
    assert sorted((m.partition, m.offset) for m in oks) == sorted((f.value.partition, f.value.offset) for f in futures)
    assert late == [(futures[-1].value.offset, "tag")]
    # keyed records: in the partitions kafka-python's own producer picks
    theirs = kafka.KafkaProducer(bootstrap_servers=tansu_bootstrap, key_serializer=str.encode)
    their_parts = [theirs.send(topic, b"x", key=f"k{i % 7}").get(30).partition for i in range(7)]
    theirs.close()
    assert their_parts == [futures[i].value.partition for i in range(7)]

    by_face = _read_all(KafkaConsumer, tansu_bootstrap, topic, 67)
    by_kafka_python = _read_all(kafka.KafkaConsumer, tansu_bootstrap, topic, 67)
    assert len(by_face) == 67 and by_face == by_kafka_python
    decoded = _read_all(KafkaConsumer, tansu_bootstrap, topic, 67, value_deserializer=lambda b: b)
    assert decoded == by_face


def test_iteration_stops_after_consumer_timeout_and_follows_every_partition(tansu_bootstrap):
    topic = _topic()
    _peers.create_topic(tansu_bootstrap, topic, partitions=2)
    producer = KafkaProducer(bootstrap_servers=tansu_bootstrap)
    for i in range(10):
        producer.send(topic, b"%d" % i, partition=i % 2)
    producer.flush()
    # no group: subscribe() takes every partition of the topic, as kafka-python's
    consumer = KafkaConsumer(bootstrap_servers=tansu_bootstrap, auto_offset_reset="earliest", consumer_timeout_ms=1000)
    consumer.subscribe([topic])
    t = time.monotonic()
    values = sorted(m.value for m in consumer)
    took = time.monotonic() - t
    assert values == sorted(b"%d" % i for i in range(10))
    assert 1.0 <= took < 10
    assert consumer.subscription() == {topic} and consumer.assignment() == {TopicPartition(topic, 0),
                                                                           TopicPartition(topic, 1)}
    # iterating again after StopIteration picks up what came since
    producer.send(topic, b"late", partition=0).get(10)
    assert [m.value for m in consumer] == [b"late"]
    producer.close()
    consumer.close()


def test_poll_seek_commit_and_offsets(tansu_bootstrap):
    topic = _topic()
    group = _topic("g")
    _peers.create_topic(tansu_bootstrap, topic, partitions=2)
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    producer = KafkaProducer(bootstrap_servers=tansu_bootstrap)
    for i in range(10):
        producer.send(topic, b"%d" % i, partition=i % 2, timestamp_ms=2_000_000 + i)
    producer.close()

    consumer = KafkaConsumer(bootstrap_servers=tansu_bootstrap, group_id=group, auto_offset_reset="earliest",
                             enable_auto_commit=False)
    consumer.assign([tp0, tp1])
    got = {}
    deadline = time.monotonic() + 10
    while sum(map(len, got.values())) < 10 and time.monotonic() < deadline:
        for tp, records in consumer.poll(timeout_ms=500).items():
            assert isinstance(tp, TopicPartition)
            got.setdefault(tp, []).extend(records)
    assert {tp: [r.offset for r in rs] for tp, rs in got.items()} == {tp0: list(range(5)), tp1: list(range(5))}
    consumer.commit({tp0: OffsetAndMetadata(3, "", -1)})
    consumer.commit_async({tp1: OffsetAndMetadata(4, "", -1)}, callback=lambda offsets, error: None)
    with pytest.raises(ValueError, match="metadata"):
        consumer.commit({tp0: OffsetAndMetadata(3, "note", -1)})
    deadline = time.monotonic() + 5
    while consumer.committed(tp1) != 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert consumer.committed(tp0) == 3 and consumer.committed(tp0, metadata=True) == OffsetAndMetadata(3, "", -1)
    assert consumer.committed(tp1) == 4
    consumer.seek(tp0, 1)
    assert consumer.position(tp0) == 1
    consumer.pause(tp1)
    assert consumer.paused() == {tp1}
    assert [r.offset for r in consumer.poll(timeout_ms=2000)[tp0]] == [1, 2, 3, 4]
    consumer.resume(tp1)
    consumer.seek_to_beginning(tp1)
    consumer.seek_to_end(tp0)
    # the end as the broker answers ListOffsets (Tansu's own rule; compared with kafka-python's below)
    assert consumer.position(tp0) == consumer.end_offsets([tp0])[tp0] and consumer.position(tp1) == 0
    assert consumer.highwater(tp0) == 5   # from the last Fetch response
    mine = (consumer.beginning_offsets([tp0, tp1]), consumer.end_offsets([tp0, tp1]),
            consumer.offsets_for_times({tp0: 2_000_004}))
    assert consumer.partitions_for_topic(topic) == {0, 1} and topic in consumer.topics()
    consumer.close()
    theirs = kafka.KafkaConsumer(bootstrap_servers=tansu_bootstrap)
    expected = (theirs.beginning_offsets([tp0, tp1]), theirs.end_offsets([tp0, tp1]),
                theirs.offsets_for_times({tp0: 2_000_004}))
    theirs.close()
    assert mine[:2] == expected[:2]
    assert {tp: v.offset for tp, v in mine[2].items()} == {tp: v.offset for tp, v in expected[2].items()}


def test_group_member_and_listener(tansu_bootstrap):
    topic = _topic()
    group = _topic("g")
    _peers.create_topic(tansu_bootstrap, topic, partitions=2)
    producer = KafkaProducer(bootstrap_servers=tansu_bootstrap)
    for i in range(20):
        producer.send(topic, b"%d" % i, partition=i % 2)
    producer.close()
    events = []

    class Listener(ConsumerRebalanceListener):
        def on_partitions_revoked(self, revoked):
            events.append(("revoked", sorted(revoked)))

        def on_partitions_assigned(self, assigned):
            events.append(("assigned", sorted(assigned)))

    consumer = KafkaConsumer(bootstrap_servers=tansu_bootstrap, group_id=group, auto_offset_reset="earliest",
                             session_timeout_ms=6000, consumer_timeout_ms=10000)
    consumer.subscribe(topics=[topic], listener=Listener())
    got = []
    for msg in consumer:
        got.append(msg.value)
        if len(got) == 12:
            break
    consumer.close()  # commits what was handed out (enable_auto_commit), not what was fetched
    second = KafkaConsumer(topic, bootstrap_servers=tansu_bootstrap, group_id=group, session_timeout_ms=6000,
                           consumer_timeout_ms=5000)
    rest = [m.value for m in second]
    second.close()
    # as kafka-python's eager protocol: an empty revocation before the first assignment
    assert events[:2] == [("revoked", []), ("assigned", [TopicPartition(topic, 0), TopicPartition(topic, 1)])]
    assert events[-1][0] == "revoked"
    assert sorted(got + rest) == sorted(b"%d" % i for i in range(20))


def test_admin_client(tansu_bootstrap):
    topic = _topic()
    admin = KafkaAdminClient(bootstrap_servers=tansu_bootstrap)
    admin.create_topics([NewTopic(name=topic, num_partitions=2, replication_factor=1)])
    with pytest.raises(errors.TopicAlreadyExistsError):
        admin.create_topics([NewTopic(name=topic, num_partitions=2, replication_factor=1)])
    assert topic in admin.list_topics()
    [described] = admin.describe_topics([topic])
    assert described["topic"] == topic and len(described["partitions"]) == 2
    assert admin.describe_cluster()["brokers"]
    group = _topic("g")
    consumer = KafkaConsumer(bootstrap_servers=tansu_bootstrap, group_id=group)
    consumer.assign([TopicPartition(topic, 1)])
    consumer.commit({TopicPartition(topic, 1): OffsetAndMetadata(0, "", -1)})
    consumer.close()
    assert admin.list_consumer_group_offsets(group) == {TopicPartition(topic, 1): OffsetAndMetadata(0, "", -1)}
    assert admin.list_group_offsets(group) == {group: {TopicPartition(topic, 1): OffsetAndMetadata(0, "", -1)}}
    admin.delete_topics([topic])
    admin.close()


def test_settings_without_meaning_are_refused():
    for kwargs, instead in [({"proxy_url": "http://p"}, "directly"),
                            ({"sasl_oauth_token_provider": object()}, "oauth_cb"),
                            ({"default_offset_commit_callback": print}, "commit_async"),
                            ({"partition_assignment_strategy": ["sticky"]}, "RangePartitionAssignor")]:
        with pytest.raises(ConfigError, match=instead):
            KafkaConsumer(**kwargs)
    with pytest.raises(ConfigError, match="directly"):
        KafkaProducer(socks5_proxy="socks5://p")
    with pytest.raises(TypeError, match="lingers_ms"):
        KafkaProducer(lingers_ms=1)
    with pytest.raises(ValueError, match="update_offsets"):
        KafkaConsumer(bootstrap_servers="127.0.0.1:1").poll(update_offsets=False)


def test_names_of_kafka_python():
    import kafka.structs
    from kafka.consumer.fetcher import ConsumerRecord
    from kafka.producer.future import RecordMetadata
    assert face.ConsumerRecord._fields == ConsumerRecord._fields
    assert face.RecordMetadata._fields == RecordMetadata._fields
    assert face.OffsetAndMetadata._fields == kafka.structs.OffsetAndMetadata._fields
    assert face.TopicPartition._fields == kafka.structs.TopicPartition._fields
    assert json.loads(JsonSerializer().serialize("t", [], {"a": 1})) == {"a": 1}
    for name in ["KafkaError", "KafkaTimeoutError", "NoBrokersAvailable", "TopicAlreadyExistsError",
                 "UnknownTopicOrPartitionError", "CommitFailedError", "IllegalStateError", "KafkaConfigurationError",
                 "NotLeaderForPartitionError", "OffsetOutOfRangeError"]:
        assert issubclass(getattr(errors, name), errors.KafkaError), name


def test_metrics_count_what_happened_since_the_previous_call(tansu_bootstrap):
    """kafka-python's metrics(): rates per second since the previous call, so a second call with
    nothing sent or consumed in between gives 0 for the records; raw=True is the statistics document."""
    topic = _topic("metrics")
    _peers.create_topic(tansu_bootstrap, topic, 2)
    producer = KafkaProducer(bootstrap_servers=tansu_bootstrap, linger_ms=200)
    futures = [producer.send(topic, b"v%d" % i, partition=0) for i in range(10)]
    producer.flush()
    assert [f.get(10).offset for f in futures] == list(range(10))
    first = producer.metrics()
    assert first["producer-metrics"]["records-per-request-avg"] == 10.0
    assert first["producer-metrics"]["record-send-rate"] > 0
    assert first[f"producer-topic-metrics.{topic}"]["record-send-rate"] > 0
    assert first["producer-metrics"]["request-latency-max"] >= first["producer-metrics"]["request-latency-avg"] > 0
    second = producer.metrics()
    assert second["producer-metrics"]["record-send-rate"] == 0.0
    assert second["producer-metrics"]["records-per-request-avg"] == 0.0
    assert producer.metrics(raw=True)["txmsgs"] == 10
    producer.close()

    # Tansu forms a group after about half the session timeout
    consumer = KafkaConsumer(topic, bootstrap_servers=tansu_bootstrap, group_id=_topic("g"), session_timeout_ms=6000,
                             auto_offset_reset="earliest", consumer_timeout_ms=10000)
    assert len([r for r, _ in zip(consumer, range(10))]) == 10
    got = consumer.metrics()
    fetch = got["consumer-fetch-manager-metrics"]
    assert fetch["records-consumed-rate"] > 0 and fetch["fetch-rate"] > 0
    assert got["consumer-coordinator-metrics"]["assigned-partitions"] == 2.0
    assert got["consumer-coordinator-metrics"]["join-rate"] > 0
    assert any(group.startswith("consumer-node-metrics.node-coordinator-") for group in got)
    assert consumer.metrics()["consumer-fetch-manager-metrics"]["records-consumed-rate"] == 0.0
    consumer.close()


def _dropped(make):
    """make() -> a client made and used, then no longer referred to: whether it was collected and
    the threads it started have ended."""
    import gc
    import weakref
    before = {t.ident for t in threading.enumerate()}
    held = [make()]
    ref = weakref.ref(held[0])
    started = [t for t in threading.enumerate() if t.ident not in before]
    held.clear()
    gc.collect()
    for t in started:
        t.join(10)
    return ref() is None, started, [t.name for t in started if t.is_alive()]


def test_clients_no_longer_referred_to_go_as_kafka_pythons_do(tansu_bootstrap):
    """kafka-python's KafkaProducer closes when collected (close(timeout=1): a pending record is
    delivered); its KafkaConsumer is left to the collector (no commit).  A subscribed member's
    listener, which the client keeps, must not keep the face."""
    topic = _topic("drop")
    _peers.create_topic(tansu_bootstrap, topic, 1)

    def producer():
        p = KafkaProducer(bootstrap_servers=tansu_bootstrap, linger_ms=300)
        p.send(topic, b"pending")  # lingering when the producer goes
        return p
    collected, started, alive = _dropped(producer)
    assert collected and started and not alive

    group = _topic("g")

    def consumer():
        c = KafkaConsumer(bootstrap_servers=tansu_bootstrap, group_id=group, auto_offset_reset="earliest",
                          session_timeout_ms=6000, consumer_timeout_ms=20000, auto_commit_interval_ms=600_000)
        c.subscribe([topic], listener=ConsumerRebalanceListener())
        assert next(iter(c)).value == b"pending"
        return c
    collected, started, alive = _dropped(consumer)
    assert collected and started and not alive
    check = KafkaConsumer(bootstrap_servers=tansu_bootstrap, group_id=group)
    assert check.committed(TopicPartition(topic, 0)) is None  # nothing committed for it
    check.close()


def test_a_partition_the_topic_lacks_is_a_value_error_as_in_kafka_python(tansu_bootstrap):
    topic = f"kp-nopart-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 2)
    for module in (kafka, face):
        p = module.KafkaProducer(bootstrap_servers=tansu_bootstrap)
        try:
            with pytest.raises(ValueError):
                p.send(topic, b"v", partition=99)
        finally:
            p.close()
