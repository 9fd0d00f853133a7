"""Inputs the planning code's types rule out, or states the option parsers never make, given
anyway: each is a one-line error of the library's own type, and an empty partition directory
beside others reads as empty, whatever the starting options."""
import os

import pytest

pytest.importorskip("pyspark")

from kafkacodec.spark import _live_offsets, _live_options, _live_sink, _plan  # noqa: E402


class _NoTopics:
    """An Admin whose cluster has no topic; planning must not need more of it."""

    def topic_metadata(self, topics=None, timeout=None):
        return {}


def test_with_retries_below_zero_is_a_live_error_not_none():
    calls = []
    opts = _live_options.LiveOptions("127.0.0.1:9", subscribe=("t",), fetch_offset_retries=-1)
    with pytest.raises(_live_options.LiveError,
                       match="fetching latest offsets: fetchOffset.numRetries must be 0 or more, not -1"):
        _live_offsets.with_retries(opts, "latest offsets", lambda: calls.append(1))
    assert calls == []


def test_options_naming_no_topic_are_a_live_error():
    opts = _live_options.LiveOptions("127.0.0.1:9")  # none of subscribe, subscribePattern, assign
    with pytest.raises(_live_options.LiveError, match="needs one of the options subscribe, subscribePattern, assign"):
        _live_offsets.resolve_partitions(_NoTopics(), opts)


def test_streaming_write_task_without_batch_id_is_a_sink_error():
    import pyarrow as pa

    opts = _live_sink.SinkOptions("127.0.0.1:9", topic="t", timeout=1.0)
    batch = pa.RecordBatch.from_pydict({"value": [b"v"]})
    with pytest.raises(_live_sink.SinkError, match="streaming write task \\(query q-1\\) needs its batch id"):
        _live_sink.write_task([batch], opts, 0, query_id="q-1", run_id="r")


def test_empty_partition_directory_with_starting_offsets_and_timestamp(tmp_path):
    from kafkacodec.logdir.writer import PartitionWriter
    from kafkacodec.records import build_batches

    with PartitionWriter(tmp_path, "t", 0) as w:
        w.append(b"".join(build_batches([(1_700_000_000_000 + i, b"k", b"v") for i in range(10)])),
                 assign_offsets=True)
    os.mkdir(tmp_path / "t-1")  # a partition directory without segments
    opts = _plan.parse_options({"path": str(tmp_path), "startingOffsets": "3",
                                "startingTimestamp": "1700000000005"})
    tasks = _plan.plan(opts)
    assert [(t.topic, t.partition, t.start_offset) for t in tasks] == [("t", 0, 5)]
    assert [o for rb in _plan.read_tasks(tasks, opts) for o in rb.column("offset").to_pylist()] == list(range(5, 10))
