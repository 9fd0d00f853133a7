#!/usr/bin/env python
"""An asyncio program in the shape of confluent-kafka-python's examples/asyncio_example.py:
an AIOProducer produces keyed messages and awaits their delivery reports concurrently, then an
AIOConsumer reads them back from the beginning of each partition, both on one event loop.

    aio_roundtrip.py <bootstrap.servers> <topic> <count>
"""
import asyncio
import sys

from confluent_kafka import OFFSET_BEGINNING, TopicPartition
from confluent_kafka.aio import AIOConsumer, AIOProducer


async def produce(broker, topic, count):
    producer = AIOProducer({"bootstrap.servers": broker, "linger.ms": 5}, max_workers=2)
    try:
        futures = [await producer.produce(topic=topic, key=f"key-{i % 5}", value=f"value-{i}") for i in range(count)]
        await producer.flush()
        delivered = await asyncio.gather(*futures)
    finally:
        await producer.close()
    for msg in delivered:
        print("delivered {} [{}] key={} value={}".format(msg.topic(), msg.partition(), msg.key(), msg.value()))
    return {msg.partition() for msg in delivered}


async def consume(broker, topic, count, partitions):
    consumer = AIOConsumer({"bootstrap.servers": broker, "group.id": f"{topic}-reader",
                            "auto.offset.reset": "earliest", "enable.auto.commit": False}, max_workers=2)
    seen = []
    try:
        await consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in sorted(partitions)])
        while len(seen) < count:
            batch = await consumer.consume(num_messages=count - len(seen), timeout=5)
            if not batch:
                print("nothing in 5 s")
                break
            for msg in batch:
                if msg.error() is None:
                    seen.append((msg.partition(), msg.offset(), msg.key(), msg.value()))
    finally:
        await consumer.close()
    for partition, offset, key, value in sorted(seen):
        print("consumed [{}] @ {} key={} value={}".format(partition, offset, key, value))


async def main(broker, topic, count):
    partitions = await produce(broker, topic, count)
    await consume(broker, topic, count, partitions)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
