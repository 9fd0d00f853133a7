"""Producer.send_arrow(value_schema=...) encodes a struct column, Consumer.poll_arrow(value_schema=...)
decodes it back into one (Avro with Confluent's header, JSON keys), against librdkafka's mock cluster."""
import time

import pyarrow as pa
import pytest

from kafkacodec.client import Consumer, Producer
from kafkacodec.errors import CorruptDataError
from kafkacodec.values import AvroFormat, JsonFormat

USER = {"type": "record", "name": "User", "fields": [
    {"name": "name", "type": "string"}, {"name": "age", "type": ["null", "int"]},
    {"name": "tags", "type": {"type": "array", "items": "string"}}]}
KEY = pa.schema([("id", pa.int64())])


@pytest.fixture(scope="module")
def bootstrap():
    import _peers
    try:
        with _peers.mock_cluster(num_brokers=1) as bs:
            yield bs
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


def _poll_all(consumer, n, **kw):
    batches, deadline = [], time.monotonic() + 20
    while sum(b.num_rows for b in batches) < n and time.monotonic() < deadline:
        rb = consumer.poll_arrow(0.5, **kw)
        if rb.num_rows:
            batches.append(rb)
    return pa.Table.from_batches(batches)


def test_struct_columns_sent_and_polled_back(bootstrap):
    values = pa.array([{"name": f"u{i}", "age": None if i % 3 else i, "tags": ["a"] * (i % 2)} for i in range(200)])
    keys = pa.array([{"id": i} for i in range(200)])
    with Producer({"bootstrap.servers": bootstrap}) as p:
        bulk = p.send_arrow("typed", pa.table({"key": keys, "value": values}), partition=0,
                            value_schema=AvroFormat(USER, schema_id=11), key_schema=JsonFormat(KEY))
        p.flush(10)
        bulk.wait(10)
    with Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest"}) as c:
        c.assign([("typed", 0)])
        got = _poll_all(c, 200, value_schema=AvroFormat(USER, confluent=True), key_schema=KEY)
        assert got["value"].to_pylist() == values.to_pylist()
        assert got["key"].to_pylist() == keys.to_pylist()
        assert got.schema.field("value").type == AvroFormat(USER).arrow_type
        c.seek(("typed", 0), 0)
        raw = _poll_all(c, 200)
        assert raw["value"][0].as_py()[:5] == b"\x00\x00\x00\x00\x0b"  # Confluent's header, id 11
        assert raw["key"][0].as_py() == b'{"id":0}'
        # an empty poll is typed too
        assert c.poll_arrow(0.05, value_schema=USER).schema.field("value").type == AvroFormat(USER).arrow_type


def test_bad_value_names_its_kafka_offset(bootstrap):
    with Producer({"bootstrap.servers": bootstrap}) as p:
        p.send_arrow("typedbad", pa.table({"value": pa.array([b'{"id":1}', b'{"id":2}', b'{"id":'])}), partition=0)
        p.flush(10)
    with Consumer({"bootstrap.servers": bootstrap, "auto.offset.reset": "earliest"}) as c:
        c.assign([("typedbad", 0)])
        with pytest.raises(CorruptDataError, match="Kafka offset 2") as e:
            _poll_all(c, 3, value_schema=JsonFormat(KEY))
        assert e.value.path == "values[2]"
    with pytest.raises(TypeError, match="value schema"), Consumer({"bootstrap.servers": bootstrap}) as c:
        c.assign([("typedbad", 0)])
        c.poll_arrow(0.01, value_schema=3)
