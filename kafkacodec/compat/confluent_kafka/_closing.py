"""``with client:`` for the face's clients (Consumer, ShareConsumer, AdminClient): the block's end
closes the client, with confluent-kafka's ``__exit__`` signature."""
from __future__ import annotations

from typing import Self

__all__ = ["ClosedOnExit"]


class ClosedOnExit:
    """A face client that ``with client:`` closes at the block's end."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: object, exc_value: object, exc_traceback: object) -> bool | None:
        self.close()
        return None
