"""Records sent before their topic's metadata is known (``metadata.wait.on.send=false``).

librdkafka's produce() never waits for metadata: a record for a topic it knows nothing of yet
waits unpartitioned until the topic's partitions are known.  With ``metadata.wait.on.send=false``
the producer does the same: ``send()`` returns at once with a RecordHandle whose result is a
:class:`HeldResult`, and a thread of their own places the held records, each topic's in the
order they were sent, once the topic's partitions are known.  Neither the application's calls
nor the I/O thread ever wait for it (placing a record may wait for buffer memory, up to
max.block.ms, on that thread only).  A record that cannot be placed fails: at once when the
brokers refuse the topic (not authorised, an invalid name), after max.block.ms when they say it
does not exist, after delivery.timeout.ms when its metadata never came.
"""
from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from kafkacodec.client import errors as E
from kafkacodec.client.accumulator import RecordAccumulator, RecordHandle
from kafkacodec.client.types import DeliveryCallback, Headers, RecordMetadata
from kafkacodec.protocol.errors import ErrorCode as Code

if TYPE_CHECKING:
    from kafkacodec.client.accumulator import BatchResult
    from kafkacodec.client.metadata import Metadata

__all__ = ["HeldResult", "UnplacedRecords"]

# what the brokers answer for a topic that no wait will make appear: its records fail at once
_REFUSED = {Code.TOPIC_AUTHORIZATION_FAILED, Code.INVALID_TOPIC_EXCEPTION}
# how long the placer sleeps at most between looks at its deadlines
_LOOK_EVERY = 1.0


class HeldResult:
    """The result a held record's RecordHandle answers from: itself until the record is placed
    (partition -1) or fails, then the batch it was placed in.  The methods are BatchResult's,
    for one record (``index`` is ignored)."""

    __slots__ = ("topic", "callbacks", "sink", "_placed", "_index", "_error", "_event", "_listeners", "_lock")

    def __init__(self, topic: str) -> None:
        self.topic = topic
        # what Producer.poll() runs when the record fails before it has a batch (BatchResult's)
        self.callbacks: list[tuple[int, int, DeliveryCallback]] | tuple[()] | None = None
        self.sink: collections.deque[Any] | None = None
        self._placed: BatchResult | None = None
        self._index = 0
        self._error: BaseException | None = None
        self._event = threading.Event()
        self._listeners: list[Callable[[Any], object]] = []
        self._lock = threading.Lock()

    @property
    def partition(self) -> int:
        placed = self._placed
        return -1 if placed is None else placed.partition

    def done(self) -> bool:
        placed = self._placed
        return placed.done() if placed is not None else self._error is not None

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        if not self._event.wait(timeout):
            return False
        placed = self._placed
        if placed is None:
            return True
        return placed.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))

    def metadata(self, index: int, timestamp: int) -> RecordMetadata:
        placed = self._placed
        if placed is None:
            assert self._error is not None, "metadata() of a record neither placed nor failed"
            raise self._error
        return placed.metadata(self._index, timestamp)

    def error_of(self, index: int) -> BaseException | None:
        placed = self._placed
        return self._error if placed is None else placed.error_of(self._index)

    def add_listener(self, fn: Callable[[Any], object]) -> None:
        """fn(self) once the record's outcome is known (BatchResult's)."""
        with self._lock:
            if self._placed is None and self._error is None:
                self._listeners.append(fn)
                return
        self._forward(fn)

    def _forward(self, fn: Callable[[Any], object]) -> None:
        placed = self._placed
        if placed is None:
            fn(self)
        else:
            placed.add_listener(lambda _: fn(self))

    def place(self, handle: RecordHandle) -> None:
        """The record is in a batch now: this answers for it from there."""
        with self._lock:
            self._placed, self._index = handle._result, handle._index
            listeners, self._listeners = self._listeners, []
        self._event.set()
        for fn in listeners:
            self._forward(fn)

    def fail(self, error: BaseException, callback: DeliveryCallback | None, timestamp: int) -> None:
        with self._lock:
            self._error = error
            listeners, self._listeners = self._listeners, []
        self._event.set()
        for fn in listeners:
            fn(self)
        if callback is not None and self.sink is not None:
            self.callbacks = [(0, timestamp, callback)]
            self.sink.append(self)


class _Held(NamedTuple):
    result: HeldResult
    value: Any
    key: Any
    headers: Headers | None
    partition: int | None
    timestamp: int
    callback: DeliveryCallback | None
    size: int
    held_at: float


# place(topic, count, value, key, headers, partition, timestamp, callback) -> RecordHandle
Place = Callable[[str, int, Any, Any, "Headers | None", "int | None", int, "DeliveryCallback | None"], RecordHandle]


class UnplacedRecords:
    """The held records of one producer, and the thread that places them (started when the
    first record is held, ended when none is left)."""

    def __init__(self, metadata: Metadata, conf: dict[str, Any], place: Place, adopt: Callable[[str, int], object],
                 accumulator: RecordAccumulator) -> None:
        self._md = metadata
        self._place = place      # a record into the accumulator, for a topic of `count` partitions
        self._adopt = adopt      # (topic, partition count): its records go the usual way from now on
        self._acc = accumulator
        self._limit = conf["buffer.memory"]
        self._delivery_timeout = conf["delivery.timeout.ms"] / 1000
        self._unknown_for = conf["max.block.ms"] / 1000
        self._cond = threading.Condition(threading.Lock())
        self._topics: dict[str, collections.deque[_Held]] = {}
        self._placing: set[str] = set()   # taken out by the placer, not yet all placed
        self._pending: set[HeldResult] = set()
        self._thread: threading.Thread | None = None
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._pending)

    def holds(self, topic: str) -> bool:
        """Whether records of `topic` are held (or being placed)."""
        return topic in self._topics or topic in self._placing

    def _known(self, topic: str) -> bool:
        t = self._md.topics.get(topic)
        return t is not None and len(t.partitions) > 0

    def hold(self, topic: str, value: Any, key: Any, headers: Headers | None, partition: int | None,
             timestamp: int, callback: DeliveryCallback | None) -> RecordHandle | None:
        """Hold a record for `topic`; None when nothing of the topic is held and its metadata is
        known (send it the usual way).  Records of a topic with held ones are held behind them,
        so that none overtakes another; once the topic's metadata is known, the first send() that
        finds records held places them itself, so a program sending fast does not keep a topic
        held (and every record on this slower path) while the placer's thread catches up."""
        size = RecordAccumulator._estimate(key, value, headers)
        while True:
            with self._cond:
                if topic not in self._placing and self._known(topic):
                    records = self._topics.pop(topic, None)
                    if records is None:
                        return None
                    self._placing.add(topic)
                else:
                    # held under the same lock as the look: the placing cannot end (and the topic
                    # go the usual way) between the two, leaving this record behind later ones
                    result = self._hold_locked(topic, value, key, headers, partition, timestamp, callback, size)
                    break
            self._place_taken(topic, records)
        self._md.add_topics({topic})
        return RecordHandle(result, 0, timestamp)  # type: ignore[arg-type]  # answers as a BatchResult does

    def _hold_locked(self, topic: str, value: Any, key: Any, headers: Headers | None, partition: int | None,
                     timestamp: int, callback: DeliveryCallback | None, size: int) -> HeldResult:
        if self.bytes + size > self._limit:
            raise E.KafkaTimeoutError(
                f"no memory to hold a record for {topic!r} until its metadata is known: records held so "
                f"take {self.bytes} bytes of buffer.memory ({self._limit})")
        result = HeldResult(topic)
        result.sink = self._acc.completed
        self._topics.setdefault(topic, collections.deque()).append(
            _Held(result, value, key, headers, partition, timestamp, callback, size, time.monotonic()))
        self._pending.add(result)
        self.bytes += size
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="kafkacodec-placer", daemon=True)
            self._thread.start()
        return result

    def _place_taken(self, topic: str, records: collections.deque[_Held]) -> None:
        """Place a topic's held records, taken out and marked placing (by hold() on the calling
        thread, or by the placer's); then, with nothing held behind them, the topic's next records
        go the usual way."""
        count: int | None = None
        # placed as one burst, as librdkafka moves held messages to their partitions at once: a
        # flush under way does not send each record's batch as soon as it opens
        self._acc.begin_placing()
        try:
            count = self._place_all(topic, records)
        finally:
            self._acc.end_placing()
            with self._cond:
                if topic not in self._topics and count is not None:
                    self._adopt(topic, count)
                self._placing.discard(topic)

    def metadata_changed(self) -> None:
        """The I/O thread learned new metadata: the placer looks whether a held topic is known now."""
        if self._topics:
            with self._cond:
                self._cond.notify()

    def results(self) -> list[HeldResult]:
        """The results of the records held now (flush() waits for them)."""
        with self._cond:
            return list(self._pending)

    def fail_all(self, error: BaseException) -> int:
        """Fail every record still held (purge, close, the client failing); returns how many."""
        with self._cond:
            taken = [held for records in self._topics.values() for held in records]
            self._topics.clear()
            self._cond.notify()
        for held in taken:
            self._done(held, error)
        return len(taken)

    # -- the placer's thread

    def _run(self) -> None:
        while True:
            with self._cond:
                while True:
                    now = time.monotonic()
                    ready = [topic for topic in self._topics if self._known(topic)]
                    failed = self._take_failed(now)
                    if ready or failed:
                        break
                    if not self._topics:
                        self._thread = None
                        return
                    self._cond.wait(self._next_look(now))
                taken = {topic: self._topics.pop(topic) for topic in ready}
                self._placing.update(taken)
            for held, error in failed:
                self._done(held, error)
            for topic, records in taken.items():
                self._place_taken(topic, records)

    def _place_all(self, topic: str, records: collections.deque[_Held]) -> int | None:
        """Place `records` (a topic's, in the order sent); returns the topic's partition count, or
        None when its metadata went meanwhile (they are held again, before any held since)."""
        t = self._md.topics.get(topic)
        if t is None or not t.partitions:
            with self._cond:
                records.extend(self._topics.pop(topic, ()))
                self._topics[topic] = records
            return None
        count = len(t.partitions)
        for held in records:
            try:
                handle = self._place(topic, count, held.value, held.key, held.headers, held.partition,
                                     held.timestamp, held.callback)
            except Exception as exc:
                self._done(held, exc)
            else:
                self._done(held, None, handle)
        return count

    def _done(self, held: _Held, error: BaseException | None, handle: RecordHandle | None = None) -> None:
        with self._cond:
            self._pending.discard(held.result)
            self.bytes -= held.size
        if handle is not None:
            held.result.place(handle)
        else:
            assert error is not None
            held.result.fail(error, held.callback, held.timestamp)

    def _take_failed(self, now: float) -> list[tuple[_Held, BaseException]]:
        """The held records to fail now (called with the lock held), taken out."""
        failed: list[tuple[_Held, BaseException]] = []
        errors = self._md.topic_errors
        for topic in list(self._topics):
            records = self._topics[topic]
            code = errors.get(topic)
            if code is not None and (code in _REFUSED or (code == Code.UNKNOWN_TOPIC_OR_PARTITION
                                                          and now - records[0].held_at >= self._unknown_for)):
                error = E.error_for(code, f"topic {topic!r}: the brokers answer {E.error_for(code).name}" + (
                    f" after {self._unknown_for * 1000:.0f} ms (max.block.ms)" if code not in _REFUSED else ""))
                failed.extend((held, error) for held in records)
                del self._topics[topic]
                continue
            while records and now - records[0].held_at >= self._delivery_timeout:
                failed.append((records.popleft(), E.KafkaTimeoutError(
                    f"record to {topic!r} not sent within delivery.timeout.ms "
                    f"({self._delivery_timeout * 1000:.0f} ms): the topic's metadata never came")))
            if not records:
                del self._topics[topic]
        return failed

    def _next_look(self, now: float) -> float:
        soonest = now + _LOOK_EVERY
        for topic, records in self._topics.items():
            first = records[0].held_at
            soonest = min(soonest, first + self._delivery_timeout)
            if topic in self._md.topic_errors:
                soonest = min(soonest, first + self._unknown_for)
        return max(0.001, soonest - now)
