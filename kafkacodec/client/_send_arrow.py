"""Producer.send_arrow: partition an Arrow table by key in bulk, build its
batches with kafkacodec.arrow.encode (C), queue them in the accumulator, a
chunk of rows at a time as memory allows.

Partitions of keyed rows come from murmur2 over the key column's buffers in
C (kafkacodec._crc.murmur2_partitions; on the pure twin a numpy murmur2, all
keys of one length at once), the same function as the Java client's; other
partitioners fall back to one Python call per key.
"""
from __future__ import annotations

import collections
import concurrent.futures
import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

import kafkacodec.arrow as ka
from kafkacodec import _impl
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client.accumulator import BATCH_OVERHEAD, RECORD_OVERHEAD, BatchResult
from kafkacodec.client.partitioner import Partitioner, _positive_murmur2
from kafkacodec.client.types import BulkResult

if TYPE_CHECKING:
    from kafkacodec.client.accumulator import RecordAccumulator
    from kafkacodec.client.producer import Producer
    from kafkacodec.records.pool import SharedReservation

_J = TypeVar("_J")

#: rows of a batch: numpy indices, or a (start, stop) range
Rows = npt.NDArray[np.int64] | tuple[int, int]
#: what BulkResult keeps per queued batch: (its result, its rows, its partition)
Part = tuple[BatchResult, Rows, int]

_SEED = 0x9747B28C
_M = np.uint64(0x5BD1E995)
_MASK = np.uint64(0xFFFFFFFF)
# bytes per batch built from columns: large batches cost less per record; under the
# brokers' default message.max.bytes (1 MiB) with room for one more record
ARROW_BATCH_SIZE = 512 * 1024
# at most this many bytes of rows are encoded at once (buffer.memory / 32 when smaller, a
# batch at least): encoding holds about three times a chunk outside buffer.memory
MAX_CHUNK = 4 << 20


def murmur2_positive(keys: Any) -> npt.NDArray[np.uint64]:
    """toPositive(murmur2(key)) of every non-null key of a binary/string array (uint64 array)."""
    n = len(keys)
    out = np.zeros(n, dtype=np.uint64)
    if n == 0:
        return out
    bufs = keys.buffers()
    wide = pa.types.is_large_binary(keys.type) or pa.types.is_large_string(keys.type)
    offsets: npt.NDArray[np.int64] = np.frombuffer(
        bufs[1], dtype=np.int64 if wide else np.int32)[keys.offset:keys.offset + n + 1].astype(np.int64)
    data: npt.NDArray[np.uint8] = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    lengths = offsets[1:] - offsets[:-1]
    for each_length in np.unique(lengths):
        length = int(each_length)
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


def _split_batches(data: bytearray) -> Iterator[tuple[int, int, int]]:
    """(start, size, record count) of each v2 batch in concatenated bytes."""
    mv = memoryview(data)
    pos = 0
    end = len(data)
    while pos < end:
        size = 12 + int.from_bytes(mv[pos + 8:pos + 12], "big")
        count = int.from_bytes(mv[pos + 57:pos + 61], "big")
        yield pos, size, count
        pos += size


SendArrowError = E.SendArrowError
SendArrowTimeoutError = E.SendArrowTimeoutError


def _lengths(col: Any) -> npt.NDArray[np.integer[Any]]:
    """Bytes of every value of a binary-like column (0 for nulls), int numpy array."""
    if col.type not in ka._BINARY_LIKE:
        col = col.cast(pa.binary())  # encode() has accepted the column's type already
    lengths: npt.NDArray[np.integer[Any]] = pc.fill_null(pc.binary_length(col), 0).to_numpy(zero_copy_only=False)
    return lengths


def _header_sizes(col: Any) -> npt.NDArray[np.int64]:
    sizes: list[npt.NDArray[np.int64]] = []
    for chunk in col.chunks:
        counts: npt.NDArray[np.int64] = pc.fill_null(pc.list_value_length(chunk), 0).to_numpy(zero_copy_only=False).astype(np.int64)
        entries = pc.list_flatten(chunk)
        each: npt.NDArray[np.int64] = 10 + _lengths(entries.field(0)).astype(np.int64) + _lengths(entries.field(1))
        cum = np.concatenate(([0], np.cumsum(each)))
        ends = np.cumsum(counts)
        sizes.append(cum[ends] - cum[ends - counts])
    return np.concatenate(sizes)


def _row_sizes(table: Any) -> npt.NDArray[np.int64]:
    """Each row's bytes in a batch, at most: the accumulator's estimate of a record."""
    names = table.column_names
    sizes = np.full(table.num_rows, RECORD_OVERHEAD, dtype=np.int64)
    for name in ("key", "value"):
        if name in names:
            sizes += _lengths(table.column(name))
    if "headers" in names:
        sizes += _header_sizes(table.column("headers"))
    return sizes


def _ranges(cum: npt.NDArray[np.int64], budget: int) -> Iterator[tuple[int, int]]:
    """Consecutive (start, stop) row ranges of about `budget` bytes each (a row at least),
    given the rows' cumulative sizes."""
    n = len(cum)
    start = 0
    base = 0
    while start < n:
        stop = max(start + 1, int(np.searchsorted(cum, base + budget, side="right")))
        yield start, stop
        base = cum[stop - 1]
        start = stop


def _queue(acc: RecordAccumulator, topic: str, data: bytearray, rows: Rows, parts: list[Part], partition: int,
           rotate: int = 0) -> int:
    """Queue the batches of `data` for `partition` (rows: numpy indices or a (start, stop)
    range), each once memory for it is free; with `rotate` (the partition count) each batch
    goes to the next sticky partition.  Returns the partition for the next batch."""
    mv = memoryview(data)   # `data` is a bytearray: each batch is a writable view of it, not a copy
    pieces = list(_split_batches(data))
    # A view keeps the whole chunk alive until the last batch of it is done (one slow partition
    # would hold every chunk it has a batch in): the chunk's memory is reserved whole, shared
    # by its batches and returned with the last of them.
    shares: list[SharedReservation | None] = list(acc.reserve_shared(len(data), len(pieces)))
    try:
        partition = _queue_pieces(acc, topic, mv, pieces, shares, rows, parts, partition, rotate)
    finally:
        for left in shares:
            if left is not None:   # not queued (an error or a close on the way): returned here
                acc.pool.deallocate(left)
    return partition


def _queue_pieces(acc: RecordAccumulator, topic: str, mv: memoryview, pieces: list[tuple[int, int, int]],
                  shares: list[SharedReservation | None], rows: Rows, parts: list[Part], partition: int,
                  rotate: int) -> int:
    """_queue's loop: each piece of the chunk queued as a batch holding its share (taken
    out of `shares`: what is left there was never queued)."""
    first = 0
    for i, (pos, size, count) in enumerate(pieces):
        if acc.error is not None:
            raise acc.error
        if acc.closed:
            raise E.ClientClosedError("the producer is closed")
        batch = mv[pos:pos + size]
        batch[0:8] = bytes(8)  # the broker assigns offsets; every batch starts at 0 (outside the CRC)
        result = BatchResult(topic, partition)
        acc.append_batch(topic, partition, batch, count, result, reservation=shares[i])
        shares[i] = None  # the batch returns it when done
        span: Rows
        if isinstance(rows, tuple):
            span = (rows[0] + first, rows[0] + first + count)
        else:
            span = rows[first:first + count]
        parts.append((result, span, partition))
        first += count
        if acc.error is not None or acc.closed:
            # closed or failed while the batch waited for memory: close() may have failed the
            # queued batches already, and nothing sends this one now; it is reported failed
            error = acc.error or E.ClientClosedError("the producer was closed before the record was acknowledged")
            result.complete(-1, -1, error)
            raise error
        if rotate:
            partition = Partitioner.next_sticky(rotate, partition)
    return partition


# chunks encoded ahead of the one being queued, each on a worker thread of its own: the encoder
# runs without the GIL (records, compression), so encoding overlaps the wait for memory and uses
# a second core (lz4 on two cores: 3.4 -> 4.4 M records/s); at most this many chunks (a few MiB)
# are held beyond buffer.memory
ENCODE_AHEAD = 2
# a worker thread costs about 5 MB of resident memory (its stack and malloc arena), whatever the
# table: worth it only beside a buffer.memory this large (the default, 32 MiB)
ENCODE_AHEAD_MIN_MEMORY = 32 << 20


def _encoded_ahead(jobs: Iterable[_J], encode: Callable[[_J], bytearray],
                   workers: int) -> Iterator[tuple[_J, bytearray]]:
    """(job, encode(job)) for each job, in order, with the next `workers` jobs encoding on
    worker threads meanwhile (0: one after another, here).  A job's error is raised when its
    turn comes; the generator's close cancels what has not started and waits for what has."""
    it = iter(jobs)
    first = next(it, None)
    if first is None:
        return
    second = next(it, None)
    if second is None or workers == 0:  # one chunk, or no threads wanted
        for job in itertools.chain((first,), () if second is None else (second,), it):
            yield job, encode(job)
        return
    pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="kafkacodec-send-arrow")
    try:
        ahead: collections.deque[tuple[_J, concurrent.futures.Future[bytearray]]] = collections.deque()
        for job in itertools.chain((first, second), it):
            ahead.append((job, pool.submit(encode, job)))
            if len(ahead) > workers:
                done, future = ahead.popleft()
                yield done, future.result()
        while ahead:
            done, future = ahead.popleft()
            yield done, future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def encode_typed(data: Any, value_schema: Any, key_schema: Any) -> Any:
    """``data`` with its typed (struct) `value` / `key` columns encoded by the given formats
    (kafkacodec.values), before anything is checked or queued."""
    from kafkacodec.values import encode_columns
    if not isinstance(data, (pa.Table, pa.RecordBatch)):
        raise TypeError(f"send_arrow needs a pyarrow Table or RecordBatch, not {type(data).__name__}")
    return encode_columns(data, value=value_schema, key=key_schema)


def send_arrow(producer: Producer, topic: str, data: Any, count: int, partition: int | None) -> BulkResult:
    """The table is encoded a chunk of about buffer.memory / 32 (4 MiB at most) at a time,
    and each chunk's batches are queued (waiting for memory, as append_batch does) before
    the next chunk is encoded: the producer never holds much more than buffer.memory.

    Bad input raises before anything is queued; a failure once queuing has begun raises
    SendArrowError (SendArrowTimeoutError when no memory came within max.block.ms) carrying
    the BulkResult of the rows queued before it (maybe none)."""
    if isinstance(data, pa.RecordBatch):
        table = pa.Table.from_batches([data])
    elif isinstance(data, pa.Table):
        table = data
    else:
        raise TypeError(f"send_arrow needs a pyarrow Table or RecordBatch, not {type(data).__name__}")
    if partition is not None and (isinstance(partition, bool) or not isinstance(partition, int)):
        raise E.InvalidArgumentError(f"partition {partition!r} is not a partition number")
    if partition is not None and not 0 <= partition < count:
        raise E.UnknownPartitionError(f"partition {partition!r} is not one of {topic!r}'s {count} partitions")
    conf = producer.conf
    batch_size = max(conf["batch.size"], min(ARROW_BATCH_SIZE, conf["max.request.size"] // 2))
    # one default timestamp for the whole call, as when the table was encoded at once
    encode_kw = dict(compression=conf["compression.type"], compression_level=conf["compression.level"],
                     batch_size=batch_size, default_timestamp=int(time.time() * 1000), writable=True)
    n = table.num_rows
    parts: list[Part] = []
    if n == 0:
        return BulkResult(topic, 0, parts)
    ka.encode(table.slice(0, 0), **encode_kw)  # the columns' types, checked before anything is queued
    if any(col.num_chunks != 1 or col.chunk(0).offset for col in table.columns):
        # once, each column one array from offset 0: each chunk's encode then reads the columns
        # without copying (ka.encode copies any other column, the whole of it, for every chunk;
        # combine_chunks leaves a sliced single chunk as it is)
        table = pa.table([pa.concat_arrays(col.chunks) if col.num_chunks else col.combine_chunks()
                          for col in table.columns], schema=table.schema)
    sizes = _row_sizes(table)
    limit = min(conf["max.request.size"], conf["buffer.memory"])
    biggest = int(sizes.max()) + BATCH_OVERHEAD
    if biggest > limit:
        raise E.error_for(Code.MESSAGE_TOO_LARGE, f"a row of about {biggest} bytes is larger than max.request.size "
                              f"({conf['max.request.size']}) or buffer.memory ({conf['buffer.memory']})")
    budget = max(batch_size, min(MAX_CHUNK, conf["buffer.memory"] // 32))
    workers = ENCODE_AHEAD if conf["buffer.memory"] >= ENCODE_AHEAD_MIN_MEMORY else 0
    acc = producer._acc
    keys = table.column("key").combine_chunks() if "key" in table.column_names else None
    partitioner = producer._partitioner
    plan = None
    if partition is None and keys is not None and (
            partitioner.custom is not None or (partitioner._hash is not None and keys.null_count < n)):
        targets = _partitions_of(partitioner, keys, count)
        nulls = targets < 0
        if nulls.any():
            sticky = producer._sticky.get(topic)
            if sticky is None or sticky >= count:
                sticky = producer._sticky[topic] = Partitioner.next_sticky(count, None)
            targets[nulls] = sticky
        # a stable sort of small integers is a radix sort in numpy: linear in the rows
        order = np.argsort(targets.astype(np.int16 if count <= 1 << 15 else np.int32), kind="stable")
        bounds = np.flatnonzero(np.diff(targets[order])) + 1
        pieces = []
        for rows in np.split(order, bounds):
            p = int(targets[rows[0]])
            pieces.append([(p, rows[a:b]) for a, b in _ranges(np.cumsum(sizes[rows]), budget)])
        # every partition's chunks in turn: while memory is short, every leader has work
        plan = [piece for turn in itertools.zip_longest(*pieces) for piece in turn if piece is not None]
    elif partition is not None:
        p, rotate = partition, 0
    else:
        # no keys: batch after batch, moving partition like the sticky partitioner
        current, rotate = producer._sticky.get(topic), count
        p = Partitioner.next_sticky(count, None) if current is None or current >= count else current
    try:
        if plan is not None:
            def encode_rows(job: tuple[int, npt.NDArray[np.int64]]) -> bytearray:
                return ka.encode(table, rows=job[1], **encode_kw)  # type: ignore[no-any-return]

            for (p, rows), data in _encoded_ahead(plan, encode_rows, workers):
                _queue(acc, topic, data, rows, parts, p)
        else:
            def encode_span(span: tuple[int, int]) -> bytearray:
                return ka.encode(table.slice(span[0], span[1] - span[0]), **encode_kw)  # type: ignore[no-any-return]

            try:
                for span, data in _encoded_ahead(_ranges(np.cumsum(sizes), budget), encode_span, workers):
                    p = _queue(acc, topic, data, span, parts, p, rotate)
            finally:
                if rotate:
                    producer._sticky[topic] = p
    except E.KafkaTimeoutError as exc:
        result = BulkResult(topic, n, parts)
        raise SendArrowTimeoutError(f"send_arrow to {topic!r}: {exc}; {result.rows_queued} of {n} rows "
                                    f"were queued (this error's .result)", result) from exc
    except Exception as exc:
        result = BulkResult(topic, n, parts)
        raise SendArrowError(f"send_arrow to {topic!r} failed after queuing {result.rows_queued} of {n} rows "
                             f"(this error's .result): {exc!r}", result) from exc
    except BaseException as exc:
        # KeyboardInterrupt and the like pass as they are, still telling what was queued
        exc.result = BulkResult(topic, n, parts)  # type: ignore[attr-defined]  # as SendArrowError's
        raise
    return BulkResult(topic, n, parts)


def _murmur2_targets(keys: Any, count: int) -> npt.NDArray[np.int64]:
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
        _impl.crc.murmur2_partitions(offsets, bufs[2] if bufs[2] is not None else b"", targets, count,  # type: ignore[attr-defined]
                                     wide)
    return targets


def _partitions_of(partitioner: Partitioner, keys: Any, count: int) -> npt.NDArray[np.int64]:
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
