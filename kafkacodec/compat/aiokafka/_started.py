"""What aiokafka's consumer and producer share: the kafkacodec client under them, which their
start() makes, and ``async with`` starting and stopping them."""
from __future__ import annotations

import warnings
from typing import Any, Generic, Self, TypeVar

from kafkacodec.client.errors import IllegalStateError

__all__ = ["Started", "NotStartedError"]

_C = TypeVar("_C")


class NotStartedError(IllegalStateError, AttributeError):
    """A call on an aiokafka face before ``await start()``.  aiokafka fails there from inside,
    with an AttributeError (its parts are made by start()); this one says what to do, and
    ``except AttributeError`` catches it as it caught aiokafka's."""


class Started(Generic[_C]):
    """A face whose client is made by ``await start()`` (`_start`; `_under`: that client, None before)."""

    def _under(self) -> _C | None:
        raise NotImplementedError

    def _stopped_already(self) -> bool:
        raise NotImplementedError

    def _network(self, under: Any) -> Any:
        """The network client under `under` (the face's asyncio client)."""
        raise NotImplementedError

    def __del__(self) -> None:
        # as aiokafka's: started and never stopped is a ResourceWarning.  aiokafka's tasks end
        # with their event loop; this face's client has an I/O thread, stopped here without
        # waiting on it (nothing committed, no group left: as a process that ended)
        try:
            under = self._under()
            if under is None or self._stopped_already():
                return
            warnings.warn(f"Unclosed {type(self).__name__} {self!r}", ResourceWarning, source=self)
            self._network(under).close(0)
        except Exception:
            pass

    @property
    def client(self) -> _C:
        """kafkacodec's asyncio client under this one (after start())."""
        under = self._under()
        if under is None:
            raise NotStartedError(f"{type(self).__name__}: call await start() first")
        return under

    async def start(self) -> None:
        """Make the client under this one and start it; once (later calls do nothing)."""
        if self._under() is None:
            await self._start()

    async def _start(self) -> None:
        raise NotImplementedError

    async def stop(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
