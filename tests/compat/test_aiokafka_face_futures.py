"""What send() returns, used as aiokafka programs use a future: awaited, gathered, waited on,
with a timeout, shielded, with callbacks, cancelled, asked for its result early.  One program,
run with aiokafka and with the face; what it observes must be the same."""
import asyncio
import uuid

import pytest

import _peers
from kafkacodec.compat import aiokafka as face

aiokafka = pytest.importorskip("aiokafka")
pytestmark = pytest.mark.timeout(120)


async def _program(mod, bootstrap, topic):
    seen = []
    producer = mod.AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=300,
                                    value_serializer=lambda v: v.encode())
    await producer.start()
    try:
        first = await producer.send_and_wait(topic, "first", partition=0)
        seen.append(("send_and_wait", first.topic == topic, first.partition, first.offset,
                     first.topic_partition == mod.TopicPartition(topic, 0)))

        # linger keeps the batch open: the future is not done yet
        pending = await producer.send(topic, "pending", partition=0)
        seen.append(("isfuture", asyncio.isfuture(pending), pending.done()))
        with pytest.raises(asyncio.InvalidStateError):
            pending.result()
        called = []
        pending.add_done_callback(lambda f: called.append(f.result().offset))
        gathered = [await producer.send(topic, f"g{i}", partition=i % 2) for i in range(6)]
        cancelled = await producer.send(topic, "cancelled", partition=1)
        cancelled.cancel()
        waited = await producer.send(topic, "waited", partition=0)
        shielded = await producer.send(topic, "shielded", partition=1)
        metas = await asyncio.gather(*gathered)
        seen.append(("gather", [(m.partition, m.offset) for m in metas]))
        done, left = await asyncio.wait([waited], timeout=10)
        seen.append(("wait", len(done), len(left), waited.result().offset))
        md = await asyncio.wait_for(asyncio.shield(shielded), 10)
        seen.append(("shield", md.partition, md.offset))
        md = await pending
        await asyncio.sleep(0)  # done callbacks run in the loop's next step
        seen.append(("callback", called, md.offset, pending.done(), pending.exception()))
        seen.append(("cancelled", cancelled.cancelled(), cancelled.done()))
        await producer.flush()
    finally:
        await producer.stop()
    return seen


def test_futures_of_send_behave_as_aiokafka_s(tansu_bootstrap):
    got = {}
    for name, mod in (("aiokafka", aiokafka), ("face", face)):
        topic = f"fut-{uuid.uuid4().hex[:8]}"
        _peers.create_topic(tansu_bootstrap, topic, partitions=2)
        got[name] = asyncio.run(_program(mod, tansu_bootstrap, topic))
    assert got["face"] == got["aiokafka"]
    assert ("gather", [(0, 2), (1, 0), (0, 3), (1, 1), (0, 4), (1, 2)]) in got["face"]


def test_the_cancelled_record_is_sent_and_its_batch_s_others_answered(tansu_bootstrap):
    """Cancelling one record's future stops only that wait: the batch's other records still
    get their answers and every record lands."""
    topic = f"fut-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, partitions=1)

    async def main():
        async with face.AIOKafkaProducer(bootstrap_servers=tansu_bootstrap, linger_ms=200) as p:
            futures = [await p.send(topic, b"%d" % i) for i in range(5)]
            waiter = asyncio.ensure_future(futures[2])
            await asyncio.sleep(0)
            waiter.cancel()
            metas = await asyncio.gather(*(futures[i] for i in (0, 1, 3, 4)))
            return [m.offset for m in metas], waiter.cancelled()

    offsets, cancelled = asyncio.run(main())
    assert offsets == [0, 1, 3, 4] and cancelled
