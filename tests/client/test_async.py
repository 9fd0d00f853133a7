"""The asyncio form of the consumer: await poll / poll_arrow / commit and `async for`,
on the same Consumer (its I/O thread), without blocking the event loop."""
import asyncio
import time
import uuid

import pytest

from kafkacodec.client import AsyncConsumer, TopicPartition

_peers = pytest.importorskip("_peers")
pytest.importorskip("confluent_kafka")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(90)]


def test_async_for_poll_arrow_commit_and_a_live_loop(tansu_bootstrap):
    topic = f"as-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 2)
    sent = [(b"k%d" % i, b"v%d" % i) for i in range(400)]
    _peers.produce_with_confluent(tansu_bootstrap, topic, sent)
    group = f"g-{uuid.uuid4().hex[:8]}"

    async def main():
        ticks = 0

        async def ticker():  # runs only while the loop is free
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        tick_task = asyncio.create_task(ticker())
        conf = {"bootstrap.servers": tansu_bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                "enable.auto.commit": False}
        async with AsyncConsumer(conf) as c:
            c.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
            got = []
            started = time.monotonic()
            async for record in c:
                got.append((record.key, record.value))
                if len(got) == len(sent) or time.monotonic() - started > 30:
                    break
            assert sorted(got) == sorted(sent)
            await c.commit()
            committed = await c.committed([TopicPartition(topic, 0), TopicPartition(topic, 1)])
            assert sum(committed.values()) == len(sent)
            c.seek_to_beginning()
            rows = 0
            while rows < len(sent) and time.monotonic() - started < 40:
                rows += (await c.poll_arrow(0.5)).num_rows
            assert rows == len(sent)
            before = ticks
            assert await c.poll(0.5) == []  # half a second of waiting, on the worker thread
            assert ticks - before >= 10
        tick_task.cancel()

    asyncio.run(main())
