"""The face's ShareConsumer beside confluent-kafka's, the same program against the same mock
cluster (3 brokers; share groups start at the earliest offset here): what each polls, the
delivery counts, RELEASE and REJECT, commit_sync's answer and the acknowledgement callback."""
import time

import pytest

import _peers
from kafkacodec.compat import confluent_kafka as face

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def mock():
    try:
        with _peers.share_mock_cluster() as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


def _program(ck, bootstrap, topic, group):
    """A share consumer in explicit mode: RELEASE each record's first delivery of offsets divisible
    by 5, REJECT offsets ending in 1, ACCEPT the rest; the deliveries, commit answers, callbacks."""
    c = ck.ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group,
                          "share.acknowledgement.mode": "explicit", "fetch.wait.max.ms": 100})
    acked = []
    c.set_acknowledgement_commit_callback(lambda offsets, err: acked.append(
        ({(tp.topic, tp.partition): sorted(o) for tp, o in offsets.items()}, err)))
    c.subscribe([topic])
    deliveries = {}
    answers = []
    try:
        end = time.monotonic() + 4
        while time.monotonic() < end:
            batch = c.poll(0.2)
            assert isinstance(batch, ck.Messages) and len(batch) == batch.count()
            for msg in batch:
                assert msg.error() is None
                key = (msg.partition(), msg.offset())
                deliveries.setdefault(key, []).append((msg.delivery_count(), msg.value()))
                if msg.offset() % 5 == 0 and msg.delivery_count() == 1:
                    c.acknowledge(msg, ck.AcknowledgeType.RELEASE)
                elif msg.offset() % 10 == 1:
                    c.acknowledge(msg, ck.AcknowledgeType.REJECT)
                else:
                    c.acknowledge_offset(msg.topic(), msg.partition(), msg.offset())
            if len(batch):
                answers.append(c.commit_sync())
            if sum(len(v) for v in deliveries.values()) >= 60 + 12:
                break
        c.poll(0.1)  # callbacks of the last commit
    finally:
        c.close()
    return deliveries, answers, acked


def test_face_share_consumer_as_confluent_kafkas(mock):
    ck = pytest.importorskip("confluent_kafka")
    results = {}
    for name, lib in (("confluent", ck), ("face", face)):
        topic = f"share-face-{name}"
        _peers.create_topic(mock, topic, 2)
        _peers.produce_with_confluent(mock, topic, [(b"k", b"v%d" % i) for i in range(60)], partition=None)
        results[name] = _program(lib, mock, topic, f"g-{name}")
    (theirs, their_answers, their_acked), (ours, our_answers, our_acked) = results["confluent"], results["face"]
    assert sorted(theirs) == sorted(ours) and len(ours) == 60
    for key in theirs:
        assert [n for n, _ in ours[key]] == [n for n, _ in theirs[key]], key
    assert all(isinstance(tp, face.TopicPartition) and e is None for a in our_answers for tp, e in a.items())
    assert all(err is None for _, err in our_acked) and all(err is None for _, err in their_acked)
    got = {(p, o) for offsets, _ in our_acked for (_, p), os_ in offsets.items() for o in os_}
    assert got == set(ours)


def test_deserializing_share_consumer(mock):
    from kafkacodec.compat.confluent_kafka.serialization import StringDeserializer
    topic = "share-face-serde"
    _peers.create_topic(mock, topic, 1)
    _peers.produce_with_confluent(mock, topic, [(b"k%d" % i, b"v%d" % i) for i in range(5)])

    def key_deserializer(data, ctx):
        if data == b"k3":
            raise ValueError("no k3")
        return data.decode()

    c = face.DeserializingShareConsumer({"bootstrap.servers": mock, "group.id": "g-serde",
                                         "key.deserializer": key_deserializer,
                                         "value.deserializer": StringDeserializer("utf_8")})
    c.subscribe([topic])
    got = []
    try:
        deadline = time.monotonic() + 10
        while len(got) < 5 and time.monotonic() < deadline:
            got += c.poll(0.2).records()
    finally:
        c.close()
    by_offset = {m.offset(): m for m in got}
    assert sorted(by_offset) == list(range(5))
    assert by_offset[0].key() == "k0" and by_offset[0].value() == "v0" and by_offset[0].delivery_count() == 1
    bad = by_offset[3]
    assert bad.error().code() == face.KafkaError._KEY_DESERIALIZATION and bad.key() == b"k3"
