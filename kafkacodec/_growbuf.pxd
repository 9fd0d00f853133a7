# The growable malloc buffer of the compiled builders that run without the GIL
# (Arrow column buffers, the Arrow encoder's record bodies).  The record
# builder's Writer (_buffer.pxd) grows a bytes object instead, which needs
# the GIL but hands its result over without a copy.
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t
from libc.stdlib cimport realloc, free
from libc.string cimport memcpy


cdef extern from "kc_alloc.h":
    void *kc_large_acquire(size_t size, size_t *cap) nogil
    void kc_large_release(void *p, size_t cap) nogil
    size_t KC_HUGE_ALIGN


cdef struct GrowBuf:
    uint8_t *data
    Py_ssize_t len
    Py_ssize_t cap


cdef inline int gb_resize(GrowBuf *b, Py_ssize_t cap) noexcept nogil:
    cdef size_t got = 0
    cdef uint8_t *p
    if cap >= <Py_ssize_t>KC_HUGE_ALIGN:
        cap = (cap + KC_HUGE_ALIGN - 1) & ~(<Py_ssize_t>KC_HUGE_ALIGN - 1)
        p = <uint8_t *>kc_large_acquire(cap, &got)
        if p == NULL:
            return -1
        if b.len:
            memcpy(p, b.data, b.len)
        if b.cap >= <Py_ssize_t>KC_HUGE_ALIGN:
            kc_large_release(b.data, b.cap)
        else:
            free(b.data)
        cap = got
    else:
        p = <uint8_t *>realloc(b.data, cap)
        if p == NULL:
            return -1
    b.data = p
    b.cap = cap
    return 0


cdef inline void gb_free(GrowBuf *b) noexcept nogil:
    if b.cap >= <Py_ssize_t>KC_HUGE_ALIGN:
        kc_large_release(b.data, b.cap)
    else:
        free(b.data)
    b.data = NULL
    b.len = 0
    b.cap = 0


cdef inline int gb_grow(GrowBuf *b, Py_ssize_t extra) noexcept nogil:
    cdef Py_ssize_t cap
    cap = b.cap * 2 if b.cap else 4096
    while cap < b.len + extra:
        cap *= 2
    return gb_resize(b, cap)


cdef inline int gb_presize(GrowBuf *b, Py_ssize_t size) noexcept nogil:
    # Exactly `size` (not the next power of two): presized columns of one
    # decode must all fit the reuse cache together.
    if size <= b.cap:
        return 0
    return gb_resize(b, size)


cdef inline int gb_reserve(GrowBuf *b, Py_ssize_t extra) noexcept nogil:
    if b.len + extra <= b.cap:
        return 0
    return gb_grow(b, extra)


cdef inline void put_i64(GrowBuf *b, int64_t v) noexcept nogil:
    memcpy(b.data + b.len, &v, 8)
    b.len += 8


cdef inline void put_i32(GrowBuf *b, int32_t v) noexcept nogil:
    memcpy(b.data + b.len, &v, 4)
    b.len += 4


cdef inline void put_offset(GrowBuf *b, int width, int64_t v) noexcept nogil:
    # Arrow offsets: int32 (binary, list) or int64 (large_binary).
    if width == 4:
        put_i32(b, <int32_t>v)
    else:
        put_i64(b, v)


cdef inline int64_t get_offset(const GrowBuf *b, int width, int64_t index) noexcept nogil:
    cdef int32_t v32
    cdef int64_t v64
    if width == 4:
        memcpy(&v32, b.data + 4 * index, 4)
        return v32
    memcpy(&v64, b.data + 8 * index, 8)
    return v64


cdef inline void put_i16(GrowBuf *b, int16_t v) noexcept nogil:
    memcpy(b.data + b.len, &v, 2)
    b.len += 2


cdef inline void put_u8(GrowBuf *b, uint8_t v) noexcept nogil:
    b.data[b.len] = v
    b.len += 1


cdef inline void put_bytes(GrowBuf *b, const uint8_t *p, Py_ssize_t n) noexcept nogil:
    memcpy(b.data + b.len, p, n)
    b.len += n
