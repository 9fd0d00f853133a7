"""kafkacodec.compat.aiokafka against Tansu, written as an aiokafka program is: the face's
records read by aiokafka itself and the other way round, a group member whose listener seeks,
commits, transactions, the admin client, and the settings it refuses.  A watch task checks that
no step of these programs keeps the loop from it for long (the face never blocks the loop)."""
import asyncio
import json
import time
import uuid

import pytest

import _peers
from kafkacodec.client.errors import ConfigError
from kafkacodec.compat import aiokafka as face
from kafkacodec.compat.aiokafka import (AIOKafkaConsumer, AIOKafkaProducer, ConsumerRebalanceListener,
                                        OffsetAndMetadata, TopicPartition, errors)
from kafkacodec.compat.aiokafka.admin import AIOKafkaAdminClient, NewPartitions, NewTopic

aiokafka = pytest.importorskip("aiokafka")
pytestmark = pytest.mark.timeout(120)

# a step of the loop the programs below may take, at most (seconds); generous for a shared machine
LOOP_STALL = 0.25


def _topic(prefix="aio"):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


async def _watched(coro):
    """Runs coro while a task measures how late the loop wakes it; returns coro's result."""
    worst = 0.0
    stop = False

    async def watch():
        nonlocal worst
        while not stop:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            worst = max(worst, time.perf_counter() - t - 0.005)

    watcher = asyncio.create_task(watch())
    try:
        return await coro
    finally:
        stop = True
        await watcher
        assert worst < LOOP_STALL, f"the loop was held {worst * 1000:.0f} ms"


def run(coro):
    return asyncio.run(_watched(coro))


def test_produced_by_the_face_read_by_aiokafka_and_back(tansu_bootstrap):
    topic = _topic()
    _peers.create_topic(tansu_bootstrap, topic, partitions=2)
    sent = [{"n": i} for i in range(50)]

    async def produce(Producer):
        producer = Producer(bootstrap_servers=tansu_bootstrap, value_serializer=lambda v: json.dumps(v).encode(),
                            key_serializer=str.encode)
        await producer.start()
        try:
            first = await producer.send_and_wait(topic, sent[0], key="k0", headers=[("h", b"1")])
            futures = [await producer.send(topic, v, key=f"k{i % 5}") for i, v in enumerate(sent[1:], 1)]
            rest = await asyncio.gather(*futures)
            return [first, *rest]
        finally:
            await producer.stop()

    async def consume(Consumer, n):
        consumer = Consumer(bootstrap_servers=tansu_bootstrap, auto_offset_reset="earliest",
                            value_deserializer=lambda b: json.loads(b))
        await consumer.start()
        consumer.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        got = []
        try:
            deadline = time.monotonic() + 20
            while len(got) < n and time.monotonic() < deadline:
                for tp, records in (await consumer.getmany(timeout_ms=500)).items():
                    assert all(r.topic == tp.topic and r.partition == tp.partition for r in records)
                    got += [(r.topic, r.partition, r.offset, r.key, r.value, tuple(r.headers), r.timestamp_type,
                             r.serialized_key_size, r.serialized_value_size) for r in records]
            return sorted(got)
        finally:
            await consumer.stop()

    metadata = run(produce(AIOKafkaProducer))
    assert [type(m).__name__ for m in metadata] == ["RecordMetadata"] * 50
    assert {(m.topic, m.topic_partition) for m in metadata} <= {(topic, TopicPartition(topic, p)) for p in (0, 1)}
    # keyed records: the partitions aiokafka's own partitioner picks (murmur2 as Java's)
    theirs = run(produce(aiokafka.AIOKafkaProducer))
    assert [(m.partition) for m in metadata] == [m.partition for m in theirs]
    by_face = run(consume(AIOKafkaConsumer, 100))
    by_aiokafka = run(consume(aiokafka.AIOKafkaConsumer, 100))
    assert len(by_face) == 100
    assert by_face == by_aiokafka
    assert [v for *_, v, _h, _t, _k, _s in by_face if v == {"n": 0}] == [{"n": 0}, {"n": 0}]


def test_group_member_with_listener_commit_and_iteration(tansu_bootstrap):
    topic = _topic()
    group = _topic("g")
    _peers.create_topic(tansu_bootstrap, topic, partitions=3)
    events = []

    class Listener(ConsumerRebalanceListener):
        def __init__(self, consumer):
            self.consumer = consumer

        async def on_partitions_revoked(self, revoked):
            events.append(("revoked", sorted(revoked)))

        async def on_partitions_assigned(self, assigned):
            events.append(("assigned", sorted(assigned)))
            # a call that waits, made inside the listener, and a seek
            for tp in assigned:
                assert await self.consumer.committed(tp) is None
                self.consumer.seek(tp, 0)

    async def main():
        async with AIOKafkaProducer(bootstrap_servers=tansu_bootstrap) as producer:
            for i in range(30):
                await producer.send(topic, b"v%d" % i, partition=i % 3)
            await producer.flush()
        # auto_offset_reset="none": only the listener's seeks give positions
        consumer = AIOKafkaConsumer(bootstrap_servers=tansu_bootstrap, group_id=group, enable_auto_commit=False,
                                    auto_offset_reset="none", session_timeout_ms=6000)
        await consumer.start()
        consumer.subscribe(topics=[topic], listener=Listener(consumer))
        got = []
        async for msg in consumer:
            got.append(msg.value)
            if len(got) == 20:
                break
        await consumer.commit()
        committed = {p: await consumer.committed(TopicPartition(topic, p)) for p in range(3)}
        positions = {p: await consumer.position(TopicPartition(topic, p)) for p in range(3)}
        highwater = consumer.highwater(TopicPartition(topic, 0))
        await consumer.stop()
        with pytest.raises(errors.ConsumerStoppedError):
            await consumer.getone()
        # a new member of the group starts where the first one's commit says
        second = AIOKafkaConsumer(topic, bootstrap_servers=tansu_bootstrap, group_id=group,
                                  auto_offset_reset="earliest", session_timeout_ms=6000)
        await second.start()
        rest = []
        while len(rest) < 10:
            for records in (await second.getmany(timeout_ms=1000)).values():
                rest += [r.value for r in records]
        await second.stop()
        return got, committed, positions, highwater, rest

    got, committed, positions, highwater, rest = run(main())
    # as aiokafka's eager protocol: an empty revocation before the first assignment, nothing at stop()
    assert events == [("revoked", []), ("assigned", [TopicPartition(topic, p) for p in range(3)])]
    assert committed == positions and sum(committed.values()) == 20
    assert highwater == 10
    assert sorted(got + rest) == sorted(b"v%d" % i for i in range(30))


def test_seek_pause_offsets_and_getone_of_partitions(tansu_bootstrap):
    topic = _topic()
    _peers.create_topic(tansu_bootstrap, topic, partitions=2)
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)

    async def main():
        async with AIOKafkaProducer(bootstrap_servers=tansu_bootstrap, linger_ms=5) as producer:
            stamps = []
            for i in range(10):
                md = await producer.send_and_wait(topic, b"%d" % i, partition=i % 2, timestamp_ms=1_000_000 + i)
                stamps.append(md.timestamp)
            batch = producer.create_batch()
            while batch.append(key=None, value=b"b", timestamp=None) is not None and batch.record_count() < 7:
                pass
            batch_md = await (await producer.send_batch(batch, topic, partition=1))
            assert await producer.partitions_for(topic) == {0, 1}
        consumer = AIOKafkaConsumer(bootstrap_servers=tansu_bootstrap, auto_offset_reset="earliest")
        await consumer.start()
        consumer.assign([tp0, tp1])
        one = await consumer.getone(tp1)
        consumer.pause(tp1)
        paused = consumer.paused()
        only0 = await consumer.getmany(timeout_ms=1000)
        consumer.resume(tp1)
        await consumer.seek_to_beginning(tp1)
        again = await consumer.getone(tp1)
        await consumer.seek_to_end(tp0)
        end0 = await consumer.position(tp0)
        found = await consumer.offsets_for_times({tp0: 1_000_004, tp1: 9_999_999_999_999})
        begin = await consumer.beginning_offsets([tp0, tp1])
        end = await consumer.end_offsets([tp0, tp1])
        await consumer.stop()
        return stamps, batch_md, one, paused, only0, again, end0, found, begin, end

    stamps, batch_md, one, paused, only0, again, end0, found, begin, end = run(main())
    assert stamps == [1_000_000 + i for i in range(10)]
    assert batch_md.partition == 1 and batch_md.offset == 5
    assert (one.partition, one.offset, one.value) == (1, 0, b"1")
    assert paused == {tp1}
    assert set(only0) == {tp0} and [r.value for r in only0[tp0]] == [b"0", b"2", b"4", b"6", b"8"]
    assert (again.partition, again.offset) == (1, 0)
    assert end0 == 5

    async def theirs():
        consumer = aiokafka.AIOKafkaConsumer(bootstrap_servers=tansu_bootstrap)
        await consumer.start()
        try:
            return (await consumer.offsets_for_times({tp0: 1_000_004, tp1: 9_999_999_999_999}),
                    await consumer.end_offsets([tp0, tp1]))
        finally:
            await consumer.stop()

    # the broker's answer as aiokafka gives it (Tansu answers by its own rule, whatever the face asks)
    expected, their_end = asyncio.run(theirs())
    assert {tp: None if v is None else v.offset for tp, v in found.items()} == \
        {tp: None if v is None else v.offset for tp, v in expected.items()}
    assert begin == {tp0: 0, tp1: 0}
    assert end == their_end


def test_getmany_of_partitions_waits_for_theirs_past_records_queued_of_others(tansu_bootstrap):
    # as aiokafka's: records of other partitions already fetched do not end the wait for these
    topic = _topic()
    _peers.create_topic(tansu_bootstrap, topic, partitions=2)
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)

    async def main():
        async with AIOKafkaProducer(bootstrap_servers=tansu_bootstrap) as producer:
            for i in range(3):
                await producer.send_and_wait(topic, b"one-%d" % i, partition=1)
            consumer = AIOKafkaConsumer(bootstrap_servers=tansu_bootstrap, auto_offset_reset="earliest")
            await consumer.start()
            consumer.assign([tp0, tp1])
            first = await consumer.getone(tp1)  # the rest of partition 1's fetch stays queued

            async def later():
                await asyncio.sleep(0.3)
                await producer.send_and_wait(topic, b"zero", partition=0)

            sending = asyncio.ensure_future(later())
            t0 = time.perf_counter()
            zero = await consumer.getmany(tp0, timeout_ms=10_000)
            waited = time.perf_counter() - t0
            await sending
            ones = await consumer.getmany(tp1, timeout_ms=1000)
            await consumer.stop()
        return first, zero, waited, ones

    first, zero, waited, ones = run(main())
    assert first.value == b"one-0"
    assert {tp: [r.value for r in rs] for tp, rs in zero.items()} == {tp0: [b"zero"]}
    assert 0.2 < waited < 9
    assert [r.value for r in ones[tp1]] == [b"one-1", b"one-2"]


def test_groupless_getmany_of_partitions_hands_out_only_theirs(tansu_bootstrap):
    topic = _topic()
    _peers.create_topic(tansu_bootstrap, topic, partitions=2)
    tp0, tp1 = TopicPartition(topic, 0), TopicPartition(topic, 1)

    async def main():
        async with AIOKafkaProducer(bootstrap_servers=tansu_bootstrap) as producer:
            for i in range(6):
                await producer.send_and_wait(topic, b"%d" % i, partition=i % 2)
        async with AIOKafkaConsumer(topic, bootstrap_servers=tansu_bootstrap, auto_offset_reset="earliest") as c:
            got = {tp0: [], tp1: []}
            deadline = time.monotonic() + 10
            while len(got[tp0]) < 3 and time.monotonic() < deadline:
                batch = await c.getmany(tp0, timeout_ms=500)
                assert set(batch) <= {tp0}, batch
                got[tp0] += [r.value for r in batch.get(tp0, [])]
            while len(got[tp1]) < 3 and time.monotonic() < deadline:
                batch = await c.getmany(tp1, timeout_ms=500)
                assert set(batch) <= {tp1}, batch
                got[tp1] += [r.value for r in batch.get(tp1, [])]
        return got

    assert run(main()) == {tp0: [b"0", b"2", b"4"], tp1: [b"1", b"3", b"5"]}


def test_transaction_commits_and_aborts(tansu_bootstrap):
    topic = _topic()
    _peers.create_topic(tansu_bootstrap, topic, partitions=1)

    async def main():
        producer = AIOKafkaProducer(bootstrap_servers=tansu_bootstrap, transactional_id=_topic("tx"))
        await producer.start()
        async with producer.transaction():
            await producer.send(topic, b"kept")
        with pytest.raises(ValueError):
            async with producer.transaction():
                await producer.send_and_wait(topic, b"dropped")
                raise ValueError()
        async with producer.transaction():
            await producer.send(topic, b"kept too")
        await producer.stop()
        consumer = AIOKafkaConsumer(bootstrap_servers=tansu_bootstrap, isolation_level="read_committed",
                                    auto_offset_reset="earliest")
        await consumer.start()
        consumer.assign([TopicPartition(topic, 0)])
        values = []
        deadline = time.monotonic() + 10
        while len(values) < 2 and time.monotonic() < deadline:
            values += [r.value for rs in (await consumer.getmany(timeout_ms=500)).values() for r in rs]
        await consumer.stop()
        return values

    assert run(main()) == [b"kept", b"kept too"]


def test_admin_client(tansu_bootstrap):
    topic = _topic()

    async def main():
        admin = AIOKafkaAdminClient(bootstrap_servers=tansu_bootstrap)
        await admin.start()
        await admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])
        with pytest.raises(errors.TopicAlreadyExistsError):
            await admin.create_topics([NewTopic(topic, num_partitions=1, replication_factor=1)])
        listed = await admin.list_topics()
        # Tansu serves no CreatePartitions: the broker's refusal, as the client raises it
        with pytest.raises(errors.UnsupportedVersionError):
            await admin.create_partitions({topic: NewPartitions(total_count=2)})
        described = await admin.describe_topics([topic])
        async with AIOKafkaProducer(bootstrap_servers=tansu_bootstrap) as producer:
            for _ in range(5):
                await producer.send_and_wait(topic, b"x", partition=0)
        group = _topic("g")
        consumer = AIOKafkaConsumer(bootstrap_servers=tansu_bootstrap, group_id=group)
        await consumer.start()
        consumer.assign([TopicPartition(topic, 0)])
        await consumer.commit({TopicPartition(topic, 0): OffsetAndMetadata(4, "")})
        with pytest.raises(ValueError, match="metadata"):
            await consumer.commit({TopicPartition(topic, 0): OffsetAndMetadata(4, "note")})
        await consumer.stop()
        offsets = await admin.list_consumer_group_offsets(group)
        await admin.delete_topics([topic])
        await admin.close()
        return listed, described, offsets

    listed, described, offsets = run(main())
    assert topic in listed
    assert [len(t["partitions"]) for t in described] == [1]
    assert offsets == {TopicPartition(topic, 0): OffsetAndMetadata(4, "")}


def test_settings_without_meaning_are_refused():
    for kwargs, instead in [({"rebalance_timeout_ms": 1000}, "max_poll_interval_ms"),
                            ({"loop": object()}, "running event loop"),
                            ({"sasl_oauth_token_provider": object()}, "oauth_cb"),
                            ({"partition_assignment_strategy": ["sticky"]}, "RoundRobinPartitionAssignor")]:
        with pytest.raises(ConfigError, match=instead):
            AIOKafkaConsumer(**kwargs)
    with pytest.raises(ConfigError, match="running event loop"):
        AIOKafkaProducer(loop=object())
    with pytest.raises(TypeError, match="max_batch"):
        AIOKafkaProducer(max_batch=1)
    # aiokafka's internals: accepted without effect
    AIOKafkaConsumer(api_version="auto", consumer_timeout_ms=100)


def test_the_client_under_a_face_exists_after_start_only():
    from kafkacodec.client.errors import IllegalStateError

    async def started_twice(face):
        await face.start()
        first = face.client
        await face.start()
        try:
            return face.client is first
        finally:
            await face.stop()

    for face_class in (AIOKafkaConsumer, AIOKafkaProducer):
        with pytest.raises(IllegalStateError, match=f"{face_class.__name__}: call await start"):
            face_class(bootstrap_servers="127.0.0.1:1").client
        # what aiokafka raises there from inside: a program catching it still does
        with pytest.raises(AttributeError, match="call await start"):
            face_class(bootstrap_servers="127.0.0.1:1").client
        assert run(started_twice(face_class(bootstrap_servers="127.0.0.1:1")))


def test_names_of_aiokafka():
    """The names programs import from aiokafka, with the same fields."""
    for name in ["AIOKafkaProducer", "AIOKafkaConsumer", "ConsumerRebalanceListener", "ConsumerRecord",
                 "RecordMetadata", "TopicPartition", "OffsetAndMetadata", "OffsetAndTimestamp"]:
        assert hasattr(face, name), name
    import aiokafka.structs
    assert face.RecordMetadata._fields == aiokafka.structs.RecordMetadata._fields
    assert list(face.ConsumerRecord.__dataclass_fields__) == list(aiokafka.structs.ConsumerRecord.__dataclass_fields__)
    assert face.OffsetAndMetadata._fields == aiokafka.structs.OffsetAndMetadata._fields
    for name in ["KafkaError", "KafkaTimeoutError", "KafkaConnectionError", "OffsetOutOfRangeError",
                 "TopicAlreadyExistsError", "UnknownTopicOrPartitionError", "ConsumerStoppedError", "IllegalStateError",
                 "CommitFailedError", "NoBrokersAvailable", "RecordTooLargeError", "ProducerFenced"]:
        assert issubclass(getattr(errors, name), errors.KafkaError), name


def test_subscription_without_a_group_follows_every_partition(tansu_bootstrap):
    topic = _topic()
    _peers.create_topic(tansu_bootstrap, topic, partitions=2)
    seen = []

    class Listener(ConsumerRebalanceListener):
        def on_partitions_assigned(self, assigned):
            seen.append(sorted(assigned))

    async def main():
        async with AIOKafkaProducer(bootstrap_servers=tansu_bootstrap) as producer:
            for i in range(6):
                await producer.send(topic, b"%d" % i, partition=i % 2)
        consumer = AIOKafkaConsumer(bootstrap_servers=tansu_bootstrap, auto_offset_reset="earliest")
        await consumer.start()
        consumer.subscribe(pattern=f"^{topic}$", listener=Listener())
        values = []
        while len(values) < 6:
            values.append((await consumer.getone()).value)
        assignment = consumer.assignment()
        await consumer.stop()
        return values, assignment

    values, assignment = run(main())
    assert sorted(values) == [b"%d" % i for i in range(6)]
    # as aiokafka: without a group the listener is not told
    assert assignment == {TopicPartition(topic, 0), TopicPartition(topic, 1)} and seen == []


def test_started_and_never_stopped_warns_as_aiokafka_and_stops_the_client(tansu_bootstrap):
    """aiokafka warns (ResourceWarning "Unclosed AIOKafkaProducer") of a client started and never
    stopped that is collected; its tasks end with the loop.  The face warns alike and stops its
    client's threads; a member's listener, which the client keeps, does not keep the face."""
    import gc
    import threading
    import warnings
    import weakref

    topic = _topic("drop")
    _peers.create_topic(tansu_bootstrap, topic, 1)

    async def program():
        before = {t.ident for t in threading.enumerate()}
        producer = AIOKafkaProducer(bootstrap_servers=tansu_bootstrap)
        await producer.start()
        await producer.send_and_wait(topic, b"x")
        consumer = AIOKafkaConsumer(bootstrap_servers=tansu_bootstrap, group_id=_topic("g"),
                                    auto_offset_reset="earliest", session_timeout_ms=6000)
        consumer.subscribe([topic], listener=ConsumerRebalanceListener())
        await consumer.start()
        assert (await asyncio.wait_for(consumer.getone(), 30)).value == b"x"
        started = [t for t in threading.enumerate() if t.ident not in before]
        return [weakref.ref(producer), weakref.ref(consumer)], started

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        refs, started = asyncio.run(program())
        gc.collect()
    unclosed = sorted(str(w.message).split(" <")[0] for w in caught if issubclass(w.category, ResourceWarning)
                      and str(w.message).startswith("Unclosed"))
    assert unclosed == ["Unclosed AIOKafkaConsumer", "Unclosed AIOKafkaProducer"]
    del caught  # a warning keeps its source
    gc.collect()
    assert started and [r() for r in refs] == [None, None]
    for t in started:
        t.join(10)
    assert not [t.name for t in started if t.is_alive()]


def test_a_partition_the_topic_lacks_fails_as_aiokafkas_assert(tansu_bootstrap):
    topic = _topic("nopart")
    _peers.create_topic(tansu_bootstrap, topic, 2)

    async def send_to_99(module):
        p = module.AIOKafkaProducer(bootstrap_servers=tansu_bootstrap)
        await p.start()
        try:
            with pytest.raises(AssertionError, match="Unrecognized partition"):
                await p.send(topic, b"v", partition=99)
            return (await p.send_and_wait(topic, b"v", partition=1)).partition  # the producer goes on
        finally:
            await p.stop()

    assert [asyncio.run(send_to_99(m)) for m in (aiokafka, face)] == [1, 1]
