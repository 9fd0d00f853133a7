"""``kafkacodec-spark convert``: a Kafka log directory to Parquet with Spark.

    kafkacodec-spark convert LOGDIR OUT [--master local[*]] [--mode errorifexists|overwrite|append]
                             [--isolation-level read_committed] [--topics a,b] [--verbose] ...
    kafkacodec-spark convert --demo [OUT]

``--demo`` generates a demo data directory (see :mod:`kafkacodec.spark_cli.demo`)
in a temporary directory, converts it on local Spark and checks the Parquet
output: every record read_committed should see is there and no record of an
aborted transaction is.  The output is kept and its path printed.

The command never deletes what it did not create: OUT may not be, contain or
sit inside LOGDIR; by default it must be new or empty; ``--mode overwrite``
and ``--mode append`` work only on a directory holding an earlier convert's
output (its ``_KAFKACODEC`` file lists the files it wrote), and overwrite
removes only those files.  A failed run removes what it wrote and nothing
else.  LOGDIR, the topics and OUT's parent are checked before Spark starts.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, Self, TextIO

from kafkacodec.spark_cli import check, demo
from kafkacodec.spark_cli._common import (MARKER, CommandError, Output, changed, demo_checked, format_rate, human,
                                          job_failed, plural, rate, snapshot, spark_session)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from kafkacodec.spark._plan import RangeTask

__all__ = ["add_parser", "run", "convert", "preflight", "partitioned_write_conf", "PARTITIONED_WRITE_CONF",
           "WRITER", "MARKER"]

WRITER = "kafkacodec-spark convert"


class _Progress:
    """One status line: tasks from Spark's status tracker, bytes and rows from
    the source's own counters (files the tasks keep in ``progress_dir``).

    A write job is one stage of a few large tasks, so task counts alone sit
    at 0/N for most of a run; the byte and row counters move batch by batch.
    Elapsed time counts from ``start``, the clock the summary uses too.
    """

    def __init__(self, spark: SparkSession, total_bytes: int, total_tasks: int, enabled: bool, *, start: float,
                 stream: TextIO | None = None, progress_dir: str | None = None,
                 interval: float | None = None) -> None:
        self.sc = spark.sparkContext
        self.total_bytes = total_bytes
        self.total_tasks = total_tasks
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.start = start
        self.progress_dir = progress_dir
        self._tty = getattr(self.stream, "isatty", lambda: False)()
        self.interval = interval if interval is not None else (0.5 if self._tty else 5.0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._last = ""
        self._done_tasks = 0
        self.lines: list[str] = []

    def __enter__(self) -> Self:
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> Literal[False]:
        self._stop.set()
        if self.enabled:
            self._thread.join()
            if exc_type is not None and self._tty and self._last:
                self.stream.write("\n")  # keep the last state; no "finished" line on failure
                self.stream.flush()
        return False

    def _tasks(self) -> tuple[int, int]:
        tracker = self.sc.statusTracker()
        done = total = 0
        for job_id in tracker.getActiveJobsIds():
            job = tracker.getJobInfo(job_id)
            if job is None:
                continue
            for stage_id in job.stageIds:
                stage = tracker.getStageInfo(stage_id)
                if stage is not None:
                    done += stage.numCompletedTasks
                    total += stage.numTasks
        return done, total

    def counters(self) -> tuple[int, int] | None:
        if self.progress_dir is None:
            return None
        from kafkacodec.spark._plan import read_progress

        return read_progress(self.progress_dir)

    def line(self, elapsed: float, *, final: bool = False) -> str:
        if final:
            done, total = self.total_tasks, self.total_tasks
        else:
            try:
                done, total = self._tasks()
            except Exception:  # the context may be stopping
                done, total = 0, 0
            total = total or self.total_tasks
            # a finished job leaves the tracker's active list: never count backwards
            done = self._done_tasks = max(self._done_tasks, min(done, total))
        parts = [f"{done}/{total} tasks"]
        counted = self.counters()
        if counted is not None:
            nbytes, rows = counted
            share = nbytes / self.total_bytes if self.total_bytes else 1.0
            parts.append(f"{human(nbytes)} of {human(self.total_bytes)} ({share:.0%})")
            parts.append(f"{rows:,} rows")
        elif total:
            parts.append(f"~{human(self.total_bytes * done / total)} of {human(self.total_bytes)}")
        if final:
            return "convert: finished: " + ", ".join(parts) + f" in {elapsed:.1f}s"
        return "convert: " + ", ".join(parts) + f", {elapsed:.0f}s"

    def _write(self, line: str, final: bool = False) -> None:
        self.lines.append(line)
        if self._tty:
            self.stream.write("\r" + line.ljust(len(self._last)) + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
        self._last = line

    def finish(self, elapsed: float) -> None:
        """The final line, with the elapsed time the summary reports."""
        if self.enabled:
            self._write(self.line(elapsed, final=True), final=True)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            line = self.line(time.monotonic() - self.start)
            if self._tty or line.split(", ")[:-1] != self._last.split(", ")[:-1]:
                self._write(line)


def _parquet_stats(out: str, files: Iterable[str] | None = None) -> tuple[int, int, int]:
    """Rows, bytes and count of the Parquet files under ``out`` (only
    ``files``, relative paths, when given)."""
    import pyarrow.parquet as pq

    if files is None:
        files = [os.path.relpath(os.path.join(root, name), out)
                 for root, _, names in os.walk(out) for name in names]
    rows = size = count = 0
    for rel in files:
        if rel.endswith(".parquet") and not os.path.basename(rel).startswith((".", "_")):
            path = os.path.join(out, rel)
            rows += pq.ParquetFile(path).metadata.num_rows
            size += os.path.getsize(path)
            count += 1
    return rows, size, count


# Each read task covers byte ranges of one topic-partition (a few at most), so
# Spark's partitioned writer can keep one file open per partition instead of
# sorting every row by (topic, partition) first; it falls back to sorting by
# itself beyond this many open files.
PARTITIONED_WRITE_CONF = {
    "spark.sql.optimizer.plannedWrite.enabled": "false",
    "spark.sql.maxConcurrentOutputFileWriters": "64",
}


@contextlib.contextmanager
def partitioned_write_conf(spark: SparkSession,
                           conf: Mapping[str, str] = PARTITIONED_WRITE_CONF) -> Iterator[None]:
    """Apply PARTITIONED_WRITE_CONF for the duration of a write, then restore
    the session's own values (runtime SQL settings: works on any cluster)."""
    saved: dict[str, str | None] = {}
    for key, value in conf.items():
        saved[key] = spark.conf.get(key, None)
        spark.conf.set(key, value)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, old)


def _local_master(spark: SparkSession) -> bool:
    return (spark.sparkContext.master or "").startswith("local")  # None only before the context is set up


def convert(logdir: str, out: str, *, spark: SparkSession, options: Mapping[str, Any] | None = None,
            compression: str = "snappy", mode: str = "errorifexists", progress: bool = True,
            min_partitions: int | None = None, progress_stream: TextIO | None = None,
            progress_interval: float | None = None) -> dict[str, Any]:
    """Read ``logdir`` with the kafka-log source and write Parquet to ``out``
    partitioned by topic and partition (``mode`` is Spark's save mode, as
    Spark's own default ``errorifexists`` unless given).  Returns the summary
    figures, counting only the files this write added."""
    from kafkacodec.spark import _plan

    options = {k: str(v) for k, v in (options or {}).items() if v is not None}
    options["path"] = logdir
    if min_partitions is None:
        # a few tasks per core balance uneven partitions
        min_partitions = 2 * spark.sparkContext.defaultParallelism
    options.setdefault("minPartitions", str(min_partitions))
    opts = _plan.parse_options(options)
    tasks = _plan.plan(opts)
    input_bytes = sum(t.size for t in tasks)
    groups = len(_plan.group_tasks(tasks, opts.max_bytes_per_partition, opts.min_partitions)) or 1

    before = snapshot(out) if os.path.isdir(out) else {}
    progress_dir = None
    if _local_master(spark):
        # the tasks' counters (progress, skipped batches) are files; only a
        # local master's workers share the driver's disk
        progress_dir = tempfile.mkdtemp(prefix="kafkacodec-progress-")
        options["progressDir"] = progress_dir
    try:
        t0 = time.monotonic()
        df = spark.read.format("kafka-log").options(**options).load()
        meter = _Progress(spark, input_bytes, groups, progress, start=t0, stream=progress_stream,
                          progress_dir=progress_dir, interval=progress_interval)
        with meter, partitioned_write_conf(spark):
            (df.write.mode(mode).partitionBy("topic", "partition")
             .option("compression", compression).parquet(out))
        seconds = time.monotonic() - t0
        meter.finish(seconds)
        if progress_dir is not None:
            skipped = _plan.read_skipped(progress_dir)
            partial = _plan.read_partial(progress_dir)
        else:
            skipped = (0, 0)
            # the plan knows what it left out at the ends of the partitions (the tasks log it where they run)
            torn = [t for task in tasks for t in task.torn_tails]
            partial = (len(torn), sum(t.bytes for t in torn), torn)
    finally:
        if progress_dir is not None:
            shutil.rmtree(progress_dir, ignore_errors=True)
    written = changed(before, snapshot(out))
    rows, output_bytes, files = _parquet_stats(out, written)
    return {
        "rows": rows,
        "input_bytes": input_bytes,
        "output_bytes": output_bytes,
        "files": files,
        "written": written,
        "spark_partitions": groups,
        "seconds": round(seconds, 1),
        "rows_per_second": rate(rows, seconds),
        "isolation_level": opts.isolation_level,
        "on_corruption": opts.on_corruption,
        # counted on local masters only (the tasks' counter files)
        "skipped_batches": skipped[0],
        "skipped_bytes": skipped[1],
        # incomplete batches ending active segments (torn writes), left out as Kafka's log recovery would
        "partial_batches": partial[0],
        "truncated_bytes": partial[1],
        "torn_tails": [t._asdict() for t in sorted(partial[2])],
    }


def _print_summary(s: dict[str, Any], stream: TextIO | None = None) -> None:
    out = stream or sys.stdout
    out.write(
        f"rows: {s['rows']:,}\n"
        f"input: {human(s['input_bytes'])} ({s['input_bytes']:,} bytes of record batches)\n"
        f"output: {human(s['output_bytes'])} in {plural(s['files'], 'Parquet file')} in {s['out']}\n"
        f"seconds: {s['seconds']:.1f} ({plural(s['spark_partitions'], 'Spark partition')})\n"
        f"rows/s: {format_rate(s['rows_per_second'])}\n")
    if s.get("skipped_batches"):
        out.write(f"skipped: {s['skipped_batches']:,} corrupt batches ({s['skipped_bytes']:,} bytes), "
                  f"--on-corruption skip\n")
    if s.get("partial_batches"):
        out.write(_left_out_line(s) + "\n")


def _left_out_line(s: dict[str, Any]) -> str:
    """The summary line for incomplete batches left out at the ends of active segments."""
    n = s["partial_batches"]
    tails = s.get("torn_tails") or []
    shown = [f"{t['file']} from byte {t['position']:,}" for t in tails[:5]]
    if len(tails) > 5:
        shown.append(f"{len(tails) - 5} more")
    if n == 1:
        what, where, why = "1 incomplete batch", "the end", "a torn write"
    else:
        what, where, why = f"{n:,} incomplete batches", "the ends", "torn writes"
    return (f"left out: {what} ({s['truncated_bytes']:,} bytes) at {where} of {', '.join(shown)} "
            f"({why}, as Kafka's log recovery would truncate)")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    c = sub.add_parser("convert", help="convert a Kafka log directory to Parquet",
                       description="Convert a broker data directory (or one topic-N directory) to Parquet "
                                   "partitioned by topic and partition. --demo generates a demo directory, "
                                   "converts and checks it. OUT must be new or empty unless --mode overwrite "
                                   "or append names an earlier convert's output; nothing convert did not "
                                   "write is ever deleted.")
    c.add_argument("paths", nargs="*", metavar="LOGDIR OUT",
                   help="log directory and output directory (with --demo: OUT only, optional)")
    c.add_argument("--demo", action="store_true",
                   help="convert a generated demo directory (OUT defaults to a new temporary directory, kept)")
    c.add_argument("--master", default="local[*]", help="Spark master (default local[*])")
    c.add_argument("--isolation-level", default="read_committed",
                   choices=["read_committed", "read_uncommitted"],
                   help="read_committed (default) leaves out aborted transactions using the .txnindex files")
    c.add_argument("--topics", help="comma-separated topics (default: all but internal __ topics)")
    c.add_argument("--partitions", help="partition numbers or topic:number, comma separated")
    c.add_argument("--starting-offsets", help="number, earliest, latest or JSON per topic/partition")
    c.add_argument("--ending-offsets", help="exclusive; number, latest or JSON per topic/partition")
    c.add_argument("--starting-timestamp", help="ms since the epoch (Kafka offsetsForTimes)")
    c.add_argument("--ending-timestamp", help="ms since the epoch, exclusive")
    c.add_argument("--max-bytes-per-partition", default="64m", help="bytes of log per Spark task (default 64m)")
    c.add_argument("--min-partitions", type=int, help="at least this many Spark tasks where the log allows (default: 2 x cores)")
    c.add_argument("--include-internal", action="store_true", help="also read __consumer_offsets etc.")
    c.add_argument("--no-headers", action="store_true", help="leave out the headers column")
    c.add_argument("--batch-columns", action="store_true",
                   help="add producer_id, producer_epoch, sequence, partition_leader_epoch, is_transactional")
    c.add_argument("--compression", default="snappy", help="Parquet codec (default snappy)")
    c.add_argument("--mode", default="errorifexists", choices=["errorifexists", "overwrite", "append"],
                   help="errorifexists (default): OUT must be new or empty; overwrite: replace the files an "
                        "earlier convert wrote to OUT (listed in its _KAFKACODEC file); append: add to them")
    c.add_argument("--driver-memory", default="2g", help="Spark driver memory for local runs (default 2g)")
    c.add_argument("--demo-records", type=int, default=500_000,
                   help="records in the generated demo directory (default 500000)")
    c.add_argument("--keep-demo", action="store_true", help="keep the generated demo input directory")
    c.add_argument("--no-progress", action="store_true", help="no progress line")
    c.add_argument("--json", action="store_true", help="print the summary as JSON")
    c.add_argument("--verbose", action="store_true", help="full Python and Java traces on failure")
    c.add_argument("--on-corruption", default="error", choices=["error", "skip"],
                   help="error (default): corrupt data fails the run; skip: leave damaged batches out and "
                        "count them in the summary")
    c.add_argument("--max-records-per-batch", type=int,
                   help="refuse a batch holding more records (default 1000000): bounds what one small "
                        "compressed batch can make a task allocate")
    c.add_argument("--max-decompressed-size",
                   help="refuse a batch inflating past this many bytes (default 256m)")
    c.set_defaults(run=run)


def _read_options(args: argparse.Namespace, logdir: str) -> dict[str, Any]:
    return {
        "path": logdir,
        "isolationLevel": args.isolation_level,
        "topics": args.topics,
        "partitions": args.partitions,
        "startingOffsets": args.starting_offsets,
        "endingOffsets": args.ending_offsets,
        "startingTimestamp": args.starting_timestamp,
        "endingTimestamp": args.ending_timestamp,
        "maxBytesPerPartition": args.max_bytes_per_partition,
        "includeInternal": "true" if args.include_internal else None,
        # convert keeps headers unless told not to (the source, as Spark's, leaves them out by default)
        "includeHeaders": "false" if args.no_headers else "true",
        "batchColumns": "true" if args.batch_columns else None,
        "onCorruption": None if args.on_corruption == "error" else args.on_corruption,
        "maxRecordsPerBatch": args.max_records_per_batch,
        "maxDecompressedSize": args.max_decompressed_size,
    }


def preflight(logdir: str, options: Mapping[str, object]) -> list[RangeTask]:
    """Plan the read without Spark: a missing or foreign directory, an
    unknown topic, a bad option or corrupt index data stops here."""
    from kafkacodec.errors import KafkaCodecError
    from kafkacodec.spark import _plan

    try:
        opts = _plan.parse_options({k: str(v) for k, v in options.items() if v is not None})
        return _plan.plan(opts)
    except _plan.KafkaLogError as exc:
        raise CommandError(str(exc)) from None
    except KafkaCodecError as exc:
        raise CommandError(f"{type(exc).__name__}: {exc}", 1) from None
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def run(args: argparse.Namespace, log: TextIO) -> int:
    logdir: str | None
    out: str | None
    if args.demo:
        if len(args.paths) > 1:
            raise CommandError("--demo takes at most OUT (it generates its own LOGDIR)")
        logdir, out = None, (args.paths[0] if args.paths else None)
    elif len(args.paths) != 2:
        got = "no path" if not args.paths else (f"only {args.paths[0]}" if len(args.paths) == 1
                                                 else f"{len(args.paths)} paths")
        raise CommandError(f"convert needs LOGDIR and OUT, got {got} (--demo [OUT] converts generated data)")
    else:
        logdir, out = args.paths

    fresh = out is None
    if out is None:
        out = tempfile.mkdtemp(prefix="kafkacodec-demo-parquet-")
    target = Output(out, args.mode, writer=WRITER, fresh=fresh)
    cleanup: list[str] = []
    info: demo.DemoInfo | None = None
    try:
        if logdir is not None:
            if not os.path.exists(logdir):
                raise CommandError(f"LOGDIR not found: {logdir}")
            tasks = preflight(logdir, _read_options(args, logdir))
            target.check(logdir)
            if not tasks:
                log.write(f"kafkacodec-spark: warning: no records to convert: the selected partitions of "
                          f"{logdir} hold no record batches{' in the offset range' if _ranged(args) else ''}; "
                          f"{out} not written\n")
                if fresh:
                    target.rollback()
                return 0
        else:
            target.check(None)
        target.prepare()
        if logdir is None:
            logdir = tempfile.mkdtemp(prefix="kafkacodec-demo-logs-")
            if not args.keep_demo:
                cleanup.append(logdir)
            log.write(f"generating a demo log directory with {args.demo_records:,} records in {logdir}\n")
            t = time.monotonic()
            info = demo.generate_demo(logdir, records=args.demo_records)
            topics = sorted({t for t, _ in info.counts})
            log.write(f"  {len(info.counts)} partitions of {', '.join(topics)}; {human(info.bytes)} of batches; "
                      f"{info.aborted_records:,} records in aborted transactions "
                      f"({time.monotonic() - t:.1f}s)\n")
            preflight(logdir, _read_options(args, logdir))
        # a failed demo check keeps the output it checked, for a look
        return _convert_with_spark(args, logdir, target, info, log)
    except BaseException:
        target.rollback()
        raise
    finally:
        for path in cleanup:
            shutil.rmtree(path, ignore_errors=True)


def _ranged(args: argparse.Namespace) -> bool:
    return any((args.starting_offsets, args.ending_offsets, args.starting_timestamp, args.ending_timestamp))


def _convert_with_spark(args: argparse.Namespace, logdir: str, target: Output, info: demo.DemoInfo | None,
                        log: TextIO) -> int:
    out = target.path
    spark, own_session = spark_session(args, WRITER, log)
    options = _read_options(args, logdir)
    del options["path"]
    try:
        log.write(f"converting {logdir} -> {out}\n")
        try:
            # Spark appends to the checked, marked OUT; what earlier runs wrote is replaced in commit()
            summary = convert(logdir, out, spark=spark, options=options, compression=args.compression,
                              mode="append", progress=not args.no_progress, min_partitions=args.min_partitions)
        except Exception as exc:
            raise job_failed(exc, "the Spark job", args.verbose, log) from None
    finally:
        if own_session:
            spark.stop()
    summary["logdir"] = logdir
    summary["out"] = out
    written = summary.pop("written")
    removed = target.commit(written, logdir=os.path.realpath(logdir), mode=args.mode,
                            isolation_level=summary["isolation_level"], rows=summary["rows"])
    summary["replaced_files"] = len(removed)
    status = 0
    problems: list[str] = []
    if info is not None:
        problems = check.verify_log_demo(info, out, args.isolation_level)
        status = demo_checked(summary, "demo_check", problems, demo_aborted_records=info.aborted_records)
    if summary["rows"] == 0:
        log.write(f"kafkacodec-spark: warning: 0 rows written: nothing in {logdir} passed the selection "
                  f"({summary['isolation_level']}{', offset range' if _ranged(args) else ''})\n")
    if args.json:
        print(json.dumps(summary))
    else:
        _print_summary(summary)
        if info is not None:
            if status == 0:
                what = ("none of the" if args.isolation_level == "read_committed" else "all")
                print(f"demo check: ok ({summary['rows']:,} rows as expected; {what} "
                      f"{info.aborted_records:,} records of aborted transactions present)")
            else:
                print("demo check FAILED: " + "; ".join(problems))
        if info is not None or target.created:
            print(f"output kept in {out}")
    return status
