"""How much the consumer fetches ahead of poll(): fetch.queue.min.records (records buffered per
partition before it stops fetching), fetch.queue.max.bytes (record data buffered in all), and
fetch.error.backoff.ms (the wait after a failed Fetch)."""
import time
import uuid

import pytest

from kafkacodec.client import Consumer, Producer

_peers = pytest.importorskip("_peers")

BATCH = 10       # records per batch written (batch.max.records)
BATCHES = 20


def _topic_of_batches(bootstrap, batches=BATCHES):
    """A one-partition topic of `batches` batches of BATCH records of 100 bytes each."""
    topic = f"queue-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, topic, 1)
    p = Producer({"bootstrap.servers": bootstrap, "batch.max.records": BATCH, "linger.ms": 1000})
    try:
        for i in range(batches * BATCH):
            p.send(topic, b"%03d" % i + b"x" * 97, partition=0)
        p.flush(10)
    finally:
        p.close()
    return topic


def _consumer(bootstrap, topic, **settings):
    # max.partition.fetch.bytes of one byte: each Fetch brings the partition's next batch only
    c = Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest", "max.partition.fetch.bytes": 1,
                  "check.crcs": not _peers.is_mock(bootstrap), **settings})
    c.assign([(topic, 0)])
    c.seek((topic, 0), 0)  # a position now: fetching starts without a poll()
    return c


def _settled(fetcher, seconds=1.0):
    """What the fetcher holds once it stopped fetching: (records by offsets, fetches, bytes)."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        with fetcher.lock:
            fetches = [cf for cf in fetcher.completed]
            now = (sum(cf.next_offset(False) - cf.fetch_offset for cf in fetches), len(fetches),
                   fetcher.buffered_bytes)
        if now == last and now[1]:
            return now
        last = now
        time.sleep(0.2)
    return last


@pytest.mark.parametrize("min_records, fetches", [(1, 1), (35, 4), (1000, BATCHES)])
def test_min_records_fetches_ahead(mock_bootstrap, min_records, fetches):
    topic = _topic_of_batches(mock_bootstrap)
    c = _consumer(mock_bootstrap, topic, **{"fetch.queue.min.records": min_records})
    try:
        records, held, _ = _settled(c._fetcher)
        assert held == fetches and records == fetches * BATCH
        got = []
        deadline = time.monotonic() + 20
        while len(got) < BATCHES * BATCH and time.monotonic() < deadline:
            got += [r.offset for r in c.poll(0.5)]
        assert got == list(range(BATCHES * BATCH))  # in order, none twice, none lost
        assert c._fetcher.buffered_bytes == 0
    finally:
        c.close()


def test_max_bytes_bounds_what_is_buffered(mock_bootstrap):
    topic = _topic_of_batches(mock_bootstrap)
    c = _consumer(mock_bootstrap, topic, **{"fetch.queue.min.records": 1000})
    try:
        _, _, one_batch_all = _settled(c._fetcher)
        one_batch = one_batch_all // BATCHES
    finally:
        c.close()
    c = _consumer(mock_bootstrap, topic, **{"fetch.queue.min.records": 1000,
                                            "fetch.queue.max.bytes": 3 * one_batch})
    try:
        _, held, size = _settled(c._fetcher)
        assert held == 3 and size >= 3 * one_batch
        assert len(c.poll(1.0, max_records=BATCH)) == BATCH  # one batch taken: room for one more
        _, held, _ = _settled(c._fetcher)
        assert held == 3
    finally:
        c.close()


def test_read_committed_with_fetching_ahead(broker):
    """Transactions committed and aborted in turn, read back while each Fetch brings one batch
    (the mock; Tansu answers with all it has, and no aborted transactions: the consumer finds
    them from the markers) and up to 1000 records are fetched ahead: only the committed
    records, in order."""
    topic = broker.topic(1, "queue-txn")
    p = Producer({"bootstrap.servers": broker.bootstrap, "transactional.id": f"tx-{uuid.uuid4().hex[:6]}",
                  "batch.max.records": 4})
    expected = []
    try:
        p.init_transactions()
        for t in range(12):
            p.begin_transaction()
            values = [b"t%02d-%d" % (t, i) for i in range(9)]
            for v in values:
                p.send(topic, v, partition=0)
            if t % 3 == 1:
                p.abort_transaction()
            else:
                p.commit_transaction()
                expected += values
    finally:
        p.close()
    c = _consumer(broker.bootstrap, topic, **{"fetch.queue.min.records": 1000, "isolation.level": "read_committed",
                                              "check.crcs": broker.kind != "mock"})
    try:
        got = []
        deadline = time.monotonic() + 30
        while len(got) < len(expected) and time.monotonic() < deadline:
            got += [r.value for r in c.poll(0.5)]
        time.sleep(0.5)
        got += [r.value for r in c.poll(0.5)]
        assert got == expected
    finally:
        c.close()


@pytest.mark.parametrize("backoff_ms", [20, 600])
def test_fetch_error_backoff(mock1, backoff_ms):
    topic = _topic_of_batches(mock1, batches=1)
    c = _consumer(mock1, topic, **{"fetch.error.backoff.ms": backoff_ms, "fetch.max.wait.ms": 50})
    try:
        # take the record first: a fetch of it still buffered would answer the poll below
        # without any Fetch meeting the errors
        first = time.monotonic()
        while not c.poll(0.05) and time.monotonic() - first < 10:
            pass
        # paused, no Fetch is sent; the pause outlasts any in flight (fetch.max.wait.ms 50), so the
        # three errors meet Fetches of offset 0 after the seek, never one sent before it
        c.pause([(topic, 0)])
        time.sleep(0.5)
        _peers.mock_fault(mock1, "errors", 1, 7, 7, 7)  # three Fetch answers REQUEST_TIMED_OUT
        c.seek((topic, 0), 0)
        start = time.monotonic()
        c.resume([(topic, 0)])
        got = []
        while not got and time.monotonic() - start < 10:
            got = c.poll(0.05)
        took = time.monotonic() - start
        if backoff_ms == 20:
            assert took < 1.5  # below the 600 ms case's 1.62 s floor, with room for a loaded machine
        else:
            assert took >= 3 * backoff_ms / 1000 * 0.9
    finally:
        c.close()
