"""The documentation's examples run, so they cannot rot.

Every fenced ``python`` block of every page under docs/, and of the README, runs, a page's blocks in order in one
namespace (a later block may use what an earlier one made), in a temporary working directory.
A marker on the line before a block says what it needs:

- ``<!-- example: broker -->``: a Kafka broker; the embedded Tansu broker of the test session,
  whose address replaces ``127.0.0.1:9092`` in the block;
- ``<!-- example: spark -->``: a local SparkSession (the block's ``getOrCreate()`` gets it) and a
  broker as above; such a page is a slow test (``python -m pytest -m slow tests/test_docs_examples.py``);
- ``<!-- example: skip (why) -->``: not run, with the reason (a Spark cluster's URL, a broker
  feature the embedded one lacks); such blocks are counted and listed by
  ``test_examples_are_counted``.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DOC_BROKER = "127.0.0.1:9092"
_FENCE = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)
_MARKER = re.compile(r"<!-- example: (broker|spark|skip)(?: \((.+)\))? -->$")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    code: str
    needs: str          # "", "broker", "spark" or "skip"
    reason: str


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def blocks(page: Path) -> list[Block]:
    text = page.read_text()
    found = []
    for m in _FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = _MARKER.match(before.strip())
        needs, reason = (marker.group(1), marker.group(2) or "") if marker else ("", "")
        found.append(Block(_name(page), line, m.group(1), needs, reason))
    return found


PAGES = [p for p in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))] if blocks(p)]


def test_examples_are_counted():
    every = [b for p in PAGES for b in blocks(p)]
    skipped = [b for b in every if b.needs == "skip"]
    for b in skipped:
        assert b.reason, f"{b.page}:{b.line}: a skipped example says why: <!-- example: skip (why) -->"
    for b in every:  # the ones not run in this test run still compile
        compile(b.code, f"{b.page}:{b.line}", "exec")
    listing = "\n".join(f"  {b.page}:{b.line}: {b.reason}" for b in skipped)
    print(f"{len(every)} examples in {len(PAGES)} pages: {len(every) - len(skipped)} run, "
          f"{len(skipped)} not run:\n{listing}")
    assert len(every) - len(skipped) >= 20
    # a marker that is not right before a block is a mistake, not a skip
    for page in PAGES:
        text = page.read_text()
        for m in re.finditer(r"<!-- example:[^\n]*-->\n(?!```python\n)", text):
            raise AssertionError(f"{_name(page)}: {m.group(0).strip()} is not followed by a python block")


@pytest.fixture(scope="module")
def local_spark():
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        pytest.skip("Java is not available for Spark")
    from kafkacodec.spark.session import local_session

    session = local_session("local[2]", app_name="kafkacodec-docs", driver_memory="1g", shuffle_partitions=2,
                            extra={"spark.default.parallelism": "2"})
    yield session
    session.stop()


def _param(page: Path):
    needs = {b.needs for b in blocks(page)}
    marks = [pytest.mark.broker] if needs & {"broker", "spark"} else []
    if "spark" in needs:  # a Spark session and its Python workers: about a minute on 2 cores
        marks.append(pytest.mark.slow)
    return pytest.param(page, id=_name(page), marks=marks)


@pytest.mark.parametrize("page", [_param(p) for p in PAGES])
def test_page_examples_run(page, request, tmp_path, monkeypatch):
    todo = [b for b in blocks(page) if b.needs != "skip"]
    if not todo:
        pytest.skip("every example of this page is marked not to run")
    needs = {b.needs for b in todo}
    bootstrap = DOC_BROKER
    if needs & {"broker", "spark"}:
        bootstrap = request.getfixturevalue("tansu_bootstrap")
    if "spark" in needs:
        request.getfixturevalue("local_spark")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the examples' mkdtemp() directories too
    namespace: dict[str, object] = {"__name__": "__docs_example__"}
    for b in todo:
        code = b.code.replace(DOC_BROKER, bootstrap) if b.needs else b.code
        started = time.monotonic()
        exec(compile(code, f"{b.page}:{b.line}", "exec"), namespace)
        print(f"{b.page}:{b.line}: {time.monotonic() - started:.1f} s")
