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


def _column(keys, large):
    import pyarrow as pa
    arr = pa.array(keys, pa.large_binary() if large else pa.binary())
    return arr.slice(3, len(keys) - 5)


@pytest.mark.parametrize("large", [False, True], ids=["binary", "large_binary"])
def test_partitions_of_an_arrow_column(impl, large):
    """murmur2_partitions over an Arrow key column (sliced, nulls, every tail
    length) gives each key's partition_for_key; null rows are the caller's."""
    np = pytest.importorskip("numpy")
    keys = [None if i % 9 == 4 else bytes(range(i % 37)) * (1 + i % 3) for i in range(300)]
    keys[:5] = [b"21", b"foobar", b"abc", b"", None]
    arr = _column(keys, large)
    width = 8 if large else 4
    bufs = arr.buffers()
    offsets = memoryview(bufs[1])[arr.offset * width:(arr.offset + len(arr) + 1) * width]
    for partitions in (1, 7, 1000):
        out = np.full(len(arr), -1, dtype=np.int64)
        impl.crc.murmur2_partitions(offsets, bufs[2], out, partitions, large)
        for key, got in zip(arr.to_pylist(), out.tolist()):
            if key is not None:
                assert got == impl.crc.partition_for_key(key, partitions)


def test_partitions_refuse_offsets_outside_the_data(impl):
    np = pytest.importorskip("numpy")
    out = np.zeros(2, dtype=np.int64)
    good = np.array([0, 2, 5], dtype=np.int32)
    impl.crc.murmur2_partitions(good, b"abcde", out, 3)
    for offsets, data in ((np.array([0, 2, 6], np.int32), b"abcde"),      # past the end
                          (np.array([0, 3, 2], np.int32), b"abcde"),      # backwards
                          (np.array([-1, 2, 5], np.int32), b"abcde"),     # negative
                          (np.array([0, 2], np.int32), b"abcde")):        # one offset short
        with pytest.raises(ValueError, match="offsets"):
            impl.crc.murmur2_partitions(offsets, data, out, 3)
    with pytest.raises(ValueError):
        impl.crc.murmur2_partitions(good, b"abcde", out, 0)
