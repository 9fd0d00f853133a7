"""One broker connection: TCP, TLS, ApiVersions and SASL set-up, pipelined
requests matched by correlation id, frames read straight from the socket.

Every method runs on the I/O thread of the client that owns the connection
(``network.NetworkClient``), which it tells when it becomes ready or is lost.
"""
from __future__ import annotations

import collections
import concurrent.futures
import itertools
import logging
import os
import selectors
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from kafkacodec._random import rng
from kafkacodec.errors import KafkaCodecError
from kafkacodec.protocol import (REQUESTS, decode_response, encode_request, expects_response,
                                 peek_correlation_id)
from kafkacodec.protocol import messages as m
from kafkacodec.protocol.negotiation import (UNSUPPORTED_VERSION, api_versions_retry_version,
                                             decode_api_versions, negotiate, our_range)
from kafkacodec.client import errors as E
from kafkacodec.client._backoff import backoff
from kafkacodec.client.sasl import Mechanism, OAuthBearer, mechanism_for
from kafkacodec.client.stats import BrokerCounters
from kafkacodec.client.versions import max_version_by_key

__all__ = ["BrokerConnection", "ConnectionOwner", "FrameReader", "Request", "fail_request"]

if TYPE_CHECKING:
    import ssl

log = logging.getLogger(__name__)

# what a non-blocking send or receive raises when it would block: ssl's own two join once
# a TLS connection is made (ssl is imported with the first TLS context: a client without
# TLS does not pay its ~4 ms of imports at start)
_WOULD_BLOCK: tuple[type[BaseException], ...] = (BlockingIOError,)


def _tls_in_use() -> None:
    global _WOULD_BLOCK
    if len(_WOULD_BLOCK) == 1:
        import ssl
        _WOULD_BLOCK = (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError)

API_VERSIONS = 18
SASL_HANDSHAKE = 17
SASL_AUTHENTICATE = 36
METADATA = 3
RECV_SMALL = 1 << 16
_IOV_MAX = 512                # buffers per sendmsg (POSIX guarantees at least 16; Linux 1024)

DISCONNECTED, CONNECTING, TLS_HANDSHAKE, SETUP, READY = "disconnected", "connecting", "tls", "setup", "ready"

#: what a frame is received as: bytes when it came in one piece, else its own bytearray
Frame = bytes | bytearray

#: one address of a broker, as socket.getaddrinfo gives it: (family, type, proto, canonname, sockaddr)
Address = tuple[Any, ...]


def configure_socket(sock: socket.socket, conf: dict[str, Any]) -> None:
    """The socket settings on a new broker socket, before it connects (buffer sizes set
    later would not size the TCP window the handshake offers)."""
    if conf["socket.nagle.disable"]:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if conf["socket.keepalive.enable"]:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    if conf["send.buffer.bytes"] >= 0:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, conf["send.buffer.bytes"])
    if conf["receive.buffer.bytes"] >= 0:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, conf["receive.buffer.bytes"])


def _new_socket(socket_cb: Callable[..., Any] | None, family: int, proto: int) -> socket.socket:
    """A broker socket: the client's own, or socket_cb's (a socket or a file descriptor)."""
    if socket_cb is None:
        return socket.socket(family, socket.SOCK_STREAM)
    try:
        made = socket_cb(family, socket.SOCK_STREAM, proto)
    except OSError:
        raise
    except Exception as exc:
        raise OSError(f"socket_cb raised {type(exc).__name__}: {exc}") from exc
    if isinstance(made, socket.socket):
        return made
    if isinstance(made, int) and not isinstance(made, bool) and made >= 0:
        return socket.socket(fileno=made)
    raise OSError(f"socket_cb gave {made!r}, not a socket or a file descriptor")


def _close_socket(closesocket_cb: Callable[..., Any] | None, sock: socket.socket) -> None:
    """sock closed by closesocket_cb when given (a failing one is logged, and the socket closed
    here: no descriptor is left open), else by the client."""
    if closesocket_cb is not None:
        try:
            closesocket_cb(sock)
            return
        except Exception as exc:
            log.warning("closesocket_cb raised %s: %s; the socket is closed", type(exc).__name__, exc)
    try:
        sock.close()
    except OSError:
        pass


class ConnectionOwner(Protocol):
    """What a connection needs of the client that owns it (network.NetworkClient)."""

    @property
    def conf(self) -> dict[str, Any]: ...

    @property
    def selector(self) -> selectors.BaseSelector: ...

    @property
    def ssl_context(self) -> ssl.SSLContext | None: ...

    @property
    def oauth(self) -> TokenSource | None: ...

    @property
    def broker_counters(self) -> list[BrokerCounters]: ...

    def resolve(self, host: str, port: int, now: float) -> list[Address]:
        """The addresses to connect to host:port by, in the order to try them."""
        ...

    def on_connection_ready(self, conn: BrokerConnection) -> None: ...

    def on_throttle(self, conn: BrokerConnection, throttle_time_ms: int) -> None: ...

    def on_connection_lost(self, conn: BrokerConnection, error: BaseException, fatal: bool,
                           was_ready: bool = True, expected: bool = False) -> None: ...


class TokenSource(Protocol):
    """Where OAUTHBEARER connections get their token (kafkacodec.client.oauth.OAuthTokens)."""

    @property
    def last_error(self) -> BaseException | None: ...

    def get(self, waiter: Callable[[Any, BaseException | None], object]) -> Any: ...

    def forget(self, waiter: Callable[[Any, BaseException | None], object]) -> None: ...


class FrameReader:
    """Size-prefixed frames read straight from a socket.

    A frame whose size is known is received into its own preallocated
    bytearray (recv_into), so a multi-megabyte Fetch response costs one copy
    and as few recv calls (each a GIL hand-off with a decoding caller) as the
    socket buffer allows; small frames come through one reusable buffer.
    """

    __slots__ = ("max_frame_size", "_small", "_partial", "_frame", "_filled")

    def __init__(self, max_frame_size: int) -> None:
        self.max_frame_size = max_frame_size
        self._small = bytearray(RECV_SMALL)
        self._partial = b""      # the start of a frame shorter than its 4-byte size, or not yet sized
        self._frame: bytearray | None = None  # the frame being received (size prefix included)
        self._filled = 0

    def read(self, sock: socket.socket, frames: list[Frame]) -> None:
        """Append every complete frame to `frames` until the socket has nothing more
        now.  Raises ConnectionResetError at end of stream, ValueError on a bad size.

        A read that fills less than it asked for has emptied the socket: the next one
        would only fail with EAGAIN, so it is not made (the selector is level-triggered
        and reports what arrives later; a TLS socket's decrypted bytes not yet read,
        which the selector does not see, are read first).  Each call saved matters on
        the I/O thread: it gives up the GIL and must win it back from the
        application's thread."""
        pending = getattr(sock, "pending", None)  # TLS only
        while True:
            frame = self._frame
            if frame is not None:
                with memoryview(frame) as mv:
                    wanted = len(frame) - self._filled
                    n = sock.recv_into(mv[self._filled:])
                if not n:
                    raise ConnectionResetError("closed by the broker")
                self._filled += n
                if self._filled == len(frame):
                    frames.append(frame)
                    self._frame = None
                if n < wanted and not (pending is not None and pending()):
                    return
                continue
            n = sock.recv_into(self._small)
            if not n:
                raise ConnectionResetError("closed by the broker")
            data = self._partial + self._small[:n] if self._partial else bytes(self._small[:n])
            self._partial = b""
            self._split(data, frames)
            if n < len(self._small) and not (pending is not None and pending()):
                return

    def _split(self, data: bytes, frames: list[Frame]) -> None:
        pos, end = 0, len(data)
        while end - pos >= 4:
            size = int.from_bytes(data[pos:pos + 4], "big", signed=True)
            if size < 0 or size > self.max_frame_size:
                raise ValueError(f"frame size {size} outside 0..{self.max_frame_size} (receive.message.max.bytes)")
            stop = pos + 4 + size
            if stop <= end:
                frames.append(data[pos:stop])
                pos = stop
                continue
            if size >= RECV_SMALL:
                self._frame = frame = bytearray(4 + size)
                frame[:end - pos] = data[pos:]
                self._filled = end - pos
                return
            break
        self._partial = data[pos:]


class Request:
    """One request on its way: what to send, how to answer, by when.  (A plain slotted
    class: dataclasses would cost every client ~4 ms of imports at start.)"""

    __slots__ = ("api_key", "body", "future", "timeout", "max_version", "version", "deadline", "correlation_id",
                 "sent")

    def __init__(self, api_key: int, body: Any, future: concurrent.futures.Future[Any], timeout: float,
                 max_version: int | None = None, version: int | None = None) -> None:
        self.api_key = api_key
        self.body = body    # a generated request message, or an object with encode_frame/decode_response
        self.future = future
        self.timeout = timeout
        self.max_version = max_version
        self.version = version
        self.deadline: float | None = None        # set when queued on a connection
        self.correlation_id: int | None = None
        self.sent = 0.0     # when its bytes were queued for the socket (round-trip time)


def fail_request(future: concurrent.futures.Future[Any], exc: BaseException) -> None:
    """Fail a request's future unless it is answered already."""
    if not future.done():
        future.set_exception(exc)


class BrokerConnection:
    """One broker connection; every method runs on the I/O thread."""

    def __init__(self, client: ConnectionOwner, node_id: int, host: str, port: int) -> None:
        self.client = client
        self.node_id = node_id
        self.host = host
        self.port = port
        self.state = DISCONNECTED
        # set from connect() until close(); an SSLSocket once TLS is on
        self.sock: socket.socket | None = None
        self.tls = False    # self.sock is an ssl.SSLSocket (no scatter/gather)
        self.versions: dict[int, int] = {}  # api key -> the version used with this broker
        self.failures = 0
        self.next_attempt = 0.0
        self.connect_deadline: float | None = None
        # the address of the host tried now: a failed attempt moves on to the next one, and
        # the reconnect backoff starts once every address has failed (client.dns.lookup)
        self._address_index = 0
        self._address_count = 1
        # requests timed out in a row on this connection (socket.max.fails), and the
        # correlation ids of those whose late answer is to be dropped
        self.timeouts = 0
        self._abandoned: set[int] = set()
        self.waiting: collections.deque[Request] = collections.deque()  # submitted, not yet sent (not ready)
        self.in_flight: dict[int, Request] = {}                          # correlation id -> Request
        # buffers to send, in order (frames or parts of one)
        self._out: collections.deque[bytes | bytearray | memoryview] = collections.deque()
        self._reader: FrameReader | None = None
        self._corr = 0
        self._events = 0
        self._sasl: Mechanism | None = None
        # KIP-368: when to authenticate again (the session lifetime of SaslAuthenticate v1+), and
        # whether that is under way (new requests wait, those in flight are answered meanwhile)
        self._reauth_at: float | None = None
        self._reauthenticating = False
        self._token_waiter: Callable[[Any, BaseException | None], object] | None = None
        self.last_error: BaseException | None = None
        self.last_used = time.monotonic()
        self.idle_closed = False  # closed by the client for connections.max.idle.ms (no metadata refresh)
        # how logs name the broker: its id ("-1, bootstrap"; the group coordinator's own link says so)
        self.label: int | str = node_id if node_id >= 0 else f"{node_id}, bootstrap"
        # kept by the client after this connection is replaced, so its totals never shrink
        self.counters = BrokerCounters()
        client.broker_counters.append(self.counters)

    def __repr__(self) -> str:
        return f"<broker {self.node_id} {self.host}:{self.port} {self.state}>"

    # -- state

    @property
    def ready(self) -> bool:
        return self.state == READY

    def can_connect(self, now: float) -> bool:
        return self.state == DISCONNECTED and now >= self.next_attempt

    def load(self) -> int:
        return len(self.in_flight) + len(self.waiting)

    def connect(self, now: float) -> None:
        conf = self.client.conf
        self.state = CONNECTING
        self.counters.connects += 1
        self._out.clear()
        self._reader = FrameReader(conf["receive.message.max.bytes"])
        self.connect_deadline = now + conf["socket.connection.setup.timeout.ms"] / 1000
        self.timeouts = 0
        self._address_count = 1  # until resolved: a failed lookup leaves no other address to try
        try:
            addresses = self.client.resolve(self.host, self.port, now)
        except OSError as exc:
            self.close(E.HostResolutionError(f"resolve {self.host}:{self.port}: {exc.strerror or exc}"))
            return
        if not addresses:
            self.close(E.HostResolutionError(f"resolve {self.host}:{self.port}: no address"))
            return
        try:
            self._address_count = len(addresses)
            if self._address_index >= len(addresses):
                self._address_index = 0
            family, _, proto, _, address = addresses[self._address_index]
            sock = _new_socket(conf.get("socket_cb"), family, proto)
            self.sock = sock
            sock.setblocking(False)
            configure_socket(sock, conf)
            connect_cb = conf.get("connect_cb")
            err = sock.connect_ex(address) if connect_cb is None else self._call_connect_cb(connect_cb, address)
        except OSError as exc:
            self.close(E.KafkaConnectionError(f"connect to {self.host}:{self.port}: {exc}"))
            return
        if err not in (0, 115, 114, 36, 10035, 11):  # EINPROGRESS/EALREADY/EWOULDBLOCK variants
            self.close(E.KafkaConnectionError(f"connect to {self.host}:{self.port}: {os.strerror(err)}"))
            return
        self._register(selectors.EVENT_WRITE)

    def _call_connect_cb(self, connect_cb: Callable[..., Any], address: Address) -> int:
        """connect_cb's errno for this attempt (0 or EINPROGRESS: connected or under way); an
        exception or a non-integer answer fails the attempt as a refused connect would."""
        name = f"{self.host}:{self.port}/{self.node_id if self.node_id >= 0 else 'bootstrap'}"
        try:
            err = connect_cb(self.sock, address, name)
        except OSError:
            raise
        except Exception as exc:
            raise OSError(f"connect_cb raised {type(exc).__name__}: {exc}") from exc
        if isinstance(err, bool) or not isinstance(err, int):
            raise OSError(f"connect_cb gave {err!r}, not 0 or an errno")
        return int(err)

    def _register(self, events: int) -> None:
        if events == self._events or self.sock is None:
            return
        sel = self.client.selector
        if self._events == 0:
            sel.register(self.sock, events, self)
        elif events == 0:
            sel.unregister(self.sock)
        else:
            sel.modify(self.sock, events, self)
        self._events = events

    def _update_interest(self) -> None:
        if self.state in (SETUP, READY):
            self._register(selectors.EVENT_READ | (selectors.EVENT_WRITE if self._out else 0))

    def _connected(self, now: float) -> None:
        sock = self.sock
        assert sock is not None  # handle_events runs only for a registered socket
        err = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if err:
            self.close(E.KafkaConnectionError(f"connect to {self.host}:{self.port}: {os.strerror(err)}"))
            return
        ctx = self.client.ssl_context
        if ctx is not None:
            self._register(0)
            _tls_in_use()
            try:
                self.sock = ctx.wrap_socket(sock, server_hostname=self.host, do_handshake_on_connect=False)
                self.tls = True
            except OSError as exc:  # ssl.SSLError included
                self.close(E.KafkaConnectionError(f"TLS to {self.host}:{self.port}: {exc}"))
                return
            self.state = TLS_HANDSHAKE
            self._tls_step()
        else:
            self._begin_setup()

    def _tls_step(self) -> None:
        import ssl  # imported already: the client's TLS context made this connection TLS
        sock = self.sock
        assert isinstance(sock, ssl.SSLSocket)  # only in TLS_HANDSHAKE, after wrap_socket
        try:
            sock.do_handshake()
        except ssl.SSLWantReadError:
            self._register(selectors.EVENT_READ)
            return
        except ssl.SSLWantWriteError:
            self._register(selectors.EVENT_WRITE)
            return
        except ssl.SSLCertVerificationError as exc:
            self.close(E.AuthenticationError(f"TLS to {self.host}:{self.port}: certificate not trusted: {exc.verify_message}"),
                       fatal=True)
            return
        except OSError as exc:  # ssl.SSLError included
            self.close(E.KafkaConnectionError(f"TLS handshake with {self.host}:{self.port}: {exc}"))
            return
        self._begin_setup()

    # -- setup: ApiVersions, then SASL

    def _begin_setup(self) -> None:
        self.state = SETUP
        self._register(selectors.EVENT_READ)
        self._send_api_versions(our_range(API_VERSIONS)[1])

    def _setup_request(self, api_key: int, version: int, body: Any,
                       on_done: Callable[[concurrent.futures.Future[Any]], object]) -> None:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        conf = self.client.conf
        timeout = conf["api.version.request.timeout.ms" if api_key == API_VERSIONS else "request.timeout.ms"]
        req = Request(api_key, body, future, timeout / 1000, version=version)
        req.deadline = time.monotonic() + req.timeout
        future.add_done_callback(on_done)
        self._transmit(req)

    def _send_api_versions(self, version: int) -> None:
        body = m.ApiVersionsRequest(client_software_name="kafkacodec", client_software_version="1")

        def done(future: concurrent.futures.Future[Any]) -> None:
            if future.exception() is not None:
                return  # the connection is already closed
            answer, version_used = future.result()
            if answer.error_code == UNSUPPORTED_VERSION:
                retry = api_versions_retry_version(answer)
                if retry >= version_used:
                    retry = 0
                if version_used == 0:
                    self.close(E.KafkaConnectionError(f"broker {self.host}:{self.port} rejects ApiVersions v0"))
                    return
                self._send_api_versions(retry)
                return
            if answer.error_code:
                self.close(E.error_for(answer.error_code, f"ApiVersions from {self.host}:{self.port}"))
                return
            self.versions = negotiate(answer)
            if self.client.conf["security.protocol"].startswith("SASL"):
                self._begin_sasl()
            else:
                self._became_ready()

        self._setup_request(API_VERSIONS, version, body, done)

    def _begin_sasl(self) -> None:
        conf = self.client.conf
        if conf["sasl.mechanism"] != "OAUTHBEARER":
            self._handshake(mechanism_for(conf))
            return
        tokens = self.client.oauth
        assert tokens is not None  # made by the client for OAUTHBEARER

        def token_ready(token: Any, error: BaseException | None) -> None:
            if self._token_waiter is not token_ready:
                return  # closed (or authenticated) since it asked
            self._token_waiter = None
            if error is not None:
                self.close(error, fatal=True)
            else:
                self._handshake(OAuthBearer(token.value, token.principal, token.extensions))

        self._token_waiter = token_ready
        token = tokens.get(token_ready)
        if token is None:
            if self._reauthenticating:
                # the session's token has expired and no new one is there: the broker would close
                # the connection at the next request, so it is set up again (waiting for a token)
                self.close(E.KafkaConnectionError(f"broker {self.node_id}: the OAUTHBEARER token expired "
                                                  f"before a new one came"
                                                  + (f": {tokens.last_error}" if tokens.last_error else "")))
            return
        self._token_waiter = None
        self._handshake(OAuthBearer(token.value, token.principal, token.extensions))

    def _handshake(self, mech: Mechanism) -> None:
        self._sasl = mech
        version = min(self.versions.get(SASL_HANDSHAKE, 0), 1)

        def handshake_done(future: concurrent.futures.Future[Any]) -> None:
            if future.exception() is not None:
                return
            answer = future.result()
            if answer.error_code:
                self.close(E.AuthenticationError(
                    f"SASL mechanism {mech.name} not enabled on {self.host}:{self.port} "
                    f"(it offers {', '.join(answer.mechanisms or ()) or 'none'})"), fatal=True)
                return
            self._sasl_send(mech.start())

        self._setup_request(SASL_HANDSHAKE, version, m.SaslHandshakeRequest(mechanism=mech.name), handshake_done)

    def _sasl_send(self, payload: bytes) -> None:
        version = self.versions.get(SASL_AUTHENTICATE)
        if version is None:
            self.close(E.AuthenticationError(f"{self.host}:{self.port} does not offer SaslAuthenticate"), fatal=True)
            return
        mech = self._sasl
        assert mech is not None  # set by _begin_sasl before the first step
        sent = time.monotonic()

        def auth_done(future: concurrent.futures.Future[Any]) -> None:
            if future.exception() is not None:
                return
            answer = future.result()
            if answer.error_code:
                detail = answer.error_message or E.error_for(answer.error_code).description
                server_error = getattr(mech, "server_error", None)  # OAUTHBEARER's error document
                self.close(E.AuthenticationError(
                    f"SASL {mech.name} {'re-' if self._reauthenticating else ''}authentication as "
                    f"{mech.username!r} with {self.host}:{self.port} failed: {detail}"
                    + (f" ({server_error})" if server_error and server_error not in detail else "")), fatal=True)
                return
            try:
                reply = mech.step(answer.auth_bytes or b"")
            except E.AuthenticationError as exc:
                self.close(exc, fatal=True)
                return
            if reply is not None:
                self._sasl_send(reply)
                return
            span = (getattr(answer, "session_lifetime_ms", 0) or 0) / 1000
            # KIP-368: again at 85-95 % of the session (Java's spread, so that a client's
            # connections do not all go at once), yet at least min(1 s, half the session) before
            # its end (a short session leaves 5 % too little for a busy machine), counted from
            # when the last step was sent
            self._reauth_at = (sent + min(span * rng.uniform(0.85, 0.95), span - min(1.0, span / 2))
                               if span > 0 else None)
            if self._reauthenticating:
                self._reauthenticated()
            else:
                self._became_ready()

        self._setup_request(SASL_AUTHENTICATE, version, m.SaslAuthenticateRequest(auth_bytes=payload), auth_done)

    def _reauthenticate(self) -> None:
        log.debug("broker %s (%s:%d): re-authenticating (KIP-368)", self.label, self.host, self.port)
        self._reauthenticating = True
        self._reauth_at = None
        self._begin_sasl()

    def _reauthenticated(self) -> None:
        self._reauthenticating = False
        while self.waiting and not self._reauthenticating:
            self._send_ready(self.waiting.popleft())

    def _became_ready(self) -> None:
        self.state = READY
        self.failures = 0
        self._address_index = 0
        self.connect_deadline = None
        self.last_error = None
        while self.waiting:
            self._send_ready(self.waiting.popleft())
        self.client.on_connection_ready(self)

    # -- requests

    def enqueue(self, req: Request, now: float) -> None:
        req.deadline = now + req.timeout
        self.last_used = now
        if self.state == READY and not self._reauthenticating:
            self._send_ready(req)
        else:
            self.waiting.append(req)

    def _send_ready(self, req: Request) -> None:
        if req.future.done():
            return  # cancelled, or failed while it waited: its caller may have reused what it sends
        if req.version is None:
            broker_max = self.versions.get(req.api_key)
            if broker_max is None:
                fail_request(req.future, E.UnsupportedVersionError(
                    f"broker {self.node_id} does not support {REQUESTS[req.api_key].name}"))
                return
            # the caller's cap (only ever lower, on purpose), else the client's one table
            cap = max_version_by_key(req.api_key) if req.max_version is None else req.max_version
            req.version = broker_max if cap is None else min(broker_max, cap)
        self._transmit(req)

    def _transmit(self, req: Request) -> None:
        self._corr = (self._corr + 1) & 0x7FFFFFFF
        req.correlation_id = self._corr
        encode_frame = getattr(req.body, "encode_frame", None)
        try:
            if encode_frame is not None:
                # a request framed by its own encoder (the producer's Produce) as buffers
                # around the batches' bytes, sent as they are
                parts = encode_frame(req.version, req.correlation_id, self.client.conf["client.id"])
                if self.tls or not expects_response(req.api_key, req.version, req.body):
                    # TLS has no scatter/gather; an unanswered request is done before its
                    # bytes leave, so they must not be the caller's buffers
                    parts = [b"".join(parts)]
                self._out.extend(parts)  # bytes, bytearrays and byte memoryviews: len() counts bytes
                size = sum(map(len, parts))
            else:
                frame = encode_request(req.api_key, req.version, req.body, correlation_id=req.correlation_id,
                                       client_id=self.client.conf["client.id"])
                self._out.append(frame)
                size = len(frame)
        except (KafkaCodecError, ValueError) as exc:
            fail_request(req.future, exc)
            return
        counters = self.counters
        counters.tx += 1
        counters.txbytes += size
        counters.req[req.api_key] += 1
        req.sent = time.monotonic()
        if expects_response(req.api_key, req.version, req.body):
            self.in_flight[req.correlation_id] = req
        else:
            req.future.set_result(None)
        self._flush()

    def _flush(self) -> None:
        sock = self.sock
        if not self._out or sock is None:
            return
        out = self._out
        scatter = not self.tls
        try:
            while out:
                if scatter and len(out) > 1:
                    if len(out) <= _IOV_MAX:
                        n = sock.sendmsg(out)
                        if n == sum(map(len, out)):
                            out.clear()  # the common case: all of it went
                            break
                    else:
                        n = sock.sendmsg(list(itertools.islice(out, _IOV_MAX)))
                else:
                    n = sock.send(out[0])
                if n <= 0:
                    break
                while n:
                    size = len(out[0])
                    if n < size:
                        out[0] = memoryview(out[0])[n:]
                        break
                    out.popleft()
                    n -= size
        except _WOULD_BLOCK:
            pass
        except OSError as exc:
            self.counters.txerrs += 1
            self.close(E.KafkaConnectionError(f"send to broker {self.node_id} ({self.host}:{self.port}): {exc}"))
            return
        self._update_interest()

    def _read(self) -> None:
        frames: list[Frame] = []
        error = None
        reader, sock = self._reader, self.sock
        assert reader is not None and sock is not None  # read events come only while connected
        try:
            reader.read(sock, frames)
        except _WOULD_BLOCK:
            pass
        except ValueError as exc:
            error = E.KafkaConnectionError(f"broker {self.node_id}: bad framing: {exc}")
        except OSError as exc:
            error = E.KafkaConnectionError(f"broker {self.node_id} ({self.host}:{self.port}): {exc}")
        if frames:
            self._consume(frames)
        if error is not None and self.sock is not None:
            self.counters.rxerrs += 1
            self.close(error)

    def _consume(self, frames: list[Frame]) -> None:
        counters = self.counters
        now = time.monotonic()
        self.last_used = now
        self.timeouts = 0
        for frame in frames:
            corr = peek_correlation_id(frame)
            req = self.in_flight.pop(corr, None)
            if req is None and corr in self._abandoned:
                self._abandoned.discard(corr)  # the answer to a request that timed out (socket.max.fails)
                continue
            if req is None:
                counters.rxerrs += 1
                self.close(E.KafkaConnectionError(f"broker {self.node_id}: response for unknown correlation id {corr}"))
                return
            counters.rx += 1
            counters.rxbytes += len(frame)
            counters.rtt.add(now - req.sent)
            result: Any
            try:
                if req.api_key == API_VERSIONS:
                    _, body, used = decode_api_versions(req.version, frame)
                    result = (body, req.version)
                elif hasattr(req.body, "decode_response"):
                    result = req.body.decode_response(req.version, frame)
                else:
                    # lenient about bytes after a body: some brokers append a few
                    _, result = decode_response(req.api_key, req.version, frame, allow_trailing=True)
            except KafkaCodecError as exc:
                counters.rxerrs += 1
                fail_request(req.future, exc)
                continue
            throttle = getattr(result, "throttle_time_ms", 0)
            if throttle:
                self.client.on_throttle(self, throttle)
            if not req.future.done():
                req.future.set_result(result)

    def handle_events(self, mask: int, now: float) -> None:
        if self.state == CONNECTING:
            if mask & selectors.EVENT_WRITE:
                self._connected(now)
            return
        if self.state == TLS_HANDSHAKE:
            self._tls_step()
            return
        if mask & selectors.EVENT_READ:
            self._read()
        if self.sock is not None and mask & selectors.EVENT_WRITE:
            self._flush()

    def check_deadlines(self, now: float) -> float | None:
        """Expire requests; returns the earliest remaining deadline (or None)."""
        if self.connect_deadline is not None and now >= self.connect_deadline and self.state != READY:
            tokens = self.client.oauth if self._token_waiter is not None else None
            self.close(E.KafkaTimeoutError(f"connection setup with {self.host}:{self.port} timed out" + (
                "" if tokens is None else " waiting for an OAUTHBEARER token"
                + (f": {tokens.last_error}" if tokens.last_error else ""))))
        if self._reauth_at is not None and self.state == READY:
            if now >= self._reauth_at and not self._reauthenticating:
                self._reauthenticate()
                if self.state != READY:
                    return None
        earliest = self.connect_deadline if self.state not in (READY, DISCONNECTED) else self._reauth_at
        expired = None
        # every queued request has its deadline (enqueue)
        for req in self.in_flight.values():
            if req.deadline <= now:  # type: ignore[operator]
                expired = req
                break
            if earliest is None or req.deadline < earliest:  # type: ignore[operator]
                earliest = req.deadline
        if expired is not None:
            self.counters.req_timeouts += 1
            fail_request(expired.future, E.KafkaTimeoutError(
                f"{REQUESTS[expired.api_key].name} to broker {self.node_id} timed out after "
                f"{expired.timeout:.1f} s"))
            self.timeouts += 1
            max_fails = self.client.conf["socket.max.fails"]
            if self.state != READY:
                self.close(E.KafkaTimeoutError(f"connection setup with {self.host}:{self.port}: "
                                               f"{REQUESTS[expired.api_key].name} timed out after "
                                               f"{expired.timeout:.1f} s"))
                return None
            if max_fails and self.timeouts >= max_fails:
                # whether the broker still answers is unknown: drop the connection, like the Java
                # client (socket.max.fails=1, the default)
                self.close(E.KafkaConnectionError(f"broker {self.node_id}: disconnected after "
                                                  f"{self.timeouts} request timeout(s) in a row"))
                return None
            # kept (socket.max.fails): the late answer, if any, is dropped when it comes
            assert expired.correlation_id is not None  # in flight: sent with one
            del self.in_flight[expired.correlation_id]
            self._abandoned.add(expired.correlation_id)
            return self.check_deadlines(now)
        while self.waiting and self.waiting[0].deadline <= now:  # type: ignore[operator]
            req = self.waiting.popleft()
            self.counters.req_timeouts += 1
            fail_request(req.future, E.KafkaTimeoutError(
                f"{REQUESTS[req.api_key].name}: broker {self.node_id} ({self.host}:{self.port}) not reachable "
                f"within {req.timeout:.1f} s" + (f": {self.last_error}" if self.last_error else "")))
        for req in self.waiting:
            if earliest is None or req.deadline < earliest:  # type: ignore[operator]
                earliest = req.deadline
        return earliest

    def close(self, error: BaseException | None = None, fatal: bool = False) -> None:
        """Close the socket, fail every request, schedule the reconnect backoff."""
        was = self.state
        if self.sock is not None:
            if self._events:
                try:
                    self.client.selector.unregister(self.sock)
                except (KeyError, ValueError):
                    pass
            self._events = 0
            _close_socket(self.client.conf.get("closesocket_cb"), self.sock)
            self.sock = None
            self.tls = False
        self.state = DISCONNECTED
        self._out.clear()
        self._reauth_at = None
        self._reauthenticating = False
        if self._token_waiter is not None:
            tokens = self.client.oauth
            if tokens is not None:
                tokens.forget(self._token_waiter)
            self._token_waiter = None
        # closed without a cause: by this client on purpose (a coordinator moved), not a fault
        expected = error is None
        error = error or E.KafkaConnectionError(f"connection to broker {self.node_id} closed")
        self.last_error = error
        self._abandoned.clear()
        conf = self.client.conf
        if was != READY and was != DISCONNECTED and not fatal and self._address_index + 1 < self._address_count:
            # another address of the host is left to try: at once, not after a backoff
            self._address_index += 1
            self.next_attempt = time.monotonic()
        else:
            if was != READY:
                self.failures += 1
            else:
                self.counters.disconnects += 1
            self._address_index = 0
            base = conf["reconnect.backoff.ms"] / 1000
            cap = max(base, conf["reconnect.backoff.max.ms"] / 1000)
            self.next_attempt = time.monotonic() + backoff(base, cap, self.failures, jitter=0.2)
        in_flight, self.in_flight = self.in_flight, {}
        for req in in_flight.values():
            fail_request(req.future, error)
        # queued requests go back to their callers at once: they may retry elsewhere
        # (a new leader) instead of waiting out this broker's backoff
        waiting, self.waiting = self.waiting, collections.deque()
        for req in waiting:
            fail_request(req.future, error)
        if was != DISCONNECTED:
            self.client.on_connection_lost(self, error, fatal, was == READY, expected)
