"""kafka.structs (kafka-python): the record, metadata and offset types its programs handle."""
from __future__ import annotations

from typing import Any, NamedTuple

from kafkacodec.client.types import TopicPartition

__all__ = ["TopicPartition", "ConsumerRecord", "RecordMetadata", "OffsetAndMetadata", "OffsetAndTimestamp",
           "ConsumerGroupMetadata", "TopicPartitionReplica"]


class ConsumerRecord(NamedTuple):
    topic: str
    partition: int
    leader_epoch: int
    offset: int
    timestamp: int
    timestamp_type: int   # 0: CreateTime, 1: LogAppendTime
    key: Any
    value: Any
    headers: list[tuple[str, bytes | None]]
    checksum: int | None
    serialized_key_size: int
    serialized_value_size: int
    serialized_header_size: int


class RecordMetadata(NamedTuple):
    topic: str
    partition: int
    topic_partition: TopicPartition
    offset: int
    timestamp: int
    checksum: int | None
    serialized_key_size: int
    serialized_value_size: int
    serialized_header_size: int


class OffsetAndMetadata(NamedTuple):
    offset: int
    metadata: str = ""
    leader_epoch: int = -1


class OffsetAndTimestamp(NamedTuple):
    offset: int
    timestamp: int | None
    leader_epoch: int | None = None


class TopicPartitionReplica(NamedTuple):
    topic: str
    partition: int
    broker_id: int


class ConsumerGroupMetadata(NamedTuple):
    group_id: str | None = None
    generation_id: int = -1
    member_id: str = ""
    group_instance_id: str | None = None
