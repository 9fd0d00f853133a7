"""aiokafka.AIOKafkaConsumer over kafkacodec.client.AsyncConsumer.

Records are taken from the client in polls of up to max_poll_records and handed out one by one
(getone, ``async for``) from the face's queue; the client commits positions at its next poll,
when the queue is empty, so what it commits was handed out.  Calls made inside a rebalance
listener, while the client's worker thread waits for it, run on a thread of their own.
"""
from __future__ import annotations

import asyncio
import functools
import re
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from typing import Any, TypeVar

from kafkacodec.client import AsyncConsumer
from kafkacodec.client import Consumer as _Consumer
from kafkacodec.client import ConsumerRecord as _Record
from kafkacodec.client import RebalanceListener as _ClientListener
from kafkacodec.client.errors import KafkaError
from kafkacodec.client.network import NetworkClient
from kafkacodec.compat._consuming import AioRecords, Pausing, RecordQueue, groupless_partitions, plain_offsets
from kafkacodec.compat._kwargs import translate
from kafkacodec.compat.aiokafka._config import CONSUMER, CONSUMER_REFUSED
from kafkacodec.compat.aiokafka._started import Started
from kafkacodec.compat.aiokafka.errors import ConsumerStoppedError, IllegalOperation
from kafkacodec.compat.aiokafka.structs import (ConsumerRecord, OffsetAndMetadata, OffsetAndTimestamp,
                                                TopicPartition)

__all__ = ["AIOKafkaConsumer", "ConsumerRebalanceListener"]

_T = TypeVar("_T")


class ConsumerRebalanceListener:
    """aiokafka's listener: on_partitions_revoked(revoked) and on_partitions_assigned(assigned),
    plain or coroutine functions, called inside getone/getmany as the group changes."""

    def on_partitions_revoked(self, revoked: Iterable[TopicPartition]) -> Any:
        pass

    def on_partitions_assigned(self, assigned: Iterable[TopicPartition]) -> Any:
        pass


class _Listener(_ClientListener):
    """The client's listener (called on its worker thread) running the user's on the loop, told
    as aiokafka tells it: with an eager protocol a revocation (an empty one the first time)
    before each assignment, and nothing when the consumer stops.  It refers to the face weakly:
    the client keeps the listener, and a face no longer referred to must still be collected."""

    def __init__(self, face: AIOKafkaConsumer, user: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._face, self._user, self._loop = weakref.ref(face), user, loop
        self._eager = "cooperative-sticky" not in face._conf["partition.assignment.strategy"]
        self._revoked = False

    def _call(self, method: str, partitions: list[TopicPartition]) -> None:
        fn = getattr(self._user, method, None)
        face = self._face()
        if fn is None or face is None:
            return

        async def run() -> None:
            face._in_listener += 1
            try:
                result = fn(set(partitions))
                if asyncio.iscoroutine(result):
                    await result
            finally:
                face._in_listener -= 1

        asyncio.run_coroutine_threadsafe(run(), self._loop).result()

    def on_partitions_revoked(self, consumer: _Consumer, partitions: list[TopicPartition]) -> None:
        face = self._face()
        if face is None:
            return
        face._held.drop(partitions)
        self._revoked = True
        if not face._stopped:
            self._call("on_partitions_revoked", partitions)

    def on_partitions_assigned(self, consumer: _Consumer, partitions: list[TopicPartition]) -> None:
        if self._eager and not self._revoked:
            self._call("on_partitions_revoked", [])
        self._revoked = False
        self._call("on_partitions_assigned", partitions)


class AIOKafkaConsumer(Started[AsyncConsumer], Pausing):
    """aiokafka's consumer: ``await start()``, ``getone``, ``getmany``, ``async for``, subscribe by
    list or pattern with a ConsumerRebalanceListener, assign/seek, commit/committed, position,
    highwater, pause/resume, beginning/end offsets, offsets_for_times, ``await stop()``."""

    def __init__(self, *topics: str, key_deserializer: Callable[[bytes | None], Any] | None = None,
                 value_deserializer: Callable[[bytes | None], Any] | None = None, **settings: Any) -> None:
        settings.setdefault("bootstrap_servers", "localhost")
        conf = translate("AIOKafkaConsumer", CONSUMER, CONSUMER_REFUSED, settings)
        # aiokafka's defaults where they differ from the client's and change what happens
        conf.setdefault("partition.assignment.strategy", ["roundrobin"])
        conf.setdefault("session.timeout.ms", 10000)
        conf.setdefault("request.timeout.ms", 40000)
        # aiokafka's max_poll_records=None: a poll takes every record fetched so far
        conf.setdefault("max.poll.records", 1 << 30)
        self._conf = conf
        self._records = AioRecords(key_deserializer, value_deserializer)
        self._record = self._records.one
        self._topics = topics
        self._consumer: AsyncConsumer | None = None
        self._held = RecordQueue()
        self._in_listener = 0
        self._stopped = False
        self._pending: tuple[str, Any, Any] | None = None  # a subscribe/assign made before start()
        self._groupless: list[str] | re.Pattern[str] | None = None
        self._next_lookup = 0.0
        self._deferred: KafkaError | None = None  # what start()'s first poll raised

    def _under(self) -> AsyncConsumer | None:
        return self._consumer

    def _stopped_already(self) -> bool:
        return self._stopped

    def _network(self, under: AsyncConsumer) -> NetworkClient:
        return under.consumer.client

    async def _start(self) -> None:
        self._consumer = AsyncConsumer(self._conf)
        if self._topics:
            self.subscribe(list(self._topics))
        elif self._pending is not None:
            what, arg, listener = self._pending
            if what == "assign":
                self.assign(arg)
            else:
                if isinstance(arg, re.Pattern):
                    self.subscribe(pattern=arg.pattern, listener=listener)
                else:
                    self.subscribe(arg, listener=listener)
        if self._topics or self._pending is not None:
            # as aiokafka's start(): partitions looked up and fetching under way before the first
            # getone/getmany (a poll that waits for nothing; what it returns is queued).  What it
            # raises (no offset to start from, ...) the first getone/getmany raises, as aiokafka's.
            try:
                self._held.extend(await self._poll(0, None, set()))
            except KafkaError as exc:
                self._deferred = exc
        self._pending = None

    async def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        if self._consumer is None:
            return
        self._held.rewind(self._consumer.seek)
        await self._consumer.close()

    # -- what runs where

    def _wait(self, fn: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        """A waiting client call: on the consumer's worker, or, inside a listener (the worker waits
        for it), on a thread of its own."""
        if self._in_listener:
            return asyncio.get_running_loop().run_in_executor(None, functools.partial(fn, *args))
        return self.client.run(fn, *args)

    # -- subscription

    def subscribe(self, topics: Iterable[str] | None = None, pattern: str | None = None,
                  listener: ConsumerRebalanceListener | None = None) -> None:
        # aiokafka's checks and errors: the arguments are refused before anything is subscribed
        if not (topics or pattern):
            raise TypeError("You should provide either `topics` or `pattern`")
        if topics and pattern:
            raise TypeError("You can't provide both `topics` and `pattern`")
        if topics is not None and not isinstance(topics, (tuple, set, list)):
            raise TypeError("Topics should be list of strings")
        if self._consumer is None:
            self._pending = ("subscribe", list(topics) if topics else re.compile(pattern or ""), listener)
            return
        what: Any = list(topics) if topics else re.compile(pattern or "")
        if self._conf.get("group.id") is None:
            # as aiokafka: without a group, every partition of the topics (looked up again as the
            # cluster's metadata changes), nothing committed, the listener not told
            self._groupless = what
            self._next_lookup = 0.0
            return
        self.client.subscribe(what, _Listener(self, listener, asyncio.get_running_loop()))

    def _follow_topics(self) -> None:
        """A group-less subscription's partitions, assigned anew when the topics' partitions
        changed (on the worker thread, before a poll)."""
        if self._groupless is None or time.monotonic() < self._next_lookup:
            return
        c = self.client.consumer
        self._next_lookup = time.monotonic() + (c.conf["metadata.max.age.ms"] / 1000 if c.assignment() else 0.5)
        wanted = groupless_partitions(self._groupless, c.topics())[1]
        had = c.assignment()
        if wanted != had:
            self._held.drop(had - wanted)
            c.assign(sorted(wanted))

    def _groupless_poll(self, timeout: float, max_records: int | None) -> list[_Record]:
        self._follow_topics()
        if not self.client.consumer.assignment():
            time.sleep(timeout)  # the worker thread's: no topic of the subscription exists yet
            return []
        return self.client.consumer.poll(timeout, max_records)

    def subscription(self) -> frozenset[str]:
        if self._groupless is not None and not isinstance(self._groupless, re.Pattern):
            return frozenset(self._groupless)
        return frozenset(tp.topic for tp in self.assignment())

    def unsubscribe(self) -> None:
        self._held.clear()
        self._groupless = None
        self.client.consumer.unsubscribe()

    def assign(self, partitions: Iterable[TopicPartition]) -> None:
        if self._consumer is None:
            self._pending = ("assign", list(partitions), None)
            return
        self._held.clear()
        self.client.assign(partitions)

    def assignment(self) -> set[TopicPartition]:
        return self.client.assignment()

    # -- records

    def _check(self) -> None:
        if self._stopped:
            raise ConsumerStoppedError()

    async def getone(self, *partitions: TopicPartition) -> ConsumerRecord[Any, Any]:
        """The next record (of `partitions` when given), waiting for it as long as it takes."""
        wanted = set(partitions)
        while True:
            self._check()
            if self._held and not wanted:
                return self._record(self._held.popleft())
            for i, r in enumerate(self._held):
                if not wanted or (r.topic, r.partition) in wanted:
                    del self._held[i]
                    return self._record(r)
            if self._held and wanted:
                # records of other partitions queued first: take more without handing those out
                pass
            elif self._held:
                continue
            # awaited first: a listener running meanwhile may change the queue
            records = await self._poll(0.2, None, wanted)
            self._held.extend(records)

    async def _poll(self, timeout: float, max_records: int | None, wanted: set[TopicPartition]) -> list[_Record]:
        if self._deferred is not None:
            exc, self._deferred = self._deferred, None
            raise exc
        c = self.client
        if self._groupless is not None:
            return await c.run(self._groupless_poll, timeout, max_records)
        if not wanted:
            return await c.poll(timeout, max_records)
        others = [tp for tp in c.assignment() if tp not in wanted and tp not in c.paused()]
        c.pause(others)
        try:
            return await c.poll(timeout, max_records)
        finally:
            c.resume(others)

    async def getmany(self, *partitions: TopicPartition, timeout_ms: int = 0,
                      max_records: int | None = None) -> dict[TopicPartition, list[ConsumerRecord[Any, Any]]]:
        """{TopicPartition: [records]} fetched so far, waiting up to timeout_ms for the first."""
        self._check()
        wanted = set(partitions)
        taken = self._held.take(max_records, wanted) if self._held else []
        if not taken:
            # nothing queued of these partitions (records of others may be): wait for theirs
            taken = await self._poll(timeout_ms / 1000, max_records, wanted)
            if wanted and self._groupless is not None:
                # a group-less poll reads every partition: the others' records wait in the queue
                self._held.extend(taken)
                taken = self._held.take(max_records, wanted)
        return self._records.by_partition(taken)

    def __aiter__(self) -> AsyncIterator[ConsumerRecord[Any, Any]]:
        return self

    async def __anext__(self) -> ConsumerRecord[Any, Any]:
        if self._held and not self._stopped:
            return self._record(self._held.popleft())  # getone's first step, without its coroutine
        try:
            return await self.getone()
        except ConsumerStoppedError:
            raise StopAsyncIteration from None

    # -- positions

    def seek(self, partition: TopicPartition, offset: int) -> None:
        self._held.drop([partition])
        self.client.seek(partition, offset)

    async def seek_to_beginning(self, *partitions: TopicPartition) -> bool:
        tps = list(partitions) or list(self.assignment())
        self._held.drop(tps)
        self.client.seek_to_beginning(tps)
        return True

    async def seek_to_end(self, *partitions: TopicPartition) -> bool:
        tps = list(partitions) or list(self.assignment())
        self._held.drop(tps)
        self.client.seek_to_end(tps)
        return True

    async def seek_to_committed(self, *partitions: TopicPartition) -> dict[TopicPartition, int | None]:
        tps = list(partitions) or list(self.assignment())
        found = await self._wait(self.client.consumer.committed, tps)
        for tp, offset in found.items():
            if offset is not None:
                self.seek(tp, offset)
        return found

    async def position(self, partition: TopicPartition) -> int:
        queued = self._held.position(partition)
        if queued is not None:
            return queued
        return await self._wait(self.client.consumer.position, partition)

    def _group_required(self) -> None:
        # as aiokafka's: committed offsets belong to a group, asking without one is refused before
        # anything is sent
        if self._conf.get("group.id") is None:
            raise IllegalOperation("Requires group_id")

    async def committed(self, partition: TopicPartition) -> int | None:
        self._group_required()
        return (await self._wait(self.client.consumer.committed, [partition])).get(partition)

    async def commit(self, offsets: Mapping[TopicPartition, int | OffsetAndMetadata | tuple[int, str]]
                     | None = None) -> None:
        """Commit `offsets` ({tp: offset | OffsetAndMetadata}), default the records handed out."""
        self._group_required()
        if offsets is None:
            plain = {}
            for tp in self.assignment():
                plain[tp] = await self.position(tp)
        else:
            plain = plain_offsets(offsets, "commit")
        await self._wait(self.client.consumer.commit, plain)

    def highwater(self, partition: TopicPartition) -> int | None:
        return self.client.consumer.get_watermark_offsets(partition, cached=True)[1]

    def last_stable_offset(self, partition: TopicPartition) -> int | None:
        # the client's cached answer is the last stable offset under read_committed; without
        # transactions in flight it equals the high watermark
        return self.client.consumer.get_watermark_offsets(partition, cached=True)[1]

    def last_poll_timestamp(self, partition: TopicPartition) -> None:
        raise NotImplementedError("last_poll_timestamp: kafkacodec keeps no such time; use time.time() "
                                  "after getmany")

    def _pausing(self) -> AsyncConsumer:
        return self.client

    async def beginning_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int | None]:
        return await self._wait(self.client.consumer.beginning_offsets, list(partitions))

    async def end_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int | None]:
        return await self._wait(self.client.consumer.end_offsets, list(partitions))

    async def offsets_for_times(self, timestamps: Mapping[TopicPartition, int]
                                ) -> dict[TopicPartition, OffsetAndTimestamp | None]:
        found = await self._wait(self.client.consumer.offsets_for_times, dict(timestamps))
        return {tp: None if v is None or v.offset is None else OffsetAndTimestamp(v.offset, v.timestamp)
                for tp, v in found.items()}

    async def topics(self) -> set[str]:
        return set(await self._wait(self.client.consumer.topics))

    async def partitions_for_topic(self, topic: str) -> set[int] | None:
        count = (await self._wait(self.client.consumer.topics)).get(topic)
        return None if count is None else set(range(count))
