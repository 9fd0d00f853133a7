#!/usr/bin/env python
"""A producer in the shape of confluent-kafka-python's examples/producer.py, which flushes
but never closes its producer: once a first record is delivered, records without a key,
<gap ms> apart, then how many partitions those landed in.

    keyless_producer.py <bootstrap.servers> <topic> <count> <gap ms> [<setting>=<value>]...
"""
import sys
import time

from confluent_kafka import Producer


def main(broker, topic, count, gap_ms, settings):
    conf = {"bootstrap.servers": broker}
    conf.update(setting.split("=", 1) for setting in settings)
    p = Producer(conf)
    partitions = []

    def delivery_callback(err, msg):
        if err:
            sys.stderr.write("%% Message failed delivery: {}\n".format(err))
        else:
            partitions.append(msg.partition())

    p.produce(topic, "first")
    p.flush(30)  # the topic is known from here on, as in a producer that has been running
    for n in range(count):
        p.produce(topic, "record {}".format(n), callback=delivery_callback)
        p.poll(0)
        time.sleep(gap_ms / 1000)
    p.flush(30)
    print("{} delivered to {} partition(s)".format(len(partitions), "one" if len(set(partitions)) == 1 else "several"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5:])
