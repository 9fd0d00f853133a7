"""What the clients share over their lifetime: ``with`` (``async with``) closes them, one
collected unclosed stops its I/O thread (which refers to it only weakly), set_sasl_credentials
changes the credentials of the connections made from then on, and the asyncio consumers run the
blocking one's waiting calls on a worker thread of their own."""
from __future__ import annotations

import weakref
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

from kafkacodec.client.errors import InvalidArgumentError

if TYPE_CHECKING:
    # imported where used: a program without asyncio clients does not load it
    import asyncio

    from kafkacodec.client.network import NetworkClient

__all__ = ["ClosedOnExit", "AsyncClosedOnExit", "AsyncOverWorker", "StopsWhenCollected", "new_sasl_credentials",
           "weakly"]

_T = TypeVar("_T")
_C = TypeVar("_C")
_R = TypeVar("_R")


class ClosedOnExit:
    """A blocking client that ``with client:`` closes at the block's end."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def weakly(method: Callable[..., object]) -> Callable[..., None]:
    """`method` (bound) for the I/O thread to call: it runs while its object lives and does
    nothing once the object is collected, so that a client dropped unclosed can be."""
    ref = weakref.WeakMethod(method)

    def call(*args: Any) -> None:
        bound = ref()
        if bound is not None:
            bound(*args)
    return call


class StopsWhenCollected:
    """A consumer collected without close() stops its client, as librdkafka's handle destroyed
    without a consumer close: no final commit and no group left (the coordinator drops the
    member after its session timeout).  Nothing here waits: a collection may run on any thread,
    the client's I/O thread included."""

    _closed: bool
    _client: NetworkClient

    def __del__(self) -> None:
        if getattr(self, "_closed", True) is False:
            try:
                self._client.close(0)
            except Exception:
                pass


class AsyncClosedOnExit:
    """An asyncio client that ``async with client:`` closes (awaits close()) at the block's end."""

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()


class AsyncOverWorker(AsyncClosedOnExit, Generic[_C, _R]):
    """An asyncio consumer over a blocking one, `consumer` (of type _C, records of type _R): its
    waiting calls run, in order, on one worker thread of its own (named `thread_name`), so the
    event loop never blocks; ``async for record in consumer`` takes the records as they come."""

    def __init__(self, consumer: _C, thread_name: str) -> None:
        import concurrent.futures
        self._consumer = consumer
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=thread_name)
        self._closed = False

    async def poll(self, timeout: float | None = None, max_records: int | None = None) -> list[_R]:
        raise NotImplementedError

    def _run(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> asyncio.Future[_T]:
        import asyncio
        import functools
        return asyncio.get_running_loop().run_in_executor(self._worker, functools.partial(fn, *args, **kwargs))

    async def _close_on_worker(self, close: Callable[..., object], *args: Any) -> None:
        """The blocking consumer's close(*args) on the worker, then the worker stopped."""
        self._closed = True
        try:
            await self._run(close, *args)
        finally:
            self._worker.shutdown(wait=False)

    def __aiter__(self) -> AsyncIterator[_R]:
        return self._records()

    async def _records(self) -> AsyncIterator[_R]:
        # short polls: a cancelled iteration leaves the worker busy for at most this long
        while not self._closed:
            for record in await self.poll(0.5):
                yield record


def new_sasl_credentials(conf: dict[str, Any], username: Any, password: Any) -> None:
    """A client's set_sasl_credentials: conf (what its connections read when they are made) takes them."""
    if not isinstance(username, str) or not isinstance(password, str):
        raise InvalidArgumentError("set_sasl_credentials: username and password must be str")
    conf["sasl.username"], conf["sasl.password"] = username, password
