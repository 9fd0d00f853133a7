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

if _impl.accelerated:
    from kafkacodec.records import _records as _backend
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    from kafkacodec._pure import records as _backend

iter_batches = _backend.iter_batches
decode_records = _backend.decode_records
filtered_batches = _backend.filtered_batches
build_control_batch = _backend.build_control_batch
build_batches = _backend.build_batches
RecordBatch = _backend.RecordBatch
Record = _backend.Record
RecordBatchBuilder = _backend.RecordBatchBuilder
BatchIterator = _backend.BatchIterator
CODEC_NAMES = _backend.CODEC_NAMES
CONTROL_ABORT = _backend.CONTROL_ABORT
CONTROL_COMMIT = _backend.CONTROL_COMMIT

__all__ = [
    "iter_batches",
    "decode_records",
    "filtered_batches",
    "build_control_batch",
    "build_batches",
    "RecordBatch",
    "Record",
    "RecordBatchBuilder",
    "BatchIterator",
    "CODEC_NAMES",
    "CONTROL_ABORT",
    "CONTROL_COMMIT",
]
