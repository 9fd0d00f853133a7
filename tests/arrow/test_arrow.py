"""Arrow decoding equals the record layer's decoding, everywhere."""
import pytest

pa = pytest.importorskip("pyarrow")

import kafkacodec.arrow as ka  # noqa: E402
from kafkacodec.errors import CorruptDataError  # noqa: E402
from kafkacodec.records import (  # noqa: E402
    RecordBatchBuilder, build_control_batch, decode_records, iter_batches,
)

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


def as_rows(rb):
    cols = rb.to_pydict()
    millis = rb.column("timestamp").cast(pa.int64()).to_pylist()
    out = []
    for i in range(rb.num_rows):
        hdrs = tuple((h["key"], h["value"]) for h in cols["headers"][i]) if "headers" in cols else None
        out.append((cols["offset"][i], millis[i], cols["key"][i], cols["value"][i], hdrs))
    return out


def record_rows(data, **kw):
    return [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in decode_records(data, **kw)]


def mixed_buffer():
    parts = []
    for i, codec in enumerate(CODECS):
        b = RecordBatchBuilder(compression=codec, base_offset=100 * i, producer_id=i, producer_epoch=0,
                               base_sequence=0, partition_leader_epoch=3)
        for j in range(50):
            b.append(1_700_000_000_000 + j, None if j % 7 == 0 else b"key-%d" % j,
                     None if j % 11 == 0 else b'{"j": %d}' % j,
                     headers=[("trace", b"t%d" % j), ("empty", None), ("ünï", b"")] if j % 3 == 0 else ())
        parts.append(b.build())
    legacy = RecordBatchBuilder(1, "gzip", base_offset=900)
    for j in range(5):
        legacy.append(1000 + j, b"lk", b"lv%d" % j)
    parts.append(legacy.build())
    parts.append(build_control_batch("COMMIT", producer_id=1, producer_epoch=0, base_offset=950))
    return b"".join(parts)


def test_matches_record_layer():
    data = mixed_buffer()
    rb = ka.decode(data)
    rb.validate(full=True)
    assert rb.schema == ka.schema()
    assert as_rows(rb) == record_rows(data)


def test_batch_columns_and_large_binary():
    data = mixed_buffer()
    rb = ka.decode(data, batch_columns=True, binary_type="large_binary")
    rb.validate(full=True)
    assert rb.schema.field("value").type == pa.large_binary()
    cols = rb.to_pydict()
    recs = decode_records(data)
    batches = {b.base_offset: b for b in iter_batches(data)}
    for i, r in enumerate(recs):
        b = max((b for b in batches.values() if b.base_offset <= r.offset), key=lambda b: b.base_offset)
        assert cols["producer_id"][i] == b.producer_id
        assert cols["partition_leader_epoch"][i] == b.partition_leader_epoch
        expected_seq = b.base_sequence + (r.offset - b.base_offset) if b.base_sequence >= 0 else -1
        assert cols["sequence"][i] == expected_seq
        assert cols["is_transactional"][i] == b.is_transactional


def test_read_committed():
    def txn(pid, off, vals):
        b = RecordBatchBuilder(base_offset=off, producer_id=pid, producer_epoch=0, is_transactional=True)
        for v in vals:
            b.append(1, None, v)
        return b.build()
    data = (txn(1, 0, [b"x", b"y"]) + txn(2, 2, [b"keep"])
            + build_control_batch("ABORT", producer_id=1, producer_epoch=0, base_offset=3)
            + build_control_batch("COMMIT", producer_id=2, producer_epoch=0, base_offset=4))
    rb = ka.decode(data, isolation_level="read_committed", aborted_transactions=[(1, 0)])
    assert rb.column("value").to_pylist() == [b"keep"]
    assert ka.decode(data).column("value").to_pylist() == [b"x", b"y", b"keep"]


def test_iter_decode_chunks_and_table():
    data = mixed_buffer()
    chunks = list(ka.iter_decode(data, max_rows=60))
    assert len(chunks) > 2
    assert sum(c.num_rows for c in chunks) == len(decode_records(data))
    table = ka.decode_table(data, max_rows=60)
    assert table.num_rows == len(decode_records(data))
    assert as_rows(table.combine_chunks().to_batches()[0]) == record_rows(data)


def test_empty_input():
    rb = ka.decode(b"")
    assert rb.num_rows == 0 and rb.schema == ka.schema()


def test_corrupt_batch_raises_codec_error_and_keeps_columns_consistent():
    good = RecordBatchBuilder()
    good.append(1, b"k", b"v")
    bad = bytearray(RecordBatchBuilder().build())
    b = RecordBatchBuilder(base_offset=1)
    b.append(1, b"key", b"value")
    bad = bytearray(b.build())
    bad[bad.index(b"key") - 1] = 0x7E  # key length 63
    with pytest.raises(CorruptDataError) as info:
        ka.decode(good.build() + bytes(bad), verify_crc=False)
    assert info.value.path.startswith("batches[1].records[0].key")


def test_invalid_utf8_header_key_is_an_error():
    b = RecordBatchBuilder()
    b.append(1, b"k", b"v", headers=[(b"\xff\xfe", b"x")])
    data = b.build()
    with pytest.raises(CorruptDataError):
        ka.decode(data)
    assert decode_records(data)[0].headers[0][0] == "\udcff\udcfe"


@pytest.mark.parametrize("codec", CODECS)
def test_encode_roundtrip(codec):
    data = mixed_buffer()
    rb = ka.decode(data)
    encoded = ka.encode(rb, compression=codec, batch_size=2000, base_offset=0)
    back = ka.decode(encoded)
    assert back.column("key").to_pylist() == rb.column("key").to_pylist()
    assert back.column("value").to_pylist() == rb.column("value").to_pylist()
    assert back.column("headers").to_pylist() == rb.column("headers").to_pylist()
    assert back.column("timestamp").to_pylist() == rb.column("timestamp").to_pylist()
    assert back.column("offset").to_pylist() == list(range(rb.num_rows))
    assert len(list(iter_batches(encoded))) > 1


def test_samples_match_record_layer(shared_dir):
    root = shared_dir / "kafka-log-samples"
    if not root.is_dir():
        pytest.skip("samples absent")
    files = [p for p in sorted(root.rglob("*.log")) if p.stat().st_size] + sorted(root.rglob("*.records.bin"))
    assert files
    for path in files:
        data = path.read_bytes()
        rb = ka.decode(data)
        rb.validate(full=True)
        assert as_rows(rb) == record_rows(data), path
