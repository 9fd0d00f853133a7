"""kafka-python's configuration keywords as kafkacodec.client settings."""
from __future__ import annotations

import math
from typing import Any

from kafkacodec.compat._kwargs import (NOOP, SHARED, SHARED_CONSUMER, SHARED_PRODUCER, Entry, assignors,
                                       refusals)

__all__ = ["COMMON", "PRODUCER", "CONSUMER", "REFUSED"]


def _retries(value: Any) -> Any:
    return 2147483647 if isinstance(value, float) and math.isinf(value) else value


def _isolation(value: Any) -> Any:
    # kafka-python's IsolationLevel enum or its text
    return value if isinstance(value, str) else str(getattr(value, "name", value)).lower()


COMMON: dict[str, Entry] = {
    **SHARED,
    "reconnect_backoff_ms": "reconnect.backoff.ms",
    "reconnect_backoff_max_ms": "reconnect.backoff.max.ms",
    "client_dns_lookup": "client.dns.lookup",
    "receive_buffer_bytes": "receive.buffer.bytes",
    "send_buffer_bytes": "send.buffer.bytes",
    "receive_message_max_bytes": "receive.message.max.bytes",
    "ssl_check_hostname": "ssl.check.hostname",
    "ssl_cafile": "ssl.cafile",
    "ssl_certfile": "ssl.certfile",
    "ssl_keyfile": "ssl.keyfile",
    "ssl_crlfile": "ssl.crlfile",
    "ssl_password": "ssl.password",
    "ssl_ciphers": "ssl.cipher.suites",
    # bootstrap waits are max_block_ms and the calls' own timeouts; metrics are always kept (metrics())
    "bootstrap_timeout_ms": NOOP,
    "metrics_enabled": NOOP,
    "metrics_num_samples": NOOP,
    "metrics_sample_window_ms": NOOP,
    "metric_group_prefix": NOOP,
    "max_in_flight_requests_per_connection": "max.in.flight.requests.per.connection",
}

PRODUCER: dict[str, Entry] = {
    **SHARED_PRODUCER,
    **COMMON,
    "delivery_timeout_ms": "delivery.timeout.ms",
    "retries": ("retries", _retries),
    "batch_size": "batch.size",
    "max_block_ms": "max.block.ms",
    "allow_auto_create_topics": "allow.auto.create.topics",
}

CONSUMER: dict[str, Entry] = {
    **SHARED_CONSUMER,
    **COMMON,
    "enable_incremental_fetch_sessions": "enable.fetch.sessions",
    "isolation_level": ("isolation.level", _isolation),
    "allow_auto_create_topics": "allow.auto.create.topics",
    "partition_assignment_strategy": ("partition.assignment.strategy", assignors(
        "KafkaConsumer", "RangePartitionAssignor, RoundRobinPartitionAssignor or StickyPartitionAssignor's "
                         "cooperative form ('cooperative-sticky')")),
}

ADMIN: dict[str, Entry] = dict(COMMON)

#: name -> (the value meaning nothing to do, what to use instead)
REFUSED: dict[str, tuple[Any, str]] = refusals(
    "Producer, Consumer or Admin",
    sasl_kerberos_name=(None, "GSSAPI is not supported; use SCRAM or OAUTHBEARER"),
    proxy_url=(None, "connect to the brokers directly"),
    socks5_proxy=(None, "connect to the brokers directly"),
    selector=(None, "the client's I/O thread has its own selector"),
    kafka_client=(None, "kafkacodec's own client is the one used"),
    metric_reporters=([], "read metrics() or give kafkacodec.client a stats_cb"),
    socket_options=([(6, 1, 1)], "socket_nagle_disable/socket_keepalive_enable in kafkacodec.client"),
    default_offset_commit_callback=(None, "pass a callback to commit_async()"),
)
