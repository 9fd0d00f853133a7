"""murmur2 as the Java client computes it (Utils.murmur2), both twins: Kafka's
published vectors, every tail length against librdkafka's murmur2 partitioner,
and the twins against each other."""
import ctypes
import os

import pytest
from hypothesis import given, settings, strategies as st

import kafkacodec
from kafkacodec import _pure

# org.apache.kafka.common.utils.UtilsTest#testMurmur2
KAFKA_VECTORS = [
    (b"21", -973932308),
    (b"foobar", -790332482),
    (b"a-little-bit-long-string", -985981536),
    (b"a-little-bit-longer-string", -1486304829),
    (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971),
    (b"abc", 479470107),
]


@pytest.mark.parametrize("data, expected", KAFKA_VECTORS)
def test_kafka_vectors(impl, data, expected):
    assert impl.crc.murmur2(data) == expected
    assert impl.crc.partition_for_key(data, 1000) == (expected & 0x7FFFFFFF) % 1000


def test_any_buffer(impl):
    for obj in (bytearray(b"foobar"), memoryview(b"xxfoobar")[2:]):
        assert impl.crc.murmur2(obj) == -790332482
    with pytest.raises(TypeError):
        impl.crc.murmur2("foobar")
    with pytest.raises(ValueError):
        impl.crc.partition_for_key(b"foobar", 0)


def test_exported():
    assert kafkacodec.murmur2(b"21") == -973932308


@pytest.fixture(scope="module")
def rdkafka_partition():
    """librdkafka's murmur2 partitioner (an independent implementation): with
    2**31-1 partitions it returns toPositive(murmur2(key)) for nearly every key."""
    _peers = pytest.importorskip("_peers")
    try:
        lib = ctypes.CDLL(_peers.librdkafka_path())
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))
    fn = lib.rd_kafka_msg_partitioner_murmur2
    fn.restype = ctypes.c_int32
    fn.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int32, ctypes.c_void_p,
                   ctypes.c_void_p]
    return lambda key, n: fn(None, key, len(key), n, None, None)


def test_matches_librdkafka_every_length(impl, rdkafka_partition):
    rng = __import__("random").Random(3)
    for n in range(0, 70):
        for _ in range(8):
            key = rng.randbytes(n)
            for parts in (0x7FFFFFFF, 7, 1):
                assert impl.crc.partition_for_key(key, parts) == rdkafka_partition(key, parts), (key, parts)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_twins_agree(data):
    assert kafkacodec._impl.crc.murmur2(data) == _pure.crc.murmur2(data)
    assert -2**31 <= _pure.crc.murmur2(data) < 2**31
