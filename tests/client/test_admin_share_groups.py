"""Admin's share group calls (KIP-932): listing (ListGroups with the "Share" type filter),
ShareGroupDescribe, and the share group offsets (Describe/Alter/DeleteShareGroupOffsets), on a
scripted broker answering as Kafka's specification says: librdkafka's mock cluster (2.16)
serves share groups to members only, none of these APIs (test_admin_interop checks that each
call fails at once there, naming the API)."""
import uuid

import pytest

from kafkacodec.client import Admin, TopicPartition
from kafkacodec.client import admin as A
from kafkacodec.client import errors as E
from kafkacodec.protocol import api_key_of
from kafkacodec.protocol import messages as m

from _scripted_broker import ScriptedBroker

pytestmark = pytest.mark.timeout(60)

TOPIC_ID = uuid.UUID("6ec7504a-90e3-462a-9e9d-cf00229cae85")


class _ShareBroker(ScriptedBroker):
    """One broker answering ApiVersions, Metadata and FindCoordinator (itself) and the share
    group admin APIs with `answers` {api name: fn(request) -> response}."""

    OFFERED = {"ApiVersions": 3, "Metadata": 12, "FindCoordinator": 3, "ListGroups": 5, "ShareGroupDescribe": 1,
               "DescribeShareGroupOffsets": 1, "AlterShareGroupOffsets": 0, "DeleteShareGroupOffsets": 0}
    NAMES = {api_key_of(n): n for n in OFFERED}

    def __init__(self, answers):
        self.answers = answers
        super().__init__(self._answer)

    def _answer(self, key, version, body):
        name = self.NAMES[key]
        if name == "ApiVersions":
            av = m.ApiVersionsResponse.ApiVersion
            return m.ApiVersionsResponse(api_keys=[av(api_key=api_key_of(n), min_version=0, max_version=v)
                                                   for n, v in self.OFFERED.items()])
        if name == "Metadata":
            return m.MetadataResponse(cluster_id="scripted", controller_id=1, brokers=[
                m.MetadataResponse.MetadataResponseBroker(node_id=1, host="127.0.0.1", port=self.port)], topics=[])
        if name == "FindCoordinator":
            return m.FindCoordinatorResponse(error_code=0, node_id=1, host="127.0.0.1", port=self.port)
        return self.answers[name](body)

    def sent(self, name):
        return [(version, body) for key, version, body in self.seen if self.NAMES[key] == name]


@pytest.fixture
def scripted():
    brokers = []

    def start(answers):
        brokers.append(_ShareBroker(answers))
        return brokers[-1], Admin({"bootstrap.servers": f"127.0.0.1:{brokers[-1].port}"}, default_api_timeout_ms=5000)
    yield start
    for b in brokers:
        b.close()


def test_share_groups_are_listed_with_the_type_filter(scripted):
    G = m.ListGroupsResponse.ListedGroup
    broker, admin = scripted({"ListGroups": lambda req: m.ListGroupsResponse(error_code=0, groups=[
        G(group_id="workers", protocol_type="share", group_state="Stable", group_type="Share")])})
    with admin:
        assert admin.list_share_groups(states=["Stable"]) == [A.GroupListing("workers", "share", "Stable", "Share")]
    (version, req), = broker.sent("ListGroups")
    assert (version, req.types_filter, req.states_filter) == (5, ["Share"], ["Stable"])


def test_a_share_group_is_described_with_its_members_partitions(scripted):
    R = m.ShareGroupDescribeResponse

    def describe(req):
        if req.group_ids == ["nobody"]:
            return R(groups=[R.DescribedGroup(error_code=69, error_message="Group nobody is not a share group",
                                              group_id="nobody", members=[], authorized_operations=-2147483648)])
        member = R.Member(member_id="m-1", rack_id=None, member_epoch=3, client_id="c1", client_host="/10.0.0.1",
                          subscribed_topic_names=["jobs"], assignment=R.Assignment(topic_partitions=[
                              R.TopicPartitions(topic_id=TOPIC_ID, topic_name="jobs", partitions=[1, 0])]))
        return R(groups=[R.DescribedGroup(error_code=0, error_message=None, group_id="workers", group_state="Stable",
                                          group_epoch=4, assignment_epoch=4, assignor_name="simple",
                                          members=[member], authorized_operations=(1 << 3) | (1 << 8))])
    broker, admin = scripted({"ShareGroupDescribe": describe})
    with admin:
        got = admin.describe_share_groups(["workers"], include_authorized_operations=True)
        with pytest.raises(E.GroupIdNotFoundError, match="group 'nobody'"):
            admin.describe_share_groups(["nobody"])
    assert got == {"workers": A.ShareGroupDescription(
        "workers", "Stable", 4, 4, "simple",
        [A.ShareGroupMember("m-1", "c1", "/10.0.0.1", None, 3, ["jobs"],
                            [TopicPartition("jobs", 0), TopicPartition("jobs", 1)])],
        1, [A.AclOperation.READ, A.AclOperation.DESCRIBE])}
    assert [(v, req.group_ids, req.include_authorized_operations) for v, req in broker.sent("ShareGroupDescribe")] \
        == [(1, ["workers"], True), (1, ["nobody"], False)]


def test_share_group_offsets_are_listed_altered_and_deleted(scripted):
    D = m.DescribeShareGroupOffsetsResponse
    Al = m.AlterShareGroupOffsetsResponse
    De = m.DeleteShareGroupOffsetsResponse

    def offsets(req):
        parts = [D.DescribeShareGroupOffsetsResponsePartition(partition_index=0, start_offset=120, leader_epoch=2,
                                                              lag=30, error_code=0, error_message=None),
                 D.DescribeShareGroupOffsetsResponsePartition(partition_index=1, start_offset=-1, leader_epoch=-1,
                                                              lag=-1, error_code=0, error_message=None)]
        return D(groups=[D.DescribeShareGroupOffsetsResponseGroup(group_id="workers", error_code=0, topics=[
            D.DescribeShareGroupOffsetsResponseTopic(topic_name="jobs", topic_id=TOPIC_ID, partitions=parts)])])

    def alter(req):
        return Al(error_code=0, responses=[Al.AlterShareGroupOffsetsResponseTopic(
            topic_name="jobs", topic_id=TOPIC_ID, partitions=[
                Al.AlterShareGroupOffsetsResponsePartition(partition_index=p.partition_index,
                                                           error_code=0 if p.partition_index == 0 else 3,
                                                           error_message=None)
                for p in req.topics[0].partitions])])

    def delete(req):
        if req.group_id == "busy":
            return De(error_code=68, error_message="the group has members", responses=[])
        return De(error_code=0, responses=[De.DeleteShareGroupOffsetsResponseTopic(
            topic_name=t.topic_name, topic_id=TOPIC_ID, error_code=0, error_message=None) for t in req.topics])
    broker, admin = scripted({"DescribeShareGroupOffsets": offsets, "AlterShareGroupOffsets": alter,
                              "DeleteShareGroupOffsets": delete})
    with admin:
        assert admin.list_share_group_offsets("workers") == {
            TopicPartition("jobs", 0): A.ShareGroupOffset(120, 2, 30),
            TopicPartition("jobs", 1): A.ShareGroupOffset(None, None, None)}
        admin.list_share_group_offsets("workers", [("jobs", 1), ("jobs", 0)])
        admin.alter_share_group_offsets("workers", {("jobs", 0): 100})
        with pytest.raises(E.UnknownTopicOrPartitionError, match=r"jobs \[7\]"):
            admin.alter_share_group_offsets("workers", {("jobs", 0): 100, ("jobs", 7): 5})
        admin.delete_share_group_offsets("workers", ["jobs"])
        with pytest.raises(E.NonEmptyGroupError, match="busy"):
            admin.delete_share_group_offsets("busy", "jobs")
    (_, every), (_, some) = broker.sent("DescribeShareGroupOffsets")
    assert every.groups[0].group_id == "workers" and every.groups[0].topics is None  # null: every partition
    assert [(t.topic_name, t.partitions) for t in some.groups[0].topics] == [("jobs", [0, 1])]
    first = broker.sent("AlterShareGroupOffsets")[0][1]
    assert [(t.topic_name, [(p.partition_index, p.start_offset) for p in t.partitions]) for t in first.topics] \
        == [("jobs", [(0, 100)])]
    assert [[t.topic_name for t in req.topics] for _, req in broker.sent("DeleteShareGroupOffsets")] \
        == [["jobs"], ["jobs"]]


def test_the_confluent_face_lists_a_share_group_with_type_unknown(scripted):
    # confluent-kafka 2.16's ConsumerGroupType has no SHARE (and its AdminClient no share group calls)
    from kafkacodec.compat.confluent_kafka import ConsumerGroupState, ConsumerGroupType
    from kafkacodec.compat.confluent_kafka.admin import AdminClient
    G = m.ListGroupsResponse.ListedGroup
    broker, admin = scripted({"ListGroups": lambda req: m.ListGroupsResponse(error_code=0, groups=[
        G(group_id="workers", protocol_type="share", group_state="Stable", group_type="Share"),
        G(group_id="readers", protocol_type="consumer", group_state="Empty", group_type="Consumer")])})
    admin.close()
    face = AdminClient({"bootstrap.servers": f"127.0.0.1:{broker.port}"})
    listed = face.list_consumer_groups(request_timeout=5).result(10)
    assert listed.errors == []
    assert sorted((g.group_id, g.type, g.state, g.is_simple_consumer_group) for g in listed.valid) == [
        ("readers", ConsumerGroupType.CONSUMER, ConsumerGroupState.EMPTY, False),
        ("workers", ConsumerGroupType.UNKNOWN, ConsumerGroupState.STABLE, False)]
