"""The kafka-live source against a real broker (Tansu, started here): batch
reads equal what confluent-kafka consumes, read_committed included; Spark's
Kafka options; filter pushdown reads fewer bytes; streaming restarts from its
checkpoint without loss or duplicates."""
import datetime as dt
import json
import uuid

import pytest

pytestmark = pytest.mark.broker

pytest.importorskip("pyspark")
pytest.importorskip("confluent_kafka")

from _peers import consume_with_confluent, create_topics, produce_with_confluent  # noqa: E402

BASE_TS = 1_700_000_000_000


def _topic(prefix="live"):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _records(n, *, headers=True, start=0):
    out = []
    for i in range(start, start + n):
        key = None if i % 7 == 0 else b"k%05d" % i
        value = None if i % 11 == 0 else (b'{"i": %d, "pad": "%s"}' % (i, b"x" * (i % 40)))
        hs = [("h1", b"a%d" % i), ("h2", None)] if headers and i % 3 else []
        out.append((key, value, hs, BASE_TS + i * 10))
    return out


@pytest.fixture(scope="module")
def filled(live_broker):
    """A 3-partition topic, 3000 records (null keys and values, headers),
    lz4-compressed batches from librdkafka."""
    bs = live_broker.bootstrap
    topic = _topic()
    create_topics(bs, {topic: 3})
    produce_with_confluent(bs, topic, _records(3000), compression="lz4", batch_size=4096)
    return bs, topic


def _rows(df):
    return sorted(((r.key, r.value, [(h.key, h.value) for h in (r.headers or [])],
                    int(r.timestamp.replace(tzinfo=dt.timezone.utc).timestamp() * 1000) if r.timestamp.tzinfo is None
                    else int(r.timestamp.timestamp() * 1000), r.offset, r.partition) for r in df.collect()),
                  key=lambda r: (r[5], r[4]))


def _reader(spark, bs, **opts):
    r = spark.read.format("kafka-live").option("kafka.bootstrap.servers", bs)
    for k, v in opts.items():
        r = r.option(k, v)
    return r.load()


def test_schema_is_spark_kafka_source(spark, filled):
    bs, topic = filled
    df = _reader(spark, bs, subscribe=topic)
    assert [(f.name, f.dataType.simpleString()) for f in df.schema.fields] == [
        ("key", "binary"), ("value", "binary"), ("topic", "string"), ("partition", "int"), ("offset", "bigint"),
        ("timestamp", "timestamp"), ("timestampType", "int")]
    df = _reader(spark, bs, subscribe=topic, includeHeaders="true")
    assert df.schema["headers"].dataType.simpleString() == "array<struct<key:string,value:binary>>"


def test_batch_equals_confluent(spark, filled):
    bs, topic = filled
    expected = consume_with_confluent(bs, topic, 3000)
    assert len(expected) == 3000
    got = _rows(_reader(spark, bs, subscribe=topic, includeHeaders="true"))
    assert got == [(k, v, list(h), ts, off, p) for k, v, h, ts, off, p in expected]
    # topic column and timestampType (CreateTime = 0)
    df = _reader(spark, bs, subscribe=topic)
    assert {tuple(r) for r in df.select("topic", "timestampType").distinct().collect()} == {(topic, 0)}


def test_read_committed_equals_confluent(spark, live_broker):
    bs = live_broker.bootstrap
    topic = _topic("txn")
    create_topics(bs, {topic: 2})
    produce_with_confluent(bs, topic, _records(300, start=0), transactional_id=f"t-{topic}-1")
    aborted = set(produce_with_confluent(bs, topic, _records(200, start=300), transactional_id=f"t-{topic}-2",
                                         abort=True))
    produce_with_confluent(bs, topic, _records(100, start=500), transactional_id=f"t-{topic}-3")
    everything = consume_with_confluent(bs, topic, 600, timeout=20)
    assert len(everything) == 600
    # librdkafka hides aborted records only when the broker lists the aborted
    # transactions, which Tansu does not: its read_committed output still holds
    # them, so the reference is its read_uncommitted output less the aborted ones
    committed = [r for r in everything if (r[5], r[4]) not in aborted]
    assert len(committed) == 400
    got = _rows(_reader(spark, bs, subscribe=topic, includeHeaders="true",
                        **{"kafka.isolation.level": "read_committed"}))
    assert got == [(k, v, list(h), ts, off, p) for k, v, h, ts, off, p in committed]
    # read_uncommitted (the default) sees the aborted records too, never the markers
    uncommitted = _reader(spark, bs, subscribe=topic)
    assert uncommitted.count() == 600


def test_offsets_options_and_min_partitions(spark, filled):
    bs, topic = filled
    full = {(r.partition, r.offset) for r in _reader(spark, bs, subscribe=topic).select("partition", "offset").collect()}
    start = {topic: {"0": 10, "1": -2, "2": 100}}
    end = {topic: {"0": 50, "1": 20, "2": -1}}
    df = _reader(spark, bs, subscribe=topic, startingOffsets=json.dumps(start), endingOffsets=json.dumps(end))
    got = {(r.partition, r.offset) for r in df.select("partition", "offset").collect()}
    want = {(p, o) for p, o in full if (p == 0 and 10 <= o < 50) or (p == 1 and o < 20) or (p == 2 and o >= 100)}
    assert got == want
    assign = _reader(spark, bs, assign=json.dumps({topic: [1]}))
    assert {r.partition for r in assign.select("partition").distinct().collect()} == {1}
    pattern = _reader(spark, bs, subscribePattern=topic[:-3] + ".*")
    assert pattern.count() == 3000
    split = _reader(spark, bs, subscribe=topic, minPartitions="7")
    assert split.rdd.getNumPartitions() >= 7
    assert split.count() == 3000


def test_starting_timestamp(spark, filled):
    bs, topic = filled
    cut = BASE_TS + 2000 * 10
    df = _reader(spark, bs, subscribe=topic, startingTimestamp=str(cut))
    rows = df.select("timestamp").collect()
    assert len(rows) == 1000
    late = _reader(spark, bs, subscribe=topic, startingTimestamp=str(BASE_TS + 10 ** 9))
    with pytest.raises(Exception, match="no offset with a timestamp"):
        late.count()


def _ms(t):
    return int((t.replace(tzinfo=dt.timezone.utc) if t.tzinfo is None else t).timestamp() * 1000)


def test_out_of_order_timestamps(spark, live_broker):
    """CreateTime need not rise with the offset: one partition in batches of
    100, record 5 stamped in the future.  startingTimestamp / endingTimestamp
    cut at Kafka's offset (the first whose timestamp is at or after T: 5, not
    500), and a pushed-down timestamp filter keeps every row that passes it."""
    from pyspark.sql import functions as F

    bs = live_broker.bootstrap
    topic = _topic("ooo")
    create_topics(bs, {topic: 1})
    recs = [(b"k%d" % i, b"v%d" % i, [], BASE_TS + (10 ** 7 if i == 5 else i * 10)) for i in range(1000)]
    for i in range(0, 1000, 100):
        produce_with_confluent(bs, topic, recs[i:i + 100], compression="lz4", batch_num_messages=100)
    cut = BASE_TS + 500 * 10
    every = sorted((r.offset, _ms(r.timestamp)) for r in _reader(spark, bs, subscribe=topic)
                   .select("offset", "timestamp").collect())
    assert len(every) == 1000
    newer = [o for o, t in every if t >= cut]
    assert len(newer) == 501 and newer[0] == 5
    first = newer[0]

    def offsets(df):
        return sorted(r.offset for r in df.select("offset").collect())

    assert offsets(_reader(spark, bs, subscribe=topic, startingTimestamp=str(cut))) == \
        [o for o, _ in every if o >= first]
    assert offsets(_reader(spark, bs, subscribe=topic, endingTimestamp=str(cut))) == \
        [o for o, _ in every if o < first]
    df = _reader(spark, bs, subscribe=topic)
    lit = F.lit(dt.datetime.fromtimestamp(cut / 1000, tz=dt.timezone.utc))
    assert offsets(df.where(F.col("timestamp") >= lit)) == newer
    upper = F.lit(dt.datetime.fromtimestamp((cut + 2000) / 1000, tz=dt.timezone.utc))
    assert offsets(df.where((F.col("timestamp") > lit) & (F.col("timestamp") < upper))) == \
        [o for o, t in every if cut < t < cut + 2000]


def test_bad_options_fail_clearly(spark, filled):
    bs, topic = filled
    with pytest.raises(Exception, match="exactly one of"):
        _reader(spark, bs).count()
    with pytest.raises(Exception, match="unknown option"):
        _reader(spark, bs, subscribe=topic, startingOffset="earliest").count()
    with pytest.raises(Exception, match="auto.offset.reset"):
        _reader(spark, bs, subscribe=topic, **{"kafka.auto.offset.reset": "earliest"}).count()
    with pytest.raises(Exception, match="no topic"):
        _reader(spark, bs, subscribe="nope-" + topic).count()


def test_pushdown_reads_fewer_bytes(spark, filled, live_broker):
    from pyspark.sql import functions as F

    bs = live_broker.bootstrap
    topic = _topic("push")
    create_topics(bs, {topic: 2})
    # small batches whatever the machine's load: a batch is the smallest unit a fetch can skip
    produce_with_confluent(bs, topic, _records(40_000, headers=False), batch_size=16_384)
    df = _reader(spark, bs, subscribe=topic)
    cut = dt.datetime.fromtimestamp((BASE_TS + 36_000 * 10) / 1000, tz=dt.timezone.utc)

    before = live_broker.sent
    every = df.select("partition", "offset", "timestamp").collect()
    scan_bytes = live_broker.sent - before
    before = live_broker.sent
    rows = df.where(F.col("timestamp") >= F.lit(cut)).select("partition", "offset").collect()
    pushed_bytes = live_broker.sent - before
    want = sorted((r.partition, r.offset) for r in every if r.timestamp.replace(tzinfo=dt.timezone.utc) >= cut)
    assert len(want) == 4000 and sorted(tuple(r) for r in rows) == want
    # Tansu answers ListOffsets by timestamp with 0, so the start offset is found by walking the batch
    # headers before it (timestamps need not rise with the offset): about the bytes of a full scan
    assert pushed_bytes < scan_bytes * 1.3, (pushed_bytes, scan_bytes)
    before = live_broker.sent
    tail = df.where(F.col("offset") >= 18_000).select("partition", "offset").collect()
    offset_bytes = live_broker.sent - before
    assert sorted(tuple(r) for r in tail) == sorted((r.partition, r.offset) for r in every if r.offset >= 18_000)
    assert offset_bytes * 3 < scan_bytes, (offset_bytes, scan_bytes)
    print(f"\nkafka-live bytes fetched: full scan {scan_bytes}, timestamp >= cut {pushed_bytes}, "
          f"offset >= 18000 {offset_bytes}")

    bs, topic = filled
    df = _reader(spark, bs, subscribe=topic)
    # topic / partition / offset filters are exact and leave Spark nothing to re-check
    part = df.where((F.col("partition") == 1) & (F.col("offset") >= 5) & (F.col("offset") < 25)
                    & (F.col("topic") == topic))
    got = sorted(r.offset for r in part.select("offset").collect())
    assert got == list(range(5, 25))
    assert _reader(spark, bs, subscribe=topic).where(F.col("partition").isin(0, 2)).select("partition") \
        .distinct().count() == 2
    assert _reader(spark, bs, subscribe=topic).where(F.col("topic") == "other").count() == 0


def test_streaming_restart_no_loss_no_duplicates(spark, live_broker, tmp_path):
    bs = live_broker.bootstrap
    topic = _topic("stream")
    create_topics(bs, {topic: 2})
    produce_with_confluent(bs, topic, _records(400, headers=False, start=0))
    out, ckpt = str(tmp_path / "out"), str(tmp_path / "ckpt")

    def run():
        stream = (spark.readStream.format("kafka-live").option("kafka.bootstrap.servers", bs)
                  .option("subscribe", topic).option("startingOffsets", "earliest")
                  .option("maxOffsetsPerTrigger", "150").load())
        q = (stream.select("partition", "offset", "value").writeStream.format("parquet")
             .option("path", out).option("checkpointLocation", ckpt).trigger(availableNow=True).start())
        q.awaitTermination(120)
        assert not q.isActive
        assert q.exception() is None
        return q

    q = run()
    # maxOffsetsPerTrigger: 400 offsets in micro-batches of at most 150
    sizes = [p["numInputRows"] for p in q.recentProgress if p["numInputRows"]]
    assert sum(sizes) == 400 and max(sizes) <= 150 and len(sizes) >= 3
    produce_with_confluent(bs, topic, _records(250, headers=False, start=400))
    run()  # restarted from the checkpoint
    rows = spark.read.parquet(out).collect()
    keys = [(r.partition, r.offset) for r in rows]
    assert len(keys) == len(set(keys)) == 650
    expected = consume_with_confluent(bs, topic, 650)
    assert sorted(keys) == sorted((p, o) for _, _, _, _, o, p in expected)
    assert sorted((r.partition, r.offset, r.value) for r in rows) == sorted((p, o, v) for _, v, _, _, o, p in expected)
