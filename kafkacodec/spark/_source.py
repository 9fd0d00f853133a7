"""The ``kafka-log`` Python DataSource: Kafka log directories as DataFrames."""
from __future__ import annotations

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.types import StructType

import dataclasses
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType

    import pyarrow as pa
    from pyspark.sql import SparkSession
    from pyspark.sql.datasource import Filter

from kafkacodec.spark import _plan
from kafkacodec.spark import _schema
from kafkacodec.spark._pushdown import push_filters

__all__ = ["KafkaLogDataSource", "KafkaLogReader", "KafkaLogReaderNoPushdown", "RangeGroup", "spark_schema",
           "pushdown_planning", "register"]

# The planner worker Spark runs only with spark.sql.python.filterPushdown.enabled;
# the other one (plan_data_source_read.py) refuses a reader that defines pushFilters
# while that setting is off (DATA_SOURCE_PUSHDOWN_DISABLED).
_PUSHDOWN_WORKER = "data_source_pushdown_filters.py"


def pushdown_planning() -> bool:
    """True when Spark's filter-pushdown planner is the caller of
    ``DataSource.reader()``: only then may the reader define ``pushFilters``.

    Spark does not tell ``reader()`` whether pushdown is on, and its Python
    workers have no session to ask; the two planners are told apart by the
    worker module on the call stack."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if os.path.basename(frame.f_code.co_filename) == _PUSHDOWN_WORKER:
            return True
        frame = frame.f_back
    return False

def spark_schema(*, headers: bool = False, batch_columns: bool = False) -> StructType:
    """Columns of the source: Spark's Kafka source's (key, value, topic,
    partition, offset, timestamp, timestampType, and headers with
    ``includeHeaders``), so jobs switch between live topics and logs by the
    format name; the batch columns follow them."""
    return _schema.spark_schema(headers=headers, batch_columns=batch_columns, kafka_source=True)


class RangeGroup(InputPartition):
    """One Spark partition: byte ranges of segments (plain values)."""

    def __init__(self, tasks: Iterable[_plan.RangeTask], index: int = 0) -> None:
        super().__init__(index)
        self.tasks = tuple(tasks)
        self.index = index

    def __repr__(self) -> str:
        size = sum(t.size for t in self.tasks)
        return f"RangeGroup({len(self.tasks)} ranges, {size} bytes)"


class KafkaLogDataSource(DataSource):
    """``spark.read.format("kafka-log").option("path", DIR).load()``

    Columns: those of Spark's Kafka source, ``key``, ``value``, ``topic``,
    ``partition``, ``offset``, ``timestamp``, ``timestampType`` and, with
    ``includeHeaders``, ``headers`` (earlier versions had the codec's order
    and names, ``timestamp_type``, and headers by default).

    Options (case-insensitive):

    - ``path``: a broker data directory or one ``topic-N`` partition directory
      (visible at the same path to the driver and every worker);
    - ``isolationLevel``: ``read_committed`` (default, as ``kafkacodec-spark
      convert``: aborted transactions, found in the ``.txnindex`` files, are
      left out) or ``read_uncommitted`` (every record, as a Kafka consumer's
      own default);
    - ``topics`` (comma separated) and ``partitions`` (``0,2`` or ``orders:0``);
      ``includeInternal`` to read ``__``-topics;
    - ``startingOffsets`` / ``endingOffsets`` (end exclusive): a number,
      ``earliest``/``latest``, or JSON ``{"topic": {"0": 42}}`` (-2 earliest,
      -1 latest; partitions the JSON leaves out are read from the log start /
      to the end);
    - ``startingTimestamp`` / ``endingTimestamp`` (ms, or the same JSON): from /
      up to (exclusive) the first offset whose timestamp is >= the value, as
      Kafka's offsetsForTimes defines it;
    - ``maxBytesPerPartition`` (default ``64m``) and ``minPartitions``: how the
      log is cut into Spark partitions (whole batches, segment byte ranges);
    - ``includeHeaders`` (default false, as Spark's Kafka source; ``headers``
      is the same option under its earlier name), ``batchColumns`` (producer_id,
      producer_epoch, sequence, partition_leader_epoch, is_transactional),
      ``verifyCrc`` (default true), ``maxRowsPerBatch`` (Arrow batch rows);
    - ``progressDir``: a directory every task keeps its bytes and rows read so
      far in (``kafkacodec.spark._plan.read_progress`` sums them; the driver
      must see the workers' files, as on a local master), and what it left
      out (``_plan.read_skipped``, ``_plan.read_partial``);
    - ``onCorruption``: ``error`` (default) or ``skip`` (damaged batches are
      left out; ``_plan.read_skipped`` counts them in ``progressDir``);
    - ``maxRecordsPerBatch`` / ``maxDecompressedSize``: refuse a batch
      holding more records or inflating to more bytes (defaults 1,000,000
      and ``256m``), bounding what one small compressed batch can make a
      task allocate.

    A path that is not a Kafka data directory, or a topic or partition that
    is not there, fails while planning (``KafkaLogError``) instead of
    reading zero rows.  Corrupt data fails the task with the segment file,
    the byte position in that file and the field; only a partition's active
    (last) segment may end in a partial batch (a torn write: left out, as
    Kafka's log recovery would truncate it, logged as a warning on the
    ``kafkacodec.logdir`` logger and counted by ``_plan.read_partial``).
    """

    @classmethod
    def name(cls) -> str:
        return "kafka-log"

    def _opts(self) -> _plan.ReadOptions:
        return _plan.parse_options(dict(self.options))

    def schema(self) -> StructType:
        opts = self._opts()
        return spark_schema(headers=opts.headers, batch_columns=opts.batch_columns)

    def reader(self, schema: StructType) -> DataSourceReader:
        # pushdown only where Spark asks for it, so a session without
        # spark.sql.python.filterPushdown.enabled (spark.dataSource.register alone) reads too
        cls = KafkaLogReader if pushdown_planning() else KafkaLogReaderNoPushdown
        return cls(self._opts(), schema)


class KafkaLogReader(DataSourceReader):
    def __init__(self, opts: _plan.ReadOptions, schema: StructType) -> None:
        self.opts = opts
        self.schema = schema

    def pushFilters(self, filters: list[Filter]) -> Iterable[Filter]:
        """topic/partition equality and IN, offset ranges and a lower bound
        on timestamp choose the byte ranges to read (see _pushdown)."""
        pushed, remaining = push_filters(filters)
        self.opts = dataclasses.replace(self.opts, pushed=pushed)
        return remaining

    def partitions(self) -> Sequence[InputPartition]:
        if self.opts.pushed is not None and self.opts.pushed.empty:
            return [RangeGroup((), 0)]
        tasks = _plan.plan(self.opts)
        groups = _plan.group_tasks(tasks, self.opts.max_bytes_per_partition, self.opts.min_partitions)
        return [RangeGroup(g, i) for i, g in enumerate(groups)] or [RangeGroup((), 0)]

    # Spark hands read() the partitions partitions() made
    def read(self, partition: RangeGroup) -> Iterator[pa.RecordBatch]:  # type: ignore[override]
        from pyspark.sql.pandas.types import to_arrow_schema

        # the exact Arrow schema Spark checks yielded batches against
        sch = to_arrow_schema(self.schema, timezone="UTC")
        return _plan.read_tasks(partition.tasks, self.opts, schema=sch, progress_key=partition.index)


class KafkaLogReaderNoPushdown(KafkaLogReader):
    """KafkaLogReader without filter pushdown (Spark filters the rows
    itself): the reader for sessions where
    ``spark.sql.python.filterPushdown.enabled`` is off."""

    pushFilters = DataSourceReader.pushFilters  # Spark's default: "not implemented"


def register(spark: SparkSession, *, short_errors: bool = True) -> None:
    """Make ``spark.read.format("kafka-log")`` and ``format("kafka-live")``
    available in this session, and turn on Spark's filter pushdown for Python
    sources (``spark.sql.python.filterPushdown.enabled``): filters on topic,
    partition, offset and timestamp then choose what is read.

    ``short_errors`` (the default) sets
    ``spark.sql.execution.pyspark.udf.hideTraceback.enabled``: a failed read
    (a missing log directory, a topic that is gone) then ends in Spark's one
    line naming the cause, such as ``[PYTHON_DATA_SOURCE_ERROR] Failed to
    generate Python data source read partitions: KafkaLogError: no such
    directory: /data``, instead of the Python worker's whole trace inside it.
    The setting is the session's, so Python UDFs' errors are one line too;
    pass ``short_errors=False`` to keep the traces.

    ``spark.dataSource.register(KafkaLogDataSource)`` (PySpark's own way)
    works too; without that setting Spark reads everything the options name
    and filters the rows itself."""
    from kafkacodec.spark._live_source import KafkaLiveDataSource

    spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")
    if short_errors:
        spark.conf.set("spark.sql.execution.pyspark.udf.hideTraceback.enabled", "true")
    spark.dataSource.register(KafkaLogDataSource)
    spark.dataSource.register(KafkaLiveDataSource)
