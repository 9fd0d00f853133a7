"""aiokafka's example programs and the code of its documentation (the text is in aiokafka_doc_snippets.py
with the commit it comes from) run unchanged but for their import lines, the broker address, and
placeholder topic and group names, under aiokafka and under the face, against the same broker (Tansu):
what they print, what they deliver and what they raise must be the same.

Where a snippet is a fragment (top-level ``await``, as in the documentation), the names it uses without
defining them (``aiokafka``, ``TopicPartition``, a started ``producer`` or ``consumer``, ``process_msg_batch``)
are supplied by the test, each named where it is supplied, built from the same package the snippet runs
under. A snippet that loops forever is stopped once it printed (or processed) what was expected: a fragment
by cancelling it on its event loop, a program by running it in a subprocess stopped by its PID. Snippets
that cannot run here are in SKIPPED with the reason (and are still compiled, unless they are not Python).
"""
import ast
import asyncio
import contextlib
import os
import re
import subprocess
import sys
import threading
import time
import traceback

import pytest

pytest.importorskip("aiokafka")
pytest.importorskip("confluent_kafka")  # _peers reads the records back with it
import _peers  # noqa: E402
from aiokafka_doc_snippets import SNIPPETS  # noqa: E402
from _snippets import SnippetSet, unique  # noqa: E402

pytestmark = pytest.mark.timeout(120)

PACKAGES = {"aiokafka": "aiokafka", "face": "kafkacodec.compat.aiokafka"}
_SET = SnippetSet(SNIPPETS, PACKAGES)
RAN = _SET.ran  # the snippets the tests below run (checked against SNIPPETS by the last test)

SKIPPED = {
    "consumer_redis_state":
        "needs a Redis server and the aioredis package (its `aioredis.create_redis`), neither is here",
    "kafka_python_difference_poll":
        "pseudo-code of kafka-python's poll, not Python: `if ...` without its colon is a syntax error",
}
NOT_PYTHON = {"kafka_python_difference_poll"}


runs, _package, _code, _run, _each, _line_of = (_SET.runs, _SET.package, _SET.code, _SET.run, _SET.each,
                                                 _SET.line_of)
_unique = unique


def _records(bootstrap, topic, n, **conf):
    return [(key, value, partition, offset)
            for key, value, _h, _ts, offset, partition in _peers.consume_with_confluent(bootstrap, topic, n, **conf)]


@pytest.fixture(scope="module")
def mock():
    """librdkafka's mock cluster, for the snippets with idempotence or transactions: aiokafka's
    InitProducerId gets UnknownError from Tansu (the original cannot run them there), it runs them
    on the mock."""
    try:
        with _peers.mock_cluster(num_brokers=1) as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


# printed timestamps are the broker's clock at each run: they legitimately differ between the runs
_TIMESTAMP = re.compile(r"(timestamp(?:_ms)?=)\d+")


def _without_timestamps(text):
    return _TIMESTAMP.sub(r"\1<ts>", text)


def _program(name, impl, tmp_path, replacements, args=()):
    path = tmp_path / f"{name}_{impl}.py"
    path.write_text(_code(name, impl, replacements))
    return [sys.executable, "-u", str(path), *args]


def _lines_until(argv, enough, timeout=60):
    # printed sets in one order in both runs
    return _peers.printed_lines_until(argv, enough, timeout, env={**os.environ, "PYTHONHASHSEED": "0"})


def _finished(argv, timeout=60):
    """(exit status, stdout, the last line of stderr) of a program that ends by itself."""
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    return proc.returncode, proc.stdout, last


async def _started_producer(impl, bootstrap, **conf):
    producer = _package(impl).AIOKafkaProducer(bootstrap_servers=bootstrap, **conf)
    await producer.start()
    return producer


async def _stop(ns, *keys):
    for key in keys:
        if key in ns and hasattr(ns[key], "stop"):
            await ns[key].stop()


# --------------------------------------------------------------------------- producing programs

@runs("readme_producer", "index_producer")
@pytest.mark.parametrize("name", ["readme_producer", "index_producer"])
def test_send_one(tansu, name):
    def run(impl):
        topic = _unique("send-one")
        _peers.create_topic(tansu, topic, 1)
        result = _run(name, impl, [("'localhost:9092'", repr(tansu)), ('"my_topic"', repr(topic))])
        assert result.error is None, result.error
        return result.out, _records(tansu, topic, 1)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ("", [(None, b"Super message", 0, 0)])


@runs("docs_example_custom_partitioner")
def test_custom_partitioner(tansu):
    def run(impl):
        topic = _unique("foobar")
        _peers.create_topic(tansu, topic, 3)
        result = _run("docs_example_custom_partitioner", impl,
                      [("'localhost:9092'", repr(tansu)), ("'foobar'", repr(topic))])
        assert result.error is None, result.error
        return result.out, _records(tansu, topic, 3)
    both = _each(run)
    assert both["face"] == both["aiokafka"]
    out, records = both["aiokafka"]
    assert out.splitlines()[0] == "'1' produced in partition: 2" and out.splitlines()[2] == "'3' produced in partition: 0"
    assert sorted(value for _k, value, _p, _o in records) == [b"1", b"2", b"3"]


@runs("docs_example_batch_produce", "examples_batch_produce")
@pytest.mark.parametrize("name", ["docs_example_batch_produce", "examples_batch_produce"])
def test_batch_produce(tansu, name):
    """The program builds its producer without an address (aiokafka's default, localhost:9092): the
    test's broker address is given to it instead, the only change besides the topic."""
    def run(impl):
        topic = _unique("batch")
        _peers.create_topic(tansu, topic, 3)
        result = _run(name, impl, [("AIOKafkaProducer()", f"AIOKafkaProducer(bootstrap_servers={tansu!r})"),
                                   ('"my_topic"', repr(topic))])
        assert result.error is None, result.error
        records = _records(tansu, topic, 1000)
        return result.out, sorted(value for _k, value, _p, _o in records), [p for _k, _v, p, _o in records]
    both = _each(run)
    assert both["face"] == both["aiokafka"]
    out, values, _partitions = both["aiokafka"]
    assert sum(int(line.split()[0]) for line in out.splitlines()) == 1000 and len(out.splitlines()) > 1
    assert values == sorted(b"Test message %d" % i for i in range(1000))


@runs("docs_example_serialize_producer", "docs_example_serialize_consumer")
def test_serialize_and_compress(tansu):
    """The producer sends two JSON values gzip-compressed; the consumer (no group, from the earliest
    offset) prints them with their types."""
    def run(impl):
        topic = _unique("foobar")
        _peers.create_topic(tansu, topic, 1)
        produced = _run("docs_example_serialize_producer", impl,
                        [("'localhost:9092'", repr(tansu)), ("'foobar'", repr(topic))])
        assert produced.error is None, produced.error
        consumed = _run("docs_example_serialize_consumer", impl,
                        [("'localhost:9092'", repr(tansu)), ("'foobar'", repr(topic))])
        assert consumed.error is None, consumed.error
        return produced.out, consumed.out
    both = _each(run)
    assert both["face"] == both["aiokafka"] == (
        "", "<class 'dict'> {'a': 123.4, 'b': 'some string'}\n<class 'list'> [1, 2, 3, 4]\n")


@runs("examples_simple_produce", "examples_idempotent_produce")
@pytest.mark.parametrize("name, peer", [("examples_simple_produce", "tansu"),
                                        # librdkafka's mock answers with a log-append time: timestamp_type=1
                                        ("examples_idempotent_produce", "mock")])
def test_endless_producers(request, tmp_path, name, peer):
    """They send a message every second forever: run as programs, stopped after three prints. The
    printed RecordMetadata are the same but for their timestamps (the broker's clock)."""
    tansu = request.getfixturevalue(peer)

    def run(impl):
        topic = _unique("test-topic")
        _peers.create_topic(tansu, topic, 1)
        lines = _lines_until(_program(name, impl, tmp_path, [("'localhost:9092'", repr(tansu)),
                                                              ('"test-topic"', repr(topic))]),
                             lambda lines: len(lines) >= 3)
        return [_without_timestamps(line.replace(topic, "T")) for line in lines[:3]]
    both = _each(run)
    assert both["face"] == both["aiokafka"]
    assert len({line.split(" offset=")[1].split(",")[0] for line in both["aiokafka"]}) == 3
    assert all("log_start_offset=0" in line for line in both["aiokafka"]), both


@runs("examples_transactional_produce")
def test_transactional_produce(mock):
    tansu = mock  # see the mock fixture
    """It waits on input() inside the transaction, then raises ValueError: the transaction is aborted.
    Supplied: ``input``, returning at once (a user pressing Enter)."""
    def run(impl):
        topic = _unique("test-topic")
        _peers.create_topic(tansu, topic, 1)
        result = _run("examples_transactional_produce", impl,
                      [("'localhost:9092'", repr(tansu)), ('"test-topic"', repr(topic)),
                       ('"transactional_test"', repr(_unique("txn")))],
                      {"input": lambda: ""})
        committed = _peers.read_committed_with_kafkacodec(tansu, topic, 1, timeout=3.0)
        return result.out, result.outcome(), committed
    both = _each(run)
    assert both["face"] == both["aiokafka"]
    assert both["aiokafka"][:2] == ("", ("ValueError", _line_of("examples_transactional_produce", "raise ValueError")))
    assert not both["aiokafka"][2]


# --------------------------------------------------------------------------- producer.rst and api.rst fragments

@runs("producer_simple", "producer_idempotent")
@pytest.mark.parametrize("name, peer", [("producer_simple", "tansu"), ("producer_idempotent", "mock")])
def test_producer_fragments_send_one(request, name, peer):
    """Supplied: ``aiokafka``, the package the fragment runs under."""
    tansu = request.getfixturevalue(peer)

    def run(impl):
        topic = _unique("my_topic")
        _peers.create_topic(tansu, topic, 1)
        result = _run(name, impl, [("'localhost:9092'" if "'localhost:9092'" in SNIPPETS[name][1] else
                                    '"localhost:9092"', repr(tansu)), ('"my_topic"', repr(topic))],
                      {"aiokafka": _package(impl)})
        assert result.error is None, result.error
        return result.out, _records(tansu, topic, 1)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ("", [(None, b"Super message", 0, 0)])


@runs("producer_transaction")
def test_producer_transaction(mock):
    """Supplied: ``aiokafka``. The transaction commits: a read_committed reader sees the message."""
    tansu = mock  # see the mock fixture
    def run(impl):
        topic = _unique("test-topic")
        _peers.create_topic(tansu, topic, 1)
        result = _run("producer_transaction", impl,
                      [("'localhost:9092'", repr(tansu)), ('"test-topic"', repr(topic)),
                       ('"transactional_test"', repr(_unique("txn")))],
                      {"aiokafka": _package(impl)})
        assert result.error is None, result.error
        md = result.ns["res"]
        return result.out, (md.topic == topic, md.partition, md.offset), _records(
            tansu, topic, 1, isolation_level="read_committed")
    both = _each(run)
    assert both["face"] == both["aiokafka"]
    assert both["aiokafka"][1] == (True, 0, 0) and both["aiokafka"][2][0][1] == b"Super transactional message"


def _producer_setup(impl, bootstrap, **conf):
    async def setup(ns):
        ns["producer"] = await _started_producer(impl, bootstrap, **conf)
    return setup


async def _stop_producer(ns):
    await _stop(ns, "producer")


@runs("producer_send_future")
def test_producer_send_future(tansu):
    """Supplied: a started ``producer``; the topic has 2 partitions (the fragment sends to partition 1)."""
    def run(impl):
        topic = _unique("my_topic")
        _peers.create_topic(tansu, topic, 2)
        result = _run("producer_send_future", impl, [('"my_topic"', repr(topic))],
                      setup=_producer_setup(impl, tansu), after=_stop_producer)
        assert result.error is None, result.error
        msg = result.ns["msg"]
        return (msg.topic == topic, msg.partition, msg.offset), _records(tansu, topic, 1)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ((True, 1, 0), [(None, b"Super message", 1, 0)])


@runs("producer_batch")
def test_producer_batch(tansu):
    """Supplied: a started ``producer``; the topic has 2 partitions (the batch goes to partition 1)."""
    def run(impl):
        topic = _unique("my_topic")
        _peers.create_topic(tansu, topic, 2)
        result = _run("producer_batch", impl, [('"my_topic"', repr(topic))],
                      setup=_producer_setup(impl, tansu), after=_stop_producer)
        assert result.error is None, result.error
        record = result.ns["record"]
        return (record.topic == topic, record.partition, record.offset), _records(tansu, topic, 2)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ((True, 1, 0), [(None, b"msg 0", 1, 0), (None, b"msg 1", 1, 1)])


@runs("producer_send_wait_for")
def test_producer_send_wait_for(tansu):
    """``producer.send(...)`` is written with a literal Ellipsis for its arguments: given as the topic,
    both refuse it at the same line. Supplied: a started ``producer`` and ``timeout``."""
    def run(impl):
        result = _run("producer_send_wait_for", impl, names={"timeout": 5},
                      setup=_producer_setup(impl, tansu), after=_stop_producer)
        return result.outcome()
    both = _each(run)
    assert both["face"] == both["aiokafka"]
    assert both["aiokafka"][1] == 1


@runs("producer_send_offsets_to_transaction")
def test_producer_send_offsets_to_transaction(mock):
    """Supplied: a started transactional ``producer`` and ``TopicPartition``; the group's offset 100 is
    committed with the transaction; read back, it is None under both: the mock does not give a
    transaction's offsets to the group (confluent-kafka reads none back either)."""
    tansu = mock  # see the mock fixture

    def run(impl):
        topic, group = _unique("some-topic"), _unique("some-consumer-group")
        _peers.create_topic(tansu, topic, 1)
        result = _run("producer_send_offsets_to_transaction", impl,
                      [('"some-topic"', repr(topic)), ('"some-consumer-group"', repr(group))],
                      {"TopicPartition": _package(impl).TopicPartition},
                      setup=_producer_setup(impl, tansu, transactional_id=_unique("txn")), after=_stop_producer)
        assert result.error is None, result.error

        async def committed():
            consumer = _package("aiokafka").AIOKafkaConsumer(bootstrap_servers=tansu, group_id=group)
            await consumer.start()
            try:
                return await consumer.committed(_package("aiokafka").TopicPartition(topic, 0))
            finally:
                await consumer.stop()
        return result.out, asyncio.run(committed())
    both = _each(run)
    # librdkafka's mock does not hand a transaction's offsets to the group: both read None back
    assert both["face"] == both["aiokafka"] == ("", None)


@runs("api_error_handling")
def test_api_error_handling(tansu):
    """Supplied: a started ``producer``. The send succeeds: nothing is printed, the record is there."""
    def run(impl):
        topic = _unique("foobar")
        _peers.create_topic(tansu, topic, 1)
        result = _run("api_error_handling", impl, [("'foobar'", repr(topic))],
                      setup=_producer_setup(impl, tansu), after=_stop_producer)
        assert result.error is None, result.error
        response = result.ns["response"]
        return result.out, (response.partition, response.offset), _records(tansu, topic, 1)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ("", (0, 0), [(None, b"test data", 0, 0)])


# --------------------------------------------------------------------------- consumer.rst fragments

def _filled_topic(bootstrap, partitions=1, n=5, prefix="my_topic"):
    """A new topic with n records in partition 0, one batch each (Tansu's end offsets count a batch of
    several records as one)."""
    topic = _unique(prefix)
    _peers.create_topic(bootstrap, topic, partitions)

    async def fill():
        producer = _package("aiokafka").AIOKafkaProducer(bootstrap_servers=bootstrap)
        await producer.start()
        try:
            for i in range(n):
                await producer.send_and_wait(topic, f"v{i}".encode(), key=f"k{i}".encode(), partition=0)
        finally:
            await producer.stop()
    asyncio.run(fill())
    return topic


async def _stop_consumer(ns):
    await _stop(ns, "consumer", "consumer2")


class ProducedOnceStarted:
    """A stop_when: once the snippet made its ``consumer`` (and `delay` s later, for its start() and its
    offset reset to the latest), `n` records are produced to partition 0 of `topic`, one batch each (from a
    thread: the snippet's loop keeps running); the snippet is stopped when `done(ns, printed)`."""

    def __init__(self, bootstrap, topic, n, done, delay=3.0):
        self.bootstrap, self.topic, self.n, self.done, self.delay = bootstrap, topic, n, done, delay
        self.timer = None

    def produce(self):
        for i in range(self.n):
            _peers.produce_with_confluent(self.bootstrap, self.topic, [(f"k{i}".encode(), f"v{i}".encode())],
                                          partition=0)

    def __call__(self, ns, printed):
        if self.timer is None and "consumer" in ns:
            self.timer = threading.Timer(self.delay, self.produce)
            self.timer.start()
        return self.done(ns, printed)


def _printed_lines(n):
    return lambda ns, printed: printed.count("\n") >= n


def _last_offset(n):
    """The snippet's loop variable ``msg`` is the n-th record (its loop body prints nothing)."""
    return lambda ns, printed: getattr(ns.get("msg"), "offset", -1) >= n - 1


@runs("consumer_simple")
def test_consumer_simple(tansu):
    """It reads forever, from the latest offset (no group): records are produced once it started; stopped
    once it printed them. Supplied: ``aiokafka``; printed timestamps normalised (the broker's clock)."""
    def run(impl):
        topic = _unique("my_topic")
        _peers.create_topic(tansu, topic, 1)
        result = _run("consumer_simple", impl, [("'localhost:9092'", repr(tansu)), ('"my_topic"', repr(topic))],
                      {"aiokafka": _package(impl)}, after=_stop_consumer,
                      stop_when=ProducedOnceStarted(tansu, topic, 3, _printed_lines(3)))
        assert result.error is None and result.stopped, result.error
        return _without_timestamps(result.out.replace(topic, "T"))
    both = _each(run)
    assert both["face"] == both["aiokafka"] == "".join(
        f"T:0:{i}: key=b'k{i}' value=b'v{i}' timestamp_ms=<ts>\n" for i in range(3))


@runs("consumer_latest", "consumer_read_committed")
@pytest.mark.parametrize("name", ["consumer_latest", "consumer_read_committed"])
def test_consumer_from_the_latest_offset(tansu, name):
    """No group, from the latest offset (consumer_read_committed: read_committed, no transaction in flight):
    the records already there are not read; three produced once it started are, then it is stopped. Supplied:
    ``AIOKafkaConsumer`` / ``aiokafka``."""
    def run(impl):
        topic = _filled_topic(tansu)
        result = _run(name, impl, [("'localhost:9092'", repr(tansu)), ('"my_topic"', repr(topic))],
                      {"aiokafka": _package(impl), "AIOKafkaConsumer": _package(impl).AIOKafkaConsumer},
                      after=_stop_consumer,
                      stop_when=ProducedOnceStarted(tansu, topic, 3, lambda ns, out: ns.get("msg") is not None
                                                    and ns["msg"].value == b"v2"))
        assert result.error is None and result.stopped, result.error
        msg = result.ns["msg"]
        return result.out, (msg.partition, msg.key, msg.value)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ("", (0, b"k2", b"v2"))


def _committed(bootstrap, group, topic, partition=0):
    async def read():
        consumer = _package("aiokafka").AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=group)
        await consumer.start()
        try:
            return await consumer.committed(_package("aiokafka").TopicPartition(topic, partition))
        finally:
            await consumer.stop()
    return asyncio.run(read())


@runs("consumer_auto_commit")
@pytest.mark.slow  # about 10 s: a group on Tansu forms under each client in turn
def test_consumer_auto_commit(tansu):
    """A group member from the earliest offset, committing automatically; its loop body is ``pass``: stopped
    once its loop variable is the fifth record; the group's committed offset is then 5 (aiokafka commits on
    stop()). Supplied: ``AIOKafkaConsumer``."""
    topic = _filled_topic(tansu)

    def run(impl):
        group = _unique("my_group")
        result = _run("consumer_auto_commit", impl, [("'localhost:9092'", repr(tansu)), ('"my_topic"', repr(topic)),
                                                     ('"my_group"', repr(group))],
                      {"AIOKafkaConsumer": _package(impl).AIOKafkaConsumer}, after=_stop_consumer,
                      stop_when=_last_offset(5))
        assert result.error is None and result.stopped, result.error
        return result.out, result.ns["msg"].value, _committed(tansu, group, topic)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ("", b"v4", 5)


@runs("consumer_manual_commit")
@pytest.mark.slow  # about 10 s: a group on Tansu forms under each client in turn
def test_consumer_manual_commit(tansu):
    """Commits after each 100 records processed: 150 records; stopped once 100 were processed and committed
    (the batch emptied; aiokafka's ``async for`` hands out fetched records without giving the event loop a
    turn, so it may have taken the 50 others by then). Supplied: ``AIOKafkaConsumer`` and ``process_msg_batch`` recording what it gets."""
    topic = _filled_topic(tansu, n=150)

    def run(impl):
        group = _unique("my_group")
        processed = []

        async def process_msg_batch(batch):
            processed.extend(m.offset for m in batch)
        result = _run("consumer_manual_commit", impl, [("'localhost:9092'", repr(tansu)), ('"my_topic"', repr(topic)),
                                                       ('"my_group"', repr(group))],
                      {"AIOKafkaConsumer": _package(impl).AIOKafkaConsumer, "process_msg_batch": process_msg_batch},
                      after=_stop_consumer,
                      stop_when=lambda ns, out: len(processed) >= 100 and len(ns["batch"]) < 100)
        assert result.error is None and result.stopped, result.error
        return result.out, processed, _committed(tansu, group, topic)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ("", list(range(100)), 100)


@runs("consumer_group_two_processes")
@pytest.mark.slow  # about 10 s: a group on Tansu forms under each client in turn
def test_consumer_group_two_processes(tansu):
    """The two processes' code in one block: the first part's loop never ends, so it runs alone (as
    process 1), printing each record's partition, and is stopped after the five records. Group
    ``MyGreatConsumerGroup``, made unique, starts from offset 0 (committed beforehand: its reset would be
    to the latest). Supplied: ``AIOKafkaConsumer`` and ``os``; the printed pid is this process's under both."""
    topic = _filled_topic(tansu)

    def run(impl):
        group = _unique("MyGreatConsumerGroup")
        _commit_start(tansu, group, topic, 1)
        result = _run("consumer_group_two_processes", impl,
                      [("'localhost:9092'", repr(tansu)), ('"my_topic"', repr(topic)),
                       ('"MyGreatConsumerGroup"', repr(group))],
                      {"AIOKafkaConsumer": _package(impl).AIOKafkaConsumer, "os": os},
                      after=_stop_consumer, stop_when=_printed_lines(5))
        assert result.error is None and result.stopped, result.error
        return result.out, "consumer2" in result.ns
    both = _each(run)
    assert both["face"] == both["aiokafka"] == (f"Process {os.getpid()} consumed msg from partition 0\n" * 5, False)


@runs("consumer_pattern_subscribe")
def test_consumer_pattern_subscribe(tansu):
    """No group, subscribed by pattern (made unique per run), from the latest offset: three records produced
    to a matching topic once it started are printed, then it is stopped. Supplied: ``AIOKafkaConsumer``."""
    def run(impl):
        prefix = _unique("MyGreatTopic")
        topic = f"{prefix}-a"
        _peers.create_topic(tansu, topic, 1)
        result = _run("consumer_pattern_subscribe", impl, [("'localhost:9092'", repr(tansu)),
                                                           ('"^MyGreatTopic-.*$"', repr(f"^{prefix}-.*$"))],
                      {"AIOKafkaConsumer": _package(impl).AIOKafkaConsumer}, after=_stop_consumer,
                      stop_when=ProducedOnceStarted(tansu, topic, 3, _printed_lines(3)))
        assert result.error is None and result.stopped, result.error
        return result.out.replace(topic, "T")
    both = _each(run)
    assert both["face"] == both["aiokafka"] == "".join(f"Consumed msg T 0 b'v{i}'\n" for i in range(3))


@runs("consumer_last_stable_offset")
def test_consumer_last_stable_offset(tansu):
    """Supplied: ``TopicPartition`` and a started ``consumer`` assigned partition 0 from its first offset,
    with read_committed. Its loop prints the lag behind the last stable offset for each record and never
    ends: stopped after the eight records (the lines after the loop are not reached; aiokafka's ``async for``
    hands out fetched records without giving the event loop a turn, so it is stopped after all)."""
    topic = _filled_topic(tansu, n=8)

    def run(impl):
        result = _run("consumer_last_stable_offset", impl, names={"TopicPartition": _package(impl).TopicPartition},
                      setup=_assigned_consumer_setup(impl, tansu, topic, isolation_level="read_committed"),
                      after=_stop_consumer, stop_when=_printed_lines(8))
        assert result.error is None and result.stopped, result.error
        return result.out
    both = _each(run)
    assert both["face"] == both["aiokafka"] == "".join(f"Consumer is behind by {8 - i} messages\n" for i in range(8))


# --------------------------------------------------------------------------- example programs that consume

def _commit_start(bootstrap, group, topic, partitions):
    """Commits offset 0 of each partition for `group`: its members then start at the first record
    (with no commit, a group's reset here would be to the latest)."""
    from confluent_kafka import Consumer, TopicPartition
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        consumer.commit(offsets=[TopicPartition(topic, p, 0) for p in range(partitions)], asynchronous=False)
    finally:
        consumer.close()


@runs("readme_consumer")
@pytest.mark.parametrize("name", ["readme_consumer"])
@pytest.mark.slow  # about 10 s: a group on Tansu forms under each client in turn
def test_group_consumer_of_two_topics(tansu, tmp_path, name):
    """It reads two topics in a group forever: run as a program, stopped once it printed every record.
    The group (made unique) has offset 0 committed beforehand. Lines sorted (the two topics' records
    interleave as fetched); timestamps normalised (the broker's clock)."""
    topics = [_filled_topic(tansu, n=4), _filled_topic(tansu, n=3, prefix="my_other_topic")]

    def run(impl):
        group = _unique("my-group")
        for topic in topics:
            _commit_start(tansu, group, topic, 1)
        argv = _program(name, impl, tmp_path, [("'localhost:9092'", repr(tansu)), ("'my_topic'", repr(topics[0])),
                                               ("'my_other_topic'", repr(topics[1])), ('"my-group"', repr(group))])
        lines = _lines_until(argv, lambda lines: len(lines) >= 7)
        return sorted(re.sub(r"\d{10,}$", "<ts>", line).replace(topics[0], "T0").replace(topics[1], "T1")
                      for line in lines)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == sorted(
        [f"consumed:  T0 0 {i} b'k{i}' b'v{i}' <ts>" for i in range(4)] +
        [f"consumed:  T1 0 {i} b'k{i}' b'v{i}' <ts>" for i in range(3)])


@runs("examples_simple_consumer")
def test_simple_consumer_program(tansu, tmp_path):
    """No group, from the latest offset, forever: run as a program while a record is produced every 0.5 s;
    stopped after three prints. Which records come first depends on when it started: compared are that
    each prints consecutive records' values, in order."""
    def run(impl):
        topic = _unique("my_topic")
        _peers.create_topic(tansu, topic, 1)
        argv = _program("examples_simple_consumer", impl, tmp_path,
                        [("'localhost:9092'", repr(tansu)), ('"my_topic"', repr(topic))])
        produced = iter(range(1000))
        last = [time.monotonic()]

        def enough(lines):
            if time.monotonic() - last[0] > 0.5:
                last[0] = time.monotonic()
                _peers.produce_with_confluent(tansu, topic, [(None, f"{next(produced)}".encode())], partition=0)
            return len(lines) >= 3
        lines = _lines_until(argv, enough)[:3]
        assert all(re.fullmatch(r"b'\d+'", line) for line in lines), lines
        first = int(lines[0][2:-1])
        return [int(line[2:-1]) - first for line in lines]
    both = _each(run)
    assert both["face"] == both["aiokafka"] == [0, 1, 2]


@runs("docs_example_group_producer", "docs_example_group_consumer")
def test_group_example_programs(tansu, tmp_path):
    """producer.py <partition> <message>, four times as the page runs it, and once without arguments
    (its usage line, exit status 1); consumer.py <group_id> <count> calls ``consume(group_id, msg_cnt)``
    of a consume() that takes no arguments: the same TypeError under both."""
    def run(impl):
        topic = _unique("some-topic")
        _peers.create_topic(tansu, topic, 2)
        replacements = [("'localhost:9092'", repr(tansu)), ("'some-topic'", repr(topic))]
        producer = _program("docs_example_group_producer", impl, tmp_path, replacements)
        runs_ = [_finished(producer + [p, m]) for p, m in
                 [("0", "message #1"), ("0", "message #2"), ("1", "message #3"), ("1", "message #4")]]
        runs_.append(_finished(producer))
        consumer = _finished(_program("docs_example_group_consumer", impl, tmp_path, replacements)
                             + ["TEST_GROUP", "2"])
        return runs_, consumer, _records(tansu, topic, 4)
    both = _each(run)
    assert both["face"] == both["aiokafka"]
    runs_, consumer, records = both["aiokafka"]
    assert runs_[:4] == [(0, "", "")] * 4 and runs_[4][:2] == (1, "usage: producer.py <partition> <message>\n")
    assert consumer[0] == 1 and consumer[2].startswith("TypeError: consume() takes 0 positional arguments")
    assert records == [(None, b"message #1", 0, 0), (None, b"message #2", 0, 1), (None, b"message #3", 1, 0),
                       (None, b"message #4", 1, 1)]


@runs("docs_example_manual_commit")
@pytest.mark.slow  # about 10 s: a group on Tansu forms under each client in turn
def test_manual_commit_program(tansu):
    """Reads 10 records in a group from the earliest offset, commits, stops: the group's committed offset is 10."""
    topic = _filled_topic(tansu, n=12, prefix="foobar")

    def run(impl):
        group = _unique("some-consumer-group")
        result = _run("docs_example_manual_commit", impl, [("'localhost:9092'", repr(tansu)), ("'foobar'", repr(topic)),
                                                           ('"some-consumer-group"', repr(group))])
        assert result.error is None, result.error
        return result.out, _committed(tansu, group, topic)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ("", 10)


@runs("examples_local_state_consumer")
@pytest.mark.parametrize("name", ["examples_local_state_consumer"])
@pytest.mark.slow  # about 10 s: a group on Tansu forms under each client in turn
def test_local_state_consumer(tansu, tmp_path, name):
    """Run as a program (its main guard open), in a group, keeping its state in files (made per run under
    the test's directory): no state yet, so its listener seeks each partition to the beginning; stopped once
    it processed the six records. Printed: the empty revocation, the assignment (a set: the programs run
    with one PYTHONHASHSEED), and each record's partition and key."""
    topic = _unique("test")
    _peers.create_topic(tansu, topic, 2)
    _peers.produce_with_confluent(tansu, topic, [(f"{i}".encode(), b"x", None, None, i % 2) for i in range(6)])

    def run(impl):
        state = tmp_path / impl
        state.mkdir()
        argv = _program(name, impl, tmp_path, [("'localhost:9092'", repr(tansu)), ('["test"]', repr([topic])),
                                               ('"my_group"', repr(_unique("my_group"))),
                                               ('"/tmp/my-partition-state-', '"' + str(state) + "/my-partition-state-")])
        lines = _lines_until(argv, lambda lines: sum(line.startswith("Process") for line in lines) >= 6)
        return [line.replace(topic, "T") for line in lines[:2]], sorted(line.replace(topic, "T") for line in lines[2:])
    both = _each(run)
    assert both["face"] == both["aiokafka"]
    head, processed = both["aiokafka"]
    assert head[0] == "Revoked set()" and head[1].startswith("Assigned {TopicPartition(topic='T'")
    assert processed == sorted(f"Process TopicPartition(topic='T', partition={i % 2}) {i}" for i in range(6))


@runs("docs_example_transaction")
@pytest.mark.slow  # about a minute: the example waits on the mock's transaction timeouts
def test_transaction_example(mock):
    """Consume-transform-produce in transactions (on the mock: see its fixture). Its main guard stays shut:
    the test calls transactional_process() once the names are defined, and cancels it once the counts are in
    the output topic (its loop never ends). The input records have fixed timestamps, so the per-minute counts
    are known; the group has offset 0 committed beforehand."""
    def run(impl):
        in_topic, out_topic = _unique("in_topic"), _unique("out_topic")
        _peers.create_topic(mock, in_topic, 1)
        _peers.create_topic(mock, out_topic, 1)
        group = _unique("processing-group")
        _commit_start(mock, group, in_topic, 1)  # its reset would be to the latest
        minute = 1_700_000_040_000
        _peers.produce_with_confluent(mock, in_topic, [(b"a", b"1", None, minute), (b"a", b"2", None, minute + 1000),
                                                       (b"b", b"3", None, minute + 61_000)])
        got = []

        async def process(ns):
            task = asyncio.ensure_future(ns["transactional_process"]())
            deadline = time.monotonic() + 40
            try:
                while not got and not task.done() and time.monotonic() < deadline:
                    got.extend(await asyncio.to_thread(_peers.read_committed_with_kafkacodec, mock, out_topic, 1,
                                                       1.0, 2))
            finally:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        result = _run("docs_example_transaction", impl,
                      [('"in_topic"', repr(in_topic)), ('"out_topic"', repr(out_topic)),
                       ('"processing-group"', repr(group)),
                       ('"my-txn-id"', repr(_unique("my-txn-id"))), ('"localhost:9092"', repr(mock))],
                      in_loop=True, after=process)
        assert result.error is None, result.error
        return sorted((r.key, r.value, r.timestamp) for r in got)
    both = _each(run)
    assert both["face"] == both["aiokafka"] == [(b"a", b"2", 1_700_000_040_000), (b"b", b"1", 1_700_000_100_000)]


def _assigned_consumer_setup(impl, bootstrap, topic, **conf):
    """A started ``consumer`` (no group) assigned partition 0 of `topic`, from its first offset."""
    async def setup(ns):
        mod = _package(impl)
        consumer = mod.AIOKafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest", **conf)
        await consumer.start()
        consumer.assign([mod.TopicPartition(topic, 0)])
        ns["consumer"] = consumer
    return setup


@runs("consumer_position_committed")
def test_consumer_position_committed(tansu):
    """Supplied: ``aiokafka`` and a started ``consumer`` assigned partition 0 (no group: committed is None)."""
    topic = _filled_topic(tansu)

    def run(impl):
        result = _run("consumer_position_committed", impl, names={"aiokafka": _package(impl)},
                      setup=_assigned_consumer_setup(impl, tansu, topic), after=_stop_consumer)
        return result.out, result.outcome()
    both = _each(run)
    assert both["face"] == both["aiokafka"]


@runs("consumer_seek_reconsume")
def test_consumer_seek_reconsume(tansu):
    """Supplied: ``TopicPartition`` and a started ``consumer`` assigned partition 0; the record read
    again equals the first one."""
    topic = _filled_topic(tansu)

    def run(impl):
        result = _run("consumer_seek_reconsume", impl, names={"TopicPartition": _package(impl).TopicPartition},
                      setup=_assigned_consumer_setup(impl, tansu, topic), after=_stop_consumer)
        assert result.error is None, result.error
        msg = result.ns["msg2"]
        return msg.offset, msg.key, msg.value
    both = _each(run)
    assert both["face"] == both["aiokafka"] == (0, b"k0", b"v0")


@runs("consumer_commit_per_partition")
@pytest.mark.slow  # about 10 s: a group on Tansu forms under each client in turn
def test_consumer_commit_per_partition(tansu):
    """An endless getmany loop: stopped once the five records were processed. Supplied: a started
    ``consumer`` in a group, assigned partition 0, and ``process_msg_batch`` that records what it gets."""
    topic = _filled_topic(tansu)

    def run(impl):
        processed = []
        group = _unique("commit-group")

        async def process_msg_batch(messages):
            processed.extend((m.offset, m.value) for m in messages)

        async def committed():
            consumer = _package("aiokafka").AIOKafkaConsumer(bootstrap_servers=tansu, group_id=group)
            await consumer.start()
            try:
                return await consumer.committed(_package("aiokafka").TopicPartition(topic, 0))
            finally:
                await consumer.stop()
        result = _run("consumer_commit_per_partition", impl, names={"process_msg_batch": process_msg_batch},
                      setup=_assigned_consumer_setup(impl, tansu, topic, group_id=group, enable_auto_commit=False),
                      after=_stop_consumer,
                      stop_when=lambda ns, out: len(processed) >= 5 and ns.get("tp") is not None)
        assert result.error is None and result.stopped, result.error
        return processed, asyncio.run(committed())
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ([(i, f"v{i}".encode()) for i in range(5)], 5)


def _same_error_as_unstarted_aiokafka(both):
    """Reading from a consumer never started: aiokafka fails inside, with an AttributeError ("'NoneType'
    object has no attribute ...": its fetcher is made by start()); the face raises an AttributeError
    too (NotStartedError, saying to call start() first) at the same line of the snippet."""
    (a_error, a_line), (f_error, f_line) = both["aiokafka"], both["face"]
    assert type(a_error) is AttributeError and "'NoneType' object has no attribute" in str(a_error), a_error
    assert isinstance(f_error, AttributeError) and "call await start() first" in str(f_error), f_error
    assert a_line == f_line and a_line is not None


@runs("consumer_manual_assign")
def test_consumer_manual_assign(tansu):
    """The fragment assigns and iterates a consumer it never started. Supplied: ``TopicPartition``
    and ``AIOKafkaConsumer``."""
    def run(impl):
        topic = _unique("my_topic")
        _peers.create_topic(tansu, topic, 3)
        result = _run("consumer_manual_assign", impl,
                      [("'localhost:9092'", repr(tansu)), ('"my_topic"', repr(topic))],
                      {"TopicPartition": _package(impl).TopicPartition,
                       "AIOKafkaConsumer": _package(impl).AIOKafkaConsumer},
                      after=_stop_consumer, stop_when=lambda ns, out: bool(out))
        assert result.out == "" and not result.stopped
        return result.error, result.line
    _same_error_as_unstarted_aiokafka(_each(run))


@runs("consumer_prioritize_lagging")
def test_consumer_prioritize_lagging():
    """``AIOKafkaConsumer("my_topic", ...)``: the documentation's Ellipsis stands for more arguments;
    taken literally it is a second topic. The consumer is never started; getmany is called on it.
    Supplied: ``AIOKafkaConsumer``."""
    def run(impl):
        result = _run("consumer_prioritize_lagging", impl, names={"AIOKafkaConsumer": _package(impl).AIOKafkaConsumer},
                      in_loop=True, after=_stop_consumer)
        return result.error, result.line
    _same_error_as_unstarted_aiokafka(_each(run))


@runs("consumer_rebalance_lock")
def test_consumer_rebalance_lock():
    """``AIOKafkaConsumer(...)`` (the Ellipsis taken literally as a topic) and a listener class are made;
    the snippet defines main() without calling it: the test calls it (bounded to 10 s). Its
    ``subscribe("topic", ...)`` gives a string for the list of topics: refused with the same TypeError.
    Supplied: ``AIOKafkaConsumer``, ``aiokafka`` and ``asyncio``."""
    def run(impl):
        outcome = []

        async def call_main(ns):
            try:
                await asyncio.wait_for(ns["main"](), 10)
                outcome.append((None, None, ""))
            except Exception as exc:
                lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__)
                         if f.filename == f"<consumer_rebalance_lock:{impl}>"]
                outcome.append((type(exc).__name__, lines[-1] if lines else None, str(exc)))
            finally:
                await _stop_consumer(ns)
        result = _run("consumer_rebalance_lock", impl,
                      names={"AIOKafkaConsumer": _package(impl).AIOKafkaConsumer, "aiokafka": _package(impl),
                             "asyncio": asyncio}, in_loop=True, after=call_main)
        assert result.outcome() == (None, None), result.error
        return outcome[0]
    both = _each(run)
    assert both["face"] == both["aiokafka"] == (
        "TypeError", _line_of("consumer_rebalance_lock", "consumer.subscribe("), "Topics should be list of strings")


@runs("consumer_client_rack")
def test_consumer_client_rack():
    """Only builds a consumer (never started) for three brokers that do not resolve here. Supplied: ``aiokafka``."""
    def run(impl):
        result = _run("consumer_client_rack", impl, names={"aiokafka": _package(impl)}, in_loop=True,
                      after=_stop_consumer)
        return result.outcome(), type(result.ns.get("consumer")).__name__
    both = _each(run)
    assert both["face"] == both["aiokafka"] == ((None, None), "AIOKafkaConsumer")


# --------------------------------------------------------------------------- SSL

@runs("docs_example_ssl_consume_produce")
def test_ssl_example_of_the_docs():
    """The page's copy imports TopicPartition from aiokafka.errors, which has none: the same ImportError
    at the same line under both, before any certificate is read."""
    both = _each(lambda impl: (*_run("docs_example_ssl_consume_produce", impl).outcome(),))
    assert both["face"] == both["aiokafka"] == (
        "ImportError", _line_of("docs_example_ssl_consume_produce", "from aiokafka.errors import TopicPartition"))


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory):
    """The files the SSL example reads from its directory: ./ca-cert (the broker's self-signed
    certificate, its own CA), ./cert-signed and ./cert-key (a client certificate and its key, encrypted
    with the example's password 123123)."""
    directory = tmp_path_factory.mktemp("ssl-example")
    try:
        cert, key = _peers.self_signed_cert(str(directory))
        subprocess.run(["openssl", "rsa", "-aes256", "-in", key, "-out", str(directory / "cert-key"),
                        "-passout", "pass:123123"], check=True, capture_output=True, timeout=60)
    except (_peers.PeerUnavailable, OSError, subprocess.SubprocessError) as e:
        pytest.skip(f"no certificate: {e}")
    (directory / "ca-cert").write_bytes(open(cert, "rb").read())
    (directory / "cert-signed").write_bytes(open(cert, "rb").read())
    return directory, cert, key


@runs("examples_ssl_consume_produce")
def test_ssl_example_program(tls_files, tmp_path):
    """Run as a program in the directory of its certificate files, against Tansu behind a TLS front (its
    address instead of localhost:9093). Its producer sends over TLS; its consumer, subscribed without a
    group, seeks right after start(), before the subscription's partitions are assigned: both raise
    IllegalStateError there (exit status 1, nothing printed; the messages' wording differs)."""
    directory, cert, key = tls_files
    with _peers.tansu_behind_tls(cert, key) as bootstrap:
        def run(impl):
            topic = _unique("my_topic")
            # the topic is created by the broker when the program's producer asks for it
            argv = _program("examples_ssl_consume_produce", impl, tmp_path,
                            [("'localhost:9093'", repr(bootstrap)), ("'my_topic'", repr(topic))])
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=directory)
            lines = [int(m.group(1)) for m in re.finditer(rf'File "{re.escape(argv[2])}", line (\d+)', proc.stderr)]
            last = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
            return proc.returncode, proc.stdout, last.split(":")[0].rsplit(".", 1)[-1], lines[-1:]
        both = _each(run)
    assert both["face"] == both["aiokafka"] == (
        1, "", "IllegalStateError", [_line_of("examples_ssl_consume_produce", "consumer.seek(")])


# --------------------------------------------------------------------------- not run here


@pytest.mark.parametrize("name", sorted(SKIPPED))
def test_snippets_not_run_here(name):
    if name in NOT_PYTHON:
        with pytest.raises(SyntaxError):
            compile(SNIPPETS[name][1], name, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    else:
        compile(SNIPPETS[name][1], name, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    pytest.skip(f"{name} ({SNIPPETS[name][0]}): {SKIPPED[name]}")


def test_every_snippet_is_run_or_skipped_with_its_reason():
    assert not RAN & set(SKIPPED)
    assert RAN | set(SKIPPED) == set(SNIPPETS), sorted(set(SNIPPETS) - RAN - set(SKIPPED))
