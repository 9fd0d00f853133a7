#!/usr/bin/env python
"""An admin program in the shape of confluent-kafka-python's examples/adminapi.py: one
subcommand per AdminClient call, printing what comes back (errors by their code's name).

    admin_tool.py <bootstrap.servers> <command> <args>...

    groups                                   list_groups()
    offsets <isolation> (<topic> <partition> <EARLIEST|LATEST|MAX_TIMESTAMP|ms>)...
    group_offsets <group> [<topic> <partition>]...
    describe_groups <include_authorized_operations> <group>...
    delete_records <topic> <partition> <offset>
    acls <resource type> <name|None>          describe_acls, then delete_acls, of a filter
    create_acl <topic> <principal>
    scram [<user>...]                         describe_user_scram_credentials
    set_scram <user> <password> [<delete user>]
    elect <PREFERRED|UNCLEAN> [<topic> <partition>]...
    cluster                                   describe_cluster with authorized operations
"""
import sys

from confluent_kafka import (ConsumerGroupTopicPartitions, ElectionType, IsolationLevel, KafkaException,
                             TopicPartition)
from confluent_kafka.admin import (AclBinding, AclBindingFilter, AclOperation, AclPermissionType, AdminClient,
                                   OffsetSpec, ResourcePatternType, ResourceType, ScramCredentialInfo,
                                   ScramMechanism, UserScramCredentialDeletion, UserScramCredentialUpsertion)


def failed(e):
    return "failed: {}".format(e.args[0].name() if isinstance(e, KafkaException) else type(e).__name__)


def groups(a):
    listed = a.list_groups(timeout=10)
    print("{} groups".format(len(listed)))
    for g in sorted(listed, key=lambda g: g.id):
        print("  {} state={} protocol_type={} protocol={} members={} broker={} error={}".format(
            g, g.state, g.protocol_type, g.protocol, len(g.members), g.broker.id, g.error))


def offsets(a, isolation, *args):
    specs = {}
    for topic, partition, spec in zip(args[0::3], args[1::3], args[2::3]):
        if spec in ("EARLIEST", "LATEST", "MAX_TIMESTAMP"):
            offset_spec = getattr(OffsetSpec, spec.lower())()
        else:
            offset_spec = OffsetSpec.for_timestamp(int(spec))
        specs[TopicPartition(topic, int(partition))] = offset_spec
    for tp, f in a.list_offsets(specs, isolation_level=IsolationLevel[isolation], request_timeout=10).items():
        try:
            r = f.result()
            print("{} [{}] spec {}: offset {} timestamp {}".format(tp.topic, tp.partition, tp.offset, r.offset,
                                                                   r.timestamp if r.offset >= 0 else "-"))
        except KafkaException as e:
            print("{} [{}]: {}".format(tp.topic, tp.partition, failed(e)))


def group_offsets(a, group, *args):
    parts = [TopicPartition(t, int(p)) for t, p in zip(args[0::2], args[1::2])] or None
    for g, f in a.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group, parts)]).items():
        try:
            got = f.result()
            print("group {}: {} partitions".format(g, len(got.topic_partitions)))
            for tp in sorted(got.topic_partitions, key=lambda tp: (tp.topic, tp.partition)):
                print("  {} [{}] @ {}".format(tp.topic, tp.partition, tp.offset))
        except KafkaException as e:
            print("group {}: {}".format(g, failed(e)))


def describe_groups(a, include, *names):
    include = bool(int(include))
    for g, f in a.describe_consumer_groups(list(names), include_authorized_operations=include,
                                           request_timeout=10).items():
        try:
            d = f.result()
            print("{}: state={} type={} simple={} assignor={} members={} coordinator={} ops={}".format(
                g, d.state, d.type, d.is_simple_consumer_group, d.partition_assignor, len(d.members),
                d.coordinator.id, d.authorized_operations))
        except KafkaException as e:
            print("{}: {}".format(g, failed(e)))


def delete_records(a, topic, partition, offset):
    for tp, f in a.delete_records([TopicPartition(topic, int(partition), int(offset))]).items():
        try:
            print("{} [{}] before {}: low watermark {}".format(tp.topic, tp.partition, tp.offset,
                                                               f.result().low_watermark))
        except KafkaException as e:
            print("{} [{}] before {}: {}".format(tp.topic, tp.partition, tp.offset, failed(e)))


def acls(a, restype, name):
    flt = AclBindingFilter(ResourceType[restype], None if name == "None" else name, ResourcePatternType.ANY,
                           None, None, AclOperation.ANY, AclPermissionType.ANY)
    try:
        print("described: {}".format(sorted(a.describe_acls(flt, request_timeout=10).result())))
    except KafkaException as e:
        print("describe {}".format(failed(e)))
    for f, fut in a.delete_acls([flt], request_timeout=10).items():
        try:
            print("deleted: {}".format(sorted(fut.result())))
        except KafkaException as e:
            print("delete {}: {}".format(f, failed(e)))


def create_acl(a, topic, principal):
    acl = AclBinding(ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, principal, "*", AclOperation.READ,
                     AclPermissionType.ALLOW)
    for b, f in a.create_acls([acl], request_timeout=10).items():
        try:
            print("created {}: {}".format(b, f.result()))
        except KafkaException as e:
            print("create {}: {}".format(b, failed(e)))


def scram(a, *users):
    if not users:
        try:
            print("every user: {}".format(sorted(a.describe_user_scram_credentials().result())))
        except KafkaException as e:
            print("every user: {}".format(failed(e)))
        return
    for user, f in a.describe_user_scram_credentials(list(users)).items():
        try:
            d = f.result()
            print("{}: {}".format(user, [(c.mechanism.name, c.iterations) for c in d.scram_credential_infos]))
        except Exception as e:  # confluent-kafka fails them with a RuntimeError when the broker leaves users out
            print("{}: {}".format(user, failed(e)))


def set_scram(a, user, password, *deleted):
    changes = [UserScramCredentialUpsertion(user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096),
                                            password.encode())]
    changes += [UserScramCredentialDeletion(u, ScramMechanism.SCRAM_SHA_512) for u in deleted]
    for u, f in sorted(a.alter_user_scram_credentials(changes).items()):
        try:
            print("{}: {}".format(u, f.result()))
        except KafkaException as e:
            print("{}: {}".format(u, failed(e)))


def elect(a, election, *args):
    parts = [TopicPartition(t, int(p)) for t, p in zip(args[0::2], args[1::2])] or None
    try:
        got = a.elect_leaders(ElectionType[election], parts).result()
        for tp, err in sorted(got.items()):
            print("{} [{}]: {}".format(tp.topic, tp.partition, err))
    except KafkaException as e:
        print("elect: {}".format(failed(e)))


def cluster(a):
    try:
        c = a.describe_cluster(request_timeout=10, include_authorized_operations=True).result()
        print("cluster {} controller {} nodes {} ops {}".format(
            c.cluster_id, c.controller.id if c.controller else None, len(c.nodes), c.authorized_operations))
    except KafkaException as e:
        print("cluster: {}".format(failed(e)))


if __name__ == "__main__":
    commands = {"groups": groups, "offsets": offsets, "group_offsets": group_offsets,
                "describe_groups": describe_groups, "delete_records": delete_records, "acls": acls,
                "create_acl": create_acl, "scram": scram, "set_scram": set_scram, "elect": elect,
                "cluster": cluster}
    with AdminClient({"bootstrap.servers": sys.argv[1]}) as admin:
        commands[sys.argv[2]](admin, *sys.argv[3:])
