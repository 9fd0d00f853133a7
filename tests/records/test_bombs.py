"""Decompression and record bombs: small inputs that would make a decoder
allocate without bound.  Each case runs in a child process (compiled and
pure backends, records and Arrow) that reports its peak resident memory
above what it held before the call: it must stay under twice the configured
limit plus the input."""
import json
import os
import struct
import subprocess
import sys

import pytest

from kafkacodec import crc32, crc32c
from kafkacodec.errors import DecompressionError, DecompressionLimitError, RecordLimitError
from kafkacodec.records import compression, decode_records, iter_batches

MiB = 1 << 20
LIMIT = 8 * MiB
# One minimal v2 record: length 6, attributes, timestamp delta, offset delta,
# null key, null value, no headers.
TINY_RECORD = b"\x0c\x00\x00\x00\x01\x01\x00"


def v2_batch(records_section, count, codec, last_offset_delta=None):
    body = struct.pack(">hiqqqhii", codec, count - 1 if last_offset_delta is None else last_offset_delta,
                       0, 0, -1, -1, -1, count) + records_section
    head = struct.pack(">qiiB", 0, len(body) + 9, 0, 2)
    return head + struct.pack(">I", crc32c(body)) + body


def legacy_message(offset, magic, attributes, key, value):
    body = bytes([magic, attributes])
    if magic == 1:
        body += struct.pack(">q", 0)
    for part in (key, value):
        body += struct.pack(">i", -1) if part is None else struct.pack(">i", len(part)) + part
    message = struct.pack(">I", crc32(body)) + body
    return struct.pack(">qi", offset, len(message)) + message


def lz4_underdeclared(size, declared):
    """An lz4 frame of `size` zero bytes whose header claims `declared`."""
    import lz4.frame
    frame = bytearray(lz4.frame.compress(b"\0" * size, store_size=True, block_size=lz4.frame.BLOCKSIZE_MAX64KB,
                                         content_checksum=False))
    frame[6:14] = declared.to_bytes(8, "little")
    end = compression._lz4_descriptor_end(memoryview(frame))
    frame[end] = compression._xxh32_hc(bytes(frame[4:end]))
    return bytes(frame)


def zstd_record_bomb(count):
    return v2_batch(compression.compress("zstd", TINY_RECORD * count), count, 4)


def legacy_gzip_bomb(messages):
    inner = legacy_message(0, 0, 0, None, None) * messages
    return legacy_message(0, 0, 1, None, compression.compress("gzip", inner))


# name: (input, configured max_decompressed_size, expected error)
CASES = {
    # a frame that under-declares its content size: 64 MiB behind a 1000-byte claim
    "lz4-underdeclared": (lambda: v2_batch(lz4_underdeclared(64 * MiB, 1000), 1, 3), LIMIT,
                          DecompressionLimitError),
    # 5 M seven-byte records in a few KB of zstd (35 MB inflated)
    "zstd-records": (lambda: zstd_record_bomb(5_000_000), 64 * MiB, RecordLimitError),
    # a magic-0 gzip wrapper holding 1.5 M empty messages (39 MB inflated)
    "legacy-gzip-messages": (lambda: legacy_gzip_bomb(1_500_000), 64 * MiB, RecordLimitError),
    # a magic-0 gzip wrapper inflating past the byte limit
    "legacy-gzip-bytes": (lambda: legacy_message(0, 0, 1, None, compression.compress("gzip", b"\0" * (64 * MiB))),
                          LIMIT, DecompressionLimitError),
}

CHILD = r"""
import json, sys
path, api, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(path, "rb").read()
import kafkacodec.records as records
if api == "arrow":
    import kafkacodec.arrow as ka
def status(field):
    # VmHWM, unlike ru_maxrss, is this program's own: it is not carried over
    # from the parent across exec
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
before = status("VmRSS")
try:
    if api == "arrow":
        ka.decode(data, max_decompressed_size=limit)
    else:
        records.decode_records(data, max_decompressed_size=limit)
    outcome = "decoded"
except Exception as exc:
    outcome = type(exc).__name__ + ": " + str(exc)
peak = status("VmHWM")
print(json.dumps({"outcome": outcome, "grew": peak - before}))
"""


@pytest.fixture(scope="module")
def bomb_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bombs")
    paths = {}
    for name, (make, _, _) in CASES.items():
        paths[name] = folder / f"{name}.bin"
        paths[name].write_bytes(make())
    return paths


@pytest.mark.parametrize("backend", ["compiled", "pure"])
@pytest.mark.parametrize("api", ["records", "arrow"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_bomb_is_refused_within_memory(bomb_files, case, api, backend):
    if api == "arrow":
        pytest.importorskip("pyarrow")
    path = bomb_files[case]
    env = dict(os.environ)
    env.pop("KAFKACODEC_PURE", None)
    if backend == "pure":
        env["KAFKACODEC_PURE"] = "1"
    _, limit, error = CASES[case]
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path), api, str(limit)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["outcome"].startswith(error.__name__ + ":"), result
    assert result["grew"] < 2 * limit + path.stat().st_size, result


def test_count_is_refused_before_inflating(monkeypatch):
    bomb = zstd_record_bomb(2_000_000)
    calls = []
    monkeypatch.setattr(compression, "decompress", lambda *a, **k: calls.append(a))
    with pytest.raises(RecordLimitError) as info:
        decode_records(bomb)
    assert (info.value.offset, info.value.path) == (57, "batches[0].record_count")
    assert calls == []


def test_record_limit_is_settable_per_call():
    batch = zstd_record_bomb(1000)
    with pytest.raises(RecordLimitError):
        decode_records(batch, max_records_per_batch=999)
    assert len(decode_records(batch, max_records_per_batch=1000)) == 1000
    wrapper = legacy_gzip_bomb(1000)
    with pytest.raises(RecordLimitError) as info:
        decode_records(wrapper, max_records_per_batch=999)
    assert info.value.path == "batches[0].value.messages[999]"
    assert len(decode_records(wrapper, max_records_per_batch=1000)) == 1000


def test_process_default_record_limit():
    batch = zstd_record_bomb(50)
    compression.set_default_max_records_per_batch(49)
    try:
        with pytest.raises(RecordLimitError):
            decode_records(batch)
    finally:
        compression.set_default_max_records_per_batch(compression.DEFAULT_MAX_RECORDS_PER_BATCH)
    assert len(decode_records(batch)) == 50


@pytest.mark.parametrize("bad", [-1, 0, 1.5, "10", True])
def test_non_positive_limits_are_refused(bad):
    data = zstd_record_bomb(3)
    for call in (lambda **k: decode_records(data, **k), lambda **k: list(iter_batches(data, **k))):
        with pytest.raises(ValueError, match="max_decompressed_size"):
            call(max_decompressed_size=bad)
        with pytest.raises(ValueError, match="max_records_per_batch"):
            call(max_records_per_batch=bad)
    with pytest.raises(ValueError, match="max_decompressed_size"):
        compression.decompress("zstd", b"", max_size=bad)
    with pytest.raises(ValueError):
        compression.set_default_max_decompressed_size(bad)


def test_lz4_declared_size_over_limit_fails_at_once():
    frame = lz4_underdeclared(1 << 16, 1 << 40)
    with pytest.raises(DecompressionLimitError, match=f"{LIMIT}-byte limit"):
        compression.decompress("lz4", frame, max_size=LIMIT)


def test_lz4_underdeclared_within_limit_still_decodes_exactly():
    # the claim is wrong but the content fits: the library's own checks decide
    frame = lz4_underdeclared(1 << 17, 1000)
    with pytest.raises(DecompressionError):
        compression.decompress("lz4", frame, max_size=LIMIT)


def test_framed_snappy_limit_names_the_limit_not_the_budget_left():
    framed = compression.compress("snappy", b"x" * 100_000, snappy_framed=True)
    with pytest.raises(DecompressionLimitError) as info:
        compression.decompress("snappy", framed, max_size=50_000)
    assert "50000-byte limit" in str(info.value)


def test_zstd_frames_after_the_first_are_not_lost():
    # Java's and other producers' streams may hold several frames.
    payload = TINY_RECORD * 3
    two_frames = compression.compress("zstd", payload[:14]) + compression.compress("zstd", payload[14:])
    batch = v2_batch(two_frames, 3, 4)
    assert len(decode_records(batch)) == 3
    assert compression.decompress("zstd", two_frames) == payload
    with pytest.raises(DecompressionError):
        compression.decompress("zstd", two_frames[:-2])
    big = compression.compress("zstd", b"\0" * (4 * MiB)) * 3
    with pytest.raises(DecompressionLimitError):
        compression.decompress("zstd", big, max_size=10 * MiB)
