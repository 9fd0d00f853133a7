"""Isolation-level arguments shared by every decoder (records and Arrow,
compiled and pure): one place decides what read_committed needs."""

__all__ = ["read_committed", "aborted_pairs"]


def read_committed(isolation_level, aborted_transactions):
    """True for read_committed, False for read_uncommitted.

    read_committed cannot be honoured from the record bytes alone: the
    aborted ranges come from the Fetch response (or a .txnindex).  Asking for
    it without saying which transactions aborted is refused rather than
    silently returning aborted records; pass ``[]`` when there are none.
    """
    if isolation_level in ("read_committed", 1):
        if aborted_transactions is None:
            raise ValueError("isolation_level='read_committed' needs aborted_transactions: the Fetch "
                             "response's (producer_id, first_offset) list, or [] when it has none")
        return True
    if isolation_level in ("read_uncommitted", 0):
        return False
    raise ValueError(f"isolation_level must be 'read_committed' or 'read_uncommitted', not {isolation_level!r}")


def aborted_pairs(aborted_transactions):
    """(producer_id, first_offset) pairs sorted by first offset, from tuples,
    dicts or objects with those attributes."""
    return sorted((_pair(a) for a in aborted_transactions), key=lambda t: t[1])


def _pair(a):
    if isinstance(a, tuple):
        return (int(a[0]), int(a[1]))
    if isinstance(a, dict):
        return (int(a["producer_id"]), int(a["first_offset"]))
    return (int(a.producer_id), int(a.first_offset))
