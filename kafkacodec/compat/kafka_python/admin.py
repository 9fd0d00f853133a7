"""kafka-python's KafkaAdminClient (kafka.admin) over kafkacodec.client.Admin."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kafkacodec.client import Admin, TopicPartition
from kafkacodec.compat._admin import (AdminCalls, ConfigResource, ConfigResourceType, NewPartitions, NewTopic,
                                      RecordsToDelete)
from kafkacodec.compat._kwargs import translate
from kafkacodec.compat.kafka_python._config import ADMIN, REFUSED
from kafkacodec.compat.kafka_python.structs import OffsetAndMetadata

__all__ = ["KafkaAdminClient", "NewTopic", "NewPartitions", "ConfigResource", "ConfigResourceType",
           "RecordsToDelete"]


class KafkaAdminClient(AdminCalls):
    """Topics (create, delete, list, describe), partitions, configs, groups and their offsets,
    delete_records, describe_cluster.  Results are plain dicts and lists with kafka-python's field
    names; a broker's error raises, as kafka-python's raise_errors=True."""

    def __init__(self, **configs: Any) -> None:
        configs.setdefault("bootstrap_servers", "localhost")
        super().__init__(Admin(translate("KafkaAdminClient", ADMIN, REFUSED, configs)))

    def close(self) -> None:
        self.admin.close()

    def __enter__(self) -> KafkaAdminClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def create_topics(self, new_topics: Iterable[NewTopic | str] | Mapping[str, Mapping[str, Any]],
                      timeout_ms: int | None = None, validate_only: bool = False) -> dict[str, Any]:
        """kafka-python 3's three forms: NewTopics; topic names (the broker's default partition count
        and replication factor); {name: {num_partitions, replication_factor, assignments, configs}}."""
        topics: list[NewTopic]
        if isinstance(new_topics, Mapping):
            # data.get, as kafka-python: settings that are not a dict fail the same way
            topics = [NewTopic(name, data.get("num_partitions", -1), data.get("replication_factor", -1),
                               data.get("assignments", {}), data.get("configs", {}))
                      for name, data in new_topics.items()]
        else:
            topics = [NewTopic(t) if isinstance(t, str) else t for t in new_topics]
        return super().create_topics(topics, timeout_ms, validate_only)

    def list_consumer_group_offsets(self, group_id: str, group_coordinator_id: int | None = None,  # type: ignore[override]
                                    partitions: Iterable[TopicPartition] | None = None
                                    ) -> dict[TopicPartition, OffsetAndMetadata]:
        return {tp: OffsetAndMetadata(o, "", -1)
                for tp, o in super().list_consumer_group_offsets(group_id, partitions).items()}

    # kafka-python 3's names for the group calls
    def list_groups(self) -> list[Any]:
        return self.list_consumer_groups()

    def describe_groups(self, group_ids: Iterable[str]) -> list[dict[str, Any]]:
        return self.describe_consumer_groups(group_ids)

    def list_group_offsets(self, group_specs: Mapping[str, Iterable[TopicPartition] | None] | str
                           ) -> dict[str, dict[TopicPartition, OffsetAndMetadata]]:
        specs = {group_specs: None} if isinstance(group_specs, str) else dict(group_specs)
        return {g: self.list_consumer_group_offsets(g, partitions=p) for g, p in specs.items()}

    def delete_groups(self, group_ids: Iterable[str]) -> None:
        self.delete_consumer_groups(group_ids)

    def alter_group_offsets(self, group_id: str, offsets: Mapping[TopicPartition, Any]) -> None:
        self.alter_consumer_group_offsets(group_id, offsets)
