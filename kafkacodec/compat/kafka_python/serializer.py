"""kafka.serializer (kafka-python): serializers are objects with serialize(topic, headers, data)
(deserialize(topic, headers, data)) or plain functions of the data."""
from __future__ import annotations

import json
from typing import Any

__all__ = ["Serializer", "Deserializer", "DefaultSerializer", "JsonSerializer", "serialize", "deserialize"]


class Serializer:
    def serialize(self, topic: str, headers: Any, data: Any) -> Any:
        raise NotImplementedError

    def close(self) -> None:
        pass


class Deserializer:
    def deserialize(self, topic: str, headers: Any, data: bytes | None) -> Any:
        raise NotImplementedError

    def close(self) -> None:
        pass


class DefaultSerializer(Serializer, Deserializer):
    """str <-> bytes in `encoding`; bytes-like and None pass as they are."""

    def __init__(self, encoding: str = "utf-8") -> None:
        self.encoding = encoding

    def serialize(self, topic: str, headers: Any, data: Any) -> Any:
        if data is None or isinstance(data, (bytes, bytearray, memoryview)):
            return data
        return str(data).encode(self.encoding)

    def deserialize(self, topic: str, headers: Any, data: bytes | None) -> Any:
        return None if data is None else data.decode(self.encoding)


class JsonSerializer(DefaultSerializer):
    def serialize(self, topic: str, headers: Any, data: Any) -> Any:
        return None if data is None else super().serialize(topic, headers, json.dumps(data))

    def deserialize(self, topic: str, headers: Any, data: bytes | None) -> Any:
        return None if data is None else json.loads(super().deserialize(topic, headers, data))


def serialize(serializer: Any, topic: str, headers: Any, data: Any) -> Any:
    if serializer is None:
        return data
    method = getattr(serializer, "serialize", None)
    return serializer(data) if method is None else method(topic, headers, data)


def deserialize(deserializer: Any, topic: str, headers: Any, data: Any) -> Any:
    if deserializer is None:
        return data
    method = getattr(deserializer, "deserialize", None)
    return deserializer(data) if method is None else method(topic, headers, data)
