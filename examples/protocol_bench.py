"""Protocol codec timings against kafka-python 3's protocol classes, in one process.

    python examples/protocol_bench.py

1. decode a MetadataResponse v12 of 1,000 topics x 10 partitions
2. encode a ProduceRequest v9 of 100 partitions (1 KiB of records each)
3. decode a FetchResponse v12 whose partitions carry 1 MiB vs 64 MiB of records
"""
import gc
import pathlib
import sys
import timeit
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # run from a checkout

from kafkacodec.protocol import SPECS, accelerated, decode_message, encode_message
from kafkacodec.protocol import messages as m


def best(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def best_kept(fn, number):
    """Per-call time with every result kept alive, so freeing them is not counted."""
    times = []
    gc.disable()  # as timeit does
    try:
        for _ in range(5):
            keep = []
            t0 = timeit.default_timer()
            for _ in range(number):
                keep.append(fn())
            times.append(timeit.default_timer() - t0)
            del keep
    finally:
        gc.enable()
    return min(times) / number


def metadata_response():
    R = m.MetadataResponse
    return R(brokers=[R.MetadataResponseBroker(node_id=i, host=f"broker-{i}.example", port=9092, rack="r1")
                      for i in range(3)],
             cluster_id="cluster", controller_id=1,
             topics=[R.MetadataResponseTopic(name=f"topic-{t:04d}", topic_id=uuid.UUID(int=t + 1), partitions=[
                 R.MetadataResponsePartition(partition_index=p, leader_id=p % 3, leader_epoch=5,
                                             replica_nodes=[0, 1, 2], isr_nodes=[0, 1, 2])
                 for p in range(10)]) for t in range(1000)])


def produce_request():
    P = m.ProduceRequest
    rec = bytes(1024)
    return P(acks=-1, timeout_ms=30000, topic_data=[P.TopicProduceData(name=f"topic-{t}", partition_data=[
        P.PartitionProduceData(index=p, records=rec) for p in range(10)]) for t in range(10)])


def fetch_response(size):
    F = m.FetchResponse
    rec = bytes(size)
    return F(responses=[F.FetchableTopicResponse(topic="t", partitions=[
        F.PartitionData(partition_index=p, high_watermark=100, records=rec) for p in range(4)])])


def main():
    results = {}
    md = metadata_response()
    md_raw = encode_message(md, 12)
    md_decode = lambda: decode_message(SPECS["MetadataResponse"], 12, md_raw)  # noqa: E731
    ours = best(md_decode, 5)
    ours_kept = best_kept(md_decode, 5)
    pr = produce_request()
    pr_raw = encode_message(pr, 9)
    ours_enc = best(lambda: encode_message(pr, 9), 200)
    small = encode_message(fetch_response(1 << 20), 12)
    big = encode_message(fetch_response(64 << 20), 12)
    f_small = best(lambda: decode_message(SPECS["FetchResponse"], 12, small), 200)
    f_big = best(lambda: decode_message(SPECS["FetchResponse"], 12, big), 200)
    print(f"kafkacodec (compiled={accelerated})")
    print(f"  Metadata v12 1000x10 decode: {ours * 1e3:8.2f} ms (results kept alive: {ours_kept * 1e3:.2f} ms)")
    print(f"  Produce v9 100 partitions encode: {ours_enc * 1e6:8.1f} us")
    print(f"  Fetch v12 decode, 4 x 1 MiB: {f_small * 1e6:8.1f} us; 4 x 64 MiB: {f_big * 1e6:8.1f} us "
          f"(ratio {f_big / f_small:.2f})")
    results.update(md=ours, pr=ours_enc)
    try:
        from kafka.protocol.metadata import MetadataResponse as KMd
        from kafka.protocol.producer import ProduceRequest as KPr
    except ImportError:
        print("kafka-python 3 not installed; no comparison")
        return 0
    k_md = best(lambda: KMd.decode(md_raw, version=12), 1)
    k_md_kept = best_kept(lambda: KMd.decode(md_raw, version=12), 1)
    assert KMd.decode(md_raw, version=12).encode() == md_raw
    k_obj = KPr.decode(pr_raw, version=9)
    assert k_obj.encode() == pr_raw
    k_enc = best(lambda: k_obj.encode(), 20)
    print("kafka-python", __import__("kafka").__version__)
    print(f"  Metadata v12 1000x10 decode: {k_md * 1e3:8.2f} ms  -> kafkacodec {k_md / ours:5.1f}x faster "
          f"(results kept alive: {k_md_kept * 1e3:.2f} ms -> {k_md_kept / ours_kept:.1f}x)")
    print(f"  Produce v9 100 partitions encode: {k_enc * 1e6:8.1f} us  -> kafkacodec {k_enc / ours_enc:5.1f}x faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
