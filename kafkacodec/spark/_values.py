"""Avro and JSON record values as typed Spark columns, and back, for any
PySpark job: ``decode_values`` / ``encode_values`` apply a
:mod:`kafkacodec.values` format to a DataFrame column with ``mapInArrow``
(so a job reading with Spark's own Kafka source gets struct columns too),
and the ``kafka-live`` source and sink use the same conversions.

Spark's form of the formats' Arrow types: Avro enums become strings, fixed
becomes binary, timestamps microseconds (local timestamps: TIMESTAMP_NTZ),
times TimeType; non-nullable unions of several types, Avro durations and
decimals over 38 digits have no Spark type and are refused when the
DataFrame is planned.
"""
from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

import pyarrow as pa

from kafkacodec.values import ValueFormat, as_format

if TYPE_CHECKING:
    from pyspark.sql import DataFrame
    from pyspark.sql.types import DataType, StructType

__all__ = ["decode_values", "encode_values", "spark_arrow_type", "spark_value_type", "to_spark_values",
           "registry_client", "with_registry"]


def spark_arrow_type(t: pa.DataType, path: str = "value") -> pa.DataType:
    """The Arrow type Spark takes for values of Arrow type ``t`` (a ValueError naming the path when none)."""
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(spark_arrow_type(f.type, f"{path}.{f.name}")) for f in t])
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(t.value_field.with_type(spark_arrow_type(t.value_type, f"{path}[]")))
    if pa.types.is_map(t):
        return pa.map_(spark_arrow_type(t.key_type, f"{path}{{}}"),
                       t.item_field.with_type(spark_arrow_type(t.item_type, f"{path}{{}}")))
    if pa.types.is_dictionary(t):
        return spark_arrow_type(t.value_type, path)
    if pa.types.is_fixed_size_binary(t) or pa.types.is_large_binary(t):
        return pa.binary()
    if pa.types.is_large_string(t):
        return pa.string()
    if pa.types.is_timestamp(t):
        return pa.timestamp("us", tz="UTC" if t.tz else None)
    if pa.types.is_time(t):
        return pa.time64("us")
    if pa.types.is_decimal(t) and t.precision > 38:
        raise ValueError(f"{path}: {t} has more digits than Spark's decimals (38)")
    if pa.types.is_union(t) or pa.types.is_interval(t):
        raise ValueError(f"{path}: {t} has no Spark type")
    return t


def spark_value_type(fmt: Any) -> DataType:
    """Spark's type of the column ``fmt`` (a kafkacodec.values format, or what ``as_format`` takes)
    decodes into."""
    from pyspark.sql.pandas.types import from_arrow_type

    f = as_format(fmt)
    if f is None:
        from pyspark.sql.types import BinaryType
        return BinaryType()
    return from_arrow_type(spark_arrow_type(f.arrow_type))


def to_spark_values(arr: pa.Array) -> pa.Array:
    """A decoded column in Spark's Arrow form (see :func:`spark_arrow_type`)."""
    target = spark_arrow_type(arr.type)
    return arr if arr.type.equals(target) else arr.cast(target)


def registry_client(conf: Mapping[str, Any]) -> Any:
    """A Schema Registry client for confluent-kafka's settings (``url``, ``basic.auth.user.info``, ...),
    one per process and settings: each caches the schemas it fetched."""
    return _registry(json.dumps(dict(conf), sort_keys=True))


@functools.lru_cache(maxsize=16)
def _registry(conf_key: str) -> Any:
    from kafkacodec.schema_registry import SchemaRegistryClient
    return SchemaRegistryClient(json.loads(conf_key))


def with_registry(fmt: ValueFormat | None, registry: Mapping[str, Any] | None) -> ValueFormat | None:
    """``fmt`` with a registry client made from ``registry`` (settings), where it has none."""
    if fmt is None or not registry or fmt.registry is not None:
        return fmt
    return fmt.with_registry(registry_client(registry))


def _replace(schema: StructType, column: str, dtype: DataType) -> StructType:
    from pyspark.sql.types import StructField, StructType

    if column not in schema.names:
        raise ValueError(f"no column {column!r} in {schema.simpleString()}")
    return StructType([StructField(f.name, dtype, True) if f.name == column else f for f in schema.fields])


def _column_fn(column: str, convert: Callable[[pa.Array], pa.Array]
               ) -> Callable[[Iterable[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    def fn(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            i = batch.schema.get_field_index(column)
            out = convert(batch.column(i))
            yield batch.set_column(i, pa.field(column, out.type), out)
    return fn


def decode_values(df: DataFrame, column: str = "value", fmt: Any = None, *,
                  registry: Mapping[str, Any] | None = None) -> DataFrame:
    """``df`` with its binary ``column`` decoded by ``fmt`` into a typed column (a struct for a
    record), through ``mapInArrow``: the other columns as they are.

    ``fmt``: ``kafkacodec.values.AvroFormat(schema, confluent=True)``, ``JsonFormat(arrow_schema)``,
    Avro schema text or dict, or a pyarrow Schema (JSON).  ``registry``: Schema Registry settings
    (confluent-kafka's keys, ``{"url": ...}``) the workers fetch writer schemas with.  A value that
    does not decode fails the task with a CorruptDataError naming the record (its Kafka offset when
    ``df`` has an ``offset`` column)."""
    f = as_format(fmt)
    if f is None:
        raise ValueError("decode_values needs a format")
    out_schema = _replace(df.schema, column, spark_value_type(f))
    has_offset = "offset" in df.schema.names and column != "offset"

    def fn(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        worker_fmt = with_registry(f, registry)
        assert worker_fmt is not None
        for batch in batches:
            i = batch.schema.get_field_index(column)
            offsets = batch.column(batch.schema.get_field_index("offset")) if has_offset else None
            out = to_spark_values(worker_fmt.decode(batch.column(i), offsets=offsets))
            yield batch.set_column(i, pa.field(column, out.type), out)

    return df.mapInArrow(fn, out_schema)


def encode_values(df: DataFrame, column: str = "value", fmt: Any = None) -> DataFrame:
    """``df`` with its struct ``column`` encoded by ``fmt`` into binary values, through
    ``mapInArrow`` (``AvroFormat(schema, schema_id=7)`` writes Confluent's header), ready for
    Spark's Kafka sink or kafka-live's."""
    from pyspark.sql.types import BinaryType

    f = as_format(fmt)
    if f is None:
        raise ValueError("encode_values needs a format")
    out_schema = _replace(df.schema, column, BinaryType())
    return df.mapInArrow(_column_fn(column, f.encode), out_schema)
