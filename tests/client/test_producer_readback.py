"""Records sent by kafkacodec's Producer read back identically by kafka-python and
aiokafka (without kafkacodec's adapters: their own decoders), every codec, with keys,
headers and nulls; keyed records land in the partition the Java client's partitioner
picks, as kafka-python's and aiokafka's ports of it compute it.  confluent-kafka and
kafkacodec's consumer read the same records back in test_producer.py."""
import asyncio
import time
import uuid

import pytest

from kafkacodec.client import Producer

_peers = pytest.importorskip("_peers")
kafka = pytest.importorskip("kafka")
aiokafka = pytest.importorskip("aiokafka")

from kafkacodec.integrations import aiokafka as kc_aio  # noqa: E402
from kafkacodec.integrations import kafka_python as kc_kp  # noqa: E402

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
PARTITIONS = 3


@pytest.fixture(autouse=True)
def _clients_own_decoders():
    kc_kp.uninstall()
    kc_aio.uninstall()
    yield


def _sample(n=200):
    out = []
    for i in range(n):
        key = None if i % 7 == 0 else b"key-%d" % i
        value = None if i % 11 == 5 else (b"value-%d-" % i) * (1 + i % 5)
        headers = [("h1", b"x%d" % i), ("empty", None), ("\u00e9", b"")] if i % 3 == 0 else []
        out.append((key, value, headers, 1_700_000_000_000 + i))
    return out


def _send(bootstrap, codec, records):
    topic = f"rb-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(bootstrap, topic, PARTITIONS)
    with Producer({"bootstrap.servers": bootstrap, "compression.type": codec, "linger.ms": 2,
                   "batch.size": 4096}) as p:
        handles = [p.send(topic, v, key=k, headers=h, timestamp=ts) for k, v, h, ts in records]
        p.flush(30)
        metas = [h.get(0) for h in handles]
    expected = sorted(((m.partition, m.offset, ts, k, v, h) for (k, v, h, ts), m in zip(records, metas)))
    return topic, expected


def _kafka_python(bootstrap, topic, n, partitions=PARTITIONS, timeout=30):
    c = kafka.KafkaConsumer(**_peers.kafka_python_conf(
        bootstrap, enable_auto_commit=False, auto_offset_reset="earliest", group_id=None))
    try:
        tps = [kafka.TopicPartition(topic, p) for p in range(partitions)]
        c.assign(tps)
        c.seek_to_beginning(*tps)
        out = []
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            for recs in c.poll(timeout_ms=200).values():
                out.extend(recs)
        return sorted((r.partition, r.offset, r.timestamp, r.key, r.value, [tuple(h) for h in r.headers])
                      for r in out)
    finally:
        c.close()


def _aiokafka(bootstrap, topic, n, timeout=30):
    async def run():
        c = aiokafka.AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                      auto_offset_reset="earliest")
        await c.start()
        try:
            tps = [aiokafka.TopicPartition(topic, p) for p in range(PARTITIONS)]
            c.assign(tps)
            await c.seek_to_beginning(*tps)
            out = []
            deadline = time.monotonic() + timeout
            while len(out) < n and time.monotonic() < deadline:
                for recs in (await c.getmany(timeout_ms=200)).values():
                    out.extend(recs)
            return sorted((r.partition, r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in out)
        finally:
            await c.stop()
    return asyncio.run(run())


@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_and_aiokafka_read_back_identically(tansu_bootstrap, codec):
    records = _sample()
    topic, expected = _send(tansu_bootstrap, codec, records)
    assert _kafka_python(tansu_bootstrap, topic, len(records)) == expected
    assert _aiokafka(tansu_bootstrap, topic, len(records)) == expected


def test_keys_land_in_the_java_clients_partition(tansu_bootstrap):
    """The Java client's DefaultPartitioner (kafka-python's and aiokafka's ports of it):
    toPositive(murmur2(key)) % partitions, for keys of every tail length."""
    from aiokafka.partitioner import DefaultPartitioner as AioPartitioner
    from kafka.partitioner.default import murmur2 as kp_murmur2
    partitions = 7
    topic = f"rb-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, partitions)
    keys = [b"user-%d" % i for i in range(300)] + [b"", b"x", b"\xff\xfe\x00", b"\x80" * 5, b"k" * 33]
    with Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 2}) as p:
        handles = [p.send(topic, b"v", key=k) for k in keys]
        p.flush(30)
        mine = [h.get(0).partition for h in handles]
    all_partitions = list(range(partitions))
    assert mine == [AioPartitioner()(k, all_partitions, all_partitions) for k in keys]
    assert mine == [(kp_murmur2(k) & 0x7FFFFFFF) % partitions for k in keys]
    # and where the records really are, as kafka-python reads them
    got = _kafka_python(tansu_bootstrap, topic, len(keys), partitions)
    assert sorted((key, part) for part, _, _, key, _, _ in got) == sorted(zip(keys, mine))
