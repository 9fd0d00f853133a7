"""One log segment: ``<base offset>.log`` and its index files."""
from __future__ import annotations

import mmap
import os
from bisect import bisect_left, bisect_right
from pathlib import Path

from kafkacodec.errors import CorruptDataError
from kafkacodec.logdir._headers import BatchHeader, HeaderWalk, first_offset_of, read_header
from kafkacodec.logdir._index import (
    AbortedTxn,
    IndexEntry,
    TimeIndexEntry,
    parse_offset_index,
    parse_time_index,
    parse_txn_index,
)

__all__ = ["Segment"]

_EMPTY = memoryview(b"")


class Segment:
    """A segment of a partition log.

    ``size`` is the ``.log`` size when the segment was opened; bytes a live
    broker appends later are not seen.  Index paths are None when the file
    does not exist (the ``.txnindex`` is created lazily by the broker, and
    offset/time indexes may be absent in partial copies).

    The ``.log`` is memory-mapped on first use; every view handed out keeps
    the mapping alive, so views stay valid after :meth:`close`.
    """

    def __init__(self, directory: str | os.PathLike, base_offset: int, *, is_active: bool = False,
                 next_base_offset: int | None = None):
        directory = Path(directory)
        self.directory = directory
        self.base_offset = base_offset
        self.name = f"{base_offset:020d}"
        self.is_active = is_active
        self.next_base_offset = next_base_offset
        self.log_path = directory / (self.name + ".log")
        self.index_path = self._optional(".index")
        self.timeindex_path = self._optional(".timeindex")
        self.txnindex_path = self._optional(".txnindex")
        self.size = self.log_path.stat().st_size
        self._map = None
        self._view = None
        self._index = None
        self._index_offsets = None
        self._timeindex = None
        self._timeindex_ts = None
        self._txnindex = None
        self._tail = None  # (valid_size, truncated_bytes, last BatchHeader or None)

    def _optional(self, suffix: str) -> Path | None:
        path = self.directory / (self.name + suffix)
        return path if path.exists() else None

    def __repr__(self) -> str:
        state = "active" if self.is_active else "closed"
        return f"<Segment {self.directory.name}/{self.name} {self.size} bytes {state}>"

    # ------------------------------------------------------------ error paths
    @property
    def label(self) -> str:
        return f"segment[{self.name}]"

    def _where(self, suffix: str) -> str:
        return f"{self.label}{suffix}"

    # ------------------------------------------------------------ raw data
    @property
    def data(self) -> memoryview:
        """The whole ``.log`` (first ``size`` bytes), memory-mapped, zero-copy."""
        if self._view is None:
            if self.size == 0:
                self._view = _EMPTY
            else:
                with open(self.log_path, "rb") as f:
                    self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                # a log truncated after we stat'ed it: trust what is mapped
                self.size = min(self.size, len(self._map))
                self._view = memoryview(self._map)[: self.size]
        return self._view

    def close(self) -> None:
        """Drop this object's mapping; views already handed out keep working."""
        if self._view is not None and self._view is not _EMPTY:
            self._view.release()
        self._view = None
        if self._map is not None:
            try:
                self._map.close()
            except BufferError:
                pass  # exported views still use it; it is unmapped when they go away
            self._map = None

    # ------------------------------------------------------------ indexes
    def read_index(self) -> list[IndexEntry]:
        """``.index`` entries as absolute offsets and positions (cached)."""
        if self._index is None:
            if self.index_path is None:
                self._index = []
            else:
                raw = self.index_path.read_bytes()
                index = parse_offset_index(raw, self.base_offset, self.size, self._where(".index"))
                self._check_below_next_segment(index, ".index", 8, 0)
                self._index = index
            self._index_offsets = [e.offset for e in self._index]
        return self._index

    def _check_below_next_segment(self, entries, suffix: str, entry_size: int, field_at: int) -> None:
        # offsets of one segment stay below the next segment's base offset
        limit = self.next_base_offset
        if limit is None or not entries or entries[-1].offset < limit:
            return
        i = next(k for k, e in enumerate(entries) if e.offset >= limit)
        raise CorruptDataError(
            f"offset {entries[i].offset} is not below the next segment's base offset {limit}",
            i * entry_size + field_at, self._where(f"{suffix}[{i}]"))

    def read_timeindex(self) -> list[TimeIndexEntry]:
        """``.timeindex`` entries (cached)."""
        if self._timeindex is None:
            if self.timeindex_path is None:
                self._timeindex = []
            else:
                raw = self.timeindex_path.read_bytes()
                tindex = parse_time_index(raw, self.base_offset, self._where(".timeindex"))
                self._check_below_next_segment(tindex, ".timeindex", 12, 8)
                self._timeindex = tindex
            self._timeindex_ts = [e.timestamp for e in self._timeindex]
        return self._timeindex

    def read_txnindex(self) -> list[AbortedTxn]:
        """``.txnindex`` entries: the aborted transactions whose markers are in this segment."""
        if self._txnindex is None:
            if self.txnindex_path is None:
                self._txnindex = []
            else:
                raw = self.txnindex_path.read_bytes()
                self._txnindex = parse_txn_index(raw, self.base_offset, self._where(".txnindex"))
        return self._txnindex

    # ------------------------------------------------------------ batch walking
    def headers(self, start: int = 0, end: int | None = None) -> HeaderWalk:
        """Batch headers from byte ``start`` (a batch boundary) to ``end``."""
        end = self.size if end is None else end
        return HeaderWalk(self.data, start, end, self._where(".log"))

    def header_at(self, position: int) -> BatchHeader | None:
        """Header of the batch at ``position``, or None for a truncated tail."""
        return read_header(self.data, position, self.size, self._where(".log"))

    def _scan_tail(self):
        if self._tail is None:
            index = self.read_index()
            start = index[-1].position if index else 0
            walk = self.headers(start)
            last = None
            for last in walk:
                pass
            if last is None and start > 0:
                raise CorruptDataError("last index entry does not point at a batch", start,
                                       self._where(".log"))
            walk.finish(allow_truncated=self.is_active)
            self._tail = (walk.position, walk.truncated_bytes, last)
        return self._tail

    @property
    def valid_size(self) -> int:
        """Where the last whole batch ends (``size`` minus a truncated tail)."""
        return self._scan_tail()[0]

    @property
    def truncated_bytes(self) -> int:
        """Bytes of an incomplete trailing batch (only tolerated in the active segment)."""
        return self._scan_tail()[1]

    @property
    def last_batch(self) -> BatchHeader | None:
        return self._scan_tail()[2]

    @property
    def next_offset(self) -> int:
        """Offset after the last batch; the base offset for an empty segment."""
        last = self.last_batch
        return self.base_offset if last is None else last.last_offset + 1

    # ------------------------------------------------------------ seeking
    def index_position(self, offset: int) -> int:
        """Byte position to scan from for ``offset``: the largest indexed entry at or below it."""
        self.read_index()
        i = bisect_right(self._index_offsets, offset) - 1
        return self._index[i].position if i >= 0 else 0

    def find_offset(self, offset: int) -> BatchHeader | None:
        """First batch whose last offset is >= ``offset`` (the one holding it), or None."""
        for h in self.headers(self.index_position(offset)):
            if h.last_offset >= offset:
                return h
        return None

    def find_timestamp(self, timestamp: int) -> BatchHeader | None:
        """First batch whose max timestamp is >= ``timestamp``, or None."""
        tindex = self.read_timeindex()
        if not self.is_active and tindex and tindex[-1].timestamp < timestamp:
            # a rolled segment's last time-index entry is its largest timestamp (the broker
            # appends it on roll and relies on it the same way)
            return None
        # the entry strictly below the target: every batch up to its offset is older
        j = bisect_left(self._timeindex_ts, timestamp) - 1
        start_offset = self._timeindex[j].offset if j >= 0 else self.base_offset
        for h in self.headers(self.index_position(start_offset)):
            if h.max_timestamp >= timestamp:
                return h
        return None

    def end_position(self, end_offset: int | None) -> int:
        """Byte position where the batches that may hold offsets below
        ``end_offset`` end: the first batch starting at or after
        ``end_offset``, else :attr:`valid_size`.
        """
        valid = self.valid_size
        if end_offset is None:
            return valid
        if end_offset <= self.base_offset:
            return 0
        # batches before the indexed one all end below end_offset
        walk = self.headers(self.index_position(end_offset - 1), valid)
        prev_next = None
        for h in walk:
            if first_offset_of(h, prev_next, self.base_offset) >= end_offset:
                return h.position
            prev_next = h.last_offset + 1
        return valid

    # ------------------------------------------------------------ reading
    def read(self, start: int = 0, end: int | None = None, *, check: bool = True) -> memoryview:
        """Zero-copy view of the whole batches in ``[start, end)``.

        ``end=None`` means the end of the last whole batch, so a truncated
        tail of the active segment is left out (see :attr:`truncated_bytes`).
        With ``check`` the batch headers in the range are walked to make sure
        both ends are batch boundaries.
        """
        if end is None:
            end = self.valid_size
        if not 0 <= start <= end <= self.size:
            raise ValueError(f"byte range [{start}, {end}) outside the segment (0..{self.size})")
        if check and start < end:
            walk = self.headers(start, end)
            for _ in walk:
                pass
            if walk.truncated_bytes:
                if end == self.size and self.is_active:
                    end = walk.position
                else:
                    raise CorruptDataError(f"range end {end} is not a batch boundary", walk.position,
                                           self._where(".log"))
        return self.data[start:end]
