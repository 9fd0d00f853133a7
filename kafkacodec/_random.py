"""The library's random draws (keyless partitions, backoff jitter, the order brokers are tried in,
re-authentication times) come from a generator of its own: many run on its I/O thread, at moments
of its own, and drawn from Python's shared ``random`` they would move the sequence of an
application that seeds it (``random.seed(7)``) differently from run to run."""
from __future__ import annotations

import random

__all__ = ["rng"]

rng = random.Random()
