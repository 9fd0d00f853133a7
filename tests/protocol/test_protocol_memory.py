"""Decoded and constructed messages free what they hold (the compiled executor installs
its own deallocator on generated classes), subclasses included; no leaks per decode."""
import ctypes
import gc
import sys
import tracemalloc
import weakref

import pytest

from kafkacodec.protocol import SPECS, Struct, decode_message, encode_message
from kafkacodec.protocol import messages as m

from protocol_helpers import plan_of, populate


class Box:
    pass


def _prepare(codec):
    # plans compiled: generated classes are in their final state
    for name in ("MetadataRequest", "MetadataResponse"):
        for v in (0, 12):
            SPECS[name].plan(v, codec)


def test_slots_are_released(codec):
    _prepare(codec)
    if codec.__name__.endswith("._codec") and sys.implementation.name == "cpython" and sys.maxsize > 2**32:
        # compiled plans put the slots-only deallocator on their classes (tp_dealloc: offset 48)
        def dealloc(t):
            return ctypes.c_void_p.from_address(id(t) + 48).value
        assert dealloc(m.MetadataResponse) != dealloc(Struct)
        assert dealloc(m.MetadataResponse.MetadataResponsePartition) != dealloc(Struct)
    box = Box()
    ref = weakref.ref(box)
    msg = m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name="t")])
    msg.topics[0].name = box
    msg._unknown = [(5, Box())]
    del box
    assert ref() is not None
    del msg
    assert ref() is None


@pytest.mark.parametrize("extra", ["slots", "dict", "weakref"])
def test_python_subclasses(codec, extra):
    _prepare(codec)
    ns = {"slots": {"__slots__": ("mine",)}, "dict": {}, "weakref": {"__slots__": ("__weakref__",)}}[extra]
    Sub = type("Sub", (m.MetadataRequest,), dict(ns))
    box, own = Box(), Box()
    refs = [weakref.ref(box), weakref.ref(own)]
    obj = Sub(topics=[box])
    if extra == "slots":
        obj.mine = own
    elif extra == "dict":
        obj.anything = own
    else:
        refs.append(weakref.ref(obj))
        obj.allow_auto_topic_creation = own
    del box, own
    raw = encode_message(m.MetadataRequest(topics=[]), 12, codec)
    assert decode_message(SPECS["MetadataRequest"], 12, raw, codec).topics == []
    del obj
    assert [r() for r in refs] == [None] * len(refs)


def test_cycles_are_collected(codec):
    _prepare(codec)
    box = Box()
    ref = weakref.ref(box)
    msg = m.MetadataRequest(topics=[box])
    msg.topics.append(msg)  # a cycle through a slot
    del box, msg
    gc.collect()
    assert ref() is None


def test_no_growth_over_many_decodes(codec):
    spec = SPECS["MetadataResponse"]
    raw = encode_message(populate(plan_of(spec, 12)), 12, codec)
    for _ in range(50):
        decode_message(spec, 12, raw, codec)
    gc.collect()
    # only what the decoding allocates counts: an I/O thread an earlier test left running
    # allocates meanwhile too, from the client's files
    own = [tracemalloc.Filter(True, "*/kafkacodec/protocol/*"), tracemalloc.Filter(True, __file__)]
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot().filter_traces(own)
        for _ in range(2000):
            decode_message(spec, 12, raw, codec)
        gc.collect()
        after = tracemalloc.take_snapshot().filter_traces(own)
    finally:
        tracemalloc.stop()
    growth = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert growth < 64 << 10, growth
