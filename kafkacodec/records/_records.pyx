# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled record layer: RecordBatch v2 and legacy message sets (magic 0/1).

Decoding never copies the input: batches and records point into the caller's
buffer (kept alive and pinned through a buffer export) or into the bytes
object a compressed payload was inflated into.  Key, value and headers are
materialised when accessed.
"""
cimport cython
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE, PyBUF_READ, PyBUF_WRITABLE
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE, PyBytes_CheckExact
from cpython.list cimport PyList_New, PyList_SET_ITEM, PyList_GET_ITEM
from cpython.memoryview cimport PyMemoryView_FromMemory
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF, PyObject
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

from kafkacodec._primitives cimport (
    KC_OK, KC_TRUNCATED, MAX_VARLONG_LEN,
    kc_load_be16, kc_load_be32, kc_load_be64, kc_store_be16, kc_store_be32, kc_store_be64,
    read_varint, write_uvarint64, zigzag32, zigzag64, uvarint_size,
)
from kafkacodec._crc cimport crc32c_update, crc32_update
from kafkacodec._buffer cimport Writer
from kafkacodec.records._layout cimport *
from kafkacodec.records._legacy cimport *
from kafkacodec.records._v2 cimport (
    RecordView, parse_v2_record, next_header, v2_base_offset_ok, v2_write_header, v2_write_producer,
    F_HEADER_KEY, F_HEADER_VALUE, F_HEADERS, F_LENGTH,
    P_VARINT_TRUNCATED, P_VARINT_OVERLONG, P_SIZE_MISMATCH,
)

import time as _time

from kafkacodec.errors import (
    CorruptDataError, CrcMismatchError, EncodeError, KafkaCodecError, RecordLimitError,
    UnsupportedVersionError,
)
import kafkacodec.records.compression as _compression
from kafkacodec.records import _common

cdef object _decompress = _compression.decompress
cdef object _resolve_limit = _compression.resolve_limit
cdef object _resolve_record_limit = _compression.resolve_record_limit
cdef object _compress = _compression.compress

CODEC_NAMES = ("none", "gzip", "snappy", "lz4", "zstd")
cdef tuple _CODEC_NAMES = CODEC_NAMES

from kafkacodec.records._common import CONTROL_ABORT, CONTROL_COMMIT, CONTROL_TYPE_NAMES

__all__ = list(_common.PUBLIC_NAMES)

cdef tuple _EMPTY = ()
cdef object INT64_MIN_OBJ = -0x8000000000000000
cdef object INT64_MAX_OBJ = 0x7FFFFFFFFFFFFFFF


cdef int _corrupt(str reason, Py_ssize_t offset, str path) except -1:
    raise CorruptDataError(reason, offset, path)


# ---- decompression: the compiled decoders' one entry (_columnar.pyx cimports it)

cdef object _lz4_frame_decompress = None   # lz4.frame.decompress, looked up on first use
cdef object _DecompressionError = _compression.DecompressionError
cdef int CODEC_LZ4 = _compression.LZ4

# LZ4 frame descriptor (lz4_Frame_format.md): magic, FLG, BD, [content size], [dict id], HC
cdef enum:
    LZ4_FLG_CONTENT_SIZE = 0x08
    LZ4_FLG_DICT_ID = 0x01
    LZ4_FLG_BLOCK_CHECKSUM = 0x10
    LZ4_FLG_CONTENT_CHECKSUM = 0x04


cdef inline uint32_t _le32(const uint8_t *p) noexcept nogil:
    return <uint32_t>p[0] | (<uint32_t>p[1] << 8) | (<uint32_t>p[2] << 16) | (<uint32_t>p[3] << 24)


cdef Py_ssize_t lz4_frame_bound(const uint8_t *p, Py_ssize_t n, Py_ssize_t limit) noexcept nogil:
    """An upper bound of one LZ4 frame's output from its block headers (each
    block holds at most the frame's block maximum), or -1 when the frame is
    not a plain single frame within `limit`: compression.py's decoder then
    takes it and reports what is wrong.  Mirrors its _lz4_output_bound; a
    declared content size is never trusted as the bound."""
    cdef Py_ssize_t pos, hc, blocks = 0, block_max, block_checksum, content_checksum
    cdef uint8_t flg, bd
    cdef uint64_t declared = 0
    cdef uint32_t size
    cdef int i
    if n < 7 or _le32(p) != 0x184D2204:
        return -1
    flg = p[4]
    bd = p[5]
    hc = 6 + (8 if flg & LZ4_FLG_CONTENT_SIZE else 0) + (4 if flg & LZ4_FLG_DICT_ID else 0)
    if n < hc + 1:
        return -1
    if flg & LZ4_FLG_CONTENT_SIZE:
        for i in range(8):
            declared |= (<uint64_t>p[6 + i]) << (8 * i)
        if declared > <uint64_t>limit:
            return -1
    i = (bd >> 4) & 0x07
    if i < 4:
        return -1
    block_max = (<Py_ssize_t>1) << (8 + 2 * i)   # 4: 64 KiB, 5: 256 KiB, 6: 1 MiB, 7: 4 MiB
    block_checksum = 4 if flg & LZ4_FLG_BLOCK_CHECKSUM else 0
    content_checksum = 4 if flg & LZ4_FLG_CONTENT_CHECKSUM else 0
    pos = hc + 1
    while pos + 4 <= n:
        size = _le32(p + pos)
        if size == 0:
            if pos + 4 + content_checksum != n or blocks > limit // block_max:
                return -1
            return blocks * block_max
        pos += 4 + <Py_ssize_t>(size & 0x7FFFFFFF) + block_checksum
        blocks += 1
    return -1


cdef bytes inflate(int codec, const uint8_t *p, Py_ssize_t n, object limit, int magic=2):
    """Decompress a compressed payload of `n` bytes at `p`, bounded by `limit`
    (a resolved max_decompressed_size).  An lz4 frame whose block headers keep
    it within the limit is inflated in one library call without leaving C for
    the frame walk; everything else goes through compression.decompress,
    which owns every limit and error."""
    global _lz4_frame_decompress
    cdef Py_ssize_t bound
    if limit is None:
        limit = _resolve_limit(None)
    view = PyMemoryView_FromMemory(<char *>p, n, PyBUF_READ)
    try:
        if codec == CODEC_LZ4 and magic != 0:
            bound = lz4_frame_bound(p, n, min(limit, 1 << 62))
            if bound >= 0:
                if _lz4_frame_decompress is None:
                    _lz4_frame_decompress = _compression._lz4_module().decompress
                try:
                    return _lz4_frame_decompress(view)
                except RuntimeError as exc:
                    raise _DecompressionError(f"lz4: {exc}") from None
        return _decompress(codec, view, max_size=limit, magic=magic)
    finally:
        view.release()


# Outside the cycle collector: while the export is held, the collector must
# not clear the exporter (a memoryview cleared with an export outstanding is
# left without its buffer and crashes when finally released), so the object
# this refers to must look externally referenced to it.
@cython.final
@cython.no_gc
cdef class _Source:
    """Pins the caller's buffer (a buffer export blocks bytearray resizes)."""

    def __dealloc__(self):
        if self.has_view:
            PyBuffer_Release(&self.view)


cdef _Source _make_source(object data):
    cdef _Source s = _Source.__new__(_Source)
    s.obj = data
    if PyBytes_CheckExact(data):
        s.ptr = <const uint8_t *>PyBytes_AS_STRING(data)
        s.size = PyBytes_GET_SIZE(data)
    else:
        PyObject_GetBuffer(data, &s.view, PyBUF_SIMPLE)
        s.has_view = True
        s.ptr = <const uint8_t *>s.view.buf
        s.size = s.view.len
    return s


# Outside the cycle collector: every field is immutable and holds only
# ints, bytes, str, None or a tuple of those, so no cycle can pass through a
# Record, and the collector need not walk the millions a consumer holds.
# Not final: a consumer's record_class may be a subclass (its fields in _records.pxd).
@cython.no_gc
@cython.freelist(256)
cdef class Record:
    """One record: offset, timestamp, timestamp_type, key, value (bytes or
    None) and headers (tuple of (str, bytes | None)).  Header keys are UTF-8;
    undecodable bytes are kept as surrogate escapes so they re-encode to the
    same bytes."""
    # The fields (in _records.pxd) are exposed as read-only member descriptors
    # (see _expose_members): plain slot reads that CPython's attribute cache
    # specialises, which matters when a consumer loop touches several
    # attributes of millions of records.

    @property
    def checksum(self):
        """The legacy message CRC-32 (magic 0/1); None for v2 records."""
        return None if self._checksum < 0 else self._checksum

    @property
    def size_in_bytes(self):
        return self._size

    @property
    def is_control(self):
        return self._is_control

    @property
    def control_type(self):
        """"COMMIT" / "ABORT" for a control record (else None); unknown types as int."""
        if not self._is_control or self._key is None or len(self._key) < 4:
            return None
        t = int.from_bytes(self._key[2:4], "big", signed=True)
        return CONTROL_TYPE_NAMES.get(t, t)

    @property
    def control_version(self):
        if not self._is_control or self._key is None or len(self._key) < 2:
            return None
        return int.from_bytes(self._key[0:2], "big", signed=True)

    @property
    def coordinator_epoch(self):
        """Coordinator epoch of a transaction marker's value (else None)."""
        if not self._is_control or self._value is None or len(self._value) < 6:
            return None
        return int.from_bytes(self._value[2:6], "big", signed=True)

    def __repr__(self):
        return (f"Record(offset={self._offset}, timestamp={self._timestamp}, key={self._key!r}, "
                f"value={self._value!r}, headers={self._headers!r})")

    def __eq__(self, other):
        if not isinstance(other, Record):
            return NotImplemented
        cdef Record o = <Record>other
        return (self._offset == o._offset and self._timestamp == o._timestamp
                and self._key == o._key and self._value == o._value
                and self._headers == o._headers)

    def __hash__(self):
        return hash((self._offset, self._timestamp, self._key, self._value))

    def __reduce__(self):
        return (_make_record, (self._offset, self._timestamp, self._timestamp_type, self._key,
                               self._value, self._headers, self._topic, self._partition, self._leader_epoch))


def _make_record(offset, timestamp, timestamp_type, key, value, headers, topic=None, partition=None,
                 leader_epoch=-1):
    cdef Record r = Record.__new__(Record)
    r._leader_epoch = leader_epoch
    r._offset = offset
    r._timestamp = timestamp
    r._timestamp_type = timestamp_type
    r._key = key
    r._value = value
    r._headers = headers
    r._topic = topic
    r._partition = partition
    r._checksum = -1
    return r


cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *o)
    int PyType_IS_GC(PyTypeObject *tp)
    unsigned long Py_TPFLAGS_HEAPTYPE


def checked_record_class(record_class):
    """None for Record itself (or None), else `record_class`, a subclass of Record."""
    return _common.checked_record_class(record_class, Record)


cdef int copy_record(Record dst, Record src) except -1:
    """dst's Record fields set to src's (a record remade as another class)."""
    dst._offset, dst._timestamp, dst._timestamp_type = src._offset, src._timestamp, src._timestamp_type
    dst._key, dst._value, dst._headers = src._key, src._value, src._headers
    dst._topic, dst._partition, dst._leader_epoch = src._topic, src._partition, src._leader_epoch
    dst._size, dst._checksum, dst._is_control = src._size, src._checksum, src._is_control
    return 0


cdef inline bint _untracked_class(PyTypeObject *tp):
    """Records of a compiled subclass are made untracked, as Records are outside the collector:
    what a decoder puts in them cannot make a cycle, and the subclass tracks itself again
    when it stores anything else.  A Python subclass (it may have a __dict__) stays tracked."""
    return PyType_IS_GC(tp) and not (tp.tp_flags & Py_TPFLAGS_HEAPTYPE)


cdef inline Record _new_record(PyTypeObject *tp, bint untrack):
    """A record to fill: a Record, or (tp not NULL) an instance of the record_class tp, made
    without calling its __init__."""
    cdef Record rec
    if tp == NULL:
        return Record.__new__(Record)
    rec = <Record?>kc_accel_new(<object>tp, _EMPTY)
    if untrack:
        PyObject_GC_UnTrack(<PyObject *>rec)
    return rec


cdef extern from "kc_cpython.h":
    int kc_cpython_check() except -1
    object kc_accel_new(object cls, object args)
    object kc_readonly_member(PyTypeObject *tp, const char *name, Py_ssize_t offset)
    Py_ssize_t kc_slot_offset(PyObject *obj, PyObject *marker, Py_ssize_t size) except -1
    void PyType_Modified(PyTypeObject *)

kc_cpython_check()


cdef _expose_members():
    # Locate each object slot by planting a unique marker, then publish it as
    # a T_OBJECT_EX member descriptor under its public name.
    cdef PyTypeObject *tp = <PyTypeObject *>Record
    cdef Record probe = Record.__new__(Record)
    markers = [object() for _ in range(9)]
    (probe._offset, probe._timestamp, probe._timestamp_type, probe._key, probe._value, probe._headers,
     probe._topic, probe._partition, probe._leader_epoch) = markers
    names = (b"offset", b"timestamp", b"timestamp_type", b"key", b"value", b"headers", b"topic", b"partition",
             b"leader_epoch")
    type_dict = <dict>tp.tp_dict
    for name, marker in zip(names, markers):
        type_dict[name.decode()] = kc_readonly_member(tp, <const char *>name, kc_slot_offset(<PyObject *>probe, <PyObject *>marker, tp.tp_basicsize))
    _MEMBER_NAMES.extend(names)   # keep the C strings alive
    PyType_Modified(tp)


cdef list _MEMBER_NAMES = []
_expose_members()


cdef inline object _bytes_or_none(const uint8_t *p, Py_ssize_t n):
    if n < 0:
        return None
    return PyBytes_FromStringAndSize(<const char *>p, n)


cdef object _headers_tuple(const uint8_t *base, Py_ssize_t pos, int32_t count):
    """Build the headers tuple from bytes parse_v2_record validated."""
    cdef int32_t i, klen = 0, vlen = 0
    cdef Py_ssize_t kpos = 0, vpos = 0
    out = PyTuple_New(count)
    for i in range(count):
        pos = next_header(base, pos, &kpos, &klen, &vpos, &vlen)
        item = (PyUnicode_DecodeUTF8(<const char *>(base + kpos), klen, "surrogateescape"),
                _bytes_or_none(base + vpos, vlen))
        Py_INCREF(item)
        PyTuple_SET_ITEM(out, i, item)
    return out


cdef tuple _FIELD_NAMES = ("length", "attributes", "timestamp_delta", "offset_delta", "key", "value",
                           "headers", "key", "value", "")


cdef int check_record_count(int64_t count, Py_ssize_t limit, Py_ssize_t position, int32_t index) except -1:
    """Refuse a batch claiming more records than the limit, before anything
    is inflated or allocated for them."""
    if count > limit:
        raise RecordLimitError(f"batch holds {count} records, over the {limit}-record limit "
                               f"(max_records_per_batch)", position + V2_RECORD_COUNT,
                               f"batches[{index}].record_count")
    return 0


cdef int raise_record_error(RecordView *r, Py_ssize_t index, Py_ssize_t abs_base) except -1:
    """Turn a parse_v2_record failure into CorruptDataError with offset and path."""
    cdef str field = _FIELD_NAMES[r.err_field]
    cdef str path = f"records[{index}]"
    if r.err_field == F_HEADER_KEY or r.err_field == F_HEADER_VALUE:
        path += f".headers[{r.err_header}].{field}"
    elif field:
        path += "." + field
    if r.err_problem == P_VARINT_TRUNCATED:
        reason = "record ends inside a varint"
    elif r.err_problem == P_VARINT_OVERLONG:
        reason = "varint is too long for its type"
    elif r.err_problem == P_SIZE_MISMATCH:
        reason = f"record length leaves {r.err_value} unread bytes"
    elif r.err_field == F_LENGTH:
        reason = f"record length {r.err_value} invalid for the bytes left in the batch"
    elif r.err_field == F_HEADERS:
        reason = f"header count {r.err_value} invalid for the bytes left in the record"
    else:
        reason = f"{field} length {r.err_value} invalid for the bytes left in the record"
    raise CorruptDataError(reason, abs_base + r.err_pos, path)


cdef list _decode_v2_records(const uint8_t *base, Py_ssize_t pos, Py_ssize_t end, int32_t count,
                             Py_ssize_t abs_base, int64_t base_offset,
                             int64_t base_timestamp, int timestamp_type, int64_t log_append_time,
                             bint is_control, object topic=None, object partition=None,
                             object record_class=None, int32_t leader_epoch=-1):
    """Decode `count` records laid out in base[pos:end].  abs_base maps
    positions to offsets in the caller's input for error messages.  Records
    are of `record_class` (checked_record_class's) when given."""
    cdef list out
    cdef Record rec
    cdef int32_t i
    cdef RecordView r
    cdef object ts_type_obj = timestamp_type
    cdef bint append_time = timestamp_type == 1 and log_append_time >= 0
    cdef PyTypeObject *tp = NULL if record_class is None else <PyTypeObject *>record_class
    cdef bint untrack = tp != NULL and _untracked_class(tp)
    cdef object epoch = leader_epoch
    if count < 0:
        _corrupt(f"negative record count {count}", abs_base + pos, "")
    # Never size anything by a count the bytes cannot hold.
    if <int64_t>count * V2_MIN_RECORD_SIZE > end - pos:
        _corrupt(f"record count {count} does not fit in {end - pos} bytes", abs_base + pos, "")
    out = PyList_New(count)
    for i in range(count):
        if parse_v2_record(base, pos, end, &r) != 0:
            raise_record_error(&r, i, abs_base)
        rec = _new_record(tp, untrack)
        rec._offset = base_offset + r.offset_delta
        rec._timestamp = log_append_time if append_time else base_timestamp + r.timestamp_delta
        rec._timestamp_type = ts_type_obj
        rec._key = _bytes_or_none(base + r.key_pos, r.key_len)
        rec._value = _bytes_or_none(base + r.value_pos, r.value_len)
        rec._headers = _EMPTY if r.header_count == 0 else _headers_tuple(base, r.headers_pos, r.header_count)
        rec._size = <int32_t>(r.end - r.start)
        rec._checksum = -1
        rec._is_control = is_control
        rec._leader_epoch = epoch
        if topic is not None:
            rec._topic = topic
        if partition is not None:
            rec._partition = partition
        Py_INCREF(rec)
        PyList_SET_ITEM(out, i, rec)
        pos = r.end
    if pos != end:
        _corrupt(f"{end - pos} bytes left after the last of {count} records", abs_base + pos, "records")
    return out


@cython.final
@cython.freelist(64)
cdef class RecordBatch:
    """A view of one batch (magic 2) or one top-level legacy entry (magic 0/1,
    a single message or a compressed wrapper).  Iterating yields Records."""

    @property
    def compression(self):
        return _CODEC_NAMES[self.attributes & ATTR_COMPRESSION_MASK]

    @property
    def compression_id(self):
        return self.attributes & ATTR_COMPRESSION_MASK

    @property
    def timestamp_type(self):
        return 1 if self.attributes & ATTR_TIMESTAMP_TYPE else 0

    @property
    def is_transactional(self):
        return self.magic >= 2 and bool(self.attributes & ATTR_TRANSACTIONAL)

    @property
    def is_control(self):
        return self.magic >= 2 and bool(self.attributes & ATTR_CONTROL)

    @property
    def has_delete_horizon(self):
        return self.magic >= 2 and bool(self.attributes & ATTR_DELETE_HORIZON)

    @property
    def has_producer_id(self):
        return self.producer_id >= 0

    @property
    def index(self):
        """Position of this entry among the entries of its input (0-based)."""
        return self._index

    @property
    def next_offset(self):
        return self.last_offset + 1

    @property
    def delete_horizon_ms(self):
        """With the delete-horizon flag, the base timestamp holds the horizon."""
        return self.base_timestamp if self.has_delete_horizon else None

    def raw(self):
        """A zero-copy memoryview of the whole batch as stored."""
        return memoryview(self._src.obj)[self.position:self.position + self.size_in_bytes]

    def records(self, topic=None, partition=None, record_class=None):
        """All records as a list (decompressing if needed); ``topic`` and
        ``partition``, when given, are set on each record (a consumer's fetch).
        ``record_class``: a subclass of Record to make the records of (its
        ``__init__`` is not called); default Record."""
        cdef Record rec, made
        cdef list out
        cdef PyTypeObject *tp
        cdef bint untrack
        cdef Py_ssize_t i
        record_class = checked_record_class(record_class)
        try:
            if self.magic >= 2:
                return self._v2_records(topic, partition, record_class)
            out = list(self._legacy_records)
        except CorruptDataError as exc:
            raise exc.prefix_path(f"batches[{self._index}]")
        if record_class is not None:
            # legacy entries are decoded with their batch, as Records: copied into the class asked
            tp = <PyTypeObject *>record_class
            untrack = _untracked_class(tp)
            for i in range(len(out)):
                made = _new_record(tp, untrack)
                copy_record(made, <Record>out[i])
                out[i] = made
        if topic is not None or partition is not None:
            for rec in out:
                rec._topic = topic
                rec._partition = partition
        return out

    def __iter__(self):
        return iter(self.records())

    def __len__(self):
        return self.record_count

    def control_record(self):
        """(version, type) of a control batch's marker, type as "COMMIT"/"ABORT"."""
        if not self.is_control:
            return None
        recs = self.records()
        if not recs:
            return None
        return (recs[0].control_version, recs[0].control_type)

    cdef list _v2_records(self, object topic=None, object partition=None, object record_class=None):
        cdef const uint8_t *p = self._src.ptr + self.position
        cdef Py_ssize_t payload = self.size_in_bytes - V2_RECORDS
        cdef int codec = self.attributes & ATTR_COMPRESSION_MASK
        cdef int64_t log_append_time = self.max_timestamp if self.attributes & ATTR_TIMESTAMP_TYPE else -1
        cdef bytes inflated
        if codec == 0:
            return _decode_v2_records(self._src.ptr, self.position + V2_RECORDS,
                                      self.position + self.size_in_bytes, self.record_count,
                                      0, self.base_offset, self.base_timestamp,
                                      self.timestamp_type, log_append_time, self.is_control, topic, partition,
                                      record_class, self.partition_leader_epoch)
        try:
            inflated = inflate(codec, p + V2_RECORDS, payload, self._max_decompressed)
        except CorruptDataError as exc:
            if exc.offset is None:
                exc.offset = self.position + V2_RECORDS
            raise exc.prefix_path("records")
        try:
            return _decode_v2_records(<const uint8_t *>PyBytes_AS_STRING(inflated), 0,
                                      PyBytes_GET_SIZE(inflated), self.record_count,
                                      0, self.base_offset, self.base_timestamp,
                                      self.timestamp_type, log_append_time, self.is_control, topic, partition,
                                      record_class, self.partition_leader_epoch)
        except CorruptDataError as exc:
            exc.reason += " (offset within the decompressed records)"
            raise

    def __repr__(self):
        return (f"RecordBatch(magic={self.magic}, base_offset={self.base_offset}, "
                f"last_offset={self.last_offset}, records={self.record_count}, "
                f"compression={self.compression!r}, size={self.size_in_bytes})")


cdef inline RecordBatch _new_batch(_Source src, Py_ssize_t start, Py_ssize_t total, int32_t index, int magic):
    """A batch view of src[start:start + total], the index-th entry; the parsers fill in the header."""
    cdef RecordBatch b = RecordBatch.__new__(RecordBatch)
    b._src = src
    b._index = index
    b.position = start
    b.size_in_bytes = total
    b.magic = magic
    return b


cdef RecordBatch _parse_v2_header(_Source src, Py_ssize_t start, Py_ssize_t total,
                                  bint verify_crc, int32_t index):
    cdef const uint8_t *p = src.ptr + start
    cdef RecordBatch b
    cdef uint32_t computed
    cdef int32_t last_delta
    if total < V2_RECORDS:
        _corrupt(f"batch length {total - LOG_OVERHEAD} is below the v2 minimum {V2_RECORDS - LOG_OVERHEAD}",
                 start + V2_LENGTH, f"batches[{index}].length")
    b = _new_batch(src, start, total, index, 2)
    b.base_offset = <int64_t>kc_load_be64(p + V2_BASE_OFFSET)
    b.partition_leader_epoch = <int32_t>kc_load_be32(p + V2_LEADER_EPOCH)
    b.crc = kc_load_be32(p + V2_CRC)
    b.attributes = <int16_t>kc_load_be16(p + V2_ATTRIBUTES)
    last_delta = <int32_t>kc_load_be32(p + V2_LAST_OFFSET_DELTA)
    # wraps only for a base offset refused below, before anything uses it
    b.last_offset = <int64_t>(<uint64_t>b.base_offset + <uint64_t>last_delta)
    b.base_timestamp = <int64_t>kc_load_be64(p + V2_BASE_TIMESTAMP)
    b.max_timestamp = <int64_t>kc_load_be64(p + V2_MAX_TIMESTAMP)
    b.producer_id = <int64_t>kc_load_be64(p + V2_PRODUCER_ID)
    b.producer_epoch = <int16_t>kc_load_be16(p + V2_PRODUCER_EPOCH)
    b.base_sequence = <int32_t>kc_load_be32(p + V2_BASE_SEQUENCE)
    b.record_count = <int32_t>kc_load_be32(p + V2_RECORD_COUNT)
    if verify_crc:
        if total - V2_ATTRIBUTES >= 65536:
            with nogil:
                computed = crc32c_update(0, p + V2_ATTRIBUTES, <size_t>(total - V2_ATTRIBUTES))
        else:
            computed = crc32c_update(0, p + V2_ATTRIBUTES, <size_t>(total - V2_ATTRIBUTES))
        if computed != b.crc:
            raise CrcMismatchError(
                f"CRC-32C mismatch: stored 0x{b.crc:08x}, computed 0x{computed:08x}",
                start + V2_CRC, f"batches[{index}].crc")
    if (b.attributes & ATTR_COMPRESSION_MASK) > 4:
        _corrupt(f"unknown compression codec {b.attributes & ATTR_COMPRESSION_MASK}",
                 start + V2_ATTRIBUTES, f"batches[{index}].attributes")
    if b.record_count < 0:
        _corrupt(f"negative record count {b.record_count}", start + V2_RECORD_COUNT,
                 f"batches[{index}].record_count")
    if last_delta < 0:
        _corrupt(f"negative last offset delta {last_delta}", start + V2_LAST_OFFSET_DELTA,
                 f"batches[{index}].last_offset_delta")
    if not v2_base_offset_ok(b.base_offset):
        _corrupt(f"base offset {b.base_offset} leaves no room for the batch's offset deltas",
                 start + V2_BASE_OFFSET, f"batches[{index}].base_offset")
    return b


# ---- legacy message sets (magic 0 and 1) ----

cdef Py_ssize_t _legacy_entry(const uint8_t *base, Py_ssize_t pos, Py_ssize_t end,
                              bint verify_crc, Py_ssize_t abs_base,
                              int64_t *offset, int *magic, int *attributes, int64_t *timestamp,
                              Py_ssize_t *key_pos, Py_ssize_t *key_len,
                              Py_ssize_t *value_pos, Py_ssize_t *value_len, uint32_t *crc) except -1:
    """Parse one complete legacy entry at base[pos:]; returns its total size.
    The caller has checked that the 12-byte log overhead and the declared size fit.
    Errors carry paths relative to the message; callers prefix them (only
    when an error happens, so the success path builds no strings)."""
    cdef LegacyMessage m
    cdef int rc = parse_legacy_message(base, pos, verify_crc, &m)
    if rc == LEGACY_SIZE:
        _corrupt(f"message size {m.size} below the magic {m.magic} minimum", abs_base + m.at, "size")
    elif rc == LEGACY_CRC_MISMATCH:
        raise CrcMismatchError(f"CRC-32 mismatch: stored 0x{m.crc:08x}, computed 0x{m.computed_crc:08x}",
                               abs_base + m.at, "crc")
    elif rc == LEGACY_KEY_LENGTH:
        _corrupt(f"key length {m.key_len} invalid", abs_base + m.at, "key")
    elif rc == LEGACY_VALUE_LENGTH:
        _corrupt(f"value length {m.value_len} invalid", abs_base + m.at, "value")
    elif rc == LEGACY_FIELDS_SHORT:
        _corrupt(f"message declares {m.size} bytes but its fields use {m.at - pos - LOG_OVERHEAD}",
                 abs_base + m.at, "")
    offset[0] = m.offset
    magic[0] = m.magic
    attributes[0] = m.attributes
    timestamp[0] = m.timestamp
    key_pos[0] = m.key_pos
    key_len[0] = m.key_len
    value_pos[0] = m.value_pos
    value_len[0] = m.value_len
    crc[0] = m.crc
    return LOG_OVERHEAD + m.size


cdef Record _legacy_record(object owner, const uint8_t *base, int64_t offset, int64_t timestamp,
                           int timestamp_type, Py_ssize_t key_pos, Py_ssize_t key_len,
                           Py_ssize_t value_pos, Py_ssize_t value_len, uint32_t crc, Py_ssize_t size):
    cdef Record rec = Record.__new__(Record)
    rec._offset = offset
    rec._timestamp = timestamp
    rec._timestamp_type = timestamp_type
    rec._key = _bytes_or_none(base + key_pos, key_len)
    rec._value = _bytes_or_none(base + value_pos, value_len)
    rec._headers = _EMPTY
    rec._checksum = crc
    rec._size = <int32_t>size
    rec._is_control = False
    rec._leader_epoch = -1  # message sets carry none
    return rec


cdef list _legacy_inner(bytes inflated, int wrapper_magic, int64_t wrapper_offset,
                        int64_t wrapper_timestamp, int wrapper_attributes, bint verify_crc, str path,
                        Py_ssize_t max_records):
    """Messages of a decompressed wrapper, with absolute offsets."""
    cdef const uint8_t *base = <const uint8_t *>PyBytes_AS_STRING(inflated)
    cdef Py_ssize_t end = PyBytes_GET_SIZE(inflated)
    cdef Py_ssize_t pos = 0, n
    cdef int64_t offset, ts
    cdef int magic, attrs, i
    cdef int ts_type
    cdef Py_ssize_t kp, kl, vp, vl
    cdef uint32_t crc
    cdef int32_t size
    cdef list inner = []
    cdef object last_inner, absolute
    cdef Py_ssize_t n_counted = 0
    cdef Record rec
    ts_type = 1 if (wrapper_magic == 1 and wrapper_attributes & ATTR_TIMESTAMP_TYPE) else 0
    # Count the messages before making any: a wrapper over the limit costs
    # its inflated bytes only (malformed entries are reported by the loop).
    while end - pos >= LOG_OVERHEAD:
        size = <int32_t>kc_load_be32(base + pos + 8)
        if size < 0:
            break
        n_counted += 1
        if n_counted > max_records:
            raise RecordLimitError(f"compressed wrapper holds more than {max_records} messages "
                                   f"(max_records_per_batch)", pos, f"{path}.messages[{max_records}]")
        pos += LOG_OVERHEAD + size
    pos = 0
    while pos < end:
        try:
            if end - pos < LOG_OVERHEAD + 5:
                _corrupt("truncated message inside a compressed wrapper", pos, "")
            size = <int32_t>kc_load_be32(base + pos + 8)
            if size < 0 or size > end - pos - LOG_OVERHEAD:
                _corrupt(f"message size {size} exceeds the wrapper's decompressed payload", pos + 8, "size")
            n = _legacy_entry(base, pos, end, verify_crc, 0, &offset, &magic, &attrs, &ts,
                              &kp, &kl, &vp, &vl, &crc)
            if attrs & ATTR_COMPRESSION_MASK:
                _corrupt("compressed message nested inside a compressed wrapper", pos + LEGACY_ATTRIBUTES,
                         "attributes")
            if magic != wrapper_magic:
                _corrupt(f"inner message magic {magic} differs from wrapper magic {wrapper_magic}",
                         pos + LEGACY_MAGIC, "magic")
        except CorruptDataError as exc:
            raise exc.prefix_path(f"{path}.messages[{len(inner)}]")
        if ts_type == 1:
            ts = wrapper_timestamp
        rec = _legacy_record(inflated, base, offset, ts, ts_type, kp, kl, vp, vl, crc, n)
        inner.append(rec)
        pos += n
    if not inner:
        _corrupt("compressed wrapper holds no messages", 0, path)
    if wrapper_magic >= 1:
        # Magic 1 inner offsets are relative; the wrapper carries the absolute
        # offset of the last inner message.
        last_inner = (<Record>inner[len(inner) - 1])._offset
        for i, rec in enumerate(inner):
            absolute = wrapper_offset - last_inner + rec._offset
            if not INT64_MIN_OBJ <= absolute <= INT64_MAX_OBJ:
                _corrupt(f"inner message offset {absolute} is out of the 64-bit range", 0,
                         f"{path}.messages[{i}].offset")
            rec._offset = absolute
    return inner


cdef RecordBatch _parse_legacy(_Source src, Py_ssize_t start, Py_ssize_t total, bint verify_crc,
                               int32_t index, object max_decompressed, Py_ssize_t max_records):
    cdef RecordBatch b
    cdef int64_t offset, ts
    cdef int magic, attrs, codec
    cdef Py_ssize_t kp, kl, vp, vl
    cdef uint32_t crc
    cdef bytes inflated
    try:
        _legacy_entry(src.ptr, start, start + total, verify_crc, 0, &offset, &magic, &attrs, &ts,
                      &kp, &kl, &vp, &vl, &crc)
    except CorruptDataError as exc:
        raise exc.prefix_path(f"batches[{index}]")
    b = _new_batch(src, start, total, index, magic)
    b.crc = crc
    b.attributes = attrs
    b.partition_leader_epoch = -1
    b.producer_id = -1
    b.producer_epoch = -1
    b.base_sequence = -1
    b.base_timestamp = ts
    b.max_timestamp = ts
    b.last_offset = offset
    b._max_decompressed = max_decompressed
    codec = attrs & ATTR_COMPRESSION_MASK
    if magic == 0 and attrs & ATTR_TIMESTAMP_TYPE:
        b.attributes = attrs & ~ATTR_TIMESTAMP_TYPE  # the bit has no meaning before magic 1
    if codec == 0:
        b.base_offset = offset
        b.record_count = 1
        b._legacy_records = [_legacy_record(src, src.ptr, offset, ts, 1 if (magic == 1 and attrs & ATTR_TIMESTAMP_TYPE) else 0,
                                            kp, kl, vp, vl, crc, total)]
        return b
    path = f"batches[{index}]"
    if codec > 4:
        _corrupt(f"unknown compression codec {codec}", start + LEGACY_ATTRIBUTES, path + ".attributes")
    if vl < 0:
        _corrupt("compressed wrapper has a null value", vp - 4, path + ".value")
    try:
        inflated = inflate(codec, src.ptr + vp, vl, max_decompressed, magic)
    except CorruptDataError as exc:
        if exc.offset is None:
            exc.offset = vp
        raise exc.prefix_path(path + ".value")
    b._legacy_records = _legacy_inner(inflated, magic, offset, ts, attrs, verify_crc, path + ".value",
                                      max_records)
    b.base_offset = (<Record>b._legacy_records[0])._offset
    b.record_count = len(b._legacy_records)
    return b


@cython.final
cdef class BatchIterator:
    """Iterates the entries of a buffer holding any mix of magic 0, 1 and 2.

    A truncated final entry (a Fetch response cut at max_bytes) ends the
    iteration; `trailing_bytes` then tells how many bytes were left over.
    Corruption anywhere else raises CorruptDataError.
    """

    def __iter__(self):
        return self

    @property
    def position(self):
        """Byte offset of the next entry."""
        return self._pos

    def __next__(self):
        cdef Py_ssize_t start = self._pos
        cdef Py_ssize_t left = self._src.size - start
        cdef const uint8_t *p = self._src.ptr + start
        cdef int32_t length
        cdef int magic
        cdef RecordBatch b
        if left < LOG_OVERHEAD + 5:
            self.trailing_bytes = left
            raise StopIteration
        length = <int32_t>kc_load_be32(p + V2_LENGTH)
        if length < 0:
            _corrupt(f"negative batch length {length}", start + V2_LENGTH, f"batches[{self._index}].length")
        if <int64_t>length + LOG_OVERHEAD > left:
            # A partial trailing entry is normal at the end of a fetch.
            self.trailing_bytes = left
            raise StopIteration
        magic = <int8_t>p[V2_MAGIC]
        if magic == 2:
            b = _parse_v2_header(self._src, start, length + LOG_OVERHEAD, self._verify_crc, self._index)
            check_record_count(b.record_count, self._max_records, start, self._index)
            b._max_decompressed = self._max_decompressed
        elif magic == 0 or magic == 1:
            b = _parse_legacy(self._src, start, length + LOG_OVERHEAD, self._verify_crc, self._index,
                              self._max_decompressed, self._max_records)
        else:
            raise CorruptDataError(f"unknown record magic {magic}", start + V2_MAGIC,
                                   f"batches[{self._index}].magic")
        self._pos = start + length + LOG_OVERHEAD
        self._index += 1
        return b


def iter_batches(data, *, bint verify_crc=True, max_decompressed_size=None, max_records_per_batch=None):
    """Iterate the record batches / legacy entries in a bytes-like object
    without copying it.  The batches keep `data` alive (and, for a bytearray,
    un-resizable) while they exist.  A batch inflating to more than
    max_decompressed_size bytes, or holding more than max_records_per_batch
    records, raises (None: the process defaults in records.compression)."""
    cdef BatchIterator it = BatchIterator.__new__(BatchIterator)
    it._max_decompressed = _resolve_limit(max_decompressed_size)
    it._max_records = _resolve_record_limit(max_records_per_batch)
    it._src = _make_source(data)
    it._pos = 0
    it._index = 0
    it._verify_crc = verify_crc
    it.trailing_bytes = 0
    return it


# ---------------------------------------------------------------- building

cdef inline int _buffer_of(object obj, Py_buffer *view, const uint8_t **ptr, Py_ssize_t *n) except -1:
    """Pointer and length of a key/value; returns 1 when `view` must be released."""
    if obj is None:
        ptr[0] = NULL
        n[0] = -1
        return 0
    if PyBytes_CheckExact(obj):
        ptr[0] = <const uint8_t *>PyBytes_AS_STRING(obj)
        n[0] = PyBytes_GET_SIZE(obj)
        return 0
    try:
        PyObject_GetBuffer(obj, view, PyBUF_SIMPLE)
    except TypeError:
        raise EncodeError(f"key, value and header values must be bytes-like or None, not {type(obj).__name__}")
    ptr[0] = <const uint8_t *>view.buf
    n[0] = view.len
    return 1


cdef inline Py_ssize_t _varint_size(int64_t v) noexcept:
    return uvarint_size(zigzag64(v))


cdef object _now_ms():
    return int(_time.time() * 1000)


@cython.final
cdef class RecordBatchBuilder:
    """Builds one record batch (magic 2) or legacy message set (magic 0/1).

    append() returns the record's offset, or None when the batch is full
    (the first record is always accepted).  build() returns the finished
    batch with its length and CRC written in place.

    ``buffer=`` (a bytearray, e.g. from a BufferPool; batch_size bytes hold
    any batch but one of a single larger record) makes the builder write in
    it, and build() return a read-only memoryview of the batch in it: the
    producer's batches live in its pool's buffers, nowhere else.  ``pool=``
    draws such a buffer from a BufferPool and returns it on build() (which
    then returns a copy) or close().
    """
    cdef readonly int magic
    cdef readonly int compression_id
    cdef object _level
    cdef readonly int64_t base_offset
    cdef readonly int timestamp_type
    cdef readonly int64_t producer_id
    cdef readonly int producer_epoch
    cdef readonly int32_t base_sequence
    cdef readonly bint is_transactional
    cdef readonly bint is_control
    cdef readonly int32_t partition_leader_epoch
    cdef readonly Py_ssize_t batch_size
    cdef int32_t _max_records
    cdef Writer _w
    cdef readonly int32_t record_count
    cdef int64_t _first_timestamp
    cdef readonly int64_t max_timestamp
    cdef int64_t _log_append_time
    cdef bint _built
    cdef object _pool
    cdef object _pool_buffer
    cdef object _buffer             # the caller's buffer= (build() returns a view of it)
    cdef double _max_block

    def __init__(self, int magic=2, compression="none", *, int64_t base_offset=0,
                 int timestamp_type=0, int64_t producer_id=-1, int producer_epoch=-1,
                 int32_t base_sequence=-1, bint is_transactional=False, bint is_control=False,
                 int32_t partition_leader_epoch=-1, Py_ssize_t batch_size=1048576,
                 compression_level=None, log_append_time=None, pool=None, double max_block_seconds=60.0,
                 buffer=None, int32_t max_records=0x7FFFFFFF):
        if magic not in (0, 1, 2):
            raise UnsupportedVersionError(f"record magic must be 0, 1 or 2, not {magic}")
        if timestamp_type not in (0, 1):
            raise ValueError("timestamp_type must be 0 (create time) or 1 (log append time)")
        if magic < 2 and (is_transactional or is_control or producer_id != -1):
            raise ValueError("transactions, control records and producer ids need magic 2")
        if pool is not None and buffer is not None:
            raise ValueError("pass pool= or buffer=, not both")
        if max_records < 1:
            raise ValueError(f"max_records must be at least 1, not {max_records}")
        self._max_records = max_records
        self.magic = magic
        self.compression_id = _compression.codec_id(compression)
        if magic == 0 and self.compression_id == 4:
            raise UnsupportedVersionError("zstd needs magic 2")
        self._level = compression_level
        self.base_offset = base_offset
        self.timestamp_type = timestamp_type
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.base_sequence = base_sequence
        self.is_transactional = is_transactional
        self.is_control = is_control
        self.partition_leader_epoch = partition_leader_epoch
        self.batch_size = batch_size
        self._log_append_time = -1 if log_append_time is None else log_append_time
        self.record_count = 0
        self._first_timestamp = -1
        self.max_timestamp = -1
        self._max_block = max_block_seconds
        if buffer is not None:
            self._w = Writer(16)
            self._w.use_buffer(buffer)
            self._buffer = buffer
        elif pool is not None:
            self._w = Writer(16)
            self._pool_buffer = pool.allocate(batch_size, max_block_seconds)
            self._pool = pool
            self._w.use_buffer(self._pool_buffer)
        else:
            self._w = Writer(min(batch_size, 1 << 16) + V2_RECORDS)
        if magic == 2:
            self._w.reserve(V2_RECORDS)

    @property
    def size_in_bytes(self):
        """Bytes written so far (uncompressed)."""
        return self._w.length

    def is_full(self):
        return self.record_count > 0 and self.size_in_bytes >= self.batch_size

    def set_producer(self, int64_t producer_id, int producer_epoch, int32_t base_sequence, bint is_transactional):
        """The producer id, epoch, base sequence and transactional flag build()
        writes into the header (an idempotent producer numbers a batch when it
        seals it, after records were appended)."""
        if self._built:
            raise KafkaCodecError("the batch has already been built")
        if self.magic < 2:
            raise ValueError("transactions, control records and producer ids need magic 2")
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.base_sequence = base_sequence
        self.is_transactional = is_transactional

    def append(self, timestamp, key, value, headers=None):
        """Add a record; returns its offset, or None if the batch is full.
        timestamp is in milliseconds (None: now); headers are (str, bytes|None) pairs."""
        cdef int64_t ts = _now_ms() if timestamp is None else timestamp
        cdef int64_t delta
        if self._built:
            raise KafkaCodecError("the batch has already been built")
        if self.magic == 2:
            delta = self._append_v2(ts, key, value, headers)
            return None if delta < 0 else self.base_offset + delta
        return self._append_legacy(ts, key, value, headers)

    def append_many(self, records):
        """Append (timestamp, key, value[, headers]) tuples until the batch is
        full; returns how many were added.  Same result as calling append()
        for each, without a Python call per record."""
        if self._built:
            raise KafkaCodecError("the batch has already been built")
        return self._append_from(records if isinstance(records, (list, tuple)) else list(records), 0)

    cpdef Py_ssize_t _append_from(self, object seq, Py_ssize_t start) except -1:
        cdef Py_ssize_t i, n, added = 0
        cdef object item, ts_obj, headers
        cdef int64_t ts
        cdef bint is_list = type(seq) is list
        n = len(seq)
        for i in range(start, n):
            item = <object>PyList_GET_ITEM(seq, i) if is_list else seq[i]
            if not isinstance(item, tuple) or not 3 <= len(<tuple>item) <= 4:
                raise EncodeError(f"records must be (timestamp, key, value[, headers]) tuples, got {item!r}")
            ts_obj = (<tuple>item)[0]
            ts = _now_ms() if ts_obj is None else ts_obj
            headers = (<tuple>item)[3] if len(<tuple>item) == 4 else None
            if self.magic == 2:
                if self._append_v2(ts, (<tuple>item)[1], (<tuple>item)[2], headers) < 0:
                    break
            elif self._append_legacy_fast(ts, (<tuple>item)[1], (<tuple>item)[2], headers) < 0:
                break
            added += 1
        return added

    cdef int64_t _append_v2(self, int64_t ts, object key, object value, object headers) except -2:
        # The offset delta of the record, or -1 when the batch is full (no
        # Python int per record on the bulk path).  bytes and None, the usual
        # keys and values, need no buffer export to release.
        cdef Py_buffer kview, vview
        cdef const uint8_t *kp = NULL
        cdef const uint8_t *vp = NULL
        cdef Py_ssize_t klen = -1, vlen = -1
        cdef int krel = 0, vrel = 0
        if key is not None:
            if PyBytes_CheckExact(key):
                kp = <const uint8_t *>PyBytes_AS_STRING(key)
                klen = PyBytes_GET_SIZE(key)
            else:
                krel = 1
        if value is not None:
            if PyBytes_CheckExact(value):
                vp = <const uint8_t *>PyBytes_AS_STRING(value)
                vlen = PyBytes_GET_SIZE(value)
            else:
                vrel = 1
        if not krel and not vrel:
            return self._append_v2_raw(ts, kp, klen, vp, vlen, headers)
        krel = _buffer_of(key, &kview, &kp, &klen)
        try:
            vrel = _buffer_of(value, &vview, &vp, &vlen)
            try:
                return self._append_v2_raw(ts, kp, klen, vp, vlen, headers)
            finally:
                if vrel:
                    PyBuffer_Release(&vview)
        finally:
            if krel:
                PyBuffer_Release(&kview)

    cdef int64_t _append_v2_raw(self, int64_t ts, const uint8_t *kp, Py_ssize_t klen,
                                const uint8_t *vp, Py_ssize_t vlen, object headers) except -2:
        cdef Py_ssize_t body, hsize = 0
        cdef int64_t ts_delta
        cdef int32_t delta = self.record_count
        cdef Writer w = self._w
        cdef list encoded_headers = None
        cdef uint8_t *out
        if self.record_count == 0:
            self._first_timestamp = ts
        ts_delta = ts - self._first_timestamp
        if headers:
            encoded_headers, hsize = _encode_headers(headers)
        body = (1 + _varint_size(ts_delta) + _varint_size(delta)
                + _varint_size(klen) + (klen if klen > 0 else 0)
                + _varint_size(vlen) + (vlen if vlen > 0 else 0)
                + (_varint_size(len(encoded_headers) // 2) + hsize if encoded_headers else 1))
        if self.record_count > 0 and (w.length + body + MAX_VARLONG_LEN > self.batch_size
                                      or self.record_count >= self._max_records):
            return -1
        if body > 0x7FFFFFFF:
            raise EncodeError("record larger than 2 GiB")
        w.ensure(body + MAX_VARLONG_LEN)
        # Write straight into the buffer: one capacity check per record.
        out = w.buf + w.length
        out += write_uvarint64(out, zigzag32(<int32_t>body))
        out[0] = 0
        out += 1
        out += write_uvarint64(out, zigzag64(ts_delta))
        out += write_uvarint64(out, zigzag32(delta))
        out += write_uvarint64(out, zigzag32(<int32_t>klen))
        if klen > 0:
            memcpy(out, kp, klen)
            out += klen
        out += write_uvarint64(out, zigzag32(<int32_t>vlen))
        if vlen > 0:
            memcpy(out, vp, vlen)
            out += vlen
        if encoded_headers is None:
            out[0] = 0
            out += 1
            w.length = out - w.buf
        else:
            w.length = out - w.buf
            _write_headers(w, encoded_headers)
        if ts > self.max_timestamp or self.record_count == 0:
            self.max_timestamp = ts
        self.record_count += 1
        return delta

    cdef int64_t _append_legacy_fast(self, int64_t ts, object key, object value, object headers) except -2:
        # The record's offset delta, or -1 when the set is full.  The message
        # goes straight into the builder's writer (the inner message set when
        # compressed), as v2 records do: no Python object kept per record.
        cdef Py_buffer kview, vview
        cdef const uint8_t *kp = NULL
        cdef const uint8_t *vp = NULL
        cdef Py_ssize_t kn = -1, vn = -1, size
        cdef int krel = 0, vrel = 0
        cdef int64_t offset
        cdef int attributes = 0
        if headers:
            raise EncodeError("record headers need magic 2")
        krel = _buffer_of(key, &kview, &kp, &kn)
        try:
            vrel = _buffer_of(value, &vview, &vp, &vn)
            try:
                # Full when the next message would pass batch_size, sized as
                # the clients size it (magic-1 overhead whatever the magic).
                size = (kn if kn > 0 else 0) + (vn if vn > 0 else 0)
                if self.record_count > 0 and (self._w.length + LOG_OVERHEAD + LEGACY_V1_OVERHEAD + size
                                              > self.batch_size or self.record_count >= self._max_records):
                    return -1
                if ts > self.max_timestamp or self.record_count == 0:
                    self.max_timestamp = ts
                if self.compression_id == 0:
                    offset = self.base_offset + self.record_count
                    if self.timestamp_type == 1 and self.magic == 1:
                        attributes = ATTR_TIMESTAMP_TYPE
                elif self.magic == 1:
                    offset = self.record_count  # magic 1 inner offsets are relative
                else:
                    offset = self.base_offset + self.record_count
                _write_legacy_message(self._w, self.magic, offset, self._legacy_timestamp(ts), attributes,
                                      kp, kn, vp, vn)
            finally:
                if vrel:
                    PyBuffer_Release(&vview)
        finally:
            if krel:
                PyBuffer_Release(&kview)
        self.record_count += 1
        return self.record_count - 1

    cdef object _append_legacy(self, int64_t ts, object key, object value, object headers):
        cdef int64_t delta = self._append_legacy_fast(ts, key, value, headers)
        return None if delta < 0 else self.base_offset + delta

    def build(self):
        """Finish the batch and return it: bytes, or with buffer= a read-only
        memoryview of the batch in that buffer."""
        cdef Writer w = self._w
        if self._built:
            raise KafkaCodecError("the batch has already been built")
        self._built = True
        try:
            if self.magic == 2:
                self._build_v2()
            else:
                self._build_legacy()
            if w.in_place and self._buffer is not None:
                return memoryview(self._buffer).cast("B")[:w.length].toreadonly()
            return w.take_bytes()
        finally:
            self._release_pool()

    def close(self):
        """Give the pooled buffer back without building."""
        self._built = True
        self._release_pool()

    cdef _release_pool(self):
        if self._pool is not None and self._pool_buffer is not None:
            buf = self._pool_buffer
            self._pool_buffer = None
            if self._w is not None:
                self._w.detach()   # the buffer is the pool's again: nothing may write in it
            self._pool.deallocate(buf)

    def __dealloc__(self):
        if self._pool is not None and self._pool_buffer is not None:
            try:
                self._pool.deallocate(self._pool_buffer)
            except Exception:
                pass

    cdef _build_v2(self):
        # The batch is left in self._w.
        cdef Writer w = self._w
        cdef int16_t attrs = self.compression_id
        cdef uint32_t crc
        if self.timestamp_type == 1:
            attrs |= ATTR_TIMESTAMP_TYPE
        if self.is_transactional:
            attrs |= ATTR_TRANSACTIONAL
        if self.is_control:
            attrs |= ATTR_CONTROL
        if self.compression_id == 0 or self.record_count == 0:
            if self.compression_id != 0:
                attrs &= ~ATTR_COMPRESSION_MASK
        else:
            body = PyMemoryView_FromMemory(<char *>(w.buf + V2_RECORDS), len(w) - V2_RECORDS, PyBUF_READ)
            try:
                payload = _compress(self.compression_id, body, level=self._level)
            finally:
                body.release()
            # the compressed records replace the plain ones, in the same buffer
            w.length = V2_RECORDS
            w.write_object(payload)
        self._write_v2_header(w, attrs)

    cdef _write_v2_header(self, Writer out, int16_t attrs):
        cdef int64_t max_ts = self.max_timestamp
        cdef int64_t first_ts = self._first_timestamp
        if self.record_count == 0:
            max_ts = -1
            first_ts = -1
        if self.timestamp_type == 1 and self._log_append_time >= 0:
            max_ts = self._log_append_time
        v2_write_header(out.buf, out.length, self.base_offset, self.partition_leader_epoch, attrs,
                        self.record_count - 1 if self.record_count > 0 else 0, first_ts, max_ts,
                        self.producer_id, <int16_t>self.producer_epoch, self.base_sequence, self.record_count)

    cdef _build_legacy(self):
        # The message set is left in self._w (empty without records).
        cdef Writer w = self._w
        cdef bytes payload
        cdef int attrs = self.compression_id
        cdef int64_t wrapper_ts
        if self.record_count == 0 or self.compression_id == 0:
            return
        if self.timestamp_type == 1 and self.magic == 1:
            attrs |= ATTR_TIMESTAMP_TYPE
        payload = _compress(self.compression_id, w.take_bytes(), level=self._level, magic=self.magic)
        wrapper_ts = self._log_append_time if (self.timestamp_type == 1 and self._log_append_time >= 0) else self.max_timestamp
        # the wrapper replaces the inner messages, in the same buffer
        w.length = 0
        _write_legacy_message(w, self.magic, self.base_offset + self.record_count - 1, wrapper_ts, attrs,
                              <const uint8_t *>PyBytes_AS_STRING(payload), -1, <const uint8_t *>PyBytes_AS_STRING(payload),
                              PyBytes_GET_SIZE(payload))

    cdef int64_t _legacy_timestamp(self, int64_t ts):
        if self.timestamp_type == 1 and self._log_append_time >= 0:
            return self._log_append_time
        return ts


def set_batch_producer(buffer, int64_t producer_id, int producer_epoch, int32_t base_sequence,
                       bint is_transactional):
    """Rewrite the producer id, epoch, base sequence and transactional flag of
    the built v2 batch at the start of the writable `buffer` (which may be
    longer than the batch), and its CRC."""
    cdef Py_buffer view
    cdef uint8_t *p
    cdef Py_ssize_t total
    PyObject_GetBuffer(buffer, &view, PyBUF_WRITABLE)
    try:
        p = <uint8_t *>view.buf
        if view.len < V2_RECORDS or p[V2_MAGIC] != 2:
            raise ValueError("not a v2 record batch")
        total = LOG_OVERHEAD + <int32_t>kc_load_be32(p + V2_LENGTH)
        if total < V2_RECORDS or total > view.len:
            raise ValueError(f"batch length {total} outside {V2_RECORDS}..{view.len}")
        v2_write_producer(p, total, producer_id, <int16_t>producer_epoch, base_sequence, is_transactional)
    finally:
        PyBuffer_Release(&view)


cdef int64_t builder_append(object builder, int64_t timestamp, object key, object value) except -3:
    """``builder.append(timestamp, key, value)`` for other compiled modules (the
    producer's send path): the record's index in the batch, -1 when the batch
    is full, -2 when ``builder`` is not an open v2 RecordBatchBuilder (the
    caller then takes its general path).  Runs no Python code for bytes keys
    and values."""
    cdef RecordBatchBuilder b
    if type(builder) is not RecordBatchBuilder:
        return -2
    b = <RecordBatchBuilder>builder
    if b._built or b.magic != 2:
        return -2
    return b._append_v2(timestamp, key, value, None)


cdef int _write_legacy_message(Writer out, int magic, int64_t offset, int64_t timestamp, int attributes,
                               const uint8_t *kp, Py_ssize_t kn, const uint8_t *vp, Py_ssize_t vn) except -1:
    """One magic 0/1 message; a length of -1 writes a null key or value."""
    cdef Py_ssize_t start, crc_at, body
    cdef uint8_t *p
    body = (LEGACY_V1_OVERHEAD if magic == 1 else LEGACY_V0_OVERHEAD) + (kn if kn > 0 else 0) + (vn if vn > 0 else 0)
    if body > 0x7FFFFFFF:
        raise EncodeError("message larger than 2 GiB")
    out.ensure(LOG_OVERHEAD + body)
    start = out.length
    p = out.buf + start
    kc_store_be64(p, <uint64_t>offset)
    kc_store_be32(p + 8, <uint32_t>body)
    p[LEGACY_MAGIC] = <uint8_t>magic
    p[LEGACY_ATTRIBUTES] = <uint8_t>attributes
    p += LEGACY_ATTRIBUTES + 1
    if magic == 1:
        kc_store_be64(p, <uint64_t>timestamp)
        p += 8
    kc_store_be32(p, <uint32_t>(<int32_t>kn if kn >= 0 else -1))
    p += 4
    if kn > 0:
        memcpy(p, kp, kn)
        p += kn
    kc_store_be32(p, <uint32_t>(<int32_t>vn if vn >= 0 else -1))
    p += 4
    if vn > 0:
        memcpy(p, vp, vn)
        p += vn
    out.length = start + LOG_OVERHEAD + body
    crc_at = start + LEGACY_CRC
    kc_store_be32(out.buf + crc_at, crc32_update(0, out.buf + crc_at + 4, <size_t>(out.length - crc_at - 4)))
    return 0


cdef tuple _encode_headers(object headers):
    """Flatten headers to [key bytes, value bytes|None, ...] and their encoded size."""
    cdef list flat = []
    cdef Py_ssize_t size = 0
    for item in headers:
        try:
            hk, hv = item
        except (TypeError, ValueError):
            raise EncodeError(f"headers must be (key, value) pairs, got {item!r}")
        if isinstance(hk, str):
            hk = (<str>hk).encode("utf-8", "surrogateescape")
        elif isinstance(hk, (bytes, bytearray, memoryview)):
            hk = bytes(hk)
        else:
            raise EncodeError(f"header keys must be str or bytes, not {type(hk).__name__}")
        if hv is not None:
            if not isinstance(hv, bytes):
                try:
                    hv = bytes(memoryview(hv))
                except TypeError:
                    raise EncodeError(f"header values must be bytes-like or None, not {type(hv).__name__}")
        flat.append(hk)
        flat.append(hv)
        size += _varint_size(len(hk)) + len(hk)
        size += _varint_size(-1 if hv is None else len(hv)) + (0 if hv is None else len(hv))
    return flat, size


cdef _write_headers(Writer w, list flat):
    cdef Py_ssize_t i
    w.write_varint(<int32_t>(len(flat) // 2))
    for i in range(0, len(flat), 2):
        hk = flat[i]
        hv = flat[i + 1]
        w.write_varint(<int32_t>len(hk))
        w.write_object(hk)
        if hv is None:
            w.write_varint(-1)
        else:
            w.write_varint(<int32_t>len(hv))
            w.write_object(hv)


# Not hot: filtering, flattening, batch splitting and markers are shared with the pure twin.
filtered_batches, _decode_records_filtered, build_batches, build_control_batch = _common.bind(
    iter_batches, RecordBatchBuilder)


def decode_records(data, *, isolation_level="read_uncommitted", aborted_transactions=None, verify_crc=True,
                   max_decompressed_size=None, max_records_per_batch=None, topic=None, partition=None,
                   record_class=None):
    """Flatten the batches a consumer would see (see filtered_batches) into a
    list of Records; control records are never included.  ``topic`` and
    ``partition``, when given, are set on every record; ``record_class``, a
    subclass of Record, is the class of the records made (as RecordBatch.records)."""
    cdef BatchIterator it
    cdef RecordBatch b
    cdef list out
    if isolation_level not in ("read_uncommitted", 0):
        return _decode_records_filtered(data, isolation_level=isolation_level,
                                        aborted_transactions=aborted_transactions, verify_crc=verify_crc,
                                        max_decompressed_size=max_decompressed_size,
                                        max_records_per_batch=max_records_per_batch,
                                        topic=topic, partition=partition, record_class=record_class)
    # The consumer's common case, one compiled loop: every batch but markers.
    it = iter_batches(data, verify_crc=verify_crc, max_decompressed_size=max_decompressed_size,
                      max_records_per_batch=max_records_per_batch)
    out = []
    for b in it:
        if b.magic >= 2 and b.attributes & ATTR_CONTROL:
            continue
        out.extend(b.records(topic, partition, record_class))
    return out
