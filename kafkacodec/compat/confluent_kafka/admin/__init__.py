"""confluent_kafka.admin's AdminClient over kafkacodec's Admin: each call returns futures
(``concurrent.futures.Future``) that a small thread pool resolves, as librdkafka's
background thread does.  The calls here: create_topics, delete_topics, list_topics,
describe_cluster, describe_topics, list_offsets, create_partitions, delete_records,
list_consumer_groups, describe_consumer_groups, list_consumer_group_offsets,
alter_consumer_group_offsets, delete_consumer_groups, describe_configs,
incremental_alter_configs.

Where kafkacodec's Admin cannot give what confluent-kafka's would, the call says so
instead of answering less: ``include_authorized_operations=True`` is refused
(KafkaException, _INVALID_ARG), since the Admin asks for no ACL operations.  Listed
groups carry the type ListGroups v5 gives (UNKNOWN from older brokers, as librdkafka).
Groups are described with DescribeGroups (type CLASSIC; librdkafka tries KIP-848's
ConsumerGroupDescribe first), configs without synonyms, and only topic and broker
configs; several broker resources may go in one describe_configs() call.
"""
from __future__ import annotations

import concurrent.futures
import enum
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Self, TypeVar

from kafkacodec.client import Admin as _Admin
from kafkacodec.client import errors as E
from kafkacodec.client.admin import GroupDescription, GroupListing
from kafkacodec.compat.confluent_kafka import _config, _metadata
from kafkacodec.compat.confluent_kafka._errors import CODES, KafkaError, KafkaException, exception_from, make_client
from kafkacodec.compat.confluent_kafka._producer import _seconds
from kafkacodec.compat.confluent_kafka._types import (OFFSET_INVALID, BrokerMetadata, ClusterMetadata,
                                                      ConsumerGroupState, ConsumerGroupType, Node,
                                                      PartitionMetadata, TopicCollection, TopicMetadata,
                                                      TopicPartition, TopicPartitionInfo, Uuid)
from kafkacodec.errors import KafkaCodecError
from kafkacodec.protocol import decode_versioned

_T = TypeVar("_T")
_E = TypeVar("_E", bound=enum.Enum)

__all__ = ["AdminClient", "NewTopic", "NewPartitions", "DeletedRecords", "ConsumerGroupTopicPartitions", "OffsetSpec",
           "ListOffsetsResultInfo", "DescribeClusterResult", "Node", "ClusterMetadata", "BrokerMetadata",
           "TopicMetadata", "PartitionMetadata", "KafkaError", "KafkaException", "IsolationLevel", "OFFSET_INVALID",
           "ResourceType", "ConfigResource", "ConfigEntry", "ConfigSource", "AlterConfigOpType",
           "ConsumerGroupListing", "ListConsumerGroupsResult", "ConsumerGroupDescription", "MemberDescription",
           "MemberAssignment", "ConsumerGroupState", "ConsumerGroupType", "TopicCollection", "TopicDescription",
           "TopicPartitionInfo", "Uuid"]


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


class DescribeClusterResult:
    def __init__(self, controller: Node | None, nodes: list[Node], cluster_id: str | None = None,
                 authorized_operations: list[Any] | None = None) -> None:
        self.controller, self.nodes, self.cluster_id = controller, nodes, cluster_id
        self.authorized_operations = authorized_operations


def _to_enum(value: _E | str | int, cls: type[_E], what: str) -> _E:
    """`value` as a member of `cls`: a member, its name (any case) or its value."""
    if isinstance(value, cls):
        return value
    if isinstance(value, str):
        try:
            return cls[value.upper()]
        except KeyError:
            pass
    elif isinstance(value, int) and not isinstance(value, bool):
        try:
            return cls(value)
        except ValueError:
            pass
    else:
        raise TypeError(f"{what}: expected a {cls.__name__}, its name or its value, got {type(value).__name__}")
    raise ValueError(f"{what}: {value!r} is not a {cls.__name__} (one of {', '.join(cls.__members__)})")


class ResourceType(enum.Enum):
    """What a ConfigResource names, with librdkafka's values."""

    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    BROKER = 4
    TRANSACTIONAL_ID = 5

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ResourceType):
            return NotImplemented
        return bool(self.value < other.value)


class AlterConfigOpType(enum.Enum):
    """The operation of a ConfigEntry given to incremental_alter_configs()."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


class ConfigSource(enum.Enum):
    """Where a described config's value comes from (ConfigEntry.source holds the value)."""

    UNKNOWN_CONFIG = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    GROUP_CONFIG = 8


# kafkacodec Admin's source names -> ConfigSource values; the rest (a broker logger's, unknown) -> 0
_SOURCE_VALUES = {"dynamic_topic": 1, "dynamic_broker": 2, "dynamic_default_broker": 3, "static_broker": 4,
                  "default": 5}


class ConfigEntry:
    """A config described by describe_configs(), or one to change with incremental_alter_configs()
    (its ``incremental_operation`` an AlterConfigOpType).  Described entries carry ``source`` as the
    ConfigSource value (an int), as librdkafka's do."""

    def __init__(self, name: str, value: str | None, source: ConfigSource | int = ConfigSource.UNKNOWN_CONFIG,
                 is_read_only: bool = False, is_default: bool = False, is_sensitive: bool = False,
                 is_synonym: bool = False, synonyms: dict[str, ConfigEntry] | None = None,
                 incremental_operation: AlterConfigOpType | None = None) -> None:
        self.name = name
        self.value = value
        self.source = source
        self.is_read_only = bool(is_read_only)
        self.is_default = bool(is_default)
        self.is_sensitive = bool(is_sensitive)
        self.is_synonym = bool(is_synonym)
        self.synonyms: dict[str, ConfigEntry] = {} if synonyms is None else synonyms
        self.incremental_operation = incremental_operation

    def __repr__(self) -> str:
        return f'ConfigEntry({self.name}="{self.value}")'

    def __str__(self) -> str:
        return f'{self.name}="{self.value}"'


class ConfigResource:
    """A topic or broker (name: its node id) whose configs describe_configs() reads or
    incremental_alter_configs() changes (``incremental_configs``: [ConfigEntry]).
    Equal and hashed by (restype, name)."""

    Type: ClassVar[type[ResourceType]] = ResourceType

    def __init__(self, restype: ResourceType | str | int, name: str, set_config: dict[str, str] | None = None,
                 described_configs: dict[str, ConfigEntry] | None = None, error: KafkaError | None = None,
                 incremental_configs: list[ConfigEntry] | None = None) -> None:
        if name is None:
            raise ValueError("ConfigResource: name must be a string, got None")
        self.restype = _to_enum(restype, ResourceType, "ConfigResource restype")
        self.restype_int = int(self.restype.value)
        self.name = name
        self.set_config_dict: dict[str, str] = dict(set_config or {})
        self.incremental_configs: list[ConfigEntry] = list(incremental_configs or [])
        self.configs = described_configs
        self.error = error

    def __repr__(self) -> str:
        if self.error is not None:
            return f"ConfigResource({self.restype},{self.name},{self.error!r})"
        return f"ConfigResource({self.restype},{self.name})"

    def _key(self) -> tuple[ResourceType, str]:
        return (self.restype, self.name)

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfigResource):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, ConfigResource):
            return NotImplemented
        return (self.restype.value, self.name) < (other.restype.value, other.name)

    def __len__(self) -> int:
        return len(self.set_config_dict)

    def set_config(self, name: str, value: str, overwrite: bool = True) -> None:
        """A value for alter_configs() (kept, as confluent-kafka does; this face has no alter_configs)."""
        if overwrite or name not in self.set_config_dict:
            self.set_config_dict[name] = value

    def add_incremental_config(self, config_entry: ConfigEntry) -> None:
        self.incremental_configs.append(config_entry)


_GROUP_TYPES = {"classic": ConsumerGroupType.CLASSIC, "consumer": ConsumerGroupType.CONSUMER}


class ConsumerGroupListing:
    """A group as list_consumer_groups() lists it."""

    def __init__(self, group_id: str, is_simple_consumer_group: bool,
                 state: ConsumerGroupState | str | int | None = None,
                 type: ConsumerGroupType | str | int | None = None) -> None:
        self.group_id = group_id
        self.is_simple_consumer_group = is_simple_consumer_group
        self.state = None if state is None else _to_enum(state, ConsumerGroupState, "ConsumerGroupListing state")
        self.type = None if type is None else _to_enum(type, ConsumerGroupType, "ConsumerGroupListing type")


class ListConsumerGroupsResult:
    """What list_consumer_groups()'s future gives: valid listings, and errors (KafkaException)
    of brokers that answered with one."""

    def __init__(self, valid: list[ConsumerGroupListing] | None = None,
                 errors: list[KafkaException] | None = None) -> None:
        self.valid = valid
        self.errors = errors


class MemberAssignment:
    """The partitions a group member was given."""

    def __init__(self, topic_partitions: list[TopicPartition] | None) -> None:
        self.topic_partitions: list[TopicPartition] = topic_partitions or []


class MemberDescription:
    """A group member as describe_consumer_groups() describes it."""

    def __init__(self, member_id: str, client_id: str, host: str, assignment: MemberAssignment,
                 group_instance_id: str | None = None, target_assignment: MemberAssignment | None = None) -> None:
        self.member_id = member_id
        self.client_id = client_id
        self.host = host
        self.assignment = assignment
        self.target_assignment = target_assignment
        self.group_instance_id = group_instance_id


class ConsumerGroupDescription:
    """What describe_consumer_groups()'s futures give."""

    def __init__(self, group_id: str, is_simple_consumer_group: bool, members: list[MemberDescription],
                 partition_assignor: str, state: ConsumerGroupState | str | int | None, coordinator: Node,
                 authorized_operations: list[Any] | None = None,
                 type: ConsumerGroupType | str | int = ConsumerGroupType.UNKNOWN) -> None:
        self.group_id = group_id
        self.is_simple_consumer_group = is_simple_consumer_group
        self.members = members
        self.authorized_operations = authorized_operations or None
        self.partition_assignor = partition_assignor
        self.state = None if state is None else _to_enum(state, ConsumerGroupState, "ConsumerGroupDescription state")
        self.type = _to_enum(type, ConsumerGroupType, "ConsumerGroupDescription type")
        self.coordinator = coordinator


class TopicDescription:
    """What describe_topics()'s futures give."""

    def __init__(self, name: str, topic_id: Uuid, is_internal: bool, partitions: list[TopicPartitionInfo],
                 authorized_operations: list[Any] | None = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = partitions
        self.authorized_operations = authorized_operations or None


# Kafka's group state names (ListGroups v4+, DescribeGroups) -> librdkafka's states; others are UNKNOWN
_GROUP_STATES = {"preparingrebalance": ConsumerGroupState.PREPARING_REBALANCING,
                 "completingrebalance": ConsumerGroupState.COMPLETING_REBALANCING,
                 "stable": ConsumerGroupState.STABLE, "dead": ConsumerGroupState.DEAD,
                 "empty": ConsumerGroupState.EMPTY}


def _group_state(name: str | None) -> ConsumerGroupState:
    return _GROUP_STATES.get((name or "").lower(), ConsumerGroupState.UNKNOWN)


def _member_assignment(group_id: str, member_id: str, raw: bytes) -> MemberAssignment:
    """A consumer member's ConsumerProtocolAssignment bytes as a MemberAssignment."""
    if not raw:
        return MemberAssignment([])
    try:
        _, assignment = decode_versioned("ConsumerProtocolAssignment", raw)
    except KafkaCodecError as exc:
        raise KafkaException(KafkaError(CODES["_BAD_MSG"], f"group {group_id!r} member {member_id!r}: "
                                        f"assignment is not a ConsumerProtocolAssignment: {exc}")) from exc
    return MemberAssignment([TopicPartition(t.topic, p) for t in assignment.assigned_partitions or ()
                             for p in t.partitions or ()])


def _group_description(group: GroupDescription, coordinator: Node) -> ConsumerGroupDescription:
    """A kafkacodec DescribeGroups answer as confluent-kafka describes a classic group."""
    # only a consumer group's assignments are ConsumerProtocolAssignment (Connect's are not)
    consumer = group.protocol_type == "consumer"
    members = [MemberDescription(x.member_id, x.client_id, x.client_host,
                                 _member_assignment(group.group_id, x.member_id, x.assignment) if consumer
                                 else MemberAssignment([]), x.group_instance_id)
               for x in group.members]
    return ConsumerGroupDescription(group.group_id, group.protocol_type == "", members, group.protocol,
                                    _group_state(group.state), coordinator, type=ConsumerGroupType.CLASSIC)


def _refused(what: str) -> KafkaException:
    return KafkaException(KafkaError(CODES["_INVALID_ARG"], what))


def _failed_futures(keys: Iterable[_T], exc: KafkaException) -> dict[_T, concurrent.futures.Future[Any]]:
    """{key: future} all failed with `exc` (librdkafka fails the whole request)."""
    out: dict[_T, concurrent.futures.Future[Any]] = {}
    for key in keys:
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
        fut.set_exception(exc)
        out[key] = fut
    return out


def _first_duplicate(items: Iterable[_T]) -> _T | None:
    seen: set[_T] = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None


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

    def _budget(self, timeout: float | None) -> float:
        """Seconds a call may take: its own timeout, or kafkacodec's default.api.timeout.ms."""
        return float(self._a.conf["default.api.timeout.ms"]) / 1000 if timeout is None else timeout

    def _refuse_authorized_operations(self, call: str, include_authorized_operations: bool) -> None:
        if include_authorized_operations:
            raise _refused(f"{call}: include_authorized_operations is not supported by kafkacodec's Admin, "
                           "which does not ask brokers for ACL operations")

    def list_consumer_groups(self, *, request_timeout: float = -1, states: set[ConsumerGroupState] | None = None,
                             types: set[ConsumerGroupType] | None = None
                             ) -> concurrent.futures.Future[ListConsumerGroupsResult]:
        """Future of ListConsumerGroupsResult(valid=[ConsumerGroupListing], errors=[KafkaException]);
        ``states``: only groups in these states."""
        for arg, given, cls in (("states", states, ConsumerGroupState), ("types", types, ConsumerGroupType)):
            if given is None:
                continue
            if not isinstance(given, set):
                raise TypeError(f"list_consumer_groups: {arg} must be a set, got {type(given).__name__}")
            for item in given:
                if not isinstance(item, cls):
                    raise TypeError(f"list_consumer_groups: {arg} holds {item!r}, not a {cls.__name__}")
        wanted = frozenset(states or ())
        wanted_types = frozenset(types or ())
        timeout = _seconds(request_timeout)

        def list_groups() -> ListConsumerGroupsResult:
            # librdkafka puts a broker's error in the result's errors, beside the groups the
            # other brokers listed, not on the future
            listed: dict[str, GroupListing] = {}
            errors = []
            for _node, got in sorted(self._a.list_consumer_groups_by_broker(timeout=timeout).items()):
                if isinstance(got, BaseException):
                    errors.append(exception_from(got))
                    continue
                for g in got:
                    listed[g.group_id] = g
            valid = []
            for g in sorted(listed.values()):
                state = _group_state(g.state)
                # no type before ListGroups v5: UNKNOWN, as librdkafka's
                group_type = _GROUP_TYPES.get((g.group_type or "").lower(), ConsumerGroupType.UNKNOWN)
                if (wanted and state not in wanted) or (wanted_types and group_type not in wanted_types):
                    continue
                valid.append(ConsumerGroupListing(g.group_id, g.protocol_type == "", state, group_type))
            return ListConsumerGroupsResult(valid, errors)
        return self._submit(list_groups)

    def _node(self, node_id: int) -> Node:
        """The broker `node_id` as the client's metadata knows it (a coordinator found by
        FindCoordinator is added to it even before a refresh lists it)."""
        b = self._a.client.metadata.brokers.get(node_id)
        if b is None:  # gone from the cluster since it answered
            raise E.error_for(E.ErrorCode.COORDINATOR_NOT_AVAILABLE, f"broker {node_id} is no longer in the cluster")
        return Node(b.node_id, b.host, b.port, b.rack)

    def describe_consumer_groups(self, group_ids: list[str], *, request_timeout: float = -1,
                                 include_authorized_operations: bool = False
                                 ) -> dict[str, concurrent.futures.Future[ConsumerGroupDescription]]:
        """{group id: future of ConsumerGroupDescription}; a group no broker knows is described
        as Kafka answers it (state DEAD, no members)."""
        if not isinstance(group_ids, list):
            raise TypeError(f"describe_consumer_groups: group_ids must be a list, got {type(group_ids).__name__}")
        if not group_ids:
            raise ValueError("describe_consumer_groups: group_ids is empty; give at least one group id")
        for i, g in enumerate(group_ids):
            if not isinstance(g, str):
                raise TypeError(f"describe_consumer_groups: group_ids[{i}] is a {type(g).__name__}, not a str")
        self._refuse_authorized_operations("describe_consumer_groups", include_authorized_operations)
        twice = _first_duplicate(group_ids)
        if twice is not None:
            return _failed_futures(group_ids, _refused(f"describe_consumer_groups: group {twice!r} is given twice"))
        timeout = _seconds(request_timeout)

        def describe(group_id: str) -> ConsumerGroupDescription:
            described = self._a.describe_consumer_groups([group_id], timeout=self._budget(timeout))[group_id]
            assert described.coordinator is not None  # the Admin names the broker that answered
            return _group_description(described, self._node(described.coordinator))
        return {g: self._submit(describe, g) for g in group_ids}

    @staticmethod
    def _admin_resource(resource: ConfigResource) -> tuple[str, str]:
        """(resource type, name) as kafkacodec's Admin takes them; its refusal of other types
        comes through the future."""
        if resource.restype is ResourceType.BROKER and not resource.name.isdigit():
            raise _refused(f"{resource!r}: a broker's resource name is its node id, not {resource.name!r}")
        return resource.restype.name.lower(), resource.name

    @staticmethod
    def _resources(resources: Iterable[ConfigResource], call: str) -> list[ConfigResource]:
        out = list(resources)
        for i, r in enumerate(out):
            if not isinstance(r, ConfigResource):
                raise TypeError(f"{call}: resources[{i}] is a {type(r).__name__}, not a ConfigResource")
        return out

    def describe_configs(self, resources: list[ConfigResource], *, request_timeout: float = -1
                         ) -> dict[ConfigResource, concurrent.futures.Future[dict[str, ConfigEntry]]]:
        """{ConfigResource: future of {name: ConfigEntry}} for topic and broker resources."""
        timeout = _seconds(request_timeout)

        def describe(resource: ConfigResource) -> dict[str, ConfigEntry]:
            kind, name = self._admin_resource(resource)
            got = self._a.describe_configs([(kind, name)], timeout=timeout)
            if len(got) != 1:
                raise KafkaException(KafkaError(CODES["_BAD_MSG"], f"DescribeConfigs of {resource!r}: the "
                                                f"broker answered for {len(got)} resources, not one"))
            entries = next(iter(got.values()))
            # DescribeConfigs v1+ has no is_default field: the source says it, as librdkafka reads it
            return {e.name: ConfigEntry(e.name, e.value, _SOURCE_VALUES.get(e.source, 0), e.read_only,
                                        e.is_default or e.source == "default", e.is_sensitive)
                    for e in entries.values()}
        return {r: self._submit(describe, r) for r in self._resources(resources, "describe_configs")}

    def incremental_alter_configs(self, resources: list[ConfigResource], *, request_timeout: float = -1,
                                  validate_only: bool = False, broker: int | None = None
                                  ) -> dict[ConfigResource, concurrent.futures.Future[None]]:
        """{ConfigResource: future of None} for resources with ``incremental_configs``.
        ``broker`` (where confluent-kafka sends topic changes) is not needed: any broker takes them."""
        given = self._resources(resources, "incremental_alter_configs")
        for r in given:
            if r.set_config_dict:
                raise _refused(f"incremental_alter_configs: {r!r} has set_config values "
                               f"{sorted(r.set_config_dict)}; give them as incremental_configs")
            for i, entry in enumerate(r.incremental_configs):
                if not isinstance(entry, ConfigEntry):
                    raise TypeError(f"incremental_alter_configs: {r!r} incremental_configs[{i}] is a "
                                    f"{type(entry).__name__}, not a ConfigEntry")
                if not isinstance(entry.incremental_operation, AlterConfigOpType):
                    raise TypeError(f"incremental_alter_configs: {r!r} config {entry.name!r} has no "
                                    f"incremental_operation (an AlterConfigOpType)")
        twice = _first_duplicate(given)
        if twice is not None:
            return _failed_futures(given, _refused(f"incremental_alter_configs: {twice!r} is given twice"))
        for r in given:
            name_twice = _first_duplicate(e.name for e in r.incremental_configs)
            if name_twice is not None:
                return _failed_futures(given, _refused(f"incremental_alter_configs: {r!r} changes config "
                                                       f"{name_twice!r} twice"))
        timeout = _seconds(request_timeout)

        def alter(resource: ConfigResource) -> None:
            changes = {e.name: (e.incremental_operation.name.lower() if e.incremental_operation else "set", e.value)
                       for e in resource.incremental_configs}
            self._a.incremental_alter_configs({self._admin_resource(resource): changes},
                                              validate_only=validate_only, timeout=timeout)
        return {r: self._submit(alter, r) for r in given}

    def describe_topics(self, topics: TopicCollection, *, request_timeout: float = -1,
                        include_authorized_operations: bool = False
                        ) -> dict[str, concurrent.futures.Future[TopicDescription]]:
        """{topic: future of TopicDescription} (UNKNOWN_TOPIC_OR_PART for a topic that does not exist)."""
        if not isinstance(topics, TopicCollection):
            raise TypeError(f"describe_topics: expected a TopicCollection, got {type(topics).__name__}")
        names = topics.topic_names
        if not isinstance(names, list):
            raise TypeError(f"describe_topics: TopicCollection.topic_names must be a list, got {type(names).__name__}")
        for i, name in enumerate(names):
            if not isinstance(name, str) or not name:
                raise ValueError(f"describe_topics: topic_names[{i}] is {name!r}, not a topic name")
        self._refuse_authorized_operations("describe_topics", include_authorized_operations)
        twice = _first_duplicate(names)
        if twice is not None:
            return _failed_futures(names, _refused(f"describe_topics: topic {twice!r} is given twice"))
        timeout = _seconds(request_timeout)

        def describe(name: str) -> TopicDescription:
            d = self._a.describe_topics([name], timeout=timeout)[name]
            brokers = self._a.client.metadata.brokers

            def node(node_id: int) -> Node:
                b = brokers.get(node_id)
                # a replica the metadata lists no broker for is known by its id only
                return Node(node_id, "", -1) if b is None else Node(node_id, b.host, b.port, b.rack)
            partitions = [TopicPartitionInfo(p.partition, node(p.leader) if p.leader >= 0 else None,
                                             [node(r) for r in p.replicas], [node(r) for r in p.isr])
                          for p in d.partitions]
            topic_id = Uuid(0, 0) if d.topic_id is None else Uuid._of(d.topic_id)
            return TopicDescription(d.name, topic_id, d.is_internal, partitions)
        return {name: self._submit(describe, name) for name in names}

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
