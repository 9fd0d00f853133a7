"""buffer.memory bounds the memory the producer holds: with the broker down and the
producer full (send() blocks, then raises), the process's peak RSS has grown by
no more than 1.3 x buffer.memory.  The pool's buffers are the batches' buffers, so
nothing is held twice (issue 23, item 5).

The producer runs in a child process, so that its peak RSS is its own: it learns
the topic from a live broker, the broker is stopped, the child resets its
high-water mark and sends until memory runs out."""
import json
import subprocess
import sys
import textwrap

import pytest

_peers = pytest.importorskip("_peers")

BUFFER_MEMORY = 32 << 20

CHILD = textwrap.dedent("""
    import json, os, sys
    from kafkacodec.client import Producer
    from kafkacodec.client import errors as E

    bootstrap, topic, size, memory = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

    def status(field):
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        raise LookupError(field)

    p = Producer({"bootstrap.servers": bootstrap, "buffer.memory": memory, "max.block.ms": 1000,
                  "max.request.size": 4 << 20, "linger.ms": 5})
    p.send(topic, b"first").get(30)   # metadata and producer id, while the broker is up
    value = os.urandom(size)
    print("ready", flush=True)
    sys.stdin.readline()              # the broker is down now
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")              # VmHWM := VmRSS, so the peak below is this phase's
    except OSError:
        pass
    base = status("VmRSS")
    sent = 0
    error = None
    try:
        while sent < 4 * memory // size + 10:
            p.send(topic, value)
            sent += 1
    except E.KafkaTimeoutError as exc:
        error = str(exc)
    peak = status("VmHWM")
    print(json.dumps({"base": base, "peak": peak, "sent": sent, "error": error}), flush=True)
    p.close(0)
    os._exit(0)
""")


@pytest.fixture
def stoppable_broker():
    """A broker the test stops mid-way: (bootstrap, stop)."""
    try:
        cm = _peers.tansu_broker()
        bootstrap = cm.__enter__()
    except _peers.PeerUnavailable:
        try:
            cm = _peers.mock_cluster(num_brokers=1)
            bootstrap = cm.__enter__()
        except _peers.PeerUnavailable as e:
            pytest.skip(str(e))
    stopped = []

    def stop():
        if not stopped:
            stopped.append(True)
            cm.__exit__(None, None, None)

    try:
        yield bootstrap, stop
    finally:
        stop()


@pytest.mark.parametrize("size", [10 << 10, 1 << 20], ids=["10KB", "1MB"])
def test_peak_rss_within_buffer_memory_when_the_broker_is_down(stoppable_broker, size):
    bootstrap, stop = stoppable_broker
    topic = f"mem-{size}"
    _peers.create_topic(bootstrap, topic, 1)
    child = subprocess.Popen([sys.executable, "-c", CHILD, bootstrap, topic, str(size), str(BUFFER_MEMORY)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        stop()
        child.stdin.write("go\n")
        child.stdin.flush()
        out, _ = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    report = json.loads(out.strip().splitlines()[-1])
    # the producer was full: send() gave up waiting for memory, not for anything else
    assert report["error"] is not None and "no memory" in report["error"], report
    growth = report["peak"] - report["base"]
    assert growth <= 1.3 * BUFFER_MEMORY, (
        f"peak RSS grew by {growth / 2**20:.1f} MB for buffer.memory {BUFFER_MEMORY / 2**20:.0f} MB "
        f"({growth / BUFFER_MEMORY:.2f}x; {report['sent']} records of {size} bytes)")
    # and the memory was used, so the bound above is not met by doing nothing
    assert report["sent"] * size >= 0.5 * BUFFER_MEMORY, report
