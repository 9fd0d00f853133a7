"""Where records go when the caller names no partition, by librdkafka's rules where its names
are used: keyless records stick to one partition for sticky.partitioning.linger.ms (0: none),
partitioners that hash a missing key put them all in one partition, the keyed ones pick what
librdkafka's pick; unset, keyless records stick to a partition per batch (KIP-480)."""
import collections
import os
import random
import time
import uuid
import zlib

import pytest

from kafkacodec.client import Producer
from kafkacodec.client.partitioner import PARTITIONERS, Partitioner, fnv1a_partition, murmur2_partition

_peers = pytest.importorskip("_peers")


def test_a_missing_key_is_hashed_by_the_partitioners_that_say_so():
    for n in (1, 3, 7, 12):
        assert Partitioner("consistent").for_key(None, n) == zlib.crc32(b"") % n
        assert Partitioner("murmur2_consistent").for_key(None, n) == murmur2_partition(b"", n)
        assert Partitioner("fnv1a").for_key(None, n) == fnv1a_partition(b"", n)
        for sticky in ("murmur2", "murmur2_random", "consistent_random", "fnv1a_random", "random"):
            assert Partitioner(sticky).for_key(None, n) is None, sticky
    # consistent_random: an empty key sticks as a missing one does; consistent hashes it
    assert Partitioner("consistent_random").for_key(b"", 5) is None
    assert Partitioner("consistent").for_key(b"", 5) == 0
    assert set(PARTITIONERS) >= {"fnv1a", "fnv1a_random", "murmur2_consistent"}


def test_keyed_records_go_where_librdkafka_puts_them():
    confluent_kafka = pytest.importorskip("confluent_kafka")
    rng = random.Random(7)
    same = {"murmur2": confluent_kafka.murmur2, "murmur2_consistent": confluent_kafka.murmur2,
            "murmur2_random": confluent_kafka.murmur2, "consistent": confluent_kafka.consistent,
            "consistent_random": confluent_kafka.consistent, "fnv1a": confluent_kafka.fnv1a,
            "fnv1a_random": confluent_kafka.fnv1a}
    for name, theirs in same.items():
        ours = Partitioner(name)
        for _ in range(500):
            key, n = os.urandom(rng.randrange(1, 24)), rng.randrange(1, 64)
            assert ours.for_key(key, n) == theirs(key, n), (name, key, n)
    # random: keyed records anywhere
    assert len({Partitioner("random").for_key(b"same key", 8) for _ in range(200)}) > 1


def _partitions(bootstrap, topic, gaps_ms, **settings):
    """The partition of each keyless record sent `gaps_ms` apart (after a first one, flushed)."""
    with Producer({"bootstrap.servers": bootstrap}, **settings) as p:
        p.send(topic, b"first").get(20)
        handles = []
        for gap in gaps_ms:
            handles.append(p.send(topic, b"v"))
            time.sleep(gap / 1000)
        p.flush(20)
        timer = p._sticky_timer
        if timer is not None:  # once every partition's time is up, nothing is left to time
            time.sleep(settings["sticky_partitioning_linger_ms"] / 1000 + 0.2)
            assert timer.until == {}
        return [h.get().partition for h in handles]


def test_keyless_records_stick_for_sticky_partitioning_linger_ms(mock_bootstrap):
    topic = f"keyless-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(mock_bootstrap, topic, 6)
    # within the time: one partition, as librdkafka; past it, time and again: several
    assert len(set(_partitions(mock_bootstrap, topic, [0] * 40, sticky_partitioning_linger_ms=200))) == 1
    spread = _partitions(mock_bootstrap, topic, [30] * 15, sticky_partitioning_linger_ms=10)
    assert len(set(spread)) > 1
    # 0: a random partition for every record
    assert len(set(_partitions(mock_bootstrap, topic, [0] * 40, sticky_partitioning_linger_ms=0))) > 1
    # unset: a partition per batch (KIP-480), however long or short the batch took
    assert len(set(_partitions(mock_bootstrap, topic, [0] * 40))) == 1
    assert len(set(_partitions(mock_bootstrap, topic, [30] * 15))) > 1
    # a full batch does not move a timed sticky partition: it holds for its time, batches or not
    big = _partitions(mock_bootstrap, topic, [0] * 30, sticky_partitioning_linger_ms=5000, batch_size=100)
    assert len(set(big)) == 1 and len(big) == 30
    # partitioners that hash a missing key: one partition whatever the time
    counts = collections.Counter(_partitions(mock_bootstrap, topic, [30] * 10, sticky_partitioning_linger_ms=10,
                                             partitioner="fnv1a"))
    assert list(counts) == [fnv1a_partition(b"", 6)]


def test_the_clients_draws_leave_an_applications_seeded_random_alone(tansu_bootstrap):
    """Keyless partitions, backoff jitter and broker order are drawn from the client's own
    generator: a program that seeds Python's random module gets the same sequence whatever the
    client did meanwhile, on its thread or the program's."""
    random.seed(11)
    expected = [random.random() for _ in range(5)]
    random.seed(11)
    topic = f"seeded-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 3)
    p = Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 1})
    for i in range(200):
        p.send(topic, b"v%d" % i)  # keyless: partitions chosen at random
    p.flush(30)
    p.close()
    assert [random.random() for _ in range(5)] == expected
