"""Producers head to head: W1-like records (16 B keys, 100 B values, 4 partitions, keys
placed by murmur2), every arm to a fresh topic, arms interleaved within each round.

Settings are named by profile, and every table prints each arm's settings:

  defaults       each client with only bootstrap.servers (and compression.type when the
                 table is lz4): kafkacodec acks=all, idempotent; confluent-kafka acks=all
                 (its default), not idempotent; aiokafka and kafka-python acks=1
  acks1          defaults plus acks=1 on every client
  tuned          the same linger (20 ms) and batch bytes (1,000,000) on every client, acks=1,
                 plus each client's documented high-throughput settings (librdkafka:
                 batch.num.messages and queue.buffering.max.messages raised so bytes, not
                 counts, close batches)

Throughput arms (records/s from the first send to flush() returning; CPU seconds per
million records = process time of this process, librdkafka's threads included; the
broker is another process):

  kafkacodec send          Producer.send() per record, no callback (a handle per record)
  kafkacodec send_arrow    Producer.send_arrow(table) of the same rows (batches built in C; the
                           table is built once, before any arm runs)
  confluent produce        produce() per record as its documentation shows: BufferError ->
                           poll(0.1) and retry, and poll(0) to serve delivery reports (every
                           --confluent-poll-every records; 1 = after every produce())
  raw build+Produce        build_batches per partition (16 KiB), Produce requests one after
                           another over KafkaConnection: no client machinery, a ceiling
  aiokafka send[+kc], aiokafka batch[+kc], kafka-python send[+kc]   (+kc: kafkacodec's adapter)

Latency (--latency-rates): records offered at a fixed rate (paced: record i is sent at
t0 + i/rate), each with a delivery callback; the calling thread waits in poll(timeout) until
the next record is due, so callbacks run as soon as the client hands them over.  Arms:
kafkacodec send (the client's send() at its defaults: idempotent, as Java's), confluent
produce (confluent-kafka's produce() at its defaults: not idempotent), and kafkacodec face
produce (that same confluent-kafka program under kafkacodec's face, changed only by its
import: what a switching user gets, librdkafka's defaults included).  confluent-kafka's
poll() takes whole milliseconds, so under it that program's waits shorter than one are
poll(0) and it spins a core between records; the arms "..., ms waits" run the same program
waiting whole milliseconds instead, so that no arm's program busy-waits.  Reported:
send-to-acknowledgement p50 / p99 / max, and the rate achieved.  Measured after a warm-up
(connections, metadata, producer id) so the first batch does not carry the setup.

    python -m bench.producer_bench                                   # everything, 1 M records
    python -m bench.producer_bench --records 300000 --profiles defaults --compression none
    python -m bench.producer_bench --latency-rates 10000 200000 --latency-seconds 5 --profiles defaults
    python -m bench.producer_bench --json out.json

The machine may be shared: CPU per million is steadier than wall time, and every table
prints the load average (os.getloadavg) before and after it.  --broker-cores N runs Tansu on
the last N cores and every arm on the others, as a broker on a machine of its own: sharing
the cores, the broker's answers wait for a core whenever the client under test is busy.
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import json
import math
import os
import random
import statistics
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

PARTITIONS = 4

# the face arm measures what the face costs over the client's own send(): the client's defaults where
# librdkafka's differ (idempotence, Java's murmur2), and no count limit on the local queue (librdkafka's
# 100,000 messages; the client bounds bytes)
_FACE_AS_CLIENT = {"enable.idempotence": True, "partitioner": "murmur2_random",
                   "queue.buffering.max.messages": 2_000_000}

# acks=1 as the client takes it by default: without idempotence (which needs acks=all)
_ACKS1 = {"acks": 1, "enable.idempotence": False}

# Per client, the settings of each profile (beyond bootstrap.servers and compression).
PROFILES = {
    "defaults": {"kafkacodec": {}, "confluent": {}, "aiokafka": {}, "kafka-python": {}, "face": dict(_FACE_AS_CLIENT)},
    "acks1": {"kafkacodec": {"acks": 1}, "confluent": {"acks": 1},
              "aiokafka": {"acks": 1}, "kafka-python": {"acks": 1}, "face": dict(_FACE_AS_CLIENT, **_ACKS1)},
    "tuned": {
        "kafkacodec": {"acks": 1, "linger.ms": 20, "batch.size": 1_000_000},
        "confluent": {"acks": 1, "linger.ms": 20, "batch.size": 1_000_000,
                      # librdkafka closes a batch at 10,000 messages by default; its docs raise
                      # this (and the queue) for throughput, so batch.size decides here as well
                      "batch.num.messages": 1_000_000, "queue.buffering.max.messages": 2_000_000},
        "aiokafka": {"acks": 1, "linger_ms": 20, "max_batch_size": 1_000_000, "max_request_size": 8 << 20},
        "kafka-python": {"acks": 1, "linger_ms": 20, "batch_size": 1_000_000, "max_request_size": 8 << 20},
        "face": dict(_FACE_AS_CLIENT, **_ACKS1, **{"linger.ms": 20, "batch.size": 1_000_000}),
    },
}
CLIENT_OF = {"kafkacodec send": "kafkacodec", "kafkacodec send_arrow": "kafkacodec", "kafkacodec face produce": "face",
             "kafkacodec send, produce loop": "kafkacodec",
             "confluent produce": "confluent", "raw build+Produce": "raw",
             "aiokafka send": "aiokafka", "aiokafka send+kc": "aiokafka",
             "aiokafka batch": "aiokafka", "aiokafka batch+kc": "aiokafka",
             "kafka-python send": "kafka-python", "kafka-python send+kc": "kafka-python"}


def make_records(n, seed=7):
    rng = random.Random(seed)
    keys = rng.randbytes(16 * n)
    out = []
    for i in range(n):
        value = (b'{"id":%d,"name":"user-%d","score":%d,"tags":["a","b"],"ok":true}' % (i, i % 997, i % 101))
        value = value.ljust(100, b" ")[:100]
        out.append((keys[i * 16:(i + 1) * 16], value))
    return out


def settings_for(client, profile, compression):
    """The settings an arm passes (bootstrap.servers aside), for the printed table."""
    if client == "raw":
        acks = PROFILES[profile]["kafkacodec"].get("acks", "all")
        return {"acks": acks, "batch bytes": 16384, "compression": compression}
    conf = dict(PROFILES[profile][client])
    if compression != "none":
        conf["compression.type" if client in ("kafkacodec", "confluent", "face") else "compression_type"] = compression
    return conf



# --------------------------------------------------------------------------- throughput arms

def arm_send(bootstrap, topic, records, conf):
    from kafkacodec.client import Producer
    p = Producer(dict(conf, **{"bootstrap.servers": bootstrap}))
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


_TABLES = {}


def arrow_table(records):
    """The records as a pyarrow table, built once (outside every arm's time and CPU): an
    application calling send_arrow has its table already."""
    import pyarrow as pa
    key = id(records)
    if key not in _TABLES:
        _TABLES.clear()
        _TABLES[key] = (records, pa.table({"key": pa.array([k for k, _ in records], pa.binary()),
                                           "value": pa.array([v for _, v in records], pa.binary())}))
    return _TABLES[key][1]


def arm_send_arrow(bootstrap, topic, records, conf):
    from kafkacodec.client import Producer
    table = arrow_table(records)
    p = Producer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        p.partitions_for(topic)
        t0 = time.perf_counter()
        result = p.send_arrow(topic, table)
        result.wait(300)
        return time.perf_counter() - t0, None
    finally:
        p.close()


CONFLUENT_POLL_EVERY = 1000


def _documented_loop(produce, poll, topic, records, first_report):
    """confluent-kafka's documented producing loop: produce() each record, on BufferError
    poll(0.1) and retry, poll(0) every CONFLUENT_POLL_EVERY records; the first record asks for
    a report (`first_report`, the keyword naming the callback).  Returns the start time."""
    every = CONFLUENT_POLL_EVERY
    t0 = time.perf_counter()
    produce(topic, records[0][1], records[0][0], **first_report)
    i = 0
    for key, value in records[1:]:
        while True:
            try:
                produce(topic, value, key)
                break
            except BufferError:
                poll(0.1)  # the local queue is full: serve it, then retry (librdkafka's docs)
        i += 1
        if i == every:
            i = 0
            poll(0)
    return t0


def arm_confluent(bootstrap, topic, records, conf, module="confluent_kafka"):
    Producer = importlib.import_module(module).Producer
    p = Producer(dict(conf, **{"bootstrap.servers": bootstrap, "log_level": 3}))
    p.list_topics(topic, timeout=10)
    first = []

    def cb(err, msg):
        if not first:
            first.append(time.perf_counter())

    t0 = _documented_loop(p.produce, p.poll, topic, records, {"on_delivery": cb})
    p.flush(300)
    return time.perf_counter() - t0, (first[0] - t0) if first else None


def arm_send_produce_loop(bootstrap, topic, records, conf):
    """arm_confluent's loop around the client's own send() (which never raises BufferError:
    it waits up to max.block.ms): against "kafkacodec face produce" the two differ only in the
    face's translation, the cost the face adds to a program."""
    from kafkacodec.client import Producer
    p = Producer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        p.partitions_for(topic)
        first = []

        def cb(err, md):
            if not first:
                first.append(time.perf_counter())

        t0 = _documented_loop(p.send, p.poll, topic, records, {"callback": cb})
        p.flush(300)
        return time.perf_counter() - t0, (first[0] - t0) if first else None
    finally:
        p.close()


def arm_raw(bootstrap, topic, records, conf, batches_per_request=None):
    """build_batches per partition, then Produce requests one after another, each
    carrying the next batches of every partition (one each on the mock cluster,
    which counts only the first batch of a partition per request)."""
    from kafkacodec.client.partitioner import murmur2_partition
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    from kafkacodec.records import build_batches
    P = m.ProduceRequest
    acks = -1 if str(conf["acks"]) in ("all", "-1") else int(conf["acks"])
    step = batches_per_request or (1 if _is_mock(bootstrap) else 8)
    t0 = time.perf_counter()
    ts = time.time_ns() // 1_000_000
    per = [[] for _ in range(PARTITIONS)]
    for key, value in records:
        per[murmur2_partition(key, PARTITIONS)].append((ts, key, value))
    built = [build_batches(rows, compression=conf["compression"], batch_size=16384) for rows in per]
    first = None
    longest = max(len(b) for b in built)
    with KafkaConnection.connect(bootstrap.split(",")[0], timeout=30, strict=False) as conn:
        for i in range(0, longest, step):
            parts = [P.PartitionProduceData(index=p, records=b"".join(built[p][i:i + step]))
                     for p in range(PARTITIONS) if i < len(built[p])]
            resp = conn.request("Produce", P(acks=acks, timeout_ms=30000,
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


def _aio_producer(bootstrap, conf):
    import aiokafka
    conf = dict(conf)
    if "acks" in conf and str(conf["acks"]) not in ("all", "-1"):
        conf["acks"] = int(conf["acks"])
    return aiokafka.AIOKafkaProducer(bootstrap_servers=bootstrap, **conf)


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


def arm_aiokafka_send(bootstrap, topic, records, conf):
    import asyncio

    async def run():
        p = _aio_producer(bootstrap, conf)
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


def arm_aiokafka_batch(bootstrap, topic, records, conf):
    """One open BatchBuilder per partition (murmur2 of the key); full ones go with send_batch."""
    import asyncio
    from kafkacodec.client.partitioner import murmur2_partition

    async def run():
        p = _aio_producer(bootstrap, conf)
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


def arm_kafka_python(bootstrap, topic, records, conf):
    import kafka
    from _peers import kafka_python_conf
    conf = dict(conf)
    if "acks" in conf and str(conf["acks"]) not in ("all", "-1"):
        conf["acks"] = int(conf["acks"])
    p = kafka.KafkaProducer(**kafka_python_conf(bootstrap, **conf))
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
        # the same produce() loop under kafkacodec's confluent-kafka face: its cost over "kafkacodec send"
        "kafkacodec face produce": lambda *args: arm_confluent(*args, module="kafkacodec.compat.confluent_kafka"),
        "kafkacodec send, produce loop": arm_send_produce_loop,
        "kafka-python send+kc": _with_adapter("kafka_python", arm_kafka_python, build=True)}
MAIN_ARMS = ["kafkacodec send", "kafkacodec send_arrow", "confluent produce", "raw build+Produce"]


# --------------------------------------------------------------------------- latency arms

def _paced(send, poll, records, rate, topic, whole_ms=False):
    """Offer records at `rate`/s; returns (send times, ack times, errors, seconds).  With
    whole_ms, the program waits whole milliseconds (a wait under one is one), so that it never
    busy-waits under confluent-kafka, whose poll() takes whole milliseconds: poll(0.0004) is
    poll(0) there, and the program waiting for its next record spins a core."""
    n = len(records)
    sent = [0.0] * n
    acked = [0.0] * n
    errors = [0]
    clock = time.perf_counter

    def make_cb(i):
        def cb(err, _):
            acked[i] = clock()
            if err is not None:
                errors[0] += 1
        return cb

    t0 = clock()
    i = 0
    while i < n:
        now = clock()
        due = min(n, int((now - t0) * rate) + 1)
        while i < due:
            key, value = records[i]
            sent[i] = clock()
            send(topic, value, key, make_cb(i))
            i += 1
        if i < n:
            wait = t0 + i / rate - clock()
            if wait > 0 and whole_ms:
                wait = math.ceil(wait * 1000) / 1000
            poll(wait if wait > 0 else 0)
    return sent, acked, errors, t0


def lat_kafkacodec(bootstrap, topic, records, conf, rate):
    from kafkacodec.client import Producer
    p = Producer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        p.partitions_for(topic)
        for key, value in records[:100]:  # warm-up: connection, producer id, first batches
            p.send(topic, value, key)
        p.flush(30)

        def send(topic, value, key, cb):
            p.send(topic, value, key, callback=cb)
        sent, acked, errors, t0 = _paced(send, p.poll, records, rate, topic)
        p.flush(300)
        return sent, acked, errors[0], time.perf_counter() - t0
    finally:
        p.close()


def lat_confluent(bootstrap, topic, records, conf, rate, module="confluent_kafka", whole_ms=False):
    """confluent-kafka's produce loop; with module, the same program under another package
    (kafkacodec's face: what a program switched by its import gets)."""
    Producer = importlib.import_module(module).Producer
    p = Producer(dict(conf, **{"bootstrap.servers": bootstrap, "log_level": 3}))
    p.list_topics(topic, timeout=10)
    for key, value in records[:100]:
        p.produce(topic, value, key)
    p.flush(30)
    produce = p.produce

    def send(topic, value, key, cb):
        while True:
            try:
                produce(topic, value, key, on_delivery=cb)
                return
            except BufferError:
                p.poll(0.1)
    sent, acked, errors, t0 = _paced(send, p.poll, records, rate, topic, whole_ms)
    p.flush(300)
    return sent, acked, errors[0], time.perf_counter() - t0


def lat_face(bootstrap, topic, records, conf, rate, whole_ms=False):
    return lat_confluent(bootstrap, topic, records, conf, rate, "kafkacodec.compat.confluent_kafka", whole_ms)


LATENCY_ARMS = {"kafkacodec send": (lat_kafkacodec, "kafkacodec"), "confluent produce": (lat_confluent, "confluent"),
                "kafkacodec face produce": (lat_face, "confluent"),
                # the same program waiting whole milliseconds: no arm's program busy-waits
                "confluent produce, ms waits": (functools.partial(lat_confluent, whole_ms=True), "confluent"),
                "kafkacodec face produce, ms waits": (functools.partial(lat_face, whole_ms=True), "confluent")}
# the pairs the latency targets compare: (kafkacodec's arm, confluent-kafka's arm running the same program)
LATENCY_PAIRS = [("kafkacodec send", "confluent produce"), ("kafkacodec face produce", "confluent produce"),
                 ("kafkacodec face produce, ms waits", "confluent produce, ms waits")]


def _pct(sorted_xs, q):
    return sorted_xs[min(len(sorted_xs) - 1, int(q * len(sorted_xs)))]


# --------------------------------------------------------------------------- driver

def _spread(xs, fmt):
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs)).strip()}-{fmt.format(max(xs)).strip()})"


def _fmt_settings(conf):
    return ", ".join(f"{k}={v}" for k, v in conf.items()) or "(defaults)"


def _load():
    return "load average %.2f %.2f %.2f" % os.getloadavg()


BROKER_PID = None   # the Tansu process, when this run started it: its CPU is reported per arm


def broker_cpu():
    """CPU seconds the broker process has used (None when unknown, e.g. the mock cluster)."""
    if BROKER_PID is None:
        return None
    with open(f"/proc/{BROKER_PID}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_throughput(bootstrap, records, profile, compression, arms, rounds, out):
    import _peers
    n = len(records)
    load0 = os.getloadavg()
    results = {a: [] for a in arms}
    for r in range(rounds):
        # interleaved: every arm once per round, in a rotated order
        for arm in arms[r % len(arms):] + arms[:r % len(arms)]:
            conf = settings_for(CLIENT_OF[arm], profile, compression)
            topic = f"pb-{uuid.uuid4().hex[:8]}"
            _peers.create_topic(bootstrap, topic, PARTITIONS)
            gc.collect()
            c0, b0 = time.process_time(), broker_cpu()
            wall, first = ARMS[arm](bootstrap, topic, records, conf)
            cpu = time.process_time() - c0
            b1 = broker_cpu()
            broker = None if b0 is None else (b1 - b0)
            results[arm].append({"rate": n / wall, "cpu_per_m": cpu / n * 1e6, "first": first,
                                 # the broker's share of a core while the arm ran: near 1.0 the broker
                                 # is the limit, whatever the client does
                                 "broker_cpu_per_m": None if broker is None else broker / n * 1e6,
                                 "broker_busy": None if broker is None else broker / wall})
    load1 = os.getloadavg()
    print(f"\nthroughput: profile={profile} compression={compression} ({n:,} records, {PARTITIONS} partitions, "
          f"median (min-max) of {rounds} interleaved rounds)\n  load average before {load0[0]:.2f}, "
          f"after {load1[0]:.2f} (1 min), {os.cpu_count()} CPUs", flush=True)
    base = results.get("confluent produce")
    base_rate = statistics.median(x["rate"] for x in base) if base else None
    base_cpu = statistics.median(x["cpu_per_m"] for x in base) if base else None
    summary = {}
    for arm, rows in results.items():
        rate = statistics.median(x["rate"] for x in rows)
        cpu = statistics.median(x["cpu_per_m"] for x in rows)
        firsts = [x["first"] for x in rows if x["first"] is not None]
        s = {"rate": rate, "cpu_per_m": cpu, "first_ms": statistics.median(firsts) * 1000 if firsts else None,
             "settings": settings_for(CLIENT_OF[arm], profile, compression)}
        busy = [x["broker_busy"] for x in rows if x.get("broker_busy") is not None]
        if busy:
            s["broker_busy"] = statistics.median(busy)
            s["broker_cpu_per_m"] = statistics.median(x["broker_cpu_per_m"] for x in rows)
        ratio = ""
        if base_rate:
            s["rate_vs_confluent"] = rate / base_rate
            s["cpu_vs_confluent"] = cpu / base_cpu
            ratio = f"{rate / base_rate:5.2f}x confluent's rate, {cpu / base_cpu:5.2f}x its CPU"
        first = f"{s['first_ms']:7.1f} ms" if firsts else "      -   "
        broker = (f"  broker {s['broker_cpu_per_m']:4.2f} CPU s/M, {s['broker_busy']:4.2f} of a core"
                  if busy else "")
        print(f"  {arm:22s} {_spread([x['rate'] / 1e6 for x in rows], '{:6.3f}')} M rec/s  "
              f"{_spread([x['cpu_per_m'] for x in rows], '{:6.2f}')} CPU s/M  first ack {first}  {ratio}{broker}",
              flush=True)
        summary[arm] = s
    print("  settings:")
    for arm in results:
        print(f"    {arm:22s} {_fmt_settings(summary[arm]['settings'])}")
    out.append({"kind": "throughput", "profile": profile, "compression": compression, "records": n,
                "rounds": rounds, "load_before": load0, "load_after": load1, "summary": summary,
                "runs": results})
    return summary


def run_latency(bootstrap, records, profile, compression, rate, seconds, arms, rounds, out):
    import _peers
    n = max(200, int(rate * seconds))
    recs = (records * (n // len(records) + 1))[:n]
    load0 = os.getloadavg()
    results = {a: [] for a in arms}
    for r in range(rounds):
        for arm in arms[r % len(arms):] + arms[:r % len(arms)]:
            fn, client = LATENCY_ARMS[arm]
            topic = f"pl-{uuid.uuid4().hex[:8]}"
            _peers.create_topic(bootstrap, topic, PARTITIONS)
            gc.collect()
            c0 = time.process_time()
            sent, acked, errors, wall = fn(bootstrap, topic, recs, settings_for(client, profile, compression), rate)
            cpu = time.process_time() - c0
            lat = sorted((a - s) * 1000 for s, a in zip(sent, acked) if a)
            results[arm].append({"p50_ms": _pct(lat, 0.5), "p99_ms": _pct(lat, 0.99), "max_ms": lat[-1],
                                 "acked": len(lat), "errors": errors, "achieved": n / wall,
                                 "cpu_per_m": cpu / n * 1e6})
    load1 = os.getloadavg()
    print(f"\nlatency: profile={profile} compression={compression}, offered {rate:,} records/s for {seconds:g} s "
          f"({n:,} records, {PARTITIONS} partitions), send-to-ack, median of {rounds} interleaved rounds\n"
          f"  load average before {load0[0]:.2f}, after {load1[0]:.2f} (1 min), {os.cpu_count()} CPUs", flush=True)
    summary = {}
    for arm, rows in results.items():
        s = {k: statistics.median(x[k] for x in rows)
             for k in ("p50_ms", "p99_ms", "max_ms", "achieved", "cpu_per_m")}
        s["lost"] = sum(n - x["acked"] for x in rows)
        s["errors"] = sum(x["errors"] for x in rows)
        s["settings"] = settings_for(LATENCY_ARMS[arm][1], profile, compression)
        summary[arm] = s
        print(f"  {arm:34s} p50 {s['p50_ms']:7.2f} ms  p99 {s['p99_ms']:7.2f} ms  max {s['max_ms']:7.2f} ms  "
              f"achieved {s['achieved'] / 1e3:7.1f} k rec/s  {s['cpu_per_m']:5.2f} CPU s/M"
              + (f"  {s['lost']} unacknowledged, {s['errors']} errors" if s["lost"] or s["errors"] else ""),
              flush=True)
    print("  settings:")
    for arm in results:
        print(f"    {arm:34s} {_fmt_settings(summary[arm]['settings'])}")
    out.append({"kind": "latency", "profile": profile, "compression": compression, "rate": rate,
                "seconds": seconds, "records": n, "rounds": rounds, "load_before": load0, "load_after": load1,
                "summary": summary, "runs": results})
    return summary


def check_targets(out):
    """Issue 19's targets, from the tables of this run; printed and returned."""
    rows = []

    def target(what, value, want, higher=True):
        ok = value >= want if higher else value <= want
        rows.append({"target": what, "value": round(value, 3), "want": want, "met": ok})
        print(f"  {what}: {value:.2f} ({'>=' if higher else '<='} {want}{'' if ok else ', NOT MET'})")

    tput = {(t["profile"], t["compression"]): t["summary"] for t in out if t["kind"] == "throughput"}
    lat = [t for t in out if t["kind"] == "latency"]
    if not tput and not lat:
        return rows
    print("\ntargets (issue 19):")
    for (profile, comp), s in tput.items():
        kc, ck = s.get("kafkacodec send"), s.get("confluent produce")
        if kc and ck:
            if profile in ("defaults", "acks1"):
                target(f"{profile} {comp}: send() / confluent records/s", kc["rate"] / ck["rate"], 1.5)
                target(f"{profile} {comp}: send() / confluent CPU per million", kc["cpu_per_m"] / ck["cpu_per_m"],
                       0.5, higher=False)
            elif profile == "tuned":
                target(f"tuned {comp}: send() / confluent records/s", kc["rate"] / ck["rate"], 2.0)
        arrow, base = s.get("kafkacodec send_arrow"), tput.get(("defaults", comp), {}).get("confluent produce")
        if arrow and base:
            target(f"{profile} {comp}: send_arrow / confluent at defaults records/s", arrow["rate"] / base["rate"], 3.0)
            if arrow.get("broker_cpu_per_m"):
                # a physical limit of this machine: the broker's own CPU per record on one core
                ceiling = 1e6 / arrow["broker_cpu_per_m"]
                print(f"    the broker alone, a whole core busy, takes {ceiling / 1e6:.2f} M rec/s = "
                      f"{ceiling / base['rate']:.2f}x confluent's rate; send_arrow kept it "
                      f"{arrow['broker_busy']:.2f} of a core busy")
    for t in lat:
        for arm, peer in LATENCY_PAIRS:
            kc, ck = t["summary"].get(arm), t["summary"].get(peer)
            if t["profile"] == "defaults" and t["rate"] <= 50_000 and kc and ck:
                for q in ("p50", "p99"):
                    target(f"latency {t['compression']} {t['rate']:,}/s: {q} send-to-ack ms, {arm} ({peer} "
                           f"{ck[q + '_ms']:.2f})", kc[q + "_ms"], round(ck[q + "_ms"], 2), higher=False)
    return rows


def main(argv=None):
    global CONFLUENT_POLL_EVERY
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--peer", choices=["tansu", "mock"], default="tansu")
    ap.add_argument("--compression", nargs="+", default=["none", "lz4"])
    ap.add_argument("--profiles", nargs="+", choices=list(PROFILES), default=list(PROFILES))
    ap.add_argument("--arms", nargs="+", default=MAIN_ARMS, help=f"of {list(ARMS)}; 'all' for every arm; "
                    "'none' for latency only")
    ap.add_argument("--confluent-poll-every", type=int, default=CONFLUENT_POLL_EVERY,
                    help="confluent arm: poll(0) after this many produce() calls")
    ap.add_argument("--latency-rates", nargs="*", type=int, default=[10_000, 200_000],
                    help="offered records/s of the latency runs (none: skip them)")
    ap.add_argument("--latency-seconds", type=float, default=5.0)
    ap.add_argument("--latency-profiles", nargs="+", choices=list(PROFILES), default=["defaults"])
    ap.add_argument("--broker-cores", type=int, default=0, metavar="N",
                    help="run Tansu on the last N cores and the arms on the others (default 0: all share "
                         "every core)")
    ap.add_argument("--json", help="write every run, its settings and the summaries here")
    args = ap.parse_args(argv)
    if args.broker_cores and args.peer != "tansu":
        ap.error("--broker-cores needs --peer tansu (the mock cluster runs in this process)")
    CONFLUENT_POLL_EVERY = args.confluent_poll_every
    arms = list(ARMS) if args.arms == ["all"] else [] if args.arms == ["none"] else args.arms
    for a in arms:
        if a not in ARMS:
            ap.error(f"unknown arm {a!r}")
    import _peers
    # imports outside the timed arms (pyarrow, librdkafka and the clients load once)
    for name in ("kafkacodec.client", "pyarrow", "confluent_kafka", "aiokafka", "kafka",
                 "kafkacodec.integrations.aiokafka", "kafkacodec.integrations.kafka_python"):
        try:
            __import__(name)
        except ImportError:
            pass
    records = make_records(args.records)
    if "kafkacodec send_arrow" in arms:
        arrow_table(records)
    out = []
    cm = _tansu(args.broker_cores) if args.peer == "tansu" else _peers.mock_cluster(num_brokers=1)
    with cm as bootstrap:
        for profile in args.profiles if arms else ():
            for compression in args.compression:
                run_throughput(bootstrap, records, profile, compression, arms, args.rounds, out)
        for profile in args.latency_profiles:
            for compression in args.compression:
                for rate in args.latency_rates:
                    run_latency(bootstrap, records, profile, compression, rate, args.latency_seconds,
                                list(LATENCY_ARMS), args.rounds, out)
    targets = check_targets(out)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"peer": args.peer, "targets": targets, "cpus": os.cpu_count(), "broker_cores": args.broker_cores,
                       "confluent_poll_every": CONFLUENT_POLL_EVERY,
                       "tables": out}, f, indent=1)
    return out


@contextlib.contextmanager
def _tansu(broker_cores=0):
    """Tansu started here, so that its process's CPU can be read per arm; with broker_cores,
    on cores of its own (bench.cores)."""
    global BROKER_PID
    import _peers
    from bench.cores import split_cores
    from kafkacodec import embedded

    _peers.tansu_binary()
    broker = embedded.start_tansu(lifetime=7200)
    BROKER_PID = broker.pid
    try:
        left = split_cores(broker.pid, broker_cores)
        if broker_cores:
            print(f"Tansu on {broker_cores} core(s) of its own, the arms on the other {left}", flush=True)
        yield broker.bootstrap
    finally:
        BROKER_PID = None
        broker.stop()


if __name__ == "__main__":
    main()
