"""bench.spark_live_bench's CPU bound: the best ratios a live arm could reach."""
import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")

from bench.spark_live_bench import cpu_bound  # noqa: E402

WALL = {"arrow_files_noop": 0.40, "arrow_files_parquet": 1.10, "parquet_parquet": 0.90,
        "live_noop": 0.60, "live_parquet": 1.40, "confluent_noop": 1.50}
MACHINE = {"arrow_files_noop": 0.76, "arrow_files_parquet": 2.10}
BROKER = {"live_noop": 0.30, "live_parquet": 0.30}


def test_shared_cores_add_the_brokers_cpu_to_the_floors():
    b = cpu_bound(MACHINE, BROKER, WALL, 2, shared=True)
    assert b["live_noop_seconds_at_least"] == pytest.approx((0.76 + 0.30) / 2)
    assert b["live_parquet_seconds_at_least"] == pytest.approx((2.10 + 0.30) / 2)
    noop = b["live_noop_over_python_datasource_floor"]
    assert noop["best_possible"] == pytest.approx(0.53 / 0.40, abs=0.01)
    assert noop["measured"] == 1.5 and noop["target_at_most"] == 1.15
    assert b["live_vs_confluent_noop"]["best_possible"] == pytest.approx(1.5 / 0.53, abs=0.01)
    assert b["live_parquet_over_parquet_parquet"]["best_possible"] == pytest.approx(1.2 / 0.9, abs=0.01)
    assert b["live_noop_over_bound"] == pytest.approx(0.60 / 0.53, abs=0.01)
    assert b["floor_plus_broker_share_seconds"] == pytest.approx(0.40 + 0.30 / 2)
    assert b["live_noop_over_floor_plus_broker_share"] == pytest.approx(0.60 / 0.55, abs=0.01)


def test_a_broker_on_cores_of_its_own_leaves_the_floor():
    b = cpu_bound(MACHINE, BROKER, WALL, 1, shared=False)
    # one core for Spark: the floor's CPU alone, never less than the floor's own time
    assert b["live_noop_seconds_at_least"] == pytest.approx(0.76)
    b = cpu_bound(MACHINE, BROKER, WALL, 4, shared=False)
    assert b["live_noop_seconds_at_least"] == pytest.approx(0.40)
    assert b["live_noop_over_python_datasource_floor"]["best_possible"] == 1.0
