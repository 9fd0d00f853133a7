"""Pure-Python Reader, Writer and varint functions (twins of `_buffer.pyx`)."""
import functools
import struct

from kafkacodec.errors import CorruptDataError, EncodeError, TruncatedDataError
from kafkacodec._pure.crc import crc32c as _crc32c

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")
_U16 = struct.Struct(">H")
_U32 = struct.Struct(">I")
_F64 = struct.Struct(">d")


def _decode_unsigned(buf, pos, end, bits):
    """Shared varint loop: at most ceil(bits/7) bytes, no bits beyond `bits`."""
    start = pos
    value = 0
    shift = 0
    last_shift = (bits - 1) // 7 * 7
    while True:
        if pos >= end:
            raise TruncatedDataError("input truncated inside a varint", start)
        b = buf[pos]
        pos += 1
        if shift == last_shift:
            if b >> (bits - last_shift):
                raise CorruptDataError("varint is too long for its type", start)
            value |= b << shift
            return value, pos
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7


def _unzigzag(raw):
    return (raw >> 1) ^ -(raw & 1)


def uvarint_bytes(raw):
    """An unsigned varint's bytes; no range check (callers bound raw)."""
    out = bytearray()
    while raw >= 0x80:
        out.append((raw & 0x7F) | 0x80)
        raw >>= 7
    out.append(raw)
    return bytes(out)


def encode_varint(value):
    if not -0x80000000 <= value <= 0x7FFFFFFF:
        raise EncodeError(f"varint out of int32 range: {value}")
    return uvarint_bytes(((value << 1) ^ (value >> 31)) & 0xFFFFFFFF)


def encode_varlong(value):
    if not -0x8000000000000000 <= value <= 0x7FFFFFFFFFFFFFFF:
        raise EncodeError(f"varlong out of int64 range: {value}")
    return uvarint_bytes(((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF)


def encode_uvarint(value):
    if not 0 <= value <= 0xFFFFFFFF:
        raise EncodeError(f"unsigned varint out of uint32 range: {value}")
    return uvarint_bytes(value)


def _as_bytes_view(data, pos):
    mv = memoryview(data).cast("B")
    if pos < 0 or pos > len(mv):
        raise ValueError(f"position {pos} outside a buffer of {len(mv)} bytes")
    return mv


def decode_varint(data, pos=0):
    mv = _as_bytes_view(data, pos)
    raw, pos = _decode_unsigned(mv, pos, len(mv), 32)
    return _unzigzag(raw), pos


def decode_varlong(data, pos=0):
    mv = _as_bytes_view(data, pos)
    raw, pos = _decode_unsigned(mv, pos, len(mv), 64)
    return _unzigzag(raw), pos


def decode_uvarint(data, pos=0):
    mv = _as_bytes_view(data, pos)
    return _decode_unsigned(mv, pos, len(mv), 32)


class Reader:
    """Sequential big-endian reader; the pure twin of `_buffer.Reader`."""

    __slots__ = ("source", "_mv", "pos", "end", "base")

    def __init__(self, data=None, start=0, stop=None, base=0):
        self.source = data
        self._mv = memoryview(b"" if data is None else data).cast("B")
        self.end = len(self._mv) if stop is None else min(stop, len(self._mv))
        if start < 0 or start > self.end:
            raise ValueError("start outside the buffer")
        self.pos = start
        self.base = base

    @property
    def position(self):
        return self.pos

    @position.setter
    def position(self, value):
        if value < 0 or value > self.end:
            raise ValueError("position outside the buffer")
        self.pos = value

    @property
    def remaining_bytes(self):
        return self.end - self.pos

    @property
    def absolute_position(self):
        return self.base + self.pos

    def need(self, n):
        if n < 0:
            raise CorruptDataError(f"negative length {n}", self.base + self.pos)
        if self.end - self.pos < n:
            raise TruncatedDataError(
                f"input truncated: needed {n} bytes, {self.end - self.pos} available",
                self.base + self.pos)

    def read_int8(self):
        self.need(1)
        b = self._mv[self.pos]
        self.pos += 1
        return b - 256 if b > 127 else b

    def _fixed(self, st):
        self.need(st.size)
        value = st.unpack_from(self._mv, self.pos)[0]
        self.pos += st.size
        return value

    read_int16 = functools.partialmethod(_fixed, _I16)
    read_int32 = functools.partialmethod(_fixed, _I32)
    read_int64 = functools.partialmethod(_fixed, _I64)
    read_uint16 = functools.partialmethod(_fixed, _U16)
    read_uint32 = functools.partialmethod(_fixed, _U32)
    read_float64 = functools.partialmethod(_fixed, _F64)

    def _varint(self, bits):
        raw, pos = _decode_unsigned(self._mv, self.pos, self.end, bits)
        self.pos = pos
        return raw

    def read_uvarint(self):
        try:
            return self._varint(32)
        except CorruptDataError as exc:
            raise exc.shift_offset(self.base)

    def read_varint(self):
        try:
            return _unzigzag(self._varint(32))
        except CorruptDataError as exc:
            raise exc.shift_offset(self.base)

    def read_varlong(self):
        try:
            return _unzigzag(self._varint(64))
        except CorruptDataError as exc:
            raise exc.shift_offset(self.base)

    def read_bytes(self, n):
        self.need(n)
        self.pos += n
        return bytes(self._mv[self.pos - n:self.pos])

    def read_view(self, n):
        self.need(n)
        self.pos += n
        return self._mv[self.pos - n:self.pos]


class Writer:
    """Growable output buffer with back-patching; the pure twin of `_buffer.Writer`."""

    __slots__ = ("_buf",)

    def __init__(self, capacity=256):
        self._buf = bytearray()

    def __len__(self):
        return len(self._buf)

    def _append(self, encode, v):
        # encode: a struct's pack or a varint encoder
        self._buf += encode(v)
        return 0

    write_int8 = functools.partialmethod(_append, struct.Struct(">b").pack)
    write_int16 = functools.partialmethod(_append, _I16.pack)
    write_int32 = functools.partialmethod(_append, _I32.pack)
    write_int64 = functools.partialmethod(_append, _I64.pack)
    write_uint32 = functools.partialmethod(_append, _U32.pack)
    write_float64 = functools.partialmethod(_append, _F64.pack)
    write_uvarint = functools.partialmethod(_append, encode_uvarint)
    write_varint = functools.partialmethod(_append, encode_varint)
    write_varlong = functools.partialmethod(_append, encode_varlong)

    def write_object(self, data):
        self._buf += data
        return 0

    def reserve(self, n):
        at = len(self._buf)
        self._buf += bytes(n)
        return at

    def _check_patch(self, at):
        if at < 0 or at + 4 > len(self._buf):
            raise IndexError("patch outside the written data")

    def patch_int32(self, at, v):
        self._check_patch(at)
        _I32.pack_into(self._buf, at, v)
        return 0

    def patch_uint32(self, at, v):
        self._check_patch(at)
        _U32.pack_into(self._buf, at, v)
        return 0

    def crc32c(self, start, stop=None):
        stop = len(self._buf) if stop is None else stop
        if start < 0 or stop > len(self._buf) or start > stop:
            raise IndexError("checksum range outside the written data")
        return _crc32c(memoryview(self._buf)[start:stop])

    def to_bytes(self):
        return bytes(self._buf)

    def clear(self):
        self._buf.clear()
