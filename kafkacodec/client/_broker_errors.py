# GENERATED — do not edit.  Source: tools/kafka_errors.py (Kafka's error codes);
# regenerate with `python tools/gen_protocol.py`.
"""The client's exception class for every broker error code.

Each derives from the protocol's class for its code and from :class:`BrokerResponseError`, so
``except protocol.errors.NotLeaderOrFollowerError`` and ``except client.errors.BrokerResponseError``
both catch a ``client.errors.NotLeaderOrFollowerError``.  ``kafkacodec.client.errors`` names them,
and imports this module when one is first named.
"""
from kafkacodec.client._response_error import BrokerResponseError
from kafkacodec.protocol import _error_classes as _protocol

# where the classes are named for users, tracebacks and pickles
PUBLIC_MODULE = "kafkacodec.client.errors"

__all__ = [  # the classes
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


class UnknownServerError(_protocol.UnknownServerError, BrokerResponseError):
    """The server hit an unexpected error."""

    __module__ = PUBLIC_MODULE


class OffsetOutOfRangeError(_protocol.OffsetOutOfRangeError, BrokerResponseError):
    """The offset is outside the partition's log range."""

    __module__ = PUBLIC_MODULE


class CorruptMessageError(_protocol.CorruptMessageError, BrokerResponseError):
    """A message failed its checksum or is otherwise malformed."""

    __module__ = PUBLIC_MODULE


class UnknownTopicOrPartitionError(_protocol.UnknownTopicOrPartitionError, BrokerResponseError):
    """The broker does not host this topic-partition."""

    __module__ = PUBLIC_MODULE


class InvalidFetchSizeError(_protocol.InvalidFetchSizeError, BrokerResponseError):
    """The requested fetch size is invalid."""

    __module__ = PUBLIC_MODULE


class LeaderNotAvailableError(_protocol.LeaderNotAvailableError, BrokerResponseError):
    """The partition has no leader right now (election in progress)."""

    __module__ = PUBLIC_MODULE


class NotLeaderOrFollowerError(_protocol.NotLeaderOrFollowerError, BrokerResponseError):
    """This broker is neither leader nor follower for the partition."""

    __module__ = PUBLIC_MODULE


class RequestTimedOutError(_protocol.RequestTimedOutError, BrokerResponseError):
    """The request timed out on the broker."""

    __module__ = PUBLIC_MODULE


class BrokerNotAvailableError(_protocol.BrokerNotAvailableError, BrokerResponseError):
    """The broker is not available."""

    __module__ = PUBLIC_MODULE


class ReplicaNotAvailableError(_protocol.ReplicaNotAvailableError, BrokerResponseError):
    """The replica is not available for this partition."""

    __module__ = PUBLIC_MODULE


class MessageTooLargeError(_protocol.MessageTooLargeError, BrokerResponseError):
    """The request holds a message larger than the server accepts."""

    __module__ = PUBLIC_MODULE


class StaleControllerEpochError(_protocol.StaleControllerEpochError, BrokerResponseError):
    """The controller epoch is older than the broker's."""

    __module__ = PUBLIC_MODULE


class OffsetMetadataTooLargeError(_protocol.OffsetMetadataTooLargeError, BrokerResponseError):
    """The committed offset metadata string is too long."""

    __module__ = PUBLIC_MODULE


class NetworkError(_protocol.NetworkError, BrokerResponseError):
    """The server disconnected before a response arrived."""

    __module__ = PUBLIC_MODULE


class CoordinatorLoadInProgressError(_protocol.CoordinatorLoadInProgressError, BrokerResponseError):
    """The coordinator is still loading its state."""

    __module__ = PUBLIC_MODULE


class CoordinatorNotAvailableError(_protocol.CoordinatorNotAvailableError, BrokerResponseError):
    """The coordinator is not available."""

    __module__ = PUBLIC_MODULE


class NotCoordinatorError(_protocol.NotCoordinatorError, BrokerResponseError):
    """This broker is not the coordinator for the key."""

    __module__ = PUBLIC_MODULE


class InvalidTopicError(_protocol.InvalidTopicError, BrokerResponseError):
    """The topic name is invalid or the topic is internal."""

    __module__ = PUBLIC_MODULE


class RecordListTooLargeError(_protocol.RecordListTooLargeError, BrokerResponseError):
    """The record batch exceeds the maximum segment size."""

    __module__ = PUBLIC_MODULE


class NotEnoughReplicasError(_protocol.NotEnoughReplicasError, BrokerResponseError):
    """Fewer in-sync replicas than required for this acks setting."""

    __module__ = PUBLIC_MODULE


class NotEnoughReplicasAfterAppendError(_protocol.NotEnoughReplicasAfterAppendError, BrokerResponseError):
    """Written, but fewer in-sync replicas than required."""

    __module__ = PUBLIC_MODULE


class InvalidRequiredAcksError(_protocol.InvalidRequiredAcksError, BrokerResponseError):
    """The acks value is not -1, 0 or 1."""

    __module__ = PUBLIC_MODULE


class IllegalGenerationError(_protocol.IllegalGenerationError, BrokerResponseError):
    """The group generation id is not current."""

    __module__ = PUBLIC_MODULE


class InconsistentGroupProtocolError(_protocol.InconsistentGroupProtocolError, BrokerResponseError):
    """The member's protocols do not match the group's."""

    __module__ = PUBLIC_MODULE


class InvalidGroupIdError(_protocol.InvalidGroupIdError, BrokerResponseError):
    """The group id is empty or invalid."""

    __module__ = PUBLIC_MODULE


class UnknownMemberIdError(_protocol.UnknownMemberIdError, BrokerResponseError):
    """The coordinator does not know this member id."""

    __module__ = PUBLIC_MODULE


class InvalidSessionTimeoutError(_protocol.InvalidSessionTimeoutError, BrokerResponseError):
    """The session timeout is outside the broker's allowed range."""

    __module__ = PUBLIC_MODULE


class RebalanceInProgressError(_protocol.RebalanceInProgressError, BrokerResponseError):
    """The group is rebalancing; rejoin."""

    __module__ = PUBLIC_MODULE


class InvalidCommitOffsetSizeError(_protocol.InvalidCommitOffsetSizeError, BrokerResponseError):
    """The offset commit was rejected for its size."""

    __module__ = PUBLIC_MODULE


class TopicAuthorizationFailedError(_protocol.TopicAuthorizationFailedError, BrokerResponseError):
    """Not authorized to access the topic."""

    __module__ = PUBLIC_MODULE


class GroupAuthorizationFailedError(_protocol.GroupAuthorizationFailedError, BrokerResponseError):
    """Not authorized to access the group."""

    __module__ = PUBLIC_MODULE


class ClusterAuthorizationFailedError(_protocol.ClusterAuthorizationFailedError, BrokerResponseError):
    """Not authorized for this cluster operation."""

    __module__ = PUBLIC_MODULE


class InvalidTimestampError(_protocol.InvalidTimestampError, BrokerResponseError):
    """The record timestamp is out of the accepted range."""

    __module__ = PUBLIC_MODULE


class UnsupportedSaslMechanismError(_protocol.UnsupportedSaslMechanismError, BrokerResponseError):
    """The broker does not support the SASL mechanism."""

    __module__ = PUBLIC_MODULE


class IllegalSaslStateError(_protocol.IllegalSaslStateError, BrokerResponseError):
    """The request is not valid in the current SASL state."""

    __module__ = PUBLIC_MODULE


class UnsupportedVersionError(_protocol.UnsupportedVersionError, BrokerResponseError):
    """The broker does not support this request version."""

    __module__ = PUBLIC_MODULE


class TopicAlreadyExistsError(_protocol.TopicAlreadyExistsError, BrokerResponseError):
    """A topic with this name already exists."""

    __module__ = PUBLIC_MODULE


class InvalidPartitionsError(_protocol.InvalidPartitionsError, BrokerResponseError):
    """The number of partitions is invalid."""

    __module__ = PUBLIC_MODULE


class InvalidReplicationFactorError(_protocol.InvalidReplicationFactorError, BrokerResponseError):
    """The replication factor is invalid."""

    __module__ = PUBLIC_MODULE


class InvalidReplicaAssignmentError(_protocol.InvalidReplicaAssignmentError, BrokerResponseError):
    """The replica assignment is invalid."""

    __module__ = PUBLIC_MODULE


class InvalidConfigError(_protocol.InvalidConfigError, BrokerResponseError):
    """A configuration value is invalid."""

    __module__ = PUBLIC_MODULE


class NotControllerError(_protocol.NotControllerError, BrokerResponseError):
    """This broker is not the active controller."""

    __module__ = PUBLIC_MODULE


class InvalidRequestError(_protocol.InvalidRequestError, BrokerResponseError):
    """The request is malformed or not valid here."""

    __module__ = PUBLIC_MODULE


class UnsupportedForMessageFormatError(_protocol.UnsupportedForMessageFormatError, BrokerResponseError):
    """The message format version does not support this."""

    __module__ = PUBLIC_MODULE


class PolicyViolationError(_protocol.PolicyViolationError, BrokerResponseError):
    """The request breaks a configured policy."""

    __module__ = PUBLIC_MODULE


class OutOfOrderSequenceNumberError(_protocol.OutOfOrderSequenceNumberError, BrokerResponseError):
    """The producer sequence number is out of order."""

    __module__ = PUBLIC_MODULE


class DuplicateSequenceNumberError(_protocol.DuplicateSequenceNumberError, BrokerResponseError):
    """The producer sent a duplicate sequence number."""

    __module__ = PUBLIC_MODULE


class InvalidProducerEpochError(_protocol.InvalidProducerEpochError, BrokerResponseError):
    """The producer epoch is older than the current one."""

    __module__ = PUBLIC_MODULE


class InvalidTxnStateError(_protocol.InvalidTxnStateError, BrokerResponseError):
    """The operation is not valid in the transaction's state."""

    __module__ = PUBLIC_MODULE


class InvalidProducerIdMappingError(_protocol.InvalidProducerIdMappingError, BrokerResponseError):
    """The producer id does not match the transactional id."""

    __module__ = PUBLIC_MODULE


class InvalidTransactionTimeoutError(_protocol.InvalidTransactionTimeoutError, BrokerResponseError):
    """The transaction timeout exceeds the broker maximum."""

    __module__ = PUBLIC_MODULE


class ConcurrentTransactionsError(_protocol.ConcurrentTransactionsError, BrokerResponseError):
    """Another transaction operation for this id is in progress."""

    __module__ = PUBLIC_MODULE


class TransactionCoordinatorFencedError(_protocol.TransactionCoordinatorFencedError, BrokerResponseError):
    """A newer transaction coordinator has taken over."""

    __module__ = PUBLIC_MODULE


class TransactionalIdAuthorizationFailedError(_protocol.TransactionalIdAuthorizationFailedError, BrokerResponseError):
    """Not authorized for the transactional id."""

    __module__ = PUBLIC_MODULE


class SecurityDisabledError(_protocol.SecurityDisabledError, BrokerResponseError):
    """Security features are disabled."""

    __module__ = PUBLIC_MODULE


class OperationNotAttemptedError(_protocol.OperationNotAttemptedError, BrokerResponseError):
    """Not attempted because a related operation failed."""

    __module__ = PUBLIC_MODULE


class KafkaStorageError(_protocol.KafkaStorageError, BrokerResponseError):
    """A disk error on the broker made the data unavailable."""

    __module__ = PUBLIC_MODULE


class LogDirNotFoundError(_protocol.LogDirNotFoundError, BrokerResponseError):
    """The log directory does not exist in the broker config."""

    __module__ = PUBLIC_MODULE


class SaslAuthenticationFailedError(_protocol.SaslAuthenticationFailedError, BrokerResponseError):
    """SASL authentication failed."""

    __module__ = PUBLIC_MODULE


class UnknownProducerIdError(_protocol.UnknownProducerIdError, BrokerResponseError):
    """The broker has no state for this producer id."""

    __module__ = PUBLIC_MODULE


class ReassignmentInProgressError(_protocol.ReassignmentInProgressError, BrokerResponseError):
    """A partition reassignment is in progress."""

    __module__ = PUBLIC_MODULE


class DelegationTokenAuthDisabledError(_protocol.DelegationTokenAuthDisabledError, BrokerResponseError):
    """Delegation token authentication is disabled."""

    __module__ = PUBLIC_MODULE


class DelegationTokenNotFoundError(_protocol.DelegationTokenNotFoundError, BrokerResponseError):
    """The delegation token was not found."""

    __module__ = PUBLIC_MODULE


class DelegationTokenOwnerMismatchError(_protocol.DelegationTokenOwnerMismatchError, BrokerResponseError):
    """The principal does not own the delegation token."""

    __module__ = PUBLIC_MODULE


class DelegationTokenRequestNotAllowedError(_protocol.DelegationTokenRequestNotAllowedError, BrokerResponseError):
    """Delegation token requests are not allowed on this channel."""

    __module__ = PUBLIC_MODULE


class DelegationTokenAuthorizationFailedError(_protocol.DelegationTokenAuthorizationFailedError, BrokerResponseError):
    """Not authorized for the delegation token."""

    __module__ = PUBLIC_MODULE


class DelegationTokenExpiredError(_protocol.DelegationTokenExpiredError, BrokerResponseError):
    """The delegation token has expired."""

    __module__ = PUBLIC_MODULE


class InvalidPrincipalTypeError(_protocol.InvalidPrincipalTypeError, BrokerResponseError):
    """The principal type is not supported."""

    __module__ = PUBLIC_MODULE


class NonEmptyGroupError(_protocol.NonEmptyGroupError, BrokerResponseError):
    """The group is not empty."""

    __module__ = PUBLIC_MODULE


class GroupIdNotFoundError(_protocol.GroupIdNotFoundError, BrokerResponseError):
    """The group id does not exist."""

    __module__ = PUBLIC_MODULE


class FetchSessionIdNotFoundError(_protocol.FetchSessionIdNotFoundError, BrokerResponseError):
    """The fetch session id was not found."""

    __module__ = PUBLIC_MODULE


class InvalidFetchSessionEpochError(_protocol.InvalidFetchSessionEpochError, BrokerResponseError):
    """The fetch session epoch is invalid."""

    __module__ = PUBLIC_MODULE


class ListenerNotFoundError(_protocol.ListenerNotFoundError, BrokerResponseError):
    """The leader has no endpoint for the listener used."""

    __module__ = PUBLIC_MODULE


class TopicDeletionDisabledError(_protocol.TopicDeletionDisabledError, BrokerResponseError):
    """Topic deletion is disabled."""

    __module__ = PUBLIC_MODULE


class FencedLeaderEpochError(_protocol.FencedLeaderEpochError, BrokerResponseError):
    """The leader epoch in the request is older than the broker's."""

    __module__ = PUBLIC_MODULE


class UnknownLeaderEpochError(_protocol.UnknownLeaderEpochError, BrokerResponseError):
    """The leader epoch in the request is newer than the broker's."""

    __module__ = PUBLIC_MODULE


class UnsupportedCompressionTypeError(_protocol.UnsupportedCompressionTypeError, BrokerResponseError):
    """The consumer's fetch version does not support the compression type."""

    __module__ = PUBLIC_MODULE


class StaleBrokerEpochError(_protocol.StaleBrokerEpochError, BrokerResponseError):
    """The broker epoch has changed."""

    __module__ = PUBLIC_MODULE


class OffsetNotAvailableError(_protocol.OffsetNotAvailableError, BrokerResponseError):
    """The leader's high watermark has not caught up yet."""

    __module__ = PUBLIC_MODULE


class MemberIdRequiredError(_protocol.MemberIdRequiredError, BrokerResponseError):
    """Rejoin with the member id the coordinator assigned."""

    __module__ = PUBLIC_MODULE


class PreferredLeaderNotAvailableError(_protocol.PreferredLeaderNotAvailableError, BrokerResponseError):
    """The preferred leader was not available."""

    __module__ = PUBLIC_MODULE


class GroupMaxSizeReachedError(_protocol.GroupMaxSizeReachedError, BrokerResponseError):
    """The group has reached its maximum size."""

    __module__ = PUBLIC_MODULE


class FencedInstanceIdError(_protocol.FencedInstanceIdError, BrokerResponseError):
    """Another member with the same group.instance.id fenced this one."""

    __module__ = PUBLIC_MODULE


class EligibleLeadersNotAvailableError(_protocol.EligibleLeadersNotAvailableError, BrokerResponseError):
    """No eligible leader for the partition."""

    __module__ = PUBLIC_MODULE


class ElectionNotNeededError(_protocol.ElectionNotNeededError, BrokerResponseError):
    """The leader election was not needed."""

    __module__ = PUBLIC_MODULE


class NoReassignmentInProgressError(_protocol.NoReassignmentInProgressError, BrokerResponseError):
    """No partition reassignment is in progress."""

    __module__ = PUBLIC_MODULE


class GroupSubscribedToTopicError(_protocol.GroupSubscribedToTopicError, BrokerResponseError):
    """The group is still subscribed to the topic."""

    __module__ = PUBLIC_MODULE


class InvalidRecordError(_protocol.InvalidRecordError, BrokerResponseError):
    """A record failed broker-side validation."""

    __module__ = PUBLIC_MODULE


class UnstableOffsetCommitError(_protocol.UnstableOffsetCommitError, BrokerResponseError):
    """Pending transactional offset commits; retry later."""

    __module__ = PUBLIC_MODULE


class ThrottlingQuotaExceededError(_protocol.ThrottlingQuotaExceededError, BrokerResponseError):
    """The throttling quota was exceeded."""

    __module__ = PUBLIC_MODULE


class ProducerFencedError(_protocol.ProducerFencedError, BrokerResponseError):
    """A newer producer with the same transactional id exists."""

    __module__ = PUBLIC_MODULE


class ResourceNotFoundError(_protocol.ResourceNotFoundError, BrokerResponseError):
    """The resource does not exist."""

    __module__ = PUBLIC_MODULE


class DuplicateResourceError(_protocol.DuplicateResourceError, BrokerResponseError):
    """The request names a resource more than once."""

    __module__ = PUBLIC_MODULE


class UnacceptableCredentialError(_protocol.UnacceptableCredentialError, BrokerResponseError):
    """The credential does not meet the requirements."""

    __module__ = PUBLIC_MODULE


class InconsistentVoterSetError(_protocol.InconsistentVoterSetError, BrokerResponseError):
    """The voter set does not match the quorum's."""

    __module__ = PUBLIC_MODULE


class InvalidUpdateVersionError(_protocol.InvalidUpdateVersionError, BrokerResponseError):
    """The update version is invalid."""

    __module__ = PUBLIC_MODULE


class FeatureUpdateFailedError(_protocol.FeatureUpdateFailedError, BrokerResponseError):
    """The feature update could not be applied."""

    __module__ = PUBLIC_MODULE


class PrincipalDeserializationFailureError(_protocol.PrincipalDeserializationFailureError, BrokerResponseError):
    """The forwarded principal could not be deserialized."""

    __module__ = PUBLIC_MODULE


class SnapshotNotFoundError(_protocol.SnapshotNotFoundError, BrokerResponseError):
    """The requested snapshot was not found."""

    __module__ = PUBLIC_MODULE


class PositionOutOfRangeError(_protocol.PositionOutOfRangeError, BrokerResponseError):
    """The requested position is outside the snapshot."""

    __module__ = PUBLIC_MODULE


class UnknownTopicIdError(_protocol.UnknownTopicIdError, BrokerResponseError):
    """The broker does not know this topic id."""

    __module__ = PUBLIC_MODULE


class DuplicateBrokerRegistrationError(_protocol.DuplicateBrokerRegistrationError, BrokerResponseError):
    """The broker id is already registered."""

    __module__ = PUBLIC_MODULE


class BrokerIdNotRegisteredError(_protocol.BrokerIdNotRegisteredError, BrokerResponseError):
    """The broker id is not registered."""

    __module__ = PUBLIC_MODULE


class InconsistentTopicIdError(_protocol.InconsistentTopicIdError, BrokerResponseError):
    """The topic id does not match the one in the log."""

    __module__ = PUBLIC_MODULE


class InconsistentClusterIdError(_protocol.InconsistentClusterIdError, BrokerResponseError):
    """The cluster id does not match."""

    __module__ = PUBLIC_MODULE


class TransactionalIdNotFoundError(_protocol.TransactionalIdNotFoundError, BrokerResponseError):
    """The transactional id was not found."""

    __module__ = PUBLIC_MODULE


class FetchSessionTopicIdError(_protocol.FetchSessionTopicIdError, BrokerResponseError):
    """The fetch session's topic ids changed."""

    __module__ = PUBLIC_MODULE


class IneligibleReplicaError(_protocol.IneligibleReplicaError, BrokerResponseError):
    """The new ISR holds a replica that is not eligible."""

    __module__ = PUBLIC_MODULE


class NewLeaderElectedError(_protocol.NewLeaderElectedError, BrokerResponseError):
    """A new leader was elected while the request was pending."""

    __module__ = PUBLIC_MODULE


class OffsetMovedToTieredStorageError(_protocol.OffsetMovedToTieredStorageError, BrokerResponseError):
    """The offset has moved to tiered storage."""

    __module__ = PUBLIC_MODULE


class FencedMemberEpochError(_protocol.FencedMemberEpochError, BrokerResponseError):
    """The member epoch is fenced; rejoin with epoch 0."""

    __module__ = PUBLIC_MODULE


class UnreleasedInstanceIdError(_protocol.UnreleasedInstanceIdError, BrokerResponseError):
    """The instance id is still used by another member."""

    __module__ = PUBLIC_MODULE


class UnsupportedAssignorError(_protocol.UnsupportedAssignorError, BrokerResponseError):
    """The assignor is not supported by the group."""

    __module__ = PUBLIC_MODULE


class StaleMemberEpochError(_protocol.StaleMemberEpochError, BrokerResponseError):
    """The member epoch is stale."""

    __module__ = PUBLIC_MODULE


class MismatchedEndpointTypeError(_protocol.MismatchedEndpointTypeError, BrokerResponseError):
    """The request was sent to the wrong kind of endpoint."""

    __module__ = PUBLIC_MODULE


class UnsupportedEndpointTypeError(_protocol.UnsupportedEndpointTypeError, BrokerResponseError):
    """This endpoint type does not support the request."""

    __module__ = PUBLIC_MODULE


class UnknownControllerIdError(_protocol.UnknownControllerIdError, BrokerResponseError):
    """The controller id is unknown."""

    __module__ = PUBLIC_MODULE


class UnknownSubscriptionIdError(_protocol.UnknownSubscriptionIdError, BrokerResponseError):
    """The telemetry subscription id is unknown."""

    __module__ = PUBLIC_MODULE


class TelemetryTooLargeError(_protocol.TelemetryTooLargeError, BrokerResponseError):
    """The pushed telemetry exceeds the size limit."""

    __module__ = PUBLIC_MODULE


class InvalidRegistrationError(_protocol.InvalidRegistrationError, BrokerResponseError):
    """The controller registration is invalid."""

    __module__ = PUBLIC_MODULE


class TransactionAbortableError(_protocol.TransactionAbortableError, BrokerResponseError):
    """The transaction must be aborted."""

    __module__ = PUBLIC_MODULE


class InvalidRecordStateError(_protocol.InvalidRecordStateError, BrokerResponseError):
    """The share-group record state is invalid for this operation."""

    __module__ = PUBLIC_MODULE


class ShareSessionNotFoundError(_protocol.ShareSessionNotFoundError, BrokerResponseError):
    """The share session was not found."""

    __module__ = PUBLIC_MODULE


class InvalidShareSessionEpochError(_protocol.InvalidShareSessionEpochError, BrokerResponseError):
    """The share session epoch is invalid."""

    __module__ = PUBLIC_MODULE


class FencedStateEpochError(_protocol.FencedStateEpochError, BrokerResponseError):
    """The share-group state epoch is fenced."""

    __module__ = PUBLIC_MODULE


class InvalidVoterKeyError(_protocol.InvalidVoterKeyError, BrokerResponseError):
    """The voter key does not match the receiving replica."""

    __module__ = PUBLIC_MODULE


class DuplicateVoterError(_protocol.DuplicateVoterError, BrokerResponseError):
    """The voter is already in the voter set."""

    __module__ = PUBLIC_MODULE


class VoterNotFoundError(_protocol.VoterNotFoundError, BrokerResponseError):
    """The voter is not in the voter set."""

    __module__ = PUBLIC_MODULE


class InvalidRegularExpressionError(_protocol.InvalidRegularExpressionError, BrokerResponseError):
    """The regular expression is invalid."""

    __module__ = PUBLIC_MODULE


class RebootstrapRequiredError(_protocol.RebootstrapRequiredError, BrokerResponseError):
    """The client must rebootstrap its metadata."""

    __module__ = PUBLIC_MODULE


class StreamsInvalidTopologyError(_protocol.StreamsInvalidTopologyError, BrokerResponseError):
    """The streams topology is invalid."""

    __module__ = PUBLIC_MODULE


class StreamsInvalidTopologyEpochError(_protocol.StreamsInvalidTopologyEpochError, BrokerResponseError):
    """The streams topology epoch is invalid."""

    __module__ = PUBLIC_MODULE


class StreamsTopologyFencedError(_protocol.StreamsTopologyFencedError, BrokerResponseError):
    """The streams topology was fenced by a newer one."""

    __module__ = PUBLIC_MODULE


class ShareSessionLimitReachedError(_protocol.ShareSessionLimitReachedError, BrokerResponseError):
    """The broker's share session cache is full."""

    __module__ = PUBLIC_MODULE


BY_CODE: dict[int, type[BrokerResponseError]] = {
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
