"""metadata.wait.on.send=false: send() never waits for a topic's metadata (librdkafka's produce()).
Records sent before it is known are held, then placed in the order sent; keyless ones draw their
partitions; flush() waits for them; purge, close and delivery.timeout.ms fail them."""
import socket
import threading
import time

import pytest

from kafkacodec.client import Consumer, Producer
from kafkacodec.client import errors as E

_peers = pytest.importorskip("_peers")


@pytest.fixture
def refusing_bootstrap():
    """A port bound on 127.0.0.1 without a listener: every connection to it is refused."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    yield f"127.0.0.1:{s.getsockname()[1]}"
    s.close()


def _held_producer(bootstrap, **conf):
    return Producer(dict({"bootstrap.servers": bootstrap, "metadata.wait.on.send": False}, **conf))


def test_records_sent_before_the_metadata_arrive_in_order_and_keyless_ones_spread(broker):
    topic = broker.topic(3)
    with _peers.capture_proxy(broker.bootstrap, paused=True) as gate:
        p = _held_producer(gate.bootstrap)
        started = time.monotonic()
        keyless = [p.send(topic, b"v%d" % i) for i in range(60)]
        keyed = [p.send(topic, b"k%d" % i, key=b"same") for i in range(10)]
        assert time.monotonic() - started < 0.5  # no wait for the metadata
        assert all(h.partition == -1 for h in keyless + keyed)  # all held: the gate passes nothing yet
        gate.resume()
        p.flush(30)
    later = p.send(topic, b"after", key=b"same")
    p.flush(30)
    delivered = [h.get(0) for h in keyless + keyed + [later]]
    # each keyless record drew its partition (all 60 in one of 3: a chance of 3 in 10^10)
    assert len({md.partition for md in delivered[:60]}) == 3
    same = delivered[60:]
    assert len({md.partition for md in same}) == 1
    assert [md.offset for md in same] == sorted(md.offset for md in same)  # in the order sent
    p.close()
    c = Consumer({"bootstrap.servers": broker.bootstrap, "auto.offset.reset": "earliest"})
    c.assign([(topic, n) for n in range(3)])
    values = []
    deadline = time.monotonic() + 30
    while len(values) < 71 and time.monotonic() < deadline:
        values += [(r.partition, r.value) for r in c.poll(0.5)]
    c.close()
    assert sorted(v for _, v in values) == sorted([b"v%d" % i for i in range(60)]
                                                  + [b"k%d" % i for i in range(10)] + [b"after"])
    in_partition = [v for part, v in values if part == same[0].partition and v.startswith((b"k", b"after"))]
    assert in_partition == [b"k%d" % i for i in range(10)] + [b"after"]


def test_a_record_sent_while_others_are_held_goes_behind_them(broker):
    topic = broker.topic(1)
    p = _held_producer(broker.bootstrap)
    handles = [p.send(topic, b"%d" % i, partition=0) for i in range(200)]
    p.flush(30)
    offsets = [h.get(0).offset for h in handles]
    assert offsets == sorted(offsets) and len(set(offsets)) == 200
    p.close()


def test_held_records_flushed_before_they_are_placed_fill_their_batches(broker):
    # a flush under way sends each open batch at once; held records are placed as one burst, so
    # they fill batches as records sent together do (batch.max.records), not one batch each
    topic = broker.topic(1)
    with _peers.capture_proxy(broker.bootstrap, paused=True) as gate:
        p = _held_producer(gate.bootstrap, **{"linger.ms": 2000, "batch.max.records": 6})
        handles = [p.send(topic, b"v%d" % i, partition=0) for i in range(20)]
        place = p._unplaced._place

        def place_slowly(*args):
            try:
                return place(*args)
            finally:
                time.sleep(0.005)  # the I/O thread runs between two records placed

        p._unplaced._place = place_slowly
        opening = threading.Timer(0.3, gate.resume)
        opening.start()
        try:
            p.flush(30)  # begins while all 20 are held
        finally:
            opening.join()
        assert [h.get(0).offset for h in handles] == list(range(handles[0].get(0).offset,
                                                               handles[0].get(0).offset + 20))
        p.close()
    assert _peers.batch_record_counts(broker.bootstrap, topic) == [6, 6, 6, 2]


def test_nothing_waits_and_flush_returns_at_its_timeout_while_no_broker_answers(refusing_bootstrap):
    p = _held_producer(refusing_bootstrap)
    started = time.monotonic()
    handle = p.send("t", b"x")
    assert time.monotonic() - started < 0.2
    assert handle.partition == -1 and not handle.done()
    with pytest.raises(E.KafkaTimeoutError):
        p.flush(0.5)
    assert time.monotonic() - started < 2
    p.close(0)
    assert isinstance(handle.exception(0), E.ClientClosedError)


def test_a_held_record_fails_after_delivery_timeout_with_its_callback_run(refusing_bootstrap):
    told = []
    p = _held_producer(refusing_bootstrap, **{"delivery.timeout.ms": 600, "request.timeout.ms": 500,
                                               "linger.ms": 0})
    handle = p.send("t", b"x", callback=lambda err, md: told.append(err))
    p.flush(5)
    assert len(told) == 1 and isinstance(told[0], E.KafkaTimeoutError)
    assert "delivery.timeout.ms" in str(told[0])
    with pytest.raises(E.KafkaTimeoutError):
        handle.get(0)
    p.close()


def test_purge_fails_held_records(refusing_bootstrap):
    p = _held_producer(refusing_bootstrap)
    handles = [p.send("t", b"x") for _ in range(3)]
    p.purge(in_queue=True)
    assert all(isinstance(h.exception(1), E.PurgedError) for h in handles)
    p.flush(1)
    p.close()


def test_held_records_are_bounded_by_buffer_memory(refusing_bootstrap):
    p = _held_producer(refusing_bootstrap, **{"buffer.memory": 64 * 1024, "batch.size": 16384})
    for _ in range(5):
        p.send("t", bytes(10_000))
    started = time.monotonic()
    with pytest.raises(E.KafkaTimeoutError, match="buffer.memory"):
        for _ in range(5):
            p.send("t", bytes(10_000))
    assert time.monotonic() - started < 0.2  # refused at once, not after max.block.ms
    p.close(0)


def test_a_held_buffer_is_copied_when_sent(broker):
    topic = broker.topic(1)
    p = _held_producer(broker.bootstrap)
    value = bytearray(b"first")
    handle = p.send(topic, value)
    value[:] = b"later"
    p.flush(30)
    offset = handle.get(0).offset
    p.close()
    c = Consumer({"bootstrap.servers": broker.bootstrap, "auto.offset.reset": "earliest"})
    c.assign([(topic, 0)])
    c.seek((topic, 0), offset)
    got = []
    deadline = time.monotonic() + 30
    while not got and time.monotonic() < deadline:
        got = c.poll(0.5)
    c.close()
    assert got[0].value == b"first"


def test_bad_records_are_refused_when_sent_not_when_placed(refusing_bootstrap):
    p = _held_producer(refusing_bootstrap)
    with pytest.raises(TypeError):
        p.send("t", "text, not bytes")
    with pytest.raises(E.InvalidArgumentError):
        p.send("t", b"x", partition=-3)
    with pytest.raises(E.KafkaError):
        p.send("bad topic name!", b"x")
    p.close(0)


def test_the_java_way_still_waits_for_the_metadata_by_default(refusing_bootstrap):
    p = Producer({"bootstrap.servers": refusing_bootstrap, "max.block.ms": 300})
    started = time.monotonic()
    with pytest.raises(E.KafkaTimeoutError, match="max.block.ms"):
        p.send("t", b"x")
    assert 0.25 < time.monotonic() - started < 2
    p.close(0)


class _TopiclessBroker:
    """A scripted broker whose Metadata answers give every topic asked for `code`."""

    def __init__(self, code):
        from kafkacodec.protocol import api_key_of
        from kafkacodec.protocol import messages as m

        from _scripted_broker import ScriptedBroker
        offered = {"ApiVersions": 3, "Metadata": 12}
        names = {api_key_of(n): n for n in offered}

        def answer(key, version, body):
            if names[key] == "ApiVersions":
                av = m.ApiVersionsResponse.ApiVersion
                return m.ApiVersionsResponse(api_keys=[av(api_key=api_key_of(n), min_version=0, max_version=v)
                                                       for n, v in offered.items()])
            return m.MetadataResponse(
                cluster_id="scripted", controller_id=1,
                brokers=[m.MetadataResponse.MetadataResponseBroker(node_id=1, host="127.0.0.1", port=self.port)],
                topics=[m.MetadataResponse.MetadataResponseTopic(error_code=code, name=t.name, partitions=[])
                        for t in body.topics or ()])
        self.broker = ScriptedBroker(answer)
        self.port = self.broker.port


@pytest.mark.parametrize("code, after", [(3, 0.8), (29, 0.0)])
def test_a_topic_the_brokers_refuse_or_do_not_have_fails_its_held_records(code, after):
    scripted = _TopiclessBroker(code)
    try:
        p = _held_producer(f"127.0.0.1:{scripted.port}", **{"max.block.ms": 800})
        started = time.monotonic()
        handle = p.send("missing", b"x")
        p.flush(10)
        took = time.monotonic() - started
        error = handle.exception(0)
        assert isinstance(error, E.BrokerResponseError) and error.code == code, error
        assert after <= took < after + 1.5  # max.block.ms for a missing topic, at once for a refused one
        p.close()
    finally:
        scripted.broker.close()


@pytest.mark.timeout(120)
def test_records_held_in_an_aborted_transaction_fail_and_never_reach_the_next(broker):
    import uuid
    topic = broker.topic(2, "txheld")
    with Producer({"bootstrap.servers": broker.bootstrap, "transactional.id": f"t-{uuid.uuid4().hex[:6]}",
                   "metadata.wait.on.send": False}) as p:
        p.init_transactions(30)
        p.begin_transaction()
        aborted = [p.send(topic, b"ab-%d" % i) for i in range(20)]  # the topic is new to it: held first
        p.abort_transaction(30)
        assert all(isinstance(h.exception(5), E.TransactionAbortedError) for h in aborted)
        p.begin_transaction()
        committed = [p.send(topic, b"c-%d" % i) for i in range(20)]
        p.commit_transaction(30)
        assert all(h.get(0).offset >= 0 for h in committed)
    got = _peers.read_committed_with_kafkacodec(broker.bootstrap, topic, 2, 6, until=21)
    assert sorted(r.value for r in got) == sorted(b"c-%d" % i for i in range(20))


def test_partitions_for_warms_the_topic_and_never_lets_a_record_overtake_held_ones(broker):
    topic = broker.topic(1)
    p = _held_producer(broker.bootstrap)
    first = [p.send(topic, b"%d" % i, partition=0) for i in range(50)]  # held: the topic is new to it
    assert p.partitions_for(topic, 10) == [0]
    later = p.send(topic, b"later", partition=0)
    p.flush(30)
    offsets = [h.get(0).offset for h in first + [later]]
    assert offsets == sorted(offsets)
    other = broker.topic(2)
    assert p.partitions_for(other, 10) == [0, 1]
    assert p.send(other, b"x", partition=1).partition == 1  # known: never held
    p.close()
    unreachable = Producer({"bootstrap.servers": "127.0.0.1:9", "metadata.wait.on.send": False})
    with pytest.raises(E.KafkaTimeoutError, match="within the timeout"):
        unreachable.partitions_for("t", 0.2)
    unreachable.close(0)
