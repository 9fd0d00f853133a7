"""confluent_kafka.admin's ACL types: AclBinding (an ACL), AclBindingFilter (what to match),
AclOperation, AclPermissionType; checked and compared as confluent-kafka does."""
from __future__ import annotations

import enum
import functools
from typing import Any, TypeVar

from kafkacodec.compat.confluent_kafka._enum import OrderedEnum
from kafkacodec.compat.confluent_kafka._types import KeyedValue
from kafkacodec.compat.confluent_kafka.admin._resource import ResourcePatternType, ResourceType

__all__ = ["AclOperation", "AclPermissionType", "AclBinding", "AclBindingFilter"]

_E = TypeVar("_E", bound=enum.Enum)


class AclOperation(OrderedEnum):
    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12


class AclPermissionType(OrderedEnum):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


def _convert(value: Any, cls: type[_E]) -> _E:
    """A member of `cls` from a member, its name (any case) or its value, with confluent-kafka's errors."""
    if isinstance(value, str):
        try:
            return cls[value.upper()]
        except KeyError:
            raise ValueError(f'Unknown value "{value}": should be a {cls.__name__}') from None
    if isinstance(value, int):
        return cls(value)
    if not isinstance(value, cls):
        raise TypeError(f'Unknown value "{value}": should be a {cls.__name__}')
    return value


@functools.total_ordering
class AclBinding(KeyedValue):
    """An ACL: an operation a principal may (ALLOW) or may not (DENY) do from a host on the
    resources a name and pattern type match.  For create_acls(); describe_acls() and
    delete_acls() answer with them.  ANY and MATCH are for filters only."""

    restype: ResourceType
    resource_pattern_type: ResourcePatternType
    operation: AclOperation
    permission_type: AclPermissionType

    def __init__(self, restype: ResourceType | str | int, name: str | None,
                 resource_pattern_type: ResourcePatternType | str | int, principal: str | None, host: str | None,
                 operation: AclOperation | str | int, permission_type: AclPermissionType | str | int) -> None:
        self.name = name
        self.principal = principal
        self.host = host
        given = {"restype": restype, "name": name, "resource_pattern_type": resource_pattern_type,
                 "principal": principal, "host": host, "operation": operation, "permission_type": permission_type}
        for arg in self._not_none_args():
            if given[arg] is None:
                raise ValueError(f"Expected {arg} to be not None")
        for arg in ("name", "principal", "host"):
            if given[arg] is not None and not isinstance(given[arg], str):
                raise TypeError(f"Expected {arg} to be a string")
        self.restype = _convert(restype, ResourceType)
        self.resource_pattern_type = _convert(resource_pattern_type, ResourcePatternType)
        self.operation = _convert(operation, AclOperation)
        self.permission_type = _convert(permission_type, AclPermissionType)
        for arg, forbidden in self._forbidden_enums().items():
            value = getattr(self, arg)
            if value in forbidden:
                raise ValueError(f"Cannot use enum {arg}, value {value.name} in this class")
        self.restype_int = int(self.restype.value)
        self.resource_pattern_type_int = int(self.resource_pattern_type.value)
        self.operation_int = int(self.operation.value)
        self.permission_type_int = int(self.permission_type.value)

    def _not_none_args(self) -> list[str]:
        return ["restype", "name", "resource_pattern_type", "principal", "host", "operation", "permission_type"]

    def _forbidden_enums(self) -> dict[str, list[enum.Enum]]:
        return {"restype": [ResourceType.ANY],
                "resource_pattern_type": [ResourcePatternType.ANY, ResourcePatternType.MATCH],
                "operation": [AclOperation.ANY], "permission_type": [AclPermissionType.ANY]}

    def _key(self) -> tuple[ResourceType, str | None, ResourcePatternType, str | None, str | None,
                            AclOperation, AclPermissionType]:
        return (self.restype, self.name, self.resource_pattern_type, self.principal, self.host, self.operation,
                self.permission_type)

    def __repr__(self) -> str:
        return "%s(%s,%s,%s,%s,%s,%s,%s)" % ((type(self).__name__,) + self._key())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, AclBinding):
            return NotImplemented
        # None sorts first, so filters order as confluent-kafka's tuples of strings would
        mine = tuple("" if v is None else v for v in self._key())
        theirs = tuple("" if v is None else v for v in other._key())
        return bool(mine < theirs)


class AclBindingFilter(AclBinding):
    """What describe_acls() and delete_acls() match: None matches any name, principal or
    host; ANY any enum value; pattern MATCH what a literal, wildcard or prefixed ACL covers."""

    def _not_none_args(self) -> list[str]:
        return ["restype", "resource_pattern_type", "operation", "permission_type"]

    def _forbidden_enums(self) -> dict[str, list[enum.Enum]]:
        return {"restype": [ResourceType.UNKNOWN], "resource_pattern_type": [ResourcePatternType.UNKNOWN],
                "operation": [AclOperation.UNKNOWN], "permission_type": [AclPermissionType.UNKNOWN]}
