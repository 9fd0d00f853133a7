"""The registry's value types and its error, in the shapes confluent-kafka's client uses."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kafkacodec.errors import KafkaError


class SchemaRegistryError(KafkaError):
    """An answer of the Schema Registry that is not a success: the HTTP status, the registry's own
    error code (40401 subject not found, 40403 schema not found, 409 incompatible, ...) and its
    message.  ``-1`` stands for unknown (no answer at all, or one without a code)."""

    UNKNOWN = -1

    def __init__(self, http_status_code: int, error_code: int, error_message: str) -> None:
        super().__init__(error_message)
        self.http_status_code = http_status_code
        self.error_code = error_code
        self.error_message = error_message

    @property
    def retriable(self) -> bool:  # type: ignore[override]
        return self.http_status_code in RETRIABLE_STATUS or self.http_status_code == self.UNKNOWN

    def __repr__(self) -> str:
        return (f"SchemaRegistryError(http_status_code={self.http_status_code}, "
                f"error_code={self.error_code}, error_message={self.error_message!r})")

    def __str__(self) -> str:
        message = " ".join(str(self.error_message).split())     # one line, whatever the registry answered
        return f"{message} (HTTP status code {self.http_status_code}, SR code {self.error_code})"


# statuses after which the same request is tried again (after a backoff): timeouts, throttling, a
# registry that is restarting or behind a proxy that is
RETRIABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})


@dataclass
class SchemaReference:
    """A named reference from one schema to another subject's version."""

    name: str | None
    subject: str | None
    version: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "subject": self.subject, "version": self.version}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SchemaReference":
        return cls(d.get("name"), d.get("subject"), d.get("version"))


@dataclass
class Schema:
    """A schema as the registry holds it: its text, its type (``AVRO``, ``JSON`` or ``PROTOBUF``) and
    the references it names.  ``metadata`` and ``rule_set`` are carried as the registry's JSON."""

    schema_str: str | None
    schema_type: str | None = "AVRO"
    references: list[SchemaReference] = field(default_factory=list)
    metadata: Any = None
    rule_set: Any = None

    def __hash__(self) -> int:
        return hash((self.schema_str, self.schema_type or "AVRO",
                     tuple((r.name, r.subject, r.version) for r in self.references or ())))

    def to_dict(self) -> dict[str, Any]:
        """The request body the registry takes (``schemaType`` left out for Avro, as the registry's
        default)."""
        out: dict[str, Any] = {"schema": self.schema_str}
        if self.schema_type and self.schema_type != "AVRO":
            out["schemaType"] = self.schema_type
        if self.references:
            out["references"] = [r.to_dict() for r in self.references]
        if self.metadata is not None:
            out["metadata"] = _plain(self.metadata)
        if self.rule_set is not None:
            out["ruleSet"] = _plain(self.rule_set)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Schema":
        return cls(d.get("schema"), d.get("schemaType", "AVRO"),
                   [SchemaReference.from_dict(r) for r in d.get("references") or ()],
                   d.get("metadata"), d.get("ruleSet"))


def _plain(value: Any) -> Any:
    # confluent-kafka's Metadata/RuleSet objects have to_dict(); plain dicts pass as they are
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else value


@dataclass
class RegisteredSchema:
    """A schema registered under a subject: its id, the schema, the subject and version (and the
    schema's GUID where the registry gives one)."""

    schema_id: int | None
    schema: Schema
    subject: str | None
    version: int | None
    guid: str | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any], schema: Schema | None = None) -> "RegisteredSchema":
        return cls(d.get("id"), schema if schema is not None else Schema.from_dict(d), d.get("subject"),
                   d.get("version"), d.get("guid"))


@dataclass
class SchemaVersion:
    """A subject's version holding a schema (``get_schema_versions``)."""

    subject: str | None
    version: int | None


@dataclass
class ServerConfig:
    """A subject's (or the registry's) configuration: the compatibility level and the rest the registry
    answers, as its JSON."""

    compatibility: str | None = None
    normalize: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ServerConfig":
        extra = {k: v for k, v in d.items() if k not in ("compatibility", "compatibilityLevel", "normalize")}
        return cls(d.get("compatibilityLevel", d.get("compatibility")), d.get("normalize"), extra)

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.extra)
        if self.compatibility is not None:
            out["compatibility"] = self.compatibility
        if self.normalize is not None:
            out["normalize"] = self.normalize
        return out
