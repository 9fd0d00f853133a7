# cython: language_level=3, boundscheck=False, wraparound=False
"""The aiokafka and kafka-python faces' records made from the client's, in C: a poll's records
grouped by partition (getmany, poll) or one at a time (getone, iteration), deserialized with the
program's deserializers.  The pure twin, _face_records_py.py, is the reference behaviour.

aiokafka's ConsumerRecord is a compiled type here with the twin dataclass's fields (writable),
constructor, equality, repr, pickling and dataclasses support (fields, asdict, replace); made by a
poll, a record whose fields are all atomic (str, bytes, numbers, None, immutable headers) is left
out of the cycle collector, which cannot find a cycle through it, and is taken back in when a
field is set to anything that could make one.  kafka-python's is its namedtuple, filled in place.
The client's Record is read through the member descriptors it publishes."""
cimport cython
from cpython.object cimport Py_TYPE, PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_SET_ITEM

import types

from kafkacodec.client import ConsumerRecord as _ClientRecord
from kafkacodec.client.types import TopicPartition as _TopicPartition
from kafkacodec.compat import _face_records_py as _twin

cdef extern from "Python.h":
    bint PyObject_IS_GC(object o)
    int PyObject_GC_IsTracked(object o)
    void PyObject_GC_Track(object o)
    void PyObject_GC_UnTrack(object o)
    void PyType_Modified(PyTypeObject *tp)
    int Py_ReprEnter(object o) except -1
    void Py_ReprLeave(object o)
    int PyObject_GenericSetAttr(object o, object name, object value) except -1

cdef extern from "kc_cpython.h":
    int kc_cpython_check() except -1
    object kc_accel_alloc(object cls, Py_ssize_t n)
    Py_ssize_t kc_slot_offset(PyObject *obj, PyObject *marker, Py_ssize_t size) except -1
    object kc_writable_member(PyTypeObject *tp, const char *name, Py_ssize_t offset)
    Py_ssize_t kc_object_member_offset(PyObject *descr)
    PyObject *kc_slot_at(object obj, Py_ssize_t offset)

kc_cpython_check()

__all__ = ["ConsumerRecord", "AioRecords", "KpRecords"]

cdef enum:
    KP_FIELDS = 13

# -- the client's records: their published slots, read once per field

cdef enum Field:
    F_TOPIC, F_PARTITION, F_OFFSET, F_TIMESTAMP, F_TIMESTAMP_TYPE, F_KEY, F_VALUE, F_HEADERS, F_LEADER_EPOCH, F_COUNT

cdef tuple _CLIENT_FIELDS = ("topic", "partition", "offset", "timestamp", "timestamp_type", "key", "value", "headers",
                             "leader_epoch")
cdef Py_ssize_t _client_slot[F_COUNT]
cdef PyTypeObject *_client_type = <PyTypeObject *>_ClientRecord   # the type whose slots those are
cdef object _TP = _TopicPartition


cdef _find_client_slots():
    global _client_type
    cdef int f
    for f in range(<int>F_COUNT):
        descr = _ClientRecord.__dict__.get(_CLIENT_FIELDS[f])
        _client_slot[f] = -1 if descr is None else kc_object_member_offset(<PyObject *>descr)
        if _client_slot[f] < 0:
            _client_type = NULL  # not the compiled Record: every field through getattr
            return


_find_client_slots()


cdef inline object _read(object r, int f):
    cdef PyObject *p
    if Py_TYPE(r) == _client_type:
        p = kc_slot_at(r, _client_slot[f])
        if p is not NULL:
            return <object>p
    return getattr(r, _CLIENT_FIELDS[f])


cdef inline object _size(object data):
    return -1 if data is None else len(data)


cdef inline bint _atomic(object o):
    """Whether o can be part of no reference cycle: not a container the collector tracks, nor a
    tuple that may come to hold one (CPython's own test for what it leaves untracked)."""
    return not PyObject_IS_GC(o) or (type(o) is tuple and not PyObject_GC_IsTracked(o))


cdef bint _atomic_headers(object headers):
    """A tuple of (str, bytes | None) pairs, as the client makes them, holds nothing a cycle could
    run through, tracked or not."""
    if _atomic(headers):
        return True
    if type(headers) is not tuple:
        return False
    for h in <tuple>headers:
        if (type(h) is not tuple or len(<tuple>h) != 2 or type((<tuple>h)[0]) is not str
                or not ((<tuple>h)[1] is None or type((<tuple>h)[1]) is bytes)):
            return False
    return True


# -- aiokafka's ConsumerRecord

@cython.final
cdef class ConsumerRecord:
    """aiokafka's ConsumerRecord (aiokafka.structs): topic, partition, offset, timestamp,
    timestamp_type, key, value, checksum, serialized_key_size, serialized_value_size, headers."""
    # published as writable member descriptors under the same names (see _publish_fields)
    cdef object _topic, _partition, _offset, _timestamp, _timestamp_type, _key, _value, _checksum
    cdef object _serialized_key_size, _serialized_value_size, _headers
    cdef object __weakref__

    __dataclass_fields__ = _twin.ConsumerRecord.__dataclass_fields__
    __dataclass_params__ = _twin.ConsumerRecord.__dataclass_params__
    __match_args__ = _twin.ConsumerRecord.__match_args__
    __class_getitem__ = classmethod(types.GenericAlias)
    __hash__ = None   # as a dataclass with eq and not frozen

    def __init__(self, topic, partition, offset, timestamp, timestamp_type, key, value, checksum,
                 serialized_key_size, serialized_value_size, headers):
        _fill(self, topic, partition, offset, timestamp, timestamp_type, key, value, checksum, serialized_key_size,
              serialized_value_size, headers)

    def __setattr__(self, name, value):
        PyObject_GenericSetAttr(self, name, value)
        if not PyObject_GC_IsTracked(self) and not _atomic(value):
            PyObject_GC_Track(self)  # the value could close a cycle through this record

    def __delattr__(self, name):
        raise AttributeError(f"ConsumerRecord: {name} cannot be deleted")

    def __eq__(self, other):
        if type(other) is not ConsumerRecord:
            return NotImplemented
        return _fields(self) == _fields(<ConsumerRecord>other)

    def __ne__(self, other):
        if type(other) is not ConsumerRecord:
            return NotImplemented
        return _fields(self) != _fields(<ConsumerRecord>other)

    def __repr__(self):
        if Py_ReprEnter(self):
            return "..."
        try:
            return "ConsumerRecord(" + ", ".join(
                [f"{name}={value!r}" for name, value in zip(self.__match_args__, _fields(self))]) + ")"
        finally:
            Py_ReprLeave(self)

    def __reduce__(self):
        return ConsumerRecord, _fields(self)


# Module functions, not methods: a cdef method would give every record a vtable pointer, a
# word a consumer allocates and clears with each record.
cdef inline void _fill(ConsumerRecord rec, topic, partition, offset, timestamp, timestamp_type, key, value, checksum,
                       serialized_key_size, serialized_value_size, headers):
    rec._topic, rec._partition, rec._offset, rec._timestamp = topic, partition, offset, timestamp
    rec._timestamp_type, rec._key, rec._value, rec._checksum = timestamp_type, key, value, checksum
    rec._serialized_key_size, rec._serialized_value_size = serialized_key_size, serialized_value_size
    rec._headers = headers


cdef tuple _fields(ConsumerRecord rec):
    return (rec._topic, rec._partition, rec._offset, rec._timestamp, rec._timestamp_type, rec._key,
            rec._value, rec._checksum, rec._serialized_key_size, rec._serialized_value_size, rec._headers)


cdef list _FIELD_NAMES = []


cdef _publish_fields():
    # each field's slot found by planting a marker in a probe instance, then published under its
    # public name as a member descriptor: a plain slot read CPython's attribute cache specialises
    cdef PyTypeObject *tp = <PyTypeObject *>ConsumerRecord
    cdef ConsumerRecord probe = ConsumerRecord.__new__(ConsumerRecord)
    markers = [object() for _ in range(11)]
    (probe._topic, probe._partition, probe._offset, probe._timestamp, probe._timestamp_type, probe._key, probe._value,
     probe._checksum, probe._serialized_key_size, probe._serialized_value_size, probe._headers) = markers
    type_dict = <dict>tp.tp_dict
    for name, marker in zip(ConsumerRecord.__match_args__, markers):
        encoded = name.encode()
        _FIELD_NAMES.append(encoded)  # the member's C name lives as long as the module
        type_dict[name] = kc_writable_member(
            tp, <const char *>encoded, kc_slot_offset(<PyObject *>probe, <PyObject *>marker, tp.tp_basicsize))
    PyType_Modified(tp)


_publish_fields()


cdef ConsumerRecord _aio_record(object r, object topic, object partition, object key_de, object value_de):
    cdef ConsumerRecord rec
    key = _read(r, F_KEY)
    value = _read(r, F_VALUE)
    headers = _read(r, F_HEADERS)
    if type(headers) is not tuple:
        headers = tuple(headers)
    dkey = key if key_de is None else key_de(key)
    dvalue = value if value_de is None else value_de(value)
    rec = ConsumerRecord.__new__(ConsumerRecord)
    _fill(rec, topic, partition, _read(r, F_OFFSET), _read(r, F_TIMESTAMP), _read(r, F_TIMESTAMP_TYPE), dkey, dvalue,
              None, _size(key), _size(value), headers)
    if _atomic(dkey) and _atomic(dvalue) and _atomic_headers(headers):
        PyObject_GC_UnTrack(rec)
    return rec


cdef class _Records:
    """What both faces' record makers share: a poll's records grouped into {TopicPartition: [records]},
    each made by _record, a TopicPartition per run of a partition (the client hands out a fetch's
    records together)."""

    cdef object _record(self, object r, object topic, object partition):
        raise NotImplementedError

    def by_partition(self, list records):
        """{TopicPartition: [records]} in the records' order (getmany, poll)."""
        cdef dict out = {}
        cdef list run = None
        topic = partition = None
        for r in records:
            t = _read(r, F_TOPIC)
            p = _read(r, F_PARTITION)
            if run is None or not ((t is topic or t == topic) and (p is partition or p == partition)):
                topic, partition = t, p
                tp = _TP(topic, partition)
                run = out.get(tp)
                if run is None:
                    run = out[tp] = []
            run.append(self._record(r, topic, partition))
        return out

    def one(self, r):
        """One record (getone, ``async for``, iteration)."""
        return self._record(r, _read(r, F_TOPIC), _read(r, F_PARTITION))


@cython.final
cdef class AioRecords(_Records):
    """aiokafka ConsumerRecords from the client's records, with the consumer's key and value
    deserializers (functions of the bytes, or None)."""
    cdef object _key_de, _value_de

    def __init__(self, key_deserializer=None, value_deserializer=None):
        self._key_de, self._value_de = key_deserializer, value_deserializer

    cdef object _record(self, object r, object topic, object partition):
        return _aio_record(r, topic, partition, self._key_de, self._value_de)


# -- kafka-python's ConsumerRecord

cdef inline void _set(object tup, Py_ssize_t i, object v):
    Py_INCREF(v)
    PyTuple_SET_ITEM(tup, i, v)


cdef object _header_size = _twin.header_size


@cython.final
cdef class KpRecords(_Records):
    """kafka-python ConsumerRecords (`record_type`, its 13-field namedtuple) from the client's
    records, each deserializer a Deserializer (its deserialize(topic, headers, data) called), a
    function of the data, or None."""
    cdef object _type, _key_fn, _key_ctx, _value_fn, _value_ctx

    def __init__(self, record_type, key_deserializer=None, value_deserializer=None):
        # filling the tuple's items in place is only sound for a plain tuple subclass of 13 fields
        if (not isinstance(record_type, type) or not issubclass(record_type, tuple)
                or (<PyTypeObject *>record_type).tp_basicsize != (<PyTypeObject *>tuple).tp_basicsize
                or (<PyTypeObject *>record_type).tp_dictoffset != 0
                or len(getattr(record_type, "_fields", ())) != KP_FIELDS):
            raise TypeError(f"{record_type!r} is not a namedtuple of {KP_FIELDS} fields")
        self._type = record_type
        self._key_ctx = getattr(key_deserializer, "deserialize", None)
        self._value_ctx = getattr(value_deserializer, "deserialize", None)
        self._key_fn = None if self._key_ctx is not None else key_deserializer
        self._value_fn = None if self._value_ctx is not None else value_deserializer

    cdef object _record(self, object r, object topic, object partition):
        key = _read(r, F_KEY)
        value = _read(r, F_VALUE)
        headers = list(_read(r, F_HEADERS))
        if self._key_fn is not None:
            dkey = self._key_fn(key)
        else:
            dkey = key if self._key_ctx is None else self._key_ctx(topic, headers, key)
        if self._value_fn is not None:
            dvalue = self._value_fn(value)
        else:
            dvalue = value if self._value_ctx is None else self._value_ctx(topic, headers, value)
        hsize = -1 if not headers else _header_size(headers)
        offset = _read(r, F_OFFSET)
        timestamp = _read(r, F_TIMESTAMP)
        timestamp_type = _read(r, F_TIMESTAMP_TYPE)
        leader_epoch = _read(r, F_LEADER_EPOCH)
        # every item made before the tuple: it is filled with no Python code running in between
        rec = kc_accel_alloc(self._type, KP_FIELDS)
        _set(rec, 0, topic)
        _set(rec, 1, partition)
        _set(rec, 2, leader_epoch)
        _set(rec, 3, offset)
        _set(rec, 4, timestamp)
        _set(rec, 5, timestamp_type)
        _set(rec, 6, dkey)
        _set(rec, 7, dvalue)
        _set(rec, 8, headers)
        _set(rec, 9, None)
        _set(rec, 10, _size(key))
        _set(rec, 11, _size(value))
        _set(rec, 12, hsize)
        return rec
