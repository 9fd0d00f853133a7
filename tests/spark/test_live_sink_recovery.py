"""The kafka-live sink after a driver crash: a streaming query's driver
(its Python process, the Spark JVM and the Python workers: one process
group, all SIGKILLed) dies at each point of a micro-batch's two-phase commit,
then the query restarts from its checkpoint, planning fewer tasks (its
minPartitions dropped).  Every row is committed once, and no transaction of
the sink is left open: in each partition's log, every transaction's records
are followed by its commit or abort marker right after the restart (Tansu
never times a transaction out, so nothing else would end them).  The same
without Spark, with the driver's calls made by hand."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

pytestmark = pytest.mark.broker

pytest.importorskip("pyspark")
pytest.importorskip("confluent_kafka")

from _peers import create_topics, produce_with_confluent  # noqa: E402

SOURCE_PARTITIONS = 4   # one sink task per source partition and micro-batch after the restart
CRASH_TASKS = 8         # minPartitions of the run that crashes
TARGET_PARTITIONS = 3
ROWS = 400              # two micro-batches of 200 (maxOffsetsPerTrigger): the crash is in batch 1

# Imported by the driver and by Spark's Python workers (the tmp dir is on their path): the
# kafka-live sink with marks where a test waits to kill the driver, and a hold that keeps
# the process there until it is killed.
_HOOKS = textwrap.dedent('''
    import ctypes
    import os
    import signal
    import time

    from kafkacodec.spark._live_source import KafkaLiveDataSource, KafkaLiveStreamWriter

    POINT = os.environ.get("KC_CRASH_POINT", "")
    MARKS = os.environ.get("KC_CRASH_MARKS", "")
    BATCH = 1
    PREPARED = 6  # some-prepared: tasks below this prepare, the others stay open


    def mark(name):
        with open(os.path.join(MARKS, name), "w"):
            pass


    def hold():
        # die with the parent (the JVM) rather than go on after the kill
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        parent = os.getppid()
        deadline = time.monotonic() + 300
        while os.getppid() == parent and time.monotonic() < deadline:
            time.sleep(0.05)
        os._exit(1)


    class Writer(KafkaLiveStreamWriter):
        def write(self, iterator):
            from pyspark import TaskContext

            ctx = TaskContext.get()
            task = ctx.partitionId()
            if int(ctx.getLocalProperty("streaming.sql.batchId")) != BATCH or POINT not in ("open", "some-prepared"):
                return super().write(iterator)
            if POINT == "open" or task >= PREPARED:
                def rows():
                    yield from iterator
                    mark(f"open-{task}")  # every row sent inside the transaction, not prepared
                    hold()
                return super().write(rows())
            msg = super().write(iterator)
            mark(f"prepared-{task}")
            return msg

        def commit(self, messages, batchId):
            if batchId == BATCH and POINT == "prepared":
                mark("commit")  # every task prepared, nothing recorded
                hold()
            if batchId == BATCH and POINT == "committing":
                from kafkacodec.client import transaction

                real = transaction.end_transaction

                def end_transaction(*args, **kw):
                    real(*args, **kw)
                    if args[4]:
                        mark("committed-one")  # the batch recorded as committing, one transaction committed
                        hold()
                transaction.end_transaction = end_transaction
            super().commit(messages, batchId)


    class Source(KafkaLiveDataSource):
        @classmethod
        def name(cls):
            return "kafka-live-crash"

        def streamWriter(self, schema, overwrite):
            return Writer(super().streamWriter(schema, overwrite).opts)
''')

_DRIVER = textwrap.dedent('''
    import sys
    from kafkacodec.spark.session import local_session
    import crash_hooks
    bs, source, target, ckpt, min_partitions = sys.argv[1:6]
    spark = local_session("local[2]", app_name="sink-crash", driver_memory="1g", shuffle_partitions=2,
                          extra={"spark.default.parallelism": "2"})
    spark.dataSource.register(crash_hooks.Source)
    stream = (spark.readStream.format("kafka-live").option("kafka.bootstrap.servers", bs)
              .option("subscribe", source).option("startingOffsets", "earliest")
              .option("maxOffsetsPerTrigger", "200"))
    if min_partitions:
        stream = stream.option("minPartitions", min_partitions)
    stream = stream.load()
    q = (stream.select("key", "value").writeStream.format("kafka-live-crash")
         .option("kafka.bootstrap.servers", bs).option("topic", target).option("checkpointLocation", ckpt)
         .option("kafka.transaction.timeout.ms", "20000")
         .trigger(availableNow=True).start())
    q.awaitTermination()
    assert q.exception() is None
    print("progress", sum(p["numInputRows"] for p in q.recentProgress), flush=True)
    spark.stop()
''')

# point -> the marks that say the driver is there
_POINTS = {
    "open": {"open-0", "open-1"},                                                     # tasks mid-transaction
    "some-prepared": {f"prepared-{i}" for i in range(6)} | {"open-6", "open-7"},      # 6 of 8 prepared
    "prepared": {"commit"},                                                           # all prepared, not recorded
    "committing": {"committed-one"},                                                  # recorded, 1 of 8 committed
}


def _group_pids(pgid):
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # pgrp
            out.append((int(name), fields[0]))
    return out


def _kill_group(proc):
    """SIGKILL every process of the driver's group (its own session, started here): the JVM first."""
    pids = _group_pids(proc.pid)
    for pid, _ in sorted(pids, key=lambda p: p[0] == proc.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait(30)
    deadline = time.monotonic() + 30
    while _group_pids(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_pids(proc.pid), "processes of the killed driver are still running"


def _run(tmp_path, bs, source, target, ckpt, point, marks, min_partitions=""):
    env = dict(os.environ, KC_CRASH_POINT=point, KC_CRASH_MARKS=str(marks),
               PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), os.getcwd(), os.environ.get("PYTHONPATH")])))
    log = open(tmp_path / f"driver-{point or 'restart'}.log", "w+")
    proc = subprocess.Popen([sys.executable, str(tmp_path / "driver.py"), bs, source, target, ckpt,
                             str(min_partitions)], env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, log


def _tail(log):
    log.seek(0)
    return log.read()[-4000:]


def _committed_values(bs, topic, partitions):
    """The values of the records whose transaction committed, as a read_committed consumer
    keeps them, read from the log up to the high watermark (_log_transactions)."""
    return _log_transactions(bs, topic, partitions)[1]


def _open_partitions(bs, topic, partitions):
    """{partition: [(producer id, epoch, first offset)]} of the transactions left open
    (_log_transactions)."""
    return _log_transactions(bs, topic, partitions)[0]


def _log_transactions(bs, topic, partitions):
    """(open transactions by partition, committed values), from the log itself: a
    transaction is open until a control marker of its producer (at its epoch or a later one)
    follows its records, and its values count once that marker commits.  Not the broker's
    last stable offset: Tansu at times keeps that below a transaction whose marker it has
    written (after a fenced producer's abort lands behind another producer's open
    transaction), and a read_committed consumer stops there."""
    found, values = {}, []
    for p in range(partitions):
        open_ = {}  # producer id -> (epoch, first offset, values)
        for b in _batches_of(bs, topic, p)[1]:
            if not b.is_transactional:
                values += [r.value for r in b]
            elif b.is_control:
                if b.producer_id in open_ and open_[b.producer_id][0] <= b.producer_epoch:
                    ended = open_.pop(b.producer_id)
                    if b.control_record()[1] == "COMMIT":
                        values += ended[2]
            elif b.producer_id in open_:
                open_[b.producer_id][2].extend(r.value for r in b)
            else:
                open_[b.producer_id] = (b.producer_epoch, b.base_offset, [r.value for r in b])
        if open_:
            found[p] = sorted((pid, epoch, first) for pid, (epoch, first, _) in open_.items())
    return found, values


def _assert_none_open(bs, topic, partitions):
    """No transaction open on any partition; else the open partitions' logs, batch by batch."""
    still_open = _open_partitions(bs, topic, partitions)
    assert still_open == {}, "open (producer, epoch, first offset): %r\n%s" % (
        still_open, "\n".join(_log_of(bs, topic, p) for p in still_open))


def _batches_of(bs, topic, partition):
    """(the Fetch answer's partition, [every batch of the partition's log, uncommitted ones too])."""
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    from kafkacodec.records import iter_batches

    R = m.FetchRequest
    batches, offset = [], 0
    with KafkaConnection.connect(bs, timeout=10, strict=False) as conn:
        md = conn.request("Metadata", m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name=topic)]))
        while True:
            fetched = conn.request("Fetch", R(
                replica_id=-1, max_wait_ms=1, min_bytes=0, max_bytes=1 << 20, isolation_level=0, session_id=0,
                session_epoch=-1, rack_id="", forgotten_topics_data=[],
                topics=[R.FetchTopic(topic=topic, topic_id=md.topics[0].topic_id, partitions=[R.FetchPartition(
                    partition=partition, fetch_offset=offset, log_start_offset=-1, partition_max_bytes=1 << 20,
                    current_leader_epoch=-1, last_fetched_epoch=-1)])]))
            part = fetched.responses[0].partitions[0]
            assert part.error_code == 0, f"Fetch of {topic}-{partition} at {offset}: error {part.error_code}"
            got = list(iter_batches(part.records or b""))
            batches += got
            if not got or got[-1].next_offset >= part.high_watermark:
                return part, batches
            offset = got[-1].next_offset


def _log_of(bs, topic, partition):
    """One line per batch of the partition's log, uncommitted ones too."""
    part, batches = _batches_of(bs, topic, partition)
    lines = [f"partition {partition}: high watermark {part.high_watermark}, last stable {part.last_stable_offset}"]
    for b in batches:
        kind = f"control {b.control_record()}" if b.is_control else f"{b.record_count} records"
        lines.append(f"  {b.base_offset}-{b.last_offset} producer {b.producer_id} epoch {b.producer_epoch} "
                     f"transactional {b.is_transactional}: {kind}")
    return "\n".join(lines)


def _crash_and_restart(live_broker, tmp_path, point):
    bs = live_broker.bootstrap
    source, target = f"crash-src-{uuid.uuid4().hex[:8]}", f"crash-dst-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {source: SOURCE_PARTITIONS, target: TARGET_PARTITIONS})
    produce_with_confluent(bs, source, [(b"k%d" % i, b"v%d" % i, [], None, i % SOURCE_PARTITIONS)
                                        for i in range(ROWS)])
    (tmp_path / "crash_hooks.py").write_text(_HOOKS)
    (tmp_path / "driver.py").write_text(_DRIVER)
    ckpt = str(tmp_path / "ckpt")
    marks = tmp_path / f"marks-{point}"
    marks.mkdir()

    proc, log = _run(tmp_path, bs, source, target, ckpt, point, marks, CRASH_TASKS)
    want = _POINTS[point]
    deadline = time.monotonic() + 150
    try:
        while not want <= set(os.listdir(marks)):
            assert proc.poll() is None, f"the driver ended before {point}: {_tail(log)}"
            assert time.monotonic() < deadline, f"the driver did not reach {point}: {_tail(log)}"
            time.sleep(0.1)
        time.sleep(0.5)  # the held tasks' rows are on the broker
    finally:
        _kill_group(proc)
    assert _open_partitions(bs, target, TARGET_PARTITIONS), "the crash left no transaction open: nothing tested"

    proc, log = _run(tmp_path, bs, source, target, ckpt, "", marks)
    try:
        assert proc.wait(150) == 0, _tail(log)
    finally:
        if proc.poll() is None:
            _kill_group(proc)
    assert "progress" in _tail(log)
    # right after the restart, well inside the 20 s transaction timeout (which Tansu does not apply anyway)
    _assert_none_open(bs, target, TARGET_PARTITIONS)
    got = _committed_values(bs, target, TARGET_PARTITIONS)
    assert sorted(got) == sorted(b"v%d" % i for i in range(ROWS))
    # Spark's run id reached the sink: recovery ran once for the run, not at every batch
    from kafkacodec.client import Admin
    from kafkacodec.spark import _live_sink as S

    with open(os.path.join(ckpt, "metadata")) as f:
        query = json.load(f)["id"]
    with Admin({"bootstrap.servers": bs}) as admin:
        assert S._fetch(admin, f"{S.DEFAULT_PREFIX}-{query}.run", target, [0], 10)[0] > 0


# 45-70 s each (two Spark drivers): test_first_commit_of_a_run_ends_what_a_crashed_run_left_open
# covers the same without Spark in the default suite
@pytest.mark.slow
@pytest.mark.timeout(330)
@pytest.mark.parametrize("point", ["open", "some-prepared", "prepared", "committing"])
def test_driver_killed_at_each_commit_point(live_broker, tmp_path, point):
    """Batch 1 of 8 tasks: two tasks mid-transaction; six prepared and two mid-transaction
    (the issue's case); all prepared, nothing recorded; recorded, one committed."""
    _crash_and_restart(live_broker, tmp_path, point)


def _batch(lo, hi):
    import pyarrow as pa

    return [pa.RecordBatch.from_pydict({"value": [b"r%d" % i for i in range(lo, hi)]})]


def _tasks(opts, query, batch_id, run, pieces):
    """One write_task per (lo, hi) piece (None: a task without rows), as Spark's run `run` would."""
    from kafkacodec.spark import _live_sink as S

    return [S.write_task(_batch(*piece) if piece else [], opts, i, query_id=query, batch_id=batch_id, run_id=run)
            for i, piece in enumerate(pieces)]


def test_first_commit_of_a_run_ends_what_a_crashed_run_left_open(live_broker, monkeypatch):
    """Without Spark: run 1 commits batch 0 (4 tasks), its driver dies with batch 1's
    4 tasks prepared.  Run 2 replays batch 1 with 2 tasks, the second without rows:
    its commit fences ids 1-3 (0 was fenced by its task), the rows are there once and
    nothing stays open; run 2's next batch fences nothing.  Run 3 dies the same way in
    batch 2 and run 4's first call is an abort: it ends them too."""
    from kafkacodec.client import transaction
    from kafkacodec.spark import _live_sink as S

    bs = live_broker.bootstrap
    topic = f"sink-runs-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 2})
    opts = S.parse_sink_options({"kafka.bootstrap.servers": bs, "topic": topic})
    query = uuid.uuid4().hex
    fenced = []
    real_fence = transaction.fence_transactional_id

    def fence(client, txn_id, **kw):
        fenced.append(txn_id)
        return real_fence(client, txn_id, **kw)

    monkeypatch.setattr(transaction, "fence_transactional_id", fence)
    ids = [S.transactional_id(opts, query, i) for i in range(4)]

    S.commit_stream(opts, _tasks(opts, query, 0, "run-1", [(0, 25), (25, 50), (50, 75), (75, 100)]), 0, query)
    assert fenced == []  # a query's first run: its tasks hold every id below its task count
    crashed = _tasks(opts, query, 1, "run-1", [(100, 125), (125, 150), (150, 175), (175, 200)])
    assert all(m.transactional_id for m in crashed)
    assert _open_partitions(bs, topic, 2)

    replay = _tasks(opts, query, 1, "run-2", [(100, 200), None])
    S.commit_stream(opts, replay, 1, query)
    _assert_none_open(bs, topic, 2)
    assert fenced == ids[1:]
    assert sorted(_committed_values(bs, topic, 2)) == sorted(b"r%d" % i for i in range(200))
    fenced.clear()
    S.commit_stream(opts, _tasks(opts, query, 2, "run-2", [(200, 210), None]), 2, query)
    assert fenced == []  # recovery once per run

    crashed = _tasks(opts, query, 3, "run-3", [(210, 220), (220, 230), (230, 240), (240, 250)])
    assert _open_partitions(bs, topic, 2)
    S.abort_stream(opts, [_tasks(opts, query, 3, "run-4", [(210, 250)])[0], None], 3, query)
    _assert_none_open(bs, topic, 2)
    assert sorted(fenced) == sorted(ids[1:] + ids[1:2])  # recovery; then the failed task's id, as before
    assert sorted(_committed_values(bs, topic, 2)) == sorted(b"r%d" % i for i in range(210))


def _recording_fences(monkeypatch):
    """The transactional ids fenced from now on, in order."""
    from kafkacodec.client import transaction

    fenced = []
    real_fence = transaction.fence_transactional_id

    def fence(client, txn_id, **kw):
        fenced.append(txn_id)
        return real_fence(client, txn_id, **kw)

    monkeypatch.setattr(transaction, "fence_transactional_id", fence)
    return fenced


def _id_groups(bs, opts, query):
    """The transactional ids of `query` recorded in their own groups (<progress group>.id.<k>)."""
    from kafkacodec.client import Admin
    from kafkacodec.spark import _live_sink as S

    prefix = f"{S.progress_group(opts, query)}.id."
    with Admin({"bootstrap.servers": bs}) as admin:
        return sorted(int(g.group_id[len(prefix):]) for g in admin.list_consumer_groups(timeout=10)
                      if g.group_id.startswith(prefix))


def test_crashed_batch_with_more_tasks_than_any_before_is_ended(live_broker, monkeypatch):
    """Batch 0 is done with 4 tasks; run 1 dies with batch 1's 8 tasks prepared.  Run 2
    replays batch 1 with 2 tasks: ids 4-7 are above every bound it knows, but their
    tasks recorded themselves before their InitProducerId (ids 0-3 did not: batch 0 had
    4 tasks), so its commit fences them too and nothing stays open.  The same when
    the next run's first call is an abort: the crashed ids above its own are fenced.
    Every recorded id's group is deleted once its transaction has ended."""
    from kafkacodec.client import Admin
    from kafkacodec.spark import _live_sink as S

    bs = live_broker.bootstrap
    topic = f"sink-wide-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 3})
    opts = S.parse_sink_options({"kafka.bootstrap.servers": bs, "topic": topic})
    query = uuid.uuid4().hex
    fenced = _recording_fences(monkeypatch)
    ids = [S.transactional_id(opts, query, i) for i in range(8)]

    first = _tasks(opts, query, 0, "run-1", [(i * 25, i * 25 + 25) for i in range(4)])
    assert all(m.recorded_id for m in first)  # no batch is done yet: every id is above the bound 0
    assert _id_groups(bs, opts, query) == [0, 1, 2, 3]
    S.commit_stream(opts, first, 0, query)
    assert _id_groups(bs, opts, query) == []  # committed: the groups are deleted
    with Admin({"bootstrap.servers": bs}) as admin:
        assert S.read_head(admin, opts, query, timeout=10) == S.Progress(batch=0, tasks=4)

    crashed = _tasks(opts, query, 1, "run-1", [(100 + i * 20, 120 + i * 20) for i in range(8)])
    assert all(m.transactional_id for m in crashed)
    assert [m.partition_id for m in crashed if m.recorded_id] == [4, 5, 6, 7]
    assert _id_groups(bs, opts, query) == [4, 5, 6, 7]  # ids below the done batch's 4 tasks cost nothing
    assert _open_partitions(bs, topic, 3)

    replay = _tasks(opts, query, 1, "run-2", [(100, 200), (200, 260)])
    assert not any(m.recorded_id for m in replay)
    S.commit_stream(opts, replay, 1, query)
    _assert_none_open(bs, topic, 3)
    assert sorted(fenced) == sorted(ids[2:])  # 2, 3: below the bound; 4-7: recorded
    assert _id_groups(bs, opts, query) == []
    assert sorted(_committed_values(bs, topic, 3)) == sorted(b"r%d" % i for i in range(260))

    # run 3 dies in batch 2 with 8 tasks; run 4's first call aborts batch 2 written by 6
    # tasks: its own ids 0-5 (4 and 5 recorded again) are not fenced, the crashed 6-7 are
    # (the bound is 6: ids 6-7 are found only through their groups)
    _tasks(opts, query, 2, "run-3", [(260 + i * 5, 265 + i * 5) for i in range(8)])
    assert _id_groups(bs, opts, query) == [4, 5, 6, 7]
    fenced.clear()
    S.abort_stream(opts, _tasks(opts, query, 2, "run-4", [(260 + i * 5, 265 + i * 5) for i in range(6)]), 2, query)
    assert fenced == ids[6:]
    _assert_none_open(bs, topic, 3)
    assert _id_groups(bs, opts, query) == []


def test_without_list_groups_recovery_fences_below_the_bound_only(live_broker, monkeypatch, caplog):
    """A broker without ListGroups and DeleteGroups (as librdkafka's mock cluster):
    commits succeed, the recorded ids' groups stay, recovery fences the ids below the
    bound as before, and the crashed batch's ids 4-7 stay open (the documented limit)."""
    import logging

    from kafkacodec.client import Admin
    from kafkacodec.client import errors as E
    from kafkacodec.spark import _live_sink as S

    bs = live_broker.bootstrap
    topic = f"sink-nolist-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 3})
    opts = S.parse_sink_options({"kafka.bootstrap.servers": bs, "topic": topic})
    query = uuid.uuid4().hex
    ids = [S.transactional_id(opts, query, i) for i in range(8)]

    def unsupported(self, *args, **kw):
        raise E.error_for(35, "ListGroups or DeleteGroups")

    caplog.set_level(logging.DEBUG, logger=S.__name__)
    with monkeypatch.context() as patched:
        patched.setattr(Admin, "delete_consumer_groups", unsupported)
        S.commit_stream(opts, _tasks(opts, query, 0, "run-1", [(i * 25, i * 25 + 25) for i in range(4)]), 0, query)
        assert "cannot delete groups" in caplog.text
        _tasks(opts, query, 1, "run-1", [(100 + i * 20, 120 + i * 20) for i in range(8)])

        patched.setattr(Admin, "list_consumer_groups", unsupported)
        fenced = _recording_fences(patched)
        S.commit_stream(opts, _tasks(opts, query, 1, "run-2", [(100, 200), (200, 260)]), 1, query)
        assert sorted(fenced) == sorted(ids[2:4])
        assert "cannot list groups" in caplog.text
        assert _open_partitions(bs, topic, 3)
    assert _id_groups(bs, opts, query) == list(range(8))
    with Admin({"bootstrap.servers": bs}) as admin:  # end what the test left open
        for txn_id in ids[4:]:
            admin.fence_transactional_id(txn_id, timeout=10)
