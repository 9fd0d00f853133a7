"""The share consumer's settings (KIP-932): ``SHARE_CONSUMER``, one of the client settings tables
(``kafkacodec.client.config``, where ``python -m kafkacodec.client.config --kind share_consumer``
prints it)."""
from __future__ import annotations

from kafkacodec.client.config import SHARE_CONSUMER

__all__ = ["SHARE_CONSUMER"]
