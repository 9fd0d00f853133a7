"""KafkaError and KafkaException as confluent-kafka has them, with librdkafka's codes.

Local codes (negative, leading underscore) are librdkafka's ``rd_kafka_resp_err_t``
values; broker codes are the Kafka protocol's, under librdkafka's names
(``NOT_LEADER_FOR_PARTITION`` for Kafka's NOT_LEADER_OR_FOLLOWER, ...).
``from_exception`` turns what kafkacodec's client raises into one of these.
"""
from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any, TypeVar

from kafkacodec.errors import KafkaCodecError
from kafkacodec.errors import KafkaError as _CodecKafkaError
from kafkacodec.client import errors as E
from kafkacodec.protocol import errors as _protocol_errors

__all__ = ["KafkaError", "KafkaException", "CODES", "from_exception"]

_Client = TypeVar("_Client")

# librdkafka's local error codes
_LOCAL = {
    "_BAD_MSG": -199, "_BAD_COMPRESSION": -198, "_DESTROY": -197, "_FAIL": -196, "_TRANSPORT": -195,
    "_CRIT_SYS_RESOURCE": -194, "_RESOLVE": -193, "_MSG_TIMED_OUT": -192, "_PARTITION_EOF": -191,
    "_UNKNOWN_PARTITION": -190, "_FS": -189, "_UNKNOWN_TOPIC": -188, "_ALL_BROKERS_DOWN": -187,
    "_INVALID_ARG": -186, "_TIMED_OUT": -185, "_QUEUE_FULL": -184, "_ISR_INSUFF": -183, "_NODE_UPDATE": -182,
    "_SSL": -181, "_WAIT_COORD": -180, "_UNKNOWN_GROUP": -179, "_IN_PROGRESS": -178, "_PREV_IN_PROGRESS": -177,
    "_EXISTING_SUBSCRIPTION": -176, "_ASSIGN_PARTITIONS": -175, "_REVOKE_PARTITIONS": -174, "_CONFLICT": -173,
    "_STATE": -172, "_UNKNOWN_PROTOCOL": -171, "_NOT_IMPLEMENTED": -170, "_AUTHENTICATION": -169,
    "_NO_OFFSET": -168, "_OUTDATED": -167, "_TIMED_OUT_QUEUE": -166, "_UNSUPPORTED_FEATURE": -165,
    "_WAIT_CACHE": -164, "_INTR": -163, "_KEY_SERIALIZATION": -162, "_VALUE_SERIALIZATION": -161,
    "_KEY_DESERIALIZATION": -160, "_VALUE_DESERIALIZATION": -159, "_PARTIAL": -158, "_READ_ONLY": -157,
    "_NOENT": -156, "_UNDERFLOW": -155, "_INVALID_TYPE": -154, "_RETRY": -153, "_PURGE_QUEUE": -152,
    "_PURGE_INFLIGHT": -151, "_FATAL": -150, "_INCONSISTENT": -149, "_GAPLESS_GUARANTEE": -148,
    "_MAX_POLL_EXCEEDED": -147, "_UNKNOWN_BROKER": -146, "_NOT_CONFIGURED": -145, "_FENCED": -144,
    "_APPLICATION": -143, "_ASSIGNMENT_LOST": -142, "_NOOP": -141, "_AUTO_OFFSET_RESET": -140,
    "_LOG_TRUNCATION": -139, "_INVALID_DIFFERENT_RECORD": -138, "_DESTROY_BROKER": -137,
}

# broker error codes under librdkafka's names
_BROKER = {
    "UNKNOWN": -1, "NO_ERROR": 0, "OFFSET_OUT_OF_RANGE": 1, "INVALID_MSG": 2, "UNKNOWN_TOPIC_OR_PART": 3,
    "INVALID_MSG_SIZE": 4, "LEADER_NOT_AVAILABLE": 5, "NOT_LEADER_FOR_PARTITION": 6, "REQUEST_TIMED_OUT": 7,
    "BROKER_NOT_AVAILABLE": 8, "REPLICA_NOT_AVAILABLE": 9, "MSG_SIZE_TOO_LARGE": 10, "STALE_CTRL_EPOCH": 11,
    "OFFSET_METADATA_TOO_LARGE": 12, "NETWORK_EXCEPTION": 13, "COORDINATOR_LOAD_IN_PROGRESS": 14,
    "COORDINATOR_NOT_AVAILABLE": 15, "NOT_COORDINATOR": 16, "TOPIC_EXCEPTION": 17, "RECORD_LIST_TOO_LARGE": 18,
    "NOT_ENOUGH_REPLICAS": 19, "NOT_ENOUGH_REPLICAS_AFTER_APPEND": 20, "INVALID_REQUIRED_ACKS": 21,
    "ILLEGAL_GENERATION": 22, "INCONSISTENT_GROUP_PROTOCOL": 23, "INVALID_GROUP_ID": 24, "UNKNOWN_MEMBER_ID": 25,
    "INVALID_SESSION_TIMEOUT": 26, "REBALANCE_IN_PROGRESS": 27, "INVALID_COMMIT_OFFSET_SIZE": 28,
    "TOPIC_AUTHORIZATION_FAILED": 29, "GROUP_AUTHORIZATION_FAILED": 30, "CLUSTER_AUTHORIZATION_FAILED": 31,
    "INVALID_TIMESTAMP": 32, "UNSUPPORTED_SASL_MECHANISM": 33, "ILLEGAL_SASL_STATE": 34, "UNSUPPORTED_VERSION": 35,
    "TOPIC_ALREADY_EXISTS": 36, "INVALID_PARTITIONS": 37, "INVALID_REPLICATION_FACTOR": 38,
    "INVALID_REPLICA_ASSIGNMENT": 39, "INVALID_CONFIG": 40, "NOT_CONTROLLER": 41, "INVALID_REQUEST": 42,
    "UNSUPPORTED_FOR_MESSAGE_FORMAT": 43, "POLICY_VIOLATION": 44, "OUT_OF_ORDER_SEQUENCE_NUMBER": 45,
    "DUPLICATE_SEQUENCE_NUMBER": 46, "INVALID_PRODUCER_EPOCH": 47, "INVALID_TXN_STATE": 48,
    "INVALID_PRODUCER_ID_MAPPING": 49, "INVALID_TRANSACTION_TIMEOUT": 50, "CONCURRENT_TRANSACTIONS": 51,
    "TRANSACTION_COORDINATOR_FENCED": 52, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED": 53, "SECURITY_DISABLED": 54,
    "OPERATION_NOT_ATTEMPTED": 55, "KAFKA_STORAGE_ERROR": 56, "LOG_DIR_NOT_FOUND": 57,
    "SASL_AUTHENTICATION_FAILED": 58, "UNKNOWN_PRODUCER_ID": 59, "REASSIGNMENT_IN_PROGRESS": 60,
    "DELEGATION_TOKEN_AUTH_DISABLED": 61, "DELEGATION_TOKEN_NOT_FOUND": 62, "DELEGATION_TOKEN_OWNER_MISMATCH": 63,
    "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED": 64, "DELEGATION_TOKEN_AUTHORIZATION_FAILED": 65,
    "DELEGATION_TOKEN_EXPIRED": 66, "INVALID_PRINCIPAL_TYPE": 67, "NON_EMPTY_GROUP": 68, "GROUP_ID_NOT_FOUND": 69,
    "FETCH_SESSION_ID_NOT_FOUND": 70, "INVALID_FETCH_SESSION_EPOCH": 71, "LISTENER_NOT_FOUND": 72,
    "TOPIC_DELETION_DISABLED": 73, "FENCED_LEADER_EPOCH": 74, "UNKNOWN_LEADER_EPOCH": 75,
    "UNSUPPORTED_COMPRESSION_TYPE": 76, "STALE_BROKER_EPOCH": 77, "OFFSET_NOT_AVAILABLE": 78,
    "MEMBER_ID_REQUIRED": 79, "PREFERRED_LEADER_NOT_AVAILABLE": 80, "GROUP_MAX_SIZE_REACHED": 81,
    "FENCED_INSTANCE_ID": 82, "ELIGIBLE_LEADERS_NOT_AVAILABLE": 83, "ELECTION_NOT_NEEDED": 84,
    "NO_REASSIGNMENT_IN_PROGRESS": 85, "GROUP_SUBSCRIBED_TO_TOPIC": 86, "INVALID_RECORD": 87,
    "UNSTABLE_OFFSET_COMMIT": 88, "THROTTLING_QUOTA_EXCEEDED": 89, "PRODUCER_FENCED": 90, "RESOURCE_NOT_FOUND": 91,
    "DUPLICATE_RESOURCE": 92, "UNACCEPTABLE_CREDENTIAL": 93, "INCONSISTENT_VOTER_SET": 94,
    "INVALID_UPDATE_VERSION": 95, "FEATURE_UPDATE_FAILED": 96, "PRINCIPAL_DESERIALIZATION_FAILURE": 97,
    "UNKNOWN_TOPIC_ID": 100, "INCONSISTENT_TOPIC_ID": 103, "FENCED_MEMBER_EPOCH": 110,
    "UNRELEASED_INSTANCE_ID": 111, "UNSUPPORTED_ASSIGNOR": 112, "STALE_MEMBER_EPOCH": 113,
    "MISMATCHED_ENDPOINT_TYPE": 114, "UNSUPPORTED_ENDPOINT_TYPE": 115, "UNKNOWN_CONTROLLER_ID": 116,
    "UNKNOWN_SUBSCRIPTION_ID": 117, "TELEMETRY_TOO_LARGE": 118, "INVALID_REGISTRATION": 119,
    "TRANSACTION_ABORTABLE": 120, "INVALID_RECORD_STATE": 121, "SHARE_SESSION_NOT_FOUND": 122,
    "INVALID_SHARE_SESSION_EPOCH": 123, "FENCED_STATE_EPOCH": 124, "INVALID_VOTER_KEY": 125,
    "DUPLICATE_VOTER": 126, "VOTER_NOT_FOUND": 127, "INVALID_REGULAR_EXPRESSION": 128, "REBOOTSTRAP_REQUIRED": 129,
    "STREAMS_INVALID_TOPOLOGY": 130, "STREAMS_INVALID_TOPOLOGY_EPOCH": 131, "STREAMS_TOPOLOGY_FENCED": 132,
    "SHARE_SESSION_LIMIT_REACHED": 133,
}

CODES = dict(_LOCAL, **_BROKER)
_NAMES = {v: k for k, v in CODES.items()}

_LOCAL_TEXT = {
    "_BAD_MSG": "Local: Bad message format", "_BAD_COMPRESSION": "Local: Invalid compressed data",
    "_DESTROY": "Local: Broker handle destroyed", "_FAIL": "Local: Communication failure with broker",
    "_TRANSPORT": "Local: Broker transport failure", "_RESOLVE": "Local: Host resolution failure",
    "_MSG_TIMED_OUT": "Local: Message timed out", "_PARTITION_EOF": "Broker: No more messages",
    "_UNKNOWN_PARTITION": "Local: Unknown partition", "_UNKNOWN_TOPIC": "Local: Unknown topic",
    "_ALL_BROKERS_DOWN": "Local: All broker connections are down", "_INVALID_ARG": "Local: Invalid argument or configuration",
    "_TIMED_OUT": "Local: Timed out", "_QUEUE_FULL": "Local: Queue full", "_SSL": "Local: SSL error",
    "_STATE": "Local: Erroneous state", "_AUTHENTICATION": "Local: Authentication failure",
    "_NO_OFFSET": "Local: No offset stored", "_NOT_IMPLEMENTED": "Local: Not implemented",
    "_UNSUPPORTED_FEATURE": "Local: Required feature not supported by broker",
    "_PURGE_QUEUE": "Local: Purged in queue", "_PURGE_INFLIGHT": "Local: Purged in flight",
    "_FATAL": "Local: Fatal error", "_FENCED": "Local: This instance has been fenced by a newer instance",
    "_ASSIGNMENT_LOST": "Local: Group partitions lost", "_NOOP": "Local: No operation performed",
    "_APPLICATION": "Local: Application generated error",
}


def _text(code: int) -> str:
    name = _NAMES.get(code)
    if name is None:
        return f"Err-{code}?"
    if name in _LOCAL_TEXT:
        return _LOCAL_TEXT[name]
    if code in _protocol_errors.BY_CODE:
        description: str = _protocol_errors.class_for(code).description
        return "Broker: " + description.rstrip(".")
    return ("Local: " if code < -1 else "Broker: ") + name.strip("_").replace("_", " ").capitalize()


class KafkaError:
    """An error or event: ``code()``, ``name()``, ``str()``, ``fatal()``, ``retriable()``,
    ``txn_requires_abort()``; equal to its code (``err == KafkaError._PARTITION_EOF``)."""

    __slots__ = ("_code", "_reason", "_fatal", "_retriable", "_txn_requires_abort")

    def __init__(self, error: int, reason: str | None = None, fatal: bool = False, retriable: bool = False,
                 txn_requires_abort: bool = False) -> None:
        self._code = int(error)
        self._reason = reason
        self._fatal = bool(fatal)
        self._retriable = bool(retriable)
        self._txn_requires_abort = bool(txn_requires_abort)

    def code(self) -> int:
        return self._code

    def name(self) -> str:
        return _NAMES.get(self._code, f"ERR_{self._code}?")

    def str(self) -> str:
        return self._reason if self._reason else _text(self._code)

    def fatal(self) -> bool:
        return self._fatal

    def retriable(self) -> bool:
        return self._retriable

    def txn_requires_abort(self) -> bool:
        return self._txn_requires_abort

    def __str__(self) -> builtins.str:  # plain `str` here names the method above
        return f'KafkaError{{code={self.name()},val={self._code},str="{self.str()}"}}'

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, KafkaError):
            return self._code == other._code
        if isinstance(other, int):
            return self._code == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._code)

    def __lt__(self, other: KafkaError | int) -> bool:
        return self._code < (other._code if isinstance(other, KafkaError) else other)

    def __bool__(self) -> bool:
        return True


for _name, _value in CODES.items():
    setattr(KafkaError, _name, _value)


class KafkaException(Exception):
    """Raised by the face's calls; ``args[0]`` is the KafkaError."""

    def __init__(self, *args: Any) -> None:
        if args and isinstance(args[0], int) and not isinstance(args[0], bool):
            args = (KafkaError(args[0], *args[1:2]),) + args[2:]
        super().__init__(*args)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


# kafkacodec's error classes -> librdkafka's local codes (broker errors keep their code)
_BY_CLASS = (
    (E.ConfigError, "_INVALID_ARG"),
    (E.InvalidArgumentError, "_INVALID_ARG"),
    (E.AuthenticationError, "_AUTHENTICATION"),
    (E.NoBrokersAvailable, "_ALL_BROKERS_DOWN"),
    (E.KafkaConnectionError, "_TRANSPORT"),
    (E.KafkaTimeoutError, "_TIMED_OUT"),
    (E.ClientClosedError, "_DESTROY"),
    (E.IllegalStateError, "_STATE"),
    (E.TransactionAbortedError, "_PURGE_QUEUE"),
    (E.CommitFailedError, "ILLEGAL_GENERATION"),
    (E.ClientFailedError, "_FATAL"),
    (KafkaCodecError, "_BAD_MSG"),
)

# broker codes that end a transactional producer for good, as librdkafka treats them
_FATAL_CODES = {47, 53, 90}


def from_exception(exc: BaseException, timeout_code: str = "_TIMED_OUT",
                   txn_requires_abort: bool = False) -> KafkaError:
    """The KafkaError for an exception raised by kafkacodec's client."""
    if isinstance(exc, E.PurgedError):
        return KafkaError(CODES["_PURGE_INFLIGHT" if exc.in_flight else "_PURGE_QUEUE"])
    if isinstance(exc, E.BrokerResponseError) or isinstance(exc, _protocol_errors.BrokerError):
        # the code is a class attribute set by type() in kafkacodec's untyped errors modules
        broker_exc: Any = exc
        code: int = broker_exc.code
        return KafkaError(code, str(exc), fatal=code in _FATAL_CODES, retriable=bool(broker_exc.retriable),
                          txn_requires_abort=txn_requires_abort)
    for cls, name in _BY_CLASS:
        if isinstance(exc, cls):
            if name == "_TIMED_OUT":
                name = timeout_code
            return KafkaError(CODES[name], str(exc), fatal=name == "_FATAL",
                              retriable=bool(getattr(exc, "retriable", False)),
                              txn_requires_abort=txn_requires_abort)
    if isinstance(exc, _CodecKafkaError):
        return KafkaError(CODES["_FAIL"], str(exc), retriable=bool(exc.retriable),
                          txn_requires_abort=txn_requires_abort)
    return KafkaError(CODES["_FAIL"], f"{type(exc).__name__}: {exc}")


def exception_from(exc: BaseException, **kw: Any) -> KafkaException:
    """A KafkaException for a kafkacodec exception (chained by the caller)."""
    return KafkaException(from_exception(exc, **kw))


def make_client(cls: Callable[[dict[str, Any]], _Client], conf: dict[str, Any]) -> _Client:
    """cls(conf), a kafkacodec client: its errors raised as KafkaException, but a ConfigError
    as it is (confluent-kafka raises bad settings as their own type too)."""
    try:
        return cls(conf)
    except E.ConfigError:
        raise
    except E.KafkaError as exc:
        raise exception_from(exc) from exc
