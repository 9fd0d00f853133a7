"""confluent_kafka.admin as confluent-kafka 2.16 exports it, name by name, against the face's:
the names, AdminClient's calls and the arguments they take, the enums' members and values, the
constants, and the value types built, checked, printed and compared as confluent-kafka's are."""
import inspect
import re
import types

import pytest

confluent_kafka = pytest.importorskip("confluent_kafka")
from confluent_kafka import admin as real  # noqa: E402

from kafkacodec.compat import confluent_kafka as ck  # noqa: E402
from kafkacodec.compat.confluent_kafka import admin as face  # noqa: E402

# nothing listens on the discard port: no call here reaches a broker
NOWHERE = "127.0.0.1:9"


def _public(module):
    """The names a program can import from `module`, less the modules and typing helpers it
    happens to import."""
    return {n for n, v in vars(module).items()
            if not n.startswith("_") and not isinstance(v, types.ModuleType)
            and getattr(v, "__module__", None) != "typing"}


def test_every_name_of_confluent_kafka_admin_is_in_the_face():
    assert sorted(_public(real) - _public(face)) == []


def test_election_type_is_the_top_levels():
    assert face.ElectionType is ck.ElectionType
    assert [(e.name, e.value) for e in ck.ElectionType] == [(e.name, e.value) for e in confluent_kafka.ElectionType]


@pytest.mark.parametrize("name", ["ResourceType", "ResourcePatternType", "AclOperation", "AclPermissionType",
                                  "ScramMechanism", "ConfigSource", "AlterConfigOpType", "ConsumerGroupState",
                                  "ConsumerGroupType"])
def test_enums_have_confluent_kafkas_members_and_values(name):
    ours, theirs = getattr(face, name), getattr(real, name, None) or getattr(confluent_kafka, name)
    assert [(e.name, e.value) for e in ours] == [(e.name, e.value) for e in theirs]

    def ordered(enum):  # by value where confluent-kafka's members order, else refused alike
        try:
            return [e.name for e in sorted(reversed(list(enum)))]
        except TypeError as exc:
            return str(exc).replace(enum.__name__, "E")
    assert ordered(ours) == ordered(theirs)


def test_constants_are_confluent_kafkas():
    names = [n for n in _public(real) if n.isupper()]
    assert names and {n: getattr(face, n) for n in names} == {n: getattr(real, n) for n in names}


# what each call takes besides those its docstring lists (confluent-kafka's **kwargs)
_UNDOCUMENTED = {"list_groups": ["group", "timeout"], "list_topics": ["topic", "timeout"], "cluster_id": ["timeout"]}


def test_admin_client_has_every_call_with_the_arguments_confluent_kafka_documents():
    gaps = {}
    for name, call in inspect.getmembers(real.AdminClient):
        if name.startswith("_") or not callable(call):
            continue
        ours = getattr(face.AdminClient, name, None)
        if ours is None:
            gaps[name] = "missing"
            continue
        documented = re.findall(r":param\s+(?:[\w\[\]()|, .]+\s+)?(\w+):", call.__doc__ or "")
        taken = set(inspect.signature(ours).parameters)
        missing = [p for p in documented + _UNDOCUMENTED.get(name, []) if p not in taken]
        if missing:
            gaps[name] = missing
    assert gaps == {}
    with face.AdminClient({"bootstrap.servers": NOWHERE}) as a:
        assert isinstance(a, face.AdminClient) and len(a) == 0 and a.poll(0) == 0
    assert a._closed


def _outcome(make):
    try:
        got = make()
    except Exception as exc:  # noqa: BLE001  (compared with what confluent-kafka raises)
        return type(exc).__name__, str(exc)
    return "ok", repr(got)


# (restype, name, pattern, principal, host, operation, permission): as names, looked up in each module
ACL_ARGS = [
    ("TOPIC", "t", "LITERAL", "User:a", "*", "READ", "ALLOW"),
    ("topic", "t", "prefixed", "User:a", "h", "write", "deny"),      # names in any case
    (2, "t", 3, "User:a", "*", 3, 3),                                # values
    ("ANY", "t", "LITERAL", "User:a", "*", "READ", "ALLOW"),         # ANY only in filters
    ("TOPIC", "t", "MATCH", "User:a", "*", "READ", "ALLOW"),
    ("TOPIC", None, "LITERAL", "User:a", "*", "READ", "ALLOW"),      # None only in filters
    ("TOPIC", "t", "LITERAL", 5, "*", "READ", "ALLOW"),
    ("TOPIC", "t", "LITERAL", "User:a", "*", "NOPE", "ALLOW"),
    ("UNKNOWN", None, "ANY", None, None, "ANY", "ANY"),             # UNKNOWN not in filters
    ("ANY", None, "MATCH", None, None, "ANY", "ANY"),
    ("BROKER", "kafka-cluster", "LITERAL", "User:b", "*", "CLUSTER_ACTION", "ALLOW"),
]


def _acl_args(module, args):
    enums = (module.ResourceType, None, module.ResourcePatternType, None, None, module.AclOperation,
             module.AclPermissionType)
    out = []
    for value, enum in zip(args, enums):
        # enum members given as members where the name is one, else as given (a str or an int)
        out.append(enum[value] if enum is not None and isinstance(value, str) and value in enum.__members__
                   else value)
    return out


@pytest.mark.parametrize("cls", ["AclBinding", "AclBindingFilter"])
@pytest.mark.parametrize("args", ACL_ARGS, ids=lambda a: "-".join(map(str, a)))
def test_acl_bindings_are_checked_and_printed_as_confluent_kafkas(cls, args):
    ours = _outcome(lambda: getattr(face, cls)(*_acl_args(face, args)))
    theirs = _outcome(lambda: getattr(real, cls)(*_acl_args(real, args)))
    assert ours == theirs


def test_acl_bindings_compare_and_hash_as_confluent_kafkas():
    def made(module):
        a = module.AclBinding(module.ResourceType.TOPIC, "t", module.ResourcePatternType.LITERAL, "User:a", "*",
                              module.AclOperation.READ, module.AclPermissionType.ALLOW)
        b = module.AclBinding("topic", "t", "literal", "User:a", "*", "read", "allow")
        c = module.AclBinding(module.ResourceType.GROUP, "t", module.ResourcePatternType.LITERAL, "User:a", "*",
                              module.AclOperation.READ, module.AclPermissionType.ALLOW)
        return (a == b, hash(a) == hash(b), a == c, a < c, c < a, len({a, b, c}), repr(sorted([c, a])),
                (a.restype_int, a.resource_pattern_type_int, a.operation_int, a.permission_type_int))
    assert made(face) == made(real)


def test_offset_specs_are_confluent_kafkas():
    for module in (face, real):
        spec = module.OffsetSpec
        assert spec(-1) is spec.latest() and spec(-2) is spec.earliest() and spec(-3) is spec.max_timestamp()
        assert all(isinstance(s, spec) for s in (spec.latest(), spec.for_timestamp(5), spec(7)))
        assert (spec.for_timestamp(5)._value, spec(7)._value, spec.max_timestamp()._value) == (5, 7, -3)
        assert spec.earliest() < spec.latest() < spec.for_timestamp(0)
    info = face.ListOffsetsResultInfo(3, 10, -1)
    assert (info.offset, info.timestamp, info.leader_epoch) == (3, 10, None)


def test_scram_types_hold_what_confluent_kafkas_hold():
    def made(module):
        info = module.ScramCredentialInfo(module.ScramMechanism.SCRAM_SHA_512, 8192)
        up = module.UserScramCredentialUpsertion("u", info, b"pw", b"salt")
        down = module.UserScramCredentialDeletion("u", module.ScramMechanism.SCRAM_SHA_256)
        described = module.UserScramCredentialsDescription("u", [info])
        return (up.user, up.scram_credential_info.iterations, up.password, up.salt, down.user, down.mechanism.name,
                described.user, [i.mechanism.name for i in described.scram_credential_infos],
                isinstance(up, module.UserScramCredentialAlteration))
    assert made(face) == made(real)


def _refusal(call):
    try:
        call()
    except (TypeError, ValueError) as exc:
        # a class named in the message is named by its module's path: compared by its own name
        return type(exc).__name__, re.sub(r"<class '[\w.]+\.(\w+)'>", r"\1", str(exc))
    return None


def test_bad_arguments_of_the_new_calls_are_refused_as_confluent_kafka_refuses_them():
    ours = face.AdminClient({"bootstrap.servers": NOWHERE})
    theirs = real.AdminClient({"bootstrap.servers": NOWHERE, "socket.timeout.ms": 100})
    try:
        def calls(a, module, tp):
            acl = module.AclBinding("TOPIC", "t", "LITERAL", "User:a", "*", "READ", "ALLOW")
            info = module.ScramCredentialInfo(module.ScramMechanism.SCRAM_SHA_256, 4096)
            return [
                lambda: a.create_acls([acl, acl]),
                lambda: a.create_acls(["acl"]),
                lambda: a.delete_acls([acl]),
                lambda: a.describe_user_scram_credentials("u"),
                lambda: a.describe_user_scram_credentials([""]),
                lambda: a.alter_user_scram_credentials([]),
                lambda: a.alter_user_scram_credentials([module.UserScramCredentialUpsertion("u", info, "pw")]),
                lambda: a.alter_user_scram_credentials([module.UserScramCredentialUpsertion("u", info, b"")]),
                lambda: a.alter_user_scram_credentials([module.UserScramCredentialUpsertion(
                    "u", module.ScramCredentialInfo(module.ScramMechanism.SCRAM_SHA_256, 0), b"pw")]),
                lambda: a.elect_leaders("PREFERRED", None),
                lambda: a.elect_leaders(confluent_kafka.ElectionType.PREFERRED if module is real
                                        else ck.ElectionType.PREFERRED, [tp("t", -1)]),
                lambda: a.delete_records([tp("t", -1, 0)]),
                lambda: a.list_offsets({tp("t", 0): 5}),
            ]
        got = [_refusal(c) for c in calls(ours, face, ck.TopicPartition)]
        expected = [_refusal(c) for c in calls(theirs, real, confluent_kafka.TopicPartition)]
        assert got == expected and all(expected)
    finally:
        ours.close()
