"""Detection benchmark of cross-hand surveillance (run on demand, not a test).

Two tables, printed as Markdown (docs/surveillance.md, "Detection benchmark"):

1. **False alerts on honest floors**: per game, a floor of mixed-style players
   (``--styles mixed``: tight, loose, passive, aggressive and maniac at every five-handed
   table) with a rotating dealer pool, 10,000 hands in all; every alert names an honest
   player or dealer, so every alert is false. Reported per 10,000 hands.
2. **Detection**: each injected pattern at two strengths, over several seeds: how often
   it is found within the horizon (recall), after how many of the host table's hands
   (median of the seeds that found it; for sweethearting also the overpay count at the
   first alert), and precision: the share of alerts that name the pattern's cast (the
   rest name someone honest); then the same per seed, with every subject the run's
   alerts named.

An alert *finds* a pattern when its code is one of the pattern's codes and the people it
names are the cast: the pair (soft play, dumping), the dealer and the friend
(sweethearting; a SURV-8 on the table where it overpaid counts too), the dealer or its
table (drift), the cheat (information sharing, a stacked deck).

    python benchmarks/bench_surveillance.py            # the full benchmark (~15 min, 2 cores)
    python benchmarks/bench_surveillance.py --quick    # one seed, shorter floors
    python benchmarks/bench_surveillance.py --only soft_play --floors holdem
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.events.contract import Alert
from services.games.profiles import BUILTIN_PROFILE, read_profiles
from services.simulator.options import PatternSpec, SimulationOptions
from services.simulator.patterns import PATTERNS
from services.simulator.run import simulate
from services.simulator.truth import TruthLabel
from services.surveillance import surveil_lines, surveillance_config
from services.surveillance.links import entity, pair

GAMES = ("hcf", "chinese", "draw7a", "russian", "holdem")
# SURV-5 and SURV-8 run in the review: every 100 hands of the log, as the Kafka service's
# --review-every does, so their hands to detect are measured, not the log's length.
REVIEW_EVERY = 100


@dataclass(frozen=True)
class Scenario:
    pattern: str
    games: tuple[str, ...]
    tables: int
    hands: int  # per table: the horizon
    strengths: tuple[float, ...]
    styles: str = "mixed"
    note: str = ""


SCENARIOS = (
    Scenario("soft_play", ("holdem",), 1, 1000, (1.0, 0.7), styles="tight",
             note="5-handed NL, tight players"),
    Scenario("soft_play", ("holdem",), 1, 3000, (1.0,), note="5-handed NL, mixed styles"),
    Scenario("fold_dumping", ("holdem",), 1, 3000, (0.02, 0.05), note="5-handed NL, mixed"),
    Scenario("showdown_dumping", ("holdem",), 1, 3000, (0.3, 1.0), styles="tight",
             note="5-handed NL, tight players"),
    Scenario("fold_dumping", ("draw7a",), 1, 3000, (0.02, 0.05),
             note="Draw 7-A, 5 seats, mixed"),
    Scenario("sweetheart_overpay", ("hcf", "russian", "draw7a", "holdem", "chinese"), 10, 300,
             (1.0, 0.5), note="10 tables of 5 games, 12 dealers"),
    # One game's floor of 10 tables: enough hands of the game for SURV-8 to see the dealer.
    Scenario("sweetheart_overpay", ("hcf",), 10, 300, (1.0,), note="10 HCF tables, 12 dealers"),
    Scenario("information_sharing", ("russian",), 2, 1500, (1.0, 0.5), note="Russian, 2 tables"),
    Scenario("stacked_deck", ("hcf",), 2, 1500, (0.2, 0.1), note="HCF, 2 tables"),
    Scenario("stacked_deck", ("russian",), 2, 1500, (0.2, 0.1), note="Russian, 2 tables"),
    Scenario("dealer_drift", ("hcf",), 4, 1000, (0.2, 0.1), note="HCF, 4 tables, 6 dealers"),
)


def run_log(games: tuple[str, ...], tables: int, hands: int, seed: int, styles: str,
            patterns: tuple[PatternSpec, ...]) -> tuple[list[TruthLabel], list[Alert], int]:
    profiles = read_profiles()
    profile = profiles.get(BUILTIN_PROFILE)
    options = SimulationOptions(dealers=tables + 2, styles=styles, players=5,
                                patterns=patterns)
    log = simulate(list(games), tables, hands, seed, profile=profile, options=options)
    lines = ((orjson.dumps(e), f"line {n}") for n, e in enumerate(log.events, start=1))
    run = surveil_lines(lines, surveillance_config(profile), profiles,
                        review_every=REVIEW_EVERY)
    return log.truth, run.alerts, run.hands_surveilled


def names_cast(alert: Alert, labels: list[TruthLabel]) -> bool:
    """Whether the alert is about the pattern's cast (see the module docstring)."""
    if not labels:
        return False
    label = labels[0]
    if alert.code not in PATTERNS[label.fault].codes:
        return False
    parties = set(alert.parties or [])
    players = label.players or []
    if label.fault in ("soft_play", "fold_dumping", "showdown_dumping"):
        return alert.subject == pair(players[0], players[1])
    if label.fault == "sweetheart_overpay":  # the dealer (and friend), or the host table
        if alert.rule == "SURV-8" and alert.subject == entity("table", label.table_id):
            return True
        return alert.subject == entity("dealer", label.dealer) and (
            alert.rule != "SURV-2" or entity("player", players[0]) in parties)
    if label.fault == "dealer_drift":
        return alert.subject in (entity("dealer", label.dealer),
                                 entity("table", label.table_id))
    return alert.subject == entity("player", players[0])


def hand_number(alert: Alert) -> int:
    return int((alert.hand_id or "0").rsplit("-", 1)[-1])


def detection(job: tuple[Scenario, float, int]) -> dict[str, Any]:
    scenario, strength, seed = job
    truth, alerts, _ = run_log(scenario.games, scenario.tables, scenario.hands, seed,
                               scenario.styles, (PatternSpec(scenario.pattern, strength),))
    labels = [t for t in truth if t.fault == scenario.pattern]
    found = [a for a in alerts if names_cast(a, labels)]
    first = min(found, key=hand_number) if found else None
    count = (first.evidence or {}).get("count") if first is not None else None
    named = sorted({a.subject or "-" for a in alerts})
    return {"found": first is not None, "hands": hand_number(first) if first else None,
            "count": count, "alerts": len(alerts), "right": len(found),
            "labels": len(labels), "seed": seed, "named": named,
            "linked": linked(found) if scenario.pattern == "sweetheart_overpay" else None}


def linked(found: list[Alert]) -> tuple[bool, bool | None]:
    """Sweethearting: (the first SURV-2 lists its MISPAY findings, a SURV-8 on the same
    dealer lists that SURV-2 among its related alerts; None when no SURV-8 alerted)."""
    sweet = [a for a in found if a.rule == "SURV-2"]
    with_findings = bool(sweet) and bool(sweet[0].findings)
    drifts = [a for a in found if a.rule == "SURV-8"]
    if not drifts:
        return with_findings, None
    ids = {a.alert_id for a in sweet}
    return with_findings, any(ids & set(a.related_alerts or []) for a in drifts)


def false_alerts(job: tuple[str, int, int, int]) -> dict[str, Any]:
    game, tables, hands, seed = job
    _, alerts, surveilled = run_log((game,), tables, hands, seed, "mixed", ())
    return {"game": game, "hands": surveilled, "alerts": len(alerts),
            "rules": sorted({a.rule for a in alerts})}


def jobs(quick: bool, only: set[str]) -> Iterator[tuple[Scenario, float, int]]:
    seeds = (1,) if quick else (1, 2, 3)
    for scenario in SCENARIOS:
        if only and scenario.pattern not in only:
            continue
        for strength in scenario.strengths:
            for seed in seeds:
                yield scenario, strength, seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="patterns to run, comma-separated")
    parser.add_argument("--floors", default=",".join(GAMES),
                        help="games of the honest floors, comma-separated ('' for none)")
    args = parser.parse_args()
    started = time.time()
    floor_hands = 2_000 if args.quick else 10_000
    floors = [(game, 4, floor_hands // 4, 7) for game in args.floors.split(",") if game]
    detection_jobs = list(jobs(args.quick, set(filter(None, args.only.split(",")))))
    with ProcessPoolExecutor(args.workers) as pool:
        honest = list(pool.map(false_alerts, floors))
        found = list(pool.map(detection, detection_jobs))
    print(f"## False alerts on honest mixed-style floors ({floor_hands:,} hands per game)\n")
    print("| game | hands | alerts | per 10,000 hands | rules |")
    print("|---|---:|---:|---:|---|")
    for row in honest:
        rate = row["alerts"] * 10_000 / max(row["hands"], 1)
        print(f"| {row['game']} | {row['hands']:,} | {row['alerts']} | {rate:.1f} | "
              f"{', '.join(row['rules']) or '-'} |")
    print(f"\n## Detection (seeds: {1 if args.quick else 3})\n")
    print("| pattern | setting | strength | labelled hands | found | hands to detect "
          "(median) | count at first alert | precision | SURV-2 linked to |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    by_case: dict[tuple[str, str, float], list[dict[str, Any]]] = {}
    for (scenario, strength, _), result in zip(detection_jobs, found, strict=True):
        by_case.setdefault((scenario.pattern, scenario.note, strength), []).append(result)
    for (pattern, note, strength), results in by_case.items():
        hits = [r for r in results if r["found"]]
        hands = statistics.median(r["hands"] for r in hits) if hits else None
        counts = [r["count"] for r in hits if r["count"] is not None]
        alerts = sum(r["alerts"] for r in results)
        right = sum(r["right"] for r in results)
        precision = f"{right / alerts:.2f}" if alerts else "-"
        labelled = statistics.median(r["labels"] for r in results)
        links = [r["linked"] for r in hits if r["linked"] is not None]
        drift = [d for _, d in links if d is not None]
        shown = (f"MISPAY {sum(f for f, _ in links)}/{len(links)}, SURV-8 "
                 f"{sum(drift)}/{len(drift)}" if links else "-")
        print(f"| {pattern} | {note} | {strength:g} | {labelled:g} | {len(hits)}/{len(results)} "
              f"| {hands if hands is not None else '-'} | "
              f"{statistics.median(counts) if counts else '-'} | {precision} | {shown} |")
    print("\n## Detection per seed\n")
    print("| pattern | setting | strength | seed | labelled hands | found | hands to detect "
          "| count at first alert | alerts (naming the cast) | subjects named |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---|")
    for (scenario, strength, _), r in zip(detection_jobs, found, strict=True):
        print(f"| {scenario.pattern} | {scenario.note} | {strength:g} | {r['seed']} | "
              f"{r['labels']} | {'yes' if r['found'] else 'no'} | {r['hands'] or '-'} | "
              f"{r['count'] if r['count'] is not None else '-'} | {r['alerts']} "
              f"({r['right']}) | {', '.join(r['named']) or '-'} |")
    print(f"\n({time.time() - started:.0f} s)")


if __name__ == "__main__":
    main()
