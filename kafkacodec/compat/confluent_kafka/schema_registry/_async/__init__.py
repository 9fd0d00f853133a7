"""The asyncio forms: ``AsyncSchemaRegistryClient`` and the ``Async*`` serializers, for the face's
``aio`` clients.

Each call is first tried on the event loop with the client's caches only (a schema id met before, a
subject already registered: no request, no thread); a call that needs the registry goes to a worker
thread (``asyncio.to_thread``) and its answer fills the caches, so the event loop is never blocked on
the network.  The serializers are made with ``await AsyncAvroSerializer(...)``, as confluent-kafka's.
"""
from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Generator
from typing import Any

from kafkacodec.schema_registry import SchemaRegistryClient
from kafkacodec.schema_registry._client import WouldBlock, cached_only


async def _off_the_loop(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    try:
        with cached_only():
            return fn(*args, **kwargs)
    except WouldBlock:
        return await asyncio.to_thread(fn, *args, **kwargs)


# the client's calls that may ask the registry (confluent-kafka's coroutines)
_CALLS = ("clear_caches", "clear_latest_caches", "delete_config", "delete_mode", "delete_subject", "delete_version",
          "get_compatibility", "get_config", "get_contexts", "get_global_mode", "get_latest_version",
          "get_latest_with_metadata", "get_mode", "get_referenced_by", "get_schema", "get_schema_by_guid",
          "get_schema_types", "get_schema_versions", "get_subjects", "get_subjects_by_schema_id", "get_version",
          "get_versions", "lookup_schema", "register_schema", "register_schema_full_response", "set_compatibility",
          "set_config", "test_compatibility", "test_compatibility_all_versions", "update_global_mode", "update_mode")


def _coroutine(name: str) -> Callable[..., Any]:
    blocking = getattr(SchemaRegistryClient, name)

    @functools.wraps(blocking)
    async def call(self: "AsyncSchemaRegistryClient", *args: Any, **kwargs: Any) -> Any:
        return await _off_the_loop(getattr(self.sync_client, name), *args, **kwargs)
    return call


class AsyncSchemaRegistryClient:
    """``SchemaRegistryClient``'s calls as coroutines (same arguments, same answers, same conf keys)."""

    def __init__(self, conf: dict[str, Any]) -> None:
        self.sync_client = SchemaRegistryClient(conf)

    @staticmethod
    def new_client(conf: dict[str, Any]) -> "AsyncSchemaRegistryClient":
        return AsyncSchemaRegistryClient(conf)

    def config(self) -> dict[str, Any]:
        return self.sync_client.config()

    async def aclose(self) -> None:
        self.sync_client.close()

    async def __aenter__(self) -> "AsyncSchemaRegistryClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


for _name in _CALLS:
    setattr(AsyncSchemaRegistryClient, _name, _coroutine(_name))


def blocking_client(client: Any) -> Any:
    return client.sync_client if isinstance(client, AsyncSchemaRegistryClient) else client


class _AsyncSerde:
    """A serializer or deserializer of the blocking kind, answering coroutines."""

    _serde: Any

    def __await__(self) -> Generator[Any, None, Any]:
        # confluent-kafka's async serdes are made with ``await``; there is nothing left to wait for here
        async def ready() -> Any:
            return self
        return ready().__await__()

    async def __call__(self, value: Any, ctx: Any = None) -> Any:
        return await _off_the_loop(self._serde, value, ctx)

    def set_cluster_id_resolver(self, resolver: Callable[[], Any]) -> None:
        self._serde.set_cluster_id_resolver(resolver)

    def close(self) -> None:
        self._serde.close()
