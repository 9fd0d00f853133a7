"""Protocol codec against kafka-python 3's protocol classes, in one process run.

    python -m bench.protocol_bench            # full sizes, prints times and ratios
    python -m bench.protocol_bench --quick    # tiny sizes, for a smoke test (not a measurement)

1. decode a MetadataResponse v12 of 1,000 topics x 10 partitions   (target: >= 10x kafka-python)
2. encode a ProduceRequest v9 of 100 partitions, 1 KiB of records each (target: >= 10x kafka-python)
3. decode a FetchResponse v12 whose partitions carry 1 MiB and 64 MiB of records each:
   the two must cost the same within 1.2x, because ``records`` decode to views of the frame.

Both libraries decode the very same bytes (kafkacodec's encoding, which kafka-python
re-encodes byte for byte: checked below) and encode equal messages.  Times are the best
per-call CPU time of several rounds, the two libraries interleaved round by round; the
garbage collector is off while timing, as in ``timeit``, and results are dropped as they come.
"""
import argparse
import gc
import sys
import time
import uuid

from kafkacodec.protocol import SPECS, accelerated, decode_message, encode_message
from kafkacodec.protocol import messages as m

TARGET_SPEEDUP = 10.0
TARGET_FLAT = 1.2


def best(fn, number, repeat=5):
    """Best per-call CPU time of `repeat` runs of `number` calls; results are dropped as they come.

    CPU time of this process rather than wall time: on a shared machine the
    scheduler's pauses would otherwise land on one side of a comparison.
    """
    return compare([(fn, number)], repeat)[0]


def compare(cases, repeat=5):
    """Best per-call CPU time for each (fn, number) case, the cases interleaved round by round."""
    times = [float("inf")] * len(cases)
    clock = time.process_time
    gc.disable()
    try:
        for _ in range(repeat):
            for i, (fn, number) in enumerate(cases):
                fn()  # warm-up: the previous case left the caches full of its own data
                t0 = clock()
                for _ in range(number):
                    fn()
                times[i] = min(times[i], (clock() - t0) / number)
    finally:
        gc.enable()
    return times


def metadata_response(topics, partitions):
    R = m.MetadataResponse
    return R(brokers=[R.MetadataResponseBroker(node_id=i, host=f"broker-{i}.example", port=9092, rack="r1")
                      for i in range(3)],
             cluster_id="cluster", controller_id=1,
             topics=[R.MetadataResponseTopic(name=f"topic-{t:04d}", topic_id=uuid.UUID(int=t + 1), partitions=[
                 R.MetadataResponsePartition(partition_index=p, leader_id=p % 3, leader_epoch=5,
                                             replica_nodes=[0, 1, 2], isr_nodes=[0, 1, 2])
                 for p in range(partitions)]) for t in range(topics)])


def produce_request(topics, partitions, record_bytes):
    P = m.ProduceRequest
    rec = bytes(record_bytes)
    return P(acks=-1, timeout_ms=30000, topic_data=[P.TopicProduceData(name=f"topic-{t}", partition_data=[
        P.PartitionProduceData(index=p, records=rec) for p in range(partitions)]) for t in range(topics)])


def fetch_response(partitions, record_bytes):
    F = m.FetchResponse
    rec = bytes(record_bytes)
    return F(responses=[F.FetchableTopicResponse(topic="t", partitions=[
        F.PartitionData(partition_index=p, high_watermark=100, records=rec) for p in range(partitions)])])


def run(quick=False, out=print):
    """Run the three measurements; return a dict of figures (seconds and ratios)."""
    if quick:
        md_shape, pr_shape, fetch_sizes, n = (20, 3), (2, 3, 64), (1 << 10, 16 << 10), 1
    else:
        md_shape, pr_shape, fetch_sizes, n = (1000, 10), (10, 10, 1024), (1 << 20, 64 << 20), None
    res = {"accelerated": accelerated}

    try:
        import kafka
        from kafka.protocol.consumer import FetchResponse as KFetch
        from kafka.protocol.metadata import MetadataResponse as KMetadata
        from kafka.protocol.producer import ProduceRequest as KProduce
    except ImportError:
        kafka = None
    repeat = 1 if quick else 25  # many short rounds: the best of them is the least disturbed
    # Each workload on its own, its inputs built just before it; the two sides of a
    # comparison are interleaved round by round.

    md_raw = encode_message(metadata_response(*md_shape), 12)
    md_spec = SPECS["MetadataResponse"]
    md_ours = (lambda: decode_message(md_spec, 12, md_raw), n or 10)
    if kafka is None:
        res["metadata_decode"], = compare([md_ours], repeat)
    else:
        # the same bytes mean the same messages: kafka-python re-encodes ours unchanged
        assert KMetadata.decode(md_raw, version=12).encode() == md_raw
        res["metadata_decode"], res["kp_metadata_decode"] = compare(
            [md_ours, (lambda: KMetadata.decode(md_raw, version=12), n or 1)], repeat)
    del md_raw

    pr = produce_request(*pr_shape)
    pr_ours = (lambda: encode_message(pr, 9), n or 200)
    if kafka is None:
        res["produce_encode"], = compare([pr_ours], repeat)
    else:
        pr_raw = encode_message(pr, 9)
        k_pr = KProduce.decode(pr_raw, version=9)
        assert k_pr.encode() == pr_raw
        res["produce_encode"], res["kp_produce_encode"] = compare([pr_ours, (k_pr.encode, n or 20)], repeat)
    del pr

    f_spec = SPECS["FetchResponse"]
    small = encode_message(fetch_response(2, fetch_sizes[0]), 12)
    big = encode_message(fetch_response(2, fetch_sizes[1]), 12)
    view = decode_message(f_spec, 12, big).responses[0].partitions[0].records
    assert isinstance(view, memoryview) and view.obj is big  # a view of the frame, no copy
    del view
    res["fetch_decode_small"], res["fetch_decode_big"] = compare(
        [(lambda: decode_message(f_spec, 12, small), n or 1000),
         (lambda: decode_message(f_spec, 12, big), n or 1000)], repeat)
    if kafka is not None:
        res["kp_fetch_decode_small"], res["kp_fetch_decode_big"] = compare(
            [(lambda: KFetch.decode(small, version=12), n or 50), (lambda: KFetch.decode(big, version=12), n or 2)],
            1 if quick else 3)
    del small, big
    res["fetch_big_over_small"] = res["fetch_decode_big"] / res["fetch_decode_small"]

    mib = lambda b: f"{b / (1 << 20):g} MiB"  # noqa: E731
    out(f"kafkacodec (compiled executor: {accelerated})")
    out(f"  Metadata v12 decode, {md_shape[0]} topics x {md_shape[1]} partitions: "
        f"{res['metadata_decode'] * 1e3:9.3f} ms")
    out(f"  Produce v9 encode, {pr_shape[0] * pr_shape[1]} partitions x {pr_shape[2]} B:    "
        f"{res['produce_encode'] * 1e6:9.1f} us")
    out(f"  Fetch v12 decode, 2 partitions x {mib(fetch_sizes[0])}: {res['fetch_decode_small'] * 1e6:8.2f} us; "
          f"x {mib(fetch_sizes[1])}: {res['fetch_decode_big'] * 1e6:8.2f} us "
          f"-> ratio {res['fetch_big_over_small']:.2f} (target <= {TARGET_FLAT})")

    if kafka is None:
        out("kafka-python 3 is not installed: no comparison")
        return res
    res["kafka_python"] = kafka.__version__
    res["metadata_speedup"] = res["kp_metadata_decode"] / res["metadata_decode"]
    res["produce_speedup"] = res["kp_produce_encode"] / res["produce_encode"]
    res["kp_fetch_big_over_small"] = res["kp_fetch_decode_big"] / res["kp_fetch_decode_small"]
    out(f"kafka-python {kafka.__version__}")
    out(f"  Metadata v12 decode: {res['kp_metadata_decode'] * 1e3:9.3f} ms -> kafkacodec "
        f"{res['metadata_speedup']:5.1f}x faster (target >= {TARGET_SPEEDUP:g}x)")
    out(f"  Produce v9 encode:   {res['kp_produce_encode'] * 1e6:9.1f} us -> kafkacodec "
        f"{res['produce_speedup']:5.1f}x faster (target >= {TARGET_SPEEDUP:g}x)")
    out(f"  Fetch v12 decode: {res['kp_fetch_decode_small'] * 1e6:.2f} us vs {res['kp_fetch_decode_big'] * 1e6:.2f} us "
        f"-> ratio {res['kp_fetch_big_over_small']:.2f} (for reference)")
    if not quick:
        met = (res["metadata_speedup"] >= TARGET_SPEEDUP and res["produce_speedup"] >= TARGET_SPEEDUP
               and res["fetch_big_over_small"] <= TARGET_FLAT)
        out("targets " + ("met" if met else "NOT met"))
        res["targets_met"] = met
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny inputs, one call each (smoke test)")
    args = ap.parse_args(argv)
    run(quick=args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
