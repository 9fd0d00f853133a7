"""atheris target: varints and the Reader on arbitrary bytes (compiled vs pure)."""
import sys

import atheris

with atheris.instrument_imports():
    from kafkacodec import _buffer
    from kafkacodec._pure import buffer as pure
    from kafkacodec.errors import KafkaCodecError


def outcome(fn, data, pos):
    try:
        return fn(data, pos)
    except KafkaCodecError as exc:
        return (type(exc).__name__, exc.offset)


def one_input(data: bytes):
    pos = data[0] % 4 if data else 0
    pos = min(pos, len(data))
    for name in ("decode_varint", "decode_varlong", "decode_uvarint"):
        a = outcome(getattr(_buffer, name), data, pos)
        b = outcome(getattr(pure, name), data, pos)
        if a != b:
            raise AssertionError(f"{name}: compiled {a} != pure {b} for {data!r}")
    r = _buffer.Reader(data)
    try:
        while True:
            kind = r.read_int8() & 7
            if kind == 0:
                r.read_varint()
            elif kind == 1:
                r.read_varlong()
            elif kind == 2:
                r.read_bytes(r.read_int16())
            elif kind == 3:
                r.read_view(r.read_uvarint())
            else:
                r.read_int64()
    except KafkaCodecError:
        pass


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
