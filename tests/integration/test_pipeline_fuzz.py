"""The seeded hostile corpus (tests/fuzz/corpus.py, issue #19) through the Kafka
adjudicator: every kind of damage, junk without a key, records of every game.

What must hold, as in the embedded fuzz suite: the worker never exits; every table the
damage did not touch comes out byte-identical to the clean run; every record the worker
refuses is in the DLQ unchanged, with a reason header that starts with one of the
contract's codes (docs/events.md) or names the Kafka-only refusals (a key that is not the
record's table_id, a record without a value).
"""

from __future__ import annotations

from services.events.contract import decode_record
from services.pipeline.step import REASON_HEADER
from tests.fuzz.corpus import build_corpus
from tests.fuzz.test_fuzz_adjudicate import REASON_CODES
from tests.integration import pipeline_fixtures
from tests.integration.pipeline_fixtures import PipelineFactory
from tests.integration.pipeline_support import deduplicated, embedded_reference

pipeline = pipeline_fixtures.pipeline

SEED = 3
KAFKA_ONLY_REASONS = ("record key ", "empty record")


def test_hostile_corpus_through_the_worker(pipeline: PipelineFactory) -> None:
    corpus = build_corpus(SEED)
    clean = embedded_reference(corpus.clean).records
    untouched = {hand: record for hand, record in clean.items()
                 if decode_record(record).table_id in corpus.untouched}
    assert untouched and corpus.touched, "the corpus damages some tables and spares others"

    p = pipeline(partitions=3)
    worker = p.start_adjudicator()
    p.produce_keyed(zip(corpus.keys, corpus.mutated, strict=True))
    p.wait_until(lambda: set(untouched) <= set(p.hands_seen()),
                 "every hand of the untouched tables")
    got = deduplicated(p.hands_seen())
    differ = sorted(h for h in untouched if got[h] != untouched[h])
    assert not differ, f"seed {SEED}: untouched hands differ from the clean run: {differ[:5]}"

    dead = p.dead_letters()
    assert dead, "the corpus holds records the worker must refuse"
    for message in dead:
        reason = dict(message.headers)[REASON_HEADER]
        assert reason is not None
        text = reason.decode()
        assert text.startswith(REASON_CODES + KAFKA_ONLY_REASONS), text
    assert worker.process.poll() is None, worker.tail()
