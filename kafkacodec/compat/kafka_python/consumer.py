"""kafka-python's KafkaConsumer over kafkacodec.client.Consumer.

Iteration takes records from the client in polls of up to max_poll_records and hands them out
one by one from the face's queue; the client commits positions at its next poll, when the queue
is empty, so what it commits was handed out, and close() moves positions back to the first
record queued and not handed out before its final commit.
"""
from __future__ import annotations

import asyncio
import inspect
import math
import re
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from kafkacodec.client import Consumer
from kafkacodec.client import ConsumerRecord as _Record
from kafkacodec.client import RebalanceListener as _ClientListener
from kafkacodec.client.errors import KafkaError
from kafkacodec.client.types import TopicPartitionLike
from kafkacodec.compat._consuming import KpRecords, Pausing, RecordQueue, groupless_partitions, plain_offsets
from kafkacodec.compat._kwargs import translate
from kafkacodec.compat.kafka_python._config import CONSUMER, REFUSED
from kafkacodec.compat.kafka_python._metrics import MetricsView
from kafkacodec.compat.kafka_python.structs import (ConsumerGroupMetadata, ConsumerRecord, OffsetAndMetadata,
                                                    OffsetAndTimestamp, TopicPartition)

__all__ = ["KafkaConsumer", "ConsumerRebalanceListener", "AsyncConsumerRebalanceListener"]


class ConsumerRebalanceListener:
    """kafka-python's listener: on_partitions_revoked(revoked), on_partitions_assigned(assigned),
    called inside poll() / iteration on the calling thread."""

    def on_partitions_revoked(self, revoked: set[TopicPartition]) -> None:
        pass

    def on_partitions_assigned(self, assigned: set[TopicPartition]) -> None:
        pass

    def on_partitions_lost(self, lost: set[TopicPartition]) -> None:
        self.on_partitions_revoked(lost)


class AsyncConsumerRebalanceListener:
    """kafka-python's listener whose methods are coroutines, run to completion inside poll() /
    iteration on the calling thread."""

    async def on_partitions_revoked(self, revoked: set[TopicPartition]) -> None:
        pass

    async def on_partitions_assigned(self, assigned: set[TopicPartition]) -> None:
        pass

    async def on_partitions_lost(self, lost: set[TopicPartition]) -> None:
        await self.on_partitions_revoked(lost)


def _tell(user: Any, method: str, partitions: Iterable[TopicPartition]) -> None:
    """user.method(set(partitions)); a coroutine method's run to its end (kafka-python awaits it)."""
    fn = getattr(user, method, None)
    if fn is None and method == "on_partitions_lost":
        fn = user.on_partitions_revoked
    if fn is None:
        return
    result = fn(set(partitions))
    if inspect.iscoroutine(result):
        asyncio.run(result)


class _Listener(_ClientListener):
    """The user's listener told as kafka-python tells it: with an eager protocol a revocation
    (an empty one the first time) before each assignment.  It refers to the face weakly: the
    client keeps the listener, and a KafkaConsumer no longer referred to must still be collected."""

    def __init__(self, face: KafkaConsumer, user: Any) -> None:
        self._face, self._user = weakref.ref(face), user
        self._eager = "cooperative-sticky" not in face._consumer.conf["partition.assignment.strategy"]
        self._revoked = False

    def on_partitions_revoked(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        face = self._face()
        if face is not None:
            face._held.drop(partitions)
        self._revoked = True
        if self._user is not None:
            _tell(self._user, "on_partitions_revoked", partitions)

    def on_partitions_assigned(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        if self._user is not None:
            if self._eager and not self._revoked:
                _tell(self._user, "on_partitions_revoked", ())
            _tell(self._user, "on_partitions_assigned", partitions)
        self._revoked = False

    def on_partitions_lost(self, consumer: Consumer, partitions: list[TopicPartition]) -> None:
        face = self._face()
        if face is not None:
            face._held.drop(partitions)
        if self._user is not None:
            _tell(self._user, "on_partitions_lost", partitions)


class KafkaConsumer(Pausing):
    """kafka-python's consumer: iteration (ending after consumer_timeout_ms without a record),
    poll() -> {TopicPartition: [ConsumerRecord]}, subscribe/assign/seek, commit/commit_async,
    committed, position, offsets lookups, pause/resume, close."""

    def __init__(self, *topics: str, **configs: Any) -> None:
        self._records = KpRecords(ConsumerRecord, configs.pop("key_deserializer", None),
                                  configs.pop("value_deserializer", None))
        self._record = self._records.one
        timeout = configs.pop("consumer_timeout_ms", math.inf)
        self._iter_timeout = None if timeout is None or math.isinf(timeout) else timeout / 1000
        configs.setdefault("bootstrap_servers", "localhost")
        conf = translate("KafkaConsumer", CONSUMER, REFUSED, configs)
        self._consumer = Consumer(conf)
        self._metrics = MetricsView("consumer")
        self._held = RecordQueue()
        self._closed = False
        self._groupless: tuple[Any, Any] | None = None
        self._subscribed: set[str] | None = None
        self._next_lookup = 0.0
        self._deferred: KafkaError | None = None  # what subscribe()'s first poll raised
        if topics:
            self.subscribe(topics)

    @property
    def client(self) -> Consumer:
        """kafkacodec's Consumer under this one."""
        return self._consumer

    # -- subscription

    def subscribe(self, topics: Iterable[str] = (), pattern: str | None = None, listener: Any = None) -> None:
        names = [topics] if isinstance(topics, str) else list(topics)
        if bool(names) == (pattern is not None):
            raise ValueError("subscribe: give topics or pattern, not both")
        what: Any = re.compile(pattern) if pattern is not None else names
        if self._consumer.conf["group.id"] is None:
            # as kafka-python: without a group, every partition of the topics (looked up again
            # as the cluster's metadata changes), nothing committed
            self._groupless = (what, listener)
            self._next_lookup = 0.0
            self._follow_topics()
            if self._consumer.assignment():
                # positions asked for and fetching under way before the first poll (a poll that
                # waits for nothing; what it returns is queued).  What it raises (no offset to
                # start from, ...) the first poll or iteration raises, as kafka-python's.
                try:
                    self._held.extend(self._consumer.poll(0))
                except KafkaError as exc:
                    self._deferred = exc
            return
        self._consumer.subscribe(what, _Listener(self, listener))
        self._subscribed = set(names) if pattern is None else None

    def _follow_topics(self) -> None:
        """A group-less subscription's partitions, assigned anew when the topics' partitions changed."""
        if self._groupless is None or time.monotonic() < self._next_lookup:
            return
        what = self._groupless[0]
        self._next_lookup = time.monotonic() + self._consumer.conf["metadata.max.age.ms"] / 1000 \
            if self._consumer.assignment() else time.monotonic() + 0.5
        topics, wanted = groupless_partitions(what, self._consumer.topics())
        self._subscribed = set(topics) if isinstance(what, re.Pattern) else set(what)
        had = self._consumer.assignment()
        if wanted != had:
            # as kafka-python: without a group the listener is told only when the consumer closes
            self._held.drop(had - wanted)
            self._consumer.assign(sorted(wanted))

    def subscription(self) -> set[str] | None:
        return set(self._subscribed) if self._subscribed else None

    def unsubscribe(self) -> None:
        self._held.clear()
        self._groupless, self._subscribed = None, None
        self._consumer.unsubscribe()

    def assign(self, partitions: Iterable[TopicPartition]) -> None:
        self._held.clear()
        self._consumer.assign(partitions)

    def assignment(self) -> set[TopicPartition]:
        return self._consumer.assignment()

    # -- records

    def poll(self, timeout_ms: int = 0, max_records: int | None = None,
             update_offsets: bool = True) -> dict[TopicPartition, list[ConsumerRecord]]:
        """{TopicPartition: [records]} fetched so far, waiting up to timeout_ms for the first."""
        if not update_offsets:
            raise ValueError("poll(update_offsets=False) has no meaning in kafkacodec: seek() back after poll()")
        if self._held:
            taken = self._held.take(max_records)
        else:
            taken = self._poll(timeout_ms / 1000, max_records)
        return self._records.by_partition(taken)

    def _poll(self, timeout: float, max_records: int | None) -> list[_Record]:
        if self._deferred is not None:
            exc, self._deferred = self._deferred, None
            raise exc
        if self._groupless is not None:
            self._follow_topics()
            if not self._consumer.assignment():
                time.sleep(timeout)  # no topic of the subscription exists yet
                return []
        return self._consumer.poll(timeout, max_records)

    def __iter__(self) -> Iterator[ConsumerRecord]:
        return self

    def __next__(self) -> ConsumerRecord:
        if self._closed:
            raise StopIteration
        if self._held:
            return self._record(self._held.popleft())
        end = None if self._iter_timeout is None else time.monotonic() + self._iter_timeout
        while True:
            wait = 1.0 if end is None else min(1.0, max(0.0, end - time.monotonic()))
            records = self._poll(wait, None)
            if records:
                self._held.extend(records)
                return self._record(self._held.popleft())
            if end is not None and time.monotonic() >= end:
                raise StopIteration

    # -- offsets

    def _handed_out(self) -> dict[TopicPartitionLike, int]:
        firsts = self._held.firsts()
        return {tp: firsts.get(tp, self._consumer.position(tp)) for tp in self._consumer.assignment()}

    def commit(self, offsets: Mapping[TopicPartition, OffsetAndMetadata | int] | None = None,
               timeout_ms: int | None = None) -> None:
        """Commit `offsets` ({tp: OffsetAndMetadata}), default the positions of the records handed out."""
        plain = self._handed_out() if offsets is None else plain_offsets(offsets, "commit")
        self._consumer.commit(plain, timeout=None if timeout_ms is None else timeout_ms / 1000)

    def commit_async(self, offsets: Mapping[TopicPartition, OffsetAndMetadata | int] | None = None,
                     callback: Callable[[Any, Any], Any] | None = None) -> None:
        """Commit without waiting; callback(offsets, error or None) runs on the client's I/O thread."""
        plain = self._handed_out() if offsets is None else plain_offsets(offsets, "commit")

        def done(committed: dict[TopicPartition, int], error: BaseException | None) -> None:
            if callback is not None:
                callback({tp: OffsetAndMetadata(o, "", -1) for tp, o in committed.items()}, error)

        self._consumer.commit(plain, asynchronous=True, callback=done)

    def committed(self, partition: TopicPartition, metadata: bool = False,
                  timeout_ms: int | None = None) -> int | OffsetAndMetadata | None:
        found = self._consumer.committed([partition], None if timeout_ms is None else timeout_ms / 1000)
        offset = found.get(partition)
        if offset is None or not metadata:
            return offset
        return OffsetAndMetadata(offset, "", -1)

    def position(self, partition: TopicPartition, timeout_ms: int | None = None) -> int:
        queued = self._held.position(partition)
        if queued is not None:
            return queued
        return self._consumer.position(partition, None if timeout_ms is None else timeout_ms / 1000)

    def seek(self, partition: TopicPartition, offset: int) -> None:
        self._held.drop([partition])
        self._consumer.seek(partition, offset)

    def seek_to_beginning(self, *partitions: TopicPartition) -> None:
        tps = list(partitions) or list(self.assignment())
        self._held.drop(tps)
        self._consumer.seek_to_beginning(tps)

    def seek_to_end(self, *partitions: TopicPartition) -> None:
        tps = list(partitions) or list(self.assignment())
        self._held.drop(tps)
        self._consumer.seek_to_end(tps)

    def beginning_offsets(self, partitions: Iterable[TopicPartition],
                          timeout_ms: int | None = None) -> dict[TopicPartition, int | None]:
        return self._consumer.beginning_offsets(partitions, None if timeout_ms is None else timeout_ms / 1000)

    def end_offsets(self, partitions: Iterable[TopicPartition],
                    timeout_ms: int | None = None) -> dict[TopicPartition, int | None]:
        return self._consumer.end_offsets(partitions, None if timeout_ms is None else timeout_ms / 1000)

    def offsets_for_times(self, timestamps: Mapping[TopicPartition, int],
                          timeout_ms: int | None = None) -> dict[TopicPartition, OffsetAndTimestamp | None]:
        asked: dict[TopicPartitionLike, int] = dict(timestamps.items())
        found = self._consumer.offsets_for_times(asked, None if timeout_ms is None else timeout_ms / 1000)
        return {tp: None if v is None or v.offset is None else OffsetAndTimestamp(v.offset, v.timestamp,
                                                                                 v.leader_epoch)
                for tp, v in found.items()}

    def highwater(self, partition: TopicPartition) -> int | None:
        return self._consumer.get_watermark_offsets(partition, cached=True)[1]

    def _pausing(self) -> Consumer:
        return self._consumer

    def topics(self) -> set[str]:
        return set(self._consumer.topics())

    def partitions_for_topic(self, topic: str) -> set[int] | None:
        count = self._consumer.topics().get(topic)
        return None if count is None else set(range(count))

    def group_metadata(self) -> ConsumerGroupMetadata:
        md = self._consumer.group_metadata()
        return ConsumerGroupMetadata(md.group_id, md.generation_id, md.member_id, md.group_instance_id)

    def metrics(self, raw: bool = False) -> dict[str, Any]:
        """kafka-python's {group: {metric name: value}} (see kafka_python._metrics for what
        differs); raw=True: the client's statistics document (librdkafka's STATISTICS.md layout)."""
        doc = self._consumer.metrics()
        return doc if raw else self._metrics(doc)

    def close(self, autocommit: bool = True, timeout_ms: int | None = None) -> None:
        if self._closed:
            return
        self._closed = True
        self._held.rewind(self._consumer.seek)
        listener = self._groupless[1] if self._groupless is not None else None
        if listener is not None and self._consumer.assignment():
            _tell(listener, "on_partitions_revoked", self._consumer.assignment())
        self._consumer.close(autocommit, None if timeout_ms is None else timeout_ms / 1000)

    def __enter__(self) -> KafkaConsumer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
