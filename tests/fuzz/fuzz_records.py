"""atheris target: the record layer and the columnar decoder on arbitrary bytes.

    python tests/fuzz/fuzz_records.py -atheris_runs=200000 [corpus_dir]

Any exception other than the codec's own errors is a finding.
"""
import os
import sys

import atheris

with atheris.instrument_imports():
    import kafkacodec.records as records
    from kafkacodec.errors import KafkaCodecError
    try:
        import kafkacodec.arrow as karrow
    except ImportError:
        karrow = None

# Bounded decompression so inflating fuzz input stays small and quick.
LIMIT = 1 << 20


def one_input(data: bytes):
    verify = bool(data[:1]) and data[0] & 1
    try:
        it = records.iter_batches(data, verify_crc=verify, max_decompressed_size=LIMIT)
        for batch in it:
            for rec in batch:
                rec.key, rec.value, rec.headers, rec.offset, rec.timestamp
            batch.control_record()
    except KafkaCodecError:
        pass
    try:
        records.decode_records(data, isolation_level="read_committed", aborted_transactions=[(0, 0), (1, 5)],
                               verify_crc=False, max_decompressed_size=LIMIT)
    except KafkaCodecError:
        pass
    if karrow is not None:
        try:
            karrow.decode(data, verify_crc=False, batch_columns=True, max_decompressed_size=LIMIT).validate(full=True)
        except KafkaCodecError:
            pass


def main():
    corpus = [a for a in sys.argv[1:] if not a.startswith("-")]
    if corpus and not os.listdir(corpus[0]):
        sys.path.insert(0, os.path.dirname(__file__))
        from _seeds import record_seeds
        for i, seed in enumerate(record_seeds()):
            with open(os.path.join(corpus[0], f"seed{i}"), "wb") as f:
                f.write(seed)
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
