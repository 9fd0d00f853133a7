"""The README's client example as a new user runs it: against
kafkacodec-broker, subscribe() + poll(1.0) gets the record within the time
the README gives (about 3 s for the group to form), the consumer's INFO lines
say it is joining and what it was assigned, and assign() reads at once."""
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kafkacodec import embedded

pytestmark = [pytest.mark.broker]

README = Path(__file__).resolve().parents[2] / "README.md"
MARK = "<!-- tests/client/test_first_poll.py runs this block against kafkacodec-broker -->"


def _example() -> str:
    text = README.read_text()
    assert MARK in text, "the README's client example lost its marker"
    block = text.split(MARK, 1)[1]
    return block.split("```python\n", 1)[1].split("```", 1)[0]


def test_readme_client_example_gets_records_within_its_documented_time(tmp_path):
    try:
        embedded.tansu_binary()
    except embedded.TansuUnavailable as exc:
        pytest.skip(str(exc))
    broker = subprocess.Popen([sys.executable, "-m", "kafkacodec.embedded", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        m = re.search(r"bootstrap servers: (127\.0\.0\.1:\d+)", broker.stdout.readline())
        assert m, broker.stderr.read()
        script = tmp_path / "example.py"
        script.write_text(_example().replace("127.0.0.1:9092", m.group(1)))
        t0 = time.monotonic()
        run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
        took = time.monotonic() - t0
        assert run.returncode == 0, run.stderr[-3000:]
    finally:
        os.kill(broker.pid, signal.SIGINT)
        assert broker.wait(30) == 0

    assert re.search(r"^events \d+ 0 b'k' b'value' [\[(]\('h', b'1'\),?[\])]$", run.stdout, re.M), run.stdout
    assert "1 rows" in run.stdout
    assert re.search(r"group g: joining \(topics: events\)", run.stderr), run.stderr[-2000:]
    joined = re.search(r"group g: joined generation \d+ as leader in ([\d.]+) s; assigned \d+ partition\(s\): "
                       r"events-0", run.stderr)
    assert joined, run.stderr[-2000:]
    # "about 3 s" (half of session.timeout.ms=6000), where Kafka's default 45 s made it 23 s
    assert float(joined.group(1)) <= 5.0, joined.group(0)
    assert took < 20, took
