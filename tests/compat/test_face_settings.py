"""Every setting of librdkafka's own table (the shared copy of its CONFIGURATION.md), for each
client it applies to (* : Producer, Consumer and AdminClient), against the face's table: the
face's Producer, Consumer and AdminClient are built with the setting at its default and at
values across its range (no broker: the clients connect lazily), and a refused setting raises
one line naming what to use.  The face's settings documentation (SETTINGS.md) is the same
table, generated."""
from __future__ import annotations

import logging
import pathlib
import re
from typing import Any, NamedTuple

import pytest

from kafkacodec.client.errors import ConfigError
from kafkacodec.compat import confluent_kafka as ck
from kafkacodec.compat.confluent_kafka import _config
from kafkacodec.compat.confluent_kafka.admin import AdminClient

SCOPES = {"*": "PCA", "P": "P", "C": "C"}
DOC = pathlib.Path(_config.__file__).with_name("SETTINGS.md")
NOWHERE = "127.0.0.1:9"  # nothing listens: construction must not need a broker
# names a Python program gives confluent-kafka that librdkafka's table does not list
PYTHON_ONLY = {"on_delivery", "on_commit", "logger", "oauth_cb"}


class Row(NamedTuple):
    name: str
    scope: str        # "*", "P" or "C"
    range: str
    default: str
    type: str
    deprecated: bool


def librdkafka_rows(shared: pathlib.Path) -> list[Row]:
    rows = []
    for line in (shared / "librdkafka" / "CONFIGURATION.md").read_text().splitlines():
        cells = [c.strip() for c in line.split(" | ")]
        if len(cells) < 6 or cells[0] in ("Property", "") or cells[0].startswith("---"):
            continue
        description = " | ".join(cells[5:])
        kind = re.search(r"\*Type: ([^*]+)\*", description)
        rows.append(Row(cells[0], cells[1], cells[2], cells[3].replace("\\|", "|"),
                        kind.group(1).strip() if kind else "", "**DEPRECATED**" in description))
    return rows


@pytest.fixture(scope="module")
def rows(shared_dir):
    found = librdkafka_rows(shared_dir)
    assert len(found) > 150, "the table was not parsed"
    return found


def values(row: Row, entry: _config.Setting) -> list[Any]:
    """The setting's default and values across its range: both ends and the middle of a
    numeric range, each option of a list; the table's example where librdkafka names none."""
    out: list[Any] = []
    if row.default and row.type != "see dedicated API":
        out.append(row.default)
    numbers = re.fullmatch(r"(-?\d+) \.\. (-?\d+)", row.range)
    if numbers:
        lo, hi = int(numbers.group(1)), int(numbers.group(2))
        out += [lo, (lo + hi) // 2, hi]
    elif row.range:
        out += [option.strip() for option in row.range.split(",")]
        if row.type == "CSV flags":
            out.append(row.range.replace(" ", ""))  # all of them at once
    if entry.example is not None:
        out.append(entry.example)
    return out


def build(client: str, conf: dict[str, Any]) -> None:
    if client == "P":
        ck.Producer(conf).close()
    elif client == "C":
        c = ck.Consumer({"group.id": "g", **conf})
        c.close()
    else:
        AdminClient(conf).close()


@pytest.fixture(autouse=True)
def logging_restored(face_logging_restored):
    """The logging settings change the process's loggers (put back by face_logging_restored);
    meanwhile kafkacodec's own records are quiet (connection refused, a thousand times)."""
    logging.getLogger("kafkacodec").setLevel(logging.ERROR)


def pairs(rows):
    return [(row, client) for row in rows if not row.deprecated for client in SCOPES[row.scope]]


def test_every_property_is_in_the_face_table(rows):
    missing = sorted({row.name for row in rows} - set(_config.SETTINGS))
    assert not missing, f"librdkafka properties the face does not know: {missing}"
    extra = sorted(set(_config.SETTINGS) - {row.name for row in rows} - PYTHON_ONLY)
    assert not extra, f"face entries librdkafka's table does not have: {extra}"


def test_every_mapping_names_a_client_setting():
    for name, entry in _config.SETTINGS.items():
        if entry.kind != "kafkacodec":
            continue
        for client in entry.scope:
            assert (entry.target or name) in _config._TABLES[client], (name, client)


def test_a_setting_librdkafka_applies_everywhere_says_why_where_it_has_no_effect(rows):
    for row in rows:
        entry = _config.SETTINGS[row.name]
        for client in SCOPES[row.scope]:
            if client not in entry.scope:
                assert entry.elsewhere or entry.kind in ("accepted", "unsupported"), (row.name, client)


def test_every_pair_at_its_default_and_across_its_range(rows):
    checked, problems = 0, []
    for row, client in pairs(rows):
        entry = _config.SETTINGS[row.name]
        state, why = _config.status(row.name, client)
        tried = values(row, entry)
        if not tried and entry.kind != "unsupported":
            problems.append(f"{row.name}: no value to try (give the table an example)")
        for value in tried:
            conf = {"bootstrap.servers": NOWHERE, row.name: value}
            if row.name in ("bootstrap.servers", "metadata.broker.list"):
                conf = {row.name: value}
            checked += 1
            try:
                build(client, conf)
            except ConfigError as exc:
                text = str(exc)
                if "\n" in text or row.name not in text:
                    problems.append(f"{row.name}={value!r} ({client}): not one line naming it: {text}")
                elif state == "refused":
                    if _config._unset(value):
                        problems.append(f"{row.name} ({client}) refused at its default: {text}")
                    elif entry.doc not in text:
                        problems.append(f"{row.name} ({client}) refused without saying what to use: {text}")
                elif not entry.refuses:
                    problems.append(f"{row.name}={value!r} ({client}, {state}) refused: {text}")
                elif row.default and value == row.default:
                    problems.append(f"{row.name} ({client}) refused at its default: {text}")
            except Exception as exc:
                problems.append(f"{row.name}={value!r} ({client}): {type(exc).__name__}: {exc}")
            else:
                if state == "refused" and not _config._unset(value):
                    problems.append(f"{row.name}={value!r} accepted by the {client}, refused in the table")
        # refused pairs: their default (unset) is accepted, a value is not
        if state == "refused":
            build(client, {"bootstrap.servers": NOWHERE, row.name: None})
            with pytest.raises(ConfigError, match=re.escape(row.name)):
                build(client, {"bootstrap.servers": NOWHERE, row.name: entry.example or "x"})
    assert not problems, "\n".join(problems)
    assert checked > 1000


def test_accepted_share_and_the_refused_list(rows, capsys):
    """At least 95 % of the (property, client) pairs are accepted, and of those with a default
    (the rest: C API hooks, OpenSSL engines and providers, plugins); each refused one says why."""
    every = pairs(rows)
    with_default = [(row, client) for row, client in every if row.default and row.type != "see dedicated API"]
    refused = sorted({(row.name, _config.status(row.name, client)[1]) for row, client in every
                      if _config.status(row.name, client)[0] == "refused"})
    share = {label: 1 - sum(_config.status(r.name, c)[0] == "refused" for r, c in chosen) / len(chosen)
             for label, chosen in (("all", every), ("with a default", with_default))}
    with capsys.disabled():
        print(f"\nlibrdkafka (property, client) pairs: {len(every)}, accepted {share['all']:.1%}; "
              f"of the {len(with_default)} with a default, accepted {share['with a default']:.1%}")
        for name, why in refused:
            print(f"  refused: {name}: {why}")
    assert share["with a default"] >= 0.95 and share["all"] >= 0.95, share
    assert all(why for _, why in refused)


def test_refused_lines_name_what_to_use():
    for name, entry in _config.SETTINGS.items():
        if entry.kind == "unsupported":
            assert re.search(r"\b(give|use|pass|leave|convert|set|wrap|do in Python)\b", entry.doc), name


def test_settings_doc_is_generated():
    assert DOC.read_text() == _config.markdown(), (
        "SETTINGS.md is stale: run python -m kafkacodec.compat.confluent_kafka --settings-markdown "
        "> kafkacodec/compat/confluent_kafka/SETTINGS.md")
