"""``confluent_kafka.serialization``: the serializer protocol and the plain serdes.

A serializer is any callable ``(obj, SerializationContext) -> bytes | None`` and a
deserializer ``(bytes | None, SerializationContext) -> obj``; ``SerializingProducer`` and
``DeserializingConsumer`` (and their asyncio twins in ``aio``) call them for keys and values.
The built-in ones write what confluent-kafka's (and Kafka's Java serdes) write, byte for byte:

==================================  =========  ==========================================
StringSerializer / Deserializer     str        the text in ``codec`` (UTF-8 by default)
IntegerSerializer / Deserializer    int        signed 32-bit, big-endian
DoubleSerializer / Deserializer     float      IEEE 754 binary64, big-endian
UUIDSerializer / Deserializer       uuid.UUID  the 36-character text form in ``codec``
==================================  =========  ==========================================

``None`` is Kafka's null both ways.  Bytes that do not decode (a 3-byte int, invalid UTF-8) and
objects that do not encode (an int past 32 bits) raise ``SerializationError``.

The UUID pair is kafkacodec's: confluent-kafka has none; it writes what Kafka's Java
``UUIDSerializer`` writes, so confluent-kafka reads it with ``StringDeserializer``.
"""
from __future__ import annotations

import enum
import struct
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kafkacodec.compat.confluent_kafka._errors import KafkaException

__all__ = ["Deserializer", "DeserializerBuilder", "IntegerDeserializer", "IntegerSerializer", "DoubleDeserializer",
           "DoubleSerializer", "StringDeserializer", "StringSerializer", "UUIDSerializer", "UUIDDeserializer",
           "MessageField", "SerializationContext", "SerializationError", "Serializer", "SerializerBuilder"]

# a message's headers as produce() takes them: a dict, or (key, value) pairs
HeadersType = Mapping[str, str | bytes | None] | Sequence[tuple[str, str | bytes | None]]

_INT32 = struct.Struct(">i")
_FLOAT64 = struct.Struct(">d")


class MessageField(str, enum.Enum):
    """Which part of a message a serde is working on."""

    NONE = "none"
    KEY = "key"
    VALUE = "value"

    def __str__(self) -> str:
        return str(self.value)


class SerializationContext:
    """What a serde is told besides the object: the topic, the field (key or value), the headers."""

    def __init__(self, topic: str, field: MessageField, headers: HeadersType | None = None) -> None:
        self.topic = topic
        self.field = field
        self.headers = headers

    def __repr__(self) -> str:
        return f"SerializationContext({self.topic!r}, {self.field}, {self.headers!r})"


class SerializationError(KafkaException):
    """A key or value could not be turned into bytes, or bytes back into an object."""


class Serializer:
    """Base of the serializers: subclasses implement ``__call__(obj, ctx) -> bytes | None``."""

    __slots__: list[str] = []

    def __call__(self, obj: Any, ctx: SerializationContext | None = None) -> bytes | None:
        raise NotImplementedError

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """Take a callable answering the cluster id, for serializers that need it (those of a schema
        registry); the clients hand one over when they are created.  The default ignores it."""

    def close(self) -> None:
        """Release what this serializer holds; the clients call it for the serializers they built."""


class Deserializer:
    """Base of the deserializers: subclasses implement ``__call__(value, ctx) -> object``."""

    __slots__: list[str] = []

    def __call__(self, value: bytes | None, ctx: SerializationContext | None = None) -> Any:
        raise NotImplementedError

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        """As Serializer.set_cluster_id_resolver."""

    def close(self) -> None:
        """As Serializer.close."""


class SerializerBuilder:
    """Makes a serializer when the client is created: ``build(conf, is_key)`` returns the serializer
    and the settings it left for the client (a builder may take settings of its own out)."""

    __slots__: list[str] = []

    def build(self, conf: dict[str, Any], is_key: bool) -> tuple[Serializer, dict[str, Any]]:
        raise NotImplementedError


class DeserializerBuilder:
    """SerializerBuilder's counterpart for deserializers."""

    __slots__: list[str] = []

    def build(self, conf: dict[str, Any], is_key: bool) -> tuple[Deserializer, dict[str, Any]]:
        raise NotImplementedError


def _null_or(value: Any, convert: Callable[[Any], Any], errors: type[Exception] | tuple[type[Exception], ...],
             describe: Callable[[Exception], str] = str) -> Any:
    """None as it is (Kafka's null), else convert(value); its `errors` are raised as SerializationError
    (the message: describe(exc))."""
    if value is None:
        return None
    try:
        return convert(value)
    except errors as exc:
        raise SerializationError(describe(exc)) from exc


class DoubleSerializer(Serializer):
    """float -> 8 bytes, IEEE 754 binary64, big-endian."""

    def __call__(self, obj: float | None, ctx: SerializationContext | None = None) -> bytes | None:
        packed: bytes | None = _null_or(obj, _FLOAT64.pack, struct.error)
        return packed


class DoubleDeserializer(Deserializer):
    """8 bytes, IEEE 754 binary64, big-endian -> float."""

    def __call__(self, value: bytes | None, ctx: SerializationContext | None = None) -> float | None:
        number: float | None = _null_or(value, lambda v: _FLOAT64.unpack(v)[0], struct.error)
        return number


class IntegerSerializer(Serializer):
    """int -> 4 bytes, signed, big-endian."""

    def __call__(self, obj: int | None, ctx: SerializationContext | None = None) -> bytes | None:
        packed: bytes | None = _null_or(obj, _INT32.pack, struct.error)
        return packed


class IntegerDeserializer(Deserializer):
    """4 bytes, signed, big-endian -> int."""

    def __call__(self, value: bytes | None, ctx: SerializationContext | None = None) -> int | None:
        number: int | None = _null_or(value, lambda v: _INT32.unpack(v)[0], struct.error)
        return number


class _TextCodec:
    """The serdes of text: `codec`, any of Python's codec names (UTF-8 by default)."""

    def __init__(self, codec: str = "utf_8") -> None:
        self.codec = codec


class StringSerializer(_TextCodec, Serializer):
    """str -> bytes in `codec` (any of Python's codec names; UTF-8 by default)."""

    def __call__(self, obj: str | None, ctx: SerializationContext | None = None) -> bytes | None:
        encoded: bytes | None = _null_or(obj, lambda text: text.encode(self.codec), UnicodeError)
        return encoded


class StringDeserializer(_TextCodec, Deserializer):
    """bytes in `codec` (UTF-8 by default) -> str."""

    def __call__(self, value: bytes | None, ctx: SerializationContext | None = None) -> str | None:
        decoded: str | None = _null_or(value, lambda data: data.decode(self.codec), UnicodeError)
        return decoded


class UUIDSerializer(_TextCodec, Serializer):
    """uuid.UUID (or its text) -> its 36-character text in `codec`, as Kafka's Java UUIDSerializer."""

    def __call__(self, obj: uuid.UUID | str | None, ctx: SerializationContext | None = None) -> bytes | None:
        def encode(given: uuid.UUID | str) -> bytes:
            # text is checked by parsing it: the reader parses it the same way
            return str(given if isinstance(given, uuid.UUID) else uuid.UUID(given)).encode(self.codec)
        encoded: bytes | None = _null_or(obj, encode, (ValueError, TypeError, AttributeError),
                                         lambda exc: f"not a UUID: {obj!r} ({exc})")
        return encoded


class UUIDDeserializer(_TextCodec, Deserializer):
    """The text of a UUID in `codec` -> uuid.UUID, as Kafka's Java UUIDDeserializer."""

    def __call__(self, value: bytes | None, ctx: SerializationContext | None = None) -> uuid.UUID | None:
        parsed: uuid.UUID | None = _null_or(value, lambda data: uuid.UUID(data.decode(self.codec)),
                                            (ValueError, UnicodeError),
                                            lambda exc: f"not a UUID: {bytes(value or b'')!r} ({exc})")
        return parsed
