"""The plan executor the protocol functions use when given no ``impl``.

``kafkacodec._impl`` decides for the whole package: the compiled ``_codec``
when kafkacodec runs accelerated, the pure-Python twin ``_pure_codec`` when it
runs pure (forced, or the extension could not load, which ``_impl`` reports).
"""
from types import ModuleType

from kafkacodec import _impl
from kafkacodec.protocol import _pure_codec as pure_executor

executor: ModuleType
if _impl.accelerated:
    from kafkacodec.protocol import _codec as executor
else:  # pragma: no cover - exercised with KAFKACODEC_PURE=1
    executor = pure_executor

accelerated = _impl.accelerated

__all__ = ["executor", "pure_executor", "accelerated"]
