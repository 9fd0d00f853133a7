"""Batch builders and optional-dependency helpers for the log-directory tests."""
import random
import struct

import pytest

from kafkacodec import crc32, crc32c


def _builder():
    try:
        from aiokafka.record.default_records import DefaultRecordBatchBuilder
    except ImportError:  # pragma: no cover
        pytest.skip("aiokafka not installed (used to build test batches)")
    return DefaultRecordBatchBuilder


def build_batch(timestamps, *, value_size=20, producer_id=-1, producer_epoch=-1,
                base_sequence=-1, transactional=False, seed=0, base_offset=0):
    """A magic-2 batch with one record per timestamp (built by aiokafka, not by us)."""
    rnd = random.Random(seed)
    b = _builder()(magic=2, compression_type=0, is_transactional=int(transactional),
                   producer_id=producer_id, producer_epoch=producer_epoch,
                   base_sequence=base_sequence, batch_size=1 << 24)
    for i, ts in enumerate(timestamps):
        value = bytes(rnd.getrandbits(8) for _ in range(value_size))
        assert b.append(i, timestamp=ts, key=b"k%d" % i, value=value, headers=[]) is not None
    data = bytearray(b.build())
    struct.pack_into(">q", data, 0, base_offset)
    return bytes(data)


def control_batch(producer_id, producer_epoch, timestamp, *, commit=False, base_offset=0):
    """A transaction marker batch: transactional + control attributes, one control record."""
    b = _builder()(magic=2, compression_type=0, is_transactional=1, producer_id=producer_id,
                   producer_epoch=producer_epoch, base_sequence=-1, batch_size=1 << 20)
    key = struct.pack(">hh", 0, 1 if commit else 0)
    value = struct.pack(">hi", 0, 0)
    b.append(0, timestamp=timestamp, key=key, value=value, headers=[])
    data = bytearray(b.build())
    attrs = struct.unpack_from(">h", data, 21)[0] | 0x20
    struct.pack_into(">h", data, 21, attrs)
    struct.pack_into(">I", data, 17, crc32c(bytes(data[21:])))
    struct.pack_into(">q", data, 0, base_offset)
    return bytes(data)


def legacy_message_set(magic, timestamps, *, compression=0, last_offset=None):
    """A magic 0/1 message set built by aiokafka.  Compressed sets come out as one
    wrapper message whose offset (and, for magic 1, timestamp) is set as a broker stores it.
    """
    try:
        from aiokafka.record.legacy_records import LegacyRecordBatchBuilder
    except ImportError:  # pragma: no cover
        pytest.skip("aiokafka not installed (used to build test batches)")
    b = LegacyRecordBatchBuilder(magic=magic, compression_type=compression, batch_size=1 << 20)
    for i, ts in enumerate(timestamps):
        b.append(i, timestamp=ts if magic else None, key=b"k%d" % i, value=b"v" * 30)
    data = bytearray(b.build())
    if compression:
        struct.pack_into(">q", data, 0, last_offset)
        if magic == 1:
            # the broker stamps the wrapper with the largest inner timestamp
            struct.pack_into(">q", data, 18, max(timestamps))
            struct.pack_into(">I", data, 12, crc32(bytes(data[16:])))
    return bytes(data)


def aiokafka_batches(data):
    """Independent decode of a message set: (batch, CRC ok, its records) per batch."""
    from aiokafka.record.memory_records import MemoryRecords

    mr = MemoryRecords(bytes(data))
    out = []
    while mr.has_next():
        batch = mr.next_batch()
        crc_ok = batch.validate_crc()  # aiokafka wants this before iterating
        out.append((batch, crc_ok, list(batch)))
    return out
