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

Times are medians of per-call CPU time over rounds, the cases interleaved round by
round; the garbage collector is off while timing, as in ``timeit``.
"""
import argparse
import gc
import io
import os
import statistics
import sys
import time

import fastavro
import pyarrow as pa

import kafkacodec.avro as kavro

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "avro"))
from _schemas import WIDE, wide_records  # noqa: E402

TARGETS = {"decode_vs_per_record": 30.0, "decode_vs_container": 3.0, "encode_vs_writer": 20.0}


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


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not a measurement")
    p.add_argument("--records", type=int, default=100_000)
    p.add_argument("--rounds", type=int, default=7)
    a = p.parse_args(argv)
    if a.quick:
        run(300, 1)
        return 0
    ratios = run(a.records, a.rounds)
    return 0 if all(v >= TARGETS[k] for k, v in ratios.items()) else 1


if __name__ == "__main__":
    sys.exit(main())
