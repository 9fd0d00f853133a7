"""Defects found by the fuzz campaigns (tests/fuzz/campaign.py), one minimal
reproducer each.  Each test states the correct behaviour, so it fails until the
codec is fixed.  The inputs are the minimised crash inputs, as hex."""
import struct

import pytest

from kafkacodec.errors import CorruptDataError
from kafkacodec.logdir._index import parse_time_index


def test_time_index_decreasing_timestamp_across_int64_overflow():
    # target `index`: the second timestamp is below the first, but the
    # difference overflows int64 in np.diff and wraps to a positive number, so the
    # "timestamps never decrease" check passes and the entries are returned.
    raw = bytes.fromhex("000000000000006400000000" "800000000000003200000001")
    assert raw == struct.pack(">qi", 100, 0) + struct.pack(">qi", -2**63 + 50, 1)
    with pytest.raises(CorruptDataError) as info:
        parse_time_index(raw, 0, "0.timeindex")
    assert info.value.offset == 12 and info.value.path == "0.timeindex[1]"
