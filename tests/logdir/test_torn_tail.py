"""An incomplete batch ending the active segment (a torn write) is left out of
a read as Kafka's log recovery would truncate it -- and, as Kafka does, said:
counted with its file, byte position and size in ReadStats.torn_tails and
logged as a warning on the ``kafkacodec.logdir`` logger."""
import logging

import pytest

import kafkacodec.logdir as logdir
from kafkacodec.logdir import ReadStats, TornTail
from kafkacodec.logdir.writer import PartitionWriter
from kafkacodec.records import build_batches

LOGGER = "kafkacodec.logdir"


def _records(n, start=0):
    return [(1_000 + i, b"k%d" % i, b"v" * 40) for i in range(start, start + n)]


def torn_partition(root, *, cut=100, records=400):
    """A partition of two segments whose last one ends in the first bytes of
    a batch (an append cut short: the broker writes no index entry before the
    log).  Returns (partition dir, TornTail, rows in whole batches)."""
    with PartitionWriter(root, "t", 0, segment_bytes=8 << 10, index_interval_bytes=1024) as w:
        for batch in build_batches(_records(records), batch_size=2048):
            w.append(batch, assign_offsets=True)  # one append each, so the writer rolls segments
        nxt = w.next_offset
    part = logdir.open(root / "t-0")
    assert len(part.segments) >= 2
    seg = part.segments[-1]
    extra = b"".join(build_batches(_records(10, records), batch_size=1 << 20, base_offset=nxt))
    with open(seg.log_path, "ab") as f:
        f.write(extra[:len(extra) - cut])
    return root / "t-0", TornTail(str(seg.log_path), seg.size, len(extra) - cut), records


def _warnings(caplog):
    return [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]


def test_read_batches_counts_and_logs_the_torn_tail(tmp_path, caplog):
    path, tail, rows = torn_partition(tmp_path)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    reader = logdir.open(path).read_batches()
    views = list(reader)
    from kafkacodec.records import decode_records

    assert sum(len(decode_records(bytes(v))) for v in views) == rows
    stats = reader.stats
    assert (stats.partial_batches, stats.truncated_bytes) == (1, tail.bytes)
    assert stats.torn_tails == [tail]
    assert stats.skipped_batches == 0 and stats.errors == []
    (warning,) = _warnings(caplog)
    text = warning.getMessage()
    assert text.startswith(f"{tail.file}: ")
    assert f"{tail.bytes} bytes at byte {tail.position}" in text and "torn write" in text


def test_per_batch_views_and_skip_mode_count_it_the_same(tmp_path, caplog):
    path, tail, _ = torn_partition(tmp_path)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    for kwargs in ({"per_batch": True}, {"on_corruption": "skip", "verify_crc": True}):
        caplog.clear()
        reader = logdir.open(path).read_batches(**kwargs)
        list(reader)
        assert reader.stats.torn_tails == [tail], kwargs
        assert len(_warnings(caplog)) == 1, kwargs


def test_walks_that_only_find_batch_ends_do_not_log(tmp_path, caplog):
    # planning looks at the tail many times (valid_end, split, lookups); only a read that leaves it out says so
    path, tail, _ = torn_partition(tmp_path)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    part = logdir.open(path)
    seg = part.segments[-1]
    assert seg.valid_end() == tail.position and seg.truncated_bytes == tail.bytes
    assert seg.torn_tail() == tail and part.segments[0].torn_tail() is None
    ranges = part.split(4096)
    assert ranges[-1].end == tail.position
    list(part.batches())
    assert _warnings(caplog) == []
    # a header walk whose caller counts what it left out does report it
    stats = ReadStats()
    list(part.batches(stats=stats))
    assert stats.torn_tails == [tail] and len(_warnings(caplog)) == 1


def test_read_range_over_the_tail_counts_it(tmp_path, caplog):
    path, tail, _ = torn_partition(tmp_path)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    last = logdir.open(path).split(1 << 20)[-1]
    assert last.is_active
    stats = ReadStats()
    view = logdir.read_range(last._replace(end=tail.position + tail.bytes), stats=stats)
    assert len(view) == tail.position - last.start
    assert stats.torn_tails == [tail] and stats.truncated_bytes == tail.bytes
    assert len(_warnings(caplog)) == 1


def test_merge_keeps_the_tails():
    a, b = ReadStats(), ReadStats()
    b.add_torn_tail(TornTail("x/00000000000000000000.log", 10, 7))
    a.merge(b)
    assert (a.partial_batches, a.truncated_bytes, a.torn_tails) == (1, 7, [TornTail("x/00000000000000000000.log",
                                                                                    10, 7)])


def test_a_closed_segment_ending_early_is_still_corruption(tmp_path, caplog):
    # the warning is for the active segment only; a closed one cut short stays an error
    from kafkacodec.errors import CorruptDataError

    path, _, _ = torn_partition(tmp_path)
    first = logdir.open(path).segments[0]
    with open(first.log_path, "r+b") as f:
        f.truncate(first.size - 5)
    caplog.set_level(logging.WARNING, logger=LOGGER)
    with pytest.raises(CorruptDataError, match=str(first.log_path)):
        list(logdir.open(path).read_batches())
    assert _warnings(caplog) == []
