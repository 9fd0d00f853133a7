"""The consumer's fetch path at its edges: an answer in flight across seek_to_beginning();
data held back for read_committed when a Fetch answer ends inside a batch; poll() while
the only buffered data belongs to a paused partition.  Fetch answers are handed to the
fetcher as its I/O thread would (Fetcher._answered), to a consumer whose broker does not
exist, so nothing else moves meanwhile; the first case also runs against the brokers."""
import concurrent.futures
import time
from types import SimpleNamespace

import pytest

import _peers
from kafkacodec.client import Consumer, TopicPartition
from kafkacodec.records import RecordBatchBuilder, build_control_batch

TP = TopicPartition("t", 0)


def _batch(base_offset, values, producer_id=-1, transactional=False):
    b = RecordBatchBuilder(base_offset=base_offset, producer_id=producer_id, producer_epoch=0 if producer_id >= 0 else -1,
                           base_sequence=0 if producer_id >= 0 else -1, is_transactional=transactional)
    for v in values:
        b.append(1, None, v)
    return b.build()


def _consumer(**extra):
    c = Consumer({"bootstrap.servers": "127.0.0.1:1", "enable.fetch.sessions": False, **extra})
    c.assign([TP])
    with c._fetcher.lock:
        c._fetcher.partitions[TP].position = 0
    return c


def _answer(c, fetch_offset, records):
    """The Fetch answer for `fetch_offset`, as the I/O thread hands it over."""
    resp = SimpleNamespace(error_code=0, session_id=0, responses=[SimpleNamespace(topic=TP.topic, partitions=[
        SimpleNamespace(partition_index=0, error_code=0, high_watermark=100, last_stable_offset=100,
                        log_start_offset=0, aborted_transactions=None, records=records, current_leader=None)])])
    f = concurrent.futures.Future()
    f.set_result(resp)
    c._fetcher._answered(1, {(TP, fetch_offset)}, f, None)


@pytest.mark.parametrize("lookup_done", [False, True])
def test_an_answer_in_flight_across_seek_to_beginning_is_dropped(lookup_done):
    # seek_to_beginning leaves the position as it was until the earliest offset is looked up:
    # the answer for the old position must not pass for the new one
    c = _consumer()
    try:
        with c._fetcher.lock:
            c._fetcher.partitions[TP].position = 5   # a Fetch from 5 is in flight
        c.seek_to_beginning([TP])
        _answer(c, 5, _batch(5, [b"v5", b"v6"]))
        if lookup_done:
            with c._fetcher.lock:
                state = c._fetcher.partitions[TP]
                state.position, state.reset = 0, None
        assert c._buffer.take_records(100) == []
    finally:
        c.close(timeout=1)


def test_data_held_for_read_committed_keeps_only_whole_batches():
    # the first answer starts with an open transaction and ends inside its next batch
    # (max bytes): what is held back and the next answer join into whole batches
    first = _batch(0, [b"a1", b"a2"], producer_id=1, transactional=True)
    second = _batch(2, [b"b1", b"b2"], producer_id=1, transactional=True)
    rest = (build_control_batch("COMMIT", producer_id=1, producer_epoch=0, base_offset=4)
            + _batch(5, [b"plain"], producer_id=9))
    c = _consumer(**{"isolation.level": "read_committed"})
    try:
        _answer(c, 0, first + second[:25])
        assert c._buffer.take_records(100) == []           # the transaction's end has not arrived
        assert c._fetcher.partitions[TP].fetch_next == 2
        _answer(c, 2, second + rest)
        assert [(r.offset, r.value) for r in c._buffer.take_records(100)] == [
            (0, b"a1"), (1, b"a2"), (2, b"b1"), (3, b"b2"), (5, b"plain")]
    finally:
        c.close(timeout=1)


def test_poll_waits_rather_than_spins_beside_a_paused_partitions_data():
    c = _consumer()
    try:
        _answer(c, 0, _batch(0, [b"x"]))
        c.pause([TP])
        passes = [0]
        take = c._buffer.take_records

        def counting(limit):
            passes[0] += 1
            return take(limit)

        c._buffer.take_records = counting
        assert c.poll(1.0) == []
        assert passes[0] < 50   # a waiting poll looks again every 0.1 s at most
        c.resume([TP])
        assert [r.value for r in c.poll(1.0)] == [b"x"]
    finally:
        c.close(timeout=1)


@pytest.mark.broker
def test_seek_to_beginning_during_a_long_poll_reads_from_the_start(broker):
    topic = broker.topic(1)
    _peers.produce_with_confluent(broker.bootstrap, topic, [(None, b"v%d" % i) for i in range(5)], partition=0)
    tp = TopicPartition(topic, 0)
    c = Consumer({"bootstrap.servers": broker.bootstrap, "auto.offset.reset": "earliest",
                  "fetch.max.wait.ms": 3000, "enable.fetch.sessions": False})
    try:
        c.assign([tp])
        got = []
        deadline = time.monotonic() + 20
        while len(got) < 5 and time.monotonic() < deadline:
            got += c.poll(0.5)
        assert [r.offset for r in got] == [0, 1, 2, 3, 4]
        time.sleep(0.5)   # a Fetch from 5 now waits at the broker
        c.seek_to_beginning([tp])
        _peers.produce_with_confluent(broker.bootstrap, topic, [(None, b"v5")], partition=0)
        again = []
        deadline = time.monotonic() + 20
        while len(again) < 6 and time.monotonic() < deadline:
            again += c.poll(0.5)
        assert [r.offset for r in again][:6] == [0, 1, 2, 3, 4, 5]
    finally:
        c.close(timeout=2)
