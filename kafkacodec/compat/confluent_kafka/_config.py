"""librdkafka's setting names -> kafkacodec's, in one table.

``SETTINGS`` has one entry per librdkafka name the face knows: what it becomes
(a kafkacodec setting, a setting of the face itself, accepted without effect,
or refused with a ConfigError naming what to use), for which clients, and why.
A name not in the table is passed to kafkacodec as is when kafkacodec has it
(its Kafka Java names: ``ssl.cafile``, ``max.poll.records``, ...), else refused.
``python -m kafkacodec.compat.confluent_kafka`` prints the table.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, NamedTuple

from kafkacodec.client.config import ADMIN, CONSUMER, PRODUCER
from kafkacodec.client.errors import ConfigError

__all__ = ["SETTINGS", "Setting", "translate", "FACE_DEFAULTS"]

log = logging.getLogger("kafkacodec.compat")

# kind: "kafkacodec" (becomes `target`), "face" (read by the face), "accepted" (no effect; the doc
# says why that is the same behaviour), "unsupported" (ConfigError naming what to use).
# scope: the clients it belongs to; librdkafka warns and ignores a setting of another client, so does the face.
# convert(name, value) -> the value kafkacodec or the face takes, or ConfigError
Convert = Callable[[str, Any], Any]


class Setting(NamedTuple):
    kind: str
    target: str | None
    scope: frozenset[str]
    doc: str
    convert: Convert | None

ALL = frozenset("PCA")
P, C = frozenset("P"), frozenset("C")
PC = frozenset("PC")


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


def _delivery_timeout(name: str, value: Any) -> int:
    value = _int(name, value)
    return 2147483647 if value == 0 else value  # librdkafka's 0: no limit


def _group_protocol(name: str, value: Any) -> Any:
    if str(value).strip().lower() != "classic":
        raise ConfigError(f"{name}={value!r} is not supported: kafkacodec's consumer joins groups with the "
                          f"classic protocol (group.protocol=classic)")
    return value


# librdkafka's partitioner names -> the client's with the same meaning (the client's murmur2 is Java's,
# whose keyless records are sticky; librdkafka's hashes them all to one partition)
_PARTITIONERS = {"murmur2": "murmur2_consistent", "murmur2_random": "murmur2_random", "consistent": "consistent",
                 "consistent_random": "consistent_random", "random": "random", "fnv1a": "fnv1a",
                 "fnv1a_random": "fnv1a_random"}


def _partitioner(name: str, value: Any) -> Any:
    if callable(value):
        return value
    text = str(value).strip().lower()
    if text not in _PARTITIONERS:
        raise ConfigError(f"{name}: expected one of {', '.join(_PARTITIONERS)}, got {value!r}")
    return _PARTITIONERS[text]


def _unsupported(advice: str) -> Setting:
    return Setting("unsupported", None, ALL, advice, None)


def _same(scope: frozenset[str], doc: str, convert: Convert | None = None, target: str | None = None) -> Setting:
    return Setting("kafkacodec", target, scope, doc, convert)


SSL_ADVICE = "build an ssl.SSLContext and pass it as ssl.context"


def _grant_type(name: str, value: Any) -> Any:
    if str(value).strip() != "client_credentials":
        raise ConfigError(f"{name}={value!r} is not supported: kafkacodec's OIDC login uses the client credentials "
                          f"grant; for a JWT assertion, get the token in oauth_cb")
    return value


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
                           "and 80 % through each token's lifetime."),
    "sasl.oauthbearer.config": _same(ALL, "Given to oauth_cb; for the unsecured JWT: principal=, scope=, "
                                          "lifeSeconds=, principalClaimName=, scopeClaimName=, extension_NAME=."),
    "enable.sasl.oauthbearer.unsecure.jwt": _same(ALL, "The built-in unsecured JWT (development only).", _bool),
    "sasl.oauthbearer.method": _same(ALL, "default (oauth_cb or the unsecured JWT) or oidc (the token endpoint)."),
    "sasl.oauthbearer.client.id": _same(ALL, "OIDC client id."),
    "sasl.oauthbearer.client.credentials.client.id": _same(ALL, "Alias of sasl.oauthbearer.client.id.",
                                                           target="sasl.oauthbearer.client.id"),
    "sasl.oauthbearer.client.secret": _same(ALL, "OIDC client secret."),
    "sasl.oauthbearer.client.credentials.client.secret": _same(ALL, "Alias of sasl.oauthbearer.client.secret.",
                                                               target="sasl.oauthbearer.client.secret"),
    "sasl.oauthbearer.scope": _same(ALL, "Scope asked of the token endpoint."),
    "sasl.oauthbearer.extensions": _same(ALL, "SASL extensions sent with OIDC tokens, name=value,..."),
    "sasl.oauthbearer.token.endpoint.url": _same(ALL, "OIDC token endpoint (client credentials grant)."),
    "sasl.oauthbearer.sub.claim.name": _same(ALL, "Claim of the access token that names the principal."),
    "sasl.oauthbearer.grant.type": Setting("accepted", None, ALL, "client_credentials (the default) only; the "
                                           "jwt-bearer grant is refused: get such tokens in oauth_cb.", _grant_type),
    "sasl.oauthbearer.metadata.authentication.type": Setting(
        "accepted", None, ALL, "none (the default) only; azure_imds and aws_iam are refused: get the token in "
                               "oauth_cb.", _metadata_authentication),
    **{f"sasl.oauthbearer.assertion.{name}": Setting("accepted", None, ALL, _ASSERTION, None) for name in (
        "algorithm", "private.key.file", "private.key.passphrase", "private.key.pem", "file", "claim.aud",
        "claim.exp.seconds", "claim.iss", "claim.jti.include", "claim.nbf.seconds", "claim.sub",
        "jwt.template.file")},
    "https.ca.location": _same(ALL, "CA certificates the token endpoint is verified with; 'probe': the system's.",
                               _cafile),
    "https.ca.pem": _same(ALL, "CA certificates (PEM string) the token endpoint is verified with."),
}

SETTINGS = {
    # -- connection and security
    "bootstrap.servers": _same(ALL, "Brokers to bootstrap from, host:port,..."),
    "metadata.broker.list": _same(ALL, "librdkafka's older name of bootstrap.servers.", target="bootstrap.servers"),
    "client.id": _same(ALL, "Client id sent with every request."),
    "security.protocol": _same(ALL, "plaintext, ssl, sasl_plaintext or sasl_ssl (any case)."),
    "sasl.mechanisms": _same(ALL, "PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER (GSSAPI is refused by "
                                  "kafkacodec).", target="sasl.mechanism"),
    "sasl.mechanism": _same(ALL, "Alias of sasl.mechanisms."),
    "sasl.username": _same(ALL, "SASL PLAIN/SCRAM user."),
    "sasl.password": _same(ALL, "SASL PLAIN/SCRAM password."),
    "ssl.ca.location": _same(ALL, "CA bundle file (PEM); 'probe' means the system store.", _cafile,
                             "ssl.cafile"),
    "ssl.certificate.location": _same(ALL, "Client certificate (PEM).", target="ssl.certfile"),
    "ssl.key.location": _same(ALL, "Client private key (PEM).", target="ssl.keyfile"),
    "ssl.key.password": _same(ALL, "Password of the client private key.", target="ssl.password"),
    "ssl.endpoint.identification.algorithm": _same(
        ALL, "https checks the broker's host name against its certificate, none does not.", _hostname_check,
        "ssl.check.hostname"),
    "enable.ssl.certificate.verification": Setting(
        "accepted", None, ALL, "true is kafkacodec's behaviour (the chain is always verified); false is refused: "
        + SSL_ADVICE + " with verification off.", _must_be(True, SSL_ADVICE + " with verification off")),
    "ssl.ca.pem": _unsupported(SSL_ADVICE + " (cadata=...), or write the PEM to a file for ssl.ca.location"),
    "ssl.certificate.pem": _unsupported(SSL_ADVICE + ", or write the PEM to ssl.certificate.location"),
    "ssl.key.pem": _unsupported(SSL_ADVICE + ", or write the PEM to ssl.key.location"),
    "ssl.keystore.location": _unsupported("convert the PKCS#12 keystore to PEM files for "
                                          "ssl.certificate.location and ssl.key.location, or " + SSL_ADVICE),
    "ssl.keystore.password": _unsupported("see ssl.keystore.location"),
    "ssl.ca.certificate.stores": _unsupported(SSL_ADVICE),
    "ssl.crl.location": _unsupported(SSL_ADVICE + " (load_verify_locations, verify_flags)"),
    "ssl.cipher.suites": _unsupported(SSL_ADVICE + " (set_ciphers)"),
    "ssl.curves.list": _unsupported(SSL_ADVICE),
    "ssl.sigalgs.list": _unsupported(SSL_ADVICE),
    "sasl.kerberos.service.name": _unsupported("GSSAPI is not supported: use SCRAM-SHA-256/512 or PLAIN"),
    "sasl.kerberos.principal": _unsupported("GSSAPI is not supported: use SCRAM-SHA-256/512 or PLAIN"),
    "sasl.kerberos.keytab": _unsupported("GSSAPI is not supported: use SCRAM-SHA-256/512 or PLAIN"),
    "sasl.kerberos.kinit.cmd": _unsupported("GSSAPI is not supported: use SCRAM-SHA-256/512 or PLAIN"),
    **_OAUTHBEARER,
    "socket.timeout.ms": _same(ALL, "Timeout of a network request.", target="request.timeout.ms"),
    "request.timeout.ms": _same(ALL, "Timeout of a network request (librdkafka: the produce request's)."),
    "socket.connection.setup.timeout.ms": _same(ALL, "Timeout to connect (TCP, TLS, SASL)."),
    "connections.max.idle.ms": _same(ALL, "Close idle connections after this long (0: never).", _idle_ms),
    "reconnect.backoff.ms": _same(ALL, "First pause before reconnecting."),
    "reconnect.backoff.max.ms": _same(ALL, "Longest pause before reconnecting."),
    "retry.backoff.ms": _same(ALL, "First pause before retrying a request."),
    "retry.backoff.max.ms": _same(ALL, "Longest pause before retrying a request."),
    "receive.message.max.bytes": _same(ALL, "Largest response accepted from a broker."),
    "metadata.max.age.ms": _same(ALL, "Refresh metadata at least this often."),
    "topic.metadata.refresh.interval.ms": _same(ALL, "Refresh metadata at least this often.",
                                                target="metadata.max.age.ms"),
    "allow.auto.create.topics": _same(ALL, "Ask the broker to create a topic the client asks metadata for."),
    "socket.nagle.disable": Setting("accepted", None, ALL, "kafkacodec always sets TCP_NODELAY.",
                                    _must_be(True, "kafkacodec always sets TCP_NODELAY")),
    "api.version.request": Setting("accepted", None, ALL, "kafkacodec always asks brokers for their versions.",
                                   _must_be(True, "kafkacodec always asks brokers for their API versions")),
    "broker.version.fallback": Setting("accepted", None, ALL, "Only used by librdkafka when api.version.request "
                                       "is false, which kafkacodec does not do.", None),
    "api.version.fallback.ms": Setting("accepted", None, ALL, "As broker.version.fallback.", None),
    "log_level": Setting("accepted", None, ALL, "kafkacodec logs through the logging module: set the level of "
                         "the logger 'kafkacodec.client' instead (the syslog level here changes nothing else).",
                         None),
    "log.connection.close": Setting("accepted", None, ALL, "Logging only; see log_level.", None),
    "debug": _unsupported("use logging.getLogger('kafkacodec.client').setLevel(logging.DEBUG)"),
    "statistics.interval.ms": _same(PC, "Every this many ms, stats_cb gets the statistics JSON (STATISTICS.md "
                                        "layout, the fields kafkacodec can fill) from poll()/flush(); 0: never."),
    "stats_cb": _same(PC, "stats_cb(json_str) for each statistics document, from poll()/flush(); the "
                          "AdminClient has none."),
    "throttle_cb": _unsupported("throttle events are not reported: kafkacodec honours broker throttling itself"),
    "client.rack": _unsupported("fetching from the closest replica is not supported: leave client.rack unset"),
    "error_cb": Setting("face", None, ALL, "error_cb(KafkaError) for errors outside any call (the client failing "
                        "for good), served from poll().", None),
    "logger": Setting("accepted", None, ALL, "kafkacodec logs to the logging module's 'kafkacodec.client' "
                      "logger; attach handlers there.", None),
    # -- consumer
    "group.id": _same(C, "Consumer group id."),
    "group.instance.id": _same(C, "Static membership id."),
    "group.protocol": Setting("accepted", None, C, "classic only.", _group_protocol),
    "session.timeout.ms": _same(C, "Group session timeout."),
    "heartbeat.interval.ms": _same(C, "Group heartbeat interval."),
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
    "check.crcs": _same(C, "Verify the CRC of fetched batches."),
    "enable.auto.commit": Setting("face", None, C, "Commit the stored offsets every auto.commit.interval.ms, "
                                  "on revoke and on close (the face commits them: see enable.auto.offset.store).",
                                  _bool),
    "auto.commit.interval.ms": Setting("face", None, C, "Period of the automatic commit.", _int),
    "enable.auto.offset.store": Setting("face", None, C, "Store each message's offset + 1 as poll() returns "
                                        "it; false: only store_offsets() stores.", _bool),
    "enable.partition.eof": Setting("face", None, C, "poll()/consume() return a _PARTITION_EOF event each time "
                                    "a partition's end is reached.", _bool),
    "on_commit": Setting("face", None, C, "on_commit(err, [TopicPartition]) after each commit, from poll().",
                         None),
    "queued.min.messages": _unsupported("kafkacodec prefetches one fetch per partition: bound it with "
                                        "max.partition.fetch.bytes / fetch.max.bytes"),
    "queued.max.messages.kbytes": _unsupported("bound prefetched data with max.partition.fetch.bytes and "
                                               "fetch.max.bytes"),
    # -- producer
    "acks": _same(P, "all/-1, 0 or 1."),
    "request.required.acks": _same(P, "librdkafka's older name of acks.", target="acks"),
    "linger.ms": _same(P, "How long a batch waits for more records."),
    "queue.buffering.max.ms": _same(P, "librdkafka's older name of linger.ms.", target="linger.ms"),
    "batch.size": _same(P, "Most bytes in one batch."),
    "batch.num.messages": _unsupported("kafkacodec bounds batches by bytes: use batch.size"),
    "compression.type": _same(P, "none, gzip, snappy, lz4, zstd."),
    "compression.codec": _same(P, "Alias of compression.type.", target="compression.type"),
    "compression.level": _same(P, "Codec level (-1: the codec's default).", _zero_is_none),
    "enable.idempotence": _same(P, "Idempotent producer; false by default, as in librdkafka.", _bool),
    "max.in.flight.requests.per.connection": _same(P, "Unanswered produce requests per broker."),
    "max.in.flight": _same(P, "Alias of max.in.flight.requests.per.connection.",
                           target="max.in.flight.requests.per.connection"),
    "retries": _same(P, "How often a failed batch is sent again."),
    "message.send.max.retries": _same(P, "Alias of retries.", target="retries"),
    "message.timeout.ms": _same(P, "Time limit of a record's delivery (0: none).", _delivery_timeout,
                                "delivery.timeout.ms"),
    "delivery.timeout.ms": _same(P, "Alias of message.timeout.ms.", _delivery_timeout),
    "message.max.bytes": Setting("kafkacodec", "max.request.size", P, "Largest produce request (consumer, "
                                 "admin: accepted without effect, their requests are small).", None),
    "queue.buffering.max.kbytes": _same(P, "Memory for queued records, in KiB (kafkacodec: buffer.memory, "
                                           "bytes).", _kbytes, "buffer.memory"),
    "queue.buffering.max.messages": Setting("face", None, P, "Most records queued and not yet reported: produce() "
                                            "raises BufferError beyond it (default 100000).", _int),
    "partitioner": _same(P, "consistent_random (the default, as in librdkafka), consistent, murmur2, "
                            "murmur2_random, fnv1a, fnv1a_random, random: librdkafka's meanings, keyless records "
                            "included.", _partitioner),
    "transactional.id": _same(P, "Transactional producer id."),
    "transaction.timeout.ms": _same(P, "Transaction timeout on the coordinator."),
    "delivery.report.only.error": Setting("face", None, P, "Only failed deliveries are reported.", _bool),
    "on_delivery": Setting("face", None, P, "on_delivery(err, msg) for records produced without a callback.",
                           None),
    "enable.gapless.guarantee": _unsupported("not supported: enable.idempotence with acks=all keeps order "
                                             "and no duplicates"),
    "sticky.partitioning.linger.ms": _same(P, "How long keyless records stick to one partition (librdkafka's "
                                              "default: 2 x linger.ms; 0: a random partition per record).", _int),
}

# the face's own settings and the librdkafka defaults it keeps where kafkacodec's differ
FACE_DEFAULTS = {
    "enable.auto.commit": True,
    "auto.commit.interval.ms": 5000,
    "enable.auto.offset.store": True,
    "enable.partition.eof": False,
    "queue.buffering.max.messages": 100000,
    "delivery.report.only.error": False,
}
_KAFKACODEC_DEFAULTS: dict[str, dict[str, Any]] = {
    "P": {"partitioner": "consistent_random", "enable.idempotence": False},
    "C": {"isolation.level": "read_committed"},
    "A": {},
}
_TABLES = {"P": PRODUCER, "C": CONSUMER, "A": ADMIN}
_KINDS = {"P": "producer", "C": "consumer", "A": "admin"}


def translate(config: dict[str, Any], kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(kafkacodec settings, face settings) for a librdkafka-style config dict; kind "P", "C" or "A"."""
    if not isinstance(config, dict):
        raise ConfigError(f"configuration must be a dict, got {type(config).__name__}")
    config = dict(config)
    topic_conf = config.pop("default.topic.config", None) or {}
    if not isinstance(topic_conf, dict):
        raise ConfigError("default.topic.config: expected a dict")
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
        if entry.kind == "unsupported":
            raise ConfigError(f"{name}: {entry.doc}")
        if kind not in entry.scope:
            if name == "message.max.bytes" or entry.kind == "accepted":
                continue
            log.warning("%s is a %s setting: ignored by this %s", name,
                        _KINDS[sorted(entry.scope)[0]], _KINDS[kind])
            continue
        converted = entry.convert(name, value) if entry.convert is not None else value
        if entry.kind == "kafkacodec":
            out[entry.target or name] = converted
        elif entry.kind == "face":
            face[name] = converted
        # "accepted": checked by its convert, nothing to pass on
    for name, value in _KAFKACODEC_DEFAULTS[kind].items():
        # librdkafka turns idempotence on for a transactional producer
        if name == "enable.idempotence" and out.get("transactional.id") is not None:
            continue
        out.setdefault(name, value)
    if kind == "P" and "sticky.partitioning.linger.ms" not in out:
        # librdkafka's default follows linger.ms
        out["sticky.partitioning.linger.ms"] = min(900000, 2 * int(out.get("linger.ms", PRODUCER["linger.ms"].default)))
    return out, face


def describe() -> str:
    """The table as text: one line per setting."""
    lines = []
    for name, s in sorted(SETTINGS.items()):
        where = "".join(sorted(s.scope))
        becomes = {"kafkacodec": f"-> {s.target or name}", "face": "(face)", "accepted": "(no effect)",
                   "unsupported": "ConfigError"}[s.kind]
        lines.append(f"{name:40} {where:3} {becomes:42} {s.doc}")
    return "\n".join(lines)

