"""Cooperative-sticky (KIP-429): the assignor keeps partitions with their owners and
hands a moving partition over one generation later; kafkacodec and librdkafka
members share a cooperative group, never own a partition twice, and members joining
and leaving with commits lose and duplicate nothing."""
import time
import uuid

import pytest

from kafkacodec.client import Consumer
from kafkacodec.client.assignors import CooperativeStickyAssignor, parse_sticky_user_data, sticky_user_data
from kafkacodec.client import errors as E

_peers = pytest.importorskip("_peers")


def _balanced(plan, total):
    sizes = [len(v) for v in plan.values()]
    return sum(sizes) == total and max(sizes) - min(sizes) <= 1


def _owned(plan, generation):
    return {member: (generation, tps) for member, tps in plan.items()}


def test_sticky_balance_and_cooperative_handover():
    a = CooperativeStickyAssignor()
    counts = {"t": 6, "u": 3}
    one = a.assign(counts, {"m1": {"t", "u"}})
    assert len(one["m1"]) == 9
    # m2 joins: nothing is taken from m1 and given to m2 in the same generation
    two = a.assign(counts, {"m1": {"t", "u"}, "m2": {"t", "u"}}, _owned(one, 1))
    assert set(two["m1"]) < set(one["m1"]) and two["m2"] == []
    assert len(two["m1"]) == 5  # m1 keeps its balanced share, gives up the rest
    # m1 gave them up: the next generation hands them to m2, m1 keeps the rest
    three = a.assign(counts, {"m1": {"t", "u"}, "m2": {"t", "u"}}, {"m1": (2, two["m1"]), "m2": (2, [])})
    assert three["m1"] == two["m1"] and _balanced(three, 9)
    # m1 leaves: m2 keeps its own and takes m1's (no other owner to wait for)
    four = a.assign(counts, {"m2": {"t", "u"}}, {"m2": (3, three["m2"])})
    assert len(four["m2"]) == 9
    # two claims of one partition: the newer generation's wins
    five = a.assign({"t": 2}, {"m1": {"t"}, "m2": {"t"}}, {"m1": (4, [("t", 0)]), "m2": (3, [("t", 0), ("t", 1)])})
    assert five == {"m1": [("t", 0)], "m2": [("t", 1)]}
    # members subscribed to different topics get only their topics
    six = a.assign({"t": 4, "u": 2}, {"m1": {"t"}, "m2": {"t", "u"}})
    assert {t for t, _ in six["m1"]} == {"t"} and len(six["m1"]) + len(six["m2"]) == 6
    assert abs(len(six["m1"]) - len(six["m2"])) <= 1


def test_sticky_user_data_round_trip_and_java_generation():
    data = sticky_user_data([("t", 2), ("t", 0), ("u", 1)], 7)
    assert parse_sticky_user_data(data) == ([("t", 0), ("t", 2), ("u", 1)], 7)
    assert parse_sticky_user_data(b"\0\0\0\x05") == ([], 5)  # Java's cooperative user data
    assert parse_sticky_user_data(b"\0\0\0\x09junk") == ([], -1)
    assert parse_sticky_user_data(None) == ([], -1)


def test_strategy_setting_accepts_cooperative_sticky():
    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g",
                  "partition.assignment.strategy": "cooperative-sticky"})
    try:
        assert c._group.cooperative
    finally:
        c.close(timeout=0.5)
    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g",
                  "partition.assignment.strategy": "range,cooperative-sticky"})
    try:
        assert not c._group.cooperative  # eager unless every assignor is cooperative
    finally:
        c.close(timeout=0.5)
    with pytest.raises(E.ConfigError, match="partition.assignment.strategy"):
        Consumer({"bootstrap.servers": "127.0.0.1:1", "partition.assignment.strategy": "sticky-ish"})


class _Ours:
    """A kafkacodec member; records its revocations to check that only moving partitions go."""

    def __init__(self, bootstrap, group, topic):
        self.revoked, self.assigned = [], []
        self.c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                           "partition.assignment.strategy": "cooperative-sticky", "session.timeout.ms": 10000,
                           "heartbeat.interval.ms": 300, "max.poll.records": 10, "auto.commit.interval.ms": 200,
                           "request.timeout.ms": 5000})
        self.c.subscribe([topic], listener=self)

    def on_partitions_revoked(self, consumer, partitions):
        self.revoked.append(sorted(tp.partition for tp in partitions))

    def on_partitions_assigned(self, consumer, partitions):
        self.assigned.append(sorted(tp.partition for tp in partitions))

    def poll(self, n):
        return [(r.partition, r.offset) for r in self.c.poll(0.05, max_records=n)]

    def owned(self):
        return {tp.partition for tp in self.c.assignment()}

    def settled(self):
        return self.c._group.phase == "stable"

    def close(self):
        self.c.close()


class _Theirs:
    """A librdkafka member (cooperative-sticky), committing what it consumed when it gives partitions up."""

    def __init__(self, bootstrap, group, topic):
        import confluent_kafka
        self.c = confluent_kafka.Consumer({
            "bootstrap.servers": bootstrap, "group.id": group, "auto.offset.reset": "earliest",
            "partition.assignment.strategy": "cooperative-sticky", "session.timeout.ms": 10000,
            "heartbeat.interval.ms": 300, "auto.commit.interval.ms": 200, "log_level": 3})
        self.c.subscribe([topic], on_revoke=self._on_revoke)

    def _on_revoke(self, consumer, partitions):
        if partitions:
            try:
                consumer.commit(asynchronous=False)
            except Exception:  # nothing consumed yet: "no offset" is not a failure here
                pass

    def poll(self, n):
        return [(m.partition(), m.offset()) for m in self.c.consume(n, timeout=0.05) if not m.error()]

    def owned(self):
        return {tp.partition for tp in self.c.assignment()}

    def settled(self):
        return True

    def close(self):
        self.c.close()


@pytest.mark.timeout(240)
def test_cooperative_group_shared_with_librdkafka_loses_and_duplicates_nothing(tansu_bootstrap):
    """On Tansu: librdkafka's mock cluster keeps such a group rebalancing (it rejects the commits
    members make while another member rejoins, so its members never settle)."""
    pytest.importorskip("confluent_kafka")
    bootstrap = tansu_bootstrap
    partitions, total = 6, 6000
    topic = f"coop-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, topic, partitions)
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v-%d" % i, None, None, i % partitions)
                                                     for i in range(total)])
    group = f"g-{uuid.uuid4().hex[:6]}"
    seen = []
    members = {"a": _Ours(bootstrap, group, topic), "x": _Theirs(bootstrap, group, topic)}
    # a kafkacodec member joins, then the librdkafka member leaves, each once the group settled
    script = [(300, "join", "b"), (900, "leave", "x"), (1500, "join", "y")]
    overlaps = []
    deadline = time.monotonic() + 200
    try:
        while len(seen) < total and time.monotonic() < deadline:
            for member in members.values():
                seen += member.poll(2 if script else 500)
            owners = [m.owned() for m in members.values()]
            if sum(map(len, owners)) != len(set().union(*owners)):
                overlaps.append(owners)
            settled = set().union(*owners) == set(range(partitions)) and all(m.settled() for m in members.values())
            if script and len(seen) >= script[0][0] and settled:
                _, action, name = script.pop(0)
                if action == "join":
                    members[name] = (_Ours if name == "b" else _Theirs)(bootstrap, group, topic)
                else:
                    members.pop(name).close()  # commits what it consumed, leaves
        assert not script, f"stalled at {len(seen)} records"
        assert not overlaps, f"a partition had two owners: {overlaps[:3]}"
        assert len(seen) == len(set(seen)) == total, (len(seen), len(set(seen)))
        for p in range(partitions):
            assert sorted(o for q, o in seen if q == p) == list(range(total // partitions))
        # incremental: the first member gave up only what moved, never everything
        a = members["a"]
        assert a.revoked and all(len(r) < partitions for r in a.revoked), a.revoked
    finally:
        for member in members.values():
            member.close()


def test_unreadable_sync_answer_rejoins_without_dropping_the_coordinator():
    """A SyncGroup answer the codec refuses: the member joins again, the coordinator is not given
    up for it."""
    import concurrent.futures
    from kafkacodec.errors import CorruptDataError
    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g",
                  "partition.assignment.strategy": "cooperative-sticky"})
    try:
        g = c._group
        g.coordinator, g.phase = 2147483646, "syncing"
        answer = concurrent.futures.Future()
        answer.set_exception(CorruptDataError("null in a non-nullable field", 14))
        g._synced(answer)
        assert g.coordinator == 2147483646 and g.phase == "join"
    finally:
        c.close(timeout=0.5)


def test_a_sync_refused_as_invalid_rejoins_as_librdkafka_does():
    """librdkafka's mock ends a group's sync when the leader's assignment comes and refuses a
    follower's SyncGroup that arrives after it (INVALID_REQUEST, a null assignment): the member
    joins again, with its member id, instead of failing the consumer."""
    import concurrent.futures
    from kafkacodec.protocol import messages as m
    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g"})
    try:
        g = c._group
        g.coordinator, g.phase, g.member_id = 2147483646, "syncing", "member-1"
        answer = concurrent.futures.Future()
        answer.set_result(m.SyncGroupResponse(throttle_time_ms=0, error_code=42, protocol_type=None,
                                              protocol_name=None, assignment=b""))
        g._synced(answer)
        assert (g.coordinator, g.phase, g.member_id, g.error) == (2147483646, "join", "member-1", None)
    finally:
        c.close(timeout=0.5)
