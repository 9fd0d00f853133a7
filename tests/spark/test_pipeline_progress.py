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
