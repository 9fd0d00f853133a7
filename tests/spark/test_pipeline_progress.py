"""The pipeline command's progress lines read Spark's progress offsets, which carry kafka-live's
topic ids beside the partitions."""
import json

import pytest

pytest.importorskip("pyspark")

from kafkacodec.spark_cli.pipeline import _offsets_total  # noqa: E402


def test_progress_offsets_leave_the_topic_id_out():
    doc = {"orders": {"0": 12, "1": 7, "topicId": "AAAAAAAAAAAAAAAAAAAAAQ"}, "clicks": {"0": 3}}
    want = {("orders", 0): 12, ("orders", 1): 7, ("clicks", 0): 3}
    assert _offsets_total(doc) == want
    assert _offsets_total(json.dumps(doc)) == want  # Spark may hand the offsets as JSON text
    assert _offsets_total(None) == {} and _offsets_total("not json") == {}


def test_summary_rates_and_counts_read_as_english():
    from kafkacodec.spark_cli._common import format_rate, plural, rate

    assert rate(5, 20.0) == 0.2 and format_rate(rate(5, 20.0)) == "0.2"  # a small topic is not "0 rows/s"
    assert rate(191_574, 27.0) == 7095 and format_rate(7095) == "7,095"
    assert rate(10, 0) is None and format_rate(None) == "n/a"
    assert plural(1, "Parquet file") == "1 Parquet file" and plural(3, "Parquet file") == "3 Parquet files"
    assert plural(1, "micro-batch", "micro-batches") == "1 micro-batch"
