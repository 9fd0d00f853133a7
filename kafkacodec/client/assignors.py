"""Partition assignors of Kafka's consumer protocol (run by the group leader).

An assignor has a ``name`` (the protocol name members advertise in JoinGroup)
and ``assign(partitions_per_topic, subscriptions)`` where subscriptions maps
member id -> set of topics; it returns member id -> sorted [(topic, partition)].
Members are ordered by member id, like the Java assignors, so every
implementation of the same strategy computes the same result.

An assignor with ``uses_owned = True`` is also given ``owned``: member id ->
(generation, [(topic, partition)]) from the members' subscriptions (owned
partitions, KIP-429).  ``rebalance_protocol`` is "eager" (members give up
everything before joining) or "cooperative" (members keep what they own and
give up only what the assignment takes away).
"""
from __future__ import annotations

import struct
from collections.abc import Collection, Iterable, Mapping
from typing import Protocol

#: (topic, partition)
TopicPartitionTuple = tuple[str, int]
#: member id -> the partitions it is assigned
Assignment = dict[str, list[TopicPartitionTuple]]


class Assignor(Protocol):
    """What the group leader calls: the built-in assignors and any given in
    ``partition.assignment.strategy``.  Cooperative ones also have ``rebalance_protocol =
    "cooperative"`` and ``uses_owned = True`` and take ``owned``."""

    name: str

    def assign(self, partitions_per_topic: Mapping[str, int],
               subscriptions: Mapping[str, Collection[str]]) -> Assignment: ...

__all__ = ["RangeAssignor", "RoundRobinAssignor", "CooperativeStickyAssignor", "ASSIGNORS",
           "sticky_user_data", "parse_sticky_user_data"]


class RangeAssignor:
    """Per topic: contiguous ranges of partitions, the first members get one more."""

    name = "range"

    def assign(self, partitions_per_topic: Mapping[str, int],
               subscriptions: Mapping[str, Collection[str]]) -> Assignment:
        out: Assignment = {member: [] for member in subscriptions}
        topics = sorted({t for topics in subscriptions.values() for t in topics})
        for topic in topics:
            count = partitions_per_topic.get(topic, 0)
            members = sorted(mid for mid, subs in subscriptions.items() if topic in subs)
            if not members or not count:
                continue
            per, extra = divmod(count, len(members))
            start = 0
            for i, member in enumerate(members):
                n = per + (1 if i < extra else 0)
                out[member].extend((topic, p) for p in range(start, start + n))
                start += n
        return out


class RoundRobinAssignor:
    """All partitions of all subscribed topics dealt out in turn to the members subscribed to them."""

    name = "roundrobin"

    def assign(self, partitions_per_topic: Mapping[str, int],
               subscriptions: Mapping[str, Collection[str]]) -> Assignment:
        out: Assignment = {member: [] for member in subscriptions}
        members = sorted(subscriptions)
        if not members:
            return out
        topics = sorted({t for topics in subscriptions.values() for t in topics})
        i = 0
        for topic in topics:
            for p in range(partitions_per_topic.get(topic, 0)):
                for _ in range(len(members)):
                    member = members[i % len(members)]
                    i += 1
                    if topic in subscriptions[member]:
                        out[member].append((topic, p))
                        break
        return out


class CooperativeStickyAssignor:
    """Balanced like round robin, but members keep what they owned where balance allows
    (KIP-54); cooperative (KIP-429): a partition moving from one member to another is left
    out of this generation's assignment, so its owner gives it up (committing) and rejoins,
    and the next generation hands it to its new owner — no partition has two owners."""

    name = "cooperative-sticky"
    rebalance_protocol = "cooperative"
    uses_owned = True

    def assign(self, partitions_per_topic: Mapping[str, int], subscriptions: Mapping[str, Collection[str]],
               owned: Mapping[str, tuple[int, Iterable[tuple[str, int]]]] | None = None) -> Assignment:
        owned = owned or {}
        members = sorted(subscriptions)
        out: Assignment = {member: [] for member in members}
        if not members:
            return out
        eligible: dict[TopicPartitionTuple, list[str]] = {}
        for topic in sorted({t for topics in subscriptions.values() for t in topics}):
            subs = [mid for mid in members if topic in subscriptions[mid]]
            for p in range(partitions_per_topic.get(topic, 0)):
                eligible[(topic, p)] = subs
        # previous owners: a partition claimed twice stays with the newer generation's claim
        owner: dict[TopicPartitionTuple, str] = {}
        claim_generation: dict[TopicPartitionTuple, int] = {}
        for member in members:
            generation, tps = owned.get(member, (-1, ()))
            for tp in tps:
                tp = (tp[0], tp[1])
                if tp not in eligible or member not in eligible[tp]:
                    continue
                if tp not in owner or generation > claim_generation[tp]:
                    owner[tp] = member
                    claim_generation[tp] = generation
        held: dict[str, set[TopicPartitionTuple]] = {member: set() for member in members}
        for tp, member in owner.items():
            held[member].add(tp)

        def load(member: str) -> tuple[int, str]:
            return len(held[member]), member

        # the unowned partitions go to the least loaded member that may take them
        for tp in sorted(eligible):
            if tp not in owner and eligible[tp]:
                held[min(eligible[tp], key=load)].add(tp)
        # then move partitions from the most to the least loaded until no move narrows the gap
        for _ in range(len(eligible)):
            moved = False
            for giver in sorted(members, key=load, reverse=True):
                # a partition the giver owned before moves last
                for tp in sorted(held[giver], key=lambda tp: (owner.get(tp) == giver, tp)):
                    taker = min(eligible[tp], key=load)
                    if len(held[taker]) + 1 < len(held[giver]):
                        held[giver].discard(tp)
                        held[taker].add(tp)
                        moved = True
                        break
                if moved:
                    break
            if not moved:
                break
        for member in members:
            # cooperative: what another member still owns is handed over next generation
            out[member] = sorted(tp for tp in held[member] if owner.get(tp, member) == member)
        return out


def sticky_user_data(partitions: Iterable[tuple[str, int]], generation: int) -> bytes:
    """The sticky assignors' user data (v1): [topic [partition]] then the generation, as
    librdkafka and Java's StickyAssignor read it."""
    by_topic: dict[str, list[int]] = {}
    for topic, partition in partitions:
        by_topic.setdefault(topic, []).append(partition)
    out = [struct.pack(">i", len(by_topic))]
    for topic, ps in sorted(by_topic.items()):
        name = topic.encode()
        out.append(struct.pack(">h", len(name)) + name + struct.pack(">i", len(ps)))
        out.append(struct.pack(f">{len(ps)}i", *sorted(ps)))
    out.append(struct.pack(">i", generation))
    return b"".join(out)


def parse_sticky_user_data(data: bytes | bytearray | memoryview | None) -> tuple[list[TopicPartitionTuple], int]:
    """(partitions, generation) from sticky user data; ([], -1) when absent or unreadable
    (Java's cooperative assignor sends the generation alone: 4 bytes)."""
    data = bytes(data or b"")
    if len(data) == 4:
        return [], struct.unpack(">i", data)[0]
    try:
        tps: list[TopicPartitionTuple]
        (count,), pos, tps = struct.unpack_from(">i", data), 4, []
        for _ in range(count):
            (size,) = struct.unpack_from(">h", data, pos)
            topic = data[pos + 2:pos + 2 + size].decode()
            pos += 2 + size
            (n,) = struct.unpack_from(">i", data, pos)
            tps += [(topic, p) for p in struct.unpack_from(f">{n}i", data, pos + 4)]
            pos += 4 + 4 * n
        (generation,) = struct.unpack_from(">i", data, pos)
        return tps, generation
    except (struct.error, UnicodeDecodeError, ValueError):
        return [], -1


ASSIGNORS: dict[str, type[Assignor]] = {"range": RangeAssignor, "roundrobin": RoundRobinAssignor,
             "cooperative-sticky": CooperativeStickyAssignor}
