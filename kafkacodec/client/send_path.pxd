# The compiled send path's C-level interface (send_path.pyx), for compiled callers
# that queue records with conventions of their own (compat/confluent_kafka/_produce.pyx).
from libc.stdint cimport int64_t

# the clocks of the send path (a record's timestamp) and of compiled callers (a report's latency)
cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk_id, timespec *tp)
    int CLOCK_REALTIME
    int CLOCK_MONOTONIC

from kafkacodec.client._sender_state cimport BatchState


cdef enum:
    HASH_NONE = 0
    HASH_MURMUR2 = 1       # Kafka's default partitioner (murmur2 & 0x7fffffff) % partitions
    HASH_CRC32 = 2         # librdkafka's consistent(_random): crc32 % partitions


cdef class DeliveryReport:
    # a delivery callback run compiled (run_reports): handed the record's fields, no RecordMetadata
    cdef int deliver(self, object error, object topic, object partition, object offset, object timestamp,
                     int timestamp_type) except -1


cdef class RecordHandle:
    cdef readonly object _result
    cdef readonly Py_ssize_t _index
    cdef readonly int64_t _timestamp


cdef class SendPath:
    cdef dict slots        # topic -> [open ProducerBatch or None per partition]
    cdef dict sticky       # topic -> partition for records without a key
    cdef int key_hash      # HASH_MURMUR2 or HASH_CRC32: keys hashed here (HASH_NONE: key_partition, else the general path)
    cdef object key_partition
    cdef object general    # Producer._send(topic, value, key, headers, partition, timestamp, callback)
    cdef object completed  # where a completed result with callbacks is queued (RecordAccumulator.completed)
    cdef list spare_list   # made before an append, for the first callback of a batch (append_reported)

    cdef object append(self, object topic, object value, object key, object partition, object timestamp)
    cdef object append_unhandled(self, object topic, object value, object key)
    cdef object append_reported(self, object topic, object value, object key, object partition, object timestamp,
                                object callback)
    cdef BatchState _append(self, object topic, object value, object key, object partition, object timestamp,
                            int64_t *index_out, int64_t *ts_out)
