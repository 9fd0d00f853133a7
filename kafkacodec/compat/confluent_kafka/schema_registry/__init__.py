"""``confluent_kafka.schema_registry`` over kafkacodec's registry client.

    from kafkacodec.compat.confluent_kafka.schema_registry import SchemaRegistryClient
    from kafkacodec.compat.confluent_kafka.schema_registry.avro import AvroSerializer, AvroDeserializer

``SchemaRegistryClient`` is ``kafkacodec.schema_registry.SchemaRegistryClient`` (confluent-kafka's
methods and configuration keys, ``mock://`` URLs for tests); ``Schema``, ``RegisteredSchema``,
``SchemaReference``, ``ServerConfig``, ``SchemaRegistryError`` and ``ConfigCompatibilityLevel``
are confluent-kafka's types; the subject name strategies and the schema id (de)serializers
(``prefix_*``: the 5-byte prefix; ``header_schema_id_serializer``: the schema's GUID in the
``__value_schema_id``/``__key_schema_id`` header; ``dual_schema_id_deserializer``: either) are
confluent-kafka's functions.  ``avro`` and ``json_schema`` hold the serializers; their bytes are
confluent-kafka's, both ways.

``AsyncSchemaRegistryClient`` and ``avro.AsyncAvroSerializer``/``AsyncAvroDeserializer``,
``json_schema.AsyncJSONSerializer``/``AsyncJSONDeserializer`` are the asyncio forms for the ``aio``
clients: answers from the caches come at once, requests to the registry run in a worker thread.

``avro.AvroSerializerBuilder``/``AvroDeserializerBuilder`` and ``json_schema.JSONSerializerBuilder``/
``JSONDeserializerBuilder`` build the serdes for ``value.serializer.builder`` (and the key's) of the
serializing clients.

Not here (yet): Protobuf, data contract rules (``Rule``, ``RuleSet`` objects, ``rule_conf``, CEL/encryption
executors, migrations), ``Metadata`` objects (plain dicts are passed through), associations, the
asyncio builders (``AsyncAvroSerializerBuilder``, ...), the legacy ``confluent_kafka.avro`` module.
"""
import enum

from kafkacodec.compat.confluent_kafka.schema_registry._async import AsyncSchemaRegistryClient
from kafkacodec.compat.confluent_kafka.schema_registry._serde import (SchemaId, dual_schema_id_deserializer,
                                                                      header_schema_id_serializer,
                                                                      prefix_schema_id_deserializer,
                                                                      prefix_schema_id_serializer,
                                                                      record_subject_name_strategy,
                                                                      reference_subject_name_strategy,
                                                                      topic_record_subject_name_strategy,
                                                                      topic_subject_name_strategy)
from kafkacodec.compat.confluent_kafka.serialization import MessageField, SerializationContext, SerializationError
from kafkacodec.schema_registry import (RegisteredSchema, Schema, SchemaReference, SchemaRegistryClient,
                                        SchemaRegistryError, ServerConfig)


class ConfigCompatibilityLevel(str, enum.Enum):
    """The registry's compatibility levels."""

    BACKWARD = "BACKWARD"
    BACKWARD_TRANSITIVE = "BACKWARD_TRANSITIVE"
    FORWARD = "FORWARD"
    FORWARD_TRANSITIVE = "FORWARD_TRANSITIVE"
    FULL = "FULL"
    FULL_TRANSITIVE = "FULL_TRANSITIVE"
    NONE = "NONE"


__all__ = ["AsyncSchemaRegistryClient", "ConfigCompatibilityLevel", "MessageField", "RegisteredSchema", "Schema",
           "SchemaId", "SchemaReference", "SchemaRegistryClient", "SchemaRegistryError", "SerializationContext",
           "SerializationError", "ServerConfig", "dual_schema_id_deserializer", "header_schema_id_serializer",
           "prefix_schema_id_deserializer", "prefix_schema_id_serializer", "record_subject_name_strategy",
           "reference_subject_name_strategy", "topic_record_subject_name_strategy", "topic_subject_name_strategy"]
