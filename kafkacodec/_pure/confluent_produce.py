"""Pure-Python twin of kafkacodec/compat/confluent_kafka/_produce.pyx: every message
takes the face's general path (Producer._produce), as the compiled module's
declined ones do, and the handles of messages without a report are kept one by one."""
import time
from typing import Any

from kafkacodec.compat.confluent_kafka._types import TIMESTAMP_CREATE_TIME, TIMESTAMP_LOG_APPEND_TIME, Message


class Reports:
    """One Producer's delivery-report ledger (the compiled twin's, _produce.pyx): reports
    refer to it, never to the Producer."""

    __slots__ = ("outstanding", "only_errors", "raised", "report_failed")

    def __init__(self) -> None:
        self.outstanding = 0
        self.only_errors = False
        self.raised: list[Exception] = []
        self.report_failed: Any = None


class ProducerCore:
    def __init__(self) -> None:
        self._closed = True  # until the Producer has opened its client
        self._reports = Reports()
        self._max_messages = 0
        self._on_delivery: Any = None
        self._handles: list[Any] = []
        self._start = 0

    @property
    def _tracked(self) -> int:
        return len(self._handles) - self._start

    def _send_through(self, send: Any, report: Any, client_poll: Any = None, network: Any = None) -> None:
        pass

    def poll(self, timeout: float | None = -1) -> int:
        """Serve delivery reports, waiting up to `timeout` seconds (None or -1: until one arrives) for the
        first; returns how many were served.  A callback's exception is raised here."""
        return self._poll(timeout)

    def _poll(self, timeout: float | None) -> int:
        raise NotImplementedError  # the Producer's

    def produce(self, topic: str, value: Any = None, key: Any = None, partition: Any = -1, callback: Any = None,
                on_delivery: Any = None, timestamp: int = 0, headers: Any = None) -> None:
        return self._produce(topic, value, key, partition, callback, on_delivery, timestamp, headers)

    def _produce(self, topic: str, value: Any, key: Any, partition: Any, callback: Any, on_delivery: Any,
                 timestamp: int, headers: Any) -> None:
        raise NotImplementedError  # the Producer's

    def _track(self, handle: Any) -> None:
        self._handles.append(handle)

    def _forget_done(self) -> None:
        handles, start = self._handles, self._start
        end = len(handles)
        while start < end and handles[start].done():
            start += 1
        if start > 1024 and start * 2 > end:
            del handles[:start]
            start = 0
        self._start = start

    def _unreported(self) -> int:
        return sum(1 for h in self._handles[self._start:] if not h.done())


class Delivery:
    """The client's delivery callback of one message with an on_delivery: counts it served and
    calls on_delivery(err, msg) with the Message librdkafka would report (headers not included,
    as there); a failure is translated by the ledger's ``report_failed``.  It refers to the
    Producer's ledger, never to the Producer."""

    __slots__ = ("reports", "fn", "topic", "key", "value", "handle", "start", "partition")

    def __init__(self, reports: Reports, fn: Any, topic: str, key: bytes | None, value: bytes | None,
                 partition: int) -> None:
        self.reports = reports
        self.fn = fn
        self.topic = topic
        self.key = key
        self.value = value
        self.partition = partition
        self.handle: Any = None  # kafkacodec's RecordHandle, once send() returned it
        self.start = time.monotonic()

    def placed(self, handle: Any) -> None:
        """send() returned the message's handle: the pure report loop names no partition on a
        failure, so the handle does."""
        self.handle = handle

    def __call__(self, err: BaseException | None, md: Any) -> None:
        reports = self.reports
        reports.outstanding -= 1
        fn = self.fn
        if fn is None or (err is None and reports.only_errors):
            return
        if err is not None:
            reports.report_failed(self, err, None if self.handle is None else self.handle.partition)
            return
        ts_type = TIMESTAMP_LOG_APPEND_TIME if md.timestamp_type == 1 else TIMESTAMP_CREATE_TIME
        msg = Message(self.topic, md.partition, md.offset, self.key, self.value, None, None,
                      (ts_type, md.timestamp), time.monotonic() - self.start)
        try:
            fn(None, msg)
        except Exception as exc:
            # kept for the caller of poll()/flush(), as confluent-kafka raises the callback's exception
            reports.raised.append(exc)
