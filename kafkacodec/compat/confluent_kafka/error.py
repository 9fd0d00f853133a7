"""``confluent_kafka.error``'s names that the face has."""
from kafkacodec.compat.confluent_kafka._errors import KafkaError, KafkaException

__all__ = ["KafkaError", "KafkaException"]
