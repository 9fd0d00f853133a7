"""The face's serialization module, SerializingProducer and DeserializingConsumer against
confluent-kafka's: the same bytes for the same objects (String, Integer, Double; the face's UUID
serdes write what Kafka's Java UUIDSerializer writes, which confluent-kafka reads as a string),
the same errors, and records written by one client read back by the other through a broker."""
import math
import uuid

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")
import confluent_kafka.serialization as their  # noqa: E402
import _peers  # noqa: E402

from kafkacodec.client import ConfigError  # noqa: E402
from kafkacodec.compat import confluent_kafka as ck  # noqa: E402
from kafkacodec.compat.confluent_kafka import serialization as ours  # noqa: E402
from kafkacodec.compat.confluent_kafka.error import (ConsumeError, KeySerializationError,  # noqa: E402
                                                     ValueDeserializationError, ValueSerializationError)

INTS = [0, 1, -1, 255, 256, 12345, -12345, 2**31 - 1, -2**31, True]
DOUBLES = [0.0, -0.0, 1.5, -2.25, 1e308, -1e-308, 5e-324, math.pi, float("inf"), float("-inf"), float("nan"), 7]
STRINGS = ["", "a", "héllo wörld", "日本語のテキスト", "emoji \U0001F600", "x" * 10000]
CODECS = ["utf_8", "utf_16", "latin_1", "utf-32"]


def _ctx(field=ours.MessageField.VALUE):
    return ours.SerializationContext("topic", field)


def _their_ctx():
    return their.SerializationContext("topic", their.MessageField.VALUE)


@pytest.mark.parametrize("name,values", [("Integer", INTS), ("Double", DOUBLES)])
def test_numbers_are_the_same_bytes_both_ways(name, values):
    our_ser, our_de = getattr(ours, name + "Serializer")(), getattr(ours, name + "Deserializer")()
    their_ser, their_de = getattr(their, name + "Serializer")(), getattr(their, name + "Deserializer")()
    for value in values + [None]:
        data = our_ser(value, _ctx())
        assert data == their_ser(value, _their_ctx()), value
        back, theirs_back = our_de(data, _ctx()), their_de(data, _their_ctx())
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(back) and math.isnan(theirs_back)
        else:
            assert back == theirs_back == value and type(back) is type(theirs_back)
    assert our_ser(None) is None and our_de(None) is None


@pytest.mark.parametrize("codec", CODECS)
def test_strings_are_the_same_bytes_both_ways(codec):
    checked = 0
    for value in STRINGS + [None]:
        try:
            expected = their.StringSerializer(codec)(value, _their_ctx())
        except their.SerializationError:
            with pytest.raises(ours.SerializationError):  # not in the codec: refused by both
                ours.StringSerializer(codec)(value, _ctx())
            continue
        data = ours.StringSerializer(codec)(value, _ctx())
        assert data == expected
        assert ours.StringDeserializer(codec)(data) == their.StringDeserializer(codec)(data) == value
        checked += 1
    assert checked >= 4
    assert ours.StringSerializer().codec == "utf_8"


def test_uuids_are_kafkas_text_form_read_as_strings_by_confluent_kafka():
    ser, de = ours.UUIDSerializer(), ours.UUIDDeserializer()
    for u in [uuid.UUID(int=0), uuid.uuid4(), uuid.UUID("123e4567-e89b-12d3-a456-426614174000")]:
        data = ser(u, _ctx())
        assert len(data) == 36 and data == their.StringSerializer()(str(u))
        assert their.StringDeserializer()(data) == str(u)
        assert de(their.StringSerializer()(str(u))) == u
        assert ser(str(u).upper()) == data  # text is accepted, written in Kafka's (lower-case) form
    assert ser(None) is None and de(None) is None
    with pytest.raises(ours.SerializationError, match="not a UUID"):
        ser("not-a-uuid")
    with pytest.raises(ours.SerializationError, match="not a UUID"):
        de(b"123e4567")


def test_bad_input_is_a_serialization_error_where_confluent_kafkas_is():
    cases = [
        (ours.IntegerSerializer(), their.IntegerSerializer(), 2**31),
        (ours.IntegerSerializer(), their.IntegerSerializer(), 1.5),
        (ours.DoubleSerializer(), their.DoubleSerializer(), "1.5"),
        (ours.IntegerDeserializer(), their.IntegerDeserializer(), b"\x00\x01\x02"),
        (ours.DoubleDeserializer(), their.DoubleDeserializer(), b"\x00" * 9),
        (ours.StringDeserializer(), their.StringDeserializer(), b"\xff\xfe\xfd"),
        (ours.StringSerializer("ascii"), their.StringSerializer("ascii"), "é"),
    ]
    for mine, theirs, value in cases:
        with pytest.raises(their.SerializationError):
            theirs(value)
        with pytest.raises(ours.SerializationError) as info:
            mine(value)
        assert isinstance(info.value, ck.KafkaException)
    # what confluent-kafka does not catch is not caught either
    with pytest.raises(AttributeError):
        their.StringSerializer()(5)
    with pytest.raises(AttributeError):
        ours.StringSerializer()(5)


def test_message_field_context_and_the_base_classes():
    assert [f.value for f in ours.MessageField] == [f.value for f in their.MessageField]
    assert str(ours.MessageField.KEY) == str(their.MessageField.KEY) == "key"
    assert ours.MessageField.VALUE == "value"
    ctx = ours.SerializationContext("t", ours.MessageField.KEY, [("h", b"1")])
    assert (ctx.topic, ctx.field, ctx.headers) == ("t", ours.MessageField.KEY, [("h", b"1")])
    with pytest.raises(NotImplementedError):
        ours.Serializer()(1)
    with pytest.raises(NotImplementedError):
        ours.Deserializer()(b"")
    with pytest.raises(NotImplementedError):
        ours.SerializerBuilder().build({}, True)
    ours.Serializer().set_cluster_id_resolver(lambda: "id")  # accepted and ignored
    ours.Deserializer().close()


def test_the_error_classes():
    err = KeySerializationError(ValueError("bad key"))
    assert isinstance(err, ours.SerializationError) and isinstance(err, ck.error.ProduceError)
    assert err.code == ck.KafkaError._KEY_SERIALIZATION and err.name == "_KEY_SERIALIZATION"
    assert err.args[0].str() == "bad key" and isinstance(err.exception, ValueError)
    msg = ck.Message("t", 0, 5, value=b"\x01")
    err = ValueDeserializationError(ValueError("short"), msg)
    assert isinstance(err, ConsumeError) and err.kafka_message is msg and err.code == ck.KafkaError._VALUE_DESERIALIZATION
    theirs = confluent_kafka.error.ValueSerializationError(ValueError("v"))
    mine = ValueSerializationError(ValueError("v"))
    assert (mine.code, mine.name, str(mine)) == (theirs.code, theirs.name, str(theirs))


# -- through a broker


def _read_all(consumer, module, topic, n, timeout=30.0):
    """n messages of partition 0 of `topic` from its beginning; module: whose TopicPartition."""
    import time
    consumer.assign([module.TopicPartition(topic, 0, module.OFFSET_BEGINNING)])
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        msg = consumer.poll(0.5)
        if msg is not None:
            out.append(msg)
    return out


def test_serializing_producer_written_read_by_confluent_kafkas_deserializing_consumer(tansu_bootstrap):
    topic = f"ser-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    values = [(i * 1000 - 7, f"wert-{i}-é", float(i) / 3) for i in range(30)]
    reports = []
    with ck.SerializingProducer({"bootstrap.servers": tansu_bootstrap, "key.serializer": ours.IntegerSerializer(),
                                 "value.serializer": ours.StringSerializer()}) as p:
        for k, v, _ in values:
            p.produce(topic, key=k, value=v, headers={"h": "x"}, on_delivery=lambda e, m: reports.append((e, m)))
        assert p.flush(20) == 0
    assert [e for e, _ in reports] == [None] * 30 and reports[0][1].key() == ours.IntegerSerializer()(values[0][0])
    c = confluent_kafka.DeserializingConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": "g-" + topic,
                                              "key.deserializer": their.IntegerDeserializer(),
                                              "value.deserializer": their.StringDeserializer()})
    try:
        got = _read_all(c, confluent_kafka, topic, 30)
    finally:
        c.close()
    assert [(m.key(), m.value(), m.headers()) for m in got] == [(k, v, [("h", b"x")]) for k, v, _ in values]


def test_confluent_kafkas_serializing_producer_read_by_the_faces_deserializing_consumer(tansu_bootstrap):
    topic = f"deser-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    values = [(float(i) / 7, uuid.uuid4()) for i in range(25)]
    p = confluent_kafka.SerializingProducer({"bootstrap.servers": tansu_bootstrap,
                                            "key.serializer": their.DoubleSerializer(),
                                            "value.serializer": their.StringSerializer()})
    for k, u in values:
        p.produce(topic, key=k, value=str(u))
    assert p.flush(20) == 0
    seen_ctx = []

    def value_de(data, ctx):
        seen_ctx.append((ctx.topic, str(ctx.field)))
        return ours.UUIDDeserializer()(data, ctx)

    c = ck.DeserializingConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": "g-" + topic,
                                  "key.deserializer": ours.DoubleDeserializer(), "value.deserializer": value_de})
    with c:
        got = _read_all(c, ck, topic, 25)
        msg = got[0]
        assert msg.deserialized_key() == msg.key() == values[0][0]
        with pytest.raises(NotImplementedError):
            c.consume(1, 0)
    assert [(m.key(), m.value()) for m in got] == values
    assert seen_ctx[0] == (topic, "value")
    with pytest.raises(RuntimeError):
        c.poll(0)


def test_serde_errors_through_the_clients(tansu_bootstrap):
    topic = f"serr-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    p = ck.SerializingProducer({"bootstrap.servers": tansu_bootstrap, "key.serializer": ours.IntegerSerializer()})
    with pytest.raises(KeySerializationError) as info:
        p.produce(topic, key=2**40, value=b"v")
    assert info.value.code == ck.KafkaError._KEY_SERIALIZATION and len(p) == 0
    with pytest.raises(TypeError, match="topic must be a str"):
        p.produce(5, key=1)
    p.produce(topic, key=None, value=b"\x00\x01\x02")  # three bytes: no int32
    assert p.flush(20) == 0
    p.close()
    with pytest.raises(RuntimeError, match="closed"):
        p.produce(topic, key=1)
    c = ck.DeserializingConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": "g-" + topic,
                                  "value.deserializer": ours.IntegerDeserializer(), "enable.partition.eof": True})
    with c:
        c.assign([ck.TopicPartition(topic, 0, ck.OFFSET_BEGINNING)])
        errors = []
        for _ in range(40):
            try:
                if c.poll(0.5) is not None:
                    break
            except (ValueDeserializationError, ConsumeError) as exc:
                errors.append(exc)
                if len(errors) == 2:
                    break
        bad, eof = errors
        assert isinstance(bad, ValueDeserializationError) and bad.kafka_message.value() == b"\x00\x01\x02"
        assert type(eof) is ConsumeError and eof.code == ck.KafkaError._PARTITION_EOF


class _Prefixing(ours.Serializer):
    """Writes prefix + the text; counts its close()."""

    def __init__(self, prefix):
        self.prefix, self.closed, self.resolver = prefix, 0, None

    def __call__(self, obj, ctx=None):
        return None if obj is None else self.prefix + obj.encode()

    def set_cluster_id_resolver(self, resolver):
        self.resolver = resolver

    def close(self):
        self.closed += 1


class _Builder(ours.SerializerBuilder):
    """Takes its own setting out of the configuration it is given."""

    def __init__(self):
        self.built = []

    def build(self, conf, is_key):
        conf = dict(conf)
        serde = _Prefixing(conf.pop("prefix.setting").encode() + (b"K:" if is_key else b"V:"))
        self.built.append(serde)
        return serde, conf


def test_builders_own_settings_closing_and_the_cluster_id(tansu_bootstrap):
    topic = f"build-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    builder, given = _Builder(), _Prefixing(b"given:")
    p = ck.SerializingProducer({"bootstrap.servers": tansu_bootstrap, "prefix.setting": "p-",
                                "key.serializer.builder": builder, "value.serializer": given})
    delivered = []
    p.produce(topic, key="k", value="v", on_delivery=lambda e, m: delivered.append(m))
    assert p.flush(20) == 0
    assert (delivered[0].key(), delivered[0].value()) == (b"p-K:k", b"given:v")
    built = builder.built[0]
    assert built.resolver() == given.resolver() == p.cluster_id(10) and p.cluster_id(10)
    p.close()
    assert (built.closed, given.closed) == (1, 0)  # what it built is closed; what it was given is the caller's
    with pytest.raises(ValueError, match="both"):
        ck.SerializingProducer({"bootstrap.servers": tansu_bootstrap, "value.serializer": given,
                                "value.serializer.builder": builder})
    with pytest.raises(ConfigError, match="prefix.setting"):
        ck.Producer({"bootstrap.servers": tansu_bootstrap, "prefix.setting": "p-"})  # the builder's, not the client's
