"""Run one fuzz campaign (atheris / libFuzzer) against one target.

    python -m tests.fuzz.campaign --target records-diff --runs 2000000
    python -m tests.fuzz.campaign --target arrow --time 600 --keep-going
    python -m tests.fuzz.campaign --list
    PYTHONPATH=/tmp/build python tests/fuzz/campaign.py ...   # fuzz another build

(``python -m`` from the checkout imports the checkout's kafkacodec; run the file
with PYTHONPATH to fuzz a copy built elsewhere.)

Targets (see _targets.py): records, arrow, protocol, wrapped, index (the pure
twin, coverage-guided, KAFKACODEC_PURE=1 is set here) and records-diff,
arrow-diff, protocol-diff, wrapped-diff, primitives-diff (compiled against pure
on every input, also guided by the pure twin's coverage).  "wrapped" builds a
valid compressed v2 batch around fuzzed records (records and Arrow decoders).  Seeds are built on each start with the
library's own builders (_seeds.py).  The corpus libFuzzer grows and any crash
input go under --workdir (default /tmp/kafkacodec-fuzz/<target>), never into
the repository.

By default the first finding stops the run with its message, as libFuzzer does;
with --keep-going each distinct finding (grouped by signature) is written to
<workdir>/findings/<id>/ with its smallest input, and the run goes on.
Arguments after ``--`` go to libFuzzer unchanged.
"""
import argparse
import hashlib
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PURE_TARGETS = ("records", "arrow", "protocol", "wrapped", "index")
DIFF_TARGETS = ("records-diff", "arrow-diff", "protocol-diff", "wrapped-diff", "primitives-diff", "avro-diff")


class _FindingLog:
    """--keep-going: one directory per distinct finding, holding its smallest input."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.smallest = {}
        self.counts = {}

    def add(self, signature, message, data):
        key = hashlib.sha1(signature.encode()).hexdigest()[:12]
        d = self.root / key
        self.counts[key] = self.counts.get(key, 0) + 1
        if key not in self.smallest:
            d.mkdir(exist_ok=True)
            (d / "signature.txt").write_text(signature + "\n")
            print(f"\n==== NEW FINDING {key}: {signature}\n{message}\n  input ({len(data)} bytes): "
                  f"{data[:256].hex()}{'...' if len(data) > 256 else ''}\n", file=sys.stderr, flush=True)
        if key not in self.smallest or len(data) < self.smallest[key]:
            self.smallest[key] = len(data)
            (d / "smallest.bin").write_bytes(data)
            (d / "message.txt").write_text(message + "\n")


def _wrap(fn, log, finding_cls, where):
    def one_input(data):
        try:
            fn(data)
        except finding_cls as f:
            log.add(f.signature, str(f), data)
        except Exception as exc:  # noqa: BLE001 - a leak past the target's own checks
            log.add(f"escaped:{type(exc).__name__}:{where(exc)}", f"{type(exc).__name__}: {exc}", data)
    return one_input


def _write_seeds(kind, seeds_dir):
    import _seeds
    from _avro_target import avro_seeds as _avro_seeds
    seeds = {"records": _seeds.record_seeds, "protocol": _seeds.protocol_seeds, "index": _seeds.index_seeds,
             "wrapped": _seeds.wrapped_seeds, "avro": _avro_seeds}[kind]()
    for i, s in enumerate(seeds):
        (seeds_dir / f"seed-{i:03d}").write_bytes(s)
    return len(seeds)


def _repro(fn, files):
    import traceback
    failed = 0
    for name in files:
        data = pathlib.Path(name).read_bytes()
        try:
            fn(data)
            print(f"{name}: ok ({len(data)} bytes)")
        except Exception:  # noqa: BLE001 - reported, the run goes on
            failed += 1
            print(f"{name}: FINDING ({len(data)} bytes: {data.hex()})")
            traceback.print_exc()
    return 1 if failed else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", choices=PURE_TARGETS + DIFF_TARGETS)
    ap.add_argument("--list", action="store_true", help="list the targets and exit")
    ap.add_argument("--runs", type=int, default=None, help="total executions, seeds included (-atheris_runs)")
    ap.add_argument("--time", type=int, default=None, help="stop after this many seconds (-max_total_time)")
    ap.add_argument("--max-len", type=int, default=8192)
    ap.add_argument("--timeout", type=int, default=30, help="seconds one input may take")
    ap.add_argument("--rss-limit-mb", type=int, default=2048)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--keep-going", action="store_true", help="log distinct findings and continue")
    ap.add_argument("--seed", type=int, default=None, help="libFuzzer random seed")
    ap.add_argument("--repro", nargs="+", metavar="FILE", help="run the target once on each file and report")
    ap.add_argument("libfuzzer_args", nargs="*", help="after --: passed to libFuzzer")
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(PURE_TARGETS + DIFF_TARGETS))
        return 0
    if not args.target:
        ap.error("--target is required")

    # Chosen before kafkacodec is imported: the pure targets run the twin through
    # the public API, the differential ones need both.
    if args.target in PURE_TARGETS:
        os.environ["KAFKACODEC_PURE"] = "1"
    else:
        os.environ.pop("KAFKACODEC_PURE", None)
    sys.path.insert(0, str(HERE))
    # kafkacodec from PYTHONPATH or an install when there is one (a snapshot
    # build, say); this checkout otherwise.
    sys.path.append(str(ROOT))
    assert "kafkacodec" not in sys.modules, "kafkacodec must be imported under instrumentation"

    import atheris
    with atheris.instrument_imports(include=["kafkacodec"]):
        import _targets
    import kafkacodec
    fn, needs_compiled, seed_kind = _targets.TARGETS[args.target]
    if needs_compiled and not _targets._impl.accelerated:
        sys.exit(f"{args.target} needs the compiled extension ({_targets._impl.load_error})")
    if args.target.startswith("arrow") and _targets.ka is None:
        sys.exit("the arrow targets need pyarrow")

    if args.repro:
        return _repro(fn, args.repro)
    workdir = pathlib.Path(args.workdir or os.path.join(tempfile.gettempdir(), "kafkacodec-fuzz", args.target))
    corpus = workdir / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    seeds_dir = pathlib.Path(tempfile.mkdtemp(prefix="seeds-", dir=workdir))
    n_seeds = _write_seeds(seed_kind, seeds_dir)
    print(f"campaign {args.target}: kafkacodec from {os.path.dirname(kafkacodec.__file__)}, "
          f"accelerated={_targets._impl.accelerated}, {n_seeds} seeds, corpus {corpus}", file=sys.stderr, flush=True)

    if args.keep_going:
        one_input = _wrap(fn, _FindingLog(workdir / "findings"), _targets.Finding, _targets._where)
    else:
        one_input = fn
    lf = [sys.argv[0], f"-max_len={args.max_len}", f"-timeout={args.timeout}", f"-rss_limit_mb={args.rss_limit_mb}",
          f"-artifact_prefix={workdir}/", "-print_final_stats=1"]
    if args.runs is not None:
        lf.append(f"-atheris_runs={args.runs}")
    if args.time is not None:
        lf.append(f"-max_total_time={args.time}")
    if args.seed is not None:
        lf.append(f"-seed={args.seed}")
    lf += args.libfuzzer_args + [str(corpus), str(seeds_dir)]
    atheris.Setup(lf, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    sys.exit(main())
