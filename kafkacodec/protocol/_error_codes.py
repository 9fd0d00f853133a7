# GENERATED — do not edit.  Source: tools/kafka_errors.py (Kafka's error codes);
# regenerate with `python tools/gen_protocol.py`.
"""Every broker error code (``ErrorCode``) and its exception class.

``kafkacodec.protocol.errors`` is the module to import; this one is what it is made of.
"""
from enum import IntEnum

from kafkacodec.protocol._error_base import BrokerError, RetriableBrokerError

__all__ = [  # the classes; errors names ErrorCode and BY_CODE itself
    "UnknownServerError",
    "OffsetOutOfRangeError",
    "CorruptMessageError",
    "UnknownTopicOrPartitionError",
    "InvalidFetchSizeError",
    "LeaderNotAvailableError",
    "NotLeaderOrFollowerError",
    "RequestTimedOutError",
    "BrokerNotAvailableError",
    "ReplicaNotAvailableError",
    "MessageTooLargeError",
    "StaleControllerEpochError",
    "OffsetMetadataTooLargeError",
    "NetworkError",
    "CoordinatorLoadInProgressError",
    "CoordinatorNotAvailableError",
    "NotCoordinatorError",
    "InvalidTopicError",
    "RecordListTooLargeError",
    "NotEnoughReplicasError",
    "NotEnoughReplicasAfterAppendError",
    "InvalidRequiredAcksError",
    "IllegalGenerationError",
    "InconsistentGroupProtocolError",
    "InvalidGroupIdError",
    "UnknownMemberIdError",
    "InvalidSessionTimeoutError",
    "RebalanceInProgressError",
    "InvalidCommitOffsetSizeError",
    "TopicAuthorizationFailedError",
    "GroupAuthorizationFailedError",
    "ClusterAuthorizationFailedError",
    "InvalidTimestampError",
    "UnsupportedSaslMechanismError",
    "IllegalSaslStateError",
    "UnsupportedVersionError",
    "TopicAlreadyExistsError",
    "InvalidPartitionsError",
    "InvalidReplicationFactorError",
    "InvalidReplicaAssignmentError",
    "InvalidConfigError",
    "NotControllerError",
    "InvalidRequestError",
    "UnsupportedForMessageFormatError",
    "PolicyViolationError",
    "OutOfOrderSequenceNumberError",
    "DuplicateSequenceNumberError",
    "InvalidProducerEpochError",
    "InvalidTxnStateError",
    "InvalidProducerIdMappingError",
    "InvalidTransactionTimeoutError",
    "ConcurrentTransactionsError",
    "TransactionCoordinatorFencedError",
    "TransactionalIdAuthorizationFailedError",
    "SecurityDisabledError",
    "OperationNotAttemptedError",
    "KafkaStorageError",
    "LogDirNotFoundError",
    "SaslAuthenticationFailedError",
    "UnknownProducerIdError",
    "ReassignmentInProgressError",
    "DelegationTokenAuthDisabledError",
    "DelegationTokenNotFoundError",
    "DelegationTokenOwnerMismatchError",
    "DelegationTokenRequestNotAllowedError",
    "DelegationTokenAuthorizationFailedError",
    "DelegationTokenExpiredError",
    "InvalidPrincipalTypeError",
    "NonEmptyGroupError",
    "GroupIdNotFoundError",
    "FetchSessionIdNotFoundError",
    "InvalidFetchSessionEpochError",
    "ListenerNotFoundError",
    "TopicDeletionDisabledError",
    "FencedLeaderEpochError",
    "UnknownLeaderEpochError",
    "UnsupportedCompressionTypeError",
    "StaleBrokerEpochError",
    "OffsetNotAvailableError",
    "MemberIdRequiredError",
    "PreferredLeaderNotAvailableError",
    "GroupMaxSizeReachedError",
    "FencedInstanceIdError",
    "EligibleLeadersNotAvailableError",
    "ElectionNotNeededError",
    "NoReassignmentInProgressError",
    "GroupSubscribedToTopicError",
    "InvalidRecordError",
    "UnstableOffsetCommitError",
    "ThrottlingQuotaExceededError",
    "ProducerFencedError",
    "ResourceNotFoundError",
    "DuplicateResourceError",
    "UnacceptableCredentialError",
    "InconsistentVoterSetError",
    "InvalidUpdateVersionError",
    "FeatureUpdateFailedError",
    "PrincipalDeserializationFailureError",
    "SnapshotNotFoundError",
    "PositionOutOfRangeError",
    "UnknownTopicIdError",
    "DuplicateBrokerRegistrationError",
    "BrokerIdNotRegisteredError",
    "InconsistentTopicIdError",
    "InconsistentClusterIdError",
    "TransactionalIdNotFoundError",
    "FetchSessionTopicIdError",
    "IneligibleReplicaError",
    "NewLeaderElectedError",
    "OffsetMovedToTieredStorageError",
    "FencedMemberEpochError",
    "UnreleasedInstanceIdError",
    "UnsupportedAssignorError",
    "StaleMemberEpochError",
    "MismatchedEndpointTypeError",
    "UnsupportedEndpointTypeError",
    "UnknownControllerIdError",
    "UnknownSubscriptionIdError",
    "TelemetryTooLargeError",
    "InvalidRegistrationError",
    "TransactionAbortableError",
    "InvalidRecordStateError",
    "ShareSessionNotFoundError",
    "InvalidShareSessionEpochError",
    "FencedStateEpochError",
    "InvalidVoterKeyError",
    "DuplicateVoterError",
    "VoterNotFoundError",
    "InvalidRegularExpressionError",
    "RebootstrapRequiredError",
    "StreamsInvalidTopologyError",
    "StreamsInvalidTopologyEpochError",
    "StreamsTopologyFencedError",
    "ShareSessionLimitReachedError",
]


class ErrorCode(IntEnum):
    """Every broker error code by its protocol name (``NONE`` is 0, success).

    A member is its int (``ErrorCode.NOT_LEADER_OR_FOLLOWER == 6``, also as a dict key or in a
    set), with ``retriable`` and ``description``.
    """

    _value_: int
    retriable: bool
    description: str

    def __new__(cls, code: int, retriable: bool, description: str) -> "ErrorCode":
        member = int.__new__(cls, code)
        member._value_ = code
        member.retriable = retriable
        member.description = description
        return member

    UNKNOWN_SERVER_ERROR = -1, False, "The server hit an unexpected error."
    NONE = 0, False, "Success."
    OFFSET_OUT_OF_RANGE = 1, False, "The offset is outside the partition's log range."
    CORRUPT_MESSAGE = 2, True, "A message failed its checksum or is otherwise malformed."
    UNKNOWN_TOPIC_OR_PARTITION = 3, True, "The broker does not host this topic-partition."
    INVALID_FETCH_SIZE = 4, False, "The requested fetch size is invalid."
    LEADER_NOT_AVAILABLE = 5, True, "The partition has no leader right now (election in progress)."
    NOT_LEADER_OR_FOLLOWER = 6, True, "This broker is neither leader nor follower for the partition."
    REQUEST_TIMED_OUT = 7, True, "The request timed out on the broker."
    BROKER_NOT_AVAILABLE = 8, False, "The broker is not available."
    REPLICA_NOT_AVAILABLE = 9, True, "The replica is not available for this partition."
    MESSAGE_TOO_LARGE = 10, False, "The request holds a message larger than the server accepts."
    STALE_CONTROLLER_EPOCH = 11, False, "The controller epoch is older than the broker's."
    OFFSET_METADATA_TOO_LARGE = 12, False, "The committed offset metadata string is too long."
    NETWORK_EXCEPTION = 13, True, "The server disconnected before a response arrived."
    COORDINATOR_LOAD_IN_PROGRESS = 14, True, "The coordinator is still loading its state."
    COORDINATOR_NOT_AVAILABLE = 15, True, "The coordinator is not available."
    NOT_COORDINATOR = 16, True, "This broker is not the coordinator for the key."
    INVALID_TOPIC_EXCEPTION = 17, False, "The topic name is invalid or the topic is internal."
    RECORD_LIST_TOO_LARGE = 18, False, "The record batch exceeds the maximum segment size."
    NOT_ENOUGH_REPLICAS = 19, True, "Fewer in-sync replicas than required for this acks setting."
    NOT_ENOUGH_REPLICAS_AFTER_APPEND = 20, True, "Written, but fewer in-sync replicas than required."
    INVALID_REQUIRED_ACKS = 21, False, "The acks value is not -1, 0 or 1."
    ILLEGAL_GENERATION = 22, False, "The group generation id is not current."
    INCONSISTENT_GROUP_PROTOCOL = 23, False, "The member's protocols do not match the group's."
    INVALID_GROUP_ID = 24, False, "The group id is empty or invalid."
    UNKNOWN_MEMBER_ID = 25, False, "The coordinator does not know this member id."
    INVALID_SESSION_TIMEOUT = 26, False, "The session timeout is outside the broker's allowed range."
    REBALANCE_IN_PROGRESS = 27, False, "The group is rebalancing; rejoin."
    INVALID_COMMIT_OFFSET_SIZE = 28, False, "The offset commit was rejected for its size."
    TOPIC_AUTHORIZATION_FAILED = 29, False, "Not authorized to access the topic."
    GROUP_AUTHORIZATION_FAILED = 30, False, "Not authorized to access the group."
    CLUSTER_AUTHORIZATION_FAILED = 31, False, "Not authorized for this cluster operation."
    INVALID_TIMESTAMP = 32, False, "The record timestamp is out of the accepted range."
    UNSUPPORTED_SASL_MECHANISM = 33, False, "The broker does not support the SASL mechanism."
    ILLEGAL_SASL_STATE = 34, False, "The request is not valid in the current SASL state."
    UNSUPPORTED_VERSION = 35, False, "The broker does not support this request version."
    TOPIC_ALREADY_EXISTS = 36, False, "A topic with this name already exists."
    INVALID_PARTITIONS = 37, False, "The number of partitions is invalid."
    INVALID_REPLICATION_FACTOR = 38, False, "The replication factor is invalid."
    INVALID_REPLICA_ASSIGNMENT = 39, False, "The replica assignment is invalid."
    INVALID_CONFIG = 40, False, "A configuration value is invalid."
    NOT_CONTROLLER = 41, True, "This broker is not the active controller."
    INVALID_REQUEST = 42, False, "The request is malformed or not valid here."
    UNSUPPORTED_FOR_MESSAGE_FORMAT = 43, False, "The message format version does not support this."
    POLICY_VIOLATION = 44, False, "The request breaks a configured policy."
    OUT_OF_ORDER_SEQUENCE_NUMBER = 45, False, "The producer sequence number is out of order."
    DUPLICATE_SEQUENCE_NUMBER = 46, False, "The producer sent a duplicate sequence number."
    INVALID_PRODUCER_EPOCH = 47, False, "The producer epoch is older than the current one."
    INVALID_TXN_STATE = 48, False, "The operation is not valid in the transaction's state."
    INVALID_PRODUCER_ID_MAPPING = 49, False, "The producer id does not match the transactional id."
    INVALID_TRANSACTION_TIMEOUT = 50, False, "The transaction timeout exceeds the broker maximum."
    CONCURRENT_TRANSACTIONS = 51, True, "Another transaction operation for this id is in progress."
    TRANSACTION_COORDINATOR_FENCED = 52, False, "A newer transaction coordinator has taken over."
    TRANSACTIONAL_ID_AUTHORIZATION_FAILED = 53, False, "Not authorized for the transactional id."
    SECURITY_DISABLED = 54, False, "Security features are disabled."
    OPERATION_NOT_ATTEMPTED = 55, False, "Not attempted because a related operation failed."
    KAFKA_STORAGE_ERROR = 56, True, "A disk error on the broker made the data unavailable."
    LOG_DIR_NOT_FOUND = 57, False, "The log directory does not exist in the broker config."
    SASL_AUTHENTICATION_FAILED = 58, False, "SASL authentication failed."
    UNKNOWN_PRODUCER_ID = 59, False, "The broker has no state for this producer id."
    REASSIGNMENT_IN_PROGRESS = 60, False, "A partition reassignment is in progress."
    DELEGATION_TOKEN_AUTH_DISABLED = 61, False, "Delegation token authentication is disabled."
    DELEGATION_TOKEN_NOT_FOUND = 62, False, "The delegation token was not found."
    DELEGATION_TOKEN_OWNER_MISMATCH = 63, False, "The principal does not own the delegation token."
    DELEGATION_TOKEN_REQUEST_NOT_ALLOWED = 64, False, "Delegation token requests are not allowed on this channel."
    DELEGATION_TOKEN_AUTHORIZATION_FAILED = 65, False, "Not authorized for the delegation token."
    DELEGATION_TOKEN_EXPIRED = 66, False, "The delegation token has expired."
    INVALID_PRINCIPAL_TYPE = 67, False, "The principal type is not supported."
    NON_EMPTY_GROUP = 68, False, "The group is not empty."
    GROUP_ID_NOT_FOUND = 69, False, "The group id does not exist."
    FETCH_SESSION_ID_NOT_FOUND = 70, True, "The fetch session id was not found."
    INVALID_FETCH_SESSION_EPOCH = 71, True, "The fetch session epoch is invalid."
    LISTENER_NOT_FOUND = 72, True, "The leader has no endpoint for the listener used."
    TOPIC_DELETION_DISABLED = 73, False, "Topic deletion is disabled."
    FENCED_LEADER_EPOCH = 74, True, "The leader epoch in the request is older than the broker's."
    UNKNOWN_LEADER_EPOCH = 75, True, "The leader epoch in the request is newer than the broker's."
    UNSUPPORTED_COMPRESSION_TYPE = 76, False, "The consumer's fetch version does not support the compression type."
    STALE_BROKER_EPOCH = 77, False, "The broker epoch has changed."
    OFFSET_NOT_AVAILABLE = 78, True, "The leader's high watermark has not caught up yet."
    MEMBER_ID_REQUIRED = 79, False, "Rejoin with the member id the coordinator assigned."
    PREFERRED_LEADER_NOT_AVAILABLE = 80, True, "The preferred leader was not available."
    GROUP_MAX_SIZE_REACHED = 81, False, "The group has reached its maximum size."
    FENCED_INSTANCE_ID = 82, False, "Another member with the same group.instance.id fenced this one."
    ELIGIBLE_LEADERS_NOT_AVAILABLE = 83, True, "No eligible leader for the partition."
    ELECTION_NOT_NEEDED = 84, True, "The leader election was not needed."
    NO_REASSIGNMENT_IN_PROGRESS = 85, False, "No partition reassignment is in progress."
    GROUP_SUBSCRIBED_TO_TOPIC = 86, False, "The group is still subscribed to the topic."
    INVALID_RECORD = 87, False, "A record failed broker-side validation."
    UNSTABLE_OFFSET_COMMIT = 88, True, "Pending transactional offset commits; retry later."
    THROTTLING_QUOTA_EXCEEDED = 89, True, "The throttling quota was exceeded."
    PRODUCER_FENCED = 90, False, "A newer producer with the same transactional id exists."
    RESOURCE_NOT_FOUND = 91, False, "The resource does not exist."
    DUPLICATE_RESOURCE = 92, False, "The request names a resource more than once."
    UNACCEPTABLE_CREDENTIAL = 93, False, "The credential does not meet the requirements."
    INCONSISTENT_VOTER_SET = 94, False, "The voter set does not match the quorum's."
    INVALID_UPDATE_VERSION = 95, False, "The update version is invalid."
    FEATURE_UPDATE_FAILED = 96, False, "The feature update could not be applied."
    PRINCIPAL_DESERIALIZATION_FAILURE = 97, False, "The forwarded principal could not be deserialized."
    SNAPSHOT_NOT_FOUND = 98, False, "The requested snapshot was not found."
    POSITION_OUT_OF_RANGE = 99, False, "The requested position is outside the snapshot."
    UNKNOWN_TOPIC_ID = 100, True, "The broker does not know this topic id."
    DUPLICATE_BROKER_REGISTRATION = 101, False, "The broker id is already registered."
    BROKER_ID_NOT_REGISTERED = 102, False, "The broker id is not registered."
    INCONSISTENT_TOPIC_ID = 103, True, "The topic id does not match the one in the log."
    INCONSISTENT_CLUSTER_ID = 104, False, "The cluster id does not match."
    TRANSACTIONAL_ID_NOT_FOUND = 105, False, "The transactional id was not found."
    FETCH_SESSION_TOPIC_ID_ERROR = 106, True, "The fetch session's topic ids changed."
    INELIGIBLE_REPLICA = 107, False, "The new ISR holds a replica that is not eligible."
    NEW_LEADER_ELECTED = 108, False, "A new leader was elected while the request was pending."
    OFFSET_MOVED_TO_TIERED_STORAGE = 109, False, "The offset has moved to tiered storage."
    FENCED_MEMBER_EPOCH = 110, False, "The member epoch is fenced; rejoin with epoch 0."
    UNRELEASED_INSTANCE_ID = 111, False, "The instance id is still used by another member."
    UNSUPPORTED_ASSIGNOR = 112, False, "The assignor is not supported by the group."
    STALE_MEMBER_EPOCH = 113, False, "The member epoch is stale."
    MISMATCHED_ENDPOINT_TYPE = 114, False, "The request was sent to the wrong kind of endpoint."
    UNSUPPORTED_ENDPOINT_TYPE = 115, False, "This endpoint type does not support the request."
    UNKNOWN_CONTROLLER_ID = 116, False, "The controller id is unknown."
    UNKNOWN_SUBSCRIPTION_ID = 117, False, "The telemetry subscription id is unknown."
    TELEMETRY_TOO_LARGE = 118, False, "The pushed telemetry exceeds the size limit."
    INVALID_REGISTRATION = 119, False, "The controller registration is invalid."
    TRANSACTION_ABORTABLE = 120, False, "The transaction must be aborted."
    INVALID_RECORD_STATE = 121, False, "The share-group record state is invalid for this operation."
    SHARE_SESSION_NOT_FOUND = 122, True, "The share session was not found."
    INVALID_SHARE_SESSION_EPOCH = 123, True, "The share session epoch is invalid."
    FENCED_STATE_EPOCH = 124, False, "The share-group state epoch is fenced."
    INVALID_VOTER_KEY = 125, False, "The voter key does not match the receiving replica."
    DUPLICATE_VOTER = 126, False, "The voter is already in the voter set."
    VOTER_NOT_FOUND = 127, False, "The voter is not in the voter set."
    INVALID_REGULAR_EXPRESSION = 128, False, "The regular expression is invalid."
    REBOOTSTRAP_REQUIRED = 129, False, "The client must rebootstrap its metadata."
    STREAMS_INVALID_TOPOLOGY = 130, False, "The streams topology is invalid."
    STREAMS_INVALID_TOPOLOGY_EPOCH = 131, False, "The streams topology epoch is invalid."
    STREAMS_TOPOLOGY_FENCED = 132, False, "The streams topology was fenced by a newer one."
    SHARE_SESSION_LIMIT_REACHED = 133, True, "The broker's share session cache is full."


class UnknownServerError(BrokerError):
    """The server hit an unexpected error."""

    code = -1
    name = "UNKNOWN_SERVER_ERROR"
    description = "The server hit an unexpected error."


class OffsetOutOfRangeError(BrokerError):
    """The offset is outside the partition's log range."""

    code = 1
    name = "OFFSET_OUT_OF_RANGE"
    description = "The offset is outside the partition's log range."


class CorruptMessageError(RetriableBrokerError):
    """A message failed its checksum or is otherwise malformed."""

    code = 2
    name = "CORRUPT_MESSAGE"
    description = "A message failed its checksum or is otherwise malformed."


class UnknownTopicOrPartitionError(RetriableBrokerError):
    """The broker does not host this topic-partition."""

    code = 3
    name = "UNKNOWN_TOPIC_OR_PARTITION"
    description = "The broker does not host this topic-partition."


class InvalidFetchSizeError(BrokerError):
    """The requested fetch size is invalid."""

    code = 4
    name = "INVALID_FETCH_SIZE"
    description = "The requested fetch size is invalid."


class LeaderNotAvailableError(RetriableBrokerError):
    """The partition has no leader right now (election in progress)."""

    code = 5
    name = "LEADER_NOT_AVAILABLE"
    description = "The partition has no leader right now (election in progress)."


class NotLeaderOrFollowerError(RetriableBrokerError):
    """This broker is neither leader nor follower for the partition."""

    code = 6
    name = "NOT_LEADER_OR_FOLLOWER"
    description = "This broker is neither leader nor follower for the partition."


class RequestTimedOutError(RetriableBrokerError):
    """The request timed out on the broker."""

    code = 7
    name = "REQUEST_TIMED_OUT"
    description = "The request timed out on the broker."


class BrokerNotAvailableError(BrokerError):
    """The broker is not available."""

    code = 8
    name = "BROKER_NOT_AVAILABLE"
    description = "The broker is not available."


class ReplicaNotAvailableError(RetriableBrokerError):
    """The replica is not available for this partition."""

    code = 9
    name = "REPLICA_NOT_AVAILABLE"
    description = "The replica is not available for this partition."


class MessageTooLargeError(BrokerError):
    """The request holds a message larger than the server accepts."""

    code = 10
    name = "MESSAGE_TOO_LARGE"
    description = "The request holds a message larger than the server accepts."


class StaleControllerEpochError(BrokerError):
    """The controller epoch is older than the broker's."""

    code = 11
    name = "STALE_CONTROLLER_EPOCH"
    description = "The controller epoch is older than the broker's."


class OffsetMetadataTooLargeError(BrokerError):
    """The committed offset metadata string is too long."""

    code = 12
    name = "OFFSET_METADATA_TOO_LARGE"
    description = "The committed offset metadata string is too long."


class NetworkError(RetriableBrokerError):
    """The server disconnected before a response arrived."""

    code = 13
    name = "NETWORK_EXCEPTION"
    description = "The server disconnected before a response arrived."


class CoordinatorLoadInProgressError(RetriableBrokerError):
    """The coordinator is still loading its state."""

    code = 14
    name = "COORDINATOR_LOAD_IN_PROGRESS"
    description = "The coordinator is still loading its state."


class CoordinatorNotAvailableError(RetriableBrokerError):
    """The coordinator is not available."""

    code = 15
    name = "COORDINATOR_NOT_AVAILABLE"
    description = "The coordinator is not available."


class NotCoordinatorError(RetriableBrokerError):
    """This broker is not the coordinator for the key."""

    code = 16
    name = "NOT_COORDINATOR"
    description = "This broker is not the coordinator for the key."


class InvalidTopicError(BrokerError):
    """The topic name is invalid or the topic is internal."""

    code = 17
    name = "INVALID_TOPIC_EXCEPTION"
    description = "The topic name is invalid or the topic is internal."


class RecordListTooLargeError(BrokerError):
    """The record batch exceeds the maximum segment size."""

    code = 18
    name = "RECORD_LIST_TOO_LARGE"
    description = "The record batch exceeds the maximum segment size."


class NotEnoughReplicasError(RetriableBrokerError):
    """Fewer in-sync replicas than required for this acks setting."""

    code = 19
    name = "NOT_ENOUGH_REPLICAS"
    description = "Fewer in-sync replicas than required for this acks setting."


class NotEnoughReplicasAfterAppendError(RetriableBrokerError):
    """Written, but fewer in-sync replicas than required."""

    code = 20
    name = "NOT_ENOUGH_REPLICAS_AFTER_APPEND"
    description = "Written, but fewer in-sync replicas than required."


class InvalidRequiredAcksError(BrokerError):
    """The acks value is not -1, 0 or 1."""

    code = 21
    name = "INVALID_REQUIRED_ACKS"
    description = "The acks value is not -1, 0 or 1."


class IllegalGenerationError(BrokerError):
    """The group generation id is not current."""

    code = 22
    name = "ILLEGAL_GENERATION"
    description = "The group generation id is not current."


class InconsistentGroupProtocolError(BrokerError):
    """The member's protocols do not match the group's."""

    code = 23
    name = "INCONSISTENT_GROUP_PROTOCOL"
    description = "The member's protocols do not match the group's."


class InvalidGroupIdError(BrokerError):
    """The group id is empty or invalid."""

    code = 24
    name = "INVALID_GROUP_ID"
    description = "The group id is empty or invalid."


class UnknownMemberIdError(BrokerError):
    """The coordinator does not know this member id."""

    code = 25
    name = "UNKNOWN_MEMBER_ID"
    description = "The coordinator does not know this member id."


class InvalidSessionTimeoutError(BrokerError):
    """The session timeout is outside the broker's allowed range."""

    code = 26
    name = "INVALID_SESSION_TIMEOUT"
    description = "The session timeout is outside the broker's allowed range."


class RebalanceInProgressError(BrokerError):
    """The group is rebalancing; rejoin."""

    code = 27
    name = "REBALANCE_IN_PROGRESS"
    description = "The group is rebalancing; rejoin."


class InvalidCommitOffsetSizeError(BrokerError):
    """The offset commit was rejected for its size."""

    code = 28
    name = "INVALID_COMMIT_OFFSET_SIZE"
    description = "The offset commit was rejected for its size."


class TopicAuthorizationFailedError(BrokerError):
    """Not authorized to access the topic."""

    code = 29
    name = "TOPIC_AUTHORIZATION_FAILED"
    description = "Not authorized to access the topic."


class GroupAuthorizationFailedError(BrokerError):
    """Not authorized to access the group."""

    code = 30
    name = "GROUP_AUTHORIZATION_FAILED"
    description = "Not authorized to access the group."


class ClusterAuthorizationFailedError(BrokerError):
    """Not authorized for this cluster operation."""

    code = 31
    name = "CLUSTER_AUTHORIZATION_FAILED"
    description = "Not authorized for this cluster operation."


class InvalidTimestampError(BrokerError):
    """The record timestamp is out of the accepted range."""

    code = 32
    name = "INVALID_TIMESTAMP"
    description = "The record timestamp is out of the accepted range."


class UnsupportedSaslMechanismError(BrokerError):
    """The broker does not support the SASL mechanism."""

    code = 33
    name = "UNSUPPORTED_SASL_MECHANISM"
    description = "The broker does not support the SASL mechanism."


class IllegalSaslStateError(BrokerError):
    """The request is not valid in the current SASL state."""

    code = 34
    name = "ILLEGAL_SASL_STATE"
    description = "The request is not valid in the current SASL state."


class UnsupportedVersionError(BrokerError):
    """The broker does not support this request version."""

    code = 35
    name = "UNSUPPORTED_VERSION"
    description = "The broker does not support this request version."


class TopicAlreadyExistsError(BrokerError):
    """A topic with this name already exists."""

    code = 36
    name = "TOPIC_ALREADY_EXISTS"
    description = "A topic with this name already exists."


class InvalidPartitionsError(BrokerError):
    """The number of partitions is invalid."""

    code = 37
    name = "INVALID_PARTITIONS"
    description = "The number of partitions is invalid."


class InvalidReplicationFactorError(BrokerError):
    """The replication factor is invalid."""

    code = 38
    name = "INVALID_REPLICATION_FACTOR"
    description = "The replication factor is invalid."


class InvalidReplicaAssignmentError(BrokerError):
    """The replica assignment is invalid."""

    code = 39
    name = "INVALID_REPLICA_ASSIGNMENT"
    description = "The replica assignment is invalid."


class InvalidConfigError(BrokerError):
    """A configuration value is invalid."""

    code = 40
    name = "INVALID_CONFIG"
    description = "A configuration value is invalid."


class NotControllerError(RetriableBrokerError):
    """This broker is not the active controller."""

    code = 41
    name = "NOT_CONTROLLER"
    description = "This broker is not the active controller."


class InvalidRequestError(BrokerError):
    """The request is malformed or not valid here."""

    code = 42
    name = "INVALID_REQUEST"
    description = "The request is malformed or not valid here."


class UnsupportedForMessageFormatError(BrokerError):
    """The message format version does not support this."""

    code = 43
    name = "UNSUPPORTED_FOR_MESSAGE_FORMAT"
    description = "The message format version does not support this."


class PolicyViolationError(BrokerError):
    """The request breaks a configured policy."""

    code = 44
    name = "POLICY_VIOLATION"
    description = "The request breaks a configured policy."


class OutOfOrderSequenceNumberError(BrokerError):
    """The producer sequence number is out of order."""

    code = 45
    name = "OUT_OF_ORDER_SEQUENCE_NUMBER"
    description = "The producer sequence number is out of order."


class DuplicateSequenceNumberError(BrokerError):
    """The producer sent a duplicate sequence number."""

    code = 46
    name = "DUPLICATE_SEQUENCE_NUMBER"
    description = "The producer sent a duplicate sequence number."


class InvalidProducerEpochError(BrokerError):
    """The producer epoch is older than the current one."""

    code = 47
    name = "INVALID_PRODUCER_EPOCH"
    description = "The producer epoch is older than the current one."


class InvalidTxnStateError(BrokerError):
    """The operation is not valid in the transaction's state."""

    code = 48
    name = "INVALID_TXN_STATE"
    description = "The operation is not valid in the transaction's state."


class InvalidProducerIdMappingError(BrokerError):
    """The producer id does not match the transactional id."""

    code = 49
    name = "INVALID_PRODUCER_ID_MAPPING"
    description = "The producer id does not match the transactional id."


class InvalidTransactionTimeoutError(BrokerError):
    """The transaction timeout exceeds the broker maximum."""

    code = 50
    name = "INVALID_TRANSACTION_TIMEOUT"
    description = "The transaction timeout exceeds the broker maximum."


class ConcurrentTransactionsError(RetriableBrokerError):
    """Another transaction operation for this id is in progress."""

    code = 51
    name = "CONCURRENT_TRANSACTIONS"
    description = "Another transaction operation for this id is in progress."


class TransactionCoordinatorFencedError(BrokerError):
    """A newer transaction coordinator has taken over."""

    code = 52
    name = "TRANSACTION_COORDINATOR_FENCED"
    description = "A newer transaction coordinator has taken over."


class TransactionalIdAuthorizationFailedError(BrokerError):
    """Not authorized for the transactional id."""

    code = 53
    name = "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"
    description = "Not authorized for the transactional id."


class SecurityDisabledError(BrokerError):
    """Security features are disabled."""

    code = 54
    name = "SECURITY_DISABLED"
    description = "Security features are disabled."


class OperationNotAttemptedError(BrokerError):
    """Not attempted because a related operation failed."""

    code = 55
    name = "OPERATION_NOT_ATTEMPTED"
    description = "Not attempted because a related operation failed."


class KafkaStorageError(RetriableBrokerError):
    """A disk error on the broker made the data unavailable."""

    code = 56
    name = "KAFKA_STORAGE_ERROR"
    description = "A disk error on the broker made the data unavailable."


class LogDirNotFoundError(BrokerError):
    """The log directory does not exist in the broker config."""

    code = 57
    name = "LOG_DIR_NOT_FOUND"
    description = "The log directory does not exist in the broker config."


class SaslAuthenticationFailedError(BrokerError):
    """SASL authentication failed."""

    code = 58
    name = "SASL_AUTHENTICATION_FAILED"
    description = "SASL authentication failed."


class UnknownProducerIdError(BrokerError):
    """The broker has no state for this producer id."""

    code = 59
    name = "UNKNOWN_PRODUCER_ID"
    description = "The broker has no state for this producer id."


class ReassignmentInProgressError(BrokerError):
    """A partition reassignment is in progress."""

    code = 60
    name = "REASSIGNMENT_IN_PROGRESS"
    description = "A partition reassignment is in progress."


class DelegationTokenAuthDisabledError(BrokerError):
    """Delegation token authentication is disabled."""

    code = 61
    name = "DELEGATION_TOKEN_AUTH_DISABLED"
    description = "Delegation token authentication is disabled."


class DelegationTokenNotFoundError(BrokerError):
    """The delegation token was not found."""

    code = 62
    name = "DELEGATION_TOKEN_NOT_FOUND"
    description = "The delegation token was not found."


class DelegationTokenOwnerMismatchError(BrokerError):
    """The principal does not own the delegation token."""

    code = 63
    name = "DELEGATION_TOKEN_OWNER_MISMATCH"
    description = "The principal does not own the delegation token."


class DelegationTokenRequestNotAllowedError(BrokerError):
    """Delegation token requests are not allowed on this channel."""

    code = 64
    name = "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED"
    description = "Delegation token requests are not allowed on this channel."


class DelegationTokenAuthorizationFailedError(BrokerError):
    """Not authorized for the delegation token."""

    code = 65
    name = "DELEGATION_TOKEN_AUTHORIZATION_FAILED"
    description = "Not authorized for the delegation token."


class DelegationTokenExpiredError(BrokerError):
    """The delegation token has expired."""

    code = 66
    name = "DELEGATION_TOKEN_EXPIRED"
    description = "The delegation token has expired."


class InvalidPrincipalTypeError(BrokerError):
    """The principal type is not supported."""

    code = 67
    name = "INVALID_PRINCIPAL_TYPE"
    description = "The principal type is not supported."


class NonEmptyGroupError(BrokerError):
    """The group is not empty."""

    code = 68
    name = "NON_EMPTY_GROUP"
    description = "The group is not empty."


class GroupIdNotFoundError(BrokerError):
    """The group id does not exist."""

    code = 69
    name = "GROUP_ID_NOT_FOUND"
    description = "The group id does not exist."


class FetchSessionIdNotFoundError(RetriableBrokerError):
    """The fetch session id was not found."""

    code = 70
    name = "FETCH_SESSION_ID_NOT_FOUND"
    description = "The fetch session id was not found."


class InvalidFetchSessionEpochError(RetriableBrokerError):
    """The fetch session epoch is invalid."""

    code = 71
    name = "INVALID_FETCH_SESSION_EPOCH"
    description = "The fetch session epoch is invalid."


class ListenerNotFoundError(RetriableBrokerError):
    """The leader has no endpoint for the listener used."""

    code = 72
    name = "LISTENER_NOT_FOUND"
    description = "The leader has no endpoint for the listener used."


class TopicDeletionDisabledError(BrokerError):
    """Topic deletion is disabled."""

    code = 73
    name = "TOPIC_DELETION_DISABLED"
    description = "Topic deletion is disabled."


class FencedLeaderEpochError(RetriableBrokerError):
    """The leader epoch in the request is older than the broker's."""

    code = 74
    name = "FENCED_LEADER_EPOCH"
    description = "The leader epoch in the request is older than the broker's."


class UnknownLeaderEpochError(RetriableBrokerError):
    """The leader epoch in the request is newer than the broker's."""

    code = 75
    name = "UNKNOWN_LEADER_EPOCH"
    description = "The leader epoch in the request is newer than the broker's."


class UnsupportedCompressionTypeError(BrokerError):
    """The consumer's fetch version does not support the compression type."""

    code = 76
    name = "UNSUPPORTED_COMPRESSION_TYPE"
    description = "The consumer's fetch version does not support the compression type."


class StaleBrokerEpochError(BrokerError):
    """The broker epoch has changed."""

    code = 77
    name = "STALE_BROKER_EPOCH"
    description = "The broker epoch has changed."


class OffsetNotAvailableError(RetriableBrokerError):
    """The leader's high watermark has not caught up yet."""

    code = 78
    name = "OFFSET_NOT_AVAILABLE"
    description = "The leader's high watermark has not caught up yet."


class MemberIdRequiredError(BrokerError):
    """Rejoin with the member id the coordinator assigned."""

    code = 79
    name = "MEMBER_ID_REQUIRED"
    description = "Rejoin with the member id the coordinator assigned."


class PreferredLeaderNotAvailableError(RetriableBrokerError):
    """The preferred leader was not available."""

    code = 80
    name = "PREFERRED_LEADER_NOT_AVAILABLE"
    description = "The preferred leader was not available."


class GroupMaxSizeReachedError(BrokerError):
    """The group has reached its maximum size."""

    code = 81
    name = "GROUP_MAX_SIZE_REACHED"
    description = "The group has reached its maximum size."


class FencedInstanceIdError(BrokerError):
    """Another member with the same group.instance.id fenced this one."""

    code = 82
    name = "FENCED_INSTANCE_ID"
    description = "Another member with the same group.instance.id fenced this one."


class EligibleLeadersNotAvailableError(RetriableBrokerError):
    """No eligible leader for the partition."""

    code = 83
    name = "ELIGIBLE_LEADERS_NOT_AVAILABLE"
    description = "No eligible leader for the partition."


class ElectionNotNeededError(RetriableBrokerError):
    """The leader election was not needed."""

    code = 84
    name = "ELECTION_NOT_NEEDED"
    description = "The leader election was not needed."


class NoReassignmentInProgressError(BrokerError):
    """No partition reassignment is in progress."""

    code = 85
    name = "NO_REASSIGNMENT_IN_PROGRESS"
    description = "No partition reassignment is in progress."


class GroupSubscribedToTopicError(BrokerError):
    """The group is still subscribed to the topic."""

    code = 86
    name = "GROUP_SUBSCRIBED_TO_TOPIC"
    description = "The group is still subscribed to the topic."


class InvalidRecordError(BrokerError):
    """A record failed broker-side validation."""

    code = 87
    name = "INVALID_RECORD"
    description = "A record failed broker-side validation."


class UnstableOffsetCommitError(RetriableBrokerError):
    """Pending transactional offset commits; retry later."""

    code = 88
    name = "UNSTABLE_OFFSET_COMMIT"
    description = "Pending transactional offset commits; retry later."


class ThrottlingQuotaExceededError(RetriableBrokerError):
    """The throttling quota was exceeded."""

    code = 89
    name = "THROTTLING_QUOTA_EXCEEDED"
    description = "The throttling quota was exceeded."


class ProducerFencedError(BrokerError):
    """A newer producer with the same transactional id exists."""

    code = 90
    name = "PRODUCER_FENCED"
    description = "A newer producer with the same transactional id exists."


class ResourceNotFoundError(BrokerError):
    """The resource does not exist."""

    code = 91
    name = "RESOURCE_NOT_FOUND"
    description = "The resource does not exist."


class DuplicateResourceError(BrokerError):
    """The request names a resource more than once."""

    code = 92
    name = "DUPLICATE_RESOURCE"
    description = "The request names a resource more than once."


class UnacceptableCredentialError(BrokerError):
    """The credential does not meet the requirements."""

    code = 93
    name = "UNACCEPTABLE_CREDENTIAL"
    description = "The credential does not meet the requirements."


class InconsistentVoterSetError(BrokerError):
    """The voter set does not match the quorum's."""

    code = 94
    name = "INCONSISTENT_VOTER_SET"
    description = "The voter set does not match the quorum's."


class InvalidUpdateVersionError(BrokerError):
    """The update version is invalid."""

    code = 95
    name = "INVALID_UPDATE_VERSION"
    description = "The update version is invalid."


class FeatureUpdateFailedError(BrokerError):
    """The feature update could not be applied."""

    code = 96
    name = "FEATURE_UPDATE_FAILED"
    description = "The feature update could not be applied."


class PrincipalDeserializationFailureError(BrokerError):
    """The forwarded principal could not be deserialized."""

    code = 97
    name = "PRINCIPAL_DESERIALIZATION_FAILURE"
    description = "The forwarded principal could not be deserialized."


class SnapshotNotFoundError(BrokerError):
    """The requested snapshot was not found."""

    code = 98
    name = "SNAPSHOT_NOT_FOUND"
    description = "The requested snapshot was not found."


class PositionOutOfRangeError(BrokerError):
    """The requested position is outside the snapshot."""

    code = 99
    name = "POSITION_OUT_OF_RANGE"
    description = "The requested position is outside the snapshot."


class UnknownTopicIdError(RetriableBrokerError):
    """The broker does not know this topic id."""

    code = 100
    name = "UNKNOWN_TOPIC_ID"
    description = "The broker does not know this topic id."


class DuplicateBrokerRegistrationError(BrokerError):
    """The broker id is already registered."""

    code = 101
    name = "DUPLICATE_BROKER_REGISTRATION"
    description = "The broker id is already registered."


class BrokerIdNotRegisteredError(BrokerError):
    """The broker id is not registered."""

    code = 102
    name = "BROKER_ID_NOT_REGISTERED"
    description = "The broker id is not registered."


class InconsistentTopicIdError(RetriableBrokerError):
    """The topic id does not match the one in the log."""

    code = 103
    name = "INCONSISTENT_TOPIC_ID"
    description = "The topic id does not match the one in the log."


class InconsistentClusterIdError(BrokerError):
    """The cluster id does not match."""

    code = 104
    name = "INCONSISTENT_CLUSTER_ID"
    description = "The cluster id does not match."


class TransactionalIdNotFoundError(BrokerError):
    """The transactional id was not found."""

    code = 105
    name = "TRANSACTIONAL_ID_NOT_FOUND"
    description = "The transactional id was not found."


class FetchSessionTopicIdError(RetriableBrokerError):
    """The fetch session's topic ids changed."""

    code = 106
    name = "FETCH_SESSION_TOPIC_ID_ERROR"
    description = "The fetch session's topic ids changed."


class IneligibleReplicaError(BrokerError):
    """The new ISR holds a replica that is not eligible."""

    code = 107
    name = "INELIGIBLE_REPLICA"
    description = "The new ISR holds a replica that is not eligible."


class NewLeaderElectedError(BrokerError):
    """A new leader was elected while the request was pending."""

    code = 108
    name = "NEW_LEADER_ELECTED"
    description = "A new leader was elected while the request was pending."


class OffsetMovedToTieredStorageError(BrokerError):
    """The offset has moved to tiered storage."""

    code = 109
    name = "OFFSET_MOVED_TO_TIERED_STORAGE"
    description = "The offset has moved to tiered storage."


class FencedMemberEpochError(BrokerError):
    """The member epoch is fenced; rejoin with epoch 0."""

    code = 110
    name = "FENCED_MEMBER_EPOCH"
    description = "The member epoch is fenced; rejoin with epoch 0."


class UnreleasedInstanceIdError(BrokerError):
    """The instance id is still used by another member."""

    code = 111
    name = "UNRELEASED_INSTANCE_ID"
    description = "The instance id is still used by another member."


class UnsupportedAssignorError(BrokerError):
    """The assignor is not supported by the group."""

    code = 112
    name = "UNSUPPORTED_ASSIGNOR"
    description = "The assignor is not supported by the group."


class StaleMemberEpochError(BrokerError):
    """The member epoch is stale."""

    code = 113
    name = "STALE_MEMBER_EPOCH"
    description = "The member epoch is stale."


class MismatchedEndpointTypeError(BrokerError):
    """The request was sent to the wrong kind of endpoint."""

    code = 114
    name = "MISMATCHED_ENDPOINT_TYPE"
    description = "The request was sent to the wrong kind of endpoint."


class UnsupportedEndpointTypeError(BrokerError):
    """This endpoint type does not support the request."""

    code = 115
    name = "UNSUPPORTED_ENDPOINT_TYPE"
    description = "This endpoint type does not support the request."


class UnknownControllerIdError(BrokerError):
    """The controller id is unknown."""

    code = 116
    name = "UNKNOWN_CONTROLLER_ID"
    description = "The controller id is unknown."


class UnknownSubscriptionIdError(BrokerError):
    """The telemetry subscription id is unknown."""

    code = 117
    name = "UNKNOWN_SUBSCRIPTION_ID"
    description = "The telemetry subscription id is unknown."


class TelemetryTooLargeError(BrokerError):
    """The pushed telemetry exceeds the size limit."""

    code = 118
    name = "TELEMETRY_TOO_LARGE"
    description = "The pushed telemetry exceeds the size limit."


class InvalidRegistrationError(BrokerError):
    """The controller registration is invalid."""

    code = 119
    name = "INVALID_REGISTRATION"
    description = "The controller registration is invalid."


class TransactionAbortableError(BrokerError):
    """The transaction must be aborted."""

    code = 120
    name = "TRANSACTION_ABORTABLE"
    description = "The transaction must be aborted."


class InvalidRecordStateError(BrokerError):
    """The share-group record state is invalid for this operation."""

    code = 121
    name = "INVALID_RECORD_STATE"
    description = "The share-group record state is invalid for this operation."


class ShareSessionNotFoundError(RetriableBrokerError):
    """The share session was not found."""

    code = 122
    name = "SHARE_SESSION_NOT_FOUND"
    description = "The share session was not found."


class InvalidShareSessionEpochError(RetriableBrokerError):
    """The share session epoch is invalid."""

    code = 123
    name = "INVALID_SHARE_SESSION_EPOCH"
    description = "The share session epoch is invalid."


class FencedStateEpochError(BrokerError):
    """The share-group state epoch is fenced."""

    code = 124
    name = "FENCED_STATE_EPOCH"
    description = "The share-group state epoch is fenced."


class InvalidVoterKeyError(BrokerError):
    """The voter key does not match the receiving replica."""

    code = 125
    name = "INVALID_VOTER_KEY"
    description = "The voter key does not match the receiving replica."


class DuplicateVoterError(BrokerError):
    """The voter is already in the voter set."""

    code = 126
    name = "DUPLICATE_VOTER"
    description = "The voter is already in the voter set."


class VoterNotFoundError(BrokerError):
    """The voter is not in the voter set."""

    code = 127
    name = "VOTER_NOT_FOUND"
    description = "The voter is not in the voter set."


class InvalidRegularExpressionError(BrokerError):
    """The regular expression is invalid."""

    code = 128
    name = "INVALID_REGULAR_EXPRESSION"
    description = "The regular expression is invalid."


class RebootstrapRequiredError(BrokerError):
    """The client must rebootstrap its metadata."""

    code = 129
    name = "REBOOTSTRAP_REQUIRED"
    description = "The client must rebootstrap its metadata."


class StreamsInvalidTopologyError(BrokerError):
    """The streams topology is invalid."""

    code = 130
    name = "STREAMS_INVALID_TOPOLOGY"
    description = "The streams topology is invalid."


class StreamsInvalidTopologyEpochError(BrokerError):
    """The streams topology epoch is invalid."""

    code = 131
    name = "STREAMS_INVALID_TOPOLOGY_EPOCH"
    description = "The streams topology epoch is invalid."


class StreamsTopologyFencedError(BrokerError):
    """The streams topology was fenced by a newer one."""

    code = 132
    name = "STREAMS_TOPOLOGY_FENCED"
    description = "The streams topology was fenced by a newer one."


class ShareSessionLimitReachedError(RetriableBrokerError):
    """The broker's share session cache is full."""

    code = 133
    name = "SHARE_SESSION_LIMIT_REACHED"
    description = "The broker's share session cache is full."


BY_CODE: dict[int, type[BrokerError]] = {
    -1: UnknownServerError,
    1: OffsetOutOfRangeError,
    2: CorruptMessageError,
    3: UnknownTopicOrPartitionError,
    4: InvalidFetchSizeError,
    5: LeaderNotAvailableError,
    6: NotLeaderOrFollowerError,
    7: RequestTimedOutError,
    8: BrokerNotAvailableError,
    9: ReplicaNotAvailableError,
    10: MessageTooLargeError,
    11: StaleControllerEpochError,
    12: OffsetMetadataTooLargeError,
    13: NetworkError,
    14: CoordinatorLoadInProgressError,
    15: CoordinatorNotAvailableError,
    16: NotCoordinatorError,
    17: InvalidTopicError,
    18: RecordListTooLargeError,
    19: NotEnoughReplicasError,
    20: NotEnoughReplicasAfterAppendError,
    21: InvalidRequiredAcksError,
    22: IllegalGenerationError,
    23: InconsistentGroupProtocolError,
    24: InvalidGroupIdError,
    25: UnknownMemberIdError,
    26: InvalidSessionTimeoutError,
    27: RebalanceInProgressError,
    28: InvalidCommitOffsetSizeError,
    29: TopicAuthorizationFailedError,
    30: GroupAuthorizationFailedError,
    31: ClusterAuthorizationFailedError,
    32: InvalidTimestampError,
    33: UnsupportedSaslMechanismError,
    34: IllegalSaslStateError,
    35: UnsupportedVersionError,
    36: TopicAlreadyExistsError,
    37: InvalidPartitionsError,
    38: InvalidReplicationFactorError,
    39: InvalidReplicaAssignmentError,
    40: InvalidConfigError,
    41: NotControllerError,
    42: InvalidRequestError,
    43: UnsupportedForMessageFormatError,
    44: PolicyViolationError,
    45: OutOfOrderSequenceNumberError,
    46: DuplicateSequenceNumberError,
    47: InvalidProducerEpochError,
    48: InvalidTxnStateError,
    49: InvalidProducerIdMappingError,
    50: InvalidTransactionTimeoutError,
    51: ConcurrentTransactionsError,
    52: TransactionCoordinatorFencedError,
    53: TransactionalIdAuthorizationFailedError,
    54: SecurityDisabledError,
    55: OperationNotAttemptedError,
    56: KafkaStorageError,
    57: LogDirNotFoundError,
    58: SaslAuthenticationFailedError,
    59: UnknownProducerIdError,
    60: ReassignmentInProgressError,
    61: DelegationTokenAuthDisabledError,
    62: DelegationTokenNotFoundError,
    63: DelegationTokenOwnerMismatchError,
    64: DelegationTokenRequestNotAllowedError,
    65: DelegationTokenAuthorizationFailedError,
    66: DelegationTokenExpiredError,
    67: InvalidPrincipalTypeError,
    68: NonEmptyGroupError,
    69: GroupIdNotFoundError,
    70: FetchSessionIdNotFoundError,
    71: InvalidFetchSessionEpochError,
    72: ListenerNotFoundError,
    73: TopicDeletionDisabledError,
    74: FencedLeaderEpochError,
    75: UnknownLeaderEpochError,
    76: UnsupportedCompressionTypeError,
    77: StaleBrokerEpochError,
    78: OffsetNotAvailableError,
    79: MemberIdRequiredError,
    80: PreferredLeaderNotAvailableError,
    81: GroupMaxSizeReachedError,
    82: FencedInstanceIdError,
    83: EligibleLeadersNotAvailableError,
    84: ElectionNotNeededError,
    85: NoReassignmentInProgressError,
    86: GroupSubscribedToTopicError,
    87: InvalidRecordError,
    88: UnstableOffsetCommitError,
    89: ThrottlingQuotaExceededError,
    90: ProducerFencedError,
    91: ResourceNotFoundError,
    92: DuplicateResourceError,
    93: UnacceptableCredentialError,
    94: InconsistentVoterSetError,
    95: InvalidUpdateVersionError,
    96: FeatureUpdateFailedError,
    97: PrincipalDeserializationFailureError,
    98: SnapshotNotFoundError,
    99: PositionOutOfRangeError,
    100: UnknownTopicIdError,
    101: DuplicateBrokerRegistrationError,
    102: BrokerIdNotRegisteredError,
    103: InconsistentTopicIdError,
    104: InconsistentClusterIdError,
    105: TransactionalIdNotFoundError,
    106: FetchSessionTopicIdError,
    107: IneligibleReplicaError,
    108: NewLeaderElectedError,
    109: OffsetMovedToTieredStorageError,
    110: FencedMemberEpochError,
    111: UnreleasedInstanceIdError,
    112: UnsupportedAssignorError,
    113: StaleMemberEpochError,
    114: MismatchedEndpointTypeError,
    115: UnsupportedEndpointTypeError,
    116: UnknownControllerIdError,
    117: UnknownSubscriptionIdError,
    118: TelemetryTooLargeError,
    119: InvalidRegistrationError,
    120: TransactionAbortableError,
    121: InvalidRecordStateError,
    122: ShareSessionNotFoundError,
    123: InvalidShareSessionEpochError,
    124: FencedStateEpochError,
    125: InvalidVoterKeyError,
    126: DuplicateVoterError,
    127: VoterNotFoundError,
    128: InvalidRegularExpressionError,
    129: RebootstrapRequiredError,
    130: StreamsInvalidTopologyError,
    131: StreamsInvalidTopologyEpochError,
    132: StreamsTopologyFencedError,
    133: ShareSessionLimitReachedError,
}
