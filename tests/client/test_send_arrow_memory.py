"""send_arrow's batches are views of their encoded chunk: a chunk lives until the last of
its batches is done.  Its memory is reserved whole, so one partition that makes no progress
(its leader down) cannot keep more than buffer.memory of chunks alive while the pool
believes little is in use: send_arrow waits for memory instead."""
import gc
import threading
import time
import uuid

import pytest

import _peers
from kafkacodec.client import Producer
from kafkacodec.client import _send_arrow
from kafkacodec.client.accumulator import ProducerBatch

pytestmark = pytest.mark.broker

BUFFER = 32 << 20


@pytest.mark.timeout(120)
def test_a_stuck_partition_keeps_no_more_than_buffer_memory_of_chunks_alive(mock3):
    pa = pytest.importorskip("pyarrow")
    partitions = 8
    bs = mock3
    topic = f"pin-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bs, topic, partitions)
    for k in range(partitions):
        _peers.mock_fault(bs, "leader", topic, k, 2 if k == 0 else 1)
    # small requests: many batches per chunk, each pinning it
    conf = {"bootstrap.servers": bs, "buffer.memory": BUFFER, "max.request.size": 65536, "batch.size": 16384,
            "linger.ms": 5, "max.block.ms": 4000, "request.timeout.ms": 3000, "delivery.timeout.ms": 8000}
    with Producer(conf) as p:
        p.partitions_for(topic)
        _peers.mock_fault(bs, "down", 2)   # partition 0's leader: its batches stay queued
        n = 600_000                         # ~66 MB of unkeyed rows: batches rotate over partitions
        table = pa.table({"value": pa.array([b"%08d" % i + b"x" * 100 for i in range(n)])})
        failed = []

        def send():
            try:
                p.send_arrow(topic, table)
            except Exception as exc:  # waits for memory, then max.block.ms
                failed.append(exc)

        t = threading.Thread(target=send)
        t.start()
        time.sleep(3)   # partitions 1..7 are acknowledged meanwhile
        live = [o for o in gc.get_objects() if type(o) is ProducerBatch and o.data is not None]
        chunks = {id(b.data.obj): len(b.data.obj) for b in live if isinstance(b.data, memoryview)}
        reserved = p._pool.total_memory - p._pool.available_memory
        # beyond buffer.memory: only the chunks encoded ahead of the one being queued
        ahead = (_send_arrow.ENCODE_AHEAD + 1) * _send_arrow.MAX_CHUNK
        assert sum(chunks.values()) <= BUFFER + ahead, (len(live), len(chunks), reserved)
        assert sum(chunks.values()) <= reserved
        t.join(30)
        assert not t.is_alive() and failed   # max.block.ms: partition 0 never freed its memory
        p.purge(in_queue=True)
