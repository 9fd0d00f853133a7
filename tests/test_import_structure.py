"""The package's structure, checked with import-linter ([tool.importlinter] in pyproject.toml):
the layers (records and protocol, Arrow, log directories, the client, then Spark, the faces
and adapters, then the command line) import only downward; the client's modules form no
import circle at run time (late imports inside functions count; imports only for type
checkers do not); the client's value types import no other client module."""
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("importlinter")

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_import_contracts_hold(tmp_path):
    proc = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()", "--no-cache"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "BROKEN" not in proc.stdout and "KEPT" in proc.stdout
