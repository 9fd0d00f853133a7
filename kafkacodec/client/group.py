"""Consumer group membership on the I/O thread (classic protocol; eager rebalancing, or
cooperative (KIP-429) when every configured assignor is cooperative).

FindCoordinator, JoinGroup, SyncGroup (the leader runs the assignor),
Heartbeat and LeaveGroup run on the I/O thread.  What must happen on the
caller's thread — rebalance listeners and the commit of consumed offsets
before partitions are given up — is handed over through ``phase``:

    stable --(rebalance needed)--> revoke --(poll(): listener, commit)--> join
    join --JoinGroup/SyncGroup--> assigned --(poll(): positions, listener)--> stable

Cooperative rebalancing skips ``revoke``: members keep fetching what they own
through the rebalance and send it as owned partitions; after SyncGroup, poll()
gives up only what the new assignment lacks (listener, commit) and rejoins at
once when it gave up anything, so the next generation can hand it over.

Subscription and assignment travel as ConsumerProtocolSubscription /
ConsumerProtocolAssignment (version-prefixed), so Java, librdkafka and
kafkacodec members share a group.
"""
from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from kafkacodec.errors import CorruptDataError, KafkaCodecError
from kafkacodec.protocol import decode_versioned, encode_versioned
from kafkacodec.protocol import messages as m
from kafkacodec.client import _waits
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client._backoff import backoff
from kafkacodec.client.assignors import (ASSIGNORS, Assignment, Assignor, TopicPartitionTuple,
                                         parse_sticky_user_data, sticky_user_data)
from kafkacodec.client.coordinator import COORDINATOR_ERRORS, GROUP, CoordinatorLookup, FetchedOffsets, OffsetFetch
from kafkacodec.client.network import NetworkClient
from kafkacodec.client.types import TopicPartition, partitions_by_topic
from kafkacodec.client.versions import max_version

if TYPE_CHECKING:
    from kafkacodec.client.fetcher import Fetcher
    from kafkacodec.client.metadata import Metadata

log = logging.getLogger(__name__)

_R = TypeVar("_R")

LEAVE_GROUP = 13
# v1 carries owned partitions (KIP-429), v2 the generation they were owned in
SUBSCRIPTION_VERSION = 2
PROTOCOL_TYPE = "consumer"

_COORDINATOR_ERRORS = COORDINATOR_ERRORS
_MEMBER_RESET_ERRORS = {Code.ILLEGAL_GENERATION, Code.UNKNOWN_MEMBER_ID, Code.FENCED_INSTANCE_ID}


class _OwnedAwareAssignor(Protocol):
    """An assignor with ``uses_owned = True``: assign() also takes each member's
    (generation, owned partitions)."""

    def assign(self, partitions_per_topic: Mapping[str, int], subscriptions: Mapping[str, Collection[str]],
               owned: Mapping[str, tuple[int, Iterable[TopicPartitionTuple]]]) -> Assignment: ...


class GroupCoordinator:
    # a JoinGroup / SyncGroup is in flight: brokers answer a connection's requests in order, so a
    # commit sent now waits behind it, and its timeout would drop the connection and the join
    REBALANCING = frozenset(("join", "joining", "sync_wait", "syncing"))

    def __init__(self, client: NetworkClient, conf: dict[str, Any], fetcher: Fetcher) -> None:
        self.client = client
        self.conf = conf
        self.group_id: str = conf["group.id"]
        self.fetcher = fetcher
        self.assignors: list[Assignor] = [ASSIGNORS[a]() if isinstance(a, str) else a
                                          for a in conf["partition.assignment.strategy"]]
        # like Java's: cooperative only when every configured assignor supports it
        self.cooperative = all(getattr(a, "rebalance_protocol", "eager") == "cooperative" for a in self.assignors)
        self.cond = threading.Condition(fetcher.lock)
        self.coordinator: int | None = None   # node id of the coordinator's own connection
        # A connection of its own, as Java's client does: a broker answers a connection's requests
        # in order, so a JoinGroup waiting for the other members would hold up the Fetches behind
        # it (cooperative members fetch through a rebalance) until their timeout drops the link.
        self.lookup = CoordinatorLookup(client, self.group_id, GROUP, own_connection=True,
                                        listener=self._found)
        self.member_id = ""
        self.generation = -1
        self.protocol: str | None = None
        self.subscription: set[str] = set()   # topics (exact names)
        self.pattern: re.Pattern[str] | None = None
        # Metadata.full_version when the pattern was subscribed: its first join waits for an
        # answer naming every topic (joining with none matched would cost a second rebalance)
        self._pattern_since = 0
        self.subscribed = False       # subscribe() mode (vs assign())
        self.phase = "idle"           # idle, revoke, join, joining, assigned, stable
        self.owned: list[TopicPartition] = []   # partitions of the current generation
        self.pending_assignment: list[TopicPartition] | None = None
        self.rejoin_reason: str | None = None
        self.partitions_lost = False
        self._next_heartbeat = 0.0
        self._heartbeat_in_flight = False
        self._join_after = 0.0
        # JoinGroup answer waiting for metadata before SyncGroup
        self._leader_join: m.JoinGroupResponse | None = None
        self._join_started: float | None = None   # when this (re)join began, for the INFO lines
        self._leader_was_me = False
        self._topic_counts: dict[str, int] = {}
        self.last_poll = time.monotonic()
        self.error: BaseException | None = None   # raised by the next poll()
        # statistics (kafkacodec.client.stats)
        # TopicPartition -> offset last committed or read back by this member
        self.committed_offsets: dict[TopicPartition, int] = {}
        self.rebalance_cnt = 0        # assignments and revocations handed to poll()
        self.last_rebalance: float | None = None   # when the last of them was (monotonic)
        self.last_rebalance_reason: str | None = None
        self.closed = False
        # highest versions of the coordinator's APIs this member sends, where it differs from the
        # client's table (the KIP-848 member commits at OffsetCommit v9, with its member epoch)
        self.max_versions: dict[str, int] = {}
        client.metadata.listeners.append(self._metadata_changed)

    # -- coordinator discovery (I/O thread, also used for commits without subscribe)

    def _found(self, lookup: CoordinatorLookup) -> None:
        if lookup.node is None:
            if lookup.error is not None:
                with self.cond:
                    self.error, lookup.error = lookup.error, None
                    self.cond.notify_all()
            return
        assert lookup.address is not None  # set with the node
        log.info("group %s: coordinator is broker %s (%s:%d)", self.group_id, lookup.broker_id, *lookup.address)
        with self.cond:
            self.coordinator = lookup.node
            self.cond.notify_all()

    def coordinator_dead(self, why: BaseException | str) -> None:
        if self.coordinator is not None:
            closing = self.closed or self.client.closed or isinstance(why, E.ClientClosedError)
            log.log(logging.DEBUG if closing else logging.WARNING,
                    "group %s: coordinator (broker %s) lost: %s; looking it up again", self.group_id,
                    self.lookup.broker_id, why)
        self.coordinator = None
        self.lookup.lost()
        self.client.wakeup()

    def connection_lost(self, node_id: int, error: BaseException) -> None:
        if node_id == self.coordinator:
            self.coordinator_dead(error)

    def wait_coordinator(self, deadline: float) -> int:
        """Calling thread: the coordinator's node id, looked up by the I/O thread."""
        with self.cond:
            while self.coordinator is None:
                if self.client.fatal_error is not None:
                    raise self.client.fatal_error
                if self.closed or self.client.closed:
                    raise E.ClientClosedError("the consumer is closed")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise E.KafkaTimeoutError(f"no coordinator found for group {self.group_id}")
                self.client.wakeup()
                _waits.wait(self.cond, min(left, 0.2))
            return self.coordinator

    # -- the membership state machine (I/O thread)

    def tick(self, now: float) -> float | None:
        if self.closed or self.group_id is None:
            return None
        try:
            return self._tick(now)
        except E.ClientClosedError:
            return None  # close() ran while this tick was under way

    def _tick(self, now: float) -> float | None:
        if self.coordinator is None:
            return self.lookup.lookup(now)
        if not self.subscribed:
            return None
        poll_limit = self.conf["max.poll.interval.ms"] / 1000
        if self.phase == "stable" and now - self.last_poll > poll_limit:
            log.warning("group %s: poll() not called within max.poll.interval.ms; leaving the group", self.group_id)
            self._leave("consumer poll timeout expired")
            self.request_rejoin("poll interval exceeded", lost=True)
        if self.phase in ("idle", "stable") and self.rejoin_reason is not None:
            with self.cond:
                # cooperative members keep what they own through the rebalance, unless it is lost
                give_up = not self.cooperative or self.partitions_lost
                self.phase = "revoke" if self.owned and give_up else "join"
                self.cond.notify_all()
        pattern_unknown = self.pattern is not None and self.client.metadata.full_version <= self._pattern_since
        if self.phase == "join" and now >= self._join_after and not pattern_unknown:
            self._send_join()
        if self.phase == "sync_wait" and self._leader_join is not None:
            self._maybe_sync()
        if self.phase in ("stable", "assigned") and not self._heartbeat_in_flight:
            if now >= self._next_heartbeat:
                self._send_heartbeat()
            else:
                return self._next_heartbeat
        if self.phase == "join":
            return max(self._join_after, now + 0.05) if pattern_unknown else self._join_after
        return None

    def request_rejoin(self, reason: str, lost: bool = False) -> None:
        with self.cond:
            if self.rejoin_reason is None:
                self.rejoin_reason = reason
                self.last_rebalance_reason = reason
                log.info("group %s: rebalance: %s%s", self.group_id, reason,
                         "; the partitions owned are lost" if lost and self.owned else "")
            if lost:
                self.partitions_lost = True
            self.cond.notify_all()
        self.client.wakeup()

    def _metadata_changed(self, md: Metadata) -> None:
        if not self.subscribed:
            return
        if self.pattern is not None:
            topics = {t for t, info in md.topics.items() if self.pattern.fullmatch(t)
                      and not (info.is_internal and self.conf["exclude.internal.topics"])}
            if topics != self.subscription:
                self.subscription = topics
                md.set_topics(topics | {t for t, _ in self.owned})
                self.request_rejoin("pattern matches changed")
        if self.phase == "stable":
            counts = {t: len(md.topics[t].partitions) for t in self._topic_counts if t in md.topics}
            if any(counts.get(t, 0) != c for t, c in self._topic_counts.items()):
                self.request_rejoin("partition count changed")

    def _retry_join(self, backoff: bool = True) -> None:
        self.phase = "join"
        self._join_after = time.monotonic() + (self.conf["retry.backoff.ms"] / 1000 if backoff else 0)
        self.client.wakeup()

    def _send_join(self) -> None:
        if self._join_started is None:
            self._join_started = time.monotonic()
            # INFO: a first poll() that returns nothing for many seconds should not look like a fault
            log.info("group %s: joining (topics: %s); poll() returns no records until the group has formed, "
                     "which the coordinator may delay for other members to join (Kafka: "
                     "group.initial.rebalance.delay.ms; Tansu: about half of session.timeout.ms, here %.1f s)",
                     self.group_id, ", ".join(sorted(self.subscription)) or "none yet",
                     self.conf["session.timeout.ms"] / 2000)
        self.phase = "joining"
        self.rejoin_reason = None
        topics = sorted(self.subscription)
        by_topic = partitions_by_topic(self.owned)
        owned = [m.ConsumerProtocolSubscription.TopicPartition(topic=t, partitions=sorted(ps))
                 for t, ps in sorted(by_topic.items())]
        # the sticky user data (previous assignment, generation) for librdkafka's sticky assignors
        user_data = (sticky_user_data([(tp.topic, tp.partition) for tp in self.owned], self.generation)
                     if self.owned else None)
        meta = encode_versioned(m.ConsumerProtocolSubscription(
            topics=topics, user_data=user_data, owned_partitions=owned,
            generation_id=self.generation if self.owned else -1), SUBSCRIPTION_VERSION)
        body = m.JoinGroupRequest(
            group_id=self.group_id, session_timeout_ms=self.conf["session.timeout.ms"],
            rebalance_timeout_ms=self.conf["max.poll.interval.ms"], member_id=self.member_id,
            group_instance_id=self.conf["group.instance.id"], protocol_type=PROTOCOL_TYPE,
            protocols=[m.JoinGroupRequest.JoinGroupRequestProtocol(name=a.name, metadata=meta)
                       for a in self.assignors], reason=None)
        timeout = (self.conf["max.poll.interval.ms"] + self.conf["request.timeout.ms"]) / 1000
        future = self.client.send(self.coordinator, "JoinGroup", body, timeout=timeout)
        future.add_done_callback(self._joined)

    def _coordinator_error(self, exc_or_code: BaseException | int) -> bool:
        if isinstance(exc_or_code, int):
            if exc_or_code in _COORDINATOR_ERRORS:
                self.coordinator_dead(E.error_for(exc_or_code).name)
                return True
            return False
        self.coordinator_dead(exc_or_code)
        return True

    def _join_step_failed(self, future: Future[Any], api: str, member_reset_codes: Collection[int]) -> Any:
        """The answer of a JoinGroup or SyncGroup (None when it failed and was dealt with)."""
        if self.closed:
            return None
        exc = future.exception()
        if exc is not None:
            if isinstance(exc, CorruptDataError):
                # an answer the codec refuses is no sign of a lost coordinator (the nulls peers
                # write where the schema allows none are read by protocol/_lenient.py)
                log.debug("group %s: unreadable %s answer (%s); joining again", self.group_id, api, exc)
            else:
                self._coordinator_error(exc)
            self._retry_join()
            return None
        resp = future.result()
        code = resp.error_code
        if code == Code.MEMBER_ID_REQUIRED and api == "JoinGroup":  # rejoin at once with the id given
            self.member_id = resp.member_id
            self._retry_join(backoff=False)
            return None
        if code in _MEMBER_RESET_ERRORS:
            if code in member_reset_codes:
                self.member_id = ""
            self.generation = -1
            if self.owned:  # cooperative: our partitions may have new owners now
                with self.cond:
                    self.partitions_lost = True
                    self.phase = "revoke"
                    self.cond.notify_all()
                self.client.wakeup()
            else:
                self._retry_join(backoff=False)
            return None
        if code == Code.REBALANCE_IN_PROGRESS or self._coordinator_error(code):
            self._retry_join()
            return None
        if code == Code.INVALID_REQUEST and api == "SyncGroup":
            # librdkafka's mock cluster ends a group's sync when the leader's assignment comes, and
            # refuses a member's SyncGroup that arrives after it; librdkafka joins again, as here
            log.info("group %s: the coordinator refused our SyncGroup (INVALID_REQUEST); joining again",
                     self.group_id)
            self._retry_join()
            return None
        if code:
            with self.cond:
                self.error = E.error_for(code, f"{api} {self.group_id}")
                self.phase = "idle"
                self.cond.notify_all()
            return None
        return resp

    def _joined(self, future: Future[Any]) -> None:
        resp: m.JoinGroupResponse | None = self._join_step_failed(future, "JoinGroup", _MEMBER_RESET_ERRORS)
        if resp is None:
            return
        self.member_id = resp.member_id
        self.generation = resp.generation_id
        self.protocol = resp.protocol_name
        self._leader_was_me = resp.leader == resp.member_id
        if resp.leader == resp.member_id and not resp.skip_assignment:
            self._leader_join = resp
            self.phase = "sync_wait"
            self._maybe_sync()
        else:
            self._send_sync([])

    def _maybe_sync(self) -> None:
        """Leader: assign once metadata knows every topic any member subscribed to."""
        resp = self._leader_join
        assert resp is not None  # both callers set or check it first
        subscriptions: dict[str, set[str]] = {}
        owned: dict[str, tuple[int, list[TopicPartitionTuple]]] = {}
        for member in resp.members:
            try:
                _, sub = decode_versioned("ConsumerProtocolSubscription", member.metadata)
            except KafkaCodecError as exc:
                log.warning("group %s: member %s sent bad subscription metadata: %s", self.group_id, member.member_id, exc)
                subscriptions[member.member_id] = set()
                continue
            subscriptions[member.member_id] = set(sub.topics or ())
            previous, generation = parse_sticky_user_data(sub.user_data)
            if sub.generation_id is not None and sub.generation_id >= 0:
                generation = sub.generation_id
            tps = [(t.topic, p) for t in sub.owned_partitions or () for p in t.partitions or ()] or previous
            owned[member.member_id] = (generation, tps)
        wanted: set[str] = set().union(*subscriptions.values()) if subscriptions else set()
        md = self.client.metadata
        missing = {t for t in wanted if t not in md.topics and t not in md.topic_errors}
        if missing:
            md.add_topics(wanted)
            md.request_update()
            return  # tick() calls again after the refresh
        self._leader_join = None
        counts = {t: len(md.topics[t].partitions) for t in wanted if t in md.topics}
        assignor = next((a for a in self.assignors if a.name == self.protocol), self.assignors[0])
        if getattr(assignor, "uses_owned", False):
            plan = cast(_OwnedAwareAssignor, assignor).assign(counts, subscriptions, owned)
        else:
            plan = assignor.assign(counts, subscriptions)
        self._topic_counts = counts
        assignments: list[m.SyncGroupRequest.SyncGroupRequestAssignment] = []
        for member_id, tps in plan.items():
            by_topic: dict[str, list[int]] = {}
            for topic, partition in tps:
                by_topic.setdefault(topic, []).append(partition)
            data = encode_versioned(m.ConsumerProtocolAssignment(assigned_partitions=[
                m.ConsumerProtocolAssignment.TopicPartition(topic=t, partitions=sorted(ps))
                for t, ps in sorted(by_topic.items())], user_data=None), 0)
            assignments.append(m.SyncGroupRequest.SyncGroupRequestAssignment(member_id=member_id, assignment=data))
        self._send_sync(assignments)

    def _send_sync(self, assignments: list[m.SyncGroupRequest.SyncGroupRequestAssignment]) -> None:
        self.phase = "syncing"
        body = m.SyncGroupRequest(group_id=self.group_id, generation_id=self.generation, member_id=self.member_id,
                                  group_instance_id=self.conf["group.instance.id"], protocol_type=PROTOCOL_TYPE,
                                  protocol_name=self.protocol, assignments=assignments)
        future = self.client.send(self.coordinator, "SyncGroup", body)
        future.add_done_callback(self._synced)

    def _synced(self, future: Future[Any]) -> None:
        resp: m.SyncGroupResponse | None = self._join_step_failed(future, "SyncGroup", {Code.UNKNOWN_MEMBER_ID})
        if resp is None:
            return
        tps: list[TopicPartition] = []
        if resp.assignment:
            try:
                _, assignment = decode_versioned("ConsumerProtocolAssignment", resp.assignment)
                tps = sorted(TopicPartition(t.topic, p) for t in assignment.assigned_partitions or ()
                             for p in t.partitions or ())
            except KafkaCodecError as exc:
                with self.cond:
                    self.error = E.KafkaError(f"group {self.group_id}: bad assignment from the leader: {exc}")
            md = self.client.metadata
            md.add_topics({tp.topic for tp in tps})
            if not self._topic_counts:
                self._topic_counts = {tp.topic: len(md.topics[tp.topic].partitions)
                                      for tp in tps if tp.topic in md.topics}
        if self._join_started is not None:
            shown = ", ".join(f"{tp.topic}-{tp.partition}" for tp in tps[:20]) + (", ..." if len(tps) > 20 else "")
            log.info("group %s: joined generation %d as %s in %.1f s; assigned %d partition(s)%s",
                     self.group_id, self.generation, "leader" if self._leader_was_me else "member",
                     time.monotonic() - self._join_started, len(tps), f": {shown}" if tps else "")
            self._join_started = None
        with self.cond:
            self.pending_assignment = tps
            self.phase = "assigned"
            self._next_heartbeat = time.monotonic() + self.conf["heartbeat.interval.ms"] / 1000
            self.cond.notify_all()

    def _send_heartbeat(self) -> None:
        self._heartbeat_in_flight = True
        body = m.HeartbeatRequest(group_id=self.group_id, generation_id=self.generation, member_id=self.member_id,
                                  group_instance_id=self.conf["group.instance.id"])
        future = self.client.send(self.coordinator, "Heartbeat", body)
        future.add_done_callback(self._heartbeat_answered)

    def _heartbeat_answered(self, future: Future[Any]) -> None:
        self._heartbeat_in_flight = False
        interval = self.conf["heartbeat.interval.ms"] / 1000
        self._next_heartbeat = time.monotonic() + interval
        exc = future.exception()
        if exc is not None:
            self._coordinator_error(exc)
            self._next_heartbeat = time.monotonic() + self.conf["retry.backoff.ms"] / 1000
            return
        code: int = future.result().error_code
        if code == Code.REBALANCE_IN_PROGRESS:
            self.request_rejoin("the group is rebalancing")
        elif code in _MEMBER_RESET_ERRORS:
            self.member_id = "" if code == Code.UNKNOWN_MEMBER_ID else self.member_id
            self.generation = -1
            self.request_rejoin(f"heartbeat error {code}", lost=bool(self.owned))
        elif self._coordinator_error(code):
            self._next_heartbeat = time.monotonic() + self.conf["retry.backoff.ms"] / 1000

    def _leave(self, reason: str) -> Future[Any] | None:
        if self.coordinator is None or not self.member_id:
            return None
        # the member is named at the top up to v2 and in `members` from v3 (where a top-level
        # member_id cannot be encoded): the body follows the version used.  v3+ only for static
        # members, who need it: librdkafka's mock coordinator ignores the `members` of v3+
        static = self.conf["group.instance.id"] is not None
        conn = self.client.connections.get(self.coordinator)
        cap = max_version("LeaveGroup") if static else 2
        assert cap is not None  # versions.CAPS caps LeaveGroup
        version = min(conn.versions.get(LEAVE_GROUP, 0) if conn is not None and conn.versions else 0, cap)
        if version >= 3:
            body = m.LeaveGroupRequest(group_id=self.group_id, members=[
                m.LeaveGroupRequest.MemberIdentity(member_id=self.member_id,
                                                   group_instance_id=self.conf["group.instance.id"], reason=reason)])
        else:
            body = m.LeaveGroupRequest(group_id=self.group_id, member_id=self.member_id)
        future = self.client.send(self.coordinator, "LeaveGroup", body, version=version)
        self.member_id = ""
        self.generation = -1
        self.phase = "idle"
        return future

    # -- calling thread

    def subscribe(self, topics: Iterable[str] | None = None, pattern: str | re.Pattern[str] | None = None) -> None:
        with self.cond:
            self.subscribed = True
            self.pattern = re.compile(pattern) if isinstance(pattern, str) else pattern
            self.subscription = set(topics or ())
        md = self.client.metadata
        if self.pattern is not None:
            self._pattern_since = md.full_version
            md.want_all_topics(True)
        else:
            md.want_all_topics(False)
            md.add_topics(self.subscription)
        self.request_rejoin("subscription changed")

    def unsubscribe(self) -> None:
        with self.cond:
            self.subscribed = False
            self.subscription = set()
            self.pattern = None
        self.client.call_soon(self._leave, "unsubscribed")

    def revoked_done(self) -> None:
        with self.cond:
            self.owned = []
            self.partitions_lost = False
            self.rebalance_cnt += 1
            self.last_rebalance = time.monotonic()
            if self.phase == "revoke":
                self.phase = "join"
                self._rejoin_now()
        self.client.wakeup()

    def _rejoin_now(self) -> None:
        """After the partitions were given up (under cond): join again at once (a member of
        the consumer protocol says so in its next heartbeat instead)."""
        self._join_after = 0.0

    def take_assignment(self) -> tuple[list[TopicPartition] | None, list[TopicPartition]]:
        """(new assignment, what we owned before) once SyncGroup answered, else (None, [])."""
        with self.cond:
            tps = self.pending_assignment
            self.pending_assignment = None
            before: list[TopicPartition] = []
            if tps is not None:
                before, self.owned = self.owned, tps
                if self.phase == "assigned":
                    self.phase = "stable"
                self.rebalance_cnt += 1
                self.last_rebalance = time.monotonic()
            return tps, before

    def leave(self, timeout: float) -> None:
        """Calling thread: leave the group (close/unsubscribe), waiting up to `timeout`."""
        if self.client.closed:
            return  # no I/O thread to send it: the session timeout covers it
        holder: list[Future[Any] | None] = []
        done = threading.Event()

        def run() -> None:
            holder.append(self._leave("the consumer is closing"))
            done.set()
        self.client.call_soon(run)
        if done.wait(timeout) and holder and holder[0] is not None:
            try:
                resp = holder[0].result(timeout)
                codes = [resp.error_code] + [mr.error_code for mr in getattr(resp, "members", None) or ()]
                code = next((c for c in codes if c), Code.NONE)
                if code:
                    raise E.error_for(code, f"LeaveGroup for group {self.group_id}")
            except Exception as exc:  # leaving is best effort: the session timeout covers it
                log.warning("group %s: could not leave (%s); the broker drops this member after "
                            "session.timeout.ms", self.group_id, exc)

    def _commit_body(self, offsets: Mapping[TopicPartition, int]) -> m.OffsetCommitRequest:
        generation, member = (self.generation, self.member_id) if self.subscribed else (-1, "")
        by_topic: dict[str, list[tuple[int, int]]] = {}
        for tp, offset in offsets.items():
            by_topic.setdefault(tp.topic, []).append((tp.partition, offset))
        T = m.OffsetCommitRequest.OffsetCommitRequestTopic
        P = m.OffsetCommitRequest.OffsetCommitRequestPartition
        return m.OffsetCommitRequest(
            group_id=self.group_id, generation_id_or_member_epoch=generation, member_id=member,
            group_instance_id=self.conf["group.instance.id"], retention_time_ms=-1,
            topics=[T(name=t, partitions=[P(partition_index=p, committed_offset=o, committed_leader_epoch=-1,
                                            commit_timestamp=-1, committed_metadata="") for p, o in ps])
                    for t, ps in by_topic.items()])

    def _coordinator_answer(self, future: Future[Any]) -> tuple[Any, E.KafkaError | None]:
        """(the coordinator's answer, None), or (None, the retriable error) after
        noting it for a coordinator change; raises the others."""
        try:
            return future.result(0), None
        except E.KafkaError as exc:
            if not exc.retriable:
                raise
            self._coordinator_error(exc)
            return None, exc

    def _commit_outcome(self, future: Future[Any]) -> E.KafkaError | None:
        """None when committed; the retriable error to retry after; raises the others."""
        resp, err = self._coordinator_answer(future)
        if err is not None:
            return err
        retry: E.KafkaError | None = None
        for t in resp.topics:
            for p in t.partitions:
                code = p.error_code
                if not code:
                    continue
                if code in _COORDINATOR_ERRORS:
                    self._coordinator_error(code)
                    retry = E.error_for(code)
                elif code in _MEMBER_RESET_ERRORS or code == Code.REBALANCE_IN_PROGRESS:
                    raise E.CommitFailedError(
                        f"commit of group {self.group_id} rejected ({E.error_for(code).name}): the group "
                        "rebalanced and these partitions may belong to another member now")
                else:
                    err = E.error_for(code, f"commit {t.name}[{p.partition_index}]")
                    if not err.retriable:
                        raise err
                    retry = err
        return retry

    def _call_coordinator(self, api: str, body: Any, deadline: float, what: str,
                          outcome: Callable[[Future[Any]], tuple[bool, _R]]) -> _R:
        """Calling thread: send to the coordinator until outcome(future) gives (True, result);
        (False, retriable error) retries after a backoff, other errors are raised by outcome."""
        attempt = 0
        while True:
            node = self.wait_coordinator(deadline)
            future = self.client.send(node, api, body,
                                      timeout=max(0.1, min(self.conf["request.timeout.ms"] / 1000,
                                                           deadline - time.monotonic())),
                                      max_version=self.max_versions.get(api))
            try:
                future.exception(max(0.1, deadline - time.monotonic()) + 1)
            except TimeoutError:
                raise E.KafkaTimeoutError(f"{what}: no answer") from None
            done, result = outcome(future)
            if done:
                return result
            if time.monotonic() >= deadline:
                raise E.KafkaTimeoutError(f"{what} not done: {result}")
            time.sleep(backoff(self.conf["retry.backoff.ms"], self.conf["retry.backoff.max.ms"], attempt + 1) / 1000)
            attempt += 1

    def _refuse_missing(self, resp: Any, deadline: float) -> None:
        """Calling thread, after an OffsetCommit answer with UNKNOWN_TOPIC_OR_PARTITION: raise it,
        naming them, when a metadata answer confirms the partitions do not exist (librdkafka fails
        such a commit at once).  A coordinator that has not yet heard of a new topic (KAFKA-6829,
        why Java retries) is retried as before, and so is the commit when metadata does not answer."""
        unknown = [(t.name, p.partition_index) for t in resp.topics for p in t.partitions
                   if p.error_code == Code.UNKNOWN_TOPIC_OR_PARTITION]
        if not unknown:
            return
        body = m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name=t)
                                         for t in sorted({t for t, _ in unknown})],
                                 allow_auto_topic_creation=False)  # asking must not create them
        wait = min(self.conf["request.timeout.ms"] / 1000, deadline - time.monotonic())
        if wait <= 0:
            return
        try:
            md = self.client.send(None, "Metadata", body, timeout=wait).result(wait + 1)
        except (E.KafkaError, TimeoutError):
            return
        exists: dict[str, set[int]] = {}
        for t in md.topics:
            if t.error_code == Code.UNKNOWN_TOPIC_OR_PARTITION:
                exists[t.name] = set()
            elif not t.error_code:
                exists[t.name] = {p.partition_index for p in t.partitions}
        missing = [(t, p) for t, p in unknown if t in exists and p not in exists[t]]
        if missing:
            what = "; ".join(f"{t}[{p}]: topic {t!r} does not exist" if not exists[t] else
                             f"{t}[{p}]: no such partition (topic {t!r} has {len(exists[t])})" for t, p in missing)
            raise E.error_for(Code.UNKNOWN_TOPIC_OR_PARTITION, f"commit of group {self.group_id}: {what}")

    def commit(self, offsets: dict[TopicPartition, int], deadline: float) -> None:
        """Calling thread: commit {TopicPartition: offset} synchronously; retries coordinator moves."""
        def outcome(future: Future[Any]) -> tuple[bool, E.KafkaError | None]:
            retry = self._commit_outcome(future)
            if retry is not None and future.exception(0) is None:
                self._refuse_missing(future.result(0), deadline)
            return retry is None, retry
        self._call_coordinator("OffsetCommit", self._commit_body(offsets), deadline,
                               f"offset commit for group {self.group_id}", outcome)
        self.committed_offsets.update(offsets)

    def commit_async(self, offsets: dict[TopicPartition, int],
                     callback: Callable[[dict[TopicPartition, int], BaseException | None], object]) -> None:
        """One OffsetCommit attempt from the I/O thread; callback(offsets, error or None) runs there."""
        body = self._commit_body(offsets)

        def run() -> None:
            if self.coordinator is None:
                self.client.wakeup()
                callback(offsets, E.CoordinatorNotAvailableError(f"group {self.group_id}: coordinator unknown"))
                return
            future = self.client.send(self.coordinator, "OffsetCommit", body,
                                      max_version=self.max_versions.get("OffsetCommit"))

            def done(f: Future[Any]) -> None:
                error: E.KafkaError | None
                try:
                    error = self._commit_outcome(f)
                except E.KafkaError as exc:
                    error = exc
                if error is None:
                    self.committed_offsets.update(offsets)
                callback(offsets, error)
            future.add_done_callback(done)
        self.client.call_soon(run)

    def committed(self, tps: list[TopicPartition], deadline: float) -> dict[TopicPartition, int | None]:
        """Calling thread: {TopicPartition: offset or None} from OffsetFetch."""
        by_topic = partitions_by_topic(tps)
        body = OffsetFetch(self.group_id, by_topic)

        def outcome(future: Future[Any]) -> tuple[bool, dict[TopicPartition, int | None] | E.KafkaError]:
            resp, err = self._coordinator_answer(future)
            if err is not None:
                return False, err
            fetched: FetchedOffsets = resp
            for code in fetched.codes():
                # UNSTABLE_OFFSET_COMMIT: a transaction holding a commit of these partitions is still open
                if code in _COORDINATOR_ERRORS or code == Code.UNSTABLE_OFFSET_COMMIT:
                    self._coordinator_error(code)
                    return False, E.error_for(code)
                if code:
                    raise E.error_for(code, f"OffsetFetch for group {self.group_id}")
            out = {tp: offset for tp, (offset, _) in fetched.partitions.items()}
            for tp in tps:
                offset = out.get(tp)
                if offset is not None:
                    self.committed_offsets[tp] = offset
            return True, {tp: out.get(tp) for tp in tps}
        # outcome pairs True with the offsets, False with the error
        return cast(dict[TopicPartition, int | None],
                    self._call_coordinator("OffsetFetch", body, deadline,
                                           f"committed offsets of group {self.group_id}", outcome))

    def close(self) -> None:
        self.closed = True
        with self.cond:
            self.cond.notify_all()
