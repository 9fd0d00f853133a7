"""Kafka protocol error codes as data and as exception classes.

``ERRORS`` holds (code, name, retriable, description) for every code a broker
may put in an ``error_code`` field.  Each code has an exception class, e.g.
``NotLeaderOrFollowerError``; ``error_for(code)`` builds one and
``check(code)`` raises it unless the code is 0.  ``ErrorCode`` names every
code (``ErrorCode.NOT_LEADER_OR_FOLLOWER == 6``), so a test of a code need not
spell the number.  These are errors *reported by a broker*, so they derive from
:class:`BrokerError`, not from the codec's ``KafkaCodecError``.
"""
from enum import IntEnum

from kafkacodec.errors import KafkaError

__all__ = ["BrokerError", "RetriableBrokerError", "ERRORS", "ErrorCode", "BY_CODE", "BY_NAME",
           "error_for", "check", "class_for"]

# (code, name, retriable, description)
ERRORS = (
    (-1, "UNKNOWN_SERVER_ERROR", False, "The server hit an unexpected error."),
    (0, "NONE", False, "Success."),
    (1, "OFFSET_OUT_OF_RANGE", False, "The offset is outside the partition's log range."),
    (2, "CORRUPT_MESSAGE", True, "A message failed its checksum or is otherwise malformed."),
    (3, "UNKNOWN_TOPIC_OR_PARTITION", True, "The broker does not host this topic-partition."),
    (4, "INVALID_FETCH_SIZE", False, "The requested fetch size is invalid."),
    (5, "LEADER_NOT_AVAILABLE", True, "The partition has no leader right now (election in progress)."),
    (6, "NOT_LEADER_OR_FOLLOWER", True, "This broker is neither leader nor follower for the partition."),
    (7, "REQUEST_TIMED_OUT", True, "The request timed out on the broker."),
    (8, "BROKER_NOT_AVAILABLE", False, "The broker is not available."),
    (9, "REPLICA_NOT_AVAILABLE", True, "The replica is not available for this partition."),
    (10, "MESSAGE_TOO_LARGE", False, "The request holds a message larger than the server accepts."),
    (11, "STALE_CONTROLLER_EPOCH", False, "The controller epoch is older than the broker's."),
    (12, "OFFSET_METADATA_TOO_LARGE", False, "The committed offset metadata string is too long."),
    (13, "NETWORK_EXCEPTION", True, "The server disconnected before a response arrived."),
    (14, "COORDINATOR_LOAD_IN_PROGRESS", True, "The coordinator is still loading its state."),
    (15, "COORDINATOR_NOT_AVAILABLE", True, "The coordinator is not available."),
    (16, "NOT_COORDINATOR", True, "This broker is not the coordinator for the key."),
    (17, "INVALID_TOPIC_EXCEPTION", False, "The topic name is invalid or the topic is internal."),
    (18, "RECORD_LIST_TOO_LARGE", False, "The record batch exceeds the maximum segment size."),
    (19, "NOT_ENOUGH_REPLICAS", True, "Fewer in-sync replicas than required for this acks setting."),
    (20, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", True, "Written, but fewer in-sync replicas than required."),
    (21, "INVALID_REQUIRED_ACKS", False, "The acks value is not -1, 0 or 1."),
    (22, "ILLEGAL_GENERATION", False, "The group generation id is not current."),
    (23, "INCONSISTENT_GROUP_PROTOCOL", False, "The member's protocols do not match the group's."),
    (24, "INVALID_GROUP_ID", False, "The group id is empty or invalid."),
    (25, "UNKNOWN_MEMBER_ID", False, "The coordinator does not know this member id."),
    (26, "INVALID_SESSION_TIMEOUT", False, "The session timeout is outside the broker's allowed range."),
    (27, "REBALANCE_IN_PROGRESS", False, "The group is rebalancing; rejoin."),
    (28, "INVALID_COMMIT_OFFSET_SIZE", False, "The offset commit was rejected for its size."),
    (29, "TOPIC_AUTHORIZATION_FAILED", False, "Not authorized to access the topic."),
    (30, "GROUP_AUTHORIZATION_FAILED", False, "Not authorized to access the group."),
    (31, "CLUSTER_AUTHORIZATION_FAILED", False, "Not authorized for this cluster operation."),
    (32, "INVALID_TIMESTAMP", False, "The record timestamp is out of the accepted range."),
    (33, "UNSUPPORTED_SASL_MECHANISM", False, "The broker does not support the SASL mechanism."),
    (34, "ILLEGAL_SASL_STATE", False, "The request is not valid in the current SASL state."),
    (35, "UNSUPPORTED_VERSION", False, "The broker does not support this request version."),
    (36, "TOPIC_ALREADY_EXISTS", False, "A topic with this name already exists."),
    (37, "INVALID_PARTITIONS", False, "The number of partitions is invalid."),
    (38, "INVALID_REPLICATION_FACTOR", False, "The replication factor is invalid."),
    (39, "INVALID_REPLICA_ASSIGNMENT", False, "The replica assignment is invalid."),
    (40, "INVALID_CONFIG", False, "A configuration value is invalid."),
    (41, "NOT_CONTROLLER", True, "This broker is not the active controller."),
    (42, "INVALID_REQUEST", False, "The request is malformed or not valid here."),
    (43, "UNSUPPORTED_FOR_MESSAGE_FORMAT", False, "The message format version does not support this."),
    (44, "POLICY_VIOLATION", False, "The request breaks a configured policy."),
    (45, "OUT_OF_ORDER_SEQUENCE_NUMBER", False, "The producer sequence number is out of order."),
    (46, "DUPLICATE_SEQUENCE_NUMBER", False, "The producer sent a duplicate sequence number."),
    (47, "INVALID_PRODUCER_EPOCH", False, "The producer epoch is older than the current one."),
    (48, "INVALID_TXN_STATE", False, "The operation is not valid in the transaction's state."),
    (49, "INVALID_PRODUCER_ID_MAPPING", False, "The producer id does not match the transactional id."),
    (50, "INVALID_TRANSACTION_TIMEOUT", False, "The transaction timeout exceeds the broker maximum."),
    (51, "CONCURRENT_TRANSACTIONS", True, "Another transaction operation for this id is in progress."),
    (52, "TRANSACTION_COORDINATOR_FENCED", False, "A newer transaction coordinator has taken over."),
    (53, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", False, "Not authorized for the transactional id."),
    (54, "SECURITY_DISABLED", False, "Security features are disabled."),
    (55, "OPERATION_NOT_ATTEMPTED", False, "Not attempted because a related operation failed."),
    (56, "KAFKA_STORAGE_ERROR", True, "A disk error on the broker made the data unavailable."),
    (57, "LOG_DIR_NOT_FOUND", False, "The log directory does not exist in the broker config."),
    (58, "SASL_AUTHENTICATION_FAILED", False, "SASL authentication failed."),
    (59, "UNKNOWN_PRODUCER_ID", False, "The broker has no state for this producer id."),
    (60, "REASSIGNMENT_IN_PROGRESS", False, "A partition reassignment is in progress."),
    (61, "DELEGATION_TOKEN_AUTH_DISABLED", False, "Delegation token authentication is disabled."),
    (62, "DELEGATION_TOKEN_NOT_FOUND", False, "The delegation token was not found."),
    (63, "DELEGATION_TOKEN_OWNER_MISMATCH", False, "The principal does not own the delegation token."),
    (64, "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED", False, "Delegation token requests are not allowed on this channel."),
    (65, "DELEGATION_TOKEN_AUTHORIZATION_FAILED", False, "Not authorized for the delegation token."),
    (66, "DELEGATION_TOKEN_EXPIRED", False, "The delegation token has expired."),
    (67, "INVALID_PRINCIPAL_TYPE", False, "The principal type is not supported."),
    (68, "NON_EMPTY_GROUP", False, "The group is not empty."),
    (69, "GROUP_ID_NOT_FOUND", False, "The group id does not exist."),
    (70, "FETCH_SESSION_ID_NOT_FOUND", True, "The fetch session id was not found."),
    (71, "INVALID_FETCH_SESSION_EPOCH", True, "The fetch session epoch is invalid."),
    (72, "LISTENER_NOT_FOUND", True, "The leader has no endpoint for the listener used."),
    (73, "TOPIC_DELETION_DISABLED", False, "Topic deletion is disabled."),
    (74, "FENCED_LEADER_EPOCH", True, "The leader epoch in the request is older than the broker's."),
    (75, "UNKNOWN_LEADER_EPOCH", True, "The leader epoch in the request is newer than the broker's."),
    (76, "UNSUPPORTED_COMPRESSION_TYPE", False, "The consumer's fetch version does not support the compression type."),
    (77, "STALE_BROKER_EPOCH", False, "The broker epoch has changed."),
    (78, "OFFSET_NOT_AVAILABLE", True, "The leader's high watermark has not caught up yet."),
    (79, "MEMBER_ID_REQUIRED", False, "Rejoin with the member id the coordinator assigned."),
    (80, "PREFERRED_LEADER_NOT_AVAILABLE", True, "The preferred leader was not available."),
    (81, "GROUP_MAX_SIZE_REACHED", False, "The group has reached its maximum size."),
    (82, "FENCED_INSTANCE_ID", False, "Another member with the same group.instance.id fenced this one."),
    (83, "ELIGIBLE_LEADERS_NOT_AVAILABLE", True, "No eligible leader for the partition."),
    (84, "ELECTION_NOT_NEEDED", True, "The leader election was not needed."),
    (85, "NO_REASSIGNMENT_IN_PROGRESS", False, "No partition reassignment is in progress."),
    (86, "GROUP_SUBSCRIBED_TO_TOPIC", False, "The group is still subscribed to the topic."),
    (87, "INVALID_RECORD", False, "A record failed broker-side validation."),
    (88, "UNSTABLE_OFFSET_COMMIT", True, "Pending transactional offset commits; retry later."),
    (89, "THROTTLING_QUOTA_EXCEEDED", True, "The throttling quota was exceeded."),
    (90, "PRODUCER_FENCED", False, "A newer producer with the same transactional id exists."),
    (91, "RESOURCE_NOT_FOUND", False, "The resource does not exist."),
    (92, "DUPLICATE_RESOURCE", False, "The request names a resource more than once."),
    (93, "UNACCEPTABLE_CREDENTIAL", False, "The credential does not meet the requirements."),
    (94, "INCONSISTENT_VOTER_SET", False, "The voter set does not match the quorum's."),
    (95, "INVALID_UPDATE_VERSION", False, "The update version is invalid."),
    (96, "FEATURE_UPDATE_FAILED", False, "The feature update could not be applied."),
    (97, "PRINCIPAL_DESERIALIZATION_FAILURE", False, "The forwarded principal could not be deserialized."),
    (98, "SNAPSHOT_NOT_FOUND", False, "The requested snapshot was not found."),
    (99, "POSITION_OUT_OF_RANGE", False, "The requested position is outside the snapshot."),
    (100, "UNKNOWN_TOPIC_ID", True, "The broker does not know this topic id."),
    (101, "DUPLICATE_BROKER_REGISTRATION", False, "The broker id is already registered."),
    (102, "BROKER_ID_NOT_REGISTERED", False, "The broker id is not registered."),
    (103, "INCONSISTENT_TOPIC_ID", True, "The topic id does not match the one in the log."),
    (104, "INCONSISTENT_CLUSTER_ID", False, "The cluster id does not match."),
    (105, "TRANSACTIONAL_ID_NOT_FOUND", False, "The transactional id was not found."),
    (106, "FETCH_SESSION_TOPIC_ID_ERROR", True, "The fetch session's topic ids changed."),
    (107, "INELIGIBLE_REPLICA", False, "The new ISR holds a replica that is not eligible."),
    (108, "NEW_LEADER_ELECTED", False, "A new leader was elected while the request was pending."),
    (109, "OFFSET_MOVED_TO_TIERED_STORAGE", False, "The offset has moved to tiered storage."),
    (110, "FENCED_MEMBER_EPOCH", False, "The member epoch is fenced; rejoin with epoch 0."),
    (111, "UNRELEASED_INSTANCE_ID", False, "The instance id is still used by another member."),
    (112, "UNSUPPORTED_ASSIGNOR", False, "The assignor is not supported by the group."),
    (113, "STALE_MEMBER_EPOCH", False, "The member epoch is stale."),
    (114, "MISMATCHED_ENDPOINT_TYPE", False, "The request was sent to the wrong kind of endpoint."),
    (115, "UNSUPPORTED_ENDPOINT_TYPE", False, "This endpoint type does not support the request."),
    (116, "UNKNOWN_CONTROLLER_ID", False, "The controller id is unknown."),
    (117, "UNKNOWN_SUBSCRIPTION_ID", False, "The telemetry subscription id is unknown."),
    (118, "TELEMETRY_TOO_LARGE", False, "The pushed telemetry exceeds the size limit."),
    (119, "INVALID_REGISTRATION", False, "The controller registration is invalid."),
    (120, "TRANSACTION_ABORTABLE", False, "The transaction must be aborted."),
    (121, "INVALID_RECORD_STATE", False, "The share-group record state is invalid for this operation."),
    (122, "SHARE_SESSION_NOT_FOUND", True, "The share session was not found."),
    (123, "INVALID_SHARE_SESSION_EPOCH", True, "The share session epoch is invalid."),
    (124, "FENCED_STATE_EPOCH", False, "The share-group state epoch is fenced."),
    (125, "INVALID_VOTER_KEY", False, "The voter key does not match the receiving replica."),
    (126, "DUPLICATE_VOTER", False, "The voter is already in the voter set."),
    (127, "VOTER_NOT_FOUND", False, "The voter is not in the voter set."),
    (128, "INVALID_REGULAR_EXPRESSION", False, "The regular expression is invalid."),
    (129, "REBOOTSTRAP_REQUIRED", False, "The client must rebootstrap its metadata."),
    (130, "STREAMS_INVALID_TOPOLOGY", False, "The streams topology is invalid."),
    (131, "STREAMS_INVALID_TOPOLOGY_EPOCH", False, "The streams topology epoch is invalid."),
    (132, "STREAMS_TOPOLOGY_FENCED", False, "The streams topology was fenced by a newer one."),
    (133, "SHARE_SESSION_LIMIT_REACHED", True, "The broker's share session cache is full."),
)


class BrokerError(KafkaError):
    """A non-zero error code returned by a broker."""

    code = None
    name = "UNKNOWN"
    retriable = False
    description = ""

    def __init__(self, message=None):
        self.message = message
        text = f"[{self.code}] {self.name}: {self.description}"
        if message:
            text += f" ({message})"
        super().__init__(text)


class RetriableBrokerError(BrokerError):
    """An error the same request may succeed after (after a backoff or metadata refresh)."""

    retriable = True


# Built from ERRORS so each number is written once.  An IntEnum compares and hashes as its int,
# so members work against the plain ints a decoded response holds (==, in a set, dict keys).
ErrorCode = IntEnum("ErrorCode", [(_name, _code) for _code, _name, _retriable, _desc in ERRORS],
                    module=__name__)
ErrorCode.__doc__ = "Every broker error code by its protocol name (``NONE`` is 0, success)."


def _class_name(name):
    if name.endswith("_EXCEPTION"):
        name = name[:-len("_EXCEPTION")]
    return "".join(part.capitalize() for part in name.split("_")) + ("" if name.endswith("ERROR") else "Error")


BY_CODE = {}
BY_NAME = {}
for _code, _name, _retriable, _desc in ERRORS:
    if _code == 0:
        continue
    _cls = type(_class_name(_name), (RetriableBrokerError if _retriable else BrokerError,),
                {"code": _code, "name": _name, "retriable": _retriable, "description": _desc,
                 "__module__": __name__, "__doc__": _desc})
    BY_CODE[_code] = _cls
    BY_NAME[_name] = _cls
    globals()[_cls.__name__] = _cls
    __all__.append(_cls.__name__)


def class_for(code):
    """Exception class for an error code; unknown codes get a fresh BrokerError subclass."""
    cls = BY_CODE.get(code)
    if cls is None:
        cls = type(f"UnknownError{code}", (BrokerError,),
                   {"code": code, "name": f"UNKNOWN_{code}", "description": "An error code this table does not know."})
    return cls


def error_for(code, message=None):
    return class_for(code)(message)


def check(code, message=None):
    """Raise the exception for a non-zero error code."""
    if code:
        raise error_for(code, message)
