"""Spark filters on the Kafka columns turned into what to read.

Both sources (``kafka-log`` and ``kafka-live``) share this: ``topic`` and
``partition`` equality and IN choose partitions, ``offset`` comparisons cut
each partition's offset range, and a lower bound on ``timestamp`` becomes a
start offset (Kafka's offsetsForTimes: the first offset whose timestamp is at
or after it; every earlier offset is older).

Topic, partition and offset filters are exact, so Spark need not check them
again.  Timestamp filters are always handed back: Kafka timestamps need not
rise with the offset (CreateTime), so the start offset only skips what is
certainly older, and an upper bound cannot cut the range at all.
"""
from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from pyspark.sql.datasource import Filter

__all__ = ["Pushed", "push_filters", "timestamp_ms", "split_counts"]

_T = TypeVar("_T")


@dataclass(frozen=True)
class Pushed:
    """The pushed-down part of a query (None: no restriction)."""

    topics: frozenset[str] | None = None
    partitions: frozenset[int] | None = None     # partition numbers
    min_offset: int | None = None           # first offset to read
    end_offset: int | None = None           # offset to stop before
    min_timestamp: int | None = None        # ms: skip what is certainly older

    def allows(self, topic: str, partition: int) -> bool:
        return ((self.topics is None or topic in self.topics)
                and (self.partitions is None or partition in self.partitions))

    @overload
    def bounds(self, start: int, end: int) -> tuple[int, int]: ...
    @overload
    def bounds(self, start: int | None, end: int | None) -> tuple[int | None, int | None]: ...

    def bounds(self, start: int | None, end: int | None) -> tuple[int | None, int | None]:
        """``(start, end)`` narrowed by the offset filters."""
        if self.min_offset is not None:
            start = self.min_offset if start is None else max(start, self.min_offset)
        if self.end_offset is not None:
            end = self.end_offset if end is None else min(end, self.end_offset)
        return start, end

    @property
    def empty(self) -> bool:
        return (self.topics is not None and not self.topics) or (self.partitions is not None and not self.partitions) \
            or (self.min_offset is not None and self.end_offset is not None and self.min_offset >= self.end_offset)


def timestamp_ms(value: object, *, ceil: bool) -> int | None:
    """A filter's timestamp literal in ms since the epoch (rounded up with
    ``ceil``, else down); None for a value that is not a timestamp.  Naive
    datetimes are UTC, as Spark sends timestamp literals."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        delta = value - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        us = (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds
        return -((-us) // 1000) if ceil else us // 1000
    return None


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _intersect(old: frozenset[_T] | None, new: Iterable[_T]) -> frozenset[_T]:
    return frozenset(new) if old is None else old & frozenset(new)


def push_filters(filters: Iterable[Filter], *, timestamp_column: str = "timestamp") -> tuple[Pushed, list[Filter]]:
    """``(Pushed, remaining)``: what the filters (ANDed) say about topics,
    partitions, offsets and the start timestamp, and the filters Spark must
    still evaluate (the very objects given)."""
    from pyspark.sql.datasource import EqualTo, GreaterThan, GreaterThanOrEqual, In, LessThan, LessThanOrEqual

    topics: frozenset[str] | None = None
    partitions: frozenset[int] | None = None
    lo: int | None = None
    hi: int | None = None
    ts: int | None = None
    remaining: list[Filter] = []
    for f in filters:
        col = f.attribute if hasattr(f, "attribute") else None
        name = col[0] if col is not None and len(col) == 1 else None
        value: Any = getattr(f, "value", None)
        used = False
        if name == "topic":
            if isinstance(f, EqualTo) and isinstance(value, str):
                topics, used = _intersect(topics, (value,)), True
            elif isinstance(f, In) and all(isinstance(v, str) for v in value):
                topics, used = _intersect(topics, value), True
        elif name == "partition":
            if isinstance(f, EqualTo) and _is_int(value):
                partitions, used = _intersect(partitions, (value,)), True
            elif isinstance(f, In) and all(_is_int(v) for v in value):
                partitions, used = _intersect(partitions, value), True
        elif name == "offset":
            new_lo: int | None = None
            new_hi: int | None = None
            if isinstance(f, EqualTo) and _is_int(value):
                new_lo, new_hi = value, value + 1
            elif isinstance(f, In) and value and all(_is_int(v) for v in value):
                # the span of the listed offsets; Spark keeps the exact test
                new_lo, new_hi = min(value), max(value) + 1
            elif isinstance(f, GreaterThan) and _is_int(value):
                new_lo = value + 1
            elif isinstance(f, GreaterThanOrEqual) and _is_int(value):
                new_lo = value
            elif isinstance(f, LessThan) and _is_int(value):
                new_hi = value
            elif isinstance(f, LessThanOrEqual) and _is_int(value):
                new_hi = value + 1
            if new_lo is not None or new_hi is not None:
                if new_lo is not None:
                    lo = new_lo if lo is None else max(lo, new_lo)
                if new_hi is not None:
                    hi = new_hi if hi is None else min(hi, new_hi)
                used = not isinstance(f, In)
        elif name == timestamp_column:
            bound = None
            if isinstance(f, (GreaterThanOrEqual, EqualTo)):
                bound = timestamp_ms(value, ceil=True)
            elif isinstance(f, GreaterThan):
                low = timestamp_ms(value, ceil=False)
                bound = None if low is None else low + 1
            if bound is not None:
                ts = bound if ts is None else max(ts, bound)
            # never used: rows past the start offset may still be older (see above)
        if not used:
            remaining.append(f)
    lo = None if lo is None else max(lo, 0)
    return Pushed(topics, partitions, lo, hi, ts), remaining


def split_counts(sizes: list[int], min_parts: int | None) -> list[int]:
    """How many pieces to cut each of ``sizes`` into so there are at least
    ``min_parts`` pieces in all, larger ranges cut more (Spark's Kafka source
    does the same with offset ranges)."""
    if not min_parts or len(sizes) >= min_parts:
        return [1] * len(sizes)
    total = sum(sizes)
    if total <= 0:
        return [1] * len(sizes)
    return [max(1, min(s, math.ceil(s * min_parts / total))) if s > 0 else 1 for s in sizes]
