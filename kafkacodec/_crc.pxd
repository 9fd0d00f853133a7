# CRC entry points other compiled modules call.  The C implementation is
# linked into this one extension only, so the dispatch choice (and the test
# hook that overrides it) is shared by every module.
from libc.stdint cimport int32_t, uint32_t, uint8_t

cdef uint32_t crc32c_update(uint32_t crc, const uint8_t *buf, size_t n) noexcept nogil
cdef uint32_t crc32_update(uint32_t crc, const uint8_t *buf, size_t n) noexcept nogil
cdef int32_t murmur2_raw(const uint8_t *p, size_t n) noexcept nogil
