"""A realistic broker data directory to try the Spark pipeline on.

    from kafkacodec.spark.demo import generate_demo
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

import json
import os
import random
from dataclasses import dataclass, field

from kafkacodec.logdir.writer import PartitionWriter
from kafkacodec.records import build_batches, build_control_batch

__all__ = ["DemoInfo", "generate_demo", "CODECS"]

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
BASE_TS = 1_767_225_600_000  # 2026-01-01T00:00:00Z
BATCH_SIZE = 16384
MANIFEST = "kafkacodec-demo.json"


@dataclass
class DemoInfo:
    path: str
    records: int = 0  # data records written (committed, aborted and plain)
    bytes: int = 0
    # (topic, partition) -> records written / aborted (first, last, count) offset ranges
    counts: dict = field(default_factory=dict)
    aborted: dict = field(default_factory=dict)

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

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def order(self, i: int, ts: int):
        r = self.rng
        key = f"customer-{r.randrange(50_000):06d}".encode()
        value = (f'{{"order_id":{i},"sku":"SKU-{r.randrange(9999):04d}","qty":{r.randrange(1, 9)},'
                 f'"price":{r.randrange(100, 99999) / 100:.2f},"currency":"EUR","ts":{ts}}}').encode()
        headers = [("trace-id", r.randbytes(8).hex().encode()), ("source", b"checkout")]
        return (ts, key, value, headers)

    def click(self, i: int, ts: int):
        r = self.rng
        key = None if r.random() < 0.1 else f"session-{r.randrange(10_000):05d}".encode()
        page = r.choice(("/", "/search", "/product", "/cart", "/checkout", "/help"))
        value = f'{{"page":"{page}","ref":"{r.choice(("ads", "mail", "direct"))}","ms":{r.randrange(5, 900)}}}'
        headers = [("ua", r.choice((b"firefox", b"chrome", b"safari"))), ("experiment", None)]
        return (ts, key, value.encode(), headers)

    def payment(self, i: int, ts: int, pid: int):
        r = self.rng
        key = f"account-{r.randrange(2_000):04d}".encode()
        value = (f'{{"payment":{i},"producer":{pid},"amount":{r.randrange(1, 500_000) / 100:.2f},'
                 f'"status":"captured"}}').encode()
        return (ts, key, value, [("idempotency-key", r.randbytes(6).hex().encode())])


def _append_records(writer, records, *, compression, **producer):
    data = b"".join(build_batches(records, compression=compression, batch_size=BATCH_SIZE,
                                  base_offset=writer.next_offset, **producer))
    return writer.append(data, assign_offsets=True)


def generate_demo(path: str | os.PathLike, *, records: int = 200_000, seed: int = 1,
                  segment_bytes: int = 1 << 20) -> DemoInfo:
    """Write the demo data directory under ``path`` (created; must not hold
    partitions yet) with about ``records`` data records.  A manifest
    (``kafkacodec-demo.json``) next to the partitions records what was written."""
    path = os.fspath(path)
    os.makedirs(path, exist_ok=True)
    info = DemoInfo(path)
    gen = _Gen(seed)
    share = {"orders": 0.45, "clicks": 0.35, "payments": 0.20}
    common = dict(segment_bytes=segment_bytes, index_interval_bytes=4096)

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
    state = {pid: {"first": None, "seq": 0, "chunks": [], "abort": False} for pid in pids}
    codecs = {pids[0]: "zstd", pids[1]: "none"}
    ts = BASE_TS + 5000 + partition
    done = 0
    i = 0
    aborted = info.aborted.setdefault(("payments", partition), [])

    def end_txn(pid):
        s = state[pid]
        control = "ABORT" if s["abort"] else "COMMIT"
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
