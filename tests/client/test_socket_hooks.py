"""librdkafka's socket hooks as Python callables (resolve_cb, socket_cb, connect_cb,
closesocket_cb): each is called where the client resolves, makes, connects and closes a
broker socket, and what it answers is what the client uses."""
import errno
import socket
import threading

import pytest

from kafkacodec.client import Producer
from kafkacodec.client import errors as E

_peers = pytest.importorskip("_peers")

FAKE = "broker.kafkacodec.invalid"  # .invalid: never in any DNS (RFC 2606)


def _fake_bootstrap(bootstrap):
    return f"{FAKE}:{bootstrap.rsplit(':', 1)[1]}"


def test_resolve_cb_resolves_every_broker_host(mock1):
    asked = []

    def resolve_cb(host, port, family, type_):
        asked.append((host, port, family, type_))
        name = "127.0.0.1" if host == FAKE else host
        return socket.getaddrinfo(name, port, family, type_)

    with Producer({"bootstrap.servers": _fake_bootstrap(mock1), "resolve_cb": resolve_cb}) as p:
        p.send("t", b"via resolve_cb").get(10)
    port = int(mock1.rsplit(":", 1)[1])
    assert (FAKE, port, socket.AF_UNSPEC, socket.SOCK_STREAM) in asked
    # the brokers metadata names (IP literals here) are asked for too, as librdkafka asks
    assert any(host != FAKE for host, _, _, _ in asked)


@pytest.mark.parametrize("answer", [OSError("no such host"), [], ["not an address"], ValueError("bad")])
def test_a_failing_resolve_cb_fails_the_connection_naming_it(mock1, answer):
    def resolve_cb(host, port, family, type_):
        if isinstance(answer, Exception):
            raise answer
        return answer

    with Producer({"bootstrap.servers": mock1, "resolve_cb": resolve_cb, "delivery.timeout.ms": 1500,
                   "max.block.ms": 1000, "request.timeout.ms": 1000, "linger.ms": 0}) as p:
        with pytest.raises(E.KafkaError):
            p.send("t", b"never").get(10)


def test_socket_connect_and_close_hooks_carry_the_connections(mock1):
    made, connects, closed = [], [], []
    lock = threading.Lock()

    def socket_cb(family, type_, proto):
        sock = socket.socket(family, type_, proto)
        with lock:
            made.append(sock)
        return sock.detach() if len(made) % 2 else sock  # a file descriptor or a socket: both taken

    def connect_cb(sock, address, broker_name):
        with lock:
            connects.append((sock.fileno(), address, broker_name))
        return sock.connect_ex(address)

    def closesocket_cb(sock):
        with lock:
            closed.append(sock.fileno())
        sock.close()

    conf = {"bootstrap.servers": mock1, "socket_cb": socket_cb, "connect_cb": connect_cb,
            "closesocket_cb": closesocket_cb, "socket.nagle.disable": True}
    with Producer(conf) as p:
        p.send("t", b"through the hooks").get(10)
    assert made and len(connects) == len(made)
    assert all(name.startswith("127.0.0.1:") for _, _, name in connects)
    assert any(name.endswith("/bootstrap") for _, _, name in connects)
    port = int(mock1.rsplit(":", 1)[1])
    assert ("127.0.0.1", port) in [address for _, address, _ in connects]
    # every socket the client made is closed by closesocket_cb once the producer is closed
    assert sorted(closed) == sorted(fd for fd, _, _ in connects)


@pytest.mark.parametrize("answer", [errno.ECONNREFUSED, RuntimeError("refused here"), "zero"])
def test_a_failing_connect_cb_is_a_failed_connect(mock1, answer):
    tried = []

    def connect_cb(sock, address, broker_name):
        tried.append(broker_name)
        if isinstance(answer, Exception):
            raise answer
        return answer

    closed = []
    with Producer({"bootstrap.servers": mock1, "connect_cb": connect_cb, "closesocket_cb": closed.append,
                   "delivery.timeout.ms": 1500, "max.block.ms": 1000, "request.timeout.ms": 1000, "linger.ms": 0}) as p:
        with pytest.raises(E.KafkaError):
            p.send("t", b"never").get(10)
    assert tried
    # closesocket_cb took the sockets without closing them: the test closes them
    for sock in closed:
        sock.close()
    assert len(closed) >= len(tried)
