"""kafka.errors (kafka-python) names over kafkacodec.client's errors.

The client raises its own classes; the names here are those classes (or, for
kafka-python's names without a client counterpart, subclasses of the client's
KafkaError), so ``except kafka.errors.X`` catches what the face raises.
A broker error code's class has the same name in both (``UnknownTopicOrPartitionError``,
``TopicAlreadyExistsError``, ...): any such name is looked up in the client's errors.
"""
from __future__ import annotations

from kafkacodec.client.errors import (AuthenticationError, ClientClosedError, CommitFailedError, ConfigError,
                                      IllegalStateError, KafkaConnectionError, KafkaError, KafkaTimeoutError,
                                      NoBrokersAvailable)
from kafkacodec.compat._errors import broker_error_lookup, for_code

__all__ = ["KafkaError", "KafkaTimeoutError", "KafkaConnectionError", "NoBrokersAvailable", "IllegalStateError",
           "CommitFailedError", "IllegalOperation", "ProducerClosed",
           "NoOffsetForPartitionError", "RecordTooLargeError", "KafkaConfigurationError", "AuthenticationError",
           "UnsupportedCodecError", "ProducerFencedError", "OffsetOutOfRangeError", "for_code", "IncompatibleBrokerVersion",
           "KafkaUnavailableError"]

KafkaConfigurationError = ConfigError
ProducerClosed = ClientClosedError


class IllegalOperation(KafkaError):
    """A call the consumer's state does not allow (kafka-python's name)."""


class IncompatibleBrokerVersion(KafkaError):
    """The broker lacks a request the call needs."""


class KafkaUnavailableError(KafkaError):
    """No broker answered (kafka-python's name)."""


class UnsupportedCodecError(KafkaError):
    """A compression type that is not one of gzip, snappy, lz4, zstd."""


__getattr__ = broker_error_lookup(__name__)
