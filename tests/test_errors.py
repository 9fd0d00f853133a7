"""One root for every error the library raises, with the codec's data errors
and I/O errors on separate branches: a network timeout is never a ValueError."""
import kafkacodec.client.errors as client_errors
import kafkacodec.errors as E
from kafkacodec.protocol import errors as protocol_errors
from kafkacodec.protocol.client import ProtocolClientError, ProtocolConnectionError, ProtocolTimeoutError


def test_one_root_two_branches():
    for cls in (E.CorruptDataError, E.EncodeError, E.DecompressionLimitError, E.RecordLimitError,
                E.KafkaConnectionError, E.KafkaTimeoutError, ProtocolClientError, protocol_errors.BrokerError,
                client_errors.ConfigError, client_errors.AuthenticationError):
        assert issubclass(cls, E.KafkaError), cls
    for cls in (E.CorruptDataError, E.EncodeError, E.RecordLimitError):
        assert issubclass(cls, ValueError) and not issubclass(cls, (ConnectionError, TimeoutError))
    for cls in (E.KafkaConnectionError, E.KafkaTimeoutError, ProtocolClientError, ProtocolConnectionError,
                ProtocolTimeoutError, client_errors.KafkaConnectionError, client_errors.KafkaTimeoutError):
        assert not issubclass(cls, ValueError), cls
    assert issubclass(ProtocolTimeoutError, TimeoutError) and issubclass(ProtocolConnectionError, ConnectionError)
    # the client's names are the library's, not copies
    assert client_errors.KafkaError is E.KafkaError
    assert client_errors.KafkaConnectionError is E.KafkaConnectionError
    assert E.KafkaTimeoutError.retriable and not E.CorruptDataError.retriable


def test_encode_error_carries_its_path():
    err = E.EncodeError("value out of range", "topics[0].partitions[2].index")
    assert err.path == "topics[0].partitions[2].index"
    assert "topics[0].partitions[2].index" in str(err)
