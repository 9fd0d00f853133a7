"""librdkafka's setting names -> kafkacodec's, in one table.

``SETTINGS`` has one entry per librdkafka name the face knows: what it becomes
(a kafkacodec setting, a setting of the face itself, accepted without effect,
or refused with a ConfigError naming what to use), for which clients, and why.
Every property of librdkafka's CONFIGURATION.md is there, each (property,
client) pair one of *honoured* (the client has the mechanism), *no effect*
(it tunes only librdkafka's internals, or it is a C API hook Python programs
cannot set) or *refused* (ignoring it would change what is delivered or how
the connection is secured); ``status()`` says which, ``markdown()`` is the
table as documentation (``python -m kafkacodec.compat.confluent_kafka
--settings-markdown``, committed as SETTINGS.md beside this file).  A refused
setting is still accepted at its default (unset, empty, false).  A name not in
the table is passed to kafkacodec as is when kafkacodec has it (its Kafka Java
names: ``ssl.cafile``, ``max.poll.records``, ...), else refused.
"""
from __future__ import annotations

import logging
import re
import socket
import sys
from collections.abc import Callable
from typing import Any, NamedTuple

from kafkacodec.client.config import ADMIN, CONSUMER, PRODUCER
from kafkacodec.client.config import check_callable as _callable  # None, or a callable: the client's check
from kafkacodec.client.config import name_or_callable
from kafkacodec.client.errors import ConfigError
from kafkacodec.compat.confluent_kafka._errors import ConfigException

__all__ = ["SETTINGS", "Setting", "translate", "FACE_DEFAULTS", "status", "markdown", "DEBUG_CONTEXTS"]

log = logging.getLogger("kafkacodec.compat")

# kind: "kafkacodec" (becomes `target`), "face" (read by the face), "accepted" (no effect; the doc
# says why that is the same behaviour), "unsupported" (ConfigError naming what to use).
# scope: the clients it belongs to; librdkafka warns and ignores a setting of another client, so does the face.
# convert(name, value) -> the value kafkacodec or the face takes (SKIP: nothing), or ConfigError
Convert = Callable[[str, Any], Any]


class Setting(NamedTuple):
    kind: str
    target: str | None
    scope: frozenset[str]
    doc: str
    convert: Convert | None
    elsewhere: str | None = None   # the clients outside scope: why it has no effect there
    example: Any = None            # a value in range where librdkafka's table names none (docs, tests)
    refuses: str | None = None     # in-range values refused (by convert), in words
    status: str | None = None      # "honoured" / "no effect" where kind alone would say otherwise

ALL = frozenset("PCA")
P, C = frozenset("P"), frozenset("C")
PC = frozenset("PC")

#: convert's answer when the value passes nothing on (librdkafka's "inherit", an unused mechanism)
SKIP = object()
#: topic.metadata.refresh.interval.ms=-1 as the client's period: no periodic refresh (2**31-1 ms, 24 days)
_NEVER = 2**31 - 1


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off"):
        return False
    raise ConfigError(f"{name}: expected true or false, got {value!r}")


def _int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise ConfigError(f"{name}: expected an integer, got {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name}: expected an integer, got {value!r}") from None


def _kbytes(name: str, value: Any) -> int:
    return _int(name, value) * 1024


def _cafile(name: str, value: Any) -> Any:
    # "probe" asks librdkafka for the system's CA store, which Python's default context loads anyway
    return None if str(value).strip().lower() == "probe" else value


def _hostname_check(name: str, value: Any) -> bool:
    text = str(value).strip().lower()
    if text not in ("https", "none"):
        raise ConfigError(f"{name}: expected https or none, got {value!r}")
    return text == "https"


def _must_be(expected: bool, advice: str) -> Convert:
    def convert(name: str, value: Any) -> Any:
        if _bool(name, value) != expected:
            raise ConfigError(f"{name}={value!r} is not supported: {advice}")
        return value
    return convert


def _offset_reset(name: str, value: Any) -> str:
    text = str(value).strip().lower()
    table = {"smallest": "earliest", "earliest": "earliest", "beginning": "earliest",
             "largest": "latest", "latest": "latest", "end": "latest", "error": "none", "none": "none"}
    if text not in table:
        raise ConfigError(f"{name}: expected smallest, earliest, beginning, largest, latest, end or error, "
                          f"got {value!r}")
    return table[text]


def _zero_is_none(name: str, value: Any) -> int | None:
    value = _int(name, value)
    return None if value == -1 else value


def _idle_ms(name: str, value: Any) -> int:
    value = _int(name, value)
    return -1 if value == 0 else value  # librdkafka's 0 disables the idle close, Kafka's -1 does


def _os_default(name: str, value: Any) -> int:
    value = _int(name, value)
    return -1 if value == 0 else value  # librdkafka's 0: the OS default, the client's -1


def _delivery_timeout(name: str, value: Any) -> int:
    value = _int(name, value)
    return 2147483647 if value == 0 else value  # librdkafka's 0: no limit


def _refresh_interval(name: str, value: Any) -> int:
    value = _int(name, value)
    return _NEVER if value < 0 else value  # -1: no periodic refresh (metadata.max.age.ms still bounds it)


def _no_limit(name: str, value: Any) -> int:
    value = _int(name, value)
    return sys.maxsize if value == 0 else value  # librdkafka's 0: no limit


def _servers(name: str, value: Any) -> Any:
    """librdkafka's broker list: a port is optional (9092), as is a protocol prefix (PLAINTEXT://)."""
    if not isinstance(value, str):
        return value
    out = []
    for item in value.split(","):
        item = re.sub(r"^[A-Za-z_]+://", "", item.strip())
        if item and not re.search(r":\d+$", item):
            item += ":9092"
        if item:
            out.append(item)
    return ",".join(out)


def _acks(name: str, value: Any) -> Any:
    text = str(value).strip().lower()
    if text not in ("all", "-1", "0", "1") and re.fullmatch(r"\d+", text):
        raise ConfigError(f"{name}={value}: Kafka brokers answer acks other than -1 (all), 0 or 1 with "
                          f"INVALID_REQUIRED_ACKS: use all, 1 or 0")
    return value


def _only(supported: str, refusal: str) -> Convert:
    """The convert of a setting with one supported value: any other is refused, `refusal` saying why."""
    def convert(name: str, value: Any) -> Any:
        if str(value).strip() != supported:
            raise ConfigError(f"{name}={value!r}{refusal}")
        return value
    return convert


_group_protocol_type = _only("consumer", ": a consumer group's protocol type is consumer (the only one librdkafka "
                                         "supports): leave it unset")


def _compression(name: str, value: Any) -> Any:
    # the topic-level compression.codec's default, "inherit": the producer's own codec
    return SKIP if str(value).strip().lower() == "inherit" else value


def _mechanism(name: str, value: Any) -> Any:
    text = str(value).strip().upper()
    # checked with security.protocol at the end of translate(): without SASL it is not used
    return value if text in PRODUCER["sasl.mechanism"].check.options else _Unused(text)


class _Unused(str):
    """A SASL mechanism the client lacks (GSSAPI): refused with SASL_*, else dropped (translate)."""


# librdkafka's partitioner names -> the client's with the same meaning (the client's murmur2 is Java's,
# whose keyless records are sticky; librdkafka's hashes them all to one partition)
_PARTITIONERS = {"murmur2": "murmur2_consistent", "murmur2_random": "murmur2_random", "consistent": "consistent",
                 "consistent_random": "consistent_random", "random": "random", "fnv1a": "fnv1a",
                 "fnv1a_random": "fnv1a_random"}

_partitioner = name_or_callable(_PARTITIONERS)


def _offset_store(name: str, value: Any) -> Any:
    if str(value).strip().lower() != "broker":
        raise ConfigError(f"{name}={value!r}: kafkacodec stores offsets on the broker only: leave it unset")
    return value


def _fifo(name: str, value: Any) -> Any:
    if str(value).strip().lower() != "fifo":
        raise ConfigError(f"{name}={value!r}: records are sent in the order produced: leave it unset")
    return value


def _throttle_cb(name: str, value: Any) -> Any:
    """The client's Throttle events as confluent-kafka's ThrottleEvent."""
    fn = _callable(name, value)
    if fn is None:
        return None
    from kafkacodec.compat.confluent_kafka._types import ThrottleEvent

    def throttled(event: Any) -> object:
        return fn(ThrottleEvent(event.broker_name, event.broker_id, event.throttle_time))
    return throttled


def _debug(name: str, value: Any) -> list[str]:
    items = value.split(",") if isinstance(value, str) else list(value)
    contexts = [str(item).strip().lower() for item in items if str(item).strip()]
    unknown = [c for c in contexts if c not in DEBUG_CONTEXTS]
    if unknown:
        raise ConfigError(f"{name}: unknown debug context {unknown[0]!r} ({', '.join(DEBUG_CONTEXTS)})")
    return contexts


def _log_level(name: str, value: Any) -> int:
    level = _int(name, value)
    if not 0 <= level <= 7:
        raise ConfigError(f"{name}: expected a syslog level 0 to 7, got {level}")
    return level


def _features(name: str, value: Any) -> Any:
    wanted = {item.strip().lower() for item in str(value).split(",") if item.strip()}
    missing = sorted(wanted - _features_here())
    if missing:
        log.warning("%s: kafkacodec has no %s (the settings that would use them are refused)", name,
                    ", ".join(missing))
    return value


def _features_here() -> set[str]:
    """librdkafka's builtin.features this client has."""
    have = {"gzip", "snappy", "ssl", "sasl", "regex", "lz4", "zstd", "sasl_plain", "sasl_scram"}
    if "OAUTHBEARER" in PRODUCER["sasl.mechanism"].check.options:
        have.add("sasl_oauthbearer")
    if "sasl.oauthbearer.token.endpoint.url" in PRODUCER:
        have |= {"http", "oidc"}
    return have


def _unsupported(advice: str, example: Any = None, scope: frozenset[str] = ALL) -> Setting:
    return Setting("unsupported", None, scope, advice, None, example=example)


def _same(scope: frozenset[str], doc: str, convert: Convert | None = None, target: str | None = None, *,
          elsewhere: str | None = None, example: Any = None, refuses: str | None = None) -> Setting:
    return Setting("kafkacodec", target, scope, doc, convert, elsewhere, example, refuses)


def _face(scope: frozenset[str], doc: str, convert: Convert | None = None, *, elsewhere: str | None = None,
          example: Any = None) -> Setting:
    return Setting("face", None, scope, doc, convert, elsewhere, example)


def _none(doc: str, convert: Convert | None = None, *, scope: frozenset[str] = ALL, example: Any = None) -> Setting:
    """Accepted without effect: it tunes only librdkafka's internals (the doc says why)."""
    return Setting("accepted", None, scope, doc, convert, example=example)


SSL_ADVICE = "build an ssl.SSLContext and pass it as ssl.context"
C_API = "a C API hook: confluent-kafka raises for it"


# in-range values of the socket hooks (the docs' and tests' examples): what the client does without them
def _make_socket(family: int, type_: int, proto: int) -> socket.socket:
    return socket.socket(family, type_, proto)


def _connect_socket(sock: socket.socket, address: tuple[Any, ...], broker_name: str) -> int:
    return sock.connect_ex(address)


def _close_socket(sock: socket.socket) -> None:
    sock.close()

NO_PRODUCE_REQUESTS = "the consumer and the admin client send no Produce requests"
ONLY_CONSUMERS = "only consumers fetch"
NO_POLL = "the AdminClient serves no such callbacks"


_grant_type = _only("client_credentials", " is not supported: kafkacodec's OIDC login uses the client credentials "
                                           "grant; for a JWT assertion, get the token in oauth_cb")


def _metadata_authentication(name: str, value: Any) -> Any:
    if str(value).strip().lower() != "none":
        raise ConfigError(f"{name}={value!r} is not supported: get the token from your cloud's SDK in oauth_cb")
    return value


_ASSERTION = ("Only read with sasl.oauthbearer.grant.type=urn:ietf:params:oauth:grant-type:jwt-bearer, which is "
              "refused: no effect.")

# SASL/OAUTHBEARER: the same names in kafkacodec's client (kafkacodec.client.oauth)
_OAUTHBEARER = {
    "oauth_cb": _same(ALL, "oauth_cb(sasl.oauthbearer.config) -> (token, expiry in s since the epoch[, principal"
                           "[, extensions]]), as confluent-kafka's; called on a thread of the client's own, at start "
                           "and 80 % through each token's lifetime.", example=lambda config: ("token", 0.0)),
    "sasl.oauthbearer.config": _same(ALL, "Given to oauth_cb; for the unsecured JWT: principal=, scope=, "
                                          "lifeSeconds=, principalClaimName=, scopeClaimName=, extension_NAME=.",
                                     example="principal=admin"),
    "enable.sasl.oauthbearer.unsecure.jwt": _same(ALL, "The built-in unsecured JWT (development only).", _bool),
    "sasl.oauthbearer.method": _same(ALL, "default (oauth_cb or the unsecured JWT) or oidc (the token endpoint)."),
    "sasl.oauthbearer.client.id": _same(ALL, "OIDC client id.", example="client"),
    "sasl.oauthbearer.client.credentials.client.id": _same(ALL, "Alias of sasl.oauthbearer.client.id.",
                                                           target="sasl.oauthbearer.client.id", example="client"),
    "sasl.oauthbearer.client.secret": _same(ALL, "OIDC client secret.", example="secret"),
    "sasl.oauthbearer.client.credentials.client.secret": _same(ALL, "Alias of sasl.oauthbearer.client.secret.",
                                                               target="sasl.oauthbearer.client.secret",
                                                               example="secret"),
    "sasl.oauthbearer.scope": _same(ALL, "Scope asked of the token endpoint.", example="kafka"),
    "sasl.oauthbearer.extensions": _same(ALL, "SASL extensions sent with OIDC tokens, name=value,...",
                                         example="traceId=1"),
    "sasl.oauthbearer.token.endpoint.url": _same(ALL, "OIDC token endpoint (client credentials grant).",
                                                 example="https://idp.example/token"),
    "sasl.oauthbearer.sub.claim.name": _same(ALL, "Claim of the access token that names the principal."),
    "sasl.oauthbearer.grant.type": Setting("accepted", None, ALL, "client_credentials (the default) only; the "
                                           "jwt-bearer grant is refused: get such tokens in oauth_cb.", _grant_type,
                                           refuses="urn:ietf:params:oauth:grant-type:jwt-bearer (get such tokens "
                                                   "in oauth_cb)"),
    "sasl.oauthbearer.metadata.authentication.type": Setting(
        "accepted", None, ALL, "none (the default) only; azure_imds and aws_iam are refused: get the token in "
                               "oauth_cb.", _metadata_authentication,
        refuses="azure_imds, aws_iam (get the token from the cloud's SDK in oauth_cb)"),
    **{f"sasl.oauthbearer.assertion.{name}": Setting("accepted", None, ALL, _ASSERTION, None, example="x")
       for name in ("algorithm", "private.key.file", "private.key.passphrase", "private.key.pem", "file",
                    "claim.aud", "claim.exp.seconds", "claim.iss", "claim.jti.include", "claim.nbf.seconds",
                    "claim.sub", "jwt.template.file")},
    "https.ca.location": _same(ALL, "CA certificates the token endpoint is verified with; 'probe': the system's.",
                               _cafile, example="/etc/ssl/certs/ca-certificates.crt"),
    "https.ca.pem": _same(ALL, "CA certificates (PEM string) the token endpoint is verified with.",
                          example="-----BEGIN CERTIFICATE-----"),
}

_KERBEROS = "Only used by SASL/GSSAPI (Kerberos), which kafkacodec refuses (sasl.mechanism): no effect."
_ENGINE = "OpenSSL engines are not offered by Python's ssl: use PEM files or an ssl.context"

SETTINGS = {
    # -- connection
    "bootstrap.servers": _same(ALL, "Brokers to bootstrap from, host[:port],... (port 9092 when left out).",
                               _servers, example="localhost"),
    "metadata.broker.list": _same(ALL, "librdkafka's older name of bootstrap.servers.", _servers,
                                  target="bootstrap.servers", example="localhost:9092"),
    "client.id": _same(ALL, "Client id sent with every request."),
    "socket.timeout.ms": _same(ALL, "Timeout of a network request (request.timeout.ms wins when both are given).",
                               target="request.timeout.ms"),
    "socket.connection.setup.timeout.ms": _same(ALL, "Timeout to connect (TCP, TLS, ApiVersions, SASL)."),
    "connections.max.idle.ms": _same(ALL, "Close idle connections after this long (0: never).", _idle_ms),
    "reconnect.backoff.ms": _same(ALL, "First pause before reconnecting."),
    "reconnect.backoff.max.ms": _same(ALL, "Longest pause before reconnecting."),
    "retry.backoff.ms": _same(ALL, "First pause before retrying a request."),
    "retry.backoff.max.ms": _same(ALL, "Longest pause before retrying a request."),
    "receive.message.max.bytes": _same(ALL, "Largest response accepted from a broker."),
    "socket.send.buffer.bytes": _same(ALL, "SO_SNDBUF of broker sockets (0: the OS default).", _os_default,
                                      "send.buffer.bytes"),
    "socket.receive.buffer.bytes": _same(ALL, "SO_RCVBUF of broker sockets (0: the OS default).", _os_default,
                                         "receive.buffer.bytes"),
    "socket.keepalive.enable": _same(ALL, "SO_KEEPALIVE on broker sockets.", _bool),
    "socket.nagle.disable": _same(ALL, "TCP_NODELAY on broker sockets.", _bool),
    "socket.max.fails": _same(ALL, "Close a connection after this many request timeouts in a row (0: never, the "
                                   "late answer is dropped)."),
    "broker.address.family": _same(ALL, "any, v4 or v6: the addresses brokers are connected by."),
    "broker.address.ttl": _same(ALL, "How long a broker's resolved addresses are kept."),
    "client.dns.lookup": _same(ALL, "use_all_dns_ips tries each address of a host; "
                                    "resolve_canonical_bootstrap_servers_only also expands bootstrap servers into "
                                    "canonical names."),
    "api.version.request.timeout.ms": _same(ALL, "Time limit of the ApiVersions request starting each connection."),
    "allow.auto.create.topics": _same(ALL, "Ask the broker to create a topic the client asks metadata for."),
    "max.in.flight.requests.per.connection": _same(
        P, "Unanswered produce requests per broker.",
        elsewhere="a consumer has one Fetch in flight per broker, the admin client's requests are few"),
    "max.in.flight": _same(P, "Alias of max.in.flight.requests.per.connection.",
                           target="max.in.flight.requests.per.connection",
                           elsewhere="a consumer has one Fetch in flight per broker, the admin client's requests "
                                     "are few"),
    "message.max.bytes": _same(P, "Largest produce request.", target="max.request.size",
                               elsewhere=NO_PRODUCE_REQUESTS),
    "message.copy.max.bytes": _none("When librdkafka copies a record rather than referencing it; kafkacodec "
                                    "writes every record into its batch once."),
    # -- metadata
    "topic.metadata.refresh.interval.ms": _same(
        ALL, "Refresh metadata this often (-1: only when needed, and before metadata.max.age.ms passes).",
        _refresh_interval, target="metadata.max.age.ms"),
    "metadata.max.age.ms": _same(ALL, "Metadata is refreshed before it gets this old: the client refreshes at "
                                      "the smaller of this and topic.metadata.refresh.interval.ms."),
    "topic.metadata.refresh.fast.interval.ms": _same(ALL, "First wait before metadata is asked again while a "
                                                          "partition has no leader.",
                                                     target="metadata.retry.backoff.ms"),
    "topic.metadata.refresh.sparse": _none("kafkacodec always asks for the topics it uses (librdkafka's true); "
                                           "false only made librdkafka ask for every topic.", _bool),
    "topic.metadata.propagation.max.ms": _same(
        P, "How long messages wait for a topic the brokers say does not exist before their delivery fails with "
           "_UNKNOWN_TOPIC (kafkacodec's max.block.ms, which also bounds produce()'s wait for memory).",
        target="max.block.ms",
        elsewhere="a consumer waits for its topics as long as it is subscribed; admin calls have their timeouts"),
    "topic.blacklist": _same(ALL, "Regular expressions: matching topics are left out of the metadata, as if "
                                  "absent.", target="metadata.topics.exclude", example="^internal-.*"),
    "metadata.recovery.strategy": _same(ALL, "rebootstrap: ask the bootstrap servers again when no known broker "
                                             "can be reached; none: never."),
    "metadata.recovery.rebootstrap.trigger.ms": _same(ALL, "Rebootstrap after this long without metadata."),
    "api.version.request": Setting("accepted", None, ALL, "kafkacodec always asks brokers for their versions.",
                                   _must_be(True, "kafkacodec always asks brokers for their API versions")),
    "broker.version.fallback": Setting("accepted", None, ALL, "Only used by librdkafka when api.version.request "
                                       "is false, which kafkacodec does not do.", None),
    "api.version.fallback.ms": Setting("accepted", None, ALL, "As broker.version.fallback.", None),
    # -- security
    "security.protocol": _same(ALL, "plaintext, ssl, sasl_plaintext or sasl_ssl (any case).",
                               refuses="sasl_plaintext and sasl_ssl without sasl.mechanism, which means "
                                       "librdkafka's GSSAPI (Kerberos): give the mechanism and its credentials"),
    "sasl.mechanisms": _same(ALL, "PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER; GSSAPI (the default) is "
                                  "accepted while security.protocol is not SASL_*, as it is not used then.",
                             _mechanism, target="sasl.mechanism",
                             refuses="GSSAPI with SASL_PLAINTEXT or SASL_SSL (Kerberos: use SCRAM-SHA-256/512, "
                                     "PLAIN or OAUTHBEARER)"),
    "sasl.mechanism": _same(ALL, "Alias of sasl.mechanisms.", _mechanism,
                            refuses="GSSAPI with SASL_PLAINTEXT or SASL_SSL (as sasl.mechanisms)"),
    "sasl.username": _same(ALL, "SASL PLAIN/SCRAM user.", example="user"),
    "sasl.password": _same(ALL, "SASL PLAIN/SCRAM password.", example="secret"),
    "sasl.kerberos.service.name": _none(_KERBEROS),
    "sasl.kerberos.principal": _none(_KERBEROS),
    "sasl.kerberos.kinit.cmd": _none(_KERBEROS),
    "sasl.kerberos.keytab": _none(_KERBEROS, example="/etc/krb5.keytab"),
    "sasl.kerberos.min.time.before.relogin": _none(_KERBEROS),
    **_OAUTHBEARER,
    "oauthbearer_token_refresh_cb": _same(ALL, "Alias of oauth_cb, the token callback (confluent-kafka raises for "
                                               "this C API name).", _callable, target="oauth_cb",
                                          example=lambda config: ("token", 0.0)),
    "ssl.ca.location": _same(ALL, "CA certificates (PEM file or hashed directory); 'probe': the system's.",
                             _cafile, "ssl.cafile", example="/etc/ssl/certs/ca-certificates.crt"),
    "ssl.ca.pem": _same(ALL, "CA certificates as PEM text.", target="ssl.cadata",
                        example="-----BEGIN CERTIFICATE-----"),
    "ssl.certificate.location": _same(ALL, "Client certificate (PEM file).", target="ssl.certfile",
                                      example="/etc/kafka/client.pem"),
    "ssl.certificate.pem": _same(ALL, "Client certificate as PEM text.", target="ssl.certdata",
                                 example="-----BEGIN CERTIFICATE-----"),
    "ssl.key.location": _same(ALL, "Client private key (PEM file).", target="ssl.keyfile",
                              example="/etc/kafka/client.key"),
    "ssl.key.pem": _same(ALL, "Client private key as PEM text.", target="ssl.keydata",
                         example="-----BEGIN PRIVATE KEY-----"),
    "ssl.key.password": _same(ALL, "Password of the client private key.", target="ssl.password", example="secret"),
    "ssl.crl.location": _same(ALL, "Certificate revocation lists (PEM file).", target="ssl.crlfile",
                              example="/etc/kafka/crl.pem"),
    "ssl.cipher.suites": _same(ALL, "TLS 1.2 cipher suites, in OpenSSL's cipher list format.",
                               example="ECDHE+AESGCM"),
    "ssl.endpoint.identification.algorithm": _same(
        ALL, "https checks the broker's host name against its certificate, none does not.", _hostname_check,
        "ssl.check.hostname"),
    "enable.ssl.certificate.verification": _same(ALL, "false accepts any broker certificate (tests only).", _bool,
                                                 "ssl.check.certificate"),
    "ssl.ca.certificate.stores": _none("Windows certificate stores; kafkacodec loads the system's CA store "
                                       "through Python's ssl on every system."),
    "ssl.engine.id": _none("Only used with ssl.engine.location (deprecated, and refused: " + _ENGINE + ")."),
    "ssl.keystore.location": _same(ALL, "Client certificate and key in a PKCS#12 keystore (read with the openssl "
                                        "command).", example="/etc/kafka/client.p12"),
    "ssl.keystore.password": _same(ALL, "Password of the keystore.", example="secret"),
    "ssl.curves.list": _unsupported("Python's ssl cannot set a client's curves: leave it unset, or set Groups in "
                                    "OpenSSL's configuration (OPENSSL_CONF)", example="prime256v1"),
    "ssl.sigalgs.list": _unsupported("Python's ssl cannot set signature algorithms: leave it unset, or set "
                                     "SignatureAlgorithms in OpenSSL's configuration (OPENSSL_CONF)",
                                     example="RSA+SHA256"),
    "ssl.providers": _unsupported("OpenSSL providers are not loaded by a client setting: set them in OpenSSL's "
                                  "configuration (OPENSSL_CONF)", example="default,legacy"),
    "ssl.engine.location": _unsupported(_ENGINE),
    "ssl_engine_callback_data": _unsupported(f"{C_API}; " + _ENGINE),
    "ssl.certificate.verify_cb": _unsupported(f"{C_API}: give ssl.ca.location, ssl.ca.pem or ssl.crl.location"),
    "ssl_key": _same(ALL, "Alias of ssl.key.pem (librdkafka's internal name, not settable there).",
                     target="ssl.keydata", example="-----BEGIN PRIVATE KEY-----"),
    "ssl_certificate": _same(ALL, "Alias of ssl.certificate.pem (librdkafka's internal name, not settable there).",
                             target="ssl.certdata", example="-----BEGIN CERTIFICATE-----"),
    "ssl_ca": _same(ALL, "Alias of ssl.ca.pem (librdkafka's internal name, not settable there).",
                    target="ssl.cadata", example="-----BEGIN CERTIFICATE-----"),
    "plugin.library.paths": _unsupported("librdkafka plugins are not loaded by kafkacodec: do in Python what the "
                                         "plugin did", example="monitoring-interceptor"),
    "interceptors": _unsupported("librdkafka interceptors are not loaded by kafkacodec: wrap the calls in "
                                 "Python"),
    "socket_cb": _same(ALL, "socket_cb(family, type, proto) -> a socket.socket or a file descriptor: the broker "
                            "socket to use (made non-blocking, the socket.* settings applied); confluent-kafka "
                            "raises for this C API hook.", _callable, example=_make_socket),
    "connect_cb": _same(ALL, "connect_cb(sock, sockaddr, broker_name) -> 0 (or EINPROGRESS) or an errno, which "
                             "fails the attempt; instead of the client's own connect (confluent-kafka raises for "
                             "this C API hook).", _callable, example=_connect_socket),
    "closesocket_cb": _same(ALL, "closesocket_cb(sock), instead of sock.close(), for each broker socket the client "
                                 "is done with (confluent-kafka raises for this C API hook).", _callable,
                            example=_close_socket),
    "resolve_cb": _same(ALL, "resolve_cb(host, port, family, type) -> [(family, type, proto, canonname, sockaddr), "
                             "...] as socket.getaddrinfo answers, for every broker host, IP literals included; an "
                             "OSError fails the lookup (confluent-kafka raises for this C API hook).", _callable,
                        example=socket.getaddrinfo),
    # -- logging, statistics, callbacks
    "debug": _face(ALL, "Turns these contexts' kafkacodec loggers to DEBUG (see DEBUG_CONTEXTS; the levels are "
                        "the process's); with no handler configured, they print to stderr as librdkafka does.",
                   _debug),
    "log_level": _face(ALL, "The syslog level (0-7) of the records the face hands to logger and log_cb.",
                       _log_level),
    "logger": _face(ALL, "A logging.Logger that receives kafkacodec's records (instead of the loggers above "
                         "them), as confluent-kafka's logger does.", example=logging.getLogger("app")),
    "log_cb": _face(ALL, "log_cb(level, facility, message) for each kafkacodec record (syslog level, logger "
                         "name); confluent-kafka raises for this C API hook.", _callable,
                    example=lambda level, facility, message: None),
    "log.connection.close": _none("kafkacodec logs a broker closing a connection at WARNING on "
                                  "kafkacodec.client.network; set that logger's level to silence it.", _bool),
    "log.queue": _none("kafkacodec logs on the thread where the event happens; Python's logging is thread-safe.",
                       _bool),
    "log.thread.name": _none("Python's log records carry the thread name (%(threadName)s).", _bool),
    "enable.random.seed": _none("Python seeds its random module itself.", _bool),
    "internal.termination.signal": _none("kafkacodec's threads end without a signal."),
    "enabled_events": _none("librdkafka's event API (rd_kafka_queue_poll); the face serves callbacks from "
                            "poll()."),
    "background_event_cb": _none(f"{C_API}; the face serves callbacks from poll().",
                                 example=lambda *args: None),
    "open_cb": _none(f"{C_API}: librdkafka opens files with it to set O_CLOEXEC, which Python does by default.",
                     example=lambda *args: None),
    "opaque": _none(f"{C_API}, handed to C callbacks; Python callbacks are closures.", example=object()),
    "enable.metrics.push": _none("kafkacodec pushes no client metrics to brokers (KIP-714); nothing it delivers "
                                 "depends on it.", _bool),
    "builtin.features": _none("Checked: a feature kafkacodec lacks (sasl_gssapi, plugins) is named in a "
                              "warning, and the settings that would use it are refused.", _features,
                              example="gzip,ssl"),
    "statistics.interval.ms": _same(PC, "Every this many ms, stats_cb gets the statistics JSON (STATISTICS.md "
                                        "layout, the fields kafkacodec can fill) from poll()/flush(); 0: never.",
                                    elsewhere="the admin client keeps no statistics"),
    "stats_cb": _same(PC, "stats_cb(json_str) for each statistics document, from poll()/flush().", _callable,
                      elsewhere=NO_POLL, example=lambda doc: None),
    "throttle_cb": _same(PC, "throttle_cb(ThrottleEvent) for each answer a broker delayed for a quota, from "
                             "poll()/flush().", _throttle_cb, elsewhere=NO_POLL, example=lambda event: None),
    "error_cb": Setting("face", None, ALL, "error_cb(KafkaError) for errors outside any call, served from "
                        "poll()/flush(): _TRANSPORT for a broker connection that failed or broke, _RESOLVE for a "
                        "host name that did not resolve, _ALL_BROKERS_DOWN when every known broker is down, and "
                        "the error that stops the client for good (_FATAL, _AUTHENTICATION). An AdminClient "
                        "hears only of the last.", None, example=lambda err: None),
    "default_topic_conf": _face(ALL, "Alias of default.topic.config (a dict of topic settings).",
                                example={"acks": "all"}),
    # -- consumer
    "group.id": _same(C, "Consumer group id.", example="group"),
    "group.instance.id": _same(C, "Static membership id.", example="member-1"),
    "group.protocol": _same(C, "classic (JoinGroup/SyncGroup) or consumer (KIP-848's ConsumerGroupHeartbeat)."),
    "group.protocol.type": _face(C, "consumer, the only type of the classic protocol.", _group_protocol_type,
                                 example="consumer"),
    "group.remote.assignor": _same(C, "group.protocol=consumer: the assignor the coordinator runs.",
                                   example="uniform"),
    "coordinator.query.interval.ms": _none("kafkacodec looks its coordinator up again when it fails or moves, not "
                                           "on a timer.", scope=C),
    "session.timeout.ms": _same(C, "Group session timeout.",
                                refuses="values not above heartbeat.interval.ms (the member would be expelled "
                                        "between heartbeats: raise it or lower heartbeat.interval.ms)"),
    "heartbeat.interval.ms": _same(C, "Group heartbeat interval.",
                                   refuses="values not below session.timeout.ms (the member would be expelled "
                                           "between heartbeats: a third of it is usual)"),
    "max.poll.interval.ms": _same(C, "Longest time between polls before the member leaves the group."),
    "partition.assignment.strategy": _same(C, "range, roundrobin, cooperative-sticky (comma separated)."),
    "auto.offset.reset": _same(C, "smallest/earliest/beginning, largest/latest/end, or error (kafkacodec's "
                                  "none: poll() returns a _AUTO_OFFSET_RESET error).", _offset_reset),
    "isolation.level": _same(C, "read_committed (librdkafka's default, and the face's) or read_uncommitted."),
    "fetch.min.bytes": _same(C, "Least data a fetch waits for."),
    "fetch.wait.max.ms": _same(C, "Longest a broker holds a fetch for fetch.min.bytes.",
                               target="fetch.max.wait.ms"),
    "fetch.max.bytes": _same(C, "Most data one fetch response carries."),
    "max.partition.fetch.bytes": _same(C, "Most data per partition in one fetch."),
    "fetch.message.max.bytes": _same(C, "librdkafka's name of max.partition.fetch.bytes.",
                                     target="max.partition.fetch.bytes"),
    "fetch.error.backoff.ms": _same(C, "Wait before fetching again from a broker whose Fetch failed."),
    "fetch.queue.backoff.ms": _same(C, "When a partition held back by the queue bounds is looked at again (poll() "
                                       "taking data looks at once)."),
    "queued.min.messages": _same(C, "Fetch a partition again while fewer of its records are buffered.",
                                 target="fetch.queue.min.records"),
    "queued.max.messages.kbytes": _same(C, "Fetch no partition while this much record data is buffered.", _kbytes,
                                        "fetch.queue.max.bytes"),
    "check.crcs": _same(C, "Verify the CRC of fetched batches."),
    "client.rack": _same(C, "Sent with each Fetch; the consumer fetches from the replica the leader names "
                            "(KIP-392).", elsewhere=ONLY_CONSUMERS, example="rack-a"),
    "enable.auto.commit": _same(C, "Commit the stored offsets every auto.commit.interval.ms, on revoke and on "
                                   "close (see enable.auto.offset.store).", _bool),
    "auto.commit.enable": _same(C, "librdkafka's older name of enable.auto.commit.", _bool, "enable.auto.commit"),
    "auto.commit.interval.ms": _same(C, "Period of the automatic commit.", _int),
    "enable.auto.offset.store": _same(C, "Store each message's offset + 1 as poll() returns it; false: only "
                                         "store_offsets() stores.", _bool),
    "enable.partition.eof": _same(C, "poll()/consume() return a _PARTITION_EOF event each time a partition's end "
                                     "is reached.", _bool),
    "on_commit": Setting("face", None, C, "on_commit(err, [TopicPartition]) after each commit, from poll().",
                         None),
    "offset_commit_cb": _face(C, "Alias of on_commit (confluent-kafka raises for this C API hook).", _callable,
                              example=lambda err, partitions: None),
    "rebalance_cb": _face(C, "rebalance_cb(consumer, KafkaError(_ASSIGN_PARTITIONS or _REVOKE_PARTITIONS), "
                             "[TopicPartition]), from poll(), for subscriptions made without on_assign/on_revoke/"
                             "on_lost; as librdkafka requires, it calls assign() or incremental_assign() (partitions "
                             "it leaves out are paused until assign() names them) and unassign() or "
                             "incremental_unassign() (confluent-kafka raises for this C API hook).", _callable,
                          example=lambda consumer, error, partitions: None),
    "consume_cb": _none(f"{C_API} (rd_kafka_consume_callback); Consumer.poll() and consume() return the "
                        f"messages.", scope=C, example=lambda *args: None),
    "consume.callback.max.messages": _none("Only for librdkafka's C consume callback API.", scope=C),
    "max.poll.records": _none("The face's ShareConsumer takes it (most records one poll() returns, and one "
                              "ShareFetch acquires); Consumer.consume(num_messages) takes as many as asked.", scope=C),
    "share.acknowledgement.mode": _none("The face's ShareConsumer takes it (KIP-932: implicit, a poll's records are "
                                        "accepted by the next poll, commit or close; explicit, acknowledge() marks "
                                        "each); the Consumer ignores it, as librdkafka does.", scope=C),
    # deprecated in librdkafka, still accepted where the behaviour is kafkacodec's
    "offset.store.method": _none("broker, the only offset store kafkacodec has; file is refused.", _offset_store,
                                 scope=C),
    "offset.store.path": _none("Only for offset.store.method=file, which is refused.", scope=C),
    "offset.store.sync.interval.ms": _none("Only for offset.store.method=file, which is refused.", scope=C),
    "topic.metadata.refresh.fast.cnt": _none("No longer used by librdkafka."),
    "socket.blocking.max.ms": _none("No longer used by librdkafka."),
    "reconnect.backoff.jitter.ms": _none("Replaced by reconnect.backoff.ms, whose waits kafkacodec jitters."),
    "produce.offset.report": _none("No longer used by librdkafka: delivery reports carry offsets.", scope=P),
    "queuing.strategy": _none("fifo, kafkacodec's order; lifo is refused.", _fifo, scope=P),
    "msg_order_cmp": _unsupported(f"{C_API}: leave it unset, records are sent in the order produced", scope=P),
    # -- producer
    "acks": _same(P, "all/-1, 0 or 1.", _acks, refuses="2 to 1000 (Kafka brokers take -1, 0 or 1)"),
    "request.required.acks": _same(P, "librdkafka's older name of acks.", _acks, target="acks",
                                   refuses="2 to 1000 (Kafka brokers take -1, 0 or 1)"),
    "request.timeout.ms": _same(ALL, "Timeout of a network request (librdkafka: the produce request's; the "
                                     "face's consumer and admin client take it too)."),
    "linger.ms": _same(P, "How long a batch waits for more records."),
    "queue.buffering.max.ms": _same(P, "librdkafka's older name of linger.ms.", target="linger.ms"),
    "batch.size": _same(P, "Most bytes in one batch."),
    "batch.num.messages": _same(P, "Most records in one batch.", target="batch.max.records"),
    "compression.type": _same(P, "none, gzip, snappy, lz4, zstd."),
    "compression.codec": _same(P, "Alias of compression.type (inherit: the producer's own).", _compression,
                               target="compression.type"),
    "compression.level": _same(P, "Codec level (-1: the codec's default).", _zero_is_none),
    "enable.idempotence": _same(P, "Idempotent producer; false by default, as in librdkafka.", _bool),
    "retries": _same(P, "How often a failed batch is sent again."),
    "message.send.max.retries": _same(P, "Alias of retries.", target="retries"),
    "message.timeout.ms": _same(P, "Time limit of a record's delivery (0: none).", _delivery_timeout,
                                "delivery.timeout.ms"),
    "delivery.timeout.ms": _same(P, "Alias of message.timeout.ms.", _delivery_timeout),
    "queue.buffering.max.kbytes": _same(P, "Memory for queued records, in KiB (kafkacodec: buffer.memory, "
                                           "bytes).", _kbytes, "buffer.memory"),
    "queue.buffering.max.messages": Setting("face", None, P, "Most records queued and not yet reported: produce() "
                                            "raises BufferError beyond it (default 100000; 0: no limit).",
                                            _no_limit),
    "queue.buffering.backpressure.threshold": _none("librdkafka's internal batching of requests; kafkacodec sends "
                                                    "each broker's ready batches at once.", scope=P),
    "partitioner": _same(P, "consistent_random (the default, as in librdkafka), consistent, murmur2, "
                            "murmur2_random, fnv1a, fnv1a_random, random: librdkafka's meanings, keyless records "
                            "included.", _partitioner),
    "partitioner_cb": _same(P, "A callable partitioner fn(key, partition_count) -> partition (confluent-kafka "
                               "raises for this C API hook).", _callable, target="partitioner",
                            example=lambda key, count: 0),
    "transactional.id": _same(P, "Transactional producer id.", example="txn-1"),
    "transaction.timeout.ms": _same(P, "Transaction timeout on the coordinator."),
    "delivery.report.only.error": Setting("face", None, P, "Only failed deliveries are reported.", _bool),
    "on_delivery": Setting("face", None, P, "on_delivery(err, msg) for records produced without a callback.",
                           None),
    "dr_msg_cb": _face(P, "Alias of on_delivery (confluent-kafka raises for this C API hook).", _callable,
                       example=lambda err, msg: None),
    "dr_cb": _face(P, "Alias of on_delivery (confluent-kafka raises for this C API hook).", _callable,
                   example=lambda err, msg: None),
    "enable.gapless.guarantee": _same(P, "With enable.idempotence: a batch that fails for good (a gap in the "
                                         "partition's records) makes the producer fatal (KafkaError "
                                         "_GAPLESS_GUARANTEE, fatal()) instead of bumping the epoch; failures "
                                         "for message.timeout.ms are not covered, as in librdkafka.", _bool,
                                      refuses="true without enable.idempotence=true (librdkafka refuses it too)"),
    "sticky.partitioning.linger.ms": _same(P, "How long keyless records stick to one partition (librdkafka's "
                                              "default: 2 x linger.ms; 0: a random partition per record).", _int),
}

# the face's own settings and the librdkafka defaults it keeps where kafkacodec's differ
FACE_DEFAULTS = {
    "queue.buffering.max.messages": 100000,
    "delivery.report.only.error": False,
}
_KAFKACODEC_DEFAULTS: dict[str, dict[str, Any]] = {
    # produce() never waits for a topic's metadata: held until it comes, failed after
    # topic.metadata.propagation.max.ms (30 s) when the brokers say the topic does not exist
    "P": {"partitioner": "consistent_random", "enable.idempotence": False, "metadata.wait.on.send": False,
          "max.block.ms": 30000},
    "C": {"isolation.level": "read_committed"},
    "A": {},
}
_TABLES = {"P": PRODUCER, "C": CONSUMER, "A": ADMIN}
_KINDS = {"P": "producer", "C": "consumer", "A": "admin"}
CLIENTS = {"P": "Producer", "C": "Consumer", "A": "AdminClient"}

# face settings that are other names of the face's own (the face's classes read these)
_ALIASES = {"dr_msg_cb": "on_delivery", "dr_cb": "on_delivery",
            "offset_commit_cb": "on_commit"}

#: librdkafka's debug contexts -> the loggers (kafkacodec.client.<module>) debug turns to DEBUG;
#: contexts of librdkafka's internals kafkacodec has no counterpart of turn on nothing
DEBUG_CONTEXTS: dict[str, tuple[str, ...]] = {
    "generic": ("kafkacodec.client.network", "kafkacodec.compat"),
    "broker": ("kafkacodec.client.network", "kafkacodec.client.connection"),
    "topic": ("kafkacodec.client.metadata",),
    "metadata": ("kafkacodec.client.metadata",),
    "feature": ("kafkacodec.client.connection",),
    "queue": (),
    "msg": ("kafkacodec.client.producer",),
    "protocol": ("kafkacodec.client.connection", "kafkacodec.protocol"),
    "cgrp": ("kafkacodec.client.group",),
    "security": ("kafkacodec.client.connection", "kafkacodec.client.oauth"),
    "fetch": ("kafkacodec.client.fetcher",),
    "interceptor": (),
    "plugin": (),
    "consumer": ("kafkacodec.client.consumer", "kafkacodec.client.fetcher", "kafkacodec.client.group"),
    "admin": ("kafkacodec.client.admin",),
    "eos": ("kafkacodec.client.producer",),
    "mock": (),
    "assignor": ("kafkacodec.client.group",),
    "conf": ("kafkacodec.compat",),
    "telemetry": ("kafkacodec.client.stats",),
    "all": ("kafkacodec",),
}


def _unset(value: Any) -> bool:
    """librdkafka's default of every refused setting: unset, empty or false."""
    return value is None or value is False or (isinstance(value, str) and value.strip().lower() in ("", "false"))


def translate(config: dict[str, Any], kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(kafkacodec settings, face settings) for a librdkafka-style config dict; kind "P", "C" or "A".
    A bad setting raises ConfigException, as confluent-kafka raises KafkaException(_INVALID_ARG)."""
    try:
        return _translate(config, kind)
    except ConfigError as exc:
        raise ConfigException.of(exc) from None


def _translate(config: dict[str, Any], kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    if not isinstance(config, dict):
        raise ConfigError(f"configuration must be a dict, got {type(config).__name__}")
    config = dict(config)
    topic_conf: dict[str, Any] = {}
    for key in ("default.topic.config", "default_topic_conf"):
        given = config.pop(key, None) or {}
        if not isinstance(given, dict):
            raise ConfigError(f"{key}: expected a dict")
        topic_conf.update(given)
    merged = dict(topic_conf, **config)
    table = _TABLES[kind]
    out: dict[str, Any] = {}
    face: dict[str, Any] = {k: v for k, v in FACE_DEFAULTS.items()}
    for name, value in merged.items():
        entry = SETTINGS.get(name)
        if entry is None:
            if name in table:
                out[name] = value
                continue
            other = [k for k, t in _TABLES.items() if k != kind and name in t]
            if other:
                log.warning("%s is a %s setting: ignored by this %s", name, _KINDS[other[0]], _KINDS[kind])
                continue
            raise ConfigError(f"unknown setting {name!r} (librdkafka names the face knows: "
                              f"kafkacodec.compat.confluent_kafka.SETTINGS; kafkacodec names: "
                              f"kafkacodec.client.config)")
        if entry.kind == "unsupported" and kind in entry.scope:
            if _unset(value):
                continue  # its default: what kafkacodec does
            raise ConfigError(f"{name}: {entry.doc}")
        if kind not in entry.scope:
            if entry.elsewhere is None and entry.kind not in ("accepted", "unsupported"):
                log.warning("%s is a %s setting: ignored by this %s", name,
                            _KINDS[sorted(entry.scope)[0]], _KINDS[kind])
            continue
        converted = entry.convert(name, value) if entry.convert is not None else value
        if converted is SKIP:
            continue
        if entry.kind == "kafkacodec":
            out[entry.target or name] = converted
        elif entry.kind == "face":
            face[_ALIASES.get(name, name)] = converted
        # "accepted": checked by its convert, nothing to pass on
    _metadata_age(merged, out)
    _sasl_mechanism(out)
    if "request.timeout.ms" in merged and "socket.timeout.ms" in merged:
        out["request.timeout.ms"] = merged["request.timeout.ms"]  # the more specific of the two
    for name, value in _KAFKACODEC_DEFAULTS[kind].items():
        # librdkafka turns idempotence on for a transactional producer
        if name == "enable.idempotence" and out.get("transactional.id") is not None:
            continue
        out.setdefault(name, value)
    if kind == "P" and "sticky.partitioning.linger.ms" not in out:
        # librdkafka's default follows linger.ms
        out["sticky.partitioning.linger.ms"] = min(900000, 2 * int(out.get("linger.ms", PRODUCER["linger.ms"].default)))
    if kind in ("P", "C") and face.get("error_cb") is not None:
        out["error_cb"] = _transient_errors_to(face["error_cb"])
    _configure_logging(face)
    return out, face


def _transient_errors_to(error_cb: Callable[[Any], object]) -> Callable[[BaseException], object]:
    """The client's error_cb (connection errors it recovers from) calling the application's with a KafkaError."""
    from kafkacodec.compat.confluent_kafka._errors import KafkaError, from_exception

    def report(exc: BaseException) -> object:
        err = from_exception(exc)
        # librdkafka's reports of these are neither fatal nor retriable: the client retries by itself
        return error_cb(KafkaError(err.code(), err.str()))
    return report


def given(args: tuple[dict[str, Any], ...], kwargs: dict[str, Any], client: str) -> dict[str, Any]:
    """The configuration a client is made with, confluent-kafka's way: one dict, and settings as keywords."""
    try:
        return _given(args, kwargs, client)
    except ConfigError as exc:
        raise ConfigException.of(exc) from None


def _given(args: tuple[dict[str, Any], ...], kwargs: dict[str, Any], client: str) -> dict[str, Any]:
    config = dict(args[0]) if args else {}
    if len(args) > 1:
        raise TypeError(f"{client} takes one configuration dict")
    config.update(kwargs)
    return config


def _metadata_age(given: dict[str, Any], out: dict[str, Any]) -> None:
    """librdkafka refreshes every topic.metadata.refresh.interval.ms (-1: never) and drops a cached entry
    at metadata.max.age.ms (by default 3 x the interval, else 900000): the client refreshes at the
    smaller, so its view is never older than either allows."""
    if "metadata.max.age.ms" not in out:
        return  # neither given (or not for this client)
    refresh = given.get("topic.metadata.refresh.interval.ms")
    interval = None if refresh is None else _refresh_interval("topic.metadata.refresh.interval.ms", refresh)
    if interval == _NEVER:
        interval = None
    if "metadata.max.age.ms" in given:
        age = _int("metadata.max.age.ms", given["metadata.max.age.ms"])
    else:
        age = 3 * interval if interval else 900000
    out["metadata.max.age.ms"] = min(age, interval) if interval else age


def _sasl_mechanism(out: dict[str, Any]) -> None:
    """librdkafka's mechanism is GSSAPI (Kerberos) unless given: refused with SASL, unused without."""
    mechanism = out.get("sasl.mechanism")
    protocol = str(out.get("security.protocol", "plaintext")).strip().upper()
    if not protocol.startswith("SASL"):
        if isinstance(mechanism, _Unused):
            del out["sasl.mechanism"]  # not used without SASL, as in librdkafka
        return
    if mechanism is None:
        raise ConfigError(f"security.protocol={protocol} without sasl.mechanism is librdkafka's GSSAPI "
                          f"(Kerberos), which kafkacodec does not support: give sasl.mechanism (PLAIN, "
                          f"SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER) and its credentials")
    if isinstance(mechanism, _Unused):
        raise ConfigError(f"sasl.mechanism={mechanism}: Kerberos (GSSAPI) is not supported by kafkacodec: use "
                          f"SCRAM-SHA-256, SCRAM-SHA-512, PLAIN or OAUTHBEARER")


# -- logging: debug, logger, log_cb, log_level

_SYSLOG = {0: logging.CRITICAL, 1: logging.CRITICAL, 2: logging.CRITICAL, 3: logging.ERROR, 4: logging.WARNING,
           5: logging.INFO, 6: logging.INFO, 7: logging.DEBUG}
_INSTALLED: dict[tuple[str, int], logging.Handler] = {}  # one handler per logger or callback, however many clients


class _ToLogger(logging.Handler):
    """Hands kafkacodec's records to the application's logger (confluent-kafka's `logger`)."""

    def __init__(self, target: logging.Logger) -> None:
        super().__init__()
        self.target = target

    def emit(self, record: logging.LogRecord) -> None:
        if self.target.isEnabledFor(record.levelno):
            self.target.handle(record)


class _ToCallback(logging.Handler):
    """log_cb(syslog level, facility (the logger's name), message)."""

    def __init__(self, fn: Callable[[int, str, str], object]) -> None:
        super().__init__()
        self.fn = fn

    def emit(self, record: logging.LogRecord) -> None:
        level = 7 if record.levelno <= logging.DEBUG else 6 if record.levelno <= logging.INFO else \
            4 if record.levelno <= logging.WARNING else 3 if record.levelno <= logging.ERROR else 2
        try:
            self.fn(level, record.name, record.getMessage())
        except Exception:
            self.handleError(record)


def _configure_logging(face: dict[str, Any]) -> None:
    """The face's logging settings as the process's logging configuration: logging is per process,
    so the levels and handlers they set stay for every client."""
    debug: list[str] = face.pop("debug", None) or []
    target = face.pop("logger", None)
    fn = face.pop("log_cb", None)
    syslog = face.pop("log_level", None)
    level = logging.DEBUG if debug else _SYSLOG[6 if syslog is None else syslog]
    for context in debug:
        for name in DEBUG_CONTEXTS[context]:
            logging.getLogger(name).setLevel(logging.DEBUG)
    top = logging.getLogger("kafkacodec")
    handlers: list[logging.Handler] = []
    if target is not None:
        if not isinstance(target, logging.Logger):
            raise ConfigError(f"logger: expected a logging.Logger, got {type(target).__name__}")
        handlers.append(_INSTALLED.get(("logger", id(target))) or _ToLogger(target))
        _INSTALLED[("logger", id(target))] = handlers[-1]
        # the records reach the application's logger; passed on above it too, they would be handled twice
        top.propagate = False
    if fn is not None:
        handlers.append(_INSTALLED.get(("log_cb", id(fn))) or _ToCallback(fn))
        _INSTALLED[("log_cb", id(fn))] = handlers[-1]
    if debug and not handlers and not top.hasHandlers():
        # nothing would show the records (logging's last resort prints warnings only): stderr, as librdkafka
        handlers.append(_INSTALLED.get(("stderr", 0)) or logging.StreamHandler(sys.stderr))
        handlers[-1].setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        _INSTALLED[("stderr", 0)] = handlers[-1]
    for handler in handlers:
        handler.setLevel(level)
        if handler not in top.handlers:
            top.addHandler(handler)


# -- the table as documentation

STATUSES = ("honoured", "no effect", "refused")
_STATUS = {"kafkacodec": "honoured", "face": "honoured", "accepted": "no effect", "unsupported": "refused"}


def status(name: str, client: str) -> tuple[str, str]:
    """(honoured | no effect | refused, what it maps to or why) of setting `name` in client "P", "C" or "A"."""
    entry = SETTINGS[name]
    if client not in entry.scope:
        return "no effect", entry.elsewhere or (f"a {', '.join(CLIENTS[c] for c in sorted(entry.scope))} setting: "
                                                f"ignored by the {CLIENTS[client]}, as librdkafka ignores it")
    state = entry.status or _STATUS[entry.kind]
    text = entry.doc
    if entry.kind == "kafkacodec":
        text = f"`{entry.target or name}`: {text}"
    elif entry.kind == "face":
        text = f"the face: {text}"
    if entry.refuses:
        text += f" Refused: {entry.refuses}."
    return state, text


def markdown() -> str:
    """The table as Markdown: setting, clients, status, what it maps to or why (SETTINGS.md)."""
    def cell(value: str) -> str:  # a | ends the cell
        return value.replace("|", "\\|")

    lines = ["# librdkafka's settings in kafkacodec's confluent-kafka face", "",
             "Generated by `python -m kafkacodec.compat.confluent_kafka --settings-markdown` from the face's table "
             "(`_config.py`); do not edit.  Each setting of librdkafka's CONFIGURATION.md, for each client it "
             "applies to: *honoured* (the client does what it says: `name` is the kafkacodec setting it "
             "becomes), *no effect* (it tunes only librdkafka's internals, or is a C API hook Python programs "
             "cannot set; accepted at any value in its range) or *refused* (ignoring it would change what is "
             "delivered or how the connection is secured: a ConfigError names what to use; its default, unset, "
             "empty or false, is accepted).", "",
             "| Setting | Client | Status | Maps to, or why |", "| --- | --- | --- | --- |"]
    counts = dict.fromkeys(STATUSES, 0)
    for name, entry in SETTINGS.items():
        rows: dict[tuple[str, str], list[str]] = {}
        for client in "PCA":
            if client in entry.scope or entry.elsewhere is not None:  # else not one of its clients
                rows.setdefault(status(name, client), []).append(CLIENTS[client])
        for (state, text), clients in rows.items():
            counts[state] += len(clients)
            lines.append(f"| `{name}` | {', '.join(clients)} | {state} | {cell(text)} |")
    lines += ["", "Of the table's (setting, client) pairs (deprecated settings and confluent-kafka's own names "
              "included): " + ", ".join(f"{n} {s}" for s, n in counts.items()) + ".", ""]
    return "\n".join(lines)


def describe() -> str:
    """The table as text: one line per setting."""
    lines = []
    for name, s in sorted(SETTINGS.items()):
        where = "".join(sorted(s.scope))
        becomes = {"kafkacodec": f"-> {s.target or name}", "face": "(face)", "accepted": "(no effect)",
                   "unsupported": "ConfigError"}[s.kind]
        lines.append(f"{name:40} {where:3} {becomes:42} {s.doc}")
    return "\n".join(lines)
