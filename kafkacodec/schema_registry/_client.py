"""The REST client of Confluent's Schema Registry API, with its caches."""
from __future__ import annotations

import base64
import collections
import contextlib
import http.client
import json
import os
import ssl
import threading
import time
import urllib.parse
from typing import Any, Callable, Iterator, Literal

from kafkacodec._random import rng
from kafkacodec.schema_registry._types import (RETRIABLE_STATUS, RegisteredSchema, Schema, SchemaRegistryError,
                                               SchemaVersion, ServerConfig)

_ACCEPT = "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json, application/json"
_CONTENT_TYPE = "application/vnd.schemaregistry.v1+json"
_MAX_ANSWER = 64 << 20      # a registry answer is JSON of schemas; more than this is not one


def _q(segment: str | int) -> str:
    return urllib.parse.quote(str(segment), safe="")


def _number(conf: dict[str, Any], key: str, default: Any) -> Any:
    value = conf.pop(key, None)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{key} must be a number, not {type(value).__name__}")
    return value


class WouldBlock(Exception):
    """Raised instead of a request to the registry while ``cached_only`` is in effect."""


_CACHED_ONLY = threading.local()


@contextlib.contextmanager
def cached_only() -> Iterator[None]:
    """In this thread, a call that needs the registry raises WouldBlock before sending anything, so an
    event loop answers from the caches at once and sends only the rest to a worker thread."""
    _CACHED_ONLY.active = True
    try:
        yield
    finally:
        _CACHED_ONLY.active = False


class _LRU:
    """A bounded mapping, least recently used first out; the lock makes it safe across threads."""

    def __init__(self, capacity: int, ttl: float | None = None) -> None:
        self._data: collections.OrderedDict[Any, tuple[float, Any]] = collections.OrderedDict()
        self._capacity = max(1, capacity)
        self._ttl = ttl
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return None
            if self._ttl is not None and time.monotonic() - hit[0] > self._ttl:
                del self._data[key]
                return None
            self._data.move_to_end(key)
            return hit[1]

    def put(self, key: Any, value: Any) -> None:
        with self._lock:
            self._data[key] = (time.monotonic(), value)
            self._data.move_to_end(key)
            while len(self._data) > self._capacity:
                self._data.popitem(last=False)

    def drop(self, match: Callable[[Any], bool]) -> None:
        with self._lock:
            for key in [k for k in self._data if match(k)]:
                del self._data[key]

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


class _Bearer:
    """Where a bearer token comes from: a static one, an OAuth client-credentials grant (renewed at
    80% of its lifetime), or the user's function."""

    def __init__(self, source: str, conf: dict[str, Any], timeout: float, ssl_context: ssl.SSLContext) -> None:
        self.source = source
        self._timeout = timeout
        self._ssl = ssl_context
        self._lock = threading.Lock()
        self._token = ""
        self._renew_at = 0.0
        self.logical_cluster = conf.pop("bearer.auth.logical.cluster", None)
        self.identity_pool = conf.pop("bearer.auth.identity.pool.id", None)
        if source == "STATIC_TOKEN":
            self._token = conf.pop("bearer.auth.token", None) or ""
            if not self._token:
                raise ValueError("bearer.auth.token is required with bearer.auth.credentials.source=STATIC_TOKEN")
            self._need_cluster()
        elif source == "OAUTHBEARER":
            need = ("bearer.auth.client.id", "bearer.auth.client.secret", "bearer.auth.scope",
                    "bearer.auth.issuer.endpoint.url")
            missing = [k for k in need if not conf.get(k)]
            if missing:
                raise ValueError(f"{', '.join(missing)} required with bearer.auth.credentials.source=OAUTHBEARER")
            self._client_id, self._secret, self._scope, self._endpoint = (conf.pop(k) for k in need)
            self._need_cluster()
        elif source == "CUSTOM":
            self._function = conf.pop("bearer.auth.custom.provider.function", None)
            self._config = conf.pop("bearer.auth.custom.provider.config", None)
            if not callable(self._function) or not isinstance(self._config, dict):
                raise ValueError("bearer.auth.credentials.source=CUSTOM needs a callable "
                                 "bearer.auth.custom.provider.function and a dict bearer.auth.custom.provider.config")
        else:
            raise ValueError(f"Unrecognized bearer.auth.credentials.source {source!r} "
                             "(STATIC_TOKEN, OAUTHBEARER or CUSTOM)")

    def _need_cluster(self) -> None:
        if not self.logical_cluster:
            raise ValueError(f"bearer.auth.logical.cluster is required with bearer.auth.credentials.source="
                             f"{self.source}")

    def headers(self) -> dict[str, str]:
        if self.source == "CUSTOM":
            fields = self._function(self._config)
            missing = [k for k in ("bearer.auth.token", "bearer.auth.logical.cluster") if k not in fields]
            if missing:
                raise ValueError(f"bearer.auth.custom.provider.function answered without {', '.join(missing)}")
            token, cluster, pool = (fields["bearer.auth.token"], fields["bearer.auth.logical.cluster"],
                                    fields.get("bearer.auth.identity.pool.id"))
        else:
            token, cluster, pool = self._current_token(), self.logical_cluster, self.identity_pool
        out = {"Authorization": f"Bearer {token}", "target-sr-cluster": str(cluster)}
        if pool is not None:
            out["Confluent-Identity-Pool-Id"] = str(pool)
        return out

    def _current_token(self) -> str:
        if self.source == "STATIC_TOKEN":
            return self._token
        with self._lock:
            if not self._token or time.monotonic() >= self._renew_at:
                self._fetch()
            return self._token

    def _fetch(self) -> None:
        form = urllib.parse.urlencode({"grant_type": "client_credentials", "scope": self._scope}).encode()
        basic = base64.b64encode(f"{self._client_id}:{self._secret}".encode()).decode()
        url = urllib.parse.urlsplit(self._endpoint)
        conn = (http.client.HTTPSConnection(url.hostname or "", url.port, timeout=self._timeout, context=self._ssl)
                if url.scheme == "https" else http.client.HTTPConnection(url.hostname or "", url.port,
                                                                          timeout=self._timeout))
        try:
            conn.request("POST", url.path or "/", body=form,
                         headers={"Content-Type": "application/x-www-form-urlencoded",
                                  "Authorization": f"Basic {basic}"})
            resp = conn.getresponse()
            body = resp.read(_MAX_ANSWER)
        except (OSError, http.client.HTTPException) as e:
            raise SchemaRegistryError(-1, -1, f"OAuth token endpoint {self._endpoint} failed: {e}") from None
        finally:
            conn.close()
        try:
            answer = json.loads(body)
            token = answer["access_token"]
        except (ValueError, KeyError, TypeError):
            raise SchemaRegistryError(resp.status, -1, f"OAuth token endpoint {self._endpoint} answered no "
                                      f"access_token (HTTP {resp.status})") from None
        self._token = token
        self._renew_at = time.monotonic() + 0.8 * float(answer.get("expires_in", 3600))


class _Http:
    """Requests to the registry's URLs: one kept-alive connection per thread and URL, the next URL when
    one cannot be reached or answers a retriable status, retries with jittered exponential backoff."""

    def __init__(self, conf: dict[str, Any]) -> None:
        self.urls = conf["urls"]
        self.timeout = conf["timeout"]
        self.max_retries = conf["max_retries"]
        self.wait_ms = conf["wait_ms"]
        self.max_wait_ms = conf["max_wait_ms"]
        self.ssl = conf["ssl"]
        self.auth = conf["auth"]
        self.bearer = conf["bearer"]
        self.proxy = conf["proxy"]
        self._local = threading.local()
        self._preferred = 0

    def _connection(self, base: str) -> tuple[http.client.HTTPConnection, str]:
        conns = self._local.__dict__.setdefault("conns", {})
        found = conns.get(base)
        url = urllib.parse.urlsplit(base)
        prefix = url.path.rstrip("/")
        if found is None:
            host, port = url.hostname or "", url.port
            if self.proxy:
                p = urllib.parse.urlsplit(self.proxy)
                host, port = p.hostname or "", p.port
            if url.scheme == "https":
                found = http.client.HTTPSConnection(host, port, timeout=self.timeout, context=self.ssl)
                if self.proxy:
                    found.set_tunnel(url.hostname or "", url.port)
            else:
                found = http.client.HTTPConnection(host, port, timeout=self.timeout)
                if self.proxy:      # a plain-HTTP proxy takes the absolute URL as the request target
                    prefix = f"{url.scheme}://{url.netloc.rpartition('@')[2]}{prefix}"
            conns[base] = found
        elif self.proxy and url.scheme != "https":
            prefix = f"{url.scheme}://{url.netloc.rpartition('@')[2]}{prefix}"
        return found, prefix

    def _drop(self, base: str) -> None:
        conn = self._local.__dict__.get("conns", {}).pop(base, None)
        if conn is not None:
            conn.close()

    def close(self) -> None:
        for base in list(self._local.__dict__.get("conns", {})):
            self._drop(base)

    def request(self, method: str, path: str, body: Any = None) -> Any:
        if getattr(_CACHED_ONLY, "active", False):
            raise WouldBlock(path)
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": _ACCEPT, "Confluent-Accept-Unknown-Properties": "true",
                   "User-Agent": "kafkacodec-schema-registry"}
        if data is not None:
            headers["Content-Type"] = _CONTENT_TYPE
        if self.auth is not None:
            headers["Authorization"] = "Basic " + base64.b64encode(
                f"{self.auth[0]}:{self.auth[1]}".encode()).decode()
        if self.bearer is not None:
            headers.update(self.bearer.headers())
        failures: list[str] = []
        last_retriable: tuple[int, bytes] | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                cap = min(self.max_wait_ms, self.wait_ms * (1 << min(attempt - 1, 20)))
                time.sleep(rng.uniform(0, cap) / 1000.0)
            start = self._preferred
            for i in range(len(self.urls)):
                index = (start + i) % len(self.urls)
                base = self.urls[index]
                status, payload = self._send(base, method, path, data, headers, failures)
                if status is None:
                    continue
                if status in RETRIABLE_STATUS:
                    failures.append(f"{base}: HTTP {status}")
                    last_retriable = (status, payload)
                    continue
                self._preferred = index
                return _answer(status, payload)
        if last_retriable is not None:     # the registry's own error tells more than "no answer"
            return _answer(*last_retriable)
        raise SchemaRegistryError(-1, -1, f"{method} {path}: no schema registry answered "
                                  f"({'; '.join(failures[-len(self.urls):])})")

    def _send(self, base: str, method: str, path: str, data: bytes | None, headers: dict[str, str],
              failures: list[str]) -> tuple[int | None, bytes]:
        # a kept-alive connection the server closed meanwhile fails at once: one fresh try for it
        for fresh in (False, True):
            conn, prefix = self._connection(base)
            try:
                conn.request(method, prefix + path, body=data, headers=headers)
                resp = conn.getresponse()
                payload = resp.read(_MAX_ANSWER + 1)
                if len(payload) > _MAX_ANSWER:
                    self._drop(base)
                    raise SchemaRegistryError(resp.status, -1, f"{method} {path}: answer longer than "
                                              f"{_MAX_ANSWER} bytes from {base}")
                if resp.will_close:
                    self._drop(base)
                return resp.status, payload
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as e:
                self._drop(base)
                if fresh:
                    failures.append(f"{base}: {e}")
            except (OSError, http.client.HTTPException) as e:
                self._drop(base)
                failures.append(f"{base}: {e}")
                return None, b""
        return None, b""


def _answer(status: int, payload: bytes) -> Any:
    try:
        body = json.loads(payload) if payload else None
    except ValueError:
        body = None
        if 200 <= status < 300:
            raise SchemaRegistryError(status, -1, f"the registry answered HTTP {status} with what is not JSON: "
                                      f"{payload[:80]!r}") from None
    if 200 <= status < 300:
        return body
    if isinstance(body, dict):
        raise SchemaRegistryError(status, int(body.get("error_code", -1)),
                                  str(body.get("message", f"HTTP {status}")))
    text = payload[:200].decode("utf-8", "replace").strip()
    raise SchemaRegistryError(status, -1, f"HTTP {status}" + (f": {text}" if text else ""))


def _ssl_context(conf: dict[str, Any]) -> ssl.SSLContext:
    ca = conf.pop("ssl.ca.location", None)
    cert = conf.pop("ssl.certificate.location", None)
    key = conf.pop("ssl.key.location", None)
    password = conf.pop("ssl.key.password", None)
    if ca is False:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    elif isinstance(ca, str):
        ctx = ssl.create_default_context(capath=ca) if os.path.isdir(ca) else ssl.create_default_context(cafile=ca)
    else:
        ctx = ssl.create_default_context()
    if (key is not None or password is not None) and cert is None:
        raise ValueError("ssl.certificate.location is required with ssl.key.location or ssl.key.password")
    if cert is not None:
        ctx.load_cert_chain(certfile=cert, keyfile=key, password=password)
    return ctx


def _parse_conf(conf: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(conf, dict):
        raise TypeError(f"conf must be a dict, not {type(conf).__name__}")
    conf = dict(conf)
    url = conf.pop("url", None)
    if url is None:
        raise ValueError("Missing required configuration property url")
    if not isinstance(url, str):
        raise TypeError(f"url must be a str, not {type(url).__name__}")
    urls = [u.strip().rstrip("/") for u in url.split(",") if u.strip()]
    if not urls:
        raise ValueError("Missing required configuration property url")
    for u in urls:
        if not u.startswith(("http://", "https://", "mock://")):
            raise ValueError(f"Invalid url {u} (http://, https:// or mock://)")
    parsed = urllib.parse.urlsplit(urls[0])
    source = conf.pop("basic.auth.credentials.source", None)
    auth: tuple[str, str] | None = None
    if parsed.username is not None:
        auth = (urllib.parse.unquote(parsed.username), urllib.parse.unquote(parsed.password or ""))
    if source not in (None, "URL", "USER_INFO", "SASL_INHERIT"):
        raise ValueError(f"Unrecognized basic.auth.credentials.source {source!r} (URL, USER_INFO or SASL_INHERIT)")
    if source == "SASL_INHERIT":
        user, password = conf.pop("sasl.username", None), conf.pop("sasl.password", None)
        if not user:
            raise ValueError("basic.auth.credentials.source=SASL_INHERIT needs sasl.username and sasl.password")
        auth = (user, password or "")
    if "basic.auth.user.info" in conf:
        if auth is not None:
            raise ValueError("basic.auth.user.info configured with userinfo credentials in the URL: "
                             "remove one of them")
        user_info = conf.pop("basic.auth.user.info")
        parts = str(user_info).split(":", 1)
        if len(parts) != 2:
            raise ValueError("basic.auth.user.info must be in the form of {username}:{password}")
        auth = (parts[0], parts[1])
    out: dict[str, Any] = {
        "urls": [urllib.parse.urlunsplit(urllib.parse.urlsplit(u)._replace(
            netloc=urllib.parse.urlsplit(u).netloc.rpartition("@")[2])) for u in urls],
        "auth": auth, "proxy": conf.pop("proxy", None),
        "timeout": _number(conf, "timeout", 10),
        "capacity": int(_number(conf, "cache.capacity", 1000)),
        "latest_ttl": _number(conf, "cache.latest.ttl.sec", None),
        "max_retries": int(_number(conf, "max.retries", 3)),
        "wait_ms": _number(conf, "retries.wait.ms", 1000),
        "max_wait_ms": _number(conf, "retries.max.wait.ms", 20000),
    }
    out["ssl"] = _ssl_context(conf)
    bearer = conf.pop("bearer.auth.credentials.source", None)
    out["bearer"] = _Bearer(bearer, conf, out["timeout"], out["ssl"]) if bearer is not None else None
    if bearer is not None and auth is not None:
        raise ValueError("basic and bearer authentication are both configured: use one")
    if conf:
        raise ValueError(f"Unrecognized properties: {', '.join(conf)}")
    return out


Version = int | Literal["latest"]
_JSON_NAMES = {dict: "object", list: "array", int: "number", bool: "boolean", str: "string"}


def _checked(answer: Any, request: str, expect: type, field: str | None) -> Any:
    if not isinstance(answer, expect) or (expect is int and isinstance(answer, bool)):
        raise SchemaRegistryError(200, -1, f"{request}: the registry answered {json.dumps(answer)[:80]}, not a "
                                  f"JSON {_JSON_NAMES.get(expect, expect.__name__)}")
    fields: Any = answer
    if field is None:
        return fields
    if field not in fields:
        raise SchemaRegistryError(200, -1, f"{request}: the registry's answer has no {field!r}")
    return fields[field]


class SchemaRegistryClient:
    """A client of Confluent's Schema Registry REST API, safe to share between threads.

    ``conf`` takes confluent-kafka's keys: ``url`` (several, comma-separated: the next is tried when
    one cannot be reached or answers 408/429/5xx; ``mock://...`` is an in-process registry for tests,
    shared by every client with the same URL), ``basic.auth.user.info`` (``user:password``; or the
    URL's user info, or ``basic.auth.credentials.source=SASL_INHERIT`` with ``sasl.username`` and
    ``sasl.password``), ``bearer.auth.credentials.source`` (``STATIC_TOKEN`` with ``bearer.auth.token``,
    ``OAUTHBEARER`` with ``bearer.auth.client.id``/``client.secret``/``scope``/``issuer.endpoint.url``,
    or ``CUSTOM`` with ``bearer.auth.custom.provider.function``/``config``) plus
    ``bearer.auth.logical.cluster`` and ``bearer.auth.identity.pool.id``, ``ssl.ca.location`` (a file
    or directory, or False to not verify), ``ssl.certificate.location``, ``ssl.key.location``,
    ``ssl.key.password``, ``proxy``, ``timeout`` (seconds per request, default 10), ``max.retries``
    (3), ``retries.wait.ms`` (1000), ``retries.max.wait.ms`` (20000), ``cache.capacity`` (1000) and
    ``cache.latest.ttl.sec`` (how long a subject's latest version is kept; default: until
    ``clear_latest_caches``).  An unknown key is refused.

    Schemas by id, and ids by subject and schema, never change once registered, so they are cached
    for the client's lifetime (bounded by ``cache.capacity``).  Failures raise
    ``SchemaRegistryError(http_status_code, error_code, error_message)``.
    """

    def __init__(self, conf: dict[str, Any]) -> None:
        parsed = _parse_conf(conf)
        self._conf = dict(conf)
        if parsed["urls"][0].startswith("mock://"):
            from kafkacodec.schema_registry._mock import mock_registry
            self._rest: Any = mock_registry(parsed["urls"][0])
        else:
            self._rest = _Http(parsed)
        cap = parsed["capacity"]
        self._by_id = _LRU(cap)              # (id, subject, fmt) -> Schema
        self._by_schema = _LRU(cap)          # (subject, Schema, normalize) -> RegisteredSchema
        self._by_version = _LRU(cap)         # (subject, version, deleted, fmt) -> RegisteredSchema
        self._latest = _LRU(cap, parsed["latest_ttl"])   # (subject, fmt) -> RegisteredSchema

    @staticmethod
    def new_client(conf: dict[str, Any]) -> "SchemaRegistryClient":
        """A client for ``conf`` (``mock://`` URLs included), as confluent-kafka's factory."""
        return SchemaRegistryClient(conf)

    def config(self) -> dict[str, Any]:
        return dict(self._conf)

    def __enter__(self) -> "SchemaRegistryClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the calling thread's connections (others close when their threads end)."""
        close = getattr(self._rest, "close", None)
        if close is not None:
            close()

    def _call(self, method: str, path: str, body: Any = None, *, _expect: type = dict, _field: str | None = None,
              **query: Any) -> Any:
        """The registry's answer to one request, checked to be a JSON ``_expect`` (and to hold ``_field``,
        answered alone when named)."""
        q = {k: ("true" if v is True else "false" if v is False else v) for k, v in query.items() if v is not None}
        if q:
            path += "?" + urllib.parse.urlencode(q)
        return _checked(self._rest.request(method, path, body), f"{method} {path}", _expect, _field)

    # --- schemas ----------------------------------------------------------------------------------

    def register_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False) -> int:
        """Registers ``schema`` under the subject (or finds it there) and answers its id."""
        registered = self.register_schema_full_response(subject_name, schema, normalize_schemas)
        assert registered.schema_id is not None
        return registered.schema_id

    def register_schema_full_response(self, subject_name: str, schema: Schema,
                                      normalize_schemas: bool = False) -> RegisteredSchema:
        """Registers ``schema`` under the subject and answers what the registry holds (its id, and the
        subject and version where the registry says them)."""
        key = (subject_name, schema, bool(normalize_schemas))
        hit = self._by_schema.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        answer = self._call("POST", f"/subjects/{_q(subject_name)}/versions", schema.to_dict(),
                            normalize=normalize_schemas or None)
        if not isinstance(answer.get("id"), int):
            raise SchemaRegistryError(200, -1, f"register {subject_name}: answer without an id: {answer!r}")
        stored = Schema.from_dict(answer) if answer.get("schema") else schema
        registered = RegisteredSchema(answer["id"], stored, answer.get("subject", subject_name),
                                      answer.get("version"), answer.get("guid"))
        self._by_schema.put(key, registered)
        self._by_id.put((registered.schema_id, None, None), stored)
        return registered

    def get_schema(self, schema_id: int, subject_name: str | None = None, fmt: str | None = None,
                   reference_format: str | None = None) -> Schema:
        """The schema with this id (``subject_name`` names the context the id is looked up in)."""
        key = (schema_id, subject_name, fmt, reference_format)
        # ids are global outside named contexts (subjects ":.ctx:..."): a subject does not change the answer
        plain = fmt is None and reference_format is None and not (subject_name or "").startswith(":.")
        hit = self._by_id.get(key) or (self._by_id.get((schema_id, None, None)) if plain else None)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        answer = self._call("GET", f"/schemas/ids/{int(schema_id)}", subject=subject_name, format=fmt,
                            referenceFormat=reference_format)
        schema = Schema.from_dict(answer)
        self._by_id.put((schema_id, None, None) if plain else key, schema)
        return schema

    def get_schema_by_guid(self, guid: str, fmt: str | None = None) -> Schema:
        key = ("guid", guid, fmt)
        hit = self._by_id.get(key)
        if hit is None:
            hit = Schema.from_dict(self._call("GET", f"/schemas/guids/{_q(guid)}", format=fmt))
            self._by_id.put(key, hit)
        return hit  # type: ignore[no-any-return]

    def get_schema_types(self) -> list[str]:
        return list(self._call("GET", "/schemas/types", _expect=list))

    def get_subjects_by_schema_id(self, schema_id: int, subject_name: str | None = None, deleted: bool = False,
                                  offset: int = 0, limit: int = -1) -> list[str]:
        return list(self._call("GET", f"/schemas/ids/{int(schema_id)}/subjects", _expect=list, subject=subject_name,
                               deleted=deleted or None, offset=offset or None, limit=None if limit < 0 else limit))

    def get_schema_versions(self, schema_id: int, subject_name: str | None = None, deleted: bool = False,
                            offset: int = 0, limit: int = -1) -> list[SchemaVersion]:
        """The subjects' versions that hold the schema."""
        found = self._call("GET", f"/schemas/ids/{int(schema_id)}/versions", _expect=list, subject=subject_name,
                           deleted=deleted or None, offset=offset or None, limit=None if limit < 0 else limit)
        return [SchemaVersion(v.get("subject"), v.get("version")) for v in found if isinstance(v, dict)]

    def lookup_schema(self, subject_name: str, schema: Schema, normalize_schemas: bool = False,
                      fmt: str | None = None, deleted: bool = False) -> RegisteredSchema:
        """The version of the subject holding ``schema`` (error 40403 when it holds none)."""
        key = ("lookup", subject_name, schema, bool(normalize_schemas), fmt, deleted)
        hit = self._by_schema.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        answer = self._call("POST", f"/subjects/{_q(subject_name)}", schema.to_dict(),
                            normalize=normalize_schemas or None, format=fmt, deleted=deleted or None)
        registered = RegisteredSchema.from_dict(answer)
        self._by_schema.put(key, registered)
        self._by_id.put((registered.schema_id, None, None), registered.schema)
        return registered

    # --- subjects and versions ---------------------------------------------------------------------

    def get_subjects(self, subject_prefix: str | None = None, deleted: bool = False, deleted_only: bool = False,
                     offset: int = 0, limit: int = -1) -> list[str]:
        return list(self._call("GET", "/subjects", _expect=list, subjectPrefix=subject_prefix, deleted=deleted or None,
                               deletedOnly=deleted_only or None, offset=offset or None,
                               limit=None if limit < 0 else limit))

    def delete_subject(self, subject_name: str, permanent: bool = False) -> list[int]:
        """Deletes the subject and answers the versions deleted: a soft delete, or with ``permanent=True``
        a hard one, which the registry takes only after a soft one (error 40405)."""
        answer = self._call("DELETE", f"/subjects/{_q(subject_name)}", _expect=list, permanent=permanent or None)
        self._forget(subject_name)
        return list(answer)

    def delete_version(self, subject_name: str, version: int, permanent: bool = False) -> int:
        answer = self._call("DELETE", f"/subjects/{_q(subject_name)}/versions/{_q(version)}", _expect=int,
                            permanent=permanent or None)
        self._forget(subject_name)
        return int(answer)

    def _forget(self, subject: str) -> None:
        self._latest.drop(lambda k: k[0] == subject)
        self._by_version.drop(lambda k: k[0] == subject)
        self._by_schema.drop(lambda k: k[0] == subject or (k[0] == "lookup" and k[1] == subject))

    def get_versions(self, subject_name: str, deleted: bool = False, deleted_only: bool = False,
                     offset: int = 0, limit: int = -1) -> list[int]:
        return list(self._call("GET", f"/subjects/{_q(subject_name)}/versions", _expect=list, deleted=deleted or None,
                               deletedOnly=deleted_only or None, offset=offset or None,
                               limit=None if limit < 0 else limit))

    def get_latest_version(self, subject_name: str, fmt: str | None = None) -> RegisteredSchema:
        """The subject's latest version; kept for ``cache.latest.ttl.sec`` (or until
        ``clear_latest_caches``)."""
        key = (subject_name, fmt)
        hit = self._latest.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        registered = RegisteredSchema.from_dict(
            self._call("GET", f"/subjects/{_q(subject_name)}/versions/latest", format=fmt))
        self._latest.put(key, registered)
        return registered

    def get_latest_with_metadata(self, subject_name: str, metadata: dict[str, str], deleted: bool = False,
                                 fmt: str | None = None) -> RegisteredSchema:
        """The subject's latest version whose metadata has these key/value pairs."""
        key = ("metadata", subject_name, tuple(sorted(metadata.items())), deleted, fmt)
        hit = self._latest.get(key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        path = f"/subjects/{_q(subject_name)}/metadata?" + urllib.parse.urlencode(
            [("key", k) for k in metadata] + [("value", v) for v in metadata.values()])
        extra = {k: v for k, v in (("deleted", "true" if deleted else None), ("format", fmt)) if v is not None}
        if extra:
            path += "&" + urllib.parse.urlencode(extra)
        registered = RegisteredSchema.from_dict(_checked(self._rest.request("GET", path, None), f"GET {path}", dict,
                                                         None))
        self._latest.put(key, registered)
        return registered

    def get_version(self, subject_name: str, version: Version = "latest", deleted: bool = False,
                    fmt: str | None = None) -> RegisteredSchema:
        if version == "latest" and not deleted:
            return self.get_latest_version(subject_name, fmt)
        key = (subject_name, version, deleted, fmt)
        hit: RegisteredSchema | None = self._by_version.get(key)
        if hit is not None:
            return hit
        registered = RegisteredSchema.from_dict(
            self._call("GET", f"/subjects/{_q(subject_name)}/versions/{_q(version)}", deleted=deleted or None,
                       format=fmt))
        if version != "latest":
            self._by_version.put(key, registered)
        return registered

    def get_referenced_by(self, subject_name: str, version: Version = "latest", offset: int = 0,
                          limit: int = -1) -> list[int]:
        return list(self._call("GET", f"/subjects/{_q(subject_name)}/versions/{_q(version)}/referencedby", _expect=list,
                               offset=offset or None, limit=None if limit < 0 else limit))

    def clear_latest_caches(self) -> None:
        self._latest.clear()

    def clear_caches(self) -> None:
        for cache in (self._latest, self._by_id, self._by_schema, self._by_version):
            cache.clear()

    # --- compatibility, config, mode ---------------------------------------------------------------

    def test_compatibility(self, subject_name: str, schema: Schema, version: Version = "latest",
                           normalize: bool = False, verbose: bool = False) -> bool:
        """Whether ``schema`` is compatible with the subject's ``version`` under its compatibility
        level."""
        answer = self._call("POST", f"/compatibility/subjects/{_q(subject_name)}/versions/{_q(version)}",
                            schema.to_dict(), normalize=normalize or None, verbose=verbose or None)
        return bool(_checked(answer, "compatibility check", dict, "is_compatible"))

    def test_compatibility_all_versions(self, subject_name: str, schema: Schema, normalize: bool = False,
                                        verbose: bool = False) -> bool:
        answer = self._call("POST", f"/compatibility/subjects/{_q(subject_name)}/versions", schema.to_dict(),
                            normalize=normalize or None, verbose=verbose or None)
        return bool(_checked(answer, "compatibility check", dict, "is_compatible"))

    def set_compatibility(self, subject_name: str | None = None, level: str | None = None) -> str:
        """Sets the subject's compatibility level (the registry's default without a subject)."""
        if level is None:
            raise ValueError("level must be set")
        path = "/config" if subject_name is None else f"/config/{_q(subject_name)}"
        return str(self._call("PUT", path, {"compatibility": level.upper()}, _field="compatibility"))

    def get_compatibility(self, subject_name: str | None = None) -> str:
        path = "/config" if subject_name is None else f"/config/{_q(subject_name)}"
        return str(self._call("GET", path, _field="compatibilityLevel"))

    def get_config(self, subject_name: str | None = None) -> ServerConfig:
        path = "/config" if subject_name is None else f"/config/{_q(subject_name)}"
        return ServerConfig.from_dict(self._call("GET", path))

    def set_config(self, subject_name: str | None = None, config: ServerConfig | None = None) -> ServerConfig:
        if config is None:
            raise ValueError("config must be set")
        path = "/config" if subject_name is None else f"/config/{_q(subject_name)}"
        return ServerConfig.from_dict(self._call("PUT", path, config.to_dict()))

    def delete_config(self, subject_name: str | None = None) -> ServerConfig:
        path = "/config" if subject_name is None else f"/config/{_q(subject_name)}"
        return ServerConfig.from_dict(self._call("DELETE", path))

    def get_mode(self, subject_name: str) -> str:
        return str(self._call("GET", f"/mode/{_q(subject_name)}", _field="mode"))

    def update_mode(self, subject_name: str, mode: str, force: bool = False) -> str:
        return str(self._call("PUT", f"/mode/{_q(subject_name)}", {"mode": mode}, _field="mode", force=force or None))

    def delete_mode(self, subject_name: str) -> str:
        return str(self._call("DELETE", f"/mode/{_q(subject_name)}", _field="mode"))

    def get_global_mode(self) -> str:
        return str(self._call("GET", "/mode", _field="mode"))

    def update_global_mode(self, mode: str, force: bool = False) -> str:
        return str(self._call("PUT", "/mode", {"mode": mode}, _field="mode", force=force or None))

    def get_contexts(self, offset: int = 0, limit: int = -1) -> list[str]:
        return list(self._call("GET", "/contexts", _expect=list, offset=offset or None,
                               limit=None if limit < 0 else limit))
