"""Where a record goes when the caller names no partition.

``murmur2`` (the default) is the Java client's rule for keyed records:
``toPositive(murmur2(key)) % partitions``, so a key lands where a Java
producer (or librdkafka's ``murmur2_random``) puts it.  Records without a key
stick to one partition until its open batch is full, then move on (KIP-480's
sticky partitioning), so small records still make full batches.

The other names are librdkafka's, with its meanings: ``consistent_random``
(librdkafka's default) is CRC-32 of the key, with records without a key or with
an empty one sticky; ``consistent`` hashes a missing key like an empty one (all
such records land in one partition); ``murmur2_random`` is ``murmur2``;
``murmur2_consistent`` is librdkafka's ``murmur2`` (a missing key hashed like an
empty one; kafkacodec's ``murmur2`` is Java's); ``fnv1a`` and ``fnv1a_random``
hash with 32-bit FNV-1a; ``random`` puts each keyed record in a random
partition.  A callable ``fn(key, partition_count) -> int`` is used as given.

How long a record without a key sticks to a partition is the producer's
``sticky.partitioning.linger.ms``: unset, one partition per batch (KIP-480);
set, that many ms (librdkafka's rule), 0 a random partition per record.
"""
from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from typing import Any

from kafkacodec import _impl
from kafkacodec._random import rng

__all__ = ["murmur2", "murmur2_partition", "fnv1a_partition", "Partitioner", "PARTITIONERS"]

# Kafka's murmur2, compiled (kafkacodec._crc) unless the pure twin is in use
murmur2: Callable[[Any], int] = _impl.crc.murmur2  # type: ignore[attr-defined]  # chosen at import
# Java's DefaultPartitioner for a non-null key
murmur2_partition: Callable[[Any, int], int] = _impl.crc.partition_for_key  # type: ignore[attr-defined]

#: fn(key, partition_count) -> partition: a custom partitioner
PartitionerFunction = Callable[[Any, int], int]


def _positive_murmur2(key: Any) -> int:
    return murmur2(key) & 0x7FFFFFFF


def _fnv1a(key: Any) -> int:
    """librdkafka's rd_fnv1a: 32-bit FNV-1a, read as a signed value made positive."""
    h = 0x811C9DC5
    for byte in bytes(key):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return (1 << 32) - h if h >= 1 << 31 else h


def fnv1a_partition(key: Any, partitions: int) -> int:
    """librdkafka's fnv1a partitioner for a key."""
    return _fnv1a(key) % partitions


def _random_partition(key: Any, partitions: int) -> int:
    return rng.randrange(partitions)


# how many hashed keys to remember: repeated keys (ids, users) skip the hash
_CACHE_LIMIT = 1 << 16

PARTITIONERS = ("murmur2", "murmur2_random", "murmur2_consistent", "consistent_random", "consistent", "random",
                "fnv1a", "fnv1a_random")


class Partitioner:
    """Picks partitions for one producer; hashes computed in Python are cached (bounded)."""

    def __init__(self, spec: str | PartitionerFunction = "murmur2") -> None:
        self.custom: PartitionerFunction | None = None
        self.hash_null = False     # a missing key is hashed like an empty one (one partition for them all)
        self.sticky_empty = False  # an empty key is sticky like a missing one (consistent_random)
        # fn(key, partitions) for a non-null key, when a plain hash decides (None: sticky, for an empty key)
        self.key_partition: Callable[[Any, int], int | None] | None = None
        # what key_partition computes for a non-empty bytes key, for a compiled caller to compute
        # itself (client/send_path.pyx): "murmur2" or "crc32" (% partitions), or None
        self.key_hash: str | None = None
        self._hash: Callable[[Any], int] | None
        if callable(spec):
            self.custom = spec
            self._hash = None
        elif spec in ("murmur2", "murmur2_random", "murmur2_consistent"):
            self._hash = _positive_murmur2
            self.hash_null = spec == "murmur2_consistent"
            self.key_hash = "murmur2"
            # compiled, the hash costs less than a cache lookup; the pure twin's is cached
            self.key_partition = murmur2_partition if _impl.accelerated else self._cached_partition
        elif spec in ("consistent_random", "consistent"):
            self._hash = zlib.crc32
            self.hash_null = spec == "consistent"
            self.sticky_empty = spec == "consistent_random"
            self.key_hash = "crc32"
            self.key_partition = self._cached_partition
        elif spec in ("fnv1a", "fnv1a_random"):
            self._hash = _fnv1a
            self.hash_null = spec == "fnv1a"
            self.key_partition = self._cached_partition
        elif spec == "random":
            self._hash = None
            self.key_partition = _random_partition
        else:
            raise ValueError(f"unknown partitioner {spec!r} ({', '.join(PARTITIONERS)} or a callable)")
        self.name: str = getattr(spec, "__name__", spec)  # type: ignore[arg-type]  # a str spec names itself
        self._cache: dict[bytes, int] = {}

    def _cached_partition(self, key: Any, partitions: int) -> int | None:
        # installed as key_partition only by the specs that set a hash
        hash_key: Callable[[Any], int] = self._hash  # type: ignore[assignment]
        if self.sticky_empty and len(key) == 0:
            return None  # librdkafka's consistent_random: an empty key is sticky too
        if type(key) is not bytes:  # unhashable or mutable buffers are hashed each time
            return hash_key(key) % partitions
        cache = self._cache
        h = cache.get(key)
        if h is None:
            h = hash_key(key)
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            cache[key] = h
        return h % partitions

    def for_key(self, key: Any, partitions: int) -> int | None:
        """Partition of a record with this key, or None: use the sticky partition."""
        if self.custom is not None:
            p = self.custom(key, partitions)
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < partitions:
                raise ValueError(f"partitioner {self.name} returned {p!r} for {partitions} partitions")
            return p
        if key is None:
            # hash_null is set only by specs that have a hash
            return self._hash(b"") % partitions if self.hash_null else None  # type: ignore[misc]
        if self.key_partition is None:
            return None
        return self.key_partition(key, partitions)

    @staticmethod
    def next_sticky(partitions: int, previous: int | None, available: Sequence[int] | None = None) -> int:
        """A new sticky partition: random among those with a leader, not the previous one."""
        choices: Sequence[int] = available if available else range(partitions)
        if len(choices) > 1 and previous is not None:
            while True:
                p = rng.choice(choices)
                if p != previous:
                    return p
        return rng.choice(choices)
