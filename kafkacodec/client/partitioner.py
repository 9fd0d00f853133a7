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
import zlib

from kafkacodec import _impl

__all__ = ["murmur2", "murmur2_partition", "Partitioner", "PARTITIONERS"]

# Kafka's murmur2, compiled (kafkacodec._crc) unless the pure twin is in use
murmur2 = _impl.crc.murmur2
murmur2_partition = _impl.crc.partition_for_key  # Java's DefaultPartitioner for a non-null key


def _positive_murmur2(key):
    return murmur2(key) & 0x7FFFFFFF


# how many hashed keys to remember: repeated keys (ids, users) skip the hash
_CACHE_LIMIT = 1 << 16

PARTITIONERS = ("murmur2", "murmur2_random", "consistent_random", "consistent", "random")


class Partitioner:
    """Picks partitions for one producer; hashes computed in Python are cached (bounded)."""

    def __init__(self, spec="murmur2"):
        self.custom = None
        self.sticky_null = True
        self.hash_null = False
        self.key_partition = None  # fn(key, partitions) for a non-null key, when a plain hash decides
        if callable(spec):
            self.custom = spec
            self._hash = None
        elif spec in ("murmur2", "murmur2_random"):
            self._hash = _positive_murmur2
            # compiled, the hash costs less than a cache lookup; the pure twin's is cached
            self.key_partition = murmur2_partition if _impl.accelerated else self._cached_partition
        elif spec in ("consistent_random", "consistent"):
            self._hash = zlib.crc32
            self.hash_null = spec == "consistent"
            self.key_partition = self._cached_partition
        elif spec == "random":
            self._hash = None
        else:
            raise ValueError(f"unknown partitioner {spec!r} ({', '.join(PARTITIONERS)} or a callable)")
        self.name = getattr(spec, "__name__", spec)
        self._cache = {}

    def _cached_partition(self, key, partitions):
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

    def for_key(self, key, partitions):
        """Partition of a record with this key, or None: use the sticky partition."""
        if self.custom is not None:
            p = self.custom(key, partitions)
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < partitions:
                raise ValueError(f"partitioner {self.name} returned {p!r} for {partitions} partitions")
            return p
        if key is None:
            return self._hash(b"") % partitions if self.hash_null else None
        if self.key_partition is None:
            return None
        return self.key_partition(key, partitions)

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
