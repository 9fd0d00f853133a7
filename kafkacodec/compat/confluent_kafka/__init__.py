"""confluent-kafka's API over kafkacodec's own client.

    from kafkacodec.compat.confluent_kafka import Producer, Consumer, KafkaError, TopicPartition
    from kafkacodec.compat.confluent_kafka.admin import AdminClient, NewTopic

Programs written for confluent-kafka run with only that import changed: ``Producer``
(``produce``, ``poll``, ``flush``, ``len()``, ``purge``, ``list_topics``, transactions),
``Consumer`` (``subscribe`` with ``on_assign``/``on_revoke``/``on_lost``, ``assign``,
``incremental_assign``, ``poll`` -> ``Message``, ``consume``, ``commit``, ``store_offsets``,
``committed``, ``position``, ``seek``, ``pause``/``resume``, ``get_watermark_offsets``,
``offsets_for_times``, ``close``), ``Message``, ``KafkaError``/``KafkaException`` with
librdkafka's codes (``KafkaError._PARTITION_EOF``, ``_MSG_TIMED_OUT``, broker codes under
librdkafka's names), ``TopicPartition``, the ``OFFSET_*`` and ``TIMESTAMP_*`` constants, and
``admin.AdminClient`` returning futures; ``SerializingProducer``/``DeserializingConsumer`` and
``serialization``'s serializers (String, Integer, Double, UUID: confluent-kafka's bytes);
``aio.AIOProducer``/``aio.AIOConsumer`` (and their serializing twins) over the client's
AsyncProducer/AsyncConsumer; ``murmur2``/``consistent``/``fnv1a``.  ``aio``, ``serialization``,
``error`` and the serializing clients load when first named (``import`` stays quick).

Settings
--------
librdkafka's names are translated by one table, ``SETTINGS`` (``_config.py``; print it with
``python -m kafkacodec.compat.confluent_kafka``): ``ssl.ca.location`` -> ``ssl.cafile``,
``sasl.mechanisms`` -> ``sasl.mechanism``, ``queue.buffering.max.ms`` -> ``linger.ms``,
``compression.codec`` -> ``compression.type``, ``message.timeout.ms`` -> ``delivery.timeout.ms``,
``queue.buffering.max.kbytes`` -> ``buffer.memory``, ``fetch.wait.max.ms`` -> ``fetch.max.wait.ms``, ...
kafkacodec's own (Kafka Java) names are accepted as well.  A librdkafka setting with no
equivalent is a ``ConfigError`` that names what to use (``batch.num.messages``: batch.size;
``debug``: the logging module; GSSAPI; PEM strings and keystores: ``ssl.context``).  OAUTHBEARER
takes librdkafka's settings: ``oauth_cb``, the unsecured JWT, ``sasl.oauthbearer.method=oidc``.
``statistics.interval.ms`` and ``stats_cb`` work as in librdkafka for Producer and Consumer: the
JSON follows STATISTICS.md with the fields kafkacodec can fill (``kafkacodec.client.stats``).
A setting of another kind of client (``group.id`` given to a Producer) is ignored with a warning,
as librdkafka does.  Where
librdkafka's defaults differ from kafkacodec's and change behaviour, the face keeps librdkafka's:
``partitioner=consistent_random`` (keyed messages land in the same partitions as with
confluent-kafka), ``enable.idempotence=false``, ``isolation.level=read_committed``,
``queue.buffering.max.messages=100000``.

What differs from confluent-kafka, and why
------------------------------------------
- ``produce()`` waits for a topic's metadata the first time it sees the topic (up to
  ``max.block.ms``), since kafkacodec partitions a record when it is queued; librdkafka queues it
  unpartitioned.  A topic that does not appear raises ``KafkaException(_UNKNOWN_TOPIC)`` there
  instead of failing the delivery later.  When ``buffer.memory`` is full, ``produce()`` waits up
  to ``max.block.ms`` for memory before raising ``BufferError`` (librdkafka raises at once);
  ``queue.buffering.max.messages`` raises ``BufferError`` at once, as in librdkafka.
- A delivery callback that raises: every report ready in that ``poll()`` is still served, then the
  first exception is raised (librdkafka stops serving at it); further ones are raised by the
  following ``poll()``/``flush()`` calls.
- ``purge(in_flight=True)`` fails in-flight messages with ``_PURGE_INFLIGHT`` at once, but their
  produce requests are not withdrawn: the broker may still append them, as with librdkafka.
- Consumer errors (fetch failures, ``auto.offset.reset=error``) come back as a ``Message`` whose
  ``error()`` is set, as in confluent-kafka; ``error().str()`` carries kafkacodec's message, so the
  text differs from librdkafka's while the codes are the same.
- ``Consumer.position()`` answers ``OFFSET_INVALID`` until the consumer knows the position (no
  lookup), like librdkafka before the first fetch; ``get_watermark_offsets(cached=True)`` answers
  ``OFFSET_INVALID`` for what no fetch has told yet.
- ``enable.partition.eof`` events are found from the high watermark of the last fetch: one event
  each time the position reaches it, as librdkafka does.
- Regex subscriptions (``^...``) use Python's ``re`` (librdkafka: POSIX regex); the common
  patterns mean the same.
- ``log_level``/``logger`` change nothing: kafkacodec logs through the ``logging`` module
  (loggers ``kafkacodec.client``, ``kafkacodec.compat``).
- ``AdminClient`` has every call of confluent-kafka 2.16's (ACLs, SCRAM credentials and
  elect_leaders included); ``validate_only`` of create_topics and ``replica_assignment`` are
  refused, configs are described without synonyms.  A call whose API the broker lacks fails at
  once with _UNSUPPORTED_FEATURE, also where librdkafka first waits for a controller the
  broker never names (``admin``'s documentation says more).
- ``Message`` objects of delivery reports carry no headers, as in confluent-kafka; their
  timestamp type is LOG_APPEND_TIME when the broker's acknowledgement gave a log-append time.
- ``KafkaError.str()`` of a local error has librdkafka's text for the common codes and a text made
  from the code's name for the rest; broker codes have kafkacodec's description.
"""
from typing import TYPE_CHECKING

from kafkacodec.compat.confluent_kafka import admin
from kafkacodec.compat.confluent_kafka._config import SETTINGS
from kafkacodec.compat.confluent_kafka._consumer import Consumer
from kafkacodec.compat.confluent_kafka._errors import (ConcurrentModificationException, IllegalStateException,
                                                       KafkaError, KafkaException)
from kafkacodec.compat.confluent_kafka._partitioners import consistent, fnv1a, murmur2
from kafkacodec.compat.confluent_kafka._producer import Producer
from kafkacodec.compat.confluent_kafka._types import (OFFSET_BEGINNING, OFFSET_END, OFFSET_INVALID, OFFSET_STORED,
                                                      TIMESTAMP_CREATE_TIME, TIMESTAMP_LOG_APPEND_TIME,
                                                      TIMESTAMP_NOT_AVAILABLE, ConsumerGroupState,
                                                      ConsumerGroupType, ElectionType, Message, Node, ThrottleEvent,
                                                      TopicCollection, TopicPartition, TopicPartitionInfo, Uuid)
from kafkacodec.compat.confluent_kafka.admin import ConsumerGroupTopicPartitions, IsolationLevel

if TYPE_CHECKING:
    from kafkacodec.compat.confluent_kafka import aio, error, serialization
    from kafkacodec.compat.confluent_kafka._serializing import DeserializingConsumer, SerializingProducer

__all__ = ["Producer", "Consumer", "Message", "KafkaError", "KafkaException", "TopicPartition", "admin", "aio",
           "serialization", "SerializingProducer", "DeserializingConsumer", "IllegalStateException",
           "ConcurrentModificationException", "IsolationLevel", "ElectionType", "Node", "Uuid",
           "ConsumerGroupState", "ConsumerGroupType", "ConsumerGroupTopicPartitions", "TopicCollection",
           "TopicPartitionInfo", "ThrottleEvent", "SETTINGS", "OFFSET_BEGINNING", "OFFSET_END", "OFFSET_STORED",
           "OFFSET_INVALID", "TIMESTAMP_NOT_AVAILABLE", "TIMESTAMP_CREATE_TIME", "TIMESTAMP_LOG_APPEND_TIME",
           "version", "libversion", "murmur2", "consistent", "fnv1a"]

# loaded when first named: aio brings asyncio, and none of these is needed by a plain Producer/Consumer
_SUBMODULES = ("aio", "serialization", "error")
_SERIALIZING = ("SerializingProducer", "DeserializingConsumer")


def __getattr__(name: str) -> object:
    import importlib
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _SERIALIZING:
        value: object = getattr(importlib.import_module(f"{__name__}._serializing"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def version() -> tuple[str, int]:
    """(version string, version int) of kafkacodec, in confluent-kafka's shape."""
    from importlib.metadata import PackageNotFoundError, version as _version
    try:
        text = _version("kafkacodec")
    except PackageNotFoundError:
        text = "0.0.0"
    nums = [int(p) if p.isdigit() else 0 for p in (text.split(".") + ["0", "0"])[:3]]
    return text, (nums[0] << 24) | (nums[1] << 16) | (nums[2] << 8)


libversion = version
