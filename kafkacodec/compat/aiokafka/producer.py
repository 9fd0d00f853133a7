"""aiokafka.AIOKafkaProducer over kafkacodec.client.AsyncProducer."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Generator, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from kafkacodec.client import AsyncProducer, RecordHandle
from kafkacodec.client import RecordMetadata as _ClientMetadata
from kafkacodec.client.errors import ClientClosedError, UnknownPartitionError
from kafkacodec.client.network import NetworkClient
from kafkacodec.compat._consuming import plain_offsets
from kafkacodec.compat._kwargs import translate
from kafkacodec.compat.aiokafka._config import PRODUCER, PRODUCER_REFUSED
from kafkacodec.compat.aiokafka._started import Started
from kafkacodec.compat.aiokafka.structs import OffsetAndMetadata, RecordMetadata, TopicPartition
from kafkacodec.records.layout import field_size, varint_size

__all__ = ["AIOKafkaProducer", "BatchBuilder", "RecordFuture"]


def _record_size(offset_delta: int, timestamp_delta: int, key: bytes | None, value: bytes | None,
                 headers: Iterable[tuple[str, bytes | None]]) -> int:
    """A v2 record's bytes in its batch (its length prefix included), as aiokafka counts them."""
    hs = list(headers)
    body = (1 + varint_size(timestamp_delta) + varint_size(offset_delta) + field_size(key) + field_size(value)
            + varint_size(len(hs)) + sum(field_size(k.encode()) + field_size(v) for k, v in hs))
    return body + varint_size(body)


class BatchBuilder:
    """create_batch()'s batch: records appended until max_batch_size bytes, sent by send_batch."""

    def __init__(self, max_size: int, key_serializer: Callable[[Any], Any] | None,
                 value_serializer: Callable[[Any], Any] | None) -> None:
        self._max = max_size
        self._records: list[tuple[Any, Any, int | None, list[tuple[str, bytes]] | None]] = []
        self._size = 61  # a v2 batch's header
        self._key_ser, self._value_ser = key_serializer, value_serializer
        self._closed = False
        self._first_ts: int | None = None

    def append(self, *, key: Any, value: Any, timestamp: int | None,
               headers: list[tuple[str, bytes]] | None = None) -> dict[str, Any] | None:
        """Add a record; None when the batch is full (or closed) and the record was not added."""
        if self._closed:
            return None
        if self._key_ser is not None:
            key = self._key_ser(key)
        if self._value_ser is not None:
            value = self._value_ser(value)
        first = self._first_ts if self._records else timestamp
        if not self._records:
            self._first_ts = timestamp
        size = _record_size(len(self._records), (timestamp or 0) - (first or 0) if timestamp else 0, key, value,
                            headers or ())
        if self._records and self._size + size > self._max:
            return None
        self._size += size
        self._records.append((key, value, timestamp, headers))
        return {"offset": len(self._records) - 1, "timestamp": timestamp, "crc": None, "size": size}

    def close(self) -> None:
        self._closed = True

    def size(self) -> int:
        return self._size

    def record_count(self) -> int:
        return len(self._records)


def _metadata(md: _ClientMetadata) -> RecordMetadata:
    return RecordMetadata(md.topic, md.partition, TopicPartition(md.topic, md.partition), md.offset,
                          md.timestamp, md.timestamp_type, None if md.log_start_offset < 0 else md.log_start_offset)


class RecordFuture:
    """send()'s future of the record's RecordMetadata: an asyncio future to its users (await it,
    ``asyncio.gather``/``wait``/``wait_for`` it, ``add_done_callback``, ``result()``, ``cancel()``)
    made without one per record: the record's handle answers ``done()``/``result()`` as its batch
    is answered, and an asyncio future is made only when the answer is waited for or a callback
    added, resolved once per batch by the client (AsyncProducer.delivered)."""

    __slots__ = ("_client", "_handle", "_future")
    _future: asyncio.Future[RecordMetadata] | None
    # asyncio.isfuture() is true: asyncio's functions take it as the future it is
    _asyncio_future_blocking = False

    def __init__(self, client: AsyncProducer, handle: RecordHandle) -> None:
        self._client, self._handle, self._future = client, handle, None

    def _waitable(self) -> asyncio.Future[RecordMetadata]:
        fut = self._future
        if fut is None:
            fut = self._future = asyncio.get_running_loop().create_future()
            handle = self._handle

            def answered(_: object) -> None:
                if fut.done():
                    return  # cancelled by its awaiter; the batch's other records wait on
                try:
                    fut.set_result(_metadata(handle.get(0)))
                except Exception as exc:
                    fut.set_exception(exc)

            self._client.delivered(handle).add_done_callback(answered)
        return fut

    def __await__(self) -> Generator[Any, None, RecordMetadata]:
        if self._future is None and self._handle.done():
            return _metadata(self._handle.get(0))
        return (yield from self._waitable())

    __iter__ = __await__

    def done(self) -> bool:
        return self._handle.done() if self._future is None else self._future.done()

    def cancelled(self) -> bool:
        return self._future is not None and self._future.cancelled()

    def result(self) -> RecordMetadata:
        if self._future is not None:
            return self._future.result()
        if not self._handle.done():
            raise asyncio.InvalidStateError("Result is not set.")
        return _metadata(self._handle.get(0))

    def exception(self) -> BaseException | None:
        if self._future is not None:
            return self._future.exception()
        if not self._handle.done():
            raise asyncio.InvalidStateError("Exception is not set.")
        return self._handle.exception(0)

    def cancel(self, msg: Any = None) -> bool:
        """Stops waiting for the answer (the record is sent all the same, as with aiokafka)."""
        return self._waitable().cancel(msg)

    def add_done_callback(self, fn: Callable[[Any], object], *, context: Any = None) -> None:
        self._waitable().add_done_callback(fn, context=context)

    def remove_done_callback(self, fn: Callable[[Any], object]) -> int:
        return 0 if self._future is None else self._future.remove_done_callback(fn)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._waitable().get_loop()

    def __getattr__(self, name: str) -> Any:
        # what else asyncio reads of a future (_cancel_message, _make_cancelled_error, ...)
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._waitable(), name)

    def __repr__(self) -> str:
        return f"<RecordFuture {self._handle!r}>"


class AIOKafkaProducer(Started[AsyncProducer]):
    """aiokafka's producer: ``await start()``, ``await send(...)`` -> future of RecordMetadata,
    ``await send_and_wait(...)``, ``create_batch``/``send_batch``, ``flush``, ``partitions_for``,
    transactions, ``await stop()``."""

    def __init__(self, *, key_serializer: Callable[[Any], Any] | None = None,
                 value_serializer: Callable[[Any], Any] | None = None,
                 partitioner: Callable[[Any, list[int], list[int]], int] | None = None,
                 **settings: Any) -> None:
        settings.setdefault("bootstrap_servers", "localhost")
        conf = translate("AIOKafkaProducer", PRODUCER, PRODUCER_REFUSED, settings)
        # aiokafka's defaults where they differ from the client's and change what happens
        conf.setdefault("linger.ms", 0)
        conf.setdefault("request.timeout.ms", 40000)
        if conf.get("transactional.id") is not None:
            conf.setdefault("enable.idempotence", True)
        conf.setdefault("enable.idempotence", False)
        conf.setdefault("acks", "all" if conf["enable.idempotence"] else 1)
        self._conf = conf
        self._key_ser, self._value_ser = key_serializer, value_serializer
        self._partitioner = None if type(partitioner).__name__ == "DefaultPartitioner" else partitioner
        self._max_batch = int(conf.get("batch.size", 16384))
        self._producer: AsyncProducer | None = None
        self._topics: dict[str, list[int]] = {}  # partitions of the topics sent to
        self._closed = False

    def _under(self) -> AsyncProducer | None:
        return self._producer

    def _stopped_already(self) -> bool:
        return self._closed

    def _network(self, under: AsyncProducer) -> NetworkClient:
        return under.producer.client

    async def _start(self) -> None:
        self._producer = AsyncProducer(self._conf)
        if self._conf.get("transactional.id") is not None:
            await self._producer.init_transactions()

    async def stop(self) -> None:
        if self._producer is None or self._closed:
            self._closed = True
            return
        self._closed = True
        await self._producer.close()

    async def partitions_for(self, topic: str) -> set[int]:
        return set(await self.client.partitions_for(topic))

    async def flush(self) -> None:
        await self.client.flush()

    async def _append(self, topic: str, value: Any, key: Any, partition: int | None, timestamp_ms: int | None,
                      headers: Iterable[tuple[str, bytes]] | None) -> RecordFuture:
        if self._closed:
            raise ClientClosedError("the producer is stopped")
        client = self.client
        hs = list(headers) if headers else None
        # on the loop when the append cannot block, else behind the worker's queue
        handle = client.send_nowait(topic, value, key, hs, partition, timestamp_ms)
        if handle is None:
            handle = await client.send_handle(topic, value, key, hs, partition, timestamp_ms)
        return RecordFuture(client, handle)

    async def send(self, topic: str, value: Any = None, key: Any = None, partition: int | None = None,
                   timestamp_ms: int | None = None, headers: Iterable[tuple[str, bytes]] | None = None
                   ) -> RecordFuture:
        """Queue a record; returns a future of its RecordMetadata (await it for the acknowledgement)."""
        if self._key_ser is not None:
            key = self._key_ser(key)
        if self._value_ser is not None:
            value = self._value_ser(value)
        if topic not in self._topics:
            # as aiokafka's send(): the topic's metadata first; then appends run on the loop
            # instead of queueing behind a worker thread one by one
            self._topics[topic] = sorted(await self.partitions_for(topic))
        if partition is None and self._partitioner is not None:
            every = self._topics[topic]
            partition = self._partitioner(key, every, every)
        client = self._producer
        try:
            if client is None or self._closed:
                return await self._append(topic, value, key, partition, timestamp_ms, headers)  # says why
            # _append's fast path inline: the common case costs one call to the client
            handle = client.send_nowait(topic, value, key, list(headers) if headers else None, partition,
                                        timestamp_ms)
            if handle is None:
                return await self._append(topic, value, key, partition, timestamp_ms, headers)
        except UnknownPartitionError:
            raise AssertionError("Unrecognized partition") from None  # aiokafka's check, an assert
        return RecordFuture(client, handle)

    async def send_and_wait(self, topic: str, value: Any = None, key: Any = None, partition: int | None = None,
                            timestamp_ms: int | None = None,
                            headers: Iterable[tuple[str, bytes]] | None = None) -> RecordMetadata:
        return await (await self.send(topic, value, key, partition, timestamp_ms, headers))

    def create_batch(self) -> BatchBuilder:
        return BatchBuilder(self._max_batch, self._key_ser, self._value_ser)

    async def send_batch(self, batch: BatchBuilder, topic: str, *, partition: int) -> asyncio.Future[RecordMetadata]:
        """Send the batch's records to `partition`; the future's RecordMetadata is the first record's."""
        batch.close()
        if not batch._records:
            raise ValueError("send_batch: the batch is empty")
        futures = [await self._append(topic, v, k, partition, ts, h) for k, v, ts, h in batch._records]
        whole: asyncio.Future[RecordMetadata] = asyncio.get_running_loop().create_future()

        def done(g: asyncio.Future[list[RecordMetadata]]) -> None:
            if whole.done():
                return
            if g.cancelled():
                whole.cancel()
            elif (exc := g.exception()) is not None:
                whole.set_exception(exc)
            else:
                whole.set_result(g.result()[0])

        asyncio.gather(*futures).add_done_callback(done)
        return whole

    # -- transactions

    async def begin_transaction(self) -> None:
        await self.client.begin_transaction()

    async def commit_transaction(self) -> None:
        await self.client.commit_transaction()

    async def abort_transaction(self) -> None:
        await self.client.abort_transaction()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """``async with producer.transaction():`` commits at the end, aborts on an exception."""
        await self.begin_transaction()
        try:
            yield
        except BaseException:
            await self.abort_transaction()
            raise
        await self.commit_transaction()

    async def send_offsets_to_transaction(self, offsets: Mapping[TopicPartition, int | OffsetAndMetadata
                                                                 | tuple[int, str]],
                                          group_id: str) -> None:
        plain = plain_offsets(offsets, "send_offsets_to_transaction")
        await self.client.send_offsets_to_transaction(plain, group_id)


