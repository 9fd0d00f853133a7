"""Observability of kafkacodec's client against real peers: the statistics document
(librdkafka's STATISTICS.md layout) from metrics() and stats_cb, and the log lines of
connects, disconnects, rebalances, retries, fetch errors and coordinator moves."""
import json
import logging
import threading
import time
import uuid

import pytest

from kafkacodec.client import Consumer, Producer, TopicPartition
from kafkacodec.client import errors as E

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

PRODUCE, FETCH = 0, 1
NOT_LEADER_OR_FOLLOWER, NOT_COORDINATOR = 6, 16


def _topic(bootstrap, partitions, prefix="obs"):
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, name, partitions)
    return name


def _shape(doc):
    """The keys of a document, nested, values left out: what metrics() and stats_cb share."""
    if isinstance(doc, dict):
        return {k: _shape(v) for k, v in doc.items()}
    return type(doc).__name__


def _messages(caplog, level, text):
    return [r.getMessage() for r in caplog.records if r.levelno == level and text in r.getMessage()]


class _Collector:
    """stats_cb: keeps each document with the thread that delivered it."""

    def __init__(self):
        self.docs = []
        self.threads = set()

    def __call__(self, text):
        self.threads.add(threading.get_ident())
        self.docs.append(json.loads(text))


# -- the producer's document


def test_producer_stats_cb_every_interval_counts_what_was_acknowledged(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, 3)
    cb = _Collector()
    n = 6000
    with Producer({"bootstrap.servers": tansu_bootstrap, "statistics.interval.ms": 100, "stats_cb": cb,
                   "linger.ms": 2}) as p:
        handles = [p.send(topic, b"v%d" % i, key=b"k%d" % i) for i in range(n)]
        p.flush(30)
        per_partition = {}
        for h in handles:
            per_partition[h.get(0).partition] = per_partition.get(h.get(0).partition, 0) + 1
        started = time.monotonic()
        while time.monotonic() - started < 1.2:
            p.poll(0.05)
        last = cb.docs[-1]
        now = p.metrics()
    assert cb.threads == {threading.get_ident()}, "stats_cb runs in poll()/flush(), on the caller's thread"
    # about one per interval: the documents' own clock (µs) says how far apart they were built
    # (each is due on a 100 ms grid: one built late makes one gap longer and the next shorter)
    gaps = [(b["ts"] - a["ts"]) / 1000 for a, b in zip(cb.docs, cb.docs[1:])]
    # (on a loaded machine the I/O thread wakes late now and then: a gap may stretch, the grid holds)
    assert len(cb.docs) >= 8 and all(5 <= g <= 2000 for g in gaps), gaps
    assert 75 <= sum(gaps) / len(gaps) <= 200, gaps

    assert last["type"] == "producer" and last["client_id"] == "kafkacodec"
    assert last["name"].startswith("kafkacodec#producer-")
    assert last["txmsgs"] == n and last["msg_cnt"] == 0 and last["msg_size"] == 0
    parts = last["topics"][topic]["partitions"]
    assert {int(k): v["txmsgs"] for k, v in parts.items() if v["txmsgs"]} == per_partition
    assert sum(v["txbytes"] for v in parts.values()) == last["txmsg_bytes"]
    assert last["txmsg_bytes"] > n * 3          # batch bytes: the values alone are 3+ bytes each
    assert all(v["msgq_cnt"] == 0 and v["msgs_inflight"] == 0 for v in parts.values())
    brokers = last["brokers"]
    assert sum(b["tx"] for b in brokers.values()) == last["tx"]
    assert sum(b["rxbytes"] for b in brokers.values()) == last["rx_bytes"]
    produce_requests = sum(b["req"].get("Produce", 0) for b in brokers.values())
    assert 1 <= produce_requests < n / 10        # counted per request, batches of many records
    for b in brokers.values():
        assert b["tx"] == sum(b["req"].values()) and b["rx"] <= b["tx"]
        assert b["state"] == "UP" and b["connects"] == 1 and b["disconnects"] == 0
        assert b["name"].endswith("/bootstrap") or b["name"] == f"{b['nodename']}/{b['nodeid']}"
    leader = next(b for b in brokers.values() if b["source"] == "learned")
    assert set(leader["toppars"]) == {f"{topic}-{p}" for p in range(3)}
    rtts = [d["brokers"][leader["name"]]["rtt"] for d in cb.docs]
    assert any(r["cnt"] > 0 and 0 < r["min"] <= r["p50"] <= r["max"] for r in rtts)

    assert _shape(now) == _shape(last)
    assert now["txmsgs"] == n and now["ts"] > last["ts"]


def test_statistics_interval_zero_never_calls_stats_cb(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, 1)
    calls = []
    with Producer({"bootstrap.servers": tansu_bootstrap, "stats_cb": calls.append}) as p:
        for i in range(100):
            p.send(topic, b"v%d" % i)
        p.flush(10)
        started = time.monotonic()
        while time.monotonic() - started < 0.6:
            p.poll(0.1)
        assert p.metrics()["txmsgs"] == 100    # the document on demand, without an interval
    assert calls == []


def test_producer_metrics_show_queued_records_before_they_are_sent(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, 2)
    with Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 60000}) as p:
        for i in range(30):
            p.send(topic, b"x" * 100, partition=i % 2)
        doc = p.metrics()
        parts = doc["topics"][topic]["partitions"]
        assert [parts[str(i)]["msgq_cnt"] for i in range(2)] == [15, 15]
        assert doc["msg_cnt"] == 30 and doc["msg_size"] >= 30 * 100
        assert doc["txmsgs"] == 0
        p.flush(10)
        doc = p.metrics()
        assert doc["msg_cnt"] == 0 and doc["txmsgs"] == 30


def test_a_raising_stats_cb_is_reported_by_poll(tansu_bootstrap):
    def boom(_):
        raise ValueError("stats_cb broke")

    with Producer({"bootstrap.servers": tansu_bootstrap, "statistics.interval.ms": 50, "stats_cb": boom}) as p:
        deadline = time.monotonic() + 15   # the first document may wait for a loaded machine's I/O thread
        with pytest.raises(E.CallbackError) as info:
            while time.monotonic() < deadline:
                p.poll(0.5)
    assert isinstance(info.value.errors[0], ValueError)


# -- the consumer's document


def test_consumer_rxmsgs_lag_and_committed_offsets(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, 2)
    with Producer({"bootstrap.servers": tansu_bootstrap}) as p:
        for i in range(1000):
            p.send(topic, b"v%d" % i, partition=i % 2)
        p.flush(10)
    cb = _Collector()
    tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    with Consumer({"bootstrap.servers": tansu_bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                   "auto.offset.reset": "earliest", "enable.auto.commit": False,
                   "statistics.interval.ms": 100, "stats_cb": cb}) as c:
        c.assign(tps)
        polled = {0: 0, 1: 0}
        deadline = time.monotonic() + 30
        while sum(polled.values()) < 300 and time.monotonic() < deadline:
            for r in c.poll(1.0, max_records=60):
                polled[r.partition] += 1
        c.pause(tps)
        c.commit()
        positions = {tp.partition: c.position(tp) for tp in tps}
        # paused: poll() hands out no records, only the documents built meanwhile
        c.poll(0.35)
        assert sum(polled.values()) == sum(positions.values())
        last = cb.docs[-1]
        now = c.metrics()
    assert cb.threads == {threading.get_ident()}
    assert last["type"] == "consumer" and last["rxmsgs"] == sum(polled.values())
    parts = last["topics"][topic]["partitions"]
    for p in (0, 1):
        part = parts[str(p)]
        assert part["rxmsgs"] == polled[p]
        assert part["hi_offset"] == 500 and part["lo_offset"] == 0
        assert part["app_offset"] == part["committed_offset"] == positions[p]
        assert part["consumer_lag"] == part["hi_offset"] - positions[p]
        assert part["consumer_lag_stored"] == part["hi_offset"] - positions[p]
        assert part["fetch_state"] == "active"
        # what is fetched and not yet handed out, from the buffered batches' headers
        assert part["fetchq_cnt"] == part["next_offset"] - positions[p]
    assert sum(v["rxbytes"] for v in parts.values()) == last["rxmsg_bytes"] > 0
    assert last["cgrp"]["assignment_size"] == 2
    assert sum(b["req"].get("Fetch", 0) for b in last["brokers"].values()) >= 1
    assert sum(b["req"].get("OffsetCommit", 0) for b in last["brokers"].values()) == 1
    assert _shape(now) == _shape(last)


def test_consumer_lag_is_unknown_until_an_offset_is_committed(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, 1)
    with Producer({"bootstrap.servers": tansu_bootstrap}) as p:
        for i in range(50):
            p.send(topic, b"v%d" % i)
        p.flush(10)
    with Consumer({"bootstrap.servers": tansu_bootstrap, "auto.offset.reset": "earliest"}) as c:
        c.assign([(topic, 0)])
        got = 0
        deadline = time.monotonic() + 20
        while got < 20 and time.monotonic() < deadline:
            got += len(c.poll(1.0, max_records=20 - got))
        part = c.metrics()["topics"][topic]["partitions"]["0"]
        doc = c.metrics()
    assert got == 20 and doc["rxmsgs"] == 20 and "cgrp" not in doc   # no group: no cgrp
    assert part["committed_offset"] == -1001 and part["consumer_lag"] == -1
    assert part["consumer_lag_stored"] == 50 - 20


# -- logs and the group's document (mock cluster: joins are quick, faults can be injected)


def _joined(bootstrap, topic, partitions, heartbeat_ms):
    """A consumer of a new group subscribed to `topic`, polled until it holds its partitions."""
    group = f"g-{uuid.uuid4().hex[:6]}"
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "session.timeout.ms": 6000,
                  "heartbeat.interval.ms": heartbeat_ms})
    c.subscribe([topic])
    deadline = time.monotonic() + 60
    while len(c.assignment()) < partitions and time.monotonic() < deadline:
        c.poll(0.2)
    return c, group


def test_group_join_assignment_and_revocation_are_logged(mock3, caplog):
    caplog.set_level(logging.DEBUG, logger="kafkacodec")
    topic = _topic(mock3, 3)
    c, group = _joined(mock3, topic, 3, 500)
    with c:
        cgrp = c.metrics()["cgrp"]
        assert cgrp["state"] == "up" and cgrp["join_state"] == "steady"
        assert cgrp["assignment_size"] == 3 and cgrp["rebalance_cnt"] == 1
        assert cgrp["rebalance_reason"] == "subscription changed"
        assert "GroupCoordinator" in c.metrics()["brokers"]
        c.unsubscribe()
        assert c.metrics()["cgrp"]["rebalance_cnt"] == 1
    assert _messages(caplog, logging.INFO, f"group {group}: coordinator is broker")
    assert _messages(caplog, logging.INFO, f"group {group}: rebalance: subscription changed")
    assert _messages(caplog, logging.INFO, f"group {group}: joining")
    assert _messages(caplog, logging.INFO, f"group {group}: joined generation")
    assert _messages(caplog, logging.INFO, f"group {group}: giving up 3 partition(s)")
    connected = _messages(caplog, logging.DEBUG, "): connected")
    assert any(m.startswith("broker -") and ", bootstrap (" in m for m in connected)
    assert any(", group coordinator (" in m for m in connected)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_coordinator_move_is_logged(mock3, caplog):
    caplog.set_level(logging.INFO, logger="kafkacodec")
    topic = _topic(mock3, 1)
    c, group = _joined(mock3, topic, 1, 200)
    with c:
        first = c._group.coordinator
        moved_to = next(b for b in (1, 2, 3) if b != (2**31 - 1) - first)
        _peers.mock_fault(mock3, "coordinator", "group", group, moved_to)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not _messages(
                caplog, logging.INFO, f"group {group}: coordinator is broker {moved_to} "):
            c.poll(0.2)
    lost = _messages(caplog, logging.WARNING, f"group {group}: coordinator (broker {(2**31 - 1) - first}) lost")
    assert lost and "NOT_COORDINATOR" in lost[0]
    assert _messages(caplog, logging.INFO, f"group {group}: coordinator is broker {moved_to} ")


def test_produce_retries_are_logged_per_batch_with_the_error(mock3, caplog):
    caplog.set_level(logging.INFO, logger="kafkacodec")
    topic = _topic(mock3, 1)
    _peers.mock_fault(mock3, "errors", PRODUCE, NOT_LEADER_OR_FOLLOWER, NOT_LEADER_OR_FOLLOWER)
    n = 2000
    with Producer({"bootstrap.servers": mock3, "linger.ms": 50, "retry.backoff.ms": 10}) as p:
        for i in range(n):
            p.send(topic, b"v%d" % i)
        p.flush(30)
        doc = p.metrics()
        retries = p.stats["retries"]
    lines = _messages(caplog, logging.WARNING, f"{topic}[0]: retrying a batch of")
    assert len(lines) == retries == 2, lines       # one line per retried batch, none per record
    assert all("NOT_LEADER_OR_FOLLOWER" in line and "refreshing metadata" in line for line in lines)
    assert doc["txmsgs"] == n                      # a retried batch counts once
    assert doc["topics"][topic]["partitions"]["0"]["txmsgs"] == n


def test_fetch_errors_are_logged_with_the_error_name(mock3, caplog):
    caplog.set_level(logging.INFO, logger="kafkacodec")
    topic = _topic(mock3, 1)
    with Producer({"bootstrap.servers": mock3}) as p:
        for i in range(100):
            p.send(topic, b"v%d" % i)
        p.flush(10)
    _peers.mock_fault(mock3, "errors", FETCH, NOT_LEADER_OR_FOLLOWER, NOT_LEADER_OR_FOLLOWER)
    with Consumer({"bootstrap.servers": mock3, "auto.offset.reset": "earliest", "retry.backoff.ms": 20}) as c:
        c.assign([(topic, 0)])
        got = 0
        deadline = time.monotonic() + 30
        while got < 100 and time.monotonic() < deadline:
            got += len(c.poll(0.5))
        assert got == 100 and c.metrics()["rxmsgs"] == 100
    fetch_lines = [r.getMessage() for r in caplog.records
                   if r.levelno in (logging.INFO, logging.WARNING) and "NOT_LEADER_OR_FOLLOWER" in r.getMessage()
                   and "fetch" in r.getMessage()]
    assert fetch_lines, [r.getMessage() for r in caplog.records]
    assert any("refreshing metadata" in line for line in fetch_lines)


def test_disconnect_is_a_warning_and_the_broker_shows_down(mock3, caplog):
    caplog.set_level(logging.DEBUG, logger="kafkacodec")
    topic = _topic(mock3, 1)
    with Producer({"bootstrap.servers": mock3, "reconnect.backoff.ms": 50, "reconnect.backoff.max.ms": 100}) as p:
        p.send(topic, b"x").get(10)
        leader = p.client.metadata.leader_for(topic, 0)
        _peers.mock_fault(mock3, "down", leader)
        deadline = time.monotonic() + 10
        name = None
        while time.monotonic() < deadline:
            brokers = p.metrics()["brokers"]
            name = next(k for k, b in brokers.items() if b["nodeid"] == leader)
            if brokers[name]["state"] in ("DOWN", "CONNECT") and brokers[name]["disconnects"] == 1:
                break
            time.sleep(0.05)
        assert brokers[name]["disconnects"] == 1 and brokers[name]["connects"] >= 1
        _peers.mock_fault(mock3, "up", leader)
        p.send(topic, b"y").get(20)
        brokers = p.metrics()["brokers"]
        assert brokers[name]["state"] == "UP" and brokers[name]["connects"] >= 2
    warnings = _messages(caplog, logging.WARNING, f"broker {leader} (")
    assert any(": disconnected: " in m for m in warnings), warnings
    assert _messages(caplog, logging.DEBUG, f"broker {leader} (")
    # the close at the end is expected: DEBUG, never a warning
    assert not [m for m in warnings if "the client was closed" in m]


# -- settings


def test_statistics_settings_are_checked():
    with pytest.raises(E.ConfigError, match="statistics.interval.ms"):
        Producer({"bootstrap.servers": "127.0.0.1:9", "statistics.interval.ms": -1})
    with pytest.raises(E.ConfigError, match="stats_cb"):
        Consumer({"bootstrap.servers": "127.0.0.1:9", "stats_cb": "not callable"})
    from kafkacodec.client import Admin
    with pytest.raises(E.ConfigError, match="admin client has no poll"):
        Admin({"bootstrap.servers": "127.0.0.1:9", "stats_cb": print, "statistics.interval.ms": 1000})


def test_confluent_face_passes_statistics_through(tansu_bootstrap):
    import kafkacodec.compat.confluent_kafka as ck
    topic = _topic(tansu_bootstrap, 1)
    produced, consumed = _Collector(), _Collector()
    p = ck.Producer({"bootstrap.servers": tansu_bootstrap, "statistics.interval.ms": 100, "stats_cb": produced})
    for i in range(10):
        p.produce(topic, b"v%d" % i)
    p.flush(10)
    deadline = time.monotonic() + 5
    while (not produced.docs or produced.docs[-1]["txmsgs"] < 10) and time.monotonic() < deadline:
        p.poll(0.1)
    assert produced.docs[-1]["txmsgs"] == 10 and produced.docs[-1]["type"] == "producer"
    c = ck.Consumer({"bootstrap.servers": tansu_bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                     "auto.offset.reset": "earliest", "statistics.interval.ms": 100, "stats_cb": consumed})
    try:
        c.poll(0.3)   # nothing assigned yet: documents are still served
        assert consumed.docs and consumed.docs[-1]["type"] == "consumer"
        c.assign([ck.TopicPartition(topic, 0, 0)])
        got = []
        deadline = time.monotonic() + 20
        while len(got) < 10 and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                got.append(m)
        c.poll(0.3)
        assert consumed.docs[-1]["rxmsgs"] == 10
    finally:
        c.close()
