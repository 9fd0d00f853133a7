"""Framing: header version per (API, version), frames of every API and version, splitter."""
import struct

import pytest

from kafkacodec.errors import CorruptDataError, FrameTooLargeError, TruncatedDataError
from kafkacodec.protocol import (REQUESTS, RESPONSES, FrameSplitter, decode_request, decode_response,
                                 encode_request, encode_response, expects_response, request_header_version,
                                 response_header_version)
from kafkacodec.protocol import messages as m

from protocol_helpers import plan_of, populate


def test_header_version_follows_flexibility():
    for key, spec in REQUESTS.items():
        for v in spec.versions:
            want = 2 if spec.is_flexible(v) else 1
            if key == 7 and v == 0:
                want = 0  # ControlledShutdown v0 predates the client id
            assert request_header_version(key, v) == want, (spec.name, v)
    for key, spec in RESPONSES.items():
        for v in spec.versions:
            want = 0 if key == 18 else (1 if spec.is_flexible(v) else 0)
            assert response_header_version(key, v) == want, (spec.name, v)


def test_controlled_shutdown_v0_header_has_no_client_id(codec):
    body = m.ControlledShutdownRequest(broker_id=3)
    frame = encode_request("ControlledShutdown", 0, body, correlation_id=9, client_id="ignored", impl=codec)
    assert frame == struct.pack(">ihhii", 12, 7, 0, 9, 3)
    header, back = decode_request(frame, impl=codec)
    assert header.client_id == "" and back == body  # absent in v0: the field default
    frame1 = encode_request("ControlledShutdown", 1, body, correlation_id=9, client_id="c", impl=codec)
    assert frame1 == struct.pack(">ihhih", 15, 7, 1, 9, 1) + b"c" + struct.pack(">i", 3)


@pytest.mark.parametrize("kind", ["request", "response"])
def test_every_api_version_frames(codec, kind):
    table = REQUESTS if kind == "request" else RESPONSES
    n = 0
    for key, spec in sorted(table.items()):
        for v in sorted(spec.versions):
            body = populate(plan_of(spec, v))
            if kind == "request":
                frame = encode_request(key, v, body, correlation_id=n, client_id="cid", impl=codec)
                header, back = decode_request(frame, impl=codec)
                assert (header.request_api_key, header.request_api_version, header.correlation_id) == (key, v, n)
            else:
                frame = encode_response(spec.name, v, n, body, impl=codec)
                corr, back = decode_response(key, v, frame, impl=codec)
                assert corr == n
            assert back == body, (spec.name, v)
            assert struct.unpack_from(">i", frame)[0] == len(frame) - 4
            n += 1
    assert n == 354


def test_frame_level_truncation(codec):
    frame = encode_request("Metadata", 12, populate(plan_of(REQUESTS[3], 12)), correlation_id=1, impl=codec)
    for cut in range(len(frame)):
        with pytest.raises(CorruptDataError):
            decode_request(frame[:cut], impl=codec)
        # a size prefix that agrees with the truncated body: the body decoder must notice
        short = struct.pack(">i", max(cut - 4, 0)) + frame[4:cut]
        with pytest.raises(CorruptDataError) as info:
            decode_request(short, impl=codec)
        if cut > 12 + 2 + 3 + 1:  # past the header (key, version, corr, client id, tags)
            assert info.value.path.startswith("MetadataRequest"), (cut, info.value)
    resp = encode_response("Metadata", 12, 5, populate(plan_of(RESPONSES[3], 12)), impl=codec)
    for cut in range(4, len(resp)):
        short = struct.pack(">i", cut - 4) + resp[4:cut]
        with pytest.raises(CorruptDataError):
            decode_response("Metadata", 12, short, impl=codec)


def test_acks_zero_produce_has_no_response():
    for v in REQUESTS[0].versions:
        assert not expects_response(0, v, m.ProduceRequest(acks=0))
        assert expects_response("Produce", v, m.ProduceRequest(acks=-1))
    assert expects_response("Fetch", 4, m.FetchRequest())


def test_splitter_limits_and_offsets():
    frames = [encode_response("Heartbeat", 0, i, m.HeartbeatResponse()) for i in range(5)]
    stream = b"".join(frames)
    sp = FrameSplitter(max_frame_size=64)
    got = sp.feed(stream[:7]) + sp.feed(stream[7:23]) + sp.feed(stream[23:])
    assert got == frames and sp.pending == 0
    # a frame exactly at the limit passes; one byte over fails before its body arrives
    sp = FrameSplitter(max_frame_size=6)
    assert sp.feed(frames[0]) == [frames[0]]
    with pytest.raises(FrameTooLargeError) as info:
        sp.feed(struct.pack(">i", 7))
    assert info.value.offset == len(frames[0])
    partial = FrameSplitter(max_frame_size=100)
    assert partial.feed(frames[0][:5]) == [] and partial.pending == 5
    with pytest.raises(TruncatedDataError):
        decode_response("Heartbeat", 0, frames[0][:5])
