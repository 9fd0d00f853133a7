"""Pure-Python twin of kafkacodec/integrations/_build.pyx (the adapters'
producer side): the fallback when the compiled extension is not in use, and
the reference in tests."""
from __future__ import annotations

import time

from kafkacodec.records.layout import field_size, varint_size

__all__ = ["v2_size_estimator", "V2Builder"]

_INT64 = (-(1 << 63), (1 << 63) - 1)
_MAX_HEADERS_FAST = 64
_NOT_HANDLED = object()


def _zz_write(out, v):
    v = (v << 1) ^ (v >> 63)
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def _is_int64(v):
    return type(v) is int and _INT64[0] <= v <= _INT64[1]


def _put(out, b):
    if b is None:
        out.append(1)
    else:
        _zz_write(out, len(b))
        out += b


def _headers(headers):
    """[(utf-8 key, value)] of a list of (str, bytes | None), or None when the client must handle them."""
    if type(headers) is not list or len(headers) > _MAX_HEADERS_FAST:
        return None
    out = []
    for item in headers:
        if type(item) is not tuple or len(item) != 2 or type(item[0]) is not str:
            return None
        try:
            k = item[0].encode("utf-8")
        except UnicodeError:
            return None
        v = item[1]
        if v is not None and type(v) is not bytes:
            return None
        out.append((k, v))
    return out


def _headers_size(hs):
    return varint_size(len(hs)) + sum(field_size(k) + field_size(v) for k, v in hs)


def _v2_append(self, offset, timestamp, key, value, headers, meta_cls):
    if not _is_int64(offset):
        return _NOT_HANDLED
    if timestamp is None:
        timestamp = int(time.time() * 1000)
    if not _is_int64(timestamp):
        return _NOT_HANDLED
    if not (key is None or type(key) in (bytes, bytearray)) or not (value is None or type(value) in (bytes, bytearray)):
        return _NOT_HANDLED
    buf = self._buffer
    if type(buf) is not bytearray or not _is_int64(self._batch_size):
        return _NOT_HANDLED
    first = self._first_timestamp is None
    if first:
        delta = 0
    else:
        if not _is_int64(self._first_timestamp) or not _is_int64(self._max_timestamp):
            return _NOT_HANDLED
        delta = timestamp - self._first_timestamp
        if not _is_int64(delta):
            return _NOT_HANDLED
    hs = _headers(headers)
    if hs is None:
        return _NOT_HANDLED
    body = 1 + varint_size(delta) + varint_size(offset) + field_size(key) + field_size(value) + _headers_size(hs)
    size = body + varint_size(body)
    if not first and len(buf) + size > self._batch_size:
        return None
    _zz_write(buf, body)
    buf.append(0)
    _zz_write(buf, delta)
    _zz_write(buf, offset)
    _put(buf, key)
    _put(buf, value)
    _zz_write(buf, len(hs))
    for k, v in hs:
        _put(buf, k)
        _put(buf, v)
    if first:
        self._first_timestamp = timestamp
        self._max_timestamp = timestamp
    elif self._max_timestamp < timestamp:
        self._max_timestamp = timestamp
    self._num_records += 1
    self._last_offset = offset
    return meta_cls(offset, size, timestamp)


def v2_size_estimator(overhead, fallback):
    """See kafkacodec.integrations._build.v2_size_estimator."""
    def estimate(key, value, headers):
        if (key is None or type(key) in (bytes, bytearray)) and (value is None or type(value) in (bytes, bytearray)):
            hs = _headers(headers)
            if hs is not None:
                return overhead + field_size(key) + field_size(value) + _headers_size(hs)
        return fallback(key, value, headers)
    return estimate


class V2Builder:
    """See kafkacodec.integrations._build.V2Builder (here the state is plain attributes)."""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        rule = getattr(cls, "_kc_rule", None)
        if rule != "kafka-python":
            raise ValueError(f"unknown size rule {rule!r}")

    def size(self):
        return len(self._buffer)

    def append(self, offset, timestamp, key, value, headers):
        res = _v2_append(self, offset, timestamp, key, value, headers, self._kc_meta)
        if res is _NOT_HANDLED:
            return self._kc_fallback(self, offset, timestamp, key, value, headers)
        return res
