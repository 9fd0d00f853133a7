"""kafkacodec: a fast, strict Apache Kafka wire and record codec.

Top-level primitives::

    crc32c(data, value=0)        CRC-32C (hardware when the CPU has it)
    crc32(data, value=0)         CRC-32 (zlib polynomial, legacy message sets)
    murmur2(data)                Kafka's murmur2 key hash (the Java client's Utils.murmur2)
    encode_varint / decode_varint, encode_varlong / decode_varlong,
    encode_uvarint / decode_uvarint
    accelerated                  True when the compiled extension is in use

Subpackages: ``kafkacodec.records`` (record batches), ``kafkacodec.protocol``
(request/response messages), ``kafkacodec.arrow`` (columnar decoding),
``kafkacodec.logdir`` (broker log directories), ``kafkacodec.spark``.
"""
from kafkacodec import _impl
from kafkacodec.errors import (  # noqa: F401
    CorruptDataError,
    KafkaCodecError,
)

__version__ = "0.1.0"

accelerated: bool = _impl.accelerated

crc32c = _impl.crc.crc32c
crc32 = _impl.crc.crc32
crc32c_implementation = _impl.crc.crc32c_implementation
murmur2 = _impl.crc.murmur2

encode_varint = _impl.buffer.encode_varint
decode_varint = _impl.buffer.decode_varint
encode_varlong = _impl.buffer.encode_varlong
decode_varlong = _impl.buffer.decode_varlong
encode_uvarint = _impl.buffer.encode_uvarint
decode_uvarint = _impl.buffer.decode_uvarint

__all__ = [
    "accelerated",
    "crc32c",
    "crc32",
    "crc32c_implementation",
    "murmur2",
    "encode_varint",
    "decode_varint",
    "encode_varlong",
    "decode_varlong",
    "encode_uvarint",
    "decode_uvarint",
    "KafkaCodecError",
    "CorruptDataError",
    "__version__",
]
