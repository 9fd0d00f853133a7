"""Record values (and keys) as typed Arrow columns, and back: one way to say
what format a binary column holds, used by ``Consumer.poll_arrow``,
``Producer.send_arrow``, the ``kafka-live`` source and sink, and
``kafkacodec.spark.decode_values``.

    from kafkacodec.values import AvroFormat, JsonFormat, decode_values, encode_values

    fmt = AvroFormat(schema_text, confluent=True)           # Avro (kafkacodec.avro, in C)
    fmt = JsonFormat(pa.schema([("id", pa.int64())]))       # JSON objects (pyarrow's JSON reader)
    fmt = JsonFormat(json_schema_document, confluent=True)  # a JSON Schema mapped to Arrow
    rows = decode_values(batch["value"], fmt)               # -> StructArray
    col = encode_values(rows, fmt.with_id(42))              # -> binary, Confluent header with id 42

With ``confluent=True`` each value starts with Confluent's wire header (byte 0,
a big-endian 4-byte schema id).  Given ``registry`` (a Schema Registry client:
``kafkacodec.schema_registry.SchemaRegistryClient``, confluent-kafka's, or
anything with its ``get_schema(id)``), the Avro writer schema of each id in a
column is fetched once and resolved to the reader schema, so a topic whose
schema evolved reads into one column; for JSON, each id is checked to be a
JSON schema.  A value that does not decode is a ``CorruptDataError`` naming
the record (``values[i]``, with its Kafka offset where known).

The formats live here, beside :mod:`kafkacodec.avro`, and not in it: they
cover JSON too, and they are what the client and Spark layers share.
"""
from __future__ import annotations

import json
import threading
from typing import Any, Mapping

import numpy as np
import pyarrow as pa

from kafkacodec.values._json import (JsonSchemaError, _readable, binary_view, confluent_ids, decode_json,
                                     encode_json, json_schema_to_arrow)

__all__ = ["AvroFormat", "JsonFormat", "ValueFormat", "as_format", "decode_values", "encode_values",
           "decode_columns", "encode_columns", "json_schema_to_arrow", "JsonSchemaError", "confluent_ids"]


class ValueFormat:
    """What a binary key or value column holds (AvroFormat or JsonFormat)."""

    confluent: bool
    schema_id: int | None
    registry: Any
    _fetched: dict[int, str]
    _lock: threading.Lock

    @property
    def arrow_type(self) -> pa.DataType:
        raise NotImplementedError

    def decode(self, values: Any, *, offsets: Any = None) -> pa.Array:
        raise NotImplementedError

    def encode(self, data: Any) -> pa.Array:
        raise NotImplementedError

    def with_id(self, schema_id: int | None) -> "ValueFormat":
        """The same format writing Confluent's header with ``schema_id`` (None: no header)."""
        import copy
        out = copy.copy(self)
        out.schema_id = schema_id
        out.confluent = self.confluent or schema_id is not None
        return out

    def with_registry(self, registry: Any) -> "ValueFormat":
        import copy
        out = copy.copy(self)
        out.registry = registry
        out._fetched = {}
        out._lock = threading.Lock()
        return out

    def __getstate__(self) -> dict[str, Any]:
        # a registry client holds connections: Spark's workers get the format without it
        # (kafkacodec.spark gives them one made from its settings)
        state = dict(self.__dict__)
        state["registry"] = None
        state["_fetched"] = {}
        state.pop("_lock", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _writer_schema(self, schema_id: int, kind: str) -> str:
        """The schema registered under ``schema_id`` (fetched once), checked to be of ``kind``."""
        from kafkacodec.errors import CorruptDataError
        with self._lock:
            hit = self._fetched.get(schema_id)
        if hit is not None:
            return hit
        try:
            found = self.registry.get_schema(schema_id)
        except Exception as e:
            raise CorruptDataError(f"schema id {schema_id} is not known to the Schema Registry: {e}", 1) from None
        got = (getattr(found, "schema_type", None) or "AVRO").upper()
        if got != kind:
            raise CorruptDataError(f"schema id {schema_id} is a {got} schema, not {kind}", 1)
        with self._lock:
            self._fetched[schema_id] = found.schema_str
        return found.schema_str  # type: ignore[no-any-return]


class AvroFormat(ValueFormat):
    """Avro values of ``schema`` (JSON text or dict: the reader schema), decoded and encoded in C
    by :mod:`kafkacodec.avro`.  ``writer_schemas``: {schema id: schema} the values were written
    with (Confluent) or the one writer schema; ``registry``: fetches the writer schema of each id
    met; ``schema_id``: the id encode writes in Confluent's header (implies ``confluent``)."""

    def __init__(self, schema: Any, *, confluent: bool = False, writer_schemas: Any = None,
                 registry: Any = None, schema_id: int | None = None) -> None:
        from kafkacodec.avro import parse_schema
        from kafkacodec.avro._schema import arrow_type
        self.schema = json.loads(schema) if isinstance(schema, str) and schema[:1] in "{[\"" else schema
        self._arrow_type = arrow_type(parse_schema(self.schema))
        self.confluent = confluent or schema_id is not None
        self.writer_schemas = writer_schemas
        self.schema_id = schema_id
        self.registry = registry
        self._fetched: dict[int, str] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        name = self.schema.get("name") if isinstance(self.schema, Mapping) else self.schema
        return f"AvroFormat({name!r}, confluent={self.confluent}, schema_id={self.schema_id})"

    @property
    def arrow_type(self) -> pa.DataType:
        return self._arrow_type

    def decode(self, values: Any, *, offsets: Any = None) -> pa.Array:
        from kafkacodec.avro import decode
        values = binary_view(values)
        writers = self.writer_schemas
        if self.confluent and self.registry is not None:
            ids = np.unique(confluent_ids(values, offsets=offsets))
            writers = {int(i): json.loads(self._writer_schema(int(i), "AVRO")) for i in ids if i >= 0}
            if isinstance(self.writer_schemas, Mapping):
                writers.update(self.writer_schemas)
        if offsets is not None:  # errors then name the record's Kafka offset
            if isinstance(offsets, pa.ChunkedArray):
                offsets = offsets.combine_chunks()
            values = pa.RecordBatch.from_arrays([offsets, values], ["offset", "value"])
        return decode(values, self.schema, confluent=self.confluent, writer_schemas=writers)

    def encode(self, data: Any) -> pa.Array:
        from kafkacodec.avro import encode
        if self.confluent and self.schema_id is None:
            raise ValueError("Confluent's header needs the schema id to write (AvroFormat(schema_id=...))")
        return encode(data, self.schema, schema_id=self.schema_id)


class JsonFormat(ValueFormat):
    """JSON object values read into ``schema``: a pyarrow Schema or struct type, or a JSON Schema
    document (text or dict, mapped by :func:`json_schema_to_arrow`).  ``confluent``: each value
    starts with Confluent's JSON Schema header; ``registry``: each id met is checked to name a
    JSON schema; ``schema_id``: the id encode writes (implies ``confluent``)."""

    def __init__(self, schema: Any, *, confluent: bool = False, registry: Any = None,
                 schema_id: int | None = None) -> None:
        if isinstance(schema, pa.Schema):
            self._arrow_type = pa.struct(list(schema))
        elif isinstance(schema, pa.DataType):
            if not pa.types.is_struct(schema):
                raise TypeError(f"JSON values decode into a struct type, not {schema}")
            self._arrow_type = schema
        else:
            self._arrow_type = pa.struct(list(json_schema_to_arrow(schema)))
        _readable(self._arrow_type)  # types the reader cannot give refused now, not at the first value
        self.confluent = confluent or schema_id is not None
        self.schema_id = schema_id
        self.registry = registry
        self._fetched: dict[int, str] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"JsonFormat({self._arrow_type}, confluent={self.confluent}, schema_id={self.schema_id})"

    @property
    def arrow_type(self) -> pa.DataType:
        return self._arrow_type

    def decode(self, values: Any, *, offsets: Any = None) -> pa.Array:
        ids: list[Any] = []
        out = decode_json(values, self._arrow_type, confluent=self.confluent, offsets=offsets, ids_out=ids)
        if self.registry is not None and ids:
            for i in np.unique(ids[0]).tolist():
                if i >= 0:
                    self._writer_schema(i, "JSON")
        return out

    def encode(self, data: Any) -> pa.Array:
        if self.confluent and self.schema_id is None:
            raise ValueError("Confluent's header needs the schema id to write (JsonFormat(schema_id=...))")
        return encode_json(data, schema_id=self.schema_id)


def as_format(spec: Any) -> ValueFormat | None:
    """A ValueFormat from what users pass as ``value_schema``/``key_schema``: a format as it is,
    a pyarrow Schema (JSON values), Avro schema text or dict; None stays None (binary)."""
    if spec is None or isinstance(spec, ValueFormat):
        return spec
    if isinstance(spec, (pa.Schema, pa.DataType)):
        return JsonFormat(spec)
    if isinstance(spec, (str, Mapping, list)):
        return AvroFormat(spec)
    raise TypeError(f"a value schema is an AvroFormat, a JsonFormat, Avro schema text or dict, or a pyarrow "
                    f"Schema, not {type(spec).__name__}")


def decode_values(values: Any, fmt: Any, *, offsets: Any = None) -> pa.Array:
    """A binary column -> an Arrow array of ``fmt``'s type (``fmt`` as :func:`as_format` takes it)."""
    f = as_format(fmt)
    if f is None:
        return binary_view(values)
    return f.decode(values, offsets=offsets)


def encode_values(data: Any, fmt: Any) -> pa.Array:
    """An Arrow struct column (or Table / RecordBatch) -> a binary column of ``fmt``'s values."""
    f = as_format(fmt)
    if f is None:
        raise ValueError("encode_values needs a format")
    return f.encode(data)


def decode_columns(batch: pa.RecordBatch, *, value: Any = None, key: Any = None) -> pa.RecordBatch:
    """``batch`` (kafkacodec's record columns) with its ``value`` / ``key`` column decoded by the
    given formats (None: left binary); errors name the record's Kafka offset."""
    fmts = {"value": as_format(value), "key": as_format(key)}
    if fmts["value"] is None and fmts["key"] is None:
        return batch
    names = batch.schema.names
    offsets = batch.column(names.index("offset")) if "offset" in names else None
    cols, fields = list(batch.columns), list(batch.schema)
    for name, f in fmts.items():
        if f is None or name not in names:
            continue
        i = names.index(name)
        cols[i] = f.decode(cols[i], offsets=offsets)
        fields[i] = pa.field(name, cols[i].type)
    return pa.RecordBatch.from_arrays(cols, schema=pa.schema(fields, metadata=batch.schema.metadata))


def encode_columns(table: Any, *, value: Any = None, key: Any = None) -> Any:
    """``table`` (Table or RecordBatch) with its ``value`` / ``key`` struct columns encoded as binary by
    the given formats; a column already binary stays as it is."""
    fmts = {"value": as_format(value), "key": as_format(key)}
    out = table
    for name, f in fmts.items():
        if f is None or name not in out.schema.names:
            continue
        i = out.schema.names.index(name)
        col = out.column(i)
        if col.type in (pa.binary(), pa.large_binary(), pa.string(), pa.large_string()):
            continue
        encoded = f.encode(col)
        out = out.set_column(i, pa.field(name, encoded.type), encoded)
    return out
