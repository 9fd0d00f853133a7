"""Drop-in adapters: kafkacodec decodes and builds the record batches of
kafka-python and aiokafka, without changes to application code.

    from kafkacodec.integrations import kafka_python, aiokafka
    kafka_python.install()     # kafka-python >= 3.0, < 4
    aiokafka.install()         # aiokafka >= 0.14, < 0.15
    ...
    kafka_python.uninstall()   # restores every patched name

Records, batches, exceptions and metadata keep the client's names, attributes
and exception types (kafka-python's CorruptRecordError, aiokafka's
CorruptRecordException).  On any other client version install() raises
UnsupportedClientVersion instead of patching.
"""
from kafkacodec.integrations._patch import UnsupportedClientVersion

__all__ = ["UnsupportedClientVersion"]
