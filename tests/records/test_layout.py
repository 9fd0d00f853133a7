"""The record layout is written twice, for compiled and for Python code
(_layout.pxd and layout.py): the two must agree, and with Kafka's format."""
import pathlib
import re

from kafkacodec.records import layout

PXD = pathlib.Path(layout.__file__).with_name("_layout.pxd")


def test_pxd_and_python_layouts_agree():
    pxd = dict(re.findall(r"^\s+([A-Z0-9_]+) = (0x[0-9A-Fa-f]+|\d+)", PXD.read_text(), re.M))
    assert len(pxd) >= 27
    for name, text in pxd.items():
        assert getattr(layout, name) == int(text, 0), name


def test_layout_matches_the_v2_header_struct():
    # field offsets as the struct format lays them out
    fields = ["V2_BASE_OFFSET", "V2_LENGTH", "V2_LEADER_EPOCH", "V2_MAGIC", "V2_CRC", "V2_ATTRIBUTES",
              "V2_LAST_OFFSET_DELTA", "V2_BASE_TIMESTAMP", "V2_MAX_TIMESTAMP", "V2_PRODUCER_ID",
              "V2_PRODUCER_EPOCH", "V2_BASE_SEQUENCE", "V2_RECORD_COUNT"]
    sizes = {"q": 8, "i": 4, "b": 1, "I": 4, "h": 2}
    pos = 0
    for name, code in zip(fields, layout.V2_HEADER.format.lstrip(">")):
        assert getattr(layout, name) == pos, name
        pos += sizes[code]
    assert pos == layout.V2_RECORDS == layout.V2_HEADER.size


def test_varint_and_field_sizes_are_those_of_the_encoded_bytes():
    from kafkacodec._pure.buffer import encode_varlong
    for value in [0, 1, -1, 63, 64, -64, -65, 8191, 8192, 1 << 31, -(1 << 63), (1 << 63) - 1]:
        assert layout.varint_size(value) == len(encode_varlong(value)), value
    assert layout.field_size(None) == 1
    assert layout.field_size(b"") == 1
    assert layout.field_size(b"x" * 200) == 2 + 200
