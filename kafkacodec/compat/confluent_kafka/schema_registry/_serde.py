"""What the registry-aware serializers share: configuration, subject names, schema ids on the wire
(Confluent's 5-byte prefix, or a GUID in a header) and the schema each value is written or read with."""
from __future__ import annotations

import io
import struct
import threading
import uuid
from collections.abc import Callable
from typing import Any

from kafkacodec.compat.confluent_kafka.serialization import (MessageField, SerializationContext, SerializationError)
from kafkacodec.schema_registry import RegisteredSchema, Schema, SchemaRegistryClient

MAGIC_BYTE = 0           # Confluent's prefix: this byte, then the schema id (4 bytes, big-endian)
MAGIC_BYTE_GUID = 1      # the header form: this byte, then the schema's 16-byte GUID
_KEY_SCHEMA_ID = "__key_schema_id"
_VALUE_SCHEMA_ID = "__value_schema_id"
_ID = struct.Struct(">bI")


class SchemaId:
    """Which schema a value was written with: its id, its GUID, or both, and how they are written."""

    def __init__(self, schema_type: str, id: int | None = None, guid: Any = None,
                 message_indexes: list[int] | None = None) -> None:
        self.schema_type = schema_type
        self.id = id
        self.guid = uuid.UUID(str(guid)) if guid is not None and not isinstance(guid, uuid.UUID) else guid
        self.message_indexes = message_indexes

    def id_to_bytes(self) -> bytes:
        if self.id is None:
            raise SerializationError("Schema ID is not set")
        return _ID.pack(MAGIC_BYTE, self.id)

    def guid_to_bytes(self) -> bytes:
        if self.guid is None:
            raise SerializationError("Schema GUID is not set")
        return bytes([MAGIC_BYTE_GUID]) + self.guid.bytes

    def from_bytes(self, payload: io.BytesIO) -> io.BytesIO:
        """Reads the id (or GUID) at the start of ``payload``; answers what follows."""
        magic = payload.read(1)
        if magic == bytes([MAGIC_BYTE]):
            raw = payload.read(4)
            if len(raw) != 4:
                raise SerializationError("the value ends inside its schema id (byte 1)")
            self.id = struct.unpack(">I", raw)[0]
        elif magic == bytes([MAGIC_BYTE_GUID]):
            raw = payload.read(16)
            if len(raw) != 16:
                raise SerializationError("the value ends inside its schema GUID (byte 1)")
            self.guid = uuid.UUID(bytes=raw)
        else:
            raise SerializationError(f"Unknown magic byte {magic!r} at byte 0: this message was not produced "
                                     "with a Confluent Schema Registry serializer")
        return payload


def topic_subject_name_strategy(ctx: SerializationContext | None, record_name: str | None) -> str | None:
    """``{topic}-key`` or ``{topic}-value``."""
    if ctx is None:
        raise ValueError("SerializationContext is required for topic_subject_name_strategy. "
                         "Either provide a SerializationContext or use record_subject_name_strategy.")
    return f"{ctx.topic}-{ctx.field}"


def topic_record_subject_name_strategy(ctx: SerializationContext | None, record_name: str | None) -> str | None:
    """``{topic}-{record name}``."""
    if ctx is None:
        raise ValueError("SerializationContext is required for topic_record_subject_name_strategy. "
                         "Either provide a SerializationContext or use record_subject_name_strategy.")
    return f"{ctx.topic}-{record_name}" if record_name is not None else None


def record_subject_name_strategy(ctx: SerializationContext | None, record_name: str | None) -> str | None:
    """``{record name}`` (the fully qualified name of an Avro record, a JSON schema's title)."""
    return record_name


def reference_subject_name_strategy(ctx: SerializationContext | None, schema_ref: Any) -> str | None:
    """A schema reference's subject: its name."""
    return schema_ref.name if schema_ref is not None else None


_STRATEGIES = {"TOPIC": topic_subject_name_strategy, "RECORD": record_subject_name_strategy,
               "TOPIC_RECORD": topic_record_subject_name_strategy}


def _header_key(ctx: SerializationContext) -> str:
    return _KEY_SCHEMA_ID if ctx.field == MessageField.KEY else _VALUE_SCHEMA_ID


def prefix_schema_id_serializer(payload: bytes, ctx: SerializationContext | None, schema_id: SchemaId) -> bytes:
    """Confluent's wire format: magic byte 0, the 4-byte schema id, then the payload."""
    return schema_id.id_to_bytes() + payload


def header_schema_id_serializer(payload: bytes, ctx: SerializationContext | None, schema_id: SchemaId) -> bytes:
    """The schema's GUID in the ``__key_schema_id``/``__value_schema_id`` header; the payload as it is."""
    if ctx is None:
        raise SerializationError("SerializationContext is required for header_schema_id_serializer")
    headers = ctx.headers
    if isinstance(headers, list):
        headers.append((_header_key(ctx), schema_id.guid_to_bytes()))
    elif isinstance(headers, dict):
        headers[_header_key(ctx)] = schema_id.guid_to_bytes()
    else:
        raise SerializationError("header_schema_id_serializer needs the context's headers (a list or a dict)")
    return payload


def prefix_schema_id_deserializer(payload: bytes, ctx: SerializationContext | None,
                                  schema_id: SchemaId) -> io.BytesIO:
    """Reads the schema id from the payload's prefix."""
    return schema_id.from_bytes(io.BytesIO(payload))


def dual_schema_id_deserializer(payload: bytes, ctx: SerializationContext | None, schema_id: SchemaId) -> io.BytesIO:
    """The schema id from the message's header when it has one, else from the payload's prefix."""
    found = _header_id(ctx)
    if found is not None:
        schema_id.from_bytes(io.BytesIO(found if isinstance(found, bytes) else str(found).encode()))
        return io.BytesIO(payload)
    return schema_id.from_bytes(io.BytesIO(payload))


def check_framing(data: bytes, ctx: SerializationContext | None) -> None:
    """Refuses a value too short for Confluent's prefix (unless a header names its schema)."""
    if len(data) > 5 or _header_id(ctx) is not None:
        return
    raise SerializationError(f"Expecting data framing of length 6 bytes or more but total data size is {len(data)} "
                             "bytes. This message was not produced with a Confluent Schema Registry serializer")


def _header_id(ctx: SerializationContext | None) -> Any:
    if ctx is None or ctx.headers is None:
        return None
    key = _header_key(ctx)
    if isinstance(ctx.headers, dict):
        return ctx.headers.get(key)
    return next((v for k, v in ctx.headers if k == key), None)  # type: ignore[str-unpack]


def _strategy_of(value: Any) -> Callable[..., str | None]:
    if value is None:
        return topic_subject_name_strategy
    if callable(value):
        return value     # type: ignore[no-any-return]
    raise ValueError("subject.name.strategy must be callable")


def _converted(convert: Callable[[Any, SerializationContext], Any] | None, value: Any,
               ctx: SerializationContext | None) -> Any:
    """``convert(value, ctx)`` (a serde's to_dict or from_dict), or value as it is when there is none."""
    if convert is None:
        return value
    if ctx is None:
        raise TypeError("SerializationContext cannot be None")
    return convert(value, ctx)


class _RegistrySerde:
    """Configuration and schema lookups common to the serializers and deserializers."""

    _schema_type = "AVRO"
    _defaults: dict[str, Any] = {}
    _bool_keys: tuple[str, ...] = ()
    _auto_register = False          # the serializers set these from their configuration
    _normalize_schemas = False
    _to_dict: Any = None
    _from_dict: Any = None
    _schema: Schema | None = None          # the schema given to the constructor
    _schema_name: str | None = None        # its name, for the record subject name strategies

    def _configure(self, registry: SchemaRegistryClient | None, conf: dict[str, Any] | None,
                   rule_conf: Any, rule_registry: Any) -> dict[str, Any]:
        if rule_conf or rule_registry is not None:
            raise ValueError("data contract rules (rule_conf, rule_registry) are not supported by kafkacodec's "
                             "serializers")
        self._registry = registry
        merged = dict(self._defaults)
        merged.update(conf or {})
        unknown = [k for k in merged if k not in self._defaults]
        if unknown:
            raise ValueError(f"Unrecognized properties: {', '.join(unknown)}")
        for key in self._bool_keys:
            if not isinstance(merged[key], bool):
                raise ValueError(f"{key} must be a boolean value")
        use_id = merged.get("use.schema.id")
        if use_id is not None and (isinstance(use_id, bool) or not isinstance(use_id, int)):
            raise ValueError("use.schema.id must be an int value")
        with_metadata = merged.get("use.latest.with.metadata")
        if with_metadata is not None and not isinstance(with_metadata, dict):
            raise ValueError("use.latest.with.metadata must be a dict value")
        kind = merged.get("subject.name.strategy.type")
        if kind is not None:
            name = str(getattr(kind, "name", kind)).upper()
            if name not in _STRATEGIES:
                raise ValueError(f"subject.name.strategy.type {name} is not supported (TOPIC, RECORD, TOPIC_RECORD)")
            self._subject_name_func = _STRATEGIES[name]
        else:
            self._subject_name_func = _strategy_of(merged.get("subject.name.strategy"))
        for key in ("schema.id.serializer", "schema.id.deserializer"):
            if key in merged and not callable(merged[key]):
                raise ValueError(f"{key} must be callable")
        rules = merged.get("validation.rules.execution")
        if rules is not None and str(getattr(rules, "value", rules)).upper() != "DISABLED":
            raise ValueError("validation.rules.execution is not supported by kafkacodec's serializers")
        self._use_schema_id = use_id
        self._use_latest_version = bool(merged.get("use.latest.version"))
        self._use_latest_with_metadata = with_metadata
        self._lock = threading.Lock()
        self._known_subjects: dict[str, SchemaId] = {}
        return merged

    def _configure_serializer(self, registry: SchemaRegistryClient, conf: dict[str, Any] | None, rule_conf: Any,
                              rule_registry: Any, to_dict: Any) -> dict[str, Any]:
        if to_dict is not None and not callable(to_dict):
            raise ValueError("to_dict must be callable with the signature to_dict(object, SerializationContext)->dict")
        merged = self._configure(registry, conf, rule_conf, rule_registry)
        self._auto_register = merged["auto.register.schemas"]
        self._normalize_schemas = merged["normalize.schemas"]
        if self._use_latest_version and self._auto_register:
            raise ValueError("cannot enable both use.latest.version and auto.register.schemas")
        self._id_serializer = merged["schema.id.serializer"]
        self._to_dict = to_dict
        return merged

    def _configure_deserializer(self, registry: SchemaRegistryClient | None, conf: dict[str, Any] | None,
                                rule_conf: Any, rule_registry: Any, from_dict: Any) -> dict[str, Any]:
        merged = self._configure(registry, conf, rule_conf, rule_registry)
        self._id_deserializer = merged["schema.id.deserializer"]
        if from_dict is not None and not callable(from_dict):
            raise ValueError("from_dict must be callable with the signature from_dict(dict, SerializationContext) "
                             "-> object")
        self._from_dict = from_dict
        return merged

    def _prepare_write(self, obj: Any, ctx: SerializationContext | None) -> tuple[SchemaId, Schema | None, Any]:
        """The schema id to write ``obj`` with, the schema to write it in, and what to write."""
        subject = self._subject(ctx, self._schema_name)
        schema_id, chosen = self._schema_id_for_write(ctx, subject, self._schema)
        return schema_id, chosen.schema if chosen is not None else self._schema, self._dict_of(obj, ctx)

    def _dict_of(self, obj: Any, ctx: SerializationContext | None) -> Any:
        """What a serializer writes: ``to_dict(obj, ctx)`` when given, else the object."""
        return _converted(self._to_dict, obj, ctx)

    def _object_of(self, value: Any, ctx: SerializationContext | None) -> Any:
        """What a deserializer answers: ``from_dict(value, ctx)`` when given, else the value."""
        return _converted(self._from_dict, value, ctx)

    def _parse(self, schema: Schema) -> Any:
        raise NotImplementedError

    def _read_frame(self, data: bytes, ctx: SerializationContext | None, name_key: str
                    ) -> tuple[io.BytesIO, SchemaId, Schema | None, Any, RegisteredSchema | None]:
        """A framed value's payload, its schema id, the writer's schema and its parsed form (None without a
        registry) and the registry's schema to read it with when the configuration names one."""
        check_framing(data, ctx)
        subject = self._subject(ctx, None) if ctx is not None else None
        latest = self._reader_registered(subject) if subject is not None else None
        schema_id = SchemaId(self._schema_type)
        payload = self._id_deserializer(data, ctx, schema_id)
        writer = parsed = None
        if self._registry is not None:
            writer = self._writer_schema(schema_id, subject)
            parsed = self._parse(writer)
            if subject is None and ctx is not None and isinstance(parsed, dict):
                # the record strategies name the subject after the writer's schema
                subject = self._subject(ctx, parsed.get(name_key))
                if subject is not None:
                    latest = self._reader_registered(subject)
        return payload, schema_id, writer, parsed, latest

    def _subject(self, ctx: SerializationContext | None, record_name: str | None) -> str | None:
        return self._subject_name_func(ctx, record_name)

    def _reader_registered(self, subject: str) -> RegisteredSchema | None:
        """The registry's schema to write (or read) with, when the configuration says to use one."""
        if self._use_schema_id is not None:
            schema = self._need_registry().get_schema(self._use_schema_id, subject)
            return RegisteredSchema(self._use_schema_id, schema, subject, None)
        if self._use_latest_with_metadata is not None:
            return self._need_registry().get_latest_with_metadata(subject, self._use_latest_with_metadata,
                                                                  deleted=True)
        if self._use_latest_version:
            return self._need_registry().get_latest_version(subject)
        return None

    def _need_registry(self) -> SchemaRegistryClient:
        if self._registry is None:
            raise SerializationError("a schema registry client is needed to look schemas up")
        return self._registry

    def _writer_schema(self, schema_id: SchemaId, subject: str | None) -> Schema:
        registry = self._need_registry()
        if schema_id.id is not None:
            return registry.get_schema(schema_id.id, subject)
        if schema_id.guid is not None:
            return registry.get_schema_by_guid(str(schema_id.guid))
        raise SerializationError("the value names no schema id or GUID")

    def _named_references(self, schema: Schema, seen: dict[str, Any] | None = None) -> dict[str, str]:
        """The texts of the schemas ``schema`` references (and those they reference), by reference name."""
        out: dict[str, str] = {} if seen is None else seen
        for ref in schema.references or ():
            if ref.name in out or ref.subject is None:
                continue
            registered = self._need_registry().get_version(ref.subject, ref.version if ref.version is not None
                                                           else "latest")
            self._named_references(registered.schema, out)
            out[str(ref.name)] = registered.schema.schema_str or ""
        return out

    def _schema_id_for_write(self, ctx: SerializationContext | None, subject: str | None,
                             schema: Schema | None) -> tuple[SchemaId, RegisteredSchema | None]:
        """The id to write with and, when the registry chose the schema, that schema."""
        if subject is not None:
            chosen = self._reader_registered(subject)
            if chosen is not None:
                return SchemaId(self._schema_type, chosen.schema_id, chosen.guid), chosen
        if subject is None:
            raise SerializationError("the subject name strategy gave no subject for this message")
        known = self._known_subjects.get(subject)
        if known is not None:
            return known, None
        if schema is None:
            raise ValueError("a schema is needed unless use.latest.version or use.schema.id is set")
        with self._lock:
            registry = self._need_registry()
            if self._auto_register:
                registered = registry.register_schema_full_response(subject, schema,
                                                                    normalize_schemas=self._normalize_schemas)
            else:
                registered = registry.lookup_schema(subject, schema, normalize_schemas=self._normalize_schemas)
            found = SchemaId(self._schema_type, registered.schema_id, registered.guid)
            self._known_subjects[subject] = found
        return found, None

    # confluent-kafka's serdes take these from the clients; there is nothing to hold or release here
    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        pass

    def close(self) -> None:
        # a client a builder made for this serde is closed with it; one given stays the application's
        owned = self.__dict__.get("_owned_client")
        if owned is not None:
            owned.close()
