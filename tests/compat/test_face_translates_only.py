"""The confluent-kafka face only translates: it reaches kafkacodec's client through public names.

Its source is read as Python syntax: no import of an underscore name of kafkacodec.client (or
of one of its private modules), and no attribute access or getattr() of a name that exists in the
client only as a private one (a method, attribute, function or class whose name starts with _).
A name the face defines itself (its own objects' attributes) is the face's business, unless it
is reached through another object (``self._c._x``), which is how the face holds the client's."""
import ast
import pathlib

import kafkacodec

PACKAGE = pathlib.Path(kafkacodec.__file__).parent
CLIENT = PACKAGE / "client"
FACE = PACKAGE / "compat" / "confluent_kafka"


def _private(name):
    return name.startswith("_") and not name.startswith("__")


def _defined_private_names(files):
    """Every private name a module defines: functions, classes, module names and attributes stored."""
    names = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = node.name
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                name = node.attr
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                name = node.id
            else:
                continue
            if _private(name):
                names.add(name)
    return names


def _face_files():
    # schema_registry is a package of its own over the registry client, not over kafkacodec.client
    return sorted(p for p in FACE.rglob("*.py") if "schema_registry" not in p.relative_to(FACE).parts)


def private_uses(source, filename, client_private, face_private):
    """(line, what) for each private name of the client the source reaches."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kafkacodec.client"):
            module_private = any(_private(part) for part in node.module.split("."))
            for alias in node.names:
                if module_private or _private(alias.name):
                    found.append((node.lineno, f"from {node.module} import {alias.name}"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("kafkacodec.client") and any(_private(p) for p in alias.name.split(".")):
                    found.append((node.lineno, f"import {alias.name}"))
        elif isinstance(node, ast.Attribute) and node.attr in client_private:
            owner = node.value
            own_object = isinstance(owner, ast.Name)  # self._x, message._x: the face's own objects
            if not own_object or (node.attr not in face_private and owner.id not in ("self", "cls")):
                found.append((node.lineno, f"{ast.unparse(owner)}.{node.attr}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "setattr",
                                                                                                  "hasattr")
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in client_private and node.args[1].value not in face_private):
            found.append((node.lineno, f"{node.func.id}(..., {node.args[1].value!r})"))
    return found


def test_the_scan_finds_what_it_looks_for():
    client_private = {"_serve_stats", "_fetcher", "_tp"}
    face_private = {"_fetcher"}
    snippet = ("from kafkacodec.client.consumer import _tp\n"
               "import kafkacodec.client._checks\n"
               "from kafkacodec.client import _checks\n"
               "self._c._serve_stats()\n"
               "consumer._serve_stats()\n"
               "getattr(c, '_serve_stats')\n"
               "self._c._fetcher\n"
               "self._fetcher\n"           # the face's own attribute of the same name
               "self._c.serve_stats()\n")
    found = sorted(line for line, _ in private_uses(snippet, "<snippet>", client_private, face_private))
    assert found == [1, 2, 3, 4, 5, 6, 7]


def test_the_face_uses_no_private_name_of_the_client():
    client_private = _defined_private_names(sorted(CLIENT.rglob("*.py")))
    assert "_fetcher" in client_private  # the scan sees the client's private names
    files = _face_files()
    assert len(files) > 10
    face_private = _defined_private_names(files)
    found = [f"{path.relative_to(PACKAGE)}:{line}: {what}"
             for path in files for line, what in private_uses(path.read_text(), str(path), client_private,
                                                              face_private)]
    assert found == [], "the face reaches private names of kafkacodec.client:\n" + "\n".join(found)
