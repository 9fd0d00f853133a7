"""SASL/OAUTHBEARER: tokens from oauth_cb, the unsecured JWT and an OIDC token endpoint, renewed
before they expire, and connections re-authenticated within the session lifetime the broker
gives (KIP-368) while records flow.

No broker here speaks OAUTHBEARER, so the SASL server is the test front of _peers
(OAuthBearerFront: RFC 7628 on the server side, in front of Tansu, behind TLS), and the token
endpoint a local HTTPS server (_peers.TokenEndpoint).  librdkafka, through confluent-kafka and
the same settings, is the other client against both, and so is the confluent face."""
import threading
import time
import uuid

import pytest

from kafkacodec.client import Admin, Consumer, Producer, TopicPartition
from kafkacodec.client import errors as E
from kafkacodec.client import oauth
from kafkacodec.client.config import ADMIN, resolve
from kafkacodec.client.sasl import OAuthBearer

_peers = pytest.importorskip("_peers")

SESSION_MS = 1500   # the front's session lifetime: every connection re-authenticates every ~1.3 s
CLIENT_ID, SECRET = "app-1", "s3cret"


# -- without a broker

def test_the_unsecured_jwt_is_librdkafkas():
    token = oauth.unsecured_jwt("principal=alice scope=read,write,read lifeSeconds=600 scopeClaimName=roles "
                                "extension_traceId=123", now=1549251467.5)
    header, claims, signature = token.value.split(".")
    assert header == "eyJhbGciOiJub25lIn0" and signature == ""  # {"alg":"none"}, as librdkafka writes it
    assert oauth.jwt_claims(token.value) == {"sub": "alice", "iat": 1549251467.5, "exp": 1549252067.5,
                                             "roles": ["read", "write"]}
    assert (token.principal, token.expires, token.extensions) == ("alice", 1549252067.5, (("traceId", "123"),))


def test_the_client_first_message_is_rfc_7628s():
    mech = OAuthBearer("tok.en.", "alice", [("traceId", "123")])
    assert mech.start() == b"n,,\x01auth=Bearer tok.en.\x01traceId=123\x01\x01"
    assert _peers.OAuthBearerFront.parse_client_first(mech.start()) == ("tok.en.", {"traceId": "123"})
    assert mech.step(b"") is None
    # a refusal: the error document is acknowledged with %x01, and the exchange fails
    refused = OAuthBearer("t", "bob")
    assert refused.step(b'{"status":"invalid_token"}') == b"\x01"
    with pytest.raises(E.AuthenticationError, match="invalid_token"):
        refused.step(b"")


def _conf(**extra):
    return {"bootstrap.servers": "127.0.0.1:9", "security.protocol": "SASL_SSL", "sasl.mechanism": "OAUTHBEARER",
            **extra}


@pytest.mark.parametrize("extra, message", [
    ({}, "OAUTHBEARER needs a token"),
    ({"enable.sasl.oauthbearer.unsecure.jwt": True}, "needs principal="),
    ({"enable.sasl.oauthbearer.unsecure.jwt": True, "sasl.oauthbearer.config": "principal=a lifeSeconds=x"},
     "lifeSeconds"),
    ({"enable.sasl.oauthbearer.unsecure.jwt": True, "sasl.oauthbearer.config": "principal=a extension_auth=x"},
     "'auth'"),
    ({"sasl.oauthbearer.method": "oidc", "sasl.oauthbearer.client.id": "a", "sasl.oauthbearer.client.secret": "b"},
     "sasl.oauthbearer.token.endpoint.url: required"),
    ({"sasl.oauthbearer.method": "oidc", "enable.sasl.oauthbearer.unsecure.jwt": True}, "mutually exclusive"),
    ({"oauth_cb": "not callable"}, "oauth_cb: expected a callable"),
])
def test_settings_that_cannot_give_a_token_are_refused_at_once(extra, message):
    with pytest.raises(E.ConfigError, match=message):
        resolve(_conf(**extra), {}, ADMIN)


def test_an_oauth_cb_answer_is_checked_as_confluent_kafka_does():
    later = time.time() + 60
    assert oauth.token_from_callback(lambda cfg: ("t", later), "x").principal == ""
    token = oauth.token_from_callback(lambda cfg: ("t", later, "bob", {"trace": "1"}), "x")
    assert (token.principal, token.extensions) == ("bob", (("trace", "1"),))
    for answer, message in [("t", "must return"), (("t", time.time() - 1), "expired"),
                            (("t", later, "p", {"auth": "x"}), "'auth'"), ((None, later), "non-empty string")]:
        with pytest.raises(oauth.TokenError, match=message) as info:
            oauth.token_from_callback(lambda cfg, a=answer: a, "")
        assert info.value.final
    with pytest.raises(oauth.TokenError, match="oauth_cb raised RuntimeError: idp down") as info:
        oauth.token_from_callback(lambda cfg: (_ for _ in ()).throw(RuntimeError("idp down")), "")
    assert not info.value.final  # retried, as librdkafka does


# -- against the front

@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    try:
        return _peers.self_signed_cert(str(tmp_path_factory.mktemp("oauth")))
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def endpoint(certs):
    with _peers.token_endpoint(*certs, {CLIENT_ID: SECRET}, lifetime=60.0) as ep:
        yield ep


@pytest.fixture(scope="module")
def front(endpoint):
    return _peers.OAuthBearerFront(session_lifetime_ms=SESSION_MS, key=endpoint.key)


@pytest.fixture(scope="module")
def bootstrap(certs, front):
    try:
        with _peers.tansu_behind_tls(*certs, oauthbearer=front) as bs:
            yield bs
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


def _unsigned(sub, life):
    return _peers.make_jwt({"sub": sub, "iat": time.time(), "exp": time.time() + life})


def _sources(endpoint, cert, calls=None, life=60.0):
    """librdkafka settings for each token source, the principal the front should see."""
    def oauth_cb(config):
        if calls is not None:
            calls.append(config)
        token = _unsigned("carol", life)
        return token, time.time() + life, "carol", {"team": "payments"}

    return {
        "oauth_cb": ({"oauth_cb": oauth_cb, "sasl.oauthbearer.config": "from-settings"}, "carol"),
        "unsecured": ({"enable.sasl.oauthbearer.unsecure.jwt": True,
                       "sasl.oauthbearer.config": f"principal=alice lifeSeconds={int(life)} extension_traceId=42"},
                      "alice"),
        "oidc": ({"sasl.oauthbearer.method": "oidc", "sasl.oauthbearer.token.endpoint.url": endpoint.url,
                  "sasl.oauthbearer.client.id": CLIENT_ID, "sasl.oauthbearer.client.secret": SECRET,
                  "sasl.oauthbearer.scope": "kafka", "sasl.oauthbearer.extensions": "tenant=blue",
                  "https.ca.location": cert}, CLIENT_ID),
    }


def _client_conf(bootstrap, cert, source, **extra):
    conf = {"bootstrap.servers": bootstrap, "security.protocol": "SASL_SSL", "ssl.cafile": cert,
            "sasl.mechanism": "OAUTHBEARER", "request.timeout.ms": 10000}
    conf.update(source)
    conf.update(extra)
    return conf


def _topic(bootstrap, cert, source, partitions=2):
    topic = f"oauth-{uuid.uuid4().hex[:8]}"
    with Admin(_client_conf(bootstrap, cert, source)) as admin:
        admin.create_topics({topic: partitions})
    return topic


def _read(consumer, tps, n, deadline):
    consumer.assign(tps)
    got = []
    while len(got) < n and time.monotonic() < deadline:
        got += [(r.key, r.value) for r in consumer.poll(0.5)]
    return got


@pytest.mark.broker
@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", ["oauth_cb", "unsecured", "oidc"])
def test_each_token_source_authenticates_a_producer_and_a_consumer(certs, endpoint, front, bootstrap, name):
    cert, _ = certs
    calls = []
    source, principal = _sources(endpoint, cert, calls)[name]
    issued = endpoint.issued
    topic = _topic(bootstrap, cert, source)
    sent = [(b"k%03d" % i, b"v%03d" % i) for i in range(200)]
    with Producer(_client_conf(bootstrap, cert, source)) as p:
        for key, value in sent:
            p.send(topic, value, key=key)
        p.flush(30)
    with Consumer(_client_conf(bootstrap, cert, source, **{"auto.offset.reset": "earliest"})) as c:
        got = _read(c, [TopicPartition(topic, 0), TopicPartition(topic, 1)], len(sent), time.monotonic() + 30)
    assert sorted(got) == sent
    assert principal in front.principals
    if name == "oauth_cb":
        assert calls and set(calls) == {"from-settings"}  # given sasl.oauthbearer.config, as confluent-kafka
        assert {"team": "payments"} in front.extensions
    elif name == "unsecured":
        assert {"traceId": "42"} in front.extensions
    else:
        assert endpoint.issued > issued
        request = endpoint.requests[-1]
        assert request["client_id"] == CLIENT_ID and request["form"] == {"grant_type": "client_credentials",
                                                                         "scope": "kafka"}
        assert request["accept"] == "application/json"
        assert {"tenant": "blue"} in front.extensions


@pytest.mark.broker
@pytest.mark.timeout(120)
def test_tokens_renewed_and_connections_reauthenticated_while_records_flow_none_lost_or_duplicated(
        certs, endpoint, front, bootstrap):
    """Tokens of 3 s, sessions of 1.5 s: over ~8 s of producing and consuming, each connection
    re-authenticates several times and each client fetches several tokens; the front closes a
    connection that sends a request on an expired session, so a late re-authentication would show
    as a reconnect (and, without idempotence, as duplicates)."""
    cert, _ = certs
    calls = []
    source, _ = _sources(endpoint, cert, calls, life=3.0)["oauth_cb"]
    topic = _topic(bootstrap, cert, source)
    n = 3000
    expected = [b"%06d" % i for i in range(n)]
    got: list[bytes] = []
    done = threading.Event()

    def consume():
        with Consumer(_client_conf(bootstrap, cert, source, **{"auto.offset.reset": "earliest"})) as c:
            c.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
            deadline = time.monotonic() + 60
            while len(got) < n and time.monotonic() < deadline:
                got.extend(r.key for r in c.poll(0.2))
        done.set()

    reader = threading.Thread(target=consume, daemon=True)
    with Producer(_client_conf(bootstrap, cert, source)) as p:
        p.send(topic, b"warm-up", key=b"w", partition=0).get(15)
        got_before = list(got)
        reader.start()
        time.sleep(1.0)  # the consumer's connections are made
        connections, reauths, expired = front.connections, front.reauthentications, front.expired
        futures = []
        started = time.monotonic()
        for i, key in enumerate(expected):
            futures.append(p.send(topic, b"value-" + key, key=key))
            if i % 50 == 49:
                time.sleep(max(0.0, started + (i + 1) / 400 - time.monotonic()))  # ~400 records/s for 7.5 s
        p.flush(30)
        assert all(f.get(0).offset >= 0 for f in futures)
    assert done.wait(60)
    received = [k for k in got if k != b"w"]
    assert not got_before
    assert len(received) == n and sorted(received) == expected  # counted and compared: none lost, none twice
    assert front.expired == expired == 0 and front.interleaved == 0
    assert front.connections == connections  # no connection dropped and made again
    assert front.reauthentications - reauths >= 2 * 3  # at least 3 connections, each at least twice
    assert len(calls) >= 3 * 2  # producer, consumer and admin: each renewed its 3 s token


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_a_rejected_token_fails_in_under_a_second_with_the_servers_message(certs, endpoint, bootstrap):
    cert, _ = certs
    forged = _peers.make_jwt({"sub": "mallory", "exp": time.time() + 60}, key=b"not the issuer's key")
    conf = _client_conf(bootstrap, cert, {"oauth_cb": lambda cfg: (forged, time.time() + 60, "mallory")})
    started = time.monotonic()
    with Admin(conf) as admin:
        with pytest.raises(E.AuthenticationError) as info:
            admin.describe_cluster(timeout=10)
    took = time.monotonic() - started
    message = str(info.value)
    assert "signature is wrong" in message and "invalid_token" in message and "'mallory'" in message
    assert not info.value.retriable
    assert took < 1.0, took
    # the token endpoint refusing the client's secret: as fast, with the endpoint's words
    oidc, _ = _sources(endpoint, cert)["oidc"]
    started = time.monotonic()
    with Consumer(_client_conf(bootstrap, cert, dict(oidc, **{"sasl.oauthbearer.client.secret": "wrong"}))) as c:
        c.assign([TopicPartition("any", 0)])
        with pytest.raises(E.AuthenticationError, match="401.*invalid_client: unknown client or wrong secret"):
            while time.monotonic() - started < 10:
                c.poll(0.1)
    assert time.monotonic() - started < 1.0


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_an_oauth_cb_that_fails_is_asked_again_while_the_connection_waits(certs, bootstrap):
    cert, _ = certs
    calls = []

    def oauth_cb(config):
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise RuntimeError("identity provider unavailable")
        return _unsigned("dave", 60), time.time() + 60, "dave"

    with Admin(_client_conf(bootstrap, cert, {"oauth_cb": oauth_cb})) as admin:
        admin.describe_cluster(timeout=10)
    assert len(calls) == 2 and 0.9 <= calls[1] - calls[0] < 3  # 1 s later, as the first retry is


# -- librdkafka and the confluent face, with the same settings

def _confluent_roundtrip(module, conf, topic, n):
    p = module.Producer(dict(conf, **{"linger.ms": 5}))
    errors = []
    for i in range(n):
        p.produce(topic, key=b"k%03d" % i, value=b"v%03d" % i,
                  on_delivery=lambda err, msg: err is not None and errors.append(err))
        p.poll(0)
    assert p.flush(30) == 0 and not errors, errors
    c = module.Consumer(dict(conf, **{"group.id": f"g-{uuid.uuid4().hex[:6]}", "enable.auto.commit": False}))
    c.assign([module.TopicPartition(topic, part, module.OFFSET_BEGINNING) for part in (0, 1)])
    got = []
    deadline = time.monotonic() + 30
    while len(got) < n and time.monotonic() < deadline:
        msg = c.poll(0.5)
        if msg is not None and msg.error() is None:
            got.append((msg.key(), msg.value()))
    c.close()
    return sorted(got)


@pytest.mark.broker
@pytest.mark.timeout(120)
@pytest.mark.parametrize("client", ["librdkafka", "face"])
@pytest.mark.parametrize("name", ["oauth_cb", "unsecured", "oidc"])
def test_librdkafka_and_the_face_with_the_same_settings(certs, endpoint, front, bootstrap, client, name):
    if client == "librdkafka":
        module = pytest.importorskip("confluent_kafka")
    else:
        from kafkacodec.compat import confluent_kafka as module
    cert, _ = certs
    source, principal = _sources(endpoint, cert)[name]
    topic = _topic(bootstrap, cert, source)
    conf = {"bootstrap.servers": bootstrap, "security.protocol": "sasl_ssl", "ssl.ca.location": cert,
            "sasl.mechanisms": "OAUTHBEARER", **source}
    if client == "librdkafka":
        conf["log_level"] = 3
    assert _confluent_roundtrip(module, conf, topic, 100) == [(b"k%03d" % i, b"v%03d" % i) for i in range(100)]
    assert principal in front.principals


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_librdkafka_reauthenticates_on_the_same_front(certs, endpoint, front, bootstrap):
    """The front's sessions as librdkafka (KIP-368 since 2.2) meets them: re-authenticated in time.
    Its tokens last 10 s: librdkafka looks for a token to renew once a second, so a 3 s token can
    expire before the next one comes (seen: a re-authentication refused 1 ms after expiry)."""
    confluent_kafka = pytest.importorskip("confluent_kafka")
    cert, _ = certs
    source, _ = _sources(endpoint, cert, life=10.0)["oauth_cb"]
    topic = _topic(bootstrap, cert, source, partitions=1)
    conf = {"bootstrap.servers": bootstrap, "security.protocol": "sasl_ssl", "ssl.ca.location": cert,
            "sasl.mechanisms": "OAUTHBEARER", "log_level": 3, **source}
    p = confluent_kafka.Producer(conf)
    p.produce(topic, b"first")
    assert p.flush(15) == 0
    connections, reauths, expired = front.connections, front.reauthentications, front.expired
    errors = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        p.produce(topic, b"x", on_delivery=lambda err, msg: err is not None and errors.append(err))
        p.poll(0.05)
    assert p.flush(15) == 0 and not errors
    assert front.reauthentications - reauths >= 2
    assert front.expired == expired and front.connections == connections


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_spark_kafka_sasl_options_reach_the_clients(certs, endpoint, bootstrap):
    pytest.importorskip("pyspark")
    from kafkacodec.spark import _live_offsets
    from kafkacodec.spark._live_options import client_conf, parse_live_options
    cert, _ = certs
    oidc, _ = _sources(endpoint, cert)["oidc"]
    topic = _topic(bootstrap, cert, oidc, partitions=1)
    with Producer(_client_conf(bootstrap, cert, oidc)) as p:
        for i in range(10):
            p.send(topic, b"%d" % i, partition=0)
        p.flush(15)
    options = {"kafka.bootstrap.servers": bootstrap, "subscribe": topic, "kafka.security.protocol": "SASL_SSL",
               "kafka.ssl.cafile": cert, "kafka.sasl.mechanism": "OAUTHBEARER",
               **{f"kafka.{k}": str(v) for k, v in oidc.items()}}
    opts = parse_live_options(options)
    assert client_conf(opts, "consumer")["sasl.oauthbearer.token.endpoint.url"] == endpoint.url
    with Admin(client_conf(opts, "admin")) as admin:
        tps = _live_offsets.resolve_partitions(admin, opts)
        assert _live_offsets.latest_offsets(admin, tps, opts.isolation_level) == {TopicPartition(topic, 0): 10}
