"""``kafkacodec-spark``: Kafka topics and log directories to Parquet with Spark.

    kafkacodec-spark pipeline --demo [OUT] [--bootstrap-servers HOST:PORT]
    kafkacodec-spark pipeline --bootstrap-servers HOST:PORT --topics a,b OUT
        live topics -> Parquet with Structured Streaming (see kafkacodec.spark_cli.pipeline)
    kafkacodec-spark convert LOGDIR OUT [options]
    kafkacodec-spark convert --demo [OUT]
        a log directory -> Parquet (see kafkacodec.spark_cli.convert)
    python -m kafkacodec.spark_cli ...

Exit status: 0, 1 when the data, the job or a demo check failed, 2 for a
usage error or an OUT that is not acceptable, 130 when interrupted.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kafkacodec.spark_cli import convert, pipeline
from kafkacodec.spark_cli._common import CommandError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kafkacodec-spark",
                                description="Kafka topics and log directories to Parquet with Spark (kafkacodec).")
    sub = p.add_subparsers(dest="command", required=True)
    pipeline.add_parser(sub)
    convert.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    log = sys.stderr
    try:
        status: int = args.run(args, log)
        return status
    except CommandError as exc:
        if args.verbose and exc.__cause__ is not None:
            import traceback

            traceback.print_exception(exc.__cause__, file=log)
        log.write(f"kafkacodec-spark: {exc}\n")
        return exc.status
    except KeyboardInterrupt:
        log.write("kafkacodec-spark: interrupted\n")
        return 130
