"""The demo checks: the Parquet a ``--demo`` run wrote against what the demo
generated (``convert``) or committed (``pipeline``)."""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kafkacodec.spark_cli import demo
from kafkacodec.spark_cli._common import MARKER

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["verify_log_demo", "verify_live_demo", "committed_files", "read_committed", "count_rows",
           "marker_live_demo"]


def verify_log_demo(info: demo.DemoInfo, out: str, isolation_level: str = "read_committed") -> list[str]:
    """Problems found in the Parquet ``convert --demo`` wrote from
    :func:`~kafkacodec.spark_cli.demo.generate_demo`'s directory (empty when all is right)."""
    import numpy as np
    import pyarrow.dataset as ds

    problems: list[str] = []
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


def committed_files(out: str) -> list[str]:
    """The Parquet files Spark's file sink committed in ``out``, from its
    ``_spark_metadata`` log (files of failed task attempts are not listed
    there and readers skip them too).  Absolute paths, sorted."""
    from urllib.parse import unquote, urlparse

    meta = os.path.join(out, "_spark_metadata")
    if not os.path.isdir(meta):
        return []
    logs = sorted((int(name.split(".")[0]), name) for name in os.listdir(meta)
                  if name.split(".")[0].isdigit() and not name.endswith(".tmp"))
    files: dict[str, bool] = {}
    for _, name in logs:  # a .compact file repeats everything before it; later logs add on
        with open(os.path.join(meta, name)) as f:
            lines = f.read().splitlines()
        for line in lines[1:]:  # the first line is the log's version ("v1")
            if not line.strip():
                continue
            entry = json.loads(line)
            path = unquote(urlparse(entry["path"]).path)
            if entry.get("action", "add") == "delete":
                files.pop(path, None)
            else:
                files[path] = True
    real_out = os.path.realpath(out)
    return sorted(p for p in files if os.path.commonpath([os.path.realpath(p), real_out]) == real_out)


def count_rows(files: Iterable[str]) -> int:
    import pyarrow.parquet as pq

    rows: int = sum(pq.ParquetFile(f).metadata.num_rows for f in files)
    return rows


def read_committed(out: str) -> pa.Table | None:
    """The sink's committed rows as one Arrow table (topic and partition
    from the file paths)."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    files = [f for f in committed_files(out) if os.path.isfile(f)]
    if not files:
        return None
    part = ds.partitioning(pa.schema([("topic", pa.string()), ("partition", pa.int32())]), flavor="hive")
    return ds.dataset(files, format="parquet", partitioning=part, partition_base_dir=out).to_table()


def _millis(column: pa.Array) -> list[int]:
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_timestamp(column.type):
        column = pc.cast(column, pa.timestamp("ms", tz=column.type.tz)).cast(pa.int64())
    values: list[int] = column.to_pylist()  # the sink's timestamps are never null
    return values


def verify_live_demo(info: demo.LiveDemoInfo, out: str, isolation_level: str = "read_committed") -> list[str]:
    """Problems found comparing the Parquet in ``out`` with what the demo
    committed (empty when all is right)."""
    import numpy as np
    import pyarrow.compute as pc

    problems: list[str] = []
    missing = [f for f in committed_files(out) if not os.path.isfile(f)]
    if missing:
        problems.append(f"{len(missing)} committed Parquet files are missing, such as {os.path.relpath(missing[0], out)}")
    table = read_committed(out)
    if table is None:
        return [f"no Parquet files committed in {out}"]
    table = table.sort_by([("topic", "ascending"), ("partition", "ascending"), ("offset", "ascending")])
    topics = np.asarray(table.column("topic").to_pylist(), dtype=object)
    parts = table.column("partition").to_numpy()
    offsets = table.column("offset").to_numpy()
    expected = set(info.committed)
    found = set(zip(topics.tolist(), parts.tolist()))
    for tp in sorted(found - expected):
        problems.append(f"{tp[0]}-{tp[1]} was not produced by the demo")
    for tp in sorted(expected):
        t, p = tp
        idx = np.nonzero((topics == t) & (parts == p))[0]
        sel = offsets[idx]
        dups = int((np.diff(sel) == 0).sum()) if len(sel) > 1 else 0
        if dups:
            problems.append(f"{dups} duplicate offsets in {t}-{p}")
        ranges = info.aborted.get(tp, ())
        hits = sum(int(((sel >= a) & (sel <= b)).sum()) for a, b, _ in ranges)
        if isolation_level == "read_committed":
            if hits:
                problems.append(f"{hits} records of aborted transactions in {t}-{p}")
            want = info.committed.get(tp, 0)
            if len(sel) != want:
                problems.append(f"{t}-{p}: {len(sel):,} rows, {want:,} committed")
                continue
        else:
            want = info.committed.get(tp, 0) + sum(n for _, _, n in ranges)
            if len(sel) != want:
                problems.append(f"{t}-{p}: {len(sel):,} rows, {want:,} produced")
            continue  # the digest covers committed records only
        if dups or hits or not len(idx):
            continue
        rows = table.take(pc.cast(idx, "int64"))
        h = hashlib.sha256()
        keys = rows.column("key").to_pylist()
        values = rows.column("value").to_pylist()
        heads: list[Any] = (rows.column("headers").to_pylist() if "headers" in rows.column_names
                            else [None] * len(idx))
        stamps = _millis(rows.column("timestamp"))
        for i, offset in enumerate(rows.column("offset").to_pylist()):
            headers = [(x["key"], x["value"]) for x in heads[i]] if heads[i] is not None else None
            demo.record_digest_update(h, offset, stamps[i], keys[i], values[i], headers)
        if h.hexdigest() != info.digests.get(tp):
            problems.append(f"{t}-{p}: content differs from what was committed (SHA-256 of keys, values, "
                            f"headers, timestamps)")
    return problems


def marker_live_demo(out: str) -> demo.LiveDemoInfo:
    """The LiveDemoInfo a demo run recorded in OUT's marker (for checking a copy again)."""
    with open(os.path.join(out, MARKER)) as f:
        return demo.LiveDemoInfo.from_dict(json.load(f)["demo"])
