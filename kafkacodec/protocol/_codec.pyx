# cython: boundscheck=False, wraparound=False
"""Compiled executor of protocol plans (see `_model`).

Same plan tree and semantics as `_pure_codec`; reads through the bounded
`Reader` and writes through the growable `Writer` of `kafkacodec._buffer`.
"""
cimport cython
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.string cimport memcpy

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        const char *name
        int type
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member
    PyTypeObject PyMemberDescr_Type
    object PyType_GenericAlloc(PyTypeObject *t, Py_ssize_t n)
    object PyList_New(Py_ssize_t n)
    void PyList_SET_ITEM(object lst, Py_ssize_t i, object item)

import uuid as _uuid

from kafkacodec._buffer cimport Reader, Writer
from kafkacodec._buffer import Reader as _ReaderCls, Writer as _WriterCls
from kafkacodec.errors import CorruptDataError, EncodeError

globals()["Writer"] = _WriterCls  # framing calls `impl.Writer()`

cdef enum:
    K_INT8 = 0
    K_INT16 = 1
    K_INT32 = 2
    K_INT64 = 3
    K_UINT16 = 4
    K_UINT32 = 5
    K_FLOAT64 = 6
    K_BOOL = 7
    K_UUID = 8
    K_STRING = 9
    K_BYTES = 10
    K_RECORDS = 11
    K_ARRAY = 12
    K_STRUCT = 13

INT8, INT16, INT32, INT64, UINT16, UINT32, FLOAT64, BOOL, UUID, STRING, BYTES, RECORDS, ARRAY, STRUCT = range(14)
_UUID_CLS = _uuid.UUID


@cython.final
cdef class FieldOp:
    cdef public int kind
    cdef public object attr
    cdef public bint nullable
    cdef public bint compact
    cdef public Py_ssize_t min_size
    cdef public StructPlan child
    cdef public FieldOp elem
    cdef public int tag
    cdef public object default
    cdef public object factory
    cdef public bint ignorable
    cdef Py_ssize_t offset      # slot offset of attr in the owning class

    def __init__(self, kind, attr, nullable, compact, min_size, child, elem):
        self.kind = kind
        self.attr = attr
        self.nullable = nullable
        self.compact = compact
        self.min_size = min_size
        self.child = child
        self.elem = elem
        self.tag = -1
        self.default = None
        self.factory = None
        self.ignorable = False


@cython.final
cdef class StructPlan:
    cdef public object cls
    cdef public tuple ops
    cdef public tuple tagged
    cdef public tuple absent
    cdef public bint flexible
    cdef public Py_ssize_t min_size
    cdef public dict by_tag
    cdef Py_ssize_t tags_offset
    cdef Py_ssize_t unknown_offset

    def __init__(self, cls, ops, tagged, absent, flexible, min_size):
        cdef FieldOp op
        self.cls = cls
        for op in (*ops, *tagged, *absent):
            op.offset = _slot_offset(cls, op.attr)
        self.tags_offset = _slot_offset(cls, "_tags")
        self.unknown_offset = _slot_offset(cls, "_unknown")
        self.ops = tuple(ops)
        self.tagged = tuple(tagged)
        self.absent = tuple(absent)
        self.flexible = flexible
        self.min_size = min_size
        self.by_tag = {op.tag: op for op in tagged}


# Generated classes keep fields in __slots__; the executor reads and writes
# those slots by offset instead of going through attribute lookup.

cdef Py_ssize_t _slot_offset(type cls, str attr) except -1:
    for klass in cls.__mro__:
        desc = klass.__dict__.get(attr)
        if desc is not None:
            if type(desc) is not <type>&PyMemberDescr_Type:
                raise TypeError(f"{cls.__name__}.{attr} is not a slot")
            return (<PyMemberDescrObject *>desc).d_member.offset
    raise TypeError(f"{cls.__name__} has no slot {attr}")


cdef inline object _new_instance(object cls):
    # slots start NULL; decode_struct fills every one of them
    # (generated classes are plain heap types: their tp_alloc is this one)
    return PyType_GenericAlloc(<PyTypeObject *>cls, 0)


cdef inline void _set_slot(object obj, Py_ssize_t offset, object value) noexcept:
    cdef PyObject **p = <PyObject **>((<char *><PyObject *>obj) + offset)
    cdef PyObject *old = p[0]
    Py_INCREF(value)
    p[0] = <PyObject *>value
    Py_XDECREF(old)


cdef inline object _get_slot(object obj, Py_ssize_t offset, object attr):
    cdef PyObject *v = (<PyObject **>((<char *><PyObject *>obj) + offset))[0]
    if v is NULL:
        raise AttributeError(attr)
    return <object>v


_SAFE_UNKNOWN = _uuid.SafeUUID.unknown
# uuid.UUID keeps its state in two slots; filling them directly skips its
# Python-level __init__, which costs more than the rest of a small struct.
cdef Py_ssize_t _UUID_INT = _slot_offset(_UUID_CLS, "int")
cdef Py_ssize_t _UUID_SAFE = _slot_offset(_UUID_CLS, "is_safe")


cdef object _make_uuid(const uint8_t *p):
    cdef uint64_t hi = 0, lo = 0
    cdef int i
    for i in range(8):
        hi = (hi << 8) | p[i]
        lo = (lo << 8) | p[8 + i]
    u = PyType_GenericAlloc(<PyTypeObject *>_UUID_CLS, 0)
    _set_slot(u, _UUID_INT, (<object>hi << 64) | <object>lo)
    _set_slot(u, _UUID_SAFE, _SAFE_UNKNOWN)
    return u


# ------------------------------------------------------------------ decode

cdef Py_ssize_t _length(Reader r, FieldOp op) except -2:
    cdef Py_ssize_t at = r.pos
    cdef int64_t n
    if op.compact:
        if r.pos < r.end and r.buf[r.pos] < 0x80:
            n = <int64_t>r.buf[r.pos] - 1  # one-byte length: the common case
            r.pos += 1
        else:
            n = r.read_uvarint() - 1
    elif op.kind == K_STRING:
        n = r.read_int16()
    else:
        n = r.read_int32()
    if n < -1:
        raise CorruptDataError(f"negative length {n}", r.base + at)
    if n == -1 and not op.nullable:
        raise CorruptDataError("null in a non-nullable field", r.base + at)
    return <Py_ssize_t>n


cdef object decode_value(Reader r, FieldOp op):
    cdef int kind = op.kind
    cdef Py_ssize_t n, i, at
    cdef const uint8_t *p
    cdef object out, v
    cdef FieldOp elem
    cdef int b
    if kind == K_INT32:
        return r.read_int32()
    if kind == K_INT16:
        return r.read_int16()
    if kind == K_INT64:
        return r.read_int64()
    if kind == K_INT8:
        return r.read_int8()
    if kind == K_STRING:
        n = _length(r, op)
        if n < 0:
            return None
        at = r.pos
        p = r.read_raw(n)
        try:
            return PyUnicode_DecodeUTF8(<const char *>p, n, "strict")
        except UnicodeDecodeError as exc:
            raise CorruptDataError(f"invalid UTF-8 ({exc.reason})", r.base + at + exc.start) from None
    if kind == K_ARRAY:
        n = _length(r, op)
        if n < 0:
            return None
        elem = op.elem
        if n > 0 and n > (r.end - r.pos) // elem.min_size:
            raise CorruptDataError(
                f"array of {n} elements cannot fit in the {r.end - r.pos} bytes left", r.base + r.pos)
        # n was checked against the bytes left, so this allocation is bounded
        # by the input size; unfilled slots stay NULL, which list_dealloc allows
        out = PyList_New(n)
        i = 0
        try:
            if elem.kind == K_INT32:
                for i in range(n):
                    v = r.read_int32()
                    Py_INCREF(v)
                    PyList_SET_ITEM(out, i, v)
            elif elem.kind == K_STRUCT and not elem.nullable:
                for i in range(n):
                    v = decode_struct(r, elem.child)
                    Py_INCREF(v)
                    PyList_SET_ITEM(out, i, v)
            else:
                for i in range(n):
                    v = decode_value(r, elem)
                    Py_INCREF(v)
                    PyList_SET_ITEM(out, i, v)
        except CorruptDataError as exc:
            raise exc.prefix_path(f"[{i}]")
        return out
    if kind == K_STRUCT:
        if op.nullable:
            at = r.pos
            b = r.read_int8()
            if b == -1:
                return None
            if b != 1:
                raise CorruptDataError(f"bad nullable struct marker {b}", r.base + at)
        return decode_struct(r, op.child)
    if kind == K_BOOL:
        at = r.pos
        b = r.read_int8()
        if b != 0 and b != 1:
            raise CorruptDataError(f"bad boolean {b}", r.base + at)
        return b == 1
    if kind == K_UUID:
        return _make_uuid(r.read_raw(16))
    if kind == K_BYTES:
        n = _length(r, op)
        return None if n < 0 else r.read_bytes(n)
    if kind == K_RECORDS:
        n = _length(r, op)
        return None if n < 0 else r.read_view(n)
    if kind == K_UINT16:
        return r.read_uint16()
    if kind == K_UINT32:
        return r.read_uint32()
    if kind == K_FLOAT64:
        return r.read_float64()
    raise AssertionError(kind)


cdef inline object _default_of(FieldOp op):
    return op.factory() if op.factory is not None else op.default


cdef object decode_struct(Reader r, StructPlan plan):
    obj = _new_instance(plan.cls)
    cdef FieldOp op = None
    cdef Py_ssize_t count, k, at, size, stop, saved_end
    cdef int64_t tag, last
    try:
        for op in plan.ops:
            # the common fixed-width fields skip the generic dispatcher
            if op.kind == K_INT32:
                _set_slot(obj, op.offset, r.read_int32())
            elif op.kind == K_INT16:
                _set_slot(obj, op.offset, r.read_int16())
            else:
                _set_slot(obj, op.offset, decode_value(r, op))
    except CorruptDataError as exc:
        raise exc.prefix_path(op.attr)
    for op in plan.absent:
        _set_slot(obj, op.offset, _default_of(op))
    tags = None
    unknown = None
    if plan.flexible and r.pos < r.end and r.buf[r.pos] == 0:
        r.pos += 1  # empty tagged-field section: the usual case
    elif plan.flexible:
        try:
            at = r.pos
            count = r.read_uvarint()
            if count > r.end - r.pos:
                raise CorruptDataError(f"{count} tagged fields cannot fit", r.base + at)
            last = -1
            seen = None
            for k in range(count):
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
                _set_slot(obj, op.offset, value)
                if seen is None:
                    seen = set()
                seen.add(tag)
            if seen:
                tags = frozenset(seen)
        except CorruptDataError as exc:
            if not exc.path:
                exc.prefix_path("_tagged_fields")
            raise
    for op in plan.tagged:
        if tags is None or op.tag not in tags:
            _set_slot(obj, op.offset, _default_of(op))
    _set_slot(obj, plan.tags_offset, tags)
    _set_slot(obj, plan.unknown_offset, unknown)
    return obj


def decode(StructPlan plan, data, Py_ssize_t start=0, stop=None, Py_ssize_t base=0):
    """Decode one struct from data[start:stop]; return (object, end position)."""
    cdef Reader r = _ReaderCls(data, start, stop, base)
    obj = decode_struct(r, plan)
    return obj, r.pos


# ------------------------------------------------------------------ encode

cdef bint _is_default(FieldOp op, object v) except -1:
    d = op.default
    if v is d:
        return True
    if op.kind == K_ARRAY:
        return d is not None and v is not None and len(v) == 0
    if op.kind == K_RECORDS or op.kind == K_BYTES:
        return v is not None and d is not None and memoryview(v).nbytes == 0 and len(d) == 0
    try:
        return bool(v == d)
    except Exception:
        return False


cdef int _write_length(Writer w, FieldOp op, Py_ssize_t n) except -1:
    if op.compact:
        if n + 1 > 0xFFFFFFFF:
            raise EncodeError(f"length {n} too large")
        w.write_uvarint(<unsigned int>(n + 1))
    elif op.kind == K_STRING:
        if n > 32767:
            raise EncodeError(f"string of {n} bytes is too long for a classic string")
        w.write_int16(<short>n)
    else:
        if n > 0x7FFFFFFF:
            raise EncodeError(f"length {n} too large")
        w.write_int32(<int>n)
    return 0


cdef _prefix(exc, str segment):
    path = getattr(exc, "path", "")
    if not path:
        path = segment
    elif path.startswith("["):
        path = segment + path
    else:
        path = segment + "." + path
    exc.path = path
    if exc.args:
        base = str(exc.args[0]).split(" in `")[0]
        exc.args = (f"{base} in `{path}`",)
    return exc


cdef int encode_value(Writer w, FieldOp op, object v) except -1:
    cdef int kind = op.kind
    cdef Py_ssize_t i
    cdef FieldOp elem
    if v is None and (kind == K_STRING or kind == K_BYTES or kind == K_RECORDS
                      or kind == K_ARRAY or kind == K_STRUCT):
        if not op.nullable:
            raise EncodeError("None in a non-nullable field")
        if kind == K_STRUCT:
            w.write_int8(-1)
        elif op.compact:
            w.write_uvarint(0)
        elif kind == K_STRING:
            w.write_int16(-1)
        else:
            w.write_int32(-1)
        return 0
    try:
        if kind == K_INT32:
            w.write_int32(v)
        elif kind == K_INT16:
            w.write_int16(v)
        elif kind == K_INT64:
            w.write_int64(v)
        elif kind == K_INT8:
            w.write_int8(v)
        elif kind == K_STRING:
            if type(v) is not str and not isinstance(v, str):
                raise EncodeError(f"expected str, got {type(v).__name__}")
            raw = (<str>v).encode("utf-8")
            _write_length(w, op, len(raw))
            w.write_object(raw)
        elif kind == K_ARRAY:
            _write_length(w, op, len(v))
            elem = op.elem
            i = 0
            try:
                for x in v:
                    encode_value(w, elem, x)
                    i += 1
            except EncodeError as exc:
                raise _prefix(exc, f"[{i}]")
        elif kind == K_STRUCT:
            if op.nullable:
                w.write_int8(1)
            encode_struct(w, op.child, v)
        elif kind == K_BOOL:
            if not isinstance(v, int) or (v != 0 and v != 1):
                raise EncodeError(f"expected bool, got {v!r}")
            w.write_int8(1 if v else 0)
        elif kind == K_UUID:
            raw = v.bytes if isinstance(v, _UUID_CLS) else bytes(v)
            if len(raw) != 16:
                raise EncodeError("a uuid needs 16 bytes")
            w.write_object(raw)
        elif kind == K_BYTES or kind == K_RECORDS:
            if isinstance(v, bytes):
                _write_length(w, op, len(<bytes>v))
                w.write_object(v)
            else:
                mv = memoryview(v)
                _write_length(w, op, mv.nbytes)
                w.write_object(mv)
        elif kind == K_UINT16:
            if not 0 <= v <= 0xFFFF:
                raise EncodeError(f"{v} out of range for uint16")
            w.write_int16(v - 0x10000 if v > 0x7FFF else v)
        elif kind == K_UINT32:
            w.write_uint32(v)
        elif kind == K_FLOAT64:
            w.write_float64(v)
    except (OverflowError, TypeError) as exc:
        raise EncodeError(f"cannot encode {v!r}: {exc}") from None
    return 0


cdef int encode_struct(Writer w, StructPlan plan, object obj) except -1:
    cdef FieldOp op = None
    cdef list entries
    cdef Writer sub
    if not isinstance(obj, plan.cls):
        raise EncodeError(f"expected {plan.cls._name}, got {type(obj).__name__}")
    try:
        for op in plan.ops:
            encode_value(w, op, _get_slot(obj, op.offset, op.attr))
    except EncodeError as exc:
        raise _prefix(exc, op.attr)
    for op in plan.absent:
        if not op.ignorable and not _is_default(op, _get_slot(obj, op.offset, op.attr)):
            raise _prefix(EncodeError("field is not in this version and is not ignorable"), op.attr)
    if not plan.flexible:
        return 0
    tags = _get_slot(obj, plan.tags_offset, "_tags")
    entries = []
    for op in plan.tagged:
        v = _get_slot(obj, op.offset, op.attr)
        if (tags is not None and op.tag in tags) or not _is_default(op, v):
            sub = _WriterCls()
            try:
                encode_value(sub, op, v)
            except EncodeError as exc:
                raise _prefix(exc, op.attr)
            entries.append((op.tag, sub.to_bytes()))
    unknown = _get_slot(obj, plan.unknown_offset, "_unknown")
    if unknown:
        entries.extend(unknown)
        entries.sort(key=lambda e: e[0])
    w.write_uvarint(len(entries))
    for tag, raw in entries:
        w.write_uvarint(tag)
        w.write_uvarint(len(raw))
        w.write_object(raw)
    return 0


def encode(StructPlan plan, obj, Writer w=None):
    """Encode obj with plan; append to Writer w (a new one if None); return w."""
    if w is None:
        w = _WriterCls()
    encode_struct(w, plan, obj)
    return w
