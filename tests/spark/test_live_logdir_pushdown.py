"""Filter pushdown into the kafka-log source: topic/partition/offset filters
choose segments and byte ranges, a lower timestamp bound starts at the
.timeindex lookup; results equal the unpushed read, bytes read drop."""
import dataclasses
import datetime as dt

import pytest

pytest.importorskip("pyspark")

from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql.datasource import EqualTo, GreaterThanOrEqual, In, LessThan  # noqa: E402

from kafkacodec.spark import _plan  # noqa: E402
from kafkacodec.spark._pushdown import push_filters  # noqa: E402


def _planned_bytes(opts):
    return sum(t.size for t in _plan.plan(opts))


def test_push_filters_translation():
    ts = dt.datetime(2024, 1, 1, 0, 0, 0, 500, tzinfo=dt.timezone.utc)  # .5 ms: rounds up
    fs = [EqualTo(("topic",), "a"), In(("partition",), (0, 2)), GreaterThanOrEqual(("offset",), 10),
          LessThan(("offset",), 20), GreaterThanOrEqual(("timestamp",), ts), EqualTo(("value",), b"x")]
    pushed, remaining = push_filters(fs)
    assert pushed.topics == {"a"} and pushed.partitions == {0, 2}
    assert (pushed.min_offset, pushed.end_offset) == (10, 20)
    assert pushed.min_timestamp == int(ts.timestamp() * 1000) + 1
    # timestamp stays for Spark (timestamps need not ascend); value is not ours
    assert remaining == [fs[4], fs[5]] and all(a is b for a, b in zip(remaining, [fs[4], fs[5]]))
    empty, _ = push_filters([EqualTo(("topic",), "a"), EqualTo(("topic",), "b")])
    assert empty.empty


def test_logdir_pushdown_plans_fewer_bytes(demo):
    opts = _plan.parse_options({"path": demo.path})
    full = _planned_bytes(opts)
    topic, partition = sorted(demo.counts)[0]
    # one partition
    pushed, _ = push_filters([EqualTo(("topic",), topic), EqualTo(("partition",), partition)])
    one = _planned_bytes(dataclasses.replace(opts, pushed=pushed))
    assert 0 < one < full
    assert {(t.topic, t.partition) for t in _plan.plan(dataclasses.replace(opts, pushed=pushed))} == {(topic, partition)}
    # no such topic: nothing, not an error
    pushed, _ = push_filters([EqualTo(("topic",), "nope")])
    assert _planned_bytes(dataclasses.replace(opts, pushed=pushed)) == 0


def test_logdir_pushdown_in_spark(spark, demo, tmp_path):
    df = spark.read.format("kafka-log").option("path", demo.path).load()
    every = df.select("topic", "partition", "offset", "timestamp").collect()
    stamps = sorted(r.timestamp for r in every)
    cut = stamps[len(stamps) * 9 // 10]
    want = sorted((r.topic, r.partition, r.offset) for r in every if r.timestamp >= cut)

    def read(where, tag):
        progress = tmp_path / tag
        progress.mkdir()
        d = spark.read.format("kafka-log").option("path", demo.path).option("progressDir", str(progress)).load()
        rows = d.where(where).select("topic", "partition", "offset").collect()
        return sorted(tuple(r) for r in rows), _plan.read_progress(str(progress))[0]

    got, pushed_bytes = read(F.col("timestamp") >= F.lit(cut), "ts")
    assert got == want
    _, scan_bytes = read(F.lit(True), "all")
    assert pushed_bytes * 2 < scan_bytes, (pushed_bytes, scan_bytes)
    print(f"\nkafka-log bytes read: full scan {scan_bytes}, timestamp >= cut {pushed_bytes}")

    topic, partition = sorted(demo.counts)[0]
    got, part_bytes = read((F.col("topic") == topic) & (F.col("partition") == partition)
                           & (F.col("offset") >= 100) & (F.col("offset") < 300), "off")
    assert got == [(topic, partition, o) for o in sorted(
        r.offset for r in every if (r.topic, r.partition) == (topic, partition) and 100 <= r.offset < 300)]
    assert part_bytes < scan_bytes / 4
