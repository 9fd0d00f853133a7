# Stub for the compiled module kafkacodec/client/send_path.pyx.
from collections.abc import Callable
from typing import Any, Final, final

from kafkacodec.client import accumulator
from kafkacodec.client.accumulator import BatchResult, RecordMetadata

class DeliveryReport:
    def __call__(self, error: BaseException | None, metadata: RecordMetadata | None) -> None: ...

def run_reports(results: Any, errors: list[Exception], log: Any) -> int: ...

@final
class RecordHandle:
    _result: Final[BatchResult]
    _index: Final[int]
    _timestamp: Final[int]
    def __init__(self, result: BatchResult, index: int, timestamp: int) -> None: ...
    topic: Final[str]
    partition: Final[int]
    timestamp: Final[int]
    def done(self) -> bool: ...
    def get(self, timeout: float | None = None) -> RecordMetadata: ...
    def result(self, timeout: float | None = None) -> RecordMetadata: ...
    def exception(self, timeout: float | None = None) -> BaseException | None: ...
    offset: Final[int | None]

@final
class SendPath:
    def __init__(
        self, slots: dict[str, list[Any]], sticky: dict[str, int], key_hash: int,
        key_partition: Callable[[Any, int], int | None] | None, general: Callable[..., Any],
        completed: Any,
    ) -> None: ...
    def send(
        self, topic: str, value: Any = None, key: Any = None, headers: Any = None, partition: int | None = None,
        timestamp: int | None = None, callback: Callable[[BaseException | None, RecordMetadata | None], Any] | None = None,
    ) -> accumulator.RecordHandle: ...  # this module's RecordHandle, which accumulator exports when compiled
