"""kafkacodec.values: JSON values into Arrow (pyarrow's reader, rows checked one per record), JSON Schema
mapped to Arrow, the formats with Confluent's header and a Schema Registry (confluent-kafka's own
serializers and mock:// registry write what is read here, and the reverse)."""
import json
import random

import pyarrow as pa
import pytest

from kafkacodec.errors import CorruptDataError, EncodeError
from kafkacodec.values import (AvroFormat, JsonFormat, JsonSchemaError, as_format, decode_columns, decode_values,
                               encode_columns, encode_values, json_schema_to_arrow)

SCHEMA = pa.schema([("id", pa.int64()), ("name", pa.string()), ("score", pa.float64()),
                    ("tags", pa.list_(pa.string())), ("inner", pa.struct([("ok", pa.bool_())])),
                    ("day", pa.date32()), ("at", pa.timestamp("us", tz="UTC"))])


def rows(n, seed=1):
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        out.append({"id": rnd.randrange(-2**62, 2**62), "name": rnd.choice(["a", "é\"\\x", "", "\u2603"]),
                    "score": rnd.random(), "tags": [str(j) for j in range(rnd.randrange(3))],
                    "inner": {"ok": rnd.random() < 0.5}, "day": "2024-02-%02d" % rnd.randrange(1, 29),
                    "at": "2024-02-03T04:05:06.%06dZ" % rnd.randrange(10**6)})
    return out


def expected(docs):
    return pa.Table.from_pylist([json.loads(json.dumps(d)) for d in docs]).cast(
        pa.schema([f for f in SCHEMA])) if docs else None


def test_json_values_read_as_json_loads_reads_them():
    docs = rows(500)
    values = pa.array([json.dumps(d).encode() for d in docs], pa.binary())
    got = decode_values(values, JsonFormat(SCHEMA))
    want = pa.Table.from_pylist(docs, schema=pa.schema([f.with_type(pa.string()) if f.name in ("day", "at") else f
                                                          for f in SCHEMA]))
    assert got.type == pa.struct(list(SCHEMA))
    assert got.field("id").to_pylist() == want["id"].to_pylist()
    assert got.field("name").to_pylist() == want["name"].to_pylist()
    assert got.field("tags").to_pylist() == want["tags"].to_pylist()
    assert [d.isoformat() for d in got.field("day").to_pylist()] == want["day"].to_pylist()
    assert got.field("at").to_pylist()[0].microsecond == int(docs[0]["at"][20:26])


def test_nulls_missing_fields_extra_fields_whitespace_and_pretty_printing():
    values = pa.array([b'{"id": 1}', None, json.dumps({"id": 2, "zzz": [1, {"q": 2}]}, indent=2).encode(),
                       b'\r\n {"name":"x\\ny"}\n', b'{}'], pa.large_binary())
    got = decode_values(values, JsonFormat(SCHEMA)).to_pylist()
    assert [r and (r["id"], r["name"]) for r in got] == [(1, None), None, (2, None), (None, "x\ny"), (None, None)]
    assert len(decode_values(pa.array([], pa.binary()), JsonFormat(SCHEMA))) == 0
    assert decode_values(pa.array([None, None], pa.binary()), JsonFormat(SCHEMA)).null_count == 2


@pytest.mark.parametrize("bad, index, reason", [
    ([b'{"id":1}', b'{"id":2} {"id":3}', b' '], 1, "more than one JSON document"),  # a blank one after it
    ([b'{"day":"x"}', b'{"id":2}', b'[]'], 0, "date32"),              # the first bad, found before a later one
    ([b'{"id":1}', b'{"id":2}{"id":3}', b'{"id":4}'], 1, "more than one JSON document"),
    ([b'{"id":1', b'"name":"x"}'], 0, "not a JSON object"),          # one document across two values
    ([b'{"id":1}', b'{"name":"a\nb"}'], 1, "Invalid control character"),  # a raw line break in a string
    ([b'{"id":1}', b'{"id":"x"}'], 1, "changed from number to string"),
    ([b'{"id":1}', b'{"id":1.5}'], 1, "int64"),
    ([b'{"id":1}', b'[1]'], 1, "not a JSON object"),
    ([b'{"id":1}', b'null'], 1, "not a JSON object"),
    ([b'{"id":1}', b'{"name":"\xff"}'], 1, "UTF-8"),
    ([b'{"id":1}', b'{"day":"someday"}'], 1, "date32"),
    ([b'{"id":1}', b'{"id":1,}'], 1, ""),
])
def test_bad_values_name_their_record_and_never_shift_rows(bad, index, reason):
    offsets = pa.array(range(100, 100 + len(bad) + 1), pa.int64())
    values = pa.array([None] + bad, pa.binary())
    batch = pa.RecordBatch.from_arrays([offsets, values], ["offset", "value"])
    with pytest.raises(CorruptDataError, match=reason) as e:
        decode_columns(batch, value=JsonFormat(SCHEMA))
    assert e.value.path == f"values[{index + 1}]"
    assert f"Kafka offset {101 + index}" in str(e.value)


def test_confluent_json_header_checked():
    fmt = JsonFormat(pa.schema([("a", pa.int64())]), confluent=True)
    assert decode_values(pa.array([b"\x00\x00\x00\x00\x0a{\"a\":3}"]), fmt).to_pylist() == [{"a": 3}]
    with pytest.raises(CorruptDataError, match="magic byte 1") as e:
        decode_values(pa.array([b"\x00\x00\x00\x00\x0a{}", b"\x01\x00\x00\x00\x0a{}"]), fmt)
    assert e.value.path == "values[1]"
    with pytest.raises(CorruptDataError, match="shorter than Confluent's 5-byte header"):
        decode_values(pa.array([b"\x00\x00{}"]), fmt)


def test_json_encode_round_trips_with_header():
    data = pa.array([{"a": 1, "t": [1, 2], "s": {"x": "é"}}, None, {"a": None, "t": [], "s": None}])
    fmt = JsonFormat(data.type, schema_id=258)
    enc = encode_values(data, fmt)
    assert enc[0].as_py() == b'\x00\x00\x00\x01\x02{"a":1,"t":[1,2],"s":{"x":"\xc3\xa9"}}'
    assert enc[1].as_py() is None
    assert decode_values(enc, fmt).to_pylist() == data.to_pylist()
    with pytest.raises(EncodeError, match="struct column"):
        encode_values(pa.array([1]), fmt)
    with pytest.raises(EncodeError, match="values\\[0\\]|NaN|Out of range"):
        encode_values(pa.array([{"f": float("nan")}]), JsonFormat(pa.schema([("f", pa.float64())])))


def test_json_schema_to_arrow():
    doc = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "definitions": {
        "addr": {"type": "object", "properties": {"city": {"type": "string"}}}},
        "properties": {"id": {"type": "integer"}, "v": {"type": ["number", "null"]}, "ok": {"type": "boolean"},
                       "at": {"type": "string", "format": "date-time"}, "day": {"type": "string", "format": "date"},
                       "kind": {"enum": ["A", "B"]}, "addr": {"$ref": "#/definitions/addr"},
                       "xs": {"type": "array", "items": {"oneOf": [{"type": "null"}, {"type": "integer"}]}}}}
    s = json_schema_to_arrow(json.dumps(doc))
    assert [(f.name, str(f.type)) for f in s] == [
        ("id", "int64"), ("v", "double"), ("ok", "bool"), ("at", "timestamp[us, tz=UTC]"), ("day", "date32[day]"),
        ("kind", "string"), ("addr", "struct<city: string>"), ("xs", "list<item: int64>")]
    for bad, what in [({"type": "object", "additionalProperties": {"type": "string"}}, "map"),
                      ({"type": "object", "properties": {"x": {"type": ["string", "integer"]}}}, "#/properties/x"),
                      ({"type": "object", "properties": {"x": {"$ref": "#"}}}, "recursive"),
                      ({"type": "array", "items": {"type": "string"}}, "object"),
                      ({"type": "object", "properties": {"x": {"$ref": "other.json#/a"}}}, "local")]:
        with pytest.raises(JsonSchemaError, match=what):
            json_schema_to_arrow(bad)


def test_as_format_and_columns():
    assert isinstance(as_format('{"type": "record", "name": "R", "fields": []}'), AvroFormat)
    assert isinstance(as_format(SCHEMA), JsonFormat)
    assert as_format(None) is None
    with pytest.raises(TypeError):
        as_format(3)
    avro = AvroFormat({"type": "record", "name": "R", "fields": [{"name": "a", "type": "long"}]})
    table = pa.table({"key": pa.array([b"k"]), "value": pa.array([{"a": 7}])})
    enc = encode_columns(table, value=avro)
    assert enc["value"].to_pylist() == [b"\x0e"]
    batch = pa.RecordBatch.from_arrays([pa.array([5], pa.int64()), enc["value"].chunk(0)], ["offset", "value"])
    assert decode_columns(batch, value=avro).column(1).to_pylist() == [{"a": 7}]


# ------------------------------------------------------------------ confluent-kafka's serializers

sr = pytest.importorskip("confluent_kafka.schema_registry")


def _registry():
    return sr.SchemaRegistryClient.new_client({"url": "mock://values-tests"})


def test_confluent_avro_serializer_bytes_read_with_registry_across_schema_versions():
    from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    reg = _registry()
    v1 = {"type": "record", "name": "User", "fields": [{"name": "name", "type": "string"}]}
    v2 = {"type": "record", "name": "User", "fields": [{"name": "name", "type": "string"},
                                                        {"name": "age", "type": "int", "default": -1}]}
    ctx = SerializationContext("users", MessageField.VALUE)
    b1 = AvroSerializer(reg, json.dumps(v1))({"name": "ann"}, ctx)
    b2 = AvroSerializer(reg, json.dumps(v2))({"name": "bob", "age": 30}, ctx)
    assert b1[1:5] != b2[1:5]
    fmt = AvroFormat(v2, confluent=True, registry=reg)
    got = decode_values(pa.array([b1, None, b2]), fmt).to_pylist()
    assert got == [{"name": "ann", "age": -1}, None, {"name": "bob", "age": 30}]
    # and the reverse: kafkacodec's bytes with the registered id, read by confluent-kafka
    sid = reg.get_latest_version("users-value").schema_id
    enc = encode_values(pa.array([{"name": "cy", "age": 4}]), fmt.with_id(sid))
    assert AvroDeserializer(reg)(enc[0].as_py(), ctx) == {"name": "cy", "age": 4}
    # an id the registry does not know
    with pytest.raises(CorruptDataError, match="not known to the Schema Registry"):
        decode_values(pa.array([b"\x00\x00\x00\x30\x39\x00"]), fmt)


def test_confluent_json_serializer_bytes_read_and_ids_checked():
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    reg = _registry()
    doc = {"title": "Pt", "type": "object", "properties": {"x": {"type": "integer"}, "lbl": {"type": "string"}}}
    ctx = SerializationContext("pts", MessageField.VALUE)
    ser = JSONSerializer(json.dumps(doc), reg)
    values = pa.array([ser({"x": 1, "lbl": "a"}, ctx), ser({"x": 2}, ctx)])
    fmt = JsonFormat(doc, confluent=True, registry=reg)
    assert decode_values(values, fmt).to_pylist() == [{"x": 1, "lbl": "a"}, {"x": 2, "lbl": None}]
    sid = reg.get_latest_version("pts-value").schema_id
    enc = encode_values(pa.array([{"x": 5, "lbl": "z"}]), fmt.with_id(sid))
    assert JSONDeserializer(json.dumps(doc), schema_registry_client=reg)(enc[0].as_py(), ctx) == {"x": 5, "lbl": "z"}
    # an Avro schema's id in a JSON column
    avro_id = reg.register_schema("other-value", sr.Schema('{"type": "string"}', "AVRO"))
    with pytest.raises(CorruptDataError, match="AVRO schema, not JSON"):
        decode_values(pa.array([b"\x00" + avro_id.to_bytes(4, "big") + b"{}"]), fmt)


def test_formats_pickle_without_their_registry():
    import pickle
    fmt = AvroFormat('"long"', confluent=True, registry=_registry(), schema_id=3)
    back = pickle.loads(pickle.dumps(fmt))
    assert back.registry is None and back.schema_id == 3 and back.arrow_type == pa.int64()


def test_json_encode_writes_what_the_reader_reads_back():
    import datetime as dt
    import decimal
    t = pa.struct([("t", pa.timestamp("us", tz="UTC")), ("d", pa.date32()), ("n", pa.timestamp("ms")),
                   ("b", pa.binary()), ("x", pa.decimal128(10, 2))])
    a = pa.array([{"t": dt.datetime(2024, 1, 2, 3, 4, 5, 123456, tzinfo=dt.timezone.utc), "d": dt.date(2024, 1, 2),
                   "n": dt.datetime(2024, 1, 2, 3, 4, 5, 123000), "b": b"hi", "x": decimal.Decimal("1.25")}], t)
    fmt = JsonFormat(t)
    enc = fmt.encode(a)
    assert enc[0].as_py() == b'{"t":"2024-01-02T03:04:05.123456Z","d":"2024-01-02","n":"2024-01-02T03:04:05.123",' \
                             b'"b":"hi","x":"1.25"}'
    assert fmt.decode(enc).to_pylist() == a.to_pylist()
    with pytest.raises(JsonSchemaError, match="time of day"):
        JsonFormat(pa.schema([("tm", pa.time64("us"))]))


def test_avro_bad_value_names_kafka_offset_through_the_format():
    fmt = AvroFormat({"type": "record", "name": "R", "fields": [{"name": "s", "type": "string"}]})
    with pytest.raises(CorruptDataError, match="Kafka offset 41") as e:
        fmt.decode(pa.array([b"\x02a", b"\x09"]), offsets=pa.chunked_array([pa.array([40, 41], pa.int64())]))
    assert e.value.path.startswith("values[1]")
    assert fmt.with_id(5).confluent and fmt.with_id(5).encode(pa.array([{"s": "a"}]))[0].as_py() == b"\0\0\0\0\5\2a"


def test_mutated_values_never_give_a_wrong_row():
    """Random byte edits of JSON values: the column reads exactly as each value alone reads, or fails
    naming the first value that alone fails."""
    rnd = random.Random(5)
    small = pa.schema([("id", pa.int64()), ("name", pa.string()), ("tags", pa.list_(pa.string()))])
    fmt = JsonFormat(small)
    pieces = [b"{", b"}", b"\n", b" ", b'"', b",", b":", b"[", b"]", b'{"id":1}', b"\\", b"\r\n"]

    def alone(v):
        try:
            return True, decode_values(pa.array([v], pa.binary()), fmt).to_pylist()[0]
        except CorruptDataError:
            return False, None

    for _ in range(150):
        values = [json.dumps({"id": rnd.randrange(100), "name": "n\n" * rnd.randrange(2),
                              "tags": ["x"] * rnd.randrange(3)}, indent=rnd.choice([None, 1])).encode()
                  for _ in range(rnd.randrange(1, 6))]
        for _ in range(rnd.randrange(3)):
            i = rnd.randrange(len(values))
            v = values[i]
            at = rnd.randrange(len(v) + 1)
            values[i] = v[:at] + rnd.choice(pieces) + v[at + rnd.randrange(2):]
        singles = [alone(v) for v in values]
        try:
            got = decode_values(pa.array(values, pa.binary()), fmt).to_pylist()
        except CorruptDataError as e:
            first_bad = next(i for i, (ok, _) in enumerate(singles) if not ok)
            assert e.path == f"values[{first_bad}]", (values, e)
        else:
            assert all(ok for ok, _ in singles), values
            assert got == [row for _, row in singles], values
