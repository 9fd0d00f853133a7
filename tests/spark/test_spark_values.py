"""Avro and JSON values as typed Spark columns: decode_values / encode_values on any DataFrame
(mapInArrow), and kafka-live's valueFormat / keyFormat options in the source and the sink, with a
Schema Registry served by the tests (several schema ids in one column read into the reader schema)."""
import json
import uuid

import pyarrow as pa
import pytest

pytest.importorskip("pyspark")

import kafkacodec.avro as kavro  # noqa: E402
from kafkacodec.values import AvroFormat, JsonFormat  # noqa: E402

V1 = {"type": "record", "name": "Ev", "fields": [
    {"name": "id", "type": "long"}, {"name": "kind", "type": {"type": "enum", "name": "K", "symbols": ["A", "B"]}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
    {"name": "tags", "type": {"type": "array", "items": "string"}}]}
V2 = dict(V1, fields=V1["fields"] + [{"name": "note", "type": ["null", "string"], "default": None}])


def _rows(n, note=False):
    out = [{"id": i, "kind": "AB"[i % 2], "at": 1_700_000_000_000 + i, "tags": ["t"] * (i % 3)} for i in range(n)]
    if note:
        for r in out:
            r["note"] = f"n{r['id']}"
    return out


def test_decode_and_encode_values_on_any_dataframe(spark):
    from kafkacodec.spark import decode_values, encode_values
    rows = _rows(50)
    values = kavro.encode(pa.array(rows, kavro.AvroDecoder(V1).arrow_type), V1, schema_id=3)
    df = spark.createDataFrame([(i, values[i].as_py()) for i in range(50)], "offset long, value binary")
    typed = decode_values(df, "value", AvroFormat(V1, confluent=True))
    assert typed.schema["value"].dataType.simpleString() == \
        "struct<id:bigint,kind:string,at:timestamp,tags:array<string>>"
    got = sorted(typed.collect(), key=lambda r: r.offset)
    assert [(r.value.id, r.value.kind, r.value.tags) for r in got] == [(r["id"], r["kind"], r["tags"]) for r in rows]
    back = encode_values(typed, "value", AvroFormat(V1, schema_id=3)).orderBy("offset").collect()
    assert [r.value for r in back] == values.to_pylist()
    # JSON, and a bad value failing the task with its record named
    js = spark.createDataFrame([(0, b'{"a": 1}'), (1, b'{"a": "x"}')], "offset long, value binary")
    assert decode_values(js.limit(1), "value", JsonFormat(pa.schema([("a", pa.int64())]))).first().value.a == 1
    with pytest.raises(Exception, match="Kafka offset 1"):
        decode_values(js, "value", pa.schema([("a", pa.int64())])).collect()


@pytest.mark.broker
def test_kafka_live_value_format_avro_with_registry(spark, live_broker):
    from _peers import create_topics
    from _registry_server import registry_server
    from kafkacodec.client import Producer

    bs = live_broker.bootstrap
    topic = f"typed-{uuid.uuid4().hex[:8]}"
    create_topics(bs, {topic: 2})
    with registry_server() as (url, state):
        from kafkacodec.schema_registry import Schema, SchemaRegistryClient
        reg = SchemaRegistryClient({"url": url})
        id1 = reg.register_schema(f"{topic}-value", Schema(json.dumps(V1), "AVRO"))
        with Producer({"bootstrap.servers": bs}) as p:   # the topic's schema evolves: v1 records, then v2
            p.send_arrow(topic, pa.table({"value": pa.array(_rows(30), AvroFormat(V1).arrow_type)}),
                         value_schema=AvroFormat(V1, schema_id=id1))
            id2 = reg.register_schema(f"{topic}-value", Schema(json.dumps(V2), "AVRO"))
            p.send_arrow(topic, pa.table({"value": pa.array(_rows(20, note=True), AvroFormat(V2).arrow_type)}),
                         value_schema=AvroFormat(V2, schema_id=id2))
            p.flush(30)
        assert id1 != id2
        read = (spark.read.format("kafka-live").option("kafka.bootstrap.servers", bs).option("subscribe", topic)
                .option("valueFormat", "avro").option("schema.registry.url", url).load())   # latest: V2
        assert read.schema["value"].dataType.simpleString() == \
            "struct<id:bigint,kind:string,at:timestamp,tags:array<string>,note:string>"
        got = sorted(((r.value.id, r.value.note) for r in read.collect()), key=lambda r: (r[0], r[1] or ""))
        assert len(got) == 50 and got.count((0, None)) == 1 and (0, "n0") in got
        # the sink: the struct column registered under out-value and written with its id
        out = f"{topic}-out"
        create_topics(bs, {out: 1})
        (read.select("value").write.format("kafka-live").mode("append").option("kafka.bootstrap.servers", bs)
         .option("topic", out).option("valueFormat", "avro").option("valueSchema", json.dumps(V2))
         .option("schema.registry.url", url).save())
        back = (spark.read.format("kafka-live").option("kafka.bootstrap.servers", bs).option("subscribe", out)
                .option("kafka.isolation.level", "read_committed").load())
        raw = [r.value for r in back.collect()]
        out_id = reg.get_latest_version(f"{out}-value").schema_id
        assert len(raw) == 50 and all(v[:5] == b"\x00" + out_id.to_bytes(4, "big") for v in raw)
        assert sorted(r["id"] for r in kavro.decode(pa.array(raw), V2, confluent=True).to_pylist()) == \
            sorted(i for i, _ in got)


def test_format_options_are_checked():
    from kafkacodec.spark._live_formats import parse_format_options
    from kafkacodec.spark._live_options import LiveError, parse_live_options
    base = {"kafka.bootstrap.servers": "127.0.0.1:1", "subscribe": "t"}
    assert parse_live_options(dict(base, valueFormat="avro", valueSchema='"long"')).formats.value_format == "avro"
    for bad, msg in [({"valueFormat": "xml"}, "valueFormat must be one of binary, avro, json"),
                     ({"valueFormat": "avro"}, "needs option valueSchema or schema.registry.url"),
                     ({"keySchema": '"long"'}, "keySchema needs keyFormat avro or json"),
                     ({"valueFormat": "avro", "valueSchema": '{"type": "nope"}'}, "option valueSchema"),
                     ({"valueFormat": "json", "valueSchema": '{"type": "array"}'}, "option valueSchema"),
                     ({"schema.registry.basic.auth.user.info": "a:b"}, "need schema.registry.url")]:
        with pytest.raises(LiveError, match=msg):
            parse_live_options(dict(base, **bad))
    spark_json = '{"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{}}]}'
    fo = parse_format_options({"valueFormat": "json", "valueSchema": spark_json, "schema.registry.url": "http://r"})
    assert fo.registry == (("url", "http://r"),)


def test_live_read_range_json_values_and_avro_keys():
    """A task's read (no Spark): valueFormat=json and keyFormat=avro into Spark's Arrow form, a bad
    value failing with its offset."""
    import _peers
    from kafkacodec.client import Producer
    from kafkacodec.errors import CorruptDataError
    from kafkacodec.spark._live_formats import spark_types
    from kafkacodec.spark._live_options import parse_live_options
    from kafkacodec.spark._live_plan import OffsetRange
    from kafkacodec.spark._live_read import read_range
    from kafkacodec.spark._live_source import _arrow_schema, live_schema

    spark_json = '{"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{}},' \
                 '{"name":"at","type":"timestamp","nullable":true,"metadata":{}}]}'
    key_schema = {"type": "enum", "name": "K", "symbols": ["X", "Y"]}
    try:
        cm = _peers.mock_cluster(num_brokers=1)
        bs = cm.__enter__()
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))
    try:
        with Producer({"bootstrap.servers": bs}) as p:
            p.send_arrow("js", pa.table({"key": pa.array([b"\x00", b"\x02", b"\x00"]), "value": pa.array(
                [b'{"a": 1, "at": "2024-01-02T03:04:05.5Z"}', b'{"a": 2}', b'{"a": "x"}'])}), partition=0)
            p.flush(10)
        opts = parse_live_options({"kafka.bootstrap.servers": bs, "subscribe": "js", "valueFormat": "json",
                                   "valueSchema": spark_json, "keyFormat": "avro", "keySchema": json.dumps(key_schema)})
        value_type, key_type = spark_types(opts.formats)
        assert (value_type.simpleString(), key_type.simpleString()) == ("struct<a:bigint,at:timestamp>", "string")
        sch = _arrow_schema(live_schema(False, value_type=value_type, key_type=key_type))
        rows = pa.Table.from_batches(list(read_range(OffsetRange("js", 0, 0, 2), opts, schema=sch)))
        assert rows["key"].to_pylist() == ["X", "Y"]
        assert [v["a"] for v in rows["value"].to_pylist()] == [1, 2]
        assert rows["value"].to_pylist()[0]["at"].microsecond == 500000
        with pytest.raises(CorruptDataError, match="Kafka offset 2"):
            list(read_range(OffsetRange("js", 0, 0, 3), opts, schema=sch))
    finally:
        cm.__exit__(None, None, None)
