"""list_topics(): ClusterMetadata from a kafkacodec client's metadata answer."""
from __future__ import annotations

from typing import Protocol

from kafkacodec.client import errors as E
from kafkacodec.client.metadata import ClusterMetadata as ClientClusterMetadata
from kafkacodec.compat.confluent_kafka._errors import CODES, KafkaError, KafkaException, exception_from
from kafkacodec.compat.confluent_kafka._types import (BrokerMetadata, ClusterMetadata, PartitionMetadata,
                                                      TopicMetadata)

__all__ = ["list_topics"]

_FOREVER = 3600.0


class MetadataSource(Protocol):
    """Any kafkacodec client: its own connections answer, as a librdkafka handle's do."""

    def cluster_metadata(self, topic: str | None = None, *,
                         timeout: float | None = None) -> ClientClusterMetadata: ...


def list_topics(source: MetadataSource, topic: str | None = None, timeout: float | None = None) -> ClusterMetadata:
    """ClusterMetadata of every topic, or of `topic` (its .error set when the broker knows no such topic)."""
    try:
        md = source.cluster_metadata(topic, timeout=_FOREVER if timeout is None else timeout)
    except E.KafkaTimeoutError as exc:
        raise KafkaException(KafkaError(CODES["_TIMED_OUT"], str(exc))) from exc
    except E.KafkaError as exc:
        raise exception_from(exc) from exc
    out = ClusterMetadata()
    out.cluster_id = md.cluster_id
    out.controller_id = md.controller_id if md.controller_id is not None else -1
    out.brokers = {b.node_id: BrokerMetadata(b.node_id, b.host, b.port) for b in md.brokers}
    for name, info in md.topics.items():
        out.topics[name] = TopicMetadata(name, {p.partition: PartitionMetadata(p.partition, p.leader, p.replicas, p.isr)
                                                for p in info.partitions}, None)
    for name, code in md.topic_errors.items():
        out.topics[name] = TopicMetadata(name, {}, KafkaError(code))
    by = md.answered_by
    if by is not None:
        # librdkafka names a broker "host:port/id", a bootstrap server not yet known by its id
        # "host:port/bootstrap" (id -1)
        known = by.node_id >= 0
        out.orig_broker_id = by.node_id if known else -1
        out.orig_broker_name = f"{by.host}:{by.port}/{by.node_id if known else 'bootstrap'}"
    return out
