"""Kafka protocol error codes as data and as exception classes.

``ErrorCode`` names every code a broker may put in an ``error_code`` field
(``ErrorCode.NOT_LEADER_OR_FOLLOWER == 6``, with ``.retriable`` and
``.description``), so a test of a code need not spell the number.  Each code
has an exception class, e.g. ``NotLeaderOrFollowerError``; ``error_for(code)``
builds one and ``check(code)`` raises it unless the code is 0.  ``ERRORS`` holds
(code, name, retriable, description) for every code.  These are errors
*reported by a broker*, so they derive from :class:`BrokerError`, not from the
codec's ``KafkaCodecError``.

The codes and classes are generated (``_error_codes``, ``_error_classes``, from
``tools/kafka_errors.py`` by ``tools/gen_protocol.py``), so type checkers know
every name.  The classes are made when one is first named or raised: a program
that meets no broker error never makes them.
"""
from typing import TYPE_CHECKING

from kafkacodec.protocol import _error_codes
from kafkacodec.protocol._error_base import BrokerError, RetriableBrokerError, lazy_getattr
from kafkacodec.protocol._error_codes import ErrorCode

__all__ = ["BrokerError", "RetriableBrokerError", "ERRORS", "ErrorCode", "BY_CODE", "BY_NAME",
           "error_for", "check", "class_for"]

if TYPE_CHECKING:
    from kafkacodec.protocol import _error_classes
    from kafkacodec.protocol._error_classes import *  # noqa: F403 - a class per code, named in its __all__
    from kafkacodec.protocol._error_classes import BY_CODE

    __all__ += _error_classes.__all__
    BY_NAME: dict[str, type[BrokerError]]
else:
    __all__ += _error_codes.CLASS_NAMES  # the same names, without making the classes

# The classes are this module's names: tracebacks and pickles say kafkacodec.protocol.errors.X.
BrokerError.__module__ = RetriableBrokerError.__module__ = __name__

ERRORS = tuple((code.value, code.name, code.retriable, code.description) for code in ErrorCode)
_LAZY = frozenset((*_error_codes.CLASS_NAMES, "BY_CODE", "BY_NAME"))


def _classes():
    """The generated classes, made (and named here) on first use."""
    from kafkacodec.protocol import _error_classes as classes
    g = globals()
    if "BY_NAME" not in g:  # BY_NAME last: a thread that sees it sees the rest
        for cls in classes.BY_CODE.values():
            g[cls.__name__] = cls
        g["BY_CODE"] = classes.BY_CODE
        g["BY_NAME"] = {cls.name: cls for cls in classes.BY_CODE.values()}
    return classes


if not TYPE_CHECKING:  # (type checkers know the generated names, and no others)
    __getattr__ = lazy_getattr(__name__, _LAZY, _classes, globals())


def class_for(code):
    """Exception class for an error code; unknown codes get a fresh BrokerError subclass."""
    cls = _classes().BY_CODE.get(code)
    if cls is None:
        cls = type(f"UnknownError{code}", (BrokerError,),
                   {"code": code, "name": f"UNKNOWN_{code}", "description": "An error code this table does not know."})
    return cls


def error_for(code, message=None):
    return class_for(code)(message)


def check(code, message=None):
    """Raise the exception for a non-zero error code."""
    if code:
        raise error_for(code, message)
