"""Producer.send_arrow: partition an Arrow table by key in bulk, build its
batches with kafkacodec.arrow.encode (C), queue them in the accumulator.

Partitions of keyed rows come from murmur2 over the key column's buffers in
C (kafkacodec._crc.murmur2_partitions; on the pure twin a numpy murmur2, all
keys of one length at once), the same function as the Java client's; other
partitioners fall back to one Python call per key.
"""
import numpy as np
import pyarrow as pa

import kafkacodec.arrow as ka
from kafkacodec import _impl
from kafkacodec.client import errors as E
from kafkacodec.client.accumulator import BatchResult
from kafkacodec.client.partitioner import Partitioner, _positive_murmur2

_SEED = 0x9747B28C
_M = np.uint64(0x5BD1E995)
_MASK = np.uint64(0xFFFFFFFF)
# bytes per batch built from columns: large batches cost less per record; under the
# brokers' default message.max.bytes (1 MiB) with room for one more record
ARROW_BATCH_SIZE = 512 * 1024


def murmur2_positive(keys):
    """toPositive(murmur2(key)) of every non-null key of a binary/string array (uint64 array)."""
    n = len(keys)
    out = np.zeros(n, dtype=np.uint64)
    if n == 0:
        return out
    bufs = keys.buffers()
    wide = pa.types.is_large_binary(keys.type) or pa.types.is_large_string(keys.type)
    offsets = np.frombuffer(bufs[1], dtype=np.int64 if wide else np.int32)[keys.offset:keys.offset + n + 1]
    offsets = offsets.astype(np.int64)
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    lengths = offsets[1:] - offsets[:-1]
    for length in np.unique(lengths):
        length = int(length)
        rows = np.nonzero(lengths == length)[0]
        starts = offsets[:-1][rows]
        h = np.full(len(rows), _SEED ^ length, dtype=np.uint64)
        n4 = length >> 2
        if n4:
            raw = data[starts[:, None] + np.arange(n4 * 4)].astype(np.uint64).reshape(len(rows), n4, 4)
            words = raw[:, :, 0] | (raw[:, :, 1] << np.uint64(8)) | (raw[:, :, 2] << np.uint64(16)) \
                | (raw[:, :, 3] << np.uint64(24))
            for j in range(n4):
                k = (words[:, j] * _M) & _MASK
                k ^= k >> np.uint64(24)
                k = (k * _M) & _MASK
                h = ((h * _M) & _MASK) ^ k
        tail = length & 3
        if tail:
            base = starts + (n4 << 2)
            if tail == 3:
                h ^= data[base + 2].astype(np.uint64) << np.uint64(16)
            if tail >= 2:
                h ^= data[base + 1].astype(np.uint64) << np.uint64(8)
            h ^= data[base].astype(np.uint64)
            h = (h * _M) & _MASK
        h ^= h >> np.uint64(13)
        h = (h * _M) & _MASK
        h ^= h >> np.uint64(15)
        out[rows] = h & np.uint64(0x7FFFFFFF)
    return out


def _split_batches(data):
    """(start, size, record count) of each v2 batch in concatenated bytes."""
    mv = memoryview(data)
    pos = 0
    end = len(data)
    while pos < end:
        size = 12 + int.from_bytes(mv[pos + 8:pos + 12], "big")
        count = int.from_bytes(mv[pos + 57:pos + 61], "big")
        yield pos, size, count
        pos += size


def _queue(producer, topic, partition, data, rows, parts):
    """Queue the batches of `data` (rows: numpy indices or a (start, stop) range)."""
    acc = producer._acc
    mv = memoryview(data)
    first = 0
    for pos, size, count in _split_batches(data):
        batch = bytearray(mv[pos:pos + size])
        batch[0:8] = b"\0" * 8  # the broker assigns offsets; every batch starts at 0 (outside the CRC)
        result = BatchResult(topic, partition)
        acc.append_batch(topic, partition, batch, count, result)
        if isinstance(rows, tuple):
            span = (rows[0] + first, rows[0] + first + count)
        else:
            span = rows[first:first + count]
        parts.append((result, span, partition))
        first += count


def send_arrow(producer, topic, data, count, partition):
    from kafkacodec.client.producer import BulkResult
    if isinstance(data, pa.RecordBatch):
        table = pa.Table.from_batches([data])
    elif isinstance(data, pa.Table):
        table = data
    else:
        raise TypeError(f"send_arrow needs a pyarrow Table or RecordBatch, not {type(data).__name__}")
    if partition is not None and (isinstance(partition, bool) or not isinstance(partition, int)
                                  or not 0 <= partition < count):
        raise ValueError(f"partition {partition!r} is not one of {topic!r}'s {count} partitions")
    conf = producer.conf
    encode_kw = dict(compression=conf["compression.type"], compression_level=conf["compression.level"],
                     batch_size=max(conf["batch.size"], min(ARROW_BATCH_SIZE, conf["max.request.size"] // 2)))
    n = table.num_rows
    parts = []
    if n == 0:
        return BulkResult(topic, 0, parts)
    keys = table.column("key").combine_chunks() if "key" in table.column_names else None
    partitioner = producer._partitioner
    if partition is None and keys is not None and (
            partitioner.custom is not None or (partitioner._hash is not None and keys.null_count < n)):
        targets = _partitions_of(partitioner, keys, count)
        nulls = targets < 0
        if nulls.any():
            sticky = producer._sticky.get(topic)
            if sticky is None or sticky >= count:
                sticky = producer._sticky[topic] = Partitioner.next_sticky(count, None)
            targets[nulls] = sticky
        order = np.argsort(targets, kind="stable")
        sorted_targets = targets[order]
        bounds = np.flatnonzero(np.diff(sorted_targets)) + 1
        for rows in np.split(order, bounds):
            p = int(targets[rows[0]])
            sub = table.take(pa.array(rows))
            _queue(producer, topic, p, ka.encode(sub, **encode_kw), rows, parts)
        return BulkResult(topic, n, parts)
    encoded = ka.encode(table, **encode_kw)
    if partition is not None:
        _queue(producer, topic, partition, encoded, (0, n), parts)
        return BulkResult(topic, n, parts)
    # no keys: batch after batch, moving partition like the sticky partitioner
    p = producer._sticky.get(topic)
    if p is None or p >= count:
        p = Partitioner.next_sticky(count, None)
    first = 0
    mv = memoryview(encoded)
    for pos, size, rec in _split_batches(encoded):
        _queue(producer, topic, p, mv[pos:pos + size], (first, first + rec), parts)
        first += rec
        p = Partitioner.next_sticky(count, p)
    producer._sticky[topic] = p
    return BulkResult(topic, n, parts)


def _murmur2_targets(keys, count):
    """The murmur2 partition of every row's key (nulls included: the caller marks them)."""
    if not _impl.accelerated:
        return (murmur2_positive(keys) % np.uint64(count)).astype(np.int64)
    n = len(keys)
    targets = np.empty(n, dtype=np.int64)
    if n:
        bufs = keys.buffers()
        wide = pa.types.is_large_binary(keys.type) or pa.types.is_large_string(keys.type)
        width = 8 if wide else 4
        offsets = memoryview(bufs[1])[keys.offset * width:(keys.offset + n + 1) * width]
        _impl.crc.murmur2_partitions(offsets, bufs[2] if bufs[2] is not None else b"", targets, count, wide)
    return targets


def _partitions_of(partitioner, keys, count):
    """int64 partition per row; -1 where the key is null (sticky)."""
    n = len(keys)
    if partitioner.custom is None and partitioner._hash is _positive_murmur2 and (
            pa.types.is_binary(keys.type) or pa.types.is_string(keys.type)
            or pa.types.is_large_binary(keys.type) or pa.types.is_large_string(keys.type)):
        targets = _murmur2_targets(keys, count)
    else:
        targets = np.empty(n, dtype=np.int64)
        for i, key in enumerate(keys.to_pylist()):
            if isinstance(key, str):
                key = key.encode()
            p = partitioner.for_key(key, count)
            targets[i] = -1 if p is None else p
    if keys.null_count:
        targets[np.asarray(keys.is_null())] = -1
    return targets
