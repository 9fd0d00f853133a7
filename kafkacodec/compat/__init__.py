"""Faces of other Kafka clients over kafkacodec's client.

``kafkacodec.compat.confluent_kafka``: confluent-kafka's API (Producer, Consumer,
AdminClient, Message, KafkaError, ...), so that changing the import is the only edit.
"""
