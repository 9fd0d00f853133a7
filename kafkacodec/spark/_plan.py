"""Planning and reading for the ``kafka-log`` source, without pyspark.

The driver turns options into :class:`RangeTask` lists (plain values that
pickle cheaply); a worker turns a task list into pyarrow RecordBatches with
:func:`read_tasks`.  Keeping this free of pyspark lets the tests, the CLI's
summary and the benchmark use exactly the code Spark runs.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

import kafkacodec.arrow as karrow
import kafkacodec.logdir as logdir

__all__ = [
    "ReadOptions",
    "RangeTask",
    "parse_options",
    "plan",
    "group_tasks",
    "read_tasks",
    "offset_for_timestamp",
    "EARLIEST",
    "LATEST",
]

# Kafka's sentinel values in offset specs (as in Spark's Kafka source)
EARLIEST = -2
LATEST = -1

_MIN_SPLIT = 256 << 10  # smaller byte ranges cost more in per-task overhead than they gain

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def _bool(name, value) -> bool:
    v = str(value).strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise ValueError(f"option {name} must be true or false, not {value!r}")


def _size(name, value) -> int:
    """``"64m"``, ``"1g"``, ``"4096"`` -> bytes."""
    v = str(value).strip().lower()
    mult = 1
    for suffix, m in (("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30)):
        if v.endswith(suffix + "b"):
            v = v[:-2]
        elif v.endswith(suffix):
            v = v[:-1]
        else:
            continue
        mult = m
        break
    try:
        n = int(float(v) * mult)
    except ValueError:
        raise ValueError(f"option {name} must be a byte size such as 64m, not {value!r}") from None
    if n <= 0:
        raise ValueError(f"option {name} must be positive")
    return n


def _spec(name, value, *, words: bool):
    """An offset or timestamp option: one number for every partition, or JSON
    ``{"topic": {"0": n, ...}}``.  Offsets also take earliest/latest.

    Returns ``("all", n)`` or ``("map", {(topic, partition): n})``.
    """
    if value is None:
        return None
    if isinstance(value, int):
        return ("all", value)
    v = str(value).strip()
    if words and v.lower() in ("earliest", "latest"):
        return ("all", EARLIEST if v.lower() == "earliest" else LATEST)
    if v.startswith("{"):
        try:
            raw = json.loads(v)
            out = {}
            for topic, parts in raw.items():
                for p, n in parts.items():
                    out[(topic, int(p))] = int(n)
        except (ValueError, AttributeError, TypeError):
            raise ValueError(f'option {name} must be a number or JSON like {{"topic": {{"0": 42}}}}, '
                             f"not {value!r}") from None
        return ("map", out)
    try:
        return ("all", int(v))
    except ValueError:
        what = "a number, earliest, latest" if words else "a number (ms since the epoch)"
        raise ValueError(f"option {name} must be {what} or per-partition JSON, not {value!r}") from None


def _spec_for(spec, topic, partition):
    if spec is None:
        return None
    kind, v = spec
    if kind == "all":
        return v
    return v.get((topic, partition))


@dataclass(frozen=True)
class ReadOptions:
    """Options of the ``kafka-log`` source, parsed (see :func:`parse_options`)."""

    path: str
    isolation_level: str = "read_uncommitted"
    topics: tuple | None = None
    partitions: frozenset | None = None  # {(topic or None, partition)}
    starting_offsets: tuple | None = None
    ending_offsets: tuple | None = None
    starting_timestamp: tuple | None = None
    ending_timestamp: tuple | None = None
    max_bytes_per_partition: int = 64 << 20
    min_partitions: int | None = None
    headers: bool = True
    batch_columns: bool = False
    include_internal: bool = False
    verify_crc: bool = True
    max_rows_per_batch: int = 1 << 16


# option name (lower case, no dots/underscores) -> field
_ALIASES = {
    "path": "path",
    "isolationlevel": "isolation_level",
    "kafkaisolationlevel": "isolation_level",
    "topics": "topics",
    "subscribe": "topics",
    "topic": "topics",
    "partitions": "partitions",
    "startingoffsets": "starting_offsets",
    "endingoffsets": "ending_offsets",
    "startingtimestamp": "starting_timestamp",
    "endingtimestamp": "ending_timestamp",
    "maxbytesperpartition": "max_bytes_per_partition",
    "minpartitions": "min_partitions",
    "headers": "headers",
    "includeheaders": "headers",
    "batchcolumns": "batch_columns",
    "includebatchcolumns": "batch_columns",
    "includeinternal": "include_internal",
    "verifycrc": "verify_crc",
    "maxrowsperbatch": "max_rows_per_batch",
}


def parse_options(options: Mapping[str, str]) -> ReadOptions:
    """Spark string options (any case; ``isolation.level`` or
    ``isolationLevel`` style) into :class:`ReadOptions`.  Unknown options are
    an error, so a typo does not silently read everything."""
    values = {}
    for name, value in options.items():
        key = name.lower().replace(".", "").replace("_", "").replace("-", "")
        if key not in _ALIASES:
            raise ValueError(f"unknown option {name!r} for kafka-log (known: {sorted(set(_ALIASES))})")
        values[_ALIASES[key]] = value
    if "path" not in values or not str(values["path"]).strip():
        raise ValueError("kafka-log needs a path: .option('path', DIR) or .load(DIR)")
    out = {"path": os.path.abspath(os.path.expanduser(str(values["path"])))}
    if "isolation_level" in values:
        level = str(values["isolation_level"]).strip().lower().replace("-", "_")
        if level not in ("read_committed", "read_uncommitted"):
            raise ValueError(f"isolationLevel must be read_committed or read_uncommitted, not {level!r}")
        out["isolation_level"] = level
    if "topics" in values:
        topics = values["topics"]
        if isinstance(topics, str):
            topics = [t.strip() for t in topics.split(",")]
        out["topics"] = tuple(t for t in topics if t)
    if "partitions" in values:
        parts = set()
        raw = values["partitions"]
        items = raw.split(",") if isinstance(raw, str) else raw
        for item in items:
            item = str(item).strip()
            if not item:
                continue
            topic, sep, num = item.rpartition(":")
            try:
                parts.add((topic if sep else None, int(num)))
            except ValueError:
                raise ValueError(f"partitions must list numbers or topic:number, not {item!r}") from None
        out["partitions"] = frozenset(parts)
    for key, words in (("starting_offsets", True), ("ending_offsets", True),
                       ("starting_timestamp", False), ("ending_timestamp", False)):
        if key in values:
            out[key] = _spec(key, values[key], words=words)
    if "max_bytes_per_partition" in values:
        out["max_bytes_per_partition"] = _size("maxBytesPerPartition", values["max_bytes_per_partition"])
    if "min_partitions" in values:
        n = int(values["min_partitions"])
        if n <= 0:
            raise ValueError("minPartitions must be positive")
        out["min_partitions"] = n
    for key in ("headers", "batch_columns", "include_internal", "verify_crc"):
        if key in values:
            out[key] = _bool(key, values[key])
    if "max_rows_per_batch" in values:
        n = int(values["max_rows_per_batch"])
        if n <= 0:
            raise ValueError("maxRowsPerBatch must be positive")
        out["max_rows_per_batch"] = n
    return ReadOptions(**out)


@dataclass(frozen=True)
class RangeTask:
    """Whole batches of one segment to decode, with the row filter to apply.

    ``aborted`` holds the ``(producer_id, first_offset)`` pairs read_committed
    needs for this range, taken from the partition's ``.txnindex`` files when
    planning, so a worker reads nothing but the range itself.
    """

    path: str
    start: int
    end: int
    topic: str
    partition: int
    first_offset: int
    start_offset: int | None = None  # rows below are dropped
    end_offset: int | None = None  # rows at or above are dropped
    aborted: tuple = field(default=())

    @property
    def size(self) -> int:
        return self.end - self.start


def offset_for_timestamp(part: logdir.PartitionDir, timestamp: int) -> int | None:
    """Kafka's offsetsForTimes: the first offset whose record timestamp is
    >= ``timestamp`` (None when every record is older)."""
    pos = part.lookup_timestamp(timestamp)
    if pos is None:
        return None
    # walk on from that batch: its max timestamp may come from a control
    # record, and later batches may hold the first qualifying record
    for seg, h in part.batches(pos.batch.last_offset):
        if h.max_timestamp < timestamp or h.is_control:
            continue
        rb = karrow.decode(seg.data[h.position:h.end], headers=False)
        ts = rb.column("timestamp").view(pa.int64()).to_numpy()
        hit = np.flatnonzero(ts >= timestamp)
        if len(hit):
            return int(rb.column("offset")[int(hit[0])].as_py())
    return None


def _partition_bounds(part, opts: ReadOptions):
    """``(start, end)`` offsets to read from a partition (None = unbounded),
    or None when the range is empty."""
    start = part.log_start_offset
    end = None
    nxt = part.next_offset
    so = _spec_for(opts.starting_offsets, part.topic, part.partition)
    if so is not None and so != EARLIEST:
        start = nxt if so == LATEST else max(start or 0, so)
    eo = _spec_for(opts.ending_offsets, part.topic, part.partition)
    if eo is not None and eo != LATEST:
        end = start if eo == EARLIEST else eo
    st = _spec_for(opts.starting_timestamp, part.topic, part.partition)
    if st is not None:
        off = offset_for_timestamp(part, st)
        off = nxt if off is None else off
        start = off if start is None else max(start, off)
    et = _spec_for(opts.ending_timestamp, part.topic, part.partition)
    if et is not None:
        off = offset_for_timestamp(part, et)
        if off is not None:
            end = off if end is None else min(end, off)
    if start is not None and end is not None and start >= end:
        return None
    if start is not None and nxt is not None and start >= nxt:
        return None
    return start, end


def _wanted(part, opts: ReadOptions) -> bool:
    if opts.partitions is None:
        return True
    return (None, part.partition) in opts.partitions or (part.topic, part.partition) in opts.partitions


def _open_partitions(opts: ReadOptions):
    opened = logdir.open(opts.path)
    if isinstance(opened, logdir.PartitionDir):
        parts = [opened]
        if opts.topics is not None and opened.topic not in opts.topics:
            parts = []
    else:
        parts = opened.partitions(opts.topics, include_internal=opts.include_internal)
    return opened, [p for p in parts if _wanted(p, opts)]


def plan(opts: ReadOptions) -> list[RangeTask]:
    """Every byte range to read, in (topic, partition, offset) order."""
    opened, parts = _open_partitions(opts)
    try:
        out: list[RangeTask] = []
        split_bytes = opts.max_bytes_per_partition
        if opts.min_partitions:
            # cut finer when a few large segments would otherwise leave cores idle
            total = sum(p.size for p in parts)
            split_bytes = max(_MIN_SPLIT, min(split_bytes, -(-total // opts.min_partitions)))
        for part in parts:
            bounds = _partition_bounds(part, opts)
            if bounds is None:
                continue
            start, end = bounds
            ranges = part.split(split_bytes, start, end)
            committed = opts.isolation_level == "read_committed"
            for i, r in enumerate(ranges):
                range_end = ranges[i + 1].first_offset if i + 1 < len(ranges) else end
                aborted = ()
                if committed:
                    aborted = tuple((t.producer_id, t.first_offset)
                                    for t in part.aborted_transactions(r.first_offset, range_end))
                out.append(RangeTask(r.path, r.start, r.end, part.topic, part.partition, r.first_offset,
                                     start, end, aborted))
        return out
    finally:
        opened.close()


def group_tasks(tasks: list[RangeTask], max_bytes: int, min_groups: int | None = None) -> list[list[RangeTask]]:
    """Pack consecutive ranges into Spark partitions of at most ``max_bytes``
    (fewer tasks for directories of many small partitions); with
    ``min_groups`` the target shrinks so there are at least that many groups
    when the ranges allow it."""
    total = sum(t.size for t in tasks)
    target = max_bytes
    if min_groups and total:
        target = max(1, min(max_bytes, -(-total // min_groups)))
    groups: list[list[RangeTask]] = []
    current: list[RangeTask] = []
    size = 0
    for t in tasks:
        if current and size + t.size > target:
            groups.append(current)
            current, size = [], 0
        current.append(t)
        size += t.size
    if current:
        groups.append(current)
    return groups


def decode_schema(opts: ReadOptions) -> pa.Schema:
    """The schema :func:`read_tasks` yields (Spark's Arrow form of the
    DataFrame schema: timestamps in UTC microseconds)."""
    fields = [
        pa.field("topic", pa.string(), nullable=False),
        pa.field("partition", pa.int32(), nullable=False),
        pa.field("offset", pa.int64(), nullable=False),
        pa.field("timestamp", pa.timestamp("us", tz="UTC"), nullable=False),
        pa.field("timestamp_type", pa.int32(), nullable=False),
        pa.field("key", pa.binary()),
        pa.field("value", pa.binary()),
    ]
    if opts.headers:
        header = pa.struct([pa.field("key", pa.string(), nullable=False), pa.field("value", pa.binary())])
        fields.append(pa.field("headers", pa.list_(pa.field("element", header, nullable=False)),
                               nullable=False))
    if opts.batch_columns:
        fields += [
            pa.field("producer_id", pa.int64(), nullable=False),
            pa.field("producer_epoch", pa.int16(), nullable=False),
            pa.field("sequence", pa.int32(), nullable=False),
            pa.field("partition_leader_epoch", pa.int32(), nullable=False),
            pa.field("is_transactional", pa.bool_(), nullable=False),
        ]
    return pa.schema(fields)


def _conform(arr: pa.Array, typ: pa.DataType) -> pa.Array:
    if arr.type.equals(typ):
        return arr
    if pa.types.is_list(typ):
        # same layout, different child field name/nullability: no copy needed
        try:
            return arr.view(typ)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, TypeError):
            pass
    return arr.cast(typ)


def _row_slice(rb: pa.RecordBatch, lo: int | None, hi: int | None) -> pa.RecordBatch:
    """Rows with lo <= offset < hi; offsets ascend within a partition log, so
    this is a zero-copy slice."""
    n = rb.num_rows
    if n == 0 or (lo is None and hi is None):
        return rb
    offsets = rb.column(0).to_numpy()  # the offset column comes first in kafkacodec.arrow
    if (lo is None or offsets[0] >= lo) and (hi is None or offsets[-1] < hi):
        return rb
    a = 0 if lo is None else int(np.searchsorted(offsets, lo, side="left"))
    b = n if hi is None else int(np.searchsorted(offsets, hi, side="left"))
    return rb.slice(a, max(0, b - a))


def _finish(rb: pa.RecordBatch, task: RangeTask, sch: pa.Schema) -> pa.RecordBatch:
    n = rb.num_rows
    cols = {name: rb.column(i) for i, name in enumerate(rb.schema.names)}
    arrays = []
    for f in sch:
        if f.name == "topic":
            arr = pa.repeat(pa.scalar(task.topic, pa.string()), n)
        elif f.name == "partition":
            arr = pa.repeat(pa.scalar(task.partition, pa.int32()), n)
        elif f.name == "timestamp":
            # ms -> Spark's UTC microseconds, computed in Arrow's kernels
            ms = cols["timestamp"].view(pa.int64())
            arr = pc.multiply(ms, 1000).view(pa.timestamp("us", tz="UTC"))
        elif f.name == "timestamp_type":
            arr = cols["timestamp_type"].cast(pa.int32())
        else:
            arr = _conform(cols[f.name], f.type)
        arrays.append(arr)
    return pa.RecordBatch.from_arrays(arrays, schema=sch)


def read_tasks(tasks: Iterable[RangeTask], opts: ReadOptions, *, schema: pa.Schema | None = None
               ) -> Iterator[pa.RecordBatch]:
    """Decode ranges into RecordBatches of ``schema`` (default
    :func:`decode_schema`), one or more per range, never empty."""
    sch = decode_schema(opts) if schema is None else schema
    for task in tasks:
        view = logdir.read_range(logdir.ByteRange(task.path, task.start, task.end, task.first_offset, 0,
                                                  task.topic, task.partition))
        for rb in karrow.iter_decode(view, isolation_level=opts.isolation_level, aborted_transactions=task.aborted,
                                     headers=opts.headers, batch_columns=opts.batch_columns,
                                     verify_crc=opts.verify_crc, max_rows=opts.max_rows_per_batch):
            rb = _row_slice(rb, task.start_offset, task.end_offset)
            if rb.num_rows:
                yield _finish(rb, task, sch)
