"""aiokafka.errors' names over kafkacodec.client's errors (as kafkacodec.compat._errors
describes: the client's classes, or subclasses of its KafkaError)."""
from __future__ import annotations

from kafkacodec.compat._errors import (AuthenticationError, CommitFailedError, IllegalStateError,
                                      KafkaConfigurationError, KafkaConnectionError, KafkaError, KafkaTimeoutError,
                                      NoBrokersAvailable, ProducerClosed, UnsupportedCodecError, broker_error_lookup,
                                      for_code)

__all__ = ["KafkaError", "KafkaTimeoutError", "KafkaConnectionError", "NoBrokersAvailable", "IllegalStateError",
           "CommitFailedError", "ConsumerStoppedError", "IllegalOperation", "ProducerClosed",
           "NoOffsetForPartitionError", "RecordTooLargeError", "KafkaConfigurationError", "AuthenticationError",
           "UnsupportedCodecError", "ProducerFenced", "OffsetOutOfRangeError", "for_code"]


class ConsumerStoppedError(KafkaError):
    """Raised by getone/getmany and iteration once the consumer is stopped."""


class IllegalOperation(KafkaError):
    """A call the consumer's state does not allow (aiokafka's name)."""


__getattr__ = broker_error_lookup(__name__, {"ProducerFenced": "ProducerFencedError"})
