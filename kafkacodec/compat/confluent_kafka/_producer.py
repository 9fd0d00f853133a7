"""confluent-kafka's Producer over kafkacodec's Producer."""
from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Self

from kafkacodec import _impl
from kafkacodec.client import Producer as _Producer
from kafkacodec.client import errors as E
from kafkacodec.client.errors import ErrorCode
from kafkacodec.compat.confluent_kafka import _config, _metadata
from kafkacodec.compat.confluent_kafka._errors import (CODES, KafkaError, KafkaException,
                                                       exception_from, from_exception, make_client)
from kafkacodec.compat.confluent_kafka._types import (OFFSET_INVALID, ClusterMetadata, Headers, Message,
                                                      TopicPartition)

if TYPE_CHECKING or _impl.accelerated:
    from kafkacodec.compat.confluent_kafka._produce import Delivery, ProducerCore
else:
    from kafkacodec._pure.confluent_produce import Delivery, ProducerCore

__all__ = ["Producer"]

# on_delivery(err, msg): err is None when the message was delivered
DeliveryCallback = Callable[[KafkaError | None, Message], object]

# the longest single wait handed to kafkacodec when confluent-kafka's caller waits forever
_FOREVER_STEP = 3600.0


def _seconds(timeout: float | None) -> float | None:
    """confluent-kafka's timeouts: None or a negative number wait forever."""
    return None if timeout is None or timeout < 0 else float(timeout)


def _bytes(value: object, what: str) -> bytes | None:
    if value is None or isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what}: expected str or bytes, got {type(value).__name__}")


def _headers(headers: Mapping[str, Any] | Iterable[tuple[str, Any]] | None) -> Headers | None:
    if headers is None:
        return None
    items = headers.items() if isinstance(headers, Mapping) else headers
    out = []
    for item in items:
        try:
            k, v = item
        except (TypeError, ValueError):
            raise TypeError(f"headers: expected (key, value) pairs, got {item!r}") from None
        if not isinstance(k, str):
            raise TypeError(f"headers: a key must be a str, got {k!r}")
        out.append((k, _bytes(v, f"header {k!r}")))
    return out or None


def _exit_warning(what: str, left: int) -> None:
    """At exit, a producer not flushed: what is lost, as librdkafka's own warning says."""
    if left:
        sys.stderr.write(f"kafkacodec: {what} terminating with {left} message(s) still in queue or in flight: "
                         f"call flush() to wait for their delivery\n")


def _report_failed(report: Delivery, err: BaseException, partition: int | None) -> None:
    """on_delivery(err, msg) of a message the client failed (its report object's), from the
    report's ledger: a function of the module, so that reports never refer to the Producer.
    `partition` is where the record was, as the report loop knows it (None: not told)."""
    fn = report.fn
    if fn is None:  # a report without a function is done before this
        return
    if partition is None:
        partition = report.partition
    if partition < 0 and getattr(err, "code", None) == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
        # held for a topic the brokers say does not exist (topic.metadata.propagation.max.ms)
        kerr = KafkaError(CODES["_UNKNOWN_TOPIC"], str(err))
    else:
        kerr = from_exception(err, timeout_code="_MSG_TIMED_OUT")
    msg = Message(report.topic, partition, OFFSET_INVALID, report.key, report.value, None, kerr,
                  None, time.monotonic() - report.start)
    raised = report.reports.raised
    # an exception kept keeps this frame (its traceback): not the report, which the cycle
    # collector does not see (it refers to the ledger that keeps the exception)
    del report
    try:
        fn(kerr, msg)
    except Exception as exc:
        raised.append(exc)


class Producer(ProducerCore):
    """confluent-kafka's Producer: ``produce()`` queues, ``poll()``/``flush()`` serve delivery reports.
    produce() is ProducerCore's (_produce.pyx): messages with nothing to translate go straight
    to the client's send path, the others to ``_produce`` below."""

    def __init__(self, *args: dict[str, Any], **kwargs: Any) -> None:
        ProducerCore.__init__(self)
        config = _config.given(args, kwargs, "Producer")
        conf, face = _config.translate(config, "P")
        self._error_cb: Callable[[KafkaError], object] | None = face.get("error_cb")
        self._on_delivery: DeliveryCallback | None = face.get("on_delivery")
        self._reports.only_errors = face["delivery.report.only.error"]
        self._max_messages: int = face["queue.buffering.max.messages"]
        self._p = make_client(_Producer, conf)
        self._reports.report_failed = _report_failed
        self._closed = False
        self._error_reported = False
        self._send_through(self._p.send, Delivery, self._p.poll, self._p.client)

    def _check_open(self, what: str = "Producer") -> None:
        # confluent-kafka's words: "Producer has been closed", and "Handle ..." for the calls
        # any client has (list_topics)
        if self._closed:
            raise RuntimeError(f"{what} has been closed")

    # -- producing

    def _produce(self, topic: str, value: str | bytes | None, key: str | bytes | None, partition: int | None,
                 callback: DeliveryCallback | None, on_delivery: DeliveryCallback | None, timestamp: int,
                 headers: Mapping[str, Any] | Iterable[tuple[str, Any]] | None) -> None:
        """produce() for every message ProducerCore does not queue itself: each argument translated
        and checked."""
        if self._closed:
            raise RuntimeError("Producer has been closed")
        if (self._reports.outstanding + self._tracked >= self._max_messages
                and len(self) >= self._max_messages):
            raise BufferError(KafkaError(CODES["_QUEUE_FULL"]).str())
        fn = on_delivery if on_delivery is not None else callback
        if fn is None:
            fn = self._on_delivery
        if fn is not None and not callable(fn):
            raise TypeError("on_delivery must be callable")
        if value is not None and value.__class__ is not bytes:
            value = _bytes(value, "value")
        if key is not None and key.__class__ is not bytes:
            key = _bytes(key, "key")
        part = None if partition is None or partition < 0 else partition
        # a message nobody is told about needs no report: the client's handle says when it is done
        report = None if fn is None else Delivery(self._reports, fn, topic, key, value, part if part is not None else -1)
        try:
            handle = self._p.send(topic, value, key, None if headers is None else _headers(headers), part,
                                  timestamp or None, report)
        except (E.InvalidArgumentError, E.ConfigError) as exc:
            code = "_UNKNOWN_PARTITION" if part is not None and "partition" in str(exc) else "_INVALID_ARG"
            raise KafkaException(KafkaError(CODES[code], str(exc))) from exc
        except E.KafkaTimeoutError as exc:
            # produce() never waits for metadata (metadata.wait.on.send=false): only for memory
            raise BufferError(str(exc)) from exc
        except E.KafkaError as exc:
            raise exception_from(exc) from exc
        if report is None:
            self._track(handle)
        else:
            report.placed(handle)
            self._reports.outstanding += 1

    def produce_batch(self, topic: str, messages: list[dict[str, Any]], partition: int | None = -1,
                      callback: DeliveryCallback | None = None, on_delivery: DeliveryCallback | None = None) -> int:
        """produce() for each dict of `messages` (value, key, timestamp, callback) to `partition`; returns how
        many were queued.  A message that is refused gets an '_error' entry.  A message's own 'partition' is
        not used, as in confluent-kafka: librdkafka's batch call is not told to read it."""
        self._check_open()
        if not isinstance(messages, list):
            raise TypeError("messages must be a list of dicts")
        queued = 0
        default = on_delivery if on_delivery is not None else callback
        for m in messages:
            try:
                self.produce(topic, m.get("value"), m.get("key"), partition,
                             m.get("callback") or default, None, m.get("timestamp", 0))
                queued += 1
            except KafkaException as exc:
                m["_error"] = exc.args[0]
            except BufferError:
                m["_error"] = KafkaError(CODES["_QUEUE_FULL"])
        return queued

    def __len__(self) -> int:
        """Messages queued, in flight, or delivered but not yet reported by poll()/flush()."""
        self._forget_done()
        return self._reports.outstanding + self._unreported()

    def __bool__(self) -> bool:
        return True  # an object with __len__ would be false when nothing is queued

    # -- serving reports

    def _raise_kept(self) -> None:
        if self._reports.raised:
            raise self._reports.raised.pop(0)

    def _report_failure(self) -> None:
        err = self._p.client.fatal_error
        if err is not None and not self._error_reported and self._error_cb is not None:
            self._error_reported = True
            self._error_cb(from_exception(err))

    def _poll(self, timeout: float | None) -> int:
        """poll() (ProducerCore's, _produce.pyx, which takes poll(0) itself, as the pure twin's
        does not): serve delivery reports, waiting up to `timeout` seconds (None or -1: until
        one arrives) for the first; returns how many were served.  A callback's exception is
        raised here."""
        self._check_open()
        self._raise_kept()
        self._forget_done()
        wait = _seconds(timeout)
        served: int = 0
        while True:
            step = _FOREVER_STEP if wait is None else wait
            try:
                served += self._p.poll(step)
            except E.CallbackError as exc:
                raise (exc.errors[0] if exc.errors else exc) from None  # the callback's own exception, as confluent-kafka raises it
            if self._reports.raised or self._p.client.fatal_error is not None:
                self._report_failure()
                self._raise_kept()
            if served or wait is not None:
                return served

    def flush(self, timeout: float | None = -1) -> int:
        """Wait until every queued message is reported (serving reports), or `timeout` seconds;
        returns how many are still queued."""
        self._check_open()
        self._raise_kept()
        wait = _seconds(timeout)
        try:
            self._p.flush(wait)
        except E.KafkaTimeoutError:
            pass
        except E.CallbackError as exc:
            raise (exc.errors[0] if exc.errors else exc) from None  # the callback's own exception, as confluent-kafka raises it
        except E.ClientFailedError:
            self._report_failure()
        self._raise_kept()
        return len(self)

    def purge(self, in_queue: bool = True, in_flight: bool = True, blocking: bool = True) -> None:
        """Fail queued (_PURGE_QUEUE) and/or in-flight (_PURGE_INFLIGHT) messages now; their reports come
        from the next poll() or flush().  In-flight requests still complete on the broker, but their
        answers no longer reach the messages."""
        self._check_open()
        if blocking:
            self._p.purge(in_queue, in_flight)
        else:
            threading.Thread(target=self._p.purge, args=(in_queue, in_flight), daemon=True).start()

    # -- metadata

    def list_topics(self, topic: str | None = None, timeout: float = -1) -> ClusterMetadata:
        self._check_open("Handle")
        wait = _seconds(timeout)
        deadline = None if wait is None else time.monotonic() + wait
        snapshot = _metadata.list_topics(self._p, topic, wait)
        found = snapshot.topics.get(topic) if topic is not None else None
        if topic is not None and found is not None and found.error is None and found.partitions:
            # the producer's own view learns the topic too, as librdkafka's handle caches it: the
            # messages produced next need not wait for its metadata
            try:
                self._p.partitions_for(topic, None if deadline is None else max(0.0, deadline - time.monotonic()))
            except E.KafkaError:
                pass
        return snapshot

    def cluster_id(self, timeout: float = -1) -> str | None:
        return self.list_topics(None, timeout).cluster_id

    def set_sasl_credentials(self, username: str, password: str) -> None:
        """SASL PLAIN/SCRAM credentials for the connections made from now on (open ones stay)."""
        self._check_open("Handle")
        self._p.set_sasl_credentials(username, password)

    # -- transactions

    def _txn_call(self, fn: Callable[..., Any], *args: Any) -> Any:
        self._check_open()
        try:
            return fn(*args)
        except E.KafkaError as exc:
            raise exception_from(exc, txn_requires_abort=self._p.transaction_needs_abort) from exc
        finally:
            self._raise_kept()

    def init_transactions(self, timeout: float | None = -1) -> None:
        self._txn_call(self._p.init_transactions, _seconds(timeout))

    def begin_transaction(self) -> None:
        self._txn_call(self._p.begin_transaction)

    def send_offsets_to_transaction(self, positions: Iterable[TopicPartition], group_metadata: Any,
                                    timeout: float | None = -1) -> None:
        """Commit the consumer's positions [TopicPartition(topic, partition, next offset)] with the
        transaction; group_metadata is Consumer.consumer_group_metadata()."""
        offsets = {(tp.topic, tp.partition): tp.offset for tp in positions if tp.offset >= 0}
        if not offsets:
            return
        self._txn_call(self._p.send_offsets_to_transaction, offsets, group_metadata, _seconds(timeout))

    def commit_transaction(self, timeout: float | None = -1) -> None:
        self._txn_call(self._p.commit_transaction, _seconds(timeout))

    def abort_transaction(self, timeout: float | None = -1) -> None:
        self._txn_call(self._p.abort_transaction, _seconds(timeout))

    # -- shutdown

    def close(self, timeout: float | None = None) -> bool:
        """Flush (up to `timeout` seconds), then stop; reports still pending are served."""
        if self._closed:
            return True
        self._closed = True
        self._p.close(_seconds(timeout))
        return True

    def __del__(self) -> None:
        if getattr(self, "_closed", True) is False:
            try:
                if len(self) and not sys.is_finalizing() and not self._p.client.on_io_thread:
                    self._p.close(0)
                else:
                    # nothing to deliver, or the interpreter exiting: stop the I/O threads without
                    # waiting on them or on any lock of theirs (at exit they no longer run, and may
                    # have stopped holding one), and with messages left say so, as librdkafka does
                    if sys.is_finalizing():
                        _exit_warning("Producer", len(self))
                    self._p.client.close(0)
            except Exception:
                pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: object, exc_value: object, exc_traceback: object) -> bool | None:
        self.close()
        return None
