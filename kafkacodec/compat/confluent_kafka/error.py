"""``confluent_kafka.error``: KafkaError, KafkaException, and the errors of the serializing
clients.  Each of the latter is a KafkaException whose ``args[0]`` is the KafkaError
(``code``/``name`` read it), with the original ``exception`` and, when consuming, the raw
``kafka_message``."""
from __future__ import annotations

from kafkacodec.compat.confluent_kafka._errors import CODES, KafkaError, KafkaException
from kafkacodec.compat.confluent_kafka._types import Message
from kafkacodec.compat.confluent_kafka.serialization import SerializationError

__all__ = ["KafkaError", "KafkaException", "ConsumeError", "KeyDeserializationError", "ValueDeserializationError",
           "ProduceError", "KeySerializationError", "ValueSerializationError"]


class _ClientError(KafkaException):
    """A KafkaException carrying the exception behind it and the message concerned."""

    def __init__(self, kafka_error: KafkaError, exception: Exception | None = None,
                 kafka_message: Message | None = None) -> None:
        super().__init__(kafka_error)
        self.exception = exception
        self.kafka_message = kafka_message

    @property
    def code(self) -> int:
        error: KafkaError = self.args[0]
        return error.code()

    @property
    def name(self) -> str:
        error: KafkaError = self.args[0]
        return error.name()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.args[0]})"


class ConsumeError(_ClientError):
    """A consumer's poll() met an error (the KafkaError of the event), or a deserializer failed."""


class KeyDeserializationError(ConsumeError, SerializationError):
    """The key deserializer raised `exception` for `kafka_message` (whose key is still the bytes)."""

    def __init__(self, exception: Exception | None = None, kafka_message: Message | None = None) -> None:
        super().__init__(KafkaError(CODES["_KEY_DESERIALIZATION"], str(exception)), exception, kafka_message)


class ValueDeserializationError(ConsumeError, SerializationError):
    """The value deserializer raised `exception` for `kafka_message` (whose value is still the bytes)."""

    def __init__(self, exception: Exception | None = None, kafka_message: Message | None = None) -> None:
        super().__init__(KafkaError(CODES["_VALUE_DESERIALIZATION"], str(exception)), exception, kafka_message)


class ProduceError(_ClientError):
    """produce() failed before the message was queued."""

    def __init__(self, kafka_error: KafkaError, exception: Exception | None = None) -> None:
        super().__init__(kafka_error, exception, None)


class KeySerializationError(ProduceError, SerializationError):
    """The key serializer raised `exception`; nothing was produced."""

    def __init__(self, exception: Exception | None = None) -> None:
        super().__init__(KafkaError(CODES["_KEY_SERIALIZATION"], str(exception)), exception)


class ValueSerializationError(ProduceError, SerializationError):
    """The value serializer raised `exception`; nothing was produced."""

    def __init__(self, exception: Exception | None = None) -> None:
        super().__init__(KafkaError(CODES["_VALUE_SERIALIZATION"], str(exception)), exception)
