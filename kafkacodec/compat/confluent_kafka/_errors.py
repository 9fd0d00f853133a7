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
from kafkacodec.protocol.errors import ErrorCode

__all__ = ["KafkaError", "KafkaException", "IllegalStateException", "ConcurrentModificationException", "CODES",
           "from_exception"]

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

# Broker error codes are Kafka's (protocol.errors.ErrorCode) under librdkafka's names: the same
# name unless librdkafka spells it otherwise (rd_kafka_resp_err_t in rdkafka.h) ...
_RDKAFKA_NAMES = {
    "UNKNOWN_SERVER_ERROR": "UNKNOWN",
    "NONE": "NO_ERROR",
    "CORRUPT_MESSAGE": "INVALID_MSG",
    "UNKNOWN_TOPIC_OR_PARTITION": "UNKNOWN_TOPIC_OR_PART",
    "INVALID_FETCH_SIZE": "INVALID_MSG_SIZE",
    "NOT_LEADER_OR_FOLLOWER": "NOT_LEADER_FOR_PARTITION",
    "MESSAGE_TOO_LARGE": "MSG_SIZE_TOO_LARGE",
    "STALE_CONTROLLER_EPOCH": "STALE_CTRL_EPOCH",
    "INVALID_TOPIC_EXCEPTION": "TOPIC_EXCEPTION",
}
# ... and without the codes librdkafka has no name for (controller, KRaft and broker-to-broker ones)
_NOT_IN_RDKAFKA = {
    ErrorCode.SNAPSHOT_NOT_FOUND, ErrorCode.POSITION_OUT_OF_RANGE, ErrorCode.DUPLICATE_BROKER_REGISTRATION,
    ErrorCode.BROKER_ID_NOT_REGISTERED, ErrorCode.INCONSISTENT_CLUSTER_ID, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND,
    ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR, ErrorCode.INELIGIBLE_REPLICA, ErrorCode.NEW_LEADER_ELECTED,
    ErrorCode.OFFSET_MOVED_TO_TIERED_STORAGE,
}
_BROKER = {_RDKAFKA_NAMES.get(code.name, code.name): code.value
           for code in ErrorCode if code not in _NOT_IN_RDKAFKA}

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

    def __le__(self, other: KafkaError | int) -> bool:
        return self._code <= (other._code if isinstance(other, KafkaError) else other)

    def __gt__(self, other: KafkaError | int) -> bool:
        return self._code > (other._code if isinstance(other, KafkaError) else other)

    def __ge__(self, other: KafkaError | int) -> bool:
        return self._code >= (other._code if isinstance(other, KafkaError) else other)

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


class ConfigException(KafkaException, E.ConfigError):
    """A bad setting, raised as confluent-kafka raises it: a KafkaException whose KafkaError is
    _INVALID_ARG; and a kafkacodec ConfigError (a ValueError), as the client raises it."""

    def __init__(self, message: str) -> None:
        KafkaException.__init__(self, KafkaError(CODES["_INVALID_ARG"], message))

    @classmethod
    def of(cls, exc: E.ConfigError) -> ConfigException:
        return exc if isinstance(exc, ConfigException) else cls(str(exc))


class IllegalStateException(RuntimeError):
    """A call made in a state that does not allow it; str() is the message."""


class ConcurrentModificationException(RuntimeError):
    """A client used from two threads at once where that is not allowed; str() is the message."""


# kafkacodec's error classes -> librdkafka's local codes (broker errors keep their code)
_BY_CLASS = (
    (E.ConfigError, "_INVALID_ARG"),
    (E.UnknownPartitionError, "_UNKNOWN_PARTITION"),
    (E.InvalidArgumentError, "_INVALID_ARG"),
    (E.AuthenticationError, "_AUTHENTICATION"),
    (E.NoBrokersAvailable, "_ALL_BROKERS_DOWN"),
    (E.HostResolutionError, "_RESOLVE"),
    (E.KafkaConnectionError, "_TRANSPORT"),
    (E.KafkaTimeoutError, "_TIMED_OUT"),
    (E.ClientClosedError, "_DESTROY"),
    (E.IllegalStateError, "_STATE"),
    (E.TransactionAbortedError, "_PURGE_QUEUE"),
    (E.CommitFailedError, "ILLEGAL_GENERATION"),
    (E.ClientFailedError, "_FATAL"),
    (E.GaplessGuaranteeError, "_GAPLESS_GUARANTEE"),
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
            return KafkaError(CODES[name], str(exc), fatal=name in ("_FATAL", "_GAPLESS_GUARANTEE"),
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
    """cls(conf), a kafkacodec client: its errors raised as KafkaException (a bad setting as a
    ConfigException, which is a ConfigError too)."""
    try:
        return cls(conf)
    except E.ConfigError as exc:
        raise ConfigException.of(exc) from exc
    except E.KafkaError as exc:
        raise exception_from(exc) from exc
