"""JSON record values <-> Arrow columns.

Decoding joins the values (their Confluent header stripped) into one
newline-delimited text and hands it to pyarrow's JSON reader with the
target schema: one C++ pass, no Python object per record (per-record
``json.loads`` + ``Table.from_pylist`` is 5-10x slower; bench/avro_bench.py
measures both).  The reader would accept two documents on one line, skip a
blank one, or let a document run on into the next value, so the values are
first checked for what keeps the rows one per record: each value, trimmed of
whitespace, starts with ``{`` and ends with ``}`` and holds no raw line
break.  A document cannot then cross a value's end (the next value's ``{``
cannot follow a ``}`` inside a document), so every value yields at least one
row, and as many rows as values means one each.  A value holding a line
break (pretty-printed JSON) is parsed alone with ``json.loads`` first (raw
line breaks inside strings are invalid JSON) and then flattened to spaces.
"""
from __future__ import annotations

import datetime
import decimal
import json
from typing import Any, Mapping

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from kafkacodec.avro import binary_column
from kafkacodec.errors import CorruptDataError, EncodeError

__all__ = ["JsonSchemaError", "json_schema_to_arrow", "decode_json", "encode_json", "confluent_ids",
           "binary_view"]

_OPEN, _CLOSE, _NL, _CR = ord("{"), ord("}"), ord("\n"), ord("\r")
_WS = b" \t\r\n"


class JsonSchemaError(ValueError):
    """A JSON Schema document with no Arrow form here (one line naming the path in it)."""


# ------------------------------------------------------------------ JSON Schema -> Arrow

_FORMATS = {"date-time": pa.timestamp("us", tz="UTC"), "date": pa.date32()}


def json_schema_to_arrow(doc: Any) -> pa.Schema:
    """A JSON Schema document (text or parsed) of an object -> the Arrow schema of its rows.

    ``object`` with ``properties`` -> struct (each field nullable: JSON may omit it),
    ``array`` -> list of ``items``, ``integer`` -> int64, ``number`` -> float64,
    ``boolean`` -> bool, ``string`` -> string (``format`` date-time -> timestamp[us, UTC],
    date -> date32), ``enum``/``const`` of strings -> string; a type
    list or ``anyOf``/``oneOf`` of a type and ``null`` -> that type; local ``$ref``
    (``#/definitions/..``, ``#/$defs/..``) followed.  Anything else (maps, mixed types,
    recursion) is a JsonSchemaError naming where it is."""
    if isinstance(doc, (str, bytes)):
        try:
            doc = json.loads(doc)
        except ValueError as e:
            raise JsonSchemaError(f"JSON Schema is not JSON: {e}") from None
    t = _type_of(doc, doc, "#", ())
    if not pa.types.is_struct(t):
        raise JsonSchemaError(f"JSON Schema of record values must describe an object, not {t}")
    return pa.schema(list(t))


def _resolve_ref(root: Any, ref: str, path: str) -> Any:
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        raise JsonSchemaError(f"{path}: only local $ref (#/...) are followed, not {ref!r}")
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            raise JsonSchemaError(f"{path}: $ref {ref!r} names nothing in the document")
        node = node[part]
    return node


def _type_of(node: Any, root: Any, path: str, refs: tuple[str, ...]) -> pa.DataType:
    if node is True or node == {}:
        raise JsonSchemaError(f"{path}: a schema allowing any value has no Arrow type")
    if not isinstance(node, Mapping):
        raise JsonSchemaError(f"{path}: expected a schema object, not {node!r}")
    if "$ref" in node:
        ref = node["$ref"]
        if ref in refs:
            raise JsonSchemaError(f"{path}: recursive $ref {ref!r} has no Arrow type")
        return _type_of(_resolve_ref(root, ref, path), root, path, refs + (ref,))
    for combo in ("anyOf", "oneOf"):
        if combo in node:
            branches = [b for b in node[combo] if not (isinstance(b, Mapping) and b.get("type") == "null")]
            if len(branches) != 1:
                raise JsonSchemaError(f"{path}: {combo} of several non-null types has no Arrow type")
            return _type_of(branches[0], root, f"{path}/{combo}", refs)
    if "allOf" in node and len(node["allOf"]) == 1:
        return _type_of(node["allOf"][0], root, f"{path}/allOf", refs)
    typ = node.get("type")
    if typ is None and ("enum" in node or "const" in node):
        values = node.get("enum", [node.get("const")])
        if all(isinstance(v, str) for v in values):
            return pa.string()
        raise JsonSchemaError(f"{path}: enum of non-strings needs a type")
    if typ is None and "properties" in node:
        typ = "object"
    if isinstance(typ, list):
        kinds = [k for k in typ if k != "null"]
        if kinds == ["integer", "number"] or kinds == ["number", "integer"]:
            kinds = ["number"]
        if len(kinds) != 1:
            raise JsonSchemaError(f"{path}: type {typ} has no single Arrow type")
        typ = kinds[0]
    if typ == "object":
        props = node.get("properties")
        if not props:
            raise JsonSchemaError(f"{path}: an object without properties (a map) is not read into columns")
        return pa.struct([pa.field(name, _type_of(sub, root, f"{path}/properties/{name}", refs))
                          for name, sub in props.items()])
    if typ == "array":
        if "items" not in node or not isinstance(node["items"], Mapping):
            raise JsonSchemaError(f"{path}: an array needs one items schema")
        return pa.list_(_type_of(node["items"], root, f"{path}/items", refs))
    if typ == "string":
        return _FORMATS.get(node.get("format", ""), pa.string())
    simple = {"integer": pa.int64(), "number": pa.float64(), "boolean": pa.bool_(), "null": pa.null()}
    if typ in simple:
        return simple[typ]
    raise JsonSchemaError(f"{path}: type {typ!r} is not a JSON Schema type")


# ------------------------------------------------------------------ helpers

def binary_view(values: Any) -> pa.Array:
    """One binary-like array (chunks combined; string types kept) or a TypeError."""
    result: pa.Array = binary_column(values, "record values")
    return result


def _buffers(values: pa.Array) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """(offsets as int64, the data bytes) of a binary-like array without nulls' meaning."""
    bufs = values.buffers()
    wide = pa.types.is_large_binary(values.type) or pa.types.is_large_string(values.type)
    offs = np.frombuffer(bufs[1], np.int64 if wide else np.int32)[values.offset:values.offset + len(values) + 1]
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    return offs.astype(np.int64), data


def _where(i: int, offsets: Any) -> str:
    if offsets is None:
        return ""
    try:
        return f" (Kafka offset {offsets[i].as_py()})"
    except Exception:
        return ""


def confluent_ids(values: pa.Array, rows: npt.NDArray[np.int64] | None = None,
                  offsets: Any = None) -> npt.NDArray[np.int64]:
    """The schema id of each value after Confluent's header (magic byte 0, a big-endian 4-byte id),
    checked; ``rows``: the index in the column of each value (for messages). Null values: -1."""
    offs, data = _buffers(values)
    starts, ends = offs[:-1], offs[1:]
    valid = values.is_valid().to_numpy(zero_copy_only=False) if values.null_count else np.ones(len(values), bool)
    short = valid & (ends - starts < 5)
    if short.any():
        i = int(np.argmax(short))
        r = i if rows is None else int(rows[i])
        raise CorruptDataError(f"value of {int(ends[i] - starts[i])} bytes is shorter than Confluent's 5-byte "
                               f"header{_where(r, offsets)}", 0, f"values[{r}]")
    ids = np.full(len(values), -1, np.int64)
    at = starts[valid]
    if len(at):
        magic = data[at]
        if magic.any():
            i = int(np.flatnonzero(valid)[int(np.argmax(magic != 0))])
            r = i if rows is None else int(rows[i])
            raise CorruptDataError(f"magic byte {int(data[starts[i]])} is not Confluent's 0{_where(r, offsets)}",
                                   0, f"values[{r}]")
        ids[valid] = ((data[at + 1].astype(np.int64) << 24) | (data[at + 2].astype(np.int64) << 16)
                      | (data[at + 3].astype(np.int64) << 8) | data[at + 4].astype(np.int64))
    return ids


# ------------------------------------------------------------------ decode

def _readable(t: pa.DataType) -> pa.DataType:
    """The type pyarrow's JSON reader is asked for where ``t`` itself is not readable (cast after)."""
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_readable(f.type)) for f in t])
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(t.value_field.with_type(_readable(t.value_type)))
    if pa.types.is_dictionary(t):
        return _readable(t.value_type)
    if pa.types.is_date(t):
        return pa.string()
    if pa.types.is_time(t):
        raise JsonSchemaError(f"JSON values are not read into {t}: read the time of day as a string")
    if pa.types.is_map(t):
        raise JsonSchemaError(f"JSON values cannot be read into {t}: use a struct of the keys expected")
    return t


def _parse(text: pa.Buffer, schema: pa.Schema, longest: int) -> pa.Table:
    import pyarrow.json as pj
    return pj.read_json(pa.BufferReader(text), read_options=pj.ReadOptions(block_size=max(1 << 20, 2 * longest + 2)),
                        parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"))


def _join(values: pa.Array) -> pa.Buffer:
    """The values one after another, a line break between each (one copy, in C++)."""
    lists = pa.LargeListArray.from_arrays(pa.array([0, len(values)], pa.int64()), values.cast(pa.large_binary()))
    return pc.binary_join(lists, pa.scalar(b"\n", pa.large_binary()))[0].as_buffer()


def decode_json(values: Any, schema: Any, *, confluent: bool = False, offsets: Any = None,
                ids_out: list[Any] | None = None) -> pa.StructArray:
    """JSON values (one object each; Confluent's JSON Schema header before it with ``confluent``)
    -> a StructArray of ``schema`` (a pyarrow Schema or struct type); a null value is a null row,
    fields a value lacks are null, fields the schema lacks are ignored.  ``offsets``: the records'
    Kafka offsets, named in errors.  ``ids_out``: gets the numpy array of schema ids appended."""
    values = binary_view(values)
    target = pa.struct(list(schema)) if isinstance(schema, pa.Schema) else schema
    if not pa.types.is_struct(target):
        raise TypeError(f"JSON values decode into a struct type, not {target}")
    readable = pa.schema(list(_readable(target)))
    n = len(values)
    rows = np.flatnonzero(values.is_valid().to_numpy(zero_copy_only=False)) if values.null_count else None
    present = values.drop_null() if rows is not None else values
    if confluent:
        ids = confluent_ids(present, rows, offsets)
        if ids_out is not None:
            ids_out.append(ids)
    record = (lambda i: i) if rows is None else (lambda i: int(rows[i]))
    m = len(present)
    if m == 0:
        out = pa.array([None] * n, target) if n else pa.array([], target)
        return out

    def bad(i: int, reason: str, pos: int | None = None) -> CorruptDataError:
        r = record(i)
        return CorruptDataError(f"{reason}{_where(r, offsets)}", pos, f"values[{r}]")

    skip = 5 if confluent else 0  # the header's bytes, turned into JSON whitespace below
    offs, data = _buffers(present)
    starts, ends = offs[:-1] + skip, offs[1:]
    lengths = ends - starts
    span = data[offs[0]:offs[-1]]
    odd = lengths == 0
    nonempty = ~odd
    odd[nonempty] |= (data[starts[nonempty]] != _OPEN) | (data[ends[nonempty] - 1] != _CLOSE)
    breaks = np.flatnonzero((span == _NL) | (span == _CR))
    if len(breaks):
        odd[np.searchsorted(ends - offs[0], breaks, side="right")] = True
    flatten = []
    # the first value found bad here fails the call unless one before it does: those are parsed then
    pending: tuple[int, str, int | None] | None = None
    for i in np.flatnonzero(odd).tolist():
        raw = bytes(data[starts[i]:ends[i]])
        text = raw.strip(_WS)
        if not text.startswith(b"{") or not text.endswith(b"}"):
            pending = (i, "value is not a JSON object" if text else "value is empty", None)
            break
        if b"\n" in raw or b"\r" in raw:
            try:
                json.loads(raw)
            except ValueError as e:
                pending = (i, f"value is not JSON: {e}", getattr(e, "pos", None))
                break
        flatten.append(i)
    wide = pa.types.is_large_binary(present.type) or pa.types.is_large_string(present.type)
    if flatten or skip:
        copy = np.array(data[:offs[-1]])
        for k in range(skip):
            copy[offs[:-1] + k] = ord(" ")
        # pretty-printed values: line breaks outside strings are whitespace; as spaces each value is one line
        for i in flatten:
            piece = copy[starts[i]:ends[i]]
            piece[(piece == _NL) | (piece == _CR)] = ord(" ")
        present = pa.Array.from_buffers(pa.large_binary() if wide else pa.binary(), m,
                                        [None, present.buffers()[1], pa.py_buffer(copy)], 0, present.offset)
    limit = m if pending is None else pending[0]
    try:
        present.slice(0, limit).view(pa.large_string() if wide else pa.string()).validate(full=True)
    except pa.ArrowInvalid as e:
        idx = _index_in(str(e))
        pending = (idx if idx is not None and idx < limit else 0, "value is not UTF-8 text", None)
        limit = pending[0]
    longest = max(1, int(lengths.max()))
    if pending is not None:
        if limit:
            prefix = present.slice(0, limit)
            try:
                head = _parse(_join(prefix), readable, longest)
                ok = head.num_rows == limit
                if ok and not readable.equals(pa.schema(list(target))):
                    head.combine_chunks().to_struct_array().cast(target)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                ok = False
            if not ok:
                i, reason = _first_bad(prefix, readable, longest, target)
                raise bad(i, reason)
        raise bad(*pending)
    text = _join(present)
    try:
        table = _parse(text, readable, longest)
        count_ok = table.num_rows == m
    except pa.ArrowInvalid:
        table, count_ok = None, False
    if not count_ok:
        i, reason = _first_bad(present, readable, longest)
        raise bad(i, reason)
    assert table is not None
    arr = table.combine_chunks().to_struct_array()
    arr = arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
    if not arr.type.equals(target):
        try:
            arr = arr.cast(target)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            i, reason = _first_bad(present, readable, longest, target)
            raise bad(i, reason or str(e)) from None
    if rows is not None:
        take = np.full(n, -1, np.int64)
        take[rows] = np.arange(m)
        arr = arr.take(pa.array(take, mask=take < 0))
    return arr


def _index_in(message: str) -> int | None:
    import re
    m = re.search(r"index (\d+)", message)
    return int(m.group(1)) if m else None


def _first_bad(present: pa.Array, schema: pa.Schema, longest: int,
               target: pa.DataType | None = None) -> tuple[int, str]:
    """(index, reason) of the first value that alone does not read as one row of ``schema``
    (and cast to ``target``), found by halving: O(values) parsing in all."""

    def fails(lo: int, hi: int) -> str | None:
        part = present.slice(lo, hi - lo)
        try:
            t = _parse(_join(part), schema, longest)
            if t.num_rows != hi - lo:
                return "value holds more than one JSON document"
            if target is not None:
                t.combine_chunks().to_struct_array().cast(target)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            return str(e).replace("JSON parse error: ", "").split("\n")[0] or "value is not JSON"
        return None

    lo, hi = 0, len(present)
    reason = fails(lo, hi) or "value does not read as one row"
    while hi - lo > 1:
        mid = (lo + hi) // 2
        left = fails(lo, mid)
        if left is not None:
            hi, reason = mid, left
        else:
            lo, reason = mid, fails(mid, hi) or reason
    if reason.endswith(" in row 0"):
        reason = reason[:-len(" in row 0")]
    return lo, reason


# ------------------------------------------------------------------ encode

def _default(v: Any) -> Any:
    if isinstance(v, (datetime.datetime, datetime.time)):
        # no more digits than the value has: pyarrow's reader refuses more than its column's unit holds
        us = v.microsecond
        text = v.isoformat(timespec="seconds" if not us else "milliseconds" if us % 1000 == 0 else "microseconds")
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if isinstance(v, datetime.date):
        return v.isoformat()
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, (bytes, bytearray)):
        try:  # as the reader reads a binary field: the string's UTF-8 bytes
            return bytes(v).decode()
        except UnicodeDecodeError:
            raise ValueError("a binary field that is not UTF-8 text has no JSON form") from None
    if isinstance(v, datetime.timedelta):
        return v.total_seconds()
    raise TypeError(f"{type(v).__name__} has no JSON form")


def encode_json(data: Any, *, schema_id: int | None = None) -> pa.Array:
    """A StructArray / Table / RecordBatch -> a binary array of compact JSON objects (a null row: a
    null value), each after Confluent's header when ``schema_id`` is given.  Timestamps, dates and
    times as ISO 8601 text (UTC with Z), decimals as strings, binary fields as the UTF-8 text they
    hold: as the reader reads them back."""
    if isinstance(data, pa.Table):
        data = data.combine_chunks().to_struct_array()
    elif isinstance(data, pa.RecordBatch):
        data = data.to_struct_array()
    if isinstance(data, pa.ChunkedArray):
        data = data.combine_chunks()
    if not pa.types.is_struct(data.type):
        raise EncodeError(f"JSON values are encoded from a struct column, not {data.type}")
    if schema_id is not None and not 0 <= schema_id < 1 << 32:
        raise ValueError("schema_id must fit 4 unsigned bytes")
    head = b"" if schema_id is None else b"\x00" + schema_id.to_bytes(4, "big")
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_default).encode
    out: list[bytes | None] = []
    for i, row in enumerate(data.to_pylist()):
        if row is None:
            out.append(None)
            continue
        try:
            out.append(head + dumps(row).encode())
        except (TypeError, ValueError) as e:
            raise EncodeError(f"row {i}: {e}", f"values[{i}]") from None
    return pa.array(out, pa.binary())
