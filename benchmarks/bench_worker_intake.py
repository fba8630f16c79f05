"""The adjudicator worker's step over fetched record batches, without a broker: the
native core splitting each batch (``raw_batches``) against aiokafka's record-by-record
delivery (``ConsumerRecord``s into the same step), measured in the same run.

A simulated HCF log is written into Kafka record batches by aiokafka's own batch builder
(``--batch-records`` records a batch, as a producer's batches hold; pitwatch's producer
sends up to 256 kB, Java's default 16 kB), concatenated as one fetched partition, and
each run takes every record through aiokafka's fetch-side unpacking (CRC checks
included) and ``PartitionTables.process`` in polls of ``--poll`` records, outputs built
but not sent. Best of ``--repeat`` (CPU time of this process); the two paths' outputs are
compared byte for byte first.

    python benchmarks/bench_worker_intake.py [--tables 8] [--hands 100] [--batch-records 45]
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from aiokafka.record.default_records import DefaultRecordBatchBuilder  # noqa: E402
from aiokafka.structs import TopicPartition  # noqa: E402

from services.games.profiles import BUILTIN_PROFILE, read_profiles  # noqa: E402
from services.pipeline import raw_batches  # noqa: E402
from services.pipeline.producer import record_key  # noqa: E402
from services.pipeline.step import PartitionTables  # noqa: E402
from services.pipeline.topics import TopicNames  # noqa: E402
from services.simulator.run import simulate  # noqa: E402

PROFILES = read_profiles()
TOPICS = TopicNames.with_prefix("bench-")
TP = TopicPartition(TOPICS.events, 0)
READ_COMMITTED = 1


def fetched_bytes(values: list[bytes], per_batch: int) -> bytes:
    out = bytearray()
    for first in range(0, len(values), per_batch):
        builder = DefaultRecordBatchBuilder(2, 0, 0, -1, -1, -1, 1 << 30)
        for delta, value in enumerate(values[first:first + per_batch]):
            builder.append(delta, 1_700_000_000_000, record_key(value), value, [])
        built = bytearray(builder.build())
        built[0:8] = struct.pack(">q", first)
        out += built
    return bytes(out)


class Position:
    """The consumer's position in the partition (aiokafka's assignment, as it uses it)."""

    active = True

    def __init__(self) -> None:
        self.position = 0
        self.paused = False

    def consumed_to(self, position: int) -> None:
        self.position = position

    def state_value(self, tp: TopicPartition) -> Position:
        return self


def one_run(buf: bytes, raw: bool, poll: int) -> tuple[float, list[Any], int]:
    """CPU seconds, outputs and hands of taking the whole fetch through the step."""
    position = Position()
    started = time.process_time()
    records = raw_batches.RawPartitionRecords(
        TP, raw_batches.KeptMemoryRecords(buf), [], 0, None,
        raw_batches.RAW_BATCHES if raw else None, True, READ_COMMITTED)
    fetch = raw_batches.RawFetchResult(TP, assignment=position, partition_records=records,
                                       backoff=0)
    tables = PartitionTables(TOPICS, 0, PROFILES, "native")
    outputs: list[Any] = []
    hands = 0
    while fetch.has_more():
        before = position.position
        with raw_batches.records_per_poll(poll):
            items = fetch.getall(max_records=poll)
        result = tables.process(items, skip_below=before)
        outputs += result.outgoing
        hands += result.hands
    return time.process_time() - started, outputs, hands


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--hands", type=int, default=100, help="hands per table")
    parser.add_argument("--batch-records", type=int, default=45)
    parser.add_argument("--poll", type=int, default=2000, help="records per poll")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    log = simulate(["hcf"], args.tables, args.hands, seed=1, profile=PROFILES.get(BUILTIN_PROFILE))
    values = [orjson.dumps(e) for e in log.events]
    buf = fetched_bytes(values, args.batch_records)
    _, by_record, hands = one_run(buf, False, args.poll)
    _, by_batch, _ = one_run(buf, True, args.poll)
    if [(o.topic, o.key, o.value) for o in by_record] != [(o.topic, o.key, o.value)
                                                           for o in by_batch]:
        raise SystemExit("the two paths' outputs differ")
    best = {False: float("inf"), True: float("inf")}
    for _ in range(args.repeat):
        for raw in (False, True):
            best[raw] = min(best[raw], one_run(buf, raw, args.poll)[0])
    events = len(values)
    print(f"{events:,} HCF events, {hands:,} hands, {args.batch_records} records a batch, "
          f"polls of {args.poll} (best of {args.repeat}, CPU time)")
    for raw, label in ((False, "record by record (aiokafka's ConsumerRecords)"),
                       (True, "whole batches to the core (raw_batches)")):
        seconds = best[raw]
        print(f"  {label:48s} {seconds / events * 1e6:6.2f} us/event "
              f"{seconds / hands * 1e3:6.3f} ms/hand {hands / seconds:8,.0f} hands/s")
    print(f"  ratio: batches {best[False] / best[True]:.2f}x record by record")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
