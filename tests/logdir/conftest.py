"""Fixtures for the log-directory tests."""
import pytest

SAMPLE_SETS = ["flink-on-prem", "apache-kafka-eda-study"]


@pytest.fixture(params=SAMPLE_SETS)
def sample_root(request, shared_dir):
    root = shared_dir / "kafka-log-samples" / request.param / "data"
    if not root.is_dir():
        pytest.skip(f"{root} not present")
    return root
