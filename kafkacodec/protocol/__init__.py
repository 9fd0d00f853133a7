"""Kafka wire protocol: generated message classes, a compiled codec, framing.

    from kafkacodec.protocol import encode_request, decode_response, messages
    req = messages.MetadataRequest(topics=None)
    frame = encode_request("Metadata", 12, req, correlation_id=1, client_id="me")

Frames are size-prefixed (the 4-byte length is part of what ``encode_*``
returns and what ``decode_*`` / ``FrameSplitter`` take).  ``records`` fields
decode to zero-copy memoryviews of the frame: they keep the frame alive; call
``bytes()`` on them to copy.

Where things live: ``messages`` (the classes; ``messages.pyi`` their fields),
``framing`` (bodies and frames), ``_model`` (classes and compiled plans from the
generated ``_schema``), ``_backend`` (which executor runs the plans: ``_codec``
or its pure twin ``_pure_codec``, as ``kafkacodec._impl`` decides).  Importing
the package builds nothing: the tables load, and each message's classes and
plans are built, when first used.
"""
from kafkacodec.protocol._backend import accelerated, executor
from kafkacodec.protocol._model import API_NAMES, REQUESTS, RESPONSES, SPECS, Struct
from kafkacodec.protocol.framing import (
    API_VERSIONS_KEY, CONTROLLED_SHUTDOWN_KEY, DEFAULT_MAX_FRAME, PRODUCE_KEY, FrameSplitter,
    api_key_of, decode_message, decode_request, decode_response, decode_response_frame,
    decode_versioned, encode_message, encode_request, encode_request_frame, encode_response,
    encode_response_frame, encode_versioned, expects_response, peek_correlation_id,
    request_header_version, response_header_version)

__all__ = [
    "encode_request", "decode_request", "encode_response", "decode_response",
    "encode_message", "decode_message", "encode_versioned", "decode_versioned", "expects_response",
    "request_header_version", "response_header_version", "api_key_of", "FrameSplitter",
    "encode_request_frame", "decode_response_frame", "encode_response_frame", "peek_correlation_id",
    "SPECS", "REQUESTS", "RESPONSES", "API_NAMES", "Struct", "accelerated", "executor", "pure_executor",
    "API_VERSIONS_KEY", "CONTROLLED_SHUTDOWN_KEY", "PRODUCE_KEY", "DEFAULT_MAX_FRAME",
]


def __getattr__(name):
    if name == "pure_executor":  # imported when first named (see _backend)
        from kafkacodec.protocol import _backend
        return _backend.pure_executor
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
