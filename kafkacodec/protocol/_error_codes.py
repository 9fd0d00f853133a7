# GENERATED — do not edit.  Source: tools/kafka_errors.py (Kafka's error codes);
# regenerate with `python tools/gen_protocol.py`.
"""Every broker error code (``ErrorCode``), and the names of their exception classes.

``kafkacodec.protocol.errors`` is the module to import; this one and ``_error_classes`` (the
classes, made when first named) are what it is made of.
"""
from enum import IntEnum

__all__ = ["ErrorCode", "CLASS_NAMES"]


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


# the exception class of each code but NONE, in code order (_error_classes defines them)
CLASS_NAMES = (
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
)
