"""MkDocs hooks: the tables the pages show are generated from the code when the site is built.

A page asks for one with a line ``<!-- generated: NAME -->``; an unknown NAME, or an option the
code knows that the tables below do not describe (or the reverse), fails the build.

- ``client-settings``: the client's one settings table (``kafkacodec.client.config``);
- ``librdkafka-settings``: the confluent-kafka face's table (``compat/confluent_kafka/SETTINGS.md``);
- ``spark-live-options``, ``spark-log-options``, ``spark-sink-options``, ``spark-format-options``:
  the Spark sources' and the sink's options, their names taken from the code that parses them;
- ``protocol-apis``: every API key with its versions, from the generated protocol tables;
- ``bench-table``: the committed benchmark report, ``bench/results/latest.md``.

The benchmark chart, ``bench/results/latest.png``, is added to the site as ``benchmarks/latest.png``.
"""
from __future__ import annotations

import dataclasses
import os
import posixpath
import re
from typing import Any, Callable

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->$", re.M)


# ----------------------------------------------------------------- Spark options

# kafka-live's options that are not kafka.* settings, by the name Spark spells (the code's names:
# kafkacodec.spark._live_options._SPARK_NAMES): (where it applies, default, meaning)
LIVE = {
    "assign": ("both", "", "JSON `{\"topic\": [0, 1]}`: these partitions. Exactly one of `assign`, `subscribe`, "
               "`subscribePattern`; an assigned partition that does not exist is an error at planning naming it "
               "(a stream whose assigned partition is gone later counts it as gone: `failOnDataLoss`)."),
    "subscribe": ("both", "", "Topics, comma-separated; a subscribed topic that does not exist is an error at "
                  "planning naming it."),
    "subscribePattern": ("both", "", "A Python regular expression the whole topic name matches; topics starting "
                         "`__` are left out."),
    "startingOffsets": ("both", "earliest (batch), latest (streams)",
                        "`earliest`, `latest` (streams only) or JSON `{\"topic\": {\"0\": 42}}` with -2 (earliest) / "
                        "-1 (latest, streams only). As Spark, the JSON names every partition read and no other; an "
                        "offset outside 0..2**63-1 other than -2 / -1 is refused; in a batch query a start after "
                        "the range's end is an error whatever `failOnDataLoss` says."),
    "startingTimestamp": ("both", "", "ms since the epoch, for every partition: Kafka's offset for the timestamp "
                          "(first record at or after it), checked against the records."),
    "startingOffsetsByTimestamp": ("both", "", "JSON `{\"topic\": {\"0\": ms}}`: `startingTimestamp` per partition."),
    "startingOffsetsByTimestampStrategy": ("both", "error", "No offset at the timestamp: `error`, or `latest`."),
    "endingOffsets": ("batch", "latest", "`latest` or JSON naming every partition read and no other (-1: latest; "
                      "-2 and other negative offsets refused). An offset past the partition's latest offset at "
                      "planning is data loss: an error with `failOnDataLoss`, else a warning and the range ends "
                      "at the latest offset."),
    "endingTimestamp": ("batch", "", "ms since the epoch: the read ends at the offset for it, every partition."),
    "endingOffsetsByTimestamp": ("batch", "", "JSON `{\"topic\": {\"0\": ms}}`: `endingTimestamp` per partition."),
    "failOnDataLoss": ("both", "true", "Offsets that went back (topic recreated, log truncated), partitions gone or "
                       "offsets deleted by retention fail the query with one line; false warns and goes on from "
                       "the earliest offset."),
    "kafkaConsumer.pollTimeoutMs": ("both", "120000", "How long a task waits without progress before it fails."),
    "fetchOffset.numRetries": ("both", "3", "Offset lookups failing with a retriable error are retried (within "
                               "`kafka.default.api.timeout.ms`); a latest offset below the last batch's end is "
                               "asked again before it counts as data loss."),
    "fetchOffset.retryIntervalMs": ("both", "10", "Pause between those retries, ms."),
    "maxOffsetsPerTrigger": ("streams", "(no limit)", "Most offsets a micro-batch reads, shared in proportion to "
                             "each partition's lag."),
    "minOffsetsPerTrigger": ("streams", "", "A micro-batch waits for this many new offsets, up to "
                             "`maxTriggerDelay`."),
    "maxTriggerDelay": ("streams", "15m", "Longest wait for `minOffsetsPerTrigger` (units `ms` `s` `m` `h` `d`); "
                        "`Trigger.AvailableNow` does not wait, since a batch held back there would end the query "
                        "early."),
    "minPartitions": ("both", "(one per partition)", "At least this many Spark tasks: offset ranges are split."),
    "maxRecordsPerPartition": ("both", "", "Ranges cut into tasks of at most this many offsets, then "
                               "`minPartitions` applies."),
    "groupIdPrefix": ("both", "spark-kafka-source / spark-kafka-relation",
                      "Accepted, as `kafka.group.id`: neither Spark's executors nor `kafka-live` join a group or "
                      "commit offsets (reads are assigned ranges), so no Group ACL is needed; the id (or "
                      "`<prefix>-<unique id>-executor`) reaches the broker in the consumers' client id "
                      "`consumer-<group>-<n>`, as Java's consumer sets it, unless `kafka.client.id` is set."),
    "includeHeaders": ("both", "false", "Adds the `headers` column."),
}
# kafka.* settings the source reads itself (the rest go to the client as they are)
LIVE_KAFKA = {
    "kafka.bootstrap.servers": ("both", "(required)", "The cluster's brokers."),
    "kafka.isolation.level": ("both", "read_uncommitted", "`read_uncommitted` (as Spark) or `read_committed`: "
                              "reads end at the last stable offset."),
    "kafka.group.id": ("both", "", "See `groupIdPrefix`."),
    "kafka.default.api.timeout.ms": ("both", "60000", "The bound of each planning step (partitions and offsets), "
                                     "its broker calls and retries together; an unreachable broker fails within "
                                     "it with one line naming `kafka.bootstrap.servers` and this setting."),
}

# kafka-log's options by ReadOptions field (kafkacodec.spark._plan): (default, meaning)
LOG = {
    "path": ("(required)", "The broker's data directory (`.option('path', DIR)` or `.load(DIR)`)."),
    "isolation_level": ("read_committed", "`read_committed` leaves aborted transactions out (from the "
                        "`.txnindex` files); `read_uncommitted` keeps every record."),
    "topics": ("(every topic)", "Topics to read, comma-separated."),
    "partitions": ("(every partition)", "Partitions to read: numbers or `topic:number`, comma-separated."),
    "starting_offsets": ("earliest", "A number, `earliest`, `latest`, or JSON `{\"topic\": {\"0\": 42}}`."),
    "ending_offsets": ("latest", "As `startingOffsets`: the first offset not read."),
    "starting_timestamp": ("", "ms since the epoch, or per-partition JSON: from the first record at or after it "
                           "(the `.timeindex` files choose the segments)."),
    "ending_timestamp": ("", "ms since the epoch, or per-partition JSON: up to it."),
    "max_bytes_per_partition": ("64m", "Largest byte range of a segment one Spark task reads (`64m`, `1g`, ...)."),
    "min_partitions": ("", "At least this many tasks: byte ranges are split smaller (not below 256 KiB)."),
    "headers": ("false", "Adds the `headers` column."),
    "batch_columns": ("false", "Adds each record's batch fields (producer id and epoch, sequence, leader epoch, "
                      "transactional) after Spark's columns."),
    "include_internal": ("false", "Reads internal topics too (`__consumer_offsets`, ...)."),
    "verify_crc": ("true", "Checks each batch's CRC-32C."),
    "max_rows_per_batch": ("65536", "Most rows in one Arrow batch handed to Spark."),
    "progress_dir": ("", "A directory where tasks write progress files the driver sums up (what "
                     "`kafkacodec-spark convert` prints)."),
    "on_corruption": ("error", "`error` fails the read at the first damaged batch, naming the file, the byte "
                      "position and the field; `skip` leaves damaged batches out and counts them."),
    "max_decompressed_size": ("256m", "Most bytes one batch may inflate to (`DecompressionLimitError` beyond)."),
    "max_records_per_batch": ("1000000", "Most records one batch may claim (`RecordLimitError` beyond)."),
}
# the sink's own options (kafkacodec.spark._live_sink.parse_sink_options); kafka.* go to the producer
SINK = {
    "kafka.bootstrap.servers": ("(required)", "The cluster's brokers."),
    "topic": ("(the `topic` column)", "Topic of every row; wins over a `topic` column."),
    "transactionalIdPrefix": ("kafkacodec-sink", "Tasks' transactional ids and the progress groups start with it."),
    "progressTopic": ("(the `topic` option)", "Streaming: the topic on whose partition 0 group offsets record "
                      "each micro-batch's commit; needed when rows name their topic."),
    "kafka.transaction.timeout.ms": ("600000", "Longest a task's transaction may stay open (the broker caps it "
                                     "at its `transaction.max.timeout.ms`)."),
}

# the value and key formats of kafka-live's source and sink, by FormatOptions field
# (kafkacodec.spark._live_formats): (default, meaning)
FORMATS = {
    "value_format": ("binary", "`binary`, `avro` or `json`: the `value` column as bytes, or as the schema's "
                     "typed column (source), written from such a column (sink)."),
    "value_schema": ("", "`avro`: the Avro schema's JSON; `json`: a JSON Schema document or Spark's JSON form of "
                     "a StructType (`df.schema.json()`). Without a registry the values are plain bodies of it."),
    "value_subject": ("`<topic>-value`", "With a registry and no `valueSchema`: the subject whose latest version "
                      "is the reader schema, fixed when the query is planned."),
    "key_format": ("binary", "As `valueFormat`, for the `key` column."),
    "key_schema": ("", "As `valueSchema`, for keys."),
    "key_subject": ("`<topic>-key`", "As `valueSubject`, for keys."),
    "registry": ("", "`schema.registry.*`: confluent-kafka's Schema Registry settings (`schema.registry.url`, "
                 "`schema.registry.basic.auth.user.info`, `schema.registry.bearer.auth.*`, "
                 "`schema.registry.ssl.*`); values then carry Confluent's header, and each schema id met is "
                 "fetched once per worker. The sink registers its schema under `<topic>-value`."),
}


def _camel(field: str) -> str:
    head, *rest = field.split("_")
    return head + "".join(w.capitalize() for w in rest)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _check(what: str, in_code: set[str], described: set[str]) -> None:
    if in_code != described:
        raise PluginError(f"docs/_hooks.py: the {what} described ({sorted(described - in_code)} not in the code) "
                          f"and the code's ({sorted(in_code - described)} not described) differ")


def spark_live_options() -> str:
    from kafkacodec.spark import _live_options

    _check("kafka-live options", set(_live_options._SPARK_NAMES.values()), set(LIVE))
    refused = ", ".join(f"`kafka.{k}` ({why})" for k, why in _live_options._REFUSED.items())
    lines = ["| Option | Queries | Default | Meaning |", "| --- | --- | --- | --- |"]
    for name, (where, default, meaning) in [*LIVE_KAFKA.items(), *LIVE.items()]:
        lines.append(f"| `{name}` | {where} | {_cell(default)} | {_cell(meaning)} |")
    lines.append(f"| other `kafka.*` | both | | To kafkacodec's consumer and admin client (see "
                 f"[Client settings](SETTINGS_PAGE)); an unknown one is an error naming it. Refused, as Spark "
                 f"refuses them: {_cell(refused)}. |")
    return "\n".join(lines) + "\n"


def spark_log_options() -> str:
    from kafkacodec.spark import _plan

    fields = {f.name for f in dataclasses.fields(_plan.ReadOptions) if f.name != "pushed"}
    _check("kafka-log options", fields, set(LOG))
    aliases: dict[str, list[str]] = {}
    for alias, field in _plan._ALIASES.items():
        if alias != field.replace("_", ""):
            aliases.setdefault(field, []).append(alias)
    spelled = {"kafkaisolationlevel": "kafka.isolation.level", "includeheaders": "includeHeaders",
               "includebatchcolumns": "includeBatchColumns"}
    lines = ["| Option | Also | Default | Meaning |", "| --- | --- | --- | --- |"]
    for field, (default, meaning) in LOG.items():
        also = ", ".join(f"`{spelled.get(a, a)}`" for a in sorted(aliases.get(field, [])))
        lines.append(f"| `{_camel(field)}` | {also} | {_cell(default)} | {_cell(meaning)} |")
    return "\n".join(lines) + "\n"


def spark_sink_options() -> str:
    from kafkacodec.spark import _live_sink

    # SinkOptions fields set from options, by the option's name (the others are set by the writer)
    spelled = {"topic": "topic", "prefix": "transactionalIdPrefix", "progress_topic": "progressTopic"}
    own = {f.name for f in dataclasses.fields(_live_sink.SinkOptions)} - {"bootstrap", "conf", "timeout", "write_id",
                                                                        "formats"}
    _check("sink options", {spelled.get(f, f) for f in own}, {k for k in SINK if not k.startswith("kafka.")})
    refused = ", ".join(f"`kafka.{k}` ({why})" for k, why in _live_sink._REFUSED.items())
    lines = ["| Option | Default | Meaning |", "| --- | --- | --- |"]
    for name, (default, meaning) in SINK.items():
        lines.append(f"| `{name}` | {_cell(default)} | {_cell(meaning)} |")
    lines.append(f"| other `kafka.*` | | Producer settings (see [Client settings](SETTINGS_PAGE)); an unknown one is "
                 f"an error naming it. Refused: {_cell(refused)}. |")
    lines.append("| `checkpointLocation` | | Streaming: Spark's own. |")
    return "\n".join(lines) + "\n"


def spark_format_options() -> str:
    from kafkacodec.spark._live_formats import FormatOptions

    _check("value and key format options", {f.name for f in dataclasses.fields(FormatOptions)}, set(FORMATS))
    lines = ["| Option | Default | Meaning |", "| --- | --- | --- |"]
    for field, (default, meaning) in FORMATS.items():
        name = "schema.registry.*" if field == "registry" else _camel(field)
        lines.append(f"| `{name}` | {_cell(default)} | {_cell(meaning)} |")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------- other tables

def client_settings() -> str:
    from kafkacodec.client.config import markdown

    # "[a] [b]" in a cell would read as a reference link
    return markdown("all").replace("[", "\\[")


def librdkafka_settings() -> str:
    from kafkacodec.compat.confluent_kafka._config import markdown

    return markdown()


def protocol_apis() -> str:
    from kafkacodec import protocol

    lines = ["| Key | API | Versions | Classes |", "| --- | --- | --- | --- |"]
    for name, key in sorted(protocol.API_NAMES.items(), key=lambda item: item[1]):
        spec = protocol.SPECS[f"{name}Request"]
        lines.append(f"| {key} | {name} | {spec.min_version}-{spec.max_version} | "
                     f"`{name}Request`, `{name}Response` |")
    return "\n".join(lines) + "\n"


def bench_table() -> str:
    with open(os.path.join(ROOT, "bench", "results", "latest.md"), encoding="utf-8") as f:
        return f.read()


GENERATORS: dict[str, Callable[[], str]] = {
    "client-settings": client_settings,
    "librdkafka-settings": librdkafka_settings,
    "spark-live-options": spark_live_options,
    "spark-log-options": spark_log_options,
    "spark-sink-options": spark_sink_options,
    "spark-format-options": spark_format_options,
    "protocol-apis": protocol_apis,
    "bench-table": bench_table,
}


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    # links in generated tables, relative to the page that shows them
    settings_page = posixpath.relpath("reference/settings.md", posixpath.dirname(page.file.src_uri) or ".")

    def generate(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in GENERATORS:
            raise PluginError(f"{page.file.src_uri}: no generator named {name!r} (known: {', '.join(GENERATORS)})")
        return GENERATORS[name]().replace("(SETTINGS_PAGE)", f"({settings_page})")

    return _MARKER.sub(generate, markdown)


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    # the chart lives beside the report it belongs to; the site shows it without a copy in docs/
    files.append(File.generated(config, "benchmarks/latest.png",
                                abs_src_path=os.path.join(ROOT, "bench", "results", "latest.png")))
    return files
