"""Producer.send's compiled common case (kafkacodec.client.send_path): the same answers as
the general path for what it declines, handles outside the cycle collector, and
callbacks dropped once run (so a callback holding its handle leaves no cycle)."""
import gc
import uuid

import pytest

import kafkacodec
from kafkacodec.client import Producer, RecordHandle

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(60)]


def test_send_path_declines_to_the_general_path(tansu_bootstrap):
    topic = f"sp-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 2)
    with Producer({"bootstrap.servers": tansu_bootstrap, "linger.ms": 50}) as p:
        p.partitions_for(topic)
        first = p.send(topic, b"a", key=b"k")  # opens the batch (general path)
        fast = p.send(topic, b"b", key=b"k")   # appends to it
        assert type(fast) is RecordHandle and fast._result is first._result and fast._index == 1
        if kafkacodec.accelerated:
            assert not gc.is_tracked(fast)
        with pytest.raises(ValueError, match="partition True"):
            p.send(topic, b"x", partition=True)
        with pytest.raises(ValueError, match="partition 2"):
            p.send(topic, b"x", partition=2)
        with pytest.raises(ValueError, match="timestamp"):
            p.send(topic, b"x", key=b"k", timestamp=1 << 70)
        big_ts = p.send(topic, b"c", key=b"k", timestamp=1_700_000_000_123)
        seen = []
        held = p.send(topic, b"d", key=b"k", callback=lambda err, md: seen.append((held, md)))
        p.flush(30)
        assert [fast.get(0).offset, big_ts.get(0).offset, held.get(0).offset] == [1, 2, 3]
        assert big_ts.get(0).timestamp == 1_700_000_000_123
        assert seen == [(held, held.get(0))]
        assert held._result.callbacks == ()  # dropped once run
