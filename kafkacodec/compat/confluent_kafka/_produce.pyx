# cython: language_level=3, boundscheck=False, wraparound=False
"""confluent-kafka's produce() for the face's Producer, compiled.

A message with nothing to translate (bytes or None for key and value, no headers,
the partition and timestamp left to the client) goes straight to the client
producer's compiled send path: without a delivery report to ``SendPath.append_unhandled``
(which makes no RecordHandle: produce() returns None), so that the face costs the
client's send() no second Python call per message; with one to
``SendPath.append_reported``, its report object (``Delivery``, a client
``DeliveryReport`` served by the client's compiled report loop) the client's callback.  Every other message,
and every one the send path declines, goes to ``Producer._produce`` (_producer.py),
which translates and checks each argument.

A message's report refers to the Producer's ``Reports`` ledger, never to the Producer:
a Producer dropped with reports unserved is then collected, and closes its client, as
confluent-kafka's is (a report referring to it kept it, and its I/O thread, alive).
Reports are not tracked by the cycle collector: a reporting producer has a report per
message in flight, and tracked they started collections (gen0, then whole-heap ones of
~20 ms at 50,000 messages/s) that a confluent-kafka program does not have.  A report
refers only to the ledger, the application's callback and the message's own fields, so
no cycle of the client's passes through one.

len() counts the messages without a report that are not yet acknowledged.  They
are counted per batch, not kept one by one: a handle kept per message costs more
than the rest of produce() (an allocation that outlives the loop instead of one
reused at once).  Each batch a message went to is an entry with a count; a message
for one of the last few entries adds to its count (records of a few partitions
interleave), else it opens an entry.
"""
cimport cython
from cpython.list cimport PyList_GET_ITEM
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.object cimport PyCallable_Check, PyObject

from kafkacodec.client.send_path cimport (CLOCK_MONOTONIC, DeliveryReport, RecordHandle, SendPath, clock_gettime,
                                          timespec)

from kafkacodec.client.errors import CallbackError
from kafkacodec.compat.confluent_kafka._types import Message

cdef extern from "Python.h":
    bint PyBytes_CheckExact(object o)
    bint PyLong_CheckExact(object o)
    bint PyFloat_CheckExact(object o)

# librdkafka's timestamp types (_types.py)
cdef int TIMESTAMP_CREATE_TIME = 1
cdef int TIMESTAMP_LOG_APPEND_TIME = 2


cdef inline double _monotonic() noexcept nogil:
    # time.monotonic(), as the pure twin reads it
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9

# how many of the newest entries a message's batch is looked for in
cdef enum:
    RECENT = 8


@cython.final
cdef class Reports:
    """One Producer's delivery-report ledger, which its messages' reports (Delivery) update
    without referring to the Producer itself."""
    cdef public Py_ssize_t outstanding        # messages with a delivery report to serve
    cdef public bint only_errors              # delivery.report.only.error
    cdef public list raised                   # exceptions of on_delivery, for the caller of poll()/flush()
    cdef public object report_failed          # report_failed(report, error, partition): a module function

    def __cinit__(self):
        self.raised = []


cdef class ProducerCore:
    """What produce() reads of the face's Producer, typed; the Producer (a Python
    subclass) keeps these in step."""
    cdef SendPath _path
    cdef public bint _closed
    cdef readonly Reports _reports
    cdef public Py_ssize_t _max_messages      # queue.buffering.max.messages
    cdef public object _on_delivery           # the configured on_delivery, or None
    cdef object _report                       # report(reports, fn, topic, key, value, partition): the client's callback
    cdef object _client_poll                  # the client producer's poll()...
    cdef object _network                      # ...and its NetworkClient (fatal_error)
    cdef list _batches                        # BatchResults of messages without a report...
    cdef Py_ssize_t *_counts                  # ...and how many went to each
    cdef Py_ssize_t _start                    # entries before this one are done
    cdef Py_ssize_t _capacity
    cdef readonly Py_ssize_t _tracked         # messages in the entries from _start on

    def __cinit__(self, *args, **kwargs):
        self._closed = True  # until __init__ has opened the client: __del__ then has nothing to close
        self._batches = []
        self._reports = Reports()

    def __dealloc__(self):
        PyMem_Free(self._counts)

    def _send_through(self, send, report, client_poll=None, network=None):
        """Take the client producer's send(): its compiled path when it has one; `report` makes
        the client's delivery callback of a message with an on_delivery (``Delivery``);
        poll(0) goes straight to `client_poll` (the client producer's poll) when given."""
        owner = getattr(send, "__self__", None)
        self._path = owner if isinstance(owner, SendPath) else None
        self._report = report
        self._client_poll = client_poll
        self._network = network

    def poll(self, timeout=-1):
        """Serve delivery reports, waiting up to `timeout` seconds (None or -1: until one arrives) for the
        first; returns how many were served.  A callback's exception is raised here."""
        if (self._client_poll is not None and not self._closed and not self._reports.raised
                and (PyLong_CheckExact(timeout) or PyFloat_CheckExact(timeout)) and timeout == 0):
            # poll(0) after every produce() is confluent-kafka's documented loop: its steps here,
            # the rest (waits, a closed producer, a callback's exception kept) in Producer._poll
            self._forget_done()
            try:
                served = self._client_poll(0)
            except CallbackError as exc:
                raise (exc.errors[0] if exc.errors else exc) from None  # the callback's own, as confluent-kafka's
            if self._reports.raised or self._network.fatal_error is not None:
                self._report_failure()
                self._raise_kept()
            return served
        return self._poll(timeout)

    def produce(self, topic, value=None, key=None, partition=-1, callback=None, on_delivery=None, timestamp=0,
                headers=None):
        """Queue one message; the delivery report reaches on_delivery(err, msg) from poll() or flush().
        BufferError when queue.buffering.max.messages are queued, or no memory frees up within max.block.ms."""
        cdef object batch, fn, report, handle
        if (self._path is not None and headers is None and not self._closed
                and (value is None or PyBytes_CheckExact(value)) and (key is None or PyBytes_CheckExact(key))
                and PyLong_CheckExact(partition) and partition == -1
                and PyLong_CheckExact(timestamp) and timestamp == 0
                and self._reports.outstanding + self._tracked < self._max_messages):
            fn = on_delivery if on_delivery is not None else callback
            if fn is None:
                fn = self._on_delivery
            if fn is None:
                batch = self._path.append_unhandled(topic, value, key)
                if batch is not None:
                    self._count(batch)
                    return None
            elif PyCallable_Check(fn):
                # a delivery report: the client runs `report` for it from poll()/flush()
                report = self._report(self._reports, fn, topic, key, value, -1)
                if self._path.append_reported(topic, value, key, None, None, report) is not None:
                    self._reports.outstanding += 1
                    return None
        return self._produce(topic, value, key, partition, callback, on_delivery, timestamp, headers)

    cdef int _count(self, object batch) except -1:
        cdef Py_ssize_t end = len(self._batches), i = end - 1
        cdef Py_ssize_t stop = max(self._start, end - RECENT)
        cdef Py_ssize_t *grown
        while i >= stop:
            if <PyObject *>PyList_GET_ITEM(self._batches, i) is <PyObject *>batch:
                self._counts[i] += 1
                self._tracked += 1
                return 0
            i -= 1
        if end == self._capacity:
            grown = <Py_ssize_t *>PyMem_Realloc(self._counts, (2 * end + 64) * sizeof(Py_ssize_t))
            if grown is NULL:
                raise MemoryError()
            self._counts = grown
            self._capacity = 2 * end + 64
        self._batches.append(batch)
        self._counts[end] = 1
        self._tracked += 1
        return 0

    def _track(self, handle):
        """Count a message without a report (its RecordHandle from the client's send())."""
        if type(handle) is RecordHandle:
            self._count((<RecordHandle>handle)._result)
        else:
            self._count(_Done(handle))

    def _forget_done(self):
        """Drop the entries whose batch is done, from the oldest on."""
        cdef Py_ssize_t start = self._start, end = len(self._batches)
        while start < end and (<object>PyList_GET_ITEM(self._batches, start)).done():
            self._tracked -= self._counts[start]
            start += 1
        if start > 1024 and start * 2 > end:
            # cut seldom, so that counting only appends
            del self._batches[:start]
            for i in range(end - start):
                self._counts[i] = self._counts[start + i]
            start = 0
        self._start = start

    def _unreported(self):
        """Messages without a report whose batch is not done."""
        cdef Py_ssize_t i, n = 0
        for i in range(self._start, len(self._batches)):
            if not (<object>PyList_GET_ITEM(self._batches, i)).done():
                n += self._counts[i]
        return n


@cython.final
@cython.no_gc
cdef class Delivery(DeliveryReport):
    """The client's delivery callback of one message with an on_delivery (the compiled twin of
    ``_pure/confluent_produce.Delivery``): counts it served and calls on_delivery(err, msg)
    with the Message librdkafka would report (headers not included, as there).  The client's
    compiled report loop hands it the record's fields (``DeliveryReport.deliver``); a failure
    is translated by the ledger's ``report_failed``, as the pure twin's is.  Untracked by the
    cycle collector (see the module notes): it must never refer to the Producer, its client
    or the record's handle."""
    cdef readonly Reports reports
    cdef readonly object fn, topic, key, value, partition
    cdef readonly double start

    def __init__(self, Reports reports, fn, topic, key, value, partition):
        self.reports = reports
        self.fn = fn
        self.topic = topic
        self.key = key
        self.value = value
        self.partition = partition
        self.start = _monotonic()

    def placed(self, handle):
        """send() returned the message's handle: not kept (the report loop names the partition)."""

    cdef int deliver(self, object error, object topic, object partition, object offset, object timestamp,
                     int timestamp_type) except -1:
        cdef Reports reports = self.reports
        reports.outstanding -= 1
        fn = self.fn
        if fn is None or (error is None and reports.only_errors):
            return 0
        if error is not None:
            reports.report_failed(self, error, partition)
            return 0
        msg = Message(self.topic, partition, offset, self.key, self.value, None, None,
                      (TIMESTAMP_LOG_APPEND_TIME if timestamp_type == 1 else TIMESTAMP_CREATE_TIME, timestamp),
                      _monotonic() - self.start)
        try:
            fn(None, msg)
        except Exception as exc:
            # kept for the caller of poll()/flush(), as confluent-kafka raises the callback's exception
            reports.raised.append(exc)
        return 0


cdef class _Done:
    """A handle of another kind (not the compiled client's) as an entry: done() asks it."""
    cdef object handle

    def __init__(self, handle):
        self.handle = handle

    def done(self):
        return self.handle.done()
