"""aiokafka and kafka-python programs under their own client and under kafkacodec's faces
(kafkacodec.compat.aiokafka, kafkacodec.compat.kafka_python): the same program text, only
the module it takes its classes from differs, one run, one embedded broker (Tansu on
127.0.0.1, kafkacodec.embedded).

Every program runs at its client's defaults (only bootstrap_servers, the serializer, and
auto_offset_reset="earliest" for consumers), with a JSON value serializer / deserializer
as such programs use (--serializer str: text and str.encode / bytes.decode), on topics of
4 partitions:

  produce          send(topic, value) per record (aiokafka: ``await send()``, the future left
                   to flush()), then flush(): records/s from the first send to flush returning
  consume          a group-less subscription read from the beginning until every record
                   is seen: aiokafka ``async for``, kafka-python ``for record in consumer``
  consume-batch    the same with aiokafka's getmany() / kafka-python's poll() per call

The topic each consumer reads is pre-loaded once by kafkacodec's Producer.  Consumers are
timed from after start() (aiokafka) / construction (kafka-python), connection set-up
excluded; producers from the first send, set-up excluded.  Arms alternate, best of rounds.
The values to send are made once, before any arm, and kept out of the cyclic collector's passes
(gc.freeze): those passes are the programs' own cost, walking the bench's data is not.

    python -m bench.faces_bench                      # 100,000 records, 1 round
    python -m bench.faces_bench --records 200000 --rounds 2 --only aiokafka

Targets (issue 32): produce >= 3x for both clients; consume >= 2x aiokafka, >= 5x kafka-python.
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

PARTITIONS = 4
TARGETS = {"aiokafka produce": 3.0, "aiokafka consume": 2.0, "aiokafka consume-batch": 2.0,
           "kafka-python produce": 3.0, "kafka-python consume": 5.0, "kafka-python consume-batch": 5.0}
MODULES = {"aiokafka": ("aiokafka", "kafkacodec.compat.aiokafka"),
           "kafka-python": ("kafka", "kafkacodec.compat.kafka_python")}


def values(n, kind):
    """What a service sends: small JSON objects, or text lines."""
    if kind == "str":
        return [f"event {i} of user-{i % 997}: amount {i * 0.25}" for i in range(n)]
    return [{"id": i, "user": f"user-{i % 997}", "amount": i * 0.25, "tags": ["a", "b"][: i % 3]}
            for i in range(n)]


SERIALIZERS = {
    "json": (lambda value: json.dumps(value).encode(), json.loads),
    "str": (str.encode, bytes.decode),
}
serialize, deserialize = SERIALIZERS["json"]


# -- the programs: identical text for both modules

def aio_produce(mod, bootstrap, topic, items):
    async def run():
        producer = mod.AIOKafkaProducer(bootstrap_servers=bootstrap, value_serializer=serialize)
        await producer.start()
        try:
            await producer.send_and_wait(topic, items[0])
            gc.collect()
            t0 = time.perf_counter()
            for value in items:
                await producer.send(topic, value)
            await producer.flush()
            return time.perf_counter() - t0
        finally:
            await producer.stop()
    return asyncio.run(run())


def aio_consume(mod, bootstrap, topic, n, batch):
    async def run():
        consumer = mod.AIOKafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                                        value_deserializer=deserialize)
        await consumer.start()
        try:
            seen = 0
            t0 = time.perf_counter()
            if batch:
                while seen < n:
                    for records in (await consumer.getmany(timeout_ms=1000)).values():
                        seen += len(records)
            else:
                async for _record in consumer:
                    seen += 1
                    if seen == n:
                        break
            return time.perf_counter() - t0
        finally:
            await consumer.stop()
    return asyncio.run(run())


def kp_produce(mod, bootstrap, topic, items):
    producer = mod.KafkaProducer(bootstrap_servers=bootstrap, value_serializer=serialize)
    try:
        producer.send(topic, items[0]).get(30)
        gc.collect()
        t0 = time.perf_counter()
        for value in items:
            producer.send(topic, value)
        producer.flush()
        return time.perf_counter() - t0
    finally:
        producer.close()


def kp_consume(mod, bootstrap, topic, n, batch):
    consumer = mod.KafkaConsumer(topic, bootstrap_servers=bootstrap, auto_offset_reset="earliest",
                                 value_deserializer=deserialize)
    try:
        seen = 0
        t0 = time.perf_counter()
        if batch:
            while seen < n:
                for records in consumer.poll(timeout_ms=1000).values():
                    seen += len(records)
        else:
            for _record in consumer:
                seen += 1
                if seen == n:
                    break
        return time.perf_counter() - t0
    finally:
        consumer.close()


def preload(bootstrap, topic, items):
    from kafkacodec.client import Producer
    with Producer({"bootstrap.servers": bootstrap, "linger.ms": 5}) as p:
        for value in items:
            p.send(topic, serialize(value))
        p.flush(60)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=1, help="alternating rounds per arm; the best counts")
    ap.add_argument("--only", choices=sorted(MODULES), default=None)
    ap.add_argument("--cases", default="produce,consume,consume-batch")
    ap.add_argument("--serializer", choices=sorted(SERIALIZERS), default="json",
                    help="json: json.dumps(value).encode() / json.loads; str: str.encode / bytes.decode")
    args = ap.parse_args(argv)
    global serialize, deserialize
    serialize, deserialize = SERIALIZERS[args.serializer]

    items = values(args.records, args.serializer)
    # the bench's own data is no client's: out of the collector's passes that both arms' garbage
    # triggers (a full pass would walk the values to send every time, in each arm alike)
    gc.collect()
    gc.freeze()
    try:
        return run_cases(args, items)
    finally:
        gc.unfreeze()


def run_cases(args, items):
    """Every case of both clients against one broker: {name: {original, face, ratio}}."""
    import _peers
    cases = [c for c in args.cases.split(",") if c]
    topic_no = iter(range(1_000_000))
    results = {}
    print(f"{args.records:,} records, {PARTITIONS} partitions, {args.serializer} values, each client at its defaults; "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    with _peers.tansu_broker() as bootstrap:
        loaded = None
        if any(c.startswith("consume") for c in cases):
            loaded = "loaded"
            _peers.create_topic(bootstrap, loaded, PARTITIONS)
            preload(bootstrap, loaded, items)
        for client, (original, face) in MODULES.items():
            if args.only and client != args.only:
                continue
            for case in cases:
                name = f"{client} {case}"
                best = {}
                for _ in range(args.rounds):
                    for label, module in (("original", original), ("face", face)):
                        mod = importlib.import_module(module)
                        gc.collect()
                        if case == "produce":
                            topic = f"p{next(topic_no)}"
                            _peers.create_topic(bootstrap, topic, PARTITIONS)
                            run = aio_produce if client == "aiokafka" else kp_produce
                            seconds = run(mod, bootstrap, topic, items)
                        else:
                            run = aio_consume if client == "aiokafka" else kp_consume
                            seconds = run(mod, bootstrap, loaded, args.records, case == "consume-batch")
                        best[label] = min(best.get(label, float("inf")), seconds)
                ratio = best["original"] / best["face"]
                results[name] = dict(best, ratio=ratio)
                target = TARGETS[name]
                print(f"{name:28s} {client} {best['original']:6.3f} s   face {best['face']:6.3f} s   "
                      f"ratio {ratio:5.2f}x   (target {target:.0f}x{'' if ratio >= target else ', not met'})",
                      flush=True)
    return results


if __name__ == "__main__":
    main()
