"""Write partition directories the way a Kafka broker lays them out.

    from kafkacodec.logdir.writer import PartitionWriter

    with PartitionWriter(root, "orders", 0, segment_bytes=1 << 20) as w:
        w.append(batch_bytes, assign_offsets=True)      # already-built batches
        ...
        w.add_aborted_transaction(pid, first, last)    # after appending the abort marker

Index maintenance follows the broker's segment append (and its recovery,
which rebuilds indexes the same way): a batch that starts after more than
``index_interval_bytes`` bytes were written since the previous index entry
gets an ``.index`` entry ``(its last offset, its position)``, and at the same
moment a ``.timeindex`` entry ``(largest timestamp so far, offset of it)`` if
that timestamp grew since the last time-index entry.  When a segment is rolled
or the writer is closed, one more time-index entry records the segment's
largest timestamp.  The offset stored with a timestamp is the last offset of
the batch that carried it, as current brokers store it.  Older brokers (up to
3.7) differ in two details the readers accept as well: the index rule was
applied per append rather than per batch, and uncompressed batches had the
record's own offset stored with the timestamp.

Files are written as they grow, so closed segments' index files have exactly
their used size.  ``close(clean=False)`` leaves the active segment as a copy of
a running broker would be: index files zero-padded to their preallocated size
and no final time-index entry.
"""
from __future__ import annotations

import base64
import os
import struct
import uuid
from pathlib import Path
from typing import NamedTuple

from kafkacodec import crc32, crc32c
from kafkacodec.errors import CrcMismatchError, KafkaCodecError
from kafkacodec.logdir._headers import HeaderWalk
from kafkacodec.logdir._index import (
    OFFSET_ENTRY_SIZE,
    TIME_ENTRY_SIZE,
    AbortedTxn,
    IndexEntry,
    TimeIndexEntry,
)
from kafkacodec.logdir._partition import parse_partition_dir_name
from kafkacodec.records.layout import LEGACY_CRC, LEGACY_MAGIC, V2_ATTRIBUTES, V2_CRC, V2_LEADER_EPOCH

__all__ = ["PartitionWriter", "AppendInfo", "WrittenSegment"]

_INT32_MAX = 2**31 - 1
_OFFSET_ENTRY = struct.Struct(">ii")
_TIME_ENTRY = struct.Struct(">qi")
_TXN_ENTRY = struct.Struct(">hqqqq")
_I64 = struct.Struct(">q")
_I32 = struct.Struct(">i")


class AppendInfo(NamedTuple):
    first_offset: int
    last_offset: int
    segment_base_offset: int
    position: int
    max_timestamp: int


class WrittenSegment:
    """What the writer put into one segment (the indexes as it intended them)."""

    def __init__(self, directory: Path, base_offset: int):
        self.base_offset = base_offset
        name = f"{base_offset:020d}"
        self.log_path = directory / (name + ".log")
        self.index_path = directory / (name + ".index")
        self.timeindex_path = directory / (name + ".timeindex")
        self.txnindex_path = directory / (name + ".txnindex")
        self.size = 0
        self.index: list[IndexEntry] = []
        self.timeindex: list[TimeIndexEntry] = []
        self.txnindex: list[AbortedTxn] = []
        self.bytes_since_index_entry = 0
        self.max_timestamp = -1  # the broker's "unknown" timestamp
        self.offset_of_max_timestamp = base_offset
        self.last_offset = None
        self.closed = False
        self._log = open(self.log_path, "wb")
        self._index = open(self.index_path, "wb")
        self._timeindex = open(self.timeindex_path, "wb")

    def __repr__(self) -> str:
        return f"<WrittenSegment {self.base_offset} {self.size} bytes>"

    def _maybe_append_time(self, timestamp: int, offset: int) -> None:
        last = self.timeindex[-1].timestamp if self.timeindex else -1
        if timestamp > last:
            self.timeindex.append(TimeIndexEntry(timestamp, offset))
            self._timeindex.write(_TIME_ENTRY.pack(timestamp, offset - self.base_offset))

    def flush(self) -> None:
        for f in (self._log, self._index, self._timeindex):
            if not f.closed:
                f.flush()

    def finish(self, *, final_time_entry: bool, pad_index_bytes: int | None = None) -> None:
        if self.closed:
            return
        if final_time_entry:
            self._maybe_append_time(self.max_timestamp, self.offset_of_max_timestamp)
        if pad_index_bytes:
            for f, entry in ((self._index, OFFSET_ENTRY_SIZE), (self._timeindex, TIME_ENTRY_SIZE)):
                want = pad_index_bytes - pad_index_bytes % entry
                have = f.tell()
                if want > have:
                    f.write(bytes(want - have))
        for f in (self._log, self._index, self._timeindex):
            f.close()
        self.closed = True


class PartitionWriter:
    """Appends already-built batches to ``<dir>/<topic>-<partition>/``.

    ``segment_bytes`` rolls a new segment when an append would make the
    active one larger (an append larger than that gets a segment of its own);
    ``index_interval_bytes`` spaces ``.index`` entries; ``max_index_bytes``
    is the preallocated index size, which also caps the entries per segment.
    The first segment's base offset is ``start_offset``.
    """

    def __init__(self, dir: str | os.PathLike, topic: str, partition: int, *,  # noqa: A002
                 segment_bytes: int = 1 << 30, index_interval_bytes: int = 4096,
                 max_index_bytes: int = 10 << 20, start_offset: int = 0,
                 topic_id: str | None = None):
        name = f"{topic}-{partition}"
        if parse_partition_dir_name(name) != (topic, partition):
            raise ValueError(f"invalid topic or partition for a directory name: {name!r}")
        if not 0 < segment_bytes <= _INT32_MAX:
            raise ValueError("segment_bytes must be in 1..2**31-1")
        if index_interval_bytes < 0:
            raise ValueError("index_interval_bytes must be >= 0")
        if max_index_bytes < 2 * TIME_ENTRY_SIZE:
            raise ValueError("max_index_bytes is too small for a time index")
        self.topic = topic
        self.partition = partition
        self.path = Path(dir) / name
        self.path.mkdir(parents=True, exist_ok=True)
        if any(n.endswith(".log") for n in os.listdir(self.path)):
            raise FileExistsError(f"{self.path} already holds log segments")
        self.segment_bytes = segment_bytes
        self.index_interval_bytes = index_interval_bytes
        self.max_index_bytes = max_index_bytes
        self.topic_id = topic_id or base64.urlsafe_b64encode(uuid.uuid4().bytes).rstrip(b"=").decode()
        self.next_offset = start_offset
        self.segments: list[WrittenSegment] = []
        self.leader_epochs: list[tuple[int, int]] = []
        self.closed = False
        self._roll(start_offset)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        self.close()

    @property
    def active(self) -> WrittenSegment:
        return self.segments[-1]

    # ------------------------------------------------------------ appending
    def append(self, data, *, assign_offsets: bool = False, leader_epoch: int | None = None,
               verify_crc: bool = True) -> AppendInfo:
        """Append one or more whole batches as a single append.

        With ``assign_offsets`` the batches get consecutive offsets from
        ``next_offset`` (base offsets are outside the batch CRC, so nothing
        is re-checksummed); otherwise their own offsets must follow the log's.
        ``leader_epoch`` stamps magic-2 batches' partition leader epoch (also
        outside the CRC).  Compressed legacy message sets cannot be renumbered.
        ``verify_crc`` checks each batch's stored checksum first, as a broker would.
        """
        if self.closed:
            raise ValueError("writer is closed")
        buf = bytearray(data)
        headers = list(self._walk(buf))
        if verify_crc:
            _verify_crcs(buf, headers)
        if assign_offsets or leader_epoch is not None:
            nxt = self.next_offset
            for h in headers:
                if h.magic == 2:
                    if leader_epoch is not None:
                        _I32.pack_into(buf, h.position + V2_LEADER_EPOCH, leader_epoch)
                    if assign_offsets:
                        _I64.pack_into(buf, h.position, nxt)
                        nxt += h.last_offset - h.base_offset + 1
                elif assign_offsets:
                    if h.compression:
                        raise KafkaCodecError("cannot assign offsets to a compressed legacy message set")
                    _I64.pack_into(buf, h.position, nxt)
                    nxt += 1
            headers = list(self._walk(buf))
        expected = self.next_offset
        for h in headers:
            first = h.base_offset if (h.magic == 2 or not h.compression) else h.last_offset
            if first < expected:
                raise KafkaCodecError(
                    f"batch offset {h.base_offset} at byte {h.position} is below the next offset {expected}")
            expected = h.last_offset + 1
        first_offset = headers[0].base_offset
        last_offset = headers[-1].last_offset

        largest_ts, offset_of_largest = -1, first_offset
        for h in headers:
            if h.max_timestamp > largest_ts:
                largest_ts, offset_of_largest = h.max_timestamp, h.last_offset
            if h.magic == 2 and h.partition_leader_epoch >= 0 and (
                    not self.leader_epochs or h.partition_leader_epoch > self.leader_epochs[-1][0]):
                self.leader_epochs.append((h.partition_leader_epoch, h.base_offset))

        if self._should_roll(len(buf), last_offset, len(headers)):
            self._roll(first_offset)
        seg = self.active
        if first_offset < seg.base_offset:
            raise KafkaCodecError(f"offset {first_offset} is below the segment base {seg.base_offset}")
        position = seg.size
        seg._log.write(buf)
        for h in headers:
            if h.max_timestamp > seg.max_timestamp:
                seg.max_timestamp, seg.offset_of_max_timestamp = h.max_timestamp, h.last_offset
            if seg.bytes_since_index_entry > self.index_interval_bytes:
                batch_position = position + h.position
                seg.index.append(IndexEntry(h.last_offset, batch_position))
                seg._index.write(_OFFSET_ENTRY.pack(h.last_offset - seg.base_offset, batch_position))
                seg._maybe_append_time(seg.max_timestamp, seg.offset_of_max_timestamp)
                seg.bytes_since_index_entry = 0
            seg.bytes_since_index_entry += h.size
        seg.size += len(buf)
        seg.last_offset = last_offset
        self.next_offset = last_offset + 1
        return AppendInfo(first_offset, last_offset, seg.base_offset, position, largest_ts)

    @staticmethod
    def _walk(buf):
        walk = HeaderWalk(buf, 0, len(buf), "append")
        headers = list(walk)
        if walk.truncated_bytes:
            raise KafkaCodecError(f"{walk.truncated_bytes} bytes of an incomplete batch at byte {walk.position}")
        if not headers:
            raise KafkaCodecError("nothing to append")
        return headers

    def _should_roll(self, size: int, last_offset: int, batches: int) -> bool:
        seg = self.active
        max_offset_entries = self.max_index_bytes // OFFSET_ENTRY_SIZE
        max_time_entries = self.max_index_bytes // TIME_ENTRY_SIZE
        return (
            (seg.size > 0 and seg.size + size > self.segment_bytes)
            or last_offset - seg.base_offset > _INT32_MAX
            # each batch of the append may add an entry to both indexes
            or len(seg.index) + batches > max_offset_entries
            # one time-index slot stays free for the entry written at roll
            or len(seg.timeindex) + batches > max_time_entries - 1
        )

    def roll(self) -> None:
        """Start a new segment at ``next_offset`` (no-op while the active one is empty)."""
        if self.active.size:
            self._roll(self.next_offset)

    def _roll(self, base_offset: int) -> None:
        if self.segments:
            if self.active.size == 0:
                # an empty active segment is simply renamed by starting over at the new base
                self._discard_empty_active()
            else:
                self.active.finish(final_time_entry=True)
        self.segments.append(WrittenSegment(self.path, base_offset))

    def _discard_empty_active(self) -> None:
        seg = self.segments.pop()
        seg.finish(final_time_entry=False)
        for p in (seg.log_path, seg.index_path, seg.timeindex_path, seg.txnindex_path):
            if p.exists():
                p.unlink()

    # ------------------------------------------------------------ transactions
    def add_aborted_transaction(self, producer_id: int, first_offset: int, last_offset: int,
                                last_stable_offset: int | None = None) -> AbortedTxn:
        """Record an aborted transaction in the ``.txnindex`` of the segment
        holding its abort marker (``last_offset``), as the broker does when it
        appends the marker.  ``last_stable_offset`` defaults to ``last_offset + 1``
        (no other transaction open at that point).
        """
        if producer_id < 0 or first_offset > last_offset:
            raise ValueError("need producer_id >= 0 and first_offset <= last_offset")
        if last_offset >= self.next_offset:
            raise ValueError(f"abort marker offset {last_offset} is not in the log yet")
        seg = None
        for s in self.segments:
            if s.base_offset <= last_offset:
                seg = s
        if seg is None:
            raise ValueError(f"offset {last_offset} is below the first segment")
        if seg.txnindex and last_offset <= seg.txnindex[-1].last_offset:
            raise ValueError("aborted transactions must be added in marker-offset order")
        lso = last_offset + 1 if last_stable_offset is None else last_stable_offset
        entry = AbortedTxn(producer_id, first_offset, last_offset, lso)
        with open(seg.txnindex_path, "ab") as f:
            f.write(_TXN_ENTRY.pack(0, producer_id, first_offset, last_offset, lso))
        seg.txnindex.append(entry)
        return entry

    # ------------------------------------------------------------ closing
    def flush(self) -> None:
        self.active.flush()

    def close(self, *, clean: bool = True) -> None:
        """Finish the directory.  ``clean=False`` mimics a live broker's copy:
        the active segment keeps preallocated zero-padded index files and
        lacks its final time-index entry.
        """
        if self.closed:
            return
        self.closed = True
        if clean:
            self.active.finish(final_time_entry=True)
        else:
            self.active.finish(final_time_entry=False, pad_index_bytes=self.max_index_bytes)
        (self.path / "partition.metadata").write_text(f"version: 0\ntopic_id: {self.topic_id}\n")
        lines = ["0", str(len(self.leader_epochs))] + [f"{e} {o}" for e, o in self.leader_epochs]
        (self.path / "leader-epoch-checkpoint").write_text("\n".join(lines) + "\n")


def _verify_crcs(buf: bytearray, headers) -> None:
    view = memoryview(buf)
    for h in headers:
        if h.magic == 2:
            # CRC-32C from the attributes to the end of the batch
            stored = struct.unpack_from(">I", buf, h.position + V2_CRC)[0]
            actual = crc32c(view[h.position + V2_ATTRIBUTES:h.end])
        else:
            # CRC-32 from the magic byte to the end of the message
            stored = struct.unpack_from(">I", buf, h.position + LEGACY_CRC)[0]
            actual = crc32(view[h.position + LEGACY_MAGIC:h.end])
        if stored != actual:
            view.release()
            raise CrcMismatchError(f"batch checksum {stored:#010x} does not match {actual:#010x}",
                                   h.position, "append")
    view.release()
