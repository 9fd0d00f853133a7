"""bench.run writes its Markdown table and chart itself; its cache stays out of git."""
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # bench/ is a top-level directory, not part of the package


def test_run_writes_table_and_chart_beside_json(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib", reason="the chart needs matplotlib (the bench extra)")
    from bench import run, workloads

    monkeypatch.setattr(workloads, "CACHE", tmp_path / "cache")
    out = tmp_path / "results" / "r.json"
    assert run.main(["--workloads", "W1", "--ops", "decode", "--adapters", "kafkacodec", "--scale", "0.002",
                     "--repeat", "1", "--json", str(out)]) == 0
    assert out.is_file()
    md = (tmp_path / "results" / "r.md").read_text()
    assert "| W1 | decode |" in md
    assert (tmp_path / "results" / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # --png alone (no JSON) draws the chart too
    png = tmp_path / "only.png"
    assert run.main(["--workloads", "W1", "--ops", "decode", "--adapters", "kafkacodec", "--scale", "0.002",
                     "--repeat", "1", "--png", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert not (tmp_path / "only.md").exists()


def test_bench_cache_is_ignored_by_git():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    probe = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", "bench/.cache/W1-0.1.bin"])
    assert probe.returncode == 0, "bench/.cache/ is not ignored by git"
