"""confluent-kafka's DeserializingShareConsumer: the ShareConsumer whose poll() deserializes each
message's key and value in place (key.deserializer, value.deserializer, as DeserializingConsumer
takes them).  A message whose key or value fails keeps its raw bytes, stays acknowledgeable and
gets a _KEY_DESERIALIZATION / _VALUE_DESERIALIZATION error instead of the batch being lost."""
from __future__ import annotations

from typing import Any

from kafkacodec.compat.confluent_kafka._errors import CODES, KafkaError
from kafkacodec.compat.confluent_kafka._serializing import close_serdes, with_serdes
from kafkacodec.compat.confluent_kafka._share import Messages, ShareConsumer
from kafkacodec.compat.confluent_kafka._types import Message
from kafkacodec.compat.confluent_kafka.serialization import MessageField, SerializationContext

__all__ = ["DeserializingShareConsumer"]


class DeserializingShareConsumer(ShareConsumer):
    _owned_serdes: list[Any]   # the serdes built from builders: closed with the client

    def __init__(self, conf: dict[str, Any]) -> None:
        self._key_deserializer, self._value_deserializer = with_serdes(self, conf, "deserializer",
                                                                       super().__init__)

    def poll(self, timeout: float = -1) -> Messages:
        messages = super().poll(timeout)
        for msg in messages:
            if msg.error() is None:
                self._deserialize(msg)
        return messages

    def _deserialize(self, msg: Message) -> None:
        topic = msg.topic()
        if topic is None:
            raise TypeError("Message topic is None")
        ctx = SerializationContext(topic, MessageField.KEY, msg.headers())
        # the key first: its deserializer may leave something for the value's
        try:
            key = msg.key() if self._key_deserializer is None else self._key_deserializer(msg.key(), ctx)
        except Exception as exc:
            msg.set_error(KafkaError(CODES["_KEY_DESERIALIZATION"], str(exc)))
            return
        try:
            ctx.field = MessageField.VALUE
            value = msg.value() if self._value_deserializer is None else self._value_deserializer(msg.value(), ctx)
        except Exception as exc:
            msg.set_error(KafkaError(CODES["_VALUE_DESERIALIZATION"], str(exc)))
            return
        msg.set_key(key)
        msg.set_value(value)

    def close(self) -> None:
        super().close()
        owned, self._owned_serdes = self._owned_serdes, []
        close_serdes(owned)
