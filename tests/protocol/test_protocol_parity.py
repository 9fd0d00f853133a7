"""The compiled executor and the pure twin agree on arbitrary input."""
import pytest
from hypothesis import given, settings, strategies as st

from kafkacodec.errors import CorruptDataError
from kafkacodec.protocol import SPECS, decode_message, encode_message, _pure_codec

from protocol_helpers import plan_of, populate

_codec = pytest.importorskip("kafkacodec.protocol._codec")

TARGETS = [("MetadataResponse", 12), ("MetadataResponse", 1), ("FetchResponse", 13),
           ("ProduceRequest", 9), ("ApiVersionsResponse", 3), ("JoinGroupResponse", 7),
           ("ConsumerGroupHeartbeatResponse", 0), ("DescribeClusterResponse", 1)]


def _outcome(impl, spec, version, data):
    try:
        return ("ok", decode_message(spec, version, data, impl))
    except CorruptDataError as exc:
        return (type(exc).__name__, exc.offset, exc.path)


@settings(max_examples=300, deadline=None)
@given(target=st.sampled_from(TARGETS), data=st.binary(max_size=200))
def test_random_bytes_same_outcome(target, data):
    spec = SPECS[target[0]]
    assert _outcome(_codec, spec, target[1], data) == _outcome(_pure_codec, spec, target[1], data)


@settings(max_examples=300, deadline=None)
@given(target=st.sampled_from(TARGETS), cut=st.integers(0, 10_000), flip=st.integers(0, 255))
def test_mutated_messages_same_outcome(target, cut, flip):
    name, version = target
    spec = SPECS[name]
    raw = bytearray(encode_message(populate(plan_of(spec, version)), version, _pure_codec))
    raw[cut % len(raw)] ^= flip
    assert _outcome(_codec, spec, version, bytes(raw)) == _outcome(_pure_codec, spec, version, bytes(raw))


_RANGES = {"INT8": (-2**7, 2**7 - 1), "INT16": (-2**15, 2**15 - 1), "INT32": (-2**31, 2**31 - 1),
           "INT64": (-2**63, 2**63 - 1), "UINT16": (0, 2**16 - 1), "UINT32": (0, 2**32 - 1)}


def _draw_value(draw, op, depth):
    pc = _pure_codec
    k = op.kind
    if op.nullable and k in (pc.STRING, pc.BYTES, pc.RECORDS, pc.ARRAY, pc.STRUCT) and draw(st.booleans()):
        return None
    for name, (lo, hi) in _RANGES.items():
        if k == getattr(pc, name):
            return draw(st.integers(lo, hi))
    if k == pc.FLOAT64:
        return draw(st.floats(allow_nan=False))
    if k == pc.BOOL:
        return draw(st.booleans())
    if k == pc.UUID:
        import uuid
        return uuid.UUID(int=draw(st.integers(0, 2**128 - 1)))
    if k == pc.STRING:
        return draw(st.text(max_size=150))  # crosses the 1-byte compact length boundary
    if k in (pc.BYTES, pc.RECORDS):
        return draw(st.binary(max_size=150))
    if k == pc.ARRAY:
        return [_draw_value(draw, op.elem, depth + 1) for _ in range(draw(st.integers(0, 3 if depth < 2 else 0)))]
    if k == pc.STRUCT:
        return _draw_struct(draw, op.child, depth + 1)
    raise AssertionError(k)


def _draw_struct(draw, plan, depth):
    obj = plan.cls()
    for op in plan.ops + plan.tagged:
        setattr(obj, op.attr, _draw_value(draw, op, depth))
    return obj


@st.composite
def _random_message(draw):
    name, version = draw(st.sampled_from(TARGETS + [("ApiVersionsRequest", 3), ("FetchRequest", 17),
                                                    ("ProduceRequest", 3), ("DescribeConfigsResponse", 4)]))
    spec = SPECS[name]
    return spec, version, _draw_struct(draw, plan_of(spec, version), 0)


@settings(max_examples=200, deadline=None)
@given(_random_message())
def test_random_values_roundtrip_both_executors(case):
    spec, version, msg = case
    raw = encode_message(msg, version, _pure_codec)
    assert encode_message(msg, version, _codec) == raw
    for impl in (_codec, _pure_codec):
        back = decode_message(spec, version, raw, impl)
        assert back == msg
        assert encode_message(back, version, impl) == raw
