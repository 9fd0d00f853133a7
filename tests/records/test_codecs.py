"""Compression codecs: interop with other clients' codecs, the magic-0 LZ4
framing quirk, size limits against bombs, and clean errors on bad input."""
import os
import struct
import time

import pytest

from kafkacodec.errors import DecompressionError, DecompressionLimitError, UnsupportedCompressionError
from kafkacodec.records import compression as c

PAYLOAD = b'{"user": 12345, "event": "click", "tags": ["a", "b"]}' * 700
CODECS = ["gzip", "snappy", "lz4", "zstd"]


@pytest.mark.parametrize("codec", CODECS)
def test_roundtrip_and_types(codec):
    for data in (b"", b"x", PAYLOAD, os.urandom(70_000)):
        out = c.compress(codec, data)
        assert c.decompress(codec, out) == data
        assert c.decompress(codec, memoryview(b"..." + out)[3:]) == data
        assert c.decompress(c.codec_id(codec), bytearray(out)) == data


def test_codec_ids():
    assert [c.codec_id(n) for n in c.CODEC_NAMES] == [0, 1, 2, 3, 4]
    assert c.codec_id("ZSTD") == 4
    for bad in ("brotli", 5, -1, None):
        with pytest.raises(UnsupportedCompressionError):
            c.codec_id(bad)


def test_interop_with_aiokafka_codecs():
    ac = pytest.importorskip("aiokafka.codec")
    encoders = {"gzip": ac.gzip_encode, "lz4": ac.lz4_encode, "zstd": ac.zstd_encode,
                "snappy": lambda d: ac.snappy_encode(d, xerial_compatible=True)}
    decoders = {"gzip": ac.gzip_decode, "lz4": ac.lz4_decode, "zstd": ac.zstd_decode, "snappy": ac.snappy_decode}
    for codec in CODECS:
        assert c.decompress(codec, encoders[codec](PAYLOAD)) == PAYLOAD
        assert decoders[codec](c.compress(codec, PAYLOAD)) == PAYLOAD
    # raw (non-xerial) snappy, as librdkafka can write it
    assert c.decompress("snappy", ac.snappy_encode(PAYLOAD, xerial_compatible=False)) == PAYLOAD
    assert c.decompress("snappy", c.compress("snappy", PAYLOAD, snappy_framed=False)) == PAYLOAD


def test_xerial_layout():
    out = c.compress("snappy", b"a" * 100_000)
    assert out[:8] == b"\x82SNAPPY\x00" and struct.unpack(">ii", out[8:16]) == (1, 1)
    # 32 KiB blocks, each prefixed by its compressed length
    pos, blocks = 16, 0
    while pos < len(out):
        (n,) = struct.unpack_from(">i", out, pos)
        pos += 4 + n
        blocks += 1
    assert pos == len(out) and blocks == 4


def test_lz4_magic0_header_checksum_quirk():
    kc = pytest.importorskip("kafka.codec")
    pytest.importorskip("xxhash")
    old = kc.lz4_encode_old_kafka(PAYLOAD)
    assert c.decompress("lz4", old, magic=0) == PAYLOAD
    ours = c.compress("lz4", PAYLOAD, magic=0)
    assert kc.lz4_decode_old_kafka(ours) == PAYLOAD
    assert ours != c.compress("lz4", PAYLOAD)  # only the header checksum differs
    with pytest.raises(DecompressionError):
        c.decompress("lz4", ours, magic=2)  # a modern reader rejects the broken checksum


@pytest.mark.parametrize("codec", CODECS)
def test_bomb_is_refused_quickly(codec):
    zeros = bytes(64 << 20)
    bomb = c.compress(codec, zeros)
    start = time.perf_counter()
    with pytest.raises(DecompressionLimitError):
        c.decompress(codec, bomb, max_size=1 << 20)
    assert time.perf_counter() - start < 2.0
    assert issubclass(DecompressionLimitError, DecompressionError)


def test_default_limit_is_configurable():
    data = c.compress("gzip", bytes(2 << 20))
    c.set_default_max_decompressed_size(1 << 20)
    try:
        with pytest.raises(DecompressionLimitError):
            c.decompress("gzip", data)
    finally:
        c.set_default_max_decompressed_size(c.DEFAULT_MAX_DECOMPRESSED_SIZE)
    assert len(c.decompress("gzip", data)) == 2 << 20


@pytest.mark.parametrize("codec", CODECS)
def test_every_truncation_and_garbage_is_a_codec_error(codec):
    out = c.compress(codec, PAYLOAD[:3000])
    for cut in range(len(out)):
        try:
            result = c.decompress(codec, out[:cut])
        except DecompressionError:
            continue
        # only a prefix that is itself a complete stream may decode
        assert PAYLOAD.startswith(result) or result == b""
    for blob in (b"", b"\x00" * 20, os.urandom(64), b"\x82SNAPPY\x00" + b"\xff" * 12):
        try:
            c.decompress(codec, blob)
        except DecompressionError:
            pass


def test_levels():
    fast = c.compress("gzip", PAYLOAD, level=1)
    best = c.compress("gzip", PAYLOAD, level=9)
    assert c.decompress("gzip", fast) == c.decompress("gzip", best) == PAYLOAD
    assert c.decompress("zstd", c.compress("zstd", PAYLOAD, level=19)) == PAYLOAD
    assert c.decompress("lz4", c.compress("lz4", PAYLOAD, level=9)) == PAYLOAD
