"""Pure-Python twin of `kafkacodec.records._records`: RecordBatch v2, legacy
message sets (magic 0/1), read_committed filtering and the batch builders.

Same names, results, output bytes and errors (class, offset, path) as the
compiled module.  Fixed-width fields are wrapped to their C widths where the
compiled code computes in C, so corrupt input gives the same numbers too.
"""
import operator
import struct
import time as _time

from kafkacodec._pure.buffer import uvarint_bytes
from kafkacodec._pure.crc import crc32 as _crc32, crc32c as _crc32c
from kafkacodec.errors import (
    CorruptDataError, CrcMismatchError, EncodeError, KafkaCodecError, RecordLimitError, UnsupportedVersionError,
)
import kafkacodec.records.compression as _compression
from kafkacodec.records import _common
from kafkacodec.records._common import CONTROL_ABORT, CONTROL_COMMIT, CONTROL_TYPE_NAMES  # noqa: F401 - exported
from kafkacodec.records.layout import (  # the one layout, re-exported for the twins
    ATTR_COMPRESSION_MASK, ATTR_CONTROL, ATTR_DELETE_HORIZON, ATTR_TIMESTAMP_TYPE, ATTR_TRANSACTIONAL,
    INT64_MAX, INT64_MIN, LEGACY_ATTRIBUTES, LEGACY_CRC, LEGACY_MAGIC, LEGACY_V0_OVERHEAD, LEGACY_V1_OVERHEAD,
    LOG_OVERHEAD, V2_ATTRIBUTES, V2_BASE_OFFSET, V2_BASE_SEQUENCE, V2_CRC, V2_LAST_OFFSET_DELTA, V2_LENGTH,
    V2_MAGIC, V2_MAX_BASE_OFFSET, V2_MIN_RECORD_SIZE, V2_PRODUCER_EPOCH, V2_PRODUCER_ID, V2_RECORD_COUNT,
    V2_RECORDS, V2_HEADER as _V2_HEADER,
)

__all__ = list(_common.PUBLIC_NAMES)

CODEC_NAMES = ("none", "gzip", "snappy", "lz4", "zstd")


MAX_VARLONG_LEN = 10

_V2_HEADER_OUT = struct.Struct(">QIIBIHIQQQHII")   # every field masked to its width
_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")
_U32 = struct.Struct(">I")

_M32 = 0xFFFFFFFF
_M64 = 0xFFFFFFFFFFFFFFFF


def _wrap64(v):
    """int64 arithmetic as C does it (two's complement wrap)."""
    if -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF:
        return v
    return ((v + 0x8000000000000000) & _M64) - 0x8000000000000000


def _wrap32(v):
    if -0x80000000 <= v <= 0x7FFFFFFF:
        return v
    return ((v + 0x80000000) & _M32) - 0x80000000


def _c_int(value, bits, name):
    """Argument conversion as Cython does it for a C integer: anything with
    __int__ (a float truncates), range-checked."""
    if not isinstance(value, int):
        to_int = getattr(type(value), "__int__", None)
        if to_int is None:
            raise TypeError("an integer is required")
        value = to_int(value)
    lo = -(1 << (bits - 1))
    if not lo <= value < -lo:
        raise OverflowError(f"value too large to convert to int{bits}_t ({name})")
    return int(value)


def _c_double(value):
    if not isinstance(value, (int, float)) and getattr(type(value), "__float__", None) is None:
        raise TypeError(f"must be real number, not {type(value).__name__}")
    return float(value)


def _corrupt(reason, offset, path):
    raise CorruptDataError(reason, offset, path)


# ---------------------------------------------------------------- varints

P_VARINT_TRUNCATED = 1
P_VARINT_OVERLONG = 2
P_BAD_LENGTH = 3
P_SIZE_MISMATCH = 4


class _VarintFail(Exception):
    """Internal: a varint could not be read (problem code in args[0])."""


def _uvarint(buf, pos, end, last_shift, top):
    """Unsigned varint at buf[pos:end]; at most last_shift/7 + 1 bytes, the
    last holding no more than `top`.  Returns (value, new_pos)."""
    if pos < end:
        b = buf[pos]
        if b < 0x80:
            return b, pos + 1
    value = 0
    shift = 0
    while True:
        if pos >= end:
            raise _VarintFail(P_VARINT_TRUNCATED)
        b = buf[pos]
        pos += 1
        if shift == last_shift:
            if b > top:
                raise _VarintFail(P_VARINT_OVERLONG)
            return value | (b << shift), pos
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7


def _varint32(buf, pos, end):
    raw, pos = _uvarint(buf, pos, end, 28, 0x0F)
    return (raw >> 1) ^ -(raw & 1), pos


def _varint64(buf, pos, end):
    raw, pos = _uvarint(buf, pos, end, 63, 0x01)
    return (raw >> 1) ^ -(raw & 1), pos


def _zigzag64(v):
    return ((v << 1) ^ (v >> 63)) & _M64


def _zigzag32(v):
    return ((v << 1) ^ (v >> 31)) & _M32


def _uvarint_size(raw):
    n = 1
    while raw >= 0x80:
        raw >>= 7
        n += 1
    return n


def _varint_size(v):
    return _uvarint_size(_zigzag64(v))


# ---------------------------------------------------------------- v2 records

F_LENGTH, F_ATTRIBUTES, F_TIMESTAMP_DELTA, F_OFFSET_DELTA, F_KEY, F_VALUE = 0, 1, 2, 3, 4, 5
F_HEADERS, F_HEADER_KEY, F_HEADER_VALUE, F_RECORD = 6, 7, 8, 9
_FIELD_NAMES = ("length", "attributes", "timestamp_delta", "offset_delta", "key", "value",
                "headers", "key", "value", "")


class RecordParseError(Exception):
    """Internal: where and why parse_v2_record failed (the twin of RecordView's
    err_* fields); `to_corrupt` turns it into the public error."""

    def __init__(self, pos, field, problem, value=0, header=-1):
        super().__init__(pos, field, problem, value, header)
        self.pos = pos
        self.field = field
        self.problem = problem
        self.value = value
        self.header = header

    def to_corrupt(self, index, abs_base):
        field = _FIELD_NAMES[self.field]
        path = f"records[{index}]"
        if self.field in (F_HEADER_KEY, F_HEADER_VALUE):
            path += f".headers[{self.header}].{field}"
        elif field:
            path += "." + field
        if self.problem == P_VARINT_TRUNCATED:
            reason = "record ends inside a varint"
        elif self.problem == P_VARINT_OVERLONG:
            reason = "varint is too long for its type"
        elif self.problem == P_SIZE_MISMATCH:
            reason = f"record length leaves {self.value} unread bytes"
        elif self.field == F_LENGTH:
            reason = f"record length {self.value} invalid for the bytes left in the batch"
        elif self.field == F_HEADERS:
            reason = f"header count {self.value} invalid for the bytes left in the record"
        else:
            reason = f"{field} length {self.value} invalid for the bytes left in the record"
        return CorruptDataError(reason, abs_base + self.pos, path)


def _sized_field(buf, p, rec_end, field, min_len, header=-1):
    """A length-prefixed field of a record at p: (data position, length, next
    position); a length below min_len (-1: nullable) or past the record is an
    error at the field's start, as is a bad varint."""
    try:
        n, q = _varint32(buf, p, rec_end)
    except _VarintFail as exc:
        raise RecordParseError(p, field, exc.args[0], 0, header) from None
    if n < min_len or n > rec_end - q:
        raise RecordParseError(p, field, P_BAD_LENGTH, n, header)
    return q, n, q + n if n > 0 else q


def parse_v2_record(buf, pos, end):
    """Validate the record at buf[pos:end] and say where its fields are:
    (end, timestamp_delta, offset_delta, key_pos, key_len, value_pos, value_len,
    headers) with headers a list of (key_pos, key_len, value_pos, value_len);
    lengths are -1 for null.  Raises RecordParseError."""
    start = pos
    header = -1
    field = F_LENGTH
    p = pos
    try:
        length, p = _varint32(buf, p, end)
        if length <= 0 or length > end - p:
            raise RecordParseError(start, F_LENGTH, P_BAD_LENGTH, length)
        rec_end = p + length
        p += 1  # attributes: unused in v2
        field = F_TIMESTAMP_DELTA
        ts_delta, p = _varint64(buf, p, rec_end)
        field = F_OFFSET_DELTA
        offset_delta, p = _varint32(buf, p, rec_end)
        key_pos, key_len, p = _sized_field(buf, p, rec_end, F_KEY, -1)
        value_pos, value_len, p = _sized_field(buf, p, rec_end, F_VALUE, -1)
        field = F_HEADERS
        fstart = p
        count, p = _varint32(buf, p, rec_end)
        # each header needs at least two bytes: never trust a larger count
        if count < 0 or count > (rec_end - p) // 2:
            raise RecordParseError(fstart, F_HEADERS, P_BAD_LENGTH, count)
        headers = []
        for header in range(count):
            hk_pos, hk, p = _sized_field(buf, p, rec_end, F_HEADER_KEY, 0, header)
            hv_pos, hv, p = _sized_field(buf, p, rec_end, F_HEADER_VALUE, -1, header)
            headers.append((hk_pos, hk, hv_pos, hv))
        header = -1
    except _VarintFail as exc:
        # the position is the start of the varint that failed
        raise RecordParseError(p, field, exc.args[0], 0, header) from None
    if p != rec_end:
        raise RecordParseError(p, F_RECORD, P_SIZE_MISMATCH, rec_end - p)
    return rec_end, ts_delta, offset_delta, key_pos, key_len, value_pos, value_len, headers


def _bytes_or_none(buf, pos, n):
    if n < 0:
        return None
    return bytes(buf[pos:pos + n])


def _decode_v2_records(buf, pos, end, count, abs_base, base_offset, base_timestamp,
                       timestamp_type, log_append_time, is_control, leader_epoch=-1):
    """Decode `count` records laid out in buf[pos:end]; abs_base maps positions
    to offsets in the caller's input for error messages."""
    append_time = timestamp_type == 1 and log_append_time >= 0
    if count < 0:
        _corrupt(f"negative record count {count}", abs_base + pos, "")
    # Never size anything by a count the bytes cannot hold.
    if count * V2_MIN_RECORD_SIZE > end - pos:
        _corrupt(f"record count {count} does not fit in {end - pos} bytes", abs_base + pos, "")
    out = []
    for i in range(count):
        try:
            rec_end, ts_delta, offset_delta, kp, kl, vp, vl, hdrs = parse_v2_record(buf, pos, end)
        except RecordParseError as exc:
            raise exc.to_corrupt(i, abs_base) from None
        if hdrs:
            headers = tuple((bytes(buf[hkp:hkp + hkl]).decode("utf-8", "surrogateescape"),
                             _bytes_or_none(buf, hvp, hvl))
                            for hkp, hkl, hvp, hvl in hdrs)
        else:
            headers = ()
        out.append(_new_record(
            _wrap64(base_offset + offset_delta),
            log_append_time if append_time else _wrap64(base_timestamp + ts_delta),
            timestamp_type, _bytes_or_none(buf, kp, kl), _bytes_or_none(buf, vp, vl), headers,
            rec_end - pos, -1, is_control, leader_epoch))
        pos = rec_end
    if pos != end:
        _corrupt(f"{end - pos} bytes left after the last of {count} records", abs_base + pos, "records")
    return out


# ---------------------------------------------------------------- Record

class Record:
    """One record: offset, timestamp, timestamp_type, key, value (bytes or
    None) and headers (tuple of (str, bytes | None)).  Header keys are UTF-8;
    undecodable bytes are kept as surrogate escapes so they re-encode to the
    same bytes."""

    __slots__ = ("_offset", "_timestamp", "_timestamp_type", "_key", "_value", "_headers",
                 "_topic", "_partition", "_leader_epoch", "_size_in_bytes", "_checksum", "_is_control")

    @property
    def checksum(self):
        """The legacy message CRC-32 (magic 0/1); None for v2 records."""
        return None if self._checksum < 0 else self._checksum

    @property
    def control_type(self):
        """"COMMIT" / "ABORT" for a control record (else None); unknown types as int."""
        if not self._is_control or self._key is None or len(self._key) < 4:
            return None
        t = int.from_bytes(self._key[2:4], "big", signed=True)
        return CONTROL_TYPE_NAMES.get(t, t)

    @property
    def control_version(self):
        if not self._is_control or self._key is None or len(self._key) < 2:
            return None
        return int.from_bytes(self._key[0:2], "big", signed=True)

    @property
    def coordinator_epoch(self):
        """Coordinator epoch of a transaction marker's value (else None)."""
        if not self._is_control or self._value is None or len(self._value) < 6:
            return None
        return int.from_bytes(self._value[2:6], "big", signed=True)

    def __repr__(self):
        return (f"Record(offset={self._offset}, timestamp={self._timestamp}, key={self._key!r}, "
                f"value={self._value!r}, headers={self._headers!r})")

    def __eq__(self, other):
        if not isinstance(other, Record):
            return NotImplemented
        return (self._offset == other._offset and self._timestamp == other._timestamp
                and self._key == other._key and self._value == other._value
                and self._headers == other._headers)

    def __hash__(self):
        return hash((self._offset, self._timestamp, self._key, self._value))

    def __reduce__(self):
        return (_make_record, (self._offset, self._timestamp, self._timestamp_type, self._key,
                               self._value, self._headers, self._topic, self._partition, self._leader_epoch))


def _readonly(cls, names):
    for name in names:
        setattr(cls, name, property(operator.attrgetter("_" + name)))


_readonly(Record, ("offset", "timestamp", "timestamp_type", "key", "value", "headers", "topic", "partition",
                   "leader_epoch", "size_in_bytes", "is_control"))


def _new_record(offset, timestamp, timestamp_type, key, value, headers, size, checksum, is_control, leader_epoch=-1):
    r = Record.__new__(Record)
    r._offset = offset
    r._timestamp = timestamp
    r._timestamp_type = timestamp_type
    r._key = key
    r._value = value
    r._headers = headers
    r._topic = None
    r._partition = None
    r._leader_epoch = leader_epoch
    r._size_in_bytes = size
    r._checksum = checksum
    r._is_control = is_control
    return r


def checked_record_class(record_class):
    """None for Record itself (or None), else `record_class`, a subclass of Record."""
    return _common.checked_record_class(record_class, Record)


_RECORD_SLOTS = Record.__slots__


def _as_class(rec, record_class):
    """A record of `record_class` holding rec's fields (its __init__ not called)."""
    made = record_class.__new__(record_class)
    for slot in _RECORD_SLOTS:
        setattr(made, slot, getattr(rec, slot))
    return made


def _make_record(offset, timestamp, timestamp_type, key, value, headers, topic=None, partition=None,
                 leader_epoch=-1):
    # As unpickled by the compiled twin: size and control flag default to zero.
    r = _new_record(offset, timestamp, timestamp_type, key, value, headers, 0, -1, False, leader_epoch)
    r._topic = topic
    r._partition = partition
    return r


# ---------------------------------------------------------------- sources and batches

class _Source:
    """The caller's buffer as indexable bytes; a memoryview export pins a
    bytearray against resizes while batches exist."""

    __slots__ = ("obj", "buf", "size")

    def __init__(self, data):
        self.obj = data
        if type(data) is bytes:
            self.buf = data
        else:
            mv = memoryview(data)
            if not mv.c_contiguous:
                raise BufferError("memoryview: underlying buffer is not C-contiguous")
            self.buf = mv if (mv.format == "B" and mv.ndim == 1) else mv.cast("B")
        self.size = len(self.buf)


_BATCH_FIELDS = ("magic", "base_offset", "last_offset", "partition_leader_epoch", "crc", "attributes",
                 "base_timestamp", "max_timestamp", "producer_id", "producer_epoch", "base_sequence",
                 "record_count", "size_in_bytes", "position")


class RecordBatch:
    """A view of one batch (magic 2) or one top-level legacy entry (magic 0/1,
    a single message or a compressed wrapper).  Iterating yields Records."""

    __slots__ = tuple("_" + n for n in _BATCH_FIELDS) + (
        "_src", "_index", "_max_decompressed", "_legacy_records")

    @property
    def compression(self):
        return CODEC_NAMES[self._attributes & ATTR_COMPRESSION_MASK]

    @property
    def compression_id(self):
        return self._attributes & ATTR_COMPRESSION_MASK

    @property
    def timestamp_type(self):
        return 1 if self._attributes & ATTR_TIMESTAMP_TYPE else 0

    @property
    def is_transactional(self):
        return self._magic >= 2 and bool(self._attributes & ATTR_TRANSACTIONAL)

    @property
    def is_control(self):
        return self._magic >= 2 and bool(self._attributes & ATTR_CONTROL)

    @property
    def has_delete_horizon(self):
        return self._magic >= 2 and bool(self._attributes & ATTR_DELETE_HORIZON)

    @property
    def has_producer_id(self):
        return self._producer_id >= 0

    @property
    def index(self):
        """Position of this entry among the entries of its input (0-based)."""
        return self._index

    @property
    def next_offset(self):
        return _wrap64(self._last_offset + 1)

    @property
    def delete_horizon_ms(self):
        """With the delete-horizon flag, the base timestamp holds the horizon."""
        return self._base_timestamp if self.has_delete_horizon else None

    def raw(self):
        """A zero-copy memoryview of the whole batch as stored."""
        return memoryview(self._src.obj)[self._position:self._position + self._size_in_bytes]

    def records(self, topic=None, partition=None, record_class=None):
        """All records as a list (decompressing if needed); ``topic`` and
        ``partition``, when given, are set on each record (a consumer's fetch).
        ``record_class``: a subclass of Record to make the records of (its
        ``__init__`` is not called); default Record."""
        record_class = checked_record_class(record_class)
        try:
            out = self._v2_records() if self._magic >= 2 else list(self._legacy_records)
        except CorruptDataError as exc:
            raise exc.prefix_path(f"batches[{self._index}]")
        if record_class is not None:
            out = [_as_class(rec, record_class) for rec in out]
        if topic is not None or partition is not None:
            for rec in out:
                if topic is not None or self._magic < 2:
                    rec._topic = topic
                if partition is not None or self._magic < 2:
                    rec._partition = partition
        return out

    def __iter__(self):
        return iter(self.records())

    def __len__(self):
        return self._record_count

    def control_record(self):
        """(version, type) of a control batch's marker, type as "COMMIT"/"ABORT"."""
        if not self.is_control:
            return None
        recs = self.records()
        if not recs:
            return None
        return (recs[0].control_version, recs[0].control_type)

    def _v2_records(self):
        log_append_time = self._max_timestamp if self._attributes & ATTR_TIMESTAMP_TYPE else -1
        codec = self._attributes & ATTR_COMPRESSION_MASK
        src = self._src
        if codec == 0:
            return _decode_v2_records(src.buf, self._position + V2_RECORDS, self._position + self._size_in_bytes,
                                      self._record_count, 0, self._base_offset, self._base_timestamp,
                                      self.timestamp_type, log_append_time, self.is_control,
                                      self._partition_leader_epoch)
        inflated = self._inflate(codec)
        try:
            return _decode_v2_records(inflated, 0, len(inflated), self._record_count, 0,
                                      self._base_offset, self._base_timestamp, self.timestamp_type,
                                      log_append_time, self.is_control, self._partition_leader_epoch)
        except CorruptDataError as exc:
            exc.reason += " (offset within the decompressed records)"
            raise

    def _inflate(self, codec):
        """The decompressed records of a v2 batch (errors carry `records`)."""
        compressed = memoryview(self._src.buf)[self._position + V2_RECORDS:self._position + self._size_in_bytes]
        try:
            return _compression.decompress(codec, compressed, max_size=self._max_decompressed)
        except CorruptDataError as exc:
            if exc.offset is None:
                exc.offset = self._position + V2_RECORDS
            raise exc.prefix_path("records")
        finally:
            compressed.release()

    def __repr__(self):
        return (f"RecordBatch(magic={self._magic}, base_offset={self._base_offset}, "
                f"last_offset={self._last_offset}, records={self._record_count}, "
                f"compression={self.compression!r}, size={self._size_in_bytes})")


_readonly(RecordBatch, _BATCH_FIELDS)


def _new_batch(src, start, total, index, max_decompressed):
    b = RecordBatch.__new__(RecordBatch)
    b._src = src
    b._position = start
    b._size_in_bytes = total
    b._index = index
    b._max_decompressed = max_decompressed
    b._legacy_records = None
    return b


def _parse_v2_header(src, start, total, verify_crc, index, max_decompressed):
    if total < V2_RECORDS:
        _corrupt(f"batch length {total - LOG_OVERHEAD} is below the v2 minimum {V2_RECORDS - LOG_OVERHEAD}",
                 start + V2_LENGTH, f"batches[{index}].length")
    buf = src.buf
    (base_offset, _length, leader_epoch, _magic, crc, attrs, last_delta, base_ts, max_ts,
     producer_id, producer_epoch, base_sequence, count) = _V2_HEADER.unpack_from(buf, start)
    b = _new_batch(src, start, total, index, max_decompressed)
    b._magic = 2
    b._base_offset = base_offset
    b._partition_leader_epoch = leader_epoch
    b._crc = crc
    b._attributes = attrs
    b._last_offset = base_offset + last_delta
    b._base_timestamp = base_ts
    b._max_timestamp = max_ts
    b._producer_id = producer_id
    b._producer_epoch = producer_epoch
    b._base_sequence = base_sequence
    b._record_count = count
    if verify_crc:
        computed = _crc32c(memoryview(buf)[start + V2_ATTRIBUTES:start + total])
        if computed != crc:
            raise CrcMismatchError(f"CRC-32C mismatch: stored 0x{crc:08x}, computed 0x{computed:08x}",
                                   start + V2_CRC, f"batches[{index}].crc")
    if (attrs & ATTR_COMPRESSION_MASK) > 4:
        _corrupt(f"unknown compression codec {attrs & ATTR_COMPRESSION_MASK}",
                 start + V2_ATTRIBUTES, f"batches[{index}].attributes")
    if count < 0:
        _corrupt(f"negative record count {count}", start + V2_RECORD_COUNT, f"batches[{index}].record_count")
    if last_delta < 0:
        _corrupt(f"negative last offset delta {last_delta}", start + V2_LAST_OFFSET_DELTA,
                 f"batches[{index}].last_offset_delta")
    if not -V2_MAX_BASE_OFFSET <= base_offset <= V2_MAX_BASE_OFFSET:
        _corrupt(f"base offset {base_offset} leaves no room for the batch's offset deltas",
                 start + V2_BASE_OFFSET, f"batches[{index}].base_offset")
    return b


# ---------------------------------------------------------------- legacy message sets

def _legacy_entry(buf, pos, verify_crc):
    """Parse one complete legacy entry at buf[pos:]; the caller has checked that
    the 12-byte log overhead and the declared size fit.  Returns (size, offset,
    magic, attributes, timestamp, key_pos, key_len, value_pos, value_len, crc).
    Error paths are relative to the message; callers prefix them."""
    size = _I32.unpack_from(buf, pos + 8)[0]
    msg_end = pos + LOG_OVERHEAD + size
    magic = buf[pos + LEGACY_MAGIC]
    if magic > 127:
        magic -= 256
    if size < (LEGACY_V0_OVERHEAD if magic == 0 else LEGACY_V1_OVERHEAD):
        _corrupt(f"message size {size} below the magic {magic} minimum", pos + 8, "size")
    offset = _I64.unpack_from(buf, pos)[0]
    crc = _U32.unpack_from(buf, pos + LEGACY_CRC)[0]
    attributes = buf[pos + LEGACY_ATTRIBUTES]
    if verify_crc:
        computed = _crc32(memoryview(buf)[pos + LEGACY_MAGIC:msg_end])
        if computed != crc:
            raise CrcMismatchError(f"CRC-32 mismatch: stored 0x{crc:08x}, computed 0x{computed:08x}",
                                   pos + LEGACY_CRC, "crc")
    p = pos + LEGACY_ATTRIBUTES + 1
    if magic == 1:
        timestamp = _I64.unpack_from(buf, p)[0]
        p += 8
    else:
        timestamp = -1
    klen = _I32.unpack_from(buf, p)[0]
    p += 4
    if klen < -1 or klen > msg_end - p - 4:
        _corrupt(f"key length {klen} invalid", p - 4, "key")
    key_pos = p
    if klen > 0:
        p += klen
    vlen = _I32.unpack_from(buf, p)[0]
    p += 4
    if vlen < -1 or vlen > msg_end - p:
        _corrupt(f"value length {vlen} invalid", p - 4, "value")
    value_pos = p
    if vlen > 0:
        p += vlen
    if p != msg_end:
        _corrupt(f"message declares {size} bytes but its fields use {size - (msg_end - p)}", p, "")
    return msg_end - pos, offset, magic, attributes, timestamp, key_pos, klen, value_pos, vlen, crc


def _legacy_inner(inflated, wrapper_magic, wrapper_offset, wrapper_timestamp, wrapper_attributes,
                  verify_crc, path, max_records):
    """Messages of a decompressed wrapper, with absolute offsets."""
    end = len(inflated)
    pos = 0
    inner = []
    ts_type = 1 if (wrapper_magic == 1 and wrapper_attributes & ATTR_TIMESTAMP_TYPE) else 0
    # Count the messages before making any: a wrapper over the limit costs
    # its inflated bytes only (malformed entries are reported by the loop).
    counted = 0
    while end - pos >= LOG_OVERHEAD:
        size = _I32.unpack_from(inflated, pos + 8)[0]
        if size < 0:
            break
        counted += 1
        if counted > max_records:
            raise RecordLimitError(f"compressed wrapper holds more than {max_records} messages "
                                   f"(max_records_per_batch)", pos, f"{path}.messages[{max_records}]")
        pos += LOG_OVERHEAD + size
    pos = 0
    while pos < end:
        try:
            if end - pos < LOG_OVERHEAD + 5:
                _corrupt("truncated message inside a compressed wrapper", pos, "")
            size = _I32.unpack_from(inflated, pos + 8)[0]
            if size < 0 or size > end - pos - LOG_OVERHEAD:
                _corrupt(f"message size {size} exceeds the wrapper's decompressed payload", pos + 8, "size")
            n, offset, magic, attrs, ts, kp, kl, vp, vl, crc = _legacy_entry(inflated, pos, verify_crc)
            if attrs & ATTR_COMPRESSION_MASK:
                _corrupt("compressed message nested inside a compressed wrapper", pos + LEGACY_ATTRIBUTES,
                         "attributes")
            if magic != wrapper_magic:
                _corrupt(f"inner message magic {magic} differs from wrapper magic {wrapper_magic}",
                         pos + LEGACY_MAGIC, "magic")
        except CorruptDataError as exc:
            raise exc.prefix_path(f"{path}.messages[{len(inner)}]")
        if ts_type == 1:
            ts = wrapper_timestamp
        inner.append([offset, ts, _bytes_or_none(inflated, kp, kl), _bytes_or_none(inflated, vp, vl), crc, n])
        pos += n
    if not inner:
        _corrupt("compressed wrapper holds no messages", 0, path)
    if wrapper_magic >= 1:
        # Magic 1 inner offsets are relative; the wrapper carries the absolute
        # offset of the last inner message.
        last_inner = inner[-1][0]
        for i, m in enumerate(inner):
            m[0] = wrapper_offset - last_inner + m[0]
            if not INT64_MIN <= m[0] <= INT64_MAX:
                _corrupt(f"inner message offset {m[0]} is out of the 64-bit range", 0,
                         f"{path}.messages[{i}].offset")
    return [_new_record(o, ts, ts_type, k, v, (), n, crc, False) for o, ts, k, v, crc, n in inner]


def _parse_legacy(src, start, total, verify_crc, index, max_decompressed, max_records):
    buf = src.buf
    try:
        _, offset, magic, attrs, ts, kp, kl, vp, vl, crc = _legacy_entry(buf, start, verify_crc)
    except CorruptDataError as exc:
        raise exc.prefix_path(f"batches[{index}]")
    b = _new_batch(src, start, total, index, max_decompressed)
    b._magic = magic
    b._crc = crc
    b._attributes = attrs
    b._partition_leader_epoch = -1
    b._producer_id = -1
    b._producer_epoch = -1
    b._base_sequence = -1
    b._base_timestamp = ts
    b._max_timestamp = ts
    b._last_offset = offset
    codec = attrs & ATTR_COMPRESSION_MASK
    if magic == 0 and attrs & ATTR_TIMESTAMP_TYPE:
        b._attributes = attrs & ~ATTR_TIMESTAMP_TYPE  # the bit has no meaning before magic 1
    if codec == 0:
        b._base_offset = offset
        b._record_count = 1
        ts_type = 1 if (magic == 1 and attrs & ATTR_TIMESTAMP_TYPE) else 0
        b._legacy_records = [_new_record(offset, ts, ts_type, _bytes_or_none(buf, kp, kl),
                                         _bytes_or_none(buf, vp, vl), (), total, crc, False)]
        return b
    path = f"batches[{index}]"
    if codec > 4:
        _corrupt(f"unknown compression codec {codec}", start + LEGACY_ATTRIBUTES, path + ".attributes")
    if vl < 0:
        # vp is absolute: the length field sits just before it
        _corrupt("compressed wrapper has a null value", vp - 4, path + ".value")
    compressed = memoryview(buf)[vp:vp + vl]
    try:
        inflated = _compression.decompress(codec, compressed, max_size=max_decompressed, magic=magic)
    except CorruptDataError as exc:
        if exc.offset is None:
            exc.offset = vp
        raise exc.prefix_path(path + ".value")
    finally:
        compressed.release()
    b._legacy_records = _legacy_inner(inflated, magic, offset, ts, attrs, verify_crc, path + ".value",
                                      max_records)
    b._base_offset = b._legacy_records[0].offset
    b._record_count = len(b._legacy_records)
    return b


# ---------------------------------------------------------------- iteration

class BatchIterator:
    """Iterates the entries of a buffer holding any mix of magic 0, 1 and 2.

    A truncated final entry (a Fetch response cut at max_bytes) ends the
    iteration; `trailing_bytes` then tells how many bytes were left over.
    Corruption anywhere else raises CorruptDataError.
    """

    __slots__ = ("_src", "_pos", "_index", "_verify_crc", "_max_decompressed", "_max_records", "_trailing_bytes")

    def __iter__(self):
        return self

    @property
    def position(self):
        """Byte offset of the next entry."""
        return self._pos

    def __next__(self):
        start = self._pos
        src = self._src
        left = src.size - start
        if left < LOG_OVERHEAD + 5:
            self._trailing_bytes = left
            raise StopIteration
        buf = src.buf
        length = _I32.unpack_from(buf, start + V2_LENGTH)[0]
        if length < 0:
            _corrupt(f"negative batch length {length}", start + V2_LENGTH, f"batches[{self._index}].length")
        if length + LOG_OVERHEAD > left:
            # A partial trailing entry is normal at the end of a fetch.
            self._trailing_bytes = left
            raise StopIteration
        magic = buf[start + V2_MAGIC]
        if magic == 2:
            b = _parse_v2_header(src, start, length + LOG_OVERHEAD, self._verify_crc, self._index,
                                 self._max_decompressed)
            if b._record_count > self._max_records:
                raise RecordLimitError(f"batch holds {b._record_count} records, over the {self._max_records}-record "
                                       f"limit (max_records_per_batch)", start + V2_RECORD_COUNT,
                                       f"batches[{self._index}].record_count")
        elif magic == 0 or magic == 1:
            b = _parse_legacy(src, start, length + LOG_OVERHEAD, self._verify_crc, self._index,
                              self._max_decompressed, self._max_records)
        else:
            raise CorruptDataError(f"unknown record magic {magic - 256 if magic > 127 else magic}",
                                   start + V2_MAGIC, f"batches[{self._index}].magic")
        self._pos = start + length + LOG_OVERHEAD
        self._index += 1
        return b


_readonly(BatchIterator, ("trailing_bytes",))


def iter_batches(data, *, verify_crc=True, max_decompressed_size=None, max_records_per_batch=None):
    """Iterate the record batches / legacy entries in a bytes-like object
    without copying it.  The batches keep `data` alive (and, for a bytearray,
    un-resizable) while they exist.  A batch inflating to more than
    max_decompressed_size bytes, or holding more than max_records_per_batch
    records, raises (None: the process defaults in records.compression)."""
    it = BatchIterator.__new__(BatchIterator)
    max_decompressed_size = _compression.resolve_limit(max_decompressed_size)
    it._max_records = _compression.resolve_record_limit(max_records_per_batch)
    it._src = _Source(data)
    it._pos = 0
    it._index = 0
    it._verify_crc = bool(verify_crc)
    it._max_decompressed = max_decompressed_size
    it._trailing_bytes = 0
    return it


# ---------------------------------------------------------------- building

def _buffer_of(obj):
    """A key/value as bytes (None stays None)."""
    if obj is None or type(obj) is bytes:
        return obj
    try:
        mv = memoryview(obj)
    except TypeError:
        raise EncodeError(f"key, value and header values must be bytes-like or None, "
                          f"not {type(obj).__name__}") from None
    if not mv.c_contiguous:
        raise BufferError("memoryview: underlying buffer is not C-contiguous")
    return mv.tobytes()


def _now_ms():
    return int(_time.time() * 1000)


def _timestamp_arg(timestamp):
    return _now_ms() if timestamp is None else _c_int(timestamp, 64, "timestamp")


_BUILDER_FIELDS = ("magic", "compression_id", "base_offset", "timestamp_type", "producer_id",
                   "producer_epoch", "base_sequence", "is_transactional", "is_control",
                   "partition_leader_epoch", "batch_size", "record_count", "max_timestamp")


class RecordBatchBuilder:
    """Builds one record batch (magic 2) or legacy message set (magic 0/1).

    append() returns the record's offset, or None when the batch is full
    (the first record is always accepted).  build() returns the finished
    batch with its length and CRC written in place.

    ``buffer=`` (a bytearray, e.g. from a BufferPool) makes the builder write
    in it, and build() return a read-only memoryview of the batch in it;
    ``pool=`` draws such a buffer from a BufferPool and returns it on build()
    (which then returns a copy) or close().
    """

    __slots__ = tuple("_" + n for n in _BUILDER_FIELDS) + (
        "_level", "_buf", "_len", "_in_place", "_buffer", "_first_timestamp", "_max_timestamp",
        "_log_append_time", "_built", "_legacy", "_legacy_bytes", "_pool", "_pool_buffer", "_max_block",
        "_max_records", "__weakref__")

    def __init__(self, magic=2, compression="none", *, base_offset=0, timestamp_type=0, producer_id=-1,
                 producer_epoch=-1, base_sequence=-1, is_transactional=False, is_control=False,
                 partition_leader_epoch=-1, batch_size=1048576, compression_level=None,
                 log_append_time=None, pool=None, max_block_seconds=60.0, buffer=None, max_records=0x7FFFFFFF):
        # The compiled builder converts its arguments to C types first.
        self._pool = None
        self._pool_buffer = None
        magic = _c_int(magic, 32, "magic")
        base_offset = _c_int(base_offset, 64, "base_offset")
        timestamp_type = _c_int(timestamp_type, 32, "timestamp_type")
        producer_id = _c_int(producer_id, 64, "producer_id")
        producer_epoch = _c_int(producer_epoch, 32, "producer_epoch")
        base_sequence = _c_int(base_sequence, 32, "base_sequence")
        partition_leader_epoch = _c_int(partition_leader_epoch, 32, "partition_leader_epoch")
        batch_size = _c_int(batch_size, 64, "batch_size")
        max_block_seconds = _c_double(max_block_seconds)
        max_records = _c_int(max_records, 32, "max_records")
        if magic not in (0, 1, 2):
            raise UnsupportedVersionError(f"record magic must be 0, 1 or 2, not {magic}")
        if timestamp_type not in (0, 1):
            raise ValueError("timestamp_type must be 0 (create time) or 1 (log append time)")
        if magic < 2 and (is_transactional or is_control or producer_id != -1):
            raise ValueError("transactions, control records and producer ids need magic 2")
        if pool is not None and buffer is not None:
            raise ValueError("pass pool= or buffer=, not both")
        if max_records < 1:
            raise ValueError(f"max_records must be at least 1, not {max_records}")
        self._max_records = max_records
        if buffer is not None and memoryview(buffer).readonly:
            raise BufferError("Object is not writable.")
        self._magic = magic
        self._compression_id = _compression.codec_id(compression)
        if magic == 0 and self._compression_id == 4:
            raise UnsupportedVersionError("zstd needs magic 2")
        self._level = compression_level
        self._base_offset = base_offset
        self._timestamp_type = timestamp_type
        self._producer_id = producer_id
        self._producer_epoch = producer_epoch
        self._base_sequence = base_sequence
        self._is_transactional = bool(is_transactional)
        self._is_control = bool(is_control)
        self._partition_leader_epoch = partition_leader_epoch
        self._batch_size = batch_size
        self._log_append_time = -1 if log_append_time is None else _c_int(log_append_time, 64, "log_append_time")
        self._record_count = 0
        self._first_timestamp = -1
        self._max_timestamp = -1
        self._built = False
        self._max_block = max_block_seconds
        self._buffer = buffer
        if pool is not None:
            self._pool_buffer = buffer = pool.allocate(batch_size, max_block_seconds)
            self._pool = pool
        if magic == 2:
            # written in place from the first byte, in the given buffer when there is one
            self._in_place = buffer is not None
            if buffer is None:
                self._buf = bytearray()
            else:
                self._buf = buffer if type(buffer) is bytearray else memoryview(buffer).cast("B")
            self._len = 0
            self._put(bytes(V2_RECORDS))
            self._legacy = None
        else:
            self._buf = None
            self._legacy = []
            self._legacy_bytes = 0   # running size, so appends stay linear

    @property
    def size_in_bytes(self):
        """Bytes written so far (uncompressed)."""
        return self._len if self._magic == 2 else self._legacy_bytes

    def is_full(self):
        return self._record_count > 0 and self.size_in_bytes >= self._batch_size

    def set_producer(self, producer_id, producer_epoch, base_sequence, is_transactional):
        """The producer id, epoch, base sequence and transactional flag build()
        writes into the header (an idempotent producer numbers a batch when it
        seals it, after records were appended)."""
        producer_id = _c_int(producer_id, 64, "producer_id")
        producer_epoch = _c_int(producer_epoch, 32, "producer_epoch")
        base_sequence = _c_int(base_sequence, 32, "base_sequence")
        if self._built:
            raise KafkaCodecError("the batch has already been built")
        if self._magic < 2:
            raise ValueError("transactions, control records and producer ids need magic 2")
        self._producer_id = producer_id
        self._producer_epoch = producer_epoch
        self._base_sequence = base_sequence
        self._is_transactional = bool(is_transactional)

    def append(self, timestamp, key, value, headers=None):
        """Add a record; returns its offset, or None if the batch is full.
        timestamp is in milliseconds (None: now); headers are (str, bytes|None) pairs."""
        ts = _timestamp_arg(timestamp)
        if self._built:
            raise KafkaCodecError("the batch has already been built")
        if self._magic == 2:
            return self._append_v2(ts, key, value, headers)
        return self._append_legacy(ts, key, value, headers)

    def append_many(self, records):
        """Append (timestamp, key, value[, headers]) tuples until the batch is
        full; returns how many were added.  Same result as calling append()
        for each."""
        if self._built:
            raise KafkaCodecError("the batch has already been built")
        return self._append_from(records if isinstance(records, (list, tuple)) else list(records), 0)

    def _append_from(self, seq, start):
        added = 0
        for i in range(start, len(seq)):
            item = seq[i]
            if not isinstance(item, tuple) or not 3 <= len(item) <= 4:
                raise EncodeError(f"records must be (timestamp, key, value[, headers]) tuples, got {item!r}")
            ts = _timestamp_arg(item[0])
            headers = item[3] if len(item) == 4 else None
            if self._magic == 2:
                if self._append_v2(ts, item[1], item[2], headers) is None:
                    break
            elif self._append_legacy(ts, item[1], item[2], headers) is None:
                break
            added += 1
        return added

    def _append_v2(self, ts, key, value, headers):
        delta = self._record_count
        if delta == 0:
            self._first_timestamp = ts
        ts_delta = _wrap64(ts - self._first_timestamp)
        k = _buffer_of(key)
        v = _buffer_of(value)
        encoded_headers = None
        hsize = 0
        if headers:
            encoded_headers, hsize = _encode_headers(headers)
        klen = -1 if k is None else len(k)
        vlen = -1 if v is None else len(v)
        body = (1 + _varint_size(ts_delta) + _varint_size(delta)
                + _varint_size(klen) + max(klen, 0)
                + _varint_size(vlen) + max(vlen, 0)
                + (_varint_size(len(encoded_headers) // 2) + hsize if encoded_headers else 1))
        if delta > 0 and (self._len + body + MAX_VARLONG_LEN > self._batch_size or delta >= self._max_records):
            return None
        if body > 0x7FFFFFFF:
            raise EncodeError("record larger than 2 GiB")
        buf = bytearray(uvarint_bytes(_zigzag32(body)))
        buf.append(0)
        buf += uvarint_bytes(_zigzag64(ts_delta))
        buf += uvarint_bytes(_zigzag32(delta))
        buf += uvarint_bytes(_zigzag32(klen))
        if klen > 0:
            buf += k
        buf += uvarint_bytes(_zigzag32(vlen))
        if vlen > 0:
            buf += v
        if encoded_headers is None:
            buf.append(0)
        else:
            _write_headers(buf, encoded_headers)
        self._put(buf)
        if ts > self._max_timestamp or delta == 0:
            self._max_timestamp = ts
        self._record_count += 1
        return _wrap64(self._base_offset + delta)

    def _put(self, data):
        """Write `data` after the bytes written so far (v2)."""
        buf = self._buf
        n = self._len
        end = n + len(data)
        if self._in_place:
            if end <= len(buf):
                buf[n:end] = data   # same length: the given buffer is never resized
                self._len = end
                return
            # outgrown the given buffer: on in one of our own (the given one is left as it was)
            buf = self._buf = bytearray(memoryview(buf)[:n])
            self._in_place = False
        buf += data     # our own buffer always ends at the last byte written
        self._len = end

    def _append_legacy(self, ts, key, value, headers):
        if headers:
            raise EncodeError("record headers need magic 2")
        k = None if key is None else bytes(key)
        v = None if value is None else bytes(value)
        payload = (len(k) if k else 0) + (len(v) if v else 0)
        if self._record_count > 0:
            extra = LOG_OVERHEAD + LEGACY_V1_OVERHEAD + payload
            if self._legacy_bytes + extra > self._batch_size or self._record_count >= self._max_records:
                return None
        if ts > self._max_timestamp or self._record_count == 0:
            self._max_timestamp = ts
        self._legacy.append((self._record_count, ts, k, v))
        self._legacy_bytes += LOG_OVERHEAD + (LEGACY_V0_OVERHEAD if self._magic == 0 else LEGACY_V1_OVERHEAD) + payload
        self._record_count += 1
        return _wrap64(self._base_offset + self._record_count - 1)

    def build(self):
        """Finish the batch and return it: bytes, or with buffer= a read-only
        memoryview of the batch in that buffer."""
        if self._built:
            raise KafkaCodecError("the batch has already been built")
        self._built = True
        try:
            if self._magic == 2:
                self._build_v2()
                if self._in_place and self._buffer is not None:
                    return memoryview(self._buffer).cast("B")[:self._len].toreadonly()
                return bytes(memoryview(self._buf)[:self._len])
            out = self._build_legacy()
            buffer = self._buffer
            if buffer is not None:
                view = memoryview(buffer).cast("B")
                # as the compiled builder: in the buffer unless the messages outgrew it
                if max(len(out), self._legacy_bytes) <= len(view):
                    view[:len(out)] = out
                    return view[:len(out)].toreadonly()
            return out
        finally:
            self._release_pool()

    def close(self):
        """Give the pooled buffer back without building."""
        self._built = True
        self._release_pool()

    def _release_pool(self):
        if self._pool is not None and self._pool_buffer is not None:
            buf = self._pool_buffer
            self._pool_buffer = None
            if self._buf is buf:
                self._buf = None    # the pool's again: nothing may write in it
            self._pool.deallocate(buf)

    def __del__(self):
        if self._pool is not None and self._pool_buffer is not None:
            try:
                self._pool.deallocate(self._pool_buffer)
            except Exception:
                pass

    def _build_v2(self):
        attrs = self._compression_id
        if self._timestamp_type == 1:
            attrs |= ATTR_TIMESTAMP_TYPE
        if self._is_transactional:
            attrs |= ATTR_TRANSACTIONAL
        if self._is_control:
            attrs |= ATTR_CONTROL
        if self._compression_id == 0 or self._record_count == 0:
            if self._compression_id != 0:
                attrs &= ~ATTR_COMPRESSION_MASK
        else:
            body = memoryview(self._buf)[V2_RECORDS:self._len]
            try:
                payload = _compression.compress(self._compression_id, body, level=self._level)
            finally:
                body.release()
            # the compressed records replace the plain ones, in the same buffer
            if not self._in_place:
                del self._buf[V2_RECORDS:]
            self._len = V2_RECORDS
            self._put(payload)
        out = self._buf
        size = self._len
        max_ts = self._max_timestamp
        first_ts = self._first_timestamp
        if self._record_count == 0:
            max_ts = first_ts = -1
        if self._timestamp_type == 1 and self._log_append_time >= 0:
            max_ts = self._log_append_time
        count = self._record_count
        _V2_HEADER_OUT.pack_into(
            out, 0, self._base_offset & _M64, (size - LOG_OVERHEAD) & _M32,
            self._partition_leader_epoch & _M32, 2, 0, attrs & 0xFFFF, (count - 1 if count > 0 else 0) & _M32,
            first_ts & _M64, max_ts & _M64, self._producer_id & _M64, self._producer_epoch & 0xFFFF,
            self._base_sequence & _M32, count & _M32)
        _U32.pack_into(out, V2_CRC, _crc32c(memoryview(out)[V2_ATTRIBUTES:size]))

    def _build_legacy(self):
        n = len(self._legacy)
        attrs = self._compression_id
        if self._timestamp_type == 1 and self._magic == 1:
            attrs |= ATTR_TIMESTAMP_TYPE
        if n == 0:
            return b""
        out = bytearray()
        if self._compression_id == 0:
            for delta, ts, k, v in self._legacy:
                _write_legacy_message(out, self._magic, self._base_offset + delta,
                                      self._legacy_timestamp(ts), attrs & ATTR_TIMESTAMP_TYPE, k, v)
            return bytes(out)
        inner = bytearray()
        for delta, ts, k, v in self._legacy:
            # Magic 1 writes relative inner offsets; magic 0 absolute ones.
            _write_legacy_message(inner, self._magic, delta if self._magic == 1 else self._base_offset + delta,
                                  self._legacy_timestamp(ts), 0, k, v)
        payload = _compression.compress(self._compression_id, bytes(inner), level=self._level, magic=self._magic)
        if self._timestamp_type == 1 and self._log_append_time >= 0:
            wrapper_ts = self._log_append_time
        else:
            wrapper_ts = self._max_timestamp
        _write_legacy_message(out, self._magic, self._base_offset + n - 1, wrapper_ts, attrs, None, payload)
        return bytes(out)

    def _legacy_timestamp(self, ts):
        if self._timestamp_type == 1 and self._log_append_time >= 0:
            return self._log_append_time
        return ts


_readonly(RecordBatchBuilder, _BUILDER_FIELDS)


def _write_legacy_message(out, magic, offset, timestamp, attributes, key, value):
    start = len(out)
    out += _I64.pack(_wrap64(offset))
    out += bytes(8)                        # size and CRC, patched below
    out.append(magic & 0xFF)
    out.append(attributes & 0xFF)
    if magic == 1:
        out += _I64.pack(_wrap64(timestamp))
    if key is None:
        out += _I32.pack(-1)
    else:
        out += _I32.pack(len(key))
        out += key
    if value is None:
        out += _I32.pack(-1)
    else:
        out += _I32.pack(len(value))
        out += value
    _I32.pack_into(out, start + 8, _wrap32(len(out) - start - LOG_OVERHEAD))
    _U32.pack_into(out, start + LEGACY_CRC, _crc32(memoryview(out)[start + LEGACY_MAGIC:]))


def _encode_headers(headers):
    """Flatten headers to [key bytes, value bytes|None, ...] and their encoded size."""
    flat = []
    size = 0
    for item in headers:
        try:
            hk, hv = item
        except (TypeError, ValueError):
            raise EncodeError(f"headers must be (key, value) pairs, got {item!r}") from None
        if isinstance(hk, str):
            hk = hk.encode("utf-8", "surrogateescape")
        elif isinstance(hk, (bytes, bytearray, memoryview)):
            hk = bytes(hk)
        else:
            raise EncodeError(f"header keys must be str or bytes, not {type(hk).__name__}")
        if hv is not None and not isinstance(hv, bytes):
            try:
                hv = bytes(memoryview(hv))
            except TypeError:
                raise EncodeError(f"header values must be bytes-like or None, not {type(hv).__name__}") from None
        flat.append(hk)
        flat.append(hv)
        size += _varint_size(len(hk)) + len(hk)
        size += _varint_size(-1 if hv is None else len(hv)) + (0 if hv is None else len(hv))
    return flat, size


def _write_headers(buf, flat):
    buf += uvarint_bytes(_zigzag32(_wrap32(len(flat) // 2)))
    for i in range(0, len(flat), 2):
        hk = flat[i]
        hv = flat[i + 1]
        buf += uvarint_bytes(_zigzag32(_wrap32(len(hk))))
        buf += hk
        if hv is None:
            buf.append(1)   # zigzag(-1)
        else:
            buf += uvarint_bytes(_zigzag32(_wrap32(len(hv))))
            buf += hv


# Not hot: filtering, flattening, batch splitting and markers are shared with the compiled twin.
filtered_batches, decode_records, build_batches, build_control_batch = _common.bind(iter_batches, RecordBatchBuilder)


def set_batch_producer(buffer, producer_id, producer_epoch, base_sequence, is_transactional):
    """Rewrite the producer id, epoch, base sequence and transactional flag of
    the built v2 batch at the start of the writable `buffer` (which may be
    longer than the batch), and its CRC."""
    producer_id = _c_int(producer_id, 64, "producer_id")
    producer_epoch = _c_int(producer_epoch, 32, "producer_epoch")
    base_sequence = _c_int(base_sequence, 32, "base_sequence")
    view = memoryview(buffer).cast("B")
    if view.readonly:
        raise BufferError("Object is not writable.")
    if len(view) < V2_RECORDS or view[V2_MAGIC] != 2:
        raise ValueError("not a v2 record batch")
    total = LOG_OVERHEAD + _I32.unpack_from(view, V2_LENGTH)[0]
    if total < V2_RECORDS or total > len(view):
        raise ValueError(f"batch length {total} outside {V2_RECORDS}..{len(view)}")
    attrs = int.from_bytes(view[V2_ATTRIBUTES:V2_ATTRIBUTES + 2], "big")
    attrs = attrs | ATTR_TRANSACTIONAL if is_transactional else attrs & ~ATTR_TRANSACTIONAL
    view[V2_ATTRIBUTES:V2_ATTRIBUTES + 2] = attrs.to_bytes(2, "big")
    view[V2_PRODUCER_ID:V2_PRODUCER_ID + 8] = (producer_id & _M64).to_bytes(8, "big")
    view[V2_PRODUCER_EPOCH:V2_PRODUCER_EPOCH + 2] = (producer_epoch & 0xFFFF).to_bytes(2, "big")
    view[V2_BASE_SEQUENCE:V2_BASE_SEQUENCE + 4] = (base_sequence & _M32).to_bytes(4, "big")
    _U32.pack_into(view, V2_CRC, _crc32c(view[V2_ATTRIBUTES:total]))
