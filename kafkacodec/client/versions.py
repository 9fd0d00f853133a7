"""The highest version of each API the client sends: one table for every caller.

A connection sends each request at the highest version both the broker (its
ApiVersions answer) and kafkacodec's generated protocol support, capped by
this table; ``NetworkClient`` looks the cap up itself, so callers name no
version.  An API missing here is sent at the highest version both sides know.
A caller names a version (``version=``) only where its body depends on it, and
then never above the table: LeaveGroup stays at v2 for a member that is not
static, a Fetch in a session goes at the version the session was built for.
``max_version=`` caps a request lower still.

Each cap below what the generated protocol supports says why: raising one is a
change on the wire, made on purpose and tested against the peers.
"""
from typing import NamedTuple

from kafkacodec.protocol import api_key_of

__all__ = ["Cap", "CAPS", "MAX_VERSIONS", "max_version", "max_version_by_key"]


class Cap(NamedTuple):
    version: int   # the highest version the client sends
    why: str       # why not higher, when the generated protocol knows higher versions


CAPS = {
    # producer
    "Produce": Cap(10, "v11+ only add TRANSACTION_ABORTABLE (KIP-890), the same request for this client; "
                       "librdkafka's mock cluster stops at v10"),
    "InitProducerId": Cap(5, ""),
    "AddPartitionsToTxn": Cap(3, "v4+ is the brokers' own verification API (KIP-890)"),
    "TxnOffsetCommit": Cap(3, "v4+ belong to transactions v2 (KIP-890), which the producer does not speak"),
    "EndTxn": Cap(4, "v5+ are transactions v2 (KIP-890): a broker bumps the producer epoch at every end, "
                     "which this producer does not follow, so its next transaction would be fenced"),
    # consumer
    "Fetch": Cap(12, "v13+ name topics by id only; the fetcher keys partitions by topic name"),
    "ListOffsets": Cap(7, "v8+ add offset specs for tiered storage (KIP-405, KIP-1005, KIP-1023) and remote "
                          "lookups (KIP-1075), none of which the client asks for"),
    # both: the group coordinator and the transaction coordinator
    "FindCoordinator": Cap(3, "v4+ batch keys in coordinator_keys (KIP-699); the client asks for one key"),
    # the classic group protocol: later versions add nothing this client uses
    "JoinGroup": Cap(5, "v6+ add nothing used here (static membership is v5); librdkafka's mock cluster "
                        "advertises v6 but drops the connection on it"),
    "SyncGroup": Cap(3, "v4+ add nothing used here (static membership is v3)"),
    "Heartbeat": Cap(3, "v4 only makes the request flexible"),
    "LeaveGroup": Cap(4, "v5 only adds the member's leave reason (KIP-800)"),
    "OffsetCommit": Cap(8, "v9+ belong to the KIP-848 consumer protocol (member epochs, topic ids)"),
    "OffsetFetch": Cap(9, "v10 names topics by id (KIP-848); v8+ batch groups (KIP-709), which "
                          "coordinator.OffsetFetch builds as a batch of one, at v9 with no member, as "
                          "librdkafka and Java's classic consumer send it"),
    # cluster
    "Metadata": Cap(12, "v13 adds a top-level error code (KIP-1102) the metadata refresh does not read"),
}

MAX_VERSIONS = {api: cap.version for api, cap in CAPS.items()}
# by API key: made on the first lookup (resolving the names loads the protocol's tables, which
# importing the client does not), whole before it is bound, so no thread sees half of it
_by_key: dict[int, int] | None = None


def max_version(api: str) -> int | None:
    """The highest version of `api` (a name such as "Fetch") the client sends; None: no
    cap, the highest version both sides know."""
    return MAX_VERSIONS.get(api)


def max_version_by_key(api_key: int) -> int | None:
    """max_version() by API key, for the I/O thread's per-request lookup."""
    global _by_key
    by_key = _by_key
    if by_key is None:
        by_key = _by_key = {api_key_of(api): cap.version for api, cap in CAPS.items()}
    return by_key.get(api_key)
