"""A client of Confluent's Schema Registry.

    from kafkacodec.schema_registry import SchemaRegistryClient, Schema

    sr = SchemaRegistryClient({"url": "https://registry:8081", "basic.auth.user.info": "key:secret"})
    schema_id = sr.register_schema("orders-value", Schema(avro_text, "AVRO"))
    sr.get_schema(schema_id).schema_str

The REST API (schemas by id, subjects and versions, register, lookup, delete, compatibility
checks, config and mode), with confluent-kafka's method names, arguments and configuration keys
(``SchemaRegistryClient``'s documentation lists them).  It uses the standard library's
``http.client``: no dependency beyond Python, TLS through an ``ssl.SSLContext`` built from
``ssl.ca.location``/``ssl.certificate.location``/``ssl.key.location``, one kept-alive connection
per thread and URL.  ``url`` may list several registries: the next one is tried when one cannot be
reached or answers a retriable status.  Schemas by id and ids by schema are cached (they never
change); a subject's latest version is cached for ``cache.latest.ttl.sec``.  A failure raises
``SchemaRegistryError(http_status_code, error_code, error_message)``.

``mock://<name>`` URLs give an in-process registry for tests (``_mock.py`` says what it checks).
"""
from kafkacodec.schema_registry._client import SchemaRegistryClient
from kafkacodec.schema_registry._types import (RegisteredSchema, Schema, SchemaReference, SchemaRegistryError,
                                               SchemaVersion, ServerConfig)

__all__ = ["SchemaRegistryClient", "Schema", "SchemaReference", "RegisteredSchema", "SchemaRegistryError",
           "SchemaVersion", "ServerConfig"]
