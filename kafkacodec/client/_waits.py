"""Waits of the application's threads on the client's conditions, safe against Ctrl-C.

CPython 3.11's ``Condition.wait`` releases the lock before its ``try`` begins: a signal whose
handler raises (Ctrl-C's KeyboardInterrupt) in that gap leaves the lock released, and the
caller's ``with cond:`` then fails with "cannot release un-acquired lock" instead of passing the
KeyboardInterrupt on (measured: 35 in 20,000 interrupted waits).  :func:`wait` takes the lock
back before the exception goes on.  The client's conditions are made over RLocks, whose owner
is known exactly (``_is_owned``)."""
from __future__ import annotations

import threading

__all__ = ["wait"]


def wait(cond: threading.Condition, timeout: float | None) -> bool:
    """cond.wait(timeout), called with the lock held; the lock is held again whatever it raises."""
    try:
        return cond.wait(timeout)
    except BaseException:
        if not cond._is_owned():  # type: ignore[attr-defined]  # Condition's own check of the lock's owner
            cond.acquire()
        raise
