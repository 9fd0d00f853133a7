"""One local SparkSession for all Spark tests, and a small generated demo directory.

Skips cleanly without pyspark or Java.  The session is local[2], bound to
127.0.0.1, with the UI off and few shuffle partitions, so the whole directory
runs in well under three minutes.
"""
import os
import shutil

import pytest



def _java_available() -> bool:
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return True
    return shutil.which("java") is not None


@pytest.fixture(scope="session")
def spark():
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    if not _java_available():
        pytest.skip("Java is not available for Spark")
    from kafkacodec.spark.session import local_session

    session = local_session("local[2]", app_name="kafkacodec-tests", driver_memory="1g", shuffle_partitions=2,
                            extra={"spark.default.parallelism": "2"})
    yield session
    session.stop()


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    """A small demo directory (several segments per partition) and its DemoInfo."""
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    from kafkacodec.spark.demo import generate_demo

    root = tmp_path_factory.mktemp("demo-logs")
    return generate_demo(root, records=12_000, segment_bytes=128 << 10)


@pytest.fixture(scope="session")
def samples_root(shared_dir):
    root = shared_dir / "kafka-log-samples"
    if not root.is_dir():
        pytest.skip(f"{root} not present")
    return root
