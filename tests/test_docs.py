"""The documentation site builds strictly, its generated tables hold what the code has, and the
README keeps its promises (the two set-up commands, its length, links that lead somewhere)."""
from __future__ import annotations

import html
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MAIN_JOB = ("python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[spark]' && "
            "kafkacodec-spark pipeline --demo")
TEST_LINE = "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[test]' && python -m pytest"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    pytest.importorskip("mkdocstrings_handlers.python", reason="the docs extra is not installed")
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1")
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=240, env=env)
    took = time.monotonic() - started
    problems = [line for line in proc.stderr.splitlines() if re.match(r"\s*(WARNING|ERROR)\b", line)]
    assert proc.returncode == 0 and not problems, "\n".join(problems) or proc.stderr[-3000:]
    print(f"mkdocs build --strict: {took:.1f} s")
    return out


def text_of(page: Path) -> str:
    body = page.read_text()
    body = re.sub(r"<[^>]+>", " ", body)
    return html.unescape(body)


def test_site_builds_strictly_with_every_page(site):
    import yaml

    class _Loader(yaml.SafeLoader):  # mkdocs.yml's !!python tags are not used; plain YAML
        pass

    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=_Loader)

    def pages(nav):
        for item in nav:
            for value in item.values():
                yield from (pages(value) if isinstance(value, list) else [value])

    listed = set(pages(config["nav"]))
    on_disk = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert listed == on_disk, (sorted(on_disk - listed), sorted(listed - on_disk))
    for page in listed:
        built = site / (page[:-len(".md")].removesuffix("index") + "/index.html").lstrip("/")
        assert built.exists(), page
    assert (site / "benchmarks" / "latest.png").exists()


def test_reference_shows_the_api_with_docstrings(site):
    client = text_of(site / "reference" / "client" / "index.html")
    for name in ("send_arrow", "poll_arrow", "init_transactions", "create_topics", "AsyncProducer",
                 "AsyncConsumer", "ShareConsumer"):
        assert name in client, name
    primitives = text_of(site / "reference" / "primitives" / "index.html")
    # the compiled module: its stub's types and its Cython docstring, not Cython's signature
    assert "crc32c(data:ReadableBuffer,value:int=0)->int" in re.sub(r"\s+", "", primitives)
    assert "CRC-32C (Castagnoli)" in primitives
    assert ":class:" not in primitives and "int64_t" not in text_of(site / "reference" / "records" / "index.html")


def test_generated_tables_hold_every_setting_and_option(site):
    from kafkacodec.client.config import ADMIN, CONSUMER, PRODUCER
    from kafkacodec.spark import _live_options

    settings = text_of(site / "reference" / "settings" / "index.html")
    for name in [*PRODUCER, *CONSUMER, *ADMIN]:
        assert name in settings, name
    options = text_of(site / "reference" / "spark-options" / "index.html")
    for name in _live_options._SPARK_NAMES.values():
        assert name in options, name
    from kafkacodec import protocol
    apis = text_of(site / "reference" / "protocol" / "index.html")
    for name in protocol.API_NAMES:
        assert f"{name}Request" in apis, name


def test_readme_is_short_and_keeps_the_two_commands():
    text = README.read_text()
    assert len(text.splitlines()) <= 300
    assert MAIN_JOB in text and TEST_LINE in text
    assert "kafkacodec.spark" in text and "KafkaLiveDataSource" in text
    assert "mkdocs build" in text


def test_readme_and_pages_link_to_files_that_exist():
    generated = {ROOT / "docs" / "benchmarks" / "latest.png"}  # added by docs/_hooks.py
    for page in [README, *(ROOT / "docs").rglob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target:
                continue
            path = page.parent / target
            assert path.exists() or path in generated, f"{page.relative_to(ROOT)} links to {target}"


def _report_cells() -> dict[tuple[str, str], dict[str, str]]:
    """bench/results/latest.md's table: {(workload, op): {column: cell}}."""
    lines = [line for line in (ROOT / "bench" / "results" / "latest.md").read_text().splitlines()
             if line.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[(cells[0], cells[1])] = dict(zip(head, cells))
    return rows


def test_readme_codec_figures_are_the_committed_report():
    rows = _report_cells()
    readme = README.read_text()

    def figure(workload, op, column):
        m = re.match(r"([\d.]+) (?:M/s|GB/s) \(([\d.]+x)\)", rows[(workload, op)][column])
        assert m, (workload, op, column)
        return float(m.group(1)), m.group(2)

    for op, column in (("decode", "kafkacodec"), ("decode", "kafkacodec-arrow"), ("build", "kafkacodec"),
                       ("build", "kafkacodec-bulk")):
        rate, ratio = figure("W1", op, column)
        assert ratio in readme and (f"{rate:.2f}" in readme or f"{rate:.1f}" in readme), \
            f"README's figures differ from bench/results/latest.md: W1 {op} {column} is {rate} ({ratio})"
    for workload in ("CRC-32C 64 MiB buffer", "CRC-32C 16 KiB buffers x4096"):
        ours, _ = figure(workload, "crc", "kafkacodec")
        theirs, _ = figure(workload, "crc", "crc32c-pkg")
        assert f"{ours / theirs:.2f}x" in readme and f"{ours:.1f}" in readme, \
            f"README's figures differ from bench/results/latest.md: {workload} {ours} GB/s, {ours / theirs:.2f}x crc32c"
