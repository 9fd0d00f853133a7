"""Single-byte damage in every field of a magic-2 batch header, in a closed
segment and in the partition's last segment: a located CorruptDataError, or
with ``on_corruption="skip"`` a counted skip that returns exactly the rows of
the undamaged batches -- never a silent loss, duplicate or aborted record
shown as committed.

Base offset, batch length, partition leader epoch, magic and the CRC itself
lie outside the CRC, so only a batch's neighbours, the ``.index`` and
``leader-epoch-checkpoint`` can tell they are wrong.
"""
import struct

import pytest

import kafkacodec.logdir as logdir
from kafkacodec.errors import CorruptDataError
from kafkacodec.logdir import ReadStats
from kafkacodec.logdir.writer import PartitionWriter
from logdir_helpers import build_batch, control_batch

pa = pytest.importorskip("pyarrow")
import kafkacodec.arrow as karrow  # noqa: E402

RECORDS = 5
# magic-2 header fields: name -> (byte position in the batch, width)
FIELDS = {
    "baseOffset": (0, 8), "batchLength": (8, 4), "partitionLeaderEpoch": (12, 4), "magic": (16, 1),
    "crc": (17, 4), "attributes": (21, 2), "lastOffsetDelta": (23, 4), "baseTimestamp": (27, 8),
    "maxTimestamp": (35, 8), "producerId": (43, 8), "producerEpoch": (51, 2), "baseSequence": (53, 4),
    "recordCount": (57, 4),
}
MASKS = (0x01, 0x80, 0xFF)
ABORTED_PIDS = (7, 9)


def _build(root):
    """Three segments of 5-record batches under three leader epochs, with an
    aborted transaction in a closed segment and one in the last segment."""
    w = PartitionWriter(root, "f", 0, segment_bytes=7000, index_interval_bytes=500)
    seq = {}

    def txn(pid, i):
        n = seq.get(pid, 0)
        seq[pid] = n + RECORDS
        return build_batch([5000 + i * 10 + j for j in range(RECORDS)], value_size=30, seed=i, producer_id=pid,
                           producer_epoch=0, base_sequence=n, transactional=True)

    for i in range(75):
        epoch = 3 if i < 20 else 5 if i < 45 else 6
        if i in (30, 31, 32):
            w.append(txn(7, i), assign_offsets=True, leader_epoch=epoch)
        elif i == 33:
            first = w.next_offset - 3 * RECORDS
            info = w.append(control_batch(7, 0, 9000 + i), assign_offsets=True, leader_epoch=epoch)
            w.add_aborted_transaction(7, first, info.last_offset)
        elif i in (60, 61, 62):
            w.append(txn(9, i), assign_offsets=True, leader_epoch=epoch)
        elif i == 63:
            first = w.next_offset - 3 * RECORDS
            info = w.append(control_batch(9, 0, 9000 + i), assign_offsets=True, leader_epoch=epoch)
            w.add_aborted_transaction(9, first, info.last_offset)
        else:
            ts = [1000 + i * 10 + j for j in range(RECORDS)]
            w.append(build_batch(ts, value_size=30, seed=i), assign_offsets=True, leader_epoch=epoch)
    w.close()
    return root / "f-0"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    path = _build(tmp_path_factory.mktemp("flips"))
    part = logdir.open(path)
    assert len(part.segments) == 3
    batches = [(seg, h) for seg in part.segments for h in seg.headers()]
    # every batch's rows, as read before any damage
    rows = {}
    for seg, h in batches:
        rb = karrow.decode(bytes(seg.data[h.position:h.end]))
        rows[(seg.name, h.position)] = rb.column("offset").to_pylist()
    aborted = {o for seg, h in batches if h.producer_id in ABORTED_PIDS and not h.is_control
               for o in range(h.base_offset, h.last_offset + 1)}
    return path, batches, rows, aborted


def _targets(batches):
    """A batch in the middle of a closed segment (an aborted transaction's)
    and, in the last segment, an aborted transaction's batch and its marker."""
    segs = sorted({s.name for s, _ in batches})
    mid_closed = next((s, h) for s, h in batches if s.name == segs[1] and h.producer_id == 7 and not h.is_control
                      and h.base_offset == min(x.base_offset for _, x in batches if x.producer_id == 7))
    last_seg = [(s, h) for s, h in batches if s.name == segs[-1]]
    txn_last = next((s, h) for s, h in last_seg if h.producer_id == 9 and not h.is_control)
    marker = next((s, h) for s, h in last_seg if h.producer_id == 9 and h.is_control)
    for s, h in (mid_closed, txn_last, marker):
        hs = [x for t, x in batches if t.name == s.name]
        assert 0 < hs.index(h) < len(hs) - 1  # in the middle: batches before and after it
    assert not mid_closed[0].is_active and txn_last[0].is_active
    return {"closed-segment txn batch": mid_closed, "last-segment txn batch": txn_last,
            "last-segment abort marker": marker}


def _flips():
    for name, (at, width) in FIELDS.items():
        for k in range(width):
            for mask in MASKS:
                yield name, at + k, mask


def _decode_all(part, *, skip):
    """read_batches and decode as a caller would (read_committed); errors
    located in the segment file."""
    reader = part.read_batches(on_corruption="skip" if skip else "error", verify_crc=skip)
    aborted = part.aborted_transactions()
    offsets = []
    for view in reader:
        try:
            for rb in karrow.iter_decode(view, isolation_level="read_committed", aborted_transactions=aborted):
                offsets.extend(rb.column("offset").to_pylist())
        except CorruptDataError as exc:
            raise logdir.locate_error(exc, reader.segment.log_path, reader.position) from None
    return offsets, reader.stats


def _ranges_decode(part, *, skip):
    """The Spark source's path: ranges planned, then each read on its own."""
    mode = "skip" if skip else "error"
    stats = ReadStats()
    aborted = part.aborted_transactions()
    offsets = []
    for r in part.split(1500, on_corruption=mode):
        view = logdir.read_range(r, on_corruption=mode, verify_crc=skip, stats=stats)
        try:
            for rb in karrow.iter_decode(view, isolation_level="read_committed", aborted_transactions=aborted):
                offsets.extend(rb.column("offset").to_pylist())
        except CorruptDataError as exc:
            raise r.locate_error(exc) from None
    return offsets, stats


def _patch(path, pos, mask):
    with open(path, "r+b") as f:
        f.seek(pos)
        b = f.read(1)[0]
        f.seek(pos)
        f.write(bytes([b ^ mask]))


def _check(case, read, path, log, h, want_skip, aborted):
    """What is wrong with one read path on one damaged copy (None: nothing)."""
    try:
        got, _ = read(logdir.open(path), skip=False)
    except CorruptDataError as exc:
        msg = str(exc)
        if "\n" in msg or not msg.startswith(f"{log}: ") or f"at byte {exc.offset}" not in msg:
            return f"{case}: error not one line naming the file and byte: {msg}"
        if not h.position <= exc.offset < h.position + 61:
            return f"{case}: error outside the damaged header: {msg}"
    else:
        return f"{case}: silent ({len(got)} rows)"
    try:
        got, stats = read(logdir.open(path), skip=True)
    except CorruptDataError as exc:
        return f"{case}: skip mode raised {exc}"
    if set(got) & aborted:
        return f"{case}: aborted records shown as committed"
    if got != want_skip:
        return f"{case}: skip returned {len(got)} rows, not the {len(want_skip)} of the undamaged batches"
    if not (stats.skipped_batches >= 1 and any(str(e).startswith(f"{log}: ") for e in stats.errors)):
        return f"{case}: skip not counted ({stats})"
    return None


def test_every_header_byte_flip_is_an_error_or_a_counted_skip(pristine):
    path, batches, rows, aborted = pristine
    committed = [o for s, h in batches if not h.is_control for o in rows[(s.name, h.position)]
                 if o not in aborted]
    problems = []
    cases = 0
    for label, (seg, h) in _targets(batches).items():
        log = seg.log_path
        lost = set(rows[(seg.name, h.position)])
        want_skip = [o for o in committed if o not in lost]
        for field, at, mask in _flips():
            _patch(log, h.position + at, mask)
            try:
                for how, read in (("read_batches", _decode_all), ("split+read_range", _ranges_decode)):
                    cases += 1
                    problem = _check(f"{label}: {field} byte {at} ^ {mask:#04x} via {how}", read, path, log, h,
                                     want_skip, aborted)
                    if problem:
                        problems.append(problem)
            finally:
                _patch(log, h.position + at, mask)
    assert cases == 3 * 61 * len(MASKS) * 2
    assert not problems, f"{len(problems)} of {cases}:\n" + "\n".join(problems)


def test_undamaged_log_reads_whole(pristine):
    path, batches, rows, aborted = pristine
    committed = [o for s, h in batches if not h.is_control for o in rows[(s.name, h.position)]
                 if o not in aborted]
    for read in (_decode_all, _ranges_decode):
        for skip in (False, True):
            got, stats = read(logdir.open(path), skip=skip)
            assert got == committed
            assert stats.skipped_batches == 0 and not stats.errors and stats.truncated_bytes == 0


def _copy(path, tmp_path):
    import shutil
    dst = tmp_path / path.name
    shutil.copytree(path, dst)
    return dst


@pytest.mark.parametrize("where", ["first", "last"])
@pytest.mark.parametrize("shift", [-1, 1])
def test_base_offset_damage_at_a_range_boundary(pristine, tmp_path, where, shift):
    # a range's reader sees no batch before its first one: it must still tell
    # which of two disagreeing batches across the cut is the damaged one
    path, batches, rows, aborted = pristine
    path = _copy(path, tmp_path)
    part = logdir.open(path)
    ranges = [r for r in part.split(1500) if r.start > 0 and not r.is_active]
    assert len(ranges) >= 3
    problems = []
    for r in ranges:
        seg = next(s for s in part.segments if str(s.log_path) == r.path)
        hs = list(seg.headers())
        h = next(x for x in hs if x.position == r.start) if where == "first" else \
            next(x for x in hs if x.end == r.end)
        if h.is_control or h.producer_id in ABORTED_PIDS:
            continue
        with open(seg.log_path, "r+b") as f:
            f.seek(h.position)
            f.write(struct.pack(">q", h.base_offset + shift))
        try:
            committed = [o for s, x in batches if not x.is_control for o in rows[(s.name, x.position)]
                         if o not in aborted]
            lost = set(rows[(seg.name, h.position)])
            problem = _check(f"{where} batch of range {r.start}..{r.end} base {shift:+d}", _ranges_decode, path,
                             seg.log_path, h, [o for o in committed if o not in lost], aborted)
            if problem:
                problems.append(problem)
        finally:
            with open(seg.log_path, "r+b") as f:
                f.seek(h.position)
                f.write(struct.pack(">q", h.base_offset))
    assert not problems, "\n".join(problems)


def test_length_running_past_the_end_of_the_last_segment_is_damage(pristine, tmp_path):
    # the reported case: a mid-segment length flip made the rest of the last segment a "partial tail"
    path, batches, rows, _ = pristine
    path = _copy(path, tmp_path)
    seg = logdir.open(path).segments[-1]
    hs = list(seg.headers())
    h = hs[len(hs) // 2]
    with open(seg.log_path, "r+b") as f:
        f.seek(h.position + 8)
        f.write(struct.pack(">i", 0x7FFFFFF0))
    with pytest.raises(CorruptDataError, match="damage, not a partial write") as err:
        list(logdir.open(path).read_batches())
    assert err.value.offset == h.position + 8 and str(err.value).startswith(f"{seg.log_path}: ")
    # skip: only that batch is left out, and it is counted
    reader = logdir.open(path).read_batches(on_corruption="skip")
    n = sum(karrow.decode(bytes(v)).num_rows for v in reader)
    total = sum(len(r) for r in rows.values())
    assert n == total - h.record_count
    assert (reader.stats.skipped_batches, reader.stats.skipped_bytes) == (1, h.size)
    assert reader.stats.truncated_bytes == 0


def test_true_torn_tail_is_accepted_and_counted(pristine, tmp_path):
    path = _copy(pristine[0], tmp_path)
    part = logdir.open(path)
    seg = part.segments[-1]
    extra = build_batch([1, 2, 3], value_size=300, base_offset=part.next_offset)
    with open(seg.log_path, "ab") as f:  # an append cut short (no index entry is written before the log)
        f.write(extra[:len(extra) - 100])
    for skip in (False, True):
        reader = logdir.open(path).read_batches(on_corruption="skip" if skip else "error")
        list(reader)
        assert (reader.stats.truncated_bytes, reader.stats.partial_batches) == (len(extra) - 100, 1)
        assert reader.stats.skipped_batches == 0


def test_index_entry_at_the_tail_makes_it_damage(pristine, tmp_path):
    path = _copy(pristine[0], tmp_path)
    seg = logdir.open(path).segments[-1]
    last_indexed = seg.read_index()[-1].position
    with open(seg.log_path, "r+b") as f:  # the log lost bytes the index says were written
        f.truncate(last_indexed + 100)
    with pytest.raises(CorruptDataError, match=f"offset index places a batch at byte {last_indexed}"):
        list(logdir.open(path).read_batches())


def test_leader_epoch_checked_without_checkpoint(pristine, tmp_path):
    # without leader-epoch-checkpoint a raised epoch is still caught: the next batch's is lower
    path = _copy(pristine[0], tmp_path)
    (path / "leader-epoch-checkpoint").unlink()
    seg = logdir.open(path).segments[1]
    hs = list(seg.headers())
    h = hs[3]
    with open(seg.log_path, "r+b") as f:
        f.seek(h.position + 12)
        f.write(struct.pack(">i", h.partition_leader_epoch + 1))
    with pytest.raises(CorruptDataError, match="partition leader epoch") as err:
        list(logdir.open(path).read_batches())
    assert err.value.offset == h.position + 12
    reader = logdir.open(path).read_batches(on_corruption="skip")
    list(reader)
    assert reader.stats.skipped_batches == 1 and reader.stats.skipped_bytes == h.size


def test_damaged_index_entry_names_the_index(pristine, tmp_path):
    path = _copy(pristine[0], tmp_path)
    seg = logdir.open(path).segments[1]
    idx = seg.read_index()
    k = len(idx) // 2
    with open(seg.index_path, "r+b") as f:  # the entry's offset falls below the batch it points at
        f.seek(k * 8)
        f.write(struct.pack(">i", idx[k].offset - seg.base_offset - 3))
    with pytest.raises(CorruptDataError) as err:
        list(logdir.open(path).read_batches())
    assert str(err.value).startswith(f"{seg.index_path}: ") and err.value.offset == k * 8
    # skip: the batches are sound, so nothing is left out; the index damage is reported
    reader = logdir.open(path).read_batches(on_corruption="skip")
    views = list(reader)
    total = sum(len(r) for r in pristine[2].values())
    assert sum(karrow.decode(bytes(v)).num_rows for v in views) == total
    assert reader.stats.skipped_batches == 0
    assert any(str(e).startswith(f"{seg.index_path}: ") for e in reader.stats.errors)


def test_kafka_log_tasks_report_the_skip(pristine, tmp_path):
    # the kafka-log DataSource's planning and task reading (in process): a base-offset flip in the middle
    # of the last segment fails the read, or with onCorruption=skip is left out and counted in progressDir
    _plan = pytest.importorskip("kafkacodec.spark._plan")
    path, batches, rows, aborted = pristine
    path = _copy(path, tmp_path)
    seg = logdir.open(path).segments[-1]
    hs = list(seg.headers())
    h = next(x for x in hs[len(hs) // 2:] if not x.is_transactional)
    with open(seg.log_path, "r+b") as f:
        f.seek(h.position + 7)
        f.write(bytes([(h.base_offset & 0xFF) ^ 0x02]))
    options = {"path": str(path), "maxBytesPerPartition": "2000"}
    opts = _plan.parse_options(options)
    with pytest.raises(CorruptDataError) as err:
        list(_plan.read_tasks(_plan.plan(opts), opts))
    assert str(err.value).startswith(f"{seg.log_path}: ") and err.value.offset == h.position
    progress = tmp_path / "progress"
    progress.mkdir()
    opts = _plan.parse_options(dict(options, onCorruption="skip", progressDir=str(progress)))
    got = [o for i, group in enumerate(_plan.group_tasks(_plan.plan(opts), 4000))
           for rb in _plan.read_tasks(group, opts, progress_key=i) for o in rb.column("offset").to_pylist()]
    want = [o for s, x in batches if not x.is_control and (s.name, x.position) != (seg.name, h.position)
            for o in rows[(s.name, x.position)] if o not in aborted]
    assert got == want
    assert _plan.read_skipped(str(progress)) == (1, h.size)
