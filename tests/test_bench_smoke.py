"""A small pytest-benchmark subset: the hot primitives and record paths on small
inputs, plus the bench/ harness end to end on a tiny workload.  Timings are
recorded, never asserted (shared CI machines are too noisy for that); the
outputs are checked so a broken fast path cannot pass as a fast one."""
import json
import pathlib
import random
import sys

import pytest

import kafkacodec

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # bench/ is a top-level directory, not part of the package

BUF16K = random.Random(7).randbytes(16384)


def test_bench_crc32c_16k(benchmark):
    assert benchmark(kafkacodec.crc32c, BUF16K) == kafkacodec.crc32c(bytearray(BUF16K))


def test_bench_crc32c_16k_crc32c_package(benchmark):
    crc32c = pytest.importorskip("crc32c")
    assert benchmark(crc32c.crc32c, BUF16K) == kafkacodec.crc32c(BUF16K)


def test_bench_varint_decode(benchmark):
    values = [random.Random(3).randrange(-2**31, 2**31) for _ in range(1000)]
    buf = b"".join(kafkacodec.encode_varint(v) for v in values)
    decode = kafkacodec.decode_varint

    def walk():
        pos, out = 0, 0
        for _ in range(len(values)):
            v, pos = decode(buf, pos)
            out += 1
        return pos

    assert benchmark(walk) == len(buf)


@pytest.fixture(scope="module")
def small_workload():
    pytest.importorskip("aiokafka")
    from bench import workloads
    return workloads.load("W1", scale=0.002, cache=False)  # 2,000 records, 16 KiB batches


def _records_api():
    try:
        from kafkacodec.records import RecordBatchBuilder, iter_batches
    except ImportError as e:
        pytest.skip(f"kafkacodec.records not available: {e}")
    return iter_batches, RecordBatchBuilder


def test_bench_record_decode(benchmark, small_workload):
    iter_batches, _ = _records_api()
    data = small_workload.data

    def decode():
        n = 0
        for batch in iter_batches(data):
            for r in batch:
                r.key, r.value, r.headers
                n += 1
        return n

    assert benchmark(decode) == small_workload.n_records


def test_bench_record_build(benchmark, small_workload):
    iter_batches, RecordBatchBuilder = _records_api()
    recs = small_workload.records[:small_workload.batch_counts[0]]

    def build():
        b = RecordBatchBuilder(2, "none", batch_size=1 << 20)
        for ts, k, v, h in recs:
            b.append(ts, k, v, h)
        return b.build()

    out = benchmark(build)
    (batch,) = iter_batches(out)
    assert [r.value for r in batch] == [v for _, _, v, _ in recs]


def test_bench_harness_runs(tmp_path, small_workload, capsys, monkeypatch):
    """bench.run on a tiny scale: every adapter reports ok or a reason, JSON and report work."""
    from bench import report, run, workloads
    monkeypatch.setattr(workloads, "CACHE", tmp_path / "cache")
    out = tmp_path / "r.json"
    run.main(["--workloads", "W1,W7", "--scale", "0.001", "--repeat", "1", "--crc-mib", "1",
              "--json", str(out)])
    results = json.loads(out.read_text())
    entries = {(e["workload"], e["op"]) for e in results["results"]}
    assert {("W1", "decode"), ("W1", "build"), ("W7", "decode"), ("CRC-32C", "crc")} <= entries
    for e in results["results"]:
        by = {r["adapter"]: r for r in e["rows"]}
        assert by["aiokafka-C"]["status"] == "ok", by["aiokafka-C"]
        for r in e["rows"]:
            # a limit row that some arm beats, or that a tighter one shadows, is kept with its reason (bench.run)
            assert r["status"] in ("ok", "n/a") or (r.get("kind") == "limit" and r["status"] in run.HIDDEN), r
    md = report.markdown(results)
    assert "| W1 | decode |" in md and "aiokafka-C" in md
    assert "vs aiokafka-C" in capsys.readouterr().out


def _run_or_skip(main, argv):
    sys.path.insert(0, str(ROOT / "tests"))
    import _peers
    try:
        return main(argv)
    except _peers.PeerUnavailable as e:
        pytest.skip(f"broker peer unavailable: {e}")


@pytest.mark.broker
def test_producer_bench_runs(tmp_path, capsys):
    """bench.producer_bench on a tiny scale: defaults and tuned arms, the latency mode,
    every arm's settings printed and the JSON written."""
    pytest.importorskip("confluent_kafka")
    pytest.importorskip("pyarrow")
    from bench import producer_bench
    out = tmp_path / "p.json"
    _run_or_skip(producer_bench.main, [
        "--records", "2000", "--rounds", "1", "--compression", "none", "--profiles", "defaults", "tuned",
        "--arms", "kafkacodec send", "kafkacodec send_arrow", "confluent produce",
        "--latency-rates", "2000", "--latency-seconds", "0.3", "--json", str(out)])
    data = json.loads(out.read_text())
    tables = data["tables"]
    assert [(t["kind"], t["profile"]) for t in tables] == [
        ("throughput", "defaults"), ("throughput", "tuned"), ("latency", "defaults")]
    for t in tables[:2]:
        for arm, s in t["summary"].items():
            assert s["rate"] > 0 and s["cpu_per_m"] > 0, (arm, s)
            assert "rate_vs_confluent" in s
        assert t["summary"]["confluent produce"]["settings"] == (
            {} if t["profile"] == "defaults" else producer_bench.PROFILES["tuned"]["confluent"])
    lat = tables[2]["summary"]
    assert set(lat) == {"kafkacodec send", "confluent produce", "kafkacodec face produce",
                        "confluent produce, ms waits", "kafkacodec face produce, ms waits"}
    # the face runs confluent-kafka's program with its settings: only the import differs
    assert lat["kafkacodec face produce"]["settings"] == lat["confluent produce"]["settings"]
    assert lat["kafkacodec face produce, ms waits"]["settings"] == lat["confluent produce"]["settings"]
    for arm, s in lat.items():
        assert s["lost"] == 0 and s["errors"] == 0, (arm, s)
        assert 0 < s["p50_ms"] <= s["p99_ms"] <= s["max_ms"], (arm, s)
    assert {t["target"].split(":")[0] for t in data["targets"]} >= {
        "defaults none", "tuned none", "latency none 2,000/s"}
    text = capsys.readouterr().out
    assert "load average" in text and "settings:" in text and "batch.num.messages=1000000" in text
    assert "targets (issue 19)" in text


def test_paced_program_waits_whole_milliseconds_when_asked():
    """The latency program's "ms waits" form never asks poll() for less than a millisecond
    (confluent-kafka would make that poll(0), a spin); the other form asks for what is left."""
    from bench import producer_bench
    records = [(b"k", b"v")] * 300
    for whole_ms in (False, True):
        waits = []
        sent, acked, errors, _ = producer_bench._paced(
            lambda topic, value, key, cb: cb(None, None), waits.append, records, 20_000, "t", whole_ms)
        assert all(sent) and all(acked) and errors == [0]
        positive = [w for w in waits if w > 0]
        assert positive
        if whole_ms:
            assert all(w >= 0.001 and round(w * 1000, 9) == int(round(w * 1000)) for w in positive), positive
        else:
            assert min(positive) < 0.001


@pytest.mark.broker
def test_consumer_bench_runs(tmp_path, monkeypatch, capsys):
    """bench.consumer_bench on a tiny scale: both profiles, settings and targets printed."""
    pytest.importorskip("confluent_kafka")
    pytest.importorskip("aiokafka")  # the W1 workload is built with aiokafka's builder
    from bench import consumer_bench, workloads
    monkeypatch.setattr(workloads, "CACHE", tmp_path / "cache")
    out = tmp_path / "c.json"
    _run_or_skip(consumer_bench.main, [
        "--records", "2000", "--codec", "none", "--arms", "kc-records", "kc-arrow", "confluent", "kc-face", "kc-consume-loop",
        "confluent-poll", "kc-face-poll", "--json", str(out)])
    tables = json.loads(out.read_text())["tables"]
    assert [t["profile"] for t in tables] == ["defaults", "tuned"]
    for t in tables:
        for arm, s in t["summary"].items():
            assert s is not None and s["errors"] == 0 and s["rate"] > 0, (arm, t["runs"][arm])
    text = capsys.readouterr().out
    assert "kc-records / confluent" in text and "load average" in text and "group.id=bench" in text
    assert "kc-face / kc-records" in text and "kc-face-poll / confluent-poll" in text
    assert "kc-face / kc-consume-loop" in text
