"""failOnDataLoss when a partition's offsets go backwards between
micro-batches (the topic deleted and recreated, on Tansu): fail with one line
naming the option, the partition and the offsets, or (false) warn and go on
from the earliest offset.  Spark's own Kafka source reports this as data loss;
taking the lower offset for "no new data" would skip the new records."""
import logging
import time
import uuid

import pytest

pytestmark = pytest.mark.broker

pytest.importorskip("pyspark")
pytest.importorskip("confluent_kafka")

from _peers import create_topics, produce_with_confluent  # noqa: E402


def _recs(n, tag):
    return [(b"k%d" % i, b"%s-%d" % (tag, i)) for i in range(n)]


def _recreate(bs, topic, n, tag):
    """Delete ``topic``, create it again with one partition and ``n`` new records."""
    from kafkacodec.client import Admin

    with Admin({"bootstrap.servers": bs}) as admin:
        admin.delete_topics([topic])
        deadline = time.monotonic() + 20
        while topic in admin.list_topics() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert topic not in admin.list_topics()
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, _recs(n, tag))


def _stream_reader(bs, topic, **extra):
    from kafkacodec.spark._live import parse_live_options
    from kafkacodec.spark._live_source import KafkaLiveStreamReader, live_schema

    opts = parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": topic, "startingOffsets": "earliest",
                               **extra}, streaming=True)
    return KafkaLiveStreamReader(opts, live_schema())


def _values(reader, parts):
    import pyarrow as pa

    out = []
    for p in parts:
        for rb in reader.read(p):
            out += pa.Table.from_batches([rb]).column("value").to_pylist()
    return sorted(out)


def test_recreated_topic_planning(live_broker, caplog):
    """The stream reader's planning, without Spark: the offsets the last
    batch ended at (300) are past the recreated topic's end (100)."""
    from kafkacodec.spark._live import LiveError

    bs = live_broker.bootstrap
    topic = f"loss-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, _recs(300, b"old"))
    strict = _stream_reader(bs, topic)
    lenient = _stream_reader(bs, topic, failOnDataLoss="false")
    try:
        start = strict.initialOffset()
        end = strict.latestOffset(start, None)
        assert end == {topic: {"0": 300}}

        from kafkacodec.client import Admin
        with Admin({"bootstrap.servers": bs}) as admin:
            admin.delete_topics([topic])
            deadline = time.monotonic() + 20
            while topic in admin.list_topics() and time.monotonic() < deadline:
                time.sleep(0.2)
        # deleted, not yet recreated: its partitions are gone
        assert strict.latestOffset(end, None) == {}
        with pytest.raises(LiveError, match=rf"failOnDataLoss: partitions {topic}\[0\] are gone"):
            strict.partitions(end, {})
        with caplog.at_level(logging.WARNING, logger="kafkacodec.spark._live"):
            assert lenient.partitions(end, {}) == []
        assert f"{topic}[0] are gone" in caplog.text

        create_topics(bs, {topic: 1})
        produce_with_confluent(bs, topic, _recs(100, b"new"))
        with pytest.raises(LiveError) as info:
            strict.latestOffset(end, None)
        msg = str(info.value)
        assert "\n" not in msg
        assert msg.startswith(f"failOnDataLoss: {topic}[0]: offsets went back from 300 to 100 (earliest 0)"), msg
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="kafkacodec.spark._live"):
            nxt = lenient.latestOffset(end, None)
            assert nxt == {topic: {"0": 100}}
            parts = lenient.partitions(end, nxt)
        assert [(p.range.start, p.range.end) for p in parts] == [(0, 100)]
        assert _values(lenient, parts) == sorted(b"new-%d" % i for i in range(100))
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and "offsets went back from 300 to 100" in warnings[0].getMessage()
        # a later batch goes on normally from there
        produce_with_confluent(bs, topic, _recs(5, b"more"))
        assert lenient.latestOffset(nxt, None) == {topic: {"0": 105}}
    finally:
        strict.stop()
        lenient.stop()


def test_recreated_topic_streaming(spark, live_broker, tmp_path):
    bs = live_broker.bootstrap
    topic = f"loss-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, _recs(300, b"old"))
    out, ckpt = str(tmp_path / "out"), str(tmp_path / "ckpt")

    def run(fail):
        stream = (spark.readStream.format("kafka-live").option("kafka.bootstrap.servers", bs)
                  .option("subscribe", topic).option("startingOffsets", "earliest")
                  .option("failOnDataLoss", fail).load())
        q = (stream.select("offset", "value").writeStream.format("parquet").option("path", out)
             .option("checkpointLocation", ckpt).trigger(availableNow=True).start())
        try:
            q.awaitTermination(120)
        except Exception:
            pass
        assert not q.isActive
        return q.exception()

    assert run("true") is None
    _recreate(bs, topic, 100, b"new")
    error = run("true")
    assert error is not None
    lines = [line for line in str(error).splitlines() if "LiveError: failOnDataLoss:" in line]
    assert lines and f"{topic}[0]: offsets went back from 300 to 100" in lines[0], str(error)[-2000:]
    assert run("false") is None
    values = sorted(r.value for r in spark.read.parquet(out).collect())
    assert values == sorted([b"old-%d" % i for i in range(300)] + [b"new-%d" % i for i in range(100)])
