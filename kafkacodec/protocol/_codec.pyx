# cython: boundscheck=False, wraparound=False
"""Compiled executor of protocol plans (see `_model`).

Same plan tree and semantics as `_pure_codec`; reads through the bounded
`Reader` and writes through the growable `Writer` of `kafkacodec._buffer`.
"""
cimport cython
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy
from cpython.mem cimport PyMem_Malloc, PyMem_Free

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
    object _PyLong_FromByteArray(const unsigned char *p, size_t n, int little_endian, int is_signed)
    const char *PyUnicode_AsUTF8AndSize(object s, Py_ssize_t *size) except NULL

cdef extern from "kc_cpython.h":
    int kc_cpython_check() except -1
    int kc_install_dealloc(object cls) except -1

kc_cpython_check()

import uuid as _uuid

from kafkacodec._buffer cimport (Reader, Writer, cur_be, cur_peek, cur_take,
                                 cur_uvarint)
from kafkacodec._primitives cimport KC_OK, kc_load_be16, kc_load_be32, kc_load_be64
from kafkacodec._buffer import Reader as _ReaderCls, Writer as _WriterCls
from kafkacodec.errors import CorruptDataError, EncodeError
from kafkacodec.protocol import _lenient

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
    cdef public object lenient  # set by _lenient.apply: (bytes left when absent or -1, debug line)
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
        self.lenient = None


@cython.final
cdef class StructPlan:
    cdef public object cls
    cdef readonly tuple ops     # readonly: c_ops borrows from it
    cdef public tuple tagged
    cdef public tuple absent
    cdef public bint flexible
    cdef public Py_ssize_t min_size
    cdef public dict by_tag
    cdef Py_ssize_t tags_offset
    cdef Py_ssize_t unknown_offset
    cdef PyObject **c_ops       # borrowed from self.ops: no type test per field
    cdef Py_ssize_t n_ops

    def __init__(self, cls, ops, tagged, absent, flexible, min_size):
        cdef FieldOp op
        cdef Py_ssize_t i
        self.cls = cls
        kc_install_dealloc(cls)
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
        self.n_ops = len(self.ops)
        self.c_ops = <PyObject **>PyMem_Malloc(max(self.n_ops, 1) * sizeof(PyObject *))
        if self.c_ops == NULL:
            raise MemoryError()
        for i in range(self.n_ops):
            self.c_ops[i] = <PyObject *>self.ops[i]

    def __dealloc__(self):
        PyMem_Free(self.c_ops)


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


# Ints decoded from the wire are mostly small (partition indexes, node ids, epochs,
# error codes): hand out shared objects for them instead of a call per value.
cdef enum:
    SMALL_MIN = -1
    SMALL_MAX = 1024
cdef PyObject *_small_ints[SMALL_MAX - SMALL_MIN]
_small_ints_owner = list(range(SMALL_MIN, SMALL_MAX))  # keeps them alive
for _i in range(SMALL_MAX - SMALL_MIN):
    _small_ints[_i] = <PyObject *>_small_ints_owner[_i]


cdef inline object _int(int64_t v):
    if SMALL_MIN <= v < SMALL_MAX:
        return <object>_small_ints[v - SMALL_MIN]
    return v


_SAFE_UNKNOWN = _uuid.SafeUUID.unknown
# uuid.UUID keeps its state in two slots; filling them directly skips its
# Python-level __init__, which costs more than the rest of a small struct.
cdef Py_ssize_t _UUID_INT = _slot_offset(_UUID_CLS, "int")
cdef Py_ssize_t _UUID_SAFE = _slot_offset(_UUID_CLS, "is_safe")


cdef object _make_uuid(const uint8_t *p):
    u = PyType_GenericAlloc(<PyTypeObject *>_UUID_CLS, 0)
    _set_slot(u, _UUID_INT, _PyLong_FromByteArray(p, 16, 0, 0))
    _set_slot(u, _UUID_SAFE, _SAFE_UNKNOWN)
    return u


# ------------------------------------------------------------------ field paths
# Errors name the field they happened in ("topics[3].partitions[0].records").
# Rather than a try/except at every level (each one saves and restores the
# exception state, a measurable cost per struct and per array), the executors
# keep a small stack of where they are in a C struct owned by the entry point;
# an error skips the pops, so the entry point reads the path off the stack.

cdef enum:
    MAX_DEPTH = 128
    SEG_FIELD = 0   # frame.ref is the FieldOp being handled (NULL: none yet)
    SEG_INDEX = 1   # frame.index is an array element index
    SEG_TAGS = 2    # the tagged-field section of a struct


cdef struct Frame:
    int kind
    PyObject *ref
    Py_ssize_t index


cdef struct Ctx:
    int depth
    Py_ssize_t str_at           # offset of the string being decoded (UTF-8 errors)
    Frame frames[MAX_DEPTH]


cdef inline Frame *_push(Ctx *ctx, int kind) except NULL:
    cdef Frame *f
    if ctx.depth >= MAX_DEPTH:
        raise CorruptDataError("structures nested too deeply")
    f = &ctx.frames[ctx.depth]
    f.kind = kind
    f.ref = NULL
    f.index = 0
    ctx.depth += 1
    return f


cdef str _path_of(Ctx *ctx):
    cdef list parts = []
    cdef Frame *f
    cdef int i
    for i in range(ctx.depth):
        f = &ctx.frames[i]
        if f.kind == SEG_INDEX:
            parts.append(f"[{f.index}]")
            continue
        if f.kind == SEG_TAGS:
            seg = "_tagged_fields"
        elif f.ref != NULL and (<FieldOp>f.ref).attr is not None:
            seg = (<FieldOp>f.ref).attr
        else:
            continue
        parts.append("." + seg if parts else seg)
    return "".join(parts)


# ------------------------------------------------------------------ decode

cdef Py_ssize_t _length(Reader r, FieldOp op) except -2:
    cdef Py_ssize_t at = r.cur.pos
    cdef int64_t n
    cdef uint32_t u
    cdef int rc
    if op.lenient is not None and r.cur.end - r.cur.pos == op.lenient[0]:
        _lenient.note(op.lenient[1])  # a peer left the field out (_lenient.ABSENT_AS_EMPTY)
        return 0
    if op.compact:
        rc = cur_uvarint(&r.cur, &u)
        if rc != KC_OK:
            r.fail(rc, 0)
        n = <int64_t>u - 1
    elif op.kind == K_STRING:
        n = r.read_int16()
    else:
        n = r.read_int32()
    if n < -1:
        raise CorruptDataError(f"negative length {n}", r.cur.base + at)
    if n == -1 and not op.nullable:
        if op.lenient is not None and op.lenient[0] < 0:
            _lenient.note(op.lenient[1])  # a peer wrote null where it may not (_lenient.NULL_AS_EMPTY)
            return 0
        raise CorruptDataError("null in a non-nullable field", r.cur.base + at)
    return <Py_ssize_t>n


cdef inline object _new_list(Py_ssize_t n):
    # callers checked n against the bytes left, so this allocation is bounded
    # by the input size; unfilled slots stay NULL, which list_dealloc allows
    return PyList_New(n)


cdef object _decode_array(Reader r, FieldOp op, Ctx *ctx):
    cdef Py_ssize_t n = _length(r, op)
    cdef Py_ssize_t i
    cdef FieldOp elem
    cdef const uint8_t *p
    cdef Frame *f
    cdef object v
    if n < 0:
        return None
    elem = op.elem
    # n < 2^32 and min_size is small: the product cannot overflow (and needs no division)
    if n > 0 and <int64_t>n * elem.min_size > r.cur.end - r.cur.pos:
        raise CorruptDataError(
            f"array of {n} elements cannot fit in the {r.cur.end - r.cur.pos} bytes left", r.cur.base + r.cur.pos)
    out = _new_list(n)
    if elem.kind == K_INT32 and cur_take(&r.cur, 4 * n, &p) == KC_OK:
        # fixed width: one bounds check for the whole array (min_size is 4)
        for i in range(n):
            v = _int(<int32_t>kc_load_be32(p + 4 * i))
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
        return out
    f = _push(ctx, SEG_INDEX)
    if elem.kind == K_STRUCT and not elem.nullable:
        for i in range(n):
            f.index = i
            v = decode_struct(r, elem.child, ctx)
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
    else:
        for i in range(n):
            f.index = i
            v = decode_value(r, elem, ctx)
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
    ctx.depth -= 1
    return out


cdef object decode_value(Reader r, FieldOp op, Ctx *ctx):
    cdef int kind = op.kind
    cdef Py_ssize_t n, at
    cdef const uint8_t *p
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
        ctx.str_at = r.cur.base + r.cur.pos
        p = r.read_raw(n)
        # a UnicodeDecodeError is turned into CorruptDataError by the entry point
        return PyUnicode_DecodeUTF8(<const char *>p, n, "strict")
    if kind == K_ARRAY:
        return _decode_array(r, op, ctx)
    if kind == K_STRUCT:
        if op.nullable:
            at = r.cur.pos
            b = r.read_int8()
            if b == -1:
                return None
            if b != 1:
                raise CorruptDataError(f"bad nullable struct marker {b}", r.cur.base + at)
        return decode_struct(r, op.child, ctx)
    if kind == K_BOOL:
        at = r.cur.pos
        b = r.read_int8()
        if b != 0 and b != 1:
            raise CorruptDataError(f"bad boolean {b}", r.cur.base + at)
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


cdef object decode_struct(Reader r, StructPlan plan, Ctx *ctx):
    obj = _new_instance(plan.cls)
    cdef FieldOp op
    cdef Frame *f = _push(ctx, SEG_FIELD)
    cdef Py_ssize_t count, k, at, size, stop, saved_end
    cdef int64_t tag, last
    cdef uint16_t u16
    cdef uint32_t u32
    cdef uint64_t u64
    for k in range(plan.n_ops):
        op = <FieldOp>plan.c_ops[k]
        f.ref = <PyObject *>op
        # the common fixed-width fields skip the generic dispatcher
        # (a truncated one falls through to decode_value, which raises)
        if op.kind == K_INT32 and cur_be(&r.cur, &u32) == KC_OK:
            _set_slot(obj, op.offset, _int(<int32_t>u32))
        elif op.kind == K_INT16 and cur_be(&r.cur, &u16) == KC_OK:
            _set_slot(obj, op.offset, _int(<int16_t>u16))
        elif op.kind == K_INT64 and cur_be(&r.cur, &u64) == KC_OK:
            _set_slot(obj, op.offset, <int64_t>u64)
        elif op.kind == K_ARRAY:
            _set_slot(obj, op.offset, _decode_array(r, op, ctx))
        else:
            _set_slot(obj, op.offset, decode_value(r, op, ctx))
    for op in plan.absent:
        _set_slot(obj, op.offset, _default_of(op))
    tags = None
    unknown = None
    if plan.flexible and cur_peek(&r.cur) == 0:
        r.cur.pos += 1  # empty tagged-field section: the usual case
    elif plan.flexible:
        f.kind = SEG_TAGS
        at = r.cur.pos
        count = r.read_uvarint()
        if count > r.cur.end - r.cur.pos:
            raise CorruptDataError(f"{count} tagged fields cannot fit", r.cur.base + at)
        last = -1
        seen = None
        for k in range(count):
            f.kind = SEG_TAGS
            at = r.cur.pos
            tag = r.read_uvarint()
            if tag <= last:
                raise CorruptDataError(f"tagged field {tag} out of order", r.cur.base + at)
            last = tag
            size = r.read_uvarint()
            r.need(size)
            op = plan.by_tag.get(tag)
            if op is None:
                if unknown is None:
                    unknown = []
                unknown.append((tag, r.read_bytes(size)))
                continue
            f.kind = SEG_FIELD
            f.ref = <PyObject *>op
            stop = r.cur.pos + size
            saved_end = r.cur.end
            r.cur.end = stop  # an error leaves r.cur.end narrowed: the reader is dropped then
            value = decode_value(r, op, ctx)
            if r.cur.pos != stop:
                raise CorruptDataError(
                    f"tagged field {tag} has {stop - r.cur.pos} unread bytes", r.cur.base + r.cur.pos)
            r.cur.end = saved_end
            _set_slot(obj, op.offset, value)
            if seen is None:
                seen = set()
            seen.add(tag)
        if seen:
            tags = frozenset(seen)
    for op in plan.tagged:
        if tags is None or op.tag not in tags:
            _set_slot(obj, op.offset, _default_of(op))
    _set_slot(obj, plan.tags_offset, tags)
    _set_slot(obj, plan.unknown_offset, unknown)
    ctx.depth -= 1
    return obj


def decode(StructPlan plan, data, Py_ssize_t start=0, stop=None, Py_ssize_t base=0):
    """Decode one struct from data[start:stop]; return (object, end position)."""
    cdef Reader r = _ReaderCls(data, start, stop, base)
    cdef Ctx ctx
    ctx.depth = 0
    ctx.str_at = 0
    try:
        obj = decode_struct(r, plan, &ctx)
    except CorruptDataError as exc:
        path = _path_of(&ctx)
        if path:
            exc.prefix_path(path)
        raise
    except UnicodeDecodeError as exc:
        err = CorruptDataError(f"invalid UTF-8 ({exc.reason})", ctx.str_at + exc.start)
        path = _path_of(&ctx)
        if path:
            err.prefix_path(path)
        raise err from None
    return obj, r.cur.pos


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


cdef object _with_path(exc, str path):
    if path:
        exc.prefix_path(path)
    return exc


cdef int _encode_array(Writer w, FieldOp op, object v, Ctx *ctx) except -1:
    cdef FieldOp elem = op.elem
    cdef Frame *f
    cdef Py_ssize_t i = 0
    _write_length(w, op, len(v))
    f = _push(ctx, SEG_INDEX)
    if elem.kind == K_STRUCT and not elem.nullable:
        for x in v:
            f.index = i
            encode_struct(w, elem.child, x, ctx)
            i += 1
    else:
        for x in v:
            f.index = i
            encode_value(w, elem, x, ctx)
            i += 1
    ctx.depth -= 1
    return 0


cdef int encode_value(Writer w, FieldOp op, object v, Ctx *ctx) except -1:
    cdef int kind = op.kind
    cdef Py_ssize_t n
    cdef const char *s
    # OverflowError/TypeError from the C conversions below become EncodeError
    # at the entry point
    if kind == K_INT32:
        w.write_int32(v)
    elif kind == K_INT16:
        w.write_int16(v)
    elif kind == K_INT64:
        w.write_int64(v)
    elif kind == K_INT8:
        w.write_int8(v)
    elif v is None and (kind == K_STRING or kind == K_BYTES or kind == K_RECORDS
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
    elif kind == K_STRING:
        if not isinstance(v, str):
            raise EncodeError(f"expected str, got {type(v).__name__}")
        # the str's own UTF-8 (for ASCII text, its storage): no bytes object
        s = PyUnicode_AsUTF8AndSize(v, &n)
        _write_length(w, op, n)
        w.write_raw(s, n)
    elif kind == K_ARRAY:
        _encode_array(w, op, v, ctx)
    elif kind == K_STRUCT:
        if op.nullable:
            w.write_int8(1)
        encode_struct(w, op.child, v, ctx)
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
    return 0


cdef int encode_struct(Writer w, StructPlan plan, object obj, Ctx *ctx) except -1:
    cdef FieldOp op
    cdef list entries
    cdef Writer sub
    cdef Frame *f
    cdef Py_ssize_t k
    if not isinstance(obj, plan.cls):
        raise EncodeError(f"expected {plan.cls._name}, got {type(obj).__name__}")
    f = _push(ctx, SEG_FIELD)
    for k in range(plan.n_ops):
        op = <FieldOp>plan.c_ops[k]
        f.ref = <PyObject *>op
        v = _get_slot(obj, op.offset, op.attr)
        if op.kind == K_INT32:
            w.write_int32(v)
        elif op.kind == K_ARRAY and v is not None:
            _encode_array(w, op, v, ctx)
        else:
            encode_value(w, op, v, ctx)
    for op in plan.absent:
        f.ref = <PyObject *>op
        if not op.ignorable and not _is_default(op, _get_slot(obj, op.offset, op.attr)):
            raise EncodeError("field is not in this version and is not ignorable")
    if plan.flexible:
        tags = _get_slot(obj, plan.tags_offset, "_tags")
        unknown = _get_slot(obj, plan.unknown_offset, "_unknown")
        if not plan.tagged and not unknown:
            w.write_int8(0)  # no tagged fields: the usual case
        else:
            entries = []
            for op in plan.tagged:
                f.ref = <PyObject *>op
                v = _get_slot(obj, op.offset, op.attr)
                if (tags is not None and op.tag in tags) or not _is_default(op, v):
                    sub = _WriterCls()
                    encode_value(sub, op, v, ctx)
                    entries.append((op.tag, sub.to_bytes()))
            if unknown:
                entries.extend(unknown)
                entries.sort(key=lambda e: e[0])
            w.write_uvarint(len(entries))
            for tag, raw in entries:
                w.write_uvarint(tag)
                w.write_uvarint(len(raw))
                w.write_object(raw)
    ctx.depth -= 1
    return 0


cdef object _value_at(object obj, Ctx *ctx):
    # the failing value, found again from the path (nothing is kept while encoding)
    cdef Frame *f
    cdef int i
    v = obj
    try:
        for i in range(ctx.depth):
            f = &ctx.frames[i]
            if f.kind == SEG_INDEX:
                v = v[f.index]
            elif f.kind == SEG_FIELD and f.ref != NULL and (<FieldOp>f.ref).attr is not None:
                v = getattr(v, (<FieldOp>f.ref).attr)
    except Exception:
        return "value"
    return v


def encode(StructPlan plan, obj, Writer w=None):
    """Encode obj with plan; append to Writer w (a new one if None); return w."""
    cdef Ctx ctx
    ctx.depth = 0
    if w is None:
        w = _WriterCls()
    try:
        encode_struct(w, plan, obj, &ctx)
    except EncodeError as exc:
        raise _with_path(exc, _path_of(&ctx))
    except (OverflowError, TypeError, UnicodeEncodeError) as exc:
        err = EncodeError(f"cannot encode {_value_at(obj, &ctx)!r}: {exc}")
        raise _with_path(err, _path_of(&ctx)) from None
    return w
