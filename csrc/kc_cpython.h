/* Everything kafkacodec does that depends on CPython's object layout or
 * private behaviour, in one place, with the versions it has been checked on.
 *
 * kc_cpython_check() is called when each compiled module is imported: on a
 * CPython outside the checked range, or a free-threaded build, the import
 * fails loudly (ImportError) instead of misbehaving; kafkacodec then runs on
 * its pure-Python twins and says so.  Each helper has a test of its own.
 */
#ifndef KC_CPYTHON_H
#define KC_CPYTHON_H

#include <Python.h>
#include <structmember.h>

#define KC_CPYTHON_FIRST 0x030B0000   /* 3.11 */
#define KC_CPYTHON_AFTER 0x030E0000   /* 3.14 and later: not yet checked */

static inline int kc_cpython_check(void) {
#if defined(Py_GIL_DISABLED)
    PyErr_SetString(PyExc_ImportError,
                    "kafkacodec's compiled modules are not checked on free-threaded CPython builds");
    return -1;
#else
    if (PY_VERSION_HEX < KC_CPYTHON_FIRST || PY_VERSION_HEX >= KC_CPYTHON_AFTER) {
        PyErr_Format(PyExc_ImportError,
                     "kafkacodec's compiled modules rely on CPython object layouts checked on 3.11 to 3.13, "
                     "not on %s", Py_GetVersion());
        return -1;
    }
    return 0;
#endif
}

/* ---- records: Record attributes as read-only member descriptors ----
 * Plain slot reads, which CPython's attribute cache specialises (a property
 * is a call).  The slot's offset is found by planting a marker object in a
 * probe instance and scanning the instance for it (kc_slot_offset). */
#define KC_MAX_MEMBERS 9
static PyMemberDef kc_record_members[KC_MAX_MEMBERS];
static int kc_record_member_count = 0;

static inline PyObject *kc_readonly_member(PyTypeObject *tp, const char *name, Py_ssize_t offset) {
    PyMemberDef *m;
    if (kc_record_member_count >= KC_MAX_MEMBERS) {
        PyErr_SetString(PyExc_RuntimeError, "too many members");
        return NULL;
    }
    m = &kc_record_members[kc_record_member_count++];
    m->name = name; m->type = T_OBJECT_EX; m->offset = offset; m->flags = READONLY; m->doc = NULL;
    return PyDescr_NewMember(tp, m);
}

static inline Py_ssize_t kc_slot_offset(PyObject *obj, PyObject *marker, Py_ssize_t size) {
    PyObject **words = (PyObject **)obj;
    Py_ssize_t i;
    for (i = 0; i < size / (Py_ssize_t)sizeof(PyObject *); i++)
        if (words[i] == marker)
            return i * (Py_ssize_t)sizeof(PyObject *);
    PyErr_SetString(PyExc_RuntimeError, "record slot not found");
    return -1;
}

/* Whether instances of t carry an instance dict or weak references (slots of their own,
   or the ones CPython manages in front of the object from 3.12). */
static inline int kc_has_dict_or_weakref(PyTypeObject *t) {
    if (t->tp_dictoffset || t->tp_weaklistoffset)
        return 1;
#ifdef Py_TPFLAGS_MANAGED_DICT
    if (t->tp_flags & Py_TPFLAGS_MANAGED_DICT)
        return 1;
#endif
#ifdef Py_TPFLAGS_MANAGED_WEAKREF
    if (t->tp_flags & Py_TPFLAGS_MANAGED_WEAKREF)
        return 1;
#endif
    return 0;
}

/* ---- protocol: deallocator of the generated message classes ---- */
/* Deallocator for the generated message classes: what CPython's generic
   subtype_dealloc does for them (untrack, clear every __slots__ slot of the
   class and its bases, free, drop the type), without its checks for
   finalizers, weak references and instance dicts, none of which these
   classes have.  A subclass made in Python keeps subtype_dealloc, which
   handles its own additions and then calls this one. */
static inline void kc_struct_dealloc(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    PyTypeObject *base = type;
    Py_ssize_t off;
    PyObject_GC_UnTrack(self);
    Py_TRASHCAN_BEGIN(self, kc_struct_dealloc)
    while (base->tp_dealloc != kc_struct_dealloc)
        base = base->tp_base;
    /* kc_install_dealloc checked that the class and its bases up to object
       add nothing but slots: they fill the instance from the object header
       to the class's basic size */
    for (off = sizeof(PyObject); off < base->tp_basicsize; off += sizeof(PyObject *)) {
        PyObject **addr = (PyObject **)((char *)self + off);
        Py_CLEAR(*addr);
    }
    type->tp_free(self);
    Py_DECREF(type);
    Py_TRASHCAN_END
}

/* Install it on a generated class (-> Struct -> object) whose instances hold
   nothing but slots; anything else keeps its deallocator. */
static inline int kc_install_dealloc(PyObject *cls) {
    PyTypeObject *t = (PyTypeObject *)cls, *b;
    destructor generic;
    Py_ssize_t i;
    if (!PyType_CheckExact(cls) || t->tp_base == NULL || t->tp_base->tp_base != &PyBaseObject_Type)
        return 0;
    generic = t->tp_base->tp_dealloc;  /* Struct's: CPython's subtype_dealloc */
    for (b = t; b != &PyBaseObject_Type; b = b->tp_base) {
        if (!(b->tp_flags & Py_TPFLAGS_HEAPTYPE) || !(b->tp_flags & Py_TPFLAGS_HAVE_GC)
                || kc_has_dict_or_weakref(b) || b->tp_finalize || b->tp_del
                || (b->tp_dealloc != generic && b->tp_dealloc != kc_struct_dealloc)
                || b->tp_itemsize != 0
                || b->tp_basicsize != b->tp_base->tp_basicsize + Py_SIZE(b) * (Py_ssize_t)sizeof(PyObject *))
            return 0;
        /* every slot an object slot, one after the other */
        for (i = 0; i < Py_SIZE(b); i++) {
            PyMemberDef *mp = b->tp_members + i;
            if (mp->type != T_OBJECT_EX || (mp->flags & READONLY)
                    || mp->offset != b->tp_base->tp_basicsize + i * (Py_ssize_t)sizeof(PyObject *))
                return 0;
        }
    }
    if (PyBaseObject_Type.tp_basicsize != sizeof(PyObject))
        return 0;
    t->tp_dealloc = kc_struct_dealloc;
    return 1;
}

/* ---- integrations: instances of the clients' own record classes ----
 * Allocated through the class's own tp_alloc / tp_new, exactly as the
 * class would, and filled in by the caller. */
static inline PyObject *kc_accel_alloc(PyObject *cls, Py_ssize_t n) {
    return ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, n);
}

static inline PyObject *kc_accel_new(PyObject *cls, PyObject *args) {
    return ((PyTypeObject *)cls)->tp_new((PyTypeObject *)cls, args, NULL);
}

/* ---- compat: the faces' records ----
 * aiokafka's ConsumerRecord (kafkacodec/compat/_face_records.pyx) publishes its
 * fields as writable member descriptors, as Record does its read-only ones; and
 * the faces read the client's Record through the member descriptors it
 * publishes: the slot offset each one declares, read once. */
#define KC_MAX_FACE_MEMBERS 16
static PyMemberDef kc_face_members[KC_MAX_FACE_MEMBERS];
static int kc_face_member_count = 0;

static inline PyObject *kc_writable_member(PyTypeObject *tp, const char *name, Py_ssize_t offset) {
    PyMemberDef *m;
    if (kc_face_member_count >= KC_MAX_FACE_MEMBERS) {
        PyErr_SetString(PyExc_RuntimeError, "too many members");
        return NULL;
    }
    m = &kc_face_members[kc_face_member_count++];
    m->name = name; m->type = T_OBJECT_EX; m->offset = offset; m->flags = 0; m->doc = NULL;
    return PyDescr_NewMember(tp, m);
}

/* The offset of the object slot a member descriptor reads; -1 for anything else. */
static inline Py_ssize_t kc_object_member_offset(PyObject *descr) {
    PyMemberDef *m;
    if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type)
        return -1;
    m = ((PyMemberDescrObject *)descr)->d_member;
    return m->type == T_OBJECT_EX ? m->offset : -1;
}

/* The object in the slot at `offset` of obj (borrowed; NULL when unset). */
static inline PyObject *kc_slot_at(PyObject *obj, Py_ssize_t offset) {
    return *(PyObject **)((char *)obj + offset);
}

/* ---- compat: confluent-kafka's Message made outside the collector's count ----
 * A consumer makes messages by the ten thousand, each untracked (it holds what a
 * Record holds, so it cannot be in a cycle).  PyType_GenericAlloc would count
 * each one towards the collector's next pass (one every 700), and each pass
 * walks the lists that hold the messages made so far: that cost the consume loop
 * more than the messages themselves.  This allocator makes the instance as
 * PyType_GenericAlloc does (zeroed, the collector's header in front of it) but
 * untracked and uncounted, as CPython's own list and tuple free lists hand out
 * objects; the class's __init__ and setters track it when it may hold anything.
 * The header is PyGC_Head, two words on the checked versions (no managed dict
 * or weak reference slots: kc_gc_uncounted_install refuses classes with them). */
#define KC_GC_HEADER (2 * sizeof(PyObject *))

/* Freed instances kept for the next ones, as CPython keeps floats and tuples:
 * a consumer frees a poll's messages together and makes the next poll's at once,
 * so a list the size of a large poll.  Blocks of one size only (the class
 * installed first); the interpreter lock guards it. */
#define KC_GC_FREELIST_MAX 8192
static void *kc_gc_freelist[KC_GC_FREELIST_MAX];
static int kc_gc_freelist_count = 0;
static size_t kc_gc_freelist_size = 0;

static PyObject *kc_gc_uncounted_alloc(PyTypeObject *tp, Py_ssize_t nitems) {
    size_t size = KC_GC_HEADER + (size_t)tp->tp_basicsize;
    char *mem;
    if (nitems != 0)
        return PyType_GenericAlloc(tp, nitems);
    if (size == kc_gc_freelist_size && kc_gc_freelist_count > 0)
        mem = (char *)kc_gc_freelist[--kc_gc_freelist_count];
    else if ((mem = (char *)PyObject_Malloc(size)) == NULL)
        return PyErr_NoMemory();
    memset(mem, 0, size);  /* a zero header: not tracked */
    return PyObject_Init((PyObject *)(mem + KC_GC_HEADER), tp);
}

static void kc_gc_uncounted_free(void *obj) {
    /* the deallocator untracked it; nothing counted to take back */
    char *mem = (char *)obj - KC_GC_HEADER;
    if (KC_GC_HEADER + (size_t)Py_TYPE((PyObject *)obj)->tp_basicsize == kc_gc_freelist_size
            && kc_gc_freelist_count < KC_GC_FREELIST_MAX)
        kc_gc_freelist[kc_gc_freelist_count++] = mem;
    else
        PyObject_Free(mem);
}

/* Installed on a compiled GC class whose instances nothing else allocates or frees
 * (subclasses made in Python get CPython's generic pair again); 1 when installed. */
static inline int kc_gc_uncounted_install(PyObject *cls) {
    PyTypeObject *t = (PyTypeObject *)cls;
    if (!PyType_Check(cls) || (t->tp_flags & Py_TPFLAGS_HEAPTYPE) || !(t->tp_flags & Py_TPFLAGS_HAVE_GC)
            || t->tp_itemsize != 0 || kc_has_dict_or_weakref(t)
            || t->tp_free != PyObject_GC_Del)
        return 0;
    if (kc_gc_freelist_size == 0)
        kc_gc_freelist_size = KC_GC_HEADER + (size_t)t->tp_basicsize;
    t->tp_alloc = kc_gc_uncounted_alloc;
    t->tp_free = kc_gc_uncounted_free;
    PyType_Modified(t);
    return 1;
}

#endif
