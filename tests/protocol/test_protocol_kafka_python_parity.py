"""An independent implementation agrees on the bytes: kafka-python 3's protocol classes.

For every message both know, our fully populated encoding is decoded by
kafka-python and re-encoded by it; the bytes must come back unchanged.
"""
import pytest

from kafkacodec.protocol import SPECS, encode_message

from protocol_helpers import plan_of, populate

kafka = pytest.importorskip("kafka")


def _kafka_python_classes():
    try:
        import kafka.protocol.admin  # noqa: F401  (registers the classes)
        import kafka.protocol.consumer  # noqa: F401
        import kafka.protocol.metadata  # noqa: F401
        import kafka.protocol.producer  # noqa: F401
        from kafka.protocol.api_message import ApiMessage
    except ImportError:
        return {}
    out = {}
    todo = [ApiMessage]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if hasattr(cls, "valid_versions") and cls.__name__ in SPECS:
            out[cls.__name__] = cls
    return out


CLASSES = _kafka_python_classes()
CASES = [(name, v) for name, cls in sorted(CLASSES.items())
         for v in range(cls.valid_versions[0], cls.valid_versions[1] + 1) if v in SPECS[name].versions]


def test_enough_overlap():
    if not CLASSES:
        pytest.skip("kafka-python 3 protocol classes not available")
    assert len(CASES) > 300


# kafka-python 3.0.12: DeleteTopicsRequest.encode() fails on a decoded object
# (AttributeError on `_header`).
KAFKA_PYTHON_BUGS = {"DeleteTopicsRequest"}


@pytest.mark.parametrize("name,version", CASES, ids=[f"{n}-v{v}" for n, v in CASES])
def test_kafka_python_reencodes_our_bytes(name, version):
    if name in KAFKA_PYTHON_BUGS:
        pytest.skip("kafka-python cannot re-encode this message")
    spec = SPECS[name]
    msg = populate(plan_of(spec, version))
    if name == "ApiVersionsResponse":
        msg.error_code = 0  # kafka-python reads any error answer in the v0 layout
    ours = encode_message(msg, version)
    theirs = CLASSES[name].decode(ours, version=version)
    assert theirs.encode() == ours
