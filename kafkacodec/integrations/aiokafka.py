"""kafkacodec inside aiokafka (supported: aiokafka >= 0.14, < 0.15).

    from kafkacodec.integrations import aiokafka as kc_aiokafka
    kc_aiokafka.install()       # idempotent; raises UnsupportedClientVersion elsewhere
    kc_aiokafka.uninstall()     # puts every original object back

What changes
- Consumer: ``PartitionRecords._unpack_records`` is replaced by a copy of
  aiokafka 0.14's loop in which each v2 data batch becomes its
  ``ConsumerRecord`` objects in one C call (same attributes set in the same
  order as the dataclass __init__) when no deserializers are set;
  next_fetch_offset still advances per record yielded.  The fetcher's
  ``MemoryRecords`` yields kafkacodec-backed ``DefaultRecordBatch`` objects
  whose records (offset, timestamp, timestamp_type, key, value, headers,
  checksum) are decoded in C per batch.  Batch CRCs use kafkacodec's
  hardware CRC-32C.
- Producer: not patched.  aiokafka's batch builder is compiled already and
  makes its metadata object with a C-level constructor; a builder from
  outside has to call that type (about 140 ns of the 290 ns an append took,
  against 150 ns for aiokafka's whole append) and write the header in
  aiokafka's Python code, so the former ``install(build=True)`` made
  aiokafka's batch API slower (0.87x in process, 0.92x against Tansu) and
  was removed.  Batches aiokafka builds are its own, byte for byte.

What stays aiokafka's own
- Legacy (magic 0/1) message sets and control batches (transaction markers).
- Corrupt input, attributes bytes >= 0x80 and header keys that are not
  UTF-8: the batch is handed to aiokafka's decoder, so the same records come
  out before the same error.
- A builder given non-consecutive offsets continues with aiokafka's encoder.

Differences an application could notice: iterating a batch yourself yields
tuple-based records with aiokafka's DefaultRecord attributes; the consumer's
ConsumerRecord is unaffected.
"""
from __future__ import annotations

import dataclasses
from operator import itemgetter

import aiokafka
import aiokafka.consumer.fetcher as _fetcher
import aiokafka.errors as _errors
import aiokafka.record.default_records as _dr
import aiokafka.record.legacy_records as _lr
import aiokafka.record.memory_records as _mr

from kafkacodec import accelerated as _accelerated
from kafkacodec.integrations._patch import (DecodedBatchMixin, Patches, UnsupportedClientVersion, check_version,
                                            take_next_slice)

if _accelerated:
    from kafkacodec.integrations._decode import aio_batch_records as _aio_batch_records
    from kafkacodec.integrations._decode import kp_default_records as _kp_default_records
else:
    from kafkacodec.integrations._decode_py import aio_batch_records as _aio_batch_records
    from kafkacodec.integrations._decode_py import kp_default_records as _kp_default_records

__all__ = ["install", "uninstall", "installed", "SUPPORTED", "UnsupportedClientVersion",
           "DefaultRecordBatch", "MemoryRecords"]

SUPPORTED = ((0, 14, 0), (0, 15, 0))  # aiokafka >= 0.14, < 0.15

# the originals (C classes when aiokafka's extensions load), captured before patching
_OrigMemoryRecords = _mr.MemoryRecords
_OrigDefaultRecordBatch = _dr.DefaultRecordBatch
_LegacyRecordBatch = _lr.LegacyRecordBatch
_CorruptRecordException = _errors.CorruptRecordException

class _Record(tuple):
    """A v2 record with aiokafka's DefaultRecord attributes, built in C per batch."""
    __slots__ = ()
    _fields = ("offset", "timestamp", "timestamp_type", "key", "value", "headers", "_wire_size")

    offset = property(itemgetter(0))
    timestamp = property(itemgetter(1))
    timestamp_type = property(itemgetter(2))
    key = property(itemgetter(3))
    value = property(itemgetter(4))
    headers = property(itemgetter(5))
    checksum = None

    def __repr__(self):
        return ("DefaultRecord(offset={!r}, timestamp={!r}, timestamp_type={!r},"
                " key={!r}, value={!r}, headers={!r})".format(*self[:6]))


class DefaultRecordBatch(DecodedBatchMixin, _dr._DefaultRecordBatchPy):
    """aiokafka's DefaultRecordBatch with records decoded by kafkacodec."""
    _client_batch = _OrigDefaultRecordBatch
    _record_type = _Record
    _decode_records = staticmethod(_kp_default_records)


class MemoryRecords(_mr._MemoryRecordsPy):
    """aiokafka's MemoryRecords handing out kafkacodec-backed v2 batches."""

    def next_batch(self, _min_slice=_mr._MemoryRecordsPy.MIN_SLICE,
                   _magic_offset=_mr._MemoryRecordsPy.MAGIC_OFFSET):
        next_slice = take_next_slice(self, _min_slice, _CorruptRecordException)
        if next_slice is None:
            return None
        magic = next_slice[_magic_offset]
        if magic >= 2:
            return DefaultRecordBatch(next_slice)
        return _LegacyRecordBatch(next_slice, magic)


def _record_fields(cls):
    """The ConsumerRecord field names in __init__ order, if its instances can be
    made by setting exactly those attributes (a plain dataclass); else None."""
    params = getattr(cls, "__dataclass_params__", None)
    if (params is None or not params.init or params.frozen or hasattr(cls, "__post_init__")
            or cls.__new__ is not object.__new__ or cls.__setattr__ is not object.__setattr__
            or "__init__" not in vars(cls)):
        return None
    fields = dataclasses.fields(cls)
    if len(fields) != 11 or not all(f.init for f in fields):
        return None
    return tuple(f.name for f in fields)


def _unpack_records(self):
    """aiokafka 0.14's ``PartitionRecords._unpack_records`` with each v2 data
    batch turned into ConsumerRecords by one C call when no deserializers are
    set.  Same generator contract: next_fetch_offset advances as each record
    is yielded, records below it are skipped, aborted transactions and control
    batches take the same steps, errors come from the same places.  Batches
    the C helper declines go through the original per-record loop below."""
    Errors = _errors
    ConsumerRecord = _fetcher.ConsumerRecord
    names = _record_fields(ConsumerRecord)
    fast = names is not None and not self._key_deserializer and not self._value_deserializer
    # NOTE: if the batch is not compressed it's equal to 1 record in
    #       v0 and v1.
    tp = self._tp
    records = self._records
    while records.has_next():
        next_batch = records.next_batch()
        if self._check_crcs and not next_batch.validate_crc():
            # This iterator will be closed after the exception, so we don't
            # try to drain other batches here. They will be refetched.
            raise Errors.CorruptRecordException(f"Invalid CRC - {tp}")

        if (
            self._isolation_level == _fetcher.READ_COMMITTED
            and next_batch.producer_id is not None
        ):
            self._consume_aborted_up_to(next_batch.base_offset)

            if (
                next_batch.is_control_batch
                and self._contains_abort_marker(next_batch)
            ):  # fmt: skip
                # Using `discard` instead of `remove`, because Kafka
                # may return an abort marker for an otherwise empty
                # topic-partition.
                self._aborted_producers.discard(next_batch.producer_id)

            if (
                next_batch.is_transactional
                and next_batch.producer_id in self._aborted_producers
            ):
                _fetcher.log.debug(
                    "Skipping aborted record batch from partition %s with"
                    " producer_id %s and offsets %s to %s",
                    tp,
                    next_batch.producer_id,
                    next_batch.base_offset,
                    next_batch.next_offset - 1,
                )
                self.next_fetch_offset = next_batch.next_offset
                continue

        # We skip control batches no matter the isolation level
        if next_batch.is_control_batch:
            self.next_fetch_offset = next_batch.next_offset
            continue

        decoded = None
        if fast and type(next_batch) is DefaultRecordBatch and next_batch._it is None:
            decoded = _aio_batch_records(ConsumerRecord, names, next_batch._buffer, tp.topic, tp.partition,
                                         _OPTIONS["untrack_records"])
        if decoded is not None:
            next_batch._decompressed = True
            recs, offsets = decoded
            for consumer_record, offset in zip(recs, offsets):
                if offset < self.next_fetch_offset:
                    continue
                self.next_fetch_offset = offset + 1
                yield consumer_record
        else:
            for record in next_batch:
                # It's OK for the offset to be larger than the current
                # partition. It will happen in compacted topics.
                if record.offset < self.next_fetch_offset:
                    # Probably just a compressed messageset, it's ok to skip.
                    continue
                consumer_record = self._consumer_record(tp, record)
                self.next_fetch_offset = record.offset + 1
                yield consumer_record

        # Message format v2 preserves the last offset in a batch even if
        # the last record is removed through compaction. By using the next
        # offset computed from the last offset in the batch, we ensure that
        # the offset of the next fetch will point to the next batch, which
        # avoids unnecessary re-fetching of the same batch (in the worst
        # case, the consumer could get stuck fetching the same batch
        # repeatedly).
        self.next_fetch_offset = next_batch.next_offset


_PATCHES = Patches()


def _replacements():
    # (where, name, replacement): every module that binds the class at import
    return ([(where, "MemoryRecords", MemoryRecords)
             for where in ("aiokafka.record.memory_records", "aiokafka.record", "aiokafka.consumer.fetcher")]
            + [(where, "DefaultRecordBatch", DefaultRecordBatch)
               for where in ("aiokafka.record.memory_records", "aiokafka.record.default_records")]
            + [("aiokafka.consumer.fetcher:PartitionRecords", "_unpack_records", _unpack_records)])


_OPTIONS = {"untrack_records": True}


def install(untrack_records=True):
    """Route aiokafka's record decoding through kafkacodec (its producing
    stays aiokafka's own: see the module notes).

    ``untrack_records``: ConsumerRecords built by kafkacodec are left out of
    Python's cycle collector, which otherwise re-walks every record a
    consumer holds on each collection.  Their values are immutable (str,
    int, bytes, None, a tuple of header tuples); only a reference cycle the
    application creates by assigning to a record's attributes would not be
    collected.  Pass False to keep aiokafka's tracking.

    Returns True if this call patched, False if already installed.  Raises
    UnsupportedClientVersion (and patches nothing) unless
    0.14 <= aiokafka < 0.15."""
    check_version("aiokafka", aiokafka.__version__, *SUPPORTED)
    _OPTIONS["untrack_records"] = bool(untrack_records)
    return _PATCHES.apply(_replacements())


def uninstall():
    """Restore aiokafka's own classes (no-op if not installed)."""
    _PATCHES.restore()


def installed():
    """Whether install() is in effect."""
    return _PATCHES.active
