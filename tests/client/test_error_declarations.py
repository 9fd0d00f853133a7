"""The broker error classes kafkacodec.client.errors declares for mypy (under TYPE_CHECKING) say
what the classes built at import are: the same bases and the same __init__."""
import ast
import inspect

import kafkacodec.client.errors as E
from kafkacodec.protocol import errors as protocol_errors


def _declarations():
    tree = ast.parse(inspect.getsource(E))
    block = next(node for node in tree.body if isinstance(node, ast.If)
                 and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
    return [node for node in block.body if isinstance(node, ast.ClassDef) and not node.name.startswith("_")]


def _declared_init(cls_node):
    init = next((node for node in cls_node.body
                 if isinstance(node, ast.FunctionDef) and node.name == "__init__"), None)
    assert init is not None, f"{cls_node.name}: no __init__ declared (mypy would see BrokerError's, untyped)"
    args = init.args
    defaults = [None] * (len(args.args) - len(args.defaults)) + [ast.literal_eval(d) for d in args.defaults]
    return [(a.arg, d) for a, d in zip(args.args, defaults)]


def test_declared_broker_errors_match_the_classes_built():
    declared = _declarations()
    assert len(declared) >= 6
    for node in declared:
        built = getattr(E, node.name)
        protocol_base = getattr(protocol_errors, node.bases[0].attr)
        assert built.__bases__[0] is protocol_errors.BY_NAME[built.__bases__[0].name]
        assert issubclass(built.__bases__[0], protocol_base) and built.__bases__[0].__bases__ == (protocol_base,)
        assert built.__bases__[1] is E.BrokerResponseError
        signature = inspect.signature(built.__init__)
        runtime = [(p.name, None if p.default is inspect.Parameter.empty else p.default)
                   for p in signature.parameters.values()]
        assert _declared_init(node) == runtime, node.name


def test_declared_init_takes_the_message():
    err = E.UnsupportedVersionError("Produce v2")
    assert err.message == "Produce v2" and "(Produce v2)" in str(err)
    assert E.CoordinatorNotAvailableError().message is None and E.CoordinatorNotAvailableError.retriable
