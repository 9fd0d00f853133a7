"""Planning for the ``kafka-live`` source: the offset ranges a batch query
or a micro-batch reads (:func:`batch_ranges`, :func:`starting_offsets`,
:func:`rate_limit`), cut into tasks (:func:`split_ranges`), and what a
stream does when offsets go back or a topic is recreated (failOnDataLoss)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Collection, Iterable, Mapping

from kafkacodec.spark import _live_offsets
from kafkacodec.spark._live_options import EARLIEST, LATEST, LiveError, LiveOptions, log
from kafkacodec.spark._pushdown import split_counts

if TYPE_CHECKING:
    from kafkacodec.client import Admin, TopicPartition

__all__ = [
    "OffsetRange",
    "batch_ranges",
    "starting_offsets",
    "check_named_partitions",
    "planned_elsewhere",
    "split_ranges",
    "rate_limit",
    "offsets_back",
    "data_loss",
    "recreated_partitions",
    "recreated_loss",
    "tp_name",
]


@dataclass(frozen=True)
class OffsetRange:
    """Offsets ``start`` (inclusive) to ``end`` (exclusive) of one partition."""

    topic: str
    partition: int
    start: int
    end: int
    # end is the partition's end offset when planned: no record past it to over-fetch (see
    # _live_read.LOG_END_FETCH_BYTES); a hint for reading, not part of the range's identity
    log_end: bool = field(default=False, compare=False)

    @property
    def size(self) -> int:
        return max(0, self.end - self.start)


def tp_name(tp: TopicPartition) -> str:
    return f"{tp.topic}[{tp.partition}]"


def starting_offsets(admin: Admin, opts: LiveOptions, tps: list[TopicPartition], *, default: str,
                     latest: dict[TopicPartition, int] | None = None,
                     topic_ids: Mapping[str, str] | None = None) -> dict[TopicPartition, int]:
    """{tp: first offset to read} by startingTimestamp, startingOffsetsByTimestamp
    or startingOffsets (in that order of precedence, as Spark's source).
    ``topic_ids``: the topics' ids now, checked against those startingOffsets
    was planned against (see :func:`planned_elsewhere`)."""
    if not tps:
        return {}
    earliest = _live_offsets.earliest_offsets(admin, tps)
    if latest is None:
        latest = _live_offsets.latest_offsets(admin, tps, opts.isolation_level)
    by_ts = None
    if opts.starting_timestamp is not None:
        by_ts = {tp: opts.starting_timestamp for tp in tps}
    elif opts.starting_by_timestamp is not None:
        by_ts = {tp: opts.starting_by_timestamp[(tp.topic, tp.partition)] for tp in tps
                 if (tp.topic, tp.partition) in opts.starting_by_timestamp}
        missing = [tp for tp in tps if (tp.topic, tp.partition) not in opts.starting_by_timestamp]
        if missing:
            raise LiveError(f"startingOffsetsByTimestamp names no timestamp for {', '.join(map(tp_name, missing))}")
    out: dict[TopicPartition, int] = {}
    if by_ts is not None:
        found = _live_offsets.offsets_for_timestamps(admin, by_ts, opts.isolation_level)
        for tp in tps:
            off = found.get(tp)
            if off is None:
                if opts.by_timestamp_strategy == "error":
                    raise LiveError(f"no offset with a timestamp at or after {by_ts[tp]} in {tp_name(tp)} "
                                    "(startingOffsetsByTimestampStrategy=latest starts at the end instead)")
                off = latest[tp]
            out[tp] = off
        return out
    spec = opts.starting if opts.starting is not None else default
    stale = planned_elsewhere(opts, "startingOffsets", spec, opts.starting_topic_ids, topic_ids, tps, "earliest")
    for tp in tps:
        if spec == "earliest":
            out[tp] = earliest[tp]
        elif spec == "latest":
            out[tp] = latest[tp]
        elif isinstance(spec, dict):  # JSON offsets (the options hold no other string)
            if (tp.topic, tp.partition) not in spec:
                raise LiveError(f"startingOffsets names no offset for {tp_name(tp)}")
            v = spec[(tp.topic, tp.partition)]
            out[tp] = earliest[tp] if v == EARLIEST or tp in stale else latest[tp] if v == LATEST else v
    return out


def planned_elsewhere(opts: LiveOptions, option: str, spec: object, planned_ids: Mapping[str, str] | None,
                      topic_ids: Mapping[str, str] | None, tps: Iterable[TopicPartition],
                      instead: str) -> set[TopicPartition]:
    """The partitions whose offsets in ``spec`` (the JSON of ``option``) were
    planned against a topic id their topic no longer has: it was deleted and
    created again.  With failOnDataLoss a one-line LiveError; without, a
    warning, and the caller reads those partitions from their ``instead``
    offsets.  Offsets -2/-1 and topics without an id on either side (a broker
    that keeps none) are never counted."""
    if not isinstance(spec, dict) or not planned_ids or not topic_ids:
        return set()
    stale = sorted(tp for tp in tps if spec.get((tp.topic, tp.partition), LATEST) >= 0
                   and planned_ids.get(tp.topic) and topic_ids.get(tp.topic)
                   and planned_ids[tp.topic] != topic_ids[tp.topic])
    if not stale:
        return set()
    tp = stale[0]
    what = (f"{option} for {tp_name(tp)} (offset {spec[(tp.topic, tp.partition)]})"
            + (f" and {len(stale) - 1} other partitions" if len(stale) > 1 else "")
            + f" were planned against topic id {planned_ids[tp.topic]}, but topic {tp.topic} now has id "
            f"{topic_ids[tp.topic]}: it was deleted and recreated")
    if opts.fail_on_data_loss:
        raise LiveError(f"failOnDataLoss: {what}; some data may have been lost. Set failOnDataLoss=false to read "
                        f"the new topic from its {instead} offsets")
    log.warning("failOnDataLoss=false: %s; reading the new topic from its %s offsets", what, instead)
    return set(stale)


def offsets_back(admin: Admin, opts: LiveOptions, begin: Mapping[TopicPartition, int],
                 latest: Mapping[TopicPartition, int]) -> dict[TopicPartition, int]:
    """{tp: latest offset} of the partitions whose latest offset is below
    ``begin`` (where the last micro-batch ended) and stays so when asked
    again, fetchOffset.numRetries times fetchOffset.retryIntervalMs apart (a
    new leader can answer low for a moment, KAFKA-7703): the topic was
    deleted and recreated, or its log truncated."""
    back = sorted(tp for tp, n in latest.items() if tp in begin and n < begin[tp])
    now = {tp: latest[tp] for tp in back}
    for _ in range(opts.fetch_offset_retries):
        if not now:
            break
        time.sleep(opts.fetch_offset_retry_s)
        again = _live_offsets.latest_offsets(admin, list(now), opts.isolation_level)
        now = {tp: n for tp, n in again.items() if n < begin[tp]}
    return now


def data_loss(opts: LiveOptions, begin: Mapping[TopicPartition, int], back: Mapping[TopicPartition, int],
              earliest: Mapping[TopicPartition, int], warned: set[tuple[object, ...]] | None = None) -> None:
    """With failOnDataLoss (the default) a one-line LiveError for offsets that
    went backwards; without, a warning (once per event in ``warned``):
    reading goes on from the earliest offset."""
    tp = next(iter(sorted(back)))
    what = (f"{tp_name(tp)}: offsets went back from {begin[tp]} to {back[tp]} (earliest {earliest.get(tp)})"
            + (f", and {len(back) - 1} other partitions" if len(back) > 1 else "")
            + "; the topic was deleted and recreated, or its log truncated")
    if opts.fail_on_data_loss:
        raise LiveError(f"failOnDataLoss: {what}; some data may have been lost. "
                        "Set failOnDataLoss=false to go on from the earliest offset")
    for tp in sorted(back):
        if warned is not None:
            if (tp, begin[tp], back[tp]) in warned:
                continue
            warned.add((tp, begin[tp], back[tp]))
        log.warning("failOnDataLoss=false: %s: offsets went back from %d to %d; reading goes on from the "
                    "earliest offset %s", tp_name(tp), begin[tp], back[tp], earliest.get(tp))


def recreated_partitions(read_ids: Mapping[str, str], now_ids: Mapping[str, str], read: Mapping[TopicPartition, int],
                         now: Iterable[TopicPartition]) -> list[TopicPartition]:
    """The partitions of ``now`` that were read (keys of ``read``, under the
    topic ids ``read_ids``) and whose topic has another id since (``now_ids``):
    deleted and created again, whatever its offsets now.  A topic without an
    id on either side (offsets checkpointed before ids were kept, a broker
    that keeps none) is never counted."""
    return sorted(tp for tp in now if tp in read and read_ids.get(tp.topic) and now_ids.get(tp.topic)
                  and read_ids[tp.topic] != now_ids[tp.topic])


def recreated_loss(opts: LiveOptions, read_ids: Mapping[str, str], now_ids: Mapping[str, str],
                   read: Mapping[TopicPartition, int], now: Mapping[TopicPartition, int],
                   earliest: Mapping[TopicPartition, int], warned: set[tuple[object, ...]] | None = None) -> None:
    """The partitions of ``earliest`` (see :func:`recreated_partitions`) as
    :func:`data_loss` reports offsets going back: with failOnDataLoss a
    one-line LiveError; without, a warning (once per event in ``warned``):
    reading goes on from the new topic's earliest offset."""
    def where(tp: TopicPartition) -> str:
        if now[tp] < read[tp]:
            return f"offsets went back from {read[tp]} to {now[tp]}"
        return f"the last batch ended at offset {read[tp]}, the new topic holds offsets {earliest[tp]} to {now[tp]}"

    def why(tp: TopicPartition) -> str:
        return (f"topic {tp.topic} was deleted and recreated (topic id {read_ids[tp.topic]} is now "
                f"{now_ids[tp.topic]})")

    tps = sorted(earliest)
    tp = tps[0]
    what = (f"{tp_name(tp)}: {where(tp)}" + (f" (earliest {earliest[tp]})" if now[tp] < read[tp] else "")
            + (f", and {len(tps) - 1} other partitions" if len(tps) > 1 else "") + f"; {why(tp)}")
    if opts.fail_on_data_loss:
        raise LiveError(f"failOnDataLoss: {what}; some data may have been lost. "
                        "Set failOnDataLoss=false to go on from the earliest offset")
    for tp in tps:
        event = (tp, read_ids[tp.topic], now_ids[tp.topic])
        if warned is not None:
            if event in warned:
                continue
            warned.add(event)
        log.warning("failOnDataLoss=false: %s: %s; %s; reading goes on from the new topic's earliest offset %s",
                    tp_name(tp), where(tp), why(tp), earliest[tp])


def _pushed_start(admin: Admin, opts: LiveOptions,
                  start: dict[TopicPartition, int]) -> Mapping[TopicPartition, int | None]:
    """Start offsets moved forward by the pushed-down timestamp bound: every
    record before Kafka's offset for it is older (Spark still filters the
    rows after it, which need not be newer)."""
    pushed = opts.pushed
    if pushed is None or pushed.min_timestamp is None or not start:
        return start
    found = _live_offsets.offsets_for_timestamps(admin, {tp: pushed.min_timestamp for tp in start},
                                                 opts.isolation_level)
    out: dict[TopicPartition, int | None] = {}
    for tp, s in start.items():
        off = found.get(tp)
        out[tp] = None if off is None else max(s, off)  # None: nothing that new
    return out


def check_named_partitions(opts: LiveOptions, tps: Collection[TopicPartition], counts: Mapping[str, int], *,
                           ending: bool = True) -> None:
    """A one-line LiveError for the first partition the offsets JSON in effect
    (startingOffsetsByTimestamp or startingOffsets, and with ``ending`` their
    ending twins; a global timestamp names none) names that the query does
    not read, ``tps`` (with ``counts``, the topics' partition counts, as
    :func:`resolve_partitions` fills them): a partition that does not exist,
    of a topic not read, or not assigned.  Spark's source refuses these too
    (its offsets must name exactly the partitions read); partitions a pushed
    filter leaves out are not counted."""
    specs: list[tuple[str, object]] = []
    if opts.starting_timestamp is None:
        specs.append(("startingOffsetsByTimestamp", opts.starting_by_timestamp) if opts.starting_by_timestamp
                     is not None else ("startingOffsets", opts.starting))
    if ending and opts.ending_timestamp is None:
        specs.append(("endingOffsetsByTimestamp", opts.ending_by_timestamp) if opts.ending_by_timestamp
                     is not None else ("endingOffsets", opts.ending))
    read = {(tp.topic, tp.partition) for tp in tps}
    pushed = opts.pushed
    for option, spec in specs:
        if not isinstance(spec, Mapping):
            continue
        for t, p in sorted(spec):
            if (t, p) in read or (pushed is not None and not pushed.allows(t, p)):
                continue
            if t not in counts:
                why = f"it reads no topic {t}"
            elif not 0 <= p < counts[t]:
                why = f"it does not exist, topic {t} has {_live_offsets.partitions_text(counts[t])}"
            else:
                why = "option assign does not name it"
            raise LiveError(f"{option} names {t}[{p}], which the query does not read: {why}")


def _start_text(opts: LiveOptions, tp: TopicPartition) -> str:
    """Which option set the start of ``tp``'s range, as messages name it."""
    key = (tp.topic, tp.partition)
    if opts.starting_timestamp is not None:
        return f"startingTimestamp={opts.starting_timestamp} for {tp_name(tp)}"
    if opts.starting_by_timestamp is not None:
        return f"startingOffsetsByTimestamp for {tp_name(tp)} ({opts.starting_by_timestamp[key]})"
    if isinstance(opts.starting, dict):
        return f"startingOffsets for {tp_name(tp)}" + (" (-2, earliest)" if opts.starting[key] == EARLIEST else "")
    return f"startingOffsets={opts.starting or 'earliest'} for {tp_name(tp)}"


def _end_text(opts: LiveOptions, tp: TopicPartition, named: Collection[TopicPartition]) -> str:
    """Which option set the end of ``tp``'s range (``named``: the partitions endingOffsets gave one)."""
    if opts.ending_timestamp is not None:
        return f"endingTimestamp={opts.ending_timestamp}"
    by_ts = opts.ending_by_timestamp or {}
    if (tp.topic, tp.partition) in by_ts:
        return f"endingOffsetsByTimestamp for {tp_name(tp)}: {by_ts[(tp.topic, tp.partition)]}"
    return f"endingOffsets for {tp_name(tp)}" if tp in named else "the partition's latest offset"


def batch_ranges(admin: Admin, opts: LiveOptions) -> list[OffsetRange]:
    """The offset ranges a batch query reads, before splitting.  Refused with
    one line: offsets JSON naming a partition not read, a start after the end
    (Spark's source refuses it whatever failOnDataLoss says: nothing was there
    to lose), and, with failOnDataLoss, an endingOffsets past the partition's
    latest offset (without, the range ends there and the rest is skipped, as
    Spark's reader skips offsets that are not there)."""
    # offsets planned against topic ids (copied from a stream's offsets) are checked against the ids now
    topic_ids: dict[str, str] | None = {} if opts.starting_topic_ids or opts.ending_topic_ids else None
    counts: dict[str, int] = {}
    tps = _live_offsets.resolve_partitions(admin, opts, topic_ids=topic_ids, counts=counts)
    check_named_partitions(opts, tps, counts)
    if not tps:
        return []
    latest = _live_offsets.latest_offsets(admin, tps, opts.isolation_level)
    start = starting_offsets(admin, opts, tps, default="earliest", latest=latest, topic_ids=topic_ids)
    end = dict(latest)
    named: set[TopicPartition] = set()  # ends endingOffsets gives: they may be past the partition's end
    if opts.ending_timestamp is not None or opts.ending_by_timestamp is not None:
        by_ts = opts.ending_by_timestamp or {}
        specs = ({tp: opts.ending_timestamp for tp in tps} if opts.ending_timestamp is not None else
                 {tp: by_ts[(tp.topic, tp.partition)] for tp in tps if (tp.topic, tp.partition) in by_ts})
        for tp, off in _live_offsets.offsets_for_timestamps(admin, specs, opts.isolation_level).items():
            if off is not None:
                end[tp] = off
    elif isinstance(opts.ending, dict):
        # as Spark: every partition read is named (-1: latest), so none is read to its end by mistake
        missing = [tp for tp in tps if (tp.topic, tp.partition) not in opts.ending]
        if missing:
            raise LiveError(f"endingOffsets names no offset for {', '.join(map(tp_name, missing))} "
                            "(use -1 for latest)")
        stale = planned_elsewhere(opts, "endingOffsets", opts.ending, opts.ending_topic_ids, topic_ids, tps, "latest")
        for tp in tps:
            v = opts.ending[(tp.topic, tp.partition)]
            if v != LATEST and tp not in stale:
                end[tp] = v
                named.add(tp)
    for tp in tps:
        if start[tp] > end[tp]:
            raise LiveError(f"{_start_text(opts, tp)} is offset {start[tp]}, after the end of the range to read, "
                            f"offset {end[tp]} ({_end_text(opts, tp, named)})")
    past = sorted(tp for tp in named if end[tp] > latest[tp])
    if past:
        tp = past[0]
        what = (f"endingOffsets for {tp_name(tp)} is offset {end[tp]}, past the partition's end (latest offset "
                f"{latest[tp]})" + (f", and so are those of {len(past) - 1} other partitions" if len(past) > 1 else ""))
        if opts.fail_on_data_loss:
            raise LiveError(f"failOnDataLoss: {what}: the offsets past it are not there to read. "
                            "Set failOnDataLoss=false to read up to the end and skip them")
        for tp in past:
            log.warning("failOnDataLoss=false: endingOffsets for %s is offset %d, past the partition's end (latest "
                        "offset %d); offsets %d to %d are skipped", tp_name(tp), end[tp], latest[tp],
                        max(start[tp], latest[tp]), end[tp])
            end[tp] = latest[tp]
    reading = _pushed_start(admin, opts, start)
    out: list[OffsetRange] = []
    for tp in tps:
        s, e = reading[tp], end[tp]
        if s is None:
            continue
        if opts.pushed is not None:
            s, e = opts.pushed.bounds(s, e)
        if s < e:
            out.append(OffsetRange(tp.topic, tp.partition, s, e, log_end=e >= latest[tp]))
    return out


def split_ranges(ranges: list[OffsetRange], min_partitions: int | None,
                 max_records: int | None = None) -> list[OffsetRange]:
    """Spark's KafkaOffsetRangeCalculator: ranges of more than ``max_records``
    offsets (maxRecordsPerPartition) cut into equal pieces of at most that
    many, then, while there are fewer than ``min_partitions`` pieces, larger
    pieces cut into more; empty ranges dropped."""
    ranges = [r for r in ranges if r.size > 0]
    if max_records:
        ranges = [piece for r in ranges for piece in _cut(r, -(-r.size // max_records))]
    out: list[OffsetRange] = []
    for r, n in zip(ranges, split_counts([r.size for r in ranges], min_partitions)):
        out += _cut(r, n)
    return out


def _cut(r: OffsetRange, n: int) -> list[OffsetRange]:
    if n <= 1:
        return [r]
    step = r.size / n
    cuts = [r.start + round(step * i) for i in range(n)] + [r.end]
    return [replace(r, start=a, end=b, log_end=r.log_end and b == r.end) for a, b in zip(cuts, cuts[1:]) if a < b]


def rate_limit(start: Mapping[TopicPartition, int], latest: Mapping[TopicPartition, int],
               max_rows: int) -> dict[TopicPartition, int]:
    """End offsets at most ``max_rows`` offsets past ``start`` in all,
    shared in proportion to each partition's lag (Spark's Kafka source does
    the same); a partition's share below one rounds up, so every lagging
    partition moves."""
    lags = {tp: max(0, latest[tp] - start.get(tp, latest[tp])) for tp in latest}
    total = sum(lags.values())
    if total <= max_rows:
        return dict(latest)
    out: dict[TopicPartition, int] = {}
    for tp, lag in lags.items():
        s = start.get(tp, latest[tp])
        share = max_rows * lag / total
        step = int(share) if share >= 1 else (1 if lag else 0)
        out[tp] = s + min(lag, step)
    return out
