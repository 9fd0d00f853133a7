"""Every place the decoders read what the protocol forbids because a peer in use writes it
and librdkafka reads it: one allow-list, field by field, each entry naming the peer.

The specification's rules hold everywhere else.  Nothing is lenient when encoding, and
every lenient read is logged at debug level on the logger ``kafkacodec.protocol``
("OffsetFetchResponse.topics: null, read as empty (...)"), so it is never silent.

``NULL_AS_EMPTY``: a top-level array or bytes field that may not be null, written as null
(length -1).

``ABSENT_AS_EMPTY``: a top-level array a peer leaves out altogether (no length, no
elements) when it has nothing for it.  It is read as empty only when the bytes left are
exactly what the fixed-size fields after it take, so an answer that has the field still
decodes by the book.
"""
from __future__ import annotations

import logging

from kafkacodec.protocol._model import _MIN_SIZE, BYTES, RECORDS, STRING

__all__ = ["NULL_AS_EMPTY", "ABSENT_AS_EMPTY", "apply", "note"]

log = logging.getLogger("kafkacodec.protocol")

# (message, top-level field) -> the peer that writes it so, and who reads it anyway
NULL_AS_EMPTY: dict[tuple[str, str], str] = {
    ("OffsetFetchResponse", "topics"):
        "librdkafka's mock cluster answers OffsetFetch v0-v6 asking for all of a group's offsets "
        "with a null topics array; librdkafka reads a null array as an empty one",
    ("SyncGroupResponse", "assignment"):
        "librdkafka's mock cluster answers every SyncGroup it fails (INVALID_REQUEST once the group's "
        "sync has ended, REBALANCE_IN_PROGRESS, ...) with a null assignment; librdkafka reads it as "
        "no assignment",
}
ABSENT_AS_EMPTY: dict[tuple[str, str], str] = {
    ("DescribeUserScramCredentialsResponse", "results"):
        "Tansu 0.6 leaves the results array out when it has no credential to describe; librdkafka "
        "reads the answer as no results",
}

# the kinds that may follow a field read as absent: their size is fixed
_FIXED = {kind: sizes[0] for kind, sizes in _MIN_SIZE.items() if kind not in (STRING, BYTES, RECORDS)}


def apply(message: str, plan: object) -> None:
    """Mark the allow-listed fields of `message` in a plan being compiled: op.lenient is
    (the bytes the fields after it take when it is absent, or -1 when only a null is read
    as empty; the debug line)."""
    ops = list(plan.ops)  # type: ignore[attr-defined]
    for (name, attr), peer in NULL_AS_EMPTY.items():
        op = next((o for o in ops if o.attr == attr), None) if name == message else None
        if op is not None and not op.nullable:  # a version where the field exists and may not be null
            op.lenient = (-1, f"{name}.{attr}: null, read as empty ({peer})")
    for (name, attr), peer in ABSENT_AS_EMPTY.items():
        at = next((i for i, o in enumerate(ops) if o.attr == attr), None) if name == message else None
        if at is None:
            continue
        rest = 1 if plan.flexible else 0  # type: ignore[attr-defined]  # an empty tagged-field section
        for op in ops[at + 1:]:
            if op.kind not in _FIXED:
                raise AssertionError(f"{name}.{attr}: a variable-size field follows it ({op.attr})")
            rest += _FIXED[op.kind]
        ops[at].lenient = (rest, f"{name}.{attr}: absent, read as empty ({peer})")


def note(what: str) -> None:
    """Called by the decoders when they read an allow-listed field leniently."""
    log.debug("%s", what)
