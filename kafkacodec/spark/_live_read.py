"""Reading one planned range of the ``kafka-live`` source in a Spark task:
kafkacodec's Consumer (assign + seek, ``poll_arrow``: Fetch responses
decoded in C straight into Arrow) yields RecordBatches in the schema of
Spark's Kafka source, ending at the range's end however records are
batched."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator

import pyarrow as pa
import pyarrow.compute as pc

from kafkacodec.records.isolation import IsolationLevel
from kafkacodec.spark import _live_offsets
from kafkacodec.spark._live_options import LiveError, LiveOptions, client_conf, log
from kafkacodec.spark._live_plan import OffsetRange, tp_name
from kafkacodec.spark._schema import spark_arrow_schema, to_spark_batch

if TYPE_CHECKING:
    from kafkacodec.client import TopicPartition

__all__ = ["read_range", "ReadStats", "live_arrow_schema", "LOG_END_FETCH_BYTES"]


def live_arrow_schema(include_headers: bool) -> pa.Schema:
    """Spark's Kafka source columns in Spark's Arrow form (UTC microseconds)."""
    return spark_arrow_schema(headers=include_headers, kafka_source=True)


# A range that ends at the log's end has nothing past its end to over-fetch, so its fetches may be
# large: fewer round trips, less broker work per record, fewer and larger batches for Spark.
LOG_END_FETCH_BYTES = 8 << 20


def _offset_cut(rb: pa.RecordBatch, end: int) -> pa.RecordBatch:
    """Rows with offset < end (offsets ascend within a partition)."""
    n = rb.num_rows
    offsets = rb.column(2)
    if offsets[n - 1].as_py() < end:
        return rb
    keep = pc.sum(pc.less(offsets, pa.scalar(end, pa.int64()))).as_py() or 0
    return rb.slice(0, keep)


def _stall_cause(opts: LiveOptions, tp: TopicPartition, position: int) -> str:
    """Why a read stalls at ``position``, from the partition's watermarks now:
    under read_committed, a last stable offset held below the high watermark."""
    try:
        from kafkacodec.client import Admin

        with Admin(client_conf(opts, "admin")) as admin:
            high = _live_offsets.latest_offsets(admin, [tp], IsolationLevel.READ_UNCOMMITTED).get(tp)
            # the Fetch answer's, not ListOffsets': some brokers list the high watermark for both
            stable = _live_offsets.watermarks(admin, {tp: position}, IsolationLevel.READ_COMMITTED).get(tp)
    except Exception as exc:  # the cause is a hint; the stall is the error
        return f"the leader may be down or the data gone (watermarks not known: {exc})"
    if high is not None and position > high:
        return (f"offset {position} is past the high watermark {high}: the log was truncated or the topic "
                "recreated with fewer records, and some data may have been lost")
    committed = opts.isolation_level is IsolationLevel.READ_COMMITTED
    if committed and stable is not None and high is not None and stable < high:
        return (f"the last stable offset is {stable} and the high watermark {high}: read_committed reads stop at "
                "the last stable offset, which an open transaction holds back (and which some brokers, Tansu "
                "among them, leave stuck after overlapping transactions have all ended)")
    return (f"the high watermark is {high}, the last stable offset {stable}; the leader may be down or the "
            "data gone")


def _typed_columns(opts: LiveOptions) -> dict[str, Any]:
    """poll_arrow's value_schema / key_schema for the options' formats ({} when both are binary)."""
    if opts.formats is None or not opts.formats.typed:
        return {}
    from kafkacodec.spark._live_formats import read_formats
    value, key = read_formats(opts.formats)
    return {"value_schema": value, "key_schema": key}


def _spark_values(rb: pa.RecordBatch) -> pa.RecordBatch:
    """Decoded key / value columns in Spark's Arrow form (enums as strings, timestamps in us, ...)."""
    from kafkacodec.spark._values import to_spark_values
    for name in ("key", "value"):
        i = rb.schema.get_field_index(name)
        col = rb.column(i) if i >= 0 else None
        if col is not None and not (pa.types.is_binary(col.type) or pa.types.is_large_binary(col.type)):
            col = to_spark_values(col)
            rb = rb.set_column(i, pa.field(name, col.type), col)
    return rb


@dataclass
class ReadStats:
    """What one :func:`read_range` call did (for tests and benchmarks)."""

    rows: int = 0
    polls: int = 0
    position: int = 0
    skipped_to: int | None = None  # failOnDataLoss=false: the offset reading went on from


def read_range(r: OffsetRange, opts: LiveOptions, *, schema: pa.Schema | None = None,
               stats: ReadStats | None = None,
               consumer_factory: Callable[[dict[str, Any]], Any] | None = None) -> Iterator[pa.RecordBatch]:
    """Fetch ``r`` from its leader and yield it as Arrow batches of
    ``schema`` (default :func:`live_arrow_schema`), never empty.  Records of
    aborted transactions and control records are skipped with
    read_committed; the range ends at its end offset however records are
    batched."""
    from kafkacodec.client import Consumer, TopicPartition
    from kafkacodec.client import errors as E

    sch = live_arrow_schema(opts.include_headers) if schema is None else schema
    stats = ReadStats() if stats is None else stats
    typed = _typed_columns(opts)
    tp = TopicPartition(r.topic, r.partition)
    make = consumer_factory or Consumer
    consumer = make(client_conf(opts, "consumer", partition_bytes=LOG_END_FETCH_BYTES if r.log_end else None))
    try:
        consumer.assign([tp])
        consumer.seek(tp, r.start)
        position = r.start
        last_progress = time.monotonic()
        while position < r.end:
            try:
                # at most the rows the range still holds: the fetch that reaches its end is then never
                # drained, so the consumer sends no Fetch past it (Fetches follow drained ones at once)
                rb = consumer.poll_arrow(timeout=min(1.0, opts.poll_timeout), max_records=r.end - position,
                                         **typed)
            except E.BrokerResponseError as exc:
                if getattr(exc, "code", None) != E.ErrorCode.OFFSET_OUT_OF_RANGE:
                    raise
                first = consumer.beginning_offsets([tp])[tp]
                if first is not None and first <= position:
                    # the log starts at or before the position, so it ends before it: truncated
                    # (a new leader without these records) or recreated with fewer records
                    last = consumer.end_offsets([tp])[tp]
                    if opts.fail_on_data_loss:
                        raise LiveError(
                            f"{tp_name(tp)}: offsets {position} to {r.end} are past the log's end ({last}); some "
                            "data may have been lost because the log was truncated or the topic recreated. Set "
                            "failOnDataLoss=false to skip them") from exc
                    log.warning("failOnDataLoss=false: %s: offsets %d to %d are past the log's end (%s); skipping "
                                "them", tp_name(tp), position, r.end, last)
                    stats.skipped_to = r.end
                    position = r.end
                    break
                if opts.fail_on_data_loss or first is None:
                    raise LiveError(
                        f"{tp_name(tp)}: offsets {position} to {r.end} are no longer in the log (it now starts "
                        f"at {first}); some data may have been lost because it was deleted by retention. "
                        "Set failOnDataLoss=false to go on from the first offset left") from exc
                stats.skipped_to = first
                position = first
                consumer.seek(tp, first)
                continue
            stats.polls += 1
            if rb.num_rows:
                rb = _offset_cut(rb, r.end)
                if rb.num_rows:
                    stats.rows += rb.num_rows
                    if typed:
                        rb = _spark_values(rb)
                    yield to_spark_batch(rb, sch)
            now_at = consumer.position(tp)
            if now_at > position:
                position = now_at
                last_progress = time.monotonic()
            elif time.monotonic() - last_progress > opts.poll_timeout:
                raise LiveError(f"{tp_name(tp)}: no record at offset {position} within {opts.poll_timeout:.0f} s "
                                f"(the range ends at {r.end}); {_stall_cause(opts, tp, position)}")
        stats.position = position
    finally:
        try:
            consumer.pause([tp])  # no further Fetch while the consumer shuts down
        except Exception:
            pass
        consumer.close()
