"""Every generated message class, by spec name (``MetadataRequest``, ``FetchResponse``...).

Nested structs are attributes of their message class
(``MetadataRequest.MetadataRequestTopic``).  Header and ``data`` records
(``RequestHeader``, ``ConsumerProtocolSubscription``, ``LeaderChangeMessage``...)
are here too.
"""
from kafkacodec.protocol._model import SPECS as _SPECS, Struct

__all__ = ["Struct"] + sorted(_SPECS)
globals().update({name: spec.cls for name, spec in _SPECS.items()})
