#!/usr/bin/env python
"""A producer program in the shape of confluent-kafka-python's examples/producer.py:
reads "key<TAB>value" lines from stdin and produces them, reporting each delivery.

    producer.py <bootstrap.servers> <topic> < lines
"""
import sys

from confluent_kafka import KafkaError, Producer


def main(broker, topic):
    conf = {"bootstrap.servers": broker,
            "queue.buffering.max.ms": 10,        # librdkafka names, as applications write them
            "compression.codec": "lz4",
            "queue.buffering.max.messages": 20,  # small, so the BufferError path runs
            "message.timeout.ms": 30000}
    p = Producer(**conf)

    def delivery_callback(err, msg):
        if err:
            sys.stdout.write("%% Message failed delivery: {} ({})\n".format(err.name(), err.code()))
        else:
            sys.stdout.write("%% Message delivered to {} [{}] @ {} key={} value={} tstype={}\n".format(
                msg.topic(), msg.partition(), msg.offset(), msg.key(), msg.value(), msg.timestamp()[0]))

    for n, line in enumerate(sys.stdin):
        key, _, value = line.rstrip("\n").partition("\t")
        while True:
            try:
                p.produce(topic, value, key=key, headers=[("n", str(n).encode())], callback=delivery_callback)
                break
            except BufferError:
                sys.stderr.write("%% Local producer queue is full ({} messages awaiting delivery): "
                                 "try again\n".format(len(p)))
                p.poll(1)
        p.poll(0)

    sys.stderr.write("%% Waiting for {} deliveries\n".format(len(p)))
    left = p.flush(30)
    sys.stdout.write("%% {} messages not delivered\n".format(left))
    assert KafkaError._MSG_TIMED_OUT == -192


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
