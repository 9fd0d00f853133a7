"""send_arrow encodes the next chunks on worker threads while it queues the current one:
chunks come back in order, an encoding error is raised at its chunk's turn, and a table of
many chunks lands whole and in order on the broker."""
import threading
import time
import uuid

import pytest

from kafkacodec.client import _send_arrow
from kafkacodec.client import Producer

_peers = pytest.importorskip("_peers")


@pytest.mark.parametrize("workers", [0, 1, 2])
def test_chunks_come_back_in_order(workers):
    threads = set()

    def encode(job):
        threads.add(threading.get_ident())
        time.sleep(0.002 * (job % 3))   # out of order if results were taken as they finish
        return bytearray(b"%d" % job)

    got = list(_send_arrow._encoded_ahead(range(20), encode, workers))
    assert got == [(j, bytearray(b"%d" % j)) for j in range(20)]
    assert (threading.get_ident() in threads) == (workers == 0)


def test_an_encoding_error_is_raised_at_its_turn():
    def encode(job):
        if job == 5:
            raise ValueError("chunk 5 is bad")
        return bytearray(1)

    seen = []
    with pytest.raises(ValueError, match="chunk 5"):
        for job, _ in _send_arrow._encoded_ahead(range(10), encode, 2):
            seen.append(job)
    assert seen == [0, 1, 2, 3, 4]


def test_closing_early_leaves_no_worker_running():
    started = []

    def encode(job):
        started.append(job)
        return bytearray(1)

    gen = _send_arrow._encoded_ahead(range(1000), encode, 2)
    next(gen)
    gen.close()
    n = len(started)
    time.sleep(0.05)
    assert len(started) == n <= 4   # nothing encoded after close; only the few ahead ran


@pytest.mark.broker
@pytest.mark.timeout(120)
@pytest.mark.parametrize("keyed", [True, False])
def test_a_table_of_many_chunks_lands_whole_and_in_order(tansu_bootstrap, keyed):
    pa = pytest.importorskip("pyarrow")
    topic = f"ah-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 3)
    n = 60_000   # ~7 MB: several 1 MiB chunks, so the workers encode ahead
    table = pa.table({"key": pa.array([b"k%d" % (i % 50) if keyed else None for i in range(n)], pa.binary()),
                      "value": pa.array([b"%08d" % i + b"x" * 100 for i in range(n)])})
    with Producer({"bootstrap.servers": tansu_bootstrap, "compression.type": "lz4"}) as p:
        assert p.conf["buffer.memory"] >= _send_arrow.ENCODE_AHEAD_MIN_MEMORY
        result = p.send_arrow(topic, table)
        offsets, parts = result.offsets(60), result.partitions()
    got = _peers.read_committed_with_kafkacodec(tansu_bootstrap, topic, 3, timeout=60, until=n)
    assert len(got) == n
    values = {(r.partition, r.offset): r.value for r in got}
    for i in range(0, n, 997):
        assert values[(int(parts[i]), int(offsets[i]))][:8] == b"%08d" % i
    for k in range(3):
        mine = [r.value[:8] for r in sorted(got, key=lambda r: r.offset) if r.partition == k]
        assert mine == sorted(mine)   # each partition keeps the table's order


@pytest.mark.broker
@pytest.mark.timeout(120)
@pytest.mark.parametrize("keyed", [True, False])
def test_a_sliced_table_is_made_whole_once_not_for_every_chunk(tansu_bootstrap, keyed, monkeypatch):
    # ka.encode copies a sliced or chunked column whole for each call: send_arrow hands it
    # columns of one chunk from offset 0, so a slice of a large table is copied once
    pa = pytest.importorskip("pyarrow")
    topic = f"sl-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 3)
    n = 40_001
    whole = pa.table({"key": pa.array([b"k%d" % (i % 50) if keyed else None for i in range(n)], pa.binary()),
                      "value": pa.array([b"%08d" % i + b"x" * 100 for i in range(n)])})
    table = whole.slice(1)
    seen = []
    encode = _send_arrow.ka.encode

    def spy(t, **kw):
        if "rows" in kw:  # (unkeyed rows go as slices of the table, which cost nothing)
            seen.append([(c.num_chunks, c.chunk(0).offset) for c in t.columns])
        return encode(t, **kw)

    monkeypatch.setattr(_send_arrow.ka, "encode", spy)
    with Producer({"bootstrap.servers": tansu_bootstrap}) as p:
        result = p.send_arrow(topic, table)
        offsets, parts = result.offsets(60), result.partitions()
    assert all(cols == [(1, 0), (1, 0)] for cols in seen) and (len(seen) > 3) == keyed
    got = _peers.read_committed_with_kafkacodec(tansu_bootstrap, topic, 3, timeout=60, until=n - 1)
    values = {(r.partition, r.offset): r.value for r in got}
    assert len(values) == n - 1
    for i in range(0, n - 1, 997):
        assert values[(int(parts[i]), int(offsets[i]))][:8] == b"%08d" % (i + 1)
