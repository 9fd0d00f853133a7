"""CRC-32C and CRC-32 in pure Python (table driven, byte at a time)."""
import zlib


def _table(poly):
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_CRC32C_TABLE = _table(0x82F63B78)


def crc32c(data, value=0):
    crc = ~value & 0xFFFFFFFF
    table = _CRC32C_TABLE
    for b in memoryview(data).cast("B"):
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return ~crc & 0xFFFFFFFF


def crc32(data, value=0):
    return zlib.crc32(data, value & 0xFFFFFFFF)


def crc32c_implementation():
    return "software"


crc32c_software = crc32c


def hardware_crc32c_available():
    return None
