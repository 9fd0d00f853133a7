"""Planning without Spark: options, byte ranges, Spark-partition packing."""
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
    opts = _plan.parse_options({"path": demo.path, "maxBytesPerPartition": "20k"})
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
