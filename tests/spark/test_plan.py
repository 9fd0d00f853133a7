"""Planning without Spark: options, byte ranges, Spark-partition packing."""
import os

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed")

from kafkacodec.spark import _plan  # noqa: E402


def test_parse_options():
    o = _plan.parse_options({"path": "/x", "isolation.level": "read-committed", "TOPICS": "a, b",
                             "partitions": "0,b:3", "maxBytesPerPartition": "8m", "startingOffsets": "earliest",
                             "endingOffsets": '{"a": {"0": 5}}', "startingTimestamp": "1000",
                             "batchColumns": "TRUE", "headers": "no"})
    assert o.isolation_level == "read_committed"
    assert o.topics == ("a", "b")
    assert o.partitions == frozenset({(None, 0), ("b", 3)})
    assert o.max_bytes_per_partition == 8 << 20
    assert o.starting_offsets == ("all", _plan.EARLIEST)
    assert o.ending_offsets == ("map", {("a", 0): 5})
    assert o.starting_timestamp == ("all", 1000)
    assert o.batch_columns and not o.headers
    with pytest.raises(ValueError, match="path"):
        _plan.parse_options({})
    with pytest.raises(ValueError, match="unknown option"):
        _plan.parse_options({"path": "/x", "startOffset": "1"})
    with pytest.raises(ValueError, match="startingOffsets|starting_offsets"):
        _plan.parse_options({"path": "/x", "startingOffsets": "soon"})
    with pytest.raises(ValueError):
        _plan.parse_options({"path": "/x", "maxBytesPerPartition": "-1"})


def test_plan_covers_log_once(demo):
    opts = _plan.parse_options({"path": demo.path, "maxBytesPerPartition": "20k",
                                "isolationLevel": "read_uncommitted"})
    tasks = _plan.plan(opts)
    by_file = {}
    for t in tasks:
        assert t.size <= 20 << 10 or t.size < 64 << 10  # one oversized batch may exceed
        by_file.setdefault(t.path, []).append((t.start, t.end))
    import os

    for path, ranges in by_file.items():
        ranges.sort()
        assert ranges[0][0] == 0
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))  # contiguous, no overlap
        assert ranges[-1][1] == os.path.getsize(path)
    assert sum(rb.num_rows for rb in _plan.read_tasks(tasks, opts)) == demo.records


def test_group_tasks():
    tasks = [_plan.RangeTask("p", 0, s, "t", 0, 0) for s in (10, 10, 10, 50, 5)]
    groups = _plan.group_tasks(tasks, 30)
    assert [[t.size for t in g] for g in groups] == [[10, 10, 10], [50], [5]]
    assert len(_plan.group_tasks(tasks, 1000)) == 1
    assert len(_plan.group_tasks(tasks, 1000, min_groups=3)) >= 3


def test_read_committed_ships_txnindex_entries(demo):
    opts = _plan.parse_options({"path": demo.path, "topics": "payments", "isolationLevel": "read_committed"})
    tasks = _plan.plan(opts)
    assert all(t.aborted for t in tasks)
    got = sum(rb.num_rows for rb in _plan.read_tasks(tasks, opts))
    assert got == sum(demo.counts[("payments", p)] for p in range(2)) - demo.aborted_records


def test_min_partitions_cuts_large_segments(tmp_path):
    from kafkacodec.logdir.writer import PartitionWriter
    from kafkacodec.records import build_batches

    recs = [(1_700_000_000_000 + i, b"k%08d" % i, b"v" * 200) for i in range(12_000)]
    with PartitionWriter(tmp_path, "big", 0) as w:  # one 2.6 MB segment
        w.append(b"".join(build_batches(recs, batch_size=16384)), assign_offsets=True)
    base = {"path": str(tmp_path / "big-0")}
    assert len(_plan.plan(_plan.parse_options(base))) == 1
    opts = _plan.parse_options(dict(base, minPartitions="4"))
    tasks = _plan.plan(opts)
    groups = _plan.group_tasks(tasks, opts.max_bytes_per_partition, opts.min_partitions)
    assert len(tasks) >= 4 and len(groups) >= 4
    offsets = [o for rb in _plan.read_tasks(tasks, opts) for o in rb.column("offset").to_pylist()]
    assert offsets == list(range(12_000))


# ---------------------------------------------------------------- what is not there fails while planning
def _plan_of(**options):
    return _plan.plan(_plan.parse_options(options))


def test_plan_rejects_paths_that_are_not_kafka_data(tmp_path):
    with pytest.raises(_plan.KafkaLogError, match="no such directory: .*missing"):
        _plan_of(path=str(tmp_path / "missing"))
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(_plan.KafkaLogError, match="not a directory"):
        _plan_of(path=str(tmp_path / "file.txt"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(_plan.KafkaLogError, match=r"not a Kafka data directory: .*empty has no <topic>-<partition>"):
        _plan_of(path=str(empty))
    # directories named like partitions but holding no .log segments, and unrelated files
    photos = tmp_path / "photos"
    (photos / "holiday-2024").mkdir(parents=True)
    (photos / "holiday-2024" / "beach.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(_plan.KafkaLogError, match="without segments"):
        _plan_of(path=str(photos))
    # only internal topics: say how to read them
    internal = tmp_path / "internal" / "__consumer_offsets-0"
    internal.mkdir(parents=True)
    (internal / "00000000000000000000.log").write_bytes(b"")
    with pytest.raises(_plan.KafkaLogError, match="only internal topics .*includeInternal"):
        _plan_of(path=str(tmp_path / "internal"))
    assert _plan_of(path=str(tmp_path / "internal"), includeInternal="true") == []


def test_plan_rejects_unknown_topics_and_partitions(demo):
    with pytest.raises(_plan.KafkaLogError, match=r"no topic nope in .* \(topics there: clicks, orders, payments\)"):
        _plan_of(path=demo.path, topics="nope")
    with pytest.raises(_plan.KafkaLogError, match="no topic nope"):
        _plan_of(path=demo.path, topics="orders,nope")
    with pytest.raises(_plan.KafkaLogError, match="no partition orders:9"):
        _plan_of(path=demo.path, partitions="orders:9")
    with pytest.raises(_plan.KafkaLogError, match="no partition 2 "):
        _plan_of(path=demo.path, topics="payments", partitions="2")
    with pytest.raises(_plan.KafkaLogError, match="no topic orders .*topics there: payments"):
        _plan_of(path=f"{demo.path}/payments-0", topics="orders")
    # names that are there still plan
    assert {t.topic for t in _plan_of(path=demo.path, topics="orders", partitions="0,2")} == {"orders"}


def _corrupt_copy(demo, tmp_path, topic="orders", partition=0):
    """A copy of one uncompressed demo partition with one value byte flipped
    in a batch well past the first range; returns (dir, log path, batch header)."""
    import shutil

    import kafkacodec.logdir as logdir

    src = f"{demo.path}/{topic}-{partition}"
    dst = tmp_path / "logs" / f"{topic}-{partition}"
    shutil.copytree(src, dst)
    part = logdir.open(dst)
    seg = part.segments[0]
    headers = list(seg.headers(0, seg.valid_size))
    victim = headers[len(headers) // 2]
    part.close()
    path = str(seg.log_path)
    with open(path, "r+b") as f:
        f.seek(victim.end - 3)
        b = f.read(1)
        f.seek(victim.end - 3)
        f.write(bytes([b[0] ^ 0xFF]))
    return dst.parent, path, victim


def test_read_error_names_segment_file_and_position_in_it(demo, tmp_path):
    from kafkacodec.errors import CorruptDataError

    root, path, victim = _corrupt_copy(demo, tmp_path)
    opts = _plan.parse_options({"path": str(root), "maxBytesPerPartition": "16k"})
    tasks = _plan.plan(opts)
    hit = next(t for t in tasks if t.path == path and t.start <= victim.position < t.end)
    assert hit.start > victim.size  # a task-relative position could not pass for the file position
    with pytest.raises(CorruptDataError) as info:
        for _ in _plan.read_tasks(tasks, opts):
            pass
    exc = info.value
    assert victim.position <= exc.offset < victim.end, (exc.offset, victim)
    text = str(exc)
    assert text.startswith(path + ": ") and f"at byte {exc.offset}" in text
    # the message survives pickling, as it crosses from a Spark worker
    import pickle

    assert str(pickle.loads(pickle.dumps(exc))) == text


def test_read_tasks_progress_files(demo, tmp_path, monkeypatch):
    monkeypatch.setattr(_plan, "PROGRESS_INTERVAL", 0.0)
    progress = tmp_path / "progress"
    progress.mkdir()
    opts = _plan.parse_options({"path": demo.path, "topics": "clicks", "progressDir": str(progress),
                                "maxRowsPerBatch": "500"})
    tasks = _plan.plan(opts)
    total = sum(t.size for t in tasks)
    seen = []
    rows = 0
    for rb in _plan.read_tasks(tasks, opts, progress_key=7):
        rows += rb.num_rows
        seen.append(_plan.read_progress(str(progress)))
    assert os.listdir(progress) == ["task-7"]
    assert _plan.read_progress(str(progress)) == (total, rows)
    assert rows == demo.counts[("clicks", 0)] + demo.counts[("clicks", 1)]
    # it moves: rows as yielded, bytes batch by batch, never backwards
    assert [r for _, r in seen] == sorted(r for _, r in seen) and seen[0][1] < rows
    assert [b for b, _ in seen] == sorted(b for b, _ in seen)
    assert 0 < seen[len(seen) // 2][0] < total


def test_skip_mode_leaves_damaged_batches_out_and_counts_them(demo, tmp_path, monkeypatch):
    monkeypatch.setattr(_plan, "PROGRESS_INTERVAL", 0.0)
    root, path, victim = _corrupt_copy(demo, tmp_path)
    progress = tmp_path / "progress"
    progress.mkdir()
    opts = _plan.parse_options({"path": str(root), "maxBytesPerPartition": "16k", "onCorruption": "skip",
                                "progressDir": str(progress), "isolationLevel": "read_uncommitted"})
    rows = sum(rb.num_rows for rb in _plan.read_tasks(_plan.plan(opts), opts, progress_key=0))
    assert _plan.read_skipped(str(progress)) == (1, victim.size)
    assert 0 < rows < demo.counts[("orders", 0)]
    with pytest.raises(ValueError, match="onCorruption"):
        _plan.parse_options({"path": "/x", "onCorruption": "ignore"})


def test_truncated_batch_at_the_end_of_a_closed_segment_is_corruption(demo, tmp_path):
    import shutil

    import kafkacodec.logdir as logdir
    from kafkacodec.errors import CorruptDataError

    dst = tmp_path / "logs" / "orders-0"
    shutil.copytree(f"{demo.path}/orders-0", dst)
    part = logdir.open(dst)
    assert len(part.segments) > 1
    closed = part.segments[0]
    size = closed.size
    part.close()
    with open(closed.log_path, "r+b") as f:
        f.truncate(size - 5)   # the last batch of a closed segment loses its tail
    opts = _plan.parse_options({"path": str(dst.parent)})
    with pytest.raises(CorruptDataError) as info:
        for _ in _plan.read_tasks(_plan.plan(opts), opts):
            pass
    assert str(closed.log_path) in str(info.value)


def test_decode_limits_are_options(demo):
    from kafkacodec.errors import RecordLimitError

    opts = _plan.parse_options({"path": demo.path, "topics": "orders", "maxRecordsPerBatch": "2",
                                "maxDecompressedSize": "4m"})
    assert (opts.max_records_per_batch, opts.max_decompressed_size) == (2, 4 << 20)
    with pytest.raises(RecordLimitError) as info:
        for _ in _plan.read_tasks(_plan.plan(opts), opts):
            pass
    assert "orders-" in str(info.value) and "record_count" in str(info.value)
    for bad in ("0", "-1", "many"):
        with pytest.raises(ValueError, match="maxRecordsPerBatch"):
            _plan.parse_options({"path": "/x", "maxRecordsPerBatch": bad})


def test_plan_marks_only_the_last_segment_active(demo):
    opts = _plan.parse_options({"path": demo.path, "topics": "orders", "maxBytesPerPartition": "16k"})
    tasks = _plan.plan(opts)
    for (topic, partition) in {(t.topic, t.partition) for t in tasks}:
        mine = [t for t in tasks if (t.topic, t.partition) == (topic, partition)]
        last_path = max(t.path for t in mine)
        assert all(t.is_active == (t.path == last_path) for t in mine)
