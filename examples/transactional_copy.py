"""Consume-transform-produce with exactly-once output.

    python examples/transactional_copy.py BOOTSTRAP INPUT OUTPUT [--group G] [--txn-id ID]

Reads every partition of INPUT (read_committed, resuming at the group's committed offsets), writes each record's value
upper-cased to OUTPUT, and commits the consumed offsets in the same
transaction as the output records: after any crash and restart, every input
record appears in OUTPUT exactly once for read_committed readers.  Stops after
--idle seconds without input (once input has started to arrive).
"""
import argparse
import sys
import time

from kafkacodec.client import Consumer, Producer


def transform(record):
    return record.key, (record.value or b"").upper()


def run(bootstrap, source, target, *, group="copy", transactional_id="copy-1", idle=3.0, max_batch=500,
        stop_after=None):
    """Copy until `idle` seconds pass without input; returns how many records were copied.
    `stop_after` (tests): abort the transaction after that many records and stop, as a crash would."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False,
                         "auto.offset.reset": "earliest", "isolation.level": "read_committed"})
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": transactional_id, "linger.ms": 5})
    copied = 0
    try:
        producer.init_transactions()
        # one copier owns every input partition; it resumes from the offsets its
        # transactions committed for the group (subscribe() would share the work)
        partitions = [(source, p) for p in producer.partitions_for(source)]
        consumer.assign(partitions)
        for tp, offset in consumer.committed(partitions).items():
            if offset is not None:
                consumer.seek(tp, offset)
        quiet_since = time.monotonic()
        started = False  # joining the group takes a while: idle counts from the first records
        while time.monotonic() - quiet_since < (idle if started else max(idle, 30.0)):
            records = consumer.poll(0.5, max_records=max_batch)
            if not records:
                continue
            quiet_since = time.monotonic()
            started = True
            producer.begin_transaction()
            offsets = {}
            for record in records:
                key, value = transform(record)
                producer.send(target, value, key=key, headers=record.headers)
                offsets[(record.topic, record.partition)] = record.offset + 1
            producer.send_offsets_to_transaction(offsets, consumer)
            if stop_after is not None and copied + len(records) > stop_after:
                producer.abort_transaction()
                return copied
            producer.commit_transaction()
            copied += len(records)
    finally:
        producer.close()
        consumer.close(autocommit=False)
    return copied


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bootstrap")
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--group", default="copy")
    ap.add_argument("--txn-id", default="copy-1")
    ap.add_argument("--idle", type=float, default=3.0)
    args = ap.parse_args(argv)
    n = run(args.bootstrap, args.input, args.output, group=args.group, transactional_id=args.txn_id,
            idle=args.idle)
    print(f"copied {n} records from {args.input} to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
