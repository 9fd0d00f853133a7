"""Version negotiation, the error table, and the client against an in-process fake broker."""
import socket
import threading

import pytest

from kafkacodec.protocol import (FrameSplitter, decode_request, encode_response, errors,
                                 messages as m)
from kafkacodec.errors import FrameTooLargeError
from kafkacodec.protocol.client import KafkaConnection, ProtocolClientError
from kafkacodec.protocol.negotiation import (api_versions_retry_version, decode_api_versions,
                                             negotiate)

AV = m.ApiVersionsResponse.ApiVersion


def test_negotiate_highest_common():
    resp = m.ApiVersionsResponse(api_keys=[
        AV(api_key=3, min_version=0, max_version=99),    # broker newer than us
        AV(api_key=0, min_version=0, max_version=7),     # broker older than us
        AV(api_key=1, min_version=20, max_version=30),   # no overlap
        AV(api_key=5000, min_version=0, max_version=1),  # unknown to us
    ])
    got = negotiate(resp)
    assert got == {3: 13, 0: 7}


def test_unsupported_version_fallback_decodes_v0_layout():
    # A broker that only knows ApiVersions v0-2 answers a v3 request in the v0 layout.
    body = m.ApiVersionsResponse(error_code=35, api_keys=[AV(api_key=18, min_version=0, max_version=2)])
    frame = encode_response("ApiVersions", 0, 4, body)
    corr, got, version = decode_api_versions(3, frame)
    assert (corr, version, got.error_code) == (4, 0, 35)
    assert api_versions_retry_version(got) == 2
    assert api_versions_retry_version(m.ApiVersionsResponse(error_code=35)) == 0


def test_error_table():
    codes = [c for c, *_ in errors.ERRORS]
    assert codes == sorted(codes) and codes[0] == -1 and len(set(codes)) == len(codes)
    assert codes == list(range(-1, codes[-1] + 1))
    assert errors.BY_CODE[6] is errors.NotLeaderOrFollowerError
    assert errors.NotLeaderOrFollowerError.retriable
    assert issubclass(errors.NotCoordinatorError, errors.RetriableBrokerError)
    assert not errors.TopicAlreadyExistsError.retriable
    with pytest.raises(errors.UnsupportedVersionError) as info:
        errors.check(35, "ApiVersions v9")
    assert info.value.code == 35 and "UNSUPPORTED_VERSION" in str(info.value)
    errors.check(0)
    assert errors.error_for(9999).code == 9999
    for _, name, _, desc in errors.ERRORS:
        assert desc and name.isupper()


class FakeBroker:
    """Answers ApiVersions (rejecting versions above max_av) and Metadata; ignores acks=0 Produce."""

    def __init__(self, max_av=2):
        self.max_av = max_av
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(1)
        self.srv.settimeout(10)
        self.port = self.srv.getsockname()[1]
        self.seen = []
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        conn, _ = self.srv.accept()
        conn.settimeout(10)
        sp = FrameSplitter()
        with conn:
            while True:
                data = conn.recv(65536)
                if not data:
                    return
                for frame in sp.feed(data):
                    header, body = decode_request(frame)
                    key, ver, corr = header.request_api_key, header.request_api_version, header.correlation_id
                    self.seen.append((key, ver))
                    if key == 18:
                        if ver > self.max_av:
                            out = encode_response(18, 0, corr, m.ApiVersionsResponse(
                                error_code=35, api_keys=[AV(api_key=18, min_version=0, max_version=self.max_av)]))
                        else:
                            out = encode_response(18, ver, corr, m.ApiVersionsResponse(api_keys=[
                                AV(api_key=18, min_version=0, max_version=self.max_av),
                                AV(api_key=3, min_version=0, max_version=9),
                                AV(api_key=0, min_version=3, max_version=9)]))
                    elif key == 3:
                        out = encode_response(3, ver, corr, m.MetadataResponse(cluster_id="fake", brokers=[
                            m.MetadataResponse.MetadataResponseBroker(node_id=1, host="127.0.0.1", port=self.port)]))
                    else:
                        continue
                    conn.sendall(out)

    def close(self):
        self.srv.close()
        self.thread.join(5)


def test_client_against_fake_broker():
    fake = FakeBroker(max_av=2)
    try:
        with KafkaConnection.connect(f"127.0.0.1:{fake.port}", timeout=5) as conn:
            assert conn.versions == {18: 2, 3: 9, 0: 9}
            assert conn.api_versions_version == 2
            assert conn.request("Produce", m.ProduceRequest(acks=0, timeout_ms=10)) is None
            md = conn.request("Metadata", m.MetadataRequest(topics=None))
            assert md.cluster_id == "fake" and md.brokers[0].port == fake.port
            with pytest.raises(ProtocolClientError):
                conn.request("Heartbeat", m.HeartbeatRequest())
    finally:
        fake.close()
    assert fake.seen == [(18, 4), (18, 2), (0, 9), (3, 9)]


def test_pure_mode_is_observable():
    import os
    import subprocess
    import sys
    code = ("import kafkacodec.protocol as p; from kafkacodec.protocol import messages as m; "
            "print(p.accelerated, p.executor.__name__, "
            "len(p.encode_request('Metadata', 12, m.MetadataRequest(topics=None), correlation_id=1)))")
    env = dict(os.environ, KAFKACODEC_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "kafkacodec.protocol._pure_codec", "19"]


def test_error_table_is_complete_and_agrees_with_kafka_python():
    codes = [c for c, *_ in errors.ERRORS]
    assert codes[-1] == 133  # SHARE_SESSION_LIMIT_REACHED, the last code in Kafka 4.2's Errors.java
    assert errors.BY_NAME["SHARE_SESSION_LIMIT_REACHED"].code == 133
    kerrors = pytest.importorskip("kafka.errors")
    theirs = {c.errno: c.retriable for c in vars(kerrors).values()
              if isinstance(c, type) and issubclass(c, kerrors.BrokerResponseError)
              and isinstance(getattr(c, "errno", None), int)}
    ours = {c: r for c, _, r, _ in errors.ERRORS}
    # Kafka's CorruptRecordException is a RetriableException; kafka-python marks it otherwise
    differ = {c for c in theirs if c in ours and ours[c] != theirs[c]}
    assert differ == {2}, differ
    assert len(set(theirs) & set(ours)) > 120


def _silent_broker():
    """Accepts one connection, answers ApiVersions with an oversized frame
    header, then waits for the client to close."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    srv.settimeout(10)
    closed = threading.Event()

    def run():
        conn, _ = srv.accept()
        with conn:
            conn.settimeout(10)
            conn.recv(65536)
            conn.sendall((1 << 20).to_bytes(4, "big"))   # claims a 1 MiB response
            if conn.recv(1) == b"":
                closed.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return srv, thread, closed


def test_connect_passes_max_frame_size_and_closes_on_failed_handshake():
    srv, thread, closed = _silent_broker()
    try:
        with pytest.raises(FrameTooLargeError):
            KafkaConnection.connect(f"127.0.0.1:{srv.getsockname()[1]}", timeout=5, max_frame_size=1024)
        thread.join(10)
        assert closed.is_set(), "the socket of a failed handshake was left open"
    finally:
        srv.close()
