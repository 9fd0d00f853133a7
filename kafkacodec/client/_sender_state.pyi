# Stub for the compiled module kafkacodec/client/_sender_state.pyx (fields declared in its .pxd).
import collections
import threading
from typing import Any

class BatchState:
    topic: str
    partition: int
    builder: Any
    append: Any
    result: Any
    created: float
    deadline: float
    pool_buffer: Any
    open: bool
    data: Any
    raw: Any
    stamped: tuple[int, int | None, int | None] | None
    record_count: int
    attempts: int
    retry_at: float
    base_sequence: int | None
    producer_epoch: int | None
    ambiguous: bool
    in_flight: bool
    split_from: Any

class SequenceState:
    next_seq: int
    last_acked: int
    in_flight: list[Any]

class SenderState:
    metadata: Any
    node_in_flight: collections.Counter[int]
    max_in_flight: int
    idempotent: bool
    partitions: dict[tuple[str, int], Any]
    linger: float
    producer_id: int
    producer_epoch: int
    transactional_id: str | None
    stats: collections.Counter[str]

class AccumulatorState:
    deques: dict[tuple[str, int], collections.deque[Any]]
    open_slots: dict[str, list[Any]]
    lock: threading.Lock
    incomplete: set[Any]
    pool: Any
