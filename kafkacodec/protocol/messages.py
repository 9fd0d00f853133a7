# GENERATED — do not edit.  Source: Kafka JSON message specs (trunk + 3.9);
# regenerate with `python tools/gen_protocol.py`.
"""Every generated message class, by spec name (``MetadataRequest``, ``FetchResponse``...).

Nested structs are attributes of their message class
(``MetadataRequest.MetadataRequestTopic``).  Header and ``data`` records
(``RequestHeader``, ``ConsumerProtocolSubscription``, ``LeaderChangeMessage``...)
are here too.  ``_model`` builds the classes from ``_schema`` at import;
``messages.pyi`` declares their fields and types for IDEs and type checkers.
"""
from kafkacodec.protocol._model import SPECS as _SPECS, Struct

__all__ = [
    "Struct",
    "AddOffsetsToTxnRequest",
    "AddOffsetsToTxnResponse",
    "AddPartitionsToTxnRequest",
    "AddPartitionsToTxnResponse",
    "AddRaftVoterRequest",
    "AddRaftVoterResponse",
    "AllocateProducerIdsRequest",
    "AllocateProducerIdsResponse",
    "AlterClientQuotasRequest",
    "AlterClientQuotasResponse",
    "AlterConfigsRequest",
    "AlterConfigsResponse",
    "AlterPartitionReassignmentsRequest",
    "AlterPartitionReassignmentsResponse",
    "AlterPartitionRequest",
    "AlterPartitionResponse",
    "AlterReplicaLogDirsRequest",
    "AlterReplicaLogDirsResponse",
    "AlterShareGroupOffsetsRequest",
    "AlterShareGroupOffsetsResponse",
    "AlterUserScramCredentialsRequest",
    "AlterUserScramCredentialsResponse",
    "ApiVersionsRequest",
    "ApiVersionsResponse",
    "AssignReplicasToDirsRequest",
    "AssignReplicasToDirsResponse",
    "BeginQuorumEpochRequest",
    "BeginQuorumEpochResponse",
    "BrokerHeartbeatRequest",
    "BrokerHeartbeatResponse",
    "BrokerRegistrationRequest",
    "BrokerRegistrationResponse",
    "ConsumerGroupDescribeRequest",
    "ConsumerGroupDescribeResponse",
    "ConsumerGroupHeartbeatRequest",
    "ConsumerGroupHeartbeatResponse",
    "ConsumerProtocolAssignment",
    "ConsumerProtocolSubscription",
    "ControlledShutdownRequest",
    "ControlledShutdownResponse",
    "ControllerRegistrationRequest",
    "ControllerRegistrationResponse",
    "CreateAclsRequest",
    "CreateAclsResponse",
    "CreateDelegationTokenRequest",
    "CreateDelegationTokenResponse",
    "CreatePartitionsRequest",
    "CreatePartitionsResponse",
    "CreateTopicsRequest",
    "CreateTopicsResponse",
    "DefaultPrincipalData",
    "DeleteAclsRequest",
    "DeleteAclsResponse",
    "DeleteGroupsRequest",
    "DeleteGroupsResponse",
    "DeleteRecordsRequest",
    "DeleteRecordsResponse",
    "DeleteShareGroupOffsetsRequest",
    "DeleteShareGroupOffsetsResponse",
    "DeleteShareGroupStateRequest",
    "DeleteShareGroupStateResponse",
    "DeleteTopicsRequest",
    "DeleteTopicsResponse",
    "DescribeAclsRequest",
    "DescribeAclsResponse",
    "DescribeClientQuotasRequest",
    "DescribeClientQuotasResponse",
    "DescribeClusterRequest",
    "DescribeClusterResponse",
    "DescribeConfigsRequest",
    "DescribeConfigsResponse",
    "DescribeDelegationTokenRequest",
    "DescribeDelegationTokenResponse",
    "DescribeGroupsRequest",
    "DescribeGroupsResponse",
    "DescribeLogDirsRequest",
    "DescribeLogDirsResponse",
    "DescribeProducersRequest",
    "DescribeProducersResponse",
    "DescribeQuorumRequest",
    "DescribeQuorumResponse",
    "DescribeShareGroupOffsetsRequest",
    "DescribeShareGroupOffsetsResponse",
    "DescribeTopicPartitionsRequest",
    "DescribeTopicPartitionsResponse",
    "DescribeTransactionsRequest",
    "DescribeTransactionsResponse",
    "DescribeUserScramCredentialsRequest",
    "DescribeUserScramCredentialsResponse",
    "ElectLeadersRequest",
    "ElectLeadersResponse",
    "EndQuorumEpochRequest",
    "EndQuorumEpochResponse",
    "EndTxnMarker",
    "EndTxnRequest",
    "EndTxnResponse",
    "EnvelopeRequest",
    "EnvelopeResponse",
    "ExpireDelegationTokenRequest",
    "ExpireDelegationTokenResponse",
    "FetchRequest",
    "FetchResponse",
    "FetchSnapshotRequest",
    "FetchSnapshotResponse",
    "FindCoordinatorRequest",
    "FindCoordinatorResponse",
    "GetTelemetrySubscriptionsRequest",
    "GetTelemetrySubscriptionsResponse",
    "HeartbeatRequest",
    "HeartbeatResponse",
    "IncrementalAlterConfigsRequest",
    "IncrementalAlterConfigsResponse",
    "InitProducerIdRequest",
    "InitProducerIdResponse",
    "InitializeShareGroupStateRequest",
    "InitializeShareGroupStateResponse",
    "JoinGroupRequest",
    "JoinGroupResponse",
    "KRaftVersionRecord",
    "LeaderAndIsrRequest",
    "LeaderAndIsrResponse",
    "LeaderChangeMessage",
    "LeaveGroupRequest",
    "LeaveGroupResponse",
    "ListConfigResourcesRequest",
    "ListConfigResourcesResponse",
    "ListGroupsRequest",
    "ListGroupsResponse",
    "ListOffsetsRequest",
    "ListOffsetsResponse",
    "ListPartitionReassignmentsRequest",
    "ListPartitionReassignmentsResponse",
    "ListTransactionsRequest",
    "ListTransactionsResponse",
    "MetadataRequest",
    "MetadataResponse",
    "OffsetCommitRequest",
    "OffsetCommitResponse",
    "OffsetDeleteRequest",
    "OffsetDeleteResponse",
    "OffsetFetchRequest",
    "OffsetFetchResponse",
    "OffsetForLeaderEpochRequest",
    "OffsetForLeaderEpochResponse",
    "ProduceRequest",
    "ProduceResponse",
    "PushTelemetryRequest",
    "PushTelemetryResponse",
    "ReadShareGroupStateRequest",
    "ReadShareGroupStateResponse",
    "ReadShareGroupStateSummaryRequest",
    "ReadShareGroupStateSummaryResponse",
    "RemoveRaftVoterRequest",
    "RemoveRaftVoterResponse",
    "RenewDelegationTokenRequest",
    "RenewDelegationTokenResponse",
    "RequestHeader",
    "ResponseHeader",
    "SaslAuthenticateRequest",
    "SaslAuthenticateResponse",
    "SaslHandshakeRequest",
    "SaslHandshakeResponse",
    "ShareAcknowledgeRequest",
    "ShareAcknowledgeResponse",
    "ShareFetchRequest",
    "ShareFetchResponse",
    "ShareGroupDescribeRequest",
    "ShareGroupDescribeResponse",
    "ShareGroupHeartbeatRequest",
    "ShareGroupHeartbeatResponse",
    "SnapshotFooterRecord",
    "SnapshotHeaderRecord",
    "StopReplicaRequest",
    "StopReplicaResponse",
    "StreamsGroupDescribeRequest",
    "StreamsGroupDescribeResponse",
    "StreamsGroupHeartbeatRequest",
    "StreamsGroupHeartbeatResponse",
    "SyncGroupRequest",
    "SyncGroupResponse",
    "TxnOffsetCommitRequest",
    "TxnOffsetCommitResponse",
    "UnregisterBrokerRequest",
    "UnregisterBrokerResponse",
    "UpdateFeaturesRequest",
    "UpdateFeaturesResponse",
    "UpdateMetadataRequest",
    "UpdateMetadataResponse",
    "UpdateRaftVoterRequest",
    "UpdateRaftVoterResponse",
    "VoteRequest",
    "VoteResponse",
    "VotersRecord",
    "WriteShareGroupStateRequest",
    "WriteShareGroupStateResponse",
    "WriteTxnMarkersRequest",
    "WriteTxnMarkersResponse",
]

AddOffsetsToTxnRequest = _SPECS["AddOffsetsToTxnRequest"].cls
AddOffsetsToTxnResponse = _SPECS["AddOffsetsToTxnResponse"].cls
AddPartitionsToTxnRequest = _SPECS["AddPartitionsToTxnRequest"].cls
AddPartitionsToTxnResponse = _SPECS["AddPartitionsToTxnResponse"].cls
AddRaftVoterRequest = _SPECS["AddRaftVoterRequest"].cls
AddRaftVoterResponse = _SPECS["AddRaftVoterResponse"].cls
AllocateProducerIdsRequest = _SPECS["AllocateProducerIdsRequest"].cls
AllocateProducerIdsResponse = _SPECS["AllocateProducerIdsResponse"].cls
AlterClientQuotasRequest = _SPECS["AlterClientQuotasRequest"].cls
AlterClientQuotasResponse = _SPECS["AlterClientQuotasResponse"].cls
AlterConfigsRequest = _SPECS["AlterConfigsRequest"].cls
AlterConfigsResponse = _SPECS["AlterConfigsResponse"].cls
AlterPartitionReassignmentsRequest = _SPECS["AlterPartitionReassignmentsRequest"].cls
AlterPartitionReassignmentsResponse = _SPECS["AlterPartitionReassignmentsResponse"].cls
AlterPartitionRequest = _SPECS["AlterPartitionRequest"].cls
AlterPartitionResponse = _SPECS["AlterPartitionResponse"].cls
AlterReplicaLogDirsRequest = _SPECS["AlterReplicaLogDirsRequest"].cls
AlterReplicaLogDirsResponse = _SPECS["AlterReplicaLogDirsResponse"].cls
AlterShareGroupOffsetsRequest = _SPECS["AlterShareGroupOffsetsRequest"].cls
AlterShareGroupOffsetsResponse = _SPECS["AlterShareGroupOffsetsResponse"].cls
AlterUserScramCredentialsRequest = _SPECS["AlterUserScramCredentialsRequest"].cls
AlterUserScramCredentialsResponse = _SPECS["AlterUserScramCredentialsResponse"].cls
ApiVersionsRequest = _SPECS["ApiVersionsRequest"].cls
ApiVersionsResponse = _SPECS["ApiVersionsResponse"].cls
AssignReplicasToDirsRequest = _SPECS["AssignReplicasToDirsRequest"].cls
AssignReplicasToDirsResponse = _SPECS["AssignReplicasToDirsResponse"].cls
BeginQuorumEpochRequest = _SPECS["BeginQuorumEpochRequest"].cls
BeginQuorumEpochResponse = _SPECS["BeginQuorumEpochResponse"].cls
BrokerHeartbeatRequest = _SPECS["BrokerHeartbeatRequest"].cls
BrokerHeartbeatResponse = _SPECS["BrokerHeartbeatResponse"].cls
BrokerRegistrationRequest = _SPECS["BrokerRegistrationRequest"].cls
BrokerRegistrationResponse = _SPECS["BrokerRegistrationResponse"].cls
ConsumerGroupDescribeRequest = _SPECS["ConsumerGroupDescribeRequest"].cls
ConsumerGroupDescribeResponse = _SPECS["ConsumerGroupDescribeResponse"].cls
ConsumerGroupHeartbeatRequest = _SPECS["ConsumerGroupHeartbeatRequest"].cls
ConsumerGroupHeartbeatResponse = _SPECS["ConsumerGroupHeartbeatResponse"].cls
ConsumerProtocolAssignment = _SPECS["ConsumerProtocolAssignment"].cls
ConsumerProtocolSubscription = _SPECS["ConsumerProtocolSubscription"].cls
ControlledShutdownRequest = _SPECS["ControlledShutdownRequest"].cls
ControlledShutdownResponse = _SPECS["ControlledShutdownResponse"].cls
ControllerRegistrationRequest = _SPECS["ControllerRegistrationRequest"].cls
ControllerRegistrationResponse = _SPECS["ControllerRegistrationResponse"].cls
CreateAclsRequest = _SPECS["CreateAclsRequest"].cls
CreateAclsResponse = _SPECS["CreateAclsResponse"].cls
CreateDelegationTokenRequest = _SPECS["CreateDelegationTokenRequest"].cls
CreateDelegationTokenResponse = _SPECS["CreateDelegationTokenResponse"].cls
CreatePartitionsRequest = _SPECS["CreatePartitionsRequest"].cls
CreatePartitionsResponse = _SPECS["CreatePartitionsResponse"].cls
CreateTopicsRequest = _SPECS["CreateTopicsRequest"].cls
CreateTopicsResponse = _SPECS["CreateTopicsResponse"].cls
DefaultPrincipalData = _SPECS["DefaultPrincipalData"].cls
DeleteAclsRequest = _SPECS["DeleteAclsRequest"].cls
DeleteAclsResponse = _SPECS["DeleteAclsResponse"].cls
DeleteGroupsRequest = _SPECS["DeleteGroupsRequest"].cls
DeleteGroupsResponse = _SPECS["DeleteGroupsResponse"].cls
DeleteRecordsRequest = _SPECS["DeleteRecordsRequest"].cls
DeleteRecordsResponse = _SPECS["DeleteRecordsResponse"].cls
DeleteShareGroupOffsetsRequest = _SPECS["DeleteShareGroupOffsetsRequest"].cls
DeleteShareGroupOffsetsResponse = _SPECS["DeleteShareGroupOffsetsResponse"].cls
DeleteShareGroupStateRequest = _SPECS["DeleteShareGroupStateRequest"].cls
DeleteShareGroupStateResponse = _SPECS["DeleteShareGroupStateResponse"].cls
DeleteTopicsRequest = _SPECS["DeleteTopicsRequest"].cls
DeleteTopicsResponse = _SPECS["DeleteTopicsResponse"].cls
DescribeAclsRequest = _SPECS["DescribeAclsRequest"].cls
DescribeAclsResponse = _SPECS["DescribeAclsResponse"].cls
DescribeClientQuotasRequest = _SPECS["DescribeClientQuotasRequest"].cls
DescribeClientQuotasResponse = _SPECS["DescribeClientQuotasResponse"].cls
DescribeClusterRequest = _SPECS["DescribeClusterRequest"].cls
DescribeClusterResponse = _SPECS["DescribeClusterResponse"].cls
DescribeConfigsRequest = _SPECS["DescribeConfigsRequest"].cls
DescribeConfigsResponse = _SPECS["DescribeConfigsResponse"].cls
DescribeDelegationTokenRequest = _SPECS["DescribeDelegationTokenRequest"].cls
DescribeDelegationTokenResponse = _SPECS["DescribeDelegationTokenResponse"].cls
DescribeGroupsRequest = _SPECS["DescribeGroupsRequest"].cls
DescribeGroupsResponse = _SPECS["DescribeGroupsResponse"].cls
DescribeLogDirsRequest = _SPECS["DescribeLogDirsRequest"].cls
DescribeLogDirsResponse = _SPECS["DescribeLogDirsResponse"].cls
DescribeProducersRequest = _SPECS["DescribeProducersRequest"].cls
DescribeProducersResponse = _SPECS["DescribeProducersResponse"].cls
DescribeQuorumRequest = _SPECS["DescribeQuorumRequest"].cls
DescribeQuorumResponse = _SPECS["DescribeQuorumResponse"].cls
DescribeShareGroupOffsetsRequest = _SPECS["DescribeShareGroupOffsetsRequest"].cls
DescribeShareGroupOffsetsResponse = _SPECS["DescribeShareGroupOffsetsResponse"].cls
DescribeTopicPartitionsRequest = _SPECS["DescribeTopicPartitionsRequest"].cls
DescribeTopicPartitionsResponse = _SPECS["DescribeTopicPartitionsResponse"].cls
DescribeTransactionsRequest = _SPECS["DescribeTransactionsRequest"].cls
DescribeTransactionsResponse = _SPECS["DescribeTransactionsResponse"].cls
DescribeUserScramCredentialsRequest = _SPECS["DescribeUserScramCredentialsRequest"].cls
DescribeUserScramCredentialsResponse = _SPECS["DescribeUserScramCredentialsResponse"].cls
ElectLeadersRequest = _SPECS["ElectLeadersRequest"].cls
ElectLeadersResponse = _SPECS["ElectLeadersResponse"].cls
EndQuorumEpochRequest = _SPECS["EndQuorumEpochRequest"].cls
EndQuorumEpochResponse = _SPECS["EndQuorumEpochResponse"].cls
EndTxnMarker = _SPECS["EndTxnMarker"].cls
EndTxnRequest = _SPECS["EndTxnRequest"].cls
EndTxnResponse = _SPECS["EndTxnResponse"].cls
EnvelopeRequest = _SPECS["EnvelopeRequest"].cls
EnvelopeResponse = _SPECS["EnvelopeResponse"].cls
ExpireDelegationTokenRequest = _SPECS["ExpireDelegationTokenRequest"].cls
ExpireDelegationTokenResponse = _SPECS["ExpireDelegationTokenResponse"].cls
FetchRequest = _SPECS["FetchRequest"].cls
FetchResponse = _SPECS["FetchResponse"].cls
FetchSnapshotRequest = _SPECS["FetchSnapshotRequest"].cls
FetchSnapshotResponse = _SPECS["FetchSnapshotResponse"].cls
FindCoordinatorRequest = _SPECS["FindCoordinatorRequest"].cls
FindCoordinatorResponse = _SPECS["FindCoordinatorResponse"].cls
GetTelemetrySubscriptionsRequest = _SPECS["GetTelemetrySubscriptionsRequest"].cls
GetTelemetrySubscriptionsResponse = _SPECS["GetTelemetrySubscriptionsResponse"].cls
HeartbeatRequest = _SPECS["HeartbeatRequest"].cls
HeartbeatResponse = _SPECS["HeartbeatResponse"].cls
IncrementalAlterConfigsRequest = _SPECS["IncrementalAlterConfigsRequest"].cls
IncrementalAlterConfigsResponse = _SPECS["IncrementalAlterConfigsResponse"].cls
InitProducerIdRequest = _SPECS["InitProducerIdRequest"].cls
InitProducerIdResponse = _SPECS["InitProducerIdResponse"].cls
InitializeShareGroupStateRequest = _SPECS["InitializeShareGroupStateRequest"].cls
InitializeShareGroupStateResponse = _SPECS["InitializeShareGroupStateResponse"].cls
JoinGroupRequest = _SPECS["JoinGroupRequest"].cls
JoinGroupResponse = _SPECS["JoinGroupResponse"].cls
KRaftVersionRecord = _SPECS["KRaftVersionRecord"].cls
LeaderAndIsrRequest = _SPECS["LeaderAndIsrRequest"].cls
LeaderAndIsrResponse = _SPECS["LeaderAndIsrResponse"].cls
LeaderChangeMessage = _SPECS["LeaderChangeMessage"].cls
LeaveGroupRequest = _SPECS["LeaveGroupRequest"].cls
LeaveGroupResponse = _SPECS["LeaveGroupResponse"].cls
ListConfigResourcesRequest = _SPECS["ListConfigResourcesRequest"].cls
ListConfigResourcesResponse = _SPECS["ListConfigResourcesResponse"].cls
ListGroupsRequest = _SPECS["ListGroupsRequest"].cls
ListGroupsResponse = _SPECS["ListGroupsResponse"].cls
ListOffsetsRequest = _SPECS["ListOffsetsRequest"].cls
ListOffsetsResponse = _SPECS["ListOffsetsResponse"].cls
ListPartitionReassignmentsRequest = _SPECS["ListPartitionReassignmentsRequest"].cls
ListPartitionReassignmentsResponse = _SPECS["ListPartitionReassignmentsResponse"].cls
ListTransactionsRequest = _SPECS["ListTransactionsRequest"].cls
ListTransactionsResponse = _SPECS["ListTransactionsResponse"].cls
MetadataRequest = _SPECS["MetadataRequest"].cls
MetadataResponse = _SPECS["MetadataResponse"].cls
OffsetCommitRequest = _SPECS["OffsetCommitRequest"].cls
OffsetCommitResponse = _SPECS["OffsetCommitResponse"].cls
OffsetDeleteRequest = _SPECS["OffsetDeleteRequest"].cls
OffsetDeleteResponse = _SPECS["OffsetDeleteResponse"].cls
OffsetFetchRequest = _SPECS["OffsetFetchRequest"].cls
OffsetFetchResponse = _SPECS["OffsetFetchResponse"].cls
OffsetForLeaderEpochRequest = _SPECS["OffsetForLeaderEpochRequest"].cls
OffsetForLeaderEpochResponse = _SPECS["OffsetForLeaderEpochResponse"].cls
ProduceRequest = _SPECS["ProduceRequest"].cls
ProduceResponse = _SPECS["ProduceResponse"].cls
PushTelemetryRequest = _SPECS["PushTelemetryRequest"].cls
PushTelemetryResponse = _SPECS["PushTelemetryResponse"].cls
ReadShareGroupStateRequest = _SPECS["ReadShareGroupStateRequest"].cls
ReadShareGroupStateResponse = _SPECS["ReadShareGroupStateResponse"].cls
ReadShareGroupStateSummaryRequest = _SPECS["ReadShareGroupStateSummaryRequest"].cls
ReadShareGroupStateSummaryResponse = _SPECS["ReadShareGroupStateSummaryResponse"].cls
RemoveRaftVoterRequest = _SPECS["RemoveRaftVoterRequest"].cls
RemoveRaftVoterResponse = _SPECS["RemoveRaftVoterResponse"].cls
RenewDelegationTokenRequest = _SPECS["RenewDelegationTokenRequest"].cls
RenewDelegationTokenResponse = _SPECS["RenewDelegationTokenResponse"].cls
RequestHeader = _SPECS["RequestHeader"].cls
ResponseHeader = _SPECS["ResponseHeader"].cls
SaslAuthenticateRequest = _SPECS["SaslAuthenticateRequest"].cls
SaslAuthenticateResponse = _SPECS["SaslAuthenticateResponse"].cls
SaslHandshakeRequest = _SPECS["SaslHandshakeRequest"].cls
SaslHandshakeResponse = _SPECS["SaslHandshakeResponse"].cls
ShareAcknowledgeRequest = _SPECS["ShareAcknowledgeRequest"].cls
ShareAcknowledgeResponse = _SPECS["ShareAcknowledgeResponse"].cls
ShareFetchRequest = _SPECS["ShareFetchRequest"].cls
ShareFetchResponse = _SPECS["ShareFetchResponse"].cls
ShareGroupDescribeRequest = _SPECS["ShareGroupDescribeRequest"].cls
ShareGroupDescribeResponse = _SPECS["ShareGroupDescribeResponse"].cls
ShareGroupHeartbeatRequest = _SPECS["ShareGroupHeartbeatRequest"].cls
ShareGroupHeartbeatResponse = _SPECS["ShareGroupHeartbeatResponse"].cls
SnapshotFooterRecord = _SPECS["SnapshotFooterRecord"].cls
SnapshotHeaderRecord = _SPECS["SnapshotHeaderRecord"].cls
StopReplicaRequest = _SPECS["StopReplicaRequest"].cls
StopReplicaResponse = _SPECS["StopReplicaResponse"].cls
StreamsGroupDescribeRequest = _SPECS["StreamsGroupDescribeRequest"].cls
StreamsGroupDescribeResponse = _SPECS["StreamsGroupDescribeResponse"].cls
StreamsGroupHeartbeatRequest = _SPECS["StreamsGroupHeartbeatRequest"].cls
StreamsGroupHeartbeatResponse = _SPECS["StreamsGroupHeartbeatResponse"].cls
SyncGroupRequest = _SPECS["SyncGroupRequest"].cls
SyncGroupResponse = _SPECS["SyncGroupResponse"].cls
TxnOffsetCommitRequest = _SPECS["TxnOffsetCommitRequest"].cls
TxnOffsetCommitResponse = _SPECS["TxnOffsetCommitResponse"].cls
UnregisterBrokerRequest = _SPECS["UnregisterBrokerRequest"].cls
UnregisterBrokerResponse = _SPECS["UnregisterBrokerResponse"].cls
UpdateFeaturesRequest = _SPECS["UpdateFeaturesRequest"].cls
UpdateFeaturesResponse = _SPECS["UpdateFeaturesResponse"].cls
UpdateMetadataRequest = _SPECS["UpdateMetadataRequest"].cls
UpdateMetadataResponse = _SPECS["UpdateMetadataResponse"].cls
UpdateRaftVoterRequest = _SPECS["UpdateRaftVoterRequest"].cls
UpdateRaftVoterResponse = _SPECS["UpdateRaftVoterResponse"].cls
VoteRequest = _SPECS["VoteRequest"].cls
VoteResponse = _SPECS["VoteResponse"].cls
VotersRecord = _SPECS["VotersRecord"].cls
WriteShareGroupStateRequest = _SPECS["WriteShareGroupStateRequest"].cls
WriteShareGroupStateResponse = _SPECS["WriteShareGroupStateResponse"].cls
WriteTxnMarkersRequest = _SPECS["WriteTxnMarkersRequest"].cls
WriteTxnMarkersResponse = _SPECS["WriteTxnMarkersResponse"].cls
