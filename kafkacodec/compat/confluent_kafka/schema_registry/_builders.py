"""Serializer builders, as confluent-kafka 2.16's (``value.serializer.builder`` of the serializing
clients): the serde's arguments given up front or by chained ``set_*`` calls, the registry client
given or made from ``schema_registry_config`` (then owned, and closed with the serde)."""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from kafkacodec.compat.confluent_kafka.serialization import DeserializerBuilder, SerializerBuilder
from kafkacodec.schema_registry import SchemaRegistryClient


def _arguments(local_names: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in local_names.items() if name != "self"}


class _Builder:
    _params: dict[str, Any]
    _init_name: str

    def _make(self, client: Any) -> Any:
        raise NotImplementedError

    def build(self, conf: dict[str, Any], is_key: bool) -> tuple[Any, dict[str, Any]]:
        """The serde, and the client's settings untouched (the builder reads none of them)."""
        client = self._params["schema_registry_client"]
        client_conf = self._params["schema_registry_config"]
        if client is not None and client_conf is not None:
            raise ValueError("schema_registry_config and schema_registry_client are both set: give one of them")
        owned = SchemaRegistryClient(client_conf) if client is None and client_conf is not None else None
        try:
            serde = self._make(owned if owned is not None else client)
        except BaseException:
            if owned is not None:
                owned.close()
            raise
        serde._owned_client = owned
        init = self._params[self._init_name]
        if init is not None:
            try:
                init(serde)
            except BaseException:
                serde.close()
                raise
        return serde, dict(conf)


def _with_setters(cls: type) -> type:
    """``set_<name>(value)`` for each constructor argument, each answering the builder."""
    for name in list(inspect.signature(vars(cls)["__init__"]).parameters)[1:]:
        def setter(self: _Builder, value: Any, _name: str = name) -> Any:
            self._params[_name] = value
            return self
        setter.__name__ = f"set_{name}"
        setattr(cls, setter.__name__, setter)
    return cls


@_with_setters
class AvroSerializerBuilder(_Builder, SerializerBuilder):
    """Builds an AvroSerializer when the serializing client is made."""

    _init_name = "serializer_init"

    def __init__(self, schema_registry_config: dict[str, Any] | None = None,
                 schema_registry_client: SchemaRegistryClient | None = None, schema: Any = None,
                 to_dict: Callable[..., Any] | None = None, serializer_config: dict[str, Any] | None = None,
                 rule_config: dict[str, Any] | None = None, rule_registry: Any = None,
                 serializer_init: Callable[[Any], None] | None = None) -> None:
        self._params = _arguments(locals())

    def _make(self, client: Any) -> Any:
        from kafkacodec.compat.confluent_kafka.schema_registry.avro import AvroSerializer
        p = self._params
        return AvroSerializer(client, p["schema"], p["to_dict"], p["serializer_config"], p["rule_config"],
                              p["rule_registry"])


@_with_setters
class AvroDeserializerBuilder(_Builder, DeserializerBuilder):
    """Builds an AvroDeserializer when the deserializing client is made."""

    _init_name = "deserializer_init"

    def __init__(self, schema_registry_config: dict[str, Any] | None = None,
                 schema_registry_client: SchemaRegistryClient | None = None, schema: Any = None,
                 from_dict: Callable[..., Any] | None = None, return_record_name: bool = False,
                 deserializer_config: dict[str, Any] | None = None, rule_config: dict[str, Any] | None = None,
                 rule_registry: Any = None, deserializer_init: Callable[[Any], None] | None = None) -> None:
        self._params = _arguments(locals())

    def _make(self, client: Any) -> Any:
        from kafkacodec.compat.confluent_kafka.schema_registry.avro import AvroDeserializer
        p = self._params
        return AvroDeserializer(client, p["schema"], p["from_dict"], p["return_record_name"], p["deserializer_config"],
                                p["rule_config"], p["rule_registry"])


@_with_setters
class JSONSerializerBuilder(_Builder, SerializerBuilder):
    """Builds a JSONSerializer when the serializing client is made."""

    _init_name = "serializer_init"

    def __init__(self, schema_registry_config: dict[str, Any] | None = None,
                 schema_registry_client: SchemaRegistryClient | None = None, schema: Any = None,
                 to_dict: Callable[..., Any] | None = None, serializer_config: dict[str, Any] | None = None,
                 rule_config: dict[str, Any] | None = None, rule_registry: Any = None,
                 json_encode: Callable[..., Any] | None = None,
                 serializer_init: Callable[[Any], None] | None = None) -> None:
        self._params = _arguments(locals())

    def _make(self, client: Any) -> Any:
        from kafkacodec.compat.confluent_kafka.schema_registry.json_schema import JSONSerializer
        p = self._params
        return JSONSerializer(p["schema"], client, p["to_dict"], p["serializer_config"], p["rule_config"],
                              p["rule_registry"], p["json_encode"])


@_with_setters
class JSONDeserializerBuilder(_Builder, DeserializerBuilder):
    """Builds a JSONDeserializer when the deserializing client is made."""

    _init_name = "deserializer_init"

    def __init__(self, schema_registry_config: dict[str, Any] | None = None,
                 schema_registry_client: SchemaRegistryClient | None = None, schema: Any = None,
                 from_dict: Callable[..., Any] | None = None, deserializer_config: dict[str, Any] | None = None,
                 rule_config: dict[str, Any] | None = None, rule_registry: Any = None,
                 json_decode: Callable[..., Any] | None = None,
                 deserializer_init: Callable[[Any], None] | None = None) -> None:
        self._params = _arguments(locals())

    def _make(self, client: Any) -> Any:
        from kafkacodec.compat.confluent_kafka.schema_registry.json_schema import JSONDeserializer
        p = self._params
        return JSONDeserializer(p["schema"], p["from_dict"], client, p["deserializer_config"], p["rule_config"],
                                p["rule_registry"], p["json_decode"])
