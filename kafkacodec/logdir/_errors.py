"""Errors of the log-directory layer and the statistics of a read."""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import NamedTuple

from kafkacodec.errors import CorruptDataError, KafkaCodecError

__all__ = ["LogDirError", "ReadStats", "TornTail", "corrupt", "locate_error", "ON_CORRUPTION", "log"]

log = logging.getLogger("kafkacodec.logdir")

ON_CORRUPTION = ("error", "skip")


class LogDirError(KafkaCodecError, OSError):
    """A file or directory of a log directory cannot be used: missing,
    unreadable, a symlink loop, a directory where a segment file should be.

    About the file system, not the bytes (those raise CorruptDataError); also
    an OSError so ``except OSError`` handlers keep working.  ``path`` names
    the entry.
    """

    def __init__(self, message: str, path: str | os.PathLike | None = None):
        text = message if path is None else f"{os.fspath(path)}: {message}"
        super().__init__(text)
        self.message = message
        self.path = None if path is None else os.fspath(path)

    def __str__(self) -> str:
        return self.args[0] if self.args else ""

    def __reduce__(self):
        return (type(self), (self.message, self.path))


class NotALogDirectoryError(LogDirError, NotADirectoryError):
    """The path given is not a directory."""


def os_error(exc: OSError, path, what: str = "") -> LogDirError:
    """One line naming the path for any OSError met while opening or reading it."""
    reason = exc.strerror or str(exc)
    return LogDirError(f"cannot read{' ' + what if what else ''} ({reason})", path)


def corrupt(file, reason: str, offset: int | None, field_path: str,
            cls: type = CorruptDataError) -> CorruptDataError:
    """A CorruptDataError whose message starts with the file it is about;
    ``offset`` is the byte position within that file."""
    exc = cls(f"{os.fspath(file)}: {reason}", offset, field_path)
    exc.file = os.fspath(file)
    return exc


def locate_error(exc: CorruptDataError, file, base: int = 0) -> CorruptDataError:
    """Make a decoder's error (offset relative to a buffer read from ``file``
    at byte ``base``) name the file and the byte position within it.

    Errors that already name a file are returned unchanged.
    """
    if getattr(exc, "file", None) is not None:
        return exc
    exc.shift_offset(base)
    exc.reason = f"{os.fspath(file)}: {exc.reason}"
    exc.args = (exc.reason,)
    exc.file = os.fspath(file)
    return exc


class TornTail(NamedTuple):
    """An incomplete batch ending a partition's active segment, left out of a
    read: ``bytes`` bytes from byte ``position`` of ``file``."""

    file: str
    position: int
    bytes: int

    def describe(self) -> str:
        return (f"{self.file}: left out an incomplete batch of {self.bytes} bytes at byte {self.position}, "
                f"the end of the active segment (a torn write; Kafka's log recovery truncates it too)")


@dataclass
class ReadStats:
    """What a read handed out and what it had to leave out.

    ``truncated_bytes``/``partial_batches``: an incomplete batch ending the
    active segment (a broker mid-append, or a crash), never an error; each
    one is in ``torn_tails`` (file, byte position, bytes) and logged as a
    warning on the ``kafkacodec.logdir`` logger.  ``skipped_*``: corrupt
    data left out with ``on_corruption="skip"``; ``errors`` holds the
    CorruptDataError of each skip (file, byte position, field).
    """

    batches: int = 0
    bytes: int = 0
    truncated_bytes: int = 0
    partial_batches: int = 0
    skipped_batches: int = 0
    skipped_bytes: int = 0
    errors: list = field(default_factory=list)
    torn_tails: list = field(default_factory=list)

    def merge(self, other: "ReadStats") -> "ReadStats":
        self.batches += other.batches
        self.bytes += other.bytes
        self.truncated_bytes += other.truncated_bytes
        self.partial_batches += other.partial_batches
        self.skipped_batches += other.skipped_batches
        self.skipped_bytes += other.skipped_bytes
        self.errors.extend(other.errors)
        self.torn_tails.extend(other.torn_tails)
        return self

    def add_torn_tail(self, tail: TornTail) -> None:
        """Count an incomplete batch left out at the end of the active
        segment, and say so in the log, as Kafka's log recovery does."""
        self.partial_batches += 1
        self.truncated_bytes += tail.bytes
        self.torn_tails.append(tail)
        log.warning("%s", tail.describe())


def check_on_corruption(value: str) -> str:
    if value not in ON_CORRUPTION:
        raise ValueError(f"on_corruption must be 'error' or 'skip', not {value!r}")
    return value
