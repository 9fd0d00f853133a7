"""Shared machinery for the client adapters: version gates, a reversible
set of attribute replacements, the v2 batch header both clients write, and
the batch class both clients read records through."""
from __future__ import annotations

import importlib
import re
import struct
import threading

from kafkacodec import crc32c as _crc32c


class UnsupportedClientVersion(RuntimeError):
    """The installed client version is outside the range the adapter was written for."""


def parse_version(text):
    """(major, minor, patch) from a version string such as "3.0.12" or "0.14.0rc1"."""
    nums = [int(n) for n in re.findall(r"\d+", str(text).split("+")[0])[:3]]
    return tuple(nums + [0] * (3 - len(nums)))


def check_version(client, version, lowest, below):
    """Raise UnsupportedClientVersion unless lowest <= version < below."""
    v = parse_version(version)
    if not (lowest <= v < below):
        lo = ".".join(map(str, lowest))
        hi = ".".join(map(str, below))
        raise UnsupportedClientVersion(
            f"kafkacodec's {client} adapter supports {client} >= {lo}, < {hi}; "
            f"installed {client} is {version}. Nothing was patched.")
    return v


def resolve(target):
    """The object named by "package.module" or "package.module:Class.Nested"."""
    modname, _, path = target.partition(":")
    obj = importlib.import_module(modname)
    for part in filter(None, path.split(".")):
        obj = getattr(obj, part)
    return obj


class Patches:
    """Replacements of module attributes, applied and undone as one unit."""

    def __init__(self):
        self._saved = []            # (module, name, original)
        self._lock = threading.Lock()

    @property
    def active(self):
        return bool(self._saved)

    def apply(self, replacements):
        """replacements: [(target, attribute, new object)], the target a module
        name or "module:Class" (see resolve); all targets are resolved and all
        attributes checked before anything changes."""
        with self._lock:
            if self._saved:
                return False
            plan = []
            for target, attr, new in replacements:
                try:
                    mod = resolve(target)
                except AttributeError:
                    raise UnsupportedClientVersion(f"{target} not found; nothing was patched") from None
                # vars(): the object's own attribute, so restoring puts back exactly what was there
                if attr not in vars(mod):
                    raise UnsupportedClientVersion(f"{target}.{attr} not found; nothing was patched")
                plan.append((mod, attr, vars(mod)[attr], new))
            for mod, attr, old, new in plan:
                setattr(mod, attr, new)
                self._saved.append((mod, attr, old))
            return True

    def restore(self):
        with self._lock:
            while self._saved:
                mod, attr, old = self._saved.pop()
                setattr(mod, attr, old)

    def originals(self):
        return [(getattr(mod, "__qualname__", mod.__name__), attr, old) for mod, attr, old in self._saved]


def write_client_v2_header(builder, partition_leader_epoch, use_compression_type):
    """kafka-python's DefaultRecordBatchBuilder._write_header (its header struct
    and offsets, the given partition leader epoch) with kafkacodec's CRC-32C."""
    buffer = builder._buffer
    builder.HEADER_STRUCT.pack_into(
        buffer, 0,
        0,  # base offset: the broker assigns it
        len(buffer) - builder.AFTER_LEN_OFFSET,
        partition_leader_epoch,
        builder._magic,
        0,  # CRC, patched below
        builder._get_attributes(use_compression_type),
        builder._last_offset,
        builder._first_timestamp or 0,
        builder._max_timestamp or 0,
        builder._producer_id,
        builder._producer_epoch,
        builder._base_sequence,
        builder._num_records)
    struct.pack_into(">I", buffer, builder.CRC_OFFSET, _crc32c(memoryview(buffer)[builder.ATTRIBUTES_OFFSET:]))


_ATTRIBUTES_OFFSET = 21
_CONTROL_MASK = 0x20


def take_next_slice(records, min_slice, corrupt_error):
    """MemoryRecords' next batch bytes (stepping past them), None at the end;
    the client's corrupt-record error for a slice below its minimum overhead."""
    next_slice = records._next_slice
    if next_slice is None:
        return None
    if len(next_slice) < min_slice:
        raise corrupt_error(
            f"Record size is less than the minimum record overhead ({min_slice - records.LOG_OVERHEAD})")
    records._cache_next()
    return next_slice


class DecodedBatchMixin:
    """The DefaultRecordBatch methods kafka-python and aiokafka share (aiokafka's
    record layer is kafka-python's, forked), with a data batch's records made in
    one call by ``_decode_records(record_type, buffer)``.  The subclass names the
    client's own batch class (``_client_batch``: control batches, and any batch
    kafkacodec leaves to the client, whose records and errors are then the
    client's) and its record type (``_record_type``)."""
    __slots__ = ()

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
            # transaction markers: the client's control records
            return iter(self._client_batch(self._buffer))
        recs = self._decode_records(self._record_type, self._buffer)
        if recs is None:
            # the client's decoder yields what it can and raises its own error
            # (iter: it decompresses there and fails there, as the client's does)
            return iter(self._client_batch(self._buffer))
        return iter(recs)

    def __iter__(self):
        self._decompressed = True
        it = self._it
        if it is None:
            it = self._it = self._records_iterator()
        return it

    def __next__(self):
        it = self._it
        if it is None:
            # next() before iter(): the client's batch reads its records
            # without decompressing, and so does this one
            it = self._it = self._client_batch(self._buffer)
        return next(it)
