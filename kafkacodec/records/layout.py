"""The record formats' byte layout for Python code, defined once: the v2
RecordBatch header, legacy (magic 0/1) messages and the attribute bits.

Compiled code reads the same values from ``_layout.pxd``; a test checks the
two agree.
"""
import struct

# v2 batch layout (offsets from the batch start)
V2_BASE_OFFSET = 0
V2_LENGTH = 8
V2_LEADER_EPOCH = 12
V2_MAGIC = 16
V2_CRC = 17
V2_ATTRIBUTES = 21
V2_LAST_OFFSET_DELTA = 23
V2_BASE_TIMESTAMP = 27
V2_MAX_TIMESTAMP = 35
V2_PRODUCER_ID = 43
V2_PRODUCER_EPOCH = 51
V2_BASE_SEQUENCE = 53
V2_RECORD_COUNT = 57
V2_RECORDS = 61              # header size: the records section starts here
LOG_OVERHEAD = 12            # offset + length prefix, every magic
V2_MIN_RECORD_SIZE = 7       # length, attributes, ts/offset deltas, key, value, header count

# base offset, length, leader epoch, magic, crc, attributes, last offset delta,
# base timestamp, max timestamp, producer id, producer epoch, base sequence, count
V2_HEADER = struct.Struct(">qiibIhiqqqhii")
assert V2_HEADER.size == V2_RECORDS

# legacy message layout (offsets from the entry start)
LEGACY_CRC = 12
LEGACY_MAGIC = 16
LEGACY_ATTRIBUTES = 17
LEGACY_V1_TIMESTAMP = 18
LEGACY_V0_OVERHEAD = 14      # crc, magic, attributes, key len, value len
LEGACY_V1_OVERHEAD = 22      # + timestamp

# every magic begins alike (Kafka's Records): offset and length, then the magic at one place,
# so these bytes tell any batch's size and format before its header is read
SIZE_OFFSET = 8
MAGIC_OFFSET = 16
HEADER_SIZE_UP_TO_MAGIC = 17
assert SIZE_OFFSET == V2_LENGTH and MAGIC_OFFSET == V2_MAGIC == LEGACY_MAGIC

# attribute bits (v2; compression and timestamp type also legacy)
ATTR_COMPRESSION_MASK = 0x07
ATTR_TIMESTAMP_TYPE = 0x08
ATTR_TRANSACTIONAL = 0x10
ATTR_CONTROL = 0x20
ATTR_DELETE_HORIZON = 0x40

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
# A base offset this far from the int64 ends leaves room for any int32
# offset delta, so record offsets never overflow (v2_base_offset_ok in _v2.pxd).
V2_MAX_BASE_OFFSET = INT64_MAX - 0x7FFFFFFF


def varint_size(value: int) -> int:
    """The bytes of `value` as a v2 record's zigzag varint (its length, deltas, counts)."""
    zigzag = (value << 1) ^ (value >> 63)
    size = 1
    while zigzag >= 0x80:
        zigzag >>= 7
        size += 1
    return size


def field_size(data: bytes | None) -> int:
    """The bytes of a v2 record's key, value or header field: its length as a varint (-1 for
    None), then the data."""
    return 1 if data is None else varint_size(len(data)) + len(data)
