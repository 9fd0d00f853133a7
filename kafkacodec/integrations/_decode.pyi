# Stub for the compiled module kafkacodec/integrations/_decode.pyx.
from typing import Any

from _typeshed import ReadableBuffer

def kp_batch_records(
    cls: type[tuple[Any, ...]], data: ReadableBuffer, topic: str, partition: int, leader_epoch: int,
    untrack: bool = False,
) -> tuple[list[tuple[Any, ...]], list[int]] | None: ...
def kp_default_records(cls: type[tuple[Any, ...]], data: ReadableBuffer) -> list[tuple[Any, ...]] | None: ...
def aio_batch_records(
    cls: type, names: tuple[str, ...], data: ReadableBuffer, topic: str, partition: int, untrack: bool = False
) -> tuple[list[Any], list[int]] | None: ...
