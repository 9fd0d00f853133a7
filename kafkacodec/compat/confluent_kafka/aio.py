"""``confluent_kafka.aio``: AIOProducer and AIOConsumer, and their serializing twins, over the
client's AsyncProducer and AsyncConsumer (``kafkacodec.client``).

    async with AIOProducer({"bootstrap.servers": bs}) as p:
        delivered = await p.produce("events", b"v", key=b"k")   # an asyncio Future ...
        msg = await delivered                                   # ... of the delivered Message
    c = AIOConsumer({"bootstrap.servers": bs, "group.id": "g"})
    await c.subscribe(["events"], on_assign=on_assign)          # async def on_assign(consumer, partitions)
    msg = await c.poll(1.0)

Nothing here blocks the event loop: records are appended by the client's AsyncProducer (on the
loop only when that cannot wait, else on its worker thread); every call that may wait runs on the
client's worker thread (the AsyncConsumer's, one call after another, as librdkafka's consumer
serializes them).  The callbacks the clients call on their threads (``on_assign``, ``on_revoke``,
``on_lost``, ``on_commit``, ``error_cb``, ``stats_cb``, ``throttle_cb``; coroutine functions, as confluent-kafka
wants them, or plain ones) run on the loop while the thread waits; a call they make on the same
client (``await consumer.assign(partitions)`` in ``on_assign``) is run by that waiting thread, as
it would be made from inside the callback of a blocking client.

What differs from confluent-kafka's:
- AIOProducer hands each record to the client at once: ``batch_size`` and ``buffer_timeout``
  (confluent-kafka's own buffer in front of librdkafka) are accepted and change nothing; the
  client batches by ``linger.ms`` / ``batch.size``.  ``headers`` are produced (confluent-kafka's
  AIOProducer refuses them); ``callback``/``on_delivery`` are called as well as the future is set.
- ``max_workers`` and ``executor`` are accepted; the clients' own worker threads run the calls
  (``executor``, when given, runs the producer's metadata lookups).
- A poll()/consume() whose awaiting task is cancelled while the worker fetches keeps what the
  worker then returns for the next poll()/consume(), instead of losing it.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import functools
import inspect
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from kafkacodec.client import AsyncConsumer, AsyncProducer
from kafkacodec.client import errors as E
from kafkacodec.compat.confluent_kafka import _config, _consumer, _metadata
from kafkacodec.compat.confluent_kafka._consumer import Consumer
from kafkacodec.compat.confluent_kafka._errors import CODES, KafkaError, KafkaException, exception_from, \
    from_exception, make_client
from kafkacodec.compat.confluent_kafka._producer import DeliveryCallback, _bytes, _exit_warning, _headers, _seconds
from kafkacodec.compat.confluent_kafka._serializing import (K, V, applied, build_serdes_async,
                                                            close_serdes_async, key_context, offer_resolver,
                                                            take_serde_settings)
from kafkacodec.compat.confluent_kafka._types import (TIMESTAMP_CREATE_TIME, TIMESTAMP_LOG_APPEND_TIME,
                                                      ClusterMetadata, Message, TopicPartition)
from kafkacodec.compat.confluent_kafka.error import (ConsumeError, KeyDeserializationError, KeySerializationError,
                                                     ValueDeserializationError, ValueSerializationError)
from kafkacodec.compat.confluent_kafka.serialization import HeadersType, MessageField, SerializationContext

if TYPE_CHECKING:
    from typing import Self

    from kafkacodec.client.types import ConsumerGroupMetadata

__all__ = ["AIOProducer", "AIOConsumer", "AsyncSerializingProducer", "AsyncDeserializingConsumer"]

_T = TypeVar("_T")
# rebalance callbacks: (consumer, partitions), plain or coroutine functions
RebalanceCallback = Callable[[Any, list[TopicPartition]], object]


# -- callbacks the clients call on their threads, run on the loop


class _Inbox:
    """Calls a callback running on the loop makes on the client whose thread waits for it
    (`owner`): that thread runs them, so they behave as calls made inside a blocking client's
    callback."""

    def __init__(self, owner: object) -> None:
        self.owner = owner
        self._calls: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._open = True

    def put(self, fn: Callable[[], Any], fut: asyncio.Future[Any]) -> bool:
        with self._lock:
            if not self._open:
                return False  # the callback is over: the caller goes the usual way
            self._calls.put((fn, fut))
            return True

    def close(self) -> None:
        with self._lock:
            self._open = False
            self._calls.put(None)

    def serve(self, loop: asyncio.AbstractEventLoop) -> None:
        """Run the calls put here until close() (on the waiting thread)."""
        while True:
            item = self._calls.get()
            if item is None:
                return
            fn, fut = item
            try:
                result = fn()
            except BaseException as exc:
                loop.call_soon_threadsafe(_settle, fut, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, fut, result, None)


def _settle(fut: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if fut.done():
        return  # its awaiter was cancelled
    if error is not None:
        fut.set_exception(error)
    else:
        fut.set_result(result)


# the inbox of the callback whose task this is (set in that task, inherited by the tasks it starts)
_INBOX: contextvars.ContextVar[_Inbox | None] = contextvars.ContextVar("kafkacodec_aio_inbox", default=None)


def _on_loop(loop: asyncio.AbstractEventLoop, owner: object, fn: Callable[..., object],
             edit: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None = None) -> Callable[..., Any]:
    """fn, for `owner`'s client to call on its own thread: it runs on `loop` (awaited when it returns
    an awaitable) while the calling thread waits, serving the calls fn makes on `owner`."""

    def call(*args: Any) -> Any:
        if edit is not None:
            args = edit(args)
        if _loop_thread(loop):
            # called from the loop itself: run now, and whatever it awaits as a task of its own
            result = fn(*args)
            if inspect.isawaitable(result):
                _background(loop, result)
            return None
        inbox = _Inbox(owner)

        async def run() -> Any:
            _INBOX.set(inbox)
            result = fn(*args)
            if inspect.isawaitable(result):
                result = await result
            return result

        done = asyncio.run_coroutine_threadsafe(run(), loop)
        done.add_done_callback(lambda _: inbox.close())
        inbox.serve(loop)
        return done.result()

    return call


def _loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


_TASKS: set[asyncio.Task[Any]] = set()  # started by _background and not done: kept from the collector


def _background(loop: asyncio.AbstractEventLoop, awaitable: Any) -> None:
    task = loop.create_task(awaitable)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


def _wrap_callbacks(loop: asyncio.AbstractEventLoop, owner: object, config: dict[str, Any],
                    names: Sequence[str]) -> dict[str, Any]:
    out = dict(config)
    for name in names:
        fn = out.get(name)
        if fn is not None and callable(fn):
            out[name] = _on_loop(loop, owner, fn)
    return out


async def _maybe_await(result: Any) -> Any:
    return await result if inspect.isawaitable(result) else result


# -- AIOProducer


class AIOProducer:
    """confluent-kafka's AIOProducer over the client's AsyncProducer: ``await produce(...)`` queues
    the record and returns an asyncio Future of its delivered Message (KafkaException on failure).
    Make it inside a running event loop.  The module's notes say what differs."""

    def __init__(self, producer_conf: dict[str, Any], max_workers: int = 4,
                 executor: concurrent.futures.Executor | None = None, batch_size: int = 1000,
                 buffer_timeout: float = 1.0) -> None:
        self._loop = asyncio.get_running_loop()
        self._is_closed = False
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.executor = executor
        config = _wrap_callbacks(self._loop, self, dict(producer_conf), ("error_cb", "stats_cb", "throttle_cb"))
        conf, face = _config.translate(config, "P")
        self._error_cb: Callable[[KafkaError], object] | None = face.get("error_cb")
        self._error_reported = False
        self._max_messages: int = face["queue.buffering.max.messages"]
        self._ap = make_client(AsyncProducer, conf)
        self._outstanding = 0
        self._delivered = 0           # reports since the last poll()
        self._report = asyncio.Event()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    def _check_open(self) -> None:
        if self._is_closed:
            raise RuntimeError("Producer has been closed")

    def __len__(self) -> int:
        """Records produced and not yet delivered (or failed)."""
        return 0 if self._is_closed else self._outstanding

    # -- producing

    async def produce(self, topic: str, value: str | bytes | None = None, key: str | bytes | None = None,
                      partition: int = -1, callback: DeliveryCallback | None = None,
                      on_delivery: DeliveryCallback | None = None, timestamp: int = 0,
                      headers: HeadersType | None = None) -> asyncio.Future[Message]:
        """Queue one record; returns at once an asyncio Future of the delivered Message, or of the
        KafkaException that failed it (_QUEUE_FULL past queue.buffering.max.messages,
        _MSG_TIMED_OUT, a broker's error ...)."""
        self._check_open()
        result: asyncio.Future[Message] = self._loop.create_future()
        if self._outstanding >= self._max_messages:
            result.set_exception(KafkaException(KafkaError(CODES["_QUEUE_FULL"])))
            return result
        value_b = _bytes(value, "value")
        key_b = _bytes(key, "key")
        part = None if partition is None or partition < 0 else partition
        # given, the timestamp tells a log-append time in the acknowledgement
        ts = timestamp if timestamp else time.time_ns() // 1_000_000
        sent = self._ap.send_future(topic, value_b, key_b, _headers(headers), part, ts)
        self._outstanding += 1
        fn = on_delivery if on_delivery is not None else callback
        start = time.monotonic()

        def delivered(f: asyncio.Future[Any]) -> None:
            self._outstanding -= 1
            self._delivered += 1
            self._report.set()
            if f.cancelled():
                result.cancel()
                return
            exc = f.exception()
            if exc is None:
                md = f.result()
                kind = TIMESTAMP_LOG_APPEND_TIME if md.timestamp_type == 1 else TIMESTAMP_CREATE_TIME
                msg = Message(topic, md.partition, md.offset, key_b, value_b, None, None, (kind, md.timestamp),
                              time.monotonic() - start)
                err: KafkaError | None = None
                if not result.done():
                    result.set_result(msg)
            else:
                err = self._error_of(exc, part)
                msg = Message(topic, -1 if part is None else part, -1001, key_b, value_b, None, err, None,
                              time.monotonic() - start)
                if not result.done():
                    result.set_exception(KafkaException(err))
            if fn is not None:
                self._call_report(fn, err, msg)

        sent.add_done_callback(delivered)
        return result

    @staticmethod
    def _error_of(exc: BaseException, partition: int | None) -> KafkaError:
        if isinstance(exc, (E.InvalidArgumentError, E.ConfigError)):
            code = "_UNKNOWN_PARTITION" if partition is not None and "partition" in str(exc) else "_INVALID_ARG"
            return KafkaError(CODES[code], str(exc))
        return from_exception(exc, timeout_code="_MSG_TIMED_OUT")

    def _call_report(self, fn: DeliveryCallback, err: KafkaError | None, msg: Message) -> None:
        # on the loop, from the record's future: what it raises goes to the loop's exception handler
        result = fn(err, msg)
        if inspect.isawaitable(result):
            _background(self._loop, result)

    async def poll(self, timeout: float = 0) -> int:
        """Delivery reports since the last poll() (the futures are set as records are acknowledged,
        poll() or not); with none yet, waits up to `timeout` seconds (-1: until one) for one.
        Serves stats_cb and error_cb."""
        self._check_open()
        served: int = await self._ap.run(self._ap.producer.poll, 0)
        await self._report_failure()
        if not self._delivered and timeout != 0:
            self._report.clear()
            try:
                await asyncio.wait_for(self._report.wait(), _seconds(timeout))
            except asyncio.TimeoutError:
                pass
        n, self._delivered = self._delivered, 0
        return n + served

    async def _report_failure(self) -> None:
        err = self._ap.producer.client.fatal_error
        if err is not None and not self._error_reported and self._error_cb is not None:
            self._error_reported = True
            await _maybe_await(self._error_cb(from_exception(err)))

    async def flush(self, timeout: float = -1) -> int:
        """Wait until every record produced is delivered or failed, or `timeout` seconds; returns how
        many are still outstanding."""
        self._check_open()
        try:
            await self._ap.flush(_seconds(timeout))
        except E.KafkaTimeoutError:
            pass
        except E.ClientFailedError:
            await self._report_failure()
        await asyncio.sleep(0)  # the records' futures are set by callbacks the flush's wake-up came with
        return self._outstanding

    async def purge(self, in_queue: bool = True, in_flight: bool = True, blocking: bool = True) -> None:
        """Fail queued (_PURGE_QUEUE) and/or in-flight (_PURGE_INFLIGHT) records now: their futures
        fail so.  After the records produced before it."""
        self._check_open()
        try:
            await self._ap.run(self._ap.producer.purge, in_queue, in_flight)
        except E.KafkaError as exc:
            raise exception_from(exc) from exc

    async def list_topics(self, topic: str | None = None, timeout: float = -1) -> ClusterMetadata:
        self._check_open()
        return await self._loop.run_in_executor(self.executor, self._list_topics, topic, _seconds(timeout))

    def _list_topics(self, topic: str | None, timeout: float | None) -> ClusterMetadata:
        return _metadata.list_topics(self._ap.producer, topic, timeout)

    async def cluster_id(self, timeout: float = -1) -> str | None:
        return (await self.list_topics(None, timeout)).cluster_id

    async def set_sasl_credentials(self, username: str, password: str) -> None:
        """SASL PLAIN/SCRAM credentials for the connections made from now on (open ones stay)."""
        self._check_open()
        self._ap.producer.set_sasl_credentials(username, password)

    # -- transactions (after the records produced before them)

    async def _txn(self, call: Any) -> None:
        self._check_open()
        try:
            await call
        except E.KafkaError as exc:
            raise exception_from(exc, txn_requires_abort=self._ap.producer.transaction_needs_abort) from exc

    async def init_transactions(self, timeout: float = -1) -> None:
        await self._txn(self._ap.init_transactions(_seconds(timeout)))

    async def begin_transaction(self) -> None:
        await self._txn(self._ap.begin_transaction())

    async def send_offsets_to_transaction(self, positions: Iterable[TopicPartition], group_metadata: Any,
                                          timeout: float = -1) -> None:
        """Commit the consumer's positions [TopicPartition(topic, partition, next offset)] with the
        transaction; group_metadata is AIOConsumer.consumer_group_metadata()'s."""
        offsets = {(tp.topic, tp.partition): tp.offset for tp in positions if tp.offset >= 0}
        if offsets:
            await self._txn(self._ap.send_offsets_to_transaction(offsets, group_metadata, _seconds(timeout)))

    async def commit_transaction(self, timeout: float = -1) -> None:
        await self._txn(self._ap.commit_transaction(_seconds(timeout)))

    async def abort_transaction(self, timeout: float = -1) -> None:
        await self._txn(self._ap.abort_transaction(_seconds(timeout)))

    # -- shutdown

    async def close(self) -> None:
        """Deliver what is outstanding (up to the delivery timeout), then stop."""
        if self._is_closed:
            return
        self._is_closed = True
        await self._ap.close()

    def __del__(self) -> None:
        if getattr(self, "_is_closed", True) is False:
            try:
                if self._outstanding and not sys.is_finalizing():
                    self._ap.producer.close(0)  # records still unacknowledged fail; nothing waits for them
                else:
                    # nothing to deliver, or the interpreter exiting: stop the I/O thread without waiting
                    # for it or any lock of its own (at exit it no longer runs)
                    if sys.is_finalizing():
                        _exit_warning("AIOProducer", self._outstanding)
                    self._ap.producer.client.close(0)
            except Exception:
                pass


# -- AIOConsumer


class AIOConsumer:
    """confluent-kafka's AIOConsumer over the client's AsyncConsumer: the face's Consumer (stored
    offsets, events, confluent-kafka's types) whose calls run on the AsyncConsumer's worker thread,
    awaited.  Make it inside a running event loop.  Rebalance callbacks get this AIOConsumer."""

    def __init__(self, consumer_conf: dict[str, Any], max_workers: int = 100,
                 executor: concurrent.futures.Executor | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._closed = False
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.executor = executor
        config = _wrap_callbacks(self._loop, self, dict(consumer_conf),
                                 ("error_cb", "stats_cb", "throttle_cb", "on_commit"))
        conf, face = _consumer.settings(config)
        self._ac = make_client(AsyncConsumer, conf)
        self._c = Consumer.__new__(Consumer)
        self._c._setup(conf, face, self._ac.consumer)
        self._kept: list[Message] = []   # fetched for a poll()/consume() whose awaiter went away

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def _call(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """fn(*args, **kwargs) of the face's Consumer: on the worker thread, or, from inside one of
        this consumer's callbacks, on the thread waiting for that callback."""
        if self._closed:
            raise RuntimeError("Consumer closed")
        inbox = _INBOX.get()
        if inbox is not None and inbox.owner is self:
            fut: asyncio.Future[_T] = self._loop.create_future()
            if inbox.put(functools.partial(fn, *args, **kwargs), fut):
                return await fut
        return await self._ac.run(fn, *args, **kwargs)

    # -- consuming

    async def _fetch(self, n: int, timeout: float) -> list[Message]:
        if self._kept:
            out, self._kept = self._kept[:n], self._kept[n:]
            return out
        if self._closed:
            raise RuntimeError("Consumer closed")
        running = asyncio.ensure_future(self._call(self._c.consume, n, timeout))
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            running.add_done_callback(self._keep)
            raise

    def _keep(self, running: asyncio.Future[list[Message]]) -> None:
        if not running.cancelled() and running.exception() is None:
            self._kept.extend(running.result())

    async def poll(self, timeout: float = -1) -> Message | None:
        """The next message or event, waiting up to `timeout` seconds (-1: until there is one)."""
        got = await self._fetch(1, timeout)
        return got[0] if got else None

    async def consume(self, num_messages: int = 1, timeout: float = -1) -> list[Message]:
        """Up to num_messages messages and events, waiting until that many came or `timeout` passed."""
        if num_messages < 0 or num_messages > 1000000:
            raise ValueError("num_messages must be between 0 and 1000000 (1M)")
        return await self._fetch(num_messages, timeout)

    # -- subscription and assignment

    async def subscribe(self, topics: list[str], on_assign: RebalanceCallback | None = None,
                        on_revoke: RebalanceCallback | None = None, on_lost: RebalanceCallback | None = None) -> None:
        """Join the group for `topics`; the callbacks (coroutine functions or plain ones) get this
        AIOConsumer and the partitions, on the loop, while the consumer waits for them."""
        for fn in (on_assign, on_revoke, on_lost):
            if fn is not None and not callable(fn):
                raise TypeError("on_assign, on_revoke and on_lost must be callable")

        def this_consumer(args: tuple[Any, ...]) -> tuple[Any, ...]:
            return (self,) + tuple(args[1:])

        wrapped = [None if fn is None else _on_loop(self._loop, self, fn, this_consumer)
                   for fn in (on_assign, on_revoke, on_lost)]
        await self._call(self._c.subscribe, topics, *wrapped)

    async def unsubscribe(self) -> None:
        await self._call(self._c.unsubscribe)

    async def assign(self, partitions: list[TopicPartition]) -> None:
        await self._call(self._c.assign, partitions)

    async def unassign(self) -> None:
        await self._call(self._c.unassign)

    async def incremental_assign(self, partitions: list[TopicPartition]) -> None:
        await self._call(self._c.incremental_assign, partitions)

    async def incremental_unassign(self, partitions: list[TopicPartition]) -> None:
        await self._call(self._c.incremental_unassign, partitions)

    async def assignment(self) -> list[TopicPartition]:
        return await self._call(self._c.assignment)

    # -- offsets

    async def commit(self, message: Message | None = None, offsets: list[TopicPartition] | None = None,
                     asynchronous: bool = True) -> list[TopicPartition] | None:
        return await self._call(self._c.commit, message, offsets, asynchronous)

    async def store_offsets(self, message: Message | None = None,
                            offsets: list[TopicPartition] | None = None) -> None:
        await self._call(self._c.store_offsets, message, offsets)

    async def committed(self, partitions: list[TopicPartition], timeout: float = -1) -> list[TopicPartition]:
        return await self._call(self._c.committed, partitions, timeout)

    async def position(self, partitions: list[TopicPartition]) -> list[TopicPartition]:
        return await self._call(self._c.position, partitions)

    async def seek(self, partition: TopicPartition) -> None:
        await self._call(self._c.seek, partition)

    async def pause(self, partitions: list[TopicPartition]) -> None:
        await self._call(self._c.pause, partitions)

    async def resume(self, partitions: list[TopicPartition]) -> None:
        await self._call(self._c.resume, partitions)

    async def get_watermark_offsets(self, partition: TopicPartition, timeout: float = -1,
                                    cached: bool = False) -> tuple[int, int]:
        return await self._call(self._c.get_watermark_offsets, partition, timeout, cached)

    async def offsets_for_times(self, partitions: list[TopicPartition], timeout: float = -1) -> list[TopicPartition]:
        return await self._call(self._c.offsets_for_times, partitions, timeout)

    # -- group and cluster

    async def consumer_group_metadata(self) -> ConsumerGroupMetadata:
        return await self._call(self._c.consumer_group_metadata)

    async def list_topics(self, topic: str | None = None, timeout: float = -1) -> ClusterMetadata:
        return await self._call(self._c.list_topics, topic, timeout)

    async def cluster_id(self, timeout: float = -1) -> str | None:
        return await self._call(self._c.cluster_id, timeout)

    async def set_sasl_credentials(self, username: str, password: str) -> None:
        await self._call(self._c.set_sasl_credentials, username, password)

    async def close(self) -> None:
        """Commit the stored offsets (enable.auto.commit), leave the group, stop."""
        if self._closed:
            return
        try:
            await self._call(self._c.close)
        finally:
            self._closed = True
            await self._ac.close(autocommit=False)


# -- the serializing twins: made by `await Cls(conf)`, as confluent-kafka's


def _constructed_by_await(cls: type[_T], conf: dict[str, Any], kwargs: dict[str, Any]) -> Any:
    obj = object.__new__(cls)

    async def construct() -> _T:
        await cast(Any, obj).__init__(conf, **kwargs)
        return obj

    return construct()


async def _with_serdes_async(owner: Any, conf: dict[str, Any], kind: str,
                             make_client: Callable[[dict[str, Any]], object]) -> list[Any]:
    """_serializing.with_serdes for the asyncio classes: builders may build asynchronously, and the
    serdes are offered the client's cluster id as an async resolver."""
    specs, rest = take_serde_settings(conf, f"key.{kind}", f"value.{kind}")
    serdes, owner._owned_serdes, rest = await build_serdes_async(specs, rest)
    try:
        make_client(rest)
        offer_resolver("set_async_cluster_id_resolver", lambda: owner.cluster_id(timeout=60), serdes)
    except BaseException:
        owned, owner._owned_serdes = owner._owned_serdes, []
        await close_serdes_async(owned, quiet=True)
        raise
    return serdes


async def _applied_async(serde: Any, obj: Any, ctx: SerializationContext,
                         error: Callable[[Exception], Exception]) -> Any:
    """_serializing.applied for the asyncio clients: the serde may be a coroutine function."""
    result = applied(serde, obj, ctx, error)
    if not inspect.isawaitable(result):
        return result
    try:
        return await result
    except Exception as exc:
        raise error(exc) from exc


class _AwaitedSerdes:
    """What the asyncio serializing clients share: made by ``await Cls(conf, **kwargs)``, which
    builds the key's and the value's `_serde_kind` ("serializer" or "deserializer") and then the
    client (the next class's __init__) over the settings left; closed with the serdes built here."""

    _serde_kind: ClassVar[str]
    _owned_serdes: list[Any]   # the serdes built from builders: closed with the client
    _key_serde: Any
    _value_serde: Any

    def __new__(cls, conf: dict[str, Any], **kwargs: Any) -> Any:  # an awaitable of the client
        return _constructed_by_await(cls, conf, kwargs)

    async def _init(self, conf: dict[str, Any], **kwargs: Any) -> None:
        client: Any = super()  # AIOProducer or AIOConsumer, next in the subclass's MRO
        self._key_serde, self._value_serde = await _with_serdes_async(
            self, conf, self._serde_kind, lambda rest: client.__init__(rest, **kwargs))

    __init__ = _init  # awaited by __new__'s coroutine

    async def close(self) -> None:
        """The client's close(), then close the serdes built from builders."""
        client: Any = super()
        await client.close()
        owned, self._owned_serdes = self._owned_serdes, []
        await close_serdes_async(owned)


class AsyncSerializingProducer(_AwaitedSerdes, AIOProducer, Generic[K, V]):
    """confluent-kafka's AsyncSerializingProducer: ``producer = await AsyncSerializingProducer(conf)``
    (the settings of SerializingProducer, builders that may build asynchronously); ``await
    produce(topic, key, value, ...)`` serializes (serializers may be coroutine functions) and
    returns AIOProducer.produce's future."""

    _serde_kind = "serializer"

    async def produce(self, topic: str, key: K | None = None, value: V | None = None,  # type: ignore[override]
                      partition: int = -1, timestamp: int = 0,
                      headers: HeadersType | None = None) -> asyncio.Future[Message]:
        ctx = key_context(self._check_open, topic, headers)
        key_bytes = await _applied_async(self._key_serde, key, ctx, KeySerializationError)
        ctx.field = MessageField.VALUE
        value_bytes = await _applied_async(self._value_serde, value, ctx, ValueSerializationError)
        return await AIOProducer.produce(self, topic, value_bytes, key_bytes, partition, None, None, timestamp,
                                         headers)


class AsyncDeserializingConsumer(_AwaitedSerdes, AIOConsumer, Generic[K, V]):
    """confluent-kafka's AsyncDeserializingConsumer: ``consumer = await AsyncDeserializingConsumer(conf)``;
    ``poll()`` returns the Message deserialized (ConsumeError for an event or error),
    ``consume()`` the messages deserialized and the events as they are."""

    _serde_kind = "deserializer"

    async def _deserialize(self, msg: Message[Any, Any]) -> Message[K, V]:
        ctx = SerializationContext(cast(str, msg.topic()), MessageField.KEY, msg.headers())
        key = await _applied_async(self._key_serde, msg.key(), ctx,
                                   functools.partial(KeyDeserializationError, kafka_message=msg))
        ctx.field = MessageField.VALUE
        value = await _applied_async(self._value_serde, msg.value(), ctx,
                                     functools.partial(ValueDeserializationError, kafka_message=msg))
        msg.set_key(key)
        msg.set_value(value)
        out: Message[K, V] = msg
        return out

    async def poll(self, timeout: float = -1) -> Message[K, V] | None:  # type: ignore[override]
        msg = await super().poll(timeout)
        if msg is None:
            return None
        error = msg.error()
        if error is not None:
            raise ConsumeError(error, kafka_message=msg)
        return await self._deserialize(msg)

    async def consume(self, num_messages: int = 1, timeout: float = -1) -> list[Message[K, V]]:  # type: ignore[override]
        """The messages deserialized; events and errors (error() set) as they are."""
        out: list[Message[K, V]] = []
        for msg in await super().consume(num_messages, timeout):
            out.append(msg if msg.error() is not None else await self._deserialize(msg))  # type: ignore[arg-type]
        return out
