"""Kafka broker log directories: ``.log``, ``.index``, ``.timeindex``, ``.txnindex``.

    import kafkacodec.logdir as logdir

    with logdir.open("/var/lib/kafka/data") as d:         # a LogDir
        for part in d.partitions():                       # PartitionDir per topic-N
            pos = part.lookup_offset(1234)                # (segment, byte position)
            for view in part.read_batches(1234, 2000):    # mmap-backed memoryviews
                ...
            ranges = part.split(64 << 20)                 # ByteRange list for workers
            aborted = part.aborted_transactions()         # for read_committed

Only batch headers are read here; decode the views with ``kafkacodec.records``
(or ``kafkacodec.arrow``).  Views are zero-copy slices of a read-only memory
map and keep it alive.  :class:`kafkacodec.logdir.writer.PartitionWriter`
writes partition directories the way a broker does.
"""
from kafkacodec.logdir._headers import BatchHeader, HeaderWalk, read_header
from kafkacodec.logdir._index import (
    AbortedTxn,
    IndexEntry,
    TimeIndexEntry,
    parse_offset_index,
    parse_time_index,
    parse_txn_index,
)
from kafkacodec.logdir._partition import (
    BatchReader,
    ByteRange,
    KraftSnapshot,
    LogDir,
    LogPosition,
    PartitionDir,
    open,
    parse_partition_dir_name,
    read_range,
)
from kafkacodec.logdir._segment import Segment

__all__ = [
    "open",
    "LogDir",
    "PartitionDir",
    "Segment",
    "LogPosition",
    "ByteRange",
    "KraftSnapshot",
    "BatchReader",
    "BatchHeader",
    "HeaderWalk",
    "IndexEntry",
    "TimeIndexEntry",
    "AbortedTxn",
    "read_header",
    "read_range",
    "parse_partition_dir_name",
    "parse_offset_index",
    "parse_time_index",
    "parse_txn_index",
]
