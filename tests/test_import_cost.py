"""Importing the client or the confluent face builds nothing it does not need: no protocol
tables (each message's classes are built on first use), no broker error classes, no pure-Python
codec when the compiled one runs, no pyarrow.  Checked in a fresh interpreter by what sys.modules holds, never by time."""
import json
import os
import subprocess
import sys

import pytest

import kafkacodec

# never loaded by importing a client: each has a cost at start and a later first use
NOT_AT_IMPORT = [
    "kafkacodec.protocol._schema",  # the generated tables: loaded by the first request
    # the broker error classes: made when one is first named or raised
    "kafkacodec.protocol._error_classes", "kafkacodec.client._broker_errors",
    "pyarrow", "numpy", "pandas", "kafkacodec.arrow", "kafkacodec.spark", "kafkacodec.logdir",
    "kafkacodec.client.oauth",  # OAUTHBEARER's tokens (json, urllib): loaded by the clients that use it
    "ssl",          # the TLS context: built for SSL/SASL_SSL only
    "dataclasses",  # (with inspect and ast) several ms that plain slotted classes do without
]


def _after(code):
    """(modules loaded, whether the protocol registry is loaded, built message classes) after `code`."""
    probe = code + """
import sys
modules = sorted(sys.modules)  # before the probe's own imports
from kafkacodec.protocol import _model
import json
print(json.dumps({"modules": modules, "loaded": _model.loaded(),
                  "built": sorted(n for n, s in _model._specs.items() if "cls" in s.__dict__)}))
"""
    env = {k: v for k, v in os.environ.items() if k != "KAFKACODEC_PURE"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module", ["kafkacodec.client", "kafkacodec.compat.confluent_kafka"])
def test_import_builds_no_protocol_model(module):
    got = _after(f"import {module}")
    assert module in got["modules"]
    assert not [m for m in NOT_AT_IMPORT if m in got["modules"]]
    assert not got["loaded"] and got["built"] == []
    if kafkacodec.accelerated:
        assert "kafkacodec.protocol._pure_codec" not in got["modules"]


def test_first_use_builds_only_the_messages_used():
    got = _after("""
from kafkacodec.protocol import encode_request, messages as m
encode_request("Metadata", 12, m.MetadataRequest(topics=None), correlation_id=1)
""")
    assert got["loaded"] and "kafkacodec.protocol._schema" in got["modules"]
    assert got["built"] == ["MetadataRequest", "RequestHeader"]


def test_a_producer_script_loads_no_consumer_group_admin_or_transactions():
    """The client package imports each class when first named: `from kafkacodec.client import
    Producer` loads the producer's modules only (a transactional producer loads its manager then)."""
    got = _after("from kafkacodec.client import Producer")
    assert "kafkacodec.client.producer" in got["modules"]
    assert not [m for m in ("kafkacodec.client.consumer", "kafkacodec.client.group", "kafkacodec.client.fetcher",
                            "kafkacodec.client.admin", "kafkacodec.client.share", "kafkacodec.client.transaction",
                            "kafkacodec.client.coordinator") if m in got["modules"]]
    got = _after("import kafkacodec.client as c; c.Consumer; c.Admin; c.ShareConsumer")
    assert {"kafkacodec.client.consumer", "kafkacodec.client.admin", "kafkacodec.client.share"} <= set(got["modules"])
