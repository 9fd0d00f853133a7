"""Checks of the arguments callers pass to the client.

Each runs on the caller's thread, where the argument was given: a bad value
reaching the I/O thread would fail there, far from its cause (and, before
these checks, could stop the thread).  Every failure is an
InvalidArgumentError naming the argument.
"""
from __future__ import annotations

import operator
import re
import reprlib
from collections.abc import Callable
from typing import Any, Literal, TypeVar, overload

_Fn = TypeVar("_Fn", bound=Callable[..., Any])

from kafkacodec.client.errors import InvalidArgumentError

__all__ = ["topic_name", "topic_names", "partition_number", "partition_count", "replication_factor", "offset",
           "timestamp_ms", "bytes_like", "headers", "callback", "timeout_s", "positive_int"]

# Kafka's rule for topic names (org.apache.kafka.common.internals.Topic)
_LEGAL_TOPIC = re.compile(r"[a-zA-Z0-9._-]{1,249}")


def topic_name(topic: Any, what: str = "topic") -> str:
    if topic.__class__ is not str:
        raise InvalidArgumentError(f"{what}: expected a str, got {type(topic).__name__} {topic!r}")
    if not _LEGAL_TOPIC.fullmatch(topic) or topic in (".", ".."):
        raise InvalidArgumentError(f"{what}: {topic!r} is not a legal topic name "
                                   "(1 to 249 of a-z A-Z 0-9 . _ -, not '.' or '..')")
    return topic


def topic_names(topics: Any, what: str = "topics") -> list[str]:
    if isinstance(topics, (str, bytes)):
        topics = [topics]
    try:
        names: list[str] = list(topics)
    except TypeError:
        raise InvalidArgumentError(f"{what}: expected topic names, got {type(topics).__name__}") from None
    for i, name in enumerate(names):
        topic_name(name, f"{what}[{i}]")
    return names


def _integer(value: Any, what: str, kind: str = "an int") -> int:
    """An int from any integer type (numpy's too); bool, float and str are refused."""
    if value.__class__ is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise InvalidArgumentError(f"{what}: expected {kind}, got {type(value).__name__} {value!r}")


def partition_number(partition: Any, what: str = "partition") -> int:
    number = _integer(partition, what)
    if not 0 <= number < 2 ** 31:
        raise InvalidArgumentError(f"{what}: {number} is not a partition number")
    return number


def partition_count(value: Any, what: str, broker_default: bool = True) -> int:
    """A topic's partition count: 1 or more, or -1 for the broker's default (CreateTopics v4+)."""
    number = _integer(value, what)
    if number == -1 and broker_default:
        return number
    if not 1 <= number < 2 ** 31:
        raise InvalidArgumentError(f"{what}: {number} is not a partition count; give 1 or more"
                                   + (" (or -1: the broker's default)" if broker_default else ""))
    return number


def replication_factor(value: Any, what: str = "replication_factor") -> int:
    """1 to 32767 (an INT16 on the wire), or -1 for the broker's default (CreateTopics v4+)."""
    number = _integer(value, what)
    if number != -1 and not 1 <= number < 2 ** 15:
        raise InvalidArgumentError(f"{what}: {number} is not a replication factor; give 1 to 32767 "
                                   "(or -1: the broker's default)")
    return number


def offset(value: Any, what: str = "offset") -> int:
    number = _integer(value, what)
    if not 0 <= number < 2 ** 63:
        raise InvalidArgumentError(f"{what}: {number} is out of range; offsets start at 0")
    return number


@overload
def timestamp_ms(value: None, what: str = ...) -> None: ...
@overload
def timestamp_ms(value: int, what: str = ...) -> int: ...
@overload
def timestamp_ms(value: Any, what: str = ...) -> int | None: ...
def timestamp_ms(value: Any, what: str = "timestamp") -> int | None:
    """None (now) or milliseconds since the epoch, as Java's ProducerRecord requires."""
    if value is None:
        return None
    ms = _integer(value, what, "an int (ms since the epoch) or None")
    if not 0 <= ms < 2 ** 63:
        raise InvalidArgumentError(f"{what}: {ms} is out of range; timestamps are ms since the epoch, "
                                   "0 to 2**63-1")
    return ms


def bytes_like(value: Any, what: str) -> None:
    """None or an object with the buffer protocol (bytes, bytearray, memoryview, numpy arrays...):
    what the record builder takes as a key or value."""
    if value is None or isinstance(value, (bytes, bytearray, memoryview)):
        return
    try:
        memoryview(value)
    except TypeError:
        hint = " (encode it first, e.g. with .encode())" if isinstance(value, str) else ""
        raise InvalidArgumentError(f"{what}: expected bytes-like or None, got {type(value).__name__} "
                                   f"{reprlib.repr(value)}{hint}") from None


def headers(value: Any, what: str = "headers") -> Any:
    """None or a sequence of (str key, bytes-like or None value) pairs (a dict is refused:
    Kafka headers are ordered and may repeat a key)."""
    if value is None:
        return None
    if isinstance(value, (dict, str, bytes, bytearray, memoryview)):
        raise InvalidArgumentError(f"{what}: expected a list of (key, value) pairs, got {type(value).__name__}"
                                   + (" (use list(headers.items()))" if isinstance(value, dict) else ""))
    try:
        pairs = list(value)
    except TypeError:
        raise InvalidArgumentError(f"{what}: expected a list of (key, value) pairs, "
                                   f"got {type(value).__name__}") from None
    for i, pair in enumerate(pairs):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise InvalidArgumentError(f"{what}[{i}]: expected a (key, value) pair, got {pair!r}")
        key, val = pair
        if not isinstance(key, (str, bytes, bytearray, memoryview)):
            raise InvalidArgumentError(f"{what}[{i}]: the key must be a str, got {type(key).__name__}")
        if val is not None and not isinstance(val, (bytes, bytearray, memoryview)):
            try:
                memoryview(val)
            except TypeError:
                raise InvalidArgumentError(f"{what}[{i}]: the value must be bytes-like or None, "
                                           f"got {type(val).__name__}") from None
    return value


def callback(fn: _Fn | None, what: str = "callback") -> _Fn | None:
    if fn is not None and not callable(fn):
        raise InvalidArgumentError(f"{what}: expected a callable or None, got {fn!r}")
    return fn


@overload
def timeout_s(value: object, what: str = ..., *, optional: Literal[False]) -> float: ...
@overload
def timeout_s(value: object, what: str = ..., optional: bool = ...) -> float | None: ...


def timeout_s(value: object, what: str = "timeout", optional: bool = True) -> float | None:
    """None (when optional) or a non-negative number of seconds."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidArgumentError(f"{what}: expected seconds (a number), got {type(value).__name__} {value!r}")
    if not value >= 0:
        raise InvalidArgumentError(f"{what}: {value} is negative; give seconds >= 0")
    return value


def positive_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgumentError(f"{what}: expected an int >= 1, got {value!r}")
    return value
