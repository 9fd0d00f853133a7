"""What the snippet harnesses (test_*_doc_snippets.py) share: a project's verbatim snippets as
each package runs them, the original's or the face's (only the import lines differ), and the
names of the snippets the tests ran (their last test checks every snippet was run or skipped)."""
import importlib
import re


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
