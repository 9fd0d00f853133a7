# GENERATED — do not edit.  Source: Kafka JSON message specs (trunk + 3.9);
# regenerate with `python tools/gen_protocol.py`.
#
# MESSAGES[spec name] = Message(api_key, kind, variants), made by that message's
# function below when it is asked for: a program loads every message's table
# but builds only the ones it uses.  Each Variant is a run of versions with one
# field list (two when trunk and 3.9 define them differently); its fields are one
# Field per line, a struct's own fields indented under it.  Attributes at their
# default are left out.  INDEX[spec name] = (api_key, kind, version runs): what a
# registry needs of every message before any of its fields.
from collections.abc import Mapping
from types import EllipsisType
from typing import NamedTuple

OPEN = 32767  # upper bound of an open range such as "3+"

# (lo, hi), both included; hi == OPEN means "lo+"; None means "none"
Versions = tuple[int, int] | None


class Field(NamedTuple):
    name: str
    type: str  # "int32", "string", "[]int32", "SomeStruct", "[]SomeStruct"...
    versions: Versions
    nullable_versions: Versions = None
    tag: int | None = None
    tagged_versions: Versions = None
    default: object = ...  # ...: the type's own default; None: null
    ignorable: bool = False
    flexible_versions: Versions | EllipsisType = ...  # ...: the message's
    fields: "tuple[Field, ...] | None" = None  # a struct's own fields (common structs inlined)


class Variant(NamedTuple):
    """Versions min_version..max_version, which share one field list."""

    min_version: int
    max_version: int
    flexible_versions: Versions
    fields: tuple[Field, ...]


class Message(NamedTuple):
    api_key: int | None  # None for headers and data records
    kind: str  # "request", "response", "header" or "data"
    variants: tuple[Variant, ...]


INDEX = {
    "AddOffsetsToTxnRequest": (25, "request", ((0, 4),)),
    "AddOffsetsToTxnResponse": (25, "response", ((0, 4),)),
    "AddPartitionsToTxnRequest": (24, "request", ((0, 5),)),
    "AddPartitionsToTxnResponse": (24, "response", ((0, 5),)),
    "AddRaftVoterRequest": (80, "request", ((0, 1),)),
    "AddRaftVoterResponse": (80, "response", ((0, 1),)),
    "AllocateProducerIdsRequest": (67, "request", ((0, 0),)),
    "AllocateProducerIdsResponse": (67, "response", ((0, 0),)),
    "AlterClientQuotasRequest": (49, "request", ((0, 1),)),
    "AlterClientQuotasResponse": (49, "response", ((0, 1),)),
    "AlterConfigsRequest": (33, "request", ((0, 2),)),
    "AlterConfigsResponse": (33, "response", ((0, 2),)),
    "AlterPartitionReassignmentsRequest": (45, "request", ((0, 1),)),
    "AlterPartitionReassignmentsResponse": (45, "response", ((0, 1),)),
    "AlterPartitionRequest": (56, "request", ((0, 1), (2, 3))),
    "AlterPartitionResponse": (56, "response", ((0, 1), (2, 3))),
    "AlterReplicaLogDirsRequest": (34, "request", ((0, 2),)),
    "AlterReplicaLogDirsResponse": (34, "response", ((0, 2),)),
    "AlterShareGroupOffsetsRequest": (91, "request", ((0, 0),)),
    "AlterShareGroupOffsetsResponse": (91, "response", ((0, 0),)),
    "AlterUserScramCredentialsRequest": (51, "request", ((0, 0),)),
    "AlterUserScramCredentialsResponse": (51, "response", ((0, 0),)),
    "ApiVersionsRequest": (18, "request", ((0, 4),)),
    "ApiVersionsResponse": (18, "response", ((0, 4),)),
    "AssignReplicasToDirsRequest": (73, "request", ((0, 0),)),
    "AssignReplicasToDirsResponse": (73, "response", ((0, 0),)),
    "BeginQuorumEpochRequest": (53, "request", ((0, 1),)),
    "BeginQuorumEpochResponse": (53, "response", ((0, 1),)),
    "BrokerHeartbeatRequest": (63, "request", ((0, 1),)),
    "BrokerHeartbeatResponse": (63, "response", ((0, 1),)),
    "BrokerRegistrationRequest": (62, "request", ((0, 4),)),
    "BrokerRegistrationResponse": (62, "response", ((0, 4),)),
    "ConsumerGroupDescribeRequest": (69, "request", ((0, 1),)),
    "ConsumerGroupDescribeResponse": (69, "response", ((0, 1),)),
    "ConsumerGroupHeartbeatRequest": (68, "request", ((0, 1),)),
    "ConsumerGroupHeartbeatResponse": (68, "response", ((0, 1),)),
    "ConsumerProtocolAssignment": (None, "data", ((0, 3),)),
    "ConsumerProtocolSubscription": (None, "data", ((0, 3),)),
    "ControlledShutdownRequest": (7, "request", ((0, 3),)),
    "ControlledShutdownResponse": (7, "response", ((0, 3),)),
    "ControllerRegistrationRequest": (70, "request", ((0, 0),)),
    "ControllerRegistrationResponse": (70, "response", ((0, 0),)),
    "CreateAclsRequest": (30, "request", ((0, 3),)),
    "CreateAclsResponse": (30, "response", ((0, 3),)),
    "CreateDelegationTokenRequest": (38, "request", ((0, 3),)),
    "CreateDelegationTokenResponse": (38, "response", ((0, 3),)),
    "CreatePartitionsRequest": (37, "request", ((0, 3),)),
    "CreatePartitionsResponse": (37, "response", ((0, 3),)),
    "CreateTopicsRequest": (19, "request", ((0, 7),)),
    "CreateTopicsResponse": (19, "response", ((0, 7),)),
    "DefaultPrincipalData": (None, "data", ((0, 0),)),
    "DeleteAclsRequest": (31, "request", ((0, 3),)),
    "DeleteAclsResponse": (31, "response", ((0, 3),)),
    "DeleteGroupsRequest": (42, "request", ((0, 2),)),
    "DeleteGroupsResponse": (42, "response", ((0, 2),)),
    "DeleteRecordsRequest": (21, "request", ((0, 2),)),
    "DeleteRecordsResponse": (21, "response", ((0, 2),)),
    "DeleteShareGroupOffsetsRequest": (92, "request", ((0, 0),)),
    "DeleteShareGroupOffsetsResponse": (92, "response", ((0, 0),)),
    "DeleteShareGroupStateRequest": (86, "request", ((0, 0),)),
    "DeleteShareGroupStateResponse": (86, "response", ((0, 0),)),
    "DeleteTopicsRequest": (20, "request", ((0, 6),)),
    "DeleteTopicsResponse": (20, "response", ((0, 6),)),
    "DescribeAclsRequest": (29, "request", ((0, 3),)),
    "DescribeAclsResponse": (29, "response", ((0, 3),)),
    "DescribeClientQuotasRequest": (48, "request", ((0, 1),)),
    "DescribeClientQuotasResponse": (48, "response", ((0, 1),)),
    "DescribeClusterRequest": (60, "request", ((0, 2),)),
    "DescribeClusterResponse": (60, "response", ((0, 2),)),
    "DescribeConfigsRequest": (32, "request", ((0, 4),)),
    "DescribeConfigsResponse": (32, "response", ((0, 0), (1, 4))),
    "DescribeDelegationTokenRequest": (41, "request", ((0, 3),)),
    "DescribeDelegationTokenResponse": (41, "response", ((0, 3),)),
    "DescribeGroupsRequest": (15, "request", ((0, 6),)),
    "DescribeGroupsResponse": (15, "response", ((0, 6),)),
    "DescribeLogDirsRequest": (35, "request", ((0, 4),)),
    "DescribeLogDirsResponse": (35, "response", ((0, 4),)),
    "DescribeProducersRequest": (61, "request", ((0, 0),)),
    "DescribeProducersResponse": (61, "response", ((0, 0),)),
    "DescribeQuorumRequest": (55, "request", ((0, 2),)),
    "DescribeQuorumResponse": (55, "response", ((0, 2),)),
    "DescribeShareGroupOffsetsRequest": (90, "request", ((0, 1),)),
    "DescribeShareGroupOffsetsResponse": (90, "response", ((0, 1),)),
    "DescribeTopicPartitionsRequest": (75, "request", ((0, 0),)),
    "DescribeTopicPartitionsResponse": (75, "response", ((0, 0),)),
    "DescribeTransactionsRequest": (65, "request", ((0, 0),)),
    "DescribeTransactionsResponse": (65, "response", ((0, 0),)),
    "DescribeUserScramCredentialsRequest": (50, "request", ((0, 0),)),
    "DescribeUserScramCredentialsResponse": (50, "response", ((0, 0),)),
    "ElectLeadersRequest": (43, "request", ((0, 2),)),
    "ElectLeadersResponse": (43, "response", ((0, 2),)),
    "EndQuorumEpochRequest": (54, "request", ((0, 1),)),
    "EndQuorumEpochResponse": (54, "response", ((0, 1),)),
    "EndTxnMarker": (None, "data", ((0, 0),)),
    "EndTxnRequest": (26, "request", ((0, 5),)),
    "EndTxnResponse": (26, "response", ((0, 5),)),
    "EnvelopeRequest": (58, "request", ((0, 0),)),
    "EnvelopeResponse": (58, "response", ((0, 0),)),
    "ExpireDelegationTokenRequest": (40, "request", ((0, 2),)),
    "ExpireDelegationTokenResponse": (40, "response", ((0, 2),)),
    "FetchRequest": (1, "request", ((0, 3), (4, 18))),
    "FetchResponse": (1, "response", ((0, 18),)),
    "FetchSnapshotRequest": (59, "request", ((0, 1),)),
    "FetchSnapshotResponse": (59, "response", ((0, 1),)),
    "FindCoordinatorRequest": (10, "request", ((0, 6),)),
    "FindCoordinatorResponse": (10, "response", ((0, 6),)),
    "GetTelemetrySubscriptionsRequest": (71, "request", ((0, 0),)),
    "GetTelemetrySubscriptionsResponse": (71, "response", ((0, 0),)),
    "HeartbeatRequest": (12, "request", ((0, 4),)),
    "HeartbeatResponse": (12, "response", ((0, 4),)),
    "IncrementalAlterConfigsRequest": (44, "request", ((0, 1),)),
    "IncrementalAlterConfigsResponse": (44, "response", ((0, 1),)),
    "InitProducerIdRequest": (22, "request", ((0, 5),)),
    "InitProducerIdResponse": (22, "response", ((0, 5),)),
    "InitializeShareGroupStateRequest": (83, "request", ((0, 0),)),
    "InitializeShareGroupStateResponse": (83, "response", ((0, 0),)),
    "JoinGroupRequest": (11, "request", ((0, 9),)),
    "JoinGroupResponse": (11, "response", ((0, 9),)),
    "KRaftVersionRecord": (None, "data", ((0, 0),)),
    "LeaderAndIsrRequest": (4, "request", ((0, 7),)),
    "LeaderAndIsrResponse": (4, "response", ((0, 7),)),
    "LeaderChangeMessage": (None, "data", ((0, 1),)),
    "LeaveGroupRequest": (13, "request", ((0, 5),)),
    "LeaveGroupResponse": (13, "response", ((0, 5),)),
    "ListConfigResourcesRequest": (74, "request", ((0, 1),)),
    "ListConfigResourcesResponse": (74, "response", ((0, 1),)),
    "ListGroupsRequest": (16, "request", ((0, 5),)),
    "ListGroupsResponse": (16, "response", ((0, 5),)),
    "ListOffsetsRequest": (2, "request", ((0, 0), (1, 11))),
    "ListOffsetsResponse": (2, "response", ((0, 0), (1, 11))),
    "ListPartitionReassignmentsRequest": (46, "request", ((0, 0),)),
    "ListPartitionReassignmentsResponse": (46, "response", ((0, 0),)),
    "ListTransactionsRequest": (66, "request", ((0, 2),)),
    "ListTransactionsResponse": (66, "response", ((0, 2),)),
    "MetadataRequest": (3, "request", ((0, 13),)),
    "MetadataResponse": (3, "response", ((0, 13),)),
    "OffsetCommitRequest": (8, "request", ((0, 1), (2, 10))),
    "OffsetCommitResponse": (8, "response", ((0, 1), (2, 10))),
    "OffsetDeleteRequest": (47, "request", ((0, 0),)),
    "OffsetDeleteResponse": (47, "response", ((0, 0),)),
    "OffsetFetchRequest": (9, "request", ((0, 0), (1, 10))),
    "OffsetFetchResponse": (9, "response", ((0, 0), (1, 10))),
    "OffsetForLeaderEpochRequest": (23, "request", ((0, 4),)),
    "OffsetForLeaderEpochResponse": (23, "response", ((0, 4),)),
    "ProduceRequest": (0, "request", ((0, 2), (3, 13))),
    "ProduceResponse": (0, "response", ((0, 2), (3, 13))),
    "PushTelemetryRequest": (72, "request", ((0, 0),)),
    "PushTelemetryResponse": (72, "response", ((0, 0),)),
    "ReadShareGroupStateRequest": (84, "request", ((0, 0),)),
    "ReadShareGroupStateResponse": (84, "response", ((0, 0),)),
    "ReadShareGroupStateSummaryRequest": (87, "request", ((0, 1),)),
    "ReadShareGroupStateSummaryResponse": (87, "response", ((0, 1),)),
    "RemoveRaftVoterRequest": (81, "request", ((0, 0),)),
    "RemoveRaftVoterResponse": (81, "response", ((0, 0),)),
    "RenewDelegationTokenRequest": (39, "request", ((0, 2),)),
    "RenewDelegationTokenResponse": (39, "response", ((0, 2),)),
    "RequestHeader": (None, "header", ((0, 0), (1, 2))),
    "ResponseHeader": (None, "header", ((0, 1),)),
    "SaslAuthenticateRequest": (36, "request", ((0, 2),)),
    "SaslAuthenticateResponse": (36, "response", ((0, 2),)),
    "SaslHandshakeRequest": (17, "request", ((0, 1),)),
    "SaslHandshakeResponse": (17, "response", ((0, 1),)),
    "ShareAcknowledgeRequest": (79, "request", ((1, 2),)),
    "ShareAcknowledgeResponse": (79, "response", ((1, 2),)),
    "ShareFetchRequest": (78, "request", ((1, 2),)),
    "ShareFetchResponse": (78, "response", ((1, 2),)),
    "ShareGroupDescribeRequest": (77, "request", ((1, 1),)),
    "ShareGroupDescribeResponse": (77, "response", ((1, 1),)),
    "ShareGroupHeartbeatRequest": (76, "request", ((1, 1),)),
    "ShareGroupHeartbeatResponse": (76, "response", ((1, 1),)),
    "SnapshotFooterRecord": (None, "data", ((0, 0),)),
    "SnapshotHeaderRecord": (None, "data", ((0, 0),)),
    "StopReplicaRequest": (5, "request", ((0, 4),)),
    "StopReplicaResponse": (5, "response", ((0, 4),)),
    "StreamsGroupDescribeRequest": (89, "request", ((0, 0),)),
    "StreamsGroupDescribeResponse": (89, "response", ((0, 0),)),
    "StreamsGroupHeartbeatRequest": (88, "request", ((0, 0),)),
    "StreamsGroupHeartbeatResponse": (88, "response", ((0, 0),)),
    "SyncGroupRequest": (14, "request", ((0, 5),)),
    "SyncGroupResponse": (14, "response", ((0, 5),)),
    "TxnOffsetCommitRequest": (28, "request", ((0, 5),)),
    "TxnOffsetCommitResponse": (28, "response", ((0, 5),)),
    "UnregisterBrokerRequest": (64, "request", ((0, 0),)),
    "UnregisterBrokerResponse": (64, "response", ((0, 0),)),
    "UpdateFeaturesRequest": (57, "request", ((0, 2),)),
    "UpdateFeaturesResponse": (57, "response", ((0, 2),)),
    "UpdateMetadataRequest": (6, "request", ((0, 8),)),
    "UpdateMetadataResponse": (6, "response", ((0, 8),)),
    "UpdateRaftVoterRequest": (82, "request", ((0, 0),)),
    "UpdateRaftVoterResponse": (82, "response", ((0, 0),)),
    "VoteRequest": (52, "request", ((0, 2),)),
    "VoteResponse": (52, "response", ((0, 2),)),
    "VotersRecord": (None, "data", ((0, 0),)),
    "WriteShareGroupStateRequest": (85, "request", ((0, 1),)),
    "WriteShareGroupStateResponse": (85, "response", ((0, 1),)),
    "WriteTxnMarkersRequest": (27, "request", ((0, 0), (1, 2))),
    "WriteTxnMarkersResponse": (27, "response", ((0, 2),)),
}


def _AddOffsetsToTxnRequest():
    return Message(api_key=25, kind="request", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(3, OPEN), fields=(
            Field(name="TransactionalId", type="string", versions=(0, OPEN)),
            Field(name="ProducerId", type="int64", versions=(0, OPEN)),
            Field(name="ProducerEpoch", type="int16", versions=(0, OPEN)),
            Field(name="GroupId", type="string", versions=(0, OPEN)),
        )),
    ))


def _AddOffsetsToTxnResponse():
    return Message(api_key=25, kind="response", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(3, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
        )),
    ))


def _AddPartitionsToTxnRequest():
    return Message(api_key=24, kind="request", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(3, OPEN), fields=(
            Field(name="Transactions", type="[]AddPartitionsToTxnTransaction", versions=(4, OPEN), fields=(
                Field(name="TransactionalId", type="string", versions=(4, OPEN)),
                Field(name="ProducerId", type="int64", versions=(4, OPEN)),
                Field(name="ProducerEpoch", type="int16", versions=(4, OPEN)),
                Field(name="VerifyOnly", type="bool", versions=(4, OPEN), default=False),
                Field(name="Topics", type="[]AddPartitionsToTxnTopic", versions=(4, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                )),
            )),
            Field(name="V3AndBelowTransactionalId", type="string", versions=(0, 3)),
            Field(name="V3AndBelowProducerId", type="int64", versions=(0, 3)),
            Field(name="V3AndBelowProducerEpoch", type="int16", versions=(0, 3)),
            Field(name="V3AndBelowTopics", type="[]AddPartitionsToTxnTopic", versions=(0, 3), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _AddPartitionsToTxnResponse():
    return Message(api_key=24, kind="response", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(3, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(4, OPEN), ignorable=True),
            Field(name="ResultsByTransaction", type="[]AddPartitionsToTxnResult", versions=(4, OPEN), fields=(
                Field(name="TransactionalId", type="string", versions=(4, OPEN)),
                Field(name="TopicResults", type="[]AddPartitionsToTxnTopicResult", versions=(4, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="ResultsByPartition", type="[]AddPartitionsToTxnPartitionResult", versions=(0, OPEN), fields=(
                        Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                        Field(name="PartitionErrorCode", type="int16", versions=(0, OPEN)),
                    )),
                )),
            )),
            Field(name="ResultsByTopicV3AndBelow", type="[]AddPartitionsToTxnTopicResult", versions=(0, 3), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="ResultsByPartition", type="[]AddPartitionsToTxnPartitionResult", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="PartitionErrorCode", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _AddRaftVoterRequest():
    return Message(api_key=80, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN)),
            Field(name="VoterId", type="int32", versions=(0, OPEN)),
            Field(name="VoterDirectoryId", type="uuid", versions=(0, OPEN)),
            Field(name="Listeners", type="[]Listener", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="uint16", versions=(0, OPEN)),
            )),
            Field(name="AckWhenCommitted", type="bool", versions=(1, OPEN), default=True),
        )),
    ))


def _AddRaftVoterResponse():
    return Message(api_key=80, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), ignorable=True),
        )),
    ))


def _AllocateProducerIdsRequest():
    return Message(api_key=67, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="BrokerId", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(0, OPEN), default=-1),
        )),
    ))


def _AllocateProducerIdsResponse():
    return Message(api_key=67, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ProducerIdStart", type="int64", versions=(0, OPEN)),
            Field(name="ProducerIdLen", type="int32", versions=(0, OPEN)),
        )),
    ))


def _AlterClientQuotasRequest():
    return Message(api_key=49, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="Entries", type="[]EntryData", versions=(0, OPEN), fields=(
                Field(name="Entity", type="[]EntityData", versions=(0, OPEN), fields=(
                    Field(name="EntityType", type="string", versions=(0, OPEN)),
                    Field(name="EntityName", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
                Field(name="Ops", type="[]OpData", versions=(0, OPEN), fields=(
                    Field(name="Key", type="string", versions=(0, OPEN)),
                    Field(name="Value", type="float64", versions=(0, OPEN)),
                    Field(name="Remove", type="bool", versions=(0, OPEN)),
                )),
            )),
            Field(name="ValidateOnly", type="bool", versions=(0, OPEN)),
        )),
    ))


def _AlterClientQuotasResponse():
    return Message(api_key=49, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Entries", type="[]EntryData", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="Entity", type="[]EntityData", versions=(0, OPEN), fields=(
                    Field(name="EntityType", type="string", versions=(0, OPEN)),
                    Field(name="EntityName", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _AlterConfigsRequest():
    return Message(api_key=33, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="Resources", type="[]AlterConfigsResource", versions=(0, OPEN), fields=(
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
                Field(name="Configs", type="[]AlterableConfig", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Value", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
            Field(name="ValidateOnly", type="bool", versions=(0, OPEN)),
        )),
    ))


def _AlterConfigsResponse():
    return Message(api_key=33, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Responses", type="[]AlterConfigsResourceResponse", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
            )),
        )),
    ))


def _AlterPartitionReassignmentsRequest():
    return Message(api_key=45, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN), default=60000),
            Field(name="AllowReplicationFactorChange", type="bool", versions=(1, OPEN), default=True),
            Field(name="Topics", type="[]ReassignableTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]ReassignablePartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="Replicas", type="[]int32", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                )),
            )),
        )),
    ))


def _AlterPartitionReassignmentsResponse():
    return Message(api_key=45, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="AllowReplicationFactorChange", type="bool", versions=(1, OPEN), default=True, ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="Responses", type="[]ReassignableTopicResponse", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]ReassignablePartitionResponse", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _AlterPartitionRequest():
    return Message(api_key=56, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="BrokerId", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(0, OPEN), default=-1),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, 1), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(2, OPEN), ignorable=True),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="NewIsr", type="[]int32", versions=(0, 2)),
                    Field(name="NewIsrWithEpochs", type="[]BrokerState", versions=(3, OPEN), fields=(
                        Field(name="BrokerId", type="int32", versions=(3, OPEN)),
                        Field(name="BrokerEpoch", type="int64", versions=(3, OPEN), default=-1),
                    )),
                    Field(name="LeaderRecoveryState", type="int8", versions=(1, OPEN), default=0),
                    Field(name="PartitionEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
        Variant(min_version=2, max_version=3, flexible_versions=(0, OPEN), fields=(
            Field(name="BrokerId", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(0, OPEN), default=-1),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(2, OPEN), ignorable=True),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="NewIsr", type="[]int32", versions=(0, 2)),
                    Field(name="NewIsrWithEpochs", type="[]BrokerState", versions=(3, OPEN), fields=(
                        Field(name="BrokerId", type="int32", versions=(3, OPEN)),
                        Field(name="BrokerEpoch", type="int64", versions=(3, OPEN), default=-1),
                    )),
                    Field(name="LeaderRecoveryState", type="int8", versions=(1, OPEN), default=0),
                    Field(name="PartitionEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _AlterPartitionResponse():
    return Message(api_key=56, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, 1), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(2, OPEN), ignorable=True),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="Isr", type="[]int32", versions=(0, OPEN)),
                    Field(name="LeaderRecoveryState", type="int8", versions=(1, OPEN), default=0, ignorable=True),
                    Field(name="PartitionEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
        Variant(min_version=2, max_version=3, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(2, OPEN), ignorable=True),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="Isr", type="[]int32", versions=(0, OPEN)),
                    Field(name="LeaderRecoveryState", type="int8", versions=(1, OPEN), default=0, ignorable=True),
                    Field(name="PartitionEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _AlterReplicaLogDirsRequest():
    return Message(api_key=34, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="Dirs", type="[]AlterReplicaLogDir", versions=(0, OPEN), fields=(
                Field(name="Path", type="string", versions=(0, OPEN)),
                Field(name="Topics", type="[]AlterReplicaLogDirTopic", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _AlterReplicaLogDirsResponse():
    return Message(api_key=34, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Results", type="[]AlterReplicaLogDirTopicResult", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]AlterReplicaLogDirPartitionResult", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _AlterShareGroupOffsetsRequest():
    return Message(api_key=91, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="Topics", type="[]AlterShareGroupOffsetsRequestTopic", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]AlterShareGroupOffsetsRequestPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="StartOffset", type="int64", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _AlterShareGroupOffsetsResponse():
    return Message(api_key=91, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="Responses", type="[]AlterShareGroupOffsetsResponseTopic", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]AlterShareGroupOffsetsResponsePartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                )),
            )),
        )),
    ))


def _AlterUserScramCredentialsRequest():
    return Message(api_key=51, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Deletions", type="[]ScramCredentialDeletion", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Mechanism", type="int8", versions=(0, OPEN)),
            )),
            Field(name="Upsertions", type="[]ScramCredentialUpsertion", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Mechanism", type="int8", versions=(0, OPEN)),
                Field(name="Iterations", type="int32", versions=(0, OPEN)),
                Field(name="Salt", type="bytes", versions=(0, OPEN)),
                Field(name="SaltedPassword", type="bytes", versions=(0, OPEN)),
            )),
        )),
    ))


def _AlterUserScramCredentialsResponse():
    return Message(api_key=51, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Results", type="[]AlterUserScramCredentialsResult", versions=(0, OPEN), fields=(
                Field(name="User", type="string", versions=(0, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            )),
        )),
    ))


def _ApiVersionsRequest():
    return Message(api_key=18, kind="request", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(3, OPEN), fields=(
            Field(name="ClientSoftwareName", type="string", versions=(3, OPEN), ignorable=True),
            Field(name="ClientSoftwareVersion", type="string", versions=(3, OPEN), ignorable=True),
        )),
    ))


def _ApiVersionsResponse():
    return Message(api_key=18, kind="response", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(3, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ApiKeys", type="[]ApiVersion", versions=(0, OPEN), fields=(
                Field(name="ApiKey", type="int16", versions=(0, OPEN)),
                Field(name="MinVersion", type="int16", versions=(0, OPEN)),
                Field(name="MaxVersion", type="int16", versions=(0, OPEN)),
            )),
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="SupportedFeatures", type="[]SupportedFeatureKey", versions=(3, OPEN), tag=0, tagged_versions=(3, OPEN), ignorable=True, fields=(
                Field(name="Name", type="string", versions=(3, OPEN)),
                Field(name="MinVersion", type="int16", versions=(3, OPEN)),
                Field(name="MaxVersion", type="int16", versions=(3, OPEN)),
            )),
            Field(name="FinalizedFeaturesEpoch", type="int64", versions=(3, OPEN), tag=1, tagged_versions=(3, OPEN), default=-1, ignorable=True),
            Field(name="FinalizedFeatures", type="[]FinalizedFeatureKey", versions=(3, OPEN), tag=2, tagged_versions=(3, OPEN), ignorable=True, fields=(
                Field(name="Name", type="string", versions=(3, OPEN)),
                Field(name="MaxVersionLevel", type="int16", versions=(3, OPEN)),
                Field(name="MinVersionLevel", type="int16", versions=(3, OPEN)),
            )),
            Field(name="ZkMigrationReady", type="bool", versions=(3, OPEN), tag=3, tagged_versions=(3, OPEN), default=False, ignorable=True),
        )),
    ))


def _AssignReplicasToDirsRequest():
    return Message(api_key=73, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="BrokerId", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(0, OPEN), default=-1),
            Field(name="Directories", type="[]DirectoryData", versions=(0, OPEN), fields=(
                Field(name="Id", type="uuid", versions=(0, OPEN)),
                Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                    Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                        Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    )),
                )),
            )),
        )),
    ))


def _AssignReplicasToDirsResponse():
    return Message(api_key=73, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Directories", type="[]DirectoryData", versions=(0, OPEN), fields=(
                Field(name="Id", type="uuid", versions=(0, OPEN)),
                Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                    Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                        Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                        Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    )),
                )),
            )),
        )),
    ))


def _BeginQuorumEpochRequest():
    return Message(api_key=53, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="VoterId", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="VoterDirectoryId", type="uuid", versions=(1, OPEN), ignorable=True),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
            Field(name="LeaderEndpoints", type="[]LeaderEndpoint", versions=(1, OPEN), ignorable=True, fields=(
                Field(name="Name", type="string", versions=(1, OPEN)),
                Field(name="Host", type="string", versions=(1, OPEN)),
                Field(name="Port", type="uint16", versions=(1, OPEN)),
            )),
        )),
    ))


def _BeginQuorumEpochResponse():
    return Message(api_key=53, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(1, OPEN), tag=0, tagged_versions=(1, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(1, OPEN)),
                Field(name="Host", type="string", versions=(1, OPEN)),
                Field(name="Port", type="uint16", versions=(1, OPEN)),
            )),
        )),
    ))


def _BrokerHeartbeatRequest():
    return Message(api_key=63, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="BrokerId", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(0, OPEN), default=-1),
            Field(name="CurrentMetadataOffset", type="int64", versions=(0, OPEN)),
            Field(name="WantFence", type="bool", versions=(0, OPEN)),
            Field(name="WantShutDown", type="bool", versions=(0, OPEN)),
            Field(name="OfflineLogDirs", type="[]uuid", versions=(1, OPEN), tag=0, tagged_versions=(1, OPEN)),
        )),
    ))


def _BrokerHeartbeatResponse():
    return Message(api_key=63, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="IsCaughtUp", type="bool", versions=(0, OPEN), default=False),
            Field(name="IsFenced", type="bool", versions=(0, OPEN), default=True),
            Field(name="ShouldShutDown", type="bool", versions=(0, OPEN)),
        )),
    ))


def _BrokerRegistrationRequest():
    return Message(api_key=62, kind="request", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(0, OPEN), fields=(
            Field(name="BrokerId", type="int32", versions=(0, OPEN)),
            Field(name="ClusterId", type="string", versions=(0, OPEN)),
            Field(name="IncarnationId", type="uuid", versions=(0, OPEN)),
            Field(name="Listeners", type="[]Listener", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="uint16", versions=(0, OPEN)),
                Field(name="SecurityProtocol", type="int16", versions=(0, OPEN)),
            )),
            Field(name="Features", type="[]Feature", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="MinSupportedVersion", type="int16", versions=(0, OPEN)),
                Field(name="MaxSupportedVersion", type="int16", versions=(0, OPEN)),
            )),
            Field(name="Rack", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="IsMigratingZkBroker", type="bool", versions=(1, OPEN), default=False),
            Field(name="LogDirs", type="[]uuid", versions=(2, OPEN), ignorable=True),
            Field(name="PreviousBrokerEpoch", type="int64", versions=(3, OPEN), default=-1, ignorable=True),
        )),
    ))


def _BrokerRegistrationResponse():
    return Message(api_key=62, kind="response", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(0, OPEN), default=-1),
        )),
    ))


def _ConsumerGroupDescribeRequest():
    return Message(api_key=69, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupIds", type="[]string", versions=(0, OPEN)),
            Field(name="IncludeAuthorizedOperations", type="bool", versions=(0, OPEN)),
        )),
    ))


def _ConsumerGroupDescribeResponse():
    return Message(api_key=69, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Groups", type="[]DescribedGroup", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                Field(name="GroupId", type="string", versions=(0, OPEN)),
                Field(name="GroupState", type="string", versions=(0, OPEN)),
                Field(name="GroupEpoch", type="int32", versions=(0, OPEN)),
                Field(name="AssignmentEpoch", type="int32", versions=(0, OPEN)),
                Field(name="AssignorName", type="string", versions=(0, OPEN)),
                Field(name="Members", type="[]Member", versions=(0, OPEN), fields=(
                    Field(name="MemberId", type="string", versions=(0, OPEN)),
                    Field(name="InstanceId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="RackId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="ClientId", type="string", versions=(0, OPEN)),
                    Field(name="ClientHost", type="string", versions=(0, OPEN)),
                    Field(name="SubscribedTopicNames", type="[]string", versions=(0, OPEN)),
                    Field(name="SubscribedTopicRegex", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="Assignment", type="Assignment", versions=(0, OPEN), fields=(
                        Field(name="TopicPartitions", type="[]TopicPartitions", versions=(0, OPEN), fields=(
                            Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                            Field(name="TopicName", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                    )),
                    Field(name="TargetAssignment", type="Assignment", versions=(0, OPEN), fields=(
                        Field(name="TopicPartitions", type="[]TopicPartitions", versions=(0, OPEN), fields=(
                            Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                            Field(name="TopicName", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                    )),
                    Field(name="MemberType", type="int8", versions=(1, OPEN), default=-1, ignorable=True),
                )),
                Field(name="AuthorizedOperations", type="int32", versions=(0, OPEN), default=-2147483648),
            )),
        )),
    ))


def _ConsumerGroupHeartbeatRequest():
    return Message(api_key=68, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="MemberId", type="string", versions=(0, OPEN)),
            Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
            Field(name="InstanceId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="RackId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="RebalanceTimeoutMs", type="int32", versions=(0, OPEN), default=-1),
            Field(name="SubscribedTopicNames", type="[]string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="SubscribedTopicRegex", type="string", versions=(1, OPEN), nullable_versions=(1, OPEN), default=None),
            Field(name="ServerAssignor", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="TopicPartitions", type="[]TopicPartitions", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _ConsumerGroupHeartbeatResponse():
    return Message(api_key=68, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="MemberId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
            Field(name="HeartbeatIntervalMs", type="int32", versions=(0, OPEN)),
            Field(name="Assignment", type="Assignment", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="TopicPartitions", type="[]TopicPartitions", versions=(0, OPEN), fields=(
                    Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _ConsumerProtocolAssignment():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=None, fields=(
            Field(name="AssignedPartitions", type="[]TopicPartition", versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
            Field(name="UserData", type="bytes", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
        )),
    ))


def _ConsumerProtocolSubscription():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=None, fields=(
            Field(name="Topics", type="[]string", versions=(0, OPEN)),
            Field(name="UserData", type="bytes", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="OwnedPartitions", type="[]TopicPartition", versions=(1, OPEN), ignorable=True, fields=(
                Field(name="Topic", type="string", versions=(1, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(1, OPEN)),
            )),
            Field(name="GenerationId", type="int32", versions=(2, OPEN), default=-1, ignorable=True),
            Field(name="RackId", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN), default=None, ignorable=True),
        )),
    ))


def _ControlledShutdownRequest():
    return Message(api_key=7, kind="request", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(3, OPEN), fields=(
            Field(name="BrokerId", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(2, OPEN), default=-1, ignorable=True),
        )),
    ))


def _ControlledShutdownResponse():
    return Message(api_key=7, kind="response", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(3, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="RemainingPartitions", type="[]RemainingPartition", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _ControllerRegistrationRequest():
    return Message(api_key=70, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ControllerId", type="int32", versions=(0, OPEN)),
            Field(name="IncarnationId", type="uuid", versions=(0, OPEN)),
            Field(name="ZkMigrationReady", type="bool", versions=(0, OPEN)),
            Field(name="Listeners", type="[]Listener", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="uint16", versions=(0, OPEN)),
                Field(name="SecurityProtocol", type="int16", versions=(0, OPEN)),
            )),
            Field(name="Features", type="[]Feature", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="MinSupportedVersion", type="int16", versions=(0, OPEN)),
                Field(name="MaxSupportedVersion", type="int16", versions=(0, OPEN)),
            )),
        )),
    ))


def _ControllerRegistrationResponse():
    return Message(api_key=70, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
        )),
    ))


def _CreateAclsRequest():
    return Message(api_key=30, kind="request", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="Creations", type="[]AclCreation", versions=(0, OPEN), fields=(
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
                Field(name="ResourcePatternType", type="int8", versions=(1, OPEN), default=3),
                Field(name="Principal", type="string", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Operation", type="int8", versions=(0, OPEN)),
                Field(name="PermissionType", type="int8", versions=(0, OPEN)),
            )),
        )),
    ))


def _CreateAclsResponse():
    return Message(api_key=30, kind="response", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Results", type="[]AclCreationResult", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            )),
        )),
    ))


def _CreateDelegationTokenRequest():
    return Message(api_key=38, kind="request", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="OwnerPrincipalType", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN)),
            Field(name="OwnerPrincipalName", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN)),
            Field(name="Renewers", type="[]CreatableRenewers", versions=(0, OPEN), fields=(
                Field(name="PrincipalType", type="string", versions=(0, OPEN)),
                Field(name="PrincipalName", type="string", versions=(0, OPEN)),
            )),
            Field(name="MaxLifetimeMs", type="int64", versions=(0, OPEN)),
        )),
    ))


def _CreateDelegationTokenResponse():
    return Message(api_key=38, kind="response", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="PrincipalType", type="string", versions=(0, OPEN)),
            Field(name="PrincipalName", type="string", versions=(0, OPEN)),
            Field(name="TokenRequesterPrincipalType", type="string", versions=(3, OPEN)),
            Field(name="TokenRequesterPrincipalName", type="string", versions=(3, OPEN)),
            Field(name="IssueTimestampMs", type="int64", versions=(0, OPEN)),
            Field(name="ExpiryTimestampMs", type="int64", versions=(0, OPEN)),
            Field(name="MaxTimestampMs", type="int64", versions=(0, OPEN)),
            Field(name="TokenId", type="string", versions=(0, OPEN)),
            Field(name="Hmac", type="bytes", versions=(0, OPEN)),
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
        )),
    ))


def _CreatePartitionsRequest():
    return Message(api_key=37, kind="request", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="Topics", type="[]CreatePartitionsTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Count", type="int32", versions=(0, OPEN)),
                Field(name="Assignments", type="[]CreatePartitionsAssignment", versions=(0, OPEN), nullable_versions=(0, OPEN), fields=(
                    Field(name="BrokerIds", type="[]int32", versions=(0, OPEN)),
                )),
            )),
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN)),
            Field(name="ValidateOnly", type="bool", versions=(0, OPEN)),
        )),
    ))


def _CreatePartitionsResponse():
    return Message(api_key=37, kind="response", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Results", type="[]CreatePartitionsTopicResult", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            )),
        )),
    ))


def _CreateTopicsRequest():
    return Message(api_key=19, kind="request", variants=(
        Variant(min_version=0, max_version=7, flexible_versions=(5, OPEN), fields=(
            Field(name="Topics", type="[]CreatableTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="NumPartitions", type="int32", versions=(0, OPEN)),
                Field(name="ReplicationFactor", type="int16", versions=(0, OPEN)),
                Field(name="Assignments", type="[]CreatableReplicaAssignment", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="BrokerIds", type="[]int32", versions=(0, OPEN)),
                )),
                Field(name="Configs", type="[]CreatableTopicConfig", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Value", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
            Field(name="timeoutMs", type="int32", versions=(0, OPEN), default=60000),
            Field(name="validateOnly", type="bool", versions=(1, OPEN), default=False),
        )),
    ))


def _CreateTopicsResponse():
    return Message(api_key=19, kind="response", variants=(
        Variant(min_version=0, max_version=7, flexible_versions=(5, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(2, OPEN), ignorable=True),
            Field(name="Topics", type="[]CreatableTopicResult", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="TopicId", type="uuid", versions=(7, OPEN), ignorable=True),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(1, OPEN), nullable_versions=(0, OPEN), ignorable=True),
                Field(name="TopicConfigErrorCode", type="int16", versions=(5, OPEN), tag=0, tagged_versions=(5, OPEN), ignorable=True),
                Field(name="NumPartitions", type="int32", versions=(5, OPEN), default=-1, ignorable=True),
                Field(name="ReplicationFactor", type="int16", versions=(5, OPEN), default=-1, ignorable=True),
                Field(name="Configs", type="[]CreatableTopicConfigs", versions=(5, OPEN), nullable_versions=(5, OPEN), ignorable=True, fields=(
                    Field(name="Name", type="string", versions=(5, OPEN)),
                    Field(name="Value", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN)),
                    Field(name="ReadOnly", type="bool", versions=(5, OPEN)),
                    Field(name="ConfigSource", type="int8", versions=(5, OPEN), default=-1, ignorable=True),
                    Field(name="IsSensitive", type="bool", versions=(5, OPEN)),
                )),
            )),
        )),
    ))


def _DefaultPrincipalData():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Type", type="string", versions=(0, OPEN)),
            Field(name="Name", type="string", versions=(0, OPEN)),
            Field(name="TokenAuthenticated", type="bool", versions=(0, OPEN)),
        )),
    ))


def _DeleteAclsRequest():
    return Message(api_key=31, kind="request", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="Filters", type="[]DeleteAclsFilter", versions=(0, OPEN), fields=(
                Field(name="ResourceTypeFilter", type="int8", versions=(0, OPEN)),
                Field(name="ResourceNameFilter", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="PatternTypeFilter", type="int8", versions=(1, OPEN), default=3),
                Field(name="PrincipalFilter", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="HostFilter", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="Operation", type="int8", versions=(0, OPEN)),
                Field(name="PermissionType", type="int8", versions=(0, OPEN)),
            )),
        )),
    ))


def _DeleteAclsResponse():
    return Message(api_key=31, kind="response", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="FilterResults", type="[]DeleteAclsFilterResult", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="MatchingAcls", type="[]DeleteAclsMatchingAcl", versions=(0, OPEN), fields=(
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                    Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                    Field(name="ResourceName", type="string", versions=(0, OPEN)),
                    Field(name="PatternType", type="int8", versions=(1, OPEN), default=3),
                    Field(name="Principal", type="string", versions=(0, OPEN)),
                    Field(name="Host", type="string", versions=(0, OPEN)),
                    Field(name="Operation", type="int8", versions=(0, OPEN)),
                    Field(name="PermissionType", type="int8", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _DeleteGroupsRequest():
    return Message(api_key=42, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="GroupsNames", type="[]string", versions=(0, OPEN)),
        )),
    ))


def _DeleteGroupsResponse():
    return Message(api_key=42, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Results", type="[]DeletableGroupResult", versions=(0, OPEN), fields=(
                Field(name="GroupId", type="string", versions=(0, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            )),
        )),
    ))


def _DeleteRecordsRequest():
    return Message(api_key=21, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="Topics", type="[]DeleteRecordsTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]DeleteRecordsPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="Offset", type="int64", versions=(0, OPEN)),
                )),
            )),
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN)),
        )),
    ))


def _DeleteRecordsResponse():
    return Message(api_key=21, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Topics", type="[]DeleteRecordsTopicResult", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]DeleteRecordsPartitionResult", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="LowWatermark", type="int64", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _DeleteShareGroupOffsetsRequest():
    return Message(api_key=92, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="Topics", type="[]DeleteShareGroupOffsetsRequestTopic", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
            )),
        )),
    ))


def _DeleteShareGroupOffsetsResponse():
    return Message(api_key=92, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="Responses", type="[]DeleteShareGroupOffsetsResponseTopic", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            )),
        )),
    ))


def _DeleteShareGroupStateRequest():
    return Message(api_key=86, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="Topics", type="[]DeleteStateData", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _DeleteShareGroupStateResponse():
    return Message(api_key=86, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Results", type="[]DeleteStateResult", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionResult", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                )),
            )),
        )),
    ))


def _DeleteTopicsRequest():
    return Message(api_key=20, kind="request", variants=(
        Variant(min_version=0, max_version=6, flexible_versions=(4, OPEN), fields=(
            Field(name="Topics", type="[]DeleteTopicState", versions=(6, OPEN), fields=(
                Field(name="Name", type="string", versions=(6, OPEN), nullable_versions=(6, OPEN), default=None),
                Field(name="TopicId", type="uuid", versions=(6, OPEN)),
            )),
            Field(name="TopicNames", type="[]string", versions=(0, 5), ignorable=True),
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN)),
        )),
    ))


def _DeleteTopicsResponse():
    return Message(api_key=20, kind="response", variants=(
        Variant(min_version=0, max_version=6, flexible_versions=(4, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="Responses", type="[]DeletableTopicResult", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN), nullable_versions=(6, OPEN)),
                Field(name="TopicId", type="uuid", versions=(6, OPEN), ignorable=True),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN), default=None, ignorable=True),
            )),
        )),
    ))


def _DescribeAclsRequest():
    return Message(api_key=29, kind="request", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="ResourceTypeFilter", type="int8", versions=(0, OPEN)),
            Field(name="ResourceNameFilter", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="PatternTypeFilter", type="int8", versions=(1, OPEN), default=3),
            Field(name="PrincipalFilter", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="HostFilter", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="Operation", type="int8", versions=(0, OPEN)),
            Field(name="PermissionType", type="int8", versions=(0, OPEN)),
        )),
    ))


def _DescribeAclsResponse():
    return Message(api_key=29, kind="response", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="Resources", type="[]DescribeAclsResource", versions=(0, OPEN), fields=(
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
                Field(name="PatternType", type="int8", versions=(1, OPEN), default=3),
                Field(name="Acls", type="[]AclDescription", versions=(0, OPEN), fields=(
                    Field(name="Principal", type="string", versions=(0, OPEN)),
                    Field(name="Host", type="string", versions=(0, OPEN)),
                    Field(name="Operation", type="int8", versions=(0, OPEN)),
                    Field(name="PermissionType", type="int8", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _DescribeClientQuotasRequest():
    return Message(api_key=48, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="Components", type="[]ComponentData", versions=(0, OPEN), fields=(
                Field(name="EntityType", type="string", versions=(0, OPEN)),
                Field(name="MatchType", type="int8", versions=(0, OPEN)),
                Field(name="Match", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            )),
            Field(name="Strict", type="bool", versions=(0, OPEN)),
        )),
    ))


def _DescribeClientQuotasResponse():
    return Message(api_key=48, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="Entries", type="[]EntryData", versions=(0, OPEN), nullable_versions=(0, OPEN), fields=(
                Field(name="Entity", type="[]EntityData", versions=(0, OPEN), fields=(
                    Field(name="EntityType", type="string", versions=(0, OPEN)),
                    Field(name="EntityName", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
                Field(name="Values", type="[]ValueData", versions=(0, OPEN), fields=(
                    Field(name="Key", type="string", versions=(0, OPEN)),
                    Field(name="Value", type="float64", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _DescribeClusterRequest():
    return Message(api_key=60, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="IncludeClusterAuthorizedOperations", type="bool", versions=(0, OPEN)),
            Field(name="EndpointType", type="int8", versions=(1, OPEN), default=1),
            Field(name="IncludeFencedBrokers", type="bool", versions=(2, OPEN)),
        )),
    ))


def _DescribeClusterResponse():
    return Message(api_key=60, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="EndpointType", type="int8", versions=(1, OPEN), default=1),
            Field(name="ClusterId", type="string", versions=(0, OPEN)),
            Field(name="ControllerId", type="int32", versions=(0, OPEN), default=-1),
            Field(name="Brokers", type="[]DescribeClusterBroker", versions=(0, OPEN), fields=(
                Field(name="BrokerId", type="int32", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="int32", versions=(0, OPEN)),
                Field(name="Rack", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                Field(name="IsFenced", type="bool", versions=(2, OPEN)),
            )),
            Field(name="ClusterAuthorizedOperations", type="int32", versions=(0, OPEN), default=-2147483648),
        )),
    ))


def _DescribeConfigsRequest():
    return Message(api_key=32, kind="request", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(4, OPEN), fields=(
            Field(name="Resources", type="[]DescribeConfigsResource", versions=(0, OPEN), fields=(
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
                Field(name="ConfigurationKeys", type="[]string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            )),
            Field(name="IncludeSynonyms", type="bool", versions=(1, OPEN), default=False),
            Field(name="IncludeDocumentation", type="bool", versions=(3, OPEN), default=False),
        )),
    ))


def _DescribeConfigsResponse():
    return Message(api_key=32, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(4, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Results", type="[]DescribeConfigsResult", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
                Field(name="Configs", type="[]DescribeConfigsResourceResult", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Value", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                    Field(name="ReadOnly", type="bool", versions=(0, OPEN)),
                    Field(name="IsDefault", type="bool", versions=(0, 0)),
                    Field(name="ConfigSource", type="int8", versions=(1, OPEN), default=-1, ignorable=True),
                    Field(name="IsSensitive", type="bool", versions=(0, OPEN)),
                    Field(name="Synonyms", type="[]DescribeConfigsSynonym", versions=(1, OPEN), ignorable=True, fields=(
                        Field(name="Name", type="string", versions=(1, OPEN)),
                        Field(name="Value", type="string", versions=(1, OPEN), nullable_versions=(0, OPEN)),
                        Field(name="Source", type="int8", versions=(1, OPEN)),
                    )),
                    Field(name="ConfigType", type="int8", versions=(3, OPEN), default=0, ignorable=True),
                    Field(name="Documentation", type="string", versions=(3, OPEN), nullable_versions=(0, OPEN), ignorable=True),
                )),
            )),
        )),
        Variant(min_version=1, max_version=4, flexible_versions=(4, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Results", type="[]DescribeConfigsResult", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
                Field(name="Configs", type="[]DescribeConfigsResourceResult", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Value", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                    Field(name="ReadOnly", type="bool", versions=(0, OPEN)),
                    Field(name="ConfigSource", type="int8", versions=(1, OPEN), default=-1, ignorable=True),
                    Field(name="IsSensitive", type="bool", versions=(0, OPEN)),
                    Field(name="Synonyms", type="[]DescribeConfigsSynonym", versions=(1, OPEN), ignorable=True, fields=(
                        Field(name="Name", type="string", versions=(1, OPEN)),
                        Field(name="Value", type="string", versions=(1, OPEN), nullable_versions=(0, OPEN)),
                        Field(name="Source", type="int8", versions=(1, OPEN)),
                    )),
                    Field(name="ConfigType", type="int8", versions=(3, OPEN), default=0, ignorable=True),
                    Field(name="Documentation", type="string", versions=(3, OPEN), nullable_versions=(0, OPEN), ignorable=True),
                )),
            )),
        )),
    ))


def _DescribeDelegationTokenRequest():
    return Message(api_key=41, kind="request", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="Owners", type="[]DescribeDelegationTokenOwner", versions=(0, OPEN), nullable_versions=(0, OPEN), fields=(
                Field(name="PrincipalType", type="string", versions=(0, OPEN)),
                Field(name="PrincipalName", type="string", versions=(0, OPEN)),
            )),
        )),
    ))


def _DescribeDelegationTokenResponse():
    return Message(api_key=41, kind="response", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(2, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Tokens", type="[]DescribedDelegationToken", versions=(0, OPEN), fields=(
                Field(name="PrincipalType", type="string", versions=(0, OPEN)),
                Field(name="PrincipalName", type="string", versions=(0, OPEN)),
                Field(name="TokenRequesterPrincipalType", type="string", versions=(3, OPEN)),
                Field(name="TokenRequesterPrincipalName", type="string", versions=(3, OPEN)),
                Field(name="IssueTimestamp", type="int64", versions=(0, OPEN)),
                Field(name="ExpiryTimestamp", type="int64", versions=(0, OPEN)),
                Field(name="MaxTimestamp", type="int64", versions=(0, OPEN)),
                Field(name="TokenId", type="string", versions=(0, OPEN)),
                Field(name="Hmac", type="bytes", versions=(0, OPEN)),
                Field(name="Renewers", type="[]DescribedDelegationTokenRenewer", versions=(0, OPEN), fields=(
                    Field(name="PrincipalType", type="string", versions=(0, OPEN)),
                    Field(name="PrincipalName", type="string", versions=(0, OPEN)),
                )),
            )),
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
        )),
    ))


def _DescribeGroupsRequest():
    return Message(api_key=15, kind="request", variants=(
        Variant(min_version=0, max_version=6, flexible_versions=(5, OPEN), fields=(
            Field(name="Groups", type="[]string", versions=(0, OPEN)),
            Field(name="IncludeAuthorizedOperations", type="bool", versions=(3, OPEN)),
        )),
    ))


def _DescribeGroupsResponse():
    return Message(api_key=15, kind="response", variants=(
        Variant(min_version=0, max_version=6, flexible_versions=(5, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="Groups", type="[]DescribedGroup", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(6, OPEN), nullable_versions=(6, OPEN), default=None),
                Field(name="GroupId", type="string", versions=(0, OPEN)),
                Field(name="GroupState", type="string", versions=(0, OPEN)),
                Field(name="ProtocolType", type="string", versions=(0, OPEN)),
                Field(name="ProtocolData", type="string", versions=(0, OPEN)),
                Field(name="Members", type="[]DescribedGroupMember", versions=(0, OPEN), fields=(
                    Field(name="MemberId", type="string", versions=(0, OPEN)),
                    Field(name="GroupInstanceId", type="string", versions=(4, OPEN), nullable_versions=(4, OPEN), default=None, ignorable=True),
                    Field(name="ClientId", type="string", versions=(0, OPEN)),
                    Field(name="ClientHost", type="string", versions=(0, OPEN)),
                    Field(name="MemberMetadata", type="bytes", versions=(0, OPEN)),
                    Field(name="MemberAssignment", type="bytes", versions=(0, OPEN)),
                )),
                Field(name="AuthorizedOperations", type="int32", versions=(3, OPEN), default=-2147483648),
            )),
        )),
    ))


def _DescribeLogDirsRequest():
    return Message(api_key=35, kind="request", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(2, OPEN), fields=(
            Field(name="Topics", type="[]DescribableLogDirTopic", versions=(0, OPEN), nullable_versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _DescribeLogDirsResponse():
    return Message(api_key=35, kind="response", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(3, OPEN), ignorable=True),
            Field(name="Results", type="[]DescribeLogDirsResult", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="LogDir", type="string", versions=(0, OPEN)),
                Field(name="Topics", type="[]DescribeLogDirsTopic", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]DescribeLogDirsPartition", versions=(0, OPEN), fields=(
                        Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                        Field(name="PartitionSize", type="int64", versions=(0, OPEN)),
                        Field(name="OffsetLag", type="int64", versions=(0, OPEN)),
                        Field(name="IsFutureKey", type="bool", versions=(0, OPEN)),
                    )),
                )),
                Field(name="TotalBytes", type="int64", versions=(4, OPEN), default=-1, ignorable=True),
                Field(name="UsableBytes", type="int64", versions=(4, OPEN), default=-1, ignorable=True),
            )),
        )),
    ))


def _DescribeProducersRequest():
    return Message(api_key=61, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Topics", type="[]TopicRequest", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="PartitionIndexes", type="[]int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _DescribeProducersResponse():
    return Message(api_key=61, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Topics", type="[]TopicResponse", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionResponse", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="ActiveProducers", type="[]ProducerState", versions=(0, OPEN), fields=(
                        Field(name="ProducerId", type="int64", versions=(0, OPEN)),
                        Field(name="ProducerEpoch", type="int32", versions=(0, OPEN)),
                        Field(name="LastSequence", type="int32", versions=(0, OPEN), default=-1),
                        Field(name="LastTimestamp", type="int64", versions=(0, OPEN), default=-1),
                        Field(name="CoordinatorEpoch", type="int32", versions=(0, OPEN)),
                        Field(name="CurrentTxnStartOffset", type="int64", versions=(0, OPEN), default=-1),
                    )),
                )),
            )),
        )),
    ))


def _DescribeQuorumRequest():
    return Message(api_key=55, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _DescribeQuorumResponse():
    return Message(api_key=55, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(2, OPEN), nullable_versions=(2, OPEN), ignorable=True),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(2, OPEN), nullable_versions=(2, OPEN), ignorable=True),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="HighWatermark", type="int64", versions=(0, OPEN)),
                    Field(name="CurrentVoters", type="[]ReplicaState", versions=(0, OPEN), fields=(
                        Field(name="ReplicaId", type="int32", versions=(0, OPEN)),
                        Field(name="ReplicaDirectoryId", type="uuid", versions=(2, OPEN)),
                        Field(name="LogEndOffset", type="int64", versions=(0, OPEN)),
                        Field(name="LastFetchTimestamp", type="int64", versions=(1, OPEN), default=-1, ignorable=True),
                        Field(name="LastCaughtUpTimestamp", type="int64", versions=(1, OPEN), default=-1, ignorable=True),
                    )),
                    Field(name="Observers", type="[]ReplicaState", versions=(0, OPEN), fields=(
                        Field(name="ReplicaId", type="int32", versions=(0, OPEN)),
                        Field(name="ReplicaDirectoryId", type="uuid", versions=(2, OPEN)),
                        Field(name="LogEndOffset", type="int64", versions=(0, OPEN)),
                        Field(name="LastFetchTimestamp", type="int64", versions=(1, OPEN), default=-1, ignorable=True),
                        Field(name="LastCaughtUpTimestamp", type="int64", versions=(1, OPEN), default=-1, ignorable=True),
                    )),
                )),
            )),
            Field(name="Nodes", type="[]Node", versions=(2, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(2, OPEN)),
                Field(name="Listeners", type="[]Listener", versions=(2, OPEN), fields=(
                    Field(name="Name", type="string", versions=(2, OPEN)),
                    Field(name="Host", type="string", versions=(2, OPEN)),
                    Field(name="Port", type="uint16", versions=(2, OPEN)),
                )),
            )),
        )),
    ))


def _DescribeShareGroupOffsetsRequest():
    return Message(api_key=90, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="Groups", type="[]DescribeShareGroupOffsetsRequestGroup", versions=(0, OPEN), fields=(
                Field(name="GroupId", type="string", versions=(0, OPEN)),
                Field(name="Topics", type="[]DescribeShareGroupOffsetsRequestTopic", versions=(0, OPEN), nullable_versions=(0, OPEN), fields=(
                    Field(name="TopicName", type="string", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _DescribeShareGroupOffsetsResponse():
    return Message(api_key=90, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Groups", type="[]DescribeShareGroupOffsetsResponseGroup", versions=(0, OPEN), fields=(
                Field(name="GroupId", type="string", versions=(0, OPEN)),
                Field(name="Topics", type="[]DescribeShareGroupOffsetsResponseTopic", versions=(0, OPEN), fields=(
                    Field(name="TopicName", type="string", versions=(0, OPEN)),
                    Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]DescribeShareGroupOffsetsResponsePartition", versions=(0, OPEN), fields=(
                        Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                        Field(name="StartOffset", type="int64", versions=(0, OPEN)),
                        Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                        Field(name="Lag", type="int64", versions=(1, OPEN), default=-1, ignorable=True),
                        Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                        Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    )),
                )),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            )),
        )),
    ))


def _DescribeTopicPartitionsRequest():
    return Message(api_key=75, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Topics", type="[]TopicRequest", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
            )),
            Field(name="ResponsePartitionLimit", type="int32", versions=(0, OPEN), default=2000),
            Field(name="Cursor", type="Cursor", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _DescribeTopicPartitionsResponse():
    return Message(api_key=75, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN), ignorable=True),
            Field(name="Topics", type="[]DescribeTopicPartitionsResponseTopic", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="Name", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="TopicId", type="uuid", versions=(0, OPEN), ignorable=True),
                Field(name="IsInternal", type="bool", versions=(0, OPEN), default=False, ignorable=True),
                Field(name="Partitions", type="[]DescribeTopicPartitionsResponsePartition", versions=(0, OPEN), fields=(
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN), default=-1, ignorable=True),
                    Field(name="ReplicaNodes", type="[]int32", versions=(0, OPEN)),
                    Field(name="IsrNodes", type="[]int32", versions=(0, OPEN)),
                    Field(name="EligibleLeaderReplicas", type="[]int32", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="LastKnownElr", type="[]int32", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="OfflineReplicas", type="[]int32", versions=(0, OPEN), ignorable=True),
                )),
                Field(name="TopicAuthorizedOperations", type="int32", versions=(0, OPEN), default=-2147483648),
            )),
            Field(name="NextCursor", type="Cursor", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _DescribeTransactionsRequest():
    return Message(api_key=65, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="TransactionalIds", type="[]string", versions=(0, OPEN)),
        )),
    ))


def _DescribeTransactionsResponse():
    return Message(api_key=65, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="TransactionStates", type="[]TransactionState", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="TransactionalId", type="string", versions=(0, OPEN)),
                Field(name="TransactionState", type="string", versions=(0, OPEN)),
                Field(name="TransactionTimeoutMs", type="int32", versions=(0, OPEN)),
                Field(name="TransactionStartTimeMs", type="int64", versions=(0, OPEN)),
                Field(name="ProducerId", type="int64", versions=(0, OPEN)),
                Field(name="ProducerEpoch", type="int16", versions=(0, OPEN)),
                Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                    Field(name="Topic", type="string", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _DescribeUserScramCredentialsRequest():
    return Message(api_key=50, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Users", type="[]UserName", versions=(0, OPEN), nullable_versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
            )),
        )),
    ))


def _DescribeUserScramCredentialsResponse():
    return Message(api_key=50, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="Results", type="[]DescribeUserScramCredentialsResult", versions=(0, OPEN), fields=(
                Field(name="User", type="string", versions=(0, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="CredentialInfos", type="[]CredentialInfo", versions=(0, OPEN), fields=(
                    Field(name="Mechanism", type="int8", versions=(0, OPEN)),
                    Field(name="Iterations", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _ElectLeadersRequest():
    return Message(api_key=43, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ElectionType", type="int8", versions=(1, OPEN)),
            Field(name="TopicPartitions", type="[]TopicPartitions", versions=(0, OPEN), nullable_versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN), default=60000),
        )),
    ))


def _ElectLeadersResponse():
    return Message(api_key=43, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(1, OPEN)),
            Field(name="ReplicaElectionResults", type="[]ReplicaElectionResult", versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, OPEN)),
                Field(name="PartitionResult", type="[]PartitionResult", versions=(0, OPEN), fields=(
                    Field(name="PartitionId", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _EndQuorumEpochRequest():
    return Message(api_key=54, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="PreferredSuccessors", type="[]int32", versions=(0, 0), ignorable=True),
                    Field(name="PreferredCandidates", type="[]ReplicaInfo", versions=(1, OPEN), ignorable=True, fields=(
                        Field(name="CandidateId", type="int32", versions=(1, OPEN)),
                        Field(name="CandidateDirectoryId", type="uuid", versions=(1, OPEN)),
                    )),
                )),
            )),
            Field(name="LeaderEndpoints", type="[]LeaderEndpoint", versions=(1, OPEN), ignorable=True, fields=(
                Field(name="Name", type="string", versions=(1, OPEN)),
                Field(name="Host", type="string", versions=(1, OPEN)),
                Field(name="Port", type="uint16", versions=(1, OPEN)),
            )),
        )),
    ))


def _EndQuorumEpochResponse():
    return Message(api_key=54, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(1, OPEN), tag=0, tagged_versions=(1, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(1, OPEN)),
                Field(name="Host", type="string", versions=(1, OPEN)),
                Field(name="Port", type="uint16", versions=(1, OPEN)),
            )),
        )),
    ))


def _EndTxnMarker():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=None, fields=(
            Field(name="CoordinatorEpoch", type="int32", versions=(0, OPEN)),
        )),
    ))


def _EndTxnRequest():
    return Message(api_key=26, kind="request", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(3, OPEN), fields=(
            Field(name="TransactionalId", type="string", versions=(0, OPEN)),
            Field(name="ProducerId", type="int64", versions=(0, OPEN)),
            Field(name="ProducerEpoch", type="int16", versions=(0, OPEN)),
            Field(name="Committed", type="bool", versions=(0, OPEN)),
        )),
    ))


def _EndTxnResponse():
    return Message(api_key=26, kind="response", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(3, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ProducerId", type="int64", versions=(5, OPEN), default=-1, ignorable=True),
            Field(name="ProducerEpoch", type="int16", versions=(5, OPEN), default=-1, ignorable=True),
        )),
    ))


def _EnvelopeRequest():
    return Message(api_key=58, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="RequestData", type="bytes", versions=(0, OPEN)),
            Field(name="RequestPrincipal", type="bytes", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="ClientHostAddress", type="bytes", versions=(0, OPEN)),
        )),
    ))


def _EnvelopeResponse():
    return Message(api_key=58, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ResponseData", type="bytes", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
        )),
    ))


def _ExpireDelegationTokenRequest():
    return Message(api_key=40, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="Hmac", type="bytes", versions=(0, OPEN)),
            Field(name="ExpiryTimePeriodMs", type="int64", versions=(0, OPEN)),
        )),
    ))


def _ExpireDelegationTokenResponse():
    return Message(api_key=40, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ExpiryTimestampMs", type="int64", versions=(0, OPEN)),
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
        )),
    ))


def _FetchRequest():
    return Message(api_key=1, kind="request", variants=(
        Variant(min_version=0, max_version=3, flexible_versions=(12, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(12, OPEN), nullable_versions=(12, OPEN), tag=0, tagged_versions=(12, OPEN), default=None, ignorable=True),
            Field(name="ReplicaId", type="int32", versions=(0, 14), default=-1),
            Field(name="ReplicaState", type="ReplicaState", versions=(15, OPEN), tag=1, tagged_versions=(15, OPEN), fields=(
                Field(name="ReplicaId", type="int32", versions=(15, OPEN), default=-1),
                Field(name="ReplicaEpoch", type="int64", versions=(15, OPEN), default=-1),
            )),
            Field(name="MaxWaitMs", type="int32", versions=(0, OPEN)),
            Field(name="MinBytes", type="int32", versions=(0, OPEN)),
            Field(name="MaxBytes", type="int32", versions=(3, OPEN), default=2147483647, ignorable=True),
            Field(name="IsolationLevel", type="int8", versions=(4, OPEN), default=0, ignorable=True),
            Field(name="SessionId", type="int32", versions=(7, OPEN), default=0, ignorable=True),
            Field(name="SessionEpoch", type="int32", versions=(7, OPEN), default=-1, ignorable=True),
            Field(name="Topics", type="[]FetchTopic", versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, 12), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(13, OPEN), ignorable=True),
                Field(name="Partitions", type="[]FetchPartition", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="CurrentLeaderEpoch", type="int32", versions=(9, OPEN), default=-1, ignorable=True),
                    Field(name="FetchOffset", type="int64", versions=(0, OPEN)),
                    Field(name="LastFetchedEpoch", type="int32", versions=(12, OPEN), default=-1),
                    Field(name="LogStartOffset", type="int64", versions=(5, OPEN), default=-1, ignorable=True),
                    Field(name="PartitionMaxBytes", type="int32", versions=(0, OPEN)),
                    Field(name="ReplicaDirectoryId", type="uuid", versions=(17, OPEN), tag=0, tagged_versions=(17, OPEN), ignorable=True),
                )),
            )),
            Field(name="ForgottenTopicsData", type="[]ForgottenTopic", versions=(7, OPEN), fields=(
                Field(name="Topic", type="string", versions=(7, 12), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(13, OPEN), ignorable=True),
                Field(name="Partitions", type="[]int32", versions=(7, OPEN)),
            )),
            Field(name="RackId", type="string", versions=(11, OPEN), default="", ignorable=True),
        )),
        Variant(min_version=4, max_version=18, flexible_versions=(12, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(12, OPEN), nullable_versions=(12, OPEN), tag=0, tagged_versions=(12, OPEN), default=None, ignorable=True),
            Field(name="ReplicaId", type="int32", versions=(0, 14), default=-1),
            Field(name="ReplicaState", type="ReplicaState", versions=(15, OPEN), tag=1, tagged_versions=(15, OPEN), fields=(
                Field(name="ReplicaId", type="int32", versions=(15, OPEN), default=-1),
                Field(name="ReplicaEpoch", type="int64", versions=(15, OPEN), default=-1),
            )),
            Field(name="MaxWaitMs", type="int32", versions=(0, OPEN)),
            Field(name="MinBytes", type="int32", versions=(0, OPEN)),
            Field(name="MaxBytes", type="int32", versions=(3, OPEN), default=2147483647, ignorable=True),
            Field(name="IsolationLevel", type="int8", versions=(4, OPEN), default=0, ignorable=True),
            Field(name="SessionId", type="int32", versions=(7, OPEN), default=0, ignorable=True),
            Field(name="SessionEpoch", type="int32", versions=(7, OPEN), default=-1, ignorable=True),
            Field(name="Topics", type="[]FetchTopic", versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, 12), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(13, OPEN), ignorable=True),
                Field(name="Partitions", type="[]FetchPartition", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="CurrentLeaderEpoch", type="int32", versions=(9, OPEN), default=-1, ignorable=True),
                    Field(name="FetchOffset", type="int64", versions=(0, OPEN)),
                    Field(name="LastFetchedEpoch", type="int32", versions=(12, OPEN), default=-1),
                    Field(name="LogStartOffset", type="int64", versions=(5, OPEN), default=-1, ignorable=True),
                    Field(name="PartitionMaxBytes", type="int32", versions=(0, OPEN)),
                    Field(name="ReplicaDirectoryId", type="uuid", versions=(17, OPEN), tag=0, tagged_versions=(17, OPEN), ignorable=True),
                    Field(name="HighWatermark", type="int64", versions=(18, OPEN), tag=1, tagged_versions=(18, OPEN), default=9223372036854775807, ignorable=True),
                )),
            )),
            Field(name="ForgottenTopicsData", type="[]ForgottenTopic", versions=(7, OPEN), fields=(
                Field(name="Topic", type="string", versions=(7, 12), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(13, OPEN), ignorable=True),
                Field(name="Partitions", type="[]int32", versions=(7, OPEN)),
            )),
            Field(name="RackId", type="string", versions=(11, OPEN), default="", ignorable=True),
        )),
    ))


def _FetchResponse():
    return Message(api_key=1, kind="response", variants=(
        Variant(min_version=0, max_version=18, flexible_versions=(12, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(7, OPEN), ignorable=True),
            Field(name="SessionId", type="int32", versions=(7, OPEN), default=0),
            Field(name="Responses", type="[]FetchableTopicResponse", versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, 12), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(13, OPEN), ignorable=True),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="HighWatermark", type="int64", versions=(0, OPEN)),
                    Field(name="LastStableOffset", type="int64", versions=(4, OPEN), default=-1, ignorable=True),
                    Field(name="LogStartOffset", type="int64", versions=(5, OPEN), default=-1, ignorable=True),
                    Field(name="DivergingEpoch", type="EpochEndOffset", versions=(12, OPEN), tag=0, tagged_versions=(12, OPEN), fields=(
                        Field(name="Epoch", type="int32", versions=(12, OPEN), default=-1),
                        Field(name="EndOffset", type="int64", versions=(12, OPEN), default=-1),
                    )),
                    Field(name="CurrentLeader", type="LeaderIdAndEpoch", versions=(12, OPEN), tag=1, tagged_versions=(12, OPEN), fields=(
                        Field(name="LeaderId", type="int32", versions=(12, OPEN), default=-1),
                        Field(name="LeaderEpoch", type="int32", versions=(12, OPEN), default=-1),
                    )),
                    Field(name="SnapshotId", type="SnapshotId", versions=(12, OPEN), tag=2, tagged_versions=(12, OPEN), fields=(
                        Field(name="EndOffset", type="int64", versions=(0, OPEN), default=-1),
                        Field(name="Epoch", type="int32", versions=(0, OPEN), default=-1),
                    )),
                    Field(name="AbortedTransactions", type="[]AbortedTransaction", versions=(4, OPEN), nullable_versions=(4, OPEN), ignorable=True, fields=(
                        Field(name="ProducerId", type="int64", versions=(4, OPEN)),
                        Field(name="FirstOffset", type="int64", versions=(4, OPEN)),
                    )),
                    Field(name="PreferredReadReplica", type="int32", versions=(11, OPEN), default=-1),
                    Field(name="Records", type="records", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(16, OPEN), tag=0, tagged_versions=(16, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(16, OPEN)),
                Field(name="Host", type="string", versions=(16, OPEN)),
                Field(name="Port", type="int32", versions=(16, OPEN)),
                Field(name="Rack", type="string", versions=(16, OPEN), nullable_versions=(16, OPEN), default=None),
            )),
        )),
    ))


def _FetchSnapshotRequest():
    return Message(api_key=59, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), tag=0, tagged_versions=(0, OPEN), default=None),
            Field(name="ReplicaId", type="int32", versions=(0, OPEN), default=-1),
            Field(name="MaxBytes", type="int32", versions=(0, OPEN), default=2147483647),
            Field(name="Topics", type="[]TopicSnapshot", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionSnapshot", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="CurrentLeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="SnapshotId", type="SnapshotId", versions=(0, OPEN), fields=(
                        Field(name="EndOffset", type="int64", versions=(0, OPEN)),
                        Field(name="Epoch", type="int32", versions=(0, OPEN)),
                    )),
                    Field(name="Position", type="int64", versions=(0, OPEN)),
                    Field(name="ReplicaDirectoryId", type="uuid", versions=(1, OPEN), tag=0, tagged_versions=(1, OPEN), ignorable=True),
                )),
            )),
        )),
    ))


def _FetchSnapshotResponse():
    return Message(api_key=59, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Topics", type="[]TopicSnapshot", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionSnapshot", versions=(0, OPEN), fields=(
                    Field(name="Index", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="SnapshotId", type="SnapshotId", versions=(0, OPEN), fields=(
                        Field(name="EndOffset", type="int64", versions=(0, OPEN)),
                        Field(name="Epoch", type="int32", versions=(0, OPEN)),
                    )),
                    Field(name="CurrentLeader", type="LeaderIdAndEpoch", versions=(0, OPEN), tag=0, tagged_versions=(0, OPEN), fields=(
                        Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                        Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    )),
                    Field(name="Size", type="int64", versions=(0, OPEN)),
                    Field(name="Position", type="int64", versions=(0, OPEN)),
                    Field(name="UnalignedRecords", type="records", versions=(0, OPEN)),
                )),
            )),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(1, OPEN), tag=0, tagged_versions=(1, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(1, OPEN)),
                Field(name="Host", type="string", versions=(1, OPEN)),
                Field(name="Port", type="uint16", versions=(1, OPEN)),
            )),
        )),
    ))


def _FindCoordinatorRequest():
    return Message(api_key=10, kind="request", variants=(
        Variant(min_version=0, max_version=6, flexible_versions=(3, OPEN), fields=(
            Field(name="Key", type="string", versions=(0, 3)),
            Field(name="KeyType", type="int8", versions=(1, OPEN), default=0),
            Field(name="CoordinatorKeys", type="[]string", versions=(4, OPEN)),
        )),
    ))


def _FindCoordinatorResponse():
    return Message(api_key=10, kind="response", variants=(
        Variant(min_version=0, max_version=6, flexible_versions=(3, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, 3)),
            Field(name="ErrorMessage", type="string", versions=(1, 3), nullable_versions=(1, 3), ignorable=True),
            Field(name="NodeId", type="int32", versions=(0, 3)),
            Field(name="Host", type="string", versions=(0, 3)),
            Field(name="Port", type="int32", versions=(0, 3)),
            Field(name="Coordinators", type="[]Coordinator", versions=(4, OPEN), fields=(
                Field(name="Key", type="string", versions=(4, OPEN)),
                Field(name="NodeId", type="int32", versions=(4, OPEN)),
                Field(name="Host", type="string", versions=(4, OPEN)),
                Field(name="Port", type="int32", versions=(4, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(4, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(4, OPEN), nullable_versions=(4, OPEN), ignorable=True),
            )),
        )),
    ))


def _GetTelemetrySubscriptionsRequest():
    return Message(api_key=71, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ClientInstanceId", type="uuid", versions=(0, OPEN)),
        )),
    ))


def _GetTelemetrySubscriptionsResponse():
    return Message(api_key=71, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ClientInstanceId", type="uuid", versions=(0, OPEN)),
            Field(name="SubscriptionId", type="int32", versions=(0, OPEN)),
            Field(name="AcceptedCompressionTypes", type="[]int8", versions=(0, OPEN)),
            Field(name="PushIntervalMs", type="int32", versions=(0, OPEN)),
            Field(name="TelemetryMaxBytes", type="int32", versions=(0, OPEN)),
            Field(name="DeltaTemporality", type="bool", versions=(0, OPEN)),
            Field(name="RequestedMetrics", type="[]string", versions=(0, OPEN)),
        )),
    ))


def _HeartbeatRequest():
    return Message(api_key=12, kind="request", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(4, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="GenerationId", type="int32", versions=(0, OPEN)),
            Field(name="MemberId", type="string", versions=(0, OPEN)),
            Field(name="GroupInstanceId", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN), default=None),
        )),
    ))


def _HeartbeatResponse():
    return Message(api_key=12, kind="response", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(4, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
        )),
    ))


def _IncrementalAlterConfigsRequest():
    return Message(api_key=44, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="Resources", type="[]AlterConfigsResource", versions=(0, OPEN), fields=(
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
                Field(name="Configs", type="[]AlterableConfig", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="ConfigOperation", type="int8", versions=(0, OPEN)),
                    Field(name="Value", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
            Field(name="ValidateOnly", type="bool", versions=(0, OPEN)),
        )),
    ))


def _IncrementalAlterConfigsResponse():
    return Message(api_key=44, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Responses", type="[]AlterConfigsResourceResponse", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                Field(name="ResourceType", type="int8", versions=(0, OPEN)),
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
            )),
        )),
    ))


def _InitProducerIdRequest():
    return Message(api_key=22, kind="request", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(2, OPEN), fields=(
            Field(name="TransactionalId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="TransactionTimeoutMs", type="int32", versions=(0, OPEN)),
            Field(name="ProducerId", type="int64", versions=(3, OPEN), default=-1),
            Field(name="ProducerEpoch", type="int16", versions=(3, OPEN), default=-1),
            Field(name="Enable2Pc", type="bool", versions=(6, OPEN), default=False),
            Field(name="KeepPreparedTxn", type="bool", versions=(6, OPEN), default=False),
        )),
    ))


def _InitProducerIdResponse():
    return Message(api_key=22, kind="response", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(2, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ProducerId", type="int64", versions=(0, OPEN), default=-1),
            Field(name="ProducerEpoch", type="int16", versions=(0, OPEN)),
            Field(name="OngoingTxnProducerId", type="int64", versions=(6, OPEN), default=-1),
            Field(name="OngoingTxnProducerEpoch", type="int16", versions=(6, OPEN), default=-1),
        )),
    ))


def _InitializeShareGroupStateRequest():
    return Message(api_key=83, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="Topics", type="[]InitializeStateData", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="StateEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="StartOffset", type="int64", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _InitializeShareGroupStateResponse():
    return Message(api_key=83, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Results", type="[]InitializeStateResult", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionResult", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                )),
            )),
        )),
    ))


def _JoinGroupRequest():
    return Message(api_key=11, kind="request", variants=(
        Variant(min_version=0, max_version=9, flexible_versions=(6, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="SessionTimeoutMs", type="int32", versions=(0, OPEN)),
            Field(name="RebalanceTimeoutMs", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
            Field(name="MemberId", type="string", versions=(0, OPEN)),
            Field(name="GroupInstanceId", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN), default=None),
            Field(name="ProtocolType", type="string", versions=(0, OPEN)),
            Field(name="Protocols", type="[]JoinGroupRequestProtocol", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Metadata", type="bytes", versions=(0, OPEN)),
            )),
            Field(name="Reason", type="string", versions=(8, OPEN), nullable_versions=(8, OPEN), default=None, ignorable=True),
        )),
    ))


def _JoinGroupResponse():
    return Message(api_key=11, kind="response", variants=(
        Variant(min_version=0, max_version=9, flexible_versions=(6, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(2, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="GenerationId", type="int32", versions=(0, OPEN), default=-1),
            Field(name="ProtocolType", type="string", versions=(7, OPEN), nullable_versions=(7, OPEN), default=None, ignorable=True),
            Field(name="ProtocolName", type="string", versions=(0, OPEN), nullable_versions=(7, OPEN)),
            Field(name="Leader", type="string", versions=(0, OPEN)),
            Field(name="SkipAssignment", type="bool", versions=(9, OPEN), default=False),
            Field(name="MemberId", type="string", versions=(0, OPEN)),
            Field(name="Members", type="[]JoinGroupResponseMember", versions=(0, OPEN), fields=(
                Field(name="MemberId", type="string", versions=(0, OPEN)),
                Field(name="GroupInstanceId", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN), default=None, ignorable=True),
                Field(name="Metadata", type="bytes", versions=(0, OPEN)),
            )),
        )),
    ))


def _KRaftVersionRecord():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Version", type="int16", versions=(0, OPEN)),
            Field(name="KRaftVersion", type="int16", versions=(0, OPEN)),
        )),
    ))


def _LeaderAndIsrRequest():
    return Message(api_key=4, kind="request", variants=(
        Variant(min_version=0, max_version=7, flexible_versions=(4, OPEN), fields=(
            Field(name="ControllerId", type="int32", versions=(0, OPEN)),
            Field(name="isKRaftController", type="bool", versions=(7, OPEN), default=False),
            Field(name="ControllerEpoch", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(2, OPEN), default=-1, ignorable=True),
            Field(name="Type", type="int8", versions=(5, OPEN)),
            Field(name="UngroupedPartitionStates", type="[]LeaderAndIsrPartitionState", versions=(0, 1), fields=(
                Field(name="TopicName", type="string", versions=(0, 1), ignorable=True),
                Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                Field(name="ControllerEpoch", type="int32", versions=(0, OPEN)),
                Field(name="Leader", type="int32", versions=(0, OPEN)),
                Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                Field(name="Isr", type="[]int32", versions=(0, OPEN)),
                Field(name="PartitionEpoch", type="int32", versions=(0, OPEN)),
                Field(name="Replicas", type="[]int32", versions=(0, OPEN)),
                Field(name="AddingReplicas", type="[]int32", versions=(3, OPEN), ignorable=True),
                Field(name="RemovingReplicas", type="[]int32", versions=(3, OPEN), ignorable=True),
                Field(name="IsNew", type="bool", versions=(1, OPEN), default=False, ignorable=True),
                Field(name="LeaderRecoveryState", type="int8", versions=(6, OPEN), default=0),
            )),
            Field(name="TopicStates", type="[]LeaderAndIsrTopicState", versions=(2, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(2, OPEN)),
                Field(name="TopicId", type="uuid", versions=(5, OPEN), ignorable=True),
                Field(name="PartitionStates", type="[]LeaderAndIsrPartitionState", versions=(2, OPEN), fields=(
                    Field(name="TopicName", type="string", versions=(0, 1), ignorable=True),
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ControllerEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="Leader", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="Isr", type="[]int32", versions=(0, OPEN)),
                    Field(name="PartitionEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="Replicas", type="[]int32", versions=(0, OPEN)),
                    Field(name="AddingReplicas", type="[]int32", versions=(3, OPEN), ignorable=True),
                    Field(name="RemovingReplicas", type="[]int32", versions=(3, OPEN), ignorable=True),
                    Field(name="IsNew", type="bool", versions=(1, OPEN), default=False, ignorable=True),
                    Field(name="LeaderRecoveryState", type="int8", versions=(6, OPEN), default=0),
                )),
            )),
            Field(name="LiveLeaders", type="[]LeaderAndIsrLiveLeader", versions=(0, OPEN), fields=(
                Field(name="BrokerId", type="int32", versions=(0, OPEN)),
                Field(name="HostName", type="string", versions=(0, OPEN)),
                Field(name="Port", type="int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _LeaderAndIsrResponse():
    return Message(api_key=4, kind="response", variants=(
        Variant(min_version=0, max_version=7, flexible_versions=(4, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="PartitionErrors", type="[]LeaderAndIsrPartitionError", versions=(0, 4), fields=(
                Field(name="TopicName", type="string", versions=(0, 4), ignorable=True),
                Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            )),
            Field(name="Topics", type="[]LeaderAndIsrTopicError", versions=(5, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(5, OPEN)),
                Field(name="PartitionErrors", type="[]LeaderAndIsrPartitionError", versions=(5, OPEN), fields=(
                    Field(name="TopicName", type="string", versions=(0, 4), ignorable=True),
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _LeaderChangeMessage():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="Version", type="int16", versions=(0, OPEN)),
            Field(name="LeaderId", type="int32", versions=(0, OPEN)),
            Field(name="Voters", type="[]Voter", versions=(0, OPEN), fields=(
                Field(name="VoterId", type="int32", versions=(0, OPEN)),
                Field(name="VoterDirectoryId", type="uuid", versions=(1, OPEN)),
            )),
            Field(name="GrantingVoters", type="[]Voter", versions=(0, OPEN), fields=(
                Field(name="VoterId", type="int32", versions=(0, OPEN)),
                Field(name="VoterDirectoryId", type="uuid", versions=(1, OPEN)),
            )),
        )),
    ))


def _LeaveGroupRequest():
    return Message(api_key=13, kind="request", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(4, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="MemberId", type="string", versions=(0, 2)),
            Field(name="Members", type="[]MemberIdentity", versions=(3, OPEN), fields=(
                Field(name="MemberId", type="string", versions=(3, OPEN)),
                Field(name="GroupInstanceId", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN), default=None),
                Field(name="Reason", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN), default=None, ignorable=True),
            )),
        )),
    ))


def _LeaveGroupResponse():
    return Message(api_key=13, kind="response", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(4, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Members", type="[]MemberResponse", versions=(3, OPEN), fields=(
                Field(name="MemberId", type="string", versions=(3, OPEN)),
                Field(name="GroupInstanceId", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(3, OPEN)),
            )),
        )),
    ))


def _ListConfigResourcesRequest():
    return Message(api_key=74, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ResourceTypes", type="[]int8", versions=(1, OPEN)),
        )),
    ))


def _ListConfigResourcesResponse():
    return Message(api_key=74, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ConfigResources", type="[]ConfigResource", versions=(0, OPEN), fields=(
                Field(name="ResourceName", type="string", versions=(0, OPEN)),
                Field(name="ResourceType", type="int8", versions=(1, OPEN), default=16, ignorable=True),
            )),
        )),
    ))


def _ListGroupsRequest():
    return Message(api_key=16, kind="request", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(3, OPEN), fields=(
            Field(name="StatesFilter", type="[]string", versions=(4, OPEN)),
            Field(name="TypesFilter", type="[]string", versions=(5, OPEN)),
        )),
    ))


def _ListGroupsResponse():
    return Message(api_key=16, kind="response", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(3, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Groups", type="[]ListedGroup", versions=(0, OPEN), fields=(
                Field(name="GroupId", type="string", versions=(0, OPEN)),
                Field(name="ProtocolType", type="string", versions=(0, OPEN)),
                Field(name="GroupState", type="string", versions=(4, OPEN), ignorable=True),
                Field(name="GroupType", type="string", versions=(5, OPEN), ignorable=True),
            )),
        )),
    ))


def _ListOffsetsRequest():
    return Message(api_key=2, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(6, OPEN), fields=(
            Field(name="ReplicaId", type="int32", versions=(0, OPEN)),
            Field(name="IsolationLevel", type="int8", versions=(2, OPEN)),
            Field(name="Topics", type="[]ListOffsetsTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]ListOffsetsPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="CurrentLeaderEpoch", type="int32", versions=(4, OPEN), default=-1, ignorable=True),
                    Field(name="Timestamp", type="int64", versions=(0, OPEN)),
                    Field(name="MaxNumOffsets", type="int32", versions=(0, 0), default=1),
                )),
            )),
        )),
        Variant(min_version=1, max_version=11, flexible_versions=(6, OPEN), fields=(
            Field(name="ReplicaId", type="int32", versions=(0, OPEN)),
            Field(name="IsolationLevel", type="int8", versions=(2, OPEN)),
            Field(name="Topics", type="[]ListOffsetsTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]ListOffsetsPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="CurrentLeaderEpoch", type="int32", versions=(4, OPEN), default=-1, ignorable=True),
                    Field(name="Timestamp", type="int64", versions=(0, OPEN)),
                )),
            )),
            Field(name="TimeoutMs", type="int32", versions=(10, OPEN), ignorable=True),
        )),
    ))


def _ListOffsetsResponse():
    return Message(api_key=2, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(6, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(2, OPEN), ignorable=True),
            Field(name="Topics", type="[]ListOffsetsTopicResponse", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]ListOffsetsPartitionResponse", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="OldStyleOffsets", type="[]int64", versions=(0, 0)),
                    Field(name="Timestamp", type="int64", versions=(1, OPEN), default=-1),
                    Field(name="Offset", type="int64", versions=(1, OPEN), default=-1),
                    Field(name="LeaderEpoch", type="int32", versions=(4, OPEN), default=-1),
                )),
            )),
        )),
        Variant(min_version=1, max_version=11, flexible_versions=(6, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(2, OPEN), ignorable=True),
            Field(name="Topics", type="[]ListOffsetsTopicResponse", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]ListOffsetsPartitionResponse", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="Timestamp", type="int64", versions=(1, OPEN), default=-1),
                    Field(name="Offset", type="int64", versions=(1, OPEN), default=-1),
                    Field(name="LeaderEpoch", type="int32", versions=(4, OPEN), default=-1),
                )),
            )),
        )),
    ))


def _ListPartitionReassignmentsRequest():
    return Message(api_key=46, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN), default=60000),
            Field(name="Topics", type="[]ListPartitionReassignmentsTopics", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="PartitionIndexes", type="[]int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _ListPartitionReassignmentsResponse():
    return Message(api_key=46, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="Topics", type="[]OngoingTopicReassignment", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]OngoingPartitionReassignment", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="Replicas", type="[]int32", versions=(0, OPEN)),
                    Field(name="AddingReplicas", type="[]int32", versions=(0, OPEN)),
                    Field(name="RemovingReplicas", type="[]int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _ListTransactionsRequest():
    return Message(api_key=66, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="StateFilters", type="[]string", versions=(0, OPEN)),
            Field(name="ProducerIdFilters", type="[]int64", versions=(0, OPEN)),
            Field(name="DurationFilter", type="int64", versions=(1, OPEN), default=-1),
            Field(name="TransactionalIdPattern", type="string", versions=(2, OPEN), nullable_versions=(2, OPEN), default=None),
        )),
    ))


def _ListTransactionsResponse():
    return Message(api_key=66, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="UnknownStateFilters", type="[]string", versions=(0, OPEN)),
            Field(name="TransactionStates", type="[]TransactionState", versions=(0, OPEN), fields=(
                Field(name="TransactionalId", type="string", versions=(0, OPEN)),
                Field(name="ProducerId", type="int64", versions=(0, OPEN)),
                Field(name="TransactionState", type="string", versions=(0, OPEN)),
            )),
        )),
    ))


def _MetadataRequest():
    return Message(api_key=3, kind="request", variants=(
        Variant(min_version=0, max_version=13, flexible_versions=(9, OPEN), fields=(
            Field(name="Topics", type="[]MetadataRequestTopic", versions=(0, OPEN), nullable_versions=(1, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(10, OPEN), ignorable=True),
                Field(name="Name", type="string", versions=(0, OPEN), nullable_versions=(10, OPEN)),
            )),
            Field(name="AllowAutoTopicCreation", type="bool", versions=(4, OPEN), default=True),
            Field(name="IncludeClusterAuthorizedOperations", type="bool", versions=(8, 10)),
            Field(name="IncludeTopicAuthorizedOperations", type="bool", versions=(8, OPEN)),
        )),
    ))


def _MetadataResponse():
    return Message(api_key=3, kind="response", variants=(
        Variant(min_version=0, max_version=13, flexible_versions=(9, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(3, OPEN), ignorable=True),
            Field(name="Brokers", type="[]MetadataResponseBroker", versions=(0, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="int32", versions=(0, OPEN)),
                Field(name="Rack", type="string", versions=(1, OPEN), nullable_versions=(1, OPEN), default=None, ignorable=True),
            )),
            Field(name="ClusterId", type="string", versions=(2, OPEN), nullable_versions=(2, OPEN), default=None, ignorable=True),
            Field(name="ControllerId", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
            Field(name="Topics", type="[]MetadataResponseTopic", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="Name", type="string", versions=(0, OPEN), nullable_versions=(12, OPEN)),
                Field(name="TopicId", type="uuid", versions=(10, OPEN), ignorable=True),
                Field(name="IsInternal", type="bool", versions=(1, OPEN), default=False, ignorable=True),
                Field(name="Partitions", type="[]MetadataResponsePartition", versions=(0, OPEN), fields=(
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(7, OPEN), default=-1, ignorable=True),
                    Field(name="ReplicaNodes", type="[]int32", versions=(0, OPEN)),
                    Field(name="IsrNodes", type="[]int32", versions=(0, OPEN)),
                    Field(name="OfflineReplicas", type="[]int32", versions=(5, OPEN), ignorable=True),
                )),
                Field(name="TopicAuthorizedOperations", type="int32", versions=(8, OPEN), default=-2147483648),
            )),
            Field(name="ClusterAuthorizedOperations", type="int32", versions=(8, 10), default=-2147483648),
            Field(name="ErrorCode", type="int16", versions=(13, OPEN), ignorable=True),
        )),
    ))


def _OffsetCommitRequest():
    return Message(api_key=8, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(8, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="GenerationIdOrMemberEpoch", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
            Field(name="MemberId", type="string", versions=(1, OPEN), ignorable=True),
            Field(name="GroupInstanceId", type="string", versions=(7, OPEN), nullable_versions=(7, OPEN), default=None),
            Field(name="RetentionTimeMs", type="int64", versions=(2, 4), default=-1, ignorable=True),
            Field(name="Topics", type="[]OffsetCommitRequestTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]OffsetCommitRequestPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="CommittedOffset", type="int64", versions=(0, OPEN)),
                    Field(name="CommittedLeaderEpoch", type="int32", versions=(6, OPEN), default=-1, ignorable=True),
                    Field(name="CommitTimestamp", type="int64", versions=(1, 1), default=-1),
                    Field(name="CommittedMetadata", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
        )),
        Variant(min_version=2, max_version=10, flexible_versions=(8, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="GenerationIdOrMemberEpoch", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
            Field(name="MemberId", type="string", versions=(1, OPEN), ignorable=True),
            Field(name="GroupInstanceId", type="string", versions=(7, OPEN), nullable_versions=(7, OPEN), default=None),
            Field(name="RetentionTimeMs", type="int64", versions=(2, 4), default=-1, ignorable=True),
            Field(name="Topics", type="[]OffsetCommitRequestTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, 9), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(10, OPEN), ignorable=True),
                Field(name="Partitions", type="[]OffsetCommitRequestPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="CommittedOffset", type="int64", versions=(0, OPEN)),
                    Field(name="CommittedLeaderEpoch", type="int32", versions=(6, OPEN), default=-1, ignorable=True),
                    Field(name="CommittedMetadata", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _OffsetCommitResponse():
    return Message(api_key=8, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(8, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(3, OPEN), ignorable=True),
            Field(name="Topics", type="[]OffsetCommitResponseTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]OffsetCommitResponsePartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
        Variant(min_version=2, max_version=10, flexible_versions=(8, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(3, OPEN), ignorable=True),
            Field(name="Topics", type="[]OffsetCommitResponseTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, 9), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(10, OPEN), ignorable=True),
                Field(name="Partitions", type="[]OffsetCommitResponsePartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _OffsetDeleteRequest():
    return Message(api_key=47, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=None, fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="Topics", type="[]OffsetDeleteRequestTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]OffsetDeleteRequestPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _OffsetDeleteResponse():
    return Message(api_key=47, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=None, fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN), ignorable=True),
            Field(name="Topics", type="[]OffsetDeleteResponseTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]OffsetDeleteResponsePartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _OffsetFetchRequest():
    return Message(api_key=9, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(6, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, 7)),
            Field(name="Topics", type="[]OffsetFetchRequestTopic", versions=(0, 7), nullable_versions=(2, 7), fields=(
                Field(name="Name", type="string", versions=(0, 7)),
                Field(name="PartitionIndexes", type="[]int32", versions=(0, 7)),
            )),
            Field(name="Groups", type="[]OffsetFetchRequestGroup", versions=(8, OPEN), fields=(
                Field(name="GroupId", type="string", versions=(8, OPEN)),
                Field(name="MemberId", type="string", versions=(9, OPEN), nullable_versions=(9, OPEN), default=None, ignorable=True),
                Field(name="MemberEpoch", type="int32", versions=(9, OPEN), default=-1, ignorable=True),
                Field(name="Topics", type="[]OffsetFetchRequestTopics", versions=(8, OPEN), nullable_versions=(8, OPEN), fields=(
                    Field(name="Name", type="string", versions=(8, OPEN)),
                    Field(name="PartitionIndexes", type="[]int32", versions=(8, OPEN)),
                )),
            )),
            Field(name="RequireStable", type="bool", versions=(7, OPEN), default=False),
        )),
        Variant(min_version=1, max_version=10, flexible_versions=(6, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, 7)),
            Field(name="Topics", type="[]OffsetFetchRequestTopic", versions=(0, 7), nullable_versions=(2, 7), fields=(
                Field(name="Name", type="string", versions=(0, 7)),
                Field(name="PartitionIndexes", type="[]int32", versions=(0, 7)),
            )),
            Field(name="Groups", type="[]OffsetFetchRequestGroup", versions=(8, OPEN), fields=(
                Field(name="GroupId", type="string", versions=(8, OPEN)),
                Field(name="MemberId", type="string", versions=(9, OPEN), nullable_versions=(9, OPEN), default=None, ignorable=True),
                Field(name="MemberEpoch", type="int32", versions=(9, OPEN), default=-1, ignorable=True),
                Field(name="Topics", type="[]OffsetFetchRequestTopics", versions=(8, OPEN), nullable_versions=(8, OPEN), fields=(
                    Field(name="Name", type="string", versions=(8, 9), ignorable=True),
                    Field(name="TopicId", type="uuid", versions=(10, OPEN), ignorable=True),
                    Field(name="PartitionIndexes", type="[]int32", versions=(8, OPEN)),
                )),
            )),
            Field(name="RequireStable", type="bool", versions=(7, OPEN), default=False),
        )),
    ))


def _OffsetFetchResponse():
    return Message(api_key=9, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(6, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(3, OPEN), ignorable=True),
            Field(name="Topics", type="[]OffsetFetchResponseTopic", versions=(0, 7), fields=(
                Field(name="Name", type="string", versions=(0, 7)),
                Field(name="Partitions", type="[]OffsetFetchResponsePartition", versions=(0, 7), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, 7)),
                    Field(name="CommittedOffset", type="int64", versions=(0, 7)),
                    Field(name="CommittedLeaderEpoch", type="int32", versions=(5, 7), default=-1, ignorable=True),
                    Field(name="Metadata", type="string", versions=(0, 7), nullable_versions=(0, 7)),
                    Field(name="ErrorCode", type="int16", versions=(0, 7)),
                )),
            )),
            Field(name="ErrorCode", type="int16", versions=(2, 7), default=0, ignorable=True),
            Field(name="Groups", type="[]OffsetFetchResponseGroup", versions=(8, OPEN), fields=(
                Field(name="GroupId", type="string", versions=(8, OPEN)),
                Field(name="Topics", type="[]OffsetFetchResponseTopics", versions=(8, OPEN), fields=(
                    Field(name="Name", type="string", versions=(8, OPEN)),
                    Field(name="Partitions", type="[]OffsetFetchResponsePartitions", versions=(8, OPEN), fields=(
                        Field(name="PartitionIndex", type="int32", versions=(8, OPEN)),
                        Field(name="CommittedOffset", type="int64", versions=(8, OPEN)),
                        Field(name="CommittedLeaderEpoch", type="int32", versions=(8, OPEN), default=-1, ignorable=True),
                        Field(name="Metadata", type="string", versions=(8, OPEN), nullable_versions=(8, OPEN)),
                        Field(name="ErrorCode", type="int16", versions=(8, OPEN)),
                    )),
                )),
                Field(name="ErrorCode", type="int16", versions=(8, OPEN), default=0),
            )),
        )),
        Variant(min_version=1, max_version=10, flexible_versions=(6, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(3, OPEN), ignorable=True),
            Field(name="Topics", type="[]OffsetFetchResponseTopic", versions=(0, 7), fields=(
                Field(name="Name", type="string", versions=(0, 7)),
                Field(name="Partitions", type="[]OffsetFetchResponsePartition", versions=(0, 7), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, 7)),
                    Field(name="CommittedOffset", type="int64", versions=(0, 7)),
                    Field(name="CommittedLeaderEpoch", type="int32", versions=(5, 7), default=-1, ignorable=True),
                    Field(name="Metadata", type="string", versions=(0, 7), nullable_versions=(0, 7)),
                    Field(name="ErrorCode", type="int16", versions=(0, 7)),
                )),
            )),
            Field(name="ErrorCode", type="int16", versions=(2, 7), default=0, ignorable=True),
            Field(name="Groups", type="[]OffsetFetchResponseGroup", versions=(8, OPEN), fields=(
                Field(name="GroupId", type="string", versions=(8, OPEN)),
                Field(name="Topics", type="[]OffsetFetchResponseTopics", versions=(8, OPEN), fields=(
                    Field(name="Name", type="string", versions=(8, 9), ignorable=True),
                    Field(name="TopicId", type="uuid", versions=(10, OPEN), ignorable=True),
                    Field(name="Partitions", type="[]OffsetFetchResponsePartitions", versions=(8, OPEN), fields=(
                        Field(name="PartitionIndex", type="int32", versions=(8, OPEN)),
                        Field(name="CommittedOffset", type="int64", versions=(8, OPEN)),
                        Field(name="CommittedLeaderEpoch", type="int32", versions=(8, OPEN), default=-1, ignorable=True),
                        Field(name="Metadata", type="string", versions=(8, OPEN), nullable_versions=(8, OPEN)),
                        Field(name="ErrorCode", type="int16", versions=(8, OPEN)),
                    )),
                )),
                Field(name="ErrorCode", type="int16", versions=(8, OPEN), default=0),
            )),
        )),
    ))


def _OffsetForLeaderEpochRequest():
    return Message(api_key=23, kind="request", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(4, OPEN), fields=(
            Field(name="ReplicaId", type="int32", versions=(3, OPEN), default=-2, ignorable=True),
            Field(name="Topics", type="[]OffsetForLeaderTopic", versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]OffsetForLeaderPartition", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="CurrentLeaderEpoch", type="int32", versions=(2, OPEN), default=-1, ignorable=True),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _OffsetForLeaderEpochResponse():
    return Message(api_key=23, kind="response", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(4, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(2, OPEN), ignorable=True),
            Field(name="Topics", type="[]OffsetForLeaderTopicResult", versions=(0, OPEN), fields=(
                Field(name="Topic", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]EpochEndOffset", versions=(0, OPEN), fields=(
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
                    Field(name="EndOffset", type="int64", versions=(0, OPEN), default=-1),
                )),
            )),
        )),
    ))


def _ProduceRequest():
    return Message(api_key=0, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(9, OPEN), fields=(
            Field(name="TransactionalId", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN), default=None),
            Field(name="Acks", type="int16", versions=(0, OPEN)),
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN)),
            Field(name="TopicData", type="[]TopicProduceData", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="PartitionData", type="[]PartitionProduceData", versions=(0, OPEN), fields=(
                    Field(name="Index", type="int32", versions=(0, OPEN)),
                    Field(name="Records", type="records", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
        )),
        Variant(min_version=3, max_version=13, flexible_versions=(9, OPEN), fields=(
            Field(name="TransactionalId", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN), default=None),
            Field(name="Acks", type="int16", versions=(0, OPEN)),
            Field(name="TimeoutMs", type="int32", versions=(0, OPEN)),
            Field(name="TopicData", type="[]TopicProduceData", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, 12), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(13, OPEN), ignorable=True),
                Field(name="PartitionData", type="[]PartitionProduceData", versions=(0, OPEN), fields=(
                    Field(name="Index", type="int32", versions=(0, OPEN)),
                    Field(name="Records", type="records", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _ProduceResponse():
    return Message(api_key=0, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(9, OPEN), fields=(
            Field(name="Responses", type="[]TopicProduceResponse", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="PartitionResponses", type="[]PartitionProduceResponse", versions=(0, OPEN), fields=(
                    Field(name="Index", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="BaseOffset", type="int64", versions=(0, OPEN)),
                    Field(name="LogAppendTimeMs", type="int64", versions=(2, OPEN), default=-1, ignorable=True),
                    Field(name="LogStartOffset", type="int64", versions=(5, OPEN), default=-1, ignorable=True),
                    Field(name="RecordErrors", type="[]BatchIndexAndErrorMessage", versions=(8, OPEN), ignorable=True, fields=(
                        Field(name="BatchIndex", type="int32", versions=(8, OPEN)),
                        Field(name="BatchIndexErrorMessage", type="string", versions=(8, OPEN), nullable_versions=(8, OPEN), default=None),
                    )),
                    Field(name="ErrorMessage", type="string", versions=(8, OPEN), nullable_versions=(8, OPEN), default=None, ignorable=True),
                    Field(name="CurrentLeader", type="LeaderIdAndEpoch", versions=(10, OPEN), tag=0, tagged_versions=(10, OPEN), fields=(
                        Field(name="LeaderId", type="int32", versions=(10, OPEN), default=-1),
                        Field(name="LeaderEpoch", type="int32", versions=(10, OPEN), default=-1),
                    )),
                )),
            )),
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), default=0, ignorable=True),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(10, OPEN), tag=0, tagged_versions=(10, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(10, OPEN)),
                Field(name="Host", type="string", versions=(10, OPEN)),
                Field(name="Port", type="int32", versions=(10, OPEN)),
                Field(name="Rack", type="string", versions=(10, OPEN), nullable_versions=(10, OPEN), default=None),
            )),
        )),
        Variant(min_version=3, max_version=13, flexible_versions=(9, OPEN), fields=(
            Field(name="Responses", type="[]TopicProduceResponse", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, 12), ignorable=True),
                Field(name="TopicId", type="uuid", versions=(13, OPEN), ignorable=True),
                Field(name="PartitionResponses", type="[]PartitionProduceResponse", versions=(0, OPEN), fields=(
                    Field(name="Index", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="BaseOffset", type="int64", versions=(0, OPEN)),
                    Field(name="LogAppendTimeMs", type="int64", versions=(2, OPEN), default=-1, ignorable=True),
                    Field(name="LogStartOffset", type="int64", versions=(5, OPEN), default=-1, ignorable=True),
                    Field(name="RecordErrors", type="[]BatchIndexAndErrorMessage", versions=(8, OPEN), ignorable=True, fields=(
                        Field(name="BatchIndex", type="int32", versions=(8, OPEN)),
                        Field(name="BatchIndexErrorMessage", type="string", versions=(8, OPEN), nullable_versions=(8, OPEN), default=None),
                    )),
                    Field(name="ErrorMessage", type="string", versions=(8, OPEN), nullable_versions=(8, OPEN), default=None, ignorable=True),
                    Field(name="CurrentLeader", type="LeaderIdAndEpoch", versions=(10, OPEN), tag=0, tagged_versions=(10, OPEN), fields=(
                        Field(name="LeaderId", type="int32", versions=(10, OPEN), default=-1),
                        Field(name="LeaderEpoch", type="int32", versions=(10, OPEN), default=-1),
                    )),
                )),
            )),
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), default=0, ignorable=True),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(10, OPEN), tag=0, tagged_versions=(10, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(10, OPEN)),
                Field(name="Host", type="string", versions=(10, OPEN)),
                Field(name="Port", type="int32", versions=(10, OPEN)),
                Field(name="Rack", type="string", versions=(10, OPEN), nullable_versions=(10, OPEN), default=None),
            )),
        )),
    ))


def _PushTelemetryRequest():
    return Message(api_key=72, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ClientInstanceId", type="uuid", versions=(0, OPEN)),
            Field(name="SubscriptionId", type="int32", versions=(0, OPEN)),
            Field(name="Terminating", type="bool", versions=(0, OPEN)),
            Field(name="CompressionType", type="int8", versions=(0, OPEN)),
            Field(name="Metrics", type="bytes", versions=(0, OPEN)),
        )),
    ))


def _PushTelemetryResponse():
    return Message(api_key=72, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
        )),
    ))


def _ReadShareGroupStateRequest():
    return Message(api_key=84, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="Topics", type="[]ReadStateData", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _ReadShareGroupStateResponse():
    return Message(api_key=84, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Results", type="[]ReadStateResult", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionResult", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="StateEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="StartOffset", type="int64", versions=(0, OPEN)),
                    Field(name="StateBatches", type="[]StateBatch", versions=(0, OPEN), fields=(
                        Field(name="FirstOffset", type="int64", versions=(0, OPEN)),
                        Field(name="LastOffset", type="int64", versions=(0, OPEN)),
                        Field(name="DeliveryState", type="int8", versions=(0, OPEN)),
                        Field(name="DeliveryCount", type="int16", versions=(0, OPEN)),
                    )),
                )),
            )),
        )),
    ))


def _ReadShareGroupStateSummaryRequest():
    return Message(api_key=87, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="Topics", type="[]ReadStateSummaryData", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _ReadShareGroupStateSummaryResponse():
    return Message(api_key=87, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="Results", type="[]ReadStateSummaryResult", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionResult", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="StateEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="StartOffset", type="int64", versions=(0, OPEN)),
                    Field(name="DeliveryCompleteCount", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
                )),
            )),
        )),
    ))


def _RemoveRaftVoterRequest():
    return Message(api_key=81, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="VoterId", type="int32", versions=(0, OPEN)),
            Field(name="VoterDirectoryId", type="uuid", versions=(0, OPEN)),
        )),
    ))


def _RemoveRaftVoterResponse():
    return Message(api_key=81, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), ignorable=True),
        )),
    ))


def _RenewDelegationTokenRequest():
    return Message(api_key=39, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="Hmac", type="bytes", versions=(0, OPEN)),
            Field(name="RenewPeriodMs", type="int64", versions=(0, OPEN)),
        )),
    ))


def _RenewDelegationTokenResponse():
    return Message(api_key=39, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ExpiryTimestampMs", type="int64", versions=(0, OPEN)),
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
        )),
    ))


def _RequestHeader():
    return Message(api_key=None, kind="header", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(2, OPEN), fields=(
            Field(name="RequestApiKey", type="int16", versions=(0, OPEN)),
            Field(name="RequestApiVersion", type="int16", versions=(0, OPEN)),
            Field(name="CorrelationId", type="int32", versions=(0, OPEN)),
            Field(name="ClientId", type="string", versions=(1, OPEN), nullable_versions=(1, OPEN), ignorable=True, flexible_versions=None),
        )),
        Variant(min_version=1, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="RequestApiKey", type="int16", versions=(0, OPEN)),
            Field(name="RequestApiVersion", type="int16", versions=(0, OPEN)),
            Field(name="CorrelationId", type="int32", versions=(0, OPEN)),
            Field(name="ClientId", type="string", versions=(1, OPEN), nullable_versions=(1, OPEN), flexible_versions=None),
        )),
    ))


def _ResponseHeader():
    return Message(api_key=None, kind="header", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(1, OPEN), fields=(
            Field(name="CorrelationId", type="int32", versions=(0, OPEN)),
        )),
    ))


def _SaslAuthenticateRequest():
    return Message(api_key=36, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="AuthBytes", type="bytes", versions=(0, OPEN)),
        )),
    ))


def _SaslAuthenticateResponse():
    return Message(api_key=36, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(2, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="AuthBytes", type="bytes", versions=(0, OPEN)),
            Field(name="SessionLifetimeMs", type="int64", versions=(1, OPEN), default=0, ignorable=True),
        )),
    ))


def _SaslHandshakeRequest():
    return Message(api_key=17, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=None, fields=(
            Field(name="Mechanism", type="string", versions=(0, OPEN)),
        )),
    ))


def _SaslHandshakeResponse():
    return Message(api_key=17, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=None, fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Mechanisms", type="[]string", versions=(0, OPEN)),
        )),
    ))


def _ShareAcknowledgeRequest():
    return Message(api_key=79, kind="request", variants=(
        Variant(min_version=1, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="MemberId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="ShareSessionEpoch", type="int32", versions=(0, OPEN)),
            Field(name="IsRenewAck", type="bool", versions=(2, OPEN), default=False),
            Field(name="Topics", type="[]AcknowledgeTopic", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]AcknowledgePartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="AcknowledgementBatches", type="[]AcknowledgementBatch", versions=(0, OPEN), fields=(
                        Field(name="FirstOffset", type="int64", versions=(0, OPEN)),
                        Field(name="LastOffset", type="int64", versions=(0, OPEN)),
                        Field(name="AcknowledgeTypes", type="[]int8", versions=(0, OPEN)),
                    )),
                )),
            )),
        )),
    ))


def _ShareAcknowledgeResponse():
    return Message(api_key=79, kind="response", variants=(
        Variant(min_version=1, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="AcquisitionLockTimeoutMs", type="int32", versions=(2, OPEN), ignorable=True),
            Field(name="Responses", type="[]ShareAcknowledgeTopicResponse", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="CurrentLeader", type="LeaderIdAndEpoch", versions=(0, OPEN), fields=(
                        Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                        Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    )),
                )),
            )),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(0, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="int32", versions=(0, OPEN)),
                Field(name="Rack", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            )),
        )),
    ))


def _ShareFetchRequest():
    return Message(api_key=78, kind="request", variants=(
        Variant(min_version=1, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="MemberId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="ShareSessionEpoch", type="int32", versions=(0, OPEN)),
            Field(name="MaxWaitMs", type="int32", versions=(0, OPEN)),
            Field(name="MinBytes", type="int32", versions=(0, OPEN)),
            Field(name="MaxBytes", type="int32", versions=(0, OPEN), default=2147483647),
            Field(name="MaxRecords", type="int32", versions=(1, OPEN)),
            Field(name="BatchSize", type="int32", versions=(1, OPEN)),
            Field(name="ShareAcquireMode", type="int8", versions=(2, OPEN), default=0, ignorable=True),
            Field(name="IsRenewAck", type="bool", versions=(2, OPEN), default=False),
            Field(name="Topics", type="[]FetchTopic", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]FetchPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="PartitionMaxBytes", type="int32", versions=(0, 0)),
                    Field(name="AcknowledgementBatches", type="[]AcknowledgementBatch", versions=(0, OPEN), fields=(
                        Field(name="FirstOffset", type="int64", versions=(0, OPEN)),
                        Field(name="LastOffset", type="int64", versions=(0, OPEN)),
                        Field(name="AcknowledgeTypes", type="[]int8", versions=(0, OPEN)),
                    )),
                )),
            )),
            Field(name="ForgottenTopicsData", type="[]ForgottenTopic", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _ShareFetchResponse():
    return Message(api_key=78, kind="response", variants=(
        Variant(min_version=1, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="AcquisitionLockTimeoutMs", type="int32", versions=(1, OPEN)),
            Field(name="Responses", type="[]ShareFetchableTopicResponse", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="AcknowledgeErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="AcknowledgeErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="CurrentLeader", type="LeaderIdAndEpoch", versions=(0, OPEN), fields=(
                        Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                        Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    )),
                    Field(name="Records", type="records", versions=(0, OPEN), nullable_versions=(0, 0)),
                    Field(name="AcquiredRecords", type="[]AcquiredRecords", versions=(0, OPEN), fields=(
                        Field(name="FirstOffset", type="int64", versions=(0, OPEN)),
                        Field(name="LastOffset", type="int64", versions=(0, OPEN)),
                        Field(name="DeliveryCount", type="int16", versions=(0, OPEN)),
                    )),
                )),
            )),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(0, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="int32", versions=(0, OPEN)),
                Field(name="Rack", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            )),
        )),
    ))


def _ShareGroupDescribeRequest():
    return Message(api_key=77, kind="request", variants=(
        Variant(min_version=1, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupIds", type="[]string", versions=(0, OPEN)),
            Field(name="IncludeAuthorizedOperations", type="bool", versions=(0, OPEN)),
        )),
    ))


def _ShareGroupDescribeResponse():
    return Message(api_key=77, kind="response", variants=(
        Variant(min_version=1, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Groups", type="[]DescribedGroup", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                Field(name="GroupId", type="string", versions=(0, OPEN)),
                Field(name="GroupState", type="string", versions=(0, OPEN)),
                Field(name="GroupEpoch", type="int32", versions=(0, OPEN)),
                Field(name="AssignmentEpoch", type="int32", versions=(0, OPEN)),
                Field(name="AssignorName", type="string", versions=(0, OPEN)),
                Field(name="Members", type="[]Member", versions=(0, OPEN), fields=(
                    Field(name="MemberId", type="string", versions=(0, OPEN)),
                    Field(name="RackId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="ClientId", type="string", versions=(0, OPEN)),
                    Field(name="ClientHost", type="string", versions=(0, OPEN)),
                    Field(name="SubscribedTopicNames", type="[]string", versions=(0, OPEN)),
                    Field(name="Assignment", type="Assignment", versions=(0, OPEN), fields=(
                        Field(name="TopicPartitions", type="[]TopicPartitions", versions=(0, OPEN), fields=(
                            Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                            Field(name="TopicName", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                    )),
                )),
                Field(name="AuthorizedOperations", type="int32", versions=(0, OPEN), default=-2147483648),
            )),
        )),
    ))


def _ShareGroupHeartbeatRequest():
    return Message(api_key=76, kind="request", variants=(
        Variant(min_version=1, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="MemberId", type="string", versions=(0, OPEN)),
            Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
            Field(name="RackId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="SubscribedTopicNames", type="[]string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
        )),
    ))


def _ShareGroupHeartbeatResponse():
    return Message(api_key=76, kind="response", variants=(
        Variant(min_version=1, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="MemberId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
            Field(name="HeartbeatIntervalMs", type="int32", versions=(0, OPEN)),
            Field(name="Assignment", type="Assignment", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="TopicPartitions", type="[]TopicPartitions", versions=(0, OPEN), fields=(
                    Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _SnapshotFooterRecord():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Version", type="int16", versions=(0, OPEN)),
        )),
    ))


def _SnapshotHeaderRecord():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Version", type="int16", versions=(0, OPEN)),
            Field(name="LastContainedLogTimestamp", type="int64", versions=(0, OPEN)),
        )),
    ))


def _StopReplicaRequest():
    return Message(api_key=5, kind="request", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(2, OPEN), fields=(
            Field(name="ControllerId", type="int32", versions=(0, OPEN)),
            Field(name="isKRaftController", type="bool", versions=(4, OPEN), default=False),
            Field(name="ControllerEpoch", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(1, OPEN), default=-1, ignorable=True),
            Field(name="DeletePartitions", type="bool", versions=(0, 2)),
            Field(name="UngroupedPartitions", type="[]StopReplicaPartitionV0", versions=(0, 0), fields=(
                Field(name="TopicName", type="string", versions=(0, 0)),
                Field(name="PartitionIndex", type="int32", versions=(0, 0)),
            )),
            Field(name="Topics", type="[]StopReplicaTopicV1", versions=(1, 2), fields=(
                Field(name="Name", type="string", versions=(1, 2)),
                Field(name="PartitionIndexes", type="[]int32", versions=(1, 2)),
            )),
            Field(name="TopicStates", type="[]StopReplicaTopicState", versions=(3, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(3, OPEN)),
                Field(name="PartitionStates", type="[]StopReplicaPartitionState", versions=(3, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(3, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(3, OPEN), default=-1),
                    Field(name="DeletePartition", type="bool", versions=(3, OPEN)),
                )),
            )),
        )),
    ))


def _StopReplicaResponse():
    return Message(api_key=5, kind="response", variants=(
        Variant(min_version=0, max_version=4, flexible_versions=(2, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="PartitionErrors", type="[]StopReplicaPartitionError", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            )),
        )),
    ))


def _StreamsGroupDescribeRequest():
    return Message(api_key=89, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupIds", type="[]string", versions=(0, OPEN)),
            Field(name="IncludeAuthorizedOperations", type="bool", versions=(0, OPEN)),
        )),
    ))


def _StreamsGroupDescribeResponse():
    return Message(api_key=89, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Groups", type="[]DescribedGroup", versions=(0, OPEN), fields=(
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                Field(name="GroupId", type="string", versions=(0, OPEN)),
                Field(name="GroupState", type="string", versions=(0, OPEN)),
                Field(name="GroupEpoch", type="int32", versions=(0, OPEN)),
                Field(name="AssignmentEpoch", type="int32", versions=(0, OPEN)),
                Field(name="Topology", type="Topology", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                    Field(name="Epoch", type="int32", versions=(0, OPEN)),
                    Field(name="Subtopologies", type="[]Subtopology", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                        Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                        Field(name="SourceTopics", type="[]string", versions=(0, OPEN)),
                        Field(name="RepartitionSinkTopics", type="[]string", versions=(0, OPEN)),
                        Field(name="StateChangelogTopics", type="[]TopicInfo", versions=(0, OPEN), fields=(
                            Field(name="Name", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="int32", versions=(0, OPEN)),
                            Field(name="ReplicationFactor", type="int16", versions=(0, OPEN)),
                            Field(name="TopicConfigs", type="[]KeyValue", versions=(0, OPEN), fields=(
                                Field(name="Key", type="string", versions=(0, OPEN)),
                                Field(name="Value", type="string", versions=(0, OPEN)),
                            )),
                        )),
                        Field(name="RepartitionSourceTopics", type="[]TopicInfo", versions=(0, OPEN), fields=(
                            Field(name="Name", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="int32", versions=(0, OPEN)),
                            Field(name="ReplicationFactor", type="int16", versions=(0, OPEN)),
                            Field(name="TopicConfigs", type="[]KeyValue", versions=(0, OPEN), fields=(
                                Field(name="Key", type="string", versions=(0, OPEN)),
                                Field(name="Value", type="string", versions=(0, OPEN)),
                            )),
                        )),
                    )),
                )),
                Field(name="Members", type="[]Member", versions=(0, OPEN), fields=(
                    Field(name="MemberId", type="string", versions=(0, OPEN)),
                    Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="InstanceId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="RackId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                    Field(name="ClientId", type="string", versions=(0, OPEN)),
                    Field(name="ClientHost", type="string", versions=(0, OPEN)),
                    Field(name="TopologyEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="ProcessId", type="string", versions=(0, OPEN)),
                    Field(name="UserEndpoint", type="Endpoint", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                        Field(name="Host", type="string", versions=(0, OPEN)),
                        Field(name="Port", type="uint16", versions=(0, OPEN)),
                    )),
                    Field(name="ClientTags", type="[]KeyValue", versions=(0, OPEN), fields=(
                        Field(name="Key", type="string", versions=(0, OPEN)),
                        Field(name="Value", type="string", versions=(0, OPEN)),
                    )),
                    Field(name="TaskOffsets", type="[]TaskOffset", versions=(0, OPEN), fields=(
                        Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                        Field(name="Partition", type="int32", versions=(0, OPEN)),
                        Field(name="Offset", type="int64", versions=(0, OPEN)),
                    )),
                    Field(name="TaskEndOffsets", type="[]TaskOffset", versions=(0, OPEN), fields=(
                        Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                        Field(name="Partition", type="int32", versions=(0, OPEN)),
                        Field(name="Offset", type="int64", versions=(0, OPEN)),
                    )),
                    Field(name="Assignment", type="Assignment", versions=(0, OPEN), fields=(
                        Field(name="ActiveTasks", type="[]TaskIds", versions=(0, OPEN), fields=(
                            Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                        Field(name="StandbyTasks", type="[]TaskIds", versions=(0, OPEN), fields=(
                            Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                        Field(name="WarmupTasks", type="[]TaskIds", versions=(0, OPEN), fields=(
                            Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                    )),
                    Field(name="TargetAssignment", type="Assignment", versions=(0, OPEN), fields=(
                        Field(name="ActiveTasks", type="[]TaskIds", versions=(0, OPEN), fields=(
                            Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                        Field(name="StandbyTasks", type="[]TaskIds", versions=(0, OPEN), fields=(
                            Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                        Field(name="WarmupTasks", type="[]TaskIds", versions=(0, OPEN), fields=(
                            Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                            Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                        )),
                    )),
                    Field(name="IsClassic", type="bool", versions=(0, OPEN)),
                )),
                Field(name="AuthorizedOperations", type="int32", versions=(0, OPEN), default=-2147483648),
            )),
        )),
    ))


def _StreamsGroupHeartbeatRequest():
    return Message(api_key=88, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="MemberId", type="string", versions=(0, OPEN)),
            Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
            Field(name="EndpointInformationEpoch", type="int32", versions=(0, OPEN)),
            Field(name="InstanceId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="RackId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="RebalanceTimeoutMs", type="int32", versions=(0, OPEN), default=-1),
            Field(name="Topology", type="Topology", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="Epoch", type="int32", versions=(0, OPEN)),
                Field(name="Subtopologies", type="[]Subtopology", versions=(0, OPEN), fields=(
                    Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                    Field(name="SourceTopics", type="[]string", versions=(0, OPEN)),
                    Field(name="SourceTopicRegex", type="[]string", versions=(0, OPEN)),
                    Field(name="StateChangelogTopics", type="[]TopicInfo", versions=(0, OPEN), fields=(
                        Field(name="Name", type="string", versions=(0, OPEN)),
                        Field(name="Partitions", type="int32", versions=(0, OPEN)),
                        Field(name="ReplicationFactor", type="int16", versions=(0, OPEN)),
                        Field(name="TopicConfigs", type="[]KeyValue", versions=(0, OPEN), fields=(
                            Field(name="Key", type="string", versions=(0, OPEN)),
                            Field(name="Value", type="string", versions=(0, OPEN)),
                        )),
                    )),
                    Field(name="RepartitionSinkTopics", type="[]string", versions=(0, OPEN)),
                    Field(name="RepartitionSourceTopics", type="[]TopicInfo", versions=(0, OPEN), fields=(
                        Field(name="Name", type="string", versions=(0, OPEN)),
                        Field(name="Partitions", type="int32", versions=(0, OPEN)),
                        Field(name="ReplicationFactor", type="int16", versions=(0, OPEN)),
                        Field(name="TopicConfigs", type="[]KeyValue", versions=(0, OPEN), fields=(
                            Field(name="Key", type="string", versions=(0, OPEN)),
                            Field(name="Value", type="string", versions=(0, OPEN)),
                        )),
                    )),
                    Field(name="CopartitionGroups", type="[]CopartitionGroup", versions=(0, OPEN), fields=(
                        Field(name="SourceTopics", type="[]int16", versions=(0, OPEN)),
                        Field(name="SourceTopicRegex", type="[]int16", versions=(0, OPEN)),
                        Field(name="RepartitionSourceTopics", type="[]int16", versions=(0, OPEN)),
                    )),
                )),
            )),
            Field(name="ActiveTasks", type="[]TaskIds", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
            Field(name="StandbyTasks", type="[]TaskIds", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
            Field(name="WarmupTasks", type="[]TaskIds", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
            Field(name="ProcessId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="UserEndpoint", type="Endpoint", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="uint16", versions=(0, OPEN)),
            )),
            Field(name="ClientTags", type="[]KeyValue", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="Key", type="string", versions=(0, OPEN)),
                Field(name="Value", type="string", versions=(0, OPEN)),
            )),
            Field(name="TaskOffsets", type="[]TaskOffset", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                Field(name="Partition", type="int32", versions=(0, OPEN)),
                Field(name="Offset", type="int64", versions=(0, OPEN)),
            )),
            Field(name="TaskEndOffsets", type="[]TaskOffset", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                Field(name="Partition", type="int32", versions=(0, OPEN)),
                Field(name="Offset", type="int64", versions=(0, OPEN)),
            )),
            Field(name="ShutdownApplication", type="bool", versions=(0, OPEN), default=False),
        )),
    ))


def _StreamsGroupHeartbeatResponse():
    return Message(api_key=88, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="MemberId", type="string", versions=(0, OPEN)),
            Field(name="MemberEpoch", type="int32", versions=(0, OPEN)),
            Field(name="HeartbeatIntervalMs", type="int32", versions=(0, OPEN)),
            Field(name="AcceptableRecoveryLag", type="int32", versions=(0, OPEN)),
            Field(name="TaskOffsetIntervalMs", type="int32", versions=(0, OPEN)),
            Field(name="Status", type="[]Status", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="StatusCode", type="int8", versions=(0, OPEN)),
                Field(name="StatusDetail", type="string", versions=(0, OPEN)),
            )),
            Field(name="ActiveTasks", type="[]TaskIds", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
            Field(name="StandbyTasks", type="[]TaskIds", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
            Field(name="WarmupTasks", type="[]TaskIds", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="SubtopologyId", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
            )),
            Field(name="EndpointInformationEpoch", type="int32", versions=(0, OPEN)),
            Field(name="PartitionsByUserEndpoint", type="[]EndpointToPartitions", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None, fields=(
                Field(name="UserEndpoint", type="Endpoint", versions=(0, OPEN), fields=(
                    Field(name="Host", type="string", versions=(0, OPEN)),
                    Field(name="Port", type="uint16", versions=(0, OPEN)),
                )),
                Field(name="ActivePartitions", type="[]TopicPartition", versions=(0, OPEN), fields=(
                    Field(name="Topic", type="string", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                )),
                Field(name="StandbyPartitions", type="[]TopicPartition", versions=(0, OPEN), fields=(
                    Field(name="Topic", type="string", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]int32", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _SyncGroupRequest():
    return Message(api_key=14, kind="request", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(4, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="GenerationId", type="int32", versions=(0, OPEN)),
            Field(name="MemberId", type="string", versions=(0, OPEN)),
            Field(name="GroupInstanceId", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN), default=None),
            Field(name="ProtocolType", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN), default=None, ignorable=True),
            Field(name="ProtocolName", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN), default=None, ignorable=True),
            Field(name="Assignments", type="[]SyncGroupRequestAssignment", versions=(0, OPEN), fields=(
                Field(name="MemberId", type="string", versions=(0, OPEN)),
                Field(name="Assignment", type="bytes", versions=(0, OPEN)),
            )),
        )),
    ))


def _SyncGroupResponse():
    return Message(api_key=14, kind="response", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(4, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(1, OPEN), ignorable=True),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ProtocolType", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN), default=None, ignorable=True),
            Field(name="ProtocolName", type="string", versions=(5, OPEN), nullable_versions=(5, OPEN), default=None, ignorable=True),
            Field(name="Assignment", type="bytes", versions=(0, OPEN)),
        )),
    ))


def _TxnOffsetCommitRequest():
    return Message(api_key=28, kind="request", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(3, OPEN), fields=(
            Field(name="TransactionalId", type="string", versions=(0, OPEN)),
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="ProducerId", type="int64", versions=(0, OPEN)),
            Field(name="ProducerEpoch", type="int16", versions=(0, OPEN)),
            Field(name="GenerationId", type="int32", versions=(3, OPEN), default=-1),
            Field(name="MemberId", type="string", versions=(3, OPEN), default=""),
            Field(name="GroupInstanceId", type="string", versions=(3, OPEN), nullable_versions=(3, OPEN), default=None),
            Field(name="Topics", type="[]TxnOffsetCommitRequestTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]TxnOffsetCommitRequestPartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="CommittedOffset", type="int64", versions=(0, OPEN)),
                    Field(name="CommittedLeaderEpoch", type="int32", versions=(2, OPEN), default=-1, ignorable=True),
                    Field(name="CommittedMetadata", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _TxnOffsetCommitResponse():
    return Message(api_key=28, kind="response", variants=(
        Variant(min_version=0, max_version=5, flexible_versions=(3, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="Topics", type="[]TxnOffsetCommitResponseTopic", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]TxnOffsetCommitResponsePartition", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _UnregisterBrokerRequest():
    return Message(api_key=64, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="BrokerId", type="int32", versions=(0, OPEN)),
        )),
    ))


def _UnregisterBrokerResponse():
    return Message(api_key=64, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
        )),
    ))


def _UpdateFeaturesRequest():
    return Message(api_key=57, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="timeoutMs", type="int32", versions=(0, OPEN), default=60000),
            Field(name="FeatureUpdates", type="[]FeatureUpdateKey", versions=(0, OPEN), fields=(
                Field(name="Feature", type="string", versions=(0, OPEN)),
                Field(name="MaxVersionLevel", type="int16", versions=(0, OPEN)),
                Field(name="AllowDowngrade", type="bool", versions=(0, 0)),
                Field(name="UpgradeType", type="int8", versions=(1, OPEN), default=1),
            )),
            Field(name="ValidateOnly", type="bool", versions=(1, OPEN), default=False),
        )),
    ))


def _UpdateFeaturesResponse():
    return Message(api_key=57, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="Results", type="[]UpdatableFeatureResult", versions=(0, 1), ignorable=True, fields=(
                Field(name="Feature", type="string", versions=(0, OPEN)),
                Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            )),
        )),
    ))


def _UpdateMetadataRequest():
    return Message(api_key=6, kind="request", variants=(
        Variant(min_version=0, max_version=8, flexible_versions=(6, OPEN), fields=(
            Field(name="ControllerId", type="int32", versions=(0, OPEN)),
            Field(name="isKRaftController", type="bool", versions=(8, OPEN), default=False),
            Field(name="Type", type="int8", versions=(8, OPEN), tag=0, tagged_versions=(8, OPEN), default=0),
            Field(name="ControllerEpoch", type="int32", versions=(0, OPEN)),
            Field(name="BrokerEpoch", type="int64", versions=(5, OPEN), default=-1, ignorable=True),
            Field(name="UngroupedPartitionStates", type="[]UpdateMetadataPartitionState", versions=(0, 4), fields=(
                Field(name="TopicName", type="string", versions=(0, 4), ignorable=True),
                Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                Field(name="ControllerEpoch", type="int32", versions=(0, OPEN)),
                Field(name="Leader", type="int32", versions=(0, OPEN)),
                Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                Field(name="Isr", type="[]int32", versions=(0, OPEN)),
                Field(name="ZkVersion", type="int32", versions=(0, OPEN)),
                Field(name="Replicas", type="[]int32", versions=(0, OPEN)),
                Field(name="OfflineReplicas", type="[]int32", versions=(4, OPEN), ignorable=True),
            )),
            Field(name="TopicStates", type="[]UpdateMetadataTopicState", versions=(5, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(5, OPEN)),
                Field(name="TopicId", type="uuid", versions=(7, OPEN), ignorable=True),
                Field(name="PartitionStates", type="[]UpdateMetadataPartitionState", versions=(5, OPEN), fields=(
                    Field(name="TopicName", type="string", versions=(0, 4), ignorable=True),
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ControllerEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="Leader", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="Isr", type="[]int32", versions=(0, OPEN)),
                    Field(name="ZkVersion", type="int32", versions=(0, OPEN)),
                    Field(name="Replicas", type="[]int32", versions=(0, OPEN)),
                    Field(name="OfflineReplicas", type="[]int32", versions=(4, OPEN), ignorable=True),
                )),
            )),
            Field(name="LiveBrokers", type="[]UpdateMetadataBroker", versions=(0, OPEN), fields=(
                Field(name="Id", type="int32", versions=(0, OPEN)),
                Field(name="V0Host", type="string", versions=(0, 0), ignorable=True),
                Field(name="V0Port", type="int32", versions=(0, 0), ignorable=True),
                Field(name="Endpoints", type="[]UpdateMetadataEndpoint", versions=(1, OPEN), ignorable=True, fields=(
                    Field(name="Port", type="int32", versions=(1, OPEN)),
                    Field(name="Host", type="string", versions=(1, OPEN)),
                    Field(name="Listener", type="string", versions=(3, OPEN), ignorable=True),
                    Field(name="SecurityProtocol", type="int16", versions=(1, OPEN)),
                )),
                Field(name="Rack", type="string", versions=(2, OPEN), nullable_versions=(0, OPEN), ignorable=True),
            )),
        )),
    ))


def _UpdateMetadataResponse():
    return Message(api_key=6, kind="response", variants=(
        Variant(min_version=0, max_version=8, flexible_versions=(6, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
        )),
    ))


def _UpdateRaftVoterRequest():
    return Message(api_key=82, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN)),
            Field(name="CurrentLeaderEpoch", type="int32", versions=(0, OPEN)),
            Field(name="VoterId", type="int32", versions=(0, OPEN)),
            Field(name="VoterDirectoryId", type="uuid", versions=(0, OPEN)),
            Field(name="Listeners", type="[]Listener", versions=(0, OPEN), fields=(
                Field(name="Name", type="string", versions=(0, OPEN)),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="uint16", versions=(0, OPEN)),
            )),
            Field(name="KRaftVersionFeature", type="KRaftVersionFeature", versions=(0, OPEN), fields=(
                Field(name="MinSupportedVersion", type="int16", versions=(0, OPEN)),
                Field(name="MaxSupportedVersion", type="int16", versions=(0, OPEN)),
            )),
        )),
    ))


def _UpdateRaftVoterResponse():
    return Message(api_key=82, kind="response", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="ThrottleTimeMs", type="int32", versions=(0, OPEN)),
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="CurrentLeader", type="CurrentLeader", versions=(0, OPEN), tag=0, tagged_versions=(0, OPEN), fields=(
                Field(name="LeaderId", type="int32", versions=(0, OPEN), default=-1),
                Field(name="LeaderEpoch", type="int32", versions=(0, OPEN), default=-1),
                Field(name="Host", type="string", versions=(0, OPEN)),
                Field(name="Port", type="int32", versions=(0, OPEN)),
            )),
        )),
    ))


def _VoteRequest():
    return Message(api_key=52, kind="request", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="ClusterId", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
            Field(name="VoterId", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ReplicaEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="ReplicaId", type="int32", versions=(0, OPEN)),
                    Field(name="ReplicaDirectoryId", type="uuid", versions=(1, OPEN), ignorable=True),
                    Field(name="VoterDirectoryId", type="uuid", versions=(1, OPEN), ignorable=True),
                    Field(name="LastOffsetEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="LastOffset", type="int64", versions=(0, OPEN)),
                    Field(name="PreVote", type="bool", versions=(2, OPEN)),
                )),
            )),
        )),
    ))


def _VoteResponse():
    return Message(api_key=52, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(0, OPEN), fields=(
            Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
            Field(name="Topics", type="[]TopicData", versions=(0, OPEN), fields=(
                Field(name="TopicName", type="string", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="LeaderId", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="VoteGranted", type="bool", versions=(0, OPEN)),
                )),
            )),
            Field(name="NodeEndpoints", type="[]NodeEndpoint", versions=(1, OPEN), tag=0, tagged_versions=(1, OPEN), fields=(
                Field(name="NodeId", type="int32", versions=(1, OPEN)),
                Field(name="Host", type="string", versions=(1, OPEN)),
                Field(name="Port", type="uint16", versions=(1, OPEN)),
            )),
        )),
    ))


def _VotersRecord():
    return Message(api_key=None, kind="data", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(0, OPEN), fields=(
            Field(name="Version", type="int16", versions=(0, OPEN)),
            Field(name="Voters", type="[]Voter", versions=(0, OPEN), fields=(
                Field(name="VoterId", type="int32", versions=(0, OPEN)),
                Field(name="VoterDirectoryId", type="uuid", versions=(0, OPEN)),
                Field(name="Endpoints", type="[]Endpoint", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Host", type="string", versions=(0, OPEN)),
                    Field(name="Port", type="uint16", versions=(0, OPEN)),
                )),
                Field(name="KRaftVersionFeature", type="KRaftVersionFeature", versions=(0, OPEN), fields=(
                    Field(name="MinSupportedVersion", type="int16", versions=(0, OPEN)),
                    Field(name="MaxSupportedVersion", type="int16", versions=(0, OPEN)),
                )),
            )),
        )),
    ))


def _WriteShareGroupStateRequest():
    return Message(api_key=85, kind="request", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="GroupId", type="string", versions=(0, OPEN)),
            Field(name="Topics", type="[]WriteStateData", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionData", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="StateEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="LeaderEpoch", type="int32", versions=(0, OPEN)),
                    Field(name="StartOffset", type="int64", versions=(0, OPEN)),
                    Field(name="DeliveryCompleteCount", type="int32", versions=(1, OPEN), default=-1, ignorable=True),
                    Field(name="StateBatches", type="[]StateBatch", versions=(0, OPEN), fields=(
                        Field(name="FirstOffset", type="int64", versions=(0, OPEN)),
                        Field(name="LastOffset", type="int64", versions=(0, OPEN)),
                        Field(name="DeliveryState", type="int8", versions=(0, OPEN)),
                        Field(name="DeliveryCount", type="int16", versions=(0, OPEN)),
                    )),
                )),
            )),
        )),
    ))


def _WriteShareGroupStateResponse():
    return Message(api_key=85, kind="response", variants=(
        Variant(min_version=0, max_version=1, flexible_versions=(0, OPEN), fields=(
            Field(name="Results", type="[]WriteStateResult", versions=(0, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(0, OPEN)),
                Field(name="Partitions", type="[]PartitionResult", versions=(0, OPEN), fields=(
                    Field(name="Partition", type="int32", versions=(0, OPEN)),
                    Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    Field(name="ErrorMessage", type="string", versions=(0, OPEN), nullable_versions=(0, OPEN), default=None),
                )),
            )),
        )),
    ))


def _WriteTxnMarkersRequest():
    return Message(api_key=27, kind="request", variants=(
        Variant(min_version=0, max_version=0, flexible_versions=(1, OPEN), fields=(
            Field(name="Markers", type="[]WritableTxnMarker", versions=(0, OPEN), fields=(
                Field(name="ProducerId", type="int64", versions=(0, OPEN)),
                Field(name="ProducerEpoch", type="int16", versions=(0, OPEN)),
                Field(name="TransactionResult", type="bool", versions=(0, OPEN)),
                Field(name="Topics", type="[]WritableTxnMarkerTopic", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="PartitionIndexes", type="[]int32", versions=(0, OPEN)),
                )),
                Field(name="CoordinatorEpoch", type="int32", versions=(0, OPEN)),
            )),
        )),
        Variant(min_version=1, max_version=2, flexible_versions=(1, OPEN), fields=(
            Field(name="Markers", type="[]WritableTxnMarker", versions=(0, OPEN), fields=(
                Field(name="ProducerId", type="int64", versions=(0, OPEN)),
                Field(name="ProducerEpoch", type="int16", versions=(0, OPEN)),
                Field(name="TransactionResult", type="bool", versions=(0, OPEN)),
                Field(name="Topics", type="[]WritableTxnMarkerTopic", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="PartitionIndexes", type="[]int32", versions=(0, OPEN)),
                )),
                Field(name="CoordinatorEpoch", type="int32", versions=(0, OPEN)),
                Field(name="TransactionVersion", type="int8", versions=(2, OPEN), default=0, ignorable=True),
            )),
        )),
    ))


def _WriteTxnMarkersResponse():
    return Message(api_key=27, kind="response", variants=(
        Variant(min_version=0, max_version=2, flexible_versions=(1, OPEN), fields=(
            Field(name="Markers", type="[]WritableTxnMarkerResult", versions=(0, OPEN), fields=(
                Field(name="ProducerId", type="int64", versions=(0, OPEN)),
                Field(name="Topics", type="[]WritableTxnMarkerTopicResult", versions=(0, OPEN), fields=(
                    Field(name="Name", type="string", versions=(0, OPEN)),
                    Field(name="Partitions", type="[]WritableTxnMarkerPartitionResult", versions=(0, OPEN), fields=(
                        Field(name="PartitionIndex", type="int32", versions=(0, OPEN)),
                        Field(name="ErrorCode", type="int16", versions=(0, OPEN)),
                    )),
                )),
            )),
        )),
    ))


class _Messages(Mapping):
    """MESSAGES[name]: the Message its function above makes, made at each lookup (whoever asks keeps it)."""

    def __getitem__(self, name):
        if name not in INDEX:
            raise KeyError(name)
        return globals()["_" + name]()

    def __iter__(self):
        return iter(INDEX)

    def __len__(self):
        return len(INDEX)


MESSAGES = _Messages()
