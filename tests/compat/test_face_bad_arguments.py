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
