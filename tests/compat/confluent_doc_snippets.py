"""The code snippets of confluent-kafka-python's documentation, verbatim, as test data for
test_confluent_doc_snippets.py.

Taken from https://github.com/confluentinc/confluent-kafka-python at commit 8b1c7a613434eee3d0e1287d624d7af04932f410
(tag v2.15.0): README.md, docs/index.rst, examples/README.md, docs/kip-848-migration-guide.rst,
docs/kip-932-share-consumer.rst and docs/oauthbearer-aws.rst (their .md twins hold the same code),
and the examples in docstrings (src/confluent_kafka/cimpl.pyi, src/confluent_kafka/src/*.c,
src/confluent_kafka/schema_registry/wildcard_matcher.py).
Shell, properties and text blocks are not here: they are not Python."""

COMMIT = "8b1c7a613434eee3d0e1287d624d7af04932f410"

# name: (the file it comes from, its code)
_WRITTEN = {
    "readme_aio_producer": ("README.md", r'''
import asyncio
from confluent_kafka.aio import AIOProducer

async def main():
    p = AIOProducer({"bootstrap.servers": "mybroker"})
    try:
        # produce() returns a Future; first await the coroutine to get the Future,
        # then await the Future to get the delivered Message.
        delivery_future = await p.produce("mytopic", value=b"hello")
        delivered_msg = await delivery_future
        # Optionally flush any remaining buffered messages before shutdown
        await p.flush()
    finally:
        await p.close()

asyncio.run(main())
'''),
    "readme_basic_producer": ("README.md", r'''
from confluent_kafka import Producer

p = Producer({'bootstrap.servers': 'mybroker1,mybroker2'})

def delivery_report(err, msg):
    """ Called once for each message produced to indicate delivery result.
        Triggered by poll() or flush()."""
    if err is not None:
        print('Message delivery failed: {}'.format(err))
    else:
        print('Message delivered to {} [{}]'.format(msg.topic(), msg.partition()))

for data in some_data_source:
    # Trigger any available delivery report callbacks from previous produce() calls
    p.poll(0)

    # Asynchronously produce a message. The delivery report callback will
    # be triggered from the call to poll() above, or flush() below, when the
    # message has been successfully delivered or failed permanently.
    p.produce('mytopic', data.encode('utf-8'), callback=delivery_report)

# Wait for any outstanding messages to be delivered and delivery report
# callbacks to be triggered.
p.flush()
'''),
    "readme_schema_registry_sync": ("README.md", r'''
from confluent_kafka import Producer
from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroSerializer
from confluent_kafka.serialization import StringSerializer, SerializationContext, MessageField

# Configure Schema Registry Client
schema_registry_conf = {'url': 'http://localhost:8081'}  # Confluent Platform
# For Confluent Cloud, add: 'basic.auth.user.info': '<sr-api-key>:<sr-api-secret>'
# See: https://docs.confluent.io/cloud/current/sr/index.html
schema_registry_client = SchemaRegistryClient(schema_registry_conf)

# 2. Configure AvroSerializer
avro_serializer = AvroSerializer(schema_registry_client,
                                 user_schema_str,
                                 lambda user, ctx: user.to_dict())

# 3. Configure Producer
producer_conf = {
    'bootstrap.servers': 'localhost:9092',
}
producer = Producer(producer_conf)

# 4. Produce messages
serialized_value = avro_serializer(some_user_object)
producer.produce('my-topic', key='user1', value=serialized_value)
producer.flush()
'''),
    "readme_schema_registry_async": ("README.md", r'''
from confluent_kafka.aio import AIOProducer
from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
from confluent_kafka.schema_registry._async.avro import AsyncAvroSerializer

# Setup async Schema Registry client and serializer
# (See configuration options in the synchronous example above)
schema_registry_conf = {'url': 'http://localhost:8081'}
schema_client = AsyncSchemaRegistryClient(schema_registry_conf)
serializer = await AsyncAvroSerializer(schema_client, schema_str=avro_schema)

# Use with AsyncIO producer
producer = AIOProducer({"bootstrap.servers": "localhost:9092"})
serialized_value = await serializer(data, SerializationContext("topic", MessageField.VALUE))
delivery_future = await producer.produce("topic", value=serialized_value)
'''),
    "readme_async_import_paths": ("README.md", r'''
from confluent_kafka.schema_registry._async.avro import AsyncAvroSerializer, AsyncAvroDeserializer
from confluent_kafka.schema_registry._async.json_schema import AsyncJSONSerializer, AsyncJSONDeserializer
from confluent_kafka.schema_registry._async.protobuf import AsyncProtobufSerializer, AsyncProtobufDeserializer
'''),
    "readme_basic_consumer": ("README.md", r'''
from confluent_kafka import Consumer

c = Consumer({
    'bootstrap.servers': 'mybroker',
    'group.id': 'mygroup',
    'auto.offset.reset': 'earliest'
})

c.subscribe(['mytopic'])

while True:
    msg = c.poll(1.0)

    if msg is None:
        continue
    if msg.error():
        print("Consumer error: {}".format(msg.error()))
        continue

    print('Received message: {}'.format(msg.value().decode('utf-8')))

c.close()
'''),
    "readme_admin_create_topics": ("README.md", r'''
from confluent_kafka.admin import AdminClient, NewTopic

a = AdminClient({'bootstrap.servers': 'mybroker'})

new_topics = [NewTopic(topic, num_partitions=3, replication_factor=1) for topic in ["topic1", "topic2"]]
# Note: In a multi-cluster production scenario, it is more typical to use a replication_factor of 3 for durability.

# Call create_topics to asynchronously create topics. A dict
# of <topic,future> is returned.
fs = a.create_topics(new_topics)

# Wait for each operation to finish.
for topic, f in fs.items():
    try:
        f.result()  # The result itself is None
        print("Topic {} created".format(topic))
    except Exception as e:
        print("Failed to create topic {}: {}".format(topic, e))
'''),
    "index_transaction_error_handling": ("docs/index.rst", r'''
while True:
   try:
       producer.commit_transaction(10.0)
       break
   except KafkaException as e:
       if e.args[0].retriable():
          # retriable error, try again
          continue
       elif e.args[0].txn_requires_abort():
          # abort current transaction, begin a new transaction,
          # and rewind the consumer to start over.
          producer.abort_transaction()
          producer.begin_transaction()
          rewind_consumer_offsets...()
       else:
           # treat all other errors as fatal
           raise
'''),
    "index_consumer_configuration": ("docs/index.rst", r'''
conf = {'bootstrap.servers': 'mybroker.com',
        'group.id': 'mygroup',
        'session.timeout.ms': 6000,
        'on_commit': my_commit_callback,
        'auto.offset.reset': 'earliest'}
consumer = confluent_kafka.Consumer(conf)
'''),
    "index_logger": ("docs/index.rst", r'''
mylogger = logging.getLogger()
mylogger.addHandler(logging.StreamHandler())
producer = confluent_kafka.Producer({'bootstrap.servers': 'mybroker.com'}, logger=mylogger)
'''),
    "examples_fastapi": ("examples/README.md", r'''
from fastapi import FastAPI
from confluent_kafka.aio import AIOProducer

app = FastAPI()
producer = None

@app.on_event("startup")
async def startup():
    global producer
    producer = AIOProducer({"bootstrap.servers": "localhost:9092"})

@app.post("/events")
async def create_event(data: dict):
    delivery_future = await producer.produce("events", value=str(data))
    message = await delivery_future
    return {"offset": message.offset()}
'''),
    "examples_aiohttp": ("examples/README.md", r'''
from aiohttp import web
from confluent_kafka.aio import AIOProducer

async def init_app():
    app = web.Application()
    app['producer'] = AIOProducer({"bootstrap.servers": "localhost:9092"})
    return app

async def handle_event(request):
    producer = request.app['producer']
    delivery_future = await producer.produce("events", value="data")
    message = await delivery_future
    return web.json_response({"offset": message.offset()})
'''),
    "examples_asyncio_schema_registry": ("examples/README.md", r'''
from confluent_kafka.aio import AIOProducer
from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
from confluent_kafka.schema_registry._async.avro import AsyncAvroSerializer

async def setup_async_avro_producer():
    schema_registry_client = AsyncSchemaRegistryClient({"url": "http://localhost:8081"})

    avro_serializer = await AsyncAvroSerializer(
        schema_registry_client=schema_registry_client,
        schema_str=user_schema
    )

    producer = AIOProducer({"bootstrap.servers": "localhost:9092"})

    # Serialize and produce
    serialized_data = await avro_serializer(user_data, SerializationContext("users", MessageField.VALUE))
    delivery_future = await producer.produce("users", value=serialized_data)
    message = await delivery_future
'''),
    "examples_async_import_paths": ("examples/README.md", r'''
from confluent_kafka.schema_registry._async.avro import AsyncAvroSerializer, AsyncAvroDeserializer
from confluent_kafka.schema_registry._async.json_schema import AsyncJSONSerializer, AsyncJSONDeserializer
from confluent_kafka.schema_registry._async.protobuf import AsyncProtobufSerializer, AsyncProtobufDeserializer
'''),
    "examples_schema_registry_conf": ("examples/README.md", r'''
# For Confluent Platform (local)
schema_registry_conf = {'url': 'http://localhost:8081'}

# For Confluent Cloud
# schema_registry_conf = {
#     'url': 'https://<ccloud-schema-registry-url>',
#     'basic.auth.user.info': '<sr-api-key>:<sr-api-secret>'
# }
'''),
    "examples_schema_registry_sync": ("examples/README.md", r'''
# From examples/avro_producer.py
schema_registry_conf = {'url': 'http://localhost:8081'}
# For Confluent Cloud you can pass `--sr-api-key` and `--sr-api-secret` to the script.
schema_registry_client = SchemaRegistryClient(schema_registry_conf)

avro_serializer = AvroSerializer(schema_registry_client,
                                 user_schema,
                                 lambda user, ctx: user.to_dict())

producer_conf = {
    'bootstrap.servers': 'localhost:9092',
}

producer = Producer(producer_conf)

# Simplified example of serialize and produce
serialized_value = avro_serializer(some_user_object)
producer.produce('my-topic', key='user1', value=serialized_value)
producer.flush()
'''),
    "examples_schema_registry_async": ("examples/README.md", r'''
# From examples/README.md
from confluent_kafka.aio import AIOProducer
from confluent_kafka.schema_registry import AsyncSchemaRegistryClient
from confluent_kafka.schema_registry._async.avro import AsyncAvroSerializer

async def setup_async_avro_producer():
    # Use the appropriate configuration from the section above
    schema_registry_conf = {"url": "http://localhost:8081"}
    schema_registry_client = AsyncSchemaRegistryClient(schema_registry_conf)

    avro_serializer = await AsyncAvroSerializer(
        schema_registry_client=schema_registry_client,
        schema_str=user_schema
    )

    producer = AIOProducer({"bootstrap.servers": "localhost:9092"})

    # Serialize and produce
    serialized_data = await avro_serializer(user_data, SerializationContext("users", MessageField.VALUE))
    delivery_future = await producer.produce("users", value=serialized_data)
    message = await delivery_future
'''),
    "examples_async_import_paths_again": ("examples/README.md", r'''
from confluent_kafka.schema_registry._async.avro import AsyncAvroSerializer, AsyncAvroDeserializer
from confluent_kafka.schema_registry._async.json_schema import AsyncJSONSerializer, AsyncJSONDeserializer
from confluent_kafka.schema_registry._async.protobuf import AsyncProtobufSerializer, AsyncProtobufDeserializer
'''),
    "kip848_classic_callbacks": ("docs/kip-848-migration-guide.rst (.md)", r'''
# Rebalance Callback for Range Assignor (Classic Protocol)
def on_assign(consumer, partitions):
    # Full partition list is provided under the classic protocol
    print(f"[Classic] Assigned partitions: {partitions}")
    consumer.assign(partitions) # Optional: client handles if not used

def on_revoke(consumer, partitions):
    print(f"[Classic] Revoked partitions: {partitions}")
    consumer.unassign() # Optional: client handles if not used
'''),
    "kip848_incremental_callbacks": ("docs/kip-848-migration-guide.rst (.md)", r'''
# Rebalance callback for incremental assignor
def on_assign(consumer, partitions):
    # Only incremental partitions are passed here (not full list)
    print(f"[KIP-848] Incrementally assigning: {partitions}")
    consumer.incremental_assign(partitions) # Optional: client handles if not used

def on_revoke(consumer, partitions):
    print(f"[KIP-848] Incrementally revoking: {partitions}")
    consumer.incremental_unassign(partitions) # Optional: client handles if not used
'''),
    "kip932_enablement": ("docs/kip-932-share-consumer.rst (.md)", r'''
from confluent_kafka import ShareConsumer

conf = {
    'bootstrap.servers': 'localhost:9092',
    'group.id': 'my-share-group',
    # Optional, defaults to 'implicit'. Use 'explicit' to acknowledge
    # each record yourself (see Acknowledgement Modes).
    # 'share.acknowledgement.mode': 'explicit',
}

consumer = ShareConsumer(conf)
consumer.subscribe(['my-topic'])
'''),
    "kip932_implicit": ("docs/kip-932-share-consumer.rst (.md)", r'''
from confluent_kafka import ShareConsumer

consumer = ShareConsumer({
    'bootstrap.servers': 'localhost:9092',
    'group.id': 'my-share-group',
})
consumer.subscribe(['my-topic'])

try:
    while running:
        messages = consumer.poll(timeout=1.0)  # a Messages batch, possibly empty
        for msg in messages:
            if msg.error():
                # Record-level error; just inspect msg.error() (see Error Handling).
                continue
            process(msg)  # auto-accepted on the next poll
finally:
    consumer.close()
'''),
    "kip932_explicit": ("docs/kip-932-share-consumer.rst (.md)", r'''
from confluent_kafka import ShareConsumer, AcknowledgeType

consumer = ShareConsumer({
    'bootstrap.servers': 'localhost:9092',
    'group.id': 'my-share-group',
    'share.acknowledgement.mode': 'explicit',
})
consumer.subscribe(['my-topic'])

try:
    while running:
        messages = consumer.poll(timeout=1.0)
        for msg in messages:
            if msg.error():
                # Already RELEASE/REJECT-ed internally; the app may
                # re-acknowledge it if required.
                continue
            try:
                process(msg)
                consumer.acknowledge(msg, AcknowledgeType.ACCEPT)
            except TransientError:
                consumer.acknowledge(msg, AcknowledgeType.RELEASE)
            except Exception:
                consumer.acknowledge(msg, AcknowledgeType.REJECT)

        # Flush acknowledgements. commit_sync returns a per-partition result;
        # a None value means that partition succeeded.
        results = consumer.commit_sync(timeout=10.0)
        for tp, exc in results.items():
            if exc is not None:
                print(f"commit failed for {tp.topic} [{tp.partition}]: {exc}")
finally:
    consumer.close()
'''),
    "kip932_context_manager": ("docs/kip-932-share-consumer.rst (.md)", r'''
with ShareConsumer(conf) as consumer:
    consumer.subscribe(['my-topic'])
    while running:
        for msg in consumer.poll(timeout=1.0):
            ...
'''),
    "kip932_deserializing": ("docs/kip-932-share-consumer.rst (.md)", r'''
from confluent_kafka import DeserializingShareConsumer
from confluent_kafka.serialization import StringDeserializer

consumer = DeserializingShareConsumer({
    'bootstrap.servers': 'localhost:9092',
    'group.id': 'my-share-group',
    'key.deserializer': StringDeserializer(),
    'value.deserializer': StringDeserializer(),
})
consumer.subscribe(['my-topic'])

for msg in consumer.poll(timeout=1.0):
    if msg.error():
        ...  # deserialization or broker/record error (see below)
    else:
        use(msg.key(), msg.value())  # already deserialized
'''),
    "oauthbearer_aws_quick_start": ("docs/oauthbearer-aws.rst (.md)", r'''
from confluent_kafka import Consumer

consumer = Consumer({
    'bootstrap.servers': 'pkc-xxxx.aws.confluent.cloud:9092',
    'security.protocol': 'SASL_SSL',
    'sasl.mechanisms': 'OAUTHBEARER',

    'sasl.oauthbearer.method': 'oidc',
    'sasl.oauthbearer.metadata.authentication.type': 'aws_iam',
    'sasl.oauthbearer.config': 'region=us-east-1,audience=https://confluent.cloud/oidc',

    'group.id': 'my-group',
    'auto.offset.reset': 'earliest',
})
consumer.subscribe(['my-topic'])
'''),
    "oauthbearer_aws_all_options": ("docs/oauthbearer-aws.rst (.md)", r'''
conf = {
    'bootstrap.servers': 'pkc-xxxx.aws.confluent.cloud:9092',
    'security.protocol': 'SASL_SSL',
    'sasl.mechanisms': 'OAUTHBEARER',

    'sasl.oauthbearer.method': 'oidc',
    'sasl.oauthbearer.metadata.authentication.type': 'aws_iam',
    'sasl.oauthbearer.config': (
        'region=us-east-1,'
        'audience=https://confluent.cloud/oidc,'
        'duration_seconds=900,'
        'signing_algorithm=ES384,'
        'sts_endpoint=https://sts-fips.us-east-1.amazonaws.com,'
        'aws_debug=console,'
        'tag_team=platform,'
        'tag_environment=prod'
    ),
    'sasl.oauthbearer.extensions': (
        'logicalCluster=lkc-abc,'
        'identityPoolId=pool-xyz'
    ),
}
'''),
    "oauthbearer_aws_extensions": ("docs/oauthbearer-aws.rst (.md)", r'''
'sasl.oauthbearer.extensions': 'logicalCluster=lkc-abc,identityPoolId=pool-xyz'
'''),
    "docstring_producer_init_1": ("src/confluent_kafka/cimpl.pyi (Producer.__init__)", r'''
Producer({'bootstrap.servers': 'localhost:9092'})
'''),
    "docstring_producer_init_2": ("src/confluent_kafka/cimpl.pyi (Producer.__init__)", r'''
Producer(conf, logger=logger)
Producer({'bootstrap.servers': 'localhost'}, enable_idempotence=True)
'''),
    "docstring_producer_init_3": ("src/confluent_kafka/cimpl.pyi (Producer.__init__)", r'''
Producer(bootstrap_servers='localhost:9092')
'''),
    "docstring_consumer_init_1": ("src/confluent_kafka/cimpl.pyi (Consumer.__init__)", r'''
Consumer({'bootstrap.servers': 'localhost', 'group.id': 'mygroup'})
'''),
    "docstring_consumer_init_2": ("src/confluent_kafka/cimpl.pyi (Consumer.__init__)", r'''
Consumer(conf, logger=logger)
Consumer({'bootstrap.servers': 'localhost'}, group_id='mygroup')
'''),
    "docstring_consumer_init_3": ("src/confluent_kafka/cimpl.pyi (Consumer.__init__)", r'''
Consumer(bootstrap_servers='localhost', group_id='mygroup')
'''),
    "docstring_produce_batch": ("src/confluent_kafka/src/Producer.c (Producer.produce_batch)", r'''
messages = [
    {'value': 'message 1', 'key': 'key1'},
    {'value': 'message 2', 'key': 'key2', 'partition': 1},
    {'value': 'message 3', 'callback': my_callback}
]
count = producer.produce_batch('my-topic', messages)
print(f'Successfully queued {count} messages')
'''),
    "docstring_murmur2": ("src/confluent_kafka/src/confluent_kafka.c (murmur2)", r'''
partition = murmur2(b"user_12345", 10)
'''),
    "docstring_subscribe_regex": ("src/confluent_kafka/src/Consumer.c (Consumer.subscribe)", r'''
consumer.subscribe(["^my_topic.*", "^another[0-9]-?[a-z]+$", "not_a_regex"])
'''),
    "docstring_wildcard_match": ("src/confluent_kafka/schema_registry/wildcard_matcher.py (wildcardMatch)", r'''
>>> wildcardMatch("eve", "eve*")
True
>>> wildcardMatch("alice.bob.eve", "a*.bob.eve")
True
>>> wildcardMatch("alice.bob.eve", "a*.bob.e*")
True
>>> wildcardMatch("alice.bob.eve", "a*")
False
>>> wildcardMatch("alice.bob.eve", "a**")
True
>>> wildcardMatch("alice.bob.eve", "alice.bob*")
False
>>> wildcardMatch("alice.bob.eve", "alice.bob**")
True
'''),
}

# each code begins after the line break that follows its opening quotes
SNIPPETS = {name: (source, code[1:]) for name, (source, code) in _WRITTEN.items()}
