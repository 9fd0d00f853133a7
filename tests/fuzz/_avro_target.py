"""The Avro fuzz target: mutated values through kafkacodec.avro.decode.

The first byte picks a schema (and whether the values carry Confluent's
header); the rest is split at 0xFE bytes into one column of values.  A
finding: any exception but the codec's own error, an invalid Arrow array, or
a decoded column fastavro (the reference) does not read to the same values.
Rejecting what fastavro accepts is not a finding: the decoder is stricter on
purpose (boolean bytes, UTF-8, trailing bytes).
"""
import io
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "avro"))

from kafkacodec.errors import KafkaCodecError

try:
    import fastavro
    import pyarrow as pa
    import kafkacodec.avro as kavro
    from _schemas import WIDE, wide_records
except ImportError:     # the target needs pyarrow and fastavro
    fastavro = pa = kavro = None

SCHEMAS = [
    WIDE if fastavro else None,
    {"type": "record", "name": "U", "fields": [
        {"name": "u", "type": ["null", "long", "string", {"type": "array", "items": ["null", "double"]}]},
        {"name": "m", "type": {"type": "map", "values": {"type": "fixed", "name": "F2", "size": 2}}},
        {"name": "d", "type": {"type": "fixed", "name": "F5", "size": 5, "logicalType": "decimal",
                               "precision": 10, "scale": 3}},
        {"name": "e", "type": ["null", {"type": "enum", "name": "E", "symbols": ["A", "B"]}]},
        {"name": "r", "type": {"type": "array", "items": {"type": "record", "name": "Empty", "fields": []}}},
        {"name": "b", "type": "boolean"}, {"name": "f", "type": "float"}]},
]
SEP = b"\xfe"


def _plain(v):
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, dict):
        if not v:
            return []       # an empty map reads back from Arrow as an empty list of pairs
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        if v and all(isinstance(x, tuple) and len(x) == 2 for x in v):
            return {k: _plain(x) for k, x in v}
        return [_plain(x) for x in v]
    return v


def avro_diff(data):
    if kavro is None or not data:
        return
    schema = SCHEMAS[data[0] % len(SCHEMAS)]
    confluent = bool(data[0] & 0x80)
    values = data[1:].split(SEP)
    col = pa.array(values, pa.binary())
    try:
        out = kavro.decode(col, schema, confluent=confluent)
    except KafkaCodecError:
        return
    out.validate(full=True)
    parsed = fastavro.parse_schema(schema)
    try:
        got = _plain(out.to_pylist())
    except (OverflowError, ValueError):
        # a date or timestamp beyond Python's datetime: Arrow holds it, neither side can show it
        got = None
    for i, v in enumerate(values):
        if got is None:
            try:
                fastavro.schemaless_reader(io.BytesIO(v[5:] if confluent else v), parsed)
            except (OverflowError, ValueError):
                return
            continue
        try:
            ref = fastavro.schemaless_reader(io.BytesIO(v[5:] if confluent else v), parsed)
        except Exception as exc:
            raise AssertionError(f"values[{i}] decoded here, fastavro refuses it: {exc!r}") from None
        ref = _plain(ref)
        if got is not None and got[i] != ref:
            raise AssertionError(f"values[{i}]: {got[i]!r} != fastavro's {ref!r}")


def avro_seeds():
    if kavro is None:
        return [b"\x00"] * 5
    out = []
    parsed = fastavro.parse_schema(WIDE)
    for n in (1, 2, 3, 5, 8):
        vals = []
        for r in wide_records(n, seed=n):
            b = io.BytesIO()
            fastavro.schemaless_writer(b, parsed, r)
            vals.append(b.getvalue())
        out.append(b"\x00" + SEP.join(vals))
    u = fastavro.parse_schema(SCHEMAS[1])
    for rec in ({"u": None, "m": {}, "d": b"\x00" * 5, "e": None, "r": [], "b": True, "f": 1.5},
                {"u": [None, 2.5], "m": {"k": b"ab"}, "d": b"\xff" * 5, "e": "B", "r": [{}, {}], "b": False,
                 "f": -0.0},
                {"u": "text", "m": {"x": b"zz", "y": b"qq"}, "d": b"\x01\x02\x03\x04\x05", "e": "A", "r": [{}],
                 "b": True, "f": 3.0}):
        b = io.BytesIO()
        fastavro.schemaless_writer(b, u, rec)
        out.append(b"\x01" + b.getvalue())
        out.append(b"\x81" + b"\x00\x00\x00\x00\x07" + b.getvalue())
    return out
