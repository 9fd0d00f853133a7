"""Hand-computed frames with known meaning."""
import struct
import uuid

from kafkacodec.protocol import (decode_request, decode_response, encode_request,
                                 encode_response, expects_response, response_header_version)
from kafkacodec.protocol import messages as m


def test_api_versions_request_v3_frame(codec):
    body = m.ApiVersionsRequest(client_software_name="kc", client_software_version="1.0")
    frame = encode_request("ApiVersions", 3, body, correlation_id=7, client_id="cli", impl=codec)
    expected = (
        b"\x00\x00\x00\x16"          # size 22
        b"\x00\x12\x00\x03"          # api key 18, version 3
        b"\x00\x00\x00\x07"          # correlation id
        b"\x00\x03cli"               # client id: classic string even in header v2
        b"\x00"                      # header tagged fields
        b"\x03kc" b"\x041.0"         # compact strings (length + 1)
        b"\x00"                      # body tagged fields
    )
    assert frame == expected
    header, back = decode_request(frame, impl=codec)
    assert (header.request_api_key, header.request_api_version, header.correlation_id,
            header.client_id) == (18, 3, 7, "cli")
    assert back == body


def test_metadata_request_v0_frame(codec):
    body = m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name="foo")])
    frame = encode_request(3, 0, body, correlation_id=1, client_id=None, impl=codec)
    # header v1: key 3, version 0, corr 1, null client id; topics: [ "foo" ]
    assert frame == struct.pack(">ihhih", 19, 3, 0, 1, -1) + struct.pack(">ih", 1, 3) + b"foo"
    assert decode_request(frame, impl=codec)[1] == body


def test_api_versions_response_uses_header_v0(codec):
    assert response_header_version(18, 3) == 0
    assert response_header_version(3, 9) == 1
    body = m.ApiVersionsResponse(error_code=0, api_keys=[
        m.ApiVersionsResponse.ApiVersion(api_key=0, min_version=3, max_version=11)])
    frame = encode_response("ApiVersions", 3, 9, body, impl=codec)
    assert frame == (struct.pack(">ii", 19, 9)          # size, corr id; no header tags
                     + b"\x00\x00"                      # error code
                     + b"\x02" + struct.pack(">hhh", 0, 3, 11) + b"\x00"
                     + b"\x00\x00\x00\x00"              # throttle
                     + b"\x00")                         # tagged fields
    assert decode_response(18, 3, frame, impl=codec) == (9, body)


def test_flexible_response_header_has_tag_section(codec):
    frame = encode_response("Metadata", 12, 5, m.MetadataResponse(), impl=codec)
    assert frame[4:9] == b"\x00\x00\x00\x05\x00"


def test_tagged_field_defaults_and_presence(codec):
    from kafkacodec.protocol import decode_message, encode_message, SPECS
    # ApiVersionsResponse v3 tags: 0 supported_features, 1 epoch (-1), 2 finalized, 3 zk ready
    fresh = m.ApiVersionsResponse()
    raw = encode_message(fresh, 3, codec)
    assert raw.endswith(b"\x00")  # no tagged fields written for defaults
    # a peer that writes finalized_features_epoch=-1 explicitly
    peer = raw[:-1] + b"\x01" + b"\x01\x08" + struct.pack(">q", -1)
    back = decode_message(SPECS["ApiVersionsResponse"], 3, peer, codec)
    assert back.finalized_features_epoch == -1
    assert encode_message(back, 3, codec) == peer  # presence remembered
    # unknown tags are kept byte for byte, ordered among known ones
    peer2 = raw[:-1] + b"\x02" + b"\x01\x08" + struct.pack(">q", 5) + b"\x09\x02hi"
    back2 = decode_message(SPECS["ApiVersionsResponse"], 3, peer2, codec)
    assert back2._unknown == [(9, b"hi")]
    assert encode_message(back2, 3, codec) == peer2


def test_records_are_zero_copy(codec):
    from kafkacodec.protocol import decode_message, encode_message, SPECS
    P = m.ProduceRequest
    body = P(acks=-1, timeout_ms=1000, topic_data=[P.TopicProduceData(name="t", partition_data=[
        P.PartitionProduceData(index=0, records=bytearray(b"x" * 100))])])
    raw = bytearray(encode_message(body, 9, codec))
    back = decode_message(SPECS["ProduceRequest"], 9, raw, codec)
    rec = back.topic_data[0].partition_data[0].records
    assert isinstance(rec, memoryview) and bytes(rec) == b"x" * 100
    raw[raw.index(b"x")] = ord("y")
    assert bytes(rec[:1]) == b"y"  # a view of the frame, not a copy


def test_expects_response():
    assert not expects_response("Produce", 9, m.ProduceRequest(acks=0))
    assert expects_response("Produce", 9, m.ProduceRequest(acks=1))
    assert expects_response("Metadata", 1, m.MetadataRequest())


def test_message_api():
    t = m.MetadataRequest.MetadataRequestTopic(name="x")
    req = m.MetadataRequest(topics=[t])
    assert req.to_dict() == {"topics": [{"topic_id": uuid.UUID(int=0), "name": "x"}],
                             "allow_auto_topic_creation": True,
                             "include_cluster_authorized_operations": False,
                             "include_topic_authorized_operations": False}
    assert m.MetadataRequest.from_dict(req.to_dict()) == req
    assert "MetadataRequestTopic(topic_id=" in repr(req)
    assert m.MetadataRequest() != req
    assert m.MetadataRequest().topics == [] and m.MetadataRequest().topics is not m.MetadataRequest().topics
    assert m.JoinGroupRequest().rebalance_timeout_ms == -1
    try:
        m.MetadataRequest(nope=1)
    except TypeError as exc:
        assert "nope" in str(exc)
    else:
        raise AssertionError


def test_data_specs(codec):
    from kafkacodec.protocol import decode_message, encode_message, SPECS
    sub = m.ConsumerProtocolSubscription(topics=["a", "b"], user_data=b"u")
    raw = encode_message(sub, 1, codec)
    assert raw == struct.pack(">ih", 2, 1) + b"a" + struct.pack(">h", 1) + b"b" + struct.pack(">i", 1) + b"u" + struct.pack(">i", 0)
    assert decode_message(SPECS["ConsumerProtocolSubscription"], 1, raw, codec) == sub
    marker = m.EndTxnMarker(coordinator_epoch=5)
    assert encode_message(marker, 0, codec) == b"\x00\x00\x00\x05"


def test_versioned_data_records(codec):
    from kafkacodec.errors import CorruptDataError
    from kafkacodec.protocol import decode_versioned, encode_versioned
    sub = m.ConsumerProtocolSubscription(topics=["a"], user_data=None)
    raw = encode_versioned(sub, 0, codec)
    assert raw == b"\x00\x00" + struct.pack(">ih", 1, 1) + b"a" + struct.pack(">i", -1)
    assert decode_versioned("ConsumerProtocolSubscription", raw, codec) == (0, sub)
    # a newer member's record: read with the newest layout we know, extra bytes ignored
    newer = b"\x00\x63" + encode_versioned(sub, 3, codec)[2:] + b"extra"
    version, back = decode_versioned("ConsumerProtocolSubscription", newer, codec)
    assert version == 99 and back.topics == ["a"]
    import pytest
    with pytest.raises(CorruptDataError):
        decode_versioned("ConsumerProtocolSubscription", raw + b"x", codec)


def test_records_handed_to_the_record_layer(codec):
    from kafkacodec.records import RecordBatchBuilder, decode_records, iter_batches
    batches = b""
    for base in (0, 3):
        b = RecordBatchBuilder(base_offset=base)
        for i in range(3):
            b.append(1_700_000_000_000 + i, b"k%d" % (base + i), b"v%d" % (base + i))
        batches += b.build()
    F = m.FetchResponse
    body = F(responses=[F.FetchableTopicResponse(topic="t", partitions=[
        F.PartitionData(partition_index=0, high_watermark=6, records=batches)])])
    frame = encode_response("Fetch", 12, 1, body, impl=codec)
    _, back = decode_response("Fetch", 12, frame, impl=codec)
    view = back.responses[0].partitions[0].records
    assert isinstance(view, memoryview) and view.obj is frame  # no copy of the records
    assert [(r.offset, r.key, r.value) for r in decode_records(view)] == [
        (i, b"k%d" % i, b"v%d" % i) for i in range(6)]
    assert [bt.base_offset for bt in iter_batches(view)] == [0, 3]
