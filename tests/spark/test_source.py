"""The kafka-log DataSource against the record layer (kafkacodec.records).

Every expectation is computed independently of the Spark path: the
partition's segments are decoded record by record with
``kafkacodec.records.decode_records`` and the aborted transactions come
from the ``.txnindex`` files (and, for the demo, from the generator's
manifest of what it aborted).
"""
import datetime as dt

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed")

import kafkacodec.logdir as logdir  # noqa: E402
from kafkacodec.records import decode_records

UTC = dt.timezone.utc


def reference(root, isolation_level="read_uncommitted", *, include_internal=False, topics=None):
    """{(topic, partition): [Record, ...]} by the record layer."""
    opened = logdir.open(root)
    parts = [opened] if isinstance(opened, logdir.PartitionDir) else opened.partitions(
        topics, include_internal=include_internal)
    out = {}
    for part in parts:
        data = b"".join(bytes(seg.read()) for seg in part.segments)
        aborted = [(t.producer_id, t.first_offset) for t in part.aborted_transactions()]
        recs = decode_records(data, isolation_level=isolation_level, aborted_transactions=aborted)
        start = part.log_start_offset
        out[(part.topic, part.partition)] = [r for r in recs if start is None or r.offset >= start]
    opened.close()
    return out


def rows_by_partition(df):
    """{(topic, partition): pyarrow Table sorted by offset} from a DataFrame."""
    table = df.toArrow()
    out = {}
    topics = table.column("topic").to_pylist()
    parts = table.column("partition").to_pylist()
    keys = sorted(set(zip(topics, parts)))
    import pyarrow.compute as pc

    for topic, partition in keys:
        mask = pc.and_(pc.equal(table.column("topic"), topic), pc.equal(table.column("partition"), partition))
        sub = table.filter(mask)
        sub = sub.take(pc.sort_indices(sub.column("offset")))
        out[(topic, partition)] = sub
    return out


def assert_matches(df, expected, *, headers=True):
    got = rows_by_partition(df)
    assert set(got) == {k for k, v in expected.items() if v}, (set(got), set(expected))
    for tp, recs in expected.items():
        if not recs:
            continue
        t = got[tp]
        assert t.num_rows == len(recs), tp
        assert t.column("offset").to_pylist() == [r.offset for r in recs], tp
        assert t.column("key").to_pylist() == [r.key for r in recs], tp
        assert t.column("value").to_pylist() == [r.value for r in recs], tp
        ts = t.column("timestamp").cast("int64").to_pylist()  # microseconds
        assert ts == [r.timestamp * 1000 for r in recs], tp
        assert t.column("timestampType").to_pylist() == [r.timestamp_type for r in recs], tp
        if headers:
            got_h = [[(h["key"], h["value"]) for h in row] for row in t.column("headers").to_pylist()]
            assert got_h == [list(r.headers) for r in recs], tp


def read(spark, path, **options):
    options.setdefault("includeHeaders", "true")
    reader = spark.read.format("kafka-log").option("path", str(path))
    for k, v in options.items():
        if v is not None:
            reader = reader.option(k, str(v))
    return reader.load()


# ---------------------------------------------------------------- demo directory
def test_schema(spark, demo):
    # Spark's Kafka source columns; headers only with includeHeaders, as Spark's
    df = spark.read.format("kafka-log").option("path", demo.path).load()
    assert df.columns == ["key", "value", "topic", "partition", "offset", "timestamp", "timestampType"]
    assert read(spark, demo.path).columns == df.columns + ["headers"]
    # "headers", the option's earlier name, still works
    assert read(spark, demo.path, includeHeaders=None, headers="true").columns == df.columns + ["headers"]
    df = read(spark, demo.path, batchColumns="true", includeHeaders="false")
    assert df.columns[-5:] == ["producer_id", "producer_epoch", "sequence", "partition_leader_epoch",
                               "is_transactional"]
    assert "headers" not in df.columns


def test_demo_read_uncommitted_matches_record_layer(spark, demo):
    df = read(spark, demo.path, maxBytesPerPartition="32k",  # many byte ranges per segment
              isolationLevel="read_uncommitted")
    expected = reference(demo.path)
    assert sum(len(v) for v in expected.values()) == demo.records
    assert_matches(df, expected)


def test_demo_read_committed(spark, demo):
    # read_committed is the default, as in kafkacodec-spark convert
    assert read(spark, demo.path, topics="payments").count() == sum(
        demo.counts[("payments", p)] for p in range(2)) - demo.aborted_records
    df = read(spark, demo.path, isolationLevel="read_committed", maxBytesPerPartition="48k")
    expected = reference(demo.path, "read_committed")
    assert_matches(df, expected)
    assert df.count() == demo.committed_records
    assert demo.aborted_records > 0
    # no record of an aborted transaction, every committed payment present
    got = rows_by_partition(df.where("topic = 'payments'"))
    for (topic, partition), t in got.items():
        offsets = t.column("offset").to_pylist()
        assert not any(demo.is_aborted(topic, partition, o) for o in offsets)
        assert len(offsets) == demo.counts[(topic, partition)] - sum(
            n for _, _, n in demo.aborted[(topic, partition)])
    # read_uncommitted keeps them
    unc = read(spark, demo.path, isolationLevel="read_uncommitted", topics="payments")
    assert unc.count() == sum(demo.counts[("payments", p)] for p in range(2))


def test_demo_every_codec_and_headers(spark, demo):
    import kafkacodec.records as records

    codecs = set()
    part = logdir.open(demo.path).partition("clicks", 0)
    for seg in part.segments:
        codecs.update(b.compression for b in records.iter_batches(seg.read()))
    assert codecs == {"none", "gzip", "snappy", "lz4", "zstd"}
    df = read(spark, demo.path, topics="clicks")
    # the generator gives every click a null-valued "experiment" header
    row = df.where("partition = 1").orderBy("offset").first()
    assert [h["key"] for h in row["headers"]] == ["ua", "experiment"]
    assert row["headers"][1]["value"] is None


def test_batch_columns(spark, demo):
    df = read(spark, demo.path, batchColumns="true", topics="orders,payments", isolationLevel="read_committed")
    got = {(r["topic"], r["producer_id"], r["is_transactional"]) for r in
           df.select("topic", "producer_id", "is_transactional").distinct().collect()}
    assert got == {("orders", 7, False), ("orders", 8, False), ("orders", 9, False),
                   ("payments", 1000, True), ("payments", 1001, True),
                   ("payments", 1010, True), ("payments", 1011, True)}
    # idempotent sequences: consecutive per producer
    seqs = [r["sequence"] for r in df.where("topic = 'orders' and partition = 0").orderBy("offset")
            .select("sequence").collect()]
    assert seqs == list(range(len(seqs)))


def test_topics_and_partitions(spark, demo):
    assert {r["topic"] for r in read(spark, demo.path, topics="orders, clicks").select("topic").distinct()
            .collect()} == {"orders", "clicks"}
    df = read(spark, demo.path, topics="orders", partitions="0,2")
    assert sorted(r["partition"] for r in df.select("partition").distinct().collect()) == [0, 2]
    assert df.count() == demo.counts[("orders", 0)] + demo.counts[("orders", 2)]
    df = read(spark, demo.path, partitions="clicks:1")
    assert df.count() == demo.counts[("clicks", 1)]
    # one partition directory as the path
    one = read(spark, f"{demo.path}/payments-1", isolationLevel="read_committed")
    assert_matches(one, reference(f"{demo.path}/payments-1", "read_committed"))


def test_offset_ranges(spark, demo):
    expected = reference(demo.path, topics=["orders"])
    df = read(spark, demo.path, topics="orders", startingOffsets=100, endingOffsets=1500,
              maxBytesPerPartition="16k")
    assert_matches(df, {tp: [r for r in recs if 100 <= r.offset < 1500] for tp, recs in expected.items()})
    per = '{"orders": {"0": 10, "1": -2}}'
    ends = '{"orders": {"0": 20, "2": -2}}'
    df = read(spark, demo.path, topics="orders", startingOffsets=per, endingOffsets=ends)
    want = {
        ("orders", 0): [r for r in expected[("orders", 0)] if 10 <= r.offset < 20],
        ("orders", 1): expected[("orders", 1)],
        ("orders", 2): [],
    }
    assert_matches(df, want)
    assert read(spark, demo.path, startingOffsets="latest").count() == 0
    assert read(spark, demo.path, topics="orders", endingOffsets="earliest").count() == 0


def test_offset_range_read_committed_mid_transaction(spark, demo):
    # a range starting and ending inside transactions still drops aborted records
    expected = reference(demo.path, "read_committed", topics=["payments"])
    ranges = demo.aborted[("payments", 0)]
    first, last, _ = ranges[len(ranges) // 2]
    lo, hi = first + 3, last + 40
    df = read(spark, demo.path, topics="payments", partitions="0", isolationLevel="read_committed",
              startingOffsets=lo, endingOffsets=hi, maxBytesPerPartition="4k")
    assert_matches(df, {("payments", 0): [r for r in expected[("payments", 0)] if lo <= r.offset < hi]})


def test_timestamp_ranges(spark, demo):
    expected = reference(demo.path, topics=["clicks"])
    recs = expected[("clicks", 0)]
    t_start = recs[len(recs) // 4].timestamp
    t_end = recs[len(recs) // 2].timestamp

    def first_at(records, ts):
        # Kafka's offsetsForTimes: the first offset whose timestamp is >= ts
        return next((r.offset for r in records if r.timestamp >= ts), None)

    df = read(spark, demo.path, topics="clicks", startingTimestamp=t_start, endingTimestamp=t_end)
    want = {}
    for tp, rs in expected.items():
        lo, hi = first_at(rs, t_start), first_at(rs, t_end)
        want[tp] = [r for r in rs if lo is not None and r.offset >= lo and (hi is None or r.offset < hi)]
    assert_matches(df, want)
    assert sum(map(len, want.values())) > 0
    # timestamps after everything: nothing; before everything: all
    assert read(spark, demo.path, topics="clicks", startingTimestamp=4_000_000_000_000).count() == 0
    assert read(spark, demo.path, topics="clicks", startingTimestamp=0).count() == sum(map(len, expected.values()))
    # the filter Spark applies afterwards agrees with the timestamp column
    start = dt.datetime.fromtimestamp(t_start / 1000, UTC)
    assert df.where(df.timestamp < start).count() == 0


def test_bad_options(spark, demo):
    from pyspark.errors import PySparkException

    with pytest.raises((PySparkException, Exception), match="unknown option"):
        read(spark, demo.path, startingOffset=3).count()
    with pytest.raises((PySparkException, Exception), match="isolationLevel"):
        read(spark, demo.path, isolationLevel="serializable").count()
    # a named topic that is not there fails while planning instead of reading 0 rows
    with pytest.raises((PySparkException, Exception), match="no topic nope in"):
        read(spark, demo.path, topics="nope").count()


# ---------------------------------------------------------------- real broker directories
@pytest.mark.parametrize("sample", ["flink-on-prem", "apache-kafka-eda-study"])
def test_shared_samples(spark, samples_root, sample):
    root = samples_root / sample / "data"
    if not root.is_dir():
        pytest.skip(f"{root} not present")
    expected = reference(root)
    df = read(spark, root, maxBytesPerPartition="1m", isolationLevel="read_uncommitted")
    assert_matches(df, expected)
    assert df.count() == sum(len(v) for v in expected.values()) > 0
    # read_committed is the same here (no transactions in these logs)
    assert read(spark, root, isolationLevel="read_committed").count() == df.count()


def test_shared_sample_internal_topics(spark, samples_root):
    root = samples_root / "apache-kafka-eda-study" / "data"
    if not root.is_dir():
        pytest.skip(f"{root} not present")
    expected = reference(root, include_internal=True, topics=["__cluster_metadata"])
    df = read(spark, root, includeInternal="true", topics="__cluster_metadata", maxBytesPerPartition="64k",
              isolationLevel="read_uncommitted")
    assert_matches(df, expected)
