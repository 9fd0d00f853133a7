"""The client never fails silently: bad arguments are refused where they are given (the I/O
thread never sees them), a failure inside the I/O thread makes every call refuse with its
cause, poll(timeout) keeps its timeout whatever the broker does, and a raising delivery
callback does not keep the others from running."""
import socket
import threading
import time
import uuid

import pytest

from kafkacodec.client import Admin, Consumer, Producer, TopicPartition
from kafkacodec.client import errors as E
from kafkacodec.client.sasl import Scram

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.timeout(120)]

OFFSET_COMMIT = 8  # API key
UNKNOWN_TOPIC_OR_PARTITION = 3


def _closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"127.0.0.1:{port}"


class _BlackHole:
    """A listener on 127.0.0.1 that accepts connections and never answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.bootstrap = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.conns = []
        self._stop = False
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self):
        self.sock.settimeout(0.2)
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.conns.append(conn)  # read nothing, answer nothing

    def close(self):
        self._stop = True
        self._thread.join(2)
        for c in self.conns:
            c.close()
        self.sock.close()


@pytest.fixture(scope="module")
def mock1():
    """One librdkafka mock cluster of one broker for the module (no test here changes its state)."""
    try:
        with _peers.mock_cluster(num_brokers=1) as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


def _topic(bootstrap, partitions=1):
    name = f"r-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, name, partitions)
    return name


def _topic_with_values(bootstrap, n):
    """A new one-partition topic holding values v0 .. v(n-1); and a consumer for it."""
    topic = _topic(bootstrap)
    with Producer({"bootstrap.servers": bootstrap}) as p:
        for i in range(n):
            p.send(topic, b"v%d" % i)
        p.flush(10)
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                         "auto.offset.reset": "earliest"})
    return topic, consumer


# -- 1: bad topics never reach the I/O thread; a failed I/O thread refuses every call


@pytest.mark.parametrize("bad", [None, b"topic", 123, "", "a b", "x" * 250, ".."])
def test_send_refuses_a_bad_topic_and_the_producer_goes_on(mock1, bad):
    topic = _topic(mock1)
    with Producer({"bootstrap.servers": mock1, "linger.ms": 20}) as p:
        handles = [p.send(topic, b"v%d" % i) for i in range(500)]
        with pytest.raises(E.InvalidArgumentError, match="topic"):
            p.send(bad, b"x")
        handles += [p.send(topic, b"w%d" % i) for i in range(500)]
        p.flush(20)
        assert p.client.fatal_error is None
        offsets = [h.get().offset for h in handles]
    assert offsets == list(range(1000))


def test_subscribe_refuses_bad_topics_and_the_group_still_works(mock1):
    topic, consumer = _topic_with_values(mock1, 10)
    with consumer as c:
        for bad in ([topic, 123], "", [""], [None], 5, [b"t"]):
            with pytest.raises(E.InvalidArgumentError):
                c.subscribe(bad)
        c.subscribe([topic])
        got = []
        deadline = time.monotonic() + 40
        while len(got) < 10 and time.monotonic() < deadline:
            got += c.poll(0.5)
        assert sorted(r.value for r in got) == sorted(b"v%d" % i for i in range(10))


class _Boom:
    """A ticker that raises once it is armed: stands for any bug in the I/O thread."""

    def __init__(self):
        self.armed = False

    def tick(self, now):
        if self.armed:
            raise RuntimeError("injected failure")
        return None


def test_a_failed_io_thread_makes_the_producer_refuse_with_the_cause(mock1):
    topic = _topic(mock1)
    p = Producer({"bootstrap.servers": mock1, "linger.ms": 60000, "batch.size": 1 << 20})
    try:
        p.partitions_for(topic)
        queued = [p.send(topic, b"q%d" % i) for i in range(100)]
        boom = _Boom()
        p.client.add_ticker(boom)
        boom.armed = True
        p.client.wakeup()
        deadline = time.monotonic() + 5
        while p.client.fatal_error is None and time.monotonic() < deadline:
            time.sleep(0.01)
        # what was queued is failed with the cause, not left to time out
        for h in queued:
            with pytest.raises(E.ClientFailedError) as info:
                h.get(5)
            assert isinstance(info.value.__cause__, RuntimeError)
        t0 = time.monotonic()
        with pytest.raises(E.ClientFailedError, match="injected failure") as info:
            p.send(topic, b"later")
        assert isinstance(info.value.__cause__, RuntimeError)
        with pytest.raises(E.ClientFailedError):
            p.send(f"{topic}-other", b"later")
        with pytest.raises(E.ClientFailedError):
            p.flush(5)
        assert time.monotonic() - t0 < 1.0
    finally:
        p.close(1)


def test_a_failed_io_thread_makes_the_consumer_refuse_with_the_cause(mock1):
    topic = _topic(mock1)
    with Consumer({"bootstrap.servers": mock1, "group.id": f"g-{uuid.uuid4().hex[:6]}"}) as c:
        c.subscribe([topic])
        c.poll(0.1)
        boom = _Boom()
        c._client.add_ticker(boom)
        boom.armed = True
        c._client.wakeup()
        time.sleep(0.3)
        t0 = time.monotonic()
        with pytest.raises(E.ClientFailedError, match="injected failure") as info:
            c.poll(5)
        assert isinstance(info.value.__cause__, RuntimeError)
        with pytest.raises(E.ClientFailedError):
            c.committed([(topic, 0)], timeout=5)
        assert time.monotonic() - t0 < 1.0


# -- 2: poll(timeout) keeps its timeout


def _poll_time(consumer, timeout=1.0):
    t0 = time.monotonic()
    try:
        consumer.poll(timeout)
    except E.KafkaError:
        pass  # an error is an answer too; only the time matters here
    return time.monotonic() - t0


@pytest.mark.parametrize("group", [True, False])
def test_poll_keeps_its_timeout_when_the_broker_is_unreachable(group):
    conf = {"bootstrap.servers": _closed_port(), "default.api.timeout.ms": 60000}
    if group:
        conf["group.id"] = "g"
    with Consumer(conf) as c:
        c.assign([("topic", 0)])
        for _ in range(3):
            assert _poll_time(c) < 1.5


@pytest.mark.parametrize("group", [True, False])
def test_poll_keeps_its_timeout_when_the_broker_never_answers(group):
    hole = _BlackHole()
    try:
        conf = {"bootstrap.servers": hole.bootstrap, "default.api.timeout.ms": 60000}
        if group:
            conf["group.id"] = "g"
        c = Consumer(conf)
        try:
            c.assign([("topic", 0)])
            for _ in range(3):
                assert _poll_time(c) < 1.5
        finally:
            c.close(timeout=1)
    finally:
        hole.close()


@pytest.mark.parametrize("group", [True, False])
def test_poll_keeps_its_timeout_for_a_topic_that_does_not_exist(mock1, group):
    conf = {"bootstrap.servers": mock1, "default.api.timeout.ms": 60000, "allow.auto.create.topics": False}
    if group:
        conf["group.id"] = f"g-{uuid.uuid4().hex[:6]}"
    with Consumer(conf) as c:
        c.assign([(f"missing-{uuid.uuid4().hex[:6]}", 0)])
        for _ in range(3):
            assert _poll_time(c) < 1.5


def test_poll_takes_up_a_lookup_that_outlived_an_earlier_poll(mock1):
    """The committed-offset lookup started by a short poll is used by the next ones."""
    topic, consumer = _topic_with_values(mock1, 5)
    with consumer as c:
        c.assign([(topic, 0)])
        got = c.poll(0)  # too short for any lookup
        deadline = time.monotonic() + 20
        while len(got) < 5 and time.monotonic() < deadline:
            got += c.poll(0.05)
        assert [r.value for r in got] == [b"v%d" % i for i in range(5)]


# -- 4: callbacks are isolated


def test_every_callback_runs_when_one_raises(mock1):
    topic = _topic(mock1)
    ran = []

    def cb(i):
        def callback(err, md):
            ran.append(i)
            if i == 3:
                raise ValueError("callback 3 broke")
        return callback

    with Producer({"bootstrap.servers": mock1}) as p:
        for i in range(100):
            p.send(topic, b"v", callback=cb(i))
        with pytest.raises(E.CallbackError, match="callback 3 broke") as info:
            p.flush(20)
        assert isinstance(info.value.__cause__, ValueError)
        assert len(info.value.errors) == 1
        assert sorted(ran) == list(range(100))
        # poll() surfaces it too, and the next poll is clean
        p.send(topic, b"v", callback=cb(3))
        time.sleep(0.5)
        deadline = time.monotonic() + 10
        with pytest.raises(E.CallbackError):
            while time.monotonic() < deadline:
                p.poll(0.2)
        assert p.poll(0) == 0


def test_send_refuses_a_callback_that_is_not_callable(mock1):
    topic = _topic(mock1)
    with Producer({"bootstrap.servers": mock1}) as p:
        with pytest.raises(E.InvalidArgumentError, match="callback"):
            p.send(topic, b"v", callback="x")


# -- 8: what Java's client refuses, refused at the call


@pytest.mark.parametrize("timestamp", [-5, 1.5, "1", True])
def test_send_refuses_bad_timestamps(mock1, timestamp):
    topic = _topic(mock1)
    with Producer({"bootstrap.servers": mock1}) as p:
        first = p.send(topic, b"v", timestamp=0)  # opens the batch the compiled path appends to
        with pytest.raises(E.InvalidArgumentError, match="timestamp"):
            p.send(topic, b"v", timestamp=timestamp)
        with pytest.raises(E.InvalidArgumentError, match="timestamp"):
            p.send(topic, b"v", key=b"k", timestamp=timestamp)
        p.flush(10)
        assert first.get(0).offset == 0


def test_send_refuses_dict_headers(mock1):
    topic = _topic(mock1)
    with Producer({"bootstrap.servers": mock1}) as p:
        with pytest.raises(E.InvalidArgumentError, match="headers"):
            p.send(topic, b"v", headers={"a": b"1"})
        with pytest.raises(E.InvalidArgumentError, match="headers"):
            p.send(topic, b"v", headers=[("a", 1)])


@pytest.mark.parametrize("bad", [123, 1.5, "text", object()])
def test_send_refuses_keys_and_values_that_are_not_bytes_naming_them(mock1, bad):
    topic = _topic(mock1, partitions=2)
    with Producer({"bootstrap.servers": mock1, "linger.ms": 10000}) as p:
        opening = [p.send(topic, b"v", partition=n) for n in (0, 1)]  # the compiled path appends to these
        attempts = [dict(value=bad), dict(value=bad, key=b"k"), dict(value=bad, partition=0),
                    dict(value=bad, headers=[("h", b"1")]), dict(value=bad, callback=lambda e, m: None),
                    dict(key=bad), dict(key=bad, value=b"v"), dict(key=bad, partition=1)]
        for kwargs in attempts:
            what = "key" if kwargs.get("key") is bad else "value"
            with pytest.raises(E.InvalidArgumentError, match=rf"^{what}: expected bytes-like or None, "
                                                             rf"got {type(bad).__name__} "):
                p.send(topic, **kwargs)
        # the same on a partition without an open batch (the general path's new batch)
        fresh = _topic(mock1)
        with pytest.raises(E.InvalidArgumentError, match="^value: .*int 7"):
            p.send(fresh, 7)
        with pytest.raises(E.InvalidArgumentError, match="^key: .*int 7"):
            p.send(fresh, b"v", key=7)
        good = [p.send(topic, bytearray(b"ba"), partition=0), p.send(topic, memoryview(b"mv"), key=b"k", partition=0)]
        p.flush(10)
        # nothing refused reached a batch: the records around the refusals are all there is
        assert [h.get(0).offset for h in opening + good] == [0, 0, 1, 2]


def test_admin_refuses_bad_topic_names_and_counts_before_asking(tansu_bootstrap):
    name = f"r-{uuid.uuid4().hex[:8]}"
    with Admin({"bootstrap.servers": tansu_bootstrap}) as admin:
        for topics, kwargs, words in [
                ({name: 0}, {}, f"topics['{name}']: 0 is not a partition count"),
                ({name: -2}, {}, "-2 is not a partition count"),
                ({name: 1.5}, {}, "expected an int, got float 1.5"),
                ({"bad name!": 1}, {}, "topics: 'bad name!' is not a legal topic name"),
                ({"..": 1}, {}, "'..' is not a legal topic name"),
                ({"x" * 250: 1}, {}, "is not a legal topic name"),
                ({"": 1}, {}, "'' is not a legal topic name"),
                ([name], {}, "topics: expected {name: partitions}, got list"),
                ({name: 1}, {"replication_factor": 0}, "replication_factor: 0 is not a replication factor"),
                ({name: 1}, {"replication_factor": 1 << 15}, "is not a replication factor")]:
            with pytest.raises(E.InvalidArgumentError) as info:
                admin.create_topics(topics, **kwargs)
            assert words in str(info.value) and "\n" not in str(info.value)
        with pytest.raises(E.InvalidArgumentError, match=f"counts\\['{name}'\\]: 0 is not a partition count"):
            admin.create_partitions({name: 0})
        with pytest.raises(E.InvalidArgumentError, match="counts: 'bad name!' is not a legal topic name"):
            admin.create_partitions({"bad name!": 2})
        assert name not in admin.list_topics()
        # -1: the broker's default count and replication (KIP-464); the wait ends once it has leaders
        admin.create_topics({name: -1}, replication_factor=-1, timeout=30)
        assert admin.list_topics()[name] >= 1


def test_commit_to_a_topic_or_partition_that_does_not_exist_fails_at_once(mock1):
    topic = _topic(mock1)
    with Consumer({"bootstrap.servers": mock1, "group.id": f"g-{uuid.uuid4().hex[:6]}"}) as c:
        missing = f"nope-{uuid.uuid4().hex[:6]}"
        for tp, words in [((missing, 0), f"{missing}[0]: topic '{missing}' does not exist"),
                          ((topic, 3), f"{topic}[3]: no such partition (topic '{topic}' has 1)")]:
            started = time.monotonic()
            with pytest.raises(E.UnknownTopicOrPartitionError) as info:
                c.commit({tp: 5})  # default.api.timeout.ms (60 s) would pass retrying
            assert time.monotonic() - started < 10
            assert words in str(info.value)
        c.commit({(topic, 0): 5})
        assert c.committed([(topic, 0)])[TopicPartition(topic, 0)] == 5


def test_commit_to_a_missing_topic_fails_at_once_on_tansu(tansu_bootstrap):
    with Consumer({"bootstrap.servers": tansu_bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}"}) as c:
        missing = f"nope-{uuid.uuid4().hex[:6]}"
        started = time.monotonic()
        with pytest.raises(E.UnknownTopicOrPartitionError, match=rf"{missing}\[0\]: topic '{missing}' does not exist"):
            c.commit({(missing, 0): 5})
        assert time.monotonic() - started < 10
        with Admin({"bootstrap.servers": tansu_bootstrap}) as admin:
            assert missing not in admin.list_topics()  # asking about it did not create it


def test_commit_retries_a_coordinator_that_has_not_heard_of_an_existing_topic(mock3):
    # KAFKA-6829: a coordinator may answer UNKNOWN_TOPIC_OR_PARTITION for a topic created a
    # moment ago; the metadata shows it exists, so the commit is retried, not failed
    topic = _topic(mock3)
    with Consumer({"bootstrap.servers": mock3, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                   "retry.backoff.ms": 20}) as c:
        c.commit({(topic, 0): 1})  # the coordinator is known: the next OffsetCommit meets the faults
        _peers.mock_fault(mock3, "errors", OFFSET_COMMIT, UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_OR_PARTITION)
        c.commit({(topic, 0): 7})
        assert c.committed([(topic, 0)])[TopicPartition(topic, 0)] == 7


def test_consumer_refuses_bad_offsets_timeouts_and_polls_without_partitions(mock1):
    topic = _topic(mock1)
    with Consumer({"bootstrap.servers": mock1, "group.id": f"g-{uuid.uuid4().hex[:6]}"}) as c:
        with pytest.raises(E.IllegalStateError, match="subscribe"):
            c.poll(0)
        c.assign([(topic, 0)])
        with pytest.raises(E.InvalidArgumentError):
            c.poll(-1)
        with pytest.raises(E.InvalidArgumentError, match="offset"):
            c.seek((topic, 0), -5)
        with pytest.raises(E.InvalidArgumentError, match="offset"):
            c.commit({(topic, 0): -7})
        with pytest.raises(E.InvalidArgumentError, match="partition"):
            c.assign([(topic, -1)])
        with pytest.raises(E.InvalidArgumentError, match="topic"):
            c.assign([(None, 0)])


def test_config_errors_are_config_errors():
    with pytest.raises(E.ConfigError, match="bootstrap.servers"):
        Producer({"bootstrap.servers": 9092})
    with pytest.raises(E.ConfigError, match="heartbeat.interval.ms"):
        Consumer({"bootstrap.servers": "127.0.0.1:1", "group.id": "g",
                  "heartbeat.interval.ms": 10000, "session.timeout.ms": 10000})


def test_scram_refuses_fewer_than_4096_iterations():
    s = Scram("user", "pencil")
    first = s.start()
    nonce = first.decode().split("r=", 1)[1]
    with pytest.raises(E.AuthenticationError, match="4096"):
        s.step(f"r={nonce}srv,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4095".encode())


@pytest.mark.timeout(300)
@pytest.mark.parametrize("peer", ["mock", pytest.param("tansu", marks=pytest.mark.slow)])  # Tansu joins take 15 s
def test_close_leaves_the_group_so_a_rebalance_begins_at_once(mock1, peer, caplog):
    if peer == "tansu":
        try:
            cm = _peers.tansu_broker()
            bootstrap = cm.__enter__()
        except _peers.PeerUnavailable as e:
            pytest.skip(str(e))
    else:
        cm, bootstrap = None, mock1
    topic = _topic(bootstrap, partitions=2)
    conf = {"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
            "session.timeout.ms": 10000, "heartbeat.interval.ms": 300}
    a, b = Consumer(conf), Consumer(conf)
    try:
        a.subscribe([topic])
        b.subscribe([topic])
        deadline = time.monotonic() + 150  # a loaded machine slows the mock's rebalances down
        while not (a.assignment() and b.assignment()) and time.monotonic() < deadline:
            a.poll(0.1)
            b.poll(0.1)
        before = a.assignment()
        assert len(before) == 1 and len(b.assignment()) == 1
        with caplog.at_level("WARNING", logger="kafkacodec.client"):
            b.close()
        assert "could not leave" not in caplog.text
        # without a LeaveGroup the coordinator would wait out the 10 s session before rebalancing
        deadline = time.monotonic() + 4
        while a.assignment() == before and time.monotonic() < deadline:
            a.poll(0.1)
        assert a.assignment() != before
    finally:
        # a's JoinGroup waits out the mock's rebalance (session.timeout.ms less a second), and
        # its LeaveGroup queues behind it on the coordinator's connection: not this test's subject
        a.close(timeout=1)
        b.close()
        if cm is not None:
            cm.__exit__(None, None, None)


def test_purge_fails_what_is_queued_and_the_producer_goes_on(mock1):
    topic = _topic(mock1)
    with Producer({"bootstrap.servers": mock1, "linger.ms": 60000, "batch.size": 1 << 20}) as p:
        queued = [p.send(topic, b"q%d" % i) for i in range(50)]
        assert p.purge() >= 1
        for h in queued:
            with pytest.raises(E.PurgedError) as info:
                h.get(5)
            assert not info.value.in_flight
        later = p.send(topic, b"after")
        p.flush(10)
        assert later.get(0).offset == 0  # nothing purged reached the log
