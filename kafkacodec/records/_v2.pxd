# One bounds-checked parser for a v2 record, shared by the object decoder
# (_records.pyx), the columnar decoder (arrow/_columnar.pyx) and the adapters
# (integrations/_decode.pyx), reading through _buffer.pxd's Cursor.  Runs
# without the GIL; on failure it fills in where and which field, and the
# caller raises.
from libc.stdint cimport int32_t, int64_t, uint8_t

from libc.stdint cimport int16_t, uint16_t, uint32_t, uint64_t
from kafkacodec._buffer cimport Cursor, cur_varint
from kafkacodec._primitives cimport (KC_OK, KC_TRUNCATED, MAX_VARLONG_LEN,
                                     kc_load_be16, kc_load_be32, kc_load_be64,
                                     kc_store_be16, kc_store_be32, kc_store_be64)
from kafkacodec._crc cimport crc32c_update

cdef enum RecordField:
    F_LENGTH = 0
    F_ATTRIBUTES = 1
    F_TIMESTAMP_DELTA = 2
    F_OFFSET_DELTA = 3
    F_KEY = 4
    F_VALUE = 5
    F_HEADERS = 6
    F_HEADER_KEY = 7
    F_HEADER_VALUE = 8
    F_RECORD = 9

cdef enum RecordProblem:
    P_VARINT_TRUNCATED = 1
    P_VARINT_OVERLONG = 2
    P_BAD_LENGTH = 3
    P_SIZE_MISMATCH = 4

from kafkacodec.records._layout cimport *


cdef struct RecordView:
    Py_ssize_t start            # first byte of the length prefix
    Py_ssize_t end              # one past the record
    int32_t length              # declared body length
    int64_t timestamp_delta
    int32_t offset_delta
    Py_ssize_t key_pos
    int32_t key_len             # -1: null
    Py_ssize_t value_pos
    int32_t value_len           # -1: null
    Py_ssize_t headers_pos
    int32_t header_count
    # set on failure
    Py_ssize_t err_pos
    int err_field
    int err_problem
    int32_t err_header
    int64_t err_value


cdef inline int _fail(RecordView *r, Py_ssize_t pos, int field, int problem, int64_t value) noexcept nogil:
    r.err_pos = pos
    r.err_field = field
    r.err_problem = problem
    r.err_value = value
    return -1


cdef inline int _varint_fail(RecordView *r, Py_ssize_t pos, int field, int rc) noexcept nogil:
    return _fail(r, pos, field, P_VARINT_TRUNCATED if rc == KC_TRUNCATED else P_VARINT_OVERLONG, 0)


cdef inline int _sized_field(Cursor *c, RecordView *r, int field, int32_t min_len,
                             Py_ssize_t *at, int32_t *n) noexcept nogil:
    # A length-prefixed field (n < min_len or past the record is an error at
    # its first byte; -1 means null): its bytes start at `at`, the cursor
    # moves past them.
    cdef Py_ssize_t fstart = c.pos
    cdef int rc = cur_varint(c, n)
    if rc != KC_OK:
        return _varint_fail(r, c.pos, field, rc)
    if n[0] < min_len or n[0] > c.end - c.pos:
        return _fail(r, fstart, field, P_BAD_LENGTH, n[0])
    at[0] = c.pos
    if n[0] > 0:
        c.pos += n[0]
    return 0


cdef inline int parse_v2_record(const uint8_t *base, Py_ssize_t pos, Py_ssize_t end,
                                RecordView *r) noexcept nogil:
    """Validate the record at base[pos:end] and record where its fields are."""
    cdef Cursor c
    cdef Py_ssize_t fstart, hk_pos, hv_pos
    cdef int32_t j, hk = 0, hv = 0
    cdef int rc
    c.buf = base
    c.pos = pos
    c.end = end
    c.base = 0
    r.start = pos
    r.err_header = -1
    rc = cur_varint(&c, &r.length)
    if rc != KC_OK:
        return _varint_fail(r, c.pos, F_LENGTH, rc)
    if r.length <= 0 or r.length > c.end - c.pos:
        return _fail(r, pos, F_LENGTH, P_BAD_LENGTH, r.length)
    c.end = c.pos + r.length  # from here on the cursor ends with the record
    r.end = c.end
    c.pos += 1  # attributes: unused in v2
    rc = cur_varint(&c, &r.timestamp_delta)
    if rc != KC_OK:
        return _varint_fail(r, c.pos, F_TIMESTAMP_DELTA, rc)
    rc = cur_varint(&c, &r.offset_delta)
    if rc != KC_OK:
        return _varint_fail(r, c.pos, F_OFFSET_DELTA, rc)
    if _sized_field(&c, r, F_KEY, -1, &r.key_pos, &r.key_len):
        return -1
    if _sized_field(&c, r, F_VALUE, -1, &r.value_pos, &r.value_len):
        return -1
    fstart = c.pos
    rc = cur_varint(&c, &r.header_count)
    if rc != KC_OK:
        return _varint_fail(r, c.pos, F_HEADERS, rc)
    # each header needs at least two bytes: never trust a larger count
    if r.header_count < 0 or r.header_count > (c.end - c.pos) // 2:
        return _fail(r, fstart, F_HEADERS, P_BAD_LENGTH, r.header_count)
    r.headers_pos = c.pos
    for j in range(r.header_count):
        r.err_header = j
        if _sized_field(&c, r, F_HEADER_KEY, 0, &hk_pos, &hk):
            return -1
        if _sized_field(&c, r, F_HEADER_VALUE, -1, &hv_pos, &hv):
            return -1
    r.err_header = -1
    if c.pos != c.end:
        return _fail(r, c.pos, F_RECORD, P_SIZE_MISMATCH, c.end - c.pos)
    return 0


cdef inline Py_ssize_t next_header(const uint8_t *base, Py_ssize_t pos,
                                   Py_ssize_t *key_pos, int32_t *key_len,
                                   Py_ssize_t *value_pos, int32_t *value_len) noexcept nogil:
    """Step over one header of a record parse_v2_record already validated."""
    cdef Cursor c
    c.buf = base
    c.base = 0
    c.pos = pos
    c.end = pos + MAX_VARLONG_LEN  # validated: the varint ends within it
    cur_varint(&c, key_len)
    key_pos[0] = c.pos
    c.pos += key_len[0]
    c.end = c.pos + MAX_VARLONG_LEN
    cur_varint(&c, value_len)
    value_pos[0] = c.pos
    if value_len[0] > 0:
        c.pos += value_len[0]
    return c.pos


# A base offset this far from the int64 ends leaves room for any int32
# offset delta, so record offsets never overflow.
cdef inline bint v2_base_offset_ok(int64_t base_offset) noexcept nogil:
    cdef int64_t bound = <int64_t>0x7FFFFFFFFFFFFFFFLL - <int64_t>0x7FFFFFFF
    return -bound <= base_offset <= bound


cdef inline bint v2_header_ok(const uint8_t *p, Py_ssize_t total, bint verify_crc) noexcept nogil:
    """Whether a complete v2 batch of `total` bytes passes the checks the
    record layer applies (minimum size, CRC, codec, counts).  Callers that get
    False hand the batch to the record layer, which raises the precise error."""
    if total < V2_RECORDS:
        return False
    if verify_crc and crc32c_update(0, p + V2_ATTRIBUTES, <size_t>(total - V2_ATTRIBUTES)) != kc_load_be32(p + V2_CRC):
        return False
    if (kc_load_be16(p + V2_ATTRIBUTES) & ATTR_COMPRESSION_MASK) > 4:
        return False
    if not v2_base_offset_ok(<int64_t>kc_load_be64(p + V2_BASE_OFFSET)):
        return False
    return <int32_t>kc_load_be32(p + V2_RECORD_COUNT) >= 0 and <int32_t>kc_load_be32(p + V2_LAST_OFFSET_DELTA) >= 0


cdef inline void v2_write_header(uint8_t *p, Py_ssize_t total, int64_t base_offset, int32_t leader_epoch,
                                 int16_t attributes, int32_t last_offset_delta, int64_t base_timestamp,
                                 int64_t max_timestamp, int64_t producer_id, int16_t producer_epoch,
                                 int32_t base_sequence, int32_t record_count) noexcept nogil:
    """The one writer of a v2 batch header: every field of the `total`-byte
    batch at p (its records already written after the header), then the
    CRC-32C over attributes..end."""
    kc_store_be64(p + V2_BASE_OFFSET, <uint64_t>base_offset)
    kc_store_be32(p + V2_LENGTH, <uint32_t>(total - LOG_OVERHEAD))
    kc_store_be32(p + V2_LEADER_EPOCH, <uint32_t>leader_epoch)
    p[V2_MAGIC] = 2
    kc_store_be16(p + V2_ATTRIBUTES, <uint16_t>attributes)
    kc_store_be32(p + V2_LAST_OFFSET_DELTA, <uint32_t>last_offset_delta)
    kc_store_be64(p + V2_BASE_TIMESTAMP, <uint64_t>base_timestamp)
    kc_store_be64(p + V2_MAX_TIMESTAMP, <uint64_t>max_timestamp)
    kc_store_be64(p + V2_PRODUCER_ID, <uint64_t>producer_id)
    kc_store_be16(p + V2_PRODUCER_EPOCH, <uint16_t>producer_epoch)
    kc_store_be32(p + V2_BASE_SEQUENCE, <uint32_t>base_sequence)
    kc_store_be32(p + V2_RECORD_COUNT, <uint32_t>record_count)
    kc_store_be32(p + V2_CRC, crc32c_update(0, p + V2_ATTRIBUTES, <size_t>(total - V2_ATTRIBUTES)))


cdef inline void v2_write_producer(uint8_t *p, Py_ssize_t total, int64_t producer_id, int16_t producer_epoch,
                                   int32_t base_sequence, bint transactional) noexcept nogil:
    """Rewrite the producer fields of the built `total`-byte batch at p (producer
    id, epoch, base sequence, transactional bit), then its CRC, which covers
    them: an idempotent batch renumbered under a new epoch is sent from the
    same bytes."""
    cdef uint16_t attrs = kc_load_be16(p + V2_ATTRIBUTES)
    if transactional:
        attrs |= ATTR_TRANSACTIONAL
    else:
        attrs &= <uint16_t>~ATTR_TRANSACTIONAL
    kc_store_be16(p + V2_ATTRIBUTES, attrs)
    kc_store_be64(p + V2_PRODUCER_ID, <uint64_t>producer_id)
    kc_store_be16(p + V2_PRODUCER_EPOCH, <uint16_t>producer_epoch)
    kc_store_be32(p + V2_BASE_SEQUENCE, <uint32_t>base_sequence)
    kc_store_be32(p + V2_CRC, crc32c_update(0, p + V2_ATTRIBUTES, <size_t>(total - V2_ATTRIBUTES)))
