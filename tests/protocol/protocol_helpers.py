"""Build fully populated messages from a codec plan (every field non-default)."""
import uuid

from kafkacodec.protocol import _pure_codec as pc

_INT_VALUES = {pc.INT8: 7, pc.INT16: 300, pc.INT32: 70000, pc.INT64: 2**40 + 3,
               pc.UINT16: 65000, pc.UINT32: 3_000_000_000}


def value_for(op, depth=0, salt=0):
    k = op.kind
    if k in _INT_VALUES:
        return _INT_VALUES[k] - salt
    if k == pc.FLOAT64:
        return 1.5 + salt
    if k == pc.BOOL:
        return not bool(op.default) if op.attr is not None else True
    if k == pc.UUID:
        return uuid.UUID(int=0x1234_5678_9ABC_DEF0 + salt)
    if k == pc.STRING:
        return f"{op.attr or 'item'}-é{salt}"
    if k == pc.BYTES:
        return bytes([1, 2, 3, salt & 0xFF])
    if k == pc.RECORDS:
        return bytes(range(20))
    if k == pc.ARRAY:
        return [value_for(op.elem, depth + 1, i) for i in range(2)]
    if k == pc.STRUCT:
        return populate(op.child, depth + 1, salt)
    raise AssertionError(k)


def populate(plan, depth=0, salt=0):
    obj = plan.cls()
    for op in plan.ops + plan.tagged:
        setattr(obj, op.attr, value_for(op, depth, salt))
    return obj


def plan_of(spec, version):
    return spec.plan(version, pc)


# ---------------------------------------------------------------- record batches
# A minimal RecordBatch v2 writer/reader on kafkacodec primitives, so the live
# protocol tests do not depend on the record layer being importable.
import struct as _struct

from kafkacodec._impl import buffer as _buffer, crc as _crc


def build_batch(values, *, base_offset=0, timestamp=1_700_000_000_000, producer_id=-1,
                producer_epoch=-1, base_sequence=-1, transactional=False):
    body = _buffer.Writer()
    for i, (key, value) in enumerate(values):
        rec = _buffer.Writer()
        rec.write_int8(0)            # attributes
        rec.write_varlong(0)         # timestamp delta
        rec.write_varint(i)          # offset delta
        for part in (key, value):
            if part is None:
                rec.write_varint(-1)
            else:
                rec.write_varint(len(part))
                rec.write_object(part)
        rec.write_varint(0)          # headers
        raw = rec.to_bytes()
        body.write_varint(len(raw))
        body.write_object(raw)
    records = body.to_bytes()
    n = len(values)
    attrs = 0x10 if transactional else 0
    after_crc = _struct.pack(">hiqqqhii", attrs, n - 1, timestamp, timestamp, producer_id,
                             producer_epoch, base_sequence, n) + records
    crc = _crc.crc32c(after_crc)
    head = _struct.pack(">qiibI", base_offset, 4 + 1 + 4 + len(after_crc), 0, 2, crc)
    return head + after_crc


def read_batches(data):
    """[(base_offset, producer_id, is_control, [(key, value), ...])] from v2 batches."""
    mv = memoryview(data).cast("B")
    out = []
    pos = 0
    while len(mv) - pos >= 61:
        base_offset, length, _epoch, magic, crc = _struct.unpack_from(">qiibI", mv, pos)
        end = pos + 12 + length
        if end > len(mv):
            break  # a partial batch at the end of a fetch is normal
        assert magic == 2
        assert _crc.crc32c(mv[pos + 21:end]) == crc
        attrs, _lod, _ft, _mt, pid, _pe, _bs, count = _struct.unpack_from(">hiqqqhii", mv, pos + 21)
        r = _buffer.Reader(mv, pos + 61, end)
        recs = []
        for _ in range(count):
            r.read_varint()
            r.read_int8()
            r.read_varlong()
            r.read_varint()
            kv = []
            for _part in range(2):
                n = r.read_varint()
                kv.append(None if n < 0 else r.read_bytes(n))
            for _h in range(r.read_varint()):
                r.read_bytes(r.read_varint())
                n = r.read_varint()
                if n >= 0:
                    r.read_bytes(n)
            recs.append(tuple(kv))
        out.append((base_offset, pid, bool(attrs & 0x20), recs))
        pos = end
    return out
