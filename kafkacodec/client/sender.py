"""The producer's sender: a ticker on the client's I/O thread.

Each tick drains the ready batches, at most one per partition per request (as
the Java client does; librdkafka's mock cluster also counts only the first
batch of a partition in a request), grouped by the partition's leader into
Produce requests of at most ``max.request.size`` bytes (as the Java client cuts
them).  A batch of one record still within ``linger.ms`` goes with a request its
leader gets anyway: a partition that gets a record now and then would only add
the rest of its linger to the record's latency.  A fuller one keeps its linger
and its own request, as librdkafka's do: drained together (as the Java client
drains a ready node), busy partitions' batches would all leave at once and stay
so, every request carrying all of them, which brokers answer slower than a
batch alone (Tansu: 0.40 against 0.22 ms at 50k records/s).  Requests stay within
``max.in.flight.requests.per.connection``: with several requests on the
connection the broker has the next one while the first's answer is read.

Answers: success completes the batch; a retriable error puts it back at the
front of its partition's deque (in creation order) after ``retry.backoff.ms``
(doubling up to ``retry.backoff.max.ms``) and, for leadership errors, asks for
fresh metadata; MESSAGE_TOO_LARGE splits a batch in two; a batch older than
``delivery.timeout.ms`` fails.

Idempotence (KIP-98): the producer id and epoch come from InitProducerId;
each partition numbers its records and a batch keeps its base sequence across
retries, so the broker drops duplicates.  A partition has one Produce request
in flight at a time (requests for different partitions still pipeline, up to
``max.in.flight.requests.per.connection`` per broker): with several, a batch
that fails without being written (NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT
from the broker, a whole request refused) is followed in the log by the later
ones already sent, unless the broker refuses those as out of sequence.
librdkafka's mock cluster does not (it checks sequences only for
transactional producers) and appends them, which no retry can undo; so order
must not rest on the broker's check.  A failed batch goes back to the front of
its partition's deque and nothing of that partition is sent before it.
OUT_OF_ORDER_SEQUENCE_NUMBER or UNKNOWN_PRODUCER_ID for the oldest
unacknowledged batch means the broker lost our sequence state; so does a
numbered batch that failed for good (its gap would block the partition).
Then the epoch is bumped (KIP-360, InitProducerId with the current id and
epoch; a fresh id where the broker refuses) once nothing is in flight and no
batch with an unknown outcome is left, and the waiting batches are renumbered
from 0 under the new epoch.  Batches whose earlier attempt may have been
written (timeout, disconnect) are resolved under the old epoch first, so a
renumbered batch was never written before: no duplicates.

A batch's producer id, epoch and base sequence are written into its header as
it is built (``RecordBatchBuilder.set_producer``); a batch renumbered later has
them rewritten in place, CRC included (``stamp``), never copied.

The per-request steps run compiled on the extension (``client/_sender_steps.pyx``):
the pass over the deques (``drain``), the builds (``seal_batches``), the marks
(``begin_request``), the Produce request framed around the batches' bytes and
its answer read (``ProduceFrame``), and the acknowledged batches finished
(``finish_acknowledged``); Python runs once per request, and per batch only for
a batch that failed.  ``_drain``, ``_seal_batches``, ``_begin_request`` and the
``ProduceRequest`` path are the pure twin.
"""
from __future__ import annotations

import collections
import concurrent.futures
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kafkacodec import _impl
from kafkacodec.protocol import messages as m
from kafkacodec.records import RecordBatchBuilder, decode_records
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client._backoff import backoff
from kafkacodec.client.accumulator import _LISTENER_LOCK, BatchResult, ProducerBatch, RecordAccumulator

if TYPE_CHECKING:
    from kafkacodec.client import _sender_steps as _compiled
    from kafkacodec.client.network import NetworkClient
    from kafkacodec.client.transaction import TransactionManager

#: what a pass over the deques returns: (batches by leader, expired batches, next wake or None,
#: need_metadata, partitions to add to the transaction or None)
Drained = tuple[dict[int, list[ProducerBatch]], list[ProducerBatch], "float | None", bool,
                "set[tuple[str, int]] | None"]
#: one batch's answer: (error code, base offset, log append time, error message, [(index, record error)])
Answer = tuple[int, int, int, "str | None", "Sequence[tuple[int, str | None]]"]

# the compiled steps, or None on the pure twin
ProduceFrame: type[_compiled.ProduceFrame] | None
begin_request: Callable[[Sender, list[ProducerBatch], Callable[[ProducerBatch, int, bool], None]], None] | None
drain: Callable[[Sender, RecordAccumulator, float, bool, bool, TransactionManager | None, int], Drained] | None
finish_acknowledged: Callable[[_compiled.ProduceFrame, Sender, RecordAccumulator, Any], list[int]] | None
seal_batches: Callable[[Sender, dict[int, list[ProducerBatch]]], None] | None
# the fields the compiled steps read, declared once (client/_sender_state.pxd)
if TYPE_CHECKING or _impl.accelerated:
    from kafkacodec.client._sender_state import SenderState, SequenceState
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    from kafkacodec._pure.sender_state import SenderState, SequenceState
if _impl.accelerated:
    from kafkacodec.records._records import set_batch_producer
    from kafkacodec.client._sender_steps import ProduceFrame, begin_request, drain, finish_acknowledged, seal_batches
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    from kafkacodec._pure.records import set_batch_producer
    ProduceFrame = begin_request = drain = finish_acknowledged = seal_batches = None

__all__ = ["Sender"]

log = logging.getLogger("kafkacodec.client.producer")

SEQ_MOD = 1 << 31
#: a lingering batch of at most this many records goes with a request its leader gets anyway
#: (the compiled drain reads it from here)
PIGGYBACK_MAX_RECORDS = 1

# the partition's leader is unknown or moved: refresh metadata, then retry
_LEADER_ERRORS = {Code.UNKNOWN_TOPIC_OR_PARTITION, Code.LEADER_NOT_AVAILABLE, Code.NOT_LEADER_OR_FOLLOWER,
                  Code.FENCED_LEADER_EPOCH, Code.UNKNOWN_LEADER_EPOCH}
_AMBIGUOUS_ERRORS = {Code.REQUEST_TIMED_OUT}   # the leader may have appended it
_SEQUENCE_ERRORS = {Code.OUT_OF_ORDER_SEQUENCE_NUMBER, Code.UNKNOWN_PRODUCER_ID}
_FENCED_ERRORS = {Code.INVALID_PRODUCER_EPOCH, Code.PRODUCER_FENCED}
_TOO_LARGE_ERRORS = {Code.MESSAGE_TOO_LARGE, Code.RECORD_LIST_TOO_LARGE}
_TXN_FATAL_ERRORS = {Code.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, Code.INVALID_PRODUCER_ID_MAPPING}
# InitProducerId answers that are retried, never fatal (an unknown server error is not retriable by class)
_PID_RETRY_ERRORS = {Code.COORDINATOR_LOAD_IN_PROGRESS, Code.COORDINATOR_NOT_AVAILABLE, Code.NOT_COORDINATOR,
                     Code.UNKNOWN_SERVER_ERROR}


def stamp(b: ProducerBatch, producer_id: int, transactional: bool) -> None:
    """Make the batch's header carry its producer id, epoch and base sequence.  A
    batch numbered when sealed has them from its build; one renumbered since (new
    epoch or id) or built elsewhere is rewritten in place."""
    want = (producer_id, b.producer_epoch, b.base_sequence)
    if b.stamped != want:
        raw = b.raw
        if raw is None:
            # bytes with no writable home (a split half, a batch that outgrew its
            # buffer): one copy, which later attempts reuse
            raw = b.raw = bytearray(b.data)  # type: ignore[arg-type]  # a batch is sent once built
            b.data = memoryview(raw).toreadonly()
        # numbered (epoch and base sequence) before it is stamped: _seal_batches, _may_send
        set_batch_producer(raw, producer_id, b.producer_epoch, b.base_sequence, transactional)  # type: ignore[arg-type]
        b.stamped = want


def _earliest(a: float | None, b: float | None) -> float | None:
    """The earlier of two wake-up times, either of which may be None (no wake-up)."""
    return b if a is None else a if b is None else min(a, b)


def _pop_expired(acc: RecordAccumulator, dq: collections.deque[ProducerBatch], now: float,
                 expired: list[ProducerBatch]) -> None:
    """Under the accumulator's lock: the front batches of `dq` past delivery.timeout.ms and not
    in flight, sealed, onto `expired` (the compiled twin is inside _sender_steps.drain)."""
    while dq and not dq[0].in_flight and now >= dq[0].deadline:
        b = dq.popleft()
        acc.seal(b)
        expired.append(b)


class PartitionState(SequenceState):
    """Sequence numbers of one partition (idempotence)."""

    __slots__ = ()  # the fields are SequenceState's

    def __init__(self) -> None:
        self.next_seq = 0
        self.last_acked = -1       # last sequence the broker acknowledged
        self.in_flight: list[ProducerBatch] = []  # batches sent and unanswered, in sequence order


class Sender(SenderState):
    def __init__(self, client: NetworkClient, conf: dict[str, Any], accumulator: RecordAccumulator, *,
                 idempotent: bool, transactional_id: str | None = None) -> None:
        self.client = client
        self.metadata = client.metadata
        self.acc = accumulator
        self.acks: int = conf["acks"]
        self.idempotent = idempotent
        self.transactional_id = transactional_id
        # a transaction aborts instead of leaving a gap: only plain idempotence needs the guarantee
        self.gapless: bool = conf.get("enable.gapless.guarantee", False) and transactional_id is None
        self.request_timeout = conf["request.timeout.ms"] / 1000
        self.retries: int = conf["retries"]
        self.backoff: float = conf["retry.backoff.ms"] / 1000
        self.backoff_max = max(self.backoff, conf["retry.backoff.max.ms"] / 1000)
        # the I/O loop's waits keep microseconds (client/_selector.py): a batch leaves at linger.ms
        self.linger = conf["linger.ms"] / 1000
        self.max_in_flight: int = conf["max.in.flight.requests.per.connection"]
        self.max_request_size: int = conf["max.request.size"]
        self.transaction_timeout_ms: int = conf["transaction.timeout.ms"]
        self.compression: str = conf["compression.type"]
        self.node_in_flight: collections.Counter[int] = collections.Counter()
        # where _requests starts cutting a broker's batches next (Java's drainIndex): the
        # batches left over go first next time, so no partition waits behind busier ones
        self._cut_start: dict[int, int] = {}
        self.in_flight_requests = 0
        self.producer_id = -1
        self.producer_epoch = -1
        self.partitions: dict[tuple[str, int], PartitionState] = {}
        self.bump_needed = False
        self._pid_request: concurrent.futures.Future[Any] | None = None
        self._pid_after = 0.0
        self._pid_failures = 0
        self.fatal: BaseException | None = None  # set: nothing more is sent, every batch fails with it
        self.closing = False
        self.txn: TransactionManager | None = None  # transactional producers
        self.stats: collections.Counter[str] = collections.Counter()
        # for statistics (kafkacodec.client.stats), counted per batch on the I/O thread
        self.acked: dict[tuple[str, int], list[int]] = {}  # (topic, partition) -> [records, bytes] acknowledged
        # id(batches) -> (batches, their sizes): Produce requests unanswered
        self.requests_in_flight: dict[int, tuple[list[ProducerBatch], list[int]]] = {}
        # id(batches) -> the earliest delivery deadline of a batch of that request not yet failed
        self._request_deadlines: dict[int, float] = {}

    # -- helpers

    def _ps(self, tp: tuple[str, int]) -> PartitionState:
        ps = self.partitions.get(tp)
        if ps is None:
            ps = self.partitions[tp] = PartitionState()
        return ps

    def _backoff_for(self, attempts: int) -> float:
        return backoff(self.backoff, self.backoff_max, attempts)

    def set_fatal(self, error: BaseException) -> None:
        if self.fatal is None:
            self.fatal = error
            self.acc.error = error
            self.client.wakeup()

    # -- the tick

    def tick(self, now: float) -> float | None:
        acc = self.acc
        # unknown until the pass below: a batch opened meanwhile wakes the loop
        acc.sender_wake_at = 0.0
        if self.fatal is not None:
            acc.fail_all(self.fatal)
            return None
        if self.idempotent and self.transactional_id is None:
            if self.producer_id < 0 or (self.bump_needed and self._may_bump()):
                deadline = self._init_producer_id(now)
                if self.producer_id < 0:
                    # nothing can be numbered without an id; what waits still meets delivery.timeout.ms
                    return _earliest(deadline, self._expire_waiting(acc, now))
        if self._pid_request is not None:
            # an epoch bump is under way (its answer wakes us): however long the broker is
            # silent, the batches waiting for it fail at delivery.timeout.ms
            expires = self._expire_waiting(acc, now)
            return _earliest(expires, self._expire_in_flight(now) if self._request_deadlines else None)
        txn = self.txn
        if txn is not None and txn.abortable_error is not None:
            self.numbers_dropped(acc.fail_all(txn.abortable_error))
        # while held records are placed, a flush waits for them to fill their batches; memory
        # awaited (pool.queued) sends at once, or the placing could wait on its own batches
        flushing = (acc.flushing > 0 and not acc.placing) or self.closing or acc.pool.queued > 0
        if drain is not None:
            by_node, expired, next_wake, need_metadata, need_add = drain(
                self, acc, now, flushing, self.bump_needed, txn, PIGGYBACK_MAX_RECORDS)
        else:
            by_node, expired, next_wake, need_metadata, need_add = self._drain(acc, now, flushing, self.bump_needed, txn)
        # built outside the lock (appending threads may need it)
        if seal_batches is not None:
            seal_batches(self, by_node)
        else:
            self._seal_batches(by_node)
        self._fail_expired(expired)
        if need_metadata:
            self.metadata.request_update()
        if need_add and txn is not None:  # partitions to add come only from a transaction
            try:
                txn.add_partitions(need_add, now)
            except E.KafkaError:
                pass  # the client was closed (or failed) after the I/O loop checked
        for node, batches in by_node.items():
            for request in self._requests(node, batches):
                self._send_produce(node, request, now)
        if self._request_deadlines:
            next_wake = _earliest(next_wake, self._expire_in_flight(now))
        if next_wake is not None:
            # a deadline a hair away is one short wait, never a spin (waits keep microseconds)
            next_wake = max(next_wake, now + 0.0001)
            # the loop ticks again by then (its wait is the earliest of its tickers'): a batch
            # opened since the pass, due no earlier, need not wake it (RecordAccumulator._append_new)
            acc.sender_wake_at = next_wake
        return next_wake

    def _fail_expired(self, expired: list[ProducerBatch]) -> None:
        for b in expired:
            # a batch sent before may have been written: only "never sent" is certain
            what = "not acknowledged" if b.attempts else "not sent"
            self._give_up(b, E.KafkaTimeoutError(
                f"{b.topic}[{b.partition}]: batch {what} within delivery.timeout.ms "
                f"({(b.deadline - b.created) * 1000:.0f} ms)"))

    def _expire_waiting(self, acc: RecordAccumulator, now: float) -> float | None:
        """While nothing can be sent (no producer id yet, an epoch bump unanswered): fail the
        batches past delivery.timeout.ms, as a drain would.  Returns the next batch deadline."""
        expired: list[ProducerBatch] = []
        next_wake: float | None = None
        with acc.lock:
            for dq in acc.deques.values():
                _pop_expired(acc, dq, now, expired)
                if dq and (next_wake is None or dq[0].deadline < next_wake):
                    next_wake = dq[0].deadline
        self._fail_expired(expired)
        return next_wake

    def _expire_in_flight(self, now: float) -> float | None:
        """Batches in flight past delivery.timeout.ms fail now, as the Java client fails its
        expired in-flight batches: their outcome is unknown (the broker may yet write them).
        The request stays as it is: its answer or its timeout, whenever it comes, gives the
        batch's buffer back and settles its partition's sequence numbers (a numbered batch
        that did not succeed bumps the epoch), and nothing of the partition is sent before.
        Returns the next such deadline."""
        earliest: float | None = None
        deadlines = self._request_deadlines
        for key, deadline in list(deadlines.items()):
            if now >= deadline:
                later: float | None = None
                for b in self.requests_in_flight[key][0]:
                    if b.result.done():
                        continue
                    if now >= b.deadline:
                        error = E.KafkaTimeoutError(
                            f"{b.topic}[{b.partition}]: batch not acknowledged within delivery.timeout.ms "
                            f"({(b.deadline - b.created) * 1000:.0f} ms); it was sent and may yet be written")
                        self.stats["failed_batches"] += 1
                        if self.txn is not None:
                            self.txn.batch_failed(error)  # the transaction must not commit without it
                        b.result.complete(-1, -1, error)
                    elif later is None or b.deadline < later:
                        later = b.deadline
                if later is None:
                    del deadlines[key]
                    continue
                deadline = deadlines[key] = later
            if earliest is None or deadline < earliest:
                earliest = deadline
        return earliest

    def _drain(self, acc: RecordAccumulator, now: float, flushing: bool, bumping: bool,
               txn: TransactionManager | None) -> Drained:
        """The pass over the partitions' deques (compiled: ``_sender.drain``): under the
        accumulator's lock, the batches past delivery.timeout.ms and, for every partition
        whose front batch may go, that batch, sealed, by its leader; a batch still within
        linger.ms goes when its leader gets a request anyway if it holds one record
        (PIGGYBACK_MAX_RECORDS).  Returns (by_node,
        expired, next wake or None, need_metadata, need_add set or None)."""
        next_wake: float | None = None
        by_node: dict[int, list[ProducerBatch]] = {}
        expired: list[ProducerBatch] = []
        need_metadata = False
        need_add: set[tuple[str, int]] | None = None
        linger = self.linger
        waiting: list[tuple[int, Any, ProducerBatch]] = []  # lingering batches that may go
        with acc.lock:
            for tp, dq in acc.deques.items():
                _pop_expired(acc, dq, now, expired)
                if not dq:
                    continue
                b = dq[0]
                if b.retry_at > now:
                    if next_wake is None or b.retry_at < next_wake:
                        next_wake = b.retry_at
                    continue
                lingering = b.open and not flushing and len(dq) == 1 and now - b.created < linger
                if lingering:
                    due = b.created + linger
                    if next_wake is None or due < next_wake:
                        next_wake = due
                if txn is not None and tp not in txn.added:
                    if need_add is None:
                        need_add = set()
                    need_add.add(tp)
                    continue
                leader = self.metadata.leader_for(tp[0], tp[1])
                if leader is None:
                    need_metadata = True
                    continue
                if self.node_in_flight[leader] >= self.max_in_flight:
                    continue
                if self.idempotent and not self._may_send(tp, b, bumping):
                    continue
                if lingering:
                    waiting.append((leader, dq, b))
                    continue
                dq.popleft()
                acc.seal(b)
                by_node.setdefault(leader, []).append(b)
            for leader, dq, b in waiting:
                # a request goes to this leader now: a lingering batch of few records goes with it
                if leader in by_node and b.builder is not None and b.builder.record_count <= PIGGYBACK_MAX_RECORDS:
                    dq.popleft()
                    acc.seal(b)
                    by_node[leader].append(b)
        return by_node, expired, next_wake, need_metadata, need_add

    def _seal_batches(self, by_node: dict[int, list[ProducerBatch]]) -> None:
        """Build the drained batches (compiled: ``_sender.seal_batches``); an idempotent
        producer's new batch is numbered as it is built."""
        transactional = self.transactional_id is not None
        for batches in by_node.values():
            for b in batches:
                if self.idempotent and b.base_sequence is None:
                    ps = self._ps((b.topic, b.partition))
                    seq = ps.next_seq
                    # its count is read after the build: no record reaches it after it is numbered
                    b.close((self.producer_id, self.producer_epoch, seq, transactional))
                    b.base_sequence = seq
                    b.producer_epoch = self.producer_epoch
                    ps.next_seq = (seq + b.record_count) % SEQ_MOD
                else:
                    b.close()

    def _begin_request(self, batches: list[ProducerBatch]) -> None:
        """Mark the batches of a request (compiled: ``_sender.begin_request``)."""
        transactional = self.transactional_id is not None
        for b in batches:
            if self.idempotent:
                stamp(b, self.producer_id, transactional)
                self._ps((b.topic, b.partition)).in_flight.append(b)
            b.in_flight = True
            b.attempts += 1

    def _may_send(self, tp: tuple[str, int], b: ProducerBatch, bumping: bool) -> bool:
        """Idempotence: may this partition's front batch go now?  Only when nothing of
        the partition is in flight (see the module notes)."""
        if self._ps(tp).in_flight:
            return False
        if b.base_sequence is not None:
            if b.producer_epoch == self.producer_epoch:
                # a retry; while a bump waits, only batches of unknown outcome go (to resolve them)
                return not bumping or b.ambiguous
            b.base_sequence = None  # numbered under an older epoch: numbered again now
            b.producer_epoch = None
        return not bumping

    # -- producer id and epoch

    def _may_bump(self) -> bool:
        """An epoch bump waits until nothing is in flight and no outcome is unknown."""
        if self.in_flight_requests:
            return False
        with self.acc.lock:
            for dq in self.acc.deques.values():
                for b in dq:
                    if b.ambiguous and b.base_sequence is not None:
                        return False
        return True

    def _init_producer_id(self, now: float) -> float | None:
        if self._pid_request is not None:
            return None
        if now < self._pid_after:
            return self._pid_after
        bump = self.producer_id >= 0
        body = m.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=self.transaction_timeout_ms,
                                       producer_id=self.producer_id if bump else -1,
                                       producer_epoch=self.producer_epoch if bump else -1)
        try:
            future = self.client.send(None, "InitProducerId", body)
        except E.KafkaError:
            # the client was closed (or failed) after the I/O loop checked: nothing to ask for
            return None
        self._pid_request = future
        future.add_done_callback(lambda f: self._pid_answered(f, bump))
        return None

    def _pid_answered(self, future: concurrent.futures.Future[Any], bump: bool) -> None:
        self._pid_request = None
        exc = future.exception()
        code = exc is None and future.result().error_code
        if exc is not None or code:
            self._pid_failures += 1
            refused = None if exc is not None else E.error_for(code, "InitProducerId")
            err = exc if exc is not None else refused
            if bump and exc is None:
                # the broker cannot bump this id: start over with a new one
                log.info("epoch bump refused (%s); asking for a new producer id", err)
                self.stats["producer_id_resets"] += 1
                self._reset_sequences()
                self.producer_id = self.producer_epoch = -1
                self.bump_needed = False
            elif refused is not None and not refused.retriable and code not in _PID_RETRY_ERRORS:
                self.set_fatal(refused)
            self._pid_after = time.monotonic() + self._backoff_for(self._pid_failures)
            self.client.wakeup()
            return
        resp = future.result()
        self._pid_failures = 0
        if bump:
            log.info("producer id %d: epoch bumped %d -> %d", self.producer_id, self.producer_epoch,
                     resp.producer_epoch)
            self.stats["epoch_bumps"] += 1
        self.set_producer(resp.producer_id, resp.producer_epoch)

    def set_producer(self, producer_id: int, epoch: int) -> None:
        """A new id or epoch: every partition numbers from 0 again."""
        self._reset_sequences()
        self.producer_id = producer_id
        self.producer_epoch = epoch
        self.bump_needed = False
        self.client.wakeup()

    def _reset_sequences(self) -> None:
        self.partitions.clear()
        with self.acc.lock:
            for dq in self.acc.deques.values():
                for b in dq:
                    b.base_sequence = None
                    b.producer_epoch = None
                    b.ambiguous = False

    # -- requests

    def _requests(self, node: int, batches: list[ProducerBatch]) -> list[list[ProducerBatch]]:
        """A broker's drained batches as Produce requests of at most max.request.size bytes
        (a batch at least), within the broker's free in-flight slots; batches left over go
        back to the front of their partitions' deques for the next tick.  Several requests
        keep the broker busy while the answer to the first is handled (a partition still has
        one batch in flight: drain takes at most one per partition)."""
        limit = self.max_request_size
        slots = self.max_in_flight - self.node_in_flight[node]
        start = self._cut_start.get(node, 0) % len(batches)
        if start:
            batches = batches[start:] + batches[:start]  # one batch per partition: any order will do
        requests: list[list[ProducerBatch]] = []
        current: list[ProducerBatch] = []
        size = 0
        for i, b in enumerate(batches):
            n = len(b.data)  # type: ignore[arg-type]  # drained batches are built
            if current and size + n > limit:
                requests.append(current)
                if len(requests) >= slots:
                    self._cut_start[node] = start + i
                    self._put_back(batches[i:])
                    return requests
                current, size = [], 0
            current.append(b)
            size += n
        requests.append(current)
        return requests

    def _put_back(self, batches: list[ProducerBatch]) -> None:
        """Sealed batches that found no request go back to the front of their deques.  One
        never sent gives its sequence numbers back (it was its partition's last numbered):
        numbered but dropped in its deque (purge, an aborted transaction), it would leave a
        gap the broker refuses the partition's next batch for."""
        with self.acc.lock:
            for b in batches:
                if b.attempts == 0 and b.base_sequence is not None:
                    ps = self.partitions.get((b.topic, b.partition))
                    if ps is not None and ps.next_seq == (b.base_sequence + b.record_count) % SEQ_MOD:
                        ps.next_seq = b.base_sequence
                        b.base_sequence = b.producer_epoch = None
                self.acc.deques[(b.topic, b.partition)].appendleft(b)

    def numbers_dropped(self, batches: list[ProducerBatch]) -> None:
        """`batches` failed in their deques without an answer (purge, an aborted transaction,
        a batch waiting to be retried): if any carried sequence numbers, its partition's next
        batch would leave a gap, so the epoch is bumped (sequences start again) before the next
        batch, or at the transaction's end."""
        if not self.idempotent or all(b.base_sequence is None for b in batches):
            return
        if self.txn is not None:
            self.txn.sequences_lost = True
        else:
            self.bump_needed = True
        self.client.wakeup()

    def _send_produce(self, node: int, batches: list[ProducerBatch], now: float) -> None:
        if begin_request is not None:
            begin_request(self, batches, stamp)
        else:
            self._begin_request(batches)
        timeout_ms = int(self.request_timeout * 1000)
        body: _compiled.ProduceFrame | m.ProduceRequest
        if ProduceFrame is not None:
            # framed in C around the batches' bytes; its answer is read into it (see _sender_steps.pyx)
            body = ProduceFrame(self.transactional_id, self.acks, timeout_ms, batches)
        else:
            topics: dict[str, list[m.ProduceRequest.PartitionProduceData]] = {}
            for b in batches:
                topics.setdefault(b.topic, []).append(m.ProduceRequest.PartitionProduceData(index=b.partition,
                                                                                            records=b.data))
            P = m.ProduceRequest
            body = P(transactional_id=self.transactional_id, acks=self.acks, timeout_ms=timeout_ms,
                     topic_data=[P.TopicProduceData(name=t, partition_data=parts) for t, parts in topics.items()])
        self.node_in_flight[node] += 1
        self.in_flight_requests += 1
        self.stats["requests"] += 1
        self.requests_in_flight[id(batches)] = (batches, [len(b.data) for b in batches])  # type: ignore[arg-type]  # built
        self._request_deadlines[id(batches)] = min(b.deadline for b in batches)
        try:
            future = self.client.send(node, "Produce", body, timeout=self.request_timeout + 1.0)
        except E.KafkaError as exc:
            # the client was closed (or failed) after the I/O loop checked: the batches fail
            # with its error, as its queued requests do
            future = concurrent.futures.Future()
            future.set_exception(exc)
        future.add_done_callback(lambda f: self._produce_answered(f, node, batches))

    def _produce_answered(self, future: concurrent.futures.Future[Any], node: int,
                          batches: list[ProducerBatch]) -> None:
        self.node_in_flight[node] -= 1
        self.in_flight_requests -= 1
        sent = self.requests_in_flight.pop(id(batches), None)
        self._request_deadlines.pop(id(batches), None)
        now = time.monotonic()
        exc = future.exception()
        if exc is not None:
            if not isinstance(exc, E.KafkaError) or not exc.retriable:
                for b in batches:
                    self._done(b, error=exc)
                return
            # one line for the request, not one per batch
            log.warning("Produce to broker %s failed (%s: %s): refreshing metadata, retrying its %d batch(es)",
                        node, type(exc).__name__, exc, len(batches))
            self.metadata.request_update()
            for b in batches:
                self._retry(b, exc, now, ambiguous=True, logged=True)
            return
        resp = future.result()
        if resp is None:  # acks=0: no answer comes
            for b in batches:
                self._done(b, -1, -1)
            return
        if ProduceFrame is not None and finish_acknowledged is not None and type(resp) is ProduceFrame:
            # the acknowledged batches are finished in C; the others are handled here
            rest = finish_acknowledged(resp, self, self.acc, _LISTENER_LOCK)
            if sent is not None:
                self._count_acknowledged(sent[0], sent[1], {id(resp.batches[k]) for k in rest} if rest else None)
            for k in rest:
                b = resp.batches[k]
                answer = resp.answer(k)
                if answer is None:
                    self._missing(b, node, now)
                else:
                    self._answer(b, node, now, *answer)
            return
        answers: dict[tuple[str, int], Any] = {}
        for t in resp.responses:
            for p in t.partition_responses:
                answers[(t.name, p.index)] = p
        for b in batches:
            p = answers.get((b.topic, b.partition))
            if p is None:
                self._missing(b, node, now)
                continue
            log_start_offset = getattr(p, "log_start_offset", None)
            self._answer(b, node, now, p.error_code, p.base_offset,
                         p.log_append_time_ms if p.log_append_time_ms is not None else -1,
                         log_start_offset if log_start_offset is not None else -1,
                         getattr(p, "error_message", None),
                         [(e.batch_index, e.batch_index_error_message) for e in getattr(p, "record_errors", None) or ()])

    def _missing(self, b: ProducerBatch, node: int, now: float) -> None:
        self._retry(b, E.KafkaError(f"Produce answer from broker {node} lacks {b.topic}[{b.partition}]"),
                    now, ambiguous=True)

    def _answer(self, b: ProducerBatch, node: int, now: float, code: int, base_offset: int, log_append_time: int,
                log_start_offset: int, error_message: str | None,
                record_errors: Sequence[tuple[int, str | None]]) -> None:
        """One batch's answer in a Produce response."""
        if code == Code.NONE or code == Code.DUPLICATE_SEQUENCE_NUMBER:  # a duplicate is already written
            self._done(b, base_offset, log_append_time, log_start_offset=log_start_offset)
            return
        detail = ""
        if record_errors:
            detail = "; " + ", ".join(f"record {i}: {msg}" for i, msg in record_errors[:3])
        if error_message:
            detail += f"; {error_message}"
        err = E.error_for(code, f"Produce to {b.topic}[{b.partition}] (broker {node}){detail}")
        if code in _TOO_LARGE_ERRORS and b.record_count > 1 and not b.result.done():
            self._split(b, now)
        elif code in _SEQUENCE_ERRORS and self.idempotent:
            self._sequence_error(b, err, now)
        elif code in _FENCED_ERRORS:
            self._remove_in_flight(b)
            fenced = E.error_for(Code.PRODUCER_FENCED, f"producer fenced: {err}")
            self._done(b, error=fenced)
            self._fenced(fenced)
        elif code in _TXN_FATAL_ERRORS:
            self._done(b, error=err)
            self.set_fatal(err)
        elif err.retriable:
            leader_moved = code in _LEADER_ERRORS
            if leader_moved:
                self.metadata.request_update()
            self._retry(b, err, now, ambiguous=code in _AMBIGUOUS_ERRORS, refreshing=leader_moved)
        else:
            self._done(b, error=err)

    def _fenced(self, error: BaseException) -> None:
        if self.txn is not None:
            self.txn.fenced(error)
        self.set_fatal(error)

    def _remove_in_flight(self, b: ProducerBatch) -> None:
        b.in_flight = False
        if self.idempotent:
            ps = self.partitions.get((b.topic, b.partition))
            if ps is not None and b in ps.in_flight:
                ps.in_flight.remove(b)

    def _count_acknowledged(self, batches: Iterable[ProducerBatch], sizes: Iterable[int],
                            failed: set[int] | None) -> None:
        """Statistics: the records and bytes of a request's batches the broker acknowledged
        (all but those whose id is in `failed`)."""
        acked = self.acked
        for b, size in zip(batches, sizes):
            if failed is not None and id(b) in failed:
                continue
            tp = (b.topic, b.partition)
            counts = acked.get(tp)
            if counts is None:
                acked[tp] = [b.record_count, size]
            else:
                counts[0] += b.record_count
                counts[1] += size

    def _done(self, b: ProducerBatch, base_offset: int = -1, log_append_time: int = -1,
              error: BaseException | None = None, log_start_offset: int = -1) -> None:
        """The batch is finished: acknowledged (error None) or failed for good."""
        if error is None:
            self._count_acknowledged((b,), (len(b.data) if b.data is not None else 0,), None)
        self._remove_in_flight(b)
        if error is None and self.idempotent and b.base_sequence is not None:
            ps = self.partitions.get((b.topic, b.partition))
            if ps is not None and b.producer_epoch == self.producer_epoch:
                ps.last_acked = (b.base_sequence + b.record_count - 1) % SEQ_MOD
        elif error is not None:
            self._give_up_effects(b, error)
        self.acc.release(b)
        if error is None:
            self.stats["batches"] += 1
            self.stats["records"] += b.record_count
        b.result.complete(base_offset, log_append_time, error, log_start_offset)

    def _give_up_effects(self, b: ProducerBatch, error: BaseException) -> None:
        if not b.result.done():  # else counted when it expired in flight (_expire_in_flight)
            self.stats["failed_batches"] += 1
        if self.idempotent and b.base_sequence is not None and b.producer_epoch == self.producer_epoch:
            # its sequence numbers will never arrive: the partition needs a new epoch
            if self.gapless and not isinstance(error, (E.KafkaTimeoutError, E.PurgedError)):
                self._gap(b, error)
            elif self.transactional_id is None:
                self.bump_needed = True
        if self.txn is not None:
            self.txn.batch_failed(error)

    def _give_up(self, b: ProducerBatch, error: BaseException) -> None:
        b.discard()
        self._done(b, error=error)

    def _retry(self, b: ProducerBatch, error: BaseException, now: float, ambiguous: bool = False,
               logged: bool = False, refreshing: bool = False) -> None:
        """Send `b` again after a backoff, or fail it once out of time or retries; `logged`: the
        caller has logged the cause for the whole request, `refreshing`: metadata was asked for."""
        self._remove_in_flight(b)
        if b.result.done():
            self._done(b, error=b.result.error)  # failed meanwhile (purge, fatal error): never resent
            return
        if ambiguous:
            b.ambiguous = True
        if now >= b.deadline or b.attempts > self.retries:
            out_of_time = now >= b.deadline
            why = "delivery.timeout.ms passed" if out_of_time else f"retries ({self.retries}) exhausted"
            final: BaseException
            if out_of_time or not isinstance(error, E.KafkaError) or isinstance(error, E.KafkaTimeoutError):
                # out of time is a timeout, whatever the last attempt met (as librdkafka's
                # _MSG_TIMED_OUT); the request's bytes may have reached the broker
                final = E.KafkaTimeoutError(f"{b.topic}[{b.partition}]: not acknowledged, {why}; last error: {error}")
            else:
                final = type(error)(f"{error} ({why})") if isinstance(error, E.BrokerResponseError) else error
            self._done(b, error=final)
            return
        self.stats["retries"] += 1
        b.retry_at = now + self._backoff_for(b.attempts)
        if not logged:
            # once per batch, not per record; the broker's error text carries the code's name
            log.warning("%s[%d]: retrying a batch of %d record(s) in %.0f ms (attempt %d) after %s%s%s",
                        b.topic, b.partition, b.record_count, (b.retry_at - now) * 1000, b.attempts + 1,
                        "" if isinstance(error, E.BrokerResponseError) else type(error).__name__ + ": ", error,
                        "; refreshing metadata" if refreshing else "")
        self._requeue(b)

    def _requeue(self, b: ProducerBatch) -> None:
        """Back into its deque, before every batch created after it, or with it: a split
        batch's halves share its creation time and go back last first, so halves of a
        half go before their sibling."""
        with self.acc.lock:
            tp = (b.topic, b.partition)
            dq = self.acc.deques.get(tp)
            if dq is None:
                dq = self.acc.deques[tp] = collections.deque()
            i = 0
            for other in dq:
                if other.created >= b.created:
                    break
                i += 1
            dq.insert(i, b)
        self.client.wakeup()

    def _sequence_error(self, b: ProducerBatch, err: BaseException, now: float) -> None:
        ps = self._ps((b.topic, b.partition))
        self._remove_in_flight(b)
        b.ambiguous = False  # the broker refused it: it was not written by this attempt
        first_unacked = (b.producer_epoch == self.producer_epoch
                         and b.base_sequence == (ps.last_acked + 1) % SEQ_MOD)
        if not first_unacked:
            # an earlier batch failed first; this one waits for it
            self._retry(b, err, now)
            return
        if self.transactional_id is not None:
            self._done(b, error=err)  # the transaction must abort (and then bumps the epoch)
            return
        if self.gapless:
            # the broker lost what this producer wrote before: records may be missing from the log
            self._done(b, error=err)  # which stops the producer (_give_up_effects)
            return
        log.info("%s for the oldest unacknowledged batch of %s[%d]: bumping the epoch", err, b.topic, b.partition)
        self.bump_needed = True
        self._retry(b, err, now)

    def _gap(self, b: ProducerBatch, error: BaseException) -> None:
        """enable.gapless.guarantee: `b` failed for good, so the producer stops (librdkafka's
        _GAPLESS_GUARANTEE fatal error) rather than carry on past the gap under a new epoch."""
        fatal = E.GaplessGuaranteeError(
            f"{b.topic}[{b.partition}]: a batch of {b.record_count} record(s) failed ({error}); "
            f"enable.gapless.guarantee stops the producer rather than leave a gap")
        log.error("%s", fatal)
        self.set_fatal(fatal)

    def _split(self, b: ProducerBatch, now: float) -> None:
        """MESSAGE_TOO_LARGE for a batch of several records: send its halves instead."""
        self._remove_in_flight(b)
        records = decode_records(b.data)  # type: ignore[arg-type]  # it was sent, so built
        half = len(records) // 2
        parts: list[tuple[int, BatchResult]] = []
        children: list[ProducerBatch] = []
        seq = b.base_sequence
        for start, chunk in ((0, records[:half]), (half, records[half:])):
            builder = RecordBatchBuilder(2, self.compression, batch_size=1 << 30)
            builder.append_many([(r.timestamp, r.key, r.value, list(r.headers)) for r in chunk])
            if seq is not None:
                # the halves keep the parent's numbers, so later batches keep theirs
                # (numbered with its epoch: _seal_batches)
                builder.set_producer(self.producer_id, b.producer_epoch, (seq + start) % SEQ_MOD,  # type: ignore[arg-type]
                                     self.transactional_id is not None)
            result = BatchResult(b.topic, b.partition)
            child = ProducerBatch(b.topic, b.partition, None, result, b.created, b.deadline, None)
            child.open = False
            child.data = builder.build()
            child.record_count = len(chunk)
            child.attempts = b.attempts
            child.split_from = b
            if seq is not None:
                child.base_sequence = (seq + start) % SEQ_MOD
                child.producer_epoch = b.producer_epoch
                child.stamped = (self.producer_id, child.producer_epoch, child.base_sequence)
            parts.append((start, result))
            children.append(child)
        self.stats["splits"] += 1
        log.info("%r too large for the broker: split into %d + %d records", b, half, len(records) - half)
        parent = b

        def parent_done(_: BatchResult) -> None:
            self.acc.release(parent)

        b.result.split_into(parts)
        b.result.add_listener(parent_done)
        for child in reversed(children):
            self._requeue(child)

    def connection_lost(self, node_id: int, error: BaseException) -> None:
        # the network layer fails the connection's requests; their callbacks retry
        pass
