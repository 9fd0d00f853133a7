"""bench.registry_serde_bench on a tiny scale: every case runs (and the face's and confluent-kafka's
serializers agree on the bytes, which the bench checks before timing)."""
import pathlib
import sys

import pytest

pytest.importorskip("fastavro")
pytest.importorskip("confluent_kafka.schema_registry")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))


def test_quick_run_prints_every_case(capsys):
    from bench import registry_serde_bench
    registry_serde_bench.main(["--quick"])
    out = capsys.readouterr().out
    assert "face AvroDeserializer" in out and "kafkacodec.avro one-row encode" in out
    assert len([line for line in out.splitlines() if line.startswith("  ")]) == 8
