"""The fetcher keeps draining partitions flowing when another partition of the
same broker is at its end: a Fetch holding only caught-up partitions would be
held by the broker for fetch.max.wait.ms, and everything behind it would wait."""
import time
import uuid

import pytest

import _peers
from kafkacodec.client import Consumer, TopicPartition

pytestmark = [pytest.mark.broker]


@pytest.mark.timeout(120)
def test_a_partition_at_its_end_does_not_stall_the_others(tansu_bootstrap):
    topic = f"pipe-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(tansu_bootstrap, topic, 2)
    _peers.produce_with_confluent(tansu_bootstrap, topic, [(b"k", b"short-%d" % i) for i in range(5)], partition=0)
    _peers.produce_with_confluent(tansu_bootstrap, topic, [(b"k", b"x" * 200) for _ in range(20000)], partition=1)
    # a long max wait makes any stall unmistakable: each would cost 4 s
    c = Consumer({"bootstrap.servers": tansu_bootstrap, "auto.offset.reset": "earliest",
                  "fetch.max.wait.ms": 4000, "max.partition.fetch.bytes": 64 * 1024})
    try:
        c.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        got = {0: 0, 1: 0}
        start = time.monotonic()
        while sum(got.values()) < 20005 and time.monotonic() - start < 60:
            for r in c.poll(1.0):
                got[r.partition] += 1
        elapsed = time.monotonic() - start
    finally:
        c.close()
    assert got == {0: 5, 1: 20000}
    # partition 1 needs ~60 fetches of 64 KiB; one stall behind partition 0 would already take 4 s
    assert elapsed < 4.0, f"{elapsed:.1f} s: a Fetch of the caught-up partition held the others"
