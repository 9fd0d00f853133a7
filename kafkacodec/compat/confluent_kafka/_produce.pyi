# Stub for the compiled module kafkacodec/compat/confluent_kafka/_produce.pyx.
from collections.abc import Callable, Iterable, Mapping
from typing import Any

class ProducerCore:
    _closed: bool
    _reports: Reports
    _max_messages: int
    _on_delivery: Callable[[Any, Any], object] | None
    @property
    def _tracked(self) -> int: ...
    def _send_through(self, send: Callable[..., Any], report: Callable[..., Any],
                      client_poll: Callable[[float], int] | None = None, network: Any = None) -> None: ...
    def poll(self, timeout: float | None = -1) -> int:
        """Serve delivery reports, waiting up to `timeout` seconds (None or -1: until one arrives) for the
        first; returns how many were served.  A callback's exception is raised here."""
    def _poll(self, timeout: float | None) -> int: ...
    def _report_failure(self) -> None: ...
    def _raise_kept(self) -> None: ...
    def produce(self, topic: str, value: str | bytes | None = None, key: str | bytes | None = None,
                partition: int | None = -1, callback: Callable[[Any, Any], object] | None = None,
                on_delivery: Callable[[Any, Any], object] | None = None, timestamp: int = 0,
                headers: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None) -> None:
        """Queue one message; the delivery report reaches on_delivery(err, msg) from poll() or flush().
        BufferError when queue.buffering.max.messages are queued, or no memory frees up within max.block.ms."""
    def _produce(self, topic: str, value: str | bytes | None, key: str | bytes | None, partition: int | None,
                 callback: Callable[[Any, Any], object] | None, on_delivery: Callable[[Any, Any], object] | None,
                 timestamp: int, headers: Mapping[str, Any] | Iterable[tuple[str, Any]] | None) -> None: ...
    def _track(self, handle: Any) -> None: ...
    def _forget_done(self) -> None: ...
    def _unreported(self) -> int: ...

class Reports:
    outstanding: int
    only_errors: bool
    raised: list[Exception]
    report_failed: Callable[[Delivery, BaseException, int | None], None] | None

class Delivery:
    reports: Reports
    fn: Any
    topic: str
    key: bytes | None
    value: bytes | None
    partition: int
    start: float
    def __init__(self, reports: Reports, fn: Any, topic: str, key: bytes | None, value: bytes | None,
                 partition: int) -> None: ...
    def placed(self, handle: Any) -> None: ...
    def __call__(self, error: BaseException | None, metadata: Any) -> None: ...
