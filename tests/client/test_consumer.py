"""The consumer against real brokers: records written by librdkafka (every codec, headers,
transactions) come back identically as records and as Arrow; groups shared with
librdkafka split partitions; seek, reset, commit, pause."""
import threading
import time
import uuid

import pytest

from kafkacodec.client import Consumer, TopicPartition
from kafkacodec.client import errors as E
from kafkacodec.records import Record

_peers = pytest.importorskip("_peers")
confluent_kafka = pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(90)]

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]




def _consumer(bootstrap, **conf):
    base = {"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest", "request.timeout.ms": 10000}
    base.update(conf)
    return Consumer(base)


def _drain(consumer, n, timeout=20.0, arrow=False):
    out = []
    deadline = time.monotonic() + timeout
    while len(out) < n and time.monotonic() < deadline:
        if arrow:
            rb = consumer.poll_arrow(0.5)
            out.extend(rb.to_pylist())
        else:
            out.extend(consumer.poll(0.5))
    return out


def _sample(codec, n=300):
    out = []
    for i in range(n):
        key = None if i % 7 == 0 else b"key-%d" % i
        value = None if i % 11 == 5 else (b"value-%d-" % i) * (1 + i % 5)
        headers = [("h1", b"x%d" % i), ("empty", None)] if i % 3 == 0 else []
        out.append((key, value, headers, 1_700_000_000_000 + i, i % 3))
    return out


@pytest.mark.parametrize("codec", CODECS)
def test_records_from_librdkafka_identical(broker, codec):
    kind, bootstrap = broker
    topic = broker.topic(3, "cc")
    sample = _sample(codec)
    _peers.produce_with_confluent(bootstrap, topic, sample, compression_type=codec, linger_ms=20)
    expected = _peers.consume_with_confluent(bootstrap, topic, len(sample))
    assert len(expected) == len(sample)
    with _consumer(bootstrap) as c:
        c.assign([(topic, p) for p in range(3)])
        got = _drain(c, len(sample))
        assert len(got) == len(sample)
        mine = sorted(((r.key, r.value, list(r.headers), r.timestamp, r.offset, r.partition) for r in got),
                      key=lambda r: (r[5], r[4]))
        assert mine == expected
        # order kept within each partition
        for p in range(3):
            offsets = [r.offset for r in got if r.partition == p]
            assert offsets == sorted(offsets) == list(range(len(offsets)))
        c.seek_to_beginning()
        rows = _drain(c, len(sample), arrow=True)
        assert len(rows) == len(sample)
        arrow = sorted(((r["key"], r["value"], [(h["key"], h["value"]) for h in r["headers"]],
                         int(r["timestamp"].timestamp() * 1000), r["offset"], r["partition"]) for r in rows),
                       key=lambda r: (r[5], r[4]))
        assert arrow == expected
        assert all(r["topic"] == topic for r in rows)


def _transactional_produce(bootstrap, topic):
    txn = f"kc-txn-{uuid.uuid4().hex[:6]}"
    prod = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "transactional.id": txn, "linger.ms": 5})
    prod.init_transactions(20)
    expected = []
    for round_, abort in enumerate([False, True, False, True, False]):
        prod.begin_transaction()
        for i in range(5):
            value = b"%s-%d-%d" % (b"aborted" if abort else b"committed", round_, i)
            prod.produce(topic, key=b"k", value=value, partition=i % 2)
            if not abort:
                expected.append(value)
        prod.flush(20)
        (prod.abort_transaction if abort else prod.commit_transaction)(20)
    return expected


def test_read_committed_hides_aborted_transactions(broker):
    kind, bootstrap = broker
    topic = broker.topic(2, "cc")
    committed = _transactional_produce(bootstrap, topic)
    with _consumer(bootstrap, isolation_level="read_committed", check_crcs=kind != "mock") as c:
        c.assign([(topic, 0), (topic, 1)])
        got = _drain(c, len(committed), timeout=10)
        got += c.poll(0.5)
        assert sorted(r.value for r in got) == sorted(committed)
        c.seek_to_beginning()
        rows = _drain(c, len(committed), arrow=True, timeout=10)
        rows += c.poll_arrow(0.5).to_pylist()
        assert sorted(r["value"] for r in rows) == sorted(committed)
    with _consumer(bootstrap, check_crcs=kind != "mock") as c:
        c.assign([(topic, 0), (topic, 1)])
        everything = _drain(c, 25, timeout=10)
        assert len(everything) == 25
        assert sum(r.value.startswith(b"aborted") for r in everything) == 10


@pytest.mark.timeout(150)
def test_group_shared_with_librdkafka_splits_partitions(broker):
    kind, bootstrap = broker
    topic = broker.topic(6, "cc")
    group = f"g-{uuid.uuid4().hex[:6]}"
    # librdkafka's mock cluster ends a sync when the leader's SyncGroup comes: a follower whose
    # SyncGroup comes after it (librdkafka as leader answers in C, often first) is refused and
    # joins again, and the mock then holds every JoinGroup session.timeout.ms - 1 s.  A short
    # session and a long deadline keep such rounds from failing the test; Kafka has no such race.
    session_ms = 6000 if kind == "mock" else 10000
    ours = _consumer(bootstrap, group_id=group, session_timeout_ms=session_ms, heartbeat_interval_ms=500,
                     partition_assignment_strategy="range")
    theirs = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "log_level": 3,
                                       "auto.offset.reset": "earliest", "partition.assignment.strategy": "range",
                                       "session.timeout.ms": session_ms, "heartbeat.interval.ms": 500})
    try:
        ours.subscribe([topic])
        theirs.subscribe([topic])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            ours.poll(0.2)
            theirs.poll(0.2)
            mine, other = ours.assignment(), theirs.assignment()
            if mine and other and len(mine) + len(other) == 6:
                break
        mine = {tp.partition for tp in ours.assignment()}
        other = {tp.partition for tp in theirs.assignment()}
        assert mine and other and not mine & other and mine | other == set(range(6))
        records = [(b"k", b"v-%d" % i, None, None, i % 6) for i in range(600)]
        _peers.produce_with_confluent(bootstrap, topic, records)
        seen_ours, seen_theirs = [], []
        deadline = time.monotonic() + 30
        while len(seen_ours) + len(seen_theirs) < 600 and time.monotonic() < deadline:
            seen_ours += [(r.partition, r.offset) for r in ours.poll(0.2)]
            for msg in theirs.consume(100, timeout=0.2):
                if not msg.error():
                    seen_theirs.append((msg.partition(), msg.offset()))
        assert {p for p, _ in seen_ours} <= mine and {p for p, _ in seen_theirs} <= other
        everything = sorted(seen_ours + seen_theirs)
        assert everything == sorted((p, o) for p in range(6) for o in range(100))
    finally:
        ours.close()
        theirs.close()


def test_members_joining_and_leaving_lose_and_duplicate_nothing(broker):
    kind, bootstrap = broker
    if kind == "mock":
        # the mock answers OffsetCommit with REBALANCE_IN_PROGRESS once a rebalance started, so the
        # commit on revoke cannot land there (Kafka accepts it from the current generation)
        pytest.skip("librdkafka's mock rejects commits during a rebalance")
    topic = broker.topic(4, "cc")
    group = f"g-{uuid.uuid4().hex[:6]}"
    total = 2000
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v-%d" % i, None, None, i % 4) for i in range(total)])
    conf = dict(group_id=group, session_timeout_ms=10000, heartbeat_interval_ms=300, max_poll_records=10,
                auto_commit_interval_ms=200)
    seen = []
    a = _consumer(bootstrap, **conf)
    a.subscribe([topic])
    b = None
    b_seen = 0
    left_at = None
    try:
        deadline = time.monotonic() + 60
        while len(seen) < total and time.monotonic() < deadline:
            seen += [(r.partition, r.offset) for r in a.poll(0.1)]
            if b is not None:
                got = [(r.partition, r.offset) for r in b.poll(0.1)]
                b_seen += len(got)
                seen += got
                if b_seen >= 100:
                    b.close()  # leaves after committing what it consumed
                    b = None
                    left_at = len(seen)
            elif left_at is None and len(seen) >= 200:
                b = _consumer(bootstrap, **conf)  # joins: the group rebalances, commits on revoke
                b.subscribe([topic])
        assert left_at is not None and left_at < total  # the remaining member took over unfinished work
        assert len(seen) == len(set(seen)) == total
        for p in range(4):
            assert sorted(o for q, o in seen if q == p) == list(range(total // 4))
    finally:
        a.close()
        if b is not None:
            b.close()


def test_commit_committed_seek_reset_pause(broker):
    kind, bootstrap = broker
    topic = broker.topic(2, "cc")
    group = f"g-{uuid.uuid4().hex[:6]}"
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v-%d" % i, None, 1_700_000_000_000 + i, 0)
                                                     for i in range(50)], linger_ms=0, batch_num_messages=10)
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    with _consumer(bootstrap, group_id=group, enable_auto_commit=False) as c:
        c.assign([tp0, tp1])
        assert c.committed([tp0]) == {tp0: None}
        got = _drain(c, 20)
        c.commit({tp0: 20})
        assert c.committed([tp0, tp1]) == {tp0: 20, tp1: None}
        c.seek(tp0, 45)
        assert [r.offset for r in _drain(c, 5)] == [45, 46, 47, 48, 49]
        assert c.position(tp0) == 50
        if kind == "mock":  # Tansu answers a fetch beyond the end with no records and no error
            # far beyond the end: OFFSET_OUT_OF_RANGE, then auto.offset.reset=earliest
            c.seek(tp0, 10_000)
            assert [r.offset for r in _drain(c, 3)][:1] == [0]
        c.pause([tp0])
        c.seek(tp0, 0)
        assert c.poll(0.5) == [] and c.paused() == {tp0}
        c.resume([tp0])
        assert _drain(c, 1)[0].offset == 0
    with _consumer(bootstrap, group_id=group, enable_auto_commit=False) as c:
        c.assign([tp0])
        assert _drain(c, 1)[0].offset == 20  # from the committed offset
    with _consumer(bootstrap, auto_offset_reset="latest") as c:
        c.assign([tp0])
        if kind != "tansu":  # Tansu answers ListOffsets(latest) with the last batch's base + 1
            assert c.poll(1.0) == []
            assert c.position(tp0) == 50


def test_one_record_at_a_time_sees_seek_pause_assign_and_commits_automatically(broker):
    """poll(max_records=1) takes the next record of the fetch the last poll left part-way
    without the whole poll: every record comes once and in order, and a seek, a pause, a
    new assignment in the middle of a fetch, and the automatic commit are all honoured."""
    kind, bootstrap = broker
    topic = broker.topic(2, "one")
    group = f"g-{uuid.uuid4().hex[:6]}"
    # 200 records a partition in few batches: each fetch holds many, and polls of one stop inside it
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v-%d" % i, None, 1_700_000_000_000 + i, i % 2)
                                                     for i in range(400)], linger_ms=50)
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)

    def one(c, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = c.poll(0.5, max_records=1)
            if got:
                assert len(got) == 1
                return got[0]
        raise AssertionError(f"no record; positions {c.position(tp0)}, {c.position(tp1)}, paused {c.paused()}")

    with _consumer(bootstrap, group_id=group, enable_auto_commit=True, auto_commit_interval_ms=200) as c:
        c.assign([tp0, tp1])
        seen = {0: [], 1: []}
        for _ in range(40):
            r = one(c)
            seen[r.partition].append(r.offset)
            assert c.position(TopicPartition(topic, r.partition)) == r.offset + 1
        assert all(offsets == list(range(len(offsets))) for offsets in seen.values())
        # paused in the middle of its fetch: nothing of it comes, the other partition's records do
        p = r.partition
        tp = TopicPartition(topic, p)
        c.pause([tp])
        assert {one(c).partition for _ in range(5)} == {1 - p}
        c.resume([tp])
        # a seek inside the fetch being handed out (the other partition's fetched records may
        # come first)
        c.seek(tp, 2)
        while True:
            r = one(c)
            if r.partition == p:
                assert r.offset == 2
                break
        # a new assignment without the other partition, in the middle of its fetch if it has one
        c.assign([tp])
        assert [one(c).offset for _ in range(5)] == [3, 4, 5, 6, 7]
        # the automatic commit still runs while every poll is a quick one
        last = None
        for _ in range(150):
            last = one(c).offset
            time.sleep(0.01)
            committed = c.committed([tp])[tp]
            if committed is not None and committed > 8:
                assert committed <= last + 1
                break
        else:
            raise AssertionError("no automatic commit while polling one record at a time")



@pytest.mark.timeout(60)
def test_a_poll_with_the_next_record_ready_keeps_every_rule_of_poll(broker):
    """The quick way to the next record of a fetch left part-way refuses what every poll
    refuses, waits no longer than its timeout for another thread's poll, and ends with close."""
    kind, bootstrap = broker
    topic = broker.topic(1, "ready")
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v-%d" % i, None, 1_700_000_000_000 + i, 0)
                                                     for i in range(200)], linger_ms=50)
    tp = TopicPartition(topic, 0)
    c = _consumer(bootstrap, group_id=f"g-{uuid.uuid4().hex[:6]}", enable_auto_commit=False)
    with c:
        c.assign([tp])
        deadline = time.monotonic() + 10
        while not c.poll(0.5, max_records=1):
            assert time.monotonic() < deadline, "no record"
        assert c._buffer.current is not None, "the first fetch was not left part-way"
        for bad in ({"timeout": -1}, {"timeout": "1"}, {"timeout": True}, {"max_records": 0},
                    {"max_records": 1.5}):
            with pytest.raises(E.InvalidArgumentError):
                c.poll(**dict({"timeout": 0.5, "max_records": 1}, **bad))
        assert c.poll(1, max_records=1)[0].offset == 1  # an int timeout is seconds too; nothing was lost
        # another thread's poll holds the turn for 3 s: this one gives up at its timeout
        held, done = threading.Event(), threading.Event()

        def hold_the_turn():
            with c._turn:
                held.set()
                done.wait(5)

        threading.Thread(target=hold_the_turn).start()
        held.wait(5)
        threading.Timer(3.0, done.set).start()
        began = time.monotonic()
        assert c.poll(0.2, max_records=1) == []
        assert time.monotonic() - began < 2.0  # not the 3 s the turn is held (slack for a loaded machine)
        done.wait(5)
        assert c.poll(1.0, max_records=1)[0].offset == 2
    with pytest.raises(E.ClientClosedError):
        c.poll(0.5, max_records=1)


class _Row(Record):
    """A record class as an application might make one: methods of its own where Record has fields."""

    def offset(self):
        return ("row", vars(Record)["offset"].__get__(self))


def test_record_class_makes_the_records_and_positions_stay_right(broker):
    kind, bootstrap = broker
    topic = broker.topic(3, "cc")
    sample = _sample("none", 60)
    _peers.produce_with_confluent(bootstrap, topic, sample, linger_ms=5)
    with _consumer(bootstrap, record_class=_Row, max_poll_records=7) as c:
        c.assign([(topic, p) for p in range(3)])
        got = _drain(c, len(sample))
        assert len(got) == len(sample) and {type(r) for r in got} == {_Row}
        by_partition = {p: [r.offset()[1] for r in got if r.partition == p] for p in range(3)}
        assert all(offsets == list(range(len(offsets))) for offsets in by_partition.values())
        # the positions come from the records' offset field, not from the class's `offset`
        assert {p: c.position(TopicPartition(topic, p)) for p in range(3)} == \
            {p: len(offsets) for p, offsets in by_partition.items()}
        c.seek(TopicPartition(topic, 0), 3)  # within a fetched batch: the records before it are skipped
        again = _drain(c, len(by_partition[0]) - 3)
        assert [r.offset()[1] for r in again] == by_partition[0][3:]
    with pytest.raises(E.ConfigError, match="record_class: expected kafkacodec.records.Record"):
        Consumer({"bootstrap.servers": "127.0.0.1:1", "record_class": dict})


def test_unknown_setting_and_bad_value_name_the_setting():
    with pytest.raises(E.ConfigError, match="fetch.max.bytez"):
        Consumer({"bootstrap.servers": "127.0.0.1:1", "fetch.max.bytez": 1})
    with pytest.raises(E.ConfigError, match="enable.auto.commit"):
        Consumer({"bootstrap.servers": "127.0.0.1:1"}, enable_auto_commit="maybe")


def test_poll_arrow_needs_no_pandas_and_records_carry_their_partition(broker):
    """pyarrow imports pandas (about half a second) when it infers a type from Python
    values; the Arrow path builds its scalars from buffers, so a fresh process polling
    Arrow (rows and an empty batch) never loads pandas."""
    import subprocess
    import sys
    _, bootstrap = broker
    topic = broker.topic(2, "cc")
    _peers.produce_with_confluent(bootstrap, topic, [(b"k%d" % i, b"v%d" % i) for i in range(50)])
    script = f"""
import sys, time
import pyarrow
from kafkacodec.client import Consumer, TopicPartition
c = Consumer({{"bootstrap.servers": {bootstrap!r}, "auto.offset.reset": "earliest"}})
c.assign([TopicPartition({topic!r}, 0), TopicPartition({topic!r}, 1)])
rows = []
deadline = time.monotonic() + 20
while len(rows) < 50 and time.monotonic() < deadline:
    rows += c.poll_arrow(0.5).to_pylist()
empty = c.poll_arrow(0.2)
c.seek(TopicPartition({topic!r}, 0), 3)
again = c.poll_arrow(5).to_pylist()
c.close()
assert empty.num_rows == 0 and empty.schema.names[:2] == ["topic", "partition"], empty.schema
assert sorted(r["key"] for r in rows) == sorted(b"k%d" % i for i in range(50))
assert again and again[0]["offset"] == 3 and again[0]["partition"] == 0
print("pandas" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
    with _consumer(bootstrap) as c:
        c.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        recs = _drain(c, 50)
    from kafkacodec.records import Record
    assert all(type(r) is Record for r in recs)  # the decoder's own records, no wrapper
    assert {(r.topic, r.partition) for r in recs} == {(topic, 0), (topic, 1)}
    assert all(r.key.startswith(b"k") for r in recs)


def test_close_while_fetching_logs_nothing(broker, caplog):
    """close() racing with the I/O thread's fetch loop: quiet, no "ticker failed" error."""
    import logging
    kind, bootstrap = broker
    topic = broker.topic(3, "cc")
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v" * 100, None, None, i % 3) for i in range(3000)])
    caplog.set_level(logging.DEBUG, logger="kafkacodec")
    for _ in range(5):  # fetches leave all the time: hardly any waiting at the broker
        c = _consumer(bootstrap, fetch_max_wait_ms=10)
        c.assign([(topic, p) for p in range(3)])
        assert _drain(c, 1)
        c.close()
    # the race made certain: the I/O thread stopped, the fetcher still has partitions to fetch
    c = _consumer(bootstrap, group_id=f"g-{uuid.uuid4().hex[:6]}", enable_auto_commit=False)
    c.assign([(topic, p) for p in range(3)])
    assert _drain(c, 1)
    c._client.close()
    c._fetcher.tick(time.monotonic())  # sends nothing and raises nothing
    c._group.tick(time.monotonic())
    started = time.monotonic()
    c.close()
    assert time.monotonic() - started < 1
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not noisy, [r.getMessage() for r in noisy]


def test_assign_with_group_starts_from_committed_then_reset(broker):
    kind, bootstrap = broker
    topic = broker.topic(2, "cc")
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v%d" % i, None, None, i % 2) for i in range(40)])
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)
    group = f"g-{uuid.uuid4().hex[:6]}"
    with _consumer(bootstrap, group_id=group, enable_auto_commit=False) as c:
        c.commit({tp0: 12})
    with _consumer(bootstrap, group_id=group, enable_auto_commit=False) as c:
        c.assign([tp0, tp1])
        got = _drain(c, 28)
        firsts = {p: min(r.offset for r in got if r.partition == p) for p in (0, 1)}
        assert firsts == {0: 12, 1: 0}  # committed where there is one, else auto.offset.reset
        assert len(got) == 28
        if kind == "mock":  # Tansu answers ListOffsets(latest) with the last batch's base + 1
            assert c.get_watermark_offsets(tp0) == (0, 20)
        low, high = c.get_watermark_offsets(tp1, cached=True)
        assert high == 20 and low in (0, None)
        assert set(c.watermarks()) == {tp0, tp1}
        gm = c.group_metadata()  # assign mode: the group's id, no membership
        assert (gm.group_id, gm.generation_id, gm.member_id) == (group, -1, "")
    with pytest.raises(E.IllegalStateError):
        with _consumer(bootstrap) as c:
            c.get_watermark_offsets(tp0, cached=True)
    with pytest.raises(E.ConfigError, match="group.id"):
        with _consumer(bootstrap) as c:
            c.group_metadata()


def test_group_metadata_commits_offsets_with_a_transaction(broker):
    from kafkacodec.client import Producer
    kind, bootstrap = broker
    topic = broker.topic(1, "cc")
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v%d" % i) for i in range(10)])
    group = f"g-{uuid.uuid4().hex[:6]}"
    with _consumer(bootstrap, group_id=group, enable_auto_commit=False, session_timeout_ms=10000,
                   heartbeat_interval_ms=300) as c:
        c.subscribe([topic])
        got = _drain(c, 10)
        assert len(got) == 10
        gm = c.group_metadata()
        assert gm.group_id == group and gm.generation_id >= 0 and gm.member_id
        with Producer({"bootstrap.servers": bootstrap, "transactional.id": f"t-{uuid.uuid4().hex[:6]}"}) as p:
            p.init_transactions(30)
            p.begin_transaction()
            p.send_offsets_to_transaction({TopicPartition(topic, 0): 10}, gm, 30)
            p.commit_transaction(30)  # the broker checked the member's generation and id
        if kind == "tansu":  # the mock's OffsetFetch does not show what TxnOffsetCommit committed
            assert c.committed([TopicPartition(topic, 0)]) == {TopicPartition(topic, 0): 10}
