"""Partition directories (``topic-N``) and broker data directories."""
from __future__ import annotations

import os
import stat as _stat
import re
from bisect import bisect_right
from pathlib import Path
from typing import Iterator, NamedTuple

from kafkacodec.errors import CorruptDataError, TruncatedDataError
from kafkacodec.logdir._errors import (
    LogDirError,
    NotALogDirectoryError,
    ReadStats,
    check_on_corruption,
    corrupt,
    locate_error,
    os_error,
)
from kafkacodec.logdir._headers import BatchHeader, first_offset_of as _first_offset
from kafkacodec.logdir._index import AbortedTxn
from kafkacodec.logdir._segment import Segment, read_leader_epochs, read_small_file

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


def _require_dir(path: Path) -> None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise NotALogDirectoryError("no such directory", path) from None
    except OSError as exc:
        raise os_error(exc, path, "directory") from None
    if not _stat.S_ISDIR(st.st_mode):
        raise NotALogDirectoryError("not a directory", path)


def _listdir(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except OSError as exc:
        raise os_error(exc, path, "directory") from None


def _is_dir(path: Path) -> bool:
    """Whether a directory entry is a directory; a broken entry (symlink loop,
    no permission) is an error naming it rather than silently not a directory."""
    try:
        return _stat.S_ISDIR(os.stat(path).st_mode)
    except FileNotFoundError:
        if os.path.lexists(path):
            raise LogDirError("dangling symbolic link", path) from None
        return False
    except OSError as exc:
        raise os_error(exc, path) from None


def _read_text(path: Path, what: str) -> str | None:
    """A small text file of the log directory, or None when absent."""
    if not os.path.lexists(path):
        return None
    raw = read_small_file(path, what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise corrupt(path, f"{what} is not UTF-8 text", exc.start, path.name) from None


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
    ``is_active`` says the range is in the partition's active segment, the
    only one that may end in a partial batch or shrink (a broker truncating
    it); in a closed segment both are corruption.
    """

    path: str
    start: int
    end: int
    first_offset: int
    segment_base_offset: int
    topic: str = ""
    partition: int = -1
    is_active: bool = False

    @property
    def size(self) -> int:
        return self.end - self.start

    def locate_error(self, exc: CorruptDataError, view_start: int | None = None) -> CorruptDataError:
        """Make an error from decoding :func:`read_range`'s view name this
        range's file and the byte position within it (the view starts at
        ``view_start``, default ``start``)."""
        return locate_error(exc, self.path, self.start if view_start is None else view_start)


def _segment_for_range(byte_range: ByteRange) -> Segment:
    path = Path(byte_range.path)
    m = _SEGMENT_FILE.match(path.name)
    base = int(m.group(1)) if m else byte_range.segment_base_offset
    next_base = None
    if m and not byte_range.is_active:
        # a closed segment's offsets stay below the next segment's base offset
        later = [int(x.group(1)) for x in map(_SEGMENT_FILE.match, _listdir(path.parent)) if x]
        next_base = min((b for b in later if b > base), default=None)
    return Segment(path.parent, base, is_active=byte_range.is_active, log_path=path, next_base_offset=next_base)


def read_range(byte_range: ByteRange, *, on_corruption: str = "error", verify_crc: bool = False,
               stats: ReadStats | None = None) -> memoryview:
    """Read a :class:`ByteRange` (a copy, never a memory map) and return a view
    of its whole batches, every batch header checked on the way.

    A batch whose length runs past the range end or the end of a closed
    segment, an impossible header field or (with ``verify_crc``) a CRC
    mismatch raises CorruptDataError naming the file, the byte position within
    it and the field -- or, with ``on_corruption="skip"``, is left out of the
    view and counted in ``stats`` (a :class:`ReadStats`).  A file now shorter
    than the range end is corruption for a closed segment; for the active
    segment (``is_active``) the whole batches still there are returned and a
    partial one counted in ``stats.truncated_bytes``.

    Errors from decoding the view: ``byte_range.locate_error(exc)`` makes them
    name the file and a file position (exact when nothing was skipped).
    """
    check_on_corruption(on_corruption)
    stats = ReadStats() if stats is None else stats
    if byte_range.end <= byte_range.start:
        return memoryview(b"")
    seg = _segment_for_range(byte_range)
    end = byte_range.end
    if seg.size < end:
        if not byte_range.is_active:
            exc = corrupt(seg.log_path, f"the segment has {seg.size} bytes, fewer than the range end {end}",
                          seg.size, f"{seg.label}.log.size", TruncatedDataError)
            if on_corruption == "error":
                raise exc
            stats.skipped_batches += 1
            stats.skipped_bytes += end - max(seg.size, byte_range.start)
            stats.errors.append(exc)
        end = seg.size
    if byte_range.start >= end:
        return memoryview(b"")
    return seg.read(byte_range.start, end, on_corruption=on_corruption, verify_crc=verify_crc, stats=stats)


class BatchReader:
    """Iterator of memoryviews over whole batches, produced by
    :meth:`PartitionDir.read_batches`.

    While iterating, ``segment`` and ``position`` say where the view last
    returned starts.  ``stats`` (a :class:`ReadStats`) counts what was read
    and left out; ``truncated_bytes`` is the size of the incomplete batch that
    ended the active segment (0 normally).
    """

    def __init__(self, gen_factory):
        self.segment = None
        self.position = None
        self.stats = ReadStats()
        self._gen = gen_factory(self)

    @property
    def truncated_bytes(self) -> int:
        return self.stats.truncated_bytes

    def __iter__(self):
        return self

    def __next__(self) -> memoryview:
        return next(self._gen)


class _ClosedOnExit:
    """``with`` support: close() on leaving the block."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class PartitionDir(_ClosedOnExit):
    """One partition directory: ``<topic>-<partition>/``.

    ``segments`` are sorted by base offset; the last one is the active
    segment (the only one allowed to end in a truncated batch).
    """

    def __init__(self, path: str | os.PathLike, topic: str | None = None, partition: int | None = None, *,
                 checkpointed_start_offset: int | None = None):
        self.path = Path(path)
        self.checkpointed_start_offset = checkpointed_start_offset
        _require_dir(self.path)
        parsed = parse_partition_dir_name(self.path.name)
        if topic is None or partition is None:
            if parsed is None:
                raise ValueError(f"{self.path.name!r} is not a <topic>-<partition> directory name")
            topic = parsed[0] if topic is None else topic
            partition = parsed[1] if partition is None else partition
        self.topic = topic
        self.partition = partition
        bases = sorted(int(m.group(1)) for m in map(_SEGMENT_FILE.match, _listdir(self.path)) if m)
        nexts = bases[1:] + [None]
        self.segments = [Segment(self.path, b, is_active=n is None, next_base_offset=n)
                         for b, n in zip(bases, nexts)]
        self._bases = bases

    def __repr__(self) -> str:
        return f"<PartitionDir {self.topic}-{self.partition} segments={len(self.segments)}>"

    def close(self) -> None:
        """Close the segment files."""
        for s in self.segments:
            s.close()

    # ------------------------------------------------------------ metadata files
    @property
    def topic_id(self) -> str | None:
        """Topic id from ``partition.metadata`` (base64 UUID), if present."""
        text = _read_text(self.path / "partition.metadata", "partition metadata")
        if text is None:
            return None
        for line in text.splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "topic_id":
                return value.strip()
        return None

    @property
    def leader_epochs(self) -> list[tuple[int, int]]:
        """``(epoch, start_offset)`` pairs from ``leader-epoch-checkpoint``."""
        return read_leader_epochs(self.path / "leader-epoch-checkpoint")

    @property
    def kraft_snapshots(self) -> list[KraftSnapshot]:
        """KRaft metadata snapshots (``<end offset>-<epoch>.checkpoint``, record
        batches like a segment) sorted by end offset; empty for ordinary topics.
        """
        out = []
        for name in _listdir(self.path):
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
    def lookup_offset(self, offset: int, *, on_corruption: str = "error") -> LogPosition | None:
        """The batch holding ``offset``: the first batch whose last offset is
        >= ``offset`` (after a compaction gap, the next batch).  None past the end.

        Uses the segment's ``.index`` then walks batch headers forward.
        """
        i = max(bisect_right(self._bases, offset) - 1, 0)
        for seg in self.segments[i:]:
            h = seg.find_offset(offset, on_corruption=on_corruption)
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
    def batches(self, start_offset: int | None = None, end_offset: int | None = None, *,
                on_corruption: str = "error", stats: ReadStats | None = None
                ) -> Iterator[tuple[Segment, BatchHeader]]:
        """``(segment, header)`` for every batch that may hold offsets in
        ``[start_offset, end_offset)``, every header checked: only the active
        segment may end in a partial batch (counted and logged in ``stats``,
        when given); anything else raises CorruptDataError, or is skipped and
        counted with ``on_corruption="skip"``.
        """
        check_on_corruption(on_corruption)
        for seg, start in self._start_points(start_offset, on_corruption):
            walk = seg.headers(start, on_corruption=on_corruption, stats=stats)
            prev_next = None
            for h in walk:
                first = _first_offset(h, prev_next, seg.base_offset)
                if end_offset is not None and first >= end_offset:
                    walk.close()
                    return
                prev_next = h.last_offset + 1
                yield seg, h

    def _start_points(self, start_offset, on_corruption="error"):
        if start_offset is None:
            return [(s, 0) for s in self.segments]
        pos = self.lookup_offset(start_offset, on_corruption=on_corruption)
        if pos is None:
            return []
        i = self.segments.index(pos.segment)
        return [(pos.segment, pos.position)] + [(s, 0) for s in self.segments[i + 1:]]

    def read_batches(self, start_offset: int | None = None, end_offset: int | None = None, *,
                     per_batch: bool = False, check_headers: bool = True, on_corruption: str = "error",
                     verify_crc: bool = False) -> BatchReader:
        """Read-only views over the whole batches that may hold offsets in
        ``[start_offset, end_offset)``: runs of up to 16 MiB of consecutive
        batches (one per segment for most segments), or one view per batch
        with ``per_batch``.  The first and last batches can hold offsets
        outside the range (batches are never split); filter records by offset.

        Views are copies read with ``pread`` (a broker truncating the log
        cannot crash the reader).  Every batch header is checked on the way
        (``check_headers`` is accepted for compatibility), CRCs too with
        ``verify_crc``.  A batch running past the end of a closed segment, or
        any other corruption, raises CorruptDataError naming the file, the byte
        position within it and the field; with ``on_corruption="skip"`` it is
        left out and counted in the reader's ``stats``.  A partial batch at the
        end of the active segment is left out, counted in
        ``stats.truncated_bytes`` / ``stats.partial_batches`` / ``stats.torn_tails``
        and logged as a warning on the ``kafkacodec.logdir`` logger.
        """
        check_on_corruption(on_corruption)

        def gen(reader: BatchReader):
            for seg, start in self._start_points(start_offset, on_corruption):
                if end_offset is not None and start == 0 and seg.base_offset >= end_offset:
                    return
                valid = seg.valid_end(on_corruption)
                stop = seg.end_position(end_offset, on_corruption=on_corruption)
                if stop < start:
                    return
                # up to the end of the file when reading to the end, so the walk sees (and counts) a partial tail
                walk_end = seg.size if stop == valid else stop
                for pos, view in seg.iter_views(start, walk_end, per_batch=per_batch, on_corruption=on_corruption,
                                                verify_crc=verify_crc, stats=reader.stats):
                    reader.segment, reader.position = seg, pos
                    yield view
                if end_offset is not None and stop < valid:
                    return
        return BatchReader(gen)

    def split(self, max_bytes: int, start_offset: int | None = None, end_offset: int | None = None, *,
              on_corruption: str = "error") -> list[ByteRange]:
        """Cut the log into byte ranges of at most ``max_bytes`` (a single
        batch larger than that gets a range of its own), each starting and
        ending at batch boundaries, covering every whole batch exactly once
        -- or, with offsets, every batch that may hold offsets in
        ``[start_offset, end_offset)``.

        Cut points come from ``.index`` positions, checked against the batch
        header found there and moved forward by walking headers, so the cost
        is a few header reads per range rather than a scan of the log; the
        batches in between are checked by :func:`read_range`.  Corruption met
        here raises CorruptDataError; with ``on_corruption="skip"`` it stays
        inside a range, for ``read_range(..., on_corruption="skip")`` to skip
        and count.  Ranges of the active segment have ``is_active`` set.
        """
        if max_bytes <= 0:
            raise ValueError("max_bytes must be positive")
        check_on_corruption(on_corruption)
        out: list[ByteRange] = []
        tag = (self.topic, self.partition)
        for seg, lo in self._start_points(start_offset, on_corruption):
            if end_offset is not None and lo == 0 and seg.base_offset >= end_offset:
                break
            hi = seg.end_position(end_offset, on_corruption=on_corruption)
            if hi > lo:
                out.extend(self._split_segment(seg, lo, hi, max_bytes, tag, on_corruption))
            if end_offset is not None and hi < seg.valid_end(on_corruption):
                break
        return out

    @staticmethod
    def _split_segment(seg: Segment, lo: int, hi: int, max_bytes: int, tag, on_corruption="error"
                       ) -> list[ByteRange]:
        skip = on_corruption == "skip"
        index = seg._index_or_empty() if skip else seg.read_index()
        positions = [e.position for e in index]
        path = str(seg.log_path)
        out = []
        start = lo
        prev_next = seg.base_offset

        def first_at(pos):
            # the first sound batch at or after pos (skip mode walks past corrupt ones)
            walk = seg.headers(pos, hi, on_corruption=on_corruption)
            h = next(walk, None)
            walk.close()
            return h

        h0 = None
        while start < hi:
            if h0 is None or h0.position != start:
                h0 = first_at(start)
            if h0 is None:  # nothing sound left in the segment (skip mode)
                out.append(ByteRange(path, start, hi, prev_next, seg.base_offset, *tag, seg.is_active))
                break
            first = h0.base_offset
            target = start + max_bytes
            if target >= hi:
                out.append(ByteRange(path, start, hi, first, seg.base_offset, *tag, seg.is_active))
                break
            i = bisect_right(positions, target) - 1
            cut = h0.position
            if i >= 0 and positions[i] > h0.position:
                h = None
                try:
                    h = seg.header_at(positions[i])
                except CorruptDataError:
                    if not skip:
                        raise
                if h is not None and h.base_offset <= index[i].offset:
                    cut = positions[i]
                elif not skip:
                    raise corrupt(seg.index_path,
                                  f"index entry ({index[i].offset}, {positions[i]}) does not point at a batch "
                                  f"holding its offset", i * 8, f"{seg.label}.index[{i}]")
            last = following = None
            if cut == h0.position:  # h0 is read already: walk on from its end
                if h0.end > target:
                    cut = h0.end
                    hi_walk = cut
                else:
                    cut, last, hi_walk = h0.end, h0, hi
            else:
                hi_walk = hi
            walk = seg.headers(cut, hi_walk, on_corruption=on_corruption)
            for h in walk:
                if h.end > target:
                    following = h
                    break
                cut = h.end
                last = h
            walk.close()
            if cut <= start:  # one batch larger than max_bytes
                cut = h0.end
                following = None
            h0 = following  # the header at the next start, when the walk already read it
            if last is not None:
                prev_next = last.last_offset + 1
            out.append(ByteRange(path, start, cut, first, seg.base_offset, *tag, seg.is_active))
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


class LogDir(_ClosedOnExit):
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
        _require_dir(self.path)
        self._entries: dict[tuple[str, int], Path] = {}
        self.ignored: list[str] = []
        for entry in sorted(_listdir(self.path)):
            full = self.path / entry
            parsed = parse_partition_dir_name(entry)
            if parsed is None:
                if os.path.isdir(full):
                    self.ignored.append(entry)
            elif _is_dir(full):  # strict: a broken partition directory is an error, not a missing partition
                self._entries[parsed] = full
        self._open: dict[tuple[str, int], PartitionDir] = {}
        self._start_offsets: dict[tuple[str, int], int] | None = None

    def __repr__(self) -> str:
        return f"<LogDir {self.path} partitions={len(self._entries)}>"

    def close(self) -> None:
        """Close every partition directory opened through this one."""
        for p in self._open.values():
            p.close()

    @property
    def meta_properties(self) -> dict[str, str]:
        """``meta.properties`` (cluster.id, node.id, ...) or {} when absent."""
        text = _read_text(self.path / "meta.properties", "meta.properties")
        out = {}
        if text is not None:
            for line in text.splitlines():
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
        text = _read_text(path, "offset checkpoint")
        if text is None:
            return {}
        lines = text.splitlines()
        out = {}
        line_no = 0
        try:
            if int(lines[0]) != 0:
                raise corrupt(path, f"unknown checkpoint version {lines[0]}", None, f"{name}[0]")
            line_no = 1
            count = int(lines[1])
            if count != len(lines) - 2:
                raise corrupt(path, f"checkpoint claims {count} entries but has {len(lines) - 2}",
                              None, f"{name}[1]")
            for line_no, line in enumerate(lines[2:], 2):
                topic, partition, offset = line.split()
                out[(topic, int(partition))] = int(offset)
        except CorruptDataError:
            raise
        except (IndexError, ValueError):
            raise corrupt(path, "malformed offset checkpoint", None, f"{name}[{line_no}]") from None
        return out

    @staticmethod
    def _wanted(topic: str, include_internal: bool) -> bool:
        return include_internal or not topic.startswith("__")

    def topics(self, *, include_internal: bool = False) -> list[str]:
        """The topics with partition directories here, sorted (internal ones, such as
        ``__consumer_offsets``, only with ``include_internal``)."""
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
        """The directory ``<topic>-<partition>``; KeyError when there is none."""
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
    for name in _listdir(path):
        if _SEGMENT_FILE.match(name) or name in ("partition.metadata", "leader-epoch-checkpoint"):
            return True
    return False


def open(path: str | os.PathLike, *, kind: str | None = None):  # noqa: A001 - mirrors builtins.open by design
    """Open a broker data directory (:class:`LogDir`) or one partition
    directory (:class:`PartitionDir`), deciding by content unless ``kind`` is
    ``"logdir"`` or ``"partition"``.
    """
    p = Path(path)
    _require_dir(p)
    if kind is None:
        kind = "partition" if _looks_like_partition(p) else "logdir"
    if kind == "partition":
        return PartitionDir(p)
    if kind == "logdir":
        return LogDir(p)
    raise ValueError(f"kind must be 'logdir' or 'partition', not {kind!r}")
