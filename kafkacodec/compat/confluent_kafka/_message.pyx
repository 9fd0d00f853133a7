# cython: language_level=3, boundscheck=False, wraparound=False
"""confluent-kafka's Message, compiled: the twin of ``_types.Message`` (which mypy
and the pure-Python mode use), with the same constructor, methods and meaning.

A consumer hands out one Message per record, and programs call several of its
methods per message (``error()`` at least): as a Python class those calls and
the object's making cost more than the client's whole poll per record.  A
consumed message reads its kafkacodec Record on demand (``_record``) until a
setter copies the record's fields into the message.

Messages made from records are not tracked by the cycle collector: they refer
only to a Record (itself untracked) or to what it holds, so they cannot be in a
cycle, and a consumer making millions of them would otherwise start collections
that walk every message a program still holds (half the consume loop's time).
A setter, which may store anything, tracks the message again.
"""
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
cimport cython

from types import GenericAlias

# imported by _types.py once K and V are made: the same type variables
from kafkacodec.compat.confluent_kafka._types import K, V

cdef extern from "Python.h":
    void PyObject_GC_Track(object o)
    void PyObject_GC_UnTrack(object o)
    int PyObject_GC_IsTracked(object o)

# librdkafka's timestamp types (_types.py)
cdef int TIMESTAMP_NOT_AVAILABLE = 0


@cython.freelist(256)
cdef class Message:
    """A consumed or produced message, or an event (``error()`` is not None).  Generic in the
    key and value a DeserializingConsumer makes of the bytes: ``deserialized_key()`` and
    ``deserialized_value()`` are ``key()`` and ``value()`` typed so."""
    cdef public object _topic, _partition, _offset, _key, _value, _headers, _error, _timestamp
    cdef public object _latency, _leader_epoch, _delivery_count
    cdef public object _record   # the consumed Record read on demand, until a setter copies it

    __class_getitem__ = classmethod(GenericAlias)
    __parameters__ = (K, V)

    def __init__(self, topic=None, partition=None, offset=None, key=None, value=None, headers=None, error=None,
                 timestamp=None, latency=None, leader_epoch=None, delivery_count=None):
        self._topic = topic
        self._partition = partition
        self._offset = offset
        self._key = key
        self._value = value
        self._headers = headers
        self._error = error
        self._timestamp = (TIMESTAMP_NOT_AVAILABLE, 0) if timestamp is None else timestamp
        self._latency = latency
        self._leader_epoch = leader_epoch
        self._delivery_count = delivery_count

    @staticmethod
    def _of_record(r):
        """A consumed kafkacodec Record as a Message (timestamp types: Kafka's 0/1 -> 1/2)."""
        cdef Message m = Message.__new__(Message)
        PyObject_GC_UnTrack(m)
        m._fill(r)
        return m

    @staticmethod
    def _over_record(r):
        """A consumed kafkacodec Record as a Message that reads the record as asked."""
        cdef Message m = Message.__new__(Message)
        PyObject_GC_UnTrack(m)
        m._record = r
        return m

    cpdef _fill(self, r):
        self._topic = r.topic
        self._partition = r.partition
        self._offset = r.offset
        self._key = r.key
        self._value = r.value
        h = r.headers
        self._headers = list(h) if h else None
        self._error = None
        self._timestamp = _timestamp_of(r)
        self._latency = None
        self._leader_epoch = None
        self._delivery_count = None
        self._record = None

    cdef inline int _plain(self) except -1:
        """Before a setter: the record's fields copied in, and the message tracked (it may
        now hold anything)."""
        if self._record is not None:
            self._fill(self._record)
        if not PyObject_GC_IsTracked(self):
            PyObject_GC_Track(self)
        return 0

    def topic(self):
        return self._topic if self._record is None else self._record.topic

    def partition(self):
        return self._partition if self._record is None else self._record.partition

    def offset(self):
        return self._offset if self._record is None else self._record.offset

    def key(self):
        return self._key if self._record is None else self._record.key

    def value(self):
        return self._value if self._record is None else self._record.value

    def deserialized_key(self):
        """key(), typed as the key a DeserializingConsumer[K, V] made of it."""
        return self._key if self._record is None else self._record.key

    def deserialized_value(self):
        """value(), typed as the value a DeserializingConsumer[K, V] made of it."""
        return self._value if self._record is None else self._record.value

    def headers(self):
        """A list of (str, bytes | None), or None when the message has none."""
        if self._record is None:
            return self._headers
        h = self._record.headers
        return list(h) if h else None

    def error(self):
        return self._error

    def timestamp(self):
        """(timestamp type, milliseconds since the epoch): TIMESTAMP_CREATE_TIME,
        TIMESTAMP_LOG_APPEND_TIME or TIMESTAMP_NOT_AVAILABLE."""
        return self._timestamp if self._record is None else _timestamp_of(self._record)

    def latency(self):
        """Seconds from produce() to the delivery report (produced messages only)."""
        return self._latency

    def leader_epoch(self):
        return self._leader_epoch

    def delivery_count(self):
        """How many times a share group delivered the message; None from a consumer group."""
        return self._delivery_count

    def set_topic(self, topic):
        self._plain()
        self._topic = topic

    def set_key(self, key):
        self._plain()
        self._key = key

    def set_value(self, value):
        self._plain()
        self._value = value

    def set_headers(self, headers):
        self._plain()
        self._headers = headers

    def set_error(self, error):
        self._plain()
        self._error = error

    def __len__(self):
        value = self._value if self._record is None else self._record.value
        return 0 if value is None else len(value)

    def __repr__(self):
        where = f"{self.topic()}[{self.partition()}]@{self.offset()}"
        if self._error is not None:
            return f"<Message {where} error={self._error}>"
        return f"<Message {where}>"


cdef inline object _timestamp_of(object r):
    ts = r.timestamp
    return (r.timestamp_type + 1, ts) if ts >= 0 else (TIMESTAMP_NOT_AVAILABLE, -1)


def messages_over(list records):
    """Message._over_record of each record, as a list."""
    cdef Py_ssize_t i, n = len(records)
    cdef list out = PyList_New(n)
    cdef Message m
    for i in range(n):
        m = Message.__new__(Message)
        PyObject_GC_UnTrack(m)
        m._record = records[i]
        Py_INCREF(m)
        PyList_SET_ITEM(out, i, m)
    return out
