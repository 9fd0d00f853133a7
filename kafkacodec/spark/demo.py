"""Moved: the demo data is :mod:`kafkacodec.spark_cli.demo`.  This alias of
its public names stays for one release."""
import warnings

from kafkacodec.spark_cli.demo import (  # noqa: F401
    CODECS,
    LIVE_TOPICS,
    DemoInfo,
    LiveDemoInfo,
    __all__,
    generate_demo,
    produce_live_demo,
    record_digest_update,
)

warnings.warn("kafkacodec.spark.demo moved to kafkacodec.spark_cli.demo; the old name goes in the next release",
              DeprecationWarning, stacklevel=2)
