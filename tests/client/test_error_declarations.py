"""The broker error classes are static (generated into client/_broker_errors.py and
protocol/_error_codes.py from one table), so mypy knows each one: every code has its client class,
made of the protocol's class for the code and BrokerResponseError, with a typed __init__."""
import inspect

import kafkacodec.client.errors as E
from kafkacodec.protocol import errors as protocol_errors


def test_every_code_has_its_client_class():
    codes = [code for code in protocol_errors.ErrorCode if code != 0]
    assert len(codes) > 130
    for code in codes:
        built = type(E.error_for(code))
        protocol_class = protocol_errors.BY_CODE[code]
        assert getattr(E, built.__name__) is built and built.__name__ in E.__all__
        assert built.__bases__ == (protocol_class, E.BrokerResponseError)
        assert protocol_class.__bases__ == (protocol_errors.RetriableBrokerError if code.retriable
                                            else protocol_errors.BrokerError,)
        assert (built.code, built.name, built.retriable, built.description) == (
            code.value, code.name, code.retriable, code.description)
        assert built.__module__ == "kafkacodec.client.errors" and built.__doc__ == code.description


def test_init_takes_the_message_and_is_typed():
    signature = inspect.signature(E.UnsupportedVersionError.__init__)
    assert [(p.name, p.default) for p in signature.parameters.values()] == [
        ("self", inspect.Parameter.empty), ("message", None)]
    assert signature.parameters["message"].annotation == str | None
    err = E.UnsupportedVersionError("Produce v2")
    assert err.message == "Produce v2" and "(Produce v2)" in str(err)
    assert E.CoordinatorNotAvailableError().message is None and E.CoordinatorNotAvailableError.retriable


def test_unknown_codes_get_a_class_once():
    err = E.error_for(9999, "new")
    assert type(err) is type(E.error_for(9999)) and err.code == 9999 and not err.retriable
    assert isinstance(err, E.BrokerResponseError) and isinstance(err, protocol_errors.BrokerError)


def test_classes_are_made_when_first_named():
    import subprocess
    import sys
    code = ("import sys; from kafkacodec.client import errors as E; "
            "before = 'kafkacodec.client._broker_errors' in sys.modules; "
            "from kafkacodec.client import ProducerFencedError; "
            "print(before, ProducerFencedError is E.ProducerFencedError, E.ProducerFencedError.__module__, "
            "'kafkacodec.client._broker_errors' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "kafkacodec.client.errors", "True"]
