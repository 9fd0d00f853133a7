"""The client's value types, at the bottom of ``kafkacodec.client``: what the
producer, consumer, admin and transaction modules hand each other and their
callers.  Nothing here imports another client module at run time, so every
module can import these without forming a circle."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from kafkacodec.errors import KafkaTimeoutError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from kafkacodec.client.accumulator import BatchResult

__all__ = ["TopicPartition", "TopicPartitionLike", "OffsetAndTimestamp", "RecordMetadata", "Headers",
           "DeliveryCallback", "CommitCallback", "ConsumerGroupMetadata", "PreparedTransaction", "BulkResult",
           "Throttle", "EARLIEST", "LATEST", "partitions_by_topic"]

#: ListOffsets' timestamps for the first offset and the end of a partition
EARLIEST = -2
LATEST = -1


class TopicPartition(NamedTuple):
    """A partition of a topic; a plain (topic, partition) pair is accepted wherever one is."""

    topic: str
    partition: int


#: a partition as callers name it: a TopicPartition or a (topic, partition) pair
TopicPartitionLike = TopicPartition | tuple[str, int]


def partitions_by_topic(partitions: Iterable[TopicPartitionLike]) -> dict[str, list[int]]:
    """{topic: [partition, ...]} in the order given, as requests list partitions under their topic."""
    by_topic: dict[str, list[int]] = {}
    for pair in partitions:
        tp = TopicPartition(*pair)
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    return by_topic


class Throttle(NamedTuple):
    """What throttle_cb receives: a broker delayed its answer for a quota (throttle_time_ms)."""

    broker_name: str       # host:port
    broker_id: int
    throttle_time: float   # seconds


class OffsetAndTimestamp(NamedTuple):
    """An offset looked up by timestamp, with the timestamp and leader epoch of its record."""

    offset: int | None           # None: no offset at or after the timestamp asked for
    timestamp: int | None
    leader_epoch: int | None


class RecordMetadata(NamedTuple):
    """Where an acknowledged record landed; its timestamp in ms since the epoch: the broker's
    log-append time when its answer gave one (``timestamp_type`` 1), else the record's own (0)."""

    topic: str
    partition: int
    offset: int      # -1 with acks=0
    timestamp: int
    timestamp_type: int = 0
    log_start_offset: int = -1   # the partition's, as the answer gave it (Produce v5+); -1 unknown


#: Kafka headers: ordered (key, value) pairs, a key may repeat
Headers = Sequence[tuple[str | bytes, bytes | bytearray | memoryview | None]]
#: send()'s callback(error, metadata): error None and the record's metadata once acknowledged
DeliveryCallback = Callable[[BaseException | None, RecordMetadata | None], object]
#: commit(asynchronous=True)'s callback(offsets, error), on the I/O thread
CommitCallback = Callable[[dict[TopicPartition, int], BaseException | None], object]


class ConsumerGroupMetadata(NamedTuple):
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None


class PreparedTransaction(NamedTuple):
    """What another process needs to end a prepared transaction: EndTxn(transactional_id, producer_id,
    producer_epoch); `partitions` are the transaction's (topic, partition)s."""
    transactional_id: str
    producer_id: int
    producer_epoch: int
    partitions: tuple[tuple[str, int], ...]


class BulkResult:
    """Outcome of send_arrow: per batch results; offsets per input row on demand.

    ``rows`` is the number of input rows and ``rows_queued`` how many were queued:
    all of them, unless send_arrow raised SendArrowError, whose ``result`` this is;
    ``queued_rows()`` names them.  Rows not queued have partition and offset -1."""

    def __init__(self, topic: str, rows: int, parts: list[tuple[BatchResult, Any, int]]) -> None:
        self.topic = topic
        self.rows = rows
        self._parts = parts   # [(BatchResult, row indices (numpy int64) or (start, stop), partition)]
        self.rows_queued = sum(s[1] - s[0] if isinstance(s, tuple) else len(s) for _, s, _ in parts)

    def done(self) -> bool:
        return all(r.done() for r, _, _ in self._parts)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for every queued row's acknowledgement; raises the first delivery error."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for r, _, _ in self._parts:
            if not r.wait(None if deadline is None else max(0.0, deadline - time.monotonic())):
                raise KafkaTimeoutError(f"send_arrow to {self.topic!r}: not acknowledged within {timeout:.1f} s")
        for r, _, _ in self._parts:
            if r.error is not None:
                raise r.error

    def _rows_where(self, keep: Callable[[BatchResult], bool]) -> npt.NDArray[np.int64]:
        import numpy as np
        picked = [np.arange(*rows, dtype=np.int64) if isinstance(rows, tuple) else rows
                  for r, rows, _ in self._parts if keep(r)]
        return np.sort(np.concatenate(picked)).astype(np.int64) if picked else np.empty(0, dtype=np.int64)

    def queued_rows(self) -> npt.NDArray[np.int64]:
        """numpy int64 array: the indices of the input rows that were queued, ascending."""
        return self._rows_where(lambda r: True)

    def failed_rows(self) -> npt.NDArray[np.int64]:
        """numpy int64 array: the queued rows whose batch failed (so far; after wait(), all)."""
        return self._rows_where(lambda r: r.done() and r.error is not None)

    def partitions(self) -> npt.NDArray[np.int32]:
        """numpy int32 array: the partition of every input row (-1: not queued)."""
        import numpy as np
        out = np.full(self.rows, -1, dtype=np.int32)
        for _, rows, p in self._parts:
            out[rows if not isinstance(rows, tuple) else slice(*rows)] = p
        return out

    def offsets(self, timeout: float | None = None) -> npt.NDArray[np.int64]:
        """numpy int64 array: the offset of every input row (after waiting for all queued
        rows; raises the first delivery error; -1: not queued, or acks=0)."""
        import numpy as np
        self.wait(timeout)
        out = np.full(self.rows, -1, dtype=np.int64)
        for r, rows, _ in self._parts:
            n = rows[1] - rows[0] if isinstance(rows, tuple) else len(rows)
            if r.base_offset >= 0:
                got = np.arange(r.base_offset, r.base_offset + n, dtype=np.int64)
            else:  # a batch split after MESSAGE_TOO_LARGE: offsets per half (or none, acks=0)
                got = np.array([r.metadata(i, -1).offset for i in range(n)], dtype=np.int64)
            out[rows if not isinstance(rows, tuple) else slice(*rows)] = got
        return out
