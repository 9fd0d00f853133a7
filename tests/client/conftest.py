import collections
import pathlib
import sys
import uuid

import pytest

# tests/_peers.py lives one level up
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))


class Broker(collections.namedtuple("Broker", "kind bootstrap")):
    """A peer the client tests run against: ("mock" | "tansu", bootstrap servers)."""

    def topic(self, partitions, prefix="t"):
        """A new topic with a random name."""
        import _peers
        name = f"{prefix}-{uuid.uuid4().hex[:8]}"
        _peers.create_topic(self.bootstrap, name, partitions)
        return name


@pytest.fixture(scope="module", params=["mock", "tansu"])
def broker(request):
    """librdkafka's mock cluster (3 brokers) or Tansu, one of each per test module."""
    import _peers
    cm = _peers.mock_cluster(num_brokers=3) if request.param == "mock" else _peers.tansu_broker()
    try:
        with cm as bootstrap:
            yield Broker(request.param, bootstrap)
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


def _fresh_mock(brokers):
    import _peers
    try:
        with _peers.mock_cluster(num_brokers=brokers) as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture
def mock3():
    """A fresh librdkafka mock cluster of 3 brokers for one test (faults change its state)."""
    yield from _fresh_mock(3)


@pytest.fixture
def mock1():
    """A fresh librdkafka mock cluster of one broker for one test: every partition on it."""
    yield from _fresh_mock(1)
