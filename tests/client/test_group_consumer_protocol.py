"""group.protocol=consumer (KIP-848) on librdkafka's mock cluster, beside librdkafka members of
the same protocol: the coordinator assigns, members reconcile on their own, a fenced member
loses its partitions and joins again, and no record is lost (duplicates only around moves)."""
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from kafkacodec.client import Consumer
from kafkacodec.client import errors as E

_peers = pytest.importorskip("_peers")

FENCED_MEMBER_EPOCH = 110
NOT_COORDINATOR = 16
HEARTBEAT = 68


def _conf(bootstrap, group, **extra):
    conf = {"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
            "auto.offset.reset": "earliest", "auto.commit.interval.ms": 200, "request.timeout.ms": 5000}
    conf.update(extra)
    return conf


class _Listener:
    def __init__(self):
        self.events = []

    def on_partitions_revoked(self, consumer, partitions):
        self.events.append(("revoked", sorted(tp.partition for tp in partitions)))

    def on_partitions_assigned(self, consumer, partitions):
        self.events.append(("assigned", sorted(tp.partition for tp in partitions)))

    def on_partitions_lost(self, consumer, partitions):
        self.events.append(("lost", sorted(tp.partition for tp in partitions)))


def _produce(bootstrap, topic, start, n, partitions):
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"%d" % i, None, None, i % partitions)
                                                     for i in range(start, start + n)])


def _theirs(bootstrap, group, topic):
    import confluent_kafka
    c = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
                                  "auto.offset.reset": "earliest", "auto.commit.interval.ms": 200,
                                  "log_level": 3})
    c.subscribe([topic])
    return c


def _theirs_poll(c):
    return [int(m.value()) for m in c.consume(100, timeout=0.05) if not m.error()]


@pytest.mark.timeout(60)
def test_first_record_soon_after_subscribe_and_commits_with_the_member_epoch(mock3):
    topic, group = "k848-first", f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {topic: 4})
    _produce(mock3, topic, 0, 300, 4)
    listener = _Listener()
    c = Consumer(_conf(mock3, group, **{"enable.auto.commit": False}))
    try:
        t0 = time.monotonic()
        c.subscribe([topic], listener=listener)
        got, first = [], None
        while len(got) < 300 and time.monotonic() - t0 < 20:
            records = c.poll(0.2)
            if records and first is None:
                first = time.monotonic() - t0
            got += [int(r.value) for r in records]
        assert sorted(got) == list(range(300))
        assert first is not None and first <= 0.5, f"first record {first:.2f} s after subscribe"
        assert listener.events == [("assigned", [0, 1, 2, 3])]
        g = c._group
        assert g.epoch > 0 and g.phase == "stable"
        c.commit()   # OffsetCommit v9 with member id and epoch: the coordinator accepts it
        assert sum(c.committed(sorted(c.assignment())).values()) == 300
    finally:
        c.close()
    assert listener.events[-1] == ("revoked", [0, 1, 2, 3])


@pytest.mark.timeout(90)
def test_shared_with_librdkafka_members_loses_nothing_through_joins_leaves_fences_and_coordinator_moves(mock3):
    pytest.importorskip("confluent_kafka")
    topic, group, partitions = "k848-mixed", f"g-{uuid.uuid4().hex[:6]}", 6
    _peers.create_topics(mock3, {topic: partitions})
    # members heartbeat every 0.5 s; one that stops (a leave the coordinator move refused) is
    # expelled after 6 s
    _peers.mock_fault(mock3, "group_consumer_timeouts", 6000, 500)
    ours = [_Listener(), _Listener()]
    a = Consumer(_conf(mock3, group, **{"max.poll.records": 20}))
    a.subscribe([topic], listener=ours[0])
    x = _theirs(mock3, group, topic)
    b = None
    seen = []
    produced = 0

    def poll_all():
        nonlocal seen
        seen += [int(r.value) for r in a.poll(0.05)]
        if b is not None:
            seen += [int(r.value) for r in b.poll(0.05)]
        if x is not None:
            seen += _theirs_poll(x)

    # each step: produce a slice, let the members take it, then change the group
    steps = ["join b", "fence a", "coordinator 2", "leave x", "coordinator 3", "close b"]
    try:
        for step in steps + ["end"]:
            _produce(mock3, topic, produced, 600, partitions)
            produced += 600
            deadline = time.monotonic() + 20
            while len(set(seen)) < produced and time.monotonic() < deadline:
                poll_all()
            assert len(set(seen)) == produced, (f"before {step!r}: {produced - len(set(seen))} records missing; "
                                                f"a: {sorted(a.assignment())}, a's epoch {a._group.epoch}, "
                                                f"b: {b and sorted(b.assignment())}")
            if step == "join b":
                b = Consumer(_conf(mock3, group, **{"max.poll.records": 20}))
                b.subscribe([topic], listener=ours[1])
            elif step == "fence a":
                # the mock answers the next heartbeats, whoever sends them: one for each member
                _peers.mock_fault(mock3, "errors", HEARTBEAT, *[FENCED_MEMBER_EPOCH] * 3)
            elif step.startswith("coordinator"):
                _peers.mock_fault(mock3, "coordinator", "group", group, step.split()[1])
                _peers.mock_fault(mock3, "errors", HEARTBEAT, NOT_COORDINATOR)
            elif step == "leave x":
                x.close()
                x = None
            elif step == "close b":
                b.close()
                b = None
        assert sorted(set(seen)) == list(range(produced))
        # duplicates only around moves: far fewer than what was consumed
        assert len(seen) - produced < produced // 4, len(seen) - produced
        for lst in ours:
            assert lst.events and lst.events[0][0] == "assigned"
    finally:
        for c in (a, b, x):
            if c is not None:
                c.close()


@pytest.mark.timeout(60)
def test_a_fenced_member_loses_its_partitions_and_joins_again_at_epoch_0(mock3):
    topic, group = "k848-fence", f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {topic: 2})
    _peers.mock_fault(mock3, "group_consumer_timeouts", 6000, 200)
    _produce(mock3, topic, 0, 100, 2)
    listener = _Listener()
    c = Consumer(_conf(mock3, group, **{"enable.auto.commit": False}))
    try:
        c.subscribe([topic], listener=listener)
        got = []
        deadline = time.monotonic() + 15
        while len(got) < 100 and time.monotonic() < deadline:
            got += [int(r.value) for r in c.poll(0.1)]
        c.commit()
        epoch = c._group.epoch
        _peers.mock_fault(mock3, "errors", HEARTBEAT, FENCED_MEMBER_EPOCH)
        _produce(mock3, topic, 100, 100, 2)
        deadline = time.monotonic() + 15
        while (len(set(got)) < 200 or ("lost", [0, 1]) not in listener.events) and time.monotonic() < deadline:
            got += [int(r.value) for r in c.poll(0.1)]
        assert sorted(set(got)) == list(range(200))
        assert listener.events[:3] == [("assigned", [0, 1]), ("lost", [0, 1]), ("assigned", [0, 1])], listener.events
        assert c._group.epoch > epoch
    finally:
        c.close()


_MEMBER = textwrap.dedent("""
    import sys, time
    from kafkacodec.client import Consumer
    bootstrap, group, topic = sys.argv[1:4]
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
                  "auto.offset.reset": "earliest", "enable.auto.commit": False, "max.poll.records": 10})
    c.subscribe([topic])
    while True:
        records = c.poll(0.1)
        for r in records:
            print(int(r.value), flush=True)
        if records:
            c.commit()
""")


_LIBRDKAFKA_MEMBER = textwrap.dedent("""
    import sys
    import confluent_kafka
    bootstrap, group, topic = sys.argv[1:4]
    c = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer",
                                  "auto.offset.reset": "earliest", "enable.auto.commit": False, "log_level": 0})
    c.subscribe([topic])
    while True:
        messages = [m for m in c.consume(10, timeout=0.1) if not m.error()]
        for m in messages:
            print(int(m.value()), flush=True)
        if messages:
            c.commit(asynchronous=False)
""")


@pytest.mark.timeout(90)
@pytest.mark.parametrize("killed", ["kafkacodec", "librdkafka"])
def test_a_sigkilled_member_process_loses_no_record(mock3, tmp_path, killed):
    """A member killed at once (no leave): once the coordinator's session timeout expels it,
    the survivor takes its partitions from their last commit."""
    if killed == "librdkafka":
        pytest.importorskip("confluent_kafka")
    topic, group, partitions = "k848-kill", f"g-{uuid.uuid4().hex[:6]}", 4
    _peers.create_topics(mock3, {topic: partitions})
    _peers.mock_fault(mock3, "group_consumer_timeouts", 3000, 300)
    _produce(mock3, topic, 0, 2000, partitions)
    script = tmp_path / "member.py"
    script.write_text(_MEMBER if killed == "kafkacodec" else _LIBRDKAFKA_MEMBER)
    out = open(tmp_path / "out.txt", "w+")
    proc = subprocess.Popen([sys.executable, str(script), mock3, group, topic], stdout=out,
                            stderr=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=os.getcwd()))
    survivor = None
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(open(tmp_path / "out.txt").read().split()) < 200:
            time.sleep(0.05)
        survivor = Consumer(_conf(mock3, group))
        survivor.subscribe([topic])
        seen = []
        t0 = time.monotonic()
        while time.monotonic() - t0 < 1.0:   # the group hands the survivor a share first
            seen += [int(r.value) for r in survivor.poll(0.05)]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        killed = [int(v) for v in open(tmp_path / "out.txt").read().split()]
        _produce(mock3, topic, 2000, 1000, partitions)   # for the survivor alone, the killed one's partitions too
        deadline = time.monotonic() + 30
        while len(set(seen) | set(killed)) < 3000 and time.monotonic() < deadline:
            seen += [int(r.value) for r in survivor.poll(0.1)]
        assert set(seen) | set(killed) == set(range(3000)), 3000 - len(set(seen) | set(killed))
        assert set(range(2000, 3000)) <= set(seen)
        assert len(survivor.assignment()) == partitions
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
        out.close()
        if survivor is not None:
            survivor.close()


@pytest.mark.timeout(60)
def test_regex_subscription_matched_by_the_broker(mock3):
    group = f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {"rx-a": 2, "rx-b": 1, "other": 1})
    for t, n in (("rx-a", 2), ("rx-b", 1), ("other", 1)):
        _produce(mock3, t, 0, 10, n)
    c = Consumer(_conf(mock3, group))
    try:
        c.subscribe("^rx-.*")
        got = []
        deadline = time.monotonic() + 15
        while len(got) < 20 and time.monotonic() < deadline:
            got += [(r.topic, int(r.value)) for r in c.poll(0.2)]
        assert sorted(got) == sorted([("rx-a", i) for i in range(10)] + [("rx-b", i) for i in range(10)])
        assert {tp.topic for tp in c.assignment()} == {"rx-a", "rx-b"}
    finally:
        c.close()


@pytest.mark.timeout(60)
def test_a_static_member_gets_its_partitions_back_and_others_keep_theirs(mock3):
    """group.instance.id: close leaves at epoch -2, the coordinator keeps the member's partitions
    for it (nobody else takes them) and gives them back to the next instance of that id."""
    topic, group = "k848-static", f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {topic: 4})
    _peers.mock_fault(mock3, "group_consumer_timeouts", 6000, 200)
    static = {"group.instance.id": "i-1", "group.remote.assignor": "uniform"}
    a = Consumer(_conf(mock3, group, **static))
    b = Consumer(_conf(mock3, group))
    a2 = None
    try:
        a.subscribe([topic])
        b.subscribe([topic])
        deadline = time.monotonic() + 15
        while not (len(a.assignment()) == len(b.assignment()) == 2) and time.monotonic() < deadline:
            a.poll(0.05)
            b.poll(0.05)
        mine, theirs = a.assignment(), b.assignment()
        assert len(mine) == len(theirs) == 2
        assert a.metrics()["cgrp"]["join_state"] == "steady"
        a.close()
        t0 = time.monotonic()
        while time.monotonic() - t0 < 1.5:   # several of b's heartbeats
            b.poll(0.05)
        assert b.assignment() == theirs
        a2 = Consumer(_conf(mock3, group, **static))
        a2.subscribe([topic])
        deadline = time.monotonic() + 10
        while a2.assignment() != mine and time.monotonic() < deadline:
            a2.poll(0.05)
            b.poll(0.05)
        assert a2.assignment() == mine and b.assignment() == theirs
    finally:
        for c in (a, b, a2):
            if c is not None:
                c.close()


@pytest.mark.timeout(60)
def test_a_broker_without_the_protocol_fails_at_once_naming_classic(tansu_bootstrap):
    c = Consumer(_conf(tansu_bootstrap, f"g-{uuid.uuid4().hex[:6]}"))
    try:
        c.subscribe(["anything"])
        t0 = time.monotonic()
        with pytest.raises(E.KafkaError) as info:
            while time.monotonic() - t0 < 10:
                c.poll(0.2)
        assert time.monotonic() - t0 < 3
        assert "group.protocol=classic" in str(info.value) and "\n" not in str(info.value)
        with pytest.raises(E.KafkaError, match="group.protocol=classic"):   # every poll, not only the first
            c.poll(0.2)
    finally:
        c.close()


@pytest.mark.timeout(60)
def test_the_face_consumer_joins_by_the_consumer_protocol_with_its_callbacks(mock3):
    """(Admin's ConsumerGroupDescribe cannot be checked here: the mock serves neither it,
    DescribeGroups nor ListGroups.)"""
    from kafkacodec.compat import confluent_kafka as face
    topic, group = "k848-face", f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {topic: 2})
    _produce(mock3, topic, 0, 20, 2)
    _peers.mock_fault(mock3, "group_consumer_timeouts", 6000, 200)
    c = face.Consumer({"bootstrap.servers": mock3, "group.id": group, "group.protocol": "consumer",
                       "group.remote.assignor": "uniform", "auto.offset.reset": "earliest"})
    events = []

    def note(kind):
        return lambda consumer, partitions: events.append((kind, sorted(p.partition for p in partitions)))
    try:
        c.subscribe([topic], on_assign=note("assign"), on_revoke=note("revoke"), on_lost=note("lost"))
        got = []
        deadline = time.monotonic() + 15
        while len(got) < 20 and time.monotonic() < deadline:
            m = c.poll(0.2)
            if m is not None and not m.error():
                got.append(int(m.value()))
        assert sorted(got) == list(range(20))
        assert sorted(tp.partition for tp in c.assignment()) == [0, 1]
        _peers.mock_fault(mock3, "errors", HEARTBEAT, FENCED_MEMBER_EPOCH)
        deadline = time.monotonic() + 10
        while len(events) < 3 and time.monotonic() < deadline:
            c.poll(0.05)
        assert events == [("assign", [0, 1]), ("lost", [0, 1]), ("assign", [0, 1])], events
    finally:
        c.close()
    assert events[-1] == ("revoke", [0, 1])


@pytest.mark.timeout(60)
def test_async_consumer_joins_by_the_consumer_protocol(mock3):
    import asyncio
    from kafkacodec.client import AsyncConsumer
    topic, group = "k848-async", f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {topic: 2})
    _produce(mock3, topic, 0, 20, 2)

    async def run():
        c = AsyncConsumer(_conf(mock3, group))
        try:
            c.subscribe([topic])
            got = []
            deadline = time.monotonic() + 15
            while len(got) < 20 and time.monotonic() < deadline:
                got += [int(r.value) for r in await c.poll(0.2)]
            await c.commit()
            return sorted(got)
        finally:
            await c.close()
    assert asyncio.run(run()) == list(range(20))


@pytest.mark.timeout(60)
def test_a_member_not_polling_within_max_poll_interval_leaves_and_comes_back(mock3):
    topic, group = "k848-slow", f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {topic: 2})
    _peers.mock_fault(mock3, "group_consumer_timeouts", 6000, 200)
    _produce(mock3, topic, 0, 50, 2)
    listener = _Listener()
    c = Consumer(_conf(mock3, group, **{"max.poll.interval.ms": 1000}))
    try:
        c.subscribe([topic], listener=listener)
        got = []
        deadline = time.monotonic() + 15
        while len(got) < 50 and time.monotonic() < deadline:
            got += [int(r.value) for r in c.poll(0.1)]
        time.sleep(1.6)   # past max.poll.interval.ms: the member leaves on its own
        _produce(mock3, topic, 50, 50, 2)
        deadline = time.monotonic() + 15
        while len(set(got)) < 100 and time.monotonic() < deadline:
            got += [int(r.value) for r in c.poll(0.1)]
        assert sorted(set(got)) == list(range(100))
        assert listener.events[:3] == [("assigned", [0, 1]), ("lost", [0, 1]), ("assigned", [0, 1])], listener.events
    finally:
        c.close()


@pytest.mark.timeout(60)
def test_the_coordinator_broker_down_and_up_loses_nothing(mock3):
    pytest.importorskip("confluent_kafka")
    topic, group, partitions = "k848-down", f"g-{uuid.uuid4().hex[:6]}", 4
    _peers.create_topics(mock3, {topic: partitions})
    _peers.mock_fault(mock3, "group_consumer_timeouts", 6000, 300)
    a = Consumer(_conf(mock3, group, **{"max.poll.records": 20}))
    a.subscribe([topic])
    x = _theirs(mock3, group, topic)
    seen, produced = [], 0
    try:
        for step in ("down", "end"):
            _produce(mock3, topic, produced, 400, partitions)
            produced += 400
            deadline = time.monotonic() + 25
            while len(set(seen)) < produced and time.monotonic() < deadline:
                seen += [int(r.value) for r in a.poll(0.05)] + _theirs_poll(x)
            assert len(set(seen)) == produced, f"before {step!r}: {produced - len(set(seen))} missing"
            if step == "down":
                coordinator = a._group.lookup.broker_id
                _peers.mock_fault(mock3, "down", coordinator)
                t0 = time.monotonic()
                while time.monotonic() - t0 < 2:   # members carry on fetching what they own meanwhile
                    seen += [int(r.value) for r in a.poll(0.05)] + _theirs_poll(x)
                _peers.mock_fault(mock3, "up", coordinator)
        assert sorted(set(seen)) == list(range(produced))
        assert a.assignment() and a._group.phase == "stable"
    finally:
        a.close()
        x.close()


@pytest.mark.timeout(60)
def test_close_leaves_at_once_and_a_stale_epoch_commit_is_refused(mock3):
    topic, group = "k848-leave", f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {topic: 4})
    _peers.mock_fault(mock3, "group_consumer_timeouts", 30000, 200)
    _produce(mock3, topic, 0, 40, 4)
    a = Consumer(_conf(mock3, group))
    b = Consumer(_conf(mock3, group))
    try:
        a.subscribe([topic])
        b.subscribe([topic])
        deadline = time.monotonic() + 15
        while not (len(a.assignment()) == len(b.assignment()) == 2) and time.monotonic() < deadline:
            a.poll(0.05)
            b.poll(0.05)
        assert len(a.assignment()) == len(b.assignment()) == 2
        # the coordinator answers the commit STALE_MEMBER_EPOCH; the epoch did not move: refused
        _peers.mock_fault(mock3, "errors", 8, 113)
        with pytest.raises(E.StaleMemberEpochError):
            a.commit({tp: 1 for tp in a.assignment()})
        a.close()
        # a left (no wait for the 30 s session timeout): b takes its partitions at b's next heartbeats
        t0 = time.monotonic()
        while len(b.assignment()) < 4 and time.monotonic() - t0 < 10:
            b.poll(0.05)
        assert len(b.assignment()) == 4 and time.monotonic() - t0 < 3
    finally:
        a.close()
        b.close()


@pytest.mark.timeout(60)
def test_a_new_subscription_and_unsubscribe_reach_the_coordinator(mock3):
    group = f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topics(mock3, {"k848-s1": 2, "k848-s2": 2})
    _peers.mock_fault(mock3, "group_consumer_timeouts", 6000, 200)
    _produce(mock3, "k848-s1", 0, 10, 2)
    _produce(mock3, "k848-s2", 100, 10, 2)
    listener = _Listener()
    c = Consumer(_conf(mock3, group))

    def read(n):
        got = []
        deadline = time.monotonic() + 10
        while len(got) < n and time.monotonic() < deadline:
            got += [(r.topic, int(r.value)) for r in c.poll(0.05)]
        return got
    try:
        c.subscribe(["k848-s1"], listener=listener)
        assert sorted(read(10)) == [("k848-s1", i) for i in range(10)]
        c.subscribe(["k848-s2"], listener=listener)
        assert sorted(read(10)) == [("k848-s2", i) for i in range(100, 110)]
        assert {tp.topic for tp in c.assignment()} == {"k848-s2"}
        c.unsubscribe()
        assert c.assignment() == set()
        c.subscribe(["k848-s1", "k848-s2"], listener=listener)
        deadline = time.monotonic() + 10
        while len(c.assignment()) < 4 and time.monotonic() < deadline:
            c.poll(0.05)
        assert len(c.assignment()) == 4
    finally:
        c.close()


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_a_long_run_of_faults_in_a_mixed_group_loses_no_record(mock3):
    """Two kafkacodec and two librdkafka members under a stream of faults: heartbeat errors
    (fences, unknown members, coordinator moves and loads), commit errors, the coordinator's
    broker down and up, members leaving and coming back. No record may be lost."""
    import random
    pytest.importorskip("confluent_kafka")
    rng = random.Random(848)
    topic, group, partitions = "k848-long", f"g-{uuid.uuid4().hex[:6]}", 8
    _peers.create_topics(mock3, {topic: partitions})
    _peers.mock_fault(mock3, "group_consumer_timeouts", 6000, 300)
    ours = {n: Consumer(_conf(mock3, group, **{"max.poll.records": 50})) for n in ("a", "b")}
    for c in ours.values():
        c.subscribe([topic])
    theirs = {n: _theirs(mock3, group, topic) for n in ("x", "y")}
    seen, produced = [], 0
    faults = [("errors", HEARTBEAT, FENCED_MEMBER_EPOCH), ("errors", HEARTBEAT, 25), ("errors", HEARTBEAT, 14, 14),
              ("errors", HEARTBEAT, NOT_COORDINATOR), ("errors", 8, 15, 16), "coordinator", "down-up",
              "restart-ours", "restart-theirs"]
    try:
        for round_ in range(24):
            _produce(mock3, topic, produced, 400, partitions)
            produced += 400
            fault = rng.choice(faults)
            if isinstance(fault, tuple):
                _peers.mock_fault(mock3, *fault)
            elif fault == "coordinator":
                _peers.mock_fault(mock3, "coordinator", "group", group, rng.choice((1, 2, 3)))
            elif fault == "down-up":
                broker = rng.choice((1, 2, 3))
                _peers.mock_fault(mock3, "down", broker)
                t0 = time.monotonic()
                while time.monotonic() - t0 < 1:
                    for c in ours.values():
                        seen += [int(r.value) for r in c.poll(0.02)]
                    for x in theirs.values():
                        seen += _theirs_poll(x)
                _peers.mock_fault(mock3, "up", broker)
            elif fault == "restart-ours":
                name = rng.choice(sorted(ours))
                ours[name].close()
                ours[name] = Consumer(_conf(mock3, group, **{"max.poll.records": 50}))
                ours[name].subscribe([topic])
            else:
                name = rng.choice(sorted(theirs))
                theirs[name].close()
                theirs[name] = _theirs(mock3, group, topic)
            deadline = time.monotonic() + 30
            while len(set(seen)) < produced and time.monotonic() < deadline:
                for c in ours.values():
                    seen += [int(r.value) for r in c.poll(0.02)]
                for x in theirs.values():
                    seen += _theirs_poll(x)
            assert len(set(seen)) == produced, f"round {round_} ({fault}): {produced - len(set(seen))} missing"
        assert sorted(set(seen)) == list(range(produced))
    finally:
        for c in ours.values():
            c.close()
        for x in theirs.values():
            x.close()
