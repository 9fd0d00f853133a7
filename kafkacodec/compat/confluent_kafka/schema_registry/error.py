"""``confluent_kafka.schema_registry.error``: the registry's error type."""
from kafkacodec.schema_registry import SchemaRegistryError

__all__ = ["SchemaRegistryError"]
