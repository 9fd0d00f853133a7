"""The conversion job: kafkacodec-spark convert (and python -m kafkacodec.spark_cli)."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed")

import pyarrow.dataset as ds  # noqa: E402

from kafkacodec.spark_cli import _common, check, cli, convert  # noqa: E402
from kafkacodec.spark_cli.demo import DemoInfo, generate_demo  # noqa: E402


def read_back(out):
    return ds.dataset(out, format="parquet", partitioning="hive").to_table()


def test_convert_demo_dir(spark, demo, tmp_path, capsys):
    out = tmp_path / "parquet"
    out.mkdir()  # an existing empty directory is a fine OUT
    status = cli.main(["convert", demo.path, str(out), "--json"])
    assert status == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out.strip().splitlines()[-1])
    # the progress line ends with the summary's figures and the summary's elapsed time
    final = [line for line in captured.err.splitlines() if line.startswith("convert: finished")]
    assert final == [f"convert: finished: {summary['spark_partitions']}/{summary['spark_partitions']} tasks, "
                     f"{_common.human(summary['input_bytes'])} of {_common.human(summary['input_bytes'])} (100%), "
                     f"{summary['rows']:,} rows in {summary['seconds']:.1f}s"], captured.err
    marker = json.loads((out / _common.MARKER).read_text())
    assert marker["status"] == "complete" and marker["rows"] == summary["rows"]
    assert sorted(marker["files"]) == sorted(
        os.path.relpath(os.path.join(b, f), out) for b, _, fs in os.walk(out) for f in fs if f != _common.MARKER)
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
    assert check.verify_log_demo(demo, str(out), "read_committed") == []
    # the session the job found was left running
    assert spark.range(3).count() == 3


def test_convert_options(spark, demo, tmp_path, capsys):
    out = tmp_path / "orders"
    status = cli.main(["convert", demo.path, str(out), "--no-progress", "--topics", "orders",
                       "--isolation-level", "read_uncommitted", "--ending-offsets", "100", "--no-headers",
                       "--batch-columns"])
    assert status == 0
    text = capsys.readouterr().out
    assert "rows: 300" in text and "rows/s:" in text and f"Parquet files in {out}" in text
    table = read_back(out)
    assert table.num_rows == 300
    assert "headers" not in table.column_names and "producer_id" in table.column_names


def test_generated_demo(spark, tmp_path, capsys):
    # --demo: generate, convert and check in one go
    out = tmp_path / "demo-out"
    status = cli.main(["convert", "--demo", str(out), "--demo-records", "3000", "--no-progress"])
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
    """``python -m kafkacodec.spark_cli convert`` in its own JVM, as the README runs it."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(cli.__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "kafkacodec.spark_cli", "convert", "--demo", str(tmp_path / "out"),
                           "--demo-records", "20000", "--master", "local[2]"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "demo check: ok" in proc.stdout and "rows/s:" in proc.stdout


# ---------------------------------------------------------------- refusals: before Spark, nothing touched
def tree(*roots):
    """{path: sha256 of the content, or "dir"} under each root, recursively."""
    import hashlib

    out = {}
    for root in roots:
        root = str(root)
        if not os.path.exists(root):
            continue
        out[root] = "dir" if os.path.isdir(root) else hashlib.sha256(open(root, "rb").read()).hexdigest()
        for base, dirs, files in os.walk(root):
            for d in dirs:
                out[os.path.join(base, d)] = "dir"
            for f in files:
                with open(os.path.join(base, f), "rb") as fh:
                    out[os.path.join(base, f)] = hashlib.sha256(fh.read()).hexdigest()
    return out


@pytest.fixture
def no_spark(monkeypatch):
    """Fail the test if the command gets as far as starting Spark."""
    def refuse(*args, **kwargs):
        raise AssertionError("Spark was started")

    monkeypatch.setattr(convert, "_convert_with_spark", refuse)


@pytest.fixture
def workspace(demo, tmp_path):
    """A copy of the demo logs beside a user's own files, in tmp_path."""
    import shutil

    logs = tmp_path / "logs"
    shutil.copytree(demo.path, logs)
    mine = tmp_path / "mine"
    (mine / "sub").mkdir(parents=True)
    (mine / "notes.txt").write_text("my notes")
    (mine / "sub" / "data.parquet").write_bytes(b"PAR1 not ours PAR1")
    (tmp_path / "empty").mkdir()
    (tmp_path / "a-file").write_text("x")
    return tmp_path


def run_refused(argv, capsys, status=2):
    got = cli.main(argv)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert got == status, err
    assert len(lines) == 1 and lines[0].startswith("kafkacodec-spark: "), err
    return lines[0]


def test_refused_commands_leave_every_file_in_place(workspace, capsys, no_spark):
    w = workspace
    logs, mine = str(w / "logs"), str(w / "mine")
    before = tree(w)
    cases = [
        # (argv, words the one-line error must hold)
        (["convert", logs], "needs LOGDIR and OUT, got only"),  # the old demo-over-LOGDIR trap
        (["convert"], "needs LOGDIR and OUT"),
        (["convert", "--demo", logs, mine], "--demo takes at most OUT"),
        (["convert", logs, logs], "OUT is LOGDIR"),
        (["convert", logs, f"{logs}/../logs/"], "OUT is LOGDIR"),
        (["convert", logs, f"{logs}/orders-0/out"], "is inside LOGDIR"),
        (["convert", f"{logs}/orders-0", logs], "contains LOGDIR"),
        (["convert", f"{logs}/orders-0", str(w)], "contains LOGDIR"),
        (["convert", logs, mine], "OUT is not empty"),
        (["convert", logs, mine, "--mode", "overwrite"], "no _KAFKACODEC file"),
        (["convert", logs, mine, "--mode", "append"], "no _KAFKACODEC file"),
        (["convert", logs, str(w / "a-file")], "not a directory"),
        (["convert", logs, str(w / "a-file" / "out")], "is not a directory"),
        (["convert", str(w / "missing"), str(w / "out")], "LOGDIR not found"),
        (["convert", mine, str(w / "out")], "not a Kafka data directory"),
        (["convert", str(w / "empty"), str(w / "out")], "not a Kafka data directory"),
        (["convert", logs, str(w / "out"), "--topics", "nope"], "no topic nope"),
        (["convert", logs, str(w / "out"), "--partitions", "orders:9"], "no partition orders:9"),
        (["convert", logs, str(w / "out"), "--starting-offsets", "soon"], "starting_offsets"),
    ]
    for argv, words in cases:
        line = run_refused(argv, capsys)
        assert words in line, (argv, line)
        assert tree(w) == before, argv
    # a marker that kafkacodec did not write does not make a directory ours
    (w / "mine" / "_KAFKACODEC").write_text("{}")
    before = tree(w)
    assert "no _KAFKACODEC file" in run_refused(["convert", logs, mine, "--mode", "overwrite"], capsys)
    assert tree(w) == before


def test_unwritable_out_is_found_before_spark(workspace, capsys, no_spark):
    logs = str(workspace / "logs")
    before = tree(workspace)
    if os.path.isdir("/sys/kernel"):  # sysfs refuses new entries, even to root
        line = run_refused(["convert", logs, "/sys/kafkacodec-test-out"], capsys)
        assert "cannot write to /sys/kafkacodec-test-out" in line
        assert not os.path.exists("/sys/kafkacodec-test-out")
    if os.geteuid() != 0:  # root writes through permission bits
        ro = workspace / "read-only"
        ro.mkdir()
        ro.chmod(0o555)
        try:
            assert "cannot write to" in run_refused(["convert", logs, str(ro / "out")], capsys)
        finally:
            ro.chmod(0o755)
    assert tree(workspace / "logs") == {k: v for k, v in before.items() if k.startswith(logs)}


def test_empty_valid_input_warns_and_writes_nothing(tmp_path, capsys, no_spark):
    from kafkacodec.logdir.writer import PartitionWriter

    with PartitionWriter(tmp_path / "logs", "quiet", 0):
        pass  # a partition directory with an empty active segment, as a new topic has
    assert any(n.endswith(".log") for n in os.listdir(tmp_path / "logs" / "quiet-0"))
    out = tmp_path / "out"
    assert cli.main(["convert", str(tmp_path / "logs"), str(out)]) == 0
    err = capsys.readouterr().err
    assert "warning: no records to convert" in err and str(tmp_path / "logs") in err
    assert not out.exists()


def test_output_rollback_removes_only_what_the_run_wrote(tmp_path):
    # a run into an existing empty directory, failing half way
    out = tmp_path / "out"
    out.mkdir()
    target = _common.Output(str(out), "errorifexists", writer=convert.WRITER)
    target.check(None)
    target.prepare()
    assert json.loads((out / _common.MARKER).read_text())["status"] == "writing"
    (out / "topic=a" / "partition=0").mkdir(parents=True)
    (out / "topic=a" / "partition=0" / "part-0.parquet").write_bytes(b"x")
    target.rollback()
    assert out.is_dir() and os.listdir(out) == []
    # a run that created OUT (and a parent) removes them
    deep = tmp_path / "new" / "deeper"
    target = _common.Output(str(deep), "errorifexists", writer=convert.WRITER)
    target.check(None)
    target.prepare()
    target.rollback()
    assert not (tmp_path / "new").exists()
    # a refused run removes nothing, even if rollback is called
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("keep")
    target = _common.Output(str(mine), "errorifexists", writer=convert.WRITER)
    with pytest.raises(_common.CommandError, match="not empty"):
        target.check(None)
    target.rollback()
    assert (mine / "keep.txt").read_text() == "keep"


def test_overwrite_replaces_only_listed_files(tmp_path):
    out = tmp_path / "out"
    old = ["_SUCCESS", "topic=a/partition=0/part-old.parquet", "topic=b/partition=1/part-old.parquet"]
    for rel in old:
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text("old")
    first = _common.Output(str(out), "errorifexists", writer=convert.WRITER, fresh=True)
    first.write_marker("complete", old)
    target = _common.Output(str(out), "overwrite", writer=convert.WRITER)
    target.check(None)
    target.prepare()
    before = _common.snapshot(str(out))
    (out / "topic=a" / "partition=0" / "part-new.parquet").write_text("new")
    (out / "_SUCCESS").write_text("new")
    removed = target.commit(_common.changed(before, _common.snapshot(str(out))))
    assert sorted(removed) == ["topic=a/partition=0/part-old.parquet", "topic=b/partition=1/part-old.parquet"]
    assert not (out / "topic=b").exists()  # emptied by the removal
    marker = json.loads((out / _common.MARKER).read_text())
    assert marker["status"] == "complete"
    assert marker["files"] == ["_SUCCESS", "topic=a/partition=0/part-new.parquet"]
    # a file the listing does not hold blocks the next overwrite, before anything is removed
    (out / "topic=a" / "partition=0" / "part-stray.parquet").write_text("?")
    before = tree(out)
    with pytest.raises(_common.CommandError, match="1 files there were not written by convert"):
        _common.Output(str(out), "overwrite", writer=convert.WRITER).check(None)
    assert tree(out) == before


def test_codec_error_line_from_spark_text():
    text = ("An error occurred while calling o93.parquet.\n: org.apache.spark.SparkException: Job aborted\n"
            "org.apache.spark.api.python.PythonException: [PYTHON_EXCEPTION] An exception was thrown from the "
            "Python worker: Traceback (most recent call last):\n  File \"x.py\", line 1, in f\n"
            "kafkacodec.errors.CrcMismatchError: /d/orders-0/00000000000000000000.log: CRC-32C mismatch "
            "at byte 226213 in `batches[17].crc`\n SQLSTATE: 38000\n\tat org.apache.spark.Foo(Foo.scala:1)\n")
    assert _common.codec_error_line(RuntimeError(text)) == (
        "CrcMismatchError: /d/orders-0/00000000000000000000.log: CRC-32C mismatch at byte 226213 in "
        "`batches[17].crc`")
    assert _common.codec_error_line(RuntimeError("Job aborted\n\tat org.apache.spark.Foo")) is None


# ---------------------------------------------------------------- Spark runs: modes, corrupt data, the demo
def test_modes_on_earlier_output(spark, demo, tmp_path, capsys):
    out = tmp_path / "out"
    assert cli.main(["convert", demo.path, str(out), "--topics", "clicks", "--no-progress"]) == 0
    first = read_back(out)
    assert set(first.column("topic").to_pylist()) == {"clicks"}
    capsys.readouterr()
    # the default mode will not write into it again
    before = tree(out)
    assert "OUT is not empty" in run_refused(["convert", demo.path, str(out)], capsys)
    assert tree(out) == before
    # append adds a topic, keeping the first run's files
    assert cli.main(["convert", demo.path, str(out), "--topics", "orders", "--mode", "append",
                     "--no-progress"]) == 0
    both = read_back(out)
    assert sorted(set(both.column("topic").to_pylist())) == ["clicks", "orders"]
    assert all(os.path.exists(p) for p in before if p.endswith(".parquet"))
    # overwrite replaces every file convert wrote, and only those
    extra = tmp_path / "elsewhere.txt"
    extra.write_text("beside OUT")
    assert cli.main(["convert", demo.path, str(out), "--topics", "payments", "--mode", "overwrite",
                     "--no-progress"]) == 0
    assert set(read_back(out).column("topic").to_pylist()) == {"payments"}
    assert sorted(os.listdir(out)) == ["._SUCCESS.crc", "_KAFKACODEC", "_SUCCESS", "topic=payments"]
    assert extra.read_text() == "beside OUT"


def test_corrupt_segment_fails_with_one_line_and_leaves_no_output(spark, demo, tmp_path, capsys):
    import shutil

    logs = tmp_path / "logs"
    shutil.copytree(demo.path, logs)
    path, victim = flip_byte_mid_segment(logs / "orders-0")
    # OUT did not exist: it is gone again; OUT existed empty: it is empty again
    for out in (tmp_path / "new-out", tmp_path / "empty-out"):
        if out.name == "empty-out":
            out.mkdir()
        before = tree(logs)
        assert cli.main(["convert", str(logs), str(out), "--no-progress"]) == 1
        captured = capsys.readouterr()
        err = [line for line in captured.err.splitlines() if line.startswith("kafkacodec-spark:")]
        assert len(err) == 1, captured.err
        assert err[0].startswith(f"kafkacodec-spark: CrcMismatchError: {path}: ")
        pos = int(err[0].split(" at byte ")[1].split()[0])
        assert victim.position <= pos < victim.end
        assert "`batches[" in err[0] and "finished" not in captured.err + captured.out
        assert "rows:" not in captured.out
        assert tree(logs) == before
        assert (not out.exists()) if out.name == "new-out" else os.listdir(out) == []
    # --verbose adds the traces, and still ends on the one line
    assert cli.main(["convert", str(logs), str(tmp_path / "new-out"), "--no-progress", "--verbose"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" in err and err.strip().splitlines()[-1].startswith("kafkacodec-spark: CrcMismatchError: ")
    assert not (tmp_path / "new-out").exists()


def test_skip_mode_converts_the_rest_and_counts_what_it_left_out(spark, demo, tmp_path, capsys):
    import shutil

    logs = tmp_path / "logs"
    shutil.copytree(demo.path, logs)
    path, victim = flip_byte_mid_segment(logs / "orders-0")
    out = tmp_path / "out"
    assert cli.main(["convert", str(logs), str(out), "--no-progress", "--on-corruption", "skip",
                     "--isolation-level", "read_uncommitted", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (summary["skipped_batches"], summary["skipped_bytes"]) == (1, victim.size)
    assert 0 < demo.records - summary["rows"] <= 200  # one batch's records, nothing else


def flip_byte_mid_segment(partition_dir):
    """Flip one value byte in a batch half way through the first segment."""
    import kafkacodec.logdir as logdir

    part = logdir.open(partition_dir)
    seg = part.segments[0]
    headers = list(seg.headers(0, seg.valid_size))
    victim = headers[len(headers) // 2]
    path = str(seg.log_path)
    part.close()
    with open(path, "r+b") as f:
        f.seek(victim.end - 3)
        b = f.read(1)
        f.seek(victim.end - 3)
        f.write(bytes([b[0] ^ 0xFF]))
    return path, victim


def test_demo_keeps_its_output_and_says_where(spark, capsys):
    import re
    import shutil

    status = cli.main(["convert", "--demo", "--demo-records", "2000", "--no-progress"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    out = re.search(r"^output kept in (.+)$", captured.out, re.M).group(1)
    generated = re.search(r"generating a demo log directory with .* records in (\S+)", captured.err).group(1)
    try:
        assert read_back(out).num_rows > 1000  # still there after the command returned
        assert json.loads(open(os.path.join(out, _common.MARKER)).read())["status"] == "complete"
        assert not os.path.exists(generated)  # the input it generated itself is cleaned up
    finally:
        shutil.rmtree(out, ignore_errors=True)


def test_corrupt_data_fresh_process_prints_no_traces(demo, tmp_path):
    """In its own JVM, as users run it: one line on stderr, no Python or Java
    trace, exit 1, no OUT left."""
    import shutil

    logs = tmp_path / "logs"
    shutil.copytree(f"{demo.path}/orders-0", logs / "orders-0")
    path, _ = flip_byte_mid_segment(logs / "orders-0")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(cli.__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "kafkacodec.spark_cli", "convert", str(logs), str(tmp_path / "out"),
                           "--master", "local[1]", "--driver-memory", "1g"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr and "\tat " not in proc.stderr and "Exception" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith(f"kafkacodec-spark: CrcMismatchError: {path}: ")
    assert "finished" not in proc.stderr and proc.stdout == ""
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------- the command outside the DataSources' package
def test_datasources_and_command_apart():
    """kafkacodec.spark (the DataSources) never loads the command; the
    command (kafkacodec.spark_cli) loads neither pyspark nor pyarrow until it runs."""
    checks = [
        "import sys, kafkacodec.spark, kafkacodec.spark._live_source; "
        "assert not [m for m in sys.modules if 'spark_cli' in m], sorted(sys.modules)",
        "import sys, kafkacodec.spark_cli.cli, kafkacodec.spark_cli.check; "
        "assert not {'pyspark', 'pyarrow'} & set(sys.modules), sorted(sys.modules)",
    ]
    for code in checks:  # fresh processes: this one has loaded everything already
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.parametrize("old, new, names", [
    ("kafkacodec.spark.cli", "kafkacodec.spark_cli.cli", ["main"]),
    ("kafkacodec.spark.cli", "kafkacodec.spark_cli.convert", ["convert", "partitioned_write_conf", "preflight"]),
    ("kafkacodec.spark.pipeline", "kafkacodec.spark_cli.check", ["committed_files"]),
    ("kafkacodec.spark.demo", "kafkacodec.spark_cli.demo", ["generate_demo", "produce_live_demo", "DemoInfo"]),
])
def test_old_module_names_still_work_with_a_warning(monkeypatch, old, new, names):
    import importlib

    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match=r"kafkacodec\.spark_cli"):
        module = importlib.import_module(old)
    target = importlib.import_module(new)
    for name in names:
        assert getattr(module, name) is getattr(target, name)
    if old == "kafkacodec.spark.pipeline":
        assert module.verify_demo is check.verify_live_demo and module.marker_demo is check.marker_live_demo
