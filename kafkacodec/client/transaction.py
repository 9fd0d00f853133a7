"""Transactions of a producer with ``transactional.id`` (KIP-98).

The caller's thread runs the blocking steps against the transaction
coordinator (found with FindCoordinator, key type 1): InitProducerId in
``init_transactions``, AddOffsetsToTxn + TxnOffsetCommit (to the group's
coordinator) in ``send_offsets_to_transaction``, EndTxn in ``commit`` and
``abort``.  Partitions join the transaction on the I/O thread: the sender
holds a partition's batches back until AddPartitionsToTxn has accepted it.

Coordinator moves and loads (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE,
COORDINATOR_LOAD_IN_PROGRESS) and CONCURRENT_TRANSACTIONS are retried.
INVALID_PRODUCER_EPOCH / PRODUCER_FENCED mean another producer with the same
transactional.id took over: ProducerFencedError, and the producer refuses all
further work.  A failed batch makes the transaction *abortable*: commit raises
the error, abort_transaction() clears it (and bumps the epoch when sequence
numbers were lost, KIP-360).

Two-phase commit (KIP-939's prepare step, Flink's resumed transactions): a
producer's ``prepare_transaction()`` flushes and hands back the transaction's
id, producer id and epoch without ending it; another process ends it later with
:func:`end_transaction` (EndTxn for that id and epoch) or takes the id over with
:func:`fence_transactional_id` (InitProducerId, which aborts a transaction left
open).  Both use the same coordinator lookup and retries as the producer.
"""
from __future__ import annotations

import concurrent.futures
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from kafkacodec.protocol import messages as m
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client._backoff import backoff
from kafkacodec.client.coordinator import (_COORDINATOR_GONE, _FENCED, _TRY_AGAIN, CALL_RETRY_BACKOFF, TRANSACTION,
                                           CoordinatorCalls, CoordinatorLookup, answer_by)
from kafkacodec.client.types import ConsumerGroupMetadata, PreparedTransaction

if TYPE_CHECKING:
    from kafkacodec.client.accumulator import RecordAccumulator
    from kafkacodec.client.network import NetworkClient
    from kafkacodec.client.sender import Sender

__all__ = ["TransactionManager", "ConsumerGroupMetadata", "PreparedTransaction", "group_metadata_of",
           "end_transaction", "fence_transactional_id"]

log = logging.getLogger("kafkacodec.client.producer")

_GROUP_FENCED = {Code.ILLEGAL_GENERATION, Code.UNKNOWN_MEMBER_ID, Code.FENCED_INSTANCE_ID}
# the producer's sequence numbers no longer match the broker's
_SEQUENCE_LOST = {Code.OUT_OF_ORDER_SEQUENCE_NUMBER, Code.UNKNOWN_PRODUCER_ID}
# AddPartitionsToTxn: the partition is not known yet, or another in the request failed first
_ADD_PARTITION_RETRY = {Code.UNKNOWN_TOPIC_OR_PARTITION, Code.OPERATION_NOT_ATTEMPTED}



def group_metadata_of(obj: object) -> ConsumerGroupMetadata:
    """ConsumerGroupMetadata from itself, a group id, or a kafkacodec Consumer in a group."""
    if isinstance(obj, ConsumerGroupMetadata):
        return obj
    if isinstance(obj, str):
        return ConsumerGroupMetadata(obj, -1, "", None)
    group = getattr(obj, "_group", None)
    if group is not None and hasattr(group, "generation"):
        return ConsumerGroupMetadata(group.group_id, group.generation, group.member_id,
                                     group.conf.get("group.instance.id"))
    raise TypeError(f"group metadata must be a ConsumerGroupMetadata, a group id or a Consumer with a "
                    f"group.id, not {type(obj).__name__}")


class TransactionManager(CoordinatorCalls):
    # where every producer's transaction state starts (instances replace these, never change them)
    transactional_id: str  # its producer's transactional.id
    state = "uninitialized"
    offsets_added = False
    abortable_error: BaseException | None = None
    fatal_error: BaseException | None = None
    sequences_lost = False
    _add_future: concurrent.futures.Future[Any] | None = None
    _add_after = 0.0
    _add_failures = 0

    def __init__(self, client: NetworkClient, conf: dict[str, Any], sender: Sender,
                 accumulator: RecordAccumulator) -> None:
        super().__init__(client, conf["transactional.id"], conf["request.timeout.ms"], sender.backoff_max)
        self.conf = conf
        self.sender = sender
        self.acc = accumulator
        self.timeout_ms: int = conf["transaction.timeout.ms"]
        self.added: set[tuple[str, int]] = set()  # partitions in the current transaction (I/O thread writes)
        self._lock = threading.Lock()  # one caller-side operation at a time
        # the I/O thread's lookup (AddPartitionsToTxn); the blocking calls find it themselves
        self._lookup = CoordinatorLookup(client, self.transactional_id, TRANSACTION, listener=self._found)

    # -- state checks (calling threads)

    def check_can_send(self) -> None:
        if self.fatal_error is not None:
            raise self.fatal_error
        if self.abortable_error is not None:
            raise E.IllegalStateError(f"the transaction must be aborted: {self.abortable_error}")
        if self.state != "in_transaction":
            raise E.IllegalStateError("send() of a transactional producer needs begin_transaction() first")

    def _check_not_fatal(self) -> None:
        if self.fatal_error is not None:
            raise self.fatal_error

    def _require_state(self, state: str, message: str) -> None:
        """The fatal error, or IllegalStateError(message) unless in ``state`` (``{state}``: the current one)."""
        self._check_not_fatal()
        if self.state != state:
            raise E.IllegalStateError(message.format(state=self.state))

    def _check_not_abortable(self, verb: str) -> None:
        self._check_not_fatal()
        if self.abortable_error is not None:
            raise E.IllegalStateError(f"cannot {verb}, the transaction must be aborted: {self.abortable_error}") \
                from self.abortable_error

    def _fenced(self, error: BaseException) -> None:
        self.sender._fenced(error)

    # -- I/O thread

    def batch_failed(self, error: BaseException) -> None:
        if self.fatal_error is None and self.abortable_error is None and self.state != "aborting":
            self.abortable_error = error
        if isinstance(error, E.BrokerResponseError) and getattr(error, "code", None) in _SEQUENCE_LOST:
            self.sequences_lost = True

    def fenced(self, error: BaseException) -> None:
        self.fatal_error = error
        self.state = "fatal"

    def add_partitions(self, tps: Iterable[tuple[str, int]], now: float) -> None:
        """Ask the coordinator to add these partitions (I/O thread; one request at a time)."""
        if self._add_future is not None or now < self._add_after or self.fatal_error is not None:
            return
        if self.coordinator is None:
            self._lookup.lookup(now)
            return
        adding = [tp for tp in tps if tp not in self.added]
        if not adding:
            return
        by_topic: dict[str, list[int]] = {}
        for t, p in sorted(adding):
            by_topic.setdefault(t, []).append(p)
        R = m.AddPartitionsToTxnRequest
        body = R(v3_and_below_transactional_id=self.transactional_id,
                 v3_and_below_producer_id=self.sender.producer_id,
                 v3_and_below_producer_epoch=self.sender.producer_epoch,
                 v3_and_below_topics=[R.AddPartitionsToTxnTopic(name=t, partitions=ps) for t, ps in by_topic.items()])
        future = self.client.send(self.coordinator, "AddPartitionsToTxn", body)
        self._add_future = future
        future.add_done_callback(self._partitions_added)

    def _partitions_added(self, future: concurrent.futures.Future[Any]) -> None:
        self._add_future = None
        exc = future.exception()
        retry = False
        if exc is not None:
            if not getattr(exc, "retriable", False):
                self._abortable(exc)
                return
            self.coordinator = None
            retry = True
        else:
            for t in future.result().results_by_topic_v3_and_below:
                for p in t.results_by_partition:
                    code = p.partition_error_code
                    if code == Code.NONE:
                        self.added.add((t.name, p.partition_index))
                    elif code in _FENCED:
                        err = E.error_for(Code.PRODUCER_FENCED, f"AddPartitionsToTxn: {E.error_for(code)}")
                        self.sender._fenced(err)
                        return
                    elif code in _COORDINATOR_GONE:
                        self.coordinator = None
                        retry = True
                    elif code in _TRY_AGAIN or code in _ADD_PARTITION_RETRY:
                        retry = True
                    else:
                        self._abortable(E.error_for(code, f"AddPartitionsToTxn {t.name}[{p.partition_index}]"))
                        return
        if retry:
            self._add_failures += 1
            # CONCURRENT_TRANSACTIONS clears within milliseconds (the previous markers)
            pause = backoff(CALL_RETRY_BACKOFF, min(CALL_RETRY_BACKOFF * 64, self.sender.backoff_max),
                            self._add_failures + 1)
            self._add_after = time.monotonic() + pause
        else:
            self._add_failures = 0
        self.client.wakeup()

    def _abortable(self, error: BaseException) -> None:
        if self.abortable_error is None:
            self.abortable_error = error
        self.client.wakeup()

    def _found(self, lookup: CoordinatorLookup) -> None:
        if lookup.node is not None:
            self.coordinator = lookup.node

    # -- public operations (called by Producer)

    def init_transactions(self, timeout: float) -> None:
        with self._lock:
            self._require_state("uninitialized", "init_transactions() once, before anything else (state {state})")
            self._init_producer_id(time.monotonic() + timeout, bump=False)
            self.state = "ready"

    def _init_producer_id(self, deadline: float, bump: bool) -> None:
        pid, epoch = (self.sender.producer_id, self.sender.producer_epoch) if bump else (-1, -1)

        def body() -> m.InitProducerIdRequest:
            return m.InitProducerIdRequest(transactional_id=self.transactional_id,
                                           transaction_timeout_ms=self.timeout_ms,
                                           producer_id=pid, producer_epoch=epoch)
        resp = self.call("InitProducerId", body, lambda r: r.error_code, deadline)
        self.sender.set_producer(resp.producer_id, resp.producer_epoch)
        self.sequences_lost = False
        log.info("transactional id %r: producer id %d epoch %d", self.transactional_id, resp.producer_id,
                 resp.producer_epoch)

    def prepare(self, flush: Callable[[float], object], timeout: float) -> PreparedTransaction:
        """Flush and leave the transaction open for another process to end (first phase
        of a two-phase commit); the producer sends nothing more and only closes."""
        with self._lock:
            self._require_state("in_transaction", "prepare_transaction() needs an open transaction (state {state})")
            flush(timeout)
            self._check_not_abortable("prepare")
            self.state = "prepared"
            return PreparedTransaction(self.transactional_id, self.sender.producer_id, self.sender.producer_epoch,
                                       tuple(sorted(self.added)))

    def begin_transaction(self) -> None:
        self._require_state("ready", "begin_transaction() needs a finished or no transaction (state {state})")
        self.added = set()
        self.offsets_added = False
        self.state = "in_transaction"

    def send_offsets(self, offsets: Mapping[Any, Any], group_metadata: object, timeout: float) -> None:
        """`offsets`: {(topic, partition) or TopicPartition: next offset (or an object with .offset)}."""
        with self._lock:
            self._require_state("in_transaction", "send_offsets_to_transaction() needs an open transaction")
            if self.abortable_error is not None:
                raise E.IllegalStateError(f"the transaction must be aborted: {self.abortable_error}")
            gm = group_metadata_of(group_metadata)
            deadline = time.monotonic() + timeout
            sender = self.sender
            self.call("AddOffsetsToTxn", lambda: m.AddOffsetsToTxnRequest(
                transactional_id=self.transactional_id, producer_id=sender.producer_id,
                producer_epoch=sender.producer_epoch, group_id=gm.group_id), lambda r: r.error_code, deadline)
            self.offsets_added = True
            by_topic: dict[str, list[tuple[int, int]]] = {}
            for tp, offset in offsets.items():
                topic, partition = tp[0], tp[1]
                offset = getattr(offset, "offset", offset)
                by_topic.setdefault(topic, []).append((partition, int(offset)))
            T = m.TxnOffsetCommitRequest

            def body() -> m.TxnOffsetCommitRequest:
                return T(transactional_id=self.transactional_id, group_id=gm.group_id,
                         producer_id=sender.producer_id, producer_epoch=sender.producer_epoch,
                         generation_id=gm.generation_id, member_id=gm.member_id,
                         group_instance_id=gm.group_instance_id, topics=[
                             T.TxnOffsetCommitRequestTopic(name=t, partitions=[
                                 T.TxnOffsetCommitRequestPartition(partition_index=p, committed_offset=o,
                                                                   committed_leader_epoch=-1, committed_metadata="")
                                 for p, o in parts]) for t, parts in by_topic.items()])

            def code_of(resp: Any) -> int:
                codes: list[int] = [p.error_code for t in resp.topics for p in t.partitions if p.error_code]
                return codes[0] if codes else Code.NONE

            try:
                self.call("TxnOffsetCommit", body, code_of, deadline, group=gm.group_id)
            except E.BrokerResponseError as exc:
                if getattr(exc, "code", None) in _GROUP_FENCED:
                    err = E.CommitFailedError(f"TxnOffsetCommit for group {gm.group_id}: {exc}; the group "
                                              "rebalanced, abort the transaction")
                    self.abortable_error = err
                    raise err from exc
                self.abortable_error = exc
                raise

    def commit(self, flush: Callable[[float], object], timeout: float) -> None:
        with self._lock:
            self._require_state("in_transaction", "commit_transaction() needs an open transaction (state {state})")
            deadline = time.monotonic() + timeout
            flush(max(0.0, deadline - time.monotonic()))
            self._check_not_abortable("commit")
            self._end(True, deadline)
            self.state = "ready"

    def abort(self, flush: Callable[[float], object], timeout: float) -> None:
        with self._lock:
            self._require_state("in_transaction", "abort_transaction() needs an open transaction (state {state})")
            deadline = time.monotonic() + timeout
            self.state = "aborting"
            # batches not sent yet fail at once; those in flight are answered first
            self.abortable_error = self.abortable_error or E.TransactionAbortedError(
                "the transaction was aborted before this record was sent")
            self.client.wakeup()
            flush(max(0.0, deadline - time.monotonic()))
            self._check_not_fatal()
            self._end(False, deadline)
            if self.sequences_lost:
                self._init_producer_id(deadline, bump=True)
            self.abortable_error = None
            self.state = "ready"

    def _end(self, commit: bool, deadline: float) -> None:
        if self.added or self.offsets_added:
            sender = self.sender
            self.call("EndTxn", lambda: m.EndTxnRequest(
                transactional_id=self.transactional_id, producer_id=sender.producer_id,
                producer_epoch=sender.producer_epoch, committed=commit), lambda r: r.error_code, deadline)
        self.added = set()
        self.offsets_added = False


# -- transactions ended by another process (two-phase commit)

def _deadline(client: NetworkClient, timeout: float | None) -> float:
    return time.monotonic() + (client.conf.get("default.api.timeout.ms", 60000) / 1000 if timeout is None else timeout)


def end_transaction(client: NetworkClient, transactional_id: str, producer_id: int, producer_epoch: int,
                    committed: bool, *, timeout: float | None = None) -> None:
    """EndTxn (commit or abort) for a transaction another producer prepared, given its
    transactional id, producer id and epoch (see Producer.prepare_transaction).

    `client` is a NetworkClient (``Admin(...).client``).  Ending a transaction that was
    already ended the same way answers success, so a retry after a lost answer is safe.
    ProducerFencedError: the transaction is gone with that epoch (aborted by its timeout
    or by a newer producer with the id); nothing of it will be committed."""
    calls = CoordinatorCalls.of(client, transactional_id)
    calls.call("EndTxn", lambda: m.EndTxnRequest(
        transactional_id=transactional_id, producer_id=producer_id, producer_epoch=producer_epoch,
        committed=bool(committed)), lambda r: r.error_code, _deadline(client, timeout))


def fence_transactional_id(client: NetworkClient, transactional_id: str, *, transaction_timeout_ms: int = 60000,
                           timeout: float | None = None) -> tuple[int, int]:
    """InitProducerId for `transactional_id` as a new producer would: the coordinator
    bumps the epoch, so older producers with the id are fenced, and aborts the
    transaction they left open.  Returns (producer id, epoch)."""
    calls = CoordinatorCalls.of(client, transactional_id)
    resp = calls.call("InitProducerId", lambda: m.InitProducerIdRequest(
        transactional_id=transactional_id, transaction_timeout_ms=transaction_timeout_ms, producer_id=-1,
        producer_epoch=-1), lambda r: r.error_code, _deadline(client, timeout))
    return resp.producer_id, resp.producer_epoch
