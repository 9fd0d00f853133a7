"""A Kafka client over kafkacodec's codec: network layer, metadata, admin, consumer, producer.

    from kafkacodec.client import Consumer
    consumer = Consumer({"bootstrap.servers": "127.0.0.1:9092", "group.id": "g"})
    consumer.subscribe(["events"])
    for record in consumer.poll(1.0): ...
    batch = consumer.poll_arrow(1.0)        # pyarrow.RecordBatch, decoded in C

One background I/O thread per client owns every socket; the calling thread
only waits on futures and decodes what has been fetched.
"""
from typing import TYPE_CHECKING

from kafkacodec.client.admin import Admin, OffsetAndTimestamp, TopicPartition
from kafkacodec.client.consumer import AsyncConsumer, Consumer, ConsumerRecord, RebalanceListener
from kafkacodec.client.errors import (AuthenticationError, BrokerResponseError, CallbackError, ClientFailedError,
                                      ConfigError, InvalidArgumentError, KafkaConnectionError, KafkaError,
                                      KafkaTimeoutError, SendArrowError, SendArrowTimeoutError)
from kafkacodec.client.producer import (AsyncProducer, BulkResult, ConsumerGroupMetadata, Producer, RecordHandle,
                                       RecordMetadata)

__all__ = ["Consumer", "AsyncConsumer", "Admin", "ConsumerRecord", "RebalanceListener", "TopicPartition",
           "OffsetAndTimestamp",
           "KafkaError", "KafkaConnectionError", "KafkaTimeoutError", "AuthenticationError", "ConfigError",
           "BrokerResponseError", "Producer", "AsyncProducer", "RecordHandle", "RecordMetadata", "BulkResult",
           "ConsumerGroupMetadata", "ProducerFencedError", "InvalidArgumentError", "ClientFailedError",
           "CallbackError", "SendArrowError", "SendArrowTimeoutError",
           "ShareConsumer", "AsyncShareConsumer", "ShareRecord", "AcknowledgeType"]

_SHARE = {"ShareConsumer", "AsyncShareConsumer", "ShareRecord", "AcknowledgeType"}  # loaded when first named

# A broker error class is made when first named (see errors): this one too.
if TYPE_CHECKING:
    from kafkacodec.client.errors import ProducerFencedError
    from kafkacodec.client.share import AcknowledgeType, AsyncShareConsumer, ShareConsumer, ShareRecord
else:
    def __getattr__(name):
        if name in _SHARE:
            from kafkacodec.client import share
            return getattr(share, name)
        if name == "ProducerFencedError":
            from kafkacodec.client import errors
            return errors.ProducerFencedError
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
