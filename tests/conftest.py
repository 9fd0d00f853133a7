"""Shared fixtures.

`impl` parametrises a test over the compiled extension ("c") and the
pure-Python twin ("py"), so both run in the same pytest session.
"""
import os
import pathlib

import pytest

import kafkacodec._pure.buffer as pure_buffer
import kafkacodec._pure.crc as pure_crc

SHARED = pathlib.Path(__file__).resolve().parents[1].parent / "shared"
SHARED = pathlib.Path(os.environ.get("KAFKACODEC_SHARED", SHARED))


class Impl:
    def __init__(self, name, buffer, crc):
        self.name = name
        self.buffer = buffer
        self.crc = crc

    def __repr__(self):
        return self.name


def _impls():
    out = [Impl("py", pure_buffer, pure_crc)]
    try:
        from kafkacodec import _buffer, _crc
    except ImportError:
        return out
    return [Impl("c", _buffer, _crc)] + out


IMPLS = _impls()


@pytest.fixture(params=IMPLS, ids=lambda i: i.name)
def impl(request):
    return request.param


@pytest.fixture(scope="session")
def shared_dir():
    if not SHARED.is_dir():
        pytest.skip(f"shared data directory {SHARED} not present")
    return SHARED


# ---------------------------------------------------------------------------
# broker fixtures (tests/_peers.py): real peers on 127.0.0.1, stopped by PID.
# A test that uses one of these fixtures is marked `broker` automatically;
# when a peer cannot start here (package or binary missing) the test skips.
# ---------------------------------------------------------------------------
BROKER_FIXTURES = {"mock_bootstrap", "tansu_bootstrap"}


def _peer_fixture(start):
    import _peers

    try:
        cm = start()
        bootstrap = cm.__enter__()
    except _peers.PeerUnavailable as e:
        pytest.skip(f"broker peer unavailable: {e}")
    return cm, bootstrap


@pytest.fixture(scope="session")
def mock_bootstrap():
    """librdkafka mock cluster (3 brokers); create topics with _peers.create_topic."""
    import _peers

    cm, bootstrap = _peer_fixture(lambda: _peers.mock_cluster(num_brokers=3, lifetime=_peers.SESSION_LIFETIME))
    try:
        yield bootstrap
    finally:
        cm.__exit__(None, None, None)


@pytest.fixture(scope="session")
def tansu_bootstrap():
    """Tansu with in-memory storage; create topics with _peers.create_topic."""
    import _peers

    cm, bootstrap = _peer_fixture(lambda: _peers.tansu_broker(lifetime=_peers.SESSION_LIFETIME))
    try:
        yield bootstrap
    finally:
        cm.__exit__(None, None, None)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if BROKER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.broker)


@pytest.fixture(scope="session")
def tansu_installed():
    """Skips the test when the Tansu broker that kafkacodec.embedded starts is not installed."""
    from kafkacodec import embedded

    try:
        embedded.tansu_binary()
    except embedded.TansuUnavailable as exc:
        pytest.skip(str(exc))
