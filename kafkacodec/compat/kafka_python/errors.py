"""kafka.errors (kafka-python) names over kafkacodec.client's errors (as kafkacodec.compat._errors
describes: the client's classes, or subclasses of its KafkaError)."""
from __future__ import annotations

from kafkacodec.compat._errors import (AuthenticationError, CommitFailedError, IllegalStateError,
                                      KafkaConfigurationError, KafkaConnectionError, KafkaError, KafkaTimeoutError,
                                      NoBrokersAvailable, ProducerClosed, UnsupportedCodecError, broker_error_lookup,
                                      for_code)

__all__ = ["KafkaError", "KafkaTimeoutError", "KafkaConnectionError", "NoBrokersAvailable", "IllegalStateError",
           "CommitFailedError", "IllegalOperation", "ProducerClosed",
           "NoOffsetForPartitionError", "RecordTooLargeError", "KafkaConfigurationError", "AuthenticationError",
           "UnsupportedCodecError", "ProducerFencedError", "OffsetOutOfRangeError", "for_code", "IncompatibleBrokerVersion",
           "KafkaUnavailableError"]


class IllegalOperation(KafkaError):
    """A call the consumer's state does not allow (kafka-python's name)."""


class IncompatibleBrokerVersion(KafkaError):
    """The broker lacks a request the call needs."""


class KafkaUnavailableError(KafkaError):
    """No broker answered (kafka-python's name)."""


__getattr__ = broker_error_lookup(__name__)
