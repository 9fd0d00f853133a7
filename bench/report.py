"""Markdown table (and a PNG chart when matplotlib is installed) from bench.run JSON.

``python -m bench.run --json bench/results/latest.json`` writes both beside the
JSON itself; this command redraws them from a saved JSON file:

    python -m bench.report bench/results/latest.json --md bench/results/latest.md --png bench/results/latest.png
"""
from __future__ import annotations

import argparse
import json
import sys

CODECS = ["kafkacodec", "kafkacodec-bulk", "kafkacodec-arrow", "aiokafka-C", "aiokafka-py", "kafka-python"]
LIMITS = ["memcpy", "crc32c-pkg", "raw-decompressor", "raw-compressor"]


def shown(row):
    """A limit row prints only where it bounds the work measured (not beaten, the tightest, and
    applicable: a decompressor bounds nothing on an uncompressed workload)."""
    return row.get("kind") != "limit" or row["status"] == "ok"


def _fmt_rate(r):
    if r is None or not shown(r):
        return ""
    if r["status"] != "ok":
        return r["status"]
    if "records_per_s" in r:
        text = f"{r['records_per_s'] / 1e6:.2f} M/s"
    else:
        text = f"{r['gb_per_s']:.2f} GB/s"
    if "vs_aiokafka" in r:
        text += f" ({r['vs_aiokafka']:.2f}x)"
    if r.get("sampled", 1) < 1:
        text += "*"
    return text


def markdown(results):
    meta, entries = results["meta"], results["results"]
    present = {r["adapter"] for e in entries for r in e["rows"] if _fmt_rate(r)}
    cols = [a for a in CODECS + LIMITS if a in present]
    cols += sorted(present - set(cols))
    lines = [
        f"Python {meta.get('python')} on {meta.get('machine')} ({meta.get('cores')} cores, "
        f"load {meta.get('load_avg', ['?'])[0]:.2f}), kafkacodec CRC path `{meta.get('crc32c_implementation')}`, "
        f"scale {meta.get('scale')}, median of {meta.get('repeat')} rounds, {meta.get('time')}.",
        "",
        "Records per second (ratio to aiokafka-C in the same run); CRC rows in GB/s. "
        "`*` = pure-Python adapter timed on a leading sample of the batches. "
        "A limit shows only where it bounds the row's work: the tightest one that no arm beats.",
        "",
        "| workload | op | " + " | ".join(cols) + " |",
        "|---|---|" + "---|" * len(cols),
    ]
    for e in entries:
        by = {r["adapter"]: r for r in e["rows"]}
        label = e["workload"] if e["op"] != "crc" else f"CRC-32C {e['description']}"
        lines.append(f"| {label} | {e['op']} | " + " | ".join(_fmt_rate(by.get(a)) for a in cols) + " |")
    notes = [f"- {e['workload']} {e['op']} {r['adapter']}: {r['status']} ({r.get('reason', '')})"
             for e in entries for r in e["rows"] if r["status"] != "ok" and shown(r)]
    if notes:
        lines += ["", "Not measured:", ""] + sorted(set(notes))
    return "\n".join(lines) + "\n"


def chart(results, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    entries = [e for e in results["results"] if e["op"] != "crc"]
    labels = [f"{e['workload']} {e['op']}" for e in entries]
    names = [a for a in CODECS if any(r["adapter"] == a for e in entries for r in e["rows"])]
    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.9), 4.5))
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        vals = []
        for e in entries:
            r = next((r for r in e["rows"] if r["adapter"] == name and r["status"] == "ok"), None)
            vals.append(r.get("vs_aiokafka", 0) if r else 0)
        ax.bar([x + i * width for x in range(len(entries))], vals, width, label=name)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([x + width * (len(names) - 1) / 2 for x in range(len(entries))])
    ax.set_xticklabels(labels, rotation=45, ha="right")
    ax.set_ylabel("records/s relative to aiokafka-C (same run)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("json_file")
    p.add_argument("--md", help="write the Markdown here (default: stdout)")
    p.add_argument("--png", help="write a bar chart here (needs matplotlib)")
    args = p.parse_args(argv)
    with open(args.json_file) as f:
        results = json.load(f)
    md = markdown(results)
    if args.md:
        with open(args.md, "w") as f:
            f.write(md)
    else:
        sys.stdout.write(md)
    if args.png and not chart(results, args.png):
        print("matplotlib not installed: no chart", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
