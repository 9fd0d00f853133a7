"""The asyncio form of the producer on Tansu: await send -> RecordMetadata, many sends in
flight at once, await flush/close, transactions awaited, `async with`; the event loop
keeps running while records wait for metadata and acknowledgements."""
import asyncio
import time
import uuid

import numpy as np
import pytest

from kafkacodec.client import AsyncProducer, Consumer, RecordMetadata
from kafkacodec.client import errors as E
from kafkacodec.client.partitioner import murmur2_partition

_peers = pytest.importorskip("_peers")
pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]


def _topic(bootstrap, partitions):
    name = f"ap-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, name, partitions)
    return name


def test_send_flush_close_and_a_live_loop(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, 3)
    records = [(b"k%d" % (i % 17) if i % 5 else None, b"v%d" % i,
                [("h", b"%d" % i)] if i % 4 == 0 else None) for i in range(2000)]

    async def main():
        ticks = 0

        async def ticker():  # runs only while the loop is free
            nonlocal ticks
            while True:
                await asyncio.sleep(0.005)
                ticks += 1

        tick_task = asyncio.create_task(ticker())
        async with AsyncProducer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 20,
                                  "batch.size": 2048}) as p:
            # the first send waits for the topic's metadata on the worker, the loop runs meanwhile
            first = await p.send(topic, b"first", key=b"k1")
            assert isinstance(first, RecordMetadata)
            assert (first.topic, first.partition, first.offset) == (topic, murmur2_partition(b"k1", 3), 0)
            futures = [p.send_future(topic, v, key=k, headers=h) for k, v, h in records]
            before = ticks
            metas = await asyncio.gather(*futures)
            assert ticks > before  # acknowledgements awaited, not blocked on
            tail = [p.send_future(topic, b"tail%d" % i, partition=i % 3) for i in range(30)]
            await p.flush(30)
            assert all(f.done() for f in tail)
            tail = [f.result() for f in tail]
        tick_task.cancel()
        return first, metas, tail

    first, metas, tail = asyncio.run(main())
    for (k, _, _), m in zip(records, metas):
        if k is not None:
            assert m.partition == murmur2_partition(k, 3)
    by_part = {}
    for m in [first] + metas + tail:
        by_part.setdefault(m.partition, []).append(m.offset)
    for offsets in by_part.values():  # in order and gapless per partition
        assert offsets == list(range(len(offsets)))
    got = _peers.consume_with_confluent(tansu_bootstrap, topic, 1 + len(records) + len(tail), timeout=30)
    where = {(part, off): (key, value, headers) for key, value, headers, _, off, part in got}
    for (k, v, h), m in zip(records, metas):
        assert where[(m.partition, m.offset)] == (k, v, list(h or ()))


def test_errors_arrive_through_the_future_and_closed_refuses(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, 2)

    async def main():
        p = AsyncProducer({"bootstrap.servers": tansu_bootstrap, "max.request.size": 10000})
        await p.partitions_for(topic)
        with pytest.raises(ValueError, match="partition 5"):
            await p.send(topic, b"x", partition=5)
        with pytest.raises(E.BrokerResponseError, match="max.request.size"):
            await p.send(topic, b"x" * 20000)
        assert (await p.send(topic, b"ok", partition=1)).offset == 0
        pending = p.send_future(topic, b"queued", partition=0)
        await p.close(10)
        assert (await pending).offset == 0  # close flushes first
        with pytest.raises(E.ClientClosedError):
            await p.send(topic, b"late")
        await p.close()  # twice is fine

    asyncio.run(main())


def test_handles_without_a_future_per_record(tansu_bootstrap):
    """send_nowait appends on the loop or says it would wait; send_handle then appends on the
    worker in order; delivered() is one future per batch, after which handle.get(0) answers."""
    topic = _topic(tansu_bootstrap, 2)

    async def main():
        # room for a few batches only: appends find no memory and wait on the worker
        p = AsyncProducer({"bootstrap.servers": tansu_bootstrap, "batch.size": 1024, "buffer.memory": 16384,
                           "linger.ms": 5, "max.request.size": 10000})
        try:
            assert p.send_nowait(topic, b"x") is None  # metadata unknown: it would wait
            first = await p.send_handle(topic, b"first", partition=0)
            await p.delivered(first)
            assert first.get(0).offset == 0
            handles, waited = [], 0
            for i in range(400):
                value = b"%03d" % i * 40
                h = p.send_nowait(topic, value, partition=i % 2)
                if h is None:
                    waited += 1
                    h = await p.send_handle(topic, value, partition=i % 2)
                handles.append(h)
            assert waited  # the small buffer made some appends wait on the worker
            same_batch = [h for h in handles if h.partition == 1][:2]
            assert p.delivered(same_batch[0]) is p.delivered(same_batch[1]) or \
                p.delivered(same_batch[0]).done()
            await asyncio.gather(*(p.delivered(h) for h in handles))
            offsets = {0: [], 1: []}
            for h in handles:
                offsets[h.partition].append(h.get(0).offset)
            assert offsets[0] == list(range(1, 201)) and offsets[1] == list(range(200))  # in order
            with pytest.raises(ValueError, match="partition 5"):
                p.send_nowait(topic, b"x", partition=5)  # refused at once, not through a future
            with pytest.raises(E.BrokerResponseError, match="max.request.size"):
                await p.send_handle(topic, b"x" * 12000, partition=0)
        finally:
            await p.close(10)
        with pytest.raises(E.ClientClosedError):
            p.send_nowait(topic, b"late")

    asyncio.run(main())


def test_send_arrow_awaited(tansu_bootstrap):
    pa = pytest.importorskip("pyarrow")
    topic = _topic(tansu_bootstrap, 4)
    keys = [b"key-%d" % i for i in range(500)]
    table = pa.table({"key": pa.array(keys, pa.binary()), "value": pa.array([b"v" * 10] * 500, pa.binary())})

    async def main():
        async with AsyncProducer({"bootstrap.servers": tansu_bootstrap}) as p:
            bulk = await p.send_arrow(topic, table)
            assert bulk.done()
            return bulk.partitions(), bulk.offsets(0)

    parts, offsets = asyncio.run(main())
    assert list(parts) == [murmur2_partition(k, 4) for k in keys]
    for q in range(4):
        assert list(offsets[parts == q]) == list(np.arange((parts == q).sum()))


def test_transactions_awaited(tansu_bootstrap):
    topic = _topic(tansu_bootstrap, 2)

    async def main():
        async with AsyncProducer({"bootstrap.servers": tansu_bootstrap,
                                  "transactional.id": f"at-{uuid.uuid4().hex[:6]}"}) as p:
            await p.init_transactions(30)
            await p.begin_transaction()
            aborted = [p.send_future(topic, b"aborted-%d" % i, partition=i % 2) for i in range(20)]
            await p.flush(30)
            await p.abort_transaction(30)
            await asyncio.gather(*aborted, return_exceptions=True)
            await p.begin_transaction()
            committed = [p.send_future(topic, b"committed-%d" % i, partition=i % 2) for i in range(30)]
            await p.commit_transaction(30)
            return await asyncio.gather(*committed)

    metas = asyncio.run(main())
    assert len(metas) == 30 and all(m.offset >= 0 for m in metas)
    # read_committed by kafkacodec's consumer (Tansu gives librdkafka no aborted-transaction list)
    c = Consumer({"bootstrap.servers": tansu_bootstrap, "auto.offset.reset": "earliest",
                  "isolation.level": "read_committed"})
    try:
        c.assign([(topic, 0), (topic, 1)])
        got = []
        deadline = time.monotonic() + 20
        while len(got) < 30 and time.monotonic() < deadline:
            got.extend(r.value for r in c.poll(0.3))
        got.extend(r.value for r in c.poll(0.5))  # nothing more may come
    finally:
        c.close()
    assert sorted(got) == sorted(b"committed-%d" % i for i in range(30))


def test_batches_awaited_on_a_loop_since_closed_still_complete(tansu_bootstrap):
    """A program whose event loop ends with records in flight and the producer open: the
    batches are acknowledged all the same (flush() on the Producer returns), where the
    asyncio side's listener once raised on the closed loop and left the rest of the
    request's batches incomplete."""
    topic = _topic(tansu_bootstrap, 2)
    kept = []

    async def main():
        p = AsyncProducer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 500})
        await p.partitions_for(topic)
        futs = [p.send_future(topic, b"v%d" % i, partition=i % 2) for i in range(10)]
        await p.run(lambda: None)  # after the appends queued on the worker: all of them are in
        assert not any(f.done() for f in futs)
        kept.append(p)

    asyncio.run(main())
    p = kept[0].producer
    assert p._acc.incomplete, "records in flight as the loop ended"
    p.flush(10)
    assert p.send(topic, b"after").result(10).offset >= 0
    p.close()
    with Consumer({"bootstrap.servers": tansu_bootstrap, "auto.offset.reset": "earliest"}) as c:
        c.assign([(topic, 0), (topic, 1)])
        got, deadline = 0, time.monotonic() + 20
        while got < 11 and time.monotonic() < deadline:
            got += len(c.poll(0.2))
    assert got == 11
