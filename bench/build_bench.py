"""Building v2 batches from Python rows, the way an application holds them:
W1's records as a list of (timestamp, key, value) tuples, cut into 16 KiB
batches (uncompressed), every arm producing the bytes of every batch.

  aiokafka-C append     DefaultRecordBatchBuilder(...).append(offset_delta, ts, key, value, [])
                        per row, a new builder when one is full (aiokafka's own loop)
  kafkacodec append     RecordBatchBuilder(2, "none", batch_size=16384).append(ts, key, value)
                        per row, a new builder when one is full
  kafkacodec build_batches
                        build_batches(rows, batch_size=16384): the whole list in one call

    python -m bench.build_bench                     # 200,000 rows, 7 interleaved rounds
    python -m bench.build_bench --rows 1000000 --rounds 5

Prints the median (min-max) rows per second of each arm and its ratio to
aiokafka-C's loop in the same run, and checks that the arms' batches hold the
same rows.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import time

BATCH_SIZE = 16384


def arm_aiokafka(rows):
    from aiokafka.record._crecords import DefaultRecordBatchBuilder
    out = []
    b = DefaultRecordBatchBuilder(2, 0, 0, -1, -1, -1, BATCH_SIZE)
    i = 0
    for ts, key, value in rows:
        if b.append(i, ts, key, value, []) is None:
            out.append(b.build())
            b = DefaultRecordBatchBuilder(2, 0, 0, -1, -1, -1, BATCH_SIZE)
            i = 0
            b.append(i, ts, key, value, [])
        i += 1
    out.append(b.build())
    return out


def arm_append(rows):
    from kafkacodec.records import RecordBatchBuilder
    out = []
    b = RecordBatchBuilder(2, "none", batch_size=BATCH_SIZE)
    append = b.append
    for ts, key, value in rows:
        if append(ts, key, value) is None:
            out.append(b.build())
            b = RecordBatchBuilder(2, "none", batch_size=BATCH_SIZE)
            append = b.append
            append(ts, key, value)
    out.append(b.build())
    return out


def arm_build_batches(rows):
    from kafkacodec.records import build_batches
    return build_batches(rows, batch_size=BATCH_SIZE)


ARMS = {"aiokafka-C append": arm_aiokafka, "kafkacodec append": arm_append,
        "kafkacodec build_batches": arm_build_batches}
TARGETS = {"kafkacodec append": 2.0, "kafkacodec build_batches": 3.0}


def rows_of(batches):
    from kafkacodec.records import decode_records
    return [(r.timestamp, r.key, r.value) for b in batches for r in decode_records(b)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args(argv)
    from bench.workloads import load
    rows = [(ts, k, v) for ts, k, v, _ in load("W1", args.rows / 1_000_000).records][:args.rows]
    for name, fn in ARMS.items():  # warm up, and the same rows come back from every arm
        assert rows_of(fn(rows)) == rows, name
    times = {name: [] for name in ARMS}
    for _ in range(args.rounds):
        for name, fn in ARMS.items():
            gc.collect()
            t0 = time.perf_counter()
            fn(rows)
            times[name].append(time.perf_counter() - t0)
    base = statistics.median(times["aiokafka-C append"])
    print(f"{len(rows):,} W1 rows as (timestamp, key, value) tuples -> {BATCH_SIZE}-byte v2 batches, "
          f"median (min-max) of {args.rounds} interleaved rounds")
    for name, ts in times.items():
        med = statistics.median(ts)
        line = (f"  {name:26s} {len(rows) / med / 1e6:6.2f} M rows/s "
                f"({len(rows) / max(ts) / 1e6:.2f}-{len(rows) / min(ts) / 1e6:.2f})   {base / med:5.2f}x aiokafka-C")
        want = TARGETS.get(name)
        if want is not None:
            line += f"  (target >= {want}x{'' if base / med >= want else ', NOT MET'})"
        print(line)
    return times


if __name__ == "__main__":
    main()
