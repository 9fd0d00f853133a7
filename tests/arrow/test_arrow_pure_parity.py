"""kafkacodec.arrow on the pure-Python twins (kafkacodec._pure.columnar over
kafkacodec._pure.records) against the compiled path, in the same run:
identical Arrow batches, identical column buffers, identical errors."""
import os
import pathlib
import subprocess
import sys
import types

import pytest

pa = pytest.importorskip("pyarrow")

import kafkacodec.arrow as ka  # noqa: E402
import kafkacodec._pure.columnar as PC  # noqa: E402
import kafkacodec._pure.records as P  # noqa: E402
from kafkacodec import crc32c  # noqa: E402

C = pytest.importorskip("kafkacodec.records._records", reason="compiled record layer not built")
CC = pytest.importorskip("kafkacodec.arrow._columnar", reason="compiled columnar module not built")

ROOT = pathlib.Path(__file__).resolve().parents[2]
CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
OPTION_SETS = [
    dict(),
    dict(headers=False),
    dict(batch_columns=True),
    dict(batch_columns=True, binary_type="large_binary"),
    dict(isolation_level="read_committed", aborted_transactions=[(1, 100), (3, 0)]),
    dict(verify_crc=False),
]


@pytest.fixture
def on_pure(monkeypatch):
    """Run a kafkacodec.arrow call on the pure twins."""
    def run(fn, *args, **kw):
        with monkeypatch.context() as m:
            m.setattr(ka, "_impl", types.SimpleNamespace(accelerated=False))
            m.setattr(ka, "ColumnBuilder", PC.ColumnBuilder)
            m.setattr(ka, "filtered_batches", P.filtered_batches)
            m.setattr(ka, "RecordBatchBuilder", P.RecordBatchBuilder)
            return fn(*args, **kw)
    return run


def outcome(fn, *args, **kw):
    try:
        out = fn(*args, **kw)
    except ValueError as exc:  # KafkaCodecError, or OverflowError's sibling cases
        return ("error", type(exc).__name__, str(exc), getattr(exc, "offset", None), getattr(exc, "path", None))
    if isinstance(out, pa.RecordBatch):
        out.validate(full=True)
        return ("batch", out.schema, columns(out))
    if isinstance(out, pa.Table):
        return ("table", out.schema, columns(out), [b.num_rows for b in out.to_batches()])
    return out


def columns(tab):
    # timestamps as integers: corrupt input can hold times Python's datetime cannot
    return {name: (col.cast(pa.int64()) if pa.types.is_timestamp(col.type) else col).to_pylist()
            for name, col in zip(tab.column_names, tab.columns)}


def same(on_pure, fn, *args, **kw):
    got = outcome(fn, *args, **kw)
    assert outcome(lambda: on_pure(fn, *args, **kw)) == got
    return got


def build(mod, records, **kw):
    b = mod.RecordBatchBuilder(**kw)
    for r in records:
        b.append(*r)
    return b.build()


def mixed_buffer():
    parts = []
    for i, codec in enumerate(CODECS):
        recs = [(1_700_000_000_000 + j, None if j % 7 == 0 else b"key-%d" % j,
                 None if j % 11 == 0 else b'{"j": %d}' % j,
                 [("trace", b"t%d" % j), ("empty", None), ("ünï", b"")] if j % 3 == 0 else ())
                for j in range(30)]
        parts.append(build(C, recs, compression=codec, base_offset=100 * i, producer_id=i % 4, producer_epoch=0,
                           base_sequence=0 if i != 2 else 2**31 - 10, partition_leader_epoch=3,
                           is_transactional=i % 2 == 1, timestamp_type=1 if i == 4 else 0,
                           log_append_time=5 if i == 4 else None))
    parts.append(C.build_control_batch("ABORT", producer_id=1, producer_epoch=0, base_offset=150, timestamp=1))
    for magic, codec in ((1, "gzip"), (0, "none"), (1, "none")):
        parts.append(build(C, [(1000 + j, b"lk" if j else None, b"lv%d" % j) for j in range(5)], magic=magic,
                           compression=codec, base_offset=900 + 10 * len(parts)))
    parts.append(C.build_control_batch("COMMIT", producer_id=3, producer_epoch=0, base_offset=990, timestamp=1))
    return b"".join(parts)


def test_decode_identical_for_every_option(on_pure):
    data = mixed_buffer()
    for opts in OPTION_SETS:
        got = same(on_pure, ka.decode, data, **opts)
        assert got[0] == "batch" and len(got[2]["offset"]) > 100
        same(on_pure, ka.decode_table, data, max_rows=40, **opts)
        same(on_pure, lambda: [b.num_rows for b in ka.iter_decode(data, max_rows=1, **opts)])
    same(on_pure, ka.decode, data + data[:100])   # trailing partial batch
    same(on_pure, ka.decode, b"")
    same(on_pure, ka.decode, bytearray(data))


def test_column_buffers_identical():
    """The builders' raw buffers, byte for byte (not only the Arrow values)."""
    data = mixed_buffer()
    data += data[:40]   # a partial trailing batch
    for headers in (True, False):
        for batch_columns in (False, True):
            for large in (False, True):
                outs = []
                for builder_cls in (CC.ColumnBuilder, PC.ColumnBuilder):
                    cb = builder_cls(headers, batch_columns, None, large, len(data))
                    trailing = cb.add_buffer(data, True)
                    rows = cb.rows
                    cols = cb.finish()
                    outs.append((trailing, rows, {k: v if isinstance(v, int) or v is None else bytes(memoryview(v))
                                                  for k, v in cols.items()}))
                    assert cb.rows == 0 and cb.finish()["rows"] == 0
                assert outs[1] == outs[0]


def test_add_batch_identical_per_batch():
    data = mixed_buffer()
    outs = []
    for mod, builder_cls in ((C, CC.ColumnBuilder), (P, PC.ColumnBuilder)):
        cb = builder_cls(True, True, None, False, 0)
        for b in mod.iter_batches(data):
            if not b.is_control:
                cb.add_batch(b)
        outs.append({k: v if isinstance(v, int) or v is None else bytes(memoryview(v))
                     for k, v in cb.finish().items()})
    assert outs[1] == outs[0]


def test_log_samples_identical(on_pure, shared_dir):
    root = shared_dir / "kafka-log-samples"
    if not root.is_dir():
        pytest.skip("log samples not present")
    files = [p for p in sorted(root.rglob("*")) if p.suffix in (".log", ".bin") and p.stat().st_size]
    for path in files:
        data = path.read_bytes()[:100_000]
        same(on_pure, ka.decode, data, batch_columns=True)


@pytest.mark.parametrize("name", ["W2", "W5", "W7"])
def test_bench_workloads_identical(on_pure, name):
    pytest.importorskip("aiokafka")
    sys.path.insert(0, str(ROOT))
    try:
        from bench import workloads
    finally:
        sys.path.remove(str(ROOT))
    w = workloads.load(name, scale=0.0005 if name != "W2" else 0.002, cache=False)
    got = same(on_pure, ka.decode, w.data)
    assert len(got[2]["offset"]) == w.n_records


def small_buffer():
    recs = [(10 + j, b"k%d" % j, b"v" * j, [("h", b"x"), ("n", None)] if j % 2 else ()) for j in range(4)]
    return (build(C, recs) + build(C, recs, compression="lz4", base_offset=4)
            + C.build_control_batch("COMMIT", producer_id=1, producer_epoch=0, base_offset=8, timestamp=1)
            + build(C, [(1, b"a", b"b")], magic=1, compression="gzip", base_offset=9))


def test_corruption_identical(on_pure):
    data = small_buffer()
    for pos in range(len(data)):
        for delta in (0x41, 0x80):
            bad = bytearray(data)
            bad[pos] = (bad[pos] + delta) & 0xFF
            same(on_pure, ka.decode, bytes(bad), verify_crc=False)
            same(on_pure, ka.decode, bytes(bad), verify_crc=False, max_rows=3)
    for cut in range(0, len(data), 7):
        same(on_pure, ka.decode, data[:cut])


def test_record_field_errors_identical(on_pure):
    good = bytearray(build(C, [(1, b"key", b"value", [("h", b"x")]), (2, b"k2", b"v2")]))
    for pos in range(61, len(good)):
        for value in (0x00, 0x7E, 0x80, 0xFF):
            bad = bytearray(good)
            bad[pos] = value
            bad[17:21] = crc32c(bytes(bad[21:])).to_bytes(4, "big")
            same(on_pure, ka.decode, bytes(bad))


@pytest.mark.parametrize("codec", ["lz4", "zstd"])
def test_record_errors_inside_compressed_payloads_identical(on_pure, codec):
    from kafkacodec.records import compression
    good = bytearray(build(C, [(1, b"key", b"value", [("h", b"x")]), (2, b"k2", b"v2")], base_offset=1))
    prefix = build(C, [(0, b"a", b"b")])
    for pos in range(61, len(good)):
        for value in (0x00, 0x7F, 0xFF):
            bad = bytearray(good)
            bad[pos] = value
            out = bytearray(bad[:61]) + compression.compress(codec, bytes(bad[61:]))
            out[22] |= compression.codec_id(codec)
            out[8:12] = (len(out) - 12).to_bytes(4, "big")
            out[17:21] = crc32c(bytes(out[21:])).to_bytes(4, "big")
            same(on_pure, ka.decode, prefix + bytes(out))


def test_invalid_utf8_header_key_identical(on_pure):
    for codec in ("none", "zstd"):
        data = build(C, [(1, b"k", b"v"), (2, b"k", b"v", [("ok", b"x"), (b"\xff\xfe", b"x")])],
                     compression=codec, base_offset=3)
        data = build(C, [(0, b"a", b"b")]) + data
        got = same(on_pure, ka.decode, data)
        assert got[0] == "error" and got[4] == "batches[1].records[1].headers"
        same(on_pure, ka.decode, data, headers=False)


@pytest.mark.parametrize("codec", CODECS)
def test_encode_identical(on_pure, codec):
    rb = ka.decode(mixed_buffer())
    for kw in (dict(), dict(batch_size=700, base_offset=7, producer_id=5, producer_epoch=1, base_sequence=3,
                            is_transactional=True)):
        got = ka.encode(rb, compression=codec, **kw)
        assert on_pure(ka.encode, rb, compression=codec, **kw) == got


def test_arrow_tests_pass_in_pure_mode():
    env = dict(os.environ, KAFKACODEC_PURE="1")
    check = subprocess.run([sys.executable, "-c", "import kafkacodec.arrow as ka; print(ka.ColumnBuilder.__module__)"],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert check.stdout.strip() == "kafkacodec._pure.columnar", check.stderr
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                           "tests/arrow/test_arrow.py", "--deselect",
                           "tests/arrow/test_arrow.py::test_samples_match_record_layer"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout


def _legacy_set(magic, **kw):
    return build(C, [(1000 + j, None if j == 1 else b"k%d" % j, None if j == 2 else b"v" * j) for j in range(4)],
                 magic=magic, compression="none", **kw)


@pytest.mark.parametrize("magic", [0, 1])
def test_uncompressed_legacy_fields_judged_as_the_record_layer_does(on_pure, magic):
    """Uncompressed magic 0/1 messages go straight into the columns: every
    one-byte change (the CRC-32 fixed, so field checks decide) gives the rows
    or the error (class, offset, path) of the record layer's walk."""
    import zlib
    v2 = build(C, [(5, b"a", b"b")], base_offset=0)
    good = bytearray(_legacy_set(magic, base_offset=1))
    tail = build(C, [(7, b"c", b"d")], base_offset=10)
    seen = set()
    pos = 0
    starts = []
    while pos < len(good):  # each message: 12-byte log overhead + its size
        starts.append(pos)
        pos += 12 + int.from_bytes(good[pos + 8:pos + 12], "big")
    for at in range(len(good)):
        for value in (0x00, 0x01, 0x7F, 0x80, 0xFF):
            bad = bytearray(good)
            bad[at] = value
            for s in starts:
                size = int.from_bytes(bad[s + 8:s + 12], "big", signed=True)
                if 0 <= size and s + 12 + size <= len(bad) and size >= 5:
                    bad[s + 12:s + 16] = zlib.crc32(bytes(bad[s + 16:s + 12 + size])).to_bytes(4, "big")
            data = v2 + bytes(bad) + tail
            got = same(on_pure, ka.decode, data, batch_columns=True)
            same(on_pure, ka.decode, data, verify_crc=False, binary_type="large_binary")
            seen.add(got[0] if got[0] == "batch" else got[1])
    assert {"batch", "CorruptDataError"} <= seen
    # a stored CRC that does not match: the record layer's CrcMismatchError
    bad = bytearray(good)
    bad[12] ^= 1
    assert same(on_pure, ka.decode, v2 + bytes(bad))[1] == "CrcMismatchError"
    assert same(on_pure, ka.decode, v2 + bytes(bad), verify_crc=False)[0] == "batch"


def test_uncompressed_legacy_rows_match_the_record_layer():
    data = b"".join(_legacy_set(m, base_offset=10 * i, log_append_time=None) for i, m in enumerate((0, 1, 0, 1)))
    data += build(C, [(1, b"x", b"y")], magic=1, compression="none", timestamp_type=1, log_append_time=77,
                  base_offset=50)
    rb = ka.decode(data, batch_columns=True)
    recs = C.decode_records(data)
    assert rb.column("offset").to_pylist() == [r.offset for r in recs]
    assert rb.column("timestamp").cast(pa.int64()).to_pylist() == [r.timestamp for r in recs]
    assert rb.column("timestamp_type").to_pylist() == [r.timestamp_type for r in recs]
    assert rb.column("key").to_pylist() == [r.key for r in recs]
    assert rb.column("value").to_pylist() == [r.value for r in recs]
    assert rb.column("headers").to_pylist() == [[] for _ in recs]
    assert rb.column("producer_id").to_pylist() == [-1] * len(recs)
