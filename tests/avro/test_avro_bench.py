"""The Avro bench runs (tiny sizes: a smoke test, not a measurement)."""
import pytest

pytest.importorskip("fastavro")
pytest.importorskip("pyarrow")


def test_avro_bench_quick(capsys):
    from bench import avro_bench
    assert avro_bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "decode_vs_per_record" in out and "encode_vs_writer" in out
