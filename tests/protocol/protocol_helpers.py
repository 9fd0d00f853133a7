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
# The live tests produce and fetch through the library's own batch builder and
# reader (the protocol carries batches as opaque ``records`` bytes).
from kafkacodec.records import RecordBatchBuilder, iter_batches


def build_batch(values, *, timestamp=1_700_000_000_000, producer_id=-1, producer_epoch=-1,
                base_sequence=-1, transactional=False):
    builder = RecordBatchBuilder(producer_id=producer_id, producer_epoch=producer_epoch,
                                 base_sequence=base_sequence, is_transactional=transactional)
    for key, value in values:
        builder.append(timestamp, key, value)
    return builder.build()


def read_batches(data):
    """[(base_offset, producer_id, is_control, [(key, value), ...])] from v2 batches;
    a partial batch at the end (normal at the end of a fetch) is left out."""
    return [(batch.base_offset, batch.producer_id, batch.is_control,
             [(_bytes(r.key), _bytes(r.value)) for r in batch])
            for batch in iter_batches(data)]


def _bytes(part):
    return None if part is None else bytes(part)
