"""Partition directories (``topic-N``) and broker data directories."""
from __future__ import annotations

import builtins
import mmap
import os
import re
from bisect import bisect_right
from pathlib import Path
from typing import Iterator, NamedTuple

from kafkacodec.errors import CorruptDataError
from kafkacodec.logdir._headers import BatchHeader, first_offset_of as _first_offset
from kafkacodec.logdir._index import AbortedTxn
from kafkacodec.logdir._segment import Segment

__all__ = [
    "LogDir",
    "PartitionDir",
    "LogPosition",
    "ByteRange",
    "KraftSnapshot",
    "BatchReader",
    "open",
    "parse_partition_dir_name",
    "read_range",
]

_SEGMENT_FILE = re.compile(r"^(\d{20})\.log$")
_KRAFT_SNAPSHOT = re.compile(r"^(\d{20})-(\d{10})\.checkpoint$")
_PARTITION_DIR = re.compile(r"^(?P<topic>[A-Za-z0-9._-]{1,249})-(?P<partition>\d+)$")
# renamed by the broker while a partition is deleted, moved between log dirs or found stray
_TRANSIENT_DIR = re.compile(r"-(delete|future|stray)$")


def parse_partition_dir_name(name: str) -> tuple[str, int] | None:
    """``"my.topic-name-3"`` -> ``("my.topic-name", 3)``; None for anything else.

    Directories the broker renamed for deletion, reassignment between log dirs
    or as strays (``topic-0.<uuid>-delete`` etc.) are not partitions.
    """
    if _TRANSIENT_DIR.search(name):
        return None
    m = _PARTITION_DIR.match(name)
    if m is None:
        return None
    topic = m.group("topic")
    if topic in (".", ".."):
        return None
    return topic, int(m.group("partition"))


class LogPosition(NamedTuple):
    """Where a batch starts: a segment and a byte position in its ``.log``."""

    segment: Segment
    position: int

    @property
    def batch(self) -> BatchHeader:
        return self.segment.header_at(self.position)


class KraftSnapshot(NamedTuple):
    """A KRaft snapshot file: it covers offsets below ``end_offset``."""

    end_offset: int
    epoch: int
    path: Path


class ByteRange(NamedTuple):
    """A piece of one segment holding whole batches, for parallel reads.

    Plain values only, so it pickles cheaply to worker processes; read it
    with :func:`read_range`.  ``first_offset`` is the base offset of the
    first batch (the last inner offset for a compressed legacy wrapper).
    """

    path: str
    start: int
    end: int
    first_offset: int
    segment_base_offset: int
    topic: str = ""
    partition: int = -1

    @property
    def size(self) -> int:
        return self.end - self.start


def read_range(byte_range: ByteRange) -> memoryview:
    """Memory-map a :class:`ByteRange` and return a zero-copy view of it."""
    if byte_range.end <= byte_range.start:
        return memoryview(b"")
    with builtins.open(byte_range.path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    if len(m) < byte_range.end:
        m.close()
        raise CorruptDataError(f"{byte_range.path} is shorter than the range end {byte_range.end}",
                               byte_range.end)
    return memoryview(m)[byte_range.start:byte_range.end]


class BatchReader:
    """Iterator of memoryviews over whole batches, produced by
    :meth:`PartitionDir.read_batches`.

    While iterating, ``segment`` and ``position`` say where the view last
    returned starts.  When done, ``truncated_bytes`` tells how many bytes of
    an incomplete batch ended the active segment (0 normally).
    """

    def __init__(self, gen_factory):
        self.segment = None
        self.position = None
        self.truncated_bytes = 0
        self._gen = gen_factory(self)

    def __iter__(self):
        return self

    def __next__(self) -> memoryview:
        return next(self._gen)


class PartitionDir:
    """One partition directory: ``<topic>-<partition>/``.

    ``segments`` are sorted by base offset; the last one is the active
    segment (the only one allowed to end in a truncated batch).
    """

    def __init__(self, path: str | os.PathLike, topic: str | None = None, partition: int | None = None, *,
                 checkpointed_start_offset: int | None = None):
        self.path = Path(path)
        self.checkpointed_start_offset = checkpointed_start_offset
        if not self.path.is_dir():
            raise NotADirectoryError(f"not a directory: {self.path}")
        parsed = parse_partition_dir_name(self.path.name)
        if topic is None or partition is None:
            if parsed is None:
                raise ValueError(f"{self.path.name!r} is not a <topic>-<partition> directory name")
            topic = parsed[0] if topic is None else topic
            partition = parsed[1] if partition is None else partition
        self.topic = topic
        self.partition = partition
        bases = sorted(int(m.group(1)) for m in map(_SEGMENT_FILE.match, os.listdir(self.path)) if m)
        nexts = bases[1:] + [None]
        self.segments = [Segment(self.path, b, is_active=n is None, next_base_offset=n)
                         for b, n in zip(bases, nexts)]
        self._bases = bases

    def __repr__(self) -> str:
        return f"<PartitionDir {self.topic}-{self.partition} segments={len(self.segments)}>"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        for s in self.segments:
            s.close()

    # ------------------------------------------------------------ metadata files
    @property
    def topic_id(self) -> str | None:
        """Topic id from ``partition.metadata`` (base64 UUID), if present."""
        path = self.path / "partition.metadata"
        if not path.exists():
            return None
        for line in path.read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "topic_id":
                return value.strip()
        return None

    @property
    def leader_epochs(self) -> list[tuple[int, int]]:
        """``(epoch, start_offset)`` pairs from ``leader-epoch-checkpoint``."""
        path = self.path / "leader-epoch-checkpoint"
        if not path.exists():
            return []
        lines = path.read_text().split("\n")
        try:
            count = int(lines[1])
            out = []
            for i in range(count):
                epoch, start = lines[2 + i].split()
                out.append((int(epoch), int(start)))
            return out
        except (IndexError, ValueError) as exc:
            raise CorruptDataError(f"malformed leader-epoch-checkpoint ({exc})", None,
                                   "leader-epoch-checkpoint") from None

    @property
    def kraft_snapshots(self) -> list[KraftSnapshot]:
        """KRaft metadata snapshots (``<end offset>-<epoch>.checkpoint``, record
        batches like a segment) sorted by end offset; empty for ordinary topics.
        """
        out = []
        for name in os.listdir(self.path):
            m = _KRAFT_SNAPSHOT.match(name)
            if m:
                out.append(KraftSnapshot(int(m.group(1)), int(m.group(2)), self.path / name))
        return sorted(out)

    # ------------------------------------------------------------ offsets
    @property
    def log_start_offset(self) -> int | None:
        """First offset a consumer could read: the first segment's base offset,
        or the data directory's ``log-start-offset-checkpoint`` value when that
        is later (records below it were deleted logically but may still be on
        disk; pass it as ``start_offset`` to skip them).  None without segments.
        """
        if not self.segments:
            return None
        base = self.segments[0].base_offset
        if self.checkpointed_start_offset is not None:
            return max(base, self.checkpointed_start_offset)
        return base

    @property
    def next_offset(self) -> int | None:
        """Offset after the last batch in the log (None without segments)."""
        for seg in reversed(self.segments):
            if seg.last_batch is not None:
                return seg.next_offset
        return self.segments[0].base_offset if self.segments else None

    @property
    def size(self) -> int:
        return sum(s.size for s in self.segments)

    def segment_for(self, offset: int) -> Segment | None:
        """The segment whose offset range would hold ``offset``."""
        i = bisect_right(self._bases, offset) - 1
        if i < 0:
            return self.segments[0] if self.segments else None
        return self.segments[i]

    # ------------------------------------------------------------ seeking
    def lookup_offset(self, offset: int) -> LogPosition | None:
        """The batch holding ``offset``: the first batch whose last offset is
        >= ``offset`` (after a compaction gap, the next batch).  None past the end.

        Uses the segment's ``.index`` then walks batch headers forward.
        """
        i = max(bisect_right(self._bases, offset) - 1, 0)
        for seg in self.segments[i:]:
            h = seg.find_offset(offset)
            if h is not None:
                return LogPosition(seg, h.position)
        return None

    def lookup_timestamp(self, timestamp: int) -> LogPosition | None:
        """The first batch (in log order) whose max timestamp is >= ``timestamp``,
        found through the ``.timeindex``; None when every batch is older.
        """
        for seg in self.segments:
            h = seg.find_timestamp(timestamp)
            if h is not None:
                return LogPosition(seg, h.position)
        return None

    # ------------------------------------------------------------ walking & reading
    def batches(self, start_offset: int | None = None, end_offset: int | None = None
                ) -> Iterator[tuple[Segment, BatchHeader]]:
        """``(segment, header)`` for every batch that may hold offsets in
        ``[start_offset, end_offset)``.  Closed segments must end on a batch boundary.
        """
        for seg, start in self._start_points(start_offset):
            walk = seg.headers(start)
            prev_next = None
            for h in walk:
                first = _first_offset(h, prev_next, seg.base_offset)
                if end_offset is not None and first >= end_offset:
                    return
                prev_next = h.last_offset + 1
                yield seg, h
            walk.finish(allow_truncated=seg.is_active)

    def _start_points(self, start_offset):
        if start_offset is None:
            return [(s, 0) for s in self.segments]
        pos = self.lookup_offset(start_offset)
        if pos is None:
            return []
        i = self.segments.index(pos.segment)
        return [(pos.segment, pos.position)] + [(s, 0) for s in self.segments[i + 1:]]

    def read_batches(self, start_offset: int | None = None, end_offset: int | None = None, *,
                     per_batch: bool = False, check_headers: bool = False) -> BatchReader:
        """Memoryviews over the whole batches that may hold offsets in
        ``[start_offset, end_offset)``: one view per segment, or one per batch
        with ``per_batch``.  The first and last batches can hold offsets
        outside the range (batches are never split); filter records by offset.

        Range ends are found through the indexes, so one view per segment
        costs a few header reads however large the segment; the batches in
        between are checked by whoever decodes them, or here with
        ``check_headers``.  A truncated batch at the end of the active segment
        is left out and reported in the reader's ``truncated_bytes``.
        """
        def gen(reader: BatchReader):
            for seg, start in self._start_points(start_offset):
                if end_offset is not None and start == 0 and seg.base_offset >= end_offset:
                    return
                stop = seg.end_position(end_offset)
                if stop < start:
                    return
                if per_batch or check_headers:
                    walk = seg.headers(start, stop)
                    for h in walk:
                        if per_batch:
                            reader.segment, reader.position = seg, h.position
                            yield seg.data[h.position:h.end]
                    if walk.truncated_bytes:  # only when stop is not a batch boundary
                        raise CorruptDataError("batch headers do not line up with the index", walk.position,
                                               f"{seg.label}.log")
                if not per_batch and stop > start:
                    reader.segment, reader.position = seg, start
                    yield seg.data[start:stop]
                if stop == seg.valid_size:
                    reader.truncated_bytes = seg.truncated_bytes
                if end_offset is not None and stop < seg.valid_size:
                    return
        return BatchReader(gen)

    def split(self, max_bytes: int, start_offset: int | None = None, end_offset: int | None = None
              ) -> list[ByteRange]:
        """Cut the log into byte ranges of at most ``max_bytes`` (a single
        batch larger than that gets a range of its own), each starting and
        ending at batch boundaries, covering every whole batch exactly once
        -- or, with offsets, every batch that may hold offsets in
        ``[start_offset, end_offset)``.

        Cut points come from ``.index`` positions, checked against the batch
        header found there and moved forward by walking headers, so the cost
        is a few header reads per range rather than a scan of the log.
        """
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive")
        out: list[ByteRange] = []
        tag = (self.topic, self.partition)
        for seg, lo in self._start_points(start_offset):
            if end_offset is not None and lo == 0 and seg.base_offset >= end_offset:
                break
            hi = seg.end_position(end_offset)
            if hi > lo:
                out.extend(self._split_segment(seg, lo, hi, max_bytes, tag))
            if end_offset is not None and hi < seg.valid_size:
                break
        return out

    @staticmethod
    def _split_segment(seg: Segment, lo: int, hi: int, max_bytes: int, tag) -> list[ByteRange]:
        index = seg.read_index()
        positions = [e.position for e in index]
        path = str(seg.log_path)
        out = []
        start = lo
        while start < hi:
            first = seg.header_at(start).base_offset
            target = start + max_bytes
            if target >= hi:
                out.append(ByteRange(path, start, hi, first, seg.base_offset, *tag))
                break
            i = bisect_right(positions, target) - 1
            cut = start
            if i >= 0 and positions[i] > start:
                cut = positions[i]
                h = seg.header_at(cut)
                if h is None or h.base_offset > index[i].offset:
                    raise CorruptDataError(
                        f"index entry ({index[i].offset}, {cut}) does not point at a batch holding "
                        f"its offset", i * 8, f"{seg.label}.index[{i}]")
            for h in seg.headers(cut, hi):
                if h.end > target:
                    break
                cut = h.end
            if cut == start:  # one batch larger than max_bytes
                cut = seg.header_at(start).end
            out.append(ByteRange(path, start, cut, first, seg.base_offset, *tag))
            start = cut
        return out

    # ------------------------------------------------------------ transactions
    def aborted_transactions(self, start_offset: int | None = None, end_offset: int | None = None
                             ) -> list[AbortedTxn]:
        """Aborted transactions from every segment's ``.txnindex``, sorted by first offset.

        With a range, only those overlapping ``[start_offset, end_offset)``
        (last offset >= start, first offset < end), as a broker's Fetch would
        list them.  Entries behave as ``(producer_id, first_offset)`` pairs for
        read_committed decoding; ``last_offset`` is there for range checks.
        """
        out = []
        for seg in self.segments:
            for t in seg.read_txnindex():
                if start_offset is not None and t.last_offset < start_offset:
                    continue
                if end_offset is not None and t.first_offset >= end_offset:
                    continue
                out.append(t)
        out.sort(key=lambda t: (t.first_offset, t.producer_id))
        return out


class LogDir:
    """A broker data directory (``log.dirs`` entry) holding partition directories.

    By default topics whose names start with ``__`` (``__consumer_offsets``,
    ``__transaction_state``, the KRaft ``__cluster_metadata`` log) are left
    out; ``include_internal=True`` brings them in.  Entries that are not
    ``<topic>-<partition>`` directories, and partition directories the broker
    renamed for deletion or a log-dir move (``-delete``, ``-future``,
    ``-stray``), are always skipped and listed in ``ignored``.
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if not self.path.is_dir():
            raise NotADirectoryError(f"not a directory: {self.path}")
        self._entries: dict[tuple[str, int], Path] = {}
        self.ignored: list[str] = []
        for entry in sorted(os.listdir(self.path)):
            full = self.path / entry
            if not full.is_dir():
                continue
            parsed = parse_partition_dir_name(entry)
            if parsed is None:
                self.ignored.append(entry)
            else:
                self._entries[parsed] = full
        self._open: dict[tuple[str, int], PartitionDir] = {}
        self._start_offsets: dict[tuple[str, int], int] | None = None

    def __repr__(self) -> str:
        return f"<LogDir {self.path} partitions={len(self._entries)}>"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        for p in self._open.values():
            p.close()

    @property
    def meta_properties(self) -> dict[str, str]:
        """``meta.properties`` (cluster.id, node.id, ...) or {} when absent."""
        path = self.path / "meta.properties"
        out = {}
        if path.exists():
            for line in path.read_text().splitlines():
                line = line.strip()
                if line and not line.startswith("#") and "=" in line:
                    k, _, v = line.partition("=")
                    out[k.strip()] = v.strip()
        return out

    def checkpoint(self, name: str = "recovery-point-offset-checkpoint") -> dict[tuple[str, int], int]:
        """A per-partition offset checkpoint file of the data directory
        (``recovery-point-``, ``replication-``, ``log-start-``,
        ``cleaner-offset-checkpoint``) as ``{(topic, partition): offset}``;
        {} when the file is absent.
        """
        path = self.path / name
        if not path.exists():
            return {}
        lines = path.read_text().splitlines()
        out = {}
        line_no = 0
        try:
            if int(lines[0]) != 0:
                raise CorruptDataError(f"unknown checkpoint version {lines[0]}", None, f"{name}[0]")
            line_no = 1
            count = int(lines[1])
            if count != len(lines) - 2:
                raise CorruptDataError(f"checkpoint claims {count} entries but has {len(lines) - 2}",
                                       None, f"{name}[1]")
            for line_no, line in enumerate(lines[2:], 2):
                topic, partition, offset = line.split()
                out[(topic, int(partition))] = int(offset)
        except (IndexError, ValueError):
            raise CorruptDataError("malformed offset checkpoint", None, f"{name}[{line_no}]") from None
        return out

    @staticmethod
    def _wanted(topic: str, include_internal: bool) -> bool:
        return include_internal or not topic.startswith("__")

    def topics(self, *, include_internal: bool = False) -> list[str]:
        return sorted({t for t, _ in self._entries if self._wanted(t, include_internal)})

    def partitions(self, topics=None, *, include_internal: bool = False) -> list[PartitionDir]:
        """Partition directories sorted by (topic, partition), optionally only ``topics``."""
        if isinstance(topics, str):
            topics = [topics]
        wanted = None if topics is None else set(topics)
        out = []
        for key in sorted(self._entries):
            topic = key[0]
            if wanted is not None:
                if topic not in wanted:
                    continue
            elif not self._wanted(topic, include_internal):
                continue
            out.append(self.partition(*key))
        return out

    def partition(self, topic: str, partition: int) -> PartitionDir:
        key = (topic, partition)
        if key not in self._entries:
            raise KeyError(f"no partition directory {topic}-{partition} in {self.path}")
        if key not in self._open:
            if self._start_offsets is None:
                self._start_offsets = self.checkpoint("log-start-offset-checkpoint")
            self._open[key] = PartitionDir(self._entries[key], topic, partition,
                                           checkpointed_start_offset=self._start_offsets.get(key))
        return self._open[key]

    def __iter__(self):
        return iter(self.partitions())


def _looks_like_partition(path: Path) -> bool:
    if parse_partition_dir_name(path.name) is None:
        return False
    for name in os.listdir(path):
        if _SEGMENT_FILE.match(name) or name in ("partition.metadata", "leader-epoch-checkpoint"):
            return True
    return False


def open(path: str | os.PathLike, *, kind: str | None = None):  # noqa: A001 - mirrors builtins.open by design
    """Open a broker data directory (:class:`LogDir`) or one partition
    directory (:class:`PartitionDir`), deciding by content unless ``kind`` is
    ``"logdir"`` or ``"partition"``.
    """
    p = Path(path)
    if not p.is_dir():
        raise NotADirectoryError(f"not a directory: {p}")
    if kind is None:
        kind = "partition" if _looks_like_partition(p) else "logdir"
    if kind == "partition":
        return PartitionDir(p)
    if kind == "logdir":
        return LogDir(p)
    raise ValueError(f"kind must be 'logdir' or 'partition', not {kind!r}")
