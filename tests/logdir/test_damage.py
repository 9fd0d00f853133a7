"""Damaged, truncated and unusable segments: a located library error or a
counted skip, never silent loss, a raw OSError or a crashed process."""
import os
import pickle
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import kafkacodec.logdir as logdir
from kafkacodec.errors import CorruptDataError, CrcMismatchError, KafkaCodecError, TruncatedDataError
from kafkacodec.logdir import LogDirError, ReadStats
from kafkacodec.logdir.writer import PartitionWriter
from logdir_helpers import build_batch

SEG0 = "00000000000000000000"
RECORDS_PER_BATCH = 5


@pytest.fixture
def part(tmp_path):
    """Three segments (two closed, one active) of 5-record batches, indexed every ~500 bytes."""
    w = PartitionWriter(tmp_path, "t", 0, segment_bytes=6000, index_interval_bytes=500)
    for i in range(60):
        ts = [1000 + i * 10 + j for j in range(RECORDS_PER_BATCH)]
        w.append(build_batch(ts, value_size=30, seed=i), assign_offsets=True)
    w.close()
    path = tmp_path / "t-0"
    p = logdir.open(path)
    assert len(p.segments) == 3 and not p.segments[0].is_active and p.segments[-1].is_active
    return path


def headers(path, i=0):
    return list(logdir.open(path).segments[i].headers())


def patch(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def count_records(views):
    from kafkacodec import records
    return sum(len(records.decode_records(v)) for v in views)


def assert_located(exc, file, position, field):
    assert isinstance(exc, CorruptDataError)
    assert exc.offset == position, str(exc)
    assert exc.path.endswith(field), exc.path
    assert str(exc).startswith(f"{file}: "), str(exc)
    assert f"at byte {position}" in str(exc)


def every_read(path):
    """The read paths a caller or the Spark source has, each run to the end."""
    def spark_like():
        ranges = logdir.open(path).split(1500)
        return [logdir.read_range(r) for r in ranges]
    return {
        "read_batches": lambda: list(logdir.open(path).read_batches()),
        "per_batch": lambda: list(logdir.open(path).read_batches(per_batch=True)),
        "batches": lambda: list(logdir.open(path).batches()),
        "split+read_range": spark_like,
        "one range per segment": lambda: [logdir.read_range(r) for r in logdir.open(path).split(1 << 30)],
    }


@pytest.mark.parametrize("which", [1, 0, -1])
def test_closed_segment_batch_length_past_the_end(part, which):
    # which=1 is the reported case: 240 of 300 records came back with no error;
    # which=0 made split() raise AttributeError
    log = part / f"{SEG0}.log"
    hs = headers(part)
    pos = hs[which].position
    patch(log, pos + 8, struct.pack(">i", 0x7FFFFFFF))
    for name, read in every_read(part).items():
        with pytest.raises(TruncatedDataError) as err:
            read()
        assert_located(err.value, log, pos + 8, "batch_length")
        assert "closed segment" in str(err.value), name


def test_skip_counts_what_it_leaves_out(part):
    log = part / f"{SEG0}.log"
    hs = headers(part)
    total = sum(h.record_count for h in headers(part, 0) + headers(part, 1) + headers(part, 2))
    bad = hs[1]
    patch(log, bad.position + 8, struct.pack(">i", 0x7FFFFFFF))
    seg = logdir.open(part).segments[0]
    # the walk resumes at the next index entry after the damage
    resume = min(e.position for e in seg.read_index() if e.position > bad.position)
    lost = [h for h in hs if bad.position <= h.position < resume]
    lost_records = sum(h.record_count for h in lost)

    reader = logdir.open(part).read_batches(on_corruption="skip")
    assert count_records(reader) == total - lost_records
    s = reader.stats
    assert (s.skipped_batches, s.skipped_bytes) == (1, resume - bad.position)
    assert_located(s.errors[0], log, bad.position + 8, "batch_length")
    assert s.truncated_bytes == 0 and s.partial_batches == 0

    # the Spark source's path: ranges planned in skip mode, read in skip mode
    stats = ReadStats()
    views = [logdir.read_range(r, on_corruption="skip", stats=stats)
             for r in logdir.open(part).split(1500, on_corruption="skip")]
    assert count_records(views) == total - lost_records
    assert (stats.skipped_batches, stats.skipped_bytes) == (1, resume - bad.position)
    pickle.loads(pickle.dumps(stats))  # travels back from workers


def test_bad_header_field_is_skipped_alone(part):
    log = part / f"{SEG0}.log"
    bad = headers(part)[3]
    patch(log, bad.position + 57, struct.pack(">i", 1000))  # record count beyond the offset range
    with pytest.raises(CorruptDataError) as err:
        list(logdir.open(part).read_batches())
    assert_located(err.value, log, bad.position + 57, "record_count")
    reader = logdir.open(part).read_batches(on_corruption="skip")
    list(reader)
    assert (reader.stats.skipped_batches, reader.stats.skipped_bytes) == (1, bad.size)


def test_crc_mismatch_names_file_and_position(part):
    log = part / f"{SEG0}.log"
    bad = headers(part)[4]
    patch(log, bad.end - 1, b"\xff")  # last byte of the last record's value... or its headers count
    r = logdir.open(part).split(1 << 30)[0]
    with pytest.raises(CrcMismatchError) as err:
        logdir.read_range(r, verify_crc=True)
    assert_located(err.value, log, bad.position + 17, "crc")
    stats = ReadStats()
    view = logdir.read_range(r, verify_crc=True, on_corruption="skip", stats=stats)
    assert len(view) == r.size - bad.size and stats.skipped_bytes == bad.size
    # without verify_crc the range is handed out and the decoder's error is located in the file
    view = logdir.read_range(r)
    from kafkacodec import records
    with pytest.raises(CorruptDataError) as err:
        records.decode_records(view)
    exc = r.locate_error(err.value)
    assert exc.offset == bad.position + 17 and str(exc).startswith(f"{log}: ")


def test_truncated_batch_at_end_of_closed_segment(part):
    log = part / f"{SEG0}.log"
    last = headers(part)[-1]
    with open(log, "r+b") as f:
        f.truncate(last.position + 40)
    for name, read in every_read(part).items():
        with pytest.raises(TruncatedDataError) as err:
            read()
        assert_located(err.value, log, last.position + 8, "batch_length")


def test_closed_segment_shorter_than_planned_range(part):
    log = part / f"{SEG0}.log"
    ranges = [r for r in logdir.open(part).split(1 << 30) if r.path == str(log)]
    assert ranges and not ranges[0].is_active
    with open(log, "r+b") as f:
        f.truncate(100)
    with pytest.raises(TruncatedDataError) as err:
        logdir.read_range(ranges[0])
    assert str(err.value).startswith(f"{log}: ")


def test_partial_batch_of_active_segment_is_counted(part):
    active = logdir.open(part).segments[-1]
    whole = active.size
    with open(active.log_path, "ab") as f:
        f.write(build_batch([7, 8, 9], seed=99)[:50])
    reader = logdir.open(part).read_batches()
    got = b"".join(bytes(v) for v in reader)
    assert len(got) == logdir.open(part).size - 50
    assert (reader.stats.truncated_bytes, reader.stats.partial_batches) == (50, 1)
    assert reader.truncated_bytes == 50 and reader.stats.skipped_batches == 0
    ranges = logdir.open(part).split(1 << 30)
    assert ranges[-1].is_active and ranges[-1].end == whole


def test_active_range_of_a_shrunk_file(part):
    active = logdir.open(part).segments[-1]
    r = logdir.open(part).split(1 << 30)[-1]
    hs = list(active.headers())
    # the log now ends inside a batch no index entry points at (one the index places
    # there was written whole: a partial one there is damage, see test_header_flips.py)
    indexed = {e.position for e in active.read_index()}
    cut = next(h for h in hs[1:] if h.position not in indexed)
    with open(active.log_path, "r+b") as f:  # the broker truncated the log mid-batch
        f.truncate(cut.position + 30)
    stats = ReadStats()
    view = logdir.read_range(r, stats=stats)
    assert len(view) == cut.position and stats.truncated_bytes == 30 and stats.partial_batches == 1


_SHRINK_SCRIPT = textwrap.dedent("""
    import os, sys
    import kafkacodec.logdir as logdir
    from kafkacodec.errors import KafkaCodecError
    path, which = sys.argv[1], int(sys.argv[2])
    part = logdir.open(path)
    seg = part.segments[which]
    reader = part.read_batches(per_batch=True)
    views = [next(reader)]
    # the broker truncates a segment while the reader is in the middle of the log
    os.truncate(seg.log_path, 200)
    try:
        views.extend(reader)
        print("ok", sum(len(bytes(v)) for v in views), reader.stats.truncated_bytes)
    except KafkaCodecError as exc:
        print("error", exc)
        sys.exit(3)
""")


@pytest.mark.parametrize("segment_bytes, which", [
    (1 << 30, 0),  # the active segment, under the view just handed out
    (1 << 20, -1),  # the active segment, ahead of the reader
    (200_000, 1),  # a closed segment, ahead of the reader
])
def test_segment_truncated_while_reading(tmp_path, segment_bytes, which):
    w = PartitionWriter(tmp_path, "s", 0, segment_bytes=segment_bytes)
    for i in range(400):
        w.append(build_batch([i * 10 + j for j in range(20)], value_size=300, seed=i), assign_offsets=True)
    w.close()
    part = logdir.open(tmp_path / "s-0")
    truncated = part.segments[which]
    proc = subprocess.run([sys.executable, "-c", _SHRINK_SCRIPT, str(tmp_path / "s-0"), str(which)],
                          capture_output=True, text=True, timeout=120)
    # a SIGBUS shows as a negative return code
    assert proc.returncode >= 0, (proc.returncode, proc.stderr[-2000:])
    if truncated.is_active:
        assert proc.returncode == 0, (proc.stdout, proc.stderr[-2000:])
        assert proc.stdout.startswith("ok ")
    else:
        # a closed segment losing bytes is corruption, reported in one line with the file
        assert proc.returncode == 3, (proc.stdout, proc.stderr[-2000:])
        assert proc.stdout.startswith(f"error {truncated.log_path}: ")


def test_symlink_loop_segment(part):
    log = part / "00000000000000099999.log"
    os.symlink(log, log)
    with pytest.raises(LogDirError) as err:
        logdir.open(part)
    assert str(log) in str(err.value) and "\n" not in str(err.value)
    assert isinstance(err.value, KafkaCodecError)


def test_directory_named_like_a_segment(part):
    (part / "00000000000000099999.log").mkdir()
    with pytest.raises(LogDirError, match="00000000000000099999.log: segment is not a regular file"):
        logdir.open(part)


def test_symlink_loop_index(part):
    idx = part / f"{SEG0}.index"
    idx.unlink()
    os.symlink(idx, idx)
    with pytest.raises(LogDirError) as err:
        logdir.open(part)
    assert str(idx) in str(err.value)


def test_dangling_symlink_segment(part, tmp_path):
    log = part / "00000000000000099999.log"
    os.symlink(tmp_path / "gone", log)
    with pytest.raises(LogDirError, match="dangling"):
        logdir.open(part)


def test_broken_partition_directory_in_logdir(part):
    loop = part.parent / "u-0"
    os.symlink(loop, loop)
    with pytest.raises(LogDirError) as err:
        logdir.open(part.parent, kind="logdir")
    assert str(loop) in str(err.value)
    # an unrelated broken entry is not a partition and does not stop the listing
    loop.unlink()
    os.symlink(part.parent / "junk", part.parent / "junk")
    assert [p.topic for p in logdir.open(part.parent, kind="logdir").partitions()] == ["t"]


def test_checkpoint_that_is_a_directory(part):
    (part.parent / "log-start-offset-checkpoint").mkdir()
    d = logdir.open(part.parent, kind="logdir")
    with pytest.raises(LogDirError, match="log-start-offset-checkpoint"):
        d.partitions()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_segment(part):
    log = part / f"{SEG0}.log"
    log.chmod(0)
    try:
        with pytest.raises(LogDirError, match="Permission denied"):
            list(logdir.open(part).read_batches())
    finally:
        log.chmod(0o644)


def test_missing_directory_is_a_library_error(tmp_path):
    with pytest.raises(LogDirError) as err:
        logdir.open(tmp_path / "nope")
    assert isinstance(err.value, NotADirectoryError) and str(tmp_path / "nope") in str(err.value)


def test_binary_text_file(part):
    (part / "leader-epoch-checkpoint").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(CorruptDataError) as err:
        logdir.open(part).leader_epochs
    assert str(err.value).startswith(str(part / "leader-epoch-checkpoint"))


def test_index_errors_name_the_file(part):
    idx = part / f"{SEG0}.index"
    last = idx.stat().st_size // 8 - 1
    patch(idx, last * 8 + 4, struct.pack(">i", 10**6))  # a position past the end of the log
    with pytest.raises(CorruptDataError, match="beyond the end of the log") as err:
        logdir.open(part).segments[0].read_index()
    assert str(err.value).startswith(f"{idx}: ") and err.value.offset == last * 8 + 4


def test_batch_offsets_outside_the_segment(part):
    log1 = part / "00000000000000000115.log"
    first = headers(part, 1)[0]
    patch(log1, first.position, struct.pack(">q", 3))  # below the segment's base offset 115
    with pytest.raises(CorruptDataError) as err:
        list(logdir.open(part).read_batches())
    assert_located(err.value, log1, first.position, "base_offset")
    log0 = part / f"{SEG0}.log"
    last = headers(part, 0)[-1]
    patch(log0, last.position, struct.pack(">q", 200))  # reaches into the next segment
    for read in every_read(part).values():
        with pytest.raises(CorruptDataError) as err:
            read()
        assert str(err.value).startswith(f"{log0}: ")


def test_errors_pickle_with_their_message(part):
    log = part / f"{SEG0}.log"
    patch(log, headers(part)[1].position + 8, struct.pack(">i", 0x7FFFFFFF))
    with pytest.raises(CorruptDataError) as err:
        list(logdir.open(part).read_batches())
    again = pickle.loads(pickle.dumps(err.value))
    assert str(again) == str(err.value)
    exc = LogDirError("cannot read", Path("/x/y.log"))
    again = pickle.loads(pickle.dumps(exc))
    assert str(again) == "/x/y.log: cannot read" and again.path == "/x/y.log"


def test_on_corruption_is_checked(part):
    with pytest.raises(ValueError, match="on_corruption"):
        logdir.open(part).read_batches(on_corruption="ignore")
