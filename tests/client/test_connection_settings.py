"""The connection settings, observed on the sockets and connections a client makes: socket
options read back with getsockopt, address family and resolution, request timeouts
(socket.max.fails), the ApiVersions time limit, idle connections."""
import socket
import time

import pytest

from kafkacodec.client import errors as E
from kafkacodec.client import network
from kafkacodec.client.config import ADMIN, resolve
from kafkacodec.client.connection import READY
from kafkacodec.client.network import NetworkClient
from kafkacodec.protocol import messages as m

_peers = pytest.importorskip("_peers")


def _client(bootstrap, **settings):
    return NetworkClient(resolve({"bootstrap.servers": bootstrap, **settings}, {}, ADMIN, "admin"))


def _metadata(client, node=None, timeout=10.0):
    return client.request(node, "Metadata", m.MetadataRequest(topics=[], allow_auto_topic_creation=False),
                          timeout=timeout)


def _ready_connection(client):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for conn in list(client.connections.values()):
            if conn.state == READY and conn.sock is not None:
                return conn
        time.sleep(0.01)
    raise AssertionError("no connection became ready")


@pytest.mark.parametrize("keepalive, nagle_off, sndbuf, rcvbuf", [
    (True, True, 262144, 131072),
    (False, False, -1, -1),
])
def test_socket_options_are_set_on_broker_sockets(tansu_bootstrap, keepalive, nagle_off, sndbuf, rcvbuf):
    client = _client(tansu_bootstrap, **{"socket.keepalive.enable": keepalive, "socket.nagle.disable": nagle_off,
                                         "send.buffer.bytes": sndbuf, "receive.buffer.bytes": rcvbuf})
    try:
        _metadata(client)
        sock = _ready_connection(client).sock
        assert bool(sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE)) is keepalive
        assert bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)) is nagle_off
        plain = socket.socket()
        defaults = plain.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF), \
            plain.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
        plain.close()
        got = sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF), sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
        if sndbuf < 0:
            # the OS default (a connected socket's buffers may have grown by autotuning, never shrunk)
            assert got[0] >= defaults[0] and got[1] >= defaults[1]
        else:
            # Linux doubles the size asked for (its bookkeeping), other systems keep it
            assert got[0] in (sndbuf, 2 * sndbuf) and got[1] in (rcvbuf, 2 * rcvbuf)
    finally:
        client.close()


def test_address_family_picks_the_addresses_tried(tansu_bootstrap):
    port = int(tansu_bootstrap.rsplit(":", 1)[1])
    v4 = _client(f"localhost:{port}", **{"broker.address.family": "v4"})
    try:
        assert {a[0] for a in v4.resolve("localhost", port, time.monotonic())} == {socket.AF_INET}
        _metadata(v4)
        assert _ready_connection(v4).sock.family == socket.AF_INET
    finally:
        v4.close()
    v6 = _client(f"127.0.0.1:{port}", **{"broker.address.family": "v6"})
    try:
        # an IPv4 literal has no IPv6 address: no connection is made
        with pytest.raises(socket.gaierror):
            v6.resolve("127.0.0.1", port, time.monotonic())
        with pytest.raises(E.KafkaError):
            _metadata(v6, timeout=1.0)
    finally:
        v6.close()


def test_resolved_addresses_are_kept_for_broker_address_ttl(monkeypatch):
    calls = []
    real = socket.getaddrinfo

    def counting(host, port, *args, **kw):
        calls.append(host)
        return real(host, port, *args, **kw)

    monkeypatch.setattr(network.socket, "getaddrinfo", counting)
    client = _client("127.0.0.1:9", **{"broker.address.ttl": 200})
    try:
        now = time.monotonic()
        client.resolve("localhost", 9, now)
        client.resolve("localhost", 9, now + 0.1)
        assert calls.count("localhost") == 1
        client.resolve("localhost", 9, now + 0.3)
        assert calls.count("localhost") == 2
    finally:
        client.close()


def test_every_address_of_a_host_is_tried_before_backing_off(tansu_bootstrap, monkeypatch):
    port = int(tansu_bootstrap.rsplit(":", 1)[1])
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    dead = closed.getsockname()  # bound, not listening: refused
    real = socket.getaddrinfo

    def two_addresses(host, p, *args, **kw):
        if host == "two.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", dead),
                    (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real(host, p, *args, **kw)

    monkeypatch.setattr(network.socket, "getaddrinfo", two_addresses)
    # a backoff after the first address would hold the request for 10 s
    client = _client(f"two.example:{port}", **{"reconnect.backoff.ms": 10000, "reconnect.backoff.max.ms": 10000})
    try:
        start = time.monotonic()
        _metadata(client, timeout=5.0)
        assert time.monotonic() - start < 3
        conn = _ready_connection(client)
        assert conn.sock.getpeername() == ("127.0.0.1", port) and conn.failures == 0
    finally:
        client.close()
        closed.close()


def test_canonical_bootstrap_names(tansu_bootstrap):
    port = int(tansu_bootstrap.rsplit(":", 1)[1])
    try:
        canonical = socket.getnameinfo(("127.0.0.1", 0), socket.NI_NAMEREQD)[0]
    except OSError:
        pytest.skip("127.0.0.1 has no name here")
    client = _client(f"127.0.0.1:{port}", **{"client.dns.lookup": "resolve_canonical_bootstrap_servers_only"})
    try:
        _metadata(client)
        assert [(h, p) for _, h, p in client._bootstrap] == [(canonical, port)]
    finally:
        client.close()


@pytest.mark.parametrize("max_fails", [0, 1])
def test_socket_max_fails(mock1, max_fails):
    client = _client(mock1, **{"socket.max.fails": max_fails, "request.timeout.ms": 300})
    try:
        _metadata(client)
        conn = _ready_connection(client)
        _peers.mock_fault(mock1, "rtt", 1, 600)
        with pytest.raises(E.KafkaTimeoutError):
            _metadata(client, conn.node_id, timeout=0.3)
        _peers.mock_fault(mock1, "rtt", 1, 0)
        time.sleep(0.5)  # the late answer arrives
        if max_fails == 0:
            # kept: the timed-out request's answer was dropped, the next request answered on it
            assert conn.state == READY and conn.counters.disconnects == 0
            _metadata(client, conn.node_id)
            assert client.connections[conn.node_id] is conn and conn.state == READY
        else:
            assert conn.state != READY or conn.counters.disconnects == 1
    finally:
        client.close()


def test_api_version_request_timeout(mock1):
    _peers.mock_fault(mock1, "rtt", 1, 800)
    client = _client(mock1, **{"api.version.request.timeout.ms": 200, "reconnect.backoff.ms": 5000,
                               "reconnect.backoff.max.ms": 5000})
    try:
        with pytest.raises(E.KafkaError):
            _metadata(client, timeout=1.0)
        conn = next(iter(client.connections.values()))
        assert "ApiVersions" in str(conn.last_error) or "timed out" in str(conn.last_error)
    finally:
        client.close()
        _peers.mock_fault(mock1, "rtt", 1, 0)


def test_idle_connections_are_closed(tansu_bootstrap):
    client = _client(tansu_bootstrap, **{"connections.max.idle.ms": 300})
    try:
        _metadata(client)
        conn = _ready_connection(client)
        time.sleep(1.6)
        assert conn.state != READY
        # closed on purpose: no reconnect and no metadata refresh follows
        assert all(c.state != READY for c in client.connections.values())
        connects = sum(c.counters.connects for c in client.connections.values())
        time.sleep(0.8)
        assert sum(c.counters.connects for c in client.connections.values()) == connects
        _metadata(client)  # made again when needed
    finally:
        client.close()
