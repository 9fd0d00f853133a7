"""The admin calls aiokafka and kafka-python share, translated to kafkacodec.client.Admin
(blocking; aiokafka's face runs them on a thread)."""
from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from kafkacodec.client import Admin, TopicPartition
from kafkacodec.client.errors import ConfigError

__all__ = ["NewTopic", "NewPartitions", "ConfigResource", "ConfigResourceType", "RecordsToDelete", "AdminCalls"]


class NewTopic:
    def __init__(self, name: str, num_partitions: int = -1, replication_factor: int = -1,
                 replica_assignments: Mapping[int, list[int]] | None = None,
                 topic_configs: Mapping[str, Any] | None = None) -> None:
        self.name, self.num_partitions, self.replication_factor = name, num_partitions, replication_factor
        self.replica_assignments = dict(replica_assignments or {})
        self.topic_configs = dict(topic_configs or {})


class NewPartitions:
    def __init__(self, total_count: int, new_assignments: list[list[int]] | None = None) -> None:
        self.total_count, self.new_assignments = total_count, new_assignments


class RecordsToDelete:
    def __init__(self, before_offset: int) -> None:
        self.before_offset = before_offset


class ConfigResourceType(enum.IntEnum):
    UNKNOWN = 0
    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8


class ConfigResource:
    def __init__(self, resource_type: ConfigResourceType | str | int, name: str,
                 configs: Mapping[str, Any] | None = None) -> None:
        if isinstance(resource_type, str):
            resource_type = ConfigResourceType[resource_type.upper()]
        self.resource_type = ConfigResourceType(resource_type)
        self.name, self.configs = name, configs

    def key(self) -> tuple[str, str]:
        if self.resource_type not in (ConfigResourceType.TOPIC, ConfigResourceType.BROKER):
            raise ConfigError(f"ConfigResource {self.resource_type.name}: kafkacodec describes and alters "
                              f"TOPIC and BROKER configs")
        return self.resource_type.name.lower(), str(self.name)


class GroupInformation(NamedTuple):
    group: str
    protocol_type: str


def _timeout(timeout_ms: int | None) -> float | None:
    return None if timeout_ms is None else timeout_ms / 1000


class AdminCalls:
    """The calls, over one client Admin."""

    def __init__(self, admin: Admin) -> None:
        self.admin = admin

    def create_topics(self, new_topics: Iterable[NewTopic], timeout_ms: int | None = None,
                      validate_only: bool = False) -> dict[str, Any]:
        if validate_only:
            raise ConfigError("create_topics(validate_only=True) has no meaning in kafkacodec: "
                              "create the topic, or check the name and counts yourself")
        created = []
        for t in new_topics:
            if t.replica_assignments:
                raise ConfigError(f"create_topics: {t.name}: replica_assignments have no meaning in kafkacodec: "
                                  f"give num_partitions and replication_factor")
            self.admin.create_topics({t.name: t.num_partitions}, replication_factor=t.replication_factor,
                                     configs=t.topic_configs or None, timeout=_timeout(timeout_ms))
            created.append({"name": t.name, "error_code": 0, "error_message": None,
                            "num_partitions": t.num_partitions, "replication_factor": t.replication_factor})
        return {"topics": created}

    def delete_topics(self, topics: Iterable[str], timeout_ms: int | None = None) -> dict[str, Any]:
        names = list(topics)
        self.admin.delete_topics(names, timeout=_timeout(timeout_ms))
        return {"topics": [{"name": n, "error_code": 0, "error_message": None} for n in names]}

    def list_topics(self) -> list[str]:
        return list(self.admin.list_topics())

    def describe_topics(self, topics: Iterable[str] | None = None) -> list[dict[str, Any]]:
        names = list(self.admin.list_topics()) if topics is None else list(topics)
        out = []
        for d in self.admin.describe_topics(names).values():
            out.append({"error_code": 0, "topic": d.name, "name": d.name, "is_internal": d.is_internal,
                        "partitions": [{"error_code": 0, "partition": p.partition, "partition_index": p.partition,
                                        "leader": p.leader, "leader_id": p.leader,
                                        "leader_epoch": p.leader_epoch, "replicas": list(p.replicas),
                                        "replica_nodes": list(p.replicas), "isr": list(p.isr),
                                        "isr_nodes": list(p.isr)} for p in d.partitions]})
        return out

    def describe_cluster(self) -> dict[str, Any]:
        c = self.admin.describe_cluster()
        return {"cluster_id": c.cluster_id, "controller_id": c.controller_id,
                "brokers": [{"node_id": b.node_id, "host": b.host, "port": b.port, "rack": b.rack}
                            for b in c.brokers]}

    def create_partitions(self, topic_partitions: Mapping[str, NewPartitions], timeout_ms: int | None = None,
                          validate_only: bool = False) -> dict[str, Any]:
        for name, p in topic_partitions.items():
            if p.new_assignments:
                raise ConfigError(f"create_partitions: {name}: new_assignments have no meaning in kafkacodec: "
                                  f"give total_count")
        self.admin.create_partitions({n: p.total_count for n, p in topic_partitions.items()},
                                     timeout=_timeout(timeout_ms), validate_only=validate_only)
        return {"topics": [{"name": n, "error_code": 0, "error_message": None} for n in topic_partitions]}

    def describe_configs(self, config_resources: Iterable[ConfigResource],
                         include_synonyms: bool = False) -> list[dict[str, Any]]:
        resources = list(config_resources)
        found = self.admin.describe_configs([r.key() for r in resources])
        out = []
        for r in resources:
            entries = next((v for k, v in found.items() if tuple(k) == r.key()), None)
            wanted = set(r.configs or ())
            out.append({"resource_type": int(r.resource_type), "resource_name": r.name, "error_code": 0,
                        "configs": {name: e.value for name, e in (entries or {}).items()
                                    if not wanted or name in wanted}})
        return out

    def alter_configs(self, config_resources: Iterable[ConfigResource]) -> None:
        self.admin.incremental_alter_configs({r.key(): dict(r.configs or {}) for r in config_resources})

    def list_consumer_groups(self) -> list[GroupInformation]:
        return [GroupInformation(g.group_id, g.protocol_type) for g in self.admin.list_consumer_groups()]

    def describe_consumer_groups(self, group_ids: Iterable[str]) -> list[dict[str, Any]]:
        out = []
        for g in self.admin.describe_consumer_groups(list(group_ids)).values():
            out.append({"error_code": 0, "group_id": g.group_id, "group_state": g.state, "state": g.state,
                        "protocol_type": g.protocol_type, "protocol": g.protocol,
                        "members": [{"member_id": m.member_id, "group_instance_id": m.group_instance_id,
                                     "client_id": m.client_id, "client_host": m.client_host,
                                     "member_assignment": m.assigned}
                                    for m in g.members]})
        return out

    def list_consumer_group_offsets(self, group_id: str, partitions: Iterable[TopicPartition] | None = None
                                    ) -> dict[TopicPartition, int]:
        found = self.admin.list_consumer_group_offsets(group_id, None if partitions is None else list(partitions))
        return {tp: o for tp, o in found.items() if o is not None}

    def alter_consumer_group_offsets(self, group_id: str, offsets: Mapping[TopicPartition, Any]) -> None:
        self.admin.alter_consumer_group_offsets(group_id, {tp: v[0] if isinstance(v, tuple) else v
                                                           for tp, v in offsets.items()})

    def delete_consumer_groups(self, group_ids: Iterable[str]) -> None:
        self.admin.delete_consumer_groups(list(group_ids))

    def delete_records(self, records_to_delete: Mapping[TopicPartition, Any],
                       timeout_ms: int | None = None) -> dict[TopicPartition, int]:
        return self.admin.delete_records({tp: getattr(r, "before_offset", r) for tp, r in records_to_delete.items()},
                                         timeout=_timeout(timeout_ms))
