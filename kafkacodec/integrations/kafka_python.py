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
- Consumer (kafka-python 3.0.x): ``Fetcher.PartitionRecords._unpack_records``
  is replaced by a copy of 3.0's loop in which each v2 data batch becomes its
  ConsumerRecords in one C call (kafkacodec.integrations._decode); the
  generator still advances records_read, bytes_read and next_fetch_offset per
  record yielded.  With deserializers set they are called per record as
  kafka-python does.  Other 3.x versions keep their own loop.
- Producer: ``DefaultRecordBatchBuilder`` keeps its record state in C and
  ``append`` is one C call writing the record into the batch buffer; its
  other methods are kafka-python's own (copied: the class is not a subclass
  of kafka-python's, which has slots, but is registered as an
  ``ABCRecordBatchBuilder``).  Batches close at exactly
  the same size, and the built bytes are identical to kafka-python's
  (compression still uses kafka-python's codecs, so compressed batches are
  identical too).  The record size estimate ``KafkaProducer.send()`` asks the
  builder for is computed in C as well.

What stays kafka-python's own
- Legacy (magic 0/1) message sets and control batches (transaction markers)
  use kafka-python's classes unchanged.
- Corrupt input, and bytes kafka-python reads differently from the Kafka
  format (an attributes byte >= 0x80, read by it as a varint; header keys that
  are not UTF-8): the batch is handed to kafka-python's decoder, so the same
  records come out before the same error.
- Records whose arguments are not bytes/bytearray/None, ints beyond 64 bits,
  headers that are not a list of (str, bytes | None) or header keys UTF-8
  cannot encode: kafka-python's own append writes (or refuses) them on the
  same builder.

Differences an application could notice: records are tuple subclasses (they
compare by value, and ``len()``/iteration work on them); that is all.
"""
from __future__ import annotations

import struct
import types
from itertools import repeat

import kafka
import kafka.consumer.fetcher as _fetcher
import kafka.errors as _errors
import kafka.record.abc as _abc
import kafka.record.default_records as _dr
import kafka.record.legacy_records as _lr
import kafka.record.memory_records as _mr

from kafkacodec import accelerated as _accelerated
from kafkacodec.integrations._patch import (DecodedBatchMixin, Patches, UnsupportedClientVersion, check_version,
                                            parse_version, take_next_slice, write_client_v2_header)

if _accelerated:
    from kafkacodec.integrations._decode import kp_batch_records as _kp_batch_records
    from kafkacodec.integrations._decode import kp_default_records as _kp_default_records
    from kafkacodec.integrations._build import V2Builder as _V2Builder
    from kafkacodec.integrations._build import v2_size_estimator as _v2_size_estimator
else:
    from kafkacodec.integrations._decode_py import kp_batch_records as _kp_batch_records
    from kafkacodec.integrations._decode_py import kp_default_records as _kp_default_records
    from kafkacodec.integrations._build_py import V2Builder as _V2Builder
    from kafkacodec.integrations._build_py import v2_size_estimator as _v2_size_estimator

__all__ = ["install", "uninstall", "installed", "SUPPORTED", "UnsupportedClientVersion",
           "DefaultRecord", "DefaultRecordBatch", "DefaultRecordBatchBuilder", "MemoryRecords"]

SUPPORTED = ((3, 0, 0), (4, 0, 0))  # kafka-python >= 3.0, < 4
# The fetcher's record loop is replaced by a copy of kafka-python 3.0's, so
# only for the 3.0 series; other 3.x keep their own loop (batches still decoded in C).
FETCHER_SUPPORTED = ((3, 0, 0), (3, 1, 0))

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

class DefaultRecord(tuple, _abc.ABCRecord):
    """A v2 record with kafka-python's DefaultRecord attributes.

    A tuple underneath, built in C per batch (no Python call per record);
    fields are read through C accessors."""
    __slots__ = ()
    _fields = ("offset", "timestamp", "timestamp_type", "key", "value", "headers", "_wire_size")

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


class DefaultRecordBatch(DecodedBatchMixin, _OrigDefaultRecordBatch):
    """kafka-python's DefaultRecordBatch with records decoded by kafkacodec."""
    __slots__ = ("_it",)
    _client_batch = _OrigDefaultRecordBatch
    _record_type = DefaultRecord
    _decode_records = staticmethod(_kp_default_records)

    next = DecodedBatchMixin.__next__


class MemoryRecords(_OrigMemoryRecords):
    """kafka-python's MemoryRecords handing out kafkacodec-backed v2 batches."""
    __slots__ = ()

    def next_batch(self, _min_slice=_OrigMemoryRecords.MIN_SLICE,
                   _magic_offset=_OrigMemoryRecords.MAGIC_OFFSET, _unpack=struct.unpack_from):
        next_slice = take_next_slice(self, _min_slice, _CorruptRecordError)
        if next_slice is None:
            return None
        magic, = _unpack(">b", next_slice, _magic_offset)
        if magic <= 1:
            return _LegacyRecordBatch(next_slice, magic)
        return DefaultRecordBatch(next_slice)

    def __next__(self):
        if not self.has_next():
            raise StopIteration
        return self.next_batch()

    next = __next__


def _client_methods(cls, leave):
    """The attributes kafka-python's builder class and its bases define (methods,
    constants, classmethods), without slots and class machinery."""
    ns = {}
    for klass in reversed(cls.__mro__[:-1]):
        for name, value in vars(klass).items():
            if name in leave or isinstance(value, types.MemberDescriptorType):
                continue
            ns[name] = value
    return ns


def _write_header(self, use_compression_type=True):
    write_client_v2_header(self, 0, use_compression_type)  # kafka-python writes leader epoch 0


_LEAVE = {"__slots__", "__dict__", "__weakref__", "__module__", "__qualname__", "__doc__",
          "__abstractmethods__", "_abc_impl", "__init_subclass__", "append", "size"}

# kafka-python's DefaultRecordBatchBuilder with records encoded by kafkacodec.
#
# The record state (buffer, first/max timestamp, count, last offset, batch
# size) lives in kafkacodec's C V2Builder, whose ``append`` is one C call:
# it writes the record into the batch buffer with kafka-python's size rule (a
# record that would take the batch past batch_size is refused unless it is
# the first) and returns kafka-python's DefaultRecordMetadata; arguments of
# other types go to kafka-python's own append on the same state.  Every other
# method and constant is kafka-python's own (its class has slots, so they are
# copied rather than inherited); the header CRC uses kafkacodec's CRC-32C.
# Same bytes, same batch boundaries.
def _builder_class(v2_builder):
    """The builder class on a V2Builder implementation (the C one, or its pure twin)."""
    cls = type("DefaultRecordBatchBuilder", (v2_builder,), {
    **_client_methods(_OrigDefaultRecordBatchBuilder, _LEAVE),
        "__module__": __name__,
        "__doc__": "kafka-python's DefaultRecordBatchBuilder with records encoded by kafkacodec "
                   "(record state and append in C; kafka-python's other methods).",
        "_kc_meta": _DefaultRecordMetadata,
        "_kc_fallback": staticmethod(_OrigDefaultRecordBatchBuilder.append),
        "_kc_rule": "kafka-python",
        "write_header": _write_header,
        # KafkaProducer.send() sizes every record through this classmethod
        "estimate_size_in_bytes": staticmethod(_v2_size_estimator(
            _OrigDefaultRecordBatchBuilder.HEADER_STRUCT.size + _OrigDefaultRecordBatchBuilder.MAX_RECORD_OVERHEAD,
            _OrigDefaultRecordBatchBuilder.estimate_size_in_bytes)),
    })
    _abc.ABCRecordBatchBuilder.register(cls)
    return cls


DefaultRecordBatchBuilder = _builder_class(_V2Builder)


def _unpack_records(self, tp, records, key_deserializer, value_deserializer):
    """kafka-python 3.0's ``Fetcher.PartitionRecords._unpack_records`` with
    each v2 data batch turned into ConsumerRecords by one C call.

    Same generator contract as the original: records_read, bytes_read and
    next_fetch_offset advance as each record is yielded (the consumer may stop
    mid-batch), the same errors are raised at the same points, and aborted
    transactions and control batches are handled by the same steps.  Batches
    the C helper declines (legacy, corrupt, undecodable header keys) go
    through the original per-record loop below."""
    Errors = _errors
    ConsumerRecord = _fetcher.ConsumerRecord
    try:
        batch = records.next_batch()
        last_batch = None
        while batch is not None:
            last_batch = batch

            if self.check_crcs and not batch.validate_crc():
                raise Errors.CorruptRecordError(
                        "Record batch for partition %s at offset %s failed crc check" % (
                            self.topic_partition, batch.base_offset))

            # Try DefaultsRecordBatch / message log format v2
            # base_offset, last_offset_delta, aborted transactions, and control batches
            if batch.magic == 2:
                self.leader_epoch = batch.leader_epoch
                if (self.isolation_level == _fetcher.IsolationLevel.READ_COMMITTED
                        and batch.has_producer_id()):
                    # remove from the aborted transaction queue all aborted transactions which have begun
                    # before the current batch's last offset and add the associated producerIds to the
                    # aborted producer set
                    self._consume_aborted_transactions_up_to(batch.last_offset)

                    producer_id = batch.producer_id
                    if self._contains_abort_marker(batch):
                        try:
                            self.aborted_producer_ids.remove(producer_id)
                        except KeyError:
                            pass
                    elif self._is_batch_aborted(batch):
                        _fetcher.log.debug(
                            "Skipping aborted record batch from partition %s with producer_id %s and"
                            " offsets %s to %s",
                            self.topic_partition, producer_id, batch.base_offset, batch.last_offset)
                        self.next_fetch_offset = batch.next_offset
                        batch = records.next_batch()
                        continue

                # Control batches have a single record indicating whether a transaction
                # was aborted or committed. These are not returned to the consumer.
                if batch.is_control_batch:
                    self.next_fetch_offset = batch.next_offset
                    batch = records.next_batch()
                    continue

            decoded = None
            if type(batch) is DefaultRecordBatch and batch._it is None:
                decoded = _kp_batch_records(ConsumerRecord, batch._buffer, tp.topic, tp.partition,
                                            self.leader_epoch, _OPTIONS["untrack_records"])
            if decoded is not None:
                batch._decompressed = True
                recs, sizes = decoded
                if key_deserializer is None and value_deserializer is None:
                    for record, size in zip(recs, sizes):
                        self.records_read += 1
                        self.bytes_read += size
                        self.next_fetch_offset = record[3] + 1
                        yield record
                else:
                    for record, size in zip(recs, sizes):
                        headers = record[8]
                        key = self._deserialize(key_deserializer, tp.topic, headers, record[6])
                        value = self._deserialize(value_deserializer, tp.topic, headers, record[7])
                        self.records_read += 1
                        self.bytes_read += size
                        self.next_fetch_offset = record[3] + 1
                        yield ConsumerRecord(
                            record[0], record[1], record[2], record[3], record[4], record[5],
                            key, value, headers, None, record[10], record[11], record[12])
                batch = records.next_batch()
                continue

            for record in batch:
                if self.check_crcs and not record.validate_crc():
                    raise Errors.CorruptRecordError(
                            "Record for partition %s at offset %s failed crc check" % (
                                self.topic_partition, record.offset))
                key_size = len(record.key) if record.key is not None else -1
                value_size = len(record.value) if record.value is not None else -1
                key = self._deserialize(key_deserializer, tp.topic, record.headers, record.key)
                value = self._deserialize(value_deserializer, tp.topic, record.headers, record.value)
                headers = record.headers
                header_size = sum(
                    len(h_key.encode("utf-8")) + (len(h_val) if h_val is not None else 0) for h_key, h_val in
                    headers) if headers else -1
                self.records_read += 1
                self.bytes_read += record.size_in_bytes
                self.next_fetch_offset = record.offset + 1
                yield ConsumerRecord(
                    tp.topic, tp.partition, self.leader_epoch, record.offset, record.timestamp,
                    record.timestamp_type, key, value, record.headers, record.checksum,
                    key_size, value_size, header_size)

            batch = records.next_batch()
        else:
            # Message format v2 preserves the last offset in a batch even if the last record is removed
            # through compaction. By using the next offset computed from the last offset in the batch,
            # we ensure that the offset of the next fetch will point to the next batch, which avoids
            # unnecessary re-fetching of the same batch (in the worst case, the consumer could get stuck
            # fetching the same batch repeatedly).
            if last_batch and last_batch.magic == 2:
                self.next_fetch_offset = last_batch.next_offset
            self.drain()

    # If unpacking raises StopIteration, it is erroneously
    # caught by the generator. We want all exceptions to be raised
    # back to the user. See Issue 545
    except StopIteration:
        _fetcher.log.exception('StopIteration raised unpacking messageset')
        raise RuntimeError('StopIteration raised unpacking messageset')


_PATCHES = Patches()


def _replacements(build=True):
    # (where, name, replacement): every module that binds the class at import
    out = ([(where, "MemoryRecords", MemoryRecords)
            for where in ("kafka.record.memory_records", "kafka.record", "kafka.consumer.fetcher",
                          "kafka.producer.record_accumulator")]
           + [(where, "DefaultRecordBatch", DefaultRecordBatch)
              for where in ("kafka.record.memory_records", "kafka.record.default_records")])
    if _fetcher_supported():
        out.append(("kafka.consumer.fetcher:Fetcher.PartitionRecords", "_unpack_records", _unpack_records))
    if not build:
        return out
    return out + [(where, "DefaultRecordBatchBuilder", DefaultRecordBatchBuilder)
                  for where in ("kafka.record.memory_records", "kafka.record.default_records", "kafka.producer.kafka")]


def _fetcher_supported():
    lo, hi = FETCHER_SUPPORTED
    return lo <= parse_version(kafka.__version__) < hi


_OPTIONS = {"untrack_records": True}


def install(build=True, untrack_records=True):
    """Route kafka-python's record decoding and (unless build=False) batch
    building through kafkacodec.

    ``untrack_records``: ConsumerRecords built by kafkacodec are left out of
    Python's cycle collector, which otherwise re-walks every record a
    consumer holds on each collection (the larger part of consuming cost
    once decoding is native).  A record's fields are immutable apart from its
    headers list: only a reference cycle the application creates through
    that list (e.g. a record appended to its own headers) would not be
    collected.  Pass False to keep kafka-python's tracking.

    Returns True if this call patched, False if already installed.  Raises
    UnsupportedClientVersion (and patches nothing) unless 3.0 <= kafka-python < 4."""
    check_version("kafka-python", kafka.__version__, *SUPPORTED)
    _OPTIONS["untrack_records"] = bool(untrack_records)
    return _PATCHES.apply(_replacements(build))


def uninstall():
    """Restore kafka-python's own classes (no-op if not installed)."""
    _PATCHES.restore()


def installed():
    """Whether install() is in effect."""
    return _PATCHES.active
