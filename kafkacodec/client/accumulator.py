"""The producer's record accumulator: open batches per partition, bounded memory.

``append`` writes a record straight into the open v2 builder of its partition
(``RecordBatchBuilder``, C); no Python object is kept per record.  Each
partition has a deque of batches: the tail is open, the ones before it are
full and wait for the sender.  A batch is *ready* when it is full, when
``linger.ms`` has passed since it was opened, during ``flush()``, or while a
``send()`` waits for memory.

Memory: every batch is written in a buffer of ``batch.size`` bytes (more for
one larger record) from the project's ``BufferPool``, and sent from it, from
its creation until its Produce request is answered; the buffer then goes back
to the pool for the next batch.  So ``buffer.memory`` bounds what the
producer's batches hold (a batch built elsewhere, by send_arrow, holds a
``Reservation`` of its size instead).  A ``send()`` that finds no memory waits
(first come, first served) up to ``max.block.ms``.

Results are per batch: ``BatchResult`` learns the base offset once; the
handle ``send()`` returns is (batch result, index, timestamp) and resolves to
``RecordMetadata`` on demand.

Threads.  Everything that opens, closes or queues a batch holds ``lock``.
The common append takes no lock: ``open_slots[topic][partition]`` is the
partition's open batch (``None`` when there is none), and ``Producer.send``
(compiled in ``client/send_path.pyx``) appends into its builder directly.  That
is safe because, for bytes-like keys and values and no headers, the compiled
``append`` runs no
Python code, so under the GIL it happens entirely before or entirely after
anything another thread does to the builder; and because a batch leaves its
slot (under ``lock``) before the I/O thread builds it, and is built before its
record count is read (sequence numbers, stats).  An append that loses the
race meets a built (or closed) builder, which raises, or a full one, which
returns None; either way the caller retries through ``append`` under the
lock.  A record with a delivery callback registers it with the batch's
result in the same GIL-atomic step (``SendPath.append_reported``), so the
batch cannot be sealed, sent and completed before its callback is known.
Records with headers, the pure-Python builder and transactional producers
always take the locked path.
"""
from __future__ import annotations

import bisect
import collections
import logging
import operator
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from kafkacodec import _impl
from kafkacodec.errors import BufferPoolTimeoutError, KafkaCodecError
from kafkacodec.records import RecordBatchBuilder
from kafkacodec.records.pool import BufferPool, Reservation, SharedReservation
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client.types import RecordMetadata

# the fields the compiled producer paths read, declared once (client/_sender_state.pxd)
if TYPE_CHECKING or _impl.accelerated:
    from kafkacodec.client._sender_state import AccumulatorState, BatchState
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    from kafkacodec._pure.sender_state import AccumulatorState, BatchState

_R = TypeVar("_R")
_entry_index = operator.itemgetter(0)  # a callbacks entry (index, timestamp, fn): its record's index

if TYPE_CHECKING:
    from kafkacodec.client.types import DeliveryCallback, Headers

__all__ = ["RecordMetadata", "BatchResult", "RecordHandle", "ProducerBatch", "RecordAccumulator"]



#: what a batch's builder append takes: (timestamp, key, value, headers) -> record index, None when full
AppendFn = Callable[[int, Any, Any, "Headers | None"], "int | None"]
#: fn(result) once a BatchResult completes
Listener = Callable[["BatchResult"], object]

_LISTENER_LOCK = threading.Lock()  # listeners are rare (asyncio, splits): one lock for all
log = logging.getLogger("kafkacodec.client")


def notify_listener(fn: Listener, result: BatchResult) -> None:
    """fn(result) for a completed batch; an exception is logged, never passed on: the batches
    completed with it (the rest of the request's, their waiters and callbacks) must still be."""
    try:
        fn(result)
    except Exception:
        log.exception("a listener of %s[%s]'s batch raised; the batch is complete", result.topic, result.partition)

# bytes a v2 batch adds around its records, and a record around key and value (upper bounds)
BATCH_OVERHEAD = 61
RECORD_OVERHEAD = 22
# a new batch's size while its partition keeps up (Kafka's batch.size default); it grows
# towards batch.size only while the partition's batches fill within linger.ms or queue up
INITIAL_BATCH_SIZE = 16384


class BatchResult:
    """The outcome of one batch: base offset (or error), shared by its records' handles.

    A batch split after MESSAGE_TOO_LARGE forwards to the batches made of its
    halves (``_parts``: (first index, BatchResult) in order)."""

    __slots__ = ("topic", "partition", "base_offset", "log_append_time", "log_start_offset", "error", "_done",
                 "_waiter", "_parts", "callbacks", "sink", "_listeners", "__weakref__")

    topic: str
    partition: int
    base_offset: int
    log_append_time: int
    log_start_offset: int
    error: BaseException | None
    _done: bool
    _waiter: threading.Event | None
    _parts: list[tuple[int, BatchResult]] | None
    # [(index, timestamp, fn)]; Producer.poll() swaps in () once it has run them
    callbacks: list[tuple[int, int, DeliveryCallback]] | tuple[()] | None
    sink: collections.deque[BatchResult] | None
    _listeners: list[Listener] | None

    def __init__(self, topic: str, partition: int) -> None:
        self.topic = topic
        self.partition = partition
        self.base_offset = -1
        self.log_append_time = -1
        self.log_start_offset = -1
        self.error = None
        self._done = False
        self._waiter = None     # a threading.Event, made by the first wait() (most results are never waited on)
        self._parts = None
        self.callbacks = None   # [(index, timestamp, fn)] fired by Producer.poll()/flush()
        self.sink = None        # where a completed result with callbacks is queued
        self._listeners = None  # fn(result) on completion (I/O thread): asyncio, split parents

    def done(self) -> bool:
        return self._done

    def wait(self, timeout: float | None = None) -> bool:
        if self._done:
            return True
        with _LISTENER_LOCK:
            if self._done:
                return True
            waiter = self._waiter
            if waiter is None:
                waiter = self._waiter = threading.Event()
        return waiter.wait(timeout)

    def add_listener(self, fn: Listener) -> None:
        """fn(self) once complete (on the completing thread); at once when it already is."""
        with _LISTENER_LOCK:
            if not self._done:
                if self._listeners is None:
                    self._listeners = []
                self._listeners.append(fn)
                return
        fn(self)

    def complete(self, base_offset: int, log_append_time: int = -1, error: BaseException | None = None,
                 log_start_offset: int = -1) -> None:
        # client/_sender_steps.pyx (_complete_all) completes a request's acknowledged batches
        # the same way, under this lock taken once
        with _LISTENER_LOCK:
            if self._done:
                return
            self.base_offset = base_offset
            self.log_append_time = log_append_time
            self.log_start_offset = log_start_offset
            self.error = error
            self._done = True
            listeners, self._listeners = self._listeners, None
            waiter = self._waiter
        if waiter is not None:
            waiter.set()
        sink = self.sink
        if sink is not None:  # set with the first callback (RecordAccumulator._add_callback)
            sink.append(self)
        for fn in listeners or ():
            notify_listener(fn, self)

    def split_into(self, parts: list[tuple[int, BatchResult]]) -> None:
        """This batch was split; its records now live in `parts` [(first index, BatchResult)]."""
        self._parts = parts
        left = [len(parts)]
        lock = threading.Lock()

        def part_done(_: BatchResult) -> None:
            with lock:
                left[0] -= 1
                last = left[0] == 0
            if last:
                errors = [r.error for _, r in parts if r.error is not None]
                self.complete(-1, -1, errors[0] if errors else None)

        for _, r in parts:
            r.add_listener(part_done)

    def metadata(self, index: int, timestamp: int) -> RecordMetadata:
        """RecordMetadata of record `index` (the batch must be complete); raises its error."""
        parts = self._parts
        if parts is not None:
            for start, r in reversed(parts):
                if index >= start:
                    return r.metadata(index - start, timestamp)
        if self.error is not None:
            raise self.error
        offset = self.base_offset + index if self.base_offset >= 0 else -1
        if self.log_append_time >= 0:
            return RecordMetadata(self.topic, self.partition, offset, self.log_append_time, 1, self.log_start_offset)
        return RecordMetadata(self.topic, self.partition, offset, timestamp, 0, self.log_start_offset)

    def error_of(self, index: int) -> BaseException | None:
        parts = self._parts
        if parts is not None:
            for start, r in reversed(parts):
                if index >= start:
                    return r.error_of(index - start)
        return self.error


class RecordHandle:
    """What ``send()`` returns: a reference to the record's batch, resolved on demand."""

    __slots__ = ("_result", "_index", "_timestamp")

    def __init__(self, result: BatchResult, index: int, timestamp: int) -> None:
        self._result = result
        self._index = index
        self._timestamp = timestamp

    @property
    def topic(self) -> str:
        return self._result.topic

    @property
    def partition(self) -> int:
        return self._result.partition

    @property
    def timestamp(self) -> int:
        return self._timestamp

    def done(self) -> bool:
        return self._result.done()

    def get(self, timeout: float | None = None) -> RecordMetadata:
        """RecordMetadata(topic, partition, offset, timestamp) once acknowledged; raises the
        delivery error, or KafkaTimeoutError when `timeout` seconds pass first."""
        if not self._result.wait(timeout):
            raise E.KafkaTimeoutError(f"record to {self.topic}[{self.partition}] not acknowledged within "
                                      f"{timeout:.1f} s")
        return self._result.metadata(self._index, self._timestamp)

    result = get

    def exception(self, timeout: float | None = None) -> BaseException | None:
        if not self._result.wait(timeout):
            raise E.KafkaTimeoutError("not acknowledged yet")
        return self._result.error_of(self._index)

    @property
    def offset(self) -> int | None:
        """The offset once acknowledged, else None (does not block)."""
        if not self._result.done():
            return None
        return self._result.metadata(self._index, self._timestamp).offset

    def __repr__(self) -> str:
        state = "pending"
        if self._result.done():
            err = self._result.error_of(self._index)
            state = f"error {err!r}" if err else f"offset {self.offset}"
        return f"<RecordHandle {self.topic}[{self.partition}] #{self._index} {state}>"


if _impl.accelerated:
    # the compiled twin, which Producer.send's compiled path allocates in C
    # (to mypy RecordHandle stays the class above: the compiled one has the same interface)
    from kafkacodec.client.send_path import RecordHandle  # type: ignore[assignment]  # noqa: F811


def _sealed(timestamp: int, key: Any, value: Any, headers: Headers | None) -> int | None:
    raise KafkaCodecError("the batch is closed")


class ProducerBatch(BatchState):
    """One batch of one partition, from its first record to its acknowledgement."""

    __slots__ = ()  # the fields are BatchState's

    topic: str
    partition: int
    builder: RecordBatchBuilder | None
    append: AppendFn
    result: BatchResult
    created: float
    deadline: float
    pool_buffer: bytearray | Reservation | SharedReservation | None
    open: bool
    data: bytes | bytearray | memoryview | None
    raw: bytearray | memoryview | None
    stamped: tuple[int, int | None, int | None] | None  # as stamp() compares it with the batch's numbers
    record_count: int
    attempts: int
    retry_at: float
    base_sequence: int | None
    producer_epoch: int | None
    ambiguous: bool
    in_flight: bool
    split_from: ProducerBatch | None

    def __init__(self, topic: str, partition: int, builder: RecordBatchBuilder | None, result: BatchResult,
                 now: float, deadline: float, pool_buffer: bytearray | Reservation | SharedReservation | None
                 ) -> None:
        self.topic = topic
        self.partition = partition
        self.builder = builder
        # the builder's append, called by Producer.send without a lock (see the module notes)
        self.append = builder.append if builder is not None else _sealed
        self.result = result
        self.created = now
        self.deadline = deadline
        self.pool_buffer = pool_buffer
        self.open = True
        self.data = None            # the built batch, once closed
        # writable bytes starting with the batch: a builder's pool buffer (not a Reservation)
        self.raw = pool_buffer if type(pool_buffer) is bytearray else None
        self.stamped = None         # (producer id, epoch, base sequence) written in its header
        self.record_count = 0
        self.attempts = 0
        self.retry_at = 0.0
        self.base_sequence = None   # assigned when first sent (idempotence)
        self.producer_epoch = None
        self.ambiguous = False      # an attempt's outcome is unknown (timeout, disconnect)
        self.in_flight = False
        self.split_from = None

    def close(self, producer: tuple[int, int, int, bool] | None = None) -> bytes | bytearray | memoryview:
        """Stop appends and build the bytes (compression happens here); `producer`
        (producer id, epoch, base sequence, transactional) goes into the header."""
        if self.data is None:
            self.open = False
            self.append = _sealed
            builder = self.builder
            assert builder is not None, "a batch without data has its builder (discard() fails it unsent)"
            if producer is not None:
                builder.set_producer(*producer)
                self.stamped = producer[:3]
            # built first: a lock-free append racing with this lands before it or fails
            self.data = builder.build()
            if type(self.data) is not memoryview:
                self.raw = None  # outgrew its buffer (built elsewhere)
            self.record_count = builder.record_count
            self.builder = None
        return self.data

    def discard(self) -> None:
        """Give up the builder unbuilt (the batch failed before it was sent)."""
        self.open = False
        self.append = _sealed
        if self.builder is not None:
            self.builder.close()
            self.builder = None

    def __repr__(self) -> str:
        return f"<ProducerBatch {self.topic}[{self.partition}] seq={self.base_sequence} n={self.record_count}>"


class RecordAccumulator(AccumulatorState):
    """Open batches per partition; thread-safe between senders of records and the I/O thread."""

    pool: BufferPool

    def __init__(self, conf: dict[str, Any], pool: BufferPool, wakeup: Callable[[], object]) -> None:
        self.batch_size: int = conf["batch.size"]
        self.max_records: int = conf["batch.max.records"] or 0x7FFFFFFF
        self.batch_sizes: dict[tuple[str, int], tuple[int, float]] = {}      # (topic, partition) -> (bytes, time) of its last new batch (_new_batch_size)
        self.compression = conf["compression.type"]
        self.compression_level = conf["compression.level"]
        self.linger = conf["linger.ms"] / 1000
        self.delivery_timeout = conf["delivery.timeout.ms"] / 1000
        self.max_block = conf["max.block.ms"] / 1000
        self.max_request_size = conf["max.request.size"]
        self.pool = pool
        self.wakeup = wakeup
        self.lock = threading.Lock()
        self.deques: dict[tuple[str, int], collections.deque[ProducerBatch]] = {}
        # topic -> [open ProducerBatch or None per partition] (lock-free appends)
        self.open_slots: dict[str, list[ProducerBatch | None]] = {}
        self.incomplete: set[BatchResult] = set()  # not yet complete (flush waits for them)
        self.flushing = 0
        self.placing = 0  # held records being placed (unplaced.py): a flush holds open batches meanwhile
        # when the I/O loop's next sender tick is due, or 0.0 when unknown: the sender
        # resets it as a tick starts and sets it after its pass over the deques, so a batch
        # opened after that pass reads a time the loop will wake at (Sender.tick)
        self.sender_wake_at = 0.0
        self.closed = False
        self.error: BaseException | None = None  # fatal: every append raises it
        # BatchResults with callbacks, for Producer.poll()
        self.completed: collections.deque[BatchResult] = collections.deque()

    # -- calling threads

    def set_partition_count(self, topic: str, count: int) -> None:
        """Make (or resize) `topic`'s open-batch slots: one per partition, so the
        lock-free path hashes keys over len(slots)."""
        with self.lock:
            slots = self.open_slots.get(topic)
            if slots is None or len(slots) != count:
                resized: list[ProducerBatch | None] = [None] * count
                for (t, p), dq in self.deques.items():
                    if t == topic and p < count and dq and dq[-1].open:
                        resized[p] = dq[-1]
                self.open_slots[topic] = resized

    def seal(self, batch: ProducerBatch) -> None:
        """No more appends into `batch` (call with the lock held)."""
        batch.open = False
        slots = self.open_slots.get(batch.topic)
        if slots is not None and batch.partition < len(slots) and slots[batch.partition] is batch:
            slots[batch.partition] = None

    @overload
    def append(self, topic: str, partition: int, timestamp: int, key: Any, value: Any, headers: Headers | None,
               callback: DeliveryCallback | None, abort_if_new: Literal[False] = ...,
               sealed_one: bool = ...) -> RecordHandle: ...
    @overload
    def append(self, topic: str, partition: int, timestamp: int, key: Any, value: Any, headers: Headers | None,
               callback: DeliveryCallback | None, abort_if_new: bool, sealed_one: bool = ...) -> RecordHandle | None: ...
    def append(self, topic: str, partition: int, timestamp: int, key: Any, value: Any, headers: Headers | None,
               callback: DeliveryCallback | None, abort_if_new: bool = False,
               sealed_one: bool = False) -> RecordHandle | None:
        """Add one record; returns its RecordHandle, or None when it needs a new batch
        and `abort_if_new` (the sticky partitioner then moves on first, and says
        `sealed_one` when it calls again).  The I/O thread is woken once per call that
        fills a batch or opens one, as the Java producer does."""
        with self.lock:
            dq = self.deques.get((topic, partition))
            if dq:
                batch = dq[-1]
                if batch.open:
                    index = batch.append(timestamp, key, value, headers)  # its builder's, while open
                    if index is not None:
                        if callback is not None:
                            self._add_callback(batch, index, timestamp, callback)
                        handle = RecordHandle(batch.result, index, timestamp)
                        if sealed_one:
                            self.wakeup()
                        return handle
                    self.seal(batch)
        if abort_if_new:
            return None
        return self._append_new(topic, partition, timestamp, key, value, headers, callback, sealed_one)

    def _add_callback(self, batch: ProducerBatch, index: int, timestamp: int, callback: DeliveryCallback) -> None:
        result = batch.result
        callbacks = result.callbacks
        if callbacks is None:
            callbacks = result.callbacks = []
            result.sink = self.completed
        if callbacks and callbacks[-1][0] > index:
            # a lock-free append (send_path.pyx) registered a later record of this batch between
            # this record's append and now: reports keep the batch's order
            bisect.insort(callbacks, (index, timestamp, callback), key=_entry_index)
            return
        callbacks.append((index, timestamp, callback))  # type: ignore[union-attr]  # () only once run

    def _append_new(self, topic: str, partition: int, timestamp: int, key: Any, value: Any, headers: Headers | None,
                    callback: DeliveryCallback | None, sealed_one: bool = False) -> RecordHandle:
        if self.error is not None:
            raise self.error
        if self.closed:
            raise E.ClientClosedError("the producer is closed")
        size = self._estimate(key, value, headers)
        if size > self.max_request_size:
            raise E.error_for(Code.MESSAGE_TOO_LARGE, f"a record of about {size} bytes is larger than max.request.size "
                                  f"({self.max_request_size})")
        if size > self.pool.total_memory:
            raise E.error_for(Code.MESSAGE_TOO_LARGE, f"a record of about {size} bytes is larger than buffer.memory "
                                  f"({self.pool.total_memory})")
        alloc = max(self._new_batch_size(topic, partition), size)
        if self.pool.available_memory < alloc:
            self.wakeup()  # memory is short: full batches should go now, not at their linger deadline
        try:
            allocated = self.pool.allocate(alloc, self.max_block)
        except BufferPoolTimeoutError:
            raise E.KafkaTimeoutError(
                f"no memory for a new batch within max.block.ms ({self.max_block * 1000:.0f} ms): "
                f"buffer.memory ({self.pool.total_memory} bytes) is taken by batches not yet acknowledged") from None
        buffer: bytearray | None = allocated  # None once a batch owns it
        try:
            with self.lock:
                if self.error is not None:
                    raise self.error
                if self.closed:
                    raise E.ClientClosedError("the producer is closed")
                dq = self.deques.get((topic, partition))
                if dq is None:
                    dq = self.deques[(topic, partition)] = collections.deque()
                elif dq and dq[-1].open:
                    # another thread opened a batch while we waited for memory
                    batch = dq[-1]
                    index = batch.append(timestamp, key, value, headers)  # its builder's, while open
                    if index is not None:
                        self.pool.deallocate(allocated)
                        buffer = None
                        if callback is not None:
                            self._add_callback(batch, index, timestamp, callback)
                        return RecordHandle(batch.result, index, timestamp)
                    self.seal(batch)
                builder = RecordBatchBuilder(2, self.compression, batch_size=alloc,
                                             compression_level=self.compression_level, buffer=buffer,
                                             max_records=self.max_records)
                first = builder.append(timestamp, key, value, headers)
                assert first is not None, "an empty batch takes any one record (its buffer was sized for it)"
                index = first
                now = time.monotonic()
                result = BatchResult(topic, partition)
                batch = ProducerBatch(topic, partition, builder, result, now, now + self.delivery_timeout, buffer)
                buffer = None
                dq.append(batch)
                alone = len(dq) == 1
                slots = self.open_slots.get(topic)
                if slots is not None and partition < len(slots):
                    slots[partition] = batch
                self.incomplete.add(result)
                if callback is not None:
                    self._add_callback(batch, index, timestamp, callback)
        finally:
            if buffer is not None:
                self.pool.deallocate(buffer)
        # the sender plans the new batch's linger deadline; a batch that is its partition's
        # only one, due no earlier than the sender's next tick, is seen at that tick: no
        # wakeup (a write, and a pass of the I/O loop taking the GIL) for each new batch
        wake_at = self.sender_wake_at
        if not (alone and not sealed_one and not self.flushing and 0.0 < wake_at <= now + self.linger):
            self.wakeup()
        return RecordHandle(result, index, timestamp)

    def _new_batch_size(self, topic: str, partition: int) -> int:
        """Bytes for a partition's new batch, as KIP-782 proposes: INITIAL_BATCH_SIZE while the
        partition keeps up; twice its last batch (up to batch.size) when that one filled within
        linger.ms or a full batch still waits to be sent; halved when the last one was opened
        more than two linger.ms ago.  A partition has one Produce request in flight, so a round
        trip carries one batch: records that wait anyway go in fewer, bigger batches, while a
        partition that keeps up holds small buffers (an unfilled batch goes at linger.ms,
        whatever its size)."""
        cap = self.batch_size
        if cap <= INITIAL_BATCH_SIZE:
            return cap
        key = (topic, partition)
        now = time.monotonic()
        last, opened = self.batch_sizes.get(key, (INITIAL_BATCH_SIZE, 0.0))
        size = last
        dq = self.deques.get(key)
        try:  # read without the lock: a hint is enough here
            waiting = dq is not None and len(dq) > 0 and not dq[-1].open and not dq[-1].in_flight
        except IndexError:
            waiting = False
        if now - opened < self.linger or waiting:
            if last < cap and last * 2 <= self.pool.available_memory >> 3:  # leave memory to others
                size = min(cap, last * 2)
        elif now - opened > 2 * self.linger:
            size = max(INITIAL_BATCH_SIZE, last >> 1)
        self.batch_sizes[key] = (size, now)
        return size

    @staticmethod
    def _estimate(key: Any, value: Any, headers: Headers | None) -> int:
        size = BATCH_OVERHEAD + RECORD_OVERHEAD
        if key is not None:
            size += len(key)
        if value is not None:
            size += len(value)
        if headers:
            for hk, hv in headers:
                size += 10 + len(hk) + (len(hv) if hv is not None else 0)
        return size

    def append_batch(self, topic: str, partition: int, data: bytes | bytearray | memoryview, record_count: int,
                     result: BatchResult, reservation: Reservation | SharedReservation | None = None) -> None:
        """A batch built elsewhere (send_arrow): queued closed, its size accounted (the
        bytes are `data`'s, not a pool buffer's): by `reservation` when given (the
        caller's, for memory `data` shares with other batches), else reserved here."""
        buffer = self._allocate_for(len(data)) if reservation is None else reservation
        with self.lock:
            dq = self.deques.get((topic, partition))
            if dq is None:
                dq = self.deques[(topic, partition)] = collections.deque()
            elif dq and dq[-1].open:
                self.seal(dq[-1])  # keep record order: the open batch goes first
            now = time.monotonic()
            batch = ProducerBatch(topic, partition, None, result, now, now + self.delivery_timeout, buffer)
            batch.open = False
            batch.data = data
            # patched in place when numbered (stamp) if writable; else copied once then
            batch.raw = data if type(data) is bytearray or (type(data) is memoryview and not data.readonly) else None
            batch.record_count = record_count
            dq.append(batch)
            self.incomplete.add(result)
        self.wakeup()

    def _allocate_for(self, size: int) -> Reservation:
        return self._reserve(lambda: self.pool.reserve(max(size, 1), self.max_block), size, "a batch")

    def reserve_shared(self, size: int, holders: int) -> list[SharedReservation]:
        """Memory for `size` bytes held by `holders` batches (views of one buffer), waited
        for as a batch's; each batch returns its share, the memory goes back with the last."""
        return self._reserve(lambda: self.pool.reserve_shared(max(size, 1), holders, self.max_block), size,
                             f"{holders} batches")

    def _reserve(self, take: Callable[[], _R], size: int, what: str) -> _R:
        if size > self.pool.total_memory:
            raise E.error_for(Code.MESSAGE_TOO_LARGE, f"{what} of {size} bytes is larger than buffer.memory "
                                                      f"({self.pool.total_memory})")
        try:
            return take()
        except BufferPoolTimeoutError:
            raise E.KafkaTimeoutError(
                f"no memory for {what} within max.block.ms ({self.max_block * 1000:.0f} ms): "
                f"buffer.memory ({self.pool.total_memory} bytes) is taken by batches not yet acknowledged") from None

    def begin_flush(self) -> list[BatchResult]:
        with self.lock:
            self.flushing += 1
            pending = list(self.incomplete)
        self.wakeup()
        return pending

    def end_flush(self) -> None:
        with self.lock:
            self.flushing -= 1

    def begin_placing(self) -> None:
        """Records held for metadata are being placed: until end_placing(), a flush sends no
        open batch, so that they fill batches as records sent together do."""
        with self.lock:
            self.placing += 1

    def end_placing(self) -> None:
        with self.lock:
            self.placing -= 1
        self.wakeup()  # a flush under way sends the batches now

    # -- I/O thread

    def release(self, batch: ProducerBatch) -> None:
        """The batch is done (acknowledged or failed): give its memory back."""
        buffer, batch.pool_buffer = batch.pool_buffer, None
        if buffer is not None:
            batch.data = batch.raw = None  # views of the buffer, which the next batch writes in
            self.pool.deallocate(buffer)
        with self.lock:
            self.incomplete.discard(batch.result)

    def fail_queued(self, error: BaseException) -> list[ProducerBatch]:
        """Fail every batch not yet sent (Producer.purge); in-flight batches stay."""
        with self.lock:
            batches: list[ProducerBatch] = []
            for dq in self.deques.values():
                keep = [b for b in dq if b.in_flight]
                batches.extend(b for b in dq if not b.in_flight)
                dq.clear()
                dq.extend(keep)
            for slots in self.open_slots.values():
                slots[:] = [None] * len(slots)
            for b in batches:
                b.discard()
        for b in batches:
            self.release(b)
            b.result.complete(-1, -1, error)
        return batches

    def fail_in_flight(self, error: BaseException) -> list[ProducerBatch]:
        """Fail the results of batches sent and not yet answered (Producer.purge).  Their memory
        stays taken until the answer comes or the connection closes: the request may still be
        reading from it."""
        with self.lock:
            batches = [b for dq in self.deques.values() for b in dq if b.in_flight]
        for b in batches:
            b.result.complete(-1, -1, error)
        return batches

    def fail_all(self, error: BaseException) -> list[ProducerBatch]:
        """Fail every queued batch (fatal error, close without flush)."""
        with self.lock:
            batches = [b for dq in self.deques.values() for b in dq]
            for dq in self.deques.values():
                dq.clear()
            for slots in self.open_slots.values():
                slots[:] = [None] * len(slots)
            for b in batches:
                b.discard()
        for b in batches:
            if not b.in_flight:
                # a batch in flight keeps its memory until its answer (or its connection's end):
                # the request may still be reading the pooled buffer, which a new batch would reuse
                self.release(b)
            b.result.complete(-1, -1, error)
        return batches
