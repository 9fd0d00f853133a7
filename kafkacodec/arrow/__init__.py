"""Kafka record batches to and from Apache Arrow, without a Python object per record.

    import kafkacodec.arrow as ka
    batch = ka.decode(fetch_records_bytes)                 # pyarrow.RecordBatch
    for rb in ka.iter_decode(big_buffer, max_rows=1 << 20):  # bounded memory
        ...
    data = ka.encode(table, compression="zstd")           # bytes of v2 batches

Columns: offset int64, timestamp timestamp[ms], timestamp_type int8, key and
value binary (or large_binary), headers list<struct<key: string, value:
binary>>; with ``batch_columns=True`` also producer_id, producer_epoch,
sequence, partition_leader_epoch and is_transactional.

Needs pyarrow (``pip install kafkacodec[arrow]``).
"""
from __future__ import annotations

try:
    import pyarrow as pa
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("kafkacodec.arrow needs pyarrow: pip install 'kafkacodec[arrow]'") from exc
import numpy as np

from kafkacodec import _impl
from kafkacodec.errors import EncodeError
from kafkacodec.records import RecordBatchBuilder, filtered_batches
from kafkacodec.records.isolation import read_committed

if _impl.accelerated:
    from kafkacodec.arrow._columnar import ColumnBuilder
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    from kafkacodec._pure.columnar import ColumnBuilder

__all__ = ["decode", "decode_table", "iter_decode", "encode", "schema"]



def schema(*, headers: bool = True, batch_columns: bool = False, binary_type: str = "binary") -> pa.Schema:
    """The schema decode() produces for these options."""
    binary = _binary_type(binary_type)
    fields = [
        pa.field("offset", pa.int64(), nullable=False),
        pa.field("timestamp", pa.timestamp("ms"), nullable=False),
        pa.field("timestamp_type", pa.int8(), nullable=False),
        pa.field("key", binary),
        pa.field("value", binary),
    ]
    if headers:
        fields.append(pa.field("headers", _headers_type(binary), nullable=False))
    if batch_columns:
        fields += [
            pa.field("producer_id", pa.int64(), nullable=False),
            pa.field("producer_epoch", pa.int16(), nullable=False),
            pa.field("sequence", pa.int32(), nullable=False),
            pa.field("partition_leader_epoch", pa.int32(), nullable=False),
            pa.field("is_transactional", pa.bool_(), nullable=False),
        ]
    return pa.schema(fields)


def _binary_type(name):
    if name == "binary":
        return pa.binary()
    if name == "large_binary":
        return pa.large_binary()
    raise ValueError("binary_type must be 'binary' or 'large_binary'")


def _headers_type(binary):
    string = pa.string() if binary == pa.binary() else pa.large_string()
    return pa.list_(pa.struct([pa.field("key", string, nullable=False), pa.field("value", binary)]))


def _buf(obj):
    return None if obj is None else pa.py_buffer(obj)


def _binary_array(cols, prefix, binary):
    return pa.Array.from_buffers(
        binary, cols["rows"],
        [_buf(cols[prefix + "_valid"]), _buf(cols[prefix + "_offsets"]), _buf(cols[prefix + "_data"])],
        null_count=cols[prefix + "_nulls"])


def _to_record_batch(cols, sch, headers, batch_columns):
    n = cols["rows"]
    binary = sch.field("key").type
    arrays = [
        pa.Array.from_buffers(pa.int64(), n, [None, _buf(cols["offset"])]),
        pa.Array.from_buffers(pa.timestamp("ms"), n, [None, _buf(cols["timestamp"])]),
        pa.Array.from_buffers(pa.int8(), n, [None, _buf(cols["timestamp_type"])]),
        _binary_array(cols, "key", binary),
        _binary_array(cols, "value", binary),
    ]
    if headers:
        hn = cols["header_count"]
        htype = sch.field("headers").type
        key_field, value_field = list(htype.value_type)
        hkeys = pa.Array.from_buffers(key_field.type, hn, [None, _buf(cols["header_key_offsets"]),
                                                            _buf(cols["header_key_data"])])
        hvalues = pa.Array.from_buffers(
            binary, hn,
            [_buf(cols["header_value_valid"]), _buf(cols["header_value_offsets"]), _buf(cols["header_value_data"])],
            null_count=cols["header_value_nulls"])
        struct = pa.StructArray.from_arrays([hkeys, hvalues], fields=[key_field, value_field])
        arrays.append(pa.Array.from_buffers(htype, n, [None, _buf(cols["header_offsets"])], children=[struct]))
    if batch_columns:
        arrays += [
            pa.Array.from_buffers(pa.int64(), n, [None, _buf(cols["producer_id"])]),
            pa.Array.from_buffers(pa.int16(), n, [None, _buf(cols["producer_epoch"])]),
            pa.Array.from_buffers(pa.int32(), n, [None, _buf(cols["sequence"])]),
            pa.Array.from_buffers(pa.int32(), n, [None, _buf(cols["partition_leader_epoch"])]),
            pa.Array.from_buffers(pa.bool_(), n, [None, _buf(cols["is_transactional"])]),
        ]
    return pa.RecordBatch.from_arrays(arrays, schema=sch)


def iter_decode(data, *, isolation_level="read_uncommitted", aborted_transactions=None, headers=True,
                batch_columns=False, binary_type="binary", verify_crc=True, max_decompressed_size=None,
                max_records_per_batch=None, max_rows=1 << 20):
    """Decode into a sequence of pyarrow.RecordBatch of about `max_rows` rows
    each (split at Kafka batch boundaries), for inputs too large for one."""
    sch = schema(headers=headers, batch_columns=batch_columns, binary_type=binary_type)
    large = binary_type == "large_binary"
    try:
        size_hint = min(memoryview(data).nbytes, 1 << 30)
    except TypeError:
        size_hint = 0
    builder = ColumnBuilder(headers, batch_columns, max_decompressed_size, large, size_hint,
                            max_records_per_batch)
    uncommitted = not read_committed(isolation_level, aborted_transactions)
    if uncommitted and max_rows == float("inf") and _impl.accelerated:
        # One pass over the whole buffer, batch walking in compiled code.
        builder.add_buffer(data, verify_crc)
        yield _to_record_batch(builder.finish(), sch, headers, batch_columns)
        return
    produced = False
    for batch in filtered_batches(data, isolation_level=isolation_level, aborted_transactions=aborted_transactions,
                                  verify_crc=verify_crc, max_decompressed_size=max_decompressed_size,
                                  max_records_per_batch=max_records_per_batch):
        builder.add_batch(batch)
        if builder.rows >= max_rows:
            produced = True
            yield _to_record_batch(builder.finish(), sch, headers, batch_columns)
    if builder.rows or not produced:
        yield _to_record_batch(builder.finish(), sch, headers, batch_columns)


def decode(data, **options) -> pa.RecordBatch:
    """Decode every record a consumer would see (control records dropped,
    read_committed honoured) into one pyarrow.RecordBatch."""
    options["max_rows"] = float("inf")
    return next(iter_decode(data, **options))


def decode_table(data, **options) -> pa.Table:
    """Like iter_decode, gathered into a pyarrow.Table."""
    batches = list(iter_decode(data, **options))
    return pa.Table.from_batches(batches)


def encode(table, *, compression="none", batch_size=1 << 20, base_offset=0, magic=2,
           compression_level=None, producer_id=-1, producer_epoch=-1, base_sequence=-1,
           is_transactional=False, default_timestamp=None, rows=None, writable=False):
    """Build record batches from a pyarrow Table/RecordBatch with columns
    `value` and optionally `key`, `timestamp` (ms or timestamp type) and
    `headers` (list<struct<key, value>>).  Returns the concatenated batches
    with offsets from `base_offset`; batches close at `batch_size` bytes
    (the same rule, and the same bytes, as RecordBatchBuilder).

    `rows` (integer row indices) encodes those rows, in that order, without
    gathering the table first; `writable` returns a bytearray (batches that
    will be patched in place, as a producer's are)."""
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    names = set(table.column_names)
    if "value" not in names:
        raise EncodeError("encode needs a 'value' column")
    n = table.num_rows
    if rows is not None:
        rows = np.ascontiguousarray(rows)
        if rows.ndim != 1 or not (np.issubdtype(rows.dtype, np.integer) or len(rows) == 0):
            raise EncodeError(f"rows: expected a 1-D array of row indices, got {rows.dtype} of shape {rows.shape}")
        rows = rows.astype(np.int64, copy=False)
        bad = np.flatnonzero((rows < 0) | (rows >= n))
        if len(bad):
            raise EncodeError(f"rows[{bad[0]}]: row {rows[bad[0]]} is not one of the table's {n} rows")
    accelerated = magic == 2 and _impl.accelerated
    if rows is not None and not accelerated:
        table, rows = table.take(pa.array(rows)), None  # the record-by-record path reads rows in order
        n = table.num_rows
    values = _binary_column(_column(table, "value"), "value")
    keys = (_binary_column(_column(table, "key"), "key") if "key" in names
            else pa.nulls(n, pa.binary()))
    if default_timestamp is None:
        import time
        default_timestamp = int(time.time() * 1000)
    ts_col = None   # every record stamped default_timestamp
    if "timestamp" in names:
        ts_col = _column(table, "timestamp")
        if pa.types.is_timestamp(ts_col.type):
            ts_col = ts_col.cast(pa.timestamp("ms")).cast(pa.int64())
        elif pa.types.is_integer(ts_col.type):
            ts_col = ts_col.cast(pa.int64())
        else:
            raise EncodeError(f"timestamp: expected a timestamp or integer column, got {ts_col.type}")
        if ts_col.null_count:
            ts_col = ts_col.fill_null(default_timestamp)
    headers = _headers_column(_column(table, "headers")) if "headers" in names else None
    if accelerated:
        from kafkacodec.arrow._encode import encode_v2
        from kafkacodec.records.compression import codec_id
        return encode_v2(ts_col, keys, values, headers, compression_id=codec_id(compression),
                         compression_level=compression_level, batch_size=batch_size, base_offset=base_offset,
                         producer_id=producer_id, producer_epoch=producer_epoch, base_sequence=base_sequence,
                         is_transactional=is_transactional, default_timestamp=default_timestamp, rows=rows,
                         writable=writable)
    if ts_col is None:
        ts_col = pa.array(np.full(n, default_timestamp, dtype=np.int64))
    data = _encode_rows(ts_col, keys, values, headers, compression=compression, batch_size=batch_size,
                        base_offset=base_offset, magic=magic, compression_level=compression_level,
                        producer_id=producer_id, producer_epoch=producer_epoch, base_sequence=base_sequence,
                        is_transactional=is_transactional)
    return bytearray(data) if writable else data


def _column(table, name):
    """One array of the column: a single unsliced chunk as it is (combine_chunks would copy
    it all); else combined, which also starts a slice at 0 (a header list with nulls is
    rebuilt from its offsets, which needs that)."""
    col = table.column(name)
    if col.num_chunks == 1 and col.chunk(0).offset == 0:
        return col.chunk(0)
    return col.combine_chunks()


_BINARY_LIKE = (pa.binary(), pa.large_binary(), pa.string(), pa.large_string())


def _binary_column(arr, name):
    if arr.type in _BINARY_LIKE:
        return arr
    try:
        return arr.cast(pa.binary())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        raise EncodeError(f"{name}: expected a binary or string column, got {arr.type}") from exc


def _headers_column(arr):
    t = arr.type
    if not (pa.types.is_list(t) or pa.types.is_large_list(t)) or not pa.types.is_struct(t.value_type):
        raise EncodeError(f"headers: expected list<struct<key, value>>, got {t}")
    st = t.value_type
    if st.num_fields != 2:
        raise EncodeError(f"headers: expected struct<key, value>, got {st}")
    entries = arr.values
    hk = _binary_column(entries.field(0), "headers.key")
    hv = _binary_column(entries.field(1), "headers.value")
    if hk is not entries.field(0) or hv is not entries.field(1):
        fields = [pa.field("key", hk.type, nullable=False), pa.field("value", hv.type)]
        rebuilt = pa.StructArray.from_arrays([hk, hv], fields=fields, mask=entries.is_null() if entries.null_count else None)
        cls = pa.LargeListArray if pa.types.is_large_list(t) else pa.ListArray
        arr = cls.from_arrays(arr.offsets, rebuilt, mask=arr.is_null() if arr.null_count else None)
    return arr


def _header_pair(key, value):
    if isinstance(key, bytes):
        key = key.decode("utf-8", "surrogateescape")
    if isinstance(value, str):
        value = value.encode()
    return key, value


def _encode_rows(ts_col, keys, values, headers, *, compression, batch_size, base_offset, magic, compression_level,
                 producer_id, producer_epoch, base_sequence, is_transactional):
    # Record by record through RecordBatchBuilder: legacy magic and the pure-Python twin.
    n = len(values)
    timestamps = ts_col.to_pylist()
    header_lists = headers.to_pylist() if headers is not None else None
    key_list = keys.cast(pa.large_binary()).to_pylist()
    value_list = values.cast(pa.large_binary()).to_pylist()
    out = []
    offset = base_offset
    sequence = base_sequence

    def new_builder(start_offset, seq):
        return RecordBatchBuilder(magic, compression, base_offset=start_offset, batch_size=batch_size,
                                  compression_level=compression_level, producer_id=producer_id,
                                  producer_epoch=producer_epoch, base_sequence=seq,
                                  is_transactional=is_transactional)

    builder = new_builder(offset, sequence)
    for i in range(n):
        hdrs = ()
        if header_lists is not None and header_lists[i]:
            hdrs = [_header_pair(*h.values()) for h in header_lists[i]]
        ts = timestamps[i]
        if builder.append(ts, key_list[i], value_list[i], hdrs) is None:
            out.append(builder.build())
            offset += builder.record_count
            if sequence >= 0:
                sequence += builder.record_count
            builder = new_builder(offset, sequence)
            builder.append(ts, key_list[i], value_list[i], hdrs)
    if builder.record_count:
        out.append(builder.build())
    return b"".join(out)
