"""The read path checks each run of batches against its neighbours, the
segment, leader-epoch-checkpoint and the ``.index`` in bulk (numpy), or one
batch at a time for short runs; this compares both, on random runs with
random damage, with the same checks written out here one batch at a time.
All must stop at the same batch and hand the checked walk the same state."""
import random
from itertools import islice
import struct
from bisect import bisect_left

import numpy as np
import pytest

from kafkacodec.errors import KafkaCodecError
from kafkacodec.logdir._segment import Before, Segment
from kafkacodec.records import build_batches, iter_batches

NO_LAST = -(1 << 63)
NO_EPOCH = -(1 << 31) - 1
FAR = 1 << 63


def one_at_a_time(seg, buf, pos, rel, before, ix_pos, ix_off):
    """``(count, ends, before the last)`` as a walk one batch at a time finds them."""
    p_last, p_epoch, p_magic = (NO_LAST, NO_EPOCH, None) if before is None else (
        before.last, NO_EPOCH if before.epoch is None else before.epoch, before.magic)
    lo = seg.base_offset
    hi = seg.next_base_offset if seg.next_base_offset is not None else FAR
    k = bisect_left(ix_pos, pos + rel)
    next_index = ix_pos[k] - pos if k < len(ix_pos) else FAR
    ends, states = [], []
    try:
        for b in iter_batches(memoryview(buf)[rel:], verify_crc=False):
            base, last = b.base_offset, b.last_offset
            if base <= p_last or base < lo or last >= hi or b.record_count > last - base + 1:
                break
            here = rel + b.position
            nxt = here + b.size_in_bytes
            if b.magic == 2:
                epoch = b.partition_leader_epoch
                if epoch < p_epoch:
                    break
                want = seg.expected_epoch(base)
                if want is not None and epoch != want[0]:
                    break
            else:
                epoch = None
                if p_magic == 2:
                    break
            if here >= next_index:
                if here > next_index or last > ix_off[k]:
                    break
                k += 1
                next_index = ix_pos[k] - pos if k < len(ix_pos) else FAR
            if next_index < nxt:
                break
            states.append((p_last, p_epoch, p_magic))
            ends.append(nxt)
            p_last = last
            if epoch is not None:
                p_epoch = epoch
            p_magic = b.magic
    except KafkaCodecError:
        pass
    if not ends:
        return 0, None, None
    pl, pe, pm = states[-1]
    return len(ends), ends, None if pl == NO_LAST else Before(pl, None if pe == NO_EPOCH else pe, pm)


def _records(rng, n):
    return [(1_000 + rng.randrange(100), b"k", b"v" * rng.randrange(1, 30)) for _ in range(n)]


def _random_run(rng):
    """Batches with mostly sound, sometimes damaged, offsets, epochs and
    counts (outside the CRC, as on disk), legacy messages first when any (as
    a log upgraded to magic 2): ``(bytes, [(start, last offset)], checkpoint)``."""
    out = bytearray()
    spans = []
    checkpoint = []
    offset = rng.randrange(0, 50)
    epoch = rng.randrange(0, 4)
    n_batches = rng.randrange(1, 14)
    legacy = rng.choice((0, 0, 0, 1, 3))
    for i in range(n_batches):
        n = rng.randrange(1, 4)
        start = len(out)
        if i >= legacy:
            batch = bytearray(build_batches(_records(rng, n), base_offset=offset)[0])
            base = offset
            roll = rng.random()
            if roll < 0.03:
                base = offset - rng.randrange(1, 3)  # overlaps the batch before
            elif roll < 0.06:
                base = offset + rng.randrange(1, 5)  # a gap (compaction): fine
            struct.pack_into(">q", batch, 0, base)
            if rng.random() < 0.15 or not checkpoint:
                epoch += 1
                checkpoint.append((epoch, base))
            e = epoch - 1 if rng.random() < 0.03 else epoch  # a falling epoch
            struct.pack_into(">i", batch, 12, e)
            if rng.random() < 0.02:
                struct.pack_into(">i", batch, 57, n + 1)  # more records than offsets
            offset = base + n
        else:
            magic = rng.choice((0, 1))
            compression = "gzip" if magic == 1 and rng.random() < 0.3 else "none"
            batch = b"".join(build_batches(_records(rng, n), magic=magic, compression=compression,
                                           base_offset=offset))
            if rng.random() < 0.03:
                batch = build_batches([(1, b"k", b"v")], magic=2, base_offset=offset)[0] + batch  # a magic drop
            offset += n
        out += batch
        spans.append((start, offset - 1))
    roll = rng.random()
    if roll < 0.3:
        checkpoint = []
    elif roll < 0.4 and checkpoint:
        checkpoint[-1] = (checkpoint[-1][0] + 1, checkpoint[-1][1])  # disagrees with the batches
    return bytes(out), spans, checkpoint


def test_bulk_checks_agree_with_one_batch_at_a_time(tmp_path):
    rng = random.Random(20260601)
    outcomes = {"all": 0, "some": 0, "none": 0}
    for trial in range(400):
        run, spans, checkpoint = _random_run(rng)
        rel = rng.choice((0, 0, 7, 61))
        pos = rng.choice((0, 4096))
        buf = bytes(rng.randrange(256) for _ in range(rel)) + run
        log = tmp_path / f"{trial:020d}.log"
        log.write_bytes(buf)
        base_offset = rng.choice((0, 0, 0, 3, 30))
        next_base = rng.choice((None, None, spans[-1][1] + 1, spans[-1][1] + 1, spans[len(spans) // 2][1]))
        seg = Segment(tmp_path, base_offset, is_active=next_base is None, next_base_offset=next_base, log_path=log)
        seg.set_leader_epochs(checkpoint)
        ix_pos, ix_off = [], []
        for start, last in spans:
            roll = rng.random()
            if roll < 0.3:
                ix_pos.append(pos + rel + start)
                ix_off.append(last + rng.choice((0, 0, 2)))
            elif roll < 0.32:
                ix_pos.append(pos + rel + start)
                ix_off.append(last - 1)  # below the batch's last offset
            elif roll < 0.34:
                ix_pos.append(pos + rel + start + 5)  # inside a batch
                ix_off.append(last)
        if rng.random() < 0.2:
            ix_pos.append(pos + len(buf) + 100)
            ix_off.append(spans[-1][1] + 50)
        before = rng.choice((None, None, Before(base_offset - 1, None, None), Before(-5, 0, 2), Before(-5, None, 1),
                             Before(-5, 9, 2), Before(spans[0][1], None, None)))
        starts = []
        it = iter_batches(memoryview(buf)[rel:], verify_crc=False)
        try:
            for b in it:
                starts.append(b.position)
        except KafkaCodecError:
            pass
        want = one_at_a_time(seg, buf, pos, rel, before, ix_pos, ix_off)
        if not starts:
            assert want[0] == 0
            continue
        index = (np.array(ix_pos, np.int64), np.array(ix_off, np.int64))
        got = seg._vouch(buf, pos, rel, starts, rel + it.position, before, index, memoryview(buf)[rel:], False)
        assert got == want, (trial, got, want)
        # and the path short runs take
        again = islice(iter_batches(memoryview(buf)[rel:], verify_crc=False), len(starts))
        assert seg._fit_each(again, pos, rel, before, index) == want, trial
        outcomes["none" if not got[0] else "all" if got[0] == len(starts) else "some"] += 1
    # the random damage reaches every outcome, often
    assert min(outcomes.values()) >= 40, outcomes


@pytest.mark.parametrize("rel", [0, 13])
def test_bulk_checks_on_a_sound_run_accept_it_whole(tmp_path, rel):
    batches = build_batches([(1, b"k", b"v" * 50)] * 300, batch_size=1024)
    buf = bytes(rel) + b"".join(batches)
    log = tmp_path / "00000000000000000000.log"
    log.write_bytes(buf)
    seg = Segment(tmp_path, 0, is_active=True, log_path=log)
    seg.set_leader_epochs([])
    starts, at = [], 0
    for b in batches:
        starts.append(at)
        at += len(b)
    lasts = [struct.unpack_from(">q", b)[0] + struct.unpack_from(">i", b, 23)[0] for b in batches]
    index = (np.array([rel + s for s in starts[::3]], np.int64), np.array(lasts[::3], np.int64))
    fit, ends, before_last = seg._vouch(buf, 0, rel, starts, rel + at, None, index, buf[rel:], False)
    assert fit == len(batches) == 19 and ends[-1] == len(buf)
    assert before_last == Before(lasts[-2], -1, 2)


@pytest.mark.parametrize("bulk_min", [1, 1 << 30], ids=["bulk", "one-at-a-time"])
def test_every_header_flip_is_caught_on_either_path(tmp_path, monkeypatch, bulk_min):
    # the header-flip damage tests, with every run checked in bulk, then every run one batch at a time
    # (their small batches otherwise take the short-run path mostly)
    import kafkacodec.arrow as karrow
    import kafkacodec.logdir as logdir
    from kafkacodec.logdir import _segment

    import test_header_flips as flips

    monkeypatch.setattr(_segment, "_BULK_MIN", bulk_min)
    path = flips._build(tmp_path)
    part = logdir.open(path)
    batches = [(seg, h) for seg in part.segments for h in seg.headers()]
    rows = {(seg.name, h.position): karrow.decode(bytes(seg.data[h.position:h.end])).column("offset").to_pylist()
            for seg, h in batches}
    aborted = {o for seg, h in batches if h.producer_id in flips.ABORTED_PIDS and not h.is_control
               for o in range(h.base_offset, h.last_offset + 1)}
    flips.test_every_header_byte_flip_is_an_error_or_a_counted_skip((path, batches, rows, aborted))
