"""Share groups (KIP-932) on librdkafka's mock cluster (3 brokers), kafkacodec's ShareConsumer
beside librdkafka's: no record ACCEPTed by two members, every record ends accepted, rejected or
archived after the delivery limit, and RELEASEd records and a killed member's come back with
their delivery_count one higher.

The mock closes every share session of a broker when any connection to that broker closes
(its sessions are per broker), releasing what they hold: the records are produced by a
producer kept open meanwhile, so only the faults a test makes move records.
"""
import collections
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import _peers
from kafkacodec.client import Producer
from kafkacodec.client.share import AcknowledgeType, AsyncShareConsumer, ShareConsumer

pytestmark = pytest.mark.timeout(60)


def _share(bs, group, **extra):
    return ShareConsumer({"bootstrap.servers": bs, "group.id": group, "fetch.max.wait.ms": 100, **extra})


def _joined(consumers, timeout=10.0):
    """Poll until every consumer has its assignment and has fetched once: a share group starts
    at the offset its partition's end had at the first ShareFetch."""
    deadline = time.monotonic() + timeout
    for c in consumers:
        while not c.assignment():
            assert time.monotonic() < deadline, "share consumer not assigned"
            assert c.poll(0.05) == []
    for c in consumers:
        while not _fetching(c):
            assert time.monotonic() < deadline, "share consumer not fetching"
            assert c.poll(0.05) == []


def _fetching(c):
    """Whether every leader of c's partitions has answered a ShareFetch past the one opening its
    session (the mock acquires nothing in that one: the group's start offset is set by the next)."""
    md = c._client.metadata
    leaders = {md.leader_for(tp.topic, tp.partition) for tp in c.assignment()}
    sessions = c._fetcher.sessions
    return all(n in sessions and sessions[n].epoch >= 2 for n in leaders)


def _produce(producer, topic, n, partitions):
    for i in range(n):
        producer.send(topic, value=b"v%d" % i, key=b"k%d" % i, partition=i % partitions)
    producer.flush(10)


class Outcomes:
    """Acknowledgement outcomes by member, from each member's acknowledgement-commit callback."""

    def __init__(self):
        self.lock = threading.Lock()
        self.accepted = collections.defaultdict(list)   # (partition, offset) -> [member]
        self.failed = []

    def callback(self, member):
        def cb(offsets, error):
            with self.lock:
                for tp, done in offsets.items():
                    for o in done:
                        if error is None:
                            self.accepted[(tp.partition, o)].append(member)
                        else:
                            self.failed.append((member, tp.partition, o, error))
        return cb

    def confluent_callback(self, member):
        def cb(offsets, error):
            with self.lock:
                for tp, done in offsets.items():
                    for o in done:
                        if error is None:
                            self.accepted[(tp.partition, o)].append(member)
                        else:
                            self.failed.append((member, tp.partition, o, error))
        return cb


@pytest.fixture
def producer(mock3):
    p = Producer({"bootstrap.servers": mock3, "linger.ms": 5})
    yield p
    p.close()


@pytest.mark.timeout(120)  # past the loop's own deadline, so that a slow split fails with what was accepted
def test_two_members_and_librdkafka_split_every_record_once(mock3, producer):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    topic = _peers.create_topic(mock3, "share-mixed", 3) or "share-mixed"
    outcomes = Outcomes()
    ours = [_share(mock3, "g-mixed") for _ in range(2)]
    for i, c in enumerate(ours):
        c.set_acknowledgement_commit_callback(outcomes.callback(f"kc{i}"))
        c.subscribe([topic])
    theirs = confluent_kafka.ShareConsumer({"bootstrap.servers": mock3, "group.id": "g-mixed"})
    theirs.set_acknowledgement_commit_callback(outcomes.confluent_callback("rdk"))
    theirs.subscribe([topic])
    try:
        _joined(ours)
        for _ in range(10):
            theirs.poll(0.05)
        _produce(producer, topic, 900, 3)
        seen = collections.Counter()
        counts = {}
        deadline = time.monotonic() + 60  # the loop ends once all are accepted; a loaded machine is slower
        # librdkafka's member joins in only once ours have acquired records or 5 s passed: whoever
        # asks first acquires, and on a loaded machine its threads could take every record before
        # ours ask (the split, not its fairness, is what this checks)
        theirs_from = time.monotonic() + 5
        while len(outcomes.accepted) < 900 and time.monotonic() < deadline:
            for c in ours:
                for r in c.poll(0.05):
                    seen[(r.partition, r.offset)] += 1
                    counts[(r.partition, r.offset)] = r.delivery_count
                c.commit_async()
            if not seen and time.monotonic() < theirs_from:
                continue
            for msg in theirs.poll(0.05) or ():
                if msg.error() is None:
                    seen[(msg.partition(), msg.offset())] += 1
            theirs.commit_async()
        for c in ours:
            c.commit_sync(5)
        theirs.commit_sync(5)
        time.sleep(0.2)
        for c in ours:
            c.poll(0)  # serves the callbacks of the last acknowledgements
        # what ours held at the end, for a failure's message (librdkafka's ShareConsumer does not say)
        held = {f"kc{i}": sorted(tp.partition for tp in c.assignment()) for i, c in enumerate(ours)}
    finally:
        for c in ours:
            c.close()
        theirs.close()
    expected = {(i % 3, i // 3) for i in range(900)}
    members = collections.Counter(v[0] for v in outcomes.accepted.values())
    missing = collections.Counter(p for p, _ in expected - set(outcomes.accepted))
    assert set(outcomes.accepted) == expected, (f"{sum(missing.values())} not accepted (by partition "
                                                f"{dict(missing)}); accepted by {dict(members)}; seen {len(seen)}; "
                                                f"assigned at the end {held}; failed acknowledgements "
                                                f"{outcomes.failed[:5]}")
    twice = {k: v for k, v in outcomes.accepted.items() if len(v) > 1}
    assert not twice, f"accepted by two members: {list(twice.items())[:5]}"
    assert members["kc0"] + members["kc1"] > 0, members
    assert all(n == 1 for n in counts.values())


def test_release_redelivers_with_higher_count_and_reject_archives(mock3, producer):
    topic = _peers.create_topic(mock3, "share-ack", 1) or "share-ack"
    outcomes = Outcomes()
    c = _share(mock3, "g-ack", **{"share.acknowledgement.mode": "explicit"})
    c.set_acknowledgement_commit_callback(outcomes.callback("kc"))
    c.subscribe([topic])
    accepted = set()
    try:
        _joined([c])
        _produce(producer, topic, 30, 1)
        deliveries = collections.defaultdict(list)
        end = time.monotonic() + 2
        while time.monotonic() < end:
            for r in c.poll(0.1):
                deliveries[r.offset].append(r.delivery_count)
                if r.offset % 3 == 0 and r.delivery_count == 1:
                    c.acknowledge(r, AcknowledgeType.RELEASE)
                elif r.offset % 3 == 1:
                    c.acknowledge(r, AcknowledgeType.REJECT)
                else:
                    c.acknowledge(r, AcknowledgeType.ACCEPT)
                    accepted.add(r.offset)
            assert all(v is None for v in c.commit_sync(5).values())
    finally:
        c.close()
    for o in range(30):
        if o % 3 == 0:
            assert deliveries[o] == [1, 2], (o, deliveries[o])
        else:
            assert deliveries[o] == [1], (o, deliveries[o])   # a rejected record never comes back
    assert accepted == {o for o in range(30) if o % 3 != 1}
    assert not outcomes.failed
    assert {o for _, o in outcomes.accepted} == set(range(30))  # every acknowledgement answered


def test_delivery_limit_archives(mock3, producer):
    topic = _peers.create_topic(mock3, "share-limit", 1) or "share-limit"
    _peers.mock_fault(mock3, "share", "max_delivery_attempts", 3)
    c = _share(mock3, "g-limit", **{"share.acknowledgement.mode": "explicit"})
    c.subscribe([topic])
    try:
        _joined([c])
        _produce(producer, topic, 5, 1)
        counts = collections.defaultdict(list)
        end = time.monotonic() + 3
        while time.monotonic() < end:
            for r in c.poll(0.1):
                counts[r.offset].append(r.delivery_count)
                c.acknowledge(r, AcknowledgeType.RELEASE)
            c.commit_sync(5)
    finally:
        c.close()
    assert dict(counts) == {o: [1, 2, 3] for o in range(5)}


def test_unacknowledged_records_released_when_the_lock_ends(mock3, producer):
    # the mock gives each partition to one member of a share group: the records come back to
    # the group, here to the same member, with their delivery count one higher
    topic = _peers.create_topic(mock3, "share-lock", 1) or "share-lock"
    _peers.mock_fault(mock3, "share", "record_lock_duration", 1000)
    c = _share(mock3, "g-lock", **{"share.acknowledgement.mode": "explicit"})
    try:
        c.subscribe([topic])
        _joined([c])
        _produce(producer, topic, 10, 1)
        held = []
        deadline = time.monotonic() + 5
        while len(held) < 10 and time.monotonic() < deadline:
            held += c.poll(0.1)
        assert sorted(r.offset for r in held) == list(range(10))
        assert {r.delivery_count for r in held} == {1}
        again = []
        deadline = time.monotonic() + 10
        while len(again) < 10 and time.monotonic() < deadline:
            again += c.poll(0.1)  # nothing acknowledged: the lock ends, the group hands them out again
        assert sorted(r.offset for r in again) == list(range(10))
        assert {r.delivery_count for r in again} == {2}
        for r in again:
            c.acknowledge(r)
        assert all(e is None for e in c.commit_sync(5).values())
        end = time.monotonic() + 2.5
        while time.monotonic() < end:
            assert c.poll(0.1) == []   # accepted: never again
    finally:
        c.close()


def test_close_releases_what_was_fetched(mock3, producer):
    topic = _peers.create_topic(mock3, "share-close", 1) or "share-close"
    first = _share(mock3, "g-close")
    first.subscribe([topic])
    _joined([first])
    _produce(producer, topic, 50, 1)
    records = []
    deadline = time.monotonic() + 5
    while not records and time.monotonic() < deadline:
        records = first.poll(0.1, max_records=10)
    assert [r.offset for r in records] == list(range(10))
    first.close()  # accepts the ten, releases the forty it fetched and did not hand out
    second = _share(mock3, "g-close")
    second.subscribe([topic])
    got = []
    try:
        deadline = time.monotonic() + 10
        while len(got) < 40 and time.monotonic() < deadline:
            got += second.poll(0.1)
    finally:
        second.close()
    assert sorted(r.offset for r in got) == list(range(10, 50))
    assert {r.delivery_count for r in got} == {2}


_MEMBER = textwrap.dedent("""
    import sys, time
    from kafkacodec.client.share import ShareConsumer
    c = ShareConsumer({"bootstrap.servers": sys.argv[1], "group.id": sys.argv[2], "fetch.max.wait.ms": 100,
                       "share.acknowledgement.mode": "explicit"})
    c.subscribe([sys.argv[3]])
    md, ready = c._client.metadata, False
    while True:
        for r in c.poll(0.1):
            print(r.offset, flush=True)
        if not ready and c.assignment() and all(
                c._fetcher.sessions.get(md.leader_for(tp.topic, tp.partition)) is not None
                and c._fetcher.sessions[md.leader_for(tp.topic, tp.partition)].epoch >= 2 for tp in c.assignment()):
            ready = True
            print("ready", flush=True)
""")


_RDK_MEMBER = textwrap.dedent("""
    import sys, time
    from confluent_kafka import ShareConsumer
    c = ShareConsumer({"bootstrap.servers": sys.argv[1], "group.id": sys.argv[2],
                       "share.acknowledgement.mode": "explicit"})
    c.subscribe([sys.argv[3]])
    start = time.monotonic()
    ready = False
    while True:
        for m in c.poll(0.1):
            if m.error() is None:
                print(m.offset(), flush=True)
        if not ready and time.monotonic() - start > 2:  # no way to ask librdkafka: joined and fetching by now
            ready = True
            print("ready", flush=True)
""")


@pytest.mark.parametrize("member", ["kafkacodec", "librdkafka"])
def test_killed_member_records_redelivered(mock3, producer, tmp_path, member):
    if member == "librdkafka":
        pytest.importorskip("confluent_kafka")
    topic = _peers.create_topic(mock3, "share-kill", 1) or "share-kill"
    # the dead member keeps its partition until the coordinator expels it
    _peers.mock_fault(mock3, "share", "heartbeat_interval", 300)
    _peers.mock_fault(mock3, "share", "session_timeout", 1500)
    outcomes = Outcomes()
    script = tmp_path / "member.py"
    script.write_text(_MEMBER if member == "kafkacodec" else _RDK_MEMBER)
    proc = subprocess.Popen([sys.executable, str(script), mock3, "g-kill", topic], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)  # stopped by its pid below
    survivor = _share(mock3, "g-kill")
    survivor.set_acknowledgement_commit_callback(outcomes.callback("survivor"))
    try:
        assert proc.stdout.readline().strip() == b"ready"  # joined and fetching before the records exist
        _produce(producer, topic, 20, 1)
        line = proc.stdout.readline()  # the member holds records (explicit mode: never acknowledged)
        assert line.strip() == b"0", line
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(5)
        survivor.subscribe([topic])
        got = {}
        deadline = time.monotonic() + 15
        while len(got) < 20 and time.monotonic() < deadline:
            for r in survivor.poll(0.1):
                got[r.offset] = r.delivery_count
        survivor.commit_sync(5)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(5)
        survivor.close()
    assert sorted(got) == list(range(20))
    assert got[0] == 2  # the killed member held it
    assert set(o for _, o in outcomes.accepted) == set(range(20))


def test_poll_arrow_and_async(mock3, producer):
    import asyncio
    topic = _peers.create_topic(mock3, "share-arrow", 2) or "share-arrow"
    c = _share(mock3, "g-arrow")
    c.subscribe([topic])
    try:
        _joined([c])
        _produce(producer, topic, 100, 2)
        rows = []
        deadline = time.monotonic() + 10
        while sum(b.num_rows for b in rows) < 100 and time.monotonic() < deadline:
            rows.append(c.poll_arrow(0.1))
    finally:
        c.close()
    import pyarrow as pa
    table = pa.Table.from_batches([b for b in rows if b.num_rows])
    assert table.num_rows == 100
    assert set(table.column("delivery_count").to_pylist()) == {1}
    assert sorted(zip(table.column("partition").to_pylist(), table.column("offset").to_pylist())) == \
        sorted((i % 2, i // 2) for i in range(100))

    async def run():
        async with AsyncShareConsumer({"bootstrap.servers": mock3, "group.id": "g-async",
                                       "fetch.max.wait.ms": 100}) as a:
            a.subscribe([topic])
            while not a.consumer.assignment() or not _fetching(a.consumer):
                await a.poll(0.05)
            await asyncio.get_running_loop().run_in_executor(None, _produce, producer, topic, 10, 2)
            got = []
            for _ in range(100):
                got += await a.poll(0.1)
                if len(got) >= 10:
                    break
            await a.commit_sync()
            await asyncio.get_running_loop().run_in_executor(None, _produce, producer, topic, 4, 2)
            more = []
            async for r in a:
                more.append(r)
                if len(more) == 4:
                    break
            return got + more

    got = asyncio.run(run())
    assert sorted(r.value for r in got) == sorted([b"v%d" % i for i in range(10)] + [b"v%d" % i for i in range(4)])


def test_a_broker_without_share_groups_fails_at_once():
    from kafkacodec.client import errors as E
    try:
        cm = _peers.tansu_broker()
        bs = cm.__enter__()
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))
    try:
        _peers.create_topic(bs, "share-tansu", 1)
        c = ShareConsumer({"bootstrap.servers": bs, "group.id": "g"})
        c.subscribe(["share-tansu"])
        t0 = time.monotonic()
        with pytest.raises(E.UnsupportedVersionError, match="serves no share groups") as info:
            for _ in range(50):
                c.poll(0.1)
        assert time.monotonic() - t0 < 2
        assert "\n" not in str(info.value)
        with pytest.raises(E.UnsupportedVersionError):
            c.poll(0.1)  # every poll says it
        c.close()
    finally:
        cm.__exit__(None, None, None)


def test_share_settings_have_meaning_range_and_default():
    from kafkacodec.client import errors as E
    from kafkacodec.client.config import Check
    from kafkacodec.client.config.share import SHARE_CONSUMER
    for name, setting in SHARE_CONSUMER.items():
        assert isinstance(setting.check, Check) and setting.meaning.endswith("."), name
    mode = SHARE_CONSUMER["share.acknowledgement.mode"]
    assert mode.default == "implicit" and set(mode.check.options) == {"implicit", "explicit"}
    with pytest.raises(E.ConfigError, match="share.acknowledgement.mode"):
        ShareConsumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g", "share.acknowledgement.mode": "auto"})
    with pytest.raises(E.ConfigError, match="enable.auto.commit"):  # a classic member's setting
        ShareConsumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g", "enable.auto.commit": False})
    with pytest.raises(E.ConfigError, match="group.id"):
        ShareConsumer({"bootstrap.servers": "127.0.0.1:1"})


def test_unsubscribe_leaves_and_subscribe_joins_again(mock3, producer):
    topic = _peers.create_topic(mock3, "share-again", 1) or "share-again"
    c = _share(mock3, "g-again")
    try:
        c.subscribe([topic])
        _joined([c])
        _produce(producer, topic, 10, 1)
        got = []
        deadline = time.monotonic() + 5
        while len(got) < 10 and time.monotonic() < deadline:
            got += c.poll(0.1)
        c.unsubscribe()   # accepts the ten first
        assert c.subscription() == [] and c.assignment() == set()
        _produce(producer, topic, 10, 1)
        c.subscribe([topic])
        deadline = time.monotonic() + 10
        while len(got) < 20 and time.monotonic() < deadline:
            got += c.poll(0.1)
    finally:
        c.close()
    assert sorted(r.offset for r in got) == list(range(20))
    assert {r.delivery_count for r in got} == {1}


def test_transaction_markers_are_acknowledged_as_gaps(mock3):
    # the mock's share groups start at the earliest offset here: the records and the commit
    # markers exist before the member joins
    topic = _peers.create_topic(mock3, "share-txn", 1) or "share-txn"
    _peers.mock_fault(mock3, "share", "auto_offset_reset", 1)
    for t in range(3):
        _peers.produce_with_confluent(mock3, topic, [(b"k", b"t%d-%d" % (t, i)) for i in range(5)],
                                      transactional_id=f"share-txn-{t}")
    c = _share(mock3, "g-txn", **{"check.crcs": False})  # the mock writes markers with CRC 0
    c.subscribe([topic])
    got = []
    try:
        deadline = time.monotonic() + 10
        while len(got) < 15 and time.monotonic() < deadline:
            got += c.poll(0.1)
        answers = c.commit_sync(5)
        # every acquired offset was acknowledged, the markers' as gaps
        assert not any(c._fetcher.held.values()), c._fetcher.held
        end = time.monotonic() + 1
        while time.monotonic() < end:
            assert c.poll(0.1) == []  # the markers were acknowledged (GAP): nothing comes again
    finally:
        c.close()
    assert sorted(r.value for r in got) == sorted(b"t%d-%d" % (t, i) for t in range(3) for i in range(5))
    assert all(e is None for e in answers.values())
    offsets = sorted(r.offset for r in got)
    assert offsets[-1] - offsets[0] + 1 > 15  # markers sit between the transactions' records


def test_a_partition_moved_to_another_member_is_forgotten_by_the_first(mock1):
    # one broker leads both partitions: the first member's session there named both, and
    # must stop acquiring the one the coordinator gives the second member
    topic = _peers.create_topic(mock1, "share-moved", 2) or "share-moved"
    _peers.mock_fault(mock1, "share", "heartbeat_interval", 200)
    producer = Producer({"bootstrap.servers": mock1, "linger.ms": 5})
    first, second = _share(mock1, "g-moved"), _share(mock1, "g-moved")
    try:
        first.subscribe([topic])
        _joined([first])
        assert len(first.assignment()) == 2
        second.subscribe([topic])
        deadline = time.monotonic() + 10
        while not (len(first.assignment()) == 1 and second.assignment() and _fetching(first) and _fetching(second)):
            assert time.monotonic() < deadline, (first.assignment(), second.assignment())
            first.poll(0.05)
            second.poll(0.05)
        first.poll(0.3)  # a fetch of the first member's after the move
        kept = {tp.partition for tp in first.assignment()}
        _produce(producer, topic, 200, 2)
        got = {"first": [], "second": []}
        deadline = time.monotonic() + 10
        while sum(map(len, got.values())) < 200 and time.monotonic() < deadline:
            got["first"] += first.poll(0.05)
            got["second"] += second.poll(0.05)
    finally:
        first.close()
        second.close()
        producer.close()
    assert {r.partition for r in got["first"]} <= kept
    everything = got["first"] + got["second"]
    assert sorted((r.partition, r.offset) for r in everything) == sorted((i % 2, i // 2) for i in range(200))
    assert {r.delivery_count for r in everything} == {1}
