"""kafkacodec.avro against fastavro (the reference) both ways, the specification's
resolution rules, Confluent's wire format, and corrupt input."""
import datetime
import decimal
import io
import math
import struct
import sys
import os
import uuid

import pytest

pa = pytest.importorskip("pyarrow")
fastavro = pytest.importorskip("fastavro")

sys.path.insert(0, os.path.dirname(__file__))
import kafkacodec.avro as kavro  # noqa: E402
from kafkacodec.avro import AvroSchemaError  # noqa: E402
from kafkacodec.errors import CorruptDataError, EncodeError  # noqa: E402
from _schemas import WIDE, wide_records  # noqa: E402


def write(schema, records, reader=None):
    parsed = fastavro.parse_schema(schema)
    out = []
    for r in records:
        b = io.BytesIO()
        fastavro.schemaless_writer(b, parsed, r)
        out.append(b.getvalue())
    return out


def read(schema, values, reader=None):
    w = fastavro.parse_schema(schema)
    r = fastavro.parse_schema(reader) if reader is not None else None
    return [fastavro.schemaless_reader(io.BytesIO(v), w, r) for v in values]


def plain(v):
    """Arrow's Python form -> fastavro's (maps as dicts, NaN comparable)."""
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        if v and all(isinstance(x, tuple) and len(x) == 2 for x in v):
            return {k: plain(x) for k, x in v}
        return [plain(x) for x in v]
    return v


def ref_plain(v):
    if isinstance(v, dict) and not v:
        return []
    if isinstance(v, dict):
        return {k: ref_plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [ref_plain(x) for x in v]
    return plain(v)


def check_both_ways(schema, records):
    values = write(schema, records)
    col = kavro.decode(pa.array(values, pa.binary()), schema)
    col.validate(full=True)
    got = [ref_plain(plain(x)) for x in col.to_pylist()]
    assert got == [ref_plain(x) for x in read(schema, values)]
    assert kavro.encode(col, schema).to_pylist() == values
    return col


def rec(*fields, name="R"):
    return {"type": "record", "name": name, "fields": [{"name": n, "type": t, **extra} for n, t, *e in fields
                                                      for extra in [e[0] if e else {}]]}


def test_wide_record_both_ways():
    col = check_both_ways(WIDE, wide_records(500))
    assert isinstance(col, pa.StructArray)
    t = col.type
    assert t.field("status").type == pa.dictionary(pa.int32(), pa.string())
    assert t.field("price").type == pa.decimal128(12, 2)
    assert t.field("day").type == pa.date32()
    assert t.field("ts").type == pa.timestamp("us", "UTC")
    assert t.field("digest").type == pa.binary(16)
    assert t.field("note").nullable and not t.field("id").nullable


@pytest.mark.parametrize("schema, records", [
    ("null", [None, None]),
    ("boolean", [True, False]),
    ("int", [0, -1, 2**31 - 1, -2**31]),
    ("long", [0, -1, 2**63 - 1, -2**63, 300]),
    ("float", [0.0, -1.5, 3.4e38, float("inf")]),
    ("double", [0.0, 1e300, -2.5, float("-inf")]),
    ("bytes", [b"", b"\x00\xff" * 100]),
    ("string", ["", "h\u00e9llo \U0001f600"]),
    ({"type": "fixed", "name": "F", "size": 3}, [b"abc", b"\x00\x00\x00"]),
    ({"type": "enum", "name": "E", "symbols": ["A", "B", "C"]}, ["C", "A"]),
    ({"type": "array", "items": "long"}, [[], [1, 2, 3], list(range(300))]),
    ({"type": "map", "values": "string"}, [{}, {"a": "x", "b": "y"}]),
    (["null", "string"], [None, "x"]),
    (["string", "null"], [None, "x"]),
    (["null", "long", "string"], [None, 5, "five"]),
    (["long"], [7]),
    (rec(("a", "int"), ("b", rec(("c", ["null", "double"]), name="Inner"))), [{"a": 1, "b": {"c": None}},
                                                               {"a": 2, "b": {"c": 2.5}}]),
    ({"type": "array", "items": {"type": "map", "values": ["null", {"type": "array", "items": "int"}]}},
     [[{"k": None, "j": [1, 2]}, {}], []]),
])
def test_every_type_both_ways(schema, records):
    check_both_ways(schema, records)


def test_logical_types():
    schema = rec(
        ("dec_b", {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 4}),
        ("dec_f", {"type": "fixed", "name": "D", "size": 9, "logicalType": "decimal", "precision": 20, "scale": 2}),
        ("dec_big", {"type": "bytes", "logicalType": "decimal", "precision": 50, "scale": 0}),
        ("u", {"type": "string", "logicalType": "uuid"}),
        ("d", {"type": "int", "logicalType": "date"}),
        ("tm", {"type": "int", "logicalType": "time-millis"}),
        ("tu", {"type": "long", "logicalType": "time-micros"}),
        ("tn", {"type": "long", "logicalType": "time-nanos"}),
        ("tsm", {"type": "long", "logicalType": "timestamp-millis"}),
        ("tsu", {"type": "long", "logicalType": "timestamp-micros"}),
        ("tsn", {"type": "long", "logicalType": "timestamp-nanos"}),
        ("ltm", {"type": "long", "logicalType": "local-timestamp-millis"}),
        ("ltu", {"type": "long", "logicalType": "local-timestamp-micros"}),
        ("dur", {"type": "fixed", "name": "Dur", "size": 12, "logicalType": "duration"}),
    )
    u = uuid.UUID("12345678-1234-5678-1234-567812345678")
    utc = datetime.timezone.utc
    r = {"dec_b": decimal.Decimal("-12345.6789"), "dec_f": decimal.Decimal("99.01"),
         "dec_big": decimal.Decimal(-10**45), "u": str(u), "d": datetime.date(2024, 2, 29),
         "tm": datetime.time(13, 14, 15, 16000), "tu": datetime.time(1, 2, 3, 4), "tn": 3723000000005,
         "tsm": datetime.datetime(2024, 1, 2, 3, 4, 5, 6000, tzinfo=utc),
         "tsu": datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=utc),
         "tsn": 1704153600 * 10**9,
         "ltm": datetime.datetime(2024, 1, 2, 3, 4, 5, 6000), "ltu": datetime.datetime(2000, 1, 1, 0, 0, 0, 1),
         "dur": struct.pack("<III", 2, 3, 4005)}
    values = write(schema, [r])
    col = kavro.decode(pa.array(values, pa.binary()), schema)
    col.validate(full=True)
    t = col.type
    assert t.field("dec_b").type == pa.decimal128(20, 4)
    assert t.field("dec_big").type == pa.decimal256(50, 0)
    assert t.field("tm").type == pa.time32("ms") and t.field("tu").type == pa.time64("us")
    assert t.field("tsn").type == pa.timestamp("ns", "UTC") and t.field("ltu").type == pa.timestamp("us")
    assert t.field("dur").type == pa.month_day_nano_interval()
    got = col.to_pylist()[0]
    for k in ("dec_b", "dec_f", "dec_big", "u", "d", "tm", "tu", "tsm", "tsu", "ltm", "ltu"):
        assert got[k] == r[k], k
    assert col.field("tsn").cast(pa.int64()).to_pylist() == [1704153600 * 10**9]
    assert t.field("tn").type == pa.time64("ns") and col.field("tn").cast(pa.int64()).to_pylist() == [3723000000005]
    dur = got["dur"]
    assert (dur.months, dur.days, dur.nanoseconds) == (2, 3, 4005 * 10**6)
    assert kavro.encode(col, schema).to_pylist() == values


def test_nullable_and_dense_union_types():
    t = kavro.AvroDecoder(rec(("a", ["null", "int"]), ("b", ["null", "int", "string"]))).arrow_type
    assert t.field("a").type == pa.int32() and t.field("a").nullable
    b = t.field("b").type
    assert pa.types.is_union(b) and b.mode == "dense" and [b.field(i).type for i in range(3)] == [
        pa.null(), pa.int32(), pa.string()]


def test_null_value_is_a_null_row_and_slices():
    schema = rec(("a", "long"), ("s", "string"))
    values = write(schema, [{"a": i, "s": str(i)} for i in range(10)])
    col = pa.array(values[:4] + [None] + values[4:], pa.binary()).slice(2, 6)
    out = kavro.decode(col, schema)
    assert out.to_pylist() == [{"a": 2, "s": "2"}, {"a": 3, "s": "3"}, None, {"a": 4, "s": "4"},
                               {"a": 5, "s": "5"}, {"a": 6, "s": "6"}]
    assert kavro.decode(pa.array(values, pa.large_binary()), schema).field("a").to_pylist() == list(range(10))
    assert kavro.decode(pa.chunked_array([values[:3], values[3:]], pa.binary()), schema).field("a")[9].as_py() == 9


def test_negative_block_counts_with_sizes():
    # arrays and maps may be written in blocks of -count followed by the block's byte size
    schema = {"type": "array", "items": "int"}
    value = b"\x03\x04\x02\x04" + b"\x01\x02\x06" + b"\x00"   # block(-2, 4 bytes: 1, 2), block(1: 3), end
    assert kavro.decode(pa.array([value], pa.binary()), schema).to_pylist() == [[1, 2, 3]]
    assert read(schema, [value]) == [[1, 2, 3]]


# --- Confluent's wire format -------------------------------------------------------------------------

def test_confluent_header_and_several_schema_ids():
    v1 = rec(("id", "int"), ("name", "string"))
    v2 = rec(("id", "long"), ("name", "string"), ("email", ["null", "string"], {"default": None}))
    reader = v2
    a = [b"\x00" + struct.pack(">I", 11) + v for v in write(v1, [{"id": 1, "name": "a"}])]
    b = [b"\x00" + struct.pack(">I", 12) + v for v in write(v2, [{"id": 2, "name": "b", "email": "b@x"}])]
    col = pa.array([a[0], b[0], a[0]], pa.binary())
    out = kavro.decode(col, reader, confluent=True, writer_schemas={11: v1, 12: v2})
    assert out.to_pylist() == [{"id": 1, "name": "a", "email": None}, {"id": 2, "name": "b", "email": "b@x"},
                               {"id": 1, "name": "a", "email": None}]
    with pytest.raises(CorruptDataError, match=r"schema id not among .*\(id 12\)") as e:
        kavro.decode(col, reader, confluent=True, writer_schemas={11: v1})
    assert e.value.path == "values[1]"
    with pytest.raises(CorruptDataError, match="magic byte"):
        kavro.decode(pa.array([b"\x01\x00\x00\x00\x0b\x02"], pa.binary()), v1, confluent=True)
    # without writer schemas every id is read with the reader schema
    assert kavro.decode(pa.array(b), reader, confluent=True).to_pylist()[0]["email"] == "b@x"


def test_encode_with_schema_id_reads_back():
    schema = rec(("id", "int"), ("tags", {"type": "array", "items": "string"}))
    data = pa.table({"id": pa.array([1, 2], pa.int32()), "tags": [["x"], []]})
    out = kavro.encode(data, schema, schema_id=7)
    for v in out.to_pylist():
        assert v[:5] == b"\x00\x00\x00\x00\x07"
    assert read(schema, [v[5:] for v in out.to_pylist()]) == [{"id": 1, "tags": ["x"]}, {"id": 2, "tags": []}]
    assert kavro.decode(out, schema, confluent=True).to_pylist() == data.to_pylist()


def test_encode_converts_compatible_columns():
    schema = rec(("n", "long"), ("e", {"type": "enum", "name": "E", "symbols": ["A", "B"]}),
                 ("t", {"type": "long", "logicalType": "timestamp-millis"}), ("s", "string"))
    data = pa.table({"n": pa.array([1, 2], pa.int16()), "e": ["B", "A"],
                     "t": pa.array([1000, 2000], pa.timestamp("ms")), "s": pa.array(["x", "y"], pa.large_string())})
    got = read(schema, kavro.encode(data, schema).to_pylist())
    assert [g["n"] for g in got] == [1, 2] and [g["e"] for g in got] == ["B", "A"]
    assert [g["s"] for g in got] == ["x", "y"]


def test_encode_errors_name_the_field():
    schema = rec(("a", "long"), ("e", {"type": "enum", "name": "E", "symbols": ["A"]}))
    with pytest.raises(EncodeError) as e:
        kavro.encode(pa.table({"a": [1, None], "e": ["A", "A"]}), schema)
    assert e.value.path == "[1].a"
    with pytest.raises(EncodeError) as e:
        kavro.encode(pa.table({"a": [1, 2], "e": ["A", "Z"]}), schema)
    assert e.value.path == "[1].e"
    with pytest.raises(EncodeError, match="column missing"):
        kavro.encode(pa.table({"a": [1]}), schema)


# --- resolution (Avro specification, "Schema Resolution") ----------------------------------------------

def resolved(writer, reader, records):
    values = write(writer, records)
    got = kavro.decode(pa.array(values, pa.binary()), reader, writer_schemas=writer)
    got.validate(full=True)
    assert [ref_plain(plain(x)) for x in got.to_pylist()] == [ref_plain(x) for x in read(writer, values, reader)]
    return got.to_pylist()


@pytest.mark.parametrize("w, r, v", [
    ("int", "long", 5), ("int", "float", 7), ("int", "double", -3), ("long", "float", 2**40),
    ("long", "double", -2**50), ("float", "double", 1.5), ("string", "bytes", "h\u00e9"), ("bytes", "string", b"ok"),
])
def test_promotions(w, r, v):
    assert resolved(rec(("x", w)), rec(("x", r)), [{"x": v}])[0]["x"] == read(rec(("x", w)), write(
        rec(("x", w)), [{"x": v}]), rec(("x", r)))[0]["x"]


def test_fields_added_removed_renamed():
    writer = {"type": "record", "name": "R", "namespace": "old", "fields": [
        {"name": "keep", "type": "int"},
        {"name": "gone", "type": {"type": "array", "items": {"type": "map", "values": ["null", "string"]}}},
        {"name": "gone2", "type": {"type": "record", "name": "G", "fields": [
            {"name": "f", "type": {"type": "fixed", "name": "F4", "size": 4}},
            {"name": "e", "type": {"type": "enum", "name": "GE", "symbols": ["X"]}}]}},
        {"name": "old_name", "type": "string"},
    ]}
    reader = {"type": "record", "name": "R2", "aliases": ["old.R"], "fields": [
        {"name": "new_name", "type": "string", "aliases": ["old_name"]},
        {"name": "keep", "type": "long"},
        {"name": "added", "type": "string", "default": "dflt"},
        {"name": "added_rec", "type": {"type": "record", "name": "A", "fields": [
            {"name": "p", "type": "int"}, {"name": "q", "type": {"type": "array", "items": "double"}}]},
         "default": {"p": 4, "q": [1.5]}},
        {"name": "added_union", "type": ["null", "int"], "default": None},
        {"name": "added_map", "type": {"type": "map", "values": "long"}, "default": {"z": 26}},
        {"name": "added_bytes", "type": "bytes", "default": "\u00ff\u0001"},
        {"name": "added_enum", "type": {"type": "enum", "name": "AE", "symbols": ["P", "Q"]}, "default": "Q"},
    ]}
    records = [{"keep": 3, "gone": [{"a": None, "b": "x"}], "gone2": {"f": b"abcd", "e": "X"}, "old_name": "n"}]
    values = write(writer, records)
    got = kavro.decode(pa.array(values, pa.binary()), reader, writer_schemas=writer).to_pylist()[0]
    ref = read(writer, values, reader)[0]
    # fastavro hands a bytes default back as the JSON text; the specification maps code points 0-255 to bytes
    assert ref.pop("added_bytes") == "\u00ff\u0001"
    assert {k: ref_plain(plain(v)) for k, v in got.items() if k != "added_bytes"} == ref_plain(ref)
    assert got == {"new_name": "n", "keep": 3, "added": "dflt", "added_rec": {"p": 4, "q": [1.5]},
                   "added_union": None, "added_map": [("z", 26)], "added_bytes": b"\xff\x01", "added_enum": "Q"}


def test_missing_field_without_default_is_refused():
    with pytest.raises(AvroSchemaError, match="no default"):
        kavro.AvroDecoder(rec(("a", "int"), ("b", "int")), rec(("a", "int")))


def test_enum_default_and_unknown_symbol():
    w = {"type": "enum", "name": "E", "symbols": ["A", "B", "NEW"]}
    r_dflt = {"type": "enum", "name": "E", "symbols": ["B", "A", "OTHER"], "default": "OTHER"}
    r_none = {"type": "enum", "name": "E", "symbols": ["A", "B"]}
    assert resolved(w, r_dflt, ["A", "NEW", "B"]) == ["A", "OTHER", "B"]
    values = write(w, ["A", "NEW"])
    assert kavro.decode(pa.array(values[:1]), r_none, writer_schemas=w).to_pylist() == ["A"]
    with pytest.raises(CorruptDataError, match="enum symbol") as e:
        kavro.decode(pa.array(values), r_none, writer_schemas=w)
    assert e.value.path == "values[1]"


def test_unions_resolved():
    # writer union -> reader non-union: a branch the reader cannot read fails only when it occurs
    w = rec(("u", ["null", "int", "string"]))
    r = rec(("u", ["null", "long"]))
    values = write(w, [{"u": 1}, {"u": None}, {"u": "s"}])
    dec = kavro.AvroDecoder(r, w)
    assert dec.decode(pa.array(values[:2])).to_pylist() == [{"u": 1}, {"u": None}]
    with pytest.raises(CorruptDataError, match="union branch") as e:
        dec.decode(pa.array(values))
    assert e.value.path == "values[2].u"
    # writer non-union -> reader union, and union -> union with promotion into a dense union
    assert resolved(rec(("u", "int")), rec(("u", ["null", "string", "long"])), [{"u": 9}])[0]["u"] == 9
    assert resolved(rec(("u", ["int", "string"])), rec(("u", ["string", "double"])),
                    [{"u": 2}, {"u": "x"}]) == [{"u": 2.0}, {"u": "x"}]
    with pytest.raises(AvroSchemaError):
        kavro.AvroDecoder(rec(("u", ["null", "boolean"])), rec(("u", "string")))


def test_record_name_mismatch_is_refused():
    a = {"type": "record", "name": "A", "fields": []}
    b = {"type": "record", "name": "B", "fields": []}
    with pytest.raises(AvroSchemaError):
        kavro.AvroDecoder(b, a)


def test_schema_errors():
    with pytest.raises(AvroSchemaError, match="recursive"):
        kavro.AvroDecoder({"type": "record", "name": "L", "fields": [{"name": "next", "type": ["null", "L"]}]})
    with pytest.raises(AvroSchemaError, match="unknown"):
        kavro.AvroDecoder(rec(("a", "Nope")))
    deep = "int"
    for _ in range(100):
        deep = {"type": "array", "items": deep}
    with pytest.raises(AvroSchemaError, match="deeper"):
        kavro.AvroDecoder(deep)


# --- corrupt input --------------------------------------------------------------------------------------

def test_every_truncated_prefix_is_an_error():
    values = write(WIDE, wide_records(3))
    for v in values:
        for n in range(len(v)):
            with pytest.raises(CorruptDataError) as e:
                kavro.decode(pa.array([v[:n]], pa.binary()), WIDE)
            assert e.value.path.startswith("values[0]")


@pytest.mark.parametrize("schema, value, message, path", [
    ("boolean", b"\x02", "boolean", "values[0]"),
    (rec(("a", "int"), ("b", ["null", "int"])), b"\x02\x06", "branch", "values[0].b"),
    (rec(("s", "string")), b"\x04\xff\xfe", "UTF-8", "values[0].s"),
    (rec(("s", "bytes")), b"\x01", "negative", "values[0].s"),
    (rec(("s", "bytes")), b"\xfe\xff\xff\xff\x0f", "ends inside", "values[0].s"),
    ({"type": "array", "items": "long"}, b"\xfe\xff\xff\xff\xff\xff\xff\xff\x7f", "count", "values[0]"),
    ({"type": "array", "items": "null"}, b"\xfe\xff\xff\xff\xff\xff\xff\xff\x7f", "count", "values[0]"),
    ({"type": "map", "values": "null"}, b"\x02\x02", "ends inside", "values[0]"),
    ("int", b"\x80\x80\x80\x80\x80\x01", "too long", "values[0]"),
    ("int", b"\xfe\xff\xff\xff\x1f", "too long", "values[0]"),
    ("int", b"\x80\x80\x80\x80\x80\x00", "too long", "values[0]"),
    ({"type": "enum", "name": "E", "symbols": ["A"]}, b"\x80\x80\x80\x80\x80\x00", "too long", "values[0]"),
    (rec(("a", "int")), b"\x02\x00", "left over", "values[0]"),
    ({"type": "enum", "name": "E", "symbols": ["A"]}, b"\x02", "enum index", "values[0]"),
    ({"type": "bytes", "logicalType": "decimal", "precision": 3, "scale": 0}, b"\x04\x03\xe8", "precision",
     "values[0]"),
])
def test_corrupt_values(schema, value, message, path):
    good = write(schema, [None if schema == "null" else read(schema, [v])[0] for v in []])
    with pytest.raises(CorruptDataError, match=message) as e:
        kavro.decode(pa.array(good + [value], pa.binary()), schema)
    assert e.value.path == path


def test_error_names_the_kafka_offset():
    schema = rec(("a", "long"))
    values = write(schema, [{"a": 1}, {"a": 2}]) + [b"\x80"]
    table = pa.table({"offset": pa.array([100, 101, 102], pa.int64()), "value": pa.array(values, pa.binary())})
    with pytest.raises(CorruptDataError, match="Kafka offset 102") as e:
        kavro.decode(table, schema)
    assert e.value.path == "values[2].a" and e.value.offset == 0


def test_decode_releases_the_gil():
    import threading
    import time
    schema = WIDE
    values = pa.array(write(schema, wide_records(2000)) * 50, pa.binary())
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.0005)
    th = threading.Thread(target=tick)
    th.start()
    try:
        t0 = time.perf_counter()
        kavro.decode(values, schema)
        t1 = time.perf_counter()
    finally:
        stop.set()
        th.join()
    during = [t for t in ticks if t0 < t < t1]
    assert t1 - t0 < 0.02 or len(during) >= 3


def test_record_batches_values_directly_with_offsets():
    import kafkacodec.arrow as karrow
    schema = rec(("a", "long"), ("s", ["null", "string"]))
    values = write(schema, [{"a": i, "s": None if i % 2 else str(i)} for i in range(5)])
    batches = karrow.encode(pa.table({"value": pa.array(values + [b"\x02\x04"], pa.binary())}), base_offset=40)
    rb = karrow.decode(batches)
    got = kavro.decode(rb.slice(0, 5), schema)
    assert got.to_pylist() == [{"a": i, "s": None if i % 2 else str(i)} for i in range(5)]
    with pytest.raises(CorruptDataError, match="Kafka offset 45") as e:
        kavro.decode(rb, schema)
    assert e.value.path == "values[5].s"


def test_union_branch_of_the_same_type_first():
    # Avro's Java implementation takes the reader's branch of the writer's own type before a promotion
    schema = rec(("u", ["string", "bytes"]))
    values = write(schema, [{"u": b"\x80"}, {"u": "s"}])
    got = kavro.decode(pa.array(values), schema, writer_schemas=schema).field("u")
    assert got.type.field(0).type == pa.string() and got.to_pylist() == [b"\x80", "s"]
    assert kavro.decode(pa.array(write(rec(("u", "int")), [{"u": 3}])), rec(("u", ["double", "int"])),
                        writer_schemas=rec(("u", "int"))).field("u").to_pylist() == [3]


def test_encode_sliced_columns():
    schema = rec(("n", ["null", "long"]), ("b", "boolean"), ("l", {"type": "array", "items": ["null", "string"]}),
                 ("m", {"type": "map", "values": "int"}), ("u", ["null", "int", "string"]),
                 ("d", {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}),
                 ("r", ["null", rec(("x", "int"), name="X")]))
    import decimal
    records = [{"n": None if i % 3 == 0 else i, "b": i % 2 == 0, "l": [None, str(i)][: i % 3],
                "m": {str(j): j for j in range(i % 4)}, "u": [None, i, str(i)][i % 3],
                "d": decimal.Decimal(i * 101 - 500).scaleb(-2), "r": None if i % 4 == 1 else {"x": -i}}
               for i in range(40)]
    values = write(schema, records)
    col = kavro.decode(pa.array(values, pa.binary()), schema)
    for start, stop in ((0, 40), (1, 39), (7, 20), (13, 14), (5, 5)):
        assert kavro.encode(col.slice(start, stop - start), schema).to_pylist() == values[start:stop]


def test_schema_ids_are_unsigned():
    schema = rec(("a", "int"))
    value = b"\x00\xff\xff\xff\xfe" + write(schema, [{"a": 5}])[0]
    assert kavro.decode(pa.array([value]), schema, confluent=True,
                        writer_schemas={0xFFFFFFFE: schema}).to_pylist() == [{"a": 5}]
    assert kavro.encode(pa.table({"a": pa.array([5], pa.int32())}), schema, schema_id=0xFFFFFFFE)[0].as_py() == value


def test_error_path_names_the_item():
    schema = rec(("xs", {"type": "array", "items": rec(("m", {"type": "map", "values": "boolean"}), name="I")}))
    good = write(schema, [{"xs": [{"m": {}}, {"m": {"a": True, "b": False}}]}])[0]
    bad = good[:-3] + b"\x07" + good[-2:]          # the second map's second value: boolean byte 7
    with pytest.raises(CorruptDataError, match="boolean") as e:
        kavro.decode(pa.array([good, bad]), schema)
    assert e.value.path == "values[1].xs[1].m[1]"


def test_item_count_bounded_by_item_size():
    # 100 doubles need 800 bytes: a block claiming them in 20 bytes fails before reading any
    value = b"\xc8\x01" + b"\x00" * 18
    with pytest.raises(CorruptDataError, match=r"count larger .*\(100\)"):
        kavro.decode(pa.array([value]), {"type": "array", "items": "double"})
