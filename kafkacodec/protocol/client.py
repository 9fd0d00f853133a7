"""A minimal blocking Kafka client: enough to drive real brokers from tests and examples.

One TCP connection, ApiVersions negotiation, correlation ids, timeouts.  No
metadata cache, retries, pipelining or SASL/TLS — callers pick the broker.

    with KafkaConnection.connect("127.0.0.1:9092") as conn:
        md = conn.request("Metadata", messages.MetadataRequest(topics=None))
"""
import socket
import time

from kafkacodec.errors import KafkaConnectionError, KafkaError, KafkaTimeoutError
from kafkacodec.protocol import (FrameSplitter, api_key_of, encode_request, decode_response,
                                 expects_response, peek_correlation_id, REQUESTS)
from kafkacodec.protocol import messages
from kafkacodec.protocol.negotiation import (UNSUPPORTED_VERSION, api_versions_retry_version,
                                             decode_api_versions, negotiate, our_range)

__all__ = ["KafkaConnection", "ProtocolClientError", "ProtocolConnectionError", "ProtocolTimeoutError"]


class ProtocolClientError(KafkaError):
    """The connection failed, timed out, or the broker answered out of turn
    (never a ValueError: nothing was wrong with the caller's data)."""


class ProtocolConnectionError(ProtocolClientError, KafkaConnectionError):
    """The broker closed the connection."""


class ProtocolTimeoutError(ProtocolClientError, KafkaTimeoutError):
    """No response before the timeout."""


def parse_address(address):
    host, _, port = address.rpartition(":")
    return host or "127.0.0.1", int(port)


class KafkaConnection:
    def __init__(self, sock, client_id="kafkacodec", timeout=10.0, max_frame_size=100 << 20,
                 strict=True):
        self.sock = sock
        self.client_id = client_id
        self.timeout = timeout
        self.versions = {}
        self.api_versions = None  # the broker's ApiVersionsResponse
        self._corr = 0
        self._splitter = FrameSplitter(max_frame_size)
        self._frames = []
        self.strict = strict  # False: tolerate bytes after a response body

    @classmethod
    def connect(cls, address, client_id="kafkacodec", timeout=10.0, negotiate_versions=True,
                api_versions_version=None, strict=True, max_frame_size=100 << 20):
        # "host:port[,host:port...]": the first address that accepts wins
        addresses = ([parse_address(a) for a in address.split(",") if a.strip()]
                     if isinstance(address, str) else [address])
        sock = None
        for i, (host, port) in enumerate(addresses):
            try:
                sock = socket.create_connection((host, port), timeout=timeout)
                break
            except OSError:
                if i == len(addresses) - 1:
                    raise
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        conn = cls(sock, client_id, timeout, max_frame_size=max_frame_size, strict=strict)
        if negotiate_versions:
            try:
                conn.negotiate(api_versions_version)
            except BaseException:
                conn.close()  # the caller never gets the connection to close
                raise
        return conn

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- frames

    def _next_corr(self):
        self._corr = (self._corr + 1) & 0x7FFFFFFF
        return self._corr

    def send_frame(self, frame):
        self.sock.sendall(frame)

    def recv_frame(self, deadline):
        while not self._frames:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProtocolTimeoutError("timed out waiting for a response")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 16)
            except socket.timeout:
                raise ProtocolTimeoutError("timed out waiting for a response") from None
            if not chunk:
                raise ProtocolConnectionError("connection closed by the broker")
            self._frames.extend(self._splitter.feed(chunk))
        return self._frames.pop(0)

    def roundtrip(self, frame, correlation_id, timeout=None):
        """Send a request frame and return the response frame with its correlation id."""
        self.send_frame(frame)
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            resp = self.recv_frame(deadline)
            corr = peek_correlation_id(resp)
            if corr == correlation_id:
                return resp
            if corr > correlation_id:
                raise ProtocolClientError(f"response for correlation id {corr}, expected {correlation_id}")
            # older answers (e.g. after a timeout) are dropped

    # -- messages

    def negotiate(self, version=None):
        """ApiVersions exchange; falls back when the broker rejects our version."""
        version = our_range(18)[1] if version is None else version
        for _ in range(3):
            body = messages.ApiVersionsRequest(client_software_name="kafkacodec",
                                               client_software_version="0")
            corr = self._next_corr()
            frame = encode_request(18, version, body, correlation_id=corr, client_id=self.client_id)
            resp = self.roundtrip(frame, corr)
            _, answer, decoded_version = decode_api_versions(version, resp)
            if answer.error_code == UNSUPPORTED_VERSION:
                retry = api_versions_retry_version(answer)
                if retry >= version:
                    retry = 0
                version = retry
                continue
            self.api_versions = answer
            self.api_versions_version = version
            self.versions = negotiate(answer)
            return self.versions
        raise ProtocolClientError("ApiVersions negotiation did not converge")

    def version_for(self, api):
        key = api_key_of(api)
        if self.versions:
            if key not in self.versions:
                raise ProtocolClientError(f"the broker does not support {REQUESTS[key].name}")
            return self.versions[key]
        return our_range(key)[1]

    def request(self, api, body, version=None, timeout=None):
        """Send one request; return the decoded response body (None for acks=0 Produce)."""
        key = api_key_of(api)
        version = self.version_for(key) if version is None else version
        corr = self._next_corr()
        frame = encode_request(key, version, body, correlation_id=corr, client_id=self.client_id)
        if not expects_response(key, version, body):
            self.send_frame(frame)
            return None
        resp = self.roundtrip(frame, corr, timeout)
        _, answer = decode_response(key, version, resp, allow_trailing=not self.strict)
        return answer
