"""What planning asks the brokers, for the ``kafka-live`` source: the
partitions the options name, their earliest and latest offsets, and the
offset for a timestamp (the broker's answer where it agrees with the
records, else found by walking the batch headers); each planning step
retried and bounded by kafka.default.api.timeout.ms (:func:`with_retries`)."""
from __future__ import annotations

import contextvars
import re
import time
from typing import TYPE_CHECKING, Any, Callable, Collection, TypeVar

from kafkacodec.records.isolation import IsolationLevel
from kafkacodec.spark._live_options import LiveError, LiveOptions, log, topic_id_text

if TYPE_CHECKING:
    from kafkacodec.client import Admin, TopicPartition

__all__ = [
    "with_retries",
    "resolve_partitions",
    "earliest_offsets",
    "latest_offsets",
    "watermarks",
    "offsets_for_timestamps",
    "timestamp_offset",
    "scan_timestamp",
    "partitions_text",
]

_T = TypeVar("_T")
# fetch(offset, max_bytes): the record bytes of one Fetch (see _fetch_raw)
Fetch = Callable[[int, int], bytes]

# The deadline (time.monotonic()) of the planning step with_retries runs: every Admin call below takes
# what is left of it, so a step fails within kafka.default.api.timeout.ms however many calls it makes
# (each call alone would take that long, and fetchOffset.numRetries times over).
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("kafka_live_deadline", default=None)


def _time_left(timeout: float | None) -> float | None:
    """``timeout`` (None: the Admin's default) cut to what is left of the planning step's deadline."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        from kafkacodec.errors import KafkaTimeoutError

        raise KafkaTimeoutError("no time left before kafka.default.api.timeout.ms")
    return left if timeout is None else min(timeout, left)


def with_retries(opts: LiveOptions, what: str, fetch: Callable[[], _T]) -> _T:
    """``fetch()``, asked again up to fetchOffset.numRetries times, fetchOffset.retryIntervalMs
    apart, while it fails with a retriable client error (as Spark's offset reader retries), all
    within kafka.default.api.timeout.ms: the Admin calls ``fetch`` makes share that deadline (see
    :func:`_time_left`).  When it is spent, or the retries are, one line of the library's
    KafkaTimeoutError (KafkaConnectionError when the last error was one) naming both options."""
    from kafkacodec.errors import KafkaConnectionError, KafkaError, KafkaTimeoutError

    if opts.fetch_offset_retries < 0:  # parse_live_options never makes such options
        raise LiveError(f"fetching {what}: fetchOffset.numRetries must be 0 or more, not {opts.fetch_offset_retries}")
    deadline = time.monotonic() + opts.api_timeout
    token = _DEADLINE.set(deadline)
    try:
        attempt = 0
        while True:
            try:
                return fetch()
            except KafkaError as exc:
                if not exc.retriable:
                    raise
                last = exc
            attempt += 1
            if attempt > opts.fetch_offset_retries or deadline - time.monotonic() <= opts.fetch_offset_retry_s:
                break
            log.warning("fetching %s failed (%s); retry %d of %d (fetchOffset.numRetries)", what, last,
                        attempt, opts.fetch_offset_retries)
            time.sleep(opts.fetch_offset_retry_s)
    finally:
        _DEADLINE.reset(token)
    kind = KafkaConnectionError if isinstance(last, KafkaConnectionError) else KafkaTimeoutError
    cause = " ".join(str(last).split()) or type(last).__name__
    raise kind(f"kafka-live: fetching {what} from kafka.bootstrap.servers={opts.bootstrap} failed ({attempt} "
               f"{'attempt' if attempt == 1 else 'attempts'} within kafka.default.api.timeout.ms="
               f"{round(opts.api_timeout * 1000)}, fetchOffset.numRetries={opts.fetch_offset_retries}): "
               f"{cause}") from last


def partitions_text(n: int) -> str:
    return "no partitions" if n == 0 else "partition 0" if n == 1 else f"partitions 0 to {n - 1}"


def resolve_partitions(admin: Admin, opts: LiveOptions, *, timeout: float | None = None, missing_ok: bool = False,
                       topic_ids: dict[str, str] | None = None,
                       counts: dict[str, int] | None = None) -> list[TopicPartition]:
    """The TopicPartitions the options name, in (topic, partition) order
    (``missing_ok``: a subscribed topic, or an assigned partition, that is
    not there has none; else a one-line LiveError).  ``topic_ids``: filled
    with {topic: id} (see :func:`topic_id_text`) of the topics resolved that
    have one, from the same metadata answer; ``counts``: with {topic: number
    of partitions} of the topics the options name that exist."""
    from kafkacodec.client import TopicPartition

    # the client's view of assigned topics may be minutes old: ask (an assigned partition that does not
    # exist would otherwise be waited for until every offset lookup timed out)
    described: dict[str, Any] = admin.topic_metadata(
        None if opts.assign is None else {t for t, _ in opts.assign}, timeout=_time_left(timeout))
    topics = {name: len(d.partitions) for name, d in described.items()}
    if opts.assign is not None:
        topics = {t: n for t, n in topics.items() if t in {a for a, _ in opts.assign}}
        absent = [(t, p) for t, p in opts.assign if not 0 <= p < topics.get(t, 0)]
        if absent and not missing_ok:
            t, p = absent[0]
            why = (f"topic {t} has {partitions_text(topics[t])}" if t in topics else
                   f"there is no topic {t} on {opts.bootstrap}")
            raise LiveError(f"option assign names {t}[{p}], which does not exist: {why}")
        tps = [TopicPartition(t, p) for t, p in opts.assign if (t, p) not in absent]
    else:
        if opts.subscribe is not None:
            missing = [t for t in opts.subscribe if t not in topics]
            if missing and not missing_ok:
                raise LiveError(f"no topic {', '.join(missing)} on {opts.bootstrap}")
            names = [t for t in opts.subscribe if t in topics]
        elif opts.pattern is not None:
            pattern = re.compile(opts.pattern)
            names = [t for t in topics if not t.startswith("__") and pattern.fullmatch(t)]
        else:  # parse_live_options never makes such options
            raise LiveError("kafka-live needs one of the options subscribe, subscribePattern, assign")
        topics = {t: topics[t] for t in names}
        tps = [TopicPartition(t, p) for t in names for p in range(topics[t])]
    if counts is not None:
        counts.update(topics)
    pushed = opts.pushed
    if pushed is not None:
        tps = [tp for tp in tps if pushed.allows(tp.topic, tp.partition)]
    if topic_ids is not None:
        for topic in {tp.topic for tp in tps}:
            text = topic_id_text(described[topic].topic_id) if topic in described else None
            if text is not None:
                topic_ids[topic] = text
    return sorted(set(tps))


def earliest_offsets(admin: Admin, tps: Collection[TopicPartition], *,
                     timeout: float | None = None) -> dict[TopicPartition, int]:
    if not tps:
        return {}
    found = admin.list_offsets({tp: "earliest" for tp in tps}, timeout=_time_left(timeout))
    return {tp: (v.offset if v.offset is not None else 0) for tp, v in found.items()}


def watermarks(admin: Admin, listed: dict[TopicPartition, int],
               isolation_level: IsolationLevel) -> dict[TopicPartition, int]:
    """The high watermark (read_uncommitted) or last stable offset
    (read_committed) of each partition, from a one-byte Fetch at the listed
    offset (see Admin.high_watermarks); partitions it could not probe keep
    their listed offset."""
    marks: dict[TopicPartition, int] = admin.high_watermarks(listed, isolation_level=isolation_level,
                                                             timeout=_time_left(None))
    return marks


def latest_offsets(admin: Admin, tps: Collection[TopicPartition], isolation_level: IsolationLevel, *,
                   timeout: float | None = None) -> dict[TopicPartition, int]:
    """{tp: offset after the last readable record}: the high watermark, or
    the last stable offset for read_committed."""
    if not tps:
        return {}
    found = admin.list_offsets({tp: "latest" for tp in tps}, isolation_level=isolation_level,
                               timeout=_time_left(timeout))
    listed = {tp: (v.offset if v.offset is not None else 0) for tp, v in found.items()}
    marks = watermarks(admin, listed, isolation_level)
    return {tp: max(off, marks.get(tp, off)) for tp, off in listed.items()}


_SCAN_FIRST_BYTES = 64 << 10   # first Fetch of a forward scan: small, the answer is often near the start
_SCAN_MAX_BYTES = 8 << 20      # later Fetches grow to this


def _fetch_raw(admin: Admin, tp: TopicPartition, offset: int, max_bytes: int) -> bytes:
    """The record bytes one Fetch of ``tp`` at ``offset`` returns (read_uncommitted,
    up to ``max_bytes``, at least the whole batch holding ``offset``); empty when
    there is nothing there (an offset past the end or before the log start)."""
    left = _time_left(None)
    if left is not None:  # one Fetch: request.timeout.ms at most, as without a deadline
        left = min(left, admin.conf["request.timeout.ms"] / 1000)
    data: bytes = admin.fetch_raw(tp, offset, max_bytes, timeout=left)
    return data


def _batch_records(fetch: Fetch, offset: int) -> tuple[list[int], list[int]]:
    """(offsets, timestamps) of the data records of the batch a Fetch at
    ``offset`` answers first, as lists (empty: nothing there)."""
    from kafkacodec.records import iter_batches

    for b in iter_batches(fetch(offset, 1)):
        if b.last_offset < offset or b.is_control:
            continue
        recs = b.records()
        return [r.offset for r in recs], [r.timestamp for r in recs]
    return [], []


def _answer_holds(fetch: Fetch, ts: int, answer: int | None, first: int, end: int) -> bool:
    """Whether a broker's ListOffsets answer for ``ts`` is consistent with the
    records around it: the record at ``answer`` is new enough and the one
    before it older (None: the last record is older).  This catches brokers
    that answer without looking (Tansu: always 0); a broker is trusted to
    have looked at every earlier record, as Kafka does."""
    if answer is None:
        if end <= first:
            return True
        offsets, stamps = _batch_records(fetch, end - 1)
        older = [s for o, s in zip(offsets, stamps) if first <= o < end]
        return bool(older) and older[-1] < ts  # no data record just before the end: no evidence
    if answer < first or answer >= end:
        return False
    offsets, stamps = _batch_records(fetch, answer)
    at = [s for o, s in zip(offsets, stamps) if o == answer]
    if not at or at[0] < ts:
        return False
    if answer == first:
        return True
    offsets, stamps = _batch_records(fetch, answer - 1)
    before = [s for o, s in zip(offsets, stamps) if o < answer]
    return not before or before[-1] < ts


def scan_timestamp(fetch: Fetch, ts: int, first: int, end: int) -> int | None:
    """Kafka's offsetsForTimes rule: the first offset in ``[first, end)`` whose
    record timestamp is >= ``ts``, or None.  Timestamps need not rise with
    the offset (CreateTime), so this walks the batches forward; a v2 batch's
    maxTimestamp bounds all its records, so one with maxTimestamp < ts is
    passed by its header alone, and only the batch that holds the answer is
    decompressed.  ``fetch(offset, max_bytes)`` returns a Fetch's record bytes
    (whole batches from the one holding ``offset``, maybe a cut one last)."""
    from kafkacodec.records import iter_batches

    pos = first
    size = _SCAN_FIRST_BYTES
    while pos < end:
        data = fetch(pos, size)
        moved = False
        for b in iter_batches(data):
            if b.last_offset < pos:
                continue
            if b.base_offset >= end:
                return None
            moved = True
            if b.magic < 2 or (not b.is_control and b.max_timestamp >= ts):
                for r in b.records():  # legacy wrappers' inner timestamps have no bound: always look
                    if pos <= r.offset < end and r.timestamp >= ts:
                        return r.offset
            pos = b.last_offset + 1
            if pos >= end:
                return None
        if not moved:
            if size >= _SCAN_MAX_BYTES * 8:
                raise LiveError(f"no record batch at offset {pos} (first {first}, end {end}) in "
                                f"{len(data)} bytes fetched while searching for timestamp {ts}")
            size *= 4  # a batch larger than what was asked: ask for more
            continue
        size = min(size * 2, _SCAN_MAX_BYTES)
    return None


def timestamp_offset(fetch: Fetch, ts: int, answer: int | None, first: int, end: int) -> int | None:
    """The first offset in ``[first, end)`` with timestamp >= ``ts`` (None:
    there is none): the broker's ListOffsets ``answer`` when it is
    consistent with the records (see :func:`_answer_holds`), else found by
    :func:`scan_timestamp`."""
    if answer is not None and answer >= end:
        answer = None
    if _answer_holds(fetch, ts, answer, first, end):
        return answer
    return scan_timestamp(fetch, ts, first, end)


def offsets_for_timestamps(admin: Admin, specs: dict[TopicPartition, int], isolation_level: IsolationLevel, *,
                           timeout: float | None = None) -> dict[TopicPartition, int | None]:
    """{tp: first offset with timestamp >= ms, or None}, by Kafka's rule (see
    :func:`timestamp_offset`)."""
    from functools import partial

    if not specs:
        return {}
    found = admin.list_offsets(specs, isolation_level=isolation_level, timeout=_time_left(timeout))
    firsts = earliest_offsets(admin, list(specs), timeout=timeout)
    ends = latest_offsets(admin, list(specs), IsolationLevel.READ_UNCOMMITTED, timeout=timeout)
    return {tp: timestamp_offset(partial(_fetch_raw, admin, tp), ts, found[tp].offset, firsts[tp], ends[tp])
            for tp, ts in specs.items()}
