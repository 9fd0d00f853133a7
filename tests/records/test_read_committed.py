"""read_committed filtering, following the Java consumer's rules."""
import pytest

from kafkacodec.records import RecordBatchBuilder, build_control_batch, decode_records


def txn_batch(pid, base_offset, values, epoch=0, transactional=True):
    b = RecordBatchBuilder(base_offset=base_offset, producer_id=pid, producer_epoch=epoch,
                           base_sequence=0, is_transactional=transactional)
    for v in values:
        b.append(1, None, v)
    return b.build()


def marker(kind, pid, offset):
    return build_control_batch(kind, producer_id=pid, producer_epoch=0, base_offset=offset)


def values(data, **kw):
    return [r.value for r in decode_records(data, **kw)]


def test_abort_and_commit_interleaved():
    data = b"".join([
        txn_batch(1, 0, [b"a1", b"a2"]),     # pid 1: aborted txn, offsets 0-1
        txn_batch(2, 2, [b"c1"]),            # pid 2: committed txn, offset 2
        marker("ABORT", 1, 3),
        txn_batch(1, 4, [b"c2"]),            # pid 1: next txn, committed
        marker("COMMIT", 2, 5),
        marker("COMMIT", 1, 6),
        txn_batch(3, 7, [b"plain"], transactional=False),  # idempotent, not transactional
    ])
    assert values(data) == [b"a1", b"a2", b"c1", b"c2", b"plain"]
    assert values(data, isolation_level="read_committed", aborted_transactions=[(1, 0)]) == [b"c1", b"c2", b"plain"]
    # An empty aborted list: nothing is known to be aborted.
    assert values(data, isolation_level="read_committed", aborted_transactions=[]) == [
        b"a1", b"a2", b"c1", b"c2", b"plain"]


def test_read_committed_without_aborted_list_is_refused():
    # Silently returning aborted records would be the worst answer: the
    # caller must say what the Fetch response (or .txnindex) reported.
    data = txn_batch(1, 0, [b"v"]) + marker("ABORT", 1, 1)
    with pytest.raises(ValueError, match="aborted_transactions"):
        values(data, isolation_level="read_committed")
    arrow = pytest.importorskip("kafkacodec.arrow")
    with pytest.raises(ValueError, match="aborted_transactions"):
        arrow.decode(data, isolation_level="read_committed")


def test_aborted_range_starts_at_first_offset():
    # pid 1 commits a txn at 0, then aborts one starting at offset 2.
    data = b"".join([
        txn_batch(1, 0, [b"ok"]),
        marker("COMMIT", 1, 1),
        txn_batch(1, 2, [b"bad1"]),
        txn_batch(1, 3, [b"bad2"]),
        marker("ABORT", 1, 4),
        txn_batch(1, 5, [b"ok2"]),
        marker("COMMIT", 1, 6),
    ])
    assert values(data, isolation_level="read_committed", aborted_transactions=[(1, 2)]) == [b"ok", b"ok2"]


def test_aborted_transactions_given_as_objects_and_unsorted():
    class Aborted:
        def __init__(self, producer_id, first_offset):
            self.producer_id, self.first_offset = producer_id, first_offset
    data = b"".join([
        txn_batch(5, 0, [b"x"]), marker("ABORT", 5, 1),
        txn_batch(6, 2, [b"y"]), marker("ABORT", 6, 3),
        txn_batch(5, 4, [b"z"]), marker("COMMIT", 5, 5),
    ])
    got = values(data, isolation_level="read_committed",
                 aborted_transactions=[Aborted(6, 2), {"producer_id": 5, "first_offset": 0}])
    assert got == [b"z"]


def test_control_records_never_returned():
    data = txn_batch(1, 0, [b"v"]) + marker("COMMIT", 1, 1)
    assert values(data) == [b"v"]
    assert values(data, isolation_level="read_committed", aborted_transactions=[]) == [b"v"]


def test_bad_isolation_level():
    with pytest.raises(ValueError):
        decode_records(b"", isolation_level="serializable")


def test_isolation_level_spellings_are_the_one_enums():
    from kafkacodec.records.isolation import IsolationLevel, read_committed

    data = txn_batch(1, 0, [b"a"]) + marker("ABORT", 1, 1)
    for level in ["read_committed", " Read_Committed ", 1, IsolationLevel.READ_COMMITTED]:
        assert values(data, isolation_level=level, aborted_transactions=[(1, 0)]) == [], level
    for level in ["read_uncommitted", 0, IsolationLevel.READ_UNCOMMITTED]:
        assert read_committed(level, None) is False
    for bad in ["read-committed", 2, None, True]:
        with pytest.raises(ValueError, match=r"^isolation_level must be 'read_committed' or 'read_uncommitted', "
                                              rf"not {bad!r}$"):
            decode_records(b"", isolation_level=bad, aborted_transactions=[])
