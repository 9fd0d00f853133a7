"""confluent_kafka.admin's resource enums, with librdkafka's values (Kafka's codes)."""
from __future__ import annotations

from kafkacodec.compat.confluent_kafka._enum import OrderedEnum

__all__ = ["ResourceType", "ResourcePatternType", "RESOURCE_UNKNOWN", "RESOURCE_ANY", "RESOURCE_TOPIC",
           "RESOURCE_GROUP", "RESOURCE_BROKER", "RESOURCE_TRANSACTIONAL_ID"]

RESOURCE_UNKNOWN, RESOURCE_ANY, RESOURCE_TOPIC, RESOURCE_GROUP, RESOURCE_BROKER, RESOURCE_TRANSACTIONAL_ID = range(6)


class ResourceType(OrderedEnum):
    """What a ConfigResource or an ACL names (BROKER is Kafka's CLUSTER for ACLs)."""

    UNKNOWN = RESOURCE_UNKNOWN
    ANY = RESOURCE_ANY
    TOPIC = RESOURCE_TOPIC
    GROUP = RESOURCE_GROUP
    BROKER = RESOURCE_BROKER
    TRANSACTIONAL_ID = RESOURCE_TRANSACTIONAL_ID


class ResourcePatternType(OrderedEnum):
    """How an ACL's resource name matches: LITERAL, PREFIXED; in filters ANY, or MATCH (what
    a literal, wildcard or prefixed ACL would cover)."""

    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4
