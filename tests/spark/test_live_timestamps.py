"""kafka-live's timestamp search (startingTimestamp, endingTimestamp, a
pushed-down ``timestamp >=``) against a model that looks at every record:
Kafka's rule is the first offset whose timestamp is at or after T, and
CreateTime timestamps need not rise with the offset.  No broker, no Spark:
the Fetches are served from generated batches."""
import bisect
import random
import struct

import pytest

from kafkacodec.records import RecordBatchBuilder
from kafkacodec.spark import _live_offsets, _live_options

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
BASE = 1_700_000_000_000


def _stamps(rng, n, mode):
    if mode == "random":
        return [BASE + rng.randrange(0, 1000) for _ in range(n)]
    if mode == "rising-with-spikes":  # mostly in order, a few stamped far ahead or behind
        out = [BASE + i * 3 for i in range(n)]
        for _ in range(max(1, n // 20)):
            out[rng.randrange(n)] += rng.choice((-1, 1)) * rng.randrange(1, 5000)
        return out
    if mode == "falling":
        return [BASE + (n - i) * 2 for i in range(n)]
    return [BASE + 7] * n  # all equal


class Log:
    """One partition's batches; ``records`` is the model: (offset, timestamp, is_data)."""

    def __init__(self, rng):
        self.batches = []   # (base_offset, last_offset, bytes)
        self.records = []
        n_batches = rng.randrange(1, 25)
        sizes = [rng.randrange(1, 15) for _ in range(n_batches)]
        stamps = _stamps(rng, sum(sizes), rng.choice(("random", "rising-with-spikes", "falling", "equal")))
        offset = rng.randrange(0, 50)
        k = 0
        for size in sizes:
            kind = rng.random()
            if kind < 0.1:  # a transaction marker: no data, a timestamp of its own
                b = RecordBatchBuilder(compression="none", base_offset=offset, producer_id=7, producer_epoch=0,
                                       is_transactional=True, is_control=True)
                stamp = BASE + rng.randrange(-100, 2000)
                b.append(stamp, struct.pack(">hh", 0, 1), struct.pack(">hi", 0, 0))
                self.records.append((offset, stamp, False))
            elif kind < 0.2:  # LogAppendTime: every record carries the broker's time
                append_time = BASE + rng.randrange(0, 1000)
                b = RecordBatchBuilder(compression=rng.choice(CODECS), base_offset=offset, timestamp_type=1,
                                       log_append_time=append_time)
                for i in range(size):
                    b.append(stamps[k + i], b"k", b"v%d" % i)
                    self.records.append((offset + i, append_time, True))
            else:
                b = RecordBatchBuilder(compression=rng.choice(CODECS), base_offset=offset)
                for i in range(size):
                    b.append(stamps[k + i], None if i % 3 == 0 else b"k", b"v" * rng.randrange(0, 40))
                    self.records.append((offset + i, stamps[k + i], True))
            k += size
            data = bytes(b.build())
            last = self.records[-1][0]
            self.batches.append((offset, last, data))
            offset = last + 1 + (rng.randrange(1, 4) if rng.random() < 0.15 else 0)  # compacted gaps
        self.log_start = self.records[0][0]
        self.log_end = self.records[-1][0] + 1
        self.fetches = 0
        self.rng = rng

    def fetch(self, offset, max_bytes):
        """A broker's Fetch: whole batches from the one holding ``offset``, at
        least one, up to ``max_bytes``, sometimes a cut batch last."""
        self.fetches += 1
        if offset < self.log_start or offset >= self.log_end:
            return b""
        i = bisect.bisect_left([last for _, last, _ in self.batches], offset)
        out = bytearray(self.batches[i][2])
        for _, _, data in self.batches[i + 1:]:
            if len(out) + len(data) > max_bytes:
                if self.rng.random() < 0.5:
                    out += data[:self.rng.randrange(1, len(data))]
                break
            out += data
        return bytes(out)

    def model(self, ts, first, end):
        return next((o for o, t, data in self.records if data and first <= o < end and t >= ts), None)


def test_search_matches_a_record_by_record_model(monkeypatch):
    # small fetches so that scans cross many Fetches and cut batches
    monkeypatch.setattr(_live_offsets, "_SCAN_FIRST_BYTES", 200)
    monkeypatch.setattr(_live_offsets, "_SCAN_MAX_BYTES", 2000)
    rng = random.Random(20)
    cases = 0
    for _ in range(250):
        log = Log(rng)
        stamps = sorted({t for _, t, _ in log.records})
        offsets = [o for o, _, _ in log.records]
        for _ in range(6):
            ts = rng.choice(stamps) + rng.choice((-1, 0, 0, 1)) if rng.random() < 0.9 else \
                rng.choice((stamps[0] - 10, stamps[-1] + 10))
            first = log.log_start if rng.random() < 0.7 else rng.choice(offsets)
            end = log.log_end if rng.random() < 0.7 else rng.randrange(first, log.log_end + 1)
            want = log.model(ts, first, end)
            assert _live_offsets.scan_timestamp(log.fetch, ts, first, end) == want, (ts, first, end, log.records)
            # what brokers answer: Kafka the right offset, Tansu always 0, and a broker that
            # answers nothing while the last record says otherwise (librdkafka's mock cluster)
            answers = [want, 0]
            last = [t for o, t, data in log.records if data and first <= o < end][-1:]
            if last and last[0] >= ts:
                answers.append(None)
            for answer in answers:
                got = _live_offsets.timestamp_offset(log.fetch, ts, answer, first, end)
                assert got == want, (answer, ts, first, end, log.records)
                cases += 1
    assert cases > 250 * 6 * 2


def test_out_of_order_record_is_found_by_headers_alone():
    """The issue's case: one partition in batches of 100, record 5 stamped in
    the future.  The answer is offset 5 (not 500), and the batches after the
    one holding it are never fetched."""
    batches = []
    for base in range(0, 1000, 100):
        b = RecordBatchBuilder(compression="lz4", base_offset=base)
        for o in range(base, base + 100):
            b.append(BASE + (10 ** 6 if o == 5 else o * 10), b"k", b"v%d" % o)
        batches.append(bytes(b.build()))
    calls = []

    def fetch(offset, max_bytes):
        calls.append(offset)
        return batches[offset // 100] if offset < 1000 else b""

    cut = BASE + 500 * 10
    assert _live_offsets.scan_timestamp(fetch, cut, 0, 1000) == 5
    assert calls == [0]
    # Tansu answers 0: record 0 is older than the cut, so the answer is searched for
    calls.clear()
    assert _live_offsets.timestamp_offset(fetch, cut, 0, 0, 1000) == 5
    # past every timestamp but record 5's
    assert _live_offsets.timestamp_offset(fetch, BASE + 10 ** 5, 0, 0, 1000) == 5
    assert _live_offsets.timestamp_offset(fetch, BASE + 10 ** 6 + 1, 0, 0, 1000) is None
    # starting past record 5, the next qualifying record is the cut's
    assert _live_offsets.scan_timestamp(fetch, cut, 6, 1000) == 500
    # a consistent answer from the broker is taken without a scan
    calls.clear()
    assert _live_offsets.timestamp_offset(fetch, BASE + 10 ** 5, 5, 0, 1000) == 5
    assert len(calls) == 2  # the batch at the answer and the one before it


def test_a_batch_that_never_arrives_is_an_error():
    with pytest.raises(_live_options.LiveError, match="no record batch at offset 3"):
        _live_offsets.scan_timestamp(lambda offset, max_bytes: b"", BASE, 3, 10)


def test_kafka_log_search_matches_the_model(tmp_path):
    """kafka-log answers the same question from the ``.timeindex`` (the
    largest timestamp so far, per index entry) and the batches after it:
    checked on the same generated logs, cut into several segments."""
    from kafkacodec import logdir
    from kafkacodec.logdir.writer import PartitionWriter
    from kafkacodec.spark import _plan

    rng = random.Random(21)
    for n in range(60):
        log = Log(rng)
        path = tmp_path / str(n)
        with PartitionWriter(path, "t", 0, segment_bytes=rng.choice((300, 1500, 1 << 20)),
                             index_interval_bytes=rng.choice((0, 200, 4096)),
                             start_offset=log.batches[0][0]) as w:
            for _, _, data in log.batches:
                w.append(data)
        stamps = sorted({t for _, t, _ in log.records})
        with logdir.open(path / "t-0") as part:
            for ts in [stamps[0] - 1, stamps[-1] + 1] + [rng.choice(stamps) + rng.choice((-1, 0, 1))
                                                         for _ in range(8)]:
                want = log.model(ts, log.log_start, log.log_end)
                assert _plan.offset_for_timestamp(part, ts) == want, (n, ts, log.records)
