"""Pure-Python twin of `kafkacodec.arrow._columnar.ColumnBuilder`: record
batches into Arrow-layout column buffers (same buffers, same errors).

Records of a v2 batch are parsed with the record layer's parser and gathered
per batch, so a corrupt batch leaves the columns as they were before it.
"""
import array
import sys

from kafkacodec.errors import CorruptDataError, RecordLimitError
import kafkacodec.records.compression as _compression
from kafkacodec._pure.records import (
    ATTR_TIMESTAMP_TYPE, ATTR_TRANSACTIONAL, V2_MIN_RECORD_SIZE, V2_RECORD_COUNT, V2_RECORDS,
    RecordParseError, iter_batches as _iter_batches, parse_v2_record, _wrap32, _wrap64,
)

__all__ = ["ColumnBuilder"]

_LITTLE = sys.byteorder == "little"


def _native(a):
    """Array bytes in Arrow's (little-endian) layout."""
    if not _LITTLE:  # pragma: no cover - big-endian hosts
        a = array.array(a.typecode, a)
        a.byteswap()
    return a.tobytes()


def _bitmap(valid, nulls):
    """Pack one byte per row into an Arrow validity bitmap (None if no nulls)."""
    if nulls == 0:
        return None
    return _pack_bits(valid)


def _pack_bits(flags):
    out = bytearray((len(flags) + 7) // 8)
    for i, f in enumerate(flags):
        if f:
            out[i >> 3] |= 1 << (i & 7)
    return bytes(out)


def _offsets32(offsets, what):
    """Arrow binary/string offsets are int32: narrow, refusing overflow."""
    if offsets and offsets[-1] > 0x7FFFFFFF:
        raise OverflowError(f"{what} data exceeds 2 GiB: use binary_type='large_binary' or a smaller max_rows")
    return _native(array.array("i", offsets))


class _Columns:
    """Column contents under construction (one set for the builder, one per batch)."""

    __slots__ = ("offset", "timestamp", "ts_type", "key_len", "key_data", "key_valid",
                 "value_len", "value_data", "value_valid", "hdr_count",
                 "hk_len", "hk_data", "hv_len", "hv_data", "hv_valid",
                 "producer_id", "producer_epoch", "sequence", "leader_epoch", "txn")

    def __init__(self):
        self.offset = array.array("q")
        self.timestamp = array.array("q")
        self.ts_type = bytearray()
        self.key_len = []           # byte length per row (0 for null)
        self.key_data = bytearray()
        self.key_valid = bytearray()
        self.value_len = []
        self.value_data = bytearray()
        self.value_valid = bytearray()
        self.hdr_count = []         # headers per row
        self.hk_len = []
        self.hk_data = bytearray()
        self.hv_len = []
        self.hv_data = bytearray()
        self.hv_valid = bytearray()
        self.producer_id = array.array("q")
        self.producer_epoch = array.array("h")
        self.sequence = array.array("i")
        self.leader_epoch = array.array("i")
        self.txn = bytearray()

    def extend(self, other):
        for name in self.__slots__:
            getattr(self, name).extend(getattr(other, name))


def _cumulative(lengths):
    out = array.array("q", [0])
    total = 0
    for n in lengths:
        total += n
        out.append(total)
    return out



def _append_nullable(valid, lengths, data, buf, pos, n):
    """One binary value (n < 0: null) onto a column's validity, lengths and
    data; returns 1 for a null."""
    if n < 0:
        valid.append(0)
        lengths.append(0)
        return 1
    valid.append(1)
    lengths.append(n)
    data += buf[pos:pos + n]
    return 0

class ColumnBuilder:
    """Accumulates the records of many batches as Arrow column buffers."""

    def __init__(self, headers=True, batch_columns=False, max_decompressed_size=None,
                 large_offsets=False, size_hint=0, max_records_per_batch=None):
        self.with_headers = bool(headers)
        self.with_batch_columns = bool(batch_columns)
        self.large_offsets = bool(large_offsets)
        self._max_decompressed = _compression.resolve_limit(max_decompressed_size)
        self._max_records = _compression.resolve_record_limit(max_records_per_batch)
        self._reset()

    def _reset(self):
        self._cols = _Columns()
        self.rows = 0
        self.key_nulls = 0
        self.value_nulls = 0
        self.header_count = 0
        self.header_value_nulls = 0

    def add_batch(self, batch):
        """Append the records of one RecordBatch view (any magic)."""
        if batch.magic < 2:
            self._add_legacy(batch)
            return
        if batch.record_count > self._max_records:
            raise RecordLimitError(f"batch holds {batch.record_count} records, over the {self._max_records}-record "
                                   f"limit (max_records_per_batch)", batch.position + V2_RECORD_COUNT,
                                   f"batches[{batch.index}].record_count")
        codec = batch.attributes & 0x07
        if codec == 0:
            buf = batch._src.buf
            pos, end = batch._position + V2_RECORDS, batch._position + batch.size_in_bytes
            base_abs = 0   # positions are already absolute in the input
        else:
            compressed = memoryview(batch._src.buf)[batch._position + V2_RECORDS:batch._position + batch.size_in_bytes]
            try:
                buf = _compression.decompress(codec, compressed, max_size=self._max_decompressed)
            except CorruptDataError as exc:
                if exc.offset is None:
                    exc.offset = batch.position + V2_RECORDS
                raise exc.prefix_path(f"batches[{batch.index}].records")
            finally:
                compressed.release()
            pos, end = 0, len(buf)
            base_abs = 0
        try:
            cols = self._fill(batch, buf, pos, end, base_abs)
        except CorruptDataError as exc:
            raise exc.prefix_path(f"batches[{batch.index}]")
        self._commit(cols)

    def _fill(self, batch, buf, pos, end, base_abs):
        count = batch.record_count
        if count < 0 or count * V2_MIN_RECORD_SIZE > end - pos:
            raise CorruptDataError(f"record count {count} does not fit in the batch", batch.position, "records")
        ts_type = 1 if batch.attributes & ATTR_TIMESTAMP_TYPE else 0
        log_append_time = batch.max_timestamp if ts_type == 1 else -1
        base_offset = batch.base_offset
        base_timestamp = batch.base_timestamp
        base_sequence = batch.base_sequence
        c = _Columns()
        key_nulls = value_nulls = hv_nulls = 0
        for i in range(count):
            try:
                rec_end, ts_delta, offset_delta, kp, kl, vp, vl, hdrs = parse_v2_record(buf, pos, end)
            except RecordParseError as exc:
                raise exc.to_corrupt(i, base_abs) from None
            c.offset.append(_wrap64(base_offset + offset_delta))
            c.timestamp.append(log_append_time if log_append_time >= 0 else _wrap64(base_timestamp + ts_delta))
            c.ts_type.append(ts_type)
            key_nulls += _append_nullable(c.key_valid, c.key_len, c.key_data, buf, kp, kl)
            value_nulls += _append_nullable(c.value_valid, c.value_len, c.value_data, buf, vp, vl)
            if self.with_headers:
                for hkp, hkl, hvp, hvl in hdrs:
                    hkey = bytes(buf[hkp:hkp + hkl])
                    try:
                        hkey.decode("utf-8")
                    except UnicodeDecodeError:
                        # Header keys become an Arrow string column.
                        raise CorruptDataError("header key is not valid UTF-8", base_abs + pos,
                                               f"records[{i}].headers") from None
                    c.hk_data += hkey
                    c.hk_len.append(hkl)
                    hv_nulls += _append_nullable(c.hv_valid, c.hv_len, c.hv_data, buf, hvp, hvl)
                c.hdr_count.append(len(hdrs))
            if self.with_batch_columns:
                c.producer_id.append(batch.producer_id)
                c.producer_epoch.append(batch.producer_epoch)
                c.sequence.append(_wrap32(base_sequence + offset_delta) if base_sequence >= 0 else -1)
                c.leader_epoch.append(batch.partition_leader_epoch)
                c.txn.append(1 if batch.attributes & ATTR_TRANSACTIONAL else 0)
            pos = rec_end
        if pos != end:
            raise CorruptDataError(f"bytes left after the last of {count} records", base_abs + pos, "records")
        return c, count, key_nulls, value_nulls, hv_nulls

    def _commit(self, filled):
        c, count, key_nulls, value_nulls, hv_nulls = filled
        self._cols.extend(c)
        self.rows += count
        self.key_nulls += key_nulls
        self.value_nulls += value_nulls
        self.header_count += len(c.hk_len)
        self.header_value_nulls += hv_nulls

    def _add_legacy(self, batch):
        # Legacy entries are already decoded into Records by the record layer.
        c = _Columns()
        key_nulls = value_nulls = 0
        recs = batch.records()
        for rec in recs:
            c.offset.append(rec.offset)
            c.timestamp.append(rec.timestamp)
            c.ts_type.append(rec.timestamp_type)
            for value, valid, lengths, data in ((rec.key, c.key_valid, c.key_len, c.key_data),
                                                (rec.value, c.value_valid, c.value_len, c.value_data)):
                if value is None:
                    valid.append(0)
                    lengths.append(0)
                else:
                    valid.append(1)
                    lengths.append(len(value))
                    data += value
            key_nulls += rec.key is None
            value_nulls += rec.value is None
            if self.with_headers:
                c.hdr_count.append(0)
            if self.with_batch_columns:
                c.producer_id.append(-1)
                c.producer_epoch.append(-1)
                c.sequence.append(-1)
                c.leader_epoch.append(-1)
                c.txn.append(0)
        self._commit((c, len(recs), key_nulls, value_nulls, 0))

    def add_buffer(self, data, verify_crc=True):
        """Append every data record of a buffer of batches (control records
        dropped, as in read_uncommitted).  Returns the number of trailing bytes
        of a truncated final batch."""
        it = _iter_batches(data, verify_crc=verify_crc, max_decompressed_size=self._max_decompressed,
                           max_records_per_batch=self._max_records)
        for batch in it:
            if not batch.is_control:
                self.add_batch(batch)
        return it.trailing_bytes

    def _offsets(self, lengths, what):
        offsets = _cumulative(lengths)
        if self.large_offsets:
            return _native(offsets)
        return _offsets32(offsets, what)

    def finish(self):
        """Hand the buffers over as Arrow-ready bytes (validity bitmaps, int32
        or int64 offsets) and start afresh."""
        c = self._cols
        out = {
            "rows": self.rows,
            "offset": _native(c.offset),
            "timestamp": _native(c.timestamp),
            "timestamp_type": bytes(c.ts_type),
            "key_offsets": self._offsets(c.key_len, "key"),
            "key_data": bytes(c.key_data),
            "key_valid": _bitmap(c.key_valid, self.key_nulls),
            "key_nulls": self.key_nulls,
            "value_offsets": self._offsets(c.value_len, "value"),
            "value_data": bytes(c.value_data),
            "value_valid": _bitmap(c.value_valid, self.value_nulls),
            "value_nulls": self.value_nulls,
        }
        if self.with_headers:
            out.update({
                "header_offsets": _offsets32(_cumulative(c.hdr_count), "header list"),
                "header_count": self.header_count,
                "header_key_offsets": self._offsets(c.hk_len, "header key"),
                "header_key_data": bytes(c.hk_data),
                "header_value_offsets": self._offsets(c.hv_len, "header value"),
                "header_value_data": bytes(c.hv_data),
                "header_value_valid": _bitmap(c.hv_valid, self.header_value_nulls),
                "header_value_nulls": self.header_value_nulls,
            })
        if self.with_batch_columns:
            out.update({
                "producer_id": _native(c.producer_id),
                "producer_epoch": _native(c.producer_epoch),
                "sequence": _native(c.sequence),
                "partition_leader_epoch": _native(c.leader_epoch),
                "is_transactional": _pack_bits(c.txn),
            })
        self._reset()
        return out
