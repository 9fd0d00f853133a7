"""A share group member's I/O-thread half (KIP-932): ShareGroupHeartbeat to the group's
coordinator, and one share session per partition leader, fetching with ShareFetch and
acknowledging with ShareAcknowledge.

The coordinator assigns partitions (several members may share one); the leader hands each
member records it *acquires* for a lock time, with a delivery count.  The member
acknowledges each acquired offset (ACCEPT, RELEASE, REJECT; GAP where the batch held no
record), piggy-backed on its next ShareFetch to that leader, or in a ShareAcknowledge
when a commit asks for it now.  A session's requests carry its epoch in turn, so a leader
has at most one request of this member in flight.  What the consumer has not taken yet
stays in ``completed`` and holds back that leader's next fetch, bounding memory.
"""
from __future__ import annotations

import base64
import collections
import concurrent.futures
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kafkacodec.protocol import messages as m
from kafkacodec.client import errors as E
from kafkacodec.client.coordinator import GROUP, CoordinatorLookup
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client.types import TopicPartition

if TYPE_CHECKING:
    from kafkacodec.client.network import NetworkClient

__all__ = ["ShareFetcher", "ShareFetch", "GAP", "ACCEPT", "RELEASE", "REJECT"]

log = logging.getLogger(__name__)

GAP, ACCEPT, RELEASE, REJECT = 0, 1, 2, 3  # the protocol's acknowledge types

_SESSION_LOST = {Code.SHARE_SESSION_NOT_FOUND, Code.INVALID_SHARE_SESSION_EPOCH}
_REJOIN = {Code.UNKNOWN_MEMBER_ID, Code.FENCED_MEMBER_EPOCH}
_COORDINATOR_GONE = {Code.NOT_COORDINATOR, Code.COORDINATOR_NOT_AVAILABLE, Code.COORDINATOR_LOAD_IN_PROGRESS}
_STALE_METADATA = {Code.NOT_LEADER_OR_FOLLOWER, Code.UNKNOWN_TOPIC_OR_PARTITION, Code.UNKNOWN_TOPIC_ID,
                   Code.FENCED_LEADER_EPOCH, Code.LEADER_NOT_AVAILABLE}
_EPOCH_MAX = (1 << 31) - 1

# acknowledgements answered: fn({tp: offsets}, error or None), on the I/O thread
AckListener = Callable[[dict[TopicPartition, set[int]], "BaseException | None"], object]


class ShareFetch:
    """One partition's answer: its record bytes and the offset ranges acquired in them,
    [(first, last, delivery count)]."""

    __slots__ = ("tp", "node", "data", "acquired")

    def __init__(self, tp: TopicPartition, node: int, data: Any, acquired: list[tuple[int, int, int]]) -> None:
        self.tp = tp
        self.node = node
        self.data = data
        self.acquired = acquired


def _without(acquired: list[tuple[int, int, int]], held: dict[int, int]) -> list[tuple[int, int, int]]:
    """The acquired ranges less the offsets already held at the same delivery (one acquired
    again after its lock ended comes with a higher count: it is new), as ranges."""
    out = []
    for first, last, count in acquired:
        if held.keys().isdisjoint(range(first, last + 1)):
            out.append((first, last, count))
            continue
        start = None
        for o in range(first, last + 1):
            if held.get(o, -1) >= count:
                if start is not None:
                    out.append((start, o - 1, count))
                    start = None
            elif start is None:
                start = o
        if start is not None:
            out.append((start, last, count))
    return out


class _Session:
    __slots__ = ("epoch", "in_flight", "buffered", "due", "idle_wait", "partitions")

    def __init__(self) -> None:
        self.epoch = 0          # 0: the next request opens a new session
        self.in_flight = False
        self.buffered = 0       # answers from this leader not yet taken by poll()
        self.due = 0.0          # no request before (after a failure, or an answer with nothing new)
        # the wait after an answer that listed only records this member holds: acknowledgements
        # to send end it (they change what the leader lists)
        self.idle_wait = False
        # what the session fetches: a leader keeps acquiring records of every partition a
        # ShareFetch of the session named, until one names it forgotten
        self.partitions: set[TopicPartition] = set()


def _member_id() -> str:
    # what Java's Uuid prints: 22 characters of url-safe base64
    return base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")


def ack_batches(acks: dict[int, int], B: Any = m.ShareFetchRequest.AcknowledgementBatch) -> list[Any]:
    """{offset: type} as AcknowledgementBatch runs (of request class B) of consecutive offsets of one type."""
    out: list[Any] = []
    first = last = kind = -1
    for offset in sorted(acks):
        t = acks[offset]
        if offset == last + 1 and t == kind:
            last = offset
            continue
        if first >= 0:
            out.append(B(first_offset=first, last_offset=last, acknowledge_types=[kind]))
        first = last = offset
        kind = t
    if first >= 0:
        out.append(B(first_offset=first, last_offset=last, acknowledge_types=[kind]))
    return out


class ShareFetcher:
    """The member and its sessions (I/O thread: tick and the answers); the consumer's thread
    reads and changes the shared state under ``lock`` and waits on ``ready``."""

    def __init__(self, client: NetworkClient, conf: dict[str, Any]) -> None:
        self.client = client
        self.conf = conf
        self.group: str = conf["group.id"]
        self.lock = threading.RLock()
        self.ready = threading.Condition(self.lock)
        self.member_id = _member_id()
        self.epoch = 0
        self.subscription: list[str] = []
        self.assigned: set[TopicPartition] = set()
        self._assignment_ids: list[Any] | None = None  # the coordinator's last assignment, by topic id
        self.coordinator = CoordinatorLookup(client, self.group, GROUP)
        self._hb_due = 0.0
        self._hb_in_flight = False
        self._hb_interval = 5.0
        self._leaving: concurrent.futures.Future[None] | None = None
        self._acks_before_leaving = 0.0  # the acknowledgements go before the member leaves, until then
        self.sessions: dict[int, _Session] = {}
        self.completed: collections.deque[ShareFetch] = collections.deque()
        self.pending: dict[TopicPartition, dict[int, int]] = {}    # acknowledgements not yet sent
        # offsets acquired by this member whose acknowledgement has not been sent: a leader may
        # list them again in its next answer (librdkafka's mock cluster lists every record the
        # member holds), and a record held is never handed out twice
        self.held: dict[TopicPartition, dict[int, int]] = {}    # {offset: delivery count}
        self.acks_in_flight = 0
        self.flush = False       # a commit wants the pending acknowledgements sent now
        self.closing = False     # acquire nothing more; release what arrives
        self.error: BaseException | None = None  # a non-retriable error for the next poll()
        self.fatal: BaseException | None = None  # for every poll(): the broker serves no share groups
        self.ack_listener: AckListener | None = None
        # fn(partitions) under lock when a session is lost: what was handed out of them is no
        # longer this member's to acknowledge
        self.lost_listener: Callable[[set[TopicPartition]], object] | None = None
        self.lock_timeout_ms: int | None = None
        max_records = conf["share.fetch.max.records"] or conf["max.poll.records"]
        self._max_records = max_records
        self._backoff = (conf.get("fetch.error.backoff.ms") or conf["retry.backoff.ms"]) / 1000

    # -- the consumer's thread (under lock)

    def subscribe(self, topics: list[str]) -> None:
        with self.lock:
            self.subscription = list(topics)
            self._hb_due = 0.0
        self.client.metadata.add_topics(topics)
        self.client.wakeup()

    def acknowledge(self, tp: TopicPartition, offsets: Any, kind: int) -> None:
        with self.lock:
            acks = self.pending.get(tp)
            if acks is None:
                acks = self.pending[tp] = {}
            for offset in offsets:
                acks[offset] = kind

    def taken(self, fetch: ShareFetch) -> None:
        """poll() took `fetch` (under lock): its leader may be fetched from again."""
        session = self.sessions.get(fetch.node)
        if session is not None and session.buffered:
            session.buffered -= 1
        self.client.wakeup()

    def leave(self) -> concurrent.futures.Future[None]:
        with self.lock:
            if self._leaving is None:
                self._leaving = concurrent.futures.Future()
                self._acks_before_leaving = time.monotonic() + self.conf["request.timeout.ms"] / 1000
                if self.epoch == 0 and not self._hb_in_flight:
                    self._leaving.set_result(None)  # never joined
            self._hb_due = 0.0
        self.client.wakeup()
        return self._leaving

    # -- the I/O thread

    def tick(self, now: float) -> float | None:
        if self.fatal is not None:
            return None
        with self.lock:
            deadline = self._heartbeat(now)
            for node, parts in self._by_leader().items():
                session = self.sessions.get(node)
                if session is None:
                    session = self.sessions[node] = _Session()
                if session.in_flight or now < session.due:
                    if not session.in_flight and session.idle_wait and any(tp in self.pending for tp in parts):
                        session.due = 0.0
                    else:
                        if not session.in_flight:
                            deadline = session.due if deadline is None else min(deadline, session.due)
                        continue
                session.idle_wait = False
                acks = {tp: self.pending.pop(tp) for tp in parts if tp in self.pending}
                stopping = self.closing or self._leaving is not None
                if acks and (self.flush or stopping):
                    self._send_acknowledge(node, session, acks)  # now, not after a fetch's wait
                elif not stopping and session.buffered == 0 and self.epoch > 0:
                    fetch_parts = [tp for tp in parts if tp in self.assigned]
                    if fetch_parts or acks:
                        self._send_fetch(node, session, fetch_parts, acks)
                elif acks:
                    self.pending.update(acks)  # they go with the next fetch
            return deadline

    def _by_leader(self) -> dict[int, list[TopicPartition]]:
        """Each leader's partitions: assigned ones, and others with acknowledgements to send."""
        md = self.client.metadata
        out: dict[int, list[TopicPartition]] = {}
        missing = False
        for tp in self.assigned | set(self.pending):
            leader = md.leader_for(tp.topic, tp.partition)
            if leader is None or leader < 0:
                missing = True
                continue
            out.setdefault(leader, []).append(tp)
        if missing:
            md.request_update()
        return out

    def _heartbeat(self, now: float) -> float | None:
        if self._assignment_ids is not None:
            self._resolve_assignment()
        if self._hb_in_flight:
            return None
        leaving = self._leaving is not None
        if not self.subscription and not leaving:
            return None
        if leaving and (self.epoch == 0 or self._leaving.done()):  # type: ignore[union-attr]  # set when leaving
            if not self._leaving.done():  # type: ignore[union-attr]
                self._leaving.set_result(None)  # type: ignore[union-attr]
            return None
        if leaving and not self.idle() and now < self._acks_before_leaving:
            return None  # leaving first would end the sessions the acknowledgements need
        if now < self._hb_due:
            return self._hb_due
        if self.coordinator.node is None:
            return self.coordinator.lookup(now)
        req = m.ShareGroupHeartbeatRequest(
            group_id=self.group, member_id=self.member_id, member_epoch=-1 if leaving else self.epoch,
            rack_id=None, subscribed_topic_names=None if leaving else self.subscription)
        self._hb_in_flight = True
        try:
            future = self.client.send_now(self.coordinator.node, "ShareGroupHeartbeat", req)
        except E.KafkaError as exc:
            self._hb_in_flight = False
            self._fail(exc)
            return None
        future.add_done_callback(lambda f: self._heartbeat_answered(f, leaving))
        return None

    def _heartbeat_answered(self, future: concurrent.futures.Future[Any], leaving: bool) -> None:
        with self.lock:
            self._hb_in_flight = False
            exc = future.exception()
            resp = None if exc is not None else future.result()
            now = time.monotonic()
            if isinstance(exc, E.UnsupportedVersionError) and not leaving:
                # a broker without KIP-932 (Tansu, Kafka before 4.0 or without share groups enabled)
                self.fatal = E.error_for(Code.UNSUPPORTED_VERSION, f"the group coordinator (broker "
                                         f"{self.coordinator.broker_id}) serves no share groups (ShareGroupHeartbeat, "
                                         f"KIP-932): a ShareConsumer needs Kafka 4 with share groups enabled")
                self.ready.notify_all()
                return
            if leaving:
                self.epoch = 0
                self.assigned = set()
                if self._leaving is not None and not self._leaving.done():
                    self._leaving.set_result(None)
                return
            if resp is None or resp.error_code in _COORDINATOR_GONE:
                self.coordinator.lost()
                self._hb_due = now + self._backoff
            elif resp.error_code in _REJOIN:
                log.info("share group %r: error %s; joining again", self.group, resp.error_code)
                self.epoch = 0
                self.assigned = set()
                self._hb_due = now
            elif resp.error_code:
                err = E.error_for(resp.error_code, f"ShareGroupHeartbeat for group {self.group!r}"
                                  + (f": {resp.error_message}" if resp.error_message else ""))
                if err.retriable:
                    self._hb_due = now + self._backoff
                else:
                    self._fail(err)
            else:
                self.epoch = resp.member_epoch
                if resp.member_id:
                    self.member_id = resp.member_id
                self._hb_interval = max(0.05, resp.heartbeat_interval_ms / 1000)
                self._hb_due = now + self._hb_interval
                if resp.assignment is not None:
                    self._assignment_ids = list(resp.assignment.topic_partitions)
                    self._resolve_assignment()
        self.client.wakeup()

    def _resolve_assignment(self) -> None:
        """The coordinator names topics by id: the names come from metadata (asked again
        while an id is unknown)."""
        ids = self._assignment_ids
        assert ids is not None
        names = {info.topic_id: name for name, info in self.client.metadata.topics.items()}
        assigned: set[TopicPartition] = set()
        for tps in ids:
            name = names.get(tps.topic_id)
            if name is None:
                self.client.metadata.request_update()
                return
            assigned.update(TopicPartition(name, p) for p in tps.partitions)
        self._assignment_ids = None
        if assigned != self.assigned:
            log.debug("share group %r: assigned %s", self.group, sorted(assigned))
        self.assigned = assigned

    def _fail(self, err: BaseException) -> None:
        self.error = err
        self.ready.notify_all()

    def _topics(self, parts: list[TopicPartition], acks: dict[TopicPartition, dict[int, int]],
                fetch: bool) -> list[Any] | None:
        ids = {}
        md = self.client.metadata
        by_topic: dict[str, list[Any]] = {}
        R: Any = m.ShareFetchRequest if fetch else m.ShareAcknowledgeRequest
        P = R.FetchPartition if fetch else R.AcknowledgePartition
        for tp in set(parts) | set(acks):
            info = md.topics.get(tp.topic)
            if info is None:
                return None
            ids[tp.topic] = info.topic_id
            by_topic.setdefault(tp.topic, []).append(P(
                partition_index=tp.partition,
                acknowledgement_batches=ack_batches(acks[tp], R.AcknowledgementBatch) if tp in acks else []))
        T = R.FetchTopic if fetch else R.AcknowledgeTopic
        return [T(topic_id=ids[t], partitions=ps) for t, ps in by_topic.items()]

    def _send_fetch(self, node: int, session: _Session, parts: list[TopicPartition],
                    acks: dict[TopicPartition, dict[int, int]]) -> None:
        if acks and session.epoch == 0:
            # a new session cannot acknowledge: what the old one acquired went back to the group with it
            self._acks_done(acks, E.error_for(Code.SHARE_SESSION_NOT_FOUND, f"share session with broker {node} "
                                                                          f"lost before acknowledging"))
            acks = {}
        topics = self._topics(parts, acks, True)
        if topics is None:
            self.pending.update(acks)
            return
        conf = self.conf
        forgotten: list[Any] = []
        fetching = set(parts)
        if session.epoch:
            # partitions no longer assigned here (or named only for their acknowledgements)
            gone: dict[Any, list[int]] = {}
            for tp in (session.partitions | set(acks)) - fetching:
                info = self.client.metadata.topics.get(tp.topic)
                if info is not None:
                    gone.setdefault(info.topic_id, []).append(tp.partition)
            F = m.ShareFetchRequest.ForgottenTopic
            forgotten = [F(topic_id=t, partitions=sorted(ps)) for t, ps in gone.items()]
        session.partitions = fetching
        req = m.ShareFetchRequest(
            group_id=self.group, member_id=self.member_id, share_session_epoch=session.epoch,
            max_wait_ms=conf["fetch.max.wait.ms"], min_bytes=conf["fetch.min.bytes"],
            max_bytes=conf["fetch.max.bytes"], max_records=self._max_records, batch_size=self._max_records,
            topics=topics, forgotten_topics_data=forgotten)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("ShareFetch to broker %s epoch %s: %s, acknowledging %s", node, session.epoch, parts, list(acks))
        self._send(node, session, "ShareFetch", req, acks,
                   timeout=conf["request.timeout.ms"] / 1000 + conf["fetch.max.wait.ms"] / 1000)

    def _send_acknowledge(self, node: int, session: _Session, acks: dict[TopicPartition, dict[int, int]]) -> None:
        topics = self._topics([], acks, False)
        if topics is None or session.epoch == 0:
            # acknowledgements belong to the session that acquired the records
            self._acks_done(acks, E.error_for(Code.SHARE_SESSION_NOT_FOUND, f"no share session with broker {node} "
                                                                          f"to acknowledge in"))
            return
        req = m.ShareAcknowledgeRequest(group_id=self.group, member_id=self.member_id,
                                        share_session_epoch=session.epoch, topics=topics)
        self._send(node, session, "ShareAcknowledge", req, acks)

    def _send(self, node: int, session: _Session, api: str, req: Any, acks: dict[TopicPartition, dict[int, int]],
              timeout: float | None = None) -> None:
        session.in_flight = True
        if acks:
            self.acks_in_flight += 1
            for tp, offsets in acks.items():
                held = self.held.get(tp)
                if held:
                    for o in offsets:
                        held.pop(o, None)
        try:
            future = self.client.send_now(node, api, req, timeout=timeout)
        except E.KafkaError as exc:
            session.in_flight = False
            self._answered_acks(acks, {}, exc)
            return
        future.add_done_callback(lambda f: self._answered(f, node, session, api, acks))

    def _answered(self, future: concurrent.futures.Future[Any], node: int, session: _Session, api: str,
                  acks: dict[TopicPartition, dict[int, int]]) -> None:
        with self.lock:
            session.in_flight = False
            exc = future.exception()
            resp = None if exc is not None else future.result()
            if resp is None or resp.error_code:
                if session.epoch:
                    self._session_lost(node)
                session.epoch = 0
                session.due = time.monotonic() + self._backoff
                if resp is None:
                    error: BaseException = exc  # type: ignore[assignment]  # set when there is no answer
                else:
                    error = E.error_for(resp.error_code, f"{api} to broker {node}"
                                        + (f": {resp.error_message}" if resp.error_message else ""))
                    if resp.error_code not in _SESSION_LOST:
                        log.info("%s", error)
                self._answered_acks(acks, {}, error)
            else:
                session.epoch = 1 if session.epoch >= _EPOCH_MAX else session.epoch + 1
                self.lock_timeout_ms = resp.acquisition_lock_timeout_ms
                names = {info.topic_id: name for name, info in self.client.metadata.topics.items()}
                codes: dict[TopicPartition, int] = {}
                stale = False
                listed = fresh = False  # records listed in the answer; new ones among them
                for t in resp.responses:
                    name = names.get(t.topic_id)
                    if name is None:
                        stale = True
                        continue
                    for p in t.partitions:
                        tp = TopicPartition(name, p.partition_index)
                        if api == "ShareFetch":
                            codes[tp] = p.acknowledge_error_code
                            if p.error_code:
                                stale = stale or p.error_code in _STALE_METADATA
                            if p.acquired_records:
                                listed = True
                                fresh = self._arrived(tp, node, session, p) or fresh
                        else:
                            codes[tp] = p.error_code
                            stale = stale or p.error_code in _STALE_METADATA
                if listed and not fresh:
                    # only what this member holds already: wait as a broker with nothing new would
                    session.due = time.monotonic() + self.conf["fetch.max.wait.ms"] / 1000
                    session.idle_wait = True
                if stale:
                    self.client.metadata.request_update()
                self._answered_acks(acks, codes, None)
            self.ready.notify_all()
        self.client.wakeup()

    def _session_lost(self, node: int) -> None:
        """The leader released what this member acquired in the session: nothing of it is
        handed out any more (it may come back, acquired again)."""
        lost = [f for f in self.completed if f.node == node]
        for f in lost:
            self.completed.remove(f)
        session = self.sessions.get(node)
        if session is not None:
            session.buffered = 0
        md = self.client.metadata
        gone = {f.tp for f in lost} | {tp for tp in set(self.held) | self.assigned
                                       if md.leader_for(tp.topic, tp.partition) == node}
        for tp in gone:
            self.held.pop(tp, None)
        stale = {tp: self.pending.pop(tp) for tp in gone if tp in self.pending}
        if stale:
            # made for the lost session: sent in the next one they would settle records acquired again
            self._acks_done(stale, E.error_for(Code.SHARE_SESSION_NOT_FOUND, f"share session with broker {node} "
                                                                            f"lost before acknowledging"))
        if self.lost_listener is not None and gone:
            self.lost_listener(gone)

    def _arrived(self, tp: TopicPartition, node: int, session: _Session, p: Any) -> bool:
        """Whether the answer of partition `tp` brought records this member did not hold."""
        acquired = [(a.first_offset, a.last_offset, a.delivery_count) for a in p.acquired_records]
        held = self.held.get(tp)
        if held is None:
            held = self.held[tp] = {}
        elif held:
            acquired = _without(acquired, held)
            if not acquired:
                return False
        for first, last, count in acquired:
            held.update(dict.fromkeys(range(first, last + 1), count))
        log.debug("broker %s epoch %s: %s acquired %s", node, session.epoch, tp, acquired)
        if self.closing or tp not in self.assigned:
            # nobody will take them: back to the group at once rather than after the lock
            self.acknowledge(tp, (o for first, last, _ in acquired for o in range(first, last + 1)), RELEASE)
            return True
        session.buffered += 1
        self.completed.append(ShareFetch(tp, node, p.records, acquired))
        return True

    def _answered_acks(self, acks: dict[TopicPartition, dict[int, int]], codes: dict[TopicPartition, int],
                       error: BaseException | None) -> None:
        if not acks:
            return
        self.acks_in_flight -= 1
        if self.flush and self.idle():
            self.flush = False  # what the commit asked for is answered: back to riding on fetches
        listener = self.ack_listener
        if listener is None:
            return
        # one call per outcome: the partitions acknowledged alike, with their offsets
        outcomes: dict[Any, tuple[BaseException | None, dict[TopicPartition, set[int]]]] = {}
        for tp, offsets in acks.items():
            code = codes.get(tp, 0)
            key: object = code
            err: BaseException | None = error
            if error is not None:
                key = "request"
            elif code:
                err = E.error_for(code, f"acknowledging {tp.topic} [{tp.partition}]")
            done = {o for o, t in offsets.items() if t != GAP}
            if done:
                outcomes.setdefault(key, (err, {}))[1][tp] = done
        for err, group in outcomes.values():
            listener(group, err)

    def _acks_done(self, acks: dict[TopicPartition, dict[int, int]], error: BaseException) -> None:
        self.acks_in_flight += 1
        self._answered_acks(acks, {}, error)

    def idle(self) -> bool:
        """No acknowledgement waits to be sent or answered (under lock)."""
        return not self.pending and self.acks_in_flight == 0

    def connection_lost(self, node_id: int, error: BaseException) -> None:
        if node_id == self.coordinator.node:
            self.coordinator.lost()
