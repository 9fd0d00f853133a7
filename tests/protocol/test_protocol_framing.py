"""Framing: header version per (API, version), frames of every API and version, splitter."""
import os
import struct
import subprocess
import sys

import pytest

import kafkacodec
from kafkacodec.errors import CorruptDataError, EncodeError, FrameTooLargeError, TruncatedDataError
from kafkacodec.protocol import (REQUESTS, RESPONSES, FrameSplitter, decode_request, decode_response,
                                 decode_response_frame, encode_request, encode_request_frame,
                                 encode_response, encode_response_frame, expects_response,
                                 request_header_version, response_header_version)
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


def test_re_encoding_a_decoded_frame_gives_the_same_bytes(codec):
    for key, spec in sorted(REQUESTS.items()):
        for v in sorted(spec.versions):
            frame = encode_request(key, v, populate(plan_of(spec, v)), correlation_id=v, client_id="c", impl=codec)
            assert encode_request_frame(*decode_request(frame, impl=codec), impl=codec) == frame, (spec.name, v)
    for key, spec in sorted(RESPONSES.items()):
        for v in sorted(spec.versions):
            frame = encode_response(key, v, v, populate(plan_of(spec, v)), impl=codec)
            header, body, trailing = decode_response_frame(key, v, frame, impl=codec)
            assert trailing == 0
            assert encode_response_frame(key, v, header, body, impl=codec) == frame, (spec.name, v)


def test_every_frame_encoder_checks_the_body_type(codec):
    wrong = m.HeartbeatRequest()
    req_header, _ = decode_request(encode_request("Metadata", 12, m.MetadataRequest(), correlation_id=1))
    resp_header, _, _ = decode_response_frame("Metadata", 12, encode_response("Metadata", 12, 1, m.MetadataResponse()))
    calls = [
        lambda: encode_request("Metadata", 12, wrong, correlation_id=1, impl=codec),
        lambda: encode_request_frame(req_header, wrong, impl=codec),
    ]
    for call in calls:
        with pytest.raises(EncodeError, match="body must be a MetadataRequest, got HeartbeatRequest"):
            call()
    calls = [
        lambda: encode_response("Metadata", 12, 1, wrong, impl=codec),
        lambda: encode_response_frame("Metadata", 12, resp_header, wrong, impl=codec),
    ]
    for call in calls:
        with pytest.raises(EncodeError, match="body must be a MetadataResponse, got HeartbeatRequest"):
            call()


def test_executor_follows_the_package_switch():
    from kafkacodec import protocol
    from kafkacodec.protocol import _pure_codec
    assert protocol.accelerated is kafkacodec.accelerated
    if kafkacodec.accelerated:
        from kafkacodec.protocol import _codec
        assert protocol.executor is _codec
    else:
        assert protocol.executor is _pure_codec
    code = "import kafkacodec.protocol as p; print(p.executor.__name__, p.accelerated)"
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "KAFKACODEC_PURE": "1"},
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["kafkacodec.protocol._pure_codec", "False"], out.stderr


def test_a_missing_protocol_extension_is_not_a_silent_fallback():
    if not kafkacodec.accelerated:
        pytest.skip("pure-Python mode")
    blocker = (
        "import sys, importlib.abc\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'kafkacodec.protocol._codec':\n"
        "            raise ImportError('simulated broken build')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import kafkacodec.protocol\n"
    )
    out = subprocess.run([sys.executable, "-c", blocker], env={**os.environ, "KAFKACODEC_PURE": ""},
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "simulated broken build" in out.stderr


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
