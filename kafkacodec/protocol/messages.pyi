# GENERATED — do not edit.  Source: Kafka JSON message specs (trunk + 3.9);
# regenerate with `python tools/gen_protocol.py`.
# Fields and types of the classes kafkacodec.protocol._model builds on first use.
import uuid
from typing import ClassVar

from _typeshed import ReadableBuffer

from kafkacodec.protocol._model import MessageSpec, Struct

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

class AddOffsetsToTxnRequest(Struct):
    """API key 25 request, versions 0-4."""

    spec: ClassVar[MessageSpec]
    transactional_id: str
    producer_id: int
    producer_epoch: int
    group_id: str
    def __init__(
        self,
        *,
        transactional_id: str = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        group_id: str = ...,
    ) -> None: ...

class AddOffsetsToTxnResponse(Struct):
    """API key 25 response, versions 0-4."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
    ) -> None: ...

class AddPartitionsToTxnRequest(Struct):
    """API key 24 request, versions 0-5."""

    spec: ClassVar[MessageSpec]
    transactions: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction]
    v3_and_below_transactional_id: str
    v3_and_below_producer_id: int
    v3_and_below_producer_epoch: int
    v3_and_below_topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic]
    def __init__(
        self,
        *,
        transactions: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction] = ...,
        v3_and_below_transactional_id: str = ...,
        v3_and_below_producer_id: int = ...,
        v3_and_below_producer_epoch: int = ...,
        v3_and_below_topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic] = ...,
    ) -> None: ...

    class AddPartitionsToTxnTransaction(Struct):
        transactional_id: str
        producer_id: int
        producer_epoch: int
        verify_only: bool
        topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic]
        def __init__(
            self,
            *,
            transactional_id: str = ...,
            producer_id: int = ...,
            producer_epoch: int = ...,
            verify_only: bool = ...,
            topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic] = ...,
        ) -> None: ...

    class AddPartitionsToTxnTopic(Struct):
        name: str
        partitions: list[int]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class AddPartitionsToTxnResponse(Struct):
    """API key 24 response, versions 0-5."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    results_by_transaction: list[AddPartitionsToTxnResponse.AddPartitionsToTxnResult]
    results_by_topic_v3_and_below: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        results_by_transaction: list[AddPartitionsToTxnResponse.AddPartitionsToTxnResult] = ...,
        results_by_topic_v3_and_below: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult] = ...,
    ) -> None: ...

    class AddPartitionsToTxnResult(Struct):
        transactional_id: str
        topic_results: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult]
        def __init__(
            self,
            *,
            transactional_id: str = ...,
            topic_results: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult] = ...,
        ) -> None: ...

    class AddPartitionsToTxnTopicResult(Struct):
        name: str
        results_by_partition: list[AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult]
        def __init__(
            self,
            *,
            name: str = ...,
            results_by_partition: list[AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult] = ...,
        ) -> None: ...

    class AddPartitionsToTxnPartitionResult(Struct):
        partition_index: int
        partition_error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            partition_error_code: int = ...,
        ) -> None: ...

class AddRaftVoterRequest(Struct):
    """API key 80 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    cluster_id: str | None
    timeout_ms: int
    voter_id: int
    voter_directory_id: uuid.UUID
    listeners: list[AddRaftVoterRequest.Listener]
    ack_when_committed: bool
    def __init__(
        self,
        *,
        cluster_id: str | None = ...,
        timeout_ms: int = ...,
        voter_id: int = ...,
        voter_directory_id: uuid.UUID = ...,
        listeners: list[AddRaftVoterRequest.Listener] = ...,
        ack_when_committed: bool = ...,
    ) -> None: ...

    class Listener(Struct):
        name: str
        host: str
        port: int
        def __init__(
            self,
            *,
            name: str = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class AddRaftVoterResponse(Struct):
    """API key 80 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
    ) -> None: ...

class AllocateProducerIdsRequest(Struct):
    """API key 67 request, version 0."""

    spec: ClassVar[MessageSpec]
    broker_id: int
    broker_epoch: int
    def __init__(
        self,
        *,
        broker_id: int = ...,
        broker_epoch: int = ...,
    ) -> None: ...

class AllocateProducerIdsResponse(Struct):
    """API key 67 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    producer_id_start: int
    producer_id_len: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        producer_id_start: int = ...,
        producer_id_len: int = ...,
    ) -> None: ...

class AlterClientQuotasRequest(Struct):
    """API key 49 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    entries: list[AlterClientQuotasRequest.EntryData]
    validate_only: bool
    def __init__(
        self,
        *,
        entries: list[AlterClientQuotasRequest.EntryData] = ...,
        validate_only: bool = ...,
    ) -> None: ...

    class EntryData(Struct):
        entity: list[AlterClientQuotasRequest.EntityData]
        ops: list[AlterClientQuotasRequest.OpData]
        def __init__(
            self,
            *,
            entity: list[AlterClientQuotasRequest.EntityData] = ...,
            ops: list[AlterClientQuotasRequest.OpData] = ...,
        ) -> None: ...

    class EntityData(Struct):
        entity_type: str
        entity_name: str | None
        def __init__(
            self,
            *,
            entity_type: str = ...,
            entity_name: str | None = ...,
        ) -> None: ...

    class OpData(Struct):
        key: str
        value: float
        remove: bool
        def __init__(
            self,
            *,
            key: str = ...,
            value: float = ...,
            remove: bool = ...,
        ) -> None: ...

class AlterClientQuotasResponse(Struct):
    """API key 49 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    entries: list[AlterClientQuotasResponse.EntryData]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        entries: list[AlterClientQuotasResponse.EntryData] = ...,
    ) -> None: ...

    class EntryData(Struct):
        error_code: int
        error_message: str | None
        entity: list[AlterClientQuotasResponse.EntityData]
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            entity: list[AlterClientQuotasResponse.EntityData] = ...,
        ) -> None: ...

    class EntityData(Struct):
        entity_type: str
        entity_name: str | None
        def __init__(
            self,
            *,
            entity_type: str = ...,
            entity_name: str | None = ...,
        ) -> None: ...

class AlterConfigsRequest(Struct):
    """API key 33 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    resources: list[AlterConfigsRequest.AlterConfigsResource]
    validate_only: bool
    def __init__(
        self,
        *,
        resources: list[AlterConfigsRequest.AlterConfigsResource] = ...,
        validate_only: bool = ...,
    ) -> None: ...

    class AlterConfigsResource(Struct):
        resource_type: int
        resource_name: str
        configs: list[AlterConfigsRequest.AlterableConfig]
        def __init__(
            self,
            *,
            resource_type: int = ...,
            resource_name: str = ...,
            configs: list[AlterConfigsRequest.AlterableConfig] = ...,
        ) -> None: ...

    class AlterableConfig(Struct):
        name: str
        value: str | None
        def __init__(
            self,
            *,
            name: str = ...,
            value: str | None = ...,
        ) -> None: ...

class AlterConfigsResponse(Struct):
    """API key 33 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    responses: list[AlterConfigsResponse.AlterConfigsResourceResponse]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        responses: list[AlterConfigsResponse.AlterConfigsResourceResponse] = ...,
    ) -> None: ...

    class AlterConfigsResourceResponse(Struct):
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            resource_type: int = ...,
            resource_name: str = ...,
        ) -> None: ...

class AlterPartitionReassignmentsRequest(Struct):
    """API key 45 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    timeout_ms: int
    allow_replication_factor_change: bool
    topics: list[AlterPartitionReassignmentsRequest.ReassignableTopic]
    def __init__(
        self,
        *,
        timeout_ms: int = ...,
        allow_replication_factor_change: bool = ...,
        topics: list[AlterPartitionReassignmentsRequest.ReassignableTopic] = ...,
    ) -> None: ...

    class ReassignableTopic(Struct):
        name: str
        partitions: list[AlterPartitionReassignmentsRequest.ReassignablePartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[AlterPartitionReassignmentsRequest.ReassignablePartition] = ...,
        ) -> None: ...

    class ReassignablePartition(Struct):
        partition_index: int
        replicas: list[int] | None
        def __init__(
            self,
            *,
            partition_index: int = ...,
            replicas: list[int] | None = ...,
        ) -> None: ...

class AlterPartitionReassignmentsResponse(Struct):
    """API key 45 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    allow_replication_factor_change: bool
    error_code: int
    error_message: str | None
    responses: list[AlterPartitionReassignmentsResponse.ReassignableTopicResponse]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        allow_replication_factor_change: bool = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        responses: list[AlterPartitionReassignmentsResponse.ReassignableTopicResponse] = ...,
    ) -> None: ...

    class ReassignableTopicResponse(Struct):
        name: str
        partitions: list[AlterPartitionReassignmentsResponse.ReassignablePartitionResponse]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[AlterPartitionReassignmentsResponse.ReassignablePartitionResponse] = ...,
        ) -> None: ...

    class ReassignablePartitionResponse(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class AlterPartitionRequest(Struct):
    """API key 56 request, versions 0-3."""

    spec: ClassVar[MessageSpec]
    broker_id: int
    broker_epoch: int
    topics: list[AlterPartitionRequest.TopicData]
    def __init__(
        self,
        *,
        broker_id: int = ...,
        broker_epoch: int = ...,
        topics: list[AlterPartitionRequest.TopicData] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partitions: list[AlterPartitionRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: list[AlterPartitionRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        leader_epoch: int
        new_isr: list[int]
        new_isr_with_epochs: list[AlterPartitionRequest.BrokerState]
        leader_recovery_state: int
        partition_epoch: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            leader_epoch: int = ...,
            new_isr: list[int] = ...,
            new_isr_with_epochs: list[AlterPartitionRequest.BrokerState] = ...,
            leader_recovery_state: int = ...,
            partition_epoch: int = ...,
        ) -> None: ...

    class BrokerState(Struct):
        broker_id: int
        broker_epoch: int
        def __init__(
            self,
            *,
            broker_id: int = ...,
            broker_epoch: int = ...,
        ) -> None: ...

class AlterPartitionResponse(Struct):
    """API key 56 response, versions 0-3."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    topics: list[AlterPartitionResponse.TopicData]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        topics: list[AlterPartitionResponse.TopicData] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partitions: list[AlterPartitionResponse.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: list[AlterPartitionResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        isr: list[int]
        leader_recovery_state: int
        partition_epoch: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            isr: list[int] = ...,
            leader_recovery_state: int = ...,
            partition_epoch: int = ...,
        ) -> None: ...

class AlterReplicaLogDirsRequest(Struct):
    """API key 34 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    dirs: list[AlterReplicaLogDirsRequest.AlterReplicaLogDir]
    def __init__(
        self,
        *,
        dirs: list[AlterReplicaLogDirsRequest.AlterReplicaLogDir] = ...,
    ) -> None: ...

    class AlterReplicaLogDir(Struct):
        path: str
        topics: list[AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic]
        def __init__(
            self,
            *,
            path: str = ...,
            topics: list[AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic] = ...,
        ) -> None: ...

    class AlterReplicaLogDirTopic(Struct):
        name: str
        partitions: list[int]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class AlterReplicaLogDirsResponse(Struct):
    """API key 34 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    results: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        results: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult] = ...,
    ) -> None: ...

    class AlterReplicaLogDirTopicResult(Struct):
        topic_name: str
        partitions: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult] = ...,
        ) -> None: ...

    class AlterReplicaLogDirPartitionResult(Struct):
        partition_index: int
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
        ) -> None: ...

class AlterShareGroupOffsetsRequest(Struct):
    """API key 91 request, version 0."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[AlterShareGroupOffsetsRequest.AlterShareGroupOffsetsRequestTopic]
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[AlterShareGroupOffsetsRequest.AlterShareGroupOffsetsRequestTopic] = ...,
    ) -> None: ...

    class AlterShareGroupOffsetsRequestTopic(Struct):
        topic_name: str
        partitions: list[AlterShareGroupOffsetsRequest.AlterShareGroupOffsetsRequestPartition]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[AlterShareGroupOffsetsRequest.AlterShareGroupOffsetsRequestPartition] = ...,
        ) -> None: ...

    class AlterShareGroupOffsetsRequestPartition(Struct):
        partition_index: int
        start_offset: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            start_offset: int = ...,
        ) -> None: ...

class AlterShareGroupOffsetsResponse(Struct):
    """API key 91 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponseTopic]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        responses: list[AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponseTopic] = ...,
    ) -> None: ...

    class AlterShareGroupOffsetsResponseTopic(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partitions: list[AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponsePartition]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: list[AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponsePartition] = ...,
        ) -> None: ...

    class AlterShareGroupOffsetsResponsePartition(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class AlterUserScramCredentialsRequest(Struct):
    """API key 51 request, version 0."""

    spec: ClassVar[MessageSpec]
    deletions: list[AlterUserScramCredentialsRequest.ScramCredentialDeletion]
    upsertions: list[AlterUserScramCredentialsRequest.ScramCredentialUpsertion]
    def __init__(
        self,
        *,
        deletions: list[AlterUserScramCredentialsRequest.ScramCredentialDeletion] = ...,
        upsertions: list[AlterUserScramCredentialsRequest.ScramCredentialUpsertion] = ...,
    ) -> None: ...

    class ScramCredentialDeletion(Struct):
        name: str
        mechanism: int
        def __init__(
            self,
            *,
            name: str = ...,
            mechanism: int = ...,
        ) -> None: ...

    class ScramCredentialUpsertion(Struct):
        name: str
        mechanism: int
        iterations: int
        salt: bytes
        salted_password: bytes
        def __init__(
            self,
            *,
            name: str = ...,
            mechanism: int = ...,
            iterations: int = ...,
            salt: ReadableBuffer = ...,
            salted_password: ReadableBuffer = ...,
        ) -> None: ...

class AlterUserScramCredentialsResponse(Struct):
    """API key 51 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    results: list[AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        results: list[AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult] = ...,
    ) -> None: ...

    class AlterUserScramCredentialsResult(Struct):
        user: str
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            user: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class ApiVersionsRequest(Struct):
    """API key 18 request, versions 0-4."""

    spec: ClassVar[MessageSpec]
    client_software_name: str
    client_software_version: str
    def __init__(
        self,
        *,
        client_software_name: str = ...,
        client_software_version: str = ...,
    ) -> None: ...

class ApiVersionsResponse(Struct):
    """API key 18 response, versions 0-4."""

    spec: ClassVar[MessageSpec]
    error_code: int
    api_keys: list[ApiVersionsResponse.ApiVersion]
    throttle_time_ms: int
    supported_features: list[ApiVersionsResponse.SupportedFeatureKey]
    finalized_features_epoch: int
    finalized_features: list[ApiVersionsResponse.FinalizedFeatureKey]
    zk_migration_ready: bool
    def __init__(
        self,
        *,
        error_code: int = ...,
        api_keys: list[ApiVersionsResponse.ApiVersion] = ...,
        throttle_time_ms: int = ...,
        supported_features: list[ApiVersionsResponse.SupportedFeatureKey] = ...,
        finalized_features_epoch: int = ...,
        finalized_features: list[ApiVersionsResponse.FinalizedFeatureKey] = ...,
        zk_migration_ready: bool = ...,
    ) -> None: ...

    class ApiVersion(Struct):
        api_key: int
        min_version: int
        max_version: int
        def __init__(
            self,
            *,
            api_key: int = ...,
            min_version: int = ...,
            max_version: int = ...,
        ) -> None: ...

    class SupportedFeatureKey(Struct):
        name: str
        min_version: int
        max_version: int
        def __init__(
            self,
            *,
            name: str = ...,
            min_version: int = ...,
            max_version: int = ...,
        ) -> None: ...

    class FinalizedFeatureKey(Struct):
        name: str
        max_version_level: int
        min_version_level: int
        def __init__(
            self,
            *,
            name: str = ...,
            max_version_level: int = ...,
            min_version_level: int = ...,
        ) -> None: ...

class AssignReplicasToDirsRequest(Struct):
    """API key 73 request, version 0."""

    spec: ClassVar[MessageSpec]
    broker_id: int
    broker_epoch: int
    directories: list[AssignReplicasToDirsRequest.DirectoryData]
    def __init__(
        self,
        *,
        broker_id: int = ...,
        broker_epoch: int = ...,
        directories: list[AssignReplicasToDirsRequest.DirectoryData] = ...,
    ) -> None: ...

    class DirectoryData(Struct):
        id: uuid.UUID
        topics: list[AssignReplicasToDirsRequest.TopicData]
        def __init__(
            self,
            *,
            id: uuid.UUID = ...,
            topics: list[AssignReplicasToDirsRequest.TopicData] = ...,
        ) -> None: ...

    class TopicData(Struct):
        topic_id: uuid.UUID
        partitions: list[AssignReplicasToDirsRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[AssignReplicasToDirsRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
        ) -> None: ...

class AssignReplicasToDirsResponse(Struct):
    """API key 73 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    directories: list[AssignReplicasToDirsResponse.DirectoryData]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        directories: list[AssignReplicasToDirsResponse.DirectoryData] = ...,
    ) -> None: ...

    class DirectoryData(Struct):
        id: uuid.UUID
        topics: list[AssignReplicasToDirsResponse.TopicData]
        def __init__(
            self,
            *,
            id: uuid.UUID = ...,
            topics: list[AssignReplicasToDirsResponse.TopicData] = ...,
        ) -> None: ...

    class TopicData(Struct):
        topic_id: uuid.UUID
        partitions: list[AssignReplicasToDirsResponse.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[AssignReplicasToDirsResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
        ) -> None: ...

class BeginQuorumEpochRequest(Struct):
    """API key 53 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    cluster_id: str | None
    voter_id: int
    topics: list[BeginQuorumEpochRequest.TopicData]
    leader_endpoints: list[BeginQuorumEpochRequest.LeaderEndpoint]
    def __init__(
        self,
        *,
        cluster_id: str | None = ...,
        voter_id: int = ...,
        topics: list[BeginQuorumEpochRequest.TopicData] = ...,
        leader_endpoints: list[BeginQuorumEpochRequest.LeaderEndpoint] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        partitions: list[BeginQuorumEpochRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[BeginQuorumEpochRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        voter_directory_id: uuid.UUID
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            voter_directory_id: uuid.UUID = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

    class LeaderEndpoint(Struct):
        name: str
        host: str
        port: int
        def __init__(
            self,
            *,
            name: str = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class BeginQuorumEpochResponse(Struct):
    """API key 53 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    error_code: int
    topics: list[BeginQuorumEpochResponse.TopicData]
    node_endpoints: list[BeginQuorumEpochResponse.NodeEndpoint]
    def __init__(
        self,
        *,
        error_code: int = ...,
        topics: list[BeginQuorumEpochResponse.TopicData] = ...,
        node_endpoints: list[BeginQuorumEpochResponse.NodeEndpoint] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        partitions: list[BeginQuorumEpochResponse.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[BeginQuorumEpochResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class BrokerHeartbeatRequest(Struct):
    """API key 63 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    broker_id: int
    broker_epoch: int
    current_metadata_offset: int
    want_fence: bool
    want_shut_down: bool
    offline_log_dirs: list[uuid.UUID]
    def __init__(
        self,
        *,
        broker_id: int = ...,
        broker_epoch: int = ...,
        current_metadata_offset: int = ...,
        want_fence: bool = ...,
        want_shut_down: bool = ...,
        offline_log_dirs: list[uuid.UUID] = ...,
    ) -> None: ...

class BrokerHeartbeatResponse(Struct):
    """API key 63 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    is_caught_up: bool
    is_fenced: bool
    should_shut_down: bool
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        is_caught_up: bool = ...,
        is_fenced: bool = ...,
        should_shut_down: bool = ...,
    ) -> None: ...

class BrokerRegistrationRequest(Struct):
    """API key 62 request, versions 0-4."""

    spec: ClassVar[MessageSpec]
    broker_id: int
    cluster_id: str
    incarnation_id: uuid.UUID
    listeners: list[BrokerRegistrationRequest.Listener]
    features: list[BrokerRegistrationRequest.Feature]
    rack: str | None
    is_migrating_zk_broker: bool
    log_dirs: list[uuid.UUID]
    previous_broker_epoch: int
    def __init__(
        self,
        *,
        broker_id: int = ...,
        cluster_id: str = ...,
        incarnation_id: uuid.UUID = ...,
        listeners: list[BrokerRegistrationRequest.Listener] = ...,
        features: list[BrokerRegistrationRequest.Feature] = ...,
        rack: str | None = ...,
        is_migrating_zk_broker: bool = ...,
        log_dirs: list[uuid.UUID] = ...,
        previous_broker_epoch: int = ...,
    ) -> None: ...

    class Listener(Struct):
        name: str
        host: str
        port: int
        security_protocol: int
        def __init__(
            self,
            *,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            security_protocol: int = ...,
        ) -> None: ...

    class Feature(Struct):
        name: str
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            *,
            name: str = ...,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
        ) -> None: ...

class BrokerRegistrationResponse(Struct):
    """API key 62 response, versions 0-4."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    broker_epoch: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        broker_epoch: int = ...,
    ) -> None: ...

class ConsumerGroupDescribeRequest(Struct):
    """API key 69 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    group_ids: list[str]
    include_authorized_operations: bool
    def __init__(
        self,
        *,
        group_ids: list[str] = ...,
        include_authorized_operations: bool = ...,
    ) -> None: ...

class ConsumerGroupDescribeResponse(Struct):
    """API key 69 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    groups: list[ConsumerGroupDescribeResponse.DescribedGroup]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        groups: list[ConsumerGroupDescribeResponse.DescribedGroup] = ...,
    ) -> None: ...

    class DescribedGroup(Struct):
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        group_epoch: int
        assignment_epoch: int
        assignor_name: str
        members: list[ConsumerGroupDescribeResponse.Member]
        authorized_operations: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            group_id: str = ...,
            group_state: str = ...,
            group_epoch: int = ...,
            assignment_epoch: int = ...,
            assignor_name: str = ...,
            members: list[ConsumerGroupDescribeResponse.Member] = ...,
            authorized_operations: int = ...,
        ) -> None: ...

    class Member(Struct):
        member_id: str
        instance_id: str | None
        rack_id: str | None
        member_epoch: int
        client_id: str
        client_host: str
        subscribed_topic_names: list[str]
        subscribed_topic_regex: str | None
        assignment: ConsumerGroupDescribeResponse.Assignment
        target_assignment: ConsumerGroupDescribeResponse.Assignment
        member_type: int
        def __init__(
            self,
            *,
            member_id: str = ...,
            instance_id: str | None = ...,
            rack_id: str | None = ...,
            member_epoch: int = ...,
            client_id: str = ...,
            client_host: str = ...,
            subscribed_topic_names: list[str] = ...,
            subscribed_topic_regex: str | None = ...,
            assignment: ConsumerGroupDescribeResponse.Assignment = ...,
            target_assignment: ConsumerGroupDescribeResponse.Assignment = ...,
            member_type: int = ...,
        ) -> None: ...

    class Assignment(Struct):
        topic_partitions: list[ConsumerGroupDescribeResponse.TopicPartitions]
        def __init__(
            self,
            *,
            topic_partitions: list[ConsumerGroupDescribeResponse.TopicPartitions] = ...,
        ) -> None: ...

    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        topic_name: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            topic_name: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class ConsumerGroupHeartbeatRequest(Struct):
    """API key 68 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None
    rack_id: str | None
    rebalance_timeout_ms: int
    subscribed_topic_names: list[str] | None
    subscribed_topic_regex: str | None
    server_assignor: str | None
    topic_partitions: list[ConsumerGroupHeartbeatRequest.TopicPartitions] | None
    def __init__(
        self,
        *,
        group_id: str = ...,
        member_id: str = ...,
        member_epoch: int = ...,
        instance_id: str | None = ...,
        rack_id: str | None = ...,
        rebalance_timeout_ms: int = ...,
        subscribed_topic_names: list[str] | None = ...,
        subscribed_topic_regex: str | None = ...,
        server_assignor: str | None = ...,
        topic_partitions: list[ConsumerGroupHeartbeatRequest.TopicPartitions] | None = ...,
    ) -> None: ...

    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class ConsumerGroupHeartbeatResponse(Struct):
    """API key 68 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: ConsumerGroupHeartbeatResponse.Assignment | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        member_id: str | None = ...,
        member_epoch: int = ...,
        heartbeat_interval_ms: int = ...,
        assignment: ConsumerGroupHeartbeatResponse.Assignment | None = ...,
    ) -> None: ...

    class Assignment(Struct):
        topic_partitions: list[ConsumerGroupHeartbeatResponse.TopicPartitions]
        def __init__(
            self,
            *,
            topic_partitions: list[ConsumerGroupHeartbeatResponse.TopicPartitions] = ...,
        ) -> None: ...

    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class ConsumerProtocolAssignment(Struct):
    """Data, versions 0-3."""

    spec: ClassVar[MessageSpec]
    assigned_partitions: list[ConsumerProtocolAssignment.TopicPartition]
    user_data: bytes | None
    def __init__(
        self,
        *,
        assigned_partitions: list[ConsumerProtocolAssignment.TopicPartition] = ...,
        user_data: ReadableBuffer | None = ...,
    ) -> None: ...

    class TopicPartition(Struct):
        topic: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class ConsumerProtocolSubscription(Struct):
    """Data, versions 0-3."""

    spec: ClassVar[MessageSpec]
    topics: list[str]
    user_data: bytes | None
    owned_partitions: list[ConsumerProtocolSubscription.TopicPartition]
    generation_id: int
    rack_id: str | None
    def __init__(
        self,
        *,
        topics: list[str] = ...,
        user_data: ReadableBuffer | None = ...,
        owned_partitions: list[ConsumerProtocolSubscription.TopicPartition] = ...,
        generation_id: int = ...,
        rack_id: str | None = ...,
    ) -> None: ...

    class TopicPartition(Struct):
        topic: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class ControlledShutdownRequest(Struct):
    """API key 7 request, versions 0-3."""

    spec: ClassVar[MessageSpec]
    broker_id: int
    broker_epoch: int
    def __init__(
        self,
        *,
        broker_id: int = ...,
        broker_epoch: int = ...,
    ) -> None: ...

class ControlledShutdownResponse(Struct):
    """API key 7 response, versions 0-3."""

    spec: ClassVar[MessageSpec]
    error_code: int
    remaining_partitions: list[ControlledShutdownResponse.RemainingPartition]
    def __init__(
        self,
        *,
        error_code: int = ...,
        remaining_partitions: list[ControlledShutdownResponse.RemainingPartition] = ...,
    ) -> None: ...

    class RemainingPartition(Struct):
        topic_name: str
        partition_index: int
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_index: int = ...,
        ) -> None: ...

class ControllerRegistrationRequest(Struct):
    """API key 70 request, version 0."""

    spec: ClassVar[MessageSpec]
    controller_id: int
    incarnation_id: uuid.UUID
    zk_migration_ready: bool
    listeners: list[ControllerRegistrationRequest.Listener]
    features: list[ControllerRegistrationRequest.Feature]
    def __init__(
        self,
        *,
        controller_id: int = ...,
        incarnation_id: uuid.UUID = ...,
        zk_migration_ready: bool = ...,
        listeners: list[ControllerRegistrationRequest.Listener] = ...,
        features: list[ControllerRegistrationRequest.Feature] = ...,
    ) -> None: ...

    class Listener(Struct):
        name: str
        host: str
        port: int
        security_protocol: int
        def __init__(
            self,
            *,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            security_protocol: int = ...,
        ) -> None: ...

    class Feature(Struct):
        name: str
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            *,
            name: str = ...,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
        ) -> None: ...

class ControllerRegistrationResponse(Struct):
    """API key 70 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
    ) -> None: ...

class CreateAclsRequest(Struct):
    """API key 30 request, versions 0-3."""

    spec: ClassVar[MessageSpec]
    creations: list[CreateAclsRequest.AclCreation]
    def __init__(
        self,
        *,
        creations: list[CreateAclsRequest.AclCreation] = ...,
    ) -> None: ...

    class AclCreation(Struct):
        resource_type: int
        resource_name: str
        resource_pattern_type: int
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(
            self,
            *,
            resource_type: int = ...,
            resource_name: str = ...,
            resource_pattern_type: int = ...,
            principal: str = ...,
            host: str = ...,
            operation: int = ...,
            permission_type: int = ...,
        ) -> None: ...

class CreateAclsResponse(Struct):
    """API key 30 response, versions 0-3."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    results: list[CreateAclsResponse.AclCreationResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        results: list[CreateAclsResponse.AclCreationResult] = ...,
    ) -> None: ...

    class AclCreationResult(Struct):
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class CreateDelegationTokenRequest(Struct):
    """API key 38 request, versions 0-3."""

    spec: ClassVar[MessageSpec]
    owner_principal_type: str | None
    owner_principal_name: str | None
    renewers: list[CreateDelegationTokenRequest.CreatableRenewers]
    max_lifetime_ms: int
    def __init__(
        self,
        *,
        owner_principal_type: str | None = ...,
        owner_principal_name: str | None = ...,
        renewers: list[CreateDelegationTokenRequest.CreatableRenewers] = ...,
        max_lifetime_ms: int = ...,
    ) -> None: ...

    class CreatableRenewers(Struct):
        principal_type: str
        principal_name: str
        def __init__(
            self,
            *,
            principal_type: str = ...,
            principal_name: str = ...,
        ) -> None: ...

class CreateDelegationTokenResponse(Struct):
    """API key 38 response, versions 0-3."""

    spec: ClassVar[MessageSpec]
    error_code: int
    principal_type: str
    principal_name: str
    token_requester_principal_type: str
    token_requester_principal_name: str
    issue_timestamp_ms: int
    expiry_timestamp_ms: int
    max_timestamp_ms: int
    token_id: str
    hmac: bytes
    throttle_time_ms: int
    def __init__(
        self,
        *,
        error_code: int = ...,
        principal_type: str = ...,
        principal_name: str = ...,
        token_requester_principal_type: str = ...,
        token_requester_principal_name: str = ...,
        issue_timestamp_ms: int = ...,
        expiry_timestamp_ms: int = ...,
        max_timestamp_ms: int = ...,
        token_id: str = ...,
        hmac: ReadableBuffer = ...,
        throttle_time_ms: int = ...,
    ) -> None: ...

class CreatePartitionsRequest(Struct):
    """API key 37 request, versions 0-3."""

    spec: ClassVar[MessageSpec]
    topics: list[CreatePartitionsRequest.CreatePartitionsTopic]
    timeout_ms: int
    validate_only: bool
    def __init__(
        self,
        *,
        topics: list[CreatePartitionsRequest.CreatePartitionsTopic] = ...,
        timeout_ms: int = ...,
        validate_only: bool = ...,
    ) -> None: ...

    class CreatePartitionsTopic(Struct):
        name: str
        count: int
        assignments: list[CreatePartitionsRequest.CreatePartitionsAssignment] | None
        def __init__(
            self,
            *,
            name: str = ...,
            count: int = ...,
            assignments: list[CreatePartitionsRequest.CreatePartitionsAssignment] | None = ...,
        ) -> None: ...

    class CreatePartitionsAssignment(Struct):
        broker_ids: list[int]
        def __init__(
            self,
            *,
            broker_ids: list[int] = ...,
        ) -> None: ...

class CreatePartitionsResponse(Struct):
    """API key 37 response, versions 0-3."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    results: list[CreatePartitionsResponse.CreatePartitionsTopicResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        results: list[CreatePartitionsResponse.CreatePartitionsTopicResult] = ...,
    ) -> None: ...

    class CreatePartitionsTopicResult(Struct):
        name: str
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            name: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class CreateTopicsRequest(Struct):
    """API key 19 request, versions 0-7."""

    spec: ClassVar[MessageSpec]
    topics: list[CreateTopicsRequest.CreatableTopic]
    timeout_ms: int
    validate_only: bool
    def __init__(
        self,
        *,
        topics: list[CreateTopicsRequest.CreatableTopic] = ...,
        timeout_ms: int = ...,
        validate_only: bool = ...,
    ) -> None: ...

    class CreatableTopic(Struct):
        name: str
        num_partitions: int
        replication_factor: int
        assignments: list[CreateTopicsRequest.CreatableReplicaAssignment]
        configs: list[CreateTopicsRequest.CreatableTopicConfig]
        def __init__(
            self,
            *,
            name: str = ...,
            num_partitions: int = ...,
            replication_factor: int = ...,
            assignments: list[CreateTopicsRequest.CreatableReplicaAssignment] = ...,
            configs: list[CreateTopicsRequest.CreatableTopicConfig] = ...,
        ) -> None: ...

    class CreatableReplicaAssignment(Struct):
        partition_index: int
        broker_ids: list[int]
        def __init__(
            self,
            *,
            partition_index: int = ...,
            broker_ids: list[int] = ...,
        ) -> None: ...

    class CreatableTopicConfig(Struct):
        name: str
        value: str | None
        def __init__(
            self,
            *,
            name: str = ...,
            value: str | None = ...,
        ) -> None: ...

class CreateTopicsResponse(Struct):
    """API key 19 response, versions 0-7."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[CreateTopicsResponse.CreatableTopicResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[CreateTopicsResponse.CreatableTopicResult] = ...,
    ) -> None: ...

    class CreatableTopicResult(Struct):
        name: str
        topic_id: uuid.UUID
        error_code: int
        error_message: str | None
        topic_config_error_code: int
        num_partitions: int
        replication_factor: int
        configs: list[CreateTopicsResponse.CreatableTopicConfigs] | None
        def __init__(
            self,
            *,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            topic_config_error_code: int = ...,
            num_partitions: int = ...,
            replication_factor: int = ...,
            configs: list[CreateTopicsResponse.CreatableTopicConfigs] | None = ...,
        ) -> None: ...

    class CreatableTopicConfigs(Struct):
        name: str
        value: str | None
        read_only: bool
        config_source: int
        is_sensitive: bool
        def __init__(
            self,
            *,
            name: str = ...,
            value: str | None = ...,
            read_only: bool = ...,
            config_source: int = ...,
            is_sensitive: bool = ...,
        ) -> None: ...

class DefaultPrincipalData(Struct):
    """Data, version 0."""

    spec: ClassVar[MessageSpec]
    type: str
    name: str
    token_authenticated: bool
    def __init__(
        self,
        *,
        type: str = ...,
        name: str = ...,
        token_authenticated: bool = ...,
    ) -> None: ...

class DeleteAclsRequest(Struct):
    """API key 31 request, versions 0-3."""

    spec: ClassVar[MessageSpec]
    filters: list[DeleteAclsRequest.DeleteAclsFilter]
    def __init__(
        self,
        *,
        filters: list[DeleteAclsRequest.DeleteAclsFilter] = ...,
    ) -> None: ...

    class DeleteAclsFilter(Struct):
        resource_type_filter: int
        resource_name_filter: str | None
        pattern_type_filter: int
        principal_filter: str | None
        host_filter: str | None
        operation: int
        permission_type: int
        def __init__(
            self,
            *,
            resource_type_filter: int = ...,
            resource_name_filter: str | None = ...,
            pattern_type_filter: int = ...,
            principal_filter: str | None = ...,
            host_filter: str | None = ...,
            operation: int = ...,
            permission_type: int = ...,
        ) -> None: ...

class DeleteAclsResponse(Struct):
    """API key 31 response, versions 0-3."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    filter_results: list[DeleteAclsResponse.DeleteAclsFilterResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        filter_results: list[DeleteAclsResponse.DeleteAclsFilterResult] = ...,
    ) -> None: ...

    class DeleteAclsFilterResult(Struct):
        error_code: int
        error_message: str | None
        matching_acls: list[DeleteAclsResponse.DeleteAclsMatchingAcl]
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            matching_acls: list[DeleteAclsResponse.DeleteAclsMatchingAcl] = ...,
        ) -> None: ...

    class DeleteAclsMatchingAcl(Struct):
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        pattern_type: int
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            resource_type: int = ...,
            resource_name: str = ...,
            pattern_type: int = ...,
            principal: str = ...,
            host: str = ...,
            operation: int = ...,
            permission_type: int = ...,
        ) -> None: ...

class DeleteGroupsRequest(Struct):
    """API key 42 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    groups_names: list[str]
    def __init__(
        self,
        *,
        groups_names: list[str] = ...,
    ) -> None: ...

class DeleteGroupsResponse(Struct):
    """API key 42 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    results: list[DeleteGroupsResponse.DeletableGroupResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        results: list[DeleteGroupsResponse.DeletableGroupResult] = ...,
    ) -> None: ...

    class DeletableGroupResult(Struct):
        group_id: str
        error_code: int
        def __init__(
            self,
            *,
            group_id: str = ...,
            error_code: int = ...,
        ) -> None: ...

class DeleteRecordsRequest(Struct):
    """API key 21 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    topics: list[DeleteRecordsRequest.DeleteRecordsTopic]
    timeout_ms: int
    def __init__(
        self,
        *,
        topics: list[DeleteRecordsRequest.DeleteRecordsTopic] = ...,
        timeout_ms: int = ...,
    ) -> None: ...

    class DeleteRecordsTopic(Struct):
        name: str
        partitions: list[DeleteRecordsRequest.DeleteRecordsPartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[DeleteRecordsRequest.DeleteRecordsPartition] = ...,
        ) -> None: ...

    class DeleteRecordsPartition(Struct):
        partition_index: int
        offset: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            offset: int = ...,
        ) -> None: ...

class DeleteRecordsResponse(Struct):
    """API key 21 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[DeleteRecordsResponse.DeleteRecordsTopicResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[DeleteRecordsResponse.DeleteRecordsTopicResult] = ...,
    ) -> None: ...

    class DeleteRecordsTopicResult(Struct):
        name: str
        partitions: list[DeleteRecordsResponse.DeleteRecordsPartitionResult]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[DeleteRecordsResponse.DeleteRecordsPartitionResult] = ...,
        ) -> None: ...

    class DeleteRecordsPartitionResult(Struct):
        partition_index: int
        low_watermark: int
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            low_watermark: int = ...,
            error_code: int = ...,
        ) -> None: ...

class DeleteShareGroupOffsetsRequest(Struct):
    """API key 92 request, version 0."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[DeleteShareGroupOffsetsRequest.DeleteShareGroupOffsetsRequestTopic]
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[DeleteShareGroupOffsetsRequest.DeleteShareGroupOffsetsRequestTopic] = ...,
    ) -> None: ...

    class DeleteShareGroupOffsetsRequestTopic(Struct):
        topic_name: str
        def __init__(
            self,
            *,
            topic_name: str = ...,
        ) -> None: ...

class DeleteShareGroupOffsetsResponse(Struct):
    """API key 92 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[DeleteShareGroupOffsetsResponse.DeleteShareGroupOffsetsResponseTopic]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        responses: list[DeleteShareGroupOffsetsResponse.DeleteShareGroupOffsetsResponseTopic] = ...,
    ) -> None: ...

    class DeleteShareGroupOffsetsResponseTopic(Struct):
        topic_name: str
        topic_id: uuid.UUID
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class DeleteShareGroupStateRequest(Struct):
    """API key 86 request, version 0."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[DeleteShareGroupStateRequest.DeleteStateData]
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[DeleteShareGroupStateRequest.DeleteStateData] = ...,
    ) -> None: ...

    class DeleteStateData(Struct):
        topic_id: uuid.UUID
        partitions: list[DeleteShareGroupStateRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[DeleteShareGroupStateRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition: int
        def __init__(
            self,
            *,
            partition: int = ...,
        ) -> None: ...

class DeleteShareGroupStateResponse(Struct):
    """API key 86 response, version 0."""

    spec: ClassVar[MessageSpec]
    results: list[DeleteShareGroupStateResponse.DeleteStateResult]
    def __init__(
        self,
        *,
        results: list[DeleteShareGroupStateResponse.DeleteStateResult] = ...,
    ) -> None: ...

    class DeleteStateResult(Struct):
        topic_id: uuid.UUID
        partitions: list[DeleteShareGroupStateResponse.PartitionResult]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[DeleteShareGroupStateResponse.PartitionResult] = ...,
        ) -> None: ...

    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class DeleteTopicsRequest(Struct):
    """API key 20 request, versions 0-6."""

    spec: ClassVar[MessageSpec]
    topics: list[DeleteTopicsRequest.DeleteTopicState]
    topic_names: list[str]
    timeout_ms: int
    def __init__(
        self,
        *,
        topics: list[DeleteTopicsRequest.DeleteTopicState] = ...,
        topic_names: list[str] = ...,
        timeout_ms: int = ...,
    ) -> None: ...

    class DeleteTopicState(Struct):
        name: str | None
        topic_id: uuid.UUID
        def __init__(
            self,
            *,
            name: str | None = ...,
            topic_id: uuid.UUID = ...,
        ) -> None: ...

class DeleteTopicsResponse(Struct):
    """API key 20 response, versions 0-6."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    responses: list[DeleteTopicsResponse.DeletableTopicResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        responses: list[DeleteTopicsResponse.DeletableTopicResult] = ...,
    ) -> None: ...

    class DeletableTopicResult(Struct):
        name: str | None
        topic_id: uuid.UUID
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            name: str | None = ...,
            topic_id: uuid.UUID = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class DescribeAclsRequest(Struct):
    """API key 29 request, versions 0-3."""

    spec: ClassVar[MessageSpec]
    resource_type_filter: int
    resource_name_filter: str | None
    pattern_type_filter: int
    principal_filter: str | None
    host_filter: str | None
    operation: int
    permission_type: int
    def __init__(
        self,
        *,
        resource_type_filter: int = ...,
        resource_name_filter: str | None = ...,
        pattern_type_filter: int = ...,
        principal_filter: str | None = ...,
        host_filter: str | None = ...,
        operation: int = ...,
        permission_type: int = ...,
    ) -> None: ...

class DescribeAclsResponse(Struct):
    """API key 29 response, versions 0-3."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    resources: list[DescribeAclsResponse.DescribeAclsResource]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        resources: list[DescribeAclsResponse.DescribeAclsResource] = ...,
    ) -> None: ...

    class DescribeAclsResource(Struct):
        resource_type: int
        resource_name: str
        pattern_type: int
        acls: list[DescribeAclsResponse.AclDescription]
        def __init__(
            self,
            *,
            resource_type: int = ...,
            resource_name: str = ...,
            pattern_type: int = ...,
            acls: list[DescribeAclsResponse.AclDescription] = ...,
        ) -> None: ...

    class AclDescription(Struct):
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(
            self,
            *,
            principal: str = ...,
            host: str = ...,
            operation: int = ...,
            permission_type: int = ...,
        ) -> None: ...

class DescribeClientQuotasRequest(Struct):
    """API key 48 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    components: list[DescribeClientQuotasRequest.ComponentData]
    strict: bool
    def __init__(
        self,
        *,
        components: list[DescribeClientQuotasRequest.ComponentData] = ...,
        strict: bool = ...,
    ) -> None: ...

    class ComponentData(Struct):
        entity_type: str
        match_type: int
        match: str | None
        def __init__(
            self,
            *,
            entity_type: str = ...,
            match_type: int = ...,
            match: str | None = ...,
        ) -> None: ...

class DescribeClientQuotasResponse(Struct):
    """API key 48 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    entries: list[DescribeClientQuotasResponse.EntryData] | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        entries: list[DescribeClientQuotasResponse.EntryData] | None = ...,
    ) -> None: ...

    class EntryData(Struct):
        entity: list[DescribeClientQuotasResponse.EntityData]
        values: list[DescribeClientQuotasResponse.ValueData]
        def __init__(
            self,
            *,
            entity: list[DescribeClientQuotasResponse.EntityData] = ...,
            values: list[DescribeClientQuotasResponse.ValueData] = ...,
        ) -> None: ...

    class EntityData(Struct):
        entity_type: str
        entity_name: str | None
        def __init__(
            self,
            *,
            entity_type: str = ...,
            entity_name: str | None = ...,
        ) -> None: ...

    class ValueData(Struct):
        key: str
        value: float
        def __init__(
            self,
            *,
            key: str = ...,
            value: float = ...,
        ) -> None: ...

class DescribeClusterRequest(Struct):
    """API key 60 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    include_cluster_authorized_operations: bool
    endpoint_type: int
    include_fenced_brokers: bool
    def __init__(
        self,
        *,
        include_cluster_authorized_operations: bool = ...,
        endpoint_type: int = ...,
        include_fenced_brokers: bool = ...,
    ) -> None: ...

class DescribeClusterResponse(Struct):
    """API key 60 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    endpoint_type: int
    cluster_id: str
    controller_id: int
    brokers: list[DescribeClusterResponse.DescribeClusterBroker]
    cluster_authorized_operations: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        endpoint_type: int = ...,
        cluster_id: str = ...,
        controller_id: int = ...,
        brokers: list[DescribeClusterResponse.DescribeClusterBroker] = ...,
        cluster_authorized_operations: int = ...,
    ) -> None: ...

    class DescribeClusterBroker(Struct):
        broker_id: int
        host: str
        port: int
        rack: str | None
        is_fenced: bool
        def __init__(
            self,
            *,
            broker_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
            is_fenced: bool = ...,
        ) -> None: ...

class DescribeConfigsRequest(Struct):
    """API key 32 request, versions 0-4."""

    spec: ClassVar[MessageSpec]
    resources: list[DescribeConfigsRequest.DescribeConfigsResource]
    include_synonyms: bool
    include_documentation: bool
    def __init__(
        self,
        *,
        resources: list[DescribeConfigsRequest.DescribeConfigsResource] = ...,
        include_synonyms: bool = ...,
        include_documentation: bool = ...,
    ) -> None: ...

    class DescribeConfigsResource(Struct):
        resource_type: int
        resource_name: str
        configuration_keys: list[str] | None
        def __init__(
            self,
            *,
            resource_type: int = ...,
            resource_name: str = ...,
            configuration_keys: list[str] | None = ...,
        ) -> None: ...

class DescribeConfigsResponse(Struct):
    """API key 32 response, versions 0-4."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    results: list[DescribeConfigsResponse.DescribeConfigsResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        results: list[DescribeConfigsResponse.DescribeConfigsResult] = ...,
    ) -> None: ...

    class DescribeConfigsResult(Struct):
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        configs: list[DescribeConfigsResponse.DescribeConfigsResourceResult]
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            resource_type: int = ...,
            resource_name: str = ...,
            configs: list[DescribeConfigsResponse.DescribeConfigsResourceResult] = ...,
        ) -> None: ...

    class DescribeConfigsResourceResult(Struct):
        name: str
        value: str | None
        read_only: bool
        is_default: bool
        config_source: int
        is_sensitive: bool
        synonyms: list[DescribeConfigsResponse.DescribeConfigsSynonym]
        config_type: int
        documentation: str | None
        def __init__(
            self,
            *,
            name: str = ...,
            value: str | None = ...,
            read_only: bool = ...,
            is_default: bool = ...,
            config_source: int = ...,
            is_sensitive: bool = ...,
            synonyms: list[DescribeConfigsResponse.DescribeConfigsSynonym] = ...,
            config_type: int = ...,
            documentation: str | None = ...,
        ) -> None: ...

    class DescribeConfigsSynonym(Struct):
        name: str
        value: str | None
        source: int
        def __init__(
            self,
            *,
            name: str = ...,
            value: str | None = ...,
            source: int = ...,
        ) -> None: ...

class DescribeDelegationTokenRequest(Struct):
    """API key 41 request, versions 0-3."""

    spec: ClassVar[MessageSpec]
    owners: list[DescribeDelegationTokenRequest.DescribeDelegationTokenOwner] | None
    def __init__(
        self,
        *,
        owners: list[DescribeDelegationTokenRequest.DescribeDelegationTokenOwner] | None = ...,
    ) -> None: ...

    class DescribeDelegationTokenOwner(Struct):
        principal_type: str
        principal_name: str
        def __init__(
            self,
            *,
            principal_type: str = ...,
            principal_name: str = ...,
        ) -> None: ...

class DescribeDelegationTokenResponse(Struct):
    """API key 41 response, versions 0-3."""

    spec: ClassVar[MessageSpec]
    error_code: int
    tokens: list[DescribeDelegationTokenResponse.DescribedDelegationToken]
    throttle_time_ms: int
    def __init__(
        self,
        *,
        error_code: int = ...,
        tokens: list[DescribeDelegationTokenResponse.DescribedDelegationToken] = ...,
        throttle_time_ms: int = ...,
    ) -> None: ...

    class DescribedDelegationToken(Struct):
        principal_type: str
        principal_name: str
        token_requester_principal_type: str
        token_requester_principal_name: str
        issue_timestamp: int
        expiry_timestamp: int
        max_timestamp: int
        token_id: str
        hmac: bytes
        renewers: list[DescribeDelegationTokenResponse.DescribedDelegationTokenRenewer]
        def __init__(
            self,
            *,
            principal_type: str = ...,
            principal_name: str = ...,
            token_requester_principal_type: str = ...,
            token_requester_principal_name: str = ...,
            issue_timestamp: int = ...,
            expiry_timestamp: int = ...,
            max_timestamp: int = ...,
            token_id: str = ...,
            hmac: ReadableBuffer = ...,
            renewers: list[DescribeDelegationTokenResponse.DescribedDelegationTokenRenewer] = ...,
        ) -> None: ...

    class DescribedDelegationTokenRenewer(Struct):
        principal_type: str
        principal_name: str
        def __init__(
            self,
            *,
            principal_type: str = ...,
            principal_name: str = ...,
        ) -> None: ...

class DescribeGroupsRequest(Struct):
    """API key 15 request, versions 0-6."""

    spec: ClassVar[MessageSpec]
    groups: list[str]
    include_authorized_operations: bool
    def __init__(
        self,
        *,
        groups: list[str] = ...,
        include_authorized_operations: bool = ...,
    ) -> None: ...

class DescribeGroupsResponse(Struct):
    """API key 15 response, versions 0-6."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    groups: list[DescribeGroupsResponse.DescribedGroup]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        groups: list[DescribeGroupsResponse.DescribedGroup] = ...,
    ) -> None: ...

    class DescribedGroup(Struct):
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        protocol_type: str
        protocol_data: str
        members: list[DescribeGroupsResponse.DescribedGroupMember]
        authorized_operations: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            group_id: str = ...,
            group_state: str = ...,
            protocol_type: str = ...,
            protocol_data: str = ...,
            members: list[DescribeGroupsResponse.DescribedGroupMember] = ...,
            authorized_operations: int = ...,
        ) -> None: ...

    class DescribedGroupMember(Struct):
        member_id: str
        group_instance_id: str | None
        client_id: str
        client_host: str
        member_metadata: bytes
        member_assignment: bytes
        def __init__(
            self,
            *,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            client_id: str = ...,
            client_host: str = ...,
            member_metadata: ReadableBuffer = ...,
            member_assignment: ReadableBuffer = ...,
        ) -> None: ...

class DescribeLogDirsRequest(Struct):
    """API key 35 request, versions 0-4."""

    spec: ClassVar[MessageSpec]
    topics: list[DescribeLogDirsRequest.DescribableLogDirTopic] | None
    def __init__(
        self,
        *,
        topics: list[DescribeLogDirsRequest.DescribableLogDirTopic] | None = ...,
    ) -> None: ...

    class DescribableLogDirTopic(Struct):
        topic: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class DescribeLogDirsResponse(Struct):
    """API key 35 response, versions 0-4."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    results: list[DescribeLogDirsResponse.DescribeLogDirsResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        results: list[DescribeLogDirsResponse.DescribeLogDirsResult] = ...,
    ) -> None: ...

    class DescribeLogDirsResult(Struct):
        error_code: int
        log_dir: str
        topics: list[DescribeLogDirsResponse.DescribeLogDirsTopic]
        total_bytes: int
        usable_bytes: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            log_dir: str = ...,
            topics: list[DescribeLogDirsResponse.DescribeLogDirsTopic] = ...,
            total_bytes: int = ...,
            usable_bytes: int = ...,
        ) -> None: ...

    class DescribeLogDirsTopic(Struct):
        name: str
        partitions: list[DescribeLogDirsResponse.DescribeLogDirsPartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[DescribeLogDirsResponse.DescribeLogDirsPartition] = ...,
        ) -> None: ...

    class DescribeLogDirsPartition(Struct):
        partition_index: int
        partition_size: int
        offset_lag: int
        is_future_key: bool
        def __init__(
            self,
            *,
            partition_index: int = ...,
            partition_size: int = ...,
            offset_lag: int = ...,
            is_future_key: bool = ...,
        ) -> None: ...

class DescribeProducersRequest(Struct):
    """API key 61 request, version 0."""

    spec: ClassVar[MessageSpec]
    topics: list[DescribeProducersRequest.TopicRequest]
    def __init__(
        self,
        *,
        topics: list[DescribeProducersRequest.TopicRequest] = ...,
    ) -> None: ...

    class TopicRequest(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            *,
            name: str = ...,
            partition_indexes: list[int] = ...,
        ) -> None: ...

class DescribeProducersResponse(Struct):
    """API key 61 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[DescribeProducersResponse.TopicResponse]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[DescribeProducersResponse.TopicResponse] = ...,
    ) -> None: ...

    class TopicResponse(Struct):
        name: str
        partitions: list[DescribeProducersResponse.PartitionResponse]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[DescribeProducersResponse.PartitionResponse] = ...,
        ) -> None: ...

    class PartitionResponse(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        active_producers: list[DescribeProducersResponse.ProducerState]
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            active_producers: list[DescribeProducersResponse.ProducerState] = ...,
        ) -> None: ...

    class ProducerState(Struct):
        producer_id: int
        producer_epoch: int
        last_sequence: int
        last_timestamp: int
        coordinator_epoch: int
        current_txn_start_offset: int
        def __init__(
            self,
            *,
            producer_id: int = ...,
            producer_epoch: int = ...,
            last_sequence: int = ...,
            last_timestamp: int = ...,
            coordinator_epoch: int = ...,
            current_txn_start_offset: int = ...,
        ) -> None: ...

class DescribeQuorumRequest(Struct):
    """API key 55 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    topics: list[DescribeQuorumRequest.TopicData]
    def __init__(
        self,
        *,
        topics: list[DescribeQuorumRequest.TopicData] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        partitions: list[DescribeQuorumRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[DescribeQuorumRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
        ) -> None: ...

class DescribeQuorumResponse(Struct):
    """API key 55 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    error_code: int
    error_message: str | None
    topics: list[DescribeQuorumResponse.TopicData]
    nodes: list[DescribeQuorumResponse.Node]
    def __init__(
        self,
        *,
        error_code: int = ...,
        error_message: str | None = ...,
        topics: list[DescribeQuorumResponse.TopicData] = ...,
        nodes: list[DescribeQuorumResponse.Node] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        partitions: list[DescribeQuorumResponse.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[DescribeQuorumResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        leader_id: int
        leader_epoch: int
        high_watermark: int
        current_voters: list[DescribeQuorumResponse.ReplicaState]
        observers: list[DescribeQuorumResponse.ReplicaState]
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            high_watermark: int = ...,
            current_voters: list[DescribeQuorumResponse.ReplicaState] = ...,
            observers: list[DescribeQuorumResponse.ReplicaState] = ...,
        ) -> None: ...

    class ReplicaState(Struct):
        replica_id: int
        replica_directory_id: uuid.UUID
        log_end_offset: int
        last_fetch_timestamp: int
        last_caught_up_timestamp: int
        def __init__(
            self,
            *,
            replica_id: int = ...,
            replica_directory_id: uuid.UUID = ...,
            log_end_offset: int = ...,
            last_fetch_timestamp: int = ...,
            last_caught_up_timestamp: int = ...,
        ) -> None: ...

    class Node(Struct):
        node_id: int
        listeners: list[DescribeQuorumResponse.Listener]
        def __init__(
            self,
            *,
            node_id: int = ...,
            listeners: list[DescribeQuorumResponse.Listener] = ...,
        ) -> None: ...

    class Listener(Struct):
        name: str
        host: str
        port: int
        def __init__(
            self,
            *,
            name: str = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class DescribeShareGroupOffsetsRequest(Struct):
    """API key 90 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    groups: list[DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestGroup]
    def __init__(
        self,
        *,
        groups: list[DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestGroup] = ...,
    ) -> None: ...

    class DescribeShareGroupOffsetsRequestGroup(Struct):
        group_id: str
        topics: list[DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestTopic] | None
        def __init__(
            self,
            *,
            group_id: str = ...,
            topics: list[DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestTopic] | None = ...,
        ) -> None: ...

    class DescribeShareGroupOffsetsRequestTopic(Struct):
        topic_name: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class DescribeShareGroupOffsetsResponse(Struct):
    """API key 90 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    groups: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseGroup]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        groups: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseGroup] = ...,
    ) -> None: ...

    class DescribeShareGroupOffsetsResponseGroup(Struct):
        group_id: str
        topics: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseTopic]
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            group_id: str = ...,
            topics: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseTopic] = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

    class DescribeShareGroupOffsetsResponseTopic(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partitions: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponsePartition]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponsePartition] = ...,
        ) -> None: ...

    class DescribeShareGroupOffsetsResponsePartition(Struct):
        partition_index: int
        start_offset: int
        leader_epoch: int
        lag: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            partition_index: int = ...,
            start_offset: int = ...,
            leader_epoch: int = ...,
            lag: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class DescribeTopicPartitionsRequest(Struct):
    """API key 75 request, version 0."""

    spec: ClassVar[MessageSpec]
    topics: list[DescribeTopicPartitionsRequest.TopicRequest]
    response_partition_limit: int
    cursor: DescribeTopicPartitionsRequest.Cursor | None
    def __init__(
        self,
        *,
        topics: list[DescribeTopicPartitionsRequest.TopicRequest] = ...,
        response_partition_limit: int = ...,
        cursor: DescribeTopicPartitionsRequest.Cursor | None = ...,
    ) -> None: ...

    class TopicRequest(Struct):
        name: str
        def __init__(
            self,
            *,
            name: str = ...,
        ) -> None: ...

    class Cursor(Struct):
        topic_name: str
        partition_index: int
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_index: int = ...,
        ) -> None: ...

class DescribeTopicPartitionsResponse(Struct):
    """API key 75 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic]
    next_cursor: DescribeTopicPartitionsResponse.Cursor | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic] = ...,
        next_cursor: DescribeTopicPartitionsResponse.Cursor | None = ...,
    ) -> None: ...

    class DescribeTopicPartitionsResponseTopic(Struct):
        error_code: int
        name: str | None
        topic_id: uuid.UUID
        is_internal: bool
        partitions: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition]
        topic_authorized_operations: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            name: str | None = ...,
            topic_id: uuid.UUID = ...,
            is_internal: bool = ...,
            partitions: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition] = ...,
            topic_authorized_operations: int = ...,
        ) -> None: ...

    class DescribeTopicPartitionsResponsePartition(Struct):
        error_code: int
        partition_index: int
        leader_id: int
        leader_epoch: int
        replica_nodes: list[int]
        isr_nodes: list[int]
        eligible_leader_replicas: list[int] | None
        last_known_elr: list[int] | None
        offline_replicas: list[int]
        def __init__(
            self,
            *,
            error_code: int = ...,
            partition_index: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            replica_nodes: list[int] = ...,
            isr_nodes: list[int] = ...,
            eligible_leader_replicas: list[int] | None = ...,
            last_known_elr: list[int] | None = ...,
            offline_replicas: list[int] = ...,
        ) -> None: ...

    class Cursor(Struct):
        topic_name: str
        partition_index: int
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_index: int = ...,
        ) -> None: ...

class DescribeTransactionsRequest(Struct):
    """API key 65 request, version 0."""

    spec: ClassVar[MessageSpec]
    transactional_ids: list[str]
    def __init__(
        self,
        *,
        transactional_ids: list[str] = ...,
    ) -> None: ...

class DescribeTransactionsResponse(Struct):
    """API key 65 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    transaction_states: list[DescribeTransactionsResponse.TransactionState]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        transaction_states: list[DescribeTransactionsResponse.TransactionState] = ...,
    ) -> None: ...

    class TransactionState(Struct):
        error_code: int
        transactional_id: str
        transaction_state: str
        transaction_timeout_ms: int
        transaction_start_time_ms: int
        producer_id: int
        producer_epoch: int
        topics: list[DescribeTransactionsResponse.TopicData]
        def __init__(
            self,
            *,
            error_code: int = ...,
            transactional_id: str = ...,
            transaction_state: str = ...,
            transaction_timeout_ms: int = ...,
            transaction_start_time_ms: int = ...,
            producer_id: int = ...,
            producer_epoch: int = ...,
            topics: list[DescribeTransactionsResponse.TopicData] = ...,
        ) -> None: ...

    class TopicData(Struct):
        topic: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class DescribeUserScramCredentialsRequest(Struct):
    """API key 50 request, version 0."""

    spec: ClassVar[MessageSpec]
    users: list[DescribeUserScramCredentialsRequest.UserName] | None
    def __init__(
        self,
        *,
        users: list[DescribeUserScramCredentialsRequest.UserName] | None = ...,
    ) -> None: ...

    class UserName(Struct):
        name: str
        def __init__(
            self,
            *,
            name: str = ...,
        ) -> None: ...

class DescribeUserScramCredentialsResponse(Struct):
    """API key 50 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    results: list[DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        results: list[DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult] = ...,
    ) -> None: ...

    class DescribeUserScramCredentialsResult(Struct):
        user: str
        error_code: int
        error_message: str | None
        credential_infos: list[DescribeUserScramCredentialsResponse.CredentialInfo]
        def __init__(
            self,
            *,
            user: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            credential_infos: list[DescribeUserScramCredentialsResponse.CredentialInfo] = ...,
        ) -> None: ...

    class CredentialInfo(Struct):
        mechanism: int
        iterations: int
        def __init__(
            self,
            *,
            mechanism: int = ...,
            iterations: int = ...,
        ) -> None: ...

class ElectLeadersRequest(Struct):
    """API key 43 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    election_type: int
    topic_partitions: list[ElectLeadersRequest.TopicPartitions] | None
    timeout_ms: int
    def __init__(
        self,
        *,
        election_type: int = ...,
        topic_partitions: list[ElectLeadersRequest.TopicPartitions] | None = ...,
        timeout_ms: int = ...,
    ) -> None: ...

    class TopicPartitions(Struct):
        topic: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class ElectLeadersResponse(Struct):
    """API key 43 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    replica_election_results: list[ElectLeadersResponse.ReplicaElectionResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        replica_election_results: list[ElectLeadersResponse.ReplicaElectionResult] = ...,
    ) -> None: ...

    class ReplicaElectionResult(Struct):
        topic: str
        partition_result: list[ElectLeadersResponse.PartitionResult]
        def __init__(
            self,
            *,
            topic: str = ...,
            partition_result: list[ElectLeadersResponse.PartitionResult] = ...,
        ) -> None: ...

    class PartitionResult(Struct):
        partition_id: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            partition_id: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class EndQuorumEpochRequest(Struct):
    """API key 54 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    cluster_id: str | None
    topics: list[EndQuorumEpochRequest.TopicData]
    leader_endpoints: list[EndQuorumEpochRequest.LeaderEndpoint]
    def __init__(
        self,
        *,
        cluster_id: str | None = ...,
        topics: list[EndQuorumEpochRequest.TopicData] = ...,
        leader_endpoints: list[EndQuorumEpochRequest.LeaderEndpoint] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        partitions: list[EndQuorumEpochRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[EndQuorumEpochRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        leader_id: int
        leader_epoch: int
        preferred_successors: list[int]
        preferred_candidates: list[EndQuorumEpochRequest.ReplicaInfo]
        def __init__(
            self,
            *,
            partition_index: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            preferred_successors: list[int] = ...,
            preferred_candidates: list[EndQuorumEpochRequest.ReplicaInfo] = ...,
        ) -> None: ...

    class ReplicaInfo(Struct):
        candidate_id: int
        candidate_directory_id: uuid.UUID
        def __init__(
            self,
            *,
            candidate_id: int = ...,
            candidate_directory_id: uuid.UUID = ...,
        ) -> None: ...

    class LeaderEndpoint(Struct):
        name: str
        host: str
        port: int
        def __init__(
            self,
            *,
            name: str = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class EndQuorumEpochResponse(Struct):
    """API key 54 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    error_code: int
    topics: list[EndQuorumEpochResponse.TopicData]
    node_endpoints: list[EndQuorumEpochResponse.NodeEndpoint]
    def __init__(
        self,
        *,
        error_code: int = ...,
        topics: list[EndQuorumEpochResponse.TopicData] = ...,
        node_endpoints: list[EndQuorumEpochResponse.NodeEndpoint] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        partitions: list[EndQuorumEpochResponse.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[EndQuorumEpochResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class EndTxnMarker(Struct):
    """Data, version 0."""

    spec: ClassVar[MessageSpec]
    coordinator_epoch: int
    def __init__(
        self,
        *,
        coordinator_epoch: int = ...,
    ) -> None: ...

class EndTxnRequest(Struct):
    """API key 26 request, versions 0-5."""

    spec: ClassVar[MessageSpec]
    transactional_id: str
    producer_id: int
    producer_epoch: int
    committed: bool
    def __init__(
        self,
        *,
        transactional_id: str = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        committed: bool = ...,
    ) -> None: ...

class EndTxnResponse(Struct):
    """API key 26 response, versions 0-5."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    producer_id: int
    producer_epoch: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
    ) -> None: ...

class EnvelopeRequest(Struct):
    """API key 58 request, version 0."""

    spec: ClassVar[MessageSpec]
    request_data: bytes
    request_principal: bytes | None
    client_host_address: bytes
    def __init__(
        self,
        *,
        request_data: ReadableBuffer = ...,
        request_principal: ReadableBuffer | None = ...,
        client_host_address: ReadableBuffer = ...,
    ) -> None: ...

class EnvelopeResponse(Struct):
    """API key 58 response, version 0."""

    spec: ClassVar[MessageSpec]
    response_data: bytes | None
    error_code: int
    def __init__(
        self,
        *,
        response_data: ReadableBuffer | None = ...,
        error_code: int = ...,
    ) -> None: ...

class ExpireDelegationTokenRequest(Struct):
    """API key 40 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    hmac: bytes
    expiry_time_period_ms: int
    def __init__(
        self,
        *,
        hmac: ReadableBuffer = ...,
        expiry_time_period_ms: int = ...,
    ) -> None: ...

class ExpireDelegationTokenResponse(Struct):
    """API key 40 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    error_code: int
    expiry_timestamp_ms: int
    throttle_time_ms: int
    def __init__(
        self,
        *,
        error_code: int = ...,
        expiry_timestamp_ms: int = ...,
        throttle_time_ms: int = ...,
    ) -> None: ...

class FetchRequest(Struct):
    """API key 1 request, versions 0-18."""

    spec: ClassVar[MessageSpec]
    cluster_id: str | None
    replica_id: int
    replica_state: FetchRequest.ReplicaState
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    isolation_level: int
    session_id: int
    session_epoch: int
    topics: list[FetchRequest.FetchTopic]
    forgotten_topics_data: list[FetchRequest.ForgottenTopic]
    rack_id: str
    def __init__(
        self,
        *,
        cluster_id: str | None = ...,
        replica_id: int = ...,
        replica_state: FetchRequest.ReplicaState = ...,
        max_wait_ms: int = ...,
        min_bytes: int = ...,
        max_bytes: int = ...,
        isolation_level: int = ...,
        session_id: int = ...,
        session_epoch: int = ...,
        topics: list[FetchRequest.FetchTopic] = ...,
        forgotten_topics_data: list[FetchRequest.ForgottenTopic] = ...,
        rack_id: str = ...,
    ) -> None: ...

    class ReplicaState(Struct):
        replica_id: int
        replica_epoch: int
        def __init__(
            self,
            *,
            replica_id: int = ...,
            replica_epoch: int = ...,
        ) -> None: ...

    class FetchTopic(Struct):
        topic: str
        topic_id: uuid.UUID
        partitions: list[FetchRequest.FetchPartition]
        def __init__(
            self,
            *,
            topic: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: list[FetchRequest.FetchPartition] = ...,
        ) -> None: ...

    class FetchPartition(Struct):
        partition: int
        current_leader_epoch: int
        fetch_offset: int
        last_fetched_epoch: int
        log_start_offset: int
        partition_max_bytes: int
        replica_directory_id: uuid.UUID
        high_watermark: int
        def __init__(
            self,
            *,
            partition: int = ...,
            current_leader_epoch: int = ...,
            fetch_offset: int = ...,
            last_fetched_epoch: int = ...,
            log_start_offset: int = ...,
            partition_max_bytes: int = ...,
            replica_directory_id: uuid.UUID = ...,
            high_watermark: int = ...,
        ) -> None: ...

    class ForgottenTopic(Struct):
        topic: str
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            *,
            topic: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class FetchResponse(Struct):
    """API key 1 response, versions 0-18."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    session_id: int
    responses: list[FetchResponse.FetchableTopicResponse]
    node_endpoints: list[FetchResponse.NodeEndpoint]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        session_id: int = ...,
        responses: list[FetchResponse.FetchableTopicResponse] = ...,
        node_endpoints: list[FetchResponse.NodeEndpoint] = ...,
    ) -> None: ...

    class FetchableTopicResponse(Struct):
        topic: str
        topic_id: uuid.UUID
        partitions: list[FetchResponse.PartitionData]
        def __init__(
            self,
            *,
            topic: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: list[FetchResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        high_watermark: int
        last_stable_offset: int
        log_start_offset: int
        diverging_epoch: FetchResponse.EpochEndOffset
        current_leader: FetchResponse.LeaderIdAndEpoch
        snapshot_id: FetchResponse.SnapshotId
        aborted_transactions: list[FetchResponse.AbortedTransaction] | None
        preferred_read_replica: int
        records: bytes | memoryview | None
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            high_watermark: int = ...,
            last_stable_offset: int = ...,
            log_start_offset: int = ...,
            diverging_epoch: FetchResponse.EpochEndOffset = ...,
            current_leader: FetchResponse.LeaderIdAndEpoch = ...,
            snapshot_id: FetchResponse.SnapshotId = ...,
            aborted_transactions: list[FetchResponse.AbortedTransaction] | None = ...,
            preferred_read_replica: int = ...,
            records: ReadableBuffer | None = ...,
        ) -> None: ...

    class EpochEndOffset(Struct):
        epoch: int
        end_offset: int
        def __init__(
            self,
            *,
            epoch: int = ...,
            end_offset: int = ...,
        ) -> None: ...

    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            *,
            leader_id: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

    class SnapshotId(Struct):
        end_offset: int
        epoch: int
        def __init__(
            self,
            *,
            end_offset: int = ...,
            epoch: int = ...,
        ) -> None: ...

    class AbortedTransaction(Struct):
        producer_id: int
        first_offset: int
        def __init__(
            self,
            *,
            producer_id: int = ...,
            first_offset: int = ...,
        ) -> None: ...

    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
        ) -> None: ...

class FetchSnapshotRequest(Struct):
    """API key 59 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    cluster_id: str | None
    replica_id: int
    max_bytes: int
    topics: list[FetchSnapshotRequest.TopicSnapshot]
    def __init__(
        self,
        *,
        cluster_id: str | None = ...,
        replica_id: int = ...,
        max_bytes: int = ...,
        topics: list[FetchSnapshotRequest.TopicSnapshot] = ...,
    ) -> None: ...

    class TopicSnapshot(Struct):
        name: str
        partitions: list[FetchSnapshotRequest.PartitionSnapshot]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[FetchSnapshotRequest.PartitionSnapshot] = ...,
        ) -> None: ...

    class PartitionSnapshot(Struct):
        partition: int
        current_leader_epoch: int
        snapshot_id: FetchSnapshotRequest.SnapshotId
        position: int
        replica_directory_id: uuid.UUID
        def __init__(
            self,
            *,
            partition: int = ...,
            current_leader_epoch: int = ...,
            snapshot_id: FetchSnapshotRequest.SnapshotId = ...,
            position: int = ...,
            replica_directory_id: uuid.UUID = ...,
        ) -> None: ...

    class SnapshotId(Struct):
        end_offset: int
        epoch: int
        def __init__(
            self,
            *,
            end_offset: int = ...,
            epoch: int = ...,
        ) -> None: ...

class FetchSnapshotResponse(Struct):
    """API key 59 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    topics: list[FetchSnapshotResponse.TopicSnapshot]
    node_endpoints: list[FetchSnapshotResponse.NodeEndpoint]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        topics: list[FetchSnapshotResponse.TopicSnapshot] = ...,
        node_endpoints: list[FetchSnapshotResponse.NodeEndpoint] = ...,
    ) -> None: ...

    class TopicSnapshot(Struct):
        name: str
        partitions: list[FetchSnapshotResponse.PartitionSnapshot]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[FetchSnapshotResponse.PartitionSnapshot] = ...,
        ) -> None: ...

    class PartitionSnapshot(Struct):
        index: int
        error_code: int
        snapshot_id: FetchSnapshotResponse.SnapshotId
        current_leader: FetchSnapshotResponse.LeaderIdAndEpoch
        size: int
        position: int
        unaligned_records: bytes | memoryview
        def __init__(
            self,
            *,
            index: int = ...,
            error_code: int = ...,
            snapshot_id: FetchSnapshotResponse.SnapshotId = ...,
            current_leader: FetchSnapshotResponse.LeaderIdAndEpoch = ...,
            size: int = ...,
            position: int = ...,
            unaligned_records: ReadableBuffer = ...,
        ) -> None: ...

    class SnapshotId(Struct):
        end_offset: int
        epoch: int
        def __init__(
            self,
            *,
            end_offset: int = ...,
            epoch: int = ...,
        ) -> None: ...

    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            *,
            leader_id: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class FindCoordinatorRequest(Struct):
    """API key 10 request, versions 0-6."""

    spec: ClassVar[MessageSpec]
    key: str
    key_type: int
    coordinator_keys: list[str]
    def __init__(
        self,
        *,
        key: str = ...,
        key_type: int = ...,
        coordinator_keys: list[str] = ...,
    ) -> None: ...

class FindCoordinatorResponse(Struct):
    """API key 10 response, versions 0-6."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    node_id: int
    host: str
    port: int
    coordinators: list[FindCoordinatorResponse.Coordinator]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        node_id: int = ...,
        host: str = ...,
        port: int = ...,
        coordinators: list[FindCoordinatorResponse.Coordinator] = ...,
    ) -> None: ...

    class Coordinator(Struct):
        key: str
        node_id: int
        host: str
        port: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            key: str = ...,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class GetTelemetrySubscriptionsRequest(Struct):
    """API key 71 request, version 0."""

    spec: ClassVar[MessageSpec]
    client_instance_id: uuid.UUID
    def __init__(
        self,
        *,
        client_instance_id: uuid.UUID = ...,
    ) -> None: ...

class GetTelemetrySubscriptionsResponse(Struct):
    """API key 71 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    client_instance_id: uuid.UUID
    subscription_id: int
    accepted_compression_types: list[int]
    push_interval_ms: int
    telemetry_max_bytes: int
    delta_temporality: bool
    requested_metrics: list[str]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        client_instance_id: uuid.UUID = ...,
        subscription_id: int = ...,
        accepted_compression_types: list[int] = ...,
        push_interval_ms: int = ...,
        telemetry_max_bytes: int = ...,
        delta_temporality: bool = ...,
        requested_metrics: list[str] = ...,
    ) -> None: ...

class HeartbeatRequest(Struct):
    """API key 12 request, versions 0-4."""

    spec: ClassVar[MessageSpec]
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    def __init__(
        self,
        *,
        group_id: str = ...,
        generation_id: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
    ) -> None: ...

class HeartbeatResponse(Struct):
    """API key 12 response, versions 0-4."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
    ) -> None: ...

class IncrementalAlterConfigsRequest(Struct):
    """API key 44 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    resources: list[IncrementalAlterConfigsRequest.AlterConfigsResource]
    validate_only: bool
    def __init__(
        self,
        *,
        resources: list[IncrementalAlterConfigsRequest.AlterConfigsResource] = ...,
        validate_only: bool = ...,
    ) -> None: ...

    class AlterConfigsResource(Struct):
        resource_type: int
        resource_name: str
        configs: list[IncrementalAlterConfigsRequest.AlterableConfig]
        def __init__(
            self,
            *,
            resource_type: int = ...,
            resource_name: str = ...,
            configs: list[IncrementalAlterConfigsRequest.AlterableConfig] = ...,
        ) -> None: ...

    class AlterableConfig(Struct):
        name: str
        config_operation: int
        value: str | None
        def __init__(
            self,
            *,
            name: str = ...,
            config_operation: int = ...,
            value: str | None = ...,
        ) -> None: ...

class IncrementalAlterConfigsResponse(Struct):
    """API key 44 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    responses: list[IncrementalAlterConfigsResponse.AlterConfigsResourceResponse]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        responses: list[IncrementalAlterConfigsResponse.AlterConfigsResourceResponse] = ...,
    ) -> None: ...

    class AlterConfigsResourceResponse(Struct):
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            resource_type: int = ...,
            resource_name: str = ...,
        ) -> None: ...

class InitProducerIdRequest(Struct):
    """API key 22 request, versions 0-5."""

    spec: ClassVar[MessageSpec]
    transactional_id: str | None
    transaction_timeout_ms: int
    producer_id: int
    producer_epoch: int
    enable2_pc: bool
    keep_prepared_txn: bool
    def __init__(
        self,
        *,
        transactional_id: str | None = ...,
        transaction_timeout_ms: int = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        enable2_pc: bool = ...,
        keep_prepared_txn: bool = ...,
    ) -> None: ...

class InitProducerIdResponse(Struct):
    """API key 22 response, versions 0-5."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    producer_id: int
    producer_epoch: int
    ongoing_txn_producer_id: int
    ongoing_txn_producer_epoch: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        ongoing_txn_producer_id: int = ...,
        ongoing_txn_producer_epoch: int = ...,
    ) -> None: ...

class InitializeShareGroupStateRequest(Struct):
    """API key 83 request, version 0."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[InitializeShareGroupStateRequest.InitializeStateData]
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[InitializeShareGroupStateRequest.InitializeStateData] = ...,
    ) -> None: ...

    class InitializeStateData(Struct):
        topic_id: uuid.UUID
        partitions: list[InitializeShareGroupStateRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[InitializeShareGroupStateRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition: int
        state_epoch: int
        start_offset: int
        def __init__(
            self,
            *,
            partition: int = ...,
            state_epoch: int = ...,
            start_offset: int = ...,
        ) -> None: ...

class InitializeShareGroupStateResponse(Struct):
    """API key 83 response, version 0."""

    spec: ClassVar[MessageSpec]
    results: list[InitializeShareGroupStateResponse.InitializeStateResult]
    def __init__(
        self,
        *,
        results: list[InitializeShareGroupStateResponse.InitializeStateResult] = ...,
    ) -> None: ...

    class InitializeStateResult(Struct):
        topic_id: uuid.UUID
        partitions: list[InitializeShareGroupStateResponse.PartitionResult]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[InitializeShareGroupStateResponse.PartitionResult] = ...,
        ) -> None: ...

    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class JoinGroupRequest(Struct):
    """API key 11 request, versions 0-9."""

    spec: ClassVar[MessageSpec]
    group_id: str
    session_timeout_ms: int
    rebalance_timeout_ms: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str
    protocols: list[JoinGroupRequest.JoinGroupRequestProtocol]
    reason: str | None
    def __init__(
        self,
        *,
        group_id: str = ...,
        session_timeout_ms: int = ...,
        rebalance_timeout_ms: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        protocol_type: str = ...,
        protocols: list[JoinGroupRequest.JoinGroupRequestProtocol] = ...,
        reason: str | None = ...,
    ) -> None: ...

    class JoinGroupRequestProtocol(Struct):
        name: str
        metadata: bytes
        def __init__(
            self,
            *,
            name: str = ...,
            metadata: ReadableBuffer = ...,
        ) -> None: ...

class JoinGroupResponse(Struct):
    """API key 11 response, versions 0-9."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    generation_id: int
    protocol_type: str | None
    protocol_name: str | None
    leader: str
    skip_assignment: bool
    member_id: str
    members: list[JoinGroupResponse.JoinGroupResponseMember]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        generation_id: int = ...,
        protocol_type: str | None = ...,
        protocol_name: str | None = ...,
        leader: str = ...,
        skip_assignment: bool = ...,
        member_id: str = ...,
        members: list[JoinGroupResponse.JoinGroupResponseMember] = ...,
    ) -> None: ...

    class JoinGroupResponseMember(Struct):
        member_id: str
        group_instance_id: str | None
        metadata: bytes
        def __init__(
            self,
            *,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            metadata: ReadableBuffer = ...,
        ) -> None: ...

class KRaftVersionRecord(Struct):
    """Data, version 0."""

    spec: ClassVar[MessageSpec]
    version: int
    k_raft_version: int
    def __init__(
        self,
        *,
        version: int = ...,
        k_raft_version: int = ...,
    ) -> None: ...

class LeaderAndIsrRequest(Struct):
    """API key 4 request, versions 0-7."""

    spec: ClassVar[MessageSpec]
    controller_id: int
    is_k_raft_controller: bool
    controller_epoch: int
    broker_epoch: int
    type: int
    ungrouped_partition_states: list[LeaderAndIsrRequest.LeaderAndIsrPartitionState]
    topic_states: list[LeaderAndIsrRequest.LeaderAndIsrTopicState]
    live_leaders: list[LeaderAndIsrRequest.LeaderAndIsrLiveLeader]
    def __init__(
        self,
        *,
        controller_id: int = ...,
        is_k_raft_controller: bool = ...,
        controller_epoch: int = ...,
        broker_epoch: int = ...,
        type: int = ...,
        ungrouped_partition_states: list[LeaderAndIsrRequest.LeaderAndIsrPartitionState] = ...,
        topic_states: list[LeaderAndIsrRequest.LeaderAndIsrTopicState] = ...,
        live_leaders: list[LeaderAndIsrRequest.LeaderAndIsrLiveLeader] = ...,
    ) -> None: ...

    class LeaderAndIsrPartitionState(Struct):
        topic_name: str
        partition_index: int
        controller_epoch: int
        leader: int
        leader_epoch: int
        isr: list[int]
        partition_epoch: int
        replicas: list[int]
        adding_replicas: list[int]
        removing_replicas: list[int]
        is_new: bool
        leader_recovery_state: int
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_index: int = ...,
            controller_epoch: int = ...,
            leader: int = ...,
            leader_epoch: int = ...,
            isr: list[int] = ...,
            partition_epoch: int = ...,
            replicas: list[int] = ...,
            adding_replicas: list[int] = ...,
            removing_replicas: list[int] = ...,
            is_new: bool = ...,
            leader_recovery_state: int = ...,
        ) -> None: ...

    class LeaderAndIsrTopicState(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partition_states: list[LeaderAndIsrRequest.LeaderAndIsrPartitionState]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            partition_states: list[LeaderAndIsrRequest.LeaderAndIsrPartitionState] = ...,
        ) -> None: ...

    class LeaderAndIsrLiveLeader(Struct):
        broker_id: int
        host_name: str
        port: int
        def __init__(
            self,
            *,
            broker_id: int = ...,
            host_name: str = ...,
            port: int = ...,
        ) -> None: ...

class LeaderAndIsrResponse(Struct):
    """API key 4 response, versions 0-7."""

    spec: ClassVar[MessageSpec]
    error_code: int
    partition_errors: list[LeaderAndIsrResponse.LeaderAndIsrPartitionError]
    topics: list[LeaderAndIsrResponse.LeaderAndIsrTopicError]
    def __init__(
        self,
        *,
        error_code: int = ...,
        partition_errors: list[LeaderAndIsrResponse.LeaderAndIsrPartitionError] = ...,
        topics: list[LeaderAndIsrResponse.LeaderAndIsrTopicError] = ...,
    ) -> None: ...

    class LeaderAndIsrPartitionError(Struct):
        topic_name: str
        partition_index: int
        error_code: int
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_index: int = ...,
            error_code: int = ...,
        ) -> None: ...

    class LeaderAndIsrTopicError(Struct):
        topic_id: uuid.UUID
        partition_errors: list[LeaderAndIsrResponse.LeaderAndIsrPartitionError]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partition_errors: list[LeaderAndIsrResponse.LeaderAndIsrPartitionError] = ...,
        ) -> None: ...

class LeaderChangeMessage(Struct):
    """Data, versions 0-1."""

    spec: ClassVar[MessageSpec]
    version: int
    leader_id: int
    voters: list[LeaderChangeMessage.Voter]
    granting_voters: list[LeaderChangeMessage.Voter]
    def __init__(
        self,
        *,
        version: int = ...,
        leader_id: int = ...,
        voters: list[LeaderChangeMessage.Voter] = ...,
        granting_voters: list[LeaderChangeMessage.Voter] = ...,
    ) -> None: ...

    class Voter(Struct):
        voter_id: int
        voter_directory_id: uuid.UUID
        def __init__(
            self,
            *,
            voter_id: int = ...,
            voter_directory_id: uuid.UUID = ...,
        ) -> None: ...

class LeaveGroupRequest(Struct):
    """API key 13 request, versions 0-5."""

    spec: ClassVar[MessageSpec]
    group_id: str
    member_id: str
    members: list[LeaveGroupRequest.MemberIdentity]
    def __init__(
        self,
        *,
        group_id: str = ...,
        member_id: str = ...,
        members: list[LeaveGroupRequest.MemberIdentity] = ...,
    ) -> None: ...

    class MemberIdentity(Struct):
        member_id: str
        group_instance_id: str | None
        reason: str | None
        def __init__(
            self,
            *,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            reason: str | None = ...,
        ) -> None: ...

class LeaveGroupResponse(Struct):
    """API key 13 response, versions 0-5."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    members: list[LeaveGroupResponse.MemberResponse]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        members: list[LeaveGroupResponse.MemberResponse] = ...,
    ) -> None: ...

    class MemberResponse(Struct):
        member_id: str
        group_instance_id: str | None
        error_code: int
        def __init__(
            self,
            *,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            error_code: int = ...,
        ) -> None: ...

class ListConfigResourcesRequest(Struct):
    """API key 74 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    resource_types: list[int]
    def __init__(
        self,
        *,
        resource_types: list[int] = ...,
    ) -> None: ...

class ListConfigResourcesResponse(Struct):
    """API key 74 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    config_resources: list[ListConfigResourcesResponse.ConfigResource]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        config_resources: list[ListConfigResourcesResponse.ConfigResource] = ...,
    ) -> None: ...

    class ConfigResource(Struct):
        resource_name: str
        resource_type: int
        def __init__(
            self,
            *,
            resource_name: str = ...,
            resource_type: int = ...,
        ) -> None: ...

class ListGroupsRequest(Struct):
    """API key 16 request, versions 0-5."""

    spec: ClassVar[MessageSpec]
    states_filter: list[str]
    types_filter: list[str]
    def __init__(
        self,
        *,
        states_filter: list[str] = ...,
        types_filter: list[str] = ...,
    ) -> None: ...

class ListGroupsResponse(Struct):
    """API key 16 response, versions 0-5."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    groups: list[ListGroupsResponse.ListedGroup]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        groups: list[ListGroupsResponse.ListedGroup] = ...,
    ) -> None: ...

    class ListedGroup(Struct):
        group_id: str
        protocol_type: str
        group_state: str
        group_type: str
        def __init__(
            self,
            *,
            group_id: str = ...,
            protocol_type: str = ...,
            group_state: str = ...,
            group_type: str = ...,
        ) -> None: ...

class ListOffsetsRequest(Struct):
    """API key 2 request, versions 0-11."""

    spec: ClassVar[MessageSpec]
    replica_id: int
    isolation_level: int
    topics: list[ListOffsetsRequest.ListOffsetsTopic]
    timeout_ms: int
    def __init__(
        self,
        *,
        replica_id: int = ...,
        isolation_level: int = ...,
        topics: list[ListOffsetsRequest.ListOffsetsTopic] = ...,
        timeout_ms: int = ...,
    ) -> None: ...

    class ListOffsetsTopic(Struct):
        name: str
        partitions: list[ListOffsetsRequest.ListOffsetsPartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[ListOffsetsRequest.ListOffsetsPartition] = ...,
        ) -> None: ...

    class ListOffsetsPartition(Struct):
        partition_index: int
        current_leader_epoch: int
        timestamp: int
        max_num_offsets: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            current_leader_epoch: int = ...,
            timestamp: int = ...,
            max_num_offsets: int = ...,
        ) -> None: ...

class ListOffsetsResponse(Struct):
    """API key 2 response, versions 0-11."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[ListOffsetsResponse.ListOffsetsTopicResponse]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[ListOffsetsResponse.ListOffsetsTopicResponse] = ...,
    ) -> None: ...

    class ListOffsetsTopicResponse(Struct):
        name: str
        partitions: list[ListOffsetsResponse.ListOffsetsPartitionResponse]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[ListOffsetsResponse.ListOffsetsPartitionResponse] = ...,
        ) -> None: ...

    class ListOffsetsPartitionResponse(Struct):
        partition_index: int
        error_code: int
        old_style_offsets: list[int]
        timestamp: int
        offset: int
        leader_epoch: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            old_style_offsets: list[int] = ...,
            timestamp: int = ...,
            offset: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

class ListPartitionReassignmentsRequest(Struct):
    """API key 46 request, version 0."""

    spec: ClassVar[MessageSpec]
    timeout_ms: int
    topics: list[ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics] | None
    def __init__(
        self,
        *,
        timeout_ms: int = ...,
        topics: list[ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics] | None = ...,
    ) -> None: ...

    class ListPartitionReassignmentsTopics(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            *,
            name: str = ...,
            partition_indexes: list[int] = ...,
        ) -> None: ...

class ListPartitionReassignmentsResponse(Struct):
    """API key 46 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    topics: list[ListPartitionReassignmentsResponse.OngoingTopicReassignment]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        topics: list[ListPartitionReassignmentsResponse.OngoingTopicReassignment] = ...,
    ) -> None: ...

    class OngoingTopicReassignment(Struct):
        name: str
        partitions: list[ListPartitionReassignmentsResponse.OngoingPartitionReassignment]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[ListPartitionReassignmentsResponse.OngoingPartitionReassignment] = ...,
        ) -> None: ...

    class OngoingPartitionReassignment(Struct):
        partition_index: int
        replicas: list[int]
        adding_replicas: list[int]
        removing_replicas: list[int]
        def __init__(
            self,
            *,
            partition_index: int = ...,
            replicas: list[int] = ...,
            adding_replicas: list[int] = ...,
            removing_replicas: list[int] = ...,
        ) -> None: ...

class ListTransactionsRequest(Struct):
    """API key 66 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    state_filters: list[str]
    producer_id_filters: list[int]
    duration_filter: int
    transactional_id_pattern: str | None
    def __init__(
        self,
        *,
        state_filters: list[str] = ...,
        producer_id_filters: list[int] = ...,
        duration_filter: int = ...,
        transactional_id_pattern: str | None = ...,
    ) -> None: ...

class ListTransactionsResponse(Struct):
    """API key 66 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    unknown_state_filters: list[str]
    transaction_states: list[ListTransactionsResponse.TransactionState]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        unknown_state_filters: list[str] = ...,
        transaction_states: list[ListTransactionsResponse.TransactionState] = ...,
    ) -> None: ...

    class TransactionState(Struct):
        transactional_id: str
        producer_id: int
        transaction_state: str
        def __init__(
            self,
            *,
            transactional_id: str = ...,
            producer_id: int = ...,
            transaction_state: str = ...,
        ) -> None: ...

class MetadataRequest(Struct):
    """API key 3 request, versions 0-13."""

    spec: ClassVar[MessageSpec]
    topics: list[MetadataRequest.MetadataRequestTopic] | None
    allow_auto_topic_creation: bool
    include_cluster_authorized_operations: bool
    include_topic_authorized_operations: bool
    def __init__(
        self,
        *,
        topics: list[MetadataRequest.MetadataRequestTopic] | None = ...,
        allow_auto_topic_creation: bool = ...,
        include_cluster_authorized_operations: bool = ...,
        include_topic_authorized_operations: bool = ...,
    ) -> None: ...

    class MetadataRequestTopic(Struct):
        topic_id: uuid.UUID
        name: str | None
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            name: str | None = ...,
        ) -> None: ...

class MetadataResponse(Struct):
    """API key 3 response, versions 0-13."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    brokers: list[MetadataResponse.MetadataResponseBroker]
    cluster_id: str | None
    controller_id: int
    topics: list[MetadataResponse.MetadataResponseTopic]
    cluster_authorized_operations: int
    error_code: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        brokers: list[MetadataResponse.MetadataResponseBroker] = ...,
        cluster_id: str | None = ...,
        controller_id: int = ...,
        topics: list[MetadataResponse.MetadataResponseTopic] = ...,
        cluster_authorized_operations: int = ...,
        error_code: int = ...,
    ) -> None: ...

    class MetadataResponseBroker(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
        ) -> None: ...

    class MetadataResponseTopic(Struct):
        error_code: int
        name: str | None
        topic_id: uuid.UUID
        is_internal: bool
        partitions: list[MetadataResponse.MetadataResponsePartition]
        topic_authorized_operations: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            name: str | None = ...,
            topic_id: uuid.UUID = ...,
            is_internal: bool = ...,
            partitions: list[MetadataResponse.MetadataResponsePartition] = ...,
            topic_authorized_operations: int = ...,
        ) -> None: ...

    class MetadataResponsePartition(Struct):
        error_code: int
        partition_index: int
        leader_id: int
        leader_epoch: int
        replica_nodes: list[int]
        isr_nodes: list[int]
        offline_replicas: list[int]
        def __init__(
            self,
            *,
            error_code: int = ...,
            partition_index: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            replica_nodes: list[int] = ...,
            isr_nodes: list[int] = ...,
            offline_replicas: list[int] = ...,
        ) -> None: ...

class OffsetCommitRequest(Struct):
    """API key 8 request, versions 0-10."""

    spec: ClassVar[MessageSpec]
    group_id: str
    generation_id_or_member_epoch: int
    member_id: str
    group_instance_id: str | None
    retention_time_ms: int
    topics: list[OffsetCommitRequest.OffsetCommitRequestTopic]
    def __init__(
        self,
        *,
        group_id: str = ...,
        generation_id_or_member_epoch: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        retention_time_ms: int = ...,
        topics: list[OffsetCommitRequest.OffsetCommitRequestTopic] = ...,
    ) -> None: ...

    class OffsetCommitRequestTopic(Struct):
        name: str
        partitions: list[OffsetCommitRequest.OffsetCommitRequestPartition]
        topic_id: uuid.UUID
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[OffsetCommitRequest.OffsetCommitRequestPartition] = ...,
            topic_id: uuid.UUID = ...,
        ) -> None: ...

    class OffsetCommitRequestPartition(Struct):
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        commit_timestamp: int
        committed_metadata: str | None
        def __init__(
            self,
            *,
            partition_index: int = ...,
            committed_offset: int = ...,
            committed_leader_epoch: int = ...,
            commit_timestamp: int = ...,
            committed_metadata: str | None = ...,
        ) -> None: ...

class OffsetCommitResponse(Struct):
    """API key 8 response, versions 0-10."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[OffsetCommitResponse.OffsetCommitResponseTopic]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[OffsetCommitResponse.OffsetCommitResponseTopic] = ...,
    ) -> None: ...

    class OffsetCommitResponseTopic(Struct):
        name: str
        partitions: list[OffsetCommitResponse.OffsetCommitResponsePartition]
        topic_id: uuid.UUID
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[OffsetCommitResponse.OffsetCommitResponsePartition] = ...,
            topic_id: uuid.UUID = ...,
        ) -> None: ...

    class OffsetCommitResponsePartition(Struct):
        partition_index: int
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
        ) -> None: ...

class OffsetDeleteRequest(Struct):
    """API key 47 request, version 0."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[OffsetDeleteRequest.OffsetDeleteRequestTopic]
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[OffsetDeleteRequest.OffsetDeleteRequestTopic] = ...,
    ) -> None: ...

    class OffsetDeleteRequestTopic(Struct):
        name: str
        partitions: list[OffsetDeleteRequest.OffsetDeleteRequestPartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[OffsetDeleteRequest.OffsetDeleteRequestPartition] = ...,
        ) -> None: ...

    class OffsetDeleteRequestPartition(Struct):
        partition_index: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
        ) -> None: ...

class OffsetDeleteResponse(Struct):
    """API key 47 response, version 0."""

    spec: ClassVar[MessageSpec]
    error_code: int
    throttle_time_ms: int
    topics: list[OffsetDeleteResponse.OffsetDeleteResponseTopic]
    def __init__(
        self,
        *,
        error_code: int = ...,
        throttle_time_ms: int = ...,
        topics: list[OffsetDeleteResponse.OffsetDeleteResponseTopic] = ...,
    ) -> None: ...

    class OffsetDeleteResponseTopic(Struct):
        name: str
        partitions: list[OffsetDeleteResponse.OffsetDeleteResponsePartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[OffsetDeleteResponse.OffsetDeleteResponsePartition] = ...,
        ) -> None: ...

    class OffsetDeleteResponsePartition(Struct):
        partition_index: int
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
        ) -> None: ...

class OffsetFetchRequest(Struct):
    """API key 9 request, versions 0-10."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[OffsetFetchRequest.OffsetFetchRequestTopic] | None
    groups: list[OffsetFetchRequest.OffsetFetchRequestGroup]
    require_stable: bool
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[OffsetFetchRequest.OffsetFetchRequestTopic] | None = ...,
        groups: list[OffsetFetchRequest.OffsetFetchRequestGroup] = ...,
        require_stable: bool = ...,
    ) -> None: ...

    class OffsetFetchRequestTopic(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            *,
            name: str = ...,
            partition_indexes: list[int] = ...,
        ) -> None: ...

    class OffsetFetchRequestGroup(Struct):
        group_id: str
        member_id: str | None
        member_epoch: int
        topics: list[OffsetFetchRequest.OffsetFetchRequestTopics] | None
        def __init__(
            self,
            *,
            group_id: str = ...,
            member_id: str | None = ...,
            member_epoch: int = ...,
            topics: list[OffsetFetchRequest.OffsetFetchRequestTopics] | None = ...,
        ) -> None: ...

    class OffsetFetchRequestTopics(Struct):
        name: str
        partition_indexes: list[int]
        topic_id: uuid.UUID
        def __init__(
            self,
            *,
            name: str = ...,
            partition_indexes: list[int] = ...,
            topic_id: uuid.UUID = ...,
        ) -> None: ...

class OffsetFetchResponse(Struct):
    """API key 9 response, versions 0-10."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[OffsetFetchResponse.OffsetFetchResponseTopic]
    error_code: int
    groups: list[OffsetFetchResponse.OffsetFetchResponseGroup]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[OffsetFetchResponse.OffsetFetchResponseTopic] = ...,
        error_code: int = ...,
        groups: list[OffsetFetchResponse.OffsetFetchResponseGroup] = ...,
    ) -> None: ...

    class OffsetFetchResponseTopic(Struct):
        name: str
        partitions: list[OffsetFetchResponse.OffsetFetchResponsePartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[OffsetFetchResponse.OffsetFetchResponsePartition] = ...,
        ) -> None: ...

    class OffsetFetchResponsePartition(Struct):
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        metadata: str | None
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            committed_offset: int = ...,
            committed_leader_epoch: int = ...,
            metadata: str | None = ...,
            error_code: int = ...,
        ) -> None: ...

    class OffsetFetchResponseGroup(Struct):
        group_id: str
        topics: list[OffsetFetchResponse.OffsetFetchResponseTopics]
        error_code: int
        def __init__(
            self,
            *,
            group_id: str = ...,
            topics: list[OffsetFetchResponse.OffsetFetchResponseTopics] = ...,
            error_code: int = ...,
        ) -> None: ...

    class OffsetFetchResponseTopics(Struct):
        name: str
        partitions: list[OffsetFetchResponse.OffsetFetchResponsePartitions]
        topic_id: uuid.UUID
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[OffsetFetchResponse.OffsetFetchResponsePartitions] = ...,
            topic_id: uuid.UUID = ...,
        ) -> None: ...

    class OffsetFetchResponsePartitions(Struct):
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        metadata: str | None
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            committed_offset: int = ...,
            committed_leader_epoch: int = ...,
            metadata: str | None = ...,
            error_code: int = ...,
        ) -> None: ...

class OffsetForLeaderEpochRequest(Struct):
    """API key 23 request, versions 0-4."""

    spec: ClassVar[MessageSpec]
    replica_id: int
    topics: list[OffsetForLeaderEpochRequest.OffsetForLeaderTopic]
    def __init__(
        self,
        *,
        replica_id: int = ...,
        topics: list[OffsetForLeaderEpochRequest.OffsetForLeaderTopic] = ...,
    ) -> None: ...

    class OffsetForLeaderTopic(Struct):
        topic: str
        partitions: list[OffsetForLeaderEpochRequest.OffsetForLeaderPartition]
        def __init__(
            self,
            *,
            topic: str = ...,
            partitions: list[OffsetForLeaderEpochRequest.OffsetForLeaderPartition] = ...,
        ) -> None: ...

    class OffsetForLeaderPartition(Struct):
        partition: int
        current_leader_epoch: int
        leader_epoch: int
        def __init__(
            self,
            *,
            partition: int = ...,
            current_leader_epoch: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

class OffsetForLeaderEpochResponse(Struct):
    """API key 23 response, versions 0-4."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult] = ...,
    ) -> None: ...

    class OffsetForLeaderTopicResult(Struct):
        topic: str
        partitions: list[OffsetForLeaderEpochResponse.EpochEndOffset]
        def __init__(
            self,
            *,
            topic: str = ...,
            partitions: list[OffsetForLeaderEpochResponse.EpochEndOffset] = ...,
        ) -> None: ...

    class EpochEndOffset(Struct):
        error_code: int
        partition: int
        leader_epoch: int
        end_offset: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            partition: int = ...,
            leader_epoch: int = ...,
            end_offset: int = ...,
        ) -> None: ...

class ProduceRequest(Struct):
    """API key 0 request, versions 0-13."""

    spec: ClassVar[MessageSpec]
    transactional_id: str | None
    acks: int
    timeout_ms: int
    topic_data: list[ProduceRequest.TopicProduceData]
    def __init__(
        self,
        *,
        transactional_id: str | None = ...,
        acks: int = ...,
        timeout_ms: int = ...,
        topic_data: list[ProduceRequest.TopicProduceData] = ...,
    ) -> None: ...

    class TopicProduceData(Struct):
        name: str
        partition_data: list[ProduceRequest.PartitionProduceData]
        topic_id: uuid.UUID
        def __init__(
            self,
            *,
            name: str = ...,
            partition_data: list[ProduceRequest.PartitionProduceData] = ...,
            topic_id: uuid.UUID = ...,
        ) -> None: ...

    class PartitionProduceData(Struct):
        index: int
        records: bytes | memoryview | None
        def __init__(
            self,
            *,
            index: int = ...,
            records: ReadableBuffer | None = ...,
        ) -> None: ...

class ProduceResponse(Struct):
    """API key 0 response, versions 0-13."""

    spec: ClassVar[MessageSpec]
    responses: list[ProduceResponse.TopicProduceResponse]
    throttle_time_ms: int
    node_endpoints: list[ProduceResponse.NodeEndpoint]
    def __init__(
        self,
        *,
        responses: list[ProduceResponse.TopicProduceResponse] = ...,
        throttle_time_ms: int = ...,
        node_endpoints: list[ProduceResponse.NodeEndpoint] = ...,
    ) -> None: ...

    class TopicProduceResponse(Struct):
        name: str
        partition_responses: list[ProduceResponse.PartitionProduceResponse]
        topic_id: uuid.UUID
        def __init__(
            self,
            *,
            name: str = ...,
            partition_responses: list[ProduceResponse.PartitionProduceResponse] = ...,
            topic_id: uuid.UUID = ...,
        ) -> None: ...

    class PartitionProduceResponse(Struct):
        index: int
        error_code: int
        base_offset: int
        log_append_time_ms: int
        log_start_offset: int
        record_errors: list[ProduceResponse.BatchIndexAndErrorMessage]
        error_message: str | None
        current_leader: ProduceResponse.LeaderIdAndEpoch
        def __init__(
            self,
            *,
            index: int = ...,
            error_code: int = ...,
            base_offset: int = ...,
            log_append_time_ms: int = ...,
            log_start_offset: int = ...,
            record_errors: list[ProduceResponse.BatchIndexAndErrorMessage] = ...,
            error_message: str | None = ...,
            current_leader: ProduceResponse.LeaderIdAndEpoch = ...,
        ) -> None: ...

    class BatchIndexAndErrorMessage(Struct):
        batch_index: int
        batch_index_error_message: str | None
        def __init__(
            self,
            *,
            batch_index: int = ...,
            batch_index_error_message: str | None = ...,
        ) -> None: ...

    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            *,
            leader_id: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
        ) -> None: ...

class PushTelemetryRequest(Struct):
    """API key 72 request, version 0."""

    spec: ClassVar[MessageSpec]
    client_instance_id: uuid.UUID
    subscription_id: int
    terminating: bool
    compression_type: int
    metrics: bytes
    def __init__(
        self,
        *,
        client_instance_id: uuid.UUID = ...,
        subscription_id: int = ...,
        terminating: bool = ...,
        compression_type: int = ...,
        metrics: ReadableBuffer = ...,
    ) -> None: ...

class PushTelemetryResponse(Struct):
    """API key 72 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
    ) -> None: ...

class ReadShareGroupStateRequest(Struct):
    """API key 84 request, version 0."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[ReadShareGroupStateRequest.ReadStateData]
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[ReadShareGroupStateRequest.ReadStateData] = ...,
    ) -> None: ...

    class ReadStateData(Struct):
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[ReadShareGroupStateRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition: int
        leader_epoch: int
        def __init__(
            self,
            *,
            partition: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

class ReadShareGroupStateResponse(Struct):
    """API key 84 response, version 0."""

    spec: ClassVar[MessageSpec]
    results: list[ReadShareGroupStateResponse.ReadStateResult]
    def __init__(
        self,
        *,
        results: list[ReadShareGroupStateResponse.ReadStateResult] = ...,
    ) -> None: ...

    class ReadStateResult(Struct):
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateResponse.PartitionResult]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[ReadShareGroupStateResponse.PartitionResult] = ...,
        ) -> None: ...

    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        state_epoch: int
        start_offset: int
        state_batches: list[ReadShareGroupStateResponse.StateBatch]
        def __init__(
            self,
            *,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            state_epoch: int = ...,
            start_offset: int = ...,
            state_batches: list[ReadShareGroupStateResponse.StateBatch] = ...,
        ) -> None: ...

    class StateBatch(Struct):
        first_offset: int
        last_offset: int
        delivery_state: int
        delivery_count: int
        def __init__(
            self,
            *,
            first_offset: int = ...,
            last_offset: int = ...,
            delivery_state: int = ...,
            delivery_count: int = ...,
        ) -> None: ...

class ReadShareGroupStateSummaryRequest(Struct):
    """API key 87 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[ReadShareGroupStateSummaryRequest.ReadStateSummaryData]
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[ReadShareGroupStateSummaryRequest.ReadStateSummaryData] = ...,
    ) -> None: ...

    class ReadStateSummaryData(Struct):
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateSummaryRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[ReadShareGroupStateSummaryRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition: int
        leader_epoch: int
        def __init__(
            self,
            *,
            partition: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

class ReadShareGroupStateSummaryResponse(Struct):
    """API key 87 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    results: list[ReadShareGroupStateSummaryResponse.ReadStateSummaryResult]
    def __init__(
        self,
        *,
        results: list[ReadShareGroupStateSummaryResponse.ReadStateSummaryResult] = ...,
    ) -> None: ...

    class ReadStateSummaryResult(Struct):
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateSummaryResponse.PartitionResult]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[ReadShareGroupStateSummaryResponse.PartitionResult] = ...,
        ) -> None: ...

    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        state_epoch: int
        leader_epoch: int
        start_offset: int
        delivery_complete_count: int
        def __init__(
            self,
            *,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            state_epoch: int = ...,
            leader_epoch: int = ...,
            start_offset: int = ...,
            delivery_complete_count: int = ...,
        ) -> None: ...

class RemoveRaftVoterRequest(Struct):
    """API key 81 request, version 0."""

    spec: ClassVar[MessageSpec]
    cluster_id: str | None
    voter_id: int
    voter_directory_id: uuid.UUID
    def __init__(
        self,
        *,
        cluster_id: str | None = ...,
        voter_id: int = ...,
        voter_directory_id: uuid.UUID = ...,
    ) -> None: ...

class RemoveRaftVoterResponse(Struct):
    """API key 81 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
    ) -> None: ...

class RenewDelegationTokenRequest(Struct):
    """API key 39 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    hmac: bytes
    renew_period_ms: int
    def __init__(
        self,
        *,
        hmac: ReadableBuffer = ...,
        renew_period_ms: int = ...,
    ) -> None: ...

class RenewDelegationTokenResponse(Struct):
    """API key 39 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    error_code: int
    expiry_timestamp_ms: int
    throttle_time_ms: int
    def __init__(
        self,
        *,
        error_code: int = ...,
        expiry_timestamp_ms: int = ...,
        throttle_time_ms: int = ...,
    ) -> None: ...

class RequestHeader(Struct):
    """Header, versions 0-2."""

    spec: ClassVar[MessageSpec]
    request_api_key: int
    request_api_version: int
    correlation_id: int
    client_id: str | None
    def __init__(
        self,
        *,
        request_api_key: int = ...,
        request_api_version: int = ...,
        correlation_id: int = ...,
        client_id: str | None = ...,
    ) -> None: ...

class ResponseHeader(Struct):
    """Header, versions 0-1."""

    spec: ClassVar[MessageSpec]
    correlation_id: int
    def __init__(
        self,
        *,
        correlation_id: int = ...,
    ) -> None: ...

class SaslAuthenticateRequest(Struct):
    """API key 36 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    auth_bytes: bytes
    def __init__(
        self,
        *,
        auth_bytes: ReadableBuffer = ...,
    ) -> None: ...

class SaslAuthenticateResponse(Struct):
    """API key 36 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    error_code: int
    error_message: str | None
    auth_bytes: bytes
    session_lifetime_ms: int
    def __init__(
        self,
        *,
        error_code: int = ...,
        error_message: str | None = ...,
        auth_bytes: ReadableBuffer = ...,
        session_lifetime_ms: int = ...,
    ) -> None: ...

class SaslHandshakeRequest(Struct):
    """API key 17 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    mechanism: str
    def __init__(
        self,
        *,
        mechanism: str = ...,
    ) -> None: ...

class SaslHandshakeResponse(Struct):
    """API key 17 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    error_code: int
    mechanisms: list[str]
    def __init__(
        self,
        *,
        error_code: int = ...,
        mechanisms: list[str] = ...,
    ) -> None: ...

class ShareAcknowledgeRequest(Struct):
    """API key 79 request, versions 1-2."""

    spec: ClassVar[MessageSpec]
    group_id: str | None
    member_id: str | None
    share_session_epoch: int
    is_renew_ack: bool
    topics: list[ShareAcknowledgeRequest.AcknowledgeTopic]
    def __init__(
        self,
        *,
        group_id: str | None = ...,
        member_id: str | None = ...,
        share_session_epoch: int = ...,
        is_renew_ack: bool = ...,
        topics: list[ShareAcknowledgeRequest.AcknowledgeTopic] = ...,
    ) -> None: ...

    class AcknowledgeTopic(Struct):
        topic_id: uuid.UUID
        partitions: list[ShareAcknowledgeRequest.AcknowledgePartition]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[ShareAcknowledgeRequest.AcknowledgePartition] = ...,
        ) -> None: ...

    class AcknowledgePartition(Struct):
        partition_index: int
        acknowledgement_batches: list[ShareAcknowledgeRequest.AcknowledgementBatch]
        def __init__(
            self,
            *,
            partition_index: int = ...,
            acknowledgement_batches: list[ShareAcknowledgeRequest.AcknowledgementBatch] = ...,
        ) -> None: ...

    class AcknowledgementBatch(Struct):
        first_offset: int
        last_offset: int
        acknowledge_types: list[int]
        def __init__(
            self,
            *,
            first_offset: int = ...,
            last_offset: int = ...,
            acknowledge_types: list[int] = ...,
        ) -> None: ...

class ShareAcknowledgeResponse(Struct):
    """API key 79 response, versions 1-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    acquisition_lock_timeout_ms: int
    responses: list[ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse]
    node_endpoints: list[ShareAcknowledgeResponse.NodeEndpoint]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        acquisition_lock_timeout_ms: int = ...,
        responses: list[ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse] = ...,
        node_endpoints: list[ShareAcknowledgeResponse.NodeEndpoint] = ...,
    ) -> None: ...

    class ShareAcknowledgeTopicResponse(Struct):
        topic_id: uuid.UUID
        partitions: list[ShareAcknowledgeResponse.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[ShareAcknowledgeResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        current_leader: ShareAcknowledgeResponse.LeaderIdAndEpoch
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            current_leader: ShareAcknowledgeResponse.LeaderIdAndEpoch = ...,
        ) -> None: ...

    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            *,
            leader_id: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
        ) -> None: ...

class ShareFetchRequest(Struct):
    """API key 78 request, versions 1-2."""

    spec: ClassVar[MessageSpec]
    group_id: str | None
    member_id: str | None
    share_session_epoch: int
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    max_records: int
    batch_size: int
    share_acquire_mode: int
    is_renew_ack: bool
    topics: list[ShareFetchRequest.FetchTopic]
    forgotten_topics_data: list[ShareFetchRequest.ForgottenTopic]
    def __init__(
        self,
        *,
        group_id: str | None = ...,
        member_id: str | None = ...,
        share_session_epoch: int = ...,
        max_wait_ms: int = ...,
        min_bytes: int = ...,
        max_bytes: int = ...,
        max_records: int = ...,
        batch_size: int = ...,
        share_acquire_mode: int = ...,
        is_renew_ack: bool = ...,
        topics: list[ShareFetchRequest.FetchTopic] = ...,
        forgotten_topics_data: list[ShareFetchRequest.ForgottenTopic] = ...,
    ) -> None: ...

    class FetchTopic(Struct):
        topic_id: uuid.UUID
        partitions: list[ShareFetchRequest.FetchPartition]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[ShareFetchRequest.FetchPartition] = ...,
        ) -> None: ...

    class FetchPartition(Struct):
        partition_index: int
        partition_max_bytes: int
        acknowledgement_batches: list[ShareFetchRequest.AcknowledgementBatch]
        def __init__(
            self,
            *,
            partition_index: int = ...,
            partition_max_bytes: int = ...,
            acknowledgement_batches: list[ShareFetchRequest.AcknowledgementBatch] = ...,
        ) -> None: ...

    class AcknowledgementBatch(Struct):
        first_offset: int
        last_offset: int
        acknowledge_types: list[int]
        def __init__(
            self,
            *,
            first_offset: int = ...,
            last_offset: int = ...,
            acknowledge_types: list[int] = ...,
        ) -> None: ...

    class ForgottenTopic(Struct):
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class ShareFetchResponse(Struct):
    """API key 78 response, versions 1-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    acquisition_lock_timeout_ms: int
    responses: list[ShareFetchResponse.ShareFetchableTopicResponse]
    node_endpoints: list[ShareFetchResponse.NodeEndpoint]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        acquisition_lock_timeout_ms: int = ...,
        responses: list[ShareFetchResponse.ShareFetchableTopicResponse] = ...,
        node_endpoints: list[ShareFetchResponse.NodeEndpoint] = ...,
    ) -> None: ...

    class ShareFetchableTopicResponse(Struct):
        topic_id: uuid.UUID
        partitions: list[ShareFetchResponse.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[ShareFetchResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        error_message: str | None
        acknowledge_error_code: int
        acknowledge_error_message: str | None
        current_leader: ShareFetchResponse.LeaderIdAndEpoch
        records: bytes | memoryview | None
        acquired_records: list[ShareFetchResponse.AcquiredRecords]
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            acknowledge_error_code: int = ...,
            acknowledge_error_message: str | None = ...,
            current_leader: ShareFetchResponse.LeaderIdAndEpoch = ...,
            records: ReadableBuffer | None = ...,
            acquired_records: list[ShareFetchResponse.AcquiredRecords] = ...,
        ) -> None: ...

    class LeaderIdAndEpoch(Struct):
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            *,
            leader_id: int = ...,
            leader_epoch: int = ...,
        ) -> None: ...

    class AcquiredRecords(Struct):
        first_offset: int
        last_offset: int
        delivery_count: int
        def __init__(
            self,
            *,
            first_offset: int = ...,
            last_offset: int = ...,
            delivery_count: int = ...,
        ) -> None: ...

    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
        ) -> None: ...

class ShareGroupDescribeRequest(Struct):
    """API key 77 request, version 1."""

    spec: ClassVar[MessageSpec]
    group_ids: list[str]
    include_authorized_operations: bool
    def __init__(
        self,
        *,
        group_ids: list[str] = ...,
        include_authorized_operations: bool = ...,
    ) -> None: ...

class ShareGroupDescribeResponse(Struct):
    """API key 77 response, version 1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    groups: list[ShareGroupDescribeResponse.DescribedGroup]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        groups: list[ShareGroupDescribeResponse.DescribedGroup] = ...,
    ) -> None: ...

    class DescribedGroup(Struct):
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        group_epoch: int
        assignment_epoch: int
        assignor_name: str
        members: list[ShareGroupDescribeResponse.Member]
        authorized_operations: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            group_id: str = ...,
            group_state: str = ...,
            group_epoch: int = ...,
            assignment_epoch: int = ...,
            assignor_name: str = ...,
            members: list[ShareGroupDescribeResponse.Member] = ...,
            authorized_operations: int = ...,
        ) -> None: ...

    class Member(Struct):
        member_id: str
        rack_id: str | None
        member_epoch: int
        client_id: str
        client_host: str
        subscribed_topic_names: list[str]
        assignment: ShareGroupDescribeResponse.Assignment
        def __init__(
            self,
            *,
            member_id: str = ...,
            rack_id: str | None = ...,
            member_epoch: int = ...,
            client_id: str = ...,
            client_host: str = ...,
            subscribed_topic_names: list[str] = ...,
            assignment: ShareGroupDescribeResponse.Assignment = ...,
        ) -> None: ...

    class Assignment(Struct):
        topic_partitions: list[ShareGroupDescribeResponse.TopicPartitions]
        def __init__(
            self,
            *,
            topic_partitions: list[ShareGroupDescribeResponse.TopicPartitions] = ...,
        ) -> None: ...

    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        topic_name: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            topic_name: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class ShareGroupHeartbeatRequest(Struct):
    """API key 76 request, version 1."""

    spec: ClassVar[MessageSpec]
    group_id: str
    member_id: str
    member_epoch: int
    rack_id: str | None
    subscribed_topic_names: list[str] | None
    def __init__(
        self,
        *,
        group_id: str = ...,
        member_id: str = ...,
        member_epoch: int = ...,
        rack_id: str | None = ...,
        subscribed_topic_names: list[str] | None = ...,
    ) -> None: ...

class ShareGroupHeartbeatResponse(Struct):
    """API key 76 response, version 1."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: ShareGroupHeartbeatResponse.Assignment | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        member_id: str | None = ...,
        member_epoch: int = ...,
        heartbeat_interval_ms: int = ...,
        assignment: ShareGroupHeartbeatResponse.Assignment | None = ...,
    ) -> None: ...

    class Assignment(Struct):
        topic_partitions: list[ShareGroupHeartbeatResponse.TopicPartitions]
        def __init__(
            self,
            *,
            topic_partitions: list[ShareGroupHeartbeatResponse.TopicPartitions] = ...,
        ) -> None: ...

    class TopicPartitions(Struct):
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class SnapshotFooterRecord(Struct):
    """Data, version 0."""

    spec: ClassVar[MessageSpec]
    version: int
    def __init__(
        self,
        *,
        version: int = ...,
    ) -> None: ...

class SnapshotHeaderRecord(Struct):
    """Data, version 0."""

    spec: ClassVar[MessageSpec]
    version: int
    last_contained_log_timestamp: int
    def __init__(
        self,
        *,
        version: int = ...,
        last_contained_log_timestamp: int = ...,
    ) -> None: ...

class StopReplicaRequest(Struct):
    """API key 5 request, versions 0-4."""

    spec: ClassVar[MessageSpec]
    controller_id: int
    is_k_raft_controller: bool
    controller_epoch: int
    broker_epoch: int
    delete_partitions: bool
    ungrouped_partitions: list[StopReplicaRequest.StopReplicaPartitionV0]
    topics: list[StopReplicaRequest.StopReplicaTopicV1]
    topic_states: list[StopReplicaRequest.StopReplicaTopicState]
    def __init__(
        self,
        *,
        controller_id: int = ...,
        is_k_raft_controller: bool = ...,
        controller_epoch: int = ...,
        broker_epoch: int = ...,
        delete_partitions: bool = ...,
        ungrouped_partitions: list[StopReplicaRequest.StopReplicaPartitionV0] = ...,
        topics: list[StopReplicaRequest.StopReplicaTopicV1] = ...,
        topic_states: list[StopReplicaRequest.StopReplicaTopicState] = ...,
    ) -> None: ...

    class StopReplicaPartitionV0(Struct):
        topic_name: str
        partition_index: int
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_index: int = ...,
        ) -> None: ...

    class StopReplicaTopicV1(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            *,
            name: str = ...,
            partition_indexes: list[int] = ...,
        ) -> None: ...

    class StopReplicaTopicState(Struct):
        topic_name: str
        partition_states: list[StopReplicaRequest.StopReplicaPartitionState]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_states: list[StopReplicaRequest.StopReplicaPartitionState] = ...,
        ) -> None: ...

    class StopReplicaPartitionState(Struct):
        partition_index: int
        leader_epoch: int
        delete_partition: bool
        def __init__(
            self,
            *,
            partition_index: int = ...,
            leader_epoch: int = ...,
            delete_partition: bool = ...,
        ) -> None: ...

class StopReplicaResponse(Struct):
    """API key 5 response, versions 0-4."""

    spec: ClassVar[MessageSpec]
    error_code: int
    partition_errors: list[StopReplicaResponse.StopReplicaPartitionError]
    def __init__(
        self,
        *,
        error_code: int = ...,
        partition_errors: list[StopReplicaResponse.StopReplicaPartitionError] = ...,
    ) -> None: ...

    class StopReplicaPartitionError(Struct):
        topic_name: str
        partition_index: int
        error_code: int
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_index: int = ...,
            error_code: int = ...,
        ) -> None: ...

class StreamsGroupDescribeRequest(Struct):
    """API key 89 request, version 0."""

    spec: ClassVar[MessageSpec]
    group_ids: list[str]
    include_authorized_operations: bool
    def __init__(
        self,
        *,
        group_ids: list[str] = ...,
        include_authorized_operations: bool = ...,
    ) -> None: ...

class StreamsGroupDescribeResponse(Struct):
    """API key 89 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    groups: list[StreamsGroupDescribeResponse.DescribedGroup]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        groups: list[StreamsGroupDescribeResponse.DescribedGroup] = ...,
    ) -> None: ...

    class DescribedGroup(Struct):
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        group_epoch: int
        assignment_epoch: int
        topology: StreamsGroupDescribeResponse.Topology | None
        members: list[StreamsGroupDescribeResponse.Member]
        authorized_operations: int
        def __init__(
            self,
            *,
            error_code: int = ...,
            error_message: str | None = ...,
            group_id: str = ...,
            group_state: str = ...,
            group_epoch: int = ...,
            assignment_epoch: int = ...,
            topology: StreamsGroupDescribeResponse.Topology | None = ...,
            members: list[StreamsGroupDescribeResponse.Member] = ...,
            authorized_operations: int = ...,
        ) -> None: ...

    class Topology(Struct):
        epoch: int
        subtopologies: list[StreamsGroupDescribeResponse.Subtopology] | None
        def __init__(
            self,
            *,
            epoch: int = ...,
            subtopologies: list[StreamsGroupDescribeResponse.Subtopology] | None = ...,
        ) -> None: ...

    class Subtopology(Struct):
        subtopology_id: str
        source_topics: list[str]
        repartition_sink_topics: list[str]
        state_changelog_topics: list[StreamsGroupDescribeResponse.TopicInfo]
        repartition_source_topics: list[StreamsGroupDescribeResponse.TopicInfo]
        def __init__(
            self,
            *,
            subtopology_id: str = ...,
            source_topics: list[str] = ...,
            repartition_sink_topics: list[str] = ...,
            state_changelog_topics: list[StreamsGroupDescribeResponse.TopicInfo] = ...,
            repartition_source_topics: list[StreamsGroupDescribeResponse.TopicInfo] = ...,
        ) -> None: ...

    class TopicInfo(Struct):
        name: str
        partitions: int
        replication_factor: int
        topic_configs: list[StreamsGroupDescribeResponse.KeyValue]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: int = ...,
            replication_factor: int = ...,
            topic_configs: list[StreamsGroupDescribeResponse.KeyValue] = ...,
        ) -> None: ...

    class KeyValue(Struct):
        key: str
        value: str
        def __init__(
            self,
            *,
            key: str = ...,
            value: str = ...,
        ) -> None: ...

    class Member(Struct):
        member_id: str
        member_epoch: int
        instance_id: str | None
        rack_id: str | None
        client_id: str
        client_host: str
        topology_epoch: int
        process_id: str
        user_endpoint: StreamsGroupDescribeResponse.Endpoint | None
        client_tags: list[StreamsGroupDescribeResponse.KeyValue]
        task_offsets: list[StreamsGroupDescribeResponse.TaskOffset]
        task_end_offsets: list[StreamsGroupDescribeResponse.TaskOffset]
        assignment: StreamsGroupDescribeResponse.Assignment
        target_assignment: StreamsGroupDescribeResponse.Assignment
        is_classic: bool
        def __init__(
            self,
            *,
            member_id: str = ...,
            member_epoch: int = ...,
            instance_id: str | None = ...,
            rack_id: str | None = ...,
            client_id: str = ...,
            client_host: str = ...,
            topology_epoch: int = ...,
            process_id: str = ...,
            user_endpoint: StreamsGroupDescribeResponse.Endpoint | None = ...,
            client_tags: list[StreamsGroupDescribeResponse.KeyValue] = ...,
            task_offsets: list[StreamsGroupDescribeResponse.TaskOffset] = ...,
            task_end_offsets: list[StreamsGroupDescribeResponse.TaskOffset] = ...,
            assignment: StreamsGroupDescribeResponse.Assignment = ...,
            target_assignment: StreamsGroupDescribeResponse.Assignment = ...,
            is_classic: bool = ...,
        ) -> None: ...

    class Endpoint(Struct):
        host: str
        port: int
        def __init__(
            self,
            *,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

    class TaskOffset(Struct):
        subtopology_id: str
        partition: int
        offset: int
        def __init__(
            self,
            *,
            subtopology_id: str = ...,
            partition: int = ...,
            offset: int = ...,
        ) -> None: ...

    class Assignment(Struct):
        active_tasks: list[StreamsGroupDescribeResponse.TaskIds]
        standby_tasks: list[StreamsGroupDescribeResponse.TaskIds]
        warmup_tasks: list[StreamsGroupDescribeResponse.TaskIds]
        def __init__(
            self,
            *,
            active_tasks: list[StreamsGroupDescribeResponse.TaskIds] = ...,
            standby_tasks: list[StreamsGroupDescribeResponse.TaskIds] = ...,
            warmup_tasks: list[StreamsGroupDescribeResponse.TaskIds] = ...,
        ) -> None: ...

    class TaskIds(Struct):
        subtopology_id: str
        partitions: list[int]
        def __init__(
            self,
            *,
            subtopology_id: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class StreamsGroupHeartbeatRequest(Struct):
    """API key 88 request, version 0."""

    spec: ClassVar[MessageSpec]
    group_id: str
    member_id: str
    member_epoch: int
    endpoint_information_epoch: int
    instance_id: str | None
    rack_id: str | None
    rebalance_timeout_ms: int
    topology: StreamsGroupHeartbeatRequest.Topology | None
    active_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None
    standby_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None
    warmup_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None
    process_id: str | None
    user_endpoint: StreamsGroupHeartbeatRequest.Endpoint | None
    client_tags: list[StreamsGroupHeartbeatRequest.KeyValue] | None
    task_offsets: list[StreamsGroupHeartbeatRequest.TaskOffset] | None
    task_end_offsets: list[StreamsGroupHeartbeatRequest.TaskOffset] | None
    shutdown_application: bool
    def __init__(
        self,
        *,
        group_id: str = ...,
        member_id: str = ...,
        member_epoch: int = ...,
        endpoint_information_epoch: int = ...,
        instance_id: str | None = ...,
        rack_id: str | None = ...,
        rebalance_timeout_ms: int = ...,
        topology: StreamsGroupHeartbeatRequest.Topology | None = ...,
        active_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None = ...,
        standby_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None = ...,
        warmup_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None = ...,
        process_id: str | None = ...,
        user_endpoint: StreamsGroupHeartbeatRequest.Endpoint | None = ...,
        client_tags: list[StreamsGroupHeartbeatRequest.KeyValue] | None = ...,
        task_offsets: list[StreamsGroupHeartbeatRequest.TaskOffset] | None = ...,
        task_end_offsets: list[StreamsGroupHeartbeatRequest.TaskOffset] | None = ...,
        shutdown_application: bool = ...,
    ) -> None: ...

    class Topology(Struct):
        epoch: int
        subtopologies: list[StreamsGroupHeartbeatRequest.Subtopology]
        def __init__(
            self,
            *,
            epoch: int = ...,
            subtopologies: list[StreamsGroupHeartbeatRequest.Subtopology] = ...,
        ) -> None: ...

    class Subtopology(Struct):
        subtopology_id: str
        source_topics: list[str]
        source_topic_regex: list[str]
        state_changelog_topics: list[StreamsGroupHeartbeatRequest.TopicInfo]
        repartition_sink_topics: list[str]
        repartition_source_topics: list[StreamsGroupHeartbeatRequest.TopicInfo]
        copartition_groups: list[StreamsGroupHeartbeatRequest.CopartitionGroup]
        def __init__(
            self,
            *,
            subtopology_id: str = ...,
            source_topics: list[str] = ...,
            source_topic_regex: list[str] = ...,
            state_changelog_topics: list[StreamsGroupHeartbeatRequest.TopicInfo] = ...,
            repartition_sink_topics: list[str] = ...,
            repartition_source_topics: list[StreamsGroupHeartbeatRequest.TopicInfo] = ...,
            copartition_groups: list[StreamsGroupHeartbeatRequest.CopartitionGroup] = ...,
        ) -> None: ...

    class TopicInfo(Struct):
        name: str
        partitions: int
        replication_factor: int
        topic_configs: list[StreamsGroupHeartbeatRequest.KeyValue]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: int = ...,
            replication_factor: int = ...,
            topic_configs: list[StreamsGroupHeartbeatRequest.KeyValue] = ...,
        ) -> None: ...

    class KeyValue(Struct):
        key: str
        value: str
        def __init__(
            self,
            *,
            key: str = ...,
            value: str = ...,
        ) -> None: ...

    class CopartitionGroup(Struct):
        source_topics: list[int]
        source_topic_regex: list[int]
        repartition_source_topics: list[int]
        def __init__(
            self,
            *,
            source_topics: list[int] = ...,
            source_topic_regex: list[int] = ...,
            repartition_source_topics: list[int] = ...,
        ) -> None: ...

    class TaskIds(Struct):
        subtopology_id: str
        partitions: list[int]
        def __init__(
            self,
            *,
            subtopology_id: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

    class Endpoint(Struct):
        host: str
        port: int
        def __init__(
            self,
            *,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

    class TaskOffset(Struct):
        subtopology_id: str
        partition: int
        offset: int
        def __init__(
            self,
            *,
            subtopology_id: str = ...,
            partition: int = ...,
            offset: int = ...,
        ) -> None: ...

class StreamsGroupHeartbeatResponse(Struct):
    """API key 88 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str
    member_epoch: int
    heartbeat_interval_ms: int
    acceptable_recovery_lag: int
    task_offset_interval_ms: int
    status: list[StreamsGroupHeartbeatResponse.Status] | None
    active_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None
    standby_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None
    warmup_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None
    endpoint_information_epoch: int
    partitions_by_user_endpoint: list[StreamsGroupHeartbeatResponse.EndpointToPartitions] | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        member_id: str = ...,
        member_epoch: int = ...,
        heartbeat_interval_ms: int = ...,
        acceptable_recovery_lag: int = ...,
        task_offset_interval_ms: int = ...,
        status: list[StreamsGroupHeartbeatResponse.Status] | None = ...,
        active_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None = ...,
        standby_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None = ...,
        warmup_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None = ...,
        endpoint_information_epoch: int = ...,
        partitions_by_user_endpoint: list[StreamsGroupHeartbeatResponse.EndpointToPartitions] | None = ...,
    ) -> None: ...

    class Status(Struct):
        status_code: int
        status_detail: str
        def __init__(
            self,
            *,
            status_code: int = ...,
            status_detail: str = ...,
        ) -> None: ...

    class TaskIds(Struct):
        subtopology_id: str
        partitions: list[int]
        def __init__(
            self,
            *,
            subtopology_id: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

    class EndpointToPartitions(Struct):
        user_endpoint: StreamsGroupHeartbeatResponse.Endpoint
        active_partitions: list[StreamsGroupHeartbeatResponse.TopicPartition]
        standby_partitions: list[StreamsGroupHeartbeatResponse.TopicPartition]
        def __init__(
            self,
            *,
            user_endpoint: StreamsGroupHeartbeatResponse.Endpoint = ...,
            active_partitions: list[StreamsGroupHeartbeatResponse.TopicPartition] = ...,
            standby_partitions: list[StreamsGroupHeartbeatResponse.TopicPartition] = ...,
        ) -> None: ...

    class Endpoint(Struct):
        host: str
        port: int
        def __init__(
            self,
            *,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

    class TopicPartition(Struct):
        topic: str
        partitions: list[int]
        def __init__(
            self,
            *,
            topic: str = ...,
            partitions: list[int] = ...,
        ) -> None: ...

class SyncGroupRequest(Struct):
    """API key 14 request, versions 0-5."""

    spec: ClassVar[MessageSpec]
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str | None
    protocol_name: str | None
    assignments: list[SyncGroupRequest.SyncGroupRequestAssignment]
    def __init__(
        self,
        *,
        group_id: str = ...,
        generation_id: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        protocol_type: str | None = ...,
        protocol_name: str | None = ...,
        assignments: list[SyncGroupRequest.SyncGroupRequestAssignment] = ...,
    ) -> None: ...

    class SyncGroupRequestAssignment(Struct):
        member_id: str
        assignment: bytes
        def __init__(
            self,
            *,
            member_id: str = ...,
            assignment: ReadableBuffer = ...,
        ) -> None: ...

class SyncGroupResponse(Struct):
    """API key 14 response, versions 0-5."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    protocol_type: str | None
    protocol_name: str | None
    assignment: bytes
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        protocol_type: str | None = ...,
        protocol_name: str | None = ...,
        assignment: ReadableBuffer = ...,
    ) -> None: ...

class TxnOffsetCommitRequest(Struct):
    """API key 28 request, versions 0-5."""

    spec: ClassVar[MessageSpec]
    transactional_id: str
    group_id: str
    producer_id: int
    producer_epoch: int
    generation_id: int
    member_id: str
    group_instance_id: str | None
    topics: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic]
    def __init__(
        self,
        *,
        transactional_id: str = ...,
        group_id: str = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        generation_id: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        topics: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic] = ...,
    ) -> None: ...

    class TxnOffsetCommitRequestTopic(Struct):
        name: str
        partitions: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition] = ...,
        ) -> None: ...

    class TxnOffsetCommitRequestPartition(Struct):
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        committed_metadata: str | None
        def __init__(
            self,
            *,
            partition_index: int = ...,
            committed_offset: int = ...,
            committed_leader_epoch: int = ...,
            committed_metadata: str | None = ...,
        ) -> None: ...

class TxnOffsetCommitResponse(Struct):
    """API key 28 response, versions 0-5."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    topics: list[TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        topics: list[TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic] = ...,
    ) -> None: ...

    class TxnOffsetCommitResponseTopic(Struct):
        name: str
        partitions: list[TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition] = ...,
        ) -> None: ...

    class TxnOffsetCommitResponsePartition(Struct):
        partition_index: int
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
        ) -> None: ...

class UnregisterBrokerRequest(Struct):
    """API key 64 request, version 0."""

    spec: ClassVar[MessageSpec]
    broker_id: int
    def __init__(
        self,
        *,
        broker_id: int = ...,
    ) -> None: ...

class UnregisterBrokerResponse(Struct):
    """API key 64 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
    ) -> None: ...

class UpdateFeaturesRequest(Struct):
    """API key 57 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    timeout_ms: int
    feature_updates: list[UpdateFeaturesRequest.FeatureUpdateKey]
    validate_only: bool
    def __init__(
        self,
        *,
        timeout_ms: int = ...,
        feature_updates: list[UpdateFeaturesRequest.FeatureUpdateKey] = ...,
        validate_only: bool = ...,
    ) -> None: ...

    class FeatureUpdateKey(Struct):
        feature: str
        max_version_level: int
        allow_downgrade: bool
        upgrade_type: int
        def __init__(
            self,
            *,
            feature: str = ...,
            max_version_level: int = ...,
            allow_downgrade: bool = ...,
            upgrade_type: int = ...,
        ) -> None: ...

class UpdateFeaturesResponse(Struct):
    """API key 57 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    results: list[UpdateFeaturesResponse.UpdatableFeatureResult]
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        results: list[UpdateFeaturesResponse.UpdatableFeatureResult] = ...,
    ) -> None: ...

    class UpdatableFeatureResult(Struct):
        feature: str
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            feature: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class UpdateMetadataRequest(Struct):
    """API key 6 request, versions 0-8."""

    spec: ClassVar[MessageSpec]
    controller_id: int
    is_k_raft_controller: bool
    type: int
    controller_epoch: int
    broker_epoch: int
    ungrouped_partition_states: list[UpdateMetadataRequest.UpdateMetadataPartitionState]
    topic_states: list[UpdateMetadataRequest.UpdateMetadataTopicState]
    live_brokers: list[UpdateMetadataRequest.UpdateMetadataBroker]
    def __init__(
        self,
        *,
        controller_id: int = ...,
        is_k_raft_controller: bool = ...,
        type: int = ...,
        controller_epoch: int = ...,
        broker_epoch: int = ...,
        ungrouped_partition_states: list[UpdateMetadataRequest.UpdateMetadataPartitionState] = ...,
        topic_states: list[UpdateMetadataRequest.UpdateMetadataTopicState] = ...,
        live_brokers: list[UpdateMetadataRequest.UpdateMetadataBroker] = ...,
    ) -> None: ...

    class UpdateMetadataPartitionState(Struct):
        topic_name: str
        partition_index: int
        controller_epoch: int
        leader: int
        leader_epoch: int
        isr: list[int]
        zk_version: int
        replicas: list[int]
        offline_replicas: list[int]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partition_index: int = ...,
            controller_epoch: int = ...,
            leader: int = ...,
            leader_epoch: int = ...,
            isr: list[int] = ...,
            zk_version: int = ...,
            replicas: list[int] = ...,
            offline_replicas: list[int] = ...,
        ) -> None: ...

    class UpdateMetadataTopicState(Struct):
        topic_name: str
        topic_id: uuid.UUID
        partition_states: list[UpdateMetadataRequest.UpdateMetadataPartitionState]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            partition_states: list[UpdateMetadataRequest.UpdateMetadataPartitionState] = ...,
        ) -> None: ...

    class UpdateMetadataBroker(Struct):
        id: int
        v0_host: str
        v0_port: int
        endpoints: list[UpdateMetadataRequest.UpdateMetadataEndpoint]
        rack: str | None
        def __init__(
            self,
            *,
            id: int = ...,
            v0_host: str = ...,
            v0_port: int = ...,
            endpoints: list[UpdateMetadataRequest.UpdateMetadataEndpoint] = ...,
            rack: str | None = ...,
        ) -> None: ...

    class UpdateMetadataEndpoint(Struct):
        port: int
        host: str
        listener: str
        security_protocol: int
        def __init__(
            self,
            *,
            port: int = ...,
            host: str = ...,
            listener: str = ...,
            security_protocol: int = ...,
        ) -> None: ...

class UpdateMetadataResponse(Struct):
    """API key 6 response, versions 0-8."""

    spec: ClassVar[MessageSpec]
    error_code: int
    def __init__(
        self,
        *,
        error_code: int = ...,
    ) -> None: ...

class UpdateRaftVoterRequest(Struct):
    """API key 82 request, version 0."""

    spec: ClassVar[MessageSpec]
    cluster_id: str | None
    current_leader_epoch: int
    voter_id: int
    voter_directory_id: uuid.UUID
    listeners: list[UpdateRaftVoterRequest.Listener]
    k_raft_version_feature: UpdateRaftVoterRequest.KRaftVersionFeature
    def __init__(
        self,
        *,
        cluster_id: str | None = ...,
        current_leader_epoch: int = ...,
        voter_id: int = ...,
        voter_directory_id: uuid.UUID = ...,
        listeners: list[UpdateRaftVoterRequest.Listener] = ...,
        k_raft_version_feature: UpdateRaftVoterRequest.KRaftVersionFeature = ...,
    ) -> None: ...

    class Listener(Struct):
        name: str
        host: str
        port: int
        def __init__(
            self,
            *,
            name: str = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

    class KRaftVersionFeature(Struct):
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            *,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
        ) -> None: ...

class UpdateRaftVoterResponse(Struct):
    """API key 82 response, version 0."""

    spec: ClassVar[MessageSpec]
    throttle_time_ms: int
    error_code: int
    current_leader: UpdateRaftVoterResponse.CurrentLeader
    def __init__(
        self,
        *,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        current_leader: UpdateRaftVoterResponse.CurrentLeader = ...,
    ) -> None: ...

    class CurrentLeader(Struct):
        leader_id: int
        leader_epoch: int
        host: str
        port: int
        def __init__(
            self,
            *,
            leader_id: int = ...,
            leader_epoch: int = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class VoteRequest(Struct):
    """API key 52 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    cluster_id: str | None
    voter_id: int
    topics: list[VoteRequest.TopicData]
    def __init__(
        self,
        *,
        cluster_id: str | None = ...,
        voter_id: int = ...,
        topics: list[VoteRequest.TopicData] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        partitions: list[VoteRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[VoteRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        replica_epoch: int
        replica_id: int
        replica_directory_id: uuid.UUID
        voter_directory_id: uuid.UUID
        last_offset_epoch: int
        last_offset: int
        pre_vote: bool
        def __init__(
            self,
            *,
            partition_index: int = ...,
            replica_epoch: int = ...,
            replica_id: int = ...,
            replica_directory_id: uuid.UUID = ...,
            voter_directory_id: uuid.UUID = ...,
            last_offset_epoch: int = ...,
            last_offset: int = ...,
            pre_vote: bool = ...,
        ) -> None: ...

class VoteResponse(Struct):
    """API key 52 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    error_code: int
    topics: list[VoteResponse.TopicData]
    node_endpoints: list[VoteResponse.NodeEndpoint]
    def __init__(
        self,
        *,
        error_code: int = ...,
        topics: list[VoteResponse.TopicData] = ...,
        node_endpoints: list[VoteResponse.NodeEndpoint] = ...,
    ) -> None: ...

    class TopicData(Struct):
        topic_name: str
        partitions: list[VoteResponse.PartitionData]
        def __init__(
            self,
            *,
            topic_name: str = ...,
            partitions: list[VoteResponse.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        vote_granted: bool
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            vote_granted: bool = ...,
        ) -> None: ...

    class NodeEndpoint(Struct):
        node_id: int
        host: str
        port: int
        def __init__(
            self,
            *,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

class VotersRecord(Struct):
    """Data, version 0."""

    spec: ClassVar[MessageSpec]
    version: int
    voters: list[VotersRecord.Voter]
    def __init__(
        self,
        *,
        version: int = ...,
        voters: list[VotersRecord.Voter] = ...,
    ) -> None: ...

    class Voter(Struct):
        voter_id: int
        voter_directory_id: uuid.UUID
        endpoints: list[VotersRecord.Endpoint]
        k_raft_version_feature: VotersRecord.KRaftVersionFeature
        def __init__(
            self,
            *,
            voter_id: int = ...,
            voter_directory_id: uuid.UUID = ...,
            endpoints: list[VotersRecord.Endpoint] = ...,
            k_raft_version_feature: VotersRecord.KRaftVersionFeature = ...,
        ) -> None: ...

    class Endpoint(Struct):
        name: str
        host: str
        port: int
        def __init__(
            self,
            *,
            name: str = ...,
            host: str = ...,
            port: int = ...,
        ) -> None: ...

    class KRaftVersionFeature(Struct):
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            *,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
        ) -> None: ...

class WriteShareGroupStateRequest(Struct):
    """API key 85 request, versions 0-1."""

    spec: ClassVar[MessageSpec]
    group_id: str
    topics: list[WriteShareGroupStateRequest.WriteStateData]
    def __init__(
        self,
        *,
        group_id: str = ...,
        topics: list[WriteShareGroupStateRequest.WriteStateData] = ...,
    ) -> None: ...

    class WriteStateData(Struct):
        topic_id: uuid.UUID
        partitions: list[WriteShareGroupStateRequest.PartitionData]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[WriteShareGroupStateRequest.PartitionData] = ...,
        ) -> None: ...

    class PartitionData(Struct):
        partition: int
        state_epoch: int
        leader_epoch: int
        start_offset: int
        delivery_complete_count: int
        state_batches: list[WriteShareGroupStateRequest.StateBatch]
        def __init__(
            self,
            *,
            partition: int = ...,
            state_epoch: int = ...,
            leader_epoch: int = ...,
            start_offset: int = ...,
            delivery_complete_count: int = ...,
            state_batches: list[WriteShareGroupStateRequest.StateBatch] = ...,
        ) -> None: ...

    class StateBatch(Struct):
        first_offset: int
        last_offset: int
        delivery_state: int
        delivery_count: int
        def __init__(
            self,
            *,
            first_offset: int = ...,
            last_offset: int = ...,
            delivery_state: int = ...,
            delivery_count: int = ...,
        ) -> None: ...

class WriteShareGroupStateResponse(Struct):
    """API key 85 response, versions 0-1."""

    spec: ClassVar[MessageSpec]
    results: list[WriteShareGroupStateResponse.WriteStateResult]
    def __init__(
        self,
        *,
        results: list[WriteShareGroupStateResponse.WriteStateResult] = ...,
    ) -> None: ...

    class WriteStateResult(Struct):
        topic_id: uuid.UUID
        partitions: list[WriteShareGroupStateResponse.PartitionResult]
        def __init__(
            self,
            *,
            topic_id: uuid.UUID = ...,
            partitions: list[WriteShareGroupStateResponse.PartitionResult] = ...,
        ) -> None: ...

    class PartitionResult(Struct):
        partition: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            *,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
        ) -> None: ...

class WriteTxnMarkersRequest(Struct):
    """API key 27 request, versions 0-2."""

    spec: ClassVar[MessageSpec]
    markers: list[WriteTxnMarkersRequest.WritableTxnMarker]
    def __init__(
        self,
        *,
        markers: list[WriteTxnMarkersRequest.WritableTxnMarker] = ...,
    ) -> None: ...

    class WritableTxnMarker(Struct):
        producer_id: int
        producer_epoch: int
        transaction_result: bool
        topics: list[WriteTxnMarkersRequest.WritableTxnMarkerTopic]
        coordinator_epoch: int
        transaction_version: int
        def __init__(
            self,
            *,
            producer_id: int = ...,
            producer_epoch: int = ...,
            transaction_result: bool = ...,
            topics: list[WriteTxnMarkersRequest.WritableTxnMarkerTopic] = ...,
            coordinator_epoch: int = ...,
            transaction_version: int = ...,
        ) -> None: ...

    class WritableTxnMarkerTopic(Struct):
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            *,
            name: str = ...,
            partition_indexes: list[int] = ...,
        ) -> None: ...

class WriteTxnMarkersResponse(Struct):
    """API key 27 response, versions 0-2."""

    spec: ClassVar[MessageSpec]
    markers: list[WriteTxnMarkersResponse.WritableTxnMarkerResult]
    def __init__(
        self,
        *,
        markers: list[WriteTxnMarkersResponse.WritableTxnMarkerResult] = ...,
    ) -> None: ...

    class WritableTxnMarkerResult(Struct):
        producer_id: int
        topics: list[WriteTxnMarkersResponse.WritableTxnMarkerTopicResult]
        def __init__(
            self,
            *,
            producer_id: int = ...,
            topics: list[WriteTxnMarkersResponse.WritableTxnMarkerTopicResult] = ...,
        ) -> None: ...

    class WritableTxnMarkerTopicResult(Struct):
        name: str
        partitions: list[WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult]
        def __init__(
            self,
            *,
            name: str = ...,
            partitions: list[WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult] = ...,
        ) -> None: ...

    class WritableTxnMarkerPartitionResult(Struct):
        partition_index: int
        error_code: int
        def __init__(
            self,
            *,
            partition_index: int = ...,
            error_code: int = ...,
        ) -> None: ...
