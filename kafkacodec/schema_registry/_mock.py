"""An in-process Schema Registry for users' tests: ``SchemaRegistryClient({"url": "mock://name"})``.

It answers the REST calls the client makes the way the registry does (ids shared by equal schemas
across subjects, versions per subject, soft and hard deletes, compatibility levels and their check,
the registry's error codes), so code under test runs the client's real paths without a server.
Every client given the same ``mock://`` URL in a process sees the same registry.  Compatibility of
Avro schemas is checked with the Avro specification's resolution rules (kafkacodec.avro); JSON
Schema and Protobuf schemas, and Avro schemas with references, are taken as compatible.
"""
from __future__ import annotations

import json
import threading
import urllib.parse
import uuid
from typing import Any

from kafkacodec.schema_registry._types import SchemaRegistryError

_LEVELS = ("NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE")
_REGISTRIES: dict[str, "MockRegistry"] = {}
_REGISTRIES_LOCK = threading.Lock()


def mock_registry(url: str) -> "MockRegistry":
    """The process's registry for this ``mock://`` URL (made on first use)."""
    with _REGISTRIES_LOCK:
        found = _REGISTRIES.get(url)
        if found is None:
            found = _REGISTRIES[url] = MockRegistry()
        return found


def _not_found(code: int, text: str) -> SchemaRegistryError:
    return SchemaRegistryError(404, code, text)


def _avro_problem(text: str) -> str | None:
    from kafkacodec.avro import AvroSchemaError, parse_schema
    try:
        parse_schema(json.loads(text) if text.lstrip()[:1] in "{[\"" else text)
    except ValueError as e:
        # a recursive schema is valid Avro; it only has no Arrow form
        return None if isinstance(e, AvroSchemaError) and "recursive" in str(e) else str(e)
    return None


def _can_read(reader: str, writer: str) -> bool:
    from kafkacodec.avro._schema import AvroSchemaError, Plan, parse_schema
    try:
        plan = Plan(parse_schema(json.loads(reader)))
        plan.add_writer(parse_schema(json.loads(writer)))
    except AvroSchemaError as e:
        return "recursive" in str(e)    # no plan for recursive schemas: not checked
    return True


class MockRegistry:
    """The registry's state and its answers; ``request`` takes what the HTTP client would send."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._schemas: list[dict[str, Any]] = []            # index = id - 1
        self._ids: dict[str, int] = {}                        # schema key -> id
        self._subjects: dict[str, list[dict[str, Any]]] = {}  # versions: {version, id, deleted}
        self._config: dict[str | None, str] = {None: "BACKWARD"}
        self._mode: dict[str | None, str] = {None: "READWRITE"}

    def close(self) -> None:
        pass

    def request(self, method: str, path: str, body: Any) -> Any:
        url = urllib.parse.urlsplit(path)
        parts = [urllib.parse.unquote(p) for p in url.path.strip("/").split("/")]
        pairs = urllib.parse.parse_qsl(url.query)
        query = dict(pairs)
        # /subjects/{s}/metadata repeats key= and value=, in pairs
        query["metadata"] = json.dumps(list(zip([v for k, v in pairs if k == "key"],
                                                [v for k, v in pairs if k == "value"])))
        with self._lock:
            return self._route(method, parts, query, body)

    # --- routing ---------------------------------------------------------------------------------

    def _route(self, method: str, p: list[str], q: dict[str, str], body: Any) -> Any:
        def flag(name: str) -> bool:
            return q.get(name) == "true"
        n = len(p)
        scope: str | None = p[1] if n > 1 else None     # /config and /mode: a subject's, or the registry's
        if p[0] == "schemas":
            if n == 2 and p[1] == "types":
                return ["JSON", "PROTOBUF", "AVRO"]
            if n >= 3 and p[1] == "guids":
                return self._schema_json(next((i + 1 for i, s in enumerate(self._schemas) if s["guid"] == p[2]), 0),
                                         p[2])
            if n >= 3 and p[1] == "ids":
                sid = self._int(p[2], 42202)
                if n == 3:
                    return self._schema_json(sid, p[2])
                self._schema_json(sid, p[2])
                holders = [(s, v) for s, vs in self._subjects.items() for v in vs
                           if v["id"] == sid and (flag("deleted") or not v["deleted"])]
                if p[3] == "subjects":
                    return sorted({s for s, _ in holders})
                return [{"subject": s, "version": v["version"]} for s, v in holders]
        if p[0] == "subjects":
            if n == 1:
                return sorted(s for s, vs in self._subjects.items()
                              if any(flag("deleted") or not v["deleted"] for v in vs)
                              and s.startswith(q.get("subjectPrefix", "")))
            subject = p[1]
            if n == 2 and method == "POST":
                return self._lookup(subject, body, flag("normalize"), flag("deleted"))
            if n == 2 and method == "DELETE":
                return self._delete_subject(subject, flag("permanent"))
            if n == 3 and p[2] == "metadata":
                wanted = dict(json.loads(q["metadata"]))
                for v in reversed(self._versions(subject, flag("deleted"))):
                    properties = (self._schemas[v["id"] - 1].get("metadata") or {}).get("properties") or {}
                    if all(properties.get(k) == value for k, value in wanted.items()):
                        return self._version_json(subject, v)
                raise _not_found(40403, f"Schema with metadata {wanted} not found in subject '{subject}'")
            if n == 3 and p[2] == "versions" and method == "POST":
                return self._register(subject, body, flag("normalize"))
            if n == 3 and p[2] == "versions":
                versions = self._versions(subject, flag("deleted") or flag("deletedOnly"))
                if flag("deletedOnly"):
                    versions = [v for v in versions if v["deleted"]]
                return [v["version"] for v in versions]
            if n >= 4 and p[2] == "versions":
                found = self._version(subject, p[3], flag("deleted") or (method == "DELETE" and flag("permanent")))
                if n == 5 and p[4] == "referencedby":
                    return []
                if method == "DELETE":
                    return self._delete_version(subject, found, flag("permanent"))
                return self._version_json(subject, found)
        if p[0] == "compatibility" and n >= 4:
            subject = p[2]
            versions = self._versions(subject, False)
            if n == 5:
                against = [self._version(subject, p[4], False)]
            else:
                against = versions
            new = self._parse_body(body, flag("normalize"))
            return {"is_compatible": all(self._compatible(self._level(subject), new, self._schemas[v["id"] - 1])
                                   for v in against)}
        if p[0] == "config":
            if method == "PUT":
                level = str((body or {}).get("compatibility", "")).upper()
                if level not in _LEVELS:
                    raise SchemaRegistryError(422, 42203, f"Invalid compatibility level {level!r}")
                self._config[scope] = level
                return {"compatibility": level}
            if method == "DELETE":
                if scope is None:
                    raise SchemaRegistryError(405, 405, "the global config cannot be deleted")
                old = self._config.pop(scope, None)
                if old is None:
                    raise _not_found(40401, f"Subject '{scope}' not found.")
                return {"compatibilityLevel": old}
            if scope is not None and scope not in self._config and not flag("defaultToGlobal"):
                raise _not_found(40408, f"Subject '{scope}' does not have subject-level compatibility configured")
            return {"compatibilityLevel": self._config.get(scope, self._config[None])}
        if p[0] == "mode":
            if method == "PUT":
                self._mode[scope] = str((body or {}).get("mode"))
            elif method == "DELETE" and scope is not None:
                return {"mode": self._mode.pop(scope, self._mode[None])}
            return {"mode": self._mode.get(scope, self._mode[None])}
        if p[0] == "contexts":
            return ["."]
        raise SchemaRegistryError(404, 404, f"HTTP 404 Not Found: {method} /{'/'.join(p)}")

    # --- state -----------------------------------------------------------------------------------

    @staticmethod
    def _int(text: str, code: int) -> int:
        try:
            return int(text)
        except ValueError:
            raise SchemaRegistryError(422, code, f"'{text}' is not a valid number") from None

    def _schema_json(self, sid: int, name: str) -> dict[str, Any]:
        if not 1 <= sid <= len(self._schemas):
            raise _not_found(40403, f"Schema {name} not found")
        s = self._schemas[sid - 1]
        out: dict[str, Any] = {"schema": s["schema"]}
        if s["schemaType"] != "AVRO":
            out["schemaType"] = s["schemaType"]
        if s["references"]:
            out["references"] = s["references"]
        if s.get("metadata"):
            out["metadata"] = s["metadata"]
        return out

    def _parse_body(self, body: Any, normalize: bool) -> dict[str, Any]:
        if not isinstance(body, dict) or not isinstance(body.get("schema"), str):
            raise SchemaRegistryError(422, 42201, "Invalid schema: the request has no schema text")
        kind = body.get("schemaType") or "AVRO"
        text = body["schema"]
        if kind in ("AVRO", "JSON"):
            try:
                parsed = json.loads(text) if kind == "JSON" or text.lstrip()[:1] in "{[\"" else text
            except ValueError as e:
                raise SchemaRegistryError(422, 42201, f"Invalid schema: {e}") from None
            problem = _avro_problem(text) if kind == "AVRO" and not body.get("references") else None
            if problem:
                raise SchemaRegistryError(422, 42201, f"Invalid schema: {problem}")
            if normalize:
                text = json.dumps(parsed, separators=(",", ":"), sort_keys=kind == "JSON")
        return {"schema": text, "schemaType": kind, "references": list(body.get("references") or ()),
                "metadata": body.get("metadata")}

    @staticmethod
    def _key(s: dict[str, Any]) -> str:
        return json.dumps([s["schema"], s["schemaType"], s["references"], s.get("metadata")], sort_keys=True)

    def _subject(self, subject: str, deleted: bool) -> list[dict[str, Any]]:
        versions = self._subjects.get(subject)
        if not versions or not (deleted or any(not v["deleted"] for v in versions)):
            raise _not_found(40401, f"Subject '{subject}' not found.")
        return versions

    def _versions(self, subject: str, deleted: bool) -> list[dict[str, Any]]:
        return [v for v in self._subject(subject, deleted) if deleted or not v["deleted"]]

    def _version(self, subject: str, version: str, deleted: bool) -> dict[str, Any]:
        versions = self._versions(subject, deleted)
        if version in ("latest", "-1"):
            return versions[-1]
        number = self._int(version, 42202)
        for v in versions:
            if v["version"] == number:
                return v
        raise _not_found(40402, f"Version {version} not found.")

    def _version_json(self, subject: str, v: dict[str, Any]) -> dict[str, Any]:
        out = {"subject": subject, "version": v["version"], "id": v["id"],
               "guid": self._schemas[v["id"] - 1]["guid"]}
        out.update(self._schema_json(v["id"], str(v["id"])))
        return out

    def _level(self, subject: str) -> str:
        return self._config.get(subject, self._config[None])

    @staticmethod
    def _compatible(level: str, new: dict[str, Any], old: dict[str, Any]) -> bool:
        if level == "NONE" or new["schemaType"] != "AVRO" or old["schemaType"] != "AVRO" \
                or new["references"] or old["references"]:
            return True
        backward = not level.startswith("FORWARD")      # BACKWARD* and FULL*
        forward = level.startswith(("FORWARD", "FULL"))
        return (not backward or _can_read(new["schema"], old["schema"])) and \
            (not forward or _can_read(old["schema"], new["schema"]))

    def _register(self, subject: str, body: Any, normalize: bool) -> dict[str, Any]:
        if self._mode.get(subject, self._mode[None]) == "READONLY":
            raise SchemaRegistryError(422, 42205, f"Subject {subject} is in read-only mode")
        new = self._parse_body(body, normalize)
        key = self._key(new)
        live = [v for v in self._subjects.get(subject, []) if not v["deleted"]]
        sid = self._ids.get(key)
        if sid is not None and any(v["id"] == sid for v in live):
            return {"id": sid, "guid": self._schemas[sid - 1]["guid"]}
        level = self._level(subject)
        against = live if level.endswith("TRANSITIVE") else live[-1:]
        for v in against:
            if not self._compatible(level, new, self._schemas[v["id"] - 1]):
                raise SchemaRegistryError(409, 409, "Schema being registered is incompatible with an earlier "
                                          f"schema for subject \"{subject}\"")
        if sid is None:
            self._schemas.append(dict(new, guid=str(uuid.uuid4())))
            sid = self._ids[key] = len(self._schemas)
        versions = self._subjects.setdefault(subject, [])
        versions.append({"version": max((v["version"] for v in versions), default=0) + 1, "id": sid,
                         "deleted": False})
        return {"id": sid, "guid": self._schemas[sid - 1]["guid"]}

    def _lookup(self, subject: str, body: Any, normalize: bool, deleted: bool) -> dict[str, Any]:
        versions = self._versions(subject, deleted)
        sid = self._ids.get(self._key(self._parse_body(body, normalize)))
        for v in versions:
            if v["id"] == sid:
                return self._version_json(subject, v)
        raise _not_found(40403, "Schema not found")

    def _delete_subject(self, subject: str, permanent: bool) -> list[int]:
        versions = self._subject(subject, True)
        if permanent:
            if any(not v["deleted"] for v in versions):
                raise SchemaRegistryError(409, 40405, f"Subject '{subject}' was not deleted first before "
                                          "being permanently deleted")
            del self._subjects[subject]
            return [v["version"] for v in versions]
        live = [v for v in versions if not v["deleted"]]
        if not live:
            raise _not_found(40404, f"Subject '{subject}' was soft deleted.Set permanent=true to delete "
                             "permanently")
        for v in live:
            v["deleted"] = True
        return [v["version"] for v in live]

    def _delete_version(self, subject: str, found: dict[str, Any], permanent: bool) -> int:
        if permanent:
            if not found["deleted"]:
                raise SchemaRegistryError(409, 40407, f"Subject '{subject}' Version {found['version']} was not "
                                          "deleted first before being permanently deleted")
            self._subjects[subject].remove(found)
            if not self._subjects[subject]:
                del self._subjects[subject]
        else:
            found["deleted"] = True
        return int(found["version"])
