"""``confluent_kafka.schema_registry.json_schema``: JSON values checked against a JSON Schema, in
Confluent's wire format.

``JSONSerializer(schema_str, schema_registry_client, to_dict=None, conf=None, json_encode=None)``
writes what confluent-kafka's writes, byte for byte (magic byte 0, the 4-byte schema id, compact
UTF-8 JSON); ``JSONDeserializer(schema_str, from_dict=None, schema_registry_client=None, conf=None,
json_decode=None)`` reads it.  Both validate against the schema with ``jsonschema`` (``validate``,
default True; the draft is the one the schema's ``$schema`` names, Draft 2020-12 without one, as
confluent-kafka does) and raise ``SerializationError`` with the validator's message.  ``conf`` takes
the same keys as the Avro serdes (``auto.register.schemas``, ``normalize.schemas``, ``use.schema.id``,
``use.latest.version``, ``subject.name.strategy``, ...).  A schema's subject name for the record
strategies is its ``title``.  References are resolved through the registry by their names.
"""
from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from kafkacodec.compat.confluent_kafka.schema_registry._builders import JSONSerializerBuilder, JSONDeserializerBuilder
from kafkacodec.compat.confluent_kafka.schema_registry._async import _AsyncSerde, blocking_client
from kafkacodec.compat.confluent_kafka.schema_registry._serde import (_RegistrySerde,
                                                                      dual_schema_id_deserializer,
                                                                      prefix_schema_id_serializer)
from kafkacodec.compat.confluent_kafka.serialization import (Deserializer, SerializationContext, SerializationError,
                                                             Serializer)
from kafkacodec.schema_registry import Schema, SchemaRegistryClient

__all__ = ["JSONSerializer", "JSONDeserializer", "AsyncJSONSerializer", "AsyncJSONDeserializer",
           "JSONSerializerBuilder", "JSONDeserializerBuilder"]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class _JSONSchemas(_RegistrySerde):
    _schema_type = "JSON"

    def _setup_json(self) -> None:
        self._validators: dict[Schema, Any] = {}
        self._parsed_schemas: dict[Schema, Any] = {}
        self._json_lock = threading.Lock()

    def _parse(self, schema: Schema) -> Any:
        found = self._parsed_schemas.get(schema)
        if found is None:
            try:
                found = json.loads(schema.schema_str or "")
            except ValueError as e:
                raise SerializationError(f"invalid JSON schema: {e}") from None
            self._parsed_schemas[schema] = found
        return found

    def _validate_with(self, schema: Schema, value: Any) -> None:
        validator = self._validators.get(schema)
        if validator is None:
            try:
                from jsonschema import validators  # type: ignore[import-untyped]
                from referencing import Registry, Resource
                from referencing.jsonschema import DRAFT7
            except ImportError:
                raise ImportError("JSON Schema validation needs jsonschema: pip install jsonschema") from None
            resources = [(name, Resource.from_contents(json.loads(text), default_specification=DRAFT7))
                         for name, text in self._named_references(schema).items()]
            parsed = self._parse(schema)
            cls = validators.validator_for(parsed)
            try:
                cls.check_schema(parsed)
            except Exception as e:     # jsonschema's SchemaError
                raise SerializationError(f"invalid JSON schema: {getattr(e, 'message', e)}") from None
            validator = cls(parsed, registry=Registry().with_resources(resources))
            with self._json_lock:
                self._validators[schema] = validator
        from jsonschema import ValidationError
        try:
            validator.validate(value)
        except ValidationError as ve:
            raise SerializationError(ve.message) from None


class JSONSerializer(_JSONSchemas, Serializer):
    """An object (a dict, or anything ``to_dict`` turns into one) -> Confluent-framed JSON bytes."""

    _defaults = {"auto.register.schemas": True, "normalize.schemas": False, "use.schema.id": None,
                 "use.latest.version": False, "use.latest.with.metadata": None, "subject.name.strategy.type": None,
                 "subject.name.strategy.conf": None, "subject.name.strategy": None,
                 "schema.id.serializer": prefix_schema_id_serializer, "validate": True,
                 "validation.rules.execution": None, "validation.rules.fail.fast": False,
                 "validation.rules.executor": None}
    _bool_keys = ("auto.register.schemas", "normalize.schemas", "use.latest.version", "validate")

    def __init__(self, schema_str: str | Schema | None, schema_registry_client: SchemaRegistryClient,
                 to_dict: Callable[[object, SerializationContext], dict[str, Any]] | None = None,
                 conf: dict[str, Any] | None = None, rule_conf: dict[str, Any] | None = None,
                 rule_registry: Any = None, json_encode: Callable[[Any], str | bytes] | None = None) -> None:
        self._setup_json()
        schema = Schema(schema_str, "JSON") if isinstance(schema_str, str) else schema_str
        merged = self._configure_serializer(schema_registry_client, conf, rule_conf, rule_registry, to_dict)
        self._validate = merged["validate"]
        self._json_encode = json_encode or _dumps
        self._schema = schema
        parsed = self._parse(schema) if schema is not None else None
        self._schema_name = parsed.get("title") if isinstance(parsed, dict) else None

    def __call__(self, obj: Any, ctx: SerializationContext | None = None) -> bytes | None:
        if obj is None:
            return None
        schema_id, schema, value = self._prepare_write(obj, ctx)
        if self._validate and schema is not None:
            self._validate_with(schema, value)
        encoded = self._json_encode(value)
        payload = encoded.encode("utf8") if isinstance(encoded, str) else encoded
        return self._id_serializer(payload, ctx, schema_id)  # type: ignore[no-any-return]


class JSONDeserializer(_JSONSchemas, Deserializer):
    """Confluent-framed JSON bytes -> the decoded object (or what ``from_dict`` makes of it), validated
    against ``schema_str`` (or the subject's latest version, or the writer's schema from the registry)."""

    _defaults = {"use.latest.version": False, "use.latest.with.metadata": None, "subject.name.strategy.type": None,
                 "subject.name.strategy.conf": None, "subject.name.strategy": None,
                 "schema.id.deserializer": dual_schema_id_deserializer, "validate": True}
    _bool_keys = ("use.latest.version", "validate")

    def __init__(self, schema_str: str | Schema | None,
                 from_dict: Callable[[dict[str, Any], SerializationContext], object] | None = None,
                 schema_registry_client: SchemaRegistryClient | None = None, conf: dict[str, Any] | None = None,
                 rule_conf: dict[str, Any] | None = None, rule_registry: Any = None,
                 json_decode: Callable[[bytes], Any] | None = None) -> None:
        self._setup_json()
        schema = Schema(schema_str, "JSON") if isinstance(schema_str, str) else schema_str
        merged = self._configure_deserializer(schema_registry_client, conf, rule_conf, rule_registry, from_dict)
        if schema is None and schema_registry_client is None:
            raise ValueError("JSONDeserializer needs a schema_str or a schema_registry_client")
        self._validate = merged["validate"]
        self._json_decode = json_decode or json.loads
        self._schema = schema
        if schema is not None:
            self._parse(schema)

    def __call__(self, data: bytes | None, ctx: SerializationContext | None = None) -> Any:
        if data is None:
            return None
        payload, schema_id, writer, _, latest = self._read_frame(data, ctx, "title")
        start = payload.tell()
        try:
            value = self._json_decode(payload.read())
        except (ValueError, RecursionError) as e:
            raise SerializationError(f"JSON value (schema id {schema_id.id}) does not decode after byte {start}: "
                                     f"{e}") from None
        reader = latest.schema if latest is not None else self._schema or writer
        if self._validate and reader is not None:
            self._validate_with(reader, value)
        return self._object_of(value, ctx)


class AsyncJSONSerializer(_AsyncSerde):
    """JSONSerializer answering coroutines, for the ``aio`` clients: ``await AsyncJSONSerializer(...)``."""

    def __init__(self, schema_str: str | Schema | None, schema_registry_client: Any,
                 to_dict: Callable[[object, SerializationContext], dict[str, Any]] | None = None,
                 conf: dict[str, Any] | None = None, rule_conf: dict[str, Any] | None = None,
                 rule_registry: Any = None, json_encode: Callable[[Any], str | bytes] | None = None) -> None:
        self._serde = JSONSerializer(schema_str, blocking_client(schema_registry_client), to_dict, conf, rule_conf,
                                     rule_registry, json_encode)


class AsyncJSONDeserializer(_AsyncSerde):
    """JSONDeserializer answering coroutines, for the ``aio`` clients: ``await AsyncJSONDeserializer(...)``."""

    def __init__(self, schema_str: str | Schema | None,
                 from_dict: Callable[[dict[str, Any], SerializationContext], object] | None = None,
                 schema_registry_client: Any = None, conf: dict[str, Any] | None = None,
                 rule_conf: dict[str, Any] | None = None, rule_registry: Any = None,
                 json_decode: Callable[[bytes], Any] | None = None) -> None:
        self._serde = JSONDeserializer(schema_str, from_dict, blocking_client(schema_registry_client), conf,
                                       rule_conf, rule_registry, json_decode)
