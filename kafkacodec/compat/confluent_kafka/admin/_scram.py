"""confluent_kafka.admin's SASL/SCRAM credential types."""
from __future__ import annotations

from kafkacodec.compat.confluent_kafka._enum import OrderedEnum

__all__ = ["ScramMechanism", "ScramCredentialInfo", "UserScramCredentialsDescription",
           "UserScramCredentialAlteration", "UserScramCredentialUpsertion", "UserScramCredentialDeletion"]


class ScramMechanism(OrderedEnum):
    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2


class ScramCredentialInfo:
    """A credential's mechanism and iteration count."""

    def __init__(self, mechanism: ScramMechanism, iterations: int) -> None:
        self.mechanism = mechanism
        self.iterations = iterations


class UserScramCredentialsDescription:
    """A user's SCRAM credentials, as describe_user_scram_credentials() gives them."""

    def __init__(self, user: str, scram_credential_infos: list[ScramCredentialInfo]) -> None:
        self.user = user
        self.scram_credential_infos = scram_credential_infos


class UserScramCredentialAlteration:
    def __init__(self, user: str) -> None:
        self.user = user


class UserScramCredentialUpsertion(UserScramCredentialAlteration):
    """A credential to set: the password is salted and hashed here, never sent; salt None:
    a random one."""

    def __init__(self, user: str, scram_credential_info: ScramCredentialInfo, password: bytes,
                 salt: bytes | None = None) -> None:
        super().__init__(user)
        self.scram_credential_info = scram_credential_info
        self.password = password
        self.salt = salt


class UserScramCredentialDeletion(UserScramCredentialAlteration):
    def __init__(self, user: str, mechanism: ScramMechanism) -> None:
        super().__init__(user)
        self.mechanism = mechanism
