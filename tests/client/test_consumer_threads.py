"""Every Consumer method may be called from any thread, as with librdkafka: polls from
several threads take turns (each within its own timeout), hand out each record once, and
run beside position/commit/pause/seek calls on other threads without an error."""
import collections
import threading
import time

import pytest

import _peers
from kafkacodec.client import Consumer, Producer, TopicPartition
from kafkacodec.client import errors as E

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

N = 4000
PARTITIONS = 4


def _fill(bootstrap, topic):
    _peers.create_topic(bootstrap, topic, PARTITIONS)
    with Producer({"bootstrap.servers": bootstrap, "linger.ms": 5}) as p:
        for i in range(N):
            p.send(topic, b"%d" % i, partition=i % PARTITIONS)
        p.flush(30)


def _poll_from_threads(consumer, threads, n, arrow_too=True):
    """Poll from `threads` threads until n records came; returns ([(partition, offset)], errors)."""
    got, errors, lock = [], [], threading.Lock()

    def until():
        with lock:
            return len(got) >= n

    def worker(k):
        deadline = time.monotonic() + 60
        while not until() and time.monotonic() < deadline:
            try:
                t0 = time.monotonic()
                if arrow_too and k % 2:
                    rb = consumer.poll_arrow(0.3, max_records=97)
                    rows = list(zip(rb.column("partition").to_pylist(), rb.column("offset").to_pylist()))
                else:
                    rows = [(r.partition, r.offset) for r in consumer.poll(0.3, max_records=97)]
                took = time.monotonic() - t0
                with lock:
                    got.extend(rows)
                    if took > 0.3 + 1.0:  # a poll waits no longer than its timeout (plus scheduling)
                        errors.append(AssertionError(f"poll(0.3) took {took:.2f} s"))
            except Exception as e:  # noqa: BLE001 - every error is the finding
                with lock:
                    errors.append(e)
                return

    workers = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(90)
    return got, errors


def test_polls_from_several_threads_hand_out_each_record_once(mock1):
    topic = "threads"
    _fill(mock1, topic)
    c = Consumer({"bootstrap.servers": mock1, "auto.offset.reset": "earliest"})
    try:
        c.assign([TopicPartition(topic, p) for p in range(PARTITIONS)])
        got_rows, errors = _poll_from_threads(c, 4, N)
        assert not errors, errors[:3]
        counts = collections.Counter(got_rows)
        assert len(counts) == N and max(counts.values()) == 1
        per_partition = collections.defaultdict(list)
        for p, o in got_rows:
            per_partition[p].append(o)
        assert all(sorted(v) == list(range(N // PARTITIONS)) for v in per_partition.values())
    finally:
        c.close()


def test_other_methods_beside_polling_threads(mock1):
    topic = "threads-mixed"
    _fill(mock1, topic)
    c = Consumer({"bootstrap.servers": mock1, "group.id": "g-threads", "auto.offset.reset": "earliest",
                  "enable.auto.commit": False})
    tps = [TopicPartition(topic, p) for p in range(PARTITIONS)]
    stop = threading.Event()
    side_errors = []

    def side():
        while not stop.is_set():
            try:
                for tp in tps:
                    c.position(tp, timeout=10)
                c.assignment()
                c.pause(tps[:1])
                c.paused()
                c.resume(tps[:1])
                c.committed(tps, timeout=10)
                c.commit(asynchronous=True)
                c.watermarks()
            except E.KafkaError as e:
                if not e.retriable:
                    side_errors.append(e)
            except Exception as e:  # noqa: BLE001
                side_errors.append(e)
            time.sleep(0.01)

    try:
        c.assign(tps)
        sides = [threading.Thread(target=side) for _ in range(2)]
        for t in sides:
            t.start()
        got, errors = _poll_from_threads(c, 3, N)
        stop.set()
        for t in sides:
            t.join(30)
        assert not errors, errors[:3]
        assert not side_errors, side_errors[:3]
        assert set(got) == {(p, o) for p in range(PARTITIONS) for o in range(N // PARTITIONS)}
    finally:
        stop.set()
        c.close()


def test_a_poll_waiting_for_its_turn_keeps_its_timeout(mock1):
    _peers.create_topic(mock1, "threads-turn", 1)
    entered = threading.Event()

    def slow_stats(_document):
        # the poll serving this callback holds its turn for 2 s
        if not entered.is_set():
            entered.set()
            time.sleep(2.0)

    c = Consumer({"bootstrap.servers": mock1, "auto.offset.reset": "earliest",
                  "statistics.interval.ms": 100, "stats_cb": slow_stats})
    try:
        c.assign([TopicPartition("threads-turn", 0)])
        t = threading.Thread(target=lambda: c.poll(3.0))
        t.start()
        assert entered.wait(10)
        t0 = time.monotonic()
        assert c.poll(0.3) == []
        assert time.monotonic() - t0 < 0.3 + 0.5
        t.join(10)
    finally:
        c.close()


def test_close_from_another_thread_ends_a_poll_with_one_clear_error(mock1):
    _peers.create_topic(mock1, "threads-close", 1)
    c = Consumer({"bootstrap.servers": mock1, "auto.offset.reset": "earliest"})
    c.assign([TopicPartition("threads-close", 0)])
    outcome = []

    def poller():
        try:
            while True:
                c.poll(0.2)
        except Exception as e:  # noqa: BLE001
            outcome.append(e)

    t = threading.Thread(target=poller)
    t.start()
    time.sleep(0.5)
    c.close()
    t.join(10)
    assert not t.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], E.ClientClosedError), outcome
