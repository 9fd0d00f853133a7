"""Message classes and codec plans built from the generated schema, each when first used.

``tools/gen_protocol.py`` turns Kafka's JSON specs into ``_schema`` (committed;
CI checks it is current).  Nothing is built at import: the first use of the
registry (``SPECS``, ``REQUESTS``...) loads ``_schema.INDEX`` (every message's
API key, kind and versions), the first use of a message's fields makes its
table (``_schema.MESSAGES[name]``), the first use of its class builds one
Python class per message and per nested struct,
covering every version, and the first use of a (message, version) with an
executor (`_codec.pyx` or `_pure_codec.py`) compiles it once into a *plan*, a
tree of field operations the executor runs without looking at the schema again,
cached on the message's spec.  A short-lived program that sends three kinds of
request builds three messages' classes, not two hundred.
"""
from __future__ import annotations

import re
import threading
import uuid as _uuid
from collections.abc import Mapping

from kafkacodec.errors import UnsupportedVersionError

# Field kinds shared with the executors (keep in sync with _codec.pyx).
INT8, INT16, INT32, INT64, UINT16, UINT32, FLOAT64, BOOL, UUID, STRING, BYTES, RECORDS, ARRAY, STRUCT = range(14)
ABSENT = -1

PRIMITIVES = {
    "int8": INT8, "int16": INT16, "int32": INT32, "int64": INT64, "uint16": UINT16,
    "uint32": UINT32, "float64": FLOAT64, "bool": BOOL, "uuid": UUID, "string": STRING,
    "bytes": BYTES, "records": RECORDS,
}
# Smallest encoding of one value (classic, compact); used to reject array counts
# that cannot fit in the remaining input before anything is allocated.
_MIN_SIZE = {
    INT8: (1, 1), INT16: (2, 2), INT32: (4, 4), INT64: (8, 8), UINT16: (2, 2), UINT32: (4, 4),
    FLOAT64: (8, 8), BOOL: (1, 1), UUID: (16, 16), STRING: (2, 1), BYTES: (4, 1), RECORDS: (4, 1),
}
ZERO_UUID = _uuid.UUID(int=0)


_ACRONYM_WORD = re.compile(r"([A-Z]+)([A-Z][a-z])")
_WORD = re.compile(r"([a-z0-9])([A-Z])")
_snakes = {}  # made once a name: a message's classes and each of its plans ask for the same ones


def snake(name):
    attr = _snakes.get(name)
    if attr is None:
        attr = _snakes[name] = _WORD.sub(r"\1_\2", _ACRONYM_WORD.sub(r"\1_\2", name)).lower()
    return attr


def _in(rng, v):
    return rng is not None and rng[0] <= v <= rng[1]


_MISSING = object()


class Struct:
    """Base of every generated message and struct class.

    Fields are slots.  ``_tags`` remembers which tagged fields a decoded message
    carried (so a default value written by a peer is written back), ``_unknown``
    keeps tagged fields this schema does not know as (tag, bytes) pairs.
    """

    __slots__ = ("_tags", "_unknown")
    _fields: tuple = ()                       # ((attr, default, factory), ...)
    _children: "dict[str, type[Struct]]" = {}  # attr -> class of a struct or array-of-struct field
    _name = "Struct"

    def __init__(self, **kwargs):
        for attr, default, factory in self._fields:
            value = kwargs.pop(attr, _MISSING)
            if value is _MISSING:
                value = factory() if factory is not None else default
            object.__setattr__(self, attr, value)
        if kwargs:
            raise TypeError(f"{self._name}: unknown field(s) {', '.join(sorted(kwargs))}")
        self._tags = None
        self._unknown = None

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        for attr, _, _ in self._fields:
            a = getattr(self, attr)
            b = getattr(other, attr)
            if a is b:
                continue
            if isinstance(a, memoryview) or isinstance(b, memoryview):
                if a is None or b is None or bytes(a) != bytes(b):
                    return False
            elif a != b:
                return False
        return (self._unknown or None) == (other._unknown or None)

    __hash__ = None  # type: ignore[assignment]  # mutable: unhashable, as a dataclass with eq

    def __repr__(self):
        parts = []
        for attr, _, _ in self._fields:
            v = getattr(self, attr)
            if isinstance(v, memoryview):
                v = f"<{v.nbytes} bytes>"
                parts.append(f"{attr}={v}")
            else:
                parts.append(f"{attr}={v!r}")
        return f"{self._name}({', '.join(parts)})"

    def to_dict(self):
        out = {}
        for attr, _, _ in self._fields:
            out[attr] = _to_plain(getattr(self, attr))
        return out

    @classmethod
    def from_dict(cls, data):
        kwargs = {}
        for key, value in data.items():
            child = cls._children.get(key)
            if child is not None and value is not None:
                if isinstance(value, dict):
                    value = child.from_dict(value)
                elif isinstance(value, list):
                    value = [child.from_dict(v) if isinstance(v, dict) else v for v in value]
            kwargs[key] = value
        return cls(**kwargs)


def _to_plain(v):
    if isinstance(v, Struct):
        return v.to_dict()
    if isinstance(v, list):
        return [_to_plain(x) for x in v]
    if isinstance(v, memoryview):
        return bytes(v)
    return v


# ---------------------------------------------------------------- classes


def _uuid_default(text):
    import base64  # here: only test specs have uuid defaults, so most programs never need it

    # Kafka writes uuid defaults as URL-safe base64 without padding
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return _uuid.UUID(bytes=raw) if len(raw) == 16 else ZERO_UUID


def _field_default(ftype, default, nullable_any, cls_of):
    """(comparison default, factory) for a field of this type."""
    if default is None:
        return None, None
    if ftype.startswith("[]"):
        return [], list
    if ftype in PRIMITIVES:
        if default is not Ellipsis:
            if ftype == "uuid":
                return _uuid_default(default), None
            return default, None
        kind = PRIMITIVES[ftype]
        if kind in (INT8, INT16, INT32, INT64, UINT16, UINT32):
            return 0, None
        if kind == FLOAT64:
            return 0.0, None
        if kind == BOOL:
            return False, None
        if kind == UUID:
            return ZERO_UUID, None
        if kind == STRING:
            return "", None
        if kind == BYTES:
            return b"", None
        return (None if nullable_any else b""), None
    cls = cls_of(ftype)
    return cls(), cls


class _OnFirstUse:
    """A MessageSpec attribute that ``make(spec)`` sets when it is first read.  A non-data
    descriptor: once set, the instance's own value shadows it, so reading it costs what reading
    any attribute does (a ``__getattr__`` on the class would slow every attribute read)."""

    def __init__(self, make):
        self.make = make

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, spec, owner=None):
        if spec is None:
            return self
        self.make(spec)
        return spec.__dict__[self.name]


class MessageSpec:
    """Everything about one message (or header/data record) across its versions.

    ``variants`` (its field lists; given, or taken from ``_schema`` by name), ``versions``,
    ``cls`` (the message class) and ``classes`` (it and its nested structs, by struct name) are
    made when first read.
    """

    name: str
    api_key: int | None
    kind: str
    runs: tuple[tuple[int, int], ...]  # (min_version, max_version) of each variant
    min_version: int
    max_version: int

    def __init__(self, name: str, api_key: int | None, kind: str, variants: tuple | None = None,
                 runs: tuple[tuple[int, int], ...] | None = None) -> None:
        self.name = name
        self.api_key = api_key
        self.kind = kind
        if variants is not None:
            self.variants = variants
            runs = tuple((v.min_version, v.max_version) for v in variants)
        self.runs = runs
        self.min_version = runs[0][0]
        self.max_version = runs[-1][1]
        self._plans = {}

    def _make_versions(self):
        self.versions = frozenset(v for lo, hi in self.runs for v in range(lo, hi + 1))

    def _make_variants(self):
        from kafkacodec.protocol import _schema
        self.variants = _schema.MESSAGES[self.name].variants  # equal tables, whichever thread sets them

    def _make_classes(self):
        with _build_lock:  # one class per struct, whichever thread asks first
            if "cls" not in self.__dict__:
                self._build_classes()

    versions = _OnFirstUse(_make_versions)
    variants = _OnFirstUse(_make_variants)
    cls = _OnFirstUse(_make_classes)
    classes = _OnFirstUse(_make_classes)

    def variant(self, version):
        """The ``_schema.Variant`` holding this version."""
        for variant in self.variants:
            if variant.min_version <= version <= variant.max_version:
                return variant
        raise UnsupportedVersionError(f"{self.name} has no version {version} "
                                      f"(supported: {self.min_version}-{self.max_version})")

    def is_flexible(self, version):
        return _in(self.variant(version).flexible_versions, version)

    def _build_classes(self):
        # struct name -> ordered {attr: _schema.Field (newest variant wins)}
        layouts = {self.name: {}}
        order = [self.name]

        def collect(sname, fields):
            layout = layouts[sname]
            for f in fields:
                attr = snake(f.name)
                layout[attr] = f
                if f.fields is not None:
                    child = f.type[2:] if f.type.startswith("[]") else f.type
                    if child not in layouts:
                        layouts[child] = {}
                        order.append(child)
                    collect(child, f.fields)

        for variant in self.variants:
            collect(self.name, variant.fields)
        classes = {}

        def make(sname):
            # children first, so struct defaults can instantiate them
            if sname in classes:
                return classes[sname]
            layout = layouts[sname]
            fields = []
            children = {}
            for attr, f in layout.items():
                elem = f.type[2:] if f.type.startswith("[]") else f.type
                if f.fields is not None:
                    children[attr] = make(elem)
                default, factory = _field_default(f.type, f.default, f.nullable_versions is not None,
                                                  classes.__getitem__)
                if factory is not None and factory is not list:
                    default = None  # struct: compared through a fresh instance in plans
                fields.append((attr, default, factory))
            ns = {
                "__slots__": tuple(a for a, _, _ in fields),
                "_fields": tuple(fields),
                "_children": children,
                "_name": sname,
                "__qualname__": sname if sname == self.name else f"{self.name}.{sname}",
                "__module__": "kafkacodec.protocol.messages",
            }
            classes[sname] = type(sname, (Struct,), ns)
            return classes[sname]

        for sname in order:
            make(sname)
        cls = classes[self.name]
        cls.spec = self
        for sname, c in classes.items():
            if sname != self.name:
                setattr(cls, sname, c)
        self.classes = classes
        self.cls = cls  # last: its presence says the classes are complete

    def plan(self, version, impl):
        key = (version, impl.__name__)
        plan = self._plans.get(key)
        if plan is None:
            variant = self.variant(version)
            plan = _compile_struct(self.cls, variant.fields, version,
                                   _in(variant.flexible_versions, version), impl)
            from kafkacodec.protocol import _lenient  # the peers' exceptions, field by field
            _lenient.apply(self.name, plan)
            self._plans[key] = plan
        return plan


def _compile_value(ftype, f, version, flexible, cls, impl, attr, nullable, compact):
    # ftype is f.type, or its element type inside an array
    if ftype.startswith("[]"):
        elem_type = ftype[2:]
        elem = _compile_value(elem_type, f, version, flexible,
                              cls._children.get(attr) if cls is not None else None, impl,
                              None, False, compact)
        return impl.FieldOp(ARRAY, attr, nullable, compact, 1 if compact else 4, None, elem)
    kind = PRIMITIVES.get(ftype)
    if kind is not None:
        return impl.FieldOp(kind, attr, nullable, compact, _MIN_SIZE[kind][1 if compact else 0], None, None)
    child_cls = cls._children[attr] if attr is not None else cls
    sub = _compile_struct(child_cls, f.fields, version, flexible, impl)
    return impl.FieldOp(STRUCT, attr, nullable, compact, 1 if nullable else sub.min_size, sub, None)


def _compile_struct(cls, fields, version, flexible, impl):
    ops, tagged, absent = [], [], []
    seen = set()
    min_size = 1 if flexible else 0
    for f in fields:
        attr = snake(f.name)
        seen.add(attr)
        # a field's own flexible_versions (Ellipsis: none) overrides the message's
        compact = flexible and (f.flexible_versions is Ellipsis or _in(f.flexible_versions, version))
        nullable = _in(f.nullable_versions, version)
        present = _in(f.versions, version)
        if f.tag is not None:
            present = present and flexible and _in(f.tagged_versions, version)
        if not present:
            absent.append((attr, f.ignorable))
            continue
        if f.type.startswith("[]") and f.fields is not None:
            # arrays of structs: the element op compiles against the child class
            elem_cls = cls._children[attr]
            sub = _compile_struct(elem_cls, f.fields, version, flexible, impl)
            elem = impl.FieldOp(STRUCT, None, False, compact, max(sub.min_size, 1), sub, None)
            op = impl.FieldOp(ARRAY, attr, nullable, compact, 1 if compact else 4, None, elem)
        else:
            op = _compile_value(f.type, f, version, flexible, cls, impl, attr, nullable, compact)
        _set_default(op, cls, attr, f.ignorable)
        if f.tag is not None:
            op.tag = f.tag
            tagged.append(op)
        else:
            ops.append(op)
            min_size += op.min_size
    for attr, _d, _fct in cls._fields:
        if attr not in seen:
            absent.append((attr, False))
    absent_ops = []
    for attr, ignorable in absent:
        op = impl.FieldOp(ABSENT, attr, False, False, 0, None, None)
        _set_default(op, cls, attr, ignorable)
        absent_ops.append(op)
    tagged.sort(key=lambda o: o.tag)
    return impl.StructPlan(cls, tuple(ops), tuple(tagged), tuple(absent_ops), flexible, min_size)


def _set_default(op, cls, attr, ignorable):
    for a, default, factory in cls._fields:
        if a == attr:
            op.factory = factory
            op.default = factory() if factory is not None else default
            op.ignorable = ignorable
            return
    raise AssertionError(attr)


# ---------------------------------------------------------------- registry
# Filled from _schema by load(), on the first lookup that needs it.  The plain dicts are what
# framing reads (a hit costs a dict lookup; only a miss may mean "not loaded yet"); the public
# names are read-only views of them that load on first use.

_specs: dict[str, MessageSpec] = {}
_requests: dict[int, MessageSpec] = {}   # api key -> its request
_responses: dict[int, MessageSpec] = {}  # api key -> its response
_api_names: dict[str, int] = {}          # "Metadata" -> 3
_load_lock = threading.Lock()
_build_lock = threading.Lock()


def loaded():
    return bool(_specs)


def load():
    """Fill the registry from the generated schema (once; later calls return at once)."""
    if _specs:
        return
    with _load_lock:
        if _specs:
            return
        from kafkacodec.protocol import _schema
        specs = {}
        for name, (api_key, kind, runs) in _schema.INDEX.items():
            spec = MessageSpec(name, api_key, kind, runs=runs)
            specs[name] = spec
            if kind == "request":
                _requests[api_key] = spec
            elif kind == "response":
                _responses[api_key] = spec
        _api_names.update((spec.name[:-len("Request")], key) for key, spec in _requests.items())
        _specs.update(specs)  # last: a non-empty _specs says the rest is filled


class _Registry(Mapping):
    """A read-only view of one registry dict that loads the schema when first used."""

    __slots__ = ("_data",)

    def __init__(self, data):
        self._data = data

    def __getitem__(self, key):
        try:
            return self._data[key]
        except KeyError:
            if _specs:
                raise
        load()
        return self._data[key]

    def __contains__(self, key):
        if key in self._data:
            return True
        load()
        return key in self._data

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __iter__(self):
        load()
        return iter(self._data)

    def __len__(self):
        load()
        return len(self._data)

    def __repr__(self):
        load()
        return repr(self._data)


SPECS: Mapping[str, MessageSpec] = _Registry(_specs)
REQUESTS: Mapping[int, MessageSpec] = _Registry(_requests)
RESPONSES: Mapping[int, MessageSpec] = _Registry(_responses)
API_NAMES: Mapping[str, int] = _Registry(_api_names)
