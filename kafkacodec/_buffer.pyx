# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Bounds-checked Reader, growable Writer, OwnedBuffer and the public varint functions."""
cimport cython
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE, PyBUF_WRITABLE
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.object cimport PyObject
from cpython.ref cimport Py_XDECREF

cdef extern from "Python.h":
    PyObject *PyBytes_FromStringAndSize_raw "PyBytes_FromStringAndSize" (const char *, Py_ssize_t)
    char *PyBytes_AS_STRING_raw "PyBytes_AS_STRING" (PyObject *)
    int _PyBytes_Resize(PyObject **, Py_ssize_t)
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from kafkacodec._primitives cimport (
    KC_OK, KC_TRUNCATED, KC_OVERLONG, MAX_VARLONG_LEN,
    kc_load_be16, kc_load_be32, kc_load_be64, kc_load_be_double,
    kc_store_be16, kc_store_be32, kc_store_be64, kc_store_be_double,
    read_uvarint, read_varint,
    write_uvarint64, zigzag32, zigzag64,
)
from kafkacodec._crc cimport crc32c_update
from kafkacodec._growbuf cimport KC_HUGE_ALIGN

from kafkacodec.errors import CorruptDataError, TruncatedDataError, EncodeError


cdef int raise_corrupt(str reason, Py_ssize_t offset) except -1:
    raise CorruptDataError(reason, offset)


cdef int raise_truncated(Py_ssize_t offset, Py_ssize_t needed, Py_ssize_t available) except -1:
    raise TruncatedDataError(
        f"input truncated: needed {needed} bytes, {available} available", offset)


cdef int raise_varint_error(int rc, Py_ssize_t offset) except -1:
    if rc == KC_TRUNCATED:
        raise TruncatedDataError("input truncated inside a varint", offset)
    raise CorruptDataError("varint is too long for its type", offset)


# Outside the cycle collector, as records' _Source: the collector must not
# clear an exporter (a memoryview) while this reader holds its buffer.
@cython.final
@cython.no_gc
cdef class Reader:
    """Sequential big-endian reader over a bytes-like object.

    Every read checks the end of the buffer and raises TruncatedDataError /
    CorruptDataError with the absolute byte offset.  Views returned by
    read_view() reference the source without copying and keep it alive.
    """

    def __cinit__(self, object data=None, Py_ssize_t start=0, object stop=None, Py_ssize_t base=0):
        self.has_view = False
        self.cur.buf = NULL
        self.cur.pos = 0
        self.cur.end = 0
        self.cur.base = base
        if data is None:
            return
        PyObject_GetBuffer(data, &self.view, PyBUF_SIMPLE)
        self.has_view = True
        self.source = data
        self.cur.buf = <const uint8_t *>self.view.buf
        self.cur.end = self.view.len if stop is None else min(<Py_ssize_t>stop, self.view.len)
        if start < 0 or start > self.cur.end:
            raise ValueError("start outside the buffer")
        self.cur.pos = start

    def __dealloc__(self):
        if self.has_view:
            PyBuffer_Release(&self.view)
            self.has_view = False

    # -- Python-level introspection (cdef code uses the cursor directly) --
    @property
    def position(self):
        return self.cur.pos

    @position.setter
    def position(self, Py_ssize_t value):
        if value < 0 or value > self.cur.end:
            raise ValueError("position outside the buffer")
        self.cur.pos = value

    @property
    def remaining_bytes(self):
        return self.cur.end - self.cur.pos

    @property
    def absolute_position(self):
        return self.cur.base + self.cur.pos

    cdef int fail(self, int rc, Py_ssize_t needed) except -1:
        """Raise for a cursor read that returned rc (needed: its fixed size, or 0 for a varint)."""
        if needed:
            return raise_truncated(self.cur.base + self.cur.pos, needed, self.cur.end - self.cur.pos)
        return raise_varint_error(rc, self.cur.base + self.cur.pos)

    cdef int need(self, Py_ssize_t n) except -1:
        if n < 0:
            raise_corrupt(f"negative length {n}", self.cur.base + self.cur.pos)
        if self.cur.end - self.cur.pos < n:
            raise_truncated(self.cur.base + self.cur.pos, n, self.cur.end - self.cur.pos)
        return 0

    cpdef int8_t read_int8(self) except? -1:
        cdef const uint8_t *p = NULL
        self.check(cur_take(&self.cur, 1, &p), 1)
        return <int8_t>p[0]

    cpdef int16_t read_int16(self) except? -1:
        cdef uint16_t v = 0
        self.check(cur_be(&self.cur, &v), 2)
        return <int16_t>v

    cpdef int32_t read_int32(self) except? -1:
        cdef uint32_t v = 0
        self.check(cur_be(&self.cur, &v), 4)
        return <int32_t>v

    cpdef int64_t read_int64(self) except? -1:
        cdef uint64_t v = 0
        self.check(cur_be(&self.cur, &v), 8)
        return <int64_t>v

    cpdef int64_t read_uint16(self) except -1:
        return <uint16_t>self.read_int16()

    cpdef int64_t read_uint32(self) except -1:
        return <uint32_t>self.read_int32()

    cpdef double read_float64(self) except? -1.0:
        cdef const uint8_t *p = NULL
        self.check(cur_take(&self.cur, 8, &p), 8)
        return kc_load_be_double(p)

    cpdef int64_t read_uvarint(self) except -1:
        cdef uint32_t v = 0
        self.check(cur_uvarint(&self.cur, &v), 0)
        return v

    cpdef int32_t read_varint(self) except? -1:
        cdef int32_t v = 0
        self.check(cur_varint(&self.cur, &v), 0)
        return v

    cpdef int64_t read_varlong(self) except? -1:
        cdef int64_t v = 0
        self.check(cur_varint(&self.cur, &v), 0)
        return v

    cdef const uint8_t *read_raw(self, Py_ssize_t n) except NULL:
        cdef const uint8_t *p = NULL
        self.need(n)
        cur_take(&self.cur, n, &p)
        return p

    cpdef bytes read_bytes(self, Py_ssize_t n):
        cdef const uint8_t *p = self.read_raw(n)
        return PyBytes_FromStringAndSize(<const char *>p, n)

    cpdef object read_view(self, Py_ssize_t n):
        self.need(n)
        self.cur.pos += n
        return self.view_of(self.cur.pos - n, self.cur.pos)

    cdef object view_of(self, Py_ssize_t start, Py_ssize_t stop):
        # A memoryview slice shares the exporter's memory and keeps it alive.
        if self._memview is None:
            self._memview = memoryview(self.source).cast("B")
        return self._memview[start:stop]


cdef Reader make_reader(object data, Py_ssize_t start, Py_ssize_t stop, Py_ssize_t base):
    return Reader(data, start, stop, base)


cdef enum:
    INITIAL_CAPACITY = 256


cdef inline int _write_be(Writer w, be_uint_t v) except -1:
    """Append v big-endian at its own width."""
    w.ensure(sizeof(be_uint_t))
    if be_uint_t is uint16_t:
        kc_store_be16(w.buf + w.length, v)
    elif be_uint_t is uint32_t:
        kc_store_be32(w.buf + w.length, v)
    else:
        kc_store_be64(w.buf + w.length, v)
    w.length += sizeof(be_uint_t)
    return 0


cdef inline int _write_uvarint(Writer w, uint64_t raw) except -1:
    w.ensure(MAX_VARLONG_LEN)
    w.length += write_uvarint64(w.buf + w.length, raw)
    return 0


@cython.final
cdef class Writer:
    """Growable output buffer with reserved slots patched after the body is
    written (sizes, lengths and CRCs are only known at the end).

    The bytes live in a bytes object the writer owns alone, so a finished
    batch can be handed over as bytes without a copy (take_bytes).  Or, after
    use_buffer, in a buffer of the caller's (a BufferPool's bytearray), so the
    memory a producer accounts for is the memory its batches are written in."""

    def __cinit__(self, Py_ssize_t capacity=INITIAL_CAPACITY):
        self._storage = NULL
        self.in_place = False
        self._resize(capacity if capacity >= 16 else 16)

    cdef int use_buffer(self, object buffer) except -1:
        """Write into `buffer` (writable, contiguous) from its first byte on;
        what was written before is dropped.  The buffer stays pinned (a
        bytearray cannot be resized) until detach(), the writer's end, or a
        write it cannot hold, after which the writer goes on in storage of its
        own (the buffer is left as it was)."""
        cdef Py_buffer view
        PyObject_GetBuffer(buffer, &view, PyBUF_WRITABLE)
        self.detach()
        self._view = view
        self.in_place = True
        self.buf = <uint8_t *>view.buf
        self.capacity = view.len
        return 0

    cdef void detach(self) noexcept:
        """Forget what was written and the buffer or storage it was in: the
        next write allocates afresh."""
        if self.in_place:
            self.in_place = False
            PyBuffer_Release(&self._view)
        Py_XDECREF(<PyObject *>self._storage)
        self._storage = NULL
        self.buf = NULL
        self.capacity = 0
        self.length = 0

    cdef int _resize(self, Py_ssize_t capacity) except -1:
        # Sole owner of the bytes object: resizing it in place is allowed.
        # Without storage (handed over by take_bytes, or lost to a failed
        # resize) a fresh object is made.
        cdef bint ok
        cdef PyObject *grown
        if self.in_place:
            # outgrown the caller's buffer: on in storage of our own
            grown = PyBytes_FromStringAndSize_raw(NULL, capacity)
            if grown == NULL:
                raise MemoryError()
            if self.length > capacity:
                self.length = capacity
            memcpy(PyBytes_AS_STRING_raw(grown), self.buf, self.length)
            self.in_place = False
            PyBuffer_Release(&self._view)
            self._storage = grown
            self.buf = <uint8_t *>PyBytes_AS_STRING_raw(grown)
            self.capacity = capacity
            return 0
        if self._storage == NULL:
            self._storage = PyBytes_FromStringAndSize_raw(NULL, capacity)
            ok = self._storage != NULL
        else:
            ok = _PyBytes_Resize(<PyObject **>&self._storage, capacity) == 0
        if not ok:
            # the bytes object is gone: leave an empty writer behind
            self._storage = NULL
            self.buf = NULL
            self.capacity = 0
            self.length = 0
            raise MemoryError()
        self.buf = <uint8_t *>PyBytes_AS_STRING_raw(<PyObject *>self._storage)
        self.capacity = capacity
        return 0

    def __dealloc__(self):
        self.detach()

    def __len__(self):
        return self.length

    cdef int ensure(self, Py_ssize_t extra) except -1:
        cdef Py_ssize_t new_cap
        if self.length + extra <= self.capacity:
            return 0
        new_cap = self.capacity * 2 if self.capacity else INITIAL_CAPACITY
        while new_cap < self.length + extra:
            new_cap *= 2
        return self._resize(new_cap)

    cpdef int write_int8(self, int8_t v) except -1:
        self.ensure(1)
        self.buf[self.length] = <uint8_t>v
        self.length += 1
        return 0

    cpdef int write_int16(self, int16_t v) except -1:
        return _write_be(self, <uint16_t>v)

    cpdef int write_int32(self, int32_t v) except -1:
        return _write_be(self, <uint32_t>v)

    cpdef int write_int64(self, int64_t v) except -1:
        return _write_be(self, <uint64_t>v)

    cpdef int write_uint32(self, uint32_t v) except -1:
        return _write_be(self, v)

    cpdef int write_float64(self, double v) except -1:
        self.ensure(8)
        kc_store_be_double(self.buf + self.length, v)
        self.length += 8
        return 0

    cpdef int write_uvarint(self, uint32_t v) except -1:
        return _write_uvarint(self, v)

    cpdef int write_varint(self, int32_t v) except -1:
        return _write_uvarint(self, zigzag32(v))

    cpdef int write_varlong(self, int64_t v) except -1:
        return _write_uvarint(self, zigzag64(v))

    cdef int write_raw(self, const void *p, Py_ssize_t n) except -1:
        self.ensure(n)
        memcpy(self.buf + self.length, p, n)
        self.length += n
        return 0

    cpdef int write_object(self, object data) except -1:
        """Append the bytes of any bytes-like object."""
        cdef Py_buffer view
        PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
        try:
            self.write_raw(view.buf, view.len)
        finally:
            PyBuffer_Release(&view)
        return 0

    cpdef Py_ssize_t reserve(self, Py_ssize_t n) except -1:
        """Skip n bytes to fill in later; returns their position."""
        cdef Py_ssize_t at = self.length
        self.ensure(n)
        self.length += n
        return at

    cpdef int patch_int32(self, Py_ssize_t at, int32_t v) except -1:
        if at < 0 or at + 4 > self.length:
            raise IndexError("patch outside the written data")
        kc_store_be32(self.buf + at, <uint32_t>v)
        return 0

    cpdef int patch_uint32(self, Py_ssize_t at, uint32_t v) except -1:
        if at < 0 or at + 4 > self.length:
            raise IndexError("patch outside the written data")
        kc_store_be32(self.buf + at, v)
        return 0

    cdef uint32_t crc32c_of(self, Py_ssize_t start, Py_ssize_t stop) except? 0xFFFFFFFF:
        if start < 0 or stop > self.length or start > stop:
            raise IndexError("checksum range outside the written data")
        return crc32c_update(0, self.buf + start, <size_t>(stop - start))

    def crc32c(self, Py_ssize_t start, stop=None):
        """CRC-32C of the written bytes from start (to stop, default the end)."""
        return self.crc32c_of(start, self.length if stop is None else <Py_ssize_t>stop)

    cpdef bytes to_bytes(self):
        return PyBytes_FromStringAndSize(<const char *>self.buf, self.length)

    cdef bytes take_bytes(self):
        """The written bytes as a bytes object, without copying them; the
        writer starts again empty."""
        cdef PyObject *obj
        if self.in_place or (self.length * 2 < self.capacity and self.length < 4096):
            # in place the buffer is the caller's, so the bytes are a copy; and
            # when mostly unused, a small copy beats keeping the large allocation
            out = self.to_bytes()
            self.length = 0
            return out
        self._resize(self.length)
        obj = <PyObject *>self._storage
        out = <bytes>obj        # a second reference...
        Py_XDECREF(obj)         # ...and the writer's own is handed over
        self._storage = NULL    # the next write allocates afresh
        self.buf = NULL
        self.capacity = 0
        self.length = 0
        return out

    def clear(self):
        self.length = 0


# ---- public varint functions ----

cdef inline object _encode_u64(uint64_t raw):
    cdef uint8_t tmp[MAX_VARLONG_LEN]
    cdef Py_ssize_t n = write_uvarint64(tmp, raw)
    return PyBytes_FromStringAndSize(<const char *>tmp, n)


def encode_varint(object value):
    """Zigzag-encode a signed 32-bit integer (Kafka `varint`)."""
    if not -0x80000000 <= value <= 0x7FFFFFFF:
        raise EncodeError(f"varint out of int32 range: {value}")
    return _encode_u64(zigzag32(<int32_t>value))


def encode_varlong(object value):
    """Zigzag-encode a signed 64-bit integer (Kafka `varlong`)."""
    if not -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:
        raise EncodeError(f"varlong out of int64 range: {value}")
    return _encode_u64(zigzag64(<int64_t>value))


def encode_uvarint(object value):
    """Encode an unsigned 32-bit integer (Kafka `unsigned varint`)."""
    if not 0 <= value <= 0xFFFFFFFF:
        raise EncodeError(f"unsigned varint out of uint32 range: {value}")
    return _encode_u64(<uint32_t>value)


cdef inline Py_ssize_t _check_pos(Py_buffer *view, Py_ssize_t pos) except -1:
    if pos < 0 or pos > view.len:
        PyBuffer_Release(view)
        raise ValueError(f"position {pos} outside a buffer of {view.len} bytes")
    return pos


cdef enum VarintKind:
    ZIGZAG32
    ZIGZAG64
    UNSIGNED32


cdef tuple _decode_at(object data, Py_ssize_t pos, VarintKind kind):
    # One buffer export and one error path for the three Python-level decoders.
    cdef Py_buffer view
    cdef int32_t v32 = 0
    cdef int64_t v64 = 0
    cdef uint32_t u32 = 0
    cdef int rc
    cdef Py_ssize_t start = pos
    cdef const uint8_t *buf
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    _check_pos(&view, pos)
    buf = <const uint8_t *>view.buf
    if kind == ZIGZAG32:
        rc = read_varint(buf, view.len, &pos, &v32)
    elif kind == ZIGZAG64:
        rc = read_varint(buf, view.len, &pos, &v64)
    else:
        rc = read_uvarint(buf, view.len, &pos, &u32)
    PyBuffer_Release(&view)
    if rc != KC_OK:
        raise_varint_error(rc, start)
    return (v32 if kind == ZIGZAG32 else v64 if kind == ZIGZAG64 else u32), pos


def decode_varint(data, Py_ssize_t pos=0):
    """Decode a zigzag varint at ``pos``; returns ``(value, new_pos)``."""
    return _decode_at(data, pos, ZIGZAG32)


def decode_varlong(data, Py_ssize_t pos=0):
    """Decode a zigzag varlong at ``pos``; returns ``(value, new_pos)``."""
    return _decode_at(data, pos, ZIGZAG64)


def decode_uvarint(data, Py_ssize_t pos=0):
    """Decode an unsigned varint at ``pos``; returns ``(value, new_pos)``."""
    return _decode_at(data, pos, UNSIGNED32)


@cython.final
cdef class OwnedBuffer:
    """malloc'd memory handed to Arrow without a copy; freed with the last view."""

    def __dealloc__(self):
        if self.release != NULL:
            self.release(self.data, self.cap)
        else:
            free(self.data)

    def __len__(self):
        return self.size

    def __getbuffer__(self, Py_buffer *view, int flags):
        self.shape[0] = self.size
        self.strides[0] = 1
        view.buf = self.data
        view.obj = self
        view.len = self.size
        view.readonly = 1
        view.itemsize = 1
        view.format = "B"
        view.ndim = 1
        view.shape = self.shape
        view.strides = self.strides
        view.suboffsets = NULL
        view.internal = NULL

    def __releasebuffer__(self, Py_buffer *view):
        pass


cdef OwnedBuffer take_growbuf(GrowBuf *b, release_fn release):
    cdef OwnedBuffer o = OwnedBuffer.__new__(OwnedBuffer)
    if b.data == NULL:
        b.data = <uint8_t *>malloc(1)  # an empty buffer still has an address
        if b.data == NULL:
            raise MemoryError()
    o.data = b.data
    o.size = b.len
    o.cap = b.cap
    o.release = release if b.cap >= <Py_ssize_t>KC_HUGE_ALIGN else NULL
    b.data = NULL
    b.len = 0
    b.cap = 0
    return o


cdef OwnedBuffer pack_bits(const GrowBuf *flags):
    cdef OwnedBuffer o = OwnedBuffer.__new__(OwnedBuffer)
    cdef Py_ssize_t n = flags.len, i
    cdef uint8_t *out
    o.size = (n + 7) // 8
    o.data = out = <uint8_t *>calloc(o.size if o.size else 1, 1)
    if out == NULL:
        raise MemoryError()
    with nogil:
        for i in range(n):
            if flags.data[i]:
                out[i >> 3] |= <uint8_t>(1 << (i & 7))
    return o
