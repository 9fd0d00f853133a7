"""Admin as a library layer over the client: topics, partitions, records, offsets,
consumer groups, configs, the cluster, and transactions other producers left.

    admin = Admin({"bootstrap.servers": "127.0.0.1:9092"})
    admin.create_topics({"events": 4})
    admin.list_offsets({("events", 0): "earliest", ("events", 1): 1_700_000_000_000})
    admin.alter_consumer_group_offsets("g", {("events", 0): 42})
    admin.close()

    Admin.over(producer.client)   # the same calls over another client's connections

Calls block the calling thread (the requests run on the client's I/O thread),
retry retriable broker errors after a metadata refresh, and raise
KafkaTimeoutError once ``timeout`` (default ``default.api.timeout.ms``) is spent.
A request the broker dropped the connection on once it was sent is not sent
again, as librdkafka's admin calls do (a request waiting for a connection is).
A call whose API the broker lacks raises UnsupportedVersionError before sending.
"""
from __future__ import annotations

import concurrent.futures
import enum
import hashlib
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, Union

from kafkacodec.protocol import api_key_of
from kafkacodec.protocol import messages as m
from kafkacodec.client.errors import ErrorCode as Code
from kafkacodec.client import errors as E
from kafkacodec.client._lifecycle import ClosedOnExit, new_sasl_credentials
from kafkacodec.client import _checks
from kafkacodec.client._backoff import backoff
from kafkacodec.client.config import ADMIN, IsolationLevel, resolve
from kafkacodec.client import transaction
from kafkacodec.client.coordinator import COORDINATOR_ERRORS, CoordinatorCalls, FetchedOffsets, OffsetFetch, answer_by
from kafkacodec.client.metadata import ClusterMetadata, TopicDescription
from kafkacodec.client.network import NetworkClient
from kafkacodec.client.types import (EARLIEST, LATEST, OffsetAndTimestamp, TopicPartition, TopicPartitionLike,
                                     partitions_by_topic)
from kafkacodec.client.versions import max_version  # noqa: F401  (admin.max_version: the one table)

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from kafkacodec.client.metadata import BrokerInfo, Metadata

__all__ = ["Admin", "TopicPartition", "OffsetAndTimestamp", "ClusterDescription", "list_offsets",
           "EARLIEST", "LATEST", "MAX_TIMESTAMP", "GroupListing", "GroupDescription", "GroupMember",
           "ConfigResource", "ConfigEntry", "TopicDescription", "max_version", "AclResourceType", "AclPatternType",
           "AclOperation", "AclPermissionType", "AclBinding", "ScramMechanism", "ScramCredentialInfo",
           "ScramUpsertion", "ScramDeletion", "ElectionType", "ClusterMetadata", "consumer_assignment",
           "ShareGroupMember", "ShareGroupDescription", "ShareGroupOffset"]

#: list_offsets: the offset of the record with the largest timestamp (KIP-734, ListOffsets v7+)
MAX_TIMESTAMP = -3


class AclResourceType(enum.IntEnum):
    """What an ACL is on (Kafka's codes; librdkafka calls CLUSTER "BROKER")."""

    UNKNOWN = 0
    ANY = 1
    TOPIC = 2
    GROUP = 3
    CLUSTER = 4
    TRANSACTIONAL_ID = 5
    DELEGATION_TOKEN = 6
    USER = 7


class AclPatternType(enum.IntEnum):
    """How an ACL's resource name matches: LITERAL, PREFIXED; in filters ANY or MATCH."""

    UNKNOWN = 0
    ANY = 1
    MATCH = 2
    LITERAL = 3
    PREFIXED = 4


class AclOperation(enum.IntEnum):
    UNKNOWN = 0
    ANY = 1
    ALL = 2
    READ = 3
    WRITE = 4
    CREATE = 5
    DELETE = 6
    ALTER = 7
    DESCRIBE = 8
    CLUSTER_ACTION = 9
    DESCRIBE_CONFIGS = 10
    ALTER_CONFIGS = 11
    IDEMPOTENT_WRITE = 12
    CREATE_TOKENS = 13
    DESCRIBE_TOKENS = 14
    TWO_PHASE_COMMIT = 15


class AclPermissionType(enum.IntEnum):
    UNKNOWN = 0
    ANY = 1
    DENY = 2
    ALLOW = 3


class AclBinding(NamedTuple):
    """An ACL, or (with None and the ANY/MATCH members) a filter of ACLs for describe_acls
    and delete_acls."""

    resource_type: AclResourceType
    name: str | None
    pattern_type: AclPatternType
    principal: str | None
    host: str | None
    operation: AclOperation
    permission_type: AclPermissionType


class ScramMechanism(enum.IntEnum):
    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2


class ScramCredentialInfo(NamedTuple):
    mechanism: ScramMechanism
    iterations: int


class ScramUpsertion(NamedTuple):
    """A SCRAM credential to set: the salted password is computed here (the password
    itself is never sent); salt None: 64 random bytes, as librdkafka makes."""

    user: str
    mechanism: ScramMechanism
    iterations: int
    password: bytes
    salt: bytes | None = None


class ScramDeletion(NamedTuple):
    user: str
    mechanism: ScramMechanism


class ElectionType(enum.IntEnum):
    PREFERRED = 0
    UNCLEAN = 1


_SCRAM_HASHES = {ScramMechanism.SCRAM_SHA_256: "sha256", ScramMechanism.SCRAM_SHA_512: "sha512"}


def _operations(bits: int | None) -> list[AclOperation] | None:
    """The operations a broker's authorized-operations bit field allows; None when it gave
    none (Kafka's INT32_MIN: not asked).  Any negative field is None, as librdkafka reads it
    (Tansu answers -1), and UNKNOWN, ANY and ALL are never in it (KIP-430)."""
    if bits is None or bits < 0:
        return None
    return [op for op in AclOperation if op >= AclOperation.READ and bits & (1 << op)]

class ClusterDescription(NamedTuple):
    cluster_id: str | None
    controller_id: int | None
    brokers: list[BrokerInfo]
    authorized_operations: list[AclOperation] | None = None  # asked for: describe_cluster(...=True)


class GroupListing(NamedTuple):
    group_id: str
    protocol_type: str
    state: str | None
    group_type: str | None = None   # "Classic", "Consumer" (KIP-848) or "Share" (KIP-932), ListGroups v5 on


class GroupMember(NamedTuple):
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    assignment: bytes                # a classic group's: its protocol's bytes (a consumer's: ConsumerProtocolAssignment)
    metadata: bytes = b""            # a classic group's: what the member joined with
    assigned: list[TopicPartition] | None = None   # a consumer group's: its partitions (classic: decoded)
    target: list[TopicPartition] | None = None     # a consumer group's: the partitions it is moving to


class GroupDescription(NamedTuple):
    group_id: str
    state: str
    protocol_type: str
    protocol: str                    # a classic group's protocol (its assignor); a consumer group's assignor
    members: list[GroupMember]
    coordinator: int | None = None   # the node id of the broker that described it (its coordinator)
    group_type: str = "Classic"      # "Consumer": a KIP-848 group (ConsumerGroupDescribe answered)
    authorized_operations: list[AclOperation] | None = None


class ShareGroupMember(NamedTuple):
    member_id: str
    client_id: str
    client_host: str
    rack_id: str | None
    member_epoch: int
    subscribed_topics: list[str]
    assigned: list[TopicPartition]   # the partitions it shares (other members may share them too)


class ShareGroupDescription(NamedTuple):
    """A share group (KIP-932) as ShareGroupDescribe answers it."""
    group_id: str
    state: str                       # "Empty", "Stable", "Dead"
    group_epoch: int
    assignment_epoch: int
    assignor: str
    members: list[ShareGroupMember]
    coordinator: int | None = None   # the node id of the broker that described it
    authorized_operations: list[AclOperation] | None = None


class ShareGroupOffset(NamedTuple):
    """A share group's position in one partition: its start offset (records below it are done
    with; None: the group has not read the partition yet), the leader epoch it was set in and
    how many records from it are not yet done (lag; None when the broker does not say)."""
    start_offset: int | None
    leader_epoch: int | None
    lag: int | None = None


class ConfigResource(NamedTuple):
    resource_type: str   # "topic" or "broker" (a broker's name is its node id as a string)
    name: str


class ConfigEntry(NamedTuple):
    name: str
    value: str | None
    read_only: bool
    is_default: bool
    source: str
    is_sensitive: bool


#: where list_offsets looks: "earliest", "latest" or a timestamp in ms
OffsetSpec = Union[str, int]
# the key type of a mapping the caller gives (TopicPartition or plain pairs; Mapping keys are invariant)
_TPKey = TypeVar("_TPKey", bound=tuple[str, int])


_RESOURCE_TYPES = {"topic": 2, "broker": 4}
_RESOURCE_NAMES = {v: k for k, v in _RESOURCE_TYPES.items()}
_CONFIG_OPS = {"set": 0, "delete": 1, "append": 2, "subtract": 3}
_CONFIG_SOURCES = {1: "dynamic_topic", 2: "dynamic_broker", 3: "dynamic_default_broker", 4: "static_broker",
                   5: "default", 6: "dynamic_broker_logger"}
_DEFAULT_CONFIG = 5
_SPEC = {"earliest": EARLIEST, "latest": LATEST, "max_timestamp": MAX_TIMESTAMP}


def _timestamp_of(spec: OffsetSpec) -> int:
    if isinstance(spec, str):
        try:
            return _SPEC[spec.lower()]
        except KeyError:
            pass
    elif not isinstance(spec, bool) and isinstance(spec, int) and spec >= MAX_TIMESTAMP:
        return spec
    raise ValueError(f"offset spec must be 'earliest', 'latest', 'max_timestamp' or a timestamp in ms, "
                     f"got {spec!r}")


_IntEnum = TypeVar("_IntEnum", bound=enum.IntEnum)


def _enum(cls: type[_IntEnum], value: int) -> _IntEnum:
    """`value` as a member of `cls`; a code this client does not know is UNKNOWN (0)."""
    try:
        return cls(value)
    except ValueError:
        return cls(0)


def _acl(resource_type: int, name: str | None, pattern_type: int, principal: str | None, host: str | None,
         operation: int, permission_type: int) -> AclBinding:
    return AclBinding(_enum(AclResourceType, resource_type), name, _enum(AclPatternType, pattern_type), principal,
                      host, _enum(AclOperation, operation), _enum(AclPermissionType, permission_type))


def consumer_assignment(group: str, member_id: str, raw: bytes | None) -> list[TopicPartition]:
    """A classic consumer group member's partitions, in the order of its ConsumerProtocolAssignment
    bytes (DescribeGroups' member_assignment); CorruptDataError naming the member when they are not one."""
    if not raw:
        return []
    from kafkacodec.errors import CorruptDataError, KafkaCodecError
    from kafkacodec.protocol import decode_versioned
    try:
        _, assignment = decode_versioned("ConsumerProtocolAssignment", bytes(raw))
    except KafkaCodecError as exc:
        raise CorruptDataError(f"group {group!r} member {member_id!r}: assignment is not a "
                               f"ConsumerProtocolAssignment: {exc}", getattr(exc, "offset", None)) from exc
    return [TopicPartition(t.topic, p) for t in assignment.assigned_partitions or () for p in t.partitions or ()]


def _sent(client: NetworkClient, api: str) -> int:
    """How many `api` requests the client has put on the wire so far (its connections' counters)."""
    key = api_key_of(api)
    return sum(c.req[key] for c in tuple(client.broker_counters))


def _lost_on_the_wire(exc: BaseException, client: NetworkClient, api: str, sent_before: int) -> bool:
    """Whether `exc` is the connection of a request that had gone out closing under it.
    librdkafka fails such an admin request rather than send it again, and so does Admin: a
    broker that drops the connection on a request it cannot serve (Tansu's DeleteRecords)
    would only get it again and again.  A request that never went out (no connection yet)
    is still retried until the call's timeout."""
    return isinstance(exc, E.KafkaConnectionError) and _sent(client, api) > sent_before


def _sleep_backoff(client: NetworkClient, attempt: int, deadline: float) -> None:
    conf = client.conf
    pause = backoff(conf["retry.backoff.ms"], conf["retry.backoff.max.ms"], attempt + 1) / 1000
    time.sleep(max(0.0, min(pause, deadline - time.monotonic())))


def _request_timeout(client: NetworkClient, deadline: float) -> float:
    """A request's own timeout: request.timeout.ms, within what is left until `deadline`
    (a tenth of a second at least, so a last try can still be answered)."""
    limit: float = client.conf["request.timeout.ms"] / 1000
    return max(0.1, min(limit, deadline - time.monotonic()))


def list_offsets(client: NetworkClient, specs: Mapping[_TPKey, OffsetSpec], timeout: float,
                 isolation_level: IsolationLevel = IsolationLevel.READ_UNCOMMITTED, *,
                 resend_lost: bool = True) -> dict[TopicPartition, OffsetAndTimestamp]:
    """{TopicPartition: OffsetAndTimestamp} for {(topic, partition): "earliest" | "latest" |
    "max_timestamp" | ms}, read at `isolation_level` (an IsolationLevel, sent as it is).

    A timestamp finds the first offset whose timestamp is at or after it; when
    there is none the answer is OffsetAndTimestamp(None, None, None) (Kafka's -1).
    Without `resend_lost`, a request whose connection closed once it was sent fails
    the call (Admin's rule, _lost_on_the_wire).
    """
    deadline = time.monotonic() + timeout
    pending = {TopicPartition(*tp): _timestamp_of(spec) for tp, spec in specs.items()}
    client.metadata.add_topics({tp.topic for tp in pending})
    out: dict[TopicPartition, OffsetAndTimestamp] = {}
    attempt = 0
    last_error: E.KafkaError | None = None
    while pending:
        def leaders_known(md: Metadata) -> bool:
            return all(md.leader_for(tp.topic, tp.partition) is not None for tp in pending)
        try:
            client.metadata.wait_for(leaders_known, max(0.0, deadline - time.monotonic()),
                                     f"leaders of {sorted(pending)}")
        except E.KafkaTimeoutError:
            if last_error is not None:
                raise E.KafkaTimeoutError(f"list offsets: {last_error}") from last_error
            raise
        by_leader: dict[int | None, dict[str, list[tuple[int, int]]]] = {}
        for tp, ts in pending.items():
            by_leader.setdefault(client.metadata.leader_for(tp.topic, tp.partition), {}).setdefault(
                tp.topic, []).append((tp.partition, ts))
        futures = []
        sent_before = _sent(client, "ListOffsets")
        for leader, topics in by_leader.items():
            body = m.ListOffsetsRequest(replica_id=-1, isolation_level=isolation_level, topics=[
                m.ListOffsetsRequest.ListOffsetsTopic(name=topic, partitions=[
                    m.ListOffsetsRequest.ListOffsetsPartition(
                        partition_index=p, timestamp=ts, max_num_offsets=1) for p, ts in parts])
                for topic, parts in topics.items()])
            futures.append(client.send(leader, "ListOffsets", body,
                                       timeout=min(client.conf["request.timeout.ms"] / 1000,
                                                   max(0.1, deadline - time.monotonic()))))
        retry = False
        for future in futures:
            try:
                resp = answer_by(future, deadline)
            except E.KafkaError as exc:
                if not exc.retriable or (not resend_lost and _lost_on_the_wire(exc, client, "ListOffsets",
                                                                               sent_before)):
                    raise
                last_error = exc
                retry = True
                continue
            for t in resp.topics:
                for p in t.partitions:
                    tp = TopicPartition(t.name, p.partition_index)
                    if tp not in pending:
                        continue
                    if p.error_code:
                        err = E.error_for(p.error_code, f"ListOffsets {t.name}[{p.partition_index}]")
                        if not err.retriable:
                            raise err
                        last_error = err
                        retry = True
                        continue
                    offset = p.offset
                    if offset is None or offset < 0:
                        old = p.old_style_offsets
                        offset = old[0] if old else -1
                    if offset < 0:
                        out[tp] = OffsetAndTimestamp(None, None, None)
                    else:
                        out[tp] = OffsetAndTimestamp(offset, p.timestamp if p.timestamp is not None and p.timestamp >= 0
                                                     else None, p.leader_epoch if p.leader_epoch is not None and p.leader_epoch >= 0 else None)
                    del pending[tp]
        if pending:
            if time.monotonic() >= deadline:
                raise E.KafkaTimeoutError(f"list offsets for {sorted(pending)} not answered within {timeout:.1f} s"
                                          + (f": {last_error}" if last_error else ""))
            if retry:
                client.metadata.request_update()
            _sleep_backoff(client, attempt, deadline)
            attempt += 1
    return out


class Admin(ClosedOnExit):
    """Manages a cluster: topics and partitions, offsets and records, configs, consumer groups,
    other producers' transactions.  Each call waits for its answer, up to ``timeout`` seconds
    (None: ``default.api.timeout.ms``), and raises the broker's error as its class.

    ``config`` takes the settings by Kafka's names, ``settings`` the same as snake_case
    keywords; ``with Admin(...) as a:`` closes it."""

    def __init__(self, config: Mapping[str, Any] | None = None, **settings: Any) -> None:
        self.conf = resolve(config, settings, ADMIN, "admin")
        self._client = NetworkClient(self.conf, name="kafkacodec-admin-io")
        self._owns_client = True
        self._timeout = self.conf["default.api.timeout.ms"] / 1000

    @classmethod
    def over(cls, client: NetworkClient) -> Admin:
        """An Admin sending through another client's connections (``producer.client``,
        ``consumer.client``, ``admin.client``); closing it leaves that client open."""
        self = cls.__new__(cls)
        self.conf = client.conf
        self._client = client
        self._owns_client = False
        self._timeout = client.conf.get("default.api.timeout.ms", 60000) / 1000
        return self

    @property
    def client(self) -> NetworkClient:
        return self._client

    def close(self) -> None:
        """Stop the I/O thread and close the connections (not those of a client it runs ``over``)."""
        if self._owns_client:
            self._client.close()

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """New SASL PLAIN/SCRAM credentials: connections made from now on authenticate with
        them; those already open stay as they are."""
        new_sasl_credentials(self.conf, username, password)

    def _deadline(self, timeout: float | None) -> float:
        return time.monotonic() + (self._timeout if timeout is None else timeout)

    def _controller(self, deadline: float) -> int | None:
        md = self._client.metadata
        md.wait_for(lambda md: md.brokers, max(0.0, deadline - time.monotonic()), "cluster metadata")
        return md.controller_id if md.controller_id in md.brokers else None

    def _call(self, api: str, body: Any, timeout: float | None, *, to_controller: bool = False,
              node: int | None = None) -> Any:
        """Send (to `node`, the controller, or any broker) with retries on retriable
        request-level failures; returns the response."""
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        attempt = 0
        while True:
            target = self._controller(deadline) if to_controller else node
            sent_before = _sent(self._client, api)
            future = self._client.send(target, api, body, timeout=_request_timeout(self._client, deadline))
            try:
                return answer_by(future, deadline)
            except E.KafkaError as exc:
                if (not exc.retriable or time.monotonic() >= deadline
                        or _lost_on_the_wire(exc, self._client, api, sent_before)):
                    raise
            self._client.metadata.request_update()
            _sleep_backoff(self._client, attempt, deadline)
            attempt += 1

    def _coordinator_call(self, api: str, make_body: Callable[[], Any], answer_code: Callable[[Any], int],
                          deadline: float, *, group: str | None = None,
                          transactional_id: str | None = None) -> Any:
        """`api` to the group's (or transactional id's) coordinator, found and followed
        as it moves; retriable answers are retried until `deadline`."""
        return self._coordinator_answer(api, make_body, answer_code, deadline, group=group,
                                        transactional_id=transactional_id)[0]

    def _coordinator_answer(self, api: str, make_body: Callable[[], Any], answer_code: Callable[[Any], int],
                            deadline: float, *, group: str | None = None,
                            transactional_id: str | None = None) -> tuple[Any, int | None]:
        """_coordinator_call's answer and the node id of the coordinator that gave it."""
        calls = CoordinatorCalls.of(self._client, transactional_id)
        return calls.call(api, make_body, answer_code, deadline, group=group), calls.answered_by

    def _wait_leaders(self, tps: list[TopicPartition], deadline: float) -> None:
        md = self._client.metadata
        md.add_topics({tp.topic for tp in tps})
        md.wait_for(lambda md: all(md.leader_for(tp.topic, tp.partition) is not None for tp in tps),
                    max(0.0, deadline - time.monotonic()), f"leaders of {sorted(tps)}")

    # -- cluster and topics

    def describe_cluster(self, timeout: float | None = None, *,
                         include_authorized_operations: bool = False) -> ClusterDescription:
        """The cluster id, controller and brokers, from a metadata refresh; with
        `include_authorized_operations`, from a DescribeCluster request (KIP-700), which
        also tells what this client may do on the cluster (None: the broker did not say)."""
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        if include_authorized_operations:
            resp = self._call("DescribeCluster", m.DescribeClusterRequest(include_cluster_authorized_operations=True),
                              deadline - time.monotonic())
            if resp.error_code:
                raise E.error_for(resp.error_code, f"DescribeCluster: {resp.error_message or ''}".rstrip(": "))
            from kafkacodec.client.metadata import BrokerInfo
            brokers = sorted(BrokerInfo(b.broker_id, b.host, b.port, b.rack) for b in resp.brokers)
            return ClusterDescription(resp.cluster_id, resp.controller_id if resp.controller_id >= 0 else None,
                                      brokers, _operations(resp.cluster_authorized_operations))
        md = self._client.metadata
        md.wait_for_update(max(0.0, deadline - time.monotonic()))
        return ClusterDescription(md.cluster_id, md.controller_id, sorted(md.brokers.values()))

    def list_topics(self, timeout: float | None = None) -> dict[str, int]:
        """{topic: number of partitions} of every topic in the cluster."""
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        topics = self._client.metadata.all_topics(max(0.0, deadline - time.monotonic()))
        return {name: len(t.partitions) for name, t in topics.items()}

    def cluster_metadata(self, topic: str | None = None, *, timeout: float | None = None) -> ClusterMetadata:
        """The cluster's brokers and every topic (or only `topic`, which then is in ``topic_errors``
        when the broker knows no such topic), from a metadata answer (librdkafka's list_topics)."""
        return self._client.metadata.snapshot(topic, self._timeout if timeout is None else timeout)

    def describe_topics(self, names: Iterable[str], *, timeout: float | None = None,
                        include_authorized_operations: bool = False) -> dict[str, TopicDescription]:
        """{name: TopicDescription} with each partition's PartitionInfo (leader, replicas,
        in-sync replicas); UnknownTopicOrPartitionError for a topic that does not exist.
        With `include_authorized_operations`, each also says what this client may do on the
        topic (a Metadata request of its own asks; None: the broker did not say)."""
        deadline = self._deadline(timeout)
        wanted = set(names)
        operations: dict[str, list[AclOperation] | None] = {}
        if include_authorized_operations:
            resp = self._call("Metadata", m.MetadataRequest(
                topics=[m.MetadataRequest.MetadataRequestTopic(name=n) for n in sorted(wanted)],
                allow_auto_topic_creation=False, include_topic_authorized_operations=True),
                deadline - time.monotonic())
            operations = {t.name: _operations(t.topic_authorized_operations) for t in resp.topics}
        md = self._client.metadata
        md.add_topics(wanted)
        unknown = Code.UNKNOWN_TOPIC_OR_PARTITION

        def answered(md: Metadata) -> bool:
            return all((n in md.topics and md.topics[n].partitions) or md.topic_errors.get(n) == unknown
                       for n in wanted)
        md.request_update()
        md.wait_for(answered, max(0.0, deadline - time.monotonic()), f"metadata of {sorted(wanted)}")
        missing = sorted(n for n in wanted if n not in md.topics)
        if missing:
            raise E.error_for(unknown, f"describe topics: {missing} do not exist")
        return {n: TopicDescription(n, md.topics[n].topic_id, md.topics[n].is_internal,
                                    [md.topics[n].partitions[p] for p in sorted(md.topics[n].partitions)],
                                    operations.get(n))
                for n in wanted}

    def topic_metadata(self, names: Iterable[str] | None = None, *,
                       timeout: float | None = None) -> dict[str, TopicDescription]:
        """{name: TopicDescription} from a metadata answer asked for by this call (describe_topics
        may answer from the client's view): every topic in the cluster, or those of ``names`` that
        exist.  ``topic_id`` tells a topic from one deleted and created again under its name; it is
        all zero where the broker keeps no ids."""
        deadline = self._deadline(timeout)
        md = self._client.metadata
        wanted = None if names is None else set(names)
        if wanted is None:
            topics = md.all_topics(max(0.0, deadline - time.monotonic()))
        else:
            version = md.version
            md.add_topics(wanted)

            def answered(md: Metadata) -> bool:  # a refresh in flight before add_topics may not have asked for them
                return md.version > version and all(n in md.topics or n in md.topic_errors for n in wanted)

            md.wait_for(answered, max(0.0, deadline - time.monotonic()), "a metadata refresh")
            topics = md.topics  # replaced, never changed, by each refresh: one answer's view
        return {n: TopicDescription(n, t.topic_id, t.is_internal, [t.partitions[p] for p in sorted(t.partitions)])
                for n, t in topics.items() if wanted is None or n in wanted}

    def create_topics(self, topics: Mapping[str, int], *, replication_factor: int = 1,
                      configs: Mapping[str, object] | None = None, timeout: float | None = None,
                      wait: bool = True) -> None:
        """Create {name: partitions}; raises the broker's error for a topic that fails
        (TopicAlreadyExistsError included).  With `wait`, returns once metadata shows
        a leader for every partition.  A count or `replication_factor` of -1 takes the
        broker's default (KIP-464)."""
        # refused here, not by the broker: some (the mock cluster) accept any name or count
        if not isinstance(topics, Mapping):
            raise E.InvalidArgumentError(f"topics: expected {{name: partitions}}, got {type(topics).__name__}")
        topics = {_checks.topic_name(name, "topics"): _checks.partition_count(parts, f"topics[{name!r}]")
                  for name, parts in topics.items()}
        replication_factor = _checks.replication_factor(replication_factor)
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        CT = m.CreateTopicsRequest.CreatableTopic
        body = m.CreateTopicsRequest(timeout_ms=int(max(1.0, deadline - time.monotonic()) * 1000), topics=[
            CT(name=name, num_partitions=parts, replication_factor=replication_factor,
               configs=[m.CreateTopicsRequest.CreatableTopicConfig(name=k, value=str(v))
                     for k, v in (configs or {}).items()])
            for name, parts in topics.items()])
        resp = self._call("CreateTopics", body, deadline - time.monotonic(), to_controller=True)
        for t in resp.topics:
            if t.error_code:
                raise E.error_for(t.error_code, f"create topic {t.name}: {t.error_message or ''}".rstrip(": "))
        if wait:
            self._wait_partition_counts(topics, deadline, "new topics")

    def _wait_partition_counts(self, counts: Mapping[str, int], deadline: float, what: str) -> None:
        md = self._client.metadata
        md.add_topics(counts)
        md.request_update()
        md.wait_for(lambda md: all(
            name in md.topics and (len(md.topics[name].partitions) == parts if parts > 0
                                   else len(md.topics[name].partitions) > 0)  # -1: the broker's default
            and all(p.leader >= 0 for p in md.topics[name].partitions.values())
            for name, parts in counts.items()), max(0.0, deadline - time.monotonic()),
            f"leaders of {what} {sorted(counts)}")

    def create_partitions(self, counts: Mapping[str, int], *, timeout: float | None = None,
                          validate_only: bool = False, wait: bool = True) -> None:
        """Grow each topic of {name: new total partition count}; the broker's error for
        a topic that fails (InvalidPartitionsError when the count does not grow)."""
        if not isinstance(counts, Mapping):
            raise E.InvalidArgumentError(f"counts: expected {{name: partitions}}, got {type(counts).__name__}")
        counts = {_checks.topic_name(name, "counts"): _checks.partition_count(n, f"counts[{name!r}]", False)
                  for name, n in counts.items()}
        deadline = self._deadline(timeout)
        CP = m.CreatePartitionsRequest.CreatePartitionsTopic
        body = m.CreatePartitionsRequest(
            topics=[CP(name=name, count=n, assignments=None) for name, n in counts.items()],
            timeout_ms=int(max(1.0, deadline - time.monotonic()) * 1000), validate_only=validate_only)
        resp = self._call("CreatePartitions", body, deadline - time.monotonic(), to_controller=True)
        for r in resp.results:
            if r.error_code:
                raise E.error_for(r.error_code, f"create partitions of {r.name}: {r.error_message or ''}".rstrip(": "))
        if wait and not validate_only:
            self._wait_partition_counts(counts, deadline, "grown topics")

    def delete_topics(self, names: Iterable[str], *, timeout: float | None = None) -> None:
        """Delete these topics and their records (the controller's answer waited for)."""
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        listed = list(names)
        body = m.DeleteTopicsRequest(
            topic_names=listed, topics=[m.DeleteTopicsRequest.DeleteTopicState(name=n) for n in listed],
            timeout_ms=int(max(1.0, deadline - time.monotonic()) * 1000))
        resp = self._call("DeleteTopics", body, deadline - time.monotonic(), to_controller=True)
        for t in resp.responses:
            if t.error_code:
                raise E.error_for(t.error_code, f"delete topic {t.name}: {t.error_message or ''}".rstrip(": "))
        self._client.metadata.request_update()

    # -- offsets and records

    def list_offsets(self, specs: Mapping[_TPKey, OffsetSpec], *,
                     isolation_level: str | int = "read_uncommitted",
                     timeout: float | None = None) -> dict[TopicPartition, OffsetAndTimestamp]:
        """Offsets of partitions, asked of their leaders: ``specs`` maps each partition to
        "earliest", "latest" or a timestamp in ms (the first offset at or after it)."""
        level = IsolationLevel.parse(isolation_level, "isolation_level", E.ConfigError)
        return list_offsets(self._client, specs, self._timeout if timeout is None else timeout, level,
                            resend_lost=False)

    def delete_records(self, offsets: Mapping[_TPKey, int], *,
                       timeout: float | None = None) -> dict[TopicPartition, int]:
        """Move each partition's log start up to {(topic, partition): offset} (-1: the
        high watermark): the records before it are gone.  Returns {TopicPartition: the
        new log start offset}."""
        deadline = self._deadline(timeout)
        wanted = {TopicPartition(*tp): int(o) for tp, o in offsets.items()}
        self._wait_leaders(list(wanted), deadline)
        md = self._client.metadata
        by_leader: dict[int | None, dict[str, list[tuple[int, int]]]] = {}
        for tp, o in wanted.items():
            by_leader.setdefault(md.leader_for(tp.topic, tp.partition), {}).setdefault(tp.topic, []).append((tp.partition, o))
        DT = m.DeleteRecordsRequest.DeleteRecordsTopic
        DP = m.DeleteRecordsRequest.DeleteRecordsPartition
        out: dict[TopicPartition, int] = {}
        for leader, topics in by_leader.items():
            body = m.DeleteRecordsRequest(
                topics=[DT(name=t, partitions=[DP(partition_index=p, offset=o) for p, o in ps])
                        for t, ps in topics.items()],
                timeout_ms=int(max(1.0, deadline - time.monotonic()) * 1000))
            resp = self._call("DeleteRecords", body, deadline - time.monotonic(), node=leader)
            for t in resp.topics:
                for p in t.partitions:
                    if p.error_code:
                        raise E.error_for(p.error_code, f"delete records of {t.name}[{p.partition_index}]")
                    out[TopicPartition(t.name, p.partition_index)] = p.low_watermark
        return out

    def _fetch_body(self, parts: Mapping[str, list[tuple[int, int, int]]], isolation_level: int,
                    max_bytes: int) -> m.FetchRequest:
        """A sessionless Fetch that waits for nothing: parts {topic: [(partition, offset, max bytes)]}."""
        FT = m.FetchRequest.FetchTopic
        FP = m.FetchRequest.FetchPartition
        return m.FetchRequest(
            replica_id=-1, max_wait_ms=1, min_bytes=0, max_bytes=max_bytes, isolation_level=isolation_level,
            session_id=0, session_epoch=-1, rack_id="",
            topics=[FT(topic=t, partitions=[FP(partition=p, current_leader_epoch=-1, fetch_offset=o,
                                               log_start_offset=-1, partition_max_bytes=n) for p, o, n in ps])
                    for t, ps in parts.items()])

    def high_watermarks(self, offsets: Mapping[_TPKey, int], *,
                        isolation_level: str | int = "read_uncommitted",
                        timeout: float | None = None) -> dict[TopicPartition, int]:
        """{TopicPartition: high watermark} (read_committed: the last stable offset) from a
        one-byte Fetch of each partition at {(topic, partition): offset}.  A Fetch answer
        carries the watermark every broker keeps exact, while some answer
        ListOffsets(latest) with the start of the last batch plus one.  A probe:
        partitions without a known leader, whose leader does not answer in time, or
        that answer an error are left out."""
        level = IsolationLevel.parse(isolation_level, "isolation_level", E.ConfigError)
        committed = level is IsolationLevel.READ_COMMITTED
        deadline = self._deadline(timeout)
        md = self._client.metadata
        by_leader: dict[int, dict[str, list[tuple[int, int, int]]]] = {}
        for pair, offset in offsets.items():
            tp = TopicPartition(*pair)
            leader = md.leader_for(tp.topic, tp.partition)
            if leader is not None:
                by_leader.setdefault(leader, {}).setdefault(tp.topic, []).append((tp.partition, max(0, offset), 1))
        request_timeout = min(self.conf["request.timeout.ms"] / 1000, max(0.1, deadline - time.monotonic()))
        futures = [self._client.send(leader, "Fetch", self._fetch_body(parts, level, 1), timeout=request_timeout)
                   for leader, parts in by_leader.items()]
        out: dict[TopicPartition, int] = {}
        for future in futures:
            try:
                resp = answer_by(future, deadline)
            except E.KafkaError:
                continue
            for topic in resp.responses:
                for p in topic.partitions:
                    if p.error_code:
                        continue
                    mark = p.last_stable_offset if committed and p.last_stable_offset >= 0 else p.high_watermark
                    if mark is not None and mark >= 0:
                        out[TopicPartition(topic.topic, p.partition_index)] = mark
        return out

    def fetch_raw(self, pair: TopicPartitionLike, offset: int, max_bytes: int, *,
                  timeout: float | None = None) -> bytes:
        """The record batch bytes one Fetch (read_uncommitted) of `pair` at `offset` answers:
        up to `max_bytes`, and at least the whole batch holding `offset`; empty when
        nothing is there (past the end, before the log start, or an error)."""
        tp = TopicPartition(*pair)
        deadline = self._deadline(self.conf["request.timeout.ms"] / 1000 if timeout is None else timeout)
        self._wait_leaders([tp], deadline)
        leader = self._client.metadata.leader_for(tp.topic, tp.partition)
        body = self._fetch_body({tp.topic: [(tp.partition, offset, max_bytes)]}, IsolationLevel.READ_UNCOMMITTED,
                                max_bytes)
        resp = answer_by(self._client.send(leader, "Fetch", body,
                                           timeout=max(0.1, deadline - time.monotonic())), deadline)
        for t in resp.responses:
            for p in t.partitions:
                if p.partition_index == tp.partition and not p.error_code and p.records is not None:
                    return bytes(p.records)
        return b""

    # -- consumer groups

    def list_consumer_groups(self, *, timeout: float | None = None, states: Iterable[str] = (),
                             types: Iterable[str] = ()) -> list[GroupListing]:
        """[GroupListing] of the groups every broker coordinates; a broker's error (after
        retrying retriable ones until the timeout) raises, naming the broker: a listing
        without its groups would look complete (list_consumer_groups_by_broker keeps the
        other brokers' groups).  `states`, `types`: see list_consumer_groups_by_broker."""
        out: dict[str, GroupListing] = {}
        for node, listed in sorted(self.list_consumer_groups_by_broker(timeout=timeout, states=states,
                                                                       types=types).items()):
            if isinstance(listed, BaseException):
                raise listed
            for g in listed:
                out[g.group_id] = g
        return sorted(out.values())

    def list_consumer_groups_by_broker(self, *, timeout: float | None = None, states: Iterable[str] = (),
                                       types: Iterable[str] = ()) -> dict[int, list[GroupListing] | E.KafkaError]:
        """{broker id: [GroupListing] of the groups it coordinates, or the error it answered
        or failed with}.  Every broker is asked at once; a retriable error (a coordinator
        still loading, a lost connection) is asked again until the timeout, as Java's
        admin does, and is the broker's answer if it lasts that long.  `states` ("Stable",
        "Empty", ...; ListGroups v4+) and `types` ("Classic", "Consumer"; v5+) go to the
        brokers as filters, which they apply (as librdkafka and Java send them)."""
        deadline = self._deadline(timeout)
        md = self._client.metadata
        md.wait_for(lambda md: md.brokers, max(0.0, deadline - time.monotonic()), "cluster metadata")
        body = m.ListGroupsRequest(states_filter=list(states), types_filter=list(types))
        out: dict[int, list[GroupListing] | E.KafkaError] = {}
        pending = sorted(md.brokers)
        attempt = 0
        while True:
            request_timeout = _request_timeout(self._client, deadline)
            futures = {node: self._client.send(node, "ListGroups", body, timeout=request_timeout) for node in pending}
            again: list[int] = []
            for node, future in futures.items():
                try:
                    resp = answer_by(future, deadline)
                    if resp.error_code:
                        raise E.error_for(resp.error_code, f"ListGroups of broker {node}")
                except E.KafkaError as exc:
                    out[node] = exc
                    if exc.retriable:
                        again.append(node)
                    continue
                out[node] = [GroupListing(g.group_id, g.protocol_type, g.group_state or None, g.group_type or None)
                             for g in resp.groups]
            if not again or time.monotonic() >= deadline:
                return out
            log.info("ListGroups: broker(s) %s answered a retriable error (%s); asking again",
                     ", ".join(map(str, again)), out[again[0]])
            md.request_update()
            _sleep_backoff(self._client, attempt, deadline)
            attempt += 1
            pending = again

    def describe_consumer_groups(self, groups: Iterable[str], *, timeout: float | None = None,
                                 include_authorized_operations: bool = False,
                                 classic: bool = False) -> dict[str, GroupDescription]:
        """{group id: GroupDescription}, as librdkafka describes groups: ConsumerGroupDescribe
        first (KIP-848: group_type "Consumer", members with their partitions), and DescribeGroups
        where the coordinator lacks it or answers that the group is not a consumer group
        (GROUP_ID_NOT_FOUND, UNSUPPORTED_VERSION): group_type "Classic", member assignments as
        their protocol's bytes.  A classic group nobody joined is described as state 'Dead'
        (Kafka's answer) or 'Empty'.  `classic`: DescribeGroups only."""
        deadline = self._deadline(timeout)
        out: dict[str, GroupDescription] = {}
        for group in groups:
            described = None if classic else self._describe_consumer_group(group, include_authorized_operations,
                                                                           deadline)
            out[group] = described or self._describe_classic_group(group, include_authorized_operations, deadline)
        return out

    def _describe_consumer_group(self, group: str, include_authorized_operations: bool,
                                 deadline: float) -> GroupDescription | None:
        """The group as ConsumerGroupDescribe answers it; None: ask DescribeGroups instead."""
        not_consumer = (Code.GROUP_ID_NOT_FOUND, Code.UNSUPPORTED_VERSION)

        def code(r: Any) -> int:
            c: int = r.groups[0].error_code if r.groups else Code.NONE
            return Code.NONE if c in not_consumer else c
        try:
            resp, node = self._coordinator_answer(
                "ConsumerGroupDescribe",
                lambda: m.ConsumerGroupDescribeRequest(group_ids=[group],
                                                       include_authorized_operations=include_authorized_operations),
                code, deadline, group=group)
        except E.UnsupportedVersionError:  # the coordinator has no ConsumerGroupDescribe
            return None
        g = next((g for g in resp.groups if g.group_id == group), None)
        if g is None or g.error_code in not_consumer:
            return None

        def partitions(a: Any) -> list[TopicPartition]:
            return sorted(TopicPartition(t.topic_name, p) for t in (a.topic_partitions if a else ()) for p in t.partitions)
        members = [GroupMember(x.member_id, x.instance_id, x.client_id, x.client_host, b"",
                               assigned=partitions(x.assignment), target=partitions(x.target_assignment))
                   for x in g.members]
        return GroupDescription(g.group_id, g.group_state, "consumer", g.assignor_name, members, node, "Consumer",
                                _operations(g.authorized_operations))

    def _describe_classic_group(self, group: str, include_authorized_operations: bool,
                                deadline: float) -> GroupDescription:
        resp, node = self._coordinator_answer(
            "DescribeGroups",
            lambda: m.DescribeGroupsRequest(groups=[group], include_authorized_operations=include_authorized_operations),
            lambda r: r.groups[0].error_code if r.groups else Code.NONE, deadline, group=group)
        g = next((g for g in resp.groups if g.group_id == group), None)
        if g is None:
            raise E.error_for(Code.GROUP_ID_NOT_FOUND, f"DescribeGroups: the answer does not describe group {group!r}")
        consumer = g.protocol_type == "consumer"  # only a consumer group's are ConsumerProtocolAssignment
        return GroupDescription(
            g.group_id, g.group_state, g.protocol_type, g.protocol_data,
            [GroupMember(x.member_id, x.group_instance_id, x.client_id, x.client_host,
                         bytes(x.member_assignment or b""), bytes(x.member_metadata or b""),
                         assigned=consumer_assignment(group, x.member_id, x.member_assignment) if consumer else None)
             for x in g.members],
            node, "Classic", _operations(g.authorized_operations))

    def delete_consumer_groups(self, groups: Iterable[str], *, timeout: float | None = None) -> None:
        """Delete each (empty) group and its offsets; NonEmptyGroupError while it has members."""
        deadline = self._deadline(timeout)
        for group in groups:
            self._coordinator_call("DeleteGroups",
                                   lambda g=group: m.DeleteGroupsRequest(groups_names=[g]),  # type: ignore[misc]
                                   lambda r: r.results[0].error_code if r.results else Code.NONE, deadline, group=group)

    def list_consumer_group_offsets(self, group: str, partitions: Iterable[TopicPartitionLike] | None = None, *,
                                    require_stable: bool = False,
                                    timeout: float | None = None) -> dict[TopicPartition, int | None]:
        """{TopicPartition: committed offset or None} of `group` for `partitions`
        ([(topic, partition)]; None: every partition it committed).  With
        `require_stable`, offsets a pending transaction commits are waited for."""
        deadline = self._deadline(timeout)
        by_topic = None if partitions is None else partitions_by_topic(partitions)
        body = OffsetFetch(group, by_topic, require_stable)
        got: FetchedOffsets = self._coordinator_call(
            "OffsetFetch", lambda: body, lambda r: next((c for c in r.codes() if c), Code.NONE), deadline, group=group)
        out: dict[TopicPartition, int | None] = (
            {} if partitions is None else {TopicPartition(*tp): None for tp in partitions})
        out.update((tp, offset) for tp, (offset, _) in got.partitions.items())
        return out

    def alter_consumer_group_offsets(self, group: str, offsets: Mapping[_TPKey, int], *,
                                     timeout: float | None = None,
                                     per_partition: bool = False) -> dict[TopicPartition, int] | None:
        """Commit {(topic, partition): offset} for `group` as an admin does (no member, no
        generation): the group must have no active members.  A partition the broker refuses raises
        its error; with `per_partition`, {TopicPartition: error code (0: committed)} is returned
        instead, as librdkafka reports them (only the coordinator's own errors are retried)."""
        deadline = self._deadline(timeout)
        by_topic: dict[str, list[tuple[int, int]]] = {}
        for pair, o in offsets.items():
            tp = TopicPartition(*pair)
            by_topic.setdefault(tp.topic, []).append((tp.partition, int(o)))
        T = m.OffsetCommitRequest.OffsetCommitRequestTopic
        P = m.OffsetCommitRequest.OffsetCommitRequestPartition
        topics = [T(name=t, partitions=[P(partition_index=p, committed_offset=o, committed_leader_epoch=-1,
                                          commit_timestamp=-1, committed_metadata="") for p, o in sorted(ps)])
                  for t, ps in by_topic.items()]
        def code(r: Any) -> int:
            first: int = next((p.error_code for t in r.topics for p in t.partitions if p.error_code), Code.NONE)
            return first if not per_partition or first in COORDINATOR_ERRORS else Code.NONE
        resp = self._coordinator_call(
            "OffsetCommit", lambda: m.OffsetCommitRequest(
                group_id=group, generation_id_or_member_epoch=-1, member_id="", group_instance_id=None,
                retention_time_ms=-1, topics=topics),
            code, deadline, group=group)
        if not per_partition:
            return None
        return {TopicPartition(t.name, p.partition_index): p.error_code for t in resp.topics for p in t.partitions}

    def delete_consumer_group_offsets(self, group: str, partitions: Iterable[TopicPartitionLike], *,
                                      timeout: float | None = None) -> None:
        """Forget `group`'s committed offsets of [(topic, partition)]
        (GroupSubscribedToTopicError while a member reads the topic)."""
        deadline = self._deadline(timeout)
        by_topic = partitions_by_topic(partitions)
        T = m.OffsetDeleteRequest.OffsetDeleteRequestTopic
        P = m.OffsetDeleteRequest.OffsetDeleteRequestPartition
        self._coordinator_call(
            "OffsetDelete", lambda: m.OffsetDeleteRequest(group_id=group, topics=[
                T(name=t, partitions=[P(partition_index=p) for p in sorted(ps)]) for t, ps in by_topic.items()]),
            lambda r: r.error_code or next((p.error_code for t in r.topics for p in t.partitions if p.error_code), Code.NONE),
            deadline, group=group)

    # -- share groups (KIP-932)

    def list_share_groups(self, *, timeout: float | None = None, states: Iterable[str] = ()) -> list[GroupListing]:
        """[GroupListing] of the share groups every broker coordinates (ListGroups v5+ with the
        type filter "Share"); `states`: "Empty", "Stable", "Dead"."""
        return self.list_consumer_groups(timeout=timeout, states=states, types=["Share"])

    def describe_share_groups(self, groups: Iterable[str], *, timeout: float | None = None,
                              include_authorized_operations: bool = False) -> dict[str, ShareGroupDescription]:
        """{group id: ShareGroupDescription} from each group's coordinator (ShareGroupDescribe);
        GroupIdNotFoundError for a group that is not a share group, UnsupportedVersionError
        from a broker that serves no share groups.  Delete a share group with
        delete_consumer_groups (DeleteGroups takes every kind of group)."""
        deadline = self._deadline(timeout)
        out: dict[str, ShareGroupDescription] = {}
        for group in groups:
            resp, node = self._coordinator_answer(
                "ShareGroupDescribe",
                lambda g=group: m.ShareGroupDescribeRequest(  # type: ignore[misc]
                    group_ids=[g], include_authorized_operations=include_authorized_operations),
                lambda r: r.groups[0].error_code if r.groups else Code.NONE, deadline, group=group)
            g = next((g for g in resp.groups if g.group_id == group), None)
            if g is None:
                raise E.error_for(Code.GROUP_ID_NOT_FOUND, f"ShareGroupDescribe: the answer does not describe "
                                                           f"group {group!r}")
            members = [ShareGroupMember(
                x.member_id, x.client_id, x.client_host, x.rack_id, x.member_epoch, list(x.subscribed_topic_names),
                sorted(TopicPartition(t.topic_name, p) for t in (x.assignment.topic_partitions if x.assignment else ())
                       for p in t.partitions)) for x in g.members]
            out[group] = ShareGroupDescription(g.group_id, g.group_state, g.group_epoch, g.assignment_epoch,
                                               g.assignor_name, members, node, _operations(g.authorized_operations))
        return out

    def list_share_group_offsets(self, group: str, partitions: Iterable[TopicPartitionLike] | None = None, *,
                                 timeout: float | None = None) -> dict[TopicPartition, ShareGroupOffset]:
        """{TopicPartition: ShareGroupOffset} of share group `group` for `partitions`
        ([(topic, partition)]; None: every partition the group has a position in), from
        DescribeShareGroupOffsets.  A partition's own error raises, naming it."""
        deadline = self._deadline(timeout)
        R = m.DescribeShareGroupOffsetsRequest
        topics = None
        if partitions is not None:
            by_topic: dict[str, list[int]] = {}
            for pair in partitions:
                tp = TopicPartition(*pair)
                by_topic.setdefault(tp.topic, []).append(tp.partition)
            topics = [R.DescribeShareGroupOffsetsRequestTopic(topic_name=t, partitions=sorted(ps))
                      for t, ps in by_topic.items()]
        body = R(groups=[R.DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=topics)])
        resp = self._coordinator_call("DescribeShareGroupOffsets", lambda: body,
                                      lambda r: r.groups[0].error_code if r.groups else Code.NONE, deadline, group=group)
        g = next((g for g in resp.groups if g.group_id == group), None)
        out: dict[TopicPartition, ShareGroupOffset] = {}
        for t in g.topics if g is not None else ():
            for p in t.partitions:
                tp = TopicPartition(t.topic_name, p.partition_index)
                if p.error_code:
                    raise E.error_for(p.error_code, f"share group {group!r} offset of {tp.topic} [{tp.partition}]"
                                      + (f": {p.error_message}" if p.error_message else ""))
                out[tp] = ShareGroupOffset(None if p.start_offset < 0 else p.start_offset,
                                           None if p.leader_epoch < 0 else p.leader_epoch,
                                           None if p.lag < 0 else p.lag)
        return out

    def alter_share_group_offsets(self, group: str, offsets: Mapping[_TPKey, int], *,
                                  timeout: float | None = None) -> None:
        """Set share group `group`'s start offset of each {(topic, partition): offset}
        (AlterShareGroupOffsets): records below it count as done.  The group must have no
        members; the first partition error raises, naming the partition."""
        deadline = self._deadline(timeout)
        R = m.AlterShareGroupOffsetsRequest
        by_topic: dict[str, list[tuple[int, int]]] = {}
        for pair, offset in offsets.items():
            tp = TopicPartition(*pair)
            by_topic.setdefault(tp.topic, []).append((tp.partition, int(offset)))
        body = R(group_id=group, topics=[R.AlterShareGroupOffsetsRequestTopic(topic_name=t, partitions=[
            R.AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=o) for p, o in sorted(ps)])
            for t, ps in by_topic.items()])
        resp = self._coordinator_call("AlterShareGroupOffsets", lambda: body, lambda r: r.error_code, deadline,
                                      group=group)
        for t in resp.responses:
            for p in t.partitions:
                if p.error_code:
                    raise E.error_for(p.error_code, f"share group {group!r} offset of {t.topic_name} "
                                      f"[{p.partition_index}]" + (f": {p.error_message}" if p.error_message else ""))

    def delete_share_group_offsets(self, group: str, topics: Iterable[str], *, timeout: float | None = None) -> None:
        """Forget share group `group`'s state of every partition of `topics`
        (DeleteShareGroupOffsets): reading them again starts as a new group would.  The group
        must have no members; the first topic error raises, naming the topic."""
        deadline = self._deadline(timeout)
        names = [topics] if isinstance(topics, str) else list(topics)
        R = m.DeleteShareGroupOffsetsRequest
        body = R(group_id=group, topics=[R.DeleteShareGroupOffsetsRequestTopic(topic_name=t) for t in names])
        resp = self._coordinator_call("DeleteShareGroupOffsets", lambda: body, lambda r: r.error_code, deadline,
                                      group=group)
        for t in resp.responses:
            if t.error_code:
                raise E.error_for(t.error_code, f"share group {group!r} offsets of topic {t.topic_name!r}"
                                  + (f": {t.error_message}" if t.error_message else ""))

    # -- configs

    def _config_node(self, resource: ConfigResource) -> int | None:
        """Broker configs are answered by that broker; topic configs by any."""
        return int(resource.name) if resource.resource_type == "broker" else None

    @staticmethod
    def _resource(given: tuple[str, str | int]) -> ConfigResource:
        resource = ConfigResource(*given)  # type: ignore[arg-type]  # a broker's name may be given as its id
        if resource.resource_type not in _RESOURCE_TYPES:
            raise E.InvalidArgumentError(f"config resource type must be 'topic' or 'broker', "
                                         f"not {resource.resource_type!r}")
        return ConfigResource(resource.resource_type, str(resource.name))

    def describe_configs(self, resources: Iterable[tuple[str, str | int]], *,
                         timeout: float | None = None) -> dict[ConfigResource, dict[str, ConfigEntry]]:
        """{ConfigResource: {name: ConfigEntry}} for [("topic", name) | ("broker", node id)]."""
        deadline = self._deadline(timeout)
        R = m.DescribeConfigsRequest.DescribeConfigsResource
        out: dict[ConfigResource, dict[str, ConfigEntry]] = {}
        for resource in map(self._resource, resources):
            body = m.DescribeConfigsRequest(resources=[R(
                resource_type=_RESOURCE_TYPES[resource.resource_type], resource_name=resource.name,
                configuration_keys=None)], include_synonyms=False, include_documentation=False)
            resp = self._call("DescribeConfigs", body, deadline - time.monotonic(), node=self._config_node(resource))
            for r in resp.results:
                if r.error_code:
                    raise E.error_for(r.error_code, f"describe configs of {resource.resource_type} {resource.name}: "
                                                    f"{r.error_message or ''}".rstrip(": "))
                # is_default is in v0 only; from v1 on a default is the source DEFAULT_CONFIG
                out[resource] = {c.name: ConfigEntry(c.name, c.value, c.read_only,
                                                     bool(c.is_default) or c.config_source == _DEFAULT_CONFIG,
                                                     _CONFIG_SOURCES.get(c.config_source, "unknown"),
                                                     c.is_sensitive) for c in r.configs}
        return out

    def incremental_alter_configs(self, changes: Mapping[tuple[str, str | int], Mapping[str, Any]], *,
                                  validate_only: bool = False, timeout: float | None = None) -> None:
        """Apply {ConfigResource: {name: (operation, value)}} where operation is 'set',
        'delete', 'append' or 'subtract' (a bare value means 'set')."""
        deadline = self._deadline(timeout)
        R = m.IncrementalAlterConfigsRequest.AlterConfigsResource
        C = m.IncrementalAlterConfigsRequest.AlterableConfig
        for given, configs in changes.items():
            resource = self._resource(given)
            entries = []
            for name, change in configs.items():
                op, value = change if isinstance(change, tuple) else ("set", change)
                if op not in _CONFIG_OPS:
                    raise E.InvalidArgumentError(f"config operation must be one of {sorted(_CONFIG_OPS)}, not {op!r}")
                entries.append(C(name=name, config_operation=_CONFIG_OPS[op],
                                 value=None if value is None else str(value)))
            body = m.IncrementalAlterConfigsRequest(resources=[R(
                resource_type=_RESOURCE_TYPES[resource.resource_type], resource_name=resource.name,
                configs=entries)], validate_only=validate_only)
            resp = self._call("IncrementalAlterConfigs", body, deadline - time.monotonic(),
                              node=self._config_node(resource))
            for r in resp.responses:
                if r.error_code:
                    raise E.error_for(r.error_code, f"alter configs of {resource.resource_type} {resource.name}: "
                                                    f"{r.error_message or ''}".rstrip(": "))

    def alter_configs(self, configs: Mapping[tuple[str, str | int], Mapping[str, Any]], *,
                      validate_only: bool = False, timeout: float | None = None) -> None:
        """Replace each resource's whole dynamic config with {name: value} (AlterConfigs,
        deprecated by Kafka for incremental_alter_configs: what is not given goes back to
        its default)."""
        deadline = self._deadline(timeout)
        R = m.AlterConfigsRequest.AlterConfigsResource
        C = m.AlterConfigsRequest.AlterableConfig
        for given, values in configs.items():
            resource = self._resource(given)
            body = m.AlterConfigsRequest(resources=[R(
                resource_type=_RESOURCE_TYPES[resource.resource_type], resource_name=resource.name,
                configs=[C(name=k, value=None if v is None else str(v)) for k, v in values.items()])],
                validate_only=validate_only)
            resp = self._call("AlterConfigs", body, deadline - time.monotonic(), node=self._config_node(resource))
            for r in resp.responses:
                if r.error_code:
                    raise E.error_for(r.error_code, f"alter configs of {resource.resource_type} {resource.name}: "
                                                    f"{r.error_message or ''}".rstrip(": "))

    # -- ACLs

    def create_acls(self, acls: Iterable[AclBinding], *,
                    timeout: float | None = None) -> list[E.KafkaError | None]:
        """Create each ACL (one CreateAcls request, to the controller); [None, or the
        broker's error for that ACL], in the order given."""
        given = list(acls)
        C = m.CreateAclsRequest.AclCreation
        creations = []
        for i, a in enumerate(given):
            if a.name is None or a.principal is None or a.host is None:
                raise E.InvalidArgumentError(f"acls[{i}]: an ACL to create names its resource, principal and host "
                                             f"(None only matches in filters): {a}")
            creations.append(C(resource_type=a.resource_type, resource_name=a.name,
                               resource_pattern_type=a.pattern_type, principal=a.principal, host=a.host,
                               operation=a.operation, permission_type=a.permission_type))
        body = m.CreateAclsRequest(creations=creations)
        resp = self._call("CreateAcls", body, timeout, to_controller=True)
        if len(resp.results) != len(given):
            raise E.error_for(Code.UNKNOWN_SERVER_ERROR, f"CreateAcls: the broker answered for "
                                                         f"{len(resp.results)} of {len(given)} ACLs")
        return [E.error_for(r.error_code, r.error_message or "") if r.error_code else None for r in resp.results]

    def describe_acls(self, acl_filter: AclBinding, *, timeout: float | None = None) -> list[AclBinding]:
        """The ACLs `acl_filter` matches (None fields and ANY members match anything,
        pattern MATCH also what a prefixed or wildcard ACL covers)."""
        f = acl_filter
        resp = self._call("DescribeAcls", m.DescribeAclsRequest(
            resource_type_filter=f.resource_type, resource_name_filter=f.name, pattern_type_filter=f.pattern_type,
            principal_filter=f.principal, host_filter=f.host, operation=f.operation,
            permission_type=f.permission_type), timeout, to_controller=True)
        if resp.error_code:
            raise E.error_for(resp.error_code, f"DescribeAcls: {resp.error_message or ''}".rstrip(": "))
        return [_acl(r.resource_type, r.resource_name, r.pattern_type, a.principal, a.host, a.operation,
                     a.permission_type) for r in resp.resources for a in r.acls]

    def delete_acls(self, filters: Iterable[AclBinding], *,
                    timeout: float | None = None) -> list[list[AclBinding] | E.KafkaError]:
        """Delete the ACLs each filter matches (one DeleteAcls request, to the controller);
        [the ACLs a filter deleted, or the broker's error for it], in the order given."""
        given = list(filters)
        F = m.DeleteAclsRequest.DeleteAclsFilter
        resp = self._call("DeleteAcls", m.DeleteAclsRequest(filters=[F(
            resource_type_filter=f.resource_type, resource_name_filter=f.name, pattern_type_filter=f.pattern_type,
            principal_filter=f.principal, host_filter=f.host, operation=f.operation,
            permission_type=f.permission_type) for f in given]), timeout, to_controller=True)
        if len(resp.filter_results) != len(given):
            raise E.error_for(Code.UNKNOWN_SERVER_ERROR, f"DeleteAcls: the broker answered for "
                                                         f"{len(resp.filter_results)} of {len(given)} filters")
        out: list[list[AclBinding] | E.KafkaError] = []
        for r in resp.filter_results:
            if r.error_code:
                out.append(E.error_for(r.error_code, r.error_message or ""))
                continue
            out.append([_acl(a.resource_type, a.resource_name, a.pattern_type, a.principal, a.host, a.operation,
                             a.permission_type) for a in r.matching_acls])
        return out

    # -- SCRAM credentials

    def describe_user_scram_credentials(self, users: Iterable[str] | None = None, *, timeout: float | None = None
                                        ) -> dict[str, list[ScramCredentialInfo] | E.KafkaError]:
        """{user: [ScramCredentialInfo], or the broker's error for that user (RESOURCE_NOT_FOUND:
        none)} for `users`, or for every user with a credential (None).  Only the users the
        broker's answer names are in it."""
        U = m.DescribeUserScramCredentialsRequest.UserName
        resp = self._call("DescribeUserScramCredentials", m.DescribeUserScramCredentialsRequest(
            users=None if users is None else [U(name=u) for u in users]), timeout)
        if resp.error_code:
            raise E.error_for(resp.error_code, f"DescribeUserScramCredentials: {resp.error_message or ''}".rstrip(": "))
        out: dict[str, list[ScramCredentialInfo] | E.KafkaError] = {}
        for r in resp.results:
            if r.error_code:
                out[r.user] = E.error_for(r.error_code, r.error_message or f"SCRAM credentials of {r.user!r}")
            else:
                out[r.user] = [ScramCredentialInfo(_enum(ScramMechanism, c.mechanism), c.iterations)
                               for c in r.credential_infos]
        return out

    def alter_user_scram_credentials(self, alterations: Iterable[ScramUpsertion | ScramDeletion], *,
                                     timeout: float | None = None) -> dict[str, E.KafkaError | None]:
        """Set (ScramUpsertion) or remove (ScramDeletion) SCRAM credentials, in one request
        to the controller; {user: None, or the broker's error for that user}."""
        D = m.AlterUserScramCredentialsRequest.ScramCredentialDeletion
        U = m.AlterUserScramCredentialsRequest.ScramCredentialUpsertion
        deletions, upsertions = [], []
        for a in alterations:
            if isinstance(a, ScramDeletion):
                deletions.append(D(name=a.user, mechanism=a.mechanism))
                continue
            algorithm = _SCRAM_HASHES.get(a.mechanism)
            if algorithm is None:
                raise E.InvalidArgumentError(f"SCRAM credential of {a.user!r}: mechanism must be SCRAM_SHA_256 or "
                                             f"SCRAM_SHA_512, not {a.mechanism!r}")
            salt = os.urandom(64) if a.salt is None else bytes(a.salt)
            # RFC 5802's SaltedPassword, what the broker stores
            salted = hashlib.pbkdf2_hmac(algorithm, bytes(a.password), salt, a.iterations)
            upsertions.append(U(name=a.user, mechanism=a.mechanism, iterations=a.iterations, salt=salt,
                                salted_password=salted))
        resp = self._call("AlterUserScramCredentials",
                          m.AlterUserScramCredentialsRequest(deletions=deletions, upsertions=upsertions), timeout,
                          to_controller=True)
        return {r.user: E.error_for(r.error_code, r.error_message or f"SCRAM credentials of {r.user!r}")
                if r.error_code else None for r in resp.results}

    # -- leaders

    def elect_leaders(self, election_type: ElectionType | int,
                      partitions: Iterable[TopicPartitionLike] | None = None, *,
                      timeout: float | None = None) -> dict[TopicPartition, E.KafkaError | None]:
        """Elect leaders (the preferred replica, or any in-sync or not for UNCLEAN) of
        `partitions`, or of every partition that needs one (None); {TopicPartition: None,
        or the broker's error for it (ELECTION_NOT_NEEDED included)}."""
        deadline = self._deadline(timeout)
        by_topic = None if partitions is None else partitions_by_topic(partitions)
        T = m.ElectLeadersRequest.TopicPartitions
        body = m.ElectLeadersRequest(
            election_type=ElectionType(election_type),
            topic_partitions=None if by_topic is None else [T(topic=t, partitions=sorted(ps))
                                                            for t, ps in by_topic.items()],
            timeout_ms=int(max(1.0, deadline - time.monotonic()) * 1000))
        resp = self._call("ElectLeaders", body, deadline - time.monotonic(), to_controller=True)
        if resp.error_code:
            raise E.error_for(resp.error_code, "ElectLeaders")
        return {TopicPartition(r.topic, p.partition_id):
                E.error_for(p.error_code, p.error_message or f"leader election of {r.topic}[{p.partition_id}]")
                if p.error_code else None
                for r in resp.replica_election_results for p in r.partition_result}

    # -- transactions of other producers

    def end_transaction(self, transactional_id: str, producer_id: int, producer_epoch: int, committed: bool, *,
                        timeout: float | None = None) -> None:
        """EndTxn (commit or abort) of a transaction another producer prepared
        (Producer.prepare_transaction); ProducerFencedError: it is gone with that epoch."""
        transaction.end_transaction(self._client, transactional_id, producer_id, producer_epoch, committed,
                                    timeout=self._timeout if timeout is None else timeout)

    def fence_transactional_id(self, transactional_id: str, *, transaction_timeout_ms: int = 60000,
                               timeout: float | None = None) -> tuple[int, int]:
        """Fence older producers with `transactional_id` and abort what they left open,
        as a new producer's InitProducerId does; returns (producer id, epoch)."""
        return transaction.fence_transactional_id(self._client, transactional_id,
                                                  transaction_timeout_ms=transaction_timeout_ms,
                                                  timeout=self._timeout if timeout is None else timeout)
