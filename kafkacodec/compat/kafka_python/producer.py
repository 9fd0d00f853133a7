"""kafka-python's KafkaProducer over kafkacodec.client.Producer."""
from __future__ import annotations

import collections
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

from kafkacodec.client import Producer, RecordHandle
from kafkacodec.client import RecordMetadata as _ClientMetadata
from kafkacodec.compat._kwargs import translate
from kafkacodec.compat.kafka_python._config import PRODUCER, REFUSED
from kafkacodec.compat.kafka_python._metrics import MetricsView
from kafkacodec.compat.kafka_python.serializer import serialize
from kafkacodec.compat.kafka_python.structs import (ConsumerGroupMetadata, OffsetAndMetadata, RecordMetadata,
                                                    TopicPartition)

__all__ = ["KafkaProducer", "FutureRecordMetadata"]


class FutureRecordMetadata:
    """What send() returns: get(timeout) -> RecordMetadata, add_callback/add_errback (called with
    the RecordMetadata / the exception, then the extra arguments given), succeeded(), failed()."""

    def __init__(self, handle: RecordHandle | None, notifier: _Notifier | None, sizes: tuple[int, int, int],
                 error: BaseException | None = None) -> None:
        self._handle, self._notifier, self._sizes = handle, notifier, sizes
        self._lock = threading.Lock()
        self._callbacks: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
        self._errbacks: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
        self._queued = False
        self._error = error

    def _outcome(self, timeout: float | None) -> tuple[RecordMetadata | None, BaseException | None]:
        if self._handle is None:
            return None, self._error
        try:
            md: _ClientMetadata = self._handle.get(timeout)
        except Exception as exc:
            if isinstance(exc, TimeoutError) and not self._handle.done():
                raise
            return None, exc
        k, v, h = self._sizes
        return RecordMetadata(md.topic, md.partition, TopicPartition(md.topic, md.partition), md.offset,
                              md.timestamp, None, k, v, h), None

    @property
    def is_done(self) -> bool:
        return self._handle is None or self._handle.done()

    def get(self, timeout: float | None = None) -> RecordMetadata:
        md, error = self._outcome(timeout)
        if error is not None:
            raise error
        assert md is not None
        return md

    def succeeded(self) -> bool:
        return self.is_done and self._outcome(0)[1] is None

    def failed(self) -> bool:
        return self.is_done and self._outcome(0)[1] is not None

    @property
    def value(self) -> RecordMetadata | None:
        return self._outcome(0)[0] if self.is_done else None

    @property
    def exception(self) -> BaseException | None:
        return self._outcome(0)[1] if self.is_done else None

    def add_callback(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> FutureRecordMetadata:
        return self._add(self._callbacks, f, args, kwargs)

    def add_errback(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> FutureRecordMetadata:
        return self._add(self._errbacks, f, args, kwargs)

    def add_both(self, f: Callable[..., Any], *args: Any, **kwargs: Any) -> FutureRecordMetadata:
        self.add_callback(f, *args, **kwargs)
        return self.add_errback(f, *args, **kwargs)

    def _add(self, where: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]],
             f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> FutureRecordMetadata:
        with self._lock:
            if not self.is_done or self._queued:
                where.append((f, args, kwargs))
                if not self._queued and self._notifier is not None:
                    self._queued = True
                    self._notifier.watch(self)
                return self
        self._fire([(f, args, kwargs)] if where is self._callbacks else [],
                   [(f, args, kwargs)] if where is self._errbacks else [])
        return self

    def _done(self) -> None:
        """On the notifier's thread once the record is acknowledged or failed."""
        with self._lock:
            callbacks, errbacks = self._callbacks, self._errbacks
            self._callbacks, self._errbacks = [], []
            self._queued = False
        self._fire(callbacks, errbacks)

    def _fire(self, callbacks: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]],
              errbacks: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]]) -> None:
        md, error = self._outcome(0)
        for f, args, kwargs in (errbacks if error is not None else callbacks):
            try:
                f(error if error is not None else md, *args, **kwargs)
            except Exception:  # as kafka-python: a callback's error is logged, the others still run
                import logging
                logging.getLogger(__name__).exception("error in a send() callback")


class _Notifier:
    """One thread calling the callbacks added to futures not yet done, in the order they were
    added (records are acknowledged about in that order), so a callback runs soon after its
    record's acknowledgement, as kafka-python runs them on its sender thread."""

    def __init__(self) -> None:
        self._queue: collections.deque[FutureRecordMetadata | None] = collections.deque()
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None

    def watch(self, future: FutureRecordMetadata) -> None:
        with self._ready:
            self._queue.append(future)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="kafkacodec-kafka-python-callbacks",
                                                daemon=True)
                self._thread.start()
            self._ready.notify()

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue:
                    self._ready.wait()
                future = self._queue.popleft()
            if future is None:
                return
            if future._handle is not None:
                try:
                    future._handle.exception(None)  # waits for the acknowledgement or the failure
                except Exception:
                    pass
            future._done()

    def stop(self) -> None:
        with self._ready:
            thread = self._thread
            if thread is None:
                return
            self._queue.append(None)
            self._ready.notify()
        thread.join()


class KafkaProducer:
    """kafka-python's producer: send() -> FutureRecordMetadata, flush, partitions_for, metrics,
    transactions, close.  Configuration keywords keep kafka-python's names and meanings."""

    def __init__(self, **configs: Any) -> None:
        self._key_ser = configs.pop("key_serializer", None)
        self._value_ser = configs.pop("value_serializer", None)
        partitioner = configs.pop("partitioner", None)
        self._partitioner = None if type(partitioner).__name__ == "DefaultPartitioner" else partitioner
        configs.setdefault("bootstrap_servers", "localhost")
        conf = translate("KafkaProducer", PRODUCER, REFUSED, configs)
        conf.setdefault("linger.ms", 0)   # kafka-python's default
        self._producer = Producer(conf)
        self._metrics = MetricsView("producer")
        self._notifier = _Notifier()
        self._closed = False

    @property
    def client(self) -> Producer:
        """kafkacodec's Producer under this one."""
        return self._producer

    def send(self, topic: str, value: Any = None, key: Any = None, headers: list[tuple[str, bytes]] | None = None,
             partition: int | None = None, timestamp_ms: int | None = None) -> FutureRecordMetadata:
        key = serialize(self._key_ser, topic, headers, key)
        value = serialize(self._value_ser, topic, headers, value)
        if partition is None and self._partitioner is not None:
            every = self._producer.partitions_for(topic)
            partition = self._partitioner(key, every, every)
        # kafka-python's sizes: -1 for no key, value or headers; a header's name counted in UTF-8 bytes
        sizes = (-1 if key is None else len(key), -1 if value is None else len(value),
                 sum(len(k.encode("utf-8")) + len(v or b"") for k, v in headers) if headers else -1)
        handle = self._producer.send(topic, value, key, headers or None, partition, timestamp_ms)
        return FutureRecordMetadata(handle, self._notifier, sizes)

    def flush(self, timeout: float | None = None) -> None:
        self._producer.flush(timeout)

    def partitions_for(self, topic: str) -> set[int]:
        return set(self._producer.partitions_for(topic))

    def metrics(self, raw: bool = False) -> dict[str, Any]:
        """kafka-python's {group: {metric name: value}} (see kafka_python._metrics for what
        differs); raw=True: the client's statistics document (librdkafka's STATISTICS.md layout)."""
        doc = self._producer.metrics()
        return doc if raw else self._metrics(doc)

    def close(self, timeout: float | None = None, null_logger: bool = False) -> None:
        if self._closed:
            return
        self._closed = True
        self._producer.close(timeout)
        self._notifier.stop()

    def __del__(self) -> None:
        # as kafka-python's: close(timeout=1).  At exit, or on the client's own I/O thread (a
        # collection may run there), the client stops without waiting instead
        if getattr(self, "_closed", True) is False:
            try:
                client = self._producer.client
                if sys.is_finalizing() or client.on_io_thread:
                    self._closed = True
                    client.close(0)
                else:
                    self.close(timeout=1, null_logger=True)
            except Exception:
                pass

    def __enter__(self) -> KafkaProducer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions

    def init_transactions(self) -> None:
        self._producer.init_transactions()

    def begin_transaction(self) -> None:
        self._producer.begin_transaction()

    def commit_transaction(self) -> None:
        self._producer.commit_transaction()

    def abort_transaction(self) -> None:
        self._producer.abort_transaction()

    def send_offsets_to_transaction(self, offsets: Mapping[TopicPartition, OffsetAndMetadata | int],
                                    group_metadata: ConsumerGroupMetadata | str | Any) -> None:
        plain: dict[TopicPartition | tuple[str, int], int] = {}
        for tp, value in offsets.items():
            if isinstance(value, tuple):
                if value[1]:
                    raise ValueError(f"send_offsets_to_transaction: {tp}: kafkacodec commits no offset metadata; "
                                     f"give the offset alone")
                plain[tp] = value[0]
            else:
                plain[tp] = value
        if isinstance(group_metadata, str):
            self._producer.send_offsets_to_transaction(plain, group_metadata)
            return
        from kafkacodec.client import ConsumerGroupMetadata as _Metadata
        self._producer.send_offsets_to_transaction(plain, _Metadata(
            str(group_metadata.group_id), group_metadata.generation_id, group_metadata.member_id,
            group_metadata.group_instance_id))
