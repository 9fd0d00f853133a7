"""delivery.timeout.ms holds whatever the broker does: a broker that goes silent
(every answer delayed far past the timeouts, the connection left open) fails each
record within delivery.timeout.ms, also with idempotence, where a failed numbered
batch makes the producer bump its epoch and the bump itself meets the silence."""
import asyncio
import time

import pytest

import _peers
from kafkacodec.client import AsyncProducer, Producer
from kafkacodec.client import errors as E

DELIVERY_MS = 6000
REQUEST_MS = 4500
SILENCE_MS = 60000
SLACK = 1.5  # seconds: scheduling and the I/O loop's wake-up after a deadline (below request.timeout.ms)


def _conf(bootstrap, idempotence):
    return {"bootstrap.servers": bootstrap, "delivery.timeout.ms": DELIVERY_MS,
            "request.timeout.ms": REQUEST_MS, "enable.idempotence": idempotence, "linger.ms": 5}


def _outcome(handle, t0):
    try:
        handle.get(DELIVERY_MS / 1000 * 4)
    except E.KafkaError as e:
        return time.monotonic() - t0, e
    return time.monotonic() - t0, None


@pytest.mark.parametrize("idempotence", [True, False], ids=["idempotent", "plain"])
def test_a_record_queued_behind_one_in_flight_fails_within_delivery_timeout(mock1, idempotence):
    _peers.create_topic(mock1, "t", 1)
    with Producer(_conf(mock1, idempotence)) as p:
        p.send("t", b"before").get(10)
        _peers.mock_fault(mock1, "rtt", 1, SILENCE_MS)
        t0 = time.monotonic()
        first = p.send("t", b"in flight")
        time.sleep(1.0)
        t_second = time.monotonic()
        second = p.send("t", b"queued behind it")
        took_first, err_first = _outcome(first, t0)
        took_second, err_second = _outcome(second, t_second)
        _peers.mock_fault(mock1, "rtt", 1, 0)
    assert err_first is not None and err_second is not None
    assert took_first < DELIVERY_MS / 1000 + SLACK, took_first
    assert took_second < DELIVERY_MS / 1000 + SLACK, took_second
    assert isinstance(err_second, E.KafkaTimeoutError)
    assert "delivery.timeout.ms" in str(err_second)


def test_flush_returns_within_delivery_timeout_while_the_broker_is_silent(mock1):
    _peers.create_topic(mock1, "t", 2)
    p = Producer(_conf(mock1, True))
    try:
        p.send("t", b"before", partition=0).get(10)
        p.send("t", b"before", partition=1).get(10)
        _peers.mock_fault(mock1, "rtt", 1, SILENCE_MS)
        t0 = time.monotonic()
        handles = []
        for i in range(20):
            handles.append(p.send("t", b"%d" % i, partition=i % 2))
            time.sleep(0.05)
        p.flush(DELIVERY_MS / 1000 * 4)
        took = time.monotonic() - t0
        assert took < DELIVERY_MS / 1000 + 1 + SLACK, took
        assert all(h.done() for h in handles)
        _peers.mock_fault(mock1, "rtt", 1, 0)
    finally:
        p.close(5)


def test_async_send_returns_within_delivery_timeout_while_the_broker_is_silent(mock1):
    _peers.create_topic(mock1, "t", 1)

    async def main():
        producer = AsyncProducer(_conf(mock1, True))
        try:
            await producer.send("t", b"before")
            _peers.mock_fault(mock1, "rtt", 1, SILENCE_MS)
            first = asyncio.ensure_future(producer.send("t", b"in flight"))
            await asyncio.sleep(1.0)
            t0 = time.monotonic()
            with pytest.raises(E.KafkaError):
                await asyncio.wait_for(producer.send("t", b"queued"), DELIVERY_MS / 1000 * 4)
            took = time.monotonic() - t0
            with pytest.raises(E.KafkaError):
                await first
            _peers.mock_fault(mock1, "rtt", 1, 0)
            return took
        finally:
            await producer.close(5)

    took = asyncio.run(main())
    assert took < DELIVERY_MS / 1000 + SLACK, took
