"""kafkacodec.schema_registry's REST client against a registry served by the test (tests/_registry_server.py):
the documented endpoints, caching, basic and bearer authentication, TLS, retries, failover and timeouts,
and the in-process mock:// registry."""
import socket
import subprocess
import threading
import time

import pytest

from _registry_server import RegistryState, registry_server
from kafkacodec.schema_registry import RegisteredSchema, Schema, SchemaReference, SchemaRegistryClient, \
    SchemaRegistryError

RECORD = '{"type":"record","name":"Order","fields":[{"name":"id","type":"long"}]}'
RECORD2 = ('{"type":"record","name":"Order","fields":[{"name":"id","type":"long"},'
           '{"name":"note","type":["null","string"],"default":null}]}')


def _paths(state):
    return [(m, p) for m, p, _ in state.requests]


def test_register_get_and_subjects_through_the_documented_endpoints():
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": url})
        sid = sr.register_schema("orders-value", Schema(RECORD, "AVRO"))
        assert sid == 1
        method, path, headers = state.requests[-1]
        assert (method, path) == ("POST", "/subjects/orders-value/versions")
        assert headers["Content-Type"] == "application/vnd.schemaregistry.v1+json"
        assert "application/vnd.schemaregistry.v1+json" in headers["Accept"]
        assert sr.get_schema(sid).schema_str == RECORD
        assert sr.get_schema(sid).schema_type == "AVRO"
        json_id = sr.register_schema("orders-key", Schema('{"type":"string"}', "JSON"))
        assert sr.get_schema(json_id) == Schema('{"type":"string"}', "JSON")
        assert sr.register_schema("orders-value", Schema(RECORD2)) == 3
        latest = sr.get_latest_version("orders-value")
        assert latest == RegisteredSchema(3, Schema(RECORD2), "orders-value", 2)
        assert sr.get_version("orders-value", 1).schema.schema_str == RECORD
        assert sr.get_versions("orders-value") == [1, 2]
        assert sr.get_subjects() == ["orders-key", "orders-value"]
        found = sr.lookup_schema("orders-value", Schema(RECORD))
        assert (found.schema_id, found.version, found.subject) == (1, 1, "orders-value")
        assert sr.test_compatibility("orders-value", Schema(RECORD2)) is True
        state.compatible = False
        assert sr.test_compatibility("orders-value", Schema(RECORD2), version=1) is False
        assert ("POST", "/compatibility/subjects/orders-value/versions/1") in _paths(state)
        assert sr.get_compatibility() == "BACKWARD"
        assert sr.set_compatibility("orders-value", "full") == "FULL"
        assert ("PUT", "/config/orders-value") in _paths(state)
        assert sr.get_compatibility("orders-value") == "FULL"
        assert sr.delete_version("orders-value", 2) == 2
        assert sr.get_latest_version("orders-value").version == 1     # the delete dropped the cached latest
        assert sr.delete_subject("orders-value") == [1]
        assert sr.get_subjects() == ["orders-key"]


def test_subject_names_are_escaped_in_paths():
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": url})
        sr.register_schema("a/b c", Schema(RECORD))
        assert state.requests[-1][1] == "/subjects/a%2Fb%20c/versions"
        assert sr.get_latest_version("a/b c").subject == "a/b c"


def test_references_travel_both_ways():
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": url})
        refs = [SchemaReference("com.acme.Address", "address-value", 1)]
        sid = sr.register_schema("orders-value", Schema(RECORD, "AVRO", refs))
        sr.clear_caches()
        assert sr.get_schema(sid).references == refs


def test_errors_carry_the_status_the_code_and_the_message_on_one_line():
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": url})
        with pytest.raises(SchemaRegistryError) as info:
            sr.get_schema(42)
        e = info.value
        assert (e.http_status_code, e.error_code, e.error_message) == (404, 40403, "Schema 42 not found")
        assert "\n" not in str(e) and "40403" in str(e)
        with pytest.raises(SchemaRegistryError) as info:
            sr.get_latest_version("nothing")
        assert info.value.error_code == 40401


def test_schemas_by_id_and_ids_by_schema_are_cached_latest_for_its_ttl():
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": url, "cache.latest.ttl.sec": 1.0})
        sid = sr.register_schema("s", Schema(RECORD))
        before = len(state.requests)
        for _ in range(5):
            assert sr.register_schema("s", Schema(RECORD)) == sid
            sr.get_schema(sid)
        assert len(state.requests) == before      # registering answered the schema's id -> schema too
        sr.get_latest_version("s")
        sr.get_latest_version("s")
        assert len(state.requests) == before + 1
        time.sleep(1.2)
        sr.get_latest_version("s")
        assert len(state.requests) == before + 2
        sr.clear_latest_caches()
        sr.get_latest_version("s")
        assert len(state.requests) == before + 3


def test_cache_capacity_bounds_the_cache():
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": url, "cache.capacity": 2})
        ids = [sr.register_schema("s", Schema(f'{{"type":"enum","name":"E","symbols":["S{i}"]}}')) for i in range(4)]
        before = len(state.requests)
        sr.get_schema(ids[0])           # pushed out by the later ones: asked again
        assert len(state.requests) == before + 1


def test_basic_auth_from_user_info_and_from_the_url():
    with registry_server(auth=("basic", "alice:s3cret:x")) as (url, state):
        assert SchemaRegistryClient({"url": url, "basic.auth.credentials.source": "USER_INFO",
                                     "basic.auth.user.info": "alice:s3cret:x"}).register_schema(
            "s", Schema(RECORD)) == 1
        with_url = url.replace("://", "://alice:s3cret%3Ax@")
        assert SchemaRegistryClient({"url": with_url}).get_schema(1).schema_str == RECORD
        with pytest.raises(SchemaRegistryError) as info:
            SchemaRegistryClient({"url": url, "basic.auth.user.info": "alice:wrong"}).get_schema(1)
        assert (info.value.http_status_code, info.value.error_code) == (401, 401)
        with pytest.raises(SchemaRegistryError):
            SchemaRegistryClient({"url": url}).get_schema(1)
        with pytest.raises(ValueError, match="userinfo"):
            SchemaRegistryClient({"url": with_url, "basic.auth.user.info": "a:b"})


def test_bearer_auth_sends_the_token_and_the_logical_cluster():
    with registry_server(auth=("bearer", "tok-1", "lsrc-1")) as (url, state):
        conf = {"url": url, "bearer.auth.credentials.source": "STATIC_TOKEN", "bearer.auth.token": "tok-1",
                "bearer.auth.logical.cluster": "lsrc-1", "bearer.auth.identity.pool.id": "pool-9"}
        assert SchemaRegistryClient(conf).register_schema("s", Schema(RECORD)) == 1
        assert state.requests[-1][2]["Confluent-Identity-Pool-Id"] == "pool-9"
        with pytest.raises(SchemaRegistryError) as info:
            SchemaRegistryClient(dict(conf, **{"bearer.auth.token": "other"})).get_schema(1)
        assert info.value.http_status_code == 401
        calls = []

        def provider(config):
            calls.append(config)
            return {"bearer.auth.token": "tok-1", "bearer.auth.logical.cluster": "lsrc-1"}
        custom = SchemaRegistryClient({"url": url, "bearer.auth.credentials.source": "CUSTOM",
                                       "bearer.auth.custom.provider.function": provider,
                                       "bearer.auth.custom.provider.config": {"k": 1}})
        assert custom.get_schema(1).schema_str == RECORD and calls == [{"k": 1}]


def test_oauth_client_credentials_token_is_fetched_and_kept():
    import json
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    grants = []

    class Issuer(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            grants.append((self.rfile.read(int(self.headers["Content-Length"])), self.headers["Authorization"]))
            data = json.dumps({"access_token": "oauth-tok", "expires_in": 3600}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
    issuer = ThreadingHTTPServer(("127.0.0.1", 0), Issuer)
    t = threading.Thread(target=issuer.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        with registry_server(auth=("bearer", "oauth-tok", "lsrc-2")) as (url, state):
            sr = SchemaRegistryClient({
                "url": url, "bearer.auth.credentials.source": "OAUTHBEARER", "bearer.auth.client.id": "cid",
                "bearer.auth.client.secret": "sec", "bearer.auth.scope": "registry",
                "bearer.auth.issuer.endpoint.url": f"http://127.0.0.1:{issuer.server_address[1]}/token",
                "bearer.auth.logical.cluster": "lsrc-2"})
            assert sr.register_schema("s", Schema(RECORD)) == 1
            sr.get_latest_version("s")
            assert len(grants) == 1
            assert b"grant_type=client_credentials" in grants[0][0] and grants[0][1].startswith("Basic ")
    finally:
        issuer.shutdown()
        issuer.server_close()
        t.join(10)


def test_retriable_answers_are_retried_then_reported():
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": url, "retries.wait.ms": 10, "retries.max.wait.ms": 50, "max.retries": 2})
        state.fail_next = [503, 429]
        assert sr.register_schema("s", Schema(RECORD)) == 1
        state.fail_next = [503, 503, 503]
        with pytest.raises(SchemaRegistryError) as info:
            sr.get_latest_version("s")
        assert info.value.http_status_code == 503 and info.value.error_message == "injected failure 503"
        state.fail_next = [422]          # not retriable: reported at once, the next request is answered
        with pytest.raises(SchemaRegistryError) as info:
            sr.get_version("s", 1)
        assert info.value.http_status_code == 422
        assert sr.get_version("s", 1).schema_id == 1


def test_the_next_url_is_used_when_one_cannot_be_reached():
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))
    dead_port = dead.getsockname()[1]
    dead.close()                         # nothing listens there now
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": f"http://127.0.0.1:{dead_port}, {url}", "retries.wait.ms": 10})
        assert sr.register_schema("s", Schema(RECORD)) == 1
        assert sr.get_latest_version("s").version == 1
    only_dead = SchemaRegistryClient({"url": f"http://127.0.0.1:{dead_port}", "max.retries": 1,
                                      "retries.wait.ms": 10})
    with pytest.raises(SchemaRegistryError) as info:
        only_dead.get_schema(1)
    assert info.value.http_status_code == -1 and str(dead_port) in str(info.value)


def test_requests_go_through_an_http_proxy():
    # the test registry takes absolute-form request targets as a forward proxy receives them
    with registry_server() as (proxy_url, state):
        sr = SchemaRegistryClient({"url": "http://registry.example:8081", "proxy": proxy_url})
        assert sr.register_schema("s", Schema(RECORD)) == 1
        assert state.requests[-1][1] == "http://registry.example:8081/subjects/s/versions"
        assert state.requests[-1][2]["Host"] == "registry.example:8081"


def test_a_registry_that_does_not_answer_times_out():
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)                     # connections are taken by the kernel, never answered
    try:
        sr = SchemaRegistryClient({"url": f"http://127.0.0.1:{silent.getsockname()[1]}", "timeout": 0.3,
                                   "max.retries": 1, "retries.wait.ms": 10})
        start = time.monotonic()
        with pytest.raises(SchemaRegistryError, match="timed out"):
            sr.get_schema(1)
        assert time.monotonic() - start < 10
    finally:
        silent.close()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    d = tmp_path_factory.mktemp("tls")
    cert, key = d / "cert.pem", d / "key.pem"
    try:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                        "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key),
                        "-out", str(cert)], check=True, capture_output=True, timeout=60)
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"openssl cannot make a certificate: {e}")
    return str(cert), str(key)


def test_tls_with_the_registry_certificate_authority(certificate):
    cert, key = certificate
    with registry_server(certfile=cert, keyfile=key, auth=("basic", "u:p")) as (url, state):
        assert url.startswith("https://")
        sr = SchemaRegistryClient({"url": url, "ssl.ca.location": cert, "basic.auth.user.info": "u:p"})
        assert sr.register_schema("s", Schema(RECORD)) == 1
        untrusted = SchemaRegistryClient({"url": url, "max.retries": 0})
        with pytest.raises(SchemaRegistryError, match="CERTIFICATE_VERIFY_FAILED"):
            untrusted.get_schema(1)
        unverified = SchemaRegistryClient({"url": url, "ssl.ca.location": False, "basic.auth.user.info": "u:p"})
        assert unverified.get_schema(1).schema_str == RECORD
        # a client certificate is loaded from the files named (the server here does not ask for one)
        with_cert = SchemaRegistryClient({"url": url, "ssl.ca.location": cert, "ssl.certificate.location": cert,
                                          "ssl.key.location": key, "basic.auth.user.info": "u:p"})
        assert with_cert.get_schema(1).schema_str == RECORD


def test_one_client_serves_many_threads():
    with registry_server() as (url, state):
        sr = SchemaRegistryClient({"url": url})
        schemas = [Schema(f'{{"type":"fixed","name":"F{i}","size":{i + 1}}}') for i in range(16)]
        results, errors = {}, []

        def work(n):
            try:
                for i, s in enumerate(schemas):
                    sid = sr.register_schema(f"sub-{i % 4}", s)
                    assert sr.get_schema(sid) == s
                    results.setdefault(s.schema_str, set()).add(sid)
            except Exception as e:   # noqa: BLE001 -- reported below
                errors.append(e)
        threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors
        assert all(len(ids) == 1 for ids in results.values()) and len(results) == 16


def test_configuration_is_checked():
    with pytest.raises(ValueError, match="Unrecognized properties: nope"):
        SchemaRegistryClient({"url": "http://127.0.0.1:1", "nope": 1})
    with pytest.raises(ValueError, match="url"):
        SchemaRegistryClient({})
    with pytest.raises(ValueError, match="Invalid url"):
        SchemaRegistryClient({"url": "ftp://x"})
    with pytest.raises(TypeError, match="timeout"):
        SchemaRegistryClient({"url": "http://127.0.0.1:1", "timeout": "5"})
    with pytest.raises(ValueError, match="bearer.auth.logical.cluster"):
        SchemaRegistryClient({"url": "http://127.0.0.1:1", "bearer.auth.credentials.source": "STATIC_TOKEN",
                              "bearer.auth.token": "t"})
    with pytest.raises(ValueError, match="ssl.certificate.location"):
        SchemaRegistryClient({"url": "https://127.0.0.1:1", "ssl.key.location": "k.pem"})


# --- mock:// -------------------------------------------------------------------------------------

def test_mock_registry_is_shared_by_url_and_answers_as_the_registry():
    a = SchemaRegistryClient({"url": "mock://shared-1"})
    b = SchemaRegistryClient({"url": "mock://shared-1"})
    other = SchemaRegistryClient({"url": "mock://shared-2"})
    sid = a.register_schema("t-value", Schema(RECORD))
    assert b.get_schema(sid).schema_str == RECORD
    assert b.register_schema("u-value", Schema(RECORD)) == sid          # one id for equal schemas
    assert [(v.subject, v.version) for v in a.get_schema_versions(sid)] == [("t-value", 1), ("u-value", 1)]
    assert a.get_subjects_by_schema_id(sid) == ["t-value", "u-value"]
    with pytest.raises(SchemaRegistryError) as info:
        other.get_schema(sid)
    assert info.value.error_code == 40403
    with pytest.raises(SchemaRegistryError) as info:
        a.lookup_schema("t-value", Schema(RECORD2))
    assert info.value.error_code == 40403


def test_mock_registry_checks_avro_compatibility_by_the_resolution_rules():
    sr = SchemaRegistryClient({"url": "mock://compat"})
    sr.register_schema("s", Schema(RECORD))
    added_without_default = RECORD2.replace(',"default":null', "")
    assert sr.test_compatibility("s", Schema(RECORD2)) is True
    assert sr.test_compatibility("s", Schema(added_without_default)) is False
    with pytest.raises(SchemaRegistryError) as info:
        sr.register_schema("s", Schema(added_without_default))
    assert info.value.http_status_code == 409
    sr.set_compatibility("s", "NONE")
    assert sr.register_schema("s", Schema(added_without_default)) == 2
    sr.set_compatibility("s", "FORWARD")
    narrowed = '{"type":"record","name":"Order","fields":[{"name":"id","type":"int"}]}'
    assert sr.test_compatibility("s", Schema(narrowed)) is False      # old readers cannot read a long as int
    with pytest.raises(SchemaRegistryError) as info:
        sr.register_schema("s", Schema('{"type":"record","name":"x","fields":[{"name":"a","type":"nope"}]}'))
    assert info.value.error_code == 42201


def test_mock_registry_soft_and_hard_deletes():
    sr = SchemaRegistryClient({"url": "mock://deletes"})
    sr.register_schema("s", Schema(RECORD))
    sr.register_schema("s", Schema(RECORD2))
    with pytest.raises(SchemaRegistryError) as info:
        sr.delete_version("s", 1, permanent=True)
    assert info.value.error_code == 40407
    assert sr.delete_version("s", 1) == 1
    assert sr.get_versions("s") == [2]
    assert sr.get_versions("s", deleted=True) == [1, 2]
    with pytest.raises(SchemaRegistryError) as info:
        sr.delete_subject("s", permanent=True)        # version 2 is not soft-deleted yet
    assert info.value.error_code == 40405
    assert sr.delete_subject("s") == [2]
    assert sr.get_subjects() == [] and sr.get_subjects(deleted=True) == ["s"]
    assert sr.delete_subject("s", permanent=True) == [1, 2]
    assert sr.get_subjects(deleted=True) == []


def test_mock_registry_latest_with_metadata():
    sr = SchemaRegistryClient({"url": "mock://metadata"})
    first = sr.register_schema("s", Schema(RECORD, metadata={"properties": {"owner": "team-a", "tier": "1"}}))
    second = sr.register_schema("s", Schema(RECORD2, metadata={"properties": {"owner": "team-b"}}))
    assert second != first
    assert sr.get_latest_with_metadata("s", {"owner": "team-a"}).schema_id == first
    assert sr.get_latest_with_metadata("s", {"owner": "team-a", "tier": "1"}).version == 1
    assert sr.get_latest_with_metadata("s", {"owner": "team-b"}).schema.metadata == {"properties": {"owner": "team-b"}}
    with pytest.raises(SchemaRegistryError) as info:
        sr.get_latest_with_metadata("s", {"owner": "team-c"})
    assert info.value.error_code == 40403


def test_answers_of_the_wrong_shape_are_registry_errors():
    import json
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    answers = iter([[1, 2], {"no": "level"}, {"id": "seven"}, "not json", {"schema": RECORD}])

    class Odd(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def _any(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            answer = next(answers)
            data = answer.encode() if isinstance(answer, str) else json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        do_GET = do_POST = _any
    server = ThreadingHTTPServer(("127.0.0.1", 0), Odd)
    t = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        sr = SchemaRegistryClient({"url": f"http://127.0.0.1:{server.server_address[1]}"})
        with pytest.raises(SchemaRegistryError, match="not a JSON object"):
            sr.get_schema(1)
        with pytest.raises(SchemaRegistryError, match="has no 'compatibilityLevel'"):
            sr.get_compatibility()
        with pytest.raises(SchemaRegistryError, match="answer without an id"):
            sr.register_schema("s", Schema(RECORD))
        with pytest.raises(SchemaRegistryError, match="not JSON"):
            sr.get_subjects()
        assert sr.get_schema(2).schema_str == RECORD
    finally:
        server.shutdown()
        server.server_close()
        t.join(10)
