"""The record layer's logic that is not on a hot path, written once and
bound to each backend (compiled ``_records`` and pure ``_pure.records``):
read_committed filtering, flattening into records, splitting records into
batches and transaction markers.  Only the per-record and per-byte loops
exist twice."""
import time

from kafkacodec.records.isolation import aborted_pairs, read_committed
from kafkacodec.records.layout import ATTR_CONTROL, ATTR_TRANSACTIONAL

CONTROL_ABORT = 0
CONTROL_COMMIT = 1
CONTROL_TYPE_NAMES = {0: "ABORT", 1: "COMMIT"}
SEQUENCE_WRAP = 1 << 31  # producer sequence numbers are int32 and wrap to 0
# What each backend exports (its __all__) and kafkacodec.records re-exports.
PUBLIC_NAMES = (
    "iter_batches", "decode_records", "filtered_batches", "build_control_batch", "build_batches",
    "RecordBatch", "Record", "RecordBatchBuilder", "BatchIterator",
    "CODEC_NAMES", "CONTROL_ABORT", "CONTROL_COMMIT", "CONTROL_TYPE_NAMES",
)


def checked_record_class(record_class, record):
    """None for `record` (the backend's Record) itself, or None; else `record_class`, which must
    be a subclass of it: what a decoder's ``record_class`` option takes."""
    if record_class is None or record_class is record:
        return None
    if not isinstance(record_class, type) or not issubclass(record_class, record):
        raise TypeError(f"record_class: expected Record or a subclass of it, got {record_class!r}")
    return record_class


def bind(iter_batches, RecordBatchBuilder):
    """The shared functions over one backend's batch iterator and builder;
    returns (filtered_batches, decode_records, build_batches, build_control_batch)."""

    def filtered_batches(data, *, isolation_level="read_uncommitted", aborted_transactions=None,
                         verify_crc=True, max_decompressed_size=None, max_records_per_batch=None):
        """Yield the batches holding records a consumer would see: control
        batches are skipped always; with isolation_level "read_committed", so
        are batches of aborted transactions, exactly as the Java consumer decides.

        `aborted_transactions` is the Fetch response's list of (producer_id,
        first_offset) (tuples, dicts or objects with those attributes): an
        aborted range opens when a batch of that producer reaches first_offset
        and closes at the producer's ABORT marker.
        """
        committed = read_committed(isolation_level, aborted_transactions)
        batches = iter_batches(data, verify_crc=verify_crc, max_decompressed_size=max_decompressed_size,
                               max_records_per_batch=max_records_per_batch)
        if not committed:
            for b in batches:
                if not (b.magic >= 2 and b.attributes & ATTR_CONTROL):
                    yield b
            return
        pending = aborted_pairs(aborted_transactions)
        next_abort = 0
        aborted_pids = set()
        for b in batches:
            pid = b.producer_id
            if pid >= 0:
                while next_abort < len(pending) and pending[next_abort][1] <= b.last_offset:
                    aborted_pids.add(pending[next_abort][0])
                    next_abort += 1
                attributes = b.attributes
                if attributes & ATTR_CONTROL:
                    marker = b.control_record()
                    if marker is not None and marker[1] == "ABORT":
                        aborted_pids.discard(pid)
                    continue
                if attributes & ATTR_TRANSACTIONAL and pid in aborted_pids:
                    continue
            if b.magic >= 2 and b.attributes & ATTR_CONTROL:
                continue
            yield b

    def decode_records(data, *, isolation_level="read_uncommitted", aborted_transactions=None,
                       verify_crc=True, max_decompressed_size=None, max_records_per_batch=None,
                       topic=None, partition=None, record_class=None):
        """Flatten the batches a consumer would see (see filtered_batches) into
        a list of Records; control records are never included.  ``topic`` and
        ``partition``, when given, are set on every record; ``record_class``, a
        subclass of Record, is the class of the records made."""
        out = []
        for b in filtered_batches(data, isolation_level=isolation_level,
                                  aborted_transactions=aborted_transactions, verify_crc=verify_crc,
                                  max_decompressed_size=max_decompressed_size,
                                  max_records_per_batch=max_records_per_batch):
            out.extend(b.records(topic, partition, record_class))
        return out

    def build_batches(records, *, magic=2, compression="none", batch_size=16384, base_offset=0, **options):
        """Split (timestamp, key, value[, headers]) tuples into batches closed
        at `batch_size` bytes, as a producer does; returns a list of batch bytes
        with consecutive offsets from `base_offset`.  `options` go to
        RecordBatchBuilder (base_sequence, when given, advances with each batch
        and wraps to 0 past 2**31 - 1)."""
        out = []
        done = 0
        seq = records if isinstance(records, (list, tuple)) else list(records)
        n = len(seq)
        seq_no = options.pop("base_sequence", -1)
        while done < n or not out:
            b = RecordBatchBuilder(magic, compression, base_offset=base_offset + done, batch_size=batch_size,
                                   base_sequence=seq_no, **options)
            added = b._append_from(seq, done)
            out.append(b.build())
            if added == 0:
                break
            done += added
            if seq_no >= 0:
                seq_no = (seq_no + added) % SEQUENCE_WRAP  # after 2**31 - 1 comes 0, as in Kafka
        return out

    def build_control_batch(control_type, *, producer_id, producer_epoch, base_offset=0, timestamp=None,
                            coordinator_epoch=0, partition_leader_epoch=-1):
        """A transaction marker batch: control_type "COMMIT" or "ABORT" (or 1 / 0)."""
        if control_type in ("COMMIT", "commit", CONTROL_COMMIT):
            ctype = CONTROL_COMMIT
        elif control_type in ("ABORT", "abort", CONTROL_ABORT):
            ctype = CONTROL_ABORT
        else:
            raise ValueError(f"control_type must be 'COMMIT' or 'ABORT', not {control_type!r}")
        builder = RecordBatchBuilder(2, "none", base_offset=base_offset, producer_id=producer_id,
                                     producer_epoch=producer_epoch, is_transactional=True, is_control=True,
                                     partition_leader_epoch=partition_leader_epoch)
        key = b"\x00\x00" + ctype.to_bytes(2, "big")
        value = b"\x00\x00" + _int32_bytes(coordinator_epoch)
        builder.append(int(time.time() * 1000) if timestamp is None else timestamp, key, value)
        return builder.build()

    return filtered_batches, decode_records, build_batches, build_control_batch


def _int32_bytes(v):
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"coordinator_epoch must be an int, not {type(v).__name__}")
    try:
        return v.to_bytes(4, "big", signed=True)
    except OverflowError:
        raise OverflowError(f"coordinator_epoch {v} does not fit in 32 bits") from None
