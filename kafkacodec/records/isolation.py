"""The isolation level, defined once for every layer (the decoders, the
client's settings and requests, the Spark sources), and the isolation-level
arguments every decoder shares (records and Arrow, compiled and pure): one
place decides what read_committed needs."""
from __future__ import annotations

import enum
from typing import Callable

__all__ = ["IsolationLevel", "read_committed", "aborted_pairs"]


class IsolationLevel(enum.IntEnum):
    """isolation.level, with the values the wire carries (Fetch, ListOffsets).

    Settings and arguments are parsed into it once; it is an int, so requests take
    it as it is and the record decoders accept it; str() gives Kafka's name back."""

    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    @classmethod
    def find(cls, value: object) -> IsolationLevel | None:
        """The level ``value`` names: an IsolationLevel, Kafka's name (any case, blanks
        around it) or the wire's 0 / 1 (not a bool); None for anything else."""
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            text = value.strip().lower()
            for level in cls:
                if text == str(level):
                    return level
        elif isinstance(value, int) and not isinstance(value, bool) and value in cls._value2member_map_:
            return cls(value)
        return None

    @classmethod
    def parse(cls, value: object, setting: str = "isolation.level",
              error: Callable[[str], Exception] = ValueError) -> IsolationLevel:
        """The level ``value`` names (see :meth:`find`); anything else is an ``error``
        naming ``setting`` (each layer raises its own: the client a ConfigError)."""
        level = cls.find(value)
        if level is None:
            raise error(f"{setting}: expected {' or '.join(map(str, cls))}, got {value!r}")
        return level


def read_committed(isolation_level, aborted_transactions):
    """True for read_committed, False for read_uncommitted.

    read_committed cannot be honoured from the record bytes alone: the
    aborted ranges come from the Fetch response (or a .txnindex).  Asking for
    it without saying which transactions aborted is refused rather than
    silently returning aborted records; pass ``[]`` when there are none.
    """
    level = IsolationLevel.find(isolation_level)
    if level is IsolationLevel.READ_COMMITTED:
        if aborted_transactions is None:
            raise ValueError("isolation_level='read_committed' needs aborted_transactions: the Fetch "
                             "response's (producer_id, first_offset) list, or [] when it has none")
        return True
    if level is IsolationLevel.READ_UNCOMMITTED:
        return False
    raise ValueError(f"isolation_level must be 'read_committed' or 'read_uncommitted', not {isolation_level!r}")


def aborted_pairs(aborted_transactions):
    """(producer_id, first_offset) pairs sorted by first offset, from tuples,
    dicts or objects with those attributes."""
    return sorted((_pair(a) for a in aborted_transactions), key=lambda t: t[1])


def _pair(a):
    if isinstance(a, tuple):
        return (int(a[0]), int(a[1]))
    if isinstance(a, dict):
        return (int(a["producer_id"]), int(a["first_offset"]))
    return (int(a.producer_id), int(a.first_offset))
