"""kafkacodec-broker / python -m kafkacodec.embedded: a broker for your own
topics, in the foreground, stopped by a signal to the command's PID (Ctrl-C
or SIGTERM), which stops the Tansu it started."""
import os
import re
import signal
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

import _peers


pytestmark = [pytest.mark.broker]

ROOT = Path(__file__).resolve().parent.parent


def _start(*args):
    proc = subprocess.Popen([sys.executable, "-m", "kafkacodec.embedded", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"pid (\d+)\).*bootstrap servers: (127\.0\.0\.1:\d+)", line)
    if m is None:
        proc.kill()
        raise AssertionError(f"no address line: {line!r} {proc.stderr.read()!r}")
    return proc, int(m.group(1)), m.group(2)


def test_help_says_what_it_does():
    out = subprocess.run([sys.executable, "-m", "kafkacodec.embedded", "--help"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0
    assert "usage: kafkacodec-broker" in out.stdout and "--port" in out.stdout and "Ctrl-C" in out.stdout


def test_console_script_is_the_same_command():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["kafkacodec-broker"] == "kafkacodec.embedded:main"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_serves_topics_until_stopped_by_pid(tansu_installed, sig):
    from kafkacodec.client import Consumer, Producer, TopicPartition

    proc, tansu_pid, bootstrap = _start("--port", "0")
    try:
        assert not _peers.pid_gone(tansu_pid)
        p = Producer({"bootstrap.servers": bootstrap})
        md = p.send("mine", b"hello").get(30)
        p.close()
        c = Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest"})
        c.assign([TopicPartition("mine", md.partition)])
        deadline = time.monotonic() + 20
        got = []
        while not got and time.monotonic() < deadline:
            got = c.poll(0.5)
        c.close()
        assert [r.value for r in got] == [b"hello"]

        os.kill(proc.pid, sig)  # Ctrl-C is SIGINT to the foreground process
        assert proc.wait(30) == 0
        assert "broker stopped" in proc.stdout.read()
        deadline = time.monotonic() + 10
        while not _peers.pid_gone(tansu_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _peers.pid_gone(tansu_pid), "the Tansu process outlived the command"
        port = int(bootstrap.rsplit(":", 1)[1])
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_port_in_use_is_one_line(tansu_installed):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "kafkacodec.embedded", "--port", str(port)],
                             capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert out.stderr.strip() == (f"kafkacodec-broker: port {port} on 127.0.0.1 is in use (another broker?); "
                                  "--port 0 picks a free one")
