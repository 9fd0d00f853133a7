"""Decoding a DataFrame column of raw Kafka record-batch bytes.

Two shapes:

- :func:`decode_batches` / :func:`decode_batches_fn`: ``mapInArrow`` that
  explodes every input row into its records (other columns repeated);
- :func:`decode_batches_udf`: a column function returning
  ``array<struct<offset, timestamp, ...>>`` per row (an Arrow UDF on Spark
  >= 4.1, a pandas UDF before), to ``explode`` or ``inline`` yourself.

Each cell may hold any number of whole batches (a Fetch response's records
field, a slice of a ``.log`` file, one produced batch), any magic and codec.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

import numpy as np
import numpy.typing as npt
import pyarrow as pa

import kafkacodec.arrow as karrow
from kafkacodec.spark._schema import spark_arrow_schema, spark_schema, to_spark_batch

if TYPE_CHECKING:
    from pyspark.sql import DataFrame
    from pyspark.sql._typing import UserDefinedFunctionLike
    from pyspark.sql.types import StructType

__all__ = ["record_type", "decode_batches_fn", "decode_batches", "decode_batches_udf", "decode_cells"]


def record_type(*, headers: bool = True, batch_columns: bool = False) -> StructType:
    """Spark StructType of one decoded record."""
    return spark_schema(headers=headers, batch_columns=batch_columns, location=False)


def _arrow_record_schema(headers: bool, batch_columns: bool) -> pa.Schema:
    return spark_arrow_schema(headers=headers, batch_columns=batch_columns, location=False)


def decode_cells(cells: pa.Array, *, isolation_level: str = "read_uncommitted", headers: bool = True,
                 batch_columns: bool = False, verify_crc: bool = True,
                 schema: pa.Schema | None = None) -> tuple[npt.NDArray[np.int64], pa.RecordBatch]:
    """Decode each non-null cell of a binary array.  Returns ``(counts,
    record_batch)``: records per cell (int64 numpy array) and all records in
    cell order, in ``schema`` (Spark's Arrow form by default).

    read_committed needs the aborted-transaction list of a Fetch response,
    which raw batch bytes do not carry, so only batches of transactions whose
    markers are absent are kept; pass read_uncommitted unless the cells hold
    complete transactions with their markers.
    """
    if schema is None:
        schema = _arrow_record_schema(headers, batch_columns)
    if isinstance(cells, pa.ChunkedArray):
        cells = cells.combine_chunks()
    counts = np.zeros(len(cells), dtype=np.int64)
    parts = []
    valid = cells.is_valid().to_numpy(zero_copy_only=False)
    # one decode per cell (a cell holds whole batches); no Python object per record
    for i in range(len(cells)):
        if not valid[i]:
            continue
        buf = cells[i].as_buffer()
        rb = karrow.decode(buf, isolation_level=isolation_level, headers=headers,
                           batch_columns=batch_columns, verify_crc=verify_crc)
        counts[i] = rb.num_rows
        if rb.num_rows:
            parts.append(to_spark_batch(rb, schema))
    if not parts:
        return counts, pa.RecordBatch.from_arrays([pa.array([], f.type) for f in schema], schema=schema)
    if len(parts) == 1:
        return counts, parts[0]
    table = pa.Table.from_batches(parts, schema=schema).combine_chunks()
    return counts, table.to_batches()[0]


def decode_batches_fn(column: str = "value", *, keep: Sequence[str] = (), isolation_level: str = "read_uncommitted",
                      headers: bool = True, batch_columns: bool = False,
                      verify_crc: bool = True) -> Callable[[Iterable[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """A ``mapInArrow`` function: each input row's batches become one output
    row per record, with the ``keep`` columns repeated and then the record
    columns.  Use :func:`decode_output_schema` (or :func:`decode_batches`)
    for the matching schema."""
    keep = list(keep)

    def fn(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        sch = _arrow_record_schema(headers, batch_columns)
        for batch in batches:
            counts, records = decode_cells(batch.column(batch.schema.get_field_index(column)),
                                           isolation_level=isolation_level, headers=headers,
                                           batch_columns=batch_columns, verify_crc=verify_crc, schema=sch)
            if records.num_rows == 0:
                continue
            arrays, names = [], []
            if keep:
                take = pa.array(np.repeat(np.arange(batch.num_rows, dtype=np.int64), counts))
                for name in keep:
                    arrays.append(batch.column(batch.schema.get_field_index(name)).take(take))
                    names.append(name)
            arrays += records.columns
            names += records.schema.names
            yield pa.RecordBatch.from_arrays(arrays, names=names)

    return fn


def decode_output_schema(input_schema: StructType, column: str = "value", *, keep: Sequence[str] = (),
                         headers: bool = True, batch_columns: bool = False) -> StructType:
    from pyspark.sql.types import StructType

    fields = [input_schema[name] for name in keep]
    return StructType(fields + list(record_type(headers=headers, batch_columns=batch_columns).fields))


def decode_batches(df: DataFrame, column: str = "value", *, keep: Sequence[str] = (),
                   isolation_level: str = "read_uncommitted", headers: bool = True, batch_columns: bool = False,
                   verify_crc: bool = True) -> DataFrame:
    """``df`` with a binary column of raw record batches -> one row per
    record (``keep`` columns first), via ``mapInArrow``."""
    fn = decode_batches_fn(column, keep=keep, isolation_level=isolation_level, headers=headers,
                           batch_columns=batch_columns, verify_crc=verify_crc)
    return df.mapInArrow(fn, decode_output_schema(df.schema, column, keep=keep, headers=headers,
                                                  batch_columns=batch_columns))


def _list_of_records(cells: pa.Array, headers: bool, batch_columns: bool, isolation_level: str, verify_crc: bool,
                     sch: pa.Schema) -> pa.Array:
    counts, records = decode_cells(cells, isolation_level=isolation_level, headers=headers,
                                   batch_columns=batch_columns, verify_crc=verify_crc, schema=sch)
    struct = records.to_struct_array()
    offsets = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    mask = None
    if cells.null_count:
        mask = cells.is_null()
    return pa.ListArray.from_arrays(pa.array(offsets), struct, mask=mask)


def decode_batches_udf(*, isolation_level: str = "read_uncommitted", headers: bool = True,
                       batch_columns: bool = False, verify_crc: bool = True) -> UserDefinedFunctionLike:
    """A column function: ``df.select(decode_batches_udf()("value").alias("records"))``
    gives ``array<struct<offset, timestamp, timestamp_type, key, value,
    headers>>`` per row (null for a null cell).  An Arrow UDF (no pandas)
    on Spark 4.1+, a pandas UDF on 4.0."""
    from pyspark.sql.types import ArrayType

    rtype = ArrayType(record_type(headers=headers, batch_columns=batch_columns), False)
    try:
        from pyspark.sql.pandas.functions import arrow_udf  # pyspark.sql.functions re-exports it
    except ImportError:  # Spark 4.0
        pass
    else:
        def decode(cells: pa.Array) -> pa.Array:
            sch = _arrow_record_schema(headers, batch_columns)
            arr = _list_of_records(cells, headers, batch_columns, isolation_level, verify_crc, sch)
            return arr

        # pyspark's stubs know only the functionType form, not the type-hinted one used here
        arrow_fn: UserDefinedFunctionLike = arrow_udf(decode, rtype)  # type: ignore[call-overload]
        return arrow_fn

    import pandas as pd
    from pyspark.sql.pandas.functions import pandas_udf  # pyspark.sql.functions re-exports it

    def decode_pd(cells: pd.Series) -> pd.Series:
        sch = _arrow_record_schema(headers, batch_columns)
        arr = _list_of_records(pa.array(cells, pa.binary()), headers, batch_columns, isolation_level,
                               verify_crc, sch)
        return arr.to_pandas()

    pandas_fn: UserDefinedFunctionLike = pandas_udf(decode_pd, rtype)  # type: ignore[call-overload]  # as above
    return pandas_fn
