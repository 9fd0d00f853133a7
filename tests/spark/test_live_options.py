"""Spark's Kafka source options on kafka-live that are not about offsets
alone: minOffsetsPerTrigger / maxTriggerDelay, maxRecordsPerPartition,
groupIdPrefix / kafka.group.id, fetchOffset.numRetries /
fetchOffset.retryIntervalMs, Spark's rules for startingOffsets /
endingOffsets JSON in batch queries; a range with an upper bound fetches
about what it needs; a read_committed read stalled behind the last stable
offset names it and the high watermark.  Planning is tested without Spark;
one small Spark query checks the options end to end."""
import json
import time
import uuid
from dataclasses import replace

import pytest

pytest.importorskip("pyspark")

from kafkacodec.spark import _live_offsets, _live_options, _live_plan, _live_read  # noqa: E402
from kafkacodec.spark._live_options import LiveError, parse_live_options  # noqa: E402
from kafkacodec.spark._live_plan import OffsetRange  # noqa: E402

BS = "127.0.0.1:9"


def _opts(streaming=False, **extra):
    return parse_live_options({"kafka.bootstrap.servers": BS, "subscribe": "t", **extra}, streaming=streaming)


def test_spark_options_are_parsed():
    o = _opts(True, minOffsetsPerTrigger="100", maxOffsetsPerTrigger="500", maxTriggerDelay="30s",
              maxRecordsPerPartition="1000", **{"fetchOffset.numRetries": "5", "fetchOffset.retryIntervalMs": "250",
                                                 "groupIdPrefix": "team-a"})
    assert (o.min_offsets_per_trigger, o.max_offsets_per_trigger, o.max_trigger_delay) == (100, 500, 30.0)
    assert o.max_records_per_partition == 1000
    assert (o.fetch_offset_retries, o.fetch_offset_retry_s) == (5, 0.25)
    assert o.group_id.startswith("team-a-") and o.group_id.endswith("-executor")
    # Spark's defaults: 15 minutes, 3 retries 10 ms apart, a unique group per query
    d = _opts(True)
    assert (d.max_trigger_delay, d.fetch_offset_retries, d.fetch_offset_retry_s) == (900.0, 3, 0.01)
    assert d.group_id.startswith("spark-kafka-source-") and d.group_id != _opts(True).group_id
    assert _opts().group_id.startswith("spark-kafka-relation-")
    for text, seconds in (("500", 0.5), ("250ms", 0.25), ("2m", 120.0), ("1h", 3600.0), ("1d", 86400.0)):
        assert _opts(True, maxTriggerDelay=text).max_trigger_delay == seconds


def test_option_errors_are_one_line_naming_the_option():
    cases = [
        ({"minOffsetsPerTrigger": "0"}, "minOffsetsPerTrigger"),
        ({"maxRecordsPerPartition": "many"}, "maxRecordsPerPartition"),
        ({"maxTriggerDelay": "soon"}, "maxTriggerDelay"),
        ({"fetchOffset.numRetries": "-1"}, "fetchOffset.numRetries"),
        ({"fetchOffset.retryIntervalMs": "x"}, "fetchOffset.retryIntervalMs"),
        ({"kafkaConsumer.pollTimeoutMs": "x"}, "kafkaConsumer.pollTimeoutMs"),
        ({"minOffsetsPerTrigger": "600", "maxOffsetsPerTrigger": "500"}, "minOffsetsPerTrigger"),
    ]
    for extra, name in cases:
        with pytest.raises(LiveError) as info:
            _opts(True, **extra)
        assert name in str(info.value) and "\n" not in str(info.value)
    # Spark: latest (-1) is no starting offset for a batch query, in JSON as in the word
    with pytest.raises(LiveError, match=r"startingOffsets for t\[1\] cannot be latest \(-1\) in a batch query"):
        _opts(startingOffsets=json.dumps({"t": {"0": 5, "1": -1}}))
    assert _opts(True, startingOffsets=json.dumps({"t": {"0": 5, "1": -1}})).starting == {("t", 0): 5, ("t", 1): -1}


def test_max_records_per_partition_cuts_ranges():
    ranges = [OffsetRange("t", 0, 100, 1100), OffsetRange("t", 1, 0, 250), OffsetRange("t", 2, 7, 7)]
    out = _live_plan.split_ranges(ranges, None, 300)
    assert all(0 < r.size <= 300 for r in out)
    assert [(r.partition, r.start, r.end) for r in out] == [
        (0, 100, 350), (0, 350, 600), (0, 600, 850), (0, 850, 1100), (1, 0, 250)]
    # then minPartitions, as Spark: more pieces while there are fewer than asked for
    out = _live_plan.split_ranges(ranges, 10, 300)
    assert len(out) >= 10 and all(r.size <= 300 for r in out)
    for p, (lo, hi) in ((0, (100, 1100)), (1, (0, 250))):
        pieces = sorted((r.start, r.end) for r in out if r.partition == p)
        assert pieces[0][0] == lo and pieces[-1][1] == hi
        assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))


class _Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def _stream(latest, **extra):
    from kafkacodec.client import TopicPartition
    from kafkacodec.spark._live_source import KafkaLiveStreamReader, live_schema

    reader = KafkaLiveStreamReader(_opts(True, **extra), live_schema())
    reader._admin_client = object()  # never asked: no new partitions, no offsets going back
    reader._latest = lambda: {TopicPartition("t", p): n for p, n in latest.items()}
    reader._clock = _Clock()
    return reader


def test_min_offsets_per_trigger_waits_for_rows_or_the_delay():
    from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows, ReadMinRows

    latest = {0: 0, 1: 0}
    r = _stream(latest, minOffsetsPerTrigger="100", maxTriggerDelay="10s")
    limit = r.getDefaultReadLimit()
    assert limit == ReadMinRows(100)
    start = {"t": {"0": 0, "1": 0}}
    assert r.latestOffset(start, limit) == start  # the first trigger goes, as Spark's (nothing new here)
    latest.update({0: 30, 1: 30})
    r._clock.now += 1
    assert r.latestOffset(start, limit) == start  # 60 new offsets < 100: wait
    latest.update({0: 60, 1: 45})
    r._clock.now += 1
    assert r.latestOffset(start, limit) == {"t": {"0": 60, "1": 45}}  # 105 >= 100: go
    start = {"t": {"0": 60, "1": 45}}
    latest.update({0: 61})
    r._clock.now += 5
    assert r.latestOffset(start, limit) == start
    r._clock.now += 5  # maxTriggerDelay since the last batch: go with what there is
    assert r.latestOffset(start, limit) == {"t": {"0": 61, "1": 45}}
    # all available (Trigger.Once) and Trigger.AvailableNow do not wait
    assert r.latestOffset({"t": {"0": 60, "1": 45}}, ReadAllAvailable()) == {"t": {"0": 61, "1": 45}}
    r._target = {k: v for k, v in r._latest().items()}
    assert r.latestOffset({"t": {"0": 60, "1": 45}}, limit) == {"t": {"0": 61, "1": 45}}

    # with maxOffsetsPerTrigger: the limit Spark passes is the maximum, the minimum still holds
    latest.update({0: 1000, 1: 1000})
    both = _stream(latest, minOffsetsPerTrigger="100", maxOffsetsPerTrigger="400", maxTriggerDelay="10s")
    limit = both.getDefaultReadLimit()
    assert limit == ReadMaxRows(400)
    assert both.latestOffset({"t": {"0": 0, "1": 0}}, limit) == {"t": {"0": 200, "1": 200}}
    both._clock.now += 1
    assert both.latestOffset({"t": {"0": 980, "1": 990}}, limit) == {"t": {"0": 980, "1": 990}}


def test_fetch_offset_retries(monkeypatch):
    from kafkacodec.client import TopicPartition
    from kafkacodec.errors import KafkaConnectionError

    calls = []

    def flaky(fails):
        def fetch():
            calls.append(time.monotonic())
            if len(calls) <= fails:
                raise KafkaConnectionError("connection refused")
            return "offsets"
        return fetch

    o = _opts(**{"fetchOffset.numRetries": "2", "fetchOffset.retryIntervalMs": "200"})
    assert _live_offsets.with_retries(o, "offsets", flaky(2)) == "offsets"
    assert len(calls) == 3 and calls[2] - calls[0] >= 0.38
    calls.clear()
    with pytest.raises(KafkaConnectionError):
        _live_offsets.with_retries(o, "offsets", flaky(3))
    assert len(calls) == 3
    calls.clear()
    with pytest.raises(LiveError):  # not a client error: at once
        _live_offsets.with_retries(o, "offsets",
                                   lambda: calls.append(1) or (_ for _ in ()).throw(LiveError("no topic x")))
    assert calls == [1]

    # a latest offset below where the last batch ended is asked for again numRetries times
    asked = []
    tp = TopicPartition("t", 0)
    monkeypatch.setattr(_live_offsets, "latest_offsets", lambda admin, tps, level: asked.append(tps) or {tp: 5})
    o = _opts(True, **{"fetchOffset.numRetries": "4", "fetchOffset.retryIntervalMs": "1"})
    assert _live_plan.offsets_back(None, o, {tp: 10}, {tp: 5}) == {tp: 5}
    assert len(asked) == 4


def test_group_id_reaches_the_broker_as_the_client_id():
    o = _opts(**{"kafka.group.id": "authorized-group"})
    conf = _live_options.client_conf(o, "consumer")
    assert conf["client.id"].startswith("consumer-authorized-group-")
    assert "group.id" not in conf  # no membership, no commits: as Spark's executors
    assert _live_options.client_conf(o, "admin").get("client.id") != conf["client.id"]
    prefixed = _live_options.client_conf(_opts(groupIdPrefix="team-a"), "consumer")
    assert prefixed["client.id"].startswith("consumer-team-a-")
    own = _live_options.client_conf(_opts(**{"kafka.group.id": "g", "kafka.client.id": "mine"}), "consumer")
    assert own["client.id"] == "mine"


# ----------------------------------------------------------------- against a broker

@pytest.fixture(scope="module")
def big(live_broker):
    """Partition 0: 20,000 records of about 530 bytes, uncompressed, in small
    batches; partition 1: 10 small records."""
    pytest.importorskip("confluent_kafka")
    from _peers import create_topics, produce_with_confluent

    bs = live_broker.bootstrap
    topic = f"opts-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 2})
    produce_with_confluent(bs, topic, [(b"k%05d" % i, b"v" * 500) for i in range(20_000)], partition=0,
                           batch_size=16_384)
    produce_with_confluent(bs, topic, [(b"k%d" % i, b"w") for i in range(10)], partition=1)
    return bs, topic


@pytest.mark.broker
def test_ending_offsets_must_name_every_partition(big):
    from kafkacodec.client import Admin

    bs, topic = big
    o = parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": topic,
                            "endingOffsets": json.dumps({topic: {"0": 50}})})
    with Admin(_live_options.client_conf(o, "admin")) as admin:
        with pytest.raises(LiveError, match=rf"endingOffsets names no offset for {topic}\[1\] \(use -1 for latest\)"):
            _live_plan.batch_ranges(admin, o)
        o = replace(o, ending={(topic, 0): 50, (topic, 1): -1})
        assert [(r.partition, r.start, r.end) for r in _live_plan.batch_ranges(admin, o)] == [(0, 0, 50), (1, 0, 10)]


@pytest.mark.broker
def test_an_upper_bound_cuts_the_bytes_fetched(big, live_broker):
    """Reading offsets 0..1000 of a 20,000-record partition fetches about
    those records' bytes, not the partition: the consumer sends no Fetch
    past the range's end and a response is bounded like a partition's."""
    bs, topic = big
    o = parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": topic})

    def read(end):
        before = live_broker.sent
        rows = sum(b.num_rows for b in _live_read.read_range(OffsetRange(topic, 0, 0, end), o))
        time.sleep(0.3)  # a Fetch still travelling when the consumer closed counts too
        return rows, live_broker.sent - before

    rows, whole = read(20_000)
    assert rows == 20_000
    needed = whole * 1000 / 20_000
    fetch_size = 1 << 20  # max.partition.fetch.bytes, the consumer's default
    rows, cut = read(1000)
    assert rows == 1000
    print(f"\nkafka-live offsets 0..1000 of 20000: fetched {cut} bytes; the rows need about {needed:.0f}, "
          f"the partition is {whole}")
    assert cut < 2 * needed + fetch_size, (cut, needed, whole)


@pytest.mark.broker
@pytest.mark.parametrize("peer", ["mock", "tansu"])
def test_a_range_past_the_logs_end_is_data_loss_not_retention(peer, request):
    # planned before the log was truncated (or the topic recreated with fewer records): its
    # offsets are past the log's end, which is neither retention nor a stall.  Kafka (the mock)
    # answers OFFSET_OUT_OF_RANGE; Tansu answers nothing, and the stall is named for what it is.
    import _peers

    bs = request.getfixturevalue(f"{peer}_bootstrap")
    topic = f"end-{uuid.uuid4().hex[:8]}"
    _peers.create_topics(bs, {topic: 1})
    _peers.produce_with_confluent(bs, topic, [(b"k", b"v%d" % i) for i in range(10)], partition=0)
    o = parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": topic, "kafkaConsumer.pollTimeoutMs": "2000"})
    expected = (rf"{topic}\[0\]: offsets 15 to 20 are past the log's end \(10\); .* truncated or the topic "
                "recreated" if peer == "mock" else
                rf"{topic}\[0\]: no record at offset 15 .* past the high watermark 10: the log was truncated")
    with pytest.raises(LiveError, match=expected):
        list(_live_read.read_range(OffsetRange(topic, 0, 15, 20), o))
    if peer == "mock":
        o = replace(o, fail_on_data_loss=False)
        stats = _live_read.ReadStats()
        assert list(_live_read.read_range(OffsetRange(topic, 0, 15, 20), o, stats=stats)) == []
        assert stats.skipped_to == 20


@pytest.mark.broker
def test_a_stalled_last_stable_offset_is_named(live_broker):
    """A transaction left open holds the last stable offset below the high
    watermark; a read_committed range planned to the high watermark fails
    loudly, naming both."""
    pytest.importorskip("confluent_kafka")
    from confluent_kafka import Producer

    from _peers import create_topics, produce_with_confluent

    bs = live_broker.bootstrap
    topic = f"lso-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, [(b"k", b"committed-%d" % i) for i in range(10)])
    producer = Producer({"bootstrap.servers": bs, "transactional.id": f"open-{topic}", "log_level": 3})
    producer.init_transactions(30)
    producer.begin_transaction()
    for i in range(5):
        producer.produce(topic, value=b"open-%d" % i, partition=0)
    producer.flush(30)
    try:
        o = parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": topic,
                                "kafka.isolation.level": "read_committed", "kafkaConsumer.pollTimeoutMs": "2000"})
        rows = []
        with pytest.raises(LiveError) as info:
            for b in _live_read.read_range(OffsetRange(topic, 0, 0, 15), o):
                rows += b.column("value").to_pylist()
        msg = str(info.value)
        assert rows == [b"committed-%d" % i for i in range(10)]
        assert "\n" not in msg
        assert f"{topic}[0]: no record at offset 10 within 2 s (the range ends at 15)" in msg, msg
        assert "the last stable offset is 10 and the high watermark 15" in msg, msg
    finally:
        producer.abort_transaction(30)
        producer.flush(10)


@pytest.mark.broker
def test_options_in_spark(spark, big):
    """One streaming query (Trigger.AvailableNow) with minOffsetsPerTrigger
    above what is there: it reads everything and ends; maxRecordsPerPartition
    cuts a batch read into tasks."""
    bs, topic = big
    df = (spark.read.format("kafka-live").option("kafka.bootstrap.servers", bs).option("subscribe", topic)
          .option("maxRecordsPerPartition", "2500").option("kafka.group.id", "authorized-group").load())
    assert df.rdd.getNumPartitions() == 8 + 1
    stream = (spark.readStream.format("kafka-live").option("kafka.bootstrap.servers", bs)
              .option("assign", json.dumps({topic: [1]})).option("startingOffsets", "earliest")
              .option("minOffsetsPerTrigger", "1000000").option("maxTriggerDelay", "1h")
              .option("groupIdPrefix", "team-a").load())
    q = stream.select("value").writeStream.format("memory").queryName(f"m{uuid.uuid4().hex[:8]}") \
        .trigger(availableNow=True).start()
    try:
        q.awaitTermination(120)
        assert not q.isActive and q.exception() is None
        assert spark.table(q.name).count() == 10
    finally:
        q.stop()
