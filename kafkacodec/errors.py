"""Exceptions raised by kafkacodec.

One root, :class:`KafkaError`, with separate branches:

- :class:`KafkaCodecError` (also a :class:`ValueError`): data the library was
  given is wrong.  Corrupt or truncated bytes are :class:`CorruptDataError`
  and carry the byte offset in the input and a field path such as
  ``batches[3].records[17].key``; values that cannot be encoded are
  :class:`EncodeError`, with the same ``path``.
- :class:`KafkaConnectionError` (also a :class:`ConnectionError`) and
  :class:`KafkaTimeoutError` (also a :class:`TimeoutError`): I/O with a
  broker failed.  These are never ``ValueError``s.

``retriable`` says whether the same operation may succeed if tried again.
"""

from __future__ import annotations

__all__ = [
    "KafkaError",
    "KafkaConnectionError",
    "KafkaTimeoutError",
    "KafkaCodecError",
    "CorruptDataError",
    "TruncatedDataError",
    "CrcMismatchError",
    "DecompressionError",
    "DecompressionLimitError",
    "RecordLimitError",
    "UnsupportedCompressionError",
    "UnsupportedVersionError",
    "EncodeError",
    "BufferPoolTimeoutError",
    "FrameTooLargeError",
]


def _join_path(segment: str, path: str) -> str:
    # "topics" + "[3].name" -> "topics[3].name"; "topics" + "name" -> "topics.name"
    if not path:
        return segment
    return segment + path if path.startswith("[") else segment + "." + path


class KafkaError(Exception):
    """Root of every error kafkacodec raises."""

    retriable = False


class KafkaConnectionError(KafkaError, ConnectionError):
    """A broker could not be reached, or the connection broke while requests were in flight."""

    retriable = True


class KafkaTimeoutError(KafkaError, TimeoutError):
    """A request or an operation did not finish before its deadline."""

    retriable = True


class KafkaCodecError(KafkaError, ValueError):
    """Root of every error kafkacodec raises about data it was given."""


class CorruptDataError(KafkaCodecError):
    """The input bytes do not form a valid Kafka structure.

    ``offset`` is the byte position in the input where decoding failed (or
    None when unknown) and ``path`` the field being decoded (``""`` at top level).
    """

    def __init__(self, reason: str, offset: int | None = None, path: str = ""):
        super().__init__(reason)
        self.reason = reason
        self.offset = offset
        self.path = path

    def prefix_path(self, segment: str) -> "CorruptDataError":
        """Prepend a path segment while the error propagates outwards.

        Decoders call this in their ``except`` clauses, so building the path
        costs nothing on the success path.
        """
        self.path = _join_path(segment, self.path)
        return self

    def shift_offset(self, base: int) -> "CorruptDataError":
        """Make the offset absolute when a sub-buffer was decoded separately."""
        if self.offset is not None:
            self.offset += base
        return self

    def __str__(self) -> str:
        parts = [self.reason]
        if self.offset is not None:
            parts.append(f"at byte {self.offset}")
        if self.path:
            parts.append(f"in `{self.path}`")
        return " ".join(parts)

    def __reduce__(self):
        return (type(self), (self.reason, self.offset, self.path))


class TruncatedDataError(CorruptDataError):
    """The input ended before the structure being decoded was complete."""


class CrcMismatchError(CorruptDataError):
    """A stored checksum does not match the bytes it covers."""


class DecompressionError(CorruptDataError):
    """A compressed payload could not be decompressed."""


class DecompressionLimitError(DecompressionError):
    """Decompressed output would exceed the configured size limit."""


class RecordLimitError(CorruptDataError):
    """A batch holds more records than the configured per-batch limit (a
    small compressed batch can otherwise make the decoder allocate without
    bound)."""


class UnsupportedCompressionError(KafkaCodecError):
    """The compression codec is unknown or its library is not installed."""


class UnsupportedVersionError(KafkaCodecError):
    """An API key, message version or record magic that is not supported."""


class EncodeError(KafkaCodecError):
    """A value cannot be encoded (out of range, wrong type, not in this version).

    ``path`` names the field being encoded, as in :class:`CorruptDataError`
    (``""`` at top level or when the encoder does not track fields).
    """

    def __init__(self, reason: str = "", path: str = ""):
        super().__init__(reason)
        self.reason = reason
        self.path = path

    def prefix_path(self, segment: str) -> "EncodeError":
        """Prepend a path segment while the error propagates outwards."""
        self.path = _join_path(segment, self.path)
        return self

    def __str__(self) -> str:
        return f"{self.reason} in `{self.path}`" if self.path else self.reason

    def __reduce__(self):
        return (type(self), (self.reason, self.path))


class FrameTooLargeError(CorruptDataError):
    """A size prefix claims more bytes than the configured maximum frame size."""


class BufferPoolTimeoutError(KafkaCodecError, TimeoutError):
    """A buffer pool could not satisfy an allocation within its timeout."""
