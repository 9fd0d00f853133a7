"""The share consumer (KIP-932, queues): members of a share group split the records of the
partitions they share, each record acquired by one member at a time and acknowledged.

    c = ShareConsumer({"bootstrap.servers": bs, "group.id": "workers"})
    c.subscribe(["jobs"])
    for record in c.poll(1.0):      # ShareRecord: a record and its delivery_count
        ...                         # implicit mode: accepted by the next poll()
    c.close()                       # acknowledges what it took, releases what it did not

With ``share.acknowledgement.mode=explicit`` each record is acknowledged with
``acknowledge(record, AcknowledgeType.ACCEPT | RELEASE | REJECT)``; the acknowledgements
travel with the next fetch, or at once with ``commit_sync``/``commit_async``, and
their outcome reaches the acknowledgement-commit callback inside ``poll``/``commit_*``.
A record left unacknowledged past the broker's lock goes to another member.
Fetching and the group's heartbeat run on the I/O thread (share_fetcher.py).
"""
from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from kafkacodec.records import Record, decode_records
from kafkacodec.client import _waits
from kafkacodec.client import errors as E
from kafkacodec.client._lifecycle import AsyncOverWorker, ClosedOnExit, StopsWhenCollected, new_sasl_credentials, weakly
from kafkacodec.client.config import resolve
from kafkacodec.client.config.share import SHARE_CONSUMER
from kafkacodec.client.network import NetworkClient
from kafkacodec.client.share_fetcher import ACCEPT, GAP, REJECT, RELEASE, ShareFetch, ShareFetcher
from kafkacodec.client.types import TopicPartition

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["ShareConsumer", "AsyncShareConsumer", "ShareRecord", "AcknowledgeType", "AckCommitCallback"]

_T = TypeVar("_T")

#: fn({TopicPartition: offsets}, error or None): how acknowledgements ended, called in poll()/commit_*()
AckCommitCallback = Callable[[dict[TopicPartition, set[int]], "BaseException | None"], object]


class AcknowledgeType(enum.IntEnum):
    """How a record is acknowledged (the protocol's values)."""

    ACCEPT = ACCEPT    # processed: never delivered again
    RELEASE = RELEASE  # back to the group: delivered again, its delivery count one higher
    REJECT = REJECT    # unprocessable: archived, never delivered again


class ShareRecord:
    """A record as Consumer.poll() returns it, with how many times it has been delivered."""

    __slots__ = ("record", "delivery_count")

    def __init__(self, record: Record, delivery_count: int) -> None:
        self.record = record
        self.delivery_count = delivery_count

    topic = property(lambda self: self.record.topic)
    partition = property(lambda self: self.record.partition)
    offset = property(lambda self: self.record.offset)
    key = property(lambda self: self.record.key)
    value = property(lambda self: self.record.value)
    headers = property(lambda self: self.record.headers)
    timestamp = property(lambda self: self.record.timestamp)
    timestamp_type = property(lambda self: self.record.timestamp_type)

    def __repr__(self) -> str:
        r = self.record
        return (f"ShareRecord(topic={r.topic!r}, partition={r.partition}, offset={r.offset}, "
                f"delivery_count={self.delivery_count}, key={r.key!r}, value={r.value!r})")


def _ack_type(value: object) -> int:
    try:
        kind = AcknowledgeType(value)  # type: ignore[arg-type]  # anything: checked here
    except (ValueError, TypeError):
        raise E.InvalidArgumentError(f"acknowledge type: expected ACCEPT, RELEASE or REJECT, got {value!r}") from None
    return int(kind)


class ShareConsumer(ClosedOnExit, StopsWhenCollected):
    """A member of a share group (KIP-932): records of the subscribed topics, each acquired by
    one member at a time and acknowledged.

    Settings (``kafkacodec.client.config.SHARE_CONSUMER``; ``python -m kafkacodec.client.config
    --kind share_consumer`` lists them): the connection settings every client takes, ``group.id``
    (required), the consumer's fetch settings (``fetch.min.bytes``, ``fetch.max.wait.ms``,
    ``fetch.max.bytes``, ``max.poll.records``, ``check.crcs``, ``max.decompressed.bytes``,
    ``fetch.error.backoff.ms``, ``default.api.timeout.ms``) and

    ``share.acknowledgement.mode``
        ``implicit`` (default): the records a poll() returns are accepted by the next poll(),
        commit_sync()/commit_async() or close().  ``explicit``: each record is acknowledged with
        acknowledge(record, ACCEPT | RELEASE | REJECT); close() releases the ones that were not.
    ``share.fetch.max.records``
        Most records one ShareFetch acquires from a broker (0, the default: max.poll.records).
        Acquired records stay locked to this member until acknowledged or the broker's lock
        (its ``group.share.record.lock.duration.ms``) ends.

    A classic member's settings (offsets, assignors, auto commit) are refused: the share
    group's coordinator keeps the state of each record.
    """

    def __init__(self, config: Mapping[str, Any] | None = None, **settings: Any) -> None:
        self.conf = conf = resolve(config, settings, SHARE_CONSUMER, "share consumer")
        if not conf["group.id"]:
            raise E.ConfigError("group.id: required (the share group to join)")
        self._explicit = conf["share.acknowledgement.mode"] == "explicit"
        self._timeout = conf["default.api.timeout.ms"] / 1000
        self._max_records: int = conf["max.poll.records"]
        self._verify_crc: bool = conf["check.crcs"]
        self._max_decompressed = conf["max.decompressed.bytes"]
        self._client = NetworkClient(conf, name="kafkacodec-share-consumer-io")
        self._fetcher = ShareFetcher(self._client, conf)
        self._fetcher.ack_listener = weakly(self._acks_answered)
        self._fetcher.lost_listener = weakly(self._session_lost)
        # records handed out and not acknowledged yet: {tp: {offset: None}} (insertion-ordered sets)
        self._delivered: dict[TopicPartition, dict[int, None]] = {}
        # records handed out whose session was lost before they were acknowledged: the group has
        # them back; acknowledging one does nothing (the callback heard of it)
        self._stale: dict[TopicPartition, set[int]] = {}
        self._answers: list[tuple[dict[TopicPartition, set[int]], BaseException | None]] = []
        self._commit_results: dict[TopicPartition, BaseException | None] | None = None
        self._callback: AckCommitCallback | None = None
        self._closed = False
        self._client.add_ticker(self._fetcher)

    # -- open or closed

    def _check_open(self) -> None:
        if self._closed:
            raise E.ClientClosedError("the share consumer is closed")

    # -- membership

    def subscribe(self, topics: str | Iterable[str]) -> None:
        """Join the share group ``group.id`` for these topics; replaces the subscription."""
        self._check_open()
        names = [topics] if isinstance(topics, str) else list(topics)
        if not names or not all(isinstance(t, str) and t for t in names):
            raise E.InvalidArgumentError(f"topics: expected topic names, got {topics!r}")
        self._fetcher.subscribe(names)

    def subscription(self) -> list[str]:
        """The topics subscribed to."""
        return list(self._fetcher.subscription)

    def unsubscribe(self) -> None:
        """Leave the share group; in implicit acknowledgement mode the records handed out are accepted first."""
        self._check_open()
        self._settle_delivered()
        self._fetcher.leave().result(self._timeout)
        with self._fetcher.lock:
            self._fetcher.subscription = []
            self._fetcher._leaving = None
            self._release_buffered()

    def assignment(self) -> set[TopicPartition]:
        """The partitions the coordinator shares with this member now."""
        return set(self._fetcher.assigned)

    @property
    def member_id(self) -> str:
        """This member's id in the share group."""
        return self._fetcher.member_id

    def set_acknowledgement_commit_callback(self, callback: AckCommitCallback | None) -> None:
        """callback({tp: offsets}, error or None) for each acknowledgement answered, called inside
        poll(), commit_sync() and commit_async() on the calling thread."""
        if callback is not None and not callable(callback):
            raise E.InvalidArgumentError(f"callback: expected a callable or None, got {callback!r}")
        self._callback = callback

    @property
    def client(self) -> NetworkClient:
        """The network client under this consumer (its I/O thread and connections)."""
        return self._client

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """New SASL PLAIN/SCRAM credentials for the connections made from now on."""
        new_sasl_credentials(self.conf, username, password)

    # -- acknowledging

    def acknowledge(self, record: Any, type: Any = AcknowledgeType.ACCEPT) -> None:
        """Acknowledge one record poll() returned (explicit mode; in implicit mode a record
        acknowledged otherwise than ACCEPT before the next poll keeps that type)."""
        self.acknowledge_offset(record.topic, record.partition, record.offset, type)

    def acknowledge_offset(self, topic: str, partition: int, offset: int, type: Any = AcknowledgeType.ACCEPT) -> None:
        """acknowledge() by the record's topic, partition and offset."""
        self._check_open()
        kind = _ack_type(type)
        tp = TopicPartition(topic, partition)
        with self._fetcher.lock:
            held = self._delivered.get(tp)
            stale = self._stale.get(tp)
            if stale is not None and offset in stale and (held is None or offset not in held):
                stale.discard(offset)
                return
            if held is None or offset not in held:
                raise E.IllegalStateError(f"{topic} [{partition}] offset {offset}: not a record this consumer "
                                          f"holds unacknowledged")
            del held[offset]
            self._fetcher.acknowledge(tp, (offset,), kind)

    def _settle_delivered(self) -> None:
        """Implicit mode: every record handed out and not acknowledged is accepted."""
        if self._explicit or not self._delivered:
            return
        with self._fetcher.lock:
            for tp, offsets in self._delivered.items():
                if offsets:
                    self._fetcher.acknowledge(tp, offsets, ACCEPT)
            self._delivered = {}
        self._client.wakeup()

    def _session_lost(self, partitions: set[TopicPartition]) -> None:
        # the I/O thread, under the fetcher's lock
        lost: dict[TopicPartition, set[int]] = {}
        for tp in partitions:
            offsets = self._delivered.pop(tp, None)
            if offsets:
                lost[tp] = set(offsets)
                self._stale.setdefault(tp, set()).update(offsets)
        if lost:
            self._acks_answered(lost, E.error_for(E.ErrorCode.SHARE_SESSION_NOT_FOUND,
                                                  "share session lost before these records were acknowledged"))

    def _acks_answered(self, offsets: dict[TopicPartition, set[int]], error: BaseException | None) -> None:
        # the I/O thread, under the fetcher's lock: kept for the caller's thread
        self._answers.append((offsets, error))
        if self._commit_results is not None:
            for tp in offsets:
                if self._commit_results.get(tp) is None:
                    self._commit_results[tp] = error

    def _serve_callbacks(self) -> None:
        with self._fetcher.lock:
            answers, self._answers = self._answers, []
        callback = self._callback
        if callback is None:
            return
        errors = []
        for offsets, error in answers:
            try:
                callback(offsets, error)
            except Exception as exc:  # every callback runs; the first failure is raised after
                errors.append(exc)
        if errors:
            raise E.CallbackError(f"{len(errors)} acknowledgement callback(s) raised; the first: "
                                  f"{type(errors[0]).__name__}: {errors[0]}", errors) from errors[0]

    def commit_sync(self, timeout: float | None = None) -> dict[TopicPartition, BaseException | None]:
        """Send the acknowledgements made so far now and wait for their answers: {tp: None or the
        error}.  Implicit mode accepts the records of the last poll first."""
        self._check_open()
        self._settle_delivered()
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        fetcher = self._fetcher
        with fetcher.lock:
            self._commit_results = {tp: None for tp in fetcher.pending}
            fetcher.flush = True
            self._client.wakeup()
            try:
                while not fetcher.idle():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise E.KafkaTimeoutError("commit_sync: acknowledgements not answered before the timeout")
                    _waits.wait(fetcher.ready, left)
                results = self._commit_results
            finally:
                fetcher.flush = False
                self._commit_results = None
        self._serve_callbacks()
        return results

    def commit_async(self) -> None:
        """Send the acknowledgements made so far now; their outcome reaches the callback."""
        self._check_open()
        self._settle_delivered()
        with self._fetcher.lock:
            if self._fetcher.pending:
                self._fetcher.flush = True
        self._client.wakeup()
        self._serve_callbacks()

    # -- records

    def poll(self, timeout: float | None = None, max_records: int | None = None) -> list[ShareRecord]:
        """Records acquired for this member (at most max_records, default max.poll.records),
        waiting up to `timeout` seconds (None: without end) for the first."""
        return self._poll(timeout, max_records, self._take_records)

    def poll_arrow(self, timeout: float | None = None, max_records: int | None = None) -> pa.RecordBatch:
        """poll() as one pyarrow.RecordBatch: topic, partition, the codec's columns and
        delivery_count; in implicit mode its rows are accepted by the next poll."""
        import pyarrow as pa
        parts = self._poll(timeout, max_records, self._take_arrow)
        if not parts:
            return _empty_arrow()
        if len(parts) == 1:
            return parts[0]
        return pa.Table.from_batches(parts).combine_chunks().to_batches()[0]

    def _poll(self, timeout: float | None, max_records: int | None, take: Callable[[list[ShareFetch]], list[_T]]
              ) -> list[_T]:
        self._check_open()
        limit = self._max_records if max_records is None else max_records
        if limit < 1:
            raise E.InvalidArgumentError(f"max_records: expected at least 1, got {limit}")
        self._settle_delivered()
        self._serve_callbacks()
        fetcher = self._fetcher
        deadline = None if timeout is None else time.monotonic() + max(0.0, timeout)
        with fetcher.lock:
            while True:
                if fetcher.fatal is not None:
                    raise fetcher.fatal
                if fetcher.error is not None:
                    error, fetcher.error = fetcher.error, None
                    raise error
                if fetcher.completed:
                    taken: list[ShareFetch] = []
                    count = 0
                    while fetcher.completed and count < limit:
                        f = fetcher.completed.popleft()
                        n = sum(last - first + 1 for first, last, _ in f.acquired)
                        if count + n > limit:
                            # the rest of the answer stays first in line for the next poll
                            head, tail = _split(f.acquired, limit - count)
                            fetcher.completed.appendleft(ShareFetch(f.tp, f.node, f.data, tail))
                            f = ShareFetch(f.tp, f.node, f.data, head)
                            n = limit - count
                        else:
                            fetcher.taken(f)
                        taken.append(f)
                        count += n
                    break
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return []
                _waits.wait(fetcher.ready, left if left is None else min(left, 1.0))
                if self._closed:
                    raise E.ClientClosedError("the share consumer is closed")
        return take(taken)

    def _hand_out(self, tp: TopicPartition, offsets: Iterable[int], acquired: list[tuple[int, int, int]],
                  kept: int) -> None:
        """Offsets handed out; the acquired offsets without a record (control records, compacted
        away) are acknowledged as gaps at once."""
        with self._fetcher.lock:
            held = self._delivered.get(tp)
            if held is None:
                held = self._delivered[tp] = {}
            held.update(dict.fromkeys(offsets))
            stale = self._stale.get(tp)
            if stale:
                stale.difference_update(held)
            if kept < sum(last - first + 1 for first, last, _ in acquired):
                present = set(held)
                gaps = [o for first, last, _ in acquired for o in range(first, last + 1) if o not in present]
                self._fetcher.acknowledge(tp, gaps, GAP)

    def _take_records(self, fetches: list[ShareFetch]) -> list[ShareRecord]:
        out: list[ShareRecord] = []
        for f in fetches:
            tp = f.tp
            records = decode_records(f.data, verify_crc=self._verify_crc, max_decompressed_size=self._max_decompressed,
                                     topic=tp.topic, partition=tp.partition)
            acquired = f.acquired
            if len(acquired) == 1:
                first, last, count = acquired[0]
                kept = [ShareRecord(r, count) for r in records if first <= r.offset <= last]
            else:
                kept = []
                i = 0
                for r in records:
                    offset = r.offset
                    while i < len(acquired) and acquired[i][1] < offset:
                        i += 1
                    if i == len(acquired):
                        break
                    if acquired[i][0] <= offset:
                        kept.append(ShareRecord(r, acquired[i][2]))
            self._hand_out(tp, (s.record.offset for s in kept), acquired, len(kept))
            out.extend(kept)
        return out

    def _take_arrow(self, fetches: list[ShareFetch]) -> list[pa.RecordBatch]:
        import numpy as np
        import pyarrow as pa
        from kafkacodec import arrow as ka
        parts = []
        for f in fetches:
            tp = f.tp
            rb = ka.decode(f.data, verify_crc=self._verify_crc, max_decompressed_size=self._max_decompressed)
            offsets = rb.column(0).to_numpy()
            mask = np.zeros(len(offsets), dtype=bool)
            counts = np.zeros(len(offsets), dtype=np.int16)
            for first, last, count in f.acquired:
                inside = (offsets >= first) & (offsets <= last)
                mask |= inside
                counts[inside] = count
            if not mask.all():
                rb = rb.filter(pa.array(mask))
                counts = counts[mask]
            n = rb.num_rows
            self._hand_out(tp, offsets[mask].tolist(), f.acquired, n)
            parts.append(pa.RecordBatch.from_arrays(
                [pa.array([tp.topic] * n, pa.string()), pa.array(np.full(n, tp.partition, dtype=np.int32))]
                + rb.columns + [pa.array(counts)], schema=_arrow_schema()))
        return parts

    def _release_buffered(self) -> None:
        """Under lock: what was fetched and not handed out goes back to the group."""
        fetcher = self._fetcher
        while fetcher.completed:
            f = fetcher.completed.popleft()
            fetcher.taken(f)
            fetcher.acknowledge(f.tp, (o for first, last, _ in f.acquired for o in range(first, last + 1)), RELEASE)

    # -- shutdown

    def close(self, timeout: float | None = None) -> None:
        """Accept (implicit mode) or release (explicit: those not acknowledged) the records handed
        out, release those fetched and not handed out, send the acknowledgements, leave the group."""
        if self._closed:
            return
        deadline = time.monotonic() + (min(self._timeout, 30.0) if timeout is None else timeout)
        fetcher = self._fetcher
        try:
            self._settle_delivered()
            with fetcher.lock:
                fetcher.closing = True
                for tp, offsets in self._delivered.items():
                    if offsets:
                        fetcher.acknowledge(tp, offsets, RELEASE)
                self._delivered = {}
                self._release_buffered()
                self._client.wakeup()
                while ((not fetcher.idle() or any(s.in_flight for s in fetcher.sessions.values()))
                       and time.monotonic() < deadline):
                    _waits.wait(fetcher.ready, max(0.0, min(0.2, deadline - time.monotonic())))
                    self._release_buffered()
            try:
                fetcher.leave().result(max(0.0, deadline - time.monotonic()))
            except Exception:
                pass  # the coordinator expels a member that stops heartbeating
            try:
                self._serve_callbacks()
            except E.CallbackError:
                pass
        finally:
            self._closed = True
            with fetcher.lock:
                fetcher.ready.notify_all()
            self._client.close()


def _split(acquired: list[tuple[int, int, int]], n: int
           ) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """Acquired ranges as their first n offsets and the rest."""
    head: list[tuple[int, int, int]] = []
    tail: list[tuple[int, int, int]] = []
    for first, last, count in acquired:
        size = last - first + 1
        if n >= size:
            head.append((first, last, count))
            n -= size
        elif n > 0:
            head.append((first, first + n - 1, count))
            tail.append((first + n, last, count))
            n = 0
        else:
            tail.append((first, last, count))
    return head, tail


class AsyncShareConsumer(AsyncOverWorker[ShareConsumer, ShareRecord]):
    """The ShareConsumer for asyncio: its waiting calls run on one worker thread of their own,
    in order; acknowledge() and subscribe() return at once.  ``async for record in consumer``
    takes the records as they come (implicit mode: each poll accepts the records of the one before)."""

    def __init__(self, config: Mapping[str, Any] | None = None, **settings: Any) -> None:
        super().__init__(ShareConsumer(config, **settings), "kafkacodec-share-async")

    @property
    def consumer(self) -> ShareConsumer:
        return self._consumer

    def subscribe(self, topics: str | Iterable[str]) -> None:
        """As `ShareConsumer.subscribe`: join the share group `group.id` for these topics."""
        self._consumer.subscribe(topics)

    def acknowledge(self, record: Any, type: Any = AcknowledgeType.ACCEPT) -> None:
        """As `ShareConsumer.acknowledge`: ACCEPT, RELEASE or REJECT a record this member holds."""
        self._consumer.acknowledge(record, type)

    def set_acknowledgement_commit_callback(self, callback: AckCommitCallback | None) -> None:
        """As `ShareConsumer.set_acknowledgement_commit_callback`."""
        self._consumer.set_acknowledgement_commit_callback(callback)

    async def poll(self, timeout: float | None = None, max_records: int | None = None) -> list[ShareRecord]:
        """Await `ShareConsumer.poll` on the worker thread: records acquired for this member, up to `timeout` seconds."""
        return await self._run(self._consumer.poll, timeout, max_records)

    async def poll_arrow(self, timeout: float | None = None, max_records: int | None = None) -> pa.RecordBatch:
        """Await `ShareConsumer.poll_arrow`: the acquired records as one Arrow batch."""
        return await self._run(self._consumer.poll_arrow, timeout, max_records)

    async def commit_sync(self, timeout: float | None = None) -> dict[TopicPartition, BaseException | None]:
        """Await `ShareConsumer.commit_sync`: send the acknowledgements now; the error of each partition, if any."""
        return await self._run(self._consumer.commit_sync, timeout)

    async def commit_async(self) -> None:
        """Await `ShareConsumer.commit_async`: the acknowledgements go with the next request."""
        await self._run(self._consumer.commit_async)

    async def close(self, timeout: float | None = None) -> None:
        """Await `ShareConsumer.close`: release the records held, leave the group, stop the worker thread."""
        await self._close_on_worker(self._consumer.close, timeout)


_SCHEMA: Any = None


def _arrow_schema() -> pa.Schema:
    global _SCHEMA
    if _SCHEMA is None:
        import pyarrow as pa
        from kafkacodec import arrow as ka
        _SCHEMA = pa.schema([pa.field("topic", pa.string(), nullable=False),
                             pa.field("partition", pa.int32(), nullable=False)] + list(ka.schema())
                            + [pa.field("delivery_count", pa.int16(), nullable=False)])
    return _SCHEMA


def _empty_arrow() -> pa.RecordBatch:
    import pyarrow as pa
    schema = _arrow_schema()
    return pa.RecordBatch.from_arrays([pa.array([], type=f.type) for f in schema], schema=schema)
