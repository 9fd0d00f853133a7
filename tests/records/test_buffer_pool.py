"""BufferPool: reuse, accounting, FIFO blocking, timeouts, builder integration."""
import threading
import time

import pytest

from kafkacodec.errors import BufferPoolTimeoutError, KafkaCodecError
from kafkacodec.records import RecordBatchBuilder, decode_records
from kafkacodec.records.pool import BufferPool


def test_poolable_buffers_are_reused():
    pool = BufferPool(4096, 1024)
    a = pool.allocate(1024, 1)
    assert len(a) == 1024 and pool.available_memory == 3072
    pool.deallocate(a)
    assert pool.available_memory == 4096 and pool.unallocated_memory == 3072
    assert pool.allocate(1024, 1) is a


def test_non_poolable_sizes_come_from_the_remainder():
    pool = BufferPool(4096, 1024)
    bufs = [pool.allocate(1024, 1) for _ in range(3)]
    for b in bufs:
        pool.deallocate(b)          # three on the free list, 1024 unallocated
    big = pool.allocate(3000, 1)    # frees pooled buffers to make room
    assert len(big) == 3000 and pool.available_memory == 1096
    pool.deallocate(big)
    assert pool.available_memory == 4096


def test_too_large_and_closed():
    pool = BufferPool(1000, 100)
    with pytest.raises(KafkaCodecError):
        pool.allocate(1001, 1)
    pool.close()
    with pytest.raises(KafkaCodecError):
        pool.allocate(10, 1)


def test_blocks_until_memory_returns():
    pool = BufferPool(1024, 1024)
    held = pool.allocate(1024, 1)
    threading.Timer(0.2, pool.deallocate, args=(held,)).start()
    start = time.monotonic()
    got = pool.allocate(1024, 5)
    assert 0.1 < time.monotonic() - start < 4
    assert got is held


def test_timeout_raises_within_bound():
    pool = BufferPool(1024, 512)
    pool.allocate(1024, 1)
    start = time.monotonic()
    with pytest.raises(BufferPoolTimeoutError):
        pool.allocate(512, 0.2)
    assert 0.15 < time.monotonic() - start < 2
    assert pool.queued == 0 and pool.available_memory == 0


def test_waiters_are_served_in_arrival_order():
    pool = BufferPool(1000, 100)
    held = pool.allocate(1000, 1)
    order = []

    def waiter(name, size):
        buf = pool.allocate(size, 5)
        order.append(name)
        pool.deallocate(buf)

    first = threading.Thread(target=waiter, args=("first", 600))
    second = threading.Thread(target=waiter, args=("second", 100))
    first.start()
    while pool.queued < 1:
        time.sleep(0.01)
    second.start()
    while pool.queued < 2:
        time.sleep(0.01)
    pool.deallocate(held)
    first.join(5)
    second.join(5)
    assert order == ["first", "second"]
    assert pool.available_memory == 1000


def test_accounting_under_threads():
    pool = BufferPool(64 * 1024, 4096)
    stop = time.monotonic() + 1.0
    errors = []

    def worker(seed):
        sizes = [4096, 4096, 1000, 8192, 4096, 300]
        i = seed
        while time.monotonic() < stop:
            size = sizes[i % len(sizes)]
            i += 1
            try:
                buf = pool.allocate(size, 2)
            except BufferPoolTimeoutError as exc:
                errors.append(exc)
                continue
            assert len(buf) == size
            pool.deallocate(buf, size)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert not errors
    assert pool.available_memory == 64 * 1024 and pool.queued == 0


def test_builder_draws_from_pool():
    pool = BufferPool(32 * 1024, 16 * 1024)
    b1 = RecordBatchBuilder(batch_size=16 * 1024, pool=pool)
    b2 = RecordBatchBuilder(batch_size=16 * 1024, pool=pool)
    assert pool.available_memory == 0
    with pytest.raises(BufferPoolTimeoutError):
        RecordBatchBuilder(batch_size=16 * 1024, pool=pool, max_block_seconds=0.1)
    b1.append(1, b"k", b"v")
    data = b1.build()            # building returns the buffer to the pool
    assert pool.available_memory == 16 * 1024
    b2.close()
    assert pool.available_memory == 32 * 1024
    assert [r.value for r in decode_records(data)] == [b"v"]


def test_double_or_foreign_deallocate_is_refused():
    pool = BufferPool(4096, 1024)
    a = pool.allocate(1024, 0)
    b = pool.allocate(300, 0)
    pool.deallocate(a)
    pool.deallocate(b)
    with pytest.raises(KafkaCodecError, match="already returned"):
        pool.deallocate(a)
    with pytest.raises(KafkaCodecError, match="already returned"):
        pool.deallocate(b)
    with pytest.raises(KafkaCodecError, match="did not lend"):
        pool.deallocate(bytearray(1024))
    assert pool.available_memory == pool.total_memory == 4096


def test_reservations_account_without_a_buffer():
    pool = BufferPool(4096, 1024)
    a = pool.allocate(1024, 0)
    pool.deallocate(a)                      # on the free list
    r = pool.reserve(1024, 0)               # poolable size, yet no buffer: the free one stays free
    assert type(r) is not bytearray and len(r) == 1024
    assert pool.available_memory == 3072 and pool.unallocated_memory == 2048
    with pytest.raises(BufferPoolTimeoutError):
        pool.reserve(3073, 0.05)
    big = pool.reserve(3072, 0)             # lets the free buffer go to make room
    assert pool.available_memory == 0
    pool.deallocate(r)                      # back as memory, not as a buffer to lend
    pool.deallocate(big)
    assert pool.available_memory == 4096 and pool.unallocated_memory == 4096
    assert pool.allocate(1024, 0) is not a
    with pytest.raises(KafkaCodecError, match="already returned"):
        pool.deallocate(r)


def test_reservation_waits_for_memory():
    pool = BufferPool(1024, 512)
    held = pool.allocate(1024, 0)
    threading.Timer(0.2, pool.deallocate, args=(held,)).start()
    start = time.monotonic()
    r = pool.reserve(700, 5)
    assert 0.1 < time.monotonic() - start < 4 and len(r) == 700
    assert pool.available_memory == 324


@pytest.mark.parametrize("twin", ["compiled", "pure"])
@pytest.mark.parametrize("compression", ["none", "lz4", "zstd"])
def test_builder_writes_the_batch_in_the_given_buffer(twin, compression):
    from kafkacodec._pure import records as pure
    from kafkacodec.records import _records as compiled
    mod = compiled if twin == "compiled" else pure
    pool = BufferPool(8192, 4096)
    buf = pool.allocate(4096, 0)
    b = mod.RecordBatchBuilder(2, compression, batch_size=4096, buffer=buf)
    n = 0
    while b.append(1000 + n, b"k%d" % n, bytes(range(n % 200, n % 200 + 40))) is not None:
        n += 1
    data = b.build()
    # no copy: the batch is the buffer's first bytes, and stays readable only
    assert type(data) is memoryview and data.obj is buf and data.readonly
    assert bytes(data) == bytes(buf[:len(data)])
    plain = mod.RecordBatchBuilder(2, compression, batch_size=4096)
    plain.append_many([(1000 + i, b"k%d" % i, bytes(range(i % 200, i % 200 + 40))) for i in range(n)])
    assert bytes(data) == plain.build()
    assert len(decode_records(data)) == n
    # a first record larger than the buffer goes on in memory of the builder's own
    b = mod.RecordBatchBuilder(2, compression, batch_size=4096, buffer=buf)
    b.append(1, None, b"x" * 10000)
    out = b.build()
    assert type(out) is bytes and decode_records(out)[0].value == b"x" * 10000
    with pytest.raises(ValueError):
        mod.RecordBatchBuilder(batch_size=4096, buffer=buf, pool=pool)
    with pytest.raises(BufferError):
        mod.RecordBatchBuilder(batch_size=4096, buffer=b"read only")


@pytest.mark.parametrize("twin", ["compiled", "pure"])
def test_builder_on_a_pool_writes_in_the_pooled_buffer(twin):
    from kafkacodec._pure import records as pure
    from kafkacodec.records import _records as compiled
    mod = compiled if twin == "compiled" else pure
    pool = BufferPool(4096, 4096)
    b = mod.RecordBatchBuilder(batch_size=4096, pool=pool)
    b.append(1, b"k", b"pooled")
    data = b.build()                  # the buffer goes back, so the batch is a copy
    assert type(data) is bytes
    again = pool.allocate(4096, 0)    # the same buffer, with the batch written in it
    assert again[:len(data)] == data


def test_a_shared_reservation_returns_with_its_last_holder():
    pool = BufferPool(4096, 1024)
    shares = pool.reserve_shared(3000, 3, 1)
    assert len(shares) == 3 and pool.available_memory == 1096
    pool.deallocate(shares[1])
    pool.deallocate_many([shares[0]])
    assert pool.available_memory == 1096      # the buffer they are views of lives on
    with pytest.raises(KafkaCodecError):
        pool.deallocate(shares[0])            # each holder returns once
    waiter = threading.Thread(target=lambda: pool.deallocate(pool.reserve(3000, 5)))
    waiter.start()
    time.sleep(0.05)
    assert waiter.is_alive()                  # the memory is still taken
    pool.deallocate(shares[2])
    waiter.join(5)
    assert not waiter.is_alive() and pool.available_memory == 4096


def test_a_shared_reservation_waits_and_times_out_as_one():
    pool = BufferPool(4096, 1024)
    held = pool.reserve(2000, 1)
    with pytest.raises(BufferPoolTimeoutError):
        pool.reserve_shared(3000, 2, 0.05)
    assert pool.available_memory == 2096      # nothing kept from the failed wait
    with pytest.raises(ValueError):
        pool.reserve_shared(10, 0, 1)
    pool.deallocate(held)
    assert pool.available_memory == 4096
