"""The compiled extension is used when present, and its absence is loud."""
import os
import subprocess
import sys

import pytest

import kafkacodec

SNIPPET = "import kafkacodec; print(kafkacodec.accelerated, kafkacodec.crc32c_implementation(), hex(kafkacodec.crc32c(b'123456789')))"


def _run(code, **env):
    return subprocess.run([sys.executable, "-c", code], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=60)


def test_accelerated_by_default():
    if os.environ.get("KAFKACODEC_PURE"):
        pytest.skip("pure implementation forced by environment")
    assert kafkacodec.accelerated is True
    from kafkacodec import _buffer, _crc  # noqa: F401


def test_pure_forced_by_environment():
    out = _run(SNIPPET, KAFKACODEC_PURE="1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "software", "0xe3069283"]
    assert "falling back" not in out.stderr  # forcing is deliberate, not a failure


def test_broken_extension_warns_loudly_and_still_works():
    blocker = (
        "import sys, importlib.abc\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'kafkacodec._buffer':\n"
        "            raise ImportError('simulated broken build')\n"
        "sys.meta_path.insert(0, Block())\n"
    )
    out = _run(blocker + SNIPPET, KAFKACODEC_PURE="")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "False"
    assert out.stdout.split()[2] == "0xe3069283"
    assert "simulated broken build" in out.stderr
    assert "pure-Python" in out.stderr


def test_every_compiled_module_imports():
    """A compiled module that fails to load (a stale or broken build) must fail
    the suite, not turn the tests that need it into skips."""
    import importlib
    import pathlib

    import kafkacodec
    if not kafkacodec.accelerated:
        pytest.skip("pure-Python mode")
    root = pathlib.Path(kafkacodec.__file__).parent
    modules = sorted("kafkacodec." + ".".join(p.relative_to(root).with_suffix("").parts)
                     for p in root.rglob("*.pyx"))
    assert modules
    failures = {}
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            failures[name] = str(exc)
    assert not failures


def test_unbuilt_checkout_says_it_is_not_built(tmp_path):
    # The package's sources without any compiled module, as a fresh clone is.
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    import kafkacodec

    src = Path(kafkacodec.__file__).parent
    shutil.copytree(src, tmp_path / "kafkacodec",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
    # -S: no site-packages, so the editable install's finder cannot supply the built package
    out = subprocess.run([sys.executable, "-S", "-c", "import kafkacodec; print(kafkacodec.accelerated)"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
    assert "kafkacodec is not built" in out.stderr and "pip install -e ." in out.stderr
    assert "circular import" not in out.stderr
