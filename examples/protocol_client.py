"""List a cluster's brokers, topics and partition leaders with kafkacodec's minimal protocol client.

    python examples/protocol_client.py 127.0.0.1:9092 [--lenient]

--lenient accepts bytes after a response body (librdkafka's mock cluster adds one to
some responses); by default they are an error.

The client negotiates versions with ApiVersions, then sends one Metadata request
at the highest version both sides support.
"""
import sys

from kafkacodec.protocol import errors, messages
from kafkacodec.protocol.client import KafkaConnection


def main(bootstrap, lenient=False):
    with KafkaConnection.connect(bootstrap, client_id="kafkacodec-example", strict=not lenient) as conn:
        print(f"Metadata v{conn.version_for('Metadata')}, Produce v{conn.version_for('Produce')}, "
              f"Fetch v{conn.version_for('Fetch')} negotiated")
        md = conn.request("Metadata", messages.MetadataRequest(topics=None))
    print(f"cluster {md.cluster_id}, controller {md.controller_id}")
    for b in md.brokers:
        print(f"  broker {b.node_id} at {b.host}:{b.port}")
    for t in sorted(md.topics, key=lambda t: t.name or ""):
        if t.error_code:
            print(f"  topic {t.name}: {errors.error_for(t.error_code)}")
            continue
        leaders = {p.partition_index: p.leader_id for p in t.partitions}
        print(f"  topic {t.name}: {len(leaders)} partitions, leaders {leaders}")
    return 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--lenient"]
    if len(args) != 1:
        sys.exit(__doc__)
    sys.exit(main(args[0], lenient="--lenient" in sys.argv))
