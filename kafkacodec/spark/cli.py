"""Moved: the ``kafkacodec-spark`` command is :mod:`kafkacodec.spark_cli`
(``convert`` in :mod:`kafkacodec.spark_cli.convert`).  This alias of its
public names stays for one release."""
import warnings

from kafkacodec.spark_cli._common import MARKER, CommandError, job_failed
from kafkacodec.spark_cli.cli import main
from kafkacodec.spark_cli.convert import PARTITIONED_WRITE_CONF, convert, partitioned_write_conf, preflight

__all__ = ["main", "convert", "MARKER", "CommandError", "job_failed", "preflight", "partitioned_write_conf",
           "PARTITIONED_WRITE_CONF"]

warnings.warn("kafkacodec.spark.cli moved to kafkacodec.spark_cli (main: kafkacodec.spark_cli.cli, convert "
              "and partitioned_write_conf: kafkacodec.spark_cli.convert); the old name goes in the next release",
              DeprecationWarning, stacklevel=2)
