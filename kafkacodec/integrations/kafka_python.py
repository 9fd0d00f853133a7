"""kafkacodec inside kafka-python (supported: kafka-python >= 3.0, < 4).

    from kafkacodec.integrations import kafka_python
    kafka_python.install()      # idempotent; raises UnsupportedClientVersion elsewhere
    kafka_python.uninstall()    # puts every original object back

What changes
- Consumer: the Fetcher's ``MemoryRecords`` yields kafkacodec-backed
  ``DefaultRecordBatch`` objects for v2 data batches.  Their records are
  decoded in C, one batch at a time, into ``DefaultRecord`` objects with
  kafka-python's attributes (``offset``, ``timestamp``, ``timestamp_type``,
  ``key``, ``value``, ``headers`` as a list of ``(str, bytes|None)``,
  ``size_in_bytes``, ``checksum`` None, ``validate_crc()``).  Batch CRCs are
  checked with kafkacodec's hardware CRC-32C.
- Producer: ``DefaultRecordBatchBuilder`` encodes records in C; batches
  close at exactly the same size, and the built bytes are identical to
  kafka-python's (compression still uses kafka-python's codecs, so
  compressed batches are identical too).

What stays kafka-python's own
- Legacy (magic 0/1) message sets and control batches (transaction markers)
  use kafka-python's classes unchanged.
- Corrupt input: the batch is handed to kafka-python's decoder, so the same
  records come out before the same ``CorruptRecordError``.
- A builder that is given non-consecutive offsets (``MemoryRecordsBuilder``
  with ``offset`` != 0 or ``skip()``) continues with kafka-python's encoder.

Differences an application could notice: records are tuple subclasses (they
compare by value, and ``len()``/iteration work on them); that is all.
"""
from __future__ import annotations

import struct
import time
from itertools import repeat
from operator import attrgetter

import kafka
import kafka.errors as _errors
import kafka.record.abc as _abc
import kafka.record.default_records as _dr
import kafka.record.legacy_records as _lr
import kafka.record.memory_records as _mr

from kafkacodec import crc32c as _crc32c
from kafkacodec.errors import KafkaCodecError
from kafkacodec.integrations._patch import Patches, UnsupportedClientVersion, check_version
from kafkacodec.records import RecordBatchBuilder as _KCBuilder
from kafkacodec.records import iter_batches as _iter_batches

__all__ = ["install", "uninstall", "installed", "SUPPORTED", "UnsupportedClientVersion",
           "DefaultRecord", "DefaultRecordBatch", "DefaultRecordBatchBuilder", "MemoryRecords"]

SUPPORTED = ((3, 0, 0), (4, 0, 0))  # kafka-python >= 3.0, < 4

# the originals, captured before any patching
_OrigMemoryRecords = _mr.MemoryRecords
_OrigDefaultRecordBatch = _dr.DefaultRecordBatch
_OrigDefaultRecordBatchBuilder = _dr.DefaultRecordBatchBuilder
_LegacyRecordBatch = _lr.LegacyRecordBatch
_DefaultRecordMetadata = _dr.DefaultRecordMetadata
_CorruptRecordError = _errors.CorruptRecordError

try:  # the C field accessor namedtuple uses; plain properties elsewhere
    from _collections import _tuplegetter
except ImportError:  # pragma: no cover
    from operator import itemgetter

    def _tuplegetter(index, doc):
        return property(itemgetter(index), doc=doc)

_ATTRIBUTES_OFFSET = 21
_CONTROL_MASK = 0x20


class DefaultRecord(tuple, _abc.ABCRecord):
    """A v2 record with kafka-python's DefaultRecord attributes.

    A tuple underneath, built in C per batch (no Python call per record);
    fields are read through C accessors."""
    __slots__ = ()

    offset = _tuplegetter(0, "offset")
    timestamp = _tuplegetter(1, "epoch milliseconds")
    timestamp_type = _tuplegetter(2, "CREATE_TIME(0) or APPEND_TIME(1)")
    key = _tuplegetter(3, "bytes key or None")
    value = _tuplegetter(4, "bytes value or None")
    headers = _tuplegetter(5, "list of (str, bytes | None)")
    _wire_size = _tuplegetter(6, "bytes of the record including its length varint")
    checksum = None
    # A bound C method needs no binding and runs no Python frame.
    validate_crc = repeat(True).__next__

    @property
    def size_in_bytes(self):
        # kafka-python counts the record body without its length varint
        t = self[6]
        if t <= 64:
            return t - 1
        if t <= 8193:
            return t - 2
        if t <= 1048578:
            return t - 3
        return t - 4 if t <= 134217731 else t - 5

    def __repr__(self):
        return ("DefaultRecord(offset={!r}, timestamp={!r}, timestamp_type={!r},"
                " key={!r}, value={!r}, headers={!r})".format(*self[:6]))


_new_tuple = tuple.__new__
_first_five = attrgetter("offset", "timestamp", "timestamp_type", "key", "value")
_get_headers = attrgetter("headers")
_get_size = attrgetter("size_in_bytes")
_tuple_add = tuple.__add__


def _to_records(recs):
    """kafkacodec Records -> DefaultRecords, every step a C loop."""
    return list(map(_new_tuple, repeat(DefaultRecord),
                    map(_tuple_add, map(_first_five, recs),
                        zip(map(list, map(_get_headers, recs)), map(_get_size, recs)))))


class DefaultRecordBatch(_OrigDefaultRecordBatch):
    """kafka-python's DefaultRecordBatch with records decoded by kafkacodec."""
    __slots__ = ("_it",)

    def __init__(self, buffer):
        # A view, not a copy: the batch keeps the fetched bytes alive instead.
        self._buffer = buffer if isinstance(buffer, (bytes, memoryview)) else bytes(buffer)
        self._header_data = self.HEADER_STRUCT.unpack_from(self._buffer)
        self._pos = self.HEADER_STRUCT.size
        self._num_records = self._header_data[12]
        self._next_record_index = 0
        self._decompressed = False
        self._it = None

    def validate_crc(self):
        assert self._decompressed is False, "Validate should be called before iteration"
        return self._header_data[4] == _crc32c(memoryview(self._buffer)[_ATTRIBUTES_OFFSET:])

    def _records_iterator(self):
        if self._header_data[5] & _CONTROL_MASK:
            # transaction markers: kafka-python's ControlRecord
            return _OrigDefaultRecordBatch(self._buffer)
        try:
            batch = next(_iter_batches(self._buffer, verify_crc=False))
            return iter(_to_records(batch.records()))
        except (KafkaCodecError, StopIteration):
            # Let kafka-python's decoder yield what it can and raise its own error.
            return _OrigDefaultRecordBatch(self._buffer)

    def __iter__(self):
        self._decompressed = True
        it = self._it
        if it is None:
            it = self._it = self._records_iterator()
        return it

    def __next__(self):
        it = self._it
        if it is None:
            it = self.__iter__()
        return next(it)

    next = __next__


class MemoryRecords(_OrigMemoryRecords):
    """kafka-python's MemoryRecords handing out kafkacodec-backed v2 batches."""
    __slots__ = ()

    def next_batch(self, _min_slice=_OrigMemoryRecords.MIN_SLICE,
                   _magic_offset=_OrigMemoryRecords.MAGIC_OFFSET, _unpack=struct.unpack_from):
        next_slice = self._next_slice
        if next_slice is None:
            return None
        if len(next_slice) < _min_slice:
            raise _CorruptRecordError(
                "Record size is less than the minimum record overhead "
                "({})".format(_min_slice - self.LOG_OVERHEAD))
        self._cache_next()
        magic, = _unpack(">b", next_slice, _magic_offset)
        if magic <= 1:
            return _LegacyRecordBatch(next_slice, magic)
        return DefaultRecordBatch(next_slice)

    def __next__(self):
        if not self.has_next():
            raise StopIteration
        return self.next_batch()

    next = __next__


_MAX_BATCH = (1 << 62)
_MAX_RECORD_OVERHEAD = 36  # length, attributes, timestamp delta, offset delta, key/value lengths, header count


class DefaultRecordBatchBuilder(_OrigDefaultRecordBatchBuilder):
    """kafka-python's DefaultRecordBatchBuilder with records encoded by kafkacodec.

    Same size accounting (a record that would take the batch past batch_size
    is refused unless it is the first), same header fields, same bytes."""
    __slots__ = ("_kc",)

    def __init__(self, magic, compression_type, is_transactional,
                 producer_id, producer_epoch, base_sequence, batch_size):
        super().__init__(magic, compression_type, is_transactional,
                         producer_id, producer_epoch, base_sequence, batch_size)
        # kafkacodec's builder never refuses; the size rule is applied here
        self._kc = _KCBuilder(2, "none", batch_size=_MAX_BATCH)

    def _leave_kc(self):
        # Hand the records written so far to kafka-python's buffer and continue there.
        kc = self._kc
        if kc is not None:
            self._kc = None
            self._buffer = bytearray(kc.build())

    def append(self, offset, timestamp, key, value, headers,
               _type=type, _int=int, _byte_like=(bytes, bytearray, memoryview),
               _len=len, _time=time.time, _meta=_DefaultRecordMetadata):
        kc = self._kc
        if kc is None or offset != self._num_records:
            self._leave_kc()
            return super().append(offset, timestamp, key, value, headers)
        if _type(offset) != _int:
            raise TypeError(offset)
        if timestamp is None:
            timestamp = _int(_time() * 1000)
        elif _type(timestamp) != _int:
            raise TypeError(timestamp)
        if not (key is None or _type(key) in _byte_like):
            raise TypeError("Not supported type for key: {}".format(type(key)))
        if not (value is None or _type(value) in _byte_like):
            raise TypeError("Not supported type for value: {}".format(type(value)))
        before = kc.size_in_bytes
        first = self._first_timestamp
        if first is not None:
            # Exact size only when the cheap upper bound says the batch may be full.
            if headers or (before + _MAX_RECORD_OVERHEAD + (_len(key) if key is not None else 0)
                           + (_len(value) if value is not None else 0) > self._batch_size):
                need = self.size_in_bytes(offset, timestamp - first, key, value, headers)
                if need + before > self._batch_size:
                    return None
        try:
            kc.append(timestamp, key, value, headers)
        except KafkaCodecError:
            # kafka-python's encoder decides what is wrong with the record
            self._leave_kc()
            return super().append(offset, timestamp, key, value, headers)
        if first is None:
            self._first_timestamp = timestamp
            self._max_timestamp = timestamp
        elif self._max_timestamp < timestamp:
            self._max_timestamp = timestamp
        self._num_records += 1
        self._last_offset = offset
        return _meta(offset, kc.size_in_bytes - before, timestamp)

    def write_header(self, use_compression_type=True):
        batch_len = len(self._buffer)
        self.HEADER_STRUCT.pack_into(
            self._buffer, 0,
            0,  # base offset: the broker assigns it
            batch_len - self.AFTER_LEN_OFFSET,
            0,  # partition leader epoch, as kafka-python writes it
            self._magic,
            0,  # CRC, patched below
            self._get_attributes(use_compression_type),
            self._last_offset,
            self._first_timestamp or 0,
            self._max_timestamp or 0,
            self._producer_id,
            self._producer_epoch,
            self._base_sequence,
            self._num_records)
        struct.pack_into(">I", self._buffer, self.CRC_OFFSET,
                         _crc32c(memoryview(self._buffer)[self.ATTRIBUTES_OFFSET:]))

    def build(self):
        self._leave_kc()
        return super().build()

    def size(self):
        kc = self._kc
        return kc.size_in_bytes if kc is not None else len(self._buffer)


_PATCHES = Patches()


def _replacements(build=True):
    out = [
        ("kafka.record.memory_records", "MemoryRecords", MemoryRecords),
        ("kafka.record", "MemoryRecords", MemoryRecords),
        ("kafka.consumer.fetcher", "MemoryRecords", MemoryRecords),
        ("kafka.producer.record_accumulator", "MemoryRecords", MemoryRecords),
        ("kafka.record.memory_records", "DefaultRecordBatch", DefaultRecordBatch),
        ("kafka.record.default_records", "DefaultRecordBatch", DefaultRecordBatch),
    ]
    if not build:
        return out
    return out + [
        ("kafka.record.memory_records", "DefaultRecordBatchBuilder", DefaultRecordBatchBuilder),
        ("kafka.record.default_records", "DefaultRecordBatchBuilder", DefaultRecordBatchBuilder),
        ("kafka.producer.kafka", "DefaultRecordBatchBuilder", DefaultRecordBatchBuilder),
    ]


def install(build=True):
    """Route kafka-python's record decoding and (unless build=False) batch
    building through kafkacodec.

    Returns True if this call patched, False if already installed.  Raises
    UnsupportedClientVersion (and patches nothing) unless 3.0 <= kafka-python < 4."""
    check_version("kafka-python", kafka.__version__, *SUPPORTED)
    return _PATCHES.apply(_replacements(build))


def uninstall():
    """Restore kafka-python's own classes (no-op if not installed)."""
    _PATCHES.restore()


def installed():
    return _PATCHES.active
