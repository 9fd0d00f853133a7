"""Kafka protocol error codes as data and as exception classes.

``ErrorCode`` names every code a broker may put in an ``error_code`` field
(``ErrorCode.NOT_LEADER_OR_FOLLOWER == 6``, with ``.retriable`` and
``.description``), so a test of a code need not spell the number.  Each code
has an exception class, e.g. ``NotLeaderOrFollowerError``; ``error_for(code)``
builds one and ``check(code)`` raises it unless the code is 0.  ``ERRORS`` holds
(code, name, retriable, description) for every code.  These are errors
*reported by a broker*, so they derive from :class:`BrokerError`, not from the
codec's ``KafkaCodecError``.

The codes and classes are generated (``_error_codes``, from
``tools/kafka_errors.py`` by ``tools/gen_protocol.py``), so type checkers know
every name.
"""
from kafkacodec.protocol import _error_codes
from kafkacodec.protocol._error_base import BrokerError, RetriableBrokerError
from kafkacodec.protocol._error_codes import *  # noqa: F403 - a class per code, named in its __all__
from kafkacodec.protocol._error_codes import BY_CODE, ErrorCode

__all__ = ["BrokerError", "RetriableBrokerError", "ERRORS", "ErrorCode", "BY_CODE", "BY_NAME",
           "error_for", "check", "class_for"]
__all__ += _error_codes.__all__

# The classes are this module's names: tracebacks and pickles say kafkacodec.protocol.errors.X.
for _cls in (BrokerError, RetriableBrokerError, *BY_CODE.values()):
    _cls.__module__ = __name__

ERRORS = tuple((code.value, code.name, code.retriable, code.description) for code in ErrorCode)
BY_NAME = {cls.name: cls for cls in BY_CODE.values()}


def class_for(code):
    """Exception class for an error code; unknown codes get a fresh BrokerError subclass."""
    cls = BY_CODE.get(code)
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
