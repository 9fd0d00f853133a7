# cython: language_level=3, boundscheck=False, wraparound=False, binding=False
"""confluent-kafka's Message, compiled: the twin of ``_types.Message`` (which mypy
and the pure-Python mode use), with the same constructor, methods and meaning.

A consumer hands out one Message per record, and programs call several of its
methods per message (``error()`` at least): as a Python class those calls and
the object's making cost more than the client's whole poll per record.  So the
Message is a subclass of kafkacodec's Record, and the face's consumer has the
client decode straight into Messages (its ``record_class``): a consumed message
reads the Record fields the decoder filled until a setter copies them into the
message's own.

Messages made from records are not tracked by the cycle collector: they hold
only what a Record holds, so they cannot be in a cycle, and a consumer making
millions of them would otherwise start collections that walk every message a
program still holds (half the consume loop's time).  A setter, which may store
anything, tracks the message again; its own fields are the ones the collector
sees (Record's are outside it).

Its methods are plain method descriptors (binding=False), as confluent-kafka's
are: the interpreter calls those directly, a few nanoseconds less per call of
``error()`` on every message.
"""
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
cimport cython

from types import GenericAlias

from kafkacodec.records._records cimport Record, copy_record

# imported by _types.py once K and V are made: the same type variables
from kafkacodec.compat.confluent_kafka._types import K, V

cdef extern from "Python.h":
    void PyObject_GC_Track(object o)
    void PyObject_GC_UnTrack(object o)
    int PyObject_GC_IsTracked(object o)

# Messages are made untracked and outside the collector's allocation count (why: kc_cpython.h)
cdef extern from "kc_cpython.h":
    int kc_cpython_check() except -1
    int kc_gc_uncounted_install(object cls)

kc_cpython_check()

# librdkafka's timestamp types (_types.py)
cdef int TIMESTAMP_NOT_AVAILABLE = 0


@cython.final
cdef class _Fields:
    """A message's own fields: made by the constructor, or by a setter from the record's."""
    cdef object topic, partition, offset, key, value, headers, timestamp
    cdef object error, latency, leader_epoch, delivery_count


cdef class Message(Record):
    """A consumed or produced message, or an event (``error()`` is not None).  Generic in the
    key and value a DeserializingConsumer makes of the bytes: ``deserialized_key()`` and
    ``deserialized_value()`` are ``key()`` and ``value()`` typed so."""
    # None: a consumed record's message, read from the Record fields the decoder filled.  One
    # field, not one per attribute: a consumer makes millions of messages, and each field is
    # set and cleared with every one of them.
    cdef _Fields _own

    __class_getitem__ = classmethod(GenericAlias)
    __parameters__ = (K, V)

    def __init__(self, topic=None, partition=None, offset=None, key=None, value=None, headers=None, error=None,
                 timestamp=None, latency=None, leader_epoch=None, delivery_count=None):
        cdef _Fields f = _Fields.__new__(_Fields)
        f.topic = topic
        # confluent-kafka answers None for a negative partition (unassigned) or offset (none yet)
        f.partition = None if partition is not None and partition < 0 else partition
        f.offset = None if offset is not None and offset < 0 else offset
        f.key = key
        f.value = value
        f.headers = headers
        f.error = error
        f.timestamp = (TIMESTAMP_NOT_AVAILABLE, 0) if timestamp is None else timestamp
        f.latency = latency
        f.leader_epoch = leader_epoch
        f.delivery_count = delivery_count
        self._own = f
        if not PyObject_GC_IsTracked(self):
            PyObject_GC_Track(self)  # it may hold anything (the allocator leaves it untracked)

    @staticmethod
    def _of_record(r):
        """A consumed kafkacodec Record as a Message (timestamp types: Kafka's 0/1 -> 1/2)."""
        cdef Message m = Message.__new__(Message)
        PyObject_GC_UnTrack(m)
        copy_record(m, <Record?>r)
        return m

    def _fill(self, r):
        """The message's own fields set to consumed record `r`'s."""
        self._own = _fields_of(<Record?>r)

    def topic(self):
        return self._topic if self._own is None else self._own.topic

    def partition(self):
        return self._partition if self._own is None else self._own.partition

    def offset(self):
        return self._offset if self._own is None else self._own.offset

    def key(self):
        return self._key if self._own is None else self._own.key

    def value(self):
        return self._value if self._own is None else self._own.value

    def deserialized_key(self):
        """key(), typed as the key a DeserializingConsumer[K, V] made of it."""
        return self._key if self._own is None else self._own.key

    def deserialized_value(self):
        """value(), typed as the value a DeserializingConsumer[K, V] made of it."""
        return self._value if self._own is None else self._own.value

    def headers(self):
        """A list of (str, bytes | None), or None when the message has none."""
        if self._own is not None:
            return self._own.headers
        h = self._headers
        return list(h) if h else None

    def error(self):
        return None if self._own is None else self._own.error

    def timestamp(self):
        """(timestamp type, milliseconds since the epoch): TIMESTAMP_CREATE_TIME,
        TIMESTAMP_LOG_APPEND_TIME or TIMESTAMP_NOT_AVAILABLE."""
        return _timestamp_of(self) if self._own is None else self._own.timestamp

    def latency(self):
        """Seconds from produce() to the delivery report (produced messages only)."""
        return None if self._own is None else self._own.latency

    def leader_epoch(self):
        """The partition leader's epoch of the batch a consumed message came in (None when the
        batch has none: a legacy message set)."""
        if self._own is not None:
            return self._own.leader_epoch
        epoch = self._leader_epoch
        return None if epoch is None or epoch < 0 else epoch

    def delivery_count(self):
        """How many times a share group delivered the message; None from a consumer group."""
        return None if self._own is None else self._own.delivery_count

    def set_topic(self, topic):
        _own_fields(self).topic = topic

    def set_key(self, key):
        _own_fields(self).key = key

    def set_value(self, value):
        _own_fields(self).value = value

    def set_headers(self, headers):
        _own_fields(self).headers = headers

    def set_error(self, error):
        _own_fields(self).error = error

    # what the share consumer sets on a consumed message, as on the pure twin's slot
    @property
    def _delivery_count(self):
        return self.delivery_count()

    @_delivery_count.setter
    def _delivery_count(self, delivery_count):
        _own_fields(self).delivery_count = delivery_count

    def __len__(self):
        value = self._value if self._own is None else self._own.value
        return 0 if value is None else len(value)

    # a message is itself, as confluent-kafka's: Record's field equality and pickling do not apply
    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __hash__(self):
        return object.__hash__(self)

    def __reduce__(self):
        return (Message, (self.topic(), self.partition(), self.offset(), self.key(), self.value(), self.headers(),
                          self.error(), self.timestamp(), self.latency(), self.leader_epoch(),
                          self.delivery_count()))

    def __repr__(self):
        where = f"{self.topic()}[{self.partition()}]@{self.offset()}"
        error = self.error()
        if error is not None:
            return f"<Message {where} error={error}>"
        return f"<Message {where}>"


kc_gc_uncounted_install(Message)


# Module functions, not methods: a cdef method would give every Message a vtable pointer,
# a word a consumer allocates and clears with each of millions of messages.
cdef _Fields _fields_of(Record rec):
    """Consumed record `rec`'s fields as a message's own."""
    cdef _Fields f = _Fields.__new__(_Fields)
    f.topic = rec._topic
    f.partition = rec._partition
    f.offset = rec._offset
    f.key = rec._key
    f.value = rec._value
    h = rec._headers
    f.headers = list(h) if h else None
    f.timestamp = _timestamp_of(rec)
    epoch = rec._leader_epoch
    f.leader_epoch = None if epoch is None or epoch < 0 else epoch
    return f


cdef inline _Fields _own_fields(Message m):
    """Before a setter: the message's own fields (the record's copied in), and the message
    tracked (it may now hold anything)."""
    if m._own is None:
        m._own = _fields_of(m)
    if not PyObject_GC_IsTracked(m):
        PyObject_GC_Track(m)
    return m._own


cdef inline object _timestamp_of(Record r):
    ts = r._timestamp
    return (r._timestamp_type + 1, ts) if ts >= 0 else (TIMESTAMP_NOT_AVAILABLE, -1)


def messages_over(list records):
    """The consumer's records as Messages: as they are when the client made Messages
    (record_class), else a Message of each Record."""
    cdef Py_ssize_t i, n = len(records)
    cdef list out
    cdef Message m
    if n == 0 or type(records[0]) is Message:
        return records
    out = PyList_New(n)
    for i in range(n):
        m = Message._of_record(records[i])
        Py_INCREF(m)
        PyList_SET_ITEM(out, i, m)
    return out
