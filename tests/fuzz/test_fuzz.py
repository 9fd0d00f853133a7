"""Fuzz campaigns (marked `fuzz`, not in the default run):

    python -m pytest -m fuzz tests/fuzz

Each target runs 200,000 executions in a subprocess; a finding fails the test.
"""
import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("atheris")

HERE = pathlib.Path(__file__).parent
RUNS = int(os.environ.get("KAFKACODEC_FUZZ_RUNS", "200000"))
ROOT = str(HERE.parents[1])
# The targets import kafkacodec from this checkout even when it is not installed.
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))}
TARGETS = sorted(p.name for p in HERE.glob("fuzz_*.py"))


@pytest.mark.fuzz
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("target", TARGETS)
def test_fuzz_target(target, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    proc = subprocess.run(
        [sys.executable, str(HERE / target), f"-atheris_runs={RUNS}", "-max_len=4096", "-timeout=10",
         "-rss_limit_mb=2048", str(corpus)],
        capture_output=True, text=True, timeout=3500, env=ENV)
    tail = (proc.stdout + proc.stderr)[-4000:]
    assert proc.returncode == 0, tail
    assert f"Done {RUNS} in" in tail, tail


def test_targets_smoke():
    """Each target survives its seeds and a few hundred runs (default suite)."""
    for target in TARGETS:
        proc = subprocess.run([sys.executable, str(HERE / target), "-atheris_runs=300", "-max_len=512"],
                              capture_output=True, text=True, timeout=300, env=ENV)
        assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
