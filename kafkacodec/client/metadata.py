"""The client's view of the cluster and when to refresh it.

A refresh is due when ``metadata.max.age.ms`` has passed since the last
success, or at once after ``request_update()`` (a NOT_LEADER_OR_FOLLOWER,
UNKNOWN_TOPIC_OR_PARTITION, a disconnect, a newer leader epoch seen in a
response) — but never sooner than ``metadata.retry.backoff.ms`` (unset:
``retry.backoff.ms``) after the previous attempt, doubling while refreshes fail
or leave a partition without a leader.  The update runs on the I/O thread;
other threads wait for a newer ``version`` with ``wait_for``.

Topics matching ``metadata.topics.exclude`` are left out of every answer, as if
the cluster had none of them.  With ``metadata.recovery.strategy=rebootstrap``,
when no known broker has answered a refresh for
``metadata.recovery.rebootstrap.trigger.ms``, the known brokers are forgotten
and the next refresh asks the bootstrap servers (KIP-899, KIP-1102).
"""
from __future__ import annotations

import concurrent.futures
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from kafkacodec.protocol import messages as m
from kafkacodec.client import _waits
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client._backoff import backoff

if TYPE_CHECKING:
    from kafkacodec.client.admin import AclOperation
    from kafkacodec.client.network import NetworkClient

__all__ = ["Metadata", "BrokerInfo", "PartitionInfo", "TopicInfo", "ClusterMetadata", "TopicDescription"]

METADATA = 3

log = logging.getLogger(__name__)

class BrokerInfo(NamedTuple):
    node_id: int
    host: str
    port: int
    rack: str | None


class PartitionInfo(NamedTuple):
    topic: str
    partition: int
    leader: int           # -1: none right now
    leader_epoch: int     # -1: unknown
    replicas: tuple[int, ...]
    isr: tuple[int, ...]

# topic errors that mean "not there yet, ask again" rather than "give up"
_RETRY_TOPIC_ERRORS = {Code.UNKNOWN_TOPIC_OR_PARTITION, Code.LEADER_NOT_AVAILABLE, Code.UNKNOWN_TOPIC_ID}


class TopicDescription(NamedTuple):
    name: str
    topic_id: Any        # uuid.UUID
    is_internal: bool
    partitions: list[PartitionInfo]
    authorized_operations: list[AclOperation] | None = None


class ClusterMetadata(NamedTuple):
    """One metadata answer's view of the cluster (``cluster_metadata`` of any client)."""
    cluster_id: str | None
    controller_id: int | None
    brokers: list[BrokerInfo]
    topics: dict[str, TopicDescription]
    topic_errors: dict[str, int]     # topic -> the error code the broker answered for it (3: no such topic)
    # the broker whose answer this is (node_id < 0: a bootstrap server not yet known by its id)
    answered_by: BrokerInfo | None = None


class TopicInfo:
    __slots__ = ("name", "topic_id", "is_internal", "partitions")

    def __init__(self, name: str, topic_id: Any, is_internal: bool, partitions: dict[int, PartitionInfo]) -> None:
        self.name = name
        self.topic_id = topic_id  # uuid.UUID as the protocol decodes it
        self.is_internal = is_internal
        self.partitions = partitions  # partition -> PartitionInfo

    def __repr__(self) -> str:
        return f"TopicInfo({self.name!r}, {len(self.partitions)} partitions)"


class Metadata:
    def __init__(self, client: NetworkClient, conf: dict[str, Any]) -> None:
        self.client = client
        self.max_age: float = conf["metadata.max.age.ms"] / 1000
        first = conf["metadata.retry.backoff.ms"]
        self.backoff: float = (conf["retry.backoff.ms"] if first is None else first) / 1000
        self.backoff_max = max(self.backoff, conf["retry.backoff.max.ms"] / 1000)
        self.excluded: re.Pattern[str] | None = conf["metadata.topics.exclude"]
        self.rebootstrap_after: float | None = (conf["metadata.recovery.rebootstrap.trigger.ms"] / 1000
                                                if conf["metadata.recovery.strategy"] == "rebootstrap" else None)
        self.allow_auto_create = conf["allow.auto.create.topics"]
        self.brokers: dict[int, BrokerInfo] = {}
        self.topics: dict[str, TopicInfo] = {}
        self.topic_errors: dict[str, int] = {}  # topic -> error code of the last answer
        self.cluster_id: str | None = None
        self.controller_id: int | None = None
        self.answered_by: BrokerInfo | None = None  # the broker whose answer the view is
        self.version = 0
        self.full_version = 0  # counts answers to requests for every topic (want_all_topics)
        self.need_update = True
        # request_update() calls so far, and how many of them the request in flight answers:
        # a refresh asked for while one is in flight (other topics, every topic) is sent after it
        self._asked = 0
        self.last_attempt = float("-inf")
        self.last_success = float("-inf")
        self.failed_attempts = 0
        self.last_error: BaseException | None = None
        self.listeners: list[Callable[[Metadata], object]] = []  # on the I/O thread after each update
        self._wanted: set[str] = set()
        self._requested: set[str] = set()  # the topics the last request sent asked for
        self._all_topics = False       # the next request asks for every topic
        self._all_topics_kept = False  # want_all_topics(): a pattern subscription
        self._all_topics_calls = 0     # all_topics() calls waiting
        self._at_once = False          # a caller waits for the next answer: no backoff after a success
        self._in_flight: concurrent.futures.Future[Any] | None = None
        self._cond = threading.Condition()
        self._closed = False

    # -- any thread

    def request_update(self, at_once: bool = False) -> None:
        """A refresh as soon as one may go; `at_once`: a caller is waiting for its answer, so
        it goes now even if the last one was just answered (as librdkafka sends a metadata
        request its application asks for), held back only after failures."""
        self._asked += 1
        if at_once:
            self._at_once = True
        self.need_update = True
        self.client.wakeup()

    def add_topics(self, names: Iterable[str]) -> None:
        new = set(names) - self._wanted
        if new:
            self._wanted = self._wanted | new  # replaced, never changed: the I/O thread reads it
            self.request_update()

    def set_topics(self, names: Iterable[str]) -> None:
        wanted = set(names)
        if wanted != self._wanted:
            self._wanted = wanted
            self.request_update()

    def learn_broker(self, node_id: int, host: str, port: int) -> None:
        """A broker another answer named (a coordinator) that this view may not list yet."""
        with self._cond:
            if node_id not in self.brokers:
                self.brokers = {**self.brokers, node_id: BrokerInfo(node_id, host, port, None)}

    def want_all_topics(self, flag: bool = True) -> None:
        """Keep every topic of the cluster in view (a pattern subscription) or not."""
        with self._cond:
            self._all_topics_kept = flag
            changed = self._all_topics != (flag or self._all_topics_calls > 0)
            self._all_topics = flag or self._all_topics_calls > 0
        if changed:
            self.request_update()

    def all_topics(self, timeout: float) -> dict[str, TopicInfo]:
        """Every topic of the cluster, from the answer to a request for every topic sent after
        this call (an answer in flight before it may name only some)."""
        with self._cond:
            full = self.full_version
            self._all_topics_calls += 1
            self._all_topics = True
        self.request_update(at_once=True)
        try:
            self.wait_for(lambda md: md.full_version > full, timeout, "a metadata refresh")
            return self.topics  # replaced, never changed, by each refresh: one answer's view
        finally:
            with self._cond:
                self._all_topics_calls -= 1
                self._all_topics = self._all_topics_kept or self._all_topics_calls > 0

    def snapshot(self, topic: str | None, timeout: float) -> ClusterMetadata:
        """The brokers and every topic (or only `topic`, in ``topic_errors`` when the broker knows
        no such topic) from an answer to a request sent after this call, as librdkafka's
        list_topics asks; `topic` joins the topics this view keeps."""
        deadline = time.monotonic() + timeout
        if topic is None:
            self.all_topics(timeout)
        else:
            self.add_topics({topic})
            version = self.version
            self.request_update(at_once=True)
            # an answer that names the topic (or its error): one in flight before the call, to a
            # request that did not ask for it, says nothing of it
            self.wait_for(lambda v: v.version > version and (topic in v.topics or topic in v.topic_errors),
                          max(0.0, deadline - time.monotonic()), f"metadata of {topic!r}")
        with self._cond:  # one answer's view: each refresh replaces these together
            topics, errors, brokers = self.topics, dict(self.topic_errors), self.brokers
            cluster_id, controller_id, answered_by = self.cluster_id, self.controller_id, self.answered_by
        names = list(topics) if topic is None else [topic] if topic in topics else []
        if topic is not None and topic not in topics:
            errors = {topic: errors.get(topic, Code.UNKNOWN_TOPIC_OR_PARTITION)}
        return ClusterMetadata(cluster_id, controller_id, sorted(brokers.values()),
                               {n: TopicDescription(n, topics[n].topic_id, topics[n].is_internal,
                                                    [topics[n].partitions[p] for p in sorted(topics[n].partitions)])
                                for n in names},
                               errors if topic is not None else {}, answered_by)

    def partitions_for(self, topic: str) -> dict[int, PartitionInfo] | None:
        info = self.topics.get(topic)
        return None if info is None else info.partitions

    def leader_for(self, topic: str, partition: int) -> int | None:
        info = self.topics.get(topic)
        if info is None:
            return None
        p = info.partitions.get(partition)
        return None if p is None or p.leader < 0 else p.leader

    def wait_for(self, ready: Callable[[Metadata], object], timeout: float, what: str = "metadata") -> None:
        """Block until ready(self) is true, refreshing as needed; KafkaTimeoutError after `timeout`."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                if self.client.fatal_error is not None:
                    raise self.client.fatal_error
                if self._closed:
                    raise E.ClientClosedError("the client was closed")
                if ready(self):
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    detail = f"; last error: {self.last_error}" if self.last_error else ""
                    raise E.KafkaTimeoutError(f"{what} not available within {timeout:.1f} s{detail}")
                self.need_update = True
                self.client.wakeup()
                _waits.wait(self._cond, min(left, 0.5))

    def wait_for_update(self, timeout: float) -> None:
        """Block until a refresh newer than the current view completes."""
        version = self.version
        self.request_update(at_once=True)
        self.wait_for(lambda md: md.version > version, timeout, "a metadata refresh")

    # -- I/O thread

    def time_to_next_update(self, now: float) -> float:
        expire = now if self.need_update else self.last_success + self.max_age
        if self.need_update and not self.failed_attempts and (self._at_once or not self._wanted <= self._requested):
            # a caller waiting for the answer (wait_for_update, all_topics), or topics no request
            # has asked for yet (a subscribe() just after the client started): a new question,
            # not a retry, so not held back by the backoff
            return expire
        return max(expire, self.last_attempt + backoff(self.backoff, self.backoff_max, self.failed_attempts + 1))

    def maybe_update(self, now: float) -> float | None:
        """Send a Metadata request when one is due; returns when to look again."""
        if self._in_flight is not None:
            return None
        due = self.time_to_next_update(now)
        if due > now:
            return due
        if (self.rebootstrap_after is not None and self.failed_attempts and self.brokers
                and now - self.last_success >= self.rebootstrap_after):
            self._rebootstrap(now)
        node_id = self.client.least_loaded_node(now)
        if node_id is None:
            return now + self.backoff
        # what this request answers, read once: callers change them from their own threads
        asked, all_topics, wanted = self._asked, self._all_topics, self._wanted
        topics = None if all_topics else [m.MetadataRequest.MetadataRequestTopic(name=t) for t in sorted(wanted)]
        body = m.MetadataRequest(topics=topics, allow_auto_topic_creation=self.allow_auto_create)
        self.last_attempt = now
        self._requested = wanted
        self._at_once = False
        # the connection caps the version (kafkacodec.client.versions)
        try:
            future = self.client.send_now(node_id, METADATA, body)
        except E.KafkaError:
            return None  # the client was closed (or failed) while this loop iteration ran
        self._in_flight = future
        future.add_done_callback(lambda f: self._answered(f, asked, all_topics, node_id))
        return None

    def _rebootstrap(self, now: float) -> None:
        """Forget the known brokers: the next refresh goes to the bootstrap servers."""
        log.warning("no metadata from the known brokers for %.0f s: asking the bootstrap servers again "
                    "(metadata.recovery.strategy=rebootstrap)", now - self.last_success)
        with self._cond:
            self.brokers = {}
            self.last_success = now  # the trigger counts again from here

    def _answered(self, future: concurrent.futures.Future[Any], asked: int, all_topics: bool,
                  node_id: int) -> None:
        self._in_flight = None
        now = time.monotonic()
        exc = future.exception()
        if exc is not None:
            self.failed_attempts += 1
            self.last_error = exc
            self.client.wakeup()
            return
        conn = self.client.connections.get(node_id)
        by = None if conn is None else BrokerInfo(node_id, conn.host, conn.port, None)
        self.update(future.result(), now, all_topics=all_topics, asked=asked, answered_by=by)

    def update(self, resp: m.MetadataResponse, now: float, *, all_topics: bool | None = None,
               asked: int | None = None, answered_by: BrokerInfo | None = None) -> None:
        """Take a Metadata answer; `all_topics`: whether its request asked for every topic (by
        default, whether the client wants every topic now), `asked`: the request_update() calls
        its request answers (by default all so far), `answered_by`: the broker that answered."""
        if all_topics is None:
            all_topics = self._all_topics
        brokers = {b.node_id: BrokerInfo(b.node_id, b.host, b.port, b.rack) for b in resp.brokers}
        topics = dict(self.topics) if not all_topics else {}
        errors: dict[str, int] = {}
        retry = False
        excluded = self.excluded
        for t in resp.topics:
            # nullable from v10 (topic ids); a broker names every topic asked for by name
            name: str = t.name  # type: ignore[assignment]
            if excluded is not None and excluded.search(name):
                continue  # as if the cluster had no such topic (metadata.topics.exclude)
            if t.error_code:
                errors[name] = t.error_code
                topics.pop(name, None)
                if t.error_code in _RETRY_TOPIC_ERRORS and (all_topics or name in self._wanted):
                    retry = True
                continue
            old = self.topics.get(name)
            parts: dict[int, PartitionInfo] = {}
            for p in t.partitions:
                info = PartitionInfo(name, p.partition_index, p.leader_id, p.leader_epoch,
                                     tuple(p.replica_nodes or ()), tuple(p.isr_nodes or ()))
                prev = old.partitions.get(p.partition_index) if old is not None else None
                if prev is not None and 0 <= info.leader_epoch < prev.leader_epoch:
                    # a lagging broker answered: keep the newer view and ask again
                    info = prev
                    retry = True
                if info.leader < 0:
                    retry = True
                parts[p.partition_index] = info
            topics[name] = TopicInfo(name, t.topic_id, bool(t.is_internal), parts)
        if not self._all_topics:
            for unwanted in list(topics):
                if unwanted not in self._wanted:
                    del topics[unwanted]
        with self._cond:
            self.brokers = brokers
            self.topics = topics
            self.topic_errors = errors
            self.cluster_id = resp.cluster_id
            self.controller_id = resp.controller_id
            if answered_by is not None and answered_by.node_id >= 0:
                answered_by = brokers.get(answered_by.node_id, answered_by)  # with its rack
            self.answered_by = answered_by
            self.version += 1
            if all_topics:
                self.full_version += 1
            self.last_success = now
            self.failed_attempts = self.failed_attempts + 1 if retry else 0
            self.need_update = retry or (asked is not None and self._asked > asked)
            self.last_error = None
            self._cond.notify_all()
        for listener in list(self.listeners):
            listener(self)

    def observe_leader_epoch(self, topic: str, partition: int, epoch: int) -> None:
        """A response named a leader epoch: newer than ours means our view is stale."""
        info = self.topics.get(topic)
        p = info.partitions.get(partition) if info is not None else None
        if p is not None and epoch > p.leader_epoch >= 0:
            self.request_update()

    def closed(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def failed(self) -> None:
        """The client met an error it cannot go past (fatal_error): waiters raise it now, not at
        their next look."""
        with self._cond:
            self._cond.notify_all()
