"""Real broker data from ../shared/kafka-log-samples (skipped when absent)."""
import pytest

from kafkacodec import crc32, crc32c
from kafkacodec.records import decode_records, iter_batches

SAMPLES = "kafka-log-samples"


def _files(shared_dir, pattern):
    root = shared_dir / SAMPLES
    if not root.is_dir():
        pytest.skip("log samples not present")
    files = sorted(root.rglob(pattern))
    assert files, f"no {pattern} files under {root}"
    return files


def _independent_walk(data):
    """Count entries and check CRCs with plain struct reads, as a cross-check."""
    pos = count = 0
    while pos + 17 <= len(data):
        length = int.from_bytes(data[pos + 8:pos + 12], "big", signed=True)
        end = pos + 12 + length
        if end > len(data):
            break
        magic = data[pos + 16]
        stored = int.from_bytes(data[pos + 17:pos + 21] if magic == 2 else data[pos + 12:pos + 16], "big")
        computed = crc32c(data[pos + 21:end]) if magic == 2 else crc32(data[pos + 16:end])
        assert stored == computed
        count += 1
        pos = end
    return count, pos


def test_every_log_segment_iterates_with_valid_crcs(shared_dir):
    files = _files(shared_dir, "*.log") + _files(shared_dir, "*.checkpoint")
    total_records = 0
    for path in files:
        data = path.read_bytes()
        if not data or path.name.endswith("offset-checkpoint") or path.name == "cleaner-offset-checkpoint":
            continue
        if path.suffix == ".checkpoint" and data[:1].isdigit():
            continue  # text checkpoint files, not record batches
        it = iter_batches(data)
        batches = list(it)
        assert it.trailing_bytes == 0, path
        expected, end = _independent_walk(data)
        assert len(batches) == expected and end == len(data), path
        for b in batches:
            recs = b.records()
            assert len(recs) == b.record_count
            if recs:
                assert recs[0].offset >= b.base_offset and recs[-1].offset <= b.last_offset
        total_records += sum(b.record_count for b in batches)
    assert total_records > 50_000


def test_known_sample_contents(shared_dir):
    root = shared_dir / SAMPLES
    orders = root / "flink-on-prem/data/orders-0/00000000000000000000.log"
    if not orders.exists():
        pytest.skip("orders sample missing")
    recs = decode_records(orders.read_bytes())
    assert len(recs) == 17_212
    assert all(dict(r.headers).keys() >= {"task.generation", "task.id"} for r in recs)
    assert all(r.value[:1] == b"\x00" for r in recs)  # Schema Registry framing
    monitoring = next((root / "flink-on-prem/data").glob("_confluent-monitoring-0/*.log"))
    batches = list(iter_batches(monitoring.read_bytes()))
    assert any(b.compression == "lz4" for b in batches)
    assert any(b.timestamp_type == 1 for b in batches)
    idem = root / "apache-kafka-eda-study/data/product-created-events-topic-2/00000000000000000000.log"
    recs = decode_records(idem.read_bytes())
    batches = list(iter_batches(idem.read_bytes()))
    assert len(recs) == 5 and [b.base_sequence for b in batches] == [0, 1, 2, 3, 4]
    assert all(b.producer_id == 0 for b in batches)
    assert all(r.headers[0][0] == "__TypeId__" for r in recs)


def test_kafka_go_fetch_fixtures(shared_dir):
    files = _files(shared_dir, "*.records.bin")
    for path in files:
        data = path.read_bytes()
        it = iter_batches(data)
        batches = list(it)
        assert it.trailing_bytes == 0
        # The file name lists the producer message sets: v1/v2 = magic, c = gzip.
        names = path.name.split(".")[0].split("-")
        assert {b.magic for b in batches} == {int(n[1]) for n in names}, path.name
        assert any(b.compression == "gzip" for b in batches) == any("c" in n for n in names), path.name
        assert all(b.compression in ("none", "gzip") for b in batches)
        if path.name.startswith("v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc"):
            # documented in the samples' README
            assert len(batches) == 15
            assert [b.magic for b in batches].count(1) == 7
            assert sum(b.compression == "gzip" for b in batches) == 7
        decode_records(data)
