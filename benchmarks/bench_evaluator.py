"""Hand-evaluation throughput: pitwatch against treys, phevaluator and pokerkit.

Run: ``python benchmarks/bench_evaluator.py`` (``--scale 0.2`` for a quicker run).

Every figure is evaluations per second on one core, the best of many short interleaved
rounds (``--rounds``), measured in this run; ratios compare against the peers measured in
the same run (absolute numbers on a shared machine are noise, ratios much less so).
Single-call figures are one Python call per hand with cards already encoded in each
library's own integer form (wire strings for pokerkit, which has no integer form;
``pitwatch single (str)`` is our wire-string entry point ``standard.best_rank`` /
``short_deck.rank5``; ``pitwatch native single`` is the native core's ``CardRanking``,
``services.games.evaluation.native``, on the same tables as the Python ``fast`` path).
Batch figures are one numpy call over an (N, n) array; the peers have no batch API, so batch ratios are against their single calls. Short-deck hands are
36-card (6-A), the only short deck pokerkit ranks.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from phevaluator import evaluate_cards
from pokerkit import ShortDeckHoldemHand, StandardHighHand
from treys import Card, Evaluator

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.games.cards import SHORT_DECK_36, STANDARD_DECK
from services.games.draw7a import evaluation as short_deck
from services.games.evaluation import batch, fast, standard
from services.games.evaluation.native import native_ranking, native_short_deck_ranking
from services.games.evaluation.tables import card_index

PEERS = ("treys", "phevaluator", "pokerkit")


def random_hands(rng: np.random.Generator, deck: list[int], count: int, size: int) -> np.ndarray:
    pool = np.asarray(deck, dtype=np.uint8)
    order = rng.permuted(np.tile(np.arange(len(pool)), (count, 1)), axis=1)[:, :size]
    return np.ascontiguousarray(pool[order])


ROUNDS = 15


def interleaved_rates(runs: dict[str, tuple[Callable[[], object], int]]) -> dict[str, float]:
    """Evaluations per second of each run, best of ``rounds``. The runs take turns
    within each round, so a burst of load from elsewhere on the machine hits every
    evaluator alike instead of skewing one ratio."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(ROUNDS):
        for name, (run, _count) in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: count / best[name] for name, (_run, count) in runs.items()}


def singles(function: Callable[..., object], hands: list[list[int]]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            function(*hand)

    return run


def each(function: Callable[[object], object], items: list[object]) -> Callable[[], None]:
    def run() -> None:
        for item in items:
            function(item)

    return run


def measure_standard(
    size: int, count: int, slow_count: int, rng: np.random.Generator
) -> dict[str, float]:
    hands = random_hands(rng, list(range(52)), count, size)
    rows = hands.tolist()
    names = [[STANDARD_DECK[i] for i in hand] for hand in rows]
    by_size: dict[int, Callable[..., int]] = {5: fast.eval5, 7: fast.eval7}
    ours = by_size[size]
    treys_deck = [Card.new(card) for card in STANDARD_DECK]
    treys_rows = [[treys_deck[i] for i in hand] for hand in rows]
    evaluator = Evaluator()
    texts = ["".join(hand) for hand in names[:slow_count]]
    pokerkit = StandardHighHand if size == 5 else StandardHighHand.from_game
    big = random_hands(rng, list(range(52)), 20 * count, size)
    native = {5: native_ranking().eval5, 7: native_ranking().eval7}[size]
    return interleaved_rates(
        {
            "pitwatch native single (int)": (singles(native, rows), count),
            "pitwatch single (int)": (singles(ours, rows), count),
            "pitwatch single (str)": (each(standard.best_rank, names), count),  # type: ignore[arg-type]
            "pitwatch batch": (lambda: batch.rank_hands(big), len(big)),
            "pitwatch batch (unvalidated)": (
                lambda: batch.rank_hands(big, validate=False),
                len(big),
            ),
            "treys": (each(lambda h: evaluator.evaluate([], h), treys_rows), count),  # type: ignore[arg-type]
            "phevaluator": (singles(evaluate_cards, rows), count),
            "pokerkit": (each(pokerkit, texts), slow_count),  # type: ignore[arg-type]
        }
    )


def measure_short_deck(
    size: int, count: int, slow_count: int, rng: np.random.Generator
) -> dict[str, float]:
    deck = [card_index(card) for card in SHORT_DECK_36]
    hands = random_hands(rng, deck, count, size)
    rows = hands.tolist()
    names = [[STANDARD_DECK[i] for i in hand] for hand in rows]
    evaluator = fast.short_deck_evaluator(36)
    by_size: dict[int, Callable[..., int]] = {5: evaluator.eval5, 7: evaluator.eval7}
    ours = by_size[size]
    texts = ["".join(hand) for hand in names[:slow_count]]
    pokerkit = ShortDeckHoldemHand if size == 5 else ShortDeckHoldemHand.from_game
    big = random_hands(rng, deck, 20 * count, size)
    native_ranks = native_short_deck_ranking(36)
    native = {5: native_ranks.eval5, 7: native_ranks.eval7}[size]
    by_str = (
        (lambda h: short_deck.rank5(h, 36))
        if size == 5
        else (lambda h: short_deck.best_rank(h, 36))
    )
    return interleaved_rates(
        {
            "pitwatch native single (int)": (singles(native, rows), count),
            "pitwatch single (int)": (singles(ours, rows), count),
            "pitwatch single (str)": (each(by_str, names), count),  # type: ignore[arg-type]
            "pitwatch batch": (lambda: batch.short_deck_rank(big, 36), len(big)),
            "pitwatch batch (unvalidated)": (
                lambda: batch.short_deck_rank(big, 36, validate=False),
                len(big),
            ),
            "pokerkit": (each(pokerkit, texts), slow_count),  # type: ignore[arg-type]
        }
    )


def report(title: str, figures: dict[str, float]) -> None:
    peers = [peer for peer in PEERS if peer in figures]
    print(f"\n## {title}\n")
    header = "| evaluator | evals/s | " + " | ".join(f"x {peer}" for peer in peers) + " |"
    print(header)
    print("|" + "---|" * (2 + len(peers)))
    for name, value in figures.items():
        ratios = " | ".join(f"{value / figures[peer]:.2f}" for peer in peers)
        print(f"| {name} | {value:,.0f} | {ratios} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply hand counts")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds")
    args = parser.parse_args()
    global ROUNDS
    ROUNDS = args.rounds
    count = max(1000, int(20_000 * args.scale))
    slow_count = max(100, int(1_000 * args.scale))
    rng = np.random.default_rng(2024)
    print(
        f"per round: single calls {count:,} hands (pokerkit {slow_count:,}), "
        f"batch {20 * count:,} hands; best of {ROUNDS} rounds"
    )
    report("standard 5-card", measure_standard(5, count, slow_count, rng))
    report("standard 7-card (best five)", measure_standard(7, count, slow_count, rng))
    report("short deck 36 5-card (FCD-10)", measure_short_deck(5, count, slow_count, rng))
    report("short deck 36 7-card (best five)", measure_short_deck(7, count, slow_count, rng))


if __name__ == "__main__":
    main()
