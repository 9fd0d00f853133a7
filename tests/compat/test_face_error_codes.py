"""The face's error codes: librdkafka's local codes, and Kafka's broker codes taken from
protocol.errors.ErrorCode under librdkafka's names (a rename map, not a second table)."""
import pytest

from kafkacodec.compat.confluent_kafka import KafkaError
from kafkacodec.compat.confluent_kafka import _errors
from kafkacodec.protocol.errors import ErrorCode


def test_broker_codes_are_kafkas_under_librdkafkas_names():
    assert set(_errors._RDKAFKA_NAMES) <= set(ErrorCode.__members__)  # a renamed Kafka name is caught here
    assert _errors._NOT_IN_RDKAFKA <= set(ErrorCode)
    broker = {name: code for name, code in _errors.CODES.items() if not name.startswith("_")}
    assert sorted(broker.values()) == [code for code in ErrorCode if code not in _errors._NOT_IN_RDKAFKA]
    assert broker["NOT_LEADER_FOR_PARTITION"] == ErrorCode.NOT_LEADER_OR_FOLLOWER == KafkaError.NOT_LEADER_FOR_PARTITION
    assert broker["SHARE_SESSION_LIMIT_REACHED"] == ErrorCode.SHARE_SESSION_LIMIT_REACHED
    assert all(type(code) is int for code in _errors.CODES.values())
    assert KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS).name() == "TOPIC_ALREADY_EXISTS"
    assert KafkaError(6).str() == "Broker: " + ErrorCode.NOT_LEADER_OR_FOLLOWER.description.rstrip(".")


def test_codes_match_confluent_kafka():
    ck = pytest.importorskip("confluent_kafka")
    theirs = {name: value for name, value in vars(ck.KafkaError).items()
              if isinstance(value, int) and name.lstrip("_")[:1].isupper()}
    assert _errors.CODES.items() <= theirs.items()  # each name the face has, with librdkafka's value
    known = set(ErrorCode) | {value for name, value in _errors.CODES.items() if name.startswith("_")}
    assert {name for name, value in theirs.items() if value in known} == set(_errors.CODES)
