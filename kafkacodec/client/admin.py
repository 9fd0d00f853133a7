"""A small admin surface: create/delete topics, list offsets, describe the cluster.

    admin = Admin({"bootstrap.servers": "127.0.0.1:9092"})
    admin.create_topics({"events": 4})
    admin.list_offsets({("events", 0): "earliest", ("events", 1): 1_700_000_000_000})
    admin.close()

Calls block the calling thread (the requests run on the client's I/O thread),
retry retriable broker errors after a metadata refresh, and raise
KafkaTimeoutError once ``timeout`` (default ``default.api.timeout.ms``) is spent.
"""
import time
from collections import namedtuple

from kafkacodec.protocol import messages as m
from kafkacodec.client import errors as E
from kafkacodec.client._backoff import backoff
from kafkacodec.client.config import ADMIN, resolve
from kafkacodec.client.network import NetworkClient

__all__ = ["Admin", "TopicPartition", "OffsetAndTimestamp", "ClusterDescription", "list_offsets",
           "EARLIEST", "LATEST"]

TopicPartition = namedtuple("TopicPartition", "topic partition")
OffsetAndTimestamp = namedtuple("OffsetAndTimestamp", "offset timestamp leader_epoch")
ClusterDescription = namedtuple("ClusterDescription", "cluster_id controller_id brokers")

EARLIEST = -2
LATEST = -1
LIST_OFFSETS_MAX_VERSION = 7
_SPEC = {"earliest": EARLIEST, "latest": LATEST}


def _timestamp_of(spec):
    if isinstance(spec, str):
        try:
            return _SPEC[spec.lower()]
        except KeyError:
            raise ValueError(f"offset spec must be 'earliest', 'latest' or a timestamp in ms, got {spec!r}") from None
    if isinstance(spec, bool) or not isinstance(spec, int):
        raise ValueError(f"offset spec must be 'earliest', 'latest' or a timestamp in ms, got {spec!r}")
    return spec


def _sleep_backoff(client, attempt, deadline):
    conf = client.conf
    pause = backoff(conf["retry.backoff.ms"], conf["retry.backoff.max.ms"], attempt + 1) / 1000
    time.sleep(max(0.0, min(pause, deadline - time.monotonic())))


def answer_by(future, deadline):
    """A request's answer, waited for until `deadline` (time.monotonic()) and a
    second more for the I/O thread's own timeout to fire first."""
    try:
        return future.result(max(0.0, deadline - time.monotonic()) + 1.0)
    except E.KafkaError:
        raise
    except TimeoutError:
        raise E.KafkaTimeoutError("no answer before the deadline") from None


def list_offsets(client, specs, timeout, isolation_level=0):
    """{TopicPartition: OffsetAndTimestamp} for {(topic, partition): "earliest" | "latest" | ms}.

    A timestamp finds the first offset whose timestamp is at or after it; when
    there is none the answer is OffsetAndTimestamp(None, None, None) (Kafka's -1).
    """
    deadline = time.monotonic() + timeout
    pending = {TopicPartition(*tp): _timestamp_of(spec) for tp, spec in specs.items()}
    client.metadata.add_topics({tp.topic for tp in pending})
    out = {}
    attempt = 0
    last_error = None
    while pending:
        def leaders_known(md):
            return all(md.leader_for(tp.topic, tp.partition) is not None for tp in pending)
        try:
            client.metadata.wait_for(leaders_known, max(0.0, deadline - time.monotonic()),
                                     f"leaders of {sorted(pending)}")
        except E.KafkaTimeoutError:
            if last_error is not None:
                raise E.KafkaTimeoutError(f"list offsets: {last_error}") from last_error
            raise
        by_leader = {}
        for tp, ts in pending.items():
            by_leader.setdefault(client.metadata.leader_for(tp.topic, tp.partition), {}).setdefault(
                tp.topic, []).append((tp.partition, ts))
        futures = []
        for leader, topics in by_leader.items():
            body = m.ListOffsetsRequest(replica_id=-1, isolation_level=isolation_level, topics=[
                m.ListOffsetsRequest.ListOffsetsTopic(name=topic, partitions=[
                    m.ListOffsetsRequest.ListOffsetsPartition(
                        partition_index=p, timestamp=ts, max_num_offsets=1) for p, ts in parts])
                for topic, parts in topics.items()])
            futures.append(client.send(leader, "ListOffsets", body, max_version=LIST_OFFSETS_MAX_VERSION,
                                       timeout=min(client.conf["request.timeout.ms"] / 1000,
                                                   max(0.1, deadline - time.monotonic()))))
        retry = False
        for future in futures:
            try:
                resp = answer_by(future, deadline)
            except E.KafkaError as exc:
                if not exc.retriable:
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


class Admin:
    def __init__(self, config=None, **settings):
        self.conf = resolve(config, settings, ADMIN, "admin")
        self._client = NetworkClient(self.conf, name="kafkacodec-admin-io")
        self._timeout = self.conf["default.api.timeout.ms"] / 1000

    @property
    def client(self):
        return self._client

    def close(self):
        self._client.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _controller(self, deadline):
        md = self._client.metadata
        md.wait_for(lambda md: md.brokers, max(0.0, deadline - time.monotonic()), "cluster metadata")
        return md.controller_id if md.controller_id in md.brokers else None

    def _call(self, api, body, timeout, *, to_controller=False, max_version=None):
        """Send with retries on retriable request-level failures; returns the response."""
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        attempt = 0
        while True:
            node = self._controller(deadline) if to_controller else None
            future = self._client.send(node, api, body, max_version=max_version,
                                       timeout=max(0.1, min(self.conf["request.timeout.ms"] / 1000,
                                                            deadline - time.monotonic())))
            try:
                return answer_by(future, deadline)
            except E.KafkaError as exc:
                if not exc.retriable or time.monotonic() >= deadline:
                    raise
            self._client.metadata.request_update()
            _sleep_backoff(self._client, attempt, deadline)
            attempt += 1

    def describe_cluster(self, timeout=None):
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        md = self._client.metadata
        md.wait_for_update(max(0.0, deadline - time.monotonic()))
        return ClusterDescription(md.cluster_id, md.controller_id, sorted(md.brokers.values()))

    def list_topics(self, timeout=None):
        """{topic: number of partitions} of every topic in the cluster."""
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        md = self._client.metadata
        md.want_all_topics(True)
        try:
            md.wait_for_update(max(0.0, deadline - time.monotonic()))
            return {name: len(t.partitions) for name, t in md.topics.items()}
        finally:
            md.want_all_topics(False)

    def create_topics(self, topics, *, replication_factor=1, configs=None, timeout=None, wait=True):
        """Create {name: partitions}; raises the broker's error for a topic that fails
        (TopicAlreadyExistsError included).  With `wait`, returns once metadata shows
        a leader for every partition."""
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        CT = m.CreateTopicsRequest.CreatableTopic
        body = m.CreateTopicsRequest(timeout_ms=int(max(1.0, deadline - time.monotonic()) * 1000), topics=[
            CT(name=name, num_partitions=int(parts), replication_factor=replication_factor,
               configs=[CT.CreatableTopicConfig(name=k, value=str(v)) for k, v in (configs or {}).items()])
            for name, parts in topics.items()])
        resp = self._call("CreateTopics", body, deadline - time.monotonic(), to_controller=True)
        for t in resp.topics:
            if t.error_code:
                raise E.error_for(t.error_code, f"create topic {t.name}: {t.error_message or ''}".rstrip(": "))
        if wait:
            md = self._client.metadata
            md.add_topics(topics)
            md.wait_for(lambda md: all(
                name in md.topics and len(md.topics[name].partitions) == int(parts)
                and all(p.leader >= 0 for p in md.topics[name].partitions.values())
                for name, parts in topics.items()), max(0.0, deadline - time.monotonic()),
                f"leaders of new topics {sorted(topics)}")

    def delete_topics(self, names, *, timeout=None):
        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        names = list(names)
        body = m.DeleteTopicsRequest(
            topic_names=names, topics=[m.DeleteTopicsRequest.DeleteTopicState(name=n) for n in names],
            timeout_ms=int(max(1.0, deadline - time.monotonic()) * 1000))
        resp = self._call("DeleteTopics", body, deadline - time.monotonic(), to_controller=True)
        for t in resp.responses:
            if t.error_code:
                raise E.error_for(t.error_code, f"delete topic {t.name}: {t.error_message or ''}".rstrip(": "))
        self._client.metadata.request_update()

    def list_offsets(self, specs, *, isolation_level="read_uncommitted", timeout=None):
        level = 1 if isolation_level in ("read_committed", 1) else 0
        return list_offsets(self._client, specs, self._timeout if timeout is None else timeout, level)
