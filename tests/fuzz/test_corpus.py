"""The corpus itself: seeded, and honest about what it touched."""

from __future__ import annotations

from tests.fuzz.corpus import KINDS, build_corpus
from tests.fuzz.test_fuzz_adjudicate import SEEDS, corpus


def test_the_same_seed_gives_the_same_corpus() -> None:
    assert build_corpus(SEEDS[0]) == corpus(SEEDS[0])
    assert corpus(SEEDS[0]).mutated != corpus(SEEDS[1]).mutated


def test_untouched_tables_keep_exactly_their_clean_lines() -> None:
    """Every line keyed to an untouched table, in order, is that table's clean stream."""
    for seed in SEEDS:
        c = corpus(seed)
        assert len(c.keys) == len(c.mutated)
        assert c.touched and c.untouched
        for table in c.untouched:
            key = table.encode()
            mine = [line for line, k in zip(c.mutated, c.keys, strict=True) if k == key]
            clean = [line for line in c.clean if f'"table_id":"{table}"'.encode() in line]
            assert mine == clean


def test_every_kind_of_damage_is_used_across_a_run() -> None:
    assert {m.kind for seed in SEEDS for m in corpus(seed).mutations} == set(KINDS)
