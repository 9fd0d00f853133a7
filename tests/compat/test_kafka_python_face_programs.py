"""kafka-python programs in the style of its README, run twice against one broker: with kafka-python
and with the face (only the module they take their names from differs); what they print must be
the same."""
import uuid

import pytest

from kafkacodec.compat import kafka_python as face

kafka = pytest.importorskip("kafka")
pytestmark = pytest.mark.timeout(120)


def _readme_style(mod, bootstrap, topics):
    """Fire-and-forget sends, a future's get(), keys, headers, serializer objects, gzip, flush and
    metrics; then iteration from the beginning of an assigned partition ending after
    consumer_timeout_ms, and a JSON subscription without a group."""
    raw, jsons, keyed = topics
    out = []
    producer = mod.KafkaProducer(bootstrap_servers=bootstrap)
    for _ in range(3):
        producer.send(raw, b"some bytes")
    md = producer.send(raw, b"waited for").get(timeout=60)
    out.append(("get", md.topic == raw, md.partition, md.offset, md.serialized_key_size, md.serialized_value_size))
    producer.send(raw, key=b"foo", value=b"bar")
    producer.send(raw, value=b"aGVsbG8=", headers=[("content-encoding", b"base64")])
    producer.flush()
    out.append(("metrics", isinstance(producer.metrics(), dict)))
    as_json = mod.KafkaProducer(bootstrap_servers=bootstrap, value_serializer=mod.JsonSerializer())
    out.append(("json", as_json.send(jsons, {"foo": "bar"}).get(30).offset))
    text_keys = mod.KafkaProducer(bootstrap_servers=bootstrap, key_serializer=mod.DefaultSerializer())
    md = text_keys.send(keyed, key="ping", value=b"1234").get(30)
    out.append(("text key", md.serialized_key_size, md.serialized_value_size))
    gz = mod.KafkaProducer(bootstrap_servers=bootstrap, compression_type="gzip")
    for i in range(300):
        gz.send(raw, b"msg %d" % i)
    gz.flush()
    for p in (producer, as_json, text_keys, gz):
        p.close()

    consumer = mod.KafkaConsumer(bootstrap_servers=bootstrap, consumer_timeout_ms=2000)
    consumer.assign([mod.TopicPartition(raw, 0)])
    consumer.seek_to_beginning()
    seen = 0
    for msg in consumer:
        if seen < 7:
            out.append((msg.offset, msg.key, msg.value, msg.headers, msg.serialized_key_size,
                        msg.serialized_value_size, msg.serialized_header_size))
        seen += 1
    out.append(("read", seen, consumer.position(mod.TopicPartition(raw, 0))))
    consumer.close()
    consumer = mod.KafkaConsumer(bootstrap_servers=bootstrap, value_deserializer=mod.JsonSerializer(),
                                 key_deserializer=lambda k: k, auto_offset_reset="earliest", consumer_timeout_ms=2000)
    consumer.subscribe([jsons])
    out += [("json read", msg.value, msg.key) for msg in consumer]
    batches = consumer.poll(timeout_ms=200)
    out.append(("poll after the end", batches))
    consumer.close()
    # the same records again through poll(), a Deserializer object given the headers
    consumer = mod.KafkaConsumer(bootstrap_servers=bootstrap, value_deserializer=mod.DefaultSerializer())
    consumer.assign([mod.TopicPartition(raw, 0)])
    consumer.seek_to_beginning()
    polled = []
    while len(polled) < 7:
        for tp, msgs in consumer.poll(timeout_ms=1000, max_records=7 - len(polled)).items():
            polled += [(tp.partition, m.offset, m.key, m.value, m.headers, m.serialized_header_size) for m in msgs]
    out.append(("polled", polled))
    consumer.close()
    return out


def test_readme_style_program_prints_the_same(tansu_bootstrap):
    import _peers
    got = {}
    for name, mod in (("kafka-python", kafka), ("face", face)):
        topics = [f"{kind}-{uuid.uuid4().hex[:8]}" for kind in ("raw", "json", "keyed")]
        _peers.create_topics(tansu_bootstrap, [(t, 1) for t in topics])
        got[name] = _readme_style(mod, tansu_bootstrap, topics)
    assert got["face"] == got["kafka-python"]
    assert ("read", 306, 306) in got["face"] and ("json read", {"foo": "bar"}, None) in got["face"]


def _group_with_async_listener(mod, bootstrap, topic, group):
    """A group member whose listener is a coroutine one (kafka-python awaits it)."""
    events = []

    class Listener(mod.AsyncConsumerRebalanceListener):
        async def on_partitions_revoked(self, revoked):
            events.append(("revoked", sorted(tp.partition for tp in revoked)))

        async def on_partitions_assigned(self, assigned):
            events.append(("assigned", sorted(tp.partition for tp in assigned)))

    producer = mod.KafkaProducer(bootstrap_servers=bootstrap)
    for i in range(6):
        producer.send(topic, b"%d" % i, partition=i % 2)
    producer.close()
    consumer = mod.KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, auto_offset_reset="earliest",
                                 session_timeout_ms=6000, consumer_timeout_ms=10000)
    consumer.subscribe([topic], listener=Listener())
    got = []
    for msg in consumer:
        got.append((msg.partition, msg.offset, msg.value))
        if len(got) == 6:
            break
    consumer.close()
    return events, sorted(got)


def test_a_coroutine_listener_is_awaited_as_kafka_python_does(tansu_bootstrap):
    import _peers
    got = {}
    for name, mod in (("kafka-python", kafka), ("face", face)):
        topic, group = f"al-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
        _peers.create_topic(tansu_bootstrap, topic, partitions=2)
        got[name] = _group_with_async_listener(mod, tansu_bootstrap, topic, group)
    assert got["face"] == got["kafka-python"]
    assert got["face"][0] == [("revoked", []), ("assigned", [0, 1]), ("revoked", [0, 1])]


def test_the_names_kafka_python_exports():
    # OffsetSpec names what kafka-python's admin offset lookups ask for; the face's admin client has none
    assert set(kafka.__all__) - set(dir(face)) <= {"OffsetSpec"}
    assert face.TopicPartitionReplica._fields == kafka.structs.TopicPartitionReplica._fields


def _without_a_start_offset(mod, bootstrap, topic):
    stages = []
    try:
        consumer = mod.KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="none",
                                     consumer_timeout_ms=3000)
        stages.append("made")
        stages += [m.offset for m in consumer]
        consumer.close()
    except mod.errors.NoOffsetForPartitionError as exc:
        stages.append(type(exc).__name__)
    return stages


def test_no_offset_to_start_from_is_raised_where_kafka_python_raises_it(tansu_bootstrap):
    import _peers
    topic = f"none-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, partitions=1)
    got = {name: _without_a_start_offset(mod, tansu_bootstrap, topic) for name, mod in (("kafka-python", kafka),
                                                                                        ("face", face))}
    assert got["face"] == got["kafka-python"] == ["made", "NoOffsetForPartitionError"]
