"""kafka-log with timestamps that do not rise with the offset (CreateTime):
startingTimestamp, endingTimestamp and a pushed-down timestamp filter give
the rows of the unfiltered read, filtered afterwards (its search is checked
record by record in test_live_timestamps.py)."""
import datetime as dt

import pytest

pytest.importorskip("pyspark")

BASE = 1_700_000_000_000


def test_out_of_order_timestamps(spark, tmp_path):
    from pyspark.sql import functions as F

    from kafkacodec.logdir.writer import PartitionWriter
    from kafkacodec.records import RecordBatchBuilder

    # one partition in batches of 100, record 5 stamped in the future, a segment every few batches
    with PartitionWriter(tmp_path / "logs", "ooo", 0, segment_bytes=4096, index_interval_bytes=0) as w:
        for base in range(0, 1000, 100):
            b = RecordBatchBuilder(compression="lz4", base_offset=base)
            for o in range(base, base + 100):
                b.append(BASE + (10 ** 7 if o == 5 else o * 10), b"k", b"v%d" % o)
            w.append(bytes(b.build()))

    def read(**opts):
        r = spark.read.format("kafka-log").option("path", str(tmp_path / "logs"))
        for k, v in opts.items():
            r = r.option(k, v)
        return r.load()

    def offsets(df):
        return sorted(r.offset for r in df.select("offset").collect())

    every = sorted((r.offset, int(r.timestamp.replace(tzinfo=dt.timezone.utc).timestamp() * 1000)
                    if r.timestamp.tzinfo is None else int(r.timestamp.timestamp() * 1000))
                   for r in read().select("offset", "timestamp").collect())
    cut = BASE + 500 * 10
    newer = [o for o, t in every if t >= cut]
    assert len(every) == 1000 and len(newer) == 501 and newer[0] == 5
    assert offsets(read(startingTimestamp=str(cut))) == [o for o, _ in every if o >= 5]
    assert offsets(read(endingTimestamp=str(cut))) == [o for o, _ in every if o < 5]
    lit = F.lit(dt.datetime.fromtimestamp(cut / 1000, tz=dt.timezone.utc))
    assert offsets(read().where(F.col("timestamp") >= lit)) == newer
