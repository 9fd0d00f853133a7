"""Partition assignors of Kafka's consumer protocol (run by the group leader).

An assignor has a ``name`` (the protocol name members advertise in JoinGroup)
and ``assign(partitions_per_topic, subscriptions)`` where subscriptions maps
member id -> set of topics; it returns member id -> sorted [(topic, partition)].
Members are ordered by member id, like the Java assignors, so every
implementation of the same strategy computes the same result.
"""

__all__ = ["RangeAssignor", "RoundRobinAssignor", "ASSIGNORS"]


class RangeAssignor:
    """Per topic: contiguous ranges of partitions, the first members get one more."""

    name = "range"

    def assign(self, partitions_per_topic, subscriptions):
        out = {member: [] for member in subscriptions}
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

    def assign(self, partitions_per_topic, subscriptions):
        out = {member: [] for member in subscriptions}
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


ASSIGNORS = {"range": RangeAssignor, "roundrobin": RoundRobinAssignor}
