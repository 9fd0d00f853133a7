"""Benchmark runner: every adapter in one process, on the same bytes, median of repeats.

    python -m bench.run                                   # W1-W7, decode + build + crc
    python -m bench.run --workloads W1,W3 --ops decode --scale 0.1 --repeat 5
    python -m bench.run --json bench/results/latest.json  # also writes latest.md and latest.png beside it

For each workload and operation it prints records/s and MB/s (key + value +
header bytes, i.e. application payload) per adapter, the ratio to aiokafka's
compiled codec measured in the same run, and kafkacodec's share of each limit.
Pure-Python adapters run on a leading sample of the batches (--slow-fraction).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time

from bench import adapters as A
from bench import workloads
from bench.report import shown

BASELINE = "aiokafka-C"


def _timed(fn):
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _available(adapter):
    try:
        adapter.check()
    except A.Unavailable as e:
        return str(e)
    except (ImportError, AssertionError) as e:
        return f"{type(e).__name__}: {e}"
    return None


def _round_robin(jobs, repeat):
    """Time every job once per round, `repeat` rounds: a load spike on a shared
    machine then hits all adapters alike instead of whichever ran during it."""
    times = [[] for _ in jobs]
    for _ in range(repeat):
        for i, fn in enumerate(jobs):
            times[i].append(_timed(fn))
    return times


def measure_all(w, op, selected, repeat, slow_fraction):
    rows, jobs, ready = [], [], []
    for adapter in selected:
        if not adapter.supports(op):
            continue
        row = {"adapter": adapter.name, "kind": adapter.kind}
        rows.append(row)
        reason = _available(adapter)
        if reason:
            row.update(status="n/a", reason=reason)
            continue
        sample = w.head(slow_fraction) if adapter.slow else w
        fn = getattr(adapter, op)
        try:
            got = fn(sample)  # warm-up, and a correctness guard
        except A.Unavailable as e:
            row.update(status="n/a", reason=str(e))
            continue
        except Exception as e:  # report it, keep the run going
            row.update(status="error", reason=f"{type(e).__name__}: {e}")
            continue
        if op == "decode" and got != sample.n_records:
            row.update(status="error", reason=f"decoded {got} records, expected {sample.n_records}")
            continue
        jobs.append(lambda fn=fn, sample=sample: fn(sample))
        ready.append((row, sample))
    for (row, sample), times in zip(ready, _round_robin(jobs, repeat)):
        seconds = statistics.median(times)
        row.update(status="ok", seconds=seconds, times=times, records=sample.n_records,
                   sampled=sample.n_records / w.n_records,
                   records_per_s=sample.n_records / seconds,
                   mb_per_s=sample.payload_bytes / seconds / 1e6,
                   wire_mb_per_s=sample.n_bytes / seconds / 1e6)
    return rows


HIDDEN = ("not a bound", "looser bound")  # limit rows kept in the JSON only, with their reason
# Medians of rounds on a shared machine differ by up to ~20% between adapters timed alike: an arm
# only this much faster than a limit has reached it, not disproved it.
NOISE = 1.25


def _keep_binding_limit(rows, key, peers=()):
    """Of the limit rows, only the one that bounds this work shows: a limit that some arm
    (``peers`` included: adapters that are arms here though limits elsewhere) beats bounds
    nothing, and of the rest only the tightest says how far from its limit the work is."""
    arms = [r for r in rows if r["status"] == "ok" and (r["kind"] != "limit" or r["adapter"] in peers)]
    limits = [r for r in rows if r["status"] == "ok" and r["kind"] == "limit" and r["adapter"] not in peers]
    for r in limits:
        faster = [a for a in arms if a[key] > r[key] * NOISE]
        if faster:
            best = max(faster, key=lambda a: a[key])
            r.update(status="not a bound", beaten_by=best["adapter"],
                     reason=f"{best['adapter']} runs faster ({best[key] / r[key]:.2f}x), "
                            "so this measurement is no limit for this work")
    bounds = [r for r in limits if r["status"] == "ok"]
    if bounds:
        tightest = min(bounds, key=lambda r: r[key])
        for r in bounds:
            if r is not tightest:
                r.update(status="looser bound", reason=f"{tightest['adapter']} bounds this work more tightly "
                                                       f"({r[key] / tightest[key]:.2f}x below this one)")


def _ratios(rows, key):
    _keep_binding_limit(rows, key)
    base = next((r for r in rows if r["adapter"] == BASELINE and r["status"] == "ok"), None)
    kc = next((r for r in rows if r["adapter"] == "kafkacodec" and r["status"] == "ok"), None)
    for r in rows:
        if r["status"] != "ok":
            continue
        if base:
            r["vs_aiokafka"] = r[key] / base[key]
        if kc and r["kind"] == "limit":
            r["kafkacodec_share"] = kc[key] / r[key]  # fraction of the limit kafkacodec reaches


def run_records(names, ops, scale, repeat, slow_fraction, selected, out):
    for name in names:
        t0 = time.perf_counter()
        w = workloads.load(name, scale)
        print(f"\n== {name}: {w.description} -- {w.n_records:,} records, {len(w.batches):,} batches, "
              f"{w.n_bytes / 1e6:.1f} MB encoded, {w.payload_bytes / 1e6:.1f} MB payload "
              f"(loaded in {time.perf_counter() - t0:.1f} s)")
        for op in ops:
            rows = measure_all(w, op, selected, repeat, slow_fraction)
            _ratios(rows, "records_per_s")
            entry = dict(workload=name, description=w.description, op=op, records=w.n_records,
                         batches=len(w.batches), bytes=w.n_bytes, payload_bytes=w.payload_bytes,
                         compression=w.codec, rows=rows)
            out.append(entry)
            print_records_table(entry)


def print_records_table(entry):
    print(f"\n{entry['workload']} {entry['op']}")
    print(f"  {'adapter':<18}{'records/s':>14}{'MB/s':>10}{'vs ' + BASELINE:>16}  note")
    for r in entry["rows"]:
        if not shown(r):
            continue
        if r["status"] != "ok":
            print(f"  {r['adapter']:<18}{r['status']:>14}{'':>10}{'':>16}  {r['reason']}")
            continue
        ratio = f"{r['vs_aiokafka']:.2f}x" if "vs_aiokafka" in r else "-"
        note = []
        if r["sampled"] < 1:
            note.append(f"{r['sampled']:.0%} sample")
        if "kafkacodec_share" in r:
            note.append(f"kafkacodec reaches {share_text(r['kafkacodec_share'])} of this limit")
        print(f"  {r['adapter']:<18}{r['records_per_s']:>14,.0f}{r['mb_per_s']:>10.1f}{ratio:>16}  "
              + ", ".join(note))


def share_text(share):
    if share > 1:
        return "all (within this run's noise)"
    return "under 1%" if share < 0.01 else f"{share:.0%}"


def run_crc(repeat, selected, big_mib, out):
    rng = random.Random(workloads.SEED)
    big = rng.randbytes(big_mib << 20)
    small = [rng.randbytes(16384) for _ in range((big_mib << 20) // 16384)]
    cases = [(f"{big_mib} MiB buffer", [big]), (f"16 KiB buffers x{len(small)}", small)]
    import kafkacodec
    impl = kafkacodec.crc32c_implementation()
    for label, bufs in cases:
        nbytes = sum(map(len, bufs))
        rows, jobs, ready = [], [], []
        for a in selected:
            if not a.supports("crc"):
                continue
            row = {"adapter": a.name, "kind": a.kind}
            rows.append(row)
            reason = _available(a)
            if reason:
                row.update(status="n/a", reason=reason)
                continue
            a.crc(bufs[:2])
            jobs.append(lambda a=a: a.crc(bufs))
            ready.append(row)
        # A pass takes milliseconds and memory-bound passes vary by 10% from one
        # to the next on a shared machine: many rounds keep the median steady.
        for row, times in zip(ready, _round_robin(jobs, max(5 * repeat, 25))):
            seconds = statistics.median(times)
            row.update(status="ok", seconds=seconds, times=times, gb_per_s=nbytes / seconds / 1e9,
                       calls_per_s=len(bufs) / seconds)
        # the crc32c package is the peer this table compares with, not a bound of it
        _keep_binding_limit(rows, "gb_per_s", peers=("crc32c-pkg",))
        pkg = next((r for r in rows if r["adapter"] == "crc32c-pkg" and r["status"] == "ok"), None)
        base = next((r for r in rows if r["adapter"] == BASELINE and r["status"] == "ok"), None)
        for r in rows:
            if r["status"] == "ok":
                if pkg:
                    r["vs_crc32c_pkg"] = r["gb_per_s"] / pkg["gb_per_s"]
                if base:
                    r["vs_aiokafka"] = r["gb_per_s"] / base["gb_per_s"]
        entry = dict(workload="CRC-32C", description=label, op="crc", bytes=nbytes, calls=len(bufs),
                     implementation=impl, rows=rows)
        out.append(entry)
        print(f"\nCRC-32C, {label} (kafkacodec path: {impl})")
        print(f"  {'adapter':<18}{'GB/s':>9}{'vs crc32c-pkg':>15}{'vs ' + BASELINE:>16}")
        for r in rows:
            if not shown(r):
                continue
            if r["status"] != "ok":
                print(f"  {r['adapter']:<18}{r['status']:>9}  {r['reason']}")
                continue
            p = f"{r['vs_crc32c_pkg']:.2f}x" if "vs_crc32c_pkg" in r else "-"
            b = f"{r['vs_aiokafka']:.2f}x" if "vs_aiokafka" in r else "-"
            print(f"  {r['adapter']:<18}{r['gb_per_s']:>9.2f}{p:>15}{b:>16}")


def environment():
    import kafkacodec
    info = dict(python=platform.python_version(), machine=platform.machine(), cores=os.cpu_count(),
                load_avg=os.getloadavg(), kafkacodec_accelerated=kafkacodec.accelerated,
                crc32c_implementation=kafkacodec.crc32c_implementation(),
                time=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    for mod in ("aiokafka", "kafka", "crc32c"):
        try:
            info[mod] = getattr(__import__(mod), "__version__", "?")
        except ImportError:
            info[mod] = None
    return info


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workloads", default=",".join(workloads.SPECS))
    p.add_argument("--ops", default="decode,build,crc")
    p.add_argument("--adapters", default=",".join(A.BY_NAME), help="comma-separated subset")
    p.add_argument("--scale", type=float, default=1.0, help="fraction of each workload's record count")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--slow-fraction", type=float, default=0.1,
                   help="share of the batches pure-Python adapters run on")
    p.add_argument("--crc-mib", type=int, default=64, help="size of the CRC buffer (and of the 16 KiB set)")
    p.add_argument("--json", help="write the results here, and the Markdown table and chart beside them")
    p.add_argument("--md", help="write the Markdown table here (default: the --json path with .md)")
    p.add_argument("--png", help="draw the chart here (default: the --json path with .png; needs matplotlib)")
    args = p.parse_args(argv)
    ops = [o for o in args.ops.split(",") if o]
    unknown = set(ops) - {"decode", "build", "crc"}
    if unknown:
        p.error(f"unknown ops {sorted(unknown)}")
    selected = [A.BY_NAME[n] for n in args.adapters.split(",") if n]
    # what lives before the run (the interpreter's modules, a calling program's heap) stays out
    # of the full collection each timing starts with: it times the arms, not the caller's heap
    gc.collect()
    gc.freeze()
    try:
        return _run(args, ops, selected, argv)
    finally:
        gc.unfreeze()


def _run(args, ops, selected, argv):
    env = environment()
    print("  ".join(f"{k}={v}" for k, v in env.items()))
    out = []
    record_ops = [o for o in ops if o in ("decode", "build")]
    if record_ops:
        run_records([n for n in args.workloads.split(",") if n], record_ops, args.scale, args.repeat,
                    args.slow_fraction, selected, out)
    if "crc" in ops:
        run_crc(args.repeat, selected, args.crc_mib, out)
    if args.json:
        meta = dict(env, scale=args.scale, repeat=args.repeat, slow_fraction=args.slow_fraction,
                    argv=sys.argv[1:] if argv is None else argv, load_avg_end=os.getloadavg())
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(dict(meta=meta, results=out), f, indent=1)
        print(f"\nwrote {args.json}")
    if args.json or args.md or args.png:
        write_report(dict(meta=dict(env, scale=args.scale, repeat=args.repeat), results=out), args)
    return 0


def write_report(results, args):
    """The Markdown table and the chart of this run, so one command gives all three."""
    from bench import report

    stem = os.path.splitext(args.json)[0] if args.json else None
    md = args.md or (stem + ".md" if stem else None)
    png = args.png or (stem + ".png" if stem else None)
    for path in (md, png):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    if md:
        with open(md, "w") as f:
            f.write(report.markdown(results))
        print(f"wrote {md}")
    if png:
        if report.chart(results, png):
            print(f"wrote {png}")
        else:
            print(f"matplotlib not installed: no chart at {png} (pip install matplotlib)", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
