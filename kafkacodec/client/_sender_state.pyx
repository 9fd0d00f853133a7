# cython: language_level=3
"""The producer state shared by its compiled paths and Python: the fields are
declared in _sender_state.pxd; the Python classes over them (ProducerBatch,
PartitionState, Sender, RecordAccumulator) keep the behaviour."""


cdef class BatchState:
    pass


cdef class SequenceState:
    pass


cdef class SenderState:
    pass


cdef class AccumulatorState:
    pass
