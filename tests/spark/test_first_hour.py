"""What a new user meets first with the Spark side: both ways of registering
the sources read the same rows (PySpark's own register() leaves filter
pushdown off, and the sources must still read), and the two commands write
Parquet with one schema, Spark's Kafka source columns."""
import os

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed")

import pyarrow.dataset as ds  # noqa: E402

from kafkacodec import embedded  # noqa: E402
from kafkacodec.spark import KafkaLiveDataSource, KafkaLogDataSource, register  # noqa: E402
from kafkacodec.spark_cli import cli  # noqa: E402

PUSHDOWN = "spark.sql.python.filterPushdown.enabled"
KAFKA_COLUMNS = ["key", "value", "topic", "partition", "offset", "timestamp", "timestampType"]


def _rows(df):
    return sorted((r.topic, r.partition, r.offset, r.value) for r in df.collect())


def _both_ways(spark, read):
    """read() after kafkacodec.spark.register(spark), then after PySpark's
    spark.dataSource.register alone with pushdown off (a fresh session's default)."""
    register(spark)
    assert spark.conf.get(PUSHDOWN) == "true"
    ours = _rows(read())
    try:
        spark.conf.set(PUSHDOWN, "false")
        spark.dataSource.register(KafkaLogDataSource)
        spark.dataSource.register(KafkaLiveDataSource)
        theirs = _rows(read())
    finally:
        register(spark)  # the session's other tests expect it
    return ours, theirs


def test_kafka_log_registered_either_way_reads_the_same_rows(spark, demo):
    def read():
        df = spark.read.format("kafka-log").option("path", demo.path).load()
        assert df.columns == KAFKA_COLUMNS
        return df.where("topic = 'orders' AND partition = 1 AND offset >= 100")

    ours, theirs = _both_ways(spark, read)
    assert ours and ours == theirs
    assert {(t, p) for t, p, _, _ in ours} == {("orders", 1)} and min(o for _, _, o, _ in ours) == 100


@pytest.mark.broker
def test_kafka_live_registered_either_way_reads_the_same_rows(spark):
    try:
        embedded.tansu_binary()
    except embedded.TansuUnavailable as exc:
        pytest.skip(str(exc))
    from kafkacodec.client import Admin, Producer

    with embedded.tansu_broker(lifetime=300) as bs:
        with Admin({"bootstrap.servers": bs}) as admin:
            admin.create_topics({"first-hour": 3})
        p = Producer({"bootstrap.servers": bs})
        for i in range(60):
            p.send("first-hour", b"v%d" % i, partition=i % 3)
        p.flush()
        p.close()

        def read():
            df = (spark.read.format("kafka-live").option("kafka.bootstrap.servers", bs)
                  .option("subscribe", "first-hour").load())
            assert df.columns == KAFKA_COLUMNS
            return df.where("partition = 1 AND offset >= 5")

        ours, theirs = _both_ways(spark, read)
    assert ours == theirs == [("first-hour", 1, o, b"v%d" % (3 * o + 1)) for o in range(5, 20)]


@pytest.mark.broker
def test_pipeline_and_convert_write_the_same_parquet_schema(spark, tmp_path, capsys):
    try:
        embedded.tansu_binary()
    except embedded.TansuUnavailable as exc:
        pytest.skip(str(exc))
    live, logs = tmp_path / "live", tmp_path / "logs"
    assert cli.main(["pipeline", "--demo", str(live), "--demo-records", "600", "--no-progress"]) == 0
    assert cli.main(["convert", "--demo", str(logs), "--demo-records", "600", "--no-progress"]) == 0
    capsys.readouterr()

    def schema(out):
        files = [os.path.join(root, n) for root, _, names in os.walk(out) for n in names
                 if n.endswith(".parquet") and "_checkpoint" not in root]
        return ds.dataset(files[0], format="parquet").schema.remove_metadata()

    a, b = schema(live), schema(logs)
    assert a.equals(b), f"pipeline:\n{a}\nconvert:\n{b}"
    # topic and partition are the directories (partitionBy); the rest are Spark's Kafka columns
    assert a.names == ["key", "value", "offset", "timestamp", "timestampType", "headers"]
