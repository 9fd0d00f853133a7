"""The code snippets of kafka-python's documentation, verbatim, as test data for
test_kafka_python_doc_snippets.py.

Taken from https://github.com/dpkp/kafka-python at commit a3b3836ff3a4b34ebaa42fd93500bfcb16c1e9b7
(kafka/version.py: 3.1.0.dev): the python code blocks of README.rst and docs/high_level.rst, and the
program example.py. docs/index.rst holds the same 18 code blocks as README.rst, in the same order;
docs/usage.rst is not in the repository at that commit; the other docs/*.rst hold no Python (bash
blocks only). Code blocks are taken out of their reStructuredText indentation, nothing else changed.
Shell blocks are not here: they are not Python."""

COMMIT = "a3b3836ff3a4b34ebaa42fd93500bfcb16c1e9b7"

# name: (the file it comes from, its code)
_WRITTEN = {
    "readme_consumer": ("README.rst", r'''
from kafka import KafkaConsumer
consumer = KafkaConsumer('my_favorite_topic')
for msg in consumer:
    print (msg)
'''),
    "readme_consumer_group": ("README.rst", r'''
# join a consumer group for dynamic partition assignment and offset commits
from kafka import KafkaConsumer
consumer = KafkaConsumer('my_favorite_topic', group_id='my_favorite_group')
for msg in consumer:
    print (msg)
'''),
    "readme_consumer_assign": ("README.rst", r'''
# manually assign the partition list for the consumer
from kafka import KafkaConsumer, TopicPartition
consumer = KafkaConsumer(bootstrap_servers='localhost:1234')
consumer.assign([TopicPartition('foobar', 2)])
msg = next(consumer)
'''),
    "readme_json_consumer": ("README.rst", r'''
# Deserialize json-encoded values
from kafka import KafkaConsumer, JsonSerializer
consumer = KafkaConsumer(value_deserializer=JsonSerializer())
consumer.subscribe(['json-foo'])
for msg in consumer:
    assert isinstance(msg.value, dict)
'''),
    "readme_consumer_headers": ("README.rst", r'''
# Access record headers. The returned value is a list of
# (str, bytes) tuples, representing the header key and value.
for msg in consumer:
    print (msg.headers)
'''),
    "readme_read_committed": ("README.rst", r'''
# Read only committed messages from transactional topic
from kafka import KafkaConsumer, IsolationLevel
consumer = KafkaConsumer(isolation_level=IsolationLevel.READ_COMMITTED)
consumer.subscribe(['txn_topic'])
for msg in consumer:
    print(msg)
'''),
    "readme_consumer_metrics": ("README.rst", r'''
# Get consumer metrics
metrics = consumer.metrics()
'''),
    "readme_producer": ("README.rst", r'''
from kafka import KafkaProducer
producer = KafkaProducer(bootstrap_servers='localhost:1234')
for _ in range(100):
    # Fire-and-forget: send() is async and returns before delivery
    producer.send('foobar', b'some_message_bytes')
'''),
    "readme_producer_future": ("README.rst", r'''
# To check the status of an async message delivery, use .get()
future = producer.send('foobar', b'another_message')
# future.get() will block until it can return the result or raise on error
result = future.get(timeout=60)
'''),
    "readme_producer_flush": ("README.rst", r'''
# Block until all pending messages are at least put on the network
# NOTE: This does not guarantee delivery or success! It is really
# only useful if you configure internal batching using linger_ms
producer.flush()
'''),
    "readme_producer_key": ("README.rst", r'''
# Use a key for hashed-partitioning
producer.send('foobar', key=b'foo', value=b'bar')
'''),
    "readme_json_producer": ("README.rst", r'''
# Serialize json messages
from kafka import KafkaProducer, JsonSerializer
producer = KafkaProducer(value_serializer=JsonSerializer())
producer.send('fizzbuzz', {'foo': 'bar'})
'''),
    "readme_string_keys": ("README.rst", r'''
# Serialize string keys
from kafka import KafkaProducer, DefaultSerializer
producer = KafkaProducer(key_serializer=DefaultSerializer())
producer.send('flipflap', key='ping', value=b'1234')
'''),
    "readme_gzip": ("README.rst", r'''
# Compress messages
producer = KafkaProducer(compression_type='gzip')
for i in range(1000):
    producer.send('foobar', b'msg %d' % i)
'''),
    "readme_transactions": ("README.rst", r'''
# Use transactions
producer = KafkaProducer(transactional_id='fizzbuzz')
producer.init_transactions()
producer.begin_transaction()
future = producer.send('txn_topic', value=b'yes')
future.get() # wait for successful produce
producer.commit_transaction() # commit the transaction

producer.begin_transaction()
future = producer.send('txn_topic', value=b'no')
future.get() # wait for successful produce
producer.abort_transaction() # abort the transaction
'''),
    "readme_producer_headers": ("README.rst", r'''
# Include record headers. The format is list of tuples with string key
# and bytes value.
producer.send('foobar', value=b'c29tZSB2YWx1ZQ==', headers=[('content-encoding', b'base64')])
'''),
    "readme_producer_metrics": ("README.rst", r'''
# Get producer performance metrics
metrics = producer.metrics()
'''),
    "readme_logging": ("README.rst", r'''
import logging
logging.basicConfig(level=logging.DEBUG)
'''),
    "high_level_consumer": ("docs/high_level.rst", r'''
from kafka import KafkaConsumer, OffsetAndMetadata, TopicPartition, JsonSerializer, DefaultSerializer

# To consume latest messages and auto-commit offsets
consumer = KafkaConsumer('my-topic',
                         group_id='my-group',
                         bootstrap_servers=['localhost:9092'])
for message in consumer:
    # message value and key are raw bytes -- decode if necessary!
    # e.g., for unicode: `message.value.decode('utf-8')`
    print ("%s:%d:%d: key=%s value=%s" % (message.topic, message.partition,
                                          message.offset, message.key,
                                          message.value))

# Manually commit offsets (disable auto-commit)
consumer = KafkaConsumer('my-topic',
                         group_id='my-group',
                         enable_auto_commit=False,
                         bootstrap_servers=['localhost:9092'])
for message in consumer:
    # process message
    process_message(message)
    # TopicPartition for this record
    tp = TopicPartition(message.topic, message.partition)
    # Note: When committing offsets manually, commit the next offset the consumer
    # should read. For example, after successfully processing a message at
    # offset 42, commit offset 43.
    consumer.commit({
        tp: OffsetAndMetadata(message.offset + 1, '', -1)
    })

# consume earliest available messages, don't commit offsets
KafkaConsumer(auto_offset_reset='earliest', enable_auto_commit=False)

# consume json messages
KafkaConsumer(value_deserializer=JsonSerializer())

# consume utf-8
KafkaConsumer(value_deserializer=DefaultSerializer())

# consume utf-16
KafkaConsumer(value_deserializer=DefaultSerializer('utf-16'))

# StopIteration if no message after 1sec
KafkaConsumer(consumer_timeout_ms=1000)

# Subscribe to a regex topic pattern
consumer = KafkaConsumer()
consumer.subscribe(pattern='^awesome.*')

# Use multiple consumers in parallel
# (run each on a different server / process / CPU)
consumer1 = KafkaConsumer('my-topic',
                          group_id='my-group',
                          bootstrap_servers='my.server.com')
consumer2 = KafkaConsumer('my-topic',
                          group_id='my-group',
                          bootstrap_servers='my.server.com')
'''),
    "high_level_producer": ("docs/high_level.rst", r'''
from kafka import KafkaProducer, JsonSerializer, DefaultSerializer
from kafka.errors import KafkaError

producer = KafkaProducer(bootstrap_servers=['broker1:1234'])

# Asynchronous by default
future = producer.send('my-topic', b'raw_bytes')

# Block for 'synchronous' sends
try:
    record_metadata = future.get(timeout=10)
except KafkaError:
    # Decide what to do if produce request failed...
    log.exception()
    pass

# Successful result returns assigned partition and offset
print (record_metadata.topic)
print (record_metadata.partition)
print (record_metadata.offset)

# produce keyed messages to enable hashed partitioning
producer.send('keyed-topic', key=b'foo', value=b'bar')

# encode str with utf-8 encoding
producer = KafkaProducer(value_serializer=DefaultSerializer())
producer.send('utf-8-topic', 'value_str')

# encode str with utf-16 encoding
producer = KafkaProducer(value_serializer=DefaultSerializer('utf-16'))
producer.send('utf-16-topic', '懂不懂')

# produce json messages
producer = KafkaProducer(value_serializer=JsonSerializer())
producer.send('json-topic', {'key': 'value'})

# produce asynchronously
for _ in range(100):
    producer.send('my-topic', b'msg')

def on_send_success(record_metadata):
    print(record_metadata.topic)
    print(record_metadata.partition)
    print(record_metadata.offset)

def on_send_error(excp):
    log.error('I am an errback', exc_info=excp)
    # handle exception

# produce asynchronously with callbacks
producer.send('my-topic', b'raw_bytes').add_callback(on_send_success).add_errback(on_send_error)

# block until all async messages are sent
producer.flush()

# configure multiple retries
producer = KafkaProducer(retries=5)
'''),
    "high_level_admin": ("docs/high_level.rst", r'''
from kafka import KafkaAdminClient

admin = KafkaAdminClient(bootstrap_servers=['broker1:1234'])

# create topics with defaults (requires kafka 2.4+)
admin.create_topics(['testtopic1'], timeout_ms=None, validate_only=False)
# create a new topic with details
new_topics = {
    'num_partitions': 1,
    'replication_factor': 1,
    'assignments': {0: [1]},                      # assign partition 0 to broker id 1
    'configs': {'max_message_bytes': '1000000'},  # set non-default configs
}
admin.create_topics(new_topics, timeout_ms=None, validate_only=False)

# delete a topic
admin.delete_topics(['testtopic1'])

# list consumer groups
print(admin.list_groups())

# get consumer group details
print(admin.describe_groups(['cft-plt-qa.connect']))

# get consumer group offset
print(admin.list_group_offsets(['cft-plt-qa.connect']))
'''),
    "example_py": ("example.py", r'''
#!/usr/bin/env python
import threading
import time

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
from kafka.admin import NewTopic


class Producer(threading.Thread):
    def __init__(self):
        threading.Thread.__init__(self)
        self.stop_event = threading.Event()

    def stop(self):
        self.stop_event.set()

    def run(self):
        producer = KafkaProducer(bootstrap_servers='localhost:9092')

        while not self.stop_event.is_set():
            producer.send('my-topic', b"test")
            producer.send('my-topic', b"\xc2Hola, mundo!")
            time.sleep(1)

        producer.close()


class Consumer(threading.Thread):
    def __init__(self):
        threading.Thread.__init__(self)
        self.stop_event = threading.Event()

    def stop(self):
        self.stop_event.set()

    def run(self):
        consumer = KafkaConsumer(bootstrap_servers='localhost:9092',
                                 auto_offset_reset='earliest',
                                 consumer_timeout_ms=1000)
        consumer.subscribe(['my-topic'])

        while not self.stop_event.is_set():
            for message in consumer:
                print(message)
                if self.stop_event.is_set():
                    break

        consumer.close()


def main():
    # Create 'my-topic' Kafka topic
    try:
        admin = KafkaAdminClient(bootstrap_servers='localhost:9092')

        topic = NewTopic(name='my-topic',
                         num_partitions=1,
                         replication_factor=1)
        admin.create_topics([topic])
    except Exception:
        pass

    tasks = [
        Producer(),
        Consumer()
    ]

    # Start threads of a publisher/producer and a subscriber/consumer to 'my-topic' Kafka topic
    for t in tasks:
        t.start()

    time.sleep(10)

    # Stop threads
    for task in tasks:
        task.stop()

    for task in tasks:
        task.join()


if __name__ == "__main__":
    main()
'''),
}

# each code begins after the line break that follows its opening quotes
SNIPPETS = {name: (source, code[1:]) for name, (source, code) in _WRITTEN.items()}
