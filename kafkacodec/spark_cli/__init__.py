"""The ``kafkacodec-spark`` command: ``pipeline`` (live topics to Parquet
with Structured Streaming) and ``convert`` (a log directory to Parquet),
with the demo data they generate and check.

    cli        the command line (``main``)
    convert    ``kafkacodec-spark convert``
    pipeline   ``kafkacodec-spark pipeline``
    demo       demo data: a log directory (generate_demo) or live topics (produce_live_demo)
    check      the demo checks of the Parquet either command wrote

These are programs over the library's Spark DataSources
(:mod:`kafkacodec.spark`), kept apart from them: the DataSources never
import this package.
"""
from __future__ import annotations

from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kafkacodec-spark`` with ``argv`` (default: the process's); the exit status."""
    from kafkacodec.spark_cli.cli import main as run

    return run(argv)
