"""The manylinux wheel installs without a compiler and works.

Builds the wheel with wheels/build.sh (or reuses wheels/*.whl when it is newer
than every source file), installs it into a fresh virtual environment whose
PATH holds no compiler (and CC=/bin/false, binaries only), and runs a smoke
suite there: accelerated import, hardware CRC, every compression codec, the
protocol codec, Arrow decoding when pyarrow installs, and mypy's stubtest
against the installed modules when mypy installs.

    python -m pytest -m slow tests/test_wheel.py
"""
import os
import pathlib
import subprocess
import sys
import textwrap
import venv

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

ROOT = pathlib.Path(__file__).resolve().parents[1]
WHEELS = ROOT / "wheels"
PY_TAG = f"cp{sys.version_info.major}{sys.version_info.minor}"
SOURCE_GLOBS = ["kafkacodec/**/*.py", "kafkacodec/**/*.pyx", "kafkacodec/**/*.pxd", "kafkacodec/**/*.pyi",
                "kafkacodec/py.typed", "csrc/*", "setup.py", "pyproject.toml", "tools/build_wheel.py"]


def _newest_source_mtime():
    return max(p.stat().st_mtime for g in SOURCE_GLOBS for p in ROOT.glob(g) if p.is_file())


def _existing_wheel():
    found = sorted(WHEELS.glob(f"kafkacodec-*-{PY_TAG}-*manylinux*.whl"), key=lambda p: p.stat().st_mtime)
    if found and found[-1].stat().st_mtime > _newest_source_mtime():
        return found[-1]
    return None


@pytest.fixture(scope="module")
def wheel():
    path = _existing_wheel()
    if path is None:
        out = subprocess.run(["bash", str(WHEELS / "build.sh"), "--python", sys.executable],
                             capture_output=True, text=True, timeout=1200)
        assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-8000:]
        path = pathlib.Path(out.stdout.strip().splitlines()[-1])
    assert path.is_file(), path
    assert "manylinux" in path.name, path.name
    return path


@pytest.fixture(scope="module")
def env(tmp_path_factory, wheel):
    """A fresh venv with the wheel installed, and the compiler-free environment to run it in."""
    base = tmp_path_factory.mktemp("wheel-venv")
    home = base / "venv"
    venv.EnvBuilder(with_pip=True).create(home)
    nocc = base / "no-compiler"   # stands in for /usr/bin: nothing to compile with
    nocc.mkdir()
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith(("PYTHON", "KAFKACODEC_", "VIRTUAL_ENV", "CONDA"))}
    environ.update(PATH=f"{home / 'bin'}{os.pathsep}{nocc}", CC="/bin/false", CXX="/bin/false",
                   LDSHARED="/bin/false", VIRTUAL_ENV=str(home), PIP_DISABLE_PIP_VERSION_CHECK="1")
    py = str(home / "bin" / "python")

    def pip_install(*args):
        # --only-binary: a dependency without a wheel must fail here, not get built.
        return subprocess.run([py, "-m", "pip", "install", "--quiet", "--only-binary=:all:", *args],
                              env=environ, cwd=base, capture_output=True, text=True, timeout=900)

    out = pip_install(str(wheel))
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-4000:]
    return {"python": py, "environ": environ, "cwd": base, "pip_install": pip_install}


SMOKE = textwrap.dedent(r'''
    import os, pathlib, platform, shutil, sys

    assert shutil.which("gcc") is None and shutil.which("cc") is None, "a compiler is on PATH"
    import kafkacodec
    from kafkacodec import _buffer, _crc
    from kafkacodec.protocol import _codec
    from kafkacodec.records import _records
    here = pathlib.Path(kafkacodec.__file__).resolve()
    assert here.is_relative_to(pathlib.Path(sys.prefix).resolve()), here  # the wheel, not the checkout
    assert kafkacodec.accelerated is True

    # kafkacodec.arrow needs pyarrow to import, so its module is checked on disk here.
    pkg = here.parent
    for name in ("_crc", "_buffer", "records/_records", "arrow/_columnar", "arrow/_encode", "avro/_avro",
                 "protocol/_codec", "client/_sender_state", "client/send_path", "client/_sender_steps",
                 "compat/confluent_kafka/_produce", "compat/confluent_kafka/_message", "compat/_face_records"):
        (so,) = pkg.glob(name + ".cpython-*.so")
        assert (pkg / (name + ".pyi")).is_file(), name
    assert (pkg / "py.typed").is_file()
    assert not list(pkg.rglob("*.c")) and not list(pkg.rglob("*.pyx"))

    # CRC: golden value; hardware path where the CPU has it.
    assert kafkacodec.crc32c(b"123456789") == 0xE3069283
    impl = kafkacodec.crc32c_implementation()
    flags = set()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith(("flags", "Features")):
                flags.update(line.split(":", 1)[1].split())
    except OSError:
        pass
    machine = platform.machine()
    if machine in ("x86_64", "AMD64") and "sse4_2" in flags:
        assert impl == "sse4.2", impl
    elif machine == "aarch64" and "crc32" in flags:
        assert impl == "armv8", impl

    # Records: every codec, v2 and the legacy formats that allow it.
    from kafkacodec.records import CODEC_NAMES, build_batches, decode_records, iter_batches
    rows = [(1700000000000 + i, b"key-%d" % i, (b"value-%d " % i) * 20, [("h", b"x%d" % i)])
            for i in range(500)]
    for codec in CODEC_NAMES:
        for magic in (2, 1, 0):
            if magic == 0 and codec == "zstd":
                continue
            given = rows if magic == 2 else [r[:3] for r in rows]  # headers need magic 2
            data = b"".join(build_batches(given, magic=magic, compression=codec, batch_size=8192))
            batches = list(iter_batches(data))
            assert {b.compression for b in batches} == {codec}, (codec, magic)
            got = decode_records(data)
            assert [r.offset for r in got] == list(range(len(rows))), (codec, magic)
            assert [(r.key, r.value) for r in got] == [(k, v) for _, k, v, _ in rows], (codec, magic)
            if magic == 2:
                assert [r.headers for r in got] == [tuple(h) for *_, h in rows]
                assert [r.timestamp for r in got] == [t for t, *_ in rows]

    # Protocol: a request and a response through the compiled executor.
    import kafkacodec.protocol as proto
    from kafkacodec.protocol import messages as m
    assert proto.accelerated and proto.executor is _codec
    batch = build_batches(rows[:10], compression="lz4")[0]
    req = m.ProduceRequest(acks=-1, timeout_ms=1000, topic_data=[
        m.ProduceRequest.TopicProduceData(name="t", partition_data=[
            m.ProduceRequest.PartitionProduceData(index=0, records=batch)])])
    for version in (3, 9):
        frame = proto.encode_request("Produce", version, req, correlation_id=5, client_id="smoke")
        header, back = proto.decode_request(frame)
        assert header.correlation_id == 5 and header.client_id == "smoke"
        assert back.acks == -1 and back.topic_data[0].name == "t"
        got = decode_records(back.topic_data[0].partition_data[0].records)
        assert [r.key for r in got] == [k for _, k, _, _ in rows[:10]]
        assert proto.encode_request("Produce", version, back, correlation_id=5, client_id="smoke") == frame
    body = m.ApiVersionsResponse(error_code=0, api_keys=[
        m.ApiVersionsResponse.ApiVersion(api_key=0, min_version=3, max_version=11)])
    frame = proto.encode_response("ApiVersions", 3, 9, body)
    assert proto.decode_response(18, 3, frame) == (9, body)

    # The kafkacodec-spark command ships in its own package and starts without pyspark.
    from importlib.metadata import entry_points
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "kafkacodec-spark"]
    assert script.value == "kafkacodec.spark_cli.cli:main", script.value
    try:
        script.load()(["--help"])
    except SystemExit as exc:
        assert exc.code == 0, exc.code

    # Arrow, when the caller installed pyarrow.
    if os.environ.get("SMOKE_ARROW") == "1":
        import kafkacodec.arrow as ka
        from kafkacodec.arrow import _columnar
        assert pathlib.Path(_columnar.__file__).suffix == ".so"
        data = b"".join(build_batches(rows, compression="zstd", batch_size=8192))
        table = ka.decode_table(data)
        assert table.num_rows == len(rows)
        assert table.column("key").to_pylist() == [k for _, k, _, _ in rows]
        assert table.column("offset").to_pylist() == list(range(len(rows)))
        print("arrow ok")
    print("smoke ok", impl, here.parent)
''')


def _run(env, code, **extra):
    return subprocess.run([env["python"], "-c", code], env={**env["environ"], **extra}, cwd=env["cwd"],
                          capture_output=True, text=True, timeout=600)


def test_wheel_smoke(env):
    out = _run(env, SMOKE)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "smoke ok" in out.stdout


def test_wheel_arrow(env):
    inst = env["pip_install"]("pyarrow>=15")
    if inst.returncode != 0:
        pytest.skip(f"pyarrow does not install here: {inst.stderr[-500:]}")
    out = _run(env, SMOKE, SMOKE_ARROW="1")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "arrow ok" in out.stdout


def test_wheel_stubs_match_runtime(env):
    """The shipped .pyi files describe the shipped compiled modules (mypy stubtest)."""
    inst = env["pip_install"]("mypy")
    if inst.returncode != 0:
        pytest.skip(f"mypy does not install here: {inst.stderr[-500:]}")
    out = subprocess.run(
        [env["python"], "-m", "mypy.stubtest", "--allowlist", str(WHEELS / "stubtest-allowlist.txt"),
         "kafkacodec._crc", "kafkacodec._buffer", "kafkacodec.records._records",
         "kafkacodec.arrow._columnar", "kafkacodec.arrow._encode", "kafkacodec.avro._avro",
         "kafkacodec.protocol._codec"],
        env=env["environ"], cwd=env["cwd"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
