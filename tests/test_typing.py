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


_ERROR_NAMES = """
from kafkacodec.client import errors as E
from kafkacodec.protocol.errors import ErrorCode

code: int = ErrorCode.NOT_LEADER_OR_FOLLOWER
retriable: bool = ErrorCode.NOT_LEADER_OR_FOLLOWER.retriable
description: str = E.ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.description
error: E.BrokerResponseError = E.NotLeaderOrFollowerError("moved")
E.error_for(ErrorCode.NO_SUCH_CODE_XYZ)
E.NoSuchCodeXyzError("typo")
"""


def test_mypy_knows_every_error_code_and_class(tmp_path):
    # The codes and classes are static (generated), so a misspelt one fails the check, not the run.
    (tmp_path / "names.py").write_text(_ERROR_NAMES)
    cmd = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
           "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "names.py")]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    errors = [line.split(" error: ", 1)[1] for line in proc.stdout.splitlines() if " error: " in line]
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert errors == ['"type[ErrorCode]" has no attribute "NO_SUCH_CODE_XYZ"  [attr-defined]',
                      'Module has no attribute "NoSuchCodeXyzError"  [attr-defined]'], proc.stdout
