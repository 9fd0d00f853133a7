"""``python -m kafkacodec.compat.confluent_kafka``: the librdkafka settings table."""
from kafkacodec.compat.confluent_kafka._config import describe

print(describe())
