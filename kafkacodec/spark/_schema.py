"""The columns of kafkacodec's Spark sources and functions, defined once.

Everything derives from :func:`kafkacodec.arrow.schema` (the codec's own
columns) by one rule, :func:`spark_arrow_schema`; Spark's ``StructType`` is
read off that Arrow schema, and :func:`to_spark_batch` is the one conversion
of the codec's batches into it:

- the sources, ``kafka-live`` and ``kafka-log`` (and so the ``pipeline`` and
  ``convert`` commands' Parquet): Spark's own Kafka source (its column order,
  the name ``timestampType``, every column nullable), so a job switches
  formats by name; ``kafka-log``'s optional batch columns follow them;
- the batch-decoding functions: the codec's columns, as Spark's Arrow form
  has them (timestamps in UTC microseconds, ``timestamp_type`` an int, list
  items named ``element``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc

from kafkacodec import arrow as ka

if TYPE_CHECKING:
    from pyspark.sql.types import StructType

__all__ = ["spark_arrow_schema", "spark_schema", "to_spark_batch", "TIMESTAMP"]

TIMESTAMP = pa.timestamp("us", tz="UTC")  # Spark's Arrow form of TimestampType
_LOCATION = (pa.field("topic", pa.string(), nullable=False), pa.field("partition", pa.int32(), nullable=False))
# Spark's Kafka source: column order and names (the codec's name -> Spark's)
_KAFKA_ORDER = ("key", "value", "topic", "partition", "offset", "timestamp", "timestamp_type", "headers")
_KAFKA_NAMES = {"timestamp_type": "timestampType"}


def _spark_field(f: pa.Field, nullable: bool | None) -> pa.Field:
    typ = f.type
    if f.name == "timestamp":
        typ = TIMESTAMP
    elif f.name == "timestamp_type":
        typ = pa.int32()  # Spark's Kafka source declares an IntegerType
    elif pa.types.is_list(typ):
        item = typ.value_type
        if nullable:
            item = pa.struct([pa.field(c.name, c.type) for c in item])
        typ = pa.list_(pa.field("element", item, nullable=bool(nullable)))
    return pa.field(f.name, typ, nullable=f.nullable if nullable is None else nullable)


def spark_arrow_schema(*, headers: bool = True, batch_columns: bool = False, location: bool = True,
                       kafka_source: bool = False) -> pa.Schema:
    """The Arrow schema Spark receives: the codec's columns (``batch_columns``
    adds producer id, epoch, sequence, leader epoch and the transactional
    flag), with ``topic`` and ``partition`` when ``location``; with
    ``kafka_source`` in the order, names and nullability of Spark's Kafka
    source, the batch columns (which Spark's source has not) after them."""
    codec = ka.schema(headers=headers, batch_columns=batch_columns)
    nullable = True if kafka_source else None
    fields = {f.name: _spark_field(f, nullable) for f in codec}
    if location:
        for f in _LOCATION:
            fields[f.name] = f.with_nullable(True) if kafka_source else f
    if kafka_source:
        extra = [fields[f.name] for f in codec if f.name not in _KAFKA_ORDER]
        return pa.schema([fields[n].with_name(_KAFKA_NAMES.get(n, n)) for n in _KAFKA_ORDER if n in fields] + extra)
    names = [f.name for f in _LOCATION] if location else []
    return pa.schema([fields[n] for n in names] + [fields[f.name] for f in codec])


def spark_schema(**options: bool) -> StructType:
    """Spark's ``StructType`` of :func:`spark_arrow_schema` with the same options."""
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(spark_arrow_schema(**options))


def to_spark_batch(rb: pa.RecordBatch, sch: pa.Schema, *, topic: str | None = None,
                   partition: int | None = None) -> pa.RecordBatch:
    """A batch of the codec's columns (``kafkacodec.arrow.decode``, or a
    consumer's ``poll_arrow`` with topic and partition) in ``sch``, one of
    :func:`spark_arrow_schema`'s; ``topic``/``partition`` fill those columns
    when ``rb`` has none.  No value is copied: timestamps are scaled in
    Arrow's kernels, the rest are views of the same buffers."""
    n = rb.num_rows
    names = rb.schema.names
    arrays = []
    for f in sch:
        name = "timestamp_type" if f.name == "timestampType" else f.name
        if name not in names and name == "topic" and topic is not None:
            arr = pa.repeat(pa.scalar(topic, pa.string()), n)
        elif name not in names and name == "partition" and partition is not None:
            arr = pa.repeat(pa.scalar(partition, pa.int32()), n)
        elif name == "timestamp":
            arr = pc.multiply(rb.column(names.index(name)).view(pa.int64()), 1000).view(f.type)
        else:
            arr = rb.column(names.index(name))
            if not arr.type.equals(f.type):
                try:
                    arr = arr.view(f.type)  # same layout: only field names or nullability differ
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError, TypeError):
                    arr = arr.cast(f.type)  # int8 -> int32 timestamp_type
        arrays.append(arr)
    return pa.RecordBatch.from_arrays(arrays, schema=sch)
