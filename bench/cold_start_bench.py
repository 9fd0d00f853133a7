"""Cold start, kafkacodec against confluent-kafka: import time, and a one-message producer script.

Every sample is a fresh interpreter (``python -c``); within a round the arms take turns, so a
load spike on a shared machine hits all of them alike; medians over --rounds, and each
kafkacodec arm's ratio to confluent-kafka's in the same run.

Import arms: the ``import`` statement alone, timed in the child (the interpreter's own start
is the same for every arm and left out).

  import kafkacodec.client
  import kafkacodec.compat.confluent_kafka
  import confluent_kafka

Producer-script arms: one message to a topic that exists, each client at its defaults but
``bootstrap.servers``, timed in the child from the script's first line (imports included) to
the delivery acknowledgement; ``process`` is the whole run as the parent sees it (interpreter
start, the script, close and exit).

  kafkacodec Producer      Producer(conf).send(topic, b"v"), flush(), the handle's get()
  kafkacodec face          kafkacodec.compat.confluent_kafka.Producer: produce(callback=...), flush()
  confluent-kafka          confluent_kafka.Producer: the same script

Bytecode: an installed wheel has its modules compiled (pip writes the .pyc files), while an
editable install run with PYTHONDONTWRITEBYTECODE=1 compiles every module at every start.  By
default the children keep bytecode under bench/.cache/pycache (PYTHONPYCACHEPREFIX), as an
installed package would, after a warm-up run of each arm; --no-bytecode-cache measures the
other case (kafkacodec compiled at every start, the others read their installed .pyc).

    python -m bench.cold_start_bench                     # 15 rounds, Tansu started here
    python -m bench.cold_start_bench --rounds 31 --json out.json
    python -m bench.cold_start_bench --no-bytecode-cache --skip-producer
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))  # _peers: the broker and topic helpers
PYCACHE = os.path.join(HERE, ".cache", "pycache")

IMPORT_TARGET_MS = 50.0  # the kafkacodec imports, median on the machine that runs this

_IMPORT = """
import time
t0 = time.perf_counter()
import {module}
print(time.perf_counter() - t0)
"""

# Each script prints the seconds from its first line to the acknowledgement of its one message.
_KAFKACODEC = """
import time
t0 = time.perf_counter()
from kafkacodec.client import Producer
p = Producer({{"bootstrap.servers": {bootstrap!r}}})
handle = p.send({topic!r}, b"v")
p.flush(30)  # as the confluent script: send now, not after linger.ms
handle.get(0)
t1 = time.perf_counter()
p.close()
print(t1 - t0)
"""

_CONFLUENT_SCRIPT = """
import time
t0 = time.perf_counter()
from {package} import Producer
acked = []

def delivered(err, msg):
    if err is not None:
        raise SystemExit(f"delivery failed: {{err}}")
    acked.append(time.perf_counter())

p = Producer({{"bootstrap.servers": {bootstrap!r}}})
p.produce({topic!r}, b"v", callback=delivered)
p.flush(30)
if not acked:
    raise SystemExit("no acknowledgement within 30 s")
print(acked[0] - t0)
"""

IMPORT_ARMS = {
    "import kafkacodec.client": ("kafkacodec", _IMPORT.format(module="kafkacodec.client")),
    "import kafkacodec.compat.confluent_kafka": ("kafkacodec",
                                                 _IMPORT.format(module="kafkacodec.compat.confluent_kafka")),
    "import confluent_kafka": ("confluent", _IMPORT.format(module="confluent_kafka")),
}
PRODUCER_ARMS = ("kafkacodec Producer", "kafkacodec face", "confluent-kafka")
BASELINE = {"import": "import confluent_kafka", "producer": "confluent-kafka"}


def producer_script(arm, bootstrap, topic):
    if arm == "kafkacodec Producer":
        return _KAFKACODEC.format(bootstrap=bootstrap, topic=topic)
    package = "kafkacodec.compat.confluent_kafka" if arm == "kafkacodec face" else "confluent_kafka"
    return _CONFLUENT_SCRIPT.format(package=package, bootstrap=bootstrap, topic=topic)


def child_env(bytecode_cache):
    env = dict(os.environ)
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = PYCACHE
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def run_child(code, env, timeout=60.0):
    """(seconds the child printed, seconds the whole process took)."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"child failed (exit {proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return float(proc.stdout.strip().splitlines()[-1]), wall


def measure(arms, rounds, env):
    """{arm: {"inner": [s...], "process": [s...]}}, one warm-up run per arm first."""
    for code in arms.values():
        run_child(code, env)
    samples = {arm: {"inner": [], "process": []} for arm in arms}
    for _ in range(rounds):
        for arm, code in arms.items():
            inner, wall = run_child(code, env)
            samples[arm]["inner"].append(inner)
            samples[arm]["process"].append(wall)
    return samples


def summarise(kind, samples):
    base = statistics.median(samples[BASELINE[kind]]["inner"])
    rows = []
    for arm, got in samples.items():
        med = statistics.median(got["inner"])
        rows.append({"arm": arm, "median_ms": med * 1e3, "min_ms": min(got["inner"]) * 1e3,
                     "max_ms": max(got["inner"]) * 1e3, "process_median_ms": statistics.median(got["process"]) * 1e3,
                     "ratio": med / base})
    return rows


def print_table(title, rows):
    print(f"\n{title}")
    print(f"  {'arm':42} {'median ms':>10} {'min':>8} {'max':>8} {'process ms':>11} {'/ confluent':>12}")
    for r in rows:
        print(f"  {r['arm']:42} {r['median_ms']:10.1f} {r['min_ms']:8.1f} {r['max_ms']:8.1f} "
              f"{r['process_median_ms']:11.1f} {r['ratio']:11.2f}x")


def check_targets(imports, producer):
    """{target: met} for the figures this run measured."""
    targets = {}
    for r in imports or ():
        if r["arm"].startswith("import kafkacodec"):
            targets[f"{r['arm']} <= {IMPORT_TARGET_MS:.0f} ms"] = r["median_ms"] <= IMPORT_TARGET_MS
    for r in producer or ():
        if r["arm"].startswith("kafkacodec"):
            targets[f"{r['arm']} script no slower than confluent-kafka's"] = r["ratio"] <= 1.0
    return targets


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="children compile kafkacodec at every start (PYTHONDONTWRITEBYTECODE=1)")
    ap.add_argument("--skip-producer", action="store_true", help="import arms only (no broker)")
    ap.add_argument("--bootstrap", help="a running broker instead of the Tansu started here")
    ap.add_argument("--json", help="write the samples and the tables here")
    args = ap.parse_args(argv)
    env = child_env(not args.no_bytecode_cache)
    load = [os.getloadavg()[0]]
    print(f"cold start, {args.rounds} rounds, bytecode {'not ' if args.no_bytecode_cache else ''}cached, "
          f"{os.cpu_count()} cpus, load {load[0]:.2f}")
    out = {"rounds": args.rounds, "bytecode_cache": not args.no_bytecode_cache, "cpus": os.cpu_count()}

    import_samples = measure({arm: code for arm, (_, code) in IMPORT_ARMS.items()}, args.rounds, env)
    out["import"] = summarise("import", import_samples)
    out["import_samples"] = import_samples
    print_table("import (the import statement in a fresh interpreter)", out["import"])

    if not args.skip_producer:
        with _broker(args.bootstrap) as bootstrap:
            import _peers
            topic = f"cold-start-{uuid.uuid4().hex[:8]}"
            _peers.create_topic(bootstrap, topic, 1)
            arms = {arm: producer_script(arm, bootstrap, topic) for arm in PRODUCER_ARMS}
            producer_samples = measure(arms, args.rounds, env)
        out["producer"] = summarise("producer", producer_samples)
        out["producer_samples"] = producer_samples
        print_table("one-message producer script (first line to acknowledgement)", out["producer"])

    load.append(os.getloadavg()[0])
    out["load"] = load
    out["targets"] = check_targets(out["import"], out.get("producer"))
    print(f"\nload {load[0]:.2f} -> {load[1]:.2f}")
    for target, met in out["targets"].items():
        print(f"  {'met    ' if met else 'NOT MET'}  {target}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


@contextlib.contextmanager
def _broker(bootstrap):
    """The broker to produce to: `bootstrap` as given, or a Tansu started (and stopped) here."""
    if bootstrap:
        yield bootstrap
        return
    from kafkacodec import embedded
    broker = embedded.start_tansu(lifetime=3600)
    try:
        yield broker.bootstrap
    finally:
        broker.stop()


if __name__ == "__main__":
    main()
