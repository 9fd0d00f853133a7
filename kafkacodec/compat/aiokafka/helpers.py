"""aiokafka.helpers: create_ssl_context, the SSLContext its programs give as ``ssl_context``
(the producer's, consumer's and admin client's ``ssl_context`` setting)."""
from __future__ import annotations

import ssl
from collections.abc import Callable
from os import PathLike
from typing import Union

__all__ = ["create_ssl_context"]

_Path = Union[str, bytes, "PathLike[str]", "PathLike[bytes]"]


def create_ssl_context(*, cafile: _Path | None = None, capath: _Path | None = None,
                       cadata: str | bytes | None = None, certfile: _Path | None = None,
                       keyfile: _Path | None = None,
                       password: Callable[[], str | bytes | bytearray] | str | bytes | bytearray | None = None,
                       ) -> ssl.SSLContext:
    """A client SSLContext as aiokafka's: the default context for server authentication (hostname
    checked) with the CA given by `cafile`, `capath` or `cadata` (else the system's), and the client
    certificate `certfile` with its key `keyfile` (unlocked by `password`) when a certificate is given."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=cafile, capath=capath, cadata=cadata)
    if certfile is not None:
        context.load_cert_chain(certfile, keyfile, password)
    return context
