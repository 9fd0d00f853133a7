"""The share consumer's settings (KIP-932): the consumer's connection and fetch settings,
Kafka's share.* names, and none of a classic member's (offsets, assignors, auto commit:
the share group's coordinator keeps the state of each record)."""
from __future__ import annotations

from kafkacodec.client.config import COMMON, CONSUMER, Setting, _choice, _int

__all__ = ["SHARE_CONSUMER"]

_FROM_CONSUMER = ("group.id", "fetch.min.bytes", "fetch.max.wait.ms", "fetch.max.bytes", "max.poll.records",
                  "check.crcs", "max.decompressed.bytes", "default.api.timeout.ms",
                  "fetch.error.backoff.ms")

SHARE_CONSUMER: dict[str, Setting] = dict(COMMON, **{name: CONSUMER[name] for name in _FROM_CONSUMER
                                                     if name in CONSUMER}, **{
    "share.acknowledgement.mode": Setting(
        "implicit", _choice("implicit", "explicit"),
        "implicit: the records of a poll are accepted by the next poll, commit or close; explicit: each record "
        "is acknowledged with acknowledge() (ACCEPT, RELEASE, REJECT) and the acknowledgements go with the "
        "next fetch or commit."),
    "share.fetch.max.records": Setting(
        0, _int(0), "Most records one ShareFetch acquires per broker (0: max.poll.records); acquired records are "
                    "locked for this member until acknowledged or their lock ends."),
})
