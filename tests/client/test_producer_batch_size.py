"""Batch sizes chosen per partition (accumulator._new_batch_size): 16 KiB while a partition
keeps up, doubling up to batch.size while its batches fill within linger.ms or queue up,
halving once it slows down; batch.size <= 16 KiB keeps every batch at batch.size."""
import time

from kafkacodec.client.accumulator import INITIAL_BATCH_SIZE, RecordAccumulator
from kafkacodec.client.config import PRODUCER, resolve
from kafkacodec.records.pool import BufferPool

KEY, VALUE = b"k" * 16, b"v" * 100


def _accumulator(**settings):
    conf = resolve(dict({"bootstrap.servers": "127.0.0.1:9092"}, **settings), {}, PRODUCER, "producer")
    return RecordAccumulator(conf, BufferPool(conf["buffer.memory"], conf["batch.size"]), lambda: None)


def _sizes(acc, partition=0):
    return [len(b.pool_buffer) for b in acc.deques[("t", partition)]]


def _append(acc, n, partition=0):
    for _ in range(n):
        acc.append("t", partition, 0, KEY, VALUE, None, None)


def test_a_backed_up_partition_grows_its_batches_up_to_batch_size():
    acc = _accumulator()
    assert acc.batch_size == 524288
    _append(acc, 60_000)  # nothing drains them: every full batch waits
    sizes = _sizes(acc)
    assert sizes[:3] == [INITIAL_BATCH_SIZE, 2 * INITIAL_BATCH_SIZE, 4 * INITIAL_BATCH_SIZE]
    assert sizes == sorted(sizes) and sizes[-1] == 524288
    _append(acc, 1, partition=1)  # other partitions start small
    assert _sizes(acc, 1) == [INITIAL_BATCH_SIZE]


def test_a_partition_that_slows_down_gets_smaller_batches_again():
    acc = _accumulator(**{"linger.ms": 1})
    _append(acc, 5_000)
    grown = _sizes(acc)[-1]
    assert grown > INITIAL_BATCH_SIZE
    for b in list(acc.deques[("t", 0)]):  # as if sent and acknowledged
        acc.deques[("t", 0)].remove(b)
        acc.seal(b)
        b.discard()
        acc.release(b)
    time.sleep(0.01)  # more than two linger.ms since the last batch opened
    _append(acc, 1)
    assert _sizes(acc) == [grown // 2]


def test_batch_size_up_to_16_kib_is_every_batch_s_size():
    acc = _accumulator(**{"batch.size": 4096})
    _append(acc, 2_000)
    assert set(_sizes(acc)) == {4096}
