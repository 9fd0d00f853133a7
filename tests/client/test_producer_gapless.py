"""enable.gapless.guarantee: a numbered batch that fails for good stops the idempotent
producer (GaplessGuaranteeError; the face's fatal _GAPLESS_GUARANTEE) where without it the
producer bumps its epoch and carries on."""
import pytest

import kafkacodec.compat.confluent_kafka as ck
from kafkacodec.client import Producer
from kafkacodec.client import errors as E

_peers = pytest.importorskip("_peers")

PRODUCE = 0
INVALID_RECORD = 87  # not retriable: the batch fails for good
OUT_OF_ORDER_SEQUENCE_NUMBER = 45


def _conf(bootstrap, gapless):
    return {"bootstrap.servers": bootstrap, "enable.idempotence": True, "enable.gapless.guarantee": gapless,
            "linger.ms": 0, "max.in.flight.requests.per.connection": 1, "delivery.timeout.ms": 10000}


def _one_batch_refused(bootstrap, producer, code):
    producer.send("t", b"before").get(10)
    _peers.mock_fault(bootstrap, "errors", PRODUCE, code)
    with pytest.raises(E.BrokerResponseError):
        producer.send("t", b"refused").get(10)


@pytest.mark.parametrize("code", [INVALID_RECORD, OUT_OF_ORDER_SEQUENCE_NUMBER])
def test_a_failed_batch_stops_the_gapless_producer(mock1, code):
    _peers.create_topic(mock1, "t", 1)
    with Producer(_conf(mock1, True)) as p:
        _one_batch_refused(mock1, p, code)
        with pytest.raises(E.GaplessGuaranteeError, match="enable.gapless.guarantee"):
            p.send("t", b"after").get(10)


def test_without_the_guarantee_the_producer_carries_on(mock1):
    _peers.create_topic(mock1, "t", 1)
    with Producer(_conf(mock1, False)) as p:
        _one_batch_refused(mock1, p, INVALID_RECORD)
        p.send("t", b"after").get(10)


def test_the_guarantee_needs_idempotence():
    with pytest.raises(E.ConfigError, match="enable.gapless.guarantee"):
        Producer({"bootstrap.servers": "127.0.0.1:9", "enable.idempotence": False,
                  "enable.gapless.guarantee": True})


def test_the_face_reports_a_fatal_gapless_guarantee_error(mock1):
    _peers.create_topic(mock1, "t", 1)
    reports = []
    p = ck.Producer({"bootstrap.servers": mock1, "enable.idempotence": True, "enable.gapless.guarantee": True,
                     "linger.ms": 0, "max.in.flight.requests.per.connection": 1})
    try:
        p.produce("t", b"before", on_delivery=lambda err, msg: reports.append(err))
        p.flush(10)
        _peers.mock_fault(mock1, "errors", PRODUCE, INVALID_RECORD)
        p.produce("t", b"refused", on_delivery=lambda err, msg: reports.append(err))
        p.flush(10)
        try:
            p.produce("t", b"after", on_delivery=lambda err, msg: reports.append(err))
            p.flush(10)
        except ck.KafkaException as exc:
            reports.append(exc.args[0])
    finally:
        p.flush(1)
    assert reports[0] is None and reports[1].code() == INVALID_RECORD
    assert reports[2].code() == ck.KafkaError._GAPLESS_GUARANTEE and reports[2].fatal()
