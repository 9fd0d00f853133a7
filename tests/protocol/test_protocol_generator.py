"""The committed schema module is exactly what the generator writes."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_generated_module_is_current(shared_dir):
    specs = shared_dir / "kafka-protocol"
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import gen_protocol
    finally:
        sys.path.pop(0)
    text = gen_protocol.render(gen_protocol.build(specs))
    committed = (ROOT / "kafkacodec" / "protocol" / "_schema.py").read_text(encoding="utf-8")
    assert committed == text
    assert committed.startswith("# GENERATED — do not edit")


def test_check_flag(shared_dir, tmp_path):
    out = tmp_path / "schema.py"
    gen = [sys.executable, str(ROOT / "tools" / "gen_protocol.py"),
           "--specs", str(shared_dir / "kafka-protocol"), "--out", str(out)]
    assert subprocess.run(gen + ["--check"]).returncode == 1  # missing file is stale
    assert subprocess.run(gen).returncode == 0
    assert subprocess.run(gen + ["--check"]).returncode == 0
    out.write_text(out.read_text() + "# edit\n")
    assert subprocess.run(gen + ["--check"], capture_output=True).returncode == 1


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
    assert stable["InitProducerIdRequest"][2][-1][1] == 5
    assert unstable["InitProducerIdRequest"][2][-1][1] == 6


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
            assert spec.variant(version)[1] == gen.convert_fields(src.get("fields", ()), common), (name, version)
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
        (topics,) = [f for f in SPECS["ListOffsetsRequest"].variant(version)[1] if f[0] == "Topics"]
        (parts,) = [f for f in topics[9] if f[0] == "Partitions"]
        return {f[0] for f in parts[9]}
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
