"""One of each in the client: the table of API version caps, IsolationLevel, and the settings
table with its meanings (printed by ``python -m kafkacodec.client.config``, shown by the
documentation's settings page)."""
import importlib.util
import pathlib
import subprocess
import sys
import time
import types

import pytest

from kafkacodec import protocol
from kafkacodec.client import admin, versions
from kafkacodec.client.admin import Admin
from kafkacodec.client.config import (ADMIN, COMMON, CONSUMER, KINDS, PRODUCER, SHARE_CONSUMER, Check, IsolationLevel,
                                      describe, markdown, resolve, text)
from kafkacodec.client.errors import ConfigError
from kafkacodec.client.fetcher import Fetcher
from kafkacodec.client.group import GroupCoordinator
from kafkacodec.client.network import NetworkClient
from kafkacodec.protocol import decode_request
from kafkacodec.protocol import messages as m
from kafkacodec.protocol.negotiation import our_range

from _scripted_broker import ScriptedBroker

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


# -- the table of version caps

def test_every_cap_is_a_version_we_speak_and_a_lower_one_says_why():
    for api, cap in versions.CAPS.items():
        lo, hi = our_range(protocol.api_key_of(api))
        assert lo <= cap.version <= hi, (api, cap.version, (lo, hi))
        # a cap below the generated protocol needs its reason; one at the top needs none
        assert bool(cap.why) == (cap.version < hi), (api, cap)


def test_the_caps_are_the_versions_the_client_sends():
    # raising a cap changes the wire: do it here on purpose, with the peers' tests
    assert versions.MAX_VERSIONS == {
        "Produce": 10, "InitProducerId": 5, "AddPartitionsToTxn": 3, "TxnOffsetCommit": 3, "EndTxn": 4, "Fetch": 12,
        "ListOffsets": 7, "FindCoordinator": 3, "JoinGroup": 5, "SyncGroup": 3, "Heartbeat": 3, "LeaveGroup": 4,
        "OffsetCommit": 8, "OffsetFetch": 9, "Metadata": 12}


def test_produce_cap_is_within_what_the_produce_frame_encoder_writes():
    sender = pytest.importorskip("kafkacodec.client._sender_steps")
    from kafkacodec.records import RecordBatchBuilder
    builder = RecordBatchBuilder(2)
    builder.append(1, b"k", b"v")
    batch = types.SimpleNamespace(topic="t", partition=0, data=builder.build())
    version = versions.max_version("Produce")
    parts = sender.ProduceFrame(None, -1, 30000, [batch]).encode_frame(version, 7, "c")
    P = m.ProduceRequest
    body = P(transactional_id=None, acks=-1, timeout_ms=30000, topic_data=[
        P.TopicProduceData(name="t", partition_data=[P.PartitionProduceData(index=0, records=bytes(batch.data))])])
    assert b"".join(map(bytes, parts)) == protocol.encode_request("Produce", version, body, correlation_id=7,
                                                                  client_id="c")


def test_admin_max_version_reads_the_one_table():
    assert "max_version" in admin.__all__ and admin.max_version is versions.max_version
    assert admin.max_version("Fetch") == 12 and admin.max_version("ListOffsets") == 7
    assert admin.max_version("CreateTopics") is None      # no cap: the highest both sides know
    assert versions.max_version_by_key(1) == 12 and versions.max_version_by_key(19) is None


class _VersionBroker(ScriptedBroker):
    """Answers ApiVersions (offering `offered` {api key: max version}) and Metadata on
    127.0.0.1, and nothing else."""

    def __init__(self, offered):
        self.offered = offered
        super().__init__(self._answer)

    def _answer(self, key, version, body):
        if key == 18:
            av = m.ApiVersionsResponse.ApiVersion
            return m.ApiVersionsResponse(api_keys=[av(api_key=k, min_version=0, max_version=v)
                                                   for k, v in self.offered.items()])
        if key == 3:
            return m.MetadataResponse(cluster_id="fake", controller_id=1, brokers=[
                m.MetadataResponse.MetadataResponseBroker(node_id=1, host="127.0.0.1", port=self.port)], topics=[])
        return None

    def wait_seen(self, key, timeout=5.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [v for k, v, _ in self.seen if k == key]
            if found:
                return found
            time.sleep(0.01)
        raise AssertionError(f"no request with API key {key} within {timeout} s (seen: {self.seen})")


def test_network_client_caps_each_request_by_the_table_unless_told_lower():
    # a broker newer than every cap: what goes out is the table's version (or the caller's)
    fake = _VersionBroker({18: 4, 3: 13, 1: 17, 19: 7, 13: 5, 8: 9})
    client = NetworkClient(resolve({"bootstrap.servers": f"127.0.0.1:{fake.port}"}, {}, ADMIN))
    try:
        assert set(fake.wait_seen(3)) == {12}                 # the metadata refresh, a Request of its own
        fetch = m.FetchRequest(replica_id=-1, max_wait_ms=1, min_bytes=0, max_bytes=1, isolation_level=0,
                               session_id=0, session_epoch=-1, rack_id="", topics=[], forgotten_topics_data=[])
        client.send(None, "Fetch", fetch)
        assert set(fake.wait_seen(1)) == {12}
        client.send(None, "CreateTopics", m.CreateTopicsRequest(topics=[], timeout_ms=1))
        assert set(fake.wait_seen(19)) == {7}                 # not in the table: the highest both know
        client.send(None, "LeaveGroup", m.LeaveGroupRequest(group_id="g", member_id="x"), max_version=2)
        assert set(fake.wait_seen(13)) == {2}                 # a caller's lower cap wins
        client.send(None, "OffsetCommit", m.OffsetCommitRequest(group_id="g", topics=[]), version=6)
        assert set(fake.wait_seen(8)) == {6}                  # a named version goes as named
    finally:
        client.close()
        fake.close()


def test_fetcher_builds_sessions_for_the_capped_version():
    def fetcher_over(broker_max):
        conn = types.SimpleNamespace(ready=True, versions={1: broker_max})
        return types.SimpleNamespace(client=types.SimpleNamespace(connections={7: conn}))
    assert Fetcher._fetch_version(fetcher_over(17), 7) == 12
    assert Fetcher._fetch_version(fetcher_over(9), 7) == 9


@pytest.mark.parametrize("instance_id, expected", [(None, 2), ("static-1", 4)])
def test_leave_group_stays_at_v2_for_dynamic_members_and_uses_the_cap_for_static_ones(instance_id, expected):
    sent = []
    group = types.SimpleNamespace(
        coordinator=5, member_id="m-1", generation=3, phase="stable", group_id="g",
        conf={"group.instance.id": instance_id},
        client=types.SimpleNamespace(connections={5: types.SimpleNamespace(versions={13: 5})},
                                     send=lambda node, api, body, **kw: sent.append((api, body, kw))))
    GroupCoordinator._leave(group, "closing")
    (api, body, kw), = sent
    assert api == "LeaveGroup" and kw == {"version": expected}
    assert (body.member_id == "m-1") == (expected < 3)      # the body follows the version


# -- IsolationLevel

def test_isolation_level_parses_the_enum_kafka_names_and_wire_values():
    for given, want in [(IsolationLevel.READ_COMMITTED, IsolationLevel.READ_COMMITTED),
                        ("read_committed", IsolationLevel.READ_COMMITTED),
                        (" Read_Uncommitted ", IsolationLevel.READ_UNCOMMITTED),
                        (1, IsolationLevel.READ_COMMITTED), (0, IsolationLevel.READ_UNCOMMITTED)]:
        assert IsolationLevel.parse(given) is want
    for bad in ["dirty", "read-committed", True, 2, None, 1.0]:
        with pytest.raises(ConfigError, match=r"^kafka\.isolation\.level: expected read_uncommitted or "):
            IsolationLevel.parse(bad, "kafka.isolation.level", ConfigError)
        assert IsolationLevel.find(bad) is None
    # defined with the records, below the client: a ValueError unless the caller names its own error
    with pytest.raises(ValueError, match=r"^isolation\.level: expected read_uncommitted or read_committed, "
                                         r"got 'dirty'$"):
        IsolationLevel.parse("dirty")
    from kafkacodec.records.isolation import IsolationLevel as defined
    assert IsolationLevel is defined
    level = IsolationLevel.READ_COMMITTED
    assert (str(level), f"{level}", f"{level:>16}", int(level)) == ("read_committed", "read_committed",
                                                                      "  read_committed", 1)


def test_config_resolves_isolation_level_once_to_the_enum():
    conf = resolve({"bootstrap.servers": "a:1", "isolation.level": "READ_COMMITTED"}, {}, CONSUMER)
    assert conf["isolation.level"] is IsolationLevel.READ_COMMITTED
    assert resolve({"bootstrap.servers": "a:1"}, {}, CONSUMER)["isolation.level"] is IsolationLevel.READ_UNCOMMITTED
    with pytest.raises(ConfigError, match=r"^isolation\.level: "):
        resolve({"bootstrap.servers": "a:1"}, {"isolation_level": "dirty"}, CONSUMER)


@pytest.mark.parametrize("api, version", [("Fetch", 4), ("Fetch", 12), ("ListOffsets", 2), ("ListOffsets", 7)])
def test_the_enum_goes_on_the_wire_as_its_int(api, version):
    def body(level):
        if api == "Fetch":
            return m.FetchRequest(replica_id=-1, max_wait_ms=1, min_bytes=0, max_bytes=1, isolation_level=level,
                                  session_id=0, session_epoch=-1, rack_id="", topics=[], forgotten_topics_data=[])
        return m.ListOffsetsRequest(replica_id=-1, isolation_level=level, topics=[])
    from kafkacodec.protocol import _pure_codec
    for impl in {None, _pure_codec}:
        frame = protocol.encode_request(api, version, body(IsolationLevel.READ_COMMITTED), correlation_id=1,
                                        impl=impl)
        assert frame == protocol.encode_request(api, version, body(1), correlation_id=1, impl=impl)
        _, back = decode_request(frame)
        assert back.isolation_level == 1


def test_the_decoders_take_the_enum_as_they_take_kafka_names():
    from kafkacodec.records import decode_records
    from kafkacodec.records.isolation import read_committed
    assert read_committed(IsolationLevel.READ_COMMITTED, []) is True
    assert read_committed(IsolationLevel.READ_UNCOMMITTED, None) is False
    with pytest.raises(ValueError, match="needs aborted_transactions"):
        decode_records(b"", isolation_level=IsolationLevel.READ_COMMITTED)
    assert list(decode_records(b"", isolation_level=IsolationLevel.READ_UNCOMMITTED)) == []


def test_admin_refuses_an_unknown_isolation_level_before_sending_anything():
    class NoRequests:
        conf = {"request.timeout.ms": 1000, "default.api.timeout.ms": 1000}

        def __getattr__(self, name):
            raise AssertionError(f"the client was used ({name}) for a bad argument")
    a = Admin.over(NoRequests())
    # before, anything but "read_committed" / 1 silently read uncommitted
    with pytest.raises(ConfigError, match=r"^isolation_level: .*'read-committed'"):
        a.list_offsets({("t", 0): "latest"}, isolation_level="read-committed")
    with pytest.raises(ConfigError, match=r"^isolation_level: "):
        a.high_watermarks({("t", 0): 0}, isolation_level="committed")


# -- the settings table

def test_every_setting_has_a_one_line_meaning_and_a_range():
    for kind in [*KINDS, "all"]:
        rows = describe(kind)
        assert rows
        for name, default, accepts, meaning in rows:
            assert meaning.strip() and "\n" not in meaning and meaning.endswith("."), name
            assert accepts.strip() and default.strip(), name
    assert [row[0] for row in describe("producer")] == list(PRODUCER)
    assert {row[0] for row in describe("all")} == set(CONSUMER) | set(PRODUCER) | set(ADMIN) | set(SHARE_CONSUMER)
    # the share consumer's section lists the consumer settings it takes as well as its own
    assert {row[0] for row in describe("share_consumer")} == set(SHARE_CONSUMER)
    with pytest.raises(ConfigError, match="kind"):
        describe("broker")


def test_printed_ranges_are_what_the_checks_accept():
    for table in KINDS.values():
        for name, setting in table.items():
            check = setting.check
            assert isinstance(check, Check), name
            if setting.default is not None:        # every default passes its own check
                assert check(name, setting.default) == setting.default, name
            if check.lo is not None:
                assert check(name, check.lo) == check.lo
                with pytest.raises(ConfigError, match=f"^{name}: "):
                    check(name, check.lo - 1)
            if check.hi is not None:
                with pytest.raises(ConfigError, match=f"^{name}: "):
                    check(name, check.hi + 1)
            for option in check.options:            # every option printed is accepted ...
                check(name, option)
            if check.options:                       # ... and a value not printed is not
                with pytest.raises(ConfigError, match=f"^{name}: "):
                    check(name, "no-such-option")
            try:                                    # "or unset" is printed exactly when None is accepted
                takes_none = check(name, None) is None
            except ConfigError:
                takes_none = False
            assert takes_none == check.optional, name


def test_defaults_that_differ_from_kafka_say_so():
    meaning = {name: row for name, *row in describe("producer")}
    assert meaning["batch.size"][0] == "524288" and "16384" in meaning["batch.size"][2]
    assert "KIP-782" in meaning["batch.size"][2]
    assert meaning["linger.ms"][0] == "5" and "Kafka 4.0" in meaning["linger.ms"][2]
    assert meaning["acks"][0] == "all" and meaning["enable.idempotence"][0] == "(on)"
    consumer = {name: row for name, *row in describe("consumer")}
    assert consumer["isolation.level"][:2] == ["read_uncommitted", "read_uncommitted, read_committed"]
    assert consumer["max.poll.records"][1] == "int >= 1"
    # the producer's own default of a shared setting is listed with the producer
    assert meaning["allow.auto.create.topics"][0] == "true" and COMMON["allow.auto.create.topics"].default is False
    assert any(r[0] == "allow.auto.create.topics" for r in describe("all")[len(COMMON):])


def test_documentation_settings_page_is_the_generated_markdown():
    # the page asks for the table, which docs/_hooks.py generates when the site is built
    assert "<!-- generated: client-settings -->" in (DOCS / "reference" / "settings.md").read_text()
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "_hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    assert hooks.client_settings() == markdown("all").replace("[", "\\[")


def test_markdown_has_a_table_row_per_setting_and_escapes_cells():
    md = markdown("consumer")
    rows = [line for line in md.splitlines() if line.startswith("| `")]
    assert len(rows) == len(CONSUMER)
    assert all(line.count(" | ") == 3 for line in rows)
    assert "ssl.\\*file" in md and "ssl.*file" not in md


def test_command_line_prints_the_table_without_warnings():
    cmd = [sys.executable, "-m", "kafkacodec.client.config"]
    out = subprocess.run(cmd + ["--kind", "producer"], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout == text("producer") and "batch.size" in out.stdout
    out = subprocess.run(cmd + ["--markdown"], capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr, out.stdout) == (0, "", markdown("all"))
    out = subprocess.run(cmd + ["--kind", "broker"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--kind" in out.stderr
