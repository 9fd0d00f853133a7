"""kafkacodec.logdir against real broker data directories in ../shared.

Everything a lookup returns is checked against a plain linear walk of the
batch headers, which is the definition the indexes are shortcuts for.
"""
import bisect

import pytest

import kafkacodec.logdir as logdir


def all_partitions(root):
    d = logdir.open(root)
    assert isinstance(d, logdir.LogDir)
    return d, d.partitions(include_internal=True)


def linear(part):
    """Every batch in log order as (segment, header)."""
    out = []
    for seg in part.segments:
        walk = seg.headers()
        out.extend((seg, h) for h in walk)
        assert walk.truncated_bytes == 0
        assert walk.position == seg.size
    return out


def test_listing(sample_root):
    d, parts = all_partitions(sample_root)
    assert d.ignored == []
    names = {f"{p.topic}-{p.partition}" for p in parts}
    if sample_root.parent.name == "flink-on-prem":
        assert len(parts) == 10
        assert {"orders-0", "__cluster_metadata-0", "_confluent-monitoring-0"} <= names
        assert d.meta_properties["node.id"]
    else:
        assert names == {"__cluster_metadata-0"} | {f"product-created-events-topic-{i}" for i in range(3)}
    # internal topics (double underscore) are left out unless asked for
    default = {f"{p.topic}-{p.partition}" for p in d.partitions()}
    assert default == {n for n in names if not n.startswith("__")}
    assert "__cluster_metadata" not in d.topics()
    assert "__cluster_metadata" in d.topics(include_internal=True)
    for p in parts:
        assert [s.base_offset for s in p.segments] == sorted(s.base_offset for s in p.segments)
        assert p.segments[-1].is_active and not any(s.is_active for s in p.segments[:-1])
        assert p.topic_id and len(p.topic_id) == 22
        assert p.leader_epochs
        same = logdir.open(p.path)
        assert isinstance(same, logdir.PartitionDir)
        assert (same.topic, same.partition) == (p.topic, p.partition)


def test_two_segment_metadata_log(shared_dir):
    root = shared_dir / "kafka-log-samples" / "apache-kafka-eda-study" / "data" / "__cluster_metadata-0"
    if not root.is_dir():
        pytest.skip("eda-study sample not present")
    with logdir.open(root) as p:
        assert [s.base_offset for s in p.segments] == [0, 14667]
        first, second = p.segments
        assert first.next_offset == 14667 == second.base_offset
        assert first.index_path and second.timeindex_path and first.txnindex_path is None
        assert p.lookup_offset(14666).segment is first
        assert p.lookup_offset(14667) == (second, 0)
        assert p.next_offset == second.next_offset
        assert p.leader_epochs[:2] == [(1, 0), (2, 3442)]
        ranges = p.split(1 << 30)
        assert [(r.segment_base_offset, r.start, r.end) for r in ranges] == [
            (0, 0, first.size), (14667, 0, second.size)]


def test_indexes(sample_root):
    _, parts = all_partitions(sample_root)
    for p in parts:
        for seg in p.segments:
            headers = [h for s, h in linear(p) if s is seg]
            by_pos = {h.position: h for h in headers}
            for i, e in enumerate(seg.read_index()):
                h = by_pos.get(e.position)
                assert h is not None, (p, seg, i, e)
                assert h.base_offset <= e.offset <= h.last_offset, (p, seg, i, e, h)
            tindex = seg.read_timeindex()
            assert [e.timestamp for e in tindex] == sorted({e.timestamp for e in tindex})
            assert [e.offset for e in tindex] == sorted(e.offset for e in tindex)
            lasts = [h.last_offset for h in headers]
            running = []  # running maximum of max_timestamp before each batch
            top = -1
            for h in headers:
                running.append(top)
                top = max(top, h.max_timestamp)
            for e in tindex:
                # the entry names the batch where the running maximum first reached its timestamp
                k = bisect.bisect_left(lasts, e.offset)
                holder = headers[k]
                assert holder.base_offset <= e.offset and holder.max_timestamp == e.timestamp, (p, seg, e)
                assert running[k] < e.timestamp, (p, seg, e)
            if headers and tindex:
                # closed segments and cleanly shut down active ones end with the segment maximum
                assert tindex[-1].timestamp == max(h.max_timestamp for h in headers)
            assert seg.read_txnindex() == []
        assert p.aborted_transactions() == []


def _probe_offsets(batches):
    offsets = set()
    step = max(1, len(batches) // 150)
    for _, h in batches[::step]:
        offsets.update({h.base_offset - 1, h.base_offset, h.last_offset, (h.base_offset + h.last_offset) // 2})
    if batches:
        offsets.update({-5, batches[-1][1].last_offset, batches[-1][1].last_offset + 1, 10**15})
    return sorted(offsets)


def test_lookup_offset_matches_linear_scan(sample_root):
    _, parts = all_partitions(sample_root)
    for p in parts:
        batches = linear(p)
        for off in _probe_offsets(batches):
            want = next(((s, h.position) for s, h in batches if h.last_offset >= off), None)
            got = p.lookup_offset(off)
            assert (None if got is None else (got.segment, got.position)) == want, (p, off)
            if got is not None:
                assert got.batch.last_offset >= off


def test_lookup_timestamp_matches_linear_scan(sample_root):
    _, parts = all_partitions(sample_root)
    for p in parts:
        batches = linear(p)
        if not batches:
            assert p.lookup_timestamp(0) is None
            continue
        stamps = set()
        step = max(1, len(batches) // 150)
        for _, h in batches[::step]:
            stamps.update({h.max_timestamp - 1, h.max_timestamp, h.max_timestamp + 1})
        top = max(h.max_timestamp for _, h in batches)
        stamps.update({-1, 0, top, top + 1})
        for ts in sorted(stamps):
            want = next(((s, h.position) for s, h in batches if h.max_timestamp >= ts), None)
            got = p.lookup_timestamp(ts)
            assert (None if got is None else (got.segment, got.position)) == want, (p, ts)


@pytest.mark.parametrize("max_bytes", [1, 5000, 65536, 1 << 40])
def test_split_covers_log_exactly_once(sample_root, max_bytes):
    _, parts = all_partitions(sample_root)
    for p in parts:
        batches = linear(p)
        starts = {(str(s.log_path), h.position): h for s, h in batches}
        ends = {(str(s.log_path), h.end) for s, h in batches}
        ranges = p.split(max_bytes)
        covered = {}
        for r in ranges:
            assert (r.path, r.start) in starts, r
            assert (r.path, r.end) in ends, r
            assert r.first_offset == starts[(r.path, r.start)].base_offset
            assert (r.topic, r.partition) == (p.topic, p.partition)
            if r.size > max_bytes:  # only a single oversized batch may exceed the budget
                assert starts[(r.path, r.start)].end == r.end
            covered.setdefault(r.path, []).append((r.start, r.end))
        for seg in p.segments:
            spans = covered.get(str(seg.log_path), [])
            if seg.size == 0:
                assert spans == []
                continue
            assert spans[0][0] == 0 and spans[-1][1] == seg.size
            assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
        if max_bytes == 1:
            assert len(ranges) == len(batches)
    # a range can be read back without the PartitionDir (as a worker would)
    for p in parts:
        for r in p.split(200_000)[:3]:
            seg = next(s for s in p.segments if str(s.log_path) == r.path)
            assert bytes(logdir.read_range(r)) == bytes(seg.data[r.start:r.end])


def test_read_batches(sample_root):
    _, parts = all_partitions(sample_root)
    for p in parts:
        batches = linear(p)
        views = list(p.read_batches())
        assert b"".join(bytes(v) for v in views) == b"".join(bytes(s.data) for s in p.segments)
        reader = p.read_batches(per_batch=True)
        sizes = [len(v) for v in reader]
        assert sizes == [h.size for _, h in batches]
        assert reader.truncated_bytes == 0
        if len(batches) > 4:
            lo = batches[len(batches) // 3][1].base_offset + 1
            hi = batches[2 * len(batches) // 3][1].last_offset
            got = [len(v) for v in p.read_batches(lo, hi, per_batch=True)]
            want = [h.size for _, h in batches if h.last_offset >= lo and h.base_offset < hi]
            assert got == want
            joined = b"".join(p.read_batches(lo, hi))
            assert joined == b"".join(p.read_batches(lo, hi, per_batch=True))
            assert joined == b"".join(p.read_batches(lo, hi, check_headers=True))
            assert [h for _, h in p.batches(lo, hi)] == [h for _, h in batches
                                                         if h.last_offset >= lo and h.base_offset < hi]


def test_empty_partitions(shared_dir):
    root = shared_dir / "kafka-log-samples" / "apache-kafka-eda-study" / "data"
    if not root.is_dir():
        pytest.skip("eda-study sample not present")
    for n in (0, 1):
        p = logdir.open(root / f"product-created-events-topic-{n}")
        (seg,) = p.segments
        assert seg.size == 0 and seg.read_index() == [] and seg.read_timeindex() == []
        assert seg.valid_size == 0 and seg.next_offset == 0 and seg.last_batch is None
        assert p.lookup_offset(0) is None and p.lookup_timestamp(0) is None
        assert p.split(1000) == [] and list(p.read_batches()) == []
        assert p.next_offset == 0 and p.log_start_offset == 0
        assert bytes(seg.read()) == b""


def test_records_decode_whole_logs(sample_root):
    from kafkacodec import records
    _, parts = all_partitions(sample_root)
    for p in parts:
        batches = linear(p)
        n = 0
        for view in p.read_batches():
            for batch in records.iter_batches(view):
                n += sum(1 for _ in batch)
        assert n >= sum(1 for _, h in batches if not h.is_control)


def test_headers_agree_with_independent_decoder(sample_root):
    # aiokafka parses the same bytes on its own; offsets, counts and checksums must line up
    from logdir_helpers import aiokafka_batches

    _, parts = all_partitions(sample_root)
    for p in parts:
        for view in p.read_batches(per_batch=True):
            h = logdir.read_header(view, 0, len(view))
            ((batch, crc_ok, recs),) = aiokafka_batches(view)
            assert crc_ok
            assert h.is_control == batch.is_control_batch and h.is_transactional == batch.is_transactional
            if h.magic == 2:
                assert len(recs) == h.record_count
                assert h.base_offset == batch.base_offset and h.last_offset + 1 == batch.next_offset
                assert max(r.timestamp for r in recs) == h.max_timestamp or h.attributes & 0x08
            assert all(h.base_offset <= r.offset <= h.last_offset for r in recs)


def test_kraft_snapshots(sample_root):
    d = logdir.open(sample_root)
    meta = d.partition("__cluster_metadata", 0)
    snaps = meta.kraft_snapshots
    if sample_root.parent.name == "flink-on-prem":
        assert [(s.end_offset, s.epoch) for s in snaps] == [(7752, 1), (14926, 1)]
    for snap in snaps:
        raw = snap.path.read_bytes()
        walk = logdir.HeaderWalk(raw)
        headers = list(walk)
        assert headers and walk.truncated_bytes == 0 and walk.position == len(raw)
    assert all(p.kraft_snapshots == [] for p in d.partitions())
