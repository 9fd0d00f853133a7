import gzip
import types

import pytest


@pytest.fixture
def clean_adapters(monkeypatch):
    """Neither adapter installed before or after a test, and gzip headers
    stamped with a fixed time: builders compared byte for byte must not
    straddle a second."""
    from kafkacodec.integrations import aiokafka as kc_aio
    from kafkacodec.integrations import kafka_python as kc_kp
    monkeypatch.setattr(gzip, "time", types.SimpleNamespace(time=lambda: 1_700_000_000.0))
    kc_kp.uninstall()
    kc_aio.uninstall()
    yield
    kc_kp.uninstall()
    kc_aio.uninstall()
