# cython: language_level=3, boundscheck=False, wraparound=False
"""CRC-32C (hardware-dispatched) and CRC-32 over any bytes-like object, and the
Java client's murmur2 (the default partitioner's key hash)."""
import os

from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE, PyBUF_WRITABLE
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.stdint cimport int32_t, int64_t
from libc.string cimport memcpy
from libc.stdint cimport uint32_t, uint8_t

cdef extern from "crc32c.h" nogil:
    void kc_crc_init(int force_software)
    uint32_t kc_crc32c(uint32_t crc, const void *buf, size_t n)
    uint32_t kc_crc32c_sw(uint32_t crc, const void *buf, size_t n)
    uint32_t kc_crc32c_hw(uint32_t crc, const void *buf, size_t n)
    const char *kc_crc32c_hw_name()
    const char *kc_crc32c_impl_name()
    const char *kc_crc32c_fold_name()
    uint32_t kc_crc32c_fold(uint32_t crc, const void *buf, size_t n)
    uint32_t kc_crc32c_fold128(uint32_t crc, const void *buf, size_t n)
    void kc_crc32c_enable_fold(int enabled)
    uint32_t kc_crc32(uint32_t crc, const void *buf, size_t n)

# Releasing the GIL costs about as much as checksumming a few KiB, so only
# large inputs (where other threads gain real time) drop it.
cdef enum:
    GIL_RELEASE_THRESHOLD = 65536

_forced = os.environ.get("KAFKACODEC_CRC32C", "").lower()
kc_crc_init(_forced in ("software", "sw"))
kc_crc32c_enable_fold(_forced != "instruction")


cdef uint32_t crc32c_update(uint32_t crc, const uint8_t *buf, size_t n) noexcept nogil:
    return kc_crc32c(crc, buf, n)


cdef uint32_t crc32_update(uint32_t crc, const uint8_t *buf, size_t n) noexcept nogil:
    return kc_crc32(crc, buf, n)


ctypedef uint32_t (*crc_fn)(uint32_t, const void *, size_t) noexcept nogil


cdef inline object _run(crc_fn fn, object data, object value):
    cdef Py_buffer view
    cdef uint32_t crc = 0
    cdef uint32_t result
    if value:
        crc = <uint32_t>(value & 0xFFFFFFFF)
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        if view.len >= GIL_RELEASE_THRESHOLD:
            with nogil:
                result = fn(crc, view.buf, <size_t>view.len)
        else:
            result = fn(crc, view.buf, <size_t>view.len)
    finally:
        PyBuffer_Release(&view)
    return result


def crc32c(data, value=0):
    """CRC-32C (Castagnoli) of a bytes-like object; pass a previous result as
    ``value`` to continue a running checksum."""
    return _run(kc_crc32c, data, value)


def crc32(data, value=0):
    """CRC-32 (zlib/IEEE polynomial) of a bytes-like object, as zlib.crc32."""
    return _run(kc_crc32, data, value)


def crc32c_software(data, value=0):
    """CRC-32C through the portable table implementation (for tests)."""
    return _run(kc_crc32c_sw, data, value)


def crc32c_hardware(data, value=0):
    """CRC-32C through the CPU instruction; raises RuntimeError without one."""
    if kc_crc32c_hw_name() == NULL:
        raise RuntimeError("this CPU (or build) has no CRC-32C instruction")
    return _run(kc_crc32c_hw, data, value)


def crc32c_folding(data, value=0, *, bint narrow=False):
    """CRC-32C through the carry-less-multiplication path for long inputs
    (the crc32 instruction or the table below its minimum length; for tests).
    ``narrow`` folds with 128-bit vectors where 256-bit ones exist."""
    return _run(kc_crc32c_fold128 if narrow else kc_crc32c_fold, data, value)


def folding_crc32c_available():
    """"vpclmulqdq" or "pclmul" when long inputs are folded with carry-less
    multiplication, else None."""
    cdef const char *name = kc_crc32c_fold_name()
    return None if name == NULL else name.decode()


def crc32c_implementation():
    """Name of the CRC-32C path in use: "sse4.2", "armv8" or "software"."""
    return kc_crc32c_impl_name().decode()


def hardware_crc32c_available():
    """Name of the CPU's CRC-32C instruction set, or None."""
    cdef const char *name = kc_crc32c_hw_name()
    return None if name == NULL else name.decode()


def set_crc32c_implementation(str name):
    """Test hook: "software" forces the table path, "instruction" the CPU's
    crc32 instruction without carry-less folding, "auto" restores dispatch."""
    if name not in ("software", "instruction", "auto"):
        raise ValueError("name must be 'software', 'instruction' or 'auto'")
    kc_crc_init(name == "software")
    kc_crc32c_enable_fold(name != "instruction")


# -- murmur2: org.apache.kafka.common.utils.Utils.murmur2, bit for bit

cdef int32_t murmur2_raw(const uint8_t *p, size_t n) noexcept nogil:
    cdef uint32_t m = 0x5BD1E995U
    cdef uint32_t h = 0x9747B28CU ^ <uint32_t>n
    cdef uint32_t k
    cdef size_t i, n4 = n >> 2
    for i in range(n4):
        # little-endian word, assembled bytewise (no unaligned loads)
        k = (<uint32_t>p[0] | (<uint32_t>p[1] << 8) | (<uint32_t>p[2] << 16) | (<uint32_t>p[3] << 24))
        k *= m
        k ^= k >> 24
        k *= m
        h *= m
        h ^= k
        p += 4
    n &= 3
    if n == 3:
        h ^= <uint32_t>p[2] << 16
    if n >= 2:
        h ^= <uint32_t>p[1] << 8
    if n >= 1:
        h ^= <uint32_t>p[0]
        h *= m
    h ^= h >> 13
    h *= m
    h ^= h >> 15
    return <int32_t>h


cdef inline int32_t _murmur2_of(object data) except? -1:
    cdef Py_buffer view
    cdef int32_t h
    if type(data) is bytes:  # keys are bytes almost always: no buffer export
        return murmur2_raw(<const uint8_t *>PyBytes_AS_STRING(data), <size_t>PyBytes_GET_SIZE(data))
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    h = murmur2_raw(<const uint8_t *>view.buf, <size_t>view.len)
    PyBuffer_Release(&view)
    return h


def murmur2(data):
    """Kafka's murmur2 (the Java client's ``Utils.murmur2``) of a bytes-like
    object, as a signed 32-bit int."""
    return _murmur2_of(data)


def partition_for_key(key, Py_ssize_t num_partitions):
    """``toPositive(murmur2(key)) % num_partitions``: the partition the Java
    client's default partitioner gives a non-null key."""
    if num_partitions <= 0:
        raise ValueError("num_partitions must be positive")
    return (<uint32_t>_murmur2_of(key) & 0x7FFFFFFF) % <uint32_t>num_partitions


cdef inline int64_t _load_offset(const uint8_t *offsets, Py_ssize_t i, bint wide) noexcept nogil:
    cdef int32_t v32
    cdef int64_t v64
    if wide:
        memcpy(&v64, offsets + 8 * i, 8)
        return v64
    memcpy(&v32, offsets + 4 * i, 4)
    return v32


def murmur2_partitions(offsets, data, out, Py_ssize_t num_partitions, bint wide=False):
    """For each value of an Arrow binary column, the partition the Java client
    gives it as a key: ``toPositive(murmur2(value)) % num_partitions`` into
    ``out`` (a writable buffer of n int64), for n = len(out) // 8.  ``offsets``
    are the column's n + 1 offsets from its first value (int32, or int64 when
    ``wide``), ``data`` its value bytes.  Null rows are the caller's to mark."""
    cdef Py_buffer ov, dv, outv
    cdef Py_ssize_t i, n, width = 8 if wide else 4
    cdef int64_t start, end, first = 0, bad = -1
    cdef uint8_t *dst
    if num_partitions <= 0:
        raise ValueError("num_partitions must be positive")
    PyObject_GetBuffer(out, &outv, PyBUF_WRITABLE)
    try:
        PyObject_GetBuffer(offsets, &ov, PyBUF_SIMPLE)
        try:
            PyObject_GetBuffer(data, &dv, PyBUF_SIMPLE)
            try:
                n = outv.len // 8
                if ov.len < (n + 1) * width:
                    raise ValueError(f"offsets: {ov.len} bytes hold fewer than the {n + 1} offsets of {n} keys")
                dst = <uint8_t *>outv.buf
                with nogil:
                    for i in range(n):
                        start = _load_offset(<const uint8_t *>ov.buf, i, wide)
                        end = _load_offset(<const uint8_t *>ov.buf, i + 1, wide)
                        if start < 0 or end < start or end > dv.len:
                            bad = i
                            first = start
                            break
                        start = (<uint32_t>murmur2_raw(<const uint8_t *>dv.buf + start, <size_t>(end - start))
                                 & 0x7FFFFFFF) % <uint32_t>num_partitions
                        memcpy(dst + 8 * i, &start, 8)
                if bad >= 0:
                    raise ValueError(f"offsets[{bad}]: key bytes {first}..{end} lie outside the "
                                     f"{dv.len}-byte data buffer")
            finally:
                PyBuffer_Release(&dv)
        finally:
            PyBuffer_Release(&ov)
    finally:
        PyBuffer_Release(&outv)
