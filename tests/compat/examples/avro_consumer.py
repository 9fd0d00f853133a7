#!/usr/bin/env python
"""A consumer program in the shape of confluent-kafka-python's examples/avro_consumer.py: User objects
read with AvroDeserializer (from_dict), keys with StringDeserializer; stops after <count> records.

    avro_consumer.py <bootstrap.servers> <schema registry url> <group> <topic> <count>
"""
import sys
import time

from confluent_kafka import DeserializingConsumer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer
from confluent_kafka.serialization import StringDeserializer


class User:
    def __init__(self, name, favorite_number, favorite_color, scores):
        self.name = name
        self.favorite_number = favorite_number
        self.favorite_color = favorite_color
        self.scores = scores


def dict_to_user(obj, ctx):
    if obj is None:
        return None
    return User(obj["name"], obj["favorite_number"], obj["favorite_color"], obj["scores"])


def main(broker, registry_url, group, topic, count):
    registry = SchemaRegistryClient({"url": registry_url})
    consumer = DeserializingConsumer({"bootstrap.servers": broker, "group.id": group,
                                      "auto.offset.reset": "earliest",
                                      "key.deserializer": StringDeserializer("utf_8"),
                                      "value.deserializer": AvroDeserializer(registry, from_dict=dict_to_user)})
    consumer.subscribe([topic])
    seen = 0
    deadline = time.monotonic() + 90
    try:
        while seen < count and time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            user = msg.value()
            print("User record {}: name: {}\tfavorite_number: {}\tfavorite_color: {}\tscores: {}".format(
                msg.key(), user.name, user.favorite_number, user.favorite_color, sorted(user.scores.items())))
            seen += 1
    finally:
        consumer.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
