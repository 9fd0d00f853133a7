"""Consumer.position() as librdkafka's: the offset after the last message consumed from each partition,
OFFSET_INVALID before one since its assignment or last seek (confluent-kafka's asyncio example prints
position() of partitions it has not consumed from yet)."""
import time
import uuid

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")
import _peers  # noqa: E402

from kafkacodec.compat import confluent_kafka as face  # noqa: E402


def _positions_through_a_session(module, bootstrap, topic):
    TP = module.TopicPartition
    c = module.Consumer({"bootstrap.servers": bootstrap, "group.id": f"g-{uuid.uuid4().hex[:6]}",
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    both = [TP(topic, 0), TP(topic, 1)]
    seen = []

    def note(what):
        seen.append((what, [tp.offset for tp in c.position(both)]))
        # the leader epoch of the last message consumed, None before one (Tansu writes epoch 0)
        seen.append(("epochs", [tp.leader_epoch for tp in c.position(both)]))

    c.assign([TP(topic, 0, 2), TP(topic, 1, 4)])  # partition 1 at its end: never consumed from
    note("assigned")
    time.sleep(1)  # fetching meanwhile: still nothing consumed
    note("fetching")
    msg = c.poll(20)
    note(f"consumed {msg.partition()}@{msg.offset()}")
    c.seek(TP(topic, 0, 1))
    note("seek")
    msg = c.poll(20)
    note(f"consumed {msg.partition()}@{msg.offset()}")
    c.close()
    return seen


def test_position_is_the_last_consumed_offset_plus_one_as_confluent_kafka(tansu):
    topic = f"position-{uuid.uuid4().hex[:6]}"
    _peers.create_topic(tansu, topic, 2)
    for p in (0, 1):
        _peers.produce_with_confluent(tansu, topic, [(b"k", b"v%d" % i) for i in range(4)], partition=p)
    theirs = _positions_through_a_session(confluent_kafka, tansu, topic)
    ours = _positions_through_a_session(face, tansu, topic)
    invalid = face.OFFSET_INVALID
    offsets, epochs = ours[::2], ours[1::2]
    assert offsets[:2] == [("assigned", [invalid, invalid]), ("fetching", [invalid, invalid])]
    assert offsets[2] == ("consumed 0@2", [3, invalid])
    assert offsets[3] == ("seek", [invalid, invalid])
    assert offsets[4] == ("consumed 0@1", [2, invalid])
    assert [e for _, e in epochs] == [[None, None]] * 2 + [[0, None], [None, None], [0, None]]
    assert ours == theirs
