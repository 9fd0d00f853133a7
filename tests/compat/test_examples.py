"""confluent-kafka programs run twice against Tansu: as written (confluent_kafka) and with
only the import changed to kafkacodec.compat.confluent_kafka; what they print and what
lands on the broker must be the same."""
import pathlib
import re
import subprocess
import sys
import time
import uuid

import pytest

pytest.importorskip("confluent_kafka")
import _peers  # noqa: E402

EXAMPLES = pathlib.Path(__file__).parent / "examples"
IMPORT = re.compile(r"^from confluent_kafka(\.\w+)? import", re.M)
LINES = [f"key-{i % 7}\tvalue {i}" for i in range(60)]


def _program(name, face, tmp_path):
    """The example's path; for the face, a copy whose import lines are the only change."""
    text = (EXAMPLES / name).read_text()
    if not face:
        return EXAMPLES / name
    changed = IMPORT.sub(lambda m: m.group(0).replace("confluent_kafka", "kafkacodec.compat.confluent_kafka"), text)
    diff = [(a, b) for a, b in zip(text.splitlines(), changed.splitlines()) if a != b]
    assert diff and all(IMPORT.match(a) for a, _ in diff)
    path = tmp_path / f"face_{name}"
    path.write_text(changed)
    return path


def _run(path, args, stdin="", timeout=150):
    proc = subprocess.run([sys.executable, str(path), *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def _timed(path, args, timeout=150):
    started = time.monotonic()
    out = _run(path, args, timeout=timeout)
    return out, time.monotonic() - started


def _normalized(out, topic):
    return sorted(line.replace(topic, "TOPIC") for line in out.splitlines())


def _on_broker(bootstrap, topic, n):
    rows = _peers.consume_with_confluent(bootstrap, topic, n, timeout=30)
    return [(key, value, headers, offset, partition) for key, value, headers, _ts, offset, partition in rows]


def test_producer_and_consumer_examples_print_the_same(tansu, tmp_path):
    outputs = {}
    topics = {}
    for face in (False, True):
        topic = topics[face] = f"examples-{'face' if face else 'ck'}-{uuid.uuid4().hex[:6]}"
        _peers.create_topic(tansu, topic, 3)
        produced = _run(_program("producer.py", face, tmp_path), [tansu, topic], "\n".join(LINES) + "\n")
        consumed = _run(_program("consumer.py", face, tmp_path),
                        [tansu, f"g-{uuid.uuid4().hex[:6]}", str(len(LINES)), topic])
        outputs[face] = (_normalized(produced, topic), _normalized(consumed, topic))
    ck_produced, ck_consumed = outputs[False]
    face_produced, face_consumed = outputs[True]
    assert sum("Message delivered" in line for line in ck_produced) == len(LINES)
    assert face_produced == ck_produced
    assert sum("at offset" in line and "with key" in line for line in ck_consumed) == len(LINES)
    assert sum("reached end" in line for line in ck_consumed) == 3
    assert face_consumed == ck_consumed
    # the same records, in the same partitions at the same offsets, with the same headers
    assert _on_broker(tansu, topics[True], len(LINES)) == _on_broker(tansu, topics[False], len(LINES))


def _admin_setup(bootstrap, topic, group):
    """A topic of 3 partitions with keyed records, and a group that committed offsets in it."""
    from confluent_kafka import ConsumerGroupTopicPartitions, TopicPartition
    from confluent_kafka.admin import AdminClient
    _peers.create_topic(bootstrap, topic, 3)
    _peers.produce_with_confluent(bootstrap, topic, [(f"k{i}".encode(), b"v") for i in range(30)])
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.alter_consumer_group_offsets([ConsumerGroupTopicPartitions(group, [
        TopicPartition(topic, 1, 5), TopicPartition(topic, 2, 7)])])[group].result(20)


def _admin_runs(topic, group):
    return [
        ["groups"],
        ["offsets", "READ_COMMITTED", topic, "0", "MAX_TIMESTAMP", topic, "1", "EARLIEST", topic, "2", "LATEST",
         topic, "0", "0"],
        ["group_offsets", group],
        ["group_offsets", group, topic, "0", topic, "1"],
        ["describe_groups", "1", group, "nobody-" + group],
        ["delete_records", topic, "0", "1"],
        ["acls", "ANY", "None"],
        ["acls", "TOPIC", topic],
        ["scram"],
        ["scram", "alice", "bob"],
        ["set_scram", "alice", "secret", "bob"],
        ["elect", "PREFERRED", topic, "0"],
        ["elect", "UNCLEAN"],
        ["cluster"],
    ]


def test_admin_tool_prints_the_same(tansu, tmp_path):
    """Each AdminClient call as confluent-kafka makes it against Tansu, under both: what Tansu
    lacks fails the same way (_UNSUPPORTED_FEATURE, _TRANSPORT where it drops the connection) and
    as fast; groups are CONSUMER (Tansu answers ConsumerGroupDescribe), offsets of every partition
    are listed, OffsetSpec.max_timestamp() comes back as librdkafka gives it."""
    topic, group = f"admin-{uuid.uuid4().hex[:6]}", f"g-{uuid.uuid4().hex[:6]}"
    _admin_setup(tansu, topic, group)
    ck, face = _program("admin_tool.py", False, tmp_path), _program("admin_tool.py", True, tmp_path)
    for args in _admin_runs(topic, group):
        theirs, their_time = _timed(ck, [tansu, *args])
        ours, our_time = _timed(face, [tansu, *args])
        assert ours == theirs, args
        # delete_records took 60 s of retries before; importing the face costs about 0.5 s
        assert our_time < their_time + 3, (args, our_time, their_time)
    # what the group described and offsets listed came to
    described = _run(face, [tansu, "describe_groups", "0", group])
    assert "type=ConsumerGroupType.CONSUMER" in described
    listed = _run(face, [tansu, "group_offsets", group]).splitlines()
    assert listed == [f"group {group}: 2 partitions", f"  {topic} [1] @ 5", f"  {topic} [2] @ 7"]


def test_admin_tool_where_the_mock_cluster_lacks_the_api(mock_bootstrap, tmp_path):
    """The mock cluster has none of the group, ACL, SCRAM and election APIs: where
    confluent-kafka answers at once the face answers the same; where librdkafka waits for a
    controller the mock never names (ACLs, SCRAM, elections, DescribeCluster) the face fails at
    once with the error librdkafka gives for a missing API."""
    topic, group = f"admin-{uuid.uuid4().hex[:6]}", f"g-{uuid.uuid4().hex[:6]}"
    _peers.create_topic(mock_bootstrap, topic, 3)
    ck, face = _program("admin_tool.py", False, tmp_path), _program("admin_tool.py", True, tmp_path)
    runs = _admin_runs(topic, group)
    answered_at_once = [r for r in runs if r[0] in ("offsets", "group_offsets", "describe_groups", "delete_records")]
    for args in answered_at_once:
        assert _run(face, [mock_bootstrap, *args]) == _run(ck, [mock_bootstrap, *args]), args
    for args in runs:
        if args in answered_at_once or args[0] == "groups":
            continue
        out, took = _timed(face, [mock_bootstrap, *args])
        assert out and all(line.endswith("failed: _UNSUPPORTED_FEATURE") for line in out.splitlines()), (args, out)
        assert took < 5, (args, took)


KEYLESS_RUNS = [
    # (count, gap ms, settings): what librdkafka does with records without a key
    ("20", "0"),                                               # within sticky.partitioning.linger.ms: one
    ("20", "25"),                                              # past it, again and again: several
    ("20", "0", "sticky.partitioning.linger.ms=0"),            # no sticking: several
    ("20", "25", "partitioner=consistent"),                    # hashed as an empty key: one
    ("20", "25", "partitioner=murmur2"),
    ("20", "25", "partitioner=fnv1a"),
    ("20", "25", "partitioner=fnv1a_random"),
    ("20", "0", "partitioner=random"),
]


def test_keyless_records_land_as_with_librdkafka_and_exit_does_not_wait(tansu, tmp_path):
    topic = f"keyless-{uuid.uuid4().hex[:6]}"
    _peers.create_topic(tansu, topic, 4)
    ck, face = _program("keyless_producer.py", False, tmp_path), _program("keyless_producer.py", True, tmp_path)
    for run in KEYLESS_RUNS:
        theirs, their_time = _timed(ck, [tansu, topic, *run])
        ours, our_time = _timed(face, [tansu, topic, *run])
        assert ours == theirs, run
        # the producer is never closed: exit used to wait 5 s on it with nothing left to deliver
        assert our_time < their_time + 2.5, (run, our_time, their_time)


def test_eos_transform_example_commits_the_same(tansu, tmp_path):
    """Consume-transform-produce in transactions with the offsets committed inside them, ended by a
    _PARTITION_EOF event: the same transactions, the same output records, the same committed offset."""
    outputs, written = {}, {}
    for face in (False, True):
        u = f"{'face' if face else 'ck'}-{uuid.uuid4().hex[:6]}"
        source, sink = f"eos-in-{u}", f"eos-out-{u}"
        _peers.create_topic(tansu, source, 1)
        _peers.create_topic(tansu, sink, 1)
        _peers.produce_with_confluent(tansu, source, [(b"k%d" % i, b"hello %d" % i) for i in range(20)])
        out = _run(_program("eos_transform.py", face, tmp_path),
                   ["-b", tansu, "-t", source, "-o", sink, "-g", f"g-{u}", "-x", f"x-{u}"])
        outputs[face] = out.replace(source, "INPUT")
        records = _peers.consume_with_confluent(tansu, sink, 20, timeout=30, isolation_level="read_committed")
        written[face] = [(key, value) for key, value, *_ in records]
    assert outputs[True] == outputs[False]
    assert "committed transaction 3 (end of input) with 6 messages" in outputs[True]
    assert "committed offsets: [(True, 0, 20)]" in outputs[True]
    assert written[True] == written[False] == [(b"k%d" % i, b"HELLO %d" % i) for i in range(20)]


def test_aio_example_prints_the_same(tansu, tmp_path):
    """AIOProducer's delivery reports awaited together, then AIOConsumer reading them back: the same
    partitions, offsets, keys and values as under confluent-kafka."""
    outputs = {}
    for face in (False, True):
        topic = f"aio-{'face' if face else 'ck'}-{uuid.uuid4().hex[:6]}"
        _peers.create_topic(tansu, topic, 3)
        outputs[face] = _run(_program("aio_roundtrip.py", face, tmp_path), [tansu, topic, "30"]).replace(topic, "T")
    assert outputs[True] == outputs[False]
    assert outputs[True].count("delivered T") == 30 and outputs[True].count("consumed [") == 30
