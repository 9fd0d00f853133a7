"""Consumers head to head on one broker: kafkacodec's Consumer (poll -> records,
poll_arrow -> pyarrow), confluent-kafka, aiokafka and kafka-python (each with
and without kafkacodec's adapter), kc-face (the confluent-kafka arm's program under kafkacodec's
face, kafkacodec.compat.confluent_kafka), kc-consume-loop (that program's loop around the
client's poll(), asked for as many records per call as its consume(): the face's cost is
kc-face over kc-consume-loop), confluent-poll
and kc-face-poll (confluent-kafka's documented loop, poll() for one message at a time, under
confluent-kafka and under the face) and a raw Fetch loop that does not decode.

    python -m bench.consumer_bench                          # Tansu, 1,000,000 records, 1 round
    python -m bench.consumer_bench --rounds 3 --codec none lz4
    python -m bench.consumer_bench --broker mock --records 200000
    python -m bench.consumer_bench --arms kc-arrow kc-records confluent raw-fetch
    python -m bench.consumer_bench --profiles defaults --json out.json
    python -m bench.consumer_bench --broker mock --records 200000 --arms raw-share-fetch kc-share confluent-share
    python -m bench.consumer_bench --broker mock --mock-brokers 3 --arms kc-kip848 confluent-kip848

Profiles (each table prints every arm's settings):
  defaults  each client with only bootstrap.servers, group.id and offset reset (earliest);
            kafkacodec's poll() then returns at most max.poll.records (500) records per call,
            while confluent-kafka's consume() is still asked for 10,000 per call (a call
            argument, not a setting: the larger batch only helps it)
  tuned     64 MiB fetches, 8 MiB per partition, 10,000 records per poll, and
            confluent-kafka's pre-fetch queue raised so it never pauses fetching
The other arms assign the partitions (no group join is timed) and start at the earliest offsets;
each run has a group.id of its own (printed without its suffix).

Share groups (KIP-932, mock cluster only: Tansu serves none): kc-share (ShareConsumer.poll) and
confluent-share (confluent_kafka.ShareConsumer.poll) subscribe as the only member of a group of
their own, in the default implicit acknowledgement mode, the mock's share groups starting at the
earliest offset; their time includes the join.  defaults: only group.id; tuned: the fetch
settings librdkafka documents for its share consumer (max.poll.records, which also bounds what a
ShareFetch acquires, fetch.max.bytes, fetch.wait.max.ms) alike on both.  raw-share-fetch is the
broker's own pace: a bare ShareFetch loop per partition leader (one request of the member in
flight per leader, as the clients have), each request accepting what the one before acquired,
asking for as many records as kc-share's ShareFetch does, records never decoded.  On the mock
the broker's CPU is the limit: the "broker CPU" column is the mock process's CPU seconds per
million records over each arm's run and, in brackets, that CPU over the arm's wall time (near
100%: the mock's one thread was busy throughout).  Its ShareFetch cost grows with the records
asked for and with the partition's log (measured: 2.5 ms per 100-record answer, 8 ms per 250,
19 ms per 500, 0.4 s per 10,000 on a 100,000-record log), so no client reads faster than the
bare loop at the same request size.

KIP-848 (mock cluster only): kc-kip848 (Consumer) and confluent-kip848 (confluent_kafka.Consumer),
each with group.protocol=consumer, subscribe as the only member of a group of their own; their
clock starts at subscribe(), so "first record" is the join plus the first fetch (target: 0.5 s).
Broker: --mock-brokers N spreads the partitions' leaders over N mock brokers.

Every arm's program visits each record it gets once, a Python loop over the batch as any
program handling records has; confluent-kafka's programs ask each message for its error there,
as that API requires (it hands errors out as messages).  kc-arrow's program gets columns and the
raw loops count offsets: they have no records to visit.

The data (W1 records: 16-byte keys, ~100-byte values, 16 KiB batches, spread
round-robin over 4 partitions) is produced once per broker and codec with
kafkacodec's batch builder and plain Produce requests.  Every arm run is a
fresh Python process (no adapter, thread or allocator state carried between
arms) reading every partition from its earliest offset; the arms of a round
run one after another and rounds repeat the whole list, so the machine's
drift spreads over all arms.  Per run: records/s from the consumer's creation
to the last record, process CPU seconds (all threads) per million records and
the time to the first record.  Printed: medians and the min-max spread.

librdkafka's mock cluster keeps only ~5 MiB per partition: there, the arms
read what is left (counted from the earliest offsets) and the table says how
many records that was.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

PARTITIONS = 4
FETCH_MAX_BYTES = 64 << 20
PARTITION_MAX_BYTES = 8 << 20
BATCH = 10_000          # records per poll/consume call, for every client that takes a number
ARMS = ["raw-fetch", "kc-arrow", "kc-records", "confluent", "kc-face", "kc-consume-loop", "confluent-poll",
        "kc-face-poll",
        "aiokafka", "aiokafka+kc", "kafka-python", "kafka-python+kc", "kc-kip848", "confluent-kip848",
        "raw-share-fetch", "kc-share", "confluent-share"]
SHARE_ARMS = {"raw-share-fetch", "kc-share", "confluent-share"}
MOCK_ONLY = SHARE_ARMS | {"kc-kip848", "confluent-kip848"}  # Tansu serves neither share groups nor KIP-848
FIRST_RECORD_LIMIT = {"kc-kip848": 0.5}  # seconds from subscribe() to the first record (issue 30)
TARGETS = {  # profile: [(arm, against, minimum ratio of records/s)] -- issues 13 and 19
    "tuned": [("kc-arrow", "raw-fetch", 0.9), ("kc-arrow", "confluent", 1.4), ("kc-records", "confluent", 1.2)],
    "defaults": [("kc-records", "confluent", 2.0), ("kc-share", "confluent-share", 2.0)],
}
TARGETS["tuned"].append(("kc-share", "confluent-share", 2.0))  # issue 30
# ratios printed without a target
COMPARED = [("kc-kip848", "confluent-kip848"), ("kc-face", "kc-consume-loop"), ("kc-face", "kc-records"),
            ("kc-face-poll", "confluent-poll")]
# printed beside the targets: how much of the broker's own pace (a bare ShareFetch loop) each share arm reaches
LIMITS = {"kc-share": "raw-share-fetch", "confluent-share": "raw-share-fetch"}
PROFILES = {
    "defaults": {
        "kc": {"group.id": "bench", "auto.offset.reset": "earliest"},
        "confluent": {"group.id": "bench", "auto.offset.reset": "earliest"},
        "aiokafka": {"group_id": "bench", "auto_offset_reset": "earliest"},
        "kafka-python": {"group_id": "bench", "auto_offset_reset": "earliest"},
        "kc-share": {"group.id": "bench"},
        "confluent-share": {"group.id": "bench"},
        "raw-share-fetch": {"group.id": "bench", "max_records": 500, "max_wait_ms": 500},  # kc-share's defaults
    },
    "tuned": {
        "kc": {"enable.auto.commit": False, "auto.offset.reset": "earliest", "fetch.max.bytes": FETCH_MAX_BYTES,
               "max.partition.fetch.bytes": PARTITION_MAX_BYTES, "max.poll.records": BATCH},
        "confluent": {"group.id": "bench", "enable.auto.commit": False, "enable.partition.eof": False,
                      "fetch.max.bytes": FETCH_MAX_BYTES, "max.partition.fetch.bytes": PARTITION_MAX_BYTES,
                      "receive.message.max.bytes": FETCH_MAX_BYTES + (1 << 20),
                      # defaults pause fetching for 1 s once 100k messages are queued
                      "queued.min.messages": 10_000_000, "queued.max.messages.kbytes": 2_000_000},
        "aiokafka": {"enable_auto_commit": False, "auto_offset_reset": "earliest", "fetch_max_bytes": FETCH_MAX_BYTES,
                     "max_partition_fetch_bytes": PARTITION_MAX_BYTES, "fetch_max_wait_ms": 500},
        "kafka-python": {"enable_auto_commit": False, "group_id": None, "auto_offset_reset": "earliest",
                         "fetch_max_bytes": FETCH_MAX_BYTES, "max_partition_fetch_bytes": PARTITION_MAX_BYTES,
                         "fetch_max_wait_ms": 500},
        "kc-share": {"group.id": "bench", "max.poll.records": BATCH, "fetch.max.bytes": FETCH_MAX_BYTES,
                     "fetch.max.wait.ms": 500},
        "confluent-share": {"group.id": "bench", "max.poll.records": BATCH, "fetch.max.bytes": FETCH_MAX_BYTES,
                            "fetch.wait.max.ms": 500},
        "raw-share-fetch": {"group.id": "bench", "max_records": BATCH, "max_wait_ms": 500},
    },
}
# kc-face: confluent-kafka's program under kafkacodec's face (kafkacodec.compat.confluent_kafka), with
# its settings but the client's where librdkafka's differ, so that its cost over kc-consume-loop is the
# face's: isolation.level (librdkafka reads committed records by default, the client all), and the
# pre-fetch queue (tuned raises librdkafka's so that it never pauses fetching; the face would pass
# that on as the client's fetch-ahead bounds, while the client arms keep the client's defaults)
_FACE_AS_CLIENT = {"isolation.level": "read_uncommitted"}
_LIBRDKAFKA_QUEUE = ("queued.min.messages", "queued.max.messages.kbytes")
for _profile in PROFILES.values():
    _profile["face"] = {k: v for k, v in dict(_profile["confluent"], **_FACE_AS_CLIENT).items()
                        if k not in _LIBRDKAFKA_QUEUE}
CLIENT_OF = {"kc-arrow": "kc", "kc-records": "kc", "kc-consume-loop": "kc", "confluent": "confluent",
             "kc-face": "face", "confluent-poll": "confluent", "kc-face-poll": "face", "aiokafka": "aiokafka",
             "aiokafka+kc": "aiokafka", "kafka-python": "kafka-python", "kafka-python+kc": "kafka-python",
             "raw-fetch": None, "kc-share": "kc-share", "confluent-share": "confluent-share",
             "raw-share-fetch": "raw-share-fetch", "kc-kip848": "kc", "confluent-kip848": "confluent"}
# the KIP-848 arms subscribe: a group of their own, the consumer protocol, from the earliest offsets
GROUP_ARMS = {"kc-kip848": {"group.id": "bench", "group.protocol": "consumer", "auto.offset.reset": "earliest"},
              "confluent-kip848": {"group.id": "bench", "group.protocol": "consumer", "auto.offset.reset": "earliest"}}


def settings_for(arm, profile):
    client = CLIENT_OF[arm]
    if client is None:
        return {"fetch max_bytes": FETCH_MAX_BYTES, "partition_max_bytes": PARTITION_MAX_BYTES}
    return dict(PROFILES[profile][client], **GROUP_ARMS.get(arm, {}))


# --------------------------------------------------------------------------- data

def produce(bootstrap, topic, records, compression, one_batch_per_request):
    """Records round-robin over the partitions, 16 KiB batches built by kafkacodec.
    The mock cluster counts only the first batch of a partition in one request."""
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    from kafkacodec.records import build_batches
    P = m.ProduceRequest
    per_part = [build_batches(records[p::PARTITIONS], compression=compression, batch_size=16384)
                for p in range(PARTITIONS)]
    step = 1 if one_batch_per_request else 32
    longest = max(len(b) for b in per_part)
    leaders, addresses = partition_leaders(bootstrap, topic)
    conns = {node: KafkaConnection.connect(addresses[node], timeout=30, strict=False) for node in set(leaders)}
    try:
        for i in range(0, longest, step):
            for node, conn in conns.items():
                parts = [P.PartitionProduceData(index=p, records=b"".join(per_part[p][i:i + step]))
                         for p in range(PARTITIONS) if i < len(per_part[p]) and leaders[p] == node]
                if not parts:
                    continue
                resp = conn.request("Produce", P(acks=1, timeout_ms=30000, topic_data=[
                    P.TopicProduceData(name=topic, partition_data=parts)]))
                for pr in resp.responses[0].partition_responses:
                    if pr.error_code:
                        raise RuntimeError(f"produce to {topic}[{pr.index}]: error {pr.error_code}")
    finally:
        for conn in conns.values():
            conn.close()
    return [(len(records) + PARTITIONS - 1 - p) // PARTITIONS for p in range(PARTITIONS)]


def partition_leaders(bootstrap, topic):
    """([leader node id by partition], {node id: "host:port"}) from one Metadata answer."""
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    with KafkaConnection.connect(bootstrap, timeout=30, strict=False) as conn:
        md = conn.request("Metadata", m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name=topic)]))
    t = next(t for t in md.topics if t.name == topic)
    by_index = {p.partition_index: p.leader_id for p in t.partitions}
    return [by_index[p] for p in range(PARTITIONS)], {b.node_id: f"{b.host}:{b.port}" for b in md.brokers}


def earliest_offsets(bootstrap, topic):
    from kafkacodec.client import Admin
    from kafkacodec.client.admin import EARLIEST, TopicPartition
    with Admin({"bootstrap.servers": bootstrap}) as admin:
        found = admin.list_offsets({TopicPartition(topic, p): EARLIEST for p in range(PARTITIONS)})
    return [found[TopicPartition(topic, p)].offset for p in range(PARTITIONS)]


# --------------------------------------------------------------------------- arms (child process)

class Clock:
    """Wall and process CPU time from the consumer's creation; the first record's arrival."""

    def __init__(self):
        self.t0 = time.perf_counter()
        self.c0 = time.process_time()
        self.first = None

    def got(self, n):
        if self.first is None and n:
            self.first = time.perf_counter()

    def result(self, n):
        return {"records": n, "seconds": time.perf_counter() - self.t0,
                "cpu": time.process_time() - self.c0, "first": (self.first or time.perf_counter()) - self.t0}


def arm_kc(bootstrap, topic, n, starts, conf, arrow):
    from kafkacodec.client import Consumer, TopicPartition
    if arrow:  # an application using Arrow has imported it already; other arms import before the clock too
        import pyarrow.compute  # noqa: F401
        import kafkacodec.arrow  # noqa: F401
    clock = Clock()
    c = Consumer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        c.assign([TopicPartition(topic, p) for p in range(PARTITIONS)])
        return poll_all(c.poll_arrow if arrow else c.poll, n, clock, visit=not arrow)
    finally:
        c.close()


def arm_kc_consume_loop(bootstrap, topic, n, starts, conf):
    """consume_all's loop around the client's poll(): as many records asked per call as that
    loop asks consume() for (the client's max.poll.records aside), each record visited.  Against
    kc-face only the face differs (its Message per record and the program's error() on each)."""
    from kafkacodec.client import Consumer, TopicPartition
    clock = Clock()
    c = Consumer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        c.assign([TopicPartition(topic, p) for p in range(PARTITIONS)])
        left = [n]

        def poll(timeout):
            # no more than are left, as consume_all asks
            records = c.poll(timeout, max_records=min(BATCH, left[0]))
            left[0] -= len(records)
            return records
        return poll_all(poll, n, clock)
    finally:
        c.close()


def arm_confluent(bootstrap, topic, n, starts, conf, module="confluent_kafka", one_at_a_time=False):
    import importlib
    ck = importlib.import_module(module)
    clock = Clock()
    c = ck.Consumer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        c.list_topics(topic, timeout=10)  # avoids a 0.5 s offset-query retry after assign()
        c.assign([ck.TopicPartition(topic, p, starts[p]) for p in range(PARTITIONS)])
        return (poll_each(c, n, clock) if one_at_a_time else consume_all(c, n, clock))
    finally:
        c.close()


def poll_each(c, n, clock):
    """confluent-kafka's documented loop: poll() for one message at a time, each checked for an
    error, until n records came."""
    got = 0
    while got < n:
        msg = c.poll(5.0)
        if msg is None:
            continue
        if msg.error():
            raise RuntimeError(msg.error())
        if not got:
            clock.got(1)
        got += 1
    return clock.result(got)


def consume_all(c, n, clock):
    """confluent-kafka: consume() until n records came, each checked for an error."""
    got = 0
    while got < n:
        # no more than are left: consume() waits its whole timeout for num_messages
        msgs = c.consume(num_messages=min(BATCH, n - got), timeout=5.0)
        for msg in msgs:
            if msg.error():
                raise RuntimeError(msg.error())
        clock.got(len(msgs))
        got += len(msgs)
    return clock.result(got)


def poll_all(poll, n, clock, visit=True):
    """poll(timeout) -> a sized batch, until n records came; with visit, the program visits each
    record of the batch once (a poll returning columns has no records to visit)."""
    got = 0
    while got < n:
        batch = poll(5.0)
        if visit:
            for _record in batch:
                pass
        k = len(batch)
        clock.got(k)
        got += k
    return clock.result(got)


def arm_kc_share(bootstrap, topic, n, starts, conf):
    from kafkacodec.client.share import ShareConsumer
    clock = Clock()
    c = ShareConsumer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        c.subscribe([topic])
        return poll_all(c.poll, n, clock)
    finally:
        c.close()


def arm_confluent_share(bootstrap, topic, n, starts, conf):
    import confluent_kafka as ck
    clock = Clock()
    c = ck.ShareConsumer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        c.subscribe([topic])

        def poll(timeout):
            msgs = c.poll(timeout)
            for msg in msgs:
                if msg.error():
                    raise RuntimeError(msg.error())
            return msgs
        return poll_all(poll, n, clock, visit=False)  # poll() visited each message for its error
    finally:
        c.close()


def arm_kc_kip848(bootstrap, topic, n, starts, conf):
    from kafkacodec.client import Consumer
    c = Consumer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        clock = Clock()  # from subscribe(): the join is what this arm times
        c.subscribe([topic])
        return poll_all(c.poll, n, clock)
    finally:
        c.close()


def arm_confluent_kip848(bootstrap, topic, n, starts, conf):
    import confluent_kafka as ck
    c = ck.Consumer(dict(conf, **{"bootstrap.servers": bootstrap}))
    try:
        clock = Clock()
        c.subscribe([topic])
        return consume_all(c, n, clock)
    finally:
        c.close()


def arm_raw_share_fetch(bootstrap, topic, n, starts, conf):
    """The broker's own pace of share consumption: a member joins with ShareGroupHeartbeat, then
    one thread per partition leader sends ShareFetch after ShareFetch in its share session, each
    accepting (piggy-backed) every record the previous one acquired; the records are counted
    from the acquired ranges and never decoded.  As the share consumers, one request of the
    member in flight per leader."""
    import base64
    import threading
    import uuid
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    R = m.ShareFetchRequest
    leaders, addresses = partition_leaders(bootstrap, topic)
    group = conf["group.id"]
    member = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    clock = Clock()
    with KafkaConnection.connect(bootstrap, timeout=30, strict=False) as conn:
        topic_id = next(t.topic_id for t in conn.request("Metadata", m.MetadataRequest(
            topics=[m.MetadataRequest.MetadataRequestTopic(name=topic)])).topics)
        found = conn.request("FindCoordinator", m.FindCoordinatorRequest(key=group, key_type=0))
        if found.error_code:
            raise RuntimeError(f"FindCoordinator: error {found.error_code}")
    coordinator = KafkaConnection.connect(addresses[found.node_id], timeout=30, strict=False)
    epoch = 0
    while True:  # until the coordinator assigns the partitions
        hb = coordinator.request("ShareGroupHeartbeat", m.ShareGroupHeartbeatRequest(
            group_id=group, member_id=member, member_epoch=epoch, rack_id=None, subscribed_topic_names=[topic]))
        if hb.error_code:
            raise RuntimeError(f"ShareGroupHeartbeat: error {hb.error_code}")
        epoch = hb.member_epoch
        if hb.assignment is not None and hb.assignment.topic_partitions:
            break
        time.sleep(0.005)
    lock = threading.Lock()
    state = {"got": 0, "error": None}

    def session(node):
        parts = [p for p in range(PARTITIONS) if leaders[p] == node]
        acquired = {}
        with KafkaConnection.connect(addresses[node], timeout=30, strict=False) as leader:
            epoch = 0
            while state["error"] is None and state["got"] < n:
                req = R(group_id=group, member_id=member, share_session_epoch=epoch, max_wait_ms=conf["max_wait_ms"],
                        min_bytes=1, max_bytes=FETCH_MAX_BYTES, max_records=conf["max_records"],
                        batch_size=conf["max_records"], topics=[R.FetchTopic(topic_id=topic_id, partitions=[
                            R.FetchPartition(partition_index=p, acknowledgement_batches=[
                                R.AcknowledgementBatch(first_offset=a, last_offset=b, acknowledge_types=[1])
                                for a, b in acquired.get(p, ())]) for p in parts])],
                        forgotten_topics_data=[])
                resp = leader.request("ShareFetch", req)
                if resp.error_code:
                    state["error"] = f"ShareFetch to broker {node}: error {resp.error_code}"
                    return
                epoch += 1
                acquired = {}
                k = 0
                for t in resp.responses:
                    for p in t.partitions:
                        if p.error_code or p.acknowledge_error_code:
                            state["error"] = f"ShareFetch partition {p.partition_index}: error {p.error_code}, " \
                                             f"acknowledgement error {p.acknowledge_error_code}"
                            return
                        acquired[p.partition_index] = [(a.first_offset, a.last_offset) for a in p.acquired_records]
                        k += sum(b - a + 1 for a, b in acquired[p.partition_index])
                with lock:
                    state["got"] += k
                    clock.got(k)

    threads = [threading.Thread(target=session, args=(node,), daemon=True) for node in sorted(set(leaders))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    result = clock.result(state["got"])
    try:
        coordinator.request("ShareGroupHeartbeat", m.ShareGroupHeartbeatRequest(
            group_id=group, member_id=member, member_epoch=-1, rack_id=None, subscribed_topic_names=None))
    finally:
        coordinator.close()
    if state["error"]:
        raise RuntimeError(state["error"])
    return result


def arm_aiokafka(bootstrap, topic, n, starts, conf):
    import asyncio
    import aiokafka

    async def run():
        clock = Clock()
        c = aiokafka.AIOKafkaConsumer(bootstrap_servers=bootstrap, **conf)
        await c.start()
        try:
            tps = [aiokafka.TopicPartition(topic, p) for p in range(PARTITIONS)]
            c.assign(tps)
            for tp in tps:
                c.seek(tp, starts[tp.partition])
            got = 0
            while got < n:
                for recs in (await c.getmany(timeout_ms=5000, max_records=BATCH)).values():
                    for _record in recs:
                        pass
                    clock.got(len(recs))
                    got += len(recs)
            return clock.result(got)
        finally:
            await c.stop()
    return asyncio.run(run())


def arm_kafka_python(bootstrap, topic, n, starts, conf):
    import kafka
    from _peers import kafka_python_conf
    clock = Clock()
    c = kafka.KafkaConsumer(**kafka_python_conf(bootstrap, **conf))
    try:
        tps = [kafka.TopicPartition(topic, p) for p in range(PARTITIONS)]
        c.assign(tps)
        for tp in tps:
            c.seek(tp, starts[tp.partition])
        got = 0
        while got < n:
            for recs in c.poll(timeout_ms=5000, max_records=BATCH).values():
                for _record in recs:
                    pass
                clock.got(len(recs))
                got += len(recs)
        return clock.result(got)
    finally:
        c.close()


def arm_raw_fetch(bootstrap, topic, n, starts, conf):
    """Sequential Fetch requests for every partition not yet done; the response is parsed
    (kafkacodec's protocol decoder) but its record bytes are not: only the last batch's
    header is read, for the next offset.  The codec's ceiling on this broker."""
    import struct
    from kafkacodec.protocol import messages as m
    from kafkacodec.protocol.client import KafkaConnection
    F = m.FetchRequest
    clock = Clock()
    offsets = list(starts)
    got = 0
    with KafkaConnection.connect(bootstrap, timeout=30, strict=False) as conn:
        version = min(conn.version_for("Fetch"), 12)
        while got < n:
            req = F(replica_id=-1, max_wait_ms=500, min_bytes=1, max_bytes=FETCH_MAX_BYTES, isolation_level=0,
                    session_id=0, session_epoch=-1, rack_id="",
                    topics=[F.FetchTopic(topic=topic, partitions=[
                        F.FetchPartition(partition=p, current_leader_epoch=-1, fetch_offset=offsets[p],
                                         log_start_offset=-1, partition_max_bytes=PARTITION_MAX_BYTES)
                        for p in range(PARTITIONS)])])
            resp = conn.request("Fetch", req, version=version)
            for t in resp.responses:
                for p in t.partitions:
                    if p.error_code:
                        raise RuntimeError(f"fetch {topic}[{p.partition_index}]: error {p.error_code}")
                    data = p.records
                    if not data:
                        continue
                    nxt = _next_offset(data, struct)
                    if nxt > offsets[p.partition_index]:
                        got += nxt - offsets[p.partition_index]
                        clock.got(got)
                        offsets[p.partition_index] = nxt
    return clock.result(got)


def _next_offset(data, struct):
    """Offset after the last complete v2 batch in `data`, walking batch headers only."""
    pos, end, nxt = 0, len(data), None
    mv = memoryview(data)
    while pos + 12 <= end:
        base, length = struct.unpack_from(">qi", mv, pos)
        if pos + 12 + length > end:
            break
        last_delta = struct.unpack_from(">i", mv, pos + 23)[0]
        nxt = base + last_delta + 1
        pos += 12 + length
    return nxt if nxt is not None else -1


def run_arm(name, bootstrap, topic, n, starts, profile):
    adapter = None
    if name.endswith("+kc"):
        if name.startswith("aiokafka"):
            from kafkacodec.integrations import aiokafka as adapter
        else:
            from kafkacodec.integrations import kafka_python as adapter
        adapter.install()
    base = name.removesuffix("+kc")
    conf = settings_for(name, profile)
    for k in ("group.id", "group_id"):
        if conf.get(k):  # a fresh group each run: no run starts from another's committed offsets
            conf[k] = f"{conf[k]}-{os.getpid()}-{time.time_ns()}"
    if base == "kc-arrow":
        return arm_kc(bootstrap, topic, n, starts, conf, arrow=True)
    if base == "kc-records":
        return arm_kc(bootstrap, topic, n, starts, conf, arrow=False)
    if base == "kc-consume-loop":
        return arm_kc_consume_loop(bootstrap, topic, n, starts, conf)
    if base == "kc-face":
        return arm_confluent(bootstrap, topic, n, starts, conf, module="kafkacodec.compat.confluent_kafka")
    if base == "confluent-poll":
        return arm_confluent(bootstrap, topic, n, starts, conf, one_at_a_time=True)
    if base == "kc-face-poll":
        return arm_confluent(bootstrap, topic, n, starts, conf, module="kafkacodec.compat.confluent_kafka",
                             one_at_a_time=True)
    return {"confluent": arm_confluent, "aiokafka": arm_aiokafka, "kafka-python": arm_kafka_python,
            "raw-fetch": arm_raw_fetch, "kc-share": arm_kc_share, "confluent-share": arm_confluent_share,
            "raw-share-fetch": arm_raw_share_fetch, "kc-kip848": arm_kc_kip848,
            "confluent-kip848": arm_confluent_kip848}[base](bootstrap, topic, n, starts, conf)


# --------------------------------------------------------------------------- driver

def child(name, profile, bootstrap, topic, n, starts, timeout, broker_pid=None):
    """One arm in a fresh process; with broker_pid, the CPU time the broker process spent meanwhile."""
    cmd = [sys.executable, "-m", "bench.consumer_bench", "--child", name, "--profile", profile,
           "--bootstrap", bootstrap, "--topic", topic, "--records", str(n), "--starts", ",".join(map(str, starts))]
    before = process_cpu(broker_pid)
    try:
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if out.returncode:
        return {"error": (out.stderr.strip().splitlines() or ["exit %d" % out.returncode])[-1]}
    res = json.loads(out.stdout.strip().splitlines()[-1])
    if before is not None:
        # the whole child's span (start-up and close included): an upper bound of the arm's share
        res["broker_cpu"] = process_cpu(broker_pid) - before
    return res


def process_cpu(pid):
    """User + system CPU seconds of process `pid` so far (Linux /proc), or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summarize(runs):
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return None
    rates = [r["records"] / r["seconds"] for r in ok]
    cpus = [r["cpu"] / r["records"] * 1e6 for r in ok]
    firsts = [r["first"] * 1000 for r in ok]
    out = {"rate": statistics.median(rates), "rate_min": min(rates), "rate_max": max(rates),
           "cpu": statistics.median(cpus), "cpu_min": min(cpus), "cpu_max": max(cpus),
           "first_ms": statistics.median(firsts), "first_ms_max": max(firsts),
           "runs": len(ok), "errors": len(runs) - len(ok)}
    broker = [r["broker_cpu"] / r["records"] * 1e6 for r in ok if "broker_cpu" in r]
    if broker:
        out["broker_cpu"] = statistics.median(broker)
        # the broker's CPU over the arm's wall time: near 1, the broker's one thread was the limit
        out["broker_busy"] = statistics.median(r["broker_cpu"] / r["seconds"] for r in ok if "broker_cpu" in r)
    return out


def report(broker, profile, codec, n, results, loads):
    print(f"\n{broker}, profile={profile}, {codec}, {n:,} records ({PARTITIONS} partitions), medians [min-max]")
    print(f"load average (1 min) around its runs {min(loads):.2f}-{max(loads):.2f}, {os.cpu_count()} CPUs")
    print(f"{'arm':18s} {'records/s':>26s} {'CPU s per million':>22s} {'first record':>13s}"
          f"   broker CPU s per million (busy)")
    for name, runs in results.items():
        s = summarize(runs)
        if s is None:
            print(f"{name:18s} failed: {runs[0].get('error') if runs else 'not run'}")
            continue
        print(f"{name:18s} {s['rate'] / 1e6:8.3f} M [{s['rate_min'] / 1e6:.3f}-{s['rate_max'] / 1e6:.3f}]"
              f"   {s['cpu']:6.2f} [{s['cpu_min']:.2f}-{s['cpu_max']:.2f}]   {s['first_ms']:8.1f} ms"
              + (f"   {s['broker_cpu']:6.2f} ({s['broker_busy']:.0%})" if "broker_cpu" in s else "")
              + (f"   ({s['errors']} failed)" if s["errors"] else ""))
    summ = {k: summarize(v) for k, v in results.items()}
    for arm, other, want in TARGETS.get(profile, ()):
        if summ.get(arm) and summ.get(other):
            ratio = summ[arm]["rate"] / summ[other]["rate"]
            summ[arm][f"rate_vs_{other}"] = ratio
            print(f"  {arm} / {other}: {ratio:.2f}x (target >= {want}x{'' if ratio >= want else ', NOT MET'})")
            if ratio < want and summ[arm].get("broker_cpu"):
                # the broker's one thread, busy all the time at the CPU this arm costs it per record
                ceiling = 1e6 / summ[arm]["broker_cpu"]
                print(f"    it needs {want * summ[other]['rate'] / 1e3:.1f} k rec/s; the broker's CPU per record "
                      f"allows at most {ceiling / 1e3:.1f} k rec/s ({summ[arm]['broker_cpu']:.1f} s per million "
                      f"at 100% busy)")
    for arm, other in COMPARED:
        if summ.get(arm) and summ.get(other):
            ratio = summ[arm]["rate"] / summ[other]["rate"]
            summ[arm][f"rate_vs_{other}"] = ratio
            print(f"  {arm} / {other}: {ratio:.2f}x")
    for arm, limit in LIMITS.items():
        if summ.get(arm) and summ.get(limit):
            ratio = summ[arm]["rate"] / summ[limit]["rate"]
            summ[arm][f"rate_vs_{limit}"] = ratio
            print(f"  {arm} / {limit}: {ratio:.2f}x (the broker's pace: a bare ShareFetch loop)")
    for arm, limit in FIRST_RECORD_LIMIT.items():
        if summ.get(arm):
            worst = summ[arm]["first_ms_max"] / 1000
            print(f"  {arm} first record after subscribe: {summ[arm]['first_ms'] / 1000:.3f} s median, "
                  f"{worst:.3f} s worst (target <= {limit} s{'' if worst <= limit else ', NOT MET'})")
    for arm in ("kc-arrow", "kc-records"):
        if summ.get(arm) and summ.get("confluent"):
            ratio = summ[arm]["cpu"] / summ["confluent"]["cpu"]
            summ[arm]["cpu_vs_confluent"] = ratio
            print(f"  {arm} CPU / confluent CPU: {ratio:.2f}")
    print("  settings (besides bootstrap.servers):")
    for name in results:
        conf = settings_for(name, profile)
        if summ.get(name):
            summ[name]["settings"] = conf
        extra = {"kc-arrow": "; poll_arrow()", "kc-records": "; poll()",
                 "kc-consume-loop": f"; poll(max_records={BATCH})",
                 "confluent": f"; consume(num_messages={BATCH})", "kc-face": f"; consume(num_messages={BATCH})",
                 "confluent-poll": "; poll() per message", "kc-face-poll": "; poll() per message"}.get(name, "")
        print(f"    {name:16s} {', '.join(f'{k}={v}' for k, v in conf.items())}{extra}")
    return summ


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--broker", choices=["tansu", "mock"], default="tansu")
    ap.add_argument("--mock-brokers", type=int, default=1,
                    help="brokers of the mock cluster (the partitions' leaders spread over them)")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--codec", nargs="+", choices=["none", "lz4"], default=["none", "lz4"])
    ap.add_argument("--profiles", nargs="+", choices=list(PROFILES), default=list(PROFILES))
    ap.add_argument("--arms", nargs="+", choices=ARMS, default=ARMS)
    ap.add_argument("--json", help="write every run, the settings and the summaries here")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--profile", help=argparse.SUPPRESS)
    ap.add_argument("--bootstrap", help=argparse.SUPPRESS)
    ap.add_argument("--topic", help=argparse.SUPPRESS)
    ap.add_argument("--starts", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.broker != "mock" and MOCK_ONLY & set(args.arms) and not args.child:
        skipped = sorted(MOCK_ONLY & set(args.arms))
        args.arms = [a for a in args.arms if a not in MOCK_ONLY]
        print(f"{', '.join(skipped)}: share groups and KIP-848 need --broker mock (Tansu serves neither); not run",
              flush=True)

    if args.child:
        starts = [int(s) for s in args.starts.split(",")]
        print(json.dumps(run_arm(args.child, args.bootstrap, args.topic, args.records, starts, args.profile)))
        return None

    import _peers
    from bench.workloads import load
    records = [(ts, k, v) for ts, k, v, _ in load("W1", args.records / 1_000_000).records]
    topics = {codec: f"w1-{codec}" for codec in args.codec}
    mock = args.broker == "mock"
    broker = (_peers.mock_cluster(args.mock_brokers, topics={t: PARTITIONS for t in topics.values()}) if mock
              else _peers.tansu_broker())
    out = []
    with broker as bootstrap:
        broker_pid = _peers.mock_pid(bootstrap) if mock else None
        if mock and SHARE_ARMS & set(args.arms):
            # the share arms read what the others read: from the earliest offset, not the latest
            _peers.mock_fault(bootstrap, "share", "auto_offset_reset", 1)
        plan = {}
        for codec, topic in topics.items():
            if not mock:
                _peers.create_topic(bootstrap, topic, PARTITIONS)
            t0 = time.perf_counter()
            produced = produce(bootstrap, topic, records, codec, one_batch_per_request=mock)
            starts = earliest_offsets(bootstrap, topic) if mock else [0] * PARTITIONS
            n = sum(c - s for c, s in zip(produced, starts))
            plan[codec] = (topic, n, starts)
            print(f"produced {len(records):,} records to {topic} in {time.perf_counter() - t0:.1f} s"
                  + (f"; {n:,} left from offsets {starts}" if mock else ""), flush=True)
        cells = [(p, c) for p in args.profiles for c in plan]
        results = {cell: {a: [] for a in args.arms} for cell in cells}
        loads = {cell: [] for cell in cells}  # 1-minute load before and after each round's runs
        for r in range(args.rounds):
            for profile, codec in cells:
                topic, n, starts = plan[codec]
                loads[(profile, codec)].append(os.getloadavg()[0])
                # a different order each round, so no arm always follows the same one
                arms = args.arms[r % len(args.arms):] + args.arms[:r % len(args.arms)]
                for arm in arms:
                    res = child(arm, profile, bootstrap, topic, n, starts, timeout=max(120.0, n / 5_000),
                                broker_pid=broker_pid)
                    results[(profile, codec)][arm].append(res)
                    msg = res.get("error") or (f"{res['records'] / res['seconds'] / 1e6:.2f} M rec/s, "
                                               f"{res['cpu'] / res['records'] * 1e6:.2f} CPU s/M, "
                                               f"first {res['first'] * 1000:.0f} ms")
                    print(f"round {r + 1} {profile:8s} {codec:4s} {arm:16s} {msg}", flush=True)
                loads[(profile, codec)].append(os.getloadavg()[0])
        for profile, codec in cells:
            topic, n, starts = plan[codec]
            summ = report(args.broker, profile, codec, n, results[(profile, codec)], loads[(profile, codec)])
            out.append({"profile": profile, "codec": codec, "records": n, "loads": loads[(profile, codec)],
                        "summary": summ,
                        "runs": results[(profile, codec)]})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"broker": args.broker, "records": args.records, "cpus": os.cpu_count(), "tables": out},
                      f, indent=1)
    return out


if __name__ == "__main__":
    main()
