# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Producer.send's common case in C, and the handle it returns.

``SendPath.send`` is ``Producer.send`` for a non-transactional producer on the
compiled extension: a record without headers or callback, whose partition is
known at once (given, murmur2 or CRC-32 of a bytes key, or the topic's sticky partition),
goes straight into its partition's open batch (``open_slots``) without a lock,
as the accumulator's notes describe, its delivery callback (if any) registered in
the same GIL-atomic step; everything else, and every append that
loses a race with the I/O thread, goes to ``Producer._send``.  The steps are
those of ``Producer.send``'s Python body (producer.py, used on the pure
twin); here they cost about 0.3 us per record instead of 0.7 us (clock, hash,
slot lookup, append and the handle's allocation without the interpreter).

``RecordHandle`` is accumulator.RecordHandle's compiled twin (same attributes
and methods).

``send_path.pxd`` declares both classes and ``SendPath.append``, the common case
alone, for compiled callers that take records with other conventions (the
confluent-kafka face's produce()): they reach the same lock-free append without a
second Python call per record.
"""
cimport cython
from cpython.dict cimport PyDict_GetItem
from cpython.list cimport PyList_Append, PyList_GET_ITEM, PyList_GET_SIZE
from cpython.long cimport PyLong_FromLongLong, PyLong_FromSsize_t
from cpython.object cimport PyCallable_Check, PyObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int64_t, uint8_t, uint32_t

from kafkacodec._crc cimport crc32_update, murmur2_raw
from kafkacodec._primitives cimport exact_int64
from kafkacodec.records._records cimport builder_append
from kafkacodec.client._sender_state cimport BatchState

from kafkacodec.client import errors as E
from kafkacodec.errors import KafkaCodecError

cdef extern from "kc_cpython.h":
    int kc_cpython_check() except -1

cdef extern from "Python.h":
    bint PyBytes_CheckExact(object o)
    char *PyBytes_AS_STRING(object o)
    Py_ssize_t PyBytes_GET_SIZE(object o)

kc_cpython_check()


cdef inline int64_t _now_ms() noexcept nogil:
    # time.time_ns() // 1_000_000, as the pure path computes it
    cdef timespec ts
    clock_gettime(CLOCK_REALTIME, &ts)
    return <int64_t>ts.tv_sec * 1000 + ts.tv_nsec // 1000000


cdef class DeliveryReport:
    """A delivery callback that the compiled report loop (``run_reports``) calls at C level:
    a compiled subclass's ``deliver`` gets the record's error (None once acknowledged) and
    where it landed, without a RecordMetadata made for it.  Called as a function,
    ``(error, metadata)``, as every other callback is (the pure twin's loop)."""

    cdef int deliver(self, object error, object topic, object partition, object offset, object timestamp,
                     int timestamp_type) except -1:
        raise NotImplementedError(f"{type(self).__name__}.deliver")

    def __call__(self, error, metadata):
        if metadata is None:
            self.deliver(error, None, None, -1, None, 0)
        else:
            self.deliver(error, metadata.topic, metadata.partition, metadata.offset, metadata.timestamp,
                         metadata.timestamp_type)


def run_reports(results, list errors, log):
    """Producer.poll()'s loop, compiled: the callbacks of each completed BatchResult queued in
    `results`, in order, each once (the result's list is swapped for () before they run).  A
    callback that raises is logged on `log` (debug) and its exception appended to `errors`;
    the others still run.  Returns how many ran."""
    cdef Py_ssize_t ran = 0
    cdef object result, callbacks, entry, fn, err, base, append_time, md
    cdef bint whole   # a BatchResult not split: its own fields are every record's
    while results:
        result = results.popleft()
        callbacks = result.callbacks
        result.callbacks = ()
        if not callbacks:
            continue
        # else a split batch's (its parts answer) or a held record's (HeldResult)
        whole = getattr(result, "_parts", result) is None
        for entry in callbacks:
            index, ts, fn = entry
            err = result.error if whole else result.error_of(index)
            try:
                if isinstance(fn, DeliveryReport):
                    if err is not None:
                        (<DeliveryReport>fn).deliver(err, result.topic, result.partition, -1, None, 0)
                    elif whole:
                        # BatchResult.metadata's fields, without the tuple
                        base = result.base_offset
                        append_time = result.log_append_time
                        (<DeliveryReport>fn).deliver(None, result.topic, result.partition,
                                                     base + index if base >= 0 else -1,
                                                     append_time if append_time >= 0 else ts,
                                                     1 if append_time >= 0 else 0)
                    else:
                        md = result.metadata(index, ts)
                        (<DeliveryReport>fn).deliver(None, md.topic, md.partition, md.offset, md.timestamp,
                                                     md.timestamp_type)
                else:
                    fn(err, None if err is not None else result.metadata(index, ts))
            except Exception as exc:
                log.debug("delivery callback %r raised for %s[%d]", fn, result.topic, result.partition,
                          exc_info=exc)
                errors.append(exc)
            ran += 1
    return ran


@cython.final
@cython.freelist(64)
@cython.no_gc
cdef class RecordHandle:
    """What ``send()`` returns: a reference to the record's batch, resolved on demand.

    Not tracked by the cycle collector (a handle per record would otherwise start
    collections inside send loops): nothing a BatchResult keeps refers to a handle,
    except a callback the application wrote, which Producer.poll() drops once run."""

    def __init__(self, result, Py_ssize_t index, int64_t timestamp):
        self._result = result
        self._index = index
        self._timestamp = timestamp

    @property
    def topic(self):
        return self._result.topic

    @property
    def partition(self):
        return self._result.partition

    @property
    def timestamp(self):
        return self._timestamp

    def done(self):
        return self._result.done()

    def get(self, timeout=None):
        """RecordMetadata(topic, partition, offset, timestamp) once acknowledged; raises the
        delivery error, or KafkaTimeoutError when `timeout` seconds pass first."""
        if not self._result.wait(timeout):
            raise E.KafkaTimeoutError(f"record to {self.topic}[{self.partition}] not acknowledged within "
                                      f"{timeout:.1f} s")
        return self._result.metadata(self._index, self._timestamp)

    def result(self, timeout=None):
        return self.get(timeout)

    def exception(self, timeout=None):
        if not self._result.wait(timeout):
            raise E.KafkaTimeoutError("not acknowledged yet")
        return self._result.error_of(self._index)

    @property
    def offset(self):
        """The offset once acknowledged, else None (does not block)."""
        if not self._result.done():
            return None
        return self._result.metadata(self._index, self._timestamp).offset

    def __repr__(self):
        state = "pending"
        if self._result.done():
            err = self._result.error_of(self._index)
            state = f"error {err!r}" if err else f"offset {self.offset}"
        return f"<RecordHandle {self.topic}[{self.partition}] #{self._index} {state}>"


cdef inline RecordHandle _handle(object result, Py_ssize_t index, int64_t timestamp):
    cdef RecordHandle h = RecordHandle.__new__(RecordHandle)
    h._result = result
    h._index = index
    h._timestamp = timestamp
    return h


@cython.final
cdef class SendPath:
    """``send`` bound to one producer's open-batch slots (see the module notes)."""

    def __init__(self, dict slots, dict sticky, int key_hash, key_partition, general, completed):
        if key_hash not in (HASH_NONE, HASH_MURMUR2, HASH_CRC32):
            raise ValueError(f"key_hash {key_hash}: 0 (key_partition), 1 (murmur2) or 2 (crc32)")
        self.completed = completed
        self.slots = slots
        self.sticky = sticky
        self.key_hash = key_hash
        self.key_partition = key_partition
        self.general = general

    def send(self, topic, value=None, key=None, headers=None, partition=None, timestamp=None, callback=None):
        """Queue one record; returns its RecordHandle at once (blocks only while the
        topic's metadata or memory for a new batch is missing, up to max.block.ms)."""
        cdef object handle
        if headers is None:
            if callback is None:
                handle = self.append(topic, value, key, partition, timestamp)
            else:
                handle = self.append_reported(topic, value, key, partition, timestamp, callback)
            if handle is not None:
                return handle
        return self.general(topic, value, key, headers, partition, timestamp, callback)

    cdef object append_reported(self, object topic, object value, object key, object partition, object timestamp,
                                object callback):
        """append() of a record with a delivery callback, registered with its batch's result as
        ``RecordAccumulator._add_callback`` does under the lock.  No lock is needed: the append
        and the registration are one GIL-atomic step, as the append alone is (the I/O thread
        cannot seal, send and complete the batch between them).  For that, everything the
        registration allocates on the collector's heap (whose collections may run finalizers,
        that is Python code) is made before the append: the entry, and a list for the first
        callback of a batch (kept for the next record when not used)."""
        cdef int64_t index, ts
        cdef BatchState batch
        cdef object result, callbacks
        cdef object entry
        cdef list first
        if not PyCallable_Check(callback):
            return None  # the general path names it
        entry = PyTuple_New(3)  # (index, timestamp, callback): the first two set once appended
        Py_INCREF(callback)
        PyTuple_SET_ITEM(entry, 2, callback)
        # taken, not shared: _append may run a Python key partitioner, and another thread's
        # append_reported then (the list becomes one batch's callbacks, never two batches')
        first = self.spare_list
        if first is None:
            first = []
        else:
            self.spare_list = None
        batch = self._append(topic, value, key, partition, timestamp, &index, &ts)
        if batch is None:
            self.spare_list = first
            return None
        # from here to the registration: no allocation the collector counts, no Python code
        index_obj = PyLong_FromSsize_t(<Py_ssize_t>index)
        ts_obj = PyLong_FromLongLong(ts)
        Py_INCREF(index_obj)
        PyTuple_SET_ITEM(entry, 0, index_obj)
        Py_INCREF(ts_obj)
        PyTuple_SET_ITEM(entry, 1, ts_obj)
        result = batch.result
        callbacks = result.callbacks
        if callbacks is None:
            PyList_Append(first, entry)
            result.callbacks = first
            if result.sink is None:
                result.sink = self.completed
        else:
            PyList_Append(callbacks, entry)
            self.spare_list = first  # unused: kept for the next batch's first callback
        return _handle(result, index, ts)

    cdef object append(self, object topic, object value, object key, object partition, object timestamp):
        """send()'s common case: the record's RecordHandle, or None where the general
        path must take it (no open batch, a refused argument, a lost race)."""
        cdef int64_t index, ts
        cdef BatchState batch = self._append(topic, value, key, partition, timestamp, &index, &ts)
        return None if batch is None else _handle(batch.result, index, ts)

    cdef object append_unhandled(self, object topic, object value, object key):
        """append() of a record with the partition and timestamp left to the client, for a
        caller that keeps no handle: the BatchResult of the batch it went to, or None as
        append() (no RecordHandle is made, a send loop's one allocation per record)."""
        cdef int64_t index, ts
        cdef BatchState batch = self._append(topic, value, key, None, None, &index, &ts)
        return None if batch is None else batch.result

    cdef BatchState _append(self, object topic, object value, object key, object partition, object timestamp,
                            int64_t *index_out, int64_t *ts_out):
        """The record appended to its partition's open batch: that batch's state, with the
        record's index and timestamp set; None where the general path must take it."""
        cdef PyObject *found
        cdef object slots, item
        cdef BatchState batch
        cdef Py_ssize_t n
        cdef int64_t p = -1, ts = 0, index
        found = PyDict_GetItem(self.slots, topic)
        if found is NULL:
            return None
        slots = <object>found
        n = PyList_GET_SIZE(slots)
        if timestamp is None:
            ts = _now_ms()
        elif not exact_int64(timestamp, &ts) or ts < 0:
            return None  # the general path converts or refuses it
        if n == 0:
            return None
        if partition is None:
            if key is None:
                found = PyDict_GetItem(self.sticky, topic)
                if found is not NULL and not exact_int64(<object>found, &p):
                    p = -1
            elif self.key_hash == HASH_MURMUR2 and PyBytes_CheckExact(key):
                p = (<uint32_t>murmur2_raw(<const uint8_t *>PyBytes_AS_STRING(key),
                                           <size_t>PyBytes_GET_SIZE(key)) & 0x7FFFFFFF) % <uint32_t>n
            elif self.key_hash == HASH_CRC32 and PyBytes_CheckExact(key):
                # librdkafka's consistent(_random): CRC-32 of the key; an empty key is the
                # general path's (sticky for consistent_random, hashed for consistent)
                if PyBytes_GET_SIZE(key) == 0:
                    return None
                p = crc32_update(0, <const uint8_t *>PyBytes_AS_STRING(key),
                                 <size_t>PyBytes_GET_SIZE(key)) % <uint32_t>n
            elif self.key_partition is not None:
                try:
                    p = self.key_partition(key, n)
                except TypeError:
                    p = -1  # not bytes-like: the general path names it
        elif not exact_int64(partition, &p):
            p = -1
        if not 0 <= p < n:
            return None
        item = <object>PyList_GET_ITEM(slots, p)
        if item is None:
            return None
        batch = <BatchState>item
        # no Python code runs from reading the slot to the append (GIL-atomic); a
        # builder built or closed meanwhile by the I/O thread answers -2, a full one -1:
        # the general path then opens the next batch.  A refused record (a key or value
        # not bytes-like) goes there too, to be named: the refusal is written before
        # any byte, so nothing is appended twice
        try:
            index = builder_append(batch.builder, ts, key, value)
        except KafkaCodecError:
            return None
        if index < 0:
            return None
        index_out[0] = index
        ts_out[0] = ts
        return batch
