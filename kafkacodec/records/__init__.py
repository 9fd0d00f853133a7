"""Kafka records: RecordBatch v2, legacy message sets (magic 0/1), compression,
read_committed filtering and a buffer pool for batch building.

    for batch in iter_batches(fetch_records):      # zero-copy views
        for record in batch:                       # Record: offset, timestamp, key, value, headers
            ...
    records = decode_records(data, isolation_level="read_committed",
                             aborted_transactions=[(producer_id, first_offset), ...])

    builder = RecordBatchBuilder(magic=2, compression="zstd", producer_id=..., ...)
    builder.append(timestamp_ms, b"key", b"value", headers=[("h", b"v")])
    batch_bytes = builder.build()
"""
from kafkacodec import _impl
from kafkacodec.records import _common

if _impl.accelerated:
    from kafkacodec.records._records import *  # noqa: F401,F403 - _common.PUBLIC_NAMES
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    from kafkacodec._pure.records import *  # noqa: F401,F403

__all__ = list(_common.PUBLIC_NAMES)
