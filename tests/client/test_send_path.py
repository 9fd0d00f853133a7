"""Producer.send's compiled common case (kafkacodec.client.send_path): the same answers as
the general path for what it declines, handles outside the cycle collector, and
callbacks dropped once run (so a callback holding its handle leaves no cycle)."""
import gc
import uuid

import pytest

import kafkacodec
from kafkacodec.client import Producer, RecordHandle

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(60)]


def test_send_path_declines_to_the_general_path(tansu_bootstrap):
    topic = f"sp-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 2)
    with Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 50}) as p:
        p.partitions_for(topic)
        first = p.send(topic, b"a", key=b"k")  # opens the batch (general path)
        fast = p.send(topic, b"b", key=b"k")   # appends to it
        assert type(fast) is RecordHandle and fast._result is first._result and fast._index == 1
        if kafkacodec.accelerated:
            assert not gc.is_tracked(fast)
        with pytest.raises(ValueError, match="partition True"):
            p.send(topic, b"x", partition=True)
        with pytest.raises(ValueError, match="partition 2"):
            p.send(topic, b"x", partition=2)
        with pytest.raises(ValueError, match="timestamp"):
            p.send(topic, b"x", key=b"k", timestamp=1 << 70)
        big_ts = p.send(topic, b"c", key=b"k", timestamp=1_700_000_000_123)
        seen = []
        held = p.send(topic, b"d", key=b"k", callback=lambda err, md: seen.append((held, md)))
        p.flush(30)
        assert [fast.get(0).offset, big_ts.get(0).offset, held.get(0).offset] == [1, 2, 3]
        assert big_ts.get(0).timestamp == 1_700_000_000_123
        assert seen == [(held, held.get(0))]
        assert held._result.callbacks == ()  # dropped once run


def test_a_record_with_a_callback_takes_the_lock_free_path(tansu_bootstrap):
    topic = f"sp-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 1)
    with Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 50}) as p:
        p.partitions_for(topic)
        reports = []
        first = p.send(topic, b"a", partition=0)
        handles = [p.send(topic, b"v%d" % i, partition=0, callback=lambda err, md: reports.append((err, md.offset)))
                   for i in range(3)]
        if kafkacodec.accelerated:
            assert [h._index for h in handles] == [1, 2, 3] and all(h._result is first._result for h in handles)
        with pytest.raises(TypeError, match="callable"):
            p.send(topic, b"x", partition=0, callback=5)
        p.flush(30)
        assert reports == [(None, 1), (None, 2), (None, 3)]


@pytest.mark.parametrize("partitioner", ["murmur2_random", "fnv1a_random"])
def test_callbacks_from_many_threads_each_run_once_in_offset_order(tansu_bootstrap, partitioner):
    # linger.ms=0 seals batches while the threads append: every race of an append with the I/O
    # thread is met; records with headers take the locked path between the lock-free ones; fnv1a's
    # partitioner is Python, so threads switch inside the compiled path's append too
    topic = f"sp-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 2)
    per_thread, threads = 4000, 4
    reported = []
    with Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 0, "partitioner": partitioner}) as p:
        p.partitions_for(topic)

        def report(err, md):
            assert err is None
            reported.append((md.partition, md.offset))

        def run(t):
            for i in range(per_thread):
                headers = [("h", b"1")] if i % 7 == 0 else None
                p.send(topic, b"%d-%d" % (t, i), key=b"k%d" % (i % 5), headers=headers, callback=report)
                if t == 0 and i % 500 == 0:
                    p.poll(0)  # one thread serves reports: two pollers would interleave them

        _peers.run_in_threads(run, threads)
        p.flush(60)
    assert len(reported) == len(set(reported)) == per_thread * threads
    for partition in (0, 1):
        offsets = [o for q, o in reported if q == partition]
        assert offsets == sorted(offsets)


@pytest.mark.parametrize("partitioner", ["consistent_random", "consistent", "murmur2_random"])
def test_keyed_records_land_where_librdkafka_puts_them(tansu_bootstrap, partitioner):
    # the compiled path hashes bytes keys itself (CRC-32 or murmur2); librdkafka with the same
    # partitioner must choose the same partition for every key, the empty key included
    confluent_kafka = pytest.importorskip("confluent_kafka")
    keys = [b"", b"k"] + [b"key-%d" % i for i in range(60)]
    ours, theirs = {}, {}
    for client in ("kafkacodec", "librdkafka"):
        topic = f"sp-{uuid.uuid4().hex[:8]}"
        _peers.create_topic(tansu_bootstrap, topic, 5)
        if client == "kafkacodec":
            with Producer({"bootstrap.servers": tansu_bootstrap, "partitioner": partitioner}) as p:
                p.partitions_for(topic)
                for key in keys * 2:  # the second time into open batches: the compiled path
                    p.send(topic, b"v", key=key, callback=lambda err, md, key=key: ours.setdefault(key, set()).add(
                        md.partition))
                p.flush(30)
        else:
            p = confluent_kafka.Producer({"bootstrap.servers": tansu_bootstrap, "partitioner": partitioner})
            for key in keys:
                p.produce(topic, b"v", key, on_delivery=lambda err, msg: theirs.setdefault(msg.key(), set()).add(
                    msg.partition()))
            assert p.flush(30) == 0
    sticky_empty = partitioner == "consistent_random"
    for key in keys:
        if key == b"" and sticky_empty:
            continue  # sticky: any one partition
        assert len(ours[key]) == 1 and ours[key] == theirs[key], (key, ours[key], theirs[key])


@pytest.mark.skipif(not kafkacodec.accelerated, reason="the compiled send path")
def test_a_send_inside_another_sends_partitioner_shares_no_callback_list(tansu_bootstrap):
    # a Python key partitioner runs inside the compiled append: another thread's send() may run
    # there (simulated here by calling it from the partitioner); each batch's first callback then
    # gets a list of its own, never the one the outer send() set aside
    from kafkacodec.client.send_path import SendPath
    topics = [f"sp-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    for topic in topics:
        _peers.create_topic(tansu_bootstrap, topic, 1)
    reports = []
    with Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 60000}) as p:
        for topic in topics:
            p.partitions_for(topic)
            p.send(topic, b"opens", partition=0)  # an open batch whose result has no callback yet

        def inner_first(key, partitions):
            path.send(topics[1], b"inner", partition=0, callback=lambda err, md: reports.append(("inner", md.offset)))
            return 0

        path = SendPath(p._slots, p._sticky, 0, inner_first, p._send, p._acc.completed)
        path.send(topics[0], b"outer", key=b"y", callback=lambda err, md: reports.append(("outer", md.offset)))
        p.flush(30)
    assert sorted(reports) == [("inner", 1), ("outer", 1)]
