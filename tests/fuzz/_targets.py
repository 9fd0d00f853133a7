"""Fuzz targets: what one input is run through, and what counts as a finding.

Two kinds of target per decoder:

* ``<decoder>`` (pure): the pure-Python twin alone, run with KAFKACODEC_PURE=1
  through the public API.  A finding is any exception that is not the codec's
  own error (IndexError, struct.error, OverflowError, an invalid Arrow array...).
* ``<decoder>-diff``: the compiled module and the pure twin on the same input.
  A finding is any difference in the result (batches, records, Arrow columns,
  decoded messages) or in the error (type, ``.offset``, ``.path``), and any
  exception that is not the codec's own error on either side.

Either kind is coverage-guided: the campaign imports kafkacodec under
``atheris.instrument_imports``, so edges in the pure modules (which mirror the
compiled control flow) steer mutation.  The compiled code is not instrumented.

This module must be imported inside the instrumentation block, after
KAFKACODEC_PURE is set: every kafkacodec module it needs is imported here.
"""
import struct
import traceback

from kafkacodec import _impl
from kafkacodec.errors import KafkaCodecError
import kafkacodec._pure.buffer as _pure_buffer
import kafkacodec._pure.columnar as _pure_columnar
import kafkacodec._pure.records as P
import kafkacodec.records as records_api
import kafkacodec.records.compression  # noqa: F401  (instrumented with the rest)
import kafkacodec.records.isolation  # noqa: F401
import kafkacodec.protocol as protocol
from kafkacodec.protocol import Struct, _pure_codec
from kafkacodec.logdir import _index

try:
    import pyarrow as pa
    import kafkacodec.arrow as ka
except ImportError:  # the Arrow targets need pyarrow; the others run without it
    pa = ka = None

from _seeds import ABORTED, PROTOCOL_RESPONSES
from _avro_target import avro_diff

if _impl.accelerated:
    from kafkacodec import _buffer as _c_buffer
    import kafkacodec.records._records as C
    import kafkacodec.arrow._columnar as _c_columnar
    from kafkacodec.protocol import _codec as _c_protocol
else:
    C = _c_buffer = _c_columnar = _c_protocol = None

# Small limits: a mutated bomb fails fast instead of exhausting memory.
MAX_DECOMPRESSED = 4 << 20
MAX_RECORDS = 10_000
LIMITS = dict(max_decompressed_size=MAX_DECOMPRESSED, max_records_per_batch=MAX_RECORDS)


class Finding(AssertionError):
    """A defect found on one input; ``signature`` groups repeats of the same defect."""

    def __init__(self, message, signature):
        super().__init__(message)
        self.signature = signature


class _Uncaught(Exception):
    def __init__(self, side, exc):
        super().__init__(side, exc)
        self.side = side
        self.exc = exc


def _where(exc):
    """file:line of the innermost frame inside kafkacodec (or the innermost at all)."""
    frames = traceback.extract_tb(exc.__traceback__)
    inside = [f for f in frames if "kafkacodec" in f.filename and "/tests/" not in f.filename]
    f = (inside or frames or [None])[-1]
    if f is None:
        return "?"
    return f"{f.filename.rsplit('kafkacodec', 1)[-1].lstrip('/')}:{f.lineno}"


def err(exc):
    return ("error", type(exc).__name__, getattr(exc, "offset", None), getattr(exc, "path", None))


def _run(side, fn, *args, **kw):
    """fn's outcome: its view, or the codec error's (type, offset, path)."""
    try:
        return fn(*args, **kw)
    except KafkaCodecError as exc:
        return err(exc)
    except (KeyboardInterrupt, SystemExit, MemoryError, Finding, _Uncaught):
        raise
    except Exception as exc:
        raise _Uncaught(side, exc) from exc


def _shorten(v, n=600):
    s = repr(v)
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


def _first_difference(a, b, path="result"):
    """Where two nested outcomes first differ (for a readable finding)."""
    if type(a) is type(b) and isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return path + ".length", len(a), len(b)
    if type(a) is type(b) and isinstance(a, dict):
        for k in a:
            if a[k] != b.get(k):
                return _first_difference(a[k], b.get(k), f"{path}[{k!r}]")
    return path, a, b


def _kind(outcome):
    if isinstance(outcome, tuple) and outcome and outcome[0] == "error":
        return f"{outcome[1]}@{outcome[3]!s:.60}"
    return "result"


def differential(decoder, call, data, compiled, pure):
    """Run both sides of one call; raise a Finding unless they agree."""
    try:
        a = compiled()
    except _Uncaught as u:
        raise Finding(f"{decoder} {call}: compiled raised {type(u.exc).__name__}: {u.exc} "
                      f"(at {_where(u.exc)})", f"{decoder}:uncaught:compiled:{type(u.exc).__name__}:{_where(u.exc)}")
    try:
        b = pure()
    except _Uncaught as u:
        raise Finding(f"{decoder} {call}: pure raised {type(u.exc).__name__}: {u.exc} "
                      f"(at {_where(u.exc)}); compiled gave {_shorten(a, 200)}",
                      f"{decoder}:uncaught:pure:{type(u.exc).__name__}:{_where(u.exc)}")
    if a != b:
        where, x, y = _first_difference(a, b)
        ka_, kb_ = _kind(a), _kind(b)
        raise Finding(
            f"DIFFERENTIAL MISMATCH in {decoder} {call} on {len(data)} input bytes\n"
            f"  first difference at {where}:\n    compiled: {_shorten(x)}\n    pure:     {_shorten(y)}\n"
            f"  compiled outcome: {_shorten(a, 300)}\n  pure outcome:     {_shorten(b, 300)}",
            f"{decoder}:mismatch:{call}:{ka_} vs {kb_}")
    return a


def pure_only(decoder, call, fn):
    try:
        return fn()
    except _Uncaught as u:
        raise Finding(f"{decoder} {call}: raised {type(u.exc).__name__}: {u.exc} (at {_where(u.exc)})",
                      f"{decoder}:uncaught:{type(u.exc).__name__}:{_where(u.exc)}")


# ---------------------------------------------------------------- records

REC_ATTRS = ("offset", "timestamp", "timestamp_type", "key", "value", "headers", "size_in_bytes",
             "checksum", "is_control", "control_type", "control_version", "coordinator_epoch")
BATCH_ATTRS = ("magic", "base_offset", "last_offset", "partition_leader_epoch", "crc", "attributes",
               "base_timestamp", "max_timestamp", "producer_id", "producer_epoch", "base_sequence",
               "record_count", "size_in_bytes", "position", "index", "compression", "compression_id",
               "timestamp_type", "is_transactional", "is_control", "has_delete_horizon", "has_producer_id",
               "next_offset", "delete_horizon_ms")


def _rec_view(r):
    return tuple(getattr(r, a) for a in REC_ATTRS)


def _batch_view(b):
    out = [getattr(b, a) for a in BATCH_ATTRS] + [len(b), bytes(b.raw()), repr(b)]
    try:
        out.append([_rec_view(r) for r in b.records()])
        out.append(b.control_record())
    except KafkaCodecError as exc:
        out.append(err(exc))
    return tuple(out)


def _walk(mod, data, verify_crc):
    """Everything iter_batches shows, including where and how it fails."""
    out = []
    try:
        it = mod.iter_batches(data, verify_crc=verify_crc, **LIMITS)
        for b in it:
            out.append(_batch_view(b))
        out.append(("trailing", it.trailing_bytes, it.position))
    except KafkaCodecError as exc:
        out.append(err(exc))
    return out


def _consumed(mod, data):
    recs = [_rec_view(r) for r in mod.decode_records(
        data, isolation_level="read_committed", aborted_transactions=ABORTED, verify_crc=False, **LIMITS)]
    positions = [b.position for b in mod.filtered_batches(
        data, isolation_level="read_committed", aborted_transactions=ABORTED, verify_crc=False, **LIMITS)]
    return recs, positions


def records_calls(mod, side):
    return [
        ("iter_batches(verify_crc=False)", lambda d: _run(side, _walk, mod, d, False)),
        ("iter_batches(verify_crc=True)", lambda d: _run(side, _walk, mod, d, True)),
        ("decode_records(read_committed)", lambda d: _run(side, _consumed, mod, d)),
    ]


def records_pure(data):
    assert records_api.iter_batches is P.iter_batches, "records target needs KAFKACODEC_PURE=1"
    for call, fn in records_calls(P, "pure"):
        pure_only("records", call, lambda: fn(data))


_C_RECORD_CALLS = records_calls(C, "compiled") if C is not None else []
_P_RECORD_CALLS = records_calls(P, "pure")


def records_diff(data):
    for (call, fc), (_, fp) in zip(_C_RECORD_CALLS, _P_RECORD_CALLS):
        differential("records", call, data, lambda: fc(data), lambda: fp(data))


# ---------------------------------------------------------------- Arrow

# One option set per input, chosen by its length, so every input reproduces.
ARROW_OPTIONS = [
    dict(verify_crc=False, batch_columns=True),
    dict(verify_crc=False, isolation_level="read_committed", aborted_transactions=ABORTED,
         binary_type="large_binary"),
    dict(verify_crc=False, headers=False),
    dict(verify_crc=True),
]


def _columns(rb):
    rb.validate(full=True)   # an invalid array is a finding even when both sides agree
    # timestamps as integers: corrupt input can hold times Python's datetime cannot
    return (str(rb.schema), rb.num_rows,
            {name: (col.cast(pa.int64()) if pa.types.is_timestamp(col.type) else col).to_pylist()
             for name, col in zip(rb.schema.names, rb.columns)})


def _arrow_decode(data, opts):
    return _columns(ka.decode(data, **LIMITS, **opts))


def _arrow_chunked(data, opts):
    # iter_decode with small chunks: the builder is finished and reused between chunks
    return [_columns(rb) for rb in ka.iter_decode(data, max_rows=3, **LIMITS, **opts)]


class _PureArrow:
    """kafkacodec.arrow running on the pure twins (what KAFKACODEC_PURE=1 selects)."""

    names = ("_impl", "ColumnBuilder", "filtered_batches", "RecordBatchBuilder")

    def __enter__(self):
        self.saved = [getattr(ka, n) for n in self.names]
        ka._impl = type("PureImpl", (), {"accelerated": False})
        ka.ColumnBuilder = _pure_columnar.ColumnBuilder
        ka.filtered_batches = P.filtered_batches
        ka.RecordBatchBuilder = P.RecordBatchBuilder

    def __exit__(self, *exc):
        for n, v in zip(self.names, self.saved):
            setattr(ka, n, v)


def _arrow_call(data):
    opts = ARROW_OPTIONS[len(data) % len(ARROW_OPTIONS)]
    fn = _arrow_chunked if len(data) % 7 == 3 else _arrow_decode
    return f"{fn.__name__}({opts})", fn, opts


def arrow_pure(data):
    assert ka.ColumnBuilder is _pure_columnar.ColumnBuilder, "arrow target needs KAFKACODEC_PURE=1"
    call, fn, opts = _arrow_call(data)
    pure_only("arrow", call, lambda: _run("pure", fn, data, opts))


def _arrow_pure_side(fn, data, opts):
    with _PureArrow():
        return _run("pure", fn, data, opts)


def arrow_diff(data):
    call, fn, opts = _arrow_call(data)
    differential("arrow", call, data, lambda: _run("compiled", fn, data, opts),
                 lambda: _arrow_pure_side(fn, data, opts))


# ---------------------------------------------------------------- wrapped record sections

_V2_HEAD = struct.Struct(">qiiBIhiqqqhii")


def wrap_v2(data):
    """A valid v2 batch around fuzzed records: codec = data[0] % 5, attribute bits
    from data[1] (timestamp type, transactional, control), record count data[2],
    the rest the uncompressed records section, compressed here.  Mutations then
    reach the records of compressed batches instead of dying in the inflater."""
    from kafkacodec import crc32c
    from kafkacodec.records.compression import compress
    if len(data) < 3:
        return b""
    codec = data[0] % 5
    attributes = codec | (data[1] & 0x38)
    count = data[2]
    section = compress(codec, data[3:]) if codec else data[3:]
    body = struct.pack(">hiqqqhii", attributes, max(count - 1, 0), 1_700_000_000_000, 1_700_000_000_009,
                       7, 0, 0, count) + section
    return (struct.pack(">qiiB", 100, len(body) + 9, 0, 2) + struct.pack(">I", crc32c(body)) + body)


def wrapped_diff(data):
    batch = wrap_v2(data)
    records_diff(batch)
    if ka is not None:
        arrow_diff(batch)


def wrapped_pure(data):
    batch = wrap_v2(data)
    records_pure(batch)
    if ka is not None:
        arrow_pure(batch)


# ---------------------------------------------------------------- protocol

def _canon(v):
    """Comparable form of a decoded message: every field, which tagged fields
    were present, unknown tagged fields; floats by their bits (NaN == NaN)."""
    if isinstance(v, Struct):
        return (type(v).__name__, tuple(_canon(getattr(v, a)) for a, _, _ in v._fields),
                None if v._tags is None else tuple(sorted(v._tags)), _canon(v._unknown))
    if isinstance(v, (list, tuple)):
        return tuple(_canon(x) for x in v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return ("bytes", bytes(v))
    if isinstance(v, float):
        return ("float", struct.pack(">d", v))
    return (type(v).__name__, v)


def _protocol_input(data):
    """(selector, frame): selector 0 is a request, k > 0 a response of
    PROTOCOL_RESPONSES[(k - 1) % len]; with the top bit set the frame's size
    field is rewritten to fit, so inserting or removing bytes reaches the body."""
    sel, frame = data[0], data[1:]
    if sel & 0x80 and len(frame) >= 4:
        frame = (len(frame) - 4).to_bytes(4, "big") + frame[4:]
    return sel & 0x7F, frame


def _protocol_decode(data, impl):
    if not data:
        return ("empty",)
    sel, frame = _protocol_input(data)
    if sel == 0:
        header, body = protocol.decode_request(frame, impl=impl)
        return _canon(header), _canon(body)
    api, version = PROTOCOL_RESPONSES[(sel - 1) % len(PROTOCOL_RESPONSES)]
    corr, body = protocol.decode_response(api, version, frame, impl=impl)
    return corr, _canon(body)


def _protocol_call(data):
    if not data or data[0] & 0x7F == 0:
        return "decode_request"
    return "decode_response(%s v%d)" % PROTOCOL_RESPONSES[((data[0] & 0x7F) - 1) % len(PROTOCOL_RESPONSES)]


def protocol_pure(data):
    assert protocol.executor is _pure_codec, "protocol target needs KAFKACODEC_PURE=1"
    pure_only("protocol", _protocol_call(data), lambda: _run("pure", _protocol_decode, data, _pure_codec))


def protocol_diff(data):
    differential("protocol", _protocol_call(data), data,
                 lambda: _run("compiled", _protocol_decode, data, _c_protocol),
                 lambda: _run("pure", _protocol_decode, data, _pure_codec))


# ---------------------------------------------------------------- logdir index files

def _check_index(kind, entries, log_size, n_raw):
    """What a parser that did not raise promises about its entries."""
    if kind == 0:
        for a, b in zip(entries, entries[1:]):
            assert a.offset < b.offset and a.position < b.position, (a, b)
        for e in entries:
            assert e.position >= 0 and (log_size is None or e.position == 0 or e.position < log_size), e
    elif kind == 1:
        for a, b in zip(entries, entries[1:]):
            assert a.timestamp <= b.timestamp and a.offset <= b.offset, (a, b)
    else:
        for a, b in zip(entries, entries[1:]):
            assert a.last_offset < b.last_offset, (a, b)
        for e in entries:
            assert e.producer_id >= 0 and e.first_offset <= e.last_offset, e


def _index_parse(data):
    if len(data) < 9:
        return ("short",)
    kind = data[0] % 3
    base, log_size = struct.unpack(">ii", data[1:9])
    log_size = None if log_size < 0 else log_size
    raw = data[9:]
    if kind == 0:
        entries = _index.parse_offset_index(raw, base, log_size, "f.index")
    elif kind == 1:
        entries = _index.parse_time_index(raw, base, "f.timeindex")
    else:
        entries = _index.parse_txn_index(raw, base, "f.txnindex")
    try:
        _check_index(kind, entries, log_size, len(raw))
    except AssertionError as exc:
        raise Finding(f"index kind {kind}: parser returned entries that break its contract: {exc}",
                      f"index:contract:{kind}") from None
    return entries


def index_pure(data):
    pure_only("index", "parse", lambda: _run("pure", _index_parse, data))


# ---------------------------------------------------------------- varints and the Reader

def _varints(mod, data):
    pos = min(data[0] % 4 if data else 0, len(data))
    return tuple(_run("?", getattr(mod, name), data, pos)
                 for name in ("decode_varint", "decode_varlong", "decode_uvarint"))


def _reader_walk(mod, data):
    r = mod.Reader(data)
    out = []
    try:
        while True:
            kind = r.read_int8() & 7
            if kind == 0:
                out.append(r.read_varint())
            elif kind == 1:
                out.append(r.read_varlong())
            elif kind == 2:
                out.append(r.read_bytes(r.read_int16()))
            elif kind == 3:
                out.append(bytes(r.read_view(r.read_uvarint())))
            else:
                out.append(r.read_int64())
    except KafkaCodecError as exc:
        out.append(err(exc))
    return out


def primitives_diff(data):
    differential("primitives", "decode_varint/varlong/uvarint", data,
                 lambda: _run("compiled", _varints, _c_buffer, data), lambda: _run("pure", _varints, _pure_buffer, data))
    differential("primitives", "Reader walk", data,
                 lambda: _run("compiled", _reader_walk, _c_buffer, data),
                 lambda: _run("pure", _reader_walk, _pure_buffer, data))


# name -> (function, needs the compiled extension, seed kind)
TARGETS = {
    "records": (records_pure, False, "records"),
    "records-diff": (records_diff, True, "records"),
    "arrow": (arrow_pure, False, "records"),
    "arrow-diff": (arrow_diff, True, "records"),
    "protocol": (protocol_pure, False, "protocol"),
    "protocol-diff": (protocol_diff, True, "protocol"),
    "wrapped": (wrapped_pure, False, "wrapped"),
    "wrapped-diff": (wrapped_diff, True, "wrapped"),
    "index": (index_pure, False, "index"),
    "primitives-diff": (primitives_diff, True, "records"),
    "avro-diff": (avro_diff, True, "avro"),
}
