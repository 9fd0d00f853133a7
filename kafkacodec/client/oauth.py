"""SASL/OAUTHBEARER tokens: where a client's token comes from and when the next one is fetched.

A client with ``sasl.mechanism=OAUTHBEARER`` holds one :class:`OAuthTokens`, which gets its
token from, in this order (librdkafka's):

- ``oauth_cb(sasl.oauthbearer.config) -> (token, expiry[, principal[, extensions]])``, expiry in
  seconds since the epoch (confluent-kafka's callback);
- an OIDC token endpoint (``sasl.oauthbearer.method=oidc``): the client-credentials grant
  (RFC 6749 §4.4) over HTTPS, the client authenticated with HTTP Basic, the access token a JWT
  whose ``exp`` and ``sasl.oauthbearer.sub.claim.name`` claims give its lifetime and principal;
- an unsecured JWT made here (``enable.sasl.oauthbearer.unsecure.jwt``, RFC 7515 appendix A.5)
  from ``sasl.oauthbearer.config``: ``principal=... [scope=a,b] [lifeSeconds=3600]
  [principalClaimName=sub] [scopeClaimName=scope] [extension_NAME=value]``, for development.

Tokens are fetched on a thread of the provider's own, never on the I/O thread (a callback or
an HTTP request may take seconds), at once when the client starts, then 80 % through each
token's lifetime, as librdkafka does.  A failure is retried 1 s later, doubling up to 10 s;
one that retrying cannot mend (the endpoint refused the client's credentials, the callback
returned no token) fails the connections waiting for a token, which the client reports as an
AuthenticationError.

Imported only by clients that use OAUTHBEARER (json, ssl and urllib load with it).
"""
from __future__ import annotations

import base64
import binascii
import dataclasses
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from kafkacodec.client.errors import AuthenticationError, ConfigError

__all__ = ["Token", "TokenError", "OAuthTokens", "check_settings", "unsecured_jwt", "jwt_claims", "token_from_callback",
           "fetch_oidc_token", "parse_extensions"]

log = logging.getLogger("kafkacodec.client")

REFRESH_AT = 0.8          # of a token's remaining lifetime, when the next one is fetched (librdkafka's)
RETRY_FIRST, RETRY_MAX = 1.0, 10.0   # s between attempts after a failure (librdkafka waits 10 s)

# RFC 7628 §3.1: key = 1*ALPHA; value = *(VCHAR / SP / HTAB / CR / LF); "auth" is the token's own key
_KEY = re.compile(r"[A-Za-z]+")
_VALUE = re.compile(r"[\x21-\x7e \t\r\n]*")


@dataclasses.dataclass(frozen=True)
class Token:
    """An OAUTHBEARER token as sent: its value, when it expires (seconds since the epoch),
    who it names, and the SASL extensions that go with it."""

    value: str
    expires: float
    principal: str
    extensions: tuple[tuple[str, str], ...] = ()


class TokenError(AuthenticationError):
    """No token could be had.  ``final``: retrying will not mend it (refused credentials, a
    callback returning no token); else the provider keeps trying."""

    def __init__(self, message: str, *, final: bool) -> None:
        super().__init__(message)
        self.final = final


# -- checks shared by the settings and the token sources

def _check_extension(key: str, value: str, where: str) -> None:
    if not _KEY.fullmatch(key) or key == "auth":
        raise ValueError(f"{where}: extension name {key!r} must be letters only, and not 'auth' (RFC 7628)")
    if not _VALUE.fullmatch(value):
        raise ValueError(f"{where}: extension {key!r} has a character RFC 7628 does not allow")


def parse_extensions(text: str | None, where: str = "sasl.oauthbearer.extensions") -> tuple[tuple[str, str], ...]:
    """``"a=1,b=2"`` (librdkafka's sasl.oauthbearer.extensions) as ((name, value), ...)."""
    out = []
    for item in (text or "").split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"{where}: expected name=value pairs separated by commas, got {item!r}")
        _check_extension(key.strip(), value, where)
        out.append((key.strip(), value))
    return tuple(out)


def _parse_unsecured(text: str | None) -> dict[str, Any]:
    """sasl.oauthbearer.config for the unsecured JWT, parsed as librdkafka does: space-separated
    name=value; principal is required."""
    where = "sasl.oauthbearer.config"
    out: dict[str, Any] = {"principalClaimName": "sub", "scopeClaimName": "scope", "lifeSeconds": 3600,
                           "scope": [], "extensions": []}
    for item in (text or "").split():
        name, sep, value = item.partition("=")
        if name.startswith("extension_") and sep:
            key = name[len("extension_"):]
            _check_extension(key, value, where)
            out["extensions"].append((key, value))
            continue
        if name not in ("principalClaimName", "principal", "scopeClaimName", "scope", "lifeSeconds") or not sep:
            raise ValueError(f"{where}: unrecognized {item!r} (principal, principalClaimName, scope, "
                             f"scopeClaimName, lifeSeconds, extension_NAME)")
        if not value:
            raise ValueError(f"{where}: empty {name!r}")
        if name == "lifeSeconds":
            if not value.isdigit() or not 0 < int(value) <= 2**31 - 1:
                raise ValueError(f"{where}: lifeSeconds must be a positive integer, got {value!r}")
            out[name] = int(value)
        elif name == "scope":
            out[name] = list(dict.fromkeys(s for s in value.split(",") if s))
        else:
            out[name] = value
    if "principal" not in out:
        raise ValueError(f"{where}: the unsecured JWT needs principal=<name>")
    return out


def check_settings(conf: Mapping[str, Any]) -> None:
    """The OAUTHBEARER settings of a resolved configuration hold together (ConfigError)."""
    cb, method = conf["oauth_cb"], conf["sasl.oauthbearer.method"]
    unsecured = conf["enable.sasl.oauthbearer.unsecure.jwt"]
    if method == "oidc" and unsecured:
        raise ConfigError("enable.sasl.oauthbearer.unsecure.jwt: and sasl.oauthbearer.method=oidc are mutually "
                          "exclusive")
    try:
        parse_extensions(conf["sasl.oauthbearer.extensions"])
        if cb is None and method == "oidc":
            for name in ("sasl.oauthbearer.token.endpoint.url", "sasl.oauthbearer.client.id",
                         "sasl.oauthbearer.client.secret"):
                if not conf[name]:
                    raise ConfigError(f"{name}: required with sasl.oauthbearer.method=oidc")
            url = conf["sasl.oauthbearer.token.endpoint.url"]
            if not url.lower().startswith(("https://", "http://")):
                raise ConfigError(f"sasl.oauthbearer.token.endpoint.url: expected an http(s):// URL, got {url!r}")
            if not conf["sasl.oauthbearer.sub.claim.name"].strip():
                raise ConfigError("sasl.oauthbearer.sub.claim.name: must not be empty")
        elif cb is None and unsecured:
            _parse_unsecured(conf["sasl.oauthbearer.config"])
        elif cb is None:
            raise ConfigError("sasl.mechanism: OAUTHBEARER needs a token: set oauth_cb, "
                              "sasl.oauthbearer.method=oidc (with its token endpoint and client credentials), "
                              "or enable.sasl.oauthbearer.unsecure.jwt=true for development")
    except ValueError as exc:
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(str(exc)) from None
    if conf["https.ca.location"] and conf["https.ca.pem"]:
        raise ConfigError("https.ca.location: and https.ca.pem are mutually exclusive")


# -- the token sources

def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt_claims(token: str) -> dict[str, Any]:
    """The claims (payload) of a JWS compact serialization, unverified; ValueError if it is none."""
    parts = token.split(".")
    if len(parts) != 3:
        raise ValueError("not a JWT (expected three dot-separated parts)")
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"the JWT's payload is not base64url JSON: {exc}") from None
    if not isinstance(claims, dict):
        raise ValueError("the JWT's payload is not a JSON object")
    return claims


def unsecured_jwt(config_text: str | None, now: float | None = None) -> Token:
    """The unsecured JWT librdkafka makes from sasl.oauthbearer.config: header {"alg":"none"},
    claims {principalClaimName: principal, "iat", "exp"[, scopeClaimName: [scopes]]}, no signature."""
    parsed = _parse_unsecured(config_text)
    now = time.time() if now is None else now
    claims: dict[str, Any] = {parsed["principalClaimName"]: parsed["principal"], "iat": round(now, 3),
                              "exp": round(now + parsed["lifeSeconds"], 3)}
    if parsed["scope"]:
        claims[parsed["scopeClaimName"]] = parsed["scope"]
    value = _b64url(b'{"alg":"none"}') + "." + _b64url(json.dumps(claims, separators=(",", ":")).encode()) + "."
    return Token(value, now + parsed["lifeSeconds"], parsed["principal"], tuple(parsed["extensions"]))


def token_from_callback(cb: Callable[[str | None], Any], config_text: str | None) -> Token:
    """Call oauth_cb as confluent-kafka does: with sasl.oauthbearer.config (None when unset); it
    returns (token, expiry in seconds since the epoch[, principal[, {extension: value}]])."""
    try:
        result = cb(config_text)
    except Exception as exc:
        # librdkafka retries a callback that failed: its identity provider may be down for a while
        raise TokenError(f"oauth_cb raised {type(exc).__name__}: {exc}", final=False) from exc
    if not isinstance(result, (tuple, list)) or not 2 <= len(result) <= 4:
        raise TokenError(f"oauth_cb must return (token, expiry[, principal[, extensions]]), got {result!r}",
                         final=True)
    value, expiry = result[0], result[1]
    principal = result[2] if len(result) > 2 else ""
    extensions = result[3] if len(result) > 3 else None
    if not isinstance(value, str) or not value or not _VALUE.fullmatch(value):
        raise TokenError("oauth_cb: the token must be a non-empty string of printable ASCII", final=True)
    if isinstance(expiry, bool) or not isinstance(expiry, (int, float)):
        raise TokenError(f"oauth_cb: expiry must be seconds since the epoch, got {expiry!r}", final=True)
    if not isinstance(principal, str):
        raise TokenError(f"oauth_cb: principal must be a string, got {principal!r}", final=True)
    if extensions is not None and not isinstance(extensions, dict):
        raise TokenError(f"oauth_cb: extensions must be a dict, got {extensions!r}", final=True)
    pairs = tuple((str(k), str(v)) for k, v in (extensions or {}).items())
    try:
        for key, val in pairs:
            _check_extension(key, val, "oauth_cb")
    except ValueError as exc:
        raise TokenError(str(exc), final=True) from None
    if expiry <= time.time():
        raise TokenError(f"oauth_cb returned a token that expired at {expiry:.3f} (now {time.time():.3f})",
                         final=True)
    return Token(value, float(expiry), principal, pairs)


def _https_context(conf: Mapping[str, Any]) -> Any:
    import ssl

    location, pem = conf["https.ca.location"], conf["https.ca.pem"]
    try:
        if location and location.strip().lower() != "probe":
            import os

            if os.path.isdir(location):
                return ssl.create_default_context(capath=location)
            return ssl.create_default_context(cafile=location)
        return ssl.create_default_context(cadata=pem) if pem else ssl.create_default_context()
    except (OSError, ssl.SSLError) as exc:
        raise TokenError(f"https.ca.location/https.ca.pem: cannot load: {exc}", final=True) from None


def fetch_oidc_token(conf: Mapping[str, Any], timeout: float) -> Token:
    """One client-credentials request to sasl.oauthbearer.token.endpoint.url, as librdkafka
    makes it: POST grant_type=client_credentials[&scope=...], HTTP Basic client id:secret,
    Accept: application/json; the answer's access_token (a JWT) gives expiry and principal."""
    import ssl
    import urllib.error
    import urllib.parse
    import urllib.request

    url = conf["sasl.oauthbearer.token.endpoint.url"]
    form = {"grant_type": "client_credentials"}
    if conf["sasl.oauthbearer.scope"]:
        form["scope"] = conf["sasl.oauthbearer.scope"]
    basic = base64.b64encode(f"{conf['sasl.oauthbearer.client.id']}:{conf['sasl.oauthbearer.client.secret']}"
                             .encode()).decode()
    request = urllib.request.Request(url, data=urllib.parse.urlencode(form).encode(), method="POST", headers={
        "Authorization": f"Basic {basic}", "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded"})
    context = _https_context(conf) if url.lower().startswith("https://") else None
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as answer:
            body = answer.read(1 << 20)
    except urllib.error.HTTPError as exc:
        detail = _oauth_error(exc)
        # 4xx: the endpoint refuses these credentials or this request, and will again
        raise TokenError(f"the token endpoint {url} answered {exc.code} {exc.reason}{detail}",
                         final=400 <= exc.code < 500) from None
    except ssl.SSLCertVerificationError as exc:
        raise TokenError(f"the token endpoint {url}: certificate not trusted: {exc.verify_message} "
                         f"(https.ca.location)", final=True) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise TokenError(f"the token endpoint {url} cannot be reached: {reason}", final=False) from None
    try:
        answer_doc = json.loads(body)
        value = answer_doc["access_token"]
        if not isinstance(value, str) or not value:
            raise KeyError("access_token")
    except (ValueError, KeyError, TypeError):
        raise TokenError(f"the token endpoint {url} answered no access_token: {body[:200]!r}", final=True) from None
    sub_claim = conf["sasl.oauthbearer.sub.claim.name"]
    try:
        claims = jwt_claims(value)
    except ValueError:
        claims = {}
    expiry = claims.get("exp")
    if isinstance(expiry, bool) or not isinstance(expiry, (int, float)) or expiry <= 0:
        # an opaque token: its lifetime is the answer's expires_in (RFC 6749 §5.1)
        expires_in = answer_doc.get("expires_in")
        if isinstance(expires_in, bool) or not isinstance(expires_in, (int, float)) or expires_in <= 0:
            raise TokenError(f"the token endpoint {url}: the access token has no exp claim and the answer no "
                             f"expires_in", final=True)
        expiry = time.time() + expires_in
    principal = claims.get(sub_claim)
    if not isinstance(principal, str) or not principal.strip():
        if claims:
            raise TokenError(f"the token endpoint {url}: the access token has no {sub_claim!r} claim "
                             f"(sasl.oauthbearer.sub.claim.name)", final=True)
        principal = conf["sasl.oauthbearer.client.id"]
    if not _VALUE.fullmatch(value):
        raise TokenError(f"the token endpoint {url}: the access token has characters RFC 7628 does not allow",
                         final=True)
    try:
        extensions = parse_extensions(conf["sasl.oauthbearer.extensions"])
    except ValueError as exc:
        raise TokenError(str(exc), final=True) from None
    return Token(value, float(expiry), principal, extensions)


def _oauth_error(exc: Any) -> str:
    """': error: description' from an OAuth error answer (RFC 6749 §5.2), if it is one."""
    try:
        doc = json.loads(exc.read(1 << 16))
    except (ValueError, OSError):
        return ""
    if not isinstance(doc, dict) or "error" not in doc:
        return ""
    described = doc.get("error_description")
    return f": {doc['error']}" + (f": {described}" if described else "")


# -- the provider

#: what waits for a token: fn(token, None) or fn(None, error), on the I/O thread
Waiter = Callable[[Token | None, BaseException | None], object]


class OAuthTokens:
    """One client's OAUTHBEARER token, fetched and renewed on a thread of its own.

    ``get(waiter)`` (I/O thread) returns the current token, or None and calls
    ``waiter(token, error)`` through ``call_soon`` (which runs it on the I/O thread) once a
    token is there or cannot be had."""

    def __init__(self, conf: Mapping[str, Any], call_soon: Callable[..., None]) -> None:
        self.conf = conf
        self._call_soon = call_soon
        self._cond = threading.Condition()
        self._token: Token | None = None
        self._refresh_at = 0.0          # wall clock: fetch the next token from then on
        self._final: TokenError | None = None
        self.last_error: TokenError | None = None
        self._waiters: list[Waiter] = []
        self._closed = False
        source = ("oauth_cb" if conf["oauth_cb"] is not None else
                  "oidc" if conf["sasl.oauthbearer.method"] == "oidc" else "unsecured")
        self.source = source
        self._thread = threading.Thread(target=self._run, name="kafkacodec-oauth", daemon=True)
        self._thread.start()

    def get(self, waiter: Waiter) -> Token | None:
        with self._cond:
            if self._final is not None:
                error = self._final
                self._call_soon(waiter, None, error)
                return None
            token = self._token
            if token is not None and token.expires > time.time():
                return token
            self._waiters.append(waiter)
            self._cond.notify()
            return None

    def forget(self, waiter: Waiter) -> None:
        """A connection closed while it waited: no answer is wanted any more."""
        with self._cond:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._waiters.clear()
            self._cond.notify()

    def _fetch(self) -> Token:
        conf = self.conf
        if self.source == "oauth_cb":
            return token_from_callback(conf["oauth_cb"], conf["sasl.oauthbearer.config"])
        if self.source == "oidc":
            return fetch_oidc_token(conf, conf["request.timeout.ms"] / 1000)
        try:
            return unsecured_jwt(conf["sasl.oauthbearer.config"])
        except ValueError as exc:  # refused with the settings already; kept for the message
            raise TokenError(str(exc), final=True) from None

    def _run(self) -> None:
        retry = RETRY_FIRST
        next_attempt = 0.0
        while True:
            with self._cond:
                while not self._closed:
                    now = time.time()
                    held = self._token
                    due = max(next_attempt, self._refresh_at if held is not None and held.expires > now else 0.0)
                    if self._final is None and now >= due:
                        break
                    self._cond.wait(None if self._final is not None else min(due - now, 60.0))
                if self._closed:
                    return
            token: Token | None = None
            try:
                token = self._fetch()
            except TokenError as exc:
                error: TokenError | None = exc
            except Exception as exc:  # a bug in a source must not end renewals silently
                error = TokenError(f"OAUTHBEARER token: {type(exc).__name__}: {exc}", final=False)
            else:
                error = None
            with self._cond:
                if self._closed:
                    return
                if token is not None:
                    now = time.time()
                    self._token = token
                    self._refresh_at = now + REFRESH_AT * (token.expires - now)
                    self.last_error = None
                    retry, next_attempt = RETRY_FIRST, 0.0
                    waiters, self._waiters = self._waiters, []
                    log.debug("OAUTHBEARER token for %r from %s, expires in %.1f s", token.principal, self.source,
                              token.expires - now)
                    for waiter in waiters:
                        self._call_soon(waiter, token, None)
                    continue
                assert error is not None
                self.last_error = error
                if error.final:
                    self._final = error
                    waiters, self._waiters = self._waiters, []
                    for waiter in waiters:
                        self._call_soon(waiter, None, error)
                    log.error("OAUTHBEARER: %s", error)
                    continue
                log.warning("OAUTHBEARER: %s (next attempt in %.0f s)", error, retry)
                next_attempt = time.time() + retry
                retry = min(retry * 2, RETRY_MAX)
