"""aiokafka programs in the style of its examples, run twice against one broker: with aiokafka and
with the face (only the module they take their names from differs); what they print must be the
same."""
import asyncio
import json
import uuid

import pytest

import _peers
from kafkacodec.compat import aiokafka as face

aiokafka = pytest.importorskip("aiokafka")
pytestmark = pytest.mark.timeout(120)


async def _produce(mod, bootstrap, topic, out):
    """JSON values with gzip, a partitioner of its own, and batches filled until full."""
    def by_key(key, all_partitions, available):
        return all_partitions[-1] if key == b"last" else all_partitions[0]

    producer = mod.AIOKafkaProducer(bootstrap_servers=bootstrap, compression_type="gzip", partitioner=by_key,
                                    value_serializer=lambda v: json.dumps(v).encode(),
                                    key_serializer=lambda k: k.encode())
    await producer.start()
    try:
        for i in range(9):
            fut = await producer.send(topic, {"n": i, "tags": ["x"] * (i % 3)}, key="last" if i % 3 else "first")
            md = await fut
            out.append(("sent", md.partition, md.offset))
        batch = producer.create_batch()
        appended = 0
        while batch.append(key="b", value={"b": appended}, timestamp=None) is not None:
            appended += 1
            if appended == 50:
                break
        out.append(("batch", appended, batch.record_count()))
        md = await (await producer.send_batch(batch, topic, partition=1))
        out.append(("batch sent", md.partition, md.offset))
        out.append(("partitions", sorted(await producer.partitions_for(topic))))
    finally:
        await producer.stop()


async def _consume(mod, bootstrap, topic, group, out):
    """A group member whose listener seeks to the beginning, reading with getmany until it has
    every record; keys and values deserialized."""
    consumer = mod.AIOKafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False,
                                    auto_offset_reset="none", session_timeout_ms=6000,
                                    key_deserializer=lambda k: k.decode() if k else "")

    class Listener(mod.ConsumerRebalanceListener):
        async def on_partitions_revoked(self, revoked):
            out.append(("revoked", sorted(tp.partition for tp in revoked)))

        async def on_partitions_assigned(self, assigned):
            out.append(("assigned", sorted(tp.partition for tp in assigned)))
            for tp in sorted(assigned):
                await consumer.seek_to_beginning(tp)

    await consumer.start()
    consumer.subscribe(topics=[topic], listener=Listener())
    try:
        got = 0
        while got < 59:
            for tp, msgs in sorted((await consumer.getmany(timeout_ms=1000)).items()):
                got += len(msgs)
                out.append(("got", tp.partition, [(m.offset, m.key, m.value[:12]) for m in msgs[:3]], len(msgs)))
        await consumer.commit()
        out.append(("committed", [await consumer.committed(mod.TopicPartition(topic, p)) for p in range(2)]))
    finally:
        await consumer.stop()


def test_example_style_programs_print_the_same(tansu_bootstrap):
    got = {}
    for name, mod in (("aiokafka", aiokafka), ("face", face)):
        topic, group = f"ex-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
        _peers.create_topic(tansu_bootstrap, topic, partitions=2)
        out = []
        asyncio.run(_produce(mod, tansu_bootstrap, topic, out))
        asyncio.run(_consume(mod, tansu_bootstrap, topic, group, out))
        got[name] = out
    assert got["face"] == got["aiokafka"]
    assert got["face"][-1] == ("committed", [3, 56])


async def _without_a_start_offset(mod, bootstrap, topic):
    """auto_offset_reset="none" and nothing committed: start() succeeds, getmany raises."""
    consumer = mod.AIOKafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="none")
    consumer.assign([mod.TopicPartition(topic, 0)])
    stages = []
    try:
        await consumer.start()
        stages.append("started")
        await consumer.getmany(timeout_ms=3000)
        stages.append("read")
    except mod.errors.NoOffsetForPartitionError as exc:
        stages.append(type(exc).__name__)
    finally:
        await consumer.stop()
    return stages


def test_no_offset_to_start_from_is_raised_where_aiokafka_raises_it(tansu_bootstrap):
    topic = f"none-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, partitions=1)
    got = {name: asyncio.run(_without_a_start_offset(mod, tansu_bootstrap, topic))
           for name, mod in (("aiokafka", aiokafka), ("face", face))}
    assert got["face"] == got["aiokafka"] == ["started", "NoOffsetForPartitionError"]
