"""confluent-kafka's ShareConsumer (KIP-932 share groups) over kafkacodec.client.share.ShareConsumer.

``poll()`` returns a Messages batch whose Messages carry ``delivery_count()``; in implicit mode
(``share.acknowledgement.mode``, the default) the next poll or commit accepts them, in explicit
mode ``acknowledge()``/``acknowledge_offset()`` mark each one.  The acknowledgement-commit
callback gets ({TopicPartition: {offsets}}, KafkaException or None), as confluent-kafka's.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, overload

from kafkacodec.client import errors as E
from kafkacodec.client.config.share import SHARE_CONSUMER
from kafkacodec.client.share import AcknowledgeType
from kafkacodec.client.share import ShareConsumer as _ShareConsumer
from kafkacodec.client.types import TopicPartition as _ClientTopicPartition
from kafkacodec.compat.confluent_kafka import _config
from kafkacodec.compat.confluent_kafka._closing import ClosedOnExit
from kafkacodec.compat.confluent_kafka._errors import IllegalStateException, KafkaException, exception_from, make_client
from kafkacodec.compat.confluent_kafka._producer import _seconds
from kafkacodec.compat.confluent_kafka._types import Message, TopicPartition

__all__ = ["ShareConsumer", "AcknowledgeType", "Messages"]

# the share consumer's own settings, under their Kafka and librdkafka names
_OWN = ("share.acknowledgement.mode", "max.poll.records")

AcknowledgementCommitCallback = Callable[[dict[TopicPartition, set[int]], KafkaException | None], object]


class Messages:
    """The batch ShareConsumer.poll() returns: a read-only sequence of Messages."""

    def __init__(self, messages: Iterable[Message] = ()) -> None:
        self._records = list(messages)

    @classmethod
    def _from_list(cls, records: list[Message]) -> Messages:
        batch = cls.__new__(cls)
        batch._records = records
        return batch

    def records(self) -> list[Message]:
        """A copy of the batch's messages."""
        return list(self._records)

    def count(self) -> int:
        return len(self._records)

    def is_empty(self) -> bool:
        return not self._records

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[Message]:
        return iter(self._records)

    @overload
    def __getitem__(self, index: int) -> Message: ...
    @overload
    def __getitem__(self, index: slice) -> Messages: ...

    def __getitem__(self, index: int | slice) -> Message | Messages:
        if isinstance(index, slice):
            return self._from_list(self._records[index])
        return self._records[index]

    def __repr__(self) -> str:
        return f"Messages({self._records!r})"


def settings(config: dict[str, Any]) -> dict[str, Any]:
    """kafkacodec's share consumer settings of a confluent-kafka ShareConsumer configuration."""
    config = dict(config)
    own = {k: config.pop(k) for k in _OWN if k in config}
    conf, _face = _config.translate(config, "C")
    if not conf.get("group.id"):
        raise ValueError("Failed to create share consumer: group.id must be set")
    # a classic member's settings (offsets, auto commit, assignors) mean nothing to a share member
    out = {k: v for k, v in conf.items() if k in SHARE_CONSUMER}
    out.update(own)
    return out


def _ack_type(ack_type: object) -> AcknowledgeType:
    try:
        return AcknowledgeType(ack_type)  # type: ignore[arg-type]  # anything: checked here
    except (ValueError, TypeError):
        raise TypeError(f"ack_type must be an AcknowledgeType, got {ack_type!r}") from None


class ShareConsumer(ClosedOnExit):
    """confluent-kafka's ShareConsumer: queue-like consumption in a share group (KIP-932)."""

    def __init__(self, *args: dict[str, Any], **kwargs: Any) -> None:
        config = _config.given(args, kwargs, "ShareConsumer")
        self._c = make_client(_ShareConsumer, settings(config))
        self._callback: AcknowledgementCommitCallback | None = None
        self._closed = False

    def _check_open(self) -> None:
        if self._closed:
            # confluent-kafka's class for a call in a wrong state (a RuntimeError too)
            raise IllegalStateException("Share consumer closed")

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except E.CallbackError as exc:
            raise (exc.errors[0] if exc.errors else exc) from None  # the callback's own exception, as confluent-kafka raises it
        except E.KafkaError as exc:
            raise exception_from(exc) from exc

    def subscribe(self, topics: list[str]) -> None:
        self._check_open()
        if not isinstance(topics, (list, tuple)) or not all(isinstance(t, str) for t in topics):
            raise TypeError("expected list of topic unicode strings")
        self._call(self._c.subscribe, list(topics))

    def unsubscribe(self) -> None:
        self._check_open()
        self._call(self._c.unsubscribe)

    def subscription(self) -> list[str]:
        self._check_open()
        return self._c.subscription()

    def poll(self, timeout: float = -1) -> Messages:
        """The records acquired for this member, up to max.poll.records, waiting up to `timeout`
        seconds (negative: without end) for the first."""
        self._check_open()
        records = self._call(self._c.poll, _seconds(timeout))
        out = []
        for r in records:
            m = Message._of_record(r.record)
            m._delivery_count = r.delivery_count
            out.append(m)
        return Messages._from_list(out)

    def acknowledge(self, message: Message, ack_type: AcknowledgeType = AcknowledgeType.ACCEPT) -> None:
        self._check_open()
        if not isinstance(message, Message):
            raise TypeError("expected a Message")
        self.acknowledge_offset(message.topic(), message.partition(), message.offset(),  # type: ignore[arg-type]
                                ack_type)

    def acknowledge_offset(self, topic: str, partition: int, offset: int,
                           ack_type: AcknowledgeType = AcknowledgeType.ACCEPT) -> None:
        self._check_open()
        self._call(self._c.acknowledge_offset, topic, partition, offset, _ack_type(ack_type))

    def commit_sync(self, timeout: float = 60) -> dict[TopicPartition, KafkaException | None]:
        """Send the acknowledgements now and wait: {TopicPartition: None or its KafkaException}."""
        self._check_open()
        results = self._call(self._c.commit_sync, _seconds(timeout))
        return {TopicPartition(tp.topic, tp.partition): None if err is None else exception_from(err)
                for tp, err in results.items()}

    def commit_async(self) -> None:
        self._check_open()
        self._call(self._c.commit_async)

    def set_acknowledgement_commit_callback(self, callback: AcknowledgementCommitCallback | None) -> None:
        """callback({TopicPartition: {offsets}}, KafkaException or None), called from poll() and commit_*()."""
        self._check_open()
        if callback is not None and not callable(callback):
            raise TypeError("callback must be callable or None")
        self._callback = callback

        def relay(offsets: dict[_ClientTopicPartition, set[int]], error: BaseException | None) -> None:
            cb = self._callback
            if cb is not None:
                cb({TopicPartition(tp.topic, tp.partition): set(o) for tp, o in offsets.items()},
                   None if error is None else exception_from(error))

        self._c.set_acknowledgement_commit_callback(None if callback is None else relay)

    def set_sasl_credentials(self, username: str, password: str) -> None:
        self._check_open()
        self._call(self._c.set_sasl_credentials, username, password)

    def close(self) -> None:
        """Acknowledge what was handed out (implicit mode), release the rest, leave the group."""
        if self._closed:
            return
        self._closed = True
        self._c.close()
