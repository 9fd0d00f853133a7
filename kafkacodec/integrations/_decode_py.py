"""Pure-Python twin of kafkacodec/integrations/_decode.pyx (the adapters'
consumer side): the fallback when the compiled extension is not in use, and
the reference in tests.  Same contract: None whenever the client's own decoder
must handle the batch."""
from __future__ import annotations

from kafkacodec._pure.buffer import decode_varint, decode_varlong
from kafkacodec.errors import KafkaCodecError
from kafkacodec.records import compression as _compression
from kafkacodec.records.layout import V2_HEADER, V2_MAX_BASE_OFFSET, V2_RECORDS

__all__ = ["kp_batch_records", "kp_default_records", "aio_batch_records"]

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
    """See kafkacodec.integrations._decode.kp_batch_records (Python cannot
    untrack objects: ``untrack`` is accepted and has no effect)."""
    _check_record_type(cls, _KP_FIELDS)
    return _kp_records(cls, data, topic, partition, leader_epoch, True)


def kp_default_records(cls, data):
    """See kafkacodec.integrations._decode.kp_default_records."""
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
    """See kafkacodec.integrations._decode.aio_batch_records (``untrack`` has
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
