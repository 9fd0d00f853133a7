"""Protocol messages on the wire: bodies, versioned data records and size-prefixed frames.

A request frame is size, request header (v0/v1/v2), body; a response frame is
size, response header (v0/v1), body.  Every frame is written by one encoder,
``_encode_frame``, which patches the size in place once the body is written, and
read by one decoder, ``_decode_frame``.  ``impl`` selects the plan executor
(``_codec`` or ``_pure_codec``); None means the package's (``_backend``).
"""
from kafkacodec.errors import (CorruptDataError, EncodeError, FrameTooLargeError,
                               TruncatedDataError, UnsupportedVersionError)
from kafkacodec.protocol._backend import executor
from kafkacodec.protocol._model import _api_names, _requests, _responses, _specs, load

__all__ = [
    "encode_message", "decode_message", "encode_versioned", "decode_versioned",
    "encode_request", "decode_request", "encode_response", "decode_response",
    "encode_request_frame", "encode_response_frame", "decode_response_frame",
    "peek_correlation_id", "FrameSplitter", "api_key_of", "expects_response",
    "request_header_version", "response_header_version",
]

API_VERSIONS_KEY = 18
CONTROLLED_SHUTDOWN_KEY = 7
PRODUCE_KEY = 0
DEFAULT_MAX_FRAME = 100 * 1024 * 1024


# The registry (_model) is filled on first use, so every lookup below reads the plain dicts and
# takes a miss as "maybe not loaded yet": a hit costs what it did when they were filled at import.
def _get(table, key):
    """table[key]; None when the protocol does not know the key."""
    value = table.get(key)
    if value is None and not _specs:
        load()
        value = table.get(key)
    return value


def _at(table, key):
    """table[key]; KeyError when the protocol does not know the key."""
    value = _get(table, key)
    if value is None:
        raise KeyError(key)
    return value


def api_key_of(api):
    """Resolve "Metadata", "MetadataRequest" or 3 to the API key."""
    if isinstance(api, int) and not isinstance(api, bool):
        if api in _requests or _get(_requests, api) is not None:
            return api
        raise UnsupportedVersionError(f"unknown API key {api}")
    if isinstance(api, str):
        name = api[:-len("Request")] if api.endswith("Request") else api
        name = name[:-len("Response")] if name.endswith("Response") else name
        key = _api_names.get(name)
        if key is None:
            key = _get(_api_names, name)
        if key is not None:
            return key
    raise UnsupportedVersionError(f"unknown API {api!r}")


def _spec(table, api, version):
    spec = table[api_key_of(api)]  # api_key_of found it: the registry is loaded
    if version not in spec.versions:
        raise UnsupportedVersionError(
            f"{spec.name} version {version} is not supported "
            f"(supported: {spec.min_version}-{spec.max_version})")
    return spec


def request_header_version(api_key, version):
    if api_key == CONTROLLED_SHUTDOWN_KEY and version == 0:
        return 0  # the one request that predates client_id
    return 2 if _at(_requests, api_key).is_flexible(version) else 1


def response_header_version(api_key, version):
    if api_key == API_VERSIONS_KEY:
        # A client must read the response before it knows the broker's
        # versions, so ApiVersions answers always use header v0.
        return 0
    return 1 if _at(_responses, api_key).is_flexible(version) else 0


def expects_response(api, version, body):
    """False only for Produce with acks=0, which brokers never answer."""
    return not (api_key_of(api) == PRODUCE_KEY and getattr(body, "acks", -1) == 0)


# ---------------------------------------------------------------- bodies


def encode_message(message, version, impl=None):
    """Encode a message body (no header, no size) with its class's spec."""
    impl = impl or executor
    spec = type(message).spec
    if version not in spec.versions:
        raise UnsupportedVersionError(f"{spec.name} version {version} is not supported")
    return impl.encode(spec.plan(version, impl), message).to_bytes()


def decode_message(name, version, data, impl=None):
    """Decode a whole buffer as one message body; trailing bytes are an error."""
    impl = impl or executor
    spec = _at(_specs, name) if isinstance(name, str) else name
    if version not in spec.versions:
        raise UnsupportedVersionError(f"{spec.name} version {version} is not supported")
    obj, pos = impl.decode(spec.plan(version, impl), data)
    end = len(memoryview(data).cast("B"))
    if pos != end:
        raise CorruptDataError(f"{end - pos} trailing bytes after {spec.name}", pos)
    return obj


def encode_versioned(message, version, impl=None):
    """int16 version + body: how ``data`` records travel inside other messages
    (ConsumerProtocolSubscription/Assignment in JoinGroup/SyncGroup, LeaderChangeMessage...)."""
    return version.to_bytes(2, "big", signed=True) + encode_message(message, version, impl)


def decode_versioned(name, data, impl=None):
    """(version, message) from ``encode_versioned`` bytes.

    A version newer than the schema knows is read with the newest known layout
    and its extra trailing bytes are ignored: these records are designed to be
    read that way by older members.
    """
    impl = impl or executor
    spec = _at(_specs, name)
    mv = memoryview(data).cast("B")
    if len(mv) < 2:
        raise TruncatedDataError("missing the 2-byte version", 0)
    version = int.from_bytes(mv[:2], "big", signed=True)
    if version < spec.min_version:
        raise UnsupportedVersionError(f"{name} version {version} is not supported")
    use = min(version, spec.max_version)
    obj, pos = impl.decode(spec.plan(use, impl), mv, 2)
    if pos != len(mv) and use == version:
        raise CorruptDataError(f"{len(mv) - pos} trailing bytes after {name}", pos)
    return version, obj


# ---------------------------------------------------------------- frames


_header_plans: dict = {}  # (spec, version, executor) -> the header plan of that frame


def _header_plan(spec, version, impl):
    key = (spec, version, impl)
    plan = _header_plans.get(key)
    if plan is None:
        if spec.kind == "request":
            plan = _specs["RequestHeader"].plan(request_header_version(spec.api_key, version), impl)
        else:
            plan = _specs["ResponseHeader"].plan(response_header_version(spec.api_key, version), impl)
        _header_plans[key] = plan
    return plan


def _encode_frame(spec, version, header, body, impl):
    """The frame encoder: size, header, body; the size is written in place last."""
    impl = impl or executor
    if not isinstance(body, spec.cls):
        raise EncodeError(f"body must be a {spec.name}, got {type(body).__name__}")
    w = impl.Writer()
    at = w.reserve(4)
    impl.encode(_header_plan(spec, version, impl), header, w)
    impl.encode(spec.plan(version, impl), body, w)
    w.patch_int32(at, len(w) - 4)
    return w.to_bytes()


def _check_size(frame):
    mv = memoryview(frame).cast("B")
    if len(mv) < 4:
        raise TruncatedDataError("frame shorter than its 4-byte size", 0)
    size = int.from_bytes(mv[:4], "big", signed=True)
    if size < 0:
        raise CorruptDataError(f"negative frame size {size}", 0)
    if size != len(mv) - 4:
        cls = TruncatedDataError if size > len(mv) - 4 else CorruptDataError
        raise cls(f"frame size {size} but {len(mv) - 4} bytes follow", 0)
    return mv


def _decode_frame(spec, version, mv, impl, allow_trailing):
    """(header, body, bytes after the body) of a frame whose size was checked."""
    header, pos = impl.decode(_header_plan(spec, version, impl), mv, 4)
    try:
        body, pos = impl.decode(spec.plan(version, impl), mv, pos)
    except CorruptDataError as exc:
        raise exc.prefix_path(spec.name)
    if pos != len(mv) and not allow_trailing:
        raise CorruptDataError(f"{len(mv) - pos} trailing bytes after {spec.name}", pos)
    return header, body, len(mv) - pos


def encode_request(api, version, body, *, correlation_id, client_id=None, impl=None):
    """Size-prefixed request frame: size, header (v0/v1/v2), body."""
    spec = _spec(_requests, api, version)
    header = _specs["RequestHeader"].cls(request_api_key=spec.api_key, request_api_version=version,
                                         correlation_id=correlation_id, client_id=client_id)
    return _encode_frame(spec, version, header, body, impl)


def encode_request_frame(header, body, impl=None):
    """Re-encode a decoded (header, body) pair, keeping the header's own tagged fields."""
    version = header.request_api_version
    return _encode_frame(_spec(_requests, header.request_api_key, version), version, header, body, impl)


def encode_response(api, version, correlation_id, body, impl=None):
    """Size-prefixed response frame: size, header (v0/v1), body."""
    spec = _spec(_responses, api, version)
    header = _specs["ResponseHeader"].cls(correlation_id=correlation_id)
    return _encode_frame(spec, version, header, body, impl)


def encode_response_frame(api, version, header, body, impl=None):
    """Re-encode a decoded response (header object kept as decoded)."""
    return _encode_frame(_spec(_responses, api, version), version, header, body, impl)


def decode_request(frame, impl=None):
    """(header, body) from a size-prefixed request frame."""
    impl = impl or executor
    mv = _check_size(frame)
    if len(mv) < 8:
        raise TruncatedDataError("request frame too short for api key and version", len(mv))
    api_key = int.from_bytes(mv[4:6], "big", signed=True)
    version = int.from_bytes(mv[6:8], "big", signed=True)
    if api_key not in _requests and _get(_requests, api_key) is None:
        raise UnsupportedVersionError(f"unknown API key {api_key}")
    header, body, _ = _decode_frame(_spec(_requests, api_key, version), version, mv, impl, False)
    return header, body


def decode_response(api, version, frame, impl=None, allow_trailing=False):
    """(correlation_id, body) from a size-prefixed response frame.

    ``allow_trailing`` tolerates bytes after the body (librdkafka's mock
    cluster appends some to a few responses); strict by default.
    """
    spec = _spec(_responses, api, version)
    header, body, _ = _decode_frame(spec, version, _check_size(frame), impl or executor, allow_trailing)
    return header.correlation_id, body


def decode_response_frame(api, version, frame, impl=None):
    """(header, body, trailing_bytes) of a response frame; trailing bytes are tolerated."""
    spec = _spec(_responses, api, version)
    return _decode_frame(spec, version, _check_size(frame), impl or executor, True)


def peek_correlation_id(frame):
    """Correlation id of a size-prefixed response frame (first header field)."""
    mv = _check_size(frame)
    if len(mv) < 8:
        raise TruncatedDataError("response frame too short for a correlation id", len(mv))
    return int.from_bytes(mv[4:8], "big", signed=True)


class FrameSplitter:
    """Incremental splitter of a byte stream into size-prefixed frames.

    ``feed(data)`` returns the complete frames (bytes, prefix included) found so
    far; a size beyond ``max_frame_size`` raises FrameTooLargeError before the
    body is buffered.
    """

    def __init__(self, max_frame_size=DEFAULT_MAX_FRAME):
        self.max_frame_size = max_frame_size
        self._buf = bytearray()
        self._consumed = 0  # bytes of the stream already returned, for offsets

    def feed(self, data):
        self._buf += data
        frames = []
        buf = self._buf
        pos = 0
        while len(buf) - pos >= 4:
            size = int.from_bytes(buf[pos:pos + 4], "big", signed=True)
            if size < 0:
                raise CorruptDataError(f"negative frame size {size}", self._consumed + pos)
            if size > self.max_frame_size:
                raise FrameTooLargeError(
                    f"frame of {size} bytes exceeds the maximum of {self.max_frame_size}",
                    self._consumed + pos)
            if len(buf) - pos - 4 < size:
                break
            frames.append(bytes(buf[pos:pos + 4 + size]))
            pos += 4 + size
        if pos:
            del buf[:pos]
            self._consumed += pos
        return frames

    @property
    def pending(self):
        """Bytes buffered towards an incomplete frame."""
        return len(self._buf)
