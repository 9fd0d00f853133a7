"""The broker launchers in _peers.py work: each peer starts on 127.0.0.1 and
confluent-kafka, aiokafka and kafka-python exchange records through it."""
import asyncio
import socket
import struct
import uuid

import pytest

import _peers

confluent_kafka = pytest.importorskip("confluent_kafka")

PEERS = ["mock_bootstrap", "tansu_bootstrap"]


@pytest.fixture(params=PEERS, ids=["mock", "tansu"])
def bootstrap(request):
    return request.getfixturevalue(request.param)


def fresh_topic(bootstrap, partitions=2):
    name = f"kc-peers-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, name, partitions)
    return name


def sample(n, tag=b""):
    return [(b"k%d" % i + tag, b"value-%d-" % i + tag * 10, [("h", b"%d" % i), ("n", None)])
            for i in range(n)]


def as_kvh(rows):
    return sorted((k, v, [tuple(h) for h in hs]) for k, v, hs, *_ in rows)


def test_listens_on_loopback_only(bootstrap):
    for addr in bootstrap.split(","):
        host, port = addr.rsplit(":", 1)
        assert host == "127.0.0.1"
        socket.create_connection((host, int(port)), timeout=2).close()


@pytest.mark.parametrize("compression", ["none", "gzip", "snappy", "lz4", "zstd"])
def test_confluent_round_trip(bootstrap, compression):
    topic = fresh_topic(bootstrap)
    records = sample(20, compression.encode())
    delivered = _peers.produce_with_confluent(bootstrap, topic, records, compression=compression)
    assert all(d is not None for d in delivered)
    got = _peers.consume_with_confluent(bootstrap, topic, len(records), timeout=15)
    assert as_kvh(got) == as_kvh(records)
    for key, value, headers, ts, offset, partition in got:
        assert ts > 0 and offset >= 0 and partition in (0, 1)


def test_confluent_transactions(bootstrap):
    topic = fresh_topic(bootstrap, 1)
    tid = f"kc-tx-{uuid.uuid4().hex[:6]}"
    _peers.produce_with_confluent(bootstrap, topic, sample(3, b"a"), transactional_id=tid, abort=True)
    _peers.produce_with_confluent(bootstrap, topic, sample(4, b"c"), transactional_id=tid)
    got = _peers.consume_with_confluent(bootstrap, topic, 7, timeout=15, isolation_level="read_committed")
    # Neither peer fills Fetch's aborted_transactions, so librdkafka cannot drop
    # the aborted records; both transactions and their markers are in the log.
    assert as_kvh(got) == as_kvh(sample(3, b"a") + sample(4, b"c"))
    assert [r[4] for r in got] == [0, 1, 2, 4, 5, 6, 7]  # offset 3: the ABORT marker


def test_aiokafka_round_trip(bootstrap):
    aiokafka = pytest.importorskip("aiokafka")
    topic = fresh_topic(bootstrap, 1)

    async def run():
        prod = aiokafka.AIOKafkaProducer(bootstrap_servers=bootstrap, compression_type="gzip",
                                         request_timeout_ms=10000)
        await prod.start()
        try:
            for i in range(10):
                await prod.send(topic, key=b"a%d" % i, value=b"av%d" % i, headers=[("x", b"1")])
            await prod.flush()
        finally:
            await prod.stop()
        cons = aiokafka.AIOKafkaConsumer(bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                                         enable_auto_commit=False, request_timeout_ms=10000)
        await cons.start()
        try:
            cons.assign([aiokafka.TopicPartition(topic, 0)])
            got = []
            async with asyncio.timeout(15):
                while len(got) < 10:
                    batch = await cons.getmany(timeout_ms=500)
                    got += [(m.key, m.value, list(m.headers)) for ms in batch.values() for m in ms]
            return got
        finally:
            await cons.stop()

    got = asyncio.run(run())
    assert got == [(b"a%d" % i, b"av%d" % i, [("x", b"1")]) for i in range(10)]
    # the bytes aiokafka wrote are readable by librdkafka as well
    assert len(_peers.consume_with_confluent(bootstrap, topic, 10, timeout=10)) == 10


def test_kafka_python_round_trip(bootstrap):
    kafka = pytest.importorskip("kafka")
    topic = fresh_topic(bootstrap, 1)
    prod = kafka.KafkaProducer(**_peers.kafka_python_conf(bootstrap, compression_type="lz4",
                                                         max_block_ms=10000))
    try:
        for i in range(10):
            prod.send(topic, key=b"p%d" % i, value=b"pv%d" % i, headers=[("y", b"2")])
        prod.flush(10)
    finally:
        prod.close(5)
    cons = kafka.KafkaConsumer(**_peers.kafka_python_conf(
        bootstrap, auto_offset_reset="earliest", enable_auto_commit=False, consumer_timeout_ms=5000))
    try:
        cons.assign([kafka.TopicPartition(topic, 0)])
        got = []
        for msg in cons:
            got.append((msg.key, msg.value, list(msg.headers)))
            if len(got) == 10:
                break
    finally:
        cons.close()
    assert got == [(b"p%d" % i, b"pv%d" % i, [("y", b"2")]) for i in range(10)]
    assert len(_peers.consume_with_confluent(bootstrap, topic, 10, timeout=10)) == 10


def test_capture_proxy_records_frames(bootstrap):
    with _peers.capture_proxy(bootstrap) as proxy:
        admin = confluent_kafka.admin.AdminClient({"bootstrap.servers": proxy.bootstrap})
        md = admin.list_topics(timeout=10)
        assert md.brokers
    requests = proxy.client_frames
    assert requests and proxy.server_frames
    api_keys = {struct.unpack_from(">h", f)[0] for f in requests}
    assert {18, 3} <= api_keys  # ApiVersions, Metadata
    answered = [(q, r) for q, r in proxy.exchanges() if r is not None]
    assert answered
    for req, resp in answered:  # correlation ids match pairwise
        assert struct.unpack_from(">i", req, 4) == struct.unpack_from(">i", resp, 0)


def test_mock_cluster_accepts_topic_specs():
    with _peers.mock_cluster(topics=[("a", 2)]) as b1:
        assert _peers.is_mock(b1)
    with _peers.mock_cluster(topics={"b": 1}) as b2, _peers.mock_cluster(topics=["c"]) as b3:
        assert b2 != b3
    assert not _peers.is_mock(b1)
    with pytest.raises(ValueError):
        _peers._topic_list({"bad": 0})
