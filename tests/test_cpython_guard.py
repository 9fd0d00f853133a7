"""The CPython-specific helpers live in one header, csrc/kc_cpython.h, with
the versions they are checked on; every compiled module that uses them calls
its check when imported, so an unchecked CPython fails loudly at import."""
import pathlib
import re
import sys

import pytest

import kafkacodec

ROOT = pathlib.Path(__file__).resolve().parents[1]
HEADER = ROOT / "csrc" / "kc_cpython.h"
USERS = ["kafkacodec/records/_records.pyx", "kafkacodec/protocol/_codec.pyx", "kafkacodec/integrations/_decode.pyx",
         "kafkacodec/compat/_face_records.pyx", "kafkacodec/compat/confluent_kafka/_message.pyx"]


def _range():
    text = HEADER.read_text()
    first = int(re.search(r"#define KC_CPYTHON_FIRST (0x[0-9A-Fa-f]+)", text).group(1), 16)
    after = int(re.search(r"#define KC_CPYTHON_AFTER (0x[0-9A-Fa-f]+)", text).group(1), 16)
    return first, after


def test_running_python_is_in_the_checked_range():
    first, after = _range()
    assert first <= sys.hexversion < after


def test_every_user_of_the_header_checks_at_import_and_nothing_else_embeds_cpython_internals():
    for rel in USERS:
        text = (ROOT / rel).read_text()
        assert 'cdef extern from "kc_cpython.h"' in text and "\nkc_cpython_check()\n" in text, rel
    for path in (ROOT / "kafkacodec").rglob("*.pyx"):
        text = path.read_text()
        # C written inline in a .pyx reaching into type objects is where layout
        # tricks used to hide
        assert "->tp_" not in text and "->ob_" not in text, path


@pytest.mark.skipif(not kafkacodec.accelerated, reason="compiled extension not in use")
def test_the_helpers_work_here():
    import pickle

    from kafkacodec.integrations import _decode  # noqa: F401  (imports only if the check passes)
    from kafkacodec.protocol import _codec  # noqa: F401
    from kafkacodec.records import _records

    # member descriptors found by kc_slot_offset read the right slots
    rec = _records._make_record(5, 6, 0, b"k", b"v", (), "t", 1)
    assert (rec.offset, rec.timestamp, rec.key, rec.value, rec.topic, rec.partition) == (5, 6, b"k", b"v", "t", 1)
    assert type(_records.Record.__dict__["offset"]).__name__ == "member_descriptor"
    assert pickle.loads(pickle.dumps(rec)).partition == 1


@pytest.mark.skipif(not kafkacodec.accelerated, reason="compiled extension not in use")
def test_messages_are_made_untracked_and_uncounted_and_collected_when_in_a_cycle():
    """kc_gc_uncounted_install on the confluent face's Message: the collector's header is where
    CPython's own objects have it (sys.getsizeof counts it), making messages adds nothing to the
    collector's count, a message made by a program is tracked, and one in a cycle is collected."""
    import gc
    import weakref

    from kafkacodec.compat.confluent_kafka._message import Message
    from kafkacodec.records import build_batches, decode_records

    data = b"".join(build_batches([(1, b"k", b"v")] * 2000))
    gc.collect()
    before = gc.get_count()[0]
    made = decode_records(data, record_class=Message)
    assert gc.get_count()[0] - before < 50 and not any(gc.is_tracked(m) for m in made)
    m = Message("t", 0, 1, b"k", b"v")
    assert gc.is_tracked(m) and sys.getsizeof(m) == Message.__basicsize__ + 2 * 8

    class Box:
        pass

    box = Box()
    box.message = made[0]
    made[0].set_value(box)
    ref = weakref.ref(box)
    del box, made
    gc.collect()
    assert ref() is None

    class Sub(Message):  # a Python subclass: CPython's own allocator and collector
        pass

    s = Sub("t")
    s.set_value([s])
    ref = weakref.ref(s)
    del s
    gc.collect()
    assert ref() is None


@pytest.mark.skipif(not kafkacodec.accelerated, reason="compiled extension not in use")
def test_messages_from_the_free_list_start_empty():
    """Freed Messages are kept for the next ones (kc_gc_uncounted_alloc's free list): a message
    made from a kept one holds only what its own record or constructor gave it, is untracked
    when decoded and tracked when a program makes it."""
    import gc

    from kafkacodec.compat.confluent_kafka._message import Message
    from kafkacodec.records import build_batches, decode_records

    first = decode_records(b"".join(build_batches([(7, b"old-key", b"old-value", [("h", b"x")])] * 3000)),
                           topic="old", partition=3, record_class=Message)
    del first  # 3,000 messages back to the free list
    made = decode_records(b"".join(build_batches([(9, None, b"v%d" % i) for i in range(3000)])),
                          topic="new", partition=1, record_class=Message)
    assert [(m.topic(), m.partition(), m.key(), m.value(), m.headers(), m.error(), m.timestamp()[1])
            for m in made] == [("new", 1, None, b"v%d" % i, None, None, 9) for i in range(3000)]
    assert not any(gc.is_tracked(m) for m in made)
    del made
    own = [Message("t", 0, i, error=None) for i in range(3000)]
    assert all(gc.is_tracked(m) and m.key() is None and m.value() is None and m.offset() == i
               for i, m in enumerate(own))


@pytest.mark.skipif(not kafkacodec.accelerated, reason="compiled extension not in use")
def test_a_record_has_no_padding_and_the_faces_records_no_vtable():
    """A consumer makes and frees one of these per record: a Record is its object header, nine
    object fields and 16 bytes of numbers with no padding between them; the confluent face's
    Message adds only its own fields' pointer, and aiokafka's ConsumerRecord is its eleven
    fields and a weak reference slot (no vtable: their helpers are module functions)."""
    from kafkacodec.compat._face_records import ConsumerRecord
    from kafkacodec.compat.confluent_kafka._message import Message
    from kafkacodec.records import Record

    word = 8 if sys.maxsize > 2 ** 32 else 4
    assert Record.__basicsize__ == object.__basicsize__ + 9 * word + 4 + 4 + 8
    assert Message.__basicsize__ == Record.__basicsize__ + word
    assert ConsumerRecord.__basicsize__ == object.__basicsize__ + 12 * word
