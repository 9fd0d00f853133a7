"""The ``kafka-live`` source's and sink's value and key formats: options
``valueFormat`` / ``keyFormat`` (``binary``, ``avro``, ``json``),
``valueSchema`` / ``keySchema``, ``valueSubject`` / ``keySubject`` and
``schema.registry.*`` (confluent-kafka's Schema Registry settings:
``schema.registry.url``, ``schema.registry.basic.auth.user.info``,
``schema.registry.bearer.auth.*``, ``schema.registry.ssl.*``), parsed into
:class:`FormatOptions` and resolved into :mod:`kafkacodec.values` formats.

With a registry the values carry Confluent's header: the reader schema is
``valueSchema`` or the latest version of the subject (``valueSubject``,
default ``<topic>-value`` of the one topic read), fixed when the query is
planned; each schema id met is fetched once per worker and resolved to it.
The sink registers its schema under ``<topic>-value`` (as confluent-kafka's
serializers do by default) and writes the id it gets.  Without a registry
the values are plain Avro or JSON bodies of ``valueSchema``.

``valueSchema``: Avro schema JSON for ``avro``; for ``json`` a JSON Schema
document or Spark's JSON form of a StructType (``df.schema.json()``).
Without pyspark at import time."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Mapping

import pyarrow as pa

from kafkacodec.spark._live_options import LiveError
from kafkacodec.values import AvroFormat, JsonFormat, ValueFormat

__all__ = ["FormatOptions", "is_format_option", "parse_format_options", "read_formats", "planned", "topics_of",
           "spark_types", "sink_format", "FORMATS"]

FORMATS = ("binary", "avro", "json")
REGISTRY_PREFIX = "schema.registry."
_NAMES = {"valueformat": "value_format", "valueschema": "value_schema", "valuesubject": "value_subject",
          "keyformat": "key_format", "keyschema": "key_schema", "keysubject": "key_subject"}
_SPARK = {"value_format": "valueFormat", "value_schema": "valueSchema", "value_subject": "valueSubject",
          "key_format": "keyFormat", "key_schema": "keySchema", "key_subject": "keySubject"}


@dataclass(frozen=True)
class FormatOptions:
    value_format: str = "binary"
    value_schema: str | None = None
    value_subject: str | None = None
    key_format: str = "binary"
    key_schema: str | None = None
    key_subject: str | None = None
    registry: tuple[tuple[str, str], ...] = ()  # schema.registry.* settings, without the prefix

    @property
    def typed(self) -> bool:
        return self.value_format != "binary" or self.key_format != "binary"

    def registry_conf(self) -> dict[str, str]:
        return dict(self.registry)


def is_format_option(lower: str) -> bool:
    """Whether an option (its lower-case name) is one of the formats'."""
    return lower in _NAMES or lower.startswith(REGISTRY_PREFIX)


def parse_format_options(options: Mapping[str, str]) -> FormatOptions:
    """The format options of ``options`` (names as given; others are not looked at), each bad one a
    LiveError naming it."""
    out: dict[str, Any] = {}
    registry: dict[str, str] = {}
    for name, value in options.items():
        lower = name.lower()
        if lower.startswith(REGISTRY_PREFIX):
            registry[name[len(REGISTRY_PREFIX):]] = str(value)
        elif lower in _NAMES:
            out[_NAMES[lower]] = str(value).strip()
    for side in ("value", "key"):
        fmt = out.get(f"{side}_format", "binary").lower() or "binary"
        if fmt not in FORMATS:
            raise LiveError(f"option {side}Format must be one of {', '.join(FORMATS)}, not {fmt!r}")
        out[f"{side}_format"] = fmt
        if fmt == "binary":
            for extra in (f"{side}_schema", f"{side}_subject"):
                if out.get(extra):
                    raise LiveError(f"option {_SPARK[extra]} needs {side}Format avro or json")
        elif not out.get(f"{side}_schema") and not registry.get("url"):
            raise LiveError(f"{side}Format={fmt} needs option {side}Schema or schema.registry.url")
        if out.get(f"{side}_schema"):
            _check_schema(fmt, out[f"{side}_schema"], _SPARK[f"{side}_schema"])
    if registry and "url" not in registry:
        raise LiveError("schema.registry.* options need schema.registry.url")
    return FormatOptions(registry=tuple(sorted(registry.items())), **out)


def _check_schema(fmt: str, text: str, option: str) -> None:
    try:
        _format(fmt, text, confluent=False)
    except (ValueError, TypeError) as e:
        raise LiveError(f"option {option}: {e}") from None


def _format(fmt: str, text: str, *, confluent: bool, schema_id: int | None = None) -> ValueFormat:
    if fmt == "avro":
        return AvroFormat(text, confluent=confluent, schema_id=schema_id)
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise ValueError(f"not JSON: {e}") from None
    if isinstance(doc, dict) and doc.get("type") == "struct" and "fields" in doc:
        from pyspark.sql.pandas.types import to_arrow_type
        from pyspark.sql.types import StructType
        return JsonFormat(to_arrow_type(StructType.fromJson(doc), timezone="UTC"), confluent=confluent,
                          schema_id=schema_id)
    return JsonFormat(doc, confluent=confluent, schema_id=schema_id)


def _registry(fo: FormatOptions) -> Any:
    from kafkacodec.spark._values import registry_client
    return registry_client(fo.registry_conf())


def _subject(fo: FormatOptions, side: str, topics: tuple[str, ...] | None) -> str:
    subject = getattr(fo, f"{side}_subject")
    if subject:
        return str(subject)
    if not topics or len(topics) != 1:
        raise LiveError(f"{side}Format={getattr(fo, f'{side}_format')} with a Schema Registry and no {side}Schema "
                        f"reads the latest schema of subject <topic>-{side}: name one topic, or set {side}Subject")
    return f"{topics[0]}-{side}"


def topics_of(options: Mapping[str, str]) -> tuple[str, ...] | None:
    """The topics ``subscribe`` or ``assign`` names (None for a pattern, or when unreadable)."""
    for name, value in options.items():
        if name.lower() == "subscribe":
            return tuple(t.strip() for t in str(value).split(",") if t.strip())
        if name.lower() == "assign":
            try:
                return tuple(sorted(json.loads(value)))
            except (ValueError, TypeError):
                return None
    return None


def planned(fo: FormatOptions, topics: tuple[str, ...] | None) -> FormatOptions:
    """``fo`` with each reader schema fixed (the registry's latest where none is given), so every
    task of a query reads into the same columns; a LiveError when the registry has none."""
    if not fo.registry:
        return fo
    changes = {}
    for side in ("value", "key"):
        fmt = getattr(fo, f"{side}_format")
        if fmt == "binary" or getattr(fo, f"{side}_schema"):
            continue
        subject = _subject(fo, side, topics)
        try:
            latest = _registry(fo).get_latest_version(subject)
        except Exception as e:
            raise LiveError(f"{side}Format={fmt}: no schema for subject {subject!r} in the Schema Registry "
                            f"({fo.registry_conf().get('url')}): {e}") from None
        got = (getattr(latest.schema, "schema_type", None) or "AVRO").upper()
        if got != fmt.upper():
            raise LiveError(f"{side}Format={fmt}: subject {subject!r} holds a {got} schema")
        changes[f"{side}_schema"] = latest.schema.schema_str
        _check_schema(fmt, changes[f"{side}_schema"], f"{side}Schema (subject {subject})")
    return replace(fo, **changes)


def read_formats(fo: FormatOptions) -> tuple[ValueFormat | None, ValueFormat | None]:
    """(value format, key format) a task decodes with (None: binary); ``fo`` as :func:`planned` left it."""
    out: list[ValueFormat | None] = []
    registry = _registry(fo) if fo.registry else None
    for side in ("value", "key"):
        fmt, text = getattr(fo, f"{side}_format"), getattr(fo, f"{side}_schema")
        if fmt == "binary":
            out.append(None)
            continue
        f = _format(fmt, text, confluent=registry is not None)
        out.append(f.with_registry(registry) if registry is not None else f)
    return out[0], out[1]


def spark_types(fo: FormatOptions) -> tuple[Any, Any]:
    """Spark's (value type, key type) of the planned options."""
    from kafkacodec.spark._values import spark_value_type
    from pyspark.sql.types import BinaryType

    types: list[Any] = []
    for side in ("value", "key"):
        fmt, text = getattr(fo, f"{side}_format"), getattr(fo, f"{side}_schema")
        if fmt == "binary":
            types.append(BinaryType())
            continue
        try:
            types.append(spark_value_type(_format(fmt, text, confluent=False)))
        except ValueError as e:
            raise LiveError(f"option {side}Schema: {e}") from None
    return types[0], types[1]


def sink_format(fo: FormatOptions, side: str, topic: str, column_type: pa.DataType) -> ValueFormat | None:
    """The format a sink task writes ``side`` of ``topic`` with: with a registry, its schema
    registered under the subject (an id it already has is returned as it is) and that id written in
    Confluent's header."""
    fmt = getattr(fo, f"{side}_format")
    if fmt == "binary":
        return None
    text = getattr(fo, f"{side}_schema")
    schema_id = None
    if fo.registry:
        from kafkacodec.schema_registry import Schema

        registry = _registry(fo)
        subject = getattr(fo, f"{side}_subject") or f"{topic}-{side}"
        try:
            if not text:
                latest = registry.get_latest_version(subject)
                text, schema_id = latest.schema.schema_str, latest.schema_id
            else:
                schema_id = registry.register_schema(subject, Schema(text, fmt.upper()))
        except Exception as e:
            raise LiveError(f"{side}Format={fmt}: subject {subject!r} in the Schema Registry: {e}") from None
    if fmt == "json" and pa.types.is_struct(column_type):
        return JsonFormat(column_type, schema_id=schema_id)
    return _format(fmt, text, confluent=schema_id is not None, schema_id=schema_id)
