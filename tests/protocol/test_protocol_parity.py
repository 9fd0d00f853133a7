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
