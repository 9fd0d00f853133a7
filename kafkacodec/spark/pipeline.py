"""Moved: ``kafkacodec-spark pipeline`` is :mod:`kafkacodec.spark_cli.pipeline`,
its demo check :mod:`kafkacodec.spark_cli.check`.  This alias of its public
names stays for one release."""
import warnings

from kafkacodec.spark_cli.check import committed_files
from kafkacodec.spark_cli.check import marker_live_demo as marker_demo
from kafkacodec.spark_cli.check import verify_live_demo as verify_demo
from kafkacodec.spark_cli.pipeline import CHECKPOINT, WRITER, add_parser, run

__all__ = ["add_parser", "run", "verify_demo", "committed_files", "marker_demo", "WRITER", "CHECKPOINT"]

warnings.warn("kafkacodec.spark.pipeline moved to kafkacodec.spark_cli.pipeline (verify_demo, committed_files "
              "and marker_demo: kafkacodec.spark_cli.check, as verify_live_demo, committed_files, "
              "marker_live_demo); the old name goes in the next release", DeprecationWarning, stacklevel=2)
