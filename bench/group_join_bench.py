"""Joining a consumer group: the time from subscribe() to the first record and to the last, on
librdkafka's mock cluster (3 brokers), kafkacodec's Consumer and confluent-kafka's, each with
the KIP-848 consumer protocol (group.protocol=consumer) and the classic one.

    python -m bench.group_join_bench                 # 5 rounds, 1000 records over 4 partitions
    python -m bench.group_join_bench --rounds 9 --arms kc-consumer confluent-consumer

Every run is a fresh process joining a group of its own as its only member, at each client's
defaults (only bootstrap.servers, group.id, auto.offset.reset=earliest and group.protocol);
arms take turns within a round.  The classic protocol's join waits on the coordinator's
rebalance delay (the mock's: about 3 s), which the consumer protocol has no use for.
Printed: medians and the min-max spread, in seconds.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import uuid
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

ARMS = ["kc-consumer", "confluent-consumer", "kc-classic", "confluent-classic"]
TOPIC, PARTITIONS = "join-bench", 4


def run_arm(arm: str, bootstrap: str, n: int) -> dict[str, float]:
    """In the child: subscribe, read n records; times from subscribe()."""
    import time
    client, protocol = arm.split("-")
    conf = {"bootstrap.servers": bootstrap, "group.id": f"join-{uuid.uuid4().hex[:8]}",
            "auto.offset.reset": "earliest", "group.protocol": protocol}
    take: Callable[[], int]
    close: Callable[[], None]
    if client == "kc":
        from kafkacodec.client import Consumer
        kc = Consumer(conf)
        t0 = time.monotonic()
        kc.subscribe([TOPIC])
        take, close = (lambda: len(kc.poll(0.05))), kc.close
    else:
        import confluent_kafka
        ck = confluent_kafka.Consumer(dict(conf, log_level=0))
        t0 = time.monotonic()
        ck.subscribe([TOPIC])
        take, close = (lambda: len([m for m in ck.consume(1000, timeout=0.05) if not m.error()])), ck.close
    got, first = 0, None
    while got < n and time.monotonic() - t0 < 60:
        k = take()
        if k and first is None:
            first = time.monotonic() - t0
        got += k
    last = time.monotonic() - t0
    close()
    if got < n:
        raise SystemExit(f"{arm}: {got} of {n} records in 60 s")
    assert first is not None
    return {"first": first, "last": last}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--arms", nargs="+", choices=ARMS, default=ARMS)
    ap.add_argument("--child", nargs=2, metavar=("ARM", "BOOTSTRAP"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(run_arm(args.child[0], args.child[1], args.records)))
        return
    import _peers  # type: ignore[import-not-found]  # tests/ is on the path
    results: dict[str, list[dict[str, float]]] = {a: [] for a in args.arms}
    with _peers.mock_cluster(num_brokers=3, topics={TOPIC: PARTITIONS}) as bootstrap:
        _peers.produce_with_confluent(bootstrap, TOPIC, [(b"k", b"v%d" % i, None, None, i % PARTITIONS)
                                                         for i in range(args.records)])
        for r in range(args.rounds):
            for arm in args.arms[r % len(args.arms):] + args.arms[:r % len(args.arms)]:
                out = subprocess.run([sys.executable, "-m", "bench.group_join_bench", "--records", str(args.records),
                                      "--child", arm, bootstrap], cwd=ROOT, capture_output=True, text=True,
                                     timeout=120)
                if out.returncode:
                    raise SystemExit(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"{arm} failed")
                results[arm].append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"group join on the mock cluster: {args.records} records over {PARTITIONS} partitions, "
          f"{args.rounds} round(s); seconds from subscribe(), median (min-max)")
    print(f"{'arm':<20} {'first record':>22} {'last record':>22}")
    for arm, runs in results.items():
        cells = []
        for key in ("first", "last"):
            xs = [run[key] for run in runs]
            cells.append(f"{statistics.median(xs):.3f} ({min(xs):.3f}-{max(xs):.3f})")
        print(f"{arm:<20} {cells[0]:>22} {cells[1]:>22}")


if __name__ == "__main__":
    main()
