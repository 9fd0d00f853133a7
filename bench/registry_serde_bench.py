"""One Avro value at a time, as the registry-aware serializers work: what the confluent face's
AvroSerializer / AvroDeserializer use (fastavro per value) against a one-row kafkacodec.avro column,
and the face's serdes against confluent-kafka's own, both on an in-process mock:// registry.

    python -m bench.registry_serde_bench            # 20,000 values of the 14-field record
    python -m bench.registry_serde_bench --quick    # tiny sizes, for a smoke test (not a measurement)

Prints the median microseconds per value of each case (cases interleaved round by round, the
garbage collector off while timing).
"""
from __future__ import annotations

import argparse
import io
import json
import sys
import warnings
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "avro"))


def _cases(n: int) -> dict[str, Callable[[], Any]]:
    import fastavro
    import pyarrow as pa

    import kafkacodec.avro as kavro
    from _schemas import WIDE, wide_records
    from kafkacodec.compat.confluent_kafka.schema_registry import SchemaRegistryClient
    from kafkacodec.compat.confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
    from kafkacodec.compat.confluent_kafka.serialization import MessageField, SerializationContext
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import confluent_kafka.schema_registry as C
        import confluent_kafka.serialization as CS
        from confluent_kafka.schema_registry.avro import AvroDeserializer as CDeser, AvroSerializer as CSer

    from bench.avro_bench import _wide_value
    records = wide_records(n)
    parsed = fastavro.parse_schema(WIDE)
    values = [_wide_value(rec) for rec in records]
    decoder = kavro.AvroDecoder(WIDE)
    arrow_type = decoder.arrow_type
    text = json.dumps(WIDE)
    ours_sr = SchemaRegistryClient({"url": "mock://bench"})
    theirs_sr = C.SchemaRegistryClient.new_client({"url": "mock://bench"})
    ctx = SerializationContext("bench", MessageField.VALUE)
    cctx = CS.SerializationContext("bench", CS.MessageField.VALUE)
    ours_ser, theirs_ser = AvroSerializer(ours_sr, text), CSer(theirs_sr, text)
    framed = [ours_ser(rec, ctx) for rec in records]
    assert framed == [theirs_ser(rec, cctx) for rec in records]
    ours_de, theirs_de = AvroDeserializer(ours_sr), CDeser(theirs_sr)

    def fastavro_read() -> None:
        for v in values:
            fastavro.schemaless_reader(io.BytesIO(v), parsed, None)

    def fastavro_write() -> None:
        for rec in records:
            fastavro.schemaless_writer(io.BytesIO(), parsed, rec)

    def kafkacodec_one_row_read() -> None:
        for v in values:
            decoder.decode(pa.array([v], pa.binary())).to_pylist()

    def kafkacodec_one_row_write() -> None:
        for rec in records:
            kavro.encode(pa.array([rec], arrow_type), WIDE).to_pylist()

    return {
        "fastavro schemaless_reader (the face's read)": fastavro_read,
        "kafkacodec.avro one-row decode + to_pylist": kafkacodec_one_row_read,
        "fastavro schemaless_writer (the face's write)": fastavro_write,
        "kafkacodec.avro one-row encode": kafkacodec_one_row_write,
        "face AvroSerializer": lambda: [ours_ser(rec, ctx) for rec in records],
        "confluent-kafka AvroSerializer": lambda: [theirs_ser(rec, cctx) for rec in records],
        "face AvroDeserializer": lambda: [ours_de(v, ctx) for v in framed],
        "confluent-kafka AvroDeserializer": lambda: [theirs_de(v, cctx) for v in framed],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--values", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    n, rounds = (200, 2) if args.quick else (args.values, args.rounds)
    from bench.avro_bench import medians
    cases = _cases(n)
    print(f"{n} values of the 14-field record, median of {rounds} rounds (us per value, CPU time)")
    for name, seconds in zip(cases, medians(list(cases.values()), rounds)):
        print(f"  {name:48s} {seconds / n * 1e6:8.2f}")


if __name__ == "__main__":
    main()
