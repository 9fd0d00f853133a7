"""TopicPartition, Message, the metadata classes and the admin model types confluent-kafka
exports at its top level (Node, Uuid, ConsumerGroupState, ConsumerGroupType,
TopicCollection, TopicPartitionInfo), shaped as confluent-kafka's."""
from __future__ import annotations

import base64
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Generic

from kafkacodec import _impl
from kafkacodec.compat.confluent_kafka._enum import OrderedEnum
from kafkacodec.compat.confluent_kafka._typevars import DefaultTypeVar

if TYPE_CHECKING:
    from kafkacodec.compat.confluent_kafka._errors import KafkaError
    from kafkacodec.records._records import Record

# a bare Message is Message[bytes, bytes], what the plain clients hand out
K = DefaultTypeVar("K", default=bytes)
V = DefaultTypeVar("V", default=bytes)

# (key, value) pairs as messages carry them
Headers = list[tuple[str, bytes | None]]

__all__ = ["TopicPartition", "Message", "ClusterMetadata", "BrokerMetadata", "TopicMetadata", "PartitionMetadata",
           "Node", "Uuid", "ConsumerGroupState", "ConsumerGroupType", "TopicCollection", "TopicPartitionInfo",
           "ElectionType", "ThrottleEvent", "OFFSET_BEGINNING", "OFFSET_END", "OFFSET_STORED", "OFFSET_INVALID",
           "TIMESTAMP_NOT_AVAILABLE", "TIMESTAMP_CREATE_TIME", "TIMESTAMP_LOG_APPEND_TIME"]

# librdkafka's logical offsets and timestamp types
OFFSET_BEGINNING = -2
OFFSET_END = -1
OFFSET_STORED = -1000
OFFSET_INVALID = -1001
TIMESTAMP_NOT_AVAILABLE = 0
TIMESTAMP_CREATE_TIME = 1
TIMESTAMP_LOG_APPEND_TIME = 2


class KeyedValue:
    """A value equal to and hashed as its ``_key()`` (TopicPartition, Uuid, the admin types);
    only values of one class, or of a class and its subclasses, compare."""

    __slots__ = ()

    def _key(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if isinstance(other, type(self)) or (isinstance(other, KeyedValue) and isinstance(self, type(other))):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())


class TopicPartition(KeyedValue):
    """Topic, partition and an offset (or timestamp, or error) for calls that take or return
    several partitions.  Equal and hashed by (topic, partition), as confluent-kafka's."""

    __slots__ = ("topic", "partition", "offset", "metadata", "leader_epoch", "error")

    def __init__(self, topic: str, partition: int = -1, offset: int = OFFSET_INVALID, metadata: str | None = None,
                 leader_epoch: int | None = None) -> None:
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.metadata = metadata
        self.leader_epoch = leader_epoch
        self.error: KafkaError | None = None

    def _key(self) -> tuple[str, int]:
        return (self.topic, self.partition)

    def __lt__(self, other: TopicPartition) -> bool:
        return self._key() < other._key()

    def __str__(self) -> str:
        return (f"TopicPartition{{topic={self.topic},partition={self.partition},offset={self.offset},"
                f"leader_epoch={self.leader_epoch},error={self.error}}}")

    __repr__ = __str__


class Message(Generic[K, V]):
    """A consumed or produced message, or an event (``error()`` is not None).  Generic in the
    key and value a DeserializingConsumer makes of the bytes: ``deserialized_key()`` and
    ``deserialized_value()`` are ``key()`` and ``value()`` typed so."""

    __slots__ = ("_topic", "_partition", "_offset", "_key", "_value", "_headers", "_error", "_timestamp",
                 "_latency", "_leader_epoch", "_delivery_count", "_record")
    _record: Record   # the consumed record a _RecordMessage reads

    def __init__(self, topic: str | None = None, partition: int | None = None, offset: int | None = None,
                 key: bytes | None = None, value: bytes | None = None, headers: Headers | None = None,
                 error: KafkaError | None = None, timestamp: tuple[int, int] | None = None,
                 latency: float | None = None, leader_epoch: int | None = None,
                 delivery_count: int | None = None) -> None:
        self._topic = topic
        # confluent-kafka answers None for a negative partition (unassigned) or offset (none yet)
        self._partition = None if partition is not None and partition < 0 else partition
        self._offset = None if offset is not None and offset < 0 else offset
        self._key: Any = key
        self._value: Any = value
        self._headers = headers
        self._error = error
        self._timestamp: tuple[int, int] = (TIMESTAMP_NOT_AVAILABLE, 0) if timestamp is None else timestamp
        self._latency = latency
        self._leader_epoch = leader_epoch
        self._delivery_count = delivery_count

    @staticmethod
    def _of_record(r: Record) -> Message:
        """A consumed kafkacodec Record as a Message (timestamp types: Kafka's 0/1 -> 1/2)."""
        m: Message = object.__new__(Message)
        m._fill(r)
        return m

    @staticmethod
    def _over_record(r: Record) -> Message:
        """A consumed kafkacodec Record as a Message that reads the record as asked (poll() and
        consume() make one per record: a field copied only when a setter changes the message)."""
        m: Message = object.__new__(_RecordMessage)
        m._record = r
        return m

    def _fill(self, r: Record) -> None:
        m = self
        m._topic = r.topic
        m._partition = r.partition
        m._offset = r.offset
        m._key = r.key
        m._value = r.value
        h = r.headers
        m._headers = list(h) if h else None
        m._error = None
        ts = r.timestamp
        m._timestamp = (r.timestamp_type + 1, ts) if ts >= 0 else (TIMESTAMP_NOT_AVAILABLE, -1)
        m._latency = None
        m._leader_epoch = _epoch(r)
        m._delivery_count = None

    def topic(self) -> str | None:
        return self._topic

    def partition(self) -> int | None:
        return self._partition

    def offset(self) -> int | None:
        return self._offset

    def key(self) -> bytes | None:
        key: bytes | None = self._key
        return key

    def value(self) -> bytes | None:
        value: bytes | None = self._value
        return value

    def deserialized_key(self) -> K | None:
        """key(), typed as the key a DeserializingConsumer[K, V] made of it."""
        key: K | None = self._key
        return key

    def deserialized_value(self) -> V | None:
        """value(), typed as the value a DeserializingConsumer[K, V] made of it."""
        value: V | None = self._value
        return value

    def headers(self) -> Headers | None:
        """A list of (str, bytes | None), or None when the message has none."""
        return self._headers

    def error(self) -> KafkaError | None:
        return self._error

    def timestamp(self) -> tuple[int, int]:
        """(timestamp type, milliseconds since the epoch): TIMESTAMP_CREATE_TIME,
        TIMESTAMP_LOG_APPEND_TIME or TIMESTAMP_NOT_AVAILABLE."""
        return self._timestamp

    def latency(self) -> float | None:
        """Seconds from produce() to the delivery report (produced messages only)."""
        return self._latency

    def leader_epoch(self) -> int | None:
        return self._leader_epoch

    def delivery_count(self) -> int | None:
        """How many times a share group delivered the message; None from a consumer group."""
        return self._delivery_count

    def set_topic(self, topic: str | None) -> None:
        self._topic = topic

    def set_key(self, key: Any) -> None:
        self._key = key

    def set_value(self, value: Any) -> None:
        self._value = value

    def set_headers(self, headers: Headers | None) -> None:
        self._headers = headers

    def set_error(self, error: KafkaError | None) -> None:
        self._error = error

    def __len__(self) -> int:
        value = self._value
        return 0 if value is None else len(value)

    def __repr__(self) -> str:
        if self._error is not None:
            return f"<Message {self._topic}[{self._partition}]@{self._offset} error={self._error}>"
        return f"<Message {self._topic}[{self._partition}]@{self._offset}>"


class _RecordMessage(Message[Any, Any]):
    """A Message read from its kafkacodec Record (Message._over_record); the first setter called
    copies the record's fields into the message, which then is a plain Message."""

    __slots__ = ()

    def _plain(self) -> None:
        self._fill(self._record)
        # the same slots: a plain Message from now on (this module's own, which the name Message
        # no longer is once the compiled twin is loaded)
        self.__class__ = _RecordMessage.__base__  # type: ignore[assignment]  # (a class, never None)

    def topic(self) -> str | None:
        return self._record.topic

    def partition(self) -> int | None:
        return self._record.partition

    def offset(self) -> int | None:
        return self._record.offset

    def key(self) -> bytes | None:
        return self._record.key

    def value(self) -> bytes | None:
        return self._record.value

    def deserialized_key(self) -> Any:
        return self._record.key

    def deserialized_value(self) -> Any:
        return self._record.value

    def headers(self) -> Headers | None:
        h = self._record.headers
        return list(h) if h else None

    def error(self) -> KafkaError | None:
        return None

    def timestamp(self) -> tuple[int, int]:
        r = self._record
        ts = r.timestamp
        return (r.timestamp_type + 1, ts) if ts >= 0 else (TIMESTAMP_NOT_AVAILABLE, -1)

    def latency(self) -> float | None:
        return None

    def leader_epoch(self) -> int | None:
        return _epoch(self._record)

    def delivery_count(self) -> int | None:
        return None

    def set_topic(self, topic: str | None) -> None:
        self._plain()
        self._topic = topic

    def set_key(self, key: Any) -> None:
        self._plain()
        self._key = key

    def set_value(self, value: Any) -> None:
        self._plain()
        self._value = value

    def set_headers(self, headers: Headers | None) -> None:
        self._plain()
        self._headers = headers

    def set_error(self, error: KafkaError | None) -> None:
        self._plain()
        self._error = error

    def __len__(self) -> int:
        value = self._record.value
        return 0 if value is None else len(value)

    def __repr__(self) -> str:
        r = self._record
        return f"<Message {r.topic}[{r.partition}]@{r.offset}>"


def _epoch(r: Record) -> int | None:
    """A consumed record's batch leader epoch, None when its batch has none (as confluent-kafka)."""
    epoch = r.leader_epoch
    return None if epoch < 0 else epoch


def messages_over(records: list[Record]) -> list[Message]:
    """Message._over_record of each record, as a list."""
    return list(map(Message._over_record, records))


# the client's record_class for the face's consumers: None, Records (messages_over wraps them)
RECORD_CLASS: type[Record] | None = None

if not TYPE_CHECKING and _impl.accelerated:
    # the compiled twin (_message.pyx): a consumer makes a Message per record, and programs call
    # several of its methods per message; a subclass of Record, the client decodes into it
    from kafkacodec.compat.confluent_kafka._message import Message, messages_over  # noqa: F811
    RECORD_CLASS = Message


class BrokerMetadata:
    __slots__ = ("id", "host", "port")

    def __init__(self, id: int = -1, host: str | None = None, port: int = -1) -> None:
        self.id, self.host, self.port = id, host, port

    def __repr__(self) -> str:
        return f"BrokerMetadata({self.id}, {self.host}:{self.port})"

    def __str__(self) -> str:
        return f"{self.host}:{self.port}/{self.id}"


class PartitionMetadata:
    __slots__ = ("id", "leader", "replicas", "isrs", "error")

    def __init__(self, id: int = -1, leader: int = -1, replicas: Iterable[int] = (), isrs: Iterable[int] = (),
                 error: KafkaError | None = None) -> None:
        self.id, self.leader, self.replicas, self.isrs, self.error = id, leader, list(replicas), list(isrs), error

    def __repr__(self) -> str:
        return f"PartitionMetadata({self.id})" if self.error is None else \
            f"PartitionMetadata({self.id}, {self.error})"


class TopicMetadata:
    __slots__ = ("topic", "partitions", "error")

    def __init__(self, topic: str | None = None, partitions: dict[int, PartitionMetadata] | None = None,
                 error: KafkaError | None = None) -> None:
        self.topic = topic
        self.partitions: dict[int, PartitionMetadata] = partitions if partitions is not None else {}
        self.error = error

    def __repr__(self) -> str:
        return f"TopicMetadata({self.topic}, {len(self.partitions)} partitions)" if self.error is None else \
            f"TopicMetadata({self.topic}, {len(self.partitions)} partitions, {self.error})"

    def __str__(self) -> str:
        return str(self.topic)


class ClusterMetadata:
    """What list_topics() answers: cluster_id, controller_id, brokers {id: BrokerMetadata},
    topics {name: TopicMetadata}."""

    __slots__ = ("cluster_id", "controller_id", "brokers", "topics", "orig_broker_id", "orig_broker_name")

    def __init__(self) -> None:
        self.cluster_id: str | None = None
        self.controller_id = -1
        self.brokers: dict[int, BrokerMetadata] = {}
        self.topics: dict[str, TopicMetadata] = {}
        self.orig_broker_id = -1
        self.orig_broker_name: str | None = None

    def __repr__(self) -> str:
        return f"ClusterMetadata({self.cluster_id})"

    def __str__(self) -> str:
        return str(self.cluster_id)


class Node:
    """A broker: id, id_string, host, port, rack (a group's coordinator, a partition's replicas)."""

    def __init__(self, id: int, host: str, port: int, rack: str | None = None) -> None:
        self.id, self.id_string, self.host, self.port, self.rack = id, str(id), host, port, rack

    def __repr__(self) -> str:
        return f"Node({self.id}, {self.host}:{self.port})"

    def __str__(self) -> str:
        # confluent-kafka's spelling, trailing space included when there is no rack
        return f"({self.id}) {self.host}:{self.port} {f'(Rack - {self.rack})' if self.rack else ''}"


def _int64(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


class Uuid(KeyedValue):
    """A topic id as confluent-kafka has it: two signed 64-bit halves, printed as librdkafka
    prints ids (base64 of the 16 bytes, no padding; Kafka's own tools use the URL-safe alphabet)."""

    __slots__ = ("_msb", "_lsb")

    def __init__(self, most_significant_bits: int, least_significant_bits: int) -> None:
        for what, bits in (("most_significant_bits", most_significant_bits),
                           ("least_significant_bits", least_significant_bits)):
            if not -(1 << 63) <= bits < 1 << 63:
                raise OverflowError(f"Uuid {what} {bits} does not fit in a signed 64-bit integer")
        self._msb, self._lsb = most_significant_bits, least_significant_bits

    @classmethod
    def _of(cls, value: uuid.UUID) -> Uuid:
        return cls(_int64(value.int >> 64), _int64(value.int & ((1 << 64) - 1)))

    def get_most_significant_bits(self) -> int:
        return self._msb

    def get_least_significant_bits(self) -> int:
        return self._lsb

    def _bytes(self) -> bytes:
        return (self._msb & ((1 << 64) - 1)).to_bytes(8, "big") + (self._lsb & ((1 << 64) - 1)).to_bytes(8, "big")

    def __str__(self) -> str:
        return base64.b64encode(self._bytes()).rstrip(b"=").decode()

    __repr__ = __str__

    def _key(self) -> tuple[int, int]:
        return (self._msb, self._lsb)


class ConsumerGroupState(OrderedEnum):
    """A group's state, with librdkafka's values (UNKOWN: the old misspelt alias)."""

    UNKNOWN = 0
    UNKOWN = 0
    PREPARING_REBALANCING = 1
    COMPLETING_REBALANCING = 2
    STABLE = 3
    DEAD = 4
    EMPTY = 5


class ConsumerGroupType(OrderedEnum):
    """CLASSIC: JoinGroup/SyncGroup groups; CONSUMER: KIP-848 groups."""

    UNKNOWN = 0
    CONSUMER = 1
    CLASSIC = 2


class TopicCollection:
    """Topics by name, for describe_topics()."""

    def __init__(self, topic_names: list[str]) -> None:
        self.topic_names = topic_names


class TopicPartitionInfo:
    """A partition of a TopicDescription: id, leader (None: no leader now), replicas, isr."""

    def __init__(self, id: int, leader: Node | None, replicas: list[Node], isr: list[Node]) -> None:
        self.id, self.leader, self.replicas, self.isr = id, leader, replicas, isr


class ElectionType(OrderedEnum):
    """Which leader an election picks: the preferred replica, or any replica (unclean)."""

    PREFERRED = 0
    UNCLEAN = 1


class ThrottleEvent:
    """A broker delayed an answer: broker_name, broker_id, throttle_time (seconds)."""

    def __init__(self, broker_name: str, broker_id: int, throttle_time: float) -> None:
        self.broker_name = broker_name
        self.broker_id = broker_id
        self.throttle_time = throttle_time

    def __str__(self) -> str:
        return f"{self.broker_name}/{self.broker_id} throttled for {int(self.throttle_time * 1000)} ms"
