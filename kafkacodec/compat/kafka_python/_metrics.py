"""kafka-python's ``metrics()`` layout, ``{group: {metric name: value}}``, read from the client's
statistics document (``kafkacodec.client.stats``).

The groups and names are kafka-python's: ``producer-metrics`` / ``consumer-metrics`` (the
connections), ``<kind>-node-metrics.node-<id>`` per connection (``node-bootstrap-<n>``,
``node-coordinator-<id>``), ``producer-topic-metrics.<topic>``, ``consumer-fetch-manager-metrics``,
``consumer-coordinator-metrics`` and ``kafka-metrics-count``.  What differs:

- a ``-rate`` is per second since the previous ``metrics()`` call of the same client (the first
  call: since the client started), where kafka-python keeps a 30-second sliding window;
- latencies (ms) are the round trips the document's window holds, of every request;
- only metrics the document answers are present (no compression rate, queue time, retry or
  error rate, join or sync time).
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

__all__ = ["MetricsView"]

Groups = dict[str, dict[str, float]]


def _node_name(broker: dict[str, Any], bootstraps: Iterator[int]) -> str:
    if broker["source"] == "configured":
        return f"node-bootstrap-{next(bootstraps)}"
    if broker["source"] == "logical":
        return f"node-coordinator-{broker['nodeid']}"
    return f"node-{broker['nodeid']}"


def _latency(brokers: list[dict[str, Any]]) -> dict[str, float]:
    """request-latency-avg/-max in ms over the brokers' round-trip windows (µs)."""
    windows = [b["rtt"] for b in brokers if b["rtt"].get("cnt")]
    if not windows:
        return {}
    count = sum(w["cnt"] for w in windows)
    return {"request-latency-avg": sum(w["avg"] * w["cnt"] for w in windows) / count / 1000.0,
            "request-latency-max": max(w["max"] for w in windows) / 1000.0}


def _requests(brokers: list[dict[str, Any]], api: str) -> int:
    return sum(b["req"].get(api, 0) for b in brokers)


class MetricsView:
    """Turns successive statistics documents of one client into kafka-python's metrics."""

    def __init__(self, kind: str) -> None:
        self._kind = kind           # "producer" or "consumer"
        self._age = 0               # µs since the client started, at the previous call
        self._counters: dict[tuple[str, str], float] = {}

    def __call__(self, doc: dict[str, Any]) -> Groups:
        seconds: float = max(doc["age"] - self._age, 1) / 1e6
        previous, self._counters = self._counters, {}
        self._age = doc["age"]

        def rate(group: str, name: str, count: float) -> float:
            self._counters[(group, name)] = count
            return (count - previous.get((group, name), 0)) / seconds

        def ratio(group: str, name: str, total: float, over: float, over_name: str) -> float:
            """Δtotal / Δover since the previous call (0.0 when over did not change)."""
            d_total = total - previous.get((group, name), 0)
            d_over = over - previous.get((group, over_name), 0)
            self._counters[(group, name)] = total
            self._counters[(group, over_name)] = over
            return d_total / d_over if d_over > 0 else 0.0

        kind = self._kind
        brokers = list(doc["brokers"].values())
        out: Groups = {}
        main = f"{kind}-metrics"
        out[main] = m = {
            "connection-count": float(sum(b["state"] == "UP" for b in brokers)),
            "connection-creation-rate": rate(main, "connects", sum(b["connects"] for b in brokers)),
            "connection-close-rate": rate(main, "disconnects", sum(b["disconnects"] for b in brokers)),
            "network-io-rate": rate(main, "io", doc["tx"] + doc["rx"]),
            "outgoing-byte-rate": rate(main, "tx_bytes", doc["tx_bytes"]),
            "incoming-byte-rate": rate(main, "rx_bytes", doc["rx_bytes"]),
            "request-rate": rate(main, "tx", doc["tx"]),
            "response-rate": rate(main, "rx", doc["rx"]),
            "request-size-avg": ratio(main, "tx_bytes/tx", doc["tx_bytes"], doc["tx"], "tx"),
            **_latency(brokers)}
        bootstraps = itertools.count()
        for b in brokers:
            group = f"{kind}-node-metrics.{_node_name(b, bootstraps)}"
            out[group] = {
                "outgoing-byte-rate": rate(group, "txbytes", b["txbytes"]),
                "incoming-byte-rate": rate(group, "rxbytes", b["rxbytes"]),
                "request-rate": rate(group, "tx", b["tx"]),
                "response-rate": rate(group, "rx", b["rx"]),
                "request-size-avg": ratio(group, "txbytes/tx", b["txbytes"], b["tx"], "tx"),
                **_latency([b])}
        if kind == "producer":
            produced = _requests(brokers, "Produce")
            m["requests-in-flight"] = float(sum(b["waitresp_cnt"] for b in brokers))
            m["record-send-rate"] = rate(main, "txmsgs", doc["txmsgs"])
            m["byte-rate"] = rate(main, "txmsg_bytes", doc["txmsg_bytes"])
            m["records-per-request-avg"] = ratio(main, "txmsgs/Produce", doc["txmsgs"], produced, "Produce")
            for topic, t in doc["topics"].items():
                group = f"producer-topic-metrics.{topic}"
                parts = t["partitions"].values()
                out[group] = {"record-send-rate": rate(group, "txmsgs", sum(p["txmsgs"] for p in parts)),
                              "byte-rate": rate(group, "txbytes", sum(p["txbytes"] for p in parts))}
        else:
            group = "consumer-fetch-manager-metrics"
            fetches = _requests(brokers, "Fetch")
            lags = [p["consumer_lag_stored"] for t in doc["topics"].values() for p in t["partitions"].values()
                    if p["consumer_lag_stored"] >= 0]
            out[group] = {
                "records-consumed-rate": rate(group, "rxmsgs", doc["rxmsgs"]),
                "bytes-consumed-rate": rate(group, "rxmsg_bytes", doc["rxmsg_bytes"]),
                "fetch-rate": rate(group, "Fetch", fetches),
                "records-per-request-avg": ratio(group, "rxmsgs/Fetch", doc["rxmsgs"], fetches, "Fetch"),
                "fetch-size-avg": ratio(group, "rxmsg_bytes/Fetch", doc["rxmsg_bytes"], fetches, "Fetch")}
            if lags:
                out[group]["records-lag-max"] = float(max(lags))
            cgrp = doc.get("cgrp")
            if cgrp is not None:
                group = "consumer-coordinator-metrics"
                out[group] = {
                    "assigned-partitions": float(cgrp["assignment_size"]),
                    "commit-rate": rate(group, "OffsetCommit", _requests(brokers, "OffsetCommit")),
                    "heartbeat-rate": rate(group, "Heartbeat", _requests(brokers, "Heartbeat")),
                    "join-rate": rate(group, "JoinGroup", _requests(brokers, "JoinGroup")),
                    "sync-rate": rate(group, "SyncGroup", _requests(brokers, "SyncGroup"))}
        out["kafka-metrics-count"] = {"count": float(sum(len(v) for v in out.values()) + 1)}
        return out
