"""Commits of nothing (no stored offsets, offsets=[]): a synchronous one fails with _NO_OFFSET,
an asynchronous one returns and tells on_commit from the next poll, as confluent-kafka's do.
confluent-kafka's asyncio example commits before its first store_offsets()."""
import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")

from kafkacodec.compat import confluent_kafka as face  # noqa: E402


def _commits_of_nothing(module):
    """What each commit of nothing returns or raises, then what on_commit was told."""
    told = []
    c = module.Consumer({"bootstrap.servers": "127.0.0.1:9", "group.id": "g", "enable.auto.offset.store": False,
                         "on_commit": lambda err, partitions: told.append((err.code(), err.str(), partitions))})
    outcomes = []
    for kwargs in ({}, {"asynchronous": False}, {"offsets": []}, {"offsets": [], "asynchronous": False}):
        try:
            outcomes.append(("returned", c.commit(**kwargs)))
        except module.KafkaException as exc:
            outcomes.append(("raised", exc.args[0].code(), exc.args[0].str()))
    c.poll(0.5)
    c.close()
    return outcomes, told


def test_commits_of_nothing_as_confluent_kafka():
    theirs = _commits_of_nothing(confluent_kafka)
    ours = _commits_of_nothing(face)
    assert ours == theirs
    outcomes, told = ours
    assert outcomes[0] == ("returned", None)
    assert outcomes[1] == ("raised", face.KafkaError._NO_OFFSET, "Commit failed: Local: No offset stored")
    assert told == [(face.KafkaError._NO_OFFSET, "Local: No offset stored", [])] * 2


def test_an_asynchronous_commit_of_nothing_without_on_commit_says_nothing(caplog):
    c = face.Consumer({"bootstrap.servers": "127.0.0.1:9", "group.id": "g"})
    with caplog.at_level("WARNING", logger="kafkacodec"):
        assert c.commit() is None
        c.poll(0.2)
    c.close()
    assert not [r for r in caplog.records if "commit" in r.getMessage()]
