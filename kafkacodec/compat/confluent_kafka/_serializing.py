"""SerializingProducer and DeserializingConsumer: the face's Producer and Consumer with a
serializer (deserializer) for keys and one for values.

Settings of their own, taken out before the rest reaches the client:
``key.serializer`` / ``value.serializer`` (``key.deserializer`` / ``value.deserializer``): a
callable ``(obj, SerializationContext)``; or ``<that name>.builder``: a SerializerBuilder
(DeserializerBuilder) whose ``build(conf, is_key)`` makes one when the client is made and returns
the settings it leaves for the client.  The serdes built here are closed with the client; those
given ready-made stay the caller's.  Serdes that can take one (``set_cluster_id_resolver``) get a
callable answering the cluster id, asked of the brokers only when first called.
"""
from __future__ import annotations

import functools
import inspect
import logging
import threading
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, cast

from kafkacodec.compat.confluent_kafka._consumer import Consumer
from kafkacodec.compat.confluent_kafka._producer import DeliveryCallback, Producer
from kafkacodec.compat.confluent_kafka._types import Message
from kafkacodec.compat.confluent_kafka._typevars import DefaultTypeVar
from kafkacodec.compat.confluent_kafka.error import (ConsumeError, KeyDeserializationError, KeySerializationError,
                                                     ValueDeserializationError, ValueSerializationError)
from kafkacodec.compat.confluent_kafka.serialization import HeadersType, MessageField, SerializationContext

# unparameterized, the serializing clients' keys and values are Any
K = DefaultTypeVar("K", default=Any)
V = DefaultTypeVar("V", default=Any)

__all__ = ["SerializingProducer", "DeserializingConsumer"]

log = logging.getLogger("kafkacodec.compat")

# how long a serde's cluster-id lookup may wait for the brokers (the Java client's max.block.ms)
CLUSTER_ID_TIMEOUT = 60.0


class SerdeSpec(NamedTuple):
    """One serde as a configuration gives it: ready-made, or a builder."""
    prop: str
    serde: Any
    builder: Any
    is_key: bool


def take_serde_settings(conf: dict[str, Any], key_prop: str,
                        value_prop: str) -> tuple[list[SerdeSpec], dict[str, Any]]:
    """The key's and the value's SerdeSpec, and a copy of `conf` without their settings."""
    if not isinstance(conf, dict):
        raise TypeError(f"configuration must be a dict, got {type(conf).__name__}")
    rest = dict(conf)
    specs = []
    for prop, is_key in ((key_prop, True), (value_prop, False)):
        serde, builder = rest.pop(prop, None), rest.pop(prop + ".builder", None)
        if serde is not None and builder is not None:
            raise ValueError(f"{prop} and {prop}.builder are both set: give one of them")
        specs.append(SerdeSpec(prop, serde, builder, is_key))
    return specs, rest


def _built(prop: str, result: Any) -> tuple[Any, dict[str, Any]]:
    try:
        serde, left = result
    except (TypeError, ValueError):
        raise ValueError(f"{prop}.builder: build() must return (serde, settings), "
                         f"got {type(result).__name__}") from None
    if not isinstance(left, dict):
        raise ValueError(f"{prop}.builder: build() returned {type(left).__name__} as the settings left, "
                         f"not a dict")
    return serde, left


class _Built:
    """What build_serdes and build_serdes_async gather, spec by spec: the serdes in spec order,
    those built here (owned), and the settings each builder left."""

    def __init__(self) -> None:
        self.serdes: list[Any] = []
        self.owned: list[Any] = []
        self.lefts: list[dict[str, Any]] = []

    def add(self, spec: SerdeSpec, result: Any) -> None:
        """spec's serde: the ready-made one, or the one its builder's build() returned (`result`)."""
        if spec.builder is None:
            self.serdes.append(spec.serde)
            return
        serde, left = _built(spec.prop, result)
        self.serdes.append(serde)
        self.owned.append(serde)
        self.lefts.append(left)

    def answer(self, conf: dict[str, Any]) -> tuple[list[Any], list[Any], dict[str, Any]]:
        return self.serdes, self.owned, self._left_for_client(conf)

    def _left_for_client(self, conf: dict[str, Any]) -> dict[str, Any]:
        # a setting any builder took is its own, not the client's
        if not self.lefts:
            return conf
        lefts = self.lefts
        return {k: v for k, v in lefts[-1].items() if all(k in left for left in lefts[:-1])}


def _build(spec: SerdeSpec, conf: dict[str, Any]) -> Any:
    """spec's builder's build() over a copy of all of `conf` (None: the serde is ready-made)."""
    return None if spec.builder is None else spec.builder.build(dict(conf), spec.is_key)


def build_serdes(specs: list[SerdeSpec], conf: dict[str, Any]) -> tuple[list[Any], list[Any], dict[str, Any]]:
    """(the serdes in spec order, those built here, the settings left for the client); the
    builders each see all of `conf`.  A builder that fails closes those built before it."""
    built = _Built()
    try:
        for spec in specs:
            built.add(spec, _build(spec, conf))
    except BaseException:
        close_serdes(built.owned, quiet=True)
        raise
    return built.answer(conf)


async def build_serdes_async(specs: list[SerdeSpec],
                             conf: dict[str, Any]) -> tuple[list[Any], list[Any], dict[str, Any]]:
    """build_serdes for the asyncio clients: build() may return an awaitable."""
    built = _Built()
    try:
        for spec in specs:
            result = _build(spec, conf)
            built.add(spec, await result if inspect.isawaitable(result) else result)
    except BaseException:
        await close_serdes_async(built.owned, quiet=True)
        raise
    return built.answer(conf)


class _CloseFailures:
    """The first serde whose close failed is raised once all were tried; the others are logged."""

    def __init__(self) -> None:
        self.first: BaseException | None = None

    def add(self, serde: Any, exc: BaseException) -> None:
        if self.first is None:
            self.first = exc
        else:
            log.warning("closing serde %r failed", serde, exc_info=exc)

    def raise_first(self, quiet: bool) -> None:
        if self.first is not None and not quiet:
            raise self.first


def close_serdes(serdes: list[Any], quiet: bool = False) -> None:
    """close() each (those without one are skipped); the first failure is raised after all were
    tried, the others logged."""
    failures = _CloseFailures()
    for serde in serdes:
        close = getattr(serde, "close", None)
        if not callable(close):
            continue
        try:
            close()
        except BaseException as exc:
            failures.add(serde, exc)
    failures.raise_first(quiet)


async def close_serdes_async(serdes: list[Any], quiet: bool = False) -> None:
    """close_serdes for the asyncio clients: aclose() first, else close(), awaited if it is a coroutine."""
    failures = _CloseFailures()
    for serde in serdes:
        close = getattr(serde, "aclose", None)
        if not callable(close):
            close = getattr(serde, "close", None)
        if not callable(close):
            continue
        try:
            result = close()
            if inspect.isawaitable(result):
                await result
        except BaseException as exc:
            failures.add(serde, exc)
    failures.raise_first(quiet)


class ClusterIdResolver:
    """cluster_id() for the serdes, one call at a time whoever asks: callers arriving while one is
    under way take its answer."""

    def __init__(self, cluster_id: Callable[..., Any], timeout: float = CLUSTER_ID_TIMEOUT) -> None:
        self._cluster_id = cluster_id
        self._timeout = timeout
        self._lock = threading.Lock()
        self._running: threading.Event | None = None
        self._answer: tuple[Any, BaseException | None] = (None, None)

    def __call__(self) -> Any:
        with self._lock:
            running = self._running
            if running is None:
                running = self._running = threading.Event()
                mine = True
            else:
                mine = False
        if not mine:
            running.wait()
            value, error = self._answer
            if error is not None:
                raise error
            return value
        try:
            self._answer = (self._cluster_id(timeout=self._timeout), None)
        except BaseException as exc:
            self._answer = (None, exc)
            raise
        finally:
            with self._lock:
                self._running = None  # the next caller asks again: the client answers from its metadata
            running.set()
        return self._answer[0]


def with_serdes(owner: Any, conf: dict[str, Any], kind: str, make_client: Callable[[dict[str, Any]], object],
                resolver: Callable[[], Any] | None = None) -> list[Any]:
    """[key, value] `kind` ("serializer" or "deserializer") built from `conf`, then the client made
    over the other settings (make_client(rest)) and offered `resolver` as their cluster id source.
    The serdes built from builders are owner's to close (``owner._owned_serdes``); they are closed
    at once when the client cannot be made."""
    specs, rest = take_serde_settings(conf, f"key.{kind}", f"value.{kind}")
    serdes, owner._owned_serdes, rest = build_serdes(specs, rest)
    try:
        make_client(rest)
        if resolver is not None:
            offer_resolver("set_cluster_id_resolver", resolver, serdes)
    except BaseException:
        owned, owner._owned_serdes = owner._owned_serdes, []
        close_serdes(owned, quiet=True)
        raise
    return serdes


def offer_resolver(setter: str, resolver: Callable[[], Any], serdes: list[Any]) -> None:
    """resolver to each serde that has the method `setter`."""
    for serde in serdes:
        method = getattr(serde, setter, None)
        if callable(method):
            method(resolver)


def key_context(check_open: Callable[[], None], topic: str, headers: HeadersType | None) -> SerializationContext:
    """The context a serializing producer's key serializer is called with; nothing reaches the
    serializers once the producer is closed (check_open raises) or when the topic is not a str."""
    check_open()
    if not isinstance(topic, str):
        raise TypeError(f"topic must be a str, not {type(topic).__name__}")
    return SerializationContext(topic, MessageField.KEY, headers)


def applied(serde: Any, obj: Any, ctx: SerializationContext, error: Callable[[Exception], Exception]) -> Any:
    """``serde(obj, ctx)``, or obj itself without a serde; what the serde raises is raised as error(exc)."""
    if serde is None:
        return obj
    try:
        return serde(obj, ctx)
    except Exception as exc:
        raise error(exc) from exc


class SerializingProducer(Producer, Generic[K, V]):
    """confluent-kafka's SerializingProducer: ``produce(topic, key, value, ...)`` serializes the key
    and the value (KeySerializationError / ValueSerializationError when they fail) and produces
    the bytes as Producer.produce does.  Its own settings: the module's notes."""

    _owned_serdes: list[Any]   # the serdes built from builders: closed with the client

    def __init__(self, conf: dict[str, Any]) -> None:
        self._key_serializer, self._value_serializer = with_serdes(
            self, conf, "serializer", super().__init__, ClusterIdResolver(self.cluster_id))

    def produce(self, topic: str, key: K | None = None, value: V | None = None,  # type: ignore[override]
                partition: int = -1, on_delivery: DeliveryCallback | None = None, timestamp: int = 0,
                headers: HeadersType | None = None) -> None:
        """Serialize key and value (the serializers see the topic, the field and the headers), then
        produce; nothing reaches the serializers once the producer is closed or the topic is not a str."""
        ctx = key_context(self._check_open, topic, headers)
        key_bytes = applied(self._key_serializer, key, ctx, KeySerializationError)
        ctx.field = MessageField.VALUE
        value_bytes = applied(self._value_serializer, value, ctx, ValueSerializationError)
        Producer.produce(self, topic, value_bytes, key_bytes, partition, None, on_delivery, timestamp, headers)

    def close(self, timeout: float | None = None) -> bool:
        """Producer.close(), then close the serializers built from builders."""
        result = super().close(timeout)
        owned, self._owned_serdes = self._owned_serdes, []
        close_serdes(owned)
        return result

    def __exit__(self, exc_type: object, exc_value: object, exc_traceback: object) -> bool | None:
        self.close()
        return None


def deserialize(msg: Message[Any, Any], key_deserializer: Any, value_deserializer: Any) -> Message[Any, Any]:
    """msg with its key and value deserialized in place (the key first: a key deserializer may leave
    something for the value's)."""
    ctx = SerializationContext(cast(str, msg.topic()), MessageField.KEY, msg.headers())
    key = applied(key_deserializer, msg.key(), ctx, functools.partial(KeyDeserializationError, kafka_message=msg))
    ctx.field = MessageField.VALUE
    value = applied(value_deserializer, msg.value(), ctx,
                    functools.partial(ValueDeserializationError, kafka_message=msg))
    msg.set_key(key)
    msg.set_value(value)
    return msg


class DeserializingConsumer(Consumer, Generic[K, V]):
    """confluent-kafka's DeserializingConsumer: ``poll()`` returns the Message with its key and value
    deserialized (``deserialized_key()``/``deserialized_value()``, or ``key()``/``value()``), raises
    ConsumeError for an event or error, KeyDeserializationError / ValueDeserializationError (the raw
    message in ``kafka_message``) when a deserializer fails.  ``consume()`` is not offered, as in
    confluent-kafka.  Its own settings: the module's notes."""

    _owned_serdes: list[Any]   # the serdes built from builders: closed with the client

    def __init__(self, conf: dict[str, Any]) -> None:
        self._key_deserializer, self._value_deserializer = with_serdes(
            self, conf, "deserializer", super().__init__, ClusterIdResolver(self.cluster_id))

    def poll(self, timeout: float | None = -1) -> Message[K, V] | None:  # type: ignore[override]
        msg = super().poll(timeout)
        if msg is None:
            return None
        error = msg.error()
        if error is not None:
            raise ConsumeError(error, kafka_message=msg)
        out: Message[K, V] = deserialize(msg, self._key_deserializer, self._value_deserializer)
        return out

    def consume(self, num_messages: int = 1, timeout: float | None = -1) -> list[Message[K, V]]:  # type: ignore[override]
        """Not offered (as in confluent-kafka): use poll()."""
        raise NotImplementedError("DeserializingConsumer.consume() is not offered: use poll()")

    def close(self) -> None:
        """Consumer.close(), then close the deserializers built from builders."""
        super().close()
        owned, self._owned_serdes = self._owned_serdes, []
        close_serdes(owned)

    def __exit__(self, exc_type: object, exc_value: object, exc_traceback: object) -> bool | None:
        self.close()
        return None
