"""What ``Consumer.poll()`` takes from the fetcher's buffered fetches.

The fetcher (``fetcher.py``, I/O thread) keeps each partition's completed fetch
as raw record bytes; a poll decodes them here on the calling thread, into
records or Arrow (in C), hands out at most the rows asked for and moves the
partition's position.  A fetch is held back while its partition is paused,
while a seek_to_beginning/_end looks its position up, or when it is no longer
the partition's live fetch; a drained fetch frees its partition and wakes the
I/O thread, so the next Fetch travels while the caller works.  read_committed
without the broker's aborted-transaction list finds aborted transactions from
the markers in the data, and holds back a transaction whose marker has not
arrived.
"""
from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from kafkacodec.records import Record, decode_records, iter_batches
from kafkacodec.records.isolation import IsolationLevel
from kafkacodec.client.fetcher import CompletedFetch, Fetcher, PartitionState
from kafkacodec.client.types import TopicPartition

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["FetchBuffer", "empty_batch"]


# a record's offset and leader epoch fields, read as Record's own (a record_class may name methods so)
_offset_of: Callable[[Record], int] = vars(Record)["offset"].__get__
_leader_epoch_of: Callable[[Record], int | None] = vars(Record)["leader_epoch"].__get__


class FetchBuffer:
    """Taking records (or Arrow rows) out of a Fetcher's buffered fetches; any thread,
    one poll at a time (the consumer's turn), under the fetcher's lock where shared."""

    def __init__(self, fetcher: Fetcher, conf: dict[str, Any]) -> None:
        self.fetcher = fetcher
        self._verify_crc: bool = conf["check.crcs"]
        self._max_decompressed: int = conf["max.decompressed.bytes"]
        self._isolation = conf["isolation.level"]  # an IsolationLevel: the decoders take it as it is
        self._record_class = conf["record_class"]
        self._read_committed = self._isolation is IsolationLevel.READ_COMMITTED
        # the records fetch the last take left part-way: (fetch, its partition's state, the position
        # it left), for take_current; Consumer.poll reads it to try take_current before anything else
        self.current: tuple[CompletedFetch, PartitionState, int] | None = None

    def takeable(self, cf: CompletedFetch) -> bool:
        """Whether a poll could take from (or drop) cf now (under the fetcher's lock)."""
        state = self.fetcher.partitions.get(cf.tp)
        return state is None or not self.held_back(cf, state)

    def held_back(self, cf: CompletedFetch, state: PartitionState) -> bool:
        """cf of an assigned partition is not to be taken now: the partition is paused, a
        seek_to_beginning/_end is looking its position up, or cf is not its buffered fetch."""
        return state.paused or state.reset is not None or self.fetcher.buffered.get(cf.tp) is not cf

    def _queued_fetches(self) -> list[CompletedFetch]:
        """The buffered fetches present now, oldest first.  A poll drains only these:
        fetches arriving meanwhile wait for the next poll, so one call cannot run on
        for as long as the broker keeps answering."""
        with self.fetcher.lock:
            return list(self.fetcher.completed)

    def _usable(self, cf: CompletedFetch) -> PartitionState | None:
        """(state, position) when cf is still its partition's live buffered fetch and the
        partition is not paused (under lock); a fetch of an unassigned partition is dropped."""
        fetcher = self.fetcher
        state = fetcher.partitions.get(cf.tp)
        if state is None:
            self.finish(cf)
            return None
        return None if self.held_back(cf, state) else state

    def _prepare_fetch(self, cf: CompletedFetch, state: PartitionState) -> bool:
        """read_committed when the broker listed no aborted transactions: find them from the
        markers in the data.  A transaction whose marker has not arrived yet is cut off; when the
        data starts with one, it is held back (False) and fetching continues after it."""
        if not self._read_committed or cf.prepared or cf.aborted:
            return True
        open_txns: dict[int, tuple[int, int]] = {}  # producer id -> (first offset, byte position)
        inferred: set[tuple[int, int]] = set()
        whole = 0  # the bytes of complete batches (a Fetch answer may end inside one)
        for batch in iter_batches(cf.data, verify_crc=False):
            whole = batch.position + batch.size_in_bytes
            pid = batch.producer_id
            if batch.is_control:
                control = batch.control_record()
                opened = open_txns.pop(pid, None)
                if control is not None and control[1] == "ABORT" and opened is not None:
                    inferred.add((pid, opened[0]))
            elif batch.is_transactional and pid not in open_txns:
                open_txns[pid] = (batch.base_offset, batch.position)
        cut = min((position for _, position in open_txns.values()), default=None)
        if cut == 0:
            with self.fetcher.lock:
                if self.fetcher.partitions.get(cf.tp) is state and state.position == cf.fetch_offset:
                    # complete batches only: the next answer starts with the cut one, whole
                    state.held = bytes(cf.data[:whole])
                    state.fetch_next = cf.next_offset(False)
                    self.finish(cf)
            self.fetcher.client.wakeup()
            return False
        cf.prepared = True
        cf.aborted = sorted(inferred)
        if cut is not None:
            with self.fetcher.lock:  # the I/O thread reads where cf ends (Fetcher.next_fetch_offset)
                cf.data = cf.data[:cut]
                cf._next_offset = None
                # what was fetched ahead starts past the cut: fetched again from it instead
                self.fetcher.drop_queued(cf.tp)
        return True

    def _fetches_to_take(self, kind: str, full: Callable[[], bool]
                         ) -> Iterator[tuple[CompletedFetch, PartitionState, int | None]]:
        """(fetch, partition state, position) for each buffered fetch a poll may take from, until
        full(); a fetch not yet decoded as `kind` has been prepared for decoding (read_committed)."""
        for cf in self._queued_fetches():
            if full():
                return
            with self.fetcher.lock:
                state = self._usable(cf)
                if state is None:
                    continue
                position = state.position
            if cf.kind != kind and not self._prepare_fetch(cf, state):
                continue
            yield cf, state, position

    def _taken_up_to(self, cf: CompletedFetch, state: PartitionState, j: int, n: int) -> None:
        """Under lock: rows before j of cf's n are handed out; a drained fetch frees its partition."""
        cf.index = j
        if j >= n:
            state.position = max(state.position, cf.next_offset(self._verify_crc))  # type: ignore[type-var]  # a partition handing out records has a position
            self.finish(cf)

    def take_records(self, limit: int) -> list[Record]:
        """Up to `limit` records from the buffered fetches, oldest fetch first."""
        out: list[Record] = []
        fetcher = self.fetcher
        for cf, state, position in self._fetches_to_take("records", lambda: len(out) >= limit):
            if cf.kind != "records":
                cf.decoded = decode_records(cf.data, isolation_level=self._isolation, aborted_transactions=cf.aborted,
                                            verify_crc=self._verify_crc, max_decompressed_size=self._max_decompressed,
                                            topic=cf.tp.topic, partition=cf.tp.partition,
                                            record_class=self._record_class)
                cf.kind = "records"
                cf.index = 0
            records = cf.decoded
            i = cf.index
            n = len(records)
            assert position is not None  # a partition with a fetch to take has a position
            while i < n and _offset_of(records[i]) < position:
                i += 1  # the broker answers from the start of the batch holding the position
            j = min(n, i + (limit - len(out)))
            with fetcher.lock:
                if fetcher.partitions.get(cf.tp) is not state or state.position != position:
                    continue  # sought or revoked while decoding
                if j > i:
                    out.extend(records[i:j] if i or j < n else records)
                self._handed_out(cf, state, records, i, j)
        return out

    def _handed_out(self, cf: CompletedFetch, state: PartitionState, records: list[Record], i: int, j: int) -> None:
        """Under lock: records i..j of cf went to the application: the position moves past them, a
        drained fetch frees its partition, and a fetch left part-way is the one take_current
        takes from next."""
        n = len(records)
        if j > i:
            last = records[j - 1]
            state.position = _offset_of(last) + 1
            state.leader_epoch = _leader_epoch_of(last)
            state.handed_out = True
            self._count_taken(cf.tp, j - i)
        self._taken_up_to(cf, state, j, n)
        self.current = (cf, state, state.position) if j < n else None  # type: ignore[assignment]  # a position: records were taken

    def take_current(self, limit: int) -> list[Record] | None:
        """take_records' next rows, when they come from the fetch the last take left part-way
        and nothing about its partition changed since (no seek, pause, reset, error, new
        assignment or other take); None otherwise, for take_records to look at every buffered
        fetch.  What a poll of one record at a time costs, as confluent-kafka's programs poll."""
        current = self.current
        if current is None:
            return None
        cf, state, position = current
        fetcher = self.fetcher
        with fetcher.lock:
            records = cf.decoded
            if (records is None or cf.kind != "records" or state.error is not None or state.position != position
                    or fetcher.partitions.get(cf.tp) is not state or self.held_back(cf, state)):
                self.current = None
                return None
            i = cf.index
            if i >= len(records) or _offset_of(records[i]) < position:
                self.current = None
                return None
            j = min(len(records), i + limit)
            out: list[Record] = records[i:j]
            self._handed_out(cf, state, records, i, j)
        return out

    def _count_taken(self, tp: TopicPartition, n: int) -> None:
        """Statistics (under the fetcher's lock): n records of tp handed to the application."""
        counts = self.fetcher.received.get(tp)
        if counts is None:
            counts = self.fetcher.received[tp] = [0, 0]
        counts[0] += n

    def finish(self, cf: CompletedFetch) -> None:
        """cf is drained (under lock): its partition may be fetched again (and the fetch queued
        behind it, if any, is taken next), so wake the I/O thread now rather than after this
        poll: the next fetch travels while we decode."""
        fetcher = self.fetcher
        try:
            fetcher.completed.remove(cf)
        except ValueError:
            pass
        fetcher.forget(cf)
        if fetcher.buffered.get(cf.tp) is cf:
            del fetcher.buffered[cf.tp]
            fetcher.promote(cf.tp)
        else:
            queue = fetcher.queued.get(cf.tp)
            if queue is not None and cf in queue:
                queue.remove(cf)
        cf.decoded = cf.data = None
        self.fetcher.client.wakeup()

    def take_arrow(self, limit: int) -> list[pa.RecordBatch]:
        """Up to `limit` rows as record batches (topic, partition, then the codec's columns)."""
        import pyarrow as pa
        import pyarrow.compute as pc
        from kafkacodec import arrow as ka
        parts = []
        taken = 0
        fetcher = self.fetcher
        bounded = limit < 1 << 62
        for cf, state, position in self._fetches_to_take("arrow", lambda: taken >= limit):
            if cf.kind != "arrow":
                cf.decoded = ka.decode(cf.data, isolation_level=self._isolation, aborted_transactions=cf.aborted,
                                       verify_crc=self._verify_crc, max_decompressed_size=self._max_decompressed)
                cf.kind = "arrow"
                cf.index = 0
            rb = cf.decoded
            n = rb.num_rows
            i = cf.index
            offsets = rb.column(0)
            if i < n and offsets[i].as_py() < position:
                below = pc.sum(pc.less(offsets, _int64_scalar(position))).as_py()  # type: ignore[arg-type]  # as above
                i = max(i, below or 0)
            j = min(n, i + (limit - taken))
            with fetcher.lock:
                if fetcher.partitions.get(cf.tp) is not state or state.position != position:
                    continue  # sought or revoked while decoding
                if j > i:
                    rows = j - i
                    piece = rb if rows == n else rb.slice(i, rows)
                    topic, partition = _tp_scalars(cf.tp)
                    parts.append(pa.RecordBatch.from_arrays(
                        [pa.repeat(topic, rows), pa.repeat(partition, rows)] + piece.columns,
                        schema=_arrow_schema()))
                    taken += rows
                    state.position = offsets[j - 1].as_py() + 1
                    state.handed_out = True
                    self._count_taken(cf.tp, rows)
                self._taken_up_to(cf, state, j, n)
            if parts and not bounded:
                # One fetch's columns as they are: gathering several would copy
                # every value once more; the next poll takes the next fetch.
                break
        return parts


_SCHEMA: Any = None  # pa.Schema once built
_EMPTY: Any = None   # pa.RecordBatch once built
_TP_SCALARS: dict[TopicPartition, Any] = {}

# pyarrow imports pandas (half a second) whenever it infers a type from Python values
# (pa.scalar, pa.array, empty_table, to_numpy): values here are built from buffers instead


def _int64_scalar(value: int) -> Any:
    import pyarrow as pa
    return pa.Array.from_buffers(pa.int64(), 1, [None, pa.py_buffer(struct.pack("<q", value))])[0]


def empty_batch() -> pa.RecordBatch:
    """The batch poll_arrow() returns when nothing came (built once)."""
    global _EMPTY
    if _EMPTY is None:
        import pyarrow as pa
        from kafkacodec import arrow as ka
        topic, partition = _tp_scalars(TopicPartition("", 0))
        _EMPTY = pa.RecordBatch.from_arrays([pa.repeat(topic, 0), pa.repeat(partition, 0)] + ka.decode(b"").columns,
                                            schema=_arrow_schema())
    return _EMPTY


def _tp_scalars(tp: TopicPartition) -> Any:
    """Arrow scalars of a partition's topic and index."""
    found = _TP_SCALARS.get(tp)
    if found is None:
        import pyarrow as pa
        name = tp.topic.encode()
        topic = pa.StringArray.from_buffers(1, pa.py_buffer(struct.pack("<ii", 0, len(name))), pa.py_buffer(name))
        partition = pa.Array.from_buffers(pa.int32(), 1, [None, pa.py_buffer(struct.pack("<i", tp.partition))])
        if len(_TP_SCALARS) > 10000:
            _TP_SCALARS.clear()
        found = _TP_SCALARS[tp] = (topic[0], partition[0])
    return found


def _arrow_schema() -> pa.Schema:
    global _SCHEMA
    if _SCHEMA is None:
        import pyarrow as pa
        from kafkacodec import arrow as ka
        base = ka.schema()
        _SCHEMA = pa.schema([pa.field("topic", pa.string(), nullable=False),
                             pa.field("partition", pa.int32(), nullable=False)] + list(base))
    return _SCHEMA
