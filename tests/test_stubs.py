"""Every compiled module ships a type stub, and the package is marked typed."""
import pathlib
import re
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# setup.py lists the extensions as ext("kafkacodec.x.y", ...).
COMPILED = re.findall(r'ext\("(kafkacodec[\w.]*)"', (ROOT / "setup.py").read_text())


def test_setup_lists_compiled_modules():
    assert "kafkacodec._crc" in COMPILED and len(COMPILED) >= 5, COMPILED


@pytest.mark.parametrize("module", COMPILED)
def test_stub_next_to_compiled_module(module):
    base = ROOT / module.replace(".", "/")
    assert base.with_suffix(".pyx").is_file(), base
    assert base.with_suffix(".pyi").is_file(), f"{module} has no .pyi stub"


def test_every_pyx_is_compiled_and_stubbed():
    for pyx in (ROOT / "kafkacodec").rglob("*.pyx"):
        module = ".".join(pyx.relative_to(ROOT).with_suffix("").parts)
        assert module in COMPILED, f"{module} is not in setup.py's extension list"
        assert pyx.with_suffix(".pyi").is_file(), f"{module} has no .pyi stub"


def test_py_typed_and_package_data():
    assert (ROOT / "kafkacodec" / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    patterns = data["kafkacodec"]
    assert "py.typed" in patterns and "*.pyi" in patterns and "**/*.pyi" in patterns, patterns


# Top-level functions and classes a .pyx defines (cdef/cpdef functions are C-only).
_PYX_PUBLIC = re.compile(r"^(?:def|(?:cdef )?class) ([A-Za-z]\w*)", re.M)
_PYI_NAMES = re.compile(r"^(?:def|class) (\w+)|^(\w+)\s*[:=]", re.M)


@pytest.mark.parametrize("module", COMPILED)
def test_stub_names_cover_pyx(module):
    """Cheap drift check (no mypy needed): a public def/class added to a .pyx
    needs its stub; `python -m mypy.stubtest` checks signatures (test_wheel)."""
    base = ROOT / module.replace(".", "/")
    defined = set(_PYX_PUBLIC.findall(base.with_suffix(".pyx").read_text()))
    stubbed = {a or b for a, b in _PYI_NAMES.findall(base.with_suffix(".pyi").read_text())}
    assert not defined - stubbed, f"{module}: missing from the stub: {sorted(defined - stubbed)}"
