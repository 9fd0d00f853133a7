"""PartitionWriter round trips: write batches, reopen with the reader, compare."""
import random

import pytest

import kafkacodec.logdir as logdir
from kafkacodec.errors import KafkaCodecError, TruncatedDataError
from kafkacodec.logdir.writer import PartitionWriter
from logdir_helpers import build_batch, control_batch


def expected_indexes(sizes, last_offsets, max_timestamps, interval):
    """The broker's per-batch index rule, restated independently of the writer."""
    index, tindex = [], []
    since, position = 0, 0
    top, top_offset = -1, None
    for size, last, ts in zip(sizes, last_offsets, max_timestamps):
        if ts > top:
            top, top_offset = ts, last
        if since > interval:
            index.append((last, position))
            if not tindex or top > tindex[-1][0]:
                tindex.append((top, top_offset))
            since = 0
        since += size
        position += size
    return index, tindex, (top, top_offset)


def make_workload(n=300, seed=1):
    """Batches of varied size with timestamps that sometimes go backwards."""
    rnd = random.Random(seed)
    out = []
    ts = 1_700_000_000_000
    for i in range(n):
        count = rnd.choice([1, 1, 2, 5, 20])
        stamps = []
        for _ in range(count):
            ts += rnd.choice([-50, 0, 1, 3, 10])
            stamps.append(ts)
        out.append(build_batch(stamps, value_size=rnd.choice([5, 50, 400]), seed=i))
    return out


@pytest.mark.parametrize("interval, group", [(0, 1), (1000, 1), (4096, 1), (0, 3), (1000, 4)])
def test_round_trip_indexes_and_lookups(tmp_path, interval, group):
    batches = make_workload()
    appends = [b"".join(batches[i:i + group]) for i in range(0, len(batches), group)]
    with PartitionWriter(tmp_path, "my.topic-name", 3, segment_bytes=20_000,
                         index_interval_bytes=interval, topic_id="AAAAAAAAAAAAAAAAAAAAAQ") as w:
        infos = [w.append(b, assign_offsets=True, leader_epoch=7) for b in appends]
    assert infos[0].first_offset == 0
    assert all(a.last_offset + 1 == b.first_offset for a, b in zip(infos, infos[1:]))

    d = logdir.open(tmp_path)
    assert d.topics() == ["my.topic-name"]
    p = d.partition("my.topic-name", 3)
    assert logdir.open(tmp_path / "my.topic-name-3").topic == "my.topic-name"
    assert p.topic_id == "AAAAAAAAAAAAAAAAAAAAAQ"
    assert p.leader_epochs == [(7, 0)]
    assert [s.base_offset for s in p.segments] == [s.base_offset for s in w.segments]
    assert len(p.segments) > 3
    assert p.next_offset == infos[-1].last_offset + 1

    for seg, written in zip(p.segments, w.segments):
        assert seg.size == written.size <= 20_000
        assert seg.read_index() == written.index
        assert seg.read_timeindex() == written.timeindex
        # closed (and cleanly closed active) index files are trimmed to their entries
        assert seg.index_path.stat().st_size == 8 * len(written.index)
        assert seg.timeindex_path.stat().st_size == 12 * len(written.timeindex)
        headers = list(seg.headers())
        index, tindex, final = expected_indexes([h.size for h in headers], [h.last_offset for h in headers],
                                                [h.max_timestamp for h in headers], interval)
        assert [tuple(e) for e in seg.read_index()] == index
        if not tindex or final[0] > tindex[-1][0]:
            tindex.append(final)
        assert [tuple(e) for e in seg.read_timeindex()] == tindex
        if interval == 0:
            assert len(index) == len(headers) - 1  # every append after the first

    all_batches = [(s, h) for s in p.segments for h in s.headers()]
    for off in range(-1, p.next_offset + 2, 7):
        want = next(((s, h.position) for s, h in all_batches if h.last_offset >= off), None)
        got = p.lookup_offset(off)
        assert (None if got is None else tuple(got)) == want
    stamps = sorted({h.max_timestamp + d for _, h in all_batches for d in (-1, 0, 1)})
    for ts in stamps[::5]:
        want = next(((s, h.position) for s, h in all_batches if h.max_timestamp >= ts), None)
        got = p.lookup_timestamp(ts)
        assert (None if got is None else tuple(got)) == want

    # the log holds exactly the appended bytes with offsets filled in
    assert sum(len(v) for v in p.read_batches()) == sum(len(b) for b in batches)
    expect = 0
    for view, original in zip(p.read_batches(per_batch=True), batches, strict=True):
        h = logdir.read_header(view, 0, len(view))
        assert (h.base_offset, h.partition_leader_epoch) == (expect, 7)
        assert bytes(view[61:]) == original[61:]  # records untouched
        expect = h.last_offset + 1
    ranges = p.split(3000)
    assert sum(r.size for r in ranges) == p.size
    rnd = random.Random(interval)
    for _ in range(40):
        lo, hi = sorted(rnd.randrange(-2, p.next_offset + 3) for _ in range(2))
        want = b"".join(bytes(s.data[h.position:h.end]) for s, h in all_batches
                        if h.last_offset >= lo and h.base_offset < hi)
        assert b"".join(p.read_batches(lo, hi)) == want, (lo, hi)
        assert b"".join(p.read_batches(lo, hi, per_batch=True)) == want
        assert [h for _, h in p.batches(lo, hi)] == [h for _, h in all_batches
                                                     if h.last_offset >= lo and h.base_offset < hi]
    assert b"".join(p.read_batches(end_offset=0)) == b""
    assert b"".join(p.read_batches(start_offset=p.next_offset)) == b""


def test_transactions_round_trip(tmp_path):
    w = PartitionWriter(tmp_path, "tx", 0, segment_bytes=2000)
    aborted = []
    ts = 1_000
    for txn in range(12):
        pid = 100 + txn % 3
        first = None
        for k in range(3):
            info = w.append(build_batch([ts, ts + 1], producer_id=pid, producer_epoch=0,
                                        base_sequence=k * 2, transactional=True, seed=txn * 10 + k),
                            assign_offsets=True)
            first = info.first_offset if first is None else first
            ts += 5
        commit = txn % 2 == 0
        marker = w.append(control_batch(pid, 0, ts, commit=commit), assign_offsets=True)
        if not commit:
            aborted.append(w.add_aborted_transaction(pid, first, marker.last_offset))
    with pytest.raises(ValueError):
        w.add_aborted_transaction(100, 0, aborted[-1].last_offset)  # not after the previous marker
    with pytest.raises(ValueError):
        w.add_aborted_transaction(100, 0, w.next_offset)  # marker not written yet
    w.close()

    p = logdir.open(tmp_path / "tx-0")
    assert len(p.segments) > 2
    assert p.aborted_transactions() == sorted(aborted, key=lambda t: t.first_offset)
    assert all(t.last_stable_offset == t.last_offset + 1 for t in aborted)
    per_segment = {s.base_offset: s.read_txnindex() for s in p.segments}
    for t in aborted:
        holder = p.segment_for(t.last_offset)
        assert t in per_segment[holder.base_offset]
    mid = aborted[2]
    window = p.aborted_transactions(mid.first_offset, mid.last_offset)
    assert mid in window and aborted[0] not in window
    assert [tuple(t)[:2] for t in window] == [(t.producer_id, t.first_offset) for t in window]
    control = [h for s in p.segments for h in s.headers() if h.is_control]
    assert len(control) == 12 and all(h.is_transactional for h in control)


def test_read_committed_with_record_layer(tmp_path):
    from kafkacodec import records
    w = PartitionWriter(tmp_path, "tx", 0)
    first = w.append(build_batch([1, 2], producer_id=5, producer_epoch=0, base_sequence=0,
                                 transactional=True), assign_offsets=True).first_offset
    marker = w.append(control_batch(5, 0, 3, commit=False), assign_offsets=True)
    w.add_aborted_transaction(5, first, marker.last_offset)
    w.append(build_batch([4]), assign_offsets=True)
    w.close()
    p = logdir.open(tmp_path / "tx-0")
    data = b"".join(bytes(v) for v in p.read_batches())
    committed = records.decode_records(data, isolation_level="read_committed",
                                       aborted_transactions=p.aborted_transactions())
    assert [r.offset for r in committed] == [marker.last_offset + 1]


def test_unclean_close_leaves_padded_indexes(tmp_path):
    batches = make_workload(80, seed=3)
    w = PartitionWriter(tmp_path, "live", 0, segment_bytes=10_000, index_interval_bytes=500,
                        max_index_bytes=4096)
    for b in batches:
        w.append(b, assign_offsets=True)
    w.close(clean=False)
    p = logdir.open(tmp_path / "live-0")
    active = p.segments[-1]
    assert active.index_path.stat().st_size == 4096
    assert active.timeindex_path.stat().st_size == 4092
    assert active.read_index() == w.active.index
    # no final time-index entry: that is written only when a segment closes
    assert active.read_timeindex() == w.active.timeindex
    headers = list(active.headers())
    assert len(active.read_index()) > 1
    top = max(h.max_timestamp for h in headers)
    assert not active.read_timeindex() or active.read_timeindex()[-1].timestamp <= top
    for seg in p.segments[:-1]:
        assert seg.index_path.stat().st_size == 8 * len(seg.read_index())
    for h in headers[::3]:
        assert p.lookup_offset(h.last_offset) == (active, h.position)
        assert p.lookup_timestamp(h.max_timestamp).batch.max_timestamp >= h.max_timestamp


def test_truncated_tail_of_active_segment(tmp_path):
    w = PartitionWriter(tmp_path, "t", 0, segment_bytes=5000, index_interval_bytes=100)
    for i in range(40):
        w.append(build_batch([i, i + 1], value_size=60, seed=i), assign_offsets=True)
    w.close()
    part_dir = tmp_path / "t-0"
    p = logdir.open(part_dir)
    full = b"".join(bytes(v) for v in p.read_batches())
    active_path = p.segments[-1].log_path
    extra = build_batch([99], base_offset=w.next_offset)
    with open(active_path, "ab") as f:
        f.write(extra[: len(extra) // 2])

    p = logdir.open(part_dir)
    reader = p.read_batches()
    assert b"".join(bytes(v) for v in reader) == full
    assert reader.truncated_bytes == len(extra) // 2
    assert p.segments[-1].truncated_bytes == len(extra) // 2
    assert p.segments[-1].valid_size == p.segments[-1].size - len(extra) // 2
    assert p.next_offset == w.next_offset
    assert p.lookup_offset(w.next_offset) is None
    assert sum(r.size for r in p.split(700)) == len(full)
    assert bytes(p.segments[-1].read()) == bytes(p.segments[-1].data[: p.segments[-1].valid_size])

    # a preallocated (zero-filled) tail reads the same way
    with open(active_path, "r+b") as f:
        f.truncate(p.segments[-1].valid_size)
        f.seek(0, 2)
        f.write(bytes(3000))
    p = logdir.open(part_dir)
    assert b"".join(bytes(v) for v in p.read_batches()) == full
    assert p.segments[-1].truncated_bytes == 3000

    # the same damage in a closed segment is an error
    first = p.segments[0].log_path
    with open(first, "ab") as f:
        f.write(extra[:30])
    p = logdir.open(part_dir)
    with pytest.raises(TruncatedDataError) as err:
        list(p.read_batches())
    # the length field of the batch that starts 30 bytes before the end
    assert err.value.path == f"segment[{p.segments[0].name}].log.batch_length"
    assert err.value.offset == p.segments[0].size - 30 + 8
    assert str(err.value).startswith(f"{first}: ")


def test_writer_rejects_bad_input(tmp_path):
    w = PartitionWriter(tmp_path, "x", 0, start_offset=1000)
    assert w.segments[0].base_offset == 1000
    with pytest.raises(KafkaCodecError):
        w.append(build_batch([1], base_offset=5))  # below the log end
    info = w.append(build_batch([1, 2], base_offset=1000))
    assert (info.first_offset, info.last_offset) == (1000, 1001)
    with pytest.raises(KafkaCodecError):
        w.append(build_batch([1])[:-3])  # incomplete batch
    with pytest.raises(KafkaCodecError):
        w.append(b"")
    info = w.append(build_batch([3], base_offset=5000))  # gaps are fine (compacted logs have them)
    assert w.next_offset == 5001
    w.close()
    with pytest.raises(FileExistsError):
        PartitionWriter(tmp_path, "x", 0)
    with pytest.raises(ValueError):
        PartitionWriter(tmp_path, "bad/name", 0)
    p = logdir.open(tmp_path / "x-0")
    assert p.lookup_offset(2000) == (p.segments[0], info.position)


def test_multi_batch_append_and_oversized_append(tmp_path):
    w = PartitionWriter(tmp_path, "m", 0, segment_bytes=1000, index_interval_bytes=0)
    small = [build_batch([10 + i], seed=i) for i in range(3)]
    a = w.append(b"".join(small), assign_offsets=True)  # one append of three batches
    assert (a.first_offset, a.last_offset) == (0, 2)
    b = w.append(b"".join(small), assign_offsets=True)
    # one entry per batch once the interval is exceeded, even inside one append
    p1, p2 = len(small[0]), len(small[0]) + len(small[1])
    assert w.segments[-1].index == [(1, p1), (2, p2), (3, b.position), (4, b.position + p1), (5, b.position + p2)]
    big = build_batch(list(range(30)), value_size=100)
    c = w.append(big, assign_offsets=True)  # larger than segment_bytes: its own segment
    assert c.segment_base_offset == 6 and c.position == 0
    w.append(small[0], assign_offsets=True)
    w.close()
    p = logdir.open(tmp_path / "m-0")
    assert [s.base_offset for s in p.segments] == [0, 6, 36]
    assert p.lookup_offset(4) == (p.segments[0], b.position + len(small[0]))
    assert [len(r) for r in [range(r.start, r.end) for r in p.split(1)]] == [len(x) for x in small] * 2 + [
        len(big), len(small[0])]


def test_legacy_message_sets(tmp_path):
    from logdir_helpers import aiokafka_batches, legacy_message_set

    w = PartitionWriter(tmp_path, "old", 0, index_interval_bytes=50)
    w.append(legacy_message_set(0, [None, None]), assign_offsets=True)  # two magic-0 messages
    w.append(legacy_message_set(1, [100, 90, 120]), assign_offsets=True)
    w.append(legacy_message_set(1, [130, 140, 135, 150], compression=1, last_offset=8))  # offsets 5..8
    with pytest.raises(KafkaCodecError, match="compressed legacy"):
        w.append(legacy_message_set(1, [1], compression=1, last_offset=9), assign_offsets=True)
    w.append(build_batch([160, 170]), assign_offsets=True)  # magic 2 after legacy
    w.close()
    p = logdir.open(tmp_path / "old-0")
    headers = list(p.segments[0].headers())
    assert [(h.magic, h.base_offset, h.last_offset) for h in headers] == [
        (0, 0, 0), (0, 1, 1), (1, 2, 2), (1, 3, 3), (1, 4, 4), (1, 8, 8), (2, 9, 10)]
    assert [h.max_timestamp for h in headers] == [-1, -1, 100, 90, 120, 150, 170]
    assert headers[5].compression == 1
    # the compressed wrapper holds offsets 5..8 though its header only names 8
    for off in range(5, 9):
        assert p.lookup_offset(off).position == headers[5].position
    assert p.lookup_timestamp(125).position == headers[5].position
    assert p.lookup_timestamp(-1).position == 0
    assert [h.last_offset for _, h in p.batches(6, 7)] == [8]
    assert [h.last_offset for _, h in p.batches(3, 6)] == [3, 4, 8]
    decoded = [d for v in p.read_batches(per_batch=True) for d in aiokafka_batches(v)]
    assert [r.offset for _, _, recs in decoded for r in recs] == list(range(11))
    assert all(ok for _, ok, _ in decoded)
    assert p.segments[0].read_timeindex()[-1] == (170, 10)


def test_writer_verifies_checksums(tmp_path):
    from kafkacodec.errors import CrcMismatchError
    from logdir_helpers import legacy_message_set

    w = PartitionWriter(tmp_path, "crc", 0)
    good = bytearray(build_batch([1, 2]))
    bad = bytearray(good)
    bad[-1] ^= 0xFF
    with pytest.raises(CrcMismatchError):
        w.append(bad, assign_offsets=True)
    legacy = bytearray(legacy_message_set(1, [5]))
    legacy[-1] ^= 0x01
    with pytest.raises(CrcMismatchError):
        w.append(legacy, assign_offsets=True)
    w.append(bad, assign_offsets=True, verify_crc=False)  # a deliberately broken fixture
    assert w.next_offset == 2
    w.close()


def test_split_offset_ranges(tmp_path):
    batches = make_workload(150, seed=9)
    with PartitionWriter(tmp_path, "r", 0, segment_bytes=8000, index_interval_bytes=700) as w:
        for b in batches:
            w.append(b, assign_offsets=True)
    p = logdir.open(tmp_path / "r-0")
    all_batches = [(s, h) for s in p.segments for h in s.headers()]
    rnd = random.Random(4)
    for _ in range(60):
        lo, hi = sorted(rnd.randrange(-2, p.next_offset + 3) for _ in range(2))
        if rnd.random() < 0.2:
            lo = None
        if rnd.random() < 0.2:
            hi = None
        wanted = [(str(s.log_path), h.position, h.end) for s, h in all_batches
                  if (lo is None or h.last_offset >= lo) and (hi is None or h.base_offset < hi)]
        ranges = p.split(rnd.choice([1, 500, 3000, 10**6]), lo, hi)
        covered = []
        for r in ranges:
            inside = [b for b in wanted if b[0] == r.path and r.start <= b[1] and b[2] <= r.end]
            assert inside and inside[0][1] == r.start and inside[-1][2] == r.end
            covered.extend(inside)
        assert covered == wanted, (lo, hi)
