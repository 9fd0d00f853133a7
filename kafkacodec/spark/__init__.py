"""PySpark integration: Kafka log directories and raw record batches as DataFrames.

    from kafkacodec.spark import register
    register(spark)
    df = (spark.read.format("kafka-log")
          .option("path", "/var/lib/kafka/data")
          .option("isolationLevel", "read_committed")
          .load())

    from kafkacodec.spark import decode_batches, decode_batches_udf
    records = decode_batches(raw_df, "batch", keep=["topic", "partition"])   # mapInArrow
    nested = raw_df.select(decode_batches_udf()("batch").alias("records"))   # arrow_udf

    from kafkacodec.spark import decode_values           # Avro / JSON values -> a struct column
    from kafkacodec.values import AvroFormat
    typed = decode_values(kafka_df, "value", AvroFormat(schema, confluent=True), registry={"url": URL})

    live = (spark.read.format("kafka-live")            # or spark.readStream
            .option("kafka.bootstrap.servers", "127.0.0.1:9092")
            .option("subscribe", "events").load())     # Spark's Kafka source columns
    (df.write.format("kafka-live").mode("append")      # or df.writeStream: exactly-once
       .option("kafka.bootstrap.servers", "127.0.0.1:9092")
       .option("topic", "out").save())                 # key, value, partition, headers

Decoding happens on the workers with :mod:`kafkacodec.arrow` straight into
Arrow buffers; workers need kafkacodec installed and the log directory at the
same path.  The command ``kafkacodec-spark convert`` turns a log directory
into Parquet (see :mod:`kafkacodec.spark_cli`; the DataSources never import it).

Needs pyspark >= 4.0 and pyarrow (``pip install 'kafkacodec[spark]'``).
"""
from __future__ import annotations

try:
    import pyspark  # noqa: F401
    from pyspark.sql.datasource import DataSource  # noqa: F401  (Spark >= 4.0)
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("kafkacodec.spark needs pyspark >= 4.0 and pyarrow: pip install 'kafkacodec[spark]'") from exc

from kafkacodec.spark._plan import ReadOptions, RangeTask, parse_options, plan, read_tasks
from kafkacodec.spark._source import KafkaLogDataSource, KafkaLogReader, register, spark_schema
from kafkacodec.spark._live_source import (
    KafkaLiveDataSource,
    KafkaLiveReader,
    KafkaLiveStreamReader,
    KafkaLiveStreamWriter,
    KafkaLiveWriter,
    live_schema,
)
from kafkacodec.spark._values import decode_values, encode_values
from kafkacodec.spark._udf import (
    decode_batches,
    decode_batches_fn,
    decode_batches_udf,
    decode_output_schema,
    record_type,
)

__all__ = [
    "KafkaLogDataSource",
    "KafkaLogReader",
    "KafkaLiveDataSource",
    "KafkaLiveReader",
    "KafkaLiveStreamReader",
    "KafkaLiveWriter",
    "KafkaLiveStreamWriter",
    "live_schema",
    "register",
    "spark_schema",
    "record_type",
    "decode_batches",
    "decode_batches_fn",
    "decode_batches_udf",
    "decode_output_schema",
    "decode_values",
    "encode_values",
    "ReadOptions",
    "RangeTask",
    "parse_options",
    "plan",
    "read_tasks",
]
