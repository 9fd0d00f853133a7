"""What the snippet harnesses (test_*_doc_snippets.py) share: a project's verbatim snippets as
each package runs them, the original's or the face's (only the import lines differ), how a
snippet is run in this process, and the names of the snippets the tests ran (their last test
checks every snippet was run or skipped)."""
import ast
import asyncio
import contextlib
import importlib
import inspect
import io
import random
import re
import time
import traceback
import uuid


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


class Run:
    """A snippet's run: what it printed, its names, what it raised and on which line of the snippet
    (None: from the harness's own `after`), and whether the harness stopped it (an endless loop)."""

    def __init__(self, out, namespace, error, line, stopped):
        self.out, self.ns, self.error, self.line, self.stopped = out, namespace, error, line, stopped

    def outcome(self):
        return type(self.error).__name__ if self.error else None, self.line


class SnippetSet:
    """`snippets` {name: (source, code)} of the package `packages` names beside "face"."""

    def __init__(self, snippets, packages):
        self.snippets = snippets
        self.packages = packages
        self.original = next(module for impl, module in packages.items() if impl != "face")
        # `from <package> import ...`, `from <package>.<sub> import ...`: what a user switching changes
        self.import_line = re.compile(rf"^(\s*)from {re.escape(self.original)}(\.[\w.]+)? import", re.M)
        self.ran = set()

    def runs(self, *names):
        """A test's decorator: the snippets it runs."""
        self.ran.update(names)
        return lambda fn: fn

    def package(self, impl, sub=""):
        return importlib.import_module(self.packages[impl] + sub)

    def each(self, fn):
        """fn(impl) under the original and under the face."""
        return {impl: fn(impl) for impl in self.packages}

    def line_of(self, name, text):
        """The number of the snippet's line holding `text`."""
        return next(i for i, line in enumerate(self.snippets[name][1].splitlines(), 1) if text in line)

    def code(self, name, impl, replacements=()):
        """The snippet's code; for the face its import lines name the face instead, the only change
        besides `replacements` (old, new), each of which must occur in the snippet."""
        code = self.snippets[name][1]
        if impl == "face":
            face = self.packages["face"]
            changed = self.import_line.sub(lambda m: m.group(0).replace(self.original, face, 1), code)
            diff = [a for a, b in zip(code.splitlines(), changed.splitlines()) if a != b]
            assert all(self.import_line.match(line) for line in diff)
            code = changed
        for old, new in replacements:
            assert old in code, (name, old)
            code = code.replace(old, new)
        return code

    def run(self, name, impl, replacements=(), names=None, *, setup=None, after=None, stop_when=None, timeout=40,
            in_loop=False, shown=None):
        """Runs the snippet in this process, top-level ``await`` allowed, with `names` supplied (that dict
        is its globals): `setup(ns)` first, then the snippet, then `after(ns)`, also when the snippet
        raised. A snippet with ``await`` (or any, with `in_loop`: a fragment of a coroutine whose
        clients need a running loop) runs on an event loop, where `setup` and `after` are awaited.
        `stop_when(ns, printed)` is checked every 0.1 s: once true the snippet (an endless loop) is
        cancelled. With `shown` (a list), the values of its expression statements are appended to it,
        as an interactive session shows them (docstrings' examples are such lines)."""
        code = self.code(name, impl, replacements)
        namespace = {} if names is None else names
        namespace.setdefault("__name__", "__snippet__")  # not "__main__": a program's main guard stays shut
        filename = f"<{name}:{impl}>"
        tree = ast.parse(code, filename)
        if shown is not None:
            tree.body = [ast.Expr(ast.Call(ast.Attribute(ast.Name("__shown__", ast.Load()), "append", ast.Load()),
                                           [stmt.value], [])) if isinstance(stmt, ast.Expr) else stmt
                         for stmt in tree.body]
            ast.fix_missing_locations(tree)
            namespace.setdefault("__shown__", shown)
        compiled = compile(tree, filename, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        out = io.StringIO()
        error = None
        stopped = []
        random.seed(7)  # the snippets' random choices (partitions, values): the same under both
        with contextlib.redirect_stdout(out):
            try:
                is_coroutine = bool(compiled.co_flags & inspect.CO_COROUTINE)
                if is_coroutine or in_loop:
                    asyncio.run(self._on_loop(compiled, namespace, setup, after, stop_when, timeout, out, stopped,
                                              (name, impl)))
                else:
                    assert setup is None and stop_when is None, "setup and stop_when need an event loop"
                    try:
                        exec(compiled, namespace)
                    finally:
                        if after is not None:
                            after(namespace)
            except Exception as exc:  # the comparison is of what each raised
                error = exc
        lines = [] if error is None else [frame.lineno for frame in traceback.extract_tb(error.__traceback__)
                                          if frame.filename == filename]
        return Run(out.getvalue(), namespace, error, lines[-1] if lines else None, bool(stopped))

    @staticmethod
    async def _on_loop(compiled, namespace, setup, after, stop_when, timeout, out, stopped, which):
        async def body():
            if compiled.co_flags & inspect.CO_COROUTINE:
                await eval(compiled, namespace)
            else:
                exec(compiled, namespace)
        try:
            if setup is not None:
                await setup(namespace)
            task = asyncio.ensure_future(body())
            deadline = time.monotonic() + timeout
            while not task.done():
                if stop_when is not None and stop_when(namespace, out.getvalue()):
                    stopped.append(True)
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                    return
                assert time.monotonic() < deadline, (*which, out.getvalue())
                await asyncio.wait([task], timeout=0.1)
            await task
        finally:
            if after is not None:
                await after(namespace)
