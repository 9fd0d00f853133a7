"""aiokafka's API over kafkacodec's own client (AsyncProducer, AsyncConsumer, Admin).

    from kafkacodec.compat.aiokafka import AIOKafkaProducer, AIOKafkaConsumer, TopicPartition

Programs written for aiokafka run with only that import changed (``aiokafka.producer``,
``aiokafka.consumer``, ``aiokafka.structs``, ``aiokafka.errors``, ``aiokafka.admin``,
``aiokafka.helpers`` as the submodules of the same names).  aiokafka's keyword arguments keep their names and meanings and
are translated to the client's settings; aiokafka's defaults are kept where they change what
happens (``enable_idempotence=False`` with ``acks=1``, ``linger_ms=0``, round-robin assignment,
``session_timeout_ms=10000``).  A setting with no meaning in kafkacodec is a ConfigError naming
what to use (``loop``, ``rebalance_timeout_ms``, ``sasl_oauth_token_provider``, assignors other
than range and round-robin); ``api_version`` and ``consumer_timeout_ms`` tune only aiokafka's
internals and are accepted without effect.  Waiting calls run on the client's worker threads,
never on the event loop.  As aiokafka's, a rebalance listener is told of an (empty) revocation
before the first assignment, and not when the consumer stops, nor at all without a group_id.
A client used before ``await start()`` raises an AttributeError, as aiokafka's does from inside;
here it says to call start() first (it is also kafkacodec's IllegalStateError).

What differs: offset commits carry no metadata (a non-empty one is refused);
``last_stable_offset`` is the client's cached
high watermark (the last stable offset under read_committed); ``send_batch`` sends the batch's
records to the partition in order (its RecordMetadata is the first record's); send()'s future is a
RecordFuture, made without an asyncio future per record: ``asyncio.isfuture()`` is true of it and
asyncio's functions take it as a future, ``isinstance(f, asyncio.Future)`` is not.
``ConsumerRecord`` is a compiled type with the dataclass's fields, constructor, equality, repr and
``dataclasses`` support (fields, asdict, replace); its fields can be set, not deleted, and it takes
no attributes of its own.
"""
from kafkacodec.compat.aiokafka import errors
from kafkacodec.compat.aiokafka.consumer import AIOKafkaConsumer, ConsumerRebalanceListener
from kafkacodec.compat.aiokafka.errors import ConsumerStoppedError, IllegalOperation
from kafkacodec.compat.aiokafka.producer import AIOKafkaProducer
from kafkacodec.compat.aiokafka.structs import (ConsumerRecord, OffsetAndMetadata, OffsetAndTimestamp,
                                                RecordMetadata, TopicPartition)

__version__ = "0.14.0"
__all__ = ["AIOKafkaProducer", "AIOKafkaConsumer", "ConsumerRebalanceListener", "ConsumerRecord",
           "RecordMetadata", "TopicPartition", "OffsetAndMetadata", "OffsetAndTimestamp", "ConsumerStoppedError",
           "IllegalOperation", "errors"]
