"""bench.run's physical limits bound the arms they are printed beside: a limit that an
arm beats is reported as no bound, never as a limit, and the memcpy limit copies the
arm's own working set into a warm buffer."""
import json
import re
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # bench/ is a top-level directory, not part of the package

from bench import adapters as A  # noqa: E402
from bench import run  # noqa: E402


def _rows():
    return [
        {"adapter": "kafkacodec", "kind": "codec", "status": "ok", "records_per_s": 10.0},
        {"adapter": "aiokafka-C", "kind": "codec", "status": "ok", "records_per_s": 2.0},
        {"adapter": "memcpy", "kind": "limit", "status": "ok", "records_per_s": 7.0},
        {"adapter": "raw-decompressor", "kind": "limit", "status": "ok", "records_per_s": 40.0},
    ]


def test_a_limit_an_arm_beats_is_no_limit():
    rows = _rows()
    run._ratios(rows, "records_per_s")
    memcpy = rows[2]
    assert memcpy["status"] == "not a bound" and memcpy["beaten_by"] == "kafkacodec"
    assert "kafkacodec_share" not in memcpy
    assert rows[3]["status"] == "ok" and rows[3]["kafkacodec_share"] == 0.25


def test_only_the_tightest_limit_shows():
    rows = _rows()
    rows[2]["records_per_s"] = 80.0  # memcpy now bounds too, but more loosely than the decompressor
    run._ratios(rows, "records_per_s")
    assert rows[3]["status"] == "ok" and rows[3]["kafkacodec_share"] == 0.25
    assert rows[2]["status"] == "looser bound" and "raw-decompressor bounds this work more tightly" in rows[2]["reason"]
    assert run.share_text(0.004) == "under 1%" and run.share_text(0.25) == "25%"


def test_an_arm_within_noise_of_a_limit_has_reached_it():
    rows = _rows()
    rows[3]["records_per_s"] = 9.0  # kafkacodec 10: faster, but by less than the run's noise
    run._ratios(rows, "records_per_s")
    assert rows[3]["status"] == "ok" and run.share_text(rows[3]["kafkacodec_share"]) == "all (within this run's noise)"


def test_a_peer_beating_a_limit_unbinds_it():
    rows = [{"adapter": "kafkacodec", "kind": "codec", "status": "ok", "gb_per_s": 1.0},
            {"adapter": "crc32c-pkg", "kind": "limit", "status": "ok", "gb_per_s": 3.0},
            {"adapter": "memcpy", "kind": "limit", "status": "ok", "gb_per_s": 2.0}]
    run._keep_binding_limit(rows, "gb_per_s", peers=("crc32c-pkg",))
    assert rows[1]["status"] == "ok"  # the peer is an arm here, never a limit
    assert rows[2]["status"] == "not a bound" and rows[2]["beaten_by"] == "crc32c-pkg"


def test_memcpy_copies_the_working_set_once_into_the_same_buffer():
    m = A.Memcpy()
    bufs = [b"a" * 100, b"b" * 50]
    assert m.crc(bufs) == 150
    dst = m._prepared[id(bufs)][2]
    assert m.crc(bufs) == 150
    assert m._prepared[id(bufs)][2] is dst and bytes(dst) == b"a" * 100 + b"b" * 50


def test_no_printed_limit_is_below_an_arm(tmp_path, capsys):
    out = tmp_path / "r.json"
    run.main(["--workloads", "W1,W7", "--ops", "decode,build,crc", "--scale", "0.01", "--repeat", "2",
              "--crc-mib", "1", "--adapters", "kafkacodec,aiokafka-C,memcpy,crc32c-pkg",
              "--json", str(out), "--png", str(tmp_path / "r.png")])
    data = json.loads(out.read_text())
    entries = data["results"] if isinstance(data, dict) else data
    checked = 0
    for entry in entries:
        rows = entry["rows"]
        key = "gb_per_s" if entry["op"] == "crc" else "records_per_s"
        peers = ("crc32c-pkg",) if entry["op"] == "crc" else ()
        arms = [r[key] for r in rows if r["status"] == "ok" and (r["kind"] != "limit" or r["adapter"] in peers)]
        shown = [r for r in rows if r["kind"] == "limit" and r["status"] == "ok" and r["adapter"] not in peers]
        assert len(shown) <= 1, shown  # only the tightest bound
        for r in shown:
            assert r[key] * run.NOISE >= max(arms), (entry["workload"], entry["op"], r["adapter"])
            checked += 1
    assert checked > 0
    # what the table prints of the limits is what bounds: a hidden row is in the JSON only
    table = (tmp_path / "r.md").read_text()
    assert "not a bound" not in table and "looser bound" not in table
    shares = [int(x) for x in re.findall(r"reaches (\d+)% of this limit", capsys.readouterr().out)]
    assert shares and max(shares) <= 100
