"""The base of confluent-kafka's enums that order by value (ConsumerGroupState, AclOperation,
ResourceType, ScramMechanism, ...): each of them defines the same ``__lt__``."""
from __future__ import annotations

import enum

__all__ = ["OrderedEnum"]


class OrderedEnum(enum.Enum):
    """An enum whose members sort by value; members of another enum do not compare."""

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return bool(self.value < other.value)
