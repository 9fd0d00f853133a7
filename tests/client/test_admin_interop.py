"""Admin where peers are loose or lack an API, checked against what librdkafka does with the
same peer: the decoders' allow-list of what peers write against the specification, calls a
broker lacks failing at once, no request sent again once the broker dropped the connection
on it, OffsetFetch asked at the version librdkafka asks, groups described ConsumerGroupDescribe
first; ACLs, SCRAM credentials and leader elections as they go on the wire."""
import collections
import concurrent.futures
import hashlib
import time
import uuid

import pytest

from kafkacodec.client import Admin, TopicPartition
from kafkacodec.client import admin as A
from kafkacodec.client import errors as E
from kafkacodec.errors import CorruptDataError
from kafkacodec.protocol import SPECS, _lenient, decode_response, messages as m, pure_executor
from kafkacodec.protocol import framing

_peers = pytest.importorskip("_peers")

# answers captured from the peers (size, correlation id 7, header tags, then the body)
MOCK_OFFSET_FETCH_V6 = bytes.fromhex("0000000d00000007000000000000000000")      # topics: null
MOCK_OFFSET_FETCH_V5 = bytes.fromhex("0000000e0000000700000000ffffffff0000")    # topics: null (int32 -1)
TANSU_SCRAM_NONE = bytes.fromhex("0000000d00000007000000000000000000")          # results: left out
TANSU_OFFSET_FETCH_V7 = bytes.fromhex("0000000c000000070000000000000000")       # topics: left out
# the mock's SyncGroup refused (INVALID_REQUEST, 42) with its assignment written null
MOCK_SYNC_GROUP_V4 = bytes.fromhex("0000000d0000000700" "00000000" "002a" "00" "00")
MOCK_SYNC_GROUP_V3 = bytes.fromhex("0000000e00000007" "00000000" "002a" "ffffffff")


def _decoded(api, version, frame):
    """The body both executors decode from `frame`; they must agree."""
    compiled = decode_response(api, version, frame)[1]
    pure = framing.decode_response(api, version, frame, impl=pure_executor)[1]
    assert repr(compiled) == repr(pure)
    return compiled


# ------------------------------------------------------------------- the allow-list

def test_a_null_topics_array_in_offset_fetch_is_read_as_empty_and_logged(caplog):
    with caplog.at_level("DEBUG", logger="kafkacodec.protocol"):
        for version, frame in ((6, MOCK_OFFSET_FETCH_V6), (5, MOCK_OFFSET_FETCH_V5)):
            body = _decoded("OffsetFetch", version, frame)
            assert body.topics == [] and body.error_code == 0
    lines = [r.getMessage() for r in caplog.records if r.name == "kafkacodec.protocol"]
    assert len(lines) == 4  # one per decode, each executor
    assert all(line.startswith("OffsetFetchResponse.topics: null, read as empty (librdkafka's mock cluster")
               for line in lines)


def test_a_null_assignment_in_sync_group_is_read_as_empty_so_its_error_is_seen(caplog):
    with caplog.at_level("DEBUG", logger="kafkacodec.protocol"):
        for version, frame in ((4, MOCK_SYNC_GROUP_V4), (3, MOCK_SYNC_GROUP_V3)):
            body = _decoded("SyncGroup", version, frame)
            assert (body.error_code, body.assignment) == (42, b"")
    assert any(r.getMessage().startswith("SyncGroupResponse.assignment: null, read as empty (librdkafka's mock")
               for r in caplog.records)


def test_the_allow_list_is_narrow():
    # the same null where no entry allows it is refused, as the specification says
    commit_v8 = bytes.fromhex("0000000d0000000700000000000000")  # OffsetCommit v8: topics null
    with pytest.raises(CorruptDataError, match="null in a non-nullable field"):
        decode_response("OffsetCommit", 8, commit_v8 + b"\x00\x00")
    # a field left out is read as absent only where listed so: Tansu's OffsetFetch v7 answer
    # without its topics does not decode (the client asks Tansu v8+, where it lists them)
    with pytest.raises(CorruptDataError):
        decode_response("OffsetFetch", 7, TANSU_OFFSET_FETCH_V7)
    # every entry names its peer and a field of the message
    for (message, field), peer in {**_lenient.NULL_AS_EMPTY, **_lenient.ABSENT_AS_EMPTY}.items():
        assert peer and ("Tansu" in peer or "mock" in peer) and "librdkafka" in peer
        assert field in {f.name.lower() for f in SPECS[message].variants[-1].fields}


def test_scram_credentials_tansu_leaves_out_are_read_as_none(caplog):
    with caplog.at_level("DEBUG", logger="kafkacodec.protocol"):
        body = _decoded("DescribeUserScramCredentials", 0, TANSU_SCRAM_NONE)
    assert (body.error_code, body.error_message, body.results) == (0, None, [])
    assert any(r.getMessage().startswith("DescribeUserScramCredentialsResponse.results: absent, read as empty "
                                         "(Tansu") for r in caplog.records)
    # an answer with its results decodes by the book: one user, one credential
    R = m.DescribeUserScramCredentialsResponse
    full = framing.encode_response("DescribeUserScramCredentials", 0, 7, R(results=[
        R.DescribeUserScramCredentialsResult(user="alice", error_code=0, error_message=None,
                                             credential_infos=[R.CredentialInfo(mechanism=1, iterations=4096)])]))
    assert _decoded("DescribeUserScramCredentials", 0, full).results[0].credential_infos[0].iterations == 4096


# ------------------------------------------------------------------- against the peers

def _confluent_offsets(bootstrap, group):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    from confluent_kafka.admin import AdminClient
    client = AdminClient({"bootstrap.servers": bootstrap})  # kept: its futures end with it
    got = client.list_consumer_group_offsets([confluent_kafka.ConsumerGroupTopicPartitions(group)])[group].result(20)
    return {(tp.topic, tp.partition): tp.offset for tp in got.topic_partitions or ()}


@pytest.mark.parametrize("peer", ["mock", "tansu"])
def test_every_offset_of_a_group_as_confluent_kafka_lists_it(peer, request):
    bootstrap = request.getfixturevalue(f"{peer}_bootstrap")
    topic, group = f"t-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, topic, 2)
    with Admin({"bootstrap.servers": bootstrap}) as admin:
        admin.alter_consumer_group_offsets(group, {(topic, 0): 3, (topic, 1): 4})
        ours = {(tp.topic, tp.partition): o for tp, o in admin.list_consumer_group_offsets(group, timeout=20).items()}
    # Tansu lists them from OffsetFetch v8 on (both clients ask v9); the mock (v6 at most) answers none
    assert ours == _confluent_offsets(bootstrap, group)
    assert ours == ({(topic, 0): 3, (topic, 1): 4} if peer == "tansu" else {})


def _acl(name="t1", **kw):
    fields = dict(resource_type=A.AclResourceType.TOPIC, name=name, pattern_type=A.AclPatternType.LITERAL,
                  principal="User:alice", host="*", operation=A.AclOperation.READ,
                  permission_type=A.AclPermissionType.ALLOW)
    fields.update(kw)
    return A.AclBinding(**fields)


ANY_ACL = A.AclBinding(A.AclResourceType.ANY, None, A.AclPatternType.ANY, None, None, A.AclOperation.ANY,
                       A.AclPermissionType.ANY)


def _outcome(call):
    """(what the call returned or the name of the exception it raised, seconds it took)."""
    started = time.monotonic()
    try:
        got = call()
    except E.UnsupportedVersionError as exc:
        got = f"unsupported: {str(exc).rsplit('support ', 1)[-1].rstrip(')')}"
    except Exception as exc:  # noqa: BLE001  (the test names what it expects)
        got = type(exc).__name__
    return got, time.monotonic() - started


def test_what_tansu_lacks_fails_at_once(tansu_bootstrap):
    topic = f"t-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    tp = TopicPartition(topic, 0)
    with Admin({"bootstrap.servers": tansu_bootstrap}, default_api_timeout_ms=20000) as admin:
        admin.describe_topics([topic])
        calls = {
            "describe_acls": lambda: admin.describe_acls(ANY_ACL),
            # Tansu leaves CreateAcls' results out (librdkafka aborts on that answer)
            "create_acls": lambda: admin.create_acls([_acl(topic)]),
            "delete_acls": lambda: admin.delete_acls([ANY_ACL]),
            "describe_scram": lambda: admin.describe_user_scram_credentials(),
            "alter_scram": lambda: admin.alter_user_scram_credentials([
                A.ScramUpsertion("alice", A.ScramMechanism.SCRAM_SHA_256, 4096, b"secret")]),
            "elect_leaders": lambda: admin.elect_leaders(A.ElectionType.PREFERRED, [tp]),
            "alter_configs": lambda: admin.alter_configs({("topic", topic): {"retention.ms": "1000"}}),
            # Tansu lists DeleteRecords and ListOffsets(max_timestamp) but drops the connection on
            # them: the call fails then, as librdkafka's does, instead of asking again for 20 s
            "delete_records": lambda: admin.delete_records({tp: 1}),
            "max_timestamp": lambda: admin.list_offsets({tp: "max_timestamp"}),
        }
        got = {name: _outcome(call) for name, call in calls.items()}
        # the connection comes back for what Tansu serves
        assert admin.list_offsets({tp: "earliest"})[tp].offset == 0
    assert {name: result for name, (result, _) in got.items()} == {
        "describe_acls": [], "create_acls": "CorruptDataError", "delete_acls": "unsupported: DeleteAclsRequest",
        "describe_scram": {}, "alter_scram": {"alice": None}, "elect_leaders": "unsupported: ElectLeadersRequest",
        "alter_configs": "unsupported: AlterConfigsRequest", "delete_records": "KafkaConnectionError",
        "max_timestamp": "KafkaConnectionError"}
    slow = {name: round(took, 2) for name, (_, took) in got.items() if took > 2}
    assert slow == {}


def test_what_the_mock_lacks_fails_at_once(mock_bootstrap):
    topic = f"t-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(mock_bootstrap, topic, 1)
    tp = TopicPartition(topic, 0)
    with Admin({"bootstrap.servers": mock_bootstrap}, default_api_timeout_ms=20000) as admin:
        calls = {
            "describe_acls": lambda: admin.describe_acls(ANY_ACL),
            "create_acls": lambda: admin.create_acls([_acl(topic)]),
            "delete_acls": lambda: admin.delete_acls([ANY_ACL]),
            "describe_scram": lambda: admin.describe_user_scram_credentials(["alice"]),
            "alter_scram": lambda: admin.alter_user_scram_credentials([A.ScramDeletion("alice",
                                                                                       A.ScramMechanism.SCRAM_SHA_512)]),
            "elect_leaders": lambda: admin.elect_leaders(A.ElectionType.UNCLEAN),
            "delete_records": lambda: admin.delete_records({tp: 1}),
            # ConsumerGroupDescribe missing, DescribeGroups is asked, and is missing too
            "describe_groups": lambda: admin.describe_consumer_groups(["g"]),
            "max_timestamp": lambda: admin.list_offsets({tp: "max_timestamp"})[tp],
            # the mock serves share groups to members only (test_admin_share_groups: on the wire)
            "list_share": lambda: admin.list_share_groups(),
            "describe_share": lambda: admin.describe_share_groups(["g"]),
            "share_offsets": lambda: admin.list_share_group_offsets("g"),
            "alter_share": lambda: admin.alter_share_group_offsets("g", {tp: 0}),
            "delete_share": lambda: admin.delete_share_group_offsets("g", [topic]),
        }
        got = {name: _outcome(call) for name, call in calls.items()}
    assert {name: result for name, (result, _) in got.items()} == {
        "describe_acls": "unsupported: DescribeAclsRequest", "create_acls": "unsupported: CreateAclsRequest",
        "delete_acls": "unsupported: DeleteAclsRequest",
        "describe_scram": "unsupported: DescribeUserScramCredentialsRequest",
        "alter_scram": "unsupported: AlterUserScramCredentialsRequest",
        "elect_leaders": "unsupported: ElectLeadersRequest", "delete_records": "unsupported: DeleteRecordsRequest",
        "describe_groups": "unsupported: DescribeGroupsRequest",
        "max_timestamp": A.OffsetAndTimestamp(None, None, None),  # the mock answers -1, as librdkafka shows
        "list_share": "unsupported: ListGroupsRequest", "describe_share": "unsupported: ShareGroupDescribeRequest",
        "share_offsets": "unsupported: DescribeShareGroupOffsetsRequest",
        "alter_share": "unsupported: AlterShareGroupOffsetsRequest",
        "delete_share": "unsupported: DeleteShareGroupOffsetsRequest"}
    assert {name: round(took, 2) for name, (_, took) in got.items() if took > 2} == {}


def test_groups_are_described_consumer_group_describe_first(tansu_bootstrap):
    confluent_kafka = pytest.importorskip("confluent_kafka")
    from confluent_kafka.admin import AdminClient
    group = f"g-{uuid.uuid4().hex[:8]}"
    topic = f"t-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    with Admin({"bootstrap.servers": tansu_bootstrap}) as admin:
        admin.alter_consumer_group_offsets(group, {(topic, 0): 1})
        first = admin.describe_consumer_groups([group], include_authorized_operations=True)[group]
        classic = admin.describe_consumer_groups([group], classic=True)[group]
    client = AdminClient({"bootstrap.servers": tansu_bootstrap})  # kept: its futures end with it
    theirs = client.describe_consumer_groups([group], include_authorized_operations=True)[group].result(20)
    # Tansu answers ConsumerGroupDescribe for a classic group too: librdkafka calls it CONSUMER
    assert theirs.type is confluent_kafka.ConsumerGroupType.CONSUMER
    assert (first.group_type, first.state.upper(), first.authorized_operations) == \
        ("Consumer", theirs.state.name, theirs.authorized_operations)
    assert classic.group_type == "Classic"


# ------------------------------------------------------------------- on the wire, without a broker

class _Metadata:
    controller_id = 1
    brokers = {1: object()}

    def wait_for(self, predicate, timeout, what):
        return None

    def request_update(self):
        return None


class _Counters:
    def __init__(self):
        self.req = collections.Counter()


class _Client:
    """What Admin.over() needs of a client: answers (or failures) handed out in turn, the
    request counters a connection keeps, and the bodies sent."""

    def __init__(self, outcomes):
        self.conf = {"default.api.timeout.ms": 5000, "request.timeout.ms": 5000, "retry.backoff.ms": 10,
                     "retry.backoff.max.ms": 20}
        self.metadata = _Metadata()
        self.broker_counters = [_Counters()]
        self.outcomes = list(outcomes)
        self.sent = []

    def send(self, node, api, body, timeout=None):
        self.sent.append((api, body))
        on_wire, outcome = self.outcomes.pop(0)
        if on_wire:
            self.broker_counters[0].req[framing.api_key_of(api)] += 1
        future = concurrent.futures.Future()
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
        return future


def _scram_answer(*users):
    R = m.AlterUserScramCredentialsResponse
    return R(results=[R.AlterUserScramCredentialsResult(user=u, error_code=0, error_message=None) for u in users])


def test_a_request_is_sent_again_only_if_it_never_went_out():
    lost = E.KafkaConnectionError("broker 1: closed by the broker")
    # not connected yet, twice: asked again until answered
    client = _Client([(False, lost), (False, lost), (True, _scram_answer("u"))])
    assert Admin.over(client).alter_user_scram_credentials([A.ScramDeletion("u", A.ScramMechanism.SCRAM_SHA_256)]) \
        == {"u": None}
    assert len(client.sent) == 3
    # sent, then the connection closed under it: not sent again
    client = _Client([(True, lost), (True, _scram_answer("u"))])
    with pytest.raises(E.KafkaConnectionError):
        Admin.over(client).alter_user_scram_credentials([A.ScramDeletion("u", A.ScramMechanism.SCRAM_SHA_256)])
    assert len(client.sent) == 1


def test_scram_upsertions_send_the_salted_password_only():
    client = _Client([(True, _scram_answer("alice", "bob", "carol"))])
    Admin.over(client).alter_user_scram_credentials([
        A.ScramUpsertion("alice", A.ScramMechanism.SCRAM_SHA_256, 4096, b"pw", b"salt"),
        A.ScramUpsertion("bob", A.ScramMechanism.SCRAM_SHA_512, 8192, b"pw"),
        A.ScramDeletion("carol", A.ScramMechanism.SCRAM_SHA_512)])
    (api, body), = client.sent
    alice, bob = body.upsertions
    assert (alice.name, alice.mechanism, alice.iterations, alice.salt) == ("alice", 1, 4096, b"salt")
    # RFC 5802's SaltedPassword: Hi(password, salt, iterations)
    assert alice.salted_password == hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 4096)
    assert (bob.mechanism, len(bob.salt)) == (2, 64)  # a random salt of librdkafka's size
    assert bob.salted_password == hashlib.pbkdf2_hmac("sha512", b"pw", bob.salt, 8192)
    assert [(d.name, d.mechanism) for d in body.deletions] == [("carol", 2)]
    assert b"pw" not in framing.encode_request(api, 0, body, correlation_id=1, client_id="x")


def test_acls_and_elections_as_they_go_and_come_back():
    D = m.DescribeAclsResponse
    described = D(resources=[D.DescribeAclsResource(resource_type=2, resource_name="t", pattern_type=4, acls=[
        D.AclDescription(principal="User:a", host="*", operation=3, permission_type=3),
        D.AclDescription(principal="User:b", host="h", operation=99, permission_type=2)])])
    client = _Client([(True, described)])
    got = Admin.over(client).describe_acls(ANY_ACL)
    assert got == [A.AclBinding(A.AclResourceType.TOPIC, "t", A.AclPatternType.PREFIXED, "User:a", "*",
                                A.AclOperation.READ, A.AclPermissionType.ALLOW),
                   # an operation this client has no name for is UNKNOWN
                   A.AclBinding(A.AclResourceType.TOPIC, "t", A.AclPatternType.PREFIXED, "User:b", "h",
                                A.AclOperation.UNKNOWN, A.AclPermissionType.DENY)]
    sent = client.sent[0][1]
    assert (sent.resource_type_filter, sent.resource_name_filter, sent.pattern_type_filter, sent.operation) == \
        (1, None, 1, 1)

    L = m.ElectLeadersResponse
    client = _Client([(True, L(error_code=0, replica_election_results=[L.ReplicaElectionResult(
        topic="t", partition_result=[L.PartitionResult(partition_id=0, error_code=0, error_message=None),
                                     L.PartitionResult(partition_id=1, error_code=84, error_message="not needed")])]))])
    got = Admin.over(client).elect_leaders(A.ElectionType.UNCLEAN, [("t", 1), ("t", 0)])
    assert got[TopicPartition("t", 0)] is None
    assert isinstance(got[TopicPartition("t", 1)], E.ElectionNotNeededError)
    body = client.sent[0][1]
    assert body.election_type == 1 and [(t.topic, t.partitions) for t in body.topic_partitions] == [("t", [0, 1])]

    with pytest.raises(E.InvalidArgumentError, match="names its resource, principal and host"):
        Admin.over(_Client([])).create_acls([_acl(principal=None)])
