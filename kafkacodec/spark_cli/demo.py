"""A realistic broker data directory to try the Spark pipeline on.

    from kafkacodec.spark_cli.demo import generate_demo
    info = generate_demo("/tmp/demo-logs", records=200_000)

Topics (every batch closed at 16 KiB, as a producer's default batch.size):

- ``orders`` (3 partitions): an idempotent producer (producer id, epoch,
  sequences), one codec per partition (none, snappy, gzip), headers;
- ``clicks`` (2 partitions): a plain producer whose batches rotate through
  every codec (none, gzip, snappy, lz4, zstd); partition 1 is left as a
  running broker leaves its active segment (zero-padded index files);
- ``payments`` (2 partitions): two transactional producers interleaving
  transactions, about one in four aborted; COMMIT/ABORT markers and
  ``.txnindex`` entries as the broker writes them.

Segments roll at ``segment_bytes`` so partitions have several segments with
real ``.index``/``.timeindex`` files.  The returned :class:`DemoInfo` says
which offsets belong to aborted transactions, for verification.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from kafkacodec.logdir.writer import AppendInfo, PartitionWriter
from kafkacodec.records import build_batches, build_control_batch

__all__ = ["DemoInfo", "generate_demo", "CODECS", "LiveDemoInfo", "produce_live_demo", "record_digest_update",
           "LIVE_TOPICS"]

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
BASE_TS = 1_767_225_600_000  # 2026-01-01T00:00:00Z
BATCH_SIZE = 16384
MANIFEST = "kafkacodec-demo.json"

_TopicPartition = tuple[str, int]
_Range = tuple[int, ...]  # (first offset, last offset, records)
_Headers = list[tuple[str, bytes | None]]
# (timestamp, key, value, headers), as build_batches and Producer.send take them
DemoRecord = tuple[int, bytes | None, bytes, _Headers]


@dataclass
class DemoInfo:
    path: str
    records: int = 0  # data records written (committed, aborted and plain)
    bytes: int = 0
    # (topic, partition) -> records written / aborted (first, last, count) offset ranges
    counts: dict[_TopicPartition, int] = field(default_factory=dict)
    aborted: dict[_TopicPartition, list[_Range]] = field(default_factory=dict)

    @property
    def aborted_records(self) -> int:
        return sum(n for ranges in self.aborted.values() for _, _, n in ranges)

    @property
    def committed_records(self) -> int:
        """Records a read_committed consumer sees."""
        return self.records - self.aborted_records

    def is_aborted(self, topic: str, partition: int, offset: int) -> bool:
        return any(a <= offset <= b for a, b, _ in self.aborted.get((topic, partition), ()))

    def to_json(self) -> str:
        return json.dumps({
            "records": self.records, "bytes": self.bytes,
            "counts": [[t, p, n] for (t, p), n in sorted(self.counts.items())],
            "aborted": [[t, p, ranges] for (t, p), ranges in sorted(self.aborted.items())],
        })

    @classmethod
    def load(cls, path: str) -> "DemoInfo":
        with open(os.path.join(path, MANIFEST)) as f:
            raw = json.load(f)
        info = cls(path, raw["records"], raw["bytes"])
        info.counts = {(t, p): n for t, p, n in raw["counts"]}
        info.aborted = {(t, p): [tuple(r) for r in ranges] for t, p, ranges in raw["aborted"]}
        return info


class _Gen:
    """Deterministic record content: keys, JSON-like values, headers."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def order(self, i: int, ts: int) -> DemoRecord:
        r = self.rng
        key = f"customer-{r.randrange(50_000):06d}".encode()
        value = (f'{{"order_id":{i},"sku":"SKU-{r.randrange(9999):04d}","qty":{r.randrange(1, 9)},'
                 f'"price":{r.randrange(100, 99999) / 100:.2f},"currency":"EUR","ts":{ts}}}').encode()
        headers: _Headers = [("trace-id", r.randbytes(8).hex().encode()), ("source", b"checkout")]
        return (ts, key, value, headers)

    def click(self, i: int, ts: int) -> DemoRecord:
        r = self.rng
        key = None if r.random() < 0.1 else f"session-{r.randrange(10_000):05d}".encode()
        page = r.choice(("/", "/search", "/product", "/cart", "/checkout", "/help"))
        value = f'{{"page":"{page}","ref":"{r.choice(("ads", "mail", "direct"))}","ms":{r.randrange(5, 900)}}}'
        headers: _Headers = [("ua", r.choice((b"firefox", b"chrome", b"safari"))), ("experiment", None)]
        return (ts, key, value.encode(), headers)

    def payment(self, i: int, ts: int, pid: int) -> DemoRecord:
        r = self.rng
        key = f"account-{r.randrange(2_000):04d}".encode()
        value = (f'{{"payment":{i},"producer":{pid},"amount":{r.randrange(1, 500_000) / 100:.2f},'
                 f'"status":"captured"}}').encode()
        return (ts, key, value, [("idempotency-key", r.randbytes(6).hex().encode())])


def _append_records(writer: PartitionWriter, records: list[DemoRecord], *, compression: str,
                    **producer: Any) -> AppendInfo:
    data = b"".join(build_batches(records, compression=compression, batch_size=BATCH_SIZE,
                                  base_offset=writer.next_offset, **producer))
    return writer.append(data, assign_offsets=True)


def generate_demo(path: str | os.PathLike[str], *, records: int = 200_000, seed: int = 1,
                  segment_bytes: int = 1 << 20) -> DemoInfo:
    """Write the demo data directory under ``path`` (created; must not hold
    partitions yet) with about ``records`` data records.  A manifest
    (``kafkacodec-demo.json``) next to the partitions records what was written."""
    path = os.fspath(path)
    os.makedirs(path, exist_ok=True)
    info = DemoInfo(path)
    gen = _Gen(seed)
    share = {"orders": 0.45, "clicks": 0.35, "payments": 0.20}
    common: dict[str, Any] = dict(segment_bytes=segment_bytes, index_interval_bytes=4096)

    # orders: idempotent producer, one codec per partition
    per = max(1, int(records * share["orders"]) // 3)
    for p, codec in enumerate(("none", "snappy", "gzip")):
        with PartitionWriter(path, "orders", p, **common) as w:
            ts = BASE_TS + p
            seq = 0
            done = 0
            while done < per:
                n = min(per - done, gen.rng.randrange(50, 400))  # one producer flush
                recs = [gen.order(done + k, ts + 7 * (done + k)) for k in range(n)]
                _append_records(w, recs, compression=codec, producer_id=7 + p, producer_epoch=0,
                                base_sequence=seq)
                seq += n
                done += n
            info.counts[("orders", p)] = per
            info.records += per

    # clicks: every codec, batch by batch; partition 1 left "running"
    per = max(1, int(records * share["clicks"]) // 2)
    for p in range(2):
        w = PartitionWriter(path, "clicks", p, **common)
        ts = BASE_TS + 1000 + p
        done = 0
        k = 0
        while done < per:
            n = min(per - done, gen.rng.randrange(100, 600))
            recs = [gen.click(done + j, ts + 3 * (done + j)) for j in range(n)]
            _append_records(w, recs, compression=CODECS[k % len(CODECS)])
            k += 1
            done += n
        w.close(clean=(p == 0))
        info.counts[("clicks", p)] = per
        info.records += per

    # payments: two transactional producers, interleaved, ~1 in 4 aborted
    per = max(1, int(records * share["payments"]) // 2)
    for p in range(2):
        with PartitionWriter(path, "payments", p, **common) as w:
            _transactions(w, gen, per, p, info)
        info.counts[("payments", p)] = per
        info.records += per

    for root, _, files in os.walk(path):
        info.bytes += sum(os.path.getsize(os.path.join(root, f)) for f in files if f.endswith(".log"))
    with open(os.path.join(path, MANIFEST), "w") as f:
        f.write(info.to_json())
    return info


def _transactions(w: PartitionWriter, gen: _Gen, total: int, partition: int, info: DemoInfo) -> None:
    pids = (1000 + 10 * partition, 1001 + 10 * partition)
    # per producer: first offset of its open transaction, next sequence, appended ranges, abort at the end?
    state: dict[int, dict[str, Any]] = {pid: {"first": None, "seq": 0, "chunks": [], "abort": False}
                                        for pid in pids}
    codecs = {pids[0]: "zstd", pids[1]: "none"}
    ts = BASE_TS + 5000 + partition
    done = 0
    i = 0
    aborted = info.aborted.setdefault(("payments", partition), [])

    def end_txn(pid: int) -> None:
        s = state[pid]
        control: Literal["ABORT", "COMMIT"] = "ABORT" if s["abort"] else "COMMIT"
        marker = build_control_batch(control, producer_id=pid, producer_epoch=0, base_offset=w.next_offset,
                                     timestamp=ts + 11 * done)
        at = w.append(marker, assign_offsets=True).first_offset
        if s["abort"]:
            # the last stable offset is held back by the other producer's open transaction
            open_firsts = [o["first"] for q, o in state.items() if q != pid and o["first"] is not None]
            lso = min(open_firsts) if open_firsts else at + 1
            w.add_aborted_transaction(pid, s["first"], at, lso)
            # only this producer's own appends: the other one's records in between stay
            aborted.extend(s["chunks"])
        s["first"] = None
        s["chunks"] = []

    while done < total:
        pid = pids[i % 2]
        i += 1
        s = state[pid]
        if s["first"] is None:
            s["abort"] = gen.rng.random() < 0.25
        n = min(total - done, gen.rng.randrange(20, 200))
        recs = [gen.payment(done + j, ts + 11 * (done + j), pid) for j in range(n)]
        got = _append_records(w, recs, compression=codecs[pid], producer_id=pid, producer_epoch=0,
                              base_sequence=s["seq"], is_transactional=True)
        if s["first"] is None:
            s["first"] = got.first_offset
        s["seq"] += n
        s["chunks"].append((got.first_offset, got.last_offset, n))
        done += n
        # a transaction spans one to three sends
        if gen.rng.random() < 0.5 or done >= total:
            end_txn(pid)
    for pid in pids:
        if state[pid]["first"] is not None:
            end_txn(pid)


# --------------------------------------------------------------------------- live demo: topics on a broker

LIVE_TOPICS = {"orders": 3, "clicks": 2, "payments": 2}


@dataclass
class LiveDemoInfo:
    """What :func:`produce_live_demo` sent, to check a copy against.

    Per partition: the records a read_committed reader sees (``committed``),
    a SHA-256 over them in offset order (:func:`record_digest_update`), and
    the offset ranges of records in aborted transactions."""

    bootstrap: str = ""
    topics: dict[str, int] = field(default_factory=dict)  # name -> partitions
    records: int = 0  # data records sent: committed, aborted and outside transactions
    bytes: int = 0  # keys, values and headers sent
    committed: dict[_TopicPartition, int] = field(default_factory=dict)  # (topic, partition) -> records
    digests: dict[_TopicPartition, str] = field(default_factory=dict)  # (topic, partition) -> hex SHA-256
    # (topic, partition) -> [(first, last, count)]
    aborted: dict[_TopicPartition, list[_Range]] = field(default_factory=dict)
    transactions: dict[str, int] = field(default_factory=lambda: {"committed": 0, "aborted": 0})
    codecs: tuple[str, ...] = ()

    @property
    def committed_records(self) -> int:
        return sum(self.committed.values())

    @property
    def aborted_records(self) -> int:
        return sum(n for ranges in self.aborted.values() for _, _, n in ranges)

    def to_dict(self) -> dict[str, Any]:
        return {
            "topics": self.topics, "records": self.records, "bytes": self.bytes,
            "partitions": [[t, p, self.committed.get((t, p), 0), self.digests.get((t, p)),
                            [list(r) for r in self.aborted.get((t, p), ())]]
                           for t, n in sorted(self.topics.items()) for p in range(n)],
            "transactions": self.transactions, "codecs": list(self.codecs),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> "LiveDemoInfo":
        info = cls(topics=dict(raw["topics"]), records=raw["records"], bytes=raw["bytes"],
                   transactions=dict(raw["transactions"]), codecs=tuple(raw["codecs"]))
        for t, p, n, digest, ranges in raw["partitions"]:
            info.committed[(t, p)] = n
            info.digests[(t, p)] = digest
            if ranges:
                info.aborted[(t, p)] = [tuple(r) for r in ranges]
        return info


class _Hash(Protocol):
    def update(self, data: bytes, /) -> None: ...


def record_digest_update(h: _Hash, offset: int, timestamp_ms: int, key: bytes | None, value: bytes | None,
                         headers: Sequence[tuple[str | bytes, bytes | None]] | None) -> None:
    """Feed one record to a running hash, unambiguously (lengths before bytes,
    -1 for null); the live pipeline's check hashes what it reads the same way."""
    import struct

    h.update(struct.pack(">qq", offset, timestamp_ms))
    for blob in (key, value):
        if blob is None:
            h.update(b"\xff\xff\xff\xff")
        else:
            h.update(struct.pack(">i", len(blob)))
            h.update(blob)
    headers = headers or ()
    h.update(struct.pack(">i", len(headers)))
    for hk, hv in headers:
        hk = hk.encode() if isinstance(hk, str) else hk
        h.update(struct.pack(">i", len(hk)))
        h.update(hk)
        if hv is None:
            h.update(b"\xff\xff\xff\xff")
        else:
            h.update(struct.pack(">i", len(hv)))
            h.update(hv)


def _merge_ranges(offsets: list[int]) -> list[_Range]:
    """Sorted offsets -> [(first, last, count)] of consecutive runs."""
    out: list[list[int]] = []
    for o in sorted(offsets):
        if out and out[-1][1] + 1 == o:
            out[-1][1] = o
            out[-1][2] += 1
        else:
            out.append([o, o, 1])
    return [tuple(r) for r in out]


def produce_live_demo(bootstrap: str, *, records: int = 200_000, prefix: str = "", seed: int = 1,
                      create: bool = True, timeout: float = 60.0,
                      progress: Callable[[str], object] | None = None) -> LiveDemoInfo:
    """Create the demo topics on ``bootstrap`` and fill them with about
    ``records`` records with kafkacodec's producer:

    - ``{prefix}orders`` (3 partitions): an idempotent producer, snappy,
      keyed records with headers;
    - ``{prefix}clicks`` (2 partitions): five producers taking turns, one per
      codec (none, gzip, snappy, lz4, zstd), some null keys and null header values;
    - ``{prefix}payments`` (2 partitions): two transactional producers (zstd,
      gzip) whose transactions interleave, about one in four aborted.

    Timestamps start at the current time (a broker's time-based retention
    keeps them).  ``progress(text)`` is called after each topic."""
    from kafkacodec.client import Admin, Producer

    topics = {prefix + name: n for name, n in LIVE_TOPICS.items()}
    if create:
        with Admin({"bootstrap.servers": bootstrap}) as admin:
            admin.create_topics(topics, timeout=timeout)
    info = LiveDemoInfo(bootstrap=bootstrap, topics=topics, codecs=CODECS)
    gen = _Gen(seed)
    now = int(time.time() * 1000)
    # (topic, partition) -> [(offset, ts, key, value, headers)] committed
    kept: dict[_TopicPartition, list[tuple[int, int, bytes | None, bytes, _Headers]]] = {}
    aborted: dict[_TopicPartition, list[int]] = {}  # (topic, partition) -> [offsets]
    base = {"bootstrap.servers": bootstrap, "linger.ms": 20, "client.id": "kafkacodec-demo"}

    def settle(sent: list[tuple[Any, DemoRecord]], committed: bool) -> None:
        for handle, (ts, key, value, headers) in sent:
            md = handle.get(timeout)
            tp = (md.topic, md.partition)
            info.records += 1
            info.bytes += (len(key) if key else 0) + len(value) + sum(
                len(k) + (len(v) if v else 0) for k, v in headers or ())
            if committed:
                kept.setdefault(tp, []).append((md.offset, ts, key, value, headers))
            else:
                aborted.setdefault(tp, []).append(md.offset)

    shares = {"orders": 0.45, "clicks": 0.35, "payments": 0.20}

    # orders: idempotent, keyed, headers
    topic = prefix + "orders"
    n = max(1, int(records * shares["orders"]))
    with Producer({**base, "enable.idempotence": True, "compression.type": "snappy"}) as p:
        sent = []
        for i in range(n):
            rec = gen.order(i, now + i)
            ts, key, value, headers = rec
            sent.append((p.send(topic, value, key=key, headers=headers, timestamp=ts), rec))
        p.flush(timeout)
        settle(sent, True)
    if progress:
        progress(f"{topic}: {n:,} records (idempotent, snappy)")

    # clicks: one producer per codec, taking turns
    topic = prefix + "clicks"
    n = max(1, int(records * shares["clicks"]))
    producers = [Producer({**base, "compression.type": codec, "enable.idempotence": False, "acks": 1})
                 for codec in CODECS]
    try:
        done = k = 0
        while done < n:
            p = producers[k % len(producers)]
            k += 1
            m = min(n - done, gen.rng.randrange(500, 3000))
            sent = []
            for j in range(m):
                rec = gen.click(done + j, now + done + j)
                ts, key, value, headers = rec
                sent.append((p.send(topic, value, key=key, headers=headers, timestamp=ts), rec))
            p.flush(timeout)
            settle(sent, True)
            done += m
    finally:
        for p in producers:
            p.close(timeout)
    if progress:
        progress(f"{topic}: {n:,} records ({', '.join(CODECS)}, in turns)")

    # payments: two transactional producers, interleaved transactions
    topic = prefix + "payments"
    n = max(1, int(records * shares["payments"]))
    tag = f"{prefix or 'kafkacodec-demo-'}{now}"
    txns = [Producer({**base, "transactional.id": f"{tag}-payments-{c}", "compression.type": c})
            for c in ("zstd", "gzip")]
    try:
        for p in txns:
            p.init_transactions(timeout)
        # producer index -> (abort?, [(handle, rec)])
        open_txn: dict[int, tuple[bool, list[tuple[Any, DemoRecord]]]] = {}
        done = i = 0
        while done < n or open_txn:
            k = i % 2
            i += 1
            p = txns[k]
            if k not in open_txn:
                if done >= n:
                    continue
                p.begin_transaction()
                open_txn[k] = (gen.rng.random() < 0.25, [])
            abort, sent = open_txn[k]
            m = min(n - done, gen.rng.randrange(50, 500))
            for j in range(m):
                rec = gen.payment(done + j, now + done + j, k)
                ts, key, value, headers = rec
                sent.append((p.send(topic, value, key=key, headers=headers, timestamp=ts), rec))
            done += m
            p.flush(timeout)  # in the log now; the other producer's transaction goes on meanwhile
            if gen.rng.random() < 0.5 or done >= n:  # a transaction spans one to a few sends
                if abort:
                    p.abort_transaction(timeout)
                else:
                    p.commit_transaction(timeout)
                settle(sent, not abort)
                info.transactions["aborted" if abort else "committed"] += 1
                del open_txn[k]
    finally:
        for p in txns:
            p.close(timeout)
    if progress:
        txns_done = info.transactions
        progress(f"{topic}: {n:,} records in {txns_done['committed']} committed and {txns_done['aborted']} "
                 f"aborted transactions (zstd, gzip)")

    for t, parts in topics.items():
        for part in range(parts):
            tp = (t, part)
            rows = sorted(kept.get(tp, ()), key=lambda r: r[0])
            h = hashlib.sha256()
            for offset, ts, key, value, headers in rows:
                record_digest_update(h, offset, ts, key, value, headers)
            info.committed[tp] = len(rows)
            info.digests[tp] = h.hexdigest()
            if tp in aborted:
                info.aborted[tp] = _merge_ranges(aborted[tp])
    return info
