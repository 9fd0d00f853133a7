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
