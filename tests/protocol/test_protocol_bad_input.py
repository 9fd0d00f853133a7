"""Corrupt, truncated and lying input raises the codec's errors with a place."""
import pickle
import struct
import tracemalloc

import pytest

from kafkacodec.errors import (CorruptDataError, EncodeError, FrameTooLargeError,
                               TruncatedDataError, UnsupportedVersionError)
from kafkacodec.protocol import (FrameSplitter, SPECS, decode_message, decode_request,
                                 decode_response, encode_message, encode_request,
                                 encode_response)
from kafkacodec.protocol import messages as m

from protocol_helpers import plan_of, populate

SAMPLES = [("MetadataResponse", 12), ("MetadataResponse", 0), ("FetchResponse", 16),
           ("ProduceRequest", 9), ("ApiVersionsResponse", 3), ("JoinGroupRequest", 5),
           ("OffsetCommitRequest", 8), ("ConsumerGroupHeartbeatResponse", 0)]


@pytest.mark.parametrize("name,version", SAMPLES)
def test_every_truncated_prefix(codec, name, version):
    spec = SPECS[name]
    raw = encode_message(populate(plan_of(spec, version)), version, codec)
    for cut in range(len(raw)):
        with pytest.raises(CorruptDataError) as info:
            decode_message(spec, version, raw[:cut], codec)
        err = info.value
        assert err.offset is not None and 0 <= err.offset <= cut
        if cut > 0 and isinstance(err, TruncatedDataError):
            assert err.path, (cut, str(err))


def test_truncation_path_names_the_field(codec):
    spec = SPECS["FetchResponse"]
    msg = populate(plan_of(spec, 12))
    raw = encode_message(msg, 12, codec)
    # cut inside the records of the last partition of the last topic
    cut = raw.rfind(bytes(range(20))) + 5
    with pytest.raises(TruncatedDataError) as info:
        decode_message(spec, 12, raw[:cut], codec)
    assert info.value.path == "responses[1].partitions[1].records"
    assert "responses[1].partitions[1].records" in str(info.value)


def _metadata_v0_with_count(count, total=50):
    # MetadataResponse v0: brokers array count then nothing else
    body = struct.pack(">i", count)
    return body + bytes(total - len(body))


def test_lying_array_count_does_not_allocate(codec):
    raw = _metadata_v0_with_count(2**31 - 1)
    tracemalloc.start()
    try:
        with pytest.raises(CorruptDataError) as info:
            decode_message(SPECS["MetadataResponse"], 0, raw, codec)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20
    assert "cannot fit" in str(info.value)
    assert info.value.path == "brokers"


def test_lying_compact_array_count(codec):
    # MetadataRequest v12: compact array count of ~2^31 topics
    raw = bytes([0x80, 0x80, 0x80, 0x80, 0x08]) + bytes(45)
    with pytest.raises(CorruptDataError) as info:
        decode_message(SPECS["MetadataRequest"], 12, raw, codec)
    assert info.value.path == "topics"


def test_lying_string_length(codec):
    # FindCoordinatorRequest v0: key string claims 30000 bytes
    raw = struct.pack(">h", 30000) + b"abc"
    with pytest.raises(TruncatedDataError) as info:
        decode_message(SPECS["FindCoordinatorRequest"], 0, raw, codec)
    assert info.value.path == "key"
    assert info.value.offset == 2


def test_invalid_utf8(codec):
    raw = struct.pack(">h", 3) + b"a\xff\xfe"
    with pytest.raises(CorruptDataError) as info:
        decode_message(SPECS["FindCoordinatorRequest"], 0, raw, codec)
    assert "UTF-8" in str(info.value)
    assert info.value.path == "key"
    assert info.value.offset == 3


def test_null_in_non_nullable_string(codec):
    raw = struct.pack(">h", -1)
    with pytest.raises(CorruptDataError, match="non-nullable"):
        decode_message(SPECS["FindCoordinatorRequest"], 0, raw, codec)


def test_negative_length(codec):
    raw = struct.pack(">h", -5)
    with pytest.raises(CorruptDataError, match="negative"):
        decode_message(SPECS["FindCoordinatorRequest"], 0, raw, codec)


def test_bad_bool_and_trailing_bytes(codec):
    # MetadataRequest v4: topics null, allow_auto_topic_creation = 2
    with pytest.raises(CorruptDataError, match="boolean"):
        decode_message(SPECS["MetadataRequest"], 4, struct.pack(">ib", -1, 2), codec)
    with pytest.raises(CorruptDataError, match="trailing"):
        decode_message(SPECS["MetadataRequest"], 4, struct.pack(">ibb", -1, 1, 0), codec)


def test_tagged_fields_out_of_order(codec):
    # ApiVersionsRequest v3: two strings then tagged fields 5 and 2
    raw = b"\x01\x01" + b"\x02" + b"\x05\x00" + b"\x02\x00"
    with pytest.raises(CorruptDataError, match="out of order"):
        decode_message(SPECS["ApiVersionsRequest"], 3, raw, codec)


def test_unknown_api_and_version():
    with pytest.raises(UnsupportedVersionError):
        encode_request(999, 0, m.MetadataRequest(), correlation_id=1)
    with pytest.raises(UnsupportedVersionError):
        encode_request("NoSuchApi", 0, m.MetadataRequest(), correlation_id=1)
    with pytest.raises(UnsupportedVersionError):
        encode_request("Metadata", 99, m.MetadataRequest(), correlation_id=1)
    frame = struct.pack(">ihhi", 8, 500, 0, 1)
    with pytest.raises(UnsupportedVersionError):
        decode_request(frame)
    frame = struct.pack(">ihhi", 8, 3, 77, 1)
    with pytest.raises(UnsupportedVersionError):
        decode_request(frame)
    with pytest.raises(UnsupportedVersionError):
        decode_response("Fetch", 77, struct.pack(">ii", 4, 1))


def test_frame_size_mismatch():
    frame = encode_request("Metadata", 0, m.MetadataRequest(topics=[]), correlation_id=3)
    with pytest.raises(TruncatedDataError):
        decode_request(frame[:-1])
    with pytest.raises(CorruptDataError):
        decode_request(frame + b"\0")


def test_non_ignorable_field_in_old_version(codec):
    # allow_auto_topic_creation exists from v4; False is not its default
    msg = m.MetadataRequest(topics=[], allow_auto_topic_creation=False)
    with pytest.raises(EncodeError, match="allow_auto_topic_creation"):
        encode_message(msg, 3, codec)
    assert encode_message(m.MetadataRequest(topics=[]), 3, codec) == b"\0\0\0\0"
    # ignorable fields are dropped silently (ApiVersionsRequest client name in v2)
    assert encode_message(m.ApiVersionsRequest(client_software_name="x"), 2, codec) == b""


@pytest.mark.parametrize("msg, version, path, reason", [
    (m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name=None)]), 0,
     "topics[0].name", "None in a non-nullable field"),
    (m.FindCoordinatorRequest(key=5), 0, "key", "expected str, got int"),
    (m.HeartbeatRequest(generation_id=2**40), 0, "generation_id", "cannot encode"),
    (m.MetadataRequest(topics=None), 0, "topics", "None in a non-nullable field"),
    (m.MetadataRequest(topics=[], allow_auto_topic_creation=False), 3, "allow_auto_topic_creation",
     "field is not in this version"),
    # a tagged field (FetchRequest v12+ cluster_id, tag 0)
    (m.FetchRequest(cluster_id=7), 12, "cluster_id", "expected str, got int"),
])
def test_encode_errors_have_paths(codec, msg, version, path, reason):
    with pytest.raises(EncodeError) as info:
        encode_message(msg, version, codec)
    err = info.value
    assert err.path == path
    assert err.reason.startswith(reason), err.reason
    # the path is an attribute; the message names it once
    assert str(err) == f"{err.reason} in `{path}`"
    again = pickle.loads(pickle.dumps(err))
    assert (again.reason, again.path, str(again)) == (err.reason, err.path, str(err))


def test_frame_splitter():
    f1 = encode_request("Metadata", 0, m.MetadataRequest(topics=[]), correlation_id=1)
    f2 = encode_response("Heartbeat", 0, 2, m.HeartbeatResponse())
    stream = f1 + f2
    sp = FrameSplitter(max_frame_size=1024)
    out = []
    for b in stream:
        out += sp.feed(bytes([b]))
    assert out == [f1, f2] and sp.pending == 0
    sp = FrameSplitter(max_frame_size=16)
    with pytest.raises(FrameTooLargeError):
        sp.feed(struct.pack(">i", 17))
    with pytest.raises(CorruptDataError):
        FrameSplitter().feed(struct.pack(">i", -1))


def _raises_small_and_fast(codec, name, version, raw, exc=CorruptDataError):
    """Decoding raw raises exc without allocating from the claimed size."""
    import time
    spec = SPECS[name]
    spec.plan(version, codec)  # plan compilation is not part of what is measured
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(exc) as info:
            decode_message(spec, version, raw, codec)
        elapsed = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 << 10, peak
    assert elapsed < 0.05, elapsed
    return info.value


MAX32 = struct.pack(">i", 2**31 - 1)
UVARINT_2_31 = bytes([0x80, 0x80, 0x80, 0x80, 0x08])  # 2^31 as an unsigned varint


@pytest.mark.parametrize("name,version,prefix,path", [
    # classic int32 counts and lengths, 10 bytes left after them
    ("MetadataResponse", 0, MAX32, "brokers"),                                   # []struct
    ("MetadataRequest", 0, MAX32, "topics"),                                     # []struct of one string
    ("OffsetFetchRequest", 1, b"\x00\x01g" + struct.pack(">i", 1) + b"\x00\x01t" + MAX32,
     "topics[0].partition_indexes"),                                            # []int32, nested
    ("JoinGroupRequest", 0, b"\x00\x01g" + struct.pack(">i", 1) + b"\x00\x01m" + b"\x00\x01c" + MAX32,
     "protocols"),
    ("SaslAuthenticateRequest", 0, MAX32, "auth_bytes"),                          # bytes
    ("ProduceRequest", 3, b"\xff\xff" + struct.pack(">hi", 1, 1000) + MAX32, "topic_data"),
    ("OffsetForLeaderEpochRequest", 2, MAX32, "topics"),
    # compact (flexible) lengths
    ("MetadataRequest", 12, UVARINT_2_31, "topics"),
    ("SaslAuthenticateRequest", 2, UVARINT_2_31, "auth_bytes"),
    ("FindCoordinatorRequest", 3, UVARINT_2_31, "key"),                           # compact string
    ("ApiVersionsRequest", 3, b"\x01\x01" + UVARINT_2_31, "_tagged_fields"),      # tagged-field count
    ("ApiVersionsRequest", 3, b"\x01\x01\x01\x07" + UVARINT_2_31, "_tagged_fields"),  # unknown tag size
])
def test_lying_counts_with_ten_bytes_left(codec, name, version, prefix, path):
    err = _raises_small_and_fast(codec, name, version, prefix + bytes(10))
    assert err.path == path, str(err)
    assert err.offset is not None and err.offset <= len(prefix) + 10


def test_lying_string_length_classic(codec):
    # int16 string length 32767 with 10 bytes left
    err = _raises_small_and_fast(codec, "FindCoordinatorRequest", 0, struct.pack(">h", 32767) + bytes(10),
                                 TruncatedDataError)
    assert err.path == "key"


def test_lying_records_length(codec):
    # FetchResponse v4: throttle, one topic "t", one partition whose records claim 2^31-1 bytes
    P = m.FetchResponse
    body = P(responses=[P.FetchableTopicResponse(topic="t", partitions=[P.PartitionData(records=b"")])])
    raw = bytearray(encode_message(body, 4, codec))
    assert raw.endswith(b"\x00\x00\x00\x00")  # records length, last field
    raw[-4:] = MAX32
    err = _raises_small_and_fast(codec, "FetchResponse", 4, bytes(raw) + bytes(10), TruncatedDataError)
    assert err.path == "responses[0].partitions[0].records"


def test_nested_invalid_utf8_compact(codec):
    R = m.MetadataResponse
    body = R(topics=[R.MetadataResponseTopic(name="ok"), R.MetadataResponseTopic(name="xé")])
    raw = bytearray(encode_message(body, 12, codec))
    at = raw.index("é".encode())
    raw[at] = 0xFF
    with pytest.raises(CorruptDataError) as info:
        decode_message(SPECS["MetadataResponse"], 12, bytes(raw), codec)
    assert info.value.path == "topics[1].name" and info.value.offset == at
    assert "UTF-8" in str(info.value) and "topics[1].name" in str(info.value)


def test_unknown_api_and_version_both_executors(codec):
    with pytest.raises(UnsupportedVersionError):
        decode_request(struct.pack(">ihhi", 8, 93, 0, 1), impl=codec)   # first key past the union
    with pytest.raises(UnsupportedVersionError):
        decode_request(struct.pack(">ihhi", 8, -1, 0, 1), impl=codec)
    with pytest.raises(UnsupportedVersionError):
        decode_request(struct.pack(">ihhi", 8, 0, 14, 1), impl=codec)   # Produce v14 is not in any set
    with pytest.raises(UnsupportedVersionError):
        decode_response(4, 8, struct.pack(">ii", 4, 1), impl=codec)     # LeaderAndIsr stops at v7
    with pytest.raises(UnsupportedVersionError):
        encode_response("Metadata", 14, 1, m.MetadataResponse(), impl=codec)
    with pytest.raises(UnsupportedVersionError):
        encode_message(m.ShareGroupHeartbeatRequest(), 0, codec)        # 3.9's unstable v0 is left out


def test_encode_error_value_from_a_lazy_sequence(codec):
    # range() makes each element on the fly: the error message must not rely on it staying alive
    T = m.OffsetFetchRequest.OffsetFetchRequestTopic
    msg = m.OffsetFetchRequest(topics=[T(name="t", partition_indexes=range(2**40, 2**40 + 3))])
    with pytest.raises(EncodeError) as info:
        encode_message(msg, 1, codec)
    assert info.value.path == "topics[0].partition_indexes[0]"
    assert str(2**40) in str(info.value)


def test_every_truncated_prefix_of_every_message(codec):
    # lowest and highest version of every message: each cut raises the codec's error, nothing else
    cases = 0
    for name, spec in sorted(SPECS.items()):
        for version in sorted({min(spec.versions), max(spec.versions)}):
            raw = encode_message(populate(plan_of(spec, version)), version, codec)
            for cut in range(len(raw)):
                try:
                    decode_message(spec, version, raw[:cut], codec)
                except CorruptDataError as exc:
                    assert exc.offset is not None and 0 <= exc.offset <= cut, (name, version, cut)
                else:
                    raise AssertionError(f"{name} v{version}: {cut} of {len(raw)} bytes decoded")
                cases += 1
    assert cases > 10_000
