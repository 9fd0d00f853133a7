"""``python -m kafkacodec.spark_cli convert ...`` (same as ``kafkacodec-spark``)."""
import sys

from kafkacodec.spark_cli.cli import main

sys.exit(main())
