"""The I/O thread's selector, with waits kept to the microsecond.

epoll and poll take whole milliseconds, and Python rounds a wait up to the next one: a
batch lingering 5 ms would leave 5-6 ms after its first record, half a millisecond late
on average, in every record's latency.  Here a wait is split: its whole milliseconds go
to the platform's selector, the rest to select(2), which keeps microseconds.  A process
whose descriptors go past select's limit (FD_SETSIZE) waits the rest in whole
milliseconds, as before; kqueue keeps nanoseconds and is used as it is.
"""
from __future__ import annotations

import select
import selectors
import time
from typing import Any

__all__ = ["FineTimeoutSelector"]

_BASE: type[selectors.BaseSelector] = selectors.DefaultSelector
_MS_RESOLUTION = _BASE.__name__ in ("EpollSelector", "PollSelector", "DevpollSelector")
_SLACK = 1e-9   # keeps a whole-millisecond wait from being rounded up to the next one


class FineTimeoutSelector(_BASE):  # type: ignore[valid-type,misc]  # the platform's default selector
    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if not _MS_RESOLUTION or timeout is None or timeout <= 0:
            return super().select(timeout)  # type: ignore[no-any-return]
        deadline = time.monotonic() + timeout
        whole_ms = int(timeout * 1000)
        if whole_ms:
            ready: list[tuple[selectors.SelectorKey, int]] = super().select(whole_ms / 1000 - _SLACK)
            if ready:
                return ready
        rest = deadline - time.monotonic()
        if rest <= 0:
            return super().select(0)  # type: ignore[no-any-return]
        return self._select_fine(rest)

    def _select_fine(self, timeout: float) -> list[tuple[selectors.SelectorKey, int]]:
        keys: Any = self.get_map()
        readers = [key.fd for key in keys.values() if key.events & selectors.EVENT_READ]
        writers = [key.fd for key in keys.values() if key.events & selectors.EVENT_WRITE]
        try:
            readable, writable, _ = select.select(readers, writers, [], timeout)
        except ValueError:  # a descriptor at or past FD_SETSIZE
            return super().select(timeout)  # type: ignore[no-any-return]
        ready: dict[int, int] = dict.fromkeys(readable, selectors.EVENT_READ)
        for fd in writable:
            ready[fd] = ready.get(fd, 0) | selectors.EVENT_WRITE
        return [(keys[fd], events) for fd, events in ready.items()]
