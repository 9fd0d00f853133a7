"""TLS and SASL against Tansu.

Tansu 0.6.0 cannot terminate TLS itself (its CLI refuses --cert with --key; --cert
alone leaves the listener plain), so TLS runs through a Python TLS front that Tansu
advertises as its only listener: every connection the client makes, bootstrap and
broker, is TLS.  With --authentication Tansu runs the SCRAM exchange, but a user can
only be created over an authenticated connection (`tansu user create` is refused) and
memory storage keeps none across restarts: what can be shown end to end is the
exchange reaching the broker and a refused credential failing fast and clearly.
"""
import time
import uuid

import pytest

from kafkacodec.client import Admin, Consumer, TopicPartition
from kafkacodec.client import errors as E

_peers = pytest.importorskip("_peers")
confluent_kafka = pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    try:
        return _peers.self_signed_cert(str(tmp_path_factory.mktemp("tls")))
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def tls_bootstrap(certs):
    try:
        with _peers.tansu_behind_tls(*certs) as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


def _tls(bootstrap, cafile, **extra):
    conf = {"bootstrap.servers": bootstrap, "security.protocol": "SSL", "ssl.cafile": cafile,
            "request.timeout.ms": 10000, "default.api.timeout.ms": 15000}
    conf.update(extra)
    return conf


def test_consume_records_and_arrow_over_tls(certs, tls_bootstrap):
    cert, _ = certs
    topic = f"tls-{uuid.uuid4().hex[:8]}"
    with Admin(_tls(tls_bootstrap, cert)) as admin:
        admin.create_topics({topic: 2})
    # enough bytes that Fetch responses span many TLS records and several reads
    sent = [(b"k%06d" % i, b"v%06d-" % i + b"x" * 200) for i in range(20000)]
    _peers.produce_with_confluent(tls_bootstrap, topic, sent, **{
        "security.protocol": "SSL", "ssl.ca.location": cert, "ssl.endpoint.identification.algorithm": "none"})
    tps = [TopicPartition(topic, 0), TopicPartition(topic, 1)]
    with Consumer(_tls(tls_bootstrap, cert, **{"auto.offset.reset": "earliest"})) as c:
        c.assign(tps)
        got = []
        deadline = time.monotonic() + 60
        while len(got) < len(sent) and time.monotonic() < deadline:
            got += [(r.key, r.value) for r in c.poll(1.0)]
        assert sorted(got) == sorted(sent)
        c.seek_to_beginning()
        rows = 0
        while rows < len(sent) and time.monotonic() < deadline:
            rows += c.poll_arrow(1.0).num_rows
        assert rows == len(sent)


def test_untrusted_certificate_is_an_authentication_error(tls_bootstrap, tmp_path):
    other, _ = _peers.self_signed_cert(str(tmp_path))  # a CA that did not sign the broker's certificate
    started = time.monotonic()
    with Admin(_tls(tls_bootstrap, other)) as admin:
        with pytest.raises(E.AuthenticationError, match="certificate not trusted"):
            admin.describe_cluster(timeout=10)
    assert time.monotonic() - started < 8  # not retried until the timeout


@pytest.fixture(scope="module")
def auth_bootstrap(certs):
    try:
        with _peers.tansu_behind_tls(*certs, authentication=True) as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_scram_refused_credentials_are_a_clear_authentication_error(certs, auth_bootstrap, mechanism):
    cert, _ = certs
    conf = _tls(auth_bootstrap, cert, **{"security.protocol": "SASL_SSL", "sasl.mechanism": mechanism,
                                          "sasl.username": "alice", "sasl.password": "wrong"})
    started = time.monotonic()
    with Admin(conf) as admin:
        with pytest.raises(E.AuthenticationError, match=f"{mechanism}.*(unknown-user|invalid|fail)") as info:
            admin.describe_cluster(timeout=10)
    assert not info.value.retriable
    assert time.monotonic() - started < 8
    with Consumer(dict(conf, **{"auto.offset.reset": "earliest"})) as c:
        c.assign([TopicPartition("any", 0)])
        with pytest.raises(E.AuthenticationError, match=mechanism):
            for _ in range(20):
                c.poll(0.5)


def test_unauthenticated_client_gets_nothing_from_an_authenticating_broker(certs, auth_bootstrap):
    cert, _ = certs
    with Admin(_tls(auth_bootstrap, cert, **{"default.api.timeout.ms": 3000})) as admin:
        with pytest.raises(E.KafkaError) as info:
            admin.describe_cluster(timeout=3)
    assert not isinstance(info.value, E.AuthenticationError)  # the broker closes; it names no reason
