"""Network layer, metadata, SASL mechanism and admin against real peers."""
import base64
import socket
import time
import uuid

import pytest

from kafkacodec.client import errors as E
from kafkacodec.client.admin import Admin, TopicPartition
from kafkacodec.client.config import ADMIN, CONSUMER, resolve
from kafkacodec.client.network import NetworkClient
from kafkacodec.client.sasl import Scram
from kafkacodec.protocol import errors as protocol_errors
from kafkacodec.protocol import messages as m

_peers = pytest.importorskip("_peers")


def test_config_names_and_errors():
    conf = resolve({"bootstrap.servers": "a:1,b:2", "fetch.max.bytes": "1000"}, {"max_poll_records": 7}, CONSUMER)
    assert conf["bootstrap.servers"] == [("a", 1), ("b", 2)]
    assert conf["fetch.max.bytes"] == 1000 and conf["max.poll.records"] == 7
    with pytest.raises(E.ConfigError, match="fetch.max.wait"):
        resolve({"bootstrap.servers": "a:1", "fetch.max.wait": 3}, {}, CONSUMER)
    with pytest.raises(E.ConfigError, match="max.poll.records"):
        resolve({"bootstrap.servers": "a:1"}, {"max_poll_records": 0}, CONSUMER)
    with pytest.raises(E.ConfigError, match="isolation.level"):
        resolve({"bootstrap.servers": "a:1", "isolation.level": "dirty"}, {}, CONSUMER)
    with pytest.raises(E.ConfigError, match="bootstrap.servers"):
        resolve({"bootstrap.servers": "nohostport"}, {}, ADMIN)
    with pytest.raises(E.ConfigError, match="sasl.username"):
        resolve({"bootstrap.servers": "a:1", "security.protocol": "SASL_PLAINTEXT"}, {}, ADMIN)


def test_broker_errors_are_client_errors_with_retriable():
    err = E.error_for(6, "t[0]")
    assert isinstance(err, E.KafkaError) and isinstance(err, protocol_errors.NotLeaderOrFollowerError)
    assert err.retriable and not E.error_for(1).retriable
    assert not isinstance(E.KafkaConnectionError("x"), ValueError)
    assert isinstance(E.KafkaConnectionError("x"), ConnectionError)
    assert isinstance(E.KafkaTimeoutError("x"), TimeoutError)


def test_scram_sha256_rfc7677_vector():
    # RFC 7677 section 3: user "user", password "pencil"
    s = Scram("user", "pencil", "sha256", nonce="rOprNGfwEbeRWgbNEkqO")
    assert s.start() == b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
    final = s.step(b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
    assert final == (b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                     b"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
    assert s.step(b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=") is None


def test_scram_rejects_a_forged_server_signature():
    s = Scram("user", "pencil", "sha256", nonce="rOprNGfwEbeRWgbNEkqO")
    s.start()
    s.step(b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
    with pytest.raises(E.AuthenticationError, match="signature"):
        s.step(b"v=" + base64.b64encode(b"\0" * 32))


def _client(bootstrap, **extra):
    return NetworkClient(resolve({"bootstrap.servers": bootstrap}, extra, ADMIN))


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_pipelined_requests_and_metadata(mock_bootstrap):
    _peers.create_topic(mock_bootstrap, "net-pipe", 6)
    client = _client(mock_bootstrap)
    try:
        client.metadata.add_topics(["net-pipe"])
        client.metadata.wait_for(lambda md: "net-pipe" in md.topics, 10)
        info = client.metadata.topics["net-pipe"]
        assert sorted(info.partitions) == list(range(6))
        assert len(client.metadata.brokers) == 3
        assert all(p.leader in client.metadata.brokers for p in info.partitions.values())
        node = info.partitions[0].leader
        # many requests in flight on one connection, answered in order by correlation id
        futures = [client.send(node, "Metadata", m.MetadataRequest(topics=[
            m.MetadataRequest.MetadataRequestTopic(name="net-pipe")]), max_version=9) for _ in range(40)]
        answers = [f.result(10) for f in futures]
        assert all(a.topics[0].name == "net-pipe" for a in answers)
        conn = client.connections[node]
        assert conn.ready and conn.versions[1] >= 11  # Fetch negotiated within what both know
    finally:
        client.close()


@pytest.mark.timeout(30)
def test_unreachable_broker_is_a_timeout_not_a_value_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here after the with block
    client = _client(f"127.0.0.1:{port}", reconnect_backoff_ms=20, reconnect_backoff_max_ms=200)
    try:
        t0 = time.monotonic()
        with pytest.raises(E.KafkaTimeoutError) as info:
            client.metadata.wait_for(lambda md: md.brokers, 1.5)
        assert 1.4 < time.monotonic() - t0 < 3
        assert "refused" in str(info.value).lower() or "ECONNREFUSED" in str(info.value)
        conn = client.connections[-1]
        # exponential backoff: a few dozen attempts at most in 1.5 s, not a busy loop
        assert 3 <= conn.failures <= 20
        future = client.send(None, "ApiVersions", m.ApiVersionsRequest(), timeout=0.5)
        with pytest.raises(E.KafkaError) as info:
            future.result(5)
        assert isinstance(info.value, (E.KafkaConnectionError, E.KafkaTimeoutError))
        assert not isinstance(info.value, ValueError)
    finally:
        client.close()


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_admin_on_tansu(tansu_bootstrap):
    topic = f"adm-{uuid.uuid4().hex[:6]}"
    with Admin({"bootstrap.servers": tansu_bootstrap}, request_timeout_ms=5000, default_api_timeout_ms=20000) as admin:
        desc = admin.describe_cluster()
        assert desc.cluster_id and len(desc.brokers) == 1
        admin.create_topics({topic: 3})
        with pytest.raises(E.TopicAlreadyExistsError):
            admin.create_topics({topic: 3})
        assert admin.list_topics()[topic] == 3
        _peers.produce_with_confluent(tansu_bootstrap, topic, [(b"k", b"v%d" % i) for i in range(5)], partition=2,
                                      linger_ms=0, batch_num_messages=1)
        offsets = admin.list_offsets({(topic, 2): "earliest", (topic, 1): "latest"})
        assert offsets[TopicPartition(topic, 2)].offset == 0
        assert offsets[TopicPartition(topic, 1)].offset == 0
        assert admin.list_offsets({(topic, 2): "latest"})[TopicPartition(topic, 2)].offset == 5
        admin.delete_topics([topic])
        deadline = time.monotonic() + 10
        while topic in admin.list_topics() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert topic not in admin.list_topics()


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_bootstrap_connection_serves_the_broker_at_its_address(tansu_bootstrap, mock_bootstrap):
    """Metadata names the bootstrap server as a broker: its connection goes on as that broker's
    (no second connect and ApiVersions to one address); other brokers get their own."""
    from kafkacodec.client import Producer

    topic = f"net-adopt-{uuid.uuid4().hex[:6]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    with Producer({"bootstrap.servers": tansu_bootstrap}) as p:
        handle = p.send(topic, b"v")
        p.flush(20)
        handle.get(0)
        conns = dict(p._client.connections)
        (node, conn), = conns.items()  # one connection served Metadata, InitProducerId and Produce
        assert node == conn.node_id == conn.label >= 0 and conn.ready
        assert f"{conn.host}:{conn.port}" == tansu_bootstrap and conn.counters.connects == 1
        assert conn.counters.req[0] == 1 and conn.counters.req[3] >= 1  # Produce, Metadata
    client = _client(mock_bootstrap)
    try:
        client.metadata.wait_for(lambda md: len(md.brokers) == 3, 10)
        (boot_id, boot), = ((n, c) for n, c in client.connections.items() if n < 0)  # the one asked
        broker = next(b.node_id for b in client.metadata.brokers.values() if (b.host, b.port) == (boot.host, boot.port))
        client.send(broker, "ApiVersions", m.ApiVersionsRequest()).result(10)
        assert client.connections[broker] is boot and boot.node_id == broker and boot_id not in client.connections
        other = next(b for b in client.metadata.brokers.values() if b.node_id != broker)
        client.send(other.node_id, "ApiVersions", m.ApiVersionsRequest()).result(10)
        assert client.connections[other.node_id] is not boot and boot.counters.connects == 1
    finally:
        client.close()


def test_frame_reader_splits_joins_and_bounds_frames():
    from kafkacodec.client.connection import RECV_SMALL, FrameReader
    small = [(4).to_bytes(4, "big") + bytes([i]) * 4 for i in range(3)]
    big = (3 * RECV_SMALL).to_bytes(4, "big") + bytes(range(256)) * (3 * RECV_SMALL // 256)
    stream = b"".join(small[:2]) + big + small[2]
    a, b = socket.socketpair()
    a.setblocking(False)
    reader = FrameReader(1 << 20)
    frames = []
    try:
        # cut inside a size prefix, inside a small frame and inside the big one
        for cut in (b"".join(small[:1]) + small[1][:2], small[1][2:] + big[:3], big[3:RECV_SMALL + 7],
                    big[RECV_SMALL + 7:] + small[2][:5], small[2][5:]):
            b.sendall(cut)
            time.sleep(0.01)
            try:
                reader.read(a, frames)  # returns after a short read, or meets EAGAIN
            except BlockingIOError:
                pass
        assert [bytes(f) for f in frames] == small[:2] + [big] + small[2:]
        assert b"".join(bytes(f) for f in frames) == stream
        b.sendall((1 << 20 + 1).to_bytes(4, "big"))
        time.sleep(0.01)
        with pytest.raises(ValueError, match="receive.message.max.bytes"):
            reader.read(a, [])
        b.close()
        reader = FrameReader(1 << 20)
        with pytest.raises(ConnectionResetError):
            reader.read(a, [])
    finally:
        a.close()
        b.close()


def test_frame_reader_stops_after_a_short_read():
    """A read that got less than it asked for emptied the socket: no second recv (each one
    costs the I/O thread the GIL), and nothing arriving later is lost (the next read takes it)."""
    from kafkacodec.client.connection import FrameReader

    class Counting:
        def __init__(self, sock):
            self.sock, self.calls = sock, 0

        def recv_into(self, buf):
            self.calls += 1
            return self.sock.recv_into(buf)

    frame = (4).to_bytes(4, "big") + b"abcd"
    a, b = socket.socketpair()
    a.setblocking(False)
    try:
        counting, reader, frames = Counting(a), FrameReader(1 << 20), []
        b.sendall(frame + frame[:6])
        time.sleep(0.01)
        reader.read(counting, frames)
        assert counting.calls == 1 and [bytes(f) for f in frames] == [frame]
        b.sendall(frame[6:])
        time.sleep(0.01)
        reader.read(counting, frames)
        assert counting.calls == 2 and [bytes(f) for f in frames] == [frame, frame]
    finally:
        a.close()
        b.close()


def test_ip_literals_need_no_resolver(monkeypatch):
    import socket

    from kafkacodec.client import network

    def refuse(*args, **kwargs):
        raise AssertionError("getaddrinfo called for an address literal")

    monkeypatch.setattr(network.socket, "getaddrinfo", refuse)
    assert network._literal_address("127.0.0.1", 9092, socket.AF_UNSPEC) == [
        (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("127.0.0.1", 9092))]
    assert network._literal_address("::1", 9092, socket.AF_UNSPEC)[0][4] == ("::1", 9092, 0, 0)
    # a literal of the other family than broker.address.family asks for, or a name: the resolver's
    assert network._literal_address("127.0.0.1", 9092, socket.AF_INET6) is None
    assert network._literal_address("localhost", 9092, socket.AF_UNSPEC) is None
