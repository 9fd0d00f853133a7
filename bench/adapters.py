"""Implementations under comparison, behind one interface.

    decode(w) -> records   walk every record as a consumer does: offset, timestamp,
                           key, value and headers touched, CRCs verified
    build(w)  -> bytes     encode w.records into batches split exactly like w.batches
                           (same record counts per batch, same magic, same codec)
    crc(bufs) -> bytes     CRC-32C over each buffer of a list

An adapter lacking an operation simply has no method for it.  ``check()``
raises Unavailable(reason) when the implementation cannot run here; the runner
prints "n/a" with that reason (kafkacodec's record layer, for one, may not be
importable yet).  Adapters with ``slow = True`` are pure Python and run on a
leading sample of the workload's batches; their rates are per record, so they
stay comparable.

"Limits" are what no codec can beat on the same bytes: one memcpy, the crc32c
package over exactly the checksummed regions, the compression library alone
over the compressed payloads.
"""
from __future__ import annotations

import struct
import zlib

from bench.workloads import compressed_payloads

CODEC_IDS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
NO_LIMIT = 1 << 30  # builders get this batch size: the split comes from the workload


class Unavailable(Exception):
    pass


class Adapter:
    name = "?"
    kind = "codec"   # or "limit"
    slow = False

    def check(self):
        pass

    def supports(self, op):
        return callable(getattr(self, op, None))


def _touch_all(batches, validate):
    # the attribute reads are the point: lazy implementations must materialise
    n = 0
    for batch in batches:
        if validate is not None and not validate(batch):
            raise ValueError("CRC mismatch")
        for r in batch:
            r.offset, r.timestamp, r.key, r.value, r.headers
            n += 1
    return n


def _slices(w):
    pos = 0
    for count, magic in zip(w.batch_counts, w.batch_magic):
        yield pos, magic, w.records[pos:pos + count]
        pos += count


# ------------------------------------------------------------------ kafkacodec

class Kafkacodec(Adapter):
    name = "kafkacodec"

    def check(self):
        import kafkacodec
        if not kafkacodec.accelerated:
            raise Unavailable("compiled extension not loaded (pure-Python fallback in use)")

    @staticmethod
    def _records():
        from kafkacodec import records
        return records

    def decode(self, w):
        records = self._records()
        return _touch_all(records.iter_batches(w.data, verify_crc=True), None)

    def build(self, w):
        RecordBatchBuilder = self._records().RecordBatchBuilder
        total = 0
        for base, magic, recs in _slices(w):
            b = RecordBatchBuilder(magic, w.codec, base_offset=base, batch_size=NO_LIMIT)
            append = b.append
            for ts, k, v, h in recs:
                append(ts, k, v, h)
            total += len(b.build())
        return total

    def crc(self, bufs):
        from kafkacodec import crc32c
        for b in bufs:
            crc32c(b)
        return sum(map(len, bufs))


class KafkacodecBulk(Kafkacodec):
    """The same builder fed each batch's records in one call (append_many)."""
    name = "kafkacodec-bulk"
    decode = None
    crc = None

    def build(self, w):
        RecordBatchBuilder = self._records().RecordBatchBuilder
        if not hasattr(RecordBatchBuilder, "append_many"):
            raise Unavailable("RecordBatchBuilder.append_many not available")
        total = 0
        for base, magic, recs in _slices(w):
            b = RecordBatchBuilder(magic, w.codec, base_offset=base, batch_size=NO_LIMIT)
            b.append_many(recs)
            total += len(b.build())
        return total


class KafkacodecArrow(Kafkacodec):
    """Columnar decode to an Arrow table: no Python object per record."""
    name = "kafkacodec-arrow"
    build = None
    crc = None

    def check(self):
        super().check()
        try:
            import kafkacodec.arrow  # noqa: F401
        except ImportError as e:
            raise Unavailable(f"kafkacodec.arrow not available: {e}") from e

    def decode(self, w):
        import kafkacodec.arrow
        return kafkacodec.arrow.decode(w.data).num_rows


# ------------------------------------------------------------------ aiokafka

class AiokafkaC(Adapter):
    """aiokafka's Cython record codec; check() refuses to measure its Python fallback."""
    name = "aiokafka-C"

    def check(self):
        try:
            from aiokafka.record import _crecords
            from aiokafka.record import memory_records
        except ImportError as e:
            raise Unavailable(f"aiokafka C extension not importable: {e}") from e
        # what aiokafka itself uses must be the compiled class, or the comparison is void
        assert memory_records.MemoryRecords is _crecords.MemoryRecords, memory_records.MemoryRecords
        self._c = _crecords

    def decode(self, w):
        mr = self._c.MemoryRecords(w.data)
        return _touch_all(iter(mr.next_batch, None), lambda b: b.validate_crc())

    def build(self, w):
        c = self._c
        total = 0
        cid = CODEC_IDS[w.codec]
        for base, magic, recs in _slices(w):
            if magic == 2:
                b = c.DefaultRecordBatchBuilder(2, cid, 0, -1, -1, -1, NO_LIMIT)
                for i, (ts, k, v, h) in enumerate(recs):
                    b.append(i, ts, k, v, h)
            else:
                b = c.LegacyRecordBatchBuilder(magic, cid, NO_LIMIT)
                for i, (ts, k, v, h) in enumerate(recs):
                    b.append(i, ts if magic else None, k, v)
            total += len(b.build())
        return total

    def crc(self, bufs):
        f = self._c.crc32c_cython  # aiokafka's table-driven CRC (no hardware path)
        for b in bufs:
            f(b)
        return sum(map(len, bufs))


class AiokafkaPy(Adapter):
    """aiokafka's pure-Python classes (what users get when the extension is missing)."""
    name = "aiokafka-py"
    slow = True

    def check(self):
        try:
            from aiokafka.record import default_records, legacy_records
            self._dbatch = default_records._DefaultRecordBatchPy
            self._lbatch = legacy_records._LegacyRecordBatchPy
            self._db = default_records._DefaultRecordBatchBuilderPy
            self._lb = legacy_records._LegacyRecordBatchBuilderPy
        except (ImportError, AttributeError) as e:
            raise Unavailable(f"aiokafka pure-Python classes not found: {e}") from e

    def decode(self, w):
        # aiokafka's Python MemoryRecords hands out the *compiled* batch classes
        # when the extension is present, so split the buffer here instead
        mv = memoryview(w.data)

        def batches():
            pos = 0
            while pos + 17 <= len(mv):
                end = pos + 12 + struct.unpack_from(">i", mv, pos + 8)[0]
                magic = mv[pos + 16]
                yield self._dbatch(mv[pos:end]) if magic == 2 else self._lbatch(mv[pos:end], magic)
                pos = end
        return _touch_all(batches(), lambda b: b.validate_crc())

    def build(self, w):
        total = 0
        cid = CODEC_IDS[w.codec]
        for base, magic, recs in _slices(w):
            if magic == 2:
                b = self._db(2, cid, 0, -1, -1, -1, NO_LIMIT)
                for i, (ts, k, v, h) in enumerate(recs):
                    b.append(i, ts, k, v, h)
            else:
                b = self._lb(magic, cid, NO_LIMIT)
                for i, (ts, k, v, h) in enumerate(recs):
                    b.append(i, ts if magic else None, k, v)
            total += len(b.build())
        return total


# ------------------------------------------------------------------ kafka-python

class KafkaPython(Adapter):
    name = "kafka-python"
    slow = True

    def check(self):
        try:
            from kafka.record import default_records, legacy_records, memory_records, util
        except ImportError as e:
            raise Unavailable(f"kafka-python not installed: {e}") from e
        self._mr = memory_records.MemoryRecords
        self._db = default_records.DefaultRecordBatchBuilder
        self._lb = legacy_records.LegacyRecordBatchBuilder
        self._crc = util.calc_crc32c

    def decode(self, w):
        mr = self._mr(w.data)
        return _touch_all(iter(mr.next_batch, None), lambda b: b.validate_crc())

    def build(self, w):
        total = 0
        cid = CODEC_IDS[w.codec]
        for base, magic, recs in _slices(w):
            if magic == 2:
                b = self._db(2, cid, 0, -1, -1, -1, NO_LIMIT)
                for i, (ts, k, v, h) in enumerate(recs):
                    b.append(i, timestamp=ts, key=k, value=v, headers=h)
            else:
                b = self._lb(magic, cid, NO_LIMIT)
                for i, (ts, k, v, h) in enumerate(recs):
                    b.append(i, timestamp=ts if magic else None, key=k, value=v)
            total += len(b.build())
        return total

    def crc(self, bufs):
        # kafka-python delegates to the crc32c package when it is installed
        f = self._crc
        for b in bufs:
            f(b)
        return sum(map(len, bufs))


# ------------------------------------------------------------------ limits

class Memcpy(Adapter):
    """One copy of every byte of the arm's working set, in one call, into a destination
    that stays allocated (warm) across rounds: what moving the bytes costs and nothing
    else (a new bytearray per batch would time page faults and malloc, not copying)."""
    name = "memcpy"
    kind = "limit"

    def __init__(self):
        self._prepared = {}   # id(source) -> (source, joined bytes, warm destination)

    def _copy(self, source, parts):
        entry = self._prepared.get(id(source))
        if entry is None or entry[0] is not source:
            joined = b"".join(parts)
            entry = self._prepared[id(source)] = (source, joined, bytearray(len(joined)))
        _, joined, dst = entry
        memoryview(dst)[:] = joined
        return len(joined)

    def decode(self, w):
        self._copy(w, w.batches)
        return w.n_records

    def build(self, w):
        return self._copy(w, w.batches)

    def crc(self, bufs):
        return self._copy(bufs, bufs)


class Crc32cPackage(Adapter):
    """The crc32c package over exactly what a decoder checksums (zlib CRC-32 for legacy)."""
    name = "crc32c-pkg"
    kind = "limit"

    def check(self):
        try:
            import crc32c
        except ImportError as e:
            raise Unavailable(f"crc32c package not installed: {e}") from e
        self._f = crc32c.crc32c

    def decode(self, w):
        f = self._f
        for data, magic in zip(w.batches, w.batch_magic):
            mv = memoryview(data)
            if magic == 2:
                f(mv[21:])  # CRC covers attributes .. end of batch
            else:
                pos = 0  # every legacy message has its own CRC over magic .. end
                while pos + 12 <= len(mv):
                    size = struct.unpack_from(">i", mv, pos + 8)[0]
                    zlib.crc32(mv[pos + 16:pos + 12 + size])
                    pos += 12 + size
        return w.n_records

    def crc(self, bufs):
        f = self._f
        for b in bufs:
            f(b)
        return sum(map(len, bufs))


class RawDecompressor(Adapter):
    """The compression library alone over every compressed payload (no record parsing): the
    fastest library the codec has here (isal's gzip where installed), through the dispatch
    kafkacodec's reader calls, so the bound is the library and not a slower one."""
    name = "raw-decompressor"
    kind = "limit"

    def decode(self, w):
        if w.codec == "none":
            raise Unavailable("workload is uncompressed")
        from kafkacodec.records.compression import decompress

        for magic, payload in zip(w.batch_magic, compressed_payloads(w)):
            decompress(w.codec, payload, magic=magic)  # the default bound, as the decoders use
        return w.n_records


class RawCompressor(Adapter):
    """The compression library alone, at the producer's default level (the dispatch kafkacodec's
    builder calls), over every batch's uncompressed records: what a compressed build costs
    before any record is encoded."""
    name = "raw-compressor"
    kind = "limit"

    def __init__(self):
        self._plain = {}  # id(workload) -> (workload, [(magic, uncompressed records section)])

    def build(self, w):
        if w.codec == "none":
            raise Unavailable("workload is uncompressed")
        from kafkacodec.records.compression import compress, decompress

        entry = self._plain.get(id(w))
        if entry is None or entry[0] is not w:
            plain = [(magic, decompress(w.codec, payload, magic=magic))
                     for magic, payload in zip(w.batch_magic, compressed_payloads(w))]
            entry = self._plain[id(w)] = (w, plain)
        for magic, data in entry[1]:
            compress(w.codec, data, magic=magic)
        return w.n_records


ALL = [Kafkacodec(), KafkacodecBulk(), KafkacodecArrow(), AiokafkaC(), AiokafkaPy(), KafkaPython(),
       Memcpy(), Crc32cPackage(), RawDecompressor(), RawCompressor()]
BY_NAME = {a.name: a for a in ALL}
