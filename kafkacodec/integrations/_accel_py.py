"""Pure-Python twin of kafkacodec/integrations/_accel.pyx: the fallback when
the compiled extension is not in use, and the reference in tests.  Same
contract: None whenever the client's own decoder must handle the batch."""
from __future__ import annotations

import time

from kafkacodec._pure.buffer import decode_varint, decode_varlong
from kafkacodec.errors import KafkaCodecError
from kafkacodec.records import compression as _compression
from kafkacodec.records.layout import V2_HEADER, V2_MAX_BASE_OFFSET, V2_RECORDS

__all__ = ["kp_batch_records", "kp_default_records", "aio_batch_records", "v2_size_estimator", "V2Builder"]

_HEADER = V2_HEADER
_RECORDS = V2_RECORDS
_KP_FIELDS = 13
_INT32 = (-(1 << 31), (1 << 31) - 1)


def _check_record_type(cls, fields):
    if not isinstance(cls, type) or not issubclass(cls, tuple):
        raise TypeError(f"{cls!r} is not a tuple subclass")
    if cls.__basicsize__ != tuple.__basicsize__ or cls.__dictoffset__:
        raise TypeError(f"{cls!r} has instance attributes beyond the tuple")
    if len(getattr(cls, "_fields", ())) != fields:
        raise TypeError(f"{cls!r} does not have {fields} fields")


class _Bail(Exception):
    pass


def _int32(mv, pos):
    v, pos = decode_varint(mv, pos)
    return v, pos


def _parse(mv, pos, end):
    """One record of mv[pos:end] as (length, ts_delta, offset_delta, key, value,
    [(key bytes, value)], next position); _Bail on anything kafkacodec's
    compiled parser rejects."""
    try:
        length, p = _int32(mv[:end], pos)
        if length <= 0 or length > end - p:
            raise _Bail
        rec_end = p + length
        body = mv[:rec_end]
        if body[p] & 0x80:  # attributes the client would read as a longer varint
            raise _Bail
        p += 1
        ts_delta, p = decode_varlong(body, p)
        offset_delta, p = _int32(body, p)
        fields = []
        for _ in range(2):
            n, p = _int32(body, p)
            if n < -1 or n > rec_end - p:
                raise _Bail
            fields.append(None if n < 0 else bytes(body[p:p + n]))
            p += max(n, 0)
        count, p = _int32(body, p)
        if count < 0 or count > (rec_end - p) // 2:
            raise _Bail
        headers = []
        for _ in range(count):
            n, p = _int32(body, p)
            if n < 0 or n > rec_end - p:
                raise _Bail
            hk = bytes(body[p:p + n])
            p += n
            n, p = _int32(body, p)
            if n < -1 or n > rec_end - p:
                raise _Bail
            headers.append((hk, None if n < 0 else bytes(body[p:p + n])))
            p += max(n, 0)
        if p != rec_end:
            raise _Bail
    except (KafkaCodecError, IndexError):
        raise _Bail from None
    return length, ts_delta, offset_delta, fields[0], fields[1], headers, rec_end


def kp_batch_records(cls, data, topic, partition, leader_epoch, untrack=False):
    """See kafkacodec.integrations._accel.kp_batch_records (Python cannot
    untrack objects: ``untrack`` is accepted and has no effect)."""
    _check_record_type(cls, _KP_FIELDS)
    return _kp_records(cls, data, topic, partition, leader_epoch, True)


def kp_default_records(cls, data):
    """See kafkacodec.integrations._accel.kp_default_records."""
    _check_record_type(cls, 7)
    return _kp_records(cls, data, None, None, None, False)


def _kp_records(cls, data, topic, partition, leader_epoch, consumer):
    mv = memoryview(data).cast("B")
    if len(mv) < _RECORDS:
        return None
    (base_offset, _len, _epoch, _magic, _crc, attrs, _last, base_ts, max_ts,
     _pid, _pepoch, _seq, count) = _HEADER.unpack_from(mv)
    if not -V2_MAX_BASE_OFFSET <= base_offset <= V2_MAX_BASE_OFFSET:
        return None  # record offsets could overflow: the client's decoder decides
    codec = attrs & 7
    append_time = (attrs >> 3) & 1
    if codec == 0:
        body, pos = mv, _RECORDS
    elif codec <= 4:
        try:
            body, pos = memoryview(_compression.decompress(codec, mv[_RECORDS:], magic=2)), 0
        except Exception:
            return None
    else:
        return None
    end = len(body)
    if count < 0 or count * 7 > end - pos:
        return None
    out, sizes = [], []
    new = tuple.__new__
    for _ in range(count):
        start = pos
        try:
            length, ts_delta, offset_delta, key, value, raw_headers, pos = _parse(body, pos, end)
            headers = [(k.decode("utf-8"), v) for k, v in raw_headers]
        except (_Bail, UnicodeDecodeError):
            return None
        if not (_INT32[0] <= offset_delta <= _INT32[1]):
            return None
        header_size = sum(len(k) + (len(v) if v is not None else 0) for k, v in raw_headers) if raw_headers else -1
        timestamp = max_ts if append_time else base_ts + ts_delta
        if consumer:
            out.append(new(cls, (topic, partition, leader_epoch, base_offset + offset_delta, timestamp,
                                 append_time, key, value, headers, None,
                                 -1 if key is None else len(key), -1 if value is None else len(value),
                                 header_size)))
            sizes.append(length)
        else:
            out.append(new(cls, (base_offset + offset_delta, timestamp, append_time, key, value, headers,
                                 pos - start)))
    if pos != end:
        return None
    return (out, sizes) if consumer else out


def aio_batch_records(cls, names, data, topic, partition, untrack=False):
    """See kafkacodec.integrations._accel.aio_batch_records (``untrack`` has
    no effect in Python)."""
    if (not isinstance(cls, type) or cls.__new__ is not object.__new__
            or cls.__setattr__ is not object.__setattr__):
        raise TypeError(f"{cls!r} must use object's __new__ and __setattr__")
    if len(names) != 11 or not all(type(n) is str for n in names):
        raise TypeError("expected 11 field names")
    raw = _kp_records(tuple, data, None, None, None, False)
    if raw is None:
        return None
    out, offsets = [], []
    for offset, timestamp, ts_type, key, value, headers, _ in raw:
        rec = object.__new__(cls)
        for name, v in zip(names, (topic, partition, offset, timestamp, ts_type, key, value, None,
                                   -1 if key is None else len(key), -1 if value is None else len(value),
                                   tuple(headers))):
            setattr(rec, name, v)
        out.append(rec)
        offsets.append(offset)
    return out, offsets


# ------------------------------------------------------------------ producer side

_INT64 = (-(1 << 63), (1 << 63) - 1)
_MAX_HEADERS_FAST = 64
_NOT_HANDLED = object()


def _zz_size(v):
    v = (v << 1) ^ (v >> 63)
    n = 1
    while v >= 0x80:
        v >>= 7
        n += 1
    return n


def _zz_write(out, v):
    v = (v << 1) ^ (v >> 63)
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def _is_int64(v):
    return type(v) is int and _INT64[0] <= v <= _INT64[1]


def _field_size(b):
    return 1 if b is None else _zz_size(len(b)) + len(b)


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
    return _zz_size(len(hs)) + sum(_field_size(k) + _field_size(v) for k, v in hs)


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
    body = 1 + _zz_size(delta) + _zz_size(offset) + _field_size(key) + _field_size(value) + _headers_size(hs)
    size = body + _zz_size(body)
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
    """See kafkacodec.integrations._accel.v2_size_estimator."""
    def estimate(key, value, headers):
        if (key is None or type(key) in (bytes, bytearray)) and (value is None or type(value) in (bytes, bytearray)):
            hs = _headers(headers)
            if hs is not None:
                return overhead + _field_size(key) + _field_size(value) + _headers_size(hs)
        return fallback(key, value, headers)
    return estimate


class V2Builder:
    """See kafkacodec.integrations._accel.V2Builder (here the state is plain attributes)."""

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
