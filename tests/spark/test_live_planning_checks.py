"""kafka-live checks its offsets and timestamps when a query is planned, as
Spark's Kafka source does or better: a value no Kafka offset or timestamp can
be, a start after the end, a start past the partition's end, an endingOffsets
past it (data loss: failOnDataLoss decides), JSON naming a partition the query
does not read, an assigned partition that does not exist, each one line naming
the option and the value; and planning ends within kafka.default.api.timeout.ms
whatever the brokers do, retries included.  Most of it runs on a stand-in
Admin without Spark; a broker (Tansu) and one Spark query check it end to
end."""
import json
import logging
import time
import uuid

import pytest

pytest.importorskip("pyspark")

from kafkacodec.client.admin import OffsetAndTimestamp, TopicDescription  # noqa: E402
from kafkacodec.errors import KafkaConnectionError, KafkaTimeoutError  # noqa: E402
from kafkacodec.spark import _live_offsets, _live_options, _live_plan  # noqa: E402
from kafkacodec.spark._live_options import LiveError, parse_live_options  # noqa: E402

BS = "127.0.0.1:9"
BIG = 10 ** 30


def _opts(streaming=False, **extra):
    names = {} if "assign" in extra else {"subscribe": "t"}
    return parse_live_options({"kafka.bootstrap.servers": BS, **names, **extra}, streaming=streaming)


def _one_line(info):
    msg = str(info.value)
    assert "\n" not in msg, msg
    return msg


# ----------------------------------------------------------------- when the options are read

@pytest.mark.parametrize("option, value, message", [
    ("startingOffsets", {"t": {"0": BIG}},
     f"option startingOffsets: t[0]: offset {BIG} is not an offset (0 to 9223372036854775807), -2 (earliest) "
     "or -1 (latest)"),
    ("startingOffsets", {"t": {"0": -5}},
     "option startingOffsets: t[0]: offset -5 is not an offset (0 to 9223372036854775807), -2 (earliest) "
     "or -1 (latest)"),
    ("endingOffsets", {"t": {"0": -5}},
     "option endingOffsets: t[0]: offset -5 is not an offset (0 to 9223372036854775807) or -1 (latest)"),
    ("endingOffsets", {"t": {"0": 2 ** 63}},
     f"option endingOffsets: t[0]: offset {2 ** 63} is not an offset (0 to 9223372036854775807) or -1 (latest)"),
    ("startingOffsetsByTimestamp", {"t": {"0": -5}},
     "option startingOffsetsByTimestamp: t[0]: timestamp -5 is not ms since the epoch (0 to 9223372036854775807)"),
    ("endingOffsetsByTimestamp", {"t": {"0": BIG}},
     f"option endingOffsetsByTimestamp: t[0]: timestamp {BIG} is not ms since the epoch"),
    ("startingTimestamp", "-7",
     "option startingTimestamp must be ms since the epoch (0 to 9223372036854775807), not '-7'"),
    ("endingTimestamp", str(BIG), f"option endingTimestamp must be ms since the epoch (0 to 9223372036854775807), "
                                  f"not '{BIG}'"),
    ("kafka.default.api.timeout.ms", "0", "kafka.default.api.timeout.ms must be a positive number of ms, not '0'"),
    ("kafka.default.api.timeout.ms", "soon", "kafka.default.api.timeout.ms must be a positive number of ms"),
])
def test_values_no_kafka_offset_or_timestamp_can_be_are_refused_at_once(option, value, message):
    with pytest.raises(LiveError) as info:
        _opts(**{option: value if isinstance(value, str) else json.dumps(value)})
    assert _one_line(info).startswith(message), str(info.value)


def test_values_kafka_allows_are_kept():
    o = _opts(True, startingOffsets=json.dumps({"t": {"0": 2 ** 63 - 1, "1": -2, "2": -1, "3": 0}}))
    assert o.starting == {("t", 0): 2 ** 63 - 1, ("t", 1): -2, ("t", 2): -1, ("t", 3): 0}
    o = _opts(endingOffsets=json.dumps({"t": {"0": 7, "1": -1}}), startingTimestamp="0",
              endingOffsetsByTimestamp=json.dumps({"t": {"0": 1_700_000_000_000}}))
    assert o.ending == {("t", 0): 7, ("t", 1): -1} and o.starting_timestamp == 0
    assert _opts().api_timeout == 60.0  # Spark's admin client default
    assert _opts(**{"kafka.default.api.timeout.ms": "2500"}).api_timeout == 2.5
    # the Admin keeps the same bound for each of its calls
    conf = _live_options.client_conf(_opts(**{"kafka.default.api.timeout.ms": "2500"}), "admin")
    assert conf["default.api.timeout.ms"] == "2500"


# ----------------------------------------------------------------- planning, on a stand-in Admin

class _Cluster:
    """An Admin's planning calls over topic ``t`` whose partition p holds
    offsets first[p] to ends[p]; ``silent``: every call waits its whole
    timeout (the Admin's default when given none) and times out, as the Admin
    does when no broker answers."""

    def __init__(self, ends, first=None, *, silent=False, default_timeout=60.0):
        self.ends = ends
        self.first = first or {}
        self.silent = silent
        self.default_timeout = default_timeout
        self.calls = []
        self.conf = {"request.timeout.ms": 30000}

    def _wait(self, what, timeout):
        self.calls.append((what, timeout))
        if self.silent:
            time.sleep(self.default_timeout if timeout is None else timeout)
            raise KafkaTimeoutError(f"{what} not answered")

    def topic_metadata(self, names=None, *, timeout=None):
        self._wait("metadata", timeout)
        described = {"t": TopicDescription("t", uuid.UUID(int=0), False, [object()] * len(self.ends))}
        return {n: d for n, d in described.items() if names is None or n in names}

    def list_offsets(self, specs, *, isolation_level="read_uncommitted", timeout=None):
        self._wait("offsets", timeout)
        assert set(specs.values()) <= {"earliest", "latest"}
        return {tp: OffsetAndTimestamp(self.first.get(tp.partition, 0) if spec == "earliest"
                                       else self.ends[tp.partition], None, None) for tp, spec in specs.items()}

    def high_watermarks(self, offsets, *, isolation_level="read_uncommitted", timeout=None):
        self._wait("watermarks", timeout)
        return {}


def _ranges(cluster, **extra):
    return [(r.partition, r.start, r.end) for r in _live_plan.batch_ranges(cluster, _opts(**extra))]


def test_a_start_after_the_end_is_refused_whatever_fail_on_data_loss_says():
    cluster = _Cluster({0: 10, 1: 10}, first={1: 4})
    both = {"startingOffsets": json.dumps({"t": {"0": 8, "1": -2}}),
            "endingOffsets": json.dumps({"t": {"0": 5, "1": -1}})}
    assert _ranges(cluster, **{**both, "startingOffsets": json.dumps({"t": {"0": 5, "1": -2}})}) == [(1, 4, 10)]
    for loss in ("true", "false"):
        with pytest.raises(LiveError) as info:
            _ranges(cluster, failOnDataLoss=loss, **both)
        assert _one_line(info) == ("startingOffsets for t[0] is offset 8, after the end of the range to read, "
                                   "offset 5 (endingOffsets for t[0])")
        # a start past the partition's end: nothing was there to lose, Spark's source asserts it too
        with pytest.raises(LiveError) as info:
            _ranges(cluster, failOnDataLoss=loss, startingOffsets=json.dumps({"t": {"0": 50, "1": -2}}))
        assert _one_line(info) == ("startingOffsets for t[0] is offset 50, after the end of the range to read, "
                                   "offset 10 (the partition's latest offset)")
    # an end below the log's start (retention) leaves earliest after it
    with pytest.raises(LiveError, match=r"^startingOffsets=earliest for t\[1\] is offset 4, after the end of the range "
                                        r"to read, offset 2 \(endingOffsets for t\[1\]\)$"):
        _ranges(cluster, endingOffsets=json.dumps({"t": {"0": 5, "1": 2}}))


def test_an_end_past_the_partitions_end_is_data_loss(caplog):
    cluster = _Cluster({0: 10, 1: 10})
    ending = json.dumps({"t": {"0": 200, "1": -1}})
    with pytest.raises(LiveError) as info:
        _ranges(cluster, endingOffsets=ending)
    assert _one_line(info) == ("failOnDataLoss: endingOffsets for t[0] is offset 200, past the partition's end "
                               "(latest offset 10): the offsets past it are not there to read. Set "
                               "failOnDataLoss=false to read up to the end and skip them")
    with caplog.at_level(logging.WARNING, logger="kafkacodec.spark._live"):
        assert _ranges(cluster, endingOffsets=ending, failOnDataLoss="false") == [(0, 0, 10), (1, 0, 10)]
        # a start past the end too: the whole range is skipped, as Spark's reader skips it
        assert _ranges(cluster, endingOffsets=ending, failOnDataLoss="false",
                       startingOffsets=json.dumps({"t": {"0": 50, "1": 3}})) == [(1, 3, 10)]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "failOnDataLoss=false: endingOffsets for t[0] is offset 200, past the partition's end (latest offset 10); "
        "offsets 10 to 200 are skipped",
        "failOnDataLoss=false: endingOffsets for t[0] is offset 200, past the partition's end (latest offset 10); "
        "offsets 50 to 200 are skipped"]


@pytest.mark.parametrize("extra, message", [
    ({"startingOffsets": {"t": {"0": 1, "1": -2, "7": 3}}},
     "startingOffsets names t[7], which the query does not read: it does not exist, topic t has partitions 0 to 1"),
    ({"endingOffsets": {"t": {"0": 1, "1": -1}, "u": {"0": 3}}},
     "endingOffsets names u[0], which the query does not read: it reads no topic u"),
    ({"startingOffsetsByTimestamp": {"t": {"0": 1, "1": 1, "-1": 1}}},
     "startingOffsetsByTimestamp names t[-1], which the query does not read: it does not exist"),
    ({"assign": {"t": [0]}, "startingOffsets": {"t": {"0": 1, "1": 1}}},
     "startingOffsets names t[1], which the query does not read: option assign does not name it"),
    ({"assign": {"t": [0, 5]}}, "option assign names t[5], which does not exist: topic t has partitions 0 to 1"),
    ({"assign": {"t": [0], "u": [0]}}, f"option assign names u[0], which does not exist: there is no topic u on {BS}"),
])
def test_partitions_the_query_does_not_read_are_named(extra, message):
    cluster = _Cluster({0: 10, 1: 10})
    with pytest.raises(LiveError) as info:
        _ranges(cluster, **{k: json.dumps(v) for k, v in extra.items()})
    assert _one_line(info).startswith(message), str(info.value)
    assert [what for what, _ in cluster.calls] == ["metadata"]  # refused before any offset is asked for


def test_a_stream_checks_its_starting_offsets_too():
    from kafkacodec.spark._live_source import KafkaLiveStreamReader, live_schema

    reader = KafkaLiveStreamReader(_opts(True, startingOffsets=json.dumps({"t": {"0": 1, "1": 2, "2": 3}})),
                                   live_schema())
    reader._admin_client = _Cluster({0: 10, 1: 10})
    with pytest.raises(LiveError, match=r"^startingOffsets names t\[2\], which the query does not read: it does not "
                                        r"exist, topic t has partitions 0 to 1$"):
        reader.initialOffset()


def test_planning_ends_within_the_api_timeout_retries_included():
    """Brokers that answer nothing: every Admin call waits as long as it is
    let.  With fetchOffset.numRetries=3 the offsets were asked for four
    times, a full kafka.default.api.timeout.ms each; they share it now."""
    cluster = _Cluster({0: 10}, silent=True, default_timeout=0.8)
    o = _opts(**{"kafka.default.api.timeout.ms": "800", "fetchOffset.numRetries": "3"})
    began = time.monotonic()
    with pytest.raises(KafkaTimeoutError) as info:
        _live_offsets.with_retries(o, "offsets", lambda: _live_plan.batch_ranges(cluster, o))
    took = time.monotonic() - began
    assert took < 1.3, took
    assert _one_line(info).startswith(f"kafka-live: fetching offsets from kafka.bootstrap.servers={BS} failed (1 "
                                      "attempt within kafka.default.api.timeout.ms=800, fetchOffset.numRetries=3): ")
    assert all(t is not None and t <= 0.8 for _, t in cluster.calls), cluster.calls


def test_an_unreachable_bootstrap_fails_within_the_api_timeout():
    from _peers import free_port

    from kafkacodec.client import Admin

    bs = f"127.0.0.1:{free_port()}"  # nothing listens there
    o = parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": "t", "kafka.default.api.timeout.ms": "1500"})
    began = time.monotonic()
    with pytest.raises((KafkaTimeoutError, KafkaConnectionError)) as info:
        with Admin(_live_options.client_conf(o, "admin")) as admin:
            _live_offsets.with_retries(o, "offsets", lambda: _live_plan.batch_ranges(admin, o))
    took = time.monotonic() - began
    assert took < 1.5 + 1.5, took
    assert _one_line(info).startswith(f"kafka-live: fetching offsets from kafka.bootstrap.servers={bs} failed ")
    assert "within kafka.default.api.timeout.ms=1500" in str(info.value)


# ----------------------------------------------------------------- against a broker

@pytest.fixture(scope="module")
def ten(tansu_bootstrap):
    """Topic of 2 partitions: 10 records in partition 0, none in 1."""
    pytest.importorskip("confluent_kafka")
    from _peers import create_topics, produce_with_confluent

    topic = f"plan-{uuid.uuid4().hex[:8]}"
    create_topics(tansu_bootstrap, {topic: 2})
    produce_with_confluent(tansu_bootstrap, topic, [(b"k", b"v%d" % i) for i in range(10)], partition=0)
    return tansu_bootstrap, topic


def test_planning_checks_on_a_broker(ten):
    from kafkacodec.client import Admin

    bs, topic = ten

    def plan(**extra):
        names = {} if "assign" in extra else {"subscribe": topic}
        o = parse_live_options({"kafka.bootstrap.servers": bs, "kafka.default.api.timeout.ms": "3000", **names,
                                **{k: json.dumps(v) for k, v in extra.items()}})
        with Admin(_live_options.client_conf(o, "admin")) as admin:
            return [(r.partition, r.start, r.end) for r in
                    _live_offsets.with_retries(o, "offsets", lambda: _live_plan.batch_ranges(admin, o))]

    assert plan(startingOffsets={topic: {"0": 3, "1": -2}}) == [(0, 3, 10)]
    cases = [
        ({"startingOffsets": {topic: {"0": 8, "1": -2}}, "endingOffsets": {topic: {"0": 5, "1": -1}}},
         f"startingOffsets for {topic}[0] is offset 8, after the end of the range to read, offset 5"),
        ({"startingOffsets": {topic: {"0": 50, "1": -2}}},
         f"startingOffsets for {topic}[0] is offset 50, after the end of the range to read, offset 10 (the "
         "partition's latest offset)"),
        ({"endingOffsets": {topic: {"0": 12, "1": -1}}},
         f"failOnDataLoss: endingOffsets for {topic}[0] is offset 12, past the partition's end (latest offset 10)"),
        ({"startingOffsets": {topic: {"0": 1, "1": -2, "2": 0}}},
         f"startingOffsets names {topic}[2], which the query does not read: it does not exist, topic {topic} has "
         "partitions 0 to 1"),
        # waited for until every lookup had timed out, four times over, before
        ({"assign": {topic: [0, 2]}},
         f"option assign names {topic}[2], which does not exist: topic {topic} has partitions 0 to 1"),
    ]
    for extra, message in cases:
        began = time.monotonic()
        with pytest.raises(LiveError) as info:
            plan(**extra)
        assert time.monotonic() - began < 3.0
        assert _one_line(info).startswith(message), str(info.value)


@pytest.mark.broker
def test_planning_errors_in_spark(spark, ten):
    """One line at planning, in Spark: a start past the partition's end, and
    an unreachable bootstrap within kafka.default.api.timeout.ms (it took
    four times that, retries included)."""
    from _peers import free_port

    bs, topic = ten

    def read(**options):
        df = spark.read.format("kafka-live")
        for k, v in options.items():
            df = df.option(k, v)
        return df.load()

    with pytest.raises(Exception) as info:
        read(**{"kafka.bootstrap.servers": bs, "subscribe": topic,
                "startingOffsets": json.dumps({topic: {"0": 50, "1": -2}})}).collect()
    assert (f"LiveError: startingOffsets for {topic}[0] is offset 50, after the end of the range to read, offset 10 "
            "(the partition's latest offset)\n") in str(info.value)

    nowhere = f"127.0.0.1:{free_port()}"
    began = time.monotonic()
    with pytest.raises(Exception) as info:
        read(**{"kafka.bootstrap.servers": nowhere, "subscribe": topic,
                "kafka.default.api.timeout.ms": "4000"}).collect()
    took = time.monotonic() - began
    assert (f"kafka-live: fetching offsets from kafka.bootstrap.servers={nowhere} failed (1 attempt within "
            "kafka.default.api.timeout.ms=4000, fetchOffset.numRetries=3): ") in str(info.value)
    assert took < 4.0 + 8.0, took  # the bound, and Spark's planning around it


@pytest.mark.broker
def test_the_first_line_of_a_failed_read_names_the_cause(spark, ten, tmp_path):
    """register() makes Spark's error one line carrying the cause, not the
    Python worker's trace (its first line used to be "Traceback ...")."""
    bs, _ = ten
    missing_dir = tmp_path / "no-such-logs"
    with pytest.raises(Exception) as info:
        spark.read.format("kafka-log").load(str(missing_dir)).count()
    first = str(info.value).splitlines()[0]
    assert first.endswith(f"KafkaLogError: no such directory: {missing_dir}"), str(info.value)

    with pytest.raises(Exception) as info:
        (spark.read.format("kafka-live").option("kafka.bootstrap.servers", bs)
         .option("subscribe", "gone-topic").load().count())
    first = str(info.value).splitlines()[0]
    assert first.endswith(f"LiveError: no topic gone-topic on {bs}"), str(info.value)
    assert "Traceback" not in str(info.value)
