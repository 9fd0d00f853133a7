"""aiokafka.admin: AIOKafkaAdminClient over kafkacodec.client.Admin, its calls on a thread."""
from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

from kafkacodec.client import Admin, TopicPartition
from kafkacodec.compat._admin import AdminCalls, ConfigResource, NewPartitions, NewTopic, RecordsToDelete
from kafkacodec.compat._kwargs import translate
from kafkacodec.compat.aiokafka._config import ADMIN, ADMIN_REFUSED
from kafkacodec.compat.aiokafka.structs import OffsetAndMetadata

__all__ = ["AIOKafkaAdminClient", "NewTopic", "NewPartitions", "RecordsToDelete", "ConfigResource"]

class AIOKafkaAdminClient:
    """``await start()``, then topics, partitions, configs, groups and their offsets, delete_records,
    describe_cluster; ``await close()``.  Results are plain dicts and lists with the fields'
    names, not aiokafka's protocol responses."""

    def __init__(self, **configs: Any) -> None:
        configs.setdefault("bootstrap_servers", "localhost")
        self._conf = translate("AIOKafkaAdminClient", ADMIN, ADMIN_REFUSED, configs)
        self._calls: AdminCalls | None = None

    async def start(self) -> None:
        if self._calls is None:
            self._calls = AdminCalls(Admin(self._conf))

    async def close(self) -> None:
        if self._calls is not None:
            await asyncio.to_thread(self._calls.admin.close)

    async def _run(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self._calls is None:
            await self.start()
        assert self._calls is not None
        return await asyncio.to_thread(getattr(self._calls, name), *args, **kwargs)

    async def create_topics(self, new_topics: list[NewTopic], timeout_ms: int | None = None,
                            validate_only: bool = False) -> dict[str, Any]:
        return await self._run("create_topics", new_topics, timeout_ms, validate_only)  # type: ignore[no-any-return]

    async def delete_topics(self, topics: list[str], timeout_ms: int | None = None) -> dict[str, Any]:
        return await self._run("delete_topics", topics, timeout_ms)  # type: ignore[no-any-return]

    async def list_topics(self) -> list[str]:
        return await self._run("list_topics")  # type: ignore[no-any-return]

    async def describe_topics(self, topics: list[str] | None = None) -> list[dict[str, Any]]:
        return await self._run("describe_topics", topics)  # type: ignore[no-any-return]

    async def describe_cluster(self) -> dict[str, Any]:
        return await self._run("describe_cluster")  # type: ignore[no-any-return]

    async def create_partitions(self, topic_partitions: dict[str, NewPartitions], timeout_ms: int | None = None,
                                validate_only: bool = False) -> dict[str, Any]:
        return await self._run("create_partitions", topic_partitions, timeout_ms,  # type: ignore[no-any-return]
                               validate_only)

    async def describe_configs(self, config_resources: list[ConfigResource],
                               include_synonyms: bool = False) -> list[dict[str, Any]]:
        return await self._run("describe_configs", config_resources, include_synonyms)  # type: ignore[no-any-return]

    async def alter_configs(self, config_resources: list[ConfigResource]) -> None:
        await self._run("alter_configs", config_resources)

    async def list_consumer_groups(self, broker_ids: list[int] | None = None) -> list[tuple[Any, ...]]:
        return await self._run("list_consumer_groups")  # type: ignore[no-any-return]

    async def describe_consumer_groups(self, group_ids: list[str], group_coordinator_id: int | None = None,
                                       include_authorized_operations: bool = False) -> list[dict[str, Any]]:
        return await self._run("describe_consumer_groups", group_ids)  # type: ignore[no-any-return]

    async def list_consumer_group_offsets(self, group_id: str, group_coordinator_id: int | None = None,
                                          partitions: Iterable[TopicPartition] | None = None
                                          ) -> dict[TopicPartition, OffsetAndMetadata]:
        found = await self._run("list_consumer_group_offsets", group_id, partitions)
        return {tp: OffsetAndMetadata(o, "") for tp, o in found.items()}

    async def delete_consumer_groups(self, group_ids: list[str]) -> None:
        await self._run("delete_consumer_groups", group_ids)

    async def delete_records(self, records_to_delete: Mapping[TopicPartition, RecordsToDelete],
                             timeout_ms: int | None = None) -> dict[TopicPartition, int]:
        return await self._run("delete_records", records_to_delete, timeout_ms)  # type: ignore[no-any-return]
