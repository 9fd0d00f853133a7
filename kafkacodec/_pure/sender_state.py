"""Pure-Python twin of kafkacodec/client/_sender_state.pyx: the producer state its
compiled paths share with Python, as plain slotted classes (fields as in the .pxd)."""


class BatchState:
    __slots__ = ("topic", "partition", "builder", "append", "result", "created", "deadline", "pool_buffer",
                 "open", "data", "raw", "stamped", "record_count", "attempts", "retry_at", "base_sequence",
                 "producer_epoch", "ambiguous", "in_flight", "split_from")


class SequenceState:
    __slots__ = ("next_seq", "last_acked", "in_flight")


class SenderState:
    __slots__ = ("metadata", "node_in_flight", "max_in_flight", "idempotent", "partitions", "linger",
                 "producer_id", "producer_epoch", "transactional_id", "stats")


class AccumulatorState:
    __slots__ = ("deques", "open_slots", "lock", "incomplete", "pool")
