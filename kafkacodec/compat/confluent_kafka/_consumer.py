"""confluent-kafka's Consumer over kafkacodec's Consumer.

The client does what librdkafka does: it commits *stored* offsets (``enable.auto.offset.store``,
``store_offsets()``) every ``auto.commit.interval.ms``, on revoke and on close, notes partition
ends (``enable.partition.eof``) and reports commits (``offset_commit_cb``); the face gives its
calls confluent-kafka's names, types and events.
"""
from __future__ import annotations

import logging
import re
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kafkacodec.client import Consumer as _Consumer
from kafkacodec.client import RebalanceListener
from kafkacodec.client.consumer import PartitionEOF
from kafkacodec.client import errors as E
from kafkacodec.compat.confluent_kafka import _config, _metadata
from kafkacodec.compat.confluent_kafka._closing import ClosedOnExit
from kafkacodec.compat.confluent_kafka._errors import CODES, KafkaError, KafkaException, exception_from, \
    from_exception, make_client
from kafkacodec.compat.confluent_kafka._producer import _seconds
from kafkacodec.compat.confluent_kafka._types import (OFFSET_BEGINNING, OFFSET_END, OFFSET_INVALID, OFFSET_STORED,
                                                      RECORD_CLASS, ClusterMetadata, Message, TopicPartition,
                                                      messages_over)

if TYPE_CHECKING:
    from kafkacodec.client import TopicPartition as _ClientTopicPartition
    from kafkacodec.client.transaction import ConsumerGroupMetadata

__all__ = ["Consumer", "settings"]

# (topic, partition)
_Key = tuple[str, int]
# on_assign(consumer, partitions), and so on_revoke and on_lost
RebalanceCallback = Callable[["Consumer", list[TopicPartition]], object]
# librdkafka's rebalance_cb(consumer, KafkaError(_ASSIGN_PARTITIONS or _REVOKE_PARTITIONS), partitions)
RebalanceEventCallback = Callable[["Consumer", KafkaError, list[TopicPartition]], object]

log = logging.getLogger("kafkacodec.compat")

# a wait "forever" is made of steps this long, so that a subscription made meanwhile is polled
_STEP = 0.5


def _tps(items: Iterable[_ClientTopicPartition]) -> list[TopicPartition]:
    """The partitions in the order given (a rebalance's: the coordinator's, as librdkafka's)."""
    return [TopicPartition(tp.topic, tp.partition) for tp in items]


def _pattern(topics: list[str]) -> re.Pattern[str] | None:
    """librdkafka's subscription list (names, and regexes starting with ^) as one pattern for kafkacodec,
    which full-matches topic names; None when every entry is a plain name."""
    if not any(t.startswith("^") for t in topics):
        return None
    parts = [f"(?:{t[1:]}).*" if t.startswith("^") else re.escape(t) for t in topics]
    return re.compile("|".join(f"(?:{p})" for p in parts))


def _with_offsets(offsets: Mapping[Any, int]) -> list[TopicPartition]:
    # keys: the client's TopicPartition or (topic, partition) pairs
    return [TopicPartition(topic, partition, o) for (topic, partition), o in sorted(offsets.items())]


def _eof_event(eof: PartitionEOF) -> Message:
    return Message(eof.topic, eof.partition, eof.offset,
                   error=KafkaError(CODES["_PARTITION_EOF"], f"Fetch from broker reached end of partition at "
                                                             f"offset {eof.offset} (HighwaterMark {eof.high_watermark})"))


def _next_offset(message: Message) -> tuple[_Key, int]:
    """((topic, partition), offset + 1) of a consumed message, to commit or store."""
    topic, partition, offset = message.topic(), message.partition(), message.offset()
    if topic is None or partition is None or offset is None:
        raise KafkaException(KafkaError(CODES["_INVALID_ARG"], f"message has no topic, partition and offset: "
                                                               f"{message!r}"))
    return (topic, partition), offset + 1


class _Listener(RebalanceListener):
    """kafkacodec's rebalance callbacks -> on_assign / on_revoke / on_lost (on_revoke when no on_lost);
    inside them, assign() and unassign() tell where the assigned partitions start.  It refers to
    the face weakly: the client's I/O thread keeps the listener, and a Consumer no longer referred
    to must still be collected (and stop its client), as confluent-kafka's is."""

    def __init__(self, face: Consumer, on_assign: RebalanceCallback | None, on_revoke: RebalanceCallback | None,
                 on_lost: RebalanceCallback | None, rebalance_cb: RebalanceEventCallback | None = None) -> None:
        self._face = weakref.ref(face)
        self.on_assign, self.on_revoke, self.on_lost = on_assign, on_revoke, on_lost
        if rebalance_cb is not None and on_assign is None and on_revoke is None and on_lost is None:
            # librdkafka's rebalance_cb serves where subscribe() names no callback
            self.on_assign = self._rebalance_event(rebalance_cb, "_ASSIGN_PARTITIONS")
            self.on_revoke = self._rebalance_event(rebalance_cb, "_REVOKE_PARTITIONS")

    def _rebalance_event(self, rebalance_cb: RebalanceEventCallback, code: str) -> RebalanceCallback:
        """rebalance_cb as an on_assign/on_revoke: it must assign() (or incremental_assign()) what it
        is given, as librdkafka requires; partitions it does not are paused until assign() names them."""
        def call(face: Consumer, partitions: list[TopicPartition]) -> None:
            face._named_in_rebalance = set()
            rebalance_cb(face, KafkaError(CODES[code]), partitions)
            keys = {(tp.topic, tp.partition) for tp in partitions}
            if code == "_REVOKE_PARTITIONS":
                face._held -= keys
            elif keys - face._named_in_rebalance:
                left = keys - face._named_in_rebalance
                log.warning("rebalance_cb did not assign() %s: not consumed until assign() names them",
                            ", ".join(f"{t}[{p}]" for t, p in sorted(left)))
                face._c.pause(sorted(left))
                face._held |= left
        return call

    def _call(self, fn: RebalanceCallback | None, partitions: list[_ClientTopicPartition]) -> None:
        face = self._face()
        if fn is not None and face is not None:
            face._in_rebalance = True
            try:
                fn(face, _tps(partitions))
            finally:
                face._in_rebalance = False

    def on_partitions_assigned(self, consumer: _Consumer, partitions: list[_ClientTopicPartition]) -> None:
        self._call(self.on_assign, partitions)

    def on_partitions_revoked(self, consumer: _Consumer, partitions: list[_ClientTopicPartition]) -> None:
        self._call(self.on_revoke, partitions)

    def on_partitions_lost(self, consumer: _Consumer, partitions: list[_ClientTopicPartition]) -> None:
        self._call(self.on_lost or self.on_revoke, partitions)


def settings(config: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(kafkacodec's settings, the face's) of a confluent-kafka Consumer configuration."""
    conf, face = _config.translate(config, "C")
    if not conf.get("group.id"):
        # confluent-kafka's words (an empty group.id aborts the process there)
        raise ValueError("Failed to create consumer: group.id must be set")
    # the client decodes straight into the face's Messages where they are Records (compiled)
    conf["record_class"] = RECORD_CLASS
    on_commit = face.get("on_commit")
    if on_commit is not None:
        def report(offsets: dict[_ClientTopicPartition, int], error: BaseException | None) -> None:
            # the face's own outcomes (nothing to commit) come as KafkaException already
            err = (None if error is None else error.args[0] if isinstance(error, KafkaException)
                   else from_exception(error))
            on_commit(err, _with_offsets(offsets))
        conf["offset_commit_cb"] = report
    return conf, face


class Consumer(ClosedOnExit):
    """confluent-kafka's Consumer: ``poll()`` returns one Message (or an event), ``consume()`` a list."""

    def __init__(self, *args: dict[str, Any], **kwargs: Any) -> None:
        config = _config.given(args, kwargs, "Consumer")
        conf, face = settings(config)
        self._setup(conf, face, make_client(_Consumer, conf))

    def _setup(self, conf: dict[str, Any], face: dict[str, Any], client: _Consumer) -> None:
        """The face over `client`, made with `conf` (settings()); aio's AIOConsumer hands in its own."""
        self._conf = conf
        # no end-of-partition notes to hand out unless the client makes them
        self._eof_notes: bool = client.conf["enable.partition.eof"]
        self._error_cb: Callable[[KafkaError], object] | None = face.get("error_cb")
        self._c = client
        self._in_rebalance = False
        self._rebalance_cb: RebalanceEventCallback | None = face.get("rebalance_cb")
        self._named_in_rebalance: set[_Key] = set()  # what rebalance_cb's assign()/incremental_assign() named
        self._held: set[_Key] = set()  # given to rebalance_cb and not assigned by it: paused
        self._subscribed = False
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("Consumer closed")

    def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except E.KafkaError as exc:
            raise exception_from(exc) from exc

    # -- subscription and assignment

    def subscribe(self, topics: list[str] | tuple[str, ...], on_assign: RebalanceCallback | None = None,
                  on_revoke: RebalanceCallback | None = None, on_lost: RebalanceCallback | None = None) -> None:
        """Join the group for `topics` (names; entries starting with ^ are regexes)."""
        self._check_open()
        if isinstance(topics, str) or not isinstance(topics, (list, tuple)):
            raise TypeError("expected a list of topic names")
        for fn in (on_assign, on_revoke, on_lost):
            if fn is not None and not callable(fn):
                raise TypeError("on_assign, on_revoke and on_lost must be callable")
        pattern = _pattern(list(topics))
        listener = _Listener(self, on_assign, on_revoke, on_lost, self._rebalance_cb)
        self._call(self._c.subscribe, pattern if pattern is not None else list(topics), listener)
        self._subscribed = True

    def unsubscribe(self) -> None:
        self._check_open()
        self._call(self._c.unsubscribe)
        self._subscribed = False

    def _start_at(self, partitions: Iterable[TopicPartition]) -> None:
        """Positions given with TopicPartition.offset (librdkafka's logical offsets included)."""
        for tp in partitions:
            if tp.offset not in (OFFSET_INVALID, OFFSET_STORED):
                self._seek(tp)

    def assign(self, partitions: Iterable[TopicPartition]) -> None:
        """Consume `partitions` from their offsets (OFFSET_INVALID/STORED: the committed offset, else
        auto.offset.reset).  Inside on_assign this sets where the assigned partitions start."""
        self._check_open()
        partitions = list(partitions)
        if not (self._in_rebalance or self._subscribed):
            self._call(self._c.assign, [(tp.topic, tp.partition) for tp in partitions])
        self._took(partitions)
        self._start_at(partitions)

    def _took(self, partitions: list[TopicPartition]) -> None:
        """The group's partitions assign() names are consumed: rebalance_cb's, or held since it did not."""
        keys = {(tp.topic, tp.partition) for tp in partitions}
        if self._in_rebalance:
            self._named_in_rebalance |= keys
        held = self._held & keys
        if held:
            self._held -= held
            self._call(self._c.resume, sorted(held))

    def incremental_assign(self, partitions: Iterable[TopicPartition]) -> None:
        self._check_open()
        partitions = list(partitions)
        if not (self._in_rebalance or self._subscribed):
            current = {(tp.topic, tp.partition) for tp in self._c.assignment()}
            self._call(self._c.assign, sorted(current | {(tp.topic, tp.partition) for tp in partitions}))
        self._took(partitions)
        self._start_at(partitions)

    def incremental_unassign(self, partitions: Iterable[TopicPartition]) -> None:
        self._check_open()
        if self._in_rebalance or self._subscribed:
            return  # the group's revocation follows the callback
        gone = {(tp.topic, tp.partition) for tp in partitions}
        current = {(tp.topic, tp.partition) for tp in self._c.assignment()}
        self._call(self._c.assign, sorted(current - gone))

    def unassign(self) -> None:
        self._check_open()
        if self._in_rebalance or self._subscribed:
            return  # the group's revocation follows the callback
        self._call(self._c.assign, [])

    def assignment(self) -> list[TopicPartition]:
        self._check_open()
        return _tps(sorted(self._c.assignment()))

    # -- consuming

    def poll(self, timeout: float | None = -1) -> Message | None:
        """The next message or event, waiting up to `timeout` seconds (None or -1: until there is one);
        None when none came."""
        if not self._eof_notes and not self._closed:
            # the message ready now, with no clock read: what confluent-kafka's loop, one poll()
            # per message, mostly finds
            wait = _seconds(timeout)
            got, _ = self._step(0.0, 1, [])
            if not got:
                got = self._wait(1, wait, got)  # nothing ready: wait as consume() waits
        else:
            got = self._consume(1, timeout)
        return got[0] if got else None

    def consume(self, num_messages: int = 1, timeout: float | None = -1) -> list[Message]:
        """Up to num_messages messages and events, waiting until that many came or `timeout` passed."""
        if num_messages < 0 or num_messages > 1000000:
            raise ValueError("num_messages must be between 0 and 1000000 (1M)")
        return self._consume(num_messages, timeout)

    def _consume(self, n: int, timeout: float | None) -> list[Message]:
        self._check_open()
        wait = _seconds(timeout)
        out: list[Message] = [_eof_event(eof) for eof in self._c.take_partition_eofs(n)] if self._eof_notes else []
        # what is ready now first, before any clock: a program polling one message at a time
        # (confluent-kafka's loop) mostly finds one
        if len(out) >= n:
            return out
        out, ended = self._step(0.0, n - len(out), out)
        if ended or len(out) >= n:
            return out
        return self._wait(n, wait, out)

    def _wait(self, n: int, wait: float | None, out: list[Message]) -> list[Message]:
        """`out` and what comes within `wait` seconds (None: until n are there), up to n."""
        deadline = None if wait is None else time.monotonic() + wait
        while len(out) < n:
            left = None if deadline is None else deadline - time.monotonic()
            step = _STEP if left is None else max(0.0, min(left, _STEP))
            out, ended = self._step(step, n - len(out), out)
            if ended or (left is not None and left <= step):
                return out
        return out

    def _step(self, step: float, k: int, out: list[Message]) -> tuple[list[Message], bool]:
        """One poll of the client for up to k messages and events, waiting up to `step` seconds,
        after those in `out`: (the messages, whether an error message ends the consume).  The
        client's list is the answer itself when `out` is empty: a consumer's lists are long."""
        try:
            try:
                got = messages_over(self._c.poll(step, max_records=k))
                if out:
                    out.extend(got)
                else:
                    out = got
            except E.IllegalStateError:
                if self._subscribed or self._c.assignment():
                    raise
                time.sleep(step)  # nothing to consume: librdkafka's poll just waits
                self._c.serve_stats()
            else:
                if self._eof_notes:
                    out.extend(_eof_event(eof) for eof in self._c.take_partition_eofs(k - len(out)))
        except E.CallbackError as exc:
            # a stats_cb raised: its exception reaches the caller, as confluent-kafka's do
            raise (exc.errors[0] if exc.errors else exc) from None  # the callback's own exception, as confluent-kafka raises it
        except E.IllegalStateError as exc:
            if "auto.offset.reset" in str(exc):
                out.append(Message(error=KafkaError(CODES["_AUTO_OFFSET_RESET"], str(exc))))
                return out, True
            raise exception_from(exc) from exc
        except E.ClientClosedError as exc:
            raise RuntimeError("Consumer closed") from exc
        except E.KafkaError as exc:
            # errors reach confluent-kafka's applications as messages whose error() is set
            err = from_exception(exc)
            if err.fatal() and self._error_cb is not None:
                self._error_cb(err)
            out.append(Message(error=err))
            return out, True
        return out, False

    def commit(self, message: Message | None = None, offsets: Iterable[TopicPartition] | None = None,
               asynchronous: bool = True) -> list[TopicPartition] | None:
        """Commit message.offset() + 1, or `offsets` [TopicPartition], or else the stored offsets.
        Synchronous commits return the committed [TopicPartition]."""
        self._check_open()
        if message is not None and offsets is not None:
            raise KafkaException(KafkaError(CODES["_INVALID_ARG"], "message and offsets are mutually exclusive"))
        if message is not None:
            if message.error() is not None:
                raise KafkaException(KafkaError(CODES["_INVALID_ARG"], "cannot commit an error message"))
            todo = dict([_next_offset(message)])
        elif offsets is not None:
            todo = {(tp.topic, tp.partition): tp.offset for tp in offsets if tp.offset >= 0}
        else:
            todo = {(tp.topic, tp.partition): o for tp, o in self._c.stored_offsets().items()}
        if not todo:
            # librdkafka: a synchronous commit of nothing fails; an asynchronous one returns and
            # tells on_commit (from the next poll), as it tells every asynchronous outcome
            if not asynchronous:
                raise KafkaException(KafkaError(CODES["_NO_OFFSET"], "Commit failed: Local: No offset stored"))
            if self._conf.get("offset_commit_cb") is not None:  # without on_commit librdkafka says nothing
                self._c.report_commit({}, KafkaException(KafkaError(CODES["_NO_OFFSET"])))
            return None
        self._call(self._c.commit, todo, asynchronous=asynchronous)
        return None if asynchronous else _with_offsets(todo)

    def store_offsets(self, message: Message | None = None, offsets: Iterable[TopicPartition] | None = None) -> None:
        """Store message.offset() + 1, or `offsets`, for the next commit (enable.auto.offset.store=false)."""
        self._check_open()
        if (message is None) == (offsets is None):
            raise KafkaException(KafkaError(CODES["_INVALID_ARG"], "give one of message and offsets"))
        todo = (dict([_next_offset(message)]) if message is not None
                else {(tp.topic, tp.partition): tp.offset for tp in offsets or ()})
        self._call(self._c.store_offsets, todo)

    def committed(self, partitions: Sequence[TopicPartition], timeout: float | None = -1) -> list[TopicPartition]:
        self._check_open()
        found = self._call(self._c.committed, [(tp.topic, tp.partition) for tp in partitions], _seconds(timeout))
        out = []
        for tp in partitions:
            offset = found.get((tp.topic, tp.partition))
            out.append(TopicPartition(tp.topic, tp.partition, OFFSET_INVALID if offset is None else offset))
        return out

    def position(self, partitions: Iterable[TopicPartition]) -> list[TopicPartition]:
        """The offset after the last message consumed per partition: OFFSET_INVALID before one
        (after an assignment or a seek), as librdkafka's position() answers."""
        self._check_open()
        out = []
        for tp in partitions:
            try:
                pos = self._c.consumed_position((tp.topic, tp.partition))
                epoch = self._c.consumed_leader_epoch((tp.topic, tp.partition))
            except E.KafkaError:
                pos = epoch = None
            out.append(TopicPartition(tp.topic, tp.partition, OFFSET_INVALID if pos is None else pos,
                                      leader_epoch=epoch))
        return out

    def _seek(self, tp: TopicPartition) -> None:
        key = (tp.topic, tp.partition)
        if tp.offset >= 0:
            self._call(self._c.seek, key, tp.offset)
        elif tp.offset == OFFSET_BEGINNING:
            self._call(self._c.seek_to_beginning, [key])
        elif tp.offset == OFFSET_END:
            self._call(self._c.seek_to_end, [key])
        else:
            raise KafkaException(KafkaError(CODES["_INVALID_ARG"], f"cannot seek to offset {tp.offset}"))

    def seek(self, partition: TopicPartition) -> None:
        """Move an assigned partition to partition.offset (absolute, OFFSET_BEGINNING or OFFSET_END)."""
        self._check_open()
        self._seek(partition)

    def pause(self, partitions: Iterable[TopicPartition]) -> None:
        self._check_open()
        self._call(self._c.pause, [(tp.topic, tp.partition) for tp in partitions])

    def resume(self, partitions: Iterable[TopicPartition]) -> None:
        self._check_open()
        self._call(self._c.resume, [(tp.topic, tp.partition) for tp in partitions])

    def get_watermark_offsets(self, partition: TopicPartition, timeout: float | None = -1,
                              cached: bool = False) -> tuple[int, int]:
        """(low, high): the log start offset and the offset after the last message; cached=True answers
        from the last fetch (OFFSET_INVALID while unknown)."""
        self._check_open()
        key = (partition.topic, partition.partition)
        low, high = self._call(self._c.get_watermark_offsets, key, _seconds(timeout), cached)
        return (OFFSET_INVALID if low is None else low, OFFSET_INVALID if high is None else high)

    def offsets_for_times(self, partitions: Sequence[TopicPartition],
                          timeout: float | None = -1) -> list[TopicPartition]:
        """The first offset whose timestamp is at or after partition.offset (ms), or -1 when none is."""
        self._check_open()
        found = self._call(self._c.offsets_for_times, {(tp.topic, tp.partition): tp.offset for tp in partitions},
                           _seconds(timeout))
        out = []
        for tp in partitions:
            hit = found.get((tp.topic, tp.partition))
            out.append(TopicPartition(tp.topic, tp.partition, OFFSET_END if hit is None else hit.offset))
        return out

    # -- group and cluster

    def consumer_group_metadata(self) -> ConsumerGroupMetadata:
        self._check_open()
        metadata: ConsumerGroupMetadata = self._call(self._c.group_metadata)
        return metadata

    def memberid(self) -> str | None:
        self._check_open()
        member_id: str = self._c.group_metadata().member_id
        return member_id or None

    def list_topics(self, topic: str | None = None, timeout: float = -1) -> ClusterMetadata:
        if self._closed:
            raise RuntimeError("Handle has been closed")  # confluent-kafka's words for a call any client has
        return _metadata.list_topics(self._c, topic, _seconds(timeout))

    def cluster_id(self, timeout: float = -1) -> str | None:
        return self.list_topics(None, timeout).cluster_id

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """SASL PLAIN/SCRAM credentials for the connections made from now on (open ones stay)."""
        self._check_open()
        self._c.set_sasl_credentials(username, password)

    def close(self) -> None:
        """Commit the stored offsets (enable.auto.commit), leave the group, stop."""
        if self._closed:
            return
        try:
            self._c.close()
        finally:
            self._closed = True
