"""Client settings by Kafka's own names.

``resolve(config, keywords, ALLOWED)`` merges a dict of Kafka names
(``"fetch.max.bytes"``) with keyword arguments in snake_case
(``fetch_max_bytes=...``), fills defaults and checks every value; an unknown
name or a bad value raises ConfigError naming the setting.
"""
import re
import ssl

from kafkacodec.client.errors import ConfigError

__all__ = ["resolve", "COMMON", "CONSUMER", "ADMIN", "PRODUCER"]


def _int(lo=None, hi=None):
    def check(name, value):
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
                value = int(value)
            else:
                raise ConfigError(f"{name}: expected an integer, got {value!r}")
        if lo is not None and value < lo:
            raise ConfigError(f"{name}: must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            raise ConfigError(f"{name}: must be at most {hi}, got {value}")
        return value
    return check


def _bool(name, value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise ConfigError(f"{name}: expected true or false, got {value!r}")


def _choice(*options):
    def check(name, value):
        text = str(value).strip()
        for option in options:
            if text.lower() == option.lower():
                return option
        raise ConfigError(f"{name}: expected one of {', '.join(options)}, got {value!r}")
    return check


def _str(optional=True):
    def check(name, value):
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise ConfigError(f"{name}: expected a string, got {value!r}")
        return value
    return check


def _servers(name, value):
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


def _ssl_context(name, value):
    if value is None or isinstance(value, ssl.SSLContext):
        return value
    raise ConfigError(f"{name}: expected an ssl.SSLContext, got {type(value).__name__}")


def _strategies(name, value):
    items = value.split(",") if isinstance(value, str) else list(value)
    out = []
    for item in items:
        if isinstance(item, str):
            item = item.strip().lower()
            if item not in ("range", "roundrobin", "cooperative-sticky"):
                raise ConfigError(f"{name}: unknown assignor {item!r} (range, roundrobin, cooperative-sticky)")
        elif not (hasattr(item, "name") and hasattr(item, "assign")):
            raise ConfigError(f"{name}: an assignor needs .name and .assign(), got {item!r}")
        out.append(item)
    if not out:
        raise ConfigError(f"{name}: at least one assignor is required")
    return out


def _callable(name, value):
    if value is not None and not callable(value):
        raise ConfigError(f"{name}: expected a callable, got {value!r}")
    return value


COMMON = {
    "bootstrap.servers": (None, _servers),
    "client.id": ("kafkacodec", _str(False)),
    "request.timeout.ms": (30000, _int(1)),
    "metadata.max.age.ms": (300000, _int(0)),
    "retry.backoff.ms": (100, _int(0)),
    "retry.backoff.max.ms": (1000, _int(0)),
    "reconnect.backoff.ms": (50, _int(0)),
    "reconnect.backoff.max.ms": (1000, _int(0)),
    "socket.connection.setup.timeout.ms": (10000, _int(1)),
    "connections.max.idle.ms": (540000, _int(-1)),
    "receive.message.max.bytes": (100 << 20, _int(1024)),
    "allow.auto.create.topics": (False, _bool),
    "security.protocol": ("PLAINTEXT", _choice("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")),
    "ssl.context": (None, _ssl_context),
    "ssl.cafile": (None, _str()),
    "ssl.certfile": (None, _str()),
    "ssl.keyfile": (None, _str()),
    "ssl.password": (None, _str()),
    "ssl.check.hostname": (True, _bool),
    "sasl.mechanism": ("PLAIN", _choice("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")),
    "sasl.username": (None, _str()),
    "sasl.password": (None, _str()),
}

CONSUMER = dict(COMMON, **{
    "group.id": (None, _str()),
    "group.instance.id": (None, _str()),
    "auto.offset.reset": ("latest", _choice("earliest", "latest", "none")),
    "enable.auto.commit": (True, _bool),
    "auto.commit.interval.ms": (5000, _int(0)),
    "isolation.level": ("read_uncommitted", _choice("read_uncommitted", "read_committed")),
    "fetch.min.bytes": (1, _int(0)),
    "fetch.max.wait.ms": (500, _int(0)),
    "fetch.max.bytes": (52428800, _int(0)),
    "max.partition.fetch.bytes": (1048576, _int(1)),
    "max.poll.records": (500, _int(1)),
    "max.poll.interval.ms": (300000, _int(1)),
    "session.timeout.ms": (45000, _int(1)),
    "heartbeat.interval.ms": (3000, _int(1)),
    "partition.assignment.strategy": (["range", "roundrobin"], _strategies),
    "check.crcs": (True, _bool),
    "exclude.internal.topics": (True, _bool),
    "max.decompressed.bytes": (None, lambda n, v: v if v is None else _int(1)(n, v)),
    "enable.fetch.sessions": (True, _bool),
    "default.api.timeout.ms": (60000, _int(1)),
})

def _acks(name, value):
    text = str(value).strip().lower()
    if text in ("all", "-1"):
        return -1
    if text in ("0", "1"):
        return int(text)
    raise ConfigError(f"{name}: expected all, -1, 0 or 1, got {value!r}")


def _optional_bool(name, value):
    return None if value is None else _bool(name, value)


def _partitioner(name, value):
    from kafkacodec.client.partitioner import PARTITIONERS
    if callable(value):
        return value
    text = str(value).strip().lower()
    if text not in PARTITIONERS:
        raise ConfigError(f"{name}: expected one of {', '.join(PARTITIONERS)} or a callable, got {value!r}")
    return text


PRODUCER = dict(COMMON, **{
    "acks": (-1, _acks),  # all
    # Kafka 4.0's default (KIP-1030): a few ms of batching costs little latency
    "linger.ms": (5, _int(0)),
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
    "batch.size": (524288, _int(1)),
    "buffer.memory": (33554432, _int(1)),
    "max.block.ms": (60000, _int(0)),
    "max.request.size": (1048576, _int(1)),
    "compression.type": ("none", _choice("none", "gzip", "snappy", "lz4", "zstd")),
    "compression.level": (None, lambda n, v: v if v is None else _int()(n, v)),
    "enable.idempotence": (None, _optional_bool),  # None: on unless acks/in-flight/retries say otherwise
    "max.in.flight.requests.per.connection": (5, _int(1)),
    "retries": (2147483647, _int(0)),
    "delivery.timeout.ms": (120000, _int(1)),
    "partitioner": ("murmur2", _partitioner),
    "transactional.id": (None, _str()),
    "transaction.timeout.ms": (60000, _int(1)),
})

ADMIN = dict(COMMON, **{
    "default.api.timeout.ms": (60000, _int(1)),
})


def resolve(config, keywords, allowed, kind="client"):
    """A dict with every setting of `allowed`: defaults, then `config`, then `keywords`."""
    given = {}
    for source in (config or {}), keywords:
        if not isinstance(source, dict):
            raise ConfigError(f"{kind} configuration must be a dict, got {type(source).__name__}")
        for key, value in source.items():
            name = key if key in allowed else str(key).replace("_", ".")
            if name not in allowed:
                raise ConfigError(f"unknown {kind} setting {key!r}")
            given[name] = value
    out = {}
    for name, (default, check) in allowed.items():
        if name in given:
            out[name] = check(name, given[name])
        elif name == "bootstrap.servers":
            raise ConfigError("bootstrap.servers: required")
        else:
            out[name] = default
    _check_security(out)
    _check_group_timing(out)
    return out


def _check_group_timing(conf):
    # a member must heartbeat several times per session, or one late heartbeat expels it
    if "heartbeat.interval.ms" in conf and conf["heartbeat.interval.ms"] >= conf["session.timeout.ms"]:
        raise ConfigError(f"heartbeat.interval.ms: must be lower than session.timeout.ms "
                          f"({conf['heartbeat.interval.ms']} >= {conf['session.timeout.ms']})")


def _check_security(conf):
    proto = conf["security.protocol"]
    if proto.startswith("SASL") and (conf["sasl.username"] is None or conf["sasl.password"] is None):
        raise ConfigError(f"sasl.username: security.protocol={proto} needs sasl.username and sasl.password")
    if conf["ssl.context"] is not None and any(conf[k] for k in ("ssl.cafile", "ssl.certfile", "ssl.keyfile")):
        raise ConfigError("ssl.context: give either an SSLContext or the ssl.*file settings, not both")


def ssl_context_from(conf):
    """The SSLContext for SSL/SASL_SSL connections (None for plaintext)."""
    if not conf["security.protocol"].endswith("SSL"):
        return None
    if conf["ssl.context"] is not None:
        return conf["ssl.context"]
    try:
        ctx = ssl.create_default_context(cafile=conf["ssl.cafile"])
        # the certificate chain is always verified; only the host name check is optional
        ctx.check_hostname = conf["ssl.check.hostname"]
        if conf["ssl.certfile"]:
            ctx.load_cert_chain(conf["ssl.certfile"], conf["ssl.keyfile"], conf["ssl.password"])
    except (OSError, ssl.SSLError) as exc:
        raise ConfigError(f"ssl.cafile/ssl.certfile/ssl.keyfile: cannot load: {exc}") from exc
    return ctx
