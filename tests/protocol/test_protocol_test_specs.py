"""Kafka's own generator test specs (trunk-test-specs) through our generator and both executors.

They exercise what the real specs leave out: uint32 fields, a uuid default, float64
and int64 hex defaults in tagged fields, tagged structs, nullable structs whose
nullability starts at a later version, and nullable records.
"""
import base64
import pathlib
import struct
import sys
import uuid

import pytest

from kafkacodec.errors import CorruptDataError, EncodeError
from kafkacodec.protocol import decode_message, encode_message
from kafkacodec.protocol._model import MessageSpec

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def specs(shared_dir, tmp_path_factory):
    src = shared_dir / "kafka-protocol" / "trunk-test-specs"
    root = tmp_path_factory.mktemp("specs")
    (root / "trunk").mkdir()
    (root / "3.9").mkdir()
    for f in src.glob("*.json"):
        (root / "trunk" / f.name).write_bytes(f.read_bytes())
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import gen_protocol
    finally:
        sys.path.pop(0)
    ns = {}
    exec(gen_protocol.render_schema(gen_protocol.build(root)), ns)  # through the rendered text, like _schema.py
    return {name: MessageSpec(name, m.api_key, m.kind, m.variants) for name, m in ns["MESSAGES"].items()}


def _roundtrip(spec, msg, version, codec):
    raw = encode_message(msg, version, codec)
    back = decode_message(spec, version, raw, codec)
    assert back == msg
    assert encode_message(back, version, codec) == raw
    return raw


def test_all_four_generated(specs):
    assert sorted(specs) == ["NullableStructMessage", "SimpleArraysMessage", "SimpleExampleMessage",
                             "SimpleRecordsMessage"]


def test_defaults_from_spec(specs):
    msg = specs["SimpleExampleMessage"].cls()
    assert msg.my_int16 == 123 and msg.my_float64 == 12.34
    assert msg.tagged_long == 0xcafcacafcacafca
    assert msg.tagged_uuid == uuid.UUID(bytes=base64.urlsafe_b64decode("H3KKO4NTRPaCWtEmm3vW7A=="))
    assert msg.my_nullable_string is None and msg.my_string == ""
    assert (msg.my_uint16, msg.my_uint32) == (33000, 1234567)
    assert (msg.my_common_struct.foo, msg.my_common_struct.bar) == (123, 123)
    assert msg.my_common_struct is not msg.my_other_common_struct


def test_simple_example_v1_bytes(specs, codec):
    spec = specs["SimpleExampleMessage"]
    common = struct.pack(">ii", 123, 123) + b"\x00"
    defaults = (bytes(16)                    # process_id (uuid)
                + b"\x01" + b"\x01"          # two empty compact byte fields
                + common + common            # the two common structs, each with its tag section
                + struct.pack(">HI", 33000, 1234567)  # uint16, uint32
                + b"\x00")                   # no tagged field holds a non-default value
    assert _roundtrip(spec, spec.cls(), 1, codec) == defaults
    msg = spec.cls(my_float64=1.5, my_tagged_int_array=[1, 2], my_uint32=0xFFFFFFFF,
                   process_id=uuid.UUID(int=1))
    raw = _roundtrip(spec, msg, 1, codec)
    tags = (b"\x02"                                             # two tagged fields, ascending
            + b"\x00\x09" + b"\x03" + struct.pack(">ii", 1, 2)  # tag 0: compact []int32
            + b"\x03\x08" + struct.pack(">d", 1.5))             # tag 3: float64
    assert raw == (uuid.UUID(int=1).bytes + defaults[16:-5] + struct.pack(">I", 0xFFFFFFFF) + tags)
    with pytest.raises(EncodeError):
        encode_message(spec.cls(my_uint32=2**32), 1, codec)


def test_simple_example_versions(specs, codec):
    spec = specs["SimpleExampleMessage"]
    S = spec.cls
    full = S(process_id=uuid.UUID(int=7), my_tagged_int_array=[3], my_nullable_string="n", my_int16=1,
             my_float64=-2.0, my_string="s", my_bytes=None, tagged_uuid=uuid.UUID(int=9), tagged_long=-1,
             my_struct=S.MyStruct(struct_id=4, array_in_struct=[S.StructArray(array_field_id=5)]),
             my_tagged_struct=S.TaggedStruct(struct_id="t"), tagged_long_flexible_version_subset=8,
             zero_copy_byte_buffer=b"zc", nullable_zero_copy_byte_buffer=None)
    for version in (0, 1, 2):
        # fields a version lacks are reset to their defaults, unless ignorable
        msg = S.from_dict(full.to_dict())
        if version < 2:
            msg.my_struct = S.MyStruct()
            msg.my_tagged_struct = S.TaggedStruct()
            msg.tagged_long_flexible_version_subset = 0  # ignorable: dropped silently, tested below
        if version != 1:
            msg.zero_copy_byte_buffer = msg.nullable_zero_copy_byte_buffer = b""
        if version == 0:
            msg = S(my_common_struct=S.TestCommonStruct(foo=1, bar=2))
        _roundtrip(spec, msg, version, codec)
    # a non-default value in a version without the field is refused...
    with pytest.raises(EncodeError, match="process_id"):
        encode_message(S(process_id=uuid.UUID(int=7)), 0, codec)
    with pytest.raises(EncodeError, match="my_int16"):
        encode_message(S(my_int16=1), 0, codec)
    # ...unless the field is ignorable
    assert encode_message(S(tagged_long_flexible_version_subset=8), 1, codec) == encode_message(S(), 1, codec)


def test_nullable_structs(specs, codec):
    spec = specs["NullableStructMessage"]
    M = spec.cls
    assert M().nullable_struct is None and M().nullable_struct3 is None
    assert M().nullable_struct2 == M.MyStruct2() and M().nullable_struct4 == M.MyStruct4()
    # v0: nullable_struct may be null, nullable_struct2 not yet
    raw = _roundtrip(spec, M(), 0, codec)
    assert raw == b"\xff" + struct.pack(">h", 0) + struct.pack(">i", 0)  # no null marker before v1
    with pytest.raises(EncodeError, match="nullable_struct2"):
        encode_message(M(nullable_struct2=None), 0, codec)
    with pytest.raises(CorruptDataError) as info:
        decode_message(spec, 0, b"\xff\xff\xff", codec)
    assert info.value.path == "nullable_struct2.my_string"
    # v1: both nullable; tag 0 (default null) is not written, tag 1 (default: a struct) is when null
    raw = _roundtrip(spec, M(nullable_struct2=None, nullable_struct4=None), 1, codec)
    assert raw == b"\xff" + b"\xff" + b"\x01" + b"\x01\x01\xff"
    msg = M(nullable_struct=M.MyStruct(my_string="a", my_int=1),
            nullable_struct3=M.MyStruct3(my_string="b", my_int=2))
    raw = _roundtrip(spec, msg, 2, codec)
    assert raw.startswith(b"\x01" + b"\x02a" + struct.pack(">i", 1) + b"\x00")
    assert raw.endswith(b"\x01" + b"\x00\x08" + b"\x01" + b"\x02b" + struct.pack(">i", 2) + b"\x00")


def test_arrays_and_records(specs, codec):
    A = specs["SimpleArraysMessage"]
    msg = A.cls(goats=[A.cls.StructArray(color=1, name="x"), A.cls.StructArray(color=-2, name="")], sheep=[7])
    raw = _roundtrip(A, msg, 2, codec)
    assert raw == b"\x03" + b"\x01\x02x\x00" + b"\xfe\x01\x00" + b"\x02" + struct.pack(">i", 7) + b"\x00"
    assert _roundtrip(A, A.cls(sheep=[1, 2]), 0, codec) == struct.pack(">iii", 2, 1, 2)
    R = specs["SimpleRecordsMessage"]
    assert _roundtrip(R, R.cls(topic="t", record_set=None), 0, codec) == b"\x00\x01t" + struct.pack(">i", -1)
    raw = _roundtrip(R, R.cls(topic="t", record_set=b"abc"), 1, codec)
    assert raw == b"\x02t" + b"\x04abc" + b"\x00"
    assert isinstance(decode_message(R, 1, raw, codec).record_set, memoryview)
