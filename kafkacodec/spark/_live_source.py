"""The ``kafka-live`` Python DataSource: live Kafka topics as DataFrames,
batch and Structured Streaming, over kafkacodec's client."""
from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    DataSourceStreamReader,
    DataSourceWriter,
    InputPartition,
)
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    DataType,
    IntegerType,
    LongType,
    StringType,
    StructField,
    StructType,
    TimestampType,
)

from kafkacodec.spark import _live_formats, _live_offsets, _live_options, _live_plan, _live_read, _live_sink
from kafkacodec.spark._pushdown import push_filters
from kafkacodec.spark._source import pushdown_planning

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark import TaskContext
    from pyspark.sql.datasource import DataSourceStreamWriter, Filter
    from pyspark.sql.streaming.datasource import ReadLimit

    from kafkacodec.client import Admin, TopicPartition

try:  # Spark >= 4.1: Arrow batches for streaming writers
    from pyspark.sql.datasource import DataSourceStreamArrowWriter
except ImportError:  # pragma: no cover - pyspark 4.0
    DataSourceStreamArrowWriter = None  # type: ignore[misc, assignment]  # checked against a newer pyspark

try:  # Spark >= 4.2: read limits and Trigger.AvailableNow for Python sources
    from pyspark.sql.streaming.datasource import (ReadAllAvailable, ReadMaxRows, ReadMinRows,
                                                  SupportsTriggerAvailableNow)
except ImportError:  # pragma: no cover - older pyspark
    ReadAllAvailable = ReadMaxRows = ReadMinRows = None  # type: ignore[misc, assignment]  # as above
    SupportsTriggerAvailableNow = object  # type: ignore[misc, assignment]

__all__ = ["KafkaLiveDataSource", "KafkaLiveReader", "KafkaLiveStreamReader", "KafkaLiveWriter",
           "KafkaLiveStreamWriter", "live_schema"]


def live_schema(include_headers: bool = False, *, value_type: DataType | None = None,
                key_type: DataType | None = None) -> StructType:
    """The columns of Spark's own Kafka source, with its names and types (``key`` and ``value``
    of the given types when valueFormat / keyFormat decode them)."""
    fields = [
        StructField("key", key_type or BinaryType()),
        StructField("value", value_type or BinaryType()),
        StructField("topic", StringType()),
        StructField("partition", IntegerType()),
        StructField("offset", LongType()),
        StructField("timestamp", TimestampType()),
        StructField("timestampType", IntegerType()),
    ]
    if include_headers:
        fields.append(StructField("headers", ArrayType(StructType([
            StructField("key", StringType()), StructField("value", BinaryType())]))))
    return StructType(fields)


class LiveRange(InputPartition):
    """One Spark task: an offset range of one partition."""

    def __init__(self, r: _live_plan.OffsetRange, index: int = 0) -> None:
        super().__init__(index)
        self.range = r

    def __repr__(self) -> str:
        r = self.range
        return f"LiveRange({r.topic}[{r.partition}] {r.start}..{r.end})"


def _arrow_schema(schema: StructType) -> pa.Schema:
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(schema, timezone="UTC")


def _admin(opts: _live_options.LiveOptions) -> Admin:
    from kafkacodec.client import Admin

    return Admin(_live_options.client_conf(opts, "admin"))


def _offsets_json(offsets: Mapping[TopicPartition, int],
                  topic_ids: Mapping[str, str] | None = None) -> dict[str, dict[str, int | str]]:
    """{tp: n} -> Spark's Kafka offset form {"topic": {"0": n}}, with each
    topic's id (of ``topic_ids``, where known) beside its partitions:
    {"topic": {"0": n, "topicId": "..."}}."""
    out: dict[str, dict[str, int | str]] = {}
    for tp, n in sorted(offsets.items()):
        out.setdefault(tp.topic, {})[str(tp.partition)] = int(n)
    for topic, parts in out.items():
        if topic_ids and topic_ids.get(topic):
            parts[_live_options.TOPIC_ID_KEY] = topic_ids[topic]
    return out


def _split(doc: dict[str, Any] | None) -> tuple[dict[TopicPartition, int], dict[str, str]]:
    """Offsets as Spark journaled them -> ({tp: n}, {topic: id}); offsets
    journaled before topic ids were kept have none."""
    from kafkacodec.client import TopicPartition

    offsets, ids = _live_options.split_offsets(doc or {}, "kafka-live stream offsets")
    return {TopicPartition(*tp): n for tp, n in offsets.items()}, ids


class KafkaLiveDataSource(DataSource):
    """``spark.read.format("kafka-live").option("kafka.bootstrap.servers", BS).option("subscribe", T).load()``

    The options and columns of Spark's Kafka source (``key``, ``value``,
    ``topic``, ``partition``, ``offset``, ``timestamp``, ``timestampType``
    and with ``includeHeaders`` ``headers``), read by kafkacodec's client and
    decoded in C straight into Arrow:

    - one of ``subscribe`` (comma separated), ``subscribePattern`` (a regular
      expression the whole name matches) or ``assign`` (``{"t": [0, 1]}``);
    - ``startingOffsets`` (``earliest``, ``latest`` for streams, or JSON
      ``{"t": {"0": 23}}`` with -2 earliest, -1 latest), ``endingOffsets``
      (batch: ``latest`` or JSON, -1 latest), ``startingTimestamp`` /
      ``startingOffsetsByTimestamp`` (ms; offsetsForTimes),
      ``endingTimestamp`` / ``endingOffsetsByTimestamp`` (batch),
      ``startingOffsetsByTimestampStrategy`` (``error`` or ``latest``);
      checked when the query is planned, each refused with one line naming
      the option and the value: an offset or timestamp outside 0..2**63-1
      (but -2 / -1 where they mean earliest / latest), JSON naming a
      partition the query does not read (or ``assign`` one that does not
      exist), a start after the end (in a batch query, a start past the
      partition's latest offset too, whatever ``failOnDataLoss`` says, as
      Spark); an ``endingOffsets`` past the latest offset is data loss
      (``failOnDataLoss=false`` reads to the latest offset and skips the rest);
      a timestamp means Kafka's offset for it, the first whose record
      timestamp is at or after it (timestamps need not rise with the
      offset): the broker's ListOffsets answer where it agrees with the
      records, else found by walking the batch headers (Tansu);
    - ``maxOffsetsPerTrigger`` (streams: offsets per micro-batch, shared by
      lag), ``minOffsetsPerTrigger`` / ``maxTriggerDelay`` (streams: no
      micro-batch until that many new offsets or that long since the last
      one; not with Trigger.AvailableNow), ``minPartitions`` (cut ranges
      into at least that many tasks), ``maxRecordsPerPartition`` (no task of
      more offsets), ``fetchOffset.numRetries`` /
      ``fetchOffset.retryIntervalMs`` (offset lookups retried, all within
      ``kafka.default.api.timeout.ms``, default 60000: each planning step,
      retries included, ends within it, an unreachable bootstrap or broker
      with one line naming it),
      ``kafka.group.id`` / ``groupIdPrefix`` (the consumers' client id
      ``consumer-<group>-<n>``: no group is joined, as Spark's executors),
      ``includeHeaders`` (default false), ``failOnDataLoss`` (default true:
      a stream whose partition's offsets went back, whose topic was deleted
      and recreated (its topic id changed, however many records the new one
      holds), or whose partitions are gone, fails; so does a batch query
      whose startingOffsets / endingOffsets JSON names a topic id the topic
      no longer has; false logs a warning and goes on from the earliest
      offset),
      ``kafka.isolation.level`` (default read_uncommitted, as Spark);
    - ``valueFormat`` / ``keyFormat`` (``binary`` default, ``avro``, ``json``) make ``value`` /
      ``key`` a typed column (a struct for a record) of ``valueSchema`` / ``keySchema`` (Avro
      schema JSON; for json a JSON Schema or ``df.schema.json()``); with
      ``schema.registry.url`` (and ``schema.registry.*`` settings: basic / bearer auth, TLS)
      the values carry Confluent's header, each schema id is resolved to the reader schema,
      which is ``valueSchema`` or the latest of subject ``valueSubject`` (default
      ``<topic>-value``), fixed when the query is planned (see
      :mod:`kafkacodec.spark._live_formats`); a value that does not decode fails the task
      naming its offset;
    - every other ``kafka.*`` option goes to kafkacodec's client
      (``kafka.security.protocol``, ``kafka.sasl.username``, ...).

    Batch queries push ``topic``/``partition`` equality and IN, ``offset``
    ranges and a lower bound on ``timestamp`` into the offset ranges read
    (see :mod:`kafkacodec.spark._pushdown`); the timestamp bound starts each
    partition at Kafka's offset for it, as startingTimestamp does.

    Writes (``df.write`` / ``df.writeStream``): columns ``key``, ``value``,
    ``topic``, ``partition``, ``headers`` as Spark's Kafka sink (a struct ``value`` / ``key``
    encoded with ``valueFormat`` / ``keyFormat`` avro or json, the schema registered under
    ``<topic>-value`` with ``schema.registry.url``), options
    ``topic``, ``transactionalIdPrefix`` and ``kafka.*`` producer settings;
    exactly-once through one Kafka transaction per task, committed by the
    driver (see :mod:`kafkacodec.spark._live_sink`).
    """

    @classmethod
    def name(cls) -> str:
        return "kafka-live"

    def _opts(self, streaming: bool) -> _live_options.LiveOptions:
        opts = _live_options.parse_live_options(dict(self.options), streaming=streaming)
        if opts.formats is not None and opts.formats.typed:
            # the reader schemas fixed once, on the driver: every task decodes into the same columns
            opts = replace(opts, formats=_live_formats.planned(opts.formats, _live_formats.topics_of(self.options)))
        return opts

    def schema(self) -> StructType:
        headers = next((v for k, v in self.options.items() if k.lower() == "includeheaders"), "false")
        if not any(_live_formats.is_format_option(k.lower()) for k in self.options):
            return live_schema(_live_options.parse_bool("includeHeaders", headers))
        options = dict(self.options)
        formats = _live_formats.planned(_live_formats.parse_format_options(options), _live_formats.topics_of(options))
        value_type, key_type = _live_formats.spark_types(formats)
        return live_schema(_live_options.parse_bool("includeHeaders", headers), value_type=value_type,
                           key_type=key_type)

    def reader(self, schema: StructType) -> DataSourceReader:
        # pushdown only where Spark asks for it (see kafkacodec.spark._source.pushdown_planning)
        cls = KafkaLiveReader if pushdown_planning() else KafkaLiveReaderNoPushdown
        return cls(self._opts(False), schema)

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        return KafkaLiveStreamReader(self._opts(True), schema)

    def _sink_opts(self, schema: StructType) -> _live_sink.SinkOptions:
        opts = _live_sink.parse_sink_options(dict(self.options))
        _live_sink.check_sink_schema(schema, opts)
        return opts

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
        if overwrite:
            # as Spark's Kafka sink: a topic's records cannot be replaced, and appending under
            # the name of an overwrite would leave the old ones there unsaid
            raise _live_sink.SinkError("kafka-live writes append to topics; mode 'overwrite' is not allowed, "
                                       "use mode('append')")
        # the write id is drawn once, on the driver: every attempt of a task shares its transactional id
        return KafkaLiveWriter(replace(self._sink_opts(schema), write_id=_live_sink.new_write_id()))

    def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:
        if DataSourceStreamArrowWriter is None:
            raise _live_sink.SinkError("streaming writes to kafka-live need pyspark >= 4.1 (DataSourceStreamArrowWriter)")
        opts = self._sink_opts(schema)
        _live_sink.progress_topic(opts)  # refused before the query starts, not at its first commit
        return KafkaLiveStreamWriter(opts)


class KafkaLiveReader(DataSourceReader):
    def __init__(self, opts: _live_options.LiveOptions, schema: StructType) -> None:
        self.opts = opts
        self.schema = schema

    def pushFilters(self, filters: list[Filter]) -> Iterable[Filter]:
        pushed, remaining = push_filters(filters)
        self.opts = replace(self.opts, pushed=pushed)
        return remaining

    def partitions(self) -> Sequence[InputPartition]:
        if self.opts.pushed is not None and self.opts.pushed.empty:
            return [InputPartition(0)]
        with _admin(self.opts) as admin:
            ranges = _live_offsets.with_retries(self.opts, "offsets",
                                                lambda: _live_plan.batch_ranges(admin, self.opts))
        ranges = _live_plan.split_ranges(ranges, self.opts.min_partitions, self.opts.max_records_per_partition)
        return [LiveRange(r, i) for i, r in enumerate(ranges)] or [InputPartition(0)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        if not isinstance(partition, LiveRange):
            return iter(())
        return _live_read.read_range(partition.range, self.opts, schema=_arrow_schema(self.schema))


class KafkaLiveReaderNoPushdown(KafkaLiveReader):
    """KafkaLiveReader without filter pushdown, for sessions where
    ``spark.sql.python.filterPushdown.enabled`` is off."""

    pushFilters = DataSourceReader.pushFilters  # Spark's default: "not implemented"


class KafkaLiveStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Offsets are Spark's Kafka form ``{"topic": {"partition": next offset}}``,
    with the topic's id beside its partitions where the broker keeps one
    (``"topicId"``, Kafka's text form; offsets journaled without it are read
    as before, with nothing to compare); a query restarted from its
    checkpoint goes on from the offsets Spark journaled there."""

    def __init__(self, opts: _live_options.LiveOptions, schema: StructType) -> None:
        self.opts = opts
        self.schema = schema
        self._admin_client: Admin | None = None
        # Trigger.AvailableNow: the latest offsets when the query started
        self._target: dict[TopicPartition, int] | None = None
        self._warned: set[tuple[object, ...]] = set()  # data loss already logged (failOnDataLoss=false)
        self._clock: Callable[[], float] = time.monotonic
        self._last_trigger: float | None = None  # when minOffsetsPerTrigger last let a batch go (None: never)
        # the latest offsets latestOffset last saw: ranges ending there read large fetches
        self._log_ends: dict[TopicPartition, int] = {}
        # {topic: id} as the metadata _latest resolved the partitions from said
        self._latest_ids: dict[str, str] = {}
        self._target_ids: dict[str, str] = {}  # the same for _target

    def _admin(self) -> Admin:
        if self._admin_client is None:
            self._admin_client = _admin(self.opts)
        return self._admin_client

    def initialOffset(self) -> dict[str, Any]:
        admin = self._admin()

        def initial() -> tuple[dict[TopicPartition, int], dict[str, str]]:
            ids: dict[str, str] = {}
            counts: dict[str, int] = {}
            tps = _live_offsets.resolve_partitions(admin, self.opts, topic_ids=ids, counts=counts)
            _live_plan.check_named_partitions(self.opts, tps, counts, ending=False)
            return _live_plan.starting_offsets(admin, self.opts, tps, default="latest", topic_ids=ids), ids

        return _offsets_json(*_live_offsets.with_retries(self.opts, "starting offsets", initial))

    def _latest(self) -> dict[TopicPartition, int]:
        """{tp: latest offset}; the topics' ids, from the same metadata answer
        (no request more), in ``_latest_ids``."""
        admin = self._admin()

        def latest() -> tuple[dict[TopicPartition, int], dict[str, str]]:
            # a topic deleted since the query started: its partitions are gone (see partitions())
            ids: dict[str, str] = {}
            tps = _live_offsets.resolve_partitions(admin, self.opts, missing_ok=True, topic_ids=ids)
            return _live_offsets.latest_offsets(admin, tps, self.opts.isolation_level), ids

        offsets, self._latest_ids = _live_offsets.with_retries(self.opts, "latest offsets", latest)
        return offsets

    def _earliest(self, tps: Collection[TopicPartition]) -> dict[TopicPartition, int]:
        return _live_offsets.with_retries(self.opts, "earliest offsets",
                                          lambda: _live_offsets.earliest_offsets(self._admin(), tps))

    def _restart_recreated(self, begin: dict[TopicPartition, int], read: Mapping[TopicPartition, int],
                           read_ids: Mapping[str, str], now: Mapping[TopicPartition, int],
                           now_ids: Mapping[str, str]) -> None:
        """Partitions read (``read``, under the topic ids ``read_ids``) whose topic has another id
        in ``now_ids`` begin again at the new topic's earliest offset, with failOnDataLoss an error
        (see _live_plan.recreated_loss)."""
        recreated = _live_plan.recreated_partitions(read_ids, now_ids, read, now)
        if recreated:
            earliest = self._earliest(recreated)
            _live_plan.recreated_loss(self.opts, read_ids, now_ids, read, now, earliest, self._warned)
            begin.update(earliest)

    def _restart_back(self, begin: dict[TopicPartition, int], back: Mapping[TopicPartition, int]) -> None:
        """Partitions whose offsets went back below ``begin`` (to ``back``) begin again at their
        earliest offset, with failOnDataLoss an error (see _live_plan.data_loss)."""
        earliest = self._earliest(list(back))
        _live_plan.data_loss(self.opts, begin, back, earliest, self._warned)
        begin.update(earliest)

    def getDefaultReadLimit(self) -> ReadLimit:
        # Python sources have no composite limit: latestOffset applies both bounds from the options
        if self.opts.max_offsets_per_trigger is not None and ReadMaxRows is not None:
            return ReadMaxRows(self.opts.max_offsets_per_trigger)
        if self.opts.min_offsets_per_trigger is not None and ReadMinRows is not None:
            return ReadMinRows(self.opts.min_offsets_per_trigger)
        return ReadAllAvailable()

    def _delay_batch(self, begin: Mapping[TopicPartition, int], latest: Mapping[TopicPartition, int]) -> bool:
        """Spark's minOffsetsPerTrigger: no batch while fewer new offsets than that
        are there, unless maxTriggerDelay has passed since the last batch."""
        now = self._clock()
        if self._last_trigger is None or now - self._last_trigger >= self.opts.max_trigger_delay:
            self._last_trigger = now
            return False
        new = sum(max(0, n - begin.get(tp, n)) for tp, n in latest.items())
        if new < (self.opts.min_offsets_per_trigger or 0):  # None: no minimum
            return True
        self._last_trigger = now
        return False

    def prepareForTriggerAvailableNow(self) -> None:
        self._target = self._latest()
        self._target_ids = dict(self._latest_ids)

    def latestOffset(self, start: dict[str, Any] | None = None, limit: ReadLimit | None = None) -> dict[str, Any]:
        if self._target is None:
            latest = self._latest()
            ids = dict(self._latest_ids)
        else:
            latest, ids = dict(self._target), dict(self._target_ids)
        read, read_ids = _split(start)
        begin = dict(read)
        new = [tp for tp in latest if tp not in begin]
        if new:  # partitions that appeared since the last batch: read them from their start
            begin.update(self._earliest(new))
        # a topic recreated under its name: its offsets may be past where the last batch ended, only its id tells
        self._restart_recreated(begin, read, read_ids, latest, ids)
        back = _live_plan.offsets_back(self._admin(), self.opts, begin, latest)
        if back:  # recreated or emptied: fail, or (failOnDataLoss=false) go on from the earliest offset
            self._restart_back(begin, back)
            latest.update(back)
            if self._target is not None:
                self._target.update(back)
        # a latest offset that was low only for a moment: nothing new this time
        latest = {tp: max(n, begin.get(tp, n)) for tp, n in latest.items()}
        self._log_ends = dict(latest)
        bounded = limit is not None and not (ReadAllAvailable is not None and isinstance(limit, ReadAllAvailable))
        # Trigger.AvailableNow reads up to its target however little is new: waiting there could end the query
        if (bounded and self._target is None and self.opts.min_offsets_per_trigger is not None
                and self._delay_batch(begin, latest)):
            return _offsets_json({tp: begin.get(tp, n) for tp, n in latest.items()}, ids)
        max_rows = limit.max_rows if ReadMaxRows is not None and isinstance(limit, ReadMaxRows) else (
            self.opts.max_offsets_per_trigger if bounded else None)
        if max_rows is not None:
            latest = _live_plan.rate_limit(begin, latest, max_rows)
        return _offsets_json(latest, ids)

    def reportLatestOffset(self) -> dict[str, Any]:
        return _offsets_json(self._latest(), self._latest_ids)  # _latest() first: it sets the ids

    def partitions(self, start: dict[str, Any], end: dict[str, Any]) -> Sequence[InputPartition]:
        read, read_ids = _split(start)
        finish, finish_ids = _split(end)
        begin = dict(read)
        # the end planned in a topic recreated since the start (by latestOffset, or journaled before a restart)
        self._restart_recreated(begin, read, read_ids, finish, finish_ids)
        gone = [tp for tp in begin if tp not in finish]
        gone_names = ", ".join(map(_live_plan.tp_name, sorted(gone)))
        if gone and self.opts.fail_on_data_loss:
            raise _live_options.LiveError(f"failOnDataLoss: partitions {gone_names} are gone; some data may have been "
                                          "lost. Set failOnDataLoss=false to go on without them")
        if gone:
            _live_options.log.warning("failOnDataLoss=false: partitions %s are gone; going on without them", gone_names)
        new = [tp for tp in finish if tp not in begin]
        if new:
            begin.update(self._earliest(new))
        back = {tp: n for tp, n in finish.items() if n < begin[tp]}
        if back:  # planned past offsets that went back (see latestOffset): from the earliest offset on
            self._restart_back(begin, back)
        ranges = [_live_plan.OffsetRange(tp.topic, tp.partition, begin[tp], n,
                                         log_end=n >= self._log_ends.get(tp, n + 1))
                  for tp, n in sorted(finish.items()) if n > begin[tp]]
        ranges = _live_plan.split_ranges(ranges, self.opts.min_partitions, self.opts.max_records_per_partition)
        return [LiveRange(r, i) for i, r in enumerate(ranges)]

    # Spark hands read() the partitions partitions() made
    def read(self, partition: LiveRange) -> Iterator[pa.RecordBatch]:  # type: ignore[override]
        return _live_read.read_range(partition.range, self.opts, schema=_arrow_schema(self.schema))

    def commit(self, end: dict[str, Any]) -> None:
        # as Spark's Kafka source: progress lives in the checkpoint, not in Kafka
        pass

    def stop(self) -> None:
        if self._admin_client is not None:
            self._admin_client.close()
            self._admin_client = None


def _task_context() -> TaskContext:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    if ctx is None:
        raise _live_sink.SinkError("the kafka-live sink writes from Spark tasks (no TaskContext)")
    return ctx


class KafkaLiveWriter(DataSourceArrowWriter):
    """Batch write: a transaction per task, all committed by the driver."""

    def __init__(self, opts: _live_sink.SinkOptions) -> None:
        self.opts = opts

    def write(self, iterator: Iterator[pa.RecordBatch]) -> _live_sink.SinkCommit:
        return _live_sink.write_task(iterator, self.opts, _task_context().partitionId())

    # Spark hands commit() and abort() the messages write() returned (None for a failed task)
    def commit(self, messages: list[_live_sink.SinkCommit | None]) -> None:  # type: ignore[override]
        _live_sink.commit_write(self.opts, messages)

    def abort(self, messages: list[_live_sink.SinkCommit | None]) -> None:  # type: ignore[override]
        _live_sink.abort_write(self.opts, messages, write_id=self.opts.write_id)


if TYPE_CHECKING:
    _StreamWriterBase = DataSourceStreamArrowWriter
else:  # pyspark 4.0: streamWriter() refuses before one is made
    _StreamWriterBase = DataSourceStreamArrowWriter or DataSourceWriter


class KafkaLiveStreamWriter(_StreamWriterBase):
    """Streaming write: a transaction per task and micro-batch; the query's
    progress group makes a replayed batch a no-op (see _live_sink)."""

    def __init__(self, opts: _live_sink.SinkOptions) -> None:
        self.opts = opts

    @staticmethod
    def _query_id(messages: list[_live_sink.SinkCommit | None] | None = None) -> str | None:
        for msg in messages or ():
            if msg is not None and msg.query_id:
                return msg.query_id
        return None

    def write(self, iterator: Iterator[pa.RecordBatch]) -> _live_sink.SinkCommit:
        ctx = _task_context()
        query_id = ctx.getLocalProperty("sql.streaming.queryId")
        batch = ctx.getLocalProperty("streaming.sql.batchId")
        if not query_id or batch is None:
            raise _live_sink.SinkError("streaming write without Spark's query id / batch id in the task")
        return _live_sink.write_task(iterator, self.opts, ctx.partitionId(), query_id=query_id, batch_id=int(batch))

    # as in KafkaLiveWriter: the messages write() returned
    def commit(self, messages: list[_live_sink.SinkCommit | None],  # type: ignore[override]
               batchId: int) -> None:
        query_id = self._query_id(messages)
        if query_id is not None:
            _live_sink.commit_stream(self.opts, messages, batchId, query_id)

    def abort(self, messages: list[_live_sink.SinkCommit | None],  # type: ignore[override]
              batchId: int) -> None:
        query_id = self._query_id(messages)
        if query_id is not None:
            _live_sink.abort_stream(self.opts, messages, batchId, query_id)
