"""The bases of the broker error classes, apart from the generated ones (``_error_codes``) so that
those can subclass them without an import circle."""
from kafkacodec.errors import KafkaError

__all__ = ["BrokerError", "RetriableBrokerError"]


class BrokerError(KafkaError):
    """A non-zero error code returned by a broker."""

    code: int | None = None
    name: str = "UNKNOWN"
    retriable: bool = False
    description: str = ""

    def __init__(self, message: str | None = None) -> None:
        self.message = message
        text = f"[{self.code}] {self.name}: {self.description}"
        if message:
            text += f" ({message})"
        super().__init__(text)


class RetriableBrokerError(BrokerError):
    """An error the same request may succeed after (after a backoff or metadata refresh)."""

    retriable = True
