"""The ``kafka-live`` sink: batch and streaming writes with exactly-once
delivery, over kafkacodec's producer (``send_arrow``: batches built from the
Arrow columns in C).

Columns, as Spark's Kafka sink: ``value`` (binary or string, required),
``key`` (binary or string), ``topic`` (string; the ``topic`` option wins),
``partition`` (int; null: the key's murmur2 partition, or sticky without a
key) and ``headers`` (array<struct<key string, value binary>>).  Every
``kafka.*`` option goes to the producer.  With ``valueFormat`` / ``keyFormat``
``avro`` or ``json`` a struct ``value`` / ``key`` column is encoded first
(``valueSchema``; with ``schema.registry.url`` the schema is registered under
``<topic>-value`` and its id written in Confluent's header; see
:mod:`kafkacodec.spark._live_formats`).

**Two-phase commit.**  Each Spark task writes its rows inside its own Kafka
transaction, flushes, and does *not* commit (``Producer.prepare_transaction``);
its commit message carries the transactional id, producer id and epoch.  The
driver ends every task's transaction with EndTxn: commit in ``commit()``,
abort in ``abort()``, where the transactional ids of failed tasks (no
message) are fenced too (InitProducerId aborts a transaction left open).  A
task's transactional id is derived from the write (a random id per batch
write; the query id per streaming query) and its partition id, so a retried
attempt's InitProducerId fences the previous attempt and aborts what it left
open: read_committed readers see each row once, or, when the job fails,
nothing of it.

**Streaming.**  The progress of a query is kept in group offsets the driver
commits (no consumer uses the groups): group ``<prefix>-<query id>`` holds, on
partition 0 of the progress topic (option ``progressTopic``, default the
``topic`` option), the last batch id and whether it is done or being committed;
groups ``<prefix>-<query id>.<k>`` hold each task's producer id and epoch while
it is being committed.  The driver commits micro-batch N in three steps:
record "committing N" with every task's (producer id, epoch), EndTxn(commit)
every task's transaction, record "done N".  A task of batch N (Spark tells it
N and the query id) first reads the record: when N is done or being committed
it writes nothing, so a batch replayed after a crash (Spark replays the last
batch whose commit it did not log) is not written twice, and it does not fence
the recorded transactions; the driver's ``commit()`` finishes a recorded
commit (EndTxn again answers success for the transactions already committed)
and aborts whatever a task of a done batch wrote.  A crash before the record
leaves only open transactions, which the replay's tasks fence (same
transactional ids: query id and partition id) before writing the batch again.
The record does not change while a batch's tasks run, so a replayed batch is
either entirely skipped or entirely rewritten, however Spark splits it.

**After a driver crash** no transaction of the crashed run stays open: the
first commit (or abort) of each run of the query (Spark's run id, which every
restart renews) finishes a recorded commit, then fences every transactional id
below the larger of its own task count and the most tasks a done batch had that
its own tasks did not write with (a task with no rows in the replay, a replay whose
tasks skip a recorded batch, or a restart that plans fewer tasks), and records
the run in group ``<prefix>-<query id>.run``.  Fencing an id nobody left open
costs an InitProducerId; later batches of the run check the record only.  A
task whose partition id is at or above the task count its batch finds in the
record (0 before the first done batch) may hold an id that bound misses (a
crashed batch with more tasks than any before it, replayed with fewer): it
records the id first, in group ``<prefix>-<query id>.id.<partition id>``
(an offset on partition 0 of the progress topic), then calls InitProducerId.
The first commit or abort of a run lists the groups (ListGroups) and fences
those ids too; the driver deletes such a group (DeleteGroups, best effort) once
the id's transaction is committed, aborted or fenced.  Tasks below the bound,
the common case after the first batch, cost nothing more.

Where exactly-once ends:

- the coordinator aborts a transaction left open longer than
  ``kafka.transaction.timeout.ms`` (default here 10 min; at most the broker's
  ``transaction.max.timeout.ms``).  When the driver finds the first
  transaction it commits aborted, it aborts the others: the job fails with
  nothing visible (a streaming batch is written again on restart).  When it
  finds one after others were committed (a job, or a restart after a crash
  mid-commit, slower than the timeout), it commits the rest and fails naming
  the lost tasks: their rows are not in Kafka;
- a batch write's ``commit()`` that fails part way (a broker gone) has
  committed some tasks' transactions and not others, as any two-phase
  commit without a recovery log; streaming writes recover this from the record;
- with speculative execution, the losing attempt may fence the winner's
  transaction before the driver commits it: the job then fails as above,
  without duplicates;
- a streaming record lives in Kafka's group offsets (``offsets.retention.minutes``,
  7 days by default, for a stopped query); a query restarted later writes
  its replayed batch again;
- on a broker without ListGroups (librdkafka's mock cluster) the recorded ids
  cannot be found: a transaction a crashed run left open under a partition id
  at or above both the replay's task count and that of every done batch (a
  restart that plans fewer tasks for a batch that had more than any before it)
  is fenced by nobody, as when every task of every batch of the next run fails
  (``abort()`` learns the query id from the messages).  The coordinator aborts
  such a transaction after its timeout (Tansu never does); until then
  read_committed readers of its partitions wait.  Groups the driver could not
  delete (no DeleteGroups, or a crash before it) stay until the offsets'
  retention; the next run fences their ids again, one InitProducerId each;
- a batch write's ids hold a random id per write: a job whose driver died
  leaves its open transactions to the timeout.
"""
from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql.datasource import WriterCommitMessage

from kafkacodec.spark._live_options import LiveError, spark_options

if TYPE_CHECKING:
    from pyspark.sql.types import StructType

    from kafkacodec.client import Admin

__all__ = ["SinkError", "SinkOptions", "SinkCommit", "Progress", "parse_sink_options", "check_sink_schema",
           "write_task", "commit_write", "abort_write", "commit_stream", "abort_stream", "read_progress"]

log = logging.getLogger(__name__)
_T = TypeVar("_T")
# a task's prepared transaction: (partition id, transactional id, producer id, producer epoch)
_Txn = tuple[int, str, int, int]

DEFAULT_PREFIX = "kafkacodec-sink"
DEFAULT_TRANSACTION_TIMEOUT_MS = 600_000
_COLUMNS = ("key", "value", "topic", "partition", "headers")
# the sink owns these producer settings
_REFUSED = {
    "transactional.id": "each task's transactional id is derived from the write (see transactionalIdPrefix)",
    "enable.idempotence": "transactions need idempotence",
    "key.serializer": "keys are binary or string columns",
    "value.serializer": "values are binary or string columns",
    "interceptor.classes": "not supported",
}


class SinkError(LiveError):
    """Sink options or columns that cannot be written, or a batch of a query
    whose recorded progress does not fit the batch id."""


@dataclass(frozen=True)
class SinkOptions:
    bootstrap: str
    conf: tuple[tuple[str, str], ...] = ()  # kafka.* producer settings, (name, value)
    topic: str | None = None
    prefix: str = DEFAULT_PREFIX        # transactional ids and progress group: <prefix>-<write or query id>-...
    timeout: float = 120.0              # s for one task's flush / the driver's EndTxn calls
    progress_topic: str | None = None   # streaming: whose group offsets keep the progress (default: topic)
    write_id: str = ""                  # batch writes: random per write (set by the writer)
    formats: Any = None                 # valueFormat / keyFormat (kafkacodec.spark._live_formats.FormatOptions)


def parse_sink_options(options: Mapping[str, str]) -> SinkOptions:
    """The options of a ``kafka-live`` write: ``kafka.bootstrap.servers``
    (required), ``topic``, ``transactionalIdPrefix`` (transactional ids and
    progress groups start with it), ``progressTopic`` (streaming), other
    ``kafka.*`` producer settings.  Names are case-insensitive."""
    from kafkacodec.client.config import PRODUCER
    from kafkacodec.spark._live_formats import is_format_option, parse_format_options

    conf: dict[str, str] = {}
    out: dict[str, Any] = {}
    format_options: dict[str, str] = {}
    for name, lower, value in spark_options(options, conf, _REFUSED, SinkError, " by the kafka-live sink", PRODUCER):
        if is_format_option(lower):
            format_options[name] = value
        elif lower == "topic":
            out["topic"] = str(value).strip() or None
        elif lower == "transactionalidprefix":
            out["prefix"] = str(value).strip() or DEFAULT_PREFIX
        elif lower == "progresstopic":
            out["progress_topic"] = str(value).strip() or None
        elif lower in ("path", "checkpointlocation"):
            continue
        else:
            raise SinkError(f"unknown option {name!r} for the kafka-live sink (known: topic, transactionalIdPrefix, "
                            "progressTopic, valueFormat, valueSchema, valueSubject, keyFormat, keySchema, keySubject, "
                            "schema.registry.* and kafka.* producer settings)")
    bootstrap = conf.pop("bootstrap.servers", None)
    if not bootstrap:
        raise SinkError("the kafka-live sink needs option kafka.bootstrap.servers")
    conf.setdefault("transaction.timeout.ms", str(DEFAULT_TRANSACTION_TIMEOUT_MS))
    try:
        out["formats"] = parse_format_options(format_options)
    except LiveError as e:
        raise SinkError(str(e)) from None
    return SinkOptions(bootstrap=str(bootstrap), conf=tuple(sorted(conf.items())), **out)


# ----------------------------------------------------------------- columns

def check_sink_schema(schema: StructType, opts: SinkOptions) -> None:
    """Refuse columns the sink cannot write, naming the column (Spark types)."""
    from pyspark.sql.types import ArrayType, BinaryType, IntegerType, StringType, StructType

    names = [f.name for f in schema.fields]
    for f in schema.fields:
        t = f.dataType
        if f.name not in _COLUMNS:
            raise SinkError(f"column {f.name!r} is not one the kafka-live sink writes "
                            f"({', '.join(_COLUMNS)}); select only those")
        typed = opts.formats is not None and getattr(opts.formats, f"{f.name}_format", "binary") != "binary"
        if f.name in ("key", "value") and typed and not isinstance(t, (BinaryType, StringType)):
            continue  # encoded by its format (checked against the schema when the first rows are)
        if f.name in ("key", "value") and not isinstance(t, (BinaryType, StringType)):
            raise SinkError(f"column {f.name!r} must be binary or string, not {t.simpleString()} "
                            f"(a struct is written with option {f.name}Format avro or json)")
        if f.name == "topic" and not isinstance(t, StringType):
            raise SinkError(f"column 'topic' must be string, not {t.simpleString()}")
        if f.name == "partition" and not isinstance(t, IntegerType):
            raise SinkError(f"column 'partition' must be int, not {t.simpleString()}")
        if f.name == "headers":
            ok = (isinstance(t, ArrayType) and isinstance(t.elementType, StructType)
                  and [(g.name, type(g.dataType)) for g in t.elementType.fields]
                  == [("key", StringType), ("value", BinaryType)])
            if not ok:
                raise SinkError(f"column 'headers' must be array<struct<key:string,value:binary>>, "
                                f"not {t.simpleString()}")
    if "value" not in names:
        raise SinkError("the kafka-live sink needs a column 'value'")
    if opts.topic is None and "topic" not in names:
        raise SinkError("the kafka-live sink needs option topic or a column 'topic'")


def _split(batch: pa.RecordBatch, topic_option: str | None) -> Iterator[tuple[str, int | None, pa.Table]]:
    """(topic, partition or None, rows as a Table of key/value/headers) groups of a batch."""
    names = batch.schema.names
    payload = pa.Table.from_batches([batch.select([n for n in names if n in ("key", "value", "headers")])])
    if topic_option is not None:
        by_topic = [(topic_option, payload, batch)]
    else:
        topics = batch.column(names.index("topic"))
        if topics.null_count:
            raise SinkError("column 'topic' is null in a row and option topic is not set")
        by_topic = []
        for t in pc.unique(topics).to_pylist():
            mask = pc.equal(topics, t)
            by_topic.append((t, payload.filter(mask), batch.filter(mask)))
    for t, rows, source in by_topic:
        if "partition" not in names:
            yield t, None, rows
            continue
        parts = source.column(names.index("partition"))
        if parts.null_count:
            yield t, None, rows.filter(pc.is_null(parts))
        for p in pc.unique(parts.drop_null()).to_pylist():
            yield t, int(p), rows.filter(pc.equal(parts, p))


# ----------------------------------------------------------------- tasks

@dataclass
class SinkCommit(WriterCommitMessage):
    """A task's commit message: its prepared transaction (transactional_id
    None when it wrote nothing) and what it wrote."""

    partition_id: int
    transactional_id: str | None = None
    producer_id: int = -1
    producer_epoch: int = -1
    rows: int = 0
    partitions: tuple[tuple[str, int, int], ...] = ()  # ((topic, partition, rows), ...)
    skipped: bool = False               # streaming: the batch was already committed
    batch_id: int | None = None
    query_id: str | None = None         # streaming: the driver's commit runs outside tasks and learns it here
    run_id: str | None = None           # streaming: Spark's run of the query (a new one after each restart)
    recorded_id: bool = False           # streaming: its transactional id was recorded in a group of its own


def transactional_id(opts: SinkOptions, write_id: str, partition_id: int) -> str:
    return f"{opts.prefix}-{write_id}-{partition_id}"


def progress_group(opts: SinkOptions, query_id: str) -> str:
    return f"{opts.prefix}-{query_id}"


def _id_group_prefix(opts: SinkOptions, query_id: str) -> str:
    return f"{progress_group(opts, query_id)}.id."


def producer_conf(opts: SinkOptions, txn_id: str) -> dict[str, str]:
    conf = {"bootstrap.servers": opts.bootstrap}
    conf.update(opts.conf)
    conf["transactional.id"] = txn_id
    return conf


def admin_conf(opts: SinkOptions) -> dict[str, str]:
    from kafkacodec.client.config import ADMIN

    conf = {"bootstrap.servers": opts.bootstrap}
    conf.update((k, v) for k, v in opts.conf if k in ADMIN)
    return conf


def _spark_run_id() -> str | None:
    """The run id of the streaming query whose task this is (None outside Spark)."""
    try:
        from pyspark import TaskContext
    except ImportError:
        return None
    ctx = TaskContext.get()
    if ctx is None:
        return None
    return ctx.getLocalProperty("sql.streaming.runId") or ctx.getLocalProperty("spark.jobGroup.id")


def write_task(batches: Iterable[pa.RecordBatch], opts: SinkOptions, partition_id: int, *,
               query_id: str | None = None, batch_id: int | None = None, run_id: str | None = None) -> SinkCommit:
    """Write one task's rows inside a transaction left open for the driver.

    Batch writes: ``opts.write_id`` names the write.  Streaming: `query_id` and
    `batch_id` (`run_id`: Spark's, read from the task when not given); nothing
    is written when the query's progress record has the batch (done, or being
    committed)."""
    from kafkacodec.client import Admin, Producer

    write_id = query_id if query_id is not None else opts.write_id
    txn_id = transactional_id(opts, write_id, partition_id)
    if query_id is not None and run_id is None:
        run_id = _spark_run_id()
    out = SinkCommit(partition_id, batch_id=batch_id, query_id=query_id, run_id=run_id)
    it = iter(batches)
    first = next((b for b in it if b.num_rows), None)
    if first is None:
        for _ in it:
            pass
        return out
    producer = Producer(producer_conf(opts, txn_id))
    try:
        if query_id is not None:
            if batch_id is None:
                raise SinkError(f"a streaming write task (query {query_id}) needs its batch id")
            head = read_head(Admin.over(producer.client), opts, query_id, timeout=opts.timeout)
            if head is not None and head.batch >= batch_id:
                for _ in it:  # the batch is (being) committed: its rows are in Kafka already
                    pass
                out.skipped = True
                return out
            if partition_id >= (head.tasks if head is not None else 0):
                # recovery fences the ids below the recorded task count; one above it must be
                # findable before it can hold a transaction
                _commit(Admin.over(producer.client), f"{_id_group_prefix(opts, query_id)}{partition_id}",
                        progress_topic(opts), {0: batch_id + 1}, opts.timeout)
                out.recorded_id = True
        producer.init_transactions(opts.timeout)  # fences an earlier attempt, aborting what it left open
        producer.begin_transaction()
        counts: dict[tuple[str, int], int] = {}
        results: list[Any] = []  # the producer's bulk-send handles
        formats: dict[str, dict[str, Any]] = {}  # per topic: send_arrow's value_schema / key_schema
        for batch in _chain(first, it):
            if not batch.num_rows:
                continue
            for topic, partition, rows in _split(batch, opts.topic):
                if partition is not None:
                    n = len(producer.partitions_for(topic))
                    if not 0 <= partition < n:
                        raise SinkError(f"column 'partition': {partition} is not a partition of {topic!r} "
                                        f"({n} partitions)")
                bulk = producer.send_arrow(topic, rows, partition=partition, **_formats_for(opts, topic, rows, formats))
                results.append(bulk)
                ps, ns = np.unique(bulk.partitions(), return_counts=True)
                for p, n in zip(ps.tolist(), ns.tolist()):
                    counts[(topic, p)] = counts.get((topic, p), 0) + n
        prepared = producer.prepare_transaction(opts.timeout)
        for bulk in results:
            bulk.wait(0)  # a failed batch has made prepare raise already; this names it if not
        out.transactional_id = txn_id
        out.producer_id = prepared.producer_id
        out.producer_epoch = prepared.producer_epoch
        out.partitions = tuple((t, p, n) for (t, p), n in sorted(counts.items()))
        out.rows = sum(n for _, _, n in out.partitions)
        return out
    finally:
        producer.close(5)


def _formats_for(opts: SinkOptions, topic: str, rows: pa.Table, cache: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """send_arrow's value_schema / key_schema for ``topic`` (its schema registered once per task)."""
    if opts.formats is None or not opts.formats.typed:
        return {}
    if topic not in cache:
        from kafkacodec.spark._live_formats import sink_format
        kw = {}
        for side in ("value", "key"):
            if side in rows.column_names:
                kw[f"{side}_schema"] = sink_format(opts.formats, side, topic, rows.schema.field(side).type)
        cache[topic] = kw
    return cache[topic]


def _chain(first: _T, rest: Iterable[_T]) -> Iterator[_T]:
    yield first
    yield from rest


# ----------------------------------------------------------------- driver

def _txns(messages: Iterable[SinkCommit | None]) -> list[_Txn]:
    """(partition id, transactional id, producer id, epoch) of the tasks that wrote."""
    return [(m.partition_id, m.transactional_id, m.producer_id, m.producer_epoch) for m in messages
            if m is not None and m.transactional_id is not None]


def _abort_all(admin: Admin, txns: list[_Txn], opts: SinkOptions) -> None:
    """EndTxn(abort) of each; one a newer attempt fenced (aborted) or that is already
    ended stays as it is."""
    from kafkacodec.client import errors as E

    for _, txn_id, pid, epoch in txns:
        try:
            admin.end_transaction(txn_id, pid, epoch, False, timeout=opts.timeout)
        except (E.ProducerFencedError, E.InvalidProducerEpochError, E.InvalidTxnStateError):  # fenced, or ended
            pass


def _commit_all(admin: Admin, txns: list[_Txn], opts: SinkOptions, what: str) -> bool:
    """EndTxn(commit) of each, in order.  A transaction the coordinator aborted meanwhile
    (its timeout, or a newer attempt: ProducerFencedError) before any was committed
    aborts the others and returns False: nothing is visible, the rows can be written
    again.  After one was committed, the others are committed and SinkError names the
    lost tasks."""
    from kafkacodec.client import errors as E

    lost: list[int] = []
    for n, (i, txn_id, pid, epoch) in enumerate(txns):
        try:
            admin.end_transaction(txn_id, pid, epoch, True, timeout=opts.timeout)
        except E.ProducerFencedError:
            if n == 0:
                _abort_all(admin, txns[1:], opts)
                return False
            lost.append(i)
    if lost:
        raise SinkError(f"{what}: the transactions of tasks {lost} were aborted by the coordinator before the driver "
                        "committed them (open longer than kafka.transaction.timeout.ms?); their rows are lost, the "
                        "other tasks' rows are committed")
    return True


def _fence(admin: Admin, opts: SinkOptions, txn_ids: Iterable[str]) -> None:
    for txn_id in txn_ids:
        admin.fence_transactional_id(txn_id, timeout=opts.timeout)


def commit_write(opts: SinkOptions, messages: list[SinkCommit | None]) -> None:
    """Driver, batch write: commit every task's transaction."""
    from kafkacodec.client import Admin

    with Admin(admin_conf(opts)) as admin:
        if not _commit_all(admin, _txns(messages), opts, "the write"):
            raise SinkError("the write: a task's transaction was aborted by the coordinator before the driver "
                            "committed it (open longer than kafka.transaction.timeout.ms?); nothing was committed")


def abort_write(opts: SinkOptions, messages: list[SinkCommit | None], *, write_id: str) -> None:
    """Driver, batch write: abort every task's transaction and fence the
    transactional ids of tasks without a message, whose last attempt may have
    left a transaction open."""
    from kafkacodec.client import Admin

    with Admin(admin_conf(opts)) as admin:
        _abort_all(admin, _txns(messages), opts)
        _fence(admin, opts, [transactional_id(opts, write_id, i) for i, msg in enumerate(messages)
                                    if msg is None])


# ----------------------------------------------------------------- streaming progress
#
# Kept in group offsets of the progress topic (option progressTopic, default the
# topic option), written by the driver only; no offset metadata (some brokers
# drop it).  Group <prefix>-<query id>, partition 0: the head, batch id, task
# count and done/committing packed in one offset.  Groups <prefix>-<query id>.<k>,
# partition j: task k * partitions + j's (producer id, epoch) while committing.
# Group <prefix>-<query id>.run, partition 0: a hash of the last Spark run of the
# query whose driver ended what earlier runs left open.  Groups
# <prefix>-<query id>.id.<k>, partition 0: written by task k (the batch id + 1) before
# it uses its transactional id, when k is at or above the head's task count.

_TASK_BITS = 20


@dataclass(frozen=True)
class Progress:
    """A query's progress record: batch `batch` done, or being committed
    (``done`` false) with ``pending`` ((partition id, producer id, epoch), ...).
    ``tasks``: being committed, the batch's task count; done, the most tasks a
    batch of the query had (0 in records written before it was kept)."""

    batch: int
    tasks: int = 0
    done: bool = True
    pending: tuple[tuple[int, int, int], ...] = ()


def _head_value(batch: int, tasks: int, done: bool) -> int:
    if tasks >= 1 << _TASK_BITS:
        raise SinkError(f"a micro-batch of {tasks} tasks is more than the sink records (coalesce)")
    return (((batch + 1) << _TASK_BITS | tasks) << 1) | int(done)


def _fetch(admin: Admin, group: str, topic: str, partitions: Iterable[int], timeout: float) -> dict[int, int]:
    """{partition: committed offset (-1: none)} of `group`."""
    got = admin.list_consumer_group_offsets(group, [(topic, p) for p in partitions], require_stable=True,
                                            timeout=timeout)
    return {tp.partition: -1 if o is None else o for tp, o in got.items()}


def _commit(admin: Admin, group: str, topic: str, offsets: dict[int, int], timeout: float) -> None:
    admin.alter_consumer_group_offsets(group, {(topic, p): o for p, o in offsets.items()}, timeout=timeout)


def progress_topic(opts: SinkOptions) -> str:
    topic = opts.progress_topic or opts.topic
    if topic is None:
        raise SinkError("streaming writes whose rows name their topic need option progressTopic (an existing "
                        "topic whose group offsets keep the query's progress)")
    return topic


def read_head(admin: Admin, opts: SinkOptions, query_id: str, *, timeout: float = 60.0) -> Progress | None:
    """The head of a query's progress record (no pending list); None before its first batch."""
    v = _fetch(admin, progress_group(opts, query_id), progress_topic(opts), [0], timeout)[0]
    if v <= 0:
        return None
    return Progress(batch=(v >> (_TASK_BITS + 1)) - 1, tasks=(v >> 1) & ((1 << _TASK_BITS) - 1), done=bool(v & 1))


def _partition_count(admin: Admin, topic: str, timeout: float) -> int:
    counts = admin.list_topics(timeout=timeout)
    if topic not in counts:
        raise SinkError(f"progressTopic {topic!r} does not exist")
    count: int = counts[topic]
    return count


def read_progress(admin: Admin, opts: SinkOptions, query_id: str, *, timeout: float = 60.0) -> Progress | None:
    """The progress record with the pending transactions of a batch being committed (an Admin)."""
    head = read_head(admin, opts, query_id, timeout=timeout)
    if head is None or head.done or not head.tasks:
        return head
    topic = progress_topic(opts)
    n = _partition_count(admin, topic, timeout)
    pending: list[tuple[int, int, int]] = []
    for k in range((head.tasks + n - 1) // n):
        slots = range(k * n, min(head.tasks, (k + 1) * n))
        got = _fetch(admin, f"{progress_group(opts, query_id)}.{k}", topic, [j - k * n for j in slots], timeout)
        for j in slots:
            v = got[j - k * n]
            if v > 0:
                pending.append((j, (v - 1) >> 16, (v - 1) & 0xFFFF))
    return replace(head, pending=tuple(pending))


def _record_committing(admin: Admin, opts: SinkOptions, query_id: str, batch_id: int,
                       messages: list[SinkCommit | None], timeout: float) -> None:
    """Slots first, then the head: a crash in between leaves the old head, under which
    the replay rewrites the batch."""
    topic = progress_topic(opts)
    n = _partition_count(admin, topic, timeout)
    tasks = len(messages)
    for k in range((tasks + n - 1) // n):
        offsets: dict[int, int] = {}
        for j in range(k * n, min(tasks, (k + 1) * n)):
            msg = messages[j]
            if msg is not None and msg.transactional_id is not None:
                offsets[j - k * n] = (msg.producer_id << 16 | msg.producer_epoch) + 1
            else:
                offsets[j - k * n] = 0
        _commit(admin, f"{progress_group(opts, query_id)}.{k}", topic, offsets, timeout)
    _commit(admin, progress_group(opts, query_id), topic, {0: _head_value(batch_id, tasks, False)}, timeout)


def _record_done(admin: Admin, opts: SinkOptions, query_id: str, batch_id: int, tasks: int, timeout: float) -> None:
    # the task count stays: it bounds the transactional ids a crashed later batch may have used
    _commit(admin, progress_group(opts, query_id), progress_topic(opts),
            {0: _head_value(batch_id, min(tasks, (1 << _TASK_BITS) - 1), True)}, timeout)


def _restore(admin: Admin, opts: SinkOptions, query_id: str, previous: Progress | None, timeout: float) -> None:
    """Put back the record a batch found (None: no record)."""
    value = 0 if previous is None else _head_value(previous.batch, previous.tasks, True)
    _commit(admin, progress_group(opts, query_id), progress_topic(opts), {0: value}, timeout)


def _commit_recorded(admin: Admin, opts: SinkOptions, query_id: str, batch_id: int, tasks: int, txns: list[_Txn],
                     previous: Progress | None) -> None:
    """End the recorded transactions of `batch_id` and record it done; when nothing
    of it could be committed, put `previous` back so the batch is written again."""
    what = f"micro-batch {batch_id}"
    if not _commit_all(admin, txns, opts, what):
        _restore(admin, opts, query_id, previous, opts.timeout)
        raise SinkError(f"{what}: a task's transaction was aborted by the coordinator before the driver committed "
                        "it (open longer than kafka.transaction.timeout.ms?); nothing of the batch was committed, "
                        "a restarted query writes it again")
    _record_done(admin, opts, query_id, batch_id, tasks, opts.timeout)


def _finish_recorded(admin: Admin, opts: SinkOptions, query_id: str, progress: Progress) -> None:
    """Commit the transactions a crashed driver recorded, then record the batch done."""
    txns = [(i, transactional_id(opts, query_id, i), pid, epoch) for i, pid, epoch in progress.pending]
    # a batch is recorded only after the one before it was done
    previous = None if progress.batch == 0 else Progress(progress.batch - 1, progress.tasks)
    _commit_recorded(admin, opts, query_id, progress.batch, progress.tasks, txns, previous)


def _run_tag(messages: list[SinkCommit | None]) -> int | None:
    """A positive 56-bit hash of the Spark run the messages' tasks belong to (None: unknown)."""
    import hashlib

    run = next((m.run_id for m in messages if m is not None and m.run_id), None)
    if run is None:
        return None
    return int.from_bytes(hashlib.blake2b(run.encode(), digest_size=7).digest(), "big") + 1


def _recorded_ids(admin: Admin, opts: SinkOptions, query_id: str) -> set[int]:
    """The partition ids the query's tasks recorded in groups of their own (none when the
    broker cannot list groups: ListGroups is missing from librdkafka's mock cluster)."""
    from kafkacodec.client import errors as E

    prefix = _id_group_prefix(opts, query_id)
    try:
        groups = admin.list_consumer_groups(timeout=opts.timeout)
    except E.UnsupportedVersionError as exc:
        log.debug("query %s: the broker cannot list groups, recorded transactional ids stay unknown: %s",
                  query_id, exc)
        return set()
    out: set[int] = set()
    for g in groups:
        k = g.group_id[len(prefix):]
        if g.group_id.startswith(prefix) and k.isascii() and k.isdigit():
            out.add(int(k))
    return out


def _forget_ids(admin: Admin, opts: SinkOptions, query_id: str, ids: Iterable[int]) -> None:
    """Delete the groups recording `ids`, whose transactions have ended.  Best effort: a
    group left behind only makes the next run's recovery fence its id again."""
    from kafkacodec.client import errors as E

    for i in sorted(ids):
        group = f"{_id_group_prefix(opts, query_id)}{i}"
        try:
            admin.delete_consumer_groups([group], timeout=opts.timeout)
        except E.UnsupportedVersionError as exc:
            log.debug("query %s: the broker cannot delete groups, %s and the like stay: %s", query_id, group, exc)
            return
        except E.KafkaError as exc:
            log.debug("query %s: group %s not deleted: %s", query_id, group, exc)


def _ids_recorded_by(messages: Iterable[SinkCommit | None]) -> set[int]:
    return {m.partition_id for m in messages if m is not None and m.recorded_id}


def _end_crashed_runs(admin: Admin, opts: SinkOptions, query_id: str, messages: list[SinkCommit | None],
                      progress: Progress | None) -> set[int]:
    """The first commit or abort of a run of the query ends what an earlier run that
    died left open (Flink's KafkaSink does the same with its transactional-id prefix).

    A task's transactional id is the query id and its partition id, so a crashed
    attempt of a batch used ids below its task count: this attempt's, or the most
    a done batch had (a restart may plan fewer tasks, as after a change of
    minPartitions).  Each id of those this attempt holds no transaction under is
    fenced: InitProducerId aborts a transaction left open with it.  Ids this
    attempt's tasks wrote with were fenced by those tasks already.  A task of a batch
    that ran more tasks than the record said recorded its id in a group of its own
    before using it: those ids are listed and fenced too.  A commit the crashed
    driver recorded must be finished before (its transactions would be aborted).
    Later batches of the run skip this (one OffsetFetch): the run's tag is recorded
    once it is done, so a crash part way runs it again.

    Returns the recorded ids found, whose groups the caller deletes once this
    attempt's transactions have ended (those it holds are among them)."""
    tag = _run_tag(messages)
    group = f"{progress_group(opts, query_id)}.run"
    topic = progress_topic(opts)
    if tag is not None and _fetch(admin, group, topic, [0], opts.timeout)[0] == tag:
        return set()
    bound = max(len(messages), progress.tasks if progress is not None else 0)
    held = {m.partition_id for m in messages if m is not None and m.transactional_id is not None}
    recorded = _recorded_ids(admin, opts, query_id)
    _fence(admin, opts, [transactional_id(opts, query_id, i) for i in sorted(set(range(bound)) | recorded)
                         if i not in held])
    if tag is not None:
        _commit(admin, group, topic, {0: tag}, opts.timeout)
    return recorded


def commit_stream(opts: SinkOptions, messages: list[SinkCommit | None], batch_id: int, query_id: str) -> None:
    """Driver, streaming: commit micro-batch `batch_id` exactly once (see the module)."""
    from kafkacodec.client import Admin

    with Admin(admin_conf(opts)) as admin:
        progress = read_progress(admin, opts, query_id, timeout=opts.timeout)
        if progress is not None and not progress.done:
            if progress.batch != batch_id:
                raise SinkError(f"group {progress_group(opts, query_id)!r} records batch {progress.batch} as being "
                                f"committed, and Spark commits batch {batch_id}: the checkpoint and the progress "
                                "record disagree")
            _finish_recorded(admin, opts, query_id, progress)
            progress = replace(progress, done=True, pending=())
        ended = _end_crashed_runs(admin, opts, query_id, messages, progress) | _ids_recorded_by(messages)
        if progress is not None and progress.batch >= batch_id:
            # already committed (a replay): whatever a task wrote anyway is dropped
            _abort_all(admin, _txns(messages), opts)
            _forget_ids(admin, opts, query_id, ended)
            return
        txns = _txns(messages)
        tasks = max(len(messages), progress.tasks if progress is not None else 0)
        if txns:
            _record_committing(admin, opts, query_id, batch_id, messages, opts.timeout)
            _commit_recorded(admin, opts, query_id, batch_id, tasks, txns, progress)
        else:
            _record_done(admin, opts, query_id, batch_id, tasks, opts.timeout)
        # their transactions are committed or fenced: no recovery needs to find them
        _forget_ids(admin, opts, query_id, ended)


def abort_stream(opts: SinkOptions, messages: list[SinkCommit | None], batch_id: int, query_id: str) -> None:
    """Driver, streaming: abort this attempt of a micro-batch.  A commit a
    crashed driver recorded is finished first (its transactions must not be
    fenced); then the tasks' transactions are aborted and the ids of tasks
    without a message fenced."""
    from kafkacodec.client import Admin

    with Admin(admin_conf(opts)) as admin:
        progress = read_progress(admin, opts, query_id, timeout=opts.timeout)
        if progress is not None and not progress.done and progress.batch == batch_id:
            _finish_recorded(admin, opts, query_id, progress)
            progress = replace(progress, done=True, pending=())
        ended = _ids_recorded_by(messages)
        if progress is None or progress.done:
            ended |= _end_crashed_runs(admin, opts, query_id, messages, progress)
        _abort_all(admin, _txns(messages), opts)
        _fence(admin, opts, [transactional_id(opts, query_id, i) for i, msg in enumerate(messages) if msg is None])
        _forget_ids(admin, opts, query_id, ended)


def new_write_id() -> str:
    return uuid.uuid4().hex[:16]
