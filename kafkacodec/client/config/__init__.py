"""Client settings by Kafka's own names.

``resolve(config, keywords, ALLOWED)`` merges a dict of Kafka names
(``"fetch.max.bytes"``) with keyword arguments in snake_case
(``fetch_max_bytes=...``), fills defaults and checks every value; an unknown
name or a bad value raises ConfigError naming the setting.

COMMON, CONSUMER, PRODUCER, ADMIN and SHARE_CONSUMER map each name to a Setting: its default,
its check (which keeps what it accepts as data: bounds, options) and a line
saying what it means.  ``describe(kind)`` lists them and
``python -m kafkacodec.client.config [--kind producer|consumer|admin|share_consumer|all]
[--markdown]`` prints them; the documentation's settings page is that
printout, made when the site is built (docs/_hooks.py).
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from kafkacodec.client.assignors import ASSIGNORS
from kafkacodec.client.errors import ConfigError
from kafkacodec.client.partitioner import PARTITIONERS
from kafkacodec.records.isolation import IsolationLevel

if TYPE_CHECKING:
    import ssl

__all__ = ["resolve", "check_callable", "name_or_callable", "COMMON", "CONSUMER", "ADMIN", "PRODUCER", "SHARE_CONSUMER", "KINDS", "Setting", "IsolationLevel",
           "describe", "markdown", "text"]


# -- checks: check(name, value) -> the value to use; what each accepts is data for describe()

class Check:
    """A setting's check.  Subclasses keep what they accept as attributes (lo/hi,
    options), which ``accepts()`` turns into the text describe() prints, so that the
    range of a setting is written once."""

    lo: int | None = None
    hi: int | None = None
    options: Sequence[str] = ()
    optional = False     # None is accepted: the setting's unset behaviour

    def __call__(self, name: str, value: Any) -> Any:
        raise NotImplementedError

    def accepts(self) -> str:
        return ", ".join(self.options) + (" or unset" if self.optional else "")


class _Int(Check):
    def __init__(self, lo: int | None = None, hi: int | None = None, optional: bool = False) -> None:
        self.lo, self.hi, self.optional = lo, hi, optional

    def __call__(self, name: str, value: Any) -> int | None:
        if value is None and self.optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
                value = int(value)
            else:
                raise ConfigError(f"{name}: expected an integer, got {value!r}")
        if self.lo is not None and value < self.lo:
            raise ConfigError(f"{name}: must be at least {self.lo}, got {value}")
        if self.hi is not None and value > self.hi:
            raise ConfigError(f"{name}: must be at most {self.hi}, got {value}")
        return value  # type: ignore[no-any-return]  # an int now

    def accepts(self) -> str:
        if self.lo is not None and self.hi is not None:
            text = f"int {self.lo} to {self.hi}"
        elif self.lo is not None:
            text = f"int >= {self.lo}"
        elif self.hi is not None:
            text = f"int <= {self.hi}"
        else:
            text = "int"
        return text + (" or unset" if self.optional else "")


class _Bool(Check):
    options = ("true", "false")

    def __init__(self, optional: bool = False) -> None:
        self.optional = optional

    def __call__(self, name: str, value: Any) -> bool | None:
        if value is None and self.optional:
            return None
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in self.options:
            return value.strip().lower() == "true"
        raise ConfigError(f"{name}: expected true or false, got {value!r}")


class _Choice(Check):
    """One of `options`, any case; the option as spelled here is kept."""

    def __init__(self, *options: str) -> None:
        self.options = options

    def __call__(self, name: str, value: Any) -> str:
        text = str(value).strip()
        for option in self.options:
            if text.lower() == option.lower():
                return option
        raise ConfigError(f"{name}: expected one of {', '.join(self.options)}, got {value!r}")


class _Str(Check):
    def __init__(self, optional: bool = True) -> None:
        self.optional = optional

    def __call__(self, name: str, value: Any) -> str | None:
        if value is None and self.optional:
            return None
        if not isinstance(value, str):
            raise ConfigError(f"{name}: expected a string, got {value!r}")
        return value

    def accepts(self) -> str:
        return "string" + (" or unset" if self.optional else "")


class _Func(Check):
    """A check of its own: `fn(name, value)`, accepting `options` (text of its own when
    options do not say it all: `what`)."""

    def __init__(self, fn: Callable[[str, Any], Any], what: str = "", options: Iterable[str] = (),
                 optional: bool = False) -> None:
        self.fn, self.what, self.options, self.optional = fn, what, tuple(options), optional

    def __call__(self, name: str, value: Any) -> Any:
        return self.fn(name, value)

    def accepts(self) -> str:
        listed = ", ".join(self.options)
        text = f"{listed} or {self.what}" if listed and self.what else listed or self.what
        return text + (" or unset" if self.optional else "")


# factories named as before, for the tables below and callers that build checks
_int = _Int
_choice = _Choice
_str = _Str
_bool = _Bool()
_optional_bool = _Bool(optional=True)


def _servers(name: str, value: object) -> list[tuple[str, int]]:
    items: Sequence[str]
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        items = value
    else:
        raise ConfigError(f"{name}: expected 'host:port,...' or a list of 'host:port' strings, got {value!r}")
    out = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        host, sep, port = item.rpartition(":")
        if not sep or not port.isdigit() or not 0 < int(port) < 65536:
            raise ConfigError(f"{name}: expected host:port entries, got {item!r}")
        out.append((host.strip("[]") or "127.0.0.1", int(port)))
    if not out:
        raise ConfigError(f"{name}: at least one host:port is required")
    return out


def _patterns(name: str, value: object) -> re.Pattern[str] | None:
    """Regular expressions, comma separated or a list, as one pattern (None: none given)."""
    if value is None:
        return None
    if isinstance(value, str):
        items = [item.strip() for item in value.split(",")]
    elif isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        items = [item.strip() for item in value]
    else:
        raise ConfigError(f"{name}: expected regular expressions, comma separated or a list, got {value!r}")
    items = [item for item in items if item]
    for item in items:
        try:
            re.compile(item)
        except re.error as exc:
            raise ConfigError(f"{name}: {item!r} is not a regular expression: {exc}") from None
    return re.compile("|".join(f"(?:{item})" for item in items)) if items else None


def _ssl_context(name: str, value: object) -> ssl.SSLContext | None:
    if value is None:
        return value
    import ssl  # here, not at import: a client without TLS never needs it (~4 ms)
    if isinstance(value, ssl.SSLContext):
        return value
    raise ConfigError(f"{name}: expected an ssl.SSLContext, got {type(value).__name__}")


def _strategies(name: str, value: Any) -> list[Any]:
    try:
        items = value.split(",") if isinstance(value, str) else list(value)
    except TypeError:
        raise ConfigError(f"{name}: expected assignor names or assignors, got {value!r}") from None
    out: list[Any] = []  # assignor names (str) and assignor objects
    for item in items:
        if isinstance(item, str):
            item = item.strip().lower()
            if item not in ASSIGNORS:
                raise ConfigError(f"{name}: unknown assignor {item!r} ({', '.join(ASSIGNORS)})")
        elif not (hasattr(item, "name") and hasattr(item, "assign")):
            raise ConfigError(f"{name}: an assignor needs .name and .assign(), got {item!r}")
        out.append(item)
    if not out:
        raise ConfigError(f"{name}: at least one assignor is required")
    return out


def check_callable(name: str, value: object) -> Any:
    """The check of a setting that takes a callable or None (shared with the faces' settings)."""
    if value is not None and not callable(value):
        raise ConfigError(f"{name}: expected a callable, got {value!r}")
    return value


_callable = _Func(check_callable, "a callable", optional=True)


def _record_class(name: str, value: object) -> Any:
    from kafkacodec.records import Record
    from kafkacodec.records._common import checked_record_class
    try:
        checked_record_class(value, Record)  # the decoders' own check
    except TypeError:
        raise ConfigError(f"{name}: expected kafkacodec.records.Record or a subclass of it, got {value!r}") from None
    return value

_ACKS = {"all": -1, "-1": -1, "0": 0, "1": 1}


def _acks(name: str, value: object) -> int:
    text = str(value).strip().lower()
    if text in _ACKS:
        return _ACKS[text]
    raise ConfigError(f"{name}: expected {', '.join(_ACKS)}, got {value!r}")


def name_or_callable(names: Mapping[str, str]) -> Callable[[str, object], Any]:
    """The check of a setting that takes a callable or one of `names` (any case): the callable as
    it is, a name as `names` maps it."""
    def check(name: str, value: object) -> Any:
        if callable(value):
            return value
        text = str(value).strip().lower()
        if text not in names:
            raise ConfigError(f"{name}: expected one of {', '.join(names)} or a callable, got {value!r}")
        return names[text]
    return check


_partitioner = name_or_callable({name: name for name in PARTITIONERS})


class Setting(NamedTuple):
    default: object
    check: Check
    meaning: str        # one line: Kafka's meaning, and where kafkacodec's default differs, why
    shown: str | None = None   # the default as describe() prints it, when str() of it would not say it


def _time_limit(what: str) -> Setting:
    return Setting(60000, _int(1), f"Time limit of {what} made without a timeout argument.")


# OAUTHBEARER (KIP-255, KIP-768), by librdkafka's names; the tokens: kafkacodec.client.oauth
_OAUTHBEARER: dict[str, Setting] = {
    "oauth_cb": Setting(
        None, _callable, "OAUTHBEARER token source: oauth_cb(sasl.oauthbearer.config) -> (token, expiry in s since "
                         "the epoch[, principal[, {extension: value}]]), called on a thread of its own at start and "
                         "80 % through each token's lifetime (confluent-kafka's); wins over the other sources."),
    "sasl.oauthbearer.method": Setting(
        "default", _choice("default", "oidc"),
        "oidc: tokens from sasl.oauthbearer.token.endpoint.url (client credentials grant); default: from oauth_cb "
        "or the unsecured JWT."),
    "sasl.oauthbearer.config": Setting(
        None, _str(), "Given to oauth_cb; for the unsecured JWT, space-separated principal=NAME [scope=a,b] "
                      "[lifeSeconds=3600] [principalClaimName=sub] [scopeClaimName=scope] [extension_NAME=value] "
                      "(librdkafka's)."),
    "enable.sasl.oauthbearer.unsecure.jwt": Setting(
        False, _bool, "OAUTHBEARER with an unsigned JWT made from sasl.oauthbearer.config: development only."),
    "sasl.oauthbearer.token.endpoint.url": Setting(
        None, _str(), "OIDC token endpoint (https://...), POSTed grant_type=client_credentials with HTTP Basic "
                      "client credentials."),
    "sasl.oauthbearer.client.id": Setting(None, _str(), "OIDC client id (sasl.oauthbearer.method=oidc)."),
    "sasl.oauthbearer.client.secret": Setting(None, _str(), "OIDC client secret (sasl.oauthbearer.method=oidc)."),
    "sasl.oauthbearer.scope": Setting(None, _str(), "Scope asked of the OIDC token endpoint; unset: none."),
    "sasl.oauthbearer.extensions": Setting(
        None, _str(), "SASL extensions sent with OIDC tokens, name=value,... (RFC 7628 §3.1)."),
    "sasl.oauthbearer.sub.claim.name": Setting(
        "sub", _str(False), "Claim of an OIDC access token (a JWT) that names the principal."),
    "https.ca.location": Setting(
        None, _str(), "CA certificates (PEM file or directory) the OIDC token endpoint is verified with; unset or "
                      "probe: the system's."),
    "https.ca.pem": Setting(None, _str(), "CA certificates as a PEM string, instead of https.ca.location."),
}

_AUTO_CREATE = ("Lets brokers create a topic a metadata request names that does not exist (if the "
                "broker allows it).")

COMMON: dict[str, Setting] = {
    "bootstrap.servers": Setting(
        None, _Func(_servers, "host:port,... (a str or a list)"),
        "Brokers for the first connection; the rest of the cluster is learned from them.", "(required)"),
    "client.id": Setting(
        "kafkacodec", _str(False),
        "Name sent with every request, for brokers' logs and quotas (Java's: producer-N / consumer-GROUP-N)."),
    "request.timeout.ms": Setting(
        30000, _int(1), "How long to wait for a broker's answer before the request fails (or is retried)."),
    "metadata.max.age.ms": Setting(
        300000, _int(0), "Cluster metadata is refreshed at least this often, errors or not."),
    "metadata.retry.backoff.ms": Setting(
        None, _int(0, optional=True), "First wait before metadata is asked again while a partition has no "
                                      "leader or a refresh failed; doubles up to retry.backoff.max.ms. "
                                      "Unset: retry.backoff.ms.", "(retry.backoff.ms)"),
    "metadata.topics.exclude": Setting(
        None, _Func(_patterns, "regular expressions, comma separated or a list", optional=True),
        "Topics whose names match (anywhere: anchor with ^...$) are left out of the metadata, as if the "
        "cluster had none of them: never produced to, subscribed or listed (librdkafka's topic.blacklist)."),
    "retry.backoff.ms": Setting(
        100, _int(0), "Wait before retrying a failed request; doubles per attempt up to retry.backoff.max.ms."),
    "retry.backoff.max.ms": Setting(1000, _int(0), "The longest wait between retries (KIP-580)."),
    "reconnect.backoff.ms": Setting(
        50, _int(0), "Wait before reconnecting to a broker; doubles, jittered, per failure up to "
                     "reconnect.backoff.max.ms."),
    "reconnect.backoff.max.ms": Setting(1000, _int(0), "The longest wait before reconnecting to a broker."),
    "socket.connection.setup.timeout.ms": Setting(
        10000, _int(1), "How long a connection may take to be ready (TCP, TLS, ApiVersions, SASL); Kafka "
                        "doubles it per failure, kafkacodec keeps it."),
    "connections.max.idle.ms": Setting(
        540000, _int(-1), "Connections idle this long are closed (and made again when needed); -1: never."),
    "send.buffer.bytes": Setting(
        -1, _int(-1), "SO_SNDBUF of broker sockets; -1: the OS default (Java's default is 131072)."),
    "receive.buffer.bytes": Setting(
        -1, _int(-1), "SO_RCVBUF of broker sockets; -1: the OS default (Java's default is 65536, 32768 for "
                      "producers)."),
    "socket.keepalive.enable": Setting(
        False, _bool, "TCP keep-alives (SO_KEEPALIVE) on broker sockets (librdkafka's setting)."),
    "socket.nagle.disable": Setting(
        True, _bool, "TCP_NODELAY on broker sockets: a request leaves at once, not with the next one "
                     "(librdkafka's setting; Java's client always sets it)."),
    "broker.address.family": Setting(
        "any", _choice("any", "v4", "v6"), "Brokers are connected to by any address, IPv4 (v4) or IPv6 (v6) "
                                           "only (librdkafka's setting)."),
    "broker.address.ttl": Setting(
        1000, _int(0), "How long a broker's resolved addresses are kept before they are looked up again "
                       "(librdkafka's setting)."),
    "client.dns.lookup": Setting(
        "use_all_dns_ips", _choice("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only"),
        "Each address of a host is tried before its connection counts as failed; "
        "resolve_canonical_bootstrap_servers_only also replaces each bootstrap server by the canonical names "
        "of its addresses (for Kerberos)."),
    "socket.max.fails": Setting(
        1, _int(0), "A connection is closed when this many of its requests in a row time out; 0: never (a late "
                    "answer is then dropped) (librdkafka's setting)."),
    "api.version.request.timeout.ms": Setting(
        10000, _int(1), "Time limit of the ApiVersions request that starts each connection (librdkafka's "
                        "setting)."),
    "metadata.recovery.strategy": Setting(
        "rebootstrap", _choice("none", "rebootstrap"),
        "rebootstrap: when no known broker can be reached, ask the bootstrap servers again (KIP-899); none: "
        "keep to the brokers known."),
    "metadata.recovery.rebootstrap.trigger.ms": Setting(
        300000, _int(0), "With metadata.recovery.strategy=rebootstrap: the known brokers are forgotten and the "
                         "bootstrap servers asked when no refresh has succeeded for this long (KIP-1102)."),
    # librdkafka's socket hooks, as Python callables, called on the client's I/O thread
    "resolve_cb": Setting(
        None, _callable, "resolve_cb(host, port, family, type) -> [(family, type, proto, canonname, sockaddr), "
                         "...], as socket.getaddrinfo answers: looks up every broker host, IP literals included "
                         "(librdkafka's); an OSError is a failed lookup."),
    "socket_cb": Setting(
        None, _callable, "socket_cb(family, type, proto) -> a socket.socket or a file descriptor, the broker "
                         "socket to use; the client makes it non-blocking and applies the socket.* settings."),
    "connect_cb": Setting(
        None, _callable, "connect_cb(sock, sockaddr, broker_name) -> 0 (connected, or EINPROGRESS: under way) or "
                         "an errno, which fails the connection attempt; instead of the client's own connect."),
    "closesocket_cb": Setting(
        None, _callable, "closesocket_cb(sock), instead of sock.close(), for each broker socket the client "
                         "is done with."),
    "receive.message.max.bytes": Setting(
        100 << 20, _int(1000), "Largest answer accepted (librdkafka's setting): a larger size prefix drops "
                               "the connection instead of allocating it."),
    "allow.auto.create.topics": Setting(
        False, _bool, _AUTO_CREATE + " Kafka's consumer default is true; kafkacodec's consumer and admin "
                                     "create no topic by looking it up."),
    "security.protocol": Setting(
        "PLAINTEXT", _choice("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"),
        "Transport to brokers: TLS (SSL) and SASL authentication, alone or together."),
    "ssl.context": Setting(
        None, _Func(_ssl_context, "an ssl.SSLContext", optional=True),
        "An ssl.SSLContext used as given, instead of the ssl.*file settings (kafkacodec's own)."),
    "ssl.cafile": Setting(
        None, _str(), "CA certificates (PEM) brokers are verified with; unset: the system's (Kafka: "
                      "ssl.truststore.*)."),
    "ssl.certfile": Setting(
        None, _str(), "This client's certificate chain (PEM), for brokers that verify clients (Kafka: "
                      "ssl.keystore.*)."),
    "ssl.keyfile": Setting(None, _str(), "The private key (PEM) of ssl.certfile, when that file lacks it."),
    "ssl.password": Setting(None, _str(), "Password of the private key."),
    "ssl.cadata": Setting(
        None, _str(), "CA certificates as PEM text, trusted with ssl.cafile's (librdkafka's ssl.ca.pem; Kafka: "
                      "ssl.truststore.certificates)."),
    "ssl.certdata": Setting(
        None, _str(), "This client's certificate chain as PEM text, instead of ssl.certfile (librdkafka's "
                      "ssl.certificate.pem; Kafka: ssl.keystore.certificate.chain)."),
    "ssl.keydata": Setting(
        None, _str(), "The private key of ssl.certdata as PEM text (librdkafka's ssl.key.pem; Kafka: "
                      "ssl.keystore.key)."),
    "ssl.keystore.location": Setting(
        None, _str(), "This client's certificate chain and key in a PKCS#12 keystore (Kafka's, with "
                      "ssl.keystore.type=PKCS12), read with the openssl command."),
    "ssl.keystore.password": Setting(None, _str(), "Password of ssl.keystore.location."),
    "ssl.crlfile": Setting(
        None, _str(), "Certificate revocation lists (PEM): a broker certificate they revoke is refused "
                      "(librdkafka's ssl.crl.location)."),
    "ssl.cipher.suites": Setting(
        None, _str(), "TLS 1.2 cipher suites offered, in OpenSSL's cipher list format (librdkafka's meaning); "
                      "unset: OpenSSL's defaults."),
    "ssl.check.hostname": Setting(
        True, _bool, "Check that the broker's certificate names its host (Kafka: "
                     "ssl.endpoint.identification.algorithm=https)."),
    "ssl.check.certificate": Setting(
        True, _bool, "Verify the broker's certificate chain; false accepts any certificate, for tests only "
                     "(librdkafka's enable.ssl.certificate.verification)."),
    "sasl.mechanism": Setting(
        "PLAIN", _choice("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"),
        "SASL mechanism of the SASL_* protocols; Kafka's default, GSSAPI, is not offered."),
    "sasl.username": Setting(None, _str(), "SASL PLAIN/SCRAM user (Kafka: in sasl.jaas.config)."),
    "sasl.password": Setting(None, _str(), "SASL PLAIN/SCRAM password (Kafka: in sasl.jaas.config)."),
    **_OAUTHBEARER,
    "statistics.interval.ms": Setting(
        0, _int(0, 86400000), "Every this many ms, stats_cb receives the client's statistics as JSON "
                              "(librdkafka's STATISTICS.md layout) from poll()/flush(); 0: never. Producer and "
                              "consumer (librdkafka's setting)."),
    "stats_cb": Setting(
        None, _callable, "stats_cb(json_str), called with each statistics document (librdkafka's setting); "
                         "metrics() returns the same document as a dict at any time."),
    "error_cb": Setting(
        None, _callable, "error_cb(exception) for each error the client recovers from by itself, from "
                         "poll()/flush(): a broker connection that failed or broke (KafkaConnectionError), a host "
                         "name that did not resolve (HostResolutionError), every known broker down "
                         "(NoBrokersAvailable). Errors that stop the client are raised by its calls instead "
                         "(librdkafka's setting). Producer and consumer."),
    "throttle_cb": Setting(
        None, _callable, "throttle_cb(Throttle(broker_name, broker_id, throttle_time)) for each answer a broker "
                         "delayed for a quota (throttle_time in seconds), from poll()/flush() (librdkafka's "
                         "setting). Producer and consumer."),
}

CONSUMER: dict[str, Setting] = dict(COMMON, **{
    "group.id": Setting(
        None, _str(), "The consumer group subscribe() joins and offsets are committed for; unset: assign() "
                      "only, no commits."),
    "group.instance.id": Setting(
        None, _str(), "Static membership (KIP-345): a member back with the same id within "
                      "session.timeout.ms keeps its partitions, no rebalance."),
    "group.protocol": Setting(
        "classic", _choice("classic", "consumer"),
        "The group protocol: classic (JoinGroup/SyncGroup, assignors run by the leader member) or consumer "
        "(KIP-848: heartbeats, the coordinator assigns, no stop-the-world rebalance; brokers from Kafka 4.0)."),
    "group.remote.assignor": Setting(
        None, _str(), "group.protocol=consumer: the assignor the coordinator runs (uniform, range); unset: "
                      "the broker's default.", "(broker's)"),
    "auto.offset.reset": Setting(
        "latest", _choice("earliest", "latest", "none"),
        "Where to start without a committed offset, or out of range: the earliest, the latest offset, or "
        "an error (none)."),
    "enable.auto.commit": Setting(
        True, _bool, "Commit consumed positions from poll() every auto.commit.interval.ms, and on close()."),
    "auto.commit.interval.ms": Setting(5000, _int(0), "Time between automatic commits."),
    "enable.auto.offset.store": Setting(
        True, _bool, "What commit() and the automatic commits take: true, the consumed positions (each "
                     "partition's offset after the last record poll() returned, or where a seek moved it); "
                     "false, only what store_offsets() stored (librdkafka's setting)."),
    "enable.partition.eof": Setting(
        False, _bool, "poll() notes each time a partition's position reaches its end (the high watermark, the "
                      "last stable offset under read_committed), once per offset: take_partition_eofs() "
                      "hands the notes over (librdkafka's setting)."),
    "offset_commit_cb": Setting(
        None, _callable, "offset_commit_cb(offsets, error) after each commit that names no callback (automatic, "
                         "on revoke, on close, commit()): offsets {TopicPartition: offset}, error None or the "
                         "exception; from poll() and close() on the calling thread (librdkafka's setting)."),
    "record_class": Setting(
        None, _Func(_record_class, "a subclass of kafkacodec.records.Record", optional=True),
        "The class poll() makes its records of: a subclass of Record that adds methods or fields, made "
        "without calling its __init__, its Record fields filled by the decoder (as asyncpg's record_class). "
        "A compiled subclass's records are left out of the cycle collector, as Records are: one that stores "
        "objects of its own must track itself again.", "Record"),
    "isolation.level": Setting(
        IsolationLevel.READ_UNCOMMITTED,
        _Func(lambda name, value: IsolationLevel.parse(value, name, ConfigError), options=map(str, IsolationLevel)),
        "read_committed returns only committed transactions' records, up to the last stable offset; "
        "read_uncommitted returns every record."),
    "fetch.min.bytes": Setting(1, _int(0), "Least data a broker gathers before it answers a Fetch."),
    "fetch.max.wait.ms": Setting(
        500, _int(0), "Longest a broker holds a Fetch waiting for fetch.min.bytes."),
    "fetch.max.bytes": Setting(
        52428800, _int(0), "Most data one Fetch answer brings (at least one batch, however large)."),
    "max.partition.fetch.bytes": Setting(
        1048576, _int(1), "Most data per partition in a Fetch answer (at least one batch); the buffered data "
                          "stays within partitions x this."),
    "max.poll.records": Setting(500, _int(1), "Most records one poll() returns."),
    "client.rack": Setting(
        "", _str(False), "The rack (zone) this consumer runs in, sent with each Fetch: a broker with a rack-aware "
                         "replica.selector.class names a replica of that rack, and the consumer fetches from it "
                         "(KIP-392) until metadata.max.age.ms passes or it fails; empty: none.", "(none)"),
    "fetch.queue.min.records": Setting(
        1, _int(1), "A partition is fetched again while fewer of its records than this are buffered (counted "
                    "by offsets), so larger values fetch ahead of poll(); 1: only once poll() has drained it "
                    "(librdkafka's queued.min.messages, whose default is 100000)."),
    "fetch.queue.max.bytes": Setting(
        None, _int(1, optional=True), "No partition is fetched while the record data buffered for poll() "
                                      "reaches this (librdkafka's queued.max.messages.kbytes, in bytes); unset: "
                                      "bounded by partitions x max.partition.fetch.bytes alone.", "(no bound)"),
    "fetch.queue.backoff.ms": Setting(
        1000, _int(0), "A partition held back by fetch.queue.min.records or fetch.queue.max.bytes is looked at "
                       "again after this long, or at once when poll() takes data (librdkafka's setting)."),
    "fetch.error.backoff.ms": Setting(
        None, _int(0, optional=True), "Wait before fetching again from a broker whose Fetch failed "
                                      "(librdkafka's setting); unset: retry.backoff.ms.", "(retry.backoff.ms)"),
    "max.poll.interval.ms": Setting(
        300000, _int(1), "Longest time between poll() calls before the member leaves its group; also the "
                         "group's rebalance timeout."),
    "session.timeout.ms": Setting(
        45000, _int(1), "The coordinator expels a member it has not heard a heartbeat from for this long."),
    "heartbeat.interval.ms": Setting(
        3000, _int(1), "Time between heartbeats to the group coordinator; below session.timeout.ms."),
    "partition.assignment.strategy": Setting(
        ["range", "roundrobin"], _Func(_strategies, "objects with .name and .assign()", options=ASSIGNORS),
        "Assignors offered to the group, preferred first; cooperative rebalancing (KIP-429) when all are "
        "cooperative. Kafka's default: range, cooperative-sticky."),
    "check.crcs": Setting(True, _bool, "Verify each fetched batch's CRC-32C."),
    "exclude.internal.topics": Setting(
        True, _bool, "A subscribed pattern does not match internal topics (__consumer_offsets, ...)."),
    "max.decompressed.bytes": Setting(
        None, _int(1, optional=True), "Most bytes a compressed batch may inflate to; unset: "
                                      "kafkacodec.records.compression's limit (256 MiB). kafkacodec's own.",
        "(codec limit)"),
    "enable.fetch.sessions": Setting(
        True, _bool, "Incremental fetch sessions (KIP-227): a broker is sent only what changed since the "
                     "last Fetch. kafkacodec's own; Java's consumer always uses them."),
    "default.api.timeout.ms": _time_limit("blocking calls (commit, committed, offset lookups)"),
})


PRODUCER: dict[str, Setting] = dict(COMMON, **{
    "acks": Setting(
        -1, _Func(_acks, options=_ACKS),
        "Acknowledgement the leader waits for: every in-sync replica (all, -1), itself (1), none (0).", "all"),
    "allow.auto.create.topics": Setting(True, _bool, _AUTO_CREATE + " The producer asks for it, as Java's."),
    "linger.ms": Setting(
        5, _int(0), "Wait up to this long for more records before a batch that is not full is sent; Kafka "
                    "4.0's default (KIP-1030, 0 before): a few ms of batching costs little latency."),
    # The most bytes a batch may hold (librdkafka's meaning).  A partition's new batch takes
    # 16 KiB (Kafka's default) and doubles, up to batch.size, while its batches fill within
    # linger.ms or queue up behind the one Produce request a partition has in flight; it halves
    # once the partition slows down (accumulator._new_batch_size, the idea of KIP-782).
    # Measured with bench/producer_bench.py's records on Tansu (4 partitions, acks=all,
    # idempotent, 500k records, medians of 3 interleaved rounds, load 5-7 on 2 cores):
    # 16 KiB batches 0.40 M records/s at 0.74 CPU s per million; growing to 256 KiB 1.48 M/s
    # (0.30), to 512 KiB 1.36 M/s (0.25), to 1 MB 1.06 M/s (0.25); fixed 512 KiB 1.33 M/s
    # (0.25).  The cost in latency: none at 10k records/s (p99 send-to-ack 16.6 ms with 16 KiB
    # batches, 9.9 ms growing; p50 4.2 / 4.1 ms), where batches never fill within linger.ms
    # and go at linger.ms as before; a partition whose batches do fill waits up to linger.ms
    # for a bigger one instead of sending each 16 KiB at once.  512 KiB stays under brokers'
    # default message.max.bytes (1 MiB), as send_arrow's batches do; batch.size <= 16384 keeps
    # every batch at batch.size.
    "batch.size": Setting(
        524288, _int(1), "Most bytes a batch may hold (librdkafka's meaning). Kafka's default is 16384; "
                         "here batches start at 16 KiB and double up to this while they fill within "
                         "linger.ms (the idea of KIP-782): 3.4x the records/s on Tansu. <= 16384 keeps "
                         "every batch at batch.size."),
    "batch.max.records": Setting(
        None, _int(1, 0x7FFFFFFF, optional=True),
        "Most records a batch of send() may hold, whatever its bytes (librdkafka's batch.num.messages); a "
        "batch that reaches it is sent as a full one. Unset: batches are bounded by batch.size only. "
        "send_arrow forms its batches by bytes.", "(no limit)"),
    "buffer.memory": Setting(
        33554432, _int(1), "Most bytes of records waiting to be sent; a send() finding it full waits up to "
                           "max.block.ms."),
    "max.block.ms": Setting(
        60000, _int(0), "Longest a send() waits for buffer.memory or for its topic's metadata; with "
                        "metadata.wait.on.send=false, how long records wait for a topic the brokers say does not "
                        "exist before they fail."),
    "metadata.wait.on.send": Setting(
        True, _bool, "true: send() waits (up to max.block.ms) for a new topic's metadata, as the Java client "
                     "does; false: it returns at once, the record held until the topic's partitions are known and "
                     "then partitioned (a record without a key draws its partition), as librdkafka does. A held "
                     "record fails at once when the topic is refused, after max.block.ms when the brokers say it "
                     "does not exist, after delivery.timeout.ms when no metadata came; flush() waits for it."),
    "max.request.size": Setting(
        1048576, _int(1), "Largest Produce request sent (a broker's batches are spread over requests); a "
                          "larger record is refused."),
    "compression.type": Setting(
        "none", _choice("none", "gzip", "snappy", "lz4", "zstd"), "Codec of the batches sent."),
    "compression.level": Setting(
        None, _int(optional=True), "Level of gzip, lz4 and zstd (KIP-390); unset: the codec's default.",
        "(codec default)"),
    "enable.idempotence": Setting(
        None, _optional_bool, "Idempotence (KIP-98): retries neither duplicate nor reorder records. Unset: "
                              "on unless acks, max.in.flight.requests.per.connection or retries rule it out.",
        "(on)"),
    "max.in.flight.requests.per.connection": Setting(
        5, _int(1), "Most Produce requests awaiting an answer per broker; at most 5 with idempotence."),
    "enable.gapless.guarantee": Setting(
        False, _bool, "With idempotence (no transactional.id): a batch that fails for good, leaving a gap in "
                      "its partition's records, stops the producer with a GaplessGuaranteeError instead of a new "
                      "epoch carrying on; failures for delivery.timeout.ms are not covered (librdkafka's "
                      "setting)."),
    "retries": Setting(
        2147483647, _int(0), "How often a failed batch is sent again, within delivery.timeout.ms."),
    "delivery.timeout.ms": Setting(
        120000, _int(1), "Longest time from send() to the record's acknowledgement or failure, retries "
                         "included."),
    "partitioner": Setting(
        "murmur2", _Func(_partitioner, "a callable fn(key, partitions)", options=PARTITIONERS),
        "Partition of a record sent without one: murmur2 of its key (Java's), consistent_random "
        "(librdkafka's), ...; records without a key stick to a partition per batch (KIP-480)."),
    "sticky.partitioning.linger.ms": Setting(
        None, _int(0, optional=True), "Records without a key stick to a partition this long, then move to a "
                                      "random one (librdkafka's rule; 0: a random partition per record); unset: "
                                      "a partition per batch (KIP-480, Java's).", "(per batch)"),
    "transactional.id": Setting(
        None, _str(), "Transactions (KIP-98): the id a producer keeps across restarts; a new producer "
                      "with it fences the old one."),
    "transaction.timeout.ms": Setting(
        60000, _int(1), "Longest a transaction may stay open before its coordinator aborts it."),
})

ADMIN: dict[str, Setting] = dict(COMMON, **{
    "default.api.timeout.ms": _time_limit("admin calls"),
})

# a share group member (KIP-932) takes the consumer's connection and fetch settings and none of a
# classic member's (offsets, assignors, auto commit): the group's coordinator keeps each record's state
_SHARE_FROM_CONSUMER = ("group.id", "fetch.min.bytes", "fetch.max.wait.ms", "fetch.max.bytes", "max.poll.records",
                        "check.crcs", "max.decompressed.bytes", "default.api.timeout.ms", "fetch.error.backoff.ms")

SHARE_CONSUMER: dict[str, Setting] = dict(COMMON, **{name: CONSUMER[name] for name in _SHARE_FROM_CONSUMER}, **{
    "share.acknowledgement.mode": Setting(
        "implicit", _choice("implicit", "explicit"),
        "ShareConsumer: implicit, the records one poll() returns are accepted by the next poll(), commit or "
        "close(); explicit, each record is acknowledged with acknowledge(record, ACCEPT | RELEASE | REJECT) and "
        "close() releases those that were not (Kafka's setting)."),
    "share.fetch.max.records": Setting(
        0, _int(0), "ShareConsumer: most records one ShareFetch acquires from a broker (0: max.poll.records); "
                    "what it acquires stays locked to this member until acknowledged or the broker's lock ends."),
})

KINDS: dict[str, dict[str, Setting]] = {"consumer": CONSUMER, "producer": PRODUCER, "admin": ADMIN,
                                        "share_consumer": SHARE_CONSUMER}


def resolve(config: Mapping[str, Any] | None, keywords: Mapping[str, Any], allowed: Mapping[str, Setting],
            kind: str = "client") -> dict[str, Any]:
    """A dict with every setting of `allowed`: defaults, then `config`, then `keywords`."""
    given: dict[str, Any] = {}
    for source in (config or {}), keywords:
        if not isinstance(source, dict):
            raise ConfigError(f"{kind} configuration must be a dict, got {type(source).__name__}")
        for key, value in source.items():
            name = key if key in allowed else str(key).replace("_", ".")
            if name not in allowed:
                raise ConfigError(f"unknown {kind} setting {key!r}")
            given[name] = value
    out: dict[str, Any] = {}
    for name, (default, check, *_) in allowed.items():
        if name in given:
            out[name] = check(name, given[name])
        elif name == "bootstrap.servers":
            raise ConfigError("bootstrap.servers: required")
        else:
            out[name] = default
    _check_security(out)
    _check_group_timing(out)
    _check_statistics(out, kind)
    return out


def _check_statistics(conf: Mapping[str, Any], kind: str) -> None:
    # the admin client has no poll() where stats_cb could run: refused rather than ignored
    if kind == "admin" and (conf.get("statistics.interval.ms") or conf.get("stats_cb") is not None):
        raise ConfigError("statistics.interval.ms: the admin client has no poll() to serve stats_cb; "
                          "statistics come from Producer and Consumer")
    for name, what in (("throttle_cb", "throttling"), ("error_cb", "connection errors")):
        if kind == "admin" and conf.get(name) is not None:
            raise ConfigError(f"{name}: the admin client has no poll() to serve it; Producer and Consumer report "
                              f"{what}")


def _check_group_timing(conf: Mapping[str, Any]) -> None:
    # a member must heartbeat several times per session, or one late heartbeat expels it
    if "heartbeat.interval.ms" in conf and conf["heartbeat.interval.ms"] >= conf["session.timeout.ms"]:
        raise ConfigError(f"heartbeat.interval.ms: must be lower than session.timeout.ms "
                          f"({conf['heartbeat.interval.ms']} >= {conf['session.timeout.ms']})")


def _check_security(conf: Mapping[str, Any]) -> None:
    proto = conf["security.protocol"]
    if proto.startswith("SASL") and conf["sasl.mechanism"] == "OAUTHBEARER":
        from kafkacodec.client.oauth import check_settings  # loaded only by OAUTHBEARER's users

        check_settings(conf)
    elif proto.startswith("SASL") and (conf["sasl.username"] is None or conf["sasl.password"] is None):
        raise ConfigError(f"sasl.username: security.protocol={proto} needs sasl.username and sasl.password")
    if conf["ssl.context"] is not None and any(conf[k] for k in _SSL_BUILT):
        raise ConfigError(f"ssl.context: give either an SSLContext or the settings it is built from "
                          f"({', '.join(_SSL_BUILT)}), not both")
    given = [k for k in ("ssl.certfile", "ssl.certdata", "ssl.keystore.location") if conf[k]]
    if len(given) > 1:
        raise ConfigError(f"{given[1]}: give one of ssl.certfile, ssl.certdata and ssl.keystore.location")


#: the settings ssl_context_from builds a context from
_SSL_BUILT = ("ssl.cafile", "ssl.certfile", "ssl.keyfile", "ssl.cadata", "ssl.certdata", "ssl.keydata",
              "ssl.keystore.location", "ssl.crlfile", "ssl.cipher.suites")


def ssl_context_from(conf: Mapping[str, Any]) -> ssl.SSLContext | None:
    """The SSLContext for SSL/SASL_SSL connections (None for plaintext)."""
    if not conf["security.protocol"].endswith("SSL"):
        return None
    if conf["ssl.context"] is not None:
        return conf["ssl.context"]  # type: ignore[no-any-return]  # checked by _ssl_context
    import ssl  # here, not at import: a client without TLS never needs it (~4 ms)
    cafile = conf["ssl.cafile"]
    capath = cafile if cafile is not None and os.path.isdir(cafile) else None
    try:
        ctx = ssl.create_default_context(cafile=None if capath else cafile, capath=capath, cadata=conf["ssl.cadata"])
        ctx.check_hostname = conf["ssl.check.hostname"] and conf["ssl.check.certificate"]
        if not conf["ssl.check.certificate"]:
            ctx.verify_mode = ssl.CERT_NONE
        if conf["ssl.crlfile"]:
            ctx.load_verify_locations(cafile=conf["ssl.crlfile"])
            ctx.verify_flags |= ssl.VERIFY_CRL_CHECK_LEAF
        if conf["ssl.cipher.suites"]:
            ctx.set_ciphers(conf["ssl.cipher.suites"])
        if conf["ssl.certfile"]:
            ctx.load_cert_chain(conf["ssl.certfile"], conf["ssl.keyfile"], conf["ssl.password"])
        elif conf["ssl.certdata"]:
            _load_cert_data(ctx, conf["ssl.certdata"], conf["ssl.keydata"], conf["ssl.password"])
        elif conf["ssl.keystore.location"]:
            _load_cert_data(ctx, _read_pkcs12(conf["ssl.keystore.location"], conf["ssl.keystore.password"]), None,
                            None)
    except (OSError, ssl.SSLError, ValueError) as exc:
        raise ConfigError(f"{', '.join(k for k in _SSL_BUILT if conf[k]) or 'ssl'}: cannot load: {exc}") from exc
    return ctx


def _read_pkcs12(path: str, password: str | None) -> str:
    """A PKCS#12 keystore's certificates and key as PEM text: Python's ssl reads no PKCS#12, the
    openssl command does (its password passed in the environment, never on the command line)."""
    import subprocess

    env = dict(os.environ, KAFKACODEC_KEYSTORE_PASSWORD=password or "")
    command = ["openssl", "pkcs12", "-in", path, "-nodes", "-passin", "env:KAFKACODEC_KEYSTORE_PASSWORD"]
    try:
        run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=30)
        if run.returncode != 0:
            # keystores of older Java keytools use ciphers OpenSSL 3 keeps in its legacy provider
            run = subprocess.run(command + ["-legacy"], env=env, capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        raise ValueError("reading a PKCS#12 keystore needs the openssl command: convert it to PEM for "
                         "ssl.certfile and ssl.keyfile") from None
    if run.returncode != 0 or "PRIVATE KEY" not in run.stdout:
        detail = (run.stderr.strip().splitlines() or ["no private key in it"])[0]
        raise ValueError(f"cannot read the PKCS#12 keystore {path}: {detail}")
    return run.stdout


def _load_cert_data(ctx: ssl.SSLContext, cert: str, key: str | None, password: str | None) -> None:
    """Certificate chain and key given as PEM text: Python's ssl loads them only from files, so
    they pass through files only this process can read, removed at once."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="kafkacodec-tls-") as tmp:
        certfile = os.path.join(tmp, "cert.pem")
        keyfile = os.path.join(tmp, "key.pem") if key else None
        for path, text in ((certfile, cert), (keyfile, key)):
            if path is not None and text is not None:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w") as f:
                    f.write(text)
        ctx.load_cert_chain(certfile, keyfile, password)


# -- the table, printed

def _shown_default(setting: Setting) -> str:
    if setting.shown is not None:
        return setting.shown
    value = setting.default
    if value is None:
        return "(unset)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    return str(value)


#: (name, default, range, meaning) as describe() lists a setting
Row = tuple[str, str, str, str]


def _rows(table: Mapping[str, Setting], names: Iterable[str]) -> list[Row]:
    return [(name, _shown_default(table[name]), table[name].check.accepts(), table[name].meaning)
            for name in names]


def _sections(kind: str) -> list[tuple[str, list[Row]]]:
    """[(title, rows)]: one client's settings, or for "all" the settings every client
    shares and then each client's own (or its own default of a shared one)."""
    if kind in KINDS:
        return [(_title(kind), _rows(KINDS[kind], KINDS[kind]))]
    if kind != "all":
        raise ConfigError(f"kind: expected {', '.join(KINDS)} or all, got {kind!r}")
    return [("Every client", _rows(COMMON, COMMON))] + [
        (_title(name), _rows(table, [n for n in table if table[n] is not COMMON.get(n)]))
        for name, table in KINDS.items()]


def _title(kind: str) -> str:
    return kind.replace("_", " ").capitalize()


def describe(kind: str = "all") -> list[Row]:
    """[(name, default, range, meaning)] of the settings of `kind` ("producer",
    "consumer", "admin", "share_consumer"; "all": those every client shares, then each client's own)."""
    return [row for _, rows in _sections(kind) for row in rows]


def text(kind: str = "all") -> str:
    """The table as aligned text, a block per section."""
    blocks = []
    for title, rows in _sections(kind):
        width = [max(len(row[i]) for row in rows) for i in range(3)]
        blocks.append("\n".join([f"{title}:"] + [
            f"  {name:{width[0]}}  {default:{width[1]}}  {accepts:{width[2]}}  {meaning}"
            for name, default, accepts, meaning in rows]))
    return "\n\n".join(blocks) + "\n"


def markdown(kind: str = "all") -> str:
    """The table as Markdown, a table per section (the documentation's settings page)."""
    def cell(value: str) -> str:  # a | ends the cell, a * may start emphasis
        return value.replace("|", "\\|").replace("*", "\\*")

    blocks = []
    for title, rows in _sections(kind):
        lines = [f"#### {title}", "", "| Setting | Default | Range | Meaning |", "| --- | --- | --- | --- |"]
        lines += [f"| `{name}` | {cell(default)} | {cell(accepts)} | {cell(meaning)} |"
                  for name, default, accepts, meaning in rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    import argparse  # here, not at the top: every client imports this module, only the command line parses

    parser = argparse.ArgumentParser(prog="python -m kafkacodec.client.config",
                                     description="The client settings: name, default, range, meaning.")
    parser.add_argument("--kind", choices=[*KINDS, "all"], default="all",
                        help="one client's settings, or all of them (default)")
    parser.add_argument("--markdown", action="store_true", help="Markdown tables (the documentation's)")
    args = parser.parse_args(argv)
    print((markdown if args.markdown else text)(args.kind), end="")
    return 0
