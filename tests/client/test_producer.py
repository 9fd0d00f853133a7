"""The producer against real brokers: records sent by kafkacodec come back identically
through librdkafka and kafkacodec's consumer (every codec, headers, null keys/values),
keyed records land in the Java client's partition, callbacks and handles report the
offsets the broker gave; configuration errors name the setting."""
import threading
import time

import pytest

from kafkacodec.client import Consumer, Producer
from kafkacodec.client import errors as E
from kafkacodec.client.partitioner import Partitioner, murmur2, murmur2_partition

_peers = pytest.importorskip("_peers")

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


# -- murmur2: Kafka's own test vectors (UtilsTest.testMurmur2)

@pytest.mark.parametrize("data, expected", [
    (b"21", -973932308),
    (b"foobar", -790332482),
    (b"a-little-bit-long-string", -985981536),
    (b"a-little-bit-longer-string", -1486304829),
    (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971),
    (b"abc", 479470107),
])
def test_murmur2_matches_kafka_vectors(data, expected):
    assert murmur2(data) == expected


def test_partitioner_kinds():
    p = Partitioner("murmur2")
    assert p.for_key(b"foobar", 7) == (-790332482 & 0x7FFFFFFF) % 7
    assert p.for_key(bytearray(b"foobar"), 7) == p.for_key(b"foobar", 7)  # not cached, same answer
    assert p.for_key(None, 7) is None  # sticky
    import zlib
    assert Partitioner("consistent_random").for_key(b"abc", 5) == zlib.crc32(b"abc") % 5
    assert Partitioner("consistent").for_key(None, 5) == 0
    assert Partitioner(lambda key, n: n - 1).for_key(b"x", 3) == 2
    with pytest.raises(ValueError, match="returned 3"):
        Partitioner(lambda key, n: n).for_key(b"x", 3)
    with pytest.raises(ValueError):
        Partitioner("fnv")
    for _ in range(50):
        assert Partitioner.next_sticky(4, 1) != 1


# -- configuration (no broker needed: bad settings fail before any connection)

@pytest.mark.parametrize("conf, name", [
    ({"linger.ms": -1}, "linger.ms"),
    ({"acks": "2"}, "acks"),
    ({"compression.type": "brotli"}, "compression.type"),
    ({"partitioner": "fnv"}, "partitioner"),
    ({"batch_sise": 10}, "batch_sise"),
    ({"enable.idempotence": True, "acks": 1}, "acks"),
    ({"enable.idempotence": True, "max.in.flight.requests.per.connection": 6},
     "max.in.flight.requests.per.connection"),
    ({"transactional.id": "x", "enable.idempotence": False}, "enable.idempotence"),
    ({"buffer.memory": "lots"}, "buffer.memory"),
])
def test_config_errors_name_the_setting(conf, name):
    with pytest.raises(E.ConfigError, match=name.replace(".", r"\.")):
        Producer({"bootstrap.servers": "127.0.0.1:1", **conf})


def test_idempotence_default_follows_acks():
    p = Producer({"bootstrap.servers": "127.0.0.1:1", "acks": 1})
    try:
        assert p.idempotent is False
    finally:
        p.close(0)
    p = Producer(bootstrap_servers="127.0.0.1:1", linger_ms=1)
    try:
        assert p.idempotent is True and p.conf["linger.ms"] == 1 and p.conf["acks"] == -1
    finally:
        p.close(0)


# -- against brokers



def _sample(n=300):
    out = []
    for i in range(n):
        key = None if i % 7 == 0 else b"key-%d" % i
        value = None if i % 11 == 5 else (b"value-%d-" % i) * (1 + i % 5)
        headers = [("h1", b"x%d" % i), ("empty", None)] if i % 3 == 0 else [] if i % 3 == 1 else None
        out.append((key, value, headers, 1_700_000_000_000 + i))
    return out


def _consume_kafkacodec(bootstrap, topic, partitions, n, timeout=30):
    c = Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest", "request.timeout.ms": 10000})
    try:
        c.assign([(topic, p) for p in range(partitions)])
        out = []
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            out.extend(c.poll(0.5))
        return [(r.key, r.value, list(r.headers), r.timestamp, r.offset, r.partition) for r in out]
    finally:
        c.close()


@pytest.mark.broker
@pytest.mark.timeout(120)
@pytest.mark.parametrize("codec", CODECS)
def test_round_trip_through_both_consumers(broker, codec):
    kind, bootstrap = broker
    topic = broker.topic(3, "pt")
    records = _sample()
    with Producer({"bootstrap.servers": bootstrap, "compression.type": codec, "linger.ms": 2,
                   "batch.size": 4096}) as p:
        handles = [p.send(topic, v, key=k, headers=h, timestamp=ts) for k, v, h, ts in records]
        p.flush(30)
        metas = [h.get(0) for h in handles]
    # what the broker said: offsets per partition are 0.. in send order
    by_part = {}
    for m in metas:
        by_part.setdefault(m.partition, []).append(m.offset)
    for offsets in by_part.values():
        assert offsets == list(range(len(offsets)))
    expected = sorted(((k, v, [(hk, hv) for hk, hv in h or ()], ts, m.offset, m.partition)
                       for (k, v, h, ts), m in zip(records, metas)), key=lambda r: (r[5], r[4]))
    got = _peers.consume_with_confluent(bootstrap, topic, len(records), timeout=30)
    assert got == expected
    mine = sorted(_consume_kafkacodec(bootstrap, topic, 3, len(records)), key=lambda r: (r[5], r[4]))
    assert mine == expected


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_metadata_carries_the_answers_time_and_log_start(broker):
    """Produce v5+ answers give the partition's log start offset; a broker that stamps records
    with its own time makes that the timestamp, with timestamp_type 1 (librdkafka's mock answers
    a log-append time of 1234), else the record's own time is kept with timestamp_type 0."""
    kind, bootstrap = broker
    topic = broker.topic(1, "md")
    sent_ts = int(time.time() * 1000) - 3_600_000
    with Producer({"bootstrap.servers": bootstrap}) as p:
        metas = [p.send(topic, b"v%d" % i, timestamp=sent_ts + i).get(30) for i in range(3)]
    assert [m.offset for m in metas] == [0, 1, 2]
    assert [m.log_start_offset for m in metas] == [0, 0, 0]
    for i, m in enumerate(metas):
        if m.timestamp_type == 1:
            assert m.timestamp == 1234, m
        else:
            assert (m.timestamp_type, m.timestamp) == (0, sent_ts + i)
    assert {m.timestamp_type for m in metas} == ({1} if kind == "mock" else {0})


@pytest.mark.broker
@pytest.mark.timeout(180)
def test_threads_sending_while_batches_drain(broker):
    """send() appends without a lock while the I/O thread seals and builds batches
    (tiny batches, no linger, idempotent): every record is written once, where its
    handle says, in each thread's order per partition."""
    kind, bootstrap = broker
    topic = broker.topic(3, "pt")
    threads, per_thread = 4, 3000
    handles = [None] * threads
    start = threading.Barrier(threads)
    with Producer({"bootstrap.servers": bootstrap, "linger.ms": 0, "batch.size": 600,
                   "acks": "all"}) as p:
        p.partitions_for(topic)

        def run(t):
            start.wait()
            out = []
            for i in range(per_thread):
                key = b"k%d" % (i % 5) if i % 4 else None  # keyed and sticky records interleaved
                out.append((t, i, p.send(topic, b"%d:%d" % (t, i), key=key)))
            handles[t] = out

        _peers.run_in_threads(run, threads)
        p.flush(60)
        where = {b"%d:%d" % (t, i): h.get(0)[1:3] for out in handles for t, i, h in out}
    assert len(set(where.values())) == threads * per_thread
    got = _peers.consume_with_confluent(bootstrap, topic, threads * per_thread, timeout=60)
    assert sorted(v for _, v, *_ in got) == sorted(where)
    assert {v: (part, off) for _, v, _, _, off, part in got} == where
    for t in range(threads):
        last = {}
        for _, v, _, _, off, part in sorted(got, key=lambda r: (r[5], r[4])):
            vt, vi = map(int, v.split(b":"))
            if vt == t:
                assert last.get(part, -1) < vi
                last[part] = vi


@pytest.mark.broker
@pytest.mark.timeout(120)
def test_keys_land_where_librdkafka_murmur2_puts_them(broker):
    kind, bootstrap = broker
    topic_a, topic_b = broker.topic(7, "pt"), broker.topic(7, "pt")
    keys = [b"user-%d" % i for i in range(200)] + [b"", b"x", b"\xff\xfe\x00", b"k" * 33]
    with Producer({"bootstrap.servers": bootstrap}) as p:
        mine = [p.send(topic_a, b"v", key=k) for k in keys]
        p.flush(30)
        mine = [h.get(0).partition for h in mine]
    theirs = _peers.produce_with_confluent(bootstrap, topic_b, [(k, b"v") for k in keys],
                                           partitioner="murmur2_random")
    assert mine == [p for p, _ in theirs]
    assert mine == [murmur2_partition(k, 7) for k in keys]


@pytest.mark.broker
@pytest.mark.timeout(120)
def test_null_keys_stick_to_a_partition_per_batch(broker):
    kind, bootstrap = broker
    topic = broker.topic(4, "pt")
    with Producer({"bootstrap.servers": bootstrap, "batch.size": 2048, "linger.ms": 50}) as p:
        handles = [p.send(topic, b"x" * 100) for _ in range(400)]
        p.flush(30)
        parts = [h.get(0).partition for h in handles]
    # runs of one partition, each about a batch long (~18 records of ~110 bytes in 2 KiB)
    runs = 1 + sum(1 for a, b in zip(parts, parts[1:]) if a != b)
    assert 10 <= runs <= 40, runs
    assert len(set(parts)) > 1


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_callbacks_run_in_poll_and_flush(broker):
    kind, bootstrap = broker
    topic = broker.topic(2, "pt")
    seen = []
    with Producer({"bootstrap.servers": bootstrap, "acks": 1}) as p:
        for i in range(50):
            p.send(topic, b"%d" % i, partition=i % 2, callback=lambda err, md: seen.append((err, md)))
        assert p.poll(0) == 0 or len(seen) <= 50
        p.flush(30)
        assert len(seen) == 50
        assert all(err is None for err, _ in seen)
        assert sorted((md.partition, md.offset) for _, md in seen) == sorted(
            (i % 2, i // 2) for i in range(50))


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_poll_0_between_sends_serves_every_callback_and_keeps_later_waits(broker):
    """poll(0) after every send, as confluent-kafka's programs call it: each callback runs once,
    from one poll or flush; poll(0) refuses what any poll refuses; and a poll(0) that found
    nothing leaves a later poll(timeout) waiting its time, not returning at once."""
    kind, bootstrap = broker
    topic = broker.topic(2, "pt")
    seen = []
    with Producer({"bootstrap.servers": bootstrap, "acks": 1, "linger.ms": 0}) as p:
        served = 0
        for i in range(300):
            p.send(topic, b"%d" % i, partition=i % 2, callback=lambda err, md: seen.append((err, md)))
            served += p.poll(0)
        p.flush(30)
        assert served <= 300 and len(seen) == 300 and all(err is None for err, _ in seen)
        assert len({(md.partition, md.offset) for _, md in seen}) == 300
        for bad in (-1, "0", False):
            with pytest.raises(E.InvalidArgumentError):
                p.poll(bad)
        p._callbacks.event.set()  # a hint left set with nothing queued (a result already served)
        assert p.poll(0) == 0
        began = time.monotonic()
        assert p.poll(0.3) == 0
        assert time.monotonic() - began >= 0.25


@pytest.mark.broker
@pytest.mark.timeout(60)
def test_new_batches_wake_the_io_thread_only_when_due_before_its_next_tick(broker):
    """A batch opened while the sender already waits for an earlier linger deadline is seen
    at that tick, with no wakeup; one opened when no tick is planned wakes the loop. Either
    way every batch leaves at its linger.ms, not at the loop's idle wait (1 s)."""
    kind, bootstrap = broker
    topic = broker.topic(3, "wk")
    with Producer({"bootstrap.servers": bootstrap, "acks": 1, "linger.ms": 80}) as p:
        p.send(topic, b"warm", partition=0).get(30)
        acc = p._acc
        wakeups = []
        wake = acc.wakeup
        acc.wakeup = lambda: (wakeups.append(time.monotonic()), wake())
        acked = {}
        began = time.monotonic()
        p.send(topic, b"a", partition=0, callback=lambda err, md: acked.setdefault(0, time.monotonic()))
        time.sleep(0.02)   # the loop has planned partition 0's deadline (began + 80 ms)
        for value in (b"b", b"bb"):  # two records: a batch of one would go with partition 0's request
            p.send(topic, value, partition=1, callback=lambda err, md: acked.setdefault(1, time.monotonic()))
            p.send(topic, value, partition=2, callback=lambda err, md: acked.setdefault(2, time.monotonic()))
        deadline = time.monotonic() + 10
        while len(acked) < 3 and time.monotonic() < deadline:
            p.poll(0.05)
        assert sorted(acked) == [0, 1, 2]
        # the first batch woke the idle loop; the later two were due after its planned tick
        assert len(wakeups) == 1, wakeups
        for partition, at in acked.items():
            assert at - began < 0.6, (partition, at - began)
        assert acked[1] - began >= 0.095 and acked[2] - began >= 0.095  # each kept its own linger.ms

@pytest.mark.broker
@pytest.mark.timeout(60)
def test_send_to_missing_partition_and_oversized_record(broker):
    kind, bootstrap = broker
    topic = broker.topic(2, "pt")
    with Producer({"bootstrap.servers": bootstrap, "max.request.size": 10000}) as p:
        with pytest.raises(ValueError, match="partition 5"):
            p.send(topic, b"x", partition=5)
        with pytest.raises(E.BrokerResponseError, match="max.request.size"):
            p.send(topic, b"x" * 20000)
        assert p.send(topic, b"small", partition=1).get(30).offset == 0


def test_a_raising_batch_listener_leaves_the_batch_and_the_other_listeners_done(caplog):
    """Listeners (the asyncio bridge, a split batch's parent) run on the I/O thread as a batch
    completes: one that raises is logged, and the batch, its waiters and the other listeners
    are done all the same."""
    from kafkacodec.client.accumulator import BatchResult

    result = BatchResult("t", 0)
    seen = []

    def raising(_):
        raise RuntimeError("Event loop is closed")

    result.add_listener(raising)
    result.add_listener(seen.append)
    with caplog.at_level("ERROR", logger="kafkacodec.client"):
        result.complete(7)
    assert result.done() and result.base_offset == 7 and result.wait(0)
    assert seen == [result]
    assert "t[0]'s batch raised" in caplog.text
