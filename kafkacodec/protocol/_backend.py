"""The plan executor the protocol functions use when given no ``impl``.

``kafkacodec._impl`` decides for the whole package: the compiled ``_codec``
when kafkacodec runs accelerated, the pure-Python twin ``_pure_codec`` when it
runs pure (forced, or the extension could not load, which ``_impl`` reports).
``pure_executor`` (the twin, for tests and comparisons) is imported when first
named, so an accelerated program never loads it.
"""
import importlib
from types import ModuleType

from kafkacodec import _impl

executor: ModuleType
if _impl.accelerated:
    from kafkacodec.protocol import _codec as executor
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    from kafkacodec.protocol import _pure_codec as executor

accelerated = _impl.accelerated

__all__ = ["executor", "pure_executor", "accelerated"]


def __getattr__(name):
    if name == "pure_executor":
        return importlib.import_module("kafkacodec.protocol._pure_codec")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
