"""The ``kafka-live`` source's options: Spark's Kafka source options parsed
and checked into :class:`LiveOptions` (each refused with one line naming the
option and the value), offsets JSON with its topic ids, and the settings of
kafkacodec's Admin and Consumer made from them.  Without pyspark."""
from __future__ import annotations

import base64
import itertools
import json
import logging
import re
import uuid
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from kafkacodec.records.isolation import IsolationLevel
from kafkacodec.spark._pushdown import Pushed

__all__ = [
    "LiveOptions",
    "LiveError",
    "parse_live_options",
    "spark_options",
    "parse_bool",
    "split_offsets",
    "topic_id_text",
    "TOPIC_ID_KEY",
    "client_conf",
    "EARLIEST",
    "LATEST",
    "MAX_OFFSET",
    "SparkOffsets",
]

# the kafka-live source's one logger, under the name logging setups already give it
log = logging.getLogger("kafkacodec.spark._live")

EARLIEST = -2
LATEST = -1
# Kafka's offsets and timestamps are int64: anything larger can name no record
MAX_OFFSET = 2 ** 63 - 1
# offsets as Spark's JSON names them: {(topic, partition): offset}
SparkOffsets = dict[tuple[str, int], int]

# options Spark's Kafka source refuses too: the source owns these consumer settings
_REFUSED = {
    "auto.offset.reset": "use startingOffsets",
    "enable.auto.commit": "the source does not commit offsets to Kafka",
    "key.deserializer": "use keyFormat",
    "value.deserializer": "use valueFormat",
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


def parse_bool(name: str, value: object) -> bool:
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
    isolation_level: IsolationLevel = IsolationLevel.READ_UNCOMMITTED
    fail_on_data_loss: bool = True
    poll_timeout: float = 120.0           # s without progress before a task gives up
    pushed: Pushed | None = None
    formats: Any = None  # the value and key formats (kafkacodec.spark._live_formats.FormatOptions)


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
    from kafkacodec.spark._live_formats import is_format_option, parse_format_options

    values: dict[str, str] = {}
    conf: dict[str, str] = {}
    format_options: dict[str, str] = {}
    for name, lower, value in spark_options(options, conf, _REFUSED):
        key = lower.replace(".", "").replace("_", "")
        if key in ("path",):
            continue
        if is_format_option(lower):
            format_options[name] = value
            continue
        if key not in _OPTS:
            raise LiveError(f"unknown option {name!r} for kafka-live (known: {', '.join(sorted(_OPTS))}, "
                            f"valueFormat, valueSchema, valueSubject, keyFormat, keySchema, keySubject, "
                            f"schema.registry.* and kafka.* client settings)")
        values[_OPTS[key]] = value
    bootstrap = conf.pop("bootstrap.servers", None)
    if not bootstrap:
        raise LiveError("kafka-live needs option kafka.bootstrap.servers")
    out: dict[str, Any] = {"bootstrap": str(bootstrap), "formats": parse_format_options(format_options)}
    level = str(conf.pop("isolation.level", "read_uncommitted"))
    out["isolation_level"] = IsolationLevel.find(level)
    if out["isolation_level"] is None:
        raise LiveError(f"kafka.isolation.level must be read_committed or read_uncommitted, "
                        f"not {level.strip().lower()!r}")
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
            out[key] = parse_bool(_SPARK_NAMES[key], values[key])
    return LiveOptions(**out)


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
