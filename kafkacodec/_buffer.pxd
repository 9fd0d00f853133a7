# The one bounds-checked reader (Cursor, with the Python-facing Reader over
# it), the one growable Writer of kafkacodec's compiled code, and the one
# OwnedBuffer that hands a GrowBuf's memory to Arrow without a copy.
cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from kafkacodec._growbuf cimport GrowBuf

from kafkacodec._primitives cimport (KC_OK, KC_TRUNCATED, kc_load_be16, kc_load_be32, kc_load_be64,
                                     read_uvarint, read_varint, uvarint_t, varint_t)


# A position in a pinned buffer and reads that check its end.  They run
# without the GIL and return a status (KC_OK, KC_TRUNCATED, KC_OVERLONG;
# a failed read leaves pos on the field's first byte); the caller raises
# with the absolute offset base + pos.  Every decoder reads through these:
# the protocol codec via Reader, the record parser (records/_v2.pxd, so the
# record and Arrow decoders and the adapters) on a Cursor of its own.
cdef struct Cursor:
    const uint8_t *buf
    Py_ssize_t pos              # next byte to read, relative to buf
    Py_ssize_t end              # one past the last readable byte
    Py_ssize_t base             # absolute offset of buf[0], for error messages


cdef inline Py_ssize_t cur_left(const Cursor *c) noexcept nogil:
    return c.end - c.pos


cdef inline int cur_peek(const Cursor *c) noexcept nogil:
    """The next byte without consuming it, or -1 at the end."""
    return c.buf[c.pos] if c.pos < c.end else -1


cdef inline int cur_take(Cursor *c, Py_ssize_t n, const uint8_t **out) noexcept nogil:
    """n bytes (n >= 0) in place: out points at them."""
    if c.end - c.pos < n:
        return KC_TRUNCATED
    out[0] = c.buf + c.pos
    c.pos += n
    return KC_OK


ctypedef fused be_uint_t:
    uint16_t
    uint32_t
    uint64_t


cdef inline int cur_be(Cursor *c, be_uint_t *out) noexcept nogil:
    """A big-endian unsigned integer of the pointer's width."""
    if c.end - c.pos < <Py_ssize_t>sizeof(be_uint_t):
        return KC_TRUNCATED
    if be_uint_t is uint16_t:
        out[0] = kc_load_be16(c.buf + c.pos)
    elif be_uint_t is uint32_t:
        out[0] = kc_load_be32(c.buf + c.pos)
    else:
        out[0] = kc_load_be64(c.buf + c.pos)
    c.pos += sizeof(be_uint_t)
    return KC_OK


cdef inline int cur_uvarint(Cursor *c, uvarint_t *out) noexcept nogil:
    return read_uvarint(c.buf, c.end, &c.pos, out)


cdef inline int cur_varint(Cursor *c, varint_t *out) noexcept nogil:
    return read_varint(c.buf, c.end, &c.pos, out)


cdef int raise_corrupt(str reason, Py_ssize_t offset) except -1
cdef int raise_truncated(Py_ssize_t offset, Py_ssize_t needed, Py_ssize_t available) except -1
cdef int raise_varint_error(int rc, Py_ssize_t offset) except -1


@cython.final
@cython.no_gc
cdef class Reader:
    cdef object source          # the object exporting the buffer; kept alive
    cdef Py_buffer view
    cdef bint has_view
    cdef Cursor cur
    cdef object _memview        # lazily created memoryview of source

    cdef int fail(self, int rc, Py_ssize_t needed) except -1
    cdef inline int check(self, int rc, Py_ssize_t needed) except -1:
        """Raise (through fail) unless a cursor read returned KC_OK."""
        if rc != KC_OK:
            self.fail(rc, needed)
        return 0
    cdef int need(self, Py_ssize_t n) except -1
    cpdef int8_t read_int8(self) except? -1
    cpdef int16_t read_int16(self) except? -1
    cpdef int32_t read_int32(self) except? -1
    cpdef int64_t read_int64(self) except? -1
    cpdef int64_t read_uint16(self) except -1
    cpdef int64_t read_uint32(self) except -1
    cpdef double read_float64(self) except? -1.0
    cpdef int64_t read_uvarint(self) except -1
    cpdef int32_t read_varint(self) except? -1
    cpdef int64_t read_varlong(self) except? -1
    cdef const uint8_t *read_raw(self, Py_ssize_t n) except NULL
    cpdef bytes read_bytes(self, Py_ssize_t n)
    cpdef object read_view(self, Py_ssize_t n)
    cdef object view_of(self, Py_ssize_t start, Py_ssize_t stop)
    cdef inline Py_ssize_t remaining(self) noexcept:
        return self.cur.end - self.cur.pos


cdef Reader make_reader(object data, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t base)


@cython.final
cdef class Writer:
    cdef void *_storage         # a bytes object of `capacity` bytes, owned here (NULL when in place)
    cdef uint8_t *buf
    cdef Py_ssize_t length
    cdef Py_ssize_t capacity
    cdef bint in_place          # writing into the caller's buffer (_view), see use_buffer
    cdef Py_buffer _view

    cdef int _resize(self, Py_ssize_t capacity) except -1
    cdef int use_buffer(self, object buffer) except -1
    cdef void detach(self) noexcept
    cdef int ensure(self, Py_ssize_t extra) except -1
    cpdef int write_int8(self, int8_t v) except -1
    cpdef int write_int16(self, int16_t v) except -1
    cpdef int write_int32(self, int32_t v) except -1
    cpdef int write_int64(self, int64_t v) except -1
    cpdef int write_uint32(self, uint32_t v) except -1
    cpdef int write_float64(self, double v) except -1
    cpdef int write_uvarint(self, uint32_t v) except -1
    cpdef int write_varint(self, int32_t v) except -1
    cpdef int write_varlong(self, int64_t v) except -1
    cdef int write_raw(self, const void *p, Py_ssize_t n) except -1
    cpdef int write_object(self, object data) except -1
    cpdef Py_ssize_t reserve(self, Py_ssize_t n) except -1
    cpdef int patch_int32(self, Py_ssize_t at, int32_t v) except -1
    cpdef int patch_uint32(self, Py_ssize_t at, uint32_t v) except -1
    cdef uint32_t crc32c_of(self, Py_ssize_t start, Py_ssize_t stop) except? 0xFFFFFFFF
    cpdef bytes to_bytes(self)
    cdef bytes take_bytes(self)


# How a large block goes back to the allocator that made it: kc_alloc.h keeps a
# cache of freed large blocks in each extension module, so the module whose
# builders grow the buffers (the Arrow or Avro decoder) passes its own
# kc_large_release and its next decode reuses the block.
ctypedef void (*release_fn)(void *p, size_t cap) noexcept nogil


# malloc'd memory (a GrowBuf's, taken over) exported read-only through the
# buffer protocol: the Arrow decoders' column buffers (pyarrow.py_buffer).
@cython.final
cdef class OwnedBuffer:
    cdef uint8_t *data
    cdef Py_ssize_t size
    cdef Py_ssize_t cap
    cdef release_fn release         # NULL: free(data); else release(data, cap)
    cdef Py_ssize_t shape[1]
    cdef Py_ssize_t strides[1]


# `b`'s memory as an OwnedBuffer; `b` is left empty.  A large block (cap >=
# KC_HUGE_ALIGN) goes back through `release`, the caller's kc_large_release.
cdef OwnedBuffer take_growbuf(GrowBuf *b, release_fn release)
# One byte per slot (non-zero: set) packed into an Arrow bitmap, bit i of byte i // 8.
cdef OwnedBuffer pack_bits(const GrowBuf *flags)
