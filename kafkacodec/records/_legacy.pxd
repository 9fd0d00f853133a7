# One bounds-checked parser for a legacy (magic 0/1) message, shared by the
# record layer (_records.pyx, which raises what it reports) and the columnar
# decoder (arrow/_columnar.pyx, which leaves anything it reports to the record
# layer).  Runs without the GIL; on failure it says which check and where.
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t

from kafkacodec._primitives cimport kc_load_be32, kc_load_be64
from kafkacodec._crc cimport crc32_update
from kafkacodec.records._layout cimport *

cdef enum LegacyProblem:
    LEGACY_OK = 0
    LEGACY_SIZE = 1            # size below the magic's minimum
    LEGACY_CRC_MISMATCH = 2    # the stored CRC-32 is not the computed one
    LEGACY_KEY_LENGTH = 3
    LEGACY_VALUE_LENGTH = 4
    LEGACY_FIELDS_SHORT = 5    # the fields end before the declared size


cdef struct LegacyMessage:
    int64_t offset
    int32_t size               # the declared message size (after the log overhead)
    int magic
    int attributes
    int64_t timestamp          # -1 before magic 1
    Py_ssize_t key_pos         # key and value positions in the buffer, lengths -1 for null
    int32_t key_len
    Py_ssize_t value_pos
    int32_t value_len
    uint32_t crc
    uint32_t computed_crc
    Py_ssize_t at              # where the reported problem is, in the buffer


cdef inline int parse_legacy_message(const uint8_t *base, Py_ssize_t pos, bint verify_crc,
                                     LegacyMessage *m) noexcept nogil:
    """The message whose entry starts at base[pos]; the caller has checked
    that the 12-byte log overhead and the declared size fit."""
    cdef Py_ssize_t p, msg_end
    m.size = <int32_t>kc_load_be32(base + pos + 8)
    msg_end = pos + LOG_OVERHEAD + m.size
    m.magic = <int8_t>base[pos + LEGACY_MAGIC]
    if m.size < (LEGACY_V0_OVERHEAD if m.magic == 0 else LEGACY_V1_OVERHEAD):
        m.at = pos + 8
        return LEGACY_SIZE
    m.offset = <int64_t>kc_load_be64(base + pos)
    m.crc = kc_load_be32(base + pos + LEGACY_CRC)
    m.attributes = base[pos + LEGACY_ATTRIBUTES]
    if verify_crc:
        m.computed_crc = crc32_update(0, base + pos + LEGACY_MAGIC, <size_t>(msg_end - pos - LEGACY_MAGIC))
        if m.computed_crc != m.crc:
            m.at = pos + LEGACY_CRC
            return LEGACY_CRC_MISMATCH
    p = pos + LEGACY_ATTRIBUTES + 1
    if m.magic == 1:
        m.timestamp = <int64_t>kc_load_be64(base + p)
        p += 8
    else:
        m.timestamp = -1
    m.key_len = <int32_t>kc_load_be32(base + p)
    p += 4
    if m.key_len < -1 or m.key_len > msg_end - p - 4:
        m.at = p - 4
        return LEGACY_KEY_LENGTH
    m.key_pos = p
    if m.key_len > 0:
        p += m.key_len
    m.value_len = <int32_t>kc_load_be32(base + p)
    p += 4
    if m.value_len < -1 or m.value_len > msg_end - p:
        m.at = p - 4
        return LEGACY_VALUE_LENGTH
    m.value_pos = p
    if m.value_len > 0:
        p += m.value_len
    if p != msg_end:
        m.at = p
        return LEGACY_FIELDS_SHORT
    return LEGACY_OK
