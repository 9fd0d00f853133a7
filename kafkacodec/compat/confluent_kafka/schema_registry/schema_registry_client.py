"""``confluent_kafka.schema_registry.schema_registry_client``: the client and its types, where
confluent-kafka's programs import them from."""
from kafkacodec.compat.confluent_kafka.schema_registry import ConfigCompatibilityLevel
from kafkacodec.schema_registry import (RegisteredSchema, Schema, SchemaReference, SchemaRegistryClient,
                                        SchemaRegistryError, ServerConfig)

__all__ = ["ConfigCompatibilityLevel", "RegisteredSchema", "Schema", "SchemaReference", "SchemaRegistryClient",
           "SchemaRegistryError", "ServerConfig"]
