#!/usr/bin/env python3
"""Generate kafkacodec/protocol/_schema.py from Kafka's JSON message specs.

Reads ``<shared>/kafka-protocol/{trunk,3.9}`` (JSON with ``//`` comments).  Each
(message, version) comes from the newest set that still defines it: trunk wins
where it has the version, 3.9 supplies the versions trunk dropped (KIP-896).
Versions flagged ``latestVersionUnstable`` are left out unless
``--include-unstable`` is given.

Only what encoding needs is kept: names, types, version ranges, nullability,
tags, defaults, ignorability and per-field flexible overrides.  Common structs
are resolved inline so the runtime never looks names up.

    python tools/gen_protocol.py            # write the module
    python tools/gen_protocol.py --check    # exit 1 if the file is stale
"""
import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_SPECS = ROOT.parent / "shared" / "kafka-protocol"
DEFAULT_OUT = ROOT / "kafkacodec" / "protocol" / "_schema.py"
OPEN = 32767  # upper bound of an open range such as "3+"
SETS = ("trunk", "3.9")  # newest first


def load_json(path):
    # The specs allow // comments outside strings; strip them line by line.
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        out, in_str, i = [], False, 0
        while i < len(line):
            c = line[i]
            if c == '"' and (i == 0 or line[i - 1] != "\\"):
                in_str = not in_str
            if not in_str and line.startswith("//", i):
                break
            out.append(c)
            i += 1
        lines.append("".join(out))
    return json.loads("\n".join(lines))


def parse_versions(text):
    if text is None:
        return None
    text = text.strip()
    if text == "none":
        return None
    if text.endswith("+"):
        return (int(text[:-1]), OPEN)
    if "-" in text:
        lo, hi = text.split("-")
        return (int(lo), int(hi))
    return (int(text), int(text))


def parse_default(ftype, text):
    if text is None:
        return Ellipsis
    if not isinstance(text, str):  # some specs write JSON numbers/booleans
        text = str(text).lower()
    if text == "null":
        return None
    base = ftype
    if base in ("int8", "int16", "int32", "int64", "uint16", "uint32"):
        return int(text, 0)
    if base == "bool":
        return text == "true"
    if base == "float64":
        return float(text)
    if base in ("string", "uuid"):
        return text  # a uuid default is Kafka's URL-safe base64 text; the runtime decodes it
    # bytes, arrays and structs only take "null" or nothing
    return Ellipsis


def convert_fields(fields, common):
    out = []
    for f in fields:
        ftype = f["type"]
        elem = ftype[2:] if ftype.startswith("[]") else ftype
        children = None
        if "fields" in f:
            children = convert_fields(f["fields"], common)
        elif elem in common:
            children = convert_fields(common[elem], common)
        out.append((
            f["name"],
            ftype,
            # a tagged field may leave out "versions": it then has its taggedVersions
            parse_versions(f.get("versions", f.get("taggedVersions"))),
            parse_versions(f.get("nullableVersions")),
            f.get("tag"),
            parse_versions(f.get("taggedVersions")),
            parse_default(ftype, f.get("default")),
            bool(f.get("ignorable", False)),
            parse_versions(f["flexibleVersions"]) if "flexibleVersions" in f else Ellipsis,
            tuple(children) if children is not None else None,
        ))
    return tuple(out)


def stable_range(spec, include_unstable):
    rng = parse_versions(spec.get("validVersions"))
    if rng is None:
        return None
    lo, hi = rng
    if spec.get("latestVersionUnstable") and not include_unstable:
        hi -= 1
    return (lo, hi) if hi >= lo else None


def load_set(directory):
    specs = {}
    for path in sorted(directory.glob("*.json")):
        spec = load_json(path)
        if spec.get("type") in ("request", "response"):
            key = (spec["type"], spec["apiKey"])
        else:
            key = (spec["type"], spec["name"])
        specs[key] = spec
    # Responses carry no stability flag; they follow their request.
    for (kind, api), spec in specs.items():
        if kind == "response":
            req = specs.get(("request", api))
            if req is not None and req.get("latestVersionUnstable"):
                spec["latestVersionUnstable"] = True
    return specs


def build(specs_dir, include_unstable=False):
    sets = {name: load_set(specs_dir / name) for name in SETS}
    keys = sorted(set().union(*sets.values()), key=lambda k: (k[0], str(k[1]).zfill(4)))
    messages = {}
    for key in keys:
        taken = set()
        variants = []
        name = None
        api_key = key[1] if key[0] in ("request", "response") else None
        for set_name in SETS:
            spec = sets[set_name].get(key)
            if spec is None:
                continue
            rng = stable_range(spec, include_unstable)
            if name is None and rng is not None:
                name = spec["name"]
            if rng is None:
                continue
            common = {s["name"]: s["fields"] for s in spec.get("commonStructs", ())}
            fields = convert_fields(spec.get("fields", ()), common)
            flex = parse_versions(spec.get("flexibleVersions"))
            # contiguous runs of versions this set supplies that a newer set did not
            run = []
            for v in range(rng[0], rng[1] + 1):
                if v in taken:
                    if run:
                        variants.append((run[0], run[-1], flex, fields))
                        run = []
                    continue
                taken.add(v)
                run.append(v)
            if run:
                variants.append((run[0], run[-1], flex, fields))
        if not variants:
            continue
        variants.sort(key=lambda v: v[0])
        messages[name] = (api_key, key[0], tuple(variants))
    return messages


HEADER = '''# GENERATED — do not edit.  Source: Kafka JSON message specs (trunk + 3.9);
# regenerate with `python tools/gen_protocol.py`.
#
# MESSAGES[name] = (api_key | None, kind, variants)
# variant = (min_version, max_version, flexible_versions, fields)
# field = (name, type, versions, nullable_versions, tag, tagged_versions,
#          default (Ellipsis: type default), ignorable,
#          flexible_versions override (Ellipsis: none), child fields)
# A version range is (lo, hi); hi == OPEN means "lo+"; None means "none".
'''


def render(messages):
    out = [HEADER, f"OPEN = {OPEN}\n", "\nMESSAGES = {\n"]
    for name in sorted(messages):
        out.append(f"    {name!r}: {messages[name]!r},\n")
    out.append("}\n")
    text = "".join(out)
    return text.replace("32767)", "OPEN)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--specs", type=pathlib.Path, default=DEFAULT_SPECS,
                    help="directory holding trunk/ and 3.9/ (default: ../shared/kafka-protocol)")
    ap.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT)
    ap.add_argument("--include-unstable", action="store_true",
                    help="also emit versions marked latestVersionUnstable")
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if the output file differs from what would be written")
    args = ap.parse_args(argv)
    text = render(build(args.specs, args.include_unstable))
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else None
        if current != text:
            print(f"{args.out} is stale; run tools/gen_protocol.py", file=sys.stderr)
            return 1
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
