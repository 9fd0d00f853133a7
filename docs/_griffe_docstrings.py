"""Griffe extension for the API reference: docstrings as the reference shows them.

The docstrings are written as reStructuredText for ``help()`` and IDEs (````code````,
``:class:`Name```, a ``::`` before an indented example); the site is Markdown, so their inline
markup is turned into Markdown's here (code spans, examples as code blocks).

Compiled modules:
mkdocstrings reads a compiled module from its ``.pyi`` stub (``allow_inspection: false``), which
holds the types but few docstrings; the docstrings live in the ``.pyx`` sources and reach the
built module.  This fills each object the stub leaves without a docstring from the built module,
dropping the signature line Cython embeds (``embedsignature``): the stub's signature is shown.
"""
from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import griffe

# :class:`X`, :func:`~a.b.X`, ... and ``x``: a code span
_ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")
# "text::" before an indented block: the block is an example
_EXAMPLE = re.compile(r"::$", re.M)

# Cython's embedded signature: "name(args) -> ret" as the docstring's first paragraph
_EMBEDDED = re.compile(r"\A[\w.]+\(.*?\)(\s*->\s*[^\n]+)?\s*(\n\s*\n|\Z)", re.S)


def _runtime_object(path: str) -> Any:
    """The object ``path`` names in the built package, or None."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name, None)
            if obj is None:
                return None
        return obj
    return None


# a simple reStructuredText table: a border of "=" runs, rows, the same border
_BORDER = re.compile(r"^=+( +=+)+$")


def _tables(doc: str) -> str:
    lines, out, i = doc.split("\n"), [], 0
    while i < len(lines):
        border = lines[i].strip()
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == border), None)
        if not _BORDER.match(border) or end is None:
            out.append(lines[i])
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        starts = [m.start() + indent for m in re.finditer(r"=+", border)]
        out += ["", "| " + " | ".join(" " for _ in starts) + " |", "|" + " --- |" * len(starts)]
        for row in lines[i + 1:end]:
            cells = [row[a:b].strip() for a, b in zip(starts, [*starts[1:], None])]
            out.append("| " + " | ".join(c.replace("<", "&lt;").replace("|", "\\|") for c in cells) + " |")
        out.append("")
        i = end + 1
    return "\n".join(out)


def markdown(doc: str) -> str:
    doc = _tables(doc)
    doc = _ROLE.sub(lambda m: f"`{m.group(1)}`", doc)
    doc = _LITERAL.sub(lambda m: f"`{m.group(1)}`", doc)
    return _EXAMPLE.sub(":", doc)


def _words(text: str) -> str:
    return " ".join(text.split())


class Docstrings(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.is_alias:
            return
        self._from_compiled(obj)
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)

    @staticmethod
    def _from_compiled(obj: griffe.Object) -> None:
        """The built module's docstring where the stub has none, or only its first words."""
        filepath = obj.module.filepath
        if isinstance(filepath, list) or filepath.suffix != ".pyi" or obj.is_module:
            return
        if not filepath.with_suffix(".pyx").exists():  # a stub of a Cython module only
            return
        runtime = _runtime_object(obj.path)
        if runtime is None:
            return
        doc = inspect.getdoc(runtime)
        # what a slot wrapper or a plain value inherits says nothing about this object
        inherited = {inspect.getdoc(getattr(object, obj.name, None)), inspect.getdoc(type(runtime))}
        if not doc or doc in inherited:
            return
        doc = _EMBEDDED.sub("", doc, count=1).strip()
        stub = obj.docstring.value if obj.docstring is not None else ""
        if doc and _words(doc).startswith(_words(stub)):
            obj.docstring = griffe.Docstring(doc, parent=obj)
