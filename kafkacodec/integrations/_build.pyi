# Stub for the compiled module kafkacodec/integrations/_build.pyx.
from typing import Any, Callable

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
