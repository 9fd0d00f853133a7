"""Errors of kafkacodec.client.

Everything the client raises derives from :class:`KafkaError`, the library's
one root (``kafkacodec.errors``), as the codec's errors do.  Network
trouble is a :class:`KafkaConnectionError` (also a ``ConnectionError``), an
expired deadline a :class:`KafkaTimeoutError` (also a ``TimeoutError``); bad
bytes on the wire stay the codec's ``KafkaCodecError``.  A broker's error code
becomes a subclass of both :class:`BrokerResponseError` and the protocol
layer's class for that code, so ``except protocol.errors.NotLeaderOrFollowerError``
and ``except client.errors.NotLeaderOrFollowerError`` both work; ``.retriable``
says whether the same request may succeed later.  Those classes are generated
(``_broker_errors``, from the same table as ``protocol.errors.ErrorCode``), so
type checkers know every name.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kafkacodec.client._response_error import BrokerResponseError
from kafkacodec.errors import KafkaConnectionError, KafkaError, KafkaTimeoutError
from kafkacodec.protocol import _error_codes
from kafkacodec.protocol import errors as _protocol_errors
from kafkacodec.protocol._error_base import lazy_getattr
from kafkacodec.protocol.errors import ErrorCode as ErrorCode  # the modules of the client take it from here

__all__ = ["KafkaError", "KafkaConnectionError", "KafkaTimeoutError", "AuthenticationError",
           "ConfigError", "BrokerResponseError", "NoBrokersAvailable", "HostResolutionError", "ClientClosedError",
           "IllegalStateError", "NoOffsetForPartitionError", "CommitFailedError", "TransactionAbortedError",
           "InvalidArgumentError", "UnknownPartitionError",
           "ClientFailedError", "CallbackError", "SendArrowError", "SendArrowTimeoutError", "PurgedError", "GaplessGuaranteeError", "error_for", "check"]

# A class per broker error code, generated (_broker_errors) and made when one is first named or
# raised, as protocol.errors does: a client that meets no broker error never makes them.
if TYPE_CHECKING:
    from kafkacodec.client import _broker_errors
    from kafkacodec.client._broker_errors import *  # noqa: F403 - a class per code, named in its __all__

    __all__ += _broker_errors.__all__
else:
    __all__ += _error_codes.CLASS_NAMES  # the same names, without making the classes


class NoBrokersAvailable(KafkaConnectionError):
    """None of the bootstrap servers or known brokers accepts connections."""


class HostResolutionError(KafkaConnectionError):
    """A broker's host name did not resolve to an address (DNS, or resolve_cb)."""


class AuthenticationError(KafkaConnectionError):
    """TLS or SASL authentication with a broker failed; retrying will not help."""

    retriable = False


class ConfigError(KafkaError, ValueError):
    """A configuration setting is unknown or has an invalid value; the message names it."""


class ClientClosedError(KafkaError):
    """The client (consumer, admin) was closed."""


class IllegalStateError(KafkaError):
    """The call does not fit the consumer's state (e.g. position of an unassigned partition)."""


class NoOffsetForPartitionError(IllegalStateError):
    """A partition has no committed offset to start from and auto.offset.reset is none."""


class InvalidArgumentError(KafkaError, ValueError, TypeError):
    """An argument of a client call has the wrong type or value; the message names it.

    Raised by the call that was given it, before anything is queued (also a ValueError and a
    TypeError, so either Python convention catches it)."""


class UnknownPartitionError(InvalidArgumentError):
    """A record sent to a partition its topic does not have (librdkafka's _UNKNOWN_PARTITION)."""


class ClientFailedError(KafkaError):
    """The client's I/O thread met an error it cannot recover from; the client refuses every
    call from then on.  ``__cause__`` is the original exception."""


class CallbackError(KafkaError):
    """A delivery callback raised; every other callback still ran.  ``errors`` lists the
    exceptions (``__cause__`` is the first)."""

    def __init__(self, message: str, errors: Iterable[BaseException] = ()) -> None:
        super().__init__(message)
        self.errors = list(errors)


class SendArrowError(KafkaError):
    """send_arrow failed after it had begun to queue the table's batches.

    ``result`` is the BulkResult of the rows queued before the failure
    (``result.rows_queued``, ``result.queued_rows()``; ``result.offsets()`` once
    they are acknowledged): those rows are delivered, or reported failed, through
    it like any others.  No other row of the table was queued."""

    def __init__(self, message: str, result: BulkResult) -> None:
        super().__init__(message)
        self.result = result


class SendArrowTimeoutError(SendArrowError, KafkaTimeoutError):
    """send_arrow found no memory for a batch within max.block.ms (buffer.memory is held
    by batches not yet acknowledged); ``result`` as for SendArrowError."""


class PurgedError(KafkaError):
    """The record was failed by Producer.purge(): ``in_flight`` says whether it had been sent
    (then the broker may still have appended it)."""

    def __init__(self, message: str, in_flight: bool = False) -> None:
        super().__init__(message)
        self.in_flight = in_flight


class GaplessGuaranteeError(KafkaError):
    """With enable.gapless.guarantee, a batch of an idempotent producer failed for good, which
    would leave a gap in the partition's records: the producer stops (every later send and
    queued record fails with this error) instead of carrying on under a new epoch."""


class CommitFailedError(KafkaError):
    """An offset commit was rejected because the group rebalanced; the partitions may now
    belong to another member."""


class TransactionAbortedError(KafkaError):
    """The record's transaction was aborted before the record was sent."""


_CLASS_NAMES = frozenset(_error_codes.CLASS_NAMES)
_BY_CODE: dict[int, type[BrokerResponseError]] = {}  # the generated classes once made, and unknown codes'

# The classes are this module's names: tracebacks and pickles say kafkacodec.client.errors.X.
BrokerResponseError.__module__ = __name__


def _load() -> None:
    """Make the generated classes and name them here."""
    from kafkacodec.client import _broker_errors
    g = globals()
    if "_loaded" not in g:  # _loaded last: a thread that sees it sees the rest
        for code, cls in _broker_errors.BY_CODE.items():
            g[cls.__name__] = cls
            _BY_CODE.setdefault(code, cls)
        g["_loaded"] = True


if not TYPE_CHECKING:  # (type checkers know the generated names, and no others)
    __getattr__ = lazy_getattr(__name__, _CLASS_NAMES, _load, globals())


def _client_class(code: int) -> type[BrokerResponseError]:
    cls = _BY_CODE.get(code)
    if cls is None:
        _load()
        cls = _BY_CODE.get(code)
    if cls is None:  # a code the table does not know: a class of its own, made once
        base = _protocol_errors.class_for(code)
        cls = type(base.__name__, (base, BrokerResponseError), {"__module__": __name__, "__doc__": base.__doc__})
        _BY_CODE[code] = cls
    return cls


def error_for(code: int, message: str | None = None) -> BrokerResponseError:
    """The client exception for a broker error code (unknown codes get a class too)."""
    return _client_class(code)(message)


def check(code: int, message: str | None = None) -> None:
    if code:
        raise error_for(code, message)


if TYPE_CHECKING:
    from kafkacodec.client.producer import BulkResult
