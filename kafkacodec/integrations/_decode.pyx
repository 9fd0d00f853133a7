# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The client adapters' consumer side, compiled: a whole v2 batch becomes the
client's own record objects in one call, so the client's per-record Python
loop shrinks to bookkeeping (the producer side is _build.pyx; the pure twin of
this module is _decode_py.py).  Every function is
conservative: on anything the client's decoder could read differently or
reject (corrupt or truncated bytes, an attributes byte >= 0x80 that the client
reads as a multi-byte varint, a header key that is not UTF-8, a codec
kafkacodec cannot inflate) it returns None and the caller lets the client's
own decoder handle the batch, so errors stay the client's.
"""
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t

from kafkacodec._primitives cimport kc_load_be16, kc_load_be32, kc_load_be64
from kafkacodec.records._layout cimport *
from kafkacodec.records._v2 cimport RecordView, parse_v2_record, next_header, v2_base_offset_ok

import kafkacodec.records.compression as _compression

cdef extern from "kc_cpython.h":
    int kc_cpython_check() except -1
    object kc_accel_alloc(object cls, Py_ssize_t n)
    object kc_accel_new(object cls, object args)
    void PyObject_GC_UnTrack(object o)

kc_cpython_check()

cdef enum:
    KP_FIELDS = 13
    KP_RECORD_FIELDS = 7

cdef object _decompress = _compression.decompress


cdef int _check_record_type(object cls, Py_ssize_t fields) except -1:
    # Filling slots directly is only sound for a plain tuple subclass of the
    # expected width: no instance dict, no extra slots.
    if not isinstance(cls, type) or not issubclass(cls, tuple):
        raise TypeError(f"{cls!r} is not a tuple subclass")
    if ((<PyTypeObject *>cls).tp_basicsize != (<PyTypeObject *>tuple).tp_basicsize
            or (<PyTypeObject *>cls).tp_dictoffset != 0):
        raise TypeError(f"{cls!r} has instance attributes beyond the tuple")
    if len(getattr(cls, "_fields", ())) != fields:
        raise TypeError(f"{cls!r} does not have {fields} fields")
    return 0


cdef inline object _bytes_or_none(const uint8_t *p, int32_t n):
    if n < 0:
        return None
    return PyBytes_FromStringAndSize(<const char *>p, n)


cdef inline void _set(object tup, Py_ssize_t i, object v):
    Py_INCREF(v)
    PyTuple_SET_ITEM(tup, i, v)


cdef struct OpenBatch:
    int64_t base_offset
    int64_t base_ts
    int64_t max_ts
    int32_t count
    bint append_time
    const uint8_t *base          # the records section (inflated when compressed)
    Py_ssize_t pos
    Py_ssize_t end


cdef object _open_batch(const uint8_t *p, Py_ssize_t n, object data, OpenBatch *b):
    # The batch header and its records section.  Returns what keeps the
    # records section alive, or None for anything the client's own decoder
    # must see (its records and errors are then the client's).
    cdef int attrs, codec
    cdef bytes out
    if n < V2_RECORDS:
        return None
    b.base_offset = <int64_t>kc_load_be64(p + V2_BASE_OFFSET)
    if not v2_base_offset_ok(b.base_offset):
        return None  # record offsets could overflow: the client's decoder decides
    attrs = <int16_t>kc_load_be16(p + V2_ATTRIBUTES)
    b.base_ts = <int64_t>kc_load_be64(p + V2_BASE_TIMESTAMP)
    b.max_ts = <int64_t>kc_load_be64(p + V2_MAX_TIMESTAMP)
    b.count = <int32_t>kc_load_be32(p + V2_RECORD_COUNT)
    codec = attrs & 7
    b.append_time = (attrs >> 3) & 1
    if codec == 0:
        b.base = p
        b.pos = V2_RECORDS
        b.end = n
    elif codec <= 4:
        try:
            out = _decompress(codec, memoryview(data)[V2_RECORDS:], magic=2)
        except Exception:
            return None
        b.base = <const uint8_t *>PyBytes_AS_STRING(out)
        b.pos = 0
        b.end = PyBytes_GET_SIZE(out)
        data = out
    else:
        return None
    if b.count < 0 or <int64_t>b.count * V2_MIN_RECORD_SIZE > b.end - b.pos:
        return None
    return data


cdef inline bint _next_record(OpenBatch *b, RecordView *r) noexcept nogil:
    # The record at b.pos, stepping past it; False for anything the client's
    # decoder must judge (malformed, or a record attributes byte it knows nothing of).
    if parse_v2_record(b.base, b.pos, b.end, r) != 0 or b.base[r.end - r.length] & 0x80:
        return False
    b.pos = r.end
    return True


cdef inline int64_t _timestamp(const OpenBatch *b, const RecordView *r) noexcept nogil:
    return b.max_ts if b.append_time else b.base_ts + r.timestamp_delta


cdef inline void _set_record_fields(object rec, Py_ssize_t at, const OpenBatch *b, const RecordView *r,
                                    object ts_type):
    # offset, timestamp, timestamp type, key and value, from field `at` on
    _set(rec, at, b.base_offset + r.offset_delta)
    _set(rec, at + 1, _timestamp(b, r))
    _set(rec, at + 2, ts_type)
    _set(rec, at + 3, _bytes_or_none(b.base + r.key_pos, r.key_len))
    _set(rec, at + 4, _bytes_or_none(b.base + r.value_pos, r.value_len))


cdef object _utf8_or_none(const uint8_t *p, int32_t n):
    # A header key, or None when it is not UTF-8 (the client's decoder reports that).
    try:
        return PyUnicode_DecodeUTF8(<const char *>p, n, NULL)
    except UnicodeDecodeError:
        return None


cdef object _kp_records(object cls, const uint8_t *p, Py_ssize_t n, object data,
                        object topic, object partition, object leader_epoch, bint consumer,
                        bint untrack=False):
    cdef int32_t i, j, klen = 0, vlen = 0
    cdef Py_ssize_t kpos = 0, vpos = 0, hpos
    cdef Py_ssize_t header_size
    cdef const uint8_t *base
    cdef RecordView r
    cdef object keep
    cdef OpenBatch b
    cdef list out = [], sizes = [], headers
    keep = _open_batch(p, n, data, &b)
    if keep is None:
        return None
    base = b.base
    ts_type = 1 if b.append_time else 0
    for i in range(b.count):
        if not _next_record(&b, &r):
            return None
        if r.header_count:
            headers = []
            hpos = r.headers_pos
            header_size = 0
            for j in range(r.header_count):
                hpos = next_header(base, hpos, &kpos, &klen, &vpos, &vlen)
                hkey = _utf8_or_none(base + kpos, klen)
                if hkey is None:
                    return None
                headers.append((hkey, _bytes_or_none(base + vpos, vlen)))
                header_size += klen + (vlen if vlen > 0 else 0)
        else:
            headers = []
            header_size = -1
        if consumer:
            rec = kc_accel_alloc(cls, KP_FIELDS)
            _set(rec, 0, topic)
            _set(rec, 1, partition)
            _set(rec, 2, leader_epoch)
            _set_record_fields(rec, 3, &b, &r, ts_type)
            _set(rec, 8, headers)
            _set(rec, 9, None)
            _set(rec, 10, r.key_len)
            _set(rec, 11, r.value_len)
            _set(rec, 12, header_size)
            if untrack:
                PyObject_GC_UnTrack(rec)
            sizes.append(r.length)
        else:
            rec = kc_accel_alloc(cls, KP_RECORD_FIELDS)
            _set_record_fields(rec, 0, &b, &r, ts_type)
            _set(rec, 5, headers)
            _set(rec, 6, r.end - r.start)
        out.append(rec)
    if b.pos != b.end:
        return None
    return (out, sizes) if consumer else out


def kp_batch_records(cls, data, topic, partition, leader_epoch, bint untrack=False):
    """kafka-python ConsumerRecords of one v2 batch (``data``: the batch's
    bytes from its base offset on) with raw key/value, and the
    ``size_in_bytes`` kafka-python's fetcher adds to ``bytes_read`` for each.

    Returns ``(records, sizes)``, or None when kafka-python's decoder must
    handle the batch.  ``cls`` must be a plain 13-field tuple subclass
    (kafka-python's ConsumerRecord namedtuple); the CRC is not checked here.

    ``untrack``: leave the records out of the cycle collector.  Their fields
    are immutable apart from the headers list, so only a cycle the
    application builds through that list would go uncollected; in exchange
    the collector no longer walks thirteen fields of every record a consumer
    holds (measured: most of a consumer's per-record cost)."""
    cdef Py_buffer view
    _check_record_type(cls, KP_FIELDS)
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        return _kp_records(cls, <const uint8_t *>view.buf, view.len, data, topic, partition, leader_epoch, True,
                           untrack)
    finally:
        PyBuffer_Release(&view)


def kp_default_records(cls, data):
    """The records of one v2 batch as ``cls`` tuples of (offset, timestamp,
    timestamp_type, key, value, headers, wire size incl. the length varint),
    the fields of kafka-python's DefaultRecord; None under the same
    conditions as kp_batch_records."""
    cdef Py_buffer view
    _check_record_type(cls, KP_RECORD_FIELDS)
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        return _kp_records(cls, <const uint8_t *>view.buf, view.len, data, None, None, None, False)
    finally:
        PyBuffer_Release(&view)


cdef tuple _NO_ARGS = ()


cdef int _check_plain_class(object cls, tuple names, Py_ssize_t fields) except -1:
    # Creating instances with object.__new__ and generic setattr is what the
    # dataclass __init__ does only for a class that overrides neither.
    if not isinstance(cls, type) or cls.__new__ is not object.__new__ or cls.__setattr__ is not object.__setattr__:
        raise TypeError(f"{cls!r} must use object's __new__ and __setattr__")
    if len(names) != fields or not all(type(n) is str for n in names):
        raise TypeError(f"expected {fields} field names")
    return 0


cdef object _aio_records(object cls, tuple names, const uint8_t *p, Py_ssize_t n, object data,
                         object topic, object partition, bint untrack):
    cdef int32_t i, j, klen = 0, vlen = 0
    cdef Py_ssize_t kpos = 0, vpos = 0, hpos
    cdef const uint8_t *base
    cdef RecordView r
    cdef object keep
    cdef OpenBatch b
    cdef list out = [], offsets = []
    cdef tuple headers
    keep = _open_batch(p, n, data, &b)
    if keep is None:
        return None
    base = b.base
    ts_type = 1 if b.append_time else 0
    n_topic, n_partition, n_offset, n_timestamp, n_ts_type, n_key, n_value, n_checksum, \
        n_key_size, n_value_size, n_headers = names
    for i in range(b.count):
        if not _next_record(&b, &r):
            return None
        headers = PyTuple_New(r.header_count)
        hpos = r.headers_pos
        for j in range(r.header_count):
            hpos = next_header(base, hpos, &kpos, &klen, &vpos, &vlen)
            hkey = _utf8_or_none(base + kpos, klen)
            if hkey is None:
                return None
            _set(headers, j, (hkey, _bytes_or_none(base + vpos, vlen)))
        offset = b.base_offset + r.offset_delta
        # the same attributes in the same order as the dataclass __init__
        rec = kc_accel_new(cls, _NO_ARGS)
        setattr(rec, n_topic, topic)
        setattr(rec, n_partition, partition)
        setattr(rec, n_offset, offset)
        setattr(rec, n_timestamp, _timestamp(&b, &r))
        setattr(rec, n_ts_type, ts_type)
        setattr(rec, n_key, _bytes_or_none(base + r.key_pos, r.key_len))
        setattr(rec, n_value, _bytes_or_none(base + r.value_pos, r.value_len))
        setattr(rec, n_checksum, None)
        setattr(rec, n_key_size, r.key_len)
        setattr(rec, n_value_size, r.value_len)
        setattr(rec, n_headers, headers)
        if untrack:
            PyObject_GC_UnTrack(rec)
        out.append(rec)
        offsets.append(offset)
    if b.pos != b.end:
        return None
    return out, offsets


def aio_batch_records(cls, tuple names, data, topic, partition, bint untrack=False):
    """aiokafka ConsumerRecords of one v2 batch with raw key/value and their
    offsets: ``(records, offsets)``, or None when aiokafka's decoder must
    handle the batch (same conditions as kp_batch_records).  ``cls`` is
    aiokafka's ConsumerRecord dataclass, ``names`` its 11 fields in order;
    instances get exactly the attributes its __init__ would set.

    ``untrack``: leave the records out of the cycle collector (every field
    is immutable: str, int, bytes, None and a tuple of header tuples); only a
    cycle the application creates by assigning to a record's attributes
    would go uncollected."""
    cdef Py_buffer view
    _check_plain_class(cls, names, 11)
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        return _aio_records(cls, names, <const uint8_t *>view.buf, view.len, data, topic, partition, untrack)
    finally:
        PyBuffer_Release(&view)
