"""The conversion job: kafkacodec-spark convert (and python -m kafkacodec.spark)."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed")

import pyarrow.dataset as ds  # noqa: E402

from kafkacodec.spark import cli  # noqa: E402
from kafkacodec.spark.demo import DemoInfo, generate_demo  # noqa: E402


def read_back(out):
    return ds.dataset(out, format="parquet", partitioning="hive").to_table()


def test_convert_demo_dir(spark, demo, tmp_path, capsys):
    out = tmp_path / "parquet"
    status = cli.main(["convert", demo.path, str(out), "--no-progress", "--json"])
    assert status == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    table = read_back(out)
    assert summary["rows"] == table.num_rows == demo.committed_records
    assert summary["isolation_level"] == "read_committed"
    assert summary["input_bytes"] > 0 and summary["output_bytes"] > 0 and summary["rows_per_second"] > 0
    # partitioned by topic and partition
    assert sorted(os.listdir(out / "topic=payments")) == ["partition=0", "partition=1"]
    assert set(table.column("topic").to_pylist()) == {"orders", "clicks", "payments"}
    # no aborted record, read back from Parquet
    pairs = zip(table.column("topic").to_pylist(), table.column("partition").to_pylist(),
                table.column("offset").to_pylist())
    assert not any(demo.is_aborted(t, int(p), o) for t, p, o in pairs)
    assert cli._verify_demo(demo, str(out), "read_committed") == []
    # the session the job found was left running
    assert spark.range(3).count() == 3


def test_convert_options(spark, demo, tmp_path, capsys):
    out = tmp_path / "orders"
    status = cli.main(["convert", demo.path, str(out), "--no-progress", "--topics", "orders",
                       "--isolation-level", "read_uncommitted", "--ending-offsets", "100", "--no-headers",
                       "--batch-columns"])
    assert status == 0
    text = capsys.readouterr().out
    assert "rows: 300" in text and "rows/s:" in text
    table = read_back(out)
    assert table.num_rows == 300
    assert "headers" not in table.column_names and "producer_id" in table.column_names


def test_generated_demo_without_logdir(spark, tmp_path, capsys):
    # no LOGDIR: generate, convert and check in one go
    out = tmp_path / "demo-out"
    status = cli.main(["convert", str(out), "--demo-records", "3000", "--no-progress"])
    text = capsys.readouterr().out
    assert status == 0, text
    assert "demo check: ok" in text
    assert read_back(out).num_rows > 2000


def test_demo_manifest(tmp_path):
    info = generate_demo(tmp_path / "d", records=2000, segment_bytes=64 << 10)
    again = DemoInfo.load(info.path)
    assert again.counts == info.counts and again.aborted == info.aborted
    assert again.records == 2000 and 0 < again.aborted_records < 2000
    names = sorted(os.listdir(info.path))
    assert names == ["clicks-0", "clicks-1", "kafkacodec-demo.json", "orders-0", "orders-1", "orders-2",
                     "payments-0", "payments-1"]
    assert any(n.endswith(".txnindex") for n in os.listdir(os.path.join(info.path, "payments-0")))


@pytest.mark.slow
def test_module_entry_point_fresh_process(tmp_path):
    """``python -m kafkacodec.spark convert`` in its own JVM, as the README runs it."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(cli.__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "kafkacodec.spark", "convert", str(tmp_path / "out"),
                           "--demo-records", "20000", "--master", "local[2]"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "demo check: ok" in proc.stdout and "rows/s:" in proc.stdout
