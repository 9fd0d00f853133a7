"""SASL mechanisms as step machines: PLAIN (RFC 4616), SCRAM-SHA-256/512 (RFC 5802, 7677) and
OAUTHBEARER (RFC 7628, KIP-255; its tokens come from kafkacodec.client.oauth).

Each mechanism gives the first client message from ``start()`` and answers
every server message with ``step(server_bytes)``; it returns None once the
exchange is complete and raises AuthenticationError when the server's proof
or answer is wrong.
"""
from __future__ import annotations

import base64
import os
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from kafkacodec.client.errors import AuthenticationError

__all__ = ["Plain", "Scram", "OAuthBearer", "Mechanism", "mechanism_for", "MIN_ITERATIONS"]

# hashlib, hmac and unicodedata are imported where SCRAM uses them: every client imports this
# module, few of them authenticate with SCRAM.

# RFC 7677's floor for SCRAM-SHA-256, which Kafka applies to SCRAM-SHA-512 too
MIN_ITERATIONS = 4096


class Mechanism(Protocol):
    name: str
    username: str

    def start(self) -> bytes: ...

    def step(self, server_message: bytes | bytearray | memoryview) -> bytes | None: ...


class Plain:
    name = "PLAIN"

    def __init__(self, username: str, password: str) -> None:
        self.username = username
        self.password = password

    def start(self) -> bytes:
        return b"\0" + self.username.encode() + b"\0" + self.password.encode()

    def step(self, server_message: bytes | bytearray | memoryview) -> bytes | None:
        return None  # PLAIN has one message; an empty success answer ends it


def _saslname(name: str) -> str:
    # RFC 5802 §5.1: ',' and '=' in a user name are escaped as =2C and =3D
    return name.replace("=", "=3D").replace(",", "=2C")


def _saslprep(text: str) -> str:
    import unicodedata

    # The normalisation step of SASLprep (RFC 4013): NFKC, with non-ASCII spaces as spaces.
    mapped = "".join(" " if unicodedata.category(c) == "Zs" else c for c in text
                     if c not in "\u00ad\u200b\u2060\ufeff")
    return unicodedata.normalize("NFKC", mapped)


class Scram:
    """SCRAM client (no channel binding: gs2 header "n,,")."""

    def __init__(self, username: str, password: str, hash_name: str = "sha256", nonce: str | None = None) -> None:
        self.name = "SCRAM-SHA-256" if hash_name == "sha256" else "SCRAM-SHA-512"
        self.hash_name = hash_name
        self.username = username
        self.password = _saslprep(password).encode()
        self.nonce = nonce or base64.b64encode(os.urandom(24)).decode()
        self.state = "start"
        self.server_signature: bytes | None = None

    def _hmac(self, key: bytes, data: bytes) -> bytes:
        import hmac

        return hmac.new(key, data, self.hash_name).digest()

    def start(self) -> bytes:
        self.client_first_bare = f"n={_saslname(self.username)},r={self.nonce}"
        self.state = "first"
        return ("n,," + self.client_first_bare).encode()

    def step(self, server_message: bytes | bytearray | memoryview) -> bytes | None:
        text = bytes(server_message).decode()
        if self.state == "first":
            return self._final(text)
        if self.state == "final":
            self._verify(text)
            self.state = "done"
            return None
        raise AuthenticationError(f"{self.name}: unexpected server message after the exchange ended")

    @staticmethod
    def _attributes(text: str) -> dict[str, str]:
        out = {}
        for part in text.split(","):
            if len(part) >= 2 and part[1] == "=":
                out[part[0]] = part[2:]
        return out

    def _final(self, server_first: str) -> bytes:
        import hashlib

        attrs = self._attributes(server_first)
        if "e" in attrs:
            raise AuthenticationError(f"{self.name}: server refused: {attrs['e']}")
        try:
            nonce, salt, iterations = attrs["r"], base64.b64decode(attrs["s"]), int(attrs["i"])
        except (KeyError, ValueError) as exc:
            raise AuthenticationError(f"{self.name}: malformed server-first-message {server_first!r}") from exc
        if not nonce.startswith(self.nonce) or len(nonce) == len(self.nonce):
            raise AuthenticationError(f"{self.name}: the server nonce does not extend ours")
        if iterations < MIN_ITERATIONS:
            # a server asking for fewer would weaken the salted password that proves who we are
            raise AuthenticationError(f"{self.name}: the server asks for {iterations} iterations, "
                                      f"fewer than the minimum {MIN_ITERATIONS} (RFC 7677)")
        salted = hashlib.pbkdf2_hmac(self.hash_name, self.password, salt, iterations)
        client_key = self._hmac(salted, b"Client Key")
        stored_key = hashlib.new(self.hash_name, client_key).digest()
        without_proof = f"c=biws,r={nonce}"  # biws = base64("n,,")
        auth_message = f"{self.client_first_bare},{server_first},{without_proof}".encode()
        signature = self._hmac(stored_key, auth_message)
        proof = bytes(a ^ b for a, b in zip(client_key, signature))
        server_key = self._hmac(salted, b"Server Key")
        self.server_signature = self._hmac(server_key, auth_message)
        self.state = "final"
        return f"{without_proof},p={base64.b64encode(proof).decode()}".encode()

    def _verify(self, server_final: str) -> None:
        import hmac

        attrs = self._attributes(server_final)
        if "e" in attrs:
            raise AuthenticationError(f"{self.name}: authentication failed: {attrs['e']}")
        try:
            verifier = base64.b64decode(attrs["v"])
        except (KeyError, ValueError) as exc:
            raise AuthenticationError(f"{self.name}: malformed server-final-message {server_final!r}") from exc
        if self.server_signature is None or not hmac.compare_digest(verifier, self.server_signature):
            raise AuthenticationError(f"{self.name}: the server's signature is wrong (not the server we know)")


class OAuthBearer:
    """OAUTHBEARER client (RFC 7628 §3.1): one message with the token; a server that refuses it
    answers an error document, which the client acknowledges with a lone %x01 before the
    server ends the exchange (the error is reported with the server's final message)."""

    name = "OAUTHBEARER"

    def __init__(self, token: str, principal: str = "", extensions: Iterable[tuple[str, str]] = ()) -> None:
        self.token = token
        self.username = principal  # how failures name who authenticated
        self.extensions = tuple(extensions)
        self.server_error: str | None = None

    def start(self) -> bytes:
        pairs = "".join(f"{key}={value}\x01" for key, value in self.extensions)
        return f"n,,\x01auth=Bearer {self.token}\x01{pairs}\x01".encode()

    def step(self, server_message: bytes | bytearray | memoryview) -> bytes | None:
        data = bytes(server_message)
        if self.server_error is not None:
            raise AuthenticationError(f"SASL OAUTHBEARER authentication as {self.username!r} failed: "
                                      f"{self.server_error}")
        if not data:
            return None
        self.server_error = data.decode(errors="replace")
        return b"\x01"


def mechanism_for(conf: Mapping[str, Any]) -> Plain | Scram:
    name = conf["sasl.mechanism"]
    user, password = conf["sasl.username"], conf["sasl.password"]
    if name == "PLAIN":
        return Plain(user, password)
    return Scram(user, password, "sha256" if name == "SCRAM-SHA-256" else "sha512")
