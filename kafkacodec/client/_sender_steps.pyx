# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The sender's per-request path in C: the ready batches drained, built and
marked, one Produce request framed around their bytes, its answer parsed, and
its acknowledged batches finished, with no Python code per batch.

``drain`` is the pass over the partitions' deques under the accumulator's lock
(expired batches, and per partition the front batch that may go, by leader);
``seal_batches`` builds them, writing an idempotent batch's producer id, epoch
and base sequence into its header as it is built; ``begin_request`` marks them
in flight.  ``ProduceFrame`` is what ``Sender`` hands ``NetworkClient.send``
instead of a ``ProduceRequest`` model: ``encode_frame`` writes the request
header and the topic/partition arrays with the one ``Writer`` and returns them
as buffers around the batches' own bytes, which the connection sends with
scatter/gather I/O (the record bytes are not copied); ``decode_response``
reads the answer into per-batch arrays (error code, base offset, log append
time).  ``finish_acknowledged`` then does, for every batch whose answer is
success, what ``Sender._done`` does, in one pass and with one lock per kind
(pool, accumulator, results), and returns the indices of the other batches,
which ``Sender`` handles in Python (retries, splits, sequence errors, fencing).

The pure twin is ``Sender``'s Python path (``_drain``, ``_seal_batches``,
``_begin_request``, ``ProduceRequest`` through the generic codec,
``_produce_answered``); tests check the frames and answers against the
generic codec.
"""
cimport cython
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE
from cpython.dict cimport PyDict_GetItem
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.object cimport PyObject
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint32_t
from libc.string cimport memcmp

from kafkacodec._buffer cimport Reader, Writer, make_reader
from kafkacodec.client._sender_state cimport AccumulatorState, BatchState, SenderState, SequenceState

from kafkacodec.errors import CorruptDataError, UnsupportedVersionError
from kafkacodec.client.accumulator import notify_listener
from kafkacodec.protocol.errors import ErrorCode as _Code

# C copies of the codes the per-batch loops test, so those tests stay C comparisons
cdef int16_t NO_ERROR = _Code.NONE
cdef int16_t DUPLICATE_SEQUENCE_NUMBER = _Code.DUPLICATE_SEQUENCE_NUMBER   # already written: a success

cdef extern from "kc_cpython.h":
    int kc_cpython_check() except -1

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object o, Py_ssize_t *size) except NULL

kc_cpython_check()

cdef enum:
    PRODUCE_KEY = 0
    FIRST_FLEXIBLE = 9          # compact arrays/strings and tagged fields from v9
    MAX_VERSION = 11
    SEQ_MOD = 0x80000000


cdef inline int _write_string(Writer w, object s, bint flexible) except -1:
    # nullable string: int16 length (compact: uvarint length + 1), -1/0 for null
    cdef Py_ssize_t n
    cdef const char *p
    if s is None:
        if flexible:
            return w.write_uvarint(0)
        return w.write_int16(-1)
    p = PyUnicode_AsUTF8AndSize(s, &n)
    if n > 0x7FFF:
        raise ValueError(f"string of {n} bytes is too long for the protocol")
    if flexible:
        w.write_uvarint(<uint32_t>(n + 1))
    else:
        w.write_int16(<int16_t>n)
    return w.write_raw(p, n)


cdef inline int _write_array_length(Writer w, Py_ssize_t n, bint flexible) except -1:
    if flexible:
        return w.write_uvarint(<uint32_t>(n + 1))
    return w.write_int32(<int32_t>n)


cdef Py_ssize_t _size_of(object data) except -1:
    cdef Py_buffer view
    cdef Py_ssize_t n
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    n = view.len
    PyBuffer_Release(&view)
    return n


cdef inline int _skip_tagged(Reader r) except -1:
    cdef int64_t count = r.read_uvarint(), size, i
    for i in range(count):
        r.read_uvarint()
        size = r.read_uvarint()
        r.read_raw(size)
    return 0


cdef inline object _read_string(Reader r, bint flexible, bint nullable):
    cdef int64_t n
    if flexible:
        n = r.read_uvarint() - 1
    else:
        n = r.read_int16()
    if n < 0:
        if not nullable:
            raise CorruptDataError("null string where one is required", r.cur.base + r.cur.pos)
        return None
    return r.read_bytes(n).decode("utf-8", "replace")


@cython.final
cdef class ProduceFrame:
    """One Produce request for `batches` (ProducerBatch objects, each closed and,
    for an idempotent producer, stamped), grouped by topic in first-seen order;
    ``batches`` is that request order, which the answer arrays follow."""
    cdef readonly object transactional_id
    cdef readonly int acks
    cdef readonly int32_t timeout_ms
    cdef readonly list batches
    cdef readonly list topics           # topic names, in request order
    cdef list _groups                   # per topic: [batch, ...]
    cdef Py_ssize_t n
    cdef int32_t *_partition
    cdef Py_ssize_t *_topic_of
    # the answer
    cdef readonly bint answered
    cdef readonly int32_t throttle_time_ms
    cdef int16_t *_code                 # -1 code and not _found: no answer for the batch
    cdef int64_t *_base_offset
    cdef int64_t *_log_append_time
    cdef int64_t *_log_start_offset
    cdef uint8_t *_found
    cdef dict _details                  # batch index -> (error_message, [(batch_index, message)])

    def __cinit__(self):
        self._partition = NULL
        self._topic_of = NULL
        self._code = NULL
        self._base_offset = NULL
        self._log_append_time = NULL
        self._log_start_offset = NULL
        self._found = NULL

    def __dealloc__(self):
        PyMem_Free(self._partition)
        PyMem_Free(self._topic_of)
        PyMem_Free(self._code)
        PyMem_Free(self._base_offset)
        PyMem_Free(self._log_append_time)
        PyMem_Free(self._log_start_offset)
        PyMem_Free(self._found)

    def __init__(self, transactional_id, int acks, int32_t timeout_ms, list batches):
        cdef dict index = {}
        cdef PyObject *found
        cdef list group
        cdef Py_ssize_t i, j, k
        self.transactional_id = transactional_id
        self.acks = acks
        self.timeout_ms = timeout_ms
        self.topics = []
        self._groups = []
        for b in batches:
            topic = b.topic
            found = PyDict_GetItem(index, topic)
            if found is NULL:
                index[topic] = len(self._groups)
                self.topics.append(topic)
                self._groups.append([b])
            else:
                (<list>self._groups[<Py_ssize_t><object>found]).append(b)
        self.n = len(batches)
        self._partition = <int32_t *>PyMem_Malloc(max(self.n, 1) * sizeof(int32_t))
        self._topic_of = <Py_ssize_t *>PyMem_Malloc(max(self.n, 1) * sizeof(Py_ssize_t))
        self._code = <int16_t *>PyMem_Malloc(max(self.n, 1) * sizeof(int16_t))
        self._base_offset = <int64_t *>PyMem_Malloc(max(self.n, 1) * sizeof(int64_t))
        self._log_append_time = <int64_t *>PyMem_Malloc(max(self.n, 1) * sizeof(int64_t))
        self._log_start_offset = <int64_t *>PyMem_Malloc(max(self.n, 1) * sizeof(int64_t))
        self._found = <uint8_t *>PyMem_Malloc(max(self.n, 1))
        if (self._partition is NULL or self._topic_of is NULL or self._code is NULL or self._base_offset is NULL
                or self._log_append_time is NULL or self._log_start_offset is NULL or self._found is NULL):
            raise MemoryError()
        self.batches = []
        k = 0
        for j in range(len(self._groups)):
            group = <list>self._groups[j]
            for i in range(PyList_GET_SIZE(group)):
                b = <object>PyList_GET_ITEM(group, i)
                self.batches.append(b)
                self._partition[k] = b.partition
                self._topic_of[k] = j
                self._found[k] = 0
                k += 1

    def encode_frame(self, int version, int32_t correlation_id, client_id):
        """The request frame (size, header, body) as a list of buffers: the bytes
        this writes, and between them each batch's own bytes (not copied)."""
        cdef bint flexible = version >= FIRST_FLEXIBLE
        cdef Writer w = Writer(256 + 32 * self.n)
        cdef list cuts = []             # writer positions where a batch's bytes go
        cdef list datas = []
        cdef Py_ssize_t j, i, size, records = 0, at
        cdef list group
        if version < 0 or version > MAX_VERSION:
            raise UnsupportedVersionError(f"Produce version {version} is not supported")
        w.reserve(4)
        # request header v1 (v2 when flexible: + tagged fields); client_id stays an int16 string
        w.write_int16(PRODUCE_KEY)
        w.write_int16(<int16_t>version)
        w.write_int32(correlation_id)
        _write_string(w, client_id, False)
        if flexible:
            w.write_uvarint(0)
        if version >= 3:
            _write_string(w, self.transactional_id, flexible)
        elif self.transactional_id is not None:
            raise UnsupportedVersionError("transactions need Produce v3 or later")
        w.write_int16(<int16_t>self.acks)
        w.write_int32(self.timeout_ms)
        _write_array_length(w, len(self._groups), flexible)
        for j in range(len(self._groups)):
            group = <list>self._groups[j]
            _write_string(w, self.topics[j], flexible)
            _write_array_length(w, PyList_GET_SIZE(group), flexible)
            for i in range(PyList_GET_SIZE(group)):
                b = <object>PyList_GET_ITEM(group, i)
                data = b.data
                size = _size_of(data)
                w.write_int32(<int32_t>b.partition)
                if flexible:
                    w.write_uvarint(<uint32_t>(size + 1))
                else:
                    w.write_int32(<int32_t>size)
                cuts.append(w.length)
                datas.append(data)
                records += size
                if flexible:
                    w.write_uvarint(0)      # partition's tagged fields
            if flexible:
                w.write_uvarint(0)          # topic's tagged fields
        if flexible:
            w.write_uvarint(0)              # request's tagged fields
        if w.length - 4 + records > 0x7FFFFFFF:
            raise ValueError("Produce request larger than 2 GiB")
        w.patch_int32(0, <int32_t>(w.length - 4 + records))
        head = memoryview(w.to_bytes())
        parts = []
        at = 0
        for i in range(len(cuts)):
            parts.append(head[at:<Py_ssize_t>cuts[i]])
            parts.append(datas[i])
            at = cuts[i]
        parts.append(head[at:])
        return parts

    def decode_response(self, int version, frame):
        """Read the answer (a size-prefixed response frame) into this request's
        per-batch arrays; returns self.  Bytes after the body are ignored (some
        brokers append a few)."""
        cdef bint flexible = version >= FIRST_FLEXIBLE
        cdef Reader r = make_reader(frame, 0, len(frame), 0)
        cdef int64_t topics, parts, t, p, nerr, e
        cdef int32_t index
        cdef int16_t code
        cdef int64_t base_offset, log_append_time, log_start_offset
        cdef Py_ssize_t nlen, k, hint = 0, tj
        cdef const uint8_t *name
        cdef const char *want
        cdef Py_ssize_t want_len
        cdef list topic_index
        if version < 0 or version > MAX_VERSION:
            raise UnsupportedVersionError(f"Produce version {version} is not supported")
        r.read_int32()                      # size: checked by the connection
        r.read_int32()                      # correlation id: matched by the connection
        if flexible:
            _skip_tagged(r)
        topics = r.read_uvarint() - 1 if flexible else r.read_int32()
        for t in range(max(topics, 0)):
            nlen = r.read_uvarint() - 1 if flexible else r.read_int16()
            if nlen < 0:
                raise CorruptDataError("null topic name in a Produce answer", r.cur.base + r.cur.pos)
            name = r.read_raw(nlen)
            # the request's topic of that name (usually the same position)
            tj = -1
            for k in range(len(self.topics)):
                want = PyUnicode_AsUTF8AndSize(self.topics[k], &want_len)
                if want_len == nlen and memcmp(want, name, nlen) == 0:
                    tj = k
                    break
            parts = r.read_uvarint() - 1 if flexible else r.read_int32()
            for p in range(max(parts, 0)):
                index = r.read_int32()
                code = r.read_int16()
                base_offset = r.read_int64()
                log_append_time = r.read_int64() if version >= 2 else -1
                log_start_offset = r.read_int64() if version >= 5 else -1
                details = None
                if version >= 8:
                    nerr = r.read_uvarint() - 1 if flexible else r.read_int32()
                    record_errors = []
                    for e in range(max(nerr, 0)):
                        batch_index = r.read_int32()
                        message = _read_string(r, flexible, True)
                        if flexible:
                            _skip_tagged(r)
                        record_errors.append((batch_index, message))
                    error_message = _read_string(r, flexible, True)
                    if code != NO_ERROR and (record_errors or error_message is not None):
                        details = (error_message, record_errors)
                if flexible:
                    _skip_tagged(r)         # current leader (v10)
                if tj < 0:
                    continue
                k = self._find(tj, index, hint)
                if k < 0:
                    continue
                hint = k + 1
                self._found[k] = 1
                self._code[k] = code
                self._base_offset[k] = base_offset
                self._log_append_time[k] = log_append_time
                self._log_start_offset[k] = log_start_offset
                if details is not None:
                    if self._details is None:
                        self._details = {}
                    self._details[k] = details
            if flexible:
                _skip_tagged(r)
        if version >= 1:
            self.throttle_time_ms = r.read_int32()
        if flexible:
            _skip_tagged(r)                 # node endpoints (v10)
        self.answered = True
        return self

    cdef Py_ssize_t _find(self, Py_ssize_t topic, int32_t partition, Py_ssize_t hint) noexcept:
        cdef Py_ssize_t k
        if hint < self.n and self._topic_of[hint] == topic and self._partition[hint] == partition:
            return hint
        for k in range(self.n):
            if self._topic_of[k] == topic and self._partition[k] == partition:
                return k
        return -1

    def answer(self, Py_ssize_t k):
        """(error code, base offset, log append time, log start offset, error message,
        record errors [(batch index, message)]) for batch k, or None when the answer lacks it."""
        if k < 0 or k >= self.n:
            raise IndexError(k)
        if not self._found[k]:
            return None
        details = self._details.get(k) if self._details is not None else None
        if details is None:
            details = (None, [])
        return (self._code[k], self._base_offset[k], self._log_append_time[k], self._log_start_offset[k]) + details


cdef object _STATS_BATCHES = "batches"
cdef object _STATS_RECORDS = "records"


cdef int _complete_all(object lock, list done) except -1:
    # BatchResult.complete(base_offset, log_append_time, None, log_start_offset)
    # for every (result, base offset, log append time, log start offset) of
    # `done`: the fields set under the
    # results' lock taken once, then waiters, callback sinks and listeners,
    # as complete() runs them
    cdef list notify = []
    cdef tuple item
    with lock:
        for item in done:
            result = item[0]
            if result._done:
                continue
            result.base_offset = item[1]
            result.log_append_time = item[2]
            result.log_start_offset = item[3]
            result.error = None
            result._done = True
            listeners = result._listeners
            waiter = result._waiter
            if listeners is not None or waiter is not None or result.callbacks is not None:
                result._listeners = None
                notify.append((result, listeners, waiter))
    for item in notify:
        result, listeners, waiter = item
        if waiter is not None:
            waiter.set()
        if result.callbacks is not None:
            result.sink.append(result)
        if listeners is not None:
            for fn in listeners:
                notify_listener(fn, result)
    return 0


def finish_acknowledged(ProduceFrame frame, SenderState sender, AccumulatorState acc, results_lock):
    """What ``Sender._done`` does for every batch of the answered `frame` that
    succeeded (error 0, or 46 DUPLICATE_SEQUENCE_NUMBER: already written): out
    of its partition's in-flight list, its last acknowledged sequence, its
    buffer back to the pool and its result out of ``acc.incomplete`` (one lock
    each for all), stats, and its result completed (``results_lock`` is the
    one ``BatchResult.complete`` takes).  Returns the indices of the other
    batches, in request order, for the caller to handle."""
    cdef Py_ssize_t k, i, n = frame.n, nl
    cdef list rest = [], buffers = [], done = [], in_flight
    cdef bint idempotent = sender.idempotent
    cdef dict partitions = sender.partitions if idempotent else None
    cdef object epoch = sender.producer_epoch
    cdef PyObject *found
    cdef int64_t records = 0, seq, count
    cdef BatchState b
    cdef SequenceState ps
    cdef object buffer
    if not frame.answered:
        raise ValueError("the Produce request has no answer yet")
    for k in range(n):
        if not frame._found[k] or (frame._code[k] != NO_ERROR and frame._code[k] != DUPLICATE_SEQUENCE_NUMBER):
            rest.append(k)
            continue
        b = <BatchState>PyList_GET_ITEM(frame.batches, k)
        b.in_flight = False
        count = b.record_count
        if idempotent:
            found = PyDict_GetItem(partitions, (b.topic, b.partition))
            if found is not NULL:
                ps = <SequenceState>found
                in_flight = ps.in_flight
                nl = PyList_GET_SIZE(in_flight)
                for i in range(nl):
                    if <object>PyList_GET_ITEM(in_flight, i) is b:
                        del in_flight[i]
                        break
                if b.base_sequence is not None and b.producer_epoch == epoch:
                    seq = b.base_sequence
                    ps.last_acked = (seq + count - 1) % SEQ_MOD
        buffer = b.pool_buffer
        if buffer is not None:
            b.pool_buffer = None
            b.data = None           # views of the buffer, which the next batch writes in
            b.raw = None
            buffers.append(buffer)
        records += count
        done.append((b.result, frame._base_offset[k], frame._log_append_time[k], frame._log_start_offset[k]))
    if done:
        if buffers:
            acc.pool.deallocate_many(buffers)
        incomplete = acc.incomplete
        with acc.lock:
            for item in done:
                incomplete.discard((<tuple>item)[0])
        stats = sender.stats
        stats[_STATS_BATCHES] += len(done)
        stats[_STATS_RECORDS] += records
        _complete_all(results_lock, done)
    return rest


cdef inline int _seal(dict open_slots, BatchState b) except -1:
    # RecordAccumulator.seal: no more appends into b (the accumulator's lock is held)
    cdef PyObject *found
    cdef Py_ssize_t p
    b.open = False
    found = PyDict_GetItem(open_slots, b.topic)
    if found is not NULL:
        slots = <list>(<object>found)
        p = b.partition
        if 0 <= p < PyList_GET_SIZE(slots) and <object>PyList_GET_ITEM(slots, p) is b:
            slots[p] = None
    return 0


cdef inline object _leader(dict topics, object topic, object partition):
    # Metadata.leader_for
    cdef PyObject *found = PyDict_GetItem(topics, topic)
    if found is NULL:
        return None
    cdef dict parts = (<object>found).partitions
    cdef PyObject *pf = PyDict_GetItem(parts, partition)
    if pf is NULL:
        return None
    leader = (<object>pf).leader
    return None if leader < 0 else leader


def drain(SenderState sender, AccumulatorState acc, double now, bint flushing, bint bumping, txn,
          Py_ssize_t piggyback_max):
    """``Sender.tick``'s pass over the partitions' deques (``Sender._drain`` is its
    pure twin): under the accumulator's lock, the batches past delivery.timeout.ms
    and, for every partition whose front batch may go, that batch, sealed, by its
    leader; a batch still within linger.ms goes when its leader gets a request
    anyway if it holds at most ``piggyback_max`` records (sender.PIGGYBACK_MAX_RECORDS).
    Returns (by_node {leader: [batch]}, expired, next wake or None, need_metadata,
    need_add set or None)."""
    cdef dict by_node = {}
    cdef list expired = []
    cdef dict deques = acc.deques
    cdef dict open_slots = acc.open_slots
    cdef dict topics = sender.metadata.topics
    cdef object node_in_flight = sender.node_in_flight   # a Counter (a dict subclass)
    cdef long max_in_flight = sender.max_in_flight
    cdef bint idempotent = sender.idempotent
    cdef dict partitions = sender.partitions
    cdef double linger = sender.linger
    cdef double next_wake = 0.0, t
    cdef bint has_wake = False, need_metadata = False
    cdef object need_add = None, added = txn.added if txn is not None else None
    cdef object epoch = sender.producer_epoch
    cdef PyObject *found
    cdef Py_ssize_t n
    cdef BatchState b
    cdef bint lingering
    cdef list waiting = None   # [(leader, deque, batch)] lingering batches that may go
    with acc.lock:
        for tp, dq in deques.items():
            n = len(dq)
            while n and not (<BatchState>dq[0]).in_flight and now >= (<BatchState>dq[0]).deadline:
                b = <BatchState>dq.popleft()
                n -= 1
                _seal(open_slots, b)
                expired.append(b)
            if not n:
                continue
            b = <BatchState>dq[0]
            t = b.retry_at
            if t > now:
                if not has_wake or t < next_wake:
                    next_wake, has_wake = t, True
                continue
            lingering = False
            if b.open and not flushing and n == 1:
                t = b.created
                if now - t < linger:
                    lingering = True
                    if not has_wake or t + linger < next_wake:
                        next_wake, has_wake = t + linger, True
            if added is not None and tp not in added:
                if need_add is None:
                    need_add = set()
                need_add.add(tp)
                continue
            leader = _leader(topics, (<tuple>tp)[0], (<tuple>tp)[1])
            if leader is None:
                need_metadata = True
                continue
            found = PyDict_GetItem(node_in_flight, leader)
            if found is not NULL and <long>(<object>found) >= max_in_flight:
                continue
            if idempotent:
                # Sender._may_send: nothing of the partition in flight; a batch numbered
                # under an older epoch is numbered again
                found = PyDict_GetItem(partitions, tp)
                if found is not NULL and PyList_GET_SIZE((<SequenceState>found).in_flight):
                    continue
                if b.base_sequence is not None:
                    if b.producer_epoch == epoch:
                        if bumping and not b.ambiguous:
                            continue
                    else:
                        b.base_sequence = None
                        b.producer_epoch = None
                        if bumping:
                            continue
                elif bumping:
                    continue
            if lingering:
                if waiting is None:
                    waiting = []
                waiting.append((leader, dq, b))
                continue
            dq.popleft()
            _seal(open_slots, b)
            found = PyDict_GetItem(by_node, leader)
            if found is NULL:
                by_node[leader] = [b]
            else:
                (<list>(<object>found)).append(b)
        if waiting is not None and by_node:
            # a request goes to this leader now: a lingering batch of few records goes with it
            for leader, dq, b in waiting:
                found = PyDict_GetItem(by_node, leader)
                if found is not NULL and b.builder is not None and b.builder.record_count <= piggyback_max:
                    dq.popleft()
                    _seal(open_slots, b)
                    (<list>(<object>found)).append(b)
    return by_node, expired, (next_wake if has_wake else None), need_metadata, need_add


cdef object _sealed_append = None


cdef int _close(BatchState b, object producer) except -1:
    # ProducerBatch.close(producer): no more appends, the bytes built (with the
    # producer fields in the header when given)
    global _sealed_append
    if b.data is not None:
        return 0
    if _sealed_append is None:
        from kafkacodec.client.accumulator import _sealed
        _sealed_append = _sealed
    b.open = False
    b.append = _sealed_append
    builder = b.builder
    if producer is not None:
        builder.set_producer(*producer)
        b.stamped = producer[:3]
    # built first: a lock-free append racing with this lands before it or fails
    data = builder.build()
    b.data = data
    if type(data) is not memoryview:
        b.raw = None
    b.record_count = builder.record_count
    b.builder = None
    return 0


def seal_batches(SenderState sender, dict by_node):
    """``Sender.tick``'s build of the drained batches (``Sender._seal_batches`` is its
    pure twin): each is built, and an idempotent producer's new batch numbered
    from its partition's next sequence, written into its header as it is built."""
    cdef bint idempotent = sender.idempotent
    cdef dict partitions = sender.partitions
    cdef object pid = sender.producer_id, epoch = sender.producer_epoch
    cdef bint transactional = sender.transactional_id is not None
    cdef PyObject *found
    cdef int64_t seq
    cdef BatchState b
    cdef SequenceState ps
    for batches in by_node.values():
        for item in <list>batches:
            b = <BatchState>item
            if idempotent and b.base_sequence is None:
                tp = (b.topic, b.partition)
                found = PyDict_GetItem(partitions, tp)
                ps = <SequenceState>found if found is not NULL else (<object>sender)._ps(tp)
                seq = ps.next_seq
                # its count is read after the build: no record reaches it after it is numbered
                _close(b, (pid, epoch, seq, transactional))
                b.base_sequence = seq
                b.producer_epoch = epoch
                ps.next_seq = (seq + <int64_t>b.record_count) % SEQ_MOD
            else:
                _close(b, None)


def begin_request(SenderState sender, list batches, stamp):
    """``Sender._send_produce``'s marks on its batches (``Sender._begin_request`` is its
    pure twin): in flight, one more attempt, and for an idempotent producer in its
    partition's in-flight list, its header rewritten by ``stamp(b, producer id,
    transactional)`` when its numbers changed since it was built."""
    cdef bint idempotent = sender.idempotent
    cdef dict partitions = sender.partitions
    cdef object pid = sender.producer_id
    cdef bint transactional = sender.transactional_id is not None
    cdef PyObject *found
    cdef BatchState b
    cdef SequenceState ps
    for item in batches:
        b = <BatchState>item
        if idempotent:
            if b.stamped != (pid, b.producer_epoch, b.base_sequence):
                stamp(b, pid, transactional)
            tp = (b.topic, b.partition)
            found = PyDict_GetItem(partitions, tp)
            ps = <SequenceState>found if found is not NULL else (<object>sender)._ps(tp)
            ps.in_flight.append(b)
        b.in_flight = True
        b.attempts += 1
