"""confluent_kafka.admin's AdminClient over kafkacodec's Admin: each call returns futures
(``concurrent.futures.Future``) that a small thread pool resolves, as librdkafka's
background thread does.  Every call of confluent-kafka 2.16's AdminClient is here: topics
(create, delete, list, describe, partitions, records), offsets (list_offsets with
OffsetSpec.earliest/latest/max_timestamp/for_timestamp), consumer groups (list, describe,
delete, their offsets; the deprecated list_groups), configs (describe, incremental_alter,
the deprecated alter), ACLs (create, describe, delete), SASL/SCRAM credentials (describe,
alter), elect_leaders, describe_cluster; ``with AdminClient(...) as a:`` closes it.

The face translates; kafkacodec's Admin does the work, sending the requests librdkafka
sends, so a broker answers both the same way.  Where a broker lacks an API the call fails
at once with _UNSUPPORTED_FEATURE, as in librdkafka (the text is kafkacodec's); librdkafka
first waits for a controller where the broker names none (the mock cluster), the face does
not.  Groups are described with ConsumerGroupDescribe first and DescribeGroups where the
coordinator lacks it or says the group is not a consumer group, as librdkafka does: a broker
that answers ConsumerGroupDescribe for any group (Tansu) has every group described as type
CONSUMER.  list_consumer_groups() passes states and types to the brokers as filters, which
they apply.  What confluent-kafka answers when a broker misbehaves is kept: list_offsets()
gives OFFSET_INVALID for a partition whose request the broker dropped the connection on,
and describe_user_scram_credentials([users]) fails every future with RuntimeError when the
answer leaves users out.  Where librdkafka aborts the process (Tansu's CreateAcls answer
without results) the futures fail with _BAD_MSG.  Configs are described without synonyms;
create_topics(validate_only=True) and ``replica_assignment`` are refused (_INVALID_ARG).
"""
from __future__ import annotations

import concurrent.futures
import enum
import threading
import warnings
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, TypeVar

from kafkacodec.client import Admin as _Admin
from kafkacodec.client import admin as _client_admin
from kafkacodec.client import errors as E
from kafkacodec.client.admin import GroupDescription, GroupListing
from kafkacodec.compat.confluent_kafka import _config, _metadata
from kafkacodec.compat.confluent_kafka._closing import ClosedOnExit
from kafkacodec.compat.confluent_kafka._errors import CODES, KafkaError, KafkaException, exception_from, make_client
from kafkacodec.compat.confluent_kafka._producer import _seconds
from kafkacodec.compat.confluent_kafka._types import (OFFSET_INVALID, BrokerMetadata, ClusterMetadata,
                                                      ConsumerGroupState, ConsumerGroupType, ElectionType, KeyedValue,
                                                      Node, PartitionMetadata, TopicCollection, TopicMetadata,
                                                      TopicPartition, TopicPartitionInfo, Uuid)
from kafkacodec.compat.confluent_kafka.admin._acl import (AclBinding, AclBindingFilter, AclOperation,
                                                          AclPermissionType)
from kafkacodec.compat.confluent_kafka.admin._resource import (RESOURCE_ANY, RESOURCE_BROKER, RESOURCE_GROUP,
                                                               RESOURCE_TOPIC, RESOURCE_TRANSACTIONAL_ID,
                                                               RESOURCE_UNKNOWN, ResourcePatternType, ResourceType)
from kafkacodec.compat.confluent_kafka.admin._scram import (ScramCredentialInfo, ScramMechanism,
                                                            UserScramCredentialAlteration,
                                                            UserScramCredentialDeletion,
                                                            UserScramCredentialsDescription,
                                                            UserScramCredentialUpsertion)

_T = TypeVar("_T")
_E = TypeVar("_E", bound=enum.Enum)

__all__ = ["AdminClient", "NewTopic", "NewPartitions", "DeletedRecords", "ConsumerGroupTopicPartitions", "OffsetSpec",
           "ListOffsetsResultInfo", "DescribeClusterResult", "Node", "ClusterMetadata", "BrokerMetadata",
           "TopicMetadata", "PartitionMetadata", "GroupMetadata", "GroupMember", "KafkaError", "KafkaException",
           "IsolationLevel", "OFFSET_INVALID", "ResourceType", "ResourcePatternType", "ConfigResource", "ConfigEntry",
           "ConfigSource", "AlterConfigOpType", "ConsumerGroupListing", "ListConsumerGroupsResult",
           "ConsumerGroupDescription", "MemberDescription", "MemberAssignment", "ConsumerGroupState",
           "ConsumerGroupType", "TopicCollection", "TopicDescription", "TopicPartitionInfo", "Uuid",
           "AclBinding", "AclBindingFilter", "AclOperation", "AclPermissionType", "ScramMechanism",
           "ScramCredentialInfo", "UserScramCredentialsDescription", "UserScramCredentialAlteration",
           "UserScramCredentialUpsertion", "UserScramCredentialDeletion", "ElectionType",
           "RESOURCE_UNKNOWN", "RESOURCE_ANY", "RESOURCE_TOPIC", "RESOURCE_GROUP", "RESOURCE_BROKER",
           "RESOURCE_TRANSACTIONAL_ID", "CONFIG_SOURCE_UNKNOWN_CONFIG", "CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG",
           "CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG", "CONFIG_SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG",
           "CONFIG_SOURCE_STATIC_BROKER_CONFIG", "CONFIG_SOURCE_DEFAULT_CONFIG", "CONFIG_SOURCE_GROUP_CONFIG",
           "string_type"]

string_type = str  # confluent-kafka's name for the type its argument checks take as a string

(CONFIG_SOURCE_UNKNOWN_CONFIG, CONFIG_SOURCE_DYNAMIC_TOPIC_CONFIG, CONFIG_SOURCE_DYNAMIC_BROKER_CONFIG,
 CONFIG_SOURCE_DYNAMIC_DEFAULT_BROKER_CONFIG, CONFIG_SOURCE_STATIC_BROKER_CONFIG,
 CONFIG_SOURCE_DEFAULT_CONFIG) = range(6)
CONFIG_SOURCE_GROUP_CONFIG = 8


class NewTopic(KeyedValue):
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

    def _key(self) -> tuple[str]:
        return (self.topic,)


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
    """What list_offsets() looks up: OffsetSpec.earliest(), latest(), max_timestamp() (the
    record with the largest timestamp) or for_timestamp(ms).  OffsetSpec(-2 | -1 | -3 | ms)
    gives the same (as in confluent-kafka, the specs are its subclasses)."""

    _values: ClassVar[dict[int, OffsetSpec]] = {}

    @property
    def _value(self) -> int:
        raise NotImplementedError

    def __new__(cls, index: int) -> OffsetSpec:  # the subclass a value names
        if index < 0:
            return cls._values[index]
        return TimestampSpec(index)

    @classmethod
    def earliest(cls) -> OffsetSpec:
        return cls._values[_client_admin.EARLIEST]

    @classmethod
    def latest(cls) -> OffsetSpec:
        return cls._values[_client_admin.LATEST]

    @classmethod
    def max_timestamp(cls) -> OffsetSpec:
        return cls._values[_client_admin.MAX_TIMESTAMP]

    @classmethod
    def for_timestamp(cls, timestamp: int) -> OffsetSpec:
        return TimestampSpec(timestamp)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, OffsetSpec):
            return NotImplemented
        return self._value < other._value

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._value})"


class TimestampSpec(OffsetSpec):
    """The first offset whose timestamp is at or after `timestamp` (ms)."""

    def __new__(cls, timestamp: int) -> TimestampSpec:
        return object.__new__(cls)

    def __init__(self, timestamp: int) -> None:
        self.timestamp = timestamp

    @property
    def _value(self) -> int:
        return self.timestamp


class _FixedSpec(OffsetSpec):
    _fixed = 0

    def __new__(cls) -> _FixedSpec:
        return object.__new__(cls)

    @property
    def _value(self) -> int:
        return self._fixed


class EarliestSpec(_FixedSpec):
    _fixed = _client_admin.EARLIEST


class LatestSpec(_FixedSpec):
    _fixed = _client_admin.LATEST


class MaxTimestampSpec(_FixedSpec):
    _fixed = _client_admin.MAX_TIMESTAMP


OffsetSpec._values.update({spec._value: spec for spec in (EarliestSpec(), LatestSpec(), MaxTimestampSpec())})


class ListOffsetsResultInfo:
    """A partition's list_offsets() answer: offset, timestamp (-1: none), leader_epoch (None: none)."""

    def __init__(self, offset: int, timestamp: int, leader_epoch: int | None) -> None:
        self.offset, self.timestamp = offset, timestamp
        self.leader_epoch = None if leader_epoch is None or leader_epoch < 0 else leader_epoch

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


class ConfigResource(KeyedValue):
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
# the filters' names, as librdkafka sends them in ListGroups
_TYPE_NAMES = {ConsumerGroupType.UNKNOWN: "Unknown", ConsumerGroupType.CONSUMER: "Consumer",
               ConsumerGroupType.CLASSIC: "Classic"}
_STATE_NAMES = {ConsumerGroupState.UNKNOWN: "Unknown", ConsumerGroupState.PREPARING_REBALANCING: "PreparingRebalance",
                ConsumerGroupState.COMPLETING_REBALANCING: "CompletingRebalance",
                ConsumerGroupState.STABLE: "Stable", ConsumerGroupState.DEAD: "Dead",
                ConsumerGroupState.EMPTY: "Empty"}


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
        self.authorized_operations = authorized_operations  # None: not asked, or the broker did not say
        self.partition_assignor = partition_assignor
        self.state = None if state is None else _to_enum(state, ConsumerGroupState, "ConsumerGroupDescription state")
        self.type = _to_enum(type, ConsumerGroupType, "ConsumerGroupDescription type")
        self.coordinator = coordinator


class GroupMember:
    """A group member as the deprecated list_groups() describes it."""

    def __init__(self, id: str | None = None, client_id: str | None = None, client_host: str | None = None,
                 metadata: bytes | None = None, assignment: bytes | None = None) -> None:
        self.id = id
        self.client_id = client_id
        self.client_host = client_host
        self.metadata = metadata
        self.assignment = assignment


class GroupMetadata:
    """A group as the deprecated list_groups() gives it: ``state`` and ``protocol`` as the
    broker names them, ``broker`` the BrokerMetadata of its coordinator."""

    def __init__(self) -> None:
        self.broker: BrokerMetadata | None = None
        self.id: str | None = None
        self.error: KafkaError | None = None
        self.state: str | None = None
        self.protocol_type: str | None = None
        self.protocol: str | None = None
        self.members: list[GroupMember] = []

    def __repr__(self) -> str:
        if self.error is not None:
            return f"GroupMetadata({self.id}, {self.error})"
        return f"GroupMetadata({self.id})"

    def __str__(self) -> str:
        return str(self.id)


class TopicDescription:
    """What describe_topics()'s futures give."""

    def __init__(self, name: str, topic_id: Uuid, is_internal: bool, partitions: list[TopicPartitionInfo],
                 authorized_operations: list[Any] | None = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = partitions
        self.authorized_operations = authorized_operations  # None: not asked, or the broker did not say


# Kafka's group state names (ListGroups v4+, DescribeGroups) -> librdkafka's states; others are UNKNOWN
_GROUP_STATES = {"preparingrebalance": ConsumerGroupState.PREPARING_REBALANCING,
                 "completingrebalance": ConsumerGroupState.COMPLETING_REBALANCING,
                 "stable": ConsumerGroupState.STABLE, "dead": ConsumerGroupState.DEAD,
                 "empty": ConsumerGroupState.EMPTY}


def _group_state(name: str | None) -> ConsumerGroupState:
    return _GROUP_STATES.get((name or "").lower(), ConsumerGroupState.UNKNOWN)


def _partitions(tps: list[_client_admin.TopicPartition]) -> list[TopicPartition]:
    return [TopicPartition(tp.topic, tp.partition) for tp in tps]


def _acl_operations(ops: list[_client_admin.AclOperation] | None) -> list[AclOperation] | None:
    """The client's operations as confluent-kafka's (those past IDEMPOTENT_WRITE it has no name for are left out)."""
    if ops is None:
        return None
    known = {op.value for op in AclOperation}
    return [AclOperation(int(op)) for op in ops if int(op) in known]


def _group_description(group: GroupDescription, coordinator: Node) -> ConsumerGroupDescription:
    """A kafkacodec group description as confluent-kafka gives it."""
    operations = _acl_operations(group.authorized_operations)
    if group.group_type == "Consumer":  # ConsumerGroupDescribe answered (KIP-848)
        members = [MemberDescription(x.member_id, x.client_id, x.client_host,
                                     MemberAssignment(_partitions(x.assigned or [])), x.group_instance_id,
                                     MemberAssignment(_partitions(x.target or [])))
                   for x in group.members]
        return ConsumerGroupDescription(group.group_id, False, members, group.protocol, _group_state(group.state),
                                        coordinator, operations, type=ConsumerGroupType.CONSUMER)
    # a classic consumer group's members come with their decoded partitions (Connect's do not)
    members = [MemberDescription(x.member_id, x.client_id, x.client_host,
                                 MemberAssignment(_partitions(x.assigned or [])), x.group_instance_id)
               for x in group.members]
    return ConsumerGroupDescription(group.group_id, group.protocol_type == "", members, group.protocol,
                                    _group_state(group.state), coordinator, operations,
                                    type=ConsumerGroupType.CLASSIC)


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


def _unsupported(exc: E.UnsupportedVersionError) -> KafkaException:
    """What librdkafka raises where a broker offers no version of the API a call needs (kafkacodec's
    connection fails such a request with UnsupportedVersionError before sending it)."""
    return KafkaException(KafkaError(CODES["_UNSUPPORTED_FEATURE"], str(exc)))


class AdminClient(ClosedOnExit):
    """confluent-kafka's AdminClient: calls return futures, or {name: future} per topic."""

    def __init__(self, *args: dict[str, Any], **kwargs: Any) -> None:
        config = dict(args[0]) if args else {}
        config.update(kwargs)
        conf, face = _config.translate(config, "A")
        self._conf = conf
        self._face = face
        self._a = make_client(_Admin, conf)
        self._pool = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="kafkacodec-adminclient")
        self._closed = False
        self._closing = threading.Event()
        self._error_reported = False
        self._lock = threading.Lock()
        self._pending = 0

    def _submit(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> concurrent.futures.Future[_T]:
        def run() -> _T:
            try:
                return fn(*args, **kwargs)
            except E.UnsupportedVersionError as exc:
                raise _unsupported(exc) from exc
            except E.KafkaError as exc:
                raise exception_from(exc) from exc
            finally:
                with self._lock:
                    self._pending -= 1
        with self._lock:
            self._pending += 1
        return self._pool.submit(run)

    def __len__(self) -> int:
        """Requests not answered yet (librdkafka's queue length)."""
        with self._lock:
            return self._pending

    def poll(self, timeout: float | None = -1) -> int:
        """Serve error_cb once if the client failed (the only callback an AdminClient has); else
        wait up to `timeout` seconds (None or -1: until closed), as librdkafka does with no event."""
        failed = self._a.client.failure
        error_cb = self._face.get("error_cb")
        if failed is not None and error_cb is not None and not self._error_reported:
            self._error_reported = True
            error_cb(exception_from(failed).args[0])
            return 1
        self._closing.wait(_seconds(timeout))
        return 0

    def cluster_id(self, timeout: float = -1) -> str | None:
        return self.list_topics(None, timeout).cluster_id

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """SASL PLAIN/SCRAM credentials for the connections made from now on (open ones stay)."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise TypeError("username and password must be strings")
        self._a.set_sasl_credentials(username, password)

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
            out[t.topic] = self._submit(self._create_topic, t, timeout)
        return out

    def _create_topic(self, topic: NewTopic, timeout: float | None) -> None:
        try:
            # with the broker's default partition count there is no count to wait for
            self._a.create_topics({topic.topic: topic.num_partitions}, replication_factor=topic.replication_factor,
                                  configs=topic.config or None, timeout=timeout, wait=topic.num_partitions > 0)
        except E.BrokerResponseError as exc:
            # librdkafka's error string is the broker's error_message (the code's text when there is
            # none), which kafkacodec's message holds after "create topic <name>"
            said = (exc.message or "").removeprefix(f"create topic {topic.topic}").removeprefix(": ")
            raise KafkaException(KafkaError(exc.code or CODES["_FAIL"], said or None,
                                            retriable=exc.retriable)) from exc

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
        """Future of DescribeClusterResult(controller, nodes, cluster_id, authorized_operations)."""
        def describe() -> DescribeClusterResult:
            d = self._a.describe_cluster(timeout=_seconds(request_timeout),
                                         include_authorized_operations=include_authorized_operations)
            nodes = [Node(b.node_id, b.host, b.port, b.rack) for b in d.brokers]
            controller = next((n for n in nodes if n.id == d.controller_id), None)
            return DescribeClusterResult(controller, nodes, d.cluster_id,
                                         _acl_operations(d.authorized_operations))
        return self._submit(describe)

    def list_offsets(self, topic_partition_offsets: dict[TopicPartition, OffsetSpec],
                     isolation_level: IsolationLevel | None = None, request_timeout: float = -1
                     ) -> dict[TopicPartition, concurrent.futures.Future[ListOffsetsResultInfo]]:
        """{TopicPartition: future of ListOffsetsResultInfo} for {TopicPartition: OffsetSpec}.
        As in librdkafka, a partition whose request the broker dropped the connection on comes
        back as offset OFFSET_INVALID, timestamp -1, not as an error (Tansu does so for
        max_timestamp()); an error the broker answers for the partition raises."""
        if not isinstance(topic_partition_offsets, dict):
            raise TypeError("Expected topic_partition_offsets to be dict of [TopicPartitions,OffsetSpec] "
                            "for list offsets request")
        for tp, spec in topic_partition_offsets.items():
            if not isinstance(tp, TopicPartition):
                raise TypeError("partition must be a TopicPartition")
            if not isinstance(tp.topic, str) or not tp.topic:
                raise ValueError("partition topic name cannot be empty")
            if tp.partition < 0:
                raise ValueError("partition index must be non-negative")
            if not isinstance(spec, OffsetSpec):
                raise TypeError("Value must be a OffsetSpec")
        if isolation_level is not None and not isinstance(isolation_level, IsolationLevel):
            raise TypeError("isolation_level argument should be an IsolationLevel")
        level = "read_committed" if isolation_level == IsolationLevel.READ_COMMITTED else "read_uncommitted"
        specs = {(tp.topic, tp.partition): spec._value for tp, spec in topic_partition_offsets.items()}
        whole = self._submit(self._a.list_offsets, specs, isolation_level=level,
                             timeout=_seconds(request_timeout))
        out: dict[TopicPartition, concurrent.futures.Future[ListOffsetsResultInfo]] = {}
        for tp, spec in topic_partition_offsets.items():
            fut: concurrent.futures.Future[ListOffsetsResultInfo] = concurrent.futures.Future()
            # keyed as confluent-kafka keys them: the offset is the spec's value
            out[TopicPartition(tp.topic, tp.partition, spec._value)] = fut

        # one ListOffsets round for all partitions; each partition's future takes its part of the answer
        def split(done: concurrent.futures.Future[Any]) -> None:
            exc = done.exception()
            unanswered = isinstance(exc, KafkaException) and exc.args[0].code() == CODES["_TRANSPORT"]
            for tp, fut in out.items():
                if unanswered:
                    fut.set_result(ListOffsetsResultInfo(OFFSET_INVALID, -1, None))
                elif exc is not None:
                    fut.set_exception(exc)
                else:
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
        if not isinstance(topic_partition_offsets, list):
            raise TypeError(f"Expected Request to be a list, got '{type(topic_partition_offsets).__name__}' ")
        for tp in topic_partition_offsets:
            if not isinstance(tp, TopicPartition):
                raise TypeError(f"Element of the request list must be of type 'TopicPartition' got "
                                f"'{type(tp).__name__}' ")
            if tp.partition < 0:
                raise ValueError("'partition' cannot be negative")
        timeout = self._timeout(request_timeout, operation_timeout)

        def delete(tp: TopicPartition) -> DeletedRecords:
            got = self._a.delete_records({(tp.topic, tp.partition): tp.offset}, timeout=timeout)
            return DeletedRecords(got[(tp.topic, tp.partition)])  # type: ignore[index]  # a TopicPartition equals its pair
        # keyed by the partitions as given (offsets and all), as confluent-kafka's futures are
        return {tp: self._submit(delete, tp) for tp in topic_partition_offsets}

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
            codes = self._a.alter_consumer_group_offsets(
                req.group_id, {(tp.topic, tp.partition): tp.offset for tp in parts}, timeout=timeout,
                per_partition=True) or {}
            out = []
            for tp in parts:
                # a partition the broker refused carries its error, as librdkafka reports it
                altered = TopicPartition(tp.topic, tp.partition, tp.offset)
                code = codes.get(_client_admin.TopicPartition(tp.topic, tp.partition), 0)
                altered.error = KafkaError(code) if code else None
                out.append(altered)
            return ConsumerGroupTopicPartitions(req.group_id, out)
        return {req.group_id: self._submit(alter, req) for req in requests}

    def delete_consumer_groups(self, group_ids: Iterable[str],
                               request_timeout: float = -1) -> dict[str, concurrent.futures.Future[None]]:
        """{group id: future of None}."""
        timeout = _seconds(request_timeout)
        return {g: self._submit(self._a.delete_consumer_groups, [g], timeout=timeout) for g in group_ids}

    def _budget(self, timeout: float | None) -> float:
        """Seconds a call may take: its own timeout, or kafkacodec's default.api.timeout.ms."""
        return float(self._a.conf["default.api.timeout.ms"]) / 1000 if timeout is None else timeout

    def list_consumer_groups(self, *, request_timeout: float = -1, states: set[ConsumerGroupState] | None = None,
                             types: set[ConsumerGroupType] | None = None
                             ) -> concurrent.futures.Future[ListConsumerGroupsResult]:
        """Future of ListConsumerGroupsResult(valid=[ConsumerGroupListing], errors=[KafkaException]).
        ``states`` and ``types`` go to the brokers as filters (ListGroups v4, v5), as librdkafka
        sends them: a broker that ignores them lists every group.  A share group (KIP-932), which
        confluent-kafka 2.16 has no type or admin call for, is listed with type UNKNOWN;
        kafkacodec.client.Admin lists and describes share groups and their offsets
        (list_share_groups, describe_share_groups, list_share_group_offsets, ...)."""
        for arg, given, cls in (("states", states, ConsumerGroupState), ("types", types, ConsumerGroupType)):
            if given is None:
                continue
            if not isinstance(given, set):
                raise TypeError(f"'{arg}' must be a set")
            for item in given:
                if not isinstance(item, cls):
                    raise TypeError(f"All elements of {arg} must be of type {cls.__name__}")
        state_names = sorted(_STATE_NAMES[s] for s in states or ())
        type_names = sorted(_TYPE_NAMES[t] for t in types or ())
        timeout = _seconds(request_timeout)

        def list_groups() -> ListConsumerGroupsResult:
            # librdkafka puts a broker's error in the result's errors, beside the groups the
            # other brokers listed, not on the future
            listed: dict[str, GroupListing] = {}
            errors = []
            by_broker = self._a.list_consumer_groups_by_broker(timeout=timeout, states=state_names, types=type_names)
            for _node, got in sorted(by_broker.items()):
                if isinstance(got, E.UnsupportedVersionError):
                    errors.append(_unsupported(got))
                elif isinstance(got, BaseException):
                    errors.append(exception_from(got))
                else:
                    for g in got:
                        listed[g.group_id] = g
            valid = []
            for g in sorted(listed.values()):
                # no type before ListGroups v5: UNKNOWN, as librdkafka's
                group_type = _GROUP_TYPES.get((g.group_type or "").lower(), ConsumerGroupType.UNKNOWN)
                valid.append(ConsumerGroupListing(g.group_id, g.protocol_type == "", _group_state(g.state), group_type))
            return ListConsumerGroupsResult(valid, errors)
        return self._submit(list_groups)

    def list_groups(self, group: str | None = None, timeout: float = -1) -> list[GroupMetadata]:
        """[GroupMetadata] of the groups the brokers list (only `group`, when given), each as
        its coordinator describes it with DescribeGroups.  Deprecated in confluent-kafka for
        list_consumer_groups() and describe_consumer_groups()."""
        warnings.warn("list_groups() is deprecated, use list_consumer_groups() and describe_consumer_groups() "
                      "instead.", category=DeprecationWarning, stacklevel=2)
        if group is not None and not isinstance(group, str):
            raise TypeError(f"list_groups: group must be a str, got {type(group).__name__}")
        wait = _seconds(timeout)
        try:
            by_broker = self._a.list_consumer_groups_by_broker(timeout=wait)
            failed = next((got for got in by_broker.values() if isinstance(got, BaseException)), None)
            if failed is not None:
                raise failed
            names = sorted({g.group_id for got in by_broker.values() if not isinstance(got, BaseException)
                            for g in got if group is None or g.group_id == group})
            described = self._a.describe_consumer_groups(names, timeout=self._budget(wait), classic=True)
        except E.UnsupportedVersionError as exc:
            raise KafkaException(KafkaError(CODES["_UNSUPPORTED_FEATURE"], f"Failed to list groups: {exc}")) from exc
        except E.KafkaError as exc:
            raise exception_from(exc) from exc
        brokers = self._a.client.metadata.brokers
        out = []
        for name in names:
            d = described[name]
            md = GroupMetadata()
            b = brokers.get(d.coordinator) if d.coordinator is not None else None
            md.broker = None if b is None else BrokerMetadata(b.node_id, b.host, b.port)
            md.id, md.state, md.protocol_type, md.protocol = d.group_id, d.state, d.protocol_type, d.protocol
            md.members = [GroupMember(x.member_id, x.client_id, x.client_host, x.metadata, x.assignment)
                          for x in d.members]
            out.append(md)
        return out

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
        twice = _first_duplicate(group_ids)
        if twice is not None:
            return _failed_futures(group_ids, _refused(f"describe_consumer_groups: group {twice!r} is given twice"))
        timeout = _seconds(request_timeout)

        def describe(group_id: str) -> ConsumerGroupDescription:
            described = self._a.describe_consumer_groups(
                [group_id], timeout=self._budget(timeout),
                include_authorized_operations=include_authorized_operations)[group_id]
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
        twice = _first_duplicate(names)
        if twice is not None:
            return _failed_futures(names, _refused(f"describe_topics: topic {twice!r} is given twice"))
        timeout = _seconds(request_timeout)

        def describe(name: str) -> TopicDescription:
            d = self._a.describe_topics([name], timeout=timeout,
                                        include_authorized_operations=include_authorized_operations)[name]
            brokers = self._a.client.metadata.brokers

            def node(node_id: int) -> Node:
                b = brokers.get(node_id)
                # a replica the metadata lists no broker for is known by its id only
                return Node(node_id, "", -1) if b is None else Node(node_id, b.host, b.port, b.rack)
            partitions = [TopicPartitionInfo(p.partition, node(p.leader) if p.leader >= 0 else None,
                                             [node(r) for r in p.replicas], [node(r) for r in p.isr])
                          for p in d.partitions]
            topic_id = Uuid(0, 0) if d.topic_id is None else Uuid._of(d.topic_id)
            return TopicDescription(d.name, topic_id, d.is_internal, partitions,
                                    _acl_operations(d.authorized_operations))
        return {name: self._submit(describe, name) for name in names}

    def alter_configs(self, resources: list[ConfigResource], *, request_timeout: float = -1,
                      validate_only: bool = False) -> dict[ConfigResource, concurrent.futures.Future[None]]:
        """{ConfigResource: future of None}: each resource's ``set_config`` values replace its
        whole dynamic config (what is not given goes back to its default).  Deprecated in
        confluent-kafka for incremental_alter_configs()."""
        warnings.warn("alter_configs has been deprecated. Use incremental_alter_configs instead.",
                      category=DeprecationWarning, stacklevel=2)
        given = self._resources(resources, "alter_configs")
        timeout = _seconds(request_timeout)

        def alter(resource: ConfigResource) -> None:
            self._a.alter_configs({self._admin_resource(resource): dict(resource.set_config_dict)},
                                  validate_only=validate_only, timeout=timeout)
        return {r: self._submit(alter, r) for r in given}

    # -- ACLs

    @staticmethod
    def _client_acl(b: AclBinding) -> _client_admin.AclBinding:
        A = _client_admin
        return A.AclBinding(A.AclResourceType(b.restype.value), b.name, A.AclPatternType(b.resource_pattern_type.value),
                            b.principal, b.host, A.AclOperation(b.operation.value),
                            A.AclPermissionType(b.permission_type.value))

    @staticmethod
    def _face_acl(b: _client_admin.AclBinding) -> AclBinding:
        known = {r.value for r in ResourceType}, {o.value for o in AclOperation}
        return AclBinding(ResourceType(int(b.resource_type)) if b.resource_type in known[0] else ResourceType.UNKNOWN,
                          b.name or "", ResourcePatternType(int(b.pattern_type)), b.principal or "", b.host or "",
                          AclOperation(int(b.operation)) if b.operation in known[1] else AclOperation.UNKNOWN,
                          AclPermissionType(int(b.permission_type)))

    @staticmethod
    def _acl_list(given: Any, cls: type, what: str) -> list[Any]:
        if not isinstance(given, list):
            raise TypeError(f"Expected list of {cls!r}")
        if len(set(given)) != len(given):
            raise ValueError(f"duplicate {what} not allowed")
        for b in given:
            if not isinstance(b, cls):
                raise ValueError(f"Expected list of {cls!r}")
        return given

    def create_acls(self, acls: list[AclBinding], *, request_timeout: float = -1
                    ) -> dict[AclBinding, concurrent.futures.Future[None]]:
        """{AclBinding: future of None} (one CreateAcls request)."""
        given = self._acl_list(acls, AclBinding, "ACL bindings")
        if any(isinstance(b, AclBindingFilter) for b in given):
            raise ValueError(f"Expected list of {AclBinding!r}")
        whole = self._submit(self._a.create_acls, [self._client_acl(b) for b in given],
                             timeout=_seconds(request_timeout))
        return self._per_item(given, whole, lambda err: None)

    def describe_acls(self, acl_binding_filter: AclBindingFilter, *, request_timeout: float = -1
                      ) -> concurrent.futures.Future[list[AclBinding]]:
        """Future of [AclBinding] the filter matches."""
        if not isinstance(acl_binding_filter, AclBindingFilter):
            raise TypeError("Expected an AclBindingFilter")
        flt = self._client_acl(acl_binding_filter)

        def describe() -> list[AclBinding]:
            return [self._face_acl(b) for b in self._a.describe_acls(flt, timeout=_seconds(request_timeout))]
        return self._submit(describe)

    def delete_acls(self, acl_binding_filters: list[AclBindingFilter], *, request_timeout: float = -1
                    ) -> dict[AclBindingFilter, concurrent.futures.Future[list[AclBinding]]]:
        """{AclBindingFilter: future of [AclBinding] it deleted} (one DeleteAcls request)."""
        given = self._acl_list(acl_binding_filters, AclBindingFilter, "ACL binding filters")
        whole = self._submit(self._a.delete_acls, [self._client_acl(b) for b in given],
                             timeout=_seconds(request_timeout))
        return self._per_item(given, whole, lambda deleted: [self._face_acl(b) for b in deleted])

    def _per_item(self, keys: list[Any], whole: concurrent.futures.Future[list[Any]],
                  convert: Callable[[Any], Any]) -> dict[Any, concurrent.futures.Future[Any]]:
        """{key: future} from one call answering a list in the keys' order, each item a result
        or the broker's error for that key; the call's own failure fails them all."""
        out: dict[Any, concurrent.futures.Future[Any]] = {k: concurrent.futures.Future() for k in keys}

        def split(done: concurrent.futures.Future[list[Any]]) -> None:
            exc = done.exception()
            for fut, item in zip(out.values(), [None] * len(out) if exc is not None else done.result()):
                if exc is not None:
                    fut.set_exception(exc)
                elif isinstance(item, E.KafkaError):
                    fut.set_exception(exception_from(item))
                else:
                    fut.set_result(convert(item))
        whole.add_done_callback(split)
        return out

    # -- SCRAM credentials

    def describe_user_scram_credentials(self, users: list[str] | None = None, *, request_timeout: float = -1
                                        ) -> (concurrent.futures.Future[dict[str, UserScramCredentialsDescription]]
                                              | dict[str, concurrent.futures.Future[UserScramCredentialsDescription]]):
        """users None: future of {user: UserScramCredentialsDescription} of every user with a
        credential; a list: {user: future of its UserScramCredentialsDescription}."""
        if users is not None:
            if not isinstance(users, list):
                raise TypeError("Expected input to be list of String")
            for user in users:
                if user is None:
                    raise TypeError("'user' cannot be None")
                if not isinstance(user, str):
                    raise TypeError("Each value should be a string")
                if not user:
                    raise ValueError("'user' cannot be empty")
        whole = self._submit(self._a.describe_user_scram_credentials, users, timeout=_seconds(request_timeout))

        def description(user: str, got: Any) -> UserScramCredentialsDescription:
            if isinstance(got, E.KafkaError):
                raise exception_from(got)
            return UserScramCredentialsDescription(user, [
                ScramCredentialInfo(ScramMechanism(int(c.mechanism)), c.iterations) for c in got])
        if users is None:
            every: concurrent.futures.Future[dict[str, UserScramCredentialsDescription]] = concurrent.futures.Future()

            def all_done(done: concurrent.futures.Future[Any]) -> None:
                try:
                    every.set_result({u: description(u, got) for u, got in done.result().items()})
                except Exception as exc:
                    every.set_exception(exc)
            whole.add_done_callback(all_done)
            return every
        out: dict[str, concurrent.futures.Future[UserScramCredentialsDescription]] = {
            u: concurrent.futures.Future() for u in users}

        def split(done: concurrent.futures.Future[Any]) -> None:
            exc = done.exception()
            got = {} if exc is not None else done.result()
            if exc is None and len(got) != len(out):
                # confluent-kafka fails every future so when the answer leaves users out (Tansu answers none)
                exc = RuntimeError(f"Results length {len(got)} is different from future-map length {len(out)}")
            for user, fut in out.items():
                if exc is not None:
                    fut.set_exception(exc)
                    continue
                try:
                    fut.set_result(description(user, got[user]))
                except Exception as e:
                    fut.set_exception(e)
        whole.add_done_callback(split)
        return out

    def alter_user_scram_credentials(self, alterations: list[UserScramCredentialAlteration], *,
                                     request_timeout: float = -1) -> dict[str, concurrent.futures.Future[None]]:
        """{user: future of None} (one AlterUserScramCredentials request)."""
        if not isinstance(alterations, list):
            raise TypeError("Expected input to be list")
        if not alterations:
            raise ValueError("Expected at least one alteration")
        changes: list[_client_admin.ScramUpsertion | _client_admin.ScramDeletion] = []
        for a in alterations:
            if not isinstance(a, UserScramCredentialAlteration):
                raise TypeError("Expected each element of list to be subclass of UserScramCredentialAlteration")
            if a.user is None:
                raise TypeError("'user' cannot be None")
            if not isinstance(a.user, str):
                raise TypeError("'user' must be a string")
            if not a.user:
                raise ValueError("'user' cannot be empty")
            if isinstance(a, UserScramCredentialUpsertion):
                if a.password is None:
                    raise TypeError("'password' cannot be None")
                if not isinstance(a.password, bytes):
                    raise TypeError("'password' must be bytes")
                if not a.password:
                    raise ValueError("'password' cannot be empty")
                if a.salt is not None and not a.salt:
                    raise ValueError("'salt' can be None but cannot be empty")
                if a.salt and not isinstance(a.salt, bytes):
                    raise TypeError("'salt' must be bytes")
                info = a.scram_credential_info
                if not isinstance(info, ScramCredentialInfo):
                    raise TypeError("Expected credential_info to be ScramCredentialInfo Type")
                if info.iterations < 1:
                    raise ValueError("Iterations should be positive")
                if not isinstance(info.mechanism, ScramMechanism):
                    raise TypeError("Expected the mechanism to be ScramMechanism Type")
                changes.append(_client_admin.ScramUpsertion(a.user, _client_admin.ScramMechanism(info.mechanism.value),
                                                            info.iterations, a.password, a.salt))
            elif isinstance(a, UserScramCredentialDeletion):
                if not isinstance(a.mechanism, ScramMechanism):
                    raise TypeError("Expected the mechanism to be ScramMechanism Type")
                changes.append(_client_admin.ScramDeletion(a.user, _client_admin.ScramMechanism(a.mechanism.value)))
            else:
                raise TypeError("Expected each element of list 'alterations' to be either a "
                                "UserScramCredentialUpsertion or a UserScramCredentialDeletion")
        whole = self._submit(self._a.alter_user_scram_credentials, changes, timeout=_seconds(request_timeout))
        out: dict[str, concurrent.futures.Future[None]] = {a.user: concurrent.futures.Future() for a in alterations}

        def split(done: concurrent.futures.Future[dict[str, E.KafkaError | None]]) -> None:
            exc = done.exception()
            got = {} if exc is not None else done.result()
            for user, fut in out.items():
                err = got.get(user)
                if exc is not None:
                    fut.set_exception(exc)
                elif isinstance(err, E.KafkaError):
                    fut.set_exception(exception_from(err))
                else:
                    fut.set_result(None)
        whole.add_done_callback(split)
        return out

    # -- leaders

    def elect_leaders(self, election_type: ElectionType, partitions: list[TopicPartition] | None = None, *,
                      request_timeout: float = -1, operation_timeout: float = 0
                      ) -> concurrent.futures.Future[dict[TopicPartition, KafkaError | None]]:
        """Future of {TopicPartition: None, or the KafkaError of its election} for `partitions`,
        or every partition that needs an election (None)."""
        if not isinstance(election_type, ElectionType):
            raise TypeError("Expected 'election_type' to be of type 'ElectionType'")
        if partitions is not None:
            if not isinstance(partitions, list):
                raise TypeError(f"Expected 'partitions' to be a list, got '{type(partitions).__name__}'")
            for tp in partitions:
                if not isinstance(tp, TopicPartition):
                    raise TypeError(f"Element of the 'partitions' list must be of type 'TopicPartition' got "
                                    f"'{type(tp).__name__}' ")
                if tp.partition < 0:
                    raise ValueError("Elements of the 'partitions' list must not have negative value for "
                                     "'partition' field")
        timeout = self._timeout(request_timeout, operation_timeout)

        def elect() -> dict[TopicPartition, KafkaError | None]:
            got = self._a.elect_leaders(
                _client_admin.ElectionType(election_type.value),
                None if partitions is None else [(tp.topic, tp.partition) for tp in partitions], timeout=timeout)
            return {TopicPartition(tp.topic, tp.partition): None if err is None else exception_from(err).args[0]
                    for tp, err in sorted(got.items())}
        return self._submit(elect)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._closing.set()
        self._pool.shutdown(wait=True)
        self._a.close()

    def __del__(self) -> None:
        if getattr(self, "_closed", True) is False:
            try:
                self._pool.shutdown(wait=False)
                # without waiting on the I/O thread: at exit it no longer runs
                self._a.client.close(0)
            except Exception:
                pass
