"""bench/cold_start_bench.py end to end on its import arms (no broker): every arm measured in
fresh interpreters, ratios to confluent-kafka's, the targets judged.  Timings are not asserted."""
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # bench/ is a top-level directory, not part of the package


def test_import_arms_and_targets(capsys):
    pytest.importorskip("confluent_kafka")
    from bench import cold_start_bench
    out = cold_start_bench.main(["--rounds", "1", "--skip-producer"])
    rows = {r["arm"]: r for r in out["import"]}
    assert sorted(rows) == sorted(cold_start_bench.IMPORT_ARMS)
    assert rows["import confluent_kafka"]["ratio"] == 1.0
    assert all(r["median_ms"] > 0 and r["process_median_ms"] >= r["median_ms"] for r in rows.values())
    assert sorted(out["targets"]) == ["import kafkacodec.client <= 50 ms",
                                      "import kafkacodec.compat.confluent_kafka <= 50 ms"]
    assert "import kafkacodec.client" in capsys.readouterr().out


def test_targets_are_judged_on_medians_and_ratios():
    from bench import cold_start_bench
    imports = [{"arm": "import kafkacodec.client", "median_ms": 49.0},
               {"arm": "import kafkacodec.compat.confluent_kafka", "median_ms": 51.0},
               {"arm": "import confluent_kafka", "median_ms": 30.0}]
    producer = [{"arm": "kafkacodec Producer", "ratio": 0.98}, {"arm": "kafkacodec face", "ratio": 1.02},
                {"arm": "confluent-kafka", "ratio": 1.0}]
    assert cold_start_bench.check_targets(imports, producer) == {
        "import kafkacodec.client <= 50 ms": True,
        "import kafkacodec.compat.confluent_kafka <= 50 ms": False,
        "kafkacodec Producer script no slower than confluent-kafka's": True,
        "kafkacodec face script no slower than confluent-kafka's": False,
    }
