# Stub for the compiled module kafkacodec/records/_records.pyx.
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final, Literal, Protocol, TypeAlias, TypedDict, Unpack, final

from _typeshed import ReadableBuffer, WriteableBuffer

from kafkacodec.records.pool import BufferPool

_CodecName: TypeAlias = Literal["none", "gzip", "snappy", "lz4", "zstd"]
# A codec by name (any case) or by id 0-4.
_Codec: TypeAlias = str | int
_IsolationLevel: TypeAlias = Literal["read_uncommitted", "read_committed", 0, 1]
# Decoded headers: keys are str (undecodable bytes kept as surrogate escapes).
_Header: TypeAlias = tuple[str, bytes | None]
_HeaderIn: TypeAlias = tuple[str | bytes | bytearray | memoryview, ReadableBuffer | None]
_RecordIn: TypeAlias = (
    tuple[int | None, ReadableBuffer | None, ReadableBuffer | None]
    | tuple[int | None, ReadableBuffer | None, ReadableBuffer | None, Iterable[_HeaderIn] | None]
)

class _AbortedTransactionLike(Protocol):
    @property
    def producer_id(self) -> int: ...
    @property
    def first_offset(self) -> int: ...

_AbortedTransaction: TypeAlias = tuple[int, int] | Mapping[str, int] | _AbortedTransactionLike

__all__ = [
    "iter_batches", "decode_records", "filtered_batches", "build_control_batch", "build_batches",
    "RecordBatch", "Record", "RecordBatchBuilder", "BatchIterator",
    "CODEC_NAMES", "CONTROL_ABORT", "CONTROL_COMMIT", "CONTROL_TYPE_NAMES",
]

CODEC_NAMES: Final[tuple[_CodecName, ...]]
CONTROL_ABORT: Final = 0
CONTROL_COMMIT: Final = 1
CONTROL_TYPE_NAMES: Final[dict[int, str]]

class Record:
    """One record; attributes are read-only.  A subclass may be a consumer's ``record_class``."""

    offset: Final[int]
    timestamp: Final[int]
    timestamp_type: Final[int]
    key: Final[bytes | None]
    value: Final[bytes | None]
    topic: Final[str | None]
    partition: Final[int | None]
    leader_epoch: Final[int]
    headers: Final[tuple[_Header, ...]]
    checksum: Final[int | None]
    size_in_bytes: Final[int]
    is_control: Final[bool]
    control_type: Final[str | int | None]
    control_version: Final[int | None]
    coordinator_epoch: Final[int | None]
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

@final
class RecordBatch:
    """A zero-copy view of one v2 batch or one top-level legacy entry."""

    magic: Final[int]
    base_offset: Final[int]
    last_offset: Final[int]
    partition_leader_epoch: Final[int]
    crc: Final[int]
    attributes: Final[int]
    base_timestamp: Final[int]
    max_timestamp: Final[int]
    producer_id: Final[int]
    producer_epoch: Final[int]
    base_sequence: Final[int]
    record_count: Final[int]
    size_in_bytes: Final[int]
    position: Final[int]
    compression: Final[_CodecName]
    compression_id: Final[int]
    timestamp_type: Final[int]
    is_transactional: Final[bool]
    is_control: Final[bool]
    has_delete_horizon: Final[bool]
    has_producer_id: Final[bool]
    index: Final[int]
    next_offset: Final[int]
    delete_horizon_ms: Final[int | None]
    def raw(self) -> memoryview: ...
    def records(self, topic: str | None = None, partition: int | None = None,
                record_class: type[Record] | None = None) -> list[Record]: ...
    def __iter__(self) -> Iterator[Record]: ...
    def __len__(self) -> int: ...
    def control_record(self) -> tuple[int | None, str | int | None] | None: ...

@final
class BatchIterator:
    """Iterates the entries of a buffer; a truncated final entry ends it."""

    position: Final[int]
    trailing_bytes: Final[int]
    def __iter__(self) -> BatchIterator: ...
    def __next__(self) -> RecordBatch: ...

@final
class RecordBatchBuilder:
    """Builds one record batch (magic 2) or legacy message set (magic 0/1)."""

    def __init__(
        self,
        magic: int = 2,
        compression: _Codec = "none",
        *,
        base_offset: int = 0,
        timestamp_type: int = 0,
        producer_id: int = -1,
        producer_epoch: int = -1,
        base_sequence: int = -1,
        is_transactional: bool = False,
        is_control: bool = False,
        partition_leader_epoch: int = -1,
        batch_size: int = 1048576,
        compression_level: int | None = None,
        log_append_time: int | None = None,
        pool: BufferPool | None = None,
        max_block_seconds: float = 60.0,
        buffer: WriteableBuffer | None = None,
        max_records: int = 0x7FFFFFFF,
    ) -> None: ...
    magic: Final[int]
    compression_id: Final[int]
    base_offset: Final[int]
    timestamp_type: Final[int]
    producer_id: Final[int]
    producer_epoch: Final[int]
    base_sequence: Final[int]
    is_transactional: Final[bool]
    is_control: Final[bool]
    partition_leader_epoch: Final[int]
    batch_size: Final[int]
    record_count: Final[int]
    size_in_bytes: Final[int]
    max_timestamp: Final[int]
    def is_full(self) -> bool: ...
    def set_producer(self, producer_id: int, producer_epoch: int, base_sequence: int, is_transactional: bool) -> None: ...
    def append(
        self,
        timestamp: int | None,
        key: ReadableBuffer | None,
        value: ReadableBuffer | None,
        headers: Iterable[_HeaderIn] | None = None,
    ) -> int | None: ...
    def append_many(self, records: Iterable[_RecordIn]) -> int: ...
    def build(self) -> bytes | memoryview: ...  # memoryview (of the batch in it) with buffer=
    def close(self) -> None: ...

def iter_batches(
    data: ReadableBuffer,
    *,
    verify_crc: bool = True,
    max_decompressed_size: int | None = None,
    max_records_per_batch: int | None = None,
) -> BatchIterator: ...
class _ReadOptions(TypedDict, total=False):
    isolation_level: _IsolationLevel
    aborted_transactions: Iterable[_AbortedTransaction] | None
    verify_crc: bool
    max_decompressed_size: int | None
    max_records_per_batch: int | None

class _DecodeOptions(_ReadOptions, total=False):
    topic: str | None
    partition: int | None
    record_class: type[Record] | None

def filtered_batches(data: ReadableBuffer, **options: Unpack[_ReadOptions]) -> Iterator[RecordBatch]: ...
def decode_records(data: ReadableBuffer, **options: Unpack[_DecodeOptions]) -> list[Record]: ...
def checked_record_class(record_class: type[Record] | None) -> type[Record] | None: ...
def build_batches(
    records: Iterable[_RecordIn],
    *,
    magic: int = 2,
    compression: _Codec = "none",
    batch_size: int = 16384,
    base_offset: int = 0,
    **options: Any,
) -> list[bytes]: ...
def build_control_batch(
    control_type: Literal["COMMIT", "commit", "ABORT", "abort", 0, 1],
    *,
    producer_id: int,
    producer_epoch: int,
    base_offset: int = 0,
    timestamp: int | None = None,
    coordinator_epoch: int = 0,
    partition_leader_epoch: int = -1,
) -> bytes: ...

def set_batch_producer(buffer: Any, producer_id: int, producer_epoch: int, base_sequence: int,
                       is_transactional: bool) -> None: ...
