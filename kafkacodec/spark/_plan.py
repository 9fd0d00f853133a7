"""Planning and reading for the ``kafka-log`` source, without pyspark.

The driver turns options into :class:`RangeTask` lists (plain values that
pickle cheaply); a worker turns a task list into pyarrow RecordBatches with
:func:`read_tasks`.  Keeping this free of pyspark lets the tests, the CLI's
summary and the benchmark use exactly the code Spark runs.
"""
from __future__ import annotations

import json
import os
import struct
import time
from dataclasses import dataclass, field, fields, replace
from typing import Any, Iterable, Iterator, Literal, Mapping, cast

import numpy as np
import pyarrow as pa

import kafkacodec.arrow as karrow
import kafkacodec.logdir as logdir
from kafkacodec.errors import CorruptDataError, KafkaCodecError
from kafkacodec.records.isolation import IsolationLevel
from kafkacodec.spark._pushdown import Pushed
from kafkacodec.spark._schema import spark_arrow_schema, to_spark_batch

__all__ = [
    "KafkaLogError",
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

# an offset or timestamp option: ("all", n) for every partition, or ("map", {(topic, partition): n})
Spec = tuple[Literal["all"], int] | tuple[Literal["map"], dict[tuple[str, int], int]]



class KafkaLogError(KafkaCodecError):
    """The path or the topics given to ``kafka-log`` do not name data to read
    (no such directory, not a Kafka data directory, unknown topic or
    partition).  Raised while planning, before any task starts."""


_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def _bool(name: str, value: object) -> bool:
    v = str(value).strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise ValueError(f"option {name} must be true or false, not {value!r}")


def _size(name: str, value: object) -> int:
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


def _spec(name: str, value: object, *, words: bool) -> Spec | None:
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
            out: dict[tuple[str, int], int] = {}
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


def _spec_for(spec: Spec | None, topic: str, partition: int) -> int | None:
    if spec is None:
        return None
    if spec[0] == "all":
        return spec[1]
    return spec[1].get((topic, partition))


@dataclass(frozen=True)
class ReadOptions:
    """Options of the ``kafka-log`` source, parsed (see :func:`parse_options`)."""

    path: str
    # read_committed like the convert command: the .txnindex files are at hand
    isolation_level: str = "read_committed"
    topics: tuple[str, ...] | None = None
    partitions: frozenset[tuple[str | None, int]] | None = None  # {(topic or None, partition)}
    starting_offsets: Spec | None = None
    ending_offsets: Spec | None = None
    starting_timestamp: Spec | None = None
    ending_timestamp: Spec | None = None
    max_bytes_per_partition: int = 64 << 20
    min_partitions: int | None = None
    # includeHeaders, as Spark's Kafka source: the headers column only when asked for
    headers: bool = False
    batch_columns: bool = False
    include_internal: bool = False
    verify_crc: bool = True
    max_rows_per_batch: int = 1 << 16
    progress_dir: str | None = None
    # "error": corrupt data fails the read; "skip": damaged batches are left
    # out and counted (see read_progress)
    on_corruption: str = "error"
    # decode limits per batch (None: the process defaults in records.compression)
    max_decompressed_size: int | None = None
    max_records_per_batch: int | None = None
    # filters Spark pushed down (KafkaLogReader.pushFilters); not an option
    pushed: Pushed | None = None


# option name (lower case, no dots/underscores) -> field: the field's name and Spark's names
_ALIASES = {f.name.replace("_", ""): f.name for f in fields(ReadOptions) if f.name != "pushed"} | {
    "kafkaisolationlevel": "isolation_level",
    "subscribe": "topics",
    "topic": "topics",
    "includeheaders": "headers",
    "includebatchcolumns": "batch_columns",
}


def parse_options(options: Mapping[str, str]) -> ReadOptions:
    """Spark string options (any case; ``isolation.level`` or
    ``isolationLevel`` style) into :class:`ReadOptions`.  Unknown options are
    an error, so a typo does not silently read everything."""
    values: dict[str, Any] = {}  # Spark gives strings; Python callers may give lists and numbers
    for name, value in options.items():
        key = name.lower().replace(".", "").replace("_", "").replace("-", "")
        if key not in _ALIASES:
            raise ValueError(f"unknown option {name!r} for kafka-log (known: {sorted(set(_ALIASES))})")
        values[_ALIASES[key]] = value
    if "path" not in values or not str(values["path"]).strip():
        raise ValueError("kafka-log needs a path: .option('path', DIR) or .load(DIR)")
    out: dict[str, Any] = {"path": os.path.abspath(os.path.expanduser(str(values["path"])))}
    if "isolation_level" in values:
        level = str(values["isolation_level"]).strip().lower().replace("-", "_")
        found = IsolationLevel.find(level)
        if found is None:
            raise ValueError(f"isolationLevel must be read_committed or read_uncommitted, not {level!r}")
        # kept as Kafka's name: ReadOptions is public, and its users compare and print the text
        out["isolation_level"] = str(found)
    if "topics" in values:
        topics = values["topics"]
        if isinstance(topics, str):
            topics = [t.strip() for t in topics.split(",")]
        out["topics"] = tuple(t for t in topics if t)
    if "partitions" in values:
        parts: set[tuple[str | None, int]] = set()
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
    if values.get("progress_dir"):
        out["progress_dir"] = str(values["progress_dir"])
    if "on_corruption" in values:
        mode = str(values["on_corruption"]).strip().lower()
        if mode not in ("error", "skip"):
            raise ValueError(f"onCorruption must be error or skip, not {mode!r}")
        out["on_corruption"] = mode
    if "max_decompressed_size" in values:
        out["max_decompressed_size"] = _size("maxDecompressedSize", values["max_decompressed_size"])
    if "max_records_per_batch" in values:
        try:
            n = int(values["max_records_per_batch"])
        except ValueError:
            n = 0
        if n <= 0:
            raise ValueError(f"maxRecordsPerBatch must be a positive number, not {values['max_records_per_batch']!r}")
        out["max_records_per_batch"] = n
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
    aborted: tuple[tuple[int, int], ...] = field(default=())  # (producer id, first offset)
    is_active: bool = False  # the partition's last segment: may end in a partial batch
    # the incomplete batch ending the partition (logdir.TornTail), left out by the plan: on the
    # partition's last task, which counts it as read_range counts one met while reading
    torn_tails: tuple[logdir.TornTail, ...] = field(default=())

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
        rb = karrow.decode(seg.read(h.position, h.end), headers=False, isolation_level="read_uncommitted")
        ts = rb.column("timestamp").view(pa.int64()).to_numpy()
        hit = np.flatnonzero(ts >= timestamp)
        if len(hit):
            return int(rb.column("offset")[int(hit[0])].as_py())
    return None


def _partition_bounds(part: logdir.PartitionDir, opts: ReadOptions,
                      requested: tuple[int | None, int | None] | None = None
                      ) -> tuple[int | None, int | None] | None:
    """``(start, end)`` offsets to read from a partition (None = unbounded),
    or None when the range is empty; ``requested`` is
    :func:`_requested_offsets` when already known."""
    start, end = _requested_offsets(part, opts) if requested is None else requested
    if start is not None and end is not None and start >= end:
        return None
    nxt = part.next_offset
    if start is not None and nxt is not None and start >= nxt:
        return None
    return start, end


def _torn_tail(part: logdir.PartitionDir, opts: ReadOptions,
               requested: tuple[int | None, int | None]) -> logdir.TornTail | None:
    """The incomplete batch ending the partition's log when the offsets asked
    for (``requested``, see :func:`_requested_offsets`) reach into it (it
    would hold offsets from the log's next offset on), else None."""
    if not part.segments:
        return None
    start, end = requested
    nxt = part.next_offset  # not None: the partition has segments
    if end is not None and ((start is not None and start >= end) or (nxt is not None and end <= nxt)):
        return None
    return part.segments[-1].torn_tail(opts.on_corruption)


def _requested_offsets(part: logdir.PartitionDir, opts: ReadOptions) -> tuple[int | None, int | None]:
    """``(start, end)`` offsets the options ask for (None = unbounded); the
    range may be empty or lie past the end of the log."""
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
        if off is not None:  # None: a partition without segments
            start = off if start is None else max(start, off)
    et = _spec_for(opts.ending_timestamp, part.topic, part.partition)
    if et is not None:
        off = offset_for_timestamp(part, et)
        if off is not None:
            end = off if end is None else min(end, off)
    pushed = opts.pushed
    if pushed is not None:
        start, end = pushed.bounds(start, end)
        if pushed.min_timestamp is not None:
            # the time index finds the first offset that new: everything before is older
            off = offset_for_timestamp(part, pushed.min_timestamp)
            off = nxt if off is None else off  # every whole batch is older
            if off is not None:  # None: a partition without segments
                start = off if start is None else max(start, off)
    return start, end


def _wanted(part: logdir.PartitionDir, opts: ReadOptions) -> bool:
    if opts.pushed is not None and not opts.pushed.allows(part.topic, part.partition):
        return False
    if opts.partitions is None:
        return True
    return (None, part.partition) in opts.partitions or (part.topic, part.partition) in opts.partitions


def _names(items: Iterable[str]) -> str:
    items = sorted(items)
    shown = ", ".join(items[:12])
    return shown + (f" and {len(items) - 12} more" if len(items) > 12 else "")


def _open_partitions(opts: ReadOptions) -> tuple[logdir.LogDir | logdir.PartitionDir, list[logdir.PartitionDir]]:
    """Open the path and select partitions, or raise KafkaLogError naming
    what was looked for: an empty or foreign directory, or a topic that is
    not there, would otherwise read as zero rows."""
    path = opts.path
    if not os.path.exists(path):
        raise KafkaLogError(f"no such directory: {path}")
    if not os.path.isdir(path):
        raise KafkaLogError(f"not a directory: {path}")
    try:
        opened = logdir.open(path)
    except (NotADirectoryError, PermissionError) as exc:
        raise KafkaLogError(f"cannot open {path}: {exc.strerror or exc}") from None
    try:
        if isinstance(opened, logdir.PartitionDir):
            every = [opened]
        else:
            every = opened.partitions(include_internal=True)
        if not any(p.segments for p in every):
            raise KafkaLogError(
                f"not a Kafka data directory: {path} has no <topic>-<partition> directory holding .log "
                f"segment files" + (f" (found {len(every)} partition directories without segments)"
                                    if every else ""))
        present = {p.topic for p in every}
        if opts.topics is not None:
            if not opts.topics:
                raise KafkaLogError("the topics option names no topic")
            missing = [t for t in opts.topics if t not in present]
            if missing:
                raise KafkaLogError(f"no topic {_names(missing)} in {path} (topics there: {_names(present)})")
            parts = [p for p in every if p.topic in opts.topics]
        elif isinstance(opened, logdir.PartitionDir):
            parts = every
        else:
            parts = opened.partitions(include_internal=opts.include_internal)
            if not parts:
                raise KafkaLogError(f"no partitions to read in {path}: it holds only internal topics "
                                    f"({_names(present)}); includeInternal reads them")
        if opts.partitions is not None:
            have = {(p.topic, p.partition) for p in parts}
            numbers = {n for _, n in have}
            missing = [f"{t}:{n}" if t is not None else str(n) for t, n in sorted(
                opts.partitions, key=lambda x: (x[0] or "", x[1]))
                if ((t, n) not in have if t is not None else n not in numbers)]
            if missing:
                raise KafkaLogError(f"no partition {_names(missing)} among the selected topics in {path} "
                                    f"(there: {_names(f'{t}:{n}' for t, n in have)})")
    except BaseException:
        opened.close()
        raise
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
            # asked once: a timestamp option decodes batches to find its offset
            requested = _requested_offsets(part, opts)
            bounds = _partition_bounds(part, opts, requested)
            torn = _torn_tail(part, opts, requested)
            if bounds is None and torn is None:
                continue
            start, end = requested
            ranges = part.split(split_bytes, start, end, on_corruption=opts.on_corruption) if bounds else []
            committed = opts.isolation_level == "read_committed"
            mine: list[RangeTask] = []
            for i, r in enumerate(ranges):
                range_end = ranges[i + 1].first_offset if i + 1 < len(ranges) else end
                aborted: tuple[tuple[int, int], ...] = ()
                if committed:
                    aborted = tuple((t.producer_id, t.first_offset)
                                    for t in part.aborted_transactions(r.first_offset, range_end))
                mine.append(RangeTask(r.path, r.start, r.end, part.topic, part.partition, r.first_offset,
                                      start, end, aborted, r.is_active))
            if torn is not None:
                # the task reading the end of the partition reports what the plan left out there; with
                # no whole batch to read, an empty task at the torn bytes does
                # a partition with a torn tail has segments, so a next offset
                torn_offset = cast(int, part.next_offset)
                last = mine.pop() if mine else RangeTask(torn.file, torn.position, torn.position, part.topic,
                                                         part.partition, torn_offset, start, end,
                                                         is_active=True)
                mine.append(replace(last, torn_tails=(torn,)))
            out.extend(mine)
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
    return spark_arrow_schema(headers=opts.headers, batch_columns=opts.batch_columns, kafka_source=True)


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
    return to_spark_batch(rb, sch, topic=task.topic, partition=task.partition)


PROGRESS_INTERVAL = 0.25  # seconds between rewrites of a task's progress file
_PREFIX = struct.Struct(">qi")  # base offset and length open every batch and legacy message
_LAST_DELTA = struct.Struct(">i")


class _Progress:
    """Bytes and rows one Spark task has read so far, and what it left out,
    kept in a small file of ``progress_dir`` that the driver sums up (local
    masters, where the driver sees the workers' files).  Rewritten at most
    every ``interval`` seconds, atomically, so a reader never sees half a
    file.

    The file's first line holds bytes, rows, skipped batches, skipped bytes,
    partial batches and truncated bytes; each line after it one torn tail
    left out, as JSON (file, position, bytes)."""

    def __init__(self, directory: str, key: object, interval: float | None = None) -> None:
        self.path = os.path.join(directory, f"task-{key}")
        self.interval = PROGRESS_INTERVAL if interval is None else interval
        self.bytes = self.rows = 0
        self.skipped_batches = self.skipped_bytes = 0  # on_corruption="skip"
        self.partial_batches = self.truncated_bytes = 0  # torn tails
        self.torn_tails: list[logdir.TornTail] = []
        self._done_bytes = 0  # of finished ranges
        self._last = 0.0

    def left_out(self, stats: logdir.ReadStats) -> None:
        """Count what one range's read left out."""
        self.skipped_batches += stats.skipped_batches
        self.skipped_bytes += stats.skipped_bytes
        self.partial_batches += stats.partial_batches
        self.truncated_bytes += stats.truncated_bytes
        self.torn_tails.extend(stats.torn_tails)

    def range_progress(self, task: RangeTask, view: memoryview, pos: int, last_offset: int) -> int:
        """Advance ``pos`` past the batches of ``view`` that hold no offset
        above ``last_offset`` (they are decoded); the walk reads 12-byte
        prefixes only and stops quietly on bytes it cannot follow (the
        decoder reports those)."""
        n = len(view)
        while pos + 17 <= n:
            base, length = _PREFIX.unpack_from(view, pos)
            last = base
            if view[pos + 16] == 2 and pos + 27 <= n:
                last = base + _LAST_DELTA.unpack_from(view, pos + 23)[0]
            if last > last_offset or length <= 0 or pos + 12 + length > n:
                break
            pos += 12 + length
        self.bytes = self._done_bytes + pos
        return pos

    def range_done(self, task: RangeTask) -> None:
        self._done_bytes += task.size
        self.bytes = self._done_bytes

    def write(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < self.interval:
            return
        self._last = now
        tmp = f"{self.path}.{os.getpid()}.tmp"
        lines = [f"{self.bytes} {self.rows} {self.skipped_batches} {self.skipped_bytes} "
                 f"{self.partial_batches} {self.truncated_bytes}\n"]
        lines += [json.dumps(t._asdict()) + "\n" for t in self.torn_tails]
        try:
            with open(tmp, "w") as f:
                f.writelines(lines)
            os.replace(tmp, self.path)
        except OSError:  # progress is a convenience; never fail the read over it
            pass


def _progress_totals(directory: str) -> tuple[list[int], list[logdir.TornTail]]:
    """Sums of every task file in ``directory`` (bytes, rows, skipped
    batches, skipped bytes, partial batches, truncated bytes; files of older
    writers may lack the last ones) and the torn tails they list."""
    totals = [0] * 6
    tails: list[logdir.TornTail] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return totals, tails
    for name in sorted(names):
        if not name.startswith("task-") or name.endswith(".tmp"):
            continue
        try:
            with open(os.path.join(directory, name)) as f:
                first, *rest = f.read().splitlines() or [""]
            fields = [int(v) for v in first.split()]
            torn = [logdir.TornTail(**json.loads(line)) for line in rest if line.strip()]
        except (OSError, ValueError, TypeError):
            continue
        for i, v in enumerate(fields[:6]):
            totals[i] += v
        tails.extend(torn)
    return totals, tails


def read_progress(directory: str) -> tuple[int, int]:
    """``(bytes, rows)`` read so far by every task reporting to ``directory``."""
    totals, _ = _progress_totals(directory)
    return totals[0], totals[1]


def read_skipped(directory: str) -> tuple[int, int]:
    """``(batches, bytes)`` of corrupt data left out with ``onCorruption=skip``
    by every task reporting to ``directory``."""
    totals, _ = _progress_totals(directory)
    return totals[2], totals[3]


def read_partial(directory: str) -> tuple[int, int, list[logdir.TornTail]]:
    """``(batches, bytes, tails)`` of the incomplete batches ending active
    segments (torn writes, never an error) that the tasks reporting to
    ``directory`` left out; ``tails`` lists each as a logdir.TornTail (file,
    byte position, bytes)."""
    totals, tails = _progress_totals(directory)
    return totals[4], totals[5], tails


def _locate(exc: KafkaCodecError, task: RangeTask) -> None:
    """Make a decoding error say which segment file it is in and where in
    that file (the decoder counts from the start of the task's byte range)."""
    if isinstance(exc, CorruptDataError):
        exc.shift_offset(task.start)
    reason = getattr(exc, "reason", None)
    text = reason if reason is not None else (str(exc.args[0]) if exc.args else "")
    if task.path not in text:
        text = f"{task.path}: {text}"
    if reason is not None:
        setattr(exc, "reason", text)  # the errors that keep a reason (see getattr above)
    exc.args = (text,) + tuple(exc.args[1:])


def read_tasks(tasks: Iterable[RangeTask], opts: ReadOptions, *, schema: pa.Schema | None = None,
               progress_key: object = None) -> Iterator[pa.RecordBatch]:
    """Decode ranges into RecordBatches of ``schema`` (default
    :func:`decode_schema`), one or more per range, never empty.

    Errors name the segment file and the byte position within it.  An
    incomplete batch ending a partition (a torn write) is left out, logged as
    a warning on the ``kafkacodec.logdir`` logger by the task reading the end
    of that partition, and counted.  With ``opts.progress_dir`` and a
    ``progress_key`` (the Spark partition) the bytes and rows read so far, and
    what was left out (:func:`read_skipped`, :func:`read_partial`), are kept
    in that directory.
    """
    sch = decode_schema(opts) if schema is None else schema
    progress = _Progress(opts.progress_dir, progress_key) if opts.progress_dir and progress_key is not None else None
    for task in tasks:
        stats = logdir.ReadStats()
        view = logdir.read_range(logdir.ByteRange(task.path, task.start, task.end, task.first_offset, 0,
                                                  task.topic, task.partition, task.is_active),
                                 on_corruption=opts.on_corruption, verify_crc=opts.verify_crc and
                                 opts.on_corruption == "skip", stats=stats)
        for tail in task.torn_tails:
            stats.add_torn_tail(tail)  # left out by the plan; counted and logged where the read happens
        if progress is not None:
            progress.left_out(stats)
        pos = 0
        try:
            for rb in karrow.iter_decode(view, isolation_level=opts.isolation_level,
                                         aborted_transactions=task.aborted, headers=opts.headers,
                                         batch_columns=opts.batch_columns, verify_crc=opts.verify_crc,
                                         max_decompressed_size=opts.max_decompressed_size,
                                         max_records_per_batch=opts.max_records_per_batch,
                                         max_rows=opts.max_rows_per_batch):
                if progress is not None and rb.num_rows:
                    pos = progress.range_progress(task, view, pos, rb.column(0)[-1].as_py())
                rb = _row_slice(rb, task.start_offset, task.end_offset)
                if rb.num_rows:
                    if progress is not None:
                        progress.rows += rb.num_rows
                        progress.write()
                    yield _finish(rb, task, sch)
        except KafkaCodecError as exc:
            _locate(exc, task)
            raise
        if progress is not None:
            progress.range_done(task)
            progress.write()
    if progress is not None:
        progress.write(force=True)
