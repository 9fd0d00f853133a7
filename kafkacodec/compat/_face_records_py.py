"""The aiokafka and kafka-python faces' records made from the client's, in Python: the pure twin
of _face_records.pyx (the reference behaviour, and what runs where the compiled module cannot
load).  A poll's records come grouped by partition (getmany, poll) or one at a time (getone,
iteration), deserialized with the program's deserializers."""
from __future__ import annotations

import dataclasses
import itertools
import operator
from collections.abc import Callable, Iterable
from itertools import repeat
from typing import Any, Generic, TypeVar

from kafkacodec.client import ConsumerRecord as _Record
from kafkacodec.client.types import TopicPartition

__all__ = ["ConsumerRecord", "AioRecords", "KpRecords"]

KT = TypeVar("KT")
VT = TypeVar("VT")
_T = TypeVar("_T")

Deserializer = Callable[[Any], Any]


@dataclasses.dataclass
class ConsumerRecord(Generic[KT, VT]):
    """aiokafka's ConsumerRecord (aiokafka.structs)."""
    topic: str
    partition: int
    offset: int
    timestamp: int
    timestamp_type: int   # 0: CreateTime, 1: LogAppendTime
    key: KT | None
    value: VT | None
    checksum: int | None
    serialized_key_size: int
    serialized_value_size: int
    headers: tuple[tuple[str, bytes | None], ...]


_TOPIC_PARTITION = operator.attrgetter("topic", "partition")
_FIELDS = [operator.attrgetter(name) for name in ("offset", "timestamp", "timestamp_type", "key", "value", "headers")]


def _by_partition(records: Iterable[_Record], convert: Callable[[list[_Record], str, int], list[_T]]
                  ) -> dict[TopicPartition, list[_T]]:
    """{TopicPartition: convert(its records)} in the records' order.  The client hands out a
    partition's records in runs (a fetch each): `convert` and a TopicPartition per run."""
    out: dict[TopicPartition, list[_T]] = {}
    for (topic, partition), run in itertools.groupby(records, _TOPIC_PARTITION):
        tp = TopicPartition(topic, partition)
        got = out.get(tp)
        if got is None:
            out[tp] = convert(list(run), topic, partition)
        else:
            got.extend(convert(list(run), topic, partition))
    return out


def _columns(records: list[_Record]) -> list[list[Any]]:
    """[offsets, timestamps, timestamp types, keys, values, headers]: a field at a time, so the
    records are built with map() rather than a loop of Python code."""
    return [list(map(field, records)) for field in _FIELDS]


def _sizes(data: list[bytes | None]) -> list[int]:
    """Each key's or value's length, -1 for None (the clients' serialized sizes)."""
    return [-1 if d is None else len(d) for d in data]


def header_size(headers: list[tuple[str, bytes | None]]) -> int:
    """kafka-python's serialized_header_size: the keys' UTF-8 and the values' bytes, -1 without
    headers (a key the client kept as surrogate escapes counts its original bytes)."""
    if not headers:
        return -1
    return sum(len(k.encode("utf-8", "surrogateescape")) + (0 if v is None else len(v)) for k, v in headers)


class AioRecords:
    """aiokafka ConsumerRecords from the client's records, with the consumer's key and value
    deserializers (functions of the bytes, or None)."""

    def __init__(self, key_deserializer: Deserializer | None = None,
                 value_deserializer: Deserializer | None = None) -> None:
        self._key_de, self._value_de = key_deserializer, value_deserializer

    def _convert(self, records: list[_Record], topic: str, partition: int) -> list[ConsumerRecord[Any, Any]]:
        key_de, value_de = self._key_de, self._value_de
        n = len(records)
        offsets, timestamps, types, keys, values, headers = _columns(records)
        return list(map(ConsumerRecord, repeat(topic, n), repeat(partition, n), offsets, timestamps, types,
                        keys if key_de is None else map(key_de, keys),
                        values if value_de is None else map(value_de, values),
                        repeat(None, n), _sizes(keys), _sizes(values), map(tuple, headers)))

    def by_partition(self, records: list[_Record]) -> dict[TopicPartition, list[ConsumerRecord[Any, Any]]]:
        """{TopicPartition: [records]} in the records' order (getmany)."""
        return _by_partition(records, self._convert)

    def one(self, r: _Record) -> ConsumerRecord[Any, Any]:
        """One record (getone, ``async for``)."""
        key_de, value_de = self._key_de, self._value_de
        key, value = r.key, r.value
        return ConsumerRecord(r.topic, r.partition, r.offset, r.timestamp, r.timestamp_type,  # type: ignore[arg-type]
                              key if key_de is None else key_de(key), value if value_de is None else value_de(value),
                              None, -1 if key is None else len(key), -1 if value is None else len(value),
                              tuple(r.headers))


_leader_epoch_of = operator.attrgetter("leader_epoch")


class KpRecords(Generic[_T]):
    """kafka-python ConsumerRecords (`record_type`, its 13-field namedtuple) from the client's
    records, each deserializer a Deserializer (its deserialize(topic, headers, data) called), a
    function of the data, or None."""

    def __init__(self, record_type: type[_T], key_deserializer: Any = None, value_deserializer: Any = None) -> None:
        self._type = record_type
        self._key_ctx = getattr(key_deserializer, "deserialize", None)
        self._value_ctx = getattr(value_deserializer, "deserialize", None)
        self._key_fn = None if self._key_ctx is not None else key_deserializer
        self._value_fn = None if self._value_ctx is not None else value_deserializer

    @staticmethod
    def _deserialized(fn: Any, ctx: Any, topic: str, headers: list[Any], data: list[Any]) -> Iterable[Any]:
        if fn is not None:
            return map(fn, data)
        return data if ctx is None else map(ctx, repeat(topic), headers, data)

    def _convert(self, records: list[_Record], topic: str, partition: int) -> list[_T]:
        n = len(records)
        offsets, timestamps, types, keys, values, headers = _columns(records)
        headers = list(map(list, headers))
        new: Any = tuple.__new__  # of the namedtuple type: its items as they are, no __new__ of its own
        return list(map(new, repeat(self._type, n), zip(
            repeat(topic, n), repeat(partition, n), map(_leader_epoch_of, records), offsets, timestamps, types,
            self._deserialized(self._key_fn, self._key_ctx, topic, headers, keys),
            self._deserialized(self._value_fn, self._value_ctx, topic, headers, values),
            headers, repeat(None, n), _sizes(keys), _sizes(values), map(header_size, headers))))

    def by_partition(self, records: list[_Record]) -> dict[TopicPartition, list[_T]]:
        """{TopicPartition: [records]} in the records' order (poll)."""
        return _by_partition(records, self._convert)

    def one(self, r: _Record) -> _T:
        """One record (iteration)."""
        topic, key, value, headers = r.topic, r.key, r.value, list(r.headers)
        key_fn, key_ctx, value_fn, value_ctx = self._key_fn, self._key_ctx, self._value_fn, self._value_ctx
        new: Callable[..., _T] = tuple.__new__
        return new(self._type, (
            topic, r.partition, r.leader_epoch, r.offset, r.timestamp, r.timestamp_type,
            key_fn(key) if key_fn is not None else key if key_ctx is None else key_ctx(topic, headers, key),
            value_fn(value) if value_fn is not None
            else value if value_ctx is None else value_ctx(topic, headers, value),
            headers, None, -1 if key is None else len(key), -1 if value is None else len(value),
            header_size(headers)))
