"""Two public calls the confluent face stands on: set_sasl_credentials() (Producer, Consumer:
connections made afterwards authenticate with the new credentials, open ones stay) and run()
(AsyncProducer, AsyncConsumer: a blocking call on the client's worker thread, after the calls
queued there before it)."""
import asyncio
import socket
import struct
import threading
import time
import uuid

import pytest

from kafkacodec.client import AsyncConsumer, AsyncProducer, Consumer, Producer, TopicPartition
from kafkacodec.client import errors as E
from kafkacodec.protocol import messages as m
from kafkacodec.protocol.framing import decode_request, decode_response_frame, encode_response, \
    encode_response_frame

_peers = pytest.importorskip("_peers")
pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

API_VERSIONS, METADATA, SASL_HANDSHAKE, SASL_AUTHENTICATE = 18, 3, 17, 36


def _read_frame(sock):
    head = b""
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            return None
        head += chunk
    size = struct.unpack(">i", head)[0]
    body = b""
    while len(body) < size:
        chunk = sock.recv(size - len(body))
        if not chunk:
            return None
        body += chunk
    return head + body


class PlainFront:
    """SASL PLAIN in front of a broker that has none: answers SaslHandshake and SaslAuthenticate
    itself (noting each connection's credentials), passes the rest on, and names itself in
    Metadata.  drop() closes the clients' connections, so they connect (and authenticate) again."""

    def __init__(self, upstream):
        host, port = upstream.split(",")[0].rsplit(":", 1)
        self.upstream = (host, int(port))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.bootstrap = f"127.0.0.1:{self.port}"
        self.credentials = []   # (user, password) of each authentication, in order
        self.clients = []
        self.closed = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.closed.set()
        self.sock.close()
        self.drop()

    def drop(self):
        clients, self.clients = self.clients, []
        for s in clients:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass

    def _accept(self):
        while not self.closed.is_set():
            try:
                client, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            self.clients.append(client)
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        try:
            server = socket.create_connection(self.upstream, timeout=10)
        except OSError:
            client.close()
            return
        try:
            while not self.closed.is_set():
                frame = _read_frame(client)
                if frame is None:
                    return
                api, version = struct.unpack_from(">hh", frame, 4)
                if api == SASL_HANDSHAKE:
                    header, _ = decode_request(frame)
                    client.sendall(encode_response("SaslHandshake", version, header.correlation_id,
                                                   m.SaslHandshakeResponse(error_code=0, mechanisms=["PLAIN"])))
                    continue
                if api == SASL_AUTHENTICATE:
                    header, body = decode_request(frame)
                    _, user, password = bytes(body.auth_bytes).split(b"\0")
                    self.credentials.append((user.decode(), password.decode()))
                    client.sendall(encode_response("SaslAuthenticate", version, header.correlation_id,
                                                   m.SaslAuthenticateResponse(error_code=0, auth_bytes=b"")))
                    continue
                server.sendall(frame)
                answer = _read_frame(server)
                if answer is None:
                    return
                if api == API_VERSIONS:
                    answer = self._with_sasl(version, answer)
                elif api == METADATA:
                    header, body, _ = decode_response_frame("Metadata", version, answer)
                    for b in body.brokers:
                        b.host, b.port = "127.0.0.1", self.port
                    answer = encode_response_frame("Metadata", version, header, body)
                client.sendall(answer)
        except OSError:
            return
        finally:
            server.close()
            client.close()

    @staticmethod
    def _with_sasl(version, frame):
        header, body, _ = decode_response_frame("ApiVersions", version, frame)
        have = {k.api_key for k in body.api_keys}
        for key, top in ((SASL_HANDSHAKE, 1), (SASL_AUTHENTICATE, 2)):
            if key not in have:
                body.api_keys.append(m.ApiVersionsResponse.ApiVersion(api_key=key, min_version=0, max_version=top))
        return encode_response_frame("ApiVersions", version, header, body)


@pytest.fixture
def front(tansu_bootstrap):
    f = PlainFront(tansu_bootstrap)
    yield f
    f.close()


def _sasl(bootstrap, **extra):
    return dict({"bootstrap.servers": bootstrap, "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
                 "sasl.username": "alice", "sasl.password": "one"}, **extra)


def _wait_for(predicate, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)


def test_producer_new_credentials_for_new_connections(front, tansu_bootstrap):
    topic = f"cred-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    with Producer(_sasl(front.bootstrap)) as p:
        p.send(topic, b"first").get(15)
        assert set(front.credentials) == {("alice", "one")}
        seen = len(front.credentials)
        p.set_sasl_credentials("bob", "two")
        p.send(topic, b"same connection").get(15)
        assert len(front.credentials) == seen  # open connections stay as they are
        front.drop()
        _wait_for(lambda: p.send(topic, b"again").get(15) is not None and len(front.credentials) > seen)
        assert set(front.credentials[seen:]) == {("bob", "two")}
        with pytest.raises(E.InvalidArgumentError, match="str"):
            p.set_sasl_credentials("bob", None)


def test_consumer_new_credentials_for_new_connections(front, tansu_bootstrap):
    topic = f"credc-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    _peers.produce_with_confluent(tansu_bootstrap, topic, [(None, b"v")])
    with Consumer(_sasl(front.bootstrap, **{"auto.offset.reset": "earliest"})) as c:
        c.assign([TopicPartition(topic, 0)])
        _wait_for(lambda: c.poll(0.2))
        c.set_sasl_credentials("carol", "three")
        seen = len(front.credentials)
        front.drop()
        c.seek_to_beginning()
        _wait_for(lambda: c.poll(0.2))
        assert set(front.credentials[:seen]) == {("alice", "one")}
        assert front.credentials[seen:] and set(front.credentials[seen:]) == {("carol", "three")}


def test_async_clients_run_blocking_calls_on_their_worker_in_order(tansu_bootstrap):
    topic = f"run-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)

    def step(name, pause=0.0):
        def fn():
            time.sleep(pause)
            order.append(name)
            return threading.current_thread().name
        return fn

    async def main():
        async with AsyncProducer({"bootstrap.servers": tansu_bootstrap}) as p:
            first = p.run(step("slow", 0.3))  # the later, quicker call waits for it
            names = await asyncio.gather(first, p.run(step("quick")))
            assert (await p.send(topic, b"v")).offset == 0
        async with AsyncConsumer({"bootstrap.servers": tansu_bootstrap}) as c:
            c.assign([TopicPartition(topic, 0)])
            c.seek_to_end()
            started = time.monotonic()
            polled = asyncio.ensure_future(c.poll(0.5))  # nothing comes: it waits its 0.5 s
            await asyncio.sleep(0)
            names.append(await c.run(step("after the poll")))
            waited = time.monotonic() - started
            assert await polled == []
        return names, waited

    order = []
    names, waited = asyncio.run(main())
    assert order == ["slow", "quick", "after the poll"]
    assert names[0] == names[1] and names[0].startswith("kafkacodec-producer-async")
    assert names[2].startswith("kafkacodec-consumer-async")
    assert waited >= 0.45
