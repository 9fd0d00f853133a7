"""Damaged index and log files raise CorruptDataError with a place, never anything else."""
import random
import struct

import pytest

import kafkacodec.logdir as logdir
from kafkacodec.errors import CorruptDataError, KafkaCodecError
from kafkacodec.logdir.writer import PartitionWriter
from logdir_helpers import build_batch

SEG = "segment[00000000000000000000]"


@pytest.fixture
def part(tmp_path):
    w = PartitionWriter(tmp_path, "c", 0, segment_bytes=1 << 20, index_interval_bytes=200)
    for i in range(60):
        w.append(build_batch([1000 + i * 10, 1000 + i * 10 + 3], value_size=80, seed=i), assign_offsets=True)
    w.close()
    path = tmp_path / "c-0"
    seg = logdir.open(path).segments[0]
    assert len(seg.read_index()) > 10 and len(seg.read_timeindex()) > 10
    return path


def seg0(path):
    return logdir.open(path).segments[0]


def patch(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def test_index_length_not_multiple(part):
    idx = part / "00000000000000000000.index"
    size = idx.stat().st_size
    with open(idx, "ab") as f:
        f.write(b"\x01\x02\x03")
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_index()
    assert err.value.offset == size and err.value.path == f"{SEG}.index"
    assert "multiple" in str(err.value)


def test_index_zero_padding_is_not_corrupt(part):
    idx = part / "00000000000000000000.index"
    entries = seg0(part).read_index()
    with open(idx, "ab") as f:
        f.write(bytes(8 * 100 + 5))  # padding need not be a whole number of entries
    assert seg0(part).read_index() == entries


def test_index_non_zero_after_padding(part):
    idx = part / "00000000000000000000.index"
    n = len(seg0(part).read_index())
    with open(idx, "ab") as f:
        f.write(bytes(16) + struct.pack(">ii", 900, 9000))
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_index()
    assert err.value.path == f"{SEG}.index[{n + 2}]" and err.value.offset == (n + 2) * 8 + 2


def test_index_non_monotonic_offsets(part):
    idx = part / "00000000000000000000.index"
    raw = bytearray(idx.read_bytes())
    raw[5 * 8:5 * 8 + 4] = raw[4 * 8:4 * 8 + 4]  # entry 5 repeats entry 4's offset
    idx.write_bytes(bytes(raw))
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_index()
    assert err.value.path == f"{SEG}.index[5]" and err.value.offset == 40
    assert "does not increase" in str(err.value)


def test_index_non_monotonic_positions(part):
    idx = part / "00000000000000000000.index"
    raw = bytearray(idx.read_bytes())
    raw[7 * 8 + 4:7 * 8 + 8] = raw[6 * 8 + 4:6 * 8 + 8]
    idx.write_bytes(bytes(raw))
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_index()
    assert err.value.path == f"{SEG}.index[7]" and err.value.offset == 7 * 8 + 4


def test_index_position_beyond_log(part):
    idx = part / "00000000000000000000.index"
    n = len(idx.read_bytes()) // 8
    log_size = (part / "00000000000000000000.log").stat().st_size
    rel = struct.unpack_from(">i", idx.read_bytes(), (n - 1) * 8)[0]
    with open(idx, "ab") as f:
        f.write(struct.pack(">ii", rel + 1000, log_size + 10))
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_index()
    assert err.value.path == f"{SEG}.index[{n}]" and err.value.offset == n * 8 + 4
    assert "beyond the end of the log" in str(err.value)


def test_index_negative_offset(part):
    patch(part / "00000000000000000000.index", 0, struct.pack(">i", -3))
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_index()
    assert err.value.path == f"{SEG}.index[0]"


def test_index_entry_not_at_batch(part):
    idx = part / "00000000000000000000.index"
    raw = idx.read_bytes()
    pos = struct.unpack_from(">i", raw, 3 * 8 + 4)[0]
    patch(idx, 3 * 8 + 4, struct.pack(">i", pos + 1))  # still monotonic, but mid-batch
    p = logdir.open(part)
    with pytest.raises(CorruptDataError) as err:
        p.split(50)
    assert err.value.path.startswith(SEG)


def test_timeindex_errors(part):
    ti = part / "00000000000000000000.timeindex"
    good = ti.read_bytes()
    # decreasing timestamp at entry 4
    raw = bytearray(good)
    struct.pack_into(">q", raw, 4 * 12, 5)
    ti.write_bytes(bytes(raw))
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_timeindex()
    assert err.value.path == f"{SEG}.timeindex[4]" and err.value.offset == 48
    # decreasing offset at entry 6
    raw = bytearray(good)
    struct.pack_into(">i", raw, 6 * 12 + 8, 0)
    ti.write_bytes(bytes(raw))
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_timeindex()
    assert err.value.path == f"{SEG}.timeindex[6]" and err.value.offset == 6 * 12 + 8
    # ragged length
    ti.write_bytes(good + b"\x07")
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_timeindex()
    assert err.value.path == f"{SEG}.timeindex" and err.value.offset == len(good)
    # zero padding is fine
    ti.write_bytes(good + bytes(12 * 50))
    assert len(seg0(part).read_timeindex()) == len(good) // 12


def test_txnindex_errors(part):
    tx = part / "00000000000000000000.txnindex"
    entry = struct.pack(">hqqqq", 0, 7, 3, 9, 10)
    tx.write_bytes(entry)
    assert seg0(part).read_txnindex() == [(7, 3, 9, 10)]
    tx.write_bytes(entry + entry[:20])
    with pytest.raises(CorruptDataError) as err:
        seg0(part).read_txnindex()
    assert err.value.path == f"{SEG}.txnindex[1]" and err.value.offset == 34
    tx.write_bytes(entry + struct.pack(">hqqqq", 1, 7, 11, 12, 13))
    with pytest.raises(CorruptDataError, match="version 1") as err:
        seg0(part).read_txnindex()
    assert err.value.path == f"{SEG}.txnindex[1]"
    tx.write_bytes(struct.pack(">hqqqq", 0, 7, 12, 9, 10))
    with pytest.raises(CorruptDataError, match="first offset"):
        seg0(part).read_txnindex()
    tx.write_bytes(entry + entry)
    with pytest.raises(CorruptDataError, match="does not increase"):
        seg0(part).read_txnindex()


def test_corrupt_batch_header_in_log(part):
    p = logdir.open(part)
    h = list(p.segments[0].headers())[10]
    patch(part / "00000000000000000000.log", h.position + 16, b"\x07")  # magic 7
    p = logdir.open(part)
    # every read walks the headers, plain segment views included
    log = str(part / "00000000000000000000.log")
    for read in (lambda: list(p.read_batches()), lambda: list(p.read_batches(per_batch=True)),
                 lambda: list(p.batches()), lambda: p.split(1),
                 lambda: [logdir.read_range(r) for r in logdir.open(part).split(1 << 20)]):
        with pytest.raises(CorruptDataError) as err:
            read()
        assert err.value.path == f"{SEG}.log.magic" and err.value.offset == h.position + 16
        assert str(err.value).startswith(log + ": unknown magic 7")
    patch(part / "00000000000000000000.log", h.position + 16, b"\x02")
    patch(part / "00000000000000000000.log", h.position + 8, struct.pack(">i", 3))
    with pytest.raises(CorruptDataError, match="below the minimum"):
        list(logdir.open(part).batches())


def test_random_damage_only_raises_codec_errors(part):
    rnd = random.Random(7)
    files = {name: (part / name).read_bytes() for name in
             ("00000000000000000000.index", "00000000000000000000.timeindex", "00000000000000000000.log")}
    for trial in range(150):
        name = rnd.choice(list(files))
        raw = bytearray(files[name])
        for _ in range(rnd.choice([1, 2, 8])):
            raw[rnd.randrange(len(raw))] = rnd.randrange(256)
        if rnd.random() < 0.3:
            raw = raw[: rnd.randrange(len(raw))]
        (part / name).write_bytes(bytes(raw))
        try:
            p = logdir.open(part)
            p.split(300)
            p.lookup_offset(rnd.randrange(150))
            p.lookup_timestamp(1000 + rnd.randrange(700))
            list(p.read_batches())
        except KafkaCodecError:
            pass
        finally:
            (part / name).write_bytes(files[name])


def test_index_offset_reaching_next_segment(tmp_path):
    w = PartitionWriter(tmp_path, "n", 0, segment_bytes=2000, index_interval_bytes=100)
    for i in range(40):
        w.append(build_batch([i, i + 1], value_size=60, seed=i), assign_offsets=True)
    w.close()
    p = logdir.open(tmp_path / "n-0")
    first, second = p.segments[:2]
    n = len(first.read_index())
    rel = second.base_offset - first.base_offset
    with open(first.index_path, "ab") as f:
        f.write(struct.pack(">ii", rel, first.size - 1))
    with pytest.raises(CorruptDataError, match="next segment") as err:
        logdir.open(tmp_path / "n-0").segments[0].read_index()
    assert err.value.path == f"{SEG}.index[{n}]"
    with open(first.timeindex_path, "ab") as f:
        f.write(struct.pack(">qi", 10**13, rel + 5))
    with pytest.raises(CorruptDataError, match="next segment"):
        logdir.open(tmp_path / "n-0").segments[0].read_timeindex()


def test_all_zero_index_files(tmp_path):
    w = PartitionWriter(tmp_path, "z", 0, max_index_bytes=1200)
    w.append(build_batch([5]), assign_offsets=True)
    w.close(clean=False)  # one small append: no index entries, preallocated files
    p = logdir.open(tmp_path / "z-0")
    seg = p.segments[0]
    assert seg.index_path.stat().st_size == 1200 and seg.timeindex_path.stat().st_size == 1200
    assert seg.read_index() == [] and seg.read_timeindex() == []
    assert p.lookup_offset(0) == (seg, 0) and p.lookup_timestamp(5) == (seg, 0)
    # a trimmed file with a single zero entry keeps it
    seg.index_path.write_bytes(bytes(8))
    seg.timeindex_path.write_bytes(bytes(12))
    p = logdir.open(tmp_path / "z-0")
    assert p.segments[0].read_index() == [(0, 0)]
    assert p.segments[0].read_timeindex() == [(0, 0)]
    assert p.lookup_timestamp(5) == (p.segments[0], 0)
