"""End to end, against brokers started by the tests: kafka-python and aiokafka
with kafkacodec installed exchange exactly the records they exchange without
it (every codec, headers, null keys/values, transactions), and interoperate
with confluent-kafka in both directions."""
import asyncio
import time
import uuid

import pytest

_peers = pytest.importorskip("_peers", reason="tests/_peers.py (broker launchers) not available")
pytest.importorskip("confluent_kafka")
kafka = pytest.importorskip("kafka")
aiokafka = pytest.importorskip("aiokafka")

from kafkacodec.integrations import aiokafka as kc_aio  # noqa: E402
from kafkacodec.integrations import kafka_python as kc_kp  # noqa: E402

pytestmark = pytest.mark.broker

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


@pytest.fixture(params=["mock", "tansu"])
def bootstrap(request):
    return request.getfixturevalue(f"{request.param}_bootstrap")


@pytest.fixture(autouse=True)
def _clean():
    kc_kp.uninstall()
    kc_aio.uninstall()
    yield
    kc_kp.uninstall()
    kc_aio.uninstall()


def records(tag, n=12):
    out = []
    for i in range(n):
        key = None if i % 5 == 0 else b"k%d-" % i + tag
        value = None if i % 7 == 4 else b'{"i": %d, "t": "%s"}' % (i, tag)
        headers = [("h1", b"v%d" % i), ("h2", b"")] if i % 3 == 0 else []
        out.append((1_700_000_000_000 + i, key, value, headers))
    return out


def new_topic(bootstrap, partitions):
    name = f"kci-{uuid.uuid4().hex[:10]}"
    _peers.create_topic(bootstrap, name, partitions)
    return name


def seen(consumer_records):
    return [(r.partition, r.offset, r.timestamp, r.key, r.value, [tuple(h) for h in r.headers])
            for r in consumer_records]


def expected(per_partition):
    return [(p, off, ts, k, v, [tuple(h) for h in hs])
            for p, recs in per_partition for off, (ts, k, v, hs) in enumerate(recs)]


# ------------------------------------------------------------------ kafka-python

def kp_produce(bootstrap, topic, partition, recs, **conf):
    p = kafka.KafkaProducer(**_peers.kafka_python_conf(bootstrap, linger_ms=5, **conf))
    try:
        if conf.get("transactional_id"):
            p.init_transactions()
            p.begin_transaction()
        for ts, k, v, h in recs:
            p.send(topic, key=k, value=v, headers=h, partition=partition, timestamp_ms=ts)
        if conf.get("transactional_id"):
            p.commit_transaction()
        p.flush(20)
    finally:
        p.close(5)


def kp_consume(bootstrap, topic, partitions, n, timeout=20):
    c = kafka.KafkaConsumer(**_peers.kafka_python_conf(
        bootstrap, enable_auto_commit=False, auto_offset_reset="earliest", group_id=None))
    try:
        tps = [kafka.TopicPartition(topic, p) for p in partitions]
        c.assign(tps)
        c.seek_to_beginning(*tps)
        out = []
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            for recs in c.poll(timeout_ms=200).values():
                out.extend(recs)
        out.sort(key=lambda r: (r.partition, r.offset))
        return out
    finally:
        c.close()


def kp_round_trip(bootstrap, tag):
    topic = new_topic(bootstrap, len(CODECS))
    sent = []
    for part, codec in enumerate(CODECS):
        recs = records(tag + codec.encode())
        kp_produce(bootstrap, topic, part, recs, compression_type=None if codec == "none" else codec)
        sent.append((part, recs))
    got = kp_consume(bootstrap, topic, range(len(CODECS)), sum(len(r) for _, r in sent))
    return topic, sent, got


def test_kafka_python_same_records_with_and_without(bootstrap):
    _, sent, plain = kp_round_trip(bootstrap, b"plain")
    kc_kp.install()
    topic, sent2, patched = kp_round_trip(bootstrap, b"plain")
    assert seen(plain) == expected(sent)
    assert seen(patched) == seen(plain)
    # the whole ConsumerRecord, not only the fields above
    assert [r._replace(topic="") for r in patched] == [r._replace(topic="") for r in plain]
    # librdkafka reads what the patched producer wrote
    theirs = _peers.consume_with_confluent(bootstrap, topic, len(patched))
    assert [(p, o, ts, k, v, [tuple(h) for h in hs]) for k, v, hs, ts, o, p in theirs] == seen(patched)


def test_kafka_python_reads_confluent_records(bootstrap):
    kc_kp.install()
    topic = new_topic(bootstrap, len(CODECS))
    sent = []
    for part, codec in enumerate(CODECS):
        recs = records(b"rdk" + codec.encode())
        _peers.produce_with_confluent(bootstrap, topic, [(k, v, h, ts) for ts, k, v, h in recs],
                                      partition=part, compression=codec)
        sent.append((part, recs))
    assert seen(kp_consume(bootstrap, topic, range(len(CODECS)), 60)) == expected(sent)


def test_kafka_python_transactions(bootstrap):
    kc_kp.install()
    topic = new_topic(bootstrap, 1)
    recs = records(b"txn", 6)
    kp_produce(bootstrap, topic, 0, recs, transactional_id=f"kc-{uuid.uuid4().hex[:6]}",
               compression_type="lz4")
    got = kp_consume(bootstrap, topic, [0], len(recs))
    # the commit marker takes an offset but is never returned
    assert [(r.key, r.value) for r in got] == [(k, v) for _, k, v, _ in recs]
    assert _peers.consume_with_confluent(bootstrap, topic, len(recs), isolation_level="read_committed")


# ------------------------------------------------------------------ aiokafka

async def aio_produce(bootstrap, topic, partition, recs, **conf):
    p = aiokafka.AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, **conf)
    try:
        await p.start()
        if conf.get("transactional_id"):
            async with p.transaction():
                for ts, k, v, h in recs:
                    await p.send(topic, key=k, value=v, headers=h, partition=partition, timestamp_ms=ts)
        else:
            for ts, k, v, h in recs:
                await p.send(topic, key=k, value=v, headers=h, partition=partition, timestamp_ms=ts)
            await p.flush()
    finally:
        await p.stop()


async def aio_consume(bootstrap, topic, partitions, n, timeout=20, **conf):
    c = aiokafka.AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                  auto_offset_reset="earliest", **conf)
    await c.start()
    try:
        tps = [aiokafka.TopicPartition(topic, p) for p in partitions]
        c.assign(tps)
        await c.seek_to_beginning(*tps)
        out = []
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            for recs in (await c.getmany(timeout_ms=200)).values():
                out.extend(recs)
        out.sort(key=lambda r: (r.partition, r.offset))
        return out
    finally:
        await c.stop()


async def aio_round_trip(bootstrap, tag):
    topic = new_topic(bootstrap, len(CODECS))
    sent = []
    for part, codec in enumerate(CODECS):
        recs = records(tag + codec.encode())
        await aio_produce(bootstrap, topic, part, recs, compression_type=None if codec == "none" else codec)
        sent.append((part, recs))
    got = await aio_consume(bootstrap, topic, range(len(CODECS)), sum(len(r) for _, r in sent))
    return topic, sent, got


def test_aiokafka_same_records_with_and_without(bootstrap):
    _, sent, plain = asyncio.run(aio_round_trip(bootstrap, b"plain"))
    kc_aio.install()
    topic, _, patched = asyncio.run(aio_round_trip(bootstrap, b"plain"))
    assert seen(plain) == expected(sent)
    assert seen(patched) == seen(plain)
    strip = [(r.partition, r.offset, r.timestamp, r.timestamp_type, r.key, r.value, r.checksum,
              r.serialized_key_size, r.serialized_value_size, r.headers) for r in plain]
    assert [(r.partition, r.offset, r.timestamp, r.timestamp_type, r.key, r.value, r.checksum,
             r.serialized_key_size, r.serialized_value_size, r.headers) for r in patched] == strip
    theirs = _peers.consume_with_confluent(bootstrap, topic, len(patched))
    assert [(p, o, ts, k, v, [tuple(h) for h in hs]) for k, v, hs, ts, o, p in theirs] == seen(patched)


def test_aiokafka_reads_confluent_records(bootstrap):
    kc_aio.install()
    topic = new_topic(bootstrap, len(CODECS))
    sent = []
    for part, codec in enumerate(CODECS):
        recs = records(b"rdk" + codec.encode())
        _peers.produce_with_confluent(bootstrap, topic, [(k, v, h, ts) for ts, k, v, h in recs],
                                      partition=part, compression=codec)
        sent.append((part, recs))
    assert seen(asyncio.run(aio_consume(bootstrap, topic, range(len(CODECS)), 60))) == expected(sent)


def test_aiokafka_transactions(bootstrap):
    if not _peers.is_mock(bootstrap):
        pytest.skip("Tansu answers aiokafka's InitProducerId with UNKNOWN_SERVER_ERROR (without kafkacodec too)")
    kc_aio.install()
    topic = new_topic(bootstrap, 1)
    recs = records(b"txn", 6)
    asyncio.run(aio_produce(bootstrap, topic, 0, recs, transactional_id=f"kc-{uuid.uuid4().hex[:6]}",
                            compression_type="zstd"))
    got = asyncio.run(aio_consume(bootstrap, topic, [0], len(recs), isolation_level="read_committed"))
    assert [(r.key, r.value, list(r.headers)) for r in got] == [(k, v, h) for _, k, v, h in recs]
    theirs = _peers.consume_with_confluent(bootstrap, topic, len(recs), isolation_level="read_committed")
    assert [(k, v) for k, v, *_ in theirs] == [(k, v) for _, k, v, _ in recs]
