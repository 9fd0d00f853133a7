# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Arrow columns to v2 record batches (the producer side of kafkacodec.arrow).

The records of a batch are written from the Arrow buffers in C without the
GIL; the batch header is the one v2 header writer (records/_v2.pxd)."""
cimport cython
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.bytearray cimport PyByteArray_FromStringAndSize
from cpython.memoryview cimport PyMemoryView_FromMemory
from cpython.buffer cimport PyBUF_READ
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t
from libc.string cimport memcpy

from kafkacodec._growbuf cimport GrowBuf, gb_reserve, gb_free
from kafkacodec._primitives cimport write_uvarint64, zigzag32, zigzag64, uvarint_size, MAX_VARLONG_LEN
from kafkacodec.records._layout cimport V2_RECORDS, ATTR_TRANSACTIONAL
from kafkacodec.records._v2 cimport v2_write_header

import pyarrow as _pa

import kafkacodec.records.compression as _compression
from kafkacodec.errors import EncodeError

_WIDE_BINARY_IDS = {_pa.large_binary().id, _pa.large_string().id}

cdef object _compress = _compression.compress


cdef struct BinCol:
    # One Arrow binary/string column (or the header key/value child):
    # validity bitmap (NULL when there are no nulls), offsets, data.
    const uint8_t *valid
    const uint8_t *offsets
    const uint8_t *data
    Py_ssize_t base                  # the array's slice offset
    bint wide                        # 64-bit offsets (large_binary / large_string)


cdef inline bint bc_is_null(const BinCol *c, Py_ssize_t i) noexcept nogil:
    cdef Py_ssize_t j
    if c.valid == NULL:
        return False
    j = c.base + i
    return not ((c.valid[j >> 3] >> (j & 7)) & 1)


cdef inline void offset_pair(const uint8_t *offsets, Py_ssize_t j, bint wide,
                             int64_t *start, int64_t *end) noexcept nogil:
    # Arrow offsets j and j + 1, 32- or 64-bit, read unaligned-safe.
    cdef int32_t s32, e32
    if wide:
        memcpy(start, offsets + 8 * j, 8)
        memcpy(end, offsets + 8 * j + 8, 8)
    else:
        memcpy(&s32, offsets + 4 * j, 4)
        memcpy(&e32, offsets + 4 * j + 4, 4)
        start[0] = s32
        end[0] = e32


cdef inline Py_ssize_t bc_get(const BinCol *c, Py_ssize_t i, const uint8_t **p) noexcept nogil:
    # Length of entry i, or -1 when null; p points at its bytes.
    cdef Py_ssize_t j = c.base + i
    cdef int64_t s, e
    if bc_is_null(c, i):
        return -1
    offset_pair(c.offsets, j, c.wide, &s, &e)
    p[0] = c.data + s
    return <Py_ssize_t>(e - s)


cdef inline Py_ssize_t vsize(int64_t v) noexcept nogil:
    return uvarint_size(zigzag64(v))


cdef class _Columns:
    """Holds the Arrow buffers a BinCol points into for the duration of an encode."""
    cdef list keep
    cdef list views

    def __cinit__(self):
        self.keep = []
        self.views = []

    cdef const uint8_t *ptr(self, buf, Py_ssize_t need) except? NULL:
        # A read-only view of an Arrow buffer, checked to hold `need` bytes
        # (Arrow guarantees it; a foreign producer of arrays might not).
        cdef const uint8_t[::1] mv
        if buf is None:
            if need > 0:
                raise EncodeError("an Arrow buffer is missing")
            return NULL
        mv = memoryview(buf).cast("B")
        if mv.shape[0] < need:
            raise EncodeError("an Arrow buffer is shorter than its array says")
        self.views.append(mv)
        if mv.shape[0] == 0:
            return <const uint8_t *>""
        return &mv[0]

    cdef int binary(self, BinCol *c, arr) except -1:
        cdef Py_ssize_t n = len(arr)
        bufs = arr.buffers()
        self.keep.append(arr)
        c.base = arr.offset
        c.wide = arr.type.id in _WIDE_BINARY_IDS
        width = 8 if c.wide else 4
        c.valid = NULL
        if arr.null_count:
            c.valid = self.ptr(bufs[0], (c.base + n + 7) // 8)
        c.offsets = self.ptr(bufs[1], (c.base + n + 1) * width)
        last = 0
        if n:
            last = (int.from_bytes(bytes(memoryview(bufs[1])[(c.base + n) * width:(c.base + n + 1) * width]),
                                   "little", signed=True))
        c.data = self.ptr(bufs[2], last) if bufs[2] is not None or last else <const uint8_t *>""
        return 0



cdef struct HeaderCols:
    const uint8_t *list_valid
    const uint8_t *list_offsets
    Py_ssize_t list_base
    bint wide_list
    BinCol keys
    BinCol values


cdef inline Py_ssize_t headers_of(const HeaderCols *h, Py_ssize_t i, Py_ssize_t *first) noexcept nogil:
    # Number of headers of row i; first receives the index of its first header.
    cdef Py_ssize_t j = h.list_base + i
    cdef int64_t s, e
    if h.list_valid != NULL and not ((h.list_valid[j >> 3] >> (j & 7)) & 1):
        return 0
    offset_pair(h.list_offsets, j, h.wide_list, &s, &e)
    first[0] = <Py_ssize_t>s
    return <Py_ssize_t>(e - s)


cdef struct EncodeState:
    const int64_t *ts                # NULL: every record has default_ts
    int64_t default_ts
    const int64_t *rows              # NULL: records are rows 0..n-1; else the rows in record order
    BinCol keys
    BinCol values
    bint has_headers
    HeaderCols headers


cdef Py_ssize_t _record_body_size(const EncodeState *st, Py_ssize_t i, int64_t ts_delta,
                                  int32_t delta) noexcept nogil:
    cdef const uint8_t *p
    cdef Py_ssize_t klen = bc_get(&st.keys, i, &p)
    cdef Py_ssize_t vlen = bc_get(&st.values, i, &p)
    cdef Py_ssize_t body, hfirst = 0, hcount = 0, h, hk, hv
    body = (1 + vsize(ts_delta) + vsize(delta) + vsize(klen) + (klen if klen > 0 else 0)
            + vsize(vlen) + (vlen if vlen > 0 else 0))
    if st.has_headers:
        hcount = headers_of(&st.headers, i, &hfirst)
    body += vsize(hcount)
    for h in range(hfirst, hfirst + hcount):
        hk = bc_get(&st.headers.keys, h, &p)
        hv = bc_get(&st.headers.values, h, &p)
        body += vsize(hk) + hk + vsize(hv) + (hv if hv > 0 else 0)
    return body


cdef uint8_t *_write_record(uint8_t *out, const EncodeState *st, Py_ssize_t i, Py_ssize_t body,
                            int64_t ts_delta, int32_t delta) noexcept nogil:
    cdef const uint8_t *p = NULL
    cdef Py_ssize_t n, hfirst = 0, hcount = 0, h
    out += write_uvarint64(out, zigzag32(<int32_t>body))
    out[0] = 0                                   # record attributes
    out += 1
    out += write_uvarint64(out, zigzag64(ts_delta))
    out += write_uvarint64(out, zigzag32(delta))
    n = bc_get(&st.keys, i, &p)
    out += write_uvarint64(out, zigzag32(<int32_t>n))
    if n > 0:
        memcpy(out, p, n)
        out += n
    n = bc_get(&st.values, i, &p)
    out += write_uvarint64(out, zigzag32(<int32_t>n))
    if n > 0:
        memcpy(out, p, n)
        out += n
    if st.has_headers:
        hcount = headers_of(&st.headers, i, &hfirst)
    out += write_uvarint64(out, zigzag32(<int32_t>hcount))
    for h in range(hfirst, hfirst + hcount):
        n = bc_get(&st.headers.keys, h, &p)
        out += write_uvarint64(out, zigzag32(<int32_t>n))
        memcpy(out, p, n)
        out += n
        n = bc_get(&st.headers.values, h, &p)
        out += write_uvarint64(out, zigzag32(<int32_t>n))
        if n > 0:
            memcpy(out, p, n)
            out += n
    return out


cdef inline Py_ssize_t _row(const EncodeState *st, Py_ssize_t i) noexcept nogil:
    return <Py_ssize_t>st.rows[i] if st.rows != NULL else i


cdef inline int64_t _ts(const EncodeState *st, Py_ssize_t row) noexcept nogil:
    return st.ts[row] if st.ts != NULL else st.default_ts


cdef Py_ssize_t _fill_batch(GrowBuf *records, const EncodeState *st, Py_ssize_t start, Py_ssize_t n,
                            Py_ssize_t batch_size, int64_t *max_ts) noexcept nogil:
    # Appends records start.. to `records` until the batch is full (the
    # first record always goes in); returns how many, or -1 without memory.
    # Same closing rule as RecordBatchBuilder: 61 header bytes count.
    cdef Py_ssize_t i, row, body, used = V2_RECORDS
    cdef int64_t first_ts = _ts(st, _row(st, start)), ts, ts_delta
    cdef int32_t delta
    max_ts[0] = first_ts
    for i in range(start, n):
        row = _row(st, i)
        ts = _ts(st, row)
        delta = <int32_t>(i - start)
        ts_delta = ts - first_ts
        body = _record_body_size(st, row, ts_delta, delta)
        if i > start and used + body + MAX_VARLONG_LEN > batch_size:
            return i - start
        if body > 0x7FFFFFFF or i - start >= 0x7FFFFFFF:
            return -2
        if gb_reserve(records, body + MAX_VARLONG_LEN):
            return -1
        records.len = _write_record(records.data + records.len, st, row, body, ts_delta, delta) - records.data
        used += uvarint_size(zigzag32(<int32_t>body)) + body
        if ts > max_ts[0]:
            max_ts[0] = ts
    return n - start


def encode_v2(timestamps, keys, values, headers, *, int compression_id, compression_level,
              Py_ssize_t batch_size, int64_t base_offset, int64_t producer_id, int producer_epoch,
              int32_t base_sequence, bint is_transactional, int32_t partition_leader_epoch=-1,
              int64_t default_timestamp=-1, rows=None, bint writable=False):
    """v2 batches from Arrow arrays: `timestamps` an int64 array without nulls
    (ms) or None (every record stamped `default_timestamp`), `keys`/`values`
    binary-like arrays, `headers` None or a list<struct<key, value>> array
    without null entries; `rows` None (every row in order) or a C-contiguous
    int64 array of row indices, each checked, the records in its order.
    Returns the batches concatenated as bytes (a bytearray when `writable`).
    The per-record work runs in C without the GIL."""
    cdef EncodeState st
    cdef _Columns cols = _Columns()
    cdef Py_ssize_t n = len(values), rows_n = len(values), start = 0, added, batch_start
    cdef const int64_t[::1] rows_view
    cdef Py_ssize_t r
    cdef GrowBuf out, scratch
    cdef GrowBuf *target
    cdef int64_t max_ts = -1
    cdef int16_t attrs
    cdef uint8_t *h
    cdef int32_t seq
    cdef bytes payload
    cdef Py_ssize_t plen
    cdef const int64_t[::1] ts_view
    if len(keys) != n or (timestamps is not None and len(timestamps) != n) or (
            headers is not None and len(headers) != n):
        raise EncodeError("key, value, timestamp and header columns differ in length")
    out.data = NULL; out.len = 0; out.cap = 0
    scratch.data = NULL; scratch.len = 0; scratch.cap = 0
    st.ts = NULL
    st.default_ts = default_timestamp
    if timestamps is not None:
        cols.keep.append(timestamps)
        ts_view = timestamps.to_numpy(zero_copy_only=True) if n else None
        st.ts = &ts_view[0] if n else NULL
    st.rows = NULL
    if rows is not None:
        rows_view = rows
        n = rows_view.shape[0]
        for r in range(n):
            if rows_view[r] < 0 or rows_view[r] >= rows_n:
                raise EncodeError(f"rows[{r}]: row {rows_view[r]} is not one of the columns' {rows_n} rows")
        st.rows = &rows_view[0] if n else NULL
        if n == 0:
            return bytearray() if writable else b""
    cols.binary(&st.keys, keys)
    cols.binary(&st.values, values)
    st.has_headers = headers is not None
    if st.has_headers:
        bufs = headers.buffers()
        cols.keep.append(headers)
        st.headers.list_base = headers.offset
        st.headers.wide_list = _pa.types.is_large_list(headers.type)
        st.headers.list_valid = NULL
        if headers.null_count:
            st.headers.list_valid = cols.ptr(bufs[0], (headers.offset + n + 7) // 8)
        st.headers.list_offsets = cols.ptr(bufs[1], (headers.offset + n + 1) * (8 if st.headers.wide_list else 4))
        entries = headers.values
        if entries.null_count:
            raise EncodeError("headers: entries must not be null")
        hkeys = entries.field(0)
        if hkeys.null_count:
            raise EncodeError("headers: keys must not be null")
        cols.binary(&st.headers.keys, hkeys)
        cols.binary(&st.headers.values, entries.field(1))
    try:
        if n and compression_id == 0:
            # Uncompressed output is about the payload plus ~10 bytes a record.
            presize = sum(memoryview(b).nbytes for b in (values.buffers()[2], keys.buffers()[2]) if b is not None)
            if rows_n:
                presize = presize * n // rows_n  # a share of the columns' bytes (rows picked)
            if gb_reserve(&out, min(presize, 1 << 30) + 16 * n + 4096):
                raise MemoryError()
        while start < n:
            batch_start = out.len
            target = &out
            if compression_id != 0:
                scratch.len = 0
                target = &scratch
            else:
                if gb_reserve(&out, V2_RECORDS):
                    raise MemoryError()
                out.len += V2_RECORDS
            with nogil:
                added = _fill_batch(target, &st, start, n, batch_size, &max_ts)
            if added == -1:
                raise MemoryError()
            if added == -2:
                raise EncodeError(f"records[{start}]: record larger than 2 GiB")
            attrs = compression_id
            if compression_id != 0:
                compressed = PyMemoryView_FromMemory(<char *>scratch.data, scratch.len, PyBUF_READ)
                try:
                    payload = _compress(compression_id, compressed, level=compression_level)
                finally:
                    compressed.release()
                plen = PyBytes_GET_SIZE(payload)
                if gb_reserve(&out, V2_RECORDS + plen):
                    raise MemoryError()
                memcpy(out.data + out.len + V2_RECORDS, PyBytes_AS_STRING(payload), plen)
                out.len += V2_RECORDS + plen
            if is_transactional:
                attrs |= ATTR_TRANSACTIONAL
            h = out.data + batch_start
            seq = base_sequence + <int32_t>start if base_sequence >= 0 else -1
            with nogil:
                v2_write_header(h, out.len - batch_start, base_offset + start, partition_leader_epoch, attrs,
                                added - 1, _ts(&st, _row(&st, start)), max_ts, producer_id, producer_epoch,
                                seq, added)
            start += added
        if writable:
            return PyByteArray_FromStringAndSize(<char *>out.data, out.len)
        return PyBytes_FromStringAndSize(<char *>out.data, out.len) if out.len else b""
    finally:
        gb_free(&out)
        gb_free(&scratch)
