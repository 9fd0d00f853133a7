"""kafkacodec's producer.

    from kafkacodec.client import Producer
    producer = Producer({"bootstrap.servers": "127.0.0.1:9092", "linger.ms": 5})
    handle = producer.send("events", b"value", key=b"user-1")
    producer.flush()
    handle.get()            # RecordMetadata(topic, partition, offset, timestamp)
    producer.send_arrow("events", table)   # pyarrow Table/RecordBatch: value[, key, timestamp, headers]
    producer.close()

``send()`` appends the record into the open v2 batch of its partition (in C)
and returns a thin handle; the client's I/O thread sends ready batches
(``accumulator``, ``sender``).  Idempotence is on by default, as in Kafka 3.0+,
unless ``acks``, ``max.in.flight.requests.per.connection`` > 5 or
``retries=0`` say otherwise (giving ``enable.idempotence=true`` with those is
a ConfigError).  Callbacks ``callback(error, metadata)`` run on the caller's
thread in ``poll()`` and ``flush()``.
"""
from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from kafkacodec import _impl
from kafkacodec._random import rng
from kafkacodec.errors import KafkaCodecError
from kafkacodec.records.pool import BufferPool
from kafkacodec.client import _checks
from kafkacodec.client._lifecycle import weakly
from kafkacodec.client import errors as E
from kafkacodec.client.errors import PurgedError
from kafkacodec.client.accumulator import BatchResult, RecordAccumulator, RecordHandle, RecordMetadata
from kafkacodec.client.config import PRODUCER, resolve
from kafkacodec.client.network import NetworkClient
from kafkacodec.client.partitioner import Partitioner
from kafkacodec.client.sender import Sender
from kafkacodec.client.stats import Statistics, log_unraised, stats_for_poll
from kafkacodec.client.types import BulkResult, ConsumerGroupMetadata, DeliveryCallback, Headers
from kafkacodec.client.unplaced import UnplacedRecords


if TYPE_CHECKING:
    import asyncio

    import numpy as np
    import numpy.typing as npt

    from kafkacodec.client.metadata import ClusterMetadata, Metadata
    from kafkacodec.client.stats import Document
    from kafkacodec.client.transaction import TransactionManager
    from kafkacodec.client.types import PreparedTransaction, TopicPartition

__all__ = ["Producer", "AsyncProducer", "RecordHandle", "RecordMetadata", "BulkResult", "ConsumerGroupMetadata"]

_time_ns = time.time_ns
_SECONDS_TYPES = (int, float)
# how long flush() waits at a time between serving error_cb/stats_cb/throttle_cb, when one is set
_FLUSH_SERVE_EVERY = 0.05
# Partitioner.key_hash -> how the compiled send path hashes a key itself (send_path.pxd: HASH_*)
_KEY_HASHES = {None: 0, "murmur2": 1, "crc32": 2}
_P = ParamSpec("_P")
_T = TypeVar("_T")
log = logging.getLogger(__name__)


def _run_reports(results: collections.deque[BatchResult], errors: list[Exception], log: logging.Logger) -> int:
    """The pure twin of send_path.run_reports: the callbacks of each completed result in
    `results`, each once; a callback that raises is logged (debug) and its exception kept in
    `errors`, the others still run.  Returns how many ran."""
    ran = 0
    while results:
        result = results.popleft()
        # dropped once run: a callback referring to a handle would otherwise keep a
        # cycle the collector cannot see (handles are untracked, send_path.pyx)
        callbacks, result.callbacks = result.callbacks, ()
        for index, ts, fn in callbacks or ():  # queued because it has some
            err = result.error_of(index)
            try:
                fn(err, None if err is not None else result.metadata(index, ts))
            except Exception as exc:
                log.debug("delivery callback %r raised for %s[%d]", fn, result.topic, result.partition,
                          exc_info=exc)
                errors.append(exc)
            ran += 1
    return ran


if _impl.accelerated:
    from kafkacodec.client.send_path import run_reports
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    run_reports = _run_reports


class _CallbackQueue(collections.deque[BatchResult]):
    """Completed batch results with callbacks; poll() waits on `event`."""

    def __init__(self) -> None:
        super().__init__()
        self.event = threading.Event()

    def append(self, item: BatchResult) -> None:
        super().append(item)
        self.event.set()


def _resolve_idempotence(conf: dict[str, Any]) -> bool:
    given: bool | None = conf["enable.idempotence"]
    conflicts = []
    if conf["acks"] != -1:
        conflicts.append(f"acks={conf['acks']} (idempotence needs acks=all)")
    if conf["max.in.flight.requests.per.connection"] > 5:
        conflicts.append("max.in.flight.requests.per.connection > 5")
    if conf["retries"] == 0:
        conflicts.append("retries=0")
    if conf["transactional.id"] is not None:
        if given is False:
            raise E.ConfigError("enable.idempotence: transactional.id needs idempotence")
        if conflicts:
            raise E.ConfigError(f"transactional.id: transactions need idempotence, which {conflicts[0]} rules out")
        return True
    if given is True and conflicts:
        name = conflicts[0].split("=")[0].split(" ")[0]
        raise E.ConfigError(f"{name}: enable.idempotence=true conflicts with {conflicts[0]}")
    if given is None:
        return not conflicts
    return given


class _StickyTimer:
    """Ends each topic's sticky partition sticky.partitioning.linger.ms after it was chosen
    (librdkafka's rule): the next record without a key then picks a new one.  A ticker of the
    I/O loop; started() is called by send() on any thread."""

    def __init__(self, sticky: dict[str, int], linger: float) -> None:
        self.sticky = sticky
        self.linger = linger
        self.lock = threading.Lock()
        self.until: dict[str, tuple[int, float]] = {}  # topic -> (partition, when its time is up)

    def started(self, topic: str, partition: int) -> None:
        with self.lock:
            self.until[topic] = (partition, time.monotonic() + self.linger)

    def tick(self, now: float) -> float | None:
        if not self.until:
            return None
        nearest = None
        with self.lock:
            for topic, (partition, end) in list(self.until.items()):
                if end <= now:
                    del self.until[topic]
                    if self.sticky.get(topic) == partition:
                        del self.sticky[topic]
                elif nearest is None or end < nearest:
                    nearest = end
        return nearest


class _StopWhenDelivered:
    """A ticker of a producer collected unclosed: stops its client once every record it had
    queued is acknowledged or failed (batches fail at delivery.timeout.ms at the latest)."""

    def __init__(self, client: NetworkClient, acc: RecordAccumulator, unplaced: UnplacedRecords | None) -> None:
        self.client, self.acc, self.unplaced = client, acc, unplaced

    def tick(self, now: float) -> float | None:
        if not self.acc.incomplete and not self.unplaced:
            self.client.close(0)  # on the I/O thread: the loop ends after this pass
        return None


def _deliver_then_stop(client: NetworkClient, sender: Sender, acc: RecordAccumulator,
                       unplaced: UnplacedRecords | None) -> None:
    """I/O thread: what lingers goes now (as on close), then the client stops."""
    sender.closing = True
    client.add_ticker(_StopWhenDelivered(client, acc, unplaced))


def _on_loop(loop: asyncio.AbstractEventLoop, fn: Callable[[BatchResult], object]) -> Callable[[BatchResult], None]:
    """A batch listener that runs fn(result) on `loop`; once the loop is closed nobody awaits the
    batch there, and the listener does nothing (the I/O thread completes it all the same)."""
    def listener(result: BatchResult) -> None:
        try:
            loop.call_soon_threadsafe(fn, result)
        except RuntimeError:
            pass  # the loop is closed
    return listener


class Producer:
    """Sends records to Kafka: ``send()`` queues a record in its partition's open batch and
    returns at once; the client's I/O thread sends the batches and answers the handles.

    ``config`` takes the settings by Kafka's names (``{"bootstrap.servers": ..., "acks":
    "all"}``), ``settings`` the same as snake_case keywords (``linger_ms=5``); an unknown or
    invalid one is a ConfigError naming it.  Usable from several threads; ``with Producer(...)
    as p:`` closes it (flushing first)."""

    def __init__(self, config: Mapping[str, Any] | None = None, **settings: Any) -> None:
        config = dict(config or {})
        if "allow.auto.create.topics" not in config and "allow_auto_create_topics" not in settings:
            config["allow.auto.create.topics"] = True  # the Java producer asks for it too
        self.conf = conf = resolve(config, settings, PRODUCER, "producer")
        self.idempotent = _resolve_idempotence(conf)
        conf["enable.idempotence"] = self.idempotent
        if conf["enable.gapless.guarantee"] and not self.idempotent:
            raise E.ConfigError("enable.gapless.guarantee: needs enable.idempotence")
        self._max_block = conf["max.block.ms"] / 1000
        self._client = NetworkClient(conf, name="kafkacodec-producer-io")
        self._pool = BufferPool(conf["buffer.memory"], conf["batch.size"])
        self._acc = RecordAccumulator(conf, self._pool, self._client.wakeup)
        self._acc.completed = self._callbacks = _CallbackQueue()
        self._sender = Sender(self._client, conf, self._acc, idempotent=self.idempotent,
                              transactional_id=conf["transactional.id"])
        self._txn: TransactionManager | None = None
        if conf["transactional.id"] is not None:
            # imported here: a producer without transactions never loads them (nor the coordinator lookup)
            from kafkacodec.client.transaction import TransactionManager
            self._txn = TransactionManager(self._client, conf, self._sender, self._acc)
            self._sender.txn = self._txn
        self._partitioner = Partitioner(conf["partitioner"])
        self._key_partition = None if self._partitioner.custom else self._partitioner.key_partition
        self._counts: dict[str, int] = {}   # topic -> partition count (from metadata)
        self._sticky: dict[str, int] = {}   # topic -> partition for records without a key
        linger = conf["sticky.partitioning.linger.ms"]
        # librdkafka's rule when set: a keyless record's partition holds this long (0: none holds)
        self._sticky_timer = None if not linger else _StickyTimer(self._sticky, linger / 1000)
        self._sticky_each = linger == 0
        # topic -> open batch per partition, for send()'s lock-free appends (accumulator notes);
        # never filled where those are not safe or must not skip checks
        self._slots: dict[str, list[Any]] = self._acc.open_slots if _impl.accelerated and self._txn is None else {}
        self._closed = False
        if _impl.accelerated and self._txn is None and type(self).send is Producer.send:
            # the same steps as send() below, compiled (kafkacodec.client.send_path)
            from kafkacodec.client.send_path import SendPath
            self.send = self.produce = SendPath(  # type: ignore[method-assign]  # the compiled twin of send
                self._slots, self._sticky, _KEY_HASHES[self._partitioner.key_hash],
                self._key_partition, self._send, self._acc.completed).send
        # records sent before their topic's metadata is known wait here (metadata.wait.on.send=false)
        self._unplaced: UnplacedRecords | None = None
        if not conf["metadata.wait.on.send"]:
            self._unplaced = UnplacedRecords(self._client.metadata, conf, self._place_held, self._adopt_topic,
                                             self._acc)
        # the I/O thread refers to the producer only weakly: one dropped unclosed can be collected (__del__)
        self._client.metadata.listeners.append(weakly(self._metadata_changed))
        self._client.failure_listeners.append(weakly(self._client_failed))
        self._client.add_ticker(self._sender)
        if self._sticky_timer is not None:
            self._client.add_ticker(self._sticky_timer)
        self._statistics = Statistics("producer", self._client, conf, producer=(self._sender, self._acc, self._counts))
        self._stats_cb = conf["stats_cb"]
        self._serves_events = any(conf.get(name) is not None for name in ("stats_cb", "error_cb", "throttle_cb"))
        # poll()/flush() serve them; the callback event wakes them
        self._stats_docs = stats_for_poll(self._client, self._statistics, conf, self._callbacks.event.set)

    def __del__(self) -> None:
        # collected without close(): what is queued is still delivered (within delivery.timeout.ms)
        # and the client then stops, as a close() nobody waits for; nothing here waits (a
        # collection may run on any thread, the I/O thread included)
        if getattr(self, "_closed", True):
            return
        try:
            self._client.call_soon(_deliver_then_stop, self._client, self._sender, self._acc, self._unplaced)
        except Exception:
            pass

    # -- context

    def __enter__(self) -> Producer:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def client(self) -> NetworkClient:
        return self._client

    @property
    def stats(self) -> dict[str, int]:
        """Counters of the sender: requests, batches, records, retries, splits, epoch_bumps."""
        return dict(self._sender.stats)

    def metrics(self) -> Document:
        """The statistics document (librdkafka's STATISTICS.md layout, see kafkacodec.client.stats)
        as a dict, now; the one stats_cb receives every statistics.interval.ms, as JSON."""
        return self._statistics.collect()

    @property
    def producer_id(self) -> tuple[int, int]:
        """(producer id, epoch) of an idempotent or transactional producer; (-1, -1) before it has one."""
        return self._sender.producer_id, self._sender.producer_epoch

    def _client_failed(self, error: BaseException) -> None:
        """I/O thread, once the client has failed: nothing queued can be sent any more."""
        self._sender.set_fatal(error)
        self._acc.fail_all(error)
        if self._unplaced is not None:
            self._unplaced.fail_all(error)

    def _check_usable(self) -> None:
        if self._client.failure is not None:
            raise self._client.failure
        if self._acc.error is not None:
            raise self._acc.error

    # -- metadata

    def _metadata_changed(self, md: Metadata) -> None:
        if self._unplaced is not None:
            self._unplaced.metadata_changed()
        counts = self._counts
        for name in list(counts):
            t = md.topics.get(name)
            if t is not None and t.partitions and len(t.partitions) != counts[name]:
                counts[name] = len(t.partitions)
                self._acc.set_partition_count(name, counts[name])

    def _partition_count(self, topic: str, timeout: float | None = None) -> int:
        """`topic`'s partition count, waiting up to `timeout` (None: max.block.ms) for its metadata;
        from then on its records go straight to the accumulator, unless some are held (unplaced.py)."""
        count = self._counts.get(topic)
        if count is not None:
            return count
        _checks.topic_name(topic)
        if self._closed:
            raise E.ClientClosedError("the producer is closed")
        self._check_usable()
        md = self._client.metadata
        md.add_topics({topic})

        def known(md: Metadata) -> bool:
            t = md.topics.get(topic)
            return t is not None and len(t.partitions) > 0

        wait = self._max_block if timeout is None else timeout
        try:
            md.wait_for(known, wait, f"metadata of topic {topic!r}")
        except E.KafkaTimeoutError as exc:
            code = md.topic_errors.get(topic)
            detail = f" (broker says {E.error_for(code).name})" if code else ""
            within = "max.block.ms" if timeout is None else "the timeout"
            raise E.KafkaTimeoutError(f"topic {topic!r} not in the metadata within {within} "
                                      f"({wait * 1000:.0f} ms){detail}") from exc
        count = len(md.topics[topic].partitions)
        if self._unplaced is not None and self._unplaced.holds(topic):
            return count  # its held records are placed first: the placing adopts the topic
        self._acc.set_partition_count(topic, count)
        self._counts[topic] = count
        return count

    def _adopt_topic(self, topic: str, count: int) -> None:
        """`topic` has `count` partitions: its records go straight to the accumulator from now on
        (the held ones are placed)."""
        self._acc.set_partition_count(topic, count)
        self._counts[topic] = count

    def partitions_for(self, topic: str, timeout: float | None = None) -> list[int]:
        """Partition numbers of `topic`, waiting up to `timeout` seconds (None: max.block.ms) for
        its metadata; KafkaTimeoutError when it does not come."""
        if timeout is not None:
            _checks.timeout_s(timeout)
        return list(range(self._partition_count(topic, timeout)))

    def cluster_metadata(self, topic: str | None = None, *, timeout: float | None = None) -> ClusterMetadata:
        """The cluster's brokers and every topic (or only `topic`, in ``topic_errors`` when the
        broker knows no such topic) from a metadata answer asked for by this call, over the
        producer's own connections; waits up to `timeout` (None: max.block.ms)."""
        if timeout is not None:
            _checks.timeout_s(timeout)
        else:
            timeout = self._max_block
        if topic is not None:
            _checks.topic_name(topic)
        if self._closed:
            raise E.ClientClosedError("the producer is closed")
        return self._client.metadata.snapshot(topic, timeout)

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """New SASL PLAIN/SCRAM credentials: connections made from now on authenticate with
        them; those already open stay as they are."""
        if not isinstance(username, str) or not isinstance(password, str):
            raise E.InvalidArgumentError("set_sasl_credentials: username and password must be str")
        self.conf["sasl.username"], self.conf["sasl.password"] = username, password

    # -- sending

    def send(self, topic: str, value: Any = None, key: Any = None, headers: Headers | None = None,
             partition: int | None = None, timestamp: int | None = None,
             callback: DeliveryCallback | None = None) -> RecordHandle:
        """Queue one record; returns its RecordHandle at once (blocks only while the
        topic's metadata or memory for a new batch is missing, up to max.block.ms)."""
        slots = self._slots.get(topic)
        if timestamp is not None and (timestamp.__class__ is not int or timestamp < 0):
            slots = None  # the general path says what is wrong
        if slots is not None and headers is None and callback is None:
            # the common case: straight into the partition's open batch, no lock
            if timestamp is None:
                timestamp = _time_ns() // 1_000_000
            p = partition
            if p is None:
                if key is None:
                    p = self._sticky.get(topic)
                elif self._key_partition is not None:
                    try:
                        p = self._key_partition(key, len(slots))
                    except TypeError:
                        p = None  # not bytes-like: the general path names it
            elif p.__class__ is not int or not 0 <= p < len(slots):
                p = None  # the general path says what is wrong
            if p is not None:
                batch = slots[p]
                if batch is not None:
                    try:
                        index = batch.append(timestamp, key, value, None)
                    except KafkaCodecError:
                        index = None  # built or failed meanwhile by the I/O thread
                    if index is not None:
                        return RecordHandle(batch.result, index, timestamp)
        return self._send(topic, value, key, headers, partition, timestamp, callback)

    def _send(self, topic: str, value: Any, key: Any, headers: Headers | None, partition: int | None,
              timestamp: int | None, callback: DeliveryCallback | None) -> RecordHandle:
        """send() under the accumulator's lock: new batches, headers, callbacks, checks."""
        self._check_usable()
        count = self._counts.get(topic)
        if count is None and self._unplaced is not None:
            held = self._hold(topic, value, key, headers, partition, timestamp, callback)
            if held is not None:
                return held
        if count is None:
            count = self._partition_count(topic)
        if timestamp is None:
            timestamp = _time_ns() // 1_000_000
        else:
            timestamp = _checks.timestamp_ms(timestamp)
        _checks.headers(headers)
        _checks.callback(callback)
        if self._txn is not None:
            self._txn.check_can_send()
        return self._append_counted(topic, count, value, key, headers, partition, timestamp, callback)

    def _hold(self, topic: str, value: Any, key: Any, headers: Headers | None, partition: int | None,
              timestamp: int | None, callback: DeliveryCallback | None) -> RecordHandle | None:
        """send() of a record whose topic's metadata is not known yet (metadata.wait.on.send=false):
        checked as send() checks, then held until it is (unplaced.py); None: send it now."""
        assert self._unplaced is not None
        _checks.topic_name(topic)
        if self._closed:
            raise E.ClientClosedError("the producer is closed")
        timestamp = _time_ns() // 1_000_000 if timestamp is None else _checks.timestamp_ms(timestamp)
        _checks.headers(headers)
        _checks.callback(callback)
        _checks.bytes_like(key, "key")
        _checks.bytes_like(value, "value")
        if partition is not None and (isinstance(partition, bool) or not isinstance(partition, int)
                                      or partition < 0):
            raise E.InvalidArgumentError(f"partition {partition!r} is not a partition number")
        if self._txn is not None:
            self._txn.check_can_send()
        # held past this call: the caller may reuse a buffer it gave, as the accumulator copies at once
        if value is not None and value.__class__ is not bytes:
            value = bytes(value)
        if key is not None and key.__class__ is not bytes:
            key = bytes(key)
        if headers is not None:
            headers = [(k, None if v is None else bytes(v)) for k, v in headers]
        return self._unplaced.hold(topic, value, key, headers, partition, timestamp, callback)

    def _place_held(self, topic: str, count: int, value: Any, key: Any, headers: Headers | None,
                    partition: int | None, timestamp: int, callback: DeliveryCallback | None) -> RecordHandle:
        """A held record into the accumulator, once its topic's partitions are known (the placer's
        thread).  Without a key, each draws its partition, as librdkafka's records held for
        metadata do."""
        if partition is None and self._partitioner.for_key(key, count) is None:
            partition = self._random_partition(topic, count)
        self._check_usable()
        txn = self._txn
        if txn is not None:
            # held across an abort: failed as the transaction's unsent batches are, never carried
            # into the next transaction
            if txn.abortable_error is not None:
                raise txn.abortable_error
            txn.check_can_send()
        return self._append_counted(topic, count, value, key, headers, partition, timestamp, callback)

    def _append_counted(self, topic: str, count: int, value: Any, key: Any, headers: Headers | None,
                        partition: int | None, timestamp: int, callback: DeliveryCallback | None) -> RecordHandle:
        """send()'s last step, for a topic of `count` partitions: partitioned and appended."""
        acc = self._acc
        try:
            if partition is None:
                partition = self._partitioner.for_key(key, count)
                if partition is None and self._sticky_each:
                    partition = self._random_partition(topic, count)  # sticky.partitioning.linger.ms=0
                elif partition is None:
                    sticky = self._sticky.get(topic)
                    if sticky is None or sticky >= count:
                        sticky = self._new_sticky(topic, count, None)
                    handle = acc.append(topic, sticky, timestamp, key, value, headers, callback, True)
                    if handle is not None:
                        return handle
                    # its batch is full: move to another partition before opening a new batch (KIP-480);
                    # with sticky.partitioning.linger.ms the partition holds for its time (librdkafka's)
                    partition = self._new_sticky(topic, count, sticky) if self._sticky_timer is None else sticky
                    return acc.append(topic, partition, timestamp, key, value, headers, callback, sealed_one=True)
            elif partition.__class__ is not int or not 0 <= partition < count:
                if isinstance(partition, bool) or not isinstance(partition, int):
                    raise E.InvalidArgumentError(f"partition {partition!r} is not a partition number")
                if not 0 <= partition < count:
                    raise E.UnknownPartitionError(f"partition {partition!r} is not one of {topic!r}'s "
                                                  f"{count} partitions")
            return acc.append(topic, partition, timestamp, key, value, headers, callback)
        except (TypeError, KafkaCodecError) as exc:
            failed = exc
        # a key or value that is not bytes-like fails in the partitioner or the batch
        # builder: checked only then, so a good record pays nothing for the check
        _checks.bytes_like(key, "key")
        _checks.bytes_like(value, "value")
        raise failed

    produce = send

    def _random_partition(self, topic: str, count: int) -> int:
        """A random partition, drawn again once if the first has no leader (librdkafka's)."""
        p = rng.randrange(count)
        t = self._client.metadata.topics.get(topic)
        info = None if t is None else t.partitions.get(p)
        return rng.randrange(count) if info is not None and info.leader < 0 else p

    def _new_sticky(self, topic: str, count: int, previous: int | None) -> int:
        """A new sticky partition for `topic`'s records without a key: random among those with a
        leader, another than `previous`; with sticky.partitioning.linger.ms it holds that long."""
        t = self._client.metadata.topics.get(topic)
        available = None if t is None else [p for p, info in t.partitions.items() if info.leader >= 0 and p < count]
        partition = self._sticky[topic] = Partitioner.next_sticky(count, previous, available)
        if self._sticky_timer is not None:
            self._sticky_timer.started(topic, partition)
            self._client.wakeup()  # the I/O loop's next wait ends when this partition's time does
        return partition

    def send_arrow(self, topic: str, data: Any, *, partition: int | None = None, value_schema: Any = None,
                   key_schema: Any = None) -> BulkResult:
        """Send a pyarrow Table or RecordBatch (columns `value` and optionally `key`,
        `timestamp`, `headers`): the batches are built from the columns in C.

        ``value_schema`` / ``key_schema``: a struct (or other typed) `value` / `key` column is
        encoded first, in C for Avro: a :mod:`kafkacodec.values` format
        (``AvroFormat(schema, schema_id=7)`` writes Confluent's header), Avro schema text or
        dict, or a pyarrow Schema (JSON objects).  A binary column is sent as it is.

        Keyed rows go to murmur2's partition (or the configured partitioner's), rows
        without a key fill batches partition after partition; `partition` sends all
        rows to one.  Returns a BulkResult (offsets per row once acknowledged).

        The table may be larger than buffer.memory: it is encoded and queued a chunk at
        a time, each batch waiting up to max.block.ms for memory.  A row larger than
        max.request.size or buffer.memory raises MessageTooLargeError before any
        row is queued.  A failure after queuing began (no memory within max.block.ms,
        the producer closed or failed meanwhile) raises SendArrowError, or
        SendArrowTimeoutError (also a KafkaTimeoutError) when memory ran out; its
        ``result`` is the BulkResult of the rows queued before it (``rows_queued``,
        ``queued_rows()``, ``offsets()`` once acknowledged): they are delivered, or
        fail, like any others, and no other row was queued, so a retry sends the rest:
        ``table.take(numpy.setdiff1d(numpy.arange(table.num_rows), e.result.queued_rows()))``."""
        from kafkacodec.client import _send_arrow
        self._check_usable()
        count = self._partition_count(topic)
        if self._txn is not None:
            self._txn.check_can_send()
        if value_schema is not None or key_schema is not None:
            data = _send_arrow.encode_typed(data, value_schema, key_schema)
        return _send_arrow.send_arrow(self, topic, data, count, partition)

    # -- callbacks, flush, close

    def poll(self, timeout: float | None = 0.0) -> int:
        """Run the callbacks of acknowledged (or failed) records, and stats_cb with the statistics
        documents built since the last call; waits up to `timeout` seconds for the first one.
        Returns how many callbacks ran.

        Every ready callback runs even when some raise: each exception is logged, and then
        one CallbackError carrying them all is raised (``.errors``)."""
        q = self._callbacks
        if not q and timeout == 0 and type(timeout) in _SECONDS_TYPES and not self._stats_docs:
            # nothing to run and no wait: poll(0) after every send, as confluent-kafka's
            # programs do, costs these checks only (the event is a hint: cleared, a wait
            # that follows does not return at once for a result already served)
            if q.event.is_set():
                q.event.clear()
            return 0
        _checks.timeout_s(timeout)
        ran, errors = self._run_callbacks(timeout)
        if errors:
            raise self._callback_error(errors)
        return ran

    def _run_callbacks(self, timeout: float | None) -> tuple[int, list[Exception]]:
        q = self._callbacks
        if not q and timeout and not self._stats_docs:
            q.event.wait(timeout)
        q.event.clear()
        errors: list[Exception] = []
        ran = run_reports(q, errors, log)
        if self._stats_docs:
            served, failed = self._stats_docs.serve(self._stats_cb)
            ran += served
            errors.extend(failed)
        return ran, errors

    @staticmethod
    def _callback_error(errors: list[Exception]) -> E.CallbackError:
        log_unraised(errors)
        first = errors[0]
        error = E.CallbackError(f"{len(errors)} callback(s) raised (delivery, stats_cb); the first: "
                                f"{type(first).__name__}: {first}", errors)
        error.__cause__ = first
        return error

    def _begin_flush(self) -> list[Any]:
        """The results a flush waits for (BatchResults and HeldResults), batches sent at once
        from now until _acc.end_flush()."""
        pending: list[Any] = self._acc.begin_flush()
        if self._unplaced is not None:
            # held records too: once placed, they are in batches begin_flush() did not see
            pending = [*self._unplaced.results(), *pending]
        return pending

    def flush(self, timeout: float | None = None) -> None:
        """Send everything queued now and wait for its answers; then run callbacks.
        Raises KafkaTimeoutError if records remain after `timeout` seconds, CallbackError
        if a callback raised (after running all), and the client's failure if it failed."""
        _checks.timeout_s(timeout)
        pending = self._begin_flush()
        errors: list[Exception] = []
        # error_cb, stats_cb and throttle_cb hear of what happens while flush() waits, as from poll()
        serve_every = _FLUSH_SERVE_EVERY if self._serves_events else None
        try:
            deadline = None if timeout is None else time.monotonic() + timeout
            left = 0
            for result in pending:
                while not errors:
                    wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                    if serve_every is not None:
                        wait = serve_every if wait is None else min(wait, serve_every)
                    if result.wait(wait):
                        break
                    if deadline is not None and time.monotonic() >= deadline:
                        left += 1
                        break
                    if self._stats_docs:
                        errors.extend(self._stats_docs.serve(self._stats_cb)[1])
                if errors:
                    break  # a callback raised while flush() waited: its exception ends the wait, as from poll()
        finally:
            self._acc.end_flush()
        errors.extend(self._run_callbacks(0)[1])
        if errors:
            raise self._callback_error(errors)
        if left:
            raise E.KafkaTimeoutError(f"flush: {left} batches not acknowledged within {timeout:.1f} s")
        if self._client.failure is not None:
            raise self._client.failure

    def close(self, timeout: float | None = None) -> None:
        """Flush (up to `timeout` seconds), then fail whatever is left and stop the I/O thread."""
        if self._closed:
            return
        try:
            if self._client.fatal_error is None and self._acc.error is None:
                self.flush(timeout)
        except E.KafkaTimeoutError:
            pass
        finally:
            self._closed = True
            self._acc.closed = True
            error = E.ClientClosedError("the producer was closed before the record was acknowledged")
            if self._unplaced is not None:
                self._unplaced.fail_all(error)
            done = threading.Event()

            def stop() -> None:
                self._sender.closing = True
                self._acc.fail_all(error)
                done.set()

            if not self._client.closed:
                self._client.call_soon(stop)
                done.wait(5.0)
            self._client.remove_ticker(self._sender)
            self._client.close()
            self._acc.fail_all(error)
            for result in list(self._acc.incomplete):
                result.complete(-1, -1, error)
            self._pool.close()
            self._run_callbacks(0)  # their exceptions are logged: closing goes on

    def purge(self, in_queue: bool = True, in_flight: bool = False, timeout: float = 30.0) -> int:
        """Fail records now instead of waiting for them: those not yet sent (`in_queue`) and/or
        those sent but not acknowledged (`in_flight`; the broker may still append these).
        Their handles and callbacks get a PurgedError.  Returns how many batches were failed."""
        _checks.timeout_s(timeout, optional=False)
        self._check_usable()
        failed = []
        done = threading.Event()

        def purge_now() -> None:
            # on the I/O thread: no batch moves between queued and in flight meanwhile
            try:
                if in_queue and self._unplaced is not None:
                    self._unplaced.fail_all(PurgedError("purged before it was sent"))
                if in_queue:
                    queued = self._acc.fail_queued(PurgedError("purged before it was sent"))
                    self._sender.numbers_dropped(queued)
                    failed.extend(queued)
                if in_flight:
                    failed.extend(self._acc.fail_in_flight(PurgedError("purged while in flight", in_flight=True)))
            finally:
                done.set()

        self._client.call_soon(purge_now)
        if not done.wait(timeout):
            raise E.KafkaTimeoutError(f"purge not done within {timeout:.1f} s")
        return len(failed)

    @property
    def transaction_needs_abort(self) -> bool:
        """True when the open transaction can only be aborted (an abortable error happened)."""
        return self._txn is not None and self._txn.abortable_error is not None

    # -- transactions

    def _transactions(self) -> TransactionManager:
        if self._txn is None:
            raise E.IllegalStateError("transactions need transactional.id")
        return self._txn

    def _api_timeout(self, timeout: float | None) -> float:
        return self._max_block if timeout is None else timeout

    def init_transactions(self, timeout: float | None = None) -> None:
        """Once, before the first transaction (needs ``transactional.id``): gets the producer id
        for it, fencing an older producer with the same id and aborting what it left open."""
        self._transactions().init_transactions(self._api_timeout(timeout))

    def begin_transaction(self) -> None:
        """Start a transaction: the records sent until it ends belong to it."""
        self._transactions().begin_transaction()

    def send_offsets_to_transaction(self, offsets: Mapping[TopicPartition | tuple[str, int], int],
                                    group_metadata: ConsumerGroupMetadata | str, timeout: float | None = None) -> None:
        """Commit consumer offsets {(topic, partition): next offset} with the transaction;
        group_metadata: a kafkacodec Consumer in the group, a ConsumerGroupMetadata or a group id."""
        self._transactions().send_offsets(offsets, group_metadata, self._api_timeout(timeout))

    def commit_transaction(self, timeout: float | None = None) -> None:
        """Flush, then commit the transaction: read_committed consumers see all its records and
        offsets, or, when this raises, none of them (an abortable error: abort_transaction())."""
        self._transactions().commit(self.flush, self._api_timeout(timeout))

    def abort_transaction(self, timeout: float | None = None) -> None:
        """Abort the transaction: records not sent yet fail with TransactionAbortedError, those
        in flight are answered first; read_committed consumers see none of them."""
        self._transactions().abort(self._flush_aborting, self._api_timeout(timeout))

    def _flush_aborting(self, timeout: float | None) -> None:
        """abort_transaction()'s flush: records still held for metadata fail at once, as unsent batches do."""
        txn = self._txn
        if self._unplaced is not None and txn is not None and txn.abortable_error is not None:
            self._unplaced.fail_all(txn.abortable_error)
        self.flush(timeout)

    def prepare_transaction(self, timeout: float | None = None) -> PreparedTransaction:
        """Flush and leave the transaction open, for another process to end it with
        ``kafkacodec.client.transaction.end_transaction`` (two-phase commit, as KIP-939's
        prepareTransaction).  Returns PreparedTransaction(transactional_id, producer_id,
        producer_epoch, partitions); afterwards the producer only closes (closing does not
        end the transaction: the coordinator aborts it after transaction.timeout.ms)."""
        return self._transactions().prepare(self.flush, self._api_timeout(timeout))


class AsyncProducer:
    """The Producer for asyncio applications, on the same machinery: one Producer (its
    accumulator and I/O thread) whose batch results resolve asyncio futures through
    ``loop.call_soon_threadsafe``, once per batch, not per record.

        async with AsyncProducer({"bootstrap.servers": bs}) as p:
            md = await p.send("events", b"value", key=b"k")     # RecordMetadata once acknowledged
            futs = [p.send_future("events", v) for v in values]  # many in flight, then
            await asyncio.gather(*futs)
            await p.flush()

    Appends run on the loop's thread when they cannot block (topic metadata known, memory
    for a new batch free); otherwise, and behind any such call still waiting, on one
    worker thread, so the loop never blocks and records keep their order.  Transactions:
    ``await init_transactions() / commit_transaction() / ...`` (worker thread)."""

    def __init__(self, config: Mapping[str, Any] | None = None, **settings: Any) -> None:
        import concurrent.futures
        self._producer = Producer(config, **settings)
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="kafkacodec-producer-async")
        self._loop: asyncio.AbstractEventLoop | None = None
        # BatchResult -> [(asyncio future, index, timestamp)] (loop thread only)
        self._waiting: dict[BatchResult, list[tuple[asyncio.Future[RecordMetadata], int, int]]] = {}
        self._queued = 0       # appends handed to the worker and not yet done (loop thread only)
        self._last_queued: asyncio.Future[Any] | None = None
        self._delivered: dict[BatchResult, asyncio.Future[None]] = {}  # delivered()'s, per batch
        self._room = 0         # appends of at most batch.size bytes sure to find memory (loop thread only)
        self._closed = False

    @property
    def producer(self) -> Producer:
        """The underlying Producer (for calls that do not wait)."""
        return self._producer

    @property
    def stats(self) -> dict[str, int]:
        return self._producer.stats

    def _run(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> asyncio.Future[_T]:
        import functools
        return self._get_loop().run_in_executor(self._worker, functools.partial(fn, *args, **kwargs))

    def run(self, fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> asyncio.Future[_T]:
        """fn(*args, **kwargs) on this producer's worker thread, after the appends and calls queued
        there before it (call from the loop): a blocking call on the Producer, or on code over it,
        that keeps the loop free."""
        return self._run(fn, *args, **kwargs)

    def _get_loop(self) -> asyncio.AbstractEventLoop:
        import asyncio
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            if self._loop is not None and not self._loop.is_closed():
                raise RuntimeError("an AsyncProducer is used from one event loop")
            self._loop = loop
        return loop

    # -- sending

    def _can_append_here(self, topic: str, key: Any, value: Any, headers: Headers | None) -> bool:
        p = self._producer
        if self._queued or topic not in p._counts:
            return False
        try:
            size = RecordAccumulator._estimate(key, value, headers)
        except TypeError:
            return True  # send() says what is wrong, at once
        batch_size = p._acc.batch_size
        if size <= batch_size and self._room > 0:
            # an append takes at most one new batch; memory freed meanwhile only adds room
            self._room -= 1
            return True
        available = p._pool.available_memory  # a new batch would not wait for memory
        self._room = available // batch_size - 1 if size <= batch_size else 0
        return available >= max(batch_size, size)

    def send_nowait(self, topic: str, value: Any = None, key: Any = None, headers: Headers | None = None,
                    partition: int | None = None, timestamp: int | None = None) -> RecordHandle | None:
        """Append one record on the loop's thread when that cannot block (the topic's metadata
        known, memory for a new batch free, no append waiting on the worker before it): its
        RecordHandle, whose answer ``delivered(handle)`` awaits; None when the append would wait
        (then ``await send_handle(...)``).  Errors found before queueing are raised here."""
        if self._loop is None:
            self._get_loop()
        if self._closed:
            raise E.ClientClosedError("the producer is closed")
        if not self._can_append_here(topic, key, value, headers):
            return None
        return self._producer.send(topic, value, key, headers, partition, timestamp)

    async def send_handle(self, topic: str, value: Any = None, key: Any = None, headers: Headers | None = None,
                          partition: int | None = None, timestamp: int | None = None) -> RecordHandle:
        """Queue one record and return its RecordHandle once appended: at once when that cannot
        block, else after the append ran on the worker thread behind those queued there (the
        loop stays free while it waits for metadata or memory).  No future per record: await
        ``delivered(handle)`` for the answer, then ``handle.get(0)``."""
        handle = self.send_nowait(topic, value, key, headers, partition, timestamp)
        if handle is not None:
            return handle
        return await self._append_on_worker(topic, value, key, headers, partition, timestamp)

    def delivered(self, handle: RecordHandle) -> asyncio.Future[None]:
        """An asyncio future done (result None) once the batch holding `handle`'s record is
        answered; ``handle.get(0)`` then gives its RecordMetadata or raises its error.  One
        future per batch, shared by the records of the batch."""
        result = handle._result
        fut = self._delivered.get(result)
        if fut is None:
            fut = self._delivered[result] = self._result_future(result)
            fut.add_done_callback(lambda _: self._delivered.pop(result, None))
        return fut

    def _append_on_worker(self, topic: str, value: Any, key: Any, headers: Headers | None, partition: int | None,
                          timestamp: int | None) -> asyncio.Future[RecordHandle]:
        """The append on the worker thread, in order behind those queued there."""
        self._queued += 1
        self._room = 0  # what the worker takes is not counted: ask the pool again after it
        queued = self._run(self._producer.send, topic, value, key, headers, partition, timestamp)
        self._last_queued = queued

        def appended(q: asyncio.Future[RecordHandle]) -> None:
            self._queued -= 1
            if self._last_queued is q:
                self._last_queued = None

        queued.add_done_callback(appended)
        return queued

    def send_future(self, topic: str, value: Any = None, key: Any = None, headers: Headers | None = None,
                    partition: int | None = None, timestamp: int | None = None) -> asyncio.Future[RecordMetadata]:
        """Queue one record; returns an asyncio Future of its RecordMetadata (call from the loop).
        Errors found before queueing (bad partition, record too large) are the future's."""
        loop = self._get_loop()
        fut = loop.create_future()
        if self._closed:
            fut.set_exception(E.ClientClosedError("the producer is closed"))
            return fut
        if self._can_append_here(topic, key, value, headers):
            try:
                handle = self._producer.send(topic, value, key, headers, partition, timestamp)
            except Exception as exc:
                fut.set_exception(exc)
                return fut
            self._watch(handle, fut)
            return fut
        # may block for metadata or memory: on the worker, in order
        def appended(q: asyncio.Future[RecordHandle]) -> None:
            if fut.done():
                return
            exc = q.exception() if not q.cancelled() else None
            if q.cancelled():
                fut.cancel()
            elif exc is not None:
                fut.set_exception(exc)
            else:
                self._watch(q.result(), fut)

        self._append_on_worker(topic, value, key, headers, partition, timestamp).add_done_callback(appended)
        return fut

    async def send(self, topic: str, value: Any = None, key: Any = None, headers: Headers | None = None,
                   partition: int | None = None, timestamp: int | None = None) -> RecordMetadata:
        """Send one record and wait for its acknowledgement: RecordMetadata(topic, partition,
        offset, timestamp); raises the delivery error."""
        return await self.send_future(topic, value, key, headers, partition, timestamp)

    send_and_wait = send

    def _watch(self, handle: RecordHandle, fut: asyncio.Future[RecordMetadata]) -> None:
        result = handle._result
        waiting = self._waiting.get(result)
        if waiting is None:
            waiting = self._waiting[result] = []
            waiting.append((fut, handle._index, handle._timestamp))
            loop = fut.get_loop()  # self._loop, whose future it is
            # the I/O thread completes the batch; its futures are resolved on the loop, all at once
            result.add_listener(_on_loop(loop, self._batch_done))
        else:
            waiting.append((fut, handle._index, handle._timestamp))

    def _batch_done(self, result: BatchResult) -> None:
        for fut, index, ts in self._waiting.pop(result, ()):
            if fut.done():
                continue  # cancelled by its awaiter
            err = result.error_of(index)
            if err is not None:
                fut.set_exception(err)
            else:
                fut.set_result(result.metadata(index, ts))

    def _result_future(self, result: BatchResult) -> asyncio.Future[None]:
        """An asyncio future done when `result` (a BatchResult) is."""
        loop = self._get_loop()  # self._loop: its callers have checked it is the running one
        fut = loop.create_future()

        def done(_: object) -> None:
            if not fut.done():
                fut.set_result(None)

        result.add_listener(_on_loop(loop, done))
        return fut

    async def send_arrow(self, topic: str, data: Any, *, partition: int | None = None, value_schema: Any = None,
                         key_schema: Any = None) -> BulkResult:
        """Producer.send_arrow, awaited until every batch is acknowledged; returns the
        BulkResult (offsets() then answers at once); raises the first delivery error."""
        self._get_loop()
        await self._drain_queued()
        self._room = 0  # as after an append on the worker
        bulk = await self._run(self._producer.send_arrow, topic, data, partition=partition,
                               value_schema=value_schema, key_schema=key_schema)
        import asyncio
        await asyncio.gather(*(self._result_future(r) for r, _, _ in bulk._parts))
        bulk.wait(0)
        return bulk

    async def _drain_queued(self) -> None:
        import asyncio
        while self._last_queued is not None:
            await asyncio.wait([self._last_queued])

    # -- flush, close

    async def flush(self, timeout: float | None = None) -> None:
        """Send everything queued now and wait for its answers (KafkaTimeoutError after
        `timeout` seconds); delivery errors stay with the records' futures."""
        import asyncio
        self._get_loop()
        await self._drain_queued()
        acc = self._producer._acc
        pending = self._producer._begin_flush()
        try:
            waits = [self._result_future(r) for r in pending]
            if waits:
                done, left = await asyncio.wait(waits, timeout=timeout)
                for f in left:
                    f.cancel()
                if left:
                    raise E.KafkaTimeoutError(f"flush: {len(left)} batches not acknowledged within {timeout:.1f} s")
        finally:
            acc.end_flush()

    async def close(self, timeout: float | None = None) -> None:
        """Flush (up to `timeout` seconds), then fail whatever is left and stop the I/O thread."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._drain_queued()
            await self._run(self._producer.close, timeout)
        finally:
            self._worker.shutdown(wait=False)
        # the failed batches' listeners were scheduled on the loop: let them run
        import asyncio
        await asyncio.sleep(0)

    async def __aenter__(self) -> AsyncProducer:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def partitions_for(self, topic: str) -> list[int]:
        """Await `Producer.partitions_for`: the topic's partition numbers, from metadata."""
        return await self._run(self._producer.partitions_for, topic)

    async def cluster_metadata(self, topic: str | None = None, *,
                               timeout: float | None = None) -> ClusterMetadata:
        """Await `Producer.cluster_metadata`: the brokers and topics, over the producer's connections."""
        return await self._run(self._producer.cluster_metadata, topic, timeout=timeout)

    # -- transactions (on the worker thread, after the appends queued before them)

    async def init_transactions(self, timeout: float | None = None) -> None:
        """Await `Producer.init_transactions`: this `transactional.id`'s producer id and epoch, fencing older ones."""
        await self._run(self._producer.init_transactions, timeout)

    async def begin_transaction(self) -> None:
        """Await `Producer.begin_transaction`."""
        await self._run(self._producer.begin_transaction)

    async def send_offsets_to_transaction(self, offsets: Mapping[TopicPartition | tuple[str, int], int],
                                          group_metadata: ConsumerGroupMetadata | str,
                                          timeout: float | None = None) -> None:
        """Await `Producer.send_offsets_to_transaction`: the consumer's offsets commit with the transaction."""
        await self._run(self._producer.send_offsets_to_transaction, offsets, group_metadata, timeout)

    async def commit_transaction(self, timeout: float | None = None) -> None:
        """Await `Producer.commit_transaction`: flush, then commit what the transaction wrote."""
        await self._run(self._producer.commit_transaction, timeout)

    async def abort_transaction(self, timeout: float | None = None) -> None:
        """Await `Producer.abort_transaction`: what the transaction wrote is never read by read_committed consumers."""
        await self._run(self._producer.abort_transaction, timeout)
