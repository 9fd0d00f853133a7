"""BrokerResponseError, apart from ``errors`` so that the generated ``_broker_errors`` classes can
derive from it without an import circle."""
from typing import TYPE_CHECKING

from kafkacodec.errors import KafkaError

__all__ = ["BrokerResponseError"]


class BrokerResponseError(KafkaError):
    """A broker answered with a non-zero error code (``.code``, ``.name``, ``.retriable``)."""

    # given by the protocol error class each subclass also derives from
    if TYPE_CHECKING:
        @property
        def code(self) -> int | None: ...  # read-only here: each protocol class narrows it to its int
    name: str
    retriable: bool
    description: str
    message: str | None
