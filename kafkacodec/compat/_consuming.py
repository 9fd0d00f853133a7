"""What the aiokafka and kafka-python consumers share: their records made from the client's
(compiled, or the pure twin where the compiled module cannot load), the queue of records polled
from the client and not yet handed out, pausing, offsets to commit, and the partitions of a
group-less subscription."""
from __future__ import annotations

import collections
import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from kafkacodec import accelerated
from kafkacodec.client import AsyncConsumer, Consumer
from kafkacodec.client import ConsumerRecord as _Record
from kafkacodec.client.types import TopicPartition

if TYPE_CHECKING or not accelerated:
    from kafkacodec.compat._face_records_py import AioRecords, KpRecords
    from kafkacodec.compat._face_records_py import ConsumerRecord as AioConsumerRecord
else:
    from kafkacodec.compat._face_records import AioRecords, KpRecords
    from kafkacodec.compat._face_records import ConsumerRecord as AioConsumerRecord

__all__ = ["AioRecords", "KpRecords", "AioConsumerRecord", "RecordQueue", "Pausing", "plain_offsets",
           "groupless_partitions"]


class RecordQueue(collections.deque[_Record]):
    """Records polled and not yet handed out; changed in place (a listener running during an
    await holds the same object)."""

    def take(self, limit: int | None = None, wanted: set[TopicPartition] | None = None) -> list[_Record]:
        """Up to `limit` records from the front (of the `wanted` partitions only, when given)."""
        if not wanted:
            n = len(self) if limit is None else min(limit, len(self))
            return [self.popleft() for _ in range(n)]
        taken: list[_Record] = []
        keep: list[_Record] = []
        for r in self:
            if (r.topic, r.partition) in wanted and (limit is None or len(taken) < limit):
                taken.append(r)
            else:
                keep.append(r)
        self.clear()
        self.extend(keep)
        return taken

    def drop(self, partitions: Iterable[TopicPartition]) -> None:
        """Forget the records of `partitions` (sought, revoked)."""
        gone = set(partitions)
        if gone and self:
            kept = [r for r in self if (r.topic, r.partition) not in gone]
            self.clear()
            self.extend(kept)

    def firsts(self) -> dict[TopicPartition, int]:
        """The offset of each partition's first record queued."""
        out: dict[TopicPartition, int] = {}
        for r in self:
            tp = TopicPartition(cast(str, r.topic), cast(int, r.partition))
            if tp not in out:
                out[tp] = r.offset
        return out

    def position(self, partition: TopicPartition) -> int | None:
        """The offset of `partition`'s first record queued; None when none is."""
        for r in self:
            if (r.topic, r.partition) == partition:
                return r.offset
        return None

    def rewind(self, seek: Callable[[TopicPartition, int], Any],
               partitions: Iterable[TopicPartition] | None = None) -> None:
        """Positions back to the first record queued and not handed out (of `partitions`, default
        all), with `seek`; those records dropped."""
        only = None if partitions is None else set(partitions)
        firsts = {tp: o for tp, o in self.firsts().items() if only is None or tp in only}
        self.drop(firsts)
        for tp, offset in firsts.items():
            seek(tp, offset)


class Pausing:
    """pause/resume/paused as aiokafka's and kafka-python's consumers have them, over the client's
    Consumer or AsyncConsumer (`_pausing`): a paused partition's records queued and not handed out
    are given back (its position moved to the first of them), so resume() reads them again."""

    _held: RecordQueue

    def _pausing(self) -> Consumer | AsyncConsumer:
        raise NotImplementedError

    def pause(self, *partitions: TopicPartition) -> None:
        client = self._pausing()
        self._held.rewind(client.seek, partitions)
        client.pause(partitions)

    def resume(self, *partitions: TopicPartition) -> None:
        self._pausing().resume(partitions)

    def paused(self) -> set[TopicPartition]:
        return self._pausing().paused()


def plain_offsets(offsets: Mapping[Any, Any], what: str) -> dict[Any, int]:
    """{tp: offset} of {tp: offset | OffsetAndMetadata | (offset, metadata)}: the client commits
    no offset metadata, so a non-empty one is refused."""
    plain: dict[Any, int] = {}
    for tp, value in offsets.items():
        if isinstance(value, tuple):
            if value[1]:
                raise ValueError(f"{what}: {tp}: kafkacodec commits no offset metadata; give the offset alone")
            plain[tp] = value[0]
        else:
            plain[tp] = value
    return plain


def groupless_partitions(what: list[str] | re.Pattern[str], counts: Mapping[str, int]
                         ) -> tuple[list[str], set[TopicPartition]]:
    """A subscription without a group, as aiokafka's and kafka-python's: the topics (those of
    the cluster the pattern matches, or those named that exist) and every partition of them."""
    if isinstance(what, re.Pattern):
        topics = [t for t in counts if what.match(t)]
    else:
        topics = [t for t in what if t in counts]
    return topics, {TopicPartition(t, p) for t in topics for p in range(counts[t])}
