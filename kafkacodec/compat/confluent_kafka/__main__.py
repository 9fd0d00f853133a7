"""``python -m kafkacodec.compat.confluent_kafka [--settings-markdown]``: the librdkafka settings
table, as text, or as the Markdown of SETTINGS.md (each setting's status per client)."""
import sys

from kafkacodec.compat.confluent_kafka._config import describe, markdown

if sys.argv[1:] == ["--settings-markdown"]:
    print(markdown(), end="")
elif sys.argv[1:]:
    raise SystemExit("usage: python -m kafkacodec.compat.confluent_kafka [--settings-markdown]")
else:
    print(describe())
