"""Where a record goes when the caller names no partition.

``murmur2`` (the default) is the Java client's rule for keyed records:
``toPositive(murmur2(key)) % partitions``, so a key lands where a Java
producer (or librdkafka's ``murmur2_random``) puts it.  Records without a key
stick to one partition until its open batch is full, then move on (KIP-480's
sticky partitioning), so small records still make full batches.

``consistent_random`` is librdkafka's default: CRC-32 of the key, sticky for
records without one; ``consistent`` hashes a missing key like an empty one;
``random`` ignores keys.  A callable ``fn(key, partition_count) -> int`` is
used as given.
"""
import random
import struct
import zlib

__all__ = ["murmur2", "murmur2_partition", "Partitioner", "PARTITIONERS"]

_SEED = 0x9747B28C
_M = 0x5BD1E995
_MASK = 0xFFFFFFFF
_WORDS = {}  # word count -> struct.Struct("<nI"); keys of one length reuse one


def murmur2(data):
    """The Java client's murmur2 of `data` (bytes-like), as a signed 32-bit int."""
    n = len(data)
    h = _SEED ^ n
    n4 = n >> 2
    if n4:
        unpack = _WORDS.get(n4)
        if unpack is None:
            unpack = _WORDS[n4] = struct.Struct(f"<{n4}I").unpack_from
        for k in unpack(data, 0):
            k = (k * _M) & _MASK
            k ^= k >> 24
            h = ((h * _M) & _MASK) ^ ((k * _M) & _MASK)
    tail = n & 3
    if tail:
        base = n4 << 2
        if tail == 3:
            h ^= data[base + 2] << 16
        if tail >= 2:
            h ^= data[base + 1] << 8
        h ^= data[base]
        h = (h * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    h ^= h >> 15
    return h - 0x100000000 if h & 0x80000000 else h


def murmur2_partition(key, partitions):
    """Java's DefaultPartitioner/BuiltInPartitioner for a non-null key."""
    return (murmur2(key) & 0x7FFFFFFF) % partitions


def _positive_murmur2(key):
    return murmur2(key) & 0x7FFFFFFF


# how many hashed keys to remember: repeated keys (ids, users) skip the hash
_CACHE_LIMIT = 1 << 16

PARTITIONERS = ("murmur2", "murmur2_random", "consistent_random", "consistent", "random")


class Partitioner:
    """Picks partitions for one producer; key hashes are cached (bounded)."""

    def __init__(self, spec="murmur2"):
        self.custom = None
        self.sticky_null = True
        self.hash_null = False
        if callable(spec):
            self.custom = spec
            self._hash = None
        elif spec in ("murmur2", "murmur2_random"):
            self._hash = _positive_murmur2
        elif spec in ("consistent_random", "consistent"):
            self._hash = zlib.crc32
            self.hash_null = spec == "consistent"
        elif spec == "random":
            self._hash = None
        else:
            raise ValueError(f"unknown partitioner {spec!r} ({', '.join(PARTITIONERS)} or a callable)")
        self.name = getattr(spec, "__name__", spec)
        self._cache = {}

    def for_key(self, key, partitions):
        """Partition of a record with this key, or None: use the sticky partition."""
        if self.custom is not None:
            p = self.custom(key, partitions)
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < partitions:
                raise ValueError(f"partitioner {self.name} returned {p!r} for {partitions} partitions")
            return p
        if key is None:
            return self._hash(b"") % partitions if self.hash_null else None
        if self._hash is None:
            return None
        if type(key) is not bytes:  # unhashable or mutable buffers are hashed each time
            return self._hash(key) % partitions
        cache = self._cache
        h = cache.get(key)
        if h is None:
            h = self._hash(key)
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            cache[key] = h
        return h % partitions

    @staticmethod
    def next_sticky(partitions, previous, available=None):
        """A new sticky partition: random among those with a leader, not the previous one."""
        choices = available if available else range(partitions)
        if len(choices) > 1 and previous is not None:
            while True:
                p = random.choice(choices)
                if p != previous:
                    return p
        return random.choice(choices)
