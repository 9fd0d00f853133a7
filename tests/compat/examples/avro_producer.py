#!/usr/bin/env python
"""A producer program in the shape of confluent-kafka-python's examples/avro_producer.py: User objects
written with AvroSerializer (schema registered under <topic>-value), keys with StringSerializer.

    avro_producer.py <bootstrap.servers> <schema registry url> <topic> <count>
"""
import sys

from confluent_kafka import SerializingProducer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroSerializer
from confluent_kafka.serialization import StringSerializer

SCHEMA = """
{
  "namespace": "confluent.io.examples.serialization.avro",
  "name": "User",
  "type": "record",
  "fields": [
    {"name": "name", "type": "string"},
    {"name": "favorite_number", "type": ["null", "long"], "default": null},
    {"name": "favorite_color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}},
    {"name": "scores", "type": {"type": "map", "values": "double"}}
  ]
}
"""


class User:
    def __init__(self, name, favorite_number, favorite_color, scores):
        self.name = name
        self.favorite_number = favorite_number
        self.favorite_color = favorite_color
        self.scores = scores


def user_to_dict(user, ctx):
    return {"name": user.name, "favorite_number": user.favorite_number, "favorite_color": user.favorite_color,
            "scores": user.scores}


def main(broker, registry_url, topic, count):
    registry = SchemaRegistryClient({"url": registry_url})
    producer = SerializingProducer({"bootstrap.servers": broker, "key.serializer": StringSerializer("utf_8"),
                                    "value.serializer": AvroSerializer(registry, SCHEMA, user_to_dict)})
    delivered = []

    def report(err, msg):
        if err is not None:
            print("Delivery failed for User record {}: {}".format(msg.key(), err))
            return
        delivered.append(msg.key())

    for i in range(count):
        user = User(f"user-{i} ✓", None if i % 3 == 0 else i * 1000003, ["RED", "GREEN", "BLUE"][i % 3],
                    {f"s{j}": j / 4 for j in range(i % 4)})
        producer.produce(topic=topic, key=f"k{i}", value=user, on_delivery=report)
        producer.poll(0)
    producer.flush(60)
    print("Produced {} User records".format(len(delivered)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
