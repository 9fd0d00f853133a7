# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The client adapters' producer side, compiled (the consumer side is
_decode.pyx; the pure twin of this module is _build_py.py).

The clients' batch builders keep their records in a bytearray ``_buffer``
after a 61-byte header and track first/max timestamp, record count and last
offset in attributes.  V2Builder holds that state in C under the same
attribute names and writes one record into the same bytearray per append,
so the client's own build() and header code work unchanged; anything unusual
(other argument types, ints beyond 64 bits, header keys UTF-8 cannot encode)
goes to the client's own append on the same state, which decides or raises.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from libc.stdint cimport int64_t, uint8_t
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE, PyByteArray_Resize
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.string cimport memcpy

from kafkacodec._primitives cimport exact_int64, write_uvarint64, zigzag64, uvarint_size

import time as _time_mod

cdef enum:
    MAX_HEADERS_FAST = 64

cdef object _time_time = _time_mod.time


cdef inline Py_ssize_t _zz_size(int64_t v) noexcept nogil:
    return uvarint_size(zigzag64(v))


cdef inline Py_ssize_t _zz_write(char *out, int64_t v) noexcept nogil:
    return write_uvarint64(<uint8_t *>out, zigzag64(v))


cdef inline bint _raw_bytes(object v, const char **p, Py_ssize_t *n):
    # bytes and bytearray only: other types (memoryview formats, buffer
    # objects, iterables of ints) keep the client's own handling
    if v is None:
        n[0] = -1
        return True
    if type(v) is bytes:
        p[0] = PyBytes_AS_STRING(v)
        n[0] = PyBytes_GET_SIZE(v)
        return True
    if type(v) is bytearray:
        p[0] = PyByteArray_AS_STRING(v)
        n[0] = PyByteArray_GET_SIZE(v)
        return True
    return False


cdef inline Py_ssize_t _field_size(Py_ssize_t n) noexcept nogil:
    return 1 if n < 0 else _zz_size(n) + n


cdef Py_ssize_t _headers_size(object headers, const char **hk, Py_ssize_t *hkn,
                              const char **hv, Py_ssize_t *hvn, Py_ssize_t nh) except -2:
    """Size of the header fields of a list of (str, bytes | None); -1 when the
    client must handle them."""
    cdef Py_ssize_t i, size = _zz_size(nh)
    cdef object item, k
    for i in range(nh):
        item = (<list>headers)[i]
        if type(item) is not tuple or len(<tuple>item) != 2:
            return -1
        k = (<tuple>item)[0]
        if type(k) is not str:
            return -1
        try:
            hk[i] = PyUnicode_AsUTF8AndSize(k, &hkn[i])
        except UnicodeError:
            return -1
        v = (<tuple>item)[1]
        if v is not None and type(v) is not bytes:
            return -1
        _raw_bytes(v, &hv[i], &hvn[i])
        size += _zz_size(hkn[i]) + hkn[i] + _field_size(hvn[i])
    return size


cdef inline Py_ssize_t _put(char *out, const char *p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t w
    if n < 0:
        out[0] = 1  # zigzag(-1): null
        return 1
    w = _zz_write(out, n)
    memcpy(out + w, p, n)
    return w + n


def v2_size_estimator(Py_ssize_t overhead, fallback):
    """``estimate(key, value, headers)``: overhead plus the v2 size of the key,
    value and headers fields (kafka-python's ``size_of``); arguments other than
    bytes/bytearray/None and a list of (str, bytes | None) go to
    ``fallback(key, value, headers)``."""
    def estimate(key, value, headers):
        cdef const char *kp = NULL
        cdef const char *vp = NULL
        cdef Py_ssize_t kn, vn, nh, hsize
        cdef const char *hk[MAX_HEADERS_FAST]
        cdef Py_ssize_t hkn[MAX_HEADERS_FAST]
        cdef const char *hv[MAX_HEADERS_FAST]
        cdef Py_ssize_t hvn[MAX_HEADERS_FAST]
        if (_raw_bytes(key, &kp, &kn) and _raw_bytes(value, &vp, &vn) and type(headers) is list
                and len(<list>headers) <= MAX_HEADERS_FAST):
            nh = len(<list>headers)
            hsize = _headers_size(headers, hk, hkn, hv, hvn, nh)
            if hsize >= 0:
                return overhead + _field_size(kn) + _field_size(vn) + hsize
        return fallback(key, value, headers)
    return estimate


cdef class V2Builder:
    """The record state and ``append`` of a client's v2 batch builder, in C.

    A subclass supplies the client's other builder methods (its __init__,
    build, header writing, producer state), which see the state through the
    client's attribute names: ``_buffer`` (the bytearray, batch header first),
    ``_first_timestamp`` / ``_max_timestamp`` (None before the first record),
    ``_last_offset``, ``_num_records``, ``_batch_size``.  The subclass sets
    three class attributes: ``_kc_meta`` (the client's metadata type, called
    as ``(offset, size, timestamp)``), ``_kc_fallback`` (the client's append,
    run on this same state for arguments of other types) and ``_kc_rule``,
    the client's size rule; the one there is, "kafka-python": a record is
    refused when it is not the first and the batch would exceed batch_size."""
    cdef public object _buffer, _last_offset
    cdef public Py_ssize_t _num_records
    # _first_timestamp, _max_timestamp and _batch_size as the client set them,
    # and their 64-bit copies for the C path; a value without one (set by the
    # client's own append) makes every later append the client's.
    cdef object first_obj, max_obj, batch_obj
    cdef int64_t first_ts, max_ts, batch_size
    cdef bint has_first, exotic
    cdef object meta_cls, fallback

    def __cinit__(self, *args, **kwargs):
        cls = type(self)
        self.meta_cls = cls._kc_meta
        self.fallback = cls._kc_fallback
        rule = cls._kc_rule
        if rule != "kafka-python":
            raise ValueError(f"unknown size rule {rule!r}")
        self._buffer = bytearray()
        self._last_offset = 0
        self.batch_obj = 0

    @property
    def _first_timestamp(self):
        return self.first_obj

    @_first_timestamp.setter
    def _first_timestamp(self, value):
        self.first_obj = value
        self.has_first = value is not None
        if self.has_first and not exact_int64(value, &self.first_ts):
            self.exotic = True

    @property
    def _max_timestamp(self):
        return self.max_obj

    @_max_timestamp.setter
    def _max_timestamp(self, value):
        self.max_obj = value
        if value is not None and not exact_int64(value, &self.max_ts):
            self.exotic = True

    @property
    def _batch_size(self):
        return self.batch_obj

    @_batch_size.setter
    def _batch_size(self, value):
        self.batch_obj = value
        if not exact_int64(value, &self.batch_size):
            self.exotic = True

    def size(self):
        return len(self._buffer)

    def append(self, offset, timestamp, key, value, headers):
        """Write one record; the client's metadata, or None when the batch is full."""
        cdef int64_t off = 0, ts = 0, delta
        cdef const char *kp = NULL
        cdef const char *vp = NULL
        cdef Py_ssize_t kn, vn, nh, hsize, body, size, pos, i
        cdef const char *hk[MAX_HEADERS_FAST]
        cdef Py_ssize_t hkn[MAX_HEADERS_FAST]
        cdef const char *hv[MAX_HEADERS_FAST]
        cdef Py_ssize_t hvn[MAX_HEADERS_FAST]
        cdef char *out
        buf = self._buffer
        if timestamp is None:
            timestamp = int(_time_time() * 1000)
        if (not exact_int64(offset, &off) or not exact_int64(timestamp, &ts)
                or not _raw_bytes(key, &kp, &kn) or not _raw_bytes(value, &vp, &vn)
                or type(headers) is not list or type(buf) is not bytearray or self.exotic):
            return self.fallback(self, offset, timestamp, key, value, headers)
        nh = len(<list>headers)
        if nh > MAX_HEADERS_FAST:
            return self.fallback(self, offset, timestamp, key, value, headers)
        if not self.has_first:
            delta = 0
        elif (self.first_ts < 0 and ts > self.first_ts + 0x7FFFFFFFFFFFFFFF) or \
                (self.first_ts > 0 and ts < self.first_ts - 0x7FFFFFFFFFFFFFFF - 1):
            return self.fallback(self, offset, timestamp, key, value, headers)
        else:
            delta = ts - self.first_ts
        hsize = _headers_size(headers, hk, hkn, hv, hvn, nh)
        if hsize < 0:
            return self.fallback(self, offset, timestamp, key, value, headers)
        body = 1 + _zz_size(delta) + _zz_size(off) + _field_size(kn) + _field_size(vn) + hsize
        size = body + _zz_size(body)
        pos = PyByteArray_GET_SIZE(buf)
        if self.has_first and pos + size > self.batch_size:
            return None
        PyByteArray_Resize(buf, pos + size)
        out = PyByteArray_AS_STRING(buf) + pos
        out += _zz_write(out, body)
        out[0] = 0  # attributes
        out += 1
        out += _zz_write(out, delta)
        out += _zz_write(out, off)
        out += _put(out, kp, kn)
        out += _put(out, vp, vn)
        out += _zz_write(out, nh)
        for i in range(nh):
            out += _put(out, hk[i], hkn[i])
            out += _put(out, hv[i], hvn[i])
        if not self.has_first:
            self.has_first = True
            self.first_ts = self.max_ts = ts
            self.first_obj = self.max_obj = timestamp
        elif self.max_ts < ts:
            self.max_ts = ts
            self.max_obj = timestamp
        self._num_records += 1
        self._last_offset = offset
        return self.meta_cls(offset, size, timestamp)
