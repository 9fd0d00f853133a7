"""Directory names, open() dispatch and LogDir filtering."""
import pytest

import kafkacodec.logdir as logdir
from kafkacodec.logdir.writer import PartitionWriter
from logdir_helpers import build_batch


@pytest.mark.parametrize("name, want", [
    ("orders-0", ("orders", 0)),
    ("my-topic-12", ("my-topic", 12)),
    ("a.b_c-d-3", ("a.b_c-d", 3)),
    ("__consumer_offsets-49", ("__consumer_offsets", 49)),
    ("topic--1", ("topic-", 1)),
    ("orders", None),
    ("orders-", None),
    ("orders-x", None),
    ("-3", None),
    ("orders-0.3f8a2c6a0b3e4c1d9e8f7a6b5c4d3e2f-delete", None),
    ("orders-0.3f8a2c6a0b3e4c1d9e8f7a6b5c4d3e2f-future", None),
    ("orders-0.3f8a2c6a0b3e4c1d9e8f7a6b5c4d3e2f-stray", None),
    ("bad topic-0", None),
    ("lost+found", None),
])
def test_parse_partition_dir_name(name, want):
    assert logdir.parse_partition_dir_name(name) == want


def test_logdir_skips_non_partitions(tmp_path):
    for topic, n in [("a", 0), ("a", 1), ("b-x", 0), ("__consumer_offsets", 3), ("__cluster_metadata", 0)]:
        with PartitionWriter(tmp_path, topic, n) as w:
            w.append(build_batch([n]), assign_offsets=True)
    (tmp_path / "a-2.0123456789abcdef0123456789abcdef-delete").mkdir()
    (tmp_path / "a-3.0123456789abcdef0123456789abcdef-future").mkdir()
    (tmp_path / "lost+found").mkdir()
    (tmp_path / "meta.properties").write_text("# comment\nversion=1\nnode.id=4\n")
    (tmp_path / "recovery-point-offset-checkpoint").write_text("0\n0\n")

    d = logdir.open(tmp_path)
    assert isinstance(d, logdir.LogDir)
    assert d.meta_properties == {"version": "1", "node.id": "4"}
    assert sorted(d.ignored) == sorted(["a-2.0123456789abcdef0123456789abcdef-delete",
                                        "a-3.0123456789abcdef0123456789abcdef-future", "lost+found"])
    assert d.topics() == ["a", "b-x"]
    assert d.topics(include_internal=True) == ["__cluster_metadata", "__consumer_offsets", "a", "b-x"]
    assert [(p.topic, p.partition) for p in d.partitions()] == [("a", 0), ("a", 1), ("b-x", 0)]
    assert [(p.topic, p.partition) for p in d] == [("a", 0), ("a", 1), ("b-x", 0)]
    assert [p.partition for p in d.partitions("a")] == [0, 1]
    assert [p.topic for p in d.partitions(["__cluster_metadata"])] == ["__cluster_metadata"]
    assert len(d.partitions(include_internal=True)) == 5
    assert d.partition("a", 1) is d.partition("a", 1)
    with pytest.raises(KeyError):
        d.partition("a", 9)
    d.close()

    p = logdir.open(tmp_path / "b-x-0")
    assert isinstance(p, logdir.PartitionDir) and (p.topic, p.partition) == ("b-x", 0)
    assert isinstance(logdir.open(tmp_path / "b-x-0", kind="logdir"), logdir.LogDir)
    with pytest.raises(ValueError):
        logdir.open(tmp_path, kind="nonsense")
    with pytest.raises(NotADirectoryError):
        logdir.open(tmp_path / "meta.properties")
    # a partition directory under another name can still be opened explicitly
    (tmp_path / "b-x-0").rename(tmp_path / "copy")
    p = logdir.PartitionDir(tmp_path / "copy", "b-x", 0)
    assert p.next_offset == 1
    with pytest.raises(ValueError):
        logdir.PartitionDir(tmp_path / "copy")


def test_segment_files_and_strays(tmp_path):
    with PartitionWriter(tmp_path, "s", 0, segment_bytes=200) as w:
        for i in range(6):
            w.append(build_batch([i], value_size=100), assign_offsets=True)
    part = tmp_path / "s-0"
    (part / "00000000000000000002.snapshot").write_bytes(b"x")
    (part / "00000000000000000009.index").write_bytes(b"")  # index without a log: not a segment
    (part / "00000000000000000001.log.deleted").write_bytes(b"")
    p = logdir.open(part)
    assert [s.base_offset for s in p.segments] == list(range(6))
    assert all(s.txnindex_path is None for s in p.segments)
    assert p.segment_for(3).base_offset == 3 and p.segment_for(-1).base_offset == 0
    assert "s-0/00000000000000000005" in repr(p.segments[-1])


def test_offset_checkpoints(tmp_path):
    from kafkacodec.errors import CorruptDataError

    for n in (0, 1):
        with PartitionWriter(tmp_path, "t", n) as w:
            for i in range(5):
                w.append(build_batch([i]), assign_offsets=True)
    (tmp_path / "log-start-offset-checkpoint").write_text("0\n2\nt 0 3\nother 4 9\n")
    (tmp_path / "recovery-point-offset-checkpoint").write_text("0\n3\nt 0 5\n")
    d = logdir.open(tmp_path)
    assert d.checkpoint("log-start-offset-checkpoint") == {("t", 0): 3, ("other", 4): 9}
    assert d.checkpoint("replication-offset-checkpoint") == {}
    assert d.partition("t", 0).log_start_offset == 3
    assert d.partition("t", 1).log_start_offset == 0
    with pytest.raises(CorruptDataError) as err:
        d.checkpoint()
    assert err.value.path == "recovery-point-offset-checkpoint[1]"
    (tmp_path / "recovery-point-offset-checkpoint").write_text("0\n1\nt 0\n")
    with pytest.raises(CorruptDataError) as err:
        d.checkpoint()
    assert err.value.path == "recovery-point-offset-checkpoint[2]"


def test_sample_checkpoints(sample_root):
    d = logdir.open(sample_root)
    recovery = d.checkpoint()
    for p in d.partitions(include_internal=True):
        if (p.topic, p.partition) in recovery and p.topic != "__cluster_metadata":
            assert recovery[(p.topic, p.partition)] <= p.next_offset
        assert p.log_start_offset == p.segments[0].base_offset
