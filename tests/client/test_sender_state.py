"""The producer state its compiled paths share with Python is declared once
(client/_sender_state.pxd); its pure twin and its stub name the same fields."""
import ast
import pathlib
import re

from kafkacodec._pure import sender_state as pure

CLIENT = pathlib.Path(__file__).resolve().parents[2] / "kafkacodec" / "client"


def _pxd_fields():
    fields, current = {}, None
    for line in (CLIENT / "_sender_state.pxd").read_text().splitlines():
        m = re.match(r"cdef class (\w+)", line)
        if m:
            current = fields.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s+cdef public .*?(\w+)\s*(#.*)?$", line)
        if m and current is not None:
            current.append(m.group(1))
    return fields


def _stub_fields():
    tree = ast.parse((CLIENT / "_sender_state.pyi").read_text())
    return {node.name: [s.target.id for s in node.body if isinstance(s, ast.AnnAssign)]
            for node in tree.body if isinstance(node, ast.ClassDef)}


def test_the_pure_twin_and_the_stub_name_the_declared_fields():
    declared = _pxd_fields()
    assert set(declared) == {"BatchState", "SequenceState", "SenderState", "AccumulatorState"}
    stubs = _stub_fields()
    for name, fields in declared.items():
        assert list(getattr(pure, name).__slots__) == fields, name
        assert stubs[name] == fields, name


def test_the_python_classes_add_no_fields_of_their_own_to_batches():
    from kafkacodec.client.accumulator import ProducerBatch
    from kafkacodec.client.sender import PartitionState
    # slotted subclasses: a misspelt field is an AttributeError, not a new attribute
    assert ProducerBatch.__slots__ == () and PartitionState.__slots__ == ()
    ps = PartitionState()
    try:
        ps.next_sequence = 1
    except AttributeError:
        pass
    else:
        raise AssertionError("PartitionState took an undeclared field")
