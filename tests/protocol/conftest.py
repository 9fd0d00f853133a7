import pytest

from kafkacodec.protocol import _pure_codec

EXECUTORS = [_pure_codec]
try:
    from kafkacodec.protocol import _codec
    EXECUTORS.insert(0, _codec)
except ImportError:
    pass


@pytest.fixture(params=EXECUTORS, ids=lambda m: "c" if m.__name__.endswith("._codec") else "py")
def codec(request):
    return request.param
