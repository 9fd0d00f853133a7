# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Avro values <-> Arrow columns, run from a compiled plan (see _schema.py).

Decode: one pass per value over the plan's ops, without the GIL, appending to
malloc'd column buffers that become Arrow buffers without a copy.  Every
length and count is checked against the bytes left before anything grows.
Encode: the same walk over Arrow buffers, writing one growable byte buffer.
"""
cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t, uintptr_t, INT32_MAX, INT64_MIN
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset

from kafkacodec._buffer cimport Cursor, cur_take, cur_varint, cur_left
from kafkacodec._primitives cimport (KC_OK, KC_TRUNCATED, kc_load_be32, kc_store_be32, utf8_valid,
                                     write_uvarint64, zigzag64)
from kafkacodec._growbuf cimport *
from kafkacodec._buffer cimport pack_bits, take_growbuf

cdef enum:
    K_NULL, K_BOOL, K_I32, K_I64, K_F32, K_F64, K_BIN, K_STR, K_FIXED, K_DEC, K_DUR, K_ENUM, \
        K_STRUCT, K_LIST, K_MAP, K_UNION

cdef enum:
    O_NULL, O_BOOL, O_INT, O_LONG, O_FLOAT, O_DOUBLE, O_BYTES, O_STRING, O_FIXED, O_ENUM, \
        O_RECORD, O_ARRAY, O_MAP, O_UNION, O_SETNULL, O_TAG, O_DEFAULT, O_ERROR

# Failure codes (decode and encode), turned into messages with the GIL.
cdef enum:
    E_NONE, E_TRUNC, E_OVERLONG, E_BOOL, E_NEGLEN, E_BRANCH, E_ENUM, E_UTF8, E_DECIMAL, E_COUNT, \
        E_TRAILING, E_UNKNOWN_ID, E_MAGIC, E_RESOLVE, E_NOMEM, E_OVERFLOW, E_NULL, E_UNRESOLVED_ENUM

# Items that take no bytes (null, empty records) cannot be bounded by the
# bytes left; a block claiming more of them than this is refused.
DEF MAX_EMPTY_ITEMS = 1 << 24
DEF MAX_NEST = 256


cdef struct Op:
    int code
    int col             # reader column written, -1 to skip
    int a               # start in kids (or tables for an enum)
    int n
    int64_t size        # fixed size; const index for a default; an array's or map's fewest bytes per item


cdef struct Col:
    int kind
    int width
    int nullable
    int a, n            # children in ckids
    int64_t len
    int64_t nulls
    GrowBuf valid       # one byte per slot (packed to a bitmap at the end)
    GrowBuf data
    GrowBuf offs        # int32 offsets (binary, list, map) / int32 union offsets
    GrowBuf tids        # union type ids
    const uint8_t *bound    # decimal: 10**precision, little-endian, width bytes


cdef struct Dec:
    const Op *ops
    const int32_t *kids
    const int32_t *tables
    Col *cols
    const int32_t *ckids
    const uint8_t *const_buf
    const int64_t *const_off
    int64_t stack[MAX_NEST]     # the item index in each array or map being read, for error paths
    int sp
    int err
    int err_op
    Py_ssize_t err_pos
    int64_t err_val


cdef inline void put_some(GrowBuf *b, const uint8_t *p, Py_ssize_t n) noexcept nogil:
    # memcpy from or to NULL is undefined even for 0 bytes (an empty first string: nothing allocated yet)
    if n > 0:
        put_bytes(b, p, n)


cdef inline int fail(Dec *d, int code, int opi, Py_ssize_t pos, int64_t val) noexcept nogil:
    d.err = code
    d.err_op = opi
    d.err_pos = pos
    d.err_val = val
    return -1


cdef inline int mark(Col *c) noexcept nogil:
    c.len += 1
    if c.nullable:
        if gb_reserve(&c.valid, 1):
            return -1
        put_u8(&c.valid, 1)
    return 0


cdef int append_null(Dec *d, int ci) noexcept nogil:
    """A slot for a null (or a null parent): zeros, an empty list, a null validity byte."""
    cdef Col *c = &d.cols[ci]
    cdef int k = c.kind, j
    cdef Col *ch
    if k == K_NULL:
        c.len += 1
        c.nulls += 1
        return 0
    if k == K_BOOL or k == K_I32 or k == K_I64 or k == K_F32 or k == K_F64 or k == K_FIXED \
            or k == K_DEC or k == K_DUR or k == K_ENUM:
        if gb_reserve(&c.data, c.width):
            return -1
        if c.width:
            memset(c.data.data + c.data.len, 0, c.width)
            c.data.len += c.width
    elif k == K_BIN or k == K_STR:
        if gb_reserve(&c.offs, 4):
            return -1
        put_i32(&c.offs, <int32_t>c.data.len)
    elif k == K_STRUCT:
        for j in range(c.n):
            if append_null(d, d.ckids[c.a + j]):
                return -1
    elif k == K_LIST or k == K_MAP:
        ch = &d.cols[d.ckids[c.a]]
        if gb_reserve(&c.offs, 4):
            return -1
        put_i32(&c.offs, <int32_t>ch.len)
    else:   # a union has no validity of its own: the slot goes to its first branch
        ch = &d.cols[d.ckids[c.a]]
        if gb_reserve(&c.tids, 1) or gb_reserve(&c.offs, 4):
            return -1
        put_u8(&c.tids, 0)
        put_i32(&c.offs, <int32_t>ch.len)
        if append_null(d, d.ckids[c.a]):
            return -1
    c.len += 1
    if c.nullable:
        if gb_reserve(&c.valid, 1):
            return -1
        put_u8(&c.valid, 0)
        c.nulls += 1
    return 0


cdef inline int store_decimal(Col *c, const uint8_t *p, Py_ssize_t n) noexcept nogil:
    """Big-endian two's complement -> little-endian of the column's width (16 or 32)."""
    cdef int w = c.width, i
    cdef uint8_t fill = 0xFF if (n > 0 and (p[0] & 0x80)) else 0
    cdef uint8_t *out
    # bytes beyond the width must be sign extension only
    while n > w:
        if p[0] != fill:
            return -2
        p += 1
        n -= 1
    if n == w and n > 0 and ((p[0] & 0x80) != 0) != (fill == 0xFF):
        return -2
    if gb_reserve(&c.data, w):
        return -1
    out = c.data.data + c.data.len
    for i in range(w):
        out[i] = p[n - 1 - i] if i < n else fill
    if not dec_fits(out, w, c.bound):
        return -2
    c.data.len += w
    return 0


cdef inline int put_string(Dec *d, Col *c, const uint8_t *p, Py_ssize_t n, bint check_utf8, int opi,
                           Py_ssize_t at) noexcept nogil:
    """A string or bytes value onto column c's data and offsets (int32: at most 2 GiB); a failure
    is recorded in `d`."""
    if check_utf8 and not utf8_valid(p, n, True):
        return fail(d, E_UTF8, opi, at, 0)
    if gb_reserve(&c.data, n) or gb_reserve(&c.offs, 4):
        return fail(d, E_NOMEM, opi, at, 0)
    put_some(&c.data, p, n)
    if c.data.len > INT32_MAX:
        return fail(d, E_OVERFLOW, opi, at, 0)
    put_i32(&c.offs, <int32_t>c.data.len)
    return 0


cdef inline int put_decimal(Dec *d, Col *c, const uint8_t *p, Py_ssize_t n, int opi, Py_ssize_t at) noexcept nogil:
    """A decimal (from a fixed or bytes) into its column; a failure is recorded in `d`."""
    cdef int rc = store_decimal(c, p, n)
    if rc:
        return fail(d, E_NOMEM if rc == -1 else E_DECIMAL, opi, at, 0)
    return fail(d, E_NOMEM, opi, at, 0) if mark(c) else 0


cdef inline bint dec_fits(const uint8_t *v, int w, const uint8_t *bound) noexcept nogil:
    """|v| < 10**precision: Arrow refuses decimals beyond their precision."""
    cdef uint8_t mag[32]
    cdef int i, carry = 1
    if v[w - 1] & 0x80:
        for i in range(w):
            carry += <uint8_t>~v[i]
            mag[i] = <uint8_t>carry
            carry >>= 8
    else:
        memcpy(mag, v, w)
    for i in range(w - 1, -1, -1):
        if mag[i] != bound[i]:
            return mag[i] < bound[i]
    return 0


cdef inline int take_len(Dec *d, int opi, Cursor *cur, const uint8_t **p, Py_ssize_t *n) noexcept nogil:
    cdef int64_t ln = 0
    cdef Py_ssize_t at = cur.pos
    cdef int rc = cur_varint(cur, &ln)
    if rc != KC_OK:
        return fail(d, E_TRUNC if rc == KC_TRUNCATED else E_OVERLONG, opi, at, 0)
    if ln < 0:
        return fail(d, E_NEGLEN, opi, at, ln)
    if ln > cur_left(cur):
        return fail(d, E_TRUNC, opi, at, ln)
    n[0] = <Py_ssize_t>ln
    cur_take(cur, n[0], p)
    return 0


cdef int run(Dec *d, int opi, Cursor *cur) noexcept nogil:
    # Recursion follows the plan, which is as deep as the schema (bounded when it is parsed).
    cdef const Op *op = &d.ops[opi]
    cdef Col *c = &d.cols[op.col] if op.col >= 0 else NULL
    cdef int code = op.code, rc, j
    cdef int64_t lv = 0, cnt, k, total
    cdef int32_t iv
    cdef float fv
    cdef double dv
    cdef const uint8_t *p
    cdef Py_ssize_t n, at = cur.pos
    cdef Col *item
    cdef Cursor sub

    if code == O_INT or code == O_LONG or code == O_ENUM:
        # an int is at most 5 bytes (Avro's Java reader refuses more), a long 10
        if code == O_LONG:
            rc = cur_varint(cur, &lv)
        else:
            rc = cur_varint(cur, &iv)
            lv = iv
        if rc != KC_OK:
            return fail(d, E_TRUNC if rc == KC_TRUNCATED else E_OVERLONG, opi, at, 0)
        if code == O_ENUM:
            if lv < 0 or lv >= op.n:
                return fail(d, E_ENUM, opi, at, lv)
            if c == NULL:
                return 0
            iv = d.tables[op.a + lv]
            if iv < 0:
                return fail(d, E_UNRESOLVED_ENUM, opi, at, lv)
            if gb_reserve(&c.data, 4):
                return fail(d, E_NOMEM, opi, at, 0)
            put_i32(&c.data, iv)
            return fail(d, E_NOMEM, opi, at, 0) if mark(c) else 0
        if c == NULL:
            return 0
        if gb_reserve(&c.data, 8):
            return fail(d, E_NOMEM, opi, at, 0)
        if c.kind == K_I32:
            put_i32(&c.data, <int32_t>lv)
        elif c.kind == K_I64:
            put_i64(&c.data, lv)
        elif c.kind == K_F32:
            fv = <float>lv
            memcpy(c.data.data + c.data.len, &fv, 4)
            c.data.len += 4
        else:
            dv = <double>lv
            memcpy(c.data.data + c.data.len, &dv, 8)
            c.data.len += 8
        return fail(d, E_NOMEM, opi, at, 0) if mark(c) else 0

    if code == O_FLOAT or code == O_DOUBLE or code == O_FIXED:
        n = 4 if code == O_FLOAT else 8 if code == O_DOUBLE else <Py_ssize_t>op.size
        if cur_take(cur, n, &p) != KC_OK:
            return fail(d, E_TRUNC, opi, at, n)
        if c == NULL:
            return 0
        if c.kind == K_DEC:
            return put_decimal(d, c, p, n, opi, at)
        if gb_reserve(&c.data, 16 if n < 16 else n):
            return fail(d, E_NOMEM, opi, at, 0)
        if code == O_FLOAT and c.kind == K_F64:
            memcpy(&fv, p, 4)
            dv = fv
            memcpy(c.data.data + c.data.len, &dv, 8)
            c.data.len += 8
        elif c.kind == K_DUR:
            # Avro: months, days, millis (uint32 LE); Arrow: int32 months, int32 days, int64 nanos
            memcpy(c.data.data + c.data.len, p, 8)
            lv = <int64_t>(<uint32_t>p[8] | (<uint32_t>p[9] << 8) | (<uint32_t>p[10] << 16)
                           | (<uint32_t>p[11] << 24)) * 1000000
            memcpy(c.data.data + c.data.len + 8, &lv, 8)
            c.data.len += 16
        else:
            memcpy(c.data.data + c.data.len, p, n)
            c.data.len += n
        return fail(d, E_NOMEM, opi, at, 0) if mark(c) else 0

    if code == O_BYTES or code == O_STRING:
        if take_len(d, opi, cur, &p, &n):
            return -1
        if c == NULL:
            return 0
        if c.kind == K_DEC:
            return put_decimal(d, c, p, n, opi, at)
        if put_string(d, c, p, n, c.kind == K_STR, opi, at):
            return -1
        return fail(d, E_NOMEM, opi, at, 0) if mark(c) else 0

    if code == O_BOOL:
        if cur_take(cur, 1, &p) != KC_OK:
            return fail(d, E_TRUNC, opi, at, 1)
        if p[0] > 1:
            return fail(d, E_BOOL, opi, at, p[0])
        if c == NULL:
            return 0
        if gb_reserve(&c.data, 1):
            return fail(d, E_NOMEM, opi, at, 0)
        put_u8(&c.data, p[0])
        return fail(d, E_NOMEM, opi, at, 0) if mark(c) else 0

    if code == O_NULL:
        if c != NULL:
            c.len += 1
            c.nulls += 1
        return 0

    if code == O_RECORD:
        for j in range(op.n):
            if run(d, d.kids[op.a + j], cur):
                return -1
        if c == NULL:
            return 0
        return fail(d, E_NOMEM, opi, at, 0) if mark(c) else 0

    if code == O_ARRAY or code == O_MAP:
        item = &d.cols[d.ckids[c.a]] if c != NULL else NULL     # the map's keys column
        total = 0
        while True:
            at = cur.pos
            rc = cur_varint(cur, &cnt)
            if rc != KC_OK:
                return fail(d, E_TRUNC if rc == KC_TRUNCATED else E_OVERLONG, opi, at, 0)
            if cnt == 0:
                break
            if cnt < 0:
                # a negative count is followed by the block's size in bytes
                if cnt == INT64_MIN:
                    return fail(d, E_COUNT, opi, at, cnt)
                cnt = -cnt
                rc = cur_varint(cur, &lv)
                if rc != KC_OK:
                    return fail(d, E_TRUNC if rc == KC_TRUNCATED else E_OVERLONG, opi, at, 0)
                if lv < 0 or lv > cur_left(cur):
                    return fail(d, E_TRUNC, opi, at, lv)
            # a count the bytes left cannot hold is refused before any item is read
            if (cnt > cur_left(cur) // op.size) if op.size > 0 else (cnt > MAX_EMPTY_ITEMS - total):
                return fail(d, E_COUNT, opi, at, cnt)
            total += cnt
            for k in range(cnt):
                if code == O_MAP:
                    if take_len(d, opi, cur, &p, &n):
                        return -1
                    if c != NULL:
                        if put_string(d, item, p, n, True, opi, at):
                            return -1
                        item.len += 1
                if d.sp < MAX_NEST:
                    d.stack[d.sp] = total - cnt + k
                d.sp += 1
                if run(d, d.kids[op.a], cur):
                    return -1
                d.sp -= 1
        if c == NULL:
            return 0
        item = &d.cols[d.ckids[c.a]]
        if item.len > INT32_MAX:
            return fail(d, E_OVERFLOW, opi, at, 0)
        if gb_reserve(&c.offs, 4):
            return fail(d, E_NOMEM, opi, at, 0)
        put_i32(&c.offs, <int32_t>item.len)
        return fail(d, E_NOMEM, opi, at, 0) if mark(c) else 0

    if code == O_UNION:
        rc = cur_varint(cur, &lv)
        if rc != KC_OK:
            return fail(d, E_TRUNC if rc == KC_TRUNCATED else E_OVERLONG, opi, at, 0)
        if lv < 0 or lv >= op.n:
            return fail(d, E_BRANCH, opi, at, lv)
        return run(d, d.kids[op.a + lv], cur)

    if code == O_SETNULL:
        return fail(d, E_NOMEM, opi, at, 0) if append_null(d, op.col) else 0

    if code == O_TAG:
        item = &d.cols[d.ckids[c.a + op.n]]
        if gb_reserve(&c.tids, 1) or gb_reserve(&c.offs, 4):
            return fail(d, E_NOMEM, opi, at, 0)
        put_u8(&c.tids, <uint8_t>op.n)
        put_i32(&c.offs, <int32_t>item.len)
        if run(d, d.kids[op.a], cur):
            return -1
        c.len += 1
        return 0

    if code == O_DEFAULT:
        sub.buf = d.const_buf + d.const_off[op.size]
        sub.pos = 0
        sub.end = d.const_off[op.size + 1] - d.const_off[op.size]
        sub.base = 0
        if run(d, d.kids[op.a], &sub):
            d.err_pos = at
            return -1
        return 0

    return fail(d, E_RESOLVE, opi, at, op.n)      # O_ERROR


from pyarrow import py_buffer as _pa_buffer


cdef object _take(GrowBuf *b):
    return _pa_buffer(take_growbuf(b, kc_large_release))


cdef object _bits(GrowBuf *flags):
    """One byte per slot -> an Arrow bitmap."""
    return _pa_buffer(pack_bits(flags))


cdef inline const uint8_t *_addr(object buf):
    return <const uint8_t *><uintptr_t>buf.address if buf is not None else NULL


_MESSAGES = {
    E_TRUNC: "Avro value ends inside a field",
    E_OVERLONG: "Avro varint too long for its type",
    E_BOOL: "Avro boolean byte is neither 0 nor 1",
    E_NEGLEN: "negative Avro length",
    E_BRANCH: "Avro union branch index out of range",
    E_ENUM: "Avro enum index out of range",
    E_UTF8: "Avro string is not valid UTF-8",
    E_DECIMAL: "Avro decimal has more digits than its precision",
    E_COUNT: "Avro block count larger than the bytes left allow",
    E_TRAILING: "bytes left over after the Avro value",
    E_UNKNOWN_ID: "schema id not among the writer schemas",
    E_MAGIC: "value does not start with Confluent's magic byte 0 and a schema id",
    E_NOMEM: "out of memory building the Arrow columns",
    E_OVERFLOW: "a column exceeds 2 GiB (int32 Arrow offsets)",
    E_UNRESOLVED_ENUM: "writer's enum symbol is not in the reader's enum, which has no default",
}


@cython.final
cdef class Decoder:
    """A reader schema with one or more writer schemas, compiled into one plan."""
    cdef Op *ops
    cdef int32_t *kids
    cdef int32_t *tables
    cdef int32_t *ckids
    cdef int64_t *const_off
    cdef bytes const_buf
    cdef int ncols
    cdef list col_specs         # kind, width, nullable, a, n
    cdef int64_t *root_ids
    cdef int32_t *root_ops
    cdef int nroots
    cdef int default_root       # the plan without a schema id (-1: none)
    cdef readonly object plan
    cdef readonly object arrow_type
    cdef list bounds

    def __cinit__(self):
        self.ops = NULL
        self.kids = self.tables = self.ckids = self.root_ops = NULL
        self.const_off = self.root_ids = NULL

    def __dealloc__(self):
        free(self.ops)
        free(self.kids)
        free(self.tables)
        free(self.ckids)
        free(self.const_off)
        free(self.root_ids)
        free(self.root_ops)

    def __init__(self, plan, roots, default_root, arrow_type):
        """plan: a _schema.Plan; roots: [(schema_id, root op)]."""
        cdef Py_ssize_t i
        self.plan = plan
        self.arrow_type = arrow_type
        n = len(plan.ops)
        self.ops = <Op *>malloc(sizeof(Op) * (n + 1))
        self.kids = <int32_t *>malloc(4 * (len(plan.kids) + 1))
        self.tables = <int32_t *>malloc(4 * (len(plan.tables) + 1))
        self.const_off = <int64_t *>malloc(8 * (len(plan.consts) + 1))
        self.root_ids = <int64_t *>malloc(8 * (len(roots) + 1))
        self.root_ops = <int32_t *>malloc(4 * (len(roots) + 1))
        ckids = []
        self.col_specs = []
        for c in plan.cols:
            self.col_specs.append((c.kind, c.width, c.nullable, len(ckids), len(c.children)))
            ckids.extend(ch.index for ch in c.children)
        self.bounds = [(10 ** c.type.precision).to_bytes(c.width, "little") if c.kind == K_DEC else None
                       for c in plan.cols]
        self.ckids = <int32_t *>malloc(4 * (len(ckids) + 1))
        if (self.ops == NULL or self.kids == NULL or self.tables == NULL or self.const_off == NULL
                or self.root_ids == NULL or self.root_ops == NULL or self.ckids == NULL):
            raise MemoryError()
        self.ncols = len(plan.cols)
        for i, (code, col, a, nn, size) in enumerate(plan.ops):
            self.ops[i].code = code
            self.ops[i].col = col
            self.ops[i].a = a
            self.ops[i].n = nn
            self.ops[i].size = size
            if code == O_ARRAY or code == O_MAP:
                self.ops[i].size = plan.min_size(plan.kids[a]) + (code == O_MAP)
        for i, v in enumerate(plan.kids):
            self.kids[i] = v
        for i, v in enumerate(plan.tables):
            self.tables[i] = v
        for i, v in enumerate(ckids):
            self.ckids[i] = v
        off = 0
        for i, b in enumerate(plan.consts):
            self.const_off[i] = off
            off += len(b)
        self.const_off[len(plan.consts)] = off
        self.const_buf = b"".join(plan.consts)
        self.nroots = len(roots)
        for i, (sid, op) in enumerate(roots):
            self.root_ids[i] = sid
            self.root_ops[i] = op
        self.default_root = default_root

    def decode(self, values, bint confluent=False, kafka_offsets=None):
        """A binary/large_binary pyarrow Array -> an Arrow array of the reader's type."""
        cdef Dec d
        cdef Col *cols
        cdef Py_ssize_t i, nrows = len(values), start, stop, arr_off = values.offset
        cdef const uint8_t *vbits
        cdef const uint8_t *voffs
        cdef const uint8_t *vdata
        cdef bint large
        cdef int32_t o32a, o32b
        cdef int64_t o64a, o64b, sid
        cdef int root, r, failed = 0
        cdef Py_ssize_t bad_row = -1
        cdef Cursor cur
        cdef const char *cb

        import pyarrow as pa
        bufs = values.buffers()
        large = pa.types.is_large_binary(values.type) or pa.types.is_large_string(values.type)
        vbits = _addr(bufs[0]) if values.null_count else NULL
        voffs = _addr(bufs[1])
        vdata = _addr(bufs[2])
        if vdata == NULL:
            vdata = <const uint8_t *>b""
        cols = <Col *>calloc(self.ncols, sizeof(Col))
        if cols == NULL:
            raise MemoryError()
        try:
            for i, (kind, width, nullable, a, n) in enumerate(self.col_specs):
                cols[i].kind = kind
                cols[i].nullable = nullable
                cols[i].a = a
                cols[i].n = n
                if kind == K_DEC:
                    cols[i].bound = <const uint8_t *><bytes>self.bounds[i]
                cols[i].width = (1 if kind == K_BOOL else 4 if kind in (K_I32, K_F32, K_ENUM)
                                 else 8 if kind in (K_I64, K_F64) else width)
                if kind in (K_BIN, K_STR, K_LIST, K_MAP):
                    if gb_reserve(&cols[i].offs, 4):
                        raise MemoryError()
                    put_i32(&cols[i].offs, 0)
            cb = self.const_buf
            d.ops = self.ops
            d.kids = self.kids
            d.tables = self.tables
            d.cols = cols
            d.ckids = self.ckids
            d.const_buf = <const uint8_t *>cb
            d.const_off = self.const_off
            d.err = E_NONE
            with nogil:
                for i in range(nrows):
                    if vbits != NULL and not (vbits[(arr_off + i) >> 3] >> ((arr_off + i) & 7)) & 1:
                        if append_null(&d, 0):
                            fail(&d, E_NOMEM, 0, 0, 0)
                            failed = 1
                            bad_row = i
                            break
                        continue
                    if large:
                        memcpy(&o64a, voffs + 8 * (arr_off + i), 8)
                        memcpy(&o64b, voffs + 8 * (arr_off + i + 1), 8)
                        start = <Py_ssize_t>o64a
                        stop = <Py_ssize_t>o64b
                    else:
                        memcpy(&o32a, voffs + 4 * (arr_off + i), 4)
                        memcpy(&o32b, voffs + 4 * (arr_off + i + 1), 4)
                        start = o32a
                        stop = o32b
                    cur.buf = vdata + start
                    cur.pos = 0
                    cur.end = stop - start
                    cur.base = 0
                    root = self.default_root
                    if confluent:
                        if cur.end < 5 or cur.buf[0] != 0:
                            fail(&d, E_MAGIC, -1, 0, 0)
                            failed = 1
                            bad_row = i
                            break
                        sid = kc_load_be32(cur.buf + 1)
                        cur.pos = 5
                        root = -1
                        for r in range(self.nroots):
                            if self.root_ids[r] == sid:
                                root = self.root_ops[r]
                                break
                        if root < 0:
                            root = self.default_root
                        if root < 0:
                            fail(&d, E_UNKNOWN_ID, -1, 1, sid)
                            failed = 1
                            bad_row = i
                            break
                    d.sp = 0
                    if run(&d, root, &cur):
                        failed = 1
                        bad_row = i
                        break
                    if cur.pos != cur.end:
                        fail(&d, E_TRAILING, -1, cur.pos, cur.end - cur.pos)
                        failed = 1
                        bad_row = i
                        break
            if failed:
                self._raise(&d, bad_row, kafka_offsets)
            return self._build(cols, 0, self.plan.root.type, self.arrow_type)
        finally:
            for i in range(self.ncols):
                gb_free(&cols[i].valid)
                gb_free(&cols[i].data)
                gb_free(&cols[i].offs)
                gb_free(&cols[i].tids)
            free(cols)

    cdef _raise(self, Dec *d, Py_ssize_t row, kafka_offsets):
        from kafkacodec.errors import CorruptDataError
        if d.err == E_RESOLVE:
            msg = self.plan.messages[d.err_val]
        else:
            msg = _MESSAGES.get(d.err, "corrupt Avro value")
            if d.err == E_UNKNOWN_ID:
                msg += f" (id {d.err_val})"
            elif d.err in (E_BRANCH, E_ENUM, E_BOOL, E_NEGLEN, E_COUNT):
                msg += f" ({d.err_val})"
        where = f"values[{row}]"
        if kafka_offsets is not None:
            try:
                msg += f" (Kafka offset {kafka_offsets[row].as_py()})"
            except Exception:
                pass
        path = where
        if d.err_op >= 0 and self.plan.paths[d.err_op]:
            # each [] or {} of the op's path is an array or map open when it failed, outermost first
            parts = self.plan.paths[d.err_op].replace("{}", "[]").split("[]")
            filled = parts[0]
            for j in range(1, len(parts)):
                filled += (f"[{d.stack[j - 1]}]" if j - 1 < min(d.sp, MAX_NEST) else "[]") + parts[j]
            path = where + "." + filled
        raise CorruptDataError(msg, d.err_pos, path)

    cdef object _build(self, Col *cols, int ci, object t, object atype):
        import pyarrow as pa
        cdef Col *c = &cols[ci]
        cdef int k = c.kind
        cdef int64_t length = c.len
        valid = _bits(&c.valid) if (c.nullable and c.nulls) else None
        nulls = c.nulls if c.nullable else 0
        if k == K_NULL:
            return pa.nulls(length)
        if k == K_BOOL:
            return pa.Array.from_buffers(atype, length, [valid, _bits(&c.data)], nulls)
        if k in (K_I32, K_I64, K_F32, K_F64, K_FIXED, K_DEC, K_DUR):
            return pa.Array.from_buffers(atype, length, [valid, _take(&c.data)], nulls)
        if k in (K_BIN, K_STR):
            return pa.Array.from_buffers(atype, length, [valid, _take(&c.offs), _take(&c.data)], nulls)
        if k == K_ENUM:
            idx = pa.Array.from_buffers(pa.int32(), length, [valid, _take(&c.data)], nulls)
            return pa.DictionaryArray.from_arrays(idx, pa.array(self.plan.cols[ci].symbols, pa.string()),
                                                  safe=False)
        kids = [self.ckids[c.a + j] for j in range(c.n)]
        if k == K_STRUCT:
            children = [self._build(cols, kids[j], None, atype.field(j).type) for j in range(c.n)]
            return pa.Array.from_buffers(atype, length, [valid], nulls, children=children)
        if k == K_LIST:
            child = self._build(cols, kids[0], None, atype.value_type)
            return pa.Array.from_buffers(atype, length, [valid, _take(&c.offs)], nulls, children=[child])
        if k == K_MAP:
            keys = self._build(cols, kids[0], None, pa.string())
            items = self._build(cols, kids[1], None, atype.item_type)
            entries = pa.StructArray.from_arrays([keys, items], fields=[atype.key_field, atype.item_field])
            return pa.Array.from_buffers(atype, length, [valid, _take(&c.offs)], nulls, children=[entries])
        children = [self._build(cols, kids[j], None, atype.field(j).type) for j in range(c.n)]
        return pa.Array.from_buffers(atype, length, [None, _take(&c.tids), _take(&c.offs)], 0,
                                     children=children)


# --- encode ----------------------------------------------------------------------------------------

cdef enum:
    EN_OPT = 20         # a nullable union: branch n when null, size otherwise, then kids[a]
    EN_DEC = 21         # decimal: width bytes LE in; size 0: bytes out, else fixed of size
    EN_DUR = 22
    EN_TAG = 23         # a one-branch union: index size, then kids[a]


cdef struct ENode:
    int code
    const uint8_t *valid
    int64_t off
    const uint8_t *data
    const uint8_t *offs
    int large
    int a, n
    int64_t size
    int width


cdef struct Enc:
    const ENode *nodes
    const int32_t *kids
    const int32_t *tables
    GrowBuf out
    int err
    int err_node
    int64_t err_val


cdef inline int efail(Enc *e, int code, int ni, int64_t val) noexcept nogil:
    e.err = code
    e.err_node = ni
    e.err_val = val
    return -1


cdef inline int put_long(Enc *e, int64_t v) noexcept nogil:
    if gb_reserve(&e.out, 10):
        return -1
    e.out.len += write_uvarint64(e.out.data + e.out.len, zigzag64(v))
    return 0


cdef inline int64_t eoff(const ENode *nd, int64_t j) noexcept nogil:
    cdef int32_t o32
    cdef int64_t o64
    if nd.large:
        memcpy(&o64, nd.offs + 8 * j, 8)
        return o64
    memcpy(&o32, nd.offs + 4 * j, 4)
    return o32


cdef inline bint is_valid(const ENode *nd, int64_t i) noexcept nogil:
    cdef int64_t j = nd.off + i
    return nd.valid == NULL or (nd.valid[j >> 3] >> (j & 7)) & 1


cdef int enc(Enc *e, int ni, int64_t i) noexcept nogil:
    cdef const ENode *nd = &e.nodes[ni]
    cdef int code = nd.code, k
    cdef int64_t j = nd.off + i, v, s, t, m
    cdef int32_t v32
    cdef const uint8_t *p
    cdef uint8_t fill
    cdef int w
    cdef int64_t months_days
    cdef uint32_t ms

    if code == EN_OPT:
        if not is_valid(nd, i):
            return efail(e, E_NOMEM, ni, 0) if put_long(e, nd.n) else 0
        if put_long(e, nd.size):
            return efail(e, E_NOMEM, ni, 0)
        return enc(e, e.kids[nd.a], i)
    if code == EN_TAG:
        if put_long(e, nd.size):
            return efail(e, E_NOMEM, ni, 0)
        return enc(e, e.kids[nd.a], i)
    if code != O_NULL and not is_valid(nd, i):
        return efail(e, E_NULL, ni, i)
    if code == O_NULL:
        return 0
    if code == O_BOOL:
        if gb_reserve(&e.out, 1):
            return efail(e, E_NOMEM, ni, 0)
        put_u8(&e.out, (nd.data[j >> 3] >> (j & 7)) & 1)
        return 0
    if code == O_INT:
        memcpy(&v32, nd.data + 4 * j, 4)
        return efail(e, E_NOMEM, ni, 0) if put_long(e, v32) else 0
    if code == O_LONG:
        memcpy(&v, nd.data + 8 * j, 8)
        return efail(e, E_NOMEM, ni, 0) if put_long(e, v) else 0
    if code == O_FLOAT or code == O_DOUBLE or code == O_FIXED:
        w = 4 if code == O_FLOAT else 8 if code == O_DOUBLE else <int>nd.size
        if gb_reserve(&e.out, w):
            return efail(e, E_NOMEM, ni, 0)
        put_some(&e.out, nd.data + w * j, w)
        return 0
    if code == O_BYTES or code == O_STRING:
        s = eoff(nd, j)
        t = eoff(nd, j + 1)
        if put_long(e, t - s) or gb_reserve(&e.out, t - s):
            return efail(e, E_NOMEM, ni, 0)
        put_some(&e.out, nd.data + s, t - s)
        return 0
    if code == O_ENUM:
        memcpy(&v32, nd.data + 4 * j, 4)
        if v32 < 0 or v32 >= nd.n or e.tables[nd.size + v32] < 0:
            return efail(e, E_ENUM, ni, i)
        return efail(e, E_NOMEM, ni, 0) if put_long(e, e.tables[nd.size + v32]) else 0
    if code == O_RECORD:
        for k in range(nd.n):
            if enc(e, e.kids[nd.a + k], i):
                return -1
        return 0
    if code == O_ARRAY or code == O_MAP:
        s = eoff(nd, j)
        t = eoff(nd, j + 1)
        if t > s:
            if put_long(e, t - s):
                return efail(e, E_NOMEM, ni, 0)
            for m in range(s, t):
                if enc(e, e.kids[nd.a], m):
                    return -1
                if code == O_MAP and enc(e, e.kids[nd.a + 1], m):
                    return -1
        return efail(e, E_NOMEM, ni, 0) if put_long(e, 0) else 0
    if code == O_UNION:
        k = <int8_t>nd.data[j]
        if k < 0 or k >= nd.n:
            return efail(e, E_BRANCH, ni, k)
        memcpy(&v32, nd.offs + 4 * j, 4)
        if put_long(e, k):
            return efail(e, E_NOMEM, ni, 0)
        return enc(e, e.kids[nd.a + k], v32)
    if code == EN_DEC:
        p = nd.data + nd.width * j
        w = nd.width
        fill = 0xFF if p[w - 1] & 0x80 else 0
        if nd.size == 0:
            # the shortest two's complement form
            k = w
            while k > 1 and p[k - 1] == fill and ((p[k - 2] & 0x80) != 0) == (fill != 0):
                k -= 1
            if put_long(e, k) or gb_reserve(&e.out, k):
                return efail(e, E_NOMEM, ni, 0)
        else:
            k = <int>nd.size
            for m in range(k, w):
                if p[m] != fill:
                    return efail(e, E_DECIMAL, ni, i)
            if k < w and k > 0 and ((p[k - 1] & 0x80) != 0) != (fill != 0):
                return efail(e, E_DECIMAL, ni, i)
            if gb_reserve(&e.out, k):
                return efail(e, E_NOMEM, ni, 0)
        for m in range(k):
            e.out.data[e.out.len + m] = p[k - 1 - m] if k - 1 - m < w else fill
        e.out.len += k
        return 0
    if code == EN_DUR:
        p = nd.data + 16 * j
        memcpy(&v, p + 8, 8)
        if v < 0 or v % 1000000 != 0 or v // 1000000 > <int64_t>0xFFFFFFFF:
            return efail(e, E_DECIMAL, ni, i)
        if gb_reserve(&e.out, 12):
            return efail(e, E_NOMEM, ni, 0)
        ms = <uint32_t>(v // 1000000)
        put_some(&e.out, p, 8)
        for k in range(4):
            put_u8(&e.out, <uint8_t>(ms >> (8 * k)))
        return 0
    return efail(e, E_RESOLVE, ni, 0)


_ENC_MESSAGES = {
    E_NULL: "null where the Avro schema has no null",
    E_ENUM: "value is not a symbol of the Avro enum",
    E_BRANCH: "union type id is not a branch of the Avro union",
    E_DECIMAL: "value does not fit its Avro fixed (or duration) form",
    E_NOMEM: "out of memory encoding Avro values",
    E_OVERFLOW: "the encoded values exceed 2 GiB (int32 Arrow offsets)",
}


def encode_nodes(list nodes, list kids, list tables, list paths, int root, int64_t nrows, schema_id):
    """Run the encoder: nodes are (code, valid, off, data, offs, large, a, n, size, width) with buffers as
    pyarrow Buffers (or None); returns a binary pyarrow array."""
    import pyarrow as pa
    from kafkacodec.errors import EncodeError
    cdef Enc e
    cdef ENode *nd = <ENode *>calloc(len(nodes) + 1, sizeof(ENode))
    cdef int32_t *ks = <int32_t *>malloc(4 * (len(kids) + 1))
    cdef int32_t *ts = <int32_t *>malloc(4 * (len(tables) + 1))
    cdef GrowBuf offs
    cdef int64_t i
    cdef int failed = 0, has_id = schema_id is not None
    cdef uint8_t header[5]
    cdef Py_ssize_t q
    memset(&offs, 0, sizeof(GrowBuf))
    memset(&e, 0, sizeof(Enc))
    try:
        if nd == NULL or ks == NULL or ts == NULL:
            raise MemoryError()
        for q, (code, valid, off, data, ob, large, a, n, size, width) in enumerate(nodes):
            nd[q].code = code
            nd[q].valid = _addr(valid)
            nd[q].off = off
            nd[q].data = _addr(data)
            nd[q].offs = _addr(ob)
            nd[q].large = large
            nd[q].a = a
            nd[q].n = n
            nd[q].size = size
            nd[q].width = width
        for q, v in enumerate(kids):
            ks[q] = v
        for q, v in enumerate(tables):
            ts[q] = v
        if has_id:
            header[0] = 0
            kc_store_be32(header + 1, <uint32_t>schema_id)
        e.nodes = nd
        e.kids = ks
        e.tables = ts
        if gb_reserve(&offs, 4 * (nrows + 1)) or gb_reserve(&e.out, 16 * nrows + 16):
            raise MemoryError()
        put_i32(&offs, 0)
        with nogil:
            for i in range(nrows):
                if has_id:
                    if gb_reserve(&e.out, 5):
                        efail(&e, E_NOMEM, root, 0)
                        failed = 1
                        break
                    put_some(&e.out, header, 5)
                if enc(&e, root, i):
                    failed = 1
                    break
                if e.out.len > INT32_MAX:
                    efail(&e, E_OVERFLOW, root, 0)
                    failed = 1
                    break
                put_i32(&offs, <int32_t>e.out.len)
        if failed:
            path = paths[e.err_node]
            raise EncodeError(f"{_ENC_MESSAGES.get(e.err, 'cannot encode')} (row {i})",
                              f"[{i}]" + ("." + path if path else ""))
        return pa.Array.from_buffers(pa.binary(), nrows, [None, _take(&offs), _take(&e.out)])
    finally:
        free(nd)
        free(ks)
        free(ts)
        gb_free(&offs)
        gb_free(&e.out)
