"""confluent_kafka.admin's AdminClient over kafkacodec's Admin: each call returns futures
(``concurrent.futures.Future``) that a small thread pool resolves, as librdkafka's
background thread does.  The calls here: create_topics, delete_topics, list_topics,
describe_cluster, list_offsets, create_partitions, delete_records,
list_consumer_group_offsets, alter_consumer_group_offsets, delete_consumer_groups.
"""
from __future__ import annotations

import concurrent.futures
import enum
from collections.abc import Callable, Iterable
from typing import Any, Self, TypeVar

from kafkacodec.client import Admin as _Admin
from kafkacodec.client import errors as E
from kafkacodec.compat.confluent_kafka import _config, _metadata
from kafkacodec.compat.confluent_kafka._errors import CODES, KafkaError, KafkaException, exception_from, make_client
from kafkacodec.compat.confluent_kafka._producer import _seconds
from kafkacodec.compat.confluent_kafka._types import (OFFSET_INVALID, BrokerMetadata, ClusterMetadata,
                                                      PartitionMetadata, TopicMetadata, TopicPartition)

_T = TypeVar("_T")

__all__ = ["AdminClient", "NewTopic", "NewPartitions", "DeletedRecords", "ConsumerGroupTopicPartitions", "OffsetSpec", "ListOffsetsResultInfo", "DescribeClusterResult", "Node",
           "ClusterMetadata", "BrokerMetadata", "TopicMetadata", "PartitionMetadata", "KafkaError",
           "KafkaException", "IsolationLevel", "OFFSET_INVALID"]


class NewTopic:
    """A topic for create_topics(): num_partitions and replication_factor -1 take the broker's defaults."""

    def __init__(self, topic: str, num_partitions: int = -1, replication_factor: int = -1,
                 replica_assignment: list[list[int]] | None = None, config: dict[str, str] | None = None) -> None:
        self.topic = topic
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.replica_assignment = replica_assignment
        self.config = dict(config or {})

    def __repr__(self) -> str:
        return f"NewTopic(topic={self.topic},num_partitions={self.num_partitions})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NewTopic) and self.topic == other.topic

    def __hash__(self) -> int:
        return hash(self.topic)


class NewPartitions:
    """A topic's new total partition count (create_partitions)."""

    def __init__(self, topic: str, new_total_count: int, replica_assignment: list[list[int]] | None = None) -> None:
        self.topic = topic
        self.new_total_count = new_total_count
        self.replica_assignment = replica_assignment


class DeletedRecords:
    """A partition's log start offset after delete_records."""

    def __init__(self, low_watermark: int) -> None:
        self.low_watermark = low_watermark

    def __repr__(self) -> str:
        return f"DeletedRecords(low_watermark={self.low_watermark})"


class ConsumerGroupTopicPartitions:
    """A group and its partitions (offsets given or answered) for the group offset calls."""

    def __init__(self, group_id: str, topic_partitions: list[TopicPartition] | None = None) -> None:
        self.group_id = group_id
        self.topic_partitions = topic_partitions

    def __repr__(self) -> str:
        return f"ConsumerGroupTopicPartitions({self.group_id!r}, {self.topic_partitions!r})"


class IsolationLevel(enum.Enum):
    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1


class OffsetSpec:
    """What list_offsets() looks up: earliest(), latest(), for_timestamp(ms)."""

    EARLIEST, LATEST = -2, -1

    def __init__(self, value: int) -> None:
        self._value = value

    @classmethod
    def earliest(cls) -> Self:
        return cls(cls.EARLIEST)

    @classmethod
    def latest(cls) -> Self:
        return cls(cls.LATEST)

    @classmethod
    def for_timestamp(cls, timestamp: int) -> Self:
        return cls(int(timestamp))

    def __repr__(self) -> str:
        return f"OffsetSpec({self._value})"


class ListOffsetsResultInfo:
    def __init__(self, offset: int, timestamp: int, leader_epoch: int | None) -> None:
        self.offset, self.timestamp, self.leader_epoch = offset, timestamp, leader_epoch

    def __repr__(self) -> str:
        return f"ListOffsetsResultInfo(offset={self.offset},timestamp={self.timestamp})"


class Node:
    def __init__(self, id: int, host: str, port: int, rack: str | None = None) -> None:
        self.id, self.id_string, self.host, self.port, self.rack = id, str(id), host, port, rack

    def __repr__(self) -> str:
        return f"Node({self.id}, {self.host}:{self.port})"


class DescribeClusterResult:
    def __init__(self, controller: Node | None, nodes: list[Node], cluster_id: str | None = None,
                 authorized_operations: list[Any] | None = None) -> None:
        self.controller, self.nodes, self.cluster_id = controller, nodes, cluster_id
        self.authorized_operations = authorized_operations


class AdminClient:
    """confluent-kafka's AdminClient: calls return futures, or {name: future} per topic."""

    def __init__(self, *args: dict[str, Any], **kwargs: Any) -> None:
        config = dict(args[0]) if args else {}
        config.update(kwargs)
        conf, face = _config.translate(config, "A")
        self._conf = conf
        self._a = make_client(_Admin, conf)
        self._pool = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="kafkacodec-adminclient")
        self._closed = False

    def _submit(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> concurrent.futures.Future[_T]:
        def run() -> _T:
            try:
                return fn(*args, **kwargs)
            except E.KafkaError as exc:
                raise exception_from(exc) from exc
        return self._pool.submit(run)

    @staticmethod
    def _timeout(request_timeout: float | None, operation_timeout: float | None = 0) -> float | None:
        """One deadline for kafkacodec's call: the longer of the two confluent-kafka timeouts."""
        values = [t for t in (_seconds(request_timeout), _seconds(operation_timeout) or None) if t is not None]
        return max(values) if values else None

    def create_topics(self, new_topics: Iterable[NewTopic], operation_timeout: float = 0, request_timeout: float = -1,
                      validate_only: bool = False) -> dict[str, concurrent.futures.Future[None]]:
        """{topic: future of None}; a future raises KafkaException (TOPIC_ALREADY_EXISTS, ...)."""
        if validate_only:
            raise KafkaException(KafkaError(CODES["_INVALID_ARG"], "validate_only is not supported by "
                                            "kafkacodec's Admin: create the topic, or check the settings yourself"))
        timeout = self._timeout(request_timeout, operation_timeout)
        out: dict[str, concurrent.futures.Future[None]] = {}
        for t in new_topics:
            if t.replica_assignment:
                raise KafkaException(KafkaError(CODES["_INVALID_ARG"], "replica_assignment is not supported by "
                                                "kafkacodec's Admin: give num_partitions and replication_factor"))
            # with the broker's default partition count there is no count to wait for
            out[t.topic] = self._submit(self._a.create_topics, {t.topic: t.num_partitions},
                                        replication_factor=t.replication_factor, configs=t.config or None,
                                        timeout=timeout, wait=t.num_partitions > 0)
        return out

    def delete_topics(self, topics: Iterable[str], operation_timeout: float = 0,
                      request_timeout: float = -1) -> dict[str, concurrent.futures.Future[None]]:
        """{topic: future of None}."""
        timeout = self._timeout(request_timeout, operation_timeout)
        return {name: self._submit(self._a.delete_topics, [name], timeout=timeout) for name in topics}

    def list_topics(self, topic: str | None = None, timeout: float = -1) -> ClusterMetadata:
        """ClusterMetadata (not a future, as in confluent-kafka)."""
        return _metadata.list_topics(self._a, topic, _seconds(timeout))

    def describe_cluster(self, request_timeout: float = -1, include_authorized_operations: bool = False
                         ) -> concurrent.futures.Future[DescribeClusterResult]:
        """Future of DescribeClusterResult(controller, nodes, cluster_id)."""
        def describe() -> DescribeClusterResult:
            d = self._a.describe_cluster(timeout=_seconds(request_timeout))
            nodes = [Node(b.node_id, b.host, b.port, b.rack) for b in d.brokers]
            controller = next((n for n in nodes if n.id == d.controller_id), None)
            return DescribeClusterResult(controller, nodes, d.cluster_id)
        return self._submit(describe)

    def list_offsets(self, topic_partition_offsets: dict[TopicPartition, OffsetSpec],
                     isolation_level: IsolationLevel | None = None, request_timeout: float = -1
                     ) -> dict[TopicPartition, concurrent.futures.Future[ListOffsetsResultInfo]]:
        """{TopicPartition: future of ListOffsetsResultInfo} for {TopicPartition: OffsetSpec}."""
        level = "read_committed" if isolation_level == IsolationLevel.READ_COMMITTED else "read_uncommitted"
        specs = {(tp.topic, tp.partition): spec._value for tp, spec in topic_partition_offsets.items()}
        whole = self._submit(self._a.list_offsets, specs, isolation_level=level,
                             timeout=_seconds(request_timeout))
        out: dict[TopicPartition, concurrent.futures.Future[ListOffsetsResultInfo]] = {}
        for tp in topic_partition_offsets:
            fut: concurrent.futures.Future[ListOffsetsResultInfo] = concurrent.futures.Future()
            out[TopicPartition(tp.topic, tp.partition)] = fut
        # one ListOffsets round for all partitions; each partition's future takes its part of the answer
        def split(done: concurrent.futures.Future[Any]) -> None:
            exc = done.exception()
            for tp, fut in out.items():
                if exc is not None:
                    fut.set_exception(exc)
                    continue
                hit = done.result().get((tp.topic, tp.partition))
                if hit is None:
                    fut.set_exception(KafkaException(KafkaError(CODES["UNKNOWN_TOPIC_OR_PART"])))
                else:
                    fut.set_result(ListOffsetsResultInfo(-1 if hit.offset is None else hit.offset,
                                                         -1 if hit.timestamp is None else hit.timestamp,
                                                         hit.leader_epoch))
        whole.add_done_callback(split)
        return out

    def create_partitions(self, new_partitions: Iterable[NewPartitions], operation_timeout: float = 0,
                          request_timeout: float = -1,
                          validate_only: bool = False) -> dict[str, concurrent.futures.Future[None]]:
        """{topic: future of None}."""
        timeout = self._timeout(request_timeout, operation_timeout)
        out: dict[str, concurrent.futures.Future[None]] = {}
        for n in new_partitions:
            if n.replica_assignment:
                raise KafkaException(KafkaError(CODES["_INVALID_ARG"], "replica_assignment is not supported by "
                                                "kafkacodec's Admin: the controller places new partitions"))
            out[n.topic] = self._submit(self._a.create_partitions, {n.topic: n.new_total_count}, timeout=timeout,
                                        validate_only=validate_only)
        return out

    def delete_records(self, topic_partition_offsets: Iterable[TopicPartition], request_timeout: float = -1,
                       operation_timeout: float = 0) -> dict[TopicPartition, concurrent.futures.Future[DeletedRecords]]:
        """{TopicPartition: future of DeletedRecords} for [TopicPartition(topic, partition, offset)]."""
        timeout = self._timeout(request_timeout, operation_timeout)

        def delete(tp: TopicPartition) -> DeletedRecords:
            got = self._a.delete_records({(tp.topic, tp.partition): tp.offset}, timeout=timeout)
            return DeletedRecords(got[(tp.topic, tp.partition)])  # type: ignore[index]  # a TopicPartition equals its pair
        return {TopicPartition(tp.topic, tp.partition): self._submit(delete, tp) for tp in topic_partition_offsets}

    def list_consumer_group_offsets(self, list_consumer_group_offsets_request: Iterable[ConsumerGroupTopicPartitions],
                                    require_stable: bool = False, request_timeout: float = -1
                                    ) -> dict[str, concurrent.futures.Future[ConsumerGroupTopicPartitions]]:
        """{group id: future of ConsumerGroupTopicPartitions} (offset -1001: none committed)."""
        timeout = _seconds(request_timeout)

        def fetch(req: ConsumerGroupTopicPartitions) -> ConsumerGroupTopicPartitions:
            parts = None if not req.topic_partitions else [(tp.topic, tp.partition) for tp in req.topic_partitions]
            got = self._a.list_consumer_group_offsets(req.group_id, parts, require_stable=require_stable,
                                                      timeout=timeout)
            return ConsumerGroupTopicPartitions(req.group_id, [
                TopicPartition(tp.topic, tp.partition, OFFSET_INVALID if o is None else o)
                for tp, o in sorted(got.items())])
        return {req.group_id: self._submit(fetch, req) for req in list_consumer_group_offsets_request}

    def alter_consumer_group_offsets(self, alter_consumer_group_offsets_request: Iterable[ConsumerGroupTopicPartitions],
                                     request_timeout: float = -1
                                     ) -> dict[str, concurrent.futures.Future[ConsumerGroupTopicPartitions]]:
        """{group id: future of ConsumerGroupTopicPartitions} (the partitions as altered)."""
        timeout = _seconds(request_timeout)
        requests = list(alter_consumer_group_offsets_request)
        for req in requests:
            if req.topic_partitions is None:
                raise KafkaException(KafkaError(CODES["_INVALID_ARG"], f"alter_consumer_group_offsets: group "
                                                f"{req.group_id!r} has no topic_partitions to alter"))

        def alter(req: ConsumerGroupTopicPartitions) -> ConsumerGroupTopicPartitions:
            parts = req.topic_partitions or []  # None is refused above
            self._a.alter_consumer_group_offsets(
                req.group_id, {(tp.topic, tp.partition): tp.offset for tp in parts}, timeout=timeout)
            return ConsumerGroupTopicPartitions(req.group_id, [
                TopicPartition(tp.topic, tp.partition, tp.offset) for tp in parts])
        return {req.group_id: self._submit(alter, req) for req in requests}

    def delete_consumer_groups(self, group_ids: Iterable[str],
                               request_timeout: float = -1) -> dict[str, concurrent.futures.Future[None]]:
        """{group id: future of None}."""
        timeout = _seconds(request_timeout)
        return {g: self._submit(self._a.delete_consumer_groups, [g], timeout=timeout) for g in group_ids}

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._pool.shutdown(wait=True)
        self._a.close()

    def __del__(self) -> None:
        if getattr(self, "_closed", True) is False:
            try:
                self._pool.shutdown(wait=False)
                self._a.close()
            except Exception:
                pass
