#!/usr/bin/env python
"""A consumer program in the shape of confluent-kafka-python's examples/consumer.py:
subscribes, prints every message, stops once every partition reached its end.

    consumer.py <bootstrap.servers> <group> <expected messages> <topic>...
"""
import sys
import time

from confluent_kafka import Consumer, KafkaError, KafkaException, TopicPartition


def main(broker, group, expected, topics):
    conf = {"bootstrap.servers": broker, "group.id": group, "session.timeout.ms": 6000,
            "auto.offset.reset": "earliest", "enable.auto.offset.store": False,
            "enable.partition.eof": True}
    c = Consumer(conf)
    assigned = []

    def print_assignment(consumer, partitions):
        assigned.extend(partitions)
        print("Assignment:", sorted(p.partition for p in partitions))

    c.subscribe(topics, on_assign=print_assignment)
    count = 0
    at_end = set()
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline:
            msg = c.poll(timeout=1.0)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    print("%% {} [{}] reached end at offset {}".format(msg.topic(), msg.partition(), msg.offset()))
                    at_end.add(msg.partition())
                    if assigned and len(at_end) == len(assigned) and count >= expected:
                        break
                    continue
                raise KafkaException(msg.error())
            ts_type, ts = msg.timestamp()
            print("{} [{}] at offset {} with key {}: {} headers={} tstype={} ts>0={}".format(
                msg.topic(), msg.partition(), msg.offset(), msg.key(), msg.value(), msg.headers(), ts_type, ts > 0))
            c.store_offsets(msg)
            count += 1
        done = c.commit(asynchronous=False)
        print("Committed:", sorted((tp.partition, tp.offset) for tp in done))
        tps = [TopicPartition(topics[0], p.partition) for p in assigned]
        print("Position:", sorted((tp.partition, tp.offset) for tp in c.position(tps)))
        print("Committed offsets:", sorted((tp.partition, tp.offset) for tp in c.committed(tps, timeout=10)))
    finally:
        c.close()
    print("Consumed", count)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:])
