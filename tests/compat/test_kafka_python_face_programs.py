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
