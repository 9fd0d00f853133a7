"""``python -m kafkacodec.spark``: the old name of ``python -m kafkacodec.spark_cli``, for one release."""
import sys
import warnings

from kafkacodec.spark_cli.cli import main

warnings.warn("python -m kafkacodec.spark is now python -m kafkacodec.spark_cli (or kafkacodec-spark); "
              "the old name goes in the next release", DeprecationWarning, stacklevel=1)
sys.exit(main())
