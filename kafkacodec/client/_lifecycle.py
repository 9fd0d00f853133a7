"""What the clients share over their lifetime: ``with`` (``async with``) closes them, and
set_sasl_credentials changes the credentials of the connections made from then on."""
from __future__ import annotations

from types import TracebackType
from typing import Any, Self

from kafkacodec.client.errors import InvalidArgumentError

__all__ = ["ClosedOnExit", "AsyncClosedOnExit", "new_sasl_credentials"]


class ClosedOnExit:
    """A blocking client that ``with client:`` closes at the block's end."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class AsyncClosedOnExit:
    """An asyncio client that ``async with client:`` closes (awaits close()) at the block's end."""

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()


def new_sasl_credentials(conf: dict[str, Any], username: Any, password: Any) -> None:
    """A client's set_sasl_credentials: conf (what its connections read when they are made) takes them."""
    if not isinstance(username, str) or not isinstance(password, str):
        raise InvalidArgumentError("set_sasl_credentials: username and password must be str")
    conf["sasl.username"], conf["sasl.password"] = username, password
