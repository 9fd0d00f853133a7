"""``kafkacodec-spark pipeline``: live Kafka topics to Parquet with Structured Streaming.

    kafkacodec-spark pipeline --demo [OUT] [--bootstrap-servers HOST:PORT] [--demo-records N]
    kafkacodec-spark pipeline --bootstrap-servers HOST:PORT --topics a,b OUT [--mode append]

A streaming query reads the topics with the ``kafka-live`` source
(read_committed by default, headers included) and writes Parquet partitioned
by topic and partition, with its checkpoint in ``OUT/_checkpoint``; it runs
with Trigger.AvailableNow, so it stops once it has caught up with what the
topics held when it started.  ``--mode append`` runs the query of an earlier
pipeline in OUT again: it goes on from its checkpoint, adding only what came
since.

``--demo`` starts an embedded Tansu broker on 127.0.0.1 (see
:mod:`kafkacodec.embedded`; ``--bootstrap-servers`` uses a running broker
instead, with new topic names), produces the demo topics with kafkacodec's
producer (:func:`kafkacodec.spark_cli.demo.produce_live_demo`: every codec,
headers, an idempotent producer, committed and aborted transactions), runs
the query, and checks the Parquet against what was committed: per
partition the row count and a SHA-256 of offsets, timestamps, keys, values
and headers in offset order, no duplicate, no record of an aborted
transaction.  The output is kept and its path printed.

OUT is handled as ``convert`` does (see :mod:`kafkacodec.spark_cli.convert`): new or
empty unless ``--mode append`` names an earlier pipeline's output (its
``_KAFKACODEC`` file), and a failed or interrupted run removes what it
wrote, nothing else.  Exit status 0, 1 for a failed job or check (one line),
2 for a usage error, 130 when interrupted (the query, Spark and the broker
are stopped first).
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from kafkacodec.spark_cli import check, demo
from kafkacodec.spark_cli._common import (CommandError, Output, changed, demo_checked, format_rate, human, job_failed,
                                          plural, rate, snapshot, spark_session)

if TYPE_CHECKING:
    from pyspark.sql.streaming.query import StreamingQuery

    from kafkacodec.embedded import TansuBroker

_TopicPartition = tuple[str, int]

__all__ = ["add_parser", "run", "WRITER", "CHECKPOINT"]

WRITER = "kafkacodec-spark pipeline"
CHECKPOINT = "_checkpoint"  # inside OUT; Spark and Parquet readers skip names starting with "_"
BROKER_LIFETIME = 6 * 3600.0  # the embedded broker never outlives this, whatever happens


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    c = sub.add_parser(
        "pipeline", help="stream live Kafka topics to Parquet (--demo: on an embedded broker, checked)",
        description="Stream Kafka topics to Parquet with Spark Structured Streaming and the kafka-live source "
                    "until caught up, with a checkpoint in OUT/_checkpoint. --demo starts an embedded Tansu "
                    "broker (or uses --bootstrap-servers), produces demo topics with kafkacodec's producer "
                    "(every codec, headers, committed and aborted transactions), streams them and checks the "
                    "Parquet against what was committed.")
    c.add_argument("out", nargs="?", metavar="OUT",
                   help="output directory (with --demo optional: a new temporary directory, kept)")
    c.add_argument("--demo", action="store_true", help="produce demo topics, stream them and check the output")
    c.add_argument("--bootstrap-servers", help="a running broker (with --demo: instead of the embedded Tansu)")
    c.add_argument("--topics", help="comma-separated topics to stream (not with --demo)")
    c.add_argument("--demo-records", type=int, default=200_000,
                   help="records the demo produces (default 200000)")
    c.add_argument("--topic-prefix",
                   help="prefix of the demo topics (default: none on the embedded broker, a new "
                        "kafkacodec-demo-<id>- on --bootstrap-servers)")
    c.add_argument("--master", default="local[*]", help="Spark master (default local[*])")
    c.add_argument("--isolation-level", default="read_committed", choices=["read_committed", "read_uncommitted"],
                   help="read_committed (default) leaves out aborted transactions")
    c.add_argument("--starting-offsets", default="earliest",
                   help="where a new query starts: earliest (default), latest or JSON per topic/partition")
    c.add_argument("--max-offsets-per-trigger", type=int, default=50_000,
                   help="offsets per micro-batch (default 50000; 0: all available in one)")
    c.add_argument("--mode", default="errorifexists", choices=["errorifexists", "append"],
                   help="errorifexists (default): OUT must be new or empty; append: continue the query of an "
                        "earlier pipeline in OUT from its checkpoint")
    c.add_argument("--compression", default="snappy", help="Parquet codec (default snappy)")
    c.add_argument("--driver-memory", default="2g", help="Spark driver memory for local runs (default 2g)")
    c.add_argument("--no-progress", action="store_true", help="no progress lines")
    c.add_argument("--json", action="store_true", help="print the summary as JSON")
    c.add_argument("--verbose", action="store_true", help="full Python and Java traces on failure")
    c.set_defaults(run=run)


def _usage(args: argparse.Namespace) -> None:
    """Refuse what cannot work before anything starts (exit status 2)."""
    if args.demo:
        if args.topics:
            raise CommandError("--demo produces its own topics: leave out --topics")
        if args.mode != "errorifexists":
            raise CommandError("--demo writes a new output: --mode append is for streaming your own topics again")
        if args.demo_records < 1:
            raise CommandError(f"--demo-records must be at least 1, not {args.demo_records}")
    else:
        if not args.bootstrap_servers or not args.topics:
            raise CommandError("pipeline needs --bootstrap-servers, --topics and OUT (or --demo, which starts "
                               "a broker and makes its own topics)")
        if not args.out:
            raise CommandError("pipeline needs OUT, the output directory (only --demo makes one itself)")
        if args.topic_prefix:
            raise CommandError("--topic-prefix names the demo's topics: it goes with --demo")
    if args.max_offsets_per_trigger < 0:
        raise CommandError(f"--max-offsets-per-trigger must be 0 or more, not {args.max_offsets_per_trigger}")
    if args.bootstrap_servers is not None:
        for addr in args.bootstrap_servers.split(","):
            host, _, port = addr.strip().rpartition(":")
            if not host or not port.isdigit():
                raise CommandError(f"--bootstrap-servers wants host:port[,host:port...], not {args.bootstrap_servers!r}")


def _topics(args: argparse.Namespace) -> list[str]:
    return [t.strip() for t in (args.topics or "").split(",") if t.strip()]


def run(args: argparse.Namespace, log: TextIO) -> int:
    _usage(args)
    fresh = args.out is None
    out = tempfile.mkdtemp(prefix="kafkacodec-pipeline-") if fresh else args.out
    target = Output(out, args.mode, writer=WRITER, fresh=fresh)
    if args.mode == "append":
        target.check(None)
        if not os.path.isdir(os.path.join(target.path, CHECKPOINT)):
            raise CommandError(f"nothing to append to: {target.path} has no {CHECKPOINT} of an earlier pipeline")
    with contextlib.ExitStack() as stack:
        try:
            if args.mode != "append":
                target.check(None)
            target.prepare()
            bootstrap = args.bootstrap_servers
            if bootstrap is None:
                bootstrap = _start_broker(stack, log)
            info = None
            if args.demo:
                info = _produce(args, bootstrap, log)
                topics = sorted(info.topics)
            else:
                topics = _topics(args)
            return _stream_and_report(args, bootstrap, topics, target, info, log)
        except BaseException:
            target.rollback()
            raise


def _start_broker(stack: contextlib.ExitStack, log: TextIO) -> str:
    from kafkacodec import embedded

    log.write("starting an embedded Tansu broker on 127.0.0.1\n")
    log.flush()
    try:
        broker = embedded.start_tansu(lifetime=BROKER_LIFETIME)
    except embedded.TansuUnavailable as exc:
        raise CommandError(f"{exc}; or give --bootstrap-servers of a running broker", 1) from None
    except embedded.EmbeddedBrokerError as exc:
        raise CommandError(str(exc), 1) from None
    stack.callback(_stop_broker, broker, log)
    log.write(f"  Tansu at {broker.bootstrap} (pid {broker.pid}, in-memory storage)\n")
    return broker.bootstrap


def _stop_broker(broker: TansuBroker, log: TextIO) -> None:
    broker.stop()
    log.write(f"stopped the embedded broker (pid {broker.pid})\n")
    log.flush()


def _produce(args: argparse.Namespace, bootstrap: str, log: TextIO) -> demo.LiveDemoInfo:
    from kafkacodec.errors import KafkaError
    prefix = args.topic_prefix
    if prefix is None:
        prefix = "" if args.bootstrap_servers is None else f"kafkacodec-demo-{uuid.uuid4().hex[:8]}-"
    log.write(f"producing {args.demo_records:,} demo records with kafkacodec's producer to {bootstrap}\n")
    log.flush()
    t = time.monotonic()

    def progress(line: str) -> None:
        log.write(f"  {line}\n")
        log.flush()

    try:
        info = demo.produce_live_demo(bootstrap, records=args.demo_records, prefix=prefix, progress=progress)
    except KafkaError as exc:
        raise CommandError(f"producing the demo failed: {type(exc).__name__}: {_one_line(exc)}", 1) from None
    log.write(f"  {info.records:,} records, {human(info.bytes)} of keys, values and headers; "
              f"{info.aborted_records:,} in aborted transactions ({time.monotonic() - t:.1f}s)\n")
    return info


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _offsets_total(doc: Any) -> dict[_TopicPartition, int]:
    """A source's offset in a progress report (JSON text or dict) -> {(topic, partition): n}; the
    topic id kafka-live keeps beside a topic's partitions is left out."""
    from kafkacodec.spark._live_options import TOPIC_ID_KEY  # Spark runs already: no import cost at startup

    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except ValueError:
            return {}
    return {(t, int(p)): int(n) for t, parts in (doc or {}).items() for p, n in parts.items()
            if p != TOPIC_ID_KEY}


PREFLIGHT_TIMEOUT = 20.0  # s to reach the broker before Spark starts


def _targets(args: argparse.Namespace, bootstrap: str, topics: list[str]) -> dict[_TopicPartition, int]:
    """{(topic, partition): offset} the query should reach (the latest
    offsets now), for the progress share.  Checks before Spark starts that
    the broker answers (else status 1) and has the topics (else 2)."""
    from kafkacodec.client import Admin
    from kafkacodec.errors import KafkaError
    from kafkacodec.spark import _live_offsets, _live_options

    opts = _live_options.parse_live_options({"kafka.bootstrap.servers": bootstrap, "subscribe": ",".join(topics),
                                             "kafka.isolation.level": args.isolation_level}, streaming=True)
    try:
        with Admin(_live_options.client_conf(opts, "admin"),
                   default_api_timeout_ms=int(PREFLIGHT_TIMEOUT * 1000)) as admin:
            tps = _live_offsets.resolve_partitions(admin, opts)
            return {(tp.topic, tp.partition): n
                    for tp, n in _live_offsets.latest_offsets(admin, tps, opts.isolation_level).items()}
    except _live_options.LiveError as exc:
        raise CommandError(str(exc)) from None
    except KafkaError as exc:
        raise CommandError(f"cannot read the topics' offsets from {bootstrap}: {type(exc).__name__}: "
                           f"{_one_line(exc)}", 1) from None


def _committed_bytes(out: str, before: dict[str, Any]) -> int:
    """Bytes of the Parquet files the sink committed in ``out`` since the run began: what the
    summary counts too (files of failed attempts and of earlier runs are not counted)."""
    real_out = os.path.realpath(out)
    size = 0
    for path in check.committed_files(out):
        if os.path.relpath(os.path.realpath(path), real_out) in before:
            continue
        with contextlib.suppress(OSError):
            size += os.path.getsize(path)
    return size


@dataclasses.dataclass(eq=False)
class _StreamProgress:
    """One line per finished micro-batch: rows so far, the share of the
    offsets to catch up on, Parquet bytes written, elapsed time."""

    out: str
    before: dict[str, Any]  # OUT's files before the run, not counted
    targets: dict[_TopicPartition, int]
    stream: TextIO
    enabled: bool
    start: float
    waiting: str = ""  # the query's last status while no batch has finished yet
    rows: int = 0
    batches: int = 0
    seen: set[int | None] = dataclasses.field(default_factory=set)  # batch ids
    first: dict[_TopicPartition, int] | None = None
    reached: dict[_TopicPartition, int] = dataclasses.field(default_factory=dict)

    def update(self, query: StreamingQuery) -> None:
        self._say_what_it_waits_for(query)
        for p in query.recentProgress:
            batch = p.get("batchId")
            if batch in self.seen:
                continue
            self.seen.add(batch)
            rows = int(p.get("numInputRows") or 0)
            for src in p.get("sources") or ():
                if self.first is None:
                    self.first = _offsets_total(src.get("startOffset")) or {}
                self.reached.update(_offsets_total(src.get("endOffset")))
            if not rows:
                continue
            self.rows += rows
            self.batches += 1
            if self.enabled:
                self.stream.write(self.line() + "\n")
                self.stream.flush()

    def line(self) -> str:
        parts = [f"pipeline: batch {self.batches}", f"{self.rows:,} rows"]
        if self.targets:
            first = self.first or {}
            todo = sum(max(0, n - first.get(tp, 0)) for tp, n in self.targets.items())
            done = sum(max(0, min(self.reached.get(tp, 0), n) - first.get(tp, 0)) for tp, n in self.targets.items())
            if todo:
                parts.append(f"{done / todo:.0%} of {todo:,} offsets")
        parts.append(f"{human(_committed_bytes(self.out, self.before))} Parquet")
        return ", ".join(parts) + f", {time.monotonic() - self.start:.0f}s"

    def _say_what_it_waits_for(self, query: StreamingQuery) -> None:
        """Before the first batch ends (Spark plans the query and starts its tasks, which takes
        seconds), a line each time the query's status changes, so the wait is not silent."""
        if not self.enabled or self.batches:
            return
        try:
            message = str(query.status.get("message") or "")
        except Exception:  # the query may end between the caller's look and this one
            return
        if message and message != self.waiting:
            self.waiting = message
            self.stream.write(f"pipeline: waiting for the first micro-batch: {message[:1].lower()}{message[1:]}, "
                              f"{time.monotonic() - self.start:.0f}s\n")
            self.stream.flush()


@contextlib.contextmanager
def _interrupt_flag() -> Iterator[Callable[[], bool]]:
    """SIGINT only sets a flag while this is open: pyspark's own handler
    (cancel all jobs, raise KeyboardInterrupt) would run inside a Py4J call
    in progress and break that connection; the caller stops the query at
    its next look instead."""
    import signal
    import threading

    hit: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: hit.append(signum))
    try:
        yield lambda: bool(hit)
    finally:
        signal.signal(signal.SIGINT, previous)


def _stream_and_report(args: argparse.Namespace, bootstrap: str, topics: list[str], target: Output,
                       info: demo.LiveDemoInfo | None, log: TextIO) -> int:
    out = target.path
    before = dict(target.before)
    targets = _targets(args, bootstrap, topics)
    offsets = sum(targets.values())
    spark, own_session = spark_session(args, WRITER, log)
    query = None
    try:
        log.write(f"streaming {', '.join(topics)} from {bootstrap} ({args.isolation_level}) -> {out} "
                  f"(Parquet, checkpoint {CHECKPOINT}/)\n")
        log.flush()
        reader = (spark.readStream.format("kafka-live")
                  .option("kafka.bootstrap.servers", bootstrap)
                  .option("subscribe", ",".join(topics))
                  .option("startingOffsets", args.starting_offsets)
                  .option("includeHeaders", "true")
                  .option("kafka.isolation.level", args.isolation_level))
        if args.max_offsets_per_trigger:
            reader = reader.option("maxOffsetsPerTrigger", str(args.max_offsets_per_trigger))
        t0 = time.monotonic()
        meter = _StreamProgress(out, before, targets, log, not args.no_progress, t0)
        try:
            query = (reader.load().writeStream.format("parquet")
                     .option("path", out)
                     .option("checkpointLocation", os.path.join(out, CHECKPOINT))
                     .option("compression", args.compression)
                     .partitionBy("topic", "partition")
                     .trigger(availableNow=True)
                     .start())
            # short waits keep the progress lines flowing and notice Ctrl-C
            with _interrupt_flag() as interrupted:
                # pyspark takes float seconds here, whatever its annotation (int) says
                while not query.awaitTermination(0.5):  # type: ignore[arg-type]
                    if interrupted():
                        query.stop()
                        raise KeyboardInterrupt
                    meter.update(query)
            meter.update(query)
            error = query.exception()
            if error is not None:
                raise error
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            raise job_failed(exc, "the streaming query", args.verbose, log) from None
        seconds = time.monotonic() - t0
    finally:
        if query is not None and query.isActive:
            with contextlib.suppress(Exception):
                query.stop()
        if own_session:
            spark.stop()

    written = changed(before, snapshot(out))
    files = [f for f in check.committed_files(out) if os.path.isfile(f)]
    rows = check.count_rows(files)
    new_files = {os.path.relpath(f, out) for f in files} & set(written)
    new_rows = check.count_rows([os.path.join(out, f) for f in new_files])
    output_bytes = sum(os.path.getsize(os.path.join(out, f)) for f in new_files)
    summary: dict[str, Any] = {
        "out": out, "bootstrap": bootstrap, "topics": topics, "isolation_level": args.isolation_level,
        "rows": new_rows, "rows_total": rows, "output_bytes": output_bytes, "files": len(new_files),
        "micro_batches": meter.batches, "seconds": round(seconds, 1),
        "rows_per_second": rate(new_rows, seconds), "offsets": offsets,
    }
    status = 0
    problems: list[str] = []
    if info is not None:
        problems = check.verify_live_demo(info, out, args.isolation_level)
        status = demo_checked(summary, "check", problems, committed_records=info.committed_records,
                              aborted_records=info.aborted_records)
    extra: dict[str, Any] = {"bootstrap": bootstrap, "topics": topics, "isolation_level": args.isolation_level,
                             "rows": rows}
    if info is not None:
        extra["demo"] = info.to_dict()
    target.commit(written, **extra)
    if args.json:
        print(json.dumps(summary))
    else:
        _print_summary(summary, info, problems)
        if info is not None or target.created:
            print(f"output kept in {out}")
    if problems:
        log.write(f"kafkacodec-spark: check failed: {problems[0]}"
                  + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "") + "\n")
    return status


def _print_summary(s: dict[str, Any], info: demo.LiveDemoInfo | None, problems: list[str]) -> None:
    out = sys.stdout
    out.write(f"rows: {s['rows']:,}" + (f" ({s['rows_total']:,} in OUT)" if s["rows_total"] != s["rows"] else "")
              + "\n")
    out.write(f"topics: {', '.join(s['topics'])} ({s['isolation_level']})\n")
    out.write(f"output: {human(s['output_bytes'])} in {plural(s['files'], 'Parquet file')} in {s['out']}\n")
    out.write(f"seconds: {s['seconds']:.1f} ({plural(s['micro_batches'], 'micro-batch', 'micro-batches')})\n")
    out.write(f"rows/s: {format_rate(s['rows_per_second'])}\n")
    if info is not None:
        if not problems:
            t = info.transactions
            out.write(f"check: ok ({info.committed_records:,} committed records, counts and SHA-256 per "
                      f"partition as produced; none of the {info.aborted_records:,} records of "
                      f"{t['aborted']} aborted transactions; no duplicates)\n")
        else:
            out.write("check: FAILED: " + "; ".join(problems) + "\n")
