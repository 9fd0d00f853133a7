"""The benchmark's 14-field record schema and records for it (shared by tests and bench)."""
import datetime
import decimal
import random
import uuid

WIDE = {
    "type": "record", "name": "Order", "namespace": "shop",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "customer", "type": "string"},
        {"name": "amount", "type": "double"},
        {"name": "quantity", "type": "int"},
        {"name": "active", "type": "boolean"},
        {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
            {"name": "street", "type": "string"}, {"name": "city", "type": "string"},
            {"name": "zip", "type": "int"}]}},
        {"name": "note", "type": ["null", "string"], "default": None},
        {"name": "status", "type": {"type": "enum", "name": "Status",
                                    "symbols": ["NEW", "PAID", "SHIPPED", "DONE"]}},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "long"}},
        {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}},
        {"name": "digest", "type": {"type": "fixed", "name": "Digest", "size": 16}},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    ],
}


def wide_records(n, seed=7):
    rnd = random.Random(seed)
    epoch = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
    out = []
    for i in range(n):
        out.append({
            "id": i * 7919, "customer": f"customer-{rnd.randrange(100000)}", "amount": rnd.random() * 1000,
            "quantity": rnd.randrange(-50, 500), "active": rnd.random() < 0.5,
            "address": {"street": f"{rnd.randrange(999)} Main Street", "city": rnd.choice(["Oslo", "Lyon", "Kyiv"]),
                        "zip": rnd.randrange(99999)},
            "note": None if rnd.random() < 0.5 else "leave at the door",
            "status": rnd.choice(["NEW", "PAID", "SHIPPED", "DONE"]),
            "tags": [f"t{rnd.randrange(20)}" for _ in range(rnd.randrange(4))],
            "attrs": {f"k{j}": rnd.randrange(1 << 40) for j in range(rnd.randrange(3))},
            "price": decimal.Decimal(rnd.randrange(-10**9, 10**9)).scaleb(-2),
            "digest": uuid.UUID(int=rnd.getrandbits(128)).bytes,
            "day": datetime.date(2020, 1, 1) + datetime.timedelta(days=rnd.randrange(2000)),
            "ts": epoch + datetime.timedelta(microseconds=rnd.randrange(10**14)),
        })
    return out
