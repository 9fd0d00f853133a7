"""The code snippets of confluent-kafka-python's documentation (README.md, docs/*.rst|md, examples/README.md
and the docstrings' examples; the text is in confluent_doc_snippets.py with the commit it comes from) run
unchanged but for their import lines, the broker address, and placeholder topic and group names, under
confluent-kafka and under the face, against the same broker: what they print, what they deliver and what
they raise must be the same.

Where a snippet is a fragment, the names it uses without defining them (``some_data_source``,
``process``, ``running``, a schema, a record...) are supplied by the test, each named where it is
supplied. A snippet that loops forever runs in a subprocess stopped once it printed what was expected,
or is given a ``running`` flag that the supplied ``process`` lowers. Snippets that cannot run here are
in SKIPPED with the reason, and are reported as skips; where the face still differs from confluent-kafka
the test says how, as a strict xfail.

Peers: Tansu (kafkacodec's embedded broker) for producing, admin and registry snippets; librdkafka's
mock cluster where a group is joined (Tansu takes over 20 s for a classic group: the README consumer
also runs there, marked slow) and for share groups; tests/_registry_server.py for the schema registry
URL (confluent-kafka's AsyncSchemaRegistryClient takes no mock:// URL).
"""
import asyncio
import logging
import sys
import time
import uuid

import pytest

pytest.importorskip("confluent_kafka")
import _peers  # noqa: E402
from _registry_server import registry_server  # noqa: E402
from confluent_doc_snippets import SNIPPETS  # noqa: E402
from _snippets import SnippetSet, unique  # noqa: E402

# the snippets' logger settings configure the process's loggers: put back after each test
pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("face_logging_restored")]

PACKAGES = {"ck": "confluent_kafka", "face": "kafkacodec.compat.confluent_kafka"}
_SET = SnippetSet(SNIPPETS, PACKAGES)
RAN = _SET.ran  # the snippets the tests below run (checked against SNIPPETS by the last test)

SKIPPED = {
    "index_transaction_error_handling":
        "pseudo-code, not Python: `rewind_consumer_offsets...()` is a syntax error",
    "oauthbearer_aws_extensions":
        "a dict entry on its own ('key': 'value'), not a Python statement",
    "oauthbearer_aws_quick_start":
        "needs AWS IAM credentials (STS GetWebIdentityToken) and a Confluent Cloud cluster; confluent-kafka "
        "without its oauthbearer-aws extra raises ImportError, the face refuses aws_iam with a ConfigError",
    "examples_fastapi": "a FastAPI application: fastapi is not installed here, and it needs an ASGI server",
    "examples_aiohttp": "an aiohttp application: aiohttp is not installed here",
    "docstring_wildcard_match":
        "a doctest of schema_registry.wildcard_matcher, the name matcher of Data Contract rules (not in the API "
        "reference); the face has no Data Contract rules yet (see its schema_registry docstring)",
}
NOT_PYTHON = {"index_transaction_error_handling", "oauthbearer_aws_extensions"}


runs, _package, _code, _run, _each, _line_of = (_SET.runs, _SET.package, _SET.code, _SET.run, _SET.each,
                                                 _SET.line_of)
_unique = unique


def _records(bootstrap, topic, n):
    return [(key, value, partition, offset)
            for key, value, _h, _ts, offset, partition in _peers.consume_with_confluent(bootstrap, topic, n)]


@pytest.fixture(scope="module")
def mock():
    """librdkafka's mock cluster, where a group is joined in a few seconds (Tansu takes over 20 for a
    classic group and gives no assignment under the KIP-848 protocol) and share groups work (they start
    at the earliest offset here)."""
    try:
        with _peers.share_mock_cluster() as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def registry_names():
    """What the schema registry snippets use without defining: a schema and a record of it."""
    schema = ('{"type": "record", "name": "User", "namespace": "doc.snippets", "fields": ['
              '{"name": "name", "type": "string"}, {"name": "favorite_number", "type": "int"}]}')

    class User:
        def __init__(self, name, favorite_number):
            self.name, self.favorite_number = name, favorite_number

        def to_dict(self):
            return {"name": self.name, "favorite_number": self.favorite_number}

    return schema, User("alice", 7)


# --------------------------------------------------------------------------- README.md

@runs("readme_aio_producer")
def test_readme_aio_producer(tansu):
    def run(impl):
        topic = _unique("readme-aio")
        _peers.create_topic(tansu, topic, 1)
        result = _run("readme_aio_producer", impl, [('"mybroker"', repr(tansu)), ('"mytopic"', repr(topic))])
        assert result.error is None, result.error
        return result.out, _records(tansu, topic, 1)
    both = _each(run)
    assert both["face"] == both["ck"] == ("", [(None, b"hello", 0, 0)])


@runs("readme_basic_producer")
def test_readme_basic_producer(tansu):
    # supplied: the data source the loop reads
    data = [f"record {i}" for i in range(12)]

    def run(impl):
        topic = _unique("readme-producer")
        _peers.create_topic(tansu, topic, 1)
        result = _run("readme_basic_producer", impl, [("'mybroker1,mybroker2'", repr(tansu)),
                                                      ("'mytopic'", repr(topic))],
                      {"some_data_source": data})
        assert result.error is None, result.error
        return result.out.replace(topic, "T"), _records(tansu, topic, len(data))
    both = _each(run)
    assert both["face"] == both["ck"]
    assert both["ck"][0] == "Message delivered to T [0]\n" * len(data)
    assert [value for _k, value, _p, _o in both["ck"][1]] == [v.encode() for v in data]


def _sync_registry_snippet(name, impl, bootstrap, registry_names, names):
    schema, user = registry_names
    topic = _unique("registry-sync")
    _peers.create_topic(bootstrap, topic, 1)
    with registry_server() as (url, _state):
        return _run(name, impl, [("http://localhost:8081", url), ("localhost:9092", bootstrap),
                                 ("'my-topic'", repr(topic))],
                    {"some_user_object": user, **names(schema)},
                    after=lambda ns: ns["producer"].flush(10) if "producer" in ns else None)


@runs("readme_schema_registry_sync")
def test_readme_schema_registry_sync_fails_as_under_confluent_kafka(tansu, registry_names):
    """The snippet calls the serializer without a SerializationContext: confluent-kafka's serializer
    cannot name the subject then and raises ValueError before anything is produced; so does the face's."""
    both = _each(lambda impl: _sync_registry_snippet("readme_schema_registry_sync", impl, tansu, registry_names,
                                                     lambda schema: {"user_schema_str": schema}))
    assert both["face"].outcome() == both["ck"].outcome() == (
        "ValueError", _line_of("readme_schema_registry_sync", "avro_serializer(some_user_object)"))
    assert all("SerializationContext is required" in str(r.error) for r in both.values())


@runs("readme_schema_registry_async")
def test_readme_schema_registry_async(tansu, registry_names):
    schema, user = registry_names

    def run(impl):
        topic = _unique("readme-registry-async")
        _peers.create_topic(tansu, topic, 1)
        serialization = _package(impl, ".serialization")
        delivered = []

        async def after(ns):
            # the snippet leaves its delivery unawaited and its producer open
            if "delivery_future" in ns:
                msg = await ns["delivery_future"]
                delivered.append((msg.topic() == topic, msg.partition(), msg.offset(), msg.value()))
            if "producer" in ns:
                await ns["producer"].close()
        # supplied: the schema, the record, and SerializationContext/MessageField, which it does not import
        with registry_server() as (url, _state):
            result = _run("readme_schema_registry_async", impl,
                          [("http://localhost:8081", url), ("localhost:9092", tansu), ('"topic"', repr(topic))],
                          {"avro_schema": schema, "data": user.to_dict(),
                           "SerializationContext": serialization.SerializationContext,
                           "MessageField": serialization.MessageField},
                          after=after)
        assert result.error is None, result.error
        return delivered, _records(tansu, topic, 1)
    both = _each(run)
    assert both["face"] == both["ck"]
    delivered, records = both["ck"]
    assert len(delivered) == 1 and delivered[0][:3] == (True, 0, 0)
    assert records == [(None, delivered[0][3], 0, 0)] and delivered[0][3][:1] == b"\0"


@runs("readme_async_import_paths", "examples_async_import_paths", "examples_async_import_paths_again")
@pytest.mark.parametrize("name", ["readme_async_import_paths", "examples_async_import_paths",
                                  "examples_async_import_paths_again"])
def test_async_serde_import_paths(name):
    """The Avro and JSON Schema lines import the asyncio serdes; the Protobuf line fails under both
    here: confluent-kafka's needs the protobuf package (not installed), the face has no Protobuf serde."""
    both = _each(lambda impl: _run(name, impl))
    assert both["face"].outcome() == both["ck"].outcome() == ("ModuleNotFoundError", _line_of(name, "_async.protobuf"))
    for impl, result in both.items():
        for cls in ("AsyncAvroSerializer", "AsyncAvroDeserializer", "AsyncJSONSerializer", "AsyncJSONDeserializer"):
            assert result.ns[cls].__module__.startswith(PACKAGES[impl]), (impl, cls)
            assert result.ns[cls] is getattr(_package(impl, ".schema_registry." + (
                "avro" if "Avro" in cls else "json_schema")), cls)


@runs("readme_basic_consumer")
@pytest.mark.parametrize("peer", ["mock", pytest.param("tansu", marks=pytest.mark.slow)])
def test_readme_basic_consumer(request, peer, tmp_path):
    """It polls forever: it runs as a program, stopped once it printed every record. (On Tansu a
    classic group takes over 20 s to join: slow.)"""
    bootstrap = request.getfixturevalue(peer)
    values = [f"value {i}" for i in range(15)]
    topic = _unique("readme-consumer")
    _peers.create_topic(bootstrap, topic, 3)
    _peers.produce_with_confluent(bootstrap, topic, [(f"k{i}".encode(), v.encode()) for i, v in enumerate(values)])

    def run(impl):
        path = tmp_path / f"basic_consumer_{impl}.py"
        path.write_text(_code("readme_basic_consumer", impl, [("'mybroker'", repr(bootstrap)),
                                                              ("'mygroup'", repr(_unique("readme-group"))),
                                                              ("'mytopic'", repr(topic))]))
        return sorted(_peers.printed_lines_until([sys.executable, "-u", str(path)],
                                                 lambda lines: sum(x.startswith("Received") for x in lines) >= len(values)))
    both = _each(run)
    assert both["face"] == both["ck"] == sorted(f"Received message: {v}" for v in values)


@runs("readme_admin_create_topics")
def test_readme_admin_create_topics(tansu):
    """Each creates its two topics; then each runs again on the other's: already there, the same error."""
    names = {impl: [_unique("topic1"), _unique("topic2")] for impl in PACKAGES}

    def run(impl, topics):
        result = _run("readme_admin_create_topics", impl, [("'mybroker'", repr(tansu)),
                                                           ('["topic1", "topic2"]', repr(topics))])
        assert result.error is None, result.error
        out = result.out
        for i, topic in enumerate(topics):
            out = out.replace(topic, f"T{i}")
        return out
    first = {impl: run(impl, names[impl]) for impl in PACKAGES}
    again = {impl: run(impl, names["ck" if impl == "face" else "face"]) for impl in PACKAGES}
    assert first["face"] == first["ck"] == "Topic T0 created\nTopic T1 created\n"
    assert again["face"] == again["ck"]
    assert again["ck"].count("Failed to create topic") == 2 and "TOPIC_ALREADY_EXISTS" in again["ck"]


# --------------------------------------------------------------------------- docs/index.rst

def _consumer_configuration(bootstrap, impl, topic):
    """The configuration guide's consumer, reading 3 records and committing them asynchronously; the
    snippet calls confluent_kafka without importing it and names my_commit_callback: both supplied.
    (what it read, the on_commit calls before close(), those during close())"""
    ck = _package(impl)
    commits = []
    read = []
    before_close = []

    def after(ns):
        consumer = ns["consumer"]
        try:
            consumer.assign([ck.TopicPartition(topic, 0, ck.OFFSET_BEGINNING)])
            deadline = time.monotonic() + 30
            while len(read) < 3 and time.monotonic() < deadline:
                msg = consumer.poll(0.5)
                if msg is not None and not msg.error():
                    read.append(msg.value())
            consumer.commit(asynchronous=True)
            while not commits and time.monotonic() < deadline:
                consumer.poll(0.2)
            before_close.extend(commits)
            del commits[:]
        finally:
            consumer.close()
    result = _run("index_consumer_configuration", impl,
                  [("'mybroker.com'", repr(bootstrap)), ("'mygroup'", repr(_unique("index-group")))],
                  {"confluent_kafka": ck,
                   "my_commit_callback": lambda err, partitions: commits.append(
                       (err, [(tp.topic == topic, tp.partition, tp.offset, tp.error) for tp in partitions]))},
                  after=after)
    assert result.error is None, result.error
    return read, before_close, commits


@pytest.fixture(scope="module")
def consumer_configuration_runs(tansu):
    topic = _unique("index-conf")
    _peers.create_topic(tansu, topic, 1)
    _peers.produce_with_confluent(tansu, topic, [(b"k", b"v%d" % i) for i in range(3)])
    return _each(lambda impl: _consumer_configuration(tansu, impl, topic))


@runs("index_consumer_configuration")
def test_index_consumer_configuration(consumer_configuration_runs):
    """Its on_commit callback reports the asynchronous commit as under confluent-kafka."""
    both = consumer_configuration_runs
    assert both["face"][:2] == both["ck"][:2] == ([b"v0", b"v1", b"v2"], [(None, [(True, 0, 3, None)])])


def test_index_consumer_configuration_close_reports_the_final_commit(consumer_configuration_runs):
    """close() commits the offsets again, though committed already, and reports it to on_commit
    (librdkafka's and the Java client's final commit)."""
    both = consumer_configuration_runs
    assert both["face"][2] == both["ck"][2] == [(None, [(True, 0, 3, None)])]


@runs("index_logger")
def test_index_logger(tansu):
    """A producer given a logging.Logger (the snippet uses logging and confluent_kafka unimported: both
    supplied) works as any other; the handler it adds to the root logger is removed afterwards."""
    def run(impl):
        topic = _unique("index-logger")
        _peers.create_topic(tansu, topic, 1)
        left = []

        def after(ns):
            try:
                ns["producer"].produce(topic, b"logged")
                left.append(ns["producer"].flush(10))
            finally:
                ns["mylogger"].removeHandler(ns["mylogger"].handlers[-1])
        result = _run("index_logger", impl, [("'mybroker.com'", repr(tansu))],
                      {"confluent_kafka": _package(impl), "logging": logging}, after=after)
        assert result.error is None, result.error
        assert result.ns["mylogger"] is logging.getLogger()
        return left, _records(tansu, topic, 1)
    both = _each(run)
    assert both["face"] == both["ck"] == ([0], [(None, b"logged", 0, 0)])


# --------------------------------------------------------------------------- examples/README.md

@runs("examples_asyncio_schema_registry", "examples_schema_registry_async")
@pytest.mark.parametrize("name", ["examples_asyncio_schema_registry", "examples_schema_registry_async"])
def test_examples_asyncio_schema_registry(tansu, registry_names, name):
    """setup_async_avro_producer() run to its end (the harness calls it): the record lands the same.
    Supplied: user_schema, user_data, and SerializationContext/MessageField, which it does not import;
    its producer stays open, as the snippet leaves it."""
    schema, user = registry_names

    def run(impl):
        topic = _unique("examples-registry-async")
        _peers.create_topic(tansu, topic, 1)
        serialization = _package(impl, ".serialization")
        with registry_server() as (url, _state):
            result = _run(name, impl,
                          [("http://localhost:8081", url), ("localhost:9092", tansu), ('"users"', repr(topic))],
                          {"user_schema": schema, "user_data": user.to_dict(),
                           "SerializationContext": serialization.SerializationContext,
                           "MessageField": serialization.MessageField},
                          after=lambda ns: asyncio.run(ns["setup_async_avro_producer"]()))
        assert result.error is None, result.error
        return _records(tansu, topic, 1)
    both = _each(run)
    assert both["face"] == both["ck"]
    assert len(both["ck"]) == 1 and both["ck"][0][1][:1] == b"\0"


@runs("examples_schema_registry_sync")
def test_examples_schema_registry_sync_fails_as_under_confluent_kafka(tansu, registry_names):
    """As README's (it is the same code without the imports, supplied here): no SerializationContext,
    ValueError under both."""
    def names(impl):
        return lambda schema: {"user_schema": schema,
                               "SchemaRegistryClient": _package(impl, ".schema_registry").SchemaRegistryClient,
                               "AvroSerializer": _package(impl, ".schema_registry.avro").AvroSerializer,
                               "Producer": _package(impl).Producer}
    both = _each(lambda impl: _sync_registry_snippet("examples_schema_registry_sync", impl, tansu, registry_names,
                                                     names(impl)))
    assert both["face"].outcome() == both["ck"].outcome() == (
        "ValueError", _line_of("examples_schema_registry_sync", "avro_serializer(some_user_object)"))


@runs("examples_schema_registry_conf", "oauthbearer_aws_all_options")
@pytest.mark.parametrize("name, defined", [("examples_schema_registry_conf", "schema_registry_conf"),
                                           ("oauthbearer_aws_all_options", "conf")])
def test_configuration_dicts(name, defined):
    """Only a configuration dict, no client code: it runs, the same under both."""
    both = _each(lambda impl: _run(name, impl))
    assert both["face"].error is None and both["face"].ns[defined] == both["ck"].ns[defined]


# --------------------------------------------------------------------------- docs/kip-848-migration-guide

def _rebalance_callbacks(name, impl, bootstrap, topic, conf):
    """The snippet's on_assign/on_revoke given to subscribe(); polled until assigned, then closed."""
    ck = _package(impl)

    def after(ns):
        consumer = ck.Consumer({"bootstrap.servers": bootstrap, "group.id": _unique("kip848"), **conf})
        try:
            consumer.subscribe([topic], on_assign=ns["on_assign"], on_revoke=ns["on_revoke"])
            deadline = time.monotonic() + 30
            while len(consumer.assignment()) < 2 and time.monotonic() < deadline:
                consumer.poll(0.2)
            print("assignment:", sorted(tp.partition for tp in consumer.assignment()))
        finally:
            consumer.close()
    result = _run(name, impl, after=after)
    assert result.error is None, result.error
    return result.out.replace(topic, "T")


@runs("kip848_classic_callbacks")
def test_kip848_classic_callbacks(mock):
    topic = _unique("kip848-classic")
    _peers.create_topic(mock, topic, 2)
    both = _each(lambda impl: _rebalance_callbacks("kip848_classic_callbacks", impl, mock, topic, {}))
    assert both["face"] == both["ck"]
    assert both["ck"].startswith("[Classic] Assigned partitions: [TopicPartition{topic=T,partition=0,")
    assert "assignment: [0, 1]\n[Classic] Revoked partitions: [TopicPartition{topic=T,partition=0," in both["ck"]


@runs("kip848_incremental_callbacks")
@pytest.mark.parametrize("conf", [
    {"partition.assignment.strategy": "cooperative-sticky"},
    # under KIP-848 the callbacks get the partitions in the coordinator's order (the mock's is [1, 0])
    {"group.protocol": "consumer"}],
    ids=["cooperative", "kip848"])
def test_kip848_incremental_callbacks(mock, conf):
    topic = _unique("kip848-incremental")
    _peers.create_topic(mock, topic, 2)
    both = _each(lambda impl: _rebalance_callbacks("kip848_incremental_callbacks", impl, mock, topic, conf))
    assert both["face"] == both["ck"]
    # assigned in the coordinator's order (the mock's KIP-848 answer is [1, 0]), revoked sorted
    assert both["ck"].startswith("[KIP-848] Incrementally assigning: [TopicPartition{topic=T,partition=")
    assert "assignment: [0, 1]\n[KIP-848] Incrementally revoking: [TopicPartition{topic=T,partition=0," in both["ck"]


# --------------------------------------------------------------------------- docs/kip-932-share-consumer

def _share_placeholders(bootstrap, group, topic):
    return [("'localhost:9092'", repr(bootstrap)), ("'my-share-group'", repr(group)), ("'my-topic'", repr(topic))]


def _share_topic(bootstrap, values):
    topic = _unique("kip932")
    _peers.create_topic(bootstrap, topic, 1)
    _peers.produce_with_confluent(bootstrap, topic, [(b"k", v.encode()) for v in values])
    return topic


@runs("kip932_enablement")
def test_kip932_enablement(mock):
    topic = _unique("kip932")

    def run(impl):
        subscribed = []

        def after(ns):
            subscribed.append(ns["consumer"].subscription())
            ns["consumer"].close()
        result = _run("kip932_enablement", impl, _share_placeholders(mock, _unique("share"), topic), after=after)
        assert result.error is None, result.error
        return [type(result.ns["consumer"]).__name__, result.ns["conf"]["group.id"] != "my-share-group"], subscribed
    both = _each(run)
    assert both["face"] == both["ck"] == (["ShareConsumer", True], [[topic]])


@runs("kip932_implicit")
def test_kip932_implicit(mock):
    """Supplied: `running`, lowered by the supplied `process` once every record was processed."""
    values = [f"m{i}" for i in range(8)]
    topic = _share_topic(mock, values)

    def run(impl):
        processed = []
        names = {"running": True}

        def process(msg):
            processed.append((msg.value().decode(), msg.delivery_count()))
            names["running"] = len(processed) < len(values)
        names["process"] = process
        result = _run("kip932_implicit", impl, _share_placeholders(mock, _unique("share"), topic), names)
        assert result.error is None, result.error
        return result.out, sorted(processed)
    both = _each(run)
    assert both["face"] == both["ck"] == ("", sorted((v, 1) for v in values))


@runs("kip932_explicit")
def test_kip932_explicit(mock):
    """Supplied: `running` and `process` (as above) and `TransientError`: process() fails m3's first
    delivery with a TransientError (RELEASE: delivered again) and m5 with a ValueError (REJECT: never again)."""
    values = [f"m{i}" for i in range(8)]
    topic = _share_topic(mock, values)

    class TransientError(Exception):
        pass

    def run(impl):
        seen = []
        names = {"running": True, "TransientError": TransientError}

        def process(msg):
            value = msg.value().decode()
            seen.append((value, msg.delivery_count()))
            if value == "m3" and msg.delivery_count() == 1:
                raise TransientError(value)
            if value == "m5":
                raise ValueError(value)
            names["running"] = len(seen) < len(values) + 1
        names["process"] = process
        result = _run("kip932_explicit", impl, _share_placeholders(mock, _unique("share"), topic), names)
        assert result.error is None, result.error
        return result.out, sorted(seen)
    both = _each(run)
    assert both["face"] == both["ck"] == ("", sorted([(v, 1) for v in values] + [("m3", 2)]))


@runs("kip932_context_manager")
def test_kip932_context_manager(mock):
    """Supplied: ShareConsumer (not imported), `conf`, and `running` true for three turns of the loop (its
    body does nothing). The
    with-block closes the consumer: a call on it afterwards fails the same way under both."""
    topic = _share_topic(mock, ["m0"])

    class Turns:
        def __init__(self, n):
            self.n = n

        def __bool__(self):
            self.n -= 1
            return self.n >= 0

    def run(impl):
        result = _run("kip932_context_manager", impl, [("'my-topic'", repr(topic))],
                      {"ShareConsumer": _package(impl).ShareConsumer, "running": Turns(3),
                       "conf": {"bootstrap.servers": mock, "group.id": _unique("share")}})
        assert result.error is None, result.error
        with pytest.raises(Exception) as closed:
            result.ns["consumer"].subscription()
        return type(closed.value).__name__, str(closed.value)
    both = _each(run)
    assert both["face"] == both["ck"]


@runs("kip932_deserializing")
def test_kip932_deserializing(mock):
    """One poll of one second (the snippet's): what it hands to `use` (supplied) is deserialized to str,
    under both; how many records the first poll brings is not the same from run to run."""
    values = [f"m{i}" for i in range(5)]
    topic = _share_topic(mock, values)

    def run(impl):
        used = []
        result = _run("kip932_deserializing", impl, _share_placeholders(mock, _unique("share"), topic),
                      {"use": lambda key, value: used.append((key, value))},
                      after=lambda ns: ns["consumer"].close())
        assert result.error is None, result.error
        assert type(result.ns["consumer"]).__name__ == "DeserializingShareConsumer"
        assert all(key == "k" and value in values for key, value in used), used
        return result.out
    both = _each(run)
    assert both["face"] == both["ck"] == ""


# --------------------------------------------------------------------------- docstrings' examples

def _client_names(impl, bootstrap, group):
    ck = _package(impl)
    return {"Producer": ck.Producer, "Consumer": ck.Consumer, "logger": logging.getLogger("doc-snippets"),
            "conf": {"bootstrap.servers": bootstrap, "group.id": group}}


CONSTRUCTORS = [f"docstring_{kind}_init_{i}" for kind in ("producer", "consumer") for i in (1, 2, 3)]
# the stubs' keyword spelling (bootstrap_servers=, enable_idempotence=, group_id=): confluent-kafka 2.16 takes
# the keywords as they are, with underscores, and fails on them; the face fails on them too
KEYWORD_SPELLING = {"docstring_producer_init_2", "docstring_producer_init_3", "docstring_consumer_init_2",
                    "docstring_consumer_init_3"}


def _constructors(impl, bootstrap, name):
    shown = []
    replacements = [(old, repr(bootstrap)) for old in ("'localhost:9092'", "'localhost'") if old in SNIPPETS[name][1]]
    replacements += [("'mygroup'", repr(_unique("docstring")))] * ("'mygroup'" in SNIPPETS[name][1])
    result = _run(name, impl, replacements, _client_names(impl, bootstrap, _unique("docstring")), shown=shown)
    reached = []
    for client in shown:
        try:
            reached.append((type(client).__name__, len(client.list_topics(timeout=10).brokers)))
        finally:
            client.close() if hasattr(client, "subscribe") else client.flush(10)
    return result, reached


@runs(*CONSTRUCTORS)
@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_docstring_constructors(tansu, name):
    """Producer(...)/Consumer(...) as the stubs' docstrings show them (a dict, a dict and keywords,
    keywords only; `conf` and `logger` supplied): the clients made reach the broker, and the lines
    that fail under confluent-kafka fail under the face."""
    both = _each(lambda impl: _constructors(impl, tansu, name))
    (ck_run, ck_reached), (face_run, face_reached) = both["ck"], both["face"]
    assert face_reached == ck_reached and all(n == 1 for _cls, n in ck_reached)
    assert face_run.line == ck_run.line and (ck_run.error is not None) == (name in KEYWORD_SPELLING)


@pytest.mark.parametrize("name", sorted(KEYWORD_SPELLING))
def test_docstring_constructors_raise_what_confluent_kafka_raises(tansu, name):
    """An unknown property: confluent-kafka raises KafkaException(_INVALID_ARG); the face's
    ConfigException is one (and a ConfigError, a ValueError, as confluent-kafka's 'group.id
    must be set' is)."""
    both = _each(lambda impl: _constructors(impl, tansu, name)[0].error)
    ck_error, face_error = both["ck"], both["face"]
    # the same class by name: each package has its own KafkaException (builtins are shared)
    assert type(ck_error).__name__ in {cls.__name__ for cls in type(face_error).__mro__}
    if hasattr(ck_error, "args") and ck_error.args and hasattr(ck_error.args[0], "code"):
        assert face_error.args[0].code() == ck_error.args[0].code()


@runs("docstring_produce_batch")
def test_docstring_produce_batch(tansu):
    """Supplied: `producer` and `my_callback` (recording what it is called with)."""
    def run(impl):
        topic = _unique("produce-batch")
        _peers.create_topic(tansu, topic, 2)
        called = []
        producer = _package(impl).Producer({"bootstrap.servers": tansu})
        result = _run("docstring_produce_batch", impl, [("'my-topic'", repr(topic))],
                      {"producer": producer,
                       "my_callback": lambda err, msg: called.append((err, msg.key(), msg.value()))},
                      after=lambda ns: producer.flush(10))
        assert result.error is None, result.error
        # the keyless record's partition is librdkafka's random choice
        landed = sorted(((key or b"", value, partition if key else None) for key, value, partition, _o in
                         _records(tansu, topic, 3)), key=repr)
        return result.out, called, landed
    both = _each(run)
    assert both["face"] == both["ck"]
    assert both["ck"][0] == "Successfully queued 3 messages\n" and both["ck"][1] == [(None, None, b"message 3")]


@runs("docstring_murmur2")
def test_docstring_murmur2():
    both = _each(lambda impl: _run("docstring_murmur2", impl, names={"murmur2": _package(impl).murmur2}))
    assert both["face"].error is None and both["face"].ns["partition"] == both["ck"].ns["partition"]


@runs("docstring_subscribe_regex")
def test_docstring_subscribe_regex(mock):
    """Supplied: `consumer`. Topics that the two patterns match, the plain name, and one matched by none:
    the consumer is assigned the same topics under both."""
    u = "".join(chr(ord("a") + int(c, 16)) for c in uuid.uuid4().hex[:6])  # letters only: [a-z]+ matches
    wanted = [f"my_topic_{u}", f"another7-{u}", "not_a_regex"]
    for topic in wanted + [f"other_{u}"]:
        _peers.create_topic(mock, topic, 1)

    def run(impl):
        consumer = _package(impl).Consumer({"bootstrap.servers": mock, "group.id": _unique("regex"),
                                            "topic.metadata.refresh.interval.ms": 500})
        try:
            result = _run("docstring_subscribe_regex", impl, names={"consumer": consumer})
            assert result.error is None, result.error
            deadline = time.monotonic() + 30
            while len(consumer.assignment()) < 3 and time.monotonic() < deadline:
                consumer.poll(0.2)
            return sorted(tp.topic for tp in consumer.assignment())
        finally:
            consumer.close()
    both = _each(run)
    assert both["face"] == both["ck"] == sorted(wanted)


# --------------------------------------------------------------------------- not run here

@pytest.mark.parametrize("name", sorted(SKIPPED))
def test_snippets_not_run_here(name):
    if name in NOT_PYTHON:
        with pytest.raises(SyntaxError):
            compile(SNIPPETS[name][1], name, "exec")
    pytest.skip(f"{name} ({SNIPPETS[name][0]}): {SKIPPED[name]}")


def test_every_snippet_is_run_or_skipped_with_its_reason():
    assert not RAN & set(SKIPPED)
    assert RAN | set(SKIPPED) == set(SNIPPETS)
