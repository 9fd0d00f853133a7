# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Record batches straight into Arrow-layout column buffers.

The per-record loop runs in C without the GIL and creates no Python object
per record: it appends offsets, lengths and bytes to growable buffers that
become Arrow buffers without a copy (`kafkacodec._buffer.OwnedBuffer`).
"""
cimport cython
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE, PyBUF_READ
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t
from libc.string cimport memcpy

from kafkacodec._primitives cimport kc_load_be16, kc_load_be32, kc_load_be64, utf8_valid
from kafkacodec.records._layout cimport *
from kafkacodec.records._legacy cimport LegacyMessage, LEGACY_OK, parse_legacy_message
from kafkacodec.records._v2 cimport RecordView, parse_v2_record, next_header, v2_header_ok
from kafkacodec.records._records cimport (raise_record_error, check_record_count, inflate, RecordBatch,
                                          BatchIterator)

from kafkacodec.errors import CorruptDataError
import kafkacodec.records.compression as _compression
from kafkacodec.records import iter_batches as _iter_batches


from kafkacodec._growbuf cimport *
from kafkacodec._buffer cimport pack_bits, take_growbuf


cdef object _bitmap(GrowBuf *valid, int64_t nulls):
    """Pack one byte per row into an Arrow validity bitmap (None if no nulls)."""
    return pack_bits(valid) if nulls else None


cdef _raise_offset_overflow(str what):
    raise OverflowError(f"{what} data exceeds 2 GiB: use binary_type='large_binary' or a smaller max_rows")


cdef struct BatchMeta:
    int64_t base_offset
    int64_t base_timestamp
    int64_t log_append_time     # -1 unless the batch uses log-append time
    int8_t timestamp_type
    int64_t producer_id
    int16_t producer_epoch
    int32_t base_sequence
    int32_t leader_epoch
    uint8_t transactional


cdef inline void _batch_meta(const uint8_t *p, BatchMeta *m) noexcept nogil:
    cdef int16_t attrs = <int16_t>kc_load_be16(p + V2_ATTRIBUTES)
    m.base_offset = <int64_t>kc_load_be64(p + V2_BASE_OFFSET)
    m.base_timestamp = <int64_t>kc_load_be64(p + V2_BASE_TIMESTAMP)
    m.timestamp_type = 1 if attrs & ATTR_TIMESTAMP_TYPE else 0
    m.log_append_time = <int64_t>kc_load_be64(p + V2_MAX_TIMESTAMP) if m.timestamp_type == 1 else -1
    m.producer_id = <int64_t>kc_load_be64(p + V2_PRODUCER_ID)
    m.producer_epoch = <int16_t>kc_load_be16(p + V2_PRODUCER_EPOCH)
    m.base_sequence = <int32_t>kc_load_be32(p + V2_BASE_SEQUENCE)
    m.leader_epoch = <int32_t>kc_load_be32(p + V2_LEADER_EPOCH)
    m.transactional = 1 if attrs & ATTR_TRANSACTIONAL else 0


cdef inline Py_ssize_t _put_cell(uint8_t *valid, uint8_t *ends, int ow, int32_t i, uint8_t *data,
                                 Py_ssize_t data_len, const uint8_t *src, int32_t n,
                                 int64_t *nulls) noexcept nogil:
    """Row i of the key or the value column (reserved by the caller): null when n < 0, else n bytes
    of src appended to data (data_len long so far); the row's end offset written ow bytes wide.
    Answers the data's new length."""
    if n < 0:
        valid[i] = 0
        nulls[0] += 1
    else:
        valid[i] = 1
        memcpy(data + data_len, src, n)
        data_len += n
    if ow == 4:
        (<int32_t *>ends)[i] = <int32_t>data_len
    else:
        (<int64_t *>ends)[i] = data_len
    return data_len


cdef enum:
    NCOLS = 19

# Indices into ColumnBuilder.bufs
cdef enum:
    C_OFFSET = 0
    C_TIMESTAMP = 1
    C_TS_TYPE = 2
    C_KEY_OFFSETS = 3
    C_KEY_DATA = 4
    C_KEY_VALID = 5
    C_VALUE_OFFSETS = 6
    C_VALUE_DATA = 7
    C_VALUE_VALID = 8
    C_HDR_OFFSETS = 9
    C_HK_OFFSETS = 10
    C_HK_DATA = 11
    C_HV_OFFSETS = 12
    C_HV_DATA = 13
    C_HV_VALID = 14
    C_PRODUCER_ID = 15
    C_PRODUCER_EPOCH = 16
    C_SEQUENCE = 17
    C_LEADER_EPOCH = 18

# finish()'s key for each column buffer, by index
_COLUMN_KEYS = ("offset", "timestamp", "timestamp_type", "key_offsets", "key_data", "key_valid",
                "value_offsets", "value_data", "value_valid", "header_offsets", "header_key_offsets",
                "header_key_data", "header_value_offsets", "header_value_data", "header_value_valid",
                "producer_id", "producer_epoch", "sequence", "partition_leader_epoch")

cdef enum FillResult:
    FILL_OK = 0
    FILL_PARSE_ERROR = -1
    FILL_NO_MEMORY = -2
    FILL_BAD_UTF8 = -3
    FILL_OFFSET_OVERFLOW = -4

cdef enum LegacyRow:
    LEGACY_ROW = 0
    LEGACY_OTHER = -1

# int32 Arrow offsets address at most this many data bytes.
cdef int64_t INT32_OFFSET_MAX = 0x7FFFFFFF


@cython.final
cdef class ColumnBuilder:
    """Accumulates the records of many batches as Arrow column buffers."""
    cdef GrowBuf bufs[NCOLS]
    cdef GrowBuf txn_valid            # is_transactional, one byte per row
    cdef readonly int64_t rows
    cdef readonly int64_t key_nulls
    cdef readonly int64_t value_nulls
    cdef readonly int64_t header_count
    cdef readonly int64_t header_value_nulls
    cdef readonly bint with_headers
    cdef readonly bint with_batch_columns
    cdef readonly bint large_offsets
    cdef int ow                     # byte width of binary offsets: 4, or 8 for large_binary
    cdef object _max_decompressed
    cdef Py_ssize_t _max_records

    def __cinit__(self, bint headers=True, bint batch_columns=False, max_decompressed_size=None,
                  bint large_offsets=False, Py_ssize_t size_hint=0, max_records_per_batch=None):
        cdef int i
        for i in range(NCOLS):
            self.bufs[i].data = NULL
            self.bufs[i].len = 0
            self.bufs[i].cap = 0
        self.with_headers = headers
        self.with_batch_columns = batch_columns
        self._max_decompressed = _compression.resolve_limit(max_decompressed_size)
        self._max_records = _compression.resolve_record_limit(max_records_per_batch)
        self.large_offsets = large_offsets
        self.ow = 8 if large_offsets else 4
        # Uncompressed input bounds the key and value bytes: size for it once,
        # and the fixed-width columns for a typical record size (untouched
        # reservations cost address space only).
        if size_hint > 0 and self._presize(size_hint) != 0:
            raise MemoryError()
        self._start_offsets()

    def __dealloc__(self):
        cdef int i
        for i in range(NCOLS):
            gb_free(&self.bufs[i])
        gb_free(&self.txn_valid)

    cdef int _presize(self, Py_ssize_t size_hint) noexcept:
        cdef GrowBuf *b = self.bufs
        cdef Py_ssize_t rows = min(size_hint // 48 + 16, 1 << 26)
        cdef int c
        if gb_presize(&b[C_KEY_DATA], size_hint // 4) or gb_presize(&b[C_VALUE_DATA], size_hint):
            return -1
        for c in (C_OFFSET, C_TIMESTAMP):
            if gb_presize(&b[c], 8 * rows):
                return -1
        for c in (C_KEY_OFFSETS, C_VALUE_OFFSETS):
            if gb_presize(&b[c], self.ow * rows):
                return -1
        if gb_presize(&b[C_HDR_OFFSETS], 4 * rows):
            return -1
        for c in (C_TS_TYPE, C_KEY_VALID, C_VALUE_VALID):
            if gb_presize(&b[c], rows):
                return -1
        return 0

    cdef _start_offsets(self):
        # Arrow offsets arrays begin with a zero.
        for c in (C_KEY_OFFSETS, C_VALUE_OFFSETS, C_HDR_OFFSETS, C_HK_OFFSETS, C_HV_OFFSETS):
            if gb_reserve(&self.bufs[<int>c], 8) != 0:
                raise MemoryError()
            put_offset(&self.bufs[<int>c], 4 if c == C_HDR_OFFSETS else self.ow, 0)

    def add_batch(self, RecordBatch batch not None):
        """Append the records of one RecordBatch view (any magic)."""
        cdef BatchMeta m
        cdef const uint8_t *p
        cdef int32_t count
        cdef int rc
        cdef RecordView r
        cdef int32_t failed = 0
        cdef const uint8_t *ip
        cdef Py_ssize_t isize, base_abs
        cdef bytes inflated
        cdef int codec
        if batch.magic < 2:
            self._add_legacy(batch)
            return
        p = batch._src.ptr + batch.position
        m.base_offset = batch.base_offset
        m.base_timestamp = batch.base_timestamp
        m.timestamp_type = 1 if batch.attributes & ATTR_TIMESTAMP_TYPE else 0
        m.log_append_time = batch.max_timestamp if m.timestamp_type == 1 else -1
        m.producer_id = batch.producer_id
        m.producer_epoch = batch.producer_epoch
        m.base_sequence = batch.base_sequence
        m.leader_epoch = batch.partition_leader_epoch
        m.transactional = 1 if batch.attributes & ATTR_TRANSACTIONAL else 0
        count = batch.record_count
        check_record_count(count, self._max_records, batch.position, batch._index)
        codec = batch.attributes & 0x07
        if codec == 0:
            with nogil:
                rc = self._fill(p, V2_RECORDS, batch.size_in_bytes, count, &m, &r, &failed)
            base_abs = batch.position
        else:
            try:
                inflated = inflate(codec, p + V2_RECORDS, batch.size_in_bytes - V2_RECORDS, self._max_decompressed)
            except CorruptDataError as exc:
                if exc.offset is None:
                    exc.offset = batch.position + V2_RECORDS
                raise exc.prefix_path(f"batches[{batch._index}].records")
            ip = <const uint8_t *>PyBytes_AS_STRING(inflated)
            isize = PyBytes_GET_SIZE(inflated)
            with nogil:
                rc = self._fill(ip, 0, isize, count, &m, &r, &failed)
            base_abs = 0
        if rc != FILL_OK:
            self._raise_fill_error(rc, &r, failed, count, base_abs, batch.position, batch._index)

    def add_buffer(self, data, bint verify_crc=True):
        """Append every data record of a buffer of batches (control records
        dropped, as in read_uncommitted).  Returns the number of trailing bytes
        of a truncated final batch.  Plain v2 batches are walked here without
        a Python object per batch; anything else (legacy entries, a batch that
        fails a check) goes through the record layer from that point on."""
        cdef Py_buffer view
        cdef const uint8_t *base
        cdef Py_ssize_t pos = 0, size, total
        cdef int32_t length, index = 0, count, failed = 0
        cdef int rc, codec
        cdef BatchMeta m
        cdef RecordView r
        cdef const uint8_t *p
        cdef BatchIterator it
        cdef RecordBatch batch
        PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
        try:
            base = <const uint8_t *>view.buf
            size = view.len
            while True:
                if size - pos < V2_MAGIC + 1:
                    return size - pos
                p = base + pos
                length = <int32_t>kc_load_be32(p + V2_LENGTH)
                if length < 0 or p[V2_MAGIC] > 2:
                    break
                total = <Py_ssize_t>length + LOG_OVERHEAD
                if total > size - pos:
                    return size - pos
                if p[V2_MAGIC] < 2:
                    # an uncompressed legacy message straight into the columns; a
                    # wrapper or a message failing a check goes to the record layer
                    if self._legacy_row(p, verify_crc) == LEGACY_OTHER:
                        break
                    pos += total
                    index += 1
                    continue
                with nogil:
                    rc = v2_header_ok(p, total, verify_crc)
                if not rc:
                    break
                codec = kc_load_be16(p + V2_ATTRIBUTES) & ATTR_COMPRESSION_MASK
                count = <int32_t>kc_load_be32(p + V2_RECORD_COUNT)
                # control batches too: the record layer refuses them alike
                check_record_count(count, self._max_records, pos, index)
                if not (kc_load_be16(p + V2_ATTRIBUTES) & ATTR_CONTROL):
                    _batch_meta(p, &m)
                    if codec == 0:
                        with nogil:
                            rc = self._fill(p, V2_RECORDS, total, count, &m, &r, &failed)
                        if rc != FILL_OK:
                            self._raise_fill_error(rc, &r, failed, count, pos, pos, index)
                    else:
                        self._fill_compressed(p, total, codec, count, &m, pos, index)
                pos += total
                index += 1
        finally:
            PyBuffer_Release(&view)
        # The record layer takes over from this entry, with the same offsets
        # and batch numbering in its errors.
        it = _iter_batches(data, verify_crc=verify_crc, max_decompressed_size=self._max_decompressed,
                           max_records_per_batch=self._max_records)
        it._pos = pos
        it._index = index
        for batch in it:
            if not batch.is_control:
                self.add_batch(batch)
        return it.trailing_bytes

    cdef _fill_compressed(self, const uint8_t *p, Py_ssize_t total, int codec, int32_t count,
                          BatchMeta *m, Py_ssize_t position, int32_t index):
        cdef RecordView r
        cdef int32_t failed = 0
        cdef int rc
        cdef bytes inflated
        cdef const uint8_t *ip
        cdef Py_ssize_t isize
        try:
            inflated = inflate(codec, p + V2_RECORDS, total - V2_RECORDS, self._max_decompressed)
        except CorruptDataError as exc:
            if exc.offset is None:
                exc.offset = position + V2_RECORDS
            raise exc.prefix_path(f"batches[{index}].records")
        ip = <const uint8_t *>PyBytes_AS_STRING(inflated)
        isize = PyBytes_GET_SIZE(inflated)
        with nogil:
            rc = self._fill(ip, 0, isize, count, m, &r, &failed)
        if rc != FILL_OK:
            self._raise_fill_error(rc, &r, failed, count, 0, position, index)

    cdef _raise_fill_error(self, int rc, RecordView *r, int32_t failed, int32_t count,
                           Py_ssize_t base_abs, Py_ssize_t position, int32_t index):
        if rc == FILL_NO_MEMORY:
            raise MemoryError()
        if rc == FILL_OFFSET_OVERFLOW:
            _raise_offset_overflow("key, value or header")
        try:
            if rc == FILL_BAD_UTF8:
                raise CorruptDataError("header key is not valid UTF-8", base_abs + r.start,
                                       f"records[{failed}].headers")
            if failed < 0:
                raise CorruptDataError(f"record count {count} does not fit in the batch", position, "records")
            if failed >= count:
                raise CorruptDataError(f"bytes left after the last of {count} records", base_abs + r.end, "records")
            raise_record_error(r, failed, base_abs)
        except CorruptDataError as exc:
            raise exc.prefix_path(f"batches[{index}]")

    cdef int _fill(self, const uint8_t *base, Py_ssize_t pos, Py_ssize_t end, int32_t count,
                   BatchMeta *m, RecordView *r, int32_t *failed) noexcept nogil:
        cdef GrowBuf *b = self.bufs
        cdef int32_t i, h
        cdef Py_ssize_t hp, kpos = 0, vpos = 0
        cdef int32_t klen = 0, vlen = 0
        cdef Py_ssize_t payload = end - pos
        cdef int64_t row0 = self.rows
        cdef int ow = self.ow
        if count < 0 or <int64_t>count * V2_MIN_RECORD_SIZE > payload:
            failed[0] = -1
            return FILL_PARSE_ERROR
        # Fixed-width columns: one reservation per batch.  Variable data is
        # bounded by the payload size.
        if (gb_reserve(&b[C_OFFSET], 8 * count) or gb_reserve(&b[C_TIMESTAMP], 8 * count)
                or gb_reserve(&b[C_TS_TYPE], count)
                or gb_reserve(&b[C_KEY_OFFSETS], ow * count) or gb_reserve(&b[C_KEY_VALID], count)
                or gb_reserve(&b[C_VALUE_OFFSETS], ow * count) or gb_reserve(&b[C_VALUE_VALID], count)
                or gb_reserve(&b[C_KEY_DATA], payload) or gb_reserve(&b[C_VALUE_DATA], payload)):
            return FILL_NO_MEMORY
        if self.with_headers and gb_reserve(&b[C_HDR_OFFSETS], 4 * count):
            return FILL_NO_MEMORY
        if self.with_batch_columns:
            if (gb_reserve(&b[C_PRODUCER_ID], 8 * count) or gb_reserve(&b[C_PRODUCER_EPOCH], 2 * count)
                    or gb_reserve(&b[C_SEQUENCE], 4 * count) or gb_reserve(&b[C_LEADER_EPOCH], 4 * count)
                    or gb_reserve(&self.txn_valid, count)):
                return FILL_NO_MEMORY
        # Fixed-width outputs through local pointers (reserved above): the
        # compiler keeps them in registers instead of reloading each GrowBuf.
        cdef int64_t *o_offset = <int64_t *>(b[C_OFFSET].data + b[C_OFFSET].len)
        cdef int64_t *o_ts = <int64_t *>(b[C_TIMESTAMP].data + b[C_TIMESTAMP].len)
        cdef uint8_t *o_ts_type = b[C_TS_TYPE].data + b[C_TS_TYPE].len
        cdef uint8_t *o_key_valid = b[C_KEY_VALID].data + b[C_KEY_VALID].len
        cdef uint8_t *o_value_valid = b[C_VALUE_VALID].data + b[C_VALUE_VALID].len
        cdef uint8_t *o_key_end = b[C_KEY_OFFSETS].data + b[C_KEY_OFFSETS].len
        cdef uint8_t *o_value_end = b[C_VALUE_OFFSETS].data + b[C_VALUE_OFFSETS].len
        cdef uint8_t *key_data = b[C_KEY_DATA].data
        cdef uint8_t *value_data = b[C_VALUE_DATA].data
        cdef Py_ssize_t key_len = b[C_KEY_DATA].len, value_len = b[C_VALUE_DATA].len
        cdef int64_t key_nulls = 0, value_nulls = 0
        cdef int64_t base_offset = m.base_offset
        cdef int64_t fixed_ts = m.log_append_time
        cdef int64_t base_ts = m.base_timestamp
        cdef uint8_t ts_type = <uint8_t>m.timestamp_type
        cdef bint with_headers = self.with_headers
        cdef int32_t *o_hdr_end = NULL
        if with_headers:
            o_hdr_end = <int32_t *>(b[C_HDR_OFFSETS].data + b[C_HDR_OFFSETS].len)
        for i in range(count):
            if parse_v2_record(base, pos, end, r) != 0:
                failed[0] = i
                self._rollback(row0)
                return FILL_PARSE_ERROR
            o_offset[i] = base_offset + r.offset_delta
            o_ts[i] = fixed_ts if fixed_ts >= 0 else base_ts + r.timestamp_delta
            o_ts_type[i] = ts_type
            key_len = _put_cell(o_key_valid, o_key_end, ow, i, key_data, key_len, base + r.key_pos, r.key_len,
                                &key_nulls)
            value_len = _put_cell(o_value_valid, o_value_end, ow, i, value_data, value_len, base + r.value_pos,
                                  r.value_len, &value_nulls)
            if with_headers:
                if r.header_count:
                    if (gb_reserve(&b[C_HK_OFFSETS], ow * r.header_count)
                            or gb_reserve(&b[C_HV_OFFSETS], ow * r.header_count)
                            or gb_reserve(&b[C_HV_VALID], r.header_count)
                            or gb_reserve(&b[C_HK_DATA], r.end - r.headers_pos)
                            or gb_reserve(&b[C_HV_DATA], r.end - r.headers_pos)):
                        self._rollback(row0)
                        return FILL_NO_MEMORY
                    hp = r.headers_pos
                    for h in range(r.header_count):
                        hp = next_header(base, hp, &kpos, &klen, &vpos, &vlen)
                        if not utf8_valid(base + kpos, klen, False):
                            failed[0] = i
                            self._rollback(row0)
                            return FILL_BAD_UTF8
                        put_bytes(&b[C_HK_DATA], base + kpos, klen)
                        put_offset(&b[C_HK_OFFSETS], ow, b[C_HK_DATA].len)
                        if vlen < 0:
                            put_u8(&b[C_HV_VALID], 0)
                            self.header_value_nulls += 1
                        else:
                            put_u8(&b[C_HV_VALID], 1)
                            put_bytes(&b[C_HV_DATA], base + vpos, vlen)
                        put_offset(&b[C_HV_OFFSETS], ow, b[C_HV_DATA].len)
                    self.header_count += r.header_count
                o_hdr_end[i] = <int32_t>self.header_count
            if self.with_batch_columns:
                put_i64(&b[C_PRODUCER_ID], m.producer_id)
                put_i16(&b[C_PRODUCER_EPOCH], m.producer_epoch)
                put_i32(&b[C_SEQUENCE], m.base_sequence + r.offset_delta if m.base_sequence >= 0 else -1)
                put_i32(&b[C_LEADER_EPOCH], m.leader_epoch)
                put_u8(&self.txn_valid, m.transactional)
            pos = r.end
        if pos != end:
            failed[0] = count
            r.end = pos
            self._rollback(row0)
            return FILL_PARSE_ERROR
        # Header list offsets are int32 whatever the binary type.
        if self.header_count > INT32_OFFSET_MAX or (
                ow == 4 and (key_len > INT32_OFFSET_MAX or value_len > INT32_OFFSET_MAX
                             or b[C_HK_DATA].len > INT32_OFFSET_MAX or b[C_HV_DATA].len > INT32_OFFSET_MAX)):
            self._rollback(row0)
            return FILL_OFFSET_OVERFLOW
        # Commit the batch: lengths and counters move only once it parsed whole.
        b[C_OFFSET].len += 8 * count
        b[C_TIMESTAMP].len += 8 * count
        b[C_TS_TYPE].len += count
        b[C_KEY_VALID].len += count
        b[C_VALUE_VALID].len += count
        b[C_KEY_OFFSETS].len += ow * count
        b[C_VALUE_OFFSETS].len += ow * count
        b[C_KEY_DATA].len = key_len
        b[C_VALUE_DATA].len = value_len
        if with_headers:
            b[C_HDR_OFFSETS].len += 4 * count
        self.key_nulls += key_nulls
        self.value_nulls += value_nulls
        self.rows += count
        return FILL_OK

    cdef void _rollback(self, int64_t row0) noexcept nogil:
        # A corrupt batch leaves the columns as they were before it.
        cdef GrowBuf *b = self.bufs
        cdef int64_t key_end, value_end, hdr_end, k
        cdef int ow = self.ow
        key_end = get_offset(&b[C_KEY_OFFSETS], ow, row0)
        value_end = get_offset(&b[C_VALUE_OFFSETS], ow, row0)
        for k in range(row0, self.rows):
            if b[C_KEY_VALID].data[k] == 0:
                self.key_nulls -= 1
            if b[C_VALUE_VALID].data[k] == 0:
                self.value_nulls -= 1
        b[C_OFFSET].len = 8 * row0
        b[C_TIMESTAMP].len = 8 * row0
        b[C_TS_TYPE].len = row0
        b[C_KEY_VALID].len = row0
        b[C_VALUE_VALID].len = row0
        b[C_KEY_OFFSETS].len = ow * (row0 + 1)
        b[C_VALUE_OFFSETS].len = ow * (row0 + 1)
        b[C_KEY_DATA].len = key_end
        b[C_VALUE_DATA].len = value_end
        if self.with_headers:
            hdr_end = get_offset(&b[C_HDR_OFFSETS], 4, row0)
            for k in range(hdr_end, self.header_count):
                if b[C_HV_VALID].data[k] == 0:
                    self.header_value_nulls -= 1
            self.header_count = hdr_end
            b[C_HDR_OFFSETS].len = 4 * (row0 + 1)
            b[C_HK_OFFSETS].len = ow * (hdr_end + 1)
            b[C_HV_OFFSETS].len = ow * (hdr_end + 1)
            b[C_HV_VALID].len = hdr_end
            key_end = get_offset(&b[C_HK_OFFSETS], ow, hdr_end)
            value_end = get_offset(&b[C_HV_OFFSETS], ow, hdr_end)
            b[C_HK_DATA].len = key_end
            b[C_HV_DATA].len = value_end
        if self.with_batch_columns:
            b[C_PRODUCER_ID].len = 8 * row0
            b[C_PRODUCER_EPOCH].len = 2 * row0
            b[C_SEQUENCE].len = 4 * row0
            b[C_LEADER_EPOCH].len = 4 * row0
            self.txn_valid.len = row0
        self.rows = row0

    cdef int _legacy_row(self, const uint8_t *p, bint verify_crc) except -2:
        """One complete uncompressed magic 0/1 message as a row, parsed as the
        record layer parses it (records/_legacy.pxd): LEGACY_OTHER for a
        compressed wrapper or anything the parser reports, so that the record
        layer decodes from there and raises its own errors."""
        cdef GrowBuf *b = self.bufs
        cdef LegacyMessage m
        cdef Py_ssize_t klen, vlen
        if parse_legacy_message(p, 0, verify_crc, &m) != LEGACY_OK or m.attributes & ATTR_COMPRESSION_MASK:
            return LEGACY_OTHER
        klen = m.key_len if m.key_len > 0 else 0
        vlen = m.value_len if m.value_len > 0 else 0
        self._reserve_row(klen, vlen)
        if self.ow == 4 and (b[C_KEY_DATA].len + klen > INT32_OFFSET_MAX
                             or b[C_VALUE_DATA].len + vlen > INT32_OFFSET_MAX):
            _raise_offset_overflow("key or value")
        put_i64(&b[C_OFFSET], m.offset)
        put_i64(&b[C_TIMESTAMP], m.timestamp)
        put_u8(&b[C_TS_TYPE], 1 if (m.magic == 1 and m.attributes & ATTR_TIMESTAMP_TYPE) else 0)
        self._put_span(C_KEY_DATA, C_KEY_OFFSETS, C_KEY_VALID, p + m.key_pos, m.key_len, True)
        self._put_span(C_VALUE_DATA, C_VALUE_OFFSETS, C_VALUE_VALID, p + m.value_pos, m.value_len, False)
        self._end_legacy_row()
        return LEGACY_ROW

    cdef inline void _end_legacy_row(self) noexcept:
        # a legacy record has no headers and no producer state
        cdef GrowBuf *b = self.bufs
        if self.with_headers:
            put_i32(&b[C_HDR_OFFSETS], <int32_t>self.header_count)
        if self.with_batch_columns:
            put_i64(&b[C_PRODUCER_ID], -1)
            put_i16(&b[C_PRODUCER_EPOCH], -1)
            put_i32(&b[C_SEQUENCE], -1)
            put_i32(&b[C_LEADER_EPOCH], -1)
            put_u8(&self.txn_valid, 0)
        self.rows += 1

    cdef inline void _put_span(self, int data_col, int offsets_col, int valid_col, const uint8_t *p,
                               Py_ssize_t n, bint is_key) noexcept:
        # a key or value of n bytes at p (-1: null); room reserved by the caller
        cdef GrowBuf *b = self.bufs
        if n < 0:
            put_u8(&b[valid_col], 0)
            if is_key:
                self.key_nulls += 1
            else:
                self.value_nulls += 1
        else:
            put_u8(&b[valid_col], 1)
            put_bytes(&b[data_col], p, n)
        put_offset(&b[offsets_col], self.ow, b[data_col].len)

    cdef _add_legacy(self, RecordBatch batch):
        # Legacy entries are rare (pre-0.11 producers) and already decoded
        # into Records by the record layer; append them field by field.
        cdef GrowBuf *b = self.bufs
        for rec in batch.records():
            key = rec.key
            value = rec.value
            n = self._reserve_row(len(key) if key is not None else 0, len(value) if value is not None else 0)
            put_i64(&b[C_OFFSET], rec.offset)
            put_i64(&b[C_TIMESTAMP], rec.timestamp)
            put_u8(&b[C_TS_TYPE], rec.timestamp_type)
            self._put_binary(C_KEY_DATA, C_KEY_OFFSETS, C_KEY_VALID, key, True)
            self._put_binary(C_VALUE_DATA, C_VALUE_OFFSETS, C_VALUE_VALID, value, False)
            self._end_legacy_row()

    cdef int _reserve_row(self, Py_ssize_t klen, Py_ssize_t vlen) except -1:
        cdef GrowBuf *b = self.bufs
        if (gb_reserve(&b[C_OFFSET], 8) or gb_reserve(&b[C_TIMESTAMP], 8) or gb_reserve(&b[C_TS_TYPE], 1)
                or gb_reserve(&b[C_KEY_OFFSETS], 8) or gb_reserve(&b[C_KEY_VALID], 1)
                or gb_reserve(&b[C_VALUE_OFFSETS], 8) or gb_reserve(&b[C_VALUE_VALID], 1)
                or gb_reserve(&b[C_KEY_DATA], klen) or gb_reserve(&b[C_VALUE_DATA], vlen)
                or gb_reserve(&b[C_HDR_OFFSETS], 8)
                or gb_reserve(&b[C_PRODUCER_ID], 8) or gb_reserve(&b[C_PRODUCER_EPOCH], 2)
                or gb_reserve(&b[C_SEQUENCE], 4) or gb_reserve(&b[C_LEADER_EPOCH], 4)
                or gb_reserve(&self.txn_valid, 1)):
            raise MemoryError()
        return 0

    cdef _put_binary(self, int data_col, int offsets_col, int valid_col, object value, bint is_key):
        cdef const char *p
        if value is None:
            self._put_span(data_col, offsets_col, valid_col, NULL, -1, is_key)
            return
        p = value
        if self.ow == 4 and self.bufs[data_col].len + len(value) > INT32_OFFSET_MAX:
            _raise_offset_overflow("key" if is_key else "value")
        self._put_span(data_col, offsets_col, valid_col, <const uint8_t *>p, len(value), is_key)


    def finish(self):
        """Hand the buffers over as Arrow-ready OwnedBuffer objects (validity
        bitmaps, int32 or int64 offsets) and start afresh."""
        cdef GrowBuf *b = self.bufs
        cdef int i
        nulls = {C_KEY_VALID: self.key_nulls, C_VALUE_VALID: self.value_nulls,
                 C_HV_VALID: self.header_value_nulls}
        out = {"rows": self.rows, "key_nulls": self.key_nulls, "value_nulls": self.value_nulls}
        columns = list(range(C_HDR_OFFSETS))
        if self.with_headers:
            out["header_count"] = self.header_count
            out["header_value_nulls"] = self.header_value_nulls
            columns += range(C_HDR_OFFSETS, C_PRODUCER_ID)
        if self.with_batch_columns:
            out["is_transactional"] = pack_bits(&self.txn_valid)
            columns += range(C_PRODUCER_ID, NCOLS)
        for i in columns:
            out[_COLUMN_KEYS[i]] = _bitmap(&b[i], nulls[i]) if i in nulls else take_growbuf(&b[i], kc_large_release)
        for i in range(NCOLS):
            gb_free(&b[i])
        gb_free(&self.txn_valid)
        self.rows = 0
        self.key_nulls = 0
        self.value_nulls = 0
        self.header_count = 0
        self.header_value_nulls = 0
        self._start_offsets()
        return out
