# Stub for the compiled module kafkacodec/arrow/_encode.pyx.
from typing import Any

# The arrays are pyarrow arrays: timestamps int64 (ms, no nulls) or None,
# keys/values binary-like, headers None or list<struct<key, value>>; rows a
# C-contiguous int64 numpy array of row indices or None.
def encode_v2(
    timestamps: Any,
    keys: Any,
    values: Any,
    headers: Any | None,
    *,
    compression_id: int,
    compression_level: int | None,
    batch_size: int,
    base_offset: int,
    producer_id: int,
    producer_epoch: int,
    base_sequence: int,
    is_transactional: bool,
    partition_leader_epoch: int = -1,
    default_timestamp: int = -1,
    rows: Any | None = None,
    writable: bool = False,
) -> bytes | bytearray: ...
