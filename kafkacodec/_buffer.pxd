# The one bounds-checked Reader and the one growable Writer every compiled
# decoder and encoder in kafkacodec uses.
cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t


cdef int raise_corrupt(str reason, Py_ssize_t offset) except -1
cdef int raise_truncated(Py_ssize_t offset, Py_ssize_t needed, Py_ssize_t available) except -1
cdef int raise_varint_error(int rc, Py_ssize_t offset) except -1


@cython.final
@cython.no_gc
cdef class Reader:
    cdef object source          # the object exporting the buffer; kept alive
    cdef Py_buffer view
    cdef bint has_view
    cdef const uint8_t *buf
    cdef Py_ssize_t pos         # next byte to read, relative to buf
    cdef Py_ssize_t end         # one past the last readable byte
    cdef Py_ssize_t base        # absolute offset of buf[0] for error messages
    cdef object _memview        # lazily created memoryview of source

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
        return self.end - self.pos


cdef Reader make_reader(object data, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t base)


@cython.final
cdef class Writer:
    cdef void *_storage         # a bytes object of `capacity` bytes, owned here
    cdef uint8_t *buf
    cdef Py_ssize_t length
    cdef Py_ssize_t capacity

    cdef int _resize(self, Py_ssize_t capacity) except -1
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
