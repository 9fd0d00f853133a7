"""kafka-python and aiokafka with and without kafkacodec installed: same run,
same broker (Tansu by default, faster here than librdkafka's mock cluster; both
started on 127.0.0.1 by tests/_peers.py).

    python -m bench.clients_bench                     # 1,000,000 W1 records consumed, 200,000 produced
    python -m bench.clients_bench --records 200000 --produce-records 50000 --rounds 2
    python -m bench.clients_bench --produce-only --produce-records 100000 --rounds 3
    python -m bench.clients_bench --in-process --produce-records 100000 --rounds 5

The topic is pre-loaded once with W1 batches (16 KiB, uncompressed) built by
kafkacodec and sent with its protocol client; every consumer reads it from
offset 0 with large fetch sizes, identical for both arms.  Producers send W1
records to fresh topics and flush (the aiokafka adapter leaves aiokafka's
compiled builder in place: its producing arm checks that installing costs
nothing).  ``--in-process`` times the producers' record loops without a
broker.  Prints records/s and the ratios (targets: issue 6's for consuming,
kafka-python >= 3x, aiokafka >= 1.2x; issue 14's for producing, never slower
than without the adapter: >= 1.0x, within the noise of a shared machine).

Programs switched to kafkacodec's own client by their import line (kafkacodec.compat.aiokafka,
kafkacodec.compat.kafka_python) are measured against the originals by bench/faces_bench.py.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

FETCH = dict(fetch_max_bytes=64 << 20, max_partition_fetch_bytes=32 << 20, fetch_max_wait_ms=100)
TARGETS = {"kafka-python consume": 3.0, "aiokafka consume": 1.2,
           "kafka-python produce": 1.0, "aiokafka produce": 1.0}


def preload(bootstrap, topic, w):
    """Send the workload's records as kafkacodec-built 16 KiB batches, several per request."""
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    from kafkacodec.records import build_batches
    batches = build_batches([(ts, k, v) for ts, k, v, _ in w.records], batch_size=w.batch_size)
    P = m.ProduceRequest
    with KafkaConnection.connect(bootstrap, timeout=30, strict=False) as conn:
        for i in range(0, len(batches), 256):
            resp = conn.request("Produce", P(acks=1, timeout_ms=30000, topic_data=[
                P.TopicProduceData(name=topic, partition_data=[
                    P.PartitionProduceData(index=0, records=b"".join(batches[i:i + 256]))])]))
            err = resp.responses[0].partition_responses[0].error_code
            if err:
                raise RuntimeError(f"preload produce error {err}")


def kp_consume(bootstrap, topic, n):
    import kafka
    from _peers import kafka_python_conf
    c = kafka.KafkaConsumer(**kafka_python_conf(bootstrap, enable_auto_commit=False, group_id=None,
                                                auto_offset_reset="earliest", **FETCH))
    try:
        tp = kafka.TopicPartition(topic, 0)
        c.assign([tp])
        c.seek_to_beginning(tp)
        got = 0
        t0 = time.perf_counter()
        while got < n:
            for recs in c.poll(timeout_ms=500, max_records=100_000).values():
                got += len(recs)
        return got / (time.perf_counter() - t0)
    finally:
        c.close()


def aio_consume(bootstrap, topic, n):
    import aiokafka

    async def run():
        c = aiokafka.AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                      auto_offset_reset="earliest", **FETCH)
        await c.start()
        try:
            tp = aiokafka.TopicPartition(topic, 0)
            c.assign([tp])
            await c.seek_to_beginning(tp)
            got = 0
            t0 = time.perf_counter()
            while got < n:
                for recs in (await c.getmany(timeout_ms=500, max_records=100_000)).values():
                    got += len(recs)
            return got / (time.perf_counter() - t0)
        finally:
            await c.stop()
    return asyncio.run(run())


def kp_produce(bootstrap, topic, records):
    import kafka
    from _peers import kafka_python_conf
    p = kafka.KafkaProducer(**kafka_python_conf(bootstrap, linger_ms=5, batch_size=16384,
                                                max_request_size=8 << 20))
    try:
        p.send(topic, b"warm-up", partition=0).get(10)
        gc.collect()
        t0 = time.perf_counter()
        for ts, k, v, _ in records:
            p.send(topic, key=k, value=v, partition=0, timestamp_ms=ts)
        p.flush()
        return len(records) / (time.perf_counter() - t0)
    finally:
        p.close(5)


def aio_produce(bootstrap, topic, records):
    import aiokafka

    async def run():
        p = aiokafka.AIOKafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, max_batch_size=16384,
                                      max_request_size=8 << 20)
        await p.start()
        try:
            await (await p.send(topic, b"warm-up", partition=0))
            gc.collect()
            t0 = time.perf_counter()
            for ts, k, v, _ in records:
                await p.send(topic, key=k, value=v, partition=0, timestamp_ms=ts)
            await p.flush()
            return len(records) / (time.perf_counter() - t0)
        finally:
            await p.stop()
    return asyncio.run(run())


def kp_send_loop(records):
    """kafka-python's producer work per record without a broker: the size
    estimate send() asks for, the accumulator append, and closing (building)
    every batch.  Records/s of CPU time."""
    import kafka
    import kafka.producer.kafka as kp_producer
    from kafka.producer.record_accumulator import RecordAccumulator
    acc = RecordAccumulator(batch_size=16384, linger_ms=5)
    tp = kafka.TopicPartition("t", 0)
    estimate = kp_producer.DefaultRecordBatchBuilder.estimate_size_in_bytes
    gc.collect()
    t0 = time.process_time()
    for ts, k, v, _ in records:
        estimate(k, v, [])
        acc.append(tp, ts, k, v, [])
    for batch in acc._batches[tp]:
        batch.records.close()
    return len(records) / (time.process_time() - t0)


def aio_send_loop(records):
    """aiokafka's batch work per record without a broker: BatchBuilder appends
    (as the accumulator makes them) and building every batch."""
    import aiokafka.producer.message_accumulator as acc
    gc.collect()
    t0 = time.process_time()
    b = acc.BatchBuilder(16384, 0)
    built = []
    for ts, k, v, _ in records:
        if b.append(timestamp=ts, key=k, value=v) is None:
            built.append(b._build())
            b = acc.BatchBuilder(16384, 0)
            b.append(timestamp=ts, key=k, value=v)
    built.append(b._build())
    return len(records) / (time.process_time() - t0)


def in_process(records, rounds):
    """Both send loops, arms alternating, best of rounds.  Each run starts
    after a gc.collect(): the previous arm's cyclic garbage (the clients'
    futures and batches) would otherwise be collected inside the next one."""
    from kafkacodec.integrations import aiokafka as kc_aio
    from kafkacodec.integrations import kafka_python as kc_kp
    for name, adapter, run, kw in (("kafka-python send loop", kc_kp, kp_send_loop, {}),
                                   ("aiokafka batch loop", kc_aio, aio_send_loop, {})):
        best = {False: 0.0, True: 0.0}
        for _ in range(rounds):
            for installed in (False, True):
                if installed:
                    adapter.install(**kw)
                try:
                    best[installed] = max(best[installed], run(records))
                finally:
                    adapter.uninstall()
        print(f"{name:22s} without {best[False]:>10,.0f} rec/s   with kafkacodec {best[True]:>10,.0f} rec/s"
              f"   ratio {best[True] / best[False]:4.2f}x   (in process, no broker)", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=1_000_000, help="W1 records consumed per run")
    ap.add_argument("--produce-records", type=int, default=200_000, help="W1 records produced per run")
    ap.add_argument("--rounds", type=int, default=1, help="alternating rounds per arm; the best counts")
    ap.add_argument("--broker", choices=["mock", "tansu"], default="tansu")
    ap.add_argument("--only", choices=["kafka-python", "aiokafka"], default=None)
    ap.add_argument("--produce-only", action="store_true", help="skip the consume cases and the pre-load")
    ap.add_argument("--in-process", action="store_true",
                    help="only the producers' record loops without a broker (codec gains without network noise)")
    args = ap.parse_args(argv)

    import _peers
    from bench.workloads import load
    from kafkacodec.integrations import aiokafka as kc_aio
    from kafkacodec.integrations import kafka_python as kc_kp

    n = args.records
    w = load("W1", (args.produce_records if args.produce_only or args.in_process
                    else max(n, args.produce_records)) / 1_000_000)
    to_send = w.records[:args.produce_records]
    if args.in_process:
        in_process(to_send, args.rounds)
        return {}
    results = {}
    broker = _peers.tansu_broker() if args.broker == "tansu" else _peers.mock_cluster(topics={"w1": 1})
    with broker as bootstrap:
        if args.broker == "tansu":
            _peers.create_topic(bootstrap, "w1", 1)
        cases = []
        if not args.produce_only:
            t0 = time.perf_counter()
            preload(bootstrap, "w1", w)
            print(f"pre-loaded {w.n_records:,} W1 records in {time.perf_counter() - t0:.1f} s ({args.broker})")
            cases += [
                ("kafka-python consume", kc_kp, lambda: kp_consume(bootstrap, "w1", n)),
                ("aiokafka consume", kc_aio, lambda: aio_consume(bootstrap, "w1", n)),
            ]
        if args.produce_records:
            topic_no = iter(range(1_000_000))
            cases += [
                ("kafka-python produce", kc_kp,
                 lambda: kp_produce(bootstrap, f"p{next(topic_no)}", to_send)),
                ("aiokafka produce", kc_aio,
                 lambda: aio_produce(bootstrap, f"p{next(topic_no)}", to_send)),
            ]
        for name, adapter, run in cases:
            if args.only and not name.startswith(args.only):
                continue
            best = {False: 0.0, True: 0.0}
            for _ in range(args.rounds):
                for installed in (False, True):
                    if installed:
                        adapter.install()
                    try:
                        best[installed] = max(best[installed], run())
                    finally:
                        adapter.uninstall()
            results[name] = best
            ratio = best[True] / best[False]
            print(f"{name:22s} without {best[False]:>10,.0f} rec/s   with kafkacodec {best[True]:>10,.0f} rec/s"
                  f"   ratio {ratio:4.2f}x   (target {TARGETS[name]:.1f}x{'' if ratio >= TARGETS[name] else ', not met'})",
                  flush=True)
    return results


if __name__ == "__main__":
    main()
