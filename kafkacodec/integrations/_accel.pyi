# Stub for the compiled module kafkacodec/integrations/_accel.pyx.
from typing import Any, Callable

from _typeshed import ReadableBuffer

def kp_batch_records(
    cls: type[tuple[Any, ...]], data: ReadableBuffer, topic: str, partition: int, leader_epoch: int,
    untrack: bool = False,
) -> tuple[list[tuple[Any, ...]], list[int]] | None: ...
def kp_default_records(cls: type[tuple[Any, ...]], data: ReadableBuffer) -> list[tuple[Any, ...]] | None: ...
def aio_batch_records(
    cls: type, names: tuple[str, ...], data: ReadableBuffer, topic: str, partition: int, untrack: bool = False
) -> tuple[list[Any], list[int]] | None: ...
def v2_size_estimator(overhead: int, fallback: Callable[[Any, Any, Any], int]) -> Callable[[Any, Any, Any], int]: ...

class V2Builder:
    _buffer: bytearray
    _first_timestamp: int | None
    _max_timestamp: int | None
    _last_offset: int
    _num_records: int
    _batch_size: int
    def size(self) -> int: ...
    def append(self, offset: int, timestamp: int | None, key: Any, value: Any, headers: Any) -> Any: ...
