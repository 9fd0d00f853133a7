"""A bounded pool of buffers for batch building, with the semantics of the
Kafka producer's BufferPool.

The buffers ``allocate`` hands out are the ones batches are written in
(``RecordBatchBuilder(buffer=...)``), so ``total_memory`` bounds the memory
the batches hold.  Buffers of exactly ``poolable_size`` bytes (the producer's
batch.size) are kept on a free list and reused; other sizes are allocated from
the memory not held by the free list (releasing pooled buffers when needed).
``reserve`` accounts for memory held elsewhere (a batch built outside the
pool) without allocating any.  When memory is exhausted, both wait, first
come first served, until enough is returned or ``max_time_to_block`` passes,
and then raise BufferPoolTimeoutError.
"""
from __future__ import annotations

import collections
import threading
import time

from kafkacodec.errors import BufferPoolTimeoutError, KafkaCodecError

__all__ = ["BufferPool", "Reservation", "SharedReservation"]


class Reservation:
    """Memory of a BufferPool set aside for bytes held elsewhere; returned, like
    a buffer, with ``deallocate``."""

    __slots__ = ("size",)

    def __init__(self, size):
        self.size = size

    def __len__(self):
        return self.size

    def __repr__(self):
        return f"Reservation({self.size})"


class SharedReservation:
    """One of the holders of a reservation made by ``reserve_shared``: pieces of one
    buffer held elsewhere (send_arrow's batches are views of their encoded chunk, which
    lives until the last of them is done).  Each is returned with ``deallocate``; the
    memory goes back with the last."""

    __slots__ = ("_group",)

    def __init__(self, group):
        self._group = group   # [holders not yet returned, size], shared

    def __len__(self):
        return self._group[1]

    def __repr__(self):
        return f"SharedReservation({self._group[1]}, {self._group[0]} holders left)"


class BufferPool:
    """At most ``total_memory`` bytes of batch buffers, those of ``poolable_size`` bytes reused
    (see the module's documentation); safe to share between threads."""

    def __init__(self, total_memory: int, poolable_size: int):
        if total_memory <= 0 or poolable_size <= 0:
            raise ValueError("total_memory and poolable_size must be positive")
        self._total = int(total_memory)
        self._poolable = int(poolable_size)
        self._lock = threading.Lock()
        self._free = collections.deque()          # reusable poolable_size buffers
        self._waiters = collections.deque()       # one Condition per blocked allocate, FIFO
        self._non_pooled = self._total            # memory not in use and not on the free list
        # Buffers handed out and not yet returned (id -> buffer): returning one
        # twice, or one from elsewhere, would count its memory twice.
        self._lent = {}
        self._closed = False

    # -- introspection --
    @property
    def total_memory(self) -> int:
        return self._total

    @property
    def poolable_size(self) -> int:
        return self._poolable

    @property
    def available_memory(self) -> int:
        """Memory an allocation could use right now (free list + unallocated)."""
        with self._lock:
            return self._non_pooled + len(self._free) * self._poolable

    @property
    def unallocated_memory(self) -> int:
        with self._lock:
            return self._non_pooled

    @property
    def queued(self) -> int:
        """Number of allocate() calls waiting for memory."""
        with self._lock:
            return len(self._waiters)

    # -- allocation --
    def allocate(self, size: int, max_time_to_block: float) -> bytearray:
        """A buffer of `size` bytes to write a batch in (zeroed when new)."""
        return self._take(size, max_time_to_block, True)

    def reserve(self, size: int, max_time_to_block: float) -> Reservation:
        """Account for `size` bytes held outside the pool (no allocation)."""
        return self._take(size, max_time_to_block, False)

    def reserve_shared(self, size: int, holders: int, max_time_to_block: float) -> list[SharedReservation]:
        """Account for `size` bytes held outside the pool by `holders` objects at once:
        one SharedReservation each, the memory returned with the last of them."""
        if holders < 1:
            raise ValueError("holders must be at least 1")
        self._take(size, max_time_to_block, False, lend=False)
        group = [holders, size]
        shares = [SharedReservation(group) for _ in range(holders)]
        with self._lock:
            for share in shares:
                self._lent[id(share)] = share
        return shares

    def _returned_size(self, buffer):
        """The bytes `buffer` gives back (under the lock): a shared reservation's only with
        its last holder."""
        if type(buffer) is SharedReservation:
            group = buffer._group
            group[0] -= 1
            return group[1] if group[0] == 0 else 0
        return len(buffer)

    def _take(self, size, max_time_to_block, want_buffer, lend=True):
        if size > self._total:
            raise KafkaCodecError(
                f"attempt to allocate {size} bytes, but the pool's total memory is {self._total} bytes")
        if size < 0:
            raise ValueError("size must not be negative")
        with self._lock:
            if self._closed:
                raise KafkaCodecError("the buffer pool is closed")
            # Fast path: a pooled buffer of exactly the right size, when nobody waits.
            if want_buffer and size == self._poolable and self._free and not self._waiters:
                return self._lend(self._free.popleft())
            if not self._waiters and self._non_pooled + len(self._free) * self._poolable >= size:
                self._free_up(size)
                self._non_pooled -= size
                got = bytearray(size) if want_buffer else Reservation(size)
            else:
                got = self._wait_for(size, max_time_to_block, want_buffer)
            return self._lend(got) if lend else got

    def _lend(self, buffer):
        self._lent[id(buffer)] = buffer
        return buffer

    def _wait_for(self, size, max_time_to_block, want_buffer):
        # Collect memory piecemeal, as it is returned, while first in line.
        accumulated = 0
        cond = threading.Condition(self._lock)
        self._waiters.append(cond)
        deadline = time.monotonic() + max_time_to_block
        try:
            while accumulated < size:
                if self._closed:
                    raise KafkaCodecError("the buffer pool was closed while waiting")
                if self._waiters[0] is cond:
                    if want_buffer and accumulated == 0 and size == self._poolable and self._free:
                        buf = self._free.popleft()
                        self._wake_next(cond)
                        return buf
                    self._free_up(size - accumulated)
                    got = min(size - accumulated, self._non_pooled)
                    self._non_pooled -= got
                    accumulated += got
                    if accumulated >= size:
                        break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise BufferPoolTimeoutError(
                        f"failed to allocate {size} bytes within {max_time_to_block:.3f} s")
                cond.wait(remaining)
            self._wake_next(cond)
            return bytearray(size) if want_buffer else Reservation(size)
        except BaseException:
            self._non_pooled += accumulated
            self._wake_next(cond)
            raise
        finally:
            self._waiters.remove(cond)

    def _wake_next(self, leaving):
        for w in self._waiters:
            if w is not leaving:
                w.notify()
                return

    def _free_up(self, size):
        while self._free and self._non_pooled < size:
            self._free.pop()
            self._non_pooled += self._poolable

    def deallocate(self, buffer: bytearray | Reservation | SharedReservation, size: int | None = None) -> None:
        """Return a buffer or a reservation; poolable-size buffers go back on the free list."""
        with self._lock:
            if self._lent.get(id(buffer)) is not buffer:
                raise KafkaCodecError("deallocate() of a buffer this pool did not lend or that was "
                                      "already returned")
            del self._lent[id(buffer)]
            size = self._returned_size(buffer) if size is None else size
            if size == self._poolable and type(buffer) is bytearray and len(buffer) == self._poolable:
                self._free.append(buffer)
            else:
                self._non_pooled += size
            if self._waiters:
                self._waiters[0].notify()

    def deallocate_many(self, buffers: list) -> None:
        """deallocate() of each of `buffers` (their full sizes), under one lock: the
        producer returns a whole Produce request's buffers at once."""
        with self._lock:
            lent = self._lent
            poolable = self._poolable
            for buffer in buffers:
                if lent.get(id(buffer)) is not buffer:
                    raise KafkaCodecError("deallocate() of a buffer this pool did not lend or that was "
                                          "already returned")
                del lent[id(buffer)]
                if type(buffer) is bytearray and len(buffer) == poolable:
                    self._free.append(buffer)
                else:
                    self._non_pooled += self._returned_size(buffer)
            if self._waiters:
                self._waiters[0].notify()

    def close(self) -> None:
        """Wake every waiter with an error; later allocations fail."""
        with self._lock:
            self._closed = True
            for w in self._waiters:
                w.notify()

    def __repr__(self):
        return (f"BufferPool(total={self._total}, poolable={self._poolable}, "
                f"available={self.available_memory}, queued={self.queued})")
