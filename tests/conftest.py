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
