"""The face's delivery reports as the client's compiled report loop serves them
(send_path.run_reports handing a DeliveryReport the record's fields): offsets of whole
and split batches, log-append timestamps, failures, callbacks that raise, and plain
callbacks beside them, each run once and in order."""
import collections
import logging

import pytest

import kafkacodec
from kafkacodec.client import errors as E
from kafkacodec.client.accumulator import BatchResult

pytestmark = pytest.mark.skipif(not kafkacodec.accelerated, reason="the compiled report loop")

log = logging.getLogger("test")


def _owner():
    """A Producer's report ledger, recording the failures handed to it."""
    from kafkacodec.compat.confluent_kafka._produce import Reports
    owner = Reports()
    failed = []
    owner.report_failed = lambda report, err, partition: failed.append((report.topic, report.key, err, partition))
    owner.outstanding = 10
    return owner, failed


def _report(owner, seen, topic="t", key=b"k", value=b"v"):
    from kafkacodec.compat.confluent_kafka._produce import Delivery
    return Delivery(owner, lambda err, msg: seen.append((err, msg)), topic, key, value, -1)


def _result(topic, partition, base, callbacks, append_time=-1):
    r = BatchResult(topic, partition)
    r.base_offset, r.log_append_time, r.callbacks = base, append_time, callbacks
    return r


def test_reports_of_a_whole_batch_carry_offsets_timestamps_and_latency():
    from kafkacodec.client.send_path import run_reports
    (owner, _), seen = _owner(), []
    plain = []
    r = _result("t", 3, 100, [(0, 1_700_000_000_000, _report(owner, seen, key=b"a")),
                              (1, 1_700_000_000_001, lambda err, md: plain.append((err, md))),
                              (2, 1_700_000_000_002, _report(owner, seen, key=b"c"))])
    errors = []
    assert run_reports(collections.deque([r]), errors, log) == 3
    assert errors == [] and r.callbacks == ()
    (e0, m0), (e2, m2) = seen
    assert e0 is None and e2 is None
    assert (m0.topic(), m0.partition(), m0.offset(), m0.key(), m0.value()) == ("t", 3, 100, b"a", b"v")
    assert m2.offset() == 102 and m2.timestamp() == (1, 1_700_000_000_002)  # TIMESTAMP_CREATE_TIME
    assert m0.latency() >= 0 and m0.error() is None
    assert plain[0][0] is None and plain[0][1].offset == 101
    assert owner.outstanding == 8


def test_log_append_time_and_split_batches():
    from kafkacodec.client.send_path import run_reports
    (owner, _), seen = _owner(), []
    stamped = _result("t", 0, 7, [(0, 5, _report(owner, seen))], append_time=1_700_000_000_500)
    parent = BatchResult("t", 1)
    first, second = _result("t", 1, 10, None), _result("t", 1, 20, None)
    parent._parts = [(0, first), (2, second)]
    parent.callbacks = [(1, 5, _report(owner, seen, key=b"x")), (3, 5, _report(owner, seen, key=b"y"))]
    assert run_reports(collections.deque([stamped, parent]), [], log) == 3
    assert seen[0][1].timestamp() == (2, 1_700_000_000_500)  # TIMESTAMP_LOG_APPEND_TIME
    assert [(m.key(), m.offset()) for _, m in seen[1:]] == [(b"x", 11), (b"y", 21)]


def test_failures_go_to_the_producer_and_a_raising_callback_is_kept():
    from kafkacodec.client.send_path import run_reports
    from kafkacodec.compat.confluent_kafka._produce import Delivery
    owner, reported = _owner()
    failed = _result("t", 0, -1, [(0, 5, _report(owner, [], key=b"f"))])
    failed.error = E.KafkaTimeoutError("not acknowledged")

    def boom(err, msg):
        raise ValueError("from on_delivery")
    ok = _result("t", 0, 3, [(0, 5, Delivery(owner, boom, "t", None, None, -1)),
                             (1, 5, _report(owner, []))])
    errors = []
    assert run_reports(collections.deque([failed, ok]), errors, log) == 3
    # the partition is the report loop's (the batch's), not the one produce() was given (-1)
    assert reported == [("t", b"f", failed.error, 0)]
    # on_delivery's exception is the face's to raise from poll(); the loop goes on
    assert [str(e) for e in owner.raised] == ["from on_delivery"] and errors == []


def test_a_plain_callback_that_raises_is_collected_and_the_rest_run():
    from kafkacodec.client.send_path import run_reports
    ran = []

    def bad(err, md):
        raise RuntimeError("bad")
    r = _result("t", 0, 0, [(0, 1, bad), (1, 1, lambda err, md: ran.append(md.offset))])
    errors = []
    assert run_reports(collections.deque([r]), errors, log) == 2
    assert [str(e) for e in errors] == ["bad"] and ran == [1]


def test_a_report_called_as_a_function_takes_the_same_path():
    """The pure twin's loop (and held records failing) call a report as fn(err, metadata)."""
    from kafkacodec.client.types import RecordMetadata
    (owner, reported), seen = _owner(), []
    report = _report(owner, seen)
    report(None, RecordMetadata("t", 2, 41, 1_700_000_000_000, 0, -1))
    assert seen[0][1].offset() == 41 and seen[0][1].partition() == 2
    err = E.KafkaTimeoutError("late")
    _report(owner, seen)(err, None)
    assert reported[-1][2:] == (err, None)


def test_a_report_is_untracked_and_refers_to_the_ledger_only():
    """A report per message in flight: untracked by the cycle collector (tracked, they started
    collections a confluent-kafka program does not have), so it must refer to nothing of the
    Producer or its client, only to the ledger and the message's own fields."""
    import gc

    from kafkacodec.compat.confluent_kafka._produce import Delivery, ProducerCore, Reports
    owner, _ = _owner()
    report = _report(owner, [])
    assert not gc.is_tracked(report)
    assert report.reports is owner
    assert not hasattr(report, "handle") and not hasattr(report, "owner")
    core = ProducerCore()
    assert isinstance(core._reports, Reports)
    assert (core._reports.outstanding, core._reports.only_errors, core._reports.raised) == (0, False, [])
    with pytest.raises(TypeError):
        Delivery(core, None, "t", None, None, -1)  # the ledger, never the Producer
