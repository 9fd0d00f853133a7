"""The live pipeline: kafkacodec-spark pipeline (topics -> Parquet with
Structured Streaming), on the embedded Tansu and on --bootstrap-servers; its
check catching a tampered output; usage errors; Ctrl-C."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed")

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from kafkacodec import embedded  # noqa: E402
from kafkacodec.spark_cli import _common, check, cli, pipeline  # noqa: E402

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker]


def _summary(text):
    return json.loads(text.strip().splitlines()[-1])


def test_demo_end_to_end_on_embedded_tansu(spark, tansu_installed, tmp_path, capsys):
    out = tmp_path / "out"
    status = cli.main(["pipeline", "--demo", str(out), "--demo-records", "4000", "--max-offsets-per-trigger",
                       "1500", "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    s = _summary(captured.out)
    assert s["check"] == "ok"
    assert s["rows"] == s["committed_records"] > 0 and s["aborted_records"] > 0
    assert s["micro_batches"] >= 3 and s["files"] > 0 and s["output_bytes"] > 0 and s["rows_per_second"] > 0
    # progress lines while it ran, then the broker it started is gone
    lines = [line for line in captured.err.splitlines() if line.startswith("pipeline: batch")]
    assert len(lines) == s["micro_batches"] and lines[-1].startswith(f"pipeline: batch {s['micro_batches']}, ")
    assert f"{s['rows']:,} rows, 100% of" in lines[-1]
    # the last progress line counts the bytes the summary counts (committed files of this run only)
    assert f", {_common.human(s['output_bytes'])} Parquet, " in lines[-1]
    # the wait before the first batch is not silent: Spark's status while it plans and starts
    assert any(line.startswith("pipeline: waiting for the first micro-batch: ") for line in captured.err.splitlines())
    pid = int(re.search(r"Tansu at 127\.0\.0\.1:\d+ \(pid (\d+)", captured.err).group(1))
    assert _peers.pid_gone(pid)
    assert f"stopped the embedded broker (pid {pid})" in captured.err
    # partitioned by topic and partition, checkpoint and marker beside
    assert sorted(os.listdir(out)) == ["_KAFKACODEC", "_checkpoint", "_spark_metadata", "topic=clicks",
                                       "topic=orders", "topic=payments"]
    marker = json.loads((out / _common.MARKER).read_text())
    assert marker["written_by"] == pipeline.WRITER and marker["status"] == "complete"
    assert marker["rows"] == s["rows"]
    info = check.marker_live_demo(str(out))
    assert set(info.codecs) == {"none", "gzip", "snappy", "lz4", "zstd"}
    assert info.transactions["committed"] > 0 and info.transactions["aborted"] > 0
    assert check.verify_live_demo(info, str(out)) == []
    # the session the command found is left running
    assert spark.range(3).count() == 3

    # tampering: one value changed in a committed file
    files = check.committed_files(str(out))
    victim = next(f for f in files if "topic=orders" in f and pq.ParquetFile(f).metadata.num_rows)
    original = pq.read_table(victim)
    values = original.column("value").to_pylist()
    values[0] = values[0] + b" "
    pq.write_table(original.set_column(original.schema.get_field_index("value"), "value",
                                       pa.array(values, pa.binary())), victim)
    problems = check.verify_live_demo(info, str(out))
    part = re.search(r"topic=(\w+)/partition=(\d+)", victim).groups()
    assert problems == [f"{part[0]}-{part[1]}: content differs from what was committed (SHA-256 of keys, "
                        f"values, headers, timestamps)"]
    # a file lost, and the same file twice
    os.unlink(victim)
    assert any(re.match(rf"{part[0]}-{part[1]}: [\d,]+ rows, [\d,]+ committed", p)
               for p in check.verify_live_demo(info, str(out)))
    pq.write_table(original, victim)
    twin = victim.replace(".parquet", "-twin.parquet")
    pq.write_table(original, twin)
    log = max((n for n in os.listdir(out / "_spark_metadata") if n.isdigit()), key=int)
    with open(out / "_spark_metadata" / log, "a") as f:
        f.write("\n" + json.dumps({"path": "file://" + twin, "size": os.path.getsize(twin), "isDir": False,
                                   "modificationTime": 0, "blockReplication": 1, "blockSize": 1,
                                   "action": "add"}))
    assert any(p.startswith(f"{original.num_rows} duplicate offsets in {part[0]}-{part[1]}")
               for p in check.verify_live_demo(info, str(out)))


def test_a_failed_check_is_exit_1_and_keeps_the_output(spark, tansu_installed, tmp_path, capsys, monkeypatch):
    from kafkacodec.spark_cli import demo

    real = demo.produce_live_demo

    def wrong(*args, **kwargs):  # expect a different payments-0: the Parquet no longer matches
        info = real(*args, **kwargs)
        info.digests[("payments", 0)] = "0" * 64
        return info

    monkeypatch.setattr(demo, "produce_live_demo", wrong)
    status = cli.main(["pipeline", "--demo", str(tmp_path / "out"), "--demo-records", "600", "--no-progress"])
    captured = capsys.readouterr()
    assert status == 1
    assert "check: FAILED: payments-0: content differs" in captured.out
    errors = [line for line in captured.err.splitlines() if line.startswith("kafkacodec-spark:")]
    assert errors == ["kafkacodec-spark: check failed: payments-0: content differs from what was committed "
                      "(SHA-256 of keys, values, headers, timestamps)"]
    assert check.committed_files(str(tmp_path / "out"))


def test_bootstrap_servers_topics_and_append(spark, tansu_installed, tmp_path, capsys):
    from kafkacodec.client import Admin, Producer

    with _peers.tansu_broker(lifetime=300) as bs:
        with Admin({"bootstrap.servers": bs}) as admin:
            admin.create_topics({"events": 3, "audit": 1})

        def produce(start, n):
            with Producer({"bootstrap.servers": bs, "compression.type": "lz4"}) as p:
                for i in range(start, start + n):
                    p.send("events" if i % 4 else "audit", b"v%d" % i, key=b"k%d" % i, headers=[("h", b"%d" % i)])

        produce(0, 800)
        out = tmp_path / "out"
        # a topic the broker lacks: refused before Spark starts, OUT left as it was
        assert cli.main(["pipeline", "--bootstrap-servers", bs, "--topics", "events,nope", str(out)]) == 2
        assert capsys.readouterr().err.endswith(f"kafkacodec-spark: no topic nope on {bs}\n")
        assert not out.exists()
        status = cli.main(["pipeline", "--bootstrap-servers", bs, "--topics", "events,audit", str(out), "--json",
                           "--no-progress"])
        captured = capsys.readouterr()
        assert status == 0, captured.err
        s = _summary(captured.out)
        assert s["rows"] == s["rows_total"] == 800 and "check" not in s and s["offsets"] == 800
        assert "Tansu" not in captured.err  # no embedded broker: the one given

        # again, on a non-empty OUT: refused unless --mode append, which goes on from the checkpoint
        produce(800, 300)
        assert cli.main(["pipeline", "--bootstrap-servers", bs, "--topics", "events,audit", str(out)]) == 2
        assert "OUT is not empty" in capsys.readouterr().err
        status = cli.main(["pipeline", "--bootstrap-servers", bs, "--topics", "events,audit", str(out), "--json",
                           "--no-progress", "--mode", "append"])
        captured = capsys.readouterr()
        assert status == 0, captured.err
        s = _summary(captured.out)
        assert s["rows"] == 300 and s["rows_total"] == 1100
        table = check.read_committed(str(out))
        keys = sorted(zip(table.column("topic").to_pylist(), table.column("partition").to_pylist(),
                          table.column("offset").to_pylist()))
        assert len(keys) == len(set(keys)) == 1100
        assert sorted(table.column("value").to_pylist()) == sorted(b"v%d" % i for i in range(1100))

        # the demo on a given broker: topics of its own, checked
        status = cli.main(["pipeline", "--demo", str(tmp_path / "demo"), "--bootstrap-servers", bs,
                           "--demo-records", "500", "--json", "--no-progress"])
        captured = capsys.readouterr()
        assert status == 0, captured.err
        s = _summary(captured.out)
        assert s["check"] == "ok" and all(re.fullmatch(r"kafkacodec-demo-[0-9a-f]{8}-\w+", t) for t in s["topics"])


@pytest.mark.parametrize("argv, message", [
    (["pipeline"], "pipeline needs --bootstrap-servers, --topics and OUT"),
    (["pipeline", "--topics", "t", "OUT"], "pipeline needs --bootstrap-servers, --topics and OUT"),
    (["pipeline", "--bootstrap-servers", "127.0.0.1:9", "--topics", "t"], "pipeline needs OUT"),
    (["pipeline", "--demo", "--topics", "t"], "--demo produces its own topics"),
    (["pipeline", "--demo", "--mode", "append"], "--mode append is for streaming your own topics"),
    (["pipeline", "--demo", "--demo-records", "0"], "--demo-records must be at least 1"),
    (["pipeline", "--demo", "--bootstrap-servers", "nohost"], "--bootstrap-servers wants host:port"),
    (["pipeline", "--demo", "--max-offsets-per-trigger", "-1"], "--max-offsets-per-trigger must be 0 or more"),
])
def test_usage_errors(argv, message, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("kafkacodec-spark: ") and message in err and err.count("\n") == 1


def test_out_is_never_taken_over(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep")
    base = ["pipeline", "--bootstrap-servers", "127.0.0.1:9", "--topics", "t", str(out)]
    assert cli.main(base) == 2
    assert "OUT is not empty" in capsys.readouterr().err
    assert cli.main(base + ["--mode", "append"]) == 2
    assert "it is not empty and has no _KAFKACODEC file of kafkacodec-spark pipeline" in capsys.readouterr().err
    assert sorted(os.listdir(out)) == ["notes.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli.main(["pipeline", "--bootstrap-servers", "127.0.0.1:9", "--topics", "t", str(empty),
                     "--mode", "append"]) == 2
    assert "nothing to append to" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:  # argparse's own usage errors: status 2 as well
        cli.main(["pipeline", "--no-such-option"])
    assert exc.value.code == 2


def test_a_broker_that_does_not_answer_is_exit_1(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pipeline, "PREFLIGHT_TIMEOUT", 1.0)
    port = embedded.free_port()  # nothing listens there
    out = tmp_path / "out"
    assert cli.main(["pipeline", "--bootstrap-servers", f"127.0.0.1:{port}", "--topics", "t", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"kafkacodec-spark: cannot read the topics' offsets from 127.0.0.1:{port}: "
                          "KafkaTimeoutError") and err.count("\n") == 1
    assert not out.exists()


def test_ctrl_c_stops_query_spark_and_broker(tansu_installed, tmp_path):
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "kafkacodec.spark", "pipeline", "--demo", str(out),
                             "--demo-records", "200000", "--max-offsets-per-trigger", "2000", "--master",
                             "local[1]", "--driver-memory", "1g"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                            preexec_fn=embedded.parent_death_signal)
    err = []
    pid = None
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            err.append(line)
            m = re.search(r"\(pid (\d+),", line)
            if m:
                pid = int(m.group(1))
            if line.startswith("pipeline: batch"):  # the query is running
                break
        assert pid is not None and err[-1].startswith("pipeline: batch"), "".join(err)
        proc.send_signal(signal.SIGINT)
        stdout, rest = proc.communicate(timeout=90)
    finally:
        embedded.stop_process(proc)
    assert proc.returncode == 130, "".join(err) + rest
    assert "kafkacodec-spark: interrupted" in rest and f"stopped the embedded broker (pid {pid})" in rest
    assert _peers.pid_gone(pid)
    assert not out.exists()  # an interrupted run leaves no half output
    assert "output kept" not in stdout
