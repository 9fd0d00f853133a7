import logging
import pathlib
import sys
import uuid

import pytest

# tests/_peers.py lives one level up
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))


@pytest.fixture(scope="module")
def tansu():
    """A Tansu broker for the module; yields its bootstrap servers."""
    import _peers
    try:
        with _peers.tansu_broker() as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture
def topic_name():
    return lambda prefix="t": f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def face_logging_restored():
    """The face's logger, log_cb and debug settings configure the process's loggers (for every
    client, as confluent-kafka's do): put them back after the test, so that no later test sees
    kafkacodec's records handed on twice."""
    from kafkacodec.compat.confluent_kafka import _config
    names = {"kafkacodec"} | {n for ns in _config.DEBUG_CONTEXTS.values() for n in ns}
    saved = {n: (logging.getLogger(n).level, list(logging.getLogger(n).handlers), logging.getLogger(n).propagate)
             for n in names}
    yield
    for n, (level, handlers, propagate) in saved.items():
        logger = logging.getLogger(n)
        logger.setLevel(level)
        logger.handlers[:] = handlers
        logger.propagate = propagate
