# Stub for the compiled module kafkacodec/compat/_face_records.pyx (pure twin: _face_records_py.py).
from dataclasses import Field
from typing import Any, ClassVar, Generic, TypeVar, final

from kafkacodec.client import ConsumerRecord as _Record
from kafkacodec.client.types import TopicPartition

_KT = TypeVar("_KT")
_VT = TypeVar("_VT")
_T = TypeVar("_T")

__all__ = ["ConsumerRecord", "AioRecords", "KpRecords"]

@final
class ConsumerRecord(Generic[_KT, _VT]):
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    __match_args__: ClassVar[tuple[str, ...]]
    def __class_getitem__(cls, item: Any, /) -> Any: ...
    topic: str
    partition: int
    offset: int
    timestamp: int
    timestamp_type: int
    key: _KT | None
    value: _VT | None
    checksum: int | None
    serialized_key_size: int
    serialized_value_size: int
    headers: tuple[tuple[str, bytes | None], ...]
    def __init__(self, topic: str, partition: int, offset: int, timestamp: int, timestamp_type: int, key: _KT | None,
                 value: _VT | None, checksum: int | None, serialized_key_size: int, serialized_value_size: int,
                 headers: tuple[tuple[str, bytes | None], ...]) -> None: ...

@final
class AioRecords:
    def __init__(self, key_deserializer: Any = None, value_deserializer: Any = None) -> None: ...
    def by_partition(self, records: list[_Record]) -> dict[TopicPartition, list[ConsumerRecord[Any, Any]]]: ...
    def one(self, r: _Record) -> ConsumerRecord[Any, Any]: ...

@final
class KpRecords(Generic[_T]):
    def __init__(self, record_type: type[_T], key_deserializer: Any = None, value_deserializer: Any = None) -> None: ...
    def by_partition(self, records: list[_Record]) -> dict[TopicPartition, list[_T]]: ...
    def one(self, r: _Record) -> _T: ...
