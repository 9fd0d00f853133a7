"""Arguments the face's types rule out, given anyway: each is refused with the face's own error
(KafkaException, _INVALID_ARG) naming what is wrong, before anything reaches a broker."""
import pytest

from kafkacodec.compat.confluent_kafka import Consumer, KafkaError, KafkaException, Message
from kafkacodec.compat.confluent_kafka._types import TopicMetadata
from kafkacodec.compat.confluent_kafka.admin import AdminClient, ConsumerGroupTopicPartitions

# nothing listens on the discard port: the calls under test must fail before any request
NOWHERE = "127.0.0.1:9"


def _invalid_arg(excinfo, *words):
    err = excinfo.value.args[0]
    assert err.code() == KafkaError._INVALID_ARG
    for word in words:
        assert word in err.str()


def test_commit_or_store_of_a_message_without_a_position_is_invalid_arg():
    c = Consumer({"bootstrap.servers": NOWHERE, "group.id": "g", "enable.auto.offset.store": False})
    try:
        with pytest.raises(KafkaException) as excinfo:
            c.commit(message=Message(value=b"made by hand"), asynchronous=False)
        _invalid_arg(excinfo, "no topic, partition and offset")
        with pytest.raises(KafkaException) as excinfo:
            c.store_offsets(message=Message("t", 0))  # no offset
        _invalid_arg(excinfo, "no topic, partition and offset")
    finally:
        c.close()


def test_alter_consumer_group_offsets_without_partitions_is_invalid_arg():
    admin = AdminClient({"bootstrap.servers": NOWHERE})
    try:
        with pytest.raises(KafkaException) as excinfo:
            admin.alter_consumer_group_offsets([ConsumerGroupTopicPartitions("group-a")])
        _invalid_arg(excinfo, "'group-a'", "no topic_partitions")
    finally:
        admin.close()


def test_topic_metadata_without_a_name_prints():
    assert str(TopicMetadata()) == "None"


def _outcome(fn, *args):
    try:
        fn(*args)
    except Exception as exc:
        return type(exc), str(exc)
    return None


def test_consumer_without_group_id_is_refused_as_confluent_kafka_does():
    confluent_kafka = pytest.importorskip("confluent_kafka")
    theirs = _outcome(confluent_kafka.Consumer, {"bootstrap.servers": NOWHERE})
    assert theirs == (ValueError, "Failed to create consumer: group.id must be set")
    assert _outcome(Consumer, {"bootstrap.servers": NOWHERE}) == theirs
    # an empty or None group.id aborts the process in confluent-kafka; here it is the same refusal
    for group in ("", None):
        assert _outcome(Consumer, {"bootstrap.servers": NOWHERE, "group.id": group}) == theirs


def test_calls_after_close_raise_as_confluent_kafka_does():
    confluent_kafka = pytest.importorskip("confluent_kafka")
    from kafkacodec.compat import confluent_kafka as face
    calls = {"Producer": [("poll", 0), ("flush", 0), ("list_topics",), ("cluster_id",), ("purge",),
                          ("produce", "t", b"v"), ("produce_batch", "t", [{"value": b"v"}]),
                          ("init_transactions", 0.1), ("begin_transaction",), ("abort_transaction", 0.1)],
             "Consumer": [("poll", 0), ("consume", 1, 0), ("list_topics",), ("cluster_id",), ("assignment",),
                          ("subscribe", ["t"]), ("memberid",)]}
    conf = {"bootstrap.servers": NOWHERE}
    for kind, listed in calls.items():
        if kind == "Consumer":
            conf = {**conf, "group.id": "g"}
        theirs, ours = getattr(confluent_kafka, kind)(conf), getattr(face, kind)(conf)
        theirs.close()
        ours.close()
        for name, *args in listed:
            expected = _outcome(getattr(theirs, name), *args)
            assert expected is not None and expected[0] is RuntimeError, (kind, name, expected)
            assert _outcome(getattr(ours, name), *args) == expected, (kind, name)
