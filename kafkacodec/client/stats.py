"""Client statistics in the layout of librdkafka's STATISTICS.md.

``Producer.metrics()`` / ``Consumer.metrics()`` return the document as a dict at
any time; with ``statistics.interval.ms`` > 0 and a ``stats_cb``, the I/O thread
builds it every interval and the callback receives it as a JSON string from
``poll()`` (and the producer's ``flush()``), the thread where delivery callbacks
run.  Only fields this client can answer are present; where librdkafka marks a
value unknown, so does this one (offsets -1001, lag -1).

Counting is per request and per batch, never per record: the network layer
counts requests, responses, bytes and round trips per connection
(``BrokerCounters``); the sender counts acknowledged batches per partition, the
fetcher the bytes of fetched data per partition and ``poll()`` the records it
hands out per fetch.  The document itself is built on the I/O thread, where that
state changes, so it is consistent with itself.

What some fields mean here:

- ``txmsgs``/``txbytes`` (producer): records and batch bytes (v2 framing
  included) acknowledged by the broker (acks=0: sent); a retried batch counts once.
- ``msg_cnt``/``msg_size``: records not yet acknowledged or failed (queued and in
  flight); a partition's ``msgq_cnt``/``msgq_bytes``: queued, not yet sent;
  ``msgs_inflight``: sent, not yet answered.
- ``rxmsgs`` (consumer): records handed to the application by ``poll()`` /
  ``poll_arrow()``; ``rxbytes``: bytes of record batches received in Fetch responses.
- ``fetchq_cnt``/``fetchq_size``: records and bytes fetched and not yet handed out
  (records of a fetch not yet decoded are counted from its batch headers).
- ``committed_offset``: the last offset this consumer committed or read back;
  ``stored_offset``/``app_offset``: the position (what a commit without arguments
  commits); ``consumer_lag``: end offset (``hi_offset``, ``ls_offset`` under
  read_committed) minus ``committed_offset``; ``consumer_lag_stored``: minus the position.
- ``rtt``: round trips of the responses since the last periodic document (without
  one, since the client started), in microseconds; percentiles over the last
  1024 of them.
- ``brokers``: "host:port/id" per broker, "host:port/bootstrap" per bootstrap
  server, and "GroupCoordinator" for the group coordinator's own connection.
"""
from __future__ import annotations

import collections
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kafkacodec.protocol import REQUESTS
from kafkacodec.records import iter_batches

if TYPE_CHECKING:
    from kafkacodec.client.connection import BrokerConnection
    from kafkacodec.client.network import NetworkClient

#: a statistics document (librdkafka's STATISTICS.md layout), as json.loads gives it back
Document = dict[str, Any]

__all__ = ["BrokerCounters", "RttWindow", "Statistics", "StatsEmitter", "StatsQueue"]

log = logging.getLogger(__name__)

OFFSET_INVALID = -1001          # librdkafka's "no offset"
_COORDINATOR_NODES = 1 << 30    # node ids above: coordinators' own connections (NetworkClient.coordinator_node)
_instances = itertools.count(1)


class RttWindow:
    """Round trips of one connection: exact count, sum, extremes; percentiles over the latest samples."""

    __slots__ = ("samples", "cnt", "total", "squares", "low", "high")
    SAMPLES = 1024

    def __init__(self) -> None:
        self.samples: collections.deque[float] = collections.deque(maxlen=self.SAMPLES)
        self.reset()

    def reset(self) -> None:
        self.samples.clear()
        self.cnt = 0
        self.total = 0.0
        self.squares = 0.0
        self.low: float | None = None
        self.high = 0.0

    def add(self, seconds: float) -> None:
        self.samples.append(seconds)
        self.cnt += 1
        self.total += seconds
        self.squares += seconds * seconds
        if self.low is None or seconds < self.low:
            self.low = seconds
        if seconds > self.high:
            self.high = seconds

    def summary(self) -> dict[str, int]:
        """librdkafka's window object, in microseconds (all 0 for an empty window)."""
        cnt = self.cnt
        low = self.low
        if not cnt or low is None:  # low is set by the first add()
            return {"min": 0, "max": 0, "avg": 0, "sum": 0, "stddev": 0, "cnt": 0,
                    "p50": 0, "p75": 0, "p90": 0, "p95": 0, "p99": 0}
        mean = self.total / cnt
        variance = max(0.0, self.squares / cnt - mean * mean)
        ordered = sorted(self.samples)
        last = len(ordered) - 1

        def pct(q: float) -> int:
            return int(ordered[min(last, int(q * len(ordered)))] * 1e6)

        return {"min": int(low * 1e6), "max": int(self.high * 1e6), "avg": int(mean * 1e6),
                "sum": int(self.total * 1e6), "stddev": int(variance ** 0.5 * 1e6), "cnt": cnt,
                "p50": pct(0.50), "p75": pct(0.75), "p90": pct(0.90), "p95": pct(0.95), "p99": pct(0.99)}


class BrokerCounters:
    """What one broker connection counted (network.BrokerConnection updates it on the I/O thread)."""

    __slots__ = ("tx", "txbytes", "rx", "rxbytes", "txerrs", "rxerrs", "req_timeouts", "connects",
                 "disconnects", "req", "rtt")

    def __init__(self) -> None:
        self.tx = self.txbytes = self.rx = self.rxbytes = 0
        self.txerrs = self.rxerrs = self.req_timeouts = 0
        self.connects = self.disconnects = 0
        self.req: collections.Counter[int] = collections.Counter()    # api key -> requests sent
        self.rtt = RttWindow()


def _api_name(key: int) -> str:
    name = REQUESTS[key].name
    return name[:-len("Request")] if name.endswith("Request") else name


_STATES = {"connecting": "CONNECT", "tls": "SSL_HANDSHAKE", "ready": "UP"}


def _broker_state(conn: BrokerConnection) -> str:
    state = conn.state
    if state == "disconnected":
        return "INIT" if conn.counters.connects == 0 else "DOWN"
    if state == "setup":
        return "AUTH_REQ" if conn._sasl is not None else "APIVERSION_QUERY"
    return _STATES.get(state, state.upper())


def _offset(value: int | None) -> int:
    return OFFSET_INVALID if value is None or value < 0 else value


def _fetchq_cnt(cf: Any, position: int) -> int:
    """Records of a buffered fetch not yet handed out."""
    if cf.kind == "records" and cf.decoded is not None:
        return max(0, len(cf.decoded) - cf.index)  # type: ignore[no-any-return]  # a count of decoded rows
    if cf.kind == "arrow" and cf.decoded is not None:
        return max(0, cf.decoded.num_rows - cf.index)  # type: ignore[no-any-return]  # as above
    data = cf.data
    if data is None:
        return 0
    count = 0
    for batch in iter_batches(data, verify_crc=False):
        if batch.is_control or batch.next_offset <= position:
            continue
        count += min(batch.record_count, batch.next_offset - max(batch.base_offset, position))
    return count


# librdkafka's consumer group states (rdkafka_cgrp.h) for the group coordinator's phases
_JOIN_STATES = {"idle": "init", "revoke": "wait-unassign-call", "join": "wait-join", "joining": "wait-join",
                "sync_wait": "wait-metadata", "syncing": "wait-sync", "assigned": "wait-assign-call",
                "stable": "steady"}


class Statistics:
    """Builds one client's document; `producer` is (sender, accumulator, partition counts by topic),
    `consumer` (fetcher, group or None, read_committed)."""

    def __init__(self, kind: str, client: NetworkClient, conf: dict[str, Any], *,
                 producer: tuple[Any, Any, dict[str, int]] | None = None,
                 consumer: tuple[Any, Any, bool] | None = None) -> None:
        self.kind = kind
        self.client = client
        self.client_id = conf["client.id"]
        self.name = f"{self.client_id}#{kind}-{next(_instances)}"
        self.buffer_memory = conf.get("buffer.memory")
        self.producer = producer
        self.consumer = consumer
        self.started = time.monotonic()

    # -- on the I/O thread (or any thread once that one is gone)

    def document(self) -> Document:
        now_wall = time.time()
        now = time.monotonic()
        client = self.client
        doc: Document = {"name": self.name, "client_id": self.client_id, "type": self.kind,
               "ts": int(now * 1e6), "time": int(now_wall), "age": int((now - self.started) * 1e6)}
        tx = txbytes = rx = rxbytes = 0
        for c in list(client.broker_counters):
            tx += c.tx
            txbytes += c.txbytes
            rx += c.rx
            rxbytes += c.rxbytes
        doc.update(tx=tx, tx_bytes=txbytes, rx=rx, rx_bytes=rxbytes)
        doc["metadata_cache_cnt"] = len(client.metadata.topics)
        totals: tuple[int, ...]
        if self.producer is not None:
            topics, totals = self._producer_topics()
            doc.update(msg_cnt=totals[0], msg_size=totals[1], msg_size_max=self.buffer_memory,
                       txmsgs=totals[2], txmsg_bytes=totals[3])
        else:
            topics, totals = self._consumer_topics()
            doc.update(rxmsgs=totals[0], rxmsg_bytes=totals[1])
        doc["brokers"] = self._brokers(topics)
        doc["topics"] = topics
        if self.consumer is not None and self.consumer[1] is not None:
            doc["cgrp"] = self._cgrp(now)
        return doc

    def end_window(self) -> None:
        """A periodic document was built: the round-trip windows start over, as librdkafka's."""
        for c in list(self.client.broker_counters):
            c.rtt.reset()

    def _brokers(self, topics: dict[str, Any]) -> dict[str, Any]:
        client = self.client
        group = self.consumer[1] if self.consumer is not None else None
        coordinator = group.coordinator if group is not None else None
        led: dict[int, dict[str, Any]] = {}
        for name, t in topics.items():
            for p in t["partitions"].values():
                led.setdefault(p["leader"], {})[f"{name}-{p['partition']}"] = {"topic": name,
                                                                               "partition": p["partition"]}
        out: dict[str, Any] = {}
        for node_id, conn in list(client.connections.items()):
            host_port = f"{conn.host}:{conn.port}"
            if node_id < 0:
                key, nodeid, source = f"{host_port}/bootstrap", -1, "configured"
            elif node_id > _COORDINATOR_NODES:
                if node_id != coordinator:
                    continue  # a former coordinator's connection: counted in the totals only
                key, nodeid, source = "GroupCoordinator", (2**31 - 1) - node_id, "logical"
            else:
                key, nodeid, source = f"{host_port}/{node_id}", node_id, "learned"
            c = conn.counters
            out[key] = {
                "name": key, "nodeid": nodeid, "nodename": host_port, "source": source,
                "state": _broker_state(conn),
                "outbuf_cnt": len(conn.waiting), "waitresp_cnt": len(conn.in_flight),
                "tx": c.tx, "txbytes": c.txbytes, "txerrs": c.txerrs,
                "rx": c.rx, "rxbytes": c.rxbytes, "rxerrs": c.rxerrs,
                "req_timeouts": c.req_timeouts, "connects": c.connects, "disconnects": c.disconnects,
                "rtt": c.rtt.summary(),
                "req": {_api_name(k): n for k, n in sorted(c.req.items())},
                "toppars": led.get(nodeid, {}) if source == "learned" else {},
            }
        return out

    def _producer_topics(self) -> tuple[dict[str, Any], tuple[int, int, int, int]]:
        assert self.producer is not None  # a producer's statistics
        sender, acc, counts = self.producer
        md = self.client.metadata
        # (topic, partition) -> [msgq_cnt, msgq_bytes, inflight records, inflight bytes]
        parts: dict[tuple[str, int], list[int]] = {}

        def entry(tp: tuple[str, int]) -> list[int]:
            e = parts.get(tp)
            if e is None:
                e = parts[tp] = [0, 0, 0, 0]
            return e

        for topic, count in list(counts.items()):
            for p in range(count):
                entry((topic, p))
        with acc.lock:
            for tp, dq in acc.deques.items():
                e = entry(tp)
                for b in dq:
                    builder = b.builder
                    if b.data is None and builder is not None:
                        e[0] += builder.record_count
                        e[1] += builder.size_in_bytes
                    elif b.data is not None:
                        e[0] += b.record_count
                        e[1] += len(b.data)
        for batches, sizes in list(sender.requests_in_flight.values()):
            for b, size in zip(batches, sizes):
                e = entry((b.topic, b.partition))
                e[2] += b.record_count
                e[3] += size
        acked = dict(sender.acked)
        for tp in acked:
            entry(tp)
        topics: dict[str, Any] = {}
        msg_cnt = msg_size = txmsgs = txbytes = 0
        for (topic, p), (qcnt, qbytes, fcnt, fbytes) in sorted(parts.items()):
            sent = acked.get((topic, p), (0, 0))
            msg_cnt += qcnt + fcnt
            msg_size += qbytes + fbytes
            txmsgs += sent[0]
            txbytes += sent[1]
            leader = md.leader_for(topic, p)
            t = topics.setdefault(topic, {"topic": topic, "partitions": {}})
            t["partitions"][str(p)] = {
                "partition": p, "leader": -1 if leader is None else leader,
                "msgq_cnt": qcnt, "msgq_bytes": qbytes, "msgs_inflight": fcnt,
                "txmsgs": sent[0], "txbytes": sent[1]}
        return topics, (msg_cnt, msg_size, txmsgs, txbytes)

    def _consumer_topics(self) -> tuple[dict[str, Any], tuple[int, int]]:
        assert self.consumer is not None  # not a producer's: a consumer's statistics
        fetcher, group, read_committed = self.consumer
        md = self.client.metadata
        committed = dict(group.committed_offsets) if group is not None else {}
        topics: dict[str, Any] = {}
        with fetcher.lock:
            received = {tp: tuple(v) for tp, v in fetcher.received.items()}
            for tp, state in sorted(fetcher.partitions.items()):
                position = state.position
                if state.reset is not None:
                    fetch_state = "offset-query"
                elif position is None:
                    fetch_state = "offset-wait"
                else:
                    fetch_state = "active"
                fetches = [cf for cf in (fetcher.buffered.get(tp), *fetcher.queued.get(tp, ()))
                           if cf is not None and cf.data is not None]
                if fetches and position is not None:
                    # the fetch being drained and those fetched ahead behind it (fetch.queue.min.records)
                    fetchq_cnt = sum(_fetchq_cnt(cf, position) for cf in fetches)
                    fetchq_size = sum(len(cf.data) for cf in fetches)
                    next_offset = fetches[-1].next_offset(False)
                else:
                    fetchq_cnt = fetchq_size = 0
                    next_offset = state.fetch_offset()
                hi, ls = state.high_watermark, state.last_stable_offset
                end = ls if read_committed else hi
                done = committed.get(tp)
                # -1: unknown, as librdkafka's; never below 0 (a commit ahead of a stale end offset)
                lag = max(0, end - done) if end >= 0 and done is not None else -1
                lag_stored = max(0, end - position) if end >= 0 and position is not None else -1
                leader = md.leader_for(tp.topic, tp.partition)
                msgs, nbytes = received.get(tp, (0, 0))
                t = topics.setdefault(tp.topic, {"topic": tp.topic, "partitions": {}})
                t["partitions"][str(tp.partition)] = {
                    "partition": tp.partition, "leader": -1 if leader is None else leader,
                    "fetchq_cnt": fetchq_cnt, "fetchq_size": fetchq_size, "fetch_state": fetch_state,
                    "next_offset": _offset(next_offset), "app_offset": _offset(position),
                    "stored_offset": _offset(position), "committed_offset": _offset(done),
                    "lo_offset": _offset(state.log_start_offset), "hi_offset": _offset(hi),
                    "ls_offset": _offset(ls), "consumer_lag": lag, "consumer_lag_stored": lag_stored,
                    "rxmsgs": msgs, "rxbytes": nbytes}
        rxmsgs = sum(v[0] for v in received.values())
        rxbytes = sum(v[1] for v in received.values())
        return topics, (rxmsgs, rxbytes)

    def _cgrp(self, now: float) -> dict[str, Any]:
        assert self.consumer is not None  # a consumer's statistics, with a group
        fetcher, group, _ = self.consumer
        if group.closed:
            state = "term"
        elif group.coordinator is None:
            state = "query-coord" if group.lookup.in_flight else "wait-coord"
        else:
            conn = self.client.connections.get(group.coordinator)
            state = "up" if conn is not None and conn.ready else "wait-broker-transport"
        changed = group.last_rebalance
        return {"state": state, "join_state": _JOIN_STATES.get(group.phase, group.phase) if group.subscribed
                else "init",
                "rebalance_age": int((now - changed) * 1000) if changed is not None else 0,
                "rebalance_cnt": group.rebalance_cnt,
                "rebalance_reason": group.last_rebalance_reason or "",
                "assignment_size": len(fetcher.partitions)}

    # -- any thread

    def collect(self, timeout: float = 5.0) -> Document:
        """The document, built on the I/O thread while it runs (here once it is gone)."""
        client = self.client
        if client.closed or threading.get_ident() == client._thread_ident or not client._thread.is_alive():
            return self.document()
        holder: list[Document | Exception] = []
        done = threading.Event()

        def build() -> None:
            try:
                holder.append(self.document())
            except Exception as exc:
                holder.append(exc)
            finally:
                done.set()

        client.call_soon(build)
        if not done.wait(timeout):
            # the I/O thread is stuck (or stopped meanwhile): read what is there from here
            return self.document()
        result = holder[0]
        if isinstance(result, Exception):
            raise result
        return result


class StatsQueue(collections.deque[str | Callable[[], object]]):
    """Documents built on the I/O thread, waiting for the application's poll().  Bounded: an
    application that stopped polling loses the oldest ones, with a warning.  A deque itself, so
    that poll() asks whether any wait at the price of len() on a deque (it asks every time)."""

    MAX = 1000

    def __init__(self, wake: Callable[[], object]) -> None:
        # JSON text for stats_cb, or a call to make as it is (throttle_cb's: NetworkClient.on_throttle)
        super().__init__()
        self._wake = wake
        self.dropped = 0

    def put(self, doc: str | Callable[[], object]) -> None:
        if len(self) >= self.MAX:
            self.popleft()
            self.dropped += 1
            if self.dropped == 1:
                log.warning("statistics: %d documents wait for poll(), which serves stats_cb; dropping the oldest",
                            self.MAX)
        self.append(doc)
        self._wake()

    def serve(self, fn: Callable[[str], object] | None) -> tuple[int, list[Exception]]:
        """Call fn(json) for each waiting document (and each waiting call); returns (how many,
        exceptions raised)."""
        ran = 0
        errors: list[Exception] = []
        while self:
            try:
                doc = self.popleft()
            except IndexError:
                break
            try:
                if isinstance(doc, str):
                    fn(doc)  # type: ignore[misc]  # documents are made only when stats_cb is set
                else:
                    doc()
            except Exception as exc:
                log.debug("%s %r raised", "stats_cb" if isinstance(doc, str) else "callback",
                          fn if isinstance(doc, str) else doc, exc_info=exc)
                errors.append(exc)
            ran += 1
        return ran, errors


def log_unraised(errors: list[Exception]) -> None:
    """The exceptions of callbacks a poll() ran after the first, which its CallbackError carries
    (``.errors``) and raises first: logged, so that none goes unseen by a program that only
    catches what is raised."""
    for exc in errors[1:]:
        log.error("a callback raised %s as well (poll() raised the first callback's exception)",
                  type(exc).__name__, exc_info=exc)


def stats_for_poll(client: NetworkClient, statistics: Statistics, conf: dict[str, Any],
                   wake: Callable[[], object]) -> StatsQueue:
    """The queue where documents for the application's stats_cb wait for its poll() (`wake`
    wakes a waiting poll), filled every statistics.interval.ms when stats_cb is set."""
    queue = StatsQueue(wake)
    client.poll_callbacks = queue
    if conf["statistics.interval.ms"] and conf["stats_cb"] is not None:
        client.add_ticker(StatsEmitter(statistics, conf["statistics.interval.ms"] / 1000, queue))
    return queue


class StatsEmitter:
    """A ticker on the I/O thread: every `interval` seconds, the document as JSON for `queue`."""

    def __init__(self, stats: Statistics, interval: float, queue: StatsQueue) -> None:
        self.stats = stats
        self.interval = interval
        self.queue = queue
        self.next_due = time.monotonic() + interval

    def tick(self, now: float) -> float | None:
        if now >= self.next_due:
            self.next_due += self.interval
            if self.next_due <= now:
                self.next_due = now + self.interval  # the loop was held up: no burst of documents
            try:
                doc = self.stats.document()
            except Exception:
                # statistics must never stop the client: the error is logged, the next interval retried
                log.exception("statistics: building the document failed")
                return self.next_due
            self.stats.end_window()
            import json  # here: only clients with statistics.interval.ms set ever need it
            self.queue.put(json.dumps(doc))
        return self.next_due
