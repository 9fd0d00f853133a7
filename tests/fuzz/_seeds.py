"""Seed inputs for the fuzz targets: small valid buffers of every kind."""
from kafkacodec.records import RecordBatchBuilder, build_control_batch


def record_seeds():
    seeds = []
    for codec in ("none", "gzip", "snappy", "lz4", "zstd"):
        b = RecordBatchBuilder(compression=codec, producer_id=1, producer_epoch=0, base_sequence=0)
        b.append(1, b"k", b"v", headers=[("h", b"x")])
        b.append(2, None, b"value")
        seeds.append(b.build())
    for magic in (0, 1):
        for codec in ("none", "gzip", "snappy", "lz4"):
            b = RecordBatchBuilder(magic, codec, base_offset=5)
            b.append(3, b"key", b"val")
            b.append(4, None, None)
            seeds.append(b.build())
    seeds.append(build_control_batch("ABORT", producer_id=1, producer_epoch=0))
    seeds.append(b"".join(seeds[:3]))
    return seeds
