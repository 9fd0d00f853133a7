"""The face's AdminClient group, config and topic descriptions against Tansu, compared field by
field with confluent-kafka's own AdminClient making the same calls.

librdkafka describes groups with KIP-848's ConsumerGroupDescribe first, and so does the face;
Tansu answers that request for a classic group too, with no members and the member id as
assignor name, so both describe every group as type CONSUMER there.  What DescribeGroups
answers is compared with a librdkafka client held to the pre-KIP-848 requests
(``broker.version.fallback=0.9.0``), which describes groups with DescribeGroups only.
"""
import time
import uuid

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")
from confluent_kafka import admin as real_admin  # noqa: E402

from kafkacodec.client import errors as E  # noqa: E402
from kafkacodec.client.admin import GroupDescription, GroupListing, GroupMember, consumer_assignment  # noqa: E402
from kafkacodec.compat import confluent_kafka as ck  # noqa: E402
from kafkacodec.compat.confluent_kafka import admin as face_admin  # noqa: E402
from kafkacodec.errors import CorruptDataError  # noqa: E402
from kafkacodec.protocol import encode_versioned  # noqa: E402
from kafkacodec.protocol import messages as m  # noqa: E402

# nothing listens on the discard port: calls refused there fail before any request
NOWHERE = "127.0.0.1:9"
WAIT = 20


def _name(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _node(n):
    return None if n is None else (n.id, n.id_string, n.host, n.port, n.rack)


def _tps(tps):
    return [(tp.topic, tp.partition, tp.offset) for tp in tps]


def _member(x):
    return (x.member_id, x.client_id, x.host, x.group_instance_id, _tps(x.assignment.topic_partitions),
            x.target_assignment)


def _group(d):
    return {"group_id": d.group_id, "is_simple_consumer_group": d.is_simple_consumer_group,
            "partition_assignor": d.partition_assignor, "state": (d.state.name, d.state.value),
            "type": (d.type.name, d.type.value), "coordinator": _node(d.coordinator),
            "authorized_operations": d.authorized_operations, "members": sorted(map(_member, d.members))}


def _entry(e):
    return (e.name, e.value, e.source, e.is_read_only, e.is_default, e.is_sensitive, e.is_synonym,
            {k: _entry(v) for k, v in e.synonyms.items()}, e.incremental_operation)


def _topic_description(d):
    return {"name": d.name, "topic_id": (str(d.topic_id), d.topic_id.get_most_significant_bits(),
                                         d.topic_id.get_least_significant_bits()),
            "is_internal": d.is_internal, "authorized_operations": d.authorized_operations,
            "partitions": [(p.id, _node(p.leader), [_node(n) for n in p.replicas], [_node(n) for n in p.isr])
                           for p in d.partitions]}


def _code(excinfo):
    return excinfo.value.args[0].code()


@pytest.fixture(scope="module")
def admins(tansu_bootstrap):
    face = face_admin.AdminClient({"bootstrap.servers": tansu_bootstrap})
    real = real_admin.AdminClient({"bootstrap.servers": tansu_bootstrap})
    # librdkafka held to requests brokers had before KIP-848: groups are described with DescribeGroups
    real_classic = real_admin.AdminClient({"bootstrap.servers": tansu_bootstrap, "api.version.request": False,
                                           "broker.version.fallback": "0.9.0"})
    yield face, real, real_classic
    face.close()


@pytest.fixture(scope="module")
def live_group(tansu_bootstrap, admins):
    """(group id, topic, consumer) with one kafkacodec consumer that joined and was assigned
    both partitions of its topic."""
    face = admins[0]
    topic, group = _name("desc"), _name("g")
    face.create_topics([ck.admin.NewTopic(topic, 2, 1)])[topic].result(WAIT)
    consumer = ck.Consumer({"bootstrap.servers": tansu_bootstrap, "group.id": group, "client.id": "face-member",
                            "session.timeout.ms": 6000})
    consumer.subscribe([topic])
    deadline = time.monotonic() + WAIT
    while len(consumer.assignment()) < 2 and time.monotonic() < deadline:
        consumer.poll(0.1)
    assert sorted(_tps(consumer.assignment())) == [(topic, 0, ck.OFFSET_INVALID), (topic, 1, ck.OFFSET_INVALID)]
    yield group, topic, consumer
    consumer.close()


# -------------------------------------------------------------------------------- the types


def test_enums_and_reprs_match_confluent_kafka():
    for ours, theirs in ((ck.ConsumerGroupState, confluent_kafka.ConsumerGroupState),
                         (ck.ConsumerGroupType, confluent_kafka.ConsumerGroupType),
                         (face_admin.ResourceType, real_admin.ResourceType),
                         (face_admin.AlterConfigOpType, real_admin.AlterConfigOpType),
                         (face_admin.ConfigSource, real_admin.ConfigSource)):
        assert [(x.name, x.value) for x in ours] == [(x.name, x.value) for x in theirs]
        assert {n: x.value for n, x in ours.__members__.items()} == \
            {n: x.value for n, x in theirs.__members__.items()}
        assert [repr(x) for x in ours] == [repr(x) for x in theirs]
    assert ck.ConsumerGroupState.EMPTY > ck.ConsumerGroupState.STABLE
    for args in (("topic", "t1"), ("BROKER", "1"), (2, "t2"), (face_admin.ResourceType.GROUP, "g")):
        ours, theirs = face_admin.ConfigResource(*args), real_admin.ConfigResource(*args)
        assert (repr(ours), ours.restype.value, ours.restype_int) == (repr(theirs), theirs.restype.value,
                                                                      theirs.restype_int)
    assert face_admin.ConfigResource("topic", "a") == face_admin.ConfigResource(face_admin.ResourceType.TOPIC, "a")
    assert len({face_admin.ConfigResource("topic", "a"), face_admin.ConfigResource(2, "a")}) == 1
    assert face_admin.ConfigResource.Type is face_admin.ResourceType
    with pytest.raises(ValueError, match="'lake' is not a ResourceType"):
        face_admin.ConfigResource("lake", "x")
    for args in (("retention.ms", "100"), ("cleanup.policy", None)):
        assert repr(face_admin.ConfigEntry(*args)) == repr(real_admin.ConfigEntry(*args))
        assert str(face_admin.ConfigEntry(*args)) == str(real_admin.ConfigEntry(*args))
    for args in ((1, "h", 9092), (2, "h2", 1, "rack-a")):
        assert str(ck.Node(*args)) == str(confluent_kafka.Node(*args))
    for msb, lsb in ((0, 0), (1, 2), (-1, 2), (-(1 << 63), (1 << 63) - 1)):
        ours, theirs = ck.Uuid(msb, lsb), confluent_kafka.Uuid(msb, lsb)
        assert (str(ours), repr(ours)) == (str(theirs), repr(theirs))
        assert (ours.get_most_significant_bits(), ours.get_least_significant_bits()) == (msb, lsb)
    with pytest.raises(OverflowError, match="most_significant_bits"):
        ck.Uuid(1 << 63, 0)
    assert face_admin.ConsumerGroupListing("g", False, "stable", 2).state is ck.ConsumerGroupState.STABLE
    assert face_admin.ConsumerGroupListing("g", False, "stable", 2).type is ck.ConsumerGroupType.CLASSIC


# -------------------------------------------------------------------------------- consumer groups


def test_list_consumer_groups_matches_confluent_kafka(tansu_bootstrap, admins, live_group):
    face, real, real_classic = admins
    from kafkacodec.client import Admin

    # a group with committed offsets only: Tansu lists it (a broker shared by other tests lists theirs too)
    offsets_only = _name("listed")
    with Admin({"bootstrap.servers": tansu_bootstrap}) as a:
        a.alter_consumer_group_offsets(offsets_only, {(live_group[1], 0): 1})
    ours = face.list_consumer_groups(request_timeout=10).result(WAIT)
    assert ours.errors == []

    def listed(result, typed=True):
        # by name: the face's enums are its own classes, equal to confluent-kafka's in name and value
        return sorted((g.group_id, g.is_simple_consumer_group, g.state.name) + ((g.type.name,) if typed else ())
                      for g in result.valid)
    theirs = real.list_consumer_groups(request_timeout=10).result(WAIT)
    assert offsets_only in {g.group_id for g in theirs.valid}
    assert listed(ours) == listed(theirs)
    assert listed(ours, typed=False) == listed(real_classic.list_consumer_groups(request_timeout=10).result(WAIT),
                                               typed=False)
    # the filters go to the broker, as librdkafka sends them; Tansu ignores them, so both list
    # the same groups whatever the filter
    stable = face.list_consumer_groups(request_timeout=10, states={ck.ConsumerGroupState.STABLE}).result(WAIT)
    assert listed(stable) == listed(real.list_consumer_groups(
        request_timeout=10, states={confluent_kafka.ConsumerGroupState.STABLE}).result(WAIT))
    for kind in ("CLASSIC", "CONSUMER"):
        mine = face.list_consumer_groups(request_timeout=10, types={ck.ConsumerGroupType[kind]}).result(WAIT)
        assert listed(mine) == listed(real.list_consumer_groups(
            request_timeout=10, types={confluent_kafka.ConsumerGroupType[kind]}).result(WAIT))
    assert offsets_only in {g.group_id for g in face.list_consumer_groups(
        request_timeout=10, types={ck.ConsumerGroupType.CONSUMER}).result(WAIT).valid}


def test_altering_a_live_groups_offsets_reports_each_partitions_error(admins, live_group):
    """The broker refuses an admin's commit for a group with members: librdkafka resolves the
    future with the error on each partition, and so does the face."""
    face, real, _ = admins
    group, topic, _consumer = live_group
    results = []
    for admin, tp_type, cgtp in ((face, ck.TopicPartition, ck.ConsumerGroupTopicPartitions),
                                 (real, confluent_kafka.TopicPartition, confluent_kafka.ConsumerGroupTopicPartitions)):
        done = admin.alter_consumer_group_offsets([cgtp(group, [tp_type(topic, 0, 1), tp_type(topic, 1, 2)])],
                                                  request_timeout=10)[group].result(WAIT)
        results.append((done.group_id, [(tp.topic, tp.partition, tp.offset, tp.error.code() if tp.error else None)
                                        for tp in done.topic_partitions]))
    assert results[0] == results[1]
    assert [code for *_, code in results[0][1]] == [ck.KafkaError.UNKNOWN_MEMBER_ID] * 2


def test_list_consumer_groups_converts_the_admins_listing_and_passes_the_filters(monkeypatch):
    face = face_admin.AdminClient({"bootstrap.servers": NOWHERE})
    try:
        listing = [GroupListing("a", "consumer", "Stable", "Classic"), GroupListing("b", "", "Empty"),
                   GroupListing("c", "consumer", None, "Consumer"), GroupListing("d", "connect", "PreparingRebalance"),
                   GroupListing("e", "consumer", "Assigning")]
        asked = []

        def by_broker(timeout, states, types):
            asked.append((states, types))
            return {1: listing[:2], 2: listing[2:]}
        monkeypatch.setattr(face._a, "list_consumer_groups_by_broker", by_broker)
        got = face.list_consumer_groups().result(WAIT)
        S = ck.ConsumerGroupState
        assert [(g.group_id, g.is_simple_consumer_group, g.state, g.type) for g in got.valid] == [
            ("a", False, S.STABLE, ck.ConsumerGroupType.CLASSIC), ("b", True, S.EMPTY, ck.ConsumerGroupType.UNKNOWN),
            ("c", False, S.UNKNOWN, ck.ConsumerGroupType.CONSUMER),
            ("d", False, S.PREPARING_REBALANCING, ck.ConsumerGroupType.UNKNOWN),
            ("e", False, S.UNKNOWN, ck.ConsumerGroupType.UNKNOWN)]
        # the filters go to the brokers under the names librdkafka sends; what they answer is listed
        only = face.list_consumer_groups(states={S.EMPTY, S.PREPARING_REBALANCING},
                                         types={ck.ConsumerGroupType.CLASSIC}).result(WAIT)
        assert len(only.valid) == 5
        assert asked == [([], []), (["Empty", "PreparingRebalance"], ["Classic"])]

        # a broker's error is one of the result's errors, beside the other brokers' groups, as
        # librdkafka reports it
        monkeypatch.setattr(face._a, "list_consumer_groups_by_broker",
                            lambda timeout, states, types: {1: E.error_for(30, "ListGroups of broker 1"),
                                                            2: listing[2:]})
        got = face.list_consumer_groups().result(WAIT)
        assert [g.group_id for g in got.valid] == ["c", "d", "e"] and [e.args[0].code() for e in got.errors] == [30]
    finally:
        face.close()


def test_describe_consumer_groups_matches_confluent_kafka(admins, live_group):
    face, real, real_classic = admins
    group, topic, consumer = live_group
    unknown = _name("nobody")
    ours = {g: f.result(WAIT) for g, f in face.describe_consumer_groups([group, unknown],
                                                                        request_timeout=10).items()}
    theirs = {g: f.result(WAIT) for g, f in real.describe_consumer_groups([group, unknown],
                                                                          request_timeout=10).items()}
    assert {g: _group(d) for g, d in ours.items()} == {g: _group(d) for g, d in theirs.items()}
    # ConsumerGroupDescribe answered (Tansu answers it for any group): type CONSUMER, as librdkafka says
    live = ours[group]
    assert live.state is ck.ConsumerGroupState.STABLE and live.type is ck.ConsumerGroupType.CONSUMER
    md = face.list_topics(timeout=10)
    assert _node(live.coordinator)[:4] in {(b.id, str(b.id), b.host, b.port) for b in md.brokers.values()}
    with_ops = face.describe_consumer_groups([group], request_timeout=10, include_authorized_operations=True)
    real_ops = real.describe_consumer_groups([group], request_timeout=10, include_authorized_operations=True)
    assert with_ops[group].result(WAIT).authorized_operations == real_ops[group].result(WAIT).authorized_operations

    # what DescribeGroups answers (the Admin's classic=True), as librdkafka held to it describes it
    classic = {g: face_admin._group_description(d, live.coordinator) for g, d in face._a.describe_consumer_groups(
        [group, unknown], timeout=10, classic=True).items()}
    held = {g: f.result(WAIT) for g, f in real_classic.describe_consumer_groups([group, unknown],
                                                                                request_timeout=10).items()}
    assert {g: _group(d) for g, d in classic.items()} == {g: _group(d) for g, d in held.items()}
    assert classic[group].type is ck.ConsumerGroupType.CLASSIC
    assert [x.member_id.startswith("face-member-") for x in classic[group].members] == [True]


def test_member_assignment_bytes_become_topic_partitions():
    assignment = encode_versioned(m.ConsumerProtocolAssignment(assigned_partitions=[
        m.ConsumerProtocolAssignment.TopicPartition(topic="t1", partitions=[2, 0]),
        m.ConsumerProtocolAssignment.TopicPartition(topic="t0", partitions=[1])], user_data=None), 1)
    # the client decodes a classic consumer member's bytes, in their order
    assigned = consumer_assignment("g", "m-1", assignment)
    assert assigned == [("t1", 2), ("t1", 0), ("t0", 1)]
    assert consumer_assignment("g", "m-2", b"") == []
    with pytest.raises(CorruptDataError, match="group 'g' member 'm-9': assignment is not a ConsumerProtocolAssignment"):
        consumer_assignment("g", "m-9", assignment[:9])
    # the face only gives them confluent-kafka's types
    described = GroupDescription("g", "Stable", "consumer", "range", [
        GroupMember("m-1", "static-1", "client-1", "/10.0.0.1", assignment, assigned=assigned),
        GroupMember("m-2", None, "client-2", "/10.0.0.2", b"", assigned=[])])
    d = face_admin._group_description(described, ck.Node(7, "h", 1))
    assert (d.group_id, d.is_simple_consumer_group, d.partition_assignor, d.state, d.type, _node(d.coordinator)) == \
        ("g", False, "range", ck.ConsumerGroupState.STABLE, ck.ConsumerGroupType.CLASSIC, (7, "7", "h", 1, None))
    assert [_member(x) for x in d.members] == [
        ("m-1", "client-1", "/10.0.0.1", "static-1", [("t1", 2, -1001), ("t1", 0, -1001), ("t0", 1, -1001)], None),
        ("m-2", "client-2", "/10.0.0.2", None, [], None)]
    # a Connect group's assignments are not consumer assignments: the client leaves them undecoded
    connect = GroupDescription("c", "Stable", "connect", "sessioned",
                               [GroupMember("w", None, "c", "h", b"\x00\x01xyz")])
    assert face_admin._group_description(connect, ck.Node(7, "h", 1)).members[0].assignment.topic_partitions == []


# -------------------------------------------------------------------------------- configs


def test_describe_and_incremental_alter_configs_match_confluent_kafka(admins):
    face, real, _ = admins
    topic = _name("cfg")
    face.create_topics([ck.admin.NewTopic(topic, 1, 1)])[topic].result(WAIT)
    ours_res, theirs_res = face_admin.ConfigResource("topic", topic), real_admin.ConfigResource("topic", topic)
    AO, RO = face_admin.AlterConfigOpType, real_admin.AlterConfigOpType

    def both_describe(*names):
        ours = {k: {n: _entry(e) for n, e in f.result(WAIT).items()}
                for k, f in face.describe_configs([face_admin.ConfigResource(*n) for n in names],
                                                  request_timeout=10).items()}
        theirs = {k: {n: _entry(e) for n, e in f.result(WAIT).items()}
                  for k, f in real.describe_configs([real_admin.ConfigResource(*n) for n in names],
                                                    request_timeout=10).items()}
        assert sorted(map(repr, ours)) == sorted(map(repr, theirs))
        by_repr = {repr(k): v for k, v in theirs.items()}
        for k, v in ours.items():
            assert v == by_repr[repr(k)], k
        return {repr(k): v for k, v in ours.items()}

    broker = str(min(face.list_topics(timeout=10).brokers))
    # a topic nobody set a config of, a broker, and a topic that does not exist (Tansu: no configs)
    before = both_describe(("topic", topic), ("broker", broker), ("topic", _name("absent")))
    assert before[repr(ours_res)] == {}

    done = face.incremental_alter_configs([face_admin.ConfigResource("topic", topic, incremental_configs=[
        face_admin.ConfigEntry("retention.ms", "12345", incremental_operation=AO.SET),
        face_admin.ConfigEntry("cleanup.policy", "compact", incremental_operation=AO.APPEND)])],
        request_timeout=10)
    assert list(done) == [ours_res] and done[ours_res].result(WAIT) is None
    after = both_describe(("topic", topic))[repr(ours_res)]
    assert {n: e[1] for n, e in after.items()} == {"retention.ms": "12345", "cleanup.policy": "compact"}

    # what confluent-kafka deletes, the face sees gone; what the face deletes, confluent-kafka does
    real.incremental_alter_configs([real_admin.ConfigResource("topic", topic, incremental_configs=[
        real_admin.ConfigEntry("retention.ms", None, incremental_operation=RO.DELETE)])])[theirs_res].result(WAIT)
    assert sorted(both_describe(("topic", topic))[repr(ours_res)]) == ["cleanup.policy"]
    face.incremental_alter_configs([face_admin.ConfigResource("topic", topic, incremental_configs=[
        face_admin.ConfigEntry("cleanup.policy", None, incremental_operation=AO.DELETE)])])[ours_res].result(WAIT)
    assert both_describe(("topic", topic))[repr(ours_res)] == {}


# -------------------------------------------------------------------------------- topics


def test_describe_topics_matches_confluent_kafka(admins):
    face, real, _ = admins
    topic, absent = _name("dt"), _name("absent")
    face.create_topics([ck.admin.NewTopic(topic, 3, 1)])[topic].result(WAIT)
    ours = face.describe_topics(ck.TopicCollection([topic, absent]), request_timeout=10)
    theirs = real.describe_topics(confluent_kafka.TopicCollection([topic, absent]), request_timeout=10)
    assert list(ours) == list(theirs) == [topic, absent]
    mine = ours[topic].result(WAIT)
    assert _topic_description(mine) == _topic_description(theirs[topic].result(WAIT))
    assert [p.id for p in mine.partitions] == [0, 1, 2] and str(mine.topic_id) != "AAAAAAAAAAAAAAAAAAAAAA"
    with pytest.raises(ck.KafkaException) as excinfo:
        ours[absent].result(WAIT)
    with pytest.raises(confluent_kafka.KafkaException) as real_excinfo:
        theirs[absent].result(WAIT)
    assert _code(excinfo) == _code(real_excinfo) == ck.KafkaError.UNKNOWN_TOPIC_OR_PART


# -------------------------------------------------------------------------------- bad arguments


def _outcome(call):
    """('raises', exception type) or ('futures', sorted error codes) of an admin call."""
    try:
        got = call()
    except (TypeError, ValueError) as exc:
        return "raises", (TypeError if isinstance(exc, TypeError) else ValueError)
    futures = got.values() if isinstance(got, dict) else [got]
    codes = []
    for f in futures:
        exc = f.exception(WAIT)
        codes.append(None if exc is None else exc.args[0].code())
    return "futures", sorted(codes, key=str)


def test_bad_arguments_fail_as_with_confluent_kafka(admins):
    face, real, _ = admins
    F, R = face_admin, real_admin
    entry = {F: lambda name, value: F.ConfigEntry(name, value, incremental_operation=F.AlterConfigOpType.SET),
             R: lambda name, value: R.ConfigEntry(name, value, incremental_operation=R.AlterConfigOpType.SET)}
    cases = [
        ("states not a set", lambda a, mod, top: a.list_consumer_groups(states=[top.ConsumerGroupState.STABLE])),
        ("states of another type", lambda a, mod, top: a.list_consumer_groups(states={"Stable"})),
        ("group ids not a list", lambda a, mod, top: a.describe_consumer_groups(("g",))),
        ("no group ids", lambda a, mod, top: a.describe_consumer_groups([])),
        ("a group twice", lambda a, mod, top: a.describe_consumer_groups(["g", "g"], request_timeout=5)),
        ("topics not a TopicCollection", lambda a, mod, top: a.describe_topics(["t"])),
        ("a topic twice", lambda a, mod, top: a.describe_topics(top.TopicCollection(["t", "t"]), request_timeout=5)),
        ("no topics", lambda a, mod, top: a.describe_topics(top.TopicCollection([]))),
        ("an entry without operation", lambda a, mod, top: a.incremental_alter_configs(
            [mod.ConfigResource("topic", "t", incremental_configs=[mod.ConfigEntry("retention.ms", "1")])])),
        ("a config twice", lambda a, mod, top: a.incremental_alter_configs(
            [mod.ConfigResource("topic", "t", incremental_configs=[entry[mod]("retention.ms", "1"),
                                                                    entry[mod]("retention.ms", "2")])],
            request_timeout=5)),
    ]
    for what, call in cases:
        assert _outcome(lambda: call(face, F, ck)) == _outcome(lambda: call(real, R, confluent_kafka)), what


def test_what_kafkacodecs_admin_cannot_answer_is_refused():
    face = face_admin.AdminClient({"bootstrap.servers": NOWHERE})
    try:
        refusals = [
            (lambda: face.incremental_alter_configs([face_admin.ConfigResource("topic", "t", set_config={"a": "1"})]),
             "has set_config values ['a']"),
        ]
        for call, words in refusals:
            with pytest.raises(ck.KafkaException) as excinfo:
                call()
            assert _code(excinfo) == ck.KafkaError._INVALID_ARG and words in excinfo.value.args[0].str()
        # refused by kafkacodec's Admin (or the face) before any request, through the future
        for resource, words in ((face_admin.ConfigResource("group", "g"), "must be 'topic' or 'broker'"),
                                (face_admin.ConfigResource("broker", "one"), "its node id, not 'one'")):
            exc = face.describe_configs([resource])[resource].exception(WAIT)
            assert exc.args[0].code() == ck.KafkaError._INVALID_ARG and words in exc.args[0].str()
        # an empty types filter filters nothing: the call goes to the (absent) broker
        exc = face.list_consumer_groups(types=set(), request_timeout=0.5).exception(WAIT)
        assert exc.args[0].code() == ck.KafkaError._TIMED_OUT
    finally:
        face.close()
