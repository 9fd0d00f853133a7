"""confluent-kafka 2.16's public API against the face's, name by name.

Every public name of ``confluent_kafka``, ``confluent_kafka.aio``, ``confluent_kafka.serialization``
and ``confluent_kafka.error`` must exist in the face with the same kind (class, function, module,
constant and its value), the same class relations (bases, Enum members, Generic parameters,
async construction) and, for each public method, a signature accepting every call confluent-kafka's
accepts (the same positional order and keywords, nothing more required, the same literal defaults)
and as a coroutine function exactly where confluent-kafka's is one.  Methods written in C have no
signature at run time: theirs are read from confluent-kafka's own stub, ``cimpl.pyi``.  The asyncio
clients' methods that pass ``*args, **kwargs`` on to the blocking client are held to that client's
signature.

What the face lacks is listed in KNOWN_GAPS with the reason; the test fails when that list is
wrong either way (a gap appears, or one listed is gone)."""
from __future__ import annotations

import ast
import enum
import importlib
import importlib.util
import inspect
import json
import os
import pathlib
import subprocess
import sys
import typing

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")
import confluent_kafka.aio  # noqa: E402
import confluent_kafka.error  # noqa: E402
import confluent_kafka.serialization  # noqa: E402

from kafkacodec.compat import confluent_kafka as ck  # noqa: E402

FACE = "kafkacodec.compat.confluent_kafka"

# name -> why the face does not have it (or has it otherwise)
KNOWN_GAPS = {
    "confluent_kafka.kafkatest":
        "confluent-kafka's Kafka system-test programs (verifiable producer and consumer), not an API",
}
# modules of confluent-kafka outside the compared ones that the face does not have (confluent_kafka.schema_registry
# is compared by test_face_schema_registry.py)
KNOWN_MISSING_MODULES = {
    "confluent_kafka.avro": "the legacy Avro producer and consumer over the schema registry: with the values issue",
}

MODULES = ["confluent_kafka", "confluent_kafka.aio", "confluent_kafka.serialization", "confluent_kafka.error"]

# protocol methods a program uses through syntax (with, async with, len(), iteration, calls)
PROTOCOL = ("__enter__", "__exit__", "__aenter__", "__aexit__", "__len__", "__bool__", "__iter__",
            "__getitem__", "__call__")
# the asyncio clients' blocking twins, for the methods that pass *args, **kwargs on
SYNC_TWIN = {"AIOProducer": "Producer", "AIOConsumer": "Consumer"}

EMPTY = inspect.Parameter.empty
POS = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
KW = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
VAR = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
NOT_LITERAL = object()


def face_name(ref_name: str) -> str:
    return FACE + ref_name[len("confluent_kafka"):]


# -- confluent-kafka's stub of its C extension


def _stub_params(fn: ast.FunctionDef) -> list[inspect.Parameter]:
    a = fn.args
    out = []

    def default(node):
        try:
            return ast.literal_eval(node)
        except ValueError:
            return NOT_LITERAL

    positional = a.posonlyargs + a.args
    defaults = [EMPTY] * (len(positional) - len(a.defaults)) + [default(d) for d in a.defaults]
    for i, (arg, d) in enumerate(zip(positional, defaults)):
        kind = inspect.Parameter.POSITIONAL_ONLY if i < len(a.posonlyargs) else inspect.Parameter.POSITIONAL_OR_KEYWORD
        out.append(inspect.Parameter(arg.arg, kind, default=d))
    if a.vararg:
        out.append(inspect.Parameter(a.vararg.arg, inspect.Parameter.VAR_POSITIONAL))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append(inspect.Parameter(arg.arg, inspect.Parameter.KEYWORD_ONLY,
                                     default=EMPTY if d is None else default(d)))
    if a.kwarg:
        out.append(inspect.Parameter(a.kwarg.arg, inspect.Parameter.VAR_KEYWORD))
    return out[1:] if out and out[0].name == "self" else out


# where cimpl.pyi says otherwise than the C code does (test_stub_corrections_are_what_confluent_kafka_does)
STUB_CORRECTIONS = {
    ("KafkaError", "__init__"): "def f(error, reason=None, fatal=False, retriable=False, txn_requires_abort=False): ...",
}


def _read_stub() -> tuple[dict[str, dict[str, list[list[inspect.Parameter]]]], dict[str, int]]:
    """({class name or "": {function: [parameters of each overload]}}, {class: Generic arity}) from cimpl.pyi."""
    path = pathlib.Path(confluent_kafka.__file__).with_name("cimpl.pyi")
    tree = ast.parse(path.read_text())
    out: dict[str, dict[str, list[list[inspect.Parameter]]]] = {"": {}}
    generic: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out[""].setdefault(node.name, []).append(_stub_params(node))
        elif isinstance(node, ast.ClassDef):
            methods = out.setdefault(node.name, {})
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    methods.setdefault(item.name, []).append(_stub_params(item))
            for base in node.bases:
                if isinstance(base, ast.Subscript) and getattr(base.value, "id", None) == "Generic":
                    args = base.slice
                    generic[node.name] = len(args.elts) if isinstance(args, ast.Tuple) else 1
    for (cls, name), text in STUB_CORRECTIONS.items():
        out[cls][name] = [_stub_params(ast.parse(text).body[0])]
    return out, generic


STUB, STUB_GENERIC = _read_stub()


def _signatures(owner: type | None, name: str, obj) -> list[list[inspect.Parameter]] | None:
    """Each overload's parameters (self left out), from the object or from the stub."""
    fn = obj.__func__ if isinstance(obj, (staticmethod, classmethod)) else obj
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = None
    if params is not None and not (owner is not None and params and params[0].kind is inspect.Parameter.POSITIONAL_ONLY
                                   and [p.kind for p in params] == [inspect.Parameter.POSITIONAL_ONLY, *VAR]):
        # (a C type's __init__ shows as (self, /, *args, **kwargs): the stub knows better)
        if owner is not None and not isinstance(obj, staticmethod) and params:
            params = params[1:]
        return [params]
    stub = STUB.get(owner.__name__ if owner is not None else "", {}).get(name)
    return stub


def _defining_class(cls: type, name: str) -> type | None:
    for klass in cls.__mro__:
        if name in vars(klass):
            return klass
    return None


def _inherited_from_language(klass: type) -> bool:
    return klass.__module__ in ("builtins", "enum", "typing", "abc") or klass is object


def _literal(value) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def compare_params(ref: list[inspect.Parameter], face: list[inspect.Parameter]) -> list[str]:
    """What stops the face's parameters from taking every call the reference's take."""
    out = []
    face_by_name = {p.name: p for p in face}
    face_pos = [p for p in face if p.kind in POS]
    face_star = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in face)
    face_starstar = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in face)
    for i, p in enumerate(p for p in ref if p.kind in POS):
        if i < len(face_pos):
            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and face_pos[i].name != p.name:
                out.append(f"argument {i + 1} is {face_pos[i].name!r}, not {p.name!r}")
        elif not face_star:
            out.append(f"no argument {i + 1} ({p.name!r})")
    for p in ref:
        if p.kind in KW:
            f = face_by_name.get(p.name)
            if (f is None or f.kind is inspect.Parameter.POSITIONAL_ONLY) and not face_starstar:
                out.append(f"no keyword {p.name!r}")
    ref_pos_names = [p.name for p in ref if p.kind in POS]
    required = {p.name for p in ref if p.default is EMPTY and p.kind not in VAR}
    for i, f in enumerate(face):
        if f.default is EMPTY and f.kind not in VAR and f.name not in required:
            # a positional-only reference parameter may be named otherwise
            if not (f.kind in POS and i < len(ref_pos_names) and ref_pos_names[i] in required):
                out.append(f"requires {f.name!r}")
    for kind, what in ((inspect.Parameter.VAR_POSITIONAL, "*args"), (inspect.Parameter.VAR_KEYWORD, "**kwargs")):
        if any(p.kind is kind for p in ref) and not any(p.kind is kind for p in face):
            out.append(f"takes no {what}")
    for p in ref:
        f = face_by_name.get(p.name)
        if (f is not None and p.default is not EMPTY and f.default is not EMPTY and _literal(p.default)
                and _literal(f.default) and (p.default != f.default or type(p.default) is bool) and
                not (p.default == f.default and type(p.default) is type(f.default))):
            out.append(f"{p.name}={f.default!r}, not {p.default!r}")
    return out


def _passes_through(params: list[inspect.Parameter]) -> bool:
    kinds = {p.kind for p in params}
    return inspect.Parameter.VAR_POSITIONAL in kinds and inspect.Parameter.VAR_KEYWORD in kinds


def _twin_signatures(ref_cls: type, name: str, own: list[inspect.Parameter]) -> list[list[inspect.Parameter]] | None:
    """An asyncio client's pass-through method held to the blocking client's: its own named
    parameters (with their defaults), then the blocking method's others."""
    for klass in ref_cls.__mro__:
        twin = SYNC_TWIN.get(klass.__name__)
        if twin is None:
            continue
        overloads = STUB.get(twin, {}).get(name)
        if overloads is None:
            return None
        named = [p for p in own if p.kind not in VAR]
        return [named + [p for p in params if p.name not in {q.name for q in named}] for params in overloads]
    return None


def compare_method(ref_cls: type, face_cls: type, name: str) -> list[str]:
    klass = _defining_class(ref_cls, name)
    ref_obj = vars(klass)[name]
    if not callable(getattr(ref_cls, name)):
        if not hasattr(face_cls, name):
            return ["missing"]
        value = getattr(ref_cls, name)
        if isinstance(value, int) and not isinstance(value, enum.Enum) and getattr(face_cls, name) != value:
            return [f"is {getattr(face_cls, name)!r}, not {value!r}"]
        return []
    face_klass = _defining_class(face_cls, name)
    if face_klass is None or _inherited_from_language(face_klass):
        return ["missing"]
    face_obj = vars(face_klass)[name]
    out = []
    fn = getattr(ref_obj, "__func__", ref_obj)
    face_fn = getattr(face_obj, "__func__", face_obj)
    if inspect.iscoroutinefunction(fn) != inspect.iscoroutinefunction(face_fn):
        out.append("a coroutine function" if inspect.iscoroutinefunction(fn) else "not a coroutine function")
    ref_sigs = _signatures(klass, name, ref_obj)
    face_sigs = _signatures(face_klass, name, face_obj)
    if ref_sigs is None:
        return out  # neither the object nor the stub says: presence is all there is to check
    assert face_sigs is not None, f"the face's {face_cls.__name__}.{name} has no signature"
    if len(ref_sigs) == 1 and _passes_through(ref_sigs[0]):
        twin = _twin_signatures(ref_cls, name, ref_sigs[0])
        if twin is not None:
            ref_sigs = twin
    for ref_params in ref_sigs:
        for problem in compare_params(ref_params, face_sigs[0]):
            if problem not in out:
                out.append(problem)
    return out


def _public_members(cls: type) -> list[str]:
    names = []
    for name in dir(cls):
        if name.startswith("_") and name not in PROTOCOL and name != "__init__":
            continue
        klass = _defining_class(cls, name)
        if klass is None or _inherited_from_language(klass):
            continue
        if name == "__init__" and issubclass(cls, BaseException) and _written_in_c(klass):
            continue
        names.append(name)
    return names


def _written_in_c(cls: type) -> bool:
    return cls.__module__.split(".")[-1] == "cimpl"


def _generic_arity(cls: type) -> int | None:
    if _written_in_c(cls):
        return STUB_GENERIC.get(cls.__name__)  # a C type: Generic in the stub only
    if typing.Generic not in cls.__mro__ and "__class_getitem__" not in vars(cls):
        return None  # a compiled class is generic by __class_getitem__ and __parameters__
    return len(getattr(cls, "__parameters__", ()))


def compare_class(ref_cls: type, face_cls: type, public: dict[str, tuple[object, object]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    own = []
    for base in ref_cls.__mro__[1:]:
        if base.__module__ in ("builtins", "enum") and base is not object and not issubclass(face_cls, base):
            own.append(f"not a subclass of {base.__name__}")
    for other, (ref_other, face_other) in public.items():
        if (isinstance(ref_other, type) and ref_other is not ref_cls and issubclass(ref_cls, ref_other)
                and isinstance(face_other, type) and not issubclass(face_cls, face_other)):
            own.append(f"not a subclass of {other}")
    if _generic_arity(ref_cls) != _generic_arity(face_cls):
        own.append(f"Generic over {_generic_arity(face_cls)} types, not {_generic_arity(ref_cls)}")
    if issubclass(ref_cls, enum.Enum) and issubclass(face_cls, enum.Enum):
        theirs = {m: v.value for m, v in ref_cls.__members__.items()}
        ours = {m: v.value for m, v in face_cls.__members__.items()}
        if theirs != ours:
            own.append(f"members {ours}, not {theirs}")
    ref_async_init = inspect.iscoroutinefunction(vars(ref_cls).get("__init__"))
    if ref_async_init and not inspect.iscoroutinefunction(getattr(face_cls, "__init__", None)):
        own.append("not constructed by await")
    if own:
        out[""] = own
    if issubclass(ref_cls, enum.Enum):
        return out
    for name in _public_members(ref_cls):
        problems = compare_method(ref_cls, face_cls, name)
        if problems:
            out["." + name] = problems
    return out


def _public_names(module) -> list[str]:
    """__all__, and the public classes and functions the module defines itself (ThrottleEvent)."""
    names = set(getattr(module, "__all__", ()))
    for name, obj in vars(module).items():
        if not name.startswith("_") and not inspect.ismodule(obj) and getattr(obj, "__module__", None) == module.__name__:
            names.add(name)
    if module.__name__ == "confluent_kafka.error":
        names |= {"KafkaError", "KafkaException"}  # imported there, and imported from there by programs
    return sorted(names)


def api_gaps() -> dict[str, list[str]]:
    """{qualified confluent-kafka name: what the face's differs in}."""
    gaps: dict[str, list[str]] = {}
    for modname in MODULES:
        ref_mod = importlib.import_module(modname)
        face_mod = importlib.import_module(face_name(modname))
        public = {}
        for name in _public_names(ref_mod):
            try:
                ref_obj = getattr(ref_mod, name)
            except AttributeError:  # a submodule named in __all__ and not imported yet
                ref_obj = importlib.import_module(f"{modname}.{name}")
            try:
                face_obj = getattr(face_mod, name)
            except AttributeError:
                gaps[f"{modname}.{name}"] = ["missing"]
                continue
            public[name] = (ref_obj, face_obj)
        for name, (ref_obj, face_obj) in public.items():
            key = f"{modname}.{name}"
            if inspect.ismodule(ref_obj):
                if not inspect.ismodule(face_obj):
                    gaps[key] = ["not a module"]
            elif inspect.isclass(ref_obj):
                if not inspect.isclass(face_obj):
                    gaps[key] = ["not a class"]
                    continue
                for member, problems in compare_class(ref_obj, face_obj, public).items():
                    gaps[key + member] = problems
            elif callable(ref_obj):
                if not callable(face_obj) or inspect.isclass(face_obj):
                    gaps[key] = ["not a function"]
                    continue
                problems = compare_method_free(name, ref_obj, face_obj)
                if problems:
                    gaps[key] = problems
            elif face_obj != ref_obj:
                gaps[key] = [f"is {face_obj!r}, not {ref_obj!r}"]
    return gaps


def compare_method_free(name: str, ref_fn, face_fn) -> list[str]:
    ref_sigs = _signatures(None, name, ref_fn)
    face_sigs = _signatures(None, name, face_fn)
    if ref_sigs is None:
        return []
    out = []
    for params in ref_sigs:
        out += [p for p in compare_params(params, face_sigs[0]) if p not in out]
    return out


def test_the_face_has_confluent_kafkas_api_but_the_known_gaps():
    gaps = api_gaps()
    report = "\n".join(f"  {name}: {'; '.join(problems)}" for name, problems in sorted(gaps.items()))
    unexplained = {name: problems for name, problems in gaps.items() if name not in KNOWN_GAPS}
    assert not unexplained, f"the face differs from confluent-kafka 2.16 in:\n{report}"
    stale = sorted(set(KNOWN_GAPS) - set(gaps))
    assert not stale, f"listed in KNOWN_GAPS but no longer a gap: {stale}"
    for modname in KNOWN_MISSING_MODULES:
        assert importlib.util.find_spec(modname) is not None  # confluent-kafka's own, so the entry means something
        assert importlib.util.find_spec(face_name(modname)) is None


def test_stub_corrections_are_what_confluent_kafka_does():
    assert confluent_kafka.KafkaError(error=3).code() == 3
    with pytest.raises(TypeError):
        confluent_kafka.KafkaError(code=3)


def test_the_comparison_catches_what_it_is_meant_to():
    """The checks above, on made-up differences: each one is reported."""
    P = inspect.Parameter

    def params(fn):
        return list(inspect.signature(fn).parameters.values())

    def ref(topic, value=None, key=None, partition=-1, *, flag=False): ...

    assert compare_params(params(ref), params(ref)) == []
    assert compare_params(params(ref), params(lambda topic, key=None, value=None, partition=-1, *, flag=False: 0)) \
        == ["argument 2 is 'key', not 'value'", "argument 3 is 'value', not 'key'"]
    assert compare_params(params(ref), params(lambda topic, value=None, key=None, partition=None, *, flag=False: 0)) \
        == ["partition=None, not -1"]
    assert compare_params(params(ref), params(lambda topic, value=None, key=None, partition=-1, *, flag=0: 0)) \
        == ["flag=0, not False"]
    assert compare_params(params(ref), params(lambda topic, value=None, key=None, partition=-1, *, extra, flag=False: 0)) \
        == ["requires 'extra'"]
    assert compare_params(params(ref), params(lambda topic, value=None, key=None: 0)) \
        == ["no argument 4 ('partition')", "no keyword 'partition'", "no keyword 'flag'"]
    assert compare_params(params(ref), params(lambda *args, **kwargs: 0)) == []
    assert compare_params([P("a", P.VAR_POSITIONAL)], params(lambda: 0)) == ["takes no *args"]

    class Ref:
        def __enter__(self): ...

        async def close(self, timeout=-1): ...

    class Face:
        def close(self, timeout=-1): ...

    assert compare_method(Ref, Face, "__enter__") == ["missing"]
    assert compare_method(Ref, Face, "close") == ["a coroutine function"]

    class RefError(RuntimeError): ...

    class FaceError(Exception): ...

    class RefSub(RefError): ...

    class FaceSub(Exception): ...

    assert compare_class(RefError, FaceError, {})[""] == ["not a subclass of RuntimeError"]
    assert "not a subclass of RefError" in compare_class(RefSub, FaceSub, {"RefError": (RefError, FaceError)})[""]
    assert compare_class(confluent_kafka.ElectionType, enum.Enum("ElectionType", {"PREFERRED": 0}), {})[""] \
        == ["members {'PREFERRED': 0}, not {'PREFERRED': 0, 'UNCLEAN': 1}"]


def test_importing_the_face_leaves_the_asyncio_and_serializing_parts_unloaded():
    """``import kafkacodec.compat.confluent_kafka`` loads neither asyncio nor the face's aio,
    serialization and error modules; naming them loads them (confluent-kafka's names all work)."""
    probe = f"""
import json, sys
import {FACE} as ck
before = sorted(m for m in sys.modules if m == "asyncio" or m.startswith("{FACE}."))
names = [ck.aio.AIOProducer, ck.serialization.StringSerializer, ck.SerializingProducer, ck.DeserializingConsumer,
         ck.error.ConsumeError, ck.murmur2]
from {FACE}.aio import AIOConsumer
after = sorted(m for m in sys.modules if m == "asyncio" or m.startswith("{FACE}."))
print(json.dumps([before, after]))
"""
    env = {k: v for k, v in os.environ.items() if k != "KAFKACODEC_PURE"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    before, after = json.loads(out.stdout.strip().splitlines()[-1])
    assert "asyncio" not in before
    assert not [m for m in before if m.rsplit(".", 1)[-1] in ("aio", "serialization", "error", "_serializing")]
    assert "asyncio" in after and f"{FACE}.aio" in after and f"{FACE}.serialization" in after


def test_partition_functions_are_confluent_kafkas():
    import random
    rng = random.Random(7)
    keys = [b"", b"a", b"hello", b"\xff" * 9] + [rng.randbytes(rng.randrange(0, 40)) for _ in range(3000)]
    for name in ("murmur2", "consistent", "fnv1a"):
        ours, theirs = getattr(ck, name), getattr(confluent_kafka, name)
        for count in (1, 3, 7, 64, 2**31 - 1):
            assert [ours(k, count) for k in keys] == [theirs(k, count) for k in keys], (name, count)
        for bad in ((None, 3), ("text", 3)):
            with pytest.raises(TypeError):
                theirs(*bad)
            with pytest.raises(TypeError):
                ours(*bad)
        with pytest.raises(ValueError):
            theirs(b"k", 0)
        with pytest.raises(ValueError, match="partition_count"):
            ours(b"k", 0)


def test_context_managers_close_and_credentials_reach_the_client():
    nowhere = {"bootstrap.servers": "127.0.0.1:9"}
    with ck.Producer(nowhere) as p:
        p.set_sasl_credentials("user", "secret")
        assert p._p.conf["sasl.username"] == "user" and p._p.conf["sasl.password"] == "secret"
    with pytest.raises(RuntimeError, match="closed"):
        p.produce("t", b"v")
    with ck.Consumer(dict(nowhere, **{"group.id": "g"})) as c:
        c.set_sasl_credentials("other", "word")
        assert c._c.conf["sasl.username"] == "other"
    with pytest.raises(RuntimeError, match="closed"):
        c.poll(0)


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "pure"])
def test_consumed_messages_read_their_record_and_setters_copy_it(compiled):
    """A consumer's Message (the compiled one is what the client decodes into, a Record subclass;
    the pure one wraps a Record) reads the record's fields, confluent-kafka's way (timestamp types
    1/2, headers a list or None); a setter copies them first and leaves the others as they were.
    Messages are themselves: equal only to themselves, a pickled one is a Message."""
    import gc
    import pickle

    from kafkacodec.compat.confluent_kafka import _types
    from kafkacodec.records import build_batches, decode_records

    import kafkacodec

    data = b"".join(build_batches([(7, b"k", b"v", [("h", b"x")]), (8, None, b"w")]))
    if compiled:
        if not kafkacodec.accelerated:
            pytest.skip("the compiled Message is a subclass of the compiled Record, not in use here")
        from kafkacodec.compat.confluent_kafka import _message
        Message, over = _message.Message, _message.messages_over
        records = decode_records(data, topic="t", partition=2, record_class=Message)
        assert over(records) is records  # already Messages
    else:
        # the pure twin, which _types' names are rebound from when the compiled one loads
        Message = _types._RecordMessage.__base__

        def over(rs):
            return list(map(Message._over_record, rs))
        records = decode_records(data, topic="t", partition=2)
    m, n = over(records)
    assert isinstance(m, Message) and (not compiled or not gc.is_tracked(m))
    assert (m.topic(), m.partition(), m.offset(), m.key(), m.value(), m.headers(), m.timestamp(), m.error(),
            len(m)) == ("t", 2, 0, b"k", b"v", [("h", b"x")], (1, 7), None, 1)
    assert (n.key(), n.headers(), n.offset()) == (None, None, 1)
    m.set_value({"decoded": True})
    assert gc.is_tracked(m)  # it may now hold anything
    assert (m.value(), m.key(), m.headers(), m.timestamp(), m.offset()) == \
        ({"decoded": True}, b"k", [("h", b"x")], (1, 7), 0)
    assert m == m and m != n and len({m, n}) == 2
    back = pickle.loads(pickle.dumps(n))
    assert isinstance(back, Message) and (back.topic(), back.offset(), back.value()) == ("t", 1, b"w")
    import weakref

    class Box:
        pass

    box = Box()
    box.message = n
    n.set_value(box)  # a consumed message in a cycle
    ref = weakref.ref(box)
    del box, n, records, back
    gc.collect()
    assert ref() is None  # is collected


def test_message_types_and_the_new_model_types():
    m = ck.Message("t", 1, 5, b"k", b"v", delivery_count=2)
    assert (m.delivery_count(), m.deserialized_key(), m.deserialized_value()) == (2, b"k", b"v")
    m.set_topic("u")
    m.set_error(ck.KafkaError(ck.KafkaError._PARTITION_EOF))
    assert m.topic() == "u" and m.error().code() == ck.KafkaError._PARTITION_EOF
    assert ck.Message[str, int] is not None  # generic, as the stub says
    e = ck.KafkaError(3)
    assert e <= 3 and e >= ck.KafkaError(3) and e > 2 and not e > 3 and e < 4
    assert str(ck.ThrottleEvent("b", 1, 0.5)) == str(confluent_kafka.ThrottleEvent("b", 1, 0.5))
    assert issubclass(ck.IllegalStateException, RuntimeError)
    assert [(x.name, x.value) for x in ck.ElectionType] == [(x.name, x.value) for x in confluent_kafka.ElectionType]
