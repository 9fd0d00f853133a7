"""Producing W1-like records (16 B keys, 100 B values, 4 partitions, keys placed by
murmur2) with every client, arms interleaved in one run, each to a fresh topic:

  kafkacodec send          Producer.send() per record (linger.ms=5, batch.size=16384)
  kafkacodec send_arrow    Producer.send_arrow(table) (batches built from Arrow columns in C)
  confluent produce        confluent-kafka produce() per record
  raw build+Produce        the raw path of issue 14: build_batches per partition (16 KiB),
                           then one Produce request after another over
                           kafkacodec.protocol.client.KafkaConnection (no client machinery)
  aiokafka send[+kc]       await AIOKafkaProducer.send() per record
  aiokafka batch[+kc]      aiokafka's batch API (create_batch / send_batch per partition)
  kafka-python send[+kc]   KafkaProducer.send() per record
  (+kc: with kafkacodec.integrations' adapter installed: kafka-python's batches built by
   kafkacodec; aiokafka keeps its own compiled builder, so +kc shows the adapter costs nothing)

    python -m bench.producer_bench --records 1000000 --peer tansu --compression none lz4 --acks 1 all
    python -m bench.producer_bench --arms "kafkacodec send" "confluent produce" --rounds 5

Reports medians (and min-max) over rounds of records/s and CPU seconds per million
records (process time of this process: the arm's own threads, librdkafka's too; the
broker is another process), and the time to the first acknowledgement.  acks=all runs
kafkacodec, confluent-kafka and kafka-python with idempotence, aiokafka too except on
Tansu (which refuses the InitProducerId v0 aiokafka sends).  The machine may be shared: CPU per million is steadier than wall time.
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

PARTITIONS = 4


def make_records(n, seed=7):
    rng = random.Random(seed)
    keys = rng.randbytes(16 * n)
    out = []
    for i in range(n):
        value = (b'{"id":%d,"name":"user-%d","score":%d,"tags":["a","b"],"ok":true}' % (i, i % 997, i % 101))
        value = value.ljust(100, b" ")[:100]
        out.append((keys[i * 16:(i + 1) * 16], value))
    return out


def arm_send(bootstrap, topic, records, compression, acks):
    from kafkacodec.client import Producer
    p = Producer({"bootstrap.servers": bootstrap, "acks": acks, "compression.type": compression,
                  "linger.ms": 5, "batch.size": 16384})
    try:
        p.partitions_for(topic)
        send = p.send
        first = None
        t0 = time.perf_counter()
        h0 = send(topic, records[0][1], records[0][0])
        for key, value in records[1:]:
            send(topic, value, key)
            if first is None and h0.done():
                first = time.perf_counter() - t0
        p.flush(300)
        return time.perf_counter() - t0, first
    finally:
        p.close()


def arm_send_arrow(bootstrap, topic, records, compression, acks):
    import pyarrow as pa
    from kafkacodec.client import Producer
    table = pa.table({"key": pa.array([k for k, _ in records], pa.binary()),
                      "value": pa.array([v for _, v in records], pa.binary())})
    p = Producer({"bootstrap.servers": bootstrap, "acks": acks, "compression.type": compression})
    try:
        p.partitions_for(topic)
        t0 = time.perf_counter()
        result = p.send_arrow(topic, table)
        result.wait(300)
        return time.perf_counter() - t0, None
    finally:
        p.close()


def arm_confluent(bootstrap, topic, records, compression, acks):
    from confluent_kafka import Producer
    conf = {"bootstrap.servers": bootstrap, "acks": "all" if acks == "all" else acks,
            "compression.type": compression, "linger.ms": 5, "batch.size": 16384,
            "enable.idempotence": acks == "all", "partitioner": "murmur2_random",
            "queue.buffering.max.messages": 2_000_000, "log_level": 3}
    p = Producer(conf)
    p.list_topics(topic, timeout=10)
    first = []

    def cb(err, msg):
        if not first:
            first.append(time.perf_counter())

    produce = p.produce
    t0 = time.perf_counter()
    produce(topic, records[0][1], records[0][0], on_delivery=cb)
    for key, value in records[1:]:
        try:
            produce(topic, value, key)
        except BufferError:
            p.poll(0.01)
            produce(topic, value, key)
    p.flush(300)
    return time.perf_counter() - t0, (first[0] - t0) if first else None


def arm_raw(bootstrap, topic, records, compression, acks, batches_per_request=None):
    """build_batches per partition, then Produce requests one after another, each
    carrying the next batches of every partition (one each on the mock cluster,
    which counts only the first batch of a partition per request)."""
    from kafkacodec.client.partitioner import murmur2_partition
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    from kafkacodec.records import build_batches
    P = m.ProduceRequest
    step = batches_per_request or (1 if _is_mock(bootstrap) else 8)
    t0 = time.perf_counter()
    ts = time.time_ns() // 1_000_000
    per = [[] for _ in range(PARTITIONS)]
    for key, value in records:
        per[murmur2_partition(key, PARTITIONS)].append((ts, key, value))
    built = [build_batches(rows, compression=compression, batch_size=16384) for rows in per]
    first = None
    longest = max(len(b) for b in built)
    with KafkaConnection.connect(bootstrap.split(",")[0], timeout=30, strict=False) as conn:
        for i in range(0, longest, step):
            parts = [P.PartitionProduceData(index=p, records=b"".join(built[p][i:i + step]))
                     for p in range(PARTITIONS) if i < len(built[p])]
            resp = conn.request("Produce", P(acks=-1 if acks == "all" else int(acks), timeout_ms=30000,
                                             topic_data=[P.TopicProduceData(name=topic, partition_data=parts)]))
            if first is None:
                first = time.perf_counter() - t0
            for pr in resp.responses[0].partition_responses:
                if pr.error_code:
                    raise RuntimeError(f"raw produce to {topic}[{pr.index}]: error {pr.error_code}")
    return time.perf_counter() - t0, first


def _is_mock(bootstrap):
    import _peers
    return _peers.is_mock(bootstrap)


def _aio_producer(bootstrap, compression, acks):
    import aiokafka
    return aiokafka.AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, max_batch_size=16384,
                                     compression_type=None if compression == "none" else compression,
                                     acks="all" if acks == "all" else int(acks),
                                     # aiokafka asks InitProducerId v0, which Tansu refuses (error -1)
                                     enable_idempotence=acks == "all" and _is_mock(bootstrap),
                                     max_request_size=8 << 20)


def _with_adapter(module, fn, **kw):
    """Run fn with a kafkacodec.integrations adapter installed (then uninstalled)."""
    def arm(*args):
        adapter = __import__(f"kafkacodec.integrations.{module}", fromlist=["install"])
        adapter.install(**kw)
        try:
            return fn(*args)
        finally:
            adapter.uninstall()
    return arm


def arm_aiokafka_send(bootstrap, topic, records, compression, acks):
    import asyncio

    async def run():
        p = _aio_producer(bootstrap, compression, acks)
        await p.start()
        try:
            await p.partitions_for(topic)
            t0 = time.perf_counter()
            send = p.send
            first_fut = await send(topic, records[0][1], key=records[0][0])
            first = None
            for key, value in records[1:]:
                await send(topic, value, key=key)
                if first is None and first_fut.done():
                    first = time.perf_counter() - t0
            await p.flush()
            return time.perf_counter() - t0, first
        finally:
            await p.stop()
    return asyncio.run(run())


def arm_aiokafka_batch(bootstrap, topic, records, compression, acks):
    """One open BatchBuilder per partition (murmur2 of the key); full ones go with send_batch."""
    import asyncio
    from kafkacodec.client.partitioner import murmur2_partition

    async def run():
        p = _aio_producer(bootstrap, compression, acks)
        await p.start()
        try:
            await p.partitions_for(topic)
            t0 = time.perf_counter()
            futures = []
            first = []
            open_ = [p.create_batch() for _ in range(PARTITIONS)]
            for key, value in records:
                part = murmur2_partition(key, PARTITIONS)
                if open_[part].append(key=key, value=value, timestamp=None) is None:
                    full, open_[part] = open_[part], p.create_batch()
                    futures.append(await p.send_batch(full, topic, partition=part))
                    if len(futures) == 1:
                        futures[0].add_done_callback(lambda _: first.append(time.perf_counter() - t0))
                    open_[part].append(key=key, value=value, timestamp=None)
            for part, b in enumerate(open_):
                if b.record_count():
                    futures.append(await p.send_batch(b, topic, partition=part))
            await asyncio.gather(*futures)
            return time.perf_counter() - t0, first[0] if first else None
        finally:
            await p.stop()
    return asyncio.run(run())


def arm_kafka_python(bootstrap, topic, records, compression, acks):
    import kafka
    from _peers import kafka_python_conf
    p = kafka.KafkaProducer(**kafka_python_conf(
        bootstrap, linger_ms=5, batch_size=16384, max_request_size=8 << 20,
        compression_type=None if compression == "none" else compression,
        acks="all" if acks == "all" else int(acks), enable_idempotence=acks == "all"))
    try:
        p.partitions_for(topic)
        t0 = time.perf_counter()
        f0 = p.send(topic, records[0][1], key=records[0][0])
        first = None
        send = p.send
        for key, value in records[1:]:
            send(topic, value, key=key)
            if first is None and f0.is_done:
                first = time.perf_counter() - t0
        p.flush()
        return time.perf_counter() - t0, first
    finally:
        p.close(5)


ARMS = {"kafkacodec send": arm_send, "kafkacodec send_arrow": arm_send_arrow,
        "confluent produce": arm_confluent, "raw build+Produce": arm_raw,
        "aiokafka send": arm_aiokafka_send,
        "aiokafka send+kc": _with_adapter("aiokafka", arm_aiokafka_send),
        "aiokafka batch": arm_aiokafka_batch,
        "aiokafka batch+kc": _with_adapter("aiokafka", arm_aiokafka_batch),
        "kafka-python send": arm_kafka_python,
        "kafka-python send+kc": _with_adapter("kafka_python", arm_kafka_python, build=True)}
MAIN_ARMS = ["kafkacodec send", "kafkacodec send_arrow", "confluent produce", "raw build+Produce"]


def _spread(xs, fmt):
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs)).strip()}-{fmt.format(max(xs)).strip()})"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--peer", choices=["tansu", "mock"], default="tansu")
    ap.add_argument("--compression", nargs="+", default=["none", "lz4"])
    ap.add_argument("--acks", nargs="+", default=["1", "all"])
    ap.add_argument("--arms", nargs="+", default=MAIN_ARMS, help=f"of {list(ARMS)}; 'all' for every arm")
    args = ap.parse_args(argv)
    arms = list(ARMS) if args.arms == ["all"] else args.arms
    import _peers
    # imports outside the timed arms (pyarrow, librdkafka and the clients load once)
    for name in ("kafkacodec.client", "pyarrow", "confluent_kafka", "aiokafka", "kafka",
                 "kafkacodec.integrations.aiokafka", "kafkacodec.integrations.kafka_python"):
        try:
            __import__(name)
        except ImportError:
            pass
    records = make_records(args.records)
    cm = _peers.tansu_broker() if args.peer == "tansu" else _peers.mock_cluster(num_brokers=1)
    with cm as bootstrap:
        for compression in args.compression:
            for acks in args.acks:
                results = {a: [] for a in arms}
                for r in range(args.rounds):
                    # interleaved, every arm once per round, in a rotated order
                    for arm in arms[r % len(arms):] + arms[:r % len(arms)]:
                        topic = f"pb-{uuid.uuid4().hex[:8]}"
                        _peers.create_topic(bootstrap, topic, PARTITIONS)
                        gc.collect()
                        c0 = time.process_time()
                        wall, first = ARMS[arm](bootstrap, topic, records, compression, acks)
                        cpu = time.process_time() - c0
                        results[arm].append((args.records / wall, cpu / args.records * 1e6, first))
                print(f"\n{args.peer} compression={compression} acks={acks} ({args.records} records, "
                      f"median (min-max) of {args.rounds} interleaved rounds)", flush=True)
                base = statistics.median(r[0] for r in results.get("confluent produce", [(0, 0, 0)])) or None
                base_cpu = statistics.median(r[1] for r in results.get("confluent produce", [(0, 0, 0)])) or None
                for arm, rows in results.items():
                    rate = _spread([r[0] / 1e6 for r in rows], "{:6.3f}")
                    cpu = _spread([r[1] for r in rows], "{:6.2f}")
                    firsts = [r[2] for r in rows if r[2] is not None]
                    first = f"{statistics.median(firsts) * 1000:7.1f} ms" if firsts else "      -   "
                    ratio = ""
                    if base:
                        ratio = (f"{statistics.median(r[0] for r in rows) / base:5.2f}x confluent rate, "
                                 f"{statistics.median(r[1] for r in rows) / base_cpu:5.2f}x its CPU")
                    print(f"  {arm:22s} {rate} M rec/s  {cpu} CPU s/M  first ack {first}  {ratio}",
                          flush=True)


if __name__ == "__main__":
    main()
