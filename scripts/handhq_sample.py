"""Import and adjudicate a sample of HandHQ ``.phhs`` files; print what pitwatch can say.

    python scripts/handhq_sample.py FOLDER... [--rule-profile NAME] [--chip-unit 0.01]

Prints, for the whole sample and per venue: the hands read, imported (with limits) and
skipped (by reason); the adjudication statuses and the findings by code; and, for the
rake, what the venue took from each raked pot (by players dealt: hands, the largest rake,
the rake as a share of the pot, raked pots without a flop), which is what a venue's pot
rake schedule (``[rake.pot]``) has to reproduce. With ``--rule-profile`` (a profile in
``PITWATCH_PROFILES`` holding the venue's schedule) the statuses show how many pots the
schedule rakes exactly. Run on demand (the HandHQ files are not in the repository).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from services.adjudicator.embedded import adjudicate_lines  # noqa: E402
from services.games.profiles import read_profiles  # noqa: E402
from services.importers.phh import RULE_PROFILE, import_phh, skipped_by_reason  # noqa: E402


@dataclass
class RakeSeen:
    """The venue's rake, as its records show it, by players dealt."""

    hands: Counter[int] = field(default_factory=Counter)
    raked: Counter[int] = field(default_factory=Counter)
    largest: dict[int, int] = field(default_factory=dict)
    shares: dict[int, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    raked_without_flop: int = 0


def venue_of(table_id: str) -> str:
    return table_id.removeprefix("phh:").partition("/")[0]


def rake_seen(events: list[dict[str, Any]]) -> dict[str, RakeSeen]:
    """Per venue: each hand's pot (chips put in, less the uncalled refund), the rake the
    venue took from it (``rake_collected`` from the pot), the players and the flop."""
    out: dict[str, RakeSeen] = defaultdict(RakeSeen)
    hands: dict[str, dict[str, Any]] = {}
    for event in events:
        hand_id = event["hand_id"]
        if hand_id is None:
            continue
        hand = hands.setdefault(hand_id, {"pot": 0, "rake": 0, "players": 0, "board": 0,
                                          "venue": venue_of(event["table_id"])})
        data, type_ = event["data"], event["type"]
        if type_ == "hand_started":
            hand["players"] = len(data["seats"])
        elif type_ == "action" and data.get("amount"):
            hand["pot"] += data["amount"]
        elif type_ == "payout" and data["kind"] == "refund":
            hand["pot"] -= data["amount"]
        elif type_ == "rake_collected" and data["from"] == "pot":
            hand["rake"] += data["amount"]
        elif type_ == "card_dealt" and data["to"] == "board":
            hand["board"] += 1
    for hand in hands.values():
        seen, players = out[hand["venue"]], hand["players"]
        seen.hands[players] += 1
        if hand["rake"]:
            seen.raked[players] += 1
            seen.largest[players] = max(seen.largest.get(players, 0), hand["rake"])
            seen.shares[players].append((hand["rake"], hand["pot"]))
            seen.raked_without_flop += hand["board"] == 0
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--rule-profile", default=RULE_PROFILE)
    parser.add_argument("--chip-unit", default=None)
    args = parser.parse_args()
    unit = Decimal(args.chip_unit) if args.chip_unit else None
    result = import_phh(args.folders, rule_profile=args.rule_profile, chip_unit=unit)
    records = [r for step in adjudicate_lines((orjson.dumps(e) for e in result.events),
                                              read_profiles()) for r in step.records]
    limited = {hand for hand, _ in result.limited}
    print(f"read {result.read} hand(s): {result.hands} imported ({len(limited)} with "
          f"limits), {len(result.skipped)} skipped; tables {len(result.scales)}; "
          f"chip scales {sorted(Counter(result.scales.values()).items())}")
    for reason, count in skipped_by_reason(result.skipped, result.kinds):
        print(f"  skipped {count:6d}  {reason}")
    for limit, count in Counter(limit for _, limit in result.limited).most_common():
        print(f"  limited {count:6d}  {limit}")
    by_venue: dict[str, Counter[str]] = defaultdict(Counter)
    codes: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        venue = venue_of(record.table_id)
        by_venue[venue][record.status] += 1
        for found in {f.code for f in record.findings}:
            codes[venue][found] += 1
    print(f"statuses: {dict(Counter(r.status for r in records))}")
    for venue in sorted(by_venue):
        print(f"{venue}: {dict(by_venue[venue])}; hands with each finding: "
              f"{dict(codes[venue].most_common())}")
    for venue, seen in sorted(rake_seen(result.events).items()):
        print(f"{venue} rake (chips of the import's unit), by players dealt "
              f"({seen.raked_without_flop} raked pot(s) without a flop):")
        for players in sorted(seen.hands):
            shares = seen.shares.get(players, [])
            ratios = [Decimal(r) / Decimal(p) for r, p in shares if p]  # exact, no floats
            low, high = (min(ratios), max(ratios)) if ratios else (Decimal(0), Decimal(0))
            print(f"  {players} players: {seen.hands[players]} hands, {seen.raked[players]} "
                  f"raked, largest rake {seen.largest.get(players, 0)}, rake/pot "
                  f"{low:.3f}..{high:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
