"""failOnDataLoss when a topic is deleted and recreated between micro-batches
(on Tansu): its partitions' offsets go backwards, or, recreated with more
records than were read, only its topic id tells.  Fail with one line naming
the option, the partition, the offsets and the topic ids, or (false) warn and
go on from the new topic's earliest offset.  Spark's own Kafka source reports
offsets going back as data loss; taking the lower offset for "no new data",
or the higher one as where to go on, would skip the new records."""
import json
import logging
import os
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


def _topic_id(bs, topic):
    """The topic's id now, in Kafka's text form (None: the broker keeps none)."""
    from kafkacodec.client import Admin
    from kafkacodec.spark._live_options import topic_id_text

    with Admin({"bootstrap.servers": bs}) as admin:
        return topic_id_text(admin.topic_metadata([topic])[topic].topic_id)


def _stream_reader(bs, topic, **extra):
    from kafkacodec.spark._live_options import parse_live_options
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
    from kafkacodec.spark._live_options import LiveError

    bs = live_broker.bootstrap
    topic = f"loss-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, _recs(300, b"old"))
    strict = _stream_reader(bs, topic)
    lenient = _stream_reader(bs, topic, failOnDataLoss="false")
    try:
        start = strict.initialOffset()
        end = strict.latestOffset(start, None)
        old_id = _topic_id(bs, topic)
        assert end == {topic: {"0": 300, "topicId": old_id}}

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
        new_id = _topic_id(bs, topic)
        assert new_id != old_id and f"(topic id {old_id} is now {new_id})" in msg, msg
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="kafkacodec.spark._live"):
            nxt = lenient.latestOffset(end, None)
            assert nxt == {topic: {"0": 100, "topicId": new_id}}
            parts = lenient.partitions(end, nxt)
        assert [(p.range.start, p.range.end) for p in parts] == [(0, 100)]
        assert _values(lenient, parts) == sorted(b"new-%d" % i for i in range(100))
        # the source's own: a client another test left behind may log (a rebootstrap after 300 s)
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING and r.name.startswith("kafkacodec.spark")]
        assert len(warnings) == 1 and "offsets went back from 300 to 100" in warnings[0].getMessage()
        # a later batch goes on normally from there
        produce_with_confluent(bs, topic, _recs(5, b"more"))
        assert lenient.latestOffset(nxt, None) == {topic: {"0": 105, "topicId": new_id}}

        # offsets checkpointed before topic ids were kept: the offsets going back still tell
        no_id = {topic: {"0": 300}}
        with pytest.raises(LiveError, match=rf"^failOnDataLoss: {topic}\[0\]: offsets went back from 300 to 105 "
                                            r"\(earliest 0\); the topic was deleted and recreated, or its log "
                                            "truncated"):
            strict.latestOffset(no_id, None)
    finally:
        strict.stop()
        lenient.stop()


def _run_stream(spark, bs, topic, out, ckpt, fail):
    """One Trigger.AvailableNow run of a kafka-live -> parquet query; its exception or None."""
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


def _loss_lines(error):
    return [line for line in str(error).splitlines() if "LiveError: failOnDataLoss:" in line]


def test_recreated_topic_streaming(spark, live_broker, tmp_path):
    bs = live_broker.bootstrap
    topic = f"loss-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, _recs(300, b"old"))
    out, ckpt = str(tmp_path / "out"), str(tmp_path / "ckpt")

    def run(fail):
        return _run_stream(spark, bs, topic, out, ckpt, fail)

    assert run("true") is None
    _recreate(bs, topic, 100, b"new")
    error = run("true")
    assert error is not None
    lines = _loss_lines(error)
    assert lines and f"{topic}[0]: offsets went back from 300 to 100" in lines[0], str(error)[-2000:]
    assert run("false") is None
    values = sorted(r.value for r in spark.read.parquet(out).collect())
    assert values == sorted([b"old-%d" % i for i in range(300)] + [b"new-%d" % i for i in range(100)])


# ----------------------------------------------------------------- recreated with more records than were read

def test_tansu_gives_a_recreated_topic_a_new_id(live_broker):
    """What the detection rests on: Tansu answers Metadata with a real (nonzero)
    topic id, and a new one for a topic deleted and created again."""
    bs = live_broker.bootstrap
    topic = f"ids-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    first = _topic_id(bs, topic)
    assert first is not None and len(first) == 22
    _recreate(bs, topic, 1, b"x")
    assert _topic_id(bs, topic) not in (None, first)


def test_recreated_with_more_records_planning(live_broker, caplog):
    """Read 100, delete, recreate, write 300: the offsets went forward (100 ->
    300), so only the topic id tells that the new topic's first 100 records
    would be skipped."""
    from kafkacodec.spark._live_options import LiveError

    bs = live_broker.bootstrap
    topic = f"more-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, _recs(100, b"old"))
    strict = _stream_reader(bs, topic)
    lenient = _stream_reader(bs, topic, failOnDataLoss="false")
    restarted = _stream_reader(bs, topic, failOnDataLoss="false")
    try:
        end = strict.latestOffset(strict.initialOffset(), None)
        old_id = _topic_id(bs, topic)
        assert end == {topic: {"0": 100, "topicId": old_id}}
        _recreate(bs, topic, 300, b"new")
        new_id = _topic_id(bs, topic)

        line = (f"failOnDataLoss: {topic}[0]: the last batch ended at offset 100, the new topic holds offsets 0 to "
                f"300; topic {topic} was deleted and recreated (topic id {old_id} is now {new_id}); some data may "
                "have been lost. Set failOnDataLoss=false to go on from the earliest offset")
        with pytest.raises(LiveError) as info:
            strict.latestOffset(end, None)
        assert str(info.value) == line
        # a batch planned into the new topic before a restart, replayed from the checkpoint
        planned = {topic: {"0": 300, "topicId": new_id}}
        with pytest.raises(LiveError) as info:
            strict.partitions(end, planned)
        assert str(info.value) == line

        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="kafkacodec.spark._live"):
            nxt = lenient.latestOffset(end, None)
            assert nxt == planned
            parts = lenient.partitions(end, nxt)
        assert [(p.range.start, p.range.end) for p in parts] == [(0, 300)]
        assert _values(lenient, parts) == sorted(b"new-%d" % i for i in range(300))
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert warnings == [f"failOnDataLoss=false: {topic}[0]: the last batch ended at offset 100, the new topic "
                            f"holds offsets 0 to 300; topic {topic} was deleted and recreated (topic id {old_id} is "
                            f"now {new_id}); reading goes on from the new topic's earliest offset 0"]
        parts = restarted.partitions(end, planned)
        assert [(p.range.start, p.range.end) for p in parts] == [(0, 300)]

        # offsets checkpointed before topic ids were kept are accepted: nothing to compare, on from there
        assert strict.latestOffset({topic: {"0": 100}}, None) == planned
        parts = strict.partitions({topic: {"0": 100}}, planned)
        assert [(p.range.start, p.range.end) for p in parts] == [(100, 300)]
    finally:
        strict.stop()
        lenient.stop()
        restarted.stop()


def test_recreated_with_more_records_streaming(spark, live_broker, tmp_path):
    bs = live_broker.bootstrap
    topic = f"more-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, _recs(100, b"old"))
    out, ckpt = str(tmp_path / "out"), str(tmp_path / "ckpt")

    def journaled():
        """The source offsets of the last batch Spark journaled in the checkpoint."""
        logs = os.path.join(ckpt, "offsets")
        last = max((n for n in os.listdir(logs) if n.isdigit()), key=int)
        with open(os.path.join(logs, last)) as f:
            return json.loads(f.read().splitlines()[-1])

    assert _run_stream(spark, bs, topic, out, ckpt, "true") is None
    old_id = _topic_id(bs, topic)
    assert journaled() == {topic: {"0": 100, "topicId": old_id}}
    _recreate(bs, topic, 300, b"new")
    new_id = _topic_id(bs, topic)
    error = _run_stream(spark, bs, topic, out, ckpt, "true")
    assert error is not None
    lines = _loss_lines(error)
    assert lines and (f"{topic}[0]: the last batch ended at offset 100, the new topic holds offsets 0 to 300; topic "
                      f"{topic} was deleted and recreated (topic id {old_id} is now {new_id})") in lines[0], \
        str(error)[-2000:]
    assert _run_stream(spark, bs, topic, out, ckpt, "false") is None
    rows = spark.read.parquet(out).collect()
    assert sorted(r.value for r in rows) == sorted([b"old-%d" % i for i in range(100)] +
                                                   [b"new-%d" % i for i in range(300)])
    assert sorted(r.offset for r in rows if r.value.startswith(b"new-")) == list(range(300))
    assert journaled() == {topic: {"0": 300, "topicId": new_id}}


def test_batch_offsets_planned_against_an_older_topic_id(live_broker, caplog):
    """startingOffsets / endingOffsets copied from a stream's offsets carry
    the topic id they were planned against; a batch read of the recreated
    topic fails, or (false) warns and reads the new topic whole."""
    from kafkacodec.client import Admin
    from kafkacodec.spark import _live_options, _live_plan
    from kafkacodec.spark._live_options import LiveError, parse_live_options

    bs = live_broker.bootstrap
    topic = f"more-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 1})
    produce_with_confluent(bs, topic, _recs(100, b"old"))
    old_id = _topic_id(bs, topic)
    _recreate(bs, topic, 300, b"new")
    new_id = _topic_id(bs, topic)

    def ranges(topic_id, **extra):
        o = parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": topic,
                                "startingOffsets": json.dumps({topic: {"0": 50, "topicId": topic_id}}),
                                "endingOffsets": json.dumps({topic: {"0": 80, "topicId": topic_id}}), **extra})
        with Admin(_live_options.client_conf(o, "admin")) as admin:
            return [(r.start, r.end) for r in _live_plan.batch_ranges(admin, o)]

    assert ranges(new_id) == [(50, 80)]
    with pytest.raises(LiveError) as info:
        ranges(old_id)
    assert str(info.value) == (
        f"failOnDataLoss: startingOffsets for {topic}[0] (offset 50) were planned against topic id {old_id}, but "
        f"topic {topic} now has id {new_id}: it was deleted and recreated; some data may have been lost. Set "
        "failOnDataLoss=false to read the new topic from its earliest offsets")
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="kafkacodec.spark._live"):
        assert ranges(old_id, failOnDataLoss="false") == [(0, 300)]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2
    assert warnings[0].startswith(f"failOnDataLoss=false: startingOffsets for {topic}[0] (offset 50) were planned "
                                  f"against topic id {old_id}")
    assert warnings[1].startswith(f"failOnDataLoss=false: endingOffsets for {topic}[0] (offset 80) were planned "
                                  f"against topic id {old_id}")
    assert warnings[1].endswith("reading the new topic from its latest offsets")
