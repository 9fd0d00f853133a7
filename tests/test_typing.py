"""``mypy --strict`` over the annotated modules ([tool.mypy] in pyproject.toml: the Spark package,
its command line and the confluent-kafka face) reports nothing.  mypy's cache (.mypy_cache) makes
a rerun take a few seconds; a cold run about ten."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("mypy")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_mypy_strict_passes():
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"mypy failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}"
    assert "Success: no issues found" in proc.stdout
