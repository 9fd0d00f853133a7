"""The consumer's fetcher: per-partition state, Fetch requests on the I/O thread,
completed fetches kept as raw record bytes until ``poll()`` decodes them.

A partition is fetched when it has a position, is not paused and has a known
leader, and while fewer than ``fetch.queue.min.records`` of its records are
buffered (counted by offsets: the rest of the fetch being drained and the
fetches queued behind it) and the consumer's buffered record data is below
``fetch.queue.max.bytes`` (librdkafka's queued.min.messages and
queued.max.messages.kbytes).  By default (1 record, no byte bound) a partition
is fetched again only once it has nothing buffered, so the buffer stays within
partitions × ``max.partition.fetch.bytes`` (and ``fetch.max.bytes`` per
response); a larger ``fetch.queue.min.records`` fetches ahead, each Fetch
starting where the partition's last buffered one ends.  A partition held back
by these bounds is looked at again after ``fetch.queue.backoff.ms``, or at once
when ``poll()`` takes data.  One Fetch is in flight per broker at a time; when
``poll()`` drains a partition the I/O thread is woken and the next Fetch leaves
at once.  After a failed Fetch its broker is left for ``fetch.error.backoff.ms``
(unset: ``retry.backoff.ms``).  A Fetch holding
only partitions already at their end is not sent while other partitions of
the same broker are being drained: the broker would keep it for
``fetch.max.wait.ms`` and the drained partitions would wait behind it.

Fetch sessions (KIP-227, Fetch v7+, ``enable.fetch.sessions``): the first Fetch
to a broker is full (session id 0, epoch 0); when the broker answers with a
session id, the next ones list only the partitions that are new or whose fetch
offset, leader epoch or size changed, and name in ``forgotten_topics_data`` those
not fetched this time (a buffered partition is left out of a Fetch, as Java's
client does, so the broker never returns data we hold already).  Any failure —
FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH, a lost connection —
drops the session and the next Fetch is full again.
"""
from __future__ import annotations

import collections
import concurrent.futures
import logging
import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kafkacodec.protocol import messages as m
from kafkacodec.records import iter_batches
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client.config import IsolationLevel
from kafkacodec.client.types import TopicPartition
from kafkacodec.client.versions import max_version

if TYPE_CHECKING:
    from kafkacodec.client.metadata import Metadata
    from kafkacodec.client.network import NetworkClient

log = logging.getLogger(__name__)

FETCH_SESSION_MIN_VERSION = 7
FETCH_API_KEY = 1
_SESSION_ERRORS = {Code.FETCH_SESSION_ID_NOT_FOUND, Code.INVALID_FETCH_SESSION_EPOCH}

# answers that mean "the leader moved or our view is stale": refresh metadata
_METADATA_ERRORS = {Code.UNKNOWN_TOPIC_OR_PARTITION, Code.LEADER_NOT_AVAILABLE, Code.NOT_LEADER_OR_FOLLOWER,
                    Code.REPLICA_NOT_AVAILABLE, Code.KAFKA_STORAGE_ERROR, Code.LISTENER_NOT_FOUND,
                    Code.FENCED_LEADER_EPOCH, Code.UNKNOWN_LEADER_EPOCH, Code.UNKNOWN_TOPIC_ID,
                    Code.INCONSISTENT_TOPIC_ID}


#: (session id, epoch, {tp: (fetch offset, leader epoch, max bytes)}) of a Fetch sent in a session
_SessionSent = tuple[int, int, dict[TopicPartition, tuple[int | None, int, int]]]


def _code_name(code: int) -> str:
    return E.error_for(code).name


class FetchSession:
    """What one broker's fetch session holds: {tp: (fetch offset, leader epoch, max bytes)};
    id 0 when the broker declined one."""

    __slots__ = ("id", "epoch", "parts")

    def __init__(self, session_id: int, parts: dict[TopicPartition, tuple[int | None, int, int]]) -> None:
        self.id = session_id
        self.epoch = 1
        self.parts = parts

    def next_epoch(self) -> None:
        self.epoch = self.epoch + 1 if self.epoch < 0x7FFFFFFF else 1


class PartitionState:
    __slots__ = ("position", "leader_epoch", "paused", "reset", "high_watermark", "last_stable_offset",
                 "log_start_offset", "error", "in_flight", "held", "fetch_next", "replica", "replica_until",
                 "handed_out")

    def __init__(self) -> None:
        self.position: int | None = None  # next offset to return to the caller
        # a record reached the caller since the position was last set (assign, seek, reset, committed):
        # librdkafka's position() is the last consumed offset + 1 and no offset before that
        self.handed_out = False
        self.leader_epoch: int | None = -1  # of the last record handed out (librdkafka's position() tells it)
        self.paused = False
        self.reset: str | None = None     # "earliest" / "latest" when the position must be looked up
        self.high_watermark = -1
        self.last_stable_offset = -1
        self.log_start_offset = -1
        self.error: BaseException | None = None  # raised by the next poll()
        self.in_flight = False
        # read_committed without the broker's aborted list: a transaction whose marker has not
        # arrived yet is held here (raw bytes) while fetching continues from fetch_next
        self.held: bytes | None = None
        self.fetch_next: int | None = None
        # the replica the leader told us to fetch from (KIP-392: a follower in our client.rack),
        # -1: the leader; trusted until replica_until (metadata.max.age.ms, as Java's client)
        self.replica = -1
        self.replica_until = 0.0

    def fetch_offset(self) -> int | None:
        """Where the partition's next Fetch starts when nothing of it is buffered."""
        return self.position if self.fetch_next is None else self.fetch_next


#: a partition a Fetch asks for: (tp, its state, leader epoch, fetch offset)
_Fetching = tuple[TopicPartition, PartitionState, int, int | None]


class CompletedFetch:
    """One partition's records from one Fetch response, raw until decoded."""

    __slots__ = ("tp", "fetch_offset", "data", "aborted", "decoded", "size", "kind", "index", "prepared",
                 "_next_offset")

    def __init__(self, tp: TopicPartition, fetch_offset: int, data: Any, aborted: list[tuple[int, int]]) -> None:
        self.tp = tp
        self.fetch_offset = fetch_offset
        self.data = data                     # the record bytes (bytes or a view); None once handed out
        self.aborted = aborted               # (producer id, first offset) pairs
        self.decoded: Any = None             # records or a pyarrow.RecordBatch, as kind says
        self.size = 0                        # bytes counted in Fetcher.buffered_bytes until dropped
        self.kind: str | None = None         # "records" / "arrow" once decoded
        self.index = 0
        self.prepared = False
        self._next_offset: int | None = None

    def next_offset(self, verify_crc: bool) -> int:
        """Offset after the last complete batch (control and aborted batches included)."""
        if self._next_offset is None:
            last = None
            for batch in iter_batches(self.data, verify_crc=False):
                last = batch
            self._next_offset = last.next_offset if last is not None else self.fetch_offset
        return self._next_offset


class Fetcher:
    """Partition state (shared with the calling thread under ``lock``) and the Fetch loop (I/O thread)."""

    def __init__(self, client: NetworkClient, conf: dict[str, Any]) -> None:
        self.client = client
        self.conf = conf
        self.lock = threading.RLock()
        self.ready = threading.Condition(self.lock)
        self.partitions: dict[TopicPartition, PartitionState] = {}
        self.completed: collections.deque[CompletedFetch] = collections.deque()  # arrival order
        self.buffered: dict[TopicPartition, CompletedFetch] = {}  # queued or draining
        # fetches of a partition that came while it had one buffered (fetch.queue.min.records),
        # in order: each becomes its buffered fetch when the one before it is drained
        self.queued: dict[TopicPartition, collections.deque[CompletedFetch]] = {}
        self.buffered_bytes = 0  # record data of every buffered and queued fetch
        self.queue_min_records: int = conf["fetch.queue.min.records"]
        self.queue_max_bytes: int | None = conf["fetch.queue.max.bytes"]
        self.queue_backoff: float = conf["fetch.queue.backoff.ms"] / 1000
        error_backoff = conf["fetch.error.backoff.ms"]
        self.error_backoff: float = (conf["retry.backoff.ms"] if error_backoff is None else error_backoff) / 1000
        self._node_in_flight: set[int] = set()
        self._node_backoff: dict[int, float] = {}
        self.isolation = conf["isolation.level"]     # an IsolationLevel: the Fetch field as it is
        self.closed = False
        self.fetches_sent = 0
        self.sessions: dict[int, FetchSession] = {}  # node id -> FetchSession (I/O thread)
        self.session_stats = {"full": 0, "incremental": 0, "reset": 0}
        # statistics (kafkacodec.client.stats), under lock: TopicPartition -> [records handed out by
        # poll(), bytes of record data fetched]; kept after a partition is unassigned (totals)
        self.received: dict[TopicPartition, list[int]] = {}

    # -- calling thread (under lock)

    def assign(self, given: Iterable[TopicPartition]) -> None:
        with self.lock:
            tps = set(given)
            for tp in list(self.partitions):
                if tp not in tps:
                    del self.partitions[tp]
                    self.drop_buffered(tp)
            for tp in tps:
                if tp not in self.partitions:
                    self.partitions[tp] = PartitionState()
        self.client.metadata.add_topics({tp.topic for tp in tps})
        self.client.wakeup()

    def drop_buffered(self, tp: TopicPartition) -> None:
        """Forget what is buffered of tp (under lock): its fetch and those queued behind it."""
        cf = self.buffered.pop(tp, None)
        if cf is not None:
            self._discard(cf)
        self.drop_queued(tp)

    def drop_queued(self, tp: TopicPartition) -> None:
        """Forget the fetches queued behind tp's buffered one (under lock): they no longer
        follow it (read_committed cut it short)."""
        for cf in self.queued.pop(tp, ()):
            self._discard(cf)

    def _discard(self, cf: CompletedFetch) -> None:
        """cf leaves the buffer (under lock): its bytes from the count, itself from the completed."""
        self.forget(cf)
        try:
            self.completed.remove(cf)
        except ValueError:
            pass

    def forget(self, cf: CompletedFetch) -> None:
        """cf's bytes leave the buffer's count (under lock; once)."""
        self.buffered_bytes -= cf.size
        cf.size = 0

    def promote(self, tp: TopicPartition) -> CompletedFetch | None:
        """tp's buffered fetch is gone (under lock): the next queued one takes its place, after
        the data held back for read_committed, if any."""
        queue = self.queued.get(tp)
        if not queue:
            return None
        cf = queue.popleft()
        if not queue:
            del self.queued[tp]
        state = self.partitions.get(tp)
        if state is not None and state.held is not None:
            cf.data = state.held + bytes(cf.data)
            cf.fetch_offset = state.position  # type: ignore[assignment]  # a partition holding data has a position
            cf._next_offset = None
            state.held = state.fetch_next = None
        self.buffered[tp] = cf
        return cf

    def next_fetch_offset(self, tp: TopicPartition, state: PartitionState) -> int | None:
        """Where tp's next Fetch starts: after its last buffered fetch, else at its position."""
        queue = self.queued.get(tp)
        last = queue[-1] if queue else self.buffered.get(tp)
        if last is None or last.data is None:
            return state.fetch_offset()
        return last.next_offset(False)

    def _records_buffered(self, tp: TopicPartition, state: PartitionState) -> int:
        """tp's records buffered and not yet handed out, counted by offsets (under lock)."""
        count = 0
        for cf in [self.buffered.get(tp), *self.queued.get(tp, ())]:
            if cf is not None and cf.data is not None:
                start = cf.fetch_offset if state.position is None else max(cf.fetch_offset, state.position)
                count += max(0, cf.next_offset(False) - start)
        return count

    def _may_fetch(self, tp: TopicPartition, state: PartitionState) -> bool:
        """Whether the queue bounds let tp be fetched now (under lock)."""
        if self.queue_max_bytes is not None and self.buffered_bytes >= self.queue_max_bytes:
            return False
        if tp not in self.buffered:
            return True
        return self.queue_min_records > 1 and self._records_buffered(tp, state) < self.queue_min_records

    def seek(self, tp: TopicPartition, offset: int) -> None:
        with self.lock:
            state = self.partitions.get(tp)
            if state is None:
                raise E.IllegalStateError(f"{tp.topic}[{tp.partition}] is not assigned to this consumer")
            state.position = offset
            state.handed_out = False
            state.reset = None
            state.error = None
            state.held = state.fetch_next = None
            self.drop_buffered(tp)
        self.client.wakeup()

    # -- I/O thread

    def connection_lost(self, node_id: int, error: BaseException) -> None:
        self._node_backoff[node_id] = time.monotonic() + self.error_backoff
        self._drop_session(node_id)

    def _drop_session(self, node: int) -> None:
        if self.sessions.pop(node, None) is not None:
            self.session_stats["reset"] += 1

    def _fetch_version(self, node: int) -> int | None:
        """The Fetch version this broker's connection negotiated, None before it is ready."""
        conn = self.client.connections.get(node)
        broker_max = conn.versions.get(FETCH_API_KEY) if conn is not None and conn.ready else None
        cap = max_version("Fetch")
        return broker_max if broker_max is None or cap is None else min(broker_max, cap)

    def tick(self, now: float) -> float | None:
        if self.closed:
            return None
        try:
            return self._tick(now)
        except E.ClientClosedError:
            return None  # close() ran while this tick was under way: nothing left to fetch for

    def _tick(self, now: float) -> float | None:
        md = self.client.metadata
        by_node: dict[int, list[_Fetching]] = {}
        next_due: float | None = None
        with self.lock:
            for tp, state in self.partitions.items():
                if (state.position is None or state.paused or state.reset is not None or state.in_flight
                        or state.error is not None):
                    continue
                if not self._may_fetch(tp, state):
                    if self.queue_max_bytes is not None or self.queue_min_records > 1:
                        # looked at again then, or as soon as poll() takes data
                        due = now + self.queue_backoff
                        next_due = due if next_due is None else min(next_due, due)
                    continue
                leader = md.leader_for(tp.topic, tp.partition)
                if leader is None:
                    md.request_update()
                    continue
                if state.replica >= 0:
                    if now < state.replica_until and state.replica in md.brokers:
                        leader = state.replica  # fetched from the replica the leader named
                    else:
                        state.replica = -1
                if leader in self._node_in_flight:
                    continue
                backoff = self._node_backoff.get(leader)
                if backoff is not None and backoff > now:
                    next_due = backoff if next_due is None else min(next_due, backoff)
                    continue
                info = md.topics[tp.topic].partitions[tp.partition]
                by_node.setdefault(leader, []).append((tp, state, info.leader_epoch, self.next_fetch_offset(tp, state)))
            for node, items in by_node.items():
                if self._only_caught_up(items) and self._node_has_buffered(node, md):
                    # The broker would hold this Fetch for fetch.max.wait.ms, and the partitions
                    # being drained meanwhile could not be fetched behind it on this connection:
                    # wait until they join the request.
                    continue
                self._send(node, items)
        return next_due

    def _only_caught_up(self, items: list[_Fetching]) -> bool:
        for _tp, state, _epoch, offset in items:
            end = state.last_stable_offset \
                if self.isolation is IsolationLevel.READ_COMMITTED and state.last_stable_offset >= 0 \
                else state.high_watermark
            if end < 0 or offset < end:  # type: ignore[operator]  # fetched partitions have a position
                return False
        return True

    def _node_has_buffered(self, node: int, md: Metadata) -> bool:
        for tp in self.buffered:
            state = self.partitions.get(tp)
            if state is not None and not state.paused and (
                    state.replica if state.replica >= 0 else md.leader_for(tp.topic, tp.partition)) == node:
                return True
        return False

    def _send(self, node: int, items: list[_Fetching]) -> None:
        conf = self.conf
        wanted: dict[TopicPartition, tuple[int | None, int, int]] = {
            tp: (offset, epoch, conf["max.partition.fetch.bytes"]) for tp, state, epoch, offset in items}
        version = self._fetch_version(node)
        forgotten: dict[str, list[int]] = {}
        session_id, session_epoch = 0, -1
        changed = wanted
        if conf["enable.fetch.sessions"] and version is not None and version >= FETCH_SESSION_MIN_VERSION:
            session = self.sessions.get(node)
            if session is None or session.id == 0:
                session_epoch = 0  # full: asks the broker for a new session
            else:
                session_id, session_epoch = session.id, session.epoch
                changed = {tp: spec for tp, spec in wanted.items() if session.parts.get(tp) != spec}
                for tp in session.parts:
                    if tp not in wanted:
                        forgotten.setdefault(tp.topic, []).append(tp.partition)
        # looked up here, not at import: the message classes are built on first use
        FetchPartition, FetchTopic, ForgottenTopic = m.FetchRequest.FetchPartition, m.FetchRequest.FetchTopic, \
            m.FetchRequest.ForgottenTopic
        topics: dict[str, list[Any]] = {}
        for tp, (offset, epoch, max_bytes) in changed.items():
            topics.setdefault(tp.topic, []).append(FetchPartition(
                partition=tp.partition, current_leader_epoch=epoch, fetch_offset=offset,  # type: ignore[arg-type]  # fetched partitions have a position
                log_start_offset=-1, partition_max_bytes=max_bytes))
        for _, state, _, _ in items:
            state.in_flight = True
        body = m.FetchRequest(
            replica_id=-1, max_wait_ms=conf["fetch.max.wait.ms"], min_bytes=conf["fetch.min.bytes"],
            max_bytes=conf["fetch.max.bytes"], isolation_level=self.isolation, session_id=session_id,
            session_epoch=session_epoch, topics=[FetchTopic(topic=t, partitions=ps) for t, ps in topics.items()],
            forgotten_topics_data=[ForgottenTopic(topic=t, partitions=sorted(ps)) for t, ps in forgotten.items()],
            rack_id=conf["client.rack"])
        sent = {(tp, spec[0]) for tp, spec in wanted.items()}
        try:
            # a session is built for the version the ready connection negotiated: send exactly that one
            future = self.client.send(node, "Fetch", body,
                                      version=version if session_epoch >= 0 else None,
                                      timeout=(conf["request.timeout.ms"] + conf["fetch.max.wait.ms"]) / 1000)
        except E.ClientClosedError:
            for _, state, _, _ in items:
                state.in_flight = False
            raise
        self._node_in_flight.add(node)
        self.fetches_sent += 1
        session_sent: _SessionSent | None = None
        if session_epoch >= 0:
            self.session_stats["incremental" if session_id else "full"] += 1
            session_sent = (session_id, session_epoch, wanted)
        future.add_done_callback(lambda f: self._answered(node, sent, f, session_sent))

    def _session_answered(self, node: int, session: _SessionSent, resp: Any) -> None:
        """Keep the session the broker confirmed (or declined: id 0, full fetches go on)."""
        session_id, epoch, wanted = session
        if session_id == 0:
            self.sessions[node] = FetchSession(resp.session_id or 0, wanted)
            return
        current = self.sessions.get(node)
        if current is not None and current.id == session_id and current.epoch == epoch:
            current.parts = wanted
            current.next_epoch()

    def _answered(self, node: int, sent: Any, future: concurrent.futures.Future[Any],
                  session: _SessionSent | None = None) -> None:
        self._node_in_flight.discard(node)
        md = self.client.metadata
        exc = future.exception()
        with self.lock:
            for tp, _ in sent:
                state = self.partitions.get(tp)
                if state is not None:
                    state.in_flight = False
                    if state.replica == node and (exc is not None or future.result().error_code):
                        state.replica = -1  # the replica failed us: back to the leader (KIP-392)
            if exc is not None:
                if isinstance(exc, E.ClientClosedError):
                    log.debug("fetch from broker %s ended: %s", node, exc)
                else:
                    # a lost connection is a WARNING of its own (network): this one says what follows
                    log.log(logging.INFO if isinstance(exc, E.KafkaConnectionError) else logging.WARNING,
                            "fetch from broker %s failed (%s: %s); refreshing metadata, fetching again in %.0f ms",
                            node, type(exc).__name__, exc, self.error_backoff * 1000)
                self._drop_session(node)
                self._node_backoff[node] = time.monotonic() + self.error_backoff
                md.request_update()
                return
            resp = future.result()
            if resp.error_code:
                self._drop_session(node)
                if resp.error_code in _SESSION_ERRORS:
                    log.info("fetch session with broker %s: %s; a full fetch follows", node,
                             _code_name(resp.error_code))
                    self.client.wakeup()
                    return  # at once, without a session
                refresh = resp.error_code in _METADATA_ERRORS
                log.warning("fetch from broker %s: %s; %sfetching again in %.0f ms", node, _code_name(resp.error_code),
                            "refreshing metadata, " if refresh else "", self.error_backoff * 1000)
                if refresh:
                    md.request_update()
                self._node_backoff[node] = time.monotonic() + self.error_backoff
                return
            if session is not None:
                self._session_answered(node, session, resp)
            offsets = dict(sent)
            woke = False
            for topic in resp.responses:
                for p in topic.partitions:
                    tp = TopicPartition(topic.topic, p.partition_index)
                    state = self.partitions.get(tp)
                    fetch_offset = offsets.get(tp)
                    if (state is None or fetch_offset is None or state.reset is not None
                            or self.next_fetch_offset(tp, state) != fetch_offset):
                        # unassigned or sought meanwhile (seek_to_beginning / _end leave the position
                        # as it was until the new one is looked up): this answer is stale
                        continue
                    if p.current_leader is not None and p.current_leader.leader_epoch is not None:
                        md.observe_leader_epoch(tp.topic, tp.partition, p.current_leader.leader_epoch)
                    code = p.error_code
                    replica = getattr(p, "preferred_read_replica", -1)  # Fetch v11+
                    if code == Code.NONE and replica is not None and replica >= 0 and replica != node:
                        # the leader names a replica to fetch from (KIP-392); its answer has no data
                        log.debug("fetch %s[%d]: broker %s names replica %d to fetch from", tp.topic, tp.partition,
                                  node, replica)
                        state.replica = replica
                        state.replica_until = time.monotonic() + self.conf["metadata.max.age.ms"] / 1000
                        self.client.wakeup()
                        continue
                    if code != Code.NONE and state.replica == node:
                        # a replica's error (out of range: it lags the leader): the leader answers instead
                        log.info("fetch %s[%d] from replica %s: %s; fetching from the leader", tp.topic,
                                 tp.partition, node, _code_name(code))
                        state.replica = -1
                        self.client.wakeup()
                        continue
                    if code == Code.NONE:
                        state.high_watermark = p.high_watermark
                        state.last_stable_offset = p.last_stable_offset
                        state.log_start_offset = p.log_start_offset
                        records = p.records
                        if records is not None and len(records):
                            aborted = [(a.producer_id, a.first_offset) for a in (p.aborted_transactions or ())]
                            ahead = tp in self.buffered
                            if state.held is not None and not ahead:
                                records = state.held + bytes(records)
                                fetch_offset = state.position
                                state.held = state.fetch_next = None
                            counts = self.received.get(tp)
                            if counts is None:
                                counts = self.received[tp] = [0, 0]
                            counts[1] += len(p.records)
                            cf = CompletedFetch(tp, fetch_offset, records, aborted)  # type: ignore[arg-type]  # as above
                            cf.size = len(records)
                            self.buffered_bytes += cf.size
                            self.completed.append(cf)
                            if ahead:
                                # fetched ahead: taken once the fetches before it are drained
                                self.queued.setdefault(tp, collections.deque()).append(cf)
                            else:
                                self.buffered[tp] = cf
                            woke = True
                    elif code == Code.OFFSET_OUT_OF_RANGE:
                        policy = self.conf["auto.offset.reset"]
                        log.warning("fetch %s[%d]: offset %d is OFFSET_OUT_OF_RANGE; %s", tp.topic, tp.partition,
                                    fetch_offset, "poll() raises it (auto.offset.reset=none)" if policy == "none"
                                    else f"resetting to the {policy} offset (auto.offset.reset)")
                        # data held back for read_committed belongs to the offsets left behind
                        state.held = state.fetch_next = None
                        if policy == "none":
                            state.error = E.error_for(code, f"{tp.topic}[{tp.partition}] at offset {fetch_offset}")
                            woke = True
                        else:
                            state.reset = policy
                            woke = True
                    elif code in _METADATA_ERRORS:
                        log.info("fetch %s[%d] from broker %s: %s; refreshing metadata", tp.topic, tp.partition,
                                 node, _code_name(code))
                        md.request_update()
                    else:
                        err = E.error_for(code, f"fetch {tp.topic}[{tp.partition}]")
                        if not err.retriable:
                            state.error = err
                            woke = True
                        else:
                            log.info("fetch %s[%d] from broker %s: %s; fetching again", tp.topic, tp.partition,
                                     node, err.name)
            if woke:
                self.ready.notify_all()

    def close(self) -> None:
        self.closed = True
        with self.lock:
            self.ready.notify_all()
