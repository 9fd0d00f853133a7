"""The committed generated files are exactly what the generator writes."""
import ast
import importlib.util
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "kafkacodec"
PROTOCOL = PACKAGE / "protocol"
GENERATED = ("protocol/_schema.py", "protocol/messages.py", "protocol/messages.pyi",
             "protocol/_error_codes.py", "protocol/_error_classes.py", "client/_broker_errors.py")


def test_generated_files_are_current(shared_dir):
    files = _gen().render_all(_gen().build(shared_dir / "kafka-protocol"))
    assert sorted(files) == sorted(GENERATED)
    for name, text in files.items():
        committed = (PACKAGE / name).read_text(encoding="utf-8")
        assert committed == text, name
        assert committed.startswith("# GENERATED — do not edit"), name


def test_check_flag(shared_dir, tmp_path):
    out = tmp_path / "kafkacodec"
    gen = [sys.executable, str(ROOT / "tools" / "gen_protocol.py"),
           "--specs", str(shared_dir / "kafka-protocol"), "--out", str(out)]
    assert subprocess.run(gen + ["--check"], capture_output=True).returncode == 1  # missing files are stale
    assert subprocess.run(gen).returncode == 0
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == sorted(GENERATED)
    assert subprocess.run(gen + ["--check"]).returncode == 0
    for name in GENERATED:  # drift in any one of them is caught, and named
        original = (out / name).read_text()
        (out / name).write_text(original + "# edit\n")
        run = subprocess.run(gen + ["--check"], capture_output=True, text=True)
        assert run.returncode == 1 and name in run.stderr, (name, run.stderr)
        (out / name).write_text(original)
    assert subprocess.run(gen + ["--check"]).returncode == 0


def test_schema_is_one_field_per_line():
    lines = (PROTOCOL / "_schema.py").read_text(encoding="utf-8").splitlines()
    assert max(map(len, lines)) < 200
    from kafkacodec.protocol import _schema

    def count(fields):
        return sum(1 + count(f.fields or ()) for f in fields)

    records = sum(count(v.fields) for m in _schema.MESSAGES.values() for v in m.variants)
    fields = [line for line in lines if line.lstrip().startswith("Field(")]
    assert len(fields) == records > 1900 and all(line.count("Field(") == 1 for line in fields)
    # MetadataRequest.json as it reads in the generated module
    assert '''
def _MetadataRequest():
    return Message(api_key=3, kind="request", variants=(
        Variant(min_version=0, max_version=13, flexible_versions=(9, OPEN), fields=(
            Field(name="Topics", type="[]MetadataRequestTopic", versions=(0, OPEN), nullable_versions=(1, OPEN), fields=(
                Field(name="TopicId", type="uuid", versions=(10, OPEN), ignorable=True),
                Field(name="Name", type="string", versions=(0, OPEN), nullable_versions=(10, OPEN)),
            )),
            Field(name="AllowAutoTopicCreation", type="bool", versions=(4, OPEN), default=True),
            Field(name="IncludeClusterAuthorizedOperations", type="bool", versions=(8, 10)),
            Field(name="IncludeTopicAuthorizedOperations", type="bool", versions=(8, OPEN)),
        )),
    ))
''' in "\n".join(lines)
    assert '    "MetadataRequest": (3, "request", ((0, 13),)),' in lines


def test_index_says_what_each_table_holds():
    from kafkacodec.protocol import _schema
    assert list(_schema.INDEX) == sorted(_schema.MESSAGES) and len(_schema.INDEX) == 197
    for name, (api_key, kind, runs) in _schema.INDEX.items():
        message = _schema.MESSAGES[name]
        assert (message.api_key, message.kind) == (api_key, kind), name
        assert tuple((v.min_version, v.max_version) for v in message.variants) == runs, name


def test_unstable_versions_need_the_flag(shared_dir):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import gen_protocol
    finally:
        sys.path.pop(0)
    specs = shared_dir / "kafka-protocol"
    stable = gen_protocol.build(specs)
    unstable = gen_protocol.build(specs, include_unstable=True)
    # InitProducerId v6 is marked latestVersionUnstable in trunk
    assert stable["InitProducerIdRequest"].variants[-1].max_version == 5
    assert unstable["InitProducerIdRequest"].variants[-1].max_version == 6


def _gen():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import gen_protocol
    finally:
        sys.path.pop(0)
    return gen_protocol


def test_each_version_from_the_newest_set_that_has_it(shared_dir):
    from kafkacodec.protocol import SPECS
    gen = _gen()
    specs = shared_dir / "kafka-protocol"
    sets = {name: gen.load_set(specs / name) for name in gen.SETS}
    checked = 0
    for name, spec in SPECS.items():
        key = (spec.kind, spec.api_key if spec.api_key is not None else name)
        for version in spec.versions:
            for set_name in gen.SETS:  # newest first
                src = sets[set_name].get(key)
                rng = gen.stable_range(src, False) if src is not None else None
                if rng and rng[0] <= version <= rng[1]:
                    break
            else:
                raise AssertionError((name, version))
            common = {s["name"]: s["fields"] for s in src.get("commonStructs", ())}
            assert spec.variant(version).fields == gen.convert_fields(src.get("fields", ()), common), (name, version)
            checked += 1
    assert checked > 700
    # and nothing in the union is missing: every stable version of every set is generated
    by_key = {(s.kind, s.api_key if s.api_key is not None else n): s for n, s in SPECS.items()}
    for set_name, loaded in sets.items():
        for key, src in loaded.items():
            rng = gen.stable_range(src, False)
            if rng is not None:
                assert set(range(rng[0], rng[1] + 1)) <= by_key[key].versions, (set_name, key)
    # spot checks from the specs' README: KIP-896 removals come from 3.9, the rest from trunk
    assert SPECS["ProduceRequest"].versions == set(range(14))
    def partition_fields(version):
        (topics,) = [f for f in SPECS["ListOffsetsRequest"].variant(version).fields if f.name == "Topics"]
        (parts,) = [f for f in topics.fields if f.name == "Partitions"]
        return {f.name for f in parts.fields}
    v0, v1 = partition_fields(0), partition_fields(1)
    assert "MaxNumOffsets" in v0 and "MaxNumOffsets" not in v1
    assert SPECS["LeaderAndIsrRequest"].versions == set(range(8))  # "none" in trunk
    assert "ListClientMetricsResourcesRequest" not in SPECS  # key 74 is trunk's ListConfigResources
    assert SPECS["ListConfigResourcesRequest"].versions == {0, 1}
    # 3.9 marks ShareGroupHeartbeat v0 unstable; trunk starts at v1
    assert SPECS["ShareGroupHeartbeatRequest"].versions == {1}
    assert SPECS["RequestHeader"].versions == {0, 1, 2}  # v0 only in 3.9
    assert SPECS["ResponseHeader"].versions == {0, 1}


def test_headers_and_data_specs_generated():
    from kafkacodec.protocol import SPECS
    others = {n for n, s in SPECS.items() if s.kind not in ("request", "response")}
    assert others == {"RequestHeader", "ResponseHeader", "ConsumerProtocolAssignment",
                      "ConsumerProtocolSubscription", "DefaultPrincipalData", "EndTxnMarker",
                      "KRaftVersionRecord", "LeaderChangeMessage", "SnapshotFooterRecord",
                      "SnapshotHeaderRecord", "VotersRecord"}


def test_no_prose_in_generated_module(shared_dir):
    gen = _gen()
    text = (ROOT / "kafkacodec" / "protocol" / "_schema.py").read_text(encoding="utf-8")
    spec = gen.load_json(shared_dir / "kafka-protocol" / "trunk" / "MetadataRequest.json")
    abouts = [f["about"] for f in spec["fields"] if "about" in f]
    assert abouts and not any(a in text for a in abouts)
    assert "about" not in text and "entityType" not in text


def _stub_classes():
    """{qualified class name: (annotated attributes, __init__ keyword parameters)} of messages.pyi"""
    tree = ast.parse((PROTOCOL / "messages.pyi").read_text(encoding="utf-8"))
    declared = {}

    def walk(body, prefix):
        for node in body:
            if isinstance(node, ast.ClassDef):
                attrs = [n.target.id for n in node.body if isinstance(n, ast.AnnAssign)]
                (init,) = [n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
                declared[prefix + node.name] = (attrs, [a.arg for a in init.args.kwonlyargs])
                walk(node.body, prefix + node.name + ".")

    walk(tree.body, "")
    return declared


def test_stub_declares_every_class_and_field():
    from kafkacodec.protocol import SPECS, messages
    expected = {}
    for spec in SPECS.values():
        for cls in spec.classes.values():
            attrs = [a for a, _, _ in cls._fields]
            expected[cls.__qualname__] = (["spec"] + attrs if cls is spec.cls else attrs, attrs)
    assert len(expected) == 512
    assert _stub_classes() == expected
    # messages.py names every class the stub declares, and nothing else
    assert messages.__all__ == ["Struct", *sorted(SPECS)]
    stub = ast.parse((PROTOCOL / "messages.pyi").read_text(encoding="utf-8"))
    (stub_all,) = [ast.literal_eval(n.value) for n in stub.body
                   if isinstance(n, ast.Assign) and n.targets[0].id == "__all__"]
    assert stub_all == messages.__all__
    assert all(getattr(messages, name) is spec.cls for name, spec in SPECS.items())


_TYPED_OK = """
from kafkacodec.protocol.messages import FetchResponse, MetadataRequest

req = MetadataRequest(topics=[MetadataRequest.MetadataRequestTopic(name="t")])
topics: list[MetadataRequest.MetadataRequestTopic] | None = MetadataRequest(topics=None).topics
flag: bool = req.allow_auto_topic_creation
for topic in FetchResponse(responses=[]).responses:
    for partition in topic.partitions:
        records: bytes | memoryview | None = partition.records
        high_watermark: int = partition.high_watermark
"""
_TYPED_BAD = """
from kafkacodec.protocol.messages import MetadataRequest

req = MetadataRequest(topcs=None)
req.allow_auto_topic_creaton
name: int = req.topics
"""


def test_mypy_sees_fields_and_types(tmp_path):
    pytest.importorskip("mypy")
    (tmp_path / "ok.py").write_text(_TYPED_OK)
    (tmp_path / "bad.py").write_text(_TYPED_BAD)

    def mypy(name):
        # silent: report the snippet, not the untyped parts of the package it imports
        cmd = [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-error-summary",
               "--cache-dir", str(tmp_path / "cache"), str(tmp_path / name)]
        return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)

    ok = mypy("ok.py")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = mypy("bad.py")
    assert bad.returncode == 1
    assert 'bad.py:4: error: Unexpected keyword argument "topcs" for "MetadataRequest"' in bad.stdout
    assert 'bad.py:5: error: "MetadataRequest" has no attribute "allow_auto_topic_creaton"' in bad.stdout
    assert "bad.py:6: error: Incompatible types in assignment" in bad.stdout, bad.stdout


def test_stubtest_finds_the_stub_true_to_the_classes(tmp_path):
    pytest.importorskip("mypy")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nfollow_imports = silent\n")  # judge the stub, not the untyped package
    out = subprocess.run([sys.executable, "-m", "mypy.stubtest", "--mypy-config-file", str(config),
                          "kafkacodec.protocol.messages"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


def test_error_table_is_checked(tmp_path):
    gen = _gen()
    rows = gen.load_errors()
    assert rows[:2] == [(-1, "UNKNOWN_SERVER_ERROR", False, "The server hit an unexpected error."),
                        (0, "NONE", False, "Success.")]
    assert gen.error_class_name("INVALID_TOPIC_EXCEPTION") == "InvalidTopicError"
    assert gen.error_class_name("KAFKA_STORAGE_ERROR") == "KafkaStorageError"
    for bad in ([(0, "NONE", False, "Success."), (0, "OTHER", False, "Again.")],  # a code twice
                [(1, "NO_NONE", False, "Where is 0?")],
                [(0, "NONE", False, "Success."), (1, "QUOTED", False, 'a "word"')]):
        path = tmp_path / "errors.py"
        path.write_text(f"ERRORS = {bad!r}\n")
        with pytest.raises(ValueError):
            gen.load_errors(path)
