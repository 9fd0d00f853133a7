"""The face's confluent_kafka.schema_registry against confluent-kafka's own: the same names and constructor
signatures, and the same bytes both ways -- what confluent-kafka's AvroSerializer / JSONSerializer write the
face's deserializers read into the same objects, and the face's serializers write the same bytes (both
clients pointed at one registry served by the test, or each at its in-process mock:// registry); records
written by confluent-kafka's AvroSerializer to the embedded broker come back through kafkacodec's consumer
and kafkacodec.avro.decode(..., confluent=True) exactly."""
import datetime
import decimal
import inspect
import json
import pathlib
import sys
import time
import uuid
import warnings

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "avro"))

with warnings.catch_warnings():
    warnings.simplefilter("ignore")      # authlib's deprecation notice, printed when confluent's registry loads
    C = pytest.importorskip("confluent_kafka.schema_registry")
    from confluent_kafka.schema_registry import avro as c_avro, json_schema as c_json  # noqa: E402
import confluent_kafka.serialization as c_ser  # noqa: E402
fastavro = pytest.importorskip("fastavro")
pa = pytest.importorskip("pyarrow")

from _registry_server import registry_server  # noqa: E402
from _schemas import WIDE, wide_records  # noqa: E402
from kafkacodec.compat.confluent_kafka import schema_registry as F  # noqa: E402
from kafkacodec.compat.confluent_kafka.schema_registry import avro as f_avro, json_schema as f_json  # noqa: E402
from kafkacodec.compat.confluent_kafka.serialization import (MessageField, SerializationContext,  # noqa: E402
                                                             SerializationError)

LOGICAL = {
    "type": "record", "name": "Event", "namespace": "ns", "fields": [
        {"name": "uid", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "at_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "local", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
        {"name": "tm", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "amount", "type": {"type": "fixed", "name": "Amt", "size": 8, "logicalType": "decimal",
                                    "precision": 18, "scale": 4}},
        {"name": "choice", "type": ["null", "int", "string", {"type": "record", "name": "Sub",
                                                               "fields": [{"name": "x", "type": "float"}]}]},
        {"name": "blob", "type": "bytes"},
        {"name": "nested", "type": {"type": "array", "items": {"type": "map", "values": ["null", "double"]}}},
    ]}


def _logical_records(n):
    out = []
    for i in range(n):
        out.append({
            "uid": uuid.UUID(int=i * 7919 + 1),
            "at_ms": datetime.datetime(2024, 5, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=i),
            "local": datetime.datetime(2024, 5, 1, 12, 0) + datetime.timedelta(microseconds=i * 3),
            "tm": datetime.time(12, 30, i % 60, 1000 * (i % 1000)),
            "amount": decimal.Decimal(i * 12345).scaleb(-4),
            "choice": [None, i, f"s{i}", {"x": 0.5 * i}][i % 4],
            "blob": bytes([i % 256]) * (i % 5),
            "nested": [{"a": None, "b": float(i)}] if i % 2 else [],
        })
    return out


def _ctx(field=MessageField.VALUE, topic="orders"):
    return SerializationContext(topic, field), c_ser.SerializationContext(topic, c_ser.MessageField(str(field)))


# --- names and signatures ---------------------------------------------------------------------------

# confluent-kafka names the face leaves out (listed in the face's documentation)
GAPS = {"Association", "AssociationCreateOrUpdateInfo", "AssociationCreateOrUpdateRequest",
        "AssociationInfo", "AssociationResponse", "Metadata", "MetadataProperties", "MetadataTags", "Rule", "RuleKind",
        "RuleMode", "RuleParams", "RuleSet", "Optional"}
CLIENT_GAPS = {"create_association", "delete_associations", "get_associations_by_resource_name"}


def test_names_of_confluent_kafka_schema_registry_are_there():
    missing = {n for n in dir(C) if not n.startswith("_") and not inspect.ismodule(getattr(C, n))
               and not hasattr(F, n)}
    assert missing <= GAPS, sorted(missing - GAPS)
    import importlib
    for module in ("avro", "json_schema", "error", "schema_registry_client"):
        ours = importlib.import_module(f"{F.__name__}.{module}")
        theirs = importlib.import_module(f"{C.__name__}.{module}")
        wanted = {"avro": {"AvroSerializer", "AvroDeserializer"}, "json_schema": {"JSONSerializer", "JSONDeserializer"},
                  "error": {"SchemaRegistryError"}}.get(module, {"SchemaRegistryClient", "Schema", "RegisteredSchema",
                                                                 "SchemaReference", "ServerConfig",
                                                                 "ConfigCompatibilityLevel"})
        assert all(hasattr(ours, n) and hasattr(theirs, n) for n in wanted), module
    client_missing = {n for n in dir(C.SchemaRegistryClient) if not n.startswith("_")
                      and not hasattr(F.SchemaRegistryClient, n)}
    assert client_missing <= CLIENT_GAPS, sorted(client_missing - CLIENT_GAPS)
    for name in ("topic_subject_name_strategy", "topic_record_subject_name_strategy",
                 "record_subject_name_strategy", "prefix_schema_id_serializer", "dual_schema_id_deserializer"):
        assert list(inspect.signature(getattr(F, name)).parameters) == \
            list(inspect.signature(getattr(C, name)).parameters), name
    assert [e.value for e in F.ConfigCompatibilityLevel] == [e.value for e in C.ConfigCompatibilityLevel]


@pytest.mark.parametrize("ours, theirs", [
    (f_avro.AvroSerializer, c_avro.AvroSerializer), (f_avro.AvroDeserializer, c_avro.AvroDeserializer),
    (f_json.JSONSerializer, c_json.JSONSerializer), (f_json.JSONDeserializer, c_json.JSONDeserializer)],
    ids=lambda c: c.__name__)
def test_serde_constructors_and_conf_keys_are_confluent_kafkas(ours, theirs):
    ps, pt = inspect.signature(ours.__init__).parameters, inspect.signature(theirs.__init__).parameters
    assert list(ps) == list(pt)
    assert [p.default for p in ps.values()] == [p.default for p in pt.values()]
    assert set(ours._defaults) == set(theirs._default_conf) - {"validation.rules.executor"} | (
        {"validation.rules.executor"} & set(ours._defaults))
    with pytest.raises(ValueError, match="Unrecognized properties: nope"):
        args = {"schema_registry_client": F.SchemaRegistryClient({"url": "mock://names"}), "conf": {"nope": 1}}
        if "schema_str" in ps:
            args["schema_str"] = '{"type":"string"}'
        ours(**args)


def test_subject_name_strategies():
    ctx, _ = _ctx()
    assert F.topic_subject_name_strategy(ctx, "ns.R") == "orders-value"
    assert F.topic_record_subject_name_strategy(ctx, "ns.R") == "orders-ns.R"
    assert F.record_subject_name_strategy(None, "ns.R") == "ns.R"
    with pytest.raises(ValueError, match="SerializationContext is required"):
        F.topic_subject_name_strategy(None, "ns.R")


# --- Avro bytes, both ways --------------------------------------------------------------------------

@pytest.fixture
def registries():
    """A face client and a confluent-kafka client on one registry served by the test."""
    with registry_server() as (url, state):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield F.SchemaRegistryClient({"url": url}), C.SchemaRegistryClient({"url": url}), state


@pytest.mark.parametrize("schema, records", [(WIDE, wide_records(200)), (LOGICAL, _logical_records(120))],
                         ids=["wide", "logical"])
def test_avro_bytes_are_confluent_kafkas_both_ways(registries, schema, records):
    ours_sr, theirs_sr, _ = registries
    text = json.dumps(schema)
    ctx, cctx = _ctx()
    ours, theirs = f_avro.AvroSerializer(ours_sr, text), c_avro.AvroSerializer(theirs_sr, text)
    ours_d, theirs_d = f_avro.AvroDeserializer(ours_sr), c_avro.AvroDeserializer(theirs_sr)
    for rec in records:
        written_by_them = theirs(rec, cctx)
        written_by_us = ours(rec, ctx)
        assert written_by_us == written_by_them
        assert ours_d(written_by_them, ctx) == theirs_d(written_by_them, cctx)
        assert theirs_d(written_by_us, cctx) == ours_d(written_by_us, ctx)
    assert ours(None, ctx) is None and ours_d(None, ctx) is None


def test_avro_reader_schema_record_names_and_primitives(registries):
    ours_sr, theirs_sr, _ = registries
    ctx, cctx = _ctx()
    v1 = {"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}]}
    v2 = {"type": "record", "name": "R", "fields": [{"name": "a", "type": "long"},
                                                    {"name": "b", "type": "string", "default": "none"}]}
    written = c_avro.AvroSerializer(theirs_sr, json.dumps(v1))({"a": 7}, cctx)
    assert f_avro.AvroDeserializer(ours_sr, json.dumps(v2))(written, ctx) == {"a": 7, "b": "none"}
    union = json.dumps(["null", "string", {"type": "record", "name": "X", "fields": [{"name": "q", "type": "int"}]}])
    data = c_avro.AvroSerializer(theirs_sr, union)({"q": 1}, cctx)
    assert f_avro.AvroDeserializer(ours_sr, return_record_name=True)(data, ctx) == \
        c_avro.AvroDeserializer(theirs_sr, return_record_name=True)(data, cctx) == ("X", {"q": 1})
    for primitive, value in (('"string"', "héllo"), ('"long"', -5), ('"bytes"', b"\x00\x01raw"), ('"double"', 2.5)):
        ours_b = f_avro.AvroSerializer(ours_sr, primitive)(value, SerializationContext(f"p{primitive}", "value"))
        theirs_b = c_avro.AvroSerializer(theirs_sr, primitive)(value, c_ser.SerializationContext(f"p{primitive}",
                                                                                                  "value"))
        assert ours_b == theirs_b
        assert f_avro.AvroDeserializer(ours_sr)(theirs_b, ctx) == value


def test_avro_conf_keys(registries):
    ours_sr, theirs_sr, state = registries
    ctx, cctx = _ctx(topic="conf")
    schema = json.dumps({"type": "record", "name": "shop.Item", "fields": [{"name": "n", "type": "int"}]})
    with pytest.raises(F.SchemaRegistryError) as info:      # not registered, and not to be registered
        f_avro.AvroSerializer(ours_sr, schema, conf={"auto.register.schemas": False})({"n": 1}, ctx)
    assert info.value.error_code == 40401
    written = c_avro.AvroSerializer(theirs_sr, schema, conf={
        "subject.name.strategy": C.topic_record_subject_name_strategy})({"n": 1}, cctx)
    assert ours_sr.get_subjects() == ["conf-shop.Item"]
    ours = f_avro.AvroSerializer(ours_sr, schema, conf={"auto.register.schemas": False,
                                                        "subject.name.strategy": F.topic_record_subject_name_strategy})
    assert ours({"n": 1}, ctx) == written
    latest = f_avro.AvroSerializer(ours_sr, None, conf={"auto.register.schemas": False, "use.latest.version": True,
                                                        "subject.name.strategy.type": "TOPIC_RECORD"})
    with pytest.raises(ValueError, match="both use.latest.version and auto.register.schemas"):
        f_avro.AvroSerializer(ours_sr, schema, conf={"use.latest.version": True})
    assert f_avro.AvroSerializer(ours_sr, schema, conf={
        "use.schema.id": 1, "auto.register.schemas": False})({"n": 1}, ctx)[1:5] == (1).to_bytes(4, "big")
    record_strategy = f_avro.AvroSerializer(ours_sr, schema, conf={"subject.name.strategy":
                                                                   F.record_subject_name_strategy})
    record_strategy({"n": 2}, ctx)
    assert "shop.Item" in ours_sr.get_subjects()
    del latest
    to_dict = f_avro.AvroSerializer(ours_sr, schema, to_dict=lambda obj, c: {"n": obj * 2})
    from_dict = f_avro.AvroDeserializer(ours_sr, from_dict=lambda d, c: d["n"] + 1)
    assert from_dict(to_dict(20, ctx), ctx) == 41


def test_avro_schema_references_resolve_through_the_registry(registries):
    ours_sr, theirs_sr, _ = registries
    address = json.dumps({"type": "record", "name": "Address", "namespace": "shop",
                          "fields": [{"name": "city", "type": "string"}, {"name": "zip", "type": "int"}]})
    order = json.dumps({"type": "record", "name": "Order", "namespace": "shop",
                        "fields": [{"name": "id", "type": "long"}, {"name": "ship_to", "type": "shop.Address"},
                                   {"name": "bill_to", "type": ["null", "shop.Address"], "default": None}]})
    assert theirs_sr.register_schema("address-value", C.Schema(address, "AVRO")) == \
        ours_sr.register_schema("address-value", F.Schema(address, "AVRO"))
    ctx, cctx = _ctx(topic="orders-ref")
    theirs = c_avro.AvroSerializer(theirs_sr, C.Schema(order, "AVRO", [C.SchemaReference("shop.Address",
                                                                                          "address-value", 1)]))
    ours = f_avro.AvroSerializer(ours_sr, F.Schema(order, "AVRO", [F.SchemaReference("shop.Address",
                                                                                      "address-value", 1)]))
    rec = {"id": 3, "ship_to": {"city": "Oslo", "zip": 150}, "bill_to": {"city": "Lyon", "zip": 69001}}
    written = theirs(rec, cctx)
    assert ours(rec, ctx) == written
    assert f_avro.AvroDeserializer(ours_sr)(written, ctx) == c_avro.AvroDeserializer(theirs_sr)(written, cctx) == rec


def test_use_latest_with_metadata_picks_the_version():
    sr = F.SchemaRegistryClient({"url": "mock://face-metadata"})
    v1 = json.dumps({"type": "record", "name": "M", "fields": [{"name": "a", "type": "int"}]})
    v2 = json.dumps({"type": "record", "name": "M", "fields": [{"name": "a", "type": "int"},
                                                                {"name": "b", "type": "int", "default": 0}]})
    id1 = sr.register_schema("meta-value", F.Schema(v1, metadata={"properties": {"app": "one"}}))
    sr.register_schema("meta-value", F.Schema(v2, metadata={"properties": {"app": "two"}}))
    ctx, _ = _ctx(topic="meta")
    ser = f_avro.AvroSerializer(sr, None, conf={"auto.register.schemas": False,
                                                "use.latest.with.metadata": {"app": "one"}})
    data = ser({"a": 5}, ctx)
    assert data == b"\x00" + id1.to_bytes(4, "big") + b"\x0a"
    reader = f_avro.AvroDeserializer(sr, conf={"use.latest.with.metadata": {"app": "two"}})
    assert reader(data, ctx) == {"a": 5, "b": 0}


def test_avro_guid_in_a_header_both_ways():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs_sr = C.SchemaRegistryClient.new_client({"url": "mock://face-guid"})
    ours_sr = F.SchemaRegistryClient({"url": "mock://face-guid-ours"})
    schema = json.dumps({"type": "record", "name": "G", "fields": [{"name": "s", "type": "string"}]})
    headers = []
    ctx = SerializationContext("g", MessageField.VALUE, headers)
    payload = f_avro.AvroSerializer(ours_sr, schema, conf={"schema.id.serializer": F.header_schema_id_serializer})(
        {"s": "x"}, ctx)
    assert payload == b"\x02x" and headers[0][0] == "__value_schema_id" and headers[0][1][:1] == b"\x01"
    assert f_avro.AvroDeserializer(ours_sr)(payload, ctx) == {"s": "x"}
    # confluent-kafka's mock registry has its own GUIDs: its header serializer and our reader, each on its own
    theirs_headers = []
    theirs_ctx = c_ser.SerializationContext("g", c_ser.MessageField.VALUE, theirs_headers)
    theirs_payload = c_avro.AvroSerializer(theirs_sr, schema, conf={
        "schema.id.serializer": C.header_schema_id_serializer})({"s": "x"}, theirs_ctx)
    assert theirs_payload == payload and theirs_headers[0][1][:1] == b"\x01"


def test_confluent_kafka_mock_registry_bytes_read_by_the_face_mock():
    """confluent-kafka's in-process mock:// registry on one side, the face's on the other: ids agree when
    both registries take the same schemas in the same order."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs_sr = C.SchemaRegistryClient.new_client({"url": "mock://face-mock-bytes"})
    ours_sr = F.SchemaRegistryClient({"url": "mock://face-mock-bytes"})
    ctx, cctx = _ctx(topic="mocked")
    text = json.dumps(WIDE)
    theirs = c_avro.AvroSerializer(theirs_sr, text)
    ours = f_avro.AvroSerializer(ours_sr, text)
    for rec in wide_records(30):
        written = theirs(rec, cctx)
        assert ours(rec, ctx) == written
        assert f_avro.AvroDeserializer(ours_sr)(written, ctx) == c_avro.AvroDeserializer(theirs_sr)(written, cctx)


def test_bad_avro_bytes_are_one_line_serialization_errors(registries):
    ours_sr, _, _ = registries
    ctx, _ = _ctx()
    data = f_avro.AvroSerializer(ours_sr, json.dumps(WIDE))(wide_records(1)[0], ctx)
    deser = f_avro.AvroDeserializer(ours_sr)
    with pytest.raises(SerializationError, match="Expecting data framing of length 6 bytes"):
        deser(b"\x00\x00\x00\x00\x01", ctx)
    with pytest.raises(SerializationError, match="Unknown magic byte"):
        deser(b"\x07" + data[1:], ctx)
    with pytest.raises(SerializationError, match="does not decode at byte") as info:
        deser(data[:20], ctx)
    assert "\n" not in str(info.value)
    with pytest.raises(F.SchemaRegistryError) as info:
        deser(b"\x00\x00\x00\x03\xe7" + data[5:], ctx)
    assert info.value.error_code == 40403
    with pytest.raises(SerializationError, match="does not fit the Avro schema"):
        f_avro.AvroSerializer(ours_sr, json.dumps(WIDE))({"id": "not a long"}, ctx)


def test_damaged_avro_values_raise_serialization_errors_only(registries):
    import random
    ours_sr, _, _ = registries
    ctx, _ = _ctx()
    good = [f_avro.AvroSerializer(ours_sr, json.dumps(WIDE))(rec, ctx) for rec in wide_records(30)]
    deser = f_avro.AvroDeserializer(ours_sr)
    rnd = random.Random(5)
    for _ in range(3000):
        damaged = bytearray(rnd.choice(good))
        for _ in range(rnd.randrange(1, 4)):
            damaged[rnd.randrange(5, len(damaged))] = rnd.randrange(256)
        if rnd.random() < 0.3:
            damaged = damaged[:rnd.randrange(6, len(damaged))]
        try:
            deser(bytes(damaged), ctx)
        except SerializationError as e:
            assert "\n" not in str(e)


# --- JSON bytes, both ways --------------------------------------------------------------------------

PERSON = json.dumps({"$schema": "http://json-schema.org/draft-07/schema#", "title": "Person", "type": "object",
                     "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0},
                                    "tags": {"type": "array", "items": {"type": "string"}},
                                    "score": {"type": ["number", "null"]}},
                     "required": ["name", "age"]})


def test_json_bytes_are_confluent_kafkas_both_ways(registries):
    ours_sr, theirs_sr, _ = registries
    ctx, cctx = _ctx(topic="people")
    ours, theirs = f_json.JSONSerializer(PERSON, ours_sr), c_json.JSONSerializer(PERSON, theirs_sr)
    ours_d = f_json.JSONDeserializer(PERSON, schema_registry_client=ours_sr)
    theirs_d = c_json.JSONDeserializer(PERSON, schema_registry_client=theirs_sr)
    for i in range(60):
        person = {"name": f"Zoë {i} \u2603", "age": i, "tags": ["a", "b\"c"][: i % 3],
                  "score": None if i % 2 else i / 7}
        written_by_them = theirs(person, cctx)
        assert ours(person, ctx) == written_by_them
        assert ours_d(written_by_them, ctx) == theirs_d(written_by_them, cctx) == person
    writer_only = f_json.JSONDeserializer(None, schema_registry_client=ours_sr)
    assert writer_only(written_by_them, ctx) == person
    with pytest.raises(SerializationError, match="'age' is a required property"):
        ours({"name": "x"}, ctx)
    with pytest.raises(SerializationError, match="-1 is less than the minimum of 0"):
        ours_d(theirs({"name": "x", "age": 0}, cctx)[:5] + b'{"name":"x","age":-1}', ctx)
    with pytest.raises(SerializationError, match="does not decode"):
        ours_d(written_by_them[:5] + b'{"name":', ctx)
    unchecked = f_json.JSONSerializer(PERSON, ours_sr, conf={"validate": False})
    assert unchecked({"name": "x"}, ctx)[5:] == b'{"name":"x"}'


# --- records on the embedded broker -----------------------------------------------------------------

@pytest.mark.timeout(120)
def test_confluent_avro_records_on_the_broker_read_back_by_kafkacodec(tansu_bootstrap, registries):
    import confluent_kafka
    import kafkacodec.avro as kavro
    from kafkacodec.client import Consumer, TopicPartition
    import _peers
    ours_sr, theirs_sr, _ = registries
    topic = f"sr-{uuid.uuid4().hex[:8]}"
    _peers.create_topics(tansu_bootstrap, [topic])
    records = wide_records(500)
    serializer = c_avro.AvroSerializer(theirs_sr, json.dumps(WIDE))
    producer = confluent_kafka.Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 5})
    for rec in records:
        producer.produce(topic, value=serializer(rec, c_ser.SerializationContext(topic, c_ser.MessageField.VALUE)))
    assert producer.flush(30) == 0
    del producer      # no librdkafka threads left reconnecting once the broker stops
    schema_id = ours_sr.get_latest_version(f"{topic}-value").schema_id

    consumer = Consumer({"bootstrap.servers": tansu_bootstrap, "auto.offset.reset": "earliest"})
    try:
        consumer.assign([TopicPartition(topic, 0)])
        batches, rows, deadline = [], 0, time.monotonic() + 60
        while rows < len(records) and time.monotonic() < deadline:
            batch = consumer.poll_arrow(0.5)
            batches.append(batch)
            rows += batch.num_rows
    finally:
        consumer.close()
    table = pa.Table.from_batches([b for b in batches if b.num_rows])
    assert table.num_rows == len(records)
    decoded = kavro.decode(table, ours_sr.get_schema(schema_id).schema_str, confluent=True)
    # (compared as Python values: the enum column's dictionary holds every symbol, pa.array's those met)
    assert decoded.to_pylist() == pa.array(records, type=decoded.type).to_pylist()
    # and the reverse: kafkacodec's encoder gives the bytes confluent-kafka wrote
    assert kavro.encode(decoded, WIDE, schema_id=schema_id).equals(table.column("value").combine_chunks())
    # the face's deserializer reads the same records as confluent-kafka's
    ctx, cctx = _ctx(topic=topic)
    ours_d, theirs_d = f_avro.AvroDeserializer(ours_sr), c_avro.AvroDeserializer(theirs_sr)
    for value in table.column("value").to_pylist()[:50]:
        assert ours_d(value, ctx) == theirs_d(value, cctx)


# --- confluent-kafka's Avro example programs, as written and over the face ---------------------------

def _example(name, face, tmp_path):
    """The example's path; for the face, a copy whose ``from confluent_kafka...`` lines are the only change."""
    source = pathlib.Path(__file__).parent / "examples" / name
    if not face:
        return source
    lines = source.read_text().splitlines(keepends=True)
    changed = [line.replace("from confluent_kafka", "from kafkacodec.compat.confluent_kafka", 1)
               if line.startswith("from confluent_kafka") else line for line in lines]
    assert changed != lines
    path = tmp_path / f"face_{name}"
    path.write_text("".join(changed))
    return path


def _run(path, *args):
    import subprocess
    proc = subprocess.run([sys.executable, str(path), *map(str, args)], capture_output=True, text=True, timeout=150)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


@pytest.mark.slow          # six program runs, each joining a group: about 100 s
@pytest.mark.timeout(300)
def test_avro_example_programs_agree_as_written_and_over_the_face(tansu_bootstrap, tmp_path):
    import _peers
    n = 40
    with registry_server() as (url, state):
        outputs, topics = {}, {}
        for producer_face in (False, True):
            topic = topics[producer_face] = f"avro-ex-{uuid.uuid4().hex[:8]}"
            _peers.create_topics(tansu_bootstrap, [topic])
            assert _run(_example("avro_producer.py", producer_face, tmp_path), tansu_bootstrap, url, topic,
                        n).strip() == f"Produced {n} User records"
            for consumer_face in (False, True):
                out = _run(_example("avro_consumer.py", consumer_face, tmp_path), tansu_bootstrap, url,
                           f"g-{uuid.uuid4().hex[:6]}", topic, n)
                outputs[producer_face, consumer_face] = sorted(out.splitlines())
        assert len(outputs[False, False]) == n and "favorite_color: BLUE" in outputs[False, False][2]
        assert all(out == outputs[False, False] for out in outputs.values())
        # the same bytes on the broker, whoever wrote them (one schema: one id in the registry)
        written = {face: [(k, v) for k, v, *_ in _peers.consume_with_confluent(tansu_bootstrap, topic, n)]
                   for face, topic in topics.items()}
        assert written[True] == written[False]
        assert {p.split("?")[0] for m, p, _ in state.requests if m == "POST"} == {
            f"/subjects/{t}-value/versions" for t in topics.values()}


# --- asyncio forms ----------------------------------------------------------------------------------

def test_async_client_and_serdes_write_confluent_kafkas_bytes_off_the_event_loop(monkeypatch):
    import asyncio
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from confluent_kafka.schema_registry import AsyncSchemaRegistryClient as CAsync
        from confluent_kafka.schema_registry.avro import AsyncAvroDeserializer as CAsyncDeser
        from confluent_kafka.schema_registry.avro import AsyncAvroSerializer as CAsyncSer
    threads = []
    real_to_thread = asyncio.to_thread

    async def counting_to_thread(fn, *args, **kwargs):
        threads.append(getattr(fn, "__name__", repr(fn)))
        return await real_to_thread(fn, *args, **kwargs)
    monkeypatch.setattr(asyncio, "to_thread", counting_to_thread)
    text = json.dumps(WIDE)
    records = wide_records(20)

    async def main(url):
        ours_sr = F.AsyncSchemaRegistryClient({"url": url})
        theirs_sr = CAsync({"url": url})
        ctx, cctx = _ctx(topic="aio")
        ours = await f_avro.AsyncAvroSerializer(ours_sr, text)
        theirs = await CAsyncSer(theirs_sr, text)
        ours_d = await f_avro.AsyncAvroDeserializer(ours_sr)
        theirs_d = await CAsyncDeser(theirs_sr)
        first = await ours(records[0], ctx)
        assert len(threads) == 1                # registering went to a worker thread
        for rec in records:
            written = await theirs(rec, cctx)
            assert await ours(rec, ctx) == written
            assert await ours_d(written, ctx) == await theirs_d(written, cctx)
        assert first == await theirs(records[0], cctx)
        assert len(threads) == 1                # the rest came from the caches, on the event loop
        assert (await ours_sr.get_latest_version("aio-value")).schema_id == 1
        assert len(threads) == 2
        async with ours_sr:
            assert await ours_sr.get_subjects() == ["aio-value"]
    with registry_server() as (url, _):
        asyncio.run(main(url))


def test_async_names_and_signatures_are_confluent_kafkas():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from confluent_kafka.schema_registry import AsyncSchemaRegistryClient as CAsync
    ours_methods = {n for n in dir(F.AsyncSchemaRegistryClient) if not n.startswith("_")}
    assert {n for n in dir(CAsync) if not n.startswith("_")} - ours_methods <= CLIENT_GAPS
    for name in ("get_schema", "register_schema", "get_latest_version", "lookup_schema"):
        assert inspect.iscoroutinefunction(getattr(F.AsyncSchemaRegistryClient, name))
        assert list(inspect.signature(getattr(F.AsyncSchemaRegistryClient, name)).parameters) == \
            list(inspect.signature(getattr(CAsync, name)).parameters)
    for ours, theirs in ((f_avro.AsyncAvroSerializer, c_avro.AsyncAvroSerializer),
                         (f_avro.AsyncAvroDeserializer, c_avro.AsyncAvroDeserializer),
                         (f_json.AsyncJSONSerializer, c_json.AsyncJSONSerializer),
                         (f_json.AsyncJSONDeserializer, c_json.AsyncJSONDeserializer)):
        assert list(inspect.signature(ours.__init__).parameters) == list(inspect.signature(theirs.__init__).parameters)


# --- serializer builders ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["AvroSerializerBuilder", "AvroDeserializerBuilder", "JSONSerializerBuilder",
                                  "JSONDeserializerBuilder"])
def test_builders_have_confluent_kafkas_arguments_and_setters(name):
    module_of = {"Avro": (f_avro, c_avro), "JSON": (f_json, c_json)}
    ours_mod, theirs_mod = module_of["Avro" if name.startswith("Avro") else "JSON"]
    ours, theirs = getattr(ours_mod, name), getattr(theirs_mod, name)
    assert list(inspect.signature(ours.__init__).parameters) == list(inspect.signature(theirs.__init__).parameters)
    assert {n for n in dir(ours) if n.startswith("set_")} == {n for n in dir(theirs) if n.startswith("set_")}


def test_builders_make_the_serdes_and_own_the_client_they_make(registries):
    ours_sr, theirs_sr, _ = registries
    text = json.dumps(WIDE)
    ctx, cctx = _ctx(topic="built")
    inits = []
    serializer, left = f_avro.AvroSerializerBuilder().set_schema_registry_client(ours_sr).set_schema(text) \
        .set_serializer_init(inits.append).build({"linger.ms": 5}, False)
    assert left == {"linger.ms": 5} and inits == [serializer]
    theirs, _ = c_avro.AvroSerializerBuilder(schema_registry_client=theirs_sr, schema=text).build({}, False)
    rec = wide_records(1)[0]
    assert serializer(rec, ctx) == theirs(rec, cctx)
    owned_conf = {"url": "mock://built"}
    deserializer, _ = f_avro.AvroDeserializerBuilder(schema_registry_config=owned_conf).build({}, False)
    assert deserializer._owned_client is not None
    deserializer.close()
    with pytest.raises(ValueError, match="both set"):
        f_json.JSONSerializerBuilder(schema_registry_config=owned_conf, schema_registry_client=ours_sr,
                                     schema=PERSON).build({}, False)
    json_ser, _ = f_json.JSONSerializerBuilder(schema_registry_client=ours_sr, schema=PERSON).build({}, True)
    json_de, _ = f_json.JSONDeserializerBuilder(schema=PERSON).set_schema_registry_client(ours_sr).build({}, True)
    key_ctx = SerializationContext("built", MessageField.KEY)
    assert json_de(json_ser({"name": "n", "age": 1}, key_ctx), key_ctx) == {"name": "n", "age": 1}
