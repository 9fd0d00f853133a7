#!/usr/bin/env python
"""A consume-transform-produce program in the shape of confluent-kafka-python's
examples/eos_transactions.py: reads the input partition from the group's committed offset,
writes each value upper-cased to the output topic in transactions of --batch messages, and
commits the consumed offsets inside each transaction (send_offsets_to_transaction); at the
input's end (a _PARTITION_EOF event) it commits the last transaction and stops.

    eos_transform.py -b <bootstrap.servers> -t <input> -o <output> -g <group> -x <transactional.id>
"""
import argparse
import sys

from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition


def main(args):
    consumer = Consumer({"bootstrap.servers": args.brokers, "group.id": args.group_id,
                         "auto.offset.reset": "earliest", "enable.auto.commit": False,
                         "enable.partition.eof": True, "isolation.level": "read_committed"})
    producer = Producer({"bootstrap.servers": args.brokers, "transactional.id": args.transactional_id})
    producer.init_transactions(30)
    consumer.assign([TopicPartition(args.input_topic, args.input_partition)])
    producer.begin_transaction()
    in_txn = 0
    transactions = 0

    def commit(reason):
        nonlocal in_txn, transactions
        positions = consumer.position(consumer.assignment())
        producer.send_offsets_to_transaction(positions, consumer.consumer_group_metadata(), 30)
        producer.commit_transaction(30)
        transactions += 1
        print("=== committed transaction {} ({}) with {} messages, input at {} ===".format(
            transactions, reason, in_txn, [(p.partition, p.offset) for p in positions]))
        in_txn = 0

    while True:
        msg = consumer.poll(10)
        if msg is None:
            sys.stderr.write("no message in 10 s\n")
            break
        err = msg.error()
        if err is not None:
            if err.code() == KafkaError._PARTITION_EOF:
                print("=== reached the end of {} [{}] at {} ===".format(msg.topic(), msg.partition(), msg.offset()))
                commit("end of input")
                break
            raise KafkaException(err)
        producer.produce(args.output_topic, (msg.value() or b"").upper(), msg.key())
        in_txn += 1
        if in_txn == args.batch:
            commit("batch")
            producer.begin_transaction()
    consumer.close()
    committed = Consumer({"bootstrap.servers": args.brokers, "group.id": args.group_id}).committed(
        [TopicPartition(args.input_topic, args.input_partition)], 10)
    print("committed offsets: {}".format([(p.topic == args.input_topic, p.partition, p.offset) for p in committed]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="consume-transform-produce in transactions")
    parser.add_argument("-b", dest="brokers", required=True)
    parser.add_argument("-t", dest="input_topic", required=True)
    parser.add_argument("-o", dest="output_topic", required=True)
    parser.add_argument("-p", dest="input_partition", default=0, type=int)
    parser.add_argument("-g", dest="group_id", required=True)
    parser.add_argument("-x", dest="transactional_id", required=True)
    parser.add_argument("-n", dest="batch", default=7, type=int)
    main(parser.parse_args())
