"""CRC-32C / CRC-32 golden vectors, implementation parity and dispatch."""
import os
import platform
import subprocess
import sys
import zlib

import pytest
from hypothesis import given, settings, strategies as st

import kafkacodec

# RFC 3720 (iSCSI) appendix B.4 test vectors.
RFC3720 = [
    (bytes(32), 0x8A9136AA),
    (b"\xff" * 32, 0x62A8AB43),
    (bytes(range(32)), 0x46DD794E),
    (bytes(range(31, -1, -1)), 0x113FDB5C),
    (bytes.fromhex(
        "01c00000000000000000000000000000"
        "14000000000004000000001400000018"
        "28000000000000000200000000000000"
    ), 0xD9963A56),
]


def test_check_value(impl):
    assert impl.crc.crc32c(b"123456789") == 0xE3069283
    assert impl.crc.crc32(b"123456789") == 0xCBF43926


@pytest.mark.parametrize("data,expected", RFC3720)
def test_rfc3720_vectors(impl, data, expected):
    assert impl.crc.crc32c(data) == expected


def test_empty_and_incremental(impl):
    assert impl.crc.crc32c(b"") == 0
    data = bytes(range(256)) * 50
    running = 0
    for i in range(0, len(data), 333):
        running = impl.crc.crc32c(data[i:i + 333], running)
    assert running == impl.crc.crc32c(data)


def test_crc32_matches_zlib(impl):
    data = os.urandom(10_000)
    assert impl.crc.crc32(data) == zlib.crc32(data)
    assert impl.crc.crc32(data[5000:], impl.crc.crc32(data[:5000])) == zlib.crc32(data)


def test_accepts_any_buffer(impl):
    data = b"123456789"
    for obj in (data, bytearray(data), memoryview(data), memoryview(b"xx" + data)[2:]):
        assert impl.crc.crc32c(obj) == 0xE3069283
    with pytest.raises(TypeError):
        impl.crc.crc32c("123456789")


@pytest.fixture(scope="module")
def native():
    return pytest.importorskip("kafkacodec._crc")


def test_every_length_and_alignment_agree(native):
    # Covers the unaligned head, the 3-stream long and short blocks and the tail.
    blob = os.urandom(3 * 8192 * 2 + 3 * 256 * 3 + 64)
    lengths = list(range(0, 80)) + [767, 768, 769, 3 * 8192 - 1, 3 * 8192, 3 * 8192 + 9, len(blob) - 7]
    for offset in range(0, 8):
        for n in lengths:
            chunk = blob[offset:offset + n]
            expected = native.crc32c_software(chunk)
            assert native.crc32c(chunk) == expected
            if native.hardware_crc32c_available():
                assert native.crc32c_hardware(chunk) == expected


def test_software_override_hook(native):
    data = os.urandom(100_000)
    expected = native.crc32c(data)
    native.set_crc32c_implementation("software")
    try:
        assert native.crc32c_implementation() == "software"
        assert native.crc32c(data) == expected
    finally:
        native.set_crc32c_implementation("auto")
    assert native.crc32c_implementation() == (native.hardware_crc32c_available() or "software")


def test_software_forced_by_environment(native):
    out = subprocess.run(
        [sys.executable, "-c", "import kafkacodec; print(kafkacodec.crc32c_implementation(), hex(kafkacodec.crc32c(b'123456789')))"],
        env={**os.environ, "KAFKACODEC_CRC32C": "software"}, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["software", "0xe3069283"]


def _cpu_has_sse42():
    try:
        with open("/proc/cpuinfo") as f:
            return " sse4_2" in f.read()
    except OSError:
        return False


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64") or not _cpu_has_sse42(),
                    reason="hardware CRC path is asserted on x86_64 with SSE4.2")
def test_hardware_crc_in_use_on_x86_64():
    if os.environ.get("KAFKACODEC_PURE") or os.environ.get("KAFKACODEC_CRC32C"):
        pytest.skip("implementation overridden by environment")
    assert kafkacodec.accelerated
    assert kafkacodec.crc32c_implementation() == "sse4.2"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=4096), st.integers(0, 0xFFFFFFFF))
def test_compiled_equals_pure(data, seed):
    from kafkacodec._pure import crc as pure
    native = pytest.importorskip("kafkacodec._crc")
    assert native.crc32c(data, seed) == pure.crc32c(data, seed)
    assert native.crc32(data, seed) == pure.crc32(data, seed)


def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


FOLD_LENGTHS = ([0, 1, 511, 512, 513, 527, 528, 575, 576, 639, 640, 641, 1000, 1023, 1024, 1025]
                + [512 + 128 * k + r for k in range(1, 4) for r in (0, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127)]
                + [16384, 65536 + 7, (1 << 20) + 13])


@pytest.mark.parametrize("narrow", [False, True])
def test_folding_agrees_with_table(native, narrow):
    # Every width of the fold loop's tail (16-byte blocks, 8-byte words, bytes),
    # every alignment, and a running value folded into the first block.
    blob = os.urandom((1 << 20) + 64)
    for offset in (0, 1, 3, 8, 15):
        for n in FOLD_LENGTHS:
            chunk = memoryview(blob)[offset:offset + n]
            for seed in (0, 0xFFFFFFFF, 0x1234ABCD):
                assert native.crc32c_folding(chunk, seed, narrow=narrow) == native.crc32c_software(chunk, seed), (
                    offset, n, seed)


@settings(max_examples=150, deadline=None)
@given(st.binary(min_size=500, max_size=5000), st.integers(0, 0xFFFFFFFF), st.booleans())
def test_folding_property(native, data, seed, narrow):
    assert native.crc32c_folding(data, seed, narrow=narrow) == native.crc32c_software(data, seed)


def test_instruction_only_hook(native):
    data = os.urandom(200_000)
    expected = native.crc32c_software(data)
    native.set_crc32c_implementation("instruction")
    try:
        assert native.crc32c(data) == expected
        assert native.crc32c_implementation() == (native.hardware_crc32c_available() or "software")
    finally:
        native.set_crc32c_implementation("auto")
    assert native.crc32c(data) == expected


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64") or "pclmulqdq" not in _cpu_flags(),
                    reason="carry-less folding is asserted on x86_64 with PCLMULQDQ")
def test_folding_in_use_on_x86_64(native):
    flags = _cpu_flags()
    wide = {"avx2", "vpclmulqdq"} <= flags
    assert native.folding_crc32c_available() == ("vpclmulqdq" if wide else "pclmul")
