"""Batch-header walker for segment files.

Reads only the fixed-size headers of record batches (magic 2) and legacy
messages (magic 0/1), so a segment can be split, seeked and measured without
decoding or checksumming any records.  The record layer does the rest.
"""
from __future__ import annotations

import struct
from typing import NamedTuple

from kafkacodec.errors import CorruptDataError, TruncatedDataError
from kafkacodec.records.layout import (ATTR_COMPRESSION_MASK, ATTR_CONTROL, ATTR_TIMESTAMP_TYPE, ATTR_TRANSACTIONAL,
                                       HEADER_SIZE_UP_TO_MAGIC, LEGACY_V0_OVERHEAD, LEGACY_V1_OVERHEAD, LOG_OVERHEAD,
                                       MAGIC_OFFSET, SIZE_OFFSET, V2_HEADER, V2_LAST_OFFSET_DELTA, V2_RECORD_COUNT,
                                       V2_RECORDS)

__all__ = ["BatchHeader", "HeaderWalk", "read_header", "first_offset_of", "LOG_OVERHEAD", "NO_TIMESTAMP"]

NO_TIMESTAMP = -1

_V2 = V2_HEADER
V2_HEADER_SIZE = V2_RECORDS
# magic 0/1: offset, size, crc, magic, attributes (+ timestamp for magic 1)
_V0 = struct.Struct(">qiIbb")
_V1 = struct.Struct(">qiIbbq")
_PREFIX = struct.Struct(">qiib")  # enough to learn the magic of any format

# smallest legal value of the length field for each magic
_MIN_LENGTH = {0: LEGACY_V0_OVERHEAD, 1: LEGACY_V1_OVERHEAD, 2: V2_HEADER_SIZE - LOG_OVERHEAD}

_ATTR_COMPRESSION = ATTR_COMPRESSION_MASK
_ATTR_LOG_APPEND_TIME = ATTR_TIMESTAMP_TYPE
_ATTR_TRANSACTIONAL = ATTR_TRANSACTIONAL
_ATTR_CONTROL = ATTR_CONTROL


class BatchHeader(NamedTuple):
    """Fixed header fields of one batch (or one legacy message) in a segment.

    ``base_offset`` is exact for magic 2 and uncompressed legacy messages; a
    compressed legacy wrapper only stores its last inner offset, so there
    ``base_offset == last_offset`` (the broker knows no more without
    decompressing either).  Containment tests should use ``last_offset``.
    """

    position: int
    size: int
    base_offset: int
    last_offset: int
    magic: int
    attributes: int
    max_timestamp: int
    partition_leader_epoch: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    record_count: int

    @property
    def end(self) -> int:
        return self.position + self.size

    @property
    def compression(self) -> int:
        return self.attributes & _ATTR_COMPRESSION

    @property
    def is_transactional(self) -> bool:
        return self.magic >= 2 and bool(self.attributes & _ATTR_TRANSACTIONAL)

    @property
    def is_control(self) -> bool:
        return self.magic >= 2 and bool(self.attributes & _ATTR_CONTROL)

    @property
    def next_offset(self) -> int:
        return self.last_offset + 1


def read_header(buf, pos: int, end: int, path: str = "") -> BatchHeader | None:
    """Header of the batch starting at ``pos`` in ``buf[:end]``.

    Returns None when fewer bytes than the whole batch remain (a truncated
    tail); raises CorruptDataError when the header itself is impossible.
    """
    remaining = end - pos
    if remaining < HEADER_SIZE_UP_TO_MAGIC:
        return None
    base_offset, length, _epoch_or_crc, magic = _PREFIX.unpack_from(buf, pos)
    if magic not in _MIN_LENGTH:
        raise CorruptDataError(f"unknown magic {magic}", pos + MAGIC_OFFSET, path)
    if length < _MIN_LENGTH[magic]:
        raise CorruptDataError(
            f"batch length {length} is below the minimum {_MIN_LENGTH[magic]} for magic {magic}",
            pos + SIZE_OFFSET, path)
    size = LOG_OVERHEAD + length
    if size > remaining:
        return None
    if magic == 2:
        (base_offset, _length, epoch, _magic, _crc, attributes, last_delta, _base_ts,
         max_ts, producer_id, producer_epoch, base_sequence, count) = _V2.unpack_from(buf, pos)
        if last_delta < 0:
            raise CorruptDataError(f"negative last offset delta {last_delta}", pos + V2_LAST_OFFSET_DELTA, path)
        if count < 0:
            raise CorruptDataError(f"negative record count {count}", pos + V2_RECORD_COUNT, path)
        return BatchHeader(pos, size, base_offset, base_offset + last_delta, 2, attributes & 0xFFFF,
                           max_ts, epoch, producer_id, producer_epoch, base_sequence, count)
    if magic == 1:
        offset, _length, _crc, _magic, attributes, timestamp = _V1.unpack_from(buf, pos)
    else:
        offset, _length, _crc, _magic, attributes = _V0.unpack_from(buf, pos)
        timestamp = NO_TIMESTAMP
    return BatchHeader(pos, size, offset, offset, magic, attributes & 0xFF, timestamp,
                       -1, -1, -1, -1, 1)


def first_offset_of(h: BatchHeader, prev_next: int | None, segment_base: int) -> int:
    """Lowest offset batch ``h`` may hold.

    A compressed legacy wrapper only carries its last offset, so it is taken
    to start right after its predecessor (or at the segment base when that
    is unknown, which errs towards including it).
    """
    if h.magic < 2 and h.compression:
        return prev_next if prev_next is not None else min(segment_base, h.last_offset)
    return h.base_offset


class HeaderWalk:
    """Iterator over batch headers in ``buf[start:end]``.

    Stops quietly at a truncated trailing batch; afterwards ``position`` is
    where the whole batches end and ``truncated_bytes`` how many bytes of an
    incomplete batch follow.  A tail made only of zero bytes (a preallocated
    log file) counts as truncated too, never as a batch.
    """

    __slots__ = ("_buf", "position", "_end", "_path", "truncated_bytes", "done")

    def __init__(self, buf, start: int = 0, end: int | None = None, path: str = ""):
        self._buf = buf
        self.position = start
        self._end = len(buf) if end is None else end
        self._path = path
        self.truncated_bytes = 0
        self.done = False

    def __iter__(self):
        return self

    def __next__(self) -> BatchHeader:
        if self.done:
            raise StopIteration
        pos = self.position
        if pos >= self._end:
            self.done = True
            raise StopIteration
        try:
            header = read_header(self._buf, pos, self._end, self._path)
        except CorruptDataError:
            if _all_zero(self._buf, pos, self._end):
                header = None
            else:
                raise
        if header is None:
            self.truncated_bytes = self._end - pos
            self.done = True
            raise StopIteration
        self.position = pos + header.size
        return header

    def finish(self, allow_truncated: bool) -> "HeaderWalk":
        """Consume the rest; raise if a truncated tail is not allowed."""
        for _ in self:
            pass
        if self.truncated_bytes and not allow_truncated:
            raise TruncatedDataError(
                f"{self.truncated_bytes} bytes of an incomplete batch at the end of a closed segment",
                self.position, self._path)
        return self


_ZEROS = bytes(1 << 16)


def _all_zero(buf, start: int, end: int) -> bool:
    # chunked, so a preallocated gigabyte of zeros is never copied at once
    with memoryview(buf) as view:
        pos = start
        while pos < end:
            n = min(len(_ZEROS), end - pos)
            with view[pos:pos + n] as chunk:
                if chunk != _ZEROS[:n]:
                    return False
            pos += n
    return True
