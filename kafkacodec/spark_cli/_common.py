"""What both ``kafkacodec-spark`` commands share: OUT handling (check,
marker, commit, rollback), the Spark session, the demo check's outcome,
the one-line errors and their exit status."""
from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import shutil
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import argparse

    from pyspark.sql import SparkSession

__all__ = ["MARKER", "CommandError", "Output", "human", "snapshot", "changed", "job_failed", "codec_error_line",
           "spark_session", "demo_checked"]

MARKER = "_KAFKACODEC"  # Spark and Parquet readers skip names starting with "_"

# what snapshot() records of a path: kind ("d" or "f"), inode, size, mtime in ns
Identity = tuple[str, int, int, int]


def human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def rate(count: int, seconds: float) -> float | None:
    """Per second, whole above 100 and to a tenth below (a small topic read in seconds is not 0/s)."""
    if not seconds:
        return None
    per_second = count / seconds
    return round(per_second) if per_second >= 100 else round(per_second, 1)


def format_rate(per_second: float | None) -> str:
    return "n/a" if per_second is None else f"{per_second:,}"


def plural(n: int, singular: str, many: str | None = None) -> str:
    return f"{n:,} {singular if n == 1 else (many or singular + 's')}"


class CommandError(Exception):
    """A one-line reason the command stops, and its exit status (2: the
    input or OUT is not acceptable; 1: the data or the job failed)."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(message)
        self.status = status


def snapshot(root: str) -> dict[str, Identity]:
    """Every file and directory under ``root`` (relative path -> identity:
    inode, size, mtime), without following links."""
    out: dict[str, Identity] = {}
    for base, dirs, files in os.walk(root):
        for name in dirs + files:
            full = os.path.join(base, name)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            kind = "d" if name in dirs and not os.path.islink(full) else "f"
            out[os.path.relpath(full, root)] = (kind, st.st_ino, st.st_size, st.st_mtime_ns)
    return out


def changed(before: dict[str, Identity], after: dict[str, Identity]) -> list[str]:
    """Files in ``after`` that are new or rewritten since ``before``."""
    return sorted(rel for rel, ident in after.items() if ident[0] == "f" and before.get(rel) != ident)


class Output:
    """OUT as this run found it, so that the run writes only where it may and
    a failure removes what the run wrote, nothing else."""

    def __init__(self, path: str, mode: str, *, writer: str, fresh: bool = False):
        self.path = os.path.abspath(os.path.expanduser(path))
        self.mode = mode
        self.writer = writer  # the command whose earlier output append/overwrite accept
        self.created: list[str] = [self.path] if fresh else []  # directories this run made, outermost first
        self.before: dict[str, Identity] = {}
        self.old_marker: bytes | None = None
        self.old_files: list[str] = []
        self._armed = False  # set once check() has taken the snapshot rollback() compares with

    def check(self, logdir: str | None) -> None:
        """Refuse an OUT the run could damage; no side effects."""
        p = self.path
        if logdir is not None:
            real_out, real_log = os.path.realpath(p), os.path.realpath(logdir)
            if real_out == real_log:
                raise CommandError(f"OUT is LOGDIR ({real_log}): writing there would replace the input")
            if os.path.commonpath([real_out, real_log]) == real_log:
                raise CommandError(f"OUT {p} is inside LOGDIR {real_log}: the output would mix with the input")
            if os.path.commonpath([real_out, real_log]) == real_out:
                raise CommandError(f"OUT {p} contains LOGDIR {real_log}: writing there could replace the input")
        if os.path.lexists(p) and not os.path.isdir(p):
            raise CommandError(f"OUT exists and is not a directory: {p}")
        if not os.path.isdir(p):
            self._armed = True
            return
        self.before = snapshot(p)
        if not self.before or self.created:
            self._armed = True
            return
        marker = os.path.join(p, MARKER)
        written = None
        if os.path.isfile(marker):
            with open(marker, "rb") as f:
                self.old_marker = f.read()
            try:
                written = json.loads(self.old_marker)
                if not isinstance(written, dict) or written.get("written_by") != self.writer:
                    written = None
            except ValueError:
                written = None
        command = self.writer.rsplit(" ", 1)[-1]
        if self.mode == "errorifexists":
            hint = ("--mode overwrite replaces an earlier convert's output there" if command == "convert"
                    else f"--mode append continues an earlier {command}'s query from its checkpoint there")
            raise CommandError(f"OUT is not empty: {p} ({command} writes into a new or empty directory; {hint})")
        if written is None:
            verb = "append to" if self.mode == "append" else self.mode
            raise CommandError(f"refusing to {verb} {p}: it is not empty and has no {MARKER} file of "
                               f"{self.writer}, so it is not {command}'s output")
        self.old_files = [str(f) for f in written.get("files", [])]
        if self.mode == "overwrite":
            listed = set(self.old_files) | {MARKER}
            foreign = sorted(rel for rel, ident in self.before.items() if ident[0] == "f" and rel not in listed)
            if foreign:
                raise CommandError(f"refusing to overwrite {p}: {len(foreign)} files there were not written by "
                                   f"convert (such as {foreign[0]}); remove them or choose another OUT")
        self._armed = True

    def prepare(self) -> None:
        """Create OUT (remembering what was created) and write the marker:
        proves OUT writable before Spark starts."""
        missing = []
        d = self.path
        while not os.path.lexists(d):
            missing.append(d)
            d = os.path.dirname(d)
        if not os.path.isdir(d):
            raise CommandError(f"cannot create {self.path}: {d} is not a directory")
        try:
            for m in reversed(missing):
                os.mkdir(m)
                if not self.created:
                    self.created.append(m)
            self.write_marker("writing", self.old_files)
        except OSError as exc:
            self.rollback()
            raise CommandError(f"cannot write to {self.path}: {exc.strerror or exc}") from None

    def write_marker(self, status: str, files: list[str], **extra: Any) -> None:
        import kafkacodec

        doc = {"written_by": self.writer, "kafkacodec": kafkacodec.__version__, "status": status,
               "written_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               **extra, "files": sorted(files)}
        tmp = os.path.join(self.path, f".{MARKER}.tmp")
        with open(tmp, "w") as f:
            json.dump(doc, f, indent=1)
        os.replace(tmp, os.path.join(self.path, MARKER))

    def commit(self, written: list[str], **extra: Any) -> list[str]:
        """After a successful write: overwrite removes the files the earlier
        run listed (and directories that leaves empty); the marker lists the
        output now in OUT.  Returns the files removed."""
        keep = set(written) - {MARKER}
        removed = []
        if self.mode == "overwrite":
            for rel in self.old_files:
                if rel in keep or rel == MARKER or os.path.isabs(rel) or ".." in rel.split(os.sep):
                    continue
                full = os.path.join(self.path, rel)
                if os.path.isfile(full) or os.path.islink(full):
                    os.unlink(full)
                    removed.append(rel)
                    parent = os.path.dirname(full)
                    while parent != self.path and not os.listdir(parent):
                        os.rmdir(parent)
                        parent = os.path.dirname(parent)
        elif self.mode == "append":
            keep |= {rel for rel in self.old_files if os.path.isfile(os.path.join(self.path, rel))}
        self.write_marker("complete", sorted(keep), **extra)
        return removed

    def rollback(self) -> None:
        """Remove what this run wrote to OUT and put the earlier marker back."""
        if self.created:
            shutil.rmtree(self.created[0], ignore_errors=True)
            return
        if not self._armed or not os.path.isdir(self.path):
            return  # refused or never checked: nothing here is this run's
        now = snapshot(self.path)
        for rel in sorted(set(now) - set(self.before), key=lambda r: r.count(os.sep), reverse=True):
            full = os.path.join(self.path, rel)
            try:
                if now[rel][0] == "d":
                    shutil.rmtree(full, ignore_errors=True)
                else:
                    os.unlink(full)
            except OSError:
                pass
        marker = os.path.join(self.path, MARKER)
        if self.old_marker is not None:
            with open(marker, "wb") as f:
                f.write(self.old_marker)


# Lines like "kafkacodec.errors.CrcMismatchError: <message>" in the text of a
# failed Spark job (the Python worker's traceback travels inside the Java exception).
def _error_names() -> list[str]:
    import kafkacodec.errors as errors

    return sorted(set(errors.__all__) | {"KafkaLogError"}, key=len, reverse=True)


def codec_error_line(exc: BaseException | None) -> str | None:
    """The kafkacodec error a failed Spark job carries, as one line."""
    pattern = re.compile(r"^\s*(?:[\w.]*\.)?(" + "|".join(_error_names()) + r"): (.+)$")
    texts = []
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        texts.append(str(exc))
        java = getattr(exc, "java_exception", None)
        if java is not None:
            with contextlib.suppress(Exception):
                texts.append(str(java.toString()))
        exc = exc.__cause__ or exc.__context__
    for text in texts:
        for line in text.splitlines():
            m = pattern.match(line)
            if m:
                return f"{m.group(1)}: {m.group(2).strip()}"
    return None


def spark_session(args: argparse.Namespace, app_name: str, log: TextIO) -> tuple[SparkSession, bool]:
    """The session a command runs its job in, and whether the command started it (and
    so stops it): inside a running application (a notebook, tests) that one, left running."""
    from pyspark.sql import SparkSession

    from kafkacodec.spark.session import local_session

    own_session = SparkSession.getActiveSession() is None
    if own_session:
        log.write(f"starting Spark ({args.master})\n")
        log.flush()
    # a failed job is reported once, as one line; Spark would log each task's traces
    spark = local_session(args.master, app_name=app_name, driver_memory=args.driver_memory, shuffle_partitions=4,
                          log_level="error" if args.verbose or not own_session else "off")
    return spark, own_session


def demo_checked(summary: dict[str, Any], key: str, problems: list[str], **counts: int) -> int:
    """A demo's check in ``summary``: under ``key`` "ok" or the problems it found, then the
    demo's ``counts``; returns the exit status it makes (1: the check failed)."""
    summary[key] = "ok" if not problems else problems
    summary.update(counts)
    return 1 if problems else 0


def job_failed(exc: BaseException, what: str, verbose: bool, log: TextIO) -> CommandError:
    """The one-line error (exit 1) for a failed Spark job or query: the kafkacodec
    error it carries if any, else its first line; the traces on `log` when verbose."""
    if verbose:
        import traceback

        traceback.print_exception(exc, file=log)
    line = codec_error_line(exc)
    if line is not None:
        return CommandError(line, 1)
    return CommandError(f"{what} failed: {_first_line(exc)}"
                        + ("" if verbose else " (--verbose shows the traces)"), 1)


def _first_line(exc: BaseException) -> str:
    for line in str(exc).splitlines():
        if line.strip():
            return f"{type(exc).__name__}: {line.strip()}"
    return type(exc).__name__
