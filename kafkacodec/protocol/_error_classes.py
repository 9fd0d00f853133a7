# GENERATED — do not edit.  Source: tools/kafka_errors.py (Kafka's error codes);
# regenerate with `python tools/gen_protocol.py`.
"""The exception class of every broker error code.

``kafkacodec.protocol.errors`` names them, and imports this module when one is first named: a
program that meets no broker error never makes them.
"""
from kafkacodec.protocol._error_base import BrokerError, RetriableBrokerError

# where the classes are named for users, tracebacks and pickles
PUBLIC_MODULE = "kafkacodec.protocol.errors"

__all__ = [  # the classes; errors names BY_CODE itself
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


class UnknownServerError(BrokerError):
    """The server hit an unexpected error."""

    __module__ = PUBLIC_MODULE
    code = -1
    name = "UNKNOWN_SERVER_ERROR"
    description = "The server hit an unexpected error."


class OffsetOutOfRangeError(BrokerError):
    """The offset is outside the partition's log range."""

    __module__ = PUBLIC_MODULE
    code = 1
    name = "OFFSET_OUT_OF_RANGE"
    description = "The offset is outside the partition's log range."


class CorruptMessageError(RetriableBrokerError):
    """A message failed its checksum or is otherwise malformed."""

    __module__ = PUBLIC_MODULE
    code = 2
    name = "CORRUPT_MESSAGE"
    description = "A message failed its checksum or is otherwise malformed."


class UnknownTopicOrPartitionError(RetriableBrokerError):
    """The broker does not host this topic-partition."""

    __module__ = PUBLIC_MODULE
    code = 3
    name = "UNKNOWN_TOPIC_OR_PARTITION"
    description = "The broker does not host this topic-partition."


class InvalidFetchSizeError(BrokerError):
    """The requested fetch size is invalid."""

    __module__ = PUBLIC_MODULE
    code = 4
    name = "INVALID_FETCH_SIZE"
    description = "The requested fetch size is invalid."


class LeaderNotAvailableError(RetriableBrokerError):
    """The partition has no leader right now (election in progress)."""

    __module__ = PUBLIC_MODULE
    code = 5
    name = "LEADER_NOT_AVAILABLE"
    description = "The partition has no leader right now (election in progress)."


class NotLeaderOrFollowerError(RetriableBrokerError):
    """This broker is neither leader nor follower for the partition."""

    __module__ = PUBLIC_MODULE
    code = 6
    name = "NOT_LEADER_OR_FOLLOWER"
    description = "This broker is neither leader nor follower for the partition."


class RequestTimedOutError(RetriableBrokerError):
    """The request timed out on the broker."""

    __module__ = PUBLIC_MODULE
    code = 7
    name = "REQUEST_TIMED_OUT"
    description = "The request timed out on the broker."


class BrokerNotAvailableError(BrokerError):
    """The broker is not available."""

    __module__ = PUBLIC_MODULE
    code = 8
    name = "BROKER_NOT_AVAILABLE"
    description = "The broker is not available."


class ReplicaNotAvailableError(RetriableBrokerError):
    """The replica is not available for this partition."""

    __module__ = PUBLIC_MODULE
    code = 9
    name = "REPLICA_NOT_AVAILABLE"
    description = "The replica is not available for this partition."


class MessageTooLargeError(BrokerError):
    """The request holds a message larger than the server accepts."""

    __module__ = PUBLIC_MODULE
    code = 10
    name = "MESSAGE_TOO_LARGE"
    description = "The request holds a message larger than the server accepts."


class StaleControllerEpochError(BrokerError):
    """The controller epoch is older than the broker's."""

    __module__ = PUBLIC_MODULE
    code = 11
    name = "STALE_CONTROLLER_EPOCH"
    description = "The controller epoch is older than the broker's."


class OffsetMetadataTooLargeError(BrokerError):
    """The committed offset metadata string is too long."""

    __module__ = PUBLIC_MODULE
    code = 12
    name = "OFFSET_METADATA_TOO_LARGE"
    description = "The committed offset metadata string is too long."


class NetworkError(RetriableBrokerError):
    """The server disconnected before a response arrived."""

    __module__ = PUBLIC_MODULE
    code = 13
    name = "NETWORK_EXCEPTION"
    description = "The server disconnected before a response arrived."


class CoordinatorLoadInProgressError(RetriableBrokerError):
    """The coordinator is still loading its state."""

    __module__ = PUBLIC_MODULE
    code = 14
    name = "COORDINATOR_LOAD_IN_PROGRESS"
    description = "The coordinator is still loading its state."


class CoordinatorNotAvailableError(RetriableBrokerError):
    """The coordinator is not available."""

    __module__ = PUBLIC_MODULE
    code = 15
    name = "COORDINATOR_NOT_AVAILABLE"
    description = "The coordinator is not available."


class NotCoordinatorError(RetriableBrokerError):
    """This broker is not the coordinator for the key."""

    __module__ = PUBLIC_MODULE
    code = 16
    name = "NOT_COORDINATOR"
    description = "This broker is not the coordinator for the key."


class InvalidTopicError(BrokerError):
    """The topic name is invalid or the topic is internal."""

    __module__ = PUBLIC_MODULE
    code = 17
    name = "INVALID_TOPIC_EXCEPTION"
    description = "The topic name is invalid or the topic is internal."


class RecordListTooLargeError(BrokerError):
    """The record batch exceeds the maximum segment size."""

    __module__ = PUBLIC_MODULE
    code = 18
    name = "RECORD_LIST_TOO_LARGE"
    description = "The record batch exceeds the maximum segment size."


class NotEnoughReplicasError(RetriableBrokerError):
    """Fewer in-sync replicas than required for this acks setting."""

    __module__ = PUBLIC_MODULE
    code = 19
    name = "NOT_ENOUGH_REPLICAS"
    description = "Fewer in-sync replicas than required for this acks setting."


class NotEnoughReplicasAfterAppendError(RetriableBrokerError):
    """Written, but fewer in-sync replicas than required."""

    __module__ = PUBLIC_MODULE
    code = 20
    name = "NOT_ENOUGH_REPLICAS_AFTER_APPEND"
    description = "Written, but fewer in-sync replicas than required."


class InvalidRequiredAcksError(BrokerError):
    """The acks value is not -1, 0 or 1."""

    __module__ = PUBLIC_MODULE
    code = 21
    name = "INVALID_REQUIRED_ACKS"
    description = "The acks value is not -1, 0 or 1."


class IllegalGenerationError(BrokerError):
    """The group generation id is not current."""

    __module__ = PUBLIC_MODULE
    code = 22
    name = "ILLEGAL_GENERATION"
    description = "The group generation id is not current."


class InconsistentGroupProtocolError(BrokerError):
    """The member's protocols do not match the group's."""

    __module__ = PUBLIC_MODULE
    code = 23
    name = "INCONSISTENT_GROUP_PROTOCOL"
    description = "The member's protocols do not match the group's."


class InvalidGroupIdError(BrokerError):
    """The group id is empty or invalid."""

    __module__ = PUBLIC_MODULE
    code = 24
    name = "INVALID_GROUP_ID"
    description = "The group id is empty or invalid."


class UnknownMemberIdError(BrokerError):
    """The coordinator does not know this member id."""

    __module__ = PUBLIC_MODULE
    code = 25
    name = "UNKNOWN_MEMBER_ID"
    description = "The coordinator does not know this member id."


class InvalidSessionTimeoutError(BrokerError):
    """The session timeout is outside the broker's allowed range."""

    __module__ = PUBLIC_MODULE
    code = 26
    name = "INVALID_SESSION_TIMEOUT"
    description = "The session timeout is outside the broker's allowed range."


class RebalanceInProgressError(BrokerError):
    """The group is rebalancing; rejoin."""

    __module__ = PUBLIC_MODULE
    code = 27
    name = "REBALANCE_IN_PROGRESS"
    description = "The group is rebalancing; rejoin."


class InvalidCommitOffsetSizeError(BrokerError):
    """The offset commit was rejected for its size."""

    __module__ = PUBLIC_MODULE
    code = 28
    name = "INVALID_COMMIT_OFFSET_SIZE"
    description = "The offset commit was rejected for its size."


class TopicAuthorizationFailedError(BrokerError):
    """Not authorized to access the topic."""

    __module__ = PUBLIC_MODULE
    code = 29
    name = "TOPIC_AUTHORIZATION_FAILED"
    description = "Not authorized to access the topic."


class GroupAuthorizationFailedError(BrokerError):
    """Not authorized to access the group."""

    __module__ = PUBLIC_MODULE
    code = 30
    name = "GROUP_AUTHORIZATION_FAILED"
    description = "Not authorized to access the group."


class ClusterAuthorizationFailedError(BrokerError):
    """Not authorized for this cluster operation."""

    __module__ = PUBLIC_MODULE
    code = 31
    name = "CLUSTER_AUTHORIZATION_FAILED"
    description = "Not authorized for this cluster operation."


class InvalidTimestampError(BrokerError):
    """The record timestamp is out of the accepted range."""

    __module__ = PUBLIC_MODULE
    code = 32
    name = "INVALID_TIMESTAMP"
    description = "The record timestamp is out of the accepted range."


class UnsupportedSaslMechanismError(BrokerError):
    """The broker does not support the SASL mechanism."""

    __module__ = PUBLIC_MODULE
    code = 33
    name = "UNSUPPORTED_SASL_MECHANISM"
    description = "The broker does not support the SASL mechanism."


class IllegalSaslStateError(BrokerError):
    """The request is not valid in the current SASL state."""

    __module__ = PUBLIC_MODULE
    code = 34
    name = "ILLEGAL_SASL_STATE"
    description = "The request is not valid in the current SASL state."


class UnsupportedVersionError(BrokerError):
    """The broker does not support this request version."""

    __module__ = PUBLIC_MODULE
    code = 35
    name = "UNSUPPORTED_VERSION"
    description = "The broker does not support this request version."


class TopicAlreadyExistsError(BrokerError):
    """A topic with this name already exists."""

    __module__ = PUBLIC_MODULE
    code = 36
    name = "TOPIC_ALREADY_EXISTS"
    description = "A topic with this name already exists."


class InvalidPartitionsError(BrokerError):
    """The number of partitions is invalid."""

    __module__ = PUBLIC_MODULE
    code = 37
    name = "INVALID_PARTITIONS"
    description = "The number of partitions is invalid."


class InvalidReplicationFactorError(BrokerError):
    """The replication factor is invalid."""

    __module__ = PUBLIC_MODULE
    code = 38
    name = "INVALID_REPLICATION_FACTOR"
    description = "The replication factor is invalid."


class InvalidReplicaAssignmentError(BrokerError):
    """The replica assignment is invalid."""

    __module__ = PUBLIC_MODULE
    code = 39
    name = "INVALID_REPLICA_ASSIGNMENT"
    description = "The replica assignment is invalid."


class InvalidConfigError(BrokerError):
    """A configuration value is invalid."""

    __module__ = PUBLIC_MODULE
    code = 40
    name = "INVALID_CONFIG"
    description = "A configuration value is invalid."


class NotControllerError(RetriableBrokerError):
    """This broker is not the active controller."""

    __module__ = PUBLIC_MODULE
    code = 41
    name = "NOT_CONTROLLER"
    description = "This broker is not the active controller."


class InvalidRequestError(BrokerError):
    """The request is malformed or not valid here."""

    __module__ = PUBLIC_MODULE
    code = 42
    name = "INVALID_REQUEST"
    description = "The request is malformed or not valid here."


class UnsupportedForMessageFormatError(BrokerError):
    """The message format version does not support this."""

    __module__ = PUBLIC_MODULE
    code = 43
    name = "UNSUPPORTED_FOR_MESSAGE_FORMAT"
    description = "The message format version does not support this."


class PolicyViolationError(BrokerError):
    """The request breaks a configured policy."""

    __module__ = PUBLIC_MODULE
    code = 44
    name = "POLICY_VIOLATION"
    description = "The request breaks a configured policy."


class OutOfOrderSequenceNumberError(BrokerError):
    """The producer sequence number is out of order."""

    __module__ = PUBLIC_MODULE
    code = 45
    name = "OUT_OF_ORDER_SEQUENCE_NUMBER"
    description = "The producer sequence number is out of order."


class DuplicateSequenceNumberError(BrokerError):
    """The producer sent a duplicate sequence number."""

    __module__ = PUBLIC_MODULE
    code = 46
    name = "DUPLICATE_SEQUENCE_NUMBER"
    description = "The producer sent a duplicate sequence number."


class InvalidProducerEpochError(BrokerError):
    """The producer epoch is older than the current one."""

    __module__ = PUBLIC_MODULE
    code = 47
    name = "INVALID_PRODUCER_EPOCH"
    description = "The producer epoch is older than the current one."


class InvalidTxnStateError(BrokerError):
    """The operation is not valid in the transaction's state."""

    __module__ = PUBLIC_MODULE
    code = 48
    name = "INVALID_TXN_STATE"
    description = "The operation is not valid in the transaction's state."


class InvalidProducerIdMappingError(BrokerError):
    """The producer id does not match the transactional id."""

    __module__ = PUBLIC_MODULE
    code = 49
    name = "INVALID_PRODUCER_ID_MAPPING"
    description = "The producer id does not match the transactional id."


class InvalidTransactionTimeoutError(BrokerError):
    """The transaction timeout exceeds the broker maximum."""

    __module__ = PUBLIC_MODULE
    code = 50
    name = "INVALID_TRANSACTION_TIMEOUT"
    description = "The transaction timeout exceeds the broker maximum."


class ConcurrentTransactionsError(RetriableBrokerError):
    """Another transaction operation for this id is in progress."""

    __module__ = PUBLIC_MODULE
    code = 51
    name = "CONCURRENT_TRANSACTIONS"
    description = "Another transaction operation for this id is in progress."


class TransactionCoordinatorFencedError(BrokerError):
    """A newer transaction coordinator has taken over."""

    __module__ = PUBLIC_MODULE
    code = 52
    name = "TRANSACTION_COORDINATOR_FENCED"
    description = "A newer transaction coordinator has taken over."


class TransactionalIdAuthorizationFailedError(BrokerError):
    """Not authorized for the transactional id."""

    __module__ = PUBLIC_MODULE
    code = 53
    name = "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"
    description = "Not authorized for the transactional id."


class SecurityDisabledError(BrokerError):
    """Security features are disabled."""

    __module__ = PUBLIC_MODULE
    code = 54
    name = "SECURITY_DISABLED"
    description = "Security features are disabled."


class OperationNotAttemptedError(BrokerError):
    """Not attempted because a related operation failed."""

    __module__ = PUBLIC_MODULE
    code = 55
    name = "OPERATION_NOT_ATTEMPTED"
    description = "Not attempted because a related operation failed."


class KafkaStorageError(RetriableBrokerError):
    """A disk error on the broker made the data unavailable."""

    __module__ = PUBLIC_MODULE
    code = 56
    name = "KAFKA_STORAGE_ERROR"
    description = "A disk error on the broker made the data unavailable."


class LogDirNotFoundError(BrokerError):
    """The log directory does not exist in the broker config."""

    __module__ = PUBLIC_MODULE
    code = 57
    name = "LOG_DIR_NOT_FOUND"
    description = "The log directory does not exist in the broker config."


class SaslAuthenticationFailedError(BrokerError):
    """SASL authentication failed."""

    __module__ = PUBLIC_MODULE
    code = 58
    name = "SASL_AUTHENTICATION_FAILED"
    description = "SASL authentication failed."


class UnknownProducerIdError(BrokerError):
    """The broker has no state for this producer id."""

    __module__ = PUBLIC_MODULE
    code = 59
    name = "UNKNOWN_PRODUCER_ID"
    description = "The broker has no state for this producer id."


class ReassignmentInProgressError(BrokerError):
    """A partition reassignment is in progress."""

    __module__ = PUBLIC_MODULE
    code = 60
    name = "REASSIGNMENT_IN_PROGRESS"
    description = "A partition reassignment is in progress."


class DelegationTokenAuthDisabledError(BrokerError):
    """Delegation token authentication is disabled."""

    __module__ = PUBLIC_MODULE
    code = 61
    name = "DELEGATION_TOKEN_AUTH_DISABLED"
    description = "Delegation token authentication is disabled."


class DelegationTokenNotFoundError(BrokerError):
    """The delegation token was not found."""

    __module__ = PUBLIC_MODULE
    code = 62
    name = "DELEGATION_TOKEN_NOT_FOUND"
    description = "The delegation token was not found."


class DelegationTokenOwnerMismatchError(BrokerError):
    """The principal does not own the delegation token."""

    __module__ = PUBLIC_MODULE
    code = 63
    name = "DELEGATION_TOKEN_OWNER_MISMATCH"
    description = "The principal does not own the delegation token."


class DelegationTokenRequestNotAllowedError(BrokerError):
    """Delegation token requests are not allowed on this channel."""

    __module__ = PUBLIC_MODULE
    code = 64
    name = "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED"
    description = "Delegation token requests are not allowed on this channel."


class DelegationTokenAuthorizationFailedError(BrokerError):
    """Not authorized for the delegation token."""

    __module__ = PUBLIC_MODULE
    code = 65
    name = "DELEGATION_TOKEN_AUTHORIZATION_FAILED"
    description = "Not authorized for the delegation token."


class DelegationTokenExpiredError(BrokerError):
    """The delegation token has expired."""

    __module__ = PUBLIC_MODULE
    code = 66
    name = "DELEGATION_TOKEN_EXPIRED"
    description = "The delegation token has expired."


class InvalidPrincipalTypeError(BrokerError):
    """The principal type is not supported."""

    __module__ = PUBLIC_MODULE
    code = 67
    name = "INVALID_PRINCIPAL_TYPE"
    description = "The principal type is not supported."


class NonEmptyGroupError(BrokerError):
    """The group is not empty."""

    __module__ = PUBLIC_MODULE
    code = 68
    name = "NON_EMPTY_GROUP"
    description = "The group is not empty."


class GroupIdNotFoundError(BrokerError):
    """The group id does not exist."""

    __module__ = PUBLIC_MODULE
    code = 69
    name = "GROUP_ID_NOT_FOUND"
    description = "The group id does not exist."


class FetchSessionIdNotFoundError(RetriableBrokerError):
    """The fetch session id was not found."""

    __module__ = PUBLIC_MODULE
    code = 70
    name = "FETCH_SESSION_ID_NOT_FOUND"
    description = "The fetch session id was not found."


class InvalidFetchSessionEpochError(RetriableBrokerError):
    """The fetch session epoch is invalid."""

    __module__ = PUBLIC_MODULE
    code = 71
    name = "INVALID_FETCH_SESSION_EPOCH"
    description = "The fetch session epoch is invalid."


class ListenerNotFoundError(RetriableBrokerError):
    """The leader has no endpoint for the listener used."""

    __module__ = PUBLIC_MODULE
    code = 72
    name = "LISTENER_NOT_FOUND"
    description = "The leader has no endpoint for the listener used."


class TopicDeletionDisabledError(BrokerError):
    """Topic deletion is disabled."""

    __module__ = PUBLIC_MODULE
    code = 73
    name = "TOPIC_DELETION_DISABLED"
    description = "Topic deletion is disabled."


class FencedLeaderEpochError(RetriableBrokerError):
    """The leader epoch in the request is older than the broker's."""

    __module__ = PUBLIC_MODULE
    code = 74
    name = "FENCED_LEADER_EPOCH"
    description = "The leader epoch in the request is older than the broker's."


class UnknownLeaderEpochError(RetriableBrokerError):
    """The leader epoch in the request is newer than the broker's."""

    __module__ = PUBLIC_MODULE
    code = 75
    name = "UNKNOWN_LEADER_EPOCH"
    description = "The leader epoch in the request is newer than the broker's."


class UnsupportedCompressionTypeError(BrokerError):
    """The consumer's fetch version does not support the compression type."""

    __module__ = PUBLIC_MODULE
    code = 76
    name = "UNSUPPORTED_COMPRESSION_TYPE"
    description = "The consumer's fetch version does not support the compression type."


class StaleBrokerEpochError(BrokerError):
    """The broker epoch has changed."""

    __module__ = PUBLIC_MODULE
    code = 77
    name = "STALE_BROKER_EPOCH"
    description = "The broker epoch has changed."


class OffsetNotAvailableError(RetriableBrokerError):
    """The leader's high watermark has not caught up yet."""

    __module__ = PUBLIC_MODULE
    code = 78
    name = "OFFSET_NOT_AVAILABLE"
    description = "The leader's high watermark has not caught up yet."


class MemberIdRequiredError(BrokerError):
    """Rejoin with the member id the coordinator assigned."""

    __module__ = PUBLIC_MODULE
    code = 79
    name = "MEMBER_ID_REQUIRED"
    description = "Rejoin with the member id the coordinator assigned."


class PreferredLeaderNotAvailableError(RetriableBrokerError):
    """The preferred leader was not available."""

    __module__ = PUBLIC_MODULE
    code = 80
    name = "PREFERRED_LEADER_NOT_AVAILABLE"
    description = "The preferred leader was not available."


class GroupMaxSizeReachedError(BrokerError):
    """The group has reached its maximum size."""

    __module__ = PUBLIC_MODULE
    code = 81
    name = "GROUP_MAX_SIZE_REACHED"
    description = "The group has reached its maximum size."


class FencedInstanceIdError(BrokerError):
    """Another member with the same group.instance.id fenced this one."""

    __module__ = PUBLIC_MODULE
    code = 82
    name = "FENCED_INSTANCE_ID"
    description = "Another member with the same group.instance.id fenced this one."


class EligibleLeadersNotAvailableError(RetriableBrokerError):
    """No eligible leader for the partition."""

    __module__ = PUBLIC_MODULE
    code = 83
    name = "ELIGIBLE_LEADERS_NOT_AVAILABLE"
    description = "No eligible leader for the partition."


class ElectionNotNeededError(RetriableBrokerError):
    """The leader election was not needed."""

    __module__ = PUBLIC_MODULE
    code = 84
    name = "ELECTION_NOT_NEEDED"
    description = "The leader election was not needed."


class NoReassignmentInProgressError(BrokerError):
    """No partition reassignment is in progress."""

    __module__ = PUBLIC_MODULE
    code = 85
    name = "NO_REASSIGNMENT_IN_PROGRESS"
    description = "No partition reassignment is in progress."


class GroupSubscribedToTopicError(BrokerError):
    """The group is still subscribed to the topic."""

    __module__ = PUBLIC_MODULE
    code = 86
    name = "GROUP_SUBSCRIBED_TO_TOPIC"
    description = "The group is still subscribed to the topic."


class InvalidRecordError(BrokerError):
    """A record failed broker-side validation."""

    __module__ = PUBLIC_MODULE
    code = 87
    name = "INVALID_RECORD"
    description = "A record failed broker-side validation."


class UnstableOffsetCommitError(RetriableBrokerError):
    """Pending transactional offset commits; retry later."""

    __module__ = PUBLIC_MODULE
    code = 88
    name = "UNSTABLE_OFFSET_COMMIT"
    description = "Pending transactional offset commits; retry later."


class ThrottlingQuotaExceededError(RetriableBrokerError):
    """The throttling quota was exceeded."""

    __module__ = PUBLIC_MODULE
    code = 89
    name = "THROTTLING_QUOTA_EXCEEDED"
    description = "The throttling quota was exceeded."


class ProducerFencedError(BrokerError):
    """A newer producer with the same transactional id exists."""

    __module__ = PUBLIC_MODULE
    code = 90
    name = "PRODUCER_FENCED"
    description = "A newer producer with the same transactional id exists."


class ResourceNotFoundError(BrokerError):
    """The resource does not exist."""

    __module__ = PUBLIC_MODULE
    code = 91
    name = "RESOURCE_NOT_FOUND"
    description = "The resource does not exist."


class DuplicateResourceError(BrokerError):
    """The request names a resource more than once."""

    __module__ = PUBLIC_MODULE
    code = 92
    name = "DUPLICATE_RESOURCE"
    description = "The request names a resource more than once."


class UnacceptableCredentialError(BrokerError):
    """The credential does not meet the requirements."""

    __module__ = PUBLIC_MODULE
    code = 93
    name = "UNACCEPTABLE_CREDENTIAL"
    description = "The credential does not meet the requirements."


class InconsistentVoterSetError(BrokerError):
    """The voter set does not match the quorum's."""

    __module__ = PUBLIC_MODULE
    code = 94
    name = "INCONSISTENT_VOTER_SET"
    description = "The voter set does not match the quorum's."


class InvalidUpdateVersionError(BrokerError):
    """The update version is invalid."""

    __module__ = PUBLIC_MODULE
    code = 95
    name = "INVALID_UPDATE_VERSION"
    description = "The update version is invalid."


class FeatureUpdateFailedError(BrokerError):
    """The feature update could not be applied."""

    __module__ = PUBLIC_MODULE
    code = 96
    name = "FEATURE_UPDATE_FAILED"
    description = "The feature update could not be applied."


class PrincipalDeserializationFailureError(BrokerError):
    """The forwarded principal could not be deserialized."""

    __module__ = PUBLIC_MODULE
    code = 97
    name = "PRINCIPAL_DESERIALIZATION_FAILURE"
    description = "The forwarded principal could not be deserialized."


class SnapshotNotFoundError(BrokerError):
    """The requested snapshot was not found."""

    __module__ = PUBLIC_MODULE
    code = 98
    name = "SNAPSHOT_NOT_FOUND"
    description = "The requested snapshot was not found."


class PositionOutOfRangeError(BrokerError):
    """The requested position is outside the snapshot."""

    __module__ = PUBLIC_MODULE
    code = 99
    name = "POSITION_OUT_OF_RANGE"
    description = "The requested position is outside the snapshot."


class UnknownTopicIdError(RetriableBrokerError):
    """The broker does not know this topic id."""

    __module__ = PUBLIC_MODULE
    code = 100
    name = "UNKNOWN_TOPIC_ID"
    description = "The broker does not know this topic id."


class DuplicateBrokerRegistrationError(BrokerError):
    """The broker id is already registered."""

    __module__ = PUBLIC_MODULE
    code = 101
    name = "DUPLICATE_BROKER_REGISTRATION"
    description = "The broker id is already registered."


class BrokerIdNotRegisteredError(BrokerError):
    """The broker id is not registered."""

    __module__ = PUBLIC_MODULE
    code = 102
    name = "BROKER_ID_NOT_REGISTERED"
    description = "The broker id is not registered."


class InconsistentTopicIdError(RetriableBrokerError):
    """The topic id does not match the one in the log."""

    __module__ = PUBLIC_MODULE
    code = 103
    name = "INCONSISTENT_TOPIC_ID"
    description = "The topic id does not match the one in the log."


class InconsistentClusterIdError(BrokerError):
    """The cluster id does not match."""

    __module__ = PUBLIC_MODULE
    code = 104
    name = "INCONSISTENT_CLUSTER_ID"
    description = "The cluster id does not match."


class TransactionalIdNotFoundError(BrokerError):
    """The transactional id was not found."""

    __module__ = PUBLIC_MODULE
    code = 105
    name = "TRANSACTIONAL_ID_NOT_FOUND"
    description = "The transactional id was not found."


class FetchSessionTopicIdError(RetriableBrokerError):
    """The fetch session's topic ids changed."""

    __module__ = PUBLIC_MODULE
    code = 106
    name = "FETCH_SESSION_TOPIC_ID_ERROR"
    description = "The fetch session's topic ids changed."


class IneligibleReplicaError(BrokerError):
    """The new ISR holds a replica that is not eligible."""

    __module__ = PUBLIC_MODULE
    code = 107
    name = "INELIGIBLE_REPLICA"
    description = "The new ISR holds a replica that is not eligible."


class NewLeaderElectedError(BrokerError):
    """A new leader was elected while the request was pending."""

    __module__ = PUBLIC_MODULE
    code = 108
    name = "NEW_LEADER_ELECTED"
    description = "A new leader was elected while the request was pending."


class OffsetMovedToTieredStorageError(BrokerError):
    """The offset has moved to tiered storage."""

    __module__ = PUBLIC_MODULE
    code = 109
    name = "OFFSET_MOVED_TO_TIERED_STORAGE"
    description = "The offset has moved to tiered storage."


class FencedMemberEpochError(BrokerError):
    """The member epoch is fenced; rejoin with epoch 0."""

    __module__ = PUBLIC_MODULE
    code = 110
    name = "FENCED_MEMBER_EPOCH"
    description = "The member epoch is fenced; rejoin with epoch 0."


class UnreleasedInstanceIdError(BrokerError):
    """The instance id is still used by another member."""

    __module__ = PUBLIC_MODULE
    code = 111
    name = "UNRELEASED_INSTANCE_ID"
    description = "The instance id is still used by another member."


class UnsupportedAssignorError(BrokerError):
    """The assignor is not supported by the group."""

    __module__ = PUBLIC_MODULE
    code = 112
    name = "UNSUPPORTED_ASSIGNOR"
    description = "The assignor is not supported by the group."


class StaleMemberEpochError(BrokerError):
    """The member epoch is stale."""

    __module__ = PUBLIC_MODULE
    code = 113
    name = "STALE_MEMBER_EPOCH"
    description = "The member epoch is stale."


class MismatchedEndpointTypeError(BrokerError):
    """The request was sent to the wrong kind of endpoint."""

    __module__ = PUBLIC_MODULE
    code = 114
    name = "MISMATCHED_ENDPOINT_TYPE"
    description = "The request was sent to the wrong kind of endpoint."


class UnsupportedEndpointTypeError(BrokerError):
    """This endpoint type does not support the request."""

    __module__ = PUBLIC_MODULE
    code = 115
    name = "UNSUPPORTED_ENDPOINT_TYPE"
    description = "This endpoint type does not support the request."


class UnknownControllerIdError(BrokerError):
    """The controller id is unknown."""

    __module__ = PUBLIC_MODULE
    code = 116
    name = "UNKNOWN_CONTROLLER_ID"
    description = "The controller id is unknown."


class UnknownSubscriptionIdError(BrokerError):
    """The telemetry subscription id is unknown."""

    __module__ = PUBLIC_MODULE
    code = 117
    name = "UNKNOWN_SUBSCRIPTION_ID"
    description = "The telemetry subscription id is unknown."


class TelemetryTooLargeError(BrokerError):
    """The pushed telemetry exceeds the size limit."""

    __module__ = PUBLIC_MODULE
    code = 118
    name = "TELEMETRY_TOO_LARGE"
    description = "The pushed telemetry exceeds the size limit."


class InvalidRegistrationError(BrokerError):
    """The controller registration is invalid."""

    __module__ = PUBLIC_MODULE
    code = 119
    name = "INVALID_REGISTRATION"
    description = "The controller registration is invalid."


class TransactionAbortableError(BrokerError):
    """The transaction must be aborted."""

    __module__ = PUBLIC_MODULE
    code = 120
    name = "TRANSACTION_ABORTABLE"
    description = "The transaction must be aborted."


class InvalidRecordStateError(BrokerError):
    """The share-group record state is invalid for this operation."""

    __module__ = PUBLIC_MODULE
    code = 121
    name = "INVALID_RECORD_STATE"
    description = "The share-group record state is invalid for this operation."


class ShareSessionNotFoundError(RetriableBrokerError):
    """The share session was not found."""

    __module__ = PUBLIC_MODULE
    code = 122
    name = "SHARE_SESSION_NOT_FOUND"
    description = "The share session was not found."


class InvalidShareSessionEpochError(RetriableBrokerError):
    """The share session epoch is invalid."""

    __module__ = PUBLIC_MODULE
    code = 123
    name = "INVALID_SHARE_SESSION_EPOCH"
    description = "The share session epoch is invalid."


class FencedStateEpochError(BrokerError):
    """The share-group state epoch is fenced."""

    __module__ = PUBLIC_MODULE
    code = 124
    name = "FENCED_STATE_EPOCH"
    description = "The share-group state epoch is fenced."


class InvalidVoterKeyError(BrokerError):
    """The voter key does not match the receiving replica."""

    __module__ = PUBLIC_MODULE
    code = 125
    name = "INVALID_VOTER_KEY"
    description = "The voter key does not match the receiving replica."


class DuplicateVoterError(BrokerError):
    """The voter is already in the voter set."""

    __module__ = PUBLIC_MODULE
    code = 126
    name = "DUPLICATE_VOTER"
    description = "The voter is already in the voter set."


class VoterNotFoundError(BrokerError):
    """The voter is not in the voter set."""

    __module__ = PUBLIC_MODULE
    code = 127
    name = "VOTER_NOT_FOUND"
    description = "The voter is not in the voter set."


class InvalidRegularExpressionError(BrokerError):
    """The regular expression is invalid."""

    __module__ = PUBLIC_MODULE
    code = 128
    name = "INVALID_REGULAR_EXPRESSION"
    description = "The regular expression is invalid."


class RebootstrapRequiredError(BrokerError):
    """The client must rebootstrap its metadata."""

    __module__ = PUBLIC_MODULE
    code = 129
    name = "REBOOTSTRAP_REQUIRED"
    description = "The client must rebootstrap its metadata."


class StreamsInvalidTopologyError(BrokerError):
    """The streams topology is invalid."""

    __module__ = PUBLIC_MODULE
    code = 130
    name = "STREAMS_INVALID_TOPOLOGY"
    description = "The streams topology is invalid."


class StreamsInvalidTopologyEpochError(BrokerError):
    """The streams topology epoch is invalid."""

    __module__ = PUBLIC_MODULE
    code = 131
    name = "STREAMS_INVALID_TOPOLOGY_EPOCH"
    description = "The streams topology epoch is invalid."


class StreamsTopologyFencedError(BrokerError):
    """The streams topology was fenced by a newer one."""

    __module__ = PUBLIC_MODULE
    code = 132
    name = "STREAMS_TOPOLOGY_FENCED"
    description = "The streams topology was fenced by a newer one."


class ShareSessionLimitReachedError(RetriableBrokerError):
    """The broker's share session cache is full."""

    __module__ = PUBLIC_MODULE
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
