"""Avro schemas parsed into a small tree, resolved writer -> reader, and
compiled into the flat tables the compiled decoder runs (see _avro.pyx).

Everything here runs once per schema (or schema pair); nothing per record.
"""
from __future__ import annotations

import json
import struct
from collections.abc import Callable
from typing import Any

from kafkacodec._pure.buffer import uvarint_bytes
from kafkacodec.errors import KafkaCodecError

PRIMITIVES = ("null", "boolean", "int", "long", "float", "double", "bytes", "string")
NAMED = ("record", "enum", "fixed")
# Avro nesting beyond this is refused when the schema is compiled, which also
# bounds the decoder's recursion (the plan is as deep as the schema).
MAX_DEPTH = 64


class AvroSchemaError(KafkaCodecError):
    """An Avro schema is invalid, unsupported, or cannot be resolved against another."""


# Column kinds (one Arrow array each) -- the same numbers as in _avro.pyx.
K_NULL, K_BOOL, K_I32, K_I64, K_F32, K_F64, K_BIN, K_STR, K_FIXED, K_DEC, K_DUR, K_ENUM, \
    K_STRUCT, K_LIST, K_MAP, K_UNION = range(16)
# Plan op codes (what the writer wrote) -- the same numbers as in _avro.pyx.
O_NULL, O_BOOL, O_INT, O_LONG, O_FLOAT, O_DOUBLE, O_BYTES, O_STRING, O_FIXED, O_ENUM, \
    O_RECORD, O_ARRAY, O_MAP, O_UNION, O_SETNULL, O_TAG, O_DEFAULT, O_ERROR = range(18)


class T:
    """One Avro type: kind plus what that kind needs."""

    __slots__ = ("kind", "logical", "name", "aliases", "fields", "symbols", "default", "size",
                 "items", "values", "branches", "precision", "scale")

    def __init__(self, kind: str):
        self.kind = kind
        self.logical: str | None = None
        self.name = ""
        self.aliases: set[str] = set()
        self.fields: list[F] = []
        self.symbols: list[str] = []
        self.default: str | None = None
        self.size = 0
        self.items: T | None = None
        self.values: T | None = None
        self.branches: list[T] = []
        self.precision = 0
        self.scale = 0


class F:
    __slots__ = ("name", "type", "default", "has_default", "aliases")

    def __init__(self, name: str, type_: T, default: Any, has_default: bool, aliases: set[str]):
        self.name = name
        self.type = type_
        self.default = default
        self.has_default = has_default
        self.aliases = aliases


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _full(name: str, namespace: str | None) -> str:
    if "." in name or not namespace:
        return name
    return namespace + "." + name


class _Parser:
    def __init__(self) -> None:
        self.named: dict[str, T] = {}
        self.open: set[str] = set()

    def parse(self, s: Any, ns: str | None, depth: int) -> T:
        if depth > MAX_DEPTH:
            raise AvroSchemaError(f"Avro schema nested deeper than {MAX_DEPTH}")
        if isinstance(s, str):
            if s in PRIMITIVES:
                return T(s)
            for cand in (_full(s, ns), s):
                if cand in self.open:
                    raise AvroSchemaError(f"recursive Avro type {cand!r} has no Arrow form")
                if cand in self.named:
                    return self.named[cand]
            raise AvroSchemaError(f"unknown Avro type {s!r}")
        if isinstance(s, list):
            t = T("union")
            t.branches = [self.parse(b, ns, depth + 1) for b in s]
            if any(b.kind == "union" for b in t.branches):
                raise AvroSchemaError("a union directly inside a union")
            return t
        if not isinstance(s, dict) or "type" not in s:
            raise AvroSchemaError(f"not an Avro schema: {s!r}")
        kind = s["type"]
        if isinstance(kind, (dict, list)) or (isinstance(kind, str) and kind not in PRIMITIVES + NAMED
                                               + ("array", "map")):
            t = self.parse(kind, ns, depth + 1)
            if s.get("logicalType") and t.kind in PRIMITIVES:
                t2 = T(t.kind)
                self._logical(t2, s)
                return t2
            return t
        t = T(kind)
        if kind in NAMED:
            if not isinstance(s.get("name"), str):
                raise AvroSchemaError(f"Avro {kind} without a name")
            ns2 = s.get("namespace", ns) or None
            full = _full(s["name"], ns2)
            if "." in full:
                ns2 = full.rsplit(".", 1)[0]
            t.name = full
            t.aliases = {_full(a, ns2) for a in s.get("aliases", [])}
            if kind == "record":
                self.open.add(full)
                for f in s.get("fields", []):
                    if not isinstance(f, dict) or not isinstance(f.get("name"), str) or "type" not in f:
                        raise AvroSchemaError(f"bad field in record {full}: {f!r}")
                    ft = self.parse(f["type"], ns2, depth + 1)
                    t.fields.append(F(f["name"], ft, f.get("default"), "default" in f,
                                      set(f.get("aliases", []))))
                self.open.discard(full)
            elif kind == "enum":
                t.symbols = list(s.get("symbols", []))
                if not t.symbols or len(set(t.symbols)) != len(t.symbols):
                    raise AvroSchemaError(f"enum {full} needs distinct symbols")
                t.default = s.get("default")
            else:
                t.size = s.get("size", -1)
                if not isinstance(t.size, int) or t.size < 0:
                    raise AvroSchemaError(f"fixed {full} needs a size")
            self.named[full] = t
        elif kind == "array":
            t.items = self.parse(s.get("items"), ns, depth + 1)
        elif kind == "map":
            t.values = self.parse(s.get("values"), ns, depth + 1)
        self._logical(t, s)
        return t

    @staticmethod
    def _logical(t: T, s: dict[str, Any]) -> None:
        # An invalid logical type falls back to the underlying type (the specification's rule).
        lt = s.get("logicalType")
        k = t.kind
        if lt == "decimal" and k in ("bytes", "fixed"):
            p, sc = s.get("precision"), s.get("scale", 0)
            if not isinstance(p, int) or not isinstance(sc, int) or p <= 0 or sc < 0 or sc > p or p > 76:
                return
            if k == "fixed" and p > int((8 * t.size - 1) * 0.30102999566398):
                return
            t.logical, t.precision, t.scale = lt, p, sc
        elif (lt == "uuid" and (k == "string" or (k == "fixed" and t.size == 16))
              or lt in ("date", "time-millis") and k == "int"
              or lt in ("time-micros", "time-nanos", "timestamp-millis", "timestamp-micros", "timestamp-nanos",
                        "local-timestamp-millis", "local-timestamp-micros", "local-timestamp-nanos")
              and k == "long"
              or lt == "duration" and k == "fixed" and t.size == 12):
            t.logical = lt


def parse_schema(schema: Any) -> T:
    if isinstance(schema, bytes):
        schema = schema.decode()
    # JSON text, or a bare type name ("long", "null" -- which json.loads would turn into None)
    if isinstance(schema, str) and schema.strip()[:1] in ("{", "[", '"'):
        try:
            schema = json.loads(schema)
        except ValueError:
            raise AvroSchemaError(f"Avro schema is not JSON: {schema!r:.80}") from None
    return _Parser().parse(schema, None, 0)


# --- Arrow types ---------------------------------------------------------------------------------

def union_mode(t: T) -> str:
    nn = [b for b in t.branches if b.kind != "null"]
    if len(t.branches) == 2 and len(nn) == 1:
        return "nullable"
    if len(t.branches) == 1:
        return "single"
    return "dense"


def nullable_inner(t: T) -> T:
    return next(b for b in t.branches if b.kind != "null")


_TS = {"timestamp-millis": ("ms", "UTC"), "timestamp-micros": ("us", "UTC"), "timestamp-nanos": ("ns", "UTC"),
       "local-timestamp-millis": ("ms", None), "local-timestamp-micros": ("us", None),
       "local-timestamp-nanos": ("ns", None)}


def arrow_type(t: T) -> Any:
    import pyarrow as pa
    k, lt = t.kind, t.logical
    if k == "union":
        m = union_mode(t)
        if m == "nullable":
            return arrow_type(nullable_inner(t))
        if m == "single":
            return arrow_type(t.branches[0])
        return pa.dense_union([pa.field(_branch_name(b, i), arrow_type(b)) for i, b in enumerate(t.branches)])
    if k == "null":
        return pa.null()
    if k == "boolean":
        return pa.bool_()
    if k == "int":
        return pa.date32() if lt == "date" else pa.time32("ms") if lt == "time-millis" else pa.int32()
    if k == "long":
        if lt in ("time-micros", "time-nanos"):
            return pa.time64("us" if lt == "time-micros" else "ns")
        if lt in _TS:
            return pa.timestamp(*_TS[lt])
        return pa.int64()
    if k == "float":
        return pa.float32()
    if k == "double":
        return pa.float64()
    if lt == "decimal":
        return (pa.decimal128 if t.precision <= 38 else pa.decimal256)(t.precision, t.scale)
    if k == "bytes":
        return pa.binary()
    if k == "string":
        return pa.string()
    if k == "fixed":
        return pa.month_day_nano_interval() if lt == "duration" else pa.binary(t.size)
    if k == "enum":
        return pa.dictionary(pa.int32(), pa.string())
    if k == "record":
        return pa.struct([pa.field(f.name, arrow_type(f.type), nullable=is_nullable(f.type)) for f in t.fields])
    if k == "array":
        assert t.items is not None
        return pa.list_(pa.field("item", arrow_type(t.items), nullable=is_nullable(t.items)))
    if k == "map":
        assert t.values is not None
        return pa.map_(pa.string(), pa.field("value", arrow_type(t.values), nullable=is_nullable(t.values)))
    raise AvroSchemaError(f"unsupported Avro type {k}")


def is_nullable(t: T) -> bool:
    return t.kind == "null" or (t.kind == "union" and any(b.kind == "null" for b in t.branches))


def _branch_name(t: T, i: int) -> str:
    return _short(t.name) if t.kind in NAMED else t.kind


# --- columns -------------------------------------------------------------------------------------

class Col:
    __slots__ = ("index", "kind", "width", "nullable", "children", "type", "symbols")

    def __init__(self, kind: int, t: T, nullable: bool):
        self.index = -1
        self.kind = kind
        self.width = 0
        self.nullable = nullable
        self.children: list[Col] = []
        self.type = t
        self.symbols: list[str] = []


def make_cols(t: T, out: list[Col], nullable: bool = False) -> Col:
    """The reader schema's column tree (pre-order in `out`)."""
    if t.kind == "union":
        m = union_mode(t)
        if m == "nullable":
            return make_cols(nullable_inner(t), out, True)
        if m == "single":
            return make_cols(t.branches[0], out, nullable)
    k, lt = t.kind, t.logical
    kind = {"null": K_NULL, "boolean": K_BOOL, "int": K_I32, "long": K_I64, "float": K_F32, "double": K_F64,
            "bytes": K_BIN, "string": K_STR, "fixed": K_FIXED, "enum": K_ENUM, "record": K_STRUCT,
            "array": K_LIST, "map": K_MAP, "union": K_UNION}[k]
    # a union has no validity bitmap in Arrow: its null is a null branch
    c = Col(kind, t, nullable and kind != K_UNION)
    c.index = len(out)
    out.append(c)
    if lt == "decimal":
        c.kind, c.width = K_DEC, 16 if t.precision <= 38 else 32
    elif lt == "duration":
        c.kind, c.width = K_DUR, 16
    elif k == "fixed":
        c.width = t.size
    if k == "enum":
        c.symbols = t.symbols
    elif k == "record":
        c.children = [make_cols(f.type, out) for f in t.fields]
    elif k == "array":
        assert t.items is not None
        c.children = [make_cols(t.items, out)]
    elif k == "map":
        assert t.values is not None
        c.children = [make_cols(T("string"), out), make_cols(t.values, out)]
    elif k == "union":
        c.children = [make_cols(b, out) for b in t.branches]
    return c


# --- resolution (Avro specification, "Schema Resolution") -----------------------------------------

_PROMOTE = {"int": ("long", "float", "double"), "long": ("float", "double"), "float": ("double",),
            "string": ("bytes",), "bytes": ("string",)}


def _names_match(w: T, r: T) -> bool:
    return (_short(w.name) == _short(r.name) or w.name in r.aliases
            or _short(w.name) in {_short(a) for a in r.aliases})


def matches(w: T, r: T, exact: bool = False) -> bool:
    if w.kind == r.kind:
        if w.kind in NAMED:
            return _names_match(w, r) and (w.kind != "fixed" or w.size == r.size)
        return True
    return not exact and r.kind in _PROMOTE.get(w.kind, ())


class Plan:
    """The flat tables of one or more writer schemas resolved against one reader."""

    def __init__(self, reader: T):
        self.reader = reader
        self.cols: list[Col] = []
        self.root = make_cols(reader, self.cols, True)
        self.ops: list[tuple[int, int, int, int, int]] = []   # code, col, a, n, size
        self.paths: list[str] = []
        self.kids: list[int] = []
        self.tables: list[int] = []
        self.consts: list[bytes] = []
        self.messages: list[str] = []
        self._rr: dict[int, int] = {}

    def op(self, code: int, col: int, path: str, a: int = 0, n: int = 0, size: int = 0) -> int:
        self.ops.append((code, col, a, n, size))
        self.paths.append(path)
        return len(self.ops) - 1

    def _set(self, i: int, a: int, n: int) -> None:
        code, col, _, _, size = self.ops[i]
        self.ops[i] = (code, col, a, n, size)

    def _kids(self, ops: list[int]) -> int:
        start = len(self.kids)
        self.kids.extend(ops)
        return start

    def add_writer(self, w: T) -> int:
        return self.resolve(w, self.reader, self.root, "")

    def error(self, msg: str, path: str) -> int:
        self.messages.append(msg)
        return self.op(O_ERROR, -1, path, n=len(self.messages) - 1)

    def resolve(self, w: T, r: T | None, c: Col | None, path: str) -> int:
        if r is None or c is None:
            return self.skip(w, path)
        if w.kind == "union":
            branches = []
            for wb in w.branches:
                try:
                    branches.append(self.resolve(wb, r, c, path))
                except AvroSchemaError as e:
                    branches.append(self.error(f"union branch {wb.kind} of the writer: {e}", path))
            return self.op(O_UNION, c.index, path, self._kids(branches), len(branches))
        if r.kind == "union":
            m = union_mode(r)
            if m == "nullable":
                if w.kind == "null":
                    return self.op(O_SETNULL, c.index, path)
                return self.resolve(w, nullable_inner(r), c, path)
            if m == "single":
                return self.resolve(w, r.branches[0], c, path)
            for exact in (True, False):
                for j, rb in enumerate(r.branches):
                    if matches(w, rb, exact):
                        inner = self.resolve(w, rb, c.children[j], path)
                        return self.op(O_TAG, c.index, path, self._kids([inner]), j)
            raise AvroSchemaError(f"writer's {w.kind} matches no branch of the reader's union at `{path}`")
        if not matches(w, r):
            raise AvroSchemaError(f"writer's {w.kind} {w.name} cannot be read as {r.kind} {r.name} at `{path}`"
                                  .replace("  ", " "))
        ci = c.index
        k = w.kind
        if k in PRIMITIVES:
            return self.op(PRIMITIVES.index(k), ci, path)
        if k == "fixed":
            return self.op(O_FIXED, ci, path, size=w.size)
        if k == "enum":
            table = []
            for s in w.symbols:
                if s in r.symbols:
                    table.append(r.symbols.index(s))
                elif r.default in r.symbols:
                    table.append(r.symbols.index(r.default))
                else:
                    table.append(-1)
            start = len(self.tables)
            self.tables.extend(table)
            return self.op(O_ENUM, ci, path, start, len(table))
        if k in ("array", "map"):
            # the element's column is the last child (a map's first holds its keys)
            reader_element = _element(r)[1]
            return self._container(w, ci, path, lambda wt, p: self.resolve(wt, reader_element, c.children[-1], p))
        # record
        i = self.op(O_RECORD, ci, path)
        kids = []
        used = set()
        for wf in w.fields:
            rj = next((j for j, rf in enumerate(r.fields) if rf.name == wf.name), None)
            if rj is None:
                rj = next((j for j, rf in enumerate(r.fields) if wf.name in rf.aliases), None)
            sub = _join(path, wf.name)
            if rj is None or rj in used:
                kids.append(self.skip(wf.type, sub))
            else:
                used.add(rj)
                kids.append(self.resolve(wf.type, r.fields[rj].type, c.children[rj], sub))
        for j, rf in enumerate(r.fields):
            if j in used:
                continue
            sub = _join(path, rf.name)
            if not rf.has_default:
                raise AvroSchemaError(f"reader's field `{sub}` is not written and has no default")
            data = encode_default(rf.type, rf.default, sub)
            self.consts.append(data)
            inner = self.resolve(rf.type, rf.type, c.children[j], sub)
            kids.append(self.op(O_DEFAULT, c.children[j].index, sub, self._kids([inner]), 0,
                                len(self.consts) - 1))
        self._set(i, self._kids(kids), len(kids))
        return i

    def min_size(self, i: int) -> int:
        """The fewest bytes op i reads: bounds a block's item count by the bytes left."""
        code, _, a, n, size = self.ops[i]
        if code in (O_NULL, O_SETNULL, O_DEFAULT, O_ERROR):
            return 0
        if code in (O_FLOAT, O_DOUBLE, O_FIXED):
            return 4 if code == O_FLOAT else 8 if code == O_DOUBLE else size
        if code == O_RECORD:
            return sum(self.min_size(k) for k in self.kids[a:a + n])
        if code == O_TAG:
            return self.min_size(self.kids[a])
        return 1

    def _container(self, w: T, ci: int, path: str, element: Callable[[T, str], int]) -> int:
        """The op of an array or a map, its element's op made by element(writer's element, path)."""
        code, element_type, step = _element(w)
        i = self.op(code, ci, path)
        self._set(i, self._kids([element(element_type, path + step)]), 1)
        return i

    def skip(self, w: T, path: str) -> int:
        k = w.kind
        if k in PRIMITIVES:
            return self.op(PRIMITIVES.index(k), -1, path)
        if k == "fixed":
            return self.op(O_FIXED, -1, path, size=w.size)
        if k == "enum":
            start = len(self.tables)
            self.tables.extend(range(len(w.symbols)))
            return self.op(O_ENUM, -1, path, start, len(w.symbols))
        if k in ("array", "map"):
            return self._container(w, -1, path, self.skip)
        if k == "union":
            b = [self.skip(x, path) for x in w.branches]
            return self.op(O_UNION, -1, path, self._kids(b), len(b))
        i = self.op(O_RECORD, -1, path)
        kids = [self.skip(f.type, _join(path, f.name)) for f in w.fields]
        self._set(i, self._kids(kids), len(kids))
        return i


def _element(t: T) -> tuple[int, T, str]:
    """An array's or a map's op code, its element type (items, values) and the path step to it."""
    if t.kind == "array":
        assert t.items is not None
        return O_ARRAY, t.items, "[]"
    assert t.values is not None
    return O_MAP, t.values, "{}"


def _join(path: str, name: str) -> str:
    return name if not path else path + "." + name


# --- a tiny writer for field defaults (JSON values) ----------------------------------------------

def _zz(v: int) -> bytes:
    """An Avro long's bytes: zigzag over 64 bits, then a varint."""
    encoded: bytes = uvarint_bytes(((v << 1) ^ (v >> 63)) & ((1 << 64) - 1))
    return encoded


def encode_default(t: T, v: Any, path: str) -> bytes:
    try:
        return _enc_default(t, v)
    except (TypeError, ValueError, KeyError, struct.error, AttributeError) as e:
        raise AvroSchemaError(f"default of `{path}` does not fit its type: {e}") from None


def _enc_default(t: T, v: Any) -> bytes:
    k = t.kind
    if k == "null":
        if v is not None:
            raise ValueError("null expected")
        return b""
    if k == "boolean":
        if not isinstance(v, bool):
            raise ValueError("boolean expected")
        return b"\x01" if v else b"\x00"
    if k in ("int", "long"):
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError("integer expected")
        return _zz(v)
    if k == "float":
        return struct.pack("<f", float(v))
    if k == "double":
        return struct.pack("<d", float(v))
    if k in ("bytes", "string"):
        if not isinstance(v, str):
            raise ValueError("string expected")
        b = v.encode("latin-1") if k == "bytes" else v.encode()
        return _zz(len(b)) + b
    if k == "fixed":
        raw: bytes = v.encode("latin-1")
        if len(raw) != t.size:
            raise ValueError(f"{t.size} bytes expected")
        return raw
    if k == "enum":
        return _zz(t.symbols.index(v))
    if k == "array":
        assert t.items is not None
        items = t.items
        return (_zz(len(v)) + b"".join(_enc_default(items, x) for x in v) if v else b"") + b"\x00"
    if k == "map":
        assert t.values is not None
        vals = t.values
        body = b"".join(_enc_default(T("string"), key) + _enc_default(vals, x) for key, x in v.items())
        return (_zz(len(v)) + body if v else b"") + b"\x00"
    if k == "record":
        out = b""
        for f in t.fields:
            if f.name in v:
                out += _enc_default(f.type, v[f.name])
            elif f.has_default:
                out += _enc_default(f.type, f.default)
            else:
                raise KeyError(f.name)
        return out
    # union: the first branch the value fits (the specification names the first; later ones are tolerated)
    for i, branch in enumerate(t.branches):
        try:
            return _zz(i) + _enc_default(branch, v)
        except (TypeError, ValueError, KeyError, struct.error, AttributeError):
            continue
    raise ValueError("no union branch fits")
