# Stub for the compiled module kafkacodec/compat/confluent_kafka/_message.pyx: the compiled
# twin of _types.Message, typed there.
from kafkacodec.compat.confluent_kafka._types import Message as Message
from kafkacodec.compat.confluent_kafka._types import messages_over as messages_over
