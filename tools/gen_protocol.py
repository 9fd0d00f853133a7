#!/usr/bin/env python3
"""Generate the protocol's tables, message classes and error codes from Kafka's JSON specs and error table.

Reads ``<shared>/kafka-protocol/{trunk,3.9}`` (JSON with ``//`` comments).  Each
(message, version) comes from the newest set that still defines it: trunk wins
where it has the version, 3.9 supplies the versions trunk dropped (KIP-896).
Versions flagged ``latestVersionUnstable`` are left out unless
``--include-unstable`` is given.

Only what encoding needs is kept: names, types, version ranges, nullability,
tags, defaults, ignorability and per-field flexible overrides.  Common structs
are resolved inline so the runtime never looks names up.

The JSON specs hold no error codes: those come from ``tools/kafka_errors.py``
(Kafka's ``Errors.java`` as a table), read as a literal.

Six files under kafkacodec/ come out, each headed "GENERATED — do not edit":
  protocol/_schema.py         the tables, one ``Field(...)`` per line, so a spec change is a small diff;
                              each message's in a function of its own, made when first used
  protocol/messages.py        one name per message class (``_model`` builds each on first use)
  protocol/messages.pyi       the classes with their fields and types, for IDEs and type checkers
  protocol/_error_codes.py    ``ErrorCode``, and the names of the exception classes
  protocol/_error_classes.py  one exception class per code (imported when one is first named)
  client/_broker_errors.py    the client's class per code (the protocol's and BrokerResponseError)

    python tools/gen_protocol.py            # write the files
    python tools/gen_protocol.py --check    # exit 1 if any file is stale
"""
import argparse
import ast
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_SPECS = ROOT.parent / "shared" / "kafka-protocol"
DEFAULT_OUT = ROOT / "kafkacodec"
SETS = ("trunk", "3.9")  # newest first

GENERATED = ("# GENERATED — do not edit.  Source: Kafka JSON message specs (trunk + 3.9);\n"
             "# regenerate with `python tools/gen_protocol.py`.\n")

# The record types of the tables.  Written verbatim into _schema.py and run here
# too, so the generator builds the very types the runtime reads.
TYPES = '''from collections.abc import Mapping
from types import EllipsisType
from typing import NamedTuple

OPEN = 32767  # upper bound of an open range such as "3+"

# (lo, hi), both included; hi == OPEN means "lo+"; None means "none"
Versions = tuple[int, int] | None


class Field(NamedTuple):
    name: str
    type: str  # "int32", "string", "[]int32", "SomeStruct", "[]SomeStruct"...
    versions: Versions
    nullable_versions: Versions = None
    tag: int | None = None
    tagged_versions: Versions = None
    default: object = ...  # ...: the type's own default; None: null
    ignorable: bool = False
    flexible_versions: Versions | EllipsisType = ...  # ...: the message's
    fields: "tuple[Field, ...] | None" = None  # a struct's own fields (common structs inlined)


class Variant(NamedTuple):
    """Versions min_version..max_version, which share one field list."""

    min_version: int
    max_version: int
    flexible_versions: Versions
    fields: tuple[Field, ...]


class Message(NamedTuple):
    api_key: int | None  # None for headers and data records
    kind: str  # "request", "response", "header" or "data"
    variants: tuple[Variant, ...]
'''
_types = {"__name__": "kafkacodec.protocol._schema"}
exec(TYPES, _types)
OPEN, Field, Variant, Message = _types["OPEN"], _types["Field"], _types["Variant"], _types["Message"]


def load_json(path):
    # The specs allow // comments outside strings; strip them line by line.
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        out, in_str, i = [], False, 0
        while i < len(line):
            c = line[i]
            if c == '"' and (i == 0 or line[i - 1] != "\\"):
                in_str = not in_str
            if not in_str and line.startswith("//", i):
                break
            out.append(c)
            i += 1
        lines.append("".join(out))
    return json.loads("\n".join(lines))


def parse_versions(text):
    if text is None:
        return None
    text = text.strip()
    if text == "none":
        return None
    if text.endswith("+"):
        return (int(text[:-1]), OPEN)
    if "-" in text:
        lo, hi = text.split("-")
        return (int(lo), int(hi))
    return (int(text), int(text))


def parse_default(ftype, text):
    if text is None:
        return Ellipsis
    if not isinstance(text, str):  # some specs write JSON numbers/booleans
        text = str(text).lower()
    if text == "null":
        return None
    base = ftype
    if base in ("int8", "int16", "int32", "int64", "uint16", "uint32"):
        return int(text, 0)
    if base == "bool":
        return text == "true"
    if base == "float64":
        return float(text)
    if base in ("string", "uuid"):
        return text  # a uuid default is Kafka's URL-safe base64 text; the runtime decodes it
    # bytes, arrays and structs only take "null" or nothing
    return Ellipsis


def convert_fields(fields, common):
    out = []
    for f in fields:
        ftype = f["type"]
        elem = ftype[2:] if ftype.startswith("[]") else ftype
        children = None
        if "fields" in f:
            children = convert_fields(f["fields"], common)
        elif elem in common:
            children = convert_fields(common[elem], common)
        out.append(Field(
            name=f["name"],
            type=ftype,
            # a tagged field may leave out "versions": it then has its taggedVersions
            versions=parse_versions(f.get("versions", f.get("taggedVersions"))),
            nullable_versions=parse_versions(f.get("nullableVersions")),
            tag=f.get("tag"),
            tagged_versions=parse_versions(f.get("taggedVersions")),
            default=parse_default(ftype, f.get("default")),
            ignorable=bool(f.get("ignorable", False)),
            flexible_versions=parse_versions(f["flexibleVersions"]) if "flexibleVersions" in f else Ellipsis,
            fields=tuple(children) if children is not None else None,
        ))
    return tuple(out)


def stable_range(spec, include_unstable):
    rng = parse_versions(spec.get("validVersions"))
    if rng is None:
        return None
    lo, hi = rng
    if spec.get("latestVersionUnstable") and not include_unstable:
        hi -= 1
    return (lo, hi) if hi >= lo else None


def load_set(directory):
    specs = {}
    for path in sorted(directory.glob("*.json")):
        spec = load_json(path)
        if spec.get("type") in ("request", "response"):
            key = (spec["type"], spec["apiKey"])
        else:
            key = (spec["type"], spec["name"])
        specs[key] = spec
    # Responses carry no stability flag; they follow their request.
    for (kind, api), spec in specs.items():
        if kind == "response":
            req = specs.get(("request", api))
            if req is not None and req.get("latestVersionUnstable"):
                spec["latestVersionUnstable"] = True
    return specs


def build(specs_dir, include_unstable=False):
    sets = {name: load_set(specs_dir / name) for name in SETS}
    keys = sorted(set().union(*sets.values()), key=lambda k: (k[0], str(k[1]).zfill(4)))
    messages = {}
    for key in keys:
        taken = set()
        variants = []
        name = None
        api_key = key[1] if key[0] in ("request", "response") else None
        for set_name in SETS:
            spec = sets[set_name].get(key)
            if spec is None:
                continue
            rng = stable_range(spec, include_unstable)
            if name is None and rng is not None:
                name = spec["name"]
            if rng is None:
                continue
            common = {s["name"]: s["fields"] for s in spec.get("commonStructs", ())}
            fields = convert_fields(spec.get("fields", ()), common)
            flex = parse_versions(spec.get("flexibleVersions"))
            # contiguous runs of versions this set supplies that a newer set did not
            run = []
            for v in range(rng[0], rng[1] + 1):
                if v in taken:
                    if run:
                        variants.append(Variant(run[0], run[-1], flex, fields))
                        run = []
                    continue
                taken.add(v)
                run.append(v)
            if run:
                variants.append(Variant(run[0], run[-1], flex, fields))
        if not variants:
            continue
        variants.sort(key=lambda v: v.min_version)
        merged = [variants[0]]
        for v in variants[1:]:
            last = merged[-1]
            # a set that only dropped versions defines the rest as the other does: one Variant
            if (last.max_version + 1 == v.min_version and last.flexible_versions == v.flexible_versions
                    and last.fields == v.fields):
                merged[-1] = last._replace(max_version=v.max_version)
            else:
                merged.append(v)
        messages[name] = Message(api_key, key[0], tuple(merged))
    return messages


# ---------------------------------------------------------------- _schema.py

SCHEMA_HEAD = GENERATED + """#
# MESSAGES[spec name] = Message(api_key, kind, variants), made by that message's
# function below when it is asked for: a program loads every message's table
# but builds only the ones it uses.  Each Variant is a run of versions with one
# field list (two when trunk and 3.9 define them differently); its fields are one
# Field per line, a struct's own fields indented under it.  Attributes at their
# default are left out.  INDEX[spec name] = (api_key, kind, version runs): what a
# registry needs of every message before any of its fields.
"""
_RANGE_ATTRS = {"versions", "nullable_versions", "tagged_versions", "flexible_versions"}
_NESTED_ATTRS = {"fields", "variants"}  # rendered on the lines that follow


def _same(a, b):
    return a is b or (type(a) is type(b) and a == b)


def _literal(attr, value):
    if attr in _RANGE_ATTRS and isinstance(value, tuple):
        lo, hi = value
        return f"({lo}, {'OPEN' if hi == OPEN else hi})"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _args(record):
    defaults = type(record)._field_defaults
    return ", ".join(
        f"{attr}={_literal(attr, value)}"
        for attr, value in zip(type(record)._fields, record)
        if attr not in _NESTED_ATTRS and not (attr in defaults and _same(value, defaults[attr])))


def _render_fields(fields, depth, out):
    pad = "    " * depth
    for f in fields:
        if f.fields is None:
            out.append(f"{pad}Field({_args(f)}),\n")
        elif not f.fields:
            out.append(f"{pad}Field({_args(f)}, fields=()),\n")
        else:
            out.append(f"{pad}Field({_args(f)}, fields=(\n")
            _render_fields(f.fields, depth + 1, out)
            out.append(f"{pad})),\n")


SCHEMA_LOOKUP = '''

class _Messages(Mapping):
    """MESSAGES[name]: the Message its function above makes, made at each lookup (whoever asks keeps it)."""

    def __getitem__(self, name):
        if name not in INDEX:
            raise KeyError(name)
        return globals()["_" + name]()

    def __iter__(self):
        return iter(INDEX)

    def __len__(self):
        return len(INDEX)


MESSAGES = _Messages()
'''


def render_schema(messages):
    out = [SCHEMA_HEAD, TYPES, "\n\nINDEX = {\n"]
    for name in sorted(messages):
        message = messages[name]
        runs = ", ".join(f"({v.min_version}, {v.max_version})" for v in message.variants)
        runs += "," if len(message.variants) == 1 else ""
        out.append(f"    {json.dumps(name)}: ({message.api_key}, {json.dumps(message.kind)}, ({runs})),\n")
    out.append("}\n")
    for name in sorted(messages):
        message = messages[name]
        out.append(f"\n\ndef _{name}():\n    return Message({_args(message)}, variants=(\n")
        for variant in message.variants:
            if not variant.fields:
                out.append(f"        Variant({_args(variant)}, fields=()),\n")
                continue
            out.append(f"        Variant({_args(variant)}, fields=(\n")
            _render_fields(variant.fields, 3, out)
            out.append("        )),\n")
        out.append("    ))\n")
    out.append(SCHEMA_LOOKUP)
    return "".join(out)


# ---------------------------------------------------------------- messages.py / .pyi
# The class layouts below follow kafkacodec.protocol._model, which builds the
# classes: the attribute name of a field, and one class per struct name holding
# every attribute any version has (tests compare the stub with the classes).


def snake(name):
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return s.lower()


def class_layouts(name, message):
    """{struct name: {attribute: (newest Field, nullable in some version)}}, message first."""
    layouts = {name: {}}

    def collect(sname, fields):
        layout = layouts[sname]
        for f in fields:
            attr = snake(f.name)
            nullable = f.nullable_versions is not None or f.default is None
            if attr in layout:
                nullable = nullable or layout[attr][1]
            layout[attr] = (f, nullable)
            if f.fields is not None:
                child = f.type[2:] if f.type.startswith("[]") else f.type
                layouts.setdefault(child, {})
                collect(child, f.fields)

    for variant in message.variants:
        collect(name, variant.fields)
    return layouts


_PY_TYPES = {
    "int8": "int", "int16": "int", "int32": "int", "int64": "int", "uint16": "int", "uint32": "int",
    "float64": "float", "bool": "bool", "uuid": "uuid.UUID", "string": "str", "bytes": "bytes",
    "records": "bytes | memoryview",  # decoded records are views of the frame
}


def _py_type(owner, ftype, argument):
    if ftype.startswith("[]"):
        return f"list[{_py_type(owner, ftype[2:], False)}]"
    if argument and ftype in ("bytes", "records"):
        return "ReadableBuffer"  # the encoders take any bytes-like object
    return _PY_TYPES.get(ftype) or f"{owner}.{ftype}"


def _stub_class(owner, sname, layout, doc, depth, out):
    pad = "    " * depth
    out.append(f"{pad}class {sname}(Struct):\n")
    if doc:
        out.append(f'{pad}    """{doc}"""\n\n')
    if sname == owner:
        out.append(f"{pad}    spec: ClassVar[MessageSpec]\n")
    params = []
    for attr, (f, nullable) in layout.items():
        none = " | None" if nullable else ""
        out.append(f"{pad}    {attr}: {_py_type(owner, f.type, False)}{none}\n")
        params.append(f"{pad}        {attr}: {_py_type(owner, f.type, True)}{none} = ...,\n")
    if params:
        out.append(f"{pad}    def __init__(\n{pad}        self,\n{pad}        *,\n")
        out.extend(params)
        out.append(f"{pad}    ) -> None: ...\n")
    else:
        out.append(f"{pad}    def __init__(self) -> None: ...\n")


def _describe(message):
    lo, hi = message.variants[0].min_version, message.variants[-1].max_version
    versions = f"version {lo}" if lo == hi else f"versions {lo}-{hi}"
    if message.api_key is None:
        return f"{message.kind.capitalize()}, {versions}."
    return f"API key {message.api_key} {message.kind}, {versions}."


MESSAGES_DOC = '''"""Every generated message class, by spec name (``MetadataRequest``, ``FetchResponse``...).

Nested structs are attributes of their message class
(``MetadataRequest.MetadataRequestTopic``).  Header and ``data`` records
(``RequestHeader``, ``ConsumerProtocolSubscription``, ``LeaderChangeMessage``...)
are here too.  ``_model`` builds each class from ``_schema`` when it is first
used, not at import; ``messages.pyi`` declares their fields and types for IDEs
and type checkers.
"""
'''

# A class is built when first looked up (then kept as a module global, so this runs once a name):
# importing a client that names a few messages does not build the other two hundred.
MESSAGES_LAZY = '''

_NAMES = frozenset(__all__[1:])


def __getattr__(name):
    if name not in _NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    cls = _SPECS[name].cls
    globals()[name] = cls
    return cls


def __dir__():
    return sorted(set(globals()) | _NAMES)
'''


def _all(messages):
    return "__all__ = [\n" + "".join(f"    {json.dumps(n)},\n" for n in ["Struct", *sorted(messages)]) + "]\n"


def render_messages(messages):
    out = [GENERATED, MESSAGES_DOC,
           "from kafkacodec.protocol._model import SPECS as _SPECS, Struct\n\n",
           _all(messages), MESSAGES_LAZY]
    return "".join(out)


def render_stub(messages):
    out = [GENERATED,
           "# Fields and types of the classes kafkacodec.protocol._model builds on first use.\n",
           "import uuid\nfrom typing import ClassVar\n\nfrom _typeshed import ReadableBuffer\n\n",
           "from kafkacodec.protocol._model import MessageSpec, Struct\n\n", _all(messages)]
    for name in sorted(messages):
        message = messages[name]
        layouts = class_layouts(name, message)
        out.append("\n")
        _stub_class(name, name, layouts[name], _describe(message), 0, out)
        for sname, layout in layouts.items():
            if sname != name:
                out.append("\n")
                _stub_class(name, sname, layout, None, 1, out)
    return "".join(out)


# ---------------------------------------------------------------- error codes

ERRORS_SOURCE = ROOT / "tools" / "kafka_errors.py"
ERRORS_GENERATED = ("# GENERATED — do not edit.  Source: tools/kafka_errors.py (Kafka's error codes);\n"
                    "# regenerate with `python tools/gen_protocol.py`.\n")


def load_errors(path=ERRORS_SOURCE):
    """[(code, name, retriable, description)] from the ``ERRORS = (...)`` literal of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (value,) = [node.value for node in tree.body if isinstance(node, ast.Assign)
                and [getattr(t, "id", None) for t in node.targets] == ["ERRORS"]]
    errors = [tuple(row) for row in ast.literal_eval(value)]
    codes = [row[0] for row in errors]
    names = [row[1] for row in errors]
    if len(set(codes)) != len(codes) or len(set(names)) != len(names) or (0, "NONE") not in zip(codes, names):
        raise ValueError(f"{path}: codes and names must be unique, and 0 must be NONE")
    for code, name, retriable, description in errors:
        # descriptions become docstrings as they are: no quotes or backslashes
        if not (isinstance(code, int) and name.isidentifier() and name.isupper()
                and isinstance(retriable, bool) and description and not set('"\\') & set(description)):
            raise ValueError(f"{path}: bad row {(code, name, retriable, description)!r}")
    return errors


def error_class_name(name):
    """NOT_LEADER_OR_FOLLOWER -> NotLeaderOrFollowerError; INVALID_TOPIC_EXCEPTION -> InvalidTopicError."""
    if name.endswith("_EXCEPTION"):
        name = name[:-len("_EXCEPTION")]
    return "".join(part.capitalize() for part in name.split("_")) + ("" if name.endswith("ERROR") else "Error")


ERROR_CODES_HEAD = ERRORS_GENERATED + '''"""Every broker error code (``ErrorCode``), and the names of their exception classes.

``kafkacodec.protocol.errors`` is the module to import; this one and ``_error_classes`` (the
classes, made when first named) are what it is made of.
"""
from enum import IntEnum

'''

ERROR_CODE_ENUM = '''

class ErrorCode(IntEnum):
    """Every broker error code by its protocol name (``NONE`` is 0, success).

    A member is its int (``ErrorCode.NOT_LEADER_OR_FOLLOWER == 6``, also as a dict key or in a
    set), with ``retriable`` and ``description``.
    """

    _value_: int
    retriable: bool
    description: str

    def __new__(cls, code: int, retriable: bool, description: str) -> "ErrorCode":
        member = int.__new__(cls, code)
        member._value_ = code
        member.retriable = retriable
        member.description = description
        return member

'''


def _class_rows(errors):
    """(code, class name, row) of each code that has a class: every one but NONE."""
    return [(row[0], error_class_name(row[1]), row) for row in errors if row[0] != 0]


def render_error_codes(errors):
    classes = _class_rows(errors)
    out = [ERROR_CODES_HEAD, "__all__ = [\"ErrorCode\", \"CLASS_NAMES\"]\n", ERROR_CODE_ENUM]
    for code, name, retriable, description in errors:
        out.append(f"    {name} = {code}, {retriable}, {json.dumps(description)}\n")
    out.append("\n\n# the exception class of each code but NONE, in code order (_error_classes defines them)\n"
               "CLASS_NAMES = (\n")
    out.extend(f"    {json.dumps(cls)},\n" for _, cls, _ in classes)
    out.append(")\n")
    return "".join(out)


ERROR_CLASSES_HEAD = ERRORS_GENERATED + '''"""The exception class of every broker error code.

``kafkacodec.protocol.errors`` names them, and imports this module when one is first named: a
program that meets no broker error never makes them.
"""
from kafkacodec.protocol._error_base import BrokerError, RetriableBrokerError

# where the classes are named for users, tracebacks and pickles
PUBLIC_MODULE = "kafkacodec.protocol.errors"

'''


def render_error_classes(errors):
    classes = _class_rows(errors)
    out = [ERROR_CLASSES_HEAD, "__all__ = [  # the classes; errors names BY_CODE itself\n"]
    out.extend(f"    {json.dumps(cls)},\n" for _, cls, _ in classes)
    out.append("]\n")
    for code, cls, (_, name, retriable, description) in classes:
        base = "RetriableBrokerError" if retriable else "BrokerError"
        out.append(f'\n\nclass {cls}({base}):\n    """{description}"""\n\n'
                   f"    __module__ = PUBLIC_MODULE\n    code = {code}\n    name = {json.dumps(name)}\n"
                   f"    description = {json.dumps(description)}\n")
    out.append("\n\nBY_CODE: dict[int, type[BrokerError]] = {\n")
    out.extend(f"    {code}: {cls},\n" for code, cls, _ in classes)
    out.append("}\n")
    return "".join(out)


CLIENT_ERRORS_HEAD = ERRORS_GENERATED + '''"""The client's exception class for every broker error code.

Each derives from the protocol's class for its code and from :class:`BrokerResponseError`, so
``except protocol.errors.NotLeaderOrFollowerError`` and ``except client.errors.BrokerResponseError``
both catch a ``client.errors.NotLeaderOrFollowerError``.  ``kafkacodec.client.errors`` names them,
and imports this module when one is first named.
"""
from kafkacodec.client._response_error import BrokerResponseError
from kafkacodec.protocol import _error_classes as _protocol

# where the classes are named for users, tracebacks and pickles
PUBLIC_MODULE = "kafkacodec.client.errors"

'''


def render_client_errors(errors):
    classes = _class_rows(errors)
    out = [CLIENT_ERRORS_HEAD, "__all__ = [  # the classes\n"]
    out.extend(f"    {json.dumps(cls)},\n" for _, cls, _ in classes)
    out.append("]\n")
    for _code, cls, (_, _name, _retriable, description) in classes:
        out.append(f'\n\nclass {cls}(_protocol.{cls}, BrokerResponseError):\n    """{description}"""\n\n'
                   "    __module__ = PUBLIC_MODULE\n")
    out.append("\n\nBY_CODE: dict[int, type[BrokerResponseError]] = {\n")
    out.extend(f"    {code}: {cls},\n" for code, cls, _ in classes)
    out.append("}\n")
    return "".join(out)


def render_all(messages, errors=None):
    """{path under kafkacodec/: text}"""
    errors = load_errors() if errors is None else errors
    return {
        "protocol/_schema.py": render_schema(messages),
        "protocol/messages.py": render_messages(messages),
        "protocol/messages.pyi": render_stub(messages),
        "protocol/_error_codes.py": render_error_codes(errors),
        "protocol/_error_classes.py": render_error_classes(errors),
        "client/_broker_errors.py": render_client_errors(errors),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--specs", type=pathlib.Path, default=DEFAULT_SPECS,
                    help="directory holding trunk/ and 3.9/ (default: ../shared/kafka-protocol)")
    ap.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT,
                    help="package directory the files go under (default: kafkacodec)")
    ap.add_argument("--errors", type=pathlib.Path, default=ERRORS_SOURCE,
                    help="the error code table (default: tools/kafka_errors.py)")
    ap.add_argument("--include-unstable", action="store_true",
                    help="also emit versions marked latestVersionUnstable")
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if any output file differs from what would be written")
    args = ap.parse_args(argv)
    files = render_all(build(args.specs, args.include_unstable), load_errors(args.errors))
    if args.check:
        stale = [name for name, text in files.items()
                 if not (args.out / name).is_file() or (args.out / name).read_text(encoding="utf-8") != text]
        for name in stale:
            print(f"{args.out / name} is stale; run tools/gen_protocol.py", file=sys.stderr)
        return 1 if stale else 0
    for name, text in files.items():
        (args.out / name).parent.mkdir(parents=True, exist_ok=True)
        (args.out / name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
