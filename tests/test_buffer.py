"""Reader / Writer behaviour, identical for the compiled and pure versions."""
import struct

import pytest
from hypothesis import given, settings, strategies as st

from kafkacodec.errors import CorruptDataError, TruncatedDataError


def test_reader_fixed_width(impl):
    data = struct.pack(">bhiqHId", -5, -300, -70000, -(2**40), 65535, 2**32 - 1, 1.5)
    r = impl.buffer.Reader(data)
    assert r.read_int8() == -5
    assert r.read_int16() == -300
    assert r.read_int32() == -70000
    assert r.read_int64() == -(2**40)
    assert r.read_uint16() == 65535
    assert r.read_uint32() == 2**32 - 1
    assert r.read_float64() == 1.5
    assert r.remaining_bytes == 0
    with pytest.raises(TruncatedDataError) as info:
        r.read_int8()
    assert info.value.offset == len(data)


def test_reader_window_and_base(impl):
    data = b"\x00" * 4 + struct.pack(">i", 7) + b"\xff\xff"
    r = impl.buffer.Reader(data, 4, 8, 1000)
    assert r.read_int32() == 7
    with pytest.raises(TruncatedDataError) as info:
        r.read_int16()
    assert info.value.offset == 1008  # absolute, past the window end


def test_reader_views_are_zero_copy(impl):
    src = bytearray(b"abcdef")
    r = impl.buffer.Reader(src)
    r.read_int8()
    view = r.read_view(3)
    assert bytes(view) == b"bcd"
    assert r.read_bytes(2) == b"ef"
    # The view shares memory with the source (no copy was made).
    assert isinstance(view, memoryview)
    assert view.obj is not None


def test_reader_negative_length(impl):
    r = impl.buffer.Reader(b"abc")
    with pytest.raises(CorruptDataError):
        r.read_bytes(-1)


def test_reader_varints(impl):
    data = impl.buffer.encode_varint(-3) + impl.buffer.encode_varlong(2**40) + impl.buffer.encode_uvarint(300)
    r = impl.buffer.Reader(data)
    assert (r.read_varint(), r.read_varlong(), r.read_uvarint()) == (-3, 2**40, 300)
    with pytest.raises(TruncatedDataError):
        r.read_varint()


def test_reader_truncated_large_claim(impl):
    r = impl.buffer.Reader(b"\x00" * 10)
    with pytest.raises(TruncatedDataError):
        r.read_bytes(2**31 - 1)


def test_writer_and_patch(impl):
    w = impl.buffer.Writer()
    at = w.reserve(4)
    w.write_int8(-1)
    w.write_int16(513)
    w.write_int32(-2)
    w.write_int64(2**62)
    w.write_uint32(2**32 - 1)
    w.write_float64(-0.25)
    w.write_varint(-1)
    w.write_varlong(-(2**63))
    w.write_uvarint(128)
    w.write_object(b"xyz")
    w.patch_int32(at, len(w) - 4)
    out = w.to_bytes()
    assert out[:4] == struct.pack(">i", len(out) - 4)
    r = impl.buffer.Reader(out, 4)
    assert r.read_int8() == -1 and r.read_int16() == 513 and r.read_int32() == -2
    assert r.read_int64() == 2**62 and r.read_uint32() == 2**32 - 1 and r.read_float64() == -0.25
    assert r.read_varint() == -1 and r.read_varlong() == -(2**63) and r.read_uvarint() == 128
    assert r.read_bytes(3) == b"xyz"
    with pytest.raises(IndexError):
        w.patch_int32(len(out) - 2, 0)


def test_writer_crc_of_range(impl):
    w = impl.buffer.Writer()
    w.write_object(b"xx123456789")
    assert w.crc32c(2) == 0xE3069283
    assert w.crc32c(2, 11) == 0xE3069283


def test_writer_grows(impl):
    w = impl.buffer.Writer(16)
    for i in range(10000):
        w.write_int32(i)
    out = w.to_bytes()
    assert len(out) == 40000 and struct.unpack_from(">i", out, 39996)[0] == 9999


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["int8", "int16", "int32", "int64", "varint", "varlong", "uvarint"]),
                          st.integers(-(2**63), 2**63 - 1)), max_size=20))
def test_writer_reader_parity(ops):
    from kafkacodec._pure import buffer as pure
    native = pytest.importorskip("kafkacodec._buffer")
    bounds = {"int8": (-128, 127), "int16": (-(2**15), 2**15 - 1), "int32": (-(2**31), 2**31 - 1),
              "int64": (-(2**63), 2**63 - 1), "varint": (-(2**31), 2**31 - 1),
              "varlong": (-(2**63), 2**63 - 1), "uvarint": (0, 2**32 - 1)}
    ops = [(k, min(max(v, bounds[k][0]), bounds[k][1])) for k, v in ops]
    outs = []
    for mod in (pure, native):
        w = mod.Writer()
        for kind, v in ops:
            getattr(w, "write_" + kind)(v)
        outs.append(w.to_bytes())
    assert outs[0] == outs[1]
    for mod in (pure, native):
        r = mod.Reader(outs[0])
        assert [getattr(r, "read_" + k)() for k, _ in ops] == [v for _, v in ops]
        # Every truncation raises the codec's error, never another type.
        for cut in range(len(outs[0])):
            r = mod.Reader(outs[0][:cut])
            with pytest.raises(TruncatedDataError):
                for k, _ in ops:
                    getattr(r, "read_" + k)()
