"""The TLS settings librdkafka users give as PEM text or lists, against Tansu behind a TLS
front whose certificate a test CA signed: CA certificates as text (ssl.cadata) or a hashed
directory, a client certificate and key as text or in a PKCS#12 keystore, revocation lists,
cipher suites, and verification turned off."""
import os
import subprocess

import pytest

from kafkacodec.client import Admin
from kafkacodec.client import errors as E
from kafkacodec.client.config import ADMIN, resolve, ssl_context_from

_peers = pytest.importorskip("_peers")

pytestmark = [pytest.mark.broker, pytest.mark.timeout(120)]

_CA_CONFIG = """[ ca ]
default_ca = CA_default
[ CA_default ]
dir = .
database = index.txt
crlnumber = crlnumber
default_md = sha256
default_crl_days = 1
"""


def _openssl(cwd, *args):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA, a server certificate it signed for 127.0.0.1, and two CRLs: one empty, one
    revoking the server's certificate."""
    d = str(tmp_path_factory.mktemp("pki"))
    try:
        with open(os.path.join(d, "ca.cnf"), "w") as f:
            f.write(_CA_CONFIG)
        with open(os.path.join(d, "ext.cnf"), "w") as f:
            f.write("subjectAltName=IP:127.0.0.1\n")
        open(os.path.join(d, "index.txt"), "w").close()
        with open(os.path.join(d, "crlnumber"), "w") as f:
            f.write("01\n")
        _openssl(d, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1",
                 "-subj", "/CN=kafkacodec-test-ca")
        _openssl(d, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=srv")
        _openssl(d, "x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", "srv.pem", "-days", "1", "-extfile", "ext.cnf")
        _openssl(d, "ca", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.pem", "-gencrl", "-out", "empty.crl")
        _openssl(d, "ca", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.pem", "-revoke", "srv.pem")
        _openssl(d, "ca", "-config", "ca.cnf", "-keyfile", "ca.key", "-cert", "ca.pem", "-gencrl", "-out", "revoked.crl")
        _openssl(d, "pkcs12", "-export", "-in", "srv.pem", "-inkey", "srv.key", "-out", "client.p12", "-passout",
                 "pass:pw")
        os.mkdir(os.path.join(d, "cadir"))
        with open(os.path.join(d, "ca.pem")) as src, open(os.path.join(d, "cadir", "ca.pem"), "w") as dst:
            dst.write(src.read())
        _openssl(d, "rehash", "cadir")
    except (OSError, subprocess.SubprocessError) as e:
        pytest.skip(f"openssl cannot make the test PKI: {e}")
    return d


@pytest.fixture(scope="module")
def tls_bootstrap(pki):
    try:
        with _peers.tansu_behind_tls(os.path.join(pki, "srv.pem"), os.path.join(pki, "srv.key")) as bootstrap:
            yield bootstrap
    except _peers.PeerUnavailable as e:
        pytest.skip(str(e))


def _read(pki, name):
    with open(os.path.join(pki, name)) as f:
        return f.read()


def _list_topics(bootstrap, **settings):
    conf = {"bootstrap.servers": bootstrap, "security.protocol": "SSL", "request.timeout.ms": 5000,
            "default.api.timeout.ms": 8000, "reconnect.backoff.max.ms": 200, **settings}
    with Admin(conf) as admin:
        return admin.list_topics(timeout=8)


def test_ca_as_pem_text_and_as_a_hashed_directory(pki, tls_bootstrap):
    assert isinstance(_list_topics(tls_bootstrap, **{"ssl.cadata": _read(pki, "ca.pem")}), dict)
    assert isinstance(_list_topics(tls_bootstrap, **{"ssl.cafile": os.path.join(pki, "cadir")}), dict)


def test_verification_off_accepts_an_unknown_ca(tls_bootstrap):
    with pytest.raises(E.AuthenticationError, match="not trusted"):
        _list_topics(tls_bootstrap)  # the system's CAs do not know the test CA
    assert isinstance(_list_topics(tls_bootstrap, **{"ssl.check.certificate": False}), dict)


def test_revocation_lists(pki, tls_bootstrap):
    ca = {"ssl.cafile": os.path.join(pki, "ca.pem")}
    assert isinstance(_list_topics(tls_bootstrap, **ca, **{"ssl.crlfile": os.path.join(pki, "empty.crl")}), dict)
    with pytest.raises(E.AuthenticationError, match="revoked"):
        _list_topics(tls_bootstrap, **ca, **{"ssl.crlfile": os.path.join(pki, "revoked.crl")})


def test_cipher_suites(pki, tls_bootstrap):
    ca = {"ssl.cafile": os.path.join(pki, "ca.pem")}
    assert isinstance(_list_topics(tls_bootstrap, **ca, **{"ssl.cipher.suites": "ECDHE+AESGCM"}), dict)
    with pytest.raises(E.ConfigError, match="ssl.cipher.suites"):
        ssl_context_from(resolve({"bootstrap.servers": "h:1", "security.protocol": "SSL",
                                  "ssl.cipher.suites": "NO-SUCH-CIPHER"}, {}, ADMIN))


def test_client_certificate_as_pem_text(pki, tls_bootstrap):
    pem = {"ssl.cafile": os.path.join(pki, "ca.pem"), "ssl.certdata": _read(pki, "srv.pem"),
           "ssl.keydata": _read(pki, "srv.key")}
    ctx = ssl_context_from(resolve({"bootstrap.servers": "h:1", "security.protocol": "SSL", **pem}, {}, ADMIN))
    assert ctx is not None
    assert isinstance(_list_topics(tls_bootstrap, **pem), dict)
    with pytest.raises(E.ConfigError, match="ssl.certdata"):  # a key that is not the certificate's
        ssl_context_from(resolve({"bootstrap.servers": "h:1", "security.protocol": "SSL",
                                  "ssl.certdata": _read(pki, "srv.pem"), "ssl.keydata": _read(pki, "ca.key")},
                                 {}, ADMIN))


def test_client_certificate_in_a_pkcs12_keystore(pki, tls_bootstrap):
    store = {"ssl.cafile": os.path.join(pki, "ca.pem"), "ssl.keystore.location": os.path.join(pki, "client.p12"),
             "ssl.keystore.password": "pw"}
    assert ssl_context_from(resolve({"bootstrap.servers": "h:1", "security.protocol": "SSL", **store}, {}, ADMIN))
    assert isinstance(_list_topics(tls_bootstrap, **store), dict)
    with pytest.raises(E.ConfigError, match="ssl.keystore.location.*PKCS#12"):
        ssl_context_from(resolve({"bootstrap.servers": "h:1", "security.protocol": "SSL",
                                  **dict(store, **{"ssl.keystore.password": "wrong"})}, {}, ADMIN))
