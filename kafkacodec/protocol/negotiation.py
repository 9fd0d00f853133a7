"""Pick request versions from a broker's ApiVersions answer.

A broker that does not support the ApiVersions version a client sent answers
with error UNSUPPORTED_VERSION, in the v0 layout, listing at least its own
ApiVersions range; the client then retries with the highest version both
support (or v0 when the list is empty).
"""
from kafkacodec.errors import CorruptDataError
from kafkacodec.protocol import REQUESTS, RESPONSES, decode_response, messages

UNSUPPORTED_VERSION = 35
API_VERSIONS = 18

__all__ = ["negotiate", "decode_api_versions", "api_versions_retry_version", "UNSUPPORTED_VERSION"]


def our_range(api_key):
    req = REQUESTS.get(api_key)
    resp = RESPONSES.get(api_key)
    if req is None or resp is None:
        return None
    common = req.versions & resp.versions
    return (min(common), max(common)) if common else None


def negotiate(response):
    """{api_key: highest version both sides support} from an ApiVersionsResponse."""
    chosen = {}
    for entry in response.api_keys:
        ours = our_range(entry.api_key)
        if ours is None:
            continue
        lo = max(ours[0], entry.min_version)
        hi = min(ours[1], entry.max_version)
        # our range may have gaps where one spec set ends and the next begins
        for v in range(hi, lo - 1, -1):
            if v in REQUESTS[entry.api_key].versions and v in RESPONSES[entry.api_key].versions:
                chosen[entry.api_key] = v
                break
    return chosen


def decode_api_versions(version, frame, impl=None):
    """(correlation_id, body, decoded_version) for an ApiVersions answer to a `version` request.

    Falls back to the v0 layout when the broker rejected the version.
    """
    try:
        corr, body = decode_response(API_VERSIONS, version, frame, impl=impl)
        if body.error_code != UNSUPPORTED_VERSION:
            return corr, body, version
    except CorruptDataError:
        if version == 0:
            raise
    try:
        corr, body = decode_response(API_VERSIONS, 0, frame, impl=impl)
    except CorruptDataError:
        # Some brokers (librdkafka's mock cluster) write the rejection in a
        # layout that is neither v0 nor the requested version; the error code
        # right after the v0 header is all a retry at v0 needs.
        mv = memoryview(frame).cast("B")
        if len(mv) < 10 or int.from_bytes(mv[8:10], "big", signed=True) != UNSUPPORTED_VERSION:
            raise
        corr = int.from_bytes(mv[4:8], "big", signed=True)
        body = messages.ApiVersionsResponse(error_code=UNSUPPORTED_VERSION)
    return corr, body, 0


def api_versions_retry_version(response):
    """Version to retry ApiVersions with after UNSUPPORTED_VERSION."""
    for entry in response.api_keys:
        if entry.api_key == API_VERSIONS:
            ours = our_range(API_VERSIONS)
            return max(0, min(ours[1], entry.max_version))
    return 0
