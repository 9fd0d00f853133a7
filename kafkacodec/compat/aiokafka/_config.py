"""aiokafka's keyword arguments as kafkacodec.client settings, one table per client class."""
from __future__ import annotations

from typing import Any

from kafkacodec.compat._kwargs import NOOP, SHARED, Entry, acks, assignors, compression, refusals

__all__ = ["PRODUCER", "CONSUMER", "ADMIN", "PRODUCER_REFUSED", "CONSUMER_REFUSED", "ADMIN_REFUSED"]

PRODUCER: dict[str, Entry] = {
    **SHARED,
    "acks": ("acks", acks),
    "compression_type": ("compression.type", compression),
    "max_batch_size": "batch.size",
    "max_request_size": "max.request.size",
    "linger_ms": "linger.ms",
    "enable_idempotence": "enable.idempotence",
    "transactional_id": "transactional.id",
    "transaction_timeout_ms": "transaction.timeout.ms",
}

CONSUMER: dict[str, Entry] = {
    **SHARED,
    "group_id": "group.id",
    "group_instance_id": "group.instance.id",
    "fetch_max_wait_ms": "fetch.max.wait.ms",
    "fetch_max_bytes": "fetch.max.bytes",
    "fetch_min_bytes": "fetch.min.bytes",
    "max_partition_fetch_bytes": "max.partition.fetch.bytes",
    "auto_offset_reset": "auto.offset.reset",
    "enable_auto_commit": "enable.auto.commit",
    "auto_commit_interval_ms": "auto.commit.interval.ms",
    "check_crcs": "check.crcs",
    "partition_assignment_strategy": ("partition.assignment.strategy", assignors(
        "AIOKafkaConsumer", "RoundRobinPartitionAssignor or RangePartitionAssignor")),
    "max_poll_interval_ms": "max.poll.interval.ms",
    "session_timeout_ms": "session.timeout.ms",
    "heartbeat_interval_ms": "heartbeat.interval.ms",
    "max_poll_records": "max.poll.records",
    "exclude_internal_topics": "exclude.internal.topics",
    "isolation_level": "isolation.level",
    "client_rack": "client.rack",
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
