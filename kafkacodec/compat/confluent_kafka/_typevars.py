"""DefaultTypeVar: a TypeVar with a PEP 696 default, for the face's generic classes (Message,
the serializing clients), without typing_extensions at run time: typing's TypeVar takes
``default`` only from Python 3.13 on, and at run time the default changes nothing."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["DefaultTypeVar"]

if TYPE_CHECKING:
    from typing_extensions import TypeVar as DefaultTypeVar
else:
    from typing import TypeVar

    def DefaultTypeVar(name: str, *constraints: Any, default: Any = None, **kwargs: Any) -> TypeVar:
        return TypeVar(name, *constraints, **kwargs)
