"""The consumer: assign or subscribe, poll records or Arrow, commit.

    c = Consumer({"bootstrap.servers": bs, "group.id": "g", "auto.offset.reset": "earliest"})
    c.subscribe(["events"])
    records = c.poll(1.0)            # [ConsumerRecord(topic, partition, offset, ...)]
    batch = c.poll_arrow(1.0)        # pyarrow.RecordBatch: topic, partition, offset, timestamp,
                                     #   timestamp_type, key, value, headers
    c.commit()
    c.close()

Fetching runs on the I/O thread; ``poll`` decodes what was fetched (in C:
kafkacodec.records / kafkacodec.arrow), moves positions and hands the
partition back to the fetcher as soon as its buffered data is drained.
Rebalance listeners, auto-commit and the commit on revoke run inside
``poll`` on the calling thread, as in Kafka's Java consumer.  Unlike the
Java consumer, every method may be called from any thread, as librdkafka
allows: polls from several threads take turns (``Consumer._turn``).
"""
from __future__ import annotations

import collections
import concurrent.futures
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from kafkacodec.records import Record
from kafkacodec.client import _waits
from kafkacodec.client import _checks
from kafkacodec.client import errors as E
from kafkacodec.client._lifecycle import AsyncOverWorker, ClosedOnExit, StopsWhenCollected, new_sasl_credentials, weakly
from kafkacodec.client.admin import list_offsets
from kafkacodec.client.config import CONSUMER, IsolationLevel, resolve
from kafkacodec.client.fetch_buffer import FetchBuffer, empty_batch
from kafkacodec.client.fetcher import Fetcher, PartitionState
from kafkacodec.client.group import GroupCoordinator
from kafkacodec.client.group_consumer import ConsumerGroupMember
from kafkacodec.client.network import NetworkClient
from kafkacodec.client.stats import Document, Statistics, log_unraised, stats_for_poll
from kafkacodec.client.types import (EARLIEST, LATEST, CommitCallback, ConsumerGroupMetadata, OffsetAndTimestamp,
                                     TopicPartition, TopicPartitionLike)

if TYPE_CHECKING:
    import asyncio

    import pyarrow as pa

    from kafkacodec.client.metadata import ClusterMetadata

_T = TypeVar("_T")

__all__ = ["Consumer", "AsyncConsumer", "ConsumerRecord", "RebalanceListener", "TopicPartition", "OffsetAndTimestamp",
           "PartitionEOF"]

log = logging.getLogger(__name__)


# poll() hands out the record layer's own records, decoded in C with the
# topic and partition set: no wrapper object per record, and outside the
# cycle collector (a consumer holding millions of them costs no GC walks).
ConsumerRecord = Record


class PartitionEOF(NamedTuple):
    """A partition's position reached its end (enable.partition.eof): ``offset`` is the position,
    ``high_watermark`` the end seen in the last fetch (the last stable offset under read_committed)."""
    topic: str
    partition: int
    offset: int
    high_watermark: int


def _formats(value_schema: Any, key_schema: Any) -> tuple[Any, Any] | None:
    """The formats poll_arrow decodes with (checked before records are taken), None for binary."""
    if value_schema is None and key_schema is None:
        return None
    from kafkacodec.values import as_format
    return as_format(value_schema), as_format(key_schema)


class RebalanceListener:
    """Override what you need; the consumer calls these inside poll()."""

    def on_partitions_revoked(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        pass

    def on_partitions_assigned(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        pass

    def on_partitions_lost(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        self.on_partitions_revoked(consumer, partitions)


def _tp(item: object, what: str = "partition") -> TopicPartition:
    """A checked TopicPartition from a TopicPartition or a (topic, partition) pair."""
    if isinstance(item, TopicPartition):
        topic, partition = item.topic, item.partition
    else:
        try:
            topic, partition = item  # type: ignore[misc]  # any pair; checked below
        except (TypeError, ValueError):
            raise E.InvalidArgumentError(f"{what}: expected a TopicPartition or (topic, partition), "
                                         f"got {item!r}") from None
    _checks.topic_name(topic, f"{what}.topic")
    number = _checks.partition_number(partition, f"{what}.partition")
    return item if isinstance(item, TopicPartition) else TopicPartition(topic, number)


class Consumer(ClosedOnExit, StopsWhenCollected):
    """Reads records from Kafka: ``assign()`` partitions, or ``subscribe()`` to topics as a
    member of the consumer group ``group.id``, then ``poll()`` (records) or ``poll_arrow()``
    (Arrow columns).  The client's I/O thread fetches ahead and keeps the group alive.

    ``config`` takes the settings by Kafka's names, ``settings`` the same as snake_case
    keywords; an unknown or invalid one is a ConfigError naming it.  Usable from several
    threads; ``with Consumer(...) as c:`` closes it, leaving the group.  One collected unclosed
    stops its I/O thread, neither committing nor leaving the group."""

    def __init__(self, config: Mapping[str, Any] | None = None, **settings: Any) -> None:
        self.conf = conf = resolve(config, settings, CONSUMER, "consumer")
        self._timeout = conf["default.api.timeout.ms"] / 1000
        self._client = NetworkClient(conf, name="kafkacodec-consumer-io")
        self._fetcher = Fetcher(self._client, conf)
        self._client.add_ticker(self._fetcher)
        self._group: GroupCoordinator | None = None
        if conf["group.id"] is not None:
            member = ConsumerGroupMember if conf["group.protocol"] == "consumer" else GroupCoordinator
            self._group = member(self._client, conf, self._fetcher)
            self._client.add_ticker(self._group)
        self._listener: RebalanceListener | None = None  # or any object with its methods
        self._manual = False
        self._next_auto_commit = time.monotonic() + conf["auto.commit.interval.ms"] / 1000
        self._buffer = FetchBuffer(self._fetcher, conf)
        self._isolation = conf["isolation.level"]  # an IsolationLevel: requests and decoders take it as it is
        self._read_committed = self._isolation is IsolationLevel.READ_COMMITTED
        self._closed = False
        # (offsets, error) of commits made without a callback of their own, from the I/O thread:
        # offset_commit_cb (or a warning for a failure) from the next poll() or close()
        self._commits_done: collections.deque[tuple[dict[TopicPartition, int], BaseException | None]] = \
            collections.deque()
        self._commit_cb: Callable[[dict[TopicPartition, int], BaseException | None], object] | None = \
            conf["offset_commit_cb"]
        self._auto_store: bool = conf["enable.auto.offset.store"]
        # per assigned partition: what store_offsets() stored (enable.auto.offset.store=false), and what
        # this consumer last committed (automatic commits skip what did not move)
        self._stored: dict[TopicPartition, int] = {}
        self._committed: dict[TopicPartition, int] = {}
        # enable.partition.eof: the position each partition's end was noted at, and the notes not taken yet
        self._eof: bool = conf["enable.partition.eof"]
        self._auto_commit: bool = conf["enable.auto.commit"]
        self._eof_at: dict[TopicPartition, int] = {}
        self._eofs: collections.deque[PartitionEOF] = collections.deque()
        # lookups of positions ("committed", "reset") that outlive a poll(): poll(timeout) never
        # waits longer than its timeout for them (_lookup)
        self._lookups: dict[str, tuple[frozenset[Any], concurrent.futures.Future[Any]]] = {}
        self._lookups_lock = threading.Lock()
        # every method may be called from any thread (as librdkafka's): polls from several threads
        # take turns at the group's steps (rebalance callbacks, auto-commit) and at taking records,
        # each waiting for its turn no longer than its own timeout, and never holding the turn
        # while it waits for data (_poll)
        self._turn = threading.RLock()
        self._statistics = Statistics("consumer", self._client, conf,
                                      consumer=(self._fetcher, self._group, self._read_committed))
        self._stats_cb = conf["stats_cb"]
        self._stats_docs = stats_for_poll(self._client, self._statistics, conf, weakly(self._wake_poll))

    # -- open or closed

    def _check_open(self) -> None:
        if self._closed:
            raise E.ClientClosedError("the consumer is closed")

    @property
    def client(self) -> NetworkClient:
        """The network client under this consumer (its I/O thread and connections)."""
        return self._client

    # -- statistics

    def metrics(self) -> Document:
        """The statistics document (librdkafka's STATISTICS.md layout, see kafkacodec.client.stats)
        as a dict, now; the one stats_cb receives every statistics.interval.ms, as JSON."""
        return self._statistics.collect()

    def _wake_poll(self) -> None:
        with self._fetcher.lock:
            self._fetcher.ready.notify_all()

    def serve_stats(self) -> None:
        """stats_cb for each statistics document waiting, on the calling thread (poll() does this;
        call it while not polling, e.g. with nothing assigned).  CallbackError after all were
        served when any raised."""
        if not self._stats_docs:
            return
        _, errors = self._stats_docs.serve(self._stats_cb)
        if errors:
            log_unraised(errors)
            error = E.CallbackError(f"{len(errors)} stats_cb/error_cb/throttle_cb call(s) raised; the first: "
                                    f"{type(errors[0]).__name__}: {errors[0]}", errors)
            error.__cause__ = errors[0]
            raise error

    # -- assignment

    def assign(self, partitions: Iterable[TopicPartitionLike]) -> None:
        """Read these partitions (TopicPartition or (topic, partition)), without group
        membership; replaces the assignment.  IllegalStateError after subscribe()."""
        self._check_open()
        if self._group is not None and self._group.subscribed:
            raise E.IllegalStateError("assign() after subscribe(): call unsubscribe() first")
        tps = [_tp(p) for p in partitions]
        self._manual = True
        self._forget(self.assignment() - set(tps))
        self._fetcher.assign(tps)

    def assignment(self) -> set[TopicPartition]:
        """The partitions read now: assigned, or given by the group."""
        with self._fetcher.lock:
            return set(self._fetcher.partitions)

    def subscribe(self, topics: str | re.Pattern[str] | Iterable[str], listener: RebalanceListener | None = None) -> None:
        """topics: names, or a regular expression (a compiled pattern, or a string starting with '^').

        Partitions come from the group: poll() returns no records until the coordinator has
        formed it, which it may delay for other members to join (Kafka:
        ``group.initial.rebalance.delay.ms``, 3 s by default; Tansu, the embedded broker:
        about half of ``session.timeout.ms``, 22.5 s at the default 45 s, so
        ``session.timeout.ms=6000`` makes it about 3 s).  With ``group.protocol=consumer``
        (KIP-848, Kafka 4 brokers) there is no such wait: the coordinator assigns at the first
        heartbeat, and a pattern is matched by the broker.  The consumer logs "joining" and
        "joined ..." (INFO, logger ``kafkacodec.client``).  For a quick look without a group,
        ``assign([TopicPartition(topic, p)])`` fetches at once."""
        self._check_open()
        if self._group is None:
            raise E.ConfigError("group.id: subscribe() needs a group.id")
        if self._manual and self._fetcher.partitions:
            raise E.IllegalStateError("subscribe() after assign(): call unsubscribe() first")
        if listener is not None and not (hasattr(listener, "on_partitions_revoked")
                                         and hasattr(listener, "on_partitions_assigned")):
            raise TypeError("listener needs on_partitions_revoked and on_partitions_assigned")
        if isinstance(topics, re.Pattern) or (isinstance(topics, str) and topics.startswith("^")):
            if isinstance(topics, str):
                try:
                    re.compile(topics)
                except re.error as exc:
                    raise E.InvalidArgumentError(f"topics: {topics!r} is not a regular expression: {exc}") from None
            self._listener = listener
            self._group.subscribe(pattern=topics)
        else:
            names = _checks.topic_names(topics)
            self._listener = listener
            self._group.subscribe(topics=names)

    def unsubscribe(self) -> None:
        """Stop reading: leave the subscription (revoking its partitions) or the assignment."""
        self._check_open()
        with self._turn:  # a poll on another thread may be running the group's steps
            if self._group is not None and self._group.subscribed:
                self._revoke(self._group.owned, lost=False)
                self._group.unsubscribe()
            self._manual = False
            self._forget(self.assignment())
            self._fetcher.assign(())

    # -- the poll loop

    def poll(self, timeout: float | None = None, max_records: int | None = None) -> list[ConsumerRecord]:
        """Records fetched so far (at most max_records, default max.poll.records); waits up to
        `timeout` seconds (None: default.api.timeout.ms) for the first one, and never longer:
        a lookup that is not done by then (a committed offset, a group join) goes on in the
        background and the next poll() takes it up.

        With subscribe(), nothing comes back while the group forms (the broker waits for
        members to join: ``group.initial.rebalance.delay.ms`` on Kafka, about half of
        ``session.timeout.ms`` on Tansu; see subscribe()), so loop until records come;
        assign() starts fetching at once."""
        if max_records is None:
            limit = self.conf["max.poll.records"]
        elif type(max_records) is int and max_records >= 1:
            limit = max_records
        else:
            limit = _checks.positive_int(max_records, "max_records")
        if self._buffer.current is not None:
            # the next records of the fetch the last poll left part-way, before any clock or
            # wait: a program polling one record at a time (confluent-kafka's loop) mostly
            # takes these; a turn held by another thread's poll sends this one the whole way
            if not (type(timeout) is float and timeout >= 0.0):
                _checks.timeout_s(timeout)  # raises for what no poll takes
            if self._turn.acquire(False):
                try:
                    quick = None if self._closed else self._take_quick(limit)
                finally:
                    self._turn.release()
                if quick:
                    return quick
        return self._poll(timeout, limit, self._buffer.take_records, self._take_quick) or []

    def poll_arrow(self, timeout: float | None = None, max_records: int | None = None, *,
                   value_schema: Any = None, key_schema: Any = None) -> pa.RecordBatch:
        """A pyarrow.RecordBatch of fetched records (columns topic, partition, offset,
        timestamp, timestamp_type, key, value, headers); empty after `timeout` without data.
        Without max_records, the records of one completed fetch (one partition's response),
        handed over without a copy; with max_records, up to that many from as many fetches.

        ``value_schema`` / ``key_schema`` turn that column into a typed one (a struct for a
        record): a :mod:`kafkacodec.values` format (``AvroFormat(schema, confluent=True,
        registry=...)``, ``JsonFormat(arrow_schema)``), Avro schema text or dict, or a pyarrow
        Schema (JSON objects).  A value that does not decode raises CorruptDataError naming its
        Kafka offset; the records stay consumed (seek back to read them again)."""
        import pyarrow as pa
        limit = _checks.positive_int(max_records, "max_records") if max_records is not None else 1 << 62
        formats = _formats(value_schema, key_schema)
        parts = self._poll(timeout, limit, self._buffer.take_arrow)
        if not parts:
            batch = empty_batch()
        else:
            batch = parts[0] if len(parts) == 1 else pa.concat_batches(parts)
        if formats is not None:
            from kafkacodec.values import decode_columns
            batch = decode_columns(batch, value=formats[0], key=formats[1])
        return batch

    def _poll(self, timeout: float | None, limit: int, take: Callable[[int], list[_T]],
              take_quick: Callable[[int], list[_T] | None] | None = None) -> list[_T]:
        self._check_open()
        # (given, the timeout is never None: optional=False only tells mypy so)
        timeout = self._timeout if timeout is None else _checks.timeout_s(timeout, optional=False)
        if not self._fetcher.partitions and not (self._group is not None and self._group.subscribed):
            raise E.IllegalStateError("poll() needs subscribe() or assign() first")
        deadline = time.monotonic() + timeout
        fetcher = self._fetcher
        while True:
            if not self._turn.acquire(timeout=max(0.0, deadline - time.monotonic())):
                return []  # another thread's poll held the turn for all of this one's timeout
            try:
                self._check_open()
                if take_quick is not None:
                    quick = take_quick(limit)
                    if quick:
                        return quick
                self.serve_stats()
                self._prepare(deadline)
                out = take(limit)
                noted = self._note_eofs() if self._eof else 0
            finally:
                self._turn.release()
            if out or noted:
                return out  # each drained fetch woke the I/O thread already (FetchBuffer.finish)
            with fetcher.lock:
                left = deadline - time.monotonic()
                if left <= 0:
                    return out
                # a paused partition's buffered fetch cannot be taken: waiting on it would spin
                if not self._work_pending() and not self._stats_docs and not any(
                        self._buffer.takeable(cf) for cf in fetcher.completed):
                    _waits.wait(fetcher.ready, min(left, 0.1))
            if time.monotonic() >= deadline and not fetcher.completed:
                return out

    def _take_quick(self, limit: int) -> list[ConsumerRecord] | None:
        """The next records of the fetch the last poll left part-way (FetchBuffer.take_current),
        when nothing else wants a poll's attention: no failure, statistics, finished commits,
        group work or automatic commit waiting, no end-of-partition notes kept.  None sends
        the poll the whole way; so does anything about the partition changing.  An error or
        a reset another partition meets meanwhile is raised once this fetch is handed out."""
        if self._eof or self._stats_docs or self._commits_done or self._client.fatal_error is not None:
            return None
        g = self._group
        if g is not None:
            now = time.monotonic()
            if self._group_work_pending() or self._auto_commit_due(now):
                return None
            g.last_poll = now
        return self._buffer.take_current(limit)

    def _group_work_pending(self) -> bool:
        """The group has something for poll(): an error, partitions to give up or a new assignment."""
        g = self._group
        return g is not None and (g.phase == "revoke" or g.pending_assignment is not None or g.error is not None)

    def _auto_commit_due(self, now: float) -> bool:
        return self._group is not None and self._auto_commit and now >= self._next_auto_commit

    def _work_pending(self) -> bool:
        if self._group_work_pending():
            return True
        return any(s.error is not None or s.reset is not None for s in self._fetcher.partitions.values())

    def _prepare(self, deadline: float) -> None:
        client = self._client
        if client.fatal_error is not None:
            raise client.fatal_error
        g = self._group
        if g is not None:
            g.last_poll = time.monotonic()
            if g.error is not None:
                err, g.error = g.error, None
                raise err
            if g.phase == "revoke":
                self._revoke(g.owned, lost=g.partitions_lost)
                g.revoked_done()
            tps, before = g.take_assignment()
            if tps is not None:
                added = tps
                if g.cooperative:
                    # give up only what moves (committing it), keep fetching the rest
                    # what is added in the order given (the coordinator's under KIP-848), what is
                    # revoked sorted, as librdkafka's callbacks get them
                    revoked = sorted(set(before) - set(tps))
                    owned = set(before)
                    added = [tp for tp in tps if tp not in owned]
                    self._revoke(revoked, lost=False, keep=tps)
                    if revoked:
                        g.request_rejoin("partitions given up for other members")
                self._fetcher.assign(tps)
                # the listener first, as Java's consumer: a seek there saves the committed offset's
                # lookup, and auto.offset.reset=none raises only for partitions it left without one
                if self._listener is not None:
                    self._listener.on_partitions_assigned(self, list(added))
        self._update_positions(deadline)
        with self._fetcher.lock:
            for tp, state in self._fetcher.partitions.items():
                if state.error is not None:
                    err, state.error = state.error, None
                    raise err
        self._serve_commits()
        if g is not None and self._auto_commit_due(time.monotonic()) and g.phase not in g.REBALANCING:
            self._next_auto_commit = time.monotonic() + self.conf["auto.commit.interval.ms"] / 1000
            offsets = self._moved_offsets()
            if offsets:
                g.commit_async(offsets, self._commit_done)

    def _commit_done(self, offsets: dict[TopicPartition, int], error: BaseException | None) -> None:
        """A commit without a callback of its own is over (any thread): reported from poll()."""
        if error is None:
            self._committed.update(offsets)
        self._commits_done.append((offsets, error))

    def report_commit(self, offsets: dict[TopicPartition, int], error: BaseException | None) -> None:
        """Report a commit's outcome from the next poll() (commit_cb, or a warning for an error), as
        for the commits this consumer sends: for a caller that ends a commit without sending one
        (the confluent-kafka face's asynchronous commit of nothing)."""
        self._commit_done(offsets, error)

    def _serve_commits(self) -> None:
        while self._commits_done:
            offsets, error = self._commits_done.popleft()
            if self._commit_cb is not None:
                self._commit_cb(offsets, error)
            elif error is not None:
                log.warning("commit failed: %s", error)

    def _commit_now(self, offsets: dict[TopicPartition, int], deadline: float, what: str) -> None:
        """An automatic commit that waits (on revoke, on close): a failure is reported, not raised."""
        try:
            self._group.commit(offsets, deadline)  # type: ignore[union-attr]  # only a group member commits
        except E.KafkaError as exc:
            if self._commit_cb is not None:
                self._commits_done.append((offsets, exc))
            else:
                log.warning("%s failed: %s", what, exc)
        else:
            self._commit_done(offsets, None)

    def _forget(self, partitions: Iterable[TopicPartition]) -> None:
        """Stored and committed offsets and end-of-partition notes of partitions given up."""
        for tp in partitions:
            self._stored.pop(tp, None)
            self._committed.pop(tp, None)
            self._eof_at.pop(tp, None)

    def _note_eofs(self) -> int:
        """A PartitionEOF for each partition whose position reached its end, once per offset
        (librdkafka's _PARTITION_EOF); how many were noted now."""
        noted = 0
        with self._fetcher.lock:
            for tp, state in self._fetcher.partitions.items():
                end = state.last_stable_offset if self._read_committed else state.high_watermark
                position = state.position
                if position is None or end < 0 or position < end or state.reset is not None:
                    continue
                if self._eof_at.get(tp) != position:
                    self._eof_at[tp] = position
                    self._eofs.append(PartitionEOF(tp.topic, tp.partition, position, end))
                    noted += 1
        return noted

    def take_partition_eofs(self, limit: int | None = None) -> list[PartitionEOF]:
        """The end-of-partition notes of enable.partition.eof, oldest first (at most `limit`), each
        handed over once: poll() notes one each time a partition's position reaches its end, and
        returns early when it noted one."""
        out: list[PartitionEOF] = []
        while self._eofs and (limit is None or len(out) < limit):
            out.append(self._eofs.popleft())
        return out

    def _revoke(self, given: Iterable[TopicPartition], lost: bool, keep: Iterable[TopicPartition] = ()) -> None:
        """Give up partitions (listener, commit unless lost); fetching goes on for `keep`."""
        partitions = sorted(given)
        if not partitions:
            return
        shown = ", ".join(f"{tp.topic}-{tp.partition}" for tp in partitions[:20]) + (", ..." if len(partitions) > 20 else "")
        if lost:
            log.warning("group %s: %d partition(s) lost (other members may own them now): %s",
                        self.conf["group.id"], len(partitions), shown)
        else:
            log.info("group %s: giving up %d partition(s): %s", self.conf["group.id"], len(partitions), shown)
        # partitions are given up only by a group member: _group is set
        if not lost and self.conf["enable.auto.commit"] and self._group is not None:
            offsets = self._moved_offsets()
            if offsets:
                self._commit_now(offsets, time.monotonic() + self._timeout, "commit before giving up partitions")
        if self._listener is not None:
            if lost:
                self._listener.on_partitions_lost(self, partitions)
            else:
                self._listener.on_partitions_revoked(self, partitions)
        self._forget(set(partitions) - set(keep))
        self._fetcher.assign(keep)

    def _update_positions(self, deadline: float, block: bool = False) -> None:
        """Positions for partitions without one: the committed offset, else auto.offset.reset.

        Both lookups (OffsetFetch, ListOffsets) run on a thread of their own: poll() looks at
        them until its deadline and returns, and the next poll takes the answer up (as Java's
        consumer keeps its pending OffsetFetch); with `block`, KafkaTimeoutError at `deadline`."""
        fetcher = self._fetcher
        reset_policy = self.conf["auto.offset.reset"]
        with fetcher.lock:
            missing = [tp for tp, s in fetcher.partitions.items() if s.position is None and s.reset is None]
        if missing and self._group is not None:
            group, timeout = self._group, self._timeout
            want = frozenset(missing)
            committed = self._lookup("committed", want, deadline, block,
                                     lambda: group.committed(list(want), time.monotonic() + timeout))
            if committed is None:
                return
            with fetcher.lock:
                for tp, offset in committed.items():
                    state = fetcher.partitions.get(tp)
                    if state is not None and state.position is None and state.reset is None:
                        if offset is not None:
                            state.position = offset
                            state.handed_out = False
                        else:
                            state.reset = reset_policy
        elif missing:
            with fetcher.lock:
                for tp in missing:
                    fetcher.partitions[tp].reset = reset_policy
        with fetcher.lock:
            resets = {tp: s.reset for tp, s in fetcher.partitions.items() if s.reset is not None}
        if not resets:
            return
        none = [tp for tp, policy in resets.items() if policy == "none"]
        if none:
            with fetcher.lock:
                for tp in none:
                    fetcher.partitions[tp].reset = None
            raise E.NoOffsetForPartitionError(f"no committed offset for {sorted(none)} and auto.offset.reset=none")
        client, timeout, isolation = self._client, self._timeout, self._isolation
        reset_want = frozenset(resets.items())
        found = self._lookup("reset", reset_want, deadline, block,
                             lambda: list_offsets(client, dict(reset_want), timeout, isolation))
        if found is None:
            return
        with fetcher.lock:
            for tp, answer in found.items():
                state = fetcher.partitions.get(tp)
                if state is not None and state.reset == resets.get(tp):
                    state.position = answer.offset if answer.offset is not None else 0
                    state.handed_out = False
                    state.reset = None
        self._client.wakeup()

    def _lookup(self, kind: str, want: frozenset[Any], deadline: float, block: bool,
                call: Callable[[], _T]) -> _T | None:
        """The answer of call() for `want` (a frozenset), run on a thread of its own and kept
        across polls; None while it is not done by `deadline` (KafkaTimeoutError with `block`)."""
        with self._lookups_lock:  # position() on one thread, poll() on another
            lookup = self._lookups.get(kind)
            if lookup is None or not lookup[0].issuperset(want):
                future: concurrent.futures.Future[Any] = concurrent.futures.Future()

                def run() -> None:
                    try:
                        future.set_result(call())
                    except BaseException as exc:
                        future.set_exception(exc)

                threading.Thread(target=run, name=f"kafkacodec-consumer-{kind}", daemon=True).start()
                lookup = self._lookups[kind] = (want, future)
        try:
            answer = lookup[1].result(max(0.0, deadline - time.monotonic()))
        except concurrent.futures.TimeoutError:
            if block:
                raise E.KafkaTimeoutError(f"{kind} offsets of {len(want)} partition(s) not known in time") from None
            return None
        except E.KafkaError as exc:
            self._lookup_done(kind, lookup)
            if block or not exc.retriable:
                raise
            log.debug("%s offsets lookup failed, retried at the next poll: %s", kind, exc)
            return None
        self._lookup_done(kind, lookup)
        return answer  # type: ignore[no-any-return]  # call()'s answer, kept across polls

    def _lookup_done(self, kind: str, lookup: tuple[frozenset[Any], concurrent.futures.Future[Any]]) -> None:
        """Forget a finished lookup, unless another thread has started a newer one."""
        with self._lookups_lock:
            if self._lookups.get(kind) is lookup:
                del self._lookups[kind]

    def stored_offsets(self) -> dict[TopicPartition, int]:
        """What commit() without offsets commits, per assigned partition: the consumed positions, or
        with enable.auto.offset.store=false what store_offsets() stored."""
        with self._fetcher.lock:
            if not self._auto_store:
                return {tp: o for tp, o in self._stored.items() if tp in self._fetcher.partitions}
            return {tp: s.position for tp, s in self._fetcher.partitions.items() if s.position is not None}

    def _moved_offsets(self) -> dict[TopicPartition, int]:
        """The stored offsets this consumer has not committed yet: what an automatic commit sends."""
        return {tp: o for tp, o in self.stored_offsets().items() if self._committed.get(tp) != o}

    def store_offsets(self, offsets: Mapping[TopicPartitionLike, int]) -> None:
        """Store {TopicPartition|(topic, partition): offset} for the next commit() without offsets
        and the automatic commits (enable.auto.offset.store=false; the offset is the next record
        to read, a consumed record's offset + 1).  The partitions must be assigned; a partition
        given up forgets its stored offset."""
        self._check_open()
        if self._auto_store:
            raise E.InvalidArgumentError("store_offsets: needs enable.auto.offset.store=false (with true, "
                                         "the consumed positions are what is committed)")
        todo = {_tp(k, "offsets key"): _checks.offset(v, f"offsets[{k!r}]") for k, v in offsets.items()}
        with self._fetcher.lock:
            missing = sorted(tp for tp in todo if tp not in self._fetcher.partitions)
            if missing:
                raise E.IllegalStateError(f"store_offsets: {missing} not assigned to this consumer")
            self._stored.update(todo)

    # -- offsets

    def commit(self, offsets: Mapping[TopicPartitionLike, int] | None = None, asynchronous: bool = False,
               callback: CommitCallback | None = None, timeout: float | None = None) -> None:
        """Commit {TopicPartition|(topic, partition): offset} (default: stored_offsets(), the consumed
        positions).  With asynchronous=True returns at once; callback(offsets, error) runs on the I/O
        thread, and without one offset_commit_cb reports the outcome from the next poll()."""
        self._check_open()
        if self._group is None:
            raise E.ConfigError("group.id: commit() needs a group.id")
        to_commit = self.stored_offsets() if offsets is None else {
            _tp(k, "offsets key"): _checks.offset(v, f"offsets[{k!r}]") for k, v in offsets.items()}
        if not to_commit:
            return
        if asynchronous:
            if callback is None:
                self._group.commit_async(to_commit, self._commit_done)
            else:
                def done(offsets: dict[TopicPartition, int], error: BaseException | None) -> None:
                    if error is None:
                        self._committed.update(offsets)
                    callback(offsets, error)
                self._group.commit_async(to_commit, done)
            return
        try:
            self._group.commit(to_commit, time.monotonic() + (self._timeout if timeout is None else timeout))
        except E.KafkaError as exc:
            if self._commit_cb is not None:
                self._commits_done.append((to_commit, exc))
            raise
        self._committed.update(to_commit)
        if self._commit_cb is not None:
            self._commits_done.append((to_commit, None))

    def committed(self, partitions: Iterable[TopicPartitionLike],
                  timeout: float | None = None) -> dict[TopicPartition, int | None]:
        """{TopicPartition: committed offset or None}."""
        self._check_open()
        if self._group is None:
            raise E.ConfigError("group.id: committed() needs a group.id")
        tps = [_tp(p) for p in partitions]
        return self._group.committed(tps, time.monotonic() + (self._timeout if timeout is None else timeout))

    def position(self, partition: TopicPartitionLike, timeout: float | None = None) -> int:
        """The offset of the next record poll() returns for the partition (looked up if unknown)."""
        self._check_open()
        tp = _tp(partition)
        with self._fetcher.lock:
            state = self._assigned_state(tp)
            if state.position is not None and state.reset is None:
                return state.position
        self._update_positions(time.monotonic() + (self._timeout if timeout is None else timeout), block=True)
        with self._fetcher.lock:
            return self._fetcher.partitions[tp].position  # type: ignore[return-value]  # the lookup above set it

    def consumed_position(self, partition: TopicPartitionLike) -> int | None:
        """The offset after the last record poll() returned for the assigned partition since its
        position was last set (assignment, seek, reset); None before any.  librdkafka's position()."""
        self._check_open()
        tp = _tp(partition)
        with self._fetcher.lock:
            state = self._assigned_state(tp)
            return state.position if state.handed_out else None

    def consumed_leader_epoch(self, partition: TopicPartitionLike) -> int | None:
        """The leader epoch of the last record poll() returned for the assigned partition since its
        position was last set; None before any, or when its batch carried none."""
        self._check_open()
        tp = _tp(partition)
        with self._fetcher.lock:
            state = self._assigned_state(tp)
            epoch = state.leader_epoch
            return epoch if state.handed_out and epoch is not None and epoch >= 0 else None

    def _assigned_state(self, tp: TopicPartition) -> PartitionState:
        """tp's fetch state (under the fetcher's lock); IllegalStateError when tp is not assigned."""
        state = self._fetcher.partitions.get(tp)
        if state is None:
            raise E.IllegalStateError(f"{tp.topic}[{tp.partition}] is not assigned to this consumer")
        return state

    def seek(self, partition: TopicPartitionLike, offset: int) -> None:
        """The next poll() returns the assigned partition's records from ``offset`` on."""
        self._check_open()
        tp = _tp(partition)
        self._fetcher.seek(tp, _checks.offset(offset))
        self._eof_at.pop(tp, None)

    def _seek_to(self, partitions: Iterable[TopicPartitionLike] | None, policy: str) -> None:
        self._check_open()
        tps = list(self.assignment()) if partitions is None else [_tp(p) for p in partitions]
        with self._fetcher.lock:
            for tp in tps:
                state = self._fetcher.partitions.get(tp)
                if state is None:
                    raise E.IllegalStateError(f"{tp.topic}[{tp.partition}] is not assigned to this consumer")
                state.reset = policy
                state.error = None
                state.held = state.fetch_next = None
                self._fetcher.drop_buffered(tp)
                self._eof_at.pop(tp, None)
        self._client.wakeup()

    def seek_to_beginning(self, partitions: Iterable[TopicPartitionLike] | None = None) -> None:
        """Read these assigned partitions (None: all) from their earliest offset."""
        self._seek_to(partitions, "earliest")

    def seek_to_end(self, partitions: Iterable[TopicPartitionLike] | None = None) -> None:
        """Read these assigned partitions (None: all) from their latest offset: new records only."""
        self._seek_to(partitions, "latest")

    def offsets_for_times(self, timestamps: Mapping[TopicPartitionLike, int],
                          timeout: float | None = None) -> dict[TopicPartition, OffsetAndTimestamp | None]:
        """{TopicPartition: OffsetAndTimestamp or None}: the first offset with timestamp >= the given ms."""
        self._check_open()
        specs = {_tp(k): int(v) for k, v in timestamps.items()}
        found = list_offsets(self._client, specs, self._timeout if timeout is None else timeout,
                             self._isolation)
        return {tp: (None if v.offset is None else v) for tp, v in found.items()}

    def beginning_offsets(self, partitions: Iterable[TopicPartitionLike],
                          timeout: float | None = None) -> dict[TopicPartition, int | None]:
        """Each partition's earliest offset (the log start), asked of its leader."""
        found = list_offsets(self._client, {_tp(p): EARLIEST for p in partitions},
                             self._timeout if timeout is None else timeout)
        return {tp: v.offset for tp, v in found.items()}

    def get_watermark_offsets(self, partition: TopicPartitionLike, timeout: float | None = None,
                              cached: bool = False) -> tuple[int | None, int | None]:
        """(low, high) of a partition: its log start offset and high watermark (the last stable
        offset under read_committed).  cached=True answers from the last Fetch response without
        asking the broker ((None, None) before one arrived; the partition must be assigned)."""
        self._check_open()
        tp = _tp(partition)
        if cached:
            with self._fetcher.lock:
                state = self._fetcher.partitions.get(tp)
                if state is None:
                    raise E.IllegalStateError(f"{tp.topic}[{tp.partition}] is not assigned to this consumer")
                high = state.last_stable_offset if self._read_committed else state.high_watermark
                return (None if state.log_start_offset < 0 else state.log_start_offset,
                        None if high < 0 else high)
        timeout = self._timeout if timeout is None else timeout
        return self.beginning_offsets([tp], timeout)[tp], self.end_offsets([tp], timeout)[tp]

    def watermarks(self) -> dict[TopicPartition, tuple[int | None, int | None]]:
        """{TopicPartition: (low, high)} of the assigned partitions, from the last Fetch responses."""
        return {tp: self.get_watermark_offsets(tp, cached=True) for tp in self.assignment()}

    def group_metadata(self) -> ConsumerGroupMetadata:
        """This member's ConsumerGroupMetadata (group id, generation, member id, instance id), for
        Producer.send_offsets_to_transaction: the broker fences the commit of a stale member."""
        from kafkacodec.client.transaction import ConsumerGroupMetadata
        self._check_open()
        g = self._group
        if g is None:
            raise E.ConfigError("group.id: group_metadata() needs a group.id")
        with g.cond:
            if g.subscribed:
                return ConsumerGroupMetadata(g.group_id, g.generation, g.member_id, self.conf["group.instance.id"])
        return ConsumerGroupMetadata(g.group_id, -1, "", self.conf["group.instance.id"])

    def end_offsets(self, partitions: Iterable[TopicPartitionLike],
                    timeout: float | None = None) -> dict[TopicPartition, int | None]:
        """Each partition's end: the high watermark, or under read_committed the last stable offset."""
        found = list_offsets(self._client, {_tp(p): LATEST for p in partitions},
                             self._timeout if timeout is None else timeout, self._isolation)
        return {tp: v.offset for tp, v in found.items()}

    # -- flow control

    def pause(self, partitions: Iterable[TopicPartitionLike]) -> None:
        """Stop fetching these assigned partitions until resume(); the group membership stays."""
        with self._fetcher.lock:
            for p in partitions:
                tp = _tp(p)
                state = self._fetcher.partitions.get(tp)
                if state is None:
                    raise E.IllegalStateError(f"{tp.topic}[{tp.partition}] is not assigned to this consumer")
                state.paused = True

    def resume(self, partitions: Iterable[TopicPartitionLike]) -> None:
        """Fetch paused partitions again."""
        with self._fetcher.lock:
            for p in partitions:
                state = self._fetcher.partitions.get(_tp(p))
                if state is not None:
                    state.paused = False
        self._client.wakeup()

    def paused(self) -> set[TopicPartition]:
        """The partitions paused now."""
        with self._fetcher.lock:
            return {tp for tp, s in self._fetcher.partitions.items() if s.paused}

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """New SASL PLAIN/SCRAM credentials: connections made from now on authenticate with
        them; those already open stay as they are."""
        new_sasl_credentials(self.conf, username, password)

    def topics(self, timeout: float | None = None) -> dict[str, int]:
        """{topic: partition count} of the cluster."""
        topics = self._client.metadata.all_topics(self._timeout if timeout is None else timeout)
        return {name: len(t.partitions) for name, t in topics.items()}

    def cluster_metadata(self, topic: str | None = None, *, timeout: float | None = None) -> ClusterMetadata:
        """The cluster's brokers and every topic (or only `topic`, in ``topic_errors`` when the
        broker knows no such topic) from a metadata answer asked for by this call, over the
        consumer's own connections; waits up to `timeout` (None: default.api.timeout.ms)."""
        if timeout is not None:
            _checks.timeout_s(timeout)
        if topic is not None:
            _checks.topic_name(topic)
        self._check_open()
        return self._client.metadata.snapshot(topic, self._timeout if timeout is None else timeout)

    # -- shutdown

    def close(self, autocommit: bool = True, timeout: float | None = None) -> None:
        """Commit consumed offsets (with enable.auto.commit), leave the group, stop the I/O thread."""
        if self._closed:
            return
        timeout = min(self._timeout, 30.0) if timeout is None else timeout
        # a poll on another thread finishes its step first (it then finds the consumer closed)
        turn = self._turn.acquire(timeout=timeout)
        try:
            if self._closed:
                return  # closed by another thread meanwhile
            if self._group is not None:
                if autocommit and self.conf["enable.auto.commit"]:
                    # every stored offset, moved or not, as the Java client and librdkafka
                    # commit at close (and report it to offset_commit_cb)
                    offsets = self.stored_offsets()
                    if offsets:
                        self._commit_now(offsets, time.monotonic() + timeout, "final commit")
                if self._group.subscribed and self._listener is not None and self._group.owned:
                    self._listener.on_partitions_revoked(self, sorted(self._group.owned))
                self._group.leave(timeout)
        finally:
            if not self._closed:
                self._closed = True
                if self._group is not None:
                    self._group.close()
                self._fetcher.close()
                self._client.close()
            if turn:
                self._turn.release()
        self._serve_commits()


class AsyncConsumer(AsyncOverWorker[Consumer, ConsumerRecord]):
    """The Consumer for asyncio applications, on the same machinery: one Consumer (its I/O
    thread fetching and keeping the group alive) whose waiting calls run on one worker
    thread of their own, so the event loop never blocks and calls stay in order.

        async with AsyncConsumer({"bootstrap.servers": bs, "group.id": "g"}) as c:
            c.subscribe(["events"])
            async for record in c:          # or: records = await c.poll(1.0)
                ...
            batch = await c.poll_arrow(1.0)
            await c.commit()
    """

    def __init__(self, config: Mapping[str, Any] | None = None, **settings: Any) -> None:
        super().__init__(Consumer(config, **settings), "kafkacodec-consumer-async")

    @property
    def consumer(self) -> Consumer:
        """The underlying Consumer (for calls that do not wait)."""
        return self._consumer

    def run(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> asyncio.Future[_T]:
        """fn(*args, **kwargs) on this consumer's worker thread, after the calls queued there before
        it (call from the loop): a blocking call on the Consumer, or on code over it, that keeps the
        loop free and in order with the others."""
        return self._run(fn, *args, **kwargs)

    # calls that return at once: straight through
    def assign(self, partitions: Iterable[TopicPartitionLike]) -> None:
        """As `Consumer.assign`: read these partitions, outside any group."""
        self._consumer.assign(partitions)

    def subscribe(self, topics: str | re.Pattern[str] | Iterable[str], listener: RebalanceListener | None = None) -> None:
        """As `Consumer.subscribe`: join `group.id` for these topics (or a pattern)."""
        self._consumer.subscribe(topics, listener)

    def assignment(self) -> set[TopicPartition]:
        """The partitions assigned now (as `Consumer.assignment`)."""
        return self._consumer.assignment()

    def seek(self, partition: TopicPartitionLike, offset: int) -> None:
        """As `Consumer.seek`: the next record read from `partition` is at `offset`."""
        self._consumer.seek(partition, offset)

    def seek_to_beginning(self, partitions: Iterable[TopicPartitionLike] | None = None) -> None:
        """As `Consumer.seek_to_beginning`."""
        self._consumer.seek_to_beginning(partitions)

    def seek_to_end(self, partitions: Iterable[TopicPartitionLike] | None = None) -> None:
        """As `Consumer.seek_to_end`."""
        self._consumer.seek_to_end(partitions)

    def pause(self, partitions: Iterable[TopicPartitionLike]) -> None:
        """As `Consumer.pause`: no more records of these partitions until resumed."""
        self._consumer.pause(partitions)

    def resume(self, partitions: Iterable[TopicPartitionLike]) -> None:
        """As `Consumer.resume`."""
        self._consumer.resume(partitions)

    def paused(self) -> set[TopicPartition]:
        """The partitions paused now."""
        return self._consumer.paused()

    def store_offsets(self, offsets: Mapping[TopicPartitionLike, int]) -> None:
        """As `Consumer.store_offsets`: offsets the next commit takes."""
        self._consumer.store_offsets(offsets)

    def stored_offsets(self) -> dict[TopicPartition, int]:
        """The offsets stored for the next commit (as `Consumer.stored_offsets`)."""
        return self._consumer.stored_offsets()

    def take_partition_eofs(self, limit: int | None = None) -> list[PartitionEOF]:
        """As `Consumer.take_partition_eofs` (`enable.partition.eof`)."""
        return self._consumer.take_partition_eofs(limit)

    # calls that wait: on the worker thread
    async def poll(self, timeout: float | None = None, max_records: int | None = None) -> list[ConsumerRecord]:
        """Await `Consumer.poll` on the worker thread: the next records, up to `timeout` seconds."""
        return await self._run(self._consumer.poll, timeout, max_records)

    async def poll_arrow(self, timeout: float | None = None, max_records: int | None = None, *,
                         value_schema: Any = None, key_schema: Any = None) -> pa.RecordBatch:
        """Await `Consumer.poll_arrow` on the worker thread: the next records as one Arrow batch."""
        return await self._run(self._consumer.poll_arrow, timeout, max_records, value_schema=value_schema,
                               key_schema=key_schema)

    async def unsubscribe(self) -> None:
        """Await `Consumer.unsubscribe`: leave the group."""
        await self._run(self._consumer.unsubscribe)

    async def commit(self, offsets: Mapping[TopicPartitionLike, int] | None = None,
                     timeout: float | None = None) -> None:
        """Await `Consumer.commit`: the given offsets, or the positions (stored offsets) read so far."""
        await self._run(self._consumer.commit, offsets, timeout=timeout)

    async def committed(self, partitions: Iterable[TopicPartitionLike],
                        timeout: float | None = None) -> dict[TopicPartition, int | None]:
        """Await `Consumer.committed`: the group's committed offsets of these partitions."""
        return await self._run(self._consumer.committed, partitions, timeout)

    async def position(self, partition: TopicPartitionLike, timeout: float | None = None) -> int:
        """Await `Consumer.position`: the offset of the next record of `partition`."""
        return await self._run(self._consumer.position, partition, timeout)

    async def offsets_for_times(self, timestamps: Mapping[TopicPartitionLike, int],
                                timeout: float | None = None) -> dict[TopicPartition, OffsetAndTimestamp | None]:
        """Await `Consumer.offsets_for_times`."""
        return await self._run(self._consumer.offsets_for_times, timestamps, timeout)

    async def beginning_offsets(self, partitions: Iterable[TopicPartitionLike],
                                timeout: float | None = None) -> dict[TopicPartition, int | None]:
        """Await `Consumer.beginning_offsets`."""
        return await self._run(self._consumer.beginning_offsets, partitions, timeout)

    async def end_offsets(self, partitions: Iterable[TopicPartitionLike],
                          timeout: float | None = None) -> dict[TopicPartition, int | None]:
        """Await `Consumer.end_offsets`."""
        return await self._run(self._consumer.end_offsets, partitions, timeout)

    async def cluster_metadata(self, topic: str | None = None, *,
                               timeout: float | None = None) -> ClusterMetadata:
        """Await `Consumer.cluster_metadata`: the brokers and topics, over the consumer's connections."""
        return await self._run(self._consumer.cluster_metadata, topic, timeout=timeout)

    async def get_watermark_offsets(self, partition: TopicPartitionLike, timeout: float | None = None,
                                    cached: bool = False) -> tuple[int | None, int | None]:
        """Await `Consumer.get_watermark_offsets`: (low, high) of `partition`."""
        return await self._run(self._consumer.get_watermark_offsets, partition, timeout, cached)

    def watermarks(self) -> dict[TopicPartition, tuple[int | None, int | None]]:
        """The (low, high) watermarks the last fetches saw, per partition (no request)."""
        return self._consumer.watermarks()

    def group_metadata(self) -> ConsumerGroupMetadata:
        """The group's metadata, for a transactional producer's `send_offsets_to_transaction`."""
        return self._consumer.group_metadata()

    async def close(self, autocommit: bool = True, timeout: float | None = None) -> None:
        """Await `Consumer.close` (committing first with `autocommit`), then stop the worker thread."""
        if self._closed:
            return
        await self._close_on_worker(self._consumer.close, autocommit, timeout)
