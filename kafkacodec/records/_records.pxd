from kafkacodec.records._v2 cimport RecordView

cdef int raise_record_error(RecordView *r, Py_ssize_t index, Py_ssize_t abs_base) except -1
