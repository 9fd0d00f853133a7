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
