cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t

from kafkacodec.records._v2 cimport RecordView


cdef int raise_record_error(RecordView *r, Py_ssize_t index, Py_ssize_t abs_base) except -1
cdef int check_record_count(int64_t count, Py_ssize_t limit, Py_ssize_t position, int32_t index) except -1
cdef int64_t builder_append(object builder, int64_t timestamp, object key, object value) except -3
cdef bytes inflate(int codec, const uint8_t *p, Py_ssize_t n, object limit, int magic=*)


@cython.final
@cython.no_gc
cdef class _Source:
    cdef Py_buffer view
    cdef bint has_view
    cdef object obj
    cdef const uint8_t *ptr
    cdef Py_ssize_t size


# Declared here so that a compiled subclass (a consumer's record_class) reaches the
# fields: the decoders fill them, whatever the subclass names its own accessors.
@cython.no_gc
@cython.freelist(256)
cdef class Record:
    cdef object _offset
    cdef object _timestamp
    cdef object _timestamp_type
    cdef object _key
    cdef object _value
    cdef object _headers
    cdef object _topic              # set when the decoder is told (a consumer's fetch); else None
    cdef object _partition
    cdef object _leader_epoch       # the batch's partition leader epoch; -1 unknown (legacy)
    # the two 4-byte fields side by side: no padding, so a record is 104 bytes, not 112
    cdef int32_t _size
    cdef bint _is_control
    cdef int64_t _checksum          # legacy CRC; -1 for v2


@cython.final
@cython.freelist(64)
cdef class RecordBatch:
    cdef _Source _src
    cdef readonly int magic
    cdef readonly int64_t base_offset
    cdef readonly int64_t last_offset
    cdef readonly int32_t partition_leader_epoch
    cdef readonly uint32_t crc
    cdef readonly int attributes
    cdef readonly int64_t base_timestamp
    cdef readonly int64_t max_timestamp
    cdef readonly int64_t producer_id
    cdef readonly int producer_epoch
    cdef readonly int32_t base_sequence
    cdef readonly int32_t record_count
    cdef readonly Py_ssize_t size_in_bytes
    cdef readonly Py_ssize_t position      # byte offset of the batch in the input
    cdef int32_t _index
    cdef object _max_decompressed
    cdef list _legacy_records               # decoded eagerly for magic 0/1
    cdef list _v2_records(self, object topic=*, object partition=*, object record_class=*)


@cython.final
cdef class BatchIterator:
    cdef _Source _src
    cdef Py_ssize_t _pos
    cdef int32_t _index
    cdef bint _verify_crc
    cdef object _max_decompressed
    cdef Py_ssize_t _max_records
    cdef readonly Py_ssize_t trailing_bytes


cdef int copy_record(Record dst, Record src) except -1
