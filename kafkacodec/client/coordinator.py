"""Coordinators: the one FindCoordinator lookup for groups (key type 0) and
transactional ids (key type 1), and blocking calls that follow a coordinator
as it moves.

``CoordinatorLookup`` runs on the I/O thread (the consumer group, the
producer's transaction manager): FindCoordinator when asked and due, retried
after the client's backoff (``retry.backoff.ms`` doubling up to
``retry.backoff.max.ms``) while the answer is a retriable error.
``CoordinatorCalls`` runs on the calling thread (transactions, Admin's group
calls): it finds the coordinator with the same request and backoff, sends the
call and retries it while the coordinator moves or loads.
"""
from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from kafkacodec.protocol import decode_response, encode_request
from kafkacodec.protocol import messages as m
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client._backoff import backoff
from kafkacodec.client.types import TopicPartition

if TYPE_CHECKING:
    from kafkacodec.client.network import NetworkClient

__all__ = ["GROUP", "TRANSACTION", "CoordinatorLookup", "CoordinatorCalls", "answer_by", "OffsetFetch",
           "FetchedOffsets"]

GROUP = 0        # FindCoordinator key types
TRANSACTION = 1

# FindCoordinator answers that mean "ask again" (the coordinator moves or loads)
COORDINATOR_ERRORS = {Code.COORDINATOR_LOAD_IN_PROGRESS, Code.COORDINATOR_NOT_AVAILABLE, Code.NOT_COORDINATOR}
_COORDINATOR_GONE = {Code.COORDINATOR_NOT_AVAILABLE, Code.NOT_COORDINATOR}
_TRY_AGAIN = {Code.COORDINATOR_LOAD_IN_PROGRESS, Code.CONCURRENT_TRANSACTIONS, Code.REQUEST_TIMED_OUT}
_FENCED = {Code.INVALID_PRODUCER_EPOCH, Code.PRODUCER_FENCED}
# a call answered "try again" (a transaction still ending, a coordinator loading) is asked
# again after this, doubling: such states last milliseconds (the Java client's
# AddPartitionsToTxn retry backoff is the same 20 ms)
CALL_RETRY_BACKOFF = 0.02


def _backoff_range(client: NetworkClient) -> tuple[float, float]:
    conf = client.conf
    base = conf["retry.backoff.ms"] / 1000
    return base, max(base, conf["retry.backoff.max.ms"] / 1000)


def answer_by(future: concurrent.futures.Future[Any], deadline: float) -> Any:
    """A request's answer, waited for until `deadline` (time.monotonic()) and a
    second more for the I/O thread's own timeout to fire first."""
    try:
        return future.result(max(0.0, deadline - time.monotonic()) + 1.0)
    except E.KafkaError:
        raise
    except TimeoutError:
        raise E.KafkaTimeoutError("no answer before the deadline") from None


class FetchedOffsets(NamedTuple):
    """One group's OffsetFetch answer, whatever its version: the group's error code and
    {TopicPartition: (committed offset, or None when there is none; the partition's error code)}."""

    error_code: int
    partitions: dict[TopicPartition, tuple[int | None, int]]

    def codes(self) -> list[int]:
        """The group's code, then each partition's."""
        return [self.error_code] + [code for _, code in self.partitions.values()]


_OFFSET_FETCH = 9  # API key


class OffsetFetch:
    """One group's OffsetFetch, sent at the version the coordinator takes: up to v7 the group
    is the request's own, from v8 it is a batch of one (KIP-709), at v9 with no member (an
    admin, or a member of a classic group).  The connection calls encode_frame and
    decode_response with the version it picked; answers come back as FetchedOffsets.
    Brokers may answer a request for every partition (`topics` None) differently by version:
    Tansu lists none before v8."""

    def __init__(self, group: str, topics: Mapping[str, Sequence[int]] | None, require_stable: bool = False) -> None:
        self.group = group
        self.topics = None if topics is None else {t: sorted(ps) for t, ps in topics.items()}
        self.require_stable = require_stable

    def body(self, version: int) -> m.OffsetFetchRequest:
        topics = self.topics
        if version >= 8:
            GT = m.OffsetFetchRequest.OffsetFetchRequestTopics
            return m.OffsetFetchRequest(require_stable=self.require_stable, groups=[
                m.OffsetFetchRequest.OffsetFetchRequestGroup(
                    group_id=self.group, member_id=None, member_epoch=-1,
                    topics=None if topics is None else [GT(name=t, partition_indexes=ps) for t, ps in topics.items()])])
        T = m.OffsetFetchRequest.OffsetFetchRequestTopic
        return m.OffsetFetchRequest(
            group_id=self.group, require_stable=self.require_stable,
            topics=None if topics is None else [T(name=t, partition_indexes=ps) for t, ps in topics.items()])

    def encode_frame(self, version: int, correlation_id: int, client_id: str | None) -> list[bytes]:
        return [encode_request(_OFFSET_FETCH, version, self.body(version), correlation_id=correlation_id,
                               client_id=client_id)]

    def decode_response(self, version: int, frame: Any) -> FetchedOffsets:
        _, resp = decode_response(_OFFSET_FETCH, version, frame, allow_trailing=True)
        if version >= 8:
            group = next((g for g in resp.groups if g.group_id == self.group), None)
            if group is None:  # an answer without the group asked for: nothing committed it can name
                return FetchedOffsets(Code.NONE, {})
            error_code, topics = group.error_code, group.topics
        else:
            error_code, topics = resp.error_code, resp.topics
        return FetchedOffsets(error_code, {
            TopicPartition(t.name, p.partition_index): (p.committed_offset if p.committed_offset >= 0 else None,
                                                        p.error_code)
            for t in topics or () for p in t.partitions})


def _what(key: str, key_type: int) -> str:
    return f"group {key!r}" if key_type == GROUP else f"transactional id {key!r}"


class CoordinatorLookup:
    """FindCoordinator for one key on the I/O thread.  ``node`` is the node id to send
    to once found (None before); `listener(lookup)` runs after each answer, on the
    I/O thread, with ``node`` set or ``error`` set (a non-retriable answer)."""

    def __init__(self, client: NetworkClient, key: str, key_type: int, *, own_connection: bool = False,
                 listener: Callable[[CoordinatorLookup], object] | None = None) -> None:
        self.client = client
        self.key = key
        self.key_type = key_type
        self.own_connection = own_connection
        self.listener = listener
        self.node: int | None = None
        self.broker_id: int | None = None   # the coordinator's broker id (node is its own connection's)
        self.address: tuple[str, int] | None = None
        self.error: E.KafkaError | None = None
        self.in_flight = False
        self.due = 0.0                      # time.monotonic() from which the next lookup may go
        self._failures = 0

    def lookup(self, now: float) -> float | None:
        """Send FindCoordinator unless one is in flight or the backoff runs; returns when to
        look again (None: its answer wakes the I/O loop)."""
        if self.in_flight:
            return None
        if now < self.due:
            return self.due
        self.in_flight = True
        future = self.client.send_now(None, "FindCoordinator", m.FindCoordinatorRequest(key=self.key,
                                                                                        key_type=self.key_type))
        future.add_done_callback(self._answered)
        return None

    def lost(self) -> None:
        """The coordinator moved or its connection failed: look it up again."""
        self.node = None
        self.client.wakeup()

    def _answered(self, future: concurrent.futures.Future[Any]) -> None:
        self.in_flight = False
        exc = future.exception()
        resp = None if exc is not None else future.result()
        if resp is None or resp.error_code:
            self._failures += 1
            base, most = _backoff_range(self.client)
            self.due = time.monotonic() + backoff(base, most, self._failures)
            if resp is not None and resp.error_code not in COORDINATOR_ERRORS:
                self.error = E.error_for(resp.error_code, f"FindCoordinator for {_what(self.key, self.key_type)}")
        else:
            self._failures = 0
            self.error = None
            self.broker_id = resp.node_id
            self.address = (resp.host, resp.port)
            role = "group coordinator" if self.key_type == GROUP else "transaction coordinator"
            self.node = self.client.coordinator_node(resp.node_id, resp.host, resp.port,
                                                     own_connection=self.own_connection, role=role)
        if self.listener is not None:
            self.listener(self)
        self.client.wakeup()


class CoordinatorCalls:
    """Blocking requests (calling thread) to the transaction coordinator of one
    transactional id, or to a group's coordinator: FindCoordinator, then the
    request until it is answered without a retriable error.  The producer's
    TransactionManager, the functions for prepared transactions and Admin's group
    calls share them."""

    def __init__(self, client: NetworkClient, transactional_id: str | None, request_timeout_ms: int,
                 backoff_max: float) -> None:
        self.client = client
        self.transactional_id = transactional_id
        self.request_timeout = request_timeout_ms / 1000
        self.backoff_max = backoff_max
        self.coordinator: int | None = None
        self.answered_by: int | None = None   # the coordinator whose answer call() returned last

    @classmethod
    def of(cls, client: NetworkClient, transactional_id: str | None = None) -> CoordinatorCalls:
        """Calls with the client's own request timeout and backoff."""
        conf = client.conf
        return cls(client, transactional_id, conf["request.timeout.ms"], _backoff_range(client)[1])

    def _check_not_fatal(self) -> None:
        pass

    def _fenced(self, error: BaseException) -> None:
        """Another producer took the transactional id over (the error is raised next)."""

    def find(self, key: str, key_type: int, deadline: float) -> int:
        """The coordinator's node id for `key`, asked until `deadline` while the answer is retriable."""
        attempt = 0
        base, most = _backoff_range(self.client)
        while True:
            future = self.client.send(None, "FindCoordinator", m.FindCoordinatorRequest(key=key, key_type=key_type))
            err: E.KafkaError | None = None
            try:
                resp = answer_by(future, deadline)
                if not resp.error_code:
                    node: int = self.client.coordinator_node(resp.node_id, resp.host, resp.port,
                                                             own_connection=False, role="coordinator")
                    return node
                err = E.error_for(resp.error_code, f"FindCoordinator for {_what(key, key_type)}")
                if not err.retriable:
                    raise err
            except E.KafkaError as exc:
                if not exc.retriable:
                    raise
                err = exc
            attempt += 1
            self._pause(backoff(base, most, attempt), deadline, err)

    def _pause(self, pause: float, deadline: float, err: BaseException | None) -> None:
        if time.monotonic() + pause >= deadline:
            raise E.KafkaTimeoutError(f"coordinator call not done before its timeout; last error: {err}")
        time.sleep(pause)

    def call(self, api: str, make_body: Callable[[], Any], answer_code: Callable[[Any], int], deadline: float, *,
             group: str | None = None) -> Any:
        """Send to the transaction (or `group`'s) coordinator until it answers without a
        retriable error; returns the answer.  answer_code(resp) -> the error code that counts."""
        attempt = 0
        coordinator: int | None = None
        while True:
            self._check_not_fatal()
            if group is None:
                if self.coordinator is None:
                    assert self.transactional_id is not None, "a call without a group is for a transactional id"
                    self.coordinator = self.find(self.transactional_id, TRANSACTION, deadline)
                coordinator = self.coordinator
            elif coordinator is None:
                coordinator = self.find(group, GROUP, deadline)
            future = self.client.send(coordinator, api, make_body(),
                                      timeout=max(0.1, min(self.request_timeout, deadline - time.monotonic())))
            try:
                resp = answer_by(future, deadline)
            except E.KafkaError as exc:
                if not exc.retriable:
                    raise
                if group is None:
                    self.coordinator = None
                else:
                    coordinator = None
                attempt += 1
                self._pause(backoff(CALL_RETRY_BACKOFF, self.backoff_max, attempt), deadline, exc)
                continue
            code = answer_code(resp)
            if code == Code.NONE:
                self.answered_by = coordinator
                return resp
            err = E.error_for(code, f"{api} for " + (f"group {group!r}" if group is not None else
                                                      f"transactional id {self.transactional_id!r}"))
            if code in _FENCED:
                fenced = E.error_for(Code.PRODUCER_FENCED, f"{api}: {err} (another producer uses transactional.id "
                                                           f"{self.transactional_id!r})")
                self._fenced(fenced)
                raise fenced
            if code in _COORDINATOR_GONE:
                if group is None:
                    self.coordinator = None
                else:
                    coordinator = None
            elif code not in _TRY_AGAIN:
                raise err
            attempt += 1
            self._pause(backoff(CALL_RETRY_BACKOFF, self.backoff_max, attempt), deadline, err)
