"""Planning and reading for the ``kafka-live`` source, without pyspark.

The driver resolves the options into offset ranges with kafkacodec's Admin
(ListOffsets: earliest, latest, by timestamp); a worker reads one range with
kafkacodec's Consumer (assign + seek, ``poll_arrow``: Fetch responses decoded
in C straight into Arrow) and yields RecordBatches in the schema of Spark's
Kafka source.  The tests, the benchmark and Spark all run this code.
"""
from __future__ import annotations

import base64
import contextvars
import itertools
import json
import logging
import re
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Iterator, Mapping, TypeVar

import pyarrow as pa
import pyarrow.compute as pc

from kafkacodec.protocol.errors import ErrorCode
from kafkacodec.spark._pushdown import Pushed, split_counts
from kafkacodec.spark._schema import spark_arrow_schema, to_spark_batch

if TYPE_CHECKING:
    from kafkacodec.client import Admin, TopicPartition

__all__ = [
    "LiveOptions",
    "OffsetRange",
    "LiveError",
    "parse_live_options",
    "live_arrow_schema",
    "client_conf",
    "resolve_partitions",
    "latest_offsets",
    "earliest_offsets",
    "batch_ranges",
    "check_named_partitions",
    "split_ranges",
    "read_range",
    "rate_limit",
]

EARLIEST = -2
LATEST = -1
# Kafka's offsets and timestamps are int64: anything larger can name no record
MAX_OFFSET = 2 ** 63 - 1

_T = TypeVar("_T")
# offsets as Spark's JSON names them: {(topic, partition): offset}
SparkOffsets = dict[tuple[str, int], int]
# fetch(offset, max_bytes): the record bytes of one Fetch (see _fetch_raw)
Fetch = Callable[[int, int], bytes]

log = logging.getLogger(__name__)

# options Spark's Kafka source refuses too: the source owns these consumer settings
_REFUSED = {
    "auto.offset.reset": "use startingOffsets",
    "enable.auto.commit": "the source does not commit offsets to Kafka",
    "key.deserializer": "keys are always binary",
    "value.deserializer": "values are always binary",
    "interceptor.classes": "not supported",
}


class LiveError(ValueError):
    """Options that name nothing to read, or data that is gone with
    failOnDataLoss=true."""


def spark_options(options: Mapping[str, str], conf: dict[str, str], refused: Mapping[str, str],
                  error: type[Exception] = LiveError, whose: str = "",
                  producer: Mapping[str, object] | None = None) -> Iterator[tuple[str, str, str]]:
    """The options that are not ``kafka.``-prefixed, in order, as (name, lower-case name, value);
    the prefixed ones go into ``conf``, without the prefix.  A setting in ``refused`` is an ``error``
    saying why (``whose``: by what it is not supported), and so is one that is not in ``producer``
    (the producer's settings), when that is given."""
    for name, value in options.items():
        lower = name.lower()
        if not lower.startswith("kafka."):
            yield name, lower, value
            continue
        key = name[len("kafka."):]
        if key in refused:
            raise error(f"Kafka option {key!r} is not supported{whose}: {refused[key]}")
        if producer is not None and key not in producer and key != "bootstrap.servers":
            raise error(f"unknown Kafka producer setting {name!r}")
        conf[key] = value


def _bool(name: str, value: object) -> bool:
    v = str(value).strip().lower()
    if v in ("true", "1", "yes"):
        return True
    if v in ("false", "0", "no"):
        return False
    raise LiveError(f"option {name} must be true or false, not {value!r}")


def _per_partition(name: str, value: object, *, words: tuple[str, ...] = (),
                   topic_ids: dict[str, str] | None = None) -> str | SparkOffsets:
    """JSON ``{"topic": {"0": n}}`` -> {(topic, 0): n}; a word of ``words``
    stays a string.  ``topic_ids``: filled with the topic ids the JSON names
    (``"topicId"`` beside the partitions, as the stream's offsets carry them);
    without it a topicId is refused."""
    v = str(value).strip()
    if v.lower() in words:
        return v.lower()
    try:
        raw = json.loads(v)
    except ValueError:
        raw = None
    if not isinstance(raw, dict):
        allowed = "".join(f"{w}, " for w in words)
        raise LiveError(f'option {name} must be {allowed}or JSON like {{"topic": {{"0": 42}}}}, '
                        f"not {value!r}")
    offsets, ids = split_offsets(raw, f"option {name}", ids=topic_ids is not None)
    if topic_ids is not None:
        topic_ids.update(ids)
    return offsets


# ----------------------------------------------------------------- topic ids

# Beside a topic's partitions in offsets JSON: the id of the topic the offsets belong to, so that a
# topic deleted and created again under its name is told apart even when it holds more records
TOPIC_ID_KEY = "topicId"


def topic_id_text(topic_id: uuid.UUID | None) -> str | None:
    """A topic id (uuid.UUID) in Kafka's text form, as kafka-topics.sh shows it (base64url, no
    padding); None for the all-zero id of a broker that keeps none: nothing to compare."""
    if topic_id is None or topic_id.int == 0:
        return None
    return base64.urlsafe_b64encode(topic_id.bytes).rstrip(b"=").decode()


def _valid_topic_id(text: object) -> bool:
    if not isinstance(text, str) or len(text) != 22:
        return False
    try:
        raw = base64.urlsafe_b64decode(text + "==")
    except ValueError:
        return False
    # the canonical spelling only, so that one id never compares unequal to itself
    return len(raw) == 16 and topic_id_text(uuid.UUID(bytes=raw)) == text


def split_offsets(doc: object, where: str, *, ids: bool = True) -> tuple[SparkOffsets, dict[str, str]]:
    """Offsets JSON ``{"topic": {"0": n, "topicId": "..."}}`` (Spark's Kafka form, the topic id
    optional) -> ({(topic, 0): n}, {topic: topic id}); a one-line LiveError naming ``where`` and
    the topic and key at fault for anything else (``ids`` False: a topicId too)."""
    if not isinstance(doc, dict):
        raise LiveError(f'{where}: offsets must be JSON like {{"topic": {{"0": 42}}}}, not {doc!r}')
    offsets: SparkOffsets = {}
    topic_ids: dict[str, str] = {}
    for topic, parts in doc.items():
        if not isinstance(parts, dict):
            raise LiveError(f'{where}: offsets of topic {topic!r} must be JSON like {{"0": 42}}, not {parts!r}')
        for key, n in parts.items():
            if key == TOPIC_ID_KEY and ids:
                if not _valid_topic_id(n):
                    raise LiveError(f"{where}: {TOPIC_ID_KEY} of topic {topic!r} must be a Kafka topic id "
                                    f"(22 base64url characters), not {n!r}")
                topic_ids[str(topic)] = n
                continue
            try:
                partition = int(key)
            except (TypeError, ValueError):
                raise LiveError(f"{where}: {topic}[{key}]: {key!r} is not a partition number") from None
            try:
                offset = None if isinstance(n, (bool, float)) else int(n)
            except (TypeError, ValueError):
                offset = None
            if offset is None:
                raise LiveError(f"{where}: {topic}[{key}]: offset {n!r} is not a whole number")
            offsets[(str(topic), partition)] = offset
    return offsets, topic_ids


def _check_offsets(option: str, offsets: SparkOffsets, words: tuple[int, ...], what: str = "offset") -> None:
    """A one-line LiveError naming ``option`` and the first entry of its JSON that is no Kafka
    ``what`` (offset or timestamp: 0 to 2**63-1) nor one of ``words`` (-2 earliest, -1 latest):
    the broker would refuse it, or a task would fail on it, only much later."""
    names = {EARLIEST: "-2 (earliest)", LATEST: "-1 (latest)"}
    kinds = [f"{'an offset' if what == 'offset' else 'ms since the epoch'} (0 to {MAX_OFFSET})"]
    kinds += [names[w] for w in words]
    allowed = kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} or {kinds[-1]}"
    for (t, p), n in sorted(offsets.items()):
        if n not in words and not 0 <= n <= MAX_OFFSET:
            raise LiveError(f"option {option}: {t}[{p}]: {what} {n} is not {allowed}")


def _count(key: str, value: object, *, least: int) -> int:
    """A whole number >= ``least`` for the option ``key`` (named as Spark spells it)."""
    try:
        n = int(str(value).strip())
    except ValueError:
        n = least - 1
    if n < least:
        what = "a positive number" if least == 1 else f"a whole number >= {least}"
        raise LiveError(f"option {_SPARK_NAMES[key]} must be {what}, not {value!r}")
    return n


# Spark's time strings (JavaUtils.timeStringAsMs): a number and a unit, ms without one
_UNITS_S = {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0, "d": 86400.0}


def _duration_s(name: str, value: object) -> float:
    m = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", str(value).lower())
    if m is None or m.group(2) not in _UNITS_S and m.group(2) != "":
        raise LiveError(f"option {name} must be a time like 15m, 30s or 500ms, not {value!r}")
    return int(m.group(1)) * _UNITS_S[m.group(2) or "ms"]


@dataclass(frozen=True)
class LiveOptions:
    """Options of the ``kafka-live`` source, parsed (see :func:`parse_live_options`)."""

    bootstrap: str
    conf: tuple[tuple[str, str], ...] = ()  # other kafka.* settings, (name, value)
    subscribe: tuple[str, ...] | None = None
    pattern: str | None = None
    assign: tuple[tuple[str, int], ...] | None = None  # ((topic, partition), ...)
    starting: str | SparkOffsets | None = None  # "earliest" | "latest" | {(t, p): offset}; None: the default
    ending: str | SparkOffsets | None = None    # "latest" | {(t, p): offset}
    starting_topic_ids: Mapping[str, str] | None = None  # {topic: id} the startingOffsets JSON was planned against
    ending_topic_ids: Mapping[str, str] | None = None    # the same for endingOffsets
    starting_timestamp: int | None = None
    starting_by_timestamp: Mapping[tuple[str, int], int] | None = None
    ending_timestamp: int | None = None
    ending_by_timestamp: Mapping[tuple[str, int], int] | None = None
    by_timestamp_strategy: str = "error"  # no offset at the timestamp: error | latest
    max_offsets_per_trigger: int | None = None
    min_offsets_per_trigger: int | None = None
    max_trigger_delay: float = 15 * 60.0  # s; Spark's default 15m
    min_partitions: int | None = None
    max_records_per_partition: int | None = None
    group_id: str = ""                    # kafka.group.id, or groupIdPrefix + a unique id (see client_conf)
    fetch_offset_retries: int = 3         # fetchOffset.numRetries
    fetch_offset_retry_s: float = 0.01    # fetchOffset.retryIntervalMs
    api_timeout: float = 60.0             # s; kafka.default.api.timeout.ms: each planning step, retries included
    include_headers: bool = False
    isolation_level: str = "read_uncommitted"
    fail_on_data_loss: bool = True
    poll_timeout: float = 120.0           # s without progress before a task gives up
    pushed: Pushed | None = None


# every source option by its LiveOptions field, as Spark spells it (messages name it so)
_SPARK_NAMES = {
    "subscribe": "subscribe",
    "pattern": "subscribePattern",
    "assign": "assign",
    "starting": "startingOffsets",
    "ending": "endingOffsets",
    "starting_timestamp": "startingTimestamp",
    "starting_by_timestamp": "startingOffsetsByTimestamp",
    "ending_timestamp": "endingTimestamp",
    "ending_by_timestamp": "endingOffsetsByTimestamp",
    "by_timestamp_strategy": "startingOffsetsByTimestampStrategy",
    "max_offsets_per_trigger": "maxOffsetsPerTrigger",
    "min_offsets_per_trigger": "minOffsetsPerTrigger",
    "max_trigger_delay": "maxTriggerDelay",
    "min_partitions": "minPartitions",
    "max_records_per_partition": "maxRecordsPerPartition",
    "group_id_prefix": "groupIdPrefix",
    "fetch_offset_retries": "fetchOffset.numRetries",
    "fetch_offset_retry_s": "fetchOffset.retryIntervalMs",
    "include_headers": "includeHeaders",
    "fail_on_data_loss": "failOnDataLoss",
    "poll_timeout": "kafkaConsumer.pollTimeoutMs",
}
# what a given name is matched against: case, dots and underscores do not count
_OPTS = {name.lower().replace(".", ""): field for field, name in _SPARK_NAMES.items()}


def parse_live_options(options: Mapping[str, str], *, streaming: bool = False) -> LiveOptions:
    """Spark's Kafka source options into :class:`LiveOptions`.  Option names
    are case-insensitive; ``kafka.``-prefixed ones go to the client (an
    unknown client setting is refused when the client is made)."""
    values: dict[str, str] = {}
    conf: dict[str, str] = {}
    for name, lower, value in spark_options(options, conf, _REFUSED):
        key = lower.replace(".", "").replace("_", "")
        if key in ("path",):
            continue
        if key not in _OPTS:
            raise LiveError(f"unknown option {name!r} for kafka-live (known: {', '.join(sorted(_OPTS))} "
                            f"and kafka.* client settings)")
        values[_OPTS[key]] = value
    bootstrap = conf.pop("bootstrap.servers", None)
    if not bootstrap:
        raise LiveError("kafka-live needs option kafka.bootstrap.servers")
    out: dict[str, Any] = {"bootstrap": str(bootstrap)}
    level = str(conf.pop("isolation.level", "read_uncommitted")).strip().lower()
    if level not in ("read_committed", "read_uncommitted"):
        raise LiveError(f"kafka.isolation.level must be read_committed or read_uncommitted, not {level!r}")
    out["isolation_level"] = level
    group = str(conf.pop("group.id", "") or "").strip()
    if group:
        out["group_id"] = group
    else:  # Spark's executors: a group of their own per query, <prefix>-<unique id>-executor
        prefix = str(values.get("group_id_prefix") or ("spark-kafka-source" if streaming else "spark-kafka-relation"))
        out["group_id"] = f"{prefix}-{uuid.uuid4()}-executor"
    if "default.api.timeout.ms" in conf:  # stays in conf too: the Admin's own calls keep the same bound
        raw = conf["default.api.timeout.ms"]
        try:
            ms = int(str(raw).strip())
        except ValueError:
            ms = 0
        if ms < 1:
            raise LiveError(f"kafka.default.api.timeout.ms must be a positive number of ms, not {raw!r}")
        out["api_timeout"] = ms / 1000
    out["conf"] = tuple(sorted(conf.items()))
    given = [k for k in ("subscribe", "pattern", "assign") if values.get(k)]
    if len(given) != 1:
        raise LiveError("kafka-live needs exactly one of the options subscribe, subscribePattern, assign"
                        + (f" (given: {', '.join(given)})" if given else ""))
    if "subscribe" in values:
        topics = tuple(t.strip() for t in str(values["subscribe"]).split(",") if t.strip())
        if not topics:
            raise LiveError("option subscribe names no topic")
        out["subscribe"] = topics
    if "pattern" in values:
        try:
            re.compile(values["pattern"])
        except re.error as exc:
            raise LiveError(f"option subscribePattern is not a regular expression: {exc}") from None
        out["pattern"] = str(values["pattern"])
    if "assign" in values:
        try:
            raw = json.loads(values["assign"])
            out["assign"] = tuple(sorted({(str(t), int(p)) for t, ps in raw.items() for p in ps}))
        except (ValueError, AttributeError, TypeError):
            raise LiveError(f'option assign must be JSON like {{"topicA": [0, 1]}}, not {values["assign"]!r}') from None
    if "starting" in values:
        ids: dict[str, str] = {}
        out["starting"] = _per_partition("startingOffsets", values["starting"], words=("earliest", "latest"),
                                         topic_ids=ids)
        if ids:
            out["starting_topic_ids"] = ids
        if not streaming and out["starting"] == "latest":
            raise LiveError("startingOffsets=latest is for streaming queries; a batch query reads from earliest "
                            "or given offsets")
        if not streaming and isinstance(out["starting"], dict):
            latest = sorted(tp for tp, n in out["starting"].items() if n == LATEST)
            if latest:
                t, p = latest[0]
                raise LiveError(f"startingOffsets for {t}[{p}] cannot be latest (-1) in a batch query")
        if isinstance(out["starting"], dict):
            _check_offsets("startingOffsets", out["starting"], (EARLIEST, LATEST))
    if "ending" in values:
        if streaming:
            raise LiveError("endingOffsets is for batch queries")
        ids = {}
        out["ending"] = _per_partition("endingOffsets", values["ending"], words=("latest",), topic_ids=ids)
        if ids:
            out["ending_topic_ids"] = ids
        if isinstance(out["ending"], dict):
            earliest = sorted(tp for tp, n in out["ending"].items() if n == EARLIEST)
            if earliest:
                t, p = earliest[0]
                raise LiveError(f"endingOffsets cannot be earliest (-2): {t}[{p}]")
            _check_offsets("endingOffsets", out["ending"], (LATEST,))
    for key in ("starting_timestamp", "ending_timestamp"):
        if key in values:
            try:
                ts = int(str(values[key]).strip())
            except ValueError:
                ts = -1
            if not 0 <= ts <= MAX_OFFSET:
                raise LiveError(f"option {_SPARK_NAMES[key]} must be ms since the epoch (0 to {MAX_OFFSET}), "
                                f"not {values[key]!r}")
            out[key] = ts
    for key in ("starting_by_timestamp", "ending_by_timestamp"):
        if key in values:
            out[key] = _per_partition(_SPARK_NAMES[key], values[key])
            _check_offsets(_SPARK_NAMES[key], out[key], (), what="timestamp")
    if streaming and ("ending_timestamp" in out or "ending_by_timestamp" in out):
        raise LiveError("endingTimestamp / endingOffsetsByTimestamp are for batch queries")
    if "by_timestamp_strategy" in values:
        strategy = str(values["by_timestamp_strategy"]).strip().lower()
        if strategy not in ("error", "latest"):
            raise LiveError(f"startingOffsetsByTimestampStrategy must be error or latest, not {strategy!r}")
        out["by_timestamp_strategy"] = strategy
    for key in ("max_offsets_per_trigger", "min_offsets_per_trigger", "min_partitions", "max_records_per_partition"):
        if key in values:
            out[key] = _count(key, values[key], least=1)
    low, high = out.get("min_offsets_per_trigger"), out.get("max_offsets_per_trigger")
    if low is not None and high is not None and low > high:
        raise LiveError(f"option minOffsetsPerTrigger ({low}) is above maxOffsetsPerTrigger ({high})")
    if "max_trigger_delay" in values:
        out["max_trigger_delay"] = _duration_s("maxTriggerDelay", values["max_trigger_delay"])
    if "fetch_offset_retries" in values:
        out["fetch_offset_retries"] = _count("fetch_offset_retries", values["fetch_offset_retries"], least=0)
    if "fetch_offset_retry_s" in values:
        out["fetch_offset_retry_s"] = _count("fetch_offset_retry_s", values["fetch_offset_retry_s"], least=0) / 1000
    if "poll_timeout" in values:
        out["poll_timeout"] = _count("poll_timeout", values["poll_timeout"], least=1) / 1000
    for key in ("include_headers", "fail_on_data_loss"):
        if key in values:
            out[key] = _bool(_SPARK_NAMES[key], values[key])
    return LiveOptions(**out)


# ----------------------------------------------------------------- schema

def live_arrow_schema(include_headers: bool) -> pa.Schema:
    """Spark's Kafka source columns in Spark's Arrow form (UTC microseconds)."""
    return spark_arrow_schema(headers=include_headers, kafka_source=True)


# ----------------------------------------------------------------- clients

# A range that ends at the log's end has nothing past its end to over-fetch, so its fetches may be
# large: fewer round trips, less broker work per record, fewer and larger batches for Spark.
LOG_END_FETCH_BYTES = 8 << 20


def client_conf(opts: LiveOptions, kind: str, *, partition_bytes: int | None = None) -> dict[str, Any]:
    """Settings for kafkacodec's Admin or Consumer: the ``kafka.*`` options
    that client knows (each must be known to one of them).  ``partition_bytes``:
    the consumer's max.partition.fetch.bytes unless the options set it."""
    from kafkacodec.client.config import ADMIN, CONSUMER

    allowed = CONSUMER if kind == "consumer" else ADMIN
    conf: dict[str, Any] = {"bootstrap.servers": opts.bootstrap}
    for name, value in opts.conf:
        if name in allowed:
            conf[name] = value
        elif name not in CONSUMER and name not in ADMIN:
            raise LiveError(f"unknown Kafka client setting {'kafka.' + name!r}")
    if kind == "consumer":
        conf.update({"isolation.level": opts.isolation_level, "enable.auto.commit": False,
                     "auto.offset.reset": "none"})
        # No group membership (Spark's executors do not join either: assign, no commits), so the
        # group id reaches the broker as Java's consumer shows it, in the client id
        # (request logs, metrics, client-id quotas); joining would need a Group ACL Spark does not.
        conf.setdefault("client.id", f"consumer-{opts.group_id}-{next(_CONSUMER_SEQ)}")
        # one partition per consumer: a response needs no more room than the partition's share
        # (brokers such as Tansu bound a response by fetch.max.bytes only)
        if partition_bytes is not None:
            conf.setdefault("max.partition.fetch.bytes", partition_bytes)
        conf.setdefault("fetch.max.bytes", conf.get("max.partition.fetch.bytes",
                                                    CONSUMER["max.partition.fetch.bytes"][0]))
    return conf


_CONSUMER_SEQ = itertools.count(1)

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


@dataclass(frozen=True)
class OffsetRange:
    """Offsets ``start`` (inclusive) to ``end`` (exclusive) of one partition."""

    topic: str
    partition: int
    start: int
    end: int
    # end is the partition's end offset when planned: no record past it to over-fetch (see
    # LOG_END_FETCH_BYTES); a hint for reading, not part of the range's identity
    log_end: bool = field(default=False, compare=False)

    @property
    def size(self) -> int:
        return max(0, self.end - self.start)


def _partitions_text(n: int) -> str:
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
            why = (f"topic {t} has {_partitions_text(topics[t])}" if t in topics else
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


def _watermarks(admin: Admin, listed: dict[TopicPartition, int], isolation_level: str) -> dict[TopicPartition, int]:
    """The high watermark (read_uncommitted) or last stable offset
    (read_committed) of each partition, from a one-byte Fetch at the listed
    offset (see Admin.high_watermarks); partitions it could not probe keep
    their listed offset."""
    marks: dict[TopicPartition, int] = admin.high_watermarks(listed, isolation_level=isolation_level,
                                                             timeout=_time_left(None))
    return marks


def latest_offsets(admin: Admin, tps: Collection[TopicPartition], isolation_level: str, *,
                   timeout: float | None = None) -> dict[TopicPartition, int]:
    """{tp: offset after the last readable record}: the high watermark, or
    the last stable offset for read_committed."""
    if not tps:
        return {}
    found = admin.list_offsets({tp: "latest" for tp in tps}, isolation_level=isolation_level,
                               timeout=_time_left(timeout))
    listed = {tp: (v.offset if v.offset is not None else 0) for tp, v in found.items()}
    marks = _watermarks(admin, listed, isolation_level)
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


def offsets_for_timestamps(admin: Admin, specs: dict[TopicPartition, int], isolation_level: str, *,
                           timeout: float | None = None) -> dict[TopicPartition, int | None]:
    """{tp: first offset with timestamp >= ms, or None}, by Kafka's rule (see
    :func:`timestamp_offset`)."""
    from functools import partial

    if not specs:
        return {}
    found = admin.list_offsets(specs, isolation_level=isolation_level, timeout=_time_left(timeout))
    firsts = earliest_offsets(admin, list(specs), timeout=timeout)
    ends = latest_offsets(admin, list(specs), "read_uncommitted", timeout=timeout)
    return {tp: timestamp_offset(partial(_fetch_raw, admin, tp), ts, found[tp].offset, firsts[tp], ends[tp])
            for tp, ts in specs.items()}


def _tp_name(tp: TopicPartition) -> str:
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
    earliest = earliest_offsets(admin, tps)
    if latest is None:
        latest = latest_offsets(admin, tps, opts.isolation_level)
    by_ts = None
    if opts.starting_timestamp is not None:
        by_ts = {tp: opts.starting_timestamp for tp in tps}
    elif opts.starting_by_timestamp is not None:
        by_ts = {tp: opts.starting_by_timestamp[(tp.topic, tp.partition)] for tp in tps
                 if (tp.topic, tp.partition) in opts.starting_by_timestamp}
        missing = [tp for tp in tps if (tp.topic, tp.partition) not in opts.starting_by_timestamp]
        if missing:
            raise LiveError(f"startingOffsetsByTimestamp names no timestamp for {', '.join(map(_tp_name, missing))}")
    out: dict[TopicPartition, int] = {}
    if by_ts is not None:
        found = offsets_for_timestamps(admin, by_ts, opts.isolation_level)
        for tp in tps:
            off = found.get(tp)
            if off is None:
                if opts.by_timestamp_strategy == "error":
                    raise LiveError(f"no offset with a timestamp at or after {by_ts[tp]} in {_tp_name(tp)} "
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
                raise LiveError(f"startingOffsets names no offset for {_tp_name(tp)}")
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
    what = (f"{option} for {_tp_name(tp)} (offset {spec[(tp.topic, tp.partition)]})"
            + (f" and {len(stale) - 1} other partitions" if len(stale) > 1 else "")
            + f" were planned against topic id {planned_ids[tp.topic]}, but topic {tp.topic} now has id "
            f"{topic_ids[tp.topic]}: it was deleted and recreated")
    if opts.fail_on_data_loss:
        raise LiveError(f"failOnDataLoss: {what}; some data may have been lost. Set failOnDataLoss=false to read "
                        f"the new topic from its {instead} offsets")
    log.warning("failOnDataLoss=false: %s; reading the new topic from its %s offsets", what, instead)
    return set(stale)


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
        again = latest_offsets(admin, list(now), opts.isolation_level)
        now = {tp: n for tp, n in again.items() if n < begin[tp]}
    return now


def data_loss(opts: LiveOptions, begin: Mapping[TopicPartition, int], back: Mapping[TopicPartition, int],
              earliest: Mapping[TopicPartition, int], warned: set[tuple[object, ...]] | None = None) -> None:
    """With failOnDataLoss (the default) a one-line LiveError for offsets that
    went backwards; without, a warning (once per event in ``warned``):
    reading goes on from the earliest offset."""
    tp = next(iter(sorted(back)))
    what = (f"{_tp_name(tp)}: offsets went back from {begin[tp]} to {back[tp]} (earliest {earliest.get(tp)})"
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
                    "earliest offset %s", _tp_name(tp), begin[tp], back[tp], earliest.get(tp))


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
    what = (f"{_tp_name(tp)}: {where(tp)}" + (f" (earliest {earliest[tp]})" if now[tp] < read[tp] else "")
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
                    _tp_name(tp), where(tp), why(tp), earliest[tp])


def _pushed_start(admin: Admin, opts: LiveOptions,
                  start: dict[TopicPartition, int]) -> Mapping[TopicPartition, int | None]:
    """Start offsets moved forward by the pushed-down timestamp bound: every
    record before Kafka's offset for it is older (Spark still filters the
    rows after it, which need not be newer)."""
    pushed = opts.pushed
    if pushed is None or pushed.min_timestamp is None or not start:
        return start
    found = offsets_for_timestamps(admin, {tp: pushed.min_timestamp for tp in start}, opts.isolation_level)
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
                why = f"it does not exist, topic {t} has {_partitions_text(counts[t])}"
            else:
                why = "option assign does not name it"
            raise LiveError(f"{option} names {t}[{p}], which the query does not read: {why}")


def _start_text(opts: LiveOptions, tp: TopicPartition) -> str:
    """Which option set the start of ``tp``'s range, as messages name it."""
    key = (tp.topic, tp.partition)
    if opts.starting_timestamp is not None:
        return f"startingTimestamp={opts.starting_timestamp} for {_tp_name(tp)}"
    if opts.starting_by_timestamp is not None:
        return f"startingOffsetsByTimestamp for {_tp_name(tp)} ({opts.starting_by_timestamp[key]})"
    if isinstance(opts.starting, dict):
        return f"startingOffsets for {_tp_name(tp)}" + (" (-2, earliest)" if opts.starting[key] == EARLIEST else "")
    return f"startingOffsets={opts.starting or 'earliest'} for {_tp_name(tp)}"


def _end_text(opts: LiveOptions, tp: TopicPartition, named: Collection[TopicPartition]) -> str:
    """Which option set the end of ``tp``'s range (``named``: the partitions endingOffsets gave one)."""
    if opts.ending_timestamp is not None:
        return f"endingTimestamp={opts.ending_timestamp}"
    by_ts = opts.ending_by_timestamp or {}
    if (tp.topic, tp.partition) in by_ts:
        return f"endingOffsetsByTimestamp for {_tp_name(tp)}: {by_ts[(tp.topic, tp.partition)]}"
    return f"endingOffsets for {_tp_name(tp)}" if tp in named else "the partition's latest offset"


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
    tps = resolve_partitions(admin, opts, topic_ids=topic_ids, counts=counts)
    check_named_partitions(opts, tps, counts)
    if not tps:
        return []
    latest = latest_offsets(admin, tps, opts.isolation_level)
    start = starting_offsets(admin, opts, tps, default="earliest", latest=latest, topic_ids=topic_ids)
    end = dict(latest)
    named: set[TopicPartition] = set()  # ends endingOffsets gives: they may be past the partition's end
    if opts.ending_timestamp is not None or opts.ending_by_timestamp is not None:
        by_ts = opts.ending_by_timestamp or {}
        specs = ({tp: opts.ending_timestamp for tp in tps} if opts.ending_timestamp is not None else
                 {tp: by_ts[(tp.topic, tp.partition)] for tp in tps if (tp.topic, tp.partition) in by_ts})
        for tp, off in offsets_for_timestamps(admin, specs, opts.isolation_level).items():
            if off is not None:
                end[tp] = off
    elif isinstance(opts.ending, dict):
        # as Spark: every partition read is named (-1: latest), so none is read to its end by mistake
        missing = [tp for tp in tps if (tp.topic, tp.partition) not in opts.ending]
        if missing:
            raise LiveError(f"endingOffsets names no offset for {', '.join(map(_tp_name, missing))} "
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
        what = (f"endingOffsets for {_tp_name(tp)} is offset {end[tp]}, past the partition's end (latest offset "
                f"{latest[tp]})" + (f", and so are those of {len(past) - 1} other partitions" if len(past) > 1 else ""))
        if opts.fail_on_data_loss:
            raise LiveError(f"failOnDataLoss: {what}: the offsets past it are not there to read. "
                            "Set failOnDataLoss=false to read up to the end and skip them")
        for tp in past:
            log.warning("failOnDataLoss=false: endingOffsets for %s is offset %d, past the partition's end (latest "
                        "offset %d); offsets %d to %d are skipped", _tp_name(tp), end[tp], latest[tp],
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


# ----------------------------------------------------------------- reading

def _offset_cut(rb: pa.RecordBatch, end: int) -> pa.RecordBatch:
    """Rows with offset < end (offsets ascend within a partition)."""
    n = rb.num_rows
    offsets = rb.column(2)
    if offsets[n - 1].as_py() < end:
        return rb
    keep = pc.sum(pc.less(offsets, pa.scalar(end, pa.int64()))).as_py() or 0
    return rb.slice(0, keep)


def _stall_cause(opts: LiveOptions, tp: TopicPartition, position: int) -> str:
    """Why a read stalls at ``position``, from the partition's watermarks now:
    under read_committed, a last stable offset held below the high watermark."""
    try:
        from kafkacodec.client import Admin

        with Admin(client_conf(opts, "admin")) as admin:
            high = latest_offsets(admin, [tp], "read_uncommitted").get(tp)
            # the Fetch answer's, not ListOffsets': some brokers list the high watermark for both
            stable = _watermarks(admin, {tp: position}, "read_committed").get(tp)
    except Exception as exc:  # the cause is a hint; the stall is the error
        return f"the leader may be down or the data gone (watermarks not known: {exc})"
    if high is not None and position > high:
        return (f"offset {position} is past the high watermark {high}: the log was truncated or the topic "
                "recreated with fewer records, and some data may have been lost")
    if opts.isolation_level == "read_committed" and stable is not None and high is not None and stable < high:
        return (f"the last stable offset is {stable} and the high watermark {high}: read_committed reads stop at "
                "the last stable offset, which an open transaction holds back (and which some brokers, Tansu "
                "among them, leave stuck after overlapping transactions have all ended)")
    return (f"the high watermark is {high}, the last stable offset {stable}; the leader may be down or the "
            "data gone")


@dataclass
class ReadStats:
    """What one :func:`read_range` call did (for tests and benchmarks)."""

    rows: int = 0
    polls: int = 0
    position: int = 0
    skipped_to: int | None = None  # failOnDataLoss=false: the offset reading went on from


def read_range(r: OffsetRange, opts: LiveOptions, *, schema: pa.Schema | None = None,
               stats: ReadStats | None = None,
               consumer_factory: Callable[[dict[str, Any]], Any] | None = None) -> Iterator[pa.RecordBatch]:
    """Fetch ``r`` from its leader and yield it as Arrow batches of
    ``schema`` (default :func:`live_arrow_schema`), never empty.  Records of
    aborted transactions and control records are skipped with
    read_committed; the range ends at its end offset however records are
    batched."""
    from kafkacodec.client import Consumer, TopicPartition
    from kafkacodec.client import errors as E

    sch = live_arrow_schema(opts.include_headers) if schema is None else schema
    stats = ReadStats() if stats is None else stats
    tp = TopicPartition(r.topic, r.partition)
    make = consumer_factory or Consumer
    consumer = make(client_conf(opts, "consumer", partition_bytes=LOG_END_FETCH_BYTES if r.log_end else None))
    try:
        consumer.assign([tp])
        consumer.seek(tp, r.start)
        position = r.start
        last_progress = time.monotonic()
        while position < r.end:
            try:
                # at most the rows the range still holds: the fetch that reaches its end is then never
                # drained, so the consumer sends no Fetch past it (Fetches follow drained ones at once)
                rb = consumer.poll_arrow(timeout=min(1.0, opts.poll_timeout), max_records=r.end - position)
            except E.BrokerResponseError as exc:
                # ErrorCode's members are made from the error table at import: unknown to mypy
                if getattr(exc, "code", None) != ErrorCode.OFFSET_OUT_OF_RANGE:  # type: ignore[attr-defined]
                    raise
                first = consumer.beginning_offsets([tp])[tp]
                if first is not None and first <= position:
                    # the log starts at or before the position, so it ends before it: truncated
                    # (a new leader without these records) or recreated with fewer records
                    last = consumer.end_offsets([tp])[tp]
                    if opts.fail_on_data_loss:
                        raise LiveError(
                            f"{_tp_name(tp)}: offsets {position} to {r.end} are past the log's end ({last}); some "
                            "data may have been lost because the log was truncated or the topic recreated. Set "
                            "failOnDataLoss=false to skip them") from exc
                    log.warning("failOnDataLoss=false: %s: offsets %d to %d are past the log's end (%s); skipping "
                                "them", _tp_name(tp), position, r.end, last)
                    stats.skipped_to = r.end
                    position = r.end
                    break
                if opts.fail_on_data_loss or first is None:
                    raise LiveError(
                        f"{_tp_name(tp)}: offsets {position} to {r.end} are no longer in the log (it now starts "
                        f"at {first}); some data may have been lost because it was deleted by retention. "
                        "Set failOnDataLoss=false to go on from the first offset left") from exc
                stats.skipped_to = first
                position = first
                consumer.seek(tp, first)
                continue
            stats.polls += 1
            if rb.num_rows:
                rb = _offset_cut(rb, r.end)
                if rb.num_rows:
                    stats.rows += rb.num_rows
                    yield to_spark_batch(rb, sch)
            now_at = consumer.position(tp)
            if now_at > position:
                position = now_at
                last_progress = time.monotonic()
            elif time.monotonic() - last_progress > opts.poll_timeout:
                raise LiveError(f"{_tp_name(tp)}: no record at offset {position} within {opts.poll_timeout:.0f} s "
                                f"(the range ends at {r.end}); {_stall_cause(opts, tp, position)}")
        stats.position = position
    finally:
        try:
            consumer.pause([tp])  # no further Fetch while the consumer shuts down
        except Exception:
            pass
        consumer.close()
