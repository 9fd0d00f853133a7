"""``confluent_kafka.schema_registry._async.json_schema``: the import path confluent-kafka's README gives
for the asyncio JSON Schema serdes; the classes are the face's ``schema_registry.json_schema`` ones."""
from kafkacodec.compat.confluent_kafka.schema_registry.json_schema import AsyncJSONDeserializer, AsyncJSONSerializer

__all__ = ["AsyncJSONSerializer", "AsyncJSONDeserializer"]
