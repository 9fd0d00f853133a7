# Stub for the compiled module kafkacodec/arrow/_columnar.pyx.
from typing import Any, Final, Self, final

from _typeshed import ReadableBuffer

from kafkacodec._buffer import OwnedBuffer
from kafkacodec.records._records import RecordBatch

# finish() returns the column buffers under these keys: "rows", "offset",
# "timestamp", "timestamp_type", "key_offsets", "key_data", "key_valid",
# "key_nulls", "value_offsets", "value_data", "value_valid", "value_nulls";
# with headers also "header_offsets", "header_count", "header_key_offsets",
# "header_key_data", "header_value_offsets", "header_value_data",
# "header_value_valid", "header_value_nulls"; with batch columns also
# "producer_id", "producer_epoch", "sequence", "partition_leader_epoch",
# "is_transactional".  Counts are int; validity bitmaps are None without nulls.
@final
class ColumnBuilder:
    """Accumulates the records of many batches as Arrow column buffers."""

    def __new__(
        cls,
        headers: bool = True,
        batch_columns: bool = False,
        max_decompressed_size: int | None = None,
        large_offsets: bool = False,
        size_hint: int = 0,
        max_records_per_batch: int | None = None,
    ) -> Self: ...
    rows: Final[int]
    key_nulls: Final[int]
    value_nulls: Final[int]
    header_count: Final[int]
    header_value_nulls: Final[int]
    with_headers: Final[bool]
    with_batch_columns: Final[bool]
    large_offsets: Final[bool]
    def add_batch(self, batch: RecordBatch) -> None: ...
    def add_buffer(self, data: ReadableBuffer, verify_crc: bool = True) -> int: ...
    def finish(self) -> dict[str, int | OwnedBuffer | None]: ...
