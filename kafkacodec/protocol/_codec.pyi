# Stub for the compiled module kafkacodec/protocol/_codec.pyx: the executor of
# the plans kafkacodec.protocol._model compiles from the schema tables.
from typing import Any, Final, final

from _typeshed import ReadableBuffer

from kafkacodec._buffer import Writer as Writer

# Field kinds (FieldOp.kind).
INT8: Final = 0
INT16: Final = 1
INT32: Final = 2
INT64: Final = 3
UINT16: Final = 4
UINT32: Final = 5
FLOAT64: Final = 6
BOOL: Final = 7
UUID: Final = 8
STRING: Final = 9
BYTES: Final = 10
RECORDS: Final = 11
ARRAY: Final = 12
STRUCT: Final = 13

@final
class FieldOp:
    """One field of a compiled plan; attributes are writable while a plan is built."""

    kind: int
    attr: str | None  # None for the element op of an array
    nullable: bool
    compact: bool
    min_size: int
    child: StructPlan | None
    elem: FieldOp | None
    tag: int  # -1 for a field that is not tagged
    default: Any
    factory: Any
    ignorable: bool
    lenient: tuple[int, str] | None  # (bytes left when a peer left the field out or -1, debug line): _lenient
    def __init__(
        self,
        kind: int,
        attr: str | None,
        nullable: bool,
        compact: bool,
        min_size: int,
        child: StructPlan | None,
        elem: FieldOp | None,
    ) -> None: ...

@final
class StructPlan:
    """The compiled layout of one message/struct class at one version."""

    cls: type[Any]
    @property
    def ops(self) -> tuple[FieldOp, ...]: ...  # read-only: the executor keeps a C array of it
    tagged: tuple[FieldOp, ...]
    absent: tuple[FieldOp, ...]
    flexible: bool
    min_size: int
    by_tag: dict[int, FieldOp]
    def __init__(
        self,
        cls: type[Any],
        ops: tuple[FieldOp, ...] | list[FieldOp],
        tagged: tuple[FieldOp, ...] | list[FieldOp],
        absent: tuple[FieldOp, ...] | list[FieldOp],
        flexible: bool,
        min_size: int,
    ) -> None: ...

def decode(
    plan: StructPlan, data: ReadableBuffer, start: int = 0, stop: int | None = None, base: int = 0
) -> tuple[Any, int]: ...
def encode(plan: StructPlan, obj: Any, w: Writer | None = None) -> Writer: ...
