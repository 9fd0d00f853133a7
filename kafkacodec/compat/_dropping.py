"""What a face's consumer does when it is collected without close(), as the consumers it stands
for do: librdkafka's handle destroyed without a consumer close, kafka-python's consumer left to
the collector.  Its client stops: no final commit, no group left (the broker drops the member
after its session timeout), and no wait on the client's I/O thread or on any lock of its (a
collection may run anywhere, that thread included)."""
from __future__ import annotations

from kafkacodec.client.network import NetworkClient

__all__ = ["StopsWhenDropped"]


class StopsWhenDropped:
    """A face whose client stops when the face is collected unclosed (`_closed` False)."""

    _closed: bool

    def _network(self) -> NetworkClient:
        """The network client under the face's client."""
        raise NotImplementedError

    def __del__(self) -> None:
        if getattr(self, "_closed", True) is False:
            try:
                self._network().close(0)
            except Exception:
                pass
