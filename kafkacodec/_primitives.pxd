# Inline, end-bounded primitive codecs shared by every compiled module.
#
# They never raise and never touch Python objects, so they run inside
# `with nogil` loops (columnar decoding).  Readers return a status code:
# OK (0), TRUNCATED (input ended) or OVERLONG (too many varint bytes or
# bits beyond the type's width); `_buffer.Reader` turns codes into errors.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from "kc_endian.h" nogil:
    uint16_t kc_load_be16(const uint8_t *p)
    uint32_t kc_load_be32(const uint8_t *p)
    uint64_t kc_load_be64(const uint8_t *p)
    void kc_store_be16(uint8_t *p, uint16_t v)
    void kc_store_be32(uint8_t *p, uint32_t v)
    void kc_store_be64(uint8_t *p, uint64_t v)
    double kc_load_be_double(const uint8_t *p)
    void kc_store_be_double(uint8_t *p, double v)

cdef enum:
    KC_OK = 0
    KC_TRUNCATED = -1
    KC_OVERLONG = -2

# Maximum encoded sizes (Kafka ByteUtils): 5 bytes for 32-bit, 10 for 64-bit.
cdef enum:
    MAX_VARINT_LEN = 5
    MAX_VARLONG_LEN = 10


cdef inline int read_uvarint32(const uint8_t *buf, Py_ssize_t end, Py_ssize_t *pos,
                               uint32_t *out) noexcept nogil:
    cdef Py_ssize_t p = pos[0]
    cdef uint32_t value = 0
    cdef uint32_t b
    cdef int shift = 0
    # Fast path: one byte covers every length and count below 128.
    if p < end and buf[p] < 0x80:
        out[0] = buf[p]
        pos[0] = p + 1
        return KC_OK
    while True:
        if p >= end:
            return KC_TRUNCATED
        b = buf[p]
        p += 1
        if shift == 28:
            # Fifth byte: only four value bits fit and no continuation.
            if b > 0x0F:
                return KC_OVERLONG
            value |= b << 28
            break
        value |= (b & 0x7F) << shift
        if b < 0x80:
            break
        shift += 7
    out[0] = value
    pos[0] = p
    return KC_OK


cdef inline int read_uvarint64(const uint8_t *buf, Py_ssize_t end, Py_ssize_t *pos,
                               uint64_t *out) noexcept nogil:
    cdef Py_ssize_t p = pos[0]
    cdef uint64_t value = 0
    cdef uint64_t b
    cdef int shift = 0
    if p < end and buf[p] < 0x80:
        out[0] = buf[p]
        pos[0] = p + 1
        return KC_OK
    while True:
        if p >= end:
            return KC_TRUNCATED
        b = buf[p]
        p += 1
        if shift == 63:
            # Tenth byte: a single value bit fits.
            if b > 0x01:
                return KC_OVERLONG
            value |= b << 63
            break
        value |= (b & 0x7F) << shift
        if b < 0x80:
            break
        shift += 7
    out[0] = value
    pos[0] = p
    return KC_OK


cdef inline int read_varint32(const uint8_t *buf, Py_ssize_t end, Py_ssize_t *pos,
                              int32_t *out) noexcept nogil:
    cdef uint32_t raw = 0
    cdef int rc = read_uvarint32(buf, end, pos, &raw)
    out[0] = <int32_t>((raw >> 1) ^ (0U - (raw & 1)))
    return rc


cdef inline int read_varint64(const uint8_t *buf, Py_ssize_t end, Py_ssize_t *pos,
                              int64_t *out) noexcept nogil:
    cdef uint64_t raw = 0
    cdef int rc = read_uvarint64(buf, end, pos, &raw)
    out[0] = <int64_t>((raw >> 1) ^ (<uint64_t>0 - (raw & 1)))
    return rc


cdef inline Py_ssize_t write_uvarint64(uint8_t *out, uint64_t value) noexcept nogil:
    # `out` must have room for MAX_VARLONG_LEN bytes; returns bytes written.
    cdef Py_ssize_t n = 0
    while value >= 0x80:
        out[n] = <uint8_t>(value | 0x80)
        value >>= 7
        n += 1
    out[n] = <uint8_t>value
    return n + 1


cdef inline uint32_t zigzag32(int32_t value) noexcept nogil:
    return (<uint32_t>value << 1) ^ <uint32_t>(value >> 31)


cdef inline uint64_t zigzag64(int64_t value) noexcept nogil:
    return (<uint64_t>value << 1) ^ <uint64_t>(value >> 63)


cdef inline Py_ssize_t uvarint_size(uint64_t value) noexcept nogil:
    cdef Py_ssize_t n = 1
    while value >= 0x80:
        value >>= 7
        n += 1
    return n
