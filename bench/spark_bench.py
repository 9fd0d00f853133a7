"""Spark: a W1-sized Kafka log directory to Parquet, kafkacodec vs aiokafka decoding.

    python bench/spark_bench.py [--records 1000000] [--master local[*]] [--repeat 3] [--json]

Both sides are the same Python DataSource: identical planning (segments cut
into batch-aligned byte ranges by kafkacodec.logdir), identical schema and
Arrow hand-over to Spark.  Only the reader's decoding differs:

- ``kafka-log``: kafkacodec.arrow decodes the range straight into Arrow
  buffers (CRC verified, no Python object per record);
- ``kafka-log-aiokafka``: aiokafka's record classes (its C extension when
  built) walk the batches (CRC verified), and pyarrow arrays are built from
  the Python values of each record.

Each side runs the job "read the directory, write Parquet partitioned by
topic and partition" (and, to separate decoding from Spark's Parquet writer,
the same read into Spark's ``noop`` sink).  The W1 directory (1,000,000
records, 16-byte keys, ~100-byte JSON-like values, uncompressed batches
closed at 16 KiB, fixed seed) is generated once with PartitionWriter and
cached under bench/.cache/.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import pyarrow as pa  # noqa: E402
from pyspark.sql.datasource import DataSourceReader  # noqa: E402

from kafkacodec.spark import _plan  # noqa: E402
from kafkacodec.spark_cli.convert import partitioned_write_conf  # noqa: E402
from kafkacodec.spark._source import KafkaLogDataSource, KafkaLogReader  # noqa: E402

CACHE = os.path.join(HERE, ".cache")
FORMAT_VERSION = 1  # bump when the generated directory changes
BASE_TS = 1_767_225_600_000
TOPIC = "w1"


# ---------------------------------------------------------------- workload
def w1_directory(records: int, partitions: int = 4, seed: int = 1) -> str:
    """The cached W1 log directory (generated on first use)."""
    from kafkacodec.logdir.writer import PartitionWriter
    from kafkacodec.records import build_batches

    os.makedirs(CACHE, exist_ok=True)
    ignore = os.path.join(CACHE, ".gitignore")
    if not os.path.exists(ignore):
        with open(ignore, "w") as f:
            f.write("*\n")  # generated data stays out of version control
    path = os.path.join(CACHE, f"spark-w1-{records}-p{partitions}-s{seed}-v{FORMAT_VERSION}")
    done = os.path.join(path, ".complete")
    if os.path.exists(done):
        return path
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    rng = random.Random(seed)
    events = ("page_view", "add_to_cart", "checkout", "search", "login")
    for p in range(partitions):
        recs = []
        for i in range(p, records, partitions):
            value = (f'{{"id":{i},"user":"user-{rng.randrange(100_000):05d}","event":"{rng.choice(events)}",'
                     f'"amount":{rng.random() * 1000:.2f},"ok":true}}').encode()
            value += b" " * max(0, 100 - len(value))  # ~100 bytes, as W1 specifies
            recs.append((BASE_TS + i, f"key-{i:012d}".encode(), value))
        with PartitionWriter(path, TOPIC, p) as w:
            w.append(b"".join(build_batches(recs, batch_size=16384)), assign_offsets=True)
    open(done, "w").close()
    return path


# ---------------------------------------------------------------- aiokafka-decoding twin of the source
def _aiokafka_batches(task, opts, sch):
    """One range decoded with aiokafka's record classes into RecordBatches
    of ``sch`` (values gathered in Python lists, then handed to pyarrow)."""
    from aiokafka.record.memory_records import MemoryRecords

    import kafkacodec.logdir as logdir

    view = logdir.read_range(logdir.ByteRange(task.path, task.start, task.end, task.first_offset, 0,
                                              task.topic, task.partition, task.is_active))
    records = MemoryRecords(bytes(view))
    lo = task.start_offset
    hi = task.end_offset
    limit = opts.max_rows_per_batch
    cols = ([], [], [], [], [], [])

    def flush():
        offsets, stamps, types, keys, values, headers = cols
        n = len(offsets)
        arrays = []
        for f in sch:
            if f.name == "topic":
                arrays.append(pa.array([task.topic] * n, pa.string()))
            elif f.name == "partition":
                arrays.append(pa.array([task.partition] * n, pa.int32()))
            elif f.name == "offset":
                arrays.append(pa.array(offsets, pa.int64()))
            elif f.name == "timestamp":
                arrays.append(pa.array([t * 1000 for t in stamps], pa.int64()).view(f.type))
            elif f.name in ("timestampType", "timestamp_type"):  # Spark's name, and the earlier one
                arrays.append(pa.array(types, pa.int32()))
            elif f.name == "key":
                arrays.append(pa.array(keys, pa.binary()))
            elif f.name == "value":
                arrays.append(pa.array(values, pa.binary()))
            elif f.name == "headers":
                arrays.append(pa.array(headers, f.type))
            else:
                raise ValueError(f"column {f.name} is not produced by the aiokafka reader")
        for c in cols:
            c.clear()
        return pa.RecordBatch.from_arrays(arrays, schema=sch)

    want_headers = "headers" in sch.names
    while True:
        batch = records.next_batch()
        if batch is None:
            break
        if not batch.validate_crc():
            raise ValueError("CRC mismatch")
        if batch.is_control_batch:
            continue
        ts_type = batch.timestamp_type
        for rec in batch:
            off = rec.offset
            if (lo is not None and off < lo) or (hi is not None and off >= hi):
                continue
            cols[0].append(off)
            cols[1].append(rec.timestamp)
            cols[2].append(ts_type)
            cols[3].append(rec.key)
            cols[4].append(rec.value)
            if want_headers:
                cols[5].append([{"key": k, "value": v} for k, v in rec.headers])
        if len(cols[0]) >= limit:
            yield flush()
    if cols[0]:
        yield flush()


class AiokafkaLogReader(KafkaLogReader):
    def read(self, partition):
        from pyspark.sql.pandas.types import to_arrow_schema

        sch = to_arrow_schema(self.schema, timezone="UTC")
        for task in partition.tasks:
            yield from _aiokafka_batches(task, self.opts, sch)


class AiokafkaLogDataSource(KafkaLogDataSource):
    @classmethod
    def name(cls) -> str:
        return "kafka-log-aiokafka"

    def reader(self, schema) -> DataSourceReader:
        return AiokafkaLogReader(self._opts(), schema)


# ---------------------------------------------------------------- running
def _in_process(tasks, opts, repeat: int, expected: int) -> dict:
    """Both readers' read() over every range in this process, one core, no
    Spark: the decoding cost the Spark jobs contain."""
    from pyspark.sql.pandas.types import to_arrow_schema

    from kafkacodec.spark._source import spark_schema

    sch = to_arrow_schema(spark_schema(headers=opts.headers), timezone="UTC")
    readers = {
        "kafkacodec": lambda: _plan.read_tasks(tasks, opts, schema=sch),
        "aiokafka": lambda: (rb for t in tasks for rb in _aiokafka_batches(t, opts, sch)),
    }
    out = {}
    for name, make in readers.items():
        best = None
        for _ in range(max(1, repeat)):
            s = time.perf_counter()
            rows = sum(rb.num_rows for rb in make())
            took = time.perf_counter() - s
            if rows != expected:
                raise SystemExit(f"{name} reader: {rows} rows, expected {expected}")
            best = took if best is None else min(best, took)
        out[name] = best
    return out


def _parquet_rows(out: str) -> int:
    import pyarrow.parquet as pq

    rows = 0
    for root, _, names in os.walk(out):
        for name in names:
            if name.endswith(".parquet"):
                rows += pq.ParquetFile(os.path.join(root, name)).metadata.num_rows
    return rows


def run(args) -> dict:
    from kafkacodec.spark.session import local_session

    load_before = [round(x, 2) for x in os.getloadavg()]
    t = time.perf_counter()
    path = w1_directory(args.records)
    gen_seconds = time.perf_counter() - t
    spark = local_session(args.master, app_name="kafkacodec spark bench", driver_memory=args.driver_memory,
                          shuffle_partitions=4)
    spark.dataSource.register(AiokafkaLogDataSource)
    parallelism = spark.sparkContext.defaultParallelism
    options = {"path": path, "minPartitions": str(parallelism), "headers": str(args.headers).lower()}
    opts = _plan.parse_options(options)
    tasks = _plan.plan(opts)
    input_bytes = sum(t.size for t in tasks)
    scratch = tempfile.mkdtemp(prefix="kafkacodec-spark-bench-")
    results = {}
    inproc = _in_process(tasks, opts, args.repeat, args.records)
    try:
        fmts = ("kafka-log", "kafka-log-aiokafka")
        frames = {fmt: spark.read.format(fmt).options(**options).load() for fmt in fmts}
        timings = {fmt: {"parquet": [], "noop": []} for fmt in fmts}
        for fmt in fmts:
            # warm the Python workers (imports) and the JVM's Parquet write path outside the timings
            small = spark.read.format(fmt).options(**options).option("endingOffsets", "20000").load()
            with partitioned_write_conf(spark):
                small.write.mode("overwrite").partitionBy("topic", "partition").parquet(os.path.join(scratch, "warm"))
        for i in range(args.repeat):
            # alternate the order so neither side always runs on a colder JVM
            for fmt in (fmts if i % 2 == 0 else fmts[::-1]):
                out = os.path.join(scratch, fmt)
                s = time.perf_counter()
                with partitioned_write_conf(spark):  # the conversion job's writer settings, both sides
                    frames[fmt].write.mode("overwrite").partitionBy("topic", "partition").parquet(out)
                timings[fmt]["parquet"].append(time.perf_counter() - s)
                rows = _parquet_rows(out)
                if rows != args.records:
                    raise SystemExit(f"{fmt}: wrote {rows} rows, expected {args.records}")
                s = time.perf_counter()
                frames[fmt].write.format("noop").mode("overwrite").save()
                timings[fmt]["noop"].append(time.perf_counter() - s)
        for fmt in fmts:
            results[fmt] = {
                job: {"seconds": round(min(ts), 3), "median_seconds": round(statistics.median(ts), 3),
                      "rows_per_second": round(args.records / min(ts))}
                for job, ts in timings[fmt].items()
            }
    finally:
        spark.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    kc, ak = results["kafka-log"], results["kafka-log-aiokafka"]
    for side, key in (("kafka-log", "kafkacodec"), ("kafka-log-aiokafka", "aiokafka")):
        secs = inproc[key]
        results[side]["reader"] = {"seconds": round(secs, 3), "rows_per_second": round(args.records / secs)}
    import pyspark

    return {
        "workload": "W1", "records": args.records, "input_bytes": input_bytes, "spark_partitions":
            len(_plan.group_tasks(tasks, opts.max_bytes_per_partition, opts.min_partitions)),
        "master": args.master, "parallelism": parallelism, "headers_column": args.headers,
        "repeat": args.repeat, "pyspark": pyspark.__version__, "cpu_count": os.cpu_count(),
        "generate_seconds": round(gen_seconds, 3), "load_average_before": load_before,
        "kafkacodec": kc, "aiokafka": ak,
        "ratio_parquet": round(kc["parquet"]["rows_per_second"] / ak["parquet"]["rows_per_second"], 2),
        "ratio_noop": round(kc["noop"]["rows_per_second"] / ak["noop"]["rows_per_second"], 2),
        "ratio_reader": round(kc["reader"]["rows_per_second"] / ak["reader"]["rows_per_second"], 2),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--records", type=int, default=1_000_000)
    p.add_argument("--master", default="local[*]")
    p.add_argument("--repeat", type=int, default=3, help="runs per job; the best is reported")
    p.add_argument("--driver-memory", default="4g")
    p.add_argument("--no-headers", dest="headers", action="store_false",
                   help="leave the headers column out on both sides")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = run(args)
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"W1 log directory: {r['records']:,} records, {r['input_bytes'] / 2**20:.1f} MiB of batches, "
          f"{r['spark_partitions']} Spark partitions, {r['master']} ({r['parallelism']} cores), "
          f"pyspark {r['pyspark']}, headers column {'on' if r['headers_column'] else 'off'}")
    print(f"{'job':<34}{'kafkacodec rows/s':>20}{'aiokafka rows/s':>20}{'ratio':>8}")
    for job, label in (("parquet", "read + write Parquet (partitioned)"), ("noop", "read only (noop sink)"),
                       ("reader", "reader alone, 1 core, no Spark")):
        kc, ak = r["kafkacodec"][job], r["aiokafka"][job]
        print(f"{label:<34}{kc['rows_per_second']:>20,}{ak['rows_per_second']:>20,}"
              f"{r['ratio_' + job]:>7.2f}x")
    print(f"load average before the run: {r['load_average_before']}")
    print(f"best of {r['repeat']}; seconds kafkacodec {r['kafkacodec']['parquet']['seconds']} / "
          f"aiokafka {r['aiokafka']['parquet']['seconds']} (Parquet job)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
