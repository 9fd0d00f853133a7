"""Pure-Python executor of protocol plans: the reference twin of `_codec.pyx`.

Runs the same plan tree (`_model`) over `kafkacodec._pure.buffer` Reader/Writer.
"""
import struct
import uuid as _uuid
from dataclasses import dataclass, field

from kafkacodec._pure.buffer import Reader, Writer
from kafkacodec.errors import CorruptDataError, EncodeError
from kafkacodec.protocol import _lenient

(INT8, INT16, INT32, INT64, UINT16, UINT32, FLOAT64, BOOL, UUID, STRING, BYTES, RECORDS,
 ARRAY, STRUCT) = range(14)
_UUID_CLS = _uuid.UUID


@dataclass(slots=True, eq=False)
class FieldOp:
    kind: int
    attr: str | None
    nullable: bool
    compact: bool
    min_size: int
    child: "StructPlan | None"
    elem: "FieldOp | None"
    tag: int = -1
    default: object = None
    factory: object = None
    ignorable: bool = False
    lenient: tuple | None = None  # set by _lenient.apply: (bytes left when absent or -1, debug line)


@dataclass(slots=True, eq=False)
class StructPlan:
    cls: type
    ops: tuple
    tagged: tuple
    absent: tuple
    flexible: bool
    min_size: int
    by_tag: dict = field(init=False)

    def __post_init__(self):
        self.by_tag = {op.tag: op for op in self.tagged}


# ------------------------------------------------------------------ decode

def _length(r, op):
    """Read a string/bytes/array length; -1 means null."""
    at = r.pos
    lenient = op.lenient
    if lenient is not None and r.end - r.pos == lenient[0]:
        _lenient.note(lenient[1])  # a peer left the field out (_lenient.ABSENT_AS_EMPTY)
        return 0
    if op.compact:
        n = r.read_uvarint() - 1
    elif op.kind == STRING:
        n = r.read_int16()
    else:
        n = r.read_int32()
    if n < -1:
        raise CorruptDataError(f"negative length {n}", r.base + at)
    if n == -1 and not op.nullable:
        if lenient is not None and lenient[0] < 0:
            _lenient.note(lenient[1])  # a peer wrote null where it may not (_lenient.NULL_AS_EMPTY)
            return 0
        raise CorruptDataError("null in a non-nullable field", r.base + at)
    return n


# The kinds read by one Reader method.
_SCALAR_READERS = {INT8: Reader.read_int8, INT16: Reader.read_int16, INT32: Reader.read_int32,
                   INT64: Reader.read_int64, UINT16: Reader.read_uint16, UINT32: Reader.read_uint32,
                   FLOAT64: Reader.read_float64}


def decode_value(r, op):
    kind = op.kind
    read = _SCALAR_READERS.get(kind)
    if read is not None:
        return read(r)
    if kind == STRING:
        n = _length(r, op)
        if n < 0:
            return None
        at = r.pos
        raw = r.read_view(n)
        try:
            return str(raw, "utf-8")
        except UnicodeDecodeError as exc:
            raise CorruptDataError(f"invalid UTF-8 ({exc.reason})", r.base + at + exc.start) from None
    if kind == ARRAY:
        n = _length(r, op)
        if n < 0:
            return None
        elem = op.elem
        if n * elem.min_size > r.end - r.pos:
            raise CorruptDataError(
                f"array of {n} elements cannot fit in the {r.end - r.pos} bytes left", r.base + r.pos)
        out = []
        i = 0
        try:
            for i in range(n):
                out.append(decode_value(r, elem))
        except CorruptDataError as exc:
            raise exc.prefix_path(f"[{i}]")
        return out
    if kind == STRUCT:
        if op.nullable:
            at = r.pos
            marker = r.read_int8()
            if marker == -1:
                return None
            if marker != 1:
                raise CorruptDataError(f"bad nullable struct marker {marker}", r.base + at)
        return decode_struct(r, op.child)
    if kind == BOOL:
        at = r.pos
        b = r.read_int8()
        if b != 0 and b != 1:
            raise CorruptDataError(f"bad boolean {b}", r.base + at)
        return b == 1
    if kind == UUID:
        return _UUID_CLS(bytes=r.read_bytes(16))
    if kind == BYTES:
        n = _length(r, op)
        return None if n < 0 else r.read_bytes(n)
    if kind == RECORDS:
        n = _length(r, op)
        return None if n < 0 else r.read_view(n)
    raise AssertionError(kind)


def decode_struct(r, plan):
    obj = plan.cls.__new__(plan.cls)
    op = None
    try:
        for op in plan.ops:
            setattr(obj, op.attr, decode_value(r, op))
    except CorruptDataError as exc:
        raise exc.prefix_path(op.attr)
    for op in plan.absent:
        setattr(obj, op.attr, op.factory() if op.factory is not None else op.default)
    tags = None
    unknown = None
    if plan.flexible:
        try:
            at = r.pos
            count = r.read_uvarint()
            if count > r.end - r.pos:
                raise CorruptDataError(f"{count} tagged fields cannot fit", r.base + at)
            last = -1
            seen = set()
            for _ in range(count):
                at = r.pos
                tag = r.read_uvarint()
                if tag <= last:
                    raise CorruptDataError(f"tagged field {tag} out of order", r.base + at)
                last = tag
                size = r.read_uvarint()
                r.need(size)
                op = plan.by_tag.get(tag)
                if op is None:
                    if unknown is None:
                        unknown = []
                    unknown.append((tag, r.read_bytes(size)))
                    continue
                stop = r.pos + size
                saved_end = r.end
                r.end = stop
                try:
                    value = decode_value(r, op)
                    if r.pos != stop:
                        raise CorruptDataError(
                            f"tagged field {tag} has {stop - r.pos} unread bytes", r.base + r.pos)
                except CorruptDataError as exc:
                    raise exc.prefix_path(op.attr)
                finally:
                    r.end = saved_end
                setattr(obj, op.attr, value)
                seen.add(tag)
            if seen:
                tags = frozenset(seen)
        except CorruptDataError as exc:
            if not exc.path:
                exc.prefix_path("_tagged_fields")
            raise
    for op in plan.tagged:
        if tags is None or op.tag not in tags:
            setattr(obj, op.attr, op.factory() if op.factory is not None else op.default)
    obj._tags = tags
    obj._unknown = unknown
    return obj


def decode(plan, data, start=0, stop=None, base=0):
    """Decode one struct from data[start:stop]; return (object, end position)."""
    r = Reader(data, start, stop, base)
    obj = decode_struct(r, plan)
    return obj, r.pos


# ------------------------------------------------------------------ encode

def _is_default(op, v):
    d = op.default
    if v is d:
        return True
    if op.kind == ARRAY:
        return d is not None and v is not None and len(v) == 0
    if op.kind == RECORDS or op.kind == BYTES:
        return v is not None and d is not None and memoryview(v).nbytes == 0 and len(d) == 0
    try:
        return v == d
    except Exception:
        return False


def _write_length(w, op, n):
    if op.compact:
        w.write_uvarint(n + 1)
    elif op.kind == STRING:
        if n > 32767:
            raise EncodeError(f"string of {n} bytes is too long for a classic string")
        w.write_int16(n)
    else:
        w.write_int32(n)


def encode_value(w, op, v):
    kind = op.kind
    if v is None and kind in (STRING, BYTES, RECORDS, ARRAY, STRUCT):
        if not op.nullable:
            raise EncodeError("None in a non-nullable field")
        if kind == STRUCT:
            w.write_int8(-1)
        elif op.compact:
            w.write_uvarint(0)
        elif kind == STRING:
            w.write_int16(-1)
        else:
            w.write_int32(-1)
        return
    try:
        if kind == INT32:
            w.write_int32(v)
        elif kind == INT16:
            w.write_int16(v)
        elif kind == INT64:
            w.write_int64(v)
        elif kind == INT8:
            w.write_int8(v)
        elif kind == STRING:
            if not isinstance(v, str):
                raise EncodeError(f"expected str, got {type(v).__name__}")
            raw = v.encode("utf-8")
            _write_length(w, op, len(raw))
            w.write_object(raw)
        elif kind == ARRAY:
            _write_length(w, op, len(v))
            elem = op.elem
            i = 0
            try:
                for i, x in enumerate(v):
                    encode_value(w, elem, x)
            except EncodeError as exc:
                raise exc.prefix_path(f"[{i}]")
        elif kind == STRUCT:
            if op.nullable:
                w.write_int8(1)
            encode_struct(w, op.child, v)
        elif kind == BOOL:
            if not isinstance(v, (bool, int)) or v not in (0, 1):
                raise EncodeError(f"expected bool, got {v!r}")
            w.write_int8(1 if v else 0)
        elif kind == UUID:
            raw = v.bytes if isinstance(v, _UUID_CLS) else bytes(v)
            if len(raw) != 16:
                raise EncodeError("a uuid needs 16 bytes")
            w.write_object(raw)
        elif kind == BYTES or kind == RECORDS:
            mv = memoryview(v)
            _write_length(w, op, mv.nbytes)
            w.write_object(mv.cast("B") if mv.ndim != 1 or mv.format != "B" else mv)
        elif kind == UINT16:
            if not 0 <= v <= 0xFFFF:
                raise EncodeError(f"{v} out of range for uint16")
            w.write_int16(v - 0x10000 if v > 0x7FFF else v)
        elif kind == UINT32:
            w.write_uint32(v)
        elif kind == FLOAT64:
            w.write_float64(v)
    except (struct.error, OverflowError, TypeError) as exc:
        raise EncodeError(f"cannot encode {v!r}: {exc}") from None


def encode_struct(w, plan, obj):
    if not isinstance(obj, plan.cls):
        raise EncodeError(f"expected {plan.cls._name}, got {type(obj).__name__}")
    op = None
    try:
        for op in plan.ops:
            encode_value(w, op, getattr(obj, op.attr))
    except EncodeError as exc:
        raise exc.prefix_path(op.attr)
    for op in plan.absent:
        if not op.ignorable and not _is_default(op, getattr(obj, op.attr)):
            raise EncodeError("field is not in this version and is not ignorable", op.attr)
    if not plan.flexible:
        return
    tags = obj._tags
    entries = []
    for op in plan.tagged:
        v = getattr(obj, op.attr)
        if (tags is not None and op.tag in tags) or not _is_default(op, v):
            sub = Writer()
            try:
                encode_value(sub, op, v)
            except EncodeError as exc:
                raise exc.prefix_path(op.attr)
            entries.append((op.tag, sub.to_bytes()))
    if obj._unknown:
        entries.extend(obj._unknown)
        entries.sort(key=lambda e: e[0])
    w.write_uvarint(len(entries))
    for tag, raw in entries:
        w.write_uvarint(tag)
        w.write_uvarint(len(raw))
        w.write_object(raw)


def encode(plan, obj, w=None):
    """Encode obj with plan; append to Writer w (a new one if None); return w."""
    if w is None:
        w = Writer()
    encode_struct(w, plan, obj)
    return w
