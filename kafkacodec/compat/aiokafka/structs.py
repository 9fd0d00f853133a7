"""aiokafka.structs: the record, metadata and offset types aiokafka programs handle."""
from __future__ import annotations

from typing import NamedTuple

from kafkacodec.client.types import TopicPartition
# made in C by the consumer (a compiled type with the dataclass's fields and behaviour)
from kafkacodec.compat._consuming import AioConsumerRecord as ConsumerRecord

__all__ = ["TopicPartition", "ConsumerRecord", "RecordMetadata", "OffsetAndMetadata", "OffsetAndTimestamp"]


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


