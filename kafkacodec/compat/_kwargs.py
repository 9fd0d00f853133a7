"""Keyword arguments of Python clients (aiokafka, kafka-python) as kafkacodec.client settings."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kafkacodec.client.errors import ConfigError

__all__ = ["translate", "servers"]

#: an entry: a client setting name, a (name, convert) pair, NOOP, or a refusal (str starting "refused: ")
Entry = str | tuple[str, Callable[[Any], Any]] | None
NOOP = None


def servers(value: Any) -> str:
    """bootstrap_servers: 'host[:port]' or a list of them; a host without a port is on 9092."""
    items = [value] if isinstance(value, str) else list(value)
    out = []
    for item in items:
        for part in str(item).split(","):
            part = part.strip()
            if part and ":" not in part.rsplit("]", 1)[-1]:
                part += ":9092"
            if part:
                out.append(part)
    return ",".join(out)


def translate(kind: str, table: Mapping[str, Entry], refused: Mapping[str, tuple[Any, str]],
              given: Mapping[str, Any]) -> dict[str, Any]:
    """Client settings for the keyword arguments `given`.  `refused`: name -> (the value that means
    nothing to do, what to use instead); any other value is a ConfigError naming that."""
    conf: dict[str, Any] = {}
    for name, value in given.items():
        if name in refused:
            harmless, instead = refused[name]
            if value is harmless or value == harmless:
                continue
            raise ConfigError(f"{kind}: {name}={value!r} has no meaning in kafkacodec: {instead}")
        if name not in table:
            raise TypeError(f"{kind}: unexpected keyword argument {name!r}")
        entry = table[name]
        if entry is NOOP or value is None:
            continue
        if isinstance(entry, tuple):
            conf[entry[0]] = entry[1](value)
        else:
            conf[entry] = value
    return conf
