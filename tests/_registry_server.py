"""A small Schema Registry for tests: the REST endpoints of Confluent's API that clients use, served
over HTTP (or HTTPS) on 127.0.0.1 by a thread, with optional basic or bearer authentication.

Written from the API's documentation (docs.confluent.io, "Schema Registry API Reference"), apart
from kafkacodec's own mock registry, so the client is checked against an independent reading of
the API.  No registry server is installable here; this is what the HTTP client is tested with.
"""
import base64
import contextlib
import json
import ssl
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

JSON_TYPE = "application/vnd.schemaregistry.v1+json"


class RegistryState:
    def __init__(self):
        self.schemas = {}        # id -> {"schema", "schemaType", "references"}
        self.ids = {}            # canonical key -> id
        self.subjects = {}       # subject -> list of [version, id, deleted]
        self.config = {None: "BACKWARD"}
        self.compatible = True   # what compatibility checks answer
        self.requests = []       # (method, path, headers) as received
        self.fail_next = []      # statuses to answer to the next requests, first first
        self.lock = threading.Lock()

    def key(self, body):
        return json.dumps([body["schema"], body.get("schemaType", "AVRO"), body.get("references") or []],
                          sort_keys=True)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "TestRegistry/1"

    def log_message(self, *args):
        pass

    def _reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", JSON_TYPE)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status, code, message):
        self._reply(status, {"error_code": code, "message": message})

    def _authorized(self):
        want = self.server.auth
        got = self.headers.get("Authorization", "")
        if want is None:
            return True
        if want[0] == "basic":
            return got == "Basic " + base64.b64encode(want[1].encode()).decode()
        return got == f"Bearer {want[1]}" and self.headers.get("target-sr-cluster") == want[2]

    def _handle(self, method):
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        parts = [urllib.parse.unquote(p) for p in url.path.strip("/").split("/")]
        with state.lock:
            state.requests.append((method, self.path, dict(self.headers)))
            if state.fail_next:
                status = state.fail_next.pop(0)
                return self._error(status, status * 100 + 1, f"injected failure {status}")
            if not self._authorized():
                return self._error(401, 401, "Unauthorized")
            body = json.loads(raw) if raw else None
            try:
                status, answer = self._route(state, method, parts, query, body)
            except LookupError as e:
                return self._error(404, e.args[0], e.args[1])
        self._reply(status, answer)

    def _route(self, st, method, p, q, body):
        if p[:2] == ["schemas", "ids"] and len(p) == 3:
            if int(p[2]) not in st.schemas:
                raise LookupError(40403, f"Schema {p[2]} not found")
            s = st.schemas[int(p[2])]
            out = {"schema": s["schema"]}
            if s.get("schemaType", "AVRO") != "AVRO":
                out["schemaType"] = s["schemaType"]
            if s.get("references"):
                out["references"] = s["references"]
            return 200, out
        if p == ["subjects"]:
            return 200, sorted(s for s, vs in st.subjects.items() if any(not v[2] for v in vs))
        if p[0] == "subjects" and len(p) >= 2:
            subject = p[1]
            live = [v for v in st.subjects.get(subject, []) if not v[2] or q.get("deleted") == "true"]
            if len(p) == 3 and method == "POST":       # register
                key = st.key(body)
                sid = st.ids.get(key)
                if sid is None:
                    sid = st.ids[key] = len(st.schemas) + 1
                    st.schemas[sid] = {k: body[k] for k in ("schema", "schemaType", "references") if k in body}
                if not any(v[1] == sid for v in live):
                    versions = st.subjects.setdefault(subject, [])
                    versions.append([len(versions) + 1, sid, False])
                return 200, {"id": sid}
            if not live:
                raise LookupError(40401, f"Subject '{subject}' not found.")
            if len(p) == 2 and method == "POST":       # lookup
                sid = st.ids.get(st.key(body))
                for v in live:
                    if v[1] == sid:
                        return 200, dict(st.schemas[sid], subject=subject, version=v[0], id=sid)
                raise LookupError(40403, "Schema not found")
            if len(p) == 2 and method == "DELETE":
                for v in live:
                    v[2] = True
                return 200, [v[0] for v in live]
            if len(p) == 3:
                return 200, [v[0] for v in live]
            v = live[-1] if p[3] == "latest" else next((v for v in live if v[0] == int(p[3])), None)
            if v is None:
                raise LookupError(40402, f"Version {p[3]} not found.")
            if method == "DELETE":
                v[2] = True
                return 200, v[0]
            return 200, dict(st.schemas[v[1]], subject=subject, version=v[0], id=v[1])
        if p[0] == "compatibility":
            return 200, {"is_compatible": st.compatible}
        if p[0] == "config":
            subject = p[1] if len(p) > 1 else None
            if method == "PUT":
                st.config[subject] = body["compatibility"]
                return 200, {"compatibility": body["compatibility"]}
            return 200, {"compatibilityLevel": st.config.get(subject, st.config[None])}
        raise LookupError(404, f"no endpoint {method} {self.path}")

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def do_PUT(self):
        self._handle("PUT")

    def do_DELETE(self):
        self._handle("DELETE")


@contextlib.contextmanager
def registry_server(*, auth=None, certfile=None, keyfile=None, state=None):
    """Serves a registry on 127.0.0.1:<free port>; yields (url, state).  ``auth``: None,
    ("basic", "user:password") or ("bearer", token, logical_cluster)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.state = state or RegistryState()
    server.auth = auth
    scheme = "http"
    if certfile:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(certfile, keyfile)
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"{scheme}://127.0.0.1:{server.server_address[1]}", server.state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
