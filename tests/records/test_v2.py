"""RecordBatch v2: build/decode round trips, attributes, and parity with
aiokafka's and kafka-python's codecs (bytes we did not write)."""
import pytest
from hypothesis import given, settings, strategies as st

from kafkacodec.errors import CorruptDataError, CrcMismatchError, EncodeError, KafkaCodecError
from kafkacodec.records import RecordBatchBuilder, build_control_batch, decode_records, iter_batches

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


def build(records, **kw):
    b = RecordBatchBuilder(**kw)
    for rec in records:
        assert b.append(*rec) is not None
    return b.build()


def test_attributes_and_records():
    data = build([(1000, b"k0", b"v0", [("h", b"x"), ("n", None)]), (1005, None, None), (999, b"", b"")],
                 base_offset=42, producer_id=9, producer_epoch=3, base_sequence=17,
                 partition_leader_epoch=5)
    batches = list(iter_batches(data))
    assert len(batches) == 1
    b = batches[0]
    assert (b.magic, b.base_offset, b.last_offset, b.record_count) == (2, 42, 44, 3)
    assert (b.producer_id, b.producer_epoch, b.base_sequence, b.partition_leader_epoch) == (9, 3, 17, 5)
    assert (b.base_timestamp, b.max_timestamp, b.timestamp_type) == (1000, 1005, 0)
    assert b.compression == "none" and not b.is_transactional and not b.is_control
    assert not b.has_delete_horizon and b.size_in_bytes == len(data)
    recs = list(b)
    assert [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in recs] == [
        (42, 1000, b"k0", b"v0", (("h", b"x"), ("n", None))),
        (43, 1005, None, None, ()),
        (44, 999, b"", b"", ()),
    ]
    assert all(r.checksum is None and r.timestamp_type == 0 for r in recs)
    assert bytes(b.raw()) == data


def test_batch_view_keeps_source_alive_and_pins_bytearray():
    data = bytearray(build([(1, b"k", b"v")]))
    batches = list(iter_batches(data))
    with pytest.raises(BufferError):
        data.extend(b"more")  # the export pins the buffer while views exist
    del data
    assert list(batches[0])[0].value == b"v"


@pytest.mark.parametrize("codec", CODECS)
def test_compressed_roundtrip(codec):
    recs = [(1_700_000_000_000 + i, b"key-%d" % i, b'{"n": %d, "pad": "%s"}' % (i, b"x" * (i % 50)), [("i", str(i).encode())])
            for i in range(300)]
    data = build(recs, compression=codec, base_offset=1000)
    (b,) = iter_batches(data)
    assert b.compression == codec
    got = [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in b]
    assert got == [(1000 + i, ts, k, v, h) for i, (ts, k, v, h) in enumerate(recs)]


def test_transactional_and_control():
    data = build([(5, b"k", b"v")], producer_id=77, producer_epoch=2, is_transactional=True)
    (b,) = iter_batches(data)
    assert b.is_transactional and not b.is_control
    marker = build_control_batch("COMMIT", producer_id=77, producer_epoch=2, base_offset=1, coordinator_epoch=12)
    (m,) = iter_batches(marker)
    assert m.is_control and m.is_transactional
    assert m.control_record() == (0, "COMMIT")
    (rec,) = list(m)
    assert rec.control_type == "COMMIT" and rec.coordinator_epoch == 12 and rec.control_version == 0
    assert decode_records(data + marker) == list(iter_batches(data))[0].records()


def test_log_append_time():
    data = build([(5, b"k", b"v"), (6, b"k", b"v")], timestamp_type=1, log_append_time=123456)
    (b,) = iter_batches(data)
    assert b.timestamp_type == 1 and b.max_timestamp == 123456
    assert [r.timestamp for r in b] == [123456, 123456]
    assert all(r.timestamp_type == 1 for r in b)


def test_size_limit():
    b = RecordBatchBuilder(batch_size=200)
    assert b.append(1, b"k", b"x" * 500) == 0  # the first record always fits
    assert b.append(1, b"k", b"x") is None
    assert b.is_full()
    b = RecordBatchBuilder(batch_size=300, base_offset=10)
    offsets = []
    while True:
        off = b.append(1, b"k", b"v" * 20)
        if off is None:
            break
        offsets.append(off)
    data = b.build()
    assert len(data) <= 300
    assert [r.offset for r in decode_records(data)] == offsets


def test_builder_rejects_bad_input():
    b = RecordBatchBuilder()
    with pytest.raises(EncodeError):
        b.append(1, "text", b"v")
    with pytest.raises(EncodeError):
        b.append(1, b"k", b"v", headers=[("a",)])
    with pytest.raises(KafkaCodecError):
        RecordBatchBuilder(compression="brotli")
    b.append(1, b"k", b"v")
    b.build()
    with pytest.raises(KafkaCodecError):
        b.build()


def test_empty_builder():
    data = RecordBatchBuilder().build()
    (b,) = iter_batches(data)
    assert b.record_count == 0 and list(b) == []


def test_crc_checked():
    data = bytearray(build([(1, b"k", b"v")]))
    data[-1] ^= 1
    with pytest.raises(CrcMismatchError) as info:
        list(iter_batches(bytes(data)))
    assert info.value.offset == 17 and info.value.path == "batches[0].crc"
    # verify_crc=False skips the check (for already-validated data)
    assert len(list(iter_batches(bytes(data), verify_crc=False))) == 1


def test_error_path_inside_records():
    data = bytearray(build([(1, b"k", b"v"), (2, b"key", b"value")]))
    # Corrupt the second record's key length to a huge value, then fix the CRC.
    from kafkacodec import crc32c
    rec2 = data.index(b"key") - 1
    data[rec2] = 0x7E  # zigzag 63
    data[17:21] = crc32c(bytes(data[21:])).to_bytes(4, "big")
    (b,) = iter_batches(bytes(data))
    with pytest.raises(CorruptDataError) as info:
        b.records()
    assert info.value.path == "batches[0].records[1].key"
    assert info.value.offset == rec2


# ---- interop with other clients' codecs ----

aiokafka_default = pytest.importorskip("aiokafka.record.default_records")
from aiokafka.record.memory_records import MemoryRecords  # noqa: E402

AIO_CODEC = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


def aiokafka_build(records, codec="none", producer_id=-1, epoch=-1, seq=-1, transactional=False):
    b = aiokafka_default.DefaultRecordBatchBuilder(2, AIO_CODEC[codec], int(transactional), producer_id,
                                                   epoch, seq, 1 << 30)
    for i, (ts, k, v, h) in enumerate(records):
        b.append(i, timestamp=ts, key=k, value=v, headers=list(h))
    return bytes(b.build())


def aiokafka_decode(data):
    out = []
    mr = MemoryRecords(bytes(data))
    while True:
        b = mr.next_batch()
        if b is None:
            return out
        assert b.validate_crc()
        out.extend((r.offset, r.timestamp, r.key, r.value, tuple(tuple(h) for h in r.headers)) for r in b)


record_st = st.tuples(
    st.integers(0, 2**41),
    st.none() | st.binary(max_size=40),
    st.none() | st.binary(max_size=200),
    st.lists(st.tuples(st.text(max_size=10), st.none() | st.binary(max_size=20)), max_size=3),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(record_st, min_size=1, max_size=30), st.sampled_from(CODECS))
def test_aiokafka_reads_ours_and_we_read_theirs(records, codec):
    ours = build([(ts, k, v, h) for ts, k, v, h in records], compression=codec)
    expected = [(i, ts, k, v, tuple(tuple(x) for x in h)) for i, (ts, k, v, h) in enumerate(records)]
    assert aiokafka_decode(ours) == expected
    theirs = aiokafka_build(records, codec)
    got = [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in decode_records(theirs)]
    assert got == expected
    if codec == "none":
        assert ours == theirs  # same layout, byte for byte


def test_kafka_python_interop():
    kp = pytest.importorskip("kafka.record.default_records")
    from kafka.record.memory_records import MemoryRecords as KPMemoryRecords
    b = kp.DefaultRecordBatchBuilder(magic=2, compression_type=1, is_transactional=0, producer_id=5,
                                     producer_epoch=1, base_sequence=10, batch_size=1 << 20)
    for i in range(20):
        b.append(i, timestamp=1000 + i, key=b"k%d" % i, value=b"v" * i, headers=[("x", b"y")])
    theirs = bytes(b.build())
    (batch,) = iter_batches(theirs)
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence) == (5, 1, 10)
    assert [(r.offset, r.key, r.value, r.headers) for r in batch] == [
        (i, b"k%d" % i, b"v" * i, (("x", b"y"),)) for i in range(20)]
    ours = build([(1000 + i, b"k%d" % i, b"v" * i, [("x", b"y")]) for i in range(20)], compression="gzip",
                 producer_id=5, producer_epoch=1, base_sequence=10)
    mr = KPMemoryRecords(ours)
    kb = mr.next_batch()
    assert kb.validate_crc()
    assert [(r.offset, r.key, r.value, [tuple(h) for h in r.headers]) for r in kb] == [
        (i, b"k%d" % i, b"v" * i, [("x", b"y")]) for i in range(20)]


def test_records_stay_out_of_the_cycle_collector():
    # Records are immutable and hold only atomic values: the compiled type is
    # untracked so consumers holding millions of them do not pay for GC walks.
    import gc
    import pickle
    import kafkacodec
    if not kafkacodec.accelerated:
        pytest.skip("the pure-Python twin's records are ordinary objects")
    from kafkacodec.records import RecordBatchBuilder, decode_records
    b = RecordBatchBuilder()
    b.append(1, b"k", b"v", [("h", b"x")])
    rec = decode_records(b.build())[0]
    assert not gc.is_tracked(rec)
    assert pickle.loads(pickle.dumps(rec)) == rec
