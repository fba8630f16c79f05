"""A seeded corpus of hostile input over clean streams of all five games (issue #19).

Why a module of its own: the same corpus feeds the embedded suite here
(``tests/fuzz/test_fuzz_adjudicate.py``), the Kafka adjudicator in the integration suite
and, once it exists, the native intake as its differential test. Everything is decided by
the seed, so a failure names a seed that reproduces it.

    from tests.fuzz.corpus import build_corpus, corpora

    corpus = build_corpus(seed=7)              # one Corpus
    corpus.clean, corpus.mutated               # list[bytes]: one record per line/message
    corpus.touched                             # frozenset of table ids damaged
    corpus.keys                                # Kafka key of each mutated record
    for corpus in corpora(first_seed=1, count=4, min_records=100_000): ...

A clean stream is what ``services.simulator`` writes for every game (faults the games
know injected at a low rate: they are valid input with findings). The mutated stream is
the same records with damage at chosen places: one record replaced by a damaged copy
(``mutations.REPLACEMENTS``), removed, swapped with a later record of its table, repeated
nearby or far later (an exact redelivery), and junk lines of no table inserted.

``touched`` is every table whose records were damaged, moved, removed or repeated, plus
every table whose id appears in a damaged or inserted line (a perturbed ``table_id`` may
name another table). Every other table's records and alerts must come out byte-identical
to the clean run; that is the property the suites check.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import orjson

from services.simulator.registry import SIMULATOR_MODULES
from services.simulator.run import available_faults, simulate
from tests.fuzz.mutations import REPLACEMENTS, junk_line

GAMES: tuple[str, ...] = tuple(SIMULATOR_MODULES)
# How often each kind of damage is chosen (replacements by their name in REPLACEMENTS).
MOVES = ("removed", "reordered", "duplicate_near", "duplicate_far", "junk")
KINDS: tuple[str, ...] = (*REPLACEMENTS, *MOVES)


@dataclass(frozen=True)
class Mutation:
    kind: str
    line: int  # index in the clean stream of the record damaged (or after which inserted)
    table_id: str | None  # the clean record's table (None: a junk line)


@dataclass(frozen=True)
class Corpus:
    seed: int
    clean: list[bytes]
    mutated: list[bytes]
    touched: frozenset[str]
    mutations: tuple[Mutation, ...]
    # The table each mutated record was meant for (the clean record's ``table_id``,
    # encoded): its Kafka key, as a table system would key it; None for a junk line.
    keys: list[bytes | None]

    @property
    def table_ids(self) -> frozenset[str]:
        return frozenset(t for t in map(_table_of, self.clean) if t is not None)

    @property
    def untouched(self) -> frozenset[str]:
        return self.table_ids - self.touched


def clean_stream(seed: int, tables_per_game: int = 2, hands: int = 40,
                 games: Sequence[str] = GAMES) -> list[bytes]:
    """Every game's tables interleaved as the simulator writes them, one record a line."""
    tables = [game for game in games for _ in range(tables_per_game)]
    faults = frozenset().union(*(available_faults(g) for g in games)) - {"tamper"}
    log = simulate(tables, len(tables), hands, seed, faults, fault_rate=0.03)
    return [orjson.dumps(e) for e in log.events]


def build_corpus(seed: int, *, tables_per_game: int = 2, hands: int = 40,
                 mutations: int = 80, games: Sequence[str] = GAMES) -> Corpus:
    """A clean stream (see ``clean_stream``) and ``mutations`` kinds of damage to it."""
    clean = clean_stream(seed, tables_per_game, hands, games)
    rng = random.Random(f"pitwatch-fuzz:{seed}")
    mutated, keys, touched, done = mutate(clean, rng, mutations)
    return Corpus(seed, clean, mutated, touched, done, keys)


def corpora(first_seed: int, count: int, *, min_records: int = 0,
            **options: int) -> Iterator[Corpus]:
    """``count`` corpora with consecutive seeds, and more until ``min_records`` mutated
    records were yielded in all."""
    seed, records = first_seed, 0
    while seed < first_seed + count or records < min_records:
        corpus = build_corpus(seed, **options)  # type: ignore[arg-type]
        records += len(corpus.mutated)
        yield corpus
        seed += 1


def mutate(clean: list[bytes], rng: random.Random, count: int
           ) -> tuple[list[bytes], list[bytes | None], frozenset[str], tuple[Mutation, ...]]:
    """The damaged stream, each line's key, the tables touched and what was done (see
    the module doc)."""
    stream = _Stream(clean)
    known = sorted({t for t in stream.tables if t is not None})
    # Damage goes to half the tables, so that the other half shows what must not change.
    victims = set(rng.sample(known, max(1, len(known) // 2)))
    touched: set[str] = set()
    done: list[Mutation] = []
    while len(done) < count:
        kind = rng.choice(KINDS)
        index = rng.randrange(len(clean))
        table = stream.tables[index]
        if kind != "junk" and (index in stream.used or table not in victims):
            continue
        line = stream.apply(kind, index, rng)
        if line is None:
            continue
        if kind == "junk":
            table = None
        else:
            touched.add(table)  # type: ignore[arg-type]
        touched.update(t for t in known if t.encode() in line)
        done.append(Mutation(kind, index, table))
    # One record a line: a raw newline (a flipped bit, random junk) would split it in a file.
    lines = [(line.replace(b"\n", b" "), key) for line, key in stream.lines()]
    return [line for line, _ in lines], [key for _, key in lines], frozenset(touched), tuple(done)


class _Stream:
    """The clean records by position: each position's own record (damaged, moved or
    gone) and the lines inserted after it."""

    def __init__(self, clean: list[bytes]) -> None:
        self.clean = clean
        self.tables = [_table_of(line) for line in clean]
        self.own: list[bytes | None] = list(clean)
        self.after: list[list[bytes]] = [[] for _ in clean]
        self.used: set[int] = set()
        self.key_of: dict[bytes, bytes] = {}  # damaged or copied line -> its table's key
        for line, table in zip(clean, self.tables, strict=True):
            if table is not None:
                self.key_of[line] = table.encode()

    def lines(self) -> list[tuple[bytes, bytes | None]]:
        """Every line with the key of the table it was meant for."""
        out: list[tuple[bytes, bytes | None]] = []
        for own, after in zip(self.own, self.after, strict=True):
            if own is not None:
                out.append((own, self.key_of.get(own)))
            out += [(line, self.key_of.get(line)) for line in after]
        return out

    def apply(self, kind: str, index: int, rng: random.Random) -> bytes | None:
        """Carry out one kind of damage at ``index``; the bytes it brought in (to look
        for table ids in), or None when it does not apply there."""
        raw = self.clean[index]
        if kind in REPLACEMENTS:
            damaged = REPLACEMENTS[kind](raw, orjson.loads(raw), rng)
            if damaged is None or damaged == raw:
                return None
            self.own[index] = damaged
            self.key_of[damaged] = self.key_of[raw]
        elif kind == "removed":
            self.own[index] = None
        elif kind == "reordered":
            later = [j for j in range(index + 1, min(index + 40, len(self.clean)))
                     if self.tables[j] == self.tables[index] and j not in self.used]
            if not later:
                return None
            other = rng.choice(later[:5])
            self.own[index], self.own[other] = self.own[other], self.own[index]
            self.used.add(other)
        elif kind in ("duplicate_near", "duplicate_far"):
            span = (1, 20) if kind == "duplicate_near" else (100, 3_000)
            self.after[min(index + rng.randint(*span), len(self.clean) - 1)].append(raw)
            return raw
        else:
            junk = junk_line(rng)
            self.after[index].append(junk)
            return junk
        self.used.add(index)
        return self.own[index] or raw


def _table_of(line: bytes) -> str | None:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    table = value.get("table_id") if isinstance(value, dict) else None
    return table if isinstance(table, str) else None
