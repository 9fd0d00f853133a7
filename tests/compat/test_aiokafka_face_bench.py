"""bench.faces_bench on a tiny scale: every arm of both clients runs the same program under the
project's client and under its face, and reports a time for each and their ratio."""
import pathlib
import sys

import pytest

pytest.importorskip("aiokafka")
pytest.importorskip("kafka")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
pytestmark = pytest.mark.timeout(180)


@pytest.mark.parametrize("serializer", ["str", "json"])
def test_faces_bench_runs(serializer, capsys):
    import _peers
    from bench import faces_bench
    try:
        results = faces_bench.main(["--records", "1500", "--serializer", serializer])
    except _peers.PeerUnavailable as exc:
        pytest.skip(str(exc))
    assert set(results) == {f"{client} {case}" for client in ("aiokafka", "kafka-python")
                            for case in ("produce", "consume", "consume-batch")}
    for name, r in results.items():
        assert r["original"] > 0 and r["face"] > 0 and r["ratio"] == r["original"] / r["face"], name
    assert "target" in capsys.readouterr().out
