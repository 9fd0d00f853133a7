"""What the aiokafka and kafka-python faces' errors modules share: a broker error code's
class and the lookup of a name (theirs or the client's) among the client's error classes."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kafkacodec.client import errors as _E

__all__ = ["for_code", "broker_error_lookup"]

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
