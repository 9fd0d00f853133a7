"""Arrow encode: the columnar fast path writes exactly the bytes the record
builder writes, for every codec, slice, null pattern and column type."""
import random

import pytest

pa = pytest.importorskip("pyarrow")

import kafkacodec  # noqa: E402
import kafkacodec.arrow as ka  # noqa: E402
from kafkacodec.errors import EncodeError, KafkaCodecError  # noqa: E402
from kafkacodec.records import build_batches, decode_records, iter_batches  # noqa: E402

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
HEADERS = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))


def random_table(n, seed=1):
    rng = random.Random(seed)
    hdrs = [None if rng.random() < 0.1 else
            [{"key": f"h{j}", "value": None if rng.random() < 0.2 else rng.randbytes(rng.randint(0, 20))}
             for j in range(rng.randint(0, 3))] for _ in range(n)]
    return pa.table({
        "key": pa.array([None if rng.random() < 0.2 else rng.randbytes(rng.randint(0, 30)) for _ in range(n)]),
        "value": pa.array([None if rng.random() < 0.1 else rng.randbytes(rng.randint(0, 300)) for _ in range(n)]),
        "timestamp": pa.array([1_700_000_000_000 + rng.randint(-5000, 5000) for _ in range(n)], pa.timestamp("ms")),
        "headers": pa.array(hdrs, HEADERS),
    })


def reference(table, **kw):
    """The same records through build_batches (RecordBatchBuilder), one tuple each."""
    rows = table.to_pylist()
    millis = table.column("timestamp").cast(pa.int64()).to_pylist()
    records = [(millis[i], r["key"], r["value"], [(h["key"], h["value"]) for h in (r["headers"] or ())])
               for i, r in enumerate(rows)]
    return b"".join(build_batches(records, **kw))


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("producer", [dict(), dict(producer_id=7, producer_epoch=1, base_sequence=100,
                                                      is_transactional=True)])
def test_identical_to_record_builder(codec, producer):
    table = random_table(400)
    for part in (table, table.slice(37, 250)):
        fast = ka.encode(part, compression=codec, batch_size=3000, base_offset=5, **producer)
        assert fast == reference(part, compression=codec, batch_size=3000, base_offset=5, **producer)
        assert len(list(iter_batches(fast))) > 1
        back = ka.decode(fast)
        assert back.column("value").to_pylist() == part.column("value").to_pylist()
        assert back.column("headers").to_pylist() == [h or [] for h in part.column("headers").to_pylist()]
        assert back.column("offset").to_pylist() == list(range(5, 5 + part.num_rows))


def test_column_types():
    table = pa.table({
        "key": pa.array(["k1", None, "k3"], pa.large_string()),
        "value": pa.array(["a", "bb", None], pa.string()),
        "timestamp": pa.array([3, 1, 2], pa.int32()),
        "headers": pa.array([[("x", b"1")], [], None],
                            pa.large_list(pa.struct([("key", pa.binary()), ("value", pa.large_binary())]))),
    })
    data = ka.encode(table)
    records = decode_records(data)
    assert [(r.timestamp, r.key, r.value, r.headers) for r in records] == [
        (3, b"k1", b"a", (("x", b"1"),)), (1, None, b"bb", ()), (2, b"k3", None, ())]
    batch = next(iter_batches(data))
    assert (batch.base_timestamp, batch.max_timestamp) == (3, 3)


def test_chunked_and_default_timestamp():
    values = pa.chunked_array([pa.array([b"a", b"b"]), pa.array([b"c"])])
    data = ka.encode(pa.table({"value": values}), default_timestamp=42)
    assert [(r.offset, r.timestamp, r.key, r.value) for r in decode_records(data)] == [
        (0, 42, None, b"a"), (1, 42, None, b"b"), (2, 42, None, b"c")]
    nulls = pa.table({"value": [b"x", b"y"], "timestamp": pa.array([None, 7], pa.int64())})
    assert [r.timestamp for r in decode_records(ka.encode(nulls, default_timestamp=9))] == [9, 7]


def test_empty_table():
    assert ka.encode(pa.table({"value": pa.array([], pa.binary())})) == b""


def test_bad_columns():
    with pytest.raises(EncodeError):
        ka.encode(pa.table({"key": [b"k"]}))
    with pytest.raises(EncodeError):
        ka.encode(pa.table({"value": pa.array([[1]])}))
    with pytest.raises(EncodeError):
        ka.encode(pa.table({"value": [b"v"], "timestamp": pa.array([1.5])}))
    with pytest.raises(EncodeError):
        ka.encode(pa.table({"value": [b"v"], "headers": pa.array([[1]])}))
    null_key = pa.array([[{"key": None, "value": b"v"}]], HEADERS)
    with pytest.raises(KafkaCodecError):
        ka.encode(pa.table({"value": [b"v"], "headers": null_key}))


def test_legacy_magic_goes_through_the_builder():
    table = pa.table({"key": [b"k", None], "value": [b"v", b"w"], "timestamp": pa.array([5, 6], pa.int64())})
    data = ka.encode(table, magic=1, compression="gzip")
    batches = list(iter_batches(data))
    assert batches[0].magic == 1
    assert [(r.offset, r.timestamp, r.key, r.value) for r in decode_records(data)] == [
        (0, 5, b"k", b"v"), (1, 6, None, b"w")]


@pytest.mark.skipif(not kafkacodec.accelerated, reason="compiled path only")
def test_one_record_larger_than_the_batch_size():
    table = pa.table({"value": [b"x" * 5000, b"y"], "timestamp": pa.array([1, 2], pa.int64())})
    data = ka.encode(table, batch_size=100)
    assert [b.record_count for b in iter_batches(data)] == [1, 1]


@pytest.mark.parametrize("codec", ["none", "lz4"])
def test_rows_encode_those_rows_in_that_order(codec):
    import numpy as np

    table = random_table(400, seed=5)
    rows = np.random.default_rng(3).permutation(400)[:300]
    for part in (table, table.drop(["timestamp"])):
        fast = ka.encode(part, rows=rows, compression=codec, batch_size=3000, default_timestamp=77)
        assert fast == ka.encode(part.take(pa.array(rows)), compression=codec, batch_size=3000, default_timestamp=77)
        assert len(list(iter_batches(fast))) > 1
    writable = ka.encode(table, rows=rows, compression=codec, batch_size=3000, writable=True)
    assert type(writable) is bytearray and writable == ka.encode(table, rows=rows, compression=codec, batch_size=3000)
    assert ka.encode(table, rows=np.array([], np.int64)) == b""
    for bad in ([400], [-1], [0, 5, 10_000]):
        with pytest.raises(EncodeError, match=r"rows\[\d+\]: row -?\d+ is not one of the table's 400 rows"):
            ka.encode(table, rows=np.array(bad))
    with pytest.raises(EncodeError, match="rows: expected a 1-D array"):
        ka.encode(table, rows=np.array([[1, 2]]))
