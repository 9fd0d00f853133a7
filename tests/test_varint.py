"""Varint / varlong / unsigned varint: boundary tables, strictness, parity."""
import pytest
from hypothesis import given, settings, strategies as st

from kafkacodec.errors import CorruptDataError, EncodeError, KafkaCodecError, TruncatedDataError

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

# (value, encoding) pairs with known meaning (zigzag maps 0,-1,1,-2 -> 0,1,2,3).
VARINT_TABLE = [
    (0, "00"), (-1, "01"), (1, "02"), (-2, "03"), (63, "7e"), (-64, "7f"),
    (64, "8001"), (-65, "8101"), (8191, "fe7f"), (-8192, "ff7f"), (8192, "808001"),
    (2**20, "80808001"), (INT32_MAX, "feffffff0f"), (INT32_MIN, "ffffffff0f"),
]
VARLONG_TABLE = VARINT_TABLE + [
    (2**31, "8080808010"), (-(2**31) - 1, "8180808010"),
    (2**35, "808080808002"), (INT64_MAX, "feffffffffffffffff01"), (INT64_MIN, "ffffffffffffffffff01"),
]
UVARINT_TABLE = [
    (0, "00"), (1, "01"), (127, "7f"), (128, "8001"), (300, "ac02"), (16383, "ff7f"),
    (16384, "808001"), (2**28 - 1, "ffffff7f"), (2**28, "8080808001"), (2**32 - 1, "ffffffff0f"),
]


@pytest.mark.parametrize("value,hexenc", VARINT_TABLE)
def test_varint_table(impl, value, hexenc):
    enc = bytes.fromhex(hexenc)
    assert impl.buffer.encode_varint(value) == enc
    assert impl.buffer.decode_varint(enc) == (value, len(enc))
    assert impl.buffer.decode_varint(b"\xaa" + enc + b"\x00", 1) == (value, len(enc) + 1)


@pytest.mark.parametrize("value,hexenc", VARLONG_TABLE)
def test_varlong_table(impl, value, hexenc):
    enc = bytes.fromhex(hexenc)
    assert impl.buffer.encode_varlong(value) == enc
    assert impl.buffer.decode_varlong(enc) == (value, len(enc))


@pytest.mark.parametrize("value,hexenc", UVARINT_TABLE)
def test_uvarint_table(impl, value, hexenc):
    enc = bytes.fromhex(hexenc)
    assert impl.buffer.encode_uvarint(value) == enc
    assert impl.buffer.decode_uvarint(enc) == (value, len(enc))


@pytest.mark.parametrize("bad", [
    "8080808080",            # 5 bytes, continuation on the 5th
    "ffffffff1f",            # 5th byte carries bits beyond 32
    "ffffffffff0f",          # 6 bytes
])
def test_varint_overlong_rejected(impl, bad):
    for fn in (impl.buffer.decode_varint, impl.buffer.decode_uvarint):
        with pytest.raises(CorruptDataError) as info:
            fn(bytes.fromhex(bad))
        assert not isinstance(info.value, TruncatedDataError)
        assert info.value.offset == 0


@pytest.mark.parametrize("bad", ["ffffffffffffffffff02", "ffffffffffffffffff81", "8080808080808080808001"])
def test_varlong_overlong_rejected(impl, bad):
    with pytest.raises(CorruptDataError):
        impl.buffer.decode_varlong(bytes.fromhex(bad))


def test_non_canonical_padding_accepted(impl):
    # Kafka's reader accepts zero-padded encodings; so must we.
    assert impl.buffer.decode_varint(b"\x80\x00") == (0, 2)
    assert impl.buffer.decode_uvarint(b"\x81\x80\x80\x00") == (1, 4)


def test_truncated(impl):
    for fn in (impl.buffer.decode_varint, impl.buffer.decode_varlong, impl.buffer.decode_uvarint):
        with pytest.raises(TruncatedDataError) as info:
            fn(b"\x01\x80\x80", 1)
        assert info.value.offset == 1
        with pytest.raises(TruncatedDataError):
            fn(b"")


def test_position_outside_buffer(impl):
    with pytest.raises(ValueError):
        impl.buffer.decode_varint(b"\x00", 2)
    with pytest.raises(ValueError):
        impl.buffer.decode_varint(b"\x00", -1)


@pytest.mark.parametrize("fn,value", [
    ("encode_varint", INT32_MAX + 1), ("encode_varint", INT32_MIN - 1),
    ("encode_varlong", INT64_MAX + 1), ("encode_varlong", INT64_MIN - 1),
    ("encode_uvarint", -1), ("encode_uvarint", 2**32),
])
def test_encode_out_of_range(impl, fn, value):
    with pytest.raises(EncodeError):
        getattr(impl.buffer, fn)(value)
    assert issubclass(EncodeError, KafkaCodecError)


@settings(max_examples=300, deadline=None)
@given(st.integers(INT64_MIN, INT64_MAX), st.integers(INT32_MIN, INT32_MAX), st.integers(0, 2**32 - 1))
def test_roundtrip_and_parity(v64, v32, u32):
    from kafkacodec._pure import buffer as pure
    native = pytest.importorskip("kafkacodec._buffer")
    for mod in (pure, native):
        assert mod.decode_varlong(mod.encode_varlong(v64)) == (v64, len(mod.encode_varlong(v64)))
        assert mod.decode_varint(mod.encode_varint(v32))[0] == v32
        assert mod.decode_uvarint(mod.encode_uvarint(u32))[0] == u32
    assert native.encode_varlong(v64) == pure.encode_varlong(v64)
    assert native.encode_varint(v32) == pure.encode_varint(v32)
    assert native.encode_uvarint(u32) == pure.encode_uvarint(u32)


def _outcome(fn, data, pos):
    try:
        return fn(data, pos)
    except CorruptDataError as exc:
        return (type(exc).__name__, exc.offset)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=12), st.integers(0, 3))
def test_random_bytes_same_outcome(data, pos):
    from kafkacodec._pure import buffer as pure
    native = pytest.importorskip("kafkacodec._buffer")
    pos = min(pos, len(data))
    for name in ("decode_varint", "decode_varlong", "decode_uvarint"):
        assert _outcome(getattr(native, name), data, pos) == _outcome(getattr(pure, name), data, pos)


@settings(max_examples=200, deadline=None)
@given(st.integers(INT64_MIN, INT64_MAX))
def test_every_truncation_raises(value):
    from kafkacodec._pure import buffer as pure
    native = pytest.importorskip("kafkacodec._buffer")
    enc = pure.encode_varlong(value)
    for cut in range(len(enc)):
        for mod in (pure, native):
            with pytest.raises(TruncatedDataError):
                mod.decode_varlong(enc[:cut])
