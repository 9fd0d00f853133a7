"""A quiet SparkSession for local runs (the CLI, tests and benchmarks)."""
from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["local_session", "QUIET_LOG4J"]

QUIET_LOG4J = """\
# pyspark's start-up announces a level change unless Spark's own logger and the
# root agree, so all are set to one level (error, or off for the convert command,
# which reports a failed job as one line itself)
rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
logger.spark.name = org.apache.spark
logger.spark.level = {level}
logger.sparkproject.name = org.sparkproject
logger.sparkproject.level = {level}
logger.hadoop.name = org.apache.hadoop
logger.hadoop.level = {level}
logger.parquet.name = org.apache.parquet
logger.parquet.level = {level}
logger.netty.name = io.netty
logger.netty.level = {level}
"""


def _source_root() -> str:
    import kafkacodec

    return os.path.dirname(os.path.dirname(os.path.abspath(kafkacodec.__file__)))


def local_session(master: str = "local[*]", *, app_name: str = "kafkacodec", driver_memory: str = "2g",
                  shuffle_partitions: int | None = None, quiet: bool = True, extra: dict[str, Any] | None = None,
                  log_level: str = "error") -> SparkSession:
    """Start (or get) a SparkSession bound to 127.0.0.1 with the UI off and
    logging at ERROR (``log_level="off"``: nothing; applies when this call
    starts the JVM), and register the ``kafka-log`` source.

    For ``local`` masters the directory kafkacodec is imported from is put on
    the Python workers' path, so a source checkout works without installing;
    cluster workers need kafkacodec installed.
    """
    from pyspark.sql import SparkSession

    from kafkacodec.spark._source import register

    if master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        root = _source_root()
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        if root not in paths:
            os.environ["PYTHONPATH"] = os.pathsep.join([root] + paths)
    builder = (SparkSession.builder.master(master).appName(app_name)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.driver.memory", driver_memory)
               .config("spark.sql.session.timeZone", "UTC"))
    if master.startswith("local"):
        builder = (builder.config("spark.driver.host", "127.0.0.1")
                   .config("spark.driver.bindAddress", "127.0.0.1"))
    if shuffle_partitions is not None:
        builder = builder.config("spark.sql.shuffle.partitions", str(shuffle_partitions))
    if quiet:
        level = log_level.lower()
        text = QUIET_LOG4J.replace("{level}", level)
        conf = os.path.join(tempfile.gettempdir(), f"kafkacodec-spark-log4j2-{level}.properties")
        try:
            with open(conf) as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            tmp = f"{conf}.{os.getpid()}"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, conf)  # another process may be starting Spark with the same file
        builder = builder.config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{conf}")
    for k, v in (extra or {}).items():
        builder = builder.config(k, v)
    spark = builder.getOrCreate()
    if quiet:
        spark.sparkContext.setLogLevel(log_level.upper())
    register(spark)
    return spark
