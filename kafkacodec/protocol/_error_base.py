"""The bases of the broker error classes, apart from the generated ones (``_error_codes``) so that
those can subclass them without an import circle."""
from collections.abc import Callable, Container

from kafkacodec.errors import KafkaError

__all__ = ["BrokerError", "RetriableBrokerError", "lazy_getattr"]


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


def lazy_getattr(module: str, names: Container[str], load: Callable[[], object],
                 namespace: dict[str, object]) -> Callable[[str], object]:
    """A module's __getattr__ (PEP 562) for error classes made when first named: a name of
    `names` is taken from `namespace` (the module's globals) once load() has put it there."""
    def __getattr__(name: str) -> object:
        if name in names:
            load()
            return namespace[name]
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    return __getattr__
