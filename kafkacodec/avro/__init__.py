"""Avro record values as Arrow columns, and back.

``decode(values, schema)`` turns a column of Avro-encoded values (a pyarrow
binary array, a chunked array, or a table / record batch with a ``value``
column such as kafkacodec.arrow produces) into one Arrow array of the
schema's type -- a ``StructArray`` for a record -- in C, with the GIL
released and no Python object per record.  ``encode`` is the reverse.

Arrow forms of the Avro types:

=====================  ==========================================================
null                   null
boolean / int / long   bool / int32 / int64
float / double         float32 / float64
bytes / string         binary / string (UTF-8 checked)
fixed                  fixed_size_binary(size)
enum                   dictionary<int32, string> (the symbols)
record                 struct (a field is nullable when its type is a union with null)
array / map            list / map<string, ...>
union [null, T]        T's column, nullable (either order)
union [T]              T
other unions           dense_union, one child per branch, type codes = branch index
decimal                decimal128 (precision <= 38) or decimal256
uuid                   string (on string), fixed_size_binary(16) (on fixed)
date / time-millis     date32 / time32[ms];  time-micros, time-nanos: time64[us], time64[ns]
timestamp-*            timestamp[ms|us|ns, tz=UTC];  local-timestamp-*: without tz
duration               month_day_nano_interval (millis -> nanos)
=====================  ==========================================================

A null value (a Kafka tombstone) becomes a null row.  Recursive schemas have
no Arrow form and are refused.  Writer -> reader resolution follows the
Avro specification (promotions, defaults, skipped fields, enum defaults,
aliases); a writer's union branch goes to the reader's branch of the same
type first, then to the first it promotes to (as Avro's Java implementation).  Confluent's wire format (byte 0, a big-endian 4-byte schema id)
is read with ``confluent=True``; ``writer_schemas`` maps schema ids to the
schemas the values were written with (a topic whose schema evolved).
"""
from __future__ import annotations

import functools
import json
from typing import Any, Mapping

from kafkacodec.avro._schema import (AvroSchemaError, PRIMITIVES, Plan, T, arrow_type, nullable_inner,
                                     parse_schema, union_mode, O_ARRAY, O_ENUM, O_FIXED, O_MAP, O_RECORD,
                                     O_UNION)

__all__ = ["AvroDecoder", "AvroSchemaError", "decode", "encode", "parse_schema"]

Schema = Any    # JSON text or the parsed dict / list / str


def _key(schema: Schema) -> str:
    return schema if isinstance(schema, str) else json.dumps(schema, sort_keys=True)


class AvroDecoder:
    """A reader schema (and the writer schemas it reads) compiled once."""

    def __init__(self, schema: Schema, writer_schemas: Mapping[int, Schema] | Schema | None = None):
        from kafkacodec.avro._avro import Decoder
        reader = parse_schema(schema)
        self.schema = reader
        self.arrow_type = arrow_type(reader)
        plan = Plan(reader)
        roots: list[tuple[int, int]] = []
        default_root = -1
        if isinstance(writer_schemas, Mapping) and not ("type" in writer_schemas):
            for sid, ws in writer_schemas.items():
                roots.append((int(sid), plan.add_writer(parse_schema(ws))))
        elif writer_schemas is not None:
            default_root = plan.add_writer(parse_schema(writer_schemas))
        else:
            default_root = plan.add_writer(reader)
        self._dec = Decoder(plan, roots, default_root, self.arrow_type)

    def decode(self, values: Any, *, confluent: bool = False) -> Any:
        arr, offsets = _values(values)
        return self._dec.decode(arr, confluent, offsets)


@functools.lru_cache(maxsize=64)
def _decoder(schema_key: str, writers_key: str | None) -> AvroDecoder:
    writers = None if writers_key is None else json.loads(writers_key)
    if isinstance(writers, dict) and "type" not in writers:
        writers = {int(k): v for k, v in writers.items()}
    return AvroDecoder(json.loads(schema_key) if schema_key[:1] in "{[\"" else schema_key, writers)


def decode(values: Any, schema: Schema, *, confluent: bool = False,
           writer_schemas: Mapping[int, Schema] | Schema | None = None) -> Any:
    """Avro values -> an Arrow array of the reader ``schema``'s type (a StructArray for a record).

    ``writer_schemas``: the schema the values were written with, or with
    ``confluent=True`` a mapping schema id -> writer schema (ids not in it fail;
    without it every id is read with ``schema``).  Compiled plans are cached.
    """
    wk = None
    if writer_schemas is not None:
        wk = json.dumps({str(k): v for k, v in writer_schemas.items()} if isinstance(writer_schemas, Mapping)
                        and "type" not in writer_schemas else writer_schemas, sort_keys=True)
    return _decoder(_key(schema) if not isinstance(schema, str) or schema[:1] in "{[\"" else json.dumps(schema),
                    wk).decode(values, confluent=confluent)


def _values(values: Any) -> tuple[Any, Any]:
    import pyarrow as pa
    offsets = None
    if isinstance(values, (pa.Table, pa.RecordBatch)):
        if "offset" in values.schema.names:
            offsets = values.column("offset")
        values = values.column("value")
    if isinstance(offsets, pa.ChunkedArray):
        offsets = offsets.combine_chunks()
    return binary_column(values, "Avro values"), offsets


def binary_column(values: Any, what: str) -> Any:
    """One binary-like Arrow array (chunks combined; string types kept) from an array, a chunked
    array or a sequence of bytes; a TypeError naming ``what`` for any other column type."""
    import pyarrow as pa
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    if not isinstance(values, pa.Array):
        values = pa.array(values, pa.binary())
    t = values.type
    if not (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_string(t)
            or pa.types.is_large_string(t)):
        raise TypeError(f"{what} must be a binary column, not {t}")
    return values


# --- encode ---------------------------------------------------------------------------------------

EN_OPT, EN_DEC, EN_DUR, EN_TAG = 20, 21, 22, 23


class _EncPlan:
    def __init__(self) -> None:
        self.nodes: list[tuple[Any, ...]] = []
        self.kids: list[int] = []
        self.tables: list[int] = []
        self.paths: list[str] = []
        self.keep: list[Any] = []

    def node(self, code: int, arr: Any, path: str, data: Any = None, offs: Any = None, large: bool = False,
             a: int = 0, n: int = 0, size: int = 0, width: int = 0) -> int:
        self.keep.append(arr)
        valid = arr.buffers()[0] if arr.null_count else None
        self.nodes.append((code, valid, arr.offset, data, offs, int(large), a, n, size, width))
        self.paths.append(path)
        return len(self.nodes) - 1

    def kids_of(self, ids: list[int]) -> int:
        start = len(self.kids)
        self.kids.extend(ids)
        return start

    def build(self, t: T, arr: Any, path: str) -> int:
        import pyarrow as pa
        from kafkacodec.errors import EncodeError
        k = t.kind
        if k == "union":
            m = union_mode(t)
            if m == "single":
                inner = self.build(t.branches[0], arr, path)
                return self.node(EN_TAG, arr, path, a=self.kids_of([inner]))
            if m == "nullable":
                inner = self.build(nullable_inner(t), arr, path)
                null_i = next(i for i, b in enumerate(t.branches) if b.kind == "null")
                return self.node(EN_OPT, arr, path, a=self.kids_of([inner]), n=null_i, size=1 - null_i)
            if not pa.types.is_union(arr.type) or arr.type.mode != "dense":
                raise EncodeError(f"a dense union column is needed for this Avro union, not {arr.type}", path)
            codes = list(arr.type.type_codes)
            kids = []
            for i, b in enumerate(t.branches):
                if codes.count(i) != 1 or codes.index(i) != i:
                    raise EncodeError("dense union type codes must be the branch indexes 0..n-1", path)
                kids.append(self.build(b, arr.field(i), path))
            return self.node(O_UNION, arr, path, data=arr.buffers()[1], offs=arr.buffers()[2],
                             a=self.kids_of(kids), n=len(kids))
        expected = arrow_type(t)
        if k == "record":
            if isinstance(arr, pa.ChunkedArray):
                arr = arr.combine_chunks()
            if not pa.types.is_struct(arr.type):
                raise EncodeError(f"a struct column is needed for Avro record {t.name}, not {arr.type}", path)
            names = [arr.type.field(i).name for i in range(arr.type.num_fields)]
            kids = []
            for f in t.fields:
                sub = f.name if not path else path + "." + f.name
                if f.name not in names:
                    raise EncodeError("column missing", sub)
                kids.append(self.build(f.type, arr.field(names.index(f.name)), sub))
            return self.node(O_RECORD, arr, path, a=self.kids_of(kids), n=len(kids))
        if k == "array":
            assert t.items is not None
            if not (pa.types.is_list(arr.type) or pa.types.is_large_list(arr.type)):
                raise EncodeError(f"a list column is needed for an Avro array, not {arr.type}", path)
            item = self.build(t.items, arr.values, path + "[]")
            return self.node(O_ARRAY, arr, path, offs=arr.buffers()[1], large=pa.types.is_large_list(arr.type),
                             a=self.kids_of([item]))
        if k == "map":
            assert t.values is not None
            if not pa.types.is_map(arr.type):
                raise EncodeError(f"a map column is needed for an Avro map, not {arr.type}", path)
            entries = arr.values
            keys = self.build(T("string"), entries.field(0), path + "{}")
            vals = self.build(t.values, entries.field(1), path + "{}")
            return self.node(O_MAP, arr, path, offs=arr.buffers()[1], a=self.kids_of([keys, vals]))
        if k == "enum":
            if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type):
                arr = arr.dictionary_encode()
            if not pa.types.is_dictionary(arr.type):
                raise EncodeError(f"a dictionary or string column is needed for an Avro enum, not {arr.type}",
                                  path)
            idx = arr.indices.cast(pa.int32())
            symbols = arr.dictionary.to_pylist()
            start = len(self.tables)
            self.tables.extend(t.symbols.index(s) if s in t.symbols else -1 for s in symbols)
            return self.node(O_ENUM, idx, path, data=idx.buffers()[1], n=len(symbols), size=start)
        arr = _conform(arr, expected, path)
        bufs = arr.buffers()
        if k in ("bytes", "string") and t.logical != "decimal":
            return self.node(PRIMITIVES.index(k), arr, path, data=bufs[2], offs=bufs[1],
                             large=pa.types.is_large_binary(arr.type) or pa.types.is_large_string(arr.type))
        if t.logical == "decimal":
            return self.node(EN_DEC, arr, path, data=bufs[1], size=t.size if k == "fixed" else 0,
                             width=16 if t.precision <= 38 else 32)
        if t.logical == "duration":
            return self.node(EN_DUR, arr, path, data=bufs[1])
        if k == "fixed":
            return self.node(O_FIXED, arr, path, data=bufs[1], size=t.size)
        return self.node(PRIMITIVES.index(k), arr, path, data=bufs[1] if k != "null" else None)


def _conform(arr: Any, expected: Any, path: str) -> Any:
    import pyarrow as pa
    from kafkacodec.errors import EncodeError
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    t = arr.type
    if t == expected:
        return arr
    if pa.types.is_timestamp(t) and pa.types.is_timestamp(expected):
        expected = pa.timestamp(expected.unit, t.tz)     # the zone does not change the stored instant
        if t == expected:
            return arr
    if (pa.types.is_large_string(t) and pa.types.is_string(expected)) or (
            pa.types.is_large_binary(t) and pa.types.is_binary(expected)):
        return arr
    try:
        return arr.cast(expected)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
        raise EncodeError(f"{t} cannot be written as {expected}: {e}", path) from None


@functools.lru_cache(maxsize=64)
def _parsed(schema_key: str) -> T:
    return parse_schema(schema_key)


def encode(data: Any, schema: Schema, *, schema_id: int | None = None) -> Any:
    """A StructArray / Table / RecordBatch (or any Arrow array of the schema's type) -> a binary array of
    Avro values, each after Confluent's header (byte 0, the big-endian ``schema_id``) when one is given."""
    import pyarrow as pa
    from kafkacodec.avro._avro import encode_nodes
    t = _parsed(_key(schema) if not isinstance(schema, str) or schema[:1] in "{[\"" else json.dumps(schema))
    if isinstance(data, pa.Table):
        data = data.combine_chunks().to_struct_array()
        data = data.combine_chunks() if isinstance(data, pa.ChunkedArray) else data
    elif isinstance(data, pa.RecordBatch):
        data = data.to_struct_array()
    elif isinstance(data, pa.ChunkedArray):
        data = data.combine_chunks()
    if schema_id is not None and not 0 <= schema_id < 1 << 32:
        raise ValueError("schema_id must fit 4 unsigned bytes")
    p = _EncPlan()
    root = p.build(t, data, "")
    return encode_nodes(p.nodes, p.kids, p.tables, p.paths, root, len(data), schema_id)


