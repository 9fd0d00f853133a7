"""One local SparkSession for all Spark tests, and a small generated demo directory.

Skips cleanly without pyspark or Java.  The session is local[2], bound to
127.0.0.1, with the UI off and few shuffle partitions, so the whole directory
runs in well under three minutes.
"""
import os
import shutil

import pytest



def _java_available() -> bool:
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", "java")):
        return True
    return shutil.which("java") is not None


@pytest.fixture(scope="session")
def spark():
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    if not _java_available():
        pytest.skip("Java is not available for Spark")
    from kafkacodec.spark.session import local_session

    session = local_session("local[2]", app_name="kafkacodec-tests", driver_memory="1g", shuffle_partitions=2,
                            extra={"spark.default.parallelism": "2"})
    yield session
    session.stop()


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    """A small demo directory (several segments per partition) and its DemoInfo."""
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    from kafkacodec.spark_cli.demo import generate_demo

    root = tmp_path_factory.mktemp("demo-logs")
    return generate_demo(root, records=12_000, segment_bytes=128 << 10)


@pytest.fixture(scope="session")
def samples_root(shared_dir):
    root = shared_dir / "kafka-log-samples"
    if not root.is_dir():
        pytest.skip(f"{root} not present")
    return root


class CountingFront:
    """Tansu whose advertised listener is a plain TCP front in this process
    that counts the bytes the broker sends to clients: every connection a
    Spark task makes passes through it, so a test can measure what a query
    fetched."""

    def __init__(self):
        import socket
        import threading

        self.sent = 0  # broker -> clients
        self._lock = threading.Lock()
        self._front = socket.create_server(("127.0.0.1", 0))
        self._front.settimeout(0.2)
        self.port = self._front.getsockname()[1]
        self.bootstrap = f"127.0.0.1:{self.port}"
        self._stop = threading.Event()
        self._sockets = []
        self.upstream_port = None

    def _pump(self, src, dst, count):
        try:
            while True:
                data = src.recv(1 << 16)
                if not data:
                    break
                if count:
                    with self._lock:
                        self.sent += len(data)
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(2)
                except OSError:
                    pass

    def accept(self):
        import socket
        import threading

        while not self._stop.is_set():
            try:
                client, _ = self._front.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.upstream_port), timeout=10)
            except OSError:
                client.close()
                continue
            client.settimeout(None)
            upstream.settimeout(None)
            self._sockets += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, True), daemon=True).start()

    def close(self):
        self._stop.set()
        self._front.close()
        for s in self._sockets:
            try:
                s.close()
            except OSError:
                pass


@pytest.fixture(scope="session")
def live_broker():
    """One Tansu broker for the live-source tests, behind a counting front
    (``.bootstrap``, ``.sent``); stopped by PID at the end of the session."""
    import subprocess
    import tempfile
    import threading
    import uuid

    from _peers import (SESSION_LIFETIME, PeerUnavailable, _lifetime_timer, _pdeathsig, _stop, free_port,
                        tansu_binary, wait_for_port)

    try:
        binary = tansu_binary()
    except PeerUnavailable as exc:
        pytest.skip(str(exc))
    front = CountingFront()
    front.upstream_port = free_port()
    args = [binary, "broker", "--cluster-id", f"kc-{uuid.uuid4().hex[:12]}",
            "--listener-url", f"tcp://127.0.0.1:{front.upstream_port}",
            "--advertised-listener-url", f"tcp://{front.bootstrap}", "--storage-engine", "memory://tansu/"]
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            preexec_fn=_pdeathsig)
    timer = _lifetime_timer(proc, SESSION_LIFETIME)
    acceptor = threading.Thread(target=front.accept, daemon=True)
    try:
        if not wait_for_port("127.0.0.1", front.upstream_port, 20, proc):
            log.seek(0)
            raise RuntimeError(f"Tansu did not start: {log.read()[-2000:].decode(errors='replace')}")
        acceptor.start()
        yield front
    finally:
        front.close()
        timer.cancel()
        _stop(proc)
        log.close()
