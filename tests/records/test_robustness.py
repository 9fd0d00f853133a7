"""Bad bytes: every truncated prefix and every single-byte corruption of real
batches ends cleanly or raises the codec's own error, never anything else."""
import struct

import pytest

from kafkacodec.errors import CorruptDataError, RecordLimitError
from kafkacodec.records import RecordBatchBuilder, build_control_batch, iter_batches


def consume(data, **kw):
    """Decode everything; returns (records, trailing bytes)."""
    it = iter_batches(data, **kw)
    out = []
    for b in it:
        out.extend((r.offset, r.key, r.value, r.headers) for r in b)
    return out, it.trailing_bytes


def sample_buffer():
    parts = []
    for i, codec in enumerate(["none", "gzip", "snappy", "lz4", "zstd"]):
        b = RecordBatchBuilder(compression=codec, base_offset=i * 10, producer_id=4, producer_epoch=0,
                               base_sequence=i * 10)
        for j in range(4):
            b.append(1000 + j, b"key%d" % j, b"value-%d-" % j + b"x" * j, headers=[("h", b"v"), ("n", None)])
        parts.append(b.build())
    parts.append(build_control_batch("COMMIT", producer_id=4, producer_epoch=0, base_offset=50))
    legacy = RecordBatchBuilder(1, "gzip", base_offset=60)
    legacy.append(5, b"k", b"legacy")
    parts.append(legacy.build())
    return b"".join(parts), [len(p) for p in parts]


def test_every_truncated_prefix_stops_cleanly():
    data, sizes = sample_buffer()
    full, trailing = consume(data)
    assert trailing == 0
    boundaries = [sum(sizes[:i]) for i in range(len(sizes) + 1)]
    for cut in range(len(data)):
        records, trailing = consume(data[:cut])
        whole = max(i for i, b in enumerate(boundaries) if b <= cut)
        # Only whole batches are decoded; the rest is reported as trailing.
        assert trailing == cut - boundaries[whole]
        assert records == full[:len(records)]


def test_every_single_byte_corruption_is_contained():
    data, _ = sample_buffer()
    for pos in range(len(data)):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(data)
            bad[pos] ^= flip
            try:
                consume(bytes(bad))
            except CorruptDataError as exc:
                assert exc.offset is None or 0 <= exc.offset <= len(data)
            # No other exception type may escape (pytest reports it as a failure).


def test_corruption_without_crc_check_is_contained():
    # With CRC checks off, corrupt lengths and varints reach the record parser.
    data, _ = sample_buffer()
    for pos in range(len(data)):
        bad = bytearray(data)
        bad[pos] = (bad[pos] + 0x41) & 0xFF
        try:
            consume(bytes(bad), verify_crc=False)
        except CorruptDataError:
            pass


def test_lying_record_count_does_not_allocate():
    b = RecordBatchBuilder()
    b.append(1, b"k", b"v")
    data = bytearray(b.build())
    struct.pack_into(">i", data, 57, 2**31 - 1)
    # Over the records-per-batch limit: refused as the batch is reached.
    with pytest.raises(RecordLimitError) as info:
        list(iter_batches(bytes(data), verify_crc=False))
    assert info.value.offset == 57 and info.value.path == "batches[0].record_count"
    # Within a raised limit, the count still has to fit the batch's bytes.
    (batch,) = iter_batches(bytes(data), verify_crc=False, max_records_per_batch=2**31 - 1)
    with pytest.raises(CorruptDataError) as info:
        batch.records()
    assert "does not fit" in str(info.value)


def test_lying_batch_length_is_trailing_not_allocation():
    b = RecordBatchBuilder()
    b.append(1, b"k", b"v")
    data = bytearray(b.build())
    struct.pack_into(">i", data, 8, 2**31 - 1)
    it = iter_batches(bytes(data))
    assert list(it) == [] and it.trailing_bytes == len(data)


def test_negative_lengths_and_unknown_magic():
    b = RecordBatchBuilder()
    b.append(1, b"k", b"v")
    data = bytearray(b.build())
    bad = bytearray(data)
    struct.pack_into(">i", bad, 8, -5)
    with pytest.raises(CorruptDataError):
        list(iter_batches(bytes(bad)))
    bad = bytearray(data)
    bad[16] = 7
    with pytest.raises(CorruptDataError) as info:
        list(iter_batches(bytes(bad)))
    assert info.value.path == "batches[0].magic" and info.value.offset == 16


def test_collector_never_clears_a_pinned_memoryview():
    # A reference cycle (an exception's traceback holding its frame) that
    # holds a memoryview and a decoder pinning that memoryview's buffer: the
    # collector used to clear the memoryview first, and releasing the pin
    # then crashed the process.
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import gc
        import kafkacodec
        import kafkacodec.records as r
        from kafkacodec._buffer import Reader
        data = b"".join(r.build_batches([(1, b"k", b"v")] * 10))

        def hold(view):
            it = r.iter_batches(view)
            batch = next(it)
            reader = Reader(view)
            try:
                raise ValueError("x")
            except ValueError as e:
                exc = e  # exc -> traceback -> this frame -> exc

        for _ in range(300):
            hold(memoryview(bytearray(data)))
        gc.collect()
        print("ok", kafkacodec.accelerated)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("ok"), (proc.returncode, proc.stderr[-2000:])
