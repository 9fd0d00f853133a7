"""The one I/O thread that drives a client's broker connections (``connection.py``).

Callers never touch a socket: ``NetworkClient.send(node_id, api, body)``
returns a ``concurrent.futures.Future`` completed on the I/O thread with the
decoded response body (or an exception).  The I/O thread owns every socket
(non-blocking, one ``selectors`` loop), the metadata refresh and the
"tickers" that higher layers register (fetcher, group coordinator); its wait
is the smallest of the next ticker deadline, the next metadata deadline and
the earliest request deadline.

Per broker there is one connection with pipelined in-flight requests matched
by correlation id.  Setting it up: TCP connect, TLS handshake (SSL,
SASL_SSL), ApiVersions (the highest version both sides support, per API),
then SaslHandshake + SaslAuthenticate (SASL_*).  Requests submitted before
the connection is ready wait in its queue.  A failed connection fails its
requests with KafkaConnectionError and is retried after an exponential,
jittered backoff (reconnect.backoff.ms doubling up to reconnect.backoff.max.ms).
"""
from __future__ import annotations

import collections
import concurrent.futures
import functools
import logging
import selectors
import socket
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from kafkacodec._random import rng
from kafkacodec.protocol import REQUESTS, api_key_of
from kafkacodec.client import errors as E
from kafkacodec.client._selector import FineTimeoutSelector
from kafkacodec.client.config import ssl_context_from
from kafkacodec.client.connection import DISCONNECTED, Address, BrokerConnection, Request, fail_request
from kafkacodec.client.metadata import Metadata
from kafkacodec.client.stats import BrokerCounters, StatsQueue
from kafkacodec.client.types import Throttle

if TYPE_CHECKING:
    from kafkacodec.client.oauth import OAuthTokens

__all__ = ["NetworkClient", "BrokerConnection", "Request"]

#: node ids of coordinators' own connections (NetworkClient.coordinator_node): this minus the broker's id
COORDINATOR_NODE_BASE = 2**31 - 1

log = logging.getLogger(__name__)

#: broker.address.family -> the family getaddrinfo is asked for
_FAMILIES = {"any": socket.AF_UNSPEC, "v4": socket.AF_INET, "v6": socket.AF_INET6}


class Ticker(Protocol):
    """What add_ticker() takes: tick(now) runs on every I/O loop iteration and returns the
    ticker's next deadline (time.monotonic()) or None.  It may also have
    ``connection_lost(node_id, error)``, called when a broker connection drops."""

    def tick(self, now: float) -> float | None: ...


def _literal_address(host: str, port: int, family: int) -> list[Address] | None:
    """host as an IP address literal needs no resolver (the first getaddrinfo of a process
    costs about a millisecond); None for a name, or a literal of another family than asked."""
    for fam in (socket.AF_INET, socket.AF_INET6):
        if family not in (socket.AF_UNSPEC, fam):
            continue
        try:
            socket.inet_pton(fam, host)
        except OSError:
            continue
        sockaddr = (host, port) if fam == socket.AF_INET else (host, port, 0, 0)
        return [(fam, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr)]
    return None


def _call_resolve_cb(resolve_cb: Callable[..., Any], host: str, port: int, family: int) -> list[Address]:
    """resolve_cb's answer, checked: a list of getaddrinfo 5-tuples; anything else, or an
    exception of the callback, is a failed lookup (OSError), as a resolver's would be."""
    try:
        found = resolve_cb(host, port, family, socket.SOCK_STREAM)
    except OSError:
        raise
    except Exception as exc:
        raise OSError(f"resolve_cb({host!r}, {port}) raised {type(exc).__name__}: {exc}") from exc
    if not isinstance(found, (list, tuple)) or not found or not all(
            isinstance(info, tuple) and len(info) == 5 and isinstance(info[4], tuple) for info in found):
        raise OSError(f"resolve_cb({host!r}, {port}) gave {found!r}, not a non-empty list of "
                      f"(family, type, proto, canonname, sockaddr)")
    return list(found)


class NetworkClient:
    """Connections, metadata and the I/O thread of one client (consumer, admin)."""

    def __init__(self, conf: dict[str, Any], *, name: str = "kafkacodec-io") -> None:
        self.conf = conf
        self.ssl_context = ssl_context_from(conf)
        self.selector = FineTimeoutSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self.selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._wake_pending = False  # a wakeup byte is on its way: later wakeups need no syscall
        self.connections: dict[int, BrokerConnection] = {}
        self._bootstrap: list[tuple[int, str, int]] = [
            (-1 - i, host, port) for i, (host, port) in enumerate(conf["bootstrap.servers"])]
        # (host, port) -> (when it expires, its addresses): resolved at most once per broker.address.ttl
        self._addresses: dict[tuple[str, int], tuple[float, list[Address]]] = {}
        self._next_idle_check = 0.0
        self._submitted: collections.deque[tuple[int | None, Request]] = collections.deque()
        self._calls: collections.deque[tuple[Callable[..., object], tuple[Any, ...]]] = collections.deque()
        self._unplaced: collections.deque[Request]  # made by _run, on the I/O thread
        self._tickers: list[Ticker] = []
        self._closed = False
        self.fatal_error: BaseException | None = None
        self.broker_counters: list[BrokerCounters] = []  # of every connection this client made
        # fn(error) on the I/O thread when the client fails (_fail)
        self.failure_listeners: list[Callable[[BaseException], object]] = []
        # where callbacks for the application's poll() wait (stats.stats_for_poll): throttle_cb's
        self.poll_callbacks: StatsQueue | None = None
        # brokers whose last connection failed or broke, until one is ready again; and whether the
        # moment all of them were down was reported (error_cb hears of it once, as librdkafka's)
        self._down: set[int] = set()
        self._all_down_reported = False
        self.metadata = Metadata(self, conf)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread_ident: int | None = None
        self.oauth: OAuthTokens | None = None
        if conf["security.protocol"].startswith("SASL") and conf["sasl.mechanism"] == "OAUTHBEARER":
            from kafkacodec.client.oauth import OAuthTokens  # json, ssl, urllib: only for OAUTHBEARER

            # the first token is asked for now, while the first connection is being made
            self.oauth = OAuthTokens(conf, self.call_soon)
        self._thread.start()

    # -- API for any thread

    def send(self, node_id: int | None, api: str | int, body: Any, *, timeout: float | None = None,
             max_version: int | None = None, version: int | None = None) -> concurrent.futures.Future[Any]:
        """Queue a request for broker `node_id` (None: the least loaded broker); returns a Future.
        It goes at the highest version both sides support, capped by kafkacodec.client.versions;
        `max_version` caps it lower, `version` names it."""
        if self._closed:
            raise self.failure or E.ClientClosedError("the client is closed")
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        timeout = self.conf["request.timeout.ms"] / 1000 if timeout is None else timeout
        req = Request(api_key_of(api), body, future, timeout, max_version, version)
        self._submitted.append((node_id, req))
        self.wakeup()
        return future

    def send_now(self, node_id: int | None, api: str | int, body: Any, *,
                 timeout: float | None = None) -> concurrent.futures.Future[Any]:
        """send() for the I/O thread itself (tickers, answer callbacks): the request is placed
        on its connection at once instead of waiting for the next loop iteration."""
        if self._closed:
            raise self.failure or E.ClientClosedError("the client is closed")
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        timeout = self.conf["request.timeout.ms"] / 1000 if timeout is None else timeout
        self._dispatch(node_id, Request(api_key_of(api), body, future, timeout), time.monotonic())
        return future

    def coordinator_node(self, node_id: int, host: str, port: int, *, own_connection: bool, role: str) -> int:
        """The node id to send to a coordinator that FindCoordinator named.  With
        `own_connection` (I/O thread), a connection of its own beside the broker's, so requests
        the coordinator holds (a JoinGroup waiting for other members) never hold up others;
        else the broker's, known by the address given even before metadata lists it."""
        if not own_connection:
            self.metadata.learn_broker(node_id, host, port)
            return node_id
        node = COORDINATOR_NODE_BASE - node_id
        conn = self.connections.get(node)
        if conn is None or (conn.host, conn.port) != (host, port):
            if conn is not None:
                conn.close()
            conn = self.connections[node] = BrokerConnection(self, node, host, port)
            conn.label = f"{node_id}, {role}"
        return node

    def call_soon(self, fn: Callable[..., object], *args: Any) -> None:
        """Run fn(*args) on the I/O thread."""
        self._calls.append((fn, args))
        self.wakeup()

    def wakeup(self) -> None:
        # one byte per loop iteration at most: the I/O thread clears the flag after it
        # drains the socket, so a wakeup that finds it set is seen by the next iteration
        # (cleared first, a byte sent in between could be drained and the flag stay set)
        if not self._wake_pending and threading.get_ident() != self._thread_ident:
            self._wake_pending = True
            try:
                self._wake_w.send(b"\0")
            except (BlockingIOError, OSError):
                pass  # a wakeup byte is pending already (or we are closing)

    def add_ticker(self, ticker: Ticker) -> None:
        """ticker.tick(now) runs on every loop iteration and returns its next deadline or None."""
        self.call_soon(self._tickers.append, ticker)

    def remove_ticker(self, ticker: Ticker) -> None:
        def remove() -> None:
            if ticker in self._tickers:
                self._tickers.remove(ticker)

        self.call_soon(remove)

    def request(self, node_id: int | None, api: str | int, body: Any, timeout: float | None = None,
                **kw: Any) -> Any:
        """Blocking form of send()."""
        future = self.send(node_id, api, body, timeout=timeout, **kw)
        wait = (self.conf["request.timeout.ms"] / 1000 if timeout is None else timeout) + 5
        try:
            return future.result(wait)
        except E.KafkaError:
            raise
        except concurrent.futures.TimeoutError:
            raise E.KafkaTimeoutError(f"no answer within {wait:.1f} s") from None

    def close(self, timeout: float | None = 5.0) -> None:
        if self._closed:
            return
        self._closed = True
        self.wakeup()
        if threading.get_ident() != self._thread_ident:
            self._thread.join(timeout)

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def on_io_thread(self) -> bool:
        """Whether the calling thread is this client's I/O thread, which nothing there may wait on
        (a collection running on it may finalize the object that owns the client)."""
        return threading.get_ident() == self._thread_ident

    @property
    def failure(self) -> E.ClientFailedError | None:
        """The ClientFailedError that stopped the client (see _fail), or None."""
        error = self.fatal_error
        return error if isinstance(error, E.ClientFailedError) else None

    # -- I/O thread

    def resolve(self, host: str, port: int, now: float) -> list[Address]:
        """host:port's addresses of broker.address.family, looked up again once broker.address.ttl
        has passed; every one is tried in turn before a connection counts as failed."""
        key = (host, port)
        cached = self._addresses.get(key)
        if cached is not None and cached[0] > now:
            return cached[1]
        family = _FAMILIES[self.conf["broker.address.family"]]
        resolve_cb = self.conf.get("resolve_cb")
        addresses = None if resolve_cb is not None else _literal_address(host, port, family)
        if addresses is None:
            found = (socket.getaddrinfo(host, port, family, socket.SOCK_STREAM) if resolve_cb is None
                     else _call_resolve_cb(resolve_cb, host, port, family))
            addresses = [info for i, info in enumerate(found) if info[4] not in [f[4] for f in found[:i]]]
        if len(self._addresses) > 1000:
            self._addresses.clear()  # brokers come and go: never a growing cache
        self._addresses[key] = (now + self.conf["broker.address.ttl"] / 1000, addresses)
        return addresses

    def _canonical_bootstrap(self) -> None:
        """client.dns.lookup=resolve_canonical_bootstrap_servers_only: each bootstrap server
        becomes the canonical names of its addresses (as the Java client does for Kerberos)."""
        family = _FAMILIES[self.conf["broker.address.family"]]
        names: list[tuple[str, int]] = []
        for host, port in self.conf["bootstrap.servers"]:
            resolve_cb = self.conf.get("resolve_cb")
            try:
                infos = (socket.getaddrinfo(host, port, family, socket.SOCK_STREAM) if resolve_cb is None
                         else _call_resolve_cb(resolve_cb, host, port, family))
            except OSError:
                infos = []
            expanded = []
            for info in infos:
                ip = str(info[4][0])
                try:
                    expanded.append(socket.getnameinfo((ip, 0), socket.NI_NAMEREQD)[0])
                except OSError:
                    expanded.append(ip)
            for name in expanded or [host]:
                if (name, port) not in names:
                    names.append((name, port))
        self._bootstrap = [(-1 - i, host, port) for i, (host, port) in enumerate(names)]
        log.debug("bootstrap servers by canonical name: %s", ", ".join(f"{h}:{p}" for _, h, p in self._bootstrap))

    def _close_idle(self, now: float) -> None:
        """Close connections idle for connections.max.idle.ms (-1: never), as brokers do."""
        idle = self.conf["connections.max.idle.ms"]
        if idle < 0:
            self._next_idle_check = float("inf")
            return
        self._next_idle_check = now + min(1.0, idle / 1000)
        for conn in list(self.connections.values()):
            if (conn.ready and not conn.in_flight and not conn.waiting
                    and now - conn.last_used >= idle / 1000):
                log.debug("broker %s (%s:%d): closing the connection, idle for %d ms", conn.label, conn.host,
                          conn.port, idle)
                conn.idle_closed = True
                conn.close()

    def _connection(self, node_id: int) -> BrokerConnection | None:
        conn = self.connections.get(node_id)
        if conn is None:
            if node_id < 0:
                entry = next((b for b in self._bootstrap if b[0] == node_id), None)
                if entry is None:
                    return None
                _, host, port = entry
            else:
                broker = self.metadata.brokers.get(node_id)
                if broker is None:
                    return None
                host, port = broker.host, broker.port
                conn = self._adopt_bootstrap(node_id, host, port)
                if conn is not None:
                    return conn
            conn = BrokerConnection(self, node_id, host, port)
            self.connections[node_id] = conn
        return conn

    def _adopt_bootstrap(self, node_id: int, host: str, port: int) -> BrokerConnection | None:
        """The bootstrap server's live connection when metadata names broker `node_id` at that
        same address: it goes on as that broker's, instead of a second connection to one
        address costing a connect and an ApiVersions round trip (a one-broker cluster's first
        Produce waits for them).  Its requests in flight are answered on it as before."""
        for boot_id, boot_host, boot_port in self._bootstrap:
            if boot_host == host and boot_port == port:
                conn = self.connections.get(boot_id)
                if conn is None or conn.state == DISCONNECTED:
                    return None
                del self.connections[boot_id]
                conn.node_id = conn.label = node_id
                self.connections[node_id] = conn
                log.debug("broker %d (%s:%d): the bootstrap connection serves it", node_id, host, port)
                return conn
        return None

    def least_loaded_node(self, now: float) -> int | None:
        """A ready broker with the fewest requests; else one connecting; else one we may connect to."""
        candidates = list(self.metadata.brokers) or [b[0] for b in self._bootstrap]
        rng.shuffle(candidates)
        best: tuple[int, int] | None = None
        for node_id in candidates:
            conn = self.connections.get(node_id)
            if conn is not None and conn.ready:
                if best is None or conn.load() < best[1]:
                    best = (node_id, conn.load())
        if best is not None:
            return best[0]
        for node_id in candidates:
            conn = self.connections.get(node_id)
            if conn is not None and conn.state not in (DISCONNECTED,):
                return node_id
        rebootstrap = bool(self.metadata.brokers) and self.conf["metadata.recovery.strategy"] == "rebootstrap"
        if rebootstrap and all(self._failed(node_id) for node_id in candidates):
            # every known broker failed its last connection: the bootstrap servers may know better
            return self._bootstrap_node(now)
        # of those we may connect to, one whose connections failed least often in a row (one never
        # tried first): a dead server in a list is not tried again while another was never tried
        best_failures: int | None = None
        chosen: int | None = None
        for node_id in candidates:
            conn = self.connections.get(node_id)
            failures = 0 if conn is None else conn.failures
            if (conn is None or conn.can_connect(now)) and (best_failures is None or failures < best_failures):
                best_failures, chosen = failures, node_id
        if chosen is not None:
            return chosen
        if rebootstrap:
            # every known broker is backing off: the bootstrap servers may know better
            return self._bootstrap_node(now)
        return None

    def _failed(self, node_id: int) -> bool:
        conn = self.connections.get(node_id)
        return conn is not None and conn.state == DISCONNECTED and conn.failures > 0

    def _bootstrap_node(self, now: float) -> int | None:
        for node_id, _, _ in self._bootstrap:
            conn = self.connections.get(node_id)
            if conn is None or conn.can_connect(now) or conn.state != DISCONNECTED:
                return node_id
        return None

    def _dispatch(self, node_id: int | None, req: Request, now: float) -> None:
        if node_id is None:
            node_id = self.least_loaded_node(now)
            if node_id is None:
                # every broker is backing off; retry when the first backoff ends
                req.deadline = req.deadline or now + req.timeout
                self._unplaced.append(req)
                return
        conn = self._connection(node_id)
        if conn is None:
            fail_request(req.future, E.KafkaConnectionError(f"unknown broker {node_id}"))
            return
        conn.enqueue(req, now)
        if conn.can_connect(now):
            conn.connect(now)

    def on_connection_ready(self, conn: BrokerConnection) -> None:
        log.debug("broker %s (%s:%d): connected", conn.label, conn.host, conn.port)
        self._down.discard(conn.node_id)
        self._all_down_reported = False

    def _report_transient(self, conn: BrokerConnection, error: BaseException) -> None:
        """error_cb, from the application's poll(), hears of each failed or broken connection and
        of the moment every known broker is down: errors the client recovers from by itself, which
        only a callback can tell an application that is waiting for records."""
        fn = self.conf.get("error_cb")
        if fn is None or self.poll_callbacks is None:
            return
        name = f"{conn.host}:{conn.port}/{conn.node_id if conn.node_id >= 0 else 'bootstrap'}"
        reported: BaseException
        try:
            reported = (type(error)(f"{name}: {error}") if isinstance(error, E.KafkaConnectionError)
                        else E.KafkaConnectionError(f"{name}: {type(error).__name__}: {error}"))
        except Exception:  # a subclass with its own constructor
            reported = E.KafkaConnectionError(f"{name}: {error}")
        reported.__cause__ = error
        self.poll_callbacks.put(functools.partial(fn, reported))
        known = list(self.metadata.brokers) or [node_id for node_id, _, _ in self._bootstrap]
        if conn.node_id not in known:
            return  # a coordinator's own connection: its broker is counted by the shared one
        self._down.add(conn.node_id)
        down = sum(1 for node_id in known if node_id in self._down)
        if down == len(known) and not self._all_down_reported:
            self._all_down_reported = True
            self.poll_callbacks.put(functools.partial(
                fn, E.NoBrokersAvailable(f"{down}/{len(known)} brokers are down")))

    def on_throttle(self, conn: BrokerConnection, throttle_time_ms: int) -> None:
        """A broker delayed an answer for a quota: throttle_cb hears of it from poll()."""
        log.debug("broker %s (%s:%d): answer throttled for %d ms", conn.label, conn.host, conn.port,
                  throttle_time_ms)
        fn = self.conf.get("throttle_cb")
        if fn is not None and self.poll_callbacks is not None:
            event = Throttle(f"{conn.host}:{conn.port}", conn.node_id, throttle_time_ms / 1000)
            self.poll_callbacks.put(functools.partial(fn, event))

    def on_connection_lost(self, conn: BrokerConnection, error: BaseException, fatal: bool, was_ready: bool = True,
                         expected: bool = False) -> None:
        if expected or self._closed or isinstance(error, (E.ClientClosedError, E.ClientFailedError)):
            # closing, or a failure the client reports itself: nothing unexpected to report here
            log.debug("broker %s (%s:%d): disconnected: %s", conn.label, conn.host, conn.port, error)
        elif was_ready:
            log.warning("broker %s (%s:%d): disconnected: %s: %s", conn.label, conn.host, conn.port,
                        type(error).__name__, error)
        elif conn.failures == 0:
            # the connection goes on with the host's next address at once (client.dns.lookup)
            log.debug("broker %s (%s:%d): connection failed, trying the next address: %s", conn.label, conn.host,
                      conn.port, error)
        elif conn.failures == 1:
            # the first failed attempt in a row; the ones after it, every reconnect backoff, at DEBUG
            log.warning("broker %s (%s:%d): connection failed: %s: %s", conn.label, conn.host, conn.port,
                        type(error).__name__, error)
        else:
            log.debug("broker %s (%s:%d): connection failed again (%d in a row): %s", conn.label, conn.host,
                      conn.port, conn.failures, error)
        if fatal:
            self.fatal_error = error
            self.metadata.failed()
        elif not expected and not self._closed and not isinstance(error, (E.ClientClosedError, E.ClientFailedError)):
            self._report_transient(conn, error)
        if conn.node_id >= 0 and not conn.idle_closed:
            self.metadata.request_update()
        conn.idle_closed = False
        for ticker in self._tickers:
            hook = getattr(ticker, "connection_lost", None)
            if hook is not None:
                hook(conn.node_id, error)

    def _run(self) -> None:
        self._thread_ident = threading.get_ident()
        self._unplaced = collections.deque()
        try:
            if self.conf["client.dns.lookup"] == "resolve_canonical_bootstrap_servers_only":
                self._canonical_bootstrap()
            while not self._closed:
                self._iterate()
        except BaseException as exc:
            self._fail("the I/O loop", exc)
        finally:
            self._shutdown()

    def _fail(self, where: str, exc: BaseException) -> None:
        """An exception the I/O thread cannot handle: the client stops and from now on refuses
        every call with an error that carries the cause (accepting work it can no longer do
        would lose it silently).  Queued requests fail with that error; failure listeners
        (the producer) fail what they hold."""
        log.error("kafkacodec client failed: %s raised", where, exc_info=exc)
        error = self.failure
        if error is None:
            error = E.ClientFailedError(f"the client stopped: {where} raised {type(exc).__name__}: {exc}")
            error.__cause__ = exc
            self.fatal_error = error
        self._closed = True
        for fn in list(self.failure_listeners):
            try:
                fn(error)
            except Exception:
                log.exception("kafkacodec failure listener %r failed", fn)

    def _iterate(self) -> None:
        now = time.monotonic()
        while self._calls:
            fn, args = self._calls.popleft()
            try:
                fn(*args)
            except Exception:
                log.exception("kafkacodec I/O thread task failed")
        unplaced, self._unplaced = self._unplaced, collections.deque()
        for req in unplaced:
            if req.deadline <= now:  # type: ignore[operator]  # set when it was left unplaced
                fail_request(req.future, E.KafkaTimeoutError(
                    f"{REQUESTS[req.api_key].name}: no broker reachable within {req.timeout:.1f} s"))
            else:
                self._dispatch(None, req, now)
        while self._submitted:
            node_id, req = self._submitted.popleft()
            if not req.future.cancelled():
                self._dispatch(node_id, req, now)
        deadlines: list[float] = []
        md = self.metadata.maybe_update(now)
        if md is not None:
            deadlines.append(md)
        for ticker in list(self._tickers):
            try:
                d = ticker.tick(now)
            except Exception as exc:
                # a ticker that raised has left its state half-updated: going on would answer
                # calls it can no longer serve (a group that never joins, batches never sent)
                self._fail(f"{type(ticker).__name__}.tick", exc)
                return
            if d is not None:
                deadlines.append(d)
        if self._closed:
            return  # closed from this thread (a ticker, a collection): no wait before the loop ends
        if now >= self._next_idle_check:
            self._close_idle(now)
        if self._next_idle_check != float("inf"):
            deadlines.append(self._next_idle_check)
        for conn in list(self.connections.values()):
            if conn.state == DISCONNECTED:
                if conn.waiting:
                    if conn.can_connect(now):
                        conn.connect(now)
                    else:
                        deadlines.append(conn.next_attempt)
                if conn.waiting:
                    d = conn.check_deadlines(now)
                    if d is not None:
                        deadlines.append(d)
                continue
            d = conn.check_deadlines(now)
            if d is not None:
                deadlines.append(d)
        if self._unplaced:
            deadlines.append(now + self.conf["reconnect.backoff.ms"] / 1000 + 0.001)
        timeout: float
        if self._calls or self._submitted:
            timeout = 0
        else:
            timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else 1.0
            timeout = min(timeout, 1.0)  # a lost wakeup can never stall the loop for long
        for key, mask in self.selector.select(timeout):
            if key.data is None:
                try:
                    # one byte per wakeup (wakeup()): a single read drains them; another
                    # would only meet EAGAIN, at the price of the GIL (see FrameReader.read)
                    while len(self._wake_r.recv(4096)) == 4096:
                        pass
                except (BlockingIOError, OSError):
                    pass
                self._wake_pending = False
                continue
            key.data.handle_events(mask, time.monotonic())

    def _shutdown(self) -> None:
        error = self.failure or E.ClientClosedError("the client was closed")
        for conn in list(self.connections.values()):
            waiting, conn.waiting = conn.waiting, collections.deque()
            for req in waiting:
                fail_request(req.future, error)
            conn.close(error)
        while self._submitted:
            fail_request(self._submitted.popleft()[1].future, error)
        for req in self._unplaced:
            fail_request(req.future, error)
        self.metadata.closed()
        if self.oauth is not None:
            self.oauth.close()
        try:
            self.selector.close()
        finally:
            self._wake_r.close()
            self._wake_w.close()
