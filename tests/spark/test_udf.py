"""Decoding DataFrame columns of raw record-batch bytes (mapInArrow and arrow_udf)."""
import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("pyspark", reason="pyspark is not installed")

import kafkacodec.records as records  # noqa: E402
from kafkacodec.records import decode_records  # noqa: E402
from kafkacodec.spark import decode_batches, decode_batches_fn, decode_batches_udf  # noqa: E402


def built(codec, base, n, headers=True):
    b = records.RecordBatchBuilder(magic=2, compression=codec, base_offset=base)
    for i in range(n):
        hdrs = [("h", f"{i}".encode()), ("n", None)] if headers else []
        b.append(1_700_000_000_000 + i, None if i % 3 == 0 else f"k{i}".encode(), f"value-{codec}-{i}".encode(), hdrs)
    return b.build()


@pytest.fixture(scope="module")
def raw_df(spark):
    cells = [
        ("a", 0, bytearray(built("none", 0, 5))),
        ("a", 1, bytearray(built("zstd", 100, 7) + built("lz4", 107, 2))),
        ("b", 0, None),
        ("b", 1, bytearray(built("gzip", 40, 3) + built("snappy", 43, 4))),
        ("c", 0, bytearray(b"")),
    ]
    return spark.createDataFrame(cells, "topic string, partition int, batch binary"), cells


def expected_rows(cells):
    out = []
    for topic, partition, data in cells:
        for r in decode_records(bytes(data or b"")):
            out.append((topic, partition, r.offset, r.key, r.value, [tuple(h) for h in r.headers]))
    return out


def test_map_in_arrow_explodes_records(raw_df):
    df, cells = raw_df
    out = decode_batches(df, "batch", keep=["topic", "partition"])
    assert out.columns[:3] == ["topic", "partition", "offset"]
    got = [(r["topic"], r["partition"], r["offset"], r["key"], r["value"],
            [(h["key"], h["value"]) for h in r["headers"]]) for r in out.collect()]
    assert sorted(got, key=lambda t: (t[0], t[1], t[2])) == sorted(expected_rows(cells), key=lambda t: t[:3])


def test_map_in_arrow_function_shape(raw_df):
    import pyarrow as pa

    _, cells = raw_df
    fn = decode_batches_fn("batch", keep=["topic"], headers=False, batch_columns=True)
    table = pa.table({"topic": [c[0] for c in cells], "batch": [None if c[2] is None else bytes(c[2]) for c in cells]})
    out = list(fn(table.to_batches()))
    assert sum(b.num_rows for b in out) == len(expected_rows(cells))
    assert out[0].schema.names == ["topic", "offset", "timestamp", "timestamp_type", "key", "value",
                                   "producer_id", "producer_epoch", "sequence", "partition_leader_epoch",
                                   "is_transactional"]


def test_arrow_udf_column(raw_df):
    from pyspark.sql import functions as F

    df, cells = raw_df
    nested = df.select("topic", "partition", decode_batches_udf()("batch").alias("records"))
    rows = {(r["topic"], r["partition"]): r["records"] for r in nested.collect()}
    assert rows[("b", 0)] is None
    assert rows[("c", 0)] == []
    for topic, partition, data in cells:
        if data is None:
            continue
        want = decode_records(bytes(data))
        got = rows[(topic, partition)]
        assert [g["offset"] for g in got] == [w.offset for w in want]
        assert [g["value"] for g in got] == [w.value for w in want]
    flat = nested.select("topic", F.inline("records"))
    assert flat.count() == len(expected_rows(cells))


def test_kafka_go_fetch_records(spark, samples_root):
    """Real Fetch response record sets (mixed magic 1/2, gzip) as a column."""
    fixtures = samples_root / "kafka-go-fixtures" / "fixtures"
    if not fixtures.is_dir():
        pytest.skip("kafka-go fixtures not present")
    files = sorted(fixtures.glob("*.records.bin"))
    assert files
    cells = [(f.name, bytearray(f.read_bytes())) for f in files]
    df = spark.createDataFrame(cells, "name string, batch binary")
    out = decode_batches(df, "batch", keep=["name"]).toArrow()
    for name, data in cells:
        want = decode_records(bytes(data))
        got = [(o, k, v) for n, o, k, v in zip(out.column("name").to_pylist(), out.column("offset").to_pylist(),
                                                out.column("key").to_pylist(), out.column("value").to_pylist())
               if n == name]
        assert got == [(w.offset, w.key, w.value) for w in want], name
