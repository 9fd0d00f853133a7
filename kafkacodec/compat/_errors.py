"""What the aiokafka and kafka-python faces' errors modules share: the names both projects give
the client's errors, a broker error code's class, and the lookup of a name (theirs or the
client's) among the client's error classes.

The client raises its own classes; the faces' names are those classes (or, for a project's name
without a client counterpart, a subclass of the client's KafkaError), so ``except
aiokafka.errors.X`` / ``except kafka.errors.X`` catches what a face raises.  A broker error
code's class has the same name in all three (``UnknownTopicOrPartitionError``,
``TopicAlreadyExistsError``, ...): any such name is looked up in the client's errors."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kafkacodec.client import errors as _E
from kafkacodec.client.errors import (AuthenticationError, ClientClosedError, CommitFailedError, ConfigError,
                                      IllegalStateError, KafkaConnectionError, KafkaError, KafkaTimeoutError,
                                      NoBrokersAvailable)

__all__ = ["for_code", "broker_error_lookup", "KafkaError", "KafkaTimeoutError", "KafkaConnectionError",
           "NoBrokersAvailable", "IllegalStateError", "CommitFailedError", "AuthenticationError",
           "KafkaConfigurationError", "ProducerClosed", "UnsupportedCodecError"]

KafkaConfigurationError = ConfigError
ProducerClosed = ClientClosedError


class UnsupportedCodecError(KafkaError):
    """A compression type that is not one of gzip, snappy, lz4, zstd."""

# the two projects' names for classes the client spells otherwise
ALIASES = {"RecordTooLargeError": "MessageTooLargeError",
           "NotLeaderForPartitionError": "NotLeaderOrFollowerError",
           "UnknownError": "UnknownServerError"}


def for_code(code: int) -> type[_E.KafkaError]:
    """The exception class of a broker error code."""
    return type(_E.error_for(code))


def broker_error_lookup(module: str, extra: Mapping[str, str] = {}) -> Callable[[str], Any]:
    """A module __getattr__ naming the client's error classes (broker error classes are made
    when first named, kafkacodec.client.errors) under `module`'s names as well."""
    aliases = {**ALIASES, **extra}

    def lookup(name: str) -> Any:
        try:
            return getattr(_E, aliases.get(name, name))
        except AttributeError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None

    return lookup
