"""``kafkacodec-spark``: convert Kafka log directories to Parquet with Spark.

    kafkacodec-spark convert [LOGDIR] OUT [--master local[*]]
                             [--isolation-level read_committed] [--topics a,b] ...
    python -m kafkacodec.spark convert ...

Without LOGDIR a demo data directory (see :mod:`kafkacodec.spark.demo`) is
generated in a temporary directory, converted on local Spark, and the
Parquet output is checked: every record read_committed should see is there
and no record of an aborted transaction is.
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

__all__ = ["main", "convert"]


def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


class _Progress:
    """One status line fed by Spark's status tracker (tasks of the running job)."""

    def __init__(self, spark, total_bytes: int, enabled: bool, stream=None):
        self.sc = spark.sparkContext
        self.total_bytes = total_bytes
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._tty = getattr(stream, "isatty", lambda: False)()
        self._last = ""

    def __enter__(self):
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self.enabled:
            self._thread.join()
            self._emit(final=True)

    def _tasks(self):
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

    def _emit(self, final=False):
        try:
            done, total = self._tasks()
        except Exception:  # the context may be stopping
            return
        elapsed = time.monotonic() - self.start
        if final:
            line = f"convert: finished in {elapsed:.1f}s"
        elif total:
            share = done / total
            line = (f"convert: {done}/{total} tasks ({share:.0%}, ~{_human(self.total_bytes * share)} of "
                    f"{_human(self.total_bytes)}) {elapsed:.0f}s")
        else:
            line = f"convert: planning {elapsed:.0f}s"
        if self._tty:
            self.stream.write("\r" + line.ljust(len(self._last)) + ("\n" if final else ""))
        elif line != self._last or final:
            self.stream.write(line + "\n")
        self.stream.flush()
        self._last = line

    def _run(self):
        interval = 0.5 if self._tty else 5.0
        while not self._stop.wait(interval):
            self._emit()


def _parquet_stats(out: str):
    import pyarrow.parquet as pq

    rows = size = files = 0
    for root, _, names in os.walk(out):
        for name in names:
            if name.endswith(".parquet"):
                path = os.path.join(root, name)
                rows += pq.ParquetFile(path).metadata.num_rows
                size += os.path.getsize(path)
                files += 1
    return rows, size, files


def _verify_demo(info, out: str, isolation_level: str) -> list[str]:
    """Problems found in the converted demo (empty when all is right)."""
    import numpy as np
    import pyarrow.dataset as ds

    problems = []
    table = ds.dataset(out, format="parquet", partitioning="hive").to_table(
        columns=["topic", "partition", "offset"])
    expected = info.committed_records if isolation_level == "read_committed" else info.records
    if table.num_rows != expected:
        problems.append(f"expected {expected} rows, found {table.num_rows}")
    topics = np.asarray(table.column("topic").to_pylist(), dtype=object)
    parts = table.column("partition").to_numpy()
    offsets = table.column("offset").to_numpy()
    for (topic, partition), ranges in info.aborted.items():
        sel = offsets[(topics == topic) & (parts == partition)]
        hits = sum(int(((sel >= a) & (sel <= b)).sum()) for a, b, _ in ranges)
        if isolation_level == "read_committed" and hits:
            problems.append(f"{hits} records of aborted transactions in {topic}-{partition}")
        if isolation_level == "read_uncommitted" and hits != sum(n for _, _, n in ranges):
            problems.append(f"aborted records missing from {topic}-{partition} in read_uncommitted")
    return problems


# Each read task covers byte ranges of one topic-partition (a few at most), so
# Spark's partitioned writer can keep one file open per partition instead of
# sorting every row by (topic, partition) first; it falls back to sorting by
# itself beyond this many open files.
PARTITIONED_WRITE_CONF = {
    "spark.sql.optimizer.plannedWrite.enabled": "false",
    "spark.sql.maxConcurrentOutputFileWriters": "64",
}


@contextlib.contextmanager
def partitioned_write_conf(spark, conf=PARTITIONED_WRITE_CONF):
    """Apply PARTITIONED_WRITE_CONF for the duration of a write, then restore
    the session's own values (runtime SQL settings: works on any cluster)."""
    saved = {}
    for key, value in conf.items():
        saved[key] = spark.conf.get(key, None)
        spark.conf.set(key, value)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)


def convert(logdir: str, out: str, *, spark, options: dict | None = None, compression: str = "snappy",
            mode: str = "overwrite", progress: bool = True, min_partitions: int | None = None) -> dict:
    """Read ``logdir`` with the kafka-log source and write Parquet to ``out``
    partitioned by topic and partition.  Returns the summary figures."""
    from kafkacodec.spark import _plan

    options = {k: str(v) for k, v in (options or {}).items() if v is not None}
    options["path"] = logdir
    if min_partitions is None:
        # a few tasks per core balance uneven partitions and move the progress line
        min_partitions = 2 * spark.sparkContext.defaultParallelism
    options.setdefault("minPartitions", str(min_partitions))
    opts = _plan.parse_options(options)
    tasks = _plan.plan(opts)
    input_bytes = sum(t.size for t in tasks)
    groups = len(_plan.group_tasks(tasks, opts.max_bytes_per_partition, opts.min_partitions))

    t0 = time.perf_counter()
    df = spark.read.format("kafka-log").options(**options).load()
    with _Progress(spark, input_bytes, progress), partitioned_write_conf(spark):
        (df.write.mode(mode).partitionBy("topic", "partition")
         .option("compression", compression).parquet(out))
    seconds = time.perf_counter() - t0
    rows, output_bytes, files = _parquet_stats(out)
    return {
        "rows": rows,
        "input_bytes": input_bytes,
        "output_bytes": output_bytes,
        "files": files,
        "spark_partitions": groups,
        "seconds": round(seconds, 3),
        "rows_per_second": round(rows / seconds) if seconds else None,
        "isolation_level": opts.isolation_level,
    }


def _print_summary(s: dict, stream=None) -> None:
    (stream or sys.stdout).write(
        f"rows: {s['rows']:,}\n"
        f"input: {_human(s['input_bytes'])} ({s['input_bytes']:,} bytes of record batches)\n"
        f"output: {_human(s['output_bytes'])} in {s['files']} Parquet files\n"
        f"seconds: {s['seconds']:.2f} ({s['spark_partitions']} Spark partitions)\n"
        f"rows/s: {s['rows_per_second']:,}\n")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kafkacodec-spark",
                                description="Kafka log directories to Parquet with Spark (kafkacodec).")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert", help="convert a Kafka log directory to Parquet",
                       description="Convert a broker data directory (or one topic-N directory) to Parquet "
                                   "partitioned by topic and partition. Without LOGDIR, a demo directory "
                                   "is generated, converted and checked.")
    c.add_argument("paths", nargs="*", metavar="[LOGDIR] OUT",
                   help="log directory and output directory; one path is OUT (demo input); "
                        "none writes the demo output to a temporary directory")
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
    c.add_argument("--mode", default="overwrite", choices=["overwrite", "errorifexists", "append"],
                   help="Spark save mode (default overwrite)")
    c.add_argument("--driver-memory", default="2g", help="Spark driver memory for local runs (default 2g)")
    c.add_argument("--demo-records", type=int, default=500_000,
                   help="records in the generated demo directory (default 500000)")
    c.add_argument("--keep-demo", action="store_true", help="keep the generated demo directory")
    c.add_argument("--no-progress", action="store_true", help="no progress line")
    c.add_argument("--json", action="store_true", help="print the summary as JSON")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if len(args.paths) > 2:
        _parser().error("convert takes at most LOGDIR and OUT")
    logdir = args.paths[0] if len(args.paths) == 2 else None
    out = args.paths[-1] if args.paths else None
    log = sys.stderr
    cleanup = []
    started = time.perf_counter()
    info = None
    try:
        if logdir is None:
            from kafkacodec.spark.demo import generate_demo

            logdir = tempfile.mkdtemp(prefix="kafkacodec-demo-logs-")
            if not args.keep_demo:
                cleanup.append(logdir)
            log.write(f"generating a demo log directory with {args.demo_records:,} records in {logdir}\n")
            t = time.perf_counter()
            info = generate_demo(logdir, records=args.demo_records)
            topics = sorted({t for t, _ in info.counts})
            log.write(f"  {len(info.counts)} partitions of {', '.join(topics)}; {_human(info.bytes)} of batches; "
                      f"{info.aborted_records:,} records in aborted transactions "
                      f"({time.perf_counter() - t:.1f}s)\n")
        elif not os.path.isdir(logdir):
            log.write(f"kafkacodec-spark: not a directory: {logdir}\n")
            return 2
        if out is None:
            out = tempfile.mkdtemp(prefix="kafkacodec-demo-parquet-")
            cleanup.append(out)

        from pyspark.sql import SparkSession

        from kafkacodec.spark.session import local_session

        # inside a running application (a notebook, tests) use its session and leave it running
        own_session = SparkSession.getActiveSession() is None
        if own_session:
            log.write(f"starting Spark ({args.master})\n")
            log.flush()
        spark = local_session(args.master, app_name="kafkacodec-spark convert", driver_memory=args.driver_memory,
                              shuffle_partitions=4)
        options = {
            "isolationLevel": args.isolation_level,
            "topics": args.topics,
            "partitions": args.partitions,
            "startingOffsets": args.starting_offsets,
            "endingOffsets": args.ending_offsets,
            "startingTimestamp": args.starting_timestamp,
            "endingTimestamp": args.ending_timestamp,
            "maxBytesPerPartition": args.max_bytes_per_partition,
            "includeInternal": "true" if args.include_internal else None,
            "headers": "false" if args.no_headers else None,
            "batchColumns": "true" if args.batch_columns else None,
        }
        try:
            log.write(f"converting {logdir} -> {out}\n")
            summary = convert(logdir, out, spark=spark, options=options, compression=args.compression,
                              mode=args.mode, progress=not args.no_progress, min_partitions=args.min_partitions)
        finally:
            if own_session:
                spark.stop()
        summary["logdir"] = logdir
        summary["out"] = out
        summary["total_seconds"] = round(time.perf_counter() - started, 3)
        status = 0
        if info is not None:
            problems = _verify_demo(info, out, args.isolation_level)
            summary["demo_check"] = "ok" if not problems else problems
            summary["demo_aborted_records"] = info.aborted_records
            status = 1 if problems else 0
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
            print(f"total (with {'demo generation and ' if info else ''}Spark start-up): "
                  f"{summary['total_seconds']:.1f}s")
        return status
    finally:
        for path in cleanup:
            shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
