"""Errors of kafkacodec.client.

Everything the client raises derives from :class:`KafkaError`, the library's
one root (``kafkacodec.errors``), as the codec's errors do.  Network
trouble is a :class:`KafkaConnectionError` (also a ``ConnectionError``), an
expired deadline a :class:`KafkaTimeoutError` (also a ``TimeoutError``); bad
bytes on the wire stay the codec's ``KafkaCodecError``.  A broker's error code
becomes a subclass of both :class:`BrokerResponseError` and the protocol
layer's class for that code, so ``except protocol.errors.NotLeaderOrFollowerError``
and ``except client.errors.NotLeaderOrFollowerError`` both work; ``.retriable``
says whether the same request may succeed later.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kafkacodec.errors import KafkaConnectionError, KafkaError, KafkaTimeoutError
from kafkacodec.protocol import errors as _protocol_errors

__all__ = ["KafkaError", "KafkaConnectionError", "KafkaTimeoutError", "AuthenticationError",
           "ConfigError", "BrokerResponseError", "NoBrokersAvailable", "ClientClosedError",
           "IllegalStateError", "CommitFailedError", "TransactionAbortedError", "InvalidArgumentError",
           "ClientFailedError", "CallbackError", "SendArrowError", "SendArrowTimeoutError", "PurgedError", "error_for", "check"]


class NoBrokersAvailable(KafkaConnectionError):
    """None of the bootstrap servers or known brokers accepts connections."""


class AuthenticationError(KafkaConnectionError):
    """TLS or SASL authentication with a broker failed; retrying will not help."""

    retriable = False


class ConfigError(KafkaError, ValueError):
    """A configuration setting is unknown or has an invalid value; the message names it."""


class ClientClosedError(KafkaError):
    """The client (consumer, admin) was closed."""


class IllegalStateError(KafkaError):
    """The call does not fit the consumer's state (e.g. position of an unassigned partition)."""


class InvalidArgumentError(KafkaError, ValueError, TypeError):
    """An argument of a client call has the wrong type or value; the message names it.

    Raised by the call that was given it, before anything is queued (also a ValueError and a
    TypeError, so either Python convention catches it)."""


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


class CommitFailedError(KafkaError):
    """An offset commit was rejected because the group rebalanced; the partitions may now
    belong to another member."""


class TransactionAbortedError(KafkaError):
    """The record's transaction was aborted before the record was sent."""


class BrokerResponseError(KafkaError):
    """A broker answered with a non-zero error code (``.code``, ``.name``, ``.retriable``)."""

    # given by the protocol error class each subclass also derives from (error_for)
    if TYPE_CHECKING:
        @property
        def code(self) -> int | None: ...  # read-only here: BrokerError declares it None-able
    name: str
    retriable: bool
    description: str
    message: str | None


_BY_CODE: dict[int, type[BrokerResponseError]] = {}


def _client_class(code: int) -> type[BrokerResponseError]:
    cls = _BY_CODE.get(code)
    if cls is None:
        base = _protocol_errors.class_for(code)
        cls = type(base.__name__, (base, BrokerResponseError), {"__module__": __name__, "__doc__": base.__doc__})
        _BY_CODE[code] = cls
    return cls


for _code in _protocol_errors.BY_CODE:
    _cls = _client_class(_code)
    globals()[_cls.__name__] = _cls
    __all__.append(_cls.__name__)


def error_for(code: int, message: str | None = None) -> BrokerResponseError:
    """The client exception for a broker error code (unknown codes get a class too)."""
    return _client_class(code)(message)


def check(code: int, message: str | None = None) -> None:
    if code:
        raise error_for(code, message)


if TYPE_CHECKING:
    from kafkacodec.client.producer import BulkResult

    # The classes above are made at import, one per code of protocol.errors.ERRORS, so mypy cannot
    # see them; those the package names are declared here as they are built (the protocol class for
    # the code, then BrokerResponseError).  Each states the __init__ it inherits from
    # protocol.errors.BrokerError, which is not annotated (a call to it would be an untyped call).
    class ProducerFencedError(_protocol_errors.BrokerError, BrokerResponseError):
        def __init__(self, message: str | None = None) -> None: ...

    class InvalidProducerEpochError(_protocol_errors.BrokerError, BrokerResponseError):
        def __init__(self, message: str | None = None) -> None: ...

    class InvalidTxnStateError(_protocol_errors.BrokerError, BrokerResponseError):
        def __init__(self, message: str | None = None) -> None: ...

    class UnsupportedVersionError(_protocol_errors.BrokerError, BrokerResponseError):
        def __init__(self, message: str | None = None) -> None: ...

    class CoordinatorNotAvailableError(_protocol_errors.RetriableBrokerError, BrokerResponseError):
        def __init__(self, message: str | None = None) -> None: ...

    class NotLeaderOrFollowerError(_protocol_errors.RetriableBrokerError, BrokerResponseError):
        def __init__(self, message: str | None = None) -> None: ...

    class _ErrorCodes:
        """protocol.errors.ErrorCode as mypy sees it: that IntEnum is built from ERRORS at import,
        so its members are unknown to mypy; each is an int."""

        def __getattr__(self, name: str) -> int: ...

    ErrorCode: _ErrorCodes
else:
    ErrorCode = _protocol_errors.ErrorCode
