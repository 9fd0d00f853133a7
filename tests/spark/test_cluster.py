"""A real Spark cluster: a standalone master and two workers on 127.0.0.1,
started from the pyspark install (java -cp "<pyspark>/jars/*"), stopped by
PID.  The kafka-log source, the kafka-live source and sink and the convert
command run on it with executors in other JVMs and Python workers of this venv.

The driver runs in a child process (one SparkContext per JVM, and the other
Spark tests share a local one)."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
import uuid

import pytest

# ~3.7 min on a shared 2-core machine (cluster start, two driver JVMs, demo data): slow
pytestmark = [pytest.mark.broker, pytest.mark.slow]

pyspark = pytest.importorskip("pyspark")

from _peers import (  # noqa: E402
    _pdeathsig,
    _stop,
    consume_with_confluent,
    create_topics,
    free_port,
    produce_with_confluent,
    wait_for_port,
)

START_TIMEOUT = 60
JOB_TIMEOUT = 240


def _java():
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return os.path.join(home, "bin", "java")
    from shutil import which

    return which("java")


def _cluster_env():
    # SPARK_SCALA_VERSION: pip's pyspark has no build tree the launcher could read it from
    env = dict(os.environ, SPARK_HOME=os.path.dirname(pyspark.__file__), SPARK_LOCAL_IP="127.0.0.1",
               SPARK_SCALA_VERSION="2.13",
               PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    env.pop("SPARK_CONF_DIR", None)
    return env


def _daemon(cls, args, log):
    home = os.path.dirname(pyspark.__file__)
    cmd = [_java(), "-Xmx512m", "-cp", os.path.join(home, "jars", "*"), cls] + args
    return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            env=_cluster_env(), preexec_fn=_pdeathsig)


def _alive_workers(ui_port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{ui_port}/json/", timeout=2) as resp:
            return json.load(resp).get("aliveworkers", 0)
    except (OSError, ValueError):
        return 0


@pytest.fixture(scope="module")
def standalone(tmp_path_factory):
    if _java() is None:
        pytest.skip("Java is not available for Spark")
    root = tmp_path_factory.mktemp("standalone")
    port, ui = free_port(), free_port()
    procs = []
    log = open(root / "cluster.log", "wb")
    try:
        procs.append(_daemon("org.apache.spark.deploy.master.Master",
                             ["--host", "127.0.0.1", "--port", str(port), "--webui-port", str(ui)], log))
        if not wait_for_port("127.0.0.1", port, START_TIMEOUT, procs[0]):
            pytest.fail(f"the Spark master did not start: {(root / 'cluster.log').read_text()[-2000:]}")
        url = f"spark://127.0.0.1:{port}"
        for i in range(2):
            work = root / f"worker{i}"
            work.mkdir()
            procs.append(_daemon("org.apache.spark.deploy.worker.Worker",
                                 ["--host", "127.0.0.1", "--cores", "1", "--memory", "1g", "--work-dir", str(work),
                                  "--webui-port", str(free_port()), url], log))
        deadline = time.monotonic() + START_TIMEOUT
        while _alive_workers(ui) < 2:
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                pytest.fail(f"two workers did not register: {(root / 'cluster.log').read_text()[-2000:]}")
            time.sleep(0.3)
        yield url
    finally:
        for p in reversed(procs):
            _stop(p)
        log.close()


_JOB = textwrap.dedent("""
    import json, sys
    from kafkacodec.spark.session import local_session
    master, logdir, bootstrap, topic, sink = sys.argv[1:6]
    spark = local_session(master, app_name="kafkacodec-cluster-test", driver_memory="512m",
                          extra={"spark.executor.memory": "512m", "spark.executor.cores": "1",
                                 "spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"})
    out = {}
    logs = spark.read.format("kafka-log").option("path", logdir).option("minPartitions", "4").load()
    out["log_rows"] = logs.count()
    out["log_partitions"] = logs.rdd.getNumPartitions()
    live = (spark.read.format("kafka-live").option("kafka.bootstrap.servers", bootstrap)
            .option("subscribe", topic).option("minPartitions", "4").load())
    rows = live.select("partition", "offset").collect()
    out["live_rows"] = len(rows)
    out["live_distinct"] = len(set(map(tuple, rows)))
    # the sink: one transaction per task in the executors, committed by this driver
    (live.select("key", "value").repartition(4).write.format("kafka-live")
     .option("kafka.bootstrap.servers", bootstrap).option("topic", sink).mode("append").save())
    # tasks ran in both workers' executors, not the driver
    out["executors"] = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1
    print("RESULT " + json.dumps(out), flush=True)
    spark.stop()
""")


def test_sources_and_convert_on_standalone_cluster(standalone, demo, live_broker, tmp_path):
    bs = live_broker.bootstrap
    topic = f"cluster-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 3})
    produce_with_confluent(bs, topic, [(b"k%d" % i, b"v%d" % i) for i in range(5000)])
    sink = f"cluster-sink-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {sink: 2})

    script = tmp_path / "job.py"
    script.write_text(_JOB)
    proc = subprocess.run([sys.executable, str(script), standalone, demo.path, bs, topic, sink], env=_cluster_env(),
                          capture_output=True, text=True, timeout=JOB_TIMEOUT, preexec_fn=_pdeathsig)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, proc.stderr[:6000]
    result = json.loads(lines[0][len("RESULT "):])
    assert result["log_rows"] == demo.committed_records
    assert result["log_partitions"] >= 4
    assert result["live_rows"] == result["live_distinct"] == 5000
    assert result["executors"] == 2
    written = consume_with_confluent(bs, sink, 5000, isolation_level="read_committed")
    assert sorted((k, v) for k, v, _, _, _, _ in written) == sorted((b"k%d" % i, b"v%d" % i) for i in range(5000))

    out = tmp_path / "parquet"
    proc = subprocess.run([sys.executable, "-m", "kafkacodec.spark", "convert", demo.path, str(out),
                           "--master", standalone, "--no-progress", "--json"],
                          env=_cluster_env(), capture_output=True, text=True, timeout=JOB_TIMEOUT,
                          preexec_fn=_pdeathsig)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import pyarrow.parquet as pq

    assert pq.read_table(out).num_rows == demo.committed_records
