"""The pure-Python record layer (kafkacodec._pure.records) against the
compiled one, in the same run: identical batches, records, errors (class,
offset, path) and builder bytes on the same inputs.  The last tests run a
subset of the record tests with KAFKACODEC_PURE=1, where kafkacodec.records
is the pure module."""
import os
import pathlib
import struct
import subprocess
import sys
import zlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kafkacodec import crc32c
from kafkacodec.errors import KafkaCodecError
import kafkacodec._pure.records as P

C = pytest.importorskip("kafkacodec.records._records", reason="compiled record layer not built")

ROOT = pathlib.Path(__file__).resolve().parents[2]
CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
IMPLS = pytest.mark.parametrize("mod", [C, P], ids=["c", "py"])

RECORD_ATTRS = ("offset", "timestamp", "timestamp_type", "key", "value", "headers", "leader_epoch", "size_in_bytes",
                "checksum", "is_control", "control_type", "control_version", "coordinator_epoch")
BATCH_ATTRS = ("magic", "base_offset", "last_offset", "partition_leader_epoch", "crc", "attributes",
               "base_timestamp", "max_timestamp", "producer_id", "producer_epoch", "base_sequence",
               "record_count", "size_in_bytes", "position", "index", "compression", "compression_id",
               "timestamp_type", "is_transactional", "is_control", "has_delete_horizon", "has_producer_id",
               "next_offset", "delete_horizon_ms")


# ---------------------------------------------------------------- what a decode shows

def error(exc):
    return (type(exc).__name__, str(exc), getattr(exc, "offset", None), getattr(exc, "path", None))


def rec_view(r):
    return tuple(getattr(r, a) for a in RECORD_ATTRS)


def batch_view(b):
    out = [getattr(b, a) for a in BATCH_ATTRS] + [len(b), bytes(b.raw()), repr(b)]
    try:
        out.append([rec_view(r) for r in b.records()])
        out.append(b.control_record())
    except KafkaCodecError as exc:
        out.append(error(exc))
    return tuple(out)


def walk(mod, data, **kw):
    """Everything iter_batches shows, including where and how it fails."""
    out = []
    try:
        it = mod.iter_batches(data, **kw)
        for b in it:
            out.append(batch_view(b))
        out.append(("trailing", it.trailing_bytes, it.position))
    except KafkaCodecError as exc:
        out.append(error(exc))
    return out


def consumed(mod, data, **kw):
    """decode_records / filtered_batches results (or their error)."""
    try:
        recs = [rec_view(r) for r in mod.decode_records(data, **kw)]
        batches = [b.position for b in mod.filtered_batches(data, **kw)]
        return recs, batches
    except ValueError as exc:  # KafkaCodecError, or a bad isolation level
        return error(exc)


def assert_same(data, **kw):
    got = walk(C, data, **kw)
    assert walk(P, data, **kw) == got
    return got


def assert_same_consumed(data, **kw):
    got = consumed(C, data, **kw)
    assert consumed(P, data, **kw) == got
    return got


# ---------------------------------------------------------------- builders

def build_both(records, *, magic=2, compression="none", **kw):
    """Build with both twins, checking append results and builder state as we go."""
    outs = []
    states = []
    for mod in (C, P):
        b = mod.RecordBatchBuilder(magic, compression, **kw)
        log = []
        for rec in records:
            log.append((b.append(*rec), b.size_in_bytes, b.record_count, b.is_full(), b.max_timestamp))
        outs.append(b.build())
        states.append(log)
    assert states[0] == states[1]
    assert outs[0] == outs[1]
    return outs[0]


def sample_records(n, headers=True):
    out = []
    for i in range(n):
        key = None if i % 7 == 3 else b"key-%d" % i
        value = None if i % 11 == 5 else b'{"n": %d, "pad": "%s"}' % (i, b"x" * (i % 40))
        hdrs = [("trace", b"t%d" % i), ("null", None), ("ünï", b"")] if headers and i % 3 == 0 else ()
        out.append((1_700_000_000_000 + (i * 37) % 1000 - 500, key, value, hdrs))
    return out


@pytest.mark.parametrize("codec", CODECS)
def test_v2_builders_identical_and_decode_identical(codec):
    recs = sample_records(120)
    for kw in (dict(),
               dict(base_offset=1000, producer_id=9, producer_epoch=3, base_sequence=17, partition_leader_epoch=5),
               dict(is_transactional=True, producer_id=1 << 40, producer_epoch=70000, base_sequence=2**31 - 5),
               dict(timestamp_type=1, log_append_time=1_800_000_000_000),
               dict(timestamp_type=1),
               dict(batch_size=700, compression_level=1 if codec in ("gzip", "zstd") else None)):
        data = build_both(recs, compression=codec, **kw)
        assert_same(data)
        assert_same(data, verify_crc=False)
        assert_same_consumed(data)


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", CODECS[:4] + ["zstd"])
def test_legacy_builders_identical_and_decode_identical(magic, codec):
    if magic == 0 and codec == "zstd":
        for mod in (C, P):
            with pytest.raises(KafkaCodecError):
                mod.RecordBatchBuilder(0, "zstd")
        return
    recs = [r[:3] for r in sample_records(40, headers=False)]
    for kw in (dict(), dict(base_offset=5000), dict(timestamp_type=1, log_append_time=123456), dict(batch_size=400)):
        data = build_both(recs, magic=magic, compression=codec, **kw)
        assert_same(data)
        assert_same_consumed(data)


def test_empty_and_edge_builders():
    assert build_both([]) == build_both([], compression="zstd")
    assert build_both([], magic=1) == b""
    build_both([(0, b"", b"")])
    build_both([(-5, b"k", b"v"), (2**40, b"k", b"v"), (-(2**40), None, None)])
    build_both([(1, bytearray(b"ba"), memoryview(b"mv"), [(b"bk", bytearray(b"bv"))])])
    build_both([(1, b"k", b"x" * 500), (1, b"k", b"x")], batch_size=200)
    build_both([(1, b"k", b"v")], producer_id=-1, is_control=True)


def test_build_batches_and_append_many_identical():
    recs = sample_records(300)
    for kw in (dict(), dict(compression="lz4", batch_size=1000, base_offset=77, producer_id=4, producer_epoch=1,
                            base_sequence=10),
               dict(magic=1, compression="gzip", batch_size=900)):
        rs = recs if kw.get("magic", 2) == 2 else [r[:3] for r in recs]
        got = C.build_batches(rs, **kw)
        assert P.build_batches(iter(rs), **kw) == got
        assert len(got) > 1 or not kw
        assert_same(b"".join(got))
    assert P.build_batches([]) == C.build_batches([])
    for mod in (C, P):
        b = mod.RecordBatchBuilder(batch_size=1500)
        added = b.append_many(r[:3] for r in recs)
        assert 0 < added < len(recs)
    built = []
    for mod in (C, P):
        b = mod.RecordBatchBuilder(batch_size=1500)
        b.append_many([r[:3] for r in recs])
        built.append(b.build())
    assert built[0] == built[1]


def test_control_batches_identical():
    for ctype in ("COMMIT", "ABORT", "commit", "abort", 0, 1):
        kw = dict(producer_id=77, producer_epoch=2, base_offset=9, timestamp=123, coordinator_epoch=-3,
                  partition_leader_epoch=4)
        data = C.build_control_batch(ctype, **kw)
        assert P.build_control_batch(ctype, **kw) == data
        (view,) = [v for v in assert_same(data) if v[0] != "trailing"]
    for mod in (C, P):
        with pytest.raises(ValueError):
            mod.build_control_batch("MAYBE", producer_id=1, producer_epoch=0)


def test_builder_errors_identical():
    def outcome(mod, make, *calls):
        try:
            b = make(mod)
            for name, args in calls:
                getattr(b, name)(*args)
            return "ok"
        except Exception as exc:  # the same class and message on both sides
            return (type(exc).__name__, str(exc)) if isinstance(exc, KafkaCodecError) else type(exc).__name__

    cases = [
        (lambda m: m.RecordBatchBuilder(3), ()),
        (lambda m: m.RecordBatchBuilder(2, "brotli"), ()),
        (lambda m: m.RecordBatchBuilder(timestamp_type=2), ()),
        (lambda m: m.RecordBatchBuilder(1, producer_id=5), ()),
        (lambda m: m.RecordBatchBuilder(base_offset=2**63), ()),
        (lambda m: m.RecordBatchBuilder(), ("append", (1, "text", b"v"))),
        (lambda m: m.RecordBatchBuilder(), ("append", (1, b"k", 5))),
        (lambda m: m.RecordBatchBuilder(), ("append", (1.5, b"k", b"v")), ("build", ())),
        (lambda m: m.RecordBatchBuilder(), ("append", ("1", b"k", b"v"))),
        (lambda m: m.RecordBatchBuilder(base_offset=2.7, max_block_seconds=1), ("build", ())),
        (lambda m: m.RecordBatchBuilder(max_block_seconds="1"), ()),
        (lambda m: m.RecordBatchBuilder(), ("append", (2**63, b"k", b"v"))),
        (lambda m: m.RecordBatchBuilder(), ("append", (1, b"k", b"v", [("a",)]))),
        (lambda m: m.RecordBatchBuilder(), ("append", (1, b"k", b"v", [(5, b"x")]))),
        (lambda m: m.RecordBatchBuilder(), ("append", (1, b"k", b"v", [("a", "str")]))),
        (lambda m: m.RecordBatchBuilder(), ("append_many", ([(1, b"k")],))),
        (lambda m: m.RecordBatchBuilder(1), ("append", (1, b"k", b"v", [("a", b"b")]))),
        (lambda m: m.RecordBatchBuilder(), ("build", ()), ("build", ())),
        (lambda m: m.RecordBatchBuilder(), ("build", ()), ("append", (1, b"k", b"v"))),
        (lambda m: m.RecordBatchBuilder(), ("close", ()), ("append_many", ([],))),
    ]
    for i, (make, *calls) in enumerate(cases):
        assert (i, outcome(P, make, *calls)) == (i, outcome(C, make, *calls))


def test_builders_draw_from_a_pool():
    from kafkacodec.records.pool import BufferPool
    for mod in (C, P):
        pool = BufferPool(4096, 1024)
        b = mod.RecordBatchBuilder(batch_size=1024, pool=pool)
        assert pool.available_memory == 3072
        b.append(1, b"k", b"v")
        b.build()
        assert pool.available_memory == 4096
        b = mod.RecordBatchBuilder(batch_size=1024, pool=pool, max_block_seconds=0.01)
        b.close()
        assert pool.available_memory == 4096


def test_records_pickle_and_compare_alike():
    import pickle
    data = build_both(sample_records(5), producer_id=1)
    for mod in (C, P):
        recs = mod.decode_records(data)
        back = pickle.loads(pickle.dumps(recs))
        assert back == recs and type(back[0]) is mod.Record
        assert [hash(r) for r in back] == [hash(r) for r in recs]
        assert [repr(r) for r in recs] == [repr(r) for r in C.decode_records(data)]
        with pytest.raises(AttributeError):
            recs[0].key = b"x"
        (batch,) = mod.iter_batches(data)
        with pytest.raises(AttributeError):
            batch.base_offset = 5
    assert P.decode_records(data) != C.decode_records(data)   # different classes never compare equal


@IMPLS
def test_records_of_a_record_class(mod):
    """record_class: the records are instances of the subclass, their Record fields filled by the
    decoder (its __init__ not called), whatever the subclass names its own attributes; every kind
    of entry (v2 of each codec, legacy) and both isolation levels."""
    made = []

    class Row(mod.Record):
        def __init__(self):
            made.append(self)

        def offset(self):  # a method where Record has a field: the decoder fills the field all the same
            return "method"

    field = vars(mod.Record)["offset"].__get__
    data = b"".join(mixed_buffer())
    for level, aborted in (("read_uncommitted", None), ("read_committed", [(4, 10)])):
        plain = mod.decode_records(data, isolation_level=level, aborted_transactions=aborted, topic="t", partition=3)
        rows = mod.decode_records(data, isolation_level=level, aborted_transactions=aborted, topic="t", partition=3,
                                  record_class=Row)
        assert [type(r) for r in rows] == [Row] * len(plain) and not made
        assert [field(r) for r in rows] == [r.offset for r in plain]
        assert [(r.key, r.value, r.headers, r.timestamp, r.topic, r.partition) for r in rows] == \
            [(r.key, r.value, r.headers, r.timestamp, r.topic, r.partition) for r in plain]
        assert rows[0].offset() == "method"
    for b in mod.iter_batches(data):
        assert [field(r) for r in b.records(record_class=Row)] == [r.offset for r in b.records()]
        assert b.records(record_class=mod.Record) == b.records(record_class=None) == b.records()
    for bad in (int, "Record", C.Record if mod is P else P.Record):
        with pytest.raises(TypeError, match="record_class: expected Record or a subclass"):
            mod.decode_records(data, record_class=bad)


def test_compiled_record_class_records_stay_out_of_the_collector():
    """A compiled subclass's records are made untracked (as Records are: nothing a decoder puts in
    them makes a cycle); a Python subclass's stay tracked, as it may hold anything."""
    import gc
    from kafkacodec.compat.confluent_kafka._message import Message

    class Row(C.Record):
        pass

    data = build_both(sample_records(3))
    assert not any(gc.is_tracked(m) for m in C.decode_records(data, record_class=Message))
    assert all(gc.is_tracked(r) for r in C.decode_records(data, record_class=Row))
    assert not any(gc.is_tracked(r) for r in C.decode_records(data))


# ---------------------------------------------------------------- decoding inputs

def mixed_buffer():
    """Every kind of entry, in one buffer: v2 with each codec, control, legacy."""
    parts = []
    for i, codec in enumerate(CODECS):
        parts.append(build_both(sample_records(6), compression=codec, base_offset=i * 10, producer_id=4,
                                producer_epoch=0, base_sequence=i * 10, is_transactional=i % 2 == 1))
    parts.append(C.build_control_batch("ABORT", producer_id=4, producer_epoch=0, base_offset=50, timestamp=5))
    parts.append(C.build_control_batch("COMMIT", producer_id=4, producer_epoch=0, base_offset=51, timestamp=5))
    for magic, codec in ((0, "none"), (0, "lz4"), (1, "gzip"), (1, "snappy"), (1, "none")):
        parts.append(build_both([(5, b"k", b"legacy"), (6, None, b"x")], magic=magic, compression=codec,
                                base_offset=60 + 2 * len(parts), timestamp_type=1 if magic else 0,
                                log_append_time=99 if magic else None))
    return parts


def test_mixed_buffer_and_read_committed():
    parts = mixed_buffer()
    data = b"".join(parts)
    assert_same(data)
    assert_same(bytearray(data))
    assert_same(memoryview(data))
    for level in ("read_uncommitted", "read_committed", 0, 1):
        for aborted in ((), [(4, 0)], [(4, 10), (9, 0)], [{"producer_id": 4, "first_offset": 20}]):
            assert_same_consumed(data, isolation_level=level, aborted_transactions=aborted)
    assert_same_consumed(data, isolation_level="serializable")


def test_log_samples_identical(shared_dir):
    root = shared_dir / "kafka-log-samples"
    if not root.is_dir():
        pytest.skip("log samples not present")
    files = [p for p in sorted(root.rglob("*")) if p.suffix in (".log", ".bin") and p.stat().st_size]
    assert files
    for path in files:
        # a prefix of the big segments: the pure CRC is slow, and a cut shows the trailing bytes
        data = path.read_bytes()[:150_000]
        assert_same(data)
        assert_same_consumed(data, isolation_level="read_committed")


@pytest.mark.parametrize("name", ["W1", "W2", "W3", "W4", "W5", "W6", "W7"])
def test_bench_workloads_identical(name):
    pytest.importorskip("aiokafka")
    sys.path.insert(0, str(ROOT))
    try:
        from bench import workloads
    finally:
        sys.path.remove(str(ROOT))
    w = workloads.load(name, scale=0.0005 if name != "W2" else 0.002, cache=False)
    assert_same(w.data)
    (recs, _), = [assert_same_consumed(w.data)]
    assert [(r[0], r[1], r[3], r[4]) for r in recs] == [
        (i, ts if w.magic == 2 or i not in _magic0_offsets(w) else -1, k, v)
        for i, (ts, k, v, _) in enumerate(w.records)]
    # the twins rebuild the workload's records identically
    rs = [(ts, k, v, h) if w.magic == 2 else (ts, k, v) for ts, k, v, h in w.records]
    kw = dict(magic=w.magic if w.magic == 2 else 1, compression=w.compression, batch_size=w.batch_size)
    assert P.build_batches(rs, **kw) == C.build_batches(rs, **kw)


def _magic0_offsets(w):
    out, start = set(), 0
    for count, magic in zip(w.batch_counts, w.batch_magic):
        if magic == 0:
            out.update(range(start, start + count))
        start += count
    return out


def aiokafka_legacy(magic, codec_id, count=5, log_append=False):
    legacy = pytest.importorskip("aiokafka.record.legacy_records")
    b = legacy.LegacyRecordBatchBuilder(magic, codec_id, 1 << 20)
    for i in range(count):
        b.append(i, 1000 + i if magic else None, b"k%d" % i, b"v%d" % i * 10)
    data = bytearray(b.build())
    if log_append and magic == 1:
        data[17] |= 0x08  # wrapper attributes: log-append time; fix the CRC
        struct.pack_into(">I", data, 12, zlib.crc32(bytes(data[16:])))
    return bytes(data)


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec_id", [0, 1, 2, 3])
def test_foreign_legacy_wrappers_identical(magic, codec_id):
    if magic == 0 and codec_id == 3:
        pytest.skip("aiokafka refuses LZ4 with magic 0")
    for log_append in (False, True):
        data = aiokafka_legacy(magic, codec_id, log_append=log_append)
        # relative (magic 1) inner offsets resolve against the wrapper offset
        shifted = struct.pack(">q", 1000) + data[8:]
        assert_same(data + shifted)
        assert_same_consumed(shifted)


# ---------------------------------------------------------------- corrupt and truncated input

def small_buffer():
    parts = mixed_buffer()
    return b"".join(parts[:1] + parts[2:3] + parts[5:6] + parts[-3:-1]), parts


def test_every_truncated_prefix_identical():
    data, _ = small_buffer()
    for cut in range(len(data) + 1):
        assert_same(data[:cut])


def test_every_single_byte_corruption_identical():
    data, _ = small_buffer()
    for pos in range(len(data)):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(data)
            bad[pos] ^= flip
            assert_same(bytes(bad))


def test_corruption_without_crc_identical():
    # With CRC checks off, corrupt lengths and varints reach the record parsers.
    data, _ = small_buffer()
    for pos in range(len(data)):
        for delta in (0x41, 0x01, 0x7F):
            bad = bytearray(data)
            bad[pos] = (bad[pos] + delta) & 0xFF
            assert_same(bytes(bad), verify_crc=False)
            assert_same_consumed(bytes(bad), verify_crc=False, isolation_level="read_committed")


def fix_v2_crc(data, start=0):
    data[start + 17:start + 21] = crc32c(bytes(data[start + 21:])).to_bytes(4, "big")
    return bytes(data)


def test_record_field_errors_identical_with_valid_crc():
    """Corrupt each byte of an uncompressed v2 batch and fix its CRC, so the
    record parser (not the checksum) reports: field paths must agree."""
    good = bytearray(build_both(sample_records(4), base_offset=3))
    seen = set()
    for pos in range(61, len(good)):
        for value in (0x00, 0x01, 0x7E, 0x7F, 0x80, 0xFF):
            bad = bytearray(good)
            bad[pos] = value
            data = fix_v2_crc(bad)
            got = assert_same(data)
            for item in got:
                if item and isinstance(item[-1], tuple) and item[-1] and item[-1][0] == "CorruptDataError":
                    seen.add(item[-1][3].split("[", 2)[-1].split(".", 1)[-1])
    # the sweep reaches the key, value, headers and length fields
    assert {"key", "value", "length"} <= seen


def recompress(batch, codec):
    """A v2 batch with its (possibly corrupt) records section compressed."""
    from kafkacodec.records import compression
    out = bytearray(batch[:61]) + compression.compress(codec, batch[61:])
    attrs = struct.unpack_from(">h", out, 21)[0]
    struct.pack_into(">hi", out, 21, attrs | compression.codec_id(codec), struct.unpack_from(">i", out, 23)[0])
    struct.pack_into(">i", out, 8, len(out) - 12)
    return fix_v2_crc(out)


@pytest.mark.parametrize("codec", ["gzip", "zstd"])
def test_record_errors_inside_compressed_payloads_identical(codec):
    good = bytearray(build_both(sample_records(3), base_offset=3))
    prefix = build_both([(1, b"a", b"b")])
    for pos in range(61, len(good)):
        for value in (0x00, 0x7F, 0xFF):
            bad = bytearray(good)
            bad[pos] = value
            assert_same(prefix + recompress(bytes(bad), codec))
    # the record count says more than the payload holds
    bad = bytearray(good)
    struct.pack_into(">i", bad, 57, 400)
    assert_same(recompress(bytes(bad), codec))


def test_lying_counts_and_lengths_identical():
    good = build_both([(1, b"k", b"v")])
    for offset, fmt, value in ((57, ">i", 2**31 - 1), (57, ">i", -1), (57, ">i", 0), (57, ">i", 2),
                               (8, ">i", 2**31 - 1), (8, ">i", -5), (8, ">i", 30), (23, ">i", -1),
                               (21, ">h", 7), (21, ">h", -1), (16, ">b", 7), (16, ">b", -3), (0, ">q", 2**63 - 1)):
        bad = bytearray(good)
        struct.pack_into(fmt, bad, offset, value)
        for verify in (True, False):
            assert_same(bytes(bad), verify_crc=verify)
            assert_same(fix_v2_crc(bytearray(bad)) if offset >= 21 else bytes(bad), verify_crc=verify)


def test_decompression_limit_and_bad_payloads_identical():
    for codec in CODECS[1:]:
        data = build_both([(1, b"k", b"x" * 5000)], compression=codec)
        assert_same(data, max_decompressed_size=100)
        assert_same(data, max_decompressed_size=10**6)
        bad = bytearray(data)
        bad[70:80] = b"\xAA" * 10
        assert_same(fix_v2_crc(bad))
        wrapper = build_both([(1, b"k", b"x" * 5000)], magic=1, compression=codec)
        assert_same(wrapper, max_decompressed_size=100)


def _lz4_frame_variants(frame):
    """Frames that the compiled decoders' own frame walk must judge as the
    pure one does: header flags, block sizes, end marks, trailing bytes."""
    from kafkacodec.records.compression import _xxh32_hc

    def descriptor(flg, bd):  # a frame header with these flags and a valid header checksum
        end = 6 + (8 if flg & 0x08 else 0) + (4 if flg & 0x01 else 0)
        head = frame[:4] + bytes([flg, bd]) + frame[6:end]
        return head + bytes([_xxh32_hc(head[4:])]) + frame[end + 1:]

    flg, bd = frame[4], frame[5]
    at = 7 + (8 if flg & 0x08 else 0)                   # the first block's size
    size = struct.unpack_from("<I", frame, at)[0]
    yield frame
    yield frame[:-1]                                    # end mark cut
    yield frame[:-6]                                    # inside the last block
    yield frame + frame                                 # two frames
    yield frame + b"\x00"                               # a byte after the end mark
    yield descriptor(flg | 0x10, bd)                    # block checksums claimed, absent
    yield descriptor(flg ^ 0x04, bd)                    # content checksum flag flipped
    yield descriptor(flg, 0x30)                         # block maximum id 3 (reserved)
    yield descriptor(flg, 0x70)                         # 4 MiB blocks
    yield descriptor(flg, 0x40)                         # 64 KiB blocks
    yield frame[:4] + bytes([flg ^ 0x20]) + frame[5:]   # header checksum now wrong
    yield b"\x05" + frame[1:]                            # not the frame magic
    yield frame[:7]                                     # header only
    yield frame[:at] + struct.pack("<I", size + 9) + frame[at + 4:]              # block longer than the frame
    yield frame[:at] + struct.pack("<I", 0x80000000 | size) + frame[at + 4:]     # stored, not compressed


@pytest.mark.parametrize("limit", [None, 100, 5_000_000])
def test_lz4_frames_walked_in_c_judged_as_the_pure_decoder_does(limit):
    """The compiled decoders bound an lz4 frame from its block headers in C
    before one library call; every frame they would pass or refuse, the pure
    decoder passes or refuses alike, and the Arrow decoder agrees."""
    import kafkacodec.arrow as ka
    records = [(i, b"k%d" % i, b"value-%d-" % i + b"x" * (i % 300)) for i in range(400)]
    good = build_both(records, compression="lz4")
    frame = good[61:]
    seen = set()
    for variant in _lz4_frame_variants(frame):
        data = bytearray(good[:61] + variant)
        struct.pack_into(">i", data, 8, len(data) - 12)
        data = fix_v2_crc(data)
        assert_same(data, max_decompressed_size=limit)
        got = assert_same_consumed(data, max_decompressed_size=limit)
        try:
            arrow = ka.decode(data, max_decompressed_size=limit).column("value").to_pylist()
        except KafkaCodecError as exc:
            arrow = error(exc)
            arrow = (arrow[0], arrow[2], arrow[3])  # class, offset, path (the wording differs)
        assert arrow == ([r[4] for r in got[0]] if len(got) == 2 else (got[0], got[2], got[3]))
        seen.add("rows" if len(got) == 2 else got[0])
    assert "DecompressionError" in seen
    assert ("rows" in seen) == (limit != 100) and ("DecompressionLimitError" in seen) == (limit == 100)


def test_legacy_structure_errors_identical():
    # the legacy error offsets are checked where the entry is the first of
    # its buffer (see test_legacy_null_wrapper_value_offset)
    inner = build_both([(5, b"k", b"v"), (6, b"k2", b"v2")], magic=1)
    nested = build_both([(5, b"k", b"v")], magic=1, compression="gzip")
    cases = []
    for payload in (inner, inner[:-3], nested, b"", inner + b"\x00" * 5, inner.replace(b"\x01", b"\x00", 1)):
        # a gzip wrapper around the payload, built by hand
        c = zlib.compressobj(6, zlib.DEFLATED, 31)
        body = c.compress(payload) + c.flush()
        msg = struct.pack(">bbqi", 1, 1, 5, -1) + struct.pack(">i", len(body)) + body
        entry = struct.pack(">qi", 10, len(msg) + 4) + struct.pack(">I", zlib.crc32(msg)) + msg
        cases.append(entry)
    for entry in cases:
        assert_same(entry)
        assert_same(entry, verify_crc=False)


def test_legacy_null_wrapper_value_offset():
    """A compressed wrapper with a null value: the offset is that of the value
    length field, also for entries further in the buffer."""
    msg = struct.pack(">bbqii", 1, 1, 5, -1, -1)
    entry = struct.pack(">qi", 10, len(msg) + 4) + struct.pack(">I", zlib.crc32(msg)) + msg
    got = assert_same(entry)
    assert got[0][2:] == (30, "batches[0].value")
    first = build_both([(1, b"k", b"v")], magic=1)
    got = assert_same(first + entry)
    assert got[1][2:] == (len(first) + 30, "batches[1].value")


# ---------------------------------------------------------------- random records (Hypothesis)

# bytes header keys may be invalid UTF-8: they decode to surrogate escapes
header_st = st.tuples(st.one_of(st.text(max_size=8), st.binary(max_size=8)),
                      st.one_of(st.none(), st.binary(max_size=16)))
record_st = st.tuples(
    st.integers(min_value=-(2**45), max_value=2**45),
    st.one_of(st.none(), st.binary(max_size=40)),
    st.one_of(st.none(), st.binary(max_size=200)),
    st.lists(header_st, max_size=3),
)


v2_options_st = st.fixed_dictionaries({}, optional={
    "producer_id": st.integers(min_value=-1, max_value=2**63 - 1),
    "producer_epoch": st.integers(min_value=-1, max_value=2**15 - 1),
    "base_sequence": st.integers(min_value=-1, max_value=2**31 - 1),
    "is_transactional": st.booleans(),
    "partition_leader_epoch": st.integers(min_value=-1, max_value=2**31 - 1),
    "timestamp_type": st.sampled_from([0, 1]),
    "log_append_time": st.integers(min_value=0, max_value=2**45),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records=st.lists(record_st, max_size=25), codec=st.sampled_from(CODECS),
       magic=st.sampled_from([2, 2, 2, 1, 0]), batch_size=st.sampled_from([300, 4096, 1 << 20]),
       base_offset=st.integers(min_value=0, max_value=2**40), options=v2_options_st)
def test_random_records_identical(records, codec, magic, batch_size, base_offset, options):
    if magic == 0 and codec == "zstd":
        codec = "none"
    if magic < 2:
        records = [r[:3] for r in records]
        options = {k: v for k, v in options.items() if k in ("timestamp_type", "log_append_time")}
    kw = dict(magic=magic, compression=codec, batch_size=batch_size, base_offset=base_offset, **options)
    data = b"".join(C.build_batches(records, **kw))
    assert b"".join(P.build_batches(records, **kw)) == data
    got = assert_same(data)
    for level in ("read_uncommitted", "read_committed"):
        assert_same_consumed(data, isolation_level=level, aborted_transactions=[(options.get("producer_id", -1), 0)])
    decoded = [r for b in got[:-1] for r in b[-2]]
    assert [(r[0] - base_offset, r[3], r[4]) for r in decoded] == [
        (i, k, v) for i, (_, k, v, *_) in enumerate(records)]


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=200), verify=st.booleans())
def test_random_bytes_identical(data, verify):
    assert_same(data, verify_crc=verify)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_mutations_identical(data):
    base, _ = small_buffer()
    buf = bytearray(base)
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(buf) - 1))
        buf[pos] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(buf)))
    assert_same(bytes(buf[:cut]), verify_crc=False)


# ---------------------------------------------------------------- pure mode in a subprocess

def run_pure(*args):
    env = dict(os.environ, KAFKACODEC_PURE="1")
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=240)


def test_pure_mode_selects_the_pure_record_layer():
    proc = run_pure("-c", "import kafkacodec, kafkacodec.records as r; "
                          "print(kafkacodec.accelerated, r.iter_batches.__module__, r.RecordBatch.__module__)")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "kafkacodec._pure.records", "kafkacodec._pure.records"]


def test_record_tests_pass_in_pure_mode():
    proc = run_pure("-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not broker",
                    "tests/records/test_v2.py", "tests/records/test_legacy.py",
                    "tests/records/test_read_committed.py", "tests/records/test_robustness.py",
                    "tests/records/test_buffer_pool.py")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout


@pytest.mark.parametrize("base_offset", [2**63 - 1, 2**63 - 2**31 + 1, -(2**63), -(2**63) + 2**31 - 1])
def test_v2_base_offsets_out_of_range_are_the_same_corrupt_data(base_offset):
    data = bytearray(build_both([(1, b"k", b"v"), (2, b"k", b"v")]))
    data[0:8] = base_offset.to_bytes(8, "big", signed=True)
    got = assert_same_consumed(fix_v2_crc(data))
    assert got[0] == "CorruptDataError" and got[3] == "batches[0].base_offset"
    # the edge itself is a valid offset
    edge = 2**63 - 2**31
    data[0:8] = edge.to_bytes(8, "big", signed=True)
    recs, _ = assert_same_consumed(fix_v2_crc(data))
    assert [r[0] for r in recs] == [edge, edge + 1]


@pytest.mark.parametrize("wrapper_offset", [2**63 - 1, -5, -(2**63)])
def test_magic1_inner_offsets_out_of_range_are_the_same_corrupt_data(wrapper_offset):
    # Inner offsets 0, 2**62, 2**63 - 1 of a gzip wrapper: made absolute
    # from the wrapper's offset they leave int64 (or, for 2**63 - 1, fit).
    def message(offset, value):
        body = bytes([1, 0]) + struct.pack(">q", 5) + struct.pack(">i", -1) + struct.pack(">i", len(value)) + value
        msg = struct.pack(">I", zlib.crc32(body)) + body
        return struct.pack(">qi", offset, len(msg)) + msg
    inner = message(0, b"a") + message(2**62, b"b") + message(2**63 - 1, b"c")
    from kafkacodec.records import compression
    payload = compression.compress("gzip", inner)
    body = bytes([1, 1]) + struct.pack(">q", 5) + struct.pack(">i", -1) + struct.pack(">i", len(payload)) + payload
    msg = struct.pack(">I", zlib.crc32(body)) + body
    data = struct.pack(">qi", wrapper_offset, len(msg)) + msg
    got = assert_same_consumed(data)
    if wrapper_offset == 2**63 - 1:
        recs, _ = got
        assert [r[0] for r in recs] == [0, 2**62, 2**63 - 1]
    else:
        assert got[0] == "CorruptDataError" and "out of the 64-bit range" in got[1], got


@pytest.mark.parametrize("magic,codec", [(2, "none"), (2, "lz4"), (1, "gzip"), (0, "none")])
def test_records_carry_topic_and_partition_when_told(magic, codec):
    import pickle

    data = build_both([(1, b"k", b"v"), (2, None, b"w")], magic=magic, compression=codec)
    for mod in (C, P):
        plain = mod.decode_records(data)
        assert [(r.topic, r.partition) for r in plain] == [(None, None)] * 2
        told = mod.decode_records(data, topic="events", partition=7)
        assert [(r.topic, r.partition, r.value) for r in told] == [("events", 7, b"v"), ("events", 7, b"w")]
        again = pickle.loads(pickle.dumps(told[0]))
        assert (again.topic, again.partition, again.offset) == ("events", 7, told[0].offset)
        committed = mod.decode_records(data, topic="events", partition=7, isolation_level="read_committed",
                                       aborted_transactions=[])
        assert [(r.topic, r.partition) for r in committed] == [("events", 7)] * 2


def test_build_batches_wraps_the_sequence_past_int32():
    """Each batch's base sequence follows the one before, wrapping to 0 after
    2**31 - 1 as Kafka's producer does (found by test_random_records_identical)."""
    records = [(0, None, b"x" * 20)] * 60
    for mod in (C, P):
        batches = mod.build_batches(records, batch_size=300, base_sequence=2**31 - 20, producer_id=1,
                                    producer_epoch=0)
        assert len(batches) > 1
        seqs, counts = [], []
        for data in batches:
            (b,) = list(mod.iter_batches(data))
            seqs.append(b.base_sequence)
            counts.append(b.record_count)
        want = [2**31 - 20]
        for c in counts[:-1]:
            want.append((want[-1] + c) % 2**31)
        assert seqs == want and 0 <= min(seqs) < 20
