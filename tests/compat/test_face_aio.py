"""The face's confluent_kafka.aio against a broker: AIOProducer and AIOConsumer (and their
serializing twins) do what confluent-kafka's do, and no step of the event loop (a callback or a
task's step, what asyncio's debug mode times) holds the loop longer than 10 ms while they run."""
import asyncio
import gc
import os
import time
import uuid

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")
import _peers  # noqa: E402

from kafkacodec.compat import confluent_kafka as ck  # noqa: E402
from kafkacodec.compat.confluent_kafka import aio  # noqa: E402
from kafkacodec.compat.confluent_kafka.serialization import (IntegerDeserializer, IntegerSerializer,  # noqa: E402
                                                             StringDeserializer)

pytestmark = pytest.mark.timeout(180)

SLOW_STEP = 0.010  # seconds: no loop step may hold the loop longer


def _run_queue_waits() -> dict[str, float]:
    """{thread id: seconds it has spent ready to run but without a CPU} of this process's threads
    (Linux's schedstat; empty elsewhere)."""
    out = {}
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/schedstat", "rb") as f:
                out[tid] = int(f.read().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
    return out


def _waited(before: dict[str, float], after: dict[str, float]) -> float:
    # a thread started meanwhile (a worker's) waited all its life within the step
    return sum(max(0.0, t - before.get(tid, 0.0)) for tid, t in after.items())


class _Collections:
    """The garbage collector's passes, (start, end) in perf_counter seconds, whichever thread ran them."""

    def __init__(self):
        self.passes = []
        self._started = {}

    def __call__(self, phase, info):
        tid = _thread_id()
        if phase == "start":
            self._started[tid] = time.perf_counter()
        elif tid in self._started:
            self.passes.append((self._started.pop(tid), time.perf_counter()))

    def within(self, start, end):
        """Seconds of collecting between start and end (older passes are dropped: steps come in order)."""
        self.passes = [p for p in self.passes if p[1] > start]
        return sum(max(0.0, min(end, b) - max(start, a)) for a, b in self.passes)


class LoopWatch:
    """Times each step the loop runs, as asyncio's debug mode does (slow_callback_duration), without
    debug mode's own cost (a traceback kept for every future and callback, which makes each step
    several times slower and the collector's passes long).  A step's time is its wall time less:
    - the time the process's threads were ready to run but kept without a CPU by the operating
      system (other processes' load on a shared machine: the loop's thread preempted, or the
      thread holding the GIL it waits for);
    - the garbage collector's passes (any thread's: they stop every thread, and last as long as
      the objects the whole process holds; frozen first, they see only what the run makes).
    Waiting for the GIL held by a running thread, for a lock, for I/O, or computing, counts.
    Both amounts left out are reported with a slow step."""

    def __init__(self):
        self.slow = []
        self.steps = 0
        self.longest = 0.0
        self._thread = None
        self._collections = _Collections()

    def _timed(self, original):
        watch = self

        def run(handle):
            if watch._thread != _thread_id():
                return original(handle)
            queued = _run_queue_waits()
            started = time.perf_counter()
            try:
                return original(handle)
            finally:
                ended = time.perf_counter()
                waited = _waited(queued, _run_queue_waits())
                collecting = watch._collections.within(started, ended)
                held = ended - started - waited - collecting
                watch.steps += 1
                watch.longest = max(watch.longest, held)
                if held > SLOW_STEP:
                    watch.slow.append(f"{held * 1000:.1f} ms ({(ended - started) * 1000:.1f} ms less "
                                      f"{waited * 1000:.1f} without a CPU and {collecting * 1000:.1f} "
                                      f"collecting garbage): {handle!r}")

        return run

    def run(self, coro):
        original = asyncio.events.Handle._run
        asyncio.events.Handle._run = self._timed(original)

        async def main():
            self._thread = _thread_id()
            return await coro

        gc.collect()
        gc.freeze()
        gc.callbacks.append(self._collections)
        try:
            return asyncio.run(main())
        finally:
            self._thread = None
            gc.callbacks.remove(self._collections)
            gc.unfreeze()
            asyncio.events.Handle._run = original

    def check(self):
        assert self.steps > 20, "the loop hardly ran"
        assert not self.slow, f"loop steps over {SLOW_STEP * 1000:.0f} ms:\n" + "\n".join(self.slow)


def _thread_id():
    import threading
    return threading.get_ident()


@pytest.fixture
def warm(tansu_bootstrap):
    """The broker, once the face's clients have made their first requests in this process: the first
    request loads the protocol's tables (compiled from source where no bytecode is kept, ~50 ms on
    the thread that asks first, the GIL held throughout), a once-per-process cost that is not the
    asyncio clients' doing."""
    p = ck.Producer({"bootstrap.servers": tansu_bootstrap})
    try:
        p.list_topics(timeout=10)
    finally:
        p.close()
    return tansu_bootstrap


def test_the_watch_catches_a_blocking_step():
    watch = LoopWatch()

    async def blocks():
        for _ in range(30):
            await asyncio.sleep(0)
        time.sleep(0.03)  # what a blocking client call does to the loop
        spent = time.thread_time() + 0.03
        while time.thread_time() < spent:  # and a long computation
            pass

    watch.run(blocks())
    with pytest.raises(AssertionError, match="loop steps over 10 ms") as info:
        watch.check()
    assert len(watch.slow) == 1 and watch.longest >= 0.05, info.value
    assert watch._collections.within(0, time.perf_counter()) < 0.01  # none of it was the collector


def test_aio_producer_delivers_futures_of_messages(warm):
    tansu_bootstrap = warm
    topic = f"aiop-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 3)
    records = [(f"k{i % 17}".encode(), f"value-{i}".encode()) for i in range(3000)]
    reports = []
    watch = LoopWatch()

    async def main():
        async with aio.AIOProducer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 5}) as p:
            futures = []
            for i, (k, v) in enumerate(records):
                kw = {"headers": [("i", str(i))]} if i % 100 == 0 else {}
                futures.append(await p.produce(topic, v, k, **kw, on_delivery=lambda e, m: reports.append(e)))
                if i % 10 == 0:
                    await asyncio.sleep(0)  # produce() never waits: a loop producing many lets others run
            assert 0 < len(p) <= len(records)
            delivered = [await f for f in futures]
            assert await p.flush(10) == 0 and len(p) == 0
            assert await p.poll(0) == len(records)  # the reports since the last poll
            assert await p.poll(0.05) == 0
            bad = await p.produce(topic, b"x", partition=7)
            with pytest.raises(ck.KafkaException) as info:
                await bad
            assert info.value.args[0].code() == ck.KafkaError._UNKNOWN_PARTITION
            md = await p.list_topics(topic, 10)
            assert sorted(md.topics[topic].partitions) == [0, 1, 2]
            assert await p.cluster_id(10) == md.cluster_id
        with pytest.raises(RuntimeError, match="closed"):
            await p.produce(topic, b"late")
        return delivered

    delivered = watch.run(main())
    watch.check()
    assert reports == [None] * len(records)
    assert all(m.error() is None and m.topic() == topic and m.offset() >= 0 for m in delivered)
    assert [(m.key(), m.value()) for m in delivered] == records
    # a key's records land on one partition, in order, as confluent-kafka's consistent_random puts them
    by_key = {}
    for m in delivered:
        by_key.setdefault(m.key(), set()).add(m.partition())
    assert all(len(parts) == 1 for parts in by_key.values())
    assert {m.key(): m.partition() for m in delivered} == {
        k: confluent_kafka.consistent(k, 3) for k, _ in records}
    rows = _peers.consume_with_confluent(tansu_bootstrap, topic, len(records), timeout=30)
    assert sorted((r[0], r[1]) for r in rows) == sorted(records)


def test_aio_producer_purge_and_a_full_queue(warm):
    tansu_bootstrap = warm
    topic = f"aiopurge-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    watch = LoopWatch()

    async def main():
        async with aio.AIOProducer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 60000,
                                    "queue.buffering.max.messages": 5}) as p:
            await p.produce(topic, b"warm")  # the topic's metadata, once
            assert await p.flush(10) == 0  # sent now, lingering or not
            futures = [await p.produce(topic, b"m%d" % i) for i in range(6)]
            with pytest.raises(ck.KafkaException) as full:
                await futures[5]
            assert full.value.args[0].code() == ck.KafkaError._QUEUE_FULL and len(p) == 5
            await p.purge(in_queue=True, in_flight=False)
            codes = []
            for f in futures[:5]:
                with pytest.raises(ck.KafkaException) as info:
                    await f
                codes.append(info.value.args[0].code())
            assert codes == [ck.KafkaError._PURGE_QUEUE] * 5 and len(p) == 0
            assert await p.flush(1) == 0

    watch.run(main())
    watch.check()


def test_aio_producer_needs_a_running_loop():
    with pytest.raises(RuntimeError, match="no running event loop"):
        aio.AIOProducer({"bootstrap.servers": "127.0.0.1:9"})
    with pytest.raises(RuntimeError, match="no running event loop"):
        aio.AIOConsumer({"bootstrap.servers": "127.0.0.1:9", "group.id": "g"})


def test_aio_consumer_group_with_callbacks_calling_back(warm):
    """subscribe() with coroutine callbacks that call the consumer (committed, assign) from inside:
    what a blocking consumer's callback does, without deadlock or a blocked loop."""
    tansu_bootstrap = warm
    topic = f"aioc-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 2)
    sent = [(b"k%d" % i, b"v%d" % i) for i in range(500)]
    _peers.produce_with_confluent(tansu_bootstrap, topic, sent)
    group = f"g-{uuid.uuid4().hex[:8]}"
    events = []
    watch = LoopWatch()

    commits = []

    async def on_commit(err, partitions):  # from the consumer's worker thread, run on the loop
        commits.append((err, sorted((tp.partition, tp.offset) for tp in partitions)))

    async def main():
        c = aio.AIOConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": group, "auto.offset.reset": "earliest",
                             "session.timeout.ms": 6000, "enable.auto.commit": False, "on_commit": on_commit})

        async def on_assign(consumer, partitions):
            assert consumer is c
            committed = await consumer.committed(partitions, 10)
            events.append(("assign", sorted(tp.partition for tp in partitions),
                           [tp.offset for tp in committed]))
            await consumer.assign(partitions)
            assert sorted(await consumer.assignment()) == sorted(partitions)

        async def on_revoke(consumer, partitions):
            events.append(("revoke", sorted(tp.partition for tp in partitions)))

        await c.subscribe([topic], on_assign=on_assign, on_revoke=on_revoke)
        got = []
        deadline = time.monotonic() + 60
        while len(got) < len(sent) and time.monotonic() < deadline:
            for m in await c.consume(100, 0.5):
                assert m.error() is None, m.error()
                got.append((m.key(), m.value()))
        done = await c.commit(asynchronous=False)
        positions = await c.position(await c.assignment())
        assert sorted((tp.partition, tp.offset) for tp in done) == sorted((tp.partition, tp.offset) for tp in positions)
        assert sum(tp.offset for tp in positions) == len(sent)
        assert (await c.get_watermark_offsets(ck.TopicPartition(topic, 0), 10))[0] == 0
        metadata = await c.consumer_group_metadata()
        assert metadata.group_id == group
        assert await c.poll(0.2) is None
        await c.close()
        with pytest.raises(RuntimeError, match="Consumer closed"):
            await c.poll(0)
        return got

    got = watch.run(main())
    watch.check()
    assert sorted(got) == sorted(sent)
    assert events[0] == ("assign", [0, 1], [ck.OFFSET_INVALID, ck.OFFSET_INVALID])
    assert events[-1] == ("revoke", [0, 1])  # close() gives the partitions up
    assert commits and commits[0][0] is None and sum(o for _, o in commits[0][1]) == len(sent)


def test_aio_consumer_calls(warm):
    """The rest of AIOConsumer's calls, each awaited, on an assigned consumer."""
    tansu_bootstrap = warm
    topic = f"aiocalls-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 2)
    _peers.produce_with_confluent(tansu_bootstrap, topic, [(b"k%d" % i, b"v%d" % i, None, 1_700_000_000_000 + i)
                                                           for i in range(40)], partition=0)
    them = confluent_kafka.Consumer({"bootstrap.servers": tansu_bootstrap, "group.id": "g-" + topic})
    theirs_for_time = them.offsets_for_times([confluent_kafka.TopicPartition(topic, 0, 1_700_000_000_020)], 10)[0].offset
    theirs_watermarks = them.get_watermark_offsets(confluent_kafka.TopicPartition(topic, 0), 10)
    them.close()
    watch = LoopWatch()

    async def take(c, n):
        got = []
        deadline = time.monotonic() + 20
        while len(got) < n and time.monotonic() < deadline:
            got += [m for m in await c.consume(n - len(got), 0.3) if m.error() is None]
        return got

    async def main():
        c = aio.AIOConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": "g-" + topic,
                             "enable.auto.offset.store": False, "enable.auto.commit": False})
        p0, p1 = ck.TopicPartition(topic, 0), ck.TopicPartition(topic, 1)
        await c.assign([ck.TopicPartition(topic, 0, ck.OFFSET_BEGINNING)])
        first = await take(c, 10)
        assert [m.offset() for m in first] == list(range(10))
        await c.store_offsets(first[-1])
        assert [tp.offset for tp in await c.commit(asynchronous=False)] == [10]
        await c.seek(ck.TopicPartition(topic, 0, 30))
        assert [m.offset() for m in await take(c, 5)] == [30, 31, 32, 33, 34]
        await c.pause([p0])
        assert await c.consume(10, 0.3) == []
        await c.resume([p0])
        assert [m.offset() for m in await take(c, 5)] == [35, 36, 37, 38, 39]
        found = await c.offsets_for_times([ck.TopicPartition(topic, 0, 1_700_000_000_020)], 10)
        assert found[0].offset == theirs_for_time  # (Tansu answers with the first offset of the batch)
        assert await c.get_watermark_offsets(p0, 10) == theirs_watermarks  # (Tansu's ListOffsets: its own idea)
        assert (await c.get_watermark_offsets(p0, cached=True))[1] == 40  # as the last fetch said
        await c.incremental_assign([p1])
        assert sorted(tp.partition for tp in await c.assignment()) == [0, 1]
        await c.incremental_unassign([p0])
        assert [tp.partition for tp in await c.assignment()] == [1]
        await c.unassign()
        assert await c.assignment() == []
        md = await c.list_topics(topic, 10)
        assert sorted(md.topics[topic].partitions) == [0, 1] and await c.cluster_id(10) == md.cluster_id
        await c.set_sasl_credentials("user", "secret")
        assert [tp.offset for tp in await c.committed([p0], 10)] == [10]
        await c.unsubscribe()
        await c.close()
        await c.close()  # once more: nothing

    watch.run(main())
    watch.check()


def test_aio_consumer_keeps_what_a_cancelled_poll_fetched(tansu_bootstrap):
    topic = f"aiok-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)

    async def main():
        c = aio.AIOConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": "g-" + topic})
        await c.assign([ck.TopicPartition(topic, 0, ck.OFFSET_BEGINNING)])
        waiting = asyncio.ensure_future(c.poll(10))
        await asyncio.sleep(0.5)
        waiting.cancel()  # the worker is still waiting for a message
        _peers.produce_with_confluent(tansu_bootstrap, topic, [(b"k", b"kept")])
        got = None
        deadline = time.monotonic() + 20
        while got is None and time.monotonic() < deadline:
            got = await c.poll(0.5)
        await c.close()
        return got

    got = asyncio.run(main())
    assert got is not None and got.value() == b"kept"


def test_aio_transactions_and_offsets_in_them(warm):
    tansu_bootstrap = warm
    source, sink = f"aiots-{uuid.uuid4().hex[:8]}", f"aiotk-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, source, 1)
    _peers.create_topic(tansu_bootstrap, sink, 1)
    _peers.produce_with_confluent(tansu_bootstrap, source, [(None, b"in-%d" % i) for i in range(5)])
    group = f"g-{uuid.uuid4().hex[:8]}"
    watch = LoopWatch()

    async def main():
        c = aio.AIOConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": group,
                             "enable.auto.commit": False})
        await c.assign([ck.TopicPartition(source, 0, ck.OFFSET_BEGINNING)])
        msgs = []
        deadline = time.monotonic() + 20
        while len(msgs) < 5 and time.monotonic() < deadline:
            msgs += await c.consume(5, 0.5)
        async with aio.AIOProducer({"bootstrap.servers": tansu_bootstrap,
                                    "transactional.id": f"tx-{uuid.uuid4().hex[:6]}"}) as p:
            await p.init_transactions(30)
            await p.begin_transaction()
            futures = [await p.produce(sink, m.value().replace(b"in", b"out")) for m in msgs]
            await p.send_offsets_to_transaction(await c.position(await c.assignment()),
                                                await c.consumer_group_metadata(), 30)
            await p.commit_transaction(30)
            assert all(f.done() and f.exception() is None for f in futures)
            await p.begin_transaction()
            await p.produce(sink, b"aborted")
            await p.abort_transaction(30)
        committed = await c.committed([ck.TopicPartition(source, 0)], 10)
        await c.close()
        return committed

    committed = watch.run(main())
    watch.check()
    assert committed[0].offset == 5
    rows = _peers.consume_with_confluent(tansu_bootstrap, sink, 5, timeout=20, isolation_level="read_committed")
    assert sorted(r[1] for r in rows) == [b"out-%d" % i for i in range(5)]


def test_async_serializing_twins(warm):
    tansu_bootstrap = warm
    topic = f"aios-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    watch = LoopWatch()

    async def upper(text, ctx):  # an asyncio serializer: awaited
        await asyncio.sleep(0)
        return text.upper().encode()

    async def main():
        p = await aio.AsyncSerializingProducer({"bootstrap.servers": tansu_bootstrap,
                                                "key.serializer": IntegerSerializer(), "value.serializer": upper})
        assert isinstance(p, aio.AIOProducer)
        futures = [await p.produce(topic, key=i, value=f"text {i}") for i in range(20)]
        await asyncio.gather(*futures)
        await p.close()
        c = await aio.AsyncDeserializingConsumer({"bootstrap.servers": tansu_bootstrap, "group.id": "g-" + topic,
                                                  "key.deserializer": IntegerDeserializer(),
                                                  "value.deserializer": StringDeserializer(),
                                                  "enable.partition.eof": True})
        await c.assign([ck.TopicPartition(topic, 0, ck.OFFSET_BEGINNING)])
        got, events = [], []
        deadline = time.monotonic() + 20
        while not events and time.monotonic() < deadline:
            for m in await c.consume(50, 0.5):
                (events if m.error() is not None else got).append(m)
        await c.close()
        return got, events

    got, events = watch.run(main())
    watch.check()
    assert [(m.deserialized_key(), m.deserialized_value()) for m in got] == [(i, f"TEXT {i}") for i in range(20)]
    assert events[0].error().code() == ck.KafkaError._PARTITION_EOF  # events come as they are
    rows = _peers.consume_with_confluent(tansu_bootstrap, topic, 20, timeout=20)
    assert [(int.from_bytes(r[0], "big"), r[1]) for r in rows] == [(i, f"TEXT {i}".encode()) for i in range(20)]
