"""``confluent_kafka.schema_registry.avro``: Avro values in Confluent's wire format, one at a time.

``AvroSerializer(schema_registry_client, schema_str=None, to_dict=None, conf=None)`` writes what
confluent-kafka's writes, byte for byte (magic byte 0, the big-endian 4-byte schema id, the Avro
binary encoding), and ``AvroDeserializer(schema_registry_client, schema_str=None, from_dict=None,
return_record_name=False, conf=None)`` reads it back into the same Python objects (dicts for records
and maps, ``datetime``/``date``/``Decimal``/``UUID`` for the logical types).  Their ``conf`` keys are
confluent-kafka's: ``auto.register.schemas`` (default True), ``normalize.schemas``,
``use.schema.id``, ``use.latest.version``, ``use.latest.with.metadata``, ``subject.name.strategy``
(a callable ``(ctx, record_name) -> subject``; default ``topic_subject_name_strategy``),
``subject.name.strategy.type`` (TOPIC, RECORD, TOPIC_RECORD), ``schema.id.serializer`` /
``schema.id.deserializer`` (the 5-byte prefix by default; the GUID header functions of the package),
``validate.strict`` and ``validate.strict.allow.default``.

One value is encoded and decoded with fastavro: per value of the benchmark's 14-field record
(``python -m bench.registry_serde_bench``), fastavro reads in 6.8 us and writes in 7.8 us where a
one-row ``kafkacodec.avro`` column takes 62 us and 177 us (the column codec's cost is per call,
its speed per row: use ``kafkacodec.avro.decode(..., confluent=True)`` on whole columns of
Confluent-framed values).  fastavro is needed for this module
(``pip install fastavro``), as confluent-kafka's own needs it.
"""
from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

from kafkacodec.compat.confluent_kafka.schema_registry._builders import AvroSerializerBuilder, AvroDeserializerBuilder
from kafkacodec.compat.confluent_kafka.schema_registry._async import _AsyncSerde, blocking_client
from kafkacodec.compat.confluent_kafka.schema_registry._serde import (_RegistrySerde,
                                                                      dual_schema_id_deserializer,
                                                                      prefix_schema_id_serializer)
from kafkacodec.compat.confluent_kafka.serialization import (Deserializer, SerializationContext, SerializationError,
                                                             Serializer)
from kafkacodec.schema_registry import Schema, SchemaRegistryClient

__all__ = ["AvroSerializer", "AvroDeserializer", "AsyncAvroSerializer", "AsyncAvroDeserializer",
           "AvroSerializerBuilder", "AvroDeserializerBuilder"]


def _fastavro() -> Any:
    try:
        import fastavro
    except ImportError:
        raise ImportError("confluent_kafka.schema_registry.avro needs fastavro: pip install fastavro") from None
    return fastavro


def _schema_loads(schema_str: str) -> Schema:
    # a bare primitive name ("string") is registered in its object form, as confluent-kafka does
    text = schema_str.strip()
    if text[:1] not in ("{", "["):
        text = '{"type":' + text + "}"
    return Schema(text, schema_type="AVRO")


def _is_plain_bytes(parsed: Any) -> bool:
    # confluent-kafka writes a value of the plain "bytes" schema as the bytes themselves, no length
    return parsed == "bytes" or (isinstance(parsed, dict) and parsed.get("type") == "bytes"
                                 and "logicalType" not in parsed)


class _AvroSchemas(_RegistrySerde):
    def _parse(self, schema: Schema) -> Any:
        cache: dict[Schema, Any] = self.__dict__.setdefault("_parsed_cache", {})
        found = cache.get(schema)
        if found is None:
            fastavro = _fastavro()
            named: dict[str, Any] = {}
            for text in self._named_references(schema).values():
                fastavro.parse_schema(json.loads(_schema_loads(text).schema_str or ""), named_schemas=named)
            try:
                found = fastavro.parse_schema(json.loads(_schema_loads(schema.schema_str or "").schema_str or ""),
                                              named_schemas=named)
            except (ValueError, TypeError, KeyError, fastavro.schema.SchemaParseException) as e:
                raise SerializationError(f"invalid Avro schema: {e}") from None
            cache[schema] = found
        return found


class AvroSerializer(_AvroSchemas, Serializer):
    """An object (a dict, or anything ``to_dict`` turns into one) -> Confluent-framed Avro bytes."""

    _schema_type = "AVRO"
    _defaults = {"auto.register.schemas": True, "normalize.schemas": False, "use.schema.id": None,
                 "use.latest.version": False, "use.latest.with.metadata": None, "subject.name.strategy.type": None,
                 "subject.name.strategy.conf": None, "subject.name.strategy": None,
                 "schema.id.serializer": prefix_schema_id_serializer, "validate.strict": False,
                 "validate.strict.allow.default": False, "validation.rules.execution": None,
                 "validation.rules.fail.fast": False, "validation.rules.executor": None}
    _bool_keys = ("auto.register.schemas", "normalize.schemas", "use.latest.version", "validate.strict",
                  "validate.strict.allow.default")

    def __init__(self, schema_registry_client: SchemaRegistryClient, schema_str: str | Schema | None = None,
                 to_dict: Callable[[object, SerializationContext], dict[str, Any]] | None = None,
                 conf: dict[str, Any] | None = None, rule_conf: dict[str, Any] | None = None,
                 rule_registry: Any = None) -> None:
        schema = _schema_loads(schema_str) if isinstance(schema_str, str) else schema_str
        merged = self._configure_serializer(schema_registry_client, conf, rule_conf, rule_registry, to_dict)
        self._strict = merged["validate.strict"]
        self._strict_allow_default = merged["validate.strict.allow.default"]
        self._schema = schema
        self._parsed = self._parse(schema) if schema is not None else None
        if isinstance(self._parsed, dict) and schema is not None:
            # a named type's full name; a primitive's name is its type
            self._schema_name = self._parsed.get("name", json.loads(schema.schema_str or "{}").get("type"))

    def __call__(self, obj: Any, ctx: SerializationContext | None = None) -> bytes | None:
        if obj is None:
            return None
        schema_id, schema, value = self._prepare_write(obj, ctx)
        parsed = self._parse(schema) if schema is not None else None
        if _is_plain_bytes(parsed):
            payload = value if isinstance(value, bytes) else value.encode()
        else:
            out = io.BytesIO()
            try:
                _fastavro().schemaless_writer(out, parsed, value, strict=self._strict,
                                              strict_allow_default=self._strict_allow_default)
            except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as e:
                where = f" for {ctx.topic} {ctx.field}" if ctx is not None else ""
                raise SerializationError(f"value does not fit the Avro schema{where}: {e}") from e
            payload = out.getvalue()
        return self._id_serializer(payload, ctx, schema_id)  # type: ignore[no-any-return]


class AvroDeserializer(_AvroSchemas, Deserializer):
    """Confluent-framed Avro bytes -> a dict (or what ``from_dict`` makes of it), read with the writer's
    schema from the registry, resolved to ``schema_str`` (or the subject's latest version) when given."""

    _schema_type = "AVRO"
    _defaults = {"use.latest.version": False, "use.latest.with.metadata": None, "subject.name.strategy.type": None,
                 "subject.name.strategy.conf": None, "subject.name.strategy": None,
                 "schema.id.deserializer": dual_schema_id_deserializer}
    _bool_keys = ("use.latest.version",)

    def __init__(self, schema_registry_client: SchemaRegistryClient, schema_str: str | Schema | None = None,
                 from_dict: Callable[[dict[str, Any], SerializationContext], object] | None = None,
                 return_record_name: bool = False, conf: dict[str, Any] | None = None,
                 rule_conf: dict[str, Any] | None = None, rule_registry: Any = None) -> None:
        schema = _schema_loads(schema_str) if isinstance(schema_str, str) else schema_str
        self._configure_deserializer(schema_registry_client, conf, rule_conf, rule_registry, from_dict)
        self._return_record_name = return_record_name
        self._schema = schema
        self._reader = self._parse(schema) if schema is not None else None

    def __call__(self, data: bytes | None, ctx: SerializationContext | None = None) -> Any:
        if data is None:
            return None
        self._need_registry()
        payload, schema_id, _, writer, latest = self._read_frame(data, ctx, "name")
        reader = self._parse(latest.schema) if latest is not None else self._reader
        try:
            if _is_plain_bytes(writer):
                value: Any = payload.read()
            else:
                value = _fastavro().schemaless_reader(payload, writer, reader if reader is not writer else None,
                                                      self._return_record_name)
        except (EOFError, ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError,
                _fastavro().read.SchemaResolutionError) as e:
            where = f" of {ctx.topic} {ctx.field}" if ctx is not None else ""
            raise SerializationError(f"Avro value{where} (schema id {schema_id.id}) does not decode at byte "
                                     f"{payload.tell()}: "
                                     f"{type(e).__name__}: {e}") from e
        return self._object_of(value, ctx)


class AsyncAvroSerializer(_AsyncSerde):
    """AvroSerializer answering coroutines, for the ``aio`` clients: ``await AsyncAvroSerializer(...)``."""

    def __init__(self, schema_registry_client: Any, schema_str: str | Schema | None = None,
                 to_dict: Callable[[object, SerializationContext], dict[str, Any]] | None = None,
                 conf: dict[str, Any] | None = None, rule_conf: dict[str, Any] | None = None,
                 rule_registry: Any = None) -> None:
        self._serde = AvroSerializer(blocking_client(schema_registry_client), schema_str, to_dict, conf, rule_conf,
                                     rule_registry)


class AsyncAvroDeserializer(_AsyncSerde):
    """AvroDeserializer answering coroutines, for the ``aio`` clients: ``await AsyncAvroDeserializer(...)``."""

    def __init__(self, schema_registry_client: Any, schema_str: str | Schema | None = None,
                 from_dict: Callable[[dict[str, Any], SerializationContext], object] | None = None,
                 return_record_name: bool = False, conf: dict[str, Any] | None = None,
                 rule_conf: dict[str, Any] | None = None, rule_registry: Any = None) -> None:
        self._serde = AvroDeserializer(blocking_client(schema_registry_client), schema_str, from_dict,
                                       return_record_name, conf, rule_conf, rule_registry)
