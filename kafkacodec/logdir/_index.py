"""Parsers for the three per-segment index files.

``.index`` and ``.timeindex`` of the active segment are preallocated by the
broker (10 MiB of zeros by default) and trimmed only when the segment is
closed, so a copy of a running broker's directory has zero padding after the
real entries.  An all-zero entry anywhere after the first one ends the index
(the first entry may legitimately be all zeros); everything after it must be
zero as well.  A file of nothing but zeros that is longer than one entry is a
preallocated index without entries (a trimmed file holding one zero entry
keeps it).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kafkacodec.errors import CorruptDataError

__all__ = [
    "IndexEntry",
    "TimeIndexEntry",
    "AbortedTxn",
    "parse_offset_index",
    "offset_index_arrays",
    "parse_time_index",
    "parse_txn_index",
    "OFFSET_ENTRY_SIZE",
    "TIME_ENTRY_SIZE",
    "TXN_ENTRY_SIZE",
]

OFFSET_ENTRY_SIZE = 8
TIME_ENTRY_SIZE = 12
TXN_ENTRY_SIZE = 34

_OFFSET_DTYPE = np.dtype([("rel", ">i4"), ("pos", ">i4")])
_TIME_DTYPE = np.dtype([("ts", ">i8"), ("rel", ">i4")])
_TXN_DTYPE = np.dtype([("version", ">i2"), ("producer_id", ">i8"), ("first", ">i8"),
                       ("last", ">i8"), ("lso", ">i8")])
assert (_OFFSET_DTYPE.itemsize, _TIME_DTYPE.itemsize, _TXN_DTYPE.itemsize) == (
    OFFSET_ENTRY_SIZE, TIME_ENTRY_SIZE, TXN_ENTRY_SIZE)


class IndexEntry(NamedTuple):
    """``.index`` entry: the batch (or append) starting at ``position`` ends at ``offset``."""

    offset: int
    position: int


class TimeIndexEntry(NamedTuple):
    """``.timeindex`` entry: the largest timestamp so far and the offset it was seen at."""

    timestamp: int
    offset: int


class AbortedTxn(NamedTuple):
    """``.txnindex`` entry.

    Field order puts ``(producer_id, first_offset)`` first, so an entry can be
    passed wherever a Fetch-response aborted-transaction pair is expected.
    """

    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int


def _used_entries(raw: bytes, entry_size: int, arr, zero_mask, path: str, what: str) -> int:
    """Number of real entries before zero padding; validates the padding."""
    n = len(arr)
    used = n
    if n > 1:
        hits = np.flatnonzero(zero_mask[1:])
        if len(hits):
            used = int(hits[0]) + 1
    tail_start = used * entry_size
    if used < n or len(raw) % entry_size:
        tail = np.frombuffer(raw, dtype=np.uint8, offset=tail_start)
        nonzero = np.flatnonzero(tail)
        if len(nonzero):
            at = tail_start + int(nonzero[0])
            if used == n:
                raise CorruptDataError(
                    f"{what} file length {len(raw)} is not a multiple of the entry size {entry_size}",
                    tail_start, path)
            raise CorruptDataError(f"non-zero bytes in {what} padding after entry {used - 1}", at,
                                   f"{path}[{at // entry_size}]")
    if used == 1 and len(raw) > entry_size and zero_mask[0]:
        # nothing but zeros: a freshly preallocated index with no entries yet
        return 0
    return used


def _columns(raw: bytes, dtype, path: str, what: str):
    """The two fields of a two-field index file as int64 arrays cut to the real
    entries, and ``check(bad, first, field_at, message)``, which raises for the
    first entry where ``bad`` holds (``bad[k]`` is about entry ``first + k``), at
    that entry's field starting ``field_at`` bytes in."""
    size = dtype.itemsize
    arr = np.frombuffer(raw, dtype=dtype, count=len(raw) // size)
    a, b = (arr[name].astype(np.int64) for name in dtype.names)
    used = _used_entries(raw, size, arr, (a == 0) & (b == 0), path, what)

    def check(bad, first: int, field_at: int, message) -> None:
        hits = np.flatnonzero(bad)
        if len(hits):
            i = int(hits[0]) + first
            raise CorruptDataError(message(i), i * size + field_at, f"{path}[{i}]")
    return a[:used], b[:used], check


def parse_offset_index(raw: bytes, base_offset: int, log_size: int | None, path: str) -> list[IndexEntry]:
    """Entries of an ``.index`` file, validated.

    Offsets and positions must both increase strictly, and positions must lie
    inside the ``.log`` file when its size is given.
    """
    offsets, pos = offset_index_arrays(raw, base_offset, log_size, path)
    return [IndexEntry(o, p) for o, p in zip(offsets.tolist(), pos.tolist())]


def offset_index_arrays(raw: bytes, base_offset: int, log_size: int | None, path: str):
    """:func:`parse_offset_index` as two int64 arrays (absolute offsets,
    positions): a large index costs no Python object per entry."""
    rel, pos, check = _columns(raw, _OFFSET_DTYPE, path, "offset index")
    if len(rel):
        check(rel < 0, 0, 0, lambda i: f"negative relative offset {int(rel[i])}")
        check(pos < 0, 0, 4, lambda i: f"negative position {int(pos[i])}")
        check(rel[1:] <= rel[:-1], 1, 0, lambda i: f"offset {base_offset + int(rel[i])} does not increase "
                                                   f"over the previous entry's {base_offset + int(rel[i - 1])}")
        check(pos[1:] <= pos[:-1], 1, 4, lambda i: f"position {int(pos[i])} does not increase over the "
                                                   f"previous entry's {int(pos[i - 1])}")
        if log_size is not None:
            # position 0 is the start of the log even when the log is still empty
            check((pos >= log_size) & (pos > 0), 0, 4,
                  lambda i: f"position {int(pos[i])} is beyond the end of the log ({log_size} bytes)")
    return rel + base_offset, pos


def parse_time_index(raw: bytes, base_offset: int, path: str) -> list[TimeIndexEntry]:
    """Entries of a ``.timeindex`` file, validated (timestamps and offsets never decrease)."""
    ts, rel, check = _columns(raw, _TIME_DTYPE, path, "time index")
    if len(ts):
        check(rel < 0, 0, 8, lambda i: f"negative relative offset {int(rel[i])}")
        # compared pairwise, not through np.diff: the difference of two int64 timestamps can wrap
        check(ts[1:] < ts[:-1], 1, 0, lambda i: f"timestamp {int(ts[i])} is below the previous entry's "
                                                f"{int(ts[i - 1])}")
        check(rel[1:] < rel[:-1], 1, 8, lambda i: f"offset {base_offset + int(rel[i])} is below the previous "
                                                  f"entry's {base_offset + int(rel[i - 1])}")
    offsets = (rel + base_offset).tolist()
    return [TimeIndexEntry(t, o) for t, o in zip(ts.tolist(), offsets)]


def parse_txn_index(raw: bytes, base_offset: int, path: str) -> list[AbortedTxn]:
    """Entries of a ``.txnindex`` file (never preallocated, so no padding)."""
    if len(raw) % TXN_ENTRY_SIZE:
        n = len(raw) // TXN_ENTRY_SIZE
        raise CorruptDataError(
            f"transaction index length {len(raw)} is not a multiple of the entry size {TXN_ENTRY_SIZE}",
            n * TXN_ENTRY_SIZE, f"{path}[{n}]")
    arr = np.frombuffer(raw, dtype=_TXN_DTYPE)
    out = []
    prev_last = None
    for i, (version, pid, first, last, lso) in enumerate(arr.tolist()):
        at = i * TXN_ENTRY_SIZE
        where = f"{path}[{i}]"
        if version != 0:
            raise CorruptDataError(f"unknown aborted-transaction entry version {version}", at, where)
        if pid < 0:
            raise CorruptDataError(f"negative producer id {pid}", at + 2, where)
        if first > last:
            raise CorruptDataError(f"first offset {first} is after last offset {last}", at + 10, where)
        if last < base_offset:
            raise CorruptDataError(f"last offset {last} is below the segment base offset {base_offset}",
                                   at + 18, where)
        if prev_last is not None and last <= prev_last:
            raise CorruptDataError(f"last offset {last} does not increase over the previous entry's "
                                   f"{prev_last}", at + 18, where)
        prev_last = last
        out.append(AbortedTxn(pid, first, last, lso))
    return out
