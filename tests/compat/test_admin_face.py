"""The face's AdminClient group-offset calls against Tansu, checked against
confluent-kafka's own AdminClient: what one writes the other reads."""
import uuid

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")
import _peers  # noqa: E402,F401  (tests/_peers.py: the tansu fixture's broker)
from confluent_kafka.admin import AdminClient as RealAdmin  # noqa: E402

from kafkacodec.compat import confluent_kafka as ck  # noqa: E402
from kafkacodec.compat.confluent_kafka.admin import (AdminClient, ConsumerGroupTopicPartitions,  # noqa: E402
                                                     NewTopic)


def test_group_offsets_alter_list_delete_match_confluent_kafka(tansu):
    topic = f"grp-{uuid.uuid4().hex[:8]}"
    face = AdminClient({"bootstrap.servers": tansu})
    real = RealAdmin({"bootstrap.servers": tansu})
    try:
        face.create_topics([NewTopic(topic, 2, 1)])[topic].result(20)
        group = f"g-{uuid.uuid4().hex[:8]}"
        req = ConsumerGroupTopicPartitions(group, [ck.TopicPartition(topic, 0, 11), ck.TopicPartition(topic, 1, 12)])
        altered = face.alter_consumer_group_offsets([req])[group].result(20)
        assert [(tp.partition, tp.offset) for tp in altered.topic_partitions] == [(0, 11), (1, 12)]
        # confluent-kafka reads what the face committed
        real_req = confluent_kafka.ConsumerGroupTopicPartitions(
            group, [confluent_kafka.TopicPartition(topic, 0), confluent_kafka.TopicPartition(topic, 1)])
        got = real.list_consumer_group_offsets([real_req])[group].result(20)
        assert sorted((tp.partition, tp.offset) for tp in got.topic_partitions) == [(0, 11), (1, 12)]
        # and the face reads what confluent-kafka commits
        real.alter_consumer_group_offsets([confluent_kafka.ConsumerGroupTopicPartitions(
            group, [confluent_kafka.TopicPartition(topic, 1, 30)])])[group].result(20)
        listed = face.list_consumer_group_offsets([ConsumerGroupTopicPartitions(
            group, [ck.TopicPartition(topic, 0), ck.TopicPartition(topic, 1)])])[group].result(20)
        assert [(tp.partition, tp.offset) for tp in listed.topic_partitions] == [(0, 11), (1, 30)]
        assert face.delete_consumer_groups([group])[group].result(20) is None
        after = face.list_consumer_group_offsets([ConsumerGroupTopicPartitions(
            group, [ck.TopicPartition(topic, 0)])])[group].result(20)
        assert [tp.offset for tp in after.topic_partitions] == [ck.OFFSET_INVALID]
    finally:
        face.close()
