"""Seed inputs for the fuzz targets: small valid inputs of every kind, made
with the library's own builders and encoders (so a seed is valid by
construction and mutations start from deep inside each decoder)."""
import struct
import uuid

# Input layouts shared with _targets: protocol inputs are one selector byte and
# a frame; index inputs are a selector byte, a 4-byte base offset, a 4-byte
# log size and the file's bytes.
PROTOCOL_RESPONSES = (
    [("Fetch", v) for v in (0, 4, 7, 11, 12, 13, 15, 16, 17)]
    + [("Produce", v) for v in (2, 3, 7, 8, 9, 10, 11)]
    + [("Metadata", v) for v in (0, 1, 5, 9, 10, 12, 13)]
    + [("ApiVersions", v) for v in (0, 3)]
    + [("JoinGroup", 5), ("JoinGroup", 9), ("SyncGroup", 5), ("OffsetCommit", 8), ("OffsetFetch", 8),
       ("ListOffsets", 7), ("FindCoordinator", 4), ("InitProducerId", 4)]
)
PROTOCOL_REQUESTS = PROTOCOL_RESPONSES
CODECS = ("none", "gzip", "snappy", "lz4", "zstd")


def _records(n, headers):
    out = []
    for i in range(n):
        key = None if i % 3 == 2 else b"key-%d" % i
        value = None if i % 5 == 4 else b'{"n": %d}' % i
        hdrs = [("trace", b"t%d" % i), ("null", None), ("\u00fcn", b"")] if headers and i % 2 == 0 else []
        out.append((1_700_000_000_000 + i * 7 - 3, key, value, hdrs))
    return out


def record_seeds():
    """Valid batches: every codec and magic, transactional and control batches, headers."""
    from kafkacodec.records import RecordBatchBuilder, build_batches, build_control_batch

    seeds = []
    for codec in CODECS:
        b = RecordBatchBuilder(2, codec, producer_id=1, producer_epoch=0, base_sequence=0)
        b.append(1, b"k", b"v", headers=[("h", b"x")])
        b.append(2, None, b"value")
        seeds.append(b.build())
        seeds.append(b"".join(build_batches(_records(9, True), compression=codec, batch_size=300,
                                            base_offset=10, producer_id=2, producer_epoch=1,
                                            base_sequence=5, is_transactional=True)))
        seeds.append(b"".join(build_batches(_records(4, False), compression=codec, timestamp_type=1,
                                            log_append_time=1_800_000_000_000, partition_leader_epoch=3)))
    for magic in (0, 1):
        for codec in CODECS[:4] + (("zstd",) if magic else ()):
            b = RecordBatchBuilder(magic, codec, base_offset=5)
            b.append(3, b"key", b"val")
            b.append(4, None, None)
            b.append(5, b"", b"x" * 20)
            seeds.append(b.build())
        seeds.append(b"".join(build_batches([r[:3] for r in _records(6, False)], magic=magic, batch_size=120,
                                            base_offset=100)))
    # A transaction that aborts, one that commits, an empty batch.
    txn = []
    for pid, first, marker in ((7, 0, "ABORT"), (8, 3, "COMMIT")):
        b = RecordBatchBuilder(2, "none", base_offset=first, producer_id=pid, producer_epoch=0,
                               base_sequence=0, is_transactional=True)
        b.append(10, b"t", b"in-txn")
        b.append(11, b"t", b"in-txn-2")
        txn.append(b.build())
        txn.append(build_control_batch(marker, producer_id=pid, producer_epoch=0, base_offset=first + 2,
                                       timestamp=12, coordinator_epoch=4))
    seeds.append(b"".join(txn))
    seeds.append(build_control_batch("COMMIT", producer_id=1, producer_epoch=0, timestamp=1))
    seeds.append(RecordBatchBuilder(2, "none").build())
    seeds.append(b"".join(seeds[:3]) + seeds[0][:30])   # with a partial trailing batch
    return seeds


# The aborted list the read_committed calls use: it matches the producers and
# offsets of the seeds above, so filtering paths are reached.
ABORTED = [(7, 0), (2, 10), (1, 0), (8, 50)]


def _value(op, pc, salt):
    k = op.kind
    ints = {pc.INT8: 7, pc.INT16: 300, pc.INT32: 70000, pc.INT64: 2**40 + 3, pc.UINT16: 65000,
            pc.UINT32: 3_000_000_000}
    if k in ints:
        return ints[k] - salt
    if k == pc.FLOAT64:
        return 1.5
    if k == pc.BOOL:
        return True
    if k == pc.UUID:
        return uuid.UUID(int=0x1234_5678_9ABC_DEF0 + salt)
    if k == pc.STRING:
        return f"{op.attr or 'item'}-\u00e9{salt}"
    if k == pc.BYTES:
        return bytes([1, 2, 3, salt & 0xFF])
    if k == pc.RECORDS:
        return _BATCH
    if k == pc.ARRAY:
        return [_value(op.elem, pc, i) for i in range(2)]
    if k == pc.STRUCT:
        return _populate(op.child, pc, salt)
    raise AssertionError(k)


def _populate(plan, pc, salt=0):
    obj = plan.cls()
    for op in plan.ops + plan.tagged:
        setattr(obj, op.attr, _value(op, pc, salt))
    return obj


_BATCH = b""


def protocol_seeds():
    """One selector byte + a frame: 0 = a request (any API, read from the frame),
    k > 0 = a response of PROTOCOL_RESPONSES[(k - 1) % len], top bit = the
    harness fixes the frame size; each message both empty (defaults) and with
    every field set."""
    global _BATCH
    from kafkacodec.protocol import REQUESTS, RESPONSES, api_key_of, encode_request, encode_response, pure_executor
    from kafkacodec.records import RecordBatchBuilder

    b = RecordBatchBuilder(2, "none")
    b.append(1, b"k", b"v")
    _BATCH = b.build()
    seeds = []
    for i, (api, version) in enumerate(PROTOCOL_RESPONSES):
        key = api_key_of(api)
        for full in (False, True):
            spec = RESPONSES[key]
            body = _populate(spec.plan(version, pure_executor), pure_executor) if full else spec.cls()
            frame = encode_response(key, version, 1234, body)
            seeds.append(bytes([i + 1]) + frame)
            seeds.append(bytes([0x80 | (i + 1)]) + frame)
    for api, version in PROTOCOL_REQUESTS:
        key = api_key_of(api)
        for full in (False, True):
            spec = REQUESTS[key]
            body = _populate(spec.plan(version, pure_executor), pure_executor) if full else spec.cls()
            frame = encode_request(key, version, body, correlation_id=99, client_id="fuzz")
            seeds.append(b"\x00" + frame)
            seeds.append(b"\x80" + frame)
    return seeds


def index_seeds():
    """Selector (0 .index, 1 .timeindex, 2 .txnindex), base offset, log size, file bytes."""
    def head(kind, base, log_size):
        return bytes([kind]) + struct.pack(">ii", base, log_size)

    offset_index = b"".join(struct.pack(">ii", rel, pos) for rel, pos in ((0, 0), (5, 4100), (9, 8300)))
    time_index = b"".join(struct.pack(">qi", ts, rel) for ts, rel in ((100, 0), (100, 4), (250, 9)))
    txn_index = b"".join(struct.pack(">hqqqq", 0, pid, first, last, lso)
                         for pid, first, last, lso in ((3, 100, 110, 100), (4, 105, 120, 111)))
    return [
        head(0, 1000, 9000) + offset_index,
        head(0, 0, -1) + offset_index + bytes(24),      # preallocated zero padding, no log size
        head(1, 1000, 0) + time_index + bytes(36),
        head(2, 100, 0) + txn_index,
        head(0, 0, 0) + bytes(64),
    ]


def wrapped_seeds():
    """codec byte, attribute bits, record count, uncompressed records section
    (the layout _targets.wrap_v2 turns into a batch), for every codec."""
    from kafkacodec.records import RecordBatchBuilder

    seeds = []
    for headers in (False, True):
        b = RecordBatchBuilder(2, "none")
        for r in _records(5, headers):
            b.append(*r)
        section = b.build()[61:]
        for codec in range(5):
            seeds.append(bytes([codec, 0x10 if headers else 0x08, 5]) + section)
    from kafkacodec.records import build_control_batch
    marker = build_control_batch("ABORT", producer_id=7, producer_epoch=0, timestamp=1)
    seeds.append(bytes([0, 0x30, 1]) + marker[61:])
    return seeds
