"""The sender's compiled request path against the generic codec, and the one
batch header writer (producer fields written at seal time, rewritten in place)."""
import threading

import pytest

from kafkacodec import _impl
from kafkacodec.errors import KafkaCodecError
from kafkacodec.protocol import encode_request, encode_response
from kafkacodec.protocol import messages as m
from kafkacodec.records import RecordBatchBuilder, iter_batches, layout

compiled = pytest.mark.skipif(not _impl.accelerated, reason="the compiled sender path")

if _impl.accelerated:
    from kafkacodec.client._sender_steps import ProduceFrame, finish_acknowledged


class FakeBatch:
    def __init__(self, topic, partition, data):
        self.topic = topic
        self.partition = partition
        self.data = data


def _batch_bytes(n, pid=-1, epoch=-1, seq=-1):
    b = RecordBatchBuilder(2, producer_id=pid, producer_epoch=epoch, base_sequence=seq)
    for i in range(n):
        b.append(1000 + i, b"k%d" % i, b"v" * (i + 1))
    return b.build()


def _batches():
    buf = bytearray(4096)
    pooled = RecordBatchBuilder(2, buffer=buf, batch_size=4096)
    pooled.append(5, b"key", b"value")
    return [FakeBatch("alpha", 0, _batch_bytes(3)), FakeBatch("beta", 2, pooled.build()),
            FakeBatch("alpha", 1, bytearray(_batch_bytes(1))), FakeBatch("gamma-\u00e9", 0, _batch_bytes(2))]


@compiled
@pytest.mark.parametrize("version", range(0, 12))
@pytest.mark.parametrize("txn", [None, "tx-1"])
@pytest.mark.parametrize("client_id", [None, "client-\u00e9"])
def test_produce_frame_matches_generic_encoder(version, txn, client_id):
    batches = _batches()
    frame = ProduceFrame(txn, -1, 30000, batches)
    # grouped by topic in first-seen order: the answer arrays follow this order
    assert [(b.topic, b.partition) for b in frame.batches] == [("alpha", 0), ("alpha", 1), ("beta", 2),
                                                               ("gamma-\u00e9", 0)]
    P = m.ProduceRequest
    topics = {}
    for b in frame.batches:
        topics.setdefault(b.topic, []).append(P.PartitionProduceData(index=b.partition, records=bytes(b.data)))
    body = P(transactional_id=txn, acks=-1, timeout_ms=30000,
             topic_data=[P.TopicProduceData(name=t, partition_data=p) for t, p in topics.items()])
    if txn is not None and version < 3:
        with pytest.raises(Exception):
            frame.encode_frame(version, 77, client_id)
        return
    parts = frame.encode_frame(version, 77, client_id)
    expected = encode_request("Produce", version, body, correlation_id=77, client_id=client_id)
    assert b"".join(bytes(p) for p in parts) == expected
    # the batches' bytes are the buffers themselves, not copies
    assert any(p is batches[1].data for p in parts)
    assert any(p is batches[2].data for p in parts)


def _response(version, entries, throttle=0):
    R = m.ProduceResponse
    by_topic = {}
    for topic, index, code, base, lat, msg, rec in entries:
        by_topic.setdefault(topic, []).append(R.PartitionProduceResponse(
            index=index, error_code=code, base_offset=base, log_append_time_ms=lat, log_start_offset=base + 7,
            record_errors=[R.BatchIndexAndErrorMessage(batch_index=i, batch_index_error_message=t) for i, t in rec],
            error_message=msg))
    body = R(responses=[R.TopicProduceResponse(name=t, partition_responses=p) for t, p in by_topic.items()],
             throttle_time_ms=throttle)
    return encode_response("Produce", version, 77, body)


@compiled
@pytest.mark.parametrize("version", range(0, 12))
def test_decode_response_matches_request_batches(version):
    batches = _batches()
    frame = ProduceFrame(None, -1, 30000, batches)
    # answered out of order, one partition missing, one unknown partition, one error
    entries = [("beta", 2, 0, 500, 123, None, []),
               ("alpha", 1, 6, -1, -1, "not the leader", [(0, "bad"), (2, None)]),
               ("alpha", 0, 0, 100, -1, None, []),
               ("alpha", 9, 0, 1, -1, None, []),
               ("delta", 0, 0, 1, -1, None, [])]
    frame.decode_response(version, _response(version, entries, throttle=5))
    lat = (lambda v: v) if version >= 2 else (lambda v: -1)
    lso = (lambda v: v) if version >= 5 else (lambda v: -1)
    assert frame.answer(0) == (0, 100, -1, lso(107), None, [])
    if version >= 8:
        assert frame.answer(1) == (6, -1, -1, lso(6), "not the leader", [(0, "bad"), (2, None)])
    else:
        assert frame.answer(1) == (6, -1, -1, lso(6), None, [])
    assert frame.answer(2) == (0, 500, lat(123), lso(507), None, [])
    assert frame.answer(3) is None
    assert frame.throttle_time_ms == (5 if version >= 1 else 0)


@compiled
def test_decode_response_truncated_raises():
    frame = ProduceFrame(None, -1, 30000, _batches())
    data = _response(7, [("alpha", 0, 0, 1, -1, None, [])])
    with pytest.raises(KafkaCodecError):
        frame.decode_response(7, data[:-6])


class _Result:
    __slots__ = ("base_offset", "log_append_time", "log_start_offset", "error", "_done", "_listeners", "_waiter", "callbacks", "sink")

    def __init__(self):
        self.base_offset = self.log_append_time = self.log_start_offset = -1
        self.error = None
        self._done = False
        self._listeners = None
        self._waiter = None
        self.callbacks = None
        self.sink = None


@compiled
def test_finish_acknowledged_completes_only_successes():
    from kafkacodec.records.pool import BufferPool

    from kafkacodec.client._sender_state import AccumulatorState, BatchState, SenderState, SequenceState

    # the compiled step takes the declared state (client/_sender_state.pxd) and nothing else
    class B(BatchState):
        def __init__(self, topic, partition, data):
            self.topic, self.partition, self.data = topic, partition, data

    class _PS(SequenceState):
        def __init__(self):
            self.in_flight = []
            self.last_acked = -1

    pool = BufferPool(1 << 20, 1024)
    acc = AccumulatorState()
    acc.pool, acc.lock, acc.incomplete = pool, threading.Lock(), set()
    sender = type("S", (SenderState,), {})()
    sender.idempotent, sender.producer_epoch, sender.stats = True, 3, {"batches": 0, "records": 0}
    sender.partitions = {}
    batches = []
    for i, (topic, part, code) in enumerate([("a", 0, 0), ("a", 1, 46), ("b", 0, 6), ("b", 1, None)]):
        buf = pool.allocate(1024, 1.0)
        b = B(topic, part, memoryview(buf)[:10].toreadonly())
        b.pool_buffer = b.raw = buf
        b.result = _Result()
        b.record_count = 4 + i
        b.base_sequence = 10 * i
        b.producer_epoch = 3
        b.in_flight = True
        ps = sender.partitions[(topic, part)] = _PS()
        ps.in_flight.append(b)
        acc.incomplete.add(b.result)
        batches.append((b, code))
    waiter = threading.Event()
    batches[0][0].result._waiter = waiter
    seen = []
    batches[1][0].result._listeners = [seen.append]
    frame = ProduceFrame(None, -1, 1000, [b for b, _ in batches])
    frame.decode_response(7, _response(7, [(b.topic, b.partition, c, 40 + i, -1, None, [])
                                          for i, (b, c) in enumerate(batches) if c is not None]))
    rest = finish_acknowledged(frame, sender, acc, threading.Lock())
    assert rest == [2, 3]
    (a0, _), (a1, _), (b0, _), (b1, _) = batches
    assert waiter.is_set() and seen == [a1.result]
    assert (a0.result._done, a0.result.base_offset, a1.result.base_offset) == (True, 40, 41)
    assert (a0.result.log_start_offset, a1.result.log_start_offset) == (47, 48)
    assert not b0.result._done and not b1.result._done
    assert a0.pool_buffer is None and a0.data is None and b0.pool_buffer is not None
    assert acc.incomplete == {b0.result, b1.result}
    assert sender.stats == {"batches": 2, "records": 4 + 5}
    assert sender.partitions[("a", 0)].in_flight == [] and sender.partitions[("a", 0)].last_acked == 3
    assert sender.partitions[("a", 1)].last_acked == 10 + 5 - 1
    assert sender.partitions[("b", 0)].in_flight == [b0]
    assert pool.available_memory == (1 << 20) - 2 * 1024


# -- the one header writer: producer fields at seal time, rewritten in place


def _twins():
    from kafkacodec._pure import records as pure
    out = [(pure.RecordBatchBuilder, pure.set_batch_producer, pure.iter_batches)]
    if _impl.accelerated:
        from kafkacodec.records import _records
        out.append((_records.RecordBatchBuilder, _records.set_batch_producer, _records.iter_batches))
    return out


@pytest.mark.parametrize("twin", range(2 if _impl.accelerated else 1))
@pytest.mark.parametrize("compression", ["none", "lz4"])
def test_set_producer_at_seal_and_rewrite_in_place(twin, compression):
    Builder, set_batch_producer, iter_b = _twins()[twin]
    buf = bytearray(8192)
    b = Builder(2, compression, buffer=buf, batch_size=8192)
    for i in range(20):
        b.append(1000 + i, b"k", b"value %d" % i)
    b.set_producer(77, 4, 1000, False)
    data = b.build()
    with pytest.raises(Exception):
        b.set_producer(1, 1, 1, False)  # built: too late
    (batch,) = list(iter_b(bytes(data), verify_crc=True))
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence, batch.is_transactional) == (77, 4, 1000, False)
    before = bytes(data)
    # renumbered under a new epoch: the same bytes, rewritten
    set_batch_producer(buf, 78, 5, 0x7FFFFFFF, True)
    (batch,) = list(iter_b(bytes(data), verify_crc=True))
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence, batch.is_transactional) == \
        (78, 5, 0x7FFFFFFF, True)
    assert [r.value for r in batch] == [b"value %d" % i for i in range(20)]
    changed = [i for i in range(len(before)) if before[i] != data[i]]
    fields = set(range(layout.V2_CRC, layout.V2_CRC + 4)) | set(range(layout.V2_ATTRIBUTES, layout.V2_ATTRIBUTES + 2)) \
        | set(range(layout.V2_PRODUCER_ID, layout.V2_RECORD_COUNT))
    assert set(changed) <= fields
    set_batch_producer(buf, 78, 5, 3, False)
    (batch,) = list(iter_b(bytes(data), verify_crc=True))
    assert not batch.is_transactional and batch.base_sequence == 3
    with pytest.raises(BufferError):
        set_batch_producer(bytes(data), 1, 1, 1, False)
    with pytest.raises(ValueError):
        set_batch_producer(bytearray(30), 1, 1, 1, False)


def test_twins_write_the_same_header():
    outs = []
    for Builder, set_batch_producer, _ in _twins():
        buf = bytearray(1024)
        b = Builder(2, buffer=buf, batch_size=1024)
        b.append(5, b"k", b"v")
        b.set_producer(9, 2, 40, True)
        n = len(b.build())
        outs.append(bytes(buf[:n]))
        set_batch_producer(buf, 10, 3, 41, False)
        outs.append(bytes(buf[:n]))
    assert outs[0::2] == [outs[0]] * (len(outs) // 2)
    assert outs[1::2] == [outs[1]] * (len(outs) // 2)


# -- through the producer: a split batch's halves keep its numbers (header written at their build)


@pytest.mark.broker
@pytest.mark.timeout(90)
def test_message_too_large_splits_and_every_record_lands_once_in_order(mock3):
    _peers = pytest.importorskip("_peers")
    import uuid

    from kafkacodec.client import Producer
    topic = f"sf-{uuid.uuid4().hex[:8]}"
    _peers.create_topic(mock3, topic, 2)
    with Producer({"bootstrap.servers": mock3, "linger.ms": 50, "batch.size": 4096, "retry.backoff.ms": 20,
                   "max.in.flight.requests.per.connection": 1}) as p:
        p.send(topic, b"warm", partition=0).get(20)
        # the next Produce answers MESSAGE_TOO_LARGE for its partitions: their batches are split
        _peers.mock_fault(mock3, "errors", 0, 10, 10)
        handles = [p.send(topic, b"%d" % i, partition=i % 2) for i in range(600)]
        p.flush(60)
        for h in handles:
            h.get(0)
        assert p.stats.get("splits", 0) >= 1
    got = _peers.consume_with_confluent(mock3, topic, 602, timeout=6)  # 602: a duplicate would show
    values = {}
    for key, value, _, _, offset, partition in got:
        values.setdefault(partition, []).append(value)
    assert values[0] == [b"warm"] + [b"%d" % i for i in range(0, 600, 2)]
    assert values[1] == [b"%d" % i for i in range(1, 600, 2)]
