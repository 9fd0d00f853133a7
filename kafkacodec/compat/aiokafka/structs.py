"""aiokafka.structs: the record, metadata and offset types aiokafka programs handle."""
from __future__ import annotations

import dataclasses
from typing import Generic, NamedTuple, TypeVar

from kafkacodec.client.types import TopicPartition

__all__ = ["TopicPartition", "ConsumerRecord", "RecordMetadata", "OffsetAndMetadata", "OffsetAndTimestamp"]

KT = TypeVar("KT")
VT = TypeVar("VT")


@dataclasses.dataclass
class ConsumerRecord(Generic[KT, VT]):
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


class RecordMetadata(NamedTuple):
    topic: str
    partition: int
    topic_partition: TopicPartition
    offset: int
    timestamp: int | None
    timestamp_type: int
    log_start_offset: int | None


class OffsetAndMetadata(NamedTuple):
    offset: int
    metadata: str


class OffsetAndTimestamp(NamedTuple):
    offset: int
    timestamp: int | None


