"""bench/protocol_bench.py runs end to end on tiny inputs (no timing asserted)."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_protocol_bench_quick(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    from bench import protocol_bench
    lines = []
    res = protocol_bench.run(quick=True, out=lines.append)
    assert res["metadata_decode"] > 0 and res["produce_encode"] > 0
    assert res["fetch_big_over_small"] > 0
    if "kafka_python" in res:  # kafka-python 3 decoded the same bytes
        assert res["metadata_speedup"] > 0 and res["produce_speedup"] > 0
    assert any("Metadata v12" in line for line in lines)
    assert protocol_bench.main(["--quick"]) == 0
    assert "bench.protocol_bench" in sys.modules
