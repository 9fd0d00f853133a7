"""The code snippets of kafka-python's documentation (README.rst, docs/high_level.rst) and its example.py
(the text is in kafka_python_doc_snippets.py with the commit it comes from) run unchanged but for their
import lines, the broker address and placeholder topic and group names, under kafka-python and under
the face, against the same Tansu broker: what they print, what they produce or consume and what they
raise must be the same.

Where a snippet is a fragment (``producer.send(...)`` after a constructor in another block), the names
it uses without defining them are supplied by the test, each named where it is supplied. Where a
constructor names no broker (kafka-python's default is localhost:9092), the broker address is added to
its keywords; where a consumer loop would wait forever, ``consumer_timeout_ms`` is added the same way,
or the snippet runs as a program stopped once it printed what was expected. Snippets that cannot run
here are in SKIPPED with the reason (and are compiled); where the face still differs from kafka-python
the test says how, as a strict xfail.
"""
import logging
import re
import subprocess
import sys
import threading

import pytest

pytest.importorskip("kafka")
pytest.importorskip("confluent_kafka")  # _peers reads and writes records with it, a third client
import _peers  # noqa: E402
from kafka_python_doc_snippets import SNIPPETS  # noqa: E402
from _snippets import SnippetSet, unique  # noqa: E402

pytestmark = pytest.mark.timeout(120)

PACKAGES = {"kp": "kafka", "face": "kafkacodec.compat.kafka_python"}
_SET = SnippetSet(SNIPPETS, PACKAGES)
RAN = _SET.ran  # the snippets the tests below run (checked against SNIPPETS by the last test)
# a consumer given here ends its iteration after this long without a record
IDLE_MS = 3000

# name: why it cannot run here (each would be compiled and reported as a skip); every snippet of the
# commit runs against Tansu: none needs certificates, SASL or a service other than the broker
SKIPPED = {}


runs, _package, _code, _run, _each, _line_of = (_SET.runs, _SET.package, _SET.code, _SET.run, _SET.each,
                                                 _SET.line_of)
_unique = unique


def _with(call, **keywords):
    """A replacement adding keywords to a constructor call written as `call` in the snippet."""
    assert call.endswith(")")
    return call, call[:-1] + (", " if not call.endswith("()") else "") + ", ".join(
        f"{k}={v!r}" for k, v in keywords.items()) + ")"


def _topic(bootstrap, prefix, partitions=1):
    topic = _unique(prefix)
    _peers.create_topic(bootstrap, topic, partitions)
    return topic


def _records(bootstrap, topic, n, **conf):
    """The first n records of the topic as a third client (confluent-kafka) reads them."""
    return [(key, value, headers, partition, offset)
            for key, value, headers, _ts, offset, partition in _peers.consume_with_confluent(bootstrap, topic, n,
                                                                                              **conf)]


TIMESTAMP = re.compile(r"timestamp=\d+")
LEADER_EPOCH = re.compile(r"leader_epoch=-?\d+")


def _printed(out, *topics):
    """What a snippet printed, with its topic names as T0, T1... and record timestamps as T: the broker
    stamps each record when it appends it (LogAppendTime) or the producer does (CreateTime), at a
    different time in each run."""
    for i, topic in enumerate(topics):
        out = out.replace(topic, f"T{i}")
    return TIMESTAMP.sub("timestamp=T", out)


def _consumer(impl, bootstrap, topic, **conf):
    """A consumer of the topic from its beginning, ending after IDLE_MS without a record."""
    kp = _package(impl)
    consumer = kp.KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                                consumer_timeout_ms=IDLE_MS, **conf)
    return consumer


def _producer(impl, bootstrap, **conf):
    return _package(impl).KafkaProducer(bootstrap_servers=bootstrap, **conf)


# --------------------------------------------------------------------------- README.rst: KafkaConsumer

def _produced(bootstrap, topic, values, **kw):
    _peers.produce_with_confluent(bootstrap, topic, [(None, v) for v in values], **kw)


@runs("readme_consumer")
def test_readme_consumer(tansu):
    """Added to the constructor: the broker, consumer_timeout_ms (the loop ends after IDLE_MS without a
    record) and auto_offset_reset='earliest' (the records are there before it starts)."""
    def run(impl):
        topic = _topic(tansu, "readme-consumer")
        _produced(tansu, topic, [b"one", b"two", b"three"])
        result = _run("readme_consumer", impl, [
            ("'my_favorite_topic')", f"{topic!r}, bootstrap_servers={tansu!r}, consumer_timeout_ms={IDLE_MS}, "
                                     "auto_offset_reset='earliest')")],
            after=lambda ns: ns["consumer"].close())
        assert result.error is None, result.error
        return _printed(result.out, topic)
    both = _each(run)
    assert both["face"] == both["kp"]
    assert both["kp"].count("ConsumerRecord(topic='T0', partition=0") == 3 and "value=b'three'" in both["kp"]


def test_consumer_record_leader_epoch(tansu):
    """A ConsumerRecord's leader_epoch is its batch's partition leader epoch, under both."""
    def run(impl):
        topic = _topic(tansu, "epoch")
        _produced(tansu, topic, [b"one"])
        consumer = _consumer(impl, tansu, topic)
        try:
            return [msg.leader_epoch for msg in consumer]
        finally:
            consumer.close()
    both = _each(run)
    assert both["face"] == both["kp"] == [0]


@runs("readme_consumer_group")
@pytest.mark.slow  # about 45 s: a group joined twice on Tansu
def test_readme_consumer_group(tansu, tmp_path):
    """It iterates forever in a group: it runs as a program (the broker and auto_offset_reset='earliest'
    added to its constructor), stopped once it printed every record."""
    values = [b"v%d" % i for i in range(6)]
    topic = _topic(tansu, "readme-group", 2)
    _peers.produce_with_confluent(tansu, topic, [(None, v, None, None, i % 2) for i, v in enumerate(values)])

    def run(impl):
        path = tmp_path / f"group_{impl}.py"
        group = _unique("readme-group")
        path.write_text(_code("readme_consumer_group", impl, [
            ("'my_favorite_topic', group_id='my_favorite_group')",
             f"{topic!r}, group_id={group!r}, bootstrap_servers={tansu!r}, auto_offset_reset='earliest')")]))
        lines = _peers.printed_lines_until([sys.executable, "-u", str(path)], lambda lines: len(lines) >= len(values),
                                           timeout=90)
        return sorted(_printed(line, topic) for line in lines)
    both = _each(run)
    assert both["face"] == both["kp"]
    assert len(both["kp"]) == len(values) and all(line.startswith("ConsumerRecord(topic='T0'") for line in both["kp"])


@runs("readme_consumer_assign")
def test_readme_consumer_assign(tansu):
    """next(consumer) starts at the end of partition 2 (no group, auto_offset_reset 'latest'): the test
    sends a record to it every 0.2 s until the snippet has its message."""
    def run(impl):
        topic = _topic(tansu, "readme-assign", 3)
        stop = threading.Event()

        def feed():
            producer = _producer("kp", tansu)
            while not stop.is_set():
                producer.send(topic, b"fed", partition=2)
                producer.flush()
                stop.wait(0.2)
            producer.close()
        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        try:
            result = _run("readme_consumer_assign", impl, [("'localhost:1234'", repr(tansu)),
                                                           ("'foobar'", repr(topic))],
                          after=lambda ns: ns["consumer"].close() if "consumer" in ns else None)
        finally:
            stop.set()
            feeder.join(10)
        assert result.error is None, result.error
        msg = result.ns["msg"]
        return type(msg).__name__, msg.topic == topic, msg.partition, msg.key, msg.value, msg.headers
    both = _each(run)
    assert both["face"] == both["kp"] == ("ConsumerRecord", True, 2, None, b"fed", [])


@runs("readme_json_consumer")
def test_readme_json_consumer(tansu):
    """Added: the broker, auto_offset_reset='earliest' and consumer_timeout_ms; every value is a dict
    (the snippet asserts it), and it reads all of them."""
    def run(impl):
        topic = _topic(tansu, "json-foo")
        _produced(tansu, topic, [b'{"foo": "bar"}', b'{"n": 1}'])
        positions = []

        def after(ns):
            consumer = ns["consumer"]
            positions.extend(sorted((tp.partition, consumer.position(tp)) for tp in consumer.assignment()))
            consumer.close()
        result = _run("readme_json_consumer", impl, [
            _with("KafkaConsumer(value_deserializer=JsonSerializer())", bootstrap_servers=tansu,
                  auto_offset_reset="earliest", consumer_timeout_ms=IDLE_MS),
            ("'json-foo'", repr(topic))], after=after)
        return result.outcome(), result.ns["msg"].value, positions
    both = _each(run)
    assert both["face"] == both["kp"] == ((None, None), {"n": 1}, [(0, 2)])


@runs("readme_consumer_headers")
def test_readme_consumer_headers(tansu):
    """Supplied: `consumer`, reading the topic from its beginning, ending after IDLE_MS."""
    def run(impl):
        topic = _topic(tansu, "readme-headers")
        _peers.produce_with_confluent(tansu, topic, [(None, b"a", [("content-encoding", b"base64")]),
                                                     (None, b"b", []), (None, b"c", [("x", b"1"), ("y", b"")])])
        consumer = _consumer(impl, tansu, topic)
        result = _run("readme_consumer_headers", impl, names={"consumer": consumer},
                      after=lambda ns: consumer.close())
        assert result.error is None, result.error
        return result.out
    both = _each(run)
    assert both["face"] == both["kp"] == "[('content-encoding', b'base64')]\n[]\n[('x', b'1'), ('y', b'')]\n"


@runs("readme_read_committed")
def test_readme_read_committed(tansu):
    """A committed and an aborted transaction are on the topic, then a plain record; added: the broker,
    auto_offset_reset and consumer_timeout_ms. The face prints the committed records only; kafka-python
    also prints the aborted one here, because Tansu answers Fetch without the list of aborted
    transactions, which is all kafka-python (as Java's client) filters by, while kafkacodec reads the
    transactions' markers. So the face's output is kafka-python's without that line (and if Tansu sends
    the list one day, kafka-python's output loses it too, and this test says so)."""
    def run(impl):
        topic = _topic(tansu, "txn-topic")
        _peers.produce_with_confluent(tansu, topic, [(None, b"committed")], transactional_id=_unique("tx"))
        _peers.produce_with_confluent(tansu, topic, [(None, b"aborted")], transactional_id=_unique("tx"), abort=True)
        _peers.produce_with_confluent(tansu, topic, [(None, b"after")])
        result = _run("readme_read_committed", impl, [
            _with("KafkaConsumer(isolation_level=IsolationLevel.READ_COMMITTED)", bootstrap_servers=tansu,
                  auto_offset_reset="earliest", consumer_timeout_ms=IDLE_MS),
            ("'txn_topic'", repr(topic))], after=lambda ns: ns["consumer"].close())
        assert result.error is None, result.error
        return _printed(result.out, topic).splitlines()
    both = _each(run)
    aborted = [line for line in both["kp"] if "value=b'aborted'" in line]
    assert len(aborted) == 1, both["kp"]
    assert both["face"] == [line for line in both["kp"] if line not in aborted]
    assert [re.search(r"value=(b'\w+')", line).group(1) for line in both["face"]] == ["b'committed'", "b'after'"]


@runs("readme_consumer_metrics", "readme_producer_metrics")
@pytest.mark.parametrize("name", ["readme_consumer_metrics", "readme_producer_metrics"])
def test_readme_metrics(tansu, name):
    """Supplied: the client, after it fetched or sent a record. Compared: kafka-python's layout, a
    dict of groups, each {metric name: float}; the face's groups are kafka-python's (per connection,
    per topic) and each group's names are among kafka-python's. Not the values, which measure each
    client's own internals."""
    def run(impl):
        topic = _topic(tansu, "metrics")
        client = _producer(impl, tansu)
        client.send(topic, b"x").get(30)
        if name == "readme_consumer_metrics":
            client.close()
            client = _consumer(impl, tansu, topic)
            next(client)
        result = _run(name, impl, names={name.split("_")[1]: client}, after=lambda ns: client.close())
        assert result.error is None, result.error
        metrics = result.ns["metrics"]
        assert type(metrics) is dict
        assert all(type(value) is float for values in metrics.values() for value in values.values()), metrics
        kinds: dict[str, set[str]] = {}
        for group, values in metrics.items():
            kind = re.sub(r"^(.*-node-metrics)\.node-(bootstrap-|coordinator-)?\d+$", r"\1.node-\2N", group)
            kinds.setdefault(kind.replace(topic, "T"), set()).update(values)
        return kinds
    both = _each(run)
    assert set(both["face"]) <= set(both["kp"]), (both["face"], both["kp"])
    for kind, names in both["face"].items():
        assert names <= both["kp"][kind], (kind, names - both["kp"][kind])
    main = "consumer-fetch-manager-metrics" if name == "readme_consumer_metrics" else "producer-metrics"
    assert len(both["face"][main]) >= 5
    per = "consumer-node-metrics.node-N" if name == "readme_consumer_metrics" else "producer-topic-metrics.T"
    assert per in both["face"]


# --------------------------------------------------------------------------- README.rst: KafkaProducer

@runs("readme_producer")
def test_readme_producer(tansu):
    def run(impl):
        topic = _topic(tansu, "foobar")
        result = _run("readme_producer", impl, [("'localhost:1234'", repr(tansu)), ("'foobar'", repr(topic))],
                      after=lambda ns: ns["producer"].close())
        assert result.error is None, result.error
        return result.out, _records(tansu, topic, 100)
    both = _each(run)
    assert both["face"] == both["kp"]
    assert both["kp"][1] == [(None, b"some_message_bytes", [], 0, i) for i in range(100)]


def _fragment_on_producer(name, impl, bootstrap, topic_placeholder, n, partitions=1, after_result=None):
    """Supplied: `producer`, the README's first one (to the broker); it is closed after the snippet."""
    topic = _topic(bootstrap, "frag", partitions)
    producer = _producer(impl, bootstrap)
    result = _run(name, impl, [(topic_placeholder, repr(topic))], {"producer": producer},
                  after=lambda ns: producer.close())
    assert result.error is None, result.error
    return result, _records(bootstrap, topic, n), topic


@runs("readme_producer_future")
def test_readme_producer_future(tansu):
    def run(impl):
        result, records, topic = _fragment_on_producer("readme_producer_future", impl, tansu, "'foobar'", 1)
        md = result.ns["result"]
        return (type(md).__name__, md.topic == topic, md.partition, md.offset, md.serialized_key_size,
                md.serialized_value_size, md.serialized_header_size), records
    both = _each(run)
    assert both["face"] == both["kp"] == (("RecordMetadata", True, 0, 0, -1, 15, -1),
                                          [(None, b"another_message", [], 0, 0)])


@runs("readme_producer_flush")
def test_readme_producer_flush(tansu):
    """Supplied: `producer` with 20 sends pending (linger_ms=5000: only flush() sends them early)."""
    def run(impl):
        topic = _topic(tansu, "flush")
        producer = _producer(impl, tansu, linger_ms=5000)
        futures = [producer.send(topic, b"%d" % i) for i in range(20)]
        result = _run("readme_producer_flush", impl, names={"producer": producer})
        done = [f.is_done for f in futures]
        producer.close()
        assert result.error is None, result.error
        return done, _records(tansu, topic, 20)
    both = _each(run)
    assert both["face"] == both["kp"]
    assert all(both["kp"][0]) and [v for _k, v, _h, _p, _o in both["kp"][1]] == [b"%d" % i for i in range(20)]


@runs("readme_producer_key")
def test_readme_producer_key(tansu):
    """On 4 partitions: the key picks the same partition (murmur2) under both."""
    both = _each(lambda impl: _fragment_on_producer("readme_producer_key", impl, tansu, "'foobar'", 1, 4)[1])
    assert both["face"] == both["kp"] and both["kp"][0][:3] == (b"foo", b"bar", [])


@runs("readme_producer_headers")
def test_readme_producer_headers(tansu):
    both = _each(lambda impl: _fragment_on_producer("readme_producer_headers", impl, tansu, "'foobar'", 1)[1])
    assert both["face"] == both["kp"] == [(None, b"c29tZSB2YWx1ZQ==", [("content-encoding", b"base64")], 0, 0)]


def _own_producer(name, impl, bootstrap, call, placeholder, n, **added):
    """The snippet's producer, given the broker (added to its constructor's keywords), closed after it."""
    topic = _topic(bootstrap, "own")
    result = _run(name, impl, [_with(call, bootstrap_servers=bootstrap, **added), (placeholder, repr(topic))],
                  after=lambda ns: ns["producer"].close())
    assert result.error is None, result.error
    return result.out, _records(bootstrap, topic, n, isolation_level="read_committed")


@runs("readme_json_producer")
def test_readme_json_producer(tansu):
    both = _each(lambda impl: _own_producer("readme_json_producer", impl, tansu,
                                            "KafkaProducer(value_serializer=JsonSerializer())", "'fizzbuzz'", 1))
    assert both["face"] == both["kp"] == ("", [(None, b'{"foo": "bar"}', [], 0, 0)])


@runs("readme_string_keys")
def test_readme_string_keys(tansu):
    both = _each(lambda impl: _own_producer("readme_string_keys", impl, tansu,
                                            "KafkaProducer(key_serializer=DefaultSerializer())", "'flipflap'", 1))
    assert both["face"] == both["kp"] == ("", [(b"ping", b"1234", [], 0, 0)])


@runs("readme_gzip")
def test_readme_gzip(tansu):
    """Supplied: KafkaProducer (the snippet does not import it)."""
    def run(impl):
        topic = _topic(tansu, "gzip")
        result = _run("readme_gzip", impl, [_with("KafkaProducer(compression_type='gzip')", bootstrap_servers=tansu),
                                            ("'foobar'", repr(topic))],
                      {"KafkaProducer": _package(impl).KafkaProducer}, after=lambda ns: ns["producer"].close())
        assert result.error is None, result.error
        return result.out, _records(tansu, topic, 1000)
    both = _each(run)
    assert both["face"] == both["kp"]
    assert [v for _k, v, _h, _p, _o in both["kp"][1]] == [b"msg %d" % i for i in range(1000)]


@runs("readme_transactions")
def test_readme_transactions(tansu):
    """Supplied: KafkaProducer (not imported by the snippet); the transactional id is made unique. A
    read_committed reader sees 'yes' only."""
    def run(impl):
        topic = _topic(tansu, "txn")
        result = _run("readme_transactions", impl,
                      [_with("KafkaProducer(transactional_id='fizzbuzz')", bootstrap_servers=tansu),
                       ("'fizzbuzz'", repr(_unique("fizzbuzz"))), ("'txn_topic'", repr(topic))],
                      {"KafkaProducer": _package(impl).KafkaProducer}, after=lambda ns: ns["producer"].close())
        assert result.error is None, result.error
        return result.out, [v for _k, v, _h, _p, _o in _records(tansu, topic, 1, isolation_level="read_committed")]
    both = _each(run)
    assert both["face"] == both["kp"] == ("", [b"yes"])


@runs("readme_logging")
def test_readme_logging():
    """No kafka name: it configures the root logger, the same under both (put back after)."""
    root = logging.getLogger()

    def run(impl):
        saved = root.level, list(root.handlers)
        try:
            result = _run("readme_logging", impl)
            return result.outcome(), root.level
        finally:
            root.setLevel(saved[0])
            root.handlers[:] = saved[1]
    both = _each(run)
    # basicConfig sets the level only where the root logger has no handler yet (pytest may have given it one)
    assert both["face"] == both["kp"] and both["kp"][0] == (None, None)


# --------------------------------------------------------------------------- docs/high_level.rst

@runs("high_level_consumer")
@pytest.mark.slow  # about 45 s: a group joined twice on Tansu
def test_high_level_consumer(tansu, tmp_path):
    """Its first loop iterates forever in a group (what follows it is unreachable as written): it runs as
    a program, the broker, topic and group names substituted, stopped once it printed every record."""
    topic = _topic(tansu, "my-topic", 2)
    records = [(b"k%d" % i, b"v%d" % i, None, None, i % 2) for i in range(6)]
    _peers.produce_with_confluent(tansu, topic, records)

    def run(impl):
        path = tmp_path / f"high_level_consumer_{impl}.py"
        # the group has no committed offset and starts at the end ('latest'): the records are sent again once
        # it has joined, so the program waits in its loop for them
        path.write_text(_code("high_level_consumer", impl, [
            ("bootstrap_servers=['localhost:9092']", f"bootstrap_servers=[{tansu!r}], auto_offset_reset='earliest'"),
            ("'my-topic'", repr(topic)), ("'my-group'", repr(_unique("my-group")))]))
        lines = _peers.printed_lines_until([sys.executable, "-u", str(path)], lambda lines: len(lines) >= len(records),
                                           timeout=90)
        return sorted(line.replace(topic, "T") for line in lines)
    both = _each(run)
    assert both["face"] == both["kp"]
    assert both["kp"] == sorted(f"T:{i % 2}:{i // 2}: key=b'k{i}' value=b'v{i}'" for i in range(6))


HIGH_LEVEL_TOPICS = ["'my-topic'", "'keyed-topic'", "'utf-8-topic'", "'utf-16-topic'", "'json-topic'"]


@runs("high_level_producer")
def test_high_level_producer(tansu):
    """The broker given to every constructor (added to those naming none), the topics made unique;
    supplied: `log` (a logger, for its error paths). As written it stops at the 'produce asynchronously'
    loop: `producer` is the JSON producer by then, and b'msg' is no JSON value, a TypeError under both.
    Compared: where it fails, what it printed before (a send's metadata) and the records on every topic."""
    def run(impl):
        topics = {placeholder: _topic(tansu, placeholder.strip("'")) for placeholder in HIGH_LEVEL_TOPICS}
        result = _run("high_level_producer", impl, [
            ("['broker1:1234']", repr([tansu])),
            _with("KafkaProducer(value_serializer=DefaultSerializer())", bootstrap_servers=tansu),
            _with("KafkaProducer(value_serializer=DefaultSerializer('utf-16'))", bootstrap_servers=tansu),
            _with("KafkaProducer(value_serializer=JsonSerializer())", bootstrap_servers=tansu),
            _with("KafkaProducer(retries=5)", bootstrap_servers=tansu),
            *((placeholder, repr(topic)) for placeholder, topic in topics.items())],
            {"log": logging.getLogger("high-level-snippet")}, after=lambda ns: ns["producer"].close())
        records = {placeholder: _records(tansu, topic, 1) for placeholder, topic in topics.items()}
        return result.outcome(), _printed(result.out, topics["'my-topic'"]), records
    both = _each(run)
    assert both["face"] == both["kp"]
    outcome, out, records = both["kp"]
    assert outcome == ("TypeError", _line_of("high_level_producer", "producer.send('my-topic', b'msg')"))
    assert out == "T0\n0\n0\n"
    assert records["'utf-16-topic'"][0][1] == "懂不懂".encode("utf-16")


@runs("high_level_admin")
def test_high_level_admin(tansu):
    """The broker and the topic's name substituted. create_topics() is given topic names, then a dict
    of settings that kafka-python reads as {topic name: settings}: 'num_partitions': 1 is no dict of
    settings, an AttributeError under both on that line; nothing is printed."""
    def run(impl):
        topic = _unique("testtopic1")
        result = _run("high_level_admin", impl, [("['broker1:1234']", repr([tansu])), ("'testtopic1'", repr(topic))],
                      after=lambda ns: ns["admin"].close())
        admin = _package(impl).KafkaAdminClient(bootstrap_servers=tansu)
        try:
            created = topic in admin.list_topics()
        finally:
            admin.close()
        return result.outcome(), created, result.out
    both = _each(run)
    failed_at = _line_of("high_level_admin", "admin.create_topics(new_topics")
    assert both["face"] == both["kp"] == (("AttributeError", failed_at), True, "")


# --------------------------------------------------------------------------- example.py

@runs("example_py")
@pytest.mark.slow  # 20 s: the program runs its 10 s twice
def test_example_py(tansu, tmp_path):
    """The program as it is (its main guard open), the broker and topic substituted: it sends two records
    a second for 10 s while a thread prints what it reads. How many it prints depends on the threads'
    timing; what both print is compared up to the shorter one's length, which must be 14 records at least.
    Its own producer writes the batches each consumer reads, and a record's leader_epoch is what its
    batch carries: kafka-python's producer writes 0, kafkacodec's -1 (Kafka's "none", as the Java
    producer writes it), and Tansu keeps what the producer wrote; so the epoch is checked apart."""
    def run(impl):
        topic = _unique("my-topic")
        path = tmp_path / f"example_{impl}.py"
        path.write_text(_code("example_py", impl, [("'localhost:9092'", repr(tansu)), ("'my-topic'", repr(topic))]))
        done = subprocess.run([sys.executable, "-u", str(path)], capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr[-3000:]
        return _printed(done.stdout.decode(), topic).splitlines()
    both = _each(run)
    epochs = {impl: {m.group(0) for m in map(LEADER_EPOCH.search, lines)} for impl, lines in both.items()}
    assert epochs == {"kp": {"leader_epoch=0"}, "face": {"leader_epoch=-1"}}
    both = {impl: [LEADER_EPOCH.sub("leader_epoch=E", line) for line in lines] for impl, lines in both.items()}
    shortest = min(len(lines) for lines in both.values())
    assert shortest >= 14, both
    assert both["face"][:shortest] == both["kp"][:shortest]
    assert all(line.startswith("ConsumerRecord(topic='T0', partition=0") for line in both["kp"])
    assert "value=b'\\xc2Hola, mundo!'" in both["kp"][1]


# --------------------------------------------------------------------------- all of them

def test_every_snippet_is_run_or_skipped_with_its_reason():
    assert not RAN & set(SKIPPED)
    assert RAN | set(SKIPPED) == set(SNIPPETS)
