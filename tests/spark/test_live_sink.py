"""The kafka-live sink against a real broker (Tansu, started here): what a
batch write leaves in Kafka equals the DataFrame; a job whose task fails mid
write leaves nothing committed; a retried task writes once; a streaming query
replayed after a crash writes each row once; the commit protocol's recovery
after a driver crash mid-commit."""
import os
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

pytestmark = pytest.mark.broker

pytest.importorskip("pyspark")
pytest.importorskip("confluent_kafka")

from _peers import consume_with_confluent, create_topics, read_committed_with_kafkacodec  # noqa: E402


def _topic(prefix="sink"):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _rows(n, *, start=0):
    """(key, value, headers, partition) rows: null keys, string values, headers, some fixed partitions."""
    out = []
    for i in range(start, start + n):
        key = None if i % 5 == 0 else b"k%05d" % i
        value = None if i % 13 == 0 else "v-%d-%s" % (i, "x" * (i % 30))
        headers = [("h", b"%d" % i), ("n", None)] if i % 3 == 0 else []
        partition = (i % 3) if i % 4 == 0 else None
        out.append((key, value, headers, partition))
    return out


def _df(spark, rows, partitions=None):
    from pyspark.sql.types import ArrayType, BinaryType, IntegerType, StringType, StructField, StructType

    schema = StructType([
        StructField("key", BinaryType()), StructField("value", StringType()),
        StructField("headers", ArrayType(StructType([StructField("key", StringType()),
                                                     StructField("value", BinaryType())]))),
        StructField("partition", IntegerType())])
    return spark.createDataFrame(rows, schema).repartition(partitions or 2)


def _write(df, bs, topic=None, **opts):
    w = df.write.format("kafka-live").mode("append").option("kafka.bootstrap.servers", bs)
    if topic is not None:
        w = w.option("topic", topic)
    for k, v in opts.items():
        w = w.option(k, v)
    w.save()


def _as_read(rows):
    """What a consumer gives back for written rows: values as bytes, headers as tuples."""
    return sorted(((k, None if v is None else v.encode(), [tuple(h) for h in hs]) for k, v, hs, _ in rows), key=repr)


def _read(bs, topic, n, **kw):
    return consume_with_confluent(bs, topic, n, timeout=kw.pop("timeout", 10), isolation_level="read_committed", **kw)


def test_batch_write_equals_dataframe(spark, live_broker):
    from kafkacodec.client.partitioner import Partitioner

    bs = live_broker.bootstrap
    topic = _topic()
    create_topics(bs, {topic: 3})
    rows = _rows(3000)
    _write(_df(spark, rows), bs, topic)
    got = _read(bs, topic, 3000)
    assert len(got) == 3000
    murmur2 = Partitioner("murmur2")
    assert sorted(((k, v, list(h)) for k, v, h, _, _, _ in got), key=repr) == _as_read(rows)
    # an explicit partition is kept; a key goes where the Java client's murmur2 puts it
    where = {(k, v): p for k, v, _, _, _, p in got}
    for k, v, _, p in rows:
        v = None if v is None else v.encode()
        if k is None and v is None:
            continue  # not one row
        if p is not None:
            assert where[(k, v)] == p
        elif k is not None:
            assert where[(k, v)] == murmur2.for_key(k, 3)


def test_topic_column_and_string_keys(spark, live_broker):
    bs = live_broker.bootstrap
    a, b = _topic("sink-a"), _topic("sink-b")
    create_topics(bs, {a: 1, b: 2})
    rows = [(a if i % 3 else b, "key-%d" % i, b"val-%d" % i) for i in range(500)]
    df = spark.createDataFrame(rows, "topic string, key string, value binary")
    _write(df, bs)
    for t, parts in ((a, 1), (b, 2)):
        want = sorted((k.encode(), v) for tt, k, v in rows if tt == t)
        got = _read(bs, t, len(want))
        assert sorted((k, v) for k, v, _, _, _, _ in got) == want
    # the topic option wins over the column, as Spark's Kafka sink
    c = _topic("sink-c")
    create_topics(bs, {c: 1})
    _write(df, bs, c)
    assert len(_read(bs, c, 500)) == 500


def test_bad_columns_and_options_are_named(spark, live_broker):
    bs = live_broker.bootstrap
    topic = _topic()
    cases = [
        (spark.createDataFrame([(b"v", 1)], "value binary, extra int"), {}, "extra"),
        (spark.createDataFrame([(1,)], "value int"), {}, "'value' must be binary or string"),
        (spark.createDataFrame([(b"v", 1)], "value binary, partition long"), {}, "'partition' must be int"),
        (spark.createDataFrame([(b"k",)], "key binary"), {}, "needs a column 'value'"),
        (spark.createDataFrame([(b"v",)], "value binary"), {"kafka.transactional.id": "x"}, "transactional.id"),
        (spark.createDataFrame([(b"v",)], "value binary"), {"kafka.no.such.setting": "1"}, "no.such.setting"),
    ]
    for df, opts, words in cases:
        with pytest.raises(Exception, match=words):
            _write(df, bs, topic, **opts)
    with pytest.raises(Exception, match="option topic or a column 'topic'"):
        _write(spark.createDataFrame([(b"v",)], "value binary"), bs)
    create_topics(bs, {topic: 2})
    with pytest.raises(Exception, match="column 'partition': 7 is not a partition"):
        _write(spark.createDataFrame([(b"v", 7)], "value binary, partition int"), bs, topic)


def test_overwrite_is_refused_and_writes_nothing(spark, live_broker):
    # a topic's records cannot be replaced: mode('overwrite') fails as Spark's Kafka sink does
    # instead of appending under the name of an overwrite
    bs = live_broker.bootstrap
    topic = _topic()
    create_topics(bs, {topic: 1})
    df = spark.createDataFrame([(b"v",)], "value binary")
    with pytest.raises(Exception, match="mode 'overwrite' is not allowed"):
        (df.write.format("kafka-live").mode("overwrite").option("kafka.bootstrap.servers", bs)
         .option("topic", topic).save())
    _write(df, bs, topic)
    assert len(_read(bs, topic, 1)) == 1


def test_sink_options():
    from kafkacodec.spark import _live_sink as S

    opts = S.parse_sink_options({"kafka.bootstrap.servers": "h:1", "Topic": "t", "kafka.linger.ms": "5"})
    assert (opts.bootstrap, opts.topic, dict(opts.conf)["linger.ms"]) == ("h:1", "t", "5")
    assert dict(opts.conf)["transaction.timeout.ms"] == str(S.DEFAULT_TRANSACTION_TIMEOUT_MS)
    with pytest.raises(S.SinkError, match="kafka.bootstrap.servers"):
        S.parse_sink_options({"topic": "t"})
    with pytest.raises(S.SinkError, match="'subscribe'"):
        S.parse_sink_options({"kafka.bootstrap.servers": "h:1", "subscribe": "t"})
    # a streaming query whose rows name their topics keeps its progress on a named topic
    with pytest.raises(S.SinkError, match="progressTopic"):
        S.progress_topic(S.parse_sink_options({"kafka.bootstrap.servers": "h:1"}))
    assert S.progress_topic(S.parse_sink_options({"kafka.bootstrap.servers": "h:1", "progressTopic": "p"})) == "p"


def _failing_udf(fail_partition, after, written=None):
    """Fails task `fail_partition` (first attempt) at its row `after`, a few seconds
    late so that the other task has finished its write.  With ``written=(bootstrap,
    topic)`` it fails only once the topic holds records (up to 60 s), so that on a
    loaded machine the writes the test then looks for have reached the broker."""
    from pyspark.sql import functions as F

    seen = {}

    def wait_for_records(bootstrap, topic, *, deadline):  # nested: the workers cannot import this module
        from kafkacodec.client import Consumer

        with Consumer({"bootstrap.servers": bootstrap}) as c:
            parts = [(topic, p) for p in range(2)]
            while sum(c.end_offsets(parts).values()) == 0 and time.monotonic() < deadline:
                time.sleep(0.2)

    @F.udf("string")
    def check(v):
        from pyspark import TaskContext

        ctx = TaskContext.get()
        if ctx.partitionId() == fail_partition and ctx.attemptNumber() == 0:
            at = (ctx.stageId(), ctx.partitionId(), ctx.attemptNumber())
            seen[at] = seen.get(at, 0) + 1
            if seen[at] == after:
                time.sleep(3)
                if written is not None:
                    wait_for_records(*written, deadline=time.monotonic() + 60)
                raise RuntimeError("task fails mid-write")
        return v
    return check


def test_failed_task_leaves_nothing_committed(spark, live_broker):
    """local[2] tries a task once: the job fails; the other task's transaction is
    aborted by the driver and the failed one's fenced."""
    bs = live_broker.bootstrap
    topic = _topic("sink-fail")
    create_topics(bs, {topic: 2})
    # values long enough that the UDF's worker flushes its output (64 KiB) before the failure
    rows = [(b"k%d" % i, "v-%d-%s" % (i, "x" * 300), [], None) for i in range(4000)]
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "200")
    try:
        df = _df(spark, rows).withColumn("value", _failing_udf(1, 1500, written=(bs, topic))("value"))
        with pytest.raises(Exception, match="task fails mid-write"):
            _write(df, bs, topic)
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    # the tasks did write (into transactions that were then aborted)
    everything = consume_with_confluent(bs, topic, 4000, timeout=6)
    assert len(everything) > 0
    assert read_committed_with_kafkacodec(bs, topic, 2) == []
    # librdkafka hides aborted records only through Fetch's aborted_transactions, which Tansu leaves
    # empty: read_committed there shows what read_uncommitted shows; the markers are ABORTs
    assert len(_read(bs, topic, 4000, timeout=6)) == len(everything)


_RETRY_SCRIPT = textwrap.dedent("""
    import sys
    import time
    from pyspark.sql import functions as F
    from kafkacodec.spark.session import local_session
    bs, topic = sys.argv[1], sys.argv[2]
    spark = local_session("local[2,2]", app_name="sink-retry", driver_memory="1g", shuffle_partitions=2,
                          extra={"spark.default.parallelism": "2", "spark.sql.execution.arrow.maxRecordsPerBatch": "200"})
    seen = {}
    @F.udf("string")
    def check(v):  # as _failing_udf
        from pyspark import TaskContext
        ctx = TaskContext.get()
        if ctx.partitionId() == 1 and ctx.attemptNumber() == 0:
            seen[ctx.stageId()] = seen.get(ctx.stageId(), 0) + 1
            if seen[ctx.stageId()] == 1500:
                time.sleep(3)
                raise RuntimeError("task fails mid-write")
        return v
    df = (spark.range(4000).selectExpr("cast(concat('k', id) as binary) as key", "concat('v-', id) as value")
          .withColumn("value", F.concat("value", F.lit("-" + "x" * 300)))
          .repartition(2).withColumn("value", check("value")))
    df.write.format("kafka-live").mode("append").option("kafka.bootstrap.servers", bs).option("topic", topic).save()
    spark.stop()
""")


@pytest.mark.timeout(240)
def test_retried_task_writes_once(live_broker, tmp_path):
    """A Spark whose tasks get two attempts (its own process: local[2,2]); the first
    attempt of one task fails mid-write, the second fences it and writes again."""
    bs = live_broker.bootstrap
    topic = _topic("sink-retry")
    create_topics(bs, {topic: 2})
    script = tmp_path / "retry.py"
    script.write_text(_RETRY_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, str(script), bs, topic], capture_output=True, text=True, timeout=200,
                          env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "task fails mid-write" in proc.stderr  # the retry did happen
    everything = consume_with_confluent(bs, topic, 8000, timeout=6)
    assert len(everything) > 4000  # the first attempt's rows are in the log, aborted
    committed = read_committed_with_kafkacodec(bs, topic, 2)
    assert sorted(r.value for r in committed) == sorted(b"v-%d-%s" % (i, b"x" * 300) for i in range(4000))


def _stream_copy(spark, bs, source, target, ckpt, **opts):
    stream = (spark.readStream.format("kafka-live").option("kafka.bootstrap.servers", bs)
              .option("subscribe", source).option("startingOffsets", "earliest")
              .option("maxOffsetsPerTrigger", "150").option("includeHeaders", "true").load())
    w = (stream.select("key", "value", "headers").writeStream.format("kafka-live")
         .option("kafka.bootstrap.servers", bs).option("topic", target).option("checkpointLocation", ckpt))
    for k, v in opts.items():
        w = w.option(k, v)
    q = w.trigger(availableNow=True).start()
    q.awaitTermination(120)
    assert not q.isActive
    assert q.exception() is None
    return q


def test_streaming_restart_and_replay_write_once(spark, live_broker, tmp_path):
    from _peers import produce_with_confluent

    bs = live_broker.bootstrap
    source, target = _topic("sink-src"), _topic("sink-dst")
    create_topics(bs, {source: 2, target: 3})
    records = [(b"k%d" % i, b"v%d" % i, [("i", b"%d" % i)]) for i in range(400)]
    produce_with_confluent(bs, source, records[:250])
    ckpt = str(tmp_path / "ckpt")
    q = _stream_copy(spark, bs, source, target, ckpt)
    assert sum(p["numInputRows"] for p in q.recentProgress) == 250
    # a crash after the sink committed a batch and before Spark logged it: Spark replays the batch
    commits = os.path.join(ckpt, "commits")
    last = max(int(n) for n in os.listdir(commits) if n.isdigit())
    for name in (str(last), f".{last}.crc"):
        if os.path.exists(os.path.join(commits, name)):
            os.remove(os.path.join(commits, name))
    produce_with_confluent(bs, source, records[250:])
    q = _stream_copy(spark, bs, source, target, ckpt)
    assert sum(p["numInputRows"] for p in q.recentProgress) > 150  # the replayed batch was read again
    got = _read(bs, target, 401, timeout=8)
    assert sorted((k, v, list(h)) for k, v, h, _, _, _ in got) == sorted((k, v, h) for k, v, h in records)
    assert len(read_committed_with_kafkacodec(bs, target, 3)) == 400


def test_stream_commit_recovers_a_driver_crash_mid_commit(live_broker):
    """The commit protocol without Spark: batch 0 committed; batch 1's record says
    "committing" and only one of its two transactions was ended when the driver died.
    The replay's tasks write nothing, its commit ends the other transaction: each row once."""
    import pyarrow as pa

    from kafkacodec.client import Admin
    from kafkacodec.spark import _live_sink as S

    bs = live_broker.bootstrap
    topic = _topic("sink-2pc")
    create_topics(bs, {topic: 2})
    opts = S.parse_sink_options({"kafka.bootstrap.servers": bs, "topic": topic})
    query = uuid.uuid4().hex

    def batch(lo, hi):
        return [pa.RecordBatch.from_pydict({"value": [b"r%d" % i for i in range(lo, hi)]})]

    m0 = [S.write_task(batch(0, 50), opts, 0, query_id=query, batch_id=0),
          S.write_task(batch(50, 100), opts, 1, query_id=query, batch_id=0)]
    S.commit_stream(opts, m0, 0, query)
    m1 = [S.write_task(batch(100, 150), opts, 0, query_id=query, batch_id=1),
          S.write_task(batch(150, 200), opts, 1, query_id=query, batch_id=1)]
    assert all(m.rows == 50 and not m.skipped for m in m1)
    # the driver records batch 1, ends one transaction and dies
    from kafkacodec.client.transaction import end_transaction

    with Admin({"bootstrap.servers": bs}) as admin:
        S._record_committing(admin, opts, query, 1, m1, 30)
        end_transaction(admin.client, m1[0].transactional_id, m1[0].producer_id, m1[0].producer_epoch, True)
        progress = S.read_progress(admin, opts, query)
    assert progress.batch == 1 and not progress.done
    assert progress.pending == tuple((m.partition_id, m.producer_id, m.producer_epoch) for m in m1)
    # the replay: tasks see the record and write nothing (and fence nothing)
    r1 = [S.write_task(batch(100, 150), opts, 0, query_id=query, batch_id=1),
          S.write_task(batch(150, 200), opts, 1, query_id=query, batch_id=1)]
    assert all(m.skipped and m.transactional_id is None for m in r1)
    S.commit_stream(opts, r1, 1, query)
    got = sorted(r.value for r in read_committed_with_kafkacodec(bs, topic, 2, timeout=4))
    assert got == sorted(b"r%d" % i for i in range(200))
    # a batch already done: a later replay is a no-op too
    again = [S.write_task(batch(100, 150), opts, 0, query_id=query, batch_id=1)]
    assert again[0].skipped
    S.commit_stream(opts, again, 1, query)
    with Admin({"bootstrap.servers": bs}) as admin:
        progress = S.read_progress(admin, opts, query)
    assert progress.batch == 1 and progress.done and progress.pending == ()


def test_commit_after_a_transaction_was_aborted(live_broker, monkeypatch):
    """A task's transaction aborted before the driver's commit (as by transaction.timeout.ms):
    first in line, nothing is committed and a streaming batch is written again; after others
    were committed, the rest are and the error names the task.  Tansu closes the connection
    on an EndTxn with a fenced epoch instead of answering PRODUCER_FENCED (measured), so the
    coordinator's answer is played here: the doomed transaction is aborted for real, then
    its commit raises ProducerFencedError."""
    import pyarrow as pa

    from kafkacodec.client import Admin, ProducerFencedError
    from kafkacodec.client import transaction as txn
    from kafkacodec.spark import _live_sink as S

    bs = live_broker.bootstrap
    topic = _topic("sink-lost")
    create_topics(bs, {topic: 2})
    opts = S.parse_sink_options({"kafka.bootstrap.servers": bs, "topic": topic})
    query = uuid.uuid4().hex
    doomed = set()
    real_end = txn.end_transaction

    def end_transaction(client, txn_id, pid, epoch, committed, **kw):
        if txn_id in doomed:
            real_end(client, txn_id, pid, epoch, False, **kw)
            doomed.discard(txn_id)
            raise ProducerFencedError("aborted by its timeout")
        return real_end(client, txn_id, pid, epoch, committed, **kw)

    monkeypatch.setattr(txn, "end_transaction", end_transaction)

    def batch(lo, hi):
        return [pa.RecordBatch.from_pydict({"value": [b"r%d" % i for i in range(lo, hi)]})]

    def tasks(o, **kw):
        return [S.write_task(batch(0, 50), o, 0, **kw), S.write_task(batch(50, 100), o, 1, **kw)]

    with Admin({"bootstrap.servers": bs}) as admin:
        m0 = tasks(opts, query_id=query, batch_id=0)
        doomed.add(m0[0].transactional_id)
        with pytest.raises(S.SinkError, match="nothing of the batch was committed"):
            S.commit_stream(opts, m0, 0, query)
        assert S.read_progress(admin, opts, query) is None
        assert read_committed_with_kafkacodec(bs, topic, 2, timeout=3) == []
        again = tasks(opts, query_id=query, batch_id=0)  # the restarted query writes the batch again
        assert not any(m.skipped for m in again)
        S.commit_stream(opts, again, 0, query)
        assert sorted(r.value for r in read_committed_with_kafkacodec(bs, topic, 2, timeout=3)) == sorted(
            b"r%d" % i for i in range(100))

        other = _topic("sink-lost")
        create_topics(bs, {other: 2})
        write = S.replace(S.parse_sink_options({"kafka.bootstrap.servers": bs, "topic": other}),
                          write_id=S.new_write_id())
        m = tasks(write)
        doomed.add(m[1].transactional_id)
        with pytest.raises(S.SinkError, match=r"tasks \[1\] were aborted"):
            S.commit_write(write, m)
        S.abort_write(write, m, write_id=write.write_id)  # Spark's abort() after a failed commit()
    assert sorted(r.value for r in read_committed_with_kafkacodec(bs, other, 2, timeout=3)) == sorted(
        b"r%d" % i for i in range(50))


def test_stream_rows_naming_topics_keep_progress_on_progress_topic(live_broker):
    """Rows with a topic column (no topic option): the record lives on progressTopic."""
    import pyarrow as pa

    from kafkacodec.client import Admin
    from kafkacodec.spark import _live_sink as S

    bs = live_broker.bootstrap
    a, b, progress = _topic("sink-ta"), _topic("sink-tb"), _topic("sink-progress")
    create_topics(bs, {a: 1, b: 2, progress: 1})
    opts = S.parse_sink_options({"kafka.bootstrap.servers": bs, "progressTopic": progress})
    query = uuid.uuid4().hex
    rows = pa.RecordBatch.from_pydict({"topic": [a, b, b, a], "value": [b"1", b"2", b"3", b"4"],
                                       "partition": pa.array([0, 1, None, None], pa.int32())})
    msgs = [S.write_task([rows.slice(0, 2)], opts, 0, query_id=query, batch_id=0),
            S.write_task([rows.slice(2, 2)], opts, 1, query_id=query, batch_id=0)]
    assert {(t, n) for m in msgs for t, _, n in m.partitions} == {(a, 1), (b, 1)}
    S.commit_stream(opts, msgs, 0, query)
    assert S.write_task([rows], opts, 0, query_id=query, batch_id=0).skipped
    with Admin({"bootstrap.servers": bs}) as admin:
        assert S.read_progress(admin, opts, query) == S.Progress(0, tasks=2)
    assert sorted(r.value for r in read_committed_with_kafkacodec(bs, a, 1, timeout=2)) == [b"1", b"4"]
    got = read_committed_with_kafkacodec(bs, b, 2, timeout=2)
    assert sorted((r.value, r.partition) for r in got if r.value == b"2") == [(b"2", 1)]
    assert sorted(r.value for r in got) == [b"2", b"3"]
