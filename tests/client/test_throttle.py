"""throttle_cb: answers a broker delayed for a quota (throttle_time_ms > 0) are reported
from poll()/flush(), as librdkafka's throttle_cb is.  No peer here throttles: the Metadata
answers of a real broker are marked as throttled on their way in."""
import time
import uuid

import pytest

from kafkacodec.client import Consumer, Producer
from kafkacodec.client import connection
from kafkacodec.client.config import ADMIN, resolve
from kafkacodec.client.errors import ConfigError
from kafkacodec.client.types import Throttle

_peers = pytest.importorskip("_peers")


@pytest.fixture
def throttled_metadata(monkeypatch):
    real = connection.decode_response

    def decode(api_key, version, frame, **kw):
        header, body = real(api_key, version, frame, **kw)
        if api_key == 3:  # Metadata
            body.throttle_time_ms = 250
        return header, body

    monkeypatch.setattr(connection, "decode_response", decode)


def test_producer_reports_throttling_from_poll(tansu_bootstrap, throttled_metadata):
    events = []
    p = Producer({"bootstrap.servers": tansu_bootstrap, "throttle_cb": events.append})
    try:
        topic = f"throttle-{uuid.uuid4().hex[:8]}"
        _peers.create_topic(tansu_bootstrap, topic, 1)
        p.send(topic, b"v").get(10)
        assert events == []  # served by poll()/flush() only, on the caller's thread
        p.flush(5)
        assert events and all(isinstance(e, Throttle) and e.throttle_time == 0.25 for e in events)
        host, port = tansu_bootstrap.rsplit(":", 1)
        assert {e.broker_name for e in events} <= {f"{host}:{port}", f"localhost:{port}"}
    finally:
        p.close()


def test_consumer_reports_throttling_from_poll(tansu_bootstrap, throttled_metadata):
    topic = f"throttle-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    events = []
    with Consumer({"bootstrap.servers": tansu_bootstrap, "throttle_cb": events.append}) as c:
        c.assign([(topic, 0)])
        deadline = time.monotonic() + 5
        while not events and time.monotonic() < deadline:
            c.poll(0.1)
    assert events and events[0].throttle_time == 0.25


def test_admin_refuses_throttle_cb():
    with pytest.raises(ConfigError, match="throttle_cb"):
        resolve({"bootstrap.servers": "h:1", "throttle_cb": print}, {}, ADMIN, "admin")
