"""Producer side of the kafka-python adapter: the compiled append (and its
pure twin) writes exactly the client's bytes, closes batches at exactly the
client's size, returns the client's metadata type and leaves everything
unusual to the client's own append on the same builder.  (aiokafka builds its
batches itself: its builder is compiled already.)"""
import pytest

kafka = pytest.importorskip("kafka")

import kafka.producer.kafka as kp_producer  # noqa: E402
import kafka.record.default_records as kp_dr  # noqa: E402

import kafkacodec  # noqa: E402
from kafkacodec.integrations import _build_py  # noqa: E402
from kafkacodec.integrations import kafka_python as kc_kp  # noqa: E402

IMPLS = [pytest.param(_build_py, id="py")]
if kafkacodec.accelerated:
    from kafkacodec.integrations import _build
    IMPLS.insert(0, pytest.param(_build, id="c"))

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
CODEC_IDS = {c: i for i, c in enumerate(CODECS)}
KP_ORIG = kp_dr.DefaultRecordBatchBuilder


pytestmark = pytest.mark.usefixtures("clean_adapters")


def kp_class(impl):
    return kc_kp._builder_class(impl.V2Builder)


def records(n=40, value_len=None):
    out = []
    for i in range(n):
        key = None if i % 7 == 3 else b"k%03d" % i
        value = None if i % 11 == 5 else b"v" * (value_len if value_len is not None else (i * 5) % 90)
        headers = [("h", b"x" * (i % 4)), ("nil", None), ("\u00e9\u4e2d", b"")] if i % 5 == 0 else []
        # timestamps go back and forth: max timestamp and negative deltas
        out.append((1_700_000_000_000 + ((i * 37) % 23) - 11, key, value, headers))
    return out


def build_all(cls, recs, batch_size, codec="none", state=None, offset0=0):
    """Batches, metadata and the bytes of each, closing where the builder refuses."""
    out, metas, i = [], [], 0
    while i < len(recs):
        b = cls(2, CODEC_IDS[codec], False, -1, -1, -1, batch_size)
        if state:
            b.set_producer_state(*state)
        start = i
        while i < len(recs):
            ts, k, v, h = recs[i]
            meta = b.append(offset0 + i - start, ts, k, v, h)
            if meta is None:
                break
            metas.append((type(meta), meta.offset, meta.size, meta.timestamp))
            i += 1
        assert i > start
        out.append((bytes(b.build()), b.size()))
    return out, metas


@pytest.mark.parametrize("impl", IMPLS)
def test_kafka_python_every_batch_size_closes_identically(impl):
    recs = records(12)
    cls = kp_class(impl)
    for batch_size in range(61, 500, 3):
        assert build_all(cls, recs, batch_size) == build_all(KP_ORIG, recs, batch_size), batch_size


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("state", [None, (11, 2, 5, True), (11, 2, 5, False)], ids=["plain", "txn", "idempotent"])
def test_kafka_python_codecs_and_producer_state(impl, codec, state):
    recs = records(60)
    assert build_all(kp_class(impl), recs, 1024, codec, state) == build_all(KP_ORIG, recs, 1024, codec, state)


@pytest.mark.parametrize("impl", IMPLS)
def test_kafka_python_unusual_arguments_go_to_its_append(impl):
    cls = kp_class(impl)
    big = 1 << 70
    cases = [
        (0, 5, memoryview(b"key"), b"v", []),
        (0, 5, b"k", bytearray(b"value"), [("a", b"1")]),
        (0, 5, b"k", b"v", (("a", b"1"),)),              # headers as a tuple
        (0, 5, b"k", b"v", [("a", bytearray(b"1"))]),
        (0, 5, b"k", b"v", [["a", b"1"]]),
        (0, 5, b"k", b"v", [("a", b"1")] * 70),           # more headers than the C path takes
        (3, 1 << 62, b"k", b"v", []),
        (0, 5, b"k", b"v", [("\ud800", b"x")]),          # surrogate: UTF-8 cannot encode it
        (0, 5, "str", b"v", []),
        (0, 5.5, b"k", b"v", []),
        (1.0, 5, b"k", b"v", []),
        (big, 5, b"k", b"v", []),
        (0, 5, b"k", b"v", [(b"bytes-key", b"x")]),
    ]
    for args in cases:
        got = []
        for c in (cls, KP_ORIG):
            b = c(2, 0, False, -1, -1, -1, 1 << 20)
            b.append(0, 1_700_000_000_000, b"first", b"x", [])
            try:
                meta = b.append(*args)
                got.append(("ok", meta and (type(meta), meta.offset, meta.size, meta.timestamp), bytes(b.build())))
            except Exception as e:  # the same exception type from both
                got.append(("err", type(e)))
        assert got[0] == got[1], args


@pytest.mark.parametrize("impl", IMPLS)
def test_timestamp_none_is_now_in_ms(impl):
    outs = []
    for c in (kp_class(impl), KP_ORIG):
        b = c(2, 0, False, -1, -1, -1, 1 << 20)
        meta = b.append(0, None, b"k", b"v", [])
        outs.append((meta.timestamp, meta.size))
    assert outs[0][1] == outs[1][1]
    assert type(outs[0][0]) is int and abs(outs[0][0] - outs[1][0]) < 5000


def test_metadata_types_are_the_clients():
    kb = kc_kp.DefaultRecordBatchBuilder(2, 0, False, -1, -1, -1, 1024)
    assert type(kb.append(0, 1, b"k", b"v", [])) is kp_dr.DefaultRecordMetadata
    # keyword arguments too
    assert kb.append(1, timestamp=2, key=None, value=b"v", headers=[]).offset == 1


@pytest.mark.parametrize("impl", IMPLS)
def test_kafka_python_size_estimate_identical(impl):
    est = impl.v2_size_estimator(KP_ORIG.HEADER_STRUCT.size + KP_ORIG.MAX_RECORD_OVERHEAD,
                                 KP_ORIG.estimate_size_in_bytes)
    cases = [(None, None, []), (b"", b"", []), (b"k" * 200, b"v" * 70000, []),
             (memoryview(b"abc"), bytearray(b"xy"), []), (b"k", b"v", (("a", b"b"),)),
             (b"k", None, [("\u00e9", None), ("x", b"y" * 300)])]
    cases += [(ts and k, v, h) for ts, k, v, h in records(30)]
    for key, value, headers in cases:
        assert est(key, value, headers) == KP_ORIG.estimate_size_in_bytes(key, value, headers)
    assert kc_kp.DefaultRecordBatchBuilder.estimate_size_in_bytes(b"k", b"v", []) == \
        KP_ORIG.estimate_size_in_bytes(b"k", b"v", [])
    with pytest.raises(UnicodeEncodeError):
        est(b"k", b"v", [("\ud800", b"")])


def test_unknown_size_rule_refused():
    for impl in (p.values[0] for p in IMPLS):
        with pytest.raises(ValueError):
            type("B", (impl.V2Builder,), {"_kc_rule": "aiokafka", "_kc_meta": tuple, "_kc_fallback": None})()


def test_adapter_classes_use_the_compiled_state():
    if not kafkacodec.accelerated:
        pytest.skip("compiled extension not in use")
    assert issubclass(kc_kp.DefaultRecordBatchBuilder, _build.V2Builder)
    # kafka-python's builder has slots, so its methods are copied, not inherited
    import kafka.record.abc as kp_abc
    assert isinstance(kc_kp.DefaultRecordBatchBuilder(2, 0, False, -1, -1, -1, 100), kp_abc.ABCRecordBatchBuilder)
    for name in ("build", "set_producer_state", "_maybe_compress", "size_in_bytes", "header_size_in_bytes"):
        assert getattr(kc_kp.DefaultRecordBatchBuilder, name) is not None


@pytest.mark.parametrize("impl", IMPLS)
def test_state_attributes_round_trip(impl):
    # the client's own methods read and write the state through these names
    b = kp_class(impl)(2, 0, False, -1, -1, -1, 1000)
    assert (b._first_timestamp, b._max_timestamp, b._last_offset, b._num_records, b._batch_size) == \
        (None, None, 0, 0, 1000)
    b.append(0, 10, b"k", b"v", [])
    b.append(1, 7, b"k", b"v", [])
    assert (b._first_timestamp, b._max_timestamp, b._last_offset, b._num_records) == (10, 10, 1, 2)
    assert b.size() == len(b._buffer)
    # a timestamp beyond 64 bits: the client's append takes it and fails where the client's does
    o = KP_ORIG(2, 0, False, -1, -1, -1, 1000)
    o.append(0, 10, b"k", b"v", [])
    b = kp_class(impl)(2, 0, False, -1, -1, -1, 1000)
    b.append(0, 10, b"k", b"v", [])
    for x in (o, b):
        x.append(1, 1 << 65, b"k", b"v", [])
    assert b._max_timestamp == o._max_timestamp == 1 << 65
    with pytest.raises(type(pytest.raises(Exception, o.build).value)):
        b.build()


def test_kafka_python_producer_sees_the_builder_only_while_installed():
    assert kp_producer.DefaultRecordBatchBuilder is KP_ORIG
    kc_kp.install()
    assert kp_producer.DefaultRecordBatchBuilder is kc_kp.DefaultRecordBatchBuilder
    kc_kp.uninstall()
    assert kp_producer.DefaultRecordBatchBuilder is KP_ORIG


def kp_accumulate(recs, **conf):
    """kafka-python's accumulator as KafkaProducer.send() drives it: size
    estimate, append, then every batch closed; the batches' bytes."""
    from kafka.producer.record_accumulator import RecordAccumulator
    acc = RecordAccumulator(batch_size=512, linger_ms=5, **conf)
    tp = kafka.TopicPartition("t", 0)
    sizes = []
    for ts, k, v, h in recs:
        sizes.append(kp_producer.DefaultRecordBatchBuilder.estimate_size_in_bytes(k, v, h))
        acc.append(tp, ts, k, v, h)
    out = []
    for batch in acc._batches[tp]:
        batch.records.close()
        out.append(bytes(batch.records.buffer()))
    return sizes, out


@pytest.mark.parametrize("compression", [0, 1, 4])
def test_kafka_python_accumulator_batches_identical(compression):
    # ProducerBatch measures key, value and header values with len(): all set here
    recs = [(ts, k or b"", v or b"", [(hk, hv or b"") for hk, hv in h]) for ts, k, v, h in records(200)]
    plain = kp_accumulate(recs, compression_attrs=compression)
    kc_kp.install()
    assert kp_accumulate(recs, compression_attrs=compression) == plain
    kc_kp.uninstall()
    assert kp_accumulate(recs, compression_attrs=compression) == plain
