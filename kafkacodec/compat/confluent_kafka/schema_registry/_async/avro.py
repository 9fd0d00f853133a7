"""``confluent_kafka.schema_registry._async.avro``: the import path confluent-kafka's README gives for
the asyncio Avro serdes; the classes are the face's ``schema_registry.avro`` ones."""
from kafkacodec.compat.confluent_kafka.schema_registry.avro import AsyncAvroDeserializer, AsyncAvroSerializer

__all__ = ["AsyncAvroSerializer", "AsyncAvroDeserializer"]
