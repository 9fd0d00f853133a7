"""Kafka broker log directories: ``.log``, ``.index``, ``.timeindex``, ``.txnindex``.

    import kafkacodec.logdir as logdir

    with logdir.open("/var/lib/kafka/data") as d:         # a LogDir
        for part in d.partitions():                       # PartitionDir per topic-N
            pos = part.lookup_offset(1234)                # (segment, byte position)
            for view in part.read_batches(1234, 2000):    # checked, read-only views
                ...
            ranges = part.split(64 << 20)                 # ByteRange list for workers
            aborted = part.aborted_transactions()         # for read_committed

Only batch headers are read here (and CRCs with ``verify_crc``); decode the
views with ``kafkacodec.records`` (or ``kafkacodec.arrow``).  Views are
read-only slices of copies made with ``pread``: segments are never
memory-mapped, so a broker truncating a segment cannot crash the reader.
Every header is checked: a batch running past the end of a closed segment is
CorruptDataError naming the file, byte position and field (or skipped and
counted with ``on_corruption="skip"``).  Base offset, length, leader epoch and
magic lie outside the CRC, so each batch is also checked against its
neighbours (offsets rise, leader epochs never fall and match
``leader-epoch-checkpoint``) and the ``.index``; when two neighbours disagree,
the batches around them and the CRCs tell which one is damaged.  Only the
active segment may end in a partial batch, and only when no ``.index`` entry
and no whole batch lies at or after it (else a length is damaged); it is
counted in the read's :class:`ReadStats` (a :class:`TornTail` naming the file,
byte position and size) and logged as a warning on the ``kafkacodec.logdir``
logger, as Kafka's log recovery logs the bytes it truncates.  What cannot be
seen: a base offset moved within a compaction gap, or raised on the log's very
last batch where no index entry covers it (and, without a checkpoint, a raised
leader epoch there).
Unusable files and
directories raise :class:`LogDirError`.  :class:`kafkacodec.logdir.writer.PartitionWriter`
writes partition directories the way a broker does.
"""
from kafkacodec.logdir._errors import LogDirError, ReadStats, TornTail, locate_error
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
from kafkacodec.logdir._segment import Segment, SegmentWalk

__all__ = [
    "open",
    "LogDir",
    "PartitionDir",
    "Segment",
    "SegmentWalk",
    "LogDirError",
    "ReadStats",
    "TornTail",
    "locate_error",
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
