"""Producing W1-like records (16 B keys, 100 B values): kafkacodec's Producer.send()
and send_arrow, confluent-kafka's produce(), and the raw path (v2 builder + one
Produce request after another), arms interleaved in one run, each to a fresh topic.

    python -m bench.producer_bench --records 1000000 --peer tansu --compression none lz4 --acks 1 all

Reports records/s, CPU seconds per million records (process time of this process:
the arm's own threads; librdkafka's threads are in-process too) and the time to the
first acknowledgement.  acks=all runs kafkacodec and confluent-kafka with idempotence.
"""
from __future__ import annotations

import argparse
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


def arm_raw(bootstrap, topic, records, compression, acks):
    """16 KiB batches built with the v2 builder, one Produce request per partition batch, in turn."""
    from kafkacodec.client.partitioner import murmur2_partition
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    from kafkacodec.records import RecordBatchBuilder
    P = m.ProduceRequest
    t0 = time.perf_counter()
    per = [[] for _ in range(PARTITIONS)]
    for key, value in records:
        per[murmur2_partition(key, PARTITIONS)].append((None, key, value))
    first = None
    with KafkaConnection.connect(bootstrap.split(",")[0], timeout=30, strict=False) as conn:
        for p, rows in enumerate(per):
            start = 0
            while start < len(rows):
                b = RecordBatchBuilder(2, compression, batch_size=16384)
                start += b.append_many(rows[start:start + 2000])
                resp = conn.request("Produce", P(acks=-1 if acks == "all" else int(acks), timeout_ms=30000,
                                                 topic_data=[P.TopicProduceData(name=topic, partition_data=[
                                                     P.PartitionProduceData(index=p, records=b.build())])]))
                if first is None:
                    first = time.perf_counter() - t0
                err = resp.responses[0].partition_responses[0].error_code
                if err:
                    raise RuntimeError(f"raw produce error {err}")
    return time.perf_counter() - t0, first


ARMS = {"kafkacodec send": arm_send, "kafkacodec send_arrow": arm_send_arrow,
        "confluent produce": arm_confluent, "raw build+Produce": arm_raw}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--peer", choices=["tansu", "mock"], default="tansu")
    ap.add_argument("--compression", nargs="+", default=["none", "lz4"])
    ap.add_argument("--acks", nargs="+", default=["1", "all"])
    ap.add_argument("--arms", nargs="+", default=list(ARMS))
    args = ap.parse_args(argv)
    import _peers
    records = make_records(args.records)
    cm = _peers.tansu_broker() if args.peer == "tansu" else _peers.mock_cluster(num_brokers=1)
    with cm as bootstrap:
        for compression in args.compression:
            for acks in args.acks:
                results = {a: [] for a in args.arms}
                for _ in range(args.rounds):
                    for arm in args.arms:  # interleaved: every arm once per round
                        topic = f"pb-{uuid.uuid4().hex[:8]}"
                        _peers.create_topic(bootstrap, topic, PARTITIONS)
                        c0 = time.process_time()
                        wall, first = ARMS[arm](bootstrap, topic, records, compression, acks)
                        cpu = time.process_time() - c0
                        results[arm].append((args.records / wall, cpu / args.records * 1e6, first))
                print(f"\n{args.peer} compression={compression} acks={acks} ({args.records} records, "
                      f"median of {args.rounds})")
                base = statistics.median(r[0] for r in results.get("confluent produce", [(0, 0, 0)])) or None
                for arm, rows in results.items():
                    rate = statistics.median(r[0] for r in rows)
                    cpu = statistics.median(r[1] for r in rows)
                    firsts = [r[2] for r in rows if r[2] is not None]
                    first = f"{statistics.median(firsts) * 1000:7.1f} ms" if firsts else "      -   "
                    ratio = f"{rate / base:5.2f}x confluent" if base else ""
                    print(f"  {arm:24s} {rate / 1e6:6.3f} M rec/s  {cpu:6.2f} CPU s/M  first ack {first}  {ratio}")


if __name__ == "__main__":
    main()
