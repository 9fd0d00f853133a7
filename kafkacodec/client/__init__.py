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

from kafkacodec.client.errors import (AuthenticationError, BrokerResponseError, CallbackError, ClientFailedError,
                                      ConfigError, InvalidArgumentError, KafkaConnectionError, KafkaError,
                                      KafkaTimeoutError, SendArrowError, SendArrowTimeoutError)

__all__ = ["Consumer", "AsyncConsumer", "Admin", "ConsumerRecord", "RebalanceListener", "TopicPartition",
           "OffsetAndTimestamp",
           "KafkaError", "KafkaConnectionError", "KafkaTimeoutError", "AuthenticationError", "ConfigError",
           "BrokerResponseError", "Producer", "AsyncProducer", "RecordHandle", "RecordMetadata", "BulkResult",
           "ConsumerGroupMetadata", "ProducerFencedError", "InvalidArgumentError", "ClientFailedError",
           "CallbackError", "SendArrowError", "SendArrowTimeoutError",
           "ShareConsumer", "AsyncShareConsumer", "ShareRecord", "AcknowledgeType"]

# The module of each client class, imported when the name is first used: a script that only
# produces never loads the consumer, the group protocol or the admin client (a few ms at start).
_MODULE_OF = {
    "Producer": "producer", "AsyncProducer": "producer", "RecordHandle": "accumulator",
    "RecordMetadata": "types", "BulkResult": "types", "ConsumerGroupMetadata": "types",
    "TopicPartition": "types", "OffsetAndTimestamp": "types",
    "Consumer": "consumer", "AsyncConsumer": "consumer", "ConsumerRecord": "consumer",
    "RebalanceListener": "consumer",
    "Admin": "admin",
    "ShareConsumer": "share", "AsyncShareConsumer": "share", "ShareRecord": "share", "AcknowledgeType": "share",
    # a broker error class is made when first named (see errors)
    "ProducerFencedError": "errors",
}

if TYPE_CHECKING:
    from kafkacodec.client.accumulator import RecordHandle
    from kafkacodec.client.admin import Admin
    from kafkacodec.client.consumer import AsyncConsumer, Consumer, ConsumerRecord, RebalanceListener
    from kafkacodec.client.errors import ProducerFencedError
    from kafkacodec.client.producer import AsyncProducer, Producer
    from kafkacodec.client.share import AcknowledgeType, AsyncShareConsumer, ShareConsumer, ShareRecord
    from kafkacodec.client.types import (BulkResult, ConsumerGroupMetadata, OffsetAndTimestamp, RecordMetadata,
                                         TopicPartition)
else:
    def __getattr__(name):
        module = _MODULE_OF.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value  # found here directly from now on
        return value

    def __dir__():
        return sorted(set(globals()) | set(__all__))
