"""The protocol layer against real brokers started by the tests.

Brokers: librdkafka's mock cluster and Tansu (see tests/_peers.py).  Results
are checked against confluent-kafka's view of the same cluster.
"""
import time
import uuid

import pytest

from kafkacodec.protocol import messages as m
from kafkacodec.protocol.client import KafkaConnection

from protocol_helpers import build_batch, read_batches

_peers = pytest.importorskip("_peers", reason="tests/_peers.py (broker launchers) not available")
confluent_kafka = pytest.importorskip("confluent_kafka")
import confluent_kafka.admin  # noqa: E402  (AdminClient lives in a submodule)

pytestmark = pytest.mark.broker

TOPIC = "kc-proto"
PARTITIONS = 3


# AddPartitionsToTxn v4+ is the broker-to-broker form; clients stop at v3.
CLIENT_CAPS = {24: 3}
# librdkafka's mock cluster advertises JoinGroup v6 and SyncGroup v4 but closes
# the connection on them (our JoinGroup v6 bytes equal kafka-python 3's), and
# answers LeaveGroup v3+ with a null `members` array, which the spec forbids.
MOCK_CAPS = {11: 5, 14: 3, 13: 2}


def _connect(bootstrap, kind):
    # librdkafka's mock cluster pads some responses with a trailing byte
    conn = KafkaConnection.connect(bootstrap, timeout=10, strict=(kind != "mock"))
    conn.kind = kind
    caps = {**CLIENT_CAPS, **(MOCK_CAPS if kind == "mock" else {})}
    for key, cap in caps.items():
        if key in conn.versions:
            conn.versions[key] = min(conn.versions[key], cap)
    return conn


def _create_topic(conn, name, partitions):
    CT = m.CreateTopicsRequest
    resp = conn.request("CreateTopics", CT(timeout_ms=10000, topics=[
        CT.CreatableTopic(name=name, num_partitions=partitions, replication_factor=1)]))
    return resp.topics[0]


def start_mock(topics, brokers=1):
    """mock_cluster with (name, partitions) topics, whichever spelling tests/_peers.py accepts."""
    for arg in (list(topics), dict(topics), [name for name, _ in topics]):
        try:
            if brokers != 1:
                return _peers.mock_cluster(brokers, topics=arg)
            return _peers.mock_cluster(topics=arg)
        except (TypeError, ValueError):
            continue
    raise RuntimeError("cannot call mock_cluster")


_LEADERS = {}  # (host, port) -> connection, closed when the broker fixture ends


def _leader(conn, topic, partition):
    """A connection to the partition's leader (mock clusters may have several brokers)."""
    md, t = _partition_metadata(conn, topic)
    (p,) = [p for p in t.partitions if p.partition_index == partition]
    (b,) = [b for b in md.brokers if b.node_id == p.leader_id]
    if (b.host, b.port) == conn.sock.getpeername()[:2]:
        return conn
    key = (b.host, b.port)
    if key not in _LEADERS:
        _LEADERS[key] = _connect(f"{b.host}:{b.port}", conn.kind)
    return _LEADERS[key]


@pytest.fixture(scope="module", params=["mock", "mock3", "tansu"])
def broker(request):
    kind = request.param
    if kind == "tansu":
        cm = _peers.tansu_broker()
    else:  # mock3: three brokers, so leaders and coordinators are spread out
        cm = start_mock([(TOPIC, PARTITIONS)], brokers=3 if kind == "mock3" else 1)
        kind = "mock"
    with cm as bootstrap:
        if kind == "tansu":
            with _connect(bootstrap, kind) as conn:
                assert _create_topic(conn, TOPIC, PARTITIONS).error_code == 0
        try:
            yield kind, bootstrap
        finally:
            for c in _LEADERS.values():
                c.close()
            _LEADERS.clear()


def _admin(bootstrap):
    return confluent_kafka.admin.AdminClient({"bootstrap.servers": bootstrap})


def _partition_metadata(conn, topic):
    md = conn.request("Metadata", m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name=topic)]))
    (t,) = md.topics
    assert t.error_code == 0, t
    return md, t


def test_api_versions_and_metadata(broker):
    kind, bootstrap = broker
    with _connect(bootstrap, kind) as conn:
        assert conn.api_versions.error_code == 0
        if kind == "mock":
            # the mock stops at ApiVersions v2: it refuses our v4 with UNSUPPORTED_VERSION in a
            # layout that lists no versions, so the client falls back to v0
            assert conn.api_versions_version == 0
        for key in (0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 18, 22, 24, 26):
            assert key in conn.versions, key
        md, topic = _partition_metadata(conn, TOPIC)
    cmd = _admin(bootstrap).list_topics(timeout=10)
    assert TOPIC in cmd.topics
    assert sorted(p.partition_index for p in topic.partitions) == sorted(cmd.topics[TOPIC].partitions)
    assert {b.node_id for b in md.brokers} == set(cmd.brokers)
    for p in topic.partitions:
        assert p.leader_id == cmd.topics[TOPIC].partitions[p.partition_index].leader


def test_api_versions_every_version(broker):
    kind, bootstrap = broker
    with _connect(bootstrap, kind) as conn:
        top = conn.versions[18]
        for v in range(top + 1):
            resp = conn.request("ApiVersions", m.ApiVersionsRequest(
                client_software_name="kafkacodec", client_software_version="1"), version=v)
            assert resp.error_code == 0 and any(e.api_key == 3 for e in resp.api_keys)


def test_create_topics(broker):
    kind, bootstrap = broker
    if kind == "mock":
        pytest.skip("librdkafka's mock cluster has no CreateTopics")
    name = f"kc-created-{uuid.uuid4().hex[:8]}"
    with _connect(bootstrap, kind) as conn:
        created = _create_topic(conn, name, 2)
        assert created.error_code == 0 and created.name == name
        again = _create_topic(conn, name, 2)
        assert again.error_code == 36  # TOPIC_ALREADY_EXISTS
    md = _admin(bootstrap).list_topics(timeout=10)
    assert len(md.topics[name].partitions) == 2


def _produce(conn, topic, partition, batch, acks=-1, transactional_id=None):
    P = m.ProduceRequest
    conn = _leader(conn, topic, partition)
    resp = conn.request("Produce", P(transactional_id=transactional_id, acks=acks, timeout_ms=10000, topic_data=[
        P.TopicProduceData(name=topic, partition_data=[P.PartitionProduceData(index=partition, records=batch)])]))
    if resp is None:
        return None
    (t,) = resp.responses
    (p,) = t.partition_responses
    return p


def _list_offset(conn, topic, partition, timestamp):
    L = m.ListOffsetsRequest
    conn = _leader(conn, topic, partition)
    resp = conn.request("ListOffsets", L(replica_id=-1, topics=[
        L.ListOffsetsTopic(name=topic, partitions=[L.ListOffsetsPartition(partition_index=partition, timestamp=timestamp)])]))
    (t,) = resp.topics
    (p,) = t.partitions
    assert p.error_code == 0, p
    return p.offset


def _fetch(conn, topic, topic_id, partition, offset):
    F = m.FetchRequest
    req = F(replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=1 << 20, isolation_level=0,
            topics=[F.FetchTopic(topic=topic, topic_id=topic_id, partitions=[
                F.FetchPartition(partition=partition, fetch_offset=offset, partition_max_bytes=1 << 20)])])
    resp = _leader(conn, topic, partition).request("Fetch", req)
    assert resp.error_code == 0
    (t,) = resp.responses
    (p,) = t.partitions
    assert p.error_code == 0, p
    return p


def _fetch_all(conn, topic, topic_id, partition, offset):
    """Fetch from offset up to the high watermark (some brokers answer one batch at a time)."""
    out = []
    while True:
        p = _fetch(conn, topic, topic_id, partition, offset)
        assert isinstance(p.records, memoryview)
        batches = read_batches(p.records)
        for base, _pid, control, recs in batches:
            if not control:
                out.extend((base + i, k, v) for i, (k, v) in enumerate(recs))
            offset = base + len(recs)
        if not batches or offset >= p.high_watermark:
            return out, p.high_watermark


def _watermarks(bootstrap, topic, partition):
    c = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": "kc-watermarks"})
    try:
        return c.get_watermark_offsets(confluent_kafka.TopicPartition(topic, partition), timeout=10, cached=False)
    finally:
        c.close()


def _consume(bootstrap, topic, partition, count, isolation="read_uncommitted"):
    c = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                                  "enable.auto.commit": False, "isolation.level": isolation})
    try:
        c.assign([confluent_kafka.TopicPartition(topic, partition, 0)])
        out = []
        deadline = time.monotonic() + 15
        while len(out) < count and time.monotonic() < deadline:
            msg = c.poll(0.5)
            if msg is not None and not msg.error():
                out.append((msg.offset(), msg.key(), msg.value()))
        return out
    finally:
        c.close()


def test_produce_fetch_list_offsets(broker):
    kind, bootstrap = broker
    part = 1
    with _connect(bootstrap, kind) as conn:
        _, topic = _partition_metadata(conn, TOPIC)
        _, start = _fetch_all(conn, TOPIC, topic.topic_id, part, 0)
        ours = [(b"k%d" % i, b"value-%d" % i) for i in range(5)]
        p = _produce(conn, TOPIC, part, build_batch(ours))
        assert p.error_code == 0 and p.base_offset == start
        # confluent-kafka reads what kafkacodec wrote
        seen = _consume(bootstrap, TOPIC, part, start + 5)
        assert [(k, v) for _, k, v in seen][start:start + 5] == ours
        # and kafkacodec reads what confluent-kafka wrote
        prod = confluent_kafka.Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
        theirs = [(b"ck%d" % i, b"from-librdkafka-%d" % i) for i in range(7)]
        for k, v in theirs:
            prod.produce(TOPIC, key=k, value=v, partition=part)
        assert prod.flush(15) == 0
        got, high = _fetch_all(conn, TOPIC, topic.topic_id, part, start)
        assert high == start + 12
        assert [(k, v) for _, k, v in got] == ours + theirs
        assert [o for o, _, _ in got] == list(range(start, start + 12))
        # ListOffsets agrees with what librdkafka's watermark query gets from the broker
        # (Tansu 0.6 answers "latest" with last batch base offset + 1 to both).
        low, wm_high = _watermarks(bootstrap, TOPIC, part)
        assert _list_offset(conn, TOPIC, part, -2) == low == 0
        assert _list_offset(conn, TOPIC, part, -1) == wm_high
        if kind == "mock":
            assert wm_high == high


def test_produce_acks_zero_expects_no_response(broker):
    kind, bootstrap = broker
    with _connect(bootstrap, kind) as conn:
        _, topic = _partition_metadata(conn, TOPIC)
        _, before = _fetch_all(conn, TOPIC, topic.topic_id, 2, 0)
        assert _produce(conn, TOPIC, 2, build_batch([(None, b"fire-and-forget")]), acks=0) is None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            got, high = _fetch_all(conn, TOPIC, topic.topic_id, 2, before)
            if got:
                break
            time.sleep(0.1)
        assert [(k, v) for _, k, v in got] == [(None, b"fire-and-forget")] and high == before + 1


def _coordinator(conn, key, key_type, bootstrap, kind):
    version = conn.versions[10]
    FC = m.FindCoordinatorRequest
    if version >= 4:
        resp = conn.request("FindCoordinator", FC(key_type=key_type, coordinator_keys=[key]))
        (c,) = resp.coordinators
        assert c.error_code == 0, c
        node, host, port = c.node_id, c.host, c.port
    else:
        resp = conn.request("FindCoordinator", FC(key=key, key_type=key_type))
        assert resp.error_code == 0, resp
        node, host, port = resp.node_id, resp.host, resp.port
    # confluent-kafka knows the coordinator as one of the cluster's brokers
    brokers = _admin(bootstrap).list_topics(timeout=10).brokers
    assert (brokers[node].host, brokers[node].port) == (host, port)
    coord = _connect(f"{host}:{port}", kind)
    coord.node_id = node
    return coord


def _describe_group(bootstrap, group):
    """confluent-kafka's description of a group, or None where the broker lacks DescribeGroups."""
    admin = _admin(bootstrap)  # the client must outlive its futures
    futures = admin.describe_consumer_groups([group], request_timeout=10)
    try:
        return futures[group].result(10)
    except confluent_kafka.KafkaException as exc:
        if exc.args[0].code() == confluent_kafka.KafkaError._UNSUPPORTED_FEATURE:
            return None  # librdkafka's mock cluster
        raise


def test_group_lifecycle(broker):
    kind, bootstrap = broker
    group = f"kc-group-{uuid.uuid4().hex[:6]}"
    with _connect(bootstrap, kind) as conn, _coordinator(conn, group, 0, bootstrap, kind) as coord:
        sub = m.ConsumerProtocolSubscription(topics=[TOPIC])
        from kafkacodec.protocol import decode_versioned, encode_versioned
        J = m.JoinGroupRequest
        join = J(group_id=group, session_timeout_ms=10000, rebalance_timeout_ms=10000, member_id="",
                 protocol_type="consumer",
                 protocols=[J.JoinGroupRequestProtocol(name="range", metadata=encode_versioned(sub, 1))])
        resp = coord.request("JoinGroup", join)
        if resp.error_code == 79:  # MEMBER_ID_REQUIRED: rejoin with the assigned id
            join.member_id = resp.member_id
            resp = coord.request("JoinGroup", join)
        assert resp.error_code == 0, resp
        member, generation = resp.member_id, resp.generation_id
        assert resp.leader == member and resp.protocol_name == "range"
        assert decode_versioned("ConsumerProtocolSubscription", resp.members[0].metadata)[1].topics == [TOPIC]
        A = m.ConsumerProtocolAssignment
        assignment = A(assigned_partitions=[A.TopicPartition(topic=TOPIC, partitions=list(range(PARTITIONS)))])
        S = m.SyncGroupRequest
        sync = coord.request("SyncGroup", S(group_id=group, generation_id=generation, member_id=member,
                                            protocol_type="consumer", protocol_name="range",
                                            assignments=[S.SyncGroupRequestAssignment(
                                                member_id=member, assignment=encode_versioned(assignment, 1))]))
        assert sync.error_code == 0, sync
        _, got = decode_versioned("ConsumerProtocolAssignment", sync.assignment)
        assert got.assigned_partitions[0].partitions == [0, 1, 2]
        hb = coord.request("Heartbeat", m.HeartbeatRequest(group_id=group, generation_id=generation,
                                                           member_id=member))
        assert hb.error_code == 0
        OC = m.OffsetCommitRequest
        commit = coord.request("OffsetCommit", OC(group_id=group, generation_id_or_member_epoch=generation,
                                                  member_id=member, topics=[OC.OffsetCommitRequestTopic(
                                                      name=TOPIC, partitions=[OC.OffsetCommitRequestPartition(
                                                          partition_index=0, committed_offset=3,
                                                          committed_metadata="kc")])]))
        assert commit.topics[0].partitions[0].error_code == 0
        OF = m.OffsetFetchRequest
        if conn.versions[9] >= 8:
            fetch = coord.request("OffsetFetch", OF(groups=[OF.OffsetFetchRequestGroup(
                group_id=group, topics=[OF.OffsetFetchRequestTopics(name=TOPIC, partition_indexes=[0])])]))
            part = fetch.groups[0].topics[0].partitions[0]
        else:
            fetch = coord.request("OffsetFetch", OF(group_id=group, topics=[
                OF.OffsetFetchRequestTopic(name=TOPIC, partition_indexes=[0])]))
            part = fetch.topics[0].partitions[0]
        assert (part.error_code, part.committed_offset) == (0, 3)
        # Tansu 0.6 does not keep commit metadata
        assert part.metadata == ("kc" if kind == "mock" else part.metadata)
        # confluent-kafka sees the same committed offset, as a consumer and as an admin
        c = confluent_kafka.Consumer({"bootstrap.servers": bootstrap, "group.id": group})
        try:
            (tp,) = c.committed([confluent_kafka.TopicPartition(TOPIC, 0)], timeout=10)
            assert tp.offset == 3
        finally:
            c.close()
        admin = _admin(bootstrap)  # the client must outlive its futures
        listed = admin.list_consumer_group_offsets([confluent_kafka.ConsumerGroupTopicPartitions(
            group, [confluent_kafka.TopicPartition(TOPIC, 0)])])[group].result(10)
        assert [(tp.partition, tp.offset) for tp in listed.topic_partitions] == [(0, 3)]
        # and the group's coordinator, state and member (Tansu; the mock has no DescribeGroups)
        described = _describe_group(bootstrap, group)
        if described is not None:
            assert described.coordinator.id == coord.node_id
            assert described.state == confluent_kafka.ConsumerGroupState.STABLE
            # librdkafka leaves out members whose metadata Tansu sends back empty; ours lists them
            ours = coord.request("DescribeGroups", m.DescribeGroupsRequest(groups=[group])).groups[0]
            assert (ours.error_code, ours.group_state) == (0, "Stable")
            assert [mb.member_id for mb in ours.members] == [member]
        L = m.LeaveGroupRequest
        if coord.versions[13] >= 3:
            leave = coord.request("LeaveGroup", L(group_id=group, members=[L.MemberIdentity(member_id=member)]))
        else:
            leave = coord.request("LeaveGroup", L(group_id=group, member_id=member))
        assert leave.error_code == 0
        described = _describe_group(bootstrap, group)
        if described is not None:
            assert described.state == confluent_kafka.ConsumerGroupState.EMPTY and not described.members


def test_transaction(broker):
    kind, bootstrap = broker
    txn = f"kc-txn-{uuid.uuid4().hex[:6]}"
    part = 0
    with _connect(bootstrap, kind) as conn, _coordinator(conn, txn, 1, bootstrap, kind) as coord:
        init = coord.request("InitProducerId", m.InitProducerIdRequest(
            transactional_id=txn, transaction_timeout_ms=30000))
        assert init.error_code == 0, init
        pid, epoch = init.producer_id, init.producer_epoch
        assert pid >= 0
        AP = m.AddPartitionsToTxnRequest
        if coord.versions[24] >= 4:
            add = coord.request("AddPartitionsToTxn", AP(transactions=[AP.AddPartitionsToTxnTransaction(
                transactional_id=txn, producer_id=pid, producer_epoch=epoch, verify_only=False,
                topics=[AP.AddPartitionsToTxnTopic(name=TOPIC, partitions=[part])])]))
            assert add.error_code == 0
            errs = [p.partition_error_code for r in add.results_by_transaction
                    for t in r.topic_results for p in t.results_by_partition]
        else:
            add = coord.request("AddPartitionsToTxn", AP(
                v3_and_below_transactional_id=txn, v3_and_below_producer_id=pid,
                v3_and_below_producer_epoch=epoch,
                v3_and_below_topics=[AP.AddPartitionsToTxnTopic(name=TOPIC, partitions=[part])]))
            errs = [p.partition_error_code for t in add.results_by_topic_v3_and_below
                    for p in t.results_by_partition]
        assert errs == [0]
        batch = build_batch([(b"t", b"in-txn")], producer_id=pid, producer_epoch=epoch, base_sequence=0,
                            transactional=True)
        assert _produce(conn, TOPIC, part, batch, transactional_id=txn).error_code == 0
        end = coord.request("EndTxn", m.EndTxnRequest(transactional_id=txn, producer_id=pid,
                                                      producer_epoch=epoch, committed=True))
        assert end.error_code == 0, end
    deadline = time.monotonic() + 15
    found = []
    while not found and time.monotonic() < deadline:
        seen = _consume(bootstrap, TOPIC, part, 1, isolation="read_committed")
        found = [(k, v) for _, k, v in seen if v == b"in-txn"]
    assert found == [(b"t", b"in-txn")]


def test_example_client(broker, capsys):
    import importlib.util
    import pathlib
    kind, bootstrap = broker
    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "protocol_client.py"
    spec = importlib.util.spec_from_file_location("protocol_client_example", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.main(bootstrap.split(",")[0], lenient=(kind == "mock")) == 0
    out = capsys.readouterr().out
    assert f"topic {TOPIC}: {PARTITIONS} partitions" in out


def test_produce_record_layer_batches(broker):
    records = pytest.importorskip("kafkacodec.records")
    kind, bootstrap = broker
    part = 2
    with _connect(bootstrap, kind) as conn:
        _, topic = _partition_metadata(conn, TOPIC)
        _, start = _fetch_all(conn, TOPIC, topic.topic_id, part, 0)
        sent = []
        for codec in ("none", "gzip"):
            b = records.RecordBatchBuilder(compression=codec)
            for i in range(4):
                kv = (b"rl-%s-%d" % (codec.encode(), i), b"value-%d" % i)
                b.append(1_700_000_000_000 + i, *kv)
                sent.append(kv)
            p = _produce(conn, TOPIC, part, b.build())
            assert p.error_code == 0, p
        # the broker's Fetch answer, decoded by the record layer straight from the frame's view
        F = m.FetchRequest
        fetched = []
        offset = start
        while len(fetched) < len(sent):
            resp = _leader(conn, TOPIC, part).request("Fetch", F(
                replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=1 << 20, isolation_level=0,
                topics=[F.FetchTopic(topic=TOPIC, topic_id=topic.topic_id, partitions=[
                    F.FetchPartition(partition=part, fetch_offset=offset, partition_max_bytes=1 << 20)])]))
            view = resp.responses[0].partitions[0].records
            got = [(r.offset, r.key, r.value) for r in records.decode_records(view) if r.offset >= offset]
            assert got, "no progress"
            fetched += got
            offset = got[-1][0] + 1
        assert [(k, v) for _, k, v in fetched] == sent
        assert [o for o, _, _ in fetched] == list(range(start, start + len(sent)))
    # confluent-kafka reads them too (decompressing the gzip batch itself)
    seen = _consume(bootstrap, TOPIC, part, start + len(sent))
    assert [(k, v) for o, k, v in seen if o >= start] == sent
