"""``python -m kafkacodec.spark convert ...`` (same as ``kafkacodec-spark``)."""
import sys

from kafkacodec.spark.cli import main

sys.exit(main())
