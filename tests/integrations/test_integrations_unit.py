"""The adapters give the clients exactly what their own classes give on the
same bytes, patch and unpatch exactly, and refuse unsupported versions."""
import struct

import pytest

kafka = pytest.importorskip("kafka")
aiokafka = pytest.importorskip("aiokafka")

import aiokafka.errors as aio_errors  # noqa: E402
import aiokafka.record.default_records as aio_dr  # noqa: E402
import aiokafka.record.memory_records as aio_mr  # noqa: E402
import kafka.errors as kp_errors  # noqa: E402
import kafka.record.memory_records as kp_mr  # noqa: E402
from aiokafka.consumer.fetcher import PartitionRecords as AioPartitionRecords  # noqa: E402
from kafka.consumer.fetcher import Fetcher  # noqa: E402

import kafkacodec  # noqa: E402
from kafkacodec.integrations import UnsupportedClientVersion  # noqa: E402
from kafkacodec.integrations import aiokafka as kc_aio  # noqa: E402
from kafkacodec.integrations import kafka_python as kc_kp  # noqa: E402
from kafkacodec.integrations._patch import resolve  # noqa: E402
from kafkacodec.records import RecordBatchBuilder, build_control_batch  # noqa: E402

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
CODEC_IDS = {c: i for i, c in enumerate(CODECS)}


pytestmark = pytest.mark.usefixtures("clean_adapters")


def sample(n=60, null_header_values=True):
    out = []
    for i in range(n):
        key = None if i % 9 == 0 else b"key-%d" % i
        value = None if i % 13 == 5 else b'{"n": %d, "pad": "%s"}' % (i, b"z" * (i % 70))
        if i % 4 == 0:
            headers = [("trace", b"t%d" % i), ("nil", None if null_header_values else b""), ("\u00e9", b"")]
        else:
            headers = []
        out.append((1_700_000_000_000 + i * 3, key, value, headers))
    return out


def fetch_bytes(codec, *, records=None, batch_records=17, base=0, transactional=False):
    """Several kafkacodec-built v2 batches, as a Fetch response carries them."""
    records = sample() if records is None else records
    out = b""
    for start in range(0, len(records), batch_records):
        b = RecordBatchBuilder(compression=codec, base_offset=base + start,
                               producer_id=7 if transactional else -1, producer_epoch=0 if transactional else -1,
                               base_sequence=start if transactional else -1, is_transactional=transactional)
        for ts, k, v, h in records[start:start + batch_records]:
            b.append(ts, k, v, h)
        out += b.build()
    return out


# ------------------------------------------------------------------ kafka-python decoding

def kp_consume(mr_cls, data, **kw):
    tp = kafka.TopicPartition("t", 0)
    pr = Fetcher.PartitionRecords(0, tp, mr_cls(data), **kw)
    return pr.take(), pr.next_fetch_offset, pr.bytes_read


@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_consumer_records_identical(codec):
    data = fetch_bytes(codec)
    orig = kp_consume(kp_mr.MemoryRecords, data)
    mine = kp_consume(kc_kp.MemoryRecords, data)
    assert mine == orig
    assert len(orig[0]) == 60
    for a, b in zip(orig[0], mine[0]):
        assert type(a.headers) is type(b.headers) is list
        assert a.checksum is b.checksum is None


def test_kafka_python_batch_and_record_interface():
    data = fetch_bytes("lz4", transactional=True)
    o, m = kp_mr.MemoryRecords(data), kc_kp.MemoryRecords(data)
    assert m.size_in_bytes() == o.size_in_bytes() and m.valid_bytes() == o.valid_bytes()
    while o.has_next():
        assert m.has_next()
        ob, mb = o.next_batch(), m.next_batch()
        assert isinstance(mb, kafka.record.default_records.DefaultRecordBatch)
        for name in ("base_offset", "size_in_bytes", "leader_epoch", "magic", "crc", "attributes",
                     "last_offset_delta", "last_offset", "next_offset", "compression_type",
                     "timestamp_type", "is_transactional", "is_control_batch", "first_timestamp",
                     "max_timestamp", "producer_id", "producer_epoch", "base_sequence",
                     "has_sequence", "last_sequence", "records_count"):
            assert getattr(mb, name) == getattr(ob, name), name
        assert mb.has_producer_id() == ob.has_producer_id()
        assert mb.validate_crc() is ob.validate_crc() is True
        for orec, mrec in zip(list(ob), list(mb)):
            for name in ("offset", "timestamp", "timestamp_type", "key", "value", "headers",
                         "size_in_bytes", "checksum"):
                assert getattr(mrec, name) == getattr(orec, name), name
            assert mrec.validate_crc() is True
            assert repr(mrec) == repr(orec)
            assert isinstance(mrec, kafka.record.abc.ABCRecord)
    assert m.next_batch() is None and not m.has_next()


def test_kafka_python_control_and_legacy_batches_use_client_classes():
    ctrl = build_control_batch("ABORT", producer_id=7, producer_epoch=0, base_offset=60)
    legacy = RecordBatchBuilder(magic=1, base_offset=61)
    legacy.append(1_700_000_000_000, b"k", b"legacy")
    data = fetch_bytes("none", transactional=True) + ctrl + legacy.build()
    m = kc_kp.MemoryRecords(data)
    batches = list(m)
    assert batches[-2].is_control_batch
    marker = next(batches[-2])
    assert type(marker).__name__ == "ControlRecord" and marker.abort
    assert [r.value for r in batches[-1]] == [b"legacy"]
    assert kp_consume(kc_kp.MemoryRecords, data) == kp_consume(kp_mr.MemoryRecords, data)


def test_kafka_python_corrupt_input_same_error():
    data = bytearray(fetch_bytes("none", batch_records=60))
    data[61] = 0x7F  # the first record claims a body longer than the batch
    bad = bytes(data)
    for check in (True, False):
        errors = []
        for cls in (kp_mr.MemoryRecords, kc_kp.MemoryRecords):
            with pytest.raises(kp_errors.CorruptRecordError) as ei:
                kp_consume(cls, bad, check_crcs=check)
            errors.append(str(ei.value))
        assert errors[0] == errors[1]


# ------------------------------------------------------------------ aiokafka decoding

def aio_consume(mr_cls, data, check_crcs=True):
    tp = aiokafka.TopicPartition("t", 0)
    pr = AioPartitionRecords(tp, mr_cls(data), None, 0, None, None, check_crcs, 0)
    return list(pr), pr.next_fetch_offset


@pytest.mark.parametrize("codec", CODECS)
def test_aiokafka_consumer_records_identical(codec):
    data = fetch_bytes(codec)
    assert aio_consume(kc_aio.MemoryRecords, data) == aio_consume(aio_mr.MemoryRecords, data)


def test_aiokafka_batch_interface_and_control():
    ctrl = build_control_batch("COMMIT", producer_id=7, producer_epoch=0, base_offset=60)
    data = fetch_bytes("gzip", transactional=True) + ctrl
    o, m = aio_mr.MemoryRecords(data), kc_aio.MemoryRecords(data)
    assert m.size_in_bytes() == o.size_in_bytes()
    while o.has_next():
        ob, mb = o.next_batch(), m.next_batch()
        for name in ("base_offset", "magic", "crc", "attributes", "compression_type", "timestamp_type",
                     "is_transactional", "is_control_batch", "last_offset_delta", "first_timestamp",
                     "max_timestamp", "producer_id", "producer_epoch", "base_sequence", "next_offset"):
            assert getattr(mb, name) == getattr(ob, name), name
        assert mb.validate_crc() == ob.validate_crc()
        if ob.is_control_batch:
            assert next(mb).key == next(ob).key
            continue
        for orec, mrec in zip(ob, mb):
            for name in ("offset", "timestamp", "timestamp_type", "key", "value", "checksum"):
                assert getattr(mrec, name) == getattr(orec, name), name
            assert tuple(mrec.headers) == tuple(orec.headers)
    assert not m.has_next() and m.next_batch() is None
    assert aio_consume(kc_aio.MemoryRecords, data) == aio_consume(aio_mr.MemoryRecords, data)


def test_aiokafka_corrupt_input_same_error():
    data = bytearray(fetch_bytes("none", batch_records=60))
    data[61] = 0x7F
    for check in (True, False):
        errors = []
        for cls in (aio_mr.MemoryRecords, kc_aio.MemoryRecords):
            with pytest.raises(aio_errors.CorruptRecordException) as ei:
                aio_consume(cls, bytes(data), check_crcs=check)
            errors.append(str(ei.value))
        assert errors[0] == errors[1]


# ------------------------------------------------------------------ builders

def kp_build(builder_cls, codec, records, batch_size, offset=0, state=None):
    """Batches exactly as kafka-python's MemoryRecordsBuilder closes them."""
    import kafka.record.memory_records as mr
    saved = mr.DefaultRecordBatchBuilder
    mr.DefaultRecordBatchBuilder = builder_cls
    try:
        out, metas, i = [], [], 0
        while i < len(records):
            mb = mr.MemoryRecordsBuilder(2, CODEC_IDS[codec], batch_size, offset=offset)
            if state:
                mb.set_producer_state(*state)
            start = i
            while i < len(records):
                ts, k, v, h = records[i]
                meta = mb.append(ts, k, v, h)
                if meta is None:
                    break
                metas.append((meta.offset, meta.size, meta.timestamp))
                i += 1
            assert i > start
            mb.close()
            out.append(bytes(mb.buffer()))
        return out, metas
    finally:
        mr.DefaultRecordBatchBuilder = saved


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("batch_size", [200, 1024, 16384])
def test_kafka_python_builder_bytes_identical(codec, batch_size):
    records = sample(80, null_header_values=True)
    orig = kp_build(kafka.record.default_records.DefaultRecordBatchBuilder, codec, records, batch_size)
    mine = kp_build(kc_kp.DefaultRecordBatchBuilder, codec, records, batch_size)
    assert mine == orig


def test_kafka_python_builder_producer_state_and_offsets():
    records = sample(30, null_header_values=False)
    for kw in ({"state": (11, 2, 5, True)}, {"offset": 5}):
        orig = kp_build(kafka.record.default_records.DefaultRecordBatchBuilder, "none", records, 1024, **kw)
        mine = kp_build(kc_kp.DefaultRecordBatchBuilder, "none", records, 1024, **kw)
        assert mine == orig


def test_kafka_python_builder_type_errors():
    for cls in (kafka.record.default_records.DefaultRecordBatchBuilder, kc_kp.DefaultRecordBatchBuilder):
        b = cls(2, 0, False, -1, -1, -1, 1024)
        with pytest.raises(TypeError):
            b.append(0, 1, "str key", b"v", [])
        with pytest.raises(TypeError):
            b.append(0, 1.5, b"k", b"v", [])


# ------------------------------------------------------------------ install / uninstall / versions

@pytest.mark.parametrize("mod", [kc_kp, kc_aio], ids=["kafka-python", "aiokafka"])
def test_install_uninstall_restores_originals(mod):
    before = [(m, a, getattr(resolve(m), a)) for m, a, _ in mod._replacements()]
    assert mod.install() is True
    assert mod.install() is False  # idempotent
    assert mod.installed()
    for m, a, new in mod._replacements():
        assert getattr(resolve(m), a) is new
    mod.uninstall()
    mod.uninstall()
    assert not mod.installed()
    for m, a, old in before:
        assert getattr(resolve(m), a) is old


def test_patched_names_seen_by_clients():
    import aiokafka.consumer.fetcher as aio_fetcher
    import aiokafka.producer.message_accumulator as aio_acc
    import kafka.consumer.fetcher as kp_fetcher
    import kafka.producer.record_accumulator as kp_acc
    kc_kp.install()
    kc_aio.install()
    assert kp_fetcher.MemoryRecords is kc_kp.MemoryRecords
    assert kp_acc.MemoryRecords is kc_kp.MemoryRecords
    assert kp_mr.DefaultRecordBatchBuilder is kc_kp.DefaultRecordBatchBuilder
    assert aio_fetcher.MemoryRecords is kc_aio.MemoryRecords
    # aiokafka builds its batches itself (its builder is compiled; see the adapter's notes)
    assert aio_acc.DefaultRecordBatchBuilder is aio_dr.DefaultRecordBatchBuilder
    bb = aio_acc.BatchBuilder(16384, 0)
    bb._set_producer_state(1, 0, 0)
    assert bb.append(timestamp=None, key=b"k", value=b"v") is not None


@pytest.mark.parametrize("mod,client,bad", [
    (kc_kp, kafka, "2.2.15"), (kc_kp, kafka, "4.0.0"),
    (kc_aio, aiokafka, "0.13.0"), (kc_aio, aiokafka, "0.15.1"),
])
def test_unsupported_versions_refused(monkeypatch, mod, client, bad):
    monkeypatch.setattr(client, "__version__", bad)
    with pytest.raises(UnsupportedClientVersion, match=bad):
        mod.install()
    assert not mod.installed()
    for m, a, new in mod._replacements():
        assert getattr(resolve(m), a) is not new


def test_supported_ranges_stated():
    assert kc_kp.SUPPORTED == ((3, 0, 0), (4, 0, 0))
    assert kc_aio.SUPPORTED == ((0, 14, 0), (0, 15, 0))
    assert struct.calcsize(">q") == 8


def test_aiokafka_install_leaves_builder():
    import aiokafka.producer.message_accumulator as aio_acc
    import aiokafka.producer.producer as aio_producer
    before = aio_acc.DefaultRecordBatchBuilder, aio_producer.DefaultRecordBatchBuilder, aio_dr.DefaultRecordBatchBuilder
    kc_aio.install()
    assert aio_mr.MemoryRecords is kc_aio.MemoryRecords
    assert (aio_acc.DefaultRecordBatchBuilder, aio_producer.DefaultRecordBatchBuilder,
            aio_dr.DefaultRecordBatchBuilder) == before
    assert not hasattr(kc_aio, "DefaultRecordBatchBuilder")
    with pytest.raises(TypeError):  # the build option is gone, not silently ignored
        kc_aio.install(build=True)


# ------------------------------------------------------------------ kafka-python fetcher record loop

from collections import namedtuple  # noqa: E402

from kafka.consumer.fetcher import ConsumerRecord as KpConsumerRecord  # noqa: E402
from kafka.protocol.consumer import IsolationLevel  # noqa: E402

from kafkacodec.integrations import _decode_py  # noqa: E402

Aborted = namedtuple("Aborted", "producer_id first_offset")


def kp_polls(installed, data, n=None, fetch_offset=0, **kw):
    """Every take(n) of a PartitionRecords over data, with the fetcher's
    state after each, as the consumer sees it; and how it ended."""
    if installed:
        kc_kp.install()
    try:
        import kafka.record
        pr = Fetcher.PartitionRecords(fetch_offset, kafka.TopicPartition("t", 0),
                                      kafka.record.MemoryRecords(data), **kw)
        out = []
        for _ in range(1000):
            try:
                got = pr.take(n)
            except Exception as exc:  # noqa: BLE001 - compared between the arms
                out.append(("raised", type(exc), str(exc)))
                break
            out.append((got, [type(r) for r in got], pr.next_fetch_offset, pr.bytes_read,
                        pr.records_read, pr.leader_epoch, bool(pr)))
            if not pr:  # drained: the consumer moves on
                break
        return out
    finally:
        kc_kp.uninstall()


def polled(got):
    return [r for poll in got if poll[0] != "raised" for r in poll[0]]


def kp_same(data, **kw):
    orig = kp_polls(False, data, **kw)
    mine = kp_polls(True, data, **kw)
    assert mine == orig
    return orig


def with_crc(data):
    """Recompute the CRC of every v2 batch in data (after editing it)."""
    from kafkacodec import crc32c
    out, pos = bytearray(data), 0
    while pos < len(out):
        length = struct.unpack_from(">i", out, pos + 8)[0]
        end = pos + 12 + length
        struct.pack_into(">I", out, pos + 17, crc32c(bytes(out[pos + 21:end])))
        pos = end
    return bytes(out)


def test_kafka_python_fetcher_loop_is_replaced_only_while_installed():
    orig = Fetcher.PartitionRecords._unpack_records
    kc_kp.install()
    assert Fetcher.PartitionRecords._unpack_records is kc_kp._unpack_records
    kc_kp.uninstall()
    assert Fetcher.PartitionRecords._unpack_records is orig


def test_kafka_python_fetcher_loop_version_gate(monkeypatch):
    monkeypatch.setattr(kafka, "__version__", "3.1.0")
    orig = Fetcher.PartitionRecords._unpack_records
    kc_kp.install()
    assert Fetcher.PartitionRecords._unpack_records is orig  # another 3.x keeps its own loop
    assert kp_mr.MemoryRecords is kc_kp.MemoryRecords


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("n", [None, 1, 7, 17, 100])
def test_kafka_python_fetcher_same_records_and_positions(codec, n):
    got = kp_same(fetch_bytes(codec), n=n)
    records = polled(got)
    assert len(records) == 60 and all(type(r) is KpConsumerRecord for r in records)
    assert any(h[0] == "\u00e9" for r in records for h in r.headers)
    assert any(r.key is None for r in records) and any(r.value is None for r in records)
    assert all(type(r.headers) is list for r in records)


@pytest.mark.parametrize("fetch_offset", [0, 5, 17, 40])
def test_kafka_python_fetcher_mid_batch_fetch_offset(fetch_offset):
    kp_same(fetch_bytes("lz4"), n=4, fetch_offset=fetch_offset)


class _Des:
    def __init__(self, fail_at=None):
        self.fail_at = fail_at
        self.seen = []

    def deserialize(self, topic, headers, data):
        self.seen.append((topic, headers, data))
        if self.fail_at is not None and len(self.seen) == self.fail_at:
            raise ValueError(f"cannot deserialize {data!r}")
        return None if data is None else data.decode()[::-1]


class _OldDes:  # kafka-python retries without headers on TypeError
    def deserialize(self, topic, data):
        return None if data is None else len(data)


@pytest.mark.parametrize("codec", ["none", "zstd"])
def test_kafka_python_fetcher_deserializers(codec):
    data = fetch_bytes(codec)
    for kd, vd in [(_Des(), None), (None, _Des()), (_Des(), _Des())]:
        kp_same(data, n=9, key_deserializer=kd, value_deserializer=vd)
    calls = []
    for installed in (False, True):
        kd, vd = _Des(), _Des()
        kp_polls(installed, data, n=9, key_deserializer=kd, value_deserializer=vd)
        calls.append((kd.seen, vd.seen))
    assert calls[0] == calls[1]
    with pytest.warns(DeprecationWarning):
        kp_same(data, n=9, value_deserializer=_OldDes())


def test_kafka_python_fetcher_deserializer_error_at_same_record():
    data = fetch_bytes("gzip")
    for n, fail_at, which in [(7, 23, "value_deserializer"), (None, 1, "key_deserializer")]:
        got = [kp_polls(installed, data, n=n, **{which: _Des(fail_at=fail_at)}) for installed in (False, True)]
        assert got[0] == got[1]
        assert got[0][-1][0] == "raised" and "cannot deserialize" in got[0][-1][2]


def test_kafka_python_fetcher_read_committed_aborted_transactions():
    from kafkacodec.records import build_control_batch
    records = sample(30)
    committed = fetch_bytes("none", records=records[:10], batch_records=10, transactional=True)
    commit = build_control_batch("COMMIT", producer_id=7, producer_epoch=0, base_offset=10)
    aborted = fetch_bytes("snappy", records=records[10:20], batch_records=5, base=11, transactional=True)
    abort = build_control_batch("ABORT", producer_id=7, producer_epoch=0, base_offset=21)
    plain = fetch_bytes("none", records=records[20:], batch_records=4, base=22)
    data = committed + commit + aborted + abort + plain
    for level in (IsolationLevel.READ_COMMITTED, IsolationLevel.READ_UNCOMMITTED):
        for n in (None, 3):
            got = kp_same(data, n=n, isolation_level=level, aborted_transactions=[Aborted(7, 11)])
            offsets = [r.offset for r in polled(got)]
            if level == IsolationLevel.READ_COMMITTED:
                assert offsets == list(range(10)) + list(range(22, 32))
            else:
                assert offsets == list(range(10)) + list(range(11, 21)) + list(range(22, 32))


def test_kafka_python_fetcher_legacy_and_log_append_time():
    legacy = RecordBatchBuilder(magic=1, base_offset=60)
    legacy.append(1_700_000_000_000, b"k", b"legacy")
    b = RecordBatchBuilder(base_offset=61, timestamp_type=1)
    for ts, k, v, h in sample(5):
        b.append(ts, k, v, h)
    got = kp_same(fetch_bytes("none") + legacy.build() + b.build(), n=11)
    records = polled(got)
    assert records[60].value == b"legacy" and records[-1].timestamp_type == 1


def test_kafka_python_fetcher_corrupt_batches_same_error():
    good = fetch_bytes("none", batch_records=20)
    bad_crc = bytearray(good)
    bad_crc[70] ^= 1
    cases = [bytes(bad_crc)]
    cut = bytearray(good)
    cut[61] = 0x7F  # the first record claims a body longer than the batch
    cases.append(with_crc(cut))
    # a later record of the second batch: records before it come out first
    first_len = struct.unpack_from(">i", good, 8)[0] + 12
    rec = bytearray(good)
    rec[first_len + 61 + 40] ^= 0x55
    cases.append(with_crc(rec))
    # compressed payload that does not inflate
    gz = bytearray(fetch_bytes("gzip"))
    gz[80:90] = b"\0" * 10
    cases.append(with_crc(gz))
    for data in cases:
        for check in (True, False):
            for n in (None, 6):
                got = kp_same(data, n=n, check_crcs=check)
                if data is cases[1] or (check and data is cases[0]):
                    assert got[-1][0] == "raised"


def _header_key_batch(key_bytes):
    b = RecordBatchBuilder()
    b.append(1_700_000_000_000, b"k0", b"v0")
    b.append(1_700_000_000_001, b"k1", b"v1", [(key_bytes, b"x")])
    return b.build()


def test_kafka_python_fetcher_invalid_utf8_header_key_same_error():
    data = _header_key_batch(b"bad\xff")
    got = kp_same(data, n=None)
    assert got[0][0] and got[0][0][0].key == b"k0" and got[-1][0] == "raised"
    assert _decode_py.kp_batch_records(KpConsumerRecord, data, "t", 0, -1) is None
    from kafkacodec.integrations import _decode
    assert _decode.kp_batch_records(KpConsumerRecord, data, "t", 0, -1) is None


def test_kafka_python_fetcher_attributes_byte_read_as_varint():
    # kafka-python reads the record attributes as a varint: a byte >= 0x80 is
    # left to its decoder, whatever it makes of it
    b = RecordBatchBuilder()
    b.append(1_700_000_000_000, b"k", b"v")
    data = bytearray(b.build())
    data[62] = 0x80
    kp_same(with_crc(data), n=None)


def _impls():
    out = [_decode_py]
    try:
        from kafkacodec.integrations import _decode
        out.append(_decode)
    except ImportError:  # pragma: no cover - pure installs
        pass
    return out


@pytest.mark.parametrize("impl", _impls(), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@pytest.mark.parametrize("codec", CODECS)
def test_kp_batch_records_matches_kafka_python(impl, codec):
    data = fetch_bytes(codec, batch_records=60)
    recs, sizes = impl.kp_batch_records(KpConsumerRecord, data, "t", 3, 9)
    orig = list(kp_mr.MemoryRecords(data).next_batch())
    assert sizes == [r.size_in_bytes for r in orig]
    assert recs == [KpConsumerRecord("t", 3, 9, r.offset, r.timestamp, r.timestamp_type, r.key, r.value,
                                     r.headers, None, -1 if r.key is None else len(r.key),
                                     -1 if r.value is None else len(r.value),
                                     sum(len(k.encode()) + len(v or b"") for k, v in r.headers)
                                     if r.headers else -1) for r in orig]
    assert all(type(r) is KpConsumerRecord for r in recs)


@pytest.mark.parametrize("impl", _impls(), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_kp_batch_records_refuses_unsuitable_types_and_declines_bad_bytes(impl):
    data = fetch_bytes("none", batch_records=60)

    class WithDict(tuple):
        _fields = tuple(range(13))
    for cls in (list, KpConsumerRecord.__base__, namedtuple("Short", "a b"), WithDict):
        with pytest.raises(TypeError):
            impl.kp_batch_records(cls, data, "t", 0, -1)
    for prefix in (30, 61, 100, len(data) - 1):
        assert impl.kp_batch_records(KpConsumerRecord, data[:prefix], "t", 0, -1) is None
    assert impl.kp_batch_records(KpConsumerRecord, data + b"\0", "t", 0, -1) is None


# ------------------------------------------------------------------ aiokafka fetcher record loop

def aio_polls(installed, data, n=None, fetch_offset=0, aborted=None, isolation_level=0,
              key_deserializer=None, value_deserializer=None, check_crcs=True):
    """Records in slices of n as aiokafka's FetchResult.getall takes them, with
    next_fetch_offset after each slice, and how it ended."""
    import aiokafka.record.memory_records as mr
    if installed:
        kc_aio.install()
    try:
        pr = AioPartitionRecords(aiokafka.TopicPartition("t", 0), mr.MemoryRecords(data), aborted, fetch_offset,
                                 key_deserializer, value_deserializer, check_crcs, isolation_level)
        out = []
        while True:
            got = []
            try:
                for rec in pr:
                    got.append(rec)
                    if n is not None and len(got) >= n:
                        break
            except Exception as exc:  # noqa: BLE001 - compared between the arms
                out.append((got, "raised", type(exc), str(exc)))
                break
            out.append((got, [(type(r), vars(r)) for r in got], pr.next_fetch_offset))
            if n is None or len(got) < n:  # exhausted: getall drops the partition records
                break
        return out
    finally:
        kc_aio.uninstall()


def aio_same(data, **kw):
    orig = aio_polls(False, data, **kw)
    assert aio_polls(True, data, **kw) == orig
    return orig


def test_aiokafka_fetcher_loop_is_replaced_only_while_installed():
    orig = AioPartitionRecords._unpack_records
    kc_aio.install()
    assert AioPartitionRecords._unpack_records is kc_aio._unpack_records
    kc_aio.uninstall()
    assert AioPartitionRecords._unpack_records is orig


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("n", [None, 1, 7, 17])
def test_aiokafka_fetcher_same_records_and_positions(codec, n):
    got = aio_same(fetch_bytes(codec), n=n)
    records = [r for poll in got for r in poll[0]]
    assert len(records) == 60
    assert any(h[0] == "\u00e9" for r in records for h in r.headers)


@pytest.mark.parametrize("fetch_offset", [0, 5, 17, 40])
def test_aiokafka_fetcher_mid_batch_fetch_offset(fetch_offset):
    aio_same(fetch_bytes("zstd"), n=4, fetch_offset=fetch_offset)


def test_aiokafka_fetcher_deserializers():
    data = fetch_bytes("snappy")
    aio_same(data, n=9, key_deserializer=lambda b: b and b[::-1], value_deserializer=len_or_none)

    def boom(b):
        if b and b.startswith(b'{"n": 23'):
            raise ValueError("cannot deserialize")
        return b
    got = aio_same(data, n=9, value_deserializer=boom)
    assert got[-1][1] == "raised"


def len_or_none(b):
    return None if b is None else len(b)


def test_aiokafka_fetcher_read_committed_aborted_transactions():
    records = sample(30)
    committed = fetch_bytes("none", records=records[:10], batch_records=10, transactional=True)
    commit = build_control_batch("COMMIT", producer_id=7, producer_epoch=0, base_offset=10)
    aborted = fetch_bytes("lz4", records=records[10:20], batch_records=5, base=11, transactional=True)
    abort = build_control_batch("ABORT", producer_id=7, producer_epoch=0, base_offset=21)
    plain = fetch_bytes("none", records=records[20:], batch_records=4, base=22)
    data = committed + commit + aborted + abort + plain
    for level in (0, 1):
        for n in (None, 3):
            got = aio_same(data, n=n, isolation_level=level, aborted=[(7, 11)])
            offsets = [r.offset for poll in got for r in poll[0]]
            expect = list(range(10)) + list(range(22, 32)) if level else \
                list(range(10)) + list(range(11, 21)) + list(range(22, 32))
            assert offsets == expect


def test_aiokafka_fetcher_corrupt_and_odd_batches():
    good = fetch_bytes("none", batch_records=20)
    bad_crc = bytearray(good)
    bad_crc[70] ^= 1
    cut = bytearray(good)
    cut[61] = 0x7F
    gz = bytearray(fetch_bytes("gzip"))
    gz[80:90] = b"\0" * 10
    attrs = bytearray(_header_key_batch(b"k"))
    attrs[62] = 0x80
    legacy = RecordBatchBuilder(magic=1, base_offset=60)
    legacy.append(1_700_000_000_000, b"k", b"legacy")
    append_time = RecordBatchBuilder(base_offset=61, timestamp_type=1)
    append_time.append(1_700_000_000_000, b"k", b"v")
    for data in (bytes(bad_crc), with_crc(cut), with_crc(gz), with_crc(attrs), _header_key_batch(b"bad\xff"),
                 legacy.build(), fetch_bytes("none") + append_time.build()):
        for check in (True, False):
            aio_same(data, n=6, check_crcs=check)


@pytest.mark.parametrize("impl", _impls(), ids=lambda m: m.__name__.rsplit(".", 1)[-1])
@pytest.mark.parametrize("codec", CODECS)
def test_aio_batch_records_matches_aiokafka(impl, codec):
    from aiokafka.structs import ConsumerRecord
    data = fetch_bytes(codec, batch_records=60)
    names = kc_aio._record_fields(ConsumerRecord)
    recs, offsets = impl.aio_batch_records(ConsumerRecord, names, data, "t", 0)
    pr = AioPartitionRecords(aiokafka.TopicPartition("t", 0), aio_mr.MemoryRecords(data), None, 0,
                             None, None, True, 0)
    orig = list(pr)
    assert recs == orig and offsets == [r.offset for r in orig]
    assert [vars(r) for r in recs] == [vars(r) for r in orig]
    with pytest.raises(TypeError):
        impl.aio_batch_records(ConsumerRecord, names[:5], data, "t", 0)


def _take_all(data):
    import kafka.record
    pr = Fetcher.PartitionRecords(0, kafka.TopicPartition("t", 0), kafka.record.MemoryRecords(data))
    return pr.take()


@pytest.mark.skipif(not kafkacodec.accelerated, reason="untracking needs the compiled helper")
def test_kafka_python_consumer_records_untracked_by_default():
    import gc
    data = fetch_bytes("none")
    orig = _take_all(data)
    assert all(gc.is_tracked(r) for r in orig)  # kafka-python's own records
    kc_kp.install()
    try:
        mine = _take_all(data)
    finally:
        kc_kp.uninstall()
    assert mine == orig
    assert not any(gc.is_tracked(r) for r in mine)
    assert all(gc.is_tracked(r.headers) for r in mine)  # mutable lists stay with the collector
    kc_kp.install(untrack_records=False)
    try:
        tracked = _take_all(data)
    finally:
        kc_kp.uninstall()
    assert tracked == orig and all(gc.is_tracked(r) for r in tracked)


def _aio_take_all(data):
    import aiokafka.record.memory_records as mr
    pr = AioPartitionRecords(aiokafka.TopicPartition("t", 0), mr.MemoryRecords(data), None, 0,
                             None, None, True, 0)
    return list(pr)


@pytest.mark.skipif(not kafkacodec.accelerated, reason="untracking needs the compiled helper")
def test_aiokafka_consumer_records_untracked_by_default():
    import gc
    data = fetch_bytes("none")
    orig = _aio_take_all(data)
    assert all(gc.is_tracked(r) for r in orig)  # aiokafka's own records
    kc_aio.install()
    try:
        mine = _aio_take_all(data)
    finally:
        kc_aio.uninstall()
    assert [vars(r) for r in mine] == [vars(r) for r in orig]
    assert not any(gc.is_tracked(r) for r in mine)
    kc_aio.install(untrack_records=False)
    try:
        tracked = _aio_take_all(data)
    finally:
        kc_aio.uninstall()
    assert [vars(r) for r in tracked] == [vars(r) for r in orig] and all(gc.is_tracked(r) for r in tracked)


@pytest.mark.parametrize("base_offset", [2**63 - 1, 2**63 - 2**31 + 1, -(2**63)])
def test_out_of_range_base_offsets_are_left_to_the_client_in_both_paths(base_offset):
    # base + offset delta would leave int64: the compiled path used to wrap
    # and the pure one not; both hand such a batch to the client's decoder.
    b = RecordBatchBuilder()
    b.append(1_700_000_000_000, b"k", b"v")
    b.append(1_700_000_000_001, b"k", b"v")
    data = bytearray(b.build())
    data[0:8] = base_offset.to_bytes(8, "big", signed=True)
    data = with_crc(data)
    from aiokafka.structs import ConsumerRecord
    names = kc_aio._record_fields(ConsumerRecord)
    for impl in _impls():
        assert impl.kp_batch_records(KpConsumerRecord, data, "t", 0, -1) is None, impl
        assert impl.aio_batch_records(ConsumerRecord, names, data, "t", 0) is None, impl
