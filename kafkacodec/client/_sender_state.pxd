# The state the producer's compiled paths (send_path.pyx: send(); _sender_steps.pyx: the
# sender's per-request steps) share with Python (accumulator.py, sender.py),
# declared once: the Python classes inherit these fields, the compiled code
# reads them as typed struct members, so a field renamed or retyped on one
# side fails the build of the other.  The pure twin is
# kafkacodec/_pure/sender_state.py.

cdef class BatchState:
    """A producer batch (accumulator.ProducerBatch)."""
    cdef public object topic
    cdef public object partition
    cdef public object builder          # RecordBatchBuilder while open, then None
    cdef public object append
    cdef public object result           # BatchResult
    cdef public double created
    cdef public double deadline
    cdef public object pool_buffer
    cdef public bint open
    cdef public object data             # the built batch, once closed
    cdef public object raw
    cdef public object stamped
    cdef public Py_ssize_t record_count
    cdef public Py_ssize_t attempts
    cdef public double retry_at
    cdef public object base_sequence    # int once numbered (idempotence)
    cdef public object producer_epoch
    cdef public bint ambiguous
    cdef public bint in_flight
    cdef public object split_from


cdef class SequenceState:
    """A partition's sequence numbers (sender.PartitionState)."""
    cdef public long long next_seq
    cdef public long long last_acked
    cdef public list in_flight


cdef class SenderState:
    """What the compiled steps read of the sender (sender.Sender)."""
    cdef public object metadata
    cdef public object node_in_flight   # collections.Counter: node id -> requests in flight
    cdef public Py_ssize_t max_in_flight
    cdef public bint idempotent
    cdef public dict partitions         # (topic, partition) -> PartitionState
    cdef public double linger
    cdef public object producer_id
    cdef public object producer_epoch
    cdef public object transactional_id
    cdef public object stats            # collections.Counter


cdef class AccumulatorState:
    """What the compiled paths read of the accumulator (accumulator.RecordAccumulator)."""
    cdef public dict deques             # (topic, partition) -> deque of ProducerBatch
    cdef public dict open_slots         # topic -> [open ProducerBatch or None per partition]
    cdef public object lock
    cdef public set incomplete          # BatchResults not yet complete
    cdef public object pool             # BufferPool
