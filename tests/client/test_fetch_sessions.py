"""Fetch sessions (KIP-227).  Neither peer here offers them: librdkafka's mock cluster and
Tansu answer a session request (id 0, epoch 0) with session id 0, so the consumer keeps
sending full Fetches there.  A broker that does is stood in for by SessionFront below: a
front on 127.0.0.1 that keeps each session's partitions and turns incremental Fetches
into full ones to Tansu behind it, as Kafka's FetchSessionCache does.  Through it the
incremental requests carry only what changed, and a session the broker lost
(FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH) falls back to a full fetch
with nothing lost or repeated."""
import socket
import struct
import threading
import time
import uuid

import pytest

from kafkacodec.client import Consumer
from kafkacodec.protocol import messages as m
from kafkacodec.protocol.framing import decode_request, decode_response_frame, encode_request_frame, \
    encode_response_frame

_peers = pytest.importorskip("_peers")
pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

FETCH, METADATA = 1, 3


def _read_frame(sock):
    head = b""
    while len(head) < 4:
        chunk = sock.recv(4 - len(head))
        if not chunk:
            return None
        head += chunk
    size = struct.unpack(">i", head)[0]
    body = bytearray()
    while len(body) < size:
        chunk = sock.recv(min(1 << 20, size - len(body)))
        if not chunk:
            return None
        body += chunk
    return head + bytes(body)


class SessionFront:
    """Kafka's side of KIP-227 in front of one sessionless broker; also points Metadata at itself.

    requests: (session_id, epoch, partitions listed, partitions forgotten) of every Fetch.
    fail_next: an error code (70 or 71) to answer the next incremental Fetch with.
    """

    def __init__(self, upstream, lifetime=90.0):
        host, port = upstream.split(",")[0].rsplit(":", 1)
        self.upstream = (host, int(port))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.bootstrap = f"127.0.0.1:{self.port}"
        self.advertised_port = self.port  # what Metadata names: this front, or a proxy before it
        self.sessions = {}          # id -> {"epoch": next expected, "parts": {(t, p): FetchPartition}}
        self.next_id = 1000
        self.requests = []
        self.fail_next = None
        self.lock = threading.Lock()
        self.deadline = time.monotonic() + lifetime
        self.closed = threading.Event()
        self.conns = []
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.closed.set()
        self.sock.close()
        for s in self.conns:
            try:
                s.close()
            except OSError:
                pass

    def _accept(self):
        while not self.closed.is_set() and time.monotonic() < self.deadline:
            try:
                client, _ = self.sock.accept()
            except (socket.timeout, OSError):
                continue
            server = socket.create_connection(self.upstream, timeout=10)
            self.conns += [client, server]
            threading.Thread(target=self._serve, args=(client, server), daemon=True).start()

    def _serve(self, client, server):
        server.settimeout(30)
        try:
            while not self.closed.is_set() and time.monotonic() < self.deadline:
                frame = _read_frame(client)
                if frame is None:
                    return
                api, version = struct.unpack_from(">hh", frame, 4)
                if api == FETCH:
                    header, body = decode_request(frame)
                    answer = self._fetch(header, body, server)
                else:
                    server.sendall(frame)
                    answer = _read_frame(server)
                    if answer is None:
                        return
                    if api == METADATA:
                        answer = self._metadata(version, answer)
                client.sendall(answer)
        except OSError:
            return

    def _metadata(self, version, frame):
        header, body, _ = decode_response_frame("Metadata", version, frame)
        for b in body.brokers:
            b.host, b.port = "127.0.0.1", self.advertised_port
        return encode_response_frame("Metadata", version, header, body)

    def _upstream_fetch(self, header, body, server):
        server.sendall(encode_request_frame(header, body))
        header_resp, resp, _ = decode_response_frame("Fetch", header.request_api_version, _read_frame(server))
        return header_resp, resp

    def _fetch(self, header, body, server):
        version = header.request_api_version
        listed = sum(len(t.partitions) for t in body.topics)
        forgotten = sum(len(t.partitions) for t in body.forgotten_topics_data or ())
        with self.lock:
            self.requests.append((body.session_id, body.session_epoch, listed, forgotten))
        sid, epoch = body.session_id, body.session_epoch
        if sid == 0 and epoch == -1:  # sessionless: as it is
            _, resp = self._upstream_fetch(header, body, server)
            return encode_response_frame("Fetch", version, m.ResponseHeader(correlation_id=header.correlation_id), resp)
        error = None
        with self.lock:
            if sid == 0:
                sid, self.next_id = self.next_id, self.next_id + 1
                session = self.sessions[sid] = {"epoch": 0, "parts": {}}  # this full Fetch is epoch 0
            else:
                session = self.sessions.get(sid)
                if self.fail_next is not None:
                    error, self.fail_next = self.fail_next, None
                    self.sessions.pop(sid, None)
                elif session is None:
                    error = 70
                elif epoch != session["epoch"]:
                    error = 71
                    self.sessions.pop(sid, None)
            if error is None:
                session["epoch"] += 1
                for t in body.forgotten_topics_data or ():
                    for p in t.partitions:
                        session["parts"].pop((t.topic, p), None)
                for t in body.topics:
                    for p in t.partitions:
                        session["parts"][(t.topic, p.partition)] = p
                parts = dict(session["parts"])
        if error is not None:
            resp = m.FetchResponse(throttle_time_ms=0, error_code=error, session_id=0, responses=[])
            return encode_response_frame("Fetch", version, m.ResponseHeader(correlation_id=header.correlation_id), resp)
        # upstream: the whole session, sessionless
        by_topic = {}
        for (topic, _), p in sorted(parts.items()):
            by_topic.setdefault(topic, []).append(p)
        body.session_id, body.session_epoch, body.forgotten_topics_data = 0, -1, []
        body.topics = [m.FetchRequest.FetchTopic(topic=t, partitions=ps) for t, ps in by_topic.items()]
        _, resp = self._upstream_fetch(header, body, server)
        if epoch != 0:  # incremental: only partitions with news
            for t in resp.responses:
                t.partitions = [p for p in t.partitions if p.error_code or (p.records is not None and len(p.records))]
            resp.responses = [t for t in resp.responses if t.partitions]
        resp.session_id = sid
        return encode_response_frame("Fetch", version, m.ResponseHeader(correlation_id=header.correlation_id), resp)


def _consume(consumer, n, timeout=30.0):
    seen = []
    deadline = time.monotonic() + timeout
    while len(seen) < n and time.monotonic() < deadline:
        seen += [(r.partition, r.offset) for r in consumer.poll(0.2)]
    return seen


@pytest.mark.parametrize("peer", ["mock", "tansu"])
def test_peers_decline_sessions_and_full_fetches_go_on(peer, request):
    bootstrap = request.getfixturevalue(f"{peer}_bootstrap")
    topic = f"fs-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, topic, 4)
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", b"v%d" % i, None, None, i % 4) for i in range(400)])
    with Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest"}) as c:
        c.assign([(topic, p) for p in range(4)])
        seen = _consume(c, 400)
        stats = dict(c._fetcher.session_stats)
        sessions = {node: s.id for node, s in c._fetcher.sessions.items()}
    assert sorted(seen) == sorted((p, o) for p in range(4) for o in range(100))
    # asked for a session every time (epoch 0), never given one: no incremental Fetch
    assert stats["full"] > 0 and stats["incremental"] == 0
    assert set(sessions.values()) == {0}


def test_incremental_fetches_list_only_what_changed(tansu_bootstrap):
    partitions = 12
    topic = f"fs-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, partitions)
    # data in two partitions only: the other ten are caught up and stay out of the requests
    _peers.produce_with_confluent(tansu_bootstrap, topic, [(b"k", b"v%d" % i, None, None, i % 2) for i in range(400)])
    front = SessionFront(tansu_bootstrap)
    capture_cm = _peers.capture_proxy(front.bootstrap)
    capture = capture_cm.__enter__()
    front.advertised_port = int(capture.bootstrap.rsplit(":", 1)[1])  # every byte passes the capture
    try:
        with Consumer({"bootstrap.servers": capture.bootstrap, "auto.offset.reset": "earliest",
                       "fetch.max.wait.ms": 100, "max.partition.fetch.bytes": 2048}) as c:
            c.assign([(topic, p) for p in range(partitions)])
            seen = _consume(c, 400)
            assert sorted(seen) == sorted((p, o) for p in range(2) for o in range(200))
            # more arrives while we fetch incrementally, one partition paused (so forgotten by the
            # session); then the broker loses the session twice
            c.pause([(topic, 3)])
            # the next incremental Fetch forgets it; produce only after that one went out, or the
            # fetch in flight at the pause could bring the records and the resume come before it
            deadline = time.monotonic() + 10
            while not any(r[3] for r in front.requests) and time.monotonic() < deadline:
                seen += [(r.partition, r.offset) for r in c.poll(0.05)]
            _peers.produce_with_confluent(tansu_bootstrap, topic, [(b"k", b"w", None, None, 5)] * 50)
            seen += _consume(c, 50)
            c.resume([(topic, 3)])

            def lose_session(code, partition, value):
                # the records may come in a Fetch already in flight: poll on until the broker has
                # failed an incremental Fetch and the full one after it went out (under load the
                # consumer could otherwise close first)
                fulls = sum(1 for r in front.requests if r[0] == 0)
                front.fail_next = code
                _peers.produce_with_confluent(tansu_bootstrap, topic, [(b"k", value, None, None, partition)] * 50)
                got = _consume(c, 50)
                deadline = time.monotonic() + 10
                while ((front.fail_next is not None or sum(1 for r in front.requests if r[0] == 0) <= fulls)
                       and time.monotonic() < deadline):
                    got += [(r.partition, r.offset) for r in c.poll(0.05)]
                return got
            seen += lose_session(70, 7, b"x")
            seen += lose_session(71, 9, b"y")
        stats = dict(c._fetcher.session_stats)  # after close: the I/O thread fetches until then
    finally:
        capture_cm.__exit__(None, None, None)
        front.close()
    assert len(seen) == len(set(seen)) == 550
    for p, n in ((5, 50), (7, 50), (9, 50)):
        assert sorted(o for q, o in seen if q == p) == list(range(n))
    reqs = front.requests
    full = [r for r in reqs if r[0] == 0]
    incremental = [r for r in reqs if r[0] != 0]
    assert full[0][1:3] == (0, partitions)  # the first: every partition, asking for a session
    assert len(full) >= 3  # the first, and one after each lost session
    # the client counts a Fetch when it queues it; one queued as close() began may never be written
    assert incremental and len(incremental) <= stats["incremental"] <= len(incremental) + 1
    # an incremental request lists only the partitions that changed: far fewer than all twelve
    assert max(r[2] for r in incremental) < partitions
    assert sum(r[2] for r in incremental) / len(incremental) < 3
    assert any(r[3] for r in incremental), reqs  # the paused partition was forgotten
    assert any(r[1] >= 2 for r in incremental)  # a session went on past its first incremental Fetch
    assert stats["reset"] >= 2
    # the same, read from the bytes the client sent
    wire = []
    for frame in capture.client_frames:
        if struct.unpack_from(">h", frame)[0] == FETCH:
            _, body = decode_request(struct.pack(">i", len(frame)) + frame)
            wire.append((body.session_id, sum(len(t.partitions) for t in body.topics)))
    assert len(wire) == len(reqs)
    assert max(n for sid, n in wire if sid) < partitions == max(n for sid, n in wire if not sid)
