"""kafka-python's API over kafkacodec's own client (Producer, Consumer, Admin).

    from kafkacodec.compat.kafka_python import KafkaProducer, KafkaConsumer, TopicPartition

Programs written for kafka-python run with only that import changed (``kafka.admin``,
``kafka.errors``, ``kafka.structs``, ``kafka.serializer`` as the submodules of the same names).
Configuration keywords keep kafka-python's names and meanings and are translated to the client's
settings (``linger_ms=0`` as kafka-python's default).  A keyword with no meaning in kafkacodec is
a ConfigError naming what to use (proxies, ``selector``, ``kafka_client``, GSSAPI,
``sasl_oauth_token_provider``, ``default_offset_commit_callback``, ``metric_reporters``);
``api_version``, ``bootstrap_timeout_ms`` and the metrics sampling keywords tune only
kafka-python's internals and are accepted without effect.

What differs: send()'s callbacks run on one thread of the face (kafka-python: its I/O thread);
offset commits carry no metadata (a non-empty one is refused); ``metrics()`` has kafka-python's
groups and names, its rates counted since the previous call, not over sampled windows, and only
the metrics the client's statistics answer (``_metrics``; ``raw=True``: the statistics document
itself); ``ConsumerRecord.checksum`` is None; the admin
calls return dicts and lists with kafka-python's field names, not its protocol responses.
"""
import enum

from kafkacodec.compat.kafka_python import errors
from kafkacodec.compat.kafka_python.admin import KafkaAdminClient
from kafkacodec.compat.kafka_python.consumer import (AsyncConsumerRebalanceListener, ConsumerRebalanceListener,
                                                     KafkaConsumer)
from kafkacodec.compat.kafka_python.producer import FutureRecordMetadata, KafkaProducer
from kafkacodec.compat.kafka_python.serializer import DefaultSerializer, Deserializer, JsonSerializer, Serializer
from kafkacodec.compat.kafka_python.structs import (ConsumerGroupMetadata, ConsumerRecord, OffsetAndMetadata,
                                                    OffsetAndTimestamp, RecordMetadata, TopicPartition,
                                                    TopicPartitionReplica)


class IsolationLevel(enum.IntEnum):
    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1


__version__ = "3.0.12"
__all__ = ["KafkaProducer", "KafkaConsumer", "KafkaAdminClient", "ConsumerRebalanceListener",
           "AsyncConsumerRebalanceListener", "TopicPartitionReplica", "ConsumerRecord",
           "RecordMetadata", "FutureRecordMetadata", "TopicPartition", "OffsetAndMetadata", "OffsetAndTimestamp",
           "ConsumerGroupMetadata", "IsolationLevel", "Serializer", "Deserializer", "DefaultSerializer",
           "JsonSerializer", "errors"]
