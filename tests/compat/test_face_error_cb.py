"""error_cb hears of the errors the client gets over by itself, as librdkafka's does: each failed
connection (_TRANSPORT), each host name that did not resolve (_RESOLVE), and once the moment every
known broker is down (_ALL_BROKERS_DOWN), all served from poll(); an exception it raises comes out
of that poll().  confluent-kafka's example programs print these while a cluster is unreachable."""
import socket
import time

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")

from kafkacodec.client import Consumer as ClientConsumer  # noqa: E402
from kafkacodec.client import errors as E  # noqa: E402
from kafkacodec.client.admin import Admin  # noqa: E402
from kafkacodec.compat import confluent_kafka as face  # noqa: E402


@pytest.fixture
def refusing_ports():
    """Two ports bound on 127.0.0.1 without a listener: a connect to them is refused at once."""
    socks = []
    for _ in range(2):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    yield [f"127.0.0.1:{s.getsockname()[1]}" for s in socks]
    for s in socks:
        s.close()


def _errors_reported(module, kind, bootstrap, seconds=1.5):
    """(code name, message) of each error_cb call while a client polls for `seconds`."""
    told = []
    conf = {"bootstrap.servers": bootstrap, "error_cb": lambda err: told.append((err.name(), err.str(), err.fatal()))}
    if kind == "consumer":
        client = module.Consumer(dict(conf, **{"group.id": "g"}))
        client.subscribe(["t"])
    else:
        client = module.Producer(conf)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        client.poll(0.1)
    if kind == "consumer":
        client.close()
    return told


@pytest.mark.parametrize("kind", ["producer", "consumer"])
def test_a_refused_bootstrap_server_is_told_as_confluent_kafka_tells_it(kind, refusing_ports):
    bootstrap = refusing_ports[0]
    theirs = _errors_reported(confluent_kafka, kind, bootstrap)
    ours = _errors_reported(face, kind, bootstrap)
    for told in (theirs, ours):
        # the first failure, then once that every broker is down; then each retry's failure
        assert [name for name, _, _ in told[:2]] == ["_TRANSPORT", "_ALL_BROKERS_DOWN"], told
        assert [name for name, _, _ in told].count("_ALL_BROKERS_DOWN") == 1, told
        assert len(told) >= 3, told
        assert not any(fatal for _, _, fatal in told)
        assert all(message.startswith(f"{bootstrap}/bootstrap: ") for name, message, _ in told
                   if name == "_TRANSPORT")
        assert all("refused" in message for name, message, _ in told if name == "_TRANSPORT")
    # librdkafka's count races its broker threads (it may say "0/2 brokers are down")
    assert ours[1][1] == "1/1 brokers are down"


def test_every_bootstrap_server_down_is_told_once_with_the_count(refusing_ports):
    bootstrap = ",".join(refusing_ports)
    theirs = _errors_reported(confluent_kafka, "producer", bootstrap)
    # librdkafka's count races its broker threads (it may say "0/3 brokers are down"): only the event
    assert "_ALL_BROKERS_DOWN" in [name for name, _, _ in theirs], theirs
    told = _errors_reported(face, "producer", bootstrap)
    names = [name for name, _, _ in told]
    assert names.count("_ALL_BROKERS_DOWN") == 1, told
    down_at = names.index("_ALL_BROKERS_DOWN")
    # told once both have failed, not after the first
    assert {m.split("/")[0] for _, m, _ in told[:down_at]} == set(refusing_ports), told
    assert told[down_at][1] == "2/2 brokers are down"


def test_a_host_that_does_not_resolve_is_told_as_resolve():
    told = _errors_reported(face, "producer", "broker.invalid:9092", seconds=3)
    assert told and told[0][0] == "_RESOLVE", told
    assert told[0][1].startswith("broker.invalid:9092/bootstrap: ")
    assert ("_ALL_BROKERS_DOWN", "1/1 brokers are down", False) in told


@pytest.mark.parametrize("kind", ["producer", "consumer"])
def test_an_exception_error_cb_raises_comes_out_of_poll(kind, refusing_ports):
    class Raised(Exception):
        pass

    def error_cb(err):
        raise Raised(err.name())

    conf = {"bootstrap.servers": refusing_ports[0], "error_cb": error_cb}
    client = face.Producer(conf) if kind == "producer" else face.Consumer(dict(conf, **{"group.id": "g"}))
    if kind == "consumer":
        client.subscribe(["t"])
    with pytest.raises(Raised, match="_TRANSPORT"):
        end = time.monotonic() + 5
        while time.monotonic() < end:
            client.poll(0.1)
    if kind == "consumer":
        client.close()


def test_without_error_cb_nothing_waits_for_a_poll(refusing_ports):
    p = face.Producer({"bootstrap.servers": refusing_ports[0]})
    time.sleep(0.3)
    assert p._p.client.poll_callbacks is not None and not p._p.client.poll_callbacks


def test_the_client_reports_its_own_exceptions(refusing_ports):
    told = []
    c = ClientConsumer({"bootstrap.servers": refusing_ports[0], "error_cb": told.append})
    c.assign([("t", 0)])
    end = time.monotonic() + 5
    while time.monotonic() < end and len(told) < 2:
        c.poll(0.1)
    c.close()
    assert type(told[0]) is E.KafkaConnectionError and isinstance(told[0].__cause__, E.KafkaConnectionError)
    assert type(told[1]) is E.NoBrokersAvailable


def test_the_admin_client_refuses_error_cb_it_could_not_serve():
    with pytest.raises(E.ConfigError, match="error_cb: the admin client has no poll"):
        Admin({"bootstrap.servers": "127.0.0.1:9", "error_cb": print})
