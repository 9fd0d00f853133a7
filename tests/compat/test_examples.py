"""confluent-kafka programs run twice against Tansu: as written (confluent_kafka) and with
only the import changed to kafkacodec.compat.confluent_kafka; what they print and what
lands on the broker must be the same."""
import pathlib
import subprocess
import sys
import uuid

import pytest

pytest.importorskip("confluent_kafka")
import _peers  # noqa: E402

EXAMPLES = pathlib.Path(__file__).parent / "examples"
FACE_IMPORT = "from kafkacodec.compat.confluent_kafka import"
LINES = [f"key-{i % 7}\tvalue {i}" for i in range(60)]


def _program(name, face, tmp_path):
    """The example's path; for the face, a copy whose import lines are the only change."""
    text = (EXAMPLES / name).read_text()
    if not face:
        return EXAMPLES / name
    changed = text.replace("from confluent_kafka import", FACE_IMPORT)
    diff = [(a, b) for a, b in zip(text.splitlines(), changed.splitlines()) if a != b]
    assert diff and all(a.startswith("from confluent_kafka import") for a, _ in diff)
    path = tmp_path / f"face_{name}"
    path.write_text(changed)
    return path


def _run(path, args, stdin="", timeout=150):
    proc = subprocess.run([sys.executable, str(path), *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def _normalized(out, topic):
    return sorted(line.replace(topic, "TOPIC") for line in out.splitlines())


def _on_broker(bootstrap, topic, n):
    rows = _peers.consume_with_confluent(bootstrap, topic, n, timeout=30)
    return [(key, value, headers, offset, partition) for key, value, headers, _ts, offset, partition in rows]


def test_producer_and_consumer_examples_print_the_same(tansu, tmp_path):
    outputs = {}
    topics = {}
    for face in (False, True):
        topic = topics[face] = f"examples-{'face' if face else 'ck'}-{uuid.uuid4().hex[:6]}"
        _peers.create_topic(tansu, topic, 3)
        produced = _run(_program("producer.py", face, tmp_path), [tansu, topic], "\n".join(LINES) + "\n")
        consumed = _run(_program("consumer.py", face, tmp_path),
                        [tansu, f"g-{uuid.uuid4().hex[:6]}", str(len(LINES)), topic])
        outputs[face] = (_normalized(produced, topic), _normalized(consumed, topic))
    ck_produced, ck_consumed = outputs[False]
    face_produced, face_consumed = outputs[True]
    assert sum("Message delivered" in line for line in ck_produced) == len(LINES)
    assert face_produced == ck_produced
    assert sum("at offset" in line and "with key" in line for line in ck_consumed) == len(LINES)
    assert sum("reached end" in line for line in ck_consumed) == 3
    assert face_consumed == ck_consumed
    # the same records, in the same partitions at the same offsets, with the same headers
    assert _on_broker(tansu, topics[True], len(LINES)) == _on_broker(tansu, topics[False], len(LINES))
