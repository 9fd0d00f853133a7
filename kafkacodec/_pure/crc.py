"""CRC-32C and CRC-32 in pure Python (table driven, byte at a time), and the
Java client's murmur2."""
import struct
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


_MURMUR_SEED = 0x9747B28C
_MURMUR_M = 0x5BD1E995
_MASK32 = 0xFFFFFFFF
_WORDS = {}  # word count -> struct unpack_from; keys of one length share one


def murmur2(data):
    """Kafka's murmur2 (Utils.murmur2) of a bytes-like object, as a signed 32-bit int."""
    data = memoryview(data).cast("B")
    n = len(data)
    m = _MURMUR_M
    h = _MURMUR_SEED ^ n
    n4 = n >> 2
    if n4:
        unpack = _WORDS.get(n4)
        if unpack is None:
            unpack = _WORDS[n4] = struct.Struct(f"<{n4}I").unpack_from
        for k in unpack(data, 0):
            k = (k * m) & _MASK32
            k ^= k >> 24
            h = ((h * m) & _MASK32) ^ ((k * m) & _MASK32)
    tail = n & 3
    if tail:
        base = n4 << 2
        if tail == 3:
            h ^= data[base + 2] << 16
        if tail >= 2:
            h ^= data[base + 1] << 8
        h ^= data[base]
        h = (h * m) & _MASK32
    h ^= h >> 13
    h = (h * m) & _MASK32
    h ^= h >> 15
    return h - 0x100000000 if h & 0x80000000 else h


def partition_for_key(key, num_partitions):
    """toPositive(murmur2(key)) % num_partitions (the Java default partitioner)."""
    if num_partitions <= 0:
        raise ValueError("num_partitions must be positive")
    return (murmur2(key) & 0x7FFFFFFF) % num_partitions


def murmur2_partitions(offsets, data, out, num_partitions, wide=False):
    """toPositive(murmur2(value)) % num_partitions of each value of an Arrow
    binary column into `out` (n int64); see the compiled twin."""
    if num_partitions <= 0:
        raise ValueError("num_partitions must be positive")
    out = memoryview(out).cast("B").cast("q")
    offsets = memoryview(offsets).cast("B")
    data = memoryview(data).cast("B")
    n = len(out)
    width = 8 if wide else 4
    if len(offsets) < (n + 1) * width:
        raise ValueError(f"offsets: {len(offsets)} bytes hold fewer than the {n + 1} offsets of {n} keys")
    bounds = offsets[:(n + 1) * width].cast("q" if wide else "i")
    for i in range(n):
        start, end = bounds[i], bounds[i + 1]
        if start < 0 or end < start or end > len(data):
            raise ValueError(f"offsets[{i}]: key bytes {start}..{end} lie outside the "
                             f"{len(data)}-byte data buffer")
        out[i] = (murmur2(data[start:end]) & 0x7FFFFFFF) % num_partitions
