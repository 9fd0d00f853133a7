"""Fuzz targets under pytest.

    python -m pytest -m fuzz tests/fuzz      # every target for a few seconds (about a minute)

The long campaigns are a command: python -m tests.fuzz.campaign --target T --runs N.
KAFKACODEC_FUZZ_SECONDS sets the time per target here.  A finding fails the test
with the target's message (the crash input is left in the test's tmp_path).
"""
import os
import pathlib
import re
import subprocess
import sys

import pytest

pytest.importorskip("atheris")
import kafkacodec  # noqa: E402
from kafkacodec import _impl  # noqa: E402

HERE = pathlib.Path(__file__).parent
SECONDS = int(os.environ.get("KAFKACODEC_FUZZ_SECONDS", "5"))
# The targets import the same kafkacodec as this test process.
IMPORT_ROOT = str(pathlib.Path(kafkacodec.__file__).resolve().parents[1])
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [IMPORT_ROOT, os.environ.get("PYTHONPATH")]))}
PURE = ["records", "arrow", "protocol", "wrapped", "index"]
DIFF = ["records-diff", "arrow-diff", "protocol-diff", "wrapped-diff", "primitives-diff", "avro-diff"]


def campaign(target, tmp_path, *args, timeout=600):
    if target in DIFF and not _impl.accelerated:
        pytest.skip("differential targets need the compiled extension")
    if target.startswith("arrow"):
        pytest.importorskip("pyarrow")
    if target.startswith("avro"):
        pytest.importorskip("fastavro")
    cmd = [sys.executable, str(HERE / "campaign.py"), "--target", target, "--workdir", str(tmp_path),
           "--max-len", "4096", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=ENV)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        at = out.find("Uncaught Python exception")
        crash = re.search(r"Test unit written to (\S+)", out)
        pytest.fail(f"{target}: {out[at:at + 3000] if at >= 0 else out[-6000:]}\n"
                    f"input: {crash.group(1) if crash else '?'} "
                    f"(rerun: python -m tests.fuzz.campaign --target {target} --repro FILE)", pytrace=False)
    assert f"kafkacodec from {os.path.dirname(kafkacodec.__file__)}" in out, out[-2000:]
    done = re.search(r"Done (\d+)", out)
    assert done, out[-3000:]
    return int(done.group(1)), out


@pytest.mark.fuzz
@pytest.mark.timeout(900)
@pytest.mark.parametrize("target", PURE + DIFF)
def test_fuzz_target(target, tmp_path):
    runs, out = campaign(target, tmp_path, "--time", str(SECONDS), "--seed", "1")
    assert runs > 50, out[-3000:]


@pytest.mark.parametrize("target", [t for t in DIFF] + ["index"])
def test_target_seeds(target):
    """Each target passes over its own seeds (valid input; default suite, in
    process).  The differential targets run the pure twin too, which is what the
    pure targets run."""
    targets = _targets_module()
    import _seeds
    fn, _, kind = targets.TARGETS[target]
    if target in ("arrow-diff", "wrapped-diff") and targets.ka is None:
        pytest.skip("needs pyarrow")
    from _avro_target import avro_seeds
    seeds = {"records": _seeds.record_seeds, "protocol": _seeds.protocol_seeds, "index": _seeds.index_seeds,
             "wrapped": _seeds.wrapped_seeds, "avro": avro_seeds}[kind]()
    assert len(seeds) >= 5
    for seed in seeds:
        fn(seed)


def _targets_module():
    if not _impl.accelerated:
        pytest.skip("differential targets need the compiled extension")
    import _targets
    return _targets


def test_differential_target_reports_a_mismatch(monkeypatch):
    """The harness can fail: a pure twin that loses the last byte is caught."""
    targets = _targets_module()
    from _seeds import record_seeds
    data = record_seeds()[0]
    targets.records_diff(data)
    real = targets.P.iter_batches
    monkeypatch.setattr(targets.P, "iter_batches", lambda d, **kw: real(bytes(d)[:-1], **kw))
    with pytest.raises(targets.Finding, match="DIFFERENTIAL MISMATCH in records") as info:
        targets.records_diff(data)
    assert info.value.signature.startswith("records:mismatch:")


def test_target_reports_a_leaked_exception(monkeypatch):
    targets = _targets_module()

    def broken(*args, **kw):
        raise IndexError("leaked")
    monkeypatch.setattr(targets._pure_codec, "decode", broken)
    frame = bytes([1]) + (4).to_bytes(4, "big") + (7).to_bytes(4, "big")
    with pytest.raises(targets.Finding, match="pure raised IndexError"):
        targets.protocol_diff(frame)
