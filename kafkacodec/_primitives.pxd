# Inline, end-bounded primitive codecs shared by every compiled module.
#
# They never raise; all but exact_int64 leave Python objects alone, so they
# run inside `with nogil` loops (columnar decoding).  Readers return a status code:
# OK (0), TRUNCATED (input ended) or OVERLONG (too many varint bytes or
# bits beyond the type's width); `_buffer.Reader` turns codes into errors.
from cpython.long cimport PyLong_AsLongLongAndOverflow
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy

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


# Varints are read at the width of the pointer passed (a fused type, so each
# width is compiled separately): the width decides where a varint is overlong.
ctypedef fused uvarint_t:
    uint32_t
    uint64_t

ctypedef fused varint_t:
    int32_t
    int64_t


cdef inline int read_uvarint(const uint8_t *buf, Py_ssize_t end, Py_ssize_t *pos,
                             uvarint_t *out) noexcept nogil:
    # The last byte of the widest encoding starts at this shift (28 or 63) and
    # holds only the bits left over (4 or 1) with no continuation.
    cdef int last_shift = (sizeof(uvarint_t) * 8 - 1) // 7 * 7
    cdef uvarint_t last_max = (<uvarint_t>1 << (sizeof(uvarint_t) * 8 - last_shift)) - 1
    cdef Py_ssize_t p = pos[0]
    cdef uvarint_t value = 0
    cdef uvarint_t b
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
        if shift == last_shift:
            if b > last_max:
                return KC_OVERLONG
            value |= b << last_shift
            break
        value |= (b & 0x7F) << shift
        if b < 0x80:
            break
        shift += 7
    out[0] = value
    pos[0] = p
    return KC_OK


cdef inline int read_varint(const uint8_t *buf, Py_ssize_t end, Py_ssize_t *pos,
                            varint_t *out) noexcept nogil:
    cdef uint32_t raw32 = 0
    cdef uint64_t raw = 0
    cdef int rc
    if varint_t is int32_t:
        rc = read_uvarint(buf, end, pos, &raw32)
        raw = raw32
    else:
        rc = read_uvarint(buf, end, pos, &raw)
    # zigzag: the low bit is the sign; the cast keeps the type's low bits
    out[0] = <varint_t>((raw >> 1) ^ (<uint64_t>0 - (raw & 1)))
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


cdef inline bint exact_int64(object v, int64_t *out):
    """True with the value for an exact int within 64 bits; bool, int
    subclasses and anything larger are left to the caller's general path."""
    cdef int overflow = 0
    if type(v) is not int:
        return False
    out[0] = PyLong_AsLongLongAndOverflow(v, &overflow)
    return overflow == 0


cdef inline bint utf8_valid(const uint8_t *s, Py_ssize_t n, bint ascii_blocks) noexcept nogil:
    # Whether s[:n] is well-formed UTF-8 (no overlong forms, surrogates or code points past
    # U+10FFFF): what an Arrow string column must hold.  Callers pass ascii_blocks as a
    # constant: True checks eight ASCII bytes at a time (long strings, the Avro decoder's),
    # False byte by byte (short ones, the Arrow decoder's header keys, which the block test
    # only slows down).
    cdef Py_ssize_t i = 0
    cdef uint8_t c
    cdef int extra, k
    cdef uint32_t cp
    cdef uint64_t w8
    while i < n:
        if ascii_blocks:
            while i + 8 <= n:
                memcpy(&w8, s + i, 8)
                if w8 & <uint64_t>0x8080808080808080ULL:
                    break
                i += 8
            if i >= n:
                break
        c = s[i]
        if c < 0x80:
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            extra = 1
            cp = c & 0x1F
        elif 0xE0 <= c <= 0xEF:
            extra = 2
            cp = c & 0x0F
        elif 0xF0 <= c <= 0xF4:
            extra = 3
            cp = c & 0x07
        else:
            return 0
        if i + extra >= n:
            return 0
        for k in range(1, extra + 1):
            if (s[i + k] & 0xC0) != 0x80:
                return 0
            cp = (cp << 6) | (s[i + k] & 0x3F)
        if extra == 2 and (cp < 0x800 or 0xD800 <= cp <= 0xDFFF):
            return 0
        if extra == 3 and (cp < 0x10000 or cp > 0x10FFFF):
            return 0
        i += extra + 1
    return 1
