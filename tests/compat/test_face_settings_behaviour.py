"""librdkafka settings the face honours, observed as a confluent-kafka program would see them:
batches capped by batch.num.messages (read back from the broker's log), socket options read
back with getsockopt, debug contexts and the application's logger, metadata refreshed every
topic.metadata.refresh.interval.ms, fetching ahead by queued.min.messages, throttle events,
the C API hooks' Python aliases, and Kerberos refused where it would be used."""
import logging
import socket
import time
import uuid

import pytest

from kafkacodec.client import connection
from kafkacodec.client.connection import READY
from kafkacodec.client.errors import ConfigError
from kafkacodec.compat import confluent_kafka as ck
from kafkacodec.compat.confluent_kafka import _config

_peers = pytest.importorskip("_peers")


pytestmark = pytest.mark.usefixtures("face_logging_restored")


def _topic(bootstrap, partitions=1, prefix="face-settings"):
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, name, partitions)
    return name


def _ready_socket(client):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for conn in list(client.connections.values()):
            if conn.state == READY and conn.sock is not None:
                return conn.sock
        time.sleep(0.01)
    raise AssertionError("no connection became ready")


def test_batch_num_messages_caps_each_batch(tansu_bootstrap):
    topic = _topic(tansu_bootstrap)
    p = ck.Producer({"bootstrap.servers": tansu_bootstrap, "batch.num.messages": 6, "linger.ms": 2000})
    for i in range(20):
        p.produce(topic, b"v%d" % i, partition=0)
    assert p.flush(10) == 0
    assert _peers.batch_record_counts(tansu_bootstrap, topic) == [6, 6, 6, 2]


def test_socket_settings_on_the_consumers_sockets(tansu_bootstrap):
    topic = _topic(tansu_bootstrap)
    c = ck.Consumer({"bootstrap.servers": tansu_bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                     "socket.keepalive.enable": True, "socket.nagle.disable": False,
                     "socket.send.buffer.bytes": 300000, "socket.receive.buffer.bytes": 200000})
    try:
        c.list_topics(topic, timeout=10)
        sock = _ready_socket(c._c._client)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE)
        assert not sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) in (300000, 600000)
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) in (200000, 400000)
    finally:
        c.close()


def test_debug_contexts_turn_their_loggers_up(tansu_bootstrap, caplog):
    caplog.handler.setLevel(logging.DEBUG)
    p = ck.Producer({"bootstrap.servers": tansu_bootstrap, "debug": "broker,metadata"})
    try:
        p.list_topics(timeout=10)
    finally:
        p.close()
    assert logging.getLogger("kafkacodec.client.network").level == logging.DEBUG
    assert logging.getLogger("kafkacodec.client.metadata").level == logging.DEBUG
    assert logging.getLogger("kafkacodec.client.fetcher").level == logging.NOTSET  # fetch: not asked for
    assert any(r.name == "kafkacodec.client.network" and r.levelno == logging.DEBUG for r in caplog.records)
    with pytest.raises(ConfigError, match="debug"):
        ck.Producer({"bootstrap.servers": tansu_bootstrap, "debug": "broker,nosuchcontext"})


def test_logger_and_log_cb_receive_kafkacodecs_records():
    seen, calls = [], []

    class Keep(logging.Handler):
        def emit(self, record):
            seen.append(record)

    app = logging.getLogger(f"app-{uuid.uuid4().hex[:6]}")
    app.addHandler(Keep())
    app.setLevel(logging.DEBUG)
    a = ck.admin.AdminClient({"bootstrap.servers": "127.0.0.1:9", "logger": app,
                              "log_cb": lambda level, facility, message: calls.append((level, facility, message))})
    deadline = time.monotonic() + 5
    while not (seen and calls) and time.monotonic() < deadline:
        time.sleep(0.05)
    a.close()
    # the connection refused by 127.0.0.1:9: a warning of kafkacodec.client.network
    assert any(r.name == "kafkacodec.client.network" and "connect" in r.getMessage() for r in seen)
    assert any(level == 4 and facility == "kafkacodec.client.network" for level, facility, _ in calls)


def test_metadata_refresh_interval(tansu_bootstrap):
    topic = _topic(tansu_bootstrap)
    p = ck.Producer({"bootstrap.servers": tansu_bootstrap, "topic.metadata.refresh.interval.ms": 200})
    try:
        p.produce(topic, b"v")
        p.flush(10)
        client = p._p._client
        before = sum(c.req[3] for c in client.broker_counters)
        time.sleep(1.1)
        refreshes = sum(c.req[3] for c in client.broker_counters) - before
        assert 4 <= refreshes <= 8, refreshes
    finally:
        p.close()
    conf, _ = _config.translate({"topic.metadata.refresh.interval.ms": -1, "metadata.max.age.ms": 60000}, "P")
    assert conf["metadata.max.age.ms"] == 60000  # no periodic refresh: the cache's age still bounds it


def test_queued_min_messages_fetches_ahead(mock_bootstrap):
    topic = _topic(mock_bootstrap)
    p = ck.Producer({"bootstrap.servers": mock_bootstrap, "batch.num.messages": 10, "linger.ms": 1000})
    for i in range(100):
        p.produce(topic, b"%03d" % i, partition=0)
    assert p.flush(10) == 0
    c = ck.Consumer({"bootstrap.servers": mock_bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                     "queued.min.messages": 35, "fetch.message.max.bytes": 1, "check.crcs": False,
                     "auto.offset.reset": "earliest"})
    try:
        c.assign([ck.TopicPartition(topic, 0, 0)])
        fetcher = c._c._fetcher
        deadline = time.monotonic() + 10
        held = 0
        while time.monotonic() < deadline:
            c.consume(0, timeout=0)  # positions are looked up; nothing taken yet
            with fetcher.lock:
                held = len(fetcher.completed)
            if held >= 4:
                break
            time.sleep(0.05)
        time.sleep(0.3)
        with fetcher.lock:
            assert len(fetcher.completed) == 4  # 40 records buffered: at least 35, one fetch of 10 at a time
        got = []
        while len(got) < 100 and time.monotonic() < deadline + 10:
            got += [int(msg.value()) for msg in c.consume(100, timeout=0.5) if msg.error() is None]
        assert got == list(range(100))
    finally:
        c.close()


def test_throttle_cb_gets_throttle_events(tansu_bootstrap, monkeypatch):
    real = connection.decode_response

    def decode(api_key, version, frame, **kw):
        header, body = real(api_key, version, frame, **kw)
        if api_key == 3:  # Metadata answers marked as throttled on their way in
            body.throttle_time_ms = 120
        return header, body

    monkeypatch.setattr(connection, "decode_response", decode)
    events = []
    p = ck.Producer({"bootstrap.servers": tansu_bootstrap, "throttle_cb": events.append,
                     "statistics.interval.ms": 100, "stats_cb": lambda doc: None})
    try:
        p.list_topics(timeout=10)  # on the producer's own connections: its throttling is reported too
        p.produce(_topic(tansu_bootstrap), b"v")
        p.flush(10)
    finally:
        p.close()
    assert events and isinstance(events[0], ck.ThrottleEvent) and events[0].throttle_time == 0.12


def test_c_api_hooks_python_aliases(tansu_bootstrap):
    topic = _topic(tansu_bootstrap)
    reports = []
    p = ck.Producer({"bootstrap.servers": tansu_bootstrap, "dr_msg_cb": lambda err, msg: reports.append(err),
                     "default_topic_conf": {"acks": "all"}})
    p.produce(topic, b"v")
    assert p.flush(10) == 0 and reports == [None]


def test_bootstrap_servers_as_librdkafka_takes_them(tansu_bootstrap):
    port = tansu_bootstrap.rsplit(":", 1)[1]
    a = ck.admin.AdminClient({"metadata.broker.list": f"PLAINTEXT://localhost:{port}"})
    assert a.list_topics(timeout=10).topics is not None
    conf, _ = _config.translate({"bootstrap.servers": "kafka1,kafka2:9093"}, "A")
    assert conf["bootstrap.servers"] == "kafka1:9092,kafka2:9093"


def test_kerberos_refused_where_it_would_be_used():
    base = {"bootstrap.servers": "127.0.0.1:9"}
    ck.Producer({**base, "sasl.mechanisms": "GSSAPI"}).close()  # librdkafka's default, unused without SASL
    with pytest.raises(ConfigError, match="GSSAPI"):
        ck.Producer({**base, "sasl.mechanisms": "GSSAPI", "security.protocol": "SASL_SSL"})
    with pytest.raises(ConfigError, match="security.protocol.*GSSAPI"):
        ck.Producer({**base, "security.protocol": "sasl_plaintext", "sasl.username": "u", "sasl.password": "p"})
    with pytest.raises(ConfigError, match="heartbeat.interval.ms"):
        ck.Consumer({**base, "group.id": "g", "heartbeat.interval.ms": 60000})
