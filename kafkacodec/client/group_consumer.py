"""Consumer group membership by the KIP-848 consumer protocol (``group.protocol=consumer``).

One request, ConsumerGroupHeartbeat, sent from the I/O thread at the interval the
coordinator sets, carries the member's subscription (topic names, or a regular
expression the broker matches from v1), the assignor it asks for and the
partitions it owns; the coordinator assigns and answers with the member's epoch
and, when it changed, its whole assignment (topic ids).  There is no join barrier:
each member reconciles on its own.

Reconciliation goes through the same hand-over as the classic protocol's
cooperative rebalancing (``GroupCoordinator``, which this class extends), so the
Consumer needs no second path: ``take_assignment`` gives poll() the new target;
poll() gives up (listener, commit) what the target lacks, then takes up what it
adds, and the member acknowledges what it now owns with a heartbeat at once.  The
coordinator hands a partition to a member only after its previous owner
acknowledged giving it up, so revocations always come first.

A fenced member (FENCED_MEMBER_EPOCH, UNKNOWN_MEMBER_ID) has lost its partitions:
poll() runs the lost callback, and the member joins again at epoch 0.  Leaving is
a heartbeat at epoch -1 (-2 for a static member, who keeps its partitions for its
return within the session timeout).
"""
from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Mapping
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from kafkacodec.protocol import messages as m
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client.group import GroupCoordinator
from kafkacodec.client.types import TopicPartition, partitions_by_topic

if TYPE_CHECKING:
    from kafkacodec.client.fetcher import Fetcher
    from kafkacodec.client.metadata import Metadata
    from kafkacodec.client.network import NetworkClient

log = logging.getLogger("kafkacodec.client.group")

CONSUMER_GROUP_HEARTBEAT = 68   # API key
LEAVE_EPOCH = -1
STATIC_LEAVE_EPOCH = -2          # a static member leaving for now: its partitions wait for it
# answers after which the member starts again at epoch 0, its partitions lost
_FENCED = {Code.FENCED_MEMBER_EPOCH, Code.UNKNOWN_MEMBER_ID}
_COORDINATOR_ERRORS = {Code.COORDINATOR_LOAD_IN_PROGRESS, Code.COORDINATOR_NOT_AVAILABLE, Code.NOT_COORDINATOR}
# errors the member cannot mend by trying again: raised by poll(), the member stops
_FATAL = {Code.GROUP_AUTHORIZATION_FAILED, Code.TOPIC_AUTHORIZATION_FAILED, Code.INVALID_REQUEST,
          Code.UNSUPPORTED_ASSIGNOR, Code.UNSUPPORTED_VERSION, Code.GROUP_MAX_SIZE_REACHED,
          Code.UNRELEASED_INSTANCE_ID, Code.FENCED_INSTANCE_ID, Code.INVALID_REGULAR_EXPRESSION}

UNSUPPORTED = ("group.protocol=consumer: the broker does not serve the KIP-848 consumer group protocol "
               "(no ConsumerGroupHeartbeat); set group.protocol=classic")


class ConsumerGroupMember(GroupCoordinator):
    """The Consumer's group member for group.protocol=consumer (the interface of GroupCoordinator)."""

    # an epoch-0 heartbeat joins without a barrier: commits need not wait for it
    REBALANCING = frozenset()

    def __init__(self, client: NetworkClient, conf: dict[str, Any], fetcher: Fetcher) -> None:
        super().__init__(client, conf, fetcher)
        self.cooperative = True   # the Consumer reconciles incrementally, as for KIP-429
        self.assignors = []        # the coordinator assigns (group.remote.assignor)
        # the member id is the client's own from ConsumerGroupHeartbeat v1 (Kafka 4); a v0
        # coordinator answers with the one it gives
        self.member_id = str(uuid.uuid4())
        self.epoch = 0
        self.max_versions = {"OffsetCommit": 9}   # v9: the member epoch in generation_id_or_member_epoch
        self._interval = conf["heartbeat.interval.ms"] / 1000   # until the coordinator sets it
        self._beat_now = False
        # the fields sent in the last heartbeat answered: unchanged ones go as null
        self._sent: dict[str, Any] = {}
        # the last assignment (topic id -> partitions) the coordinator gave, until metadata names its topics
        self._target: dict[uuid.UUID, list[int]] | None = None
        # counts leaves and losses: a heartbeat answered after one speaks of a membership gone
        self._membership = 0

    # an error the member cannot mend (no KIP-848 on the broker, an authorization refused): every
    # poll() raises it, not only the first, until subscribe() starts again
    _fatal: BaseException | None = None
    _error: BaseException | None = None

    @property   # the base class's attribute, read and cleared by poll()
    def error(self) -> BaseException | None:
        return self._error if self._error is not None else self._fatal

    @error.setter
    def error(self, value: BaseException | None) -> None:
        self._error = value

    @property
    def generation(self) -> int:   # stats and commits read the epoch here
        return self.epoch

    @generation.setter
    def generation(self, value: int) -> None:
        pass   # the base class resets it; the epoch is the coordinator's

    # -- I/O thread

    def _tick(self, now: float) -> float | None:
        if self.coordinator is None:
            return self.lookup.lookup(now)
        if not self.subscribed or self.phase in ("revoke", "failed"):
            return None
        if self.phase == "stable" and now - self.last_poll > self.conf["max.poll.interval.ms"] / 1000:
            log.warning("group %s: poll() not called within max.poll.interval.ms; leaving the group", self.group_id)
            self._leave("consumer poll timeout expired")
            self._lose("poll interval exceeded")
            return None
        if self._target is not None:
            self._resolve_target()
        pattern_unknown = (self.pattern is not None and not self._server_regex()
                           and self.client.metadata.full_version <= self._pattern_since)
        if self._heartbeat_in_flight or pattern_unknown:
            return now + 0.05 if pattern_unknown else None
        if self.phase == "idle":
            self.phase = "join"
        if self._beat_now or now >= self._next_heartbeat:
            self._send_heartbeat()
            return None
        return self._next_heartbeat

    def request_rejoin(self, reason: str, lost: bool = False) -> None:
        """A heartbeat at once: the subscription changed, or partitions were given up."""
        with self.cond:
            self.last_rebalance_reason = reason
            self._beat_now = True
            self.cond.notify_all()
        self.client.wakeup()

    def _heartbeat_version(self) -> int | None:
        """The ConsumerGroupHeartbeat version the coordinator serves (None: not served).  Before
        its own connection is up, another broker's answer stands for it: the fields sent depend on
        the version, and brokers of one cluster serve the same."""
        conns = self.client.connections
        coordinator = conns.get(self.coordinator) if self.coordinator is not None else None
        for conn in [coordinator, *conns.values()]:
            if conn is not None and conn.versions:
                return conn.versions.get(CONSUMER_GROUP_HEARTBEAT)
        return None

    def _server_regex(self) -> bool:
        return (self._heartbeat_version() or 0) >= 1

    def _metadata_changed(self, md: Metadata) -> None:
        if not self.subscribed:
            return
        if self.pattern is not None and not self._server_regex():
            # a v0 coordinator takes names only: match here, as the classic protocol does
            topics = {t for t, info in md.topics.items() if self.pattern.fullmatch(t)
                      and not (info.is_internal and self.conf["exclude.internal.topics"])}
            if topics != self.subscription:
                self.subscription = topics
                self.request_rejoin("pattern matches changed")
        if self._target is not None:
            self.client.wakeup()   # the tick names the target's topics

    def _owned_by_id(self) -> list[m.ConsumerGroupHeartbeatRequest.TopicPartitions] | None:
        """The partitions owned, by topic id; None when a topic's id is not known yet."""
        topics = self.client.metadata.topics
        by_topic = partitions_by_topic(self.owned)
        out = []
        for name, ps in sorted(by_topic.items()):
            info = topics.get(name)
            if info is None or info.topic_id is None:
                return None
            out.append(m.ConsumerGroupHeartbeatRequest.TopicPartitions(topic_id=info.topic_id, partitions=sorted(ps)))
        return out

    def _send_heartbeat(self) -> None:
        if self.coordinator is None:
            return
        version = self._heartbeat_version()
        if version is None:
            self._fail(E.UnsupportedVersionError(UNSUPPORTED))
            return
        v1 = version >= 1
        regex = self.pattern is not None and v1
        # names and regex go together or not at all (null: unchanged); librdkafka's mock coordinator
        # insists on it: the one not used goes empty
        fields: dict[str, Any] = {
            "subscription": ([] if regex else sorted(self.subscription),
                             (self.pattern.pattern if regex and self.pattern is not None else "") if v1 else None),
            "server_assignor": self.conf["group.remote.assignor"],
            "topic_partitions": self._owned_by_id(),
        }
        if fields["topic_partitions"] is None:   # a topic's id unknown: report ownership next time
            fields["topic_partitions"] = [] if self.epoch == 0 else None
        joining = self.epoch == 0
        # on joining every field goes; afterwards only what changed, as the spec asks
        body_fields = {k: (v if joining or self._sent.get(k, ...) != v else None) for k, v in fields.items()}
        names, pattern = body_fields.pop("subscription") or (None, None)
        body_fields["subscribed_topic_names"] = names
        body_fields["subscribed_topic_regex"] = pattern
        body = m.ConsumerGroupHeartbeatRequest(group_id=self.group_id, member_id=self.member_id,
                                               member_epoch=self.epoch, instance_id=self.conf["group.instance.id"],
                                               rack_id=self.conf["client.rack"] or None,
                                               rebalance_timeout_ms=self.conf["max.poll.interval.ms"], **body_fields)
        if joining and self.phase in ("idle", "join"):
            self.phase = "joining"
            if self._join_started is None:
                self._join_started = time.monotonic()
                log.info("group %s: joining (group.protocol=consumer; %s)", self.group_id,
                         f"pattern {self.pattern.pattern}" if self.pattern is not None
                         else "topics: " + (", ".join(sorted(self.subscription)) or "none"))
        self._heartbeat_in_flight = True
        self._beat_now = False
        sent = dict(fields)
        timeout = self.conf["request.timeout.ms"] / 1000
        future = self.client.send(self.coordinator, "ConsumerGroupHeartbeat", body, timeout=timeout,
                                  max_version=version)
        membership = self._membership
        future.add_done_callback(lambda f: self._heartbeat_answered_848(f, sent, membership))

    def _fail(self, error: BaseException) -> None:
        with self.cond:
            self._fatal = error
            self.phase = "failed"
            self.cond.notify_all()
            self.fetcher.ready.notify_all()
        self.client.wakeup()

    def _heartbeat_answered_848(self, future: Future[Any], sent: dict[str, Any], membership: int) -> None:
        self._heartbeat_in_flight = False
        now = time.monotonic()
        backoff = self.conf["retry.backoff.ms"] / 1000
        if self.closed or not self.subscribed or membership != self._membership:
            return
        exc = future.exception()
        if exc is not None:
            self._sent = {}
            if isinstance(exc, E.UnsupportedVersionError):
                self._fail(E.UnsupportedVersionError(UNSUPPORTED))
                return
            self._coordinator_error(exc)
            self._next_heartbeat = now + backoff
            if self.phase == "joining":
                self.phase = "join"
            return
        resp: m.ConsumerGroupHeartbeatResponse = future.result()
        code = resp.error_code
        log.debug("group %s: heartbeat answered: error %d, epoch %d, interval %d ms, assignment %s", self.group_id,
                  code, resp.member_epoch, resp.heartbeat_interval_ms,
                  None if resp.assignment is None else {t.topic_id: t.partitions for t in resp.assignment.topic_partitions})
        if code:
            self._sent = {}
            why = f"{E.error_for(code).name}{': ' + resp.error_message if resp.error_message else ''}"
            if code in _FENCED:
                log.info("group %s: member %s fenced at epoch %d (%s); joining again", self.group_id,
                         self.member_id, self.epoch, why)
                self._lose(f"fenced ({why})")
            elif code in _COORDINATOR_ERRORS:
                self._coordinator_error(code)
                self._next_heartbeat = now + backoff
            elif code == Code.UNSUPPORTED_VERSION:
                self._fail(E.UnsupportedVersionError(UNSUPPORTED))
            elif code in _FATAL:
                self._fail(E.error_for(code, f"group {self.group_id}: {why}"))
            else:   # retriable or unknown: try again after the backoff, telling poll() once
                log.warning("group %s: heartbeat failed: %s", self.group_id, why)
                self._next_heartbeat = now + backoff
            if self.phase == "joining":
                self.phase = "join"
            return
        self._sent = sent
        if resp.member_id:
            self.member_id = resp.member_id
        self.epoch = resp.member_epoch
        if resp.heartbeat_interval_ms > 0:
            self._interval = resp.heartbeat_interval_ms / 1000
        self._next_heartbeat = now + self._interval
        if self.phase in ("join", "joining"):
            self.phase = "stable"
        if resp.assignment is not None:
            self._target = {t.topic_id: list(t.partitions) for t in resp.assignment.topic_partitions}
            self._resolve_target()

    def _resolve_target(self) -> None:
        """Hand the coordinator's assignment to poll() once metadata names each of its topics."""
        target = self._target
        if target is None:
            return
        md = self.client.metadata
        names = {info.topic_id: name for name, info in md.topics.items()}
        missing = [tid for tid in target if tid not in names]
        if missing:
            # metadata has not answered for the subscribed topics (or, for a pattern, for all
            # topics) since they were asked for: the next answer names them
            md.request_update()
            return
        # in the coordinator's order, as librdkafka hands them to the assignment callback
        tps = [TopicPartition(names[tid], p) for tid, ps in target.items() for p in ps]
        self._target = None
        md.add_topics({tp.topic for tp in tps})
        if self._join_started is not None:
            shown = ", ".join(f"{tp.topic}-{tp.partition}" for tp in tps[:20]) + (", ..." if len(tps) > 20 else "")
            log.info("group %s: joined at epoch %d in %.2f s; assigned %d partition(s)%s", self.group_id,
                     self.epoch, time.monotonic() - self._join_started, len(tps), f": {shown}" if tps else "")
            self._join_started = None
        if sorted(tps) == sorted(self.owned) and self.pending_assignment is None:
            return
        with self.cond:
            self.pending_assignment = tps
            self.cond.notify_all()
            self.fetcher.ready.notify_all()   # a poll() waiting for records takes it up at once
        self.client.wakeup()

    def _lose(self, reason: str) -> None:
        """Partitions lost (fenced, expelled): poll() runs the lost callback, then the member
        joins again at epoch 0 (revoked_done)."""
        with self.cond:
            self._membership += 1
            self.epoch = 0
            self._target = None
            self.pending_assignment = None
            self.last_rebalance_reason = reason
            if self.owned:
                self.partitions_lost = True
                self.phase = "revoke"
            else:
                self.phase = "join"
                self._beat_now = True
            self.cond.notify_all()
            self.fetcher.ready.notify_all()
        self.client.wakeup()

    def _leave(self, reason: str) -> Future[Any] | None:
        if self.coordinator is None or self.epoch <= 0 and not self._heartbeat_in_flight:
            self.epoch = 0
            self.phase = "idle"
            return None
        static = self.conf["group.instance.id"] is not None
        body = m.ConsumerGroupHeartbeatRequest(
            group_id=self.group_id, member_id=self.member_id,
            member_epoch=STATIC_LEAVE_EPOCH if static else LEAVE_EPOCH, instance_id=self.conf["group.instance.id"],
            rack_id=None, rebalance_timeout_ms=-1, subscribed_topic_names=None, subscribed_topic_regex=None,
            server_assignor=None, topic_partitions=None)
        log.debug("group %s: leaving (%s)", self.group_id, reason)
        future = self.client.send(self.coordinator, "ConsumerGroupHeartbeat", body)
        self._membership += 1
        self.epoch = 0
        self._sent = {}
        self._target = None
        self.phase = "idle"
        return future

    # -- calling thread

    def subscribe(self, topics: Any = None, pattern: Any = None) -> None:
        if self.phase == "failed":
            self.phase = "idle"
            self._fatal = None
        super().subscribe(topics, pattern)

    def _rejoin_now(self) -> None:
        self._beat_now = True

    def take_assignment(self) -> tuple[list[TopicPartition] | None, list[TopicPartition]]:
        tps, before = super().take_assignment()
        if tps is not None:
            # poll() gives up and takes up partitions right after this, on this thread: the
            # heartbeat the tick sends next acknowledges what is owned then
            self.request_rejoin("assignment reconciled")
        return tps, before

    def commit(self, offsets: dict[TopicPartition, int], deadline: float) -> None:
        """As the classic member's, and sent again with the new epoch when the coordinator
        answers STALE_MEMBER_EPOCH while a heartbeat moved the member on (as Java's client)."""
        while True:
            epoch = self.epoch
            try:
                super().commit(offsets, deadline)
                return
            except E.StaleMemberEpochError:
                if self.epoch == epoch or self.epoch <= 0 or time.monotonic() >= deadline:
                    raise
                log.debug("group %s: commit at stale epoch %d; again at %d", self.group_id, epoch, self.epoch)

    def _commit_body(self, offsets: Mapping[TopicPartition, int]) -> m.OffsetCommitRequest:
        body = super()._commit_body(offsets)
        # a member commits with its id and epoch; before its first assignment, as no member
        if not (self.subscribed and self.epoch > 0):
            body.generation_id_or_member_epoch, body.member_id = -1, ""
        return body
