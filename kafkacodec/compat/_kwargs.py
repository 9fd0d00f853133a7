"""Keyword arguments of Python clients (aiokafka, kafka-python) as kafkacodec.client settings."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kafkacodec.client.errors import ConfigError

__all__ = ["translate", "servers", "acks", "compression", "assignors", "SHARED", "SHARED_PRODUCER",
           "SHARED_CONSUMER", "refusals"]

#: an entry: a client setting name, a (name, convert) pair, NOOP, or a refusal (str starting "refused: ")
Entry = str | tuple[str, Callable[[Any], Any]] | None
NOOP = None


def servers(value: Any) -> str:
    """bootstrap_servers: 'host[:port]' or a list of them; a host without a port is on 9092."""
    items = [value] if isinstance(value, str) else list(value)
    out = []
    for item in items:
        for part in str(item).split(","):
            part = part.strip()
            if part and ":" not in part.rsplit("]", 1)[-1]:
                part += ":9092"
            if part:
                out.append(part)
    return ",".join(out)


def acks(value: Any) -> Any:
    """acks: 0, 1, -1 or 'all'."""
    return "all" if value in ("all", -1) else value


def compression(value: Any) -> str:
    """compression_type: None is no compression."""
    return "none" if value is None else str(value)


def assignors(kind: str, instead: str) -> Callable[[Any], list[str]]:
    """partition_assignment_strategy: assignor classes (their ``name``) or names, as the client's
    assignor names; one the client has not is refused naming `instead`."""
    def convert(value: Any) -> list[str]:
        names = []
        for item in value if isinstance(value, (list, tuple)) else [value]:
            name = item if isinstance(item, str) else getattr(item, "name", None)
            if name not in ("range", "roundrobin", "cooperative-sticky"):
                raise ConfigError(f"{kind}: partition_assignment_strategy {item!r} has no meaning in kafkacodec: "
                                  f"use {instead}")
            names.append(str(name))
        return names
    return convert


#: the keyword arguments aiokafka and kafka-python share, with the same meaning in both
SHARED: dict[str, Entry] = {
    "bootstrap_servers": ("bootstrap.servers", servers),
    "client_id": "client.id",
    "request_timeout_ms": "request.timeout.ms",
    "connections_max_idle_ms": "connections.max.idle.ms",
    "retry_backoff_ms": "retry.backoff.ms",
    "metadata_max_age_ms": "metadata.max.age.ms",
    "security_protocol": "security.protocol",
    "ssl_context": "ssl.context",
    "sasl_mechanism": "sasl.mechanism",
    "sasl_plain_username": "sasl.username",
    "sasl_plain_password": "sasl.password",
    # versions are negotiated with each broker (ApiVersions), as the projects' "auto"
    "api_version": NOOP,
    # used only with GSSAPI, which the sasl_mechanism setting refuses
    "sasl_kerberos_service_name": NOOP,
    "sasl_kerberos_domain_name": NOOP,
}


#: the producer's keyword arguments both projects have
SHARED_PRODUCER: dict[str, Entry] = {
    **SHARED,
    "acks": ("acks", acks),
    "compression_type": ("compression.type", compression),
    "max_request_size": "max.request.size",
    "linger_ms": "linger.ms",
    "enable_idempotence": "enable.idempotence",
    "transactional_id": "transactional.id",
    "transaction_timeout_ms": "transaction.timeout.ms",
}

#: the consumer's keyword arguments both projects have (isolation_level and
#: partition_assignment_strategy take each project's own values)
SHARED_CONSUMER: dict[str, Entry] = {
    **SHARED,
    "client_rack": "client.rack",
    "group_id": "group.id",
    "group_instance_id": "group.instance.id",
    "fetch_max_wait_ms": "fetch.max.wait.ms",
    "fetch_min_bytes": "fetch.min.bytes",
    "fetch_max_bytes": "fetch.max.bytes",
    "max_partition_fetch_bytes": "max.partition.fetch.bytes",
    "auto_offset_reset": "auto.offset.reset",
    "enable_auto_commit": "enable.auto.commit",
    "auto_commit_interval_ms": "auto.commit.interval.ms",
    "check_crcs": "check.crcs",
    "max_poll_records": "max.poll.records",
    "max_poll_interval_ms": "max.poll.interval.ms",
    "session_timeout_ms": "session.timeout.ms",
    "heartbeat_interval_ms": "heartbeat.interval.ms",
    "exclude_internal_topics": "exclude.internal.topics",
}


def refusals(client: str, **more: tuple[Any, str]) -> dict[str, tuple[Any, str]]:
    """The settings both projects have and kafkacodec refuses, `client` being the kafkacodec.client
    class to give what replaces them; plus `more`."""
    return {"sasl_oauth_token_provider": (None, f"give kafkacodec.client.{client} an oauth_cb "
                                                f"(sasl.mechanism=OAUTHBEARER)"), **more}


def translate(kind: str, table: Mapping[str, Entry], refused: Mapping[str, tuple[Any, str]],
              given: Mapping[str, Any]) -> dict[str, Any]:
    """Client settings for the keyword arguments `given`.  `refused`: name -> (the value that means
    nothing to do, what to use instead); any other value is a ConfigError naming that."""
    conf: dict[str, Any] = {}
    for name, value in given.items():
        if name in refused:
            harmless, instead = refused[name]
            if value is harmless or value == harmless:
                continue
            raise ConfigError(f"{kind}: {name}={value!r} has no meaning in kafkacodec: {instead}")
        if name not in table:
            raise TypeError(f"{kind}: unexpected keyword argument {name!r}")
        entry = table[name]
        if entry is NOOP or value is None:
            continue
        if isinstance(entry, tuple):
            conf[entry[0]] = entry[1](value)
        else:
            conf[entry] = value
    return conf
