"""A torn tail -- an incomplete batch ending a partition's active segment --
is left out by the kafka-log source and ``kafkacodec-spark convert`` as
Kafka's log recovery would truncate it, and reported wherever skipped
batches are: the tasks' progress files (``_plan.read_partial``), convert's
summary (JSON and text) and a warning on the ``kafkacodec.logdir`` logger."""
import json
import logging

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed")

import kafkacodec.logdir as logdir  # noqa: E402
from kafkacodec.logdir.writer import PartitionWriter  # noqa: E402
from kafkacodec.records import build_batches  # noqa: E402
from kafkacodec.spark import _plan  # noqa: E402

LOGGER = "kafkacodec.logdir"
RECORDS = 600  # per partition


def _records(n, start=0):
    return [(1_000 + i, b"key-%d" % i, b"v" * 60) for i in range(start, start + n)]


def torn_logs(root, *, cut=150, roll_first=False):
    """A data directory of two partitions of several segments; ``t-0``'s last
    segment ends in a batch cut short (a broker mid-append or a crash: no
    index entry is written before the log).  With ``roll_first`` that last
    segment holds nothing but the cut batch.  Returns the directory and the
    TornTail."""
    for p in (0, 1):
        with PartitionWriter(root, "t", p, segment_bytes=16 << 10, index_interval_bytes=2048) as w:
            for batch in build_batches(_records(RECORDS), batch_size=4096):
                w.append(batch, assign_offsets=True)
            if roll_first and p == 0:
                w.roll()
            nxt = w.next_offset
    part = logdir.open(root / "t-0")
    seg = part.segments[-1]
    extra = b"".join(build_batches(_records(20, RECORDS), batch_size=1 << 20, base_offset=nxt))
    with open(seg.log_path, "ab") as f:
        f.write(extra[:len(extra) - cut])
    part.close()
    return root, logdir.TornTail(str(seg.log_path), seg.size, len(extra) - cut)


def _warnings(caplog):
    return [r.getMessage() for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]


def test_tasks_report_the_torn_tail_in_progress_files(tmp_path, caplog):
    root, tail = torn_logs(tmp_path / "logs")
    progress = tmp_path / "progress"
    progress.mkdir()
    opts = _plan.parse_options({"path": str(root), "maxBytesPerPartition": "8k", "progressDir": str(progress)})
    caplog.set_level(logging.WARNING, logger=LOGGER)
    tasks = _plan.plan(opts)
    assert _warnings(caplog) == []  # planning finds it; the task that reads the partition's end reports it
    carrying = [t for t in tasks if t.torn_tails]
    assert [t.torn_tails for t in carrying] == [(tail,)]
    assert carrying[0] == max((t for t in tasks if t.partition == 0), key=lambda t: (t.path, t.start))
    rows = 0
    for i, group in enumerate(_plan.group_tasks(tasks, 16 << 10)):
        rows += sum(rb.num_rows for rb in _plan.read_tasks(group, opts, progress_key=i))
    assert rows == 2 * RECORDS
    assert _plan.read_partial(str(progress)) == (1, tail.bytes, [tail])
    assert _plan.read_skipped(str(progress)) == (0, 0)
    (warning,) = _warnings(caplog)
    assert warning.startswith(f"{tail.file}: ") and f"{tail.bytes} bytes at byte {tail.position}" in warning


def test_only_a_read_reaching_the_torn_batch_reports_it(tmp_path):
    root, tail = torn_logs(tmp_path / "logs")

    def torn(**options):
        opts = _plan.parse_options({"path": str(root), "topics": "t", "partitions": "0", **options})
        tasks = _plan.plan(opts)
        return [x for t in tasks for x in t.torn_tails], tasks

    assert torn()[0] == [tail]
    assert torn(endingOffsets=str(RECORDS))[0] == []  # ends below the offsets the torn batch would hold
    assert torn(endingOffsets=str(RECORDS + 5))[0] == [tail]
    # nothing whole to read from the end on: an empty task still reports what was left out there
    found, tasks = torn(startingOffsets="latest")
    assert found == [tail] and [(t.start, t.end) for t in tasks] == [(tail.position, tail.position)]
    opts = _plan.parse_options({"path": str(root), "partitions": "0", "startingOffsets": "latest"})
    assert list(_plan.read_tasks(tasks, opts)) == []


def test_a_last_segment_holding_only_the_torn_batch(tmp_path):
    root, tail = torn_logs(tmp_path / "logs", roll_first=True)
    assert tail.position == 0
    progress = tmp_path / "progress"
    progress.mkdir()
    opts = _plan.parse_options({"path": str(root), "partitions": "0", "progressDir": str(progress)})
    tasks = _plan.plan(opts)
    assert [t.torn_tails for t in tasks if t.torn_tails] == [(tail,)]
    assert sum(rb.num_rows for rb in _plan.read_tasks(tasks, opts, progress_key=0)) == RECORDS
    assert _plan.read_partial(str(progress)) == (1, tail.bytes, [tail])


def test_kafka_log_read_in_spark_reports_it(spark, tmp_path):
    root, tail = torn_logs(tmp_path / "logs")
    progress = tmp_path / "progress"
    progress.mkdir()
    df = (spark.read.format("kafka-log").option("path", str(root)).option("progressDir", str(progress))
          .option("maxBytesPerPartition", "16k").load())
    assert df.count() == 2 * RECORDS
    assert _plan.read_partial(str(progress)) == (1, tail.bytes, [tail])
    assert _plan.read_skipped(str(progress)) == (0, 0)


def test_convert_summary_reports_it(spark, tmp_path, capsys):
    from kafkacodec.spark_cli import cli

    root, tail = torn_logs(tmp_path / "logs")
    assert cli.main(["convert", str(root), str(tmp_path / "json-out"), "--no-progress", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["rows"] == 2 * RECORDS
    assert (summary["partial_batches"], summary["truncated_bytes"]) == (1, tail.bytes)
    assert summary["torn_tails"] == [{"file": tail.file, "position": tail.position, "bytes": tail.bytes}]
    assert summary["skipped_batches"] == 0
    assert cli.main(["convert", str(root), str(tmp_path / "text-out"), "--no-progress"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("left out:")]
    assert lines == [f"left out: 1 incomplete batch ({tail.bytes:,} bytes) at the end of {tail.file} "
                     f"from byte {tail.position:,} (a torn write, as Kafka's log recovery would truncate)"]


def test_convert_summary_without_a_torn_tail_says_nothing_of_it(spark, demo, tmp_path, capsys):
    from kafkacodec.spark_cli import cli

    assert cli.main(["convert", demo.path, str(tmp_path / "out"), "--no-progress", "--json",
                     "--topics", "clicks"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (summary["partial_batches"], summary["truncated_bytes"], summary["torn_tails"]) == (0, 0, [])


def test_summary_text_names_every_file():
    from kafkacodec.spark_cli.convert import _left_out_line

    tails = [{"file": f"/d/t-{p}/00000000000000000000.log", "position": 100 * p, "bytes": 10} for p in range(7)]
    line = _left_out_line({"partial_batches": 7, "truncated_bytes": 70, "torn_tails": tails})
    assert line.startswith("left out: 7 incomplete batches (70 bytes) at the ends of /d/t-0/")
    assert "/d/t-4/00000000000000000000.log from byte 400, 2 more (torn writes, " in line
