"""confluent-kafka's partition functions: the partition librdkafka's partitioner of that name
picks for a key among `partition_count` partitions."""
from __future__ import annotations

import zlib

from kafkacodec.client.partitioner import fnv1a_partition, murmur2_partition

__all__ = ["murmur2", "consistent", "fnv1a"]

def _check(key: bytes, partition_count: int) -> None:
    if not isinstance(key, (bytes, bytearray, memoryview)):
        raise TypeError(f"a bytes-like object is required, not {type(key).__name__!r}")
    if isinstance(partition_count, bool) or not isinstance(partition_count, int):
        raise TypeError(f"partition_count must be an int, got {type(partition_count).__name__}")
    if partition_count <= 0:
        raise ValueError(f"partition_count must be > 0, got {partition_count}")


def murmur2(key: bytes, partition_count: int) -> int:
    """The Java client's partition for `key` (librdkafka's murmur2 and murmur2_random)."""
    _check(key, partition_count)
    partition: int = murmur2_partition(bytes(key), partition_count)
    return partition


def consistent(key: bytes, partition_count: int) -> int:
    """CRC-32 of `key` modulo the count (librdkafka's consistent and consistent_random)."""
    _check(key, partition_count)
    return zlib.crc32(key) % partition_count


def fnv1a(key: bytes, partition_count: int) -> int:
    """32-bit FNV-1a of `key`, as a signed value made positive, modulo the count (librdkafka's
    fnv1a and fnv1a_random, the same partitions as Sarama's hash partitioner)."""
    _check(key, partition_count)
    return fnv1a_partition(key, partition_count)
