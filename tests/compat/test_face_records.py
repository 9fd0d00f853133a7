"""The aiokafka and kafka-python faces' records made from the client's: the compiled module
(kafkacodec/compat/_face_records.pyx) gives what its pure twin gives, its aiokafka ConsumerRecord
behaves as aiokafka's dataclass, and records left out of the cycle collector are only those no
cycle can run through."""
import copy
import dataclasses
import gc
import pickle
import random
import types
import weakref

import pytest

import kafkacodec
from kafkacodec.client.types import TopicPartition
from kafkacodec.compat import _face_records_py as twin
from kafkacodec.compat.kafka_python.structs import ConsumerRecord as KpRecord
from kafkacodec.records import RecordBatchBuilder, decode_records

if not kafkacodec.accelerated:
    pytest.skip("compiled extension not in use", allow_module_level=True)

from kafkacodec.compat import _face_records as compiled  # noqa: E402


def _records(topic, partition, rows, base=0):
    builder = RecordBatchBuilder(magic=2, base_offset=base)
    for ts, key, value, headers in rows:
        builder.append(ts, key, value, headers=headers)
    return decode_records(builder.build(), topic=topic, partition=partition)


def _rows(rng, n):
    rows = []
    for i in range(n):
        key = rng.choice([None, b"", b"k%d" % i])
        value = rng.choice([None, b"", b'{"n": %d}' % i])
        headers = rng.choice([[], [("h", b"v")], [("\u00e9t\u00e9", None), ("x", b"12")]])
        rows.append((1_000 + i, key, value, headers))
    return rows


def _poll(seed=7):
    """A poll's records as the client hands them out: runs of partitions, one partition twice."""
    rng = random.Random(seed)
    return (_records("a", 0, _rows(rng, 30)) + _records("b", 1, _rows(rng, 20))
            + _records("a", 0, _rows(rng, 10), base=30) + _records("a", 2, _rows(rng, 5)))


class ContextDeserializer:
    """kafka-python's Deserializer: deserialize(topic, headers, data)."""

    def deserialize(self, topic, headers, data):
        return (topic, list(headers), None if data is None else data.decode())


def _decode(data):
    return None if data is None else data.decode()


def _fields(record):
    return tuple(getattr(record, f.name) for f in dataclasses.fields(record))


@pytest.mark.parametrize("key_de,value_de", [(None, None), (_decode, None), (None, _decode), (_decode, _decode)])
def test_aiokafka_records_are_the_twins(key_de, value_de):
    records = _poll()
    got = compiled.AioRecords(key_de, value_de).by_partition(records)
    want = twin.AioRecords(key_de, value_de).by_partition(records)
    assert list(got) == list(want) == [TopicPartition("a", 0), TopicPartition("b", 1), TopicPartition("a", 2)]
    for tp in want:
        assert [_fields(r) for r in got[tp]] == [_fields(r) for r in want[tp]]
        assert [repr(r) for r in got[tp]] == [repr(r) for r in want[tp]]
    assert [r.offset for r in got[TopicPartition("a", 0)]] == list(range(40))
    one, twin_one = compiled.AioRecords(key_de, value_de).one, twin.AioRecords(key_de, value_de).one
    for r in records:
        assert _fields(one(r)) == _fields(twin_one(r))


@pytest.mark.parametrize("key_de,value_de", [(None, None), (_decode, ContextDeserializer()),
                                             (ContextDeserializer(), _decode)])
def test_kafka_python_records_are_the_twins(key_de, value_de):
    records = _poll()
    got = compiled.KpRecords(KpRecord, key_de, value_de).by_partition(records)
    want = twin.KpRecords(KpRecord, key_de, value_de).by_partition(records)
    assert got == want and list(got) == list(want)
    assert all(type(r) is KpRecord for run in got.values() for r in run)
    one, twin_one = compiled.KpRecords(KpRecord, key_de, value_de).one, twin.KpRecords(KpRecord, key_de, value_de).one
    for r in records:
        assert one(r) == twin_one(r)
    # kafka-python's serialized_header_size: the keys' UTF-8 bytes and the values' bytes
    sized = {r.serialized_header_size for run in got.values() for r in run}
    assert sized <= {-1, 2, len("\u00e9t\u00e9".encode()) + 3}


def test_a_deserializer_error_is_raised():
    def fail(data):
        raise ValueError("not mine")

    with pytest.raises(ValueError, match="not mine"):
        compiled.AioRecords(None, fail).by_partition(_poll())
    with pytest.raises(ValueError, match="not mine"):
        compiled.KpRecords(KpRecord, fail).one(_poll()[0])


def test_records_of_another_type_are_read_by_their_attributes():
    other = types.SimpleNamespace(topic="t", partition=4, offset=9, timestamp=5, timestamp_type=1, key=None,
                                  value=b"v", headers=[("h", b"x")], leader_epoch=3)
    rec = compiled.AioRecords().one(other)
    assert _fields(rec) == ("t", 4, 9, 5, 1, None, b"v", None, -1, 1, (("h", b"x"),))
    assert compiled.KpRecords(KpRecord).by_partition([other]) == twin.KpRecords(KpRecord).by_partition([other])
    assert compiled.KpRecords(KpRecord).one(other).leader_epoch == 3


def test_kafka_python_record_type_is_checked():
    with pytest.raises(TypeError):
        compiled.KpRecords(tuple)
    with pytest.raises(TypeError):
        compiled.KpRecords(dict)


def test_the_compiled_consumer_record_behaves_as_the_dataclass():
    args = ("t", 1, 5, 1_000, 0, b"k", {"v": 1}, None, 1, 7, (("h", b"x"),))
    rec, same = compiled.ConsumerRecord(*args), twin.ConsumerRecord(*args)
    assert _fields(rec) == _fields(same) and repr(rec) == repr(same)
    assert [f.name for f in dataclasses.fields(rec)] == [f.name for f in dataclasses.fields(same)]
    assert dataclasses.is_dataclass(rec) and dataclasses.asdict(rec) == dataclasses.asdict(same)
    assert dataclasses.replace(rec, offset=6).offset == 6 and rec.offset == 5
    names = [f.name for f in dataclasses.fields(same)]
    kw = compiled.ConsumerRecord(**dict(zip(names, args)))
    assert kw == rec and not (kw != rec) and kw != dataclasses.replace(rec, key=None)
    assert rec != same  # as a dataclass: another class is never equal
    with pytest.raises(TypeError):
        hash(rec)
    assert pickle.loads(pickle.dumps(rec)) == rec and copy.copy(rec) == rec and copy.deepcopy(rec) == rec
    assert weakref.ref(rec)() is rec
    # fields are member descriptors (plain slot reads), as the client's Record's
    assert type(compiled.ConsumerRecord.__dict__["value"]).__name__ == "member_descriptor"
    assert compiled.ConsumerRecord[str, bytes] is not None  # generic, as aiokafka's
    match rec:
        case compiled.ConsumerRecord(topic, partition, offset):
            assert (topic, partition, offset) == ("t", 1, 5)
    rec.value = "changed"
    assert rec.value == "changed"
    with pytest.raises(TypeError):
        compiled.ConsumerRecord("t", 1)
    looped, twin_looped = compiled.ConsumerRecord(*args), twin.ConsumerRecord(*args)
    looped.value, twin_looped.value = [looped], [twin_looped]
    assert repr(looped) == repr(twin_looped) and "value=[...]" in repr(looped)


def test_only_records_no_cycle_can_run_through_are_left_out_of_the_collector():
    records = _records("t", 0, [(1, None, b"v", []), (2, b"k", b"w", [("h", b"x")])])
    plain = compiled.AioRecords(None, _decode).by_partition(records)[TopicPartition("t", 0)]
    assert [gc.is_tracked(r) for r in plain] == [False, False]
    holding = compiled.AioRecords(None, lambda data: {"list": [data]}).by_partition(records)[TopicPartition("t", 0)]
    assert all(gc.is_tracked(r) for r in holding)
    mutable_empty = compiled.AioRecords(None, lambda data: {}).one(records[0])
    assert gc.is_tracked(mutable_empty)  # an empty dict is untracked until it holds a container

    # a field set to a container takes the record back in, so the cycle it makes is collected
    rec = plain[0]
    rec.value = [rec]
    assert gc.is_tracked(rec)
    gone = weakref.ref(rec)
    del rec, plain
    gc.collect()
    assert gone() is None
