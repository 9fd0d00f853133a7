"""Topic ids in kafka-live's offsets, without a broker: how they are written
and read, what bad ones say, and that a broker answering the all-zero id
(one that keeps none) gets no comparison, while a changed id is data loss.
The broker side (Tansu) is in test_live_data_loss.py."""
import json
import uuid

import pytest

pytest.importorskip("pyspark")

from kafkacodec.client import TopicPartition  # noqa: E402
from kafkacodec.client.admin import TopicDescription  # noqa: E402
from kafkacodec.spark import _live_offsets  # noqa: E402
from kafkacodec.spark._live_options import LiveError, parse_live_options, topic_id_text  # noqa: E402

OLD = topic_id_text(uuid.UUID(int=1))
NEW = topic_id_text(uuid.UUID(int=2))


def test_topic_id_text_is_kafkas_and_zero_is_none():
    assert topic_id_text(uuid.UUID(int=1)) == "AAAAAAAAAAAAAAAAAAAAAQ"  # as kafka-topics.sh prints it
    assert topic_id_text(uuid.UUID(int=0)) is None
    assert topic_id_text(None) is None


def test_offset_options_carry_topic_ids():
    o = parse_live_options({"kafka.bootstrap.servers": "b:9092", "subscribe": "t",
                            "startingOffsets": json.dumps({"t": {"0": 5, "topicId": OLD}}),
                            "endingOffsets": json.dumps({"t": {"0": 9, "topicId": NEW}})})
    assert o.starting == {("t", 0): 5} and o.starting_topic_ids == {"t": OLD}
    assert o.ending == {("t", 0): 9} and o.ending_topic_ids == {"t": NEW}
    plain = parse_live_options({"kafka.bootstrap.servers": "b:9092", "subscribe": "t",
                                "startingOffsets": json.dumps({"t": {"0": 5}})})
    assert plain.starting == {("t", 0): 5} and plain.starting_topic_ids is None


@pytest.mark.parametrize("option, doc, message", [
    ("startingOffsets", {"t": {"0": 5, "topicId": "nope"}},
     "option startingOffsets: topicId of topic 't' must be a Kafka topic id (22 base64url characters), not 'nope'"),
    ("startingOffsets", {"t": {"0": 5, "topicId": "AAAAAAAAAAAAAAAAAAAAAR"}},  # not the canonical spelling
     "option startingOffsets: topicId of topic 't' must be a Kafka topic id"),
    ("endingOffsets", {"t": {"zero": 5}}, "option endingOffsets: t[zero]: 'zero' is not a partition number"),
    ("endingOffsets", {"t": {"0": 1.5}}, "option endingOffsets: t[0]: offset 1.5 is not a whole number"),
    ("startingOffsetsByTimestamp", {"t": {"0": 5, "topicId": OLD}},
     "option startingOffsetsByTimestamp: t[topicId]: 'topicId' is not a partition number"),
    ("startingOffsets", {"t": [0, 1]}, "option startingOffsets: offsets of topic 't' must be JSON like"),
])
def test_bad_offsets_json_names_the_option_and_place(option, doc, message):
    with pytest.raises(LiveError) as info:
        parse_live_options({"kafka.bootstrap.servers": "b:9092", "subscribe": "t", option: json.dumps(doc)})
    assert str(info.value).startswith(message), str(info.value)


class _Admin:
    """Metadata with the given topic id; offsets from ``ends`` (latest) and 0 (earliest)."""

    def __init__(self, topic_id, ends):
        self.topic_id = topic_id
        self.ends = ends
        self.asked = []

    def topic_metadata(self, names=None, *, timeout=None):
        self.asked.append(names)
        return {"t": TopicDescription("t", self.topic_id, False, [object()] * len(self.ends))}


def _reader(monkeypatch, admin, **extra):
    from kafkacodec.spark._live_source import KafkaLiveStreamReader, live_schema

    monkeypatch.setattr(_live_offsets, "latest_offsets",
                        lambda a, tps, level, **kw: {tp: a.ends[tp.partition] for tp in tps})
    monkeypatch.setattr(_live_offsets, "earliest_offsets", lambda a, tps, **kw: {tp: 0 for tp in tps})
    names = extra if "assign" in extra else {"subscribe": "t", **extra}
    opts = parse_live_options({"kafka.bootstrap.servers": "b:9092", **names}, streaming=True)
    reader = KafkaLiveStreamReader(opts, live_schema())
    reader._admin_client = admin
    return reader


def test_offsets_carry_the_topic_id_from_the_metadata_already_asked_for(monkeypatch):
    admin = _Admin(uuid.UUID(int=2), {0: 300, 1: 7})
    reader = _reader(monkeypatch, admin)
    assert reader.latestOffset({"t": {"0": 300, "1": 7, "topicId": NEW}}, None) == \
        {"t": {"0": 300, "1": 7, "topicId": NEW}}
    assert admin.asked == [None]  # the one metadata request that lists the topics


def test_a_changed_topic_id_is_data_loss(monkeypatch):
    reader = _reader(monkeypatch, _Admin(uuid.UUID(int=2), {0: 300}))
    with pytest.raises(LiveError, match=r"^failOnDataLoss: t\[0\]: the last batch ended at offset 100, the new topic "
                                        rf"holds offsets 0 to 300; topic t was deleted and recreated \(topic id {OLD} "
                                        rf"is now {NEW}\)"):
        reader.latestOffset({"t": {"0": 100, "topicId": OLD}}, None)


def test_the_all_zero_topic_id_is_not_compared(monkeypatch):
    """A broker that answers the all-zero id keeps no ids: nothing is written
    or compared, and the stream goes on from where it was."""
    reader = _reader(monkeypatch, _Admin(uuid.UUID(int=0), {0: 300}))
    assert reader.initialOffset() == {"t": {"0": 300}}
    end = reader.latestOffset({"t": {"0": 100, "topicId": OLD}}, None)
    assert end == {"t": {"0": 300}}
    parts = reader.partitions({"t": {"0": 100, "topicId": OLD}}, end)
    assert [(p.range.start, p.range.end) for p in parts] == [(100, 300)]


def test_assigned_partitions_ask_for_their_topics_metadata(monkeypatch):
    """assign names partitions without listing topics: their topics' ids are
    asked for, not taken from a view that may be minutes old."""
    admin = _Admin(uuid.UUID(int=2), {0: 300})
    reader = _reader(monkeypatch, admin, assign=json.dumps({"t": [0]}))
    with pytest.raises(LiveError, match="topic t was deleted and recreated"):
        reader.latestOffset({"t": {"0": 100, "topicId": OLD}}, None)
    assert admin.asked == [{"t"}]


def test_journaled_offsets_that_are_not_offsets_are_a_clear_error(monkeypatch):
    reader = _reader(monkeypatch, _Admin(uuid.UUID(int=2), {0: 300}))
    with pytest.raises(LiveError, match=r"^kafka-live stream offsets: t\[x\]: 'x' is not a partition number$"):
        reader.partitions({"t": {"x": 1}}, {"t": {"0": 2}})


def test_a_topic_id_on_one_side_only_is_not_compared(monkeypatch):
    reader = _reader(monkeypatch, _Admin(uuid.UUID(int=2), {0: 300}))
    for start, end in (({"t": {"0": 100}}, {"t": {"0": 300, "topicId": NEW}}),
                       ({"t": {"0": 100, "topicId": OLD}}, {"t": {"0": 300}})):
        parts = reader.partitions(start, end)
        assert [(p.range.start, p.range.end) for p in parts] == [(100, 300)]
    assert TopicPartition("t", 0) not in {e[0] for e in reader._warned}
