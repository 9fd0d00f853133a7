"""aiokafka's keyword arguments as kafkacodec.client settings, one table per client class."""
from __future__ import annotations

from typing import Any

from kafkacodec.compat._kwargs import NOOP, SHARED, SHARED_CONSUMER, SHARED_PRODUCER, Entry, assignors, refusals

__all__ = ["PRODUCER", "CONSUMER", "ADMIN", "PRODUCER_REFUSED", "CONSUMER_REFUSED", "ADMIN_REFUSED"]

PRODUCER: dict[str, Entry] = {
    **SHARED_PRODUCER,
    "max_batch_size": "batch.size",
}

CONSUMER: dict[str, Entry] = {
    **SHARED_CONSUMER,
    "isolation_level": "isolation.level",
    "partition_assignment_strategy": ("partition.assignment.strategy", assignors(
        "AIOKafkaConsumer", "RoundRobinPartitionAssignor or RangePartitionAssignor")),
    # how long aiokafka's fetcher task waits between its own wake-ups: the client fetches on its I/O thread
    "consumer_timeout_ms": NOOP,
}

ADMIN: dict[str, Entry] = dict(SHARED)

PRODUCER_REFUSED: dict[str, tuple[Any, str]] = refusals(
    "AsyncProducer", loop=(None, "the producer runs on the running event loop"))
CONSUMER_REFUSED: dict[str, tuple[Any, str]] = refusals(
    "AsyncConsumer", loop=(None, "the consumer runs on the running event loop"),
    rebalance_timeout_ms=(None, "the group's rebalance timeout is max_poll_interval_ms, as in Kafka's Java client"))
ADMIN_REFUSED: dict[str, tuple[Any, str]] = refusals(
    "Admin", loop=(None, "the admin client runs on the running event loop"))
